/*
 * One ordinary deal of Paston as a state machine, writing paston.encoding's arrays as
 * it goes: every seat's full observation (3 rows, the seat's observation first) and the
 * legal mask of the seat to move. No Python here: _fastdeal.c checks every argument
 * before it calls in, so these functions trust what they get (fd_apply is called with
 * legal actions only).
 *
 * (The writing helpers and the mask are in _fastdeal.h and _fastdeal_show.c.)
 * It mirrors, statement for statement, paston.dealing (R1.2 shuffle and cut, R1.3
 * positions, R1.4-R1.5 void deals), paston.deal (the phases, R3 auction, R3.4 all-pass,
 * R4 discard and trump, R5 defence, R6 play), paston.tricks.playable (R6.2),
 * paston.scoring (R7) and paston.encoding_fast.DealEncoder (which entries an action
 * changes). tests/test_env_fastdeal.py holds it to them.
 */
#include "_fastdeal.h"

#include <string.h>

#define SUIT(c) ((c) >> 3)

/* R1.3: deck positions of the hands of the dealer's left (L), then M, then D; the
 * prikup lies at 6 and 7 (paston.dealing._POSITIONS, PRIKUP_POSITIONS). */
static const int POSITIONS[3][10] = {
    {0, 1, 8, 9, 14, 15, 20, 21, 26, 27},
    {2, 3, 10, 11, 16, 17, 22, 23, 28, 29},
    {4, 5, 12, 13, 18, 19, 24, 25, 30, 31},
};
#define SPADE_SEQUENCE_MASK 0x3Fu /* 7S .. QS (R1.4) */
#define HIGH_SPADES_MASK 0xC0u    /* KS AS */

/* R7: the multiplier of each contract and the defenders' tables (paston.scoring) */
static const int MULTIPLIER[5] = {1, 2, 3, 4, 4};
static const int TWO_DEFENDERS[3] = {-10, -9, 0};
static const int LONE_GRADED[5] = {-10, -9, -8, -7, 0};
static const int LONE_FLAT[5] = {-10, -9, -9, -9, 0};

/* --- randomness: xoshiro256** seeded by splitmix64 ------------------------------- */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next64(FDeal *d) {
    uint64_t *s = d->rng;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void fd_seed(FDeal *d, uint64_t seed) {
    for (int i = 0; i < 4; i++) d->rng[i] = splitmix64(&seed);
}

/* a uniform integer 0 .. n-1 (n >= 1), without bias (rejection) */
uint32_t fd_below(FDeal *d, uint32_t n) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = next64(d);
    while (x >= limit);
    return (uint32_t)(x % n);
}

/* R1.2: shuffle, cut, and again while the bottom card is 7S (paston.dealing.shuffled_deck) */
static void shuffle_and_cut(FDeal *d) {
    int *deck = d->deck;
    int seven = (int)d->L->v[L_SEVEN_OF_SPADES];
    for (;;) {
        for (int i = 31; i > 0; i--) {
            int j = (int)fd_below(d, (uint32_t)i + 1);
            int t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        int cut = 1 + (int)fd_below(d, 31), tmp[32];
        for (int i = 0; i < 32; i++) tmp[i] = deck[(i + cut) % 32];
        memcpy(deck, tmp, sizeof tmp);
        if (deck[31] != seven) return;
    }
}

#define W (d->L->v[L_FULL_OBSERVATION_SIZE])
#define AT(key) (d->L->v[key])

/* --- dealing ----------------------------------------------------------------------- */
static int has_spade_sequence(uint32_t hand) {
    return (hand & SPADE_SEQUENCE_MASK) == SPADE_SEQUENCE_MASK && !(hand & HIGH_SPADES_MASK);
}

/* R2.1 / R3.4: the holder of JS, else of 7S, in the hands as dealt; -1 if neither */
static int spade_jack_holder(const FDeal *d) {
    int cards[2] = {(int)AT(L_JACK_OF_SPADES), (int)AT(L_SEVEN_OF_SPADES)};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 3; s++)
            if (d->dealt[s] >> cards[k] & 1u) return s;
    return -1;
}

