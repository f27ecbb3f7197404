/* Alpha-beta on the declarer's future tricks (the defenders, one or two, cooperate to
   minimise them), with a transposition table at trick boundaries, quick bounds and move
   ordering: see _core.h. */
#include "_core.h"

static inline uint64_t mix(uint64_t a, uint64_t b) {
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
}

static Entry *probe(Search *s, uint64_t k0, uint64_t k1) {
    if (!s->tt) return NULL;
    uint64_t i = mix(k0, k1) & s->tt_mask;
    /* two-way bucket: i and i ^ 1 */
    Entry *a = &s->tt[i], *b = &s->tt[i ^ 1];
    if (a->used && a->k0 == k0 && a->k1 == k1) return a;
    if (b->used && b->k0 == k0 && b->k1 == k1) return b;
    return NULL;
}

static void store(Search *s, uint64_t k0, uint64_t k1, int lo, int hi, int best, int depth) {
    if (!s->tt) return;
    uint64_t i = mix(k0, k1) & s->tt_mask;
    Entry *a = &s->tt[i], *b = &s->tt[i ^ 1], *e;
    if (a->used && a->k0 == k0 && a->k1 == k1) e = a;
    else if (b->used && b->k0 == k0 && b->k1 == k1) e = b;
    else if (!a->used) e = a;
    else if (!b->used) e = b;
    else e = a->depth <= b->depth ? a : b;
    e->k0 = k0;
    e->k1 = k1;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->best = (uint8_t)best;
    e->used = 1;
    e->depth = (uint8_t)depth;
}

