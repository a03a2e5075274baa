/* fexp.c -- hdo_exp_rn (ref/expr/fexp.c) against mpfr_exp to the bit:
 * random arguments at the precisions of its two fixed-point widths and
 * past them, arguments whose exp lies next to a midpoint of two
 * results, and results out of MPFR's exponent range */
#include <criterion/criterion.h>
#include "expr.h"

static const mpfr_prec_t precs[] = {2,   24,  53,  63,  64,  65,  87,
                                    88,  89,  100, 128, 133, 152, 153,
                                    170, 216, 217, 237, 280, 281, 300};
#define NPRECS ((int)(sizeof precs / sizeof precs[0]))

/* x := random bits of x's precision, exponent in [lo, hi], random sign */
static void
random_arg(mpfr_t x, flint_rand_t st, long lo, long hi)
{
    mpz_t z;
    mpz_init(z);
    mpfr_prec_t p = mpfr_get_prec(x);
    for (mpfr_prec_t b = 0; b < p; b += 32) {
        mpz_mul_2exp(z, z, 32);
        mpz_add_ui(z, z, n_randint(st, 1UL << 32));
    }
    mpz_add_ui(z, z, 1); /* not zero */
    mpfr_set_z(x, z, MPFR_RNDN);
    mpfr_set_exp(x, lo + (long)n_randint(st, (ulong)(hi - lo + 1)));
    if (n_randint(st, 2))
        mpfr_neg(x, x, MPFR_RNDN);
    mpz_clear(z);
}

static void
expect_same(mpfr_srcptr r, mpfr_srcptr want, mpfr_srcptr x, long trial)
{
    if (mpfr_equal_p(r, want) && mpfr_get_prec(r) == mpfr_get_prec(want))
        return;
    char buf[1200];
    mpfr_snprintf(buf, sizeof buf,
                  "trial %ld: exp(%Ra) (%ld bits) at %ld bits: %Ra, "
                  "mpfr_exp %Ra",
                  trial, x, (long)mpfr_get_prec(x), (long)mpfr_get_prec(r), r,
                  want);
    cr_assert_fail("%s", buf);
}

/* Random arguments from 2^-200 to 2^13 (the fixed-point path to 2^11),
   of the result's precision or another, the result aliased with x in a
   fifth of them: every bit mpfr_exp's, and the fixed-point path decides
   all but a few of those it takes (2 of 89,442). */
Test(expr_fexp, exp_rn_is_mpfr_exp)
{
    flint_rand_t st;
    flint_randinit(st);
    long taken = 0, decided = 0;
    for (long trial = 0; trial < 100000; trial++) {
        mpfr_prec_t p = precs[n_randint(st, NPRECS)];
        mpfr_prec_t px = n_randint(st, 3) ? p : precs[n_randint(st, NPRECS)];
        mpfr_t x, r, want;
        mpfr_inits2(p, r, want, (mpfr_ptr)0);
        mpfr_init2(x, px);
        long lo = n_randint(st, 8) == 0 ? -200 : -6;
        random_arg(x, st, lo, n_randint(st, 8) == 0 ? 13 : 11);
        mpfr_exp(want, x, MPFR_RNDN);
        if (mpfr_get_exp(x) <= 11 && p <= 280) {
            taken++;
            if (hdo_exp_rn_limbs(r, x) == 0) {
                decided++;
                expect_same(r, want, x, trial);
            }
        }
        if (px == p && n_randint(st, 5) == 0) {
            mpfr_set(r, x, MPFR_RNDN);
            hdo_exp_rn(r, r);
        } else {
            hdo_exp_rn(r, x);
        }
        expect_same(r, want, x, trial);
        mpfr_clears(x, r, want, (mpfr_ptr)0);
    }
    cr_expect(taken > 50000, "%ld arguments in the fixed-point range", taken);
    /* refused: a tiny x of few bits can put exp(x) = 1 + x + x^2/2
       within x^2 of a midpoint (x = -3 2^-154 at 153 bits) */
    cr_expect(decided > taken - taken / 1000, "%ld of %ld decided", decided,
              taken);
    flint_randclear(st);
}

/* x = log(m) at 200 to 600 bits, m the midpoint of two p-bit numbers:
   exp(x) is within 2^-190 or less of m, closer than the fixed-point
   path's error, which must then leave it to mpfr_exp (a path that
   decided from its value alone rounds about half of these the wrong
   way). */
Test(expr_fexp, exp_rn_near_midpoints)
{
    flint_rand_t st;
    flint_randinit(st);
    long refused = 0;
    for (long trial = 0; trial < 20000; trial++) {
        mpfr_prec_t p = precs[n_randint(st, NPRECS - 2)];
        mpfr_t m, x, r, want;
        mpfr_inits2(p, r, want, (mpfr_ptr)0);
        mpfr_init2(m, p + 1);
        mpfr_init2(x, 200 + (mpfr_prec_t)n_randint(st, 400));
        random_arg(m, st, -14, 14);
        mpfr_abs(m, m, MPFR_RNDN);
        /* m's last bit set: a midpoint at p bits */
        mpfr_set_prec(r, p + 1);
        mpfr_set_ui_2exp(r, 1, mpfr_get_exp(m) - p - 1, MPFR_RNDN);
        if (mpfr_min_prec(m) <= p)
            mpfr_add(m, m, r, MPFR_RNDN);
        mpfr_set_prec(r, p);
        mpfr_log(x, m, MPFR_RNDN);
        mpfr_exp(want, x, MPFR_RNDN);
        if (hdo_exp_rn_limbs(r, x) == 0)
            expect_same(r, want, x, trial);
        else
            refused++;
        hdo_exp_rn(r, x);
        expect_same(r, want, x, trial);
        mpfr_clears(m, x, r, want, (mpfr_ptr)0);
    }
    /* nearly all (those whose log is 0 or past 2^11 excepted) */
    cr_expect(refused > 15000, "%ld refused", refused);
    flint_randclear(st);
}

/* Results past MPFR's exponent range go to mpfr_exp: its infinity or
   zero and its overflow or underflow flag. */
Test(expr_fexp, exp_rn_out_of_range)
{
    mpfr_exp_t emax = mpfr_get_emax(), emin = mpfr_get_emin();
    mpfr_t x, r, want;
    mpfr_inits2(87, x, r, want, (mpfr_ptr)0);
    cr_assert(mpfr_set_emax(100) == 0 && mpfr_set_emin(-100) == 0);
    for (int s = -1; s <= 1; s += 2) {
        mpfr_set_si(x, 80 * s, MPFR_RNDN);
        cr_expect(hdo_exp_rn_limbs(r, x) == 1);
        mpfr_clear_flags();
        hdo_exp_rn(r, x);
        int over = mpfr_overflow_p(), under = mpfr_underflow_p();
        mpfr_clear_flags();
        mpfr_exp(want, x, MPFR_RNDN);
        cr_expect(mpfr_equal_p(r, want) ||
                  (mpfr_zero_p(r) && mpfr_zero_p(want)));
        cr_expect(over == mpfr_overflow_p() && under == mpfr_underflow_p());
        /* inside the range: the fixed-point path */
        mpfr_set_si(x, 60 * s, MPFR_RNDN);
        cr_expect(hdo_exp_rn_limbs(r, x) == 0);
        mpfr_exp(want, x, MPFR_RNDN);
        cr_expect(mpfr_equal_p(r, want));
    }
    mpfr_set_emax(emax);
    mpfr_set_emin(emin);
    mpfr_clears(x, r, want, (mpfr_ptr)0);
}
