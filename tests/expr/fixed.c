/* fixed.c -- hdo_exp_rn, hdo_sin_rn and hdo_cos_rn (ref/expr/fexp.c,
 * fsin.c) against mpfr_exp, mpfr_sin and mpfr_cos to the bit: random
 * arguments at the precisions of the fixed-point widths and past them,
 * arguments whose result lies next to a midpoint of two results, sin and
 * cos next to their zeros, exp's results out of MPFR's exponent range */
#include <criterion/criterion.h>
#include "expr.h"

static const mpfr_prec_t precs[] = {2,   24,  53,  63,  64,  65,  87,
                                    88,  89,  100, 128, 133, 152, 153,
                                    170, 216, 217, 237, 280, 281, 300};
#define NPRECS ((int)(sizeof precs / sizeof precs[0]))

/* the functions: 0 exp, 1 sin, 2 cos; their inverses for the midpoints */
typedef int (*limbs_fn)(mpfr_ptr, mpfr_srcptr);
typedef void (*rn_fn)(mpfr_ptr, mpfr_srcptr);
typedef int (*mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
static const limbs_fn limbs[3] = {hdo_exp_rn_limbs, hdo_sin_rn_limbs,
                                  hdo_cos_rn_limbs};
static const rn_fn rn[3] = {hdo_exp_rn, hdo_sin_rn, hdo_cos_rn};
static const mpfr_fn ref[3] = {mpfr_exp, mpfr_sin, mpfr_cos};
static const mpfr_fn inverse[3] = {mpfr_log, mpfr_asin, mpfr_acos};
static const char *const name[3] = {"exp", "sin", "cos"};

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
expect_same(int f, mpfr_srcptr r, mpfr_srcptr want, mpfr_srcptr x, long trial)
{
    if (mpfr_equal_p(r, want) && mpfr_signbit(r) == mpfr_signbit(want))
        return;
    char buf[1200];
    mpfr_snprintf(buf, sizeof buf,
                  "trial %ld: %s(%Ra) (%ld bits) at %ld bits: %Ra, mpfr %Ra",
                  trial, name[f], x, (long)mpfr_get_prec(x),
                  (long)mpfr_get_prec(r), r, want);
    cr_assert_fail("%s", buf);
}

/* f(x) by the limbs' path (when it decides) and by hdo_*_rn (r aliased
   with x when `alias` and x is of r's precision), each against MPFR.
   Returns 1 when the limbs' path decided. */
static int
check_one(int f, mpfr_t r, mpfr_srcptr x, int alias, long trial)
{
    mpfr_t want;
    mpfr_init2(want, mpfr_get_prec(r));
    ref[f](want, x, MPFR_RNDN);
    int decided = limbs[f](r, x) == 0;
    if (decided)
        expect_same(f, r, want, x, trial);
    if (alias && mpfr_get_prec(x) == mpfr_get_prec(r)) {
        mpfr_t y;
        mpfr_init2(y, mpfr_get_prec(x));
        mpfr_set(y, x, MPFR_RNDN);
        rn[f](y, y);
        expect_same(f, y, want, x, trial);
        mpfr_clear(y);
    } else {
        rn[f](r, x);
        expect_same(f, r, want, x, trial);
    }
    mpfr_clear(want);
    return decided;
}

/* Random arguments from 2^-200 to 2^13 (the limbs' path to 2^11), of
   the result's precision or another, aliased in a fifth: every bit
   MPFR's, and the limbs' path decides nearly all those from 2^-5 up
   that it takes (refused: exp(x) = 1 + x + x^2/2 for a tiny x of few
   bits can lie within x^2 of a midpoint, 2 of 89,442; sin and cos
   near their zeros). */
Test(expr_fixed, rn_is_mpfr)
{
    flint_rand_t st;
    flint_randinit(st);
    long taken[3] = {0}, decided[3] = {0};
    for (long trial = 0; trial < 150000; trial++) {
        int f = (int)(trial % 3);
        mpfr_prec_t p = precs[n_randint(st, NPRECS)];
        mpfr_prec_t px = n_randint(st, 3) ? p : precs[n_randint(st, NPRECS)];
        mpfr_t x, r;
        mpfr_init2(r, p);
        mpfr_init2(x, px);
        long lo = n_randint(st, 8) == 0 ? -200 : -4;
        random_arg(x, st, lo, n_randint(st, 8) == 0 ? 13 : 11);
        int in = mpfr_get_exp(x) <= 11 && mpfr_get_exp(x) >= -4 && p <= 280;
        int d = check_one(f, r, x, n_randint(st, 5) == 0, trial);
        taken[f] += in;
        decided[f] += in && d;
        mpfr_clears(x, r, (mpfr_ptr)0);
    }
    for (int f = 0; f < 3; f++) {
        cr_expect(taken[f] > 25000, "%s: %ld in range", name[f], taken[f]);
        cr_expect(decided[f] > taken[f] - taken[f] / 200,
                  "%s: %ld of %ld decided", name[f], decided[f], taken[f]);
    }
    flint_randclear(st);
}

/* x = log(m), asin(m) or acos(m) at 200 to 600 bits, m the midpoint of
   two p-bit numbers (in (0, 1) for asin and acos): f(x) is within about
   2^-190 of it, closer than the limbs' error, which must then leave it
   to MPFR (a path that decided from its value alone rounds about half
   of these the wrong way); and for sin and cos, x next to a multiple of
   pi/2, a result near zero. */
Test(expr_fixed, rn_near_midpoints_and_zeros)
{
    flint_rand_t st;
    flint_randinit(st);
    long refused = 0, midpoints = 0;
    for (long trial = 0; trial < 30000; trial++) {
        int f = (int)(trial % 3);
        mpfr_prec_t p = precs[n_randint(st, NPRECS - 2)];
        mpfr_t m, h, x, r;
        mpfr_init2(r, p);
        mpfr_inits2(p + 1, m, h, (mpfr_ptr)0);
        mpfr_init2(x, 200 + (mpfr_prec_t)n_randint(st, 400));
        int zero = f > 0 && n_randint(st, 4) == 0;
        if (zero) { /* next to k pi/2 */
            mpfr_const_pi(x, MPFR_RNDN);
            mpfr_mul_si(x, x, (long)n_randint(st, 2000) - 1000, MPFR_RNDN);
            mpfr_div_2ui(x, x, 1, MPFR_RNDN);
            mpfr_prec_round(x, p + (mpfr_prec_t)n_randint(st, 80), MPFR_RNDN);
        } else {
            random_arg(m, st, f == 0 ? -14 : -12, f == 0 ? 14 : -1);
            mpfr_abs(m, m, MPFR_RNDN);
            mpfr_set_ui_2exp(h, 1, mpfr_get_exp(m) - p - 1, MPFR_RNDN);
            if (mpfr_min_prec(m) <= p)
                mpfr_add(m, m, h, MPFR_RNDN); /* m's last bit set */
            inverse[f](x, m, MPFR_RNDN);
        }
        int d = check_one(f, r, x, 0, trial);
        midpoints += !zero;
        refused += !zero && !d;
        mpfr_clears(m, h, x, r, (mpfr_ptr)0);
    }
    /* nearly all (exp's whose log is 0 or past 2^11 excepted) */
    cr_expect(refused > midpoints * 9 / 10, "%ld refused of %ld midpoints",
              refused, midpoints);
    flint_randclear(st);
}

/* Results past MPFR's exponent range go to mpfr_exp: its infinity or
   zero and its overflow or underflow flag. */
Test(expr_fixed, exp_rn_out_of_range)
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
