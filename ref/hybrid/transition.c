/* transition.c -- transitions of hdo_run: resets (`with`), their
 * conditioning, the event time's digits, and taking a transition (the left
 * limits are in left.c, the consistent reinitialisation in reinit.c) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* A reset is only as good as the state it is evaluated on, which is
   known to about the local tolerance: `with v = 1/x` at an event on
   x < 0 divides by rounding noise and would print a number like 5e39 to
   every digit.  Each value is enclosed (Arb) with every input widened by
   tol max(|value|, floor) (its own scale: floors.c), at a located event
   also by its rate times the event time's uncertainty, and t by
   tol max(1, |t|); a value whose enclosure meets a pole or a domain's
   edge, or is wider than 10^5 tol times the scale of the variable it is
   assigned to (the 10^-D the run promises) is refused with the reset,
   mode and time.  That scale is the largest of the value, the largest
   magnitude the variable has had and its nominal value: a reset to
   zero up to its inputs' errors (y = K (x - 1/2) at x = 1/2) of a
   variable that has never been anything but zero has no scale its
   digits could be counted against, unless `nominal` gives one. */
/* 1 when Arb's enclosure of e (hdo_expr_enclose) cannot fail on
   finite input balls where it succeeds on other finite ones of the same
   inputs: every node a constant, pi, t, a variable, +, -, *, negation,
   sin, cos, atan or tanh, whose balls are finite for finite operands
   and which constant.c's eval_ball never refuses (its refusals are the
   divisors, powers, domains and relations: a ball test each).  Up to
   *budget nodes are visited (a shared node once per path), else 0. */
static int
total_nodes(const hdo_expr_pool_struct *pool, hdo_expr e, slong *budget)
{
    if (--*budget < 0)
        return 0;
    const hdo_expr_node *n = pool->nodes + e;
    switch (n->kind) {
    case HDO_X_CONST:
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
        return 1;
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL:
        return total_nodes(pool, n->a, budget) &&
               total_nodes(pool, n->b, budget);
    case HDO_X_NEG:
    case HDO_X_SIN:
    case HDO_X_COS:
    case HDO_X_ATAN:
    case HDO_X_TANH:
        return total_nodes(pool, n->a, budget);
    default:
        return 0;
    }
}

int
hdo_run_enclose_total(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    slong budget = 256;
    return total_nodes(pool, e, &budget);
}

