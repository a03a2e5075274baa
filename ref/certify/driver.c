/* driver.c -- hdo_certify: the certified pass along the arcs of a run:
   validated steps, the run's rows and events as balls, transitions, and
   where the pass has to stop */
#include <math.h>
#include <stdarg.h>
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

#define LOG2_10 3.32192809488736234787
/* Retries of a step whose switching functions could not be proven
   positive (each shortens it to half the undecided place). */
#define MAX_SHORTEN 40
/* run_arc's outcome besides the end of the run (0) and a stop */
#define ARC_EVENT 2

typedef struct {
    cert_ctx *c;
    slong m;
    cert_mode *cm;
    cert_set_t X;
    int has_X;
    arb_t tarc;  /* the arc's start, absolute: an event's time ball */
    arf_t sloc;  /* the current step's start, from tarc: exact */
    arb_ptr u;   /* the unknowns at the current point (guesses) */
    int *zero0;  /* per guard: exactly zero at the arc's start */
    int *skip;   /* per guard: zero all along the arc (a first integral) */
    slong prev_m, prev_k; /* the transition that began the arc, or -1 */
    slong row;   /* the next row of the run to certify */
    slong ev;    /* the next event of the run */
    mpfr_t last; /* the time of the last certified row */
} arc_t;


/* Stops the pass: cert->reason "<why> (in mode M at t = T)". */
static int
stop(arc_t *a, double t, const char *fmt, ...)
{
    hdo_certified_struct *cert = a->c->cert;
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char *mode = a->m >= 0 && a->m < a->c->model->nmodes
                           ? a->c->model->modes[a->m].name
                           : "?";
    snprintf(cert->stop_mode, sizeof cert->stop_mode, "%s", mode);
    cert->stop_time = t;
    if (isnan(t))
        snprintf(cert->reason, sizeof cert->reason, "%s (in mode %s)", buf,
                 mode);
    else
        snprintf(cert->reason, sizeof cert->reason,
                 "%s (in mode %s at t = %.17g)", buf, mode, t);
    return HDO_CERTIFY_STOPPED;
}

static double
arb_d(const arb_t x)
{
    return arf_get_d(arb_midref(x), ARF_RND_NEAR);
}

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

/* The values of the mode's variables at s (a ball in [0, h]) into the
   balls out (model->nvars, present set): each variable's component. */
static int
values_at(hdo_ball *out, int *present, arc_t *a, const arb_t s)
{
    const hdo_model_struct *model = a->c->model;
    arb_t v;
    arb_init(v);
    int st = 0;
    for (slong var = 0; var < model->nvars; var++) {
        slong comp = a->cm->comp[var];
        present[var] = comp >= 0;
        if (comp < 0)
            continue;
        if (cert_step_eval(v, a->cm->step, comp, s, 0, a->c->prec) != 0 ||
            !arb_is_finite(v))
            st = -1;
        cert_ball_set_arb(out + var, v);
    }
    arb_clear(v);
    return st;
}

/* Certifies the run's row a->row, a sample of the current arc at local
   time s of the current step. */
static int
emit_sample(arc_t *a, const arb_t s)
{
    const hdo_row *row = a->c->res->rows + a->row;
    hdo_cert_row *r = cert_result_add_row(a->c->cert);
    r->row = a->row;
    r->mode = row->mode;
    mpfr_set(r->time.mid, row->time, MPFR_RNDN);
    mpfr_set_zero(r->time.rad, 1);
    if (values_at(r->values, r->present, a, s) != 0) {
        a->c->cert->nrows--; /* not certified: dropped */
        hdo_cert_row tmp = a->c->cert->rows[a->c->cert->nrows];
        mpfr_clear(tmp.time.mid);
        mpfr_clear(tmp.time.rad);
        for (slong v = 0; v < a->c->model->nvars; v++) {
            mpfr_clear(tmp.values[v].mid);
            mpfr_clear(tmp.values[v].rad);
        }
        flint_free(tmp.values);
        flint_free(tmp.present);
        return -1;
    }
    mpfr_set(a->last, row->time, MPFR_RNDN);
    a->row++;
    return 0;
}

/* The row index's local time in the current step: t_row - (tarc + sloc). */
static void
local_time(arb_t s, arc_t *a, const mpfr_t t)
{
    arb_t tt;
    arb_init(tt);
    arf_set_mpfr(arb_midref(tt), t);
    mag_zero(arb_radref(tt));
    arb_sub(s, tt, a->tarc, a->c->prec);
    arb_sub_arf(s, s, a->sloc, a->c->prec);
    arb_clear(tt);
}

