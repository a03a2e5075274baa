/* options.c -- hdo_run_parse_time: the exact value of --until and
 * --every, read once, and the errors that name the option */
#include <criterion/criterion.h>
#include <string.h>
#include "result.h"

/* The value of text against the rational num/den (exact: 0.1 must be
   1/10, not the binary number nearest to it). */
static void
expect_value(const char *text, int positive, slong num, ulong den)
{
    fmpq_t q, want;
    hdo_error_t err;
    fmpq_init(q);
    fmpq_init(want);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_run_parse_time(q, "--until", text, positive, &err), 0,
                 "%s: %s", text, err.message);
    fmpq_set_si(want, num, den);
    cr_expect(fmpq_equal(q, want), "%s", text);
    fmpq_clear(q);
    fmpq_clear(want);
}

Test(hybrid, parse_time_exact)
{
    expect_value("0.1", 1, 1, 10);
    expect_value("-2.5e-3", 0, -1, 400);
    expect_value("1e3", 1, 1000, 1);
    expect_value(".5", 1, 1, 2);
    expect_value("0", 0, 0, 1); /* --until 0 is a number; the run decides */
}

/* Each error names the option and quotes the text; err->file stays NULL
   so that the command prints "hdo run: error: --every: ...". */
static void
expect_error(const char *opt, const char *text, int positive,
             const char *message)
{
    fmpq_t q;
    hdo_error_t err;
    fmpq_init(q);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_run_parse_time(q, opt, text, positive, &err),
                 HDO_ERR_INPUT, "%s %s", opt, text);
    cr_expect_str_eq(err.message, message);
    cr_expect(err.file == NULL);
    fmpq_clear(q);
}

Test(hybrid, parse_time_errors)
{
    expect_error("--every", "-1", 1,
                 "--every: expected a positive decimal number, got '-1'");
    expect_error("--every", "0", 1,
                 "--every: expected a positive decimal number, got '0'");
    expect_error("--until", "1/3", 0,
                 "--until: expected a decimal number, got '1/3'");
    expect_error("--until", "", 0,
                 "--until: expected a decimal number, got ''");
    expect_error("--until", "1e1000000", 0,
                 "--until: '1e1000000' is out of range (at most 100000 "
                 "significant digits and an exponent within +-100000)");
}
