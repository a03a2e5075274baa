/* refine.c -- hdo_event_refine at every precision: the root of a guard's
   polynomial to its working precision, above the doubles' range too */
#include <criterion/criterion.h>
#include <flint/flint.h>
#include "event/series.h"

/* The root of P = c0 - s + s^3 (c0 = 0.3 rounded at prec) in [0, 1/2],
   by Newton at prec + 200 bits from 0.3389 (independent of refine: no
   bracket, no doubles, 40 plain steps), against hdo_event_refine at
   prec: within 2^(4-prec) (eps = 2^(2-prec) with H = 1, and the
   rounding of x).  Before the stop test of the quadratic convergence
   was taken in MPFR above 1000 bits, every precision from 1225 bits on
   gave a root off by 2^-1205: the test's threshold 2^(1-prec) had
   underflowed to 0 in doubles, and so had its left side. */
static void
check_root_at(mpfr_prec_t prec)
{
    mpfr_ptr c = flint_malloc(4 * sizeof(__mpfr_struct));
    mpfr_t a, b, H, x, r, f, fp, t;
    for (int k = 0; k < 4; k++)
        mpfr_init2(c + k, prec);
    mpfr_set_str(c + 0, "0.3", 10, MPFR_RNDN);
    mpfr_set_si(c + 1, -1, MPFR_RNDN);
    mpfr_set_ui(c + 2, 0, MPFR_RNDN);
    mpfr_set_ui(c + 3, 1, MPFR_RNDN);
    mpfr_inits2(prec, a, b, H, x, (mpfr_ptr)0);
    mpfr_set_ui(a, 0, MPFR_RNDN);
    mpfr_set_d(b, 0.5, MPFR_RNDN);
    mpfr_set_ui(H, 1, MPFR_RNDN);
    hdo_event_refine(x, c, 4, a, b, H, prec, NULL, 0);

    mpfr_inits2(prec + 200, r, f, fp, t, (mpfr_ptr)0);
    mpfr_set_d(r, 0.3389, MPFR_RNDN);
    for (int it = 0; it < 40; it++) {
        mpfr_pow_ui(f, r, 3, MPFR_RNDN);
        mpfr_sub(f, f, r, MPFR_RNDN);
        mpfr_add(f, f, c + 0, MPFR_RNDN);
        mpfr_sqr(fp, r, MPFR_RNDN);
        mpfr_mul_ui(fp, fp, 3, MPFR_RNDN);
        mpfr_sub_ui(fp, fp, 1, MPFR_RNDN);
        mpfr_div(t, f, fp, MPFR_RNDN);
        mpfr_sub(r, r, t, MPFR_RNDN);
    }
    mpfr_sub(t, x, r, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    cr_assert(mpfr_zero_p(t) || mpfr_get_exp(t) <= 4 - (long)prec,
              "prec %ld: the root is off by 2^%ld", (long)prec,
              (long)mpfr_get_exp(t));
    for (int k = 0; k < 4; k++)
        mpfr_clear(c + k);
    flint_free(c);
    mpfr_clears(a, b, H, x, r, f, fp, t, (mpfr_ptr)0);
}

Test(event_refine, root_to_the_working_precision_at_every_precision)
{
    static const mpfr_prec_t precs[] = {64,   133,  232,  1000, 1001,
                                        1100, 1300, 2000, 4000, 8000};
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++)
        check_root_at(precs[i]);
}
