/* args.c -- hdo_run, hdo_run_verify, hdo_run_rows and hdo_analyze refuse
 * wrong arguments with HDO_ERR_INPUT and a message before any work (#23
 * item 9): a model never parsed, digits beyond HDO_MAX_DIGITS, sample
 * times that are not finite and increasing */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include "analyze.h"
#include "api_util.h"

/* A model that was initialised and never parsed (with an end time given,
   so that nothing else stops the run first) used to crash hdo_run and
   hdo_analyze; so did one whose parse failed, or one cleared. */
Test(api, unparsed_model_refused)
{
    hdo_model_t model;
    hdo_result_t res, check;
    hdo_analysis_t an;
    hdo_run_options opt;
    hdo_error_t err;
    fmpq_t until;
    slong nrows = -1;
    long verified;
    const char *no = "hdo_model_parse_file or hdo_model_parse_string must "
                     "succeed on it first";
    fmpq_init(until);
    fmpq_set_si(until, 1, 1);
    hdo_run_options_init(&opt);
    opt.until = until;
    opt.digits = 20;
    hdo_result_init(res);
    hdo_result_init(check);
    hdo_analysis_init(an);
    for (int k = 0; k < 3; k++) {
        hdo_model_init(model);
        if (k == 1) /* a failed parse: the model is left empty */
            cr_assert_eq(hdo_model_parse_string(model, "model m\nvar", 11,
                                                "bad.hdae", &err),
                         HDO_ERR_SYNTAX);
        if (k == 2) { /* parsed, then cleared */
            hdo_model_clear(model);
            tm_parse(model, api_decay);
            hdo_model_clear(model);
        }
        api_expect_refused(hdo_run(res, model, &opt, &err), &err, no);
        cr_expect_eq(res->nrows, 0);
        api_expect_refused(
            hdo_run_verify(res, check, &verified, NULL, 0, model, &opt, &err),
            &err, no);
        api_expect_refused(hdo_run_rows(&nrows, model, &opt, &err), &err, no);
        cr_expect_eq(nrows, 0);
        api_expect_refused(hdo_analyze(an, model, 20, &err), &err, no);
        hdo_model_clear(model);
    }
    hdo_analysis_clear(an);
    hdo_result_clear(res);
    hdo_result_clear(check);
    fmpq_clear(until);
}

/* One limit on the digits for the library and the commands (10000,
   docs/cli.md): 10^9 used to start a run at 3.3 * 10^9 bits (hours per
   step); the timeout fails the test if it is not refused at once. */
Test(api, digits_limit, .timeout = 60)
{
    hdo_model_t model;
    hdo_result_t res, check;
    hdo_analysis_t an;
    hdo_run_options opt;
    hdo_error_t err;
    slong nrows;
    long verified;
    const long bad[] = {1000000000L, LONG_MAX, HDO_MAX_DIGITS + 1L, 0, -3};
    cr_assert_eq(HDO_MAX_DIGITS, 10000);
    tm_parse(model, api_decay);
    hdo_run_options_init(&opt);
    hdo_result_init(res);
    hdo_result_init(check);
    hdo_analysis_init(an);
    for (int k = 0; k < 5; k++) {
        opt.digits = bad[k];
        const char *why = bad[k] > 0 ? "at most 10000 digits" : "positive";
        api_expect_refused(hdo_run(res, model, &opt, &err), &err, why);
        api_expect_refused(
            hdo_run_verify(res, check, &verified, NULL, 0, model, &opt, &err),
            &err, why);
        api_expect_refused(hdo_run_rows(&nrows, model, &opt, &err), &err, why);
        api_expect_refused(hdo_analyze(an, model, bad[k], &err), &err,
                           "expected 1 to 10000");
    }
    cr_expect_eq(res->nrows, 0);
    /* the limit itself is allowed (the grid only: a run would take
       minutes) */
    opt.digits = HDO_MAX_DIGITS;
    cr_expect_eq(hdo_run_rows(&nrows, model, &opt, &err), 0, "%s", err.message);
    cr_expect_eq(nrows, 1001);
    hdo_analysis_clear(an);
    hdo_result_clear(res);
    hdo_result_clear(check);
    hdo_model_clear(model);
}

/* Sample times out of order, repeated, NaN or infinite used to be
   dropped without a word (the driver walks them in order); now the first
   bad entry is named, and res is left as it was. */
