/* lazy_thresholds.c -- the lazy unknowns' Newton method at its limits
 * (ref/taylor/lazy.c): at most 12 corrections, the 13th step having to be
 * below 2^(16 - prec) max(|y|, floor_y), else "does not converge".  The
 * root is y = 0, which no relative test reaches: the test gives y the
 * scale floor 1 (the driver's floor of a variable of size 1), so the
 * exit is 2^(16 - prec) absolutely.
 *
 * 0 = y^2 makes Newton exactly linear: from y = 2^-s the correction is
 * y^2 / (2y) = y/2, so y_i = 2^-(s+i) and step_i = 2^-(s+i+1), all exact.
 * step_i <= 2^(16 - prec) first at i = prec - 17 - s: with s = prec - 29
 * that is i = 12 (12 corrections applied, y = 2^-(s+12)); with s = prec -
 * 30 it would be i = 13, one too many.  The steps halve, so the stall
 * exit never fires.  hdo_taylor_lazy_solve is called directly (taylor/
 * internal.h) with that guess: a consistent start cannot be computed for
 * 0 = y^2 (its Jacobian vanishes at the root). */
#include "common.h"
#include "taylor/internal.h"

static const char *model_text = "model lazy\n"
                                "var th = 1, om = 0, y = 1\n"
                                "mode a\n"
                                "  der(th) = om\n"
                                "  der(om) = -th\n"
                                "  0 = y^2\n"
                                "end\n"
                                "start a\n";

/* Solves from y = 2^-s at prec bits; returns the lazy status and y. */
static int
solve_from(mpfr_t yout, mpfr_prec_t prec, long s)
{
    hdo_model_t model;
    hdo_reduced_t red;
    hdo_taylor_t tay;
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_model_init(model);
    cr_assert_eq(hdo_model_parse_string(model, model_text, strlen(model_text),
                                        "test.hdae", &err),
                 0, "%s", err.message);
    hdo_reduced_init(red);
    cr_assert_eq(hdo_reduce_mode(red, model, 0, &err), 0, "%s", err.message);
    cr_assert_eq(red->nimplicit, 1);
    cr_assert_eq(hdo_taylor_init(tay, model, red, NULL, 0, NULL, 0, prec, 0), 0,
                 "%s", tay->init_message);
    hdo_taylor_lazy_setup(tay);
    cr_assert_eq(tay->nlazy, 1);
    cr_assert(!tay->lazy_affine);
    mpfr_ptr xs = hdo_vec_init(red->nstate, prec);
    mpfr_ptr xu = hdo_vec_init(1, prec);
    for (slong i = 0; i < red->nstate; i++)
        mpfr_set_ui(xs + i, 1, MPFR_RNDN);
    mpfr_set_ui_2exp(xu, 1, -s, MPFR_RNDN);
    mpfr_set_ui(tay->t0, 0, MPFR_RNDN);
    mpfr_ptr floor = hdo_vec_init(red->nstate + 1, 64);
    for (slong i = 0; i <= red->nstate; i++)
        mpfr_set_ui(floor + i, i == red->nstate, MPFR_RNDN);
    tay->floor = floor;
    mpfr_t h;
    mpfr_init2(h, prec);
    mpfr_set_ui(h, 0, MPFR_RNDN);
    tay->lazy_status = 0;
    hdo_taylor_lazy_solve(xu, tay, xs, h);
    int st = tay->lazy_status;
    mpfr_set(yout, xu, MPFR_RNDN);
    mpfr_clear(h);
    hdo_vec_clear(xs, red->nstate);
    hdo_vec_clear(xu, 1);
    hdo_vec_clear(floor, red->nstate + 1);
    hdo_taylor_clear(tay);
    hdo_reduced_clear(red);
    hdo_model_clear(model);
    return st;
}

Test(taylor_lazy_thresholds, twelve_corrections_boundary)
{
    static const mpfr_prec_t precs[] = {100, 133, 200, 333, 1000};
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        mpfr_prec_t p = precs[i];
        mpfr_t y, want;
        mpfr_inits2(p, y, want, (mpfr_ptr)0);
        long s = (long)p - 29;
        /* 12 corrections, the 13th step 2^(16 - prec) exactly */
        cr_expect_eq(solve_from(y, p, s), 0, "%ld bits, 12", (long)p);
        mpfr_set_ui_2exp(want, 1, -(s + 12), MPFR_RNDN);
        cr_expect(mpfr_equal_p(y, want), "%ld bits: y = %.6Rg", (long)p, y);
        /* 11 */
        cr_expect_eq(solve_from(y, p, s + 1), 0, "%ld bits, 11", (long)p);
        mpfr_set_ui_2exp(want, 1, -(s + 12), MPFR_RNDN);
        cr_expect(mpfr_equal_p(y, want), "%ld bits: y = %.6Rg", (long)p, y);
        /* 13: refused */
        cr_expect_eq(solve_from(y, p, s - 1), HDO_ERR_NO_CONVERGENCE,
                     "%ld bits, 13", (long)p);
        cr_expect(mpfr_nan_p(y));
        mpfr_clears(y, want, (mpfr_ptr)0);
    }
}