/* The ball mid +- rad. */
static void
ball_from(arb_t x, const mpfr_t mid, const mpfr_t rad)
{
    arf_t r;
    arf_init(r);
    arf_set_mpfr(arb_midref(x), mid);
    mag_zero(arb_radref(x));
    arf_set_mpfr(r, rad);
    arb_add_error_arf(x, r);
    arf_clear(r);
}

/* 1 when guard k of mode m reads no variable: a switching function of t
   alone (a clock, PWM). */
static int
time_only(const arc_t *a, slong m, slong k)
{
    hdo_model_struct *w = &a->c->work;
    hdo_expr S = a->c->modes[m].guards[k];
    if (!hdo_expr_has_time(w->pool, S))
        return 0;
    for (slong v = 0; v < a->c->model->nvars; v++)
        if (hdo_expr_max_order(w->pool, S, v) >= 0)
            return 0;
    return 1;
}

/* The sign of the time-only guard k of mode m at the point t, decided in
   Arb at up to 16 times the working precision; 0 when undecided.  A
   sample within an event's time ball is otherwise undecided (the state's
   balls hide the sign); a clock's sign at a point is not. */
static int
time_sign(const arc_t *a, slong m, slong k, const mpfr_t t)
{
    if (!time_only(a, m, k))
        return 0;
    hdo_model_struct *w = &a->c->work;
    hdo_expr S = a->c->modes[m].guards[k];
    int r = 0;
    mpfr_t mid, rad, tz;
    mpfr_init2(rad, 64);
    mpfr_init2(tz, 64);
    mpfr_set_zero(tz, 1);
    for (slong p = a->c->prec; p <= 16 * a->c->prec && r == 0; p *= 2) {
        mpfr_init2(mid, 4 * p + 64);
        if (hdo_expr_enclose(mid, rad, w->pool, S, NULL, NULL, NULL, 0, t, tz,
                             p) == 0 &&
            mpfr_cmpabs(mid, rad) > 0)
            r = mpfr_sgn(mid) > 0 ? 1 : -1;
        mpfr_clear(mid);
    }
    mpfr_clear(rad);
    mpfr_clear(tz);
    return r;
}

static int
before_time_event(arc_t *a, slong k, const mpfr_t t)
{
    return time_sign(a, a->m, k, t) > 0;
}

/* The zero of a time-only guard k of mode m in the ball te, enclosed in
   absolute time by the interval Newton operator on S(t) (S' = dS/dt
   symbolically): the event time of a clock does not depend on the state,
   nor on the uncertain start of the arc, whose ball would otherwise add
   up from event to event.  te is replaced by the tighter ball when one is
   proven; returns 1 then, else 0. */
static int
time_root(arb_t te, const arc_t *a, slong m, slong k)
{
    if (!time_only(a, m, k))
        return 0;
    hdo_model_struct *w = &a->c->work;
    hdo_expr S = a->c->modes[m].guards[k];
    hdo_expr dS = hdo_expr_diff_time(w->pool, S);
    slong prec = a->c->prec;
    int ok = 0;
    mpfr_t mid, rad, tm, tr;
    arb_t I, N, g, d;
    mpfr_init2(mid, 4 * prec + 64);
    mpfr_init2(rad, 64);
    mpfr_init2(tm, prec + 64);
    mpfr_init2(tr, 64);
    arb_init(I);
    arb_init(N);
    arb_init(g);
    arb_init(d);
    arb_set(I, te);
    for (int it = 0; it < 6; it++) {
        arf_t rr;
        arf_init(rr);
        arf_get_mpfr(tm, arb_midref(I), MPFR_RNDN);
        arf_set_mag(rr, arb_radref(I));
        arf_get_mpfr(tr, rr, MPFR_RNDU);
        arf_clear(rr);
        int e1 = hdo_expr_enclose(mid, rad, w->pool, dS, NULL, NULL, NULL, 0,
                                  tm, tr, prec);
        if (e1 != 0)
            break;
        ball_from(d, mid, rad);
        mpfr_set_zero(tr, 1);
        if (hdo_expr_enclose(mid, rad, w->pool, S, NULL, NULL, NULL, 0, tm, tr,
                             prec) != 0)
            break;
        ball_from(g, mid, rad);
        arb_div(N, g, d, prec);
        arb_neg(N, N);
        arb_add_arf(N, N, arb_midref(I), prec);
        if (!arb_contains_interior(I, N))
            break;
        arb_swap(I, N);
        ok = 1;
    }
    if (ok)
        arb_set(te, I);
    mpfr_clear(mid);
    mpfr_clear(rad);
    mpfr_clear(tm);
    mpfr_clear(tr);
    arb_clear(I);
    arb_clear(N);
    arb_clear(g);
    arb_clear(d);
    return ok;
}