Test(api, sample_times_refused)
{
    static const struct {
        double t[3];
        const char *why;
    } bad[] = {
        {{0.5, 0.25, 0.75},
         "sample_times[1] = 0.25 is not after sample_times[0] = 0.5"},
        {{0.25, 0.25, 0.75},
         "sample_times[1] = 0.25 is not after sample_times[0] = 0.25"},
        {{0.25, NAN, 0.75}, "sample_times[1] is nan"},
        {{0.25, 0.5, INFINITY}, "sample_times[2] is inf"},
        {{-INFINITY, 0.5, 0.75}, "sample_times[0] is -inf"},
    };
    hdo_model_t model;
    hdo_result_t res;
    hdo_run_options opt;
    hdo_error_t err;
    slong nrows;
    tm_parse(model, api_decay);
    hdo_run_options_init(&opt);
    opt.digits = 20;
    hdo_result_init(res);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        opt.sample_times = bad[k].t;
        opt.nsample_times = 3;
        api_expect_refused(hdo_run(res, model, &opt, &err), &err, bad[k].why);
        api_expect_refused(hdo_run_rows(&nrows, model, &opt, &err), &err,
                           bad[k].why);
        cr_expect_eq(res->nrows, 0);
    }
    opt.sample_times = bad[0].t;
    opt.nsample_times = -1;
    api_expect_refused(hdo_run(res, model, &opt, &err), &err,
                       "nsample_times is -1");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Increasing sample times give a row at each, x = e^-t. */
Test(api, sample_times_rows)
{
    const double inside[] = {0, 0.1, 0.35, 0.9, 1};
    hdo_model_t model;
    hdo_result_t res;
    hdo_run_options opt;
    hdo_error_t err;
    tm_parse(model, api_decay);
    hdo_run_options_init(&opt);
    opt.digits = 20;
    opt.sample_times = inside;
    opt.nsample_times = 5;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_assert_eq(res->nrows, 5);
    for (int i = 0; i < 5; i++)
        cr_expect(api_row_is_decay(res->rows + i, inside[i], 20), "row %d", i);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Outside the span [t0, t_end] a time is refused (it used to give a row
   holding the start state at t = -1, or no row after the end).  The
   doubles next to t0 = 3/10 and t_end = 7/10 on either side count as t0
   and t_end (a caller's doubles of them) and give rows there; the
   double 0.3 lies below 3/10 and the one after 0.7 above 7/10. */
Test(api, sample_times_span)
{
    static const char *text = "model api_span\n"
                              "var x = 1\n"
                              "mode m\n"
                              "  der(x) = -x\n"
                              "end\n"
                              "start m at 0.3\n"
                              "until 0.7\n";
    const double before[] = {-1, 0.5}, after[] = {0.5, 2};
    double edges[] = {0.3, 0.5, 0.7}, below[] = {0.3, 0.5};
    const char *want[] = {"0.3", "0.5", "0.7"};
    hdo_model_t model;
    hdo_result_t res;
    hdo_run_options opt;
    hdo_error_t err;
    mpfr_t t, t0, x;
    tm_parse(model, text);
    hdo_run_options_init(&opt);
    opt.digits = 20;
    opt.sample_times = before;
    opt.nsample_times = 2;
    hdo_result_init(res);
    api_expect_refused(hdo_run(res, model, &opt, &err), &err,
                       "sample_times[0] = -1 is before the run's start time "
                       "0.29999999999999999");
    opt.sample_times = after;
    api_expect_refused(hdo_run(res, model, &opt, &err), &err,
                       "sample_times[1] = 2 is after the run's end time "
                       "0.69999999999999996");
    /* two doubles below 3/10: more than a rounding before the start */
    below[0] = nextafter(0.3, 0);
    opt.sample_times = below;
    api_expect_refused(hdo_run(res, model, &opt, &err), &err,
                       "is before the run's start time");

    mpfr_inits2(128, t, t0, x, (mpfr_ptr)0);
    mpfr_set_str(t0, "0.3", 10, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(t0, 0.3) > 0);
    edges[2] = nextafter(0.7, 1);
    mpfr_set_str(t, "0.7", 10, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(t, edges[2]) < 0);
    opt.sample_times = edges;
    opt.nsample_times = 3;
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_assert_eq(res->nrows, 3);
    /* rows at 3/10, 1/2, 7/10 (to the run's digits) holding
       x = e^-(t - 3/10) */
    for (int i = 0; i < 3; i++) {
        mpfr_set_str(t, want[i], 10, MPFR_RNDN);
        cr_expect(tm_close_rel(res->rows[i].time, t, 20), "row %d time", i);
        mpfr_sub(x, t0, t, MPFR_RNDN);
        mpfr_exp(x, x, MPFR_RNDN);
        cr_expect(tm_close_rel(res->rows[i].values + 0, x, 18), "row %d x", i);
    }
    mpfr_clears(t, t0, x, (mpfr_ptr)0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
