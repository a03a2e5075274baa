/* mode.c -- the per-mode cache of hdo_run: reduced form, stepper and
 * `with` programs, built the first time a mode is entered */
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "chatter.h"

/* ------------------------------------------------------------------ */
/* The mode cache */

void
hdo_run_mode_cache_clear(mode_cache *mc, hdo_result_struct *res)
{
    if (!mc->built)
        return;
    for (slong k = 0; k < mc->ntr; k++)
        if (mc->assign_built[k])
            hdo_program_clear(mc->assign + k);
    free(mc->assign);
    free(mc->assign_built);
    hdo_vec_clear(mc->xs, mc->red->nstate);
    hdo_vec_clear(mc->ls, mc->red->nstate);
    hdo_vec_clear(mc->ts, mc->red->nstate);
    hdo_vec_clear(mc->xu, mc->red->nimplicit);
    hdo_vec_clear(mc->lu, mc->red->nimplicit);
    hdo_vec_clear(mc->tu, mc->red->nimplicit);
    free(mc->fixed);
    free(mc->other_mode);
    free(mc->other_when);
    free(mc->set);
    mc->step->type->max_residual(res->max_residual, mc->step);
    hdo_stepper_clear(mc->step);
    hdo_invariant_free(mc->inv);
    hdo_reduced_clear(mc->red);
}

/* The part of a mode cache every kind of mode shares once its reduced
   form is built: ntr transition slots (reset assignments built on first
   use) and the state vectors (current, left limit, trial) at the run's
   precision. */
void
hdo_run_mode_cache_alloc(mode_cache *mc, slong ntr, mpfr_prec_t prec)
{
    mc->ntr = ntr;
    mc->assign = calloc(ntr ? ntr : 1, sizeof *mc->assign);
    mc->assign_built = calloc(ntr ? ntr : 1, sizeof *mc->assign_built);
    HDO_ASSERT(mc->assign != NULL && mc->assign_built != NULL);
    mc->xs = hdo_vec_init(mc->red->nstate, prec);
    mc->ls = hdo_vec_init(mc->red->nstate, prec);
    mc->ts = hdo_vec_init(mc->red->nstate, prec);
    mc->xu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->lu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->tu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->fixed = calloc(mc->red->nstate ? mc->red->nstate : 1, sizeof(int));
    HDO_ASSERT(mc->fixed != NULL);
    mc->built = 1;
}

/* Builds the reduced form and the Taylor program (with the mode's
   guards) of mode m, once per run (mode_cache_get). */
static int
mode_cache_build(run_ctx *c, slong m, const mpfr_t t)
{
    mode_cache *mc = c->mc + m;
    const hdo_mode *mode = c->model->modes + m;
    if (mc->built)
        return 0;
    hdo_reduced_init(mc->red);
    int st = hdo_reduce_mode(mc->red, c->model, m, c->err);
    if (st < 0) {
        hdo_reduced_clear(mc->red);
        return hdo_run_fail(c, st, m, t);
    }
    hdo_expr *guards =
        malloc((mode->nwhens ? mode->nwhens : 1) * sizeof *guards);
    HDO_ASSERT(guards != NULL);
    /* the policy may move the surfaces (`chattering hysteresis`) */
    const hdo_chatter_policy *pol = hdo_run_chatter_policy(c->model);
    for (slong k = 0; k < mode->nwhens; k++) {
        guards[k] = mode->whens[k].guard;
        if (pol->guard != NULL)
            guards[k] = pol->guard(c->model, guards[k]);
    }
    /* first integrals: no events, kept as constraints (KM (23)) */
    mc->inv = hdo_invariant_build(c->model, mc->red, guards, mode->nwhens, t,
                                  c->prec);
    st = hdo_run_stepper_init(c, mc->step, c->model,
                              hdo_invariant_reduced(mc->inv, mc->red), guards,
                              mode->nwhens);
    free(guards);
    if (st < 0) {
        hdo_error_set(c->err, st, mode->pos.line, mode->pos.col, "%s",
                      mc->step->message);
        hdo_stepper_clear(mc->step);
        hdo_invariant_free(mc->inv);
        mc->inv = NULL;
        hdo_reduced_clear(mc->red);
        return hdo_run_fail(c, st, m, t);
    }
    mc->nguards = mode->nwhens;
    hdo_run_mode_cache_alloc(mc, mode->nwhens + (mode->has_zeno ? 1 : 0),
                             c->prec);
    return 0;
}

int
hdo_run_mode_cache_get(run_ctx *c, slong m, const mpfr_t t)
{
    if (c->mc[m].built)
        return 0;
    int ph = hdo_run_phase_enter(c, PH_REDUCTION);
    int st = mode_cache_build(c, m, t);
    hdo_run_phase_enter(c, ph);
    return st;
}

const hdo_transition *
hdo_run_transition_of(const hdo_model_struct *model, slong m, slong k)
{
    const hdo_mode *mode = model->modes + m;
    return k < mode->nwhens ? mode->whens + k : &mode->zeno;
}
