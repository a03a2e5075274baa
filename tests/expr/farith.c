/* farith.c -- hdo_add_rn, hdo_sub_rn and hdo_mul_rn (ref/expr/farith.c)
 * against mpfr_add, mpfr_sub and mpfr_mul to the bit: random operands of
 * every length of bits at 65 to 256 bits and past them, exponents apart
 * by 0 to beyond the window, ties (operands of few bits), cancellation
 * (operands an ulp or a few apart), all-ones significands (the carries),
 * aliasing, results at the ends of a narrowed exponent range */
#include <criterion/criterion.h>
#include "expr.h"

static const mpfr_prec_t precs[] = {53,  64,  65,  66,  87,  100, 127,
                                    128, 129, 151, 170, 191, 192, 193,
                                    216, 237, 255, 256, 257, 300};
#define NPRECS ((int)(sizeof precs / sizeof precs[0]))

typedef void (*rn_fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, const hdo_erange *);
typedef int (*limbs_fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, const hdo_erange *);
typedef int (*mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
static const rn_fn rn[3] = {hdo_add_rn, hdo_sub_rn, hdo_mul_rn};
static const limbs_fn limbs[3] = {hdo_add_rn_limbs, hdo_sub_rn_limbs,
                                  hdo_mul_rn_limbs};
static const mpfr_fn ref[3] = {mpfr_add, mpfr_sub, mpfr_mul};
static const char *const name[3] = {"add", "sub", "mul"};

/* x := a random number of k significant bits (k <= x's precision) of
   one of several shapes, exponent e, random sign */
static void
random_num(mpfr_t x, flint_rand_t st, mpfr_prec_t k, long e)
{
    mpz_t z;
    mpz_init(z);
    int shape = (int)n_randint(st, 4);
    if (shape == 0) { /* all ones */
        mpz_set_ui(z, 1);
        mpz_mul_2exp(z, z, (ulong)k);
        mpz_sub_ui(z, z, 1);
    } else if (shape == 1) { /* a power of two, or one with a low bit */
        mpz_set_ui(z, 1);
        mpz_mul_2exp(z, z, (ulong)k - 1);
        if (k > 1 && n_randint(st, 2))
            mpz_add_ui(z, z, 1);
    } else {
        for (mpfr_prec_t b = 0; b < k; b += 32) {
            mpz_mul_2exp(z, z, 32);
            mpz_add_ui(z, z, n_randint(st, 1UL << 32));
        }
        mpz_setbit(z, (ulong)(k + 31) / 32 * 32 - 1);
        mpz_fdiv_q_2exp(z, z, (ulong)((k + 31) / 32 * 32 - k));
    }
    mpfr_set_z(x, z, MPFR_RNDN); /* exact: k bits */
    mpfr_set_exp(x, e);
    if (n_randint(st, 2))
        mpfr_neg(x, x, MPFR_RNDN);
    mpz_clear(z);
}

static void
expect_same(int f, mpfr_srcptr r, mpfr_srcptr want, mpfr_srcptr a,
            mpfr_srcptr b, long trial)
{
    if (mpfr_nan_p(r) && mpfr_nan_p(want))
        return; /* a NaN's sign is not specified */
    if (mpfr_equal_p(r, want) && mpfr_signbit(r) == mpfr_signbit(want))
        return;
    char buf[2000];
    mpfr_snprintf(buf, sizeof buf,
                  "trial %ld: %s(%Ra, %Ra) at %ld bits: %Ra, mpfr %Ra", trial,
                  name[f], a, b, (long)mpfr_get_prec(r), r, want);
    cr_assert_fail("%s", buf);
}

/* f(a, b) three ways: the limbs' path (when it decides), hdo_*_rn into
   a fresh r, and aliased onto a copy of a (or of b); each against MPFR.
   Returns 1 when the limbs' path decided. */
static int
check_one(int f, mpfr_srcptr a, mpfr_srcptr b, long trial)
{
    hdo_erange er;
    hdo_erange_get(&er);
    mpfr_prec_t p = mpfr_get_prec(a);
    mpfr_t want, r, c;
    mpfr_inits2(p, want, r, c, (mpfr_ptr)0);
    ref[f](want, a, b, MPFR_RNDN);
    mpfr_set_nan(r);
    int decided = limbs[f](r, a, b, &er) == 0;
    if (decided)
        expect_same(f, r, want, a, b, trial);
    mpfr_set_nan(r);
    rn[f](r, a, b, &er);
    expect_same(f, r, want, a, b, trial);
    mpfr_set(c, a, MPFR_RNDN);
    rn[f](c, c, b, &er);
    expect_same(f, c, want, a, b, trial);
    mpfr_set(c, b, MPFR_RNDN);
    rn[f](c, a, c, &er);
    expect_same(f, c, want, a, b, trial);
    mpfr_clears(want, r, c, (mpfr_ptr)0);
    return decided;
}

Test(farith, random_against_mpfr)
{
    flint_rand_t st;
    flint_randinit(st);
    long trial = 0, decided = 0, eligible = 0;
    mpfr_t a, b;
    for (int ip = 0; ip < NPRECS; ip++) {
        mpfr_prec_t p = precs[ip];
        mpfr_inits2(p, a, b, (mpfr_ptr)0);
        for (int i = 0; i < 6000; i++, trial++) {
            /* exponents apart by 0, a few, about p, about the window
               (64 (n + 1)), or far */
            long d, kind = (long)n_randint(st, 5);
            if (kind == 0)
                d = 0;
            else if (kind == 1)
                d = (long)n_randint(st, 4);
            else if (kind == 2)
                d = p - 3 + (long)n_randint(st, 7);
            else if (kind == 3)
                d = (long)n_randint(st, 400);
            else
                d = 64 * ((p + 63) / 64 + 1) - 3 + (long)n_randint(st, 7);
            long ea = (long)n_randint(st, 200) - 100;
            mpfr_prec_t ka = 1 + (mpfr_prec_t)n_randint(st, (ulong)p),
                        kb = 1 + (mpfr_prec_t)n_randint(st, (ulong)p);
            if (n_randint(st, 2))
                ka = p;
            random_num(a, st, ka, ea);
            random_num(b, st, kb, n_randint(st, 2) ? ea - d : ea + d);
            if (n_randint(st, 8) == 0) {
                /* b near +-a: an ulp or a few apart, or equal */
                mpfr_set(b, a, MPFR_RNDN);
                for (int k = (int)n_randint(st, 4); k > 0; k--)
                    mpfr_nextabove(b);
                if (n_randint(st, 2))
                    mpfr_neg(b, b, MPFR_RNDN);
            }
            int ok_p = p > 64 && p <= 256;
            for (int f = 0; f < 3; f++) {
                int dec = check_one(f, a, b, trial);
                eligible += ok_p;
                decided += dec;
                cr_assert(ok_p || !dec, "decided at %ld bits", (long)p);
            }
        }
        mpfr_clears(a, b, (mpfr_ptr)0);
    }
    /* only zero differences are left to MPFR in range */
    cr_log_info("decided %ld of %ld", decided, eligible);
    cr_assert(decided > eligible * 95 / 100, "decided %ld of %ld", decided,
              eligible);
    flint_randclear(st);
}

Test(farith, special_values_and_mixed_precisions)
{
    mpfr_t a, b, c;
    mpfr_inits2(170, a, b, (mpfr_ptr)0);
    mpfr_init2(c, 100);
    mpfr_set_d(c, 1.5, MPFR_RNDN);
    long trial = 0;
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++, trial++) {
            mpfr_ptr v[2] = {a, b};
            int k[2] = {i, j};
            for (int m = 0; m < 2; m++) {
                switch (k[m]) {
                case 0:
                    mpfr_set_zero(v[m], 1);
                    break;
                case 1:
                    mpfr_set_zero(v[m], -1);
                    break;
                case 2:
                    mpfr_set_inf(v[m], m ? -1 : 1);
                    break;
                case 3:
                    mpfr_set_nan(v[m]);
                    break;
                case 4:
                    mpfr_set_d(v[m], m ? -2.75 : 0.3, MPFR_RNDN);
                    break;
                default:
                    mpfr_set_d(v[m], 0.3, MPFR_RNDN);
                    break;
                }
            }
            for (int f = 0; f < 3; f++)
                check_one(f, a, b, trial);
        }
    }
    /* operands of another precision than r: MPFR's */
    hdo_erange er;
    hdo_erange_get(&er);
    mpfr_set_d(a, 0.1, MPFR_RNDN);
    for (int f = 0; f < 3; f++) {
        mpfr_t r, want;
        mpfr_inits2(170, r, want, (mpfr_ptr)0);
        cr_assert(limbs[f](r, a, c, &er) == 1);
        rn[f](r, a, c, &er);
        ref[f](want, a, c, MPFR_RNDN);
        expect_same(f, r, want, a, c, -1);
        mpfr_clears(r, want, (mpfr_ptr)0);
    }
    mpfr_clears(a, b, c, (mpfr_ptr)0);
}