/* R1.3 from the deck; 1 if the deal is void at once (R1.4, R1.5) */
static int deal_cards(FDeal *d) {
    for (int k = 0; k < 3; k++) {
        uint32_t mask = 0;
        for (int i = 0; i < 10; i++) mask |= 1u << d->deck[POSITIONS[k][i]];
        d->dealt[(d->dealer + 1 + k) % 3] = mask;
    }
    d->prikup = 1u << d->deck[6] | 1u << d->deck[7];
    for (int s = 0; s < 3; s++)
        if (has_spade_sequence(d->dealt[s])) return 1;
    uint32_t both = 1u << AT(L_JACK_OF_SPADES) | 1u << AT(L_SEVEN_OF_SPADES);
    return d->first_deal && (d->prikup & both) == both;
}

/* A new deal by this dealer, dealt again while void at once (as EpisodeGame did with
 * Deal.random), and its encodings from scratch (DealEncoder.start). */
void fd_new_deal(FDeal *d, int dealer) {
    d->dealer = dealer;
    for (int i = 0; i < 32; i++) d->deck[i] = i;
    do shuffle_and_cut(d);
    while (deal_cards(d));
    memcpy(d->hands, d->dealt, sizeof d->hands);
    d->first_bidder = d->first_deal ? spade_jack_holder(d) : (dealer + 1) % 3;
    d->phase = P_AUCTION;
    d->to_move = d->first_bidder;
    d->discard = 0;
    for (int s = 0; s < 3; s++) {
        d->in_auction[s] = 1;
        d->tricks[s] = 0;
        d->scores[s] = 0;
        d->next[s] = (s + 1) % 3;
    }
    d->n_in = 3;
    d->high = d->high_bidder = d->declarer = d->bid = d->contract = d->trump = -1;
    d->n_answers = 0;
    d->n_active = 3;
    d->trick_len = 0;
    d->lead = d->win_seat = d->win_card = -1;
    d->done = 0;
    d->has_result = 0;
    d->redeal = -1;
    d->n_actions = 0;
    d->deals++;

    long w = W;
    memset(d->f, 0, sizeof(float) * (size_t)(3 * w));
    for (int s = 0; s < 3; s++) {
        float *row = d->f + s * w;
        for (int k = 0; k < 3; k++) {
            row[AT(L_IN_AUCTION) + k] = 1.0f;
            row[AT(L_TRICKS) + 11 * k] = 1.0f;
        }
        row[AT(L_HIGH_BID)] = 1.0f;
        row[AT(L_FIRST_DEAL)] = d->first_deal ? 1.0f : 0.0f;
        for (int k = 0; k < 4; k++) row[AT(L_RULES) + k] = d->rules_shown[k];
        row[AT(L_TARGET)] = (float)(d->target / d->L->default_target);
        for (int c = 0; c < 32; c++) row[AT(L_FULL_PRIKUP) + c] = (float)(d->prikup >> c & 1u);
    }
    for (int s = 0; s < 3; s++)
        for (int c = 0; c < 32; c++)
            if (d->dealt[s] >> c & 1u) fd_held(d, s, c, 1.0f);
    fd_show_totals(d);
    fd_seats(d, L_DEALER, 1, dealer, 0, 1.0f);
    fd_seats(d, L_FIRST_BIDDER, 1, d->first_bidder, 0, 1.0f);
    d->shown_phase = d->shown_mover = -1;
    d->mask_wide = 1;
    fd_show(d);
}

/* the game's totals, each divided by the target (DealEncoder.set_totals) */
void fd_show_totals(FDeal *d) {
    for (int s = 0; s < 3; s++) fd_seats(d, L_TOTALS, 1, s, 0, (float)((double)d->totals[s] / d->target));
}

/* --- the phases ------------------------------------------------------------------- */
static void finish(FDeal *d, int s0, int s1, int s2) {
    d->scores[0] = s0;
    d->scores[1] = s1;
    d->scores[2] = s2;
    d->has_result = 1;
    d->phase = P_OVER;
    d->to_move = -1;
}

/* R3.3: the auction's winner takes the prikup */
static void declare(FDeal *d, int seat, int bid) {
    d->declarer = seat;
    d->bid = bid;
    d->hands[seat] |= d->prikup;
    d->phase = P_DISCARD;
    d->to_move = seat;
    fd_seats(d, L_DECLARER, 1, seat, 0, 1.0f);
    for (int c = 0; c < 32; c++)
        if (d->prikup >> c & 1u) {
            fd_held(d, seat, c, 1.0f);
            d->f[seat * W + AT(L_PRIKUP) + c] = 1.0f;
        }
}

