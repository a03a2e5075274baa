/* fastrow.c -- unit tests of hdo check's double-double evaluation of the
 * reference (hdo_dd_horner, docs/decisions.md D-096): the double it
 * returns is the one the working-precision Horner rounds to, checked
 * against MPFR at 4,000 bits; values it cannot prove are refused. */
#include <math.h>
#include <string.h>
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

/* The reference of hdo check through hdo_run's dense_row hook: an
   oscillator x = cos t, y = -sin t and z = x y, an algebraic unknown,
   declared first (variables and states in different orders).  Every
   sample is the double nearest the closed form (MPFR at 200 bits; the
   run's own error, 1e-35, decides no rounding here), whichever path
   took it. */
static const char *osc_text = "model osc\n"
                              "var z\n"
                              "var x = 1, y = 0\n"
                              "mode m\n"
                              "  der(x) = y\n"
                              "  der(y) = -x\n"
                              "  z = x*y\n"
                              "end\n"
                              "start m at 0\n"
                              "until 2\n";

/* which 0: z = x y = -cos t sin t, 1: x = cos t, 2: y = -sin t, to the
   nearest double. */
static double
closed_form(int which, double t)
{
    mpfr_t c, sn;
    double r;
    mpfr_inits2(200, c, sn, (mpfr_ptr)0);
    mpfr_set_d(c, t, MPFR_RNDN);
    mpfr_sin_cos(sn, c, c, MPFR_RNDN);
    mpfr_neg(sn, sn, MPFR_RNDN); /* y */
    if (which == 0)
        mpfr_mul(c, c, sn, MPFR_RNDN);
    r = mpfr_get_d(which == 2 ? sn : c, MPFR_RNDN);
    mpfr_clears(c, sn, (mpfr_ptr)0);
    return r;
}

Test(fastrow, reference_rows_are_the_working_precisions)
{
    hdo_model_t model;
    hdo_refrun_t run;
    hdo_error_t err;
    double times[199];
    slong var[3];
    hdo_error_clear(&err);
    hdo_model_init(model);
    cr_assert_eq(hdo_model_parse_string(model, osc_text, strlen(osc_text),
                                        "osc.hdae", &err),
                 0, "%s", err.message);
    var[0] = hdo_model_find_var(model, "z");
    var[1] = hdo_model_find_var(model, "x");
    var[2] = hdo_model_find_var(model, "y");
    for (int k = 0; k < 199; k++)
        times[k] = 0.01 * (k + 1);
    for (int only_states = 0; only_states < 2; only_states++) {
        const slong *v = only_states ? var + 1 : var;
        slong nv = only_states ? 2 : 3;
        hdo_refrun_init(run);
        cr_assert_eq(hdo_refrun_compute(run, model, v, nv, times, 199, 2.0, 30,
                                        NULL, NULL, &err),
                     0, "%s", err.message);
        cr_assert_geq(run->n, 199);
        for (slong i = 0; i < run->n; i++)
            for (slong j = 0; j < nv; j++) {
                int which = only_states ? (int)j + 1 : (int)j;
                double want = closed_form(which, run->t[i]);
                cr_assert_eq(run->v[i * nv + j], want,
                             "t = %.17g, variable %d: %.17g, closed form "
                             "%.17g",
                             run->t[i], which, run->v[i * nv + j], want);
            }
        /* z is one of Taylor's lazy unknowns, solved at the point
           (decisions.md D-071): its rows are refused, whole, and taken
           at the working precision; x and y's are all proven */
        if (only_states)
            cr_assert_eq(run->rows_slow, 0, "%ld rows at the working precision",
                         (long)run->rows_slow);
        else
            cr_assert_eq(run->rows_fast, 0, "%ld rows in double-double",
                         (long)run->rows_fast);
        cr_assert_geq(run->rows_fast + run->rows_slow, 199);
        cr_log_info("variables %s: %ld rows in double-double, %ld at the "
                    "working precision",
                    only_states ? "x, y" : "z, x, y", (long)run->rows_fast,
                    (long)run->rows_slow);
        hdo_refrun_clear(run);
    }
    hdo_model_clear(model);
}
