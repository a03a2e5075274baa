/* refine.c -- hdo_event_refine at every precision: the root of a guard's
   polynomial to its working precision, above the doubles' range too */
#include <criterion/criterion.h>
#include <flint/flint.h>
#include <flint/ulong_extras.h>
#include <math.h>
#include "event/series.h"
#include "linalg.h"

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

/* |x - r| <= 2^(4-prec) |r| + cond: the root r of c0 + c1 s + s^2 at
   prec + 200 (the quadratic formula, the root nearer 0, independent of
   refine), cond = 2^(2-prec) 4 (|c0| + |c1 r| + r^2) / |P'(r)| the
   rounding of P's evaluation at prec moved to the root (0 for a simple
   root far from a double one, as here except near_double_root). */
static void
check_quadratic_root(const mpfr_t x, mpfr_srcptr c, mpfr_prec_t prec,
                     const char *what)
{
    mpfr_t r, d, t, cond;
    mpfr_inits2(prec + 200, r, d, t, cond, (mpfr_ptr)0);
    mpfr_sqr(d, c + 1, MPFR_RNDN);
    mpfr_mul_2ui(t, c + 0, 2, MPFR_RNDN);
    mpfr_sub(d, d, t, MPFR_RNDN);
    mpfr_sqrt(d, d, MPFR_RNDN);
    /* r = 2 c0 / (-c1 + sqrt(c1^2 - 4 c0)): no cancellation for c1 < 0 */
    mpfr_sub(t, d, c + 1, MPFR_RNDN);
    mpfr_mul_2ui(r, c + 0, 1, MPFR_RNDN);
    mpfr_div(r, r, t, MPFR_RNDN);
    /* cond: terms' sum over |P'(r)| = |2 r + c1| */
    mpfr_mul(t, c + 1, r, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_abs(cond, c + 0, MPFR_RNDN);
    mpfr_add(cond, cond, t, MPFR_RNDN);
    mpfr_sqr(t, r, MPFR_RNDN);
    mpfr_add(cond, cond, t, MPFR_RNDN);
    mpfr_mul_2ui(t, r, 1, MPFR_RNDN);
    mpfr_add(t, t, c + 1, MPFR_RNDN);
    mpfr_div(cond, cond, t, MPFR_RNDN);
    mpfr_abs(cond, cond, MPFR_RNDN);
    mpfr_mul_2si(cond, cond, 4 - (long)prec, MPFR_RNDN);
    mpfr_mul_2si(t, r, 4 - (long)prec, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_add(cond, cond, t, MPFR_RNDN);
    mpfr_sub(d, x, r, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_div(t, d, r, MPFR_RNDN);
    cr_assert(mpfr_cmp(d, cond) <= 0,
              "%s, prec %ld: the root %.6e is off by %.3e relative", what,
              (long)prec, mpfr_get_d(r, MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
    mpfr_clears(r, d, t, cond, (mpfr_ptr)0);
}

/* refine on (s - r)(s - k r) = r k r - (1 + k) r s + s^2 (r > 0, k > 1),
   bracket [0, r (1 + k) / 2], step H; *tr what it took. */
static void
refine_quadratic(mpfr_t x, mpfr_ptr c, const mpfr_t r, double k, const mpfr_t H,
                 mpfr_prec_t prec, hdo_event_refine_trace *tr)
{
    mpfr_t a, b;
    mpfr_inits2(prec, a, b, (mpfr_ptr)0);
    for (int i = 0; i < 3; i++)
        mpfr_init2(c + i, prec);
    mpfr_sqr(c + 0, r, MPFR_RNDN);
    mpfr_mul_d(c + 0, c + 0, k, MPFR_RNDN);
    mpfr_mul_d(c + 1, r, -(1 + k), MPFR_RNDN);
    mpfr_set_ui(c + 2, 1, MPFR_RNDN);
    mpfr_set_ui(a, 0, MPFR_RNDN);
    mpfr_mul_d(b, r, (1 + k) / 2, MPFR_RNDN);
    hdo_event_refine_traced(x, c, 3, a, b, H, prec, NULL, 0, tr);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* The stop is relative to the root, not to the step (decisions.md
   D-106; the scale rule: a value of 1e-30 has D significant digits as a
   value of 1 does): roots at 1e-30, 1e-300 and 2^-9 and 2^-7 of H (the
   two sides of the former "near" rule |x / H| >= 2^-8, below which the
   step of P alone was not taken: eps relative to H gave it too few
   digits), each to 2^(4-prec) of itself, at 30, 60 and 300 digits (133,
   233, 1000 bits).  With the stop relative to H (eps = 2^(2-prec) H, as
   up to D-106) the root at 1e-300 is off by half of itself at 133 and
   233 bits (the bracket below eps) and by 5e-33 at 1000 bits, the root
   at 1e-30 by 5e-49 at 233 bits (cq du^2 below 2^(1-prec) H after one
   step). */
Test(event_refine, root_far_below_the_step_to_its_own_digits)
{
    static const mpfr_prec_t precs[] = {133, 233, 1000};
    static const char *roots[] = {"1e-30", "1e-300", "0x1.3p-9", "0x1.3p-7"};
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++)
        for (size_t j = 0; j < sizeof roots / sizeof roots[0]; j++) {
            mpfr_prec_t prec = precs[i];
            mpfr_ptr c = flint_malloc(3 * sizeof(__mpfr_struct));
            mpfr_t r, H, x;
            hdo_event_refine_trace tr;
            mpfr_inits2(prec, r, H, x, (mpfr_ptr)0);
            mpfr_set_str(r, roots[j], 0, MPFR_RNDN);
            mpfr_set_ui(H, 1, MPFR_RNDN);
            refine_quadratic(x, c, r, 3.0, H, prec, &tr);
            check_quadratic_root(x, c, prec, roots[j]);
            for (int k = 0; k < 3; k++)
                mpfr_clear(c + k);
            flint_free(c);
            mpfr_clears(r, H, x, (mpfr_ptr)0);
        }
}

/* The step of P alone (P' from the doubles) is taken when the bound rho
   of P''s relative error is at most 2^-20: near a double root, (s - r1)
   (s - r1 - d) with d about 2^-19, rho (cq |du| of the double-double
   polish) falls on either side of it.  Two such roots, found by a scan
   of r1 and d: rho 2^-20 (1 + 2^-9.6) above, taken with P and P' at the
   working precision; 2^-20 (1 - 2^-12.8) below, taken with P alone.
   Both to the root's digits (within the rounding of P there, amplified
   by 1/d).  A threshold moved by a factor 1.002 either way fails. */
Test(event_refine, p_alone_on_both_sides_of_rho_two_to_minus_20)
{
    static const struct {
        double r1, d;
        int alone;
    } cases[] = {{0x1.222ab52111223p-2, 0x1.19p-18, 0},
                 {0x1.1f3f6fdea4e54p-2, 0x1.d64p-19, 1}};
    mpfr_prec_t prec = 133;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpfr_ptr c = flint_malloc(3 * sizeof(__mpfr_struct));
        mpfr_t a, b, H, x, r2;
        hdo_event_refine_trace tr;
        for (int k = 0; k < 3; k++)
            mpfr_init2(c + k, prec);
        mpfr_inits2(prec, a, b, H, x, r2, (mpfr_ptr)0);
        mpfr_set_d(r2, cases[i].r1, MPFR_RNDN);
        mpfr_add_d(r2, r2, cases[i].d, MPFR_RNDN);
        mpfr_mul_d(c + 0, r2, cases[i].r1, MPFR_RNDN);
        mpfr_set_d(c + 1, -cases[i].r1, MPFR_RNDN);
        mpfr_sub(c + 1, c + 1, r2, MPFR_RNDN);
        mpfr_set_ui(c + 2, 1, MPFR_RNDN);
        mpfr_set_ui(a, 0, MPFR_RNDN);
        mpfr_set_d(b, cases[i].r1 + cases[i].d / 2, MPFR_RNDN);
        mpfr_set_ui(H, 1, MPFR_RNDN);
        hdo_event_refine_traced(x, c, 3, a, b, H, prec, NULL, 0, &tr);
        double lr = log2(tr.rho) + 20;
        cr_assert(fabs(lr) < 0x1p-9, "case %zu: rho = 2^(-20 + %g)", i, lr);
        cr_assert((lr > 0) == !cases[i].alone && tr.alone == cases[i].alone,
                  "case %zu: rho = 2^(-20 + %g), P alone %d", i, lr, tr.alone);
        check_quadratic_root(x, c, prec, "near a double root");
        for (int k = 0; k < 3; k++)
            mpfr_clear(c + k);
        flint_free(c);
        mpfr_clears(a, b, H, x, r2, (mpfr_ptr)0);
    }
}

/* hdo_get_d_2exp (the located series' doubles, D-116) against
   mpfr_get_d_2exp at RNDN: the same double and exponent at precisions
   of 1 to 7 limbs, for random significands and for the cases its sticky
   bit decides: a tie to even below the 53 bits with nothing, or
   something, in the lower limbs, and 53 ones rounded up to 1/2 with
   the next exponent.  One without the sticky bit, or without the carry
   to 1/2, fails here. */
Test(event_refine, get_d_2exp_as_mpfr)
{
    static const mpfr_prec_t precs[] = {53, 64, 65, 100, 133, 192, 300, 448};
    flint_rand_t rs;
    flint_randinit(rs);
    gmp_randstate_t gs;
    gmp_randinit_default(gs);
    int ties = 0, carries = 0;
    for (size_t i = 0; i < sizeof precs / sizeof *precs; i++) {
        mpfr_t x, lo;
        mpfr_inits2(precs[i], x, lo, (mpfr_ptr)0);
        for (int trial = 0; trial < 600; trial++) {
            int kind = (int)n_randint(rs, 4);
            mpfr_urandomb(x, gs);
            if (mpfr_zero_p(x))
                mpfr_set_ui(x, 1, MPFR_RNDN);
            if (kind == 1 || kind == 2) {
                /* 53 bits, then the rounding bit 1: a tie, or above one
                   when a bit far below (another limb) is set */
                mpfr_prec_round(x, 53, MPFR_RNDZ);
                mpfr_prec_round(x, precs[i], MPFR_RNDN);
                mpfr_set_ui_2exp(lo, 1, mpfr_get_exp(x) - 54, MPFR_RNDN);
                if (precs[i] > 54)
                    mpfr_add(x, x, lo, MPFR_RNDN);
                if (kind == 2 && precs[i] > 128) {
                    mpfr_set_ui_2exp(lo, 1,
                                     mpfr_get_exp(x) - (mpfr_exp_t)precs[i],
                                     MPFR_RNDN);
                    mpfr_add(x, x, lo, MPFR_RNDN);
                }
                ties++;
            } else if (kind == 3) {
                /* 1 - 2^-prec: every bit one, rounds up to 1/2 * 2 */
                mpfr_set_ui(x, 1, MPFR_RNDN);
                mpfr_nextbelow(x);
                carries++;
            }
            mpfr_mul_2si(x, x, (long)n_randint(rs, 4000) - 2000, MPFR_RNDN);
            if (n_randint(rs, 2))
                mpfr_neg(x, x, MPFR_RNDN);
            long e1, e2;
            double d1 = hdo_get_d_2exp(&e1, x);
            double d2 = mpfr_get_d_2exp(&e2, x, MPFR_RNDN);
            cr_assert(d1 == d2 && e1 == e2,
                      "prec %ld kind %d: %a 2^%ld "
                      "against %a 2^%ld",
                      (long)precs[i], kind, d1, e1, d2, e2);
        }
        mpfr_clears(x, lo, (mpfr_ptr)0);
    }
    cr_expect(ties > 500 && carries > 500);
    gmp_randclear(gs);
    flint_randclear(rs);
}
