/* kmform.c -- tests of the Kunkel-Mehrmann fallback (hdo_reduce_mode_km): a
 * mode whose structure lies, its run against the closed form, and the
 * cases the fallback refuses */
#include <math.h>
#include <stdlib.h>
#include "util.h"

/* x' - y' appears in both equations with proportional coefficients, so
   Pryce sees a transversal (index 0) while dF/dx' = [1 -1; 2 -2] is
   singular.  -2 (eq 1) + (eq 2) gives 0 = y - cos t, so y = cos t and
   u = x - y solves u' = -u: x = cos t + e^-t from x(0) = 2, y(0) = 1. */
static const char *lies_text =
    "model structure_lies\n"
    "var x = 2, y = 1\n"
    "mode m\n"
    "  der(x) - der(y) = -(x - y)\n"
    "  2*der(x) - 2*der(y) = -2*(x - y) + (y - cos(t))\n"
    "end\n"
    "start m at 0\n"
    "until 3\n";

Test(reduce, km_fallback_form_of_a_mode_whose_structure_lies)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    tm_parse(model, lies_text);
    hdo_reduced_init(r);
    /* Pryce's form: index 0, no constraint, dh/dx' singular everywhere */
    cr_assert_eq(hdo_reduce_mode(r, model, 0, &err), 0, "%s", err.message);
    cr_expect_eq(r->index, 0);
    cr_expect_eq(r->ncons, 0);
    cr_expect_eq(r->km_fallback, 0);
    /* the fallback: one algebraic combination, differentiated once */
    cr_assert_eq(hdo_reduce_mode_km(r, model, 0, &err), 0, "%s", err.message);
    cr_expect_eq(r->km_fallback, 1);
    cr_expect_eq(r->index, 1);
    cr_expect_eq(r->ncons, 1);
    cr_expect_eq(r->dof, 1);
    cr_assert_eq(r->cons_order[0], 0);
    /* the constraint is proportional to y - cos t, free of x: check it at
       points by an independent evaluation */
    slong x = tm_var(model, "x"), y = tm_var(model, "y");
    double ts[3] = {0, 0.7, 2.5}, ys[3] = {0.3, -1.2, 4}, ratio = NAN;
    for (int i = 0; i < 3; i++) {
        ru_point p;
        memset(&p, 0, sizeof p);
        p.val[0][x] = 17.0 * i - 3;
        p.val[0][y] = ys[i];
        double g = ru_eval(model, r->cons[0], ts[i], &p);
        double want = ys[i] - cos(ts[i]);
        if (i == 0)
            ratio = g / want;
        cr_expect(fabs(g - ratio * want) <= 1e-14 * fabs(ratio * want),
                  "constraint %g at t = %g, expected %g times %g", g, ts[i],
                  ratio, want);
    }
    cr_expect(ratio != 0 && isfinite(ratio));
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* The run falls back by itself (the consistent initialisation of Pryce's
   form reports the singular Jacobian) and matches the closed form to the
   digits asked, at 30 and 50 digits. */