static int
reset_conditioning(run_ctx *c, hdo_program_struct *prog, slong src, slong k,
                   const left_limit *L, const mpfr_t t)
{
    const hdo_transition *tr = hdo_run_transition_of(c->model, src, k);
    slong nin = prog->ninputs;
    mpfr_ptr in = hdo_vec_init(nin + 1, c->prec),
             inrad = hdo_vec_init(nin + 1, 64),
             evrad = hdo_vec_init(nin + 1, 64);
    mpfr_t mid, rad, lim, trad, emid, erad;
    mpfr_inits2(c->prec, mid, rad, lim, emid, erad, (mpfr_ptr)0);
    mpfr_init2(trad, 64);
    hdo_run_time_tol(trad, c, t);
    /* At a located event the state is also off by its rate times the
       uncertainty of the event's time (x = 1 - t at x < 0 is zero up to
       the event time's rounding, and 1/x then a pole): that widening
       (evrad) decides poles only.  How many digits the event's state has
       is event_digits' report (a multiple root: 8 of 20), not the
       reset's conditioning. */
    int at_event = mpfr_equal_p(t, c->event_at) && L->dense != NULL &&
                   mpfr_regular_p(c->event_dt);
    for (slong q = 0; q < nin; q++) {
        mpfr_set(in + q, prog->value[prog->inputs[q].slot], MPFR_RNDN);
        hdo_run_var_floor(inrad + q, c, prog->inputs[q].var);
        if (mpfr_cmpabs(in + q, inrad + q) > 0)
            mpfr_abs(inrad + q, in + q, MPFR_RNDU);
        mpfr_mul(inrad + q, inrad + q, c->tol, MPFR_RNDU);
        mpfr_set(evrad + q, inrad + q, MPFR_RNDU);
        if (at_event && hdo_run_left_value(mid, L, prog->inputs[q].var,
                                           prog->inputs[q].order + 1)) {
            mpfr_abs(mid, mid, MPFR_RNDU);
            mpfr_mul(mid, mid, c->event_dt, MPFR_RNDU);
            mpfr_add(evrad + q, evrad + q, mid, MPFR_RNDU);
        }
    }
    /* The enclosure on evrad decides poles only.  It is the one on
       inrad where the radii are the same, and cannot fail where that
       one succeeds for an expression of total kinds on finite evrad
       (hdo_run_enclose_total): then it is not computed (issue 28: the
       ball's -e v, an enclosure an impact; D-116). */
    int evsame = 1, evfinite = 1;
    for (slong q = 0; q < nin; q++) {
        evsame = evsame && mpfr_equal_p(evrad + q, inrad + q);
        evfinite = evfinite && mpfr_number_p(evrad + q);
    }
    int st = 0;
    for (slong a = 0; a < tr->nassigns && st == 0; a++) {
        const hdo_assign *as = tr->assigns + a;
        int pole =
            hdo_expr_enclose(mid, rad, c->model->pool, as->value, prog->inputs,
                             in, inrad, nin, t, trad, c->prec + 32) != 0;
        if (!pole && !evsame &&
            !(evfinite && hdo_run_enclose_total(c->model->pool, as->value)))
            pole = hdo_expr_enclose(emid, erad, c->model->pool, as->value,
                                    prog->inputs, in, evrad, nin, t, trad,
                                    c->prec + 32) != 0;
        if (!pole) {
            /* the target's scale: the value, or the largest magnitude
               the variable has had, or its nominal value */
            mpfr_abs(lim, prog->value[prog->root_slot[a]], MPFR_RNDN);
            if (c->vmax != NULL) {
                mpfr_max(lim, lim, c->vmax + as->var, MPFR_RNDN);
                mpfr_max(lim, lim, c->nominal + as->var, MPFR_RNDN);
            }
            mpfr_mul(lim, lim, c->tol, MPFR_RNDN);
            mpfr_mul_ui(lim, lim, 100000, MPFR_RNDN);
            if (mpfr_lessequal_p(rad, lim))
                continue;
        }
        char *s =
            hdo_expr_to_string(c->model->pool, as->value, c->model->var_names);
        char inputs[300] = "";
        for (slong q = 0; q < prog->ninputs && q < 4; q++) {
            size_t len = strlen(inputs);
            mpfr_snprintf(inputs + len, sizeof inputs - len, "%s%s%s%s = %.6Rg",
                          q ? ", " : "", prog->inputs[q].order ? "der(" : "",
                          c->model->vars[prog->inputs[q].var].name,
                          prog->inputs[q].order ? ")" : "", in + q);
        }
        mpfr_exp_t e10 = 0;
        mpfr_t rel10;
        mpfr_init2(rel10, 53);
        mpfr_log10(rel10, c->tol, MPFR_RNDN);
        e10 = (mpfr_exp_t)mpfr_get_si(rel10, MPFR_RNDN);
        mpfr_clear(rel10);
        hdo_error_set(c->err, HDO_ERR_DOMAIN, as->pos.line, as->pos.col,
                      "the reset %s = %.300s of the transition to mode '%s' "
                      "is ill-conditioned at the event: with the state "
                      "known to 10^%ld it %s (%s)",
                      c->model->vars[as->var].name, s ? s : "?",
                      c->model->modes[tr->target].name, (long)e10,
                      pole ? "meets a pole or leaves its domain"
                           : "is not determined to the digits asked",
                      inputs);
        free(s);
        st = hdo_run_fail(c, HDO_ERR_DOMAIN, src, t);
    }
    hdo_vec_clear(in, nin + 1);
    hdo_vec_clear(inrad, nin + 1);
    hdo_vec_clear(evrad, nin + 1);
    mpfr_clears(mid, rad, lim, emid, erad, (mpfr_ptr)0);
    mpfr_clear(trad);
    return st;
}

