/* reset_thresholds.c -- the conditioning test of a reset (ref/hybrid/
 * transition.c, reset_conditioning; decisions.md "Ill-conditioned
 * resets") at its boundary: the reset's value, enclosed in Arb with every
 * input widened to value +- tol max(1, |value|), is refused when the
 * enclosure's radius exceeds 10^5 tol max(1, |value|). */
#include <stdio.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "../model_util.h"

/* der(x) = 1 from 0, `when x > 1/2 goto b with y = K (x - 1/2)`: at the
   event x = 1/2, so the input's ball is 1/2 +- tol, the value K (x - 1/2)
   is at rounding level (|value| < 1) and the radius K tol; the limit is
   10^5 tol, so K = 10^5 is the boundary, whatever D.  (Arb rounds the
   radius up by a relative 2^-28 at most, far inside the 2^-20 margin.) */
static int
reset_at(const char *K, const char *X, long digits, hdo_error_t *err)
{
    char text[512];
    snprintf(text, sizeof text,
             "model r\nvar x = %s - 1/2, y = 0\nmode a\n  der(x) = 1\n"
             "  der(y) = 0\n  when x > %s goto b with y = %s*(x - %s)\n"
             "end\nmode b\n  der(x) = 1\n  der(y) = 0\nend\n"
             "start a at 0\nuntil 1\n",
             X, X, K, X);
    hdo_model_t model;
    hdo_result_t res;
    tm_parse(model, text);
    int st = tm_run(res, model, digits, NULL, err);
    if (st == 0)
        cr_expect_eq(res->nevents, 1);
    hdo_result_clear(res);
    hdo_model_clear(model);
    return st;
}

static int
reset_case(const char *K, long digits, hdo_error_t *err)
{
    return reset_at(K, "1/2", digits, err);
}

Test(hybrid_thresholds, reset_conditioning_boundary)
{
    static const long digits[] = {16, 30};
    hdo_error_t err;
    for (size_t i = 0; i < sizeof digits / sizeof *digits; i++) {
        long D = digits[i];
        cr_expect_eq(reset_case("100000*(1 - 1/2^20)", D, &err), 0,
                     "D = %ld: %s", D, err.message);
        cr_expect_eq(reset_case("100000*(1 + 1/2^20)", D, &err), HDO_ERR_DOMAIN,
                     "D = %ld", D);
        cr_expect(strstr(err.message, "is ill-conditioned at the event") !=
                          NULL &&
                      strstr(err.message, "is not determined to the digits "
                                          "asked") != NULL,
                  "%s", err.message);
        cr_expect_eq(reset_case("50000", D, &err), 0, "%s", err.message);
        cr_expect_eq(reset_case("200000", D, &err), HDO_ERR_DOMAIN);
        /* the input's widening is relative beyond 1: at x = 1024 the
           radius is 1024 K tol, so K = 10^5/1024 is the boundary */
        cr_expect_eq(reset_at("100000/1024*(1 - 1/2^20)", "1024", D, &err), 0,
                     "D = %ld: %s", D, err.message);
        cr_expect_eq(reset_at("100000/1024*(1 + 1/2^20)", "1024", D, &err),
                     HDO_ERR_DOMAIN, "D = %ld", D);
    }
}
