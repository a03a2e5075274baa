/* thresholds.c -- thresholds of the hybrid driver (docs/decisions.md) at
 * their boundaries: the working precision of D digits, the chattering
 * count and the step limit (the zero rule of the event locator:
 * tests/event/thresholds.c). */
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