/* The digits to which the event at c->t + s (of the guard series coef
   over the natural step H) is determined (hdo_event_time_error): when
   fewer than the digits asked, the fewest so far go into the result
   (summary.json "event_digits") with the index the event will get, so a
   multiple root is never presented as known to D digits. */
void
hdo_run_event_digits(run_ctx *c, mpfr_srcptr coef, slong len, const mpfr_t H,
                     const mpfr_t s)
{
    MPFR_DECL_INIT(delta, 64); /* on the stack: at every event */
    MPFR_DECL_INIT(at, 64);
    hdo_event_time_error(delta, coef, len, H, c->tol, s, c->prec);
    mpfr_add(c->event_at, c->t, s, MPFR_RNDN); /* the event's own time */
    mpfr_set(c->event_dt, delta, MPFR_RNDU);
    mpfr_add(at, c->t, s, MPFR_RNDN);
    mpfr_abs(at, at, MPFR_RNDN);
    if (mpfr_cmp_ui(at, 1) < 0)
        mpfr_set_ui(at, 1, MPFR_RNDN);
    mpfr_div(delta, delta, at, MPFR_RNDN); /* relative */
    if (mpfr_number_p(delta) && mpfr_sgn(delta) > 0) {
        /* -ceil(log10 delta): in doubles unless log10 delta is within
           1e-9 of an integer, where the 64-bit log10 (30,000
           instructions) decides as it always did */
        double l10 = hdo_log2_abs(delta) * 0.30102999566398120;
        long dig;
        if (fabs(l10 - nearbyint(l10)) > 1e-9 && fabs(l10) < 1e15) {
            dig = -(long)ceil(l10);
        } else {
            mpfr_log10(delta, delta, MPFR_RNDN);
            dig = -mpfr_get_si(delta, MPFR_RNDU);
        }
        if (dig < 0)
            dig = 0;
        if (dig < c->digits &&
            (c->res->event_digits < 0 || dig < c->res->event_digits)) {
            c->res->event_digits = dig;
            c->res->event_digits_index = c->res->nevents + 1;
        }
    }
}

/* Evaluates the `with` right-hand sides of transition k of mode src on
   the left limit L at time t, into vals (one per assignment). */
static int
eval_assigns(run_ctx *c, mpfr_ptr vals, slong src, slong k, const left_limit *L,
             const mpfr_t t)
{
    mode_cache *mc = hdo_run_mode_entry(c, src);
    const hdo_transition *tr = hdo_run_transition_of(c->model, src, k);
    if (tr->nassigns == 0)
        return 0;
    hdo_program_struct *prog = mc->assign + k;
    if (!mc->assign_built[k]) {
        hdo_expr *roots = malloc(tr->nassigns * sizeof *roots);
        HDO_ASSERT(roots != NULL);
        for (slong a = 0; a < tr->nassigns; a++)
            roots[a] = tr->assigns[a].value;
        hdo_program_init(prog, c->model->pool, roots, tr->nassigns, c->prec);
        free(roots);
        mc->assign_built[k] = 1;
    }
    for (slong i = 0; i < prog->ninputs; i++) {
        const hdo_program_input *in = prog->inputs + i;
        if (!hdo_run_left_value(prog->value[in->slot], L, in->var, in->order)) {
            hdo_error_set(c->err, HDO_ERR_SEMANTIC, tr->pos.line, tr->pos.col,
                          "the transition to mode '%s' uses %s%s%s, which "
                          "mode '%s' does not have",
                          c->model->modes[tr->target].name,
                          in->order > 0 ? "der(" : "",
                          c->model->vars[in->var].name,
                          in->order > 0 ? ")" : "", c->model->modes[src].name);
            return hdo_run_fail(c, HDO_ERR_SEMANTIC, src, t);
        }
    }
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    hdo_expr bad;
    if (hdo_program_eval(prog, &bad) != 0) {
        int over = mpfr_overflow_p(); /* cleared by hdo_program_eval */
        char *s = hdo_expr_to_string(c->model->pool, bad, c->model->var_names);
        hdo_error_set(c->err, HDO_ERR_DOMAIN, tr->pos.line, tr->pos.col,
                      "the reset of the transition to mode '%s' %s "
                      "at the event: %s",
                      c->model->modes[tr->target].name,
                      over ? "overflows (beyond MPFR's exponent range)"
                           : "is undefined",
                      s ? s : "?");
        free(s);
        return hdo_run_fail(c, HDO_ERR_DOMAIN, src, t);
    }
    for (slong a = 0; a < tr->nassigns; a++)
        mpfr_set(vals + a, prog->value[prog->root_slot[a]], MPFR_RNDN);
    return reset_conditioning(c, prog, src, k, L, t);
}

