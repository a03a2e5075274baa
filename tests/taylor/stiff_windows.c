/* stiff_windows.c -- the order windows of the Taylor stiffness estimate at
 * their boundaries (ref/taylor/stiff.c): the radius from the low orders
 * 1..lo1, lo1 = min(4, max(1, floor(p/8))), against the high orders
 * hi0..p, hi0 = floor((3p + 3)/4); no estimate (0) below order 8.
 *
 * After a real expansion of der(x) = -x (x = 1) the coefficients are
 * replaced by c_0 = 1, c_j = 2^-j: every order gives the radius 2^1
 * (log2 r_j = (0 - log2|c_j|)/j = 1), so the estimate is 0.  One
 * coefficient c_J = 2^(4J) gives log2 r_J = -4: counted in the high
 * window the estimate is (1 - (-4)) log10 2 = 5 log10 2, in the low one
 * (-4 - 1) log10 2, in neither 0.  Order 1 is the exception: the
 * magnitude of the component counts |c_1| rho (stiff.c), so c_1 can only
 * raise the low radius: c_1 = 2^-5 gives log2 r_1 = 5, and where order 1
 * is the whole low window (lo1 = 1) the estimate (5 - 1) log10 2.
 * Expected values by this arithmetic. */
#include "common.h"

static double
estimate(tt_case *c, slong J)
{
    slong p = c->tay->order;
    mpfr_t *co = c->tay->state_coef;
    mpfr_set_ui(co[0], 1, MPFR_RNDN);
    for (slong j = 1; j <= p; j++)
        mpfr_set_ui_2exp(co[j], 1, -j, MPFR_RNDN);
    if (J == 1)
        mpfr_set_ui_2exp(co[1], 1, -5, MPFR_RNDN);
    else if (J > 0)
        mpfr_set_ui_2exp(co[J], 1, 4 * J, MPFR_RNDN);
    return hdo_taylor_stiffness(c->tay);
}

static void
setup(tt_case *c, slong order)
{
    hdo_error_t err;
    mpfr_t t0;
    tt_init(c, "model f\nvar x = 1\nmode m\n  der(x) = -x\nend\nstart m\n", 20,
            order);
    cr_assert_eq(c->tay->order, order);
    cr_assert_eq(c->red->nstate, 1);
    mpfr_init2(t0, c->prec);
    mpfr_set_zero(t0, 1);
    cr_assert_eq(hdo_taylor_expand(c->tay, t0, c->xs, c->xu, &err), 0, "%s",
                 err.message);
    mpfr_clear(t0);
}

#define L2 0.30102999566398120

Test(taylor_stiff_windows, window_boundaries)
{
    static const slong orders[] = {8, 15, 16, 20, 31, 32, 39, 40, 57, 64};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        slong p = orders[i];
        slong lo1 = p / 8 < 1 ? 1 : (p / 8 > 4 ? 4 : p / 8);
        slong hi0 = (3 * p + 3) / 4;
        tt_case c;
        setup(&c, p);
        cr_expect(fabs(estimate(&c, 0)) < 1e-12, "p = %ld: smooth", (long)p);
        cr_expect(fabs(estimate(&c, hi0) - 5 * L2) < 1e-12,
                  "p = %ld: order hi0 = %ld is high", (long)p, (long)hi0);
        cr_expect(fabs(estimate(&c, p) - 5 * L2) < 1e-12, "p = %ld: order p",
                  (long)p);
        cr_expect(fabs(estimate(&c, hi0 - 1)) < 1e-12,
                  "p = %ld: order %ld is in neither window", (long)p,
                  (long)(hi0 - 1));
        double low = lo1 == 1 ? 4 * L2 : -5 * L2;
        cr_expect(fabs(estimate(&c, lo1) - low) < 1e-12,
                  "p = %ld: order lo1 = %ld is low", (long)p, (long)lo1);
        cr_expect(fabs(estimate(&c, lo1 + 1)) < 1e-12,
                  "p = %ld: order %ld is in neither window", (long)p,
                  (long)(lo1 + 1));
        tt_clear(&c);
    }
}

/* Below order 8 there is no estimate, whatever the coefficients. */
Test(taylor_stiff_windows, order_8_and_below)
{
    tt_case c;
    setup(&c, 7);
    cr_expect_eq(estimate(&c, 6), 0.0);
    cr_expect_eq(estimate(&c, 1), 0.0);
    tt_clear(&c);
    setup(&c, 8);
    cr_expect(fabs(estimate(&c, 6) - 5 * L2) < 1e-12); /* hi0 = 6 */
    tt_clear(&c);
}
