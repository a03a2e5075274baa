/* rows.c -- the run's sample rows certified on a validated step: their
   local times, the values of the mode's variables there, and the side of
   an event a sample lies on when the event is a clock's */
#include <string.h>
#include "internal.h"

/* The values of the mode's variables at s (a ball in [0, h]) into the
   balls out (model->nvars, present set): each variable's component. */
int
cert_values_at(hdo_ball *out, int *present, arc_t *a, const arb_t s)
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

/* The time of the run's row i: for the sample at the run's end, the
   exact end (c->tend) when known; else the row's time, exact (a sample's
   grid time as the run rounded it). */
void
cert_row_time(arb_t t, const cert_ctx *c, slong i)
{
    const hdo_row *row = c->res->rows + i;
    if (c->tend != HDO_EXPR_NONE && row->sample >= 0 &&
        mpfr_equal_p(row->time, c->res->t_end)) {
        arb_set(t, c->tend_ball);
    } else {
        arf_set_mpfr(arb_midref(t), row->time);
        mag_zero(arb_radref(t));
    }
}

/* The local time of row i in the current step. */
void
cert_row_local_time(arb_t s, arc_t *a, slong i)
{
    cert_row_time(s, a->c, i);
    arb_sub(s, s, a->tarc, a->c->prec);
    arb_sub_arf(s, s, a->sloc, a->c->prec);
}

/* Certifies the run's row a->row, a sample of the current arc at local
   time s of the current step. */
