/* thresholds.c -- thresholds of the hybrid driver (docs/decisions.md) at
 * their boundaries: the working precision of D digits, the zero rule of
 * the event locator, the chattering count and the step limit. */
#include <stdio.h>
#include <gmp.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "../model_util.h"

/* prec = ceil((D + 10) log2 10): the bit length of 10^(D+10) (never a
   power of two), computed exactly with GMP, for every D up to the
   largest --digits accepted (100000). */
Test(hybrid_thresholds, run_prec_exact_for_every_digits, .timeout = 120)
{
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, 11); /* 10^(D+10) for D = 1 */
    for (long D = 1; D <= 100000; D++) {
        mpfr_prec_t want = (mpfr_prec_t)mpz_sizeinbase(p, 2);
        if (hdo_run_prec(D) != want)
            cr_assert_fail("D = %ld: prec %ld, 10^(D+10) has %ld bits", D,
                           (long)hdo_run_prec(D), (long)want);
        mpz_mul_ui(p, p, 10);
    }
    mpz_clear(p);
    /* and the tolerance 10^-(D+5) at D = 30: 10^-35 to 200 bits */
    mpfr_t tol, want;
    mpfr_inits2(200, tol, want, (mpfr_ptr)0);
    hdo_run_tol(tol, 30);
    mpfr_set_str(want, "1e-35", 10, MPFR_RNDN);
    cr_assert(mpfr_equal_p(tol, want));
    mpfr_clears(tol, want, (mpfr_ptr)0);
}

/* KM Remark 12's zero rule: c_k counts as zero while |c_k| H^k <=
   tol max_j |c_j| H^j + floor.  Values a factor 2 on either side: with
   the scale 1 (tol alone), far above it and far below it (relative: a
   guard of size 2^-200 has its zeros where one of size 1 does), with a
   floor that dominates, and with H weighting the coefficients. */
Test(hybrid_thresholds, event_zero_order_boundary)
{
    mpfr_t H, tol, floor;
    mpfr_ptr c = hdo_vec_init(3, 200);
    mpfr_inits2(200, H, tol, floor, (mpfr_ptr)0);
    mpfr_set_ui_2exp(tol, 1, -100, MPFR_RNDN);
    mpfr_set_ui(H, 1, MPFR_RNDN);

    /* max |c_k| H^k = 1: ztol = tol = 2^-100 */
    mpfr_set_ui(c + 1, 1, MPFR_RNDN);
    mpfr_set_ui(c + 2, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -101, MPFR_RNDN); /* ztol / 2: zero */
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c, 1, -100, MPFR_RNDN); /* = ztol: still zero */
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_si_2exp(c, -1, -99, MPFR_RNDN); /* 2 ztol (negative): not */
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 0);

    /* relative: c1 = 2^40, so ztol = 2^-60 */
    mpfr_set_ui_2exp(c + 1, 1, 40, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -61, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c, 1, -59, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 0);

    /* and below 1: c1 = 2^-200, ztol = 2^-300 (up to stop 21 the rule
       had an absolute tol: both were zero) */
    mpfr_set_ui_2exp(c + 1, 1, -200, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -301, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c, 1, -299, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 0);

    /* a floor 2^-250 dominates: ztol = 2^-250 + 2^-300 */
    mpfr_set_ui_2exp(floor, 1, -250, MPFR_RNDN);
    mpfr_set_ui_2exp(c, 1, -251, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, floor), 1);
    mpfr_set_ui_2exp(c, 1, -249, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, floor), 0);
    /* and hides c1 itself (2^-200 is above it: order 1 stays) */
    mpfr_set_ui_2exp(c, 1, -251, MPFR_RNDN);
    mpfr_set_ui_2exp(c + 1, 1, -252, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, floor), 3);

    /* H = 2^-50, c0 = 0, c2 = 2^-2: scale 2^-102, ztol = 2^-202; c1 =
       2^-150 contributes 2^-200 > ztol: order 1; c1 = 2^-153
       contributes 2^-203: zero, order 2 */
    mpfr_set_ui_2exp(H, 1, -50, MPFR_RNDN);
    mpfr_set_ui(c, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(c + 2, 1, -2, MPFR_RNDN);
    mpfr_set_ui_2exp(c + 1, 1, -150, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 1);
    mpfr_set_ui_2exp(c + 1, 1, -153, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order(c, 3, H, tol, NULL), 2);
    hdo_vec_clear(c, 3);
    mpfr_clears(H, tol, floor, (mpfr_ptr)0);
}

/* `when n < K goto a with n = n + 1` from n = 0 switches K times at
   t = 0, each at once after the previous: K = 100 instantaneous switches
   are allowed, the 101st is chattering (decisions.md: "more than 100"),
   under `chattering stop`. */
static int
run_cascade(long K, slong *nevents, hdo_error_t *err)
{
    char text[512];
    snprintf(text, sizeof text,
             "model ch\nvar n = 0\nvar x = 0\nmode a\n  der(n) = 0\n"
             "  der(x) = 1\n  when n < %ld goto a with n = n + 1\nend\n"
             "start a at 0\nuntil 1\nchattering stop\n",
             K);
    hdo_model_t model;
    hdo_result_t res;
    tm_parse(model, text);
    int st = tm_run(res, model, 20, NULL, err);
    *nevents = res->nevents;
    hdo_result_clear(res);
    hdo_model_clear(model);
    return st;
}

Test(hybrid_thresholds, chattering_count_boundary)
{
    hdo_error_t err;
    slong n;
    cr_assert_eq(HDO_RUN_MAX_INSTANT, 100);
    cr_assert_eq(run_cascade(HDO_RUN_MAX_INSTANT, &n, &err), 0, "%s",
                 err.message);
    cr_assert_eq(n, HDO_RUN_MAX_INSTANT);
    cr_assert_eq(run_cascade(HDO_RUN_MAX_INSTANT + 1, &n, &err),
                 HDO_ERR_CHATTERING);
    cr_assert(strstr(err.message, "chattering") != NULL, "%s", err.message);
}

/* --max-steps N allows exactly N steps: a run that takes N steps passes
   with max_steps = N and stops with HDO_ERR_TOO_MUCH_WORK at N - 1. */
Test(hybrid_thresholds, max_steps_boundary)
{
    static const char *text = "model osc\nvar x = 1, y = 0\nmode m\n"
                              "  der(x) = y\n  der(y) = -x\nend\n"
                              "start m at 0\nuntil 10\n";
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    hdo_run_options opt;
    tm_parse(model, text);
    cr_assert_eq(tm_run(res, model, 20, NULL, &err), 0, "%s", err.message);
    slong n = res->steps;
    hdo_result_clear(res);
    cr_assert(n > 2, "%ld steps", (long)n);
    for (slong k = n - 1; k <= n; k++) {
        hdo_run_options_init(&opt);
        opt.digits = 20;
        opt.max_steps = k;
        hdo_result_init(res);
        int st = hdo_run(res, model, &opt, &err);
        cr_assert_eq(st, k == n ? 0 : HDO_ERR_TOO_MUCH_WORK,
                     "max_steps %ld of %ld: %d", (long)k, (long)n, st);
        hdo_result_clear(res);
    }
    hdo_model_clear(model);
}
