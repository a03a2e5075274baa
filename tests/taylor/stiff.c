/* stiff.c -- hdo_taylor_stiffness against its closed form on
   x' = -lambda x (coefficients x0 (-lambda)^j / j!): at x0 = 1 (the
   transient: not stiff) and at x0 = 10^-40 (the fast mode damped to
   rounding level: stiff), at 30 and 100 digits. */
#include "common.h"

/* log10 of min over j in [j0, j1] of (max(1, x0) j! / (x0 lambda^j))^(1/j),
   in double from lgamma: independent of the code under test. */
static double
closed_radius(double lx0, double llam, slong j0, slong j1)
{
    double best = INFINITY;
    for (slong j = j0; j <= j1; j++) {
        double lnum = lx0 > 0 ? lx0 : 0;
        double r = (lnum + lgamma((double)j + 1) / log(10.0) - lx0 -
                    (double)j * llam) /
                   (double)j;
        if (r < best)
            best = r;
    }
    return best;
}

static void
check(long digits, const char *x0, double lx0)
{
    tt_case c;
    hdo_error_t err;
    mpfr_t t0;
    hdo_error_clear(&err);
    tt_init(&c,
            "model f\nvar x = 1\nmode m\n  der(x) = -1e12*x\nend\nstart m\n",
            digits, 0);
    mpfr_init2(t0, c.prec);
    mpfr_set_zero(t0, 1);
    mpfr_set_str(c.xs, x0, 10, MPFR_RNDN);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0, "%s",
                 err.message);
    slong p = c.tay->order, lo1 = p / 8 > 4 ? 4 : p / 8;
    double want = closed_radius(lx0, 12, 1, lo1) -
                  closed_radius(lx0, 12, (3 * p + 3) / 4, p);
    double got = hdo_taylor_stiffness(c.tay);
    cr_expect(fabs(got - want) < 1e-6, "%ld digits, x0 = %s: %.9f, want %.9f",
              digits, x0, got, want);
    mpfr_clear(t0);
    tt_clear(&c);
}

Test(taylor, stiffness_closed_form_transient_and_damped)
{
    for (long d = 30; d <= 100; d += 70) {
        check(d, "1", 0);
        check(d, "1e-40", -40);
    }
}

/* The transient is not stiff (the ratio is below 1), the damped mode is
   (10^5 and more at 30 digits): the two sides of hybrid's threshold
   log10(p) + 1.6. */
Test(taylor, stiffness_sides)
{
    tt_case c;
    hdo_error_t err;
    mpfr_t t0;
    hdo_error_clear(&err);
    tt_init(&c,
            "model f\nvar x = 1\nmode m\n  der(x) = -1e12*x\nend\nstart m\n",
            30, 0);
    mpfr_init2(t0, c.prec);
    mpfr_set_zero(t0, 1);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0);
    cr_expect(hdo_taylor_stiffness(c.tay) < 0);
    mpfr_set_str(c.xs, "1e-40", 10, MPFR_RNDN);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0);
    cr_expect(hdo_taylor_stiffness(c.tay) > 5);
    mpfr_clear(t0);
    tt_clear(&c);
}
