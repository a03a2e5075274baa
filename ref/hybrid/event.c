/* event.c -- the event of a step in hdo_run: in a model mode the
 * chattering policy (sliding, Zeno, livelock, an instantaneous cascade) and
 * the transition taken; in a sliding mode its end, or the surfaces of an
 * intersection */
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "chatter.h"

/* ------------------------------------------------------------------ */
/* The event of a step */

/* Handles the event of guard g at offset s of the current step. */
static int
handle_event(run_ctx *c, slong g, const mpfr_t s, int simultaneous)
{
    slong src = c->mode;
    mode_cache *mc = hdo_run_mode_entry(c, src);
    const hdo_mode *mode = c->model->modes + src;
    mpfr_t tstar, gap, ttol;
    int st = 0;

    mpfr_inits2(c->prec, tstar, gap, ttol, (mpfr_ptr)0);
    mpfr_add(tstar, c->t, s, MPFR_RNDN);
    hdo_run_event_samples_begin(c, src, g, tstar);
    hdo_run_state_at_end(c, mc, s);
    left_limit L = {mc->red, mc->ls, mc->lu, &mc->step->dense, s};

    mpfr_sub(gap, tstar, c->last_event, MPFR_RNDN);
    hdo_run_time_tol(ttol, c, tstar);
    int instant = mpfr_cmp(gap, ttol) < 0;

    if (instant && hdo_run_gaps_shrinking(c, ttol)) {
        /* the samples between tstar and the accumulation point come
           from the zeno code; drop the history after it */
        st = hdo_run_zeno(c, src, &L, tstar);
        hdo_run_hist_clear(c);
        c->ninstant = 0;
        c->spurious = 0;
        mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
        return st;
    }
    /* An event at the instant of the previous one must start from a state
       (the one that event left behind) whose switching function does not
       leave into its feasible side (KM Remark 12; the ball at h = 0 with
       v > 0 goes up, its next impact is later).  One that does was
       located in error: the cascade it belongs to is no hdo_run_livelock (no
       limit is taken from it) and ends at the chattering count. */
    if (!instant) {
        c->spurious = 0;
    } else if (!c->spurious) {
        c->spurious = hdo_run_guard_leaves_at(c, src, g, L.xs, L.xu, tstar);
        st = hdo_stepper_apply(mc->step, c->t, mc->xs, mc->xu, c->err);
        if (st < 0) {
            st = hdo_run_fail(c, st, src, c->t);
            mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
            return st;
        }
    }
    if (instant) {
        int taken = 0;
        st = hdo_run_livelock(c, src, g, &L, tstar, ttol, &taken);
        if (taken || st < 0) {
            hdo_run_hist_clear(c);
            c->ninstant = 0;
            c->spurious = 0;
            mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
            return st;
        }
    }
    if (instant) {
        if (++c->ninstant > HDO_RUN_MAX_INSTANT) {
            slong prev = c->res->nevents > 0
                             ? c->res->events[c->res->nevents - 1].from
                             : src;
            const hdo_chatter_policy *pol = hdo_run_chatter_policy(c->model);
            char *ts, who[512], pname[256];
            mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tstar);
            /* prev is a result mode index: a sliding mode that ended into
               src (sliding(A,B)) is past the model's modes */
            hdo_mode_name(pname, sizeof pname, c->model, prev);
            if (prev == src)
                snprintf(who, sizeof who, "mode '%s' switches to itself",
                         mode->name);
            else
                snprintf(who, sizeof who,
                         "modes '%s' and '%s' switch back and forth", pname,
                         mode->name);
            int cst = pol->status;
            hdo_error_set(c->err, cst, mode->whens[g].pos.line,
                          mode->whens[g].pos.col,
                          "chattering: %s on '%s' at t = %s (%d "
                          "instantaneous switches in a row); %s",
                          who, mode->whens[g].guard_text, ts,
                          HDO_RUN_MAX_INSTANT, pol->why);
            mpfr_free_str(ts);
            st = hdo_run_fail(c, cst, src, tstar);
            mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
            return st;
        }
    } else {
        c->ninstant = 0;
        c->spurious = 0;
    }
    /* Filippov: a switch into a mode that at once switches back across
       the same surface starts sliding (tested after the chattering
       count, so an enter/leave livelock at one instant ends there) */
    st = hdo_run_sliding_pair(c, src, g, &L, tstar);
    int slid = st == 1;
    if (st == 1 && simultaneous) {
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tstar);
        hdo_error_set(c->err, HDO_ERR_UNSUPPORTED, mode->whens[g].pos.line,
                      mode->whens[g].pos.col,
                      "sliding on an intersection of surfaces is not "
                      "covered: mode '%s' reaches '%s' together with another "
                      "of its surfaces at t = %s",
                      mode->name, mode->whens[g].guard_text, ts);
        mpfr_free_str(ts);
        st = HDO_ERR_UNSUPPORTED;
        hdo_run_fail(c, st, src, tstar);
    } else if (st == 1) {
        st = hdo_run_sliding_enter(c, src, g, &L, tstar);
    }
    if (st != 0 || slid) {
        mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
        return st;
    }
    hdo_run_hist_push(c, tstar, src, g, mc->ls, mc->lu);
    st = hdo_run_take_transition(c, src, g, &L, tstar,
                                 simultaneous ? HDO_EV_SIMULTANEOUS
                                              : HDO_EV_SWITCH);
    mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
    return st;
}

int
hdo_run_handle_event(run_ctx *c, slong g, const mpfr_t s, int simultaneous)
{
    int st = handle_event(c, g, s, simultaneous);
    hdo_run_event_samples_end(c);
    return st;
}

/* The event of guard g of the current sliding mode at offset s: alpha
   leaves [0, 1] (guard 0: alpha = 0, into b; guard 1: alpha = 1, into
   a; a sliding-end event), or another surface of a or b is reached
   (HDO_ERR_UNSUPPORTED). */
int
hdo_run_sliding_event(run_ctx *c, slong g, const mpfr_t s)
{
    slong m = c->mode;
    mode_cache *mc = hdo_run_mode_entry(c, m);
    hdo_model_struct *model = c->model;
    mpfr_t tstar;
    int st;

    mpfr_init2(tstar, c->prec);
    mpfr_add(tstar, c->t, s, MPFR_RNDN);
    hdo_run_emit_samples(c, tstar, 0);
    hdo_run_state_at_end(c, mc, s);
    left_limit L = {mc->red, mc->ls, mc->lu, &mc->step->dense, s};
    if (mc->set != NULL || g >= 2) {
        /* an intersection: a weight reaches its bound, or a further
           surface is reached (intersect.c) */
        st = mc->set != NULL && g < 2 * mc->set->k
                 ? hdo_run_intersect_leave(c, m, g / 2, g % 2 == 0, &L, tstar)
                 : hdo_run_intersect_reach(c, m, g, &L, tstar);
        mpfr_clear(tstar);
        return st;
    }
    hdo_transition tr;
    memset(&tr, 0, sizeof tr);
    tr.guard = HDO_EXPR_NONE;
    tr.target = g == 0 ? mc->sb : mc->sa;
    tr.guard_text = g == 0 ? "alpha = 0" : "alpha = 1";
    tr.pos = model->modes[tr.target].pos;
    hdo_run_hist_clear(c);
    st =
        hdo_run_take_transition_tr(c, m, &tr, 0, &L, tstar, HDO_EV_SLIDING_END);
    mpfr_clear(tstar);
    return st;
}
