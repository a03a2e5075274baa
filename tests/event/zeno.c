/* zeno.c -- tests of the Zeno numerics: Aitken limits, cascade periods,
 * geometric convergence of event states, the zero rule at a limit */
#include <criterion/criterion.h>
#include "event.h"
#include "linalg.h"

/* Expected values are exact: geometric sequences whose limits are known
   rationals, and polynomials whose signs are read off their
   coefficients. */

#define PREC 200

/* y[k] = (lim0 + a r^k, lim1 + b r^k) for k = 0..n-1 */
static void
geometric(mpfr_ptr *y, slong n, double lim0, double lim1, double a, double b,
          double r)
{
    for (slong k = 0; k < n; k++) {
        y[k] = hdo_vec_init(2, PREC);
        mpfr_set_d(y[k] + 0, r, MPFR_RNDN);
        mpfr_pow_ui(y[k] + 0, y[k] + 0, (unsigned long)k, MPFR_RNDN);
        mpfr_mul_d(y[k] + 1, y[k] + 0, b, MPFR_RNDN);
        mpfr_mul_d(y[k] + 0, y[k] + 0, a, MPFR_RNDN);
        mpfr_add_d(y[k] + 0, y[k] + 0, lim0, MPFR_RNDN);
        mpfr_add_d(y[k] + 1, y[k] + 1, lim1, MPFR_RNDN);
    }
}

static void
clear_all(mpfr_ptr *y, slong n)
{
    for (slong k = 0; k < n; k++)
        hdo_vec_clear(y[k], 2);
}

Test(zeno, aitken_is_exact_on_geometric_sequences)
{
    mpfr_t x0, x1, x2, out, eps;
    mpfr_inits2(PREC, x0, x1, x2, out, eps, (mpfr_ptr)0);
    mpfr_set_ui(eps, 0, MPFR_RNDN);
    /* 1/3 + 1/4^k: 4/3, 7/12, 19/48 */
    mpfr_set_ui(x0, 4, MPFR_RNDN);
    mpfr_div_ui(x0, x0, 3, MPFR_RNDN);
    mpfr_set_ui(x1, 7, MPFR_RNDN);
    mpfr_div_ui(x1, x1, 12, MPFR_RNDN);
    mpfr_set_ui(x2, 19, MPFR_RNDN);
    mpfr_div_ui(x2, x2, 48, MPFR_RNDN);
    hdo_zeno_aitken(out, x0, x1, x2, eps);
    mpfr_mul_ui(out, out, 3, MPFR_RNDN);
    mpfr_sub_ui(out, out, 1, MPFR_RNDN);
    cr_assert(mpfr_get_exp(out) < -(PREC - 10), "1/3");
    /* growing differences: no extrapolation */
    hdo_zeno_aitken(out, x2, x1, x0, eps);
    cr_assert(mpfr_equal_p(out, x0));
    mpfr_clears(x0, x1, x2, out, eps, (mpfr_ptr)0);
}

