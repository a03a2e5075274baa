/* control.c -- the control layer: the step size from the last Taylor
 * coefficients, relative to each component's magnitude over the step */
#include <math.h>
#include "internal.h"

/* Why this rule.  Jorba and Zou (2005) take h = rho tol^(1/p), rho the
   radius of convergence estimated from the last coefficients: the last
   term |c_j| h^j is then tol^(j/p) times the size of the component.  Which
   size is the question of scale.  Measured against max(1, |c_0|) (the
   rule up to stop 21), every component below 1 was held to an absolute
   tol, so a solution decaying to 1e-18 kept 8 of 20 digits and one of
   size 1e-50 was not integrated at all (issue 23).  Here a component is
   held relative to its own magnitude over the step,
       M_i(h) = max(floor_i, max_{k in K_i} |c_ik| h^k),
   K_i = {0, .., k_i + 1}, k_i the first order whose coefficient is not
   zero: |c_0| alone would stop the step at a zero crossing (c_0 = 0: no
   step at all), and |c_1| h is the size of a component that crosses zero
   within the step.  Higher k would over-state the size where the terms
   cancel (e^-t over a long step); k_i + 1 reaches a component that
   starts at a zero of any order.  floor_i is the driver's scale floor
   (decisions.md D-011), 0 when the integrator is used alone.  The condition,
   for every j in the last
   quarter [ceil(3p/4), p] (series with gaps defeat the last two orders:
   the pendulum released at rest from theta = pi/2 has
   theta - pi/2 = t^2 f(t^4)),
       |c_ij| h^j <= tol M_i(h) (as a geometric tail from the term of M),
   is read as Jorba and Zou read it: rho_kj = (|c_ik| / |c_ij|)^(1/(j-k))
   estimates the radius of convergence, the terms beyond order k then
   decay like (h / rho)^(j-k), and h_kj = rho_kj tol^(1/(p-k)) makes the
   last one, at order p, tol times the magnitude term |c_ik| h^k (the
   floor term is k = 0 with |c_i0| replaced by floor_i).  The
   component's step is h_i = max_k min_j h_kj, the step min_i h_i.
   With k = 0 and M = |c_0| this is the two-term rule of Jorba and Zou
   over a window of orders.  It is a step size, not a result: it is
   computed from the logarithms in double precision (exact exponents,
   53-bit mantissas), whose error moves h by a relative 1e-12. */

/* The horizon T of the noise window (decisions.md D-090, D-106, D-118):
   a window read as noise gives +inf, and the step then taken is at most
   the driver's horizon max(u, |t|) (D-016; u = min(1, span) its time
   unit, D-112) and at most the span left; T = max(u, |t0|, span) at
   least both keeps D-090's argument (a radius beyond 2^(prec/2) T does
   not change over the step at the working precision).  With T =
   max(1, |t0|) alone an oscillator of period 1e30 from t = 0 was read as
   noise step after step (41 steps instead of 4); with the 1 in place of
   u a noise tail of radius 2^131 1e-30 over a span of 1e-30 was read as
   a series (a natural step of 8e9), and a guard's rate over that step
   as a zero (the event at t = 0).  The span is the run's own time
   scale. */
double
hdo_taylor_noise_horizon(const hdo_taylor_struct *tay)
{
    double lu = hdo_log2_time_unit(tay->lspan);
    double lt = hdo_log2_abs(tay->t0);
    if (tay->lspan > lt)
        lt = tay->lspan;
    return lt > lu ? lt : lu; /* log2 max(u, |t0|, span) */
}

slong
hdo_taylor_first_window_order(slong p)
{
    slong j = (3 * p + 3) / 4;
    return j < 1 ? 1 : j;
}

/* min over j in (k, p] of log2 h_kj for the magnitude term 2^lk h^k. */
static double
window_bound(const double *lc, slong p, slong j0, slong k, double lk,
             double ltol)
{
    double hk = INFINITY;
    for (slong j = j0 > k + 1 ? j0 : k + 1; j <= p; j++) {
        if (lc[j] == -INFINITY)
            continue;
        double lh = (lk - lc[j]) / (double)(j - k) + ltol / (double)(p - k);
        if (lh < hk)
            hk = lh;
    }
    return hk;
}

/* Whether the window (orders j0..p, logarithms lc) is rounding noise:
   every |c_j| 2^(j lrad) at most the component's magnitude over the
   horizon 2^lhz, i.e. a radius of convergence beyond 2^lrad at every
   order of the window. */
