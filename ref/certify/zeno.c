/* zeno.c -- the accumulation point of a Zeno cascade enclosed, where the
   modes of the cascade are invariant under a weighted scaling of their
   states and time, and the zeno clause taken there */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Why this is a proof.  Let the cascade repeat the events j0 .. j0+p-1
   (modes, whens and their order) with p the period.  If every mode of
   the cycle is autonomous and quasi-homogeneous, der(x_v) = f_v(x) with
   f_v(L^w x) = L^(w_v - 1) f_v(x) for all L > 0 (weights w_v >= 1, time
   weight 1), every switching function of those modes S(L^w x) =
   L^s S(x) (s >= 1), and every reset of the cycle x_v := e(x) with
   e(L^w x) = L^(w_v) e(x), then the image of a trajectory under
   x -> L^w x, t -> L t is a trajectory with the same events.  The
   cycle's section (after event j0) is the ray {x_a = 0, x_b = u}: two
   states, the one the fired guard reads (S = c x_a) zero there.  So the
   cycle from x_(j0 + p) = (0, u1) is the image of the cycle from
   (0, u0) with L = (u1/u0)^(1/w_b) < 1: each cycle lasts L times the one
   before, t* = t_j0 + D0 / (1 - L) with D0 = t_(j0+p) - t_j0, and the
   state tends to 0 (every weight positive).  Every factor is a
   certified ball (the events j0 .. j0+p), so t* is enclosed; the
   largest and best-known cycle, the first, gives the tightest one.  A
   model outside this class stops the pass (exit 1). */

#define MAX_PERIOD 8
#define MAX_WEIGHT 3
#define FRESH_L 2000000 /* a VAR order no model has: the scale L */

static int
same_event(const hdo_cert_event *x, const hdo_cert_event *y,
           const hdo_result_struct *res)
{
    const hdo_event *ex = res->events + x->event, *ey = res->events + y->event;
    return x->from == y->from && x->to == y->to && ex->kind == ey->kind &&
           (ex->guard == ey->guard || (ex->guard != NULL && ey->guard != NULL &&
                                       strcmp(ex->guard, ey->guard) == 0));
}

/* e(L^w x) - L^d e(x) expands to zero (normal.c). */
static int
homogeneous(hdo_model_struct *w, hdo_expr e, const slong *var, const slong *wt,
            slong n, slong d)
{
    hdo_expr_pool_struct *pool = w->pool;
    hdo_expr L = hdo_expr_var(pool, 0, FRESH_L), from[8], to[8];
    for (slong i = 0; i < n; i++) {
        from[i] = hdo_expr_var(pool, var[i], 0);
        to[i] = hdo_expr_mul(
            pool, hdo_expr_pow(pool, L, hdo_expr_const_si(pool, wt[i], 1)),
            from[i]);
    }
    hdo_expr s = hdo_expr_substitute_many(pool, e, from, to, n);
    hdo_expr r = hdo_expr_mul(
        pool, hdo_expr_pow(pool, L, hdo_expr_const_si(pool, d, 1)), e);
    return cert_expr_is_zero(pool, hdo_expr_sub(pool, s, r));
}

/* Whether modes[0..nm) and the resets of the cycle's whens are
   quasi-homogeneous with the weights wt of var[0..n). */
static int
scaling_ok(cert_ctx *c, const slong *modes, slong nm, const slong *wk,
           const slong *wm, slong p, const slong *var, const slong *wt, slong n)
{
    hdo_model_struct *w = &c->work;
    for (slong i = 0; i < nm; i++) {
        char why[64];
        cert_mode *cm = cert_mode_get(c, modes[i], why, sizeof why);
        const hdo_reduced_struct *r = cm->red;
        for (slong e = 0; e < r->nexplicit; e++) {
            slong j;
            for (j = 0; j < n && var[j] != r->explicit_var[e]; j++)
                ;
            if (j == n || hdo_expr_has_time(w->pool, r->rhs[e]) ||
                !homogeneous(w, r->rhs[e], var, wt, n, wt[j] - 1))
                return 0;
        }
        for (slong g = 0; g < cm->ng; g++) {
            int ok = !hdo_expr_has_time(w->pool, cm->guards[g]);
            slong s;
            for (s = 1; ok && s <= 6; s++)
                if (homogeneous(w, cm->guards[g], var, wt, n, s))
                    break;
            if (!ok || s > 6)
                return 0;
        }
    }
    for (slong q = 0; q < p; q++) {
        const hdo_transition *tr = c->model->modes[wm[q]].whens + wk[q];
        for (slong a = 0; a < tr->nassigns; a++) {
            slong j;
            for (j = 0; j < n && var[j] != tr->assigns[a].var; j++)
                ;
            if (j == n ||
                !homogeneous(w, tr->assigns[a].value, var, wt, n, wt[j]))
                return 0;
        }
    }
    return 1;
}

