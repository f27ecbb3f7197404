/* The lookup tables of the solver's core (see _core.h), filled once when the module loads. */
#include "_core.h"

uint8_t COMPRESS[256][256];
uint8_t POPC8[256];
uint8_t REDUCE[256][256];

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

void fill_tables(void) {
    fill_compress();
    fill_reduce();
}