/* Certifies the sample rows of the current step up to local time hc
   (exclusive of rows at or beyond it).  A row whose local time straddles
   hc shortens the commit point *hc to below it.  Returns 0, or a stop. */
static int
emit_samples(arc_t *a, arf_t hc, int upto_inclusive)
{
    const hdo_result_struct *res = a->c->res;
    arb_t s;
    arb_init(s);
    int st = 0;
    while (a->row < res->nrows && res->rows[a->row].sample >= 0) {
        local_time(s, a, res->rows[a->row].time);
        arf_t lo, hi;
        arf_init(lo);
        arf_init(hi);
        arb_get_lbound_arf(lo, s, a->c->prec);
        arb_get_ubound_arf(hi, s, a->c->prec);
        int before = upto_inclusive ? arf_cmp(hi, hc) <= 0
                                    : arf_cmp(hi, hc) < 0;
        int after = !before && arf_cmp(lo, hc) >= 0;
        if (arf_sgn(lo) < 0) {
            /* the row may precede the arc: within its start's ball; after
               a clock's event its sign there decides */
            if (a->prev_k >= 0 &&
                time_sign(a, a->prev_m, a->prev_k, res->rows[a->row].time) <
                    0) {
                arf_zero(lo);
                arb_set_interval_arf(s, lo, hi, a->c->prec);
            } else {
                before = after = 0;
                arf_zero(lo);
            }
        }
        if (!before && !after) {
            if (arf_sgn(lo) > 0) {
                arf_set(hc, lo); /* commit below the row: it comes next */
                after = 1;
            } else {
                st = stop(a, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN),
                          "the sample at t = %.17g lies within the time ball "
                          "of the arc's start (an event time), so its mode "
                          "is not decided",
                          mpfr_get_d(res->rows[a->row].time, MPFR_RNDN));
            }
        }
        arf_clear(lo);
        arf_clear(hi);
        if (st != 0 || after)
            break;
        if (res->rows[a->row].mode != a->m) {
            st = stop(a, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN),
                      "the run's row %ld is in mode %s, the certified pass "
                      "in mode %s",
                      (long)a->row,
                      res->rows[a->row].mode < a->c->model->nmodes
                          ? a->c->model->modes[res->rows[a->row].mode].name
                          : "sliding",
                      a->c->model->modes[a->m].name);
            break;
        }
        if (emit_sample(a, s) != 0) {
            st = stop(a, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN),
                      "a value at the sample t = %.17g is not enclosed",
                      mpfr_get_d(res->rows[a->row].time, MPFR_RNDN));
            break;
        }
    }
    arb_clear(s);
    return st;
}

/* The transition index of the run's event e in mode m, or -1. */
static slong
event_transition(const cert_ctx *c, const hdo_event *e, slong m)
{
    if (e->from != m || m >= c->model->nmodes)
        return -1;
    const hdo_mode *mode = c->model->modes + m;
    for (slong k = 0; k < mode->nwhens; k++)
        if (mode->whens[k].target == e->to &&
            (mode->whens[k].guard_text == e->guard ||
             (e->guard != NULL &&
              strcmp(mode->whens[k].guard_text, e->guard) == 0)))
            return k;
    return -1;
}

/* Proves every located guard positive on [0, b] (the event's guard ge
   only on [0, be] when ge >= 0).  Returns -1 when proven, else the
   first guard that was not, with *fail its place. */
static slong
exclude_all(arc_t *a, const arf_t b, slong ge, const arf_t be, arf_t fail)
{
    cert_mode *cm = a->cm;
    int first = arf_is_zero(a->sloc);
    for (slong g = 0; g < cm->ng; g++) {
        if (!cm->locate[g] || a->skip[g])
            continue;
        const arf_struct *end = g == ge ? be : b;
        arf_t zero;
        arf_init(zero);
        int ok = cert_guard_positive(cm->step, g, zero, end,
                                     first && a->zero0[g], fail);
        arf_clear(zero);
        if (!ok)
            return g;
    }
    return -1;
}

/* Starts a new arc of mode m at time t (ball) from the set of states X
   (NULL: the balls x) and the unknowns u. */
