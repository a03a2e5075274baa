/* decimal.c -- tests of hdo_decimal_get_str against mpfr_get_str: the
 * same digits and exponent for every value */
#include <criterion/criterion.h>
#include <flint/flint.h>
#include <string.h>
#include "result.h"

/* mpfr_get_str (MPFR's own conversion, correctly rounded) is the
   expected text; hdo_decimal_get_str must equal it byte for byte, its
   exponent too. */
static void
check_one(hdo_decimal_t dec, size_t n, const mpfr_t x, const char *what)
{
    char got[400];
    mpfr_exp_t ew, eg;
    char *want = mpfr_get_str(NULL, &ew, 10, n, x, MPFR_RNDN);
    eg = hdo_decimal_get_str(got, dec, n, x);
    cr_assert(strcmp(got, want) == 0 && eg == ew,
              "%s, %zu digits, %ld bits: got %se%ld, mpfr_get_str %se%ld", what,
              n, (long)mpfr_get_prec(x), got, (long)eg, want, (long)ew);
    mpfr_free_str(want);
}

/* Random values through the precision (1 to 1,000 bits, exponents from
   -5,000 to 5,000 and near 0), values next to a power of ten (below it:
   the rounding carries into a new decade), powers of ten and integers,
   both signs, 1 to 120 digits, exponents of +-400,000 bits (mpfr_get_str
   itself there); the scratch reused across digit counts
   and precisions as trajectory.csv reuses it. */
Test(result, decimal_digits_as_mpfr_get_str)
{
    static const size_t digits[] = {1, 2, 3, 5, 16, 17, 30, 31, 40, 61, 120};
    static const mpfr_prec_t precs[] = {2, 24, 53, 64, 133, 200, 420, 1000};
    flint_rand_t st;
    flint_randinit(st);
    hdo_decimal_t dec;
    hdo_decimal_init(dec);
    for (int pi = 0; pi < (int)(sizeof precs / sizeof precs[0]); pi++) {
        mpfr_t x;
        mpfr_init2(x, precs[pi]);
        for (int i = 0; i < 3000; i++) {
            size_t n = digits[n_randint(st, sizeof digits / sizeof digits[0])];
            const char *what;
            switch (i % 5) {
            case 0:
                what = "next to a power of ten";
                mpfr_set_ui(x, 10, MPFR_RNDN);
                mpfr_pow_si(x, x, (long)n_randint(st, 600) - 300, MPFR_RNDN);
                if (n_randint(st, 2))
                    mpfr_nextbelow(x);
                else if (n_randint(st, 2))
                    mpfr_nextabove(x);
                break;
            case 1:
                what = "an integer";
                mpfr_set_si(x, (long)n_randint(st, 2000000) - 1000000,
                            MPFR_RNDN);
                if (mpfr_zero_p(x))
                    mpfr_set_ui(x, 7, MPFR_RNDN);
                break;
            default:
                what = "random bits";
                mpfr_set_zero(x, 1);
                for (int b = 0; b < 18; b++) {
                    mpfr_mul_2si(x, x, 60, MPFR_RNDN);
                    mpfr_add_ui(x, x, n_randint(st, 1UL << 60) + 1, MPFR_RNDN);
                }
                mpfr_mul_2si(x, x,
                             i % 5 == 2 ? (long)n_randint(st, 10000) - 6080
                                        : (long)n_randint(st, 200) - 1180,
                             MPFR_RNDN);
            }
            if (i % 97 == 0) { /* beyond 10^+-100000: mpfr_get_str's */
                what = "a huge or tiny exponent";
                mpfr_set_exp(x, n_randint(st, 2) ? 400000 : -400000);
            }
            if (n_randint(st, 2))
                mpfr_neg(x, x, MPFR_RNDN);
            check_one(dec, n, x, what);
        }
        mpfr_clear(x);
    }
    hdo_decimal_clear(dec);
    flint_randclear(st);
}

/* Exact ties: x = Y 2^-j with Y odd and j >= 1 is Y 5^j 10^-j, whose
   last significant decimal digit is a 5; with Y 5^j of n + 1 digits
   the value lies halfway between two n-digit decimals, and the even
   one is mpfr_get_str's (both parities of the digit before the 5 occur
   among the random Y).  Also the same values one ulp off the tie. */
Test(result, decimal_ties_to_even_as_mpfr_get_str)
{
    flint_rand_t st;
    flint_randinit(st);
    hdo_decimal_t dec;
    hdo_decimal_init(dec);
    mpz_t y, p, lo, hi;
    mpz_inits(y, p, lo, hi, (mpz_ptr)0);
    gmp_randstate_t gs;
    gmp_randinit_default(gs);
    gmp_randseed_ui(gs, 2026);
    int even = 0, odd = 0;
    for (int i = 0; i < 4000; i++) {
        size_t n = 1 + n_randint(st, 45);
        unsigned long j = 1 + n_randint(st, 40);
        /* Y in [10^n / 5^j, 10^(n+1) / 5^j), odd */
        mpz_ui_pow_ui(p, 5, j);
        mpz_ui_pow_ui(lo, 10, n);
        mpz_cdiv_q(lo, lo, p);
        mpz_ui_pow_ui(hi, 10, n + 1);
        mpz_fdiv_q(hi, hi, p);
        if (mpz_cmp(lo, hi) >= 0)
            continue; /* 5^j alone has more than n + 1 digits */
        mpz_sub(hi, hi, lo);
        mpz_urandomm(y, gs, hi);
        mpz_add(y, y, lo);
        if (mpz_even_p(y))
            mpz_add_ui(y, y, 1);
        mpz_mul(p, y, p); /* Y 5^j: n + 1 digits, or n + 2 past hi */
        mpz_ui_pow_ui(hi, 10, n + 1);
        if (mpz_cmp(p, hi) >= 0)
            continue;
        /* the digit before the 5: (Y 5^j div 10) mod 2 */
        mpz_fdiv_q_ui(p, p, 10);
        if (mpz_odd_p(p))
            odd++;
        else
            even++;
        mpfr_t x;
        mpfr_init2(x, (mpfr_prec_t)mpz_sizeinbase(y, 2) + 2);
        cr_assert_eq(mpfr_set_z_2exp(x, y, -(mpfr_exp_t)j, MPFR_RNDN), 0);
        if (n_randint(st, 2))
            mpfr_neg(x, x, MPFR_RNDN);
        check_one(dec, n, x, "an exact tie");
        mpfr_nextabove(x);
        check_one(dec, n, x, "one ulp above a tie");
        mpfr_nextbelow(x);
        mpfr_nextbelow(x);
        check_one(dec, n, x, "one ulp below a tie");
        mpfr_clear(x);
    }
    cr_assert(even > 500 && odd > 500, "ties before an even digit %d, odd %d",
              even, odd);
    mpz_clears(y, p, lo, hi, (mpz_ptr)0);
    gmp_randclear(gs);
    hdo_decimal_clear(dec);
    flint_randclear(st);
}