/* Order moves: returns count; moves written best-first. */
static int order_moves(const Search *s, int seat, uint32_t cand, int ntrick, int win_seat, int win_card,
                       int hint, int *out) {
    int score[16], n = 0;
    uint32_t m = cand;
    while (m) {
        int c = lowest(m);
        m &= m - 1;
        int sc;
        if (ntrick == 0) {
            /* leading: cash the top card of a suit; lead low to the partner's top card;
               avoid suits an opponent will ruff; prefer suits the partner will ruff */
            int suit = SUIT(c);
            uint32_t sm = SUIT_MASK[suit], tm = SUIT_MASK[s->trump];
            uint32_t suit_all = (s->hand[0] | s->hand[1] | s->hand[2]) & sm;
            int top = highest(suit_all);
            int top_owner = (s->hand[0] >> top & 1) ? 0 : (s->hand[1] >> top & 1) ? 1 : 2;
            if (top_owner == seat) sc = 100 + (c & 7);
            else if (s->side[top_owner] == s->side[seat]) sc = 70 - (c & 7);
            else sc = 20 - (c & 7);
            if (suit != s->trump) {
                for (int o = 0; o < 3; o++) {
                    if (o == seat || !s->hand[o]) continue;
                    int void_ruff = !(s->hand[o] & sm) && (s->hand[o] & tm);
                    if (!void_ruff) continue;
                    if (s->side[o] != s->side[seat]) sc -= 50;
                    else sc += 30;
                }
            } else if (s->side[seat]) {
                sc += 10;
            }
        } else {
            int partner_wins = s->side[win_seat] == s->side[seat];
            int b = beats(c, win_card, s->trump);
            if (partner_wins) sc = b ? 10 - (c & 7) : 50 - (c & 7);
            else sc = b ? 80 - (c & 7) - (SUIT(c) == s->trump && SUIT(win_card) != s->trump ? 8 : 0) : 40 - (c & 7);
        }
        if (c == hint) sc += 1000;
        /* insertion */
        int i = n++;
        while (i > 0 && score[i - 1] < sc) {
            score[i] = score[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        score[i] = sc;
        out[i] = c;
    }
    return n;
}

static int search(Search *s, int leader, int ntrick, uint32_t trick_mask, int lead_suit, int win_seat,
                  int win_card, int seat, int alpha, int beta);

static int boundary(Search *s, int leader, int alpha, int beta) {
    int r = popc(s->hand[leader]);
    if (r == 0) return 0;
    if (alpha >= r) return r;
    if (beta <= 0) return 0;
    s->nodes++;
    if (r == 1) {
        return s->side[last_trick_winner(s->hand, s->next, s->n_active, leader, s->trump)];
    }
    uint64_t k0, k1;
    make_key(s, leader, &k0, &k1);
    int lo = 0, hi = r, hint = -1;
    Entry *e = probe(s, k0, k1);
    if (e) {
        lo = e->lo;
        hi = e->hi;
        hint = e->best == 0xFF ? -1 : e->best;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
    }
    /* quick bounds. (1) Whoever holds the top k remaining trumps wins k tricks for
       their side: each of those trumps, when played, is the highest trump left, and no
       two fall in one trick. (2) If nobody but the leader holds a trump, the leader
       also cashes the top cards it holds in the other suits, keeping the lead. */
    {
        uint32_t remaining = s->hand[0] | s->hand[1] | s->hand[2];
        uint32_t tr = SUIT_MASK[s->trump];
        uint32_t all_tr = remaining & tr;
        int owner = -1, k = 0;
        if (all_tr) {
            int top = highest(all_tr);
            owner = (s->hand[0] >> top & 1) ? 0 : (s->hand[1] >> top & 1) ? 1 : 2;
            uint32_t mine = s->hand[owner] & tr;
            while (all_tr && (mine >> highest(all_tr) & 1)) {
                all_tr &= ~(1u << highest(all_tr));
                k++;
            }
        }
        if (owner == leader || owner < 0) {
            if (!(remaining & tr & ~s->hand[leader])) {
                for (int suit = 0; suit < 4; suit++) {
                    if (suit == s->trump) continue;
                    uint32_t all = remaining & SUIT_MASK[suit];
                    uint32_t mine = s->hand[leader] & SUIT_MASK[suit];
                    while (all && (mine >> highest(all) & 1)) {
                        all &= ~(1u << highest(all));
                        k++;
                    }
                }
            }
            owner = leader;
        }
        if (k > r) k = r;
        if (k) {
            if (s->side[owner]) { if (k > lo) lo = k; }
            else if (r - k < hi) hi = r - k;
            if (lo >= beta) { store(s, k0, k1, lo, hi, hint < 0 ? 0xFF : hint, r); return lo; }
            if (hi <= alpha) { store(s, k0, k1, lo, hi, hint < 0 ? 0xFF : hint, r); return hi; }
            if (lo == hi) { store(s, k0, k1, lo, hi, hint < 0 ? 0xFF : hint, r); return lo; }
        }
    }
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    int a0 = a, b0 = b;
    uint32_t remaining = s->hand[0] | s->hand[1] | s->hand[2];
    uint32_t cand = reduce_equivalent(s->hand[leader], remaining);
    int moves[16];
    int n = order_moves(s, leader, cand, 0, leader, 0, hint, moves);
    int maximise = s->side[leader];
    int best = maximise ? -1 : 99, best_card = moves[0];
    for (int i = 0; i < n; i++) {
        int c = moves[i];
        s->hand[leader] &= ~(1u << c);
        int v = search(s, leader, 1, 1u << c, SUIT(c), leader, c, s->next[leader], a, b);
        s->hand[leader] |= 1u << c;
        if (maximise) {
            if (v > best) { best = v; best_card = c; }
            if (v > a) a = v;
        } else {
            if (v < best) { best = v; best_card = c; }
            if (v < b) b = v;
        }
        if (a >= b) break;
    }
    if (best <= a0) { if (best < hi) hi = best; }
    else if (best >= b0) { if (best > lo) lo = best; }
    else lo = hi = best;
    store(s, k0, k1, lo, hi, best_card, r);
    return best;
}

static int search(Search *s, int leader, int ntrick, uint32_t trick_mask, int lead_suit, int win_seat,
                  int win_card, int seat, int alpha, int beta) {
    s->nodes++;
    uint32_t legal = legal_mask(s, seat, lead_suit);
    uint32_t cand = follow_candidates(legal, s->hand[0] | s->hand[1] | s->hand[2], win_card, s->trump);
    int moves[16];
    int n = order_moves(s, seat, cand, ntrick, win_seat, win_card, -1, moves);
    int maximise = s->side[seat];
    int best = maximise ? -1 : 99;
    int last = ntrick + 1 == s->n_active;
    for (int i = 0; i < n; i++) {
        int c = moves[i];
        int ws = win_seat, wc = win_card;
        if (beats(c, wc, s->trump)) { ws = seat; wc = c; }
        s->hand[seat] &= ~(1u << c);
        int v;
        if (last) {
            int won = s->side[ws];
            v = won + boundary(s, ws, alpha - won, beta - won);
        } else {
            v = search(s, leader, ntrick + 1, trick_mask | 1u << c, lead_suit, ws, wc, s->next[seat], alpha, beta);
        }
        s->hand[seat] |= 1u << c;
        if (maximise) {
            if (v > best) best = v;
            if (v > alpha) alpha = v;
        } else {
            if (v < best) best = v;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* value of the position after playing card c (future declarer tricks incl. current trick) */
static int value_after(Search *s, int leader, int ntrick, uint32_t tmask, int lead_suit, int win_seat, int win_card,
                       int seat, int c, int alpha, int beta) {
    int ws = win_seat, wc = win_card, ls = lead_suit;
    if (ntrick == 0) { ws = seat; wc = c; ls = SUIT(c); }
    else if (beats(c, wc, s->trump)) { ws = seat; wc = c; }
    s->hand[seat] &= ~(1u << c);
    int v;
    if (ntrick + 1 == s->n_active) {
        int won = s->side[ws];
        v = won + boundary(s, ws, alpha - won, beta - won);
    } else {
        v = search(s, leader, ntrick + 1, tmask | 1u << c, ls, ws, wc, s->next[seat], alpha, beta);
    }
    s->hand[seat] |= 1u << c;
    return v;
}

static int root_value(Search *s, const Root *t, int alpha, int beta) {
    if (t->ntrick == 0) return boundary(s, t->leader, alpha, beta);
    return search(s, t->leader, t->ntrick, t->tmask, t->lead_suit, t->win_seat, t->win_card, t->seat, alpha, beta);
}

#ifndef GUESS
#define GUESS(r) (((r) + 1) / 2)
#endif
/* exact value by null-window searches (MTD-style climbing from a guess) */
static int exact_value(Search *s, const Root *t) {
    int lo = 0, hi = t->r;
    int guess = GUESS(t->r);
    while (lo < hi) {
        int g = guess;
        if (g <= lo) g = lo + 1;
        if (g > hi) g = hi;
        int v = root_value(s, t, g - 1, g); /* fail-soft */
        if (v >= g) {
            lo = v > hi ? hi : v;
            guess = lo + 1;
        } else {
            hi = v < lo ? lo : v;
            guess = hi;
        }
    }
    return lo;
}

int tricks_exact(Search *s, const Root *t) { return exact_value(s, t); }

int tricks_root_value(Search *s, const Root *t, int alpha, int beta) { return root_value(s, t, alpha, beta); }

int tricks_value_after(Search *s, const Root *t, int c, int alpha, int beta) {
    return value_after(s, t->leader, t->ntrick, t->tmask, t->lead_suit, t->win_seat, t->win_card, t->seat, c, alpha,
                       beta);
}
