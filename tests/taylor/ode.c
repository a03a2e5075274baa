/* ode.c -- Taylor integrator on ODE modes against closed-form solutions
   (MPFR's own elementary functions at the same precision: exp, cos, sin,
   1/(1+t), exp(sin t)), dense output inside a step, and the local error of
   the Jorba-Zou step against an expansion of twice the order. */
#include "common.h"

TestSuite(taylor);

static const char *growth =
    "model growth\nvar x = 1\nmode m\n  der(x) = x\nend\nstart m\n";

Test(taylor, exp_is_e_at_30_60_100_digits)
{
    long digits[] = {30, 60, 100};
    for (int i = 0; i < 3; i++) {
        tt_case c;
        mpfr_t e;
        tt_init(&c, growth, digits[i], 0);
        slong steps = tt_run(&c, "1");
        mpfr_init2(e, c.prec);
        mpfr_set_ui(e, 1, MPFR_RNDN);
        mpfr_exp(e, e, MPFR_RNDN);
        tt_assert_close(c.xs, e, digits[i] - 2, "x(1) = e");
        /* few steps: the radius of convergence is infinite, and the
           step h = tol^(1/p) (|x|/|x_p|)^(1/p) is order 1 */
        cr_assert(steps >= 1 && steps <= 10, "%ld steps", (long)steps);
        mpfr_clear(e);
        tt_clear(&c);
    }
}

Test(taylor, harmonic_oscillator_to_10)
{
    tt_case c;
    mpfr_t w;
    tt_init(&c,
            "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
            "  der(v) = -x\nend\nstart m\n",
            40, 0);
    tt_run(&c, "10");
    mpfr_init2(w, c.prec);
    mpfr_set_ui(w, 10, MPFR_RNDN);
    mpfr_cos(w, w, MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "x"), w, 38, "x(10) = cos 10");
    mpfr_set_ui(w, 10, MPFR_RNDN);
    mpfr_sin(w, w, MPFR_RNDN);
    mpfr_neg(w, w, MPFR_RNDN);
    tt_assert_close(c.xs + tt_state(&c, "v"), w, 38, "v(10) = -sin 10");
    mpfr_clear(w);
    tt_clear(&c);
}

Test(taylor, riccati_one_over_one_plus_t)
{
    tt_case c;
    mpfr_t w;
    tt_init(&c, "model r\nvar x = 1\nmode m\n  der(x) = -x^2\nend\nstart m\n",
            50, 0);
    tt_run(&c, "3");
    mpfr_init2(w, c.prec);
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 4, MPFR_RNDN);
    tt_assert_close(c.xs, w, 48, "x(3) = 1/4");
    mpfr_clear(w);
    tt_clear(&c);
}

Test(taylor, time_dependent_cos_t_x)
{
    tt_case c;
    mpfr_t w;
    tt_init(&c,
            "model td\nvar x = 1\nmode m\n  der(x) = cos(t)*x\nend\nstart m\n",
            30, 0);
    tt_run(&c, "5");
    mpfr_init2(w, c.prec);
    mpfr_set_ui(w, 5, MPFR_RNDN);
    mpfr_sin(w, w, MPFR_RNDN);
    mpfr_exp(w, w, MPFR_RNDN);
    tt_assert_close(c.xs, w, 28, "x(5) = exp(sin 5)");
    mpfr_clear(w);
    tt_clear(&c);
}

Test(taylor, backward_in_time)
{
    tt_case c;
    mpfr_t a, b, w;
    hdo_error_t err;
    tt_init(&c, growth, 30, 0);
    mpfr_inits2(c.prec, a, b, w, (mpfr_ptr)0);
    mpfr_set_ui(a, 0, MPFR_RNDN);
    mpfr_set_si(b, -2, MPFR_RNDN);
    cr_assert_eq(hdo_taylor_integrate(c.xs, NULL, c.tay, a, b, NULL, &err), 0);
    mpfr_set_si(w, -2, MPFR_RNDN);
    mpfr_exp(w, w, MPFR_RNDN);
    tt_assert_close(c.xs, w, 28, "x(-2) = exp(-2)");
    mpfr_clears(a, b, w, (mpfr_ptr)0);
    tt_clear(&c);
}

