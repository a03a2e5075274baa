/* common.h -- shared set-up of the Taylor integrator tests: a model from text,
 * its reduced first mode, a consistent start */
#ifndef HDO_TESTS_TAYLOR_COMMON_H
#define HDO_TESTS_TAYLOR_COMMON_H

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "taylor.h"

/* A run's precision rule (result.h): D + 10 digits of precision, a
   tolerance of 10^-(D+5); restated here so the tests of the integrator
   do not depend on the result module, above it. */
static inline mpfr_prec_t
tt_prec(long digits)
{
    return (mpfr_prec_t)ceil((double)(digits + 10) * 3.321928094887362348);
}

typedef struct {
    hdo_model_t model;
    hdo_reduced_t red;
    hdo_taylor_t tay;
    mpfr_ptr xs, xu;
    mpfr_prec_t prec;
    long digits;
} tt_case;

/* Parses text, reduces its first mode, compiles it with the guards
   (model expressions parsed from the `when` clauses of the first mode),
   and sets (xs, xu) to a consistent point at t = 0 from the var start
   values (every state with a start value fixed).  order 0: default. */
static inline void
tt_init(tt_case *c, const char *text, long digits, slong order)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    c->digits = digits;
    c->prec = tt_prec(digits);
    hdo_model_init(c->model);
    int st =
        hdo_model_parse_string(c->model, text, strlen(text), "test.hdae", &err);
    cr_assert_eq(st, 0, "parse: %s", err.message);
    hdo_reduced_init(c->red);
    st = hdo_reduce_mode(c->red, c->model, 0, &err);
    cr_assert_eq(st, 0, "reduce: %s", err.message);
    const hdo_mode *mode = c->model->modes;
    hdo_expr *g = malloc((mode->nwhens + 1) * sizeof *g);
    for (slong k = 0; k < mode->nwhens; k++)
        g[k] = mode->whens[k].guard;
    st = hdo_taylor_init(c->tay, c->model, c->red, g, mode->nwhens, NULL, 0,
                         c->prec, order);
    free(g);
    cr_assert_eq(st, 0, "taylor init: %s", c->tay->init_message);
    mpfr_set_ui(c->tay->tol, 10, MPFR_RNDN);
    mpfr_pow_si(c->tay->tol, c->tay->tol, -(digits + 5), MPFR_RNDN);

    c->xs = hdo_vec_init(c->red->nstate, c->prec);
    c->xu = hdo_vec_init(c->red->nimplicit, c->prec);
    int *fixed = calloc(c->red->nstate + 1, sizeof(int));
    for (slong i = 0; i < c->red->nstate; i++) {
        const hdo_var *v = c->model->vars + c->red->state[i].var;
        if (c->red->state[i].order == 0 && v->start != HDO_EXPR_NONE) {
            cr_assert_eq(
                hdo_expr_eval_constant(c->xs + i, c->model->pool, v->start), 0);
            fixed[i] = 1;
        }
    }
    /* algebraic unknowns with a start value: it is the Newton guess */
    for (slong j = 0; j < c->red->nimplicit; j++) {
        const hdo_var *v = c->model->vars + c->red->unknown[j].var;
        if (c->red->unknown[j].order == 0 && v->start != HDO_EXPR_NONE)
            cr_assert_eq(
                hdo_expr_eval_constant(c->xu + j, c->model->pool, v->start), 0);
    }
    if (c->red->ncons > 0 || c->red->nimplicit > 0) {
        mpfr_t t0;
        int adj;
        mpfr_init2(t0, c->prec);
        mpfr_set_zero(t0, 1);
        st = hdo_consistent_init(c->xs, c->xu, &adj, c->model, c->red, t0,
                                 fixed, c->prec, &err);
        cr_assert_eq(st, 0, "consistent init: %s", err.message);
        mpfr_clear(t0);
    }
    free(fixed);
}

static inline void
tt_clear(tt_case *c)
{
    hdo_vec_clear(c->xs, c->red->nstate);
    hdo_vec_clear(c->xu, c->red->nimplicit);
    hdo_taylor_clear(c->tay);
    hdo_reduced_clear(c->red);
    hdo_model_clear(c->model);
}

/* Index of the state (var, order 0) of the named variable. */
static inline slong
tt_state(const tt_case *c, const char *name)
{
    slong v = hdo_model_find_var(c->model, name);
    for (slong i = 0; i < c->red->nstate; i++)
        if (c->red->state[i].var == v && c->red->state[i].order == 0)
            return i;
    cr_assert_fail("no state %s", name);
    return -1;
}

/* Integrates c from 0 to the decimal t1; returns the number of steps. */
static inline slong
tt_run(tt_case *c, const char *t1)
{
    mpfr_t a, b;
    slong steps;
    hdo_error_t err;
    hdo_error_clear(&err);
    mpfr_inits2(c->prec, a, b, (mpfr_ptr)0);
    mpfr_set_zero(a, 1);
    mpfr_set_str(b, t1, 10, MPFR_RNDN);
    int st = hdo_taylor_integrate(c->xs, c->xu, c->tay, a, b, &steps, &err);
    cr_assert_eq(st, 0, "integrate: %s (%s)", err.message, hdo_status_name(st));
    mpfr_clears(a, b, (mpfr_ptr)0);
    return steps;
}

/* Asserts |got - want| <= 10^-digits max(1, |want|). */
static inline void
tt_assert_close(mpfr_srcptr got, mpfr_srcptr want, long digits,
                const char *what)
{
    mpfr_t d, s;
    mpfr_prec_t p = mpfr_get_prec(got);
    mpfr_inits2(p, d, s, (mpfr_ptr)0);
    mpfr_sub(d, got, want, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_abs(s, want, MPFR_RNDN);
    if (mpfr_cmp_ui(s, 1) < 0)
        mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_div(d, d, s, MPFR_RNDN);
    mpfr_set_ui(s, 10, MPFR_RNDN);
    mpfr_pow_si(s, s, -digits, MPFR_RNDN);
    if (mpfr_cmp(d, s) > 0) {
        char msg[400];
        mpfr_snprintf(msg, sizeof msg,
                      "%s: got %.40Rg, want %.40Rg (relative error %.3Rg > "
                      "1e-%ld)",
                      what, got, want, d, digits);
        cr_assert_fail("%s", msg);
    }
    mpfr_clears(d, s, (mpfr_ptr)0);
}

#endif