/* Skips the samples at time t: the event rows stand for them.  One
   after the event whose rounded time is not after t (a clock's,
   hdo_run_sample_side) is written from the right limit (mode, xs, xu):
   the next arc starts at t and would drop it. */
void
hdo_run_skip_samples_at(run_ctx *c, const mpfr_t t, slong mode, mpfr_srcptr xs,
                        mpfr_srcptr xu)
{
    mpfr_t tk;
    mpfr_init2(tk, c->prec);
    while (c->next_sample < c->nsamples) {
        hdo_run_sample_time(tk, c, c->next_sample);
        int side = hdo_run_sample_side(c, c->next_sample, tk, t);
        if (side > 0 && mpfr_cmp(tk, t) > 0)
            break;
        if (side > 0) {
            slong i = hdo_run_add_row(c, tk, mode, xs, xu);
            if (i >= 0)
                c->res->rows[i].sample = c->next_sample;
        }
        c->next_sample++;
    }
    mpfr_clear(tk);
}

/* Performs transition k of mode src at time t from the left limit L:
   the left row, the resets, the consistent reinitialisation of the
   target, the event record and the right row.  The current mode becomes
   the target. */
int
hdo_run_take_transition_tr(run_ctx *c, slong src, const hdo_transition *tr,
                           slong k, const left_limit *L, const mpfr_t t,
                           hdo_event_kind kind)
{
    slong tgt = tr->target;
    mpfr_ptr vals = hdo_vec_init(tr->nassigns, c->prec);
    int st, adjusted = 0;

    slong row_left = hdo_run_add_row(c, t, src, L->xs, L->xu);
    hdo_run_stepmag_end(c); /* the rows from here on are the next arc's */
    st = tr->nassigns > 0 ? eval_assigns(c, vals, src, k, L, t) : 0;
    if (st == 0)
        st = hdo_run_mode_cache_get(c, tgt, t);
    if (st < 0) {
        hdo_vec_clear(vals, tr->nassigns);
        return st;
    }
    mode_cache *mt = hdo_run_mode_entry(c, tgt);
    const hdo_reduced_struct *r = mt->red;
    /* Target start: assigned values fixed, kept values fixed, the rest
       free guesses from the start values (model-format.md, Meaning). */
    for (slong i = 0; i < r->nstate; i++) {
        slong v = r->state[i].var, o = r->state[i].order, a;
        for (a = 0; a < tr->nassigns; a++)
            if (tr->assigns[a].var == v)
                break;
        if (o == 0 && a < tr->nassigns) {
            mpfr_set(mt->xs + i, vals + a, MPFR_RNDN);
            mt->fixed[i] = 1;
        } else if (hdo_run_left_value(mt->xs + i, L, v, o)) {
            mt->fixed[i] = 1;
        } else {
            mt->fixed[i] = 0;
            if (o == 0)
                hdo_run_start_guess(mt->xs + i, c, v);
            else
                mpfr_set_ui(mt->xs + i, 0, MPFR_RNDN);
        }
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        slong v = r->unknown[j].var, o = r->unknown[j].order, a;
        for (a = 0; a < tr->nassigns; a++)
            if (tr->assigns[a].var == v)
                break;
        if (o == 0 && a < tr->nassigns)
            mpfr_set(mt->xu + j, vals + a, MPFR_RNDN);
        else if (!hdo_run_left_value(mt->xu + j, L, v, o)) {
            if (o == 0)
                hdo_run_start_guess(mt->xu + j, c, v);
            else
                mpfr_set_ui(mt->xu + j, 0, MPFR_RNDN);
        }
    }
    hdo_vec_clear(vals, tr->nassigns);
    /* the event's left limit, taken now: L points into the source mode's
       cache, which the reinitialisation may rebuild when the target is
       the source (the Kunkel-Mehrmann fallback of a self-loop) */
    slong nv = c->res->nvars;
    mpfr_ptr left = hdo_vec_init(nv, c->res->prec);
    for (slong v = 0; v < nv; v++)
        mpfr_set_nan(left + v);
    hdo_run_mode_values(left, NULL, hdo_run_mode_entry(c, src), L->xs, L->xu);
    /* a crossing's target is right by construction, unless a relation
       is identically zero there: that is decided anew (pattern.c); the
       active set of a complementarity block always is */
    st = hdo_run_enter(c, &tgt, t, &adjusted,
                       !tr->crossing || c->model->modes[tgt].zmask != 0);
    if (st == 0 && !tr->crossing && kind != HDO_EV_SLIDING_END)
        st = hdo_run_check_when_unique(c, tgt, t);
    if (st < 0) {
        hdo_vec_clear(left, nv);
        return st;
    }
    mt = hdo_run_mode_entry(c, tgt);
    if (tr->crossing && kind == HDO_EV_SWITCH)
        kind = HDO_EV_CROSSING;
    if (adjusted == HDO_RUN_IMPACT)
        kind = HDO_EV_IMPACT;
    else if (adjusted && (kind == HDO_EV_SWITCH || kind == HDO_EV_CROSSING))
        kind = HDO_EV_REINIT_ADJUSTED;

    hdo_event *ev =
        hdo_result_add_event(c->res, t, hdo_run_res_mode(c, src),
                             hdo_run_res_mode(c, tgt), kind, tr->guard_text);
    for (slong v = 0; v < nv; v++)
        mpfr_set(ev->left + v, left + v, MPFR_RNDN);
    hdo_vec_clear(left, nv);
    hdo_run_mode_values(ev->right, NULL, mt, mt->xs, mt->xu);
    ev->row_left = row_left;
    ev->row_right = hdo_run_add_row(c, t, tgt, mt->xs, mt->xu);
    hdo_run_carry_floors(c, row_left, ev->row_right);
    hdo_run_skip_samples_at(c, t, tgt, mt->xs, mt->xu);
    c->mode = tgt;
    mpfr_set(c->t, t, MPFR_RNDN);
    mpfr_set(c->last_event, t, MPFR_RNDN);
    if (c->res->nevents > c->max_events) { /* N events allowed, not N+1 */
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "more than %ld events (--max-events)", c->max_events);
        return hdo_run_fail(c, HDO_ERR_TOO_MUCH_WORK, tgt, t);
    }
    return 0;
}

int
hdo_run_take_transition(run_ctx *c, slong src, slong k, const left_limit *L,
                        const mpfr_t t, hdo_event_kind kind)
{
    return hdo_run_take_transition_tr(
        c, src, hdo_run_transition_of(c->model, src, k), k, L, t, kind);
}