/* Dense output: the expansion of the harmonic oscillator at t0 = 1/3,
   evaluated at fractions of the step, against cos and -sin there; the
   guard x - 1/2 is expanded in the same program. */
Test(taylor, dense_output_inside_the_step)
{
    tt_case c;
    mpfr_t t0, h, s, w;
    hdo_error_t err;
    long D = 40;
    tt_init(&c,
            "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n"
            "  der(v) = -x\n  when x < 1/2 goto m\nend\nstart m\n",
            D, 0);
    mpfr_inits2(c.prec, t0, h, s, w, (mpfr_ptr)0);
    mpfr_set_ui(t0, 1, MPFR_RNDN);
    mpfr_div_ui(t0, t0, 3, MPFR_RNDN);
    mpfr_cos(c.xs + tt_state(&c, "x"), t0, MPFR_RNDN);
    mpfr_sin(c.xs + tt_state(&c, "v"), t0, MPFR_RNDN);
    mpfr_neg(c.xs + tt_state(&c, "v"), c.xs + tt_state(&c, "v"), MPFR_RNDN);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0);
    cr_assert_eq(hdo_taylor_step_size(h, c.tay, c.tay->tol), 0);
    cr_assert(mpfr_cmp_d(h, 0.1) > 0 && mpfr_cmp_d(h, 10) < 0);
    mpfr_ptr xs = hdo_vec_init(2, c.prec), g = hdo_vec_init(1, c.prec);
    for (int k = 0; k <= 8; k++) {
        mpfr_mul_ui(s, h, k, MPFR_RNDN);
        mpfr_div_ui(s, s, 8, MPFR_RNDN);
        hdo_taylor_eval(xs, NULL, g, c.tay, s);
        mpfr_add(w, t0, s, MPFR_RNDN);
        mpfr_cos(w, w, MPFR_RNDN);
        tt_assert_close(xs + tt_state(&c, "x"), w, D + 4, "dense x");
        /* the guard of "when x < 1/2" is S = x - 1/2 (model-format.md) */
        mpfr_sub_d(w, w, 0.5, MPFR_RNDN);
        tt_assert_close(g, w, D + 4, "dense guard");
        mpfr_add(w, t0, s, MPFR_RNDN);
        mpfr_sin(w, w, MPFR_RNDN);
        mpfr_neg(w, w, MPFR_RNDN);
        tt_assert_close(xs + tt_state(&c, "v"), w, D + 4, "dense v");
    }
    hdo_vec_clear(xs, 2);
    hdo_vec_clear(g, 1);
    mpfr_clears(t0, h, s, w, (mpfr_ptr)0);
    tt_clear(&c);
}

/* The step-size rule: one step of the suggested size at the default order
   p against the same step with order 2p (whose truncation error is
   squared); the difference, the local error of the order-p step, must be
   below tol max(1, |x|), for problems with finite (Riccati, pendulum,
   Lorenz-like) and infinite radii of convergence. */
