/* unknown_error.c -- tests of hdo_reduced_unknown_error: the error of an
 * algebraic unknown from the states' errors through h (decisions.md
 * D-124), on a linear constraint, a value of 1e-30 and the pendulum's
 * force */
#include <math.h>
#include <stdlib.h>
#include "util.h"

#define PREC 132 /* 30 digits and guard bits */

/* Reduces mode 0 of text, asserting nimplicit unknowns. */
static void
reduce_text(hdo_model_t model, hdo_reduced_t r, const char *text,
            slong nimplicit)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    tm_parse(model, text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    cr_assert_eq(r->nimplicit, nimplicit);
}

static slong
state_of(const hdo_reduced_t r, hdo_model_t model, const char *name)
{
    slong v = tm_var(model, name);
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == v && r->state[i].order == 0)
            return i;
    cr_assert_fail("no state %s", name);
    return -1;
}

/* The point and radii of a test: ns states, one unknown. */
typedef struct {
    slong ns;
    mpfr_ptr xs, xu, srad, urad;
} point;

static void
point_init(point *p, slong ns)
{
    p->ns = ns;
    p->xs = hdo_vec_init(ns, PREC);
    p->xu = hdo_vec_init(1, PREC);
    p->srad = hdo_vec_init(ns, 64);
    p->urad = hdo_vec_init(1, 64);
}

static void
point_clear(point *p)
{
    hdo_vec_clear(p->xs, p->ns);
    hdo_vec_clear(p->xu, 1);
    hdo_vec_clear(p->srad, p->ns);
    hdo_vec_clear(p->urad, 1);
}

/* 3 z = 2 x at x = 1 known to rho: z = 2/3 is known to 2 rho / 3, plus
   its own rounding; not less (the bound holds), not much more. */
