/* precision.c -- the precision rule of a run (ref/result/precision.c,
 * docs/decisions.md) at every digits: prec = ceil((D + 10) log2 10) and
 * tol = 10^-(D + 5), each computed here independently of the rule */
#include <stdio.h>
#include <gmp.h>
#include <criterion/criterion.h>
#include "result.h"

/* prec = ceil((D + 10) log2 10): the bit length of 10^(D+10) (never a
   power of two), computed exactly with GMP, for every D up to the
   largest --digits accepted (100000). */
Test(result_precision, run_prec_exact_for_every_digits, .timeout = 120)
{
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, 11); /* 10^(D+10) for D = 1 */
    for (long D = 1; D <= 100000; D++) {
        mpfr_prec_t want = (mpfr_prec_t)mpz_sizeinbase(p, 2);
        if (hdo_run_prec(D) != want)
            cr_assert_fail("D = %ld: prec %ld, 10^(D+10) has %ld bits", D,
                           (long)hdo_run_prec(D), (long)want);
        mpz_mul_ui(p, p, 10);
    }
    mpz_clear(p);
    /* and the tolerance 10^-(D+5) at D = 30: 10^-35 to 200 bits */
    mpfr_t tol, want;
    mpfr_inits2(200, tol, want, (mpfr_ptr)0);
    hdo_run_tol(tol, 30);
    mpfr_set_str(want, "1e-35", 10, MPFR_RNDN);
    cr_assert(mpfr_equal_p(tol, want));
    mpfr_clears(tol, want, (mpfr_ptr)0);
}

/* The digits of a run: those asked, 30 when none (0 or less); --verify's
   second run 10 more. */
Test(result_precision, default_and_verify_digits)
{
    cr_expect_eq(hdo_run_digits(0), 30);
    cr_expect_eq(hdo_run_digits(-5), 30);
    cr_expect_eq(hdo_run_digits(1), 1);
    cr_expect_eq(hdo_run_digits(10000), 10000);
    cr_expect_eq(hdo_run_verify_digits(0), 40);
    cr_expect_eq(hdo_run_verify_digits(16), 26);
    cr_expect_eq(hdo_run_verify_digits(HDO_MAX_DIGITS), 10010);
    hdo_run_options opt;
    hdo_run_options_init(&opt);
    cr_expect_eq(opt.digits, 30);
}
