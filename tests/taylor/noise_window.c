/* noise_window.c -- the step rule's noise window (ref/taylor/control.c,
 * decisions.md D-090): a window of coefficients whose radius of
 * convergence lies beyond 2^(prec/2) T at every order, T = max(u, |t0|,
 * span) (u = min(1, span), 1 when the span is unknown: D-106, D-118),
 * is rounding noise and gives the step of a polynomial (+inf); below
 * that radius it is a series like any other.
 *
 * After a real expansion of der(x) = -x at 20 digits (prec 100) the
 * coefficients are replaced by c_0 = 1, c_1 = -1 and c_j = 2^(-j r)
 * (j >= 2): the radius 2^r at every order, magnitude over T: max(1, T).
 * The tail of stick_slip_belt's sliding field at 30 digits had r = 132
 * (prec 133); the FPU chain's slow mode, c_j = w^j / j! with w = 0.15,
 * is a series (its step must stay finite, about 28). */
#include "common.h"

static void
setup(tt_case *c)
{
    hdo_error_t err;
    mpfr_t t0;
    tt_init(c, "model f\nvar x = 1\nmode m\n  der(x) = -x\nend\nstart m\n", 20,
            0);
    mpfr_init2(t0, c->prec);
    mpfr_set_zero(t0, 1);
    cr_assert_eq(hdo_taylor_expand(c->tay, t0, c->xs, c->xu, &err), 0, "%s",
                 err.message);
    mpfr_clear(t0);
}

/* log2 of the step for the tail of radius 2^r, expanded at t0. */
static double
step_for(tt_case *c, double r, double t0)
{
    slong p = c->tay->order;
    mpfr_t *co = c->tay->state_coef, h;
    mpfr_set_ui(co[0], 1, MPFR_RNDN);
    mpfr_set_si(co[1], -1, MPFR_RNDN);
    for (slong j = 2; j <= p; j++)
        mpfr_set_si_2exp(co[j], 1, (long)(-r * (double)j), MPFR_RNDN);
    mpfr_set_d(c->tay->t0, t0, MPFR_RNDN);
    mpfr_init2(h, 64);
    hdo_taylor_step_size(h, c->tay, c->tay->tol);
    double l = mpfr_inf_p(h) ? INFINITY : hdo_log2_abs(h);
    mpfr_clear(h);
    return l;
}

Test(taylor_noise_window, beyond_half_the_precision_is_a_polynomial)
{
    tt_case c;
    setup(&c);
    double half = 0.5 * (double)c.prec;
    cr_assert_eq(c.prec, 100);
    /* the sliding field's noise, and just beyond the bound: +inf */
    cr_expect(step_for(&c, (double)c.prec - 1, 0.0) == INFINITY);
    cr_expect(step_for(&c, half + 1, 0.0) == INFINITY);
    /* just below it: a series, its step finite and beyond 2^(half - 2) */
    double l = step_for(&c, half - 1, 0.0);
    cr_expect(isfinite(l) && l > half - 2, "log2 h = %g", l);
    /* the horizon T = max(1, |t0|) scales the bound: 2^(half + 5) is noise
       at t0 = 0 and a series at t0 = 1024 (bound 2^(half + 10)), and
       there it is noise again at 2^(half + 11) */
    cr_expect(step_for(&c, half + 5, 0.0) == INFINITY);
    cr_expect(isfinite(step_for(&c, half + 5, 1024.0)));
    cr_expect(isfinite(step_for(&c, half + 5, -1024.0)));
    cr_expect(step_for(&c, half + 11, 1024.0) == INFINITY);
    tt_clear(&c);
}

Test(taylor_noise_window, a_slow_entire_series_is_no_noise)
{
    tt_case c;
    setup(&c);
    slong p = c.tay->order;
    mpfr_t *co = c.tay->state_coef, h;
    /* cos(w t) with w = 0.15: c_j = w^j / j! (odd orders 0) */
    mpfr_set_ui(co[0], 1, MPFR_RNDN);
    for (slong j = 1; j <= p; j++) {
        mpfr_mul_d(co[j], co[j - 1], 0.15 / (double)j, MPFR_RNDN);
    }
    for (slong j = 1; j <= p; j++)
        if (j % 4 == 1 || j % 4 == 3)
            mpfr_set_zero(co[j], 1);
        else if (j % 4 == 2)
            mpfr_neg(co[j], co[j], MPFR_RNDN);
    mpfr_init2(h, 64);
    hdo_taylor_step_size(h, c.tay, c.tay->tol);
    cr_expect(mpfr_number_p(h) && mpfr_cmp_ui(h, 4) > 0 &&
                  mpfr_cmp_ui(h, 1000) < 0,
              "h = %g", mpfr_get_d(h, MPFR_RNDN));
    mpfr_clear(h);
    tt_clear(&c);
}

/* The run's span joins the horizon (decisions.md D-106): T = max(1, |t0|,
   span).  The radius 2^(half + 5), noise at t0 = 0 with T = 1, is a
   series when the run spans 2^10 (the oscillator of period 1e30 from t =
   0, read as noise step after step: 41 steps instead of 4), and noise
   again at 2^(half + 11); a span below 1 leaves T = 1. */
Test(taylor_noise_window, the_runs_span_is_its_time_scale)
{
    tt_case c;
    setup(&c);
    double half = 0.5 * (double)c.prec;
    cr_assert(c.tay->lspan == -INFINITY);
    cr_expect(step_for(&c, half + 5, 0.0) == INFINITY);
    c.tay->lspan = 10;
    cr_expect(isfinite(step_for(&c, half + 5, 0.0)));
    cr_expect(step_for(&c, half + 11, 0.0) == INFINITY);
    c.tay->lspan = -100;
    cr_expect(step_for(&c, half + 5, 0.0) == INFINITY);
    tt_clear(&c);
}

/* A span below 1 is its own time unit u (decisions.md D-118, as D-112's
   time tolerance and event horizon): T = max(u, |t0|, span), so that a
   run over 2^-100 reads a tail of radius 2^(prec/2 - 99) as noise (it
   was a series under T = 1: a natural step of 2^-60 over a span of
   2^-100), one of 2^(prec/2 - 101) as a series; |t0| still counts. */
Test(taylor_noise_window, a_span_below_1_is_its_time_unit)
{
    tt_case c;
    setup(&c);
    double half = 0.5 * (double)c.prec;
    cr_expect(isfinite(step_for(&c, half - 99, 0.0))); /* span unknown */
    c.tay->lspan = -100;
    cr_expect(step_for(&c, half - 99, 0.0) == INFINITY);
    /* a series: its step rho tol^(1/p), 2^-2.3 of its radius here */
    double l = step_for(&c, half - 101, 0.0);
    cr_expect(isfinite(l) && l > half - 105, "log2 h = %g", l);
    /* t0 = 2^-90 beyond the span: T = 2^-90 */
    cr_expect(isfinite(step_for(&c, half - 91, ldexp(1.0, -90))));
    cr_expect(step_for(&c, half - 89, ldexp(1.0, -90)) == INFINITY);
    /* a span of 1 or more: as before */
    c.tay->lspan = 0;
    cr_expect(isfinite(step_for(&c, half - 1, 0.0)));
    cr_expect(step_for(&c, half + 1, 0.0) == INFINITY);
    tt_clear(&c);
}