Test(reduce_unknown_error, linear_constraint_carries_the_state_error)
{
    hdo_model_t model;
    hdo_reduced_t r;
    reduce_text(model, r,
                "model lin\nvar x = 1, z\nmode m\n  der(x) = -x\n"
                "  3*z = 2*x\nend\nstart m\n",
                1);
    point P;
    point_init(&P, 1);
    mpfr_ptr xs = P.xs, xu = P.xu, srad = P.srad, urad = P.urad;
    mpfr_t t, trad, lo;
    mpfr_inits2(64, t, trad, lo, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    mpfr_set_zero(trad, 1);
    mpfr_set_ui(xs, 1, MPFR_RNDN);
    mpfr_set_ui(xu, 2, MPFR_RNDN);
    mpfr_div_ui(xu, xu, 3, MPFR_RNDN);
    for (int e = 10; e <= 40; e += 10) {
        mpfr_set_si_2exp(srad, 1, -3 * e, MPFR_RNDN); /* rho = 2^-3e */
        cr_assert_eq(hdo_reduced_unknown_error(urad, model, r, t, trad, xs,
                                               srad, xu, PREC),
                     0);
        mpfr_mul_ui(lo, srad, 2, MPFR_RNDN);
        mpfr_div_ui(lo, lo, 3, MPFR_RNDD);
        cr_expect(mpfr_cmp(urad, lo) >= 0, "urad %.6e below 2 rho / 3 %.6e",
                  mpfr_get_d(urad, MPFR_RNDN), mpfr_get_d(lo, MPFR_RNDN));
        /* 2 rho / 3 (1 + 2^-20: Arb's radii have 30 bits) plus z's rounding */
        mpfr_set_d(t, 1 + 0x1p-20, MPFR_RNDN);
        mpfr_mul(lo, lo, t, MPFR_RNDU);
        mpfr_set_zero(t, 1);
        mpfr_set_si_2exp(trad, 1, 2 - PREC, MPFR_RNDN);
        mpfr_add(lo, lo, trad, MPFR_RNDU);
        mpfr_set_zero(trad, 1);
        cr_expect(mpfr_cmp(urad, lo) <= 0, "urad %.6e above %.6e",
                  mpfr_get_d(urad, MPFR_RNDN), mpfr_get_d(lo, MPFR_RNDN));
    }
    mpfr_clears(t, trad, lo, (mpfr_ptr)0);
    point_clear(&P);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* z = 1e-30 - x + 1e20 x^2 at x = 0 exactly (srad 0): z = 1e-30 is known
   to its own rounding, far below itself: it is no zero (the defect of
   D-016's rule, tol times z's size over a step of 1, was 1e-30 at 30
   digits: z's value was within it).  With x known to 1e-40, z to about
   1e-40. */
Test(reduce_unknown_error, a_value_of_1e_30_is_known_to_its_digits)
{
    hdo_model_t model;
    hdo_reduced_t r;
    reduce_text(model, r,
                "model tiny\nvar x = 0, z\nmode m\n  der(x) = 1\n"
                "  z = 1e-30 - x + 1e20*x^2\nend\nstart m\n",
                1);
    point P;
    point_init(&P, 1);
    mpfr_ptr xs = P.xs, xu = P.xu, srad = P.srad, urad = P.urad;
    mpfr_t t, lim;
    mpfr_inits2(64, t, lim, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    mpfr_set_zero(xs, 1);
    mpfr_set_str(xu, "1e-30", 10, MPFR_RNDN);
    mpfr_set_zero(srad, 1);
    cr_assert_eq(
        hdo_reduced_unknown_error(urad, model, r, t, t, xs, srad, xu, PREC), 0);
    mpfr_set_str(lim, "1e-65", 10, MPFR_RNDN);
    cr_expect(mpfr_cmp(urad, lim) <= 0, "z's error %.3e at x exact",
              mpfr_get_d(urad, MPFR_RNDN));
    mpfr_set_str(srad, "1e-40", 10, MPFR_RNDN);
    cr_assert_eq(
        hdo_reduced_unknown_error(urad, model, r, t, t, xs, srad, xu, PREC), 0);
    mpfr_set_str(lim, "0.99e-40", 10, MPFR_RNDN);
    cr_expect(mpfr_cmp(urad, lim) >= 0, "z's error %.3e below x's",
              mpfr_get_d(urad, MPFR_RNDN));
    mpfr_set_str(lim, "1.01e-40", 10, MPFR_RNDN);
    cr_expect(mpfr_cmp(urad, lim) <= 0, "z's error %.3e above x's",
              mpfr_get_d(urad, MPFR_RNDN));
    mpfr_clears(t, lim, (mpfr_ptr)0);
    point_clear(&P);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* lambda = (vx^2 + vy^2 - g y) / (x^2 + y^2) at the rope's start (1, 0),
   (0, v0), v0 = 1e-60 (lambda = 1e-120), each state known to 1e-30 of
   itself: the bound holds the largest change of lambda over the corners
   of the states' box (the closed form at 200 bits) and is within 4 of
   it. */
Test(reduce_unknown_error, pendulum_force_against_its_closed_form)
{
    hdo_model_t model;
    hdo_reduced_t r;
    reduce_text(model, r, ru_pendulum_text, 1);
    const char *names[4] = {"x", "y", "vx", "vy"};
    const char *vals[4] = {"1", "0", "0", "1e-60"};
    slong S[4];
    point P;
    point_init(&P, 4);
    mpfr_ptr xs = P.xs, xu = P.xu, srad = P.srad, urad = P.urad;
    mpfr_t t, lam, a, b, worst;
    mpfr_inits2(200, t, lam, a, b, worst, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    for (int i = 0; i < 4; i++) {
        S[i] = state_of(r, model, names[i]);
        mpfr_set_str(xs + S[i], vals[i], 10, MPFR_RNDN);
        mpfr_set_str(srad + S[i], "1e-30", 10, MPFR_RNDN);
        mpfr_mul(srad + S[i], srad + S[i], xs + S[i], MPFR_RNDU);
        mpfr_abs(srad + S[i], srad + S[i], MPFR_RNDU);
    }
    mpfr_set_str(xu, "1e-120", 10, MPFR_RNDN);
    cr_assert_eq(
        hdo_reduced_unknown_error(urad, model, r, t, t, xs, srad, xu, PREC), 0);
    /* the closed form at the corners */
    mpfr_set_zero(worst, 1);
    for (int c = 0; c < 16; c++) {
        mpfr_t p[4];
        for (int i = 0; i < 4; i++) {
            mpfr_init2(p[i], 200);
            mpfr_set(p[i], xs + S[i], MPFR_RNDN);
            if (c >> i & 1)
                mpfr_add(p[i], p[i], srad + S[i], MPFR_RNDN);
            else
                mpfr_sub(p[i], p[i], srad + S[i], MPFR_RNDN);
        }
        mpfr_sqr(a, p[2], MPFR_RNDN);
        mpfr_fma(a, p[3], p[3], a, MPFR_RNDN);
        mpfr_set_str(b, "9.81", 10, MPFR_RNDN);
        mpfr_mul(b, b, p[1], MPFR_RNDN);
        mpfr_sub(lam, a, b, MPFR_RNDN);
        mpfr_sqr(a, p[0], MPFR_RNDN);
        mpfr_fma(a, p[1], p[1], a, MPFR_RNDN);
        mpfr_div(lam, lam, a, MPFR_RNDN);
        mpfr_sub(lam, lam, xu, MPFR_RNDN);
        mpfr_abs(lam, lam, MPFR_RNDN);
        mpfr_max(worst, worst, lam, MPFR_RNDN);
        for (int i = 0; i < 4; i++)
            mpfr_clear(p[i]);
    }
    cr_expect(mpfr_cmp(urad, worst) >= 0, "bound %.3e below the change %.3e",
              mpfr_get_d(urad, MPFR_RNDN), mpfr_get_d(worst, MPFR_RNDN));
    mpfr_mul_ui(worst, worst, 4, MPFR_RNDN);
    cr_expect(mpfr_cmp(urad, worst) <= 0, "bound %.3e above 4 times %.3e",
              mpfr_get_d(urad, MPFR_RNDN), mpfr_get_d(worst, MPFR_RNDN));
    mpfr_set_str(a, "1e-140", 10, MPFR_RNDN);
    cr_expect(mpfr_cmp(urad, a) <= 0, "lambda = 1e-120 known to %.3e",
              mpfr_get_d(urad, MPFR_RNDN));
    mpfr_clears(t, lam, a, b, worst, (mpfr_ptr)0);
    point_clear(&P);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}
