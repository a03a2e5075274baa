/* tangent.c -- a tangential departure: a switching function that starts
   an arc on its surface with its derivative exactly zero too, proven
   symbolically, so that its second derivative decides the side */
#include <string.h>
#include "internal.h"

/* Why symbolically: at stick_slip_stick's break-away the relative
   velocity of slip_pos starts at 0 with derivative sin(t) - 2 mu N, which
   is zero because the stick force sin(t)/2 reached mu N at that event.
   Its ball at the start only says "near zero"; a tiny negative value
   would be an instantaneous return to stick.  The identity
   sin(t) - 2 F_slip = (sin(t) - 2 F_stick) - 2 (F_slip - mu N)
   - 2 (mu N - F_stick) over exact rationals, each bracket a relation of
   the event, is a proof; normal.c finds the coefficients. */

/* A fresh symbol for the target's unknown (var, order): a VAR node of an
   order no model has, never compiled. */
#define FRESH_ORDER 1000000

/* e of the target with the substitution (from -> to, n). */
static hdo_expr
subst(hdo_model_struct *w, hdo_expr e, const hdo_expr *from, const hdo_expr *to,
      slong n)
{
    return n > 0 ? hdo_expr_substitute_many(w->pool, e, from, to, n) : e;
}

int
cert_guard_slope_zero(arc_t *a, slong g)
{
    if (a->slope0[g] >= 0)
        return a->slope0[g];
    a->slope0[g] = 0;
    cert_ctx *c = a->c;
    if (a->prev_m < 0 || a->prev_moved)
        return 0; /* no transition, or the state moved: no algebra */
    char why[64];
    cert_mode *cs = cert_mode_get(c, a->prev_m, why, sizeof why);
    cert_mode *cd = a->cm;
    if (cs == NULL)
        return 0;
    hdo_model_struct *w = &c->work;
    const hdo_reduced_struct *rs = cs->red, *rd = cd->red;
    const hdo_transition *tr = cert_when(c, a->prev_m, a->prev_k, a->m);
    if (rs->cons_rhs != NULL || rd->cons_rhs != NULL)
        return 0;
    /* the target's values after the event in the left limit's terms:
       an assigned state its `with` value, an unknown a fresh symbol, a
       kept value its own node (the left limit's); der(x) of an explicit
       variable the target's rhs */
    slong na = tr != NULL ? tr->nassigns : 0;
    slong nmax = na + rd->nimplicit + rd->nexplicit + 1;
    hdo_expr *from = flint_malloc(nmax * sizeof *from);
    hdo_expr *to = flint_malloc(nmax * sizeof *to);
    slong n = 0;
    for (slong i = 0; i < na; i++) {
        from[n] = hdo_expr_var(w->pool, tr->assigns[i].var, 0);
        to[n++] = tr->assigns[i].value;
    }
    for (slong j = 0; j < rd->nimplicit; j++) {
        from[n] =
            hdo_expr_var(w->pool, rd->unknown[j].var, rd->unknown[j].order);
        to[n++] = hdo_expr_var(w->pool, rd->unknown[j].var,
                               rd->unknown[j].order + FRESH_ORDER);
    }
    slong nval = n; /* the value substitutions */
    hdo_expr S = cd->guards[g];
    hdo_expr L = hdo_expr_total_derivative(w->pool, S);
    /* der(x) = rhs first (the rhs is in the target's values), then the
       values, simultaneously */
    for (slong e = 0; e < rd->nexplicit; e++) {
        from[n] = hdo_expr_var(w->pool, rd->explicit_var[e], 1);
        to[n++] = rd->rhs[e];
    }
    L = subst(w, L, from + nval, to + nval, n - nval);
    L = subst(w, L, from, to, nval);
    /* L now reads the left limit's values (a target value kept from it
       is its node; cert_transition_state refused any other) and fresh
       symbols: each node one value in L and in every relation below */
    /* the relations of the event */
    slong nr = rs->nh + rs->ncons + 1 + rd->nh + rd->ncons;
    hdo_expr *rel = flint_malloc((nr + 1) * sizeof *rel);
    slong r = 0;
    for (slong k = 0; k < rs->nh; k++)
        rel[r++] = rs->h[k];
    for (slong k = 0; k < rs->ncons; k++)
        rel[r++] = rs->cons[k];
    /* the switching function that fired, zero at its located event; a
       sliding's end: alpha = lb / (lb - la) = 0 is lb = 0, 1 - alpha =
       -la / (lb - la) = 0 is la = 0 (lb - la proven nonzero) */
    if (a->prev_at_zero)
        rel[r++] = cs->sa < 0 ? cs->guards[a->prev_k]
                              : (a->prev_k == 0 ? cs->lb : cs->la);
    for (slong k = 0; k < rd->nh; k++)
        rel[r++] = subst(w, rd->h[k], from, to, nval);
    for (slong k = 0; k < rd->ncons; k++)
        rel[r++] = subst(w, rd->cons[k], from, to, nval);
    int ok = cert_expr_in_span(w->pool, L, rel, r);
    flint_free(rel);
    flint_free(from);
    flint_free(to);
    a->slope0[g] = ok;
    return ok;
}
