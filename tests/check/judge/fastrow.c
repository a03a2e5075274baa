/* fastrow.c -- unit tests of hdo check's double-double evaluation of the
 * reference (hdo_dd_horner, docs/decisions.md D-096): the double it
 * returns is the one the working-precision Horner rounds to, checked
 * against MPFR at 4,000 bits; values it cannot prove are refused. */
#include <math.h>
#include <criterion/criterion.h>
#include "check.h"
#include "expr.h"

#define WPREC 133 /* hdo run -d 30 */
#define MAXLEN 50

/* x as a double-double, as the check converts it. */
static void
to_dd(double *hi, double *lo, mpfr_srcptr x)
{
    mpfr_t r;
    mpfr_init2(r, mpfr_get_prec(x) + 64);
    *hi = mpfr_get_d(x, MPFR_RNDN);
    mpfr_sub_d(r, x, *hi, MPFR_RNDN);
    *lo = mpfr_get_d(r, MPFR_RNDN);
    mpfr_clear(r);
}

/* hdo_dd_horner on c[0..len) at s, the coefficients and s converted. */
static int
dd_eval(double *out, const mpfr_t *c, slong len, mpfr_srcptr s)
{
    double ch[MAXLEN], cl[MAXLEN], sh, sl;
    for (slong k = 0; k < len; k++)
        to_dd(ch + k, cl + k, c[k]);
    to_dd(&sh, &sl, s);
    return hdo_dd_horner(out, ch, cl, len, sh, sl, WPREC);
}

/* The double nearest the value of the polynomial at s, computed at 4,000
   bits (exact for these inputs: 50 coefficients of 133 bits, s of 133
   bits, need under 50 * 133 + 133 bits), and the double of the
   working-precision Horner (the run's evaluation). */
static void
mpfr_values(double *exact, double *working, const mpfr_t *c, slong len,
            mpfr_srcptr s)
{
    mpfr_t acc, out;
    mpfr_inits2(4000, acc, out, (mpfr_ptr)0);
    mpfr_set(acc, c[len - 1], MPFR_RNDN);
    for (slong k = len - 2; k >= 0; k--)
        mpfr_fma(acc, acc, s, c[k], MPFR_RNDN);
    *exact = mpfr_get_d(acc, MPFR_RNDN);
    mpfr_set_prec(acc, WPREC);
    mpfr_set_prec(out, WPREC);
    hdo_horner_rn(out, c, len, s, acc);
    *working = mpfr_get_d(out, MPFR_RNDN);
    mpfr_clears(acc, out, (mpfr_ptr)0);
}

/* Taylor-like polynomials (coefficients falling like r^-k, signs mixed,
   s up to the radius's half): nearly every value is proven, and each
   proven double is the working precision's and the exact value's. */
Test(fastrow, taken_values_are_the_working_precisions)
{
    gmp_randstate_t rs;
    mpfr_t c[MAXLEN], s, x;
    int taken = 0, n = 2000;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 26);
    for (int k = 0; k < MAXLEN; k++)
        mpfr_init2(c[k], WPREC);
    mpfr_inits2(WPREC, s, x, (mpfr_ptr)0);
    for (int trial = 0; trial < n; trial++) {
        slong len = 2 + trial % (MAXLEN - 1);
        double r = 0.01 + (trial % 7), d, exact, working;
        for (slong k = 0; k < len; k++) {
            mpfr_urandomb(x, rs);
            mpfr_sub_d(x, x, 0.5, MPFR_RNDN);
            mpfr_mul_d(c[k], x, pow(r, -(double)k) * (1 + trial % 3),
                       MPFR_RNDN);
        }
        mpfr_urandomb(s, rs);
        mpfr_mul_d(s, s, r / 2, MPFR_RNDN);
        mpfr_values(&exact, &working, (const mpfr_t *)c, len, s);
        if (!dd_eval(&d, (const mpfr_t *)c, len, s))
            continue;
        taken++;
        cr_assert(d == exact && d == working,
                  "trial %d: %.17g, exact %.17g, working %.17g", trial, d,
                  exact, working);
    }
    /* refused only within the bound of a rounding boundary */
    cr_assert_geq(taken, n - 5, "%d of %d taken", taken, n);
    for (int k = 0; k < MAXLEN; k++)
        mpfr_clear(c[k]);
    mpfr_clears(s, x, (mpfr_ptr)0);
    gmp_randclear(rs);
}

/* A value just above the midpoint of 1 and 1 + 2^-52.  2^-150 above it:
   the exact value rounds up, but the working precision (133 bits) lands
   on the tie and rounds to even, down: a double path must not answer
   here, and it refuses.  2^-120 above: both round up, and the
   double-double value is as close to the tie as its bound: refused
   too.  2^-70 above: taken, and up. */
