/* newton_thresholds.c -- the two exits of Newton's method for the
 * algebraic unknowns (ref/reduce/consistent.c, solve_unknowns) at their
 * boundaries: a step <= 2^(8 - prec) max(1, |xu|), and a step that does not
 * decrease (from the third iteration on) <= 2^(-floor(prec/2)) max(1, |xu|).
 *
 * The model 0 = (z + B) - B - x with B = 2^k has dh/dz = 1 and a rounding
 * floor we control exactly: x + B lies in [B, 2B), whose unit in the last
 * place is u = 2^(k + 1 - prec), and x = 1/2 + f u with f = 5/16 puts x
 * + B a fraction f of a unit above B + 1/2.  From z = 0 Newton goes
 *   z1 = x                        (step |x|),
 *   z2 = x + f u                  (h(x) = fl(x + B) - B - x = -f u),
 *   z3 = x + f u - (1 - f) u      (z2 + B = B + 1/2 + 2f u rounds up to
 *                                  B + 1/2 + u since 2f > 1/2),
 * steps f u = 5u/16 and then (1 - f) u = 11u/16: the third does not
 * decrease.  A second unknown 0 = (w + B) - B - W (W a multiple of u, so
 * w = W exactly after one step) sets the scale max(1, ||xu||) = W without
 * touching the steps, so both tolerances can be put exactly on a step.
 * Expected values by this arithmetic, not from hdo. */
#include <math.h>
#include <stdlib.h>
#include "util.h"

/* Runs hdo_consistent_init on the model above at prec bits with B = 2^k
   and the scale W; returns its status, and z in zout (prec bits). */
static int
solve_at(mpfr_t zout, mpfr_prec_t prec, long k, const mpfr_t W)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    char text[600];
    (void)ru_pendulum_text; /* util.h's, unused here */
    /* W = m 2^e exactly, written as a rational */
    mpz_t m;
    mpz_init(m);
    mpfr_exp_t e = mpfr_get_z_2exp(m, W);
    char *ms = mpz_get_str(NULL, 10, m);
    snprintf(text, sizeof text,
             "model floor\nparam B = 2^%ld\nparam W = %s * 2^(%ld)\n"
             "var x = 1/2, z = 0, w = 0\n"
             "mode m\n  der(x) = -x\n  0 = (z + B) - B - x\n"
             "  0 = (w + B) - B - W\nend\nstart m\n",
             k, ms, (long)e);
    free(ms);
    mpz_clear(m);
    hdo_error_clear(&err);
    tm_parse(model, text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    cr_assert_eq(r->nimplicit, 2);
    cr_assert_eq(r->nstate, 1);
    mpfr_ptr xs = hdo_vec_init(1, prec), xu = hdo_vec_init(2, prec);
    mpfr_t t;
    int fixed[1] = {1};
    mpfr_init2(t, prec);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    /* x = 1/2 + (5/16) 2^(k + 1 - prec) */
    mpfr_set_ui_2exp(xs, 5, k + 1 - (long)prec - 4, MPFR_RNDN);
    mpfr_add_d(xs, xs, 0.5, MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    mpfr_set_ui(xu + 1, 0, MPFR_RNDN);
    int st = hdo_consistent_init(xs, xu, NULL, model, r, t, fixed, prec, &err);
    /* z is the unknown near 1/2, w the one near W > 1 */
    mpfr_set(zout, mpfr_cmpabs(xu, xu + 1) < 0 ? xu : xu + 1, MPFR_RNDN);
    mpfr_clear(t);
    hdo_vec_clear(xs, 1);
    hdo_vec_clear(xu, 2);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
    return st;
}

/* 1/2 + num 2^(k + 1 - prec - 4), i.e. 1/2 + (num/16) u */
static void
expect_z(const mpfr_t z, mpfr_prec_t prec, long k, long num, const char *what)
{
    mpfr_t want;
    mpfr_init2(want, prec);
    mpfr_set_si_2exp(want, num, k + 1 - (long)prec - 4, MPFR_RNDN);
    mpfr_add_d(want, want, 0.5, MPFR_RNDN);
    cr_expect(mpfr_equal_p(z, want), "%s at %ld bits: z - 1/2 = %.6Rg u/16",
              what, (long)prec, z);
    mpfr_clear(want);
}

static const mpfr_prec_t precs[] = {100, 128, 199, 333, 1000};

/* First exit: step2 = 5u/16 against 2^(8 - prec) W.  With k = 20,
   W = 5 2^9 puts the test on the step exactly (accepted: z = z2 = 1/2 +
   10u/16); W (1 - 2^-10) makes it miss, and the iteration ends one step
   later by the second exit (z = z3 = 1/2 - u/16), whose tolerance is far
   above the step there. */
Test(reduce_newton, first_exit_boundary)
{
    const long k = 20;
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        mpfr_prec_t prec = precs[i];
        mpfr_t W, z;
        mpfr_inits2(prec, W, z, (mpfr_ptr)0);
        mpfr_set_ui_2exp(W, 5, k - 11, MPFR_RNDN); /* 2^(8-prec) W = 5u/16 */
        cr_assert_eq(solve_at(z, prec, k, W), 0);
        expect_z(z, prec, k, 10, "W on the boundary");
        mpfr_mul_ui(W, W, 1025, MPFR_RNDN);
        mpfr_div_2ui(W, W, 10, MPFR_RNDN); /* W (1 + 2^-10): accepted */
        cr_assert_eq(solve_at(z, prec, k, W), 0);
        expect_z(z, prec, k, 10, "W (1 + 2^-10)");
        mpfr_set_ui_2exp(W, 5 * 1023, k - 11 - 10, MPFR_RNDN);
        cr_assert_eq(solve_at(z, prec, k, W), 0);
        expect_z(z, prec, k, -1, "W (1 - 2^-10)");
        mpfr_set_ui_2exp(W, 5, k - 12, MPFR_RNDN); /* W / 2 */
        cr_assert_eq(solve_at(z, prec, k, W), 0);
        expect_z(z, prec, k, -1, "W / 2");
        mpfr_clears(W, z, (mpfr_ptr)0);
    }
}

