/* stiff.c -- hdo_taylor_stiffness against its closed form on
   x' = -lambda x (coefficients x0 (-lambda)^j / j!): at x0 = 1 (the
   transient: not stiff), at x0 = 10^-40 without a scale floor (the same
   exponential at another scale: not stiff either, the estimate is
   scale-free) and at x0 = 10^-(D+35) with the floor tol = 10^-(D+5),
   i.e. a variable whose largest magnitude so far was 1 (the fast mode
   damped 30 orders below its floor: stiff), at 30 and 100 digits. */
#include "common.h"

/* The rule of ref/taylor/control.c and stiff.c restated in log10 from
   lgamma, for the coefficients log10 |c_j| = lx0 + j llam - log10 j!:
   the component's step h = max over the magnitude terms (the floor as
   k = 0, then k = 0 and 1) of min over the window j of
   (|c_k| / |c_j|)^(1/(j - k)) tol^(1/(p - k)); its magnitude
   M = max(floor, |c_0|, |c_1| rho) over rho = h tol^(-1/p); the radius
   of a window min_j (M / |c_j|)^(1/j).  Independent of the code under
   test (which works on the MPFR coefficients in log2). */
static double
lcoef(double lx0, double llam, slong j)
{
    return lx0 + (double)j * llam - lgamma((double)j + 1) / log(10.0);
}

static double
window_min(double lk, slong k, double lx0, double llam, slong j0, slong p,
           double ltol)
{
    double best = INFINITY;
    for (slong j = j0; j <= p; j++) {
        double r = (lk - lcoef(lx0, llam, j)) / (double)(j - k) +
                   ltol / (double)(p - k);
        if (r < best)
            best = r;
    }
    return best;
}

static double
closed_stiffness(double lx0, double llam, double lfloor, slong p, double ltol)
{
    slong j0 = (3 * p + 3) / 4, lo1 = p / 8 > 4 ? 4 : p / 8;
    double lh = window_min(lfloor, 0, lx0, llam, j0, p, ltol);
    for (slong k = 0; k <= 1; k++) {
        double hk = window_min(lcoef(lx0, llam, k), k, lx0, llam, j0, p, ltol);
        if (hk > lh)
            lh = hk;
    }
    double lrho = lh - ltol / (double)p;
    double lm = lfloor > lx0 ? lfloor : lx0;
    if (lcoef(lx0, llam, 1) + lrho > lm)
        lm = lcoef(lx0, llam, 1) + lrho;
    double r[2] = {INFINITY, INFINITY};
    for (int w = 0; w < 2; w++)
        for (slong j = w ? j0 : 1; j <= (w ? p : lo1); j++) {
            double x = (lm - lcoef(lx0, llam, j)) / (double)j;
            if (x < r[w])
                r[w] = x;
        }
    return r[0] - r[1];
}

/* The estimate at x(0) = x0 with the scale floor `floor` (NULL: none). */
static double
stiffness_at(tt_case *c, const char *x0, const char *floor)
{
    hdo_error_t err;
    mpfr_t t0, f;
    hdo_error_clear(&err);
    mpfr_init2(t0, c->prec);
    mpfr_init2(f, 64);
    mpfr_set_zero(t0, 1);
    mpfr_set_str(c->xs, x0, 10, MPFR_RNDN);
    c->tay->floor = NULL;
    if (floor != NULL) {
        mpfr_set_str(f, floor, 10, MPFR_RNDN);
        c->tay->floor = f;
    }
    cr_assert_eq(hdo_taylor_expand(c->tay, t0, c->xs, c->xu, &err), 0, "%s",
                 err.message);
    double got = hdo_taylor_stiffness(c->tay);
    c->tay->floor = NULL;
    mpfr_clear(t0);
    mpfr_clear(f);
    return got;
}

static void
check(long digits, const char *x0, double lx0, int floored)
{
    tt_case c;
    char ftext[32];
    tt_init(&c,
            "model f\nvar x = 1\nmode m\n  der(x) = -1e12*x\nend\nstart m\n",
            digits, 0);
    snprintf(ftext, sizeof ftext, "1e-%ld", digits + 5); /* tol times 1 */
    double ltol = -(double)(digits + 5);
    double want = closed_stiffness(lx0, 12, floored ? ltol : -INFINITY,
                                   c.tay->order, ltol);
    double got = stiffness_at(&c, x0, floored ? ftext : NULL);
    cr_expect(fabs(got - want) < 1e-6, "%ld digits, x0 = %s%s: %.9f, want %.9f",
              digits, x0, floored ? " (floor tol)" : "", got, want);
    tt_clear(&c);
}

Test(taylor, stiffness_closed_form_transient_and_damped)
{
    for (long d = 30; d <= 100; d += 70) {
        char damped[32];
        snprintf(damped, sizeof damped, "1e-%ld", d + 35);
        check(d, "1", 0, 0);
        check(d, "1", 0, 1);
        check(d, "1e-40", -40, 0);
        check(d, "1e-40", -40, 1);
        check(d, damped, -(double)(d + 35), 0);
        check(d, damped, -(double)(d + 35), 1);
    }
}

/* The transient is not stiff (the ratio is below 1), nor is the same
   exponential at the scale 10^-65 without a floor (scale-free); the mode
   damped 30 orders below its floor 10^-35 is (10^5 and more at 30
   digits): the two sides of hybrid's threshold log10(p) + 1.6. */
Test(taylor, stiffness_sides)
{
    tt_case c;
    tt_init(&c,
            "model f\nvar x = 1\nmode m\n  der(x) = -1e12*x\nend\nstart m\n",
            30, 0);
    cr_expect(stiffness_at(&c, "1", NULL) < 1);
    cr_expect(stiffness_at(&c, "1e-65", NULL) < 1);
    cr_expect(stiffness_at(&c, "1e-65", "1e-35") > 5);
    tt_clear(&c);
}