static void
check_local_error(const char *text, long D)
{
    tt_case lo, hi;
    mpfr_t t0, h, s, tol;
    hdo_error_t err;
    tt_init(&lo, text, D, 0);
    tt_init(&hi, text, D, 2 * lo.tay->order);
    mpfr_inits2(lo.prec, t0, h, s, tol, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    slong n = lo.red->nstate;
    mpfr_ptr a = hdo_vec_init(n, lo.prec), b = hdo_vec_init(n, lo.prec);
    cr_assert_eq(hdo_taylor_expand(lo.tay, t0, lo.xs, lo.xu, &err), 0);
    cr_assert_eq(hdo_taylor_expand(hi.tay, t0, hi.xs, hi.xu, &err), 0);
    hdo_taylor_step_size(h, lo.tay, lo.tay->tol);
    cr_assert(mpfr_number_p(h));
    hdo_taylor_eval(a, NULL, NULL, lo.tay, h);
    hdo_taylor_eval(b, NULL, NULL, hi.tay, h);
    for (slong i = 0; i < n; i++) {
        mpfr_abs(tol, b + i, MPFR_RNDN);
        if (mpfr_cmp_ui(tol, 1) < 0)
            mpfr_set_ui(tol, 1, MPFR_RNDN);
        mpfr_mul(tol, tol, lo.tay->tol, MPFR_RNDN);
        mpfr_sub(s, a + i, b + i, MPFR_RNDN);
        mpfr_abs(s, s, MPFR_RNDN);
        cr_assert(mpfr_cmp(s, tol) <= 0,
                  "%s: state %ld: local error %g > %g at h = %g", text, (long)i,
                  mpfr_get_d(s, MPFR_RNDN), mpfr_get_d(tol, MPFR_RNDN),
                  mpfr_get_d(h, MPFR_RNDN));
    }
    hdo_vec_clear(a, n);
    hdo_vec_clear(b, n);
    mpfr_clears(t0, h, s, tol, (mpfr_ptr)0);
    tt_clear(&lo);
    tt_clear(&hi);
}

Test(taylor, local_error_below_tolerance)
{
    long digits[] = {30, 60};
    for (int i = 0; i < 2; i++) {
        check_local_error(
            "model r\nvar x = 1\nmode m\n  der(x) = -x^2\nend\nstart m\n",
            digits[i]);
        check_local_error(
            "model p\nvar th = 1.5, w = 0\nmode m\n  der(th) = w\n"
            "  der(w) = -9.8*sin(th)\nend\nstart m\n",
            digits[i]);
        /* theta - pi/2 = t^2 f(t^4): a series with gaps */
        check_local_error(
            "model p\nvar th = pi/2, w = 0\nmode m\n  der(th) = w\n"
            "  der(w) = -9.8*sin(th)\nend\nstart m\n",
            digits[i]);
        check_local_error(
            "model l\nvar x = 1, y = 2, z = 3\nmode m\n  der(x) = 10*(y - x)\n"
            "  der(y) = x*(28 - z) - y\n  der(z) = x*y - 8/3*z\nend\nstart m\n",
            digits[i]);
        check_local_error(growth, digits[i]);
    }
}

/* The angle form of the pendulum, theta'' = -g/L sin theta from
   theta = pi/2 at rest: at t = sqrt(L/g) K(1/2) the pendulum hangs
   straight down, theta = 0 (Landau-Lifshitz; the value from
     /usr/bin/python3 -c "import mpmath; mpmath.mp.dps=60;
       print(mpmath.sqrt(1/mpmath.mpf('9.8'))*mpmath.ellipk(mpmath.mpf(1)/2))"
   -- note mpf('9.8'), not mpf(9.8), which is the binary double). */
#define QUARTER_PERIOD                                                         \
    "0.59226243054383627786648258049768615088706115656167537895859"

Test(taylor, pendulum_angle_quarter_period)
{
    tt_case c;
    mpfr_t z;
    tt_init(&c,
            "model p\nvar th = pi/2, w = 0\nmode m\n  der(th) = w\n"
            "  der(w) = -9.8*sin(th)\nend\nstart m\n",
            50, 0);
    tt_run(&c, QUARTER_PERIOD);
    mpfr_init2(z, c.prec);
    mpfr_set_zero(z, 1);
    tt_assert_close(c.xs + tt_state(&c, "th"), z, 48, "theta(T/4) = 0");
    mpfr_clear(z);
    tt_clear(&c);
}