/* Second exit: step3 = 11u/16 (not below step2 = 5u/16) against
   2^(-floor(prec/2)) W.  With k = ceil(prec/2) + 10, W = 11 2^7 puts the
   test on the step exactly: accepted (z = z3); W (1 - 2^-10) or W / 2
   leaves a non-decreasing step above it: "does not converge".  The first
   exit, 2^(8 - prec) W, is far below step2 throughout. */
Test(reduce_newton, second_exit_boundary)
{
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        mpfr_prec_t prec = precs[i];
        long k = (long)(prec + 1) / 2 + 10;
        mpfr_t W, z;
        mpfr_inits2(prec, W, z, (mpfr_ptr)0);
        mpfr_set_ui_2exp(W, 11, 7, MPFR_RNDN);
        cr_assert_eq(solve_at(z, prec, k, W), 0, "%ld bits", (long)prec);
        expect_z(z, prec, k, -1, "W on the boundary");
        mpfr_set_ui_2exp(W, 11 * 1025, 7 - 10, MPFR_RNDN);
        cr_assert_eq(solve_at(z, prec, k, W), 0);
        expect_z(z, prec, k, -1, "W (1 + 2^-10)");
        mpfr_set_ui_2exp(W, 11 * 1023, 7 - 10, MPFR_RNDN);
        cr_expect_eq(solve_at(z, prec, k, W), HDO_ERR_INCONSISTENT,
                     "W (1 - 2^-10) at %ld bits", (long)prec);
        mpfr_set_ui_2exp(W, 11, 6, MPFR_RNDN);
        cr_expect_eq(solve_at(z, prec, k, W), HDO_ERR_INCONSISTENT,
                     "W / 2 at %ld bits", (long)prec);
        mpfr_clears(W, z, (mpfr_ptr)0);
    }
}