static int
arc_begin(arc_t *a, slong m, const arb_t t, const cert_set_struct *X,
          arb_srcptr x, arb_srcptr u)
{
    char why[512];
    cert_mode *cm = cert_mode_get(a->c, m, why, sizeof why);
    if (cm == NULL)
        return stop(a, arb_d(t), "%s", why);
    if (a->has_X) {
        cert_set_clear(a->X);
        _arb_vec_clear(a->u, a->cm->red->nimplicit + 1);
        flint_free(a->zero0);
        flint_free(a->skip);
    }
    a->m = m;
    a->cm = cm;
    cert_set_init(a->X, cm->red->nstate, a->c->opt->wrap, a->c->prec,
                  a->c->lprec);
    a->has_X = 1;
    if (X != NULL)
        cert_set_copy(a->X, X);
    else
        cert_set_from_balls(a->X, x);
    a->u = _arb_vec_init(cm->red->nimplicit + 1);
    _arb_vec_set(a->u, u, cm->red->nimplicit);
    a->zero0 = flint_calloc(cm->ng + 1, sizeof(int));
    a->skip = flint_calloc(cm->ng + 1, sizeof(int));
    arb_set(a->tarc, t);
    arf_zero(a->sloc);
    return 0;
}

/* The guess of the unknowns of mode m from the run's values vals. */
static void
unknown_guess(arb_ptr g, const cert_mode *cm, mpfr_srcptr vals)
{
    for (slong j = 0; j < cm->red->nimplicit; j++) {
        arb_zero(g + j);
        if (vals != NULL && cm->red->unknown[j].order == 0 &&
            mpfr_number_p(vals + cm->red->unknown[j].var))
            arf_set_mpfr(arb_midref(g + j), vals + cm->red->unknown[j].var);
    }
}

/* Guards whose enclosure at the arc's start is exactly zero (an exact
   state: the ball of S at s = 0, with the set's spread, is 0 +- 0) are
   zero there, proven. */
static void
exact_zeros(arc_t *a)
{
    cert_mode *cm = a->cm;
    arb_t z, v;
    arb_init(z);
    arb_init(v);
    for (slong g = 0; g < cm->ng; g++) {
        if (a->zero0[g])
            continue;
        slong comp = cm->red->nstate + cm->red->nimplicit + g;
        if (cert_step_eval(v, cm->step, comp, z, 0, a->c->prec) == 0 &&
            arb_is_zero(v)) {
            a->zero0[g] = 1;
            a->skip[g] = cert_guard_invariant(a->c, a->m, g);
        }
    }
    arb_clear(z);
    arb_clear(v);
}

/* A guard exactly zero at the arc's start whose derivative along the flow
   is identically zero (a first integral, proven symbolically) stays zero
   on the whole arc: it neither crosses nor needs to be located (the
   mode's `when` is regularised as model-format.md says). */
static void
arc_invariants(arc_t *a)
{
    for (slong g = 0; g < a->cm->ng; g++)
        a->skip[g] = a->zero0[g] && cert_guard_invariant(a->c, a->m, g);
}

/* The state set at the event: for each start x0 of the set, the state
   x(te(x0)) at its own event time.  By the mean value theorem it lies in
   x(te(c)) + M (x0 - c) with M the derivative of the event map over the
   set, M = Dx + x' Dte and Dte = -(dS Dx) / S' (S' < 0 proven over I),
   each factor enclosed over the event time ball I of the whole set
   (Lohner's method across a Poincare section).  Evaluating x over I
   instead would forget that te and x0 move together: an error that
   grows at every event (the bouncing ball's impacts).  instant: the
   event is at the arc's start for every x0 (te = 0): M = I. */
static int
event_map(cert_set_t Xe, arc_t *a, slong k, const arb_t I, arb_t Ic,
          int instant)
{
    cert_mode *cm = a->cm;
    slong ns = cm->red->nstate, nu = cm->red->nimplicit, prec = a->c->prec;
    slong gc = ns + nu + k, lp = a->c->lprec;
    cert_set_copy(Xe, a->X);
    if (instant) {
        arb_zero(Ic);
        return 0;
    }
    arf_t m;
    arf_init(m);
    arf_set(m, arb_midref(I));
    int st = cert_guard_root(Ic, cm->step, k, m, CERT_EVAL_CENTER);
    arf_clear(m);
    if (st != 0)
        return -1;
    arb_ptr xc = _arb_vec_init(ns + 1), jr = _arb_vec_init(ns + 1);
    arb_ptr Dte = _arb_vec_init(ns + 1);
    arb_mat_t M;
    arb_mat_init(M, ns, ns);
    arb_t f, gp;
    arb_init(f);
    arb_init(gp);
    for (slong i = 0; i < ns && st == 0; i++)
        if (cert_step_eval(xc + i, cm->step, i, Ic, CERT_EVAL_CENTER, prec) !=
            0)
            st = -1;
    /* Dte = -dS Dx / S' */
    cert_step_grad(Dte, cm->step, gc, I, 0);
    if (st == 0 &&
        (cert_step_eval(gp, cm->step, gc, I, CERT_EVAL_DERIV, prec) != 0 ||
         !arb_is_negative(gp)))
        st = -1;
    for (slong d = 0; st == 0 && d < ns; d++) {
        arb_div(Dte + d, Dte + d, gp, lp);
        arb_neg(Dte + d, Dte + d);
    }
    for (slong i = 0; i < ns && st == 0; i++) {
        if (cert_step_eval(f, cm->step, i, I, CERT_EVAL_DERIV, prec) != 0) {
            st = -1;
            break;
        }
        cert_step_grad(jr, cm->step, i, I, 0);
        for (slong d = 0; d < ns; d++) {
            arb_addmul(jr + d, f, Dte + d, lp);
            arb_set(arb_mat_entry(M, i, d), jr + d);
        }
    }
    if (st == 0)
        cert_set_advance(Xe, xc, M);
    arb_mat_clear(M);
    _arb_vec_clear(Dte, ns + 1);
    _arb_vec_clear(xc, ns + 1);
    _arb_vec_clear(jr, ns + 1);
    arb_clear(f);
    arb_clear(gp);
    return st;
}

