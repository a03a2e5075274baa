/* driver.c -- hdo_certify: the certified pass along the arcs of a run:
   validated steps, the run's rows and events as balls, transitions, and
   where the pass has to stop */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "taylor.h"

/* Why along the run's arcs: the run has already decided which events
   happen, in which order and where the rows are; the certified pass
   proves each of those facts again from the model alone (each event time
   is enclosed and proven the first zero of its switching function, the
   other switching functions proven positive up to it), and stops where it
   cannot, so that the run is the guide and never the evidence.  A
   disagreement between them stops the pass with both named: it is a
   defect to find. */

/* Retries of a step whose switching functions could not be proven
   positive (each shortens it to half the undecided place). */
#define MAX_SHORTEN 40

/* The scales of the components (states, then unknowns) at the centre:
   max(|x_i|, the variable's floor), as the run's error control: its
   nominal value, 10^-(D+5) times its largest magnitude so far, and
   10^-2(D+5) times the largest magnitude of any variable. */
static void
scales(mag_ptr scale, arc_t *a)
{
    cert_ctx *c = a->c;
    const hdo_reduced_struct *red = a->cm->red;
    slong ns = red->nstate, nu = red->nimplicit;
    double *lx = flint_malloc((ns + nu + 1) * sizeof *lx);
    for (slong i = 0; i < ns + nu; i++) {
        arb_srcptr x = i < ns ? a->X->c + i : a->u + (i - ns);
        slong var = i < ns ? red->state[i].var : red->unknown[i - ns].var;
        mag_t mx;
        mag_init(mx);
        arb_get_mag(mx, x);
        lx[i] = mag_is_zero(mx) ? -INFINITY : mag_get_d_log2_approx(mx);
        if (lx[i] > c->varmax[var] && isfinite(lx[i]))
            c->varmax[var] = lx[i];
        mag_clear(mx);
    }
    double gmax = -INFINITY;
    for (slong v = 0; v < c->model->nvars; v++)
        if (c->varmax[v] > gmax)
            gmax = c->varmax[v];
    for (slong i = 0; i < ns + nu; i++) {
        slong var = i < ns ? red->state[i].var : red->unknown[i - ns].var;
        double fl = c->nominal[var];
        if (c->varmax[var] + c->ltol > fl)
            fl = c->varmax[var] + c->ltol;
        if (gmax + 2 * c->ltol > fl)
            fl = gmax + 2 * c->ltol;
        if (lx[i] > fl)
            fl = lx[i];
        if (!isfinite(fl))
            fl = 2 * c->ltol; /* every variable zero so far */
        mag_set_ui_2exp_si(scale + i, 1, (slong)floor(fl));
    }
    flint_free(lx);
}

/* The guard index of the run's event e in mode m (its `when`; for a
   sliding start the `when` into the pair's other mode; for a sliding end
   0 for alpha = 0, into b, 1 for alpha = 1, into a), or -1. */
static slong
event_transition(cert_ctx *c, const hdo_event *e, slong m)
{
    slong n = c->model->nmodes;
    if (e->from != m)
        return -1;
    if (m >= n) {
        char why[64];
        const cert_mode *cm = cert_mode_get(c, m, why, sizeof why);
        if (cm == NULL || e->kind != HDO_EV_SLIDING_END)
            return -1;
        for (slong k = 0; k < 2; k++)
            if (e->to == (k == 0 ? cm->sb : cm->sa) && e->guard != NULL &&
                strcmp(e->guard, cm->gtext[k]) == 0)
                return k;
        return -1;
    }
    slong to = e->to;
    if (e->kind == HDO_EV_SLIDING_START) {
        if (to < n || to >= n + n * n)
            return -1;
        slong a = (to - n) / n, b = (to - n) % n;
        if (m != a && m != b)
            return -1;
        to = m == a ? b : a;
    } else if (to >= n) {
        return -1;
    }
    const hdo_mode *mode = c->model->modes + m;
    for (slong k = 0; k < mode->nwhens; k++)
        if (mode->whens[k].target == to &&
            (mode->whens[k].guard_text == e->guard ||
             (e->guard != NULL &&
              strcmp(mode->whens[k].guard_text, e->guard) == 0)))
            return k;
    return -1;
}

/* Proves every located guard positive on [0, b] (the event's guard ge
   only on [0, be] when ge >= 0, its zero in [be, b]).  zend: the local
   time of the run's
   exact end when the step reaches it (else NULL): a clock exactly zero
   there (an edge at `until`, which the run does not take: model-format.md)
   is proven positive up to it, not at it.  Returns -1 when proven, else
   the first guard that was not, with *fail its place. */
