/* zero_unknown.c -- the zero rule at an arc's start for a guard that reads
 * an algebraic unknown (decisions.md D-124): its value is a zero only
 * within its error through h, not within tol times its size over the step */
#include <criterion/criterion.h>
#include <stdio.h>
#include "hybrid.h"
#include "../model_util.h"

/* x' = 1 from 0, z = 1e-30 - x + 1e20 x^2 (algebraic), z < 0: the event at
   the root (1 - sqrt(1 - 4e-10)) / 2e20 = 1.0000000001e-30 (MPFR here),
   to D - 1 digits of itself at 16 and 30 digits.  D-016's rule took z's
   1e-30 at t = 0 for a zero (1e20 x^2 is 4e20 over a step of 2) and put
   the event at t = 0. */
Test(hybrid_zero_unknown, algebraic_guard_of_1e_30_is_no_zero)
{
    static const char *text = "model tinyz\nvar x = 0, z\nmode a\n"
                              "  der(x) = 1\n  z = 1e-30 - x + 1e20*x^2\n"
                              "  when z < 0 goto b\nend\nmode b\n"
                              "  der(x) = 1\n  z = 1e-30 - x + 1e20*x^2\nend\n"
                              "start a at 0\nuntil 2\n";
    mpfr_t r, a, d;
    mpfr_inits2(400, r, a, d, (mpfr_ptr)0);
    mpfr_set_str(a, "4e-10", 10, MPFR_RNDN);
    mpfr_ui_sub(a, 1, a, MPFR_RNDN);
    mpfr_sqrt(a, a, MPFR_RNDN);
    mpfr_ui_sub(r, 1, a, MPFR_RNDN);
    mpfr_set_str(a, "2e20", 10, MPFR_RNDN);
    mpfr_div(r, r, a, MPFR_RNDN);
    for (long digits = 16; digits <= 30; digits += 14) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, text);
        cr_assert_eq(tm_run(res, model, digits, NULL, &err), 0, "%s",
                     err.message);
        cr_assert_eq(res->nevents, 1, "%ld digits", digits);
        mpfr_sub(d, res->events[0].time, r, MPFR_RNDN);
        mpfr_div(d, d, r, MPFR_RNDN);
        mpfr_set_str(a, "10", 10, MPFR_RNDN);
        mpfr_pow_si(a, a, 1 - digits, MPFR_RNDN);
        cr_expect(mpfr_cmpabs(d, a) <= 0,
                  "%ld digits: the event at %.17g, relative error %.3g", digits,
                  mpfr_get_d(res->events[0].time, MPFR_RNDN),
                  mpfr_get_d(d, MPFR_RNDN));
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
    mpfr_clears(r, a, d, (mpfr_ptr)0);
}