int
cert_emit_sample(arc_t *a, const arb_t s)
{
    const hdo_row *row = a->c->res->rows + a->row;
    hdo_cert_row *r = cert_result_add_row(a->c->cert);
    r->row = a->row;
    r->mode = row->mode;
    arb_t tr;
    arb_init(tr);
    cert_row_time(tr, a->c, a->row);
    cert_ball_set_arb(&r->time, tr);
    arb_clear(tr);
    if (cert_values_at(r->values, r->present, a, s) != 0) {
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
void
cert_local_time(arb_t s, arc_t *a, const mpfr_t t)
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

/* Guard k of mode m as compiled (m built: the arc's or a previous one). */
static hdo_expr
guard_of(const arc_t *a, slong m, slong k)
{
    char why[64];
    const cert_mode *cm = cert_mode_get(a->c, m, why, sizeof why);
    return cm != NULL && k < cm->ng ? cm->guards[k] : HDO_EXPR_NONE;
}

/* 1 when guard k of mode m reads no variable: a switching function of t
   alone (a clock, PWM). */
int
cert_time_only(const arc_t *a, slong m, slong k)
{
    hdo_model_struct *w = &a->c->work;
    hdo_expr S = guard_of(a, m, k);
    if (S == HDO_EXPR_NONE || !hdo_expr_has_time(w->pool, S))
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
int
cert_time_sign(const arc_t *a, slong m, slong k, const mpfr_t t)
{
    if (!cert_time_only(a, m, k))
        return 0;
    hdo_model_struct *w = &a->c->work;
    hdo_expr S = guard_of(a, m, k);
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

int
cert_before_clock(arc_t *a, slong k, const mpfr_t t)
{
    return cert_time_sign(a, a->m, k, t) > 0;
}

/* The zero of a time-only guard k of mode m in the ball te, enclosed in
   absolute time by the interval Newton operator on S(t) (S' = dS/dt
   symbolically): the event time of a clock does not depend on the state,
   nor on the uncertain start of the arc, whose ball would otherwise add
   up from event to event.  te is replaced by the tighter ball when one is
   proven; returns 1 then, else 0. */
int
cert_time_root(arb_t te, const arc_t *a, slong m, slong k)
{
    if (!cert_time_only(a, m, k))
        return 0;
    hdo_model_struct *w = &a->c->work;
    hdo_expr S = guard_of(a, m, k);
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
int
cert_emit_samples(arc_t *a, arf_t hc, int upto_inclusive)
{
    const hdo_result_struct *res = a->c->res;
    arb_t s;
    arb_init(s);
    int st = 0;
    while (a->row < res->nrows && res->rows[a->row].sample >= 0) {
        cert_row_local_time(s, a, a->row);
        arf_t lo, hi;
        arf_init(lo);
        arf_init(hi);
        arb_get_lbound_arf(lo, s, a->c->prec);
        arb_get_ubound_arf(hi, s, a->c->prec);
        int before =
            upto_inclusive ? arf_cmp(hi, hc) <= 0 : arf_cmp(hi, hc) < 0;
        int after = !before && arf_cmp(lo, hc) >= 0;
        if (arf_sgn(lo) < 0) {
            /* the row may precede the arc: within its start's ball; after
               a clock's event its sign there decides */
            if (a->prev_k >= 0 && cert_time_sign(a, a->prev_m, a->prev_k,
                                                 res->rows[a->row].time) < 0) {
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
                st = cert_stop(
                    a, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN),
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
            char rn[256];
            hdo_mode_name(rn, sizeof rn, a->c->model, res->rows[a->row].mode);
            st = cert_stop(a, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN),
                           "the run's row %ld is in mode %s, the certified "
                           "pass in mode %s",
                           (long)a->row, rn, a->cm->name);
            break;
        }
        if (cert_emit_sample(a, s) != 0) {
            st = cert_stop(a, mpfr_get_d(res->rows[a->row].time, MPFR_RNDN),
                           "a value at the sample t = %.17g is not enclosed",
                           mpfr_get_d(res->rows[a->row].time, MPFR_RNDN));
            break;
        }
    }
    arb_clear(s);
    return st;
}

int
cert_clock_zero_at_end(arc_t *a, slong g)
{
    cert_ctx *c = a->c;
    if (c->tend == HDO_EXPR_NONE || !cert_time_only(a, a->m, g))
        return 0;
    hdo_model_struct *w = &c->work;
    hdo_expr T = hdo_expr_time(w->pool);
    hdo_expr e =
        hdo_expr_substitute_many(w->pool, a->cm->guards[g], &T, &c->tend, 1);
    int sign;
    return hdo_expr_const_sign(&sign, w->pool, e) == 0 && sign == 0;
}

void
cert_record_event(arc_t *a, const hdo_event *E, slong src, slong dst,
                  const cert_mode *cs, const cert_mode *cd, const arb_t t,
                  arb_srcptr y, arb_srcptr x, arb_srcptr u)
{
    cert_ctx *c = a->c;
    slong nsd = cd->red->nstate;
    hdo_cert_event *ce = cert_result_add_event(c->cert);
    ce->event = a->ev;
    ce->from = src;
    ce->to = dst;
    ce->kind = E->kind;
    ce->guard = E->guard;
    cert_ball_set_arb(&ce->time, t);
    for (slong v = 0; v < c->model->nvars; v++) {
        slong cl = cs->comp[v], cr = cd->comp[v];
        ce->left_present[v] = cl >= 0;
        if (cl >= 0)
            cert_ball_set_arb(ce->left + v, y + cl);
        ce->right_present[v] = cr >= 0;
        if (cr >= 0)
            cert_ball_set_arb(ce->right + v,
                              cr < nsd ? x + cr : u + (cr - nsd));
    }
    /* the two rows of the event */
    for (int side = 0; side < 2; side++) {
        hdo_cert_row *r = cert_result_add_row(c->cert);
        r->row = a->row;
        r->mode = side ? dst : src;
        cert_ball_set_arb(&r->time, t);
        for (slong v = 0; v < c->model->nvars; v++) {
            r->present[v] = side ? ce->right_present[v] : ce->left_present[v];
            if (r->present[v]) {
                const hdo_ball *b = side ? ce->right + v : ce->left + v;
                mpfr_set(r->values[v].mid, b->mid, MPFR_RNDN);
                mpfr_set(r->values[v].rad, b->rad, MPFR_RNDU);
            }
        }
        mpfr_set(a->last, c->res->rows[a->row].time, MPFR_RNDN);
        a->row++;
    }
    a->ev++;
}