static slong
exclude_all(arc_t *a, const arf_t b, slong ge, const arf_t be,
            const arb_struct *zend, arf_t fail)
{
    cert_mode *cm = a->cm;
    int first = arf_is_zero(a->sloc);
    for (slong g = 0; g < cm->ng; g++) {
        if (!cm->locate[g] || a->skip[g])
            continue;
        const arf_struct *end = g == ge ? be : b;
        arf_t zero;
        arf_init(zero);
        int z0 = first && a->zero0[g];
        int ok = cert_guard_positive(cm->step, g, zero, end, z0, fail);
        if (!ok && z0 && cert_guard_slope_zero(a, g)) {
            /* a tangential departure: S and S' zero, S'' decides */
            z0 = 2;
            ok = cert_guard_positive(cm->step, g, zero, end, z0, fail);
        }
        if (!ok && zend != NULL && cert_clock_zero_at_end(a, g)) {
            arf_t zlo;
            arf_init(zlo);
            arb_get_lbound_arf(zlo, zend, a->c->prec);
            ok = cert_guard_positive_to_zero(cm->step, g, zero, zlo, end, z0,
                                             fail);
            arf_clear(zlo);
        }
        if (!ok && g == ge)
            /* the event's own zero lies in [be, b] (interval Newton): an
               exact one (t > 1: a ball of radius 0) leaves S(be) = 0, so
               positivity is proven up to it, not at it */
            ok =
                cert_guard_positive_to_zero(cm->step, g, zero, be, b, z0, fail);
        arf_clear(zero);
        if (!ok)
            return g;
    }
    return -1;
}

/* The last sample row before the run's event e, or -1 when the arc has
   none left before it. */
static slong
last_sample_before(const arc_t *a, const hdo_event *E)
{
    slong r = E->row_left - 1;
    if (r < a->row || r < 0 || a->c->res->rows[r].sample < 0)
        return -1;
    return r;
}

/* Why the pass does not go beyond the run's event e. */
static const char *
terminal_reason(const cert_ctx *c, const hdo_event *e)
{
    slong n = c->model->nmodes;
    if (e->from >= n && e->kind != HDO_EV_SLIDING_END)
        return "a further surface reached while sliding (sliding on an "
               "intersection of surfaces, or across one), which the pass "
               "does not certify";
    switch (e->kind) {
    case HDO_EV_SIMULTANEOUS:
        return "two switching functions vanish at once (a simultaneous "
               "event), which the pass does not decide";
    case HDO_EV_SLIDING_START:
    case HDO_EV_SLIDING_END:
        /* a pair's sliding is certified (sliding.c); an intersection's
           is not */
        if (e->to >= n + n * n || e->from >= n + n * n)
            return "Filippov sliding on an intersection of surfaces, which "
                   "the pass does not certify";
        break;
    case HDO_EV_ZENO:
        return "the events accumulate (Zeno): certified up to the last "
               "event the run followed, not the accumulation point";
    case HDO_EV_REINIT_ADJUSTED: /* the smallest change: reinit.c */
    case HDO_EV_SWITCH:
    case HDO_EV_CROSSING:
        break;
    }
    return NULL;
}

/* The arc's upper bound of the local time s, as a point. */
static void
upper(arf_t u, const arb_t s, slong prec)
{
    arb_get_ubound_arf(u, s, prec);
}

/* Integrates the current arc: steps up to the run's next event (taken)
   or its end.  Returns 0 at the end of the run, ARC_EVENT after an event
   (a new arc has begun), or HDO_CERTIFY_STOPPED. */
