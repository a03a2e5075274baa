/* errors.c -- every failure of the Taylor integrator provoked on purpose (GSL's
 * rule), and guards with der() of explicit states */
#include "common.h"

TestSuite(taylor_errors);

/* Expands at t0 and returns the status; err gets the message. */
static int
expand_at(tt_case *c, double t0, hdo_error_t *err)
{
    mpfr_t t;
    mpfr_init2(t, c->prec);
    mpfr_set_d(t, t0, MPFR_RNDN);
    hdo_error_clear(err);
    int st = hdo_taylor_expand(c->tay, t, c->xs, c->xu, err);
    mpfr_clear(t);
    return st;
}

Test(taylor_errors, log_of_negative_names_expression_mode_time)
{
    tt_case c;
    hdo_error_t err;
    tt_init(
        &c,
        "model d\nvar x = -1\nmode grow\n  der(x) = log(x)\nend\nstart grow\n",
        30, 0);
    cr_assert_eq(expand_at(&c, 0.25, &err), HDO_ERR_DOMAIN);
    cr_assert(strstr(err.message, "log(x)") != NULL, "%s", err.message);
    cr_assert_str_eq(err.mode, "grow");
    cr_assert(err.has_time && err.time == 0.25);
    tt_clear(&c);
}

/* 1/x is finite at x = 1, but x' = -1 reaches 0 at t = 1: the
   integration must stop with a domain error or a collapsed step, never
   return a value. */
Test(taylor_errors, division_by_zero_reached)
{
    tt_case c;
    hdo_error_t err;
    tt_init(&c, "model d\nvar x = 0\nmode m\n  der(x) = 1/x\nend\nstart m\n",
            30, 0);
    cr_assert_eq(expand_at(&c, 0, &err), HDO_ERR_DOMAIN);
    cr_assert(strstr(err.message, "1/x") != NULL, "%s", err.message);
    tt_clear(&c);
}

/* x' = x^2, x(0) = 1 is 1/(1 - t): it blows up at t = 1, so steps shrink
   geometrically until they no longer move t. */
Test(taylor_errors, blow_up_collapses_the_step)
{
    tt_case c;
    mpfr_t a, b;
    hdo_error_t err;
    slong steps;
    tt_init(&c, "model b\nvar x = 1\nmode m\n  der(x) = x^2\nend\nstart m\n",
            30, 0);
    mpfr_inits2(c.prec, a, b, (mpfr_ptr)0);
    mpfr_set_ui(a, 0, MPFR_RNDN);
    mpfr_set_ui(b, 2, MPFR_RNDN);
    hdo_error_clear(&err);
    int st = hdo_taylor_integrate(c.xs, NULL, c.tay, a, b, &steps, &err);
    cr_assert_eq(st, HDO_ERR_STEP_COLLAPSE, "%s: %s", hdo_status_name(st),
                 err.message);
    cr_assert_str_eq(err.mode, "m");
    /* it failed near the singularity, not before */
    cr_assert(err.has_time && err.time > 0.99 && err.time <= 1.0, "t = %g",
              err.time);
    mpfr_clears(a, b, (mpfr_ptr)0);
    tt_clear(&c);
}

/* y^2 = x with x = 0: dh/dy = 2y = 0. */
Test(taylor_errors, singular_jacobian_of_h)
{
    tt_case c;
    hdo_error_t err;
    tt_init(&c,
            "model s\nvar x = 1, y = 1\nmode m\n  der(x) = -1\n  y^2 = x\nend\n"
            "start m\n",
            30, 0);
    mpfr_set_ui(c.xs + tt_state(&c, "x"), 0, MPFR_RNDN);
    mpfr_set_ui(c.xu, 0, MPFR_RNDN);
    cr_assert_eq(expand_at(&c, 1.0, &err), HDO_ERR_SINGULAR, "%s", err.message);
    cr_assert_str_eq(err.mode, "m");
    cr_assert(err.has_time && err.time == 1.0);
    cr_assert(strstr(err.message, "singular") != NULL);
    tt_clear(&c);
}

/* The unknowns passed to expand are a guess refined by Newton: y^2 = x
   at x = 4 from y = 3 gives the series of y = sqrt(4 - t). */
