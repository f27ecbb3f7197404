/*
 * What the deal shows after each action (paston.encoding_fast.DealEncoder._after): the
 * phase, the seat to move, the scores or the redeal reason once the deal ends, and the
 * legal mask of the seat to move (paston.deal.Deal.legal_actions, as action indices);
 * and the table of discard pairs.
 */
#include "_fastdeal.h"

#include <string.h>

#define W (d->L->v[L_FULL_OBSERVATION_SIZE])
#define AT(key) (d->L->v[key])

/* the discard pairs in index order: (lo, hi) of pair k, and the index of a pair */
int8_t FD_PAIR_LO[496], FD_PAIR_HI[496];
static int16_t FD_PAIR_INDEX[32][32];

void fd_init_tables(void) {
    int k = 0;
    for (int lo = 0; lo < 32; lo++)
        for (int hi = lo + 1; hi < 32; hi++) {
            FD_PAIR_LO[k] = (int8_t)lo;
            FD_PAIR_HI[k] = (int8_t)hi;
            FD_PAIR_INDEX[lo][hi] = FD_PAIR_INDEX[hi][lo] = (int16_t)k;
            k++;
        }
}

static const long PHASE_KEY[7] = {L_PHASE_AUCTION, L_PHASE_DISCARD, L_PHASE_TRUMP, L_PHASE_DEFENCE,
                                  L_PHASE_PLAY, L_PHASE_OVER, L_PHASE_REDEAL};
static const long REDEAL_KEY[3] = {L_REDEAL_SPADE_SEQUENCE, L_REDEAL_JACK_SEVEN_PRIKUP,
                                   L_REDEAL_NO_JACK_NO_SEVEN};

/* the phase, the seat to move, the end of the deal and the mask (DealEncoder._after) */
void fd_show(FDeal *d) {
    int phase = d->phase;
    if (phase != d->shown_phase) {
        if (d->shown_phase >= 0) fd_put3(d, AT(L_PHASE) + AT(PHASE_KEY[d->shown_phase]), 0.0f);
        fd_put3(d, AT(L_PHASE) + AT(PHASE_KEY[phase]), 1.0f);
        d->shown_phase = phase;
        if (phase == P_OVER)
            for (int s = 0; s < 3; s++)
                fd_seats(d, L_SCORES, 1, s, 0, (float)(d->scores[s] / d->L->score_scale));
        else if (phase == P_REDEAL)
            fd_put3(d, AT(L_REDEAL) + AT(REDEAL_KEY[d->redeal]), 1.0f);
    }
    int mover = phase < P_OVER ? d->to_move : -1;
    if (mover != d->shown_mover) {
        if (d->shown_mover >= 0) fd_seats(d, L_TO_MOVE, 1, d->shown_mover, 0, 0.0f);
        if (mover >= 0) fd_seats(d, L_TO_MOVE, 1, mover, 0, 1.0f);
        d->shown_mover = mover;
    }
    int8_t *m = d->m;
    memset(m, 0, (size_t)(d->mask_wide ? AT(L_ACTION_COUNT) : AT(L_DISCARD_OFFSET)));
    d->mask_wide = 0;
    switch (phase) {
    case P_PLAY: {
        uint32_t bits = fd_playable(d->hands[mover], d->lead, d->trump);
        for (int c = 0; c < 32; c++) m[c] = (int8_t)(bits >> c & 1u);
        break;
    }
    case P_AUCTION:
        m[AT(L_PASS)] = 1;
        m[AT(L_BID) + d->high + 1] = 1;
        break;
    case P_DISCARD: {
        uint32_t hand = d->hands[mover];
        long base = AT(L_DISCARD_OFFSET);
        for (int lo = 0; lo < 32; lo++)
            if (hand >> lo & 1u)
                for (int hi = lo + 1; hi < 32; hi++)
                    if (hand >> hi & 1u) m[base + FD_PAIR_INDEX[lo][hi]] = 1;
        d->mask_wide = 1;
        break;
    }
    case P_TRUMP:
        for (int k = 0; k < 5; k++)
            if (fd_trump_allowed(d->bid, k)) m[AT(L_TRUMP) + k] = 1;
        m[AT(L_SURRENDER)] = 1;
        break;
    case P_DEFENCE:
        m[AT(L_WHIST)] = 1;
        m[AT(L_PASS)] = 1;
        break;
    default:
        break;
    }
}

