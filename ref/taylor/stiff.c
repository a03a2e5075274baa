/* stiff.c -- stiffness estimate of an arc from the Taylor coefficients of
 * one expansion */
#include <math.h>
#include "internal.h"

/* log2 |x| of a nonzero x, in double: the estimate needs no more. */
static double
log2_abs(const mpfr_t x)
{
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
}

/* *lo := min(*lo, log2 of (max(1, |c_0|) / |c_j|)^(1/j)) over the
   components of one coefficient table and j in [j0, j1]. */
static void
radius(double *lo, const mpfr_t *c, slong n, const char *skip, slong p,
       slong j0, slong j1)
{
    for (slong i = 0; i < n; i++) {
        const mpfr_t *ci = c + i * (p + 1);
        if (skip != NULL && skip[i])
            continue; /* a lazy unknown: no series (taylor.h) */
        double lnum = mpfr_zero_p(ci[0]) ? 0.0 : log2_abs(ci[0]);
        if (lnum < 0)
            lnum = 0;
        for (slong j = j0; j <= j1; j++) {
            if (mpfr_zero_p(ci[j]) || !mpfr_number_p(ci[j]))
                continue;
            double r = (lnum - log2_abs(ci[j])) / (double)j;
            if (r < *lo)
                *lo = r;
        }
    }
}

double
hdo_taylor_stiffness(const hdo_taylor_t tay)
{
    slong p = tay->order, lo1, hi0 = (3 * p + 3) / 4;
    double low = INFINITY, high = INFINITY;

    HDO_ASSERT(tay->expanded);
    lo1 = p / 8 < 1 ? 1 : (p / 8 > 4 ? 4 : p / 8);
    if (p < 8 || hi0 <= lo1)
        return 0.0; /* too few orders to tell two scales apart */
    for (int which = 0; which < 2; which++) {
        double *r = which ? &high : &low;
        slong j0 = which ? hi0 : 1, j1 = which ? p : lo1;
        radius(r, tay->state_coef, tay->red->nstate, NULL, p, j0, j1);
        radius(r, tay->unknown_coef, tay->red->nimplicit, tay->lazy, p, j0, j1);
    }
    if (!isfinite(high))
        return 0.0; /* a polynomial series: no step limit at all */
    if (!isfinite(low))
        return INFINITY; /* constant to order lo1, limited beyond */
    return (low - high) * 0.30102999566398120; /* log10 */
}
