/* number.c -- unit tests of exact decimal literals (hdo_parse_decimal) */
#include <string.h>
#include <criterion/criterion.h>
#include <flint/fmpq.h>
#include "model.h"

/* The expected values are written as fractions and read by FLINT's
   fmpq_set_str, which knows nothing of decimals: an independent path. */
static void
check(const char *lit, const char *frac)
{
    fmpq_t got, want;
    int status;
    fmpq_init(got);
    fmpq_init(want);
    cr_assert_eq(fmpq_set_str(want, frac, 10), 0, "bad fraction %s", frac);
    fmpq_canonicalise(want);
    status = hdo_parse_decimal(got, lit, strlen(lit));
    cr_expect_eq(status, 0, "%s: status %d", lit, status);
    cr_expect(fmpq_equal(got, want), "%s != %s", lit, frac);
    fmpq_clear(got);
    fmpq_clear(want);
}

Test(model_number, exact_values)
{
    check("0.1", "1/10");
    check("1e-2", "1/100");
    check("9.81", "981/100");
    check("0.8", "4/5");
    check("2.5E+3", "2500");
    check("2.5e3", "2500");
    check("123456789012345678901234567890.5",
          "246913578024691357802469135781/2");
    check(".5", "1/2");
    check("5.", "5");
    check("007", "7");
    check("0", "0");
    check("0.000", "0");
    check("0e99999", "0");
    check("-1.5e-3", "-3/2000");
    check("+42", "42");
    check("1E0", "1");
    check("12.5e-1", "5/4");
    check("0.0000000000000000000000000000001",
          "1/10000000000000000000000000000000");
}

Test(model_number, large_but_allowed)
{
    /* 1e100000 has 100001 digits: check a few facts instead of a string. */
    fmpq_t q;
    fmpz_t ten;
    fmpq_init(q);
    fmpz_init_set_ui(ten, 10);
    cr_assert_eq(hdo_parse_decimal(q, "1e100000", 8), 0);
    fmpz_pow_ui(ten, ten, 100000);
    cr_expect(fmpz_equal(fmpq_numref(q), ten));
    cr_expect(fmpz_is_one(fmpq_denref(q)));
    cr_assert_eq(hdo_parse_decimal(q, "1e-100000", 9), 0);
    cr_expect(fmpz_equal(fmpq_denref(q), ten));
    fmpz_clear(ten);
    fmpq_clear(q);
}

Test(model_number, rejected)
{
    const char *bad[] = {"",   "-",    ".",  "e5", "1e",  "1e+",  "1.2.3",
                         "1x", "0x10", "1 ", " 1", "--1", "1e5.0"};
    fmpq_t q;
    size_t i;
    fmpq_init(q);
    for (i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect_eq(hdo_parse_decimal(q, bad[i], strlen(bad[i])),
                     HDO_ERR_SYNTAX, "'%s' accepted", bad[i]);
    cr_expect_eq(hdo_parse_decimal(q, "1e100001", 8), HDO_ERR_UNSUPPORTED);
    cr_expect_eq(hdo_parse_decimal(q, "1e-100001", 9), HDO_ERR_UNSUPPORTED);
    cr_expect_eq(hdo_parse_decimal(q, "1e99999999999999999999999", 25),
                 HDO_ERR_UNSUPPORTED);
    fmpq_clear(q);
}

Test(model_number, digit_limit)
{
    /* HDO_MODEL_MAX_DIGITS significant digits pass, one more does not;
       leading zeros are not significant. */
    size_t n = HDO_MODEL_MAX_DIGITS;
    char *s = malloc(n + 12);
    fmpq_t q;
    fmpq_init(q);
    memset(s, '0', 10);
    memset(s + 10, '7', n);
    cr_expect_eq(hdo_parse_decimal(q, s, n + 10), 0);
    s[n + 10] = '7';
    cr_expect_eq(hdo_parse_decimal(q, s, n + 11), HDO_ERR_UNSUPPORTED);
    fmpq_clear(q);
    free(s);
}
