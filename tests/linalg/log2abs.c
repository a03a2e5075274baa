/* log2abs.c -- hdo_log2_abs from the top limb gives the bits of its
   definition, (double)e + log2(|d|) with d, e from mpfr_get_d_2exp
   (RNDN): random significands at 1 to 5 limbs, and the hard cases of
   the rounding to 53 bits -- ties with and without bits below the top
   limb, a significand rounding up to 1, precisions at or below 53. */
#include <math.h>
#include <criterion/criterion.h>
#include <gmp.h>
#include "linalg.h"

static void
free_caches(void)
{
    flint_cleanup();
    mpfr_free_cache();
}
TestSuite(linalg_log2abs, .fini = free_caches);

static double
reference(mpfr_srcptr x)
{
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
}

static void
check(mpfr_srcptr x)
{
    double a = hdo_log2_abs(x), b = reference(x);
    cr_assert(a == b, "prec %ld: %.17g vs %.17g", (long)mpfr_get_prec(x), a, b);
}

Test(linalg_log2abs, same_bits_as_get_d_2exp)
{
    static const mpfr_prec_t precs[] = {2,  24,  53,  54,  64,
                                        65, 100, 133, 200, 320};
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 28);
    mpfr_t x, t;
    long checked = 0;
    for (size_t i = 0; i < sizeof precs / sizeof *precs; i++) {
        mpfr_prec_t p = precs[i];
        mpfr_init2(x, p);
        mpfr_init2(t, p);
        for (int r = 0; r < 2000; r++) {
            mpfr_urandomb(x, rs);
            if (r & 1)
                mpfr_neg(x, x, MPFR_RNDN);
            mpfr_mul_2si(x, x, (r % 401) - 200, MPFR_RNDN);
            if (mpfr_regular_p(x)) {
                check(x);
                checked++;
            }
        }
        if (p > 54) {
            /* ties at 53 bits: 1 + 2^-53 (even below: rounds down), 1 +
               3 2^-53 (odd: up), each with and without a last bit */
            for (int odd = 0; odd < 2; odd++)
                for (int below = 0; below < 2; below++) {
                    mpfr_set_ui(x, 1, MPFR_RNDN);
                    mpfr_set_ui_2exp(t, odd ? 3 : 1, -53, MPFR_RNDN);
                    mpfr_add(x, x, t, MPFR_RNDN);
                    if (below) {
                        mpfr_set_ui_2exp(t, 1, 1 - (long)p, MPFR_RNDN);
                        mpfr_add(x, x, t, MPFR_RNDN);
                    }
                    check(x);
                    checked++;
                }
            /* 2 - 2^(1-p): rounds up to 2 (d = 1/2, e + 1 in MPFR) */
            mpfr_set_ui(x, 2, MPFR_RNDN);
            mpfr_set_ui_2exp(t, 1, 1 - (long)p, MPFR_RNDN);
            mpfr_sub(x, x, t, MPFR_RNDN);
            check(x);
            checked++;
        }
        mpfr_clear(x);
        mpfr_clear(t);
    }
    cr_assert(checked > 19000);
    gmp_randclear(rs);
}
