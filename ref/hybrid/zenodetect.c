/* zenodetect.c -- Zeno detection in hdo_run: accumulating event times
 * and livelock (a cascade at one instant); the limits are in
 * ref/event/zeno.c */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* ------------------------------------------------------------------ */
/* Zeno */

void
hdo_run_hist_push(run_ctx *c, const mpfr_t t, slong src, slong g,
                  mpfr_srcptr ls, mpfr_srcptr lu)
{
    const hdo_reduced_struct *r = hdo_run_mode_entry(c, src)->red;
    hist_entry *h;
    if (c->nhist == HIST) {
        hist_entry old = c->hist[0];
        memmove(c->hist, c->hist + 1, (HIST - 1) * sizeof *c->hist);
        h = c->hist + HIST - 1;
        if (old.ns == r->nstate && old.nu == r->nimplicit &&
            mpfr_get_prec(old.t) == c->prec) {
            *h = old; /* its numbers are all overwritten below */
        } else {
            hdo_vec_clear(old.ls, old.ns);
            hdo_vec_clear(old.lu, old.nu);
            mpfr_clear(old.t);
            h->ls = NULL;
        }
    } else {
        h = c->hist + c->nhist++;
        h->ls = NULL;
    }
    if (h->ls == NULL) {
        /* a new entry; the oldest one's numbers are reused where they
           fit (a switching run pushes one an event, issue 28,
           decisions.md D-134) */
        mpfr_init2(h->t, c->prec);
        h->ns = r->nstate;
        h->nu = r->nimplicit;
        h->ls = hdo_vec_init(h->ns, c->prec);
        h->lu = hdo_vec_init(h->nu, c->prec);
    }
    mpfr_set(h->t, t, MPFR_RNDN);
    h->src = src;
    h->g = g;
    hdo_vec_set(h->ls, ls, h->ns);
    hdo_vec_set(h->lu, lu, h->nu);
}

/* Followed events whose gaps must shrink before an instantaneous event
   counts as an accumulation, and how far above the time tolerance the
   last of those gaps may be (a geometric sequence of ratio r reaches the
   tolerance from at most tol / r; ratios down to 10^-6 are covered).  A
   cascade of instantaneous switches after an ordinary event (a PWM edge
   that makes a diode switch at once) fails the second test. */
#define ZENO_MIN_EVENTS 6
#define ZENO_LAST_GAP_FACTOR 1e6

/* 1 if the last ZENO_MIN_EVENTS followed events have strictly shrinking
   positive gaps, the last of them at most ZENO_LAST_GAP_FACTOR * ttol. */
int
hdo_run_gaps_shrinking(const run_ctx *c, const mpfr_t ttol)
{
    int ok = c->nhist >= ZENO_MIN_EVENTS;
    mpfr_t g1, g2;
    mpfr_inits2(c->prec, g1, g2, (mpfr_ptr)0);
    for (slong i = c->nhist - ZENO_MIN_EVENTS + 2; ok && i < c->nhist; i++) {
        mpfr_sub(g1, c->hist[i - 1].t, c->hist[i - 2].t, MPFR_RNDN);
        mpfr_sub(g2, c->hist[i].t, c->hist[i - 1].t, MPFR_RNDN);
        ok = mpfr_sgn(g2) > 0 && mpfr_cmp(g2, g1) < 0;
    }
    if (ok) {
        mpfr_mul_d(g1, ttol, ZENO_LAST_GAP_FACTOR, MPFR_RNDN);
        ok = mpfr_cmp(g2, g1) <= 0;
    }
    mpfr_clears(g1, g2, (mpfr_ptr)0);
    return ok;
}

/* The event times accumulate: the event just located at tn (in mode src,
   left limit L) follows the last one by less than the time tolerance,
   after shrinking gaps.  Takes the zeno clause at the extrapolated
   accumulation point, or fails with HDO_ERR_ZENO. */