static void
lies_run(long digits)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    mpfr_prec_t prec = (mpfr_prec_t)ceil((digits + 20) * 3.33);
    mpfr_t want, d, tol;
    tm_parse(model, lies_text);
    cr_assert_eq(tm_run(res, model, digits, "0.25", &err), 0, "%s",
                 err.message);
    cr_expect_eq(res->modes[0].km_fallback, 1);
    cr_expect_eq(res->modes[0].d, 1);
    cr_expect_eq(res->modes[0].a, 1);
    mpfr_inits2(prec, want, d, tol, (mpfr_ptr)0);
    mpfr_set_ui(tol, 10, MPFR_RNDN);
    mpfr_pow_si(tol, tol, -digits, MPFR_RNDN);
    slong x = tm_var(model, "x"), y = tm_var(model, "y");
    cr_assert_geq(res->nrows, 13);
    for (slong k = 0; k < res->nrows; k++) {
        const hdo_row *row = res->rows + k;
        mpfr_cos(want, row->time, MPFR_RNDN);
        mpfr_sub(d, row->values + y, want, MPFR_RNDN);
        cr_expect(mpfr_cmpabs(d, tol) < 0, "y at t = %g off by %g",
                  mpfr_get_d(row->time, MPFR_RNDN), mpfr_get_d(d, MPFR_RNDN));
        mpfr_neg(d, row->time, MPFR_RNDN);
        mpfr_exp(d, d, MPFR_RNDN);
        mpfr_add(want, want, d, MPFR_RNDN);
        mpfr_sub(d, row->values + x, want, MPFR_RNDN);
        cr_expect(mpfr_cmpabs(d, tol) < 0, "x at t = %g off by %g",
                  mpfr_get_d(row->time, MPFR_RNDN), mpfr_get_d(d, MPFR_RNDN));
    }
    mpfr_clears(want, d, tol, (mpfr_ptr)0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(reduce, km_fallback_run_closed_form_30_digits)
{
    lies_run(30);
}
Test(reduce, km_fallback_run_closed_form_50_digits)
{
    lies_run(50);
}

/* The fallback covers constant coefficients only: with x multiplying the
   derivatives of the second equation it refuses, and the run reports
   Pryce's singular Jacobian with the reason. */
Test(reduce, km_fallback_refuses_state_dependent_coefficients)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model varcoef\n"
                    "var x = 2, y = 1\n"
                    "mode m\n"
                    "  der(x) - der(y) = -(x - y)\n"
                    "  x*(der(x) - der(y)) = -x*(x - y) + (y - cos(t))\n"
                    "end\n"
                    "start m at 0\n"
                    "until 1\n");
    hdo_reduced_init(r);
    hdo_error_clear(&err);
    cr_expect_eq(hdo_reduce_mode_km(r, model, 0, &err), HDO_ERR_UNSUPPORTED);
    cr_expect(strstr(err.message, "is not a rational constant") != NULL, "%s",
              err.message);
    hdo_reduced_clear(r);
    hdo_error_clear(&err);
    cr_expect_eq(tm_run(res, model, 20, NULL, &err), HDO_ERR_SINGULAR);
    cr_expect(strstr(err.message, "is singular") != NULL &&
                  strstr(err.message, "fallback does not apply") != NULL,
              "%s", err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* A mode that Pryce reduces correctly has nothing for the fallback to
   do: its left null space holds only the algebraic equation. */
Test(reduce, km_fallback_refuses_when_nothing_changes)
{
    hdo_model_t model;
    hdo_reduced_t r;
    hdo_error_t err;
    tm_parse(model, ru_pendulum_text);
    hdo_reduced_init(r);
    hdo_error_clear(&err);
    cr_expect_eq(hdo_reduce_mode_km(r, model, 0, &err), HDO_ERR_UNSUPPORTED);
    cr_expect(strstr(err.message, "only the mode's algebraic") != NULL, "%s",
              err.message);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
}

/* "Numerically singular" is the LU pivot test of dh/dxu (linalg.h: a
   pivot below 2^(-floor(p/2)) max |a_ij| is singular) where the
   consistent initialisation starts Newton on h.  With the second row of
   dF/dx' = [1 -1; 2+e -2] the last pivot is about e/2: at 133 bits (30
   digits) the threshold is 2^-66 * (2 + e), so e = 2^-60 is a regular
   (if ill-conditioned) mode that Pryce's form handles, and e = 2^-70 is
   singular -- and not exactly so, so the fallback, which works on exact
   null spaces, does not apply either. */
static int
near_singular_init(const char *e, hdo_error_t *err)
{
    char text[600];
    hdo_model_t model;
    hdo_reduced_t r;
    mpfr_prec_t prec = 133;
    snprintf(text, sizeof text,
             "model near\n"
             "param e = %s\n"
             "var x = 2, y = 1\n"
             "mode m\n"
             "  der(x) - der(y) = -(x - y)\n"
             "  (2 + e)*der(x) - 2*der(y) = -2*(x - y) + (y - cos(t))\n"
             "end\n"
             "start m at 0\n"
             "until 1\n",
             e);
    tm_parse(model, text);
    hdo_reduced_init(r);
    cr_assert_eq(hdo_reduce_mode(r, model, 0, err), 0, "%s", err->message);
    mpfr_ptr xs = hdo_vec_init(r->nstate, prec), xu = hdo_vec_init(2, prec);
    int fixed[2] = {1, 1}, adjusted = 0;
    mpfr_t t;
    mpfr_init2(t, prec);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    for (slong i = 0; i < r->nstate; i++)
        mpfr_set_ui(xs + i, r->state[i].var == tm_var(model, "x") ? 2 : 1,
                    MPFR_RNDN);
    mpfr_set_ui(xu, 0, MPFR_RNDN);
    mpfr_set_ui(xu + 1, 0, MPFR_RNDN);
    hdo_error_clear(err);
    int st =
        hdo_consistent_init(xs, xu, &adjusted, model, r, t, fixed, prec, err);
    if (st == HDO_ERR_SINGULAR) {
        hdo_reduced_t k;
        hdo_error_t why;
        hdo_reduced_init(k);
        cr_expect_eq(hdo_reduce_mode_km(k, model, 0, &why),
                     HDO_ERR_UNSUPPORTED);
        cr_expect(strstr(why.message, "only the mode's algebraic") != NULL,
                  "%s", why.message);
        hdo_reduced_clear(k);
    }
    mpfr_clear(t);
    hdo_vec_clear(xs, r->nstate);
    hdo_vec_clear(xu, 2);
    hdo_reduced_clear(r);
    hdo_model_clear(model);
    return st;
}

Test(reduce, km_fallback_numerically_singular_threshold)
{
    hdo_error_t err;
    cr_expect_eq(near_singular_init("2^(-60)", &err), 0, "%s", err.message);
    cr_expect_eq(near_singular_init("2^(-70)", &err), HDO_ERR_SINGULAR, "%s",
                 err.message);
}