static int
run_arc(arc_t *a)
{
    cert_ctx *c = a->c;
    const hdo_result_struct *res = c->res;
    slong prec = c->prec, shorten = 0;
    int st = 0, capped = 0;
    arb_t sig, tstep, I, hb;
    arf_t hmax, hcap, hc, fail, lo, hi, m;
    mag_ptr scale = NULL;
    arb_ptr x = NULL;
    arb_mat_t J;
    arb_init(sig);
    arb_init(tstep);
    arb_init(I);
    arb_init(hb);
    arf_init(hmax);
    arf_init(hcap);
    arf_init(hc);
    arf_init(fail);
    arf_init(lo);
    arf_init(hi);
    arf_init(m);
    slong ns = a->cm->red->nstate, nu = a->cm->red->nimplicit, ng = a->cm->ng;
    scale = _mag_vec_init(ns + nu + ng + 1);
    x = _arb_vec_init(ns + 1);
    arb_mat_init(J, ns, ns);
    for (;;) {
        const hdo_event *E = a->ev < res->nevents ? res->events + a->ev : NULL;
        const char *term = E != NULL ? terminal_reason(c, E) : NULL;
        slong k = -1;
        mpfr_srcptr target = res->t_end;
        if (E != NULL && term == NULL) {
            k = event_transition(c, E, a->m);
            if (k < 0) {
                st = cert_stop(a, mpfr_get_d(E->time, MPFR_RNDN),
                               "the run's event %ld (`%s`) is not a transition "
                               "of mode %s",
                               (long)E->index, E->guard ? E->guard : "",
                               a->cm->name);
                break;
            }
            target = E->time;
        } else if (E != NULL && E->kind == HDO_EV_ZENO) {
            st = cert_zeno_event(a, E); /* zeno.c */
            break;
        } else if (E != NULL) {
            slong r = last_sample_before(a, E);
            if (r < 0) {
                st = cert_stop(a, mpfr_get_d(E->time, MPFR_RNDN), "%s", term);
                break;
            }
            target = res->rows[r].time;
        }
        /* an arc the run found stiff: up to its last row before it */
        if (c->stiff_from < mpfr_get_d(target, MPFR_RNDN)) {
            slong r = a->row;
            while (r < res->nrows &&
                   mpfr_get_d(res->rows[r].time, MPFR_RNDN) < c->stiff_from)
                r++;
            if (r == a->row || res->rows[r - 1].sample < 0) {
                st = cert_stop(a, c->stiff_from,
                               "a stiff arc (the run integrated it with the "
                               "implicit method from t = %.17g): the certified "
                               "Taylor steps would be limited by stability",
                               c->stiff_from);
                break;
            }
            term = "a stiff arc follows (the run integrated it with the "
                   "implicit method): the certified Taylor steps would be "
                   "limited by stability";
            target = res->rows[r - 1].time;
            E = NULL;
        }
        if (c->cert->steps > 50 * (res->steps + 20)) {
            st = cert_stop(
                a, cert_arb_d(a->tarc),
                "the certified pass took %ld steps, 50 times the run's "
                "%ld: a stiff arc, or steps its remainder keeps small",
                (long)c->cert->steps, (long)res->steps);
            break;
        }
        arb_add_arf(tstep, a->tarc, a->sloc, prec);
        if (E == NULL && term == NULL && c->tend != HDO_EXPR_NONE) {
            /* the run's end: its exact time (the last row's) */
            arb_sub(sig, c->tend_ball, a->tarc, prec);
            arb_sub_arf(sig, sig, a->sloc, prec);
        } else {
            cert_local_time(sig, a, target);
        }
        /* the step may reach a little beyond the target, to cover its
           ball (a margin far above any ball's radius) */
        upper(hmax, sig, prec);
        {
            arf_t mg;
            arf_init(mg);
            arf_set_mag(mg, arb_radref(sig));
            arf_mul_2exp_si(mg, mg, 4);
            arf_add(hmax, hmax, mg, prec, ARF_RND_UP);
            arf_mul_2exp_si(mg, hmax, -40);
            arf_abs(mg, mg);
            arf_add(hmax, hmax, mg, prec, ARF_RND_UP);
            arf_clear(mg);
        }
        if (capped && arf_cmp(hcap, hmax) < 0)
            arf_set(hmax, hcap);
        /* the run took the event at once: at the time of its last event
           (or its start); the pass proves it infeasible there */
        int instant =
            E != NULL && term == NULL && arf_is_zero(a->sloc) &&
            mpfr_equal_p(E->time,
                         a->ev > 0 ? res->events[a->ev - 1].time : res->t0);
        int at_start = arf_is_zero(a->sloc) && arb_contains_zero(sig);
        if (arf_sgn(hmax) <= 0 && !at_start && !instant) {
            st =
                cert_stop(a, cert_arb_d(tstep),
                          "the run's next event or end (t = %.17g) lies before "
                          "the certified time",
                          mpfr_get_d(target, MPFR_RNDN));
            break;
        }
        if (instant || arf_sgn(hmax) <= 0)
            arf_one(hmax);
        scales(scale, a);
        hdo_expr bad = HDO_EXPR_NONE;
        int s2 = cert_step_take(a->cm->step, a->X, tstep, hmax, scale, c->ltol,
                                a->u, &bad);
        c->cert->tries += a->cm->step->tries;
        if (s2 != 0) {
            st = cert_stop(a, cert_arb_d(tstep), "no validated step: %s",
                           a->cm->step->why[0] ? a->cm->step->why
                                               : hdo_status_name(s2));
            break;
        }
        c->cert->steps++;
        const arf_struct *h = a->cm->step->h;
        if (arf_is_zero(a->sloc))
            cert_exact_zeros(a);
        if (instant) {
            st = cert_instant_event(a, k);
            if (st == 0)
                st = ARC_EVENT;
            break;
        }
        arb_get_ubound_arf(hi, sig, prec);
        int reach = arf_cmp(h, hi) >= 0;
        if (E != NULL && term == NULL && reach) {
            /* the event: its time, then no earlier zero anywhere */
            arb_get_mid_arb(hb, sig);
            arf_set(m, arb_midref(hb));
            if (arf_sgn(m) < 0)
                arf_zero(m);
            if (arf_cmp(m, h) > 0)
                arf_set(m, h);
            if (cert_guard_root(I, a->cm->step, k, m, 0) != 0) {
                /* the rest of a Zeno cascade, by its scaling (zeno.c) */
                st = cert_zeno_tail(a);
                if (st == -2)
                    st = cert_stop(
                        a, mpfr_get_d(E->time, MPFR_RNDN),
                        "the time of event %ld (`%s`) is not enclosed as a "
                        "simple crossing (a grazing or multiple zero, or "
                        "one the run misplaced)",
                        (long)E->index, E->guard);
                break;
            }
            arb_get_lbound_arf(lo, I, prec);
            arb_get_ubound_arf(hi, I, prec);
            slong g = exclude_all(a, hi, k, lo, NULL, fail);
            if (g >= 0) {
                if (arf_cmp_2exp_si(fail, -20) > 0 &&
                    ++shorten <= MAX_SHORTEN) {
                    /* perhaps only too long a step: half the way there */
                    arf_mul_2exp_si(hcap, fail, -1);
                    capped = 1;
                    continue;
                }
                arb_set_arf(hb, fail);
                arb_add(hb, hb, tstep, prec);
                st = cert_stop(a, cert_arb_d(hb),
                               "the switching function `%s` is not proven "
                               "positive before event %ld: an earlier or "
                               "simultaneous zero is not excluded",
                               a->cm->gtext[g], (long)E->index);
                break;
            }
            arf_set(hc, lo);
            if ((st = cert_emit_samples(a, hc, 0)) != 0)
                break;
            while (a->row < E->row_left && res->rows[a->row].sample >= 0 &&
                   cert_before_clock(a, k, res->rows[a->row].time)) {
                cert_row_local_time(hb, a, a->row);
                if (cert_emit_sample(a, hb) != 0)
                    break;
            }
            if (a->row < E->row_left) {
                const hdo_row *r = res->rows + a->row;
                if (cert_time_sign(a, a->m, k, r->time) < 0)
                    st = cert_stop(
                        a, mpfr_get_d(r->time, MPFR_RNDN),
                        "the run writes the sample at t = %.17g in "
                        "mode %s before event %ld, but that event's "
                        "switching function, of t alone, is already "
                        "negative at the sample's time: the exact event "
                        "comes first (a sample at the event's time, "
                        "ordered by the rounding of the two times)",
                        mpfr_get_d(r->time, MPFR_RNDN), a->cm->name,
                        (long)E->index);
                else
                    st =
                        cert_stop(a, mpfr_get_d(E->time, MPFR_RNDN),
                                  "a sample lies within the time ball of event "
                                  "%ld: its side of the event is not decided",
                                  (long)E->index);
                break;
            }
            st = cert_take_event(a, k, I, 0);
            if (st == 0)
                st = ARC_EVENT;
            break;
        }
        /* no event in this step: positivity up to its end, or the target */
        arf_set(hc, h);
        if (reach)
            arb_get_ubound_arf(hc, sig, prec);
        slong g =
            exclude_all(a, hc, -1, hc,
                        reach && E == NULL && term == NULL ? sig : NULL, fail);
        if (g >= 0) {
            if (arf_cmp_2exp_si(fail, -30) > 0 && ++shorten <= MAX_SHORTEN) {
                arf_mul_2exp_si(hcap, fail, -1);
                capped = 1;
                continue;
            }
            arb_set_arf(hb, fail);
            arb_add(hb, hb, tstep, prec);
            st = cert_stop(
                a, cert_arb_d(hb),
                "the switching function `%s` is not proven positive "
                "near t = %.17g: a grazing contact, or a zero the run "
                "did not take",
                a->cm->gtext[g], cert_arb_d(hb));
            break;
        }
        if ((st = cert_emit_samples(a, hc, reach)) != 0)
            break;
        if (reach && term != NULL) {
            st = cert_stop(
                a, E != NULL ? mpfr_get_d(E->time, MPFR_RNDN) : c->stiff_from,
                "%s", term);
            break;
        }
        if (reach && E == NULL) {
            if (a->row < res->nrows) {
                st =
                    cert_stop(a, mpfr_get_d(res->t_end, MPFR_RNDN),
                              "the run's rows after its end are not certified");
                break;
            }
            st = 0; /* the end of the run */
            break;
        }
        /* commit the step up to hc */
        arb_set_arf(hb, hc);
        if (cert_step_states(x, J, a->cm->step, hb) != 0) {
            st = cert_stop(a, cert_arb_d(tstep),
                           "the step's end is not enclosed");
            break;
        }
        for (slong j = 0; j < nu; j++) {
            cert_step_eval(a->u + j, a->cm->step, ns + j, hb, 0, prec);
            arb_get_mid_arb(a->u + j, a->u + j);
        }
        cert_set_advance(a->X, x, J);
        arf_add(a->sloc, a->sloc, hc, prec, ARF_RND_NEAR);
        /* the sum is exact at this precision in practice; a rounded one
           would only move the next step's start, which the local times
           of the rows and the event account for */
        capped = 0;
        shorten = 0;
    }
    arb_clear(sig);
    arb_clear(tstep);
    arb_clear(I);
    arb_clear(hb);
    arf_clear(hmax);
    arf_clear(hcap);
    arf_clear(hc);
    arf_clear(fail);
    arf_clear(lo);
    arf_clear(hi);
    arf_clear(m);
    _mag_vec_clear(scale, ns + nu + ng + 1);
    _arb_vec_clear(x, ns + 1);
    arb_mat_clear(J);
    return st;
}