int
hdo_run_zeno(run_ctx *c, slong src, const left_limit *L, const mpfr_t tn)
{
    const hist_entry *h = c->hist + c->nhist - 3;
    slong zm = -1;
    mpfr_t tinf, eps;
    int st;

    mpfr_inits2(c->prec, tinf, eps, (mpfr_ptr)0);
    mpfr_set_ui(eps, 0, MPFR_RNDN);
    hdo_zeno_aitken(tinf, h[0].t, h[1].t, h[2].t, eps);
    if (mpfr_cmp(tinf, tn) < 0)
        mpfr_set(tinf, tn, MPFR_RNDN);
    /* whose clause: the mode of the accumulating events (the current
       one, else the latest earlier source that has a clause) */
    if (c->model->modes[src].has_zeno)
        zm = src;
    for (slong i = c->nhist - 1; zm < 0 && i >= 0; i--)
        if (c->model->modes[c->hist[i].src].has_zeno)
            zm = c->hist[i].src;
    if (zm < 0) {
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tinf);
        hdo_error_set(c->err, HDO_ERR_ZENO, c->model->modes[src].pos.line,
                      c->model->modes[src].pos.col,
                      "Zeno behaviour: the event times of mode '%s' "
                      "accumulate at t = %s (estimated from the last events, "
                      "after %ld events); the mode has no `zeno goto` clause",
                      c->model->modes[src].name, ts, (long)c->res->nevents);
        mpfr_free_str(ts);
        st = hdo_run_fail(c, HDO_ERR_ZENO, src, tinf);
        mpfr_clears(tinf, eps, (mpfr_ptr)0);
        return st;
    }
    if (mpfr_cmp(tinf, c->t_end) > 0)
        mpfr_set(tinf, c->t_end, MPFR_RNDN);

    /* The state at the accumulation point: the limit of the left limits
       of mode zm's events, by Aitken per component where three are at
       hand and converge geometrically, else the freshest left limit. */
    mode_cache *mz = hdo_run_mode_entry(c, zm);
    const hdo_reduced_struct *r = mz->red;
    slong idx[3], n = 0;
    for (slong i = c->nhist - 1; i >= 0 && n < 3; i--)
        if (c->hist[i].src == zm)
            idx[n++] = i;
    if (zm == src) {
        hdo_vec_set(mz->ls, L->xs, r->nstate);
        hdo_vec_set(mz->lu, L->xu, r->nimplicit);
    } else {
        const hist_entry *e = c->hist + idx[0];
        hdo_vec_set(mz->ls, e->ls, r->nstate);
        hdo_vec_set(mz->lu, e->lu, r->nimplicit);
    }
    if (n == 3) {
        const hist_entry *a = c->hist + idx[2], *b = c->hist + idx[1],
                         *e = c->hist + idx[0];
        /* a difference below tol times the variable's scale is
           converged already (relative to that scale, not to 1: a spiral
           of size 1e-40 has its limit extrapolated as one of size 1) */
        for (slong i = 0; i < r->nstate; i++) {
            hdo_run_var_scale(eps, c, r->state[i].var, e->ls + i);
            hdo_zeno_aitken(mz->ls + i, a->ls + i, b->ls + i, e->ls + i, eps);
        }
        for (slong j = 0; j < r->nimplicit; j++) {
            hdo_run_var_scale(eps, c, r->unknown[j].var, e->lu + j);
            hdo_zeno_aitken(mz->lu + j, a->lu + j, b->lu + j, e->lu + j, eps);
        }
    }
    /* The limit state is extrapolated, known to tol times each
       variable's scale (eps above), not relative to the last flight's
       size: its rows take the next arc's magnitudes, not the last
       step's (the ball's v at t*, 6e-45 beside flights of 6e-35) */
    hdo_run_stepmag_end(c);
    /* samples up to the accumulation point from the limit state */
    hdo_run_emit_samples_point(c, zm, mz->ls, mz->lu, tinf, 0);
    left_limit Z = {r, mz->ls, mz->lu, NULL, NULL};
    st = hdo_run_take_transition(c, zm, c->model->modes[zm].nwhens, &Z, tinf,
                                 HDO_EV_ZENO);
    mpfr_clears(tinf, eps, (mpfr_ptr)0);
    return st;
}