/* The event e of the run, certified at local time I of the current step
   (ball; I = 0 for an instantaneous one): the state set at the event, the
   transition (its reset applied to the centre, its Jacobian to the rest:
   Lohner's method again), the event rows, the new arc.  Returns 0 or a
   stop. */
static int
take_event(arc_t *a, slong k, const arb_t I, int instant)
{
    cert_ctx *c = a->c;
    const hdo_result_struct *res = c->res;
    const hdo_event *E = res->events + a->ev;
    cert_mode *cm = a->cm;
    slong ns = cm->red->nstate, nu = cm->red->nimplicit, prec = c->prec;
    slong src = a->m, dst = c->model->modes[a->m].whens[k].target;
    char why[512];
    int st = 0;
    arb_t te, tec, Ic;
    arb_init(te);
    arb_init(tec);
    arb_init(Ic);
    arb_add_arf(te, a->tarc, a->sloc, prec);
    arb_add(tec, te, I, prec); /* reused below as the centre's time */
    cert_set_t Xe;
    cert_set_init(Xe, ns, a->X->wrap, prec, c->lprec);
    if (event_map(Xe, a, k, I, Ic, instant) != 0) {
        st = stop(a, arb_d(tec),
                  "the state at event %ld (`%s`) is not enclosed (the "
                  "centre's event time or the event map)",
                  (long)E->index, E->guard);
    }
    arb_add(te, te, I, prec);
    arb_sub(tec, tec, I, prec);
    arb_add(tec, tec, Ic, prec);
    /* a clock's event: its time in absolute terms, exact to the
       precision */
    if (!instant && time_root(te, a, src, k))
        arb_set(tec, te);
    cert_mode *cd = st == 0 ? cert_mode_get(c, dst, why, sizeof why) : NULL;
    if (st == 0 && cd == NULL)
        st = stop(a, arb_d(te), "%s", why);
    slong nsd = cd != NULL ? cd->red->nstate : 0;
    slong nud = cd != NULL ? cd->red->nimplicit : 0;
    arb_ptr yc = _arb_vec_init(ns + nu + 1), yh = _arb_vec_init(ns + nu + 1);
    arb_ptr xc = _arb_vec_init(nsd + 1), xh = _arb_vec_init(nsd + 1);
    arb_ptr uc = _arb_vec_init(nud + 1), uh = _arb_vec_init(nud + 1);
    arb_ptr g = _arb_vec_init(nud + 1);
    arb_mat_t K;
    arb_mat_init(K, nsd, ns);
    cert_set_t Xn;
    cert_set_init(Xn, nsd, a->X->wrap, prec, c->lprec);
    if (st == 0) {
        /* the left limit: the set's hull and its centre, with the
           unknowns enclosed there */
        cert_set_hull(yh, Xe, prec);
        _arb_vec_set(yc, Xe->c, ns);
        if (nu > 0 &&
            (cert_unknowns(yh + ns, cm->sys, yh, te, a->u, prec) != 0 ||
             cert_unknowns(yc + ns, cm->sys, yc, tec, a->u, prec) != 0))
            st = stop(a, arb_d(te),
                      "the algebraic unknowns at event %ld are not enclosed "
                      "(Krawczyk)",
                      (long)E->index);
    }
    if (st == 0) {
        unknown_guess(g, cd, E->right);
        if (cert_transition_state(xh, uh, c, src, k, yh, te, g, !instant, why,
                                  sizeof why) != 0 ||
            cert_transition_state(xc, uc, c, src, k, yc, tec, g, !instant, why,
                                  sizeof why) != 0)
            st = stop(a, arb_d(te), "%s", why);
    }
    if (st == 0) {
        /* the new set: the centre's image and the reset's Jacobian
           (Lohner's method across the reset); where the Jacobian is not
           enclosed, the hull */
        if (nsd == ns &&
            cert_transition_jacobian(K, c, src, k, yh, te) == 0) {
            cert_set_copy(Xn, Xe);
            cert_set_advance(Xn, xc, K);
            arb_ptr hn = _arb_vec_init(nsd + 1);
            cert_set_hull(hn, Xn, prec);
            for (slong i = 0; i < nsd; i++)
                if (!arb_intersection(xh + i, xh + i, hn + i, prec))
                    st = -1; /* two enclosures of one value are disjoint */
            _arb_vec_clear(hn, nsd + 1);
        } else {
            cert_set_from_balls(Xn, xh);
        }
        if (st != 0)
            st = stop(a, arb_d(te),
                      "the state after event %ld is enclosed inconsistently "
                      "(a defect)",
                      (long)E->index);
    }
    if (st == 0 &&
        (E->row_left != a->row || E->row_right != a->row + 1))
        st = stop(a, arb_d(te),
                  "the run's rows of event %ld are not where the pass "
                  "expects them (rows %ld and %ld, the pass at row %ld)",
                  (long)E->index, (long)E->row_left, (long)E->row_right,
                  (long)a->row);
    if (st == 0) {
        hdo_cert_event *ce = cert_result_add_event(c->cert);
        ce->event = a->ev;
        ce->from = src;
        ce->to = dst;
        ce->kind = E->kind;
        ce->guard = E->guard;
        cert_ball_set_arb(&ce->time, te);
        for (slong v = 0; v < c->model->nvars; v++) {
            slong cs = cm->comp[v], cdv = cd->comp[v];
            ce->left_present[v] = cs >= 0;
            if (cs >= 0)
                cert_ball_set_arb(ce->left + v, yh + cs);
            ce->right_present[v] = cdv >= 0;
            if (cdv >= 0)
                cert_ball_set_arb(ce->right + v,
                                  cdv < nsd ? xh + cdv : uh + (cdv - nsd));
        }
        /* the two rows of the event */
        for (int side = 0; side < 2; side++) {
            hdo_cert_row *r = cert_result_add_row(c->cert);
            r->row = a->row;
            r->mode = side ? dst : src;
            cert_ball_set_arb(&r->time, te);
            for (slong v = 0; v < c->model->nvars; v++) {
                r->present[v] = side ? ce->right_present[v]
                                     : ce->left_present[v];
                if (r->present[v]) {
                    const hdo_ball *b = side ? ce->right + v : ce->left + v;
                    mpfr_set(r->values[v].mid, b->mid, MPFR_RNDN);
                    mpfr_set(r->values[v].rad, b->rad, MPFR_RNDU);
                }
            }
            mpfr_set(a->last, res->rows[a->row].time, MPFR_RNDN);
            a->row++;
        }
        a->ev++;
        st = arc_begin(a, dst, te, Xn, NULL, uh);
        a->prev_m = src;
        a->prev_k = k;
        for (slong gg = 0; st == 0 && gg < a->cm->ng; gg++)
            a->zero0[gg] = cert_guard_zero_after(c, src, k, dst, gg, !instant);
        arc_invariants(a);
    }
    cert_set_clear(Xe);
    cert_set_clear(Xn);
    arb_mat_clear(K);
    _arb_vec_clear(yc, ns + nu + 1);
    _arb_vec_clear(yh, ns + nu + 1);
    _arb_vec_clear(xc, nsd + 1);
    _arb_vec_clear(xh, nsd + 1);
    _arb_vec_clear(uc, nud + 1);
    _arb_vec_clear(uh, nud + 1);
    _arb_vec_clear(g, nud + 1);
    arb_clear(te);
    arb_clear(tec);
    arb_clear(Ic);
    return st;
}