/* The cascade: its first event j0 (certified index), period p, the two
   states var with weights wt, the scale L of a cycle and t*. */
typedef struct {
    slong j0, p;
    slong var[2], wt[2];
    arb_t L;
} cascade;

static int analyze(cascade *z, arc_t *a, const hdo_event *E, arb_t tstar,
                   char *why, size_t size);

int
cert_zeno(arc_t *a, const hdo_event *E, arb_t tstar, char *why, size_t size)
{
    cascade z;
    arb_init(z.L);
    int st = analyze(&z, a, E, tstar, why, size);
    arb_clear(z.L);
    return st;
}

static int
analyze(cascade *z, arc_t *a, const hdo_event *E, arb_t tstar, char *why,
        size_t size)
{
    cert_ctx *c = a->c;
    const hdo_certified_struct *ce = c->cert;
    const hdo_result_struct *res = c->res;
    slong K = ce->nevents - 1, p, j0;
    if (K < 1 || E->from != ce->events[K].to || E->from >= c->nmodes) {
        snprintf(why, size, "no cascade of certified events before it");
        return -1;
    }
    /* the period: the last two cycles alike */
    for (p = 1; p <= MAX_PERIOD; p++) {
        if (K - 2 * p + 1 < 0) {
            p = MAX_PERIOD + 1;
            break;
        }
        slong j;
        for (j = K;
             j > K - p && same_event(ce->events + j, ce->events + j - p, res);
             j--)
            ;
        if (j == K - p)
            break;
    }
    if (p > MAX_PERIOD) {
        snprintf(why, size,
                 "the events before the accumulation do not repeat with a "
                 "period of at most %d",
                 MAX_PERIOD);
        return -1;
    }
    for (j0 = K - p; j0 > 0 && same_event(ce->events + j0 - 1,
                                          ce->events + j0 - 1 + p, res);
         j0--)
        ;
    if (j0 + 2 * p > K) {
        snprintf(why, size,
                 "fewer than two cycles of the cascade certified after its "
                 "first event");
        return -1;
    }
    /* the cycle's modes and whens; all explicit ODEs of the same two
       states */
    slong modes[MAX_PERIOD], wk[MAX_PERIOD], wm[MAX_PERIOD], nm = 0;
    slong var[2] = {-1, -1};
    for (slong q = 0; q < p; q++) {
        const hdo_cert_event *e = ce->events + j0 + q;
        const hdo_event *re = res->events + e->event;
        if (e->from >= c->nmodes || e->to >= c->nmodes ||
            re->kind != HDO_EV_SWITCH) {
            snprintf(why, size,
                     "the cascade holds an event other than a "
                     "switch of a `when`");
            return -1;
        }
        char w2[64];
        cert_mode *cm = cert_mode_get(c, e->from, w2, sizeof w2);
        slong k = 0;
        while (cm != NULL && k < cm->ng &&
               (c->model->modes[e->from].whens[k].target != e->to ||
                strcmp(cm->gtext[k], re->guard) != 0))
            k++;
        if (cm == NULL || k == cm->ng || cm->red->nimplicit > 0 ||
            cm->red->ncons > 0 || cm->red->nstate != 2) {
            snprintf(why, size,
                     "the cascade's modes are not ODEs of two states "
                     "(the scaling argument is built for those)");
            return -1;
        }
        wm[q] = e->from;
        wk[q] = k;
        slong i;
        for (i = 0; i < nm && modes[i] != e->from; i++)
            ;
        if (i == nm)
            modes[nm++] = e->from;
        for (slong s = 0; s < 2; s++) {
            slong v = cm->red->state[s].var;
            if (var[0] < 0 || (var[1] < 0 && v != var[0])) {
                var[var[0] < 0 ? 0 : 1] = v;
            } else if (v != var[0] && v != var[1]) {
                snprintf(why, size,
                         "the cascade's modes have different states");
                return -1;
            }
        }
    }
    /* the weights */
    slong wt[2], found = 0;
    for (wt[0] = 1; wt[0] <= MAX_WEIGHT && !found; wt[0]++)
        for (wt[1] = 1; wt[1] <= MAX_WEIGHT && !found; wt[1]++)
            found = scaling_ok(c, modes, nm, wk, wm, p, var, wt, 2);
    if (!found) {
        snprintf(why, size,
                 "the cascade's modes are not proven invariant under a "
                 "scaling of states and time (weights 1..%d), which the "
                 "enclosure of the accumulation time rests on",
                 MAX_WEIGHT);
        return -1;
    }
    wt[0]--, wt[1]--; /* the loops went one past */
    /* the section: the fired guard of event j0 reads one state, x_a */
    hdo_model_struct *w = &c->work;
    hdo_expr S = cert_mode_get(c, wm[0], why, size)->guards[wk[0]];
    slong ia = -1;
    for (slong s = 0; s < 2; s++) {
        /* S = q x with q = dS/dx a nonzero rational */
        hdo_expr x = hdo_expr_var(w->pool, var[s], 0);
        hdo_expr q = hdo_expr_diff(w->pool, S, var[s], 0);
        fmpq_t qv;
        fmpq_init(qv);
        if (hdo_expr_get_fmpq(qv, w->pool, q) == 0 && !fmpq_is_zero(qv) &&
            cert_expr_is_zero(
                w->pool, hdo_expr_sub(w->pool, S, hdo_expr_mul(w->pool, q, x))))
            ia = s;
        fmpq_clear(qv);
    }
    const hdo_transition *tr0 = c->model->modes[wm[0]].whens + wk[0];
    for (slong i = 0; ia >= 0 && i < tr0->nassigns; i++)
        if (tr0->assigns[i].var == var[ia])
            ia = -1;
    if (ia < 0) {
        snprintf(why, size,
                 "the cascade's section (after `%s`) is not a ray: its "
                 "switching function is not a multiple of one state",
                 tr0->guard_text);
        return -1;
    }
    slong ib = 1 - ia;
    /* L = (u1/u0)^(1/w_b), t* = t_j0 + D0 / (1 - L) */
    arb_t u0, u1, L, D0, t0, t1, one;
    arb_init(u0);
    arb_init(u1);
    arb_init(L);
    arb_init(D0);
    arb_init(t0);
    arb_init(t1);
    arb_init(one);
    slong prec = c->prec;
    cert_ball_get_arb(u0, ce->events[j0].right + var[ib]);
    cert_ball_get_arb(u1, ce->events[j0 + p].right + var[ib]);
    cert_ball_get_arb(t0, &ce->events[j0].time);
    cert_ball_get_arb(t1, &ce->events[j0 + p].time);
    arb_div(L, u1, u0, prec);
    arb_one(one);
    int st = 0;
    if (!arb_is_positive(L) || !arb_lt(L, one)) {
        snprintf(why, size,
                 "the cascade's cycle is not proven to shrink (the ratio of "
                 "its states is not in (0, 1))");
        st = -1;
    } else {
        arb_root_ui(L, L, (ulong)wt[ib], prec);
        arb_sub(D0, t1, t0, prec);
        /* the next cycle must last L D0: the run's events agree */
        arb_t D1;
        arb_init(D1);
        cert_ball_get_arb(D1, &ce->events[j0 + 2 * p].time);
        arb_sub(D1, D1, t1, prec);
        arb_submul(D1, L, D0, prec);
        if (!arb_contains_zero(D1)) {
            snprintf(why, size,
                     "the cascade's second cycle does not last L times its "
                     "first (a defect)");
            st = -1;
        }
        arb_clear(D1);
        arb_sub(one, one, L, prec);
        arb_div(tstar, D0, one, prec);
        arb_add(tstar, tstar, t0, prec);
        if (st == 0 && !arb_is_finite(tstar)) {
            snprintf(why, size, "the accumulation time is not enclosed");
            st = -1;
        }
        arb_set(z->L, L);
    }
    z->j0 = j0;
    z->p = p;
    for (int i = 0; i < 2; i++) {
        z->var[i] = var[i];
        z->wt[i] = wt[i];
    }
    arb_clear(u0);
    arb_clear(u1);
    arb_clear(L);
    arb_clear(D0);
    arb_clear(t0);
    arb_clear(t1);
    arb_clear(one);
    return st;
}

