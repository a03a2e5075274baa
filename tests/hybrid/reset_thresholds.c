/* reset_thresholds.c -- the conditioning test of a reset (ref/hybrid/
 * transition.c, reset_conditioning; decisions.md D-009 "Ill-conditioned
 * resets") at its boundary: the reset's value, enclosed in Arb with every
 * input widened to value +- tol |value| (above its floor), is refused
 * when the enclosure's radius exceeds 10^5 tol times the target's scale,
 * max(|value|, its largest magnitude so far, its nominal value). */
#include <stdio.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "../model_util.h"

/* der(x) = 1 from 0, y = Y0 (Y0 = 1: y's scale is 1), `when x > X goto
   b with y = K (x - X)`: at the event x = X, so the input's ball is
   X +- tol X, the value K (x - X) is at rounding level and the radius
   K X tol; the limit is 10^5 tol, so K = 10^5 / X is the boundary,
   whatever D.  (Arb rounds the radius up by a relative 2^-28 at most,
   far inside the 2^-20 margin.) */
static int
reset_full(const char *K, const char *X, const char *Y0, long digits,
           hdo_error_t *err)
{
    char text[512];
    snprintf(text, sizeof text,
             "model r\nvar x = %s - 1/2, y = %s\nmode a\n  der(x) = 1\n"
             "  der(y) = 0\n  when x > %s goto b with y = %s*(x - %s)\n"
             "end\nmode b\n  der(x) = 1\n  der(y) = 0\nend\n"
             "start a at 0\nuntil 1\n",
             X, Y0, X, K, X);
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
reset_at(const char *K, const char *X, long digits, hdo_error_t *err)
{
    return reset_full(K, X, "1", digits, err);
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
        cr_expect_eq(reset_case("200000*(1 - 1/2^20)", D, &err), 0,
                     "D = %ld: %s", D, err.message);
        cr_expect_eq(reset_case("200000*(1 + 1/2^20)", D, &err), HDO_ERR_DOMAIN,
                     "D = %ld", D);
        cr_expect(strstr(err.message, "is ill-conditioned at the event") !=
                          NULL &&
                      strstr(err.message, "is not determined to the digits "
                                          "asked") != NULL,
                  "%s", err.message);
        cr_expect_eq(reset_case("100000", D, &err), 0, "%s", err.message);
        cr_expect_eq(reset_case("400000", D, &err), HDO_ERR_DOMAIN);
        /* the input's widening is relative: at x = 1024 the radius is
           1024 K tol, so K = 10^5/1024 is the boundary */
        cr_expect_eq(reset_at("100000/1024*(1 - 1/2^20)", "1024", D, &err), 0,
                     "D = %ld: %s", D, err.message);
        cr_expect_eq(reset_at("100000/1024*(1 + 1/2^20)", "1024", D, &err),
                     HDO_ERR_DOMAIN, "D = %ld", D);
    }
}

/* A reset to zero up to its inputs' errors of a variable that has no
   scale (always zero, no nominal) is refused at any K; the same with
   `nominal 1`, or after y had the value 1, is the case above. */
Test(hybrid_thresholds, reset_without_a_scale)
{
    hdo_error_t err;
    cr_expect_eq(reset_full("1", "1/2", "0", 30, &err), HDO_ERR_DOMAIN);
    cr_expect(strstr(err.message, "is not determined to the digits asked") !=
                  NULL,
              "%s", err.message);
    cr_expect_eq(reset_full("1", "1/2", "0 nominal 1", 30, &err), 0, "%s",
                 err.message);
    cr_expect_eq(reset_full("100000", "1/2", "0 nominal 1", 30, &err), 0, "%s",
                 err.message);
    cr_expect_eq(reset_full("400000", "1/2", "0 nominal 1", 30, &err),
                 HDO_ERR_DOMAIN);
}
