/* start.c -- the start point of a run: the `var` start values and the
 * guess of the start mode's reduced form that hdo_consistent_init makes
 * consistent (hdo run and hdo analyze share it) */
#include "reduce.h"

/* The start value of model variable v (0 where none is given). */
static int
start_value(mpfr_t out, const hdo_model_struct *model, slong v,
            hdo_error_t *err)
{
    const hdo_var *var = model->vars + v;
    mpfr_set_ui(out, 0, MPFR_RNDN);
    if (var->start == HDO_EXPR_NONE ||
        hdo_expr_eval_constant(out, model->pool, var->start) == 0)
        return 0;
    return hdo_error_set(err, HDO_ERR_DOMAIN, var->pos.line, var->pos.col,
                         "the start value of %s is undefined", var->name);
}

int
hdo_start_values(mpfr_ptr val, int *given, const hdo_model_t model,
                 hdo_error_t *err)
{
    for (slong v = 0; v < model->nvars; v++) {
        given[v] = model->vars[v].start != HDO_EXPR_NONE;
        int st = start_value(val + v, model, v, err);
        if (st != 0)
            return st;
    }
    return 0;
}

int
hdo_start_guess(mpfr_ptr xs, mpfr_ptr xu, int *fixed, const hdo_model_t model,
                const hdo_reduced_t r, hdo_error_t *err)
{
    int st = 0;
    for (slong i = 0; i < r->nstate && st == 0; i++) {
        slong v = r->state[i].var;
        fixed[i] =
            r->state[i].order == 0 && model->vars[v].start != HDO_EXPR_NONE;
        mpfr_set_ui(xs + i, 0, MPFR_RNDN);
        if (r->state[i].order == 0)
            st = start_value(xs + i, model, v, err);
    }
    for (slong j = 0; j < r->nimplicit && st == 0; j++) {
        mpfr_set_ui(xu + j, 0, MPFR_RNDN);
        if (r->unknown[j].order == 0)
            st = start_value(xu + j, model, r->unknown[j].var, err);
    }
    return st;
}