int
cert_zeno_event(arc_t *a, const hdo_event *E)
{
    cert_ctx *c = a->c;
    const hdo_result_struct *res = c->res;
    slong src = a->m, dst = E->to, prec = c->prec;
    double tz = mpfr_get_d(E->time, MPFR_RNDN);
    char why[512];
    arb_t ts;
    arb_init(ts);
    if (cert_zeno(a, E, ts, why, sizeof why) != 0) {
        arb_clear(ts);
        return cert_stop(a, tz,
                         "the events accumulate (Zeno): certified up to the "
                         "last event the run followed; the accumulation "
                         "point is not: %s",
                         why);
    }
    if (a->row != E->row_left) {
        /* a sample between the last event and t* (or at t*): which mode
           the cascade is in there is not decided */
        char *s = arb_get_str(ts, (slong)c->res->digits + 5, 0);
        int st = cert_stop(
            a, tz,
            "the events accumulate (Zeno) at t* in %s (proven), but the run "
            "writes a row at t = %.17g after its last event, within the "
            "cascade or at t*, whose mode is not decided",
            s, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN));
        flint_free(s);
        arb_clear(ts);
        return st;
    }
    /* the state there: the cascade's limit, 0 (every weight positive) */
    cert_mode *cs = a->cm, *cd = cert_mode_get(c, dst, why, sizeof why);
    int st = 0;
    if (cd == NULL)
        st = cert_stop(a, tz, "%s", why);
    slong ns = cs->red->nstate, nu = cs->red->nimplicit;
    slong nsd = cd != NULL ? cd->red->nstate : 0;
    slong nud = cd != NULL ? cd->red->nimplicit : 0;
    arb_ptr y = _arb_vec_init(ns + nu + 1), x = _arb_vec_init(nsd + 1);
    arb_ptr u = _arb_vec_init(nud + 1), g = _arb_vec_init(nud + 1);
    arb_mat_t P;
    arb_mat_init(P, nsd, nsd);
    int moved = 0;
    if (st == 0) {
        cert_unknown_guess(g, cd, E->right);
        if (cert_transition_state(x, u, c, src, cs->ng, dst, y, ts, g, 0, P,
                                  &moved, why, sizeof why) != 0)
            st = cert_stop(a, tz, "%s", why);
    }
    if (st == 0 && E->row_right != a->row + 1)
        st = cert_stop(a, tz,
                       "the run's rows of the zeno event are not where "
                       "the pass expects them");
    if (st == 0) {
        cert_record_event(a, E, src, dst, cs, cd, ts, y, x, u);
        st = cert_arc_begin(a, dst, ts, NULL, x, u);
        a->prev_m = src;
        a->prev_k = cs->ng;
        a->prev_at_zero = 0;
        a->prev_moved = moved;
        a->tzero = HDO_EXPR_NONE;
        if (st == 0)
            st = ARC_EVENT;
    }
    (void)prec;
    arb_mat_clear(P);
    _arb_vec_clear(y, ns + nu + 1);
    _arb_vec_clear(x, nsd + 1);
    _arb_vec_clear(u, nud + 1);
    _arb_vec_clear(g, nud + 1);
    arb_clear(ts);
    return st;
}