/* Zeno at one instant (livelock: Camlibel et al. 2002, section 5.3 and
   Example 5.1; decisions.md D-021).  A cascade of instantaneous events whose
   (mode, when) pattern repeats with a period p, and whose states at the
   same place of the period converge geometrically, is the limit of
   infinitely many events at this instant: the zeno clause is taken there
   with the extrapolated limit state.  The test looks at
   LIVELOCK_SAMPLES states (the 6 events of the time test, one per
   period), so a cycle is followed (LIVELOCK_SAMPLES - 1) p times before
   its limit is taken. */
#define LIVELOCK_SAMPLES ZENO_MIN_EVENTS
#define LIVELOCK_MAX_PERIOD 4

slong
hdo_run_livelock_period(const slong *src, const slong *g, slong n)
{
    return hdo_zeno_period(src, g, n, LIVELOCK_SAMPLES, LIVELOCK_MAX_PERIOD);
}

/* Whether the switching function of when g of mode m, expanded at the
   state (xs, xu) at t, leaves into its feasible side there
   (hdo_zeno_guard_leaves over the horizon of a step, event_horizon).  Uses m's
   Taylor object; an expansion that fails counts as leaving (no limit is
   taken from a state the mode cannot continue from). */
int
hdo_run_guard_leaves_at(run_ctx *c, slong m, slong g, mpfr_srcptr xs,
                        mpfr_srcptr xu, const mpfr_t t)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    hdo_stepper_struct *sp = mc->step;
    hdo_error_t e;
    hdo_error_clear(&e);
    hdo_run_set_floors(c, mc);
    hdo_run_guard_noise(c, mc, t, xs, xu);
    if (hdo_stepper_apply(sp, t, xs, xu, &e) < 0)
        return 1;
    slong p = sp->dense.order;
    mpfr_t h;
    mpfr_init2(h, c->prec);
    hdo_stepper_step_size(h, sp);
    hdo_run_event_horizon(h, c, t);
    hdo_run_guard_floors(c, mc, t, xs, xu, &sp->dense, h);
    int leaves = hdo_zeno_guard_leaves(sp->dense.guard[g * (p + 1)], p + 1, h,
                                       c->tol, mc->gfloor + g);
    mpfr_clear(h);
    return leaves;
}

/* The event of when g of mode src (left limit L) at tn is instantaneous.
   When it and the events before it form a cascade at tn of period p whose
   states converge, at every place of the period, to a limit at which
   that place's switching function does not leave into its feasible side
   (else the cascade ends by itself after finitely many events: it is
   followed), takes the zeno clause of the latest mode of the period that
   has one at tn, from that place's limit state (*taken = 1), or fails
   with HDO_ERR_ZENO when no mode of the period has one.  Otherwise
   *taken = 0 and the run goes on as before (the Taylor expansion of the
   current step is restored). */
