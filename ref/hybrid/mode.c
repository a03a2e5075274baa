/* mode.c -- the per-mode cache of hdo_run: reduced form, stepper and
 * `with` programs, built the first time a mode is entered, in a table
 * keyed by the modes actually entered */
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "chatter.h"

/* ------------------------------------------------------------------ */
/* The mode table */

static ulong
key_hash(slong key, slong size)
{
    ulong h = (ulong)key * UWORD(0x9e3779b97f4a7c15);
    return (h ^ (h >> 31)) & (ulong)(size - 1);
}

void
hdo_run_mode_table_init(mode_table *t)
{
    memset(t, 0, sizeof *t);
    t->size = 64;
    t->slot = calloc(t->size, sizeof *t->slot);
    HDO_ASSERT(t->slot != NULL);
}

void
hdo_run_mode_table_clear(mode_table *t, hdo_result_struct *res)
{
    for (slong i = 0; i < t->len; i++) {
        hdo_run_mode_cache_clear(t->entry[i], res);
        free(t->entry[i]);
    }
    free(t->entry);
    free(t->key);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* The slot of key: the one holding it, or the empty one where it would
   go. */
static slong
table_slot(const mode_table *t, slong key)
{
    ulong h = key_hash(key, t->size);
    while (t->slot[h] != 0 && t->key[t->slot[h] - 1] != key)
        h = (h + 1) & (ulong)(t->size - 1);
    return (slong)h;
}

mode_cache *
hdo_run_mode_find(const run_ctx *c, slong key)
{
    const mode_table *t = &c->modes;
    slong i = t->slot[table_slot(t, key)];
    return i != 0 ? t->entry[i - 1] : NULL;
}

static void
table_grow(mode_table *t)
{
    free(t->slot);
    t->size *= 2;
    t->slot = calloc(t->size, sizeof *t->slot);
    HDO_ASSERT(t->slot != NULL);
    for (slong i = 0; i < t->len; i++)
        t->slot[table_slot(t, t->key[i])] = i + 1;
}

mode_cache *
hdo_run_mode_entry(run_ctx *c, slong key)
{
    mode_table *t = &c->modes;
    slong h = table_slot(t, key);
    if (t->slot[h] != 0)
        return t->entry[t->slot[h] - 1];
    if (t->len == t->alloc) {
        t->alloc = t->alloc ? 2 * t->alloc : 16;
        t->entry = realloc(t->entry, t->alloc * sizeof *t->entry);
        t->key = realloc(t->key, t->alloc * sizeof *t->key);
        HDO_ASSERT(t->entry != NULL && t->key != NULL);
    }
    mode_cache *mc = calloc(1, sizeof *mc);
    HDO_ASSERT(mc != NULL);
    t->entry[t->len] = mc;
    t->key[t->len] = key;
    t->slot[h] = ++t->len;
    if (2 * (t->len + 1) > t->size)
        table_grow(t);
    return mc;
}

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
    hdo_vec_clear(mc->es, mc->red->nstate);
    hdo_vec_clear(mc->xu, mc->red->nimplicit);
    hdo_vec_clear(mc->lu, mc->red->nimplicit);
    hdo_vec_clear(mc->tu, mc->red->nimplicit);
    hdo_vec_clear(mc->eu, mc->red->nimplicit);
    free(mc->fixed);
    free(mc->other_mode);
    free(mc->other_when);
    free(mc->set);
    if (mc->gfkey != NULL) {
        hdo_vec_clear(mc->gfkey, 1 + 2 * mc->gprog->ninputs);
        hdo_vec_clear(mc->gfval, mc->step->nguards);
    }
    if (mc->gprog != NULL) {
        hdo_vec_clear(mc->gmid, mc->gprog->ninputs + 1);
        hdo_vec_clear(mc->grad, mc->gprog->ninputs + 1);
        hdo_program_clear(mc->gprog);
        free(mc->gprog);
        hdo_vec_clear(mc->gfloor, mc->step->nguards);
    }
    if (mc->gnkey != NULL)
        hdo_vec_clear(mc->gnkey, 1 + mc->red->nstate + mc->red->nimplicit);
    if (mc->lprog != NULL) {
        hdo_vec_clear(mc->lmid, mc->lprog->ninputs + 1);
        hdo_vec_clear(mc->lrad, mc->lprog->ninputs + 1);
        hdo_program_clear(mc->lprog);
        free(mc->lprog);
    }
    free(mc->glie);
    if (mc->ukey != NULL) {
        hdo_vec_clear(mc->ukey, 1 + 2 * mc->red->nstate + mc->red->nimplicit);
        hdo_vec_clear(mc->uval, mc->red->nimplicit);
    }
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
    mc->es = hdo_vec_init(mc->red->nstate, prec);
    mc->es_valid = 0;
    mc->xu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->lu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->tu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->eu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->fixed = calloc(mc->red->nstate ? mc->red->nstate : 1, sizeof(int));
    HDO_ASSERT(mc->fixed != NULL);
    mc->built = 1;
}