int
cert_run(cert_ctx *c)
{
    const hdo_result_struct *res = c->res;
    arc_t a;
    memset(&a, 0, sizeof a);
    a.c = c;
    a.m = res->rows[0].mode;
    a.prev_m = a.prev_k = -1;
    a.tzero = HDO_EXPR_NONE;
    arb_init(a.tarc);
    arf_init(a.sloc);
    mpfr_init2(a.last, c->prec);
    mpfr_set_nan(a.last);
    int st = 0;
    char why[512];
    if (c->model->warnings != NULL) {
        st = cert_stop(
            &a, mpfr_get_d(res->t0, MPFR_RNDN),
            "a constant of the model was taken as zero without a proof "
            "(see the warning)");
    } else if (a.m >= c->model->nmodes) {
        st = cert_stop(&a, mpfr_get_d(res->t0, MPFR_RNDN),
                       "the run starts in a sliding mode");
    } else {
        cert_mode *cm = cert_mode_get(c, a.m, why, sizeof why);
        arb_t t0;
        arb_init(t0);
        if (cm == NULL ||
            cert_constant_arb(t0, &c->work, c->model->t0, c->prec) != 0) {
            st = cert_stop(&a, mpfr_get_d(res->t0, MPFR_RNDN), "%s",
                           cm == NULL ? why : "the start time is not enclosed");
        } else {
            arb_ptr x = _arb_vec_init(cm->red->nstate + 1);
            arb_ptr u = _arb_vec_init(cm->red->nimplicit + 1);
            arb_ptr g = _arb_vec_init(cm->red->nimplicit + 1);
            cert_unknown_guess(g, cm, res->rows[0].values);
            if (cert_start_state(x, u, c, a.m, t0, g, why, sizeof why) != 0)
                st = cert_stop(&a, cert_arb_d(t0), "%s", why);
            else
                st = cert_arc_begin(&a, a.m, t0, NULL, x, u);
            for (slong gg = 0; st == 0 && gg < a.cm->ng; gg++)
                a.zero0[gg] = cert_start_guard_zero(c, a.m, gg);
            if (st == 0)
                cert_arc_invariants(&a);
            _arb_vec_clear(x, cm->red->nstate + 1);
            _arb_vec_clear(u, cm->red->nimplicit + 1);
            _arb_vec_clear(g, cm->red->nimplicit + 1);
        }
        arb_clear(t0);
    }
    if (st == 0)
        st = ARC_EVENT; /* an arc has begun */
    while (st == ARC_EVENT) {
        st = run_arc(&a);
        if (st == 0) {
            c->cert->complete = 1;
            break;
        }
    }
    mpfr_set(c->cert->until, a.last, MPFR_RNDN);
    if (a.has_X) {
        cert_set_clear(a.X);
        _arb_vec_clear(a.u, a.cm->red->nimplicit + 1);
        flint_free(a.zero0);
        flint_free(a.skip);
        flint_free(a.slope0);
    }
    arb_clear(a.tarc);
    arf_clear(a.sloc);
    mpfr_clear(a.last);
    return c->cert->complete ? 0 : HDO_CERTIFY_STOPPED;
}
