/* control.c -- the control layer: Jorba-Zou step size from the last Taylor
 * coefficients */
#include <math.h>
#include "internal.h"

/* The step size is an estimate: 64 bits are plenty, and computing the
   roots at the working precision would cost more than the test is worth. */
#define EST_PREC 64

/* The radius of convergence is estimated from the orders j in
   [ceil(3p/4), p], not only the last two as Jorba and Zou do: series
   with gaps defeat the last two.  The pendulum released at rest from
   theta = pi/2 has theta - pi/2 = t^2 f(t^4) (sin(pi/2 + u) is even), so
   at p = 48 coefficients 47 and 48 of theta and omega are all zero and
   the two-term rule takes a step of 1 where the true radius is 0.6. */
static slong
first_order(slong p)
{
    slong j = (3 * p + 3) / 4;
    return j < 1 ? 1 : j;
}

/* h := min(h, (max(1, |c_0|) / |c_j|)^(1/j) tol^(1/p)) over the
   components of one coefficient table and j in [first_order(p), p]. */
/* log2 |x| of a nonzero x, in double: exact exponent plus the log of a
   mantissa in [1/2, 1). */
static double
log2_abs(const mpfr_t x)
{
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
}

/* The roots cost more than the whole rest of the step-size test (a GMP
   root per coefficient).  A candidate is therefore first estimated in
   double from the logarithms, and its root is only taken when it may
   come below the current h: a candidate whose estimate exceeds log2 h by
   more than a margin far above the double rounding (1e-6 plus 1e-9 of
   the magnitudes) cannot win, so the minimum, and hence h, are exactly
   those of taking every root. */
static int
cannot_win(double lnum, const mpfr_t cj, slong j, double ltolp, double lh)
{
    double lc = log2_abs(cj), est = (lnum - lc) / (double)j + ltolp;
    double margin = 1e-6 + 1e-9 * (fabs(lnum) + fabs(lc) + fabs(ltolp));
    return isfinite(lh) && isfinite(est) && est > lh + margin;
}

static void
bound(mpfr_t h, const mpfr_t *c, slong n, const char *skip, slong p,
      const mpfr_t tolp, mpfr_t num, mpfr_t cand)
{
    double ltolp = log2_abs(tolp);
    double lh = mpfr_inf_p(h) ? INFINITY : log2_abs(h);
    for (slong i = 0; i < n; i++) {
        const mpfr_t *ci = c + i * (p + 1);
        if (skip != NULL && skip[i])
            continue;
        mpfr_abs(num, ci[0], MPFR_RNDU);
        if (mpfr_cmp_ui(num, 1) < 0)
            mpfr_set_ui(num, 1, MPFR_RNDN);
        double lnum = log2_abs(num);
        for (slong j = first_order(p); j <= p; j++) {
            if (mpfr_zero_p(ci[j]))
                continue;
            if (cannot_win(lnum, ci[j], j, ltolp, lh))
                continue;
            mpfr_abs(cand, ci[j], MPFR_RNDU);
            mpfr_div(cand, num, cand, MPFR_RNDD);
            mpfr_rootn_ui(cand, cand, (unsigned long)j, MPFR_RNDD);
            mpfr_mul(cand, cand, tolp, MPFR_RNDD);
            if (mpfr_cmp(cand, h) < 0) {
                mpfr_set(h, cand, MPFR_RNDN);
                lh = mpfr_zero_p(h) ? -INFINITY : log2_abs(h);
            }
        }
    }
}

int
hdo_taylor_step_size(mpfr_t h, const hdo_taylor_t tay, const mpfr_t tol)
{
    slong p = tay->order;
    mpfr_t est, num, cand, tolp;
    int st = 0;

    HDO_ASSERT(tay->expanded && p >= 1);
    mpfr_inits2(EST_PREC, est, num, cand, tolp, (mpfr_ptr)0);
    mpfr_rootn_ui(tolp, tol, (unsigned long)p, MPFR_RNDD);
    mpfr_set_inf(est, 1);
    bound(est, tay->state_coef, tay->red->nstate, NULL, p, tolp, num, cand);
    /* lazy unknowns are solved at each point from the states: their
       accuracy follows from the states', and they have no series here */
    bound(est, tay->unknown_coef, tay->red->nimplicit, tay->lazy, p, tolp, num,
          cand);
    bound(est, tay->guard_coef, tay->nguards, NULL, p, tolp, num, cand);
    mpfr_set(h, est, MPFR_RNDD);
    /* collapse: the step no longer moves t */
    mpfr_abs(num, tay->t0, MPFR_RNDN);
    mpfr_mul_2si(num, num, -(long)tay->prec, MPFR_RNDN);
    if (mpfr_zero_p(h) || mpfr_cmp(h, num) <= 0)
        st = HDO_ERR_STEP_COLLAPSE;
    mpfr_clears(est, num, cand, tolp, (mpfr_ptr)0);
    return st;
}
