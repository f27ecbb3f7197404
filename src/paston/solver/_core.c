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
 * The max^n search with the real scores of R7 (three active seats) shares the key and
 * the move generation and has its own table: it lays out each trick whole (every
 * sequence of candidate cards, the table lines of the positions they lead to
 * prefetched together) and then lets the seats choose over it; no pruning, so every
 * stored vector is exact.
 *
 * Thread safety: every call checks its arguments and builds its results holding the
 * GIL, and releases it for the search itself, so calls on different tables run in
 * parallel. A search touches only its own stack state and the table buffers it was
 * given (held exported, so they cannot be resized or freed meanwhile); the lookup
 * tables (COMPRESS, POPC8, REDUCE) are filled once at import and only read after. The
 * few module settings (the max^n search counter, the test-only layout limit) are read
 * or changed only while the GIL is held, and copied into the search's own state. Two
 * calls on one table at once would race: the Python Solver serialises its calls.
 *
 * The door: every entry point checks all of its arguments before it searches (see the
 * Python glue at the end) and raises TypeError or ValueError for a bad call; the search
 * trusts what gets through, so its hot paths carry no checks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
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

/* popcount without a libgcc call on machines built for baseline x86-64 */
static inline int popc(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int lowest(uint32_t x) { return __builtin_ctz(x); }
static inline int highest(uint32_t x) { return 31 - __builtin_clz(x); }

/* --- keys ----------------------------------------------------------------------------- */
/* COMPRESS[all][m]: the bits of m at the positions of all's set bits, packed low
   (a software pext over 8 bits), filled once when the module loads. */
static uint8_t COMPRESS[256][256];
static uint8_t POPC8[256];

static void fill_compress(void) {
    for (int m = 0; m < 256; m++) POPC8[m] = (uint8_t)popc((uint32_t)m);
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
/* The legal cards of a hand following to a trick led in lead_suit. */
static inline uint32_t legal_of(uint32_t hand, int lead_suit, int trump) {
    uint32_t f = hand & SUIT_MASK[lead_suit];
    if (f) return f;
    f = hand & SUIT_MASK[trump];
    return f ? f : hand;
}

static uint32_t legal_mask(const Search *s, int seat, int lead_suit) {
    return lead_suit >= 0 ? legal_of(s->hand[seat], lead_suit, s->trump) : s->hand[seat];
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
    while (legal) {
        int shift = lowest(legal) & ~7;
        out |= (uint32_t)REDUCE[remaining >> shift & 0xFF][legal >> shift & 0xFF] << shift;
        legal &= ~(0xFFu << shift);
    }
    return out;
}

static inline int beats(int c, int w, int trump) {
    if (SUIT(c) == SUIT(w)) return c > w;
    return SUIT(c) == trump;
}

/* The winner of the last trick, one card in each active hand: no choice. */
static inline int last_trick_winner(const uint32_t h[3], const int next[3], int n_active, int leader, int trump) {
    int seat = leader, w = leader, wc = lowest(h[leader]);
    for (int i = 1; i < n_active; i++) {
        seat = next[seat];
        int c = lowest(h[seat]);
        if (beats(c, wc, trump)) { wc = c; w = seat; }
    }
    return w;
}

/* Candidates of a player following to a trick: the cards that would win it and the
   cards that would not are reduced separately, by runs among the cards still in hands
   (cards already in the trick do not separate two cards that both lose it: the trick
   goes to the same seat either way and they are touching afterwards; no card in the
   trick can lie between two cards that both beat its winner). */
static inline uint32_t follow_candidates(uint32_t legal, uint32_t in_hands, int win_card, int trump) {
    int ws = SUIT(win_card);
    uint32_t beat = (SUIT_MASK[ws] & ~((2u << win_card) - 1u)) | (ws == trump ? 0u : SUIT_MASK[trump]);
    uint32_t win = legal & beat, lose = legal & ~beat;
    return (win ? reduce_equivalent(win, in_hands) : 0) | (lose ? reduce_equivalent(lose, in_hands) : 0);
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

/* --- max^n with the scores of R7 ------------------------------------------------------------------- */
/* With three active seats every deal score of R7 rises strictly with the seat's own
   tricks (the declarer's with its own tricks: making is monotone in them; a defender's
   by the two-defender table), so each seat maximises its own tricks; a defender's ties
   go to fewer declarer tricks, every other tie to the lower card (cards are tried in
   ascending order, so the first best is kept). None of this depends on the tricks
   already taken, so the search works on future tricks: a vector packs the three seats'
   future tricks, 8 bits each (seat s at bit 8 s). */
#define OWN(v, seat) ((int)((v) >> (8 * (seat)) & 0xFF))

/* A max^n table entry in 16 bytes: the key's first word, then the rest of the key (bits
   0-28, never zero: the active seats are in it), the future tricks vector as the search
   packs it (24 bits, from bit 29) and the search generation (8 bits, from bit 53).
   Buckets are 4 entries, one 64-byte cache line. */
typedef struct {
    uint64_t k0, w;
} MEntry;

#define MKEY_BITS 29
#define MKEY_MASK ((1ull << MKEY_BITS) - 1)
#define MGEN_SHIFT (MKEY_BITS + 24)

typedef struct {
    Search *s;
    MEntry *tt;
    int bucket_shift; /* 64 - log2(buckets) */
    uint64_t generation; /* one per search, 8 bits: entries of older searches are replaced first */
    int layout_limit; /* the module's layout_limit when the search began */
} Maxn;

/* 1 if future tricks a are strictly better than b for seat. */
static inline int maxn_better(const Search *s, int seat, uint32_t a, uint32_t b) {
    int oa = OWN(a, seat), ob = OWN(b, seat);
    if (oa != ob) return oa > ob;
    return seat != s->declarer && OWN(a, s->declarer) < OWN(b, s->declarer);
}

/* Sure tricks at a trick boundary with r tricks left: whoever holds the top k remaining
   trumps wins k tricks; if nobody but the leader holds a trump, the leader also cashes
   its top cards in the other suits. A seat's max^n result is at least what it can take
   for sure, so when one seat surely takes all r tricks, that is the result: returns the
   vector, or 0 when nothing is settled. */
static inline uint32_t settled_hands(const uint32_t h[3], int trump, int leader, int r) {
    uint32_t remaining = h[0] | h[1] | h[2];
    uint32_t tr = SUIT_MASK[trump];
    uint32_t all_tr = remaining & tr;
    int owner = leader, k = 0;
    if (all_tr) {
        int top = highest(all_tr);
        owner = (h[0] >> top & 1) ? 0 : (h[1] >> top & 1) ? 1 : 2;
        uint32_t mine = h[owner] & tr;
        while (all_tr && (mine >> highest(all_tr) & 1)) {
            all_tr &= ~(1u << highest(all_tr));
            k++;
        }
    }
    if (owner == leader && !(remaining & tr & ~h[leader])) {
        for (int suit = 0; suit < 4 && k < r; suit++) {
            if (suit == trump) continue;
            uint32_t all = remaining & SUIT_MASK[suit];
            uint32_t mine = h[leader] & SUIT_MASK[suit];
            while (all && (mine >> highest(all) & 1)) {
                all &= ~(1u << highest(all));
                k++;
            }
        }
    }
    return k >= r ? (uint32_t)r << (8 * owner) : 0;
}

static inline uint32_t maxn_settled(const Search *s, int leader, int r) {
    return settled_hands(s->hand, s->trump, leader, r);
}

static inline uint64_t maxn_k1(uint64_t k1) { return k1 & MKEY_MASK; }

/* The bucket of a key: multiply-shift hashing (the high bits of one product). */
static inline MEntry *maxn_bucket(const Maxn *mx, uint64_t k0, uint64_t k1) {
    uint64_t h = (k0 ^ (k1 * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return &mx->tt[(h >> mx->bucket_shift) << 2];
}

static uint32_t maxn_trick(Maxn *mx, int ntrick, int lead_suit, int win_seat, int win_card, int seat, int r);
static uint32_t maxn_expand(Maxn *mx, int L, int r);

/* The table's vector for a key (refreshing its generation), or 0 when it is not there
   (a stored vector sums to 2 or more). */
static inline uint32_t maxn_probe(const Maxn *mx, MEntry *bucket, uint64_t k0, uint64_t k1) {
    for (int j = 0; j < 4; j++) {
        MEntry *e = &bucket[j];
        if (e->k0 == k0 && (e->w & MKEY_MASK) == k1) {
            uint64_t w = e->w;
            if ((w >> MGEN_SHIFT & 0xFF) != mx->generation)
                e->w = (w & ~(0xFFull << MGEN_SHIFT)) | mx->generation << MGEN_SHIFT;
            return (uint32_t)(w >> MKEY_BITS & 0xFFFFFF);
        }
    }
    return 0;
}

/* Not in the table: search, then store in an empty slot, else in an entry not used by
   this search, else in the one with the fewest tricks left. */
static uint32_t maxn_search_store(Maxn *mx, int leader, int r, uint64_t k0, uint64_t k1) {
    uint32_t v = maxn_expand(mx, leader, r);
    MEntry *bucket = maxn_bucket(mx, k0, k1);
    MEntry *e = &bucket[0];
    int worth = 1 << 30;
    for (int j = 0; j < 4; j++) {
        uint64_t w = bucket[j].w;
        if (!w) { e = &bucket[j]; break; }
        int d = (int)((w >> MKEY_BITS & 15) + (w >> (MKEY_BITS + 8) & 15) + (w >> (MKEY_BITS + 16) & 15));
        if ((w >> MGEN_SHIFT & 0xFF) == mx->generation) d += 16;
        if (d < worth) { worth = d; e = &bucket[j]; }
    }
    e->k0 = k0;
    e->w = k1 | (uint64_t)v << MKEY_BITS | mx->generation << MGEN_SHIFT;
    return v;
}

/* A boundary position with at least 2 cards each and nothing settled, its key
   computed: the table's vector, or a search (then stored). */
static inline uint32_t maxn_keyed(Maxn *mx, int leader, int r, uint64_t k0, uint64_t k1) {
    uint32_t v = maxn_probe(mx, maxn_bucket(mx, k0, k1), k0, k1);
    return v ? v : maxn_search_store(mx, leader, r, k0, k1);
}

/* One suit's part of a table key (see make_key). */
static inline uint64_t key_part(const uint32_t h[3], int suit) {
    uint32_t m0 = (h[0] >> (suit * 8)) & 0xFF;
    uint32_t m1 = (h[1] >> (suit * 8)) & 0xFF;
    uint32_t m2 = (h[2] >> (suit * 8)) & 0xFF;
    uint32_t all = m0 | m1 | m2;
    const uint8_t *row = COMPRESS[all];
    return (uint64_t)row[m1] | ((uint64_t)row[m2] << 8) | ((uint64_t)POPC8[all] << 16);
}

#define LEAF_MAX 256
/* How many sequences a layout may hold (LEAF_MAX; lowered only by tests, through
   _layout_limit, to search every trick card by card). */
static int layout_limit = LEAF_MAX;


/* A trick boundary with r >= 2 cards each, three active seats, nothing settled and not
   in the table: the future tricks. The whole trick is laid out first: every sequence of
   three candidate cards, with the position it leads to either settled at once or keyed
   (the key recomputed only for the suits the trick touched) and its table line
   prefetched; then the seats choose, last seat first, over that layout. A trick with
   more sequences than the layout holds is searched card by card. */
static uint32_t maxn_expand(Maxn *mx, int L, int r) {
    Search *s = mx->s;
    const int M = s->next[L], N = s->next[M];
    const int trump = s->trump;
    const uint32_t hL = s->hand[L], hM = s->hand[M], hN = s->hand[N];
    uint32_t h[3];
    h[L] = hL;
    h[M] = hM;
    h[N] = hN;
    uint64_t part[4];
    for (int suit = 0; suit < 4; suit++) part[suit] = key_part(h, suit);
    const uint64_t ctx = s->ctx << 22;
    int card1[10], start2[11], card2[100], start3[101], n1 = 0, n2 = 0, nleaf = 0;
    uint8_t leaf_card[LEAF_MAX], leaf_winner[LEAF_MAX];
    uint32_t leaf_known[LEAF_MAX];
    uint64_t leaf_k0[LEAF_MAX], leaf_k1[LEAF_MAX];
    MEntry *leaf_bucket[LEAF_MAX];
    const uint32_t in_hands = hL | hM | hN;
    for (uint32_t m1 = reduce_equivalent(hL, in_hands); m1; m1 &= m1 - 1) {
        const int c1 = lowest(m1), suit = SUIT(c1);
        card1[n1] = c1;
        start2[n1++] = n2;
        h[L] = hL ^ 1u << c1;
        const uint32_t h1 = in_hands ^ 1u << c1;
        for (uint32_t m2 = follow_candidates(legal_of(hM, suit, trump), h1, c1, trump); m2; m2 &= m2 - 1) {
            const int c2 = lowest(m2);
            int w2 = L, wc2 = c1;
            if (beats(c2, c1, trump)) { w2 = M; wc2 = c2; }
            card2[n2] = c2;
            start3[n2++] = nleaf;
            h[M] = hM ^ 1u << c2;
            const uint32_t h2 = h1 ^ 1u << c2;
            for (uint32_t m3 = follow_candidates(legal_of(hN, suit, trump), h2, wc2, trump); m3; m3 &= m3 - 1) {
                const int c3 = lowest(m3);
                const int w = beats(c3, wc2, trump) ? N : w2;
                if (nleaf == mx->layout_limit) return maxn_trick(mx, 0, -1, L, 0, L, r);
                h[N] = hN ^ 1u << c3;
                uint32_t known = 0;
                if (r == 2) {
                    known = 1u << (8 * last_trick_winner(h, s->next, 3, w, trump));
                }
                /* (testing for a settled position costs more here than the table probe) */
                if (!known) {
                    uint64_t p[4] = {part[0], part[1], part[2], part[3]};
                    p[suit] = key_part(h, suit);
                    if (SUIT(c2) != suit) p[SUIT(c2)] = key_part(h, SUIT(c2));
                    if (SUIT(c3) != suit) p[SUIT(c3)] = key_part(h, SUIT(c3));
                    const uint64_t k0 = p[0] | (p[1] << 20) | (p[2] << 40);
                    const uint64_t k1 = (p[3] | ((uint64_t)w << 20) | ctx) & MKEY_MASK;
                    leaf_k0[nleaf] = k0;
                    leaf_k1[nleaf] = k1;
                    leaf_bucket[nleaf] = maxn_bucket(mx, k0, k1);
                    __builtin_prefetch(leaf_bucket[nleaf]);
                }
                leaf_card[nleaf] = (uint8_t)c3;
                leaf_winner[nleaf] = (uint8_t)w;
                leaf_known[nleaf++] = known;
            }
        }
    }
    start2[n1] = n2;
    start3[n2] = nleaf;
    s->nodes += 1 + (uint64_t)n1 + (uint64_t)n2 + (uint64_t)nleaf;
    uint32_t bestL = 0;
    for (int i = 0; i < n1; i++) {
        uint32_t bestM = 0;
        for (int j = start2[i]; j < start2[i + 1]; j++) {
            uint32_t bestN = 0;
            for (int k = start3[j]; k < start3[j + 1]; k++) {
                uint32_t v = leaf_known[k];
                if (!v) v = maxn_probe(mx, leaf_bucket[k], leaf_k0[k], leaf_k1[k]);
                if (!v) {
                    /* the hands after this trick, for a search below */
                    s->hand[L] = hL ^ 1u << card1[i];
                    s->hand[M] = hM ^ 1u << card2[j];
                    s->hand[N] = hN ^ 1u << leaf_card[k];
                    v = maxn_search_store(mx, leaf_winner[k], r - 1, leaf_k0[k], leaf_k1[k]);
                }
                v += 1u << (8 * leaf_winner[k]);
                if (k == start3[j] || maxn_better(s, N, v, bestN)) bestN = v;
                if (OWN(bestN, N) == r) break; /* every trick left: nothing is better */
            }
            if (j == start2[i] || maxn_better(s, M, bestN, bestM)) bestM = bestN;
            if (OWN(bestM, M) == r) break;
        }
        if (i == 0 || maxn_better(s, L, bestM, bestL)) bestL = bestM;
        if (OWN(bestL, L) == r) break;
    }
    s->hand[L] = hL;
    s->hand[M] = hM;
    s->hand[N] = hN;
    return bestL;
}

/* A trick boundary with r cards each: the future tricks. */
static uint32_t maxn_boundary(Maxn *mx, int leader, int r) {
    Search *s = mx->s;
    if (r == 0) return 0;
    s->nodes++;
    if (r == 1) {
        return 1u << (8 * last_trick_winner(s->hand, s->next, s->n_active, leader, s->trump));
    }
    uint32_t v = maxn_settled(s, leader, r);
    if (v) return v;
    uint64_t k0, k1;
    make_key(s, leader, &k0, &k1);
    return maxn_keyed(mx, leader, r, k0, maxn_k1(k1));
}

/* The rest of a trick: `ntrick` cards played, `seat` to move, r tricks left including
   this one. The last card of a trick first computes the table keys of all the boundary
   positions it can lead to, so that their table lines load together. */
static uint32_t maxn_trick(Maxn *mx, int ntrick, int lead_suit, int win_seat, int win_card, int seat, int r) {
    Search *s = mx->s;
    s->nodes++;
    uint32_t in_hands = s->hand[0] | s->hand[1] | s->hand[2];
    uint32_t cand = ntrick == 0 ? reduce_equivalent(s->hand[seat], in_hands)
                                : follow_candidates(legal_mask(s, seat, lead_suit), in_hands, win_card, s->trump);
    uint32_t best = 0;
    int have = 0;
    if (ntrick + 1 < s->n_active) {
        for (uint32_t m = cand; m; m &= m - 1) {
            int c = lowest(m);
            int ws = win_seat, wc = win_card;
            if (ntrick == 0 || beats(c, wc, s->trump)) { ws = seat; wc = c; }
            s->hand[seat] ^= 1u << c;
            uint32_t v = maxn_trick(mx, ntrick + 1, ntrick == 0 ? SUIT(c) : lead_suit, ws, wc, s->next[seat], r);
            s->hand[seat] ^= 1u << c;
            if (!have || maxn_better(s, seat, v, best)) { best = v; have = 1; }
            if (OWN(best, seat) == r) break; /* every trick left: nothing is better */
        }
        return best;
    }
    int n = 0, cards[10], winner[10]; /* at most 10 cards in a hand */
    uint32_t known[10];
    uint64_t keys0[10], keys1[10];
    for (uint32_t m = cand; m; m &= m - 1) {
        int c = lowest(m);
        int ws = beats(c, win_card, s->trump) ? seat : win_seat;
        cards[n] = c;
        winner[n] = ws;
        known[n] = 0;
        if (r >= 3) {
            s->hand[seat] ^= 1u << c;
            known[n] = maxn_settled(s, ws, r - 1);
            if (!known[n]) {
                uint64_t k1;
                make_key(s, ws, &keys0[n], &k1);
                keys1[n] = maxn_k1(k1);
                __builtin_prefetch(maxn_bucket(mx, keys0[n], keys1[n]));
            }
            s->hand[seat] ^= 1u << c;
        }
        n++;
    }
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        uint32_t v;
        s->hand[seat] ^= 1u << c;
        if (r < 3) v = maxn_boundary(mx, winner[i], r - 1);
        else {
            v = known[i] ? known[i] : maxn_keyed(mx, winner[i], r - 1, keys0[i], keys1[i]);
            s->nodes++;
        }
        s->hand[seat] ^= 1u << c;
        v += 1u << (8 * winner[i]);
        if (!have || maxn_better(s, seat, v, best)) { best = v; have = 1; }
        if (OWN(best, seat) == r) break;
    }
    return best;
}

/* --- Python glue: the checks at the door ----------------------------------------------------------- */
/* Every argument of every entry point is checked here, before any search, and a call the
   search could not survive raises TypeError or ValueError instead: an empty set of active
   seats would loop for ever looking for the next seat, a seat or suit out of range would
   index past an array, a hand of more than 10 cards would overflow the move lists, and
   cards in two places or hands of the wrong sizes would break the trick bookkeeping. The
   search itself trusts what gets through (no check on its hot paths). */

#define MAX_CARDS 10 /* cards per hand: the move lists of the search are sized for it */
/* The smallest tables: 128 entries for the declarer's tricks (the smallest Solver's), and
   32,768 (512 KiB) for max^n, whose searches without pruning slow down steeply when the
   table cannot hold a deal's positions (one deal took 138 s with 256 entries; at this
   floor a fresh table solves a full deal in about 10 ms on average, 0.5 s at worst). */
#define TT_MIN_ENTRIES 128
#define MAXN_MIN_ENTRIES 32768

typedef struct {
    int leader, seat, ntrick, lead_suit, win_seat, win_card, r; /* r: tricks left, this one included */
    uint32_t tmask;
} Root;

static void card_text(int c, char out[3]) {
    out[0] = "789TJQKA"[c & 7];
    out[1] = "SCDH"[c >> 3 & 3];
    out[2] = 0;
}

/* An int argument in [lo, hi] (a bool is refused: True is no seat, suit or card). */
static int int_arg(PyObject *o, const char *what, long long lo, long long hi, long long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, not a number that %s", what, lo, hi,
                     overflow > 0 ? "large" : "small");
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, not %lld", what, lo, hi, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* A writable buffer for a table of at least min_entries entries of `size` bytes, from
   its first `align`-byte boundary: the start and the largest power-of-two number of
   entries that fit. On success the buffer is held (the caller releases it). */
static int table_arg(PyObject *o, const char *what, size_t size, uint64_t min_entries, uintptr_t align, Py_buffer *b,
                     void **start, uint64_t *entries) {
    if (!PyObject_CheckBuffer(o) || PyObject_GetBuffer(o, b, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a writable contiguous buffer (a bytearray), not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    uintptr_t first = ((uintptr_t)b->buf + align - 1) & ~(align - 1);
    uint64_t skip = first - (uintptr_t)b->buf;
    uint64_t room = (uint64_t)b->len > skip ? (uint64_t)b->len - skip : 0;
    if (room < min_entries * size) {
        PyErr_Format(PyExc_ValueError, "%s is too small: %zd bytes, it needs at least %llu (%llu entries)", what,
                     b->len, (unsigned long long)(min_entries * size + align - 1), (unsigned long long)min_entries);
        PyBuffer_Release(b);
        return -1;
    }
    uint64_t n = min_entries;
    while (n * 2 * size <= room) n *= 2;
    *start = (void *)first;
    *entries = n;
    return 0;
}

/* The position arguments (hand0, hand1, hand2, trump, declarer, active seats mask,
   leader, trick, table): checked, then the search state and the root (the trick in
   progress walked). On success the table buffer is held (the caller releases it). */
static int setup(Search *s, PyObject *args, Py_buffer *buf, Root *root) {
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 9) {
        PyErr_SetString(PyExc_TypeError, "a position is a tuple of 9: hand0, hand1, hand2, trump, declarer, "
                                         "active seats (bit mask), leader, trick (cards), table (bytearray)");
        return -1;
    }
    static const char *const hand_names[3] = {"hand of seat 0", "hand of seat 1", "hand of seat 2"};
    long long v, trump, declarer, active, leader;
    uint32_t hand[3];
    for (int i = 0; i < 3; i++) {
        if (int_arg(PyTuple_GET_ITEM(args, i), hand_names[i], 0, 0xFFFFFFFFll, &v) < 0) return -1;
        hand[i] = (uint32_t)v;
    }
    if (int_arg(PyTuple_GET_ITEM(args, 3), "trump", 0, 3, &trump) < 0 ||
        int_arg(PyTuple_GET_ITEM(args, 4), "declarer", 0, 2, &declarer) < 0 ||
        int_arg(PyTuple_GET_ITEM(args, 5), "active seats mask", 0, 7, &active) < 0 ||
        int_arg(PyTuple_GET_ITEM(args, 6), "leader", 0, 2, &leader) < 0)
        return -1;
    int n_active = popc((uint32_t)active);
    if (n_active < 2) {
        PyErr_Format(PyExc_ValueError, "two or three seats must be active, not mask %lld", active);
        return -1;
    }
    if (!(active >> declarer & 1) || !(active >> leader & 1)) {
        PyErr_Format(PyExc_ValueError, "the %s (seat %lld) is not an active seat (mask %lld)",
                     active >> declarer & 1 ? "leader" : "declarer", active >> declarer & 1 ? leader : declarer,
                     active);
        return -1;
    }
    char name[3];
    for (int i = 0; i < 3; i++) {
        if (hand[i] && !(active >> i & 1)) {
            PyErr_Format(PyExc_ValueError, "seat %d is not active (mask %lld) but holds cards", i, active);
            return -1;
        }
        for (int j = i + 1; j < 3; j++)
            if (hand[i] & hand[j]) {
                card_text(lowest(hand[i] & hand[j]), name);
                PyErr_Format(PyExc_ValueError, "card %s is in two hands (seats %d and %d)", name, i, j);
                return -1;
            }
    }
    PyObject *trick = PyTuple_GET_ITEM(args, 7);
    if (!PyTuple_Check(trick) && !PyList_Check(trick)) {
        PyErr_Format(PyExc_TypeError, "the trick must be a tuple of cards 0-31, not %.100s", Py_TYPE(trick)->tp_name);
        return -1;
    }
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(trick);
    if (nt >= n_active) {
        PyErr_Format(PyExc_ValueError, "the trick in progress holds %zd cards: at most %d with %d active seats", nt,
                     n_active - 1, n_active);
        return -1;
    }
    int cards[2];
    uint32_t seen = hand[0] | hand[1] | hand[2];
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (int_arg(PySequence_Fast_GET_ITEM(trick, i), "a card of the trick", 0, 31, &v) < 0) return -1;
        cards[i] = (int)v;
        if (seen >> v & 1) {
            card_text(cards[i], name);
            PyErr_Format(PyExc_ValueError, "card %s of the trick is also %s", name,
                         (hand[0] | hand[1] | hand[2]) >> v & 1 ? "in a hand" : "earlier in the trick");
            return -1;
        }
        seen |= 1u << v;
    }
    /* seats in the order of play from the leader; those who played to the trick hold one
       card fewer than the others */
    int next[3], order[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        while (!(active >> j & 1)) j = (j + 1) % 3;
        next[i] = j;
    }
    order[0] = (int)leader;
    for (int i = 1; i < n_active; i++) order[i] = next[order[i - 1]];
    int n = popc(hand[order[n_active - 1]]);
    for (int i = 0; i < n_active; i++) {
        int expected = i < nt ? n - 1 : n, held = popc(hand[order[i]]);
        if (held != expected) {
            PyErr_Format(PyExc_ValueError, "seat %d holds %d cards but should hold %d (%zd in the trick in progress)",
                         order[i], held, expected, nt);
            return -1;
        }
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "there is nothing left to play");
        return -1;
    }
    if (n > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "a hand holds at most %d cards, not %d", MAX_CARDS, n);
        return -1;
    }
    /* R6.2 in the trick: follow suit, else trump if you can */
    for (Py_ssize_t i = 1; i < nt; i++) {
        int lead = SUIT(cards[0]), suit = SUIT(cards[i]);
        uint32_t h = hand[order[i]];
        if (suit != lead && ((h & SUIT_MASK[lead]) || (suit != trump && (h & SUIT_MASK[trump])))) {
            card_text(cards[i], name);
            PyErr_Format(PyExc_ValueError, "R6.2: seat %d played %s but had to %s", order[i], name,
                         h & SUIT_MASK[lead] ? "follow suit" : "trump");
            return -1;
        }
    }
    void *table;
    uint64_t entries;
    if (table_arg(PyTuple_GET_ITEM(args, 8), "the table", sizeof(Entry), TT_MIN_ENTRIES, sizeof(uint64_t), buf, &table,
                  &entries) < 0)
        return -1;

    memset(s, 0, sizeof(*s));
    for (int i = 0; i < 3; i++) {
        s->hand[i] = hand[i];
        s->side[i] = i == declarer;
        s->next[i] = next[i];
    }
    s->trump = (int)trump;
    s->declarer = (int)declarer;
    s->n_active = n_active;
    s->active_mask = (int)active;
    s->ctx = (uint64_t)trump | ((uint64_t)declarer << 2) | ((uint64_t)active << 4);
    s->tt = (Entry *)table;
    s->tt_mask = entries - 1;

    /* the trick in progress: the seat to move, the led suit and who wins it so far */
    int seat = (int)leader;
    root->leader = (int)leader;
    root->tmask = 0;
    root->lead_suit = -1;
    root->win_seat = (int)leader;
    root->win_card = 0;
    for (Py_ssize_t i = 0; i < nt; i++) {
        int c = cards[i];
        if (i == 0) { root->lead_suit = SUIT(c); root->win_seat = seat; root->win_card = c; }
        else if (beats(c, root->win_card, s->trump)) { root->win_seat = seat; root->win_card = c; }
        root->tmask |= 1u << c;
        seat = s->next[seat];
    }
    root->seat = seat;
    root->ntrick = (int)nt;
    root->r = n;
    return 0;
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

static PyObject *py_tricks(PyObject *self, PyObject *args) {
    Search s;
    Root t;
    Py_buffer buf;
    if (setup(&s, args, &buf, &t) < 0) return NULL;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = exact_value(&s, &t);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return Py_BuildValue("iK", v, (unsigned long long)s.nodes);
}

/* can the declarer take at least `target` future tricks? */
static PyObject *py_reaches(PyObject *self, PyObject *args) {
    Search s;
    Root t;
    Py_buffer buf;
    PyObject *inner, *target_obj;
    if (!PyArg_ParseTuple(args, "OO:reaches", &inner, &target_obj)) return NULL;
    if (!PyLong_Check(target_obj) || PyBool_Check(target_obj)) {
        PyErr_Format(PyExc_TypeError, "the target must be an int, not %.100s", Py_TYPE(target_obj)->tp_name);
        return NULL;
    }
    int overflow = 0;
    long long target = PyLong_AsLongLongAndOverflow(target_obj, &overflow);
    if (target == -1 && PyErr_Occurred()) return NULL;
    if (overflow) target = overflow > 0 ? LLONG_MAX : LLONG_MIN; /* out of reach either way */
    if (setup(&s, inner, &buf, &t) < 0) return NULL;
    int ok;
    if (target <= 0) ok = 1;
    else if (target > t.r) ok = 0;
    else {
        Py_BEGIN_ALLOW_THREADS
        ok = root_value(&s, &t, (int)target - 1, (int)target) >= target;
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&buf);
    return Py_BuildValue("OK", ok ? Py_True : Py_False, (unsigned long long)s.nodes);
}

static PyObject *py_card_values(PyObject *self, PyObject *args) {
    Search s;
    Root t;
    Py_buffer buf;
    if (setup(&s, args, &buf, &t) < 0) return NULL;
    uint32_t legal = legal_mask(&s, t.seat, t.lead_suit);
    int value[32];
    Py_BEGIN_ALLOW_THREADS
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        /* exact value after c, by null-window searches */
        int lo = 0, hi = t.r;
        while (lo < hi) {
            int g = (lo + hi + 1) / 2;
            int v = value_after(&s, t.leader, t.ntrick, t.tmask, t.lead_suit, t.win_seat, t.win_card, t.seat, c, g - 1, g);
            if (v >= g) lo = g; else hi = g - 1;
        }
        value[c] = lo;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyDict_New();
    if (!out) { PyBuffer_Release(&buf); return NULL; }
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        PyObject *k = PyLong_FromLong(c), *v = PyLong_FromLong(value[c]);
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

/* The tricks taken so far, for max^n: three counts that make a 10-trick deal with the
   r tricks left. */
static int taken_arg(PyObject *o, int r, int taken[3]) {
    static const char *const names[3] = {"tricks taken by seat 0", "tricks taken by seat 1", "tricks taken by seat 2"};
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError, "the tricks taken must be a tuple of three counts, not %.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(o) != 3) {
        PyErr_Format(PyExc_ValueError, "the tricks taken must be three counts, not %zd", PySequence_Fast_GET_SIZE(o));
        return -1;
    }
    long long v;
    for (int i = 0; i < 3; i++) {
        if (int_arg(PySequence_Fast_GET_ITEM(o, i), names[i], 0, 10, &v) < 0) return -1;
        taken[i] = (int)v;
    }
    if (taken[0] + taken[1] + taken[2] + r != 10) {
        PyErr_Format(PyExc_ValueError, "max^n needs a position of a 10-trick deal: %d tricks taken and %d to play",
                     taken[0] + taken[1] + taken[2], r);
        return -1;
    }
    return 0;
}

static PyObject *py_maxn(PyObject *self, PyObject *args) {
    /* (inner args, tricks taken, max^n table buffer) -> (final tricks, {card: final tricks}, nodes) */
    Search s;
    Root t;
    Py_buffer buf, mbuf;
    PyObject *inner, *taken_obj, *table_obj;
    int taken[3];
    if (!PyArg_ParseTuple(args, "OOO:maxn", &inner, &taken_obj, &table_obj)) return NULL;
    if (setup(&s, inner, &buf, &t) < 0) return NULL;
    if (s.n_active != 3) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "max^n needs three active seats");
        return NULL;
    }
    void *table;
    uint64_t n;
    if (taken_arg(taken_obj, t.r, taken) < 0 ||
        table_arg(table_obj, "the max^n table", sizeof(MEntry), MAXN_MIN_ENTRIES, 64, &mbuf, &table, &n) < 0) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    /* the largest power-of-two number of entries that fits in the buffer from its first
       64-byte boundary (one bucket of 4 per cache line) */
    Maxn mx;
    mx.s = &s;
    mx.tt = (MEntry *)table;
    mx.bucket_shift = 64;
    for (uint64_t buckets = n / 4; buckets > 1; buckets /= 2) mx.bucket_shift--;
    static unsigned searches = 0; /* changed only with the GIL held */
    mx.generation = ++searches & 0xFF;
    mx.layout_limit = layout_limit;
    int seat = t.seat, nt = t.ntrick, ls = t.lead_suit, ws = t.win_seat, wc = t.win_card, r = t.r;
    uint32_t legal = legal_mask(&s, seat, ls);
    uint32_t best = 0, value[32];
    int have = 0;
    Py_BEGIN_ALLOW_THREADS
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        int ws2 = ws, wc2 = wc, ls2 = ls;
        if (nt == 0) { ws2 = seat; wc2 = c; ls2 = SUIT(c); }
        else if (beats(c, wc2, s.trump)) { ws2 = seat; wc2 = c; }
        s.hand[seat] &= ~(1u << c);
        uint32_t v = nt + 1 == s.n_active ? maxn_boundary(&mx, ws2, r - 1) + (1u << (8 * ws2))
                                          : maxn_trick(&mx, nt + 1, ls2, ws2, wc2, s.next[seat], r);
        s.hand[seat] |= 1u << c;
        if (!have || maxn_better(&s, seat, v, best)) { best = v; have = 1; }
        value[c] = v;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyDict_New();
    if (!out) { PyBuffer_Release(&buf); PyBuffer_Release(&mbuf); return NULL; }
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest(m);
        uint32_t v = value[c];
        PyObject *k = PyLong_FromLong(c);
        PyObject *tv = Py_BuildValue("(iii)", taken[0] + OWN(v, 0), taken[1] + OWN(v, 1), taken[2] + OWN(v, 2));
        int failed = !k || !tv || PyDict_SetItem(out, k, tv) < 0;
        Py_XDECREF(k);
        Py_XDECREF(tv);
        if (failed) { Py_DECREF(out); PyBuffer_Release(&buf); PyBuffer_Release(&mbuf); return NULL; }
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    PyObject *res = Py_BuildValue("(iii)OK", taken[0] + OWN(best, 0), taken[1] + OWN(best, 1),
                                  taken[2] + OWN(best, 2), out, (unsigned long long)s.nodes);
    Py_DECREF(out);
    return res;
}

static PyObject *py_layout_limit(PyObject *self, PyObject *args) {
    PyObject *o;
    long long limit;
    if (!PyArg_ParseTuple(args, "O:_layout_limit", &o) || int_arg(o, "layout limit", 0, LEAF_MAX, &limit) < 0)
        return NULL;
    int previous = layout_limit; /* the GIL is held: no search reads it meanwhile */
    layout_limit = (int)limit;
    return PyLong_FromLong(previous);
}

static PyObject *py_entry_size(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("nn", (Py_ssize_t)sizeof(Entry), (Py_ssize_t)sizeof(MEntry));
}

static PyMethodDef methods[] = {
    {"tricks", py_tricks, METH_VARARGS, "Declarer's future tricks under optimal play, and nodes searched."},
    {"reaches", py_reaches, METH_VARARGS, "Whether the declarer takes at least N future tricks."},
    {"card_values", py_card_values, METH_VARARGS, "Future declarer tricks after each legal card."},
    {"maxn", py_maxn, METH_VARARGS, "max^n final tricks with the scores of R7."},
    {"_layout_limit", py_layout_limit, METH_VARARGS,
     "Set how many card sequences a max^n trick layout holds (for tests); returns the previous limit."},
    {"entry_sizes", py_entry_size, METH_NOARGS, "Bytes of one table entry (tricks, max^n)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled double-dummy search.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    fill_compress();
    fill_reduce();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* the smallest table buffers the entry points take (bytes, alignment slack included) */
    if (PyModule_AddIntConstant(m, "TABLE_MIN_BYTES", (long)(TT_MIN_ENTRIES * sizeof(Entry) + sizeof(uint64_t) - 1)) < 0 ||
        PyModule_AddIntConstant(m, "MAXN_TABLE_MIN_BYTES", (long)(MAXN_MIN_ENTRIES * sizeof(MEntry) + 63)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