/* An event at the very start of the arc (the run took it at once): guard
   k infeasible at s = 0 (negative there, or exactly zero and falling),
   and every guard before it in file order feasible there. */
static int
instant_event(arc_t *a, slong k)
{
    cert_mode *cm = a->cm;
    arb_t z, v;
    arb_init(z);
    arb_init(v);
    int ok = 1;
    for (slong g = 0; g <= k && ok; g++) {
        if (!cm->locate[g] || (a->skip[g] && g != k))
            continue;
        slong comp = cm->red->nstate + cm->red->nimplicit + g;
        int want = g == k ? -1 : 1;
        if (a->zero0[g]) {
            /* S(0) = 0: the sign of S' over [0, d] decides */
            arf_t d, zero;
            arf_init(d);
            arf_init(zero);
            arf_set(d, cm->step->h);
            ok = 0;
            for (int it = 0; it < 60 && !ok; it++) {
                arb_set_interval_arf(z, zero, d, a->c->prec);
                if (cert_step_eval(v, cm->step, comp, z, 1, a->c->prec) == 0 &&
                    (want < 0 ? arb_is_negative(v) : arb_is_positive(v)))
                    ok = 1;
                arf_mul_2exp_si(d, d, -2);
            }
            arf_clear(d);
            arf_clear(zero);
        } else {
            arb_zero(z);
            ok = cert_step_eval(v, cm->step, comp, z, 0, a->c->prec) == 0 &&
                 (want < 0 ? arb_is_negative(v) : arb_is_positive(v));
        }
    }
    arb_clear(v);
    if (!ok) {
        arb_clear(z);
        return stop(a, arb_d(a->tarc),
                    "the run switches at once by `%s`, which the pass does not "
                    "prove (the switching functions at the arc's start are "
                    "not decided)",
                    a->c->model->modes[a->m].whens[k].guard_text);
    }
    /* the rows at the arc's start come before the event's rows */
    arf_t zero;
    arf_init(zero);
    int st = emit_samples(a, zero, 1);
    arf_clear(zero);
    arb_zero(z);
    if (st == 0)
        st = take_event(a, k, z, 1);
    arb_clear(z);
    return st;
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

/* Why the pass does not go beyond the run's event of this kind. */
static const char *
terminal_reason(hdo_event_kind kind)
{
    switch (kind) {
    case HDO_EV_SIMULTANEOUS:
        return "two switching functions vanish at once (a simultaneous "
               "event), which the pass does not decide";
    case HDO_EV_SLIDING_START:
    case HDO_EV_SLIDING_END:
        return "Filippov sliding starts here, which the pass does not "
               "certify yet";
    case HDO_EV_ZENO:
        return "the events accumulate (Zeno): certified up to the last "
               "event the run followed, not the accumulation point";
    case HDO_EV_REINIT_ADJUSTED:
        return "the reinitialisation moves the kept values (reinit-adjusted: "
               "the smallest change is not certified)";
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
        const char *term = E != NULL ? terminal_reason(E->kind) : NULL;
        slong k = -1;
        mpfr_srcptr target = res->t_end;
        if (E != NULL && term == NULL) {
            k = event_transition(c, E, a->m);
            if (k < 0) {
                st = stop(a, mpfr_get_d(E->time, MPFR_RNDN),
                          "the run's event %ld (`%s`) is not a transition "
                          "of mode %s",
                          (long)E->index, E->guard ? E->guard : "",
                          c->model->modes[a->m].name);
                break;
            }
            target = E->time;
        } else if (E != NULL) {
            slong r = last_sample_before(a, E);
            if (E->kind == HDO_EV_ZENO || r < 0) {
                st = stop(a, mpfr_get_d(E->time, MPFR_RNDN), "%s", term);
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
                st = stop(a, c->stiff_from,
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
            st = stop(a, arb_d(a->tarc),
                      "the certified pass took %ld steps, 50 times the run's "
                      "%ld: a stiff arc, or steps its remainder keeps small",
                      (long)c->cert->steps, (long)res->steps);
            break;
        }
        arb_add_arf(tstep, a->tarc, a->sloc, prec);
        local_time(sig, a, target);
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
            mpfr_equal_p(E->time, a->ev > 0 ? res->events[a->ev - 1].time
                                             : res->t0);
        int at_start = arf_is_zero(a->sloc) && arb_contains_zero(sig);
        if (arf_sgn(hmax) <= 0 && !at_start && !instant) {
            st = stop(a, arb_d(tstep),
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
            st = stop(a, arb_d(tstep), "no validated step: %s",
                      a->cm->step->why[0] ? a->cm->step->why
                                          : hdo_status_name(s2));
            break;
        }
        c->cert->steps++;
        const arf_struct *h = a->cm->step->h;
        if (arf_is_zero(a->sloc))
            exact_zeros(a);
        if (instant) {
            st = instant_event(a, k);
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
                st = stop(a, mpfr_get_d(E->time, MPFR_RNDN),
                          "the time of event %ld (`%s`) is not enclosed as a "
                          "simple crossing (a grazing or multiple zero, or "
                          "one the run misplaced)",
                          (long)E->index, E->guard);
                break;
            }
            arb_get_lbound_arf(lo, I, prec);
            arb_get_ubound_arf(hi, I, prec);
            slong g = exclude_all(a, hi, k, lo, fail);
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
                st = stop(a, arb_d(hb),
                          "the switching function `%s` is not proven "
                          "positive before event %ld: an earlier or "
                          "simultaneous zero is not excluded",
                          c->model->modes[a->m].whens[g].guard_text,
                          (long)E->index);
                break;
            }
            arf_set(hc, lo);
            if ((st = emit_samples(a, hc, 0)) != 0)
                break;
            while (a->row < E->row_left && res->rows[a->row].sample >= 0 &&
                   before_time_event(a, k, res->rows[a->row].time)) {
                local_time(hb, a, res->rows[a->row].time);
                if (emit_sample(a, hb) != 0)
                    break;
            }
            if (a->row < E->row_left) {
                st = stop(a, mpfr_get_d(E->time, MPFR_RNDN),
                          "a sample lies within the time ball of event %ld",
                          (long)E->index);
                break;
            }
            st = take_event(a, k, I, 0);
            if (st == 0)
                st = ARC_EVENT;
            break;
        }
        /* no event in this step: positivity up to its end, or the target */
        arf_set(hc, h);
        if (reach)
            arb_get_ubound_arf(hc, sig, prec);
        slong g = exclude_all(a, hc, -1, hc, fail);
        if (g >= 0) {
            if (arf_cmp_2exp_si(fail, -30) > 0 && ++shorten <= MAX_SHORTEN) {
                arf_mul_2exp_si(hcap, fail, -1);
                capped = 1;
                continue;
            }
            arb_set_arf(hb, fail);
            arb_add(hb, hb, tstep, prec);
            st = stop(a, arb_d(hb),
                      "the switching function `%s` is not proven positive "
                      "near t = %.17g: a grazing contact, or a zero the run "
                      "did not take",
                      c->model->modes[a->m].whens[g].guard_text, arb_d(hb));
            break;
        }
        if ((st = emit_samples(a, hc, reach)) != 0)
            break;
        if (reach && term != NULL) {
            st = stop(a, E != NULL ? mpfr_get_d(E->time, MPFR_RNDN)
                                   : c->stiff_from,
                      "%s", term);
            break;
        }
        if (reach && E == NULL) {
            if (a->row < res->nrows) {
                st = stop(a, mpfr_get_d(res->t_end, MPFR_RNDN),
                          "the run's rows after its end are not certified");
                break;
            }
            st = 0; /* the end of the run */
            break;
        }
        /* commit the step up to hc */
        arb_set_arf(hb, hc);
        if (cert_step_states(x, J, a->cm->step, hb) != 0) {
            st = stop(a, arb_d(tstep), "the step's end is not enclosed");
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
    arb_init(a.tarc);
    arf_init(a.sloc);
    mpfr_init2(a.last, c->prec);
    mpfr_set_nan(a.last);
    int st = 0;
    char why[512];
    if (c->model->warnings != NULL) {
        st = stop(&a, mpfr_get_d(res->t0, MPFR_RNDN),
                  "a constant of the model was taken as zero without a proof "
                  "(see the warning)");
    } else if (a.m >= c->model->nmodes) {
        st = stop(&a, mpfr_get_d(res->t0, MPFR_RNDN),
                  "the run starts in a sliding mode");
    } else {
        cert_mode *cm = cert_mode_get(c, a.m, why, sizeof why);
        arb_t t0;
        arb_init(t0);
        if (cm == NULL || cert_constant_arb(t0, &c->work, c->model->t0,
                                            c->prec) != 0) {
            st = stop(&a, mpfr_get_d(res->t0, MPFR_RNDN), "%s",
                      cm == NULL ? why : "the start time is not enclosed");
        } else {
            arb_ptr x = _arb_vec_init(cm->red->nstate + 1);
            arb_ptr u = _arb_vec_init(cm->red->nimplicit + 1);
            arb_ptr g = _arb_vec_init(cm->red->nimplicit + 1);
            unknown_guess(g, cm, res->rows[0].values);
            if (cert_start_state(x, u, c, a.m, t0, g, why, sizeof why) != 0)
                st = stop(&a, arb_d(t0), "%s", why);
            else
                st = arc_begin(&a, a.m, t0, NULL, x, u);
            for (slong gg = 0; st == 0 && gg < a.cm->ng; gg++)
                a.zero0[gg] = cert_start_guard_zero(c, a.m, gg);
            if (st == 0)
                arc_invariants(&a);
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
    }
    arb_clear(a.tarc);
    arf_clear(a.sloc);
    mpfr_clear(a.last);
    return c->cert->complete ? 0 : HDO_CERTIFY_STOPPED;
}
