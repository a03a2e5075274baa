/* reuse.c -- a result or an analysis that receives a second run holds
 * that run alone (#23 item 9): before, hdo_run appended its rows and
 * events to the earlier run's, and hdo_analyze kept the earlier
 * analysis' verdict */
#include <criterion/criterion.h>
#include "analyze.h"
#include "api_util.h"

/* one impact before t = 1, at t1 = sqrt(2/g) = 0.4515...; the next
   would come at t1 (1 + 2 * 0.7) = 1.08 > 1 */
static const char *ball = "model api_ball\n"
                          "param g = 9.81\n"
                          "var h = 1, v = 0\n"
                          "mode fly\n"
                          "  der(h) = v\n"
                          "  der(v) = -g\n"
                          "  when h < 0 goto fly with v = -0.7*v\n"
                          "end\n"
                          "start fly at 0\n"
                          "until 1\n";

/* x' = -x on the grid 0, 0.25, ..., 1: five rows, no event */
static void
expect_decay_grid(const hdo_result_t res, long digits)
{
    cr_expect_eq(res->nrows, 5, "%ld rows", (long)res->nrows);
    cr_expect_eq(res->nevents, 0, "%ld events", (long)res->nevents);
    cr_expect_eq(res->nvars, 1);
    cr_expect_eq(res->nmodes, 1);
    cr_expect_eq(res->digits, digits);
    for (slong i = 0; i < res->nrows && i < 5; i++)
        cr_expect(api_row_is_decay(res->rows + i, i / 4.0, digits), "row %ld",
                  (long)i);
}

Test(api, result_reused_holds_the_last_run)
{
    hdo_model_t mball, mdecay;
    hdo_result_t res;
    hdo_run_options opt;
    hdo_error_t err;
    fmpq_t every;
    const char *argv[] = {"run", "x.hdae"};
    tm_parse(mball, ball);
    tm_parse(mdecay, api_decay);
    cr_assert_eq(tm_run(res, mball, 20, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_assert_eq(res->nvars, 2);
    /* the caller's command line survives the reuse */
    res->command_argv = argv;
    res->command_argc = 2;

    fmpq_init(every);
    tm_decimal(every, "0.25");
    hdo_run_options_init(&opt);
    opt.every = every;
    opt.digits = 24;
    cr_assert_eq(hdo_run(res, mdecay, &opt, &err), 0, "%s", err.message);
    expect_decay_grid(res, 24);
    cr_expect(res->command_argv == argv && res->command_argc == 2);
    /* once more: still five rows, not ten */
    cr_assert_eq(hdo_run(res, mdecay, &opt, &err), 0, "%s", err.message);
    expect_decay_grid(res, 24);
    fmpq_clear(every);
    hdo_result_clear(res);
    hdo_model_clear(mball);
    hdo_model_clear(mdecay);
}

/* hdo_run_verify into two results that hold earlier runs: each holds its
   new run alone. */
Test(api, verify_reused_results)
{
    hdo_model_t model;
    hdo_result_t res, check;
    hdo_run_options opt;
    hdo_error_t err;
    fmpq_t every;
    long verified;
    tm_parse(model, api_decay);
    fmpq_init(every);
    tm_decimal(every, "0.25");
    hdo_run_options_init(&opt);
    opt.every = every;
    opt.digits = 20;
    hdo_result_init(res);
    hdo_result_init(check);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(
            hdo_run_verify(res, check, &verified, NULL, 0, model, &opt, &err),
            0, "%s", err.message);
        expect_decay_grid(res, 20);
        expect_decay_grid(check, 30);
        cr_expect_eq(verified, 20);
    }
    fmpq_clear(every);
    hdo_result_clear(res);
    hdo_result_clear(check);
    hdo_model_clear(model);
}

/* An analysis that failed (no consistent start: 0 = y^2 + 1 has no real
   solution), reused for a model that has one, is that model's analysis
   alone: not failed, its one mode, its variable. */
Test(api, analysis_reused)
{
    static const char *nosol = "model api_nosol\n"
                               "var x = 1, y = 0\n"
                               "mode m\n"
                               "  der(x) = -x\n"
                               "  0 = y^2 + 1\n"
                               "end\n"
                               "mode n\n"
                               "  der(x) = x\n"
                               "  0 = y - x\n"
                               "end\n"
                               "start m at 0\n"
                               "until 1\n";
    hdo_model_t bad, good;
    hdo_analysis_t an;
    hdo_error_t err;
    tm_parse(bad, nosol);
    tm_parse(good, api_decay);
    hdo_analysis_init(an);
    cr_assert_eq(hdo_analyze(an, bad, 20, &err), 0, "%s", err.message);
    cr_assert_eq(an->failed, 1);
    cr_assert_eq(an->nmodes, 2);
    cr_assert_eq(hdo_analyze(an, good, 20, &err), 0, "%s", err.message);
    cr_expect_eq(an->failed, 0);
    cr_expect_eq(an->nmodes, 1);
    cr_expect_eq(an->nvars, 1);
    cr_expect_str_eq(an->work.name, "api_decay");
    cr_assert(an->modes[0].consistent);
    /* the consistent start is the start value x(0) = 1 */
    cr_expect_eq(mpfr_cmp_ui(hdo_analysis_value(an->modes + 0, 0), 1), 0);
    hdo_analysis_clear(an);
    hdo_model_clear(bad);
    hdo_model_clear(good);
}
