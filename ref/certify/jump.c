/* jump.c -- an event of the run certified: the state set across the
   event map and the reset (Lohner's method), the event's records and
   rows, the next arc; zeros of switching functions at an arc's start */
#include <string.h>
#include "internal.h"

/* The guess of the unknowns of mode m from the run's values vals. */
void
cert_unknown_guess(arb_ptr g, const cert_mode *cm, mpfr_srcptr vals)
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
void
cert_exact_zeros(arc_t *a)
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
void
cert_arc_invariants(arc_t *a)
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
int
cert_take_event(arc_t *a, slong k, const arb_t I, int instant)
{
    cert_ctx *c = a->c;
    const hdo_result_struct *res = c->res;
    const hdo_event *E = res->events + a->ev;
    cert_mode *cm = a->cm;
    slong ns = cm->red->nstate, nu = cm->red->nimplicit, prec = c->prec;
    slong src = a->m, dst = E->to; /* checked: driver.c event_transition */
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
        st = cert_stop(a, cert_arb_d(tec),
                       "the state at event %ld (`%s`) is not enclosed (the "
                       "centre's event time or the event map)",
                       (long)E->index, E->guard);
    }
    arb_add(te, te, I, prec);
    arb_sub(tec, tec, I, prec);
    arb_add(tec, tec, Ic, prec);
    /* a clock's event: its time in absolute terms, exact to the
       precision */
    if (!instant && cert_time_root(te, a, src, k))
        arb_set(tec, te);
    cert_mode *cd = st == 0 ? cert_mode_get(c, dst, why, sizeof why) : NULL;
    if (st == 0 && cd == NULL)
        st = cert_stop(a, cert_arb_d(te), "%s", why);
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
            st = cert_stop(
                a, cert_arb_d(te),
                "the algebraic unknowns at event %ld are not enclosed "
                "(Krawczyk)",
                (long)E->index);
    }
    arb_mat_t P;
    arb_mat_init(P, nsd, nsd);
    int moved = 0, moved_c = 0;
    if (st == 0 && dst >= c->nmodes && src < c->nmodes &&
        cert_sliding_entry(c, src, k, dst, yh, te, why, sizeof why) != 0)
        st = cert_stop(a, cert_arb_d(te), "%s", why);
    if (st == 0) {
        cert_unknown_guess(g, cd, E->right);
        if (cert_transition_state(xh, uh, c, src, k, dst, yh, te, g, !instant,
                                  P, &moved, why, sizeof why) != 0 ||
            cert_transition_state(xc, uc, c, src, k, dst, yc, tec, g, !instant,
                                  NULL, &moved_c, why, sizeof why) != 0)
            st = cert_stop(a, cert_arb_d(te), "%s", why);
    }
    if (st == 0) {
        /* the new set: the centre's image and the reset's Jacobian
           (Lohner's method across the reset), times the
           reinitialisation's when it moved the state; where the Jacobian
           is not enclosed, the hull */
        int jok = nsd == ns && moved == moved_c &&
                  cert_transition_jacobian(K, c, src, k, dst, yh, te) == 0;
        if (jok && moved)
            arb_mat_mul(K, P, K, c->lprec);
        if (jok) {
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
            st = cert_stop(
                a, cert_arb_d(te),
                "the state after event %ld is enclosed inconsistently "
                "(a defect)",
                (long)E->index);
    }
    if (st == 0 && (E->row_left != a->row || E->row_right != a->row + 1))
        st = cert_stop(a, cert_arb_d(te),
                       "the run's rows of event %ld are not where the pass "
                       "expects them (rows %ld and %ld, the pass at row %ld)",
                       (long)E->index, (long)E->row_left, (long)E->row_right,
                       (long)a->row);
    if (st == 0) {
        cert_record_event(a, E, src, dst, cm, cd, te, yh, xh, uh);
        /* the clock that fired is exactly zero at the next arc's start
           (instantaneous events keep the one before) */
        hdo_expr tz = a->tzero;
        if (!instant)
            tz = cert_time_only(a, src, k) ? cm->guards[k] : HDO_EXPR_NONE;
        st = cert_arc_begin(a, dst, te, Xn, NULL, uh);
        a->prev_m = src;
        a->prev_k = k;
        a->prev_at_zero = !instant;
        a->prev_moved = moved;
        a->tzero = tz;
        /* a guard zero by the reset's algebra is not, once the
           reinitialisation moved the state: then only exact balls */
        for (slong gg = 0; st == 0 && gg < a->cm->ng; gg++) {
            int slope = 0;
            a->zero0[gg] =
                (!moved &&
                 cert_guard_zero_after(c, src, k, dst, gg, !instant)) ||
                (tz != HDO_EXPR_NONE && cert_time_only(a, dst, gg) &&
                 cert_same_up_to_sign(&c->work, a->cm->guards[gg], tz)) ||
                cert_sliding_exit_zero(c, src, k, dst, gg, &slope);
            if (slope)
                a->slope0[gg] = 1; /* the sliding's end: S' = 0 there */
        }
        cert_arc_invariants(a);
    }
    cert_set_clear(Xe);
    cert_set_clear(Xn);
    arb_mat_clear(K);
    arb_mat_clear(P);
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
int
cert_instant_event(arc_t *a, slong k)
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
        return cert_stop(
            a, cert_arb_d(a->tarc),
            "the run switches at once by `%s`, which the pass does not "
            "prove (the switching functions at the arc's start are "
            "not decided)",
            a->cm->gtext[k]);
    }
    /* the rows at the arc's start come before the event's rows */
    arf_t zero;
    arf_init(zero);
    int st = cert_emit_samples(a, zero, 1);
    arf_clear(zero);
    arb_zero(z);
    if (st == 0)
        st = cert_take_event(a, k, z, 1);
    arb_clear(z);
    return st;
}
