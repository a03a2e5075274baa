/* filippov.c -- Filippov sliding of hdo_run on one surface: entering
 * `sliding(a,b)` (its end is an event: event.c); the symbolic construction is
 * in ref/reduce/filippov.c, several surfaces in intersect.c */
#include <stdlib.h>
#include "driver.h"
#include "chatter.h"

/* ------------------------------------------------------------------ */
/* Filippov sliding (KM 2017, section 5.2; decisions.md D-004) */

/* The when of mode m that goes to mode tgt (the first), or -1 if none
   (an index, not a status). */
static slong
when_to(const hdo_model_struct *model, slong m, slong tgt)
{
    for (slong k = 0; k < model->modes[m].nwhens; k++)
        if (model->modes[m].whens[k].target == tgt)
            return k;
    return -1;
}

/* Whether the event of when g of mode src (left limit L, time t) starts
   Filippov sliding: the target b goes back to src across a surface S_b
   that vanishes here too, b's flow leaves through it at once
   (L_b S_b < 0), src's flow leaves through S = S_src (L_src S <= 0) and
   b's flow points back (L_b S > 0), each with the threshold sqrt(tol)
   (hdo_run_sliding_entry_test), on the same surface
   (hdo_run_gradients_opposite).  Returns 1, 0, or a negative status (the
   target cannot be built). */
int
hdo_run_sliding_pair(run_ctx *c, slong src, slong g, const left_limit *L,
                     const mpfr_t t)
{
    hdo_model_struct *model = c->model;
    slong tgt = model->modes[src].whens[g].target, kb;
    /* a complementarity condition's crossing is decided by its block
       (complementarity.c), never by Filippov sliding */
    if (!hdo_run_chatter_policy(model)->sliding || tgt == src ||
        model->modes[src].whens[g].perp || (kb = when_to(model, tgt, src)) < 0)
        return 0;
    int st = hdo_run_mode_cache_get(c, tgt, t);
    if (st < 0)
        return st;
    const hdo_reduced_struct *ra = hdo_run_mode_entry(c, src)->red,
                             *rb = hdo_run_mode_entry(c, tgt)->red;
    if (!hdo_sliding_same_implicit(ra, rb))
        return 0; /* the chattering is reported as not covered */
    hdo_expr S = model->modes[src].whens[g].guard,
             Sb = model->modes[tgt].whens[kb].guard;
    if (hdo_run_clock_pair(model, S, Sb))
        return 0; /* L_src S = L_b S: the entry test below fails */
    hdo_expr e[4];
    e[0] = Sb;
    e[1] = hdo_sliding_lie(model, ra, S);
    e[2] = hdo_sliding_lie(model, rb, S);
    e[3] = hdo_sliding_lie(model, rb, Sb);
    if (e[1] == HDO_EXPR_NONE || e[2] == HDO_EXPR_NONE || e[3] == HDO_EXPR_NONE)
        return 0;
    mpfr_ptr v = hdo_vec_init(4, c->prec);
    int yes = hdo_run_eval_on_left(c, v, e, 4, L, t) == 0 &&
              hdo_run_sliding_entry_test(v, c->tol, c->prec);
    hdo_vec_clear(v, 4);
    if (yes)
        yes = hdo_run_same_surface(c, S, Sb, L, t);
    return yes;
}

/* Builds (once per run) the sliding mode of the pair a < b into the mode
   cache at hdo_mode_id_pair(a, b): the surface is a's guard towards b,
   alpha the weight of a's flow; guards alpha >= 0 (then b), 1 - alpha >=
   0 (then a), then the other whens of a and b (reaching one of them is
   sliding on an intersection, not covered). */
