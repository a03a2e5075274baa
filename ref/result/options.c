/* options.c -- the options of a run: their defaults, and the exact time
 * options (--until, --every), read from text once */
#include <string.h>
#include "result.h"

int
hdo_run_parse_time(fmpq_t q, const char *option, const char *text, int positive,
                   hdo_error_t *err)
{
    int st = hdo_parse_decimal(q, text, strlen(text));
    if (st == 0 && positive && fmpq_sgn(q) <= 0)
        st = HDO_ERR_INPUT;
    if (st == 0)
        return 0;
    if (st == HDO_ERR_UNSUPPORTED)
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "%s: '%s' is out of range (at most %d significant "
                      "digits and an exponent within +-%d)",
                      option, text, HDO_MODEL_MAX_DIGITS,
                      HDO_MODEL_MAX_EXPONENT);
    else
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "%s: expected a %sdecimal number, got '%s'", option,
                      positive ? "positive " : "", text);
    /* an option, not a line of the model: no file */
    if (err != NULL)
        err->file = NULL;
    return HDO_ERR_INPUT;
}

void
hdo_run_options_init(hdo_run_options *opt)
{
    opt->digits = HDO_DIGITS_DEFAULT;
    opt->every = NULL;
    opt->until = NULL;
    opt->max_steps = 0;
    opt->max_events = 0;
    opt->sample_times = NULL;
    opt->nsample_times = 0;
    opt->method = HDO_METHOD_AUTO;
    opt->progress = NULL;
    opt->progress_data = NULL;
    opt->row_sink = NULL;
    opt->row_sink_data = NULL;
    opt->dense_row = NULL;
}