Test(zeno, period_of_a_cascade)
{
    slong src[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    slong g1[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    slong g2[12] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    slong g3[12] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
    cr_assert_eq(hdo_zeno_period(src, g1, 12, 6, 4), 1);
    cr_assert_eq(hdo_zeno_period(src, g1, 5, 6, 4), 0); /* too few */
    cr_assert_eq(hdo_zeno_period(src, g2, 11, 6, 4), 2);
    cr_assert_eq(hdo_zeno_period(src, g2, 10, 6, 4), 0); /* 10 < 2*5+1 */
    cr_assert_eq(hdo_zeno_period(src, g3, 12, 6, 4), 0); /* 3*5+1 > 12 */
    cr_assert_eq(hdo_zeno_period(src, g3, 12, 4, 4), 3);
    /* the same guard in two modes is not the same event */
    slong s2[12] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    cr_assert_eq(hdo_zeno_period(s2, g1, 12, 6, 4), 2);
}

Test(zeno, state_limit_of_geometric_states)
{
    mpfr_ptr y[6];
    mpfr_t tol;
    mpfr_init2(tol, PREC);
    mpfr_set_d(tol, 1e-40, MPFR_RNDN);
    mpfr_ptr lim = hdo_vec_init(2, PREC);
    geometric(y, 6, 0.5, -2, 1, -3, 0.25);
    cr_assert(
        hdo_zeno_state_limit(lim, (mpfr_srcptr const *)y, 6, 2, tol, PREC));
    cr_assert(mpfr_cmp_d(lim + 0, 0.5) == 0 && mpfr_cmp_d(lim + 1, -2) == 0);
    /* a component that does not move is kept */
    clear_all(y, 6);
    geometric(y, 6, 0.5, 7, 1, 0, 0.5);
    cr_assert(
        hdo_zeno_state_limit(lim, (mpfr_srcptr const *)y, 6, 2, tol, PREC));
    cr_assert(mpfr_cmp_d(lim + 1, 7) == 0);
    clear_all(y, 6);
    /* no motion at all: a cycle, not a limit */
    geometric(y, 6, 0.5, 7, 0, 0, 0.5);
    cr_assert(
        !hdo_zeno_state_limit(lim, (mpfr_srcptr const *)y, 6, 2, tol, PREC));
    clear_all(y, 6);
    /* growing differences */
    geometric(y, 6, 0.5, 7, 1, 1, 2);
    cr_assert(
        !hdo_zeno_state_limit(lim, (mpfr_srcptr const *)y, 6, 2, tol, PREC));
    clear_all(y, 6);
    /* 1/k: shrinking differences, but the Aitken limits disagree */
    for (slong k = 0; k < 6; k++) {
        y[k] = hdo_vec_init(2, PREC);
        mpfr_set_ui(y[k] + 0, 1, MPFR_RNDN);
        mpfr_div_ui(y[k] + 0, y[k] + 0, (unsigned long)k + 1, MPFR_RNDN);
        mpfr_set_ui(y[k] + 1, 0, MPFR_RNDN);
    }
    cr_assert(
        !hdo_zeno_state_limit(lim, (mpfr_srcptr const *)y, 6, 2, tol, PREC));
    /* two geometric modes: the Aitken limits disagree */
    for (slong k = 0; k < 6; k++) {
        mpfr_set_d(y[k] + 0, 0.5, MPFR_RNDN);
        mpfr_pow_ui(y[k] + 0, y[k] + 0, (unsigned long)k, MPFR_RNDN);
        mpfr_set_d(y[k] + 1, 0.25, MPFR_RNDN);
        mpfr_pow_ui(y[k] + 1, y[k] + 1, (unsigned long)k, MPFR_RNDN);
        mpfr_add(y[k] + 0, y[k] + 0, y[k] + 1, MPFR_RNDN);
        mpfr_set_ui(y[k] + 1, 0, MPFR_RNDN);
    }
    cr_assert(
        !hdo_zeno_state_limit(lim, (mpfr_srcptr const *)y, 6, 2, tol, PREC));
    clear_all(y, 6);
    hdo_vec_clear(lim, 2);
    mpfr_clear(tol);
}

Test(zeno, guard_leaves_at_a_limit)
{
    mpfr_ptr c = hdo_vec_init(3, PREC);
    mpfr_t H, tol;
    mpfr_inits2(PREC, H, tol, (mpfr_ptr)0);
    mpfr_set_ui(H, 1, MPFR_RNDN);
    mpfr_set_d(tol, 1e-40, MPFR_RNDN);
    /* the guard floor: S is computed from a state of size 1 known to tol */
    mpfr_srcptr fl = tol;
    /* S = 1/1000 > 0: feasible, leaves */
    mpfr_set_d(c + 0, 1e-3, MPFR_RNDN);
    cr_assert(hdo_zeno_guard_leaves(c, 3, H, tol, fl));
    /* S = 0, S' = 1/1000: leaves */
    mpfr_set_ui(c + 0, 0, MPFR_RNDN);
    mpfr_set_d(c + 1, 1e-3, MPFR_RNDN);
    cr_assert(hdo_zeno_guard_leaves(c, 3, H, tol, fl));
    /* S = 0, S' = 1e-45 (noise), S'' = 0: stays on the surface */
    mpfr_set_d(c + 1, 1e-45, MPFR_RNDN);
    cr_assert(!hdo_zeno_guard_leaves(c, 3, H, tol, fl));
    /* without the floor S' = 1e-45 is a slope at S's own scale */
    cr_assert(hdo_zeno_guard_leaves(c, 3, H, tol, NULL));
    /* S = 0, S' noise, S''/2 = -1: infeasible at once */
    mpfr_set_si(c + 2, -1, MPFR_RNDN);
    cr_assert(!hdo_zeno_guard_leaves(c, 3, H, tol, fl));
    /* S = -1: infeasible */
    mpfr_set_si(c + 0, -1, MPFR_RNDN);
    cr_assert(!hdo_zeno_guard_leaves(c, 3, H, tol, fl));
    /* H = 0: only S(0) counts */
    mpfr_set_ui(H, 0, MPFR_RNDN);
    mpfr_set_ui(c + 0, 0, MPFR_RNDN);
    mpfr_set_ui(c + 1, 5, MPFR_RNDN);
    cr_assert(!hdo_zeno_guard_leaves(c, 3, H, tol, fl));
    hdo_vec_clear(c, 3);
    mpfr_clears(H, tol, (mpfr_ptr)0);
}

Test(zeno, zero_rule_needs_the_natural_horizon)
{
    /* The ball just after impact 72 at 16 digits (tol 1e-21): h = S =
       -1.3e-27 (noise), S' = v = 3.1e-11, S''/2 = -g/2.  It goes up for
       2v/g = 6.4e-12: over the natural horizon (one time unit, the series
       is a polynomial) S' is far above the tolerance and the arc leaves
       into the feasible side.  Over the 1.5e-11 left to an end time of
       2.55863396558 the whole arc is within the tolerance (its height is
       5e-23) and the zero rule cannot tell S' from noise (the noise
       S(0) decides): the horizon of the rule must not be the step
       clipped to the end time. */
    mpfr_ptr c = hdo_vec_init(3, PREC);
    mpfr_t H, tol;
    mpfr_inits2(PREC, H, tol, (mpfr_ptr)0);
    mpfr_set_d(tol, 1e-21, MPFR_RNDN);
    mpfr_set_d(c + 0, -1.3e-27, MPFR_RNDN);
    mpfr_set_d(c + 1, 3.1e-11, MPFR_RNDN);
    mpfr_set_d(c + 2, -4.905, MPFR_RNDN);
    mpfr_set_d(H, 2.56, MPFR_RNDN);
    cr_assert(hdo_zeno_guard_leaves(c, 3, H, tol, NULL));
    mpfr_set_d(H, 1.5e-11, MPFR_RNDN);
    cr_assert(!hdo_zeno_guard_leaves(c, 3, H, tol, NULL));
    hdo_vec_clear(c, 3);
    mpfr_clears(H, tol, (mpfr_ptr)0);
}
