/* options.c -- the exact time options of a run (--until, --every), read
 * from text once */
#include <string.h>
#include "hybrid.h"

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