int
hdo_run_livelock(run_ctx *c, slong src, slong g, const left_limit *L,
                 const mpfr_t tn, const mpfr_t ttol, int *taken)
{
    slong n = c->nhist + 1, srcs[HIST + 1], gs[HIST + 1];
    *taken = 0;
    if (c->spurious)
        return 0;
    for (slong i = 0; i < c->nhist; i++) {
        srcs[i] = c->hist[i].src;
        gs[i] = c->hist[i].g;
    }
    srcs[n - 1] = src;
    gs[n - 1] = g;
    slong p = hdo_run_livelock_period(srcs, gs, n);
    if (p == 0)
        return 0;
    slong first = n - 1 - (LIVELOCK_SAMPLES - 1) * p;
    int ok = 1;
    mpfr_t d;
    mpfr_init2(d, c->prec);
    for (slong i = first; ok && i < n - 1; i++) {
        mpfr_sub(d, c->hist[i].t, tn, MPFR_RNDN);
        ok = mpfr_cmpabs(d, ttol) < 0;
    }
    mpfr_clear(d);
    if (!ok)
        return 0;

    /* each place of the last period, newest first: its limit, and
       whether its switching function still acts there */
    slong zm = -1, zdim = 0, cnt = 0;
    mpfr_ptr zlim = NULL;
    int expanded = 0;
    for (slong j = n - 1; ok && j > n - 1 - p; j--) {
        slong m = srcs[j];
        const hdo_reduced_struct *r = hdo_run_mode_entry(c, m)->red;
        slong ns = r->nstate, nu = r->nimplicit, dim = ns + nu;
        mpfr_ptr ys[LIVELOCK_SAMPLES];
        cnt = 0;
        for (slong i = j - ((j - first) / p) * p; i <= j; i += p) {
            mpfr_srcptr xs = i == n - 1 ? L->xs : c->hist[i].ls;
            mpfr_srcptr xu = i == n - 1 ? L->xu : c->hist[i].lu;
            ys[cnt] = hdo_vec_init(dim, c->prec);
            hdo_vec_set(ys[cnt], xs, ns);
            hdo_vec_set(ys[cnt] + ns, xu, nu);
            cnt++;
        }
        mpfr_ptr lim = hdo_vec_init(dim, c->prec);
        ok = hdo_zeno_state_limit(lim, (mpfr_srcptr const *)ys, cnt, dim,
                                  c->tol, c->prec);
        if (ok) {
            expanded |= m == src;
            ok = !hdo_run_guard_leaves_at(c, m, gs[j], lim, lim + ns, tn);
        }
        if (ok && zm < 0 && c->model->modes[m].has_zeno) {
            zm = m;
            zlim = lim;
            zdim = dim;
        } else {
            hdo_vec_clear(lim, dim);
        }
        for (slong k = 0; k < cnt; k++)
            hdo_vec_clear(ys[k], dim);
    }
    int st = 0;
    if (!ok) {
        if (expanded)
            st = hdo_stepper_apply(hdo_run_mode_entry(c, src)->step, c->t,
                                   hdo_run_mode_entry(c, src)->xs,
                                   hdo_run_mode_entry(c, src)->xu, c->err);
        if (st < 0)
            st = hdo_run_fail(c, st, src, c->t);
    } else if (zm < 0) {
        const hdo_mode *mode = c->model->modes + src;
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tn);
        hdo_error_set(c->err, HDO_ERR_ZENO, mode->whens[g].pos.line,
                      mode->whens[g].pos.col,
                      "Zeno behaviour at one instant (livelock): at t = %s "
                      "mode '%s' takes '%s' again and again without time "
                      "advancing (%ld periods of %ld event%s followed) while "
                      "the state converges; no mode of the cycle has a "
                      "`zeno goto` clause",
                      ts, mode->name, mode->whens[g].guard_text,
                      (long)(LIVELOCK_SAMPLES - 1), (long)p, p > 1 ? "s" : "");
        mpfr_free_str(ts);
        st = hdo_run_fail(c, HDO_ERR_ZENO, src, tn);
    } else {
        mode_cache *mz = hdo_run_mode_entry(c, zm);
        const hdo_reduced_struct *r = mz->red;
        hdo_vec_set(mz->ls, zlim, r->nstate);
        hdo_vec_set(mz->lu, zlim + r->nstate, r->nimplicit);
        left_limit Z = {r, mz->ls, mz->lu, NULL, NULL};
        *taken = 1;
        st = hdo_run_take_transition(c, zm, c->model->modes[zm].nwhens, &Z, tn,
                                     HDO_EV_ZENO);
    }
    if (zlim != NULL)
        hdo_vec_clear(zlim, zdim);
    return st;
}

void
hdo_run_hist_clear(run_ctx *c)
{
    for (slong i = 0; i < c->nhist; i++) {
        hdo_vec_clear(c->hist[i].ls, c->hist[i].ns);
        hdo_vec_clear(c->hist[i].lu, c->hist[i].nu);
        mpfr_clear(c->hist[i].t);
    }
    c->nhist = 0;
}