/* R3.4: everyone passed */
static void all_passed(FDeal *d) {
    if (d->all_pass_first_bidder && !d->first_deal) {
        declare(d, d->first_bidder, -1);
        return;
    }
    int holder = spade_jack_holder(d);
    if (holder < 0) {
        d->redeal = R_NO_JACK_NO_SEVEN;
        d->phase = P_REDEAL;
        d->to_move = -1;
        return;
    }
    declare(d, holder, -1);
}

static void auction(FDeal *d, int seat, int index) {
    if (index == AT(L_PASS)) {
        fd_seats(d, L_PASSED_AT, 6, seat, d->high + 1, 1.0f);
        fd_seats(d, L_IN_AUCTION, 1, seat, 0, 0.0f);
        d->in_auction[seat] = 0;
        d->n_in--;
    } else {
        int level = index - (int)AT(L_BID);
        fd_seats(d, L_BID_BY, 1, seat, 3 * level, 1.0f);
        fd_put3(d, AT(L_HIGH_BID) + d->high + 1, 0.0f);
        fd_put3(d, AT(L_HIGH_BID) + level + 1, 1.0f);
        d->high = level;
        d->high_bidder = seat;
        if (level == 4) {
            declare(d, seat, 4);
            return;
        }
    }
    if (d->n_in == 0) {
        all_passed(d);
        return;
    }
    if (d->n_in == 1 && d->high >= 0) {
        declare(d, d->high_bidder, d->high);
        return;
    }
    int next = (seat + 1) % 3;
    while (!d->in_auction[next]) next = (next + 1) % 3;
    d->to_move = next;
}

/* R7.1-R7.5 (paston.scoring.played_scores) */
static void score_played(FDeal *d) {
    int m = MULTIPLIER[d->contract], scores[3] = {0, 0, 0}, decl = d->declarer;
    int lone = d->n_active == 2, quota = lone ? 4 : 2;
    const int *table = lone ? (d->lone_flat ? LONE_FLAT : LONE_GRADED) : TWO_DEFENDERS;
    if (d->tricks[decl] >= 6)
        scores[decl] = d->contract == 4 ? 10 : 10 * m;
    else
        scores[decl] = -10 * m;
    for (int k = 1; k <= 2; k++) {
        int s = (decl + k) % 3;
        if (!d->answers[k - 1]) continue; /* a passer scores 0 (R7.4) */
        int t = d->tricks[s];
        scores[s] = (t <= quota ? table[t] : 10 * (t - quota)) * m;
    }
    finish(d, scores[0], scores[1], scores[2]);
}

/* R5: whist or pass; after both answers, play, or R5.3 uncontested */
static void defence(FDeal *d, int seat, int whist) {
    fd_seats(d, L_WHIST_ANSWER, 2, seat, whist ? 0 : 1, 1.0f);
    d->answers[d->n_answers++] = whist;
    if (d->n_answers == 1) {
        d->to_move = (seat + 1) % 3;
        return;
    }
    int decl = d->declarer, n = d->answers[0] + d->answers[1];
    if (n == 0) { /* R7.6: the declarer scores a made contract */
        int s[3] = {0, 0, 0};
        s[decl] = d->contract == 4 ? 10 : 10 * MULTIPLIER[d->contract];
        finish(d, s[0], s[1], s[2]);
        return;
    }
    if (n == 1) {
        int other = d->answers[0] ? (decl + 1) % 3 : (decl + 2) % 3;
        d->next[decl] = other;
        d->next[other] = decl;
        d->n_active = 2;
    }
    d->phase = P_PLAY;
    d->to_move = decl;
}