Test(fastrow, near_a_tie_refused_then_taken)
{
    mpfr_t c[2], s;
    double d, exact, working;
    mpfr_inits2(WPREC, c[0], c[1], s, (mpfr_ptr)0);
    mpfr_set_ui_2exp(c[0], 1, -53, MPFR_RNDN);
    mpfr_add_ui(c[0], c[0], 1, MPFR_RNDN); /* 1 + 2^-53, exact */
    mpfr_set_ui_2exp(c[1], 1, -150, MPFR_RNDN);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_values(&exact, &working, (const mpfr_t *)c, 2, s);
    cr_assert_eq(exact, 1 + 0x1p-52);
    cr_assert_eq(working, 1);
    d = -1;
    cr_assert_eq(dd_eval(&d, (const mpfr_t *)c, 2, s), 0);
    cr_assert_eq(d, -1); /* untouched */
    mpfr_set_ui_2exp(c[1], 1, -120, MPFR_RNDN);
    mpfr_values(&exact, &working, (const mpfr_t *)c, 2, s);
    cr_assert_eq(exact, 1 + 0x1p-52);
    cr_assert_eq(working, 1 + 0x1p-52);
    cr_assert_eq(dd_eval(&d, (const mpfr_t *)c, 2, s), 0);
    mpfr_set_ui_2exp(c[1], 1, -70, MPFR_RNDN);
    cr_assert_eq(dd_eval(&d, (const mpfr_t *)c, 2, s), 1);
    cr_assert_eq(d, 1 + 0x1p-52);
    mpfr_clears(c[0], c[1], s, (mpfr_ptr)0);
}

/* Cancellation: 2^-80 + 3 s - 9 s^2 at s = 1/3 (to 133 bits): the value,
   about 2^-80, is far below what the double-double steps round (2^-106
   of 1 is 2^26 of its ulp): refused.  The zero polynomial (every
   coefficient +0) is taken, +0 as the working precision's; one with a
   -0 coefficient is refused (the zero's sign is the rounding's). */
Test(fastrow, cancellation_refused_zero_taken)
{
    mpfr_t c[3], s;
    double d = -1, exact, working;
    mpfr_inits2(WPREC, c[0], c[1], c[2], s, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_div_ui(s, s, 3, MPFR_RNDN);
    mpfr_set_ui_2exp(c[0], 1, -80, MPFR_RNDN);
    mpfr_set_si(c[1], 3, MPFR_RNDN);  /* 3 s = 1 */
    mpfr_set_si(c[2], -9, MPFR_RNDN); /* -9 s^2 = -1 */
    mpfr_values(&exact, &working, (const mpfr_t *)c, 3, s);
    cr_assert(fabs(exact - 0x1p-80) < 0x1p-120, "%g", exact);
    cr_assert_eq(dd_eval(&d, (const mpfr_t *)c, 3, s), 0);
    cr_assert_eq(d, -1);
    mpfr_set_zero(c[0], 1);
    mpfr_set_zero(c[1], 1);
    mpfr_set_zero(c[2], 1);
    mpfr_values(&exact, &working, (const mpfr_t *)c, 3, s);
    cr_assert(working == 0 && !signbit(working));
    cr_assert_eq(dd_eval(&d, (const mpfr_t *)c, 3, s), 1);
    cr_assert(d == 0 && !signbit(d));
    mpfr_set_zero(c[1], -1);
    d = -1;
    cr_assert_eq(dd_eval(&d, (const mpfr_t *)c, 3, s), 0);
    cr_assert_eq(d, -1);
    mpfr_clears(c[0], c[1], c[2], s, (mpfr_ptr)0);
}

/* A working precision of 40 bits: its own rounding is far above the
   double's, so no double of it can be proven from the polynomial: every
   value is refused (and left to the working precision), although the
   double-double value is far more accurate than the working one. */
Test(fastrow, low_working_precision)
{
    mpfr_t c[3], s;
    double ch[3], cl[3], sh, sl, d;
    int taken = 0;
    mpfr_inits2(40, c[0], c[1], c[2], s, (mpfr_ptr)0);
    for (int trial = 1; trial < 200; trial++) {
        mpfr_set_ui(c[0], 1, MPFR_RNDN);
        mpfr_div_ui(c[0], c[0], (unsigned long)trial + 2, MPFR_RNDN);
        mpfr_set_si(c[1], -trial, MPFR_RNDN);
        mpfr_div_ui(c[2], c[0], 7, MPFR_RNDN);
        mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_div_ui(s, s, (unsigned long)trial * 5 + 1, MPFR_RNDN);
        for (int k = 0; k < 3; k++)
            to_dd(ch + k, cl + k, c[k]);
        to_dd(&sh, &sl, s);
        taken += hdo_dd_horner(&d, ch, cl, 3, sh, sl, 40);
        /* the same with 133 bits: proven */
        cr_assert_eq(hdo_dd_horner(&d, ch, cl, 3, sh, sl, WPREC), 1);
    }
    cr_assert_eq(taken, 0);
    mpfr_clears(c[0], c[1], c[2], s, (mpfr_ptr)0);
}