int
cert_zeno_tail(arc_t *a)
{
    cert_ctx *c = a->c;
    const hdo_result_struct *res = c->res;
    hdo_certified_struct *ce = c->cert;
    slong zi = a->ev, prec = c->prec;
    while (zi < res->nevents && res->events[zi].kind == HDO_EV_SWITCH)
        zi++;
    if (zi == a->ev || zi == res->nevents ||
        res->events[zi].kind != HDO_EV_ZENO || ce->nevents < 1 ||
        ce->events[ce->nevents - 1].event != a->ev - 1 ||
        res->events[a->ev].row_left != a->row)
        return -2; /* no cascade to a zeno point ahead: not applicable */
    const hdo_event *E = res->events + a->ev;
    char why[512];
    cascade z;
    arb_t ts, L, Lm, D0, t0, tj, tb, one, s;
    arb_init(z.L);
    arb_init(ts);
    arb_init(L);
    arb_init(Lm);
    arb_init(D0);
    arb_init(t0);
    arb_init(tj);
    arb_init(tb);
    arb_init(one);
    arb_init(s);
    int st = analyze(&z, a, E, ts, why, sizeof why);
    if (st != 0)
        st = cert_stop(a, mpfr_get_d(E->time, MPFR_RNDN),
                       "the time of event %ld (`%s`) is not enclosed by a "
                       "step, and the cascade it ends is not proven "
                       "self-similar: %s",
                       (long)E->index, E->guard, why);
    arb_set(L, z.L);
    arb_one(one);
    if (st == 0) {
        cert_ball_get_arb(t0, &ce->events[z.j0].time);
        cert_ball_get_arb(D0, &ce->events[z.j0 + z.p].time);
        arb_sub(D0, D0, t0, prec);
    }
    slong last_to = -1;
    for (slong j = a->ev; st == 0 && j < zi; j++) {
        const hdo_event *re = res->events + j;
        slong d = ce->nevents - z.j0, m = d / z.p, i = d % z.p;
        const hdo_cert_event *b = ce->events + z.j0 + i;
        const hdo_event *rb = res->events + b->event;
        if (re->from != b->from || re->to != b->to ||
            strcmp(re->guard, rb->guard) != 0 || re->row_left != a->row ||
            re->row_right != a->row + 1) {
            st = cert_stop(a, mpfr_get_d(re->time, MPFR_RNDN),
                           "the run's event %ld does not continue the "
                           "cascade's pattern (or has rows beside it)",
                           (long)re->index);
            break;
        }
        /* t_j = t_j0 + D0 (1 - L^m)/(1 - L) + L^m (t_(j0+i) - t_j0) */
        arb_pow_ui(Lm, L, (ulong)m, prec);
        arb_sub(s, one, Lm, prec);
        arb_sub(tj, one, L, prec);
        arb_div(s, s, tj, prec);
        arb_mul(tj, D0, s, prec);
        arb_add(tj, tj, t0, prec);
        cert_ball_get_arb(tb, &b->time);
        arb_sub(tb, tb, t0, prec);
        arb_addmul(tj, Lm, tb, prec);
        hdo_cert_event *e = cert_result_add_event(ce);
        b = ce->events + z.j0 + i; /* the array may have moved */
        e->event = j;
        e->from = re->from;
        e->to = re->to;
        e->kind = re->kind;
        e->guard = re->guard;
        cert_ball_set_arb(&e->time, tj);
        for (slong v = 0; v < c->model->nvars; v++) {
            e->left_present[v] = b->left_present[v];
            e->right_present[v] = b->right_present[v];
            slong wv = v == z.var[0] ? z.wt[0] : v == z.var[1] ? z.wt[1] : -1;
            if ((b->left_present[v] || b->right_present[v]) && wv < 0) {
                st = cert_stop(a, mpfr_get_d(re->time, MPFR_RNDN),
                               "a variable outside the cascade's states");
                break;
            }
            /* the state scaled: x_v L^(m w_v) */
            arb_pow_ui(s, Lm, (ulong)(wv > 0 ? wv : 0), prec);
            for (int side = 0; side < 2; side++) {
                if (!(side ? b->right_present[v] : b->left_present[v]))
                    continue;
                cert_ball_get_arb(tb, side ? b->right + v : b->left + v);
                arb_mul(tb, tb, s, prec);
                cert_ball_set_arb(side ? e->right + v : e->left + v, tb);
            }
        }
        for (int side = 0; st == 0 && side < 2; side++) {
            hdo_cert_row *r = cert_result_add_row(ce);
            r->row = a->row;
            r->mode = side ? e->to : e->from;
            cert_ball_set_arb(&r->time, tj);
            for (slong v = 0; v < c->model->nvars; v++) {
                r->present[v] = side ? e->right_present[v] : e->left_present[v];
                if (r->present[v]) {
                    const hdo_ball *bb = side ? e->right + v : e->left + v;
                    mpfr_set(r->values[v].mid, bb->mid, MPFR_RNDN);
                    mpfr_set(r->values[v].rad, bb->rad, MPFR_RNDU);
                }
            }
            mpfr_set(a->last, res->rows[a->row].time, MPFR_RNDN);
            a->row++;
        }
        a->ev++;
        last_to = re->to;
    }
    if (st == 0) {
        /* the arc after the last of them, from its right state */
        const hdo_cert_event *e = ce->events + ce->nevents - 1;
        char w2[64];
        cert_mode *cm = cert_mode_get(c, last_to, w2, sizeof w2);
        arb_ptr x = _arb_vec_init(cm->red->nstate + 1);
        arb_ptr u = _arb_vec_init(cm->red->nimplicit + 1);
        for (slong q = 0; q < cm->red->nstate; q++)
            cert_ball_get_arb(x + q, e->right + cm->red->state[q].var);
        cert_ball_get_arb(tj, &e->time);
        st = cert_arc_begin(a, last_to, tj, NULL, x, u);
        a->prev_m = e->from;
        a->prev_k = -1;
        a->tzero = HDO_EXPR_NONE;
        _arb_vec_clear(x, cm->red->nstate + 1);
        _arb_vec_clear(u, cm->red->nimplicit + 1);
        if (st == 0)
            st = ARC_EVENT;
    }
    arb_clear(z.L);
    arb_clear(ts);
    arb_clear(L);
    arb_clear(Lm);
    arb_clear(D0);
    arb_clear(t0);
    arb_clear(tj);
    arb_clear(tb);
    arb_clear(one);
    arb_clear(s);
    return st;
}