/* R6: one card to the trick; R6.3 the winner of a complete trick leads */
static void play(FDeal *d, int seat, int card) {
    int suit = SUIT(card);
    d->hands[seat] &= ~(1u << card);
    fd_held(d, seat, card, 0.0f);
    fd_seats(d, L_PLAYED, 32, seat, card, 1.0f);
    fd_seats(d, L_TRICK, 32, seat, card, 1.0f);
    if (d->trick_len == 0) {
        d->lead = suit;
        d->win_seat = seat;
        d->win_card = card;
        fd_seats(d, L_LEADER, 1, seat, 0, 1.0f);
    } else {
        if (suit != d->lead) { /* R6.2: void in the led suit, and in trump unless trumping */
            fd_seats(d, L_VOID, 4, seat, d->lead, 1.0f);
            if (suit != d->trump) fd_seats(d, L_VOID, 4, seat, d->trump, 1.0f);
        }
        if (suit == SUIT(d->win_card)) {
            if (card > d->win_card) {
                d->win_card = card;
                d->win_seat = seat;
            }
        } else if (suit == d->trump) {
            d->win_card = card;
            d->win_seat = seat;
        }
    }
    d->trick_seat[d->trick_len] = seat;
    d->trick_card[d->trick_len] = card;
    d->trick_len++;
    if (d->trick_len < d->n_active) {
        d->to_move = d->next[seat];
        return;
    }
    for (int k = 0; k < d->trick_len; k++) fd_seats(d, L_TRICK, 32, d->trick_seat[k], d->trick_card[k], 0.0f);
    fd_seats(d, L_LEADER, 1, d->trick_seat[0], 0, 0.0f);
    int winner = d->win_seat, taken = d->tricks[winner];
    fd_seats(d, L_TRICKS, 11, winner, taken, 0.0f);
    fd_seats(d, L_TRICKS, 11, winner, taken + 1, 1.0f);
    d->tricks[winner] = taken + 1;
    d->done++;
    d->trick_len = 0;
    d->lead = -1;
    if (d->done == 10) {
        score_played(d);
        return;
    }
    d->to_move = winner;
}

/* Is action index legal for the seat to move? (paston.deal.Deal.legal_actions) */
int fd_legal(const FDeal *d, long index) {
    switch (d->phase) {
    case P_PLAY:
        return index >= 0 && index < 32 &&
               (fd_playable(d->hands[d->to_move], d->lead, d->trump) >> index & 1u);
    case P_AUCTION:
        return index == AT(L_PASS) || index == AT(L_BID) + d->high + 1;
    case P_DISCARD: {
        long k = index - AT(L_DISCARD_OFFSET);
        if (k < 0 || k >= 496) return 0;
        uint32_t pair = 1u << FD_PAIR_LO[k] | 1u << FD_PAIR_HI[k];
        return (d->hands[d->to_move] & pair) == pair;
    }
    case P_TRUMP:
        if (index == AT(L_SURRENDER)) return 1;
        return index >= AT(L_TRUMP) && index < AT(L_TRUMP) + 5 &&
               fd_trump_allowed(d->bid, (int)(index - AT(L_TRUMP)));
    case P_DEFENCE:
        return index == AT(L_WHIST) || index == AT(L_PASS);
    default:
        return 0;
    }
}

/* Apply a legal action for the seat to move, and update the encodings. */
void fd_apply(FDeal *d, int index) {
    int seat = d->to_move;
    if (d->n_actions < FD_MAX_ACTIONS) d->actions[d->n_actions++] = (uint16_t)index;
    d->decisions++;
    switch (d->phase) {
    case P_PLAY:
        play(d, seat, index);
        break;
    case P_AUCTION:
        auction(d, seat, index);
        break;
    case P_DISCARD: {
        long k = index - AT(L_DISCARD_OFFSET);
        int cards[2] = {FD_PAIR_LO[k], FD_PAIR_HI[k]};
        for (int i = 0; i < 2; i++) {
            int c = cards[i];
            d->hands[seat] &= ~(1u << c);
            fd_held(d, seat, c, 0.0f);
            d->f[seat * W + AT(L_DISCARD) + c] = 1.0f;
            fd_put3(d, AT(L_FULL_DISCARD) + c, 1.0f);
            d->discard |= 1u << c;
        }
        d->phase = P_TRUMP;
        break;
    }
    case P_TRUMP:
        if (index == AT(L_SURRENDER)) { /* R4.3, R7.7 */
            int b = d->surrender_bonus, s[3] = {b, b, b};
            s[seat] = -10;
            finish(d, s[0], s[1], s[2]);
        } else {
            int k = index - (int)AT(L_TRUMP);
            d->contract = k;
            d->trump = k == 4 ? 0 : k; /* best spades is played with spades trump */
            fd_put3(d, AT(L_CONTRACT) + k, 1.0f);
            d->phase = P_DEFENCE;
            d->to_move = (seat + 1) % 3;
        }
        break;
    case P_DEFENCE:
        defence(d, seat, index == AT(L_WHIST));
        break;
    default:
        return;
    }
    fd_show(d);
}

/* the seat to move, -1 once the deal is scored, -3 when it is void (R3.4) */
int fd_status(const FDeal *d) {
    if (d->phase == P_OVER) return -1;
    if (d->phase == P_REDEAL) return -3;
    return d->to_move;
}