Test(farith, exponent_range_ends)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    cr_assert(mpfr_set_emin(-100) == 0 && mpfr_set_emax(100) == 0);
    flint_rand_t st;
    flint_randinit(st);
    mpfr_t a, b, r, want;
    mpfr_inits2(170, a, b, r, want, (mpfr_ptr)0);
    long trial = 0;
    for (int i = 0; i < 20000; i++, trial++) {
        long ea = (long)n_randint(st, 201) - 100;
        long eb = n_randint(st, 2) ? ea - (long)n_randint(st, 3)
                                   : (long)n_randint(st, 201) - 100;
        if (eb < -100)
            eb = -100;
        random_num(a, st, n_randint(st, 2) ? 170 : 1 + n_randint(st, 170), ea);
        random_num(b, st, 170, eb);
        for (int f = 0; f < 3; f++) {
            hdo_erange er;
            hdo_erange_get(&er);
            mpfr_clear_flags();
            int inex = ref[f](want, a, b, MPFR_RNDN);
            (void)inex;
            int ov = mpfr_overflow_p(), un = mpfr_underflow_p();
            mpfr_clear_flags();
            rn[f](r, a, b, &er);
            expect_same(f, r, want, a, b, trial);
            /* overflow and underflow are MPFR's, so are their flags */
            cr_assert(mpfr_overflow_p() == ov && mpfr_underflow_p() == un,
                      "trial %ld %s: flags", trial, name[f]);
        }
    }
    mpfr_clears(a, b, r, want, (mpfr_ptr)0);
    flint_randclear(st);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
}