Test(taylor_errors, unknowns_are_refined)
{
    tt_case c;
    hdo_error_t err;
    mpfr_t w;
    tt_init(&c,
            "model s\nvar x = 4, y = 2\nmode m\n  der(x) = -1\n  y^2 = x\nend\n"
            "start m\n",
            30, 0);
    mpfr_set_ui(c.xu, 3, MPFR_RNDN);
    cr_assert_eq(expand_at(&c, 0, &err), 0, "%s", err.message);
    mpfr_init2(w, c.prec);
    mpfr_set_ui(w, 2, MPFR_RNDN);
    tt_assert_close(c.tay->unknown_coef[0], w, 35, "y_0 = 2");
    mpfr_set_si(w, -1, MPFR_RNDN);
    mpfr_div_ui(w, w, 4, MPFR_RNDN);
    tt_assert_close(c.tay->unknown_coef[1], w, 35, "y_1 = -1/4");
    mpfr_set_si(w, -1, MPFR_RNDN);
    mpfr_div_ui(w, w, 64, MPFR_RNDN);
    tt_assert_close(c.tay->unknown_coef[2], w, 35, "y_2 = -1/64");
    mpfr_clear(w);
    tt_clear(&c);
}

/* A Newton guess from which h has no solution: y^2 = x with x = -1. */
Test(taylor_errors, inconsistent_unknowns)
{
    tt_case c;
    hdo_error_t err;
    tt_init(&c,
            "model s\nvar x = 4, y = 2\nmode m\n  der(x) = -1\n  y^2 = x\nend\n"
            "start m\n",
            30, 0);
    mpfr_set_si(c.xs + tt_state(&c, "x"), -1, MPFR_RNDN);
    mpfr_set_ui(c.xu, 1, MPFR_RNDN);
    int st = expand_at(&c, 0, &err);
    cr_assert(st == HDO_ERR_INCONSISTENT || st == HDO_ERR_SINGULAR, "%s",
              hdo_status_name(st));
    tt_clear(&c);
}

/* Extra expressions (the parser keeps der() out of guards, but output
   expressions may hold it) with der(v) of an explicit v are compiled with
   the rhs in its place: for the harmonic oscillator der(v) = -x = -cos t,
   and der(v)*der(x) = cos t sin t needs der(x) = v too. */
Test(taylor_errors, extra_with_derivative_of_explicit_state)
{
    tt_case c;
    hdo_error_t err;
    mpfr_t h, w, t0;
    mpfr_ptr e;
    hdo_expr ex[2];
    tt_init(&c,
            "model ho\nvar x = 1, v = 0\nmode m\n  der(x) = v\n  der(v) = -x\n"
            "end\nstart m\n",
            30, 0);
    hdo_expr_pool_struct *pool = c.model->pool;
    slong vx = hdo_model_find_var(c.model, "x"),
          vv = hdo_model_find_var(c.model, "v");
    ex[0] = hdo_expr_var(pool, vv, 1);
    ex[1] = hdo_expr_mul(pool, hdo_expr_var(pool, vv, 1),
                         hdo_expr_var(pool, vx, 1));
    hdo_taylor_clear(c.tay);
    cr_assert_eq(
        hdo_taylor_init(c.tay, c.model, c.red, NULL, 0, ex, 2, c.prec, 0), 0);
    mpfr_inits2(c.prec, h, w, t0, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0, "%s",
                 err.message);
    e = hdo_vec_init(2, c.prec);
    mpfr_set_d(h, 0.375, MPFR_RNDN);
    hdo_taylor_eval_extra(e, c.tay, h);
    mpfr_cos(w, h, MPFR_RNDN);
    mpfr_neg(w, w, MPFR_RNDN);
    tt_assert_close(e, w, 33, "der(v) at 0.375");
    mpfr_sin(t0, h, MPFR_RNDN);
    mpfr_mul(w, w, t0, MPFR_RNDN);
    mpfr_neg(w, w, MPFR_RNDN);
    tt_assert_close(e + 1, w, 33, "der(v) der(x) at 0.375");
    hdo_vec_clear(e, 2);
    mpfr_clears(h, w, t0, (mpfr_ptr)0);
    tt_clear(&c);
}

/* der(y) of an algebraic y is beyond what the reduced form provides. */
Test(taylor_errors, extra_with_derivative_of_unknown_is_unsupported)
{
    tt_case c;
    hdo_error_t err;
    mpfr_t t;
    tt_init(&c,
            "model s\nvar x = 4, y = 2\nmode m\n  der(x) = -1\n  y^2 = x\nend\n"
            "start m\n",
            30, 0);
    hdo_expr ex =
        hdo_expr_var(c.model->pool, hdo_model_find_var(c.model, "y"), 1);
    hdo_taylor_clear(c.tay);
    int st = hdo_taylor_init(c.tay, c.model, c.red, NULL, 0, &ex, 1, c.prec, 0);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED);
    cr_assert(strstr(c.tay->init_message, "derivative 1 of y") != NULL, "%s",
              c.tay->init_message);
    mpfr_init2(t, c.prec);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    cr_assert_eq(hdo_taylor_expand(c.tay, t, c.xs, c.xu, &err),
                 HDO_ERR_UNSUPPORTED);
    cr_assert_str_eq(err.mode, "m");
    mpfr_clear(t);
    tt_clear(&c);
}
