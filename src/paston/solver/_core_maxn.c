/* max^n with the scores of R7 (three active seats): each seat maximises its own future
   tricks over a table of its own; every trick laid out whole (see _core.h). */
#include "_core.h"

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

uint32_t maxn_after(Maxn *mx, const Root *t, int c) {
    Search *s = mx->s;
    int seat = t->seat, ws = t->win_seat, wc = t->win_card, ls = t->lead_suit;
    if (t->ntrick == 0) { ws = seat; wc = c; ls = SUIT(c); }
    else if (beats(c, wc, s->trump)) { ws = seat; wc = c; }
    s->hand[seat] &= ~(1u << c);
    uint32_t v = t->ntrick + 1 == s->n_active ? maxn_boundary(mx, ws, t->r - 1) + (1u << (8 * ws))
                                              : maxn_trick(mx, t->ntrick + 1, ls, ws, wc, s->next[seat], t->r);
    s->hand[seat] |= 1u << c;
    return v;
}