/* Builds the reduced form (Pryce's, or with km the Kunkel-Mehrmann
   fallback's) and the Taylor program (with the mode's guards) of mode m,
   once per run (mode_cache_get). */
static int
mode_cache_build(run_ctx *c, slong m, const mpfr_t t, int km)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    if (mc->built)
        return 0;
    /* a sign pattern built when entered (ref/model/lazy.c) */
    int st = hdo_model_pattern_ensure(c->model, m, c->err);
    if (st != 0)
        return hdo_run_fail(c, st, m, t);
    const hdo_mode *mode = c->model->modes + m;
    hdo_reduced_init(mc->red);
    st = km ? hdo_reduce_mode_km(mc->red, c->model, m, c->err)
            : hdo_reduce_mode(mc->red, c->model, m, c->err);
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
    if (hdo_run_mode_entry(c, m)->built)
        return 0;
    int ph = hdo_run_phase_enter(c, PH_REDUCTION);
    int st = mode_cache_build(c, m, t, 0);
    hdo_run_phase_enter(c, ph);
    return st;
}

/* One entry of a mode cache's state or unknowns, kept across a rebuild. */
/* The start value of variable v as a guess (0 when it has none). */
void
hdo_run_start_guess(mpfr_t out, const run_ctx *c, slong v)
{
    if (c->model->vars[v].start == HDO_EXPR_NONE ||
        hdo_expr_eval_constant(out, c->model->pool, c->model->vars[v].start) !=
            0)
        mpfr_set_ui(out, 0, MPFR_RNDN);
}

typedef struct {
    slong var, order;
    int fixed;
    mpfr_t value;
} kept_value;

/* The value of (v, o) among the kept entries, and whether it was fixed;
   0 when there is none. */
static int
kept_find(mpfr_t out, int *fixed, const kept_value *kv, slong n, slong v,
          slong o)
{
    for (slong i = 0; i < n; i++)
        if (kv[i].var == v && kv[i].order == o) {
            mpfr_set(out, kv[i].value, MPFR_RNDN);
            *fixed = kv[i].fixed;
            return 1;
        }
    return 0;
}

int
hdo_run_mode_cache_km_fallback(run_ctx *c, slong m, const mpfr_t t,
                               hdo_error_t *why)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    HDO_ASSERT(mc->built && m < c->model->nmodes && !mc->red->km_fallback);
    /* The fallback's reduction alone first: when it does not apply, the
       cache stays as it is and the caller reports Pryce's form's failure
       with this reason. */
    hdo_reduced_t probe;
    hdo_reduced_init(probe);
    int st = hdo_reduce_mode_km(probe, c->model, m, why);
    hdo_reduced_clear(probe);
    if (st != 0)
        return st;
    /* the values and fixed flags carry over by (variable, order) */
    const hdo_reduced_struct *r = mc->red;
    slong nk = r->nstate + r->nimplicit;
    kept_value *kv = calloc(nk ? nk : 1, sizeof *kv);
    HDO_ASSERT(kv != NULL);
    for (slong i = 0; i < nk; i++) {
        int is_state = i < r->nstate;
        hdo_varord vo = is_state ? r->state[i] : r->unknown[i - r->nstate];
        kv[i].var = vo.var;
        kv[i].order = vo.order;
        kv[i].fixed = is_state ? mc->fixed[i] : 0;
        mpfr_init2(kv[i].value, c->prec);
        mpfr_set(kv[i].value, is_state ? mc->xs + i : mc->xu + i - r->nstate,
                 MPFR_RNDN);
    }
    int ph = hdo_run_phase_enter(c, PH_REDUCTION);
    hdo_run_mode_cache_clear(mc, c->res);
    memset(mc, 0, sizeof *mc);
    st = mode_cache_build(c, m, t, 1);
    hdo_run_phase_enter(c, ph);
    if (st == 0) {
        /* an entry Pryce's form did not have starts from the start
           value, free */
        r = mc->red;
        for (slong i = 0; i < r->nstate + r->nimplicit; i++) {
            int is_state = i < r->nstate, fixed = 0;
            hdo_varord vo = is_state ? r->state[i] : r->unknown[i - r->nstate];
            mpfr_ptr x = is_state ? mc->xs + i : mc->xu + i - r->nstate;
            if (!kept_find(x, &fixed, kv, nk, vo.var, vo.order)) {
                if (vo.order == 0)
                    hdo_run_start_guess(x, c, vo.var);
                else
                    mpfr_set_ui(x, 0, MPFR_RNDN);
            }
            if (is_state)
                mc->fixed[i] = fixed;
        }
    }
    for (slong i = 0; i < nk; i++)
        mpfr_clear(kv[i].value);
    free(kv);
    return st;
}

const hdo_transition *
hdo_run_transition_of(const hdo_model_struct *model, slong m, slong k)
{
    const hdo_mode *mode = model->modes + m;
    return k < mode->nwhens ? mode->whens + k : &mode->zeno;
}