static int
window_is_noise(const mpfr_t *c, const double *lc, slong p, slong j0,
                double lfloor, double lhz, double lrad)
{
    if (lrad == INFINITY)
        return 0;
    double lm = hdo_taylor_component_magnitude(c, p, lfloor, lhz);
    for (slong j = j0; j <= p; j++)
        if (lc[j] > -INFINITY && lc[j] + (double)j * lrad > lm)
            return 0;
    return 1;
}

/* max over k in {0, .., kf + 1} (k < j0) of the window's bound for the
   magnitude term |c_k| h^k, and for the floor term (lfloor). */
static double
magnitude_bound(const double *lc, slong p, slong j0, slong kf, double lfloor,
                double ltol)
{
    double best = -INFINITY;
    if (lfloor > -INFINITY)
        best = window_bound(lc, p, j0, 0, lfloor, ltol);
    for (slong k = 0; k <= kf + 1 && k < j0; k++) {
        if (lc[k] == -INFINITY)
            continue;
        double hk = window_bound(lc, p, j0, k, lc[k], ltol);
        if (hk > best)
            best = hk;
    }
    return best;
}

double
hdo_taylor_component_step(const mpfr_t *c, slong p, double lfloor, double ltol,
                          double lhz, double lrad)
{
    slong j0 = hdo_taylor_first_window_order(p), kfirst = 0;
    double best = -INFINITY, lcs[64];
    double *lc = p + 1 <= 64 ? lcs : flint_malloc((p + 1) * sizeof *lc);
    int any = 0;
    /* the logarithms of the window, and of the orders below it */
    for (slong k = j0; k <= p; k++) {
        lc[k] = mpfr_number_p(c[k]) ? hdo_log2_abs(c[k]) : INFINITY;
        any |= lc[k] > -INFINITY;
    }
    if (any && window_is_noise(c, lc, p, j0, lfloor, lhz, lrad))
        any = 0; /* a polynomial up to its rounding */
    if (!any) {
        if (lc != lcs)
            flint_free(lc);
        return INFINITY; /* the window vanishes: a polynomial here */
    }
    while (kfirst < p && mpfr_zero_p(c[kfirst]))
        kfirst++;
    slong known = kfirst + 1 < j0 ? kfirst + 1 : j0 - 1; /* lc[0..known] */
    for (slong k = 0; k <= known; k++)
        lc[k] = mpfr_number_p(c[k]) ? hdo_log2_abs(c[k]) : INFINITY;
    best = magnitude_bound(lc, p, j0, kfirst, lfloor, ltol);
    /* Leading coefficients within the floor over the step are zeros, as
       the zero rule reads them (hdo_event_zero_order, D-016): v1 - v2 at
       a switch is 0 or an ulp by the rounding of the event's root, and
       the magnitude's orders must not follow it (decisions.md D-106).
       The next nonzero order nk is taken while every nonzero term below
       it stays within the floor over the step that gives (the steps
       grow with nk: a term over the floor at the step before is over it
       after, and ends the search there). */
    for (slong kf = kfirst; lfloor > -INFINITY && best > -INFINITY;) {
        int noise = 1;
        for (slong k = 0; k <= kf && noise; k++)
            noise = lc[k] == -INFINITY ||
                    lc[k] + (k > 0 ? (double)k * best : 0.0) <= lfloor;
        if (!noise)
            break;
        slong nk = kf + 1;
        for (;; nk++) {
            if (nk >= j0)
                break;
            if (nk > known)
                lc[++known] =
                    mpfr_number_p(c[nk]) ? hdo_log2_abs(c[nk]) : INFINITY;
            if (lc[nk] > -INFINITY)
                break;
        }
        if (nk >= j0)
            break;
        if (nk + 1 < j0 && nk + 1 > known) {
            known = nk + 1;
            lc[known] =
                mpfr_number_p(c[known]) ? hdo_log2_abs(c[known]) : INFINITY;
        }
        double hn = magnitude_bound(lc, p, j0, nk, lfloor, ltol);
        for (slong k = 0; k < nk && noise; k++)
            noise = lc[k] == -INFINITY ||
                    lc[k] + (k > 0 ? (double)k * hn : 0.0) <= lfloor;
        if (!noise || hn == INFINITY)
            break;
        kf = nk;
        best = hn;
    }
    if (best == -INFINITY) /* zero below the window: its first term */
        best = window_bound(lc, p, j0, kfirst, hdo_log2_abs(c[kfirst]), ltol);
    if (lc != lcs)
        flint_free(lc);
    return best;
}

