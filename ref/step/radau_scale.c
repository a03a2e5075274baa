/* radau_scale.c -- the scale of each component in Radau IIA's Newton
 * iteration and error estimate: relative to its own size */
#include <limits.h>
#include <math.h>
#include "radau.h"

/* Why.  Radau IIA measured every error against max(1, |y0|), so below 1
   the tolerance was absolute: x' = -x (1 + t) from x = 1e-50 took its
   whole run in steps whose Newton iteration stopped before x moved
   (issue 23).  Each component is now measured against its own size over
   the step, with two floors: the driver's (floors.c: nominal values,
   values fallen tol below their largest magnitude), and the rounding of
   the iteration, 2^-(3s + 25) of the largest component.  A component
   that is zero in the truth is computed as the Newton iteration's
   rounding, about 2^(8 - wprec) of the largest component (wprec = prec
   + 3s + 32); against this floor that noise is 2^(1 - prec), below the
   iteration's stopping tolerance tol 2^-8 / Lsum (tol = 2^(17 - prec),
   Lsum < 2^8), so it neither stalls the iteration nor fails the error
   estimate.  At 30 digits (s = 24 stages) the floor is 2^-97, 6e-30 of
   the largest component: a component of 1e-20 beside one of 1 has its
   30 digits; one of 1e-35 is held absolutely, to about 6e-30 tol, and
   the driver reports it so (step.h lround, summary.json
   "absolute_values"). */

void
hdo_radau_scales(mpfr_ptr sc, mpfr_srcptr y0, mpfr_srcptr Z, mpfr_srcptr floor,
                 slong N, slong s)
{
    mpfr_t a, low;
    mpfr_inits2(64, a, low, (mpfr_ptr)0);
    mpfr_set_zero(low, 1);
    for (slong i = 0; i < N; i++)
        if (mpfr_cmpabs(y0 + i, low) > 0)
            mpfr_abs(low, y0 + i, MPFR_RNDN);
    mpfr_mul_2si(low, low, -(3 * s + 25), MPFR_RNDN);
    for (slong i = 0; i < N; i++) {
        mpfr_abs(sc + i, y0 + i, MPFR_RNDN);
        if (Z != NULL) {
            mpfr_add(a, y0 + i, Z + i, MPFR_RNDN);
            mpfr_abs(a, a, MPFR_RNDN);
            mpfr_max(sc + i, sc + i, a, MPFR_RNDN);
        }
        if (floor != NULL)
            mpfr_max(sc + i, sc + i, floor + i, MPFR_RNDN);
        mpfr_max(sc + i, sc + i, low, MPFR_RNDN);
    }
    mpfr_clears(a, low, (mpfr_ptr)0);
}

/* e := max(e, |RU(a_k / s_k)|), s_k = sc[k mod N], in MPFR: the rule's
   own operations (q: scratch of 64 bits). */
static void
scaled_max_exact(mpfr_t e, mpfr_t q, mpfr_srcptr a, slong N, mpfr_srcptr sc,
                 slong k)
{
    mpfr_div(q, a + k, sc + k % N, MPFR_RNDU);
    mpfr_abs(q, q, MPFR_RNDU);
    mpfr_max(e, e, q, MPFR_RNDU);
}

/* a's top limb over s's as a double in [1, 2), the exponent of the
   quotient |a| / s into *ex: within 2^-51 of it, relative */
static double
ratio_top(long *ex, mpfr_srcptr a, mpfr_srcptr s)
{
    double m = (double)a->_mpfr_d[(mpfr_get_prec(a) - 1) / GMP_NUMB_BITS] /
               (double)s->_mpfr_d[(mpfr_get_prec(s) - 1) / GMP_NUMB_BITS];
    long x = (long)mpfr_get_exp(a) - (long)mpfr_get_exp(s);
    if (m < 1) {
        m *= 2;
        x--;
    }
    *ex = x;
    return m;
}

/* Why a filter.  The Newton iteration measures every increment here
   (s N entries, 255 on the ring modulator), and an mpfr_div a entry
   was 4% of that run (decisions.md D-128).  |RU(a/s)| is RU(|a|/s) or
   RD(|a|/s) by a's sign, both monotone in |a|/s within 2^-63 of it,
   so only the entries whose quotient, read off the top limbs in double
   (within 2^-51), lies within 2^-30 of the largest can be the
   largest: those are divided in MPFR, the others never reach e.  The
   same e, to the bit.  Entries that are not regular numbers (and
   scales that are not) take the rule's own operations. */
void
hdo_radau_scaled_max(mpfr_t e, mpfr_srcptr a, slong n, slong N, mpfr_srcptr sc)
{
    mpfr_t q;
    mpfr_init2(q, 64);
    long xbest = LONG_MIN;
    double mbest = 0;
    for (slong k = 0; k < n; k++) {
        mpfr_srcptr s = sc + k % N;
        if (mpfr_zero_p(a + k))
            continue;
        /* a whole state of zeros moved; or a NaN, which mpfr_max would
           ignore: an increment that overflowed (a double solve near a
           tiny pivot) must read as no convergence */
        if (mpfr_nan_p(a + k) || mpfr_zero_p(s)) {
            mpfr_set_inf(e, 1);
            mpfr_clear(q);
            return;
        }
        if (!mpfr_regular_p(a + k) || !mpfr_regular_p(s)) {
            scaled_max_exact(e, q, a, N, sc, k);
            continue;
        }
        long x;
        double m = ratio_top(&x, a + k, s);
        if (x > xbest || (x == xbest && m > mbest)) {
            xbest = x;
            mbest = m;
        }
    }
    if (xbest != LONG_MIN) {
        /* the candidates: within 2^-30 of the largest quotient read */
        double low = mbest * (1 - 0x1p-30);
        for (slong k = 0; k < n; k++) {
            mpfr_srcptr s = sc + k % N;
            if (!mpfr_regular_p(a + k) || !mpfr_regular_p(s))
                continue;
            long x;
            double m = ratio_top(&x, a + k, s);
            if (x < xbest - 1 || (x == xbest - 1 ? m / 2 : m) < low)
                continue;
            scaled_max_exact(e, q, a, N, sc, k);
        }
    }
    mpfr_clear(q);
}

