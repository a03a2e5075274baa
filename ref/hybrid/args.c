/* args.c -- the checks of hdo_run's arguments before any work: a parsed
 * model, live results, the digits, the sample times */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

/* The library is called from programs other than hdo, which do not go
   through the command line's checks: each misuse found here used to
   crash (an unparsed model, a cleared result), run for days (digits =
   10^9) or give fewer rows without a word (sample times not in order,
   NaN).  Nothing is computed or written before these checks, so a
   refusal leaves res as it was. */
static int refuse(hdo_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
refuse(hdo_error_t *err, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        hdo_error_clear(err);
        err->status = HDO_ERR_INPUT;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return HDO_ERR_INPUT;
}

/* The sample times must be finite and strictly increasing: the driver
   walks them in order and writes each when the run reaches it, so a time
   behind the one before it was passed by and dropped without a word, as
   could a NaN, which is unordered with every time. */
static int
check_samples(const hdo_run_options *opt, hdo_error_t *err)
{
    if (opt->sample_times == NULL)
        return 0;
    if (opt->nsample_times < 0)
        return refuse(err, "nsample_times is %ld: expected a count >= 0",
                      (long)opt->nsample_times);
    for (slong k = 0; k < opt->nsample_times; k++) {
        double t = opt->sample_times[k];
        if (!isfinite(t))
            return refuse(err,
                          "sample_times[%ld] is %g: the sample times must "
                          "be finite and strictly increasing",
                          (long)k, t);
        if (k > 0 && !(t > opt->sample_times[k - 1]))
            return refuse(err,
                          "sample_times[%ld] = %.17g is not after "
                          "sample_times[%ld] = %.17g: the sample times must "
                          "be finite and strictly increasing",
                          (long)k, t, (long)k - 1, opt->sample_times[k - 1]);
    }
    return 0;
}

int
hdo_run_check_args(const hdo_result_struct *res, const hdo_result_struct *check,
                   const hdo_model_struct *model, const hdo_run_options *opt,
                   hdo_error_t *err)
{
    if ((res != NULL && res->live != HDO_RESULT_LIVE) ||
        (check != NULL && check->live != HDO_RESULT_LIVE))
        return refuse(err, "the result was cleared (hdo_result_clear): "
                           "initialise it again with hdo_result_init");
    if (!hdo_model_parsed(model))
        return refuse(err, "the model holds no parsed model: "
                           "hdo_model_parse_file or hdo_model_parse_string "
                           "must succeed on it first");
    if (opt->digits <= 0)
        return refuse(err, "digits must be positive, got %ld", opt->digits);
    if (opt->digits > HDO_MAX_DIGITS)
        return refuse(err,
                      "digits %ld: at most %d digits (HDO_MAX_DIGITS: the "
                      "work grows like D^2.2)",
                      opt->digits, HDO_MAX_DIGITS);
    return check_samples(opt, err);
}
