/* thresholds.c -- thresholds of the hybrid driver (docs/decisions.md) at
 * their boundaries: the chattering count and the step limit (the zero
 * rule of the event locator: tests/event/thresholds.c; the precision of
 * D digits: tests/result/precision.c). */
#include <stdio.h>
#include <gmp.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "../model_util.h"

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
