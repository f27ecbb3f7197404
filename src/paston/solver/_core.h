/*
 * Compiled core of the Paston double-dummy solver (C99, CPython extension): what its
 * parts share. The parts: _core_tables.c (the lookup tables filled at import),
 * _core_tricks.c (alpha-beta on the declarer's tricks), _core_maxn.c (max^n with the
 * scores of R7), _core.c (the Python glue: every argument checked at the door).
 *
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
 * The door: every entry point checks all of its arguments before it searches (in
 * _core.c) and raises TypeError or ValueError for a bad call; the search
 * trusts what gets through, so its hot paths carry no checks.
 */
#ifndef PASTON_SOLVER_CORE_H
#define PASTON_SOLVER_CORE_H

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

/* --- the lookup tables (_core_tables.c) ------------------------------------------------- */
/* COMPRESS[all][m]: the bits of m at the positions of all's set bits, packed low
   (a software pext over 8 bits); POPC8: popcount of a byte; REDUCE[remaining byte][legal
   byte]: one card of each run of touching cards per suit (no other remaining card
   between). Filled once when the module loads (fill_tables), only read after. */
/* What one part of the core gives the others stays inside the module: hidden symbols are
   reached directly, not through the shared library's offset table. */
#define CORE_INTERNAL __attribute__((visibility("hidden")))

extern CORE_INTERNAL uint8_t COMPRESS[256][256];
extern CORE_INTERNAL uint8_t POPC8[256];
extern CORE_INTERNAL uint8_t REDUCE[256][256];
CORE_INTERNAL void fill_tables(void);

/* --- keys ----------------------------------------------------------------------------- */
/* The exact key of a trick-boundary position by relative ranks: per suit, which of the
   remaining cards (in rank order) seats 1 and 2 hold (seat 0 holds the rest), and how
   many remain; plus the leader and the search context. */
static inline void make_key(const Search *s, int leader, uint64_t *k0, uint64_t *k1) {
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

/* --- moves ------------------------------------------------------------------------------ */
/* The legal cards of a hand following to a trick led in lead_suit. */
static inline uint32_t legal_of(uint32_t hand, int lead_suit, int trump) {
    uint32_t f = hand & SUIT_MASK[lead_suit];
    if (f) return f;
    f = hand & SUIT_MASK[trump];
    return f ? f : hand;
}

static inline uint32_t legal_mask(const Search *s, int seat, int lead_suit) {
    return lead_suit >= 0 ? legal_of(s->hand[seat], lead_suit, s->trump) : s->hand[seat];
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

/* --- the searches' entry points -------------------------------------------------------- */
/* A position's root: the trick in progress walked (see setup in _core.c). */
typedef struct {
    int leader, seat, ntrick, lead_suit, win_seat, win_card, r; /* r: tricks left, this one included */
    uint32_t tmask;
} Root;

/* Alpha-beta on the declarer's future tricks (_core_tricks.c). */
CORE_INTERNAL int tricks_exact(Search *s, const Root *t);
CORE_INTERNAL int tricks_root_value(Search *s, const Root *t, int alpha, int beta);
CORE_INTERNAL int tricks_value_after(Search *s, const Root *t, int c, int alpha, int beta);

/* --- max^n with the scores of R7 ----------------------------------------------------------- */
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

#define LEAF_MAX 256 /* card sequences a max^n trick layout holds at most */

/* max^n (_core_maxn.c): the future tricks vector after the card c is played at the root. */
CORE_INTERNAL uint32_t maxn_after(Maxn *mx, const Root *t, int c);

#endif