int
hdo_run_sliding_get(run_ctx *c, slong a, slong b, const mpfr_t t, slong *idx)
{
    hdo_model_struct *model = c->model;
    slong m = hdo_mode_id_pair(model, a, b);
    mode_cache *mc = hdo_run_mode_entry(c, m);
    int st;
    *idx = m;
    if (mc->built)
        return 0;
    if ((st = hdo_run_mode_cache_get(c, a, t)) < 0 ||
        (st = hdo_run_mode_cache_get(c, b, t)) < 0)
        return st;
    slong ka = when_to(model, a, b);
    const hdo_transition *tra = model->modes[a].whens + ka;
    char why[512];
    hdo_reduced_init(mc->red);
    st = hdo_sliding_build(
        mc->red, &mc->alpha, model, hdo_run_mode_entry(c, a)->red,
        hdo_run_mode_entry(c, b)->red, tra->guard, why, sizeof why);
    if (st < 0) {
        hdo_reduced_clear(mc->red);
        hdo_error_set(c->err, st, tra->pos.line, tra->pos.col, "%s", why);
        return hdo_run_fail(c, st, a, t);
    }
    slong cap = 2 + model->modes[a].nwhens + model->modes[b].nwhens, ng = 2;
    hdo_expr *guards = malloc(cap * sizeof *guards);
    mc->other_mode = calloc(cap, sizeof(slong));
    mc->other_when = calloc(cap, sizeof(slong));
    HDO_ASSERT(guards != NULL && mc->other_mode != NULL &&
               mc->other_when != NULL);
    guards[0] = mc->alpha;
    guards[1] = hdo_expr_sub(model->pool, hdo_expr_const_si(model->pool, 1, 1),
                             mc->alpha);
    for (int side = 0; side < 2; side++) {
        slong p = side ? b : a, q = side ? a : b;
        for (slong k = 0; k < model->modes[p].nwhens; k++)
            /* a zero relation's guard is never located (pattern.c) */
            if (model->modes[p].whens[k].target != q &&
                !model->modes[p].whens[k].zero) {
                mc->other_mode[ng] = p;
                mc->other_when[ng] = k;
                guards[ng++] = model->modes[p].whens[k].guard;
            }
    }
    st = hdo_run_stepper_init(c, mc->step, model, mc->red, guards, ng);
    free(guards);
    if (st < 0) {
        hdo_error_set(c->err, st, tra->pos.line, tra->pos.col,
                      "the sliding mode of '%s' and '%s': %s",
                      model->modes[a].name, model->modes[b].name,
                      mc->step->message);
        hdo_stepper_clear(mc->step);
        hdo_reduced_clear(mc->red);
        free(mc->other_mode);
        free(mc->other_when);
        mc->other_mode = mc->other_when = NULL;
        return hdo_run_fail(c, st, a, t);
    }
    mc->nguards = ng;
    mc->sa = a;
    mc->sb = b;
    hdo_run_mode_cache_alloc(mc, 0, c->prec);
    return 0;
}

/* Enters the sliding mode of src and the target of its when g at t from
   the left limit L (every state kept): a sliding-start event. */
int
hdo_run_sliding_enter(run_ctx *c, slong src, slong g, const left_limit *L,
                      const mpfr_t t)
{
    const hdo_transition *tr = c->model->modes[src].whens + g;
    slong tgt = tr->target, m;
    int st = hdo_run_sliding_get(c, src < tgt ? src : tgt,
                                 src < tgt ? tgt : src, t, &m);
    if (st < 0)
        return st;
    return hdo_run_enter_slot(c, src, m, L, t, HDO_EV_SLIDING_START,
                              tr->guard_text);
}

/* Enters the sliding mode of key m (built) from the mode of key src at t,
   every state kept from the left limit L: an event of the given kind. */
int
hdo_run_enter_slot(run_ctx *c, slong src, slong m, const left_limit *L,
                   const mpfr_t t, hdo_event_kind kind, const char *text)
{
    int st;
    mode_cache *mc = hdo_run_mode_entry(c, m);
    const hdo_reduced_struct *r = mc->red;
    for (slong i = 0; i < r->nstate; i++) {
        mc->fixed[i] = 1;
        if (!hdo_run_left_value(mc->xs + i, L, r->state[i].var,
                                r->state[i].order)) {
            mc->fixed[i] = 0;
            if (r->state[i].order == 0)
                hdo_run_start_guess(mc->xs + i, c, r->state[i].var);
            else
                mpfr_set_ui(mc->xs + i, 0, MPFR_RNDN);
        }
    }
    for (slong j = 0; j < r->nimplicit; j++)
        if (!hdo_run_left_value(mc->xu + j, L, r->unknown[j].var,
                                r->unknown[j].order))
            mpfr_set_ui(mc->xu + j, 0, MPFR_RNDN);
    if (r->nimplicit > 0 || r->ncons > 0) {
        int adjusted = 0;
        st = hdo_run_reinit(c, m, t, &adjusted);
        if (st < 0)
            return st;
    }
    /* what reinit notes, for a mode that needed none */
    int ph = hdo_run_phase_enter(c, PH_REDUCTION);
    hdo_run_note_mode_used(c, m, t);
    hdo_run_phase_enter(c, ph);
    slong row_left = hdo_run_add_row(c, t, src, L->xs, L->xu);
    hdo_run_stepmag_end(c); /* the rows from here on are the next arc's */
    hdo_event *ev = hdo_result_add_event(c->res, t, hdo_run_res_mode(c, src),
                                         hdo_run_res_mode(c, m), kind, text);
    hdo_run_mode_values(ev->left, NULL, hdo_run_mode_entry(c, src), L->xs,
                        L->xu);
    hdo_run_mode_values(ev->right, NULL, mc, mc->xs, mc->xu);
    ev->row_left = row_left;
    ev->row_right = hdo_run_add_row(c, t, m, mc->xs, mc->xu);
    hdo_run_skip_samples_at(c, t, m, mc->xs, mc->xu);
    hdo_run_hist_clear(c);
    c->mode = m;
    mpfr_set(c->t, t, MPFR_RNDN);
    mpfr_set(c->last_event, t, MPFR_RNDN);
    if (c->res->nevents > c->max_events) { /* N events allowed, not N+1 */
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "more than %ld events (--max-events)", c->max_events);
        return hdo_run_fail(c, HDO_ERR_TOO_MUCH_WORK, src, t);
    }
    return 0;
}
