/*
 * Compiled core of the Paston double-dummy solver (C99, CPython extension).
 *
 * Cards are 0..31 (suit * 8 + rank, rank 7 = ace); hands are 32-bit masks.
 * The search is alpha-beta on the declarer's future tricks (the defenders, one or
 * two, cooperate to minimise them), with:
 *   - a transposition table at trick boundaries keyed exactly on relative ranks
 *     (for each suit, who holds the remaining cards in rank order), the leader,
 *     trump, declarer and active seats, holding lower/upper bounds and a best lead;
 *     since the key is absolute, entries stay valid across searches and deals;
 *   - equivalent-card reduction (touching cards of one hand, with no other
 *     remaining card between them, are searched once);
 *   - quick bounds (tricks left, sure winners of the leader in the trump suit);
 *   - move ordering (cheapest winning card, low cards when partner wins, TT hint).
 * A max^n search with the real scores of R7 shares the move generation.
 *
 * Thread safety: every call holds the GIL for its whole search, so calls never run
 * at the same time; each Solver owns its own table memory.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SUIT(c) ((c) >> 3)
static const uint32_t SUIT_MASK[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

typedef struct {
    uint64_t k0, k1;
    int8_t lo, hi;
    uint8_t best; /* best lead card (absolute) or 0xFF */
    uint8_t used;
    uint8_t depth; /* tricks left: deeper entries are kept */
} Entry;

typedef struct {
    uint32_t hand[3];
    int trump;
    int declarer;
    int n_active;
    int next[3];
    int side[3]; /* 1 for the declarer, 0 for a defender */
    uint64_t ctx; /* trump, declarer, active seats: part of every key */
    int active_mask;
    Entry *tt;
    uint64_t tt_mask;
    uint64_t nodes;
} Search;

static inline int popc(uint32_t x) { return __builtin_popcount(x); }
static inline int lowest(uint32_t x) { return __builtin_ctz(x); }
static inline int highest(uint32_t x) { return 31 - __builtin_clz(x); }

/* --- keys ----------------------------------------------------------------------------- */
/* COMPRESS[all][m]: the bits of m at the positions of all's set bits, packed low
   (a software pext over 8 bits), filled once when the module loads. */
static uint8_t COMPRESS[256][256];

static void fill_compress(void) {
    for (int all = 0; all < 256; all++)
        for (int m = 0; m < 256; m++) {
            int out = 0, k = 0;
            for (int r = 0; r < 8; r++)
                if (all >> r & 1) {
                    if (m >> r & 1) out |= 1 << k;
                    k++;
                }
            COMPRESS[all][m] = (uint8_t)out;
        }
}

/* The exact key of a trick-boundary position by relative ranks: per suit, which of the
   remaining cards (in rank order) seats 1 and 2 hold (seat 0 holds the rest), and how
   many remain; plus the leader and the search context. */
static void make_key(const Search *s, int leader, uint64_t *k0, uint64_t *k1) {
    uint64_t parts[4];
    for (int suit = 0; suit < 4; suit++) {
        uint32_t m0 = (s->hand[0] >> (suit * 8)) & 0xFF;
        uint32_t m1 = (s->hand[1] >> (suit * 8)) & 0xFF;
        uint32_t m2 = (s->hand[2] >> (suit * 8)) & 0xFF;
        uint32_t all = m0 | m1 | m2;
        const uint8_t *row = COMPRESS[all];
        parts[suit] = (uint64_t)row[m1] | ((uint64_t)row[m2] << 8) | ((uint64_t)popc(all) << 16);
    }
    *k0 = parts[0] | (parts[1] << 20) | (parts[2] << 40);
    *k1 = parts[3] | ((uint64_t)leader << 20) | (s->ctx << 22);
}

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

/* --- moves ------------------------------------------------------------------------------ */
static uint32_t legal_mask(const Search *s, int seat, int lead_suit) {
    uint32_t h = s->hand[seat];
    if (lead_suit >= 0) {
        uint32_t f = h & SUIT_MASK[lead_suit];
        if (f) return f;
        f = h & SUIT_MASK[s->trump];
        if (f) return f;
    }
    return h;
}

/* Keep one card of each run of touching cards (no other remaining card between). */
/* Keep one card of each run of touching cards (no other remaining card between):
   REDUCE[remaining byte][legal byte] per suit, filled once when the module loads. */