double
hdo_taylor_component_magnitude(const mpfr_t *c, slong p, double lfloor,
                               double lh)
{
    slong j0 = hdo_taylor_first_window_order(p), kfirst = 0;
    double m = lfloor;
    while (kfirst < p && mpfr_zero_p(c[kfirst]))
        kfirst++;
    for (slong k = 0; k <= kfirst + 1 && k <= p; k++) {
        if (k >= j0 && k != kfirst)
            break;
        double lk = hdo_log2_abs(c[k]) + (k > 0 ? (double)k * lh : 0.0);
        if (lk > m)
            m = lk;
    }
    return m;
}

/* *lh := min(*lh, log2 of the steps of the components of one coefficient
   table); floor: per component, or NULL; each step into keep[i] (keep
   may be NULL). */
static void
bound(double *lh, double *keep, const mpfr_t *c, slong n, const char *skip,
      slong p, mpfr_srcptr floor, double ltol, double lhz, double lrad)
{
    for (slong i = 0; i < n; i++) {
        if (skip != NULL && skip[i])
            continue;
        double lf = floor != NULL ? hdo_log2_abs(floor + i) : -INFINITY;
        double hi =
            hdo_taylor_component_step(c + i * (p + 1), p, lf, ltol, lhz, lrad);
        if (keep != NULL)
            keep[i] = hi;
        if (hi < *lh)
            *lh = hi;
    }
}

int
hdo_taylor_step_size(mpfr_t h, hdo_taylor_t tay, const mpfr_t tol)
{
    slong p = tay->order, ns = tay->red->nstate;
    double lh = INFINITY, ltol = hdo_log2_abs(tol);
    mpfr_t lim;
    int st = 0;

    HDO_ASSERT(tay->expanded && p >= 1);
    double lhz = hdo_taylor_noise_horizon(tay),
           lrad = lhz + 0.5 * (double)tay->prec;
    /* the components' own steps are kept for the stiffness estimate */
    bound(&lh, tay->comp_lh, tay->state_coef, ns, NULL, p, tay->floor, ltol,
          lhz, lrad);
    /* lazy unknowns are solved at each point from the states: their
       accuracy follows from the states', and they have no series here */
    bound(&lh, tay->comp_lh + ns, tay->unknown_coef, tay->red->nimplicit,
          tay->lazy, p, tay->floor != NULL ? tay->floor + ns : NULL, ltol, lhz,
          lrad);
    /* the guards over their noise floors: their rounding at a switch
       (v1 - v2 an ulp, not 0) is no magnitude (decisions.md D-106) */
    bound(&lh, NULL, tay->guard_coef, tay->nguards, NULL, p, tay->gnoise, ltol,
          lhz, lrad);
    tay->comp_valid = 1;
    tay->comp_ltol = ltol;
    if (lh == INFINITY) {
        mpfr_set_inf(h, 1);
    } else if (lh == -INFINITY || lh < (double)(mpfr_get_emin() + 64)) {
        mpfr_set_zero(h, 1);
    } else {
        /* 2^lh, rounded down by far more than the double's error */
        mpfr_set_d(h, lh - 1e-9 * (fabs(lh) + 1), MPFR_RNDD);
        mpfr_ui_pow(h, 2, h, MPFR_RNDD);
    }
    /* collapse: the step no longer moves t */
    mpfr_init2(lim, 64);
    mpfr_abs(lim, tay->t0, MPFR_RNDN);
    mpfr_mul_2si(lim, lim, -(long)tay->prec, MPFR_RNDN);
    if (mpfr_zero_p(h) || mpfr_cmp(h, lim) <= 0)
        st = HDO_ERR_STEP_COLLAPSE;
    mpfr_clear(lim);
    return st;
}

int
hdo_taylor_newton_small(mpfr_srcptr d, mpfr_srcptr x, slong stride,
                        const slong *idx, mpfr_srcptr floor, slong n,
                        long shift, int global)
{
    mpfr_t sc, big, lim;
    int small = 1;
    mpfr_inits2(64, sc, big, lim, (mpfr_ptr)0);
    mpfr_set_zero(big, 1);
    for (slong a = 0; a < n && small; a++) {
        slong k = idx != NULL ? idx[a] : a;
        mpfr_abs(sc, x + k * stride, MPFR_RNDN);
        if (floor != NULL)
            mpfr_max(sc, sc, floor + k, MPFR_RNDN);
        if (global) {
            mpfr_max(big, big, sc, MPFR_RNDN);
            continue;
        }
        mpfr_mul_2si(lim, sc, shift, MPFR_RNDN);
        small = mpfr_cmpabs(d + a, lim) <= 0;
    }
    if (global) {
        mpfr_mul_2si(lim, big, shift, MPFR_RNDN);
        for (slong a = 0; a < n && small; a++)
            small = mpfr_cmpabs(d + a, lim) <= 0;
    }
    mpfr_clears(sc, big, lim, (mpfr_ptr)0);
    return small;
}
