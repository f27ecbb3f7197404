/*
 * One ordinary deal of Paston for the environments (paston.env._fastdeal): the state,
 * the layout of the encodings it writes, and the functions of _fastdeal_deal.c.
 *
 * The rules live in the Python engine (the modules of paston); this is a mirror of one deal
 * (R1.2-R1.5 dealing, R3 auction, R4 discard and trump, R5 defence, R6 play, R7
 * scores) held to the engine by tests/test_env_fastdeal.py on every state of thousands
 * of random deals. The encodings are paston.encoding's: every offset below is passed in
 * from Python (paston.env.fastdeal.layout()) when the module is configured, never
 * written here.
 */
#ifndef PASTON_FASTDEAL_H
#define PASTON_FASTDEAL_H

#include <stdint.h>

/* The phases, in paston.phases.Phase's order (the layout maps them to PHASE entries). */
enum { P_AUCTION, P_DISCARD, P_TRUMP, P_DEFENCE, P_PLAY, P_OVER, P_REDEAL };

/* The redeal reasons, in paston.result.Redeal's order. */
enum { R_SPADE_SEQUENCE, R_JACK_SEVEN_PRIKUP, R_NO_JACK_NO_SEVEN };

/* The layout's keys: first the observation blocks (each with its size in
 * FD_BLOCK_SIZES), then the sizes, the action indices, the phase and redeal entries
 * and two cards. */
enum {
    L_HAND, L_PRIKUP, L_DISCARD, L_PLAYED, L_TRICK, L_PHASE, L_TO_MOVE, L_DEALER,
    L_FIRST_BIDDER, L_FIRST_DEAL, L_BID_BY, L_PASSED_AT, L_HIGH_BID, L_IN_AUCTION,
    L_DECLARER, L_CONTRACT, L_WHIST_ANSWER, L_LEADER, L_VOID, L_TRICKS, L_REDEAL,
    L_RULES, L_TOTALS, L_SCORES, L_TARGET,
    L_FULL_HANDS, L_FULL_PRIKUP, L_FULL_DISCARD,
    L_BLOCKS, /* the number of blocks above */
    L_OBSERVATION_SIZE = L_BLOCKS, L_FULL_OBSERVATION_SIZE, L_ACTION_COUNT, L_DISCARD_OFFSET,
    L_PASS, L_BID, L_TRUMP, L_SURRENDER, L_WHIST,
    L_PHASE_AUCTION, L_PHASE_DISCARD, L_PHASE_TRUMP, L_PHASE_DEFENCE, L_PHASE_PLAY,
    L_PHASE_OVER, L_PHASE_REDEAL,
    L_REDEAL_SPADE_SEQUENCE, L_REDEAL_JACK_SEVEN_PRIKUP, L_REDEAL_NO_JACK_NO_SEVEN,
    L_SEVEN_OF_SPADES, L_JACK_OF_SPADES,
    L_COUNT
};

/* Where the encodings go (set once by configure(), checked there). */
typedef struct {
    long v[L_COUNT];
    double score_scale;    /* the scores are divided by it */
    double default_target; /* the target is divided by it */
} Layout;

#define FD_MAX_ACTIONS 64 /* a deal has at most 42 actions */

typedef struct {
    /* where it writes: 3 rows of the full observation, and the mover's mask */
    float *f;
    int8_t *m;
    const Layout *L;
    /* the rule switches (paston.rules.Rules) and the first-deal rules */
    int lone_flat, surrender_bonus, all_pass_first_bidder, first_deal;
    int target;
    float rules_shown[4]; /* the RULES block */
    int totals[3];        /* the game's totals before the deal (shown / target) */
    uint64_t rng[4];      /* xoshiro256** */
    /* the deal */
    int deck[32];
    int dealer, first_bidder;
    uint32_t dealt[3], prikup, hands[3], discard;
    int phase, to_move;
    int in_auction[3], n_in, high, high_bidder;
    int declarer, bid, contract, trump;
    int answers[2], n_answers;
    int next[3], n_active;
    int trick_seat[3], trick_card[3], trick_len, lead, win_seat, win_card;
    int tricks[3], done;
    int has_result, scores[3], redeal;
    uint16_t actions[FD_MAX_ACTIONS];
    int n_actions;
    long deals;     /* deals begun since the episode's reset */
    long decisions; /* actions applied since the episode's reset */
    /* what the encodings show now */
    int shown_phase, shown_mover, mask_wide;
} FDeal;

/* R6.2 needs the suits' cards; the discard pairs in index order: (lo, hi) of pair k */
static const uint32_t FD_SUIT_MASK[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};
extern int8_t FD_PAIR_LO[496], FD_PAIR_HI[496];

/* --- writing the encodings (inline: the hot path calls them a dozen times a card) --- */
/* the same entry in every seat's row */
static inline void fd_put3(FDeal *d, long offset, float value) {
    float *f = d->f;
    long w = d->L->v[L_FULL_OBSERVATION_SIZE];
    f[offset] = f[w + offset] = f[2 * w + offset] = value;
}

/* entry k of absolute seat's group in a block of per-relative-seat groups of size */
static inline void fd_seats(FDeal *d, int key, int size, int seat, int k, float value) {
    long base = d->L->v[key], w = d->L->v[L_FULL_OBSERVATION_SIZE];
    for (int s = 0; s < 3; s++) d->f[s * w + base + size * ((seat - s + 3) % 3) + k] = value;
}

/* seat holding card shows in its own hand and in the other rows' hidden hands */
static inline void fd_held(FDeal *d, int seat, int card, float value) {
    long w = d->L->v[L_FULL_OBSERVATION_SIZE], hidden = d->L->v[L_FULL_HANDS];
    d->f[seat * w + d->L->v[L_HAND] + card] = value;
    d->f[((seat + 2) % 3) * w + hidden + card] = value;      /* seat is its relative seat 1 */
    d->f[((seat + 1) % 3) * w + hidden + 32 + card] = value; /* and this one's seat 2 */
}

/* R6.2 (paston.tricks.playable): follow suit, else trump, else any card */
static inline uint32_t fd_playable(uint32_t hand, int lead, int trump) {
    if (lead < 0) return hand;
    uint32_t follow = hand & FD_SUIT_MASK[lead];
    if (follow) return follow;
    if (trump >= 0) {
        uint32_t trumps = hand & FD_SUIT_MASK[trump];
        if (trumps) return trumps;
    }
    return hand;
}

/* R4.2 (paston.contracts.allowed_trumps): may contract k be named after bid? */
static inline int fd_trump_allowed(int bid, int k) {
    if (bid < 0) return k < 4;
    if (bid == 4) return k == 4;
    return bid <= k && k < 4;
}

void fd_init_tables(void);
void fd_show(FDeal *d);
void fd_seed(FDeal *d, uint64_t seed);
uint32_t fd_below(FDeal *d, uint32_t n);
void fd_new_deal(FDeal *d, int dealer);
void fd_show_totals(FDeal *d);
int fd_legal(const FDeal *d, long index);
void fd_apply(FDeal *d, int index);
int fd_status(const FDeal *d);

#endif