static uint8_t REDUCE[256][256];

static void fill_reduce(void) {
    for (int rem = 0; rem < 256; rem++)
        for (int legal = 0; legal < 256; legal++) {
            int out = 0, m = legal & rem;
            while (m) {
                int c = __builtin_ctz(m);
                m &= m - 1;
                out |= 1 << c;
                int d = c + 1;
                while (d < 8) {
                    if (!(rem >> d & 1)) { d++; continue; }
                    if (legal >> d & 1) { m &= ~(1 << d); d++; continue; }
                    break;
                }
            }
            REDUCE[rem][legal] = (uint8_t)out;
        }
}

static inline uint32_t reduce_equivalent(uint32_t legal, uint32_t remaining) {
    uint32_t out = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t l = legal >> (8 * suit) & 0xFF;
        if (l) out |= (uint32_t)REDUCE[remaining >> (8 * suit) & 0xFF][l] << (8 * suit);
    }
    return out;
}

static inline int beats(int c, int w, int trump) {
    if (SUIT(c) == SUIT(w)) return c > w;
    return SUIT(c) == trump;
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

/* --- alpha-beta on the declarer's future tricks ------------------------------------------- */
static int search(Search *s, int leader, int ntrick, uint32_t trick_mask, int lead_suit, int win_seat,
                  int win_card, int seat, int alpha, int beta);

static int boundary(Search *s, int leader, int alpha, int beta) {
    int r = popc(s->hand[leader]);
    if (r == 0) return 0;
    if (alpha >= r) return r;
    if (beta <= 0) return 0;
    s->nodes++;
    if (r == 1) {
        /* one card each: no choice */
        int seat = leader, w = leader, wc = lowest(s->hand[leader]);
        for (int i = 1; i < s->n_active; i++) {
            seat = s->next[seat];
            int c = lowest(s->hand[seat]);
            if (beats(c, wc, s->trump)) { wc = c; w = seat; }
        }
        return s->side[w];
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
    uint32_t remaining = s->hand[0] | s->hand[1] | s->hand[2] | trick_mask;
    uint32_t cand = reduce_equivalent(legal, remaining);
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

/* --- max^n on final tricks, scores of R7 ------------------------------------------------------- */
typedef struct {
    int contract;      /* 0..4 */
    int lone_flat;     /* lone defender table */
    int defenders[2];
    int n_def;
} ScoreRules;

static int score_of(const Search *s, const ScoreRules *sr, const int tricks[3], int seat) {
    static const int two[3] = {-10, -9, 0};
    static const int graded[5] = {-10, -9, -8, -7, 0};
    static const int flat[5] = {-10, -9, -9, -9, 0};
    int m = sr->contract == 4 ? 4 : sr->contract + 1;
    if (seat == s->declarer) {
        if (tricks[seat] >= 6) return sr->contract == 4 ? 10 : 10 * m;
        return -10 * m;
    }
    int is_def = 0;
    for (int i = 0; i < sr->n_def; i++) if (sr->defenders[i] == seat) is_def = 1;
    if (!is_def) return 0;
    int t = tricks[seat];
    if (sr->n_def == 2) return (t <= 2 ? two[t] : 10 * (t - 2)) * m;
    return (t <= 4 ? (sr->lone_flat ? flat[t] : graded[t]) : 10 * (t - 4)) * m;
}

typedef struct {
    int8_t t[3];
} Vec;

typedef struct {
    uint64_t k0, k1;
    Vec v;
    uint8_t depth;
    uint8_t used;
} MEntry;

typedef struct {
    Search *s;
    const ScoreRules *sr;
    MEntry *tt;
    uint64_t tt_mask;
    int util[3][11];
} Maxn;

/* 1 if final tricks a are better than b for seat. The declarer wants as many tricks
   as possible (making the contract is monotone in them); a defender wants the higher
   own score (R7), then fewer tricks for the declarer. Equal: keep the lower card. */
static int prefer(const Maxn *mx, int seat, Vec a, Vec b) {
    int d = mx->s->declarer;
    int ua = mx->util[seat][(int)a.t[seat]], ub = mx->util[seat][(int)b.t[seat]];
    if (ua != ub) return ua > ub;
    if (seat == d) return 0;
    return a.t[d] < b.t[d];
}

/* A player's primary utility as a function of its own final tricks: the declarer's
   own tricks (making is monotone in them), a defender's score (monotone, R7). */
static inline int util_of(const Maxn *mx, int seat, int tricks) {
    if (tricks < 0) tricks = 0;
    return mx->util[seat][tricks];
}

static void fill_utils(Maxn *mx) {
    const Search *s = mx->s;
    for (int seat = 0; seat < 3; seat++)
        for (int t = 0; t <= 10; t++) {
            int v[3] = {0, 0, 0};
            v[seat] = t;
            mx->util[seat][t] = seat == s->declarer ? t : score_of(s, mx->sr, v, seat);
        }
}

static Vec maxn_search(Maxn *mx, int leader, int ntrick, uint32_t trick_mask, int lead_suit, int win_seat,
                       int win_card, int seat, Vec taken, int pseat, int putil, int *cut);

/* Every preference is monotone in own tricks (the declarer: own tricks; a defender:
   own score, then fewer declarer tricks), so the choices below a trick boundary do not
   depend on the tricks taken so far, except with the flat lone-defender table, whose
   plateau makes the lone defender's taken tricks (up to 4) matter: the table keys on
   the position (and that class) and stores the future tricks. Only exact results (no
   shallow cut) are stored. */
static Vec maxn_boundary(Maxn *mx, int leader, Vec taken, int pseat, int putil, int *cut) {
    Search *s = mx->s;
    int r = popc(s->hand[leader]);
    *cut = 0;
    if (!r) return taken;
    s->nodes++;
    if (r == 1) {
        /* one card each: no choice */
        int seat = leader, w = leader, wc = lowest(s->hand[leader]);
        for (int j = 1; j < s->n_active; j++) {
            seat = s->next[seat];
            int c = lowest(s->hand[seat]);
            if (beats(c, wc, s->trump)) { wc = c; w = seat; }
        }
        taken.t[w]++;
        return taken;
    }
    int flat_class = 0;
    if (mx->sr->lone_flat && mx->sr->n_def == 1) {
        flat_class = taken.t[mx->sr->defenders[0]];
        if (flat_class > 4) flat_class = 4;
    }
    uint64_t k0, k1;
    make_key(s, leader, &k0, &k1);
    k1 |= ((uint64_t)flat_class << 44) | ((uint64_t)mx->sr->lone_flat << 48);
    uint64_t i = mix(k0, k1) & mx->tt_mask;
    MEntry *a = &mx->tt[i], *b = &mx->tt[i ^ 1];
    Vec out;
    MEntry *hit = (a->used && a->k0 == k0 && a->k1 == k1) ? a : (b->used && b->k0 == k0 && b->k1 == k1) ? b : NULL;
    if (hit) {
        for (int j = 0; j < 3; j++) out.t[j] = (int8_t)(taken.t[j] + hit->v.t[j]);
        return out;
    }
    out = maxn_search(mx, leader, 0, 0, -1, leader, 0, leader, taken, pseat, putil, cut);
    if (!*cut) {
        /* two-way bucket: an empty slot, else the shallower entry */
        MEntry *e = !a->used ? a : !b->used ? b : (a->depth <= b->depth ? a : b);
        e->k0 = k0;
        e->k1 = k1;
        for (int j = 0; j < 3; j++) e->v.t[j] = (int8_t)(out.t[j] - taken.t[j]);
        e->depth = (uint8_t)r;
        e->used = 1;
    }
    return out;
}

/* max^n with shallow pruning: tricks sum to 10, so once the player here has secured
   `best` own tricks, the parent's player gets at most 10 - best; if that is strictly
   worse for the parent than its best alternative (`putil`), stop (the result is then
   inexact, never chosen by the parent, never stored). */
static Vec maxn_search(Maxn *mx, int leader, int ntrick, uint32_t trick_mask, int lead_suit, int win_seat,
                       int win_card, int seat, Vec taken, int pseat, int putil, int *cut) {
    Search *s = mx->s;
    s->nodes++;
    *cut = 0;
    uint32_t legal = ntrick == 0 ? s->hand[seat] : legal_mask(s, seat, lead_suit);
    uint32_t remaining = s->hand[0] | s->hand[1] | s->hand[2] | trick_mask;
    uint32_t cand = reduce_equivalent(legal, remaining);
    int moves[16];
    int n = 0;
    for (uint32_t m = cand; m; m &= m - 1) moves[n++] = lowest(m);
    Vec best = {{-1, -1, -1}};
    int best_card = 99, have = 0;
    for (int k = 0; k < n; k++) {
        int c = moves[k];
        int ws = win_seat, wc = win_card;
        if (ntrick == 0 || beats(c, wc, s->trump)) { ws = seat; wc = c; }
        s->hand[seat] &= ~(1u << c);
        Vec v;
        int child_cut = 0;
        int my_util = have ? util_of(mx, seat, best.t[seat]) : -1000;
        int my_seat = have ? seat : -1;
        if (ntrick + 1 == s->n_active) {
            Vec t2 = taken;
            t2.t[ws]++;
            v = maxn_boundary(mx, ws, t2, my_seat, my_util, &child_cut);
        } else {
            v = maxn_search(mx, leader, ntrick + 1, trick_mask | 1u << c, ntrick == 0 ? SUIT(c) : lead_suit, ws,
                            wc, s->next[seat], taken, my_seat, my_util, &child_cut);
        }
        s->hand[seat] |= 1u << c;
        if (child_cut) continue; /* strictly worse for this player than `best` */
        if (!have || prefer(mx, seat, v, best) || (!prefer(mx, seat, best, v) && c < best_card)) {
            best = v;
            best_card = c;
            have = 1;
        }
        if (pseat >= 0 && pseat != seat &&
            util_of(mx, pseat, 10 - best.t[seat] - taken.t[3 - seat - pseat]) < putil) {
            *cut = 1;
            return best;
        }
        /* this player takes every trick left: nothing can be better for it, and its
           ties (fewer declarer tricks, then the lower card) cannot improve either */
        if (best.t[seat] == taken.t[seat] + popc(s->hand[seat])) break;
    }
    return best;
}

/* --- Python glue ---------------------------------------------------------------------------------- */
static int setup(Search *s, PyObject *args, PyObject **trick_obj, Py_buffer *buf, int *leader) {
    unsigned int h0, h1, h2;
    int trump, declarer, active_mask;
    Py_buffer b;
    if (!PyArg_ParseTuple(args, "IIIiiiiOw*", &h0, &h1, &h2, &trump, &declarer, &active_mask, leader, trick_obj, &b))
        return -1;
    *buf = b;
    memset(s, 0, sizeof(*s));
    s->hand[0] = h0;
    s->hand[1] = h1;
    s->hand[2] = h2;
    s->trump = trump;
    s->declarer = declarer;
    s->n_active = 0;
    for (int i = 0; i < 3; i++) {
        if (active_mask >> i & 1) s->n_active++;
        s->side[i] = i == declarer;
    }
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        while (!(active_mask >> j & 1)) j = (j + 1) % 3;
        s->next[i] = j;
    }
    s->active_mask = active_mask;
    s->ctx = (uint64_t)trump | ((uint64_t)declarer << 2) | ((uint64_t)active_mask << 4);
    if (b.len >= (Py_ssize_t)(2 * sizeof(Entry))) {
        uint64_t n = 1;
        while (n * 2 * sizeof(Entry) <= (uint64_t)b.len) n *= 2;
        s->tt = (Entry *)b.buf;
        s->tt_mask = n - 1;
    }
    return 0;
}

/* Walk the trick in progress: returns the seat to move, fills lead/win. */
static int walk_trick(Search *s, PyObject *trick, int leader, uint32_t *tmask, int *lead_suit, int *win_seat,
                      int *win_card, int *ntrick) {
    Py_ssize_t n = PySequence_Length(trick);
    if (n < 0) return -2;
    int seat = leader;
    *tmask = 0;
    *lead_suit = -1;
    *win_seat = leader;
    *win_card = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_GetItem(trick, i);
        if (!o) return -2;
        long c = PyLong_AsLong(o);
        Py_DECREF(o);
        if (c < 0 || c > 31) {
            PyErr_SetString(PyExc_ValueError, "bad card in trick");
            return -2;
        }
        if (i == 0) { *lead_suit = SUIT(c); *win_seat = seat; *win_card = (int)c; }
        else if (beats((int)c, *win_card, s->trump)) { *win_seat = seat; *win_card = (int)c; }
        *tmask |= 1u << c;
        seat = s->next[seat];
    }
    *ntrick = (int)n;
    return seat;
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

static int root_value(Search *s, int leader, int ntrick, uint32_t tmask, int ls, int ws, int wc, int seat,
                      int alpha, int beta) {
    if (ntrick == 0) return boundary(s, leader, alpha, beta);
    return search(s, leader, ntrick, tmask, ls, ws, wc, seat, alpha, beta);
}

#ifndef GUESS
#define GUESS(r) (((r) + 1) / 2)
#endif
/* exact value by null-window searches (MTD-style climbing from a guess) */
static int exact_value(Search *s, int leader, int ntrick, uint32_t tmask, int ls, int ws, int wc, int seat, int r) {
    int lo = 0, hi = r;
    int guess = GUESS(r);
    while (lo < hi) {
        int t = guess;
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
        int v = root_value(s, leader, ntrick, tmask, ls, ws, wc, seat, t - 1, t); /* fail-soft */
        if (v >= t) {
            lo = v > hi ? hi : v;
            guess = lo + 1;
        } else {
            hi = v < lo ? lo : v;
            guess = hi;
        }
    }
    return lo;
}

static PyObject *py_tricks(PyObject *self, PyObject *args) {
    Search s;
    PyObject *trick;
    Py_buffer buf;
    int leader;
    if (setup(&s, args, &trick, &buf, &leader) < 0) return NULL;
    uint32_t tmask;
    int ls, ws, wc, nt;
    int seat = walk_trick(&s, trick, leader, &tmask, &ls, &ws, &wc, &nt);
    if (seat < 0) { PyBuffer_Release(&buf); return NULL; }
    int r = popc(s.hand[leader]) + (nt ? 1 : 0);
    int v = exact_value(&s, leader, nt, tmask, ls, ws, wc, seat, r);
    PyBuffer_Release(&buf);
    return Py_BuildValue("iK", v, (unsigned long long)s.nodes);
}

/* can the declarer take at least `target` future tricks? */
static PyObject *py_reaches(PyObject *self, PyObject *args) {
    Search s;
    PyObject *trick, *inner;
    Py_buffer buf;
    int leader, target;
    if (!PyArg_ParseTuple(args, "Oi", &inner, &target)) return NULL;
    if (setup(&s, inner, &trick, &buf, &leader) < 0) return NULL;
    uint32_t tmask;
    int ls, ws, wc, nt;
    int seat = walk_trick(&s, trick, leader, &tmask, &ls, &ws, &wc, &nt);
    if (seat < 0) { PyBuffer_Release(&buf); return NULL; }
    int r = popc(s.hand[leader]) + (nt ? 1 : 0);
    int ok;
    if (target <= 0) ok = 1;
    else if (target > r) ok = 0;
    else ok = root_value(&s, leader, nt, tmask, ls, ws, wc, seat, target - 1, target) >= target;
    PyBuffer_Release(&buf);
    return Py_BuildValue("OK", ok ? Py_True : Py_False, (unsigned long long)s.nodes);
}

static PyObject *py_card_values(PyObject *self, PyObject *args) {
    Search s;
    PyObject *trick;
    Py_buffer buf;
    int leader;
    if (setup(&s, args, &trick, &buf, &leader) < 0) return NULL;
    uint32_t tmask;
    int ls, ws, wc, nt;
    int seat = walk_trick(&s, trick, leader, &tmask, &ls, &ws, &wc, &nt);
    if (seat < 0) { PyBuffer_Release(&buf); return NULL; }
    uint32_t legal = legal_mask(&s, seat, ls);
    PyObject *out = PyDict_New();
    if (!out) { PyBuffer_Release(&buf); return NULL; }
    int r = popc(s.hand[leader]) + (nt ? 1 : 0);
    uint32_t m = legal;
    while (m) {
        int c = lowest(m);
        m &= m - 1;
        /* exact value after c, by null-window searches */
        int lo = 0, hi = r;
        while (lo < hi) {
            int t = (lo + hi + 1) / 2;
            int v = value_after(&s, leader, nt, tmask, ls, ws, wc, seat, c, t - 1, t);
            if (v >= t) lo = t; else hi = t - 1;
        }
        PyObject *k = PyLong_FromLong(c), *v = PyLong_FromLong(lo);
        if (!k || !v || PyDict_SetItem(out, k, v) < 0) {
            Py_XDECREF(k); Py_XDECREF(v); Py_DECREF(out); PyBuffer_Release(&buf);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    PyBuffer_Release(&buf);
    PyObject *res = Py_BuildValue("OK", out, (unsigned long long)s.nodes);
    Py_DECREF(out);
    return res;
}

static PyObject *py_maxn(PyObject *self, PyObject *args) {
    /* (inner args, taken tuple, contract, lone_flat, maxn table buffer) -> (root vec, {card: vec}, nodes) */
    Search s;
    PyObject *trick, *inner;
    Py_buffer buf, mbuf;
    int leader, contract, lone_flat, t0, t1, t2;
    if (!PyArg_ParseTuple(args, "O(iii)iiw*", &inner, &t0, &t1, &t2, &contract, &lone_flat, &mbuf)) return NULL;
    if (setup(&s, inner, &trick, &buf, &leader) < 0) { PyBuffer_Release(&mbuf); return NULL; }
    ScoreRules sr;
    sr.contract = contract;
    sr.lone_flat = lone_flat;
    sr.n_def = 0;
    for (int i = 0; i < 3; i++)
        if (i != s.declarer && (s.active_mask >> i & 1)) sr.defenders[sr.n_def++] = i;
    Maxn mx;
    mx.s = &s;
    mx.sr = &sr;
    uint64_t n = 1;
    while (n * 2 * sizeof(MEntry) <= (uint64_t)mbuf.len) n *= 2;
    mx.tt = (MEntry *)mbuf.buf;
    mx.tt_mask = n - 1;
    fill_utils(&mx);
    uint32_t tmask;
    int ls, ws, wc, nt;
    int seat = walk_trick(&s, trick, leader, &tmask, &ls, &ws, &wc, &nt);
    if (seat < 0) { PyBuffer_Release(&buf); PyBuffer_Release(&mbuf); return NULL; }
    Vec taken = {{(int8_t)t0, (int8_t)t1, (int8_t)t2}};
    uint32_t legal = legal_mask(&s, seat, ls);
    PyObject *out = PyDict_New();
    Vec best = {{0, 0, 0}};
    int have = 0;
    uint32_t m = legal;
    while (m) {
        int c = lowest(m);
        m &= m - 1;
        int ws2 = ws, wc2 = wc, ls2 = ls;
        if (nt == 0) { ws2 = seat; wc2 = c; ls2 = SUIT(c); }
        else if (beats(c, wc2, s.trump)) { ws2 = seat; wc2 = c; }
        s.hand[seat] &= ~(1u << c);
        Vec v;
        int cut = 0;
        if (nt + 1 == s.n_active) {
            Vec tk = taken;
            tk.t[ws2]++;
            v = maxn_boundary(&mx, ws2, tk, -1, 0, &cut);
        } else {
            v = maxn_search(&mx, leader, nt + 1, tmask | 1u << c, ls2, ws2, wc2, s.next[seat], taken, -1, 0, &cut);
        }
        s.hand[seat] |= 1u << c;
        if (!have || prefer(&mx, seat, v, best)) { best = v; have = 1; }
        PyObject *k = PyLong_FromLong(c);
        PyObject *tv = Py_BuildValue("(iii)", v.t[0], v.t[1], v.t[2]);
        PyDict_SetItem(out, k, tv);
        Py_DECREF(k);
        Py_DECREF(tv);
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    PyObject *res = Py_BuildValue("(iii)OK", best.t[0], best.t[1], best.t[2], out, (unsigned long long)s.nodes);
    Py_DECREF(out);
    return res;
}

static PyObject *py_entry_size(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("nn", (Py_ssize_t)sizeof(Entry), (Py_ssize_t)sizeof(MEntry));
}

static PyMethodDef methods[] = {
    {"tricks", py_tricks, METH_VARARGS, "Declarer's future tricks under optimal play, and nodes searched."},
    {"reaches", py_reaches, METH_VARARGS, "Whether the declarer takes at least N future tricks."},
    {"card_values", py_card_values, METH_VARARGS, "Future declarer tricks after each legal card."},
    {"maxn", py_maxn, METH_VARARGS, "max^n final tricks with the scores of R7."},
    {"entry_sizes", py_entry_size, METH_NOARGS, "Bytes of one table entry (tricks, max^n)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "Compiled double-dummy search.", -1, methods};

PyMODINIT_FUNC PyInit__core(void) {
    fill_compress();
    fill_reduce();
    return PyModule_Create(&module);
}