/* Why per component.  The first step was tol^(1/(s+1)) max_i sc_i /
   max_i |f_i|: a state of size 1 at rest beside x = 1e-40 decaying at
   rate 1 got a step of 1e26 (then every stage is -x0, the error
   estimate sees a constant and the dense output holds x0; issue 23).
   Each moving component now sets its own time scale |y0_i| / |f_i|; a
   component at zero or at noise level (within its floor: a position at
   an impact) has none.  Why the second derivative for a state at rest:
   the fallback max_i sc_i / max_i |f_i| divides a size by another
   component's rate, for a ball dropped from rest |h| / |v'|, a time
   squared: scaled in time by S (h = S^2) its first step was S times too
   short, and fourfold growth took log4(1/S) steps more (decisions.md
   D-122). */
void
hdo_radau_time_scale(mpfr_t T, mpfr_srcptr y0, const mpfr_t *value,
                     const slong *slot, slong nnz, const slong *jrow,
                     const slong *jcol, mpfr_srcptr floor, mpfr_ptr sc, slong n,
                     slong N, slong s)
{
    mpfr_t q, big;
    mpfr_inits2(64, q, big, (mpfr_ptr)0);
    mpfr_set_inf(T, 1);
    for (slong i = 0; i < n; i++) {
        mpfr_srcptr fi = value[slot[i]];
        if (mpfr_zero_p(fi) || mpfr_zero_p(y0 + i) ||
            (floor != NULL && mpfr_cmpabs(y0 + i, floor + i) <= 0))
            continue;
        mpfr_div(q, y0 + i, fi, MPFR_RNDN);
        mpfr_abs(q, q, MPFR_RNDN);
        mpfr_min(T, T, q, MPFR_RNDN);
    }
    if (mpfr_inf_p(T) && nnz > 0) {
        /* none moves: a component at rest above its floor moves by its
           own size in sqrt(|y0_i| / |y_i''|), y'' = J f over the states
           (a free fall from rest: h = g t^2 / 2) */
        mpfr_t a;
        mpfr_init2(a, 64);
        for (slong i = 0; i < n; i++) {
            mpfr_set_zero(a, 1);
            for (slong e = 0; e < nnz; e++) {
                if (jrow[e] != i || jcol[e] >= n)
                    continue;
                mpfr_mul(q, value[slot[N + e]], value[slot[jcol[e]]],
                         MPFR_RNDN);
                mpfr_add(a, a, q, MPFR_RNDN);
            }
            if (!mpfr_zero_p(value[slot[i]]) || mpfr_zero_p(a) ||
                mpfr_zero_p(y0 + i) ||
                (floor != NULL && mpfr_cmpabs(y0 + i, floor + i) <= 0))
                continue;
            mpfr_div(q, y0 + i, a, MPFR_RNDN);
            mpfr_abs(q, q, MPFR_RNDN);
            mpfr_sqrt(q, q, MPFR_RNDN);
            mpfr_min(T, T, q, MPFR_RNDN);
        }
        mpfr_clear(a);
        if (!mpfr_number_p(T))
            mpfr_set_inf(T, 1);
    }
    if (mpfr_inf_p(T)) {
        /* no moving component of its own size: the state's size over
           its largest rate; one time unit when either is zero */
        hdo_radau_scales(sc, y0, NULL, floor, N, s);
        mpfr_set_zero(q, 1);
        mpfr_set_zero(big, 1);
        for (slong i = 0; i < n; i++) {
            mpfr_srcptr fi = value[slot[i]];
            if (mpfr_cmpabs(fi, q) > 0)
                mpfr_abs(q, fi, MPFR_RNDN);
            mpfr_max(big, big, sc + i, MPFR_RNDN);
        }
        if (!mpfr_zero_p(q) && !mpfr_zero_p(big))
            mpfr_div(T, big, q, MPFR_RNDN);
        if (!mpfr_number_p(T))
            mpfr_set_ui(T, 1, MPFR_RNDN);
    }
    mpfr_clears(q, big, (mpfr_ptr)0);
}

double
hdo_radau_round_floor_log2(mpfr_srcptr y0, slong N, slong s)
{
    long big = LONG_MIN;
    for (slong i = 0; i < N; i++)
        if (!mpfr_zero_p(y0 + i) && mpfr_number_p(y0 + i) &&
            mpfr_get_exp(y0 + i) > big)
            big = mpfr_get_exp(y0 + i);
    if (big == LONG_MIN)
        return -INFINITY;
    return (double)big - (double)(3 * s + 25);
}
