/* ldot.c -- exact signed dot products of fixed-point limb vectors by
 * product scanning (hdo_dot_limbs; Radau's stage residual, ref/step) */
#include "expr.h"

typedef mp_limb_t limb;
typedef unsigned __int128 dlimb;
#define LB 64
#include "mac.h"

/* Column c of the product, the limb products a_jq f_jr with q + r = c
   over every term j, is summed in three limbs (MAC3; MSB3 subtracts
   those of a negative term: a signed 192-bit sum, |sum| < n l 2^128 with
   n = np + nn < 2^50), then carried into limb c of out with the columns
   below it (a signed carry of two limbs).  l is a constant at each call
   (hdo_dot_limbs' switch), so the loops over c and q unroll: at l = 3,
   9 multiply-adds of four instructions a term.  Unrolled up to l = 12
   (the pragmas' counts): a loop over q left rolled at l = 8 cost 799
   instructions a term against mpn_addmul_1's 677, unrolled 457; at
   l = 12 954 against 1,329 (decisions.md D-143). */
static inline void
dot_cols(mp_ptr out, const limb *a, const limb *f, const slong *jp, slong np,
         const slong *jn, slong nn, const slong L)
{
    limb r0 = 0, r1 = 0; /* the signed carry into column c */
    HDO_UNROLL(24)
    for (slong c = 0; c < 2 * L - 1; c++) {
        limb c0 = 0, c1 = 0, c2 = 0;
        slong qlo = c < L ? 0 : c - L + 1, qhi = c < L ? c : L - 1;
        for (slong t = 0; t < np; t++) {
            const limb *aj = a + jp[t] * L, *fj = f + jp[t] * L;
            HDO_UNROLL(12)
            for (slong q = qlo; q <= qhi; q++)
                MAC3(c0, c1, c2, aj[q], fj[c - q]);
        }
        for (slong t = 0; t < nn; t++) {
            const limb *aj = a + jn[t] * L, *fj = f + jn[t] * L;
            HDO_UNROLL(12)
            for (slong q = qlo; q <= qhi; q++)
                MSB3(c0, c1, c2, aj[q], fj[c - q]);
        }
        /* (c2 c1 c0) + the carry (r1 r0, r1 signed) */
        dlimb lo = (dlimb)c0 + r0;
        dlimb mid = (dlimb)c1 + r1 + (limb)(lo >> LB);
        out[c] = (limb)lo;
        r0 = (limb)mid;
        r1 = c2 + (limb)(mid >> LB) + ((r1 >> (LB - 1)) ? ~(limb)0 : 0);
    }
    out[2 * L - 1] = r0;
    out[2 * L] = r1;
}

_Static_assert(HDO_DOT_LIMBS_MAX == 12, "hdo_dot_limbs: a case for each l");

void
hdo_dot_limbs(mp_ptr out, const mp_limb_t *a, const mp_limb_t *f,
              const slong *jp, slong np, const slong *jn, slong nn, slong l)
{
    HDO_ASSERT(l >= 1 && l <= HDO_DOT_LIMBS_MAX);
    /* each case its own copy of dot_cols, unrolled for its l */
#define DOT_CASE(L)                                                            \
    case L:                                                                    \
        dot_cols(out, a, f, jp, np, jn, nn, L);                                \
        break
    switch (l) {
        DOT_CASE(1);
        DOT_CASE(2);
        DOT_CASE(3);
        DOT_CASE(4);
        DOT_CASE(5);
        DOT_CASE(6);
        DOT_CASE(7);
        DOT_CASE(8);
        DOT_CASE(9);
        DOT_CASE(10);
        DOT_CASE(11);
        DOT_CASE(12);
    }
#undef DOT_CASE
}
