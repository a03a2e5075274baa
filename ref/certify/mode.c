/* mode.c -- the modes of a certified pass: the start point, the state
   after a transition with the proof of its consistency, and the zeros of
   guards at an arc's start (compile.c builds the modes) */
#include <stdio.h>
#include <string.h>
#include "internal.h"

const hdo_transition *
cert_when(const cert_ctx *c, slong src, slong k, slong dst)
{
    if (src < 0 || src >= c->nmodes || dst >= c->nmodes)
        return NULL;
    const hdo_mode *mode = c->model->modes + src;
    if (k == mode->nwhens && mode->has_zeno && mode->zeno.target == dst)
        return &mode->zeno;
    if (k >= mode->nwhens || mode->whens[k].target != dst)
        return NULL;
    return mode->whens + k;
}

/* The ball of a constant expression of the workspace's pool. */
int
cert_constant_arb(arb_t r, hdo_model_struct *w, hdo_expr e, slong prec)
{
    mpfr_t mid, rad, t, tr;
    mpfr_init2(mid, 4 * prec + 64);
    mpfr_init2(rad, 64);
    mpfr_init2(t, 64);
    mpfr_init2(tr, 64);
    mpfr_set_zero(t, 1);
    mpfr_set_zero(tr, 1);
    int st = hdo_expr_enclose(mid, rad, w->pool, e, NULL, NULL, NULL, 0, t, tr,
                              prec);
    if (st == 0 && mpfr_number_p(mid) && mpfr_number_p(rad)) {
        arf_t a;
        arf_init(a);
        arf_set_mpfr(arb_midref(r), mid);
        mag_zero(arb_radref(r));
        arf_set_mpfr(a, rad);
        arb_add_error_arf(r, a);
        arf_clear(a);
    } else {
        st = -1;
    }
    mpfr_clear(mid);
    mpfr_clear(rad);
    mpfr_clear(t);
    mpfr_clear(tr);
    return st;
}

/* 1 when the constant expression e is proven exactly zero: 1/e is then
   undefined by Calcium's decision (hdo_expr_const_examine), with no
   value taken as zero without a proof. */
static int
proven_zero(hdo_model_struct *w, hdo_expr e)
{
    if (hdo_expr_is_rational(w->pool, e)) {
        fmpq_t q;
        fmpq_init(q);
        hdo_expr_get_fmpq(q, w->pool, e);
        int z = fmpq_is_zero(q);
        fmpq_clear(q);
        return z;
    }
    hdo_const_report rep;
    hdo_expr inv = hdo_expr_div(w->pool, hdo_expr_const_si(w->pool, 1, 1), e);
    int st = hdo_expr_const_examine(&rep, w->pool, inv, 0);
    return st != 0 && rep.reason == HDO_CONST_UNDEFINED && rep.bad == inv &&
           rep.assumed_zero == HDO_EXPR_NONE;
}

int
cert_start_state(arb_ptr x, arb_ptr u, cert_ctx *c, slong m, const arb_t t0,
                 arb_srcptr guess, char *why, size_t size)
{
    cert_mode *cm = cert_mode_get(c, m, why, size);
    if (cm == NULL)
        return -1;
    const hdo_reduced_struct *red = cm->red;
    hdo_model_struct *w = &c->work;
    if (c->res->start_adjusted) {
        snprintf(why, size,
                 "the start values are not consistent: the run moved them "
                 "(the smallest change is not certified)");
        return -1;
    }
    /* every state from a start value: the constraints are then constants */
    hdo_expr *from = flint_malloc((red->nstate + 1) * sizeof *from);
    hdo_expr *to = flint_malloc((red->nstate + 1) * sizeof *to);
    int st = 0;
    for (slong i = 0; i < red->nstate && st == 0; i++) {
        const hdo_var *v = c->model->vars + red->state[i].var;
        if (red->state[i].order != 0 || v->start == HDO_EXPR_NONE) {
            snprintf(why, size,
                     "the start of mode %s needs a value of %s%s that no "
                     "`var` start value gives (solved by the run's "
                     "consistent initialisation, not certified)",
                     c->model->modes[m].name,
                     red->state[i].order ? "a derivative of " : "", v->name);
            st = -1;
            break;
        }
        from[i] = hdo_expr_var(w->pool, red->state[i].var, 0);
        to[i] = v->start;
        if (cert_constant_arb(x + i, w, v->start, c->prec) != 0) {
            snprintf(why, size, "the start value of %s is not enclosed",
                     v->name);
            st = -1;
        }
    }
    for (slong k = 0; k < red->ncons && st == 0; k++) {
        hdo_expr e = hdo_expr_substitute_many(w->pool, red->cons[k], from, to,
                                              red->nstate);
        if (red->cons_rhs != NULL || hdo_expr_has_time(w->pool, e) ||
            !proven_zero(w, e)) {
            snprintf(why, size,
                     "the start values of mode %s are not proven consistent "
                     "(constraint %ld is not exactly zero there)",
                     c->model->modes[m].name, (long)k + 1);
            st = -1;
        }
    }
    flint_free(from);
    flint_free(to);
    if (st == 0 && red->nimplicit > 0) {
        arb_ptr g = _arb_vec_init(red->nimplicit);
        if (guess != NULL)
            _arb_vec_set(g, guess, red->nimplicit);
        if (cert_unknowns(u, cm->sys, x, t0, g, c->prec) != 0) {
            snprintf(why, size,
                     "the algebraic unknowns of mode %s are not enclosed at "
                     "the start (Krawczyk)",
                     c->model->modes[m].name);
            st = -1;
        }
        _arb_vec_clear(g, red->nimplicit);
    }
    return st;
}

/* 1 when every node of a occurs in b (n and nb entries). */
static int
subset(const hdo_expr *a, slong n, const hdo_expr *b, slong nb)
{
    for (slong i = 0; i < n; i++) {
        slong j;
        for (j = 0; j < nb && b[j] != a[i]; j++)
            ;
        if (j == nb)
            return 0;
    }
    return 1;
}

int
cert_transition_state(arb_ptr x, arb_ptr u, cert_ctx *c, slong src, slong k,
                      slong dst, arb_srcptr y, const arb_t t, arb_srcptr guess,
                      int at_zero, arb_mat_struct *P, int *moved, char *why,
                      size_t size)
{
    const hdo_transition *tr = cert_when(c, src, k, dst);
    cert_mode *cs = cert_mode_get(c, src, why, size);
    cert_mode *cd = cs != NULL ? cert_mode_get(c, dst, why, size) : NULL;
    if (cd == NULL)
        return -1;
    hdo_model_struct *w = &c->work;
    const hdo_reduced_struct *rs = cs->red, *rd = cd->red;
    slong na = tr != NULL ? tr->nassigns : 0, nss = rs->nstate;
    int st = 0;
    arb_ptr val = _arb_vec_init(na + 1);
    int *proven = flint_calloc(rd->ncons + 1, sizeof *proven), nproven = 0;
    *moved = 0;
    /* the `with` values on the left limit, in Arb */
    if (na > 0) {
        hdo_expr *e = flint_malloc(na * sizeof *e);
        for (slong a = 0; a < na; a++)
            e[a] = tr->assigns[a].value;
        hdo_program_t prog;
        hdo_program_init(prog, w->pool, e, na, 64);
        slong *map = flint_malloc((prog->ninputs + 1) * sizeof *map);
        char w2[256];
        if (cert_sys_map_inputs(map, cs->sys, prog, w2, sizeof w2) != 0) {
            snprintf(why, size, "the reset of `%s` in mode %s: %s",
                     cs->gtext[k], cs->name, w2);
            st = -1;
        } else {
            cert_series_t S;
            cert_series_init(S, prog, w->pool, 0, 0, c->prec);
            for (slong i = 0; i < prog->ninputs; i++)
                arb_set(cert_series_coef(S, prog->inputs[i].slot, 0, 0),
                        map[i] >= 0 ? y + map[i] : y + nss + (-1 - map[i]));
            if (prog->time_slot >= 0)
                arb_set(cert_series_coef(S, prog->time_slot, 0, 0), t);
            if (cert_series_step(S, 0, NULL, NULL) != 0) {
                snprintf(why, size,
                         "the reset of `%s` in mode %s is not enclosed (a "
                         "domain edge within the state's balls)",
                         cs->gtext[k], cs->name);
                st = -1;
            }
            for (slong a = 0; a < na && st == 0; a++)
                arb_set(val + a, cert_series_coef(S, prog->root_slot[a], 0, 0));
            cert_series_clear(S);
        }
        flint_free(map);
        hdo_program_clear(prog);
        flint_free(e);
    }
    /* the target's states: assigned, else kept */
    for (slong i = 0; i < rd->nstate && st == 0; i++) {
        slong var = rd->state[i].var, order = rd->state[i].order, a;
        for (a = 0; a < na && !(order == 0 && tr->assigns[a].var == var); a++)
            ;
        if (a < na) {
            arb_set(x + i, val + a);
            continue;
        }
        slong j;
        for (j = 0; j < nss &&
                    !(rs->state[j].var == var && rs->state[j].order == order);
             j++)
            ;
        if (j < nss) {
            arb_set(x + i, y + j);
            continue;
        }
        for (j = 0; j < rs->nimplicit && !(rs->unknown[j].var == var &&
                                           rs->unknown[j].order == order);
             j++)
            ;
        if (j < rs->nimplicit) {
            arb_set(x + i, y + nss + j);
            continue;
        }
        snprintf(why, size,
                 "mode %s needs %s%s after `%s`, which neither the reset nor "
                 "mode %s gives (solved by the run's reinitialisation, not "
                 "certified)",
                 cd->name, order ? "a derivative of " : "",
                 c->model->vars[var].name, cs->gtext[k], cs->name);
        st = -1;
    }
    /* the target's constraints: those of src, untouched by the reset,
       hold on src's exact solution; any other must be exactly zero */
    for (slong q = 0; q < rd->ncons && st == 0; q++) {
        int ok = rd->cons_rhs == NULL && rs->cons_rhs == NULL &&
                 subset(rd->cons + q, 1, rs->cons, rs->ncons);
        for (slong a = 0; ok && a < na; a++)
            if (hdo_expr_max_order(w->pool, rd->cons[q], tr->assigns[a].var) >=
                0)
                ok = 0;
        if (!ok && rd->cons_rhs == NULL) {
            /* the constraint after the reset, in src's variables: the
               guard that fired at its zero, or a constraint of src */
            hdo_expr *from = flint_malloc((na + 1) * sizeof *from);
            hdo_expr *to = flint_malloc((na + 1) * sizeof *to);
            for (slong a = 0; a < na; a++) {
                from[a] = hdo_expr_var(w->pool, tr->assigns[a].var, 0);
                to[a] = tr->assigns[a].value;
            }
            hdo_expr e =
                hdo_expr_substitute_many(w->pool, rd->cons[q], from, to, na);
            ok = at_zero && cert_same_up_to_sign(w, e, cs->guards[k]);
            for (slong r = 0; !ok && rs->cons_rhs == NULL && r < rs->ncons; r++)
                ok = cert_same_up_to_sign(w, e, rs->cons[r]);
            flint_free(from);
            flint_free(to);
        }
        if (!ok) {
            /* exactly zero in balls: an exact state (an assigned 0) */
            arb_t r;
            arb_init(r);
            hdo_program_t prog;
            hdo_program_init(prog, w->pool, rd->cons + q, 1, 64);
            slong *map = flint_malloc((prog->ninputs + 1) * sizeof *map);
            if (cert_sys_map_inputs(map, cd->sys, prog, NULL, 0) == 0) {
                cert_series_t S;
                cert_series_init(S, prog, w->pool, 0, 0, c->prec);
                int nostate = 0;
                for (slong i = 0; i < prog->ninputs; i++) {
                    if (map[i] < 0)
                        nostate = 1; /* an unknown: not known yet */
                    else
                        arb_set(cert_series_coef(S, prog->inputs[i].slot, 0, 0),
                                x + map[i]);
                }
                if (prog->time_slot >= 0)
                    arb_set(cert_series_coef(S, prog->time_slot, 0, 0), t);
                if (!nostate && cert_series_step(S, 0, NULL, NULL) == 0 &&
                    arb_is_zero(cert_series_coef(S, prog->root_slot[0], 0, 0)))
                    ok = 1;
                cert_series_clear(S);
            }
            flint_free(map);
            hdo_program_clear(prog);
            arb_clear(r);
        }
        proven[q] = ok;
        nproven += ok;
    }
    /* a constraint not proven: the values kept or assigned are moved by
       the smallest change onto the constraints (reinit.c) */
    if (st == 0 && nproven < rd->ncons) {
        char w2[256];
        if (cert_reinit_project(x, P, c, cd, proven, t, w2, sizeof w2) != 0) {
            snprintf(why, size,
                     "the state after `%s` is not proven consistent for mode "
                     "%s (a constraint is not one of mode %s kept by the "
                     "reset, nor exactly zero), and its reinitialisation is "
                     "not enclosed: %s",
                     cs->gtext[k], cd->name, cs->name, w2);
            st = -1;
        }
        *moved = 1;
    }
    if (st == 0 && rd->nimplicit > 0 &&
        cert_unknowns(u, cd->sys, x, t, guess, c->prec) != 0) {
        snprintf(why, size,
                 "the algebraic unknowns of mode %s are not enclosed after "
                 "`%s` (Krawczyk)",
                 cd->name, cs->gtext[k]);
        st = -1;
    }
    _arb_vec_clear(val, na + 1);
    flint_free(proven);
    return st;
}

int
cert_guard_zero_after(cert_ctx *c, slong src, slong k, slong dst, slong g,
                      int at_zero)
{
    char why[64];
    cert_mode *cs = cert_mode_get(c, src, why, sizeof why);
    cert_mode *cd = cert_mode_get(c, dst, why, sizeof why);
    if (cs == NULL || cd == NULL)
        return 0;
    const hdo_transition *tr = cert_when(c, src, k, dst);
    slong na = tr != NULL ? tr->nassigns : 0;
    hdo_model_struct *w = &c->work;
    hdo_expr *from = flint_malloc((na + 1) * sizeof *from);
    hdo_expr *to = flint_malloc((na + 1) * sizeof *to);
    for (slong a = 0; a < na; a++) {
        from[a] = hdo_expr_var(w->pool, tr->assigns[a].var, 0);
        to[a] = tr->assigns[a].value;
    }
    hdo_expr e =
        na > 0 ? hdo_expr_substitute_many(w->pool, cd->guards[g], from, to, na)
               : cd->guards[g];
    /* zero at the event: the guard that fired (at a located zero), or a
       constraint of src (zero all along its exact solution) */
    int z = at_zero && cert_same_up_to_sign(w, e, cs->guards[k]);
    for (slong q = 0; !z && q < cs->red->ncons; q++)
        z = cs->red->cons_rhs == NULL &&
            cert_same_up_to_sign(w, e, cs->red->cons[q]);
    flint_free(from);
    flint_free(to);
    return z;
}

int
cert_transition_jacobian(arb_mat_t K, cert_ctx *c, slong src, slong k,
                         slong dst, arb_srcptr y, const arb_t t)
{
    char why[64];
    const hdo_transition *tr = cert_when(c, src, k, dst);
    cert_mode *cs = cert_mode_get(c, src, why, sizeof why);
    cert_mode *cd = cs != NULL ? cert_mode_get(c, dst, why, sizeof why) : NULL;
    if (cd == NULL)
        return -1;
    hdo_model_struct *w = &c->work;
    const hdo_reduced_struct *rs = cs->red, *rd = cd->red;
    slong ns = rs->nstate, nu = rs->nimplicit;
    slong na = tr != NULL ? tr->nassigns : 0;
    slong lp = c->lprec, wd = ns + 1;
    int st = 0;
    /* the unknowns' derivatives: the source's expansion at order 0 */
    cert_series_t S0;
    cert_series_init(S0, cs->sys->prog, w->pool, 0, ns, lp);
    arb_ptr x0 = _arb_vec_init(ns * wd + 1);
    for (slong i = 0; i < ns; i++) {
        arb_set(x0 + i * wd, y + i);
        for (slong d = 0; d < ns; d++)
            arb_set_si(x0 + i * wd + 1 + d, i == d);
    }
    arb_t tt;
    arb_init(tt);
    arb_set_round(tt, t, lp);
    if (cert_sys_expand(S0, cs->sys, x0, y + ns, tt, NULL) != 0)
        st = -1;
    /* the assignments as jets */
    hdo_expr *e = flint_malloc((na + 1) * sizeof *e);
    for (slong a = 0; a < na; a++)
        e[a] = tr->assigns[a].value;
    hdo_program_t prog;
    hdo_program_init(prog, w->pool, e, na, 64);
    slong *map = flint_malloc((prog->ninputs + 1) * sizeof *map);
    cert_series_t SA;
    cert_series_init(SA, prog, w->pool, 0, ns, lp);
    if (st == 0 && cert_sys_map_inputs(map, cs->sys, prog, NULL, 0) != 0)
        st = -1;
    for (slong i = 0; st == 0 && i < prog->ninputs; i++) {
        slong slot =
            map[i] >= 0 ? cs->sys->sx[map[i]] : cs->sys->su[-1 - map[i]];
        for (slong d = 0; d < wd; d++)
            arb_set(cert_series_coef(SA, prog->inputs[i].slot, d, 0),
                    cert_series_coef(S0, slot, d, 0));
    }
    if (st == 0 && prog->time_slot >= 0)
        arb_set(cert_series_coef(SA, prog->time_slot, 0, 0), tt);
    if (st == 0 && cert_series_step(SA, 0, NULL, NULL) != 0)
        st = -1;
    /* the rows: assigned, kept state, kept unknown */
    for (slong i = 0; st == 0 && i < rd->nstate; i++) {
        slong var = rd->state[i].var, order = rd->state[i].order, a, j;
        for (a = 0; a < na && !(order == 0 && tr->assigns[a].var == var); a++)
            ;
        slong slot = -1;
        if (a < na) {
            slot = prog->root_slot[a];
            for (slong d = 0; d < ns; d++)
                arb_set(arb_mat_entry(K, i, d),
                        cert_series_coef(SA, slot, d + 1, 0));
            continue;
        }
        for (j = 0; j < ns &&
                    !(rs->state[j].var == var && rs->state[j].order == order);
             j++)
            ;
        if (j < ns) {
            for (slong d = 0; d < ns; d++)
                arb_set_si(arb_mat_entry(K, i, d), j == d);
            continue;
        }
        for (j = 0; j < nu && !(rs->unknown[j].var == var &&
                                rs->unknown[j].order == order);
             j++)
            ;
        if (j == nu) {
            st = -1;
            break;
        }
        for (slong d = 0; d < ns; d++)
            arb_set(arb_mat_entry(K, i, d),
                    cert_series_coef(S0, cs->sys->su[j], d + 1, 0));
    }
    cert_series_clear(SA);
    cert_series_clear(S0);
    hdo_program_clear(prog);
    flint_free(map);
    flint_free(e);
    _arb_vec_clear(x0, ns * wd + 1);
    arb_clear(tt);
    return st;
}

/* e with every TIME node replaced by tv and every VAR node from[i] by
   to[i] (hdo_expr_substitute_many rebuilt, t included), memo[x] the
   image of node x (HDO_EXPR_NONE: not yet). */
static hdo_expr
subst_rec(hdo_expr_pool_struct *pool, hdo_expr x, hdo_expr tv,
          const hdo_expr *from, const hdo_expr *to, slong n, hdo_expr *memo)
{
    if (memo[x] != HDO_EXPR_NONE)
        return memo[x];
    hdo_expr_node node = *hdo_expr_node_get(pool, x);
    hdo_expr r = x;
    int arity = hdo_expr_kind_arity(node.kind);
    if (node.kind == HDO_X_TIME) {
        r = tv;
    } else if (node.kind == HDO_X_VAR) {
        for (slong k = 0; k < n; k++)
            if (from[k] == x)
                r = to[k];
    } else if (arity > 0 && node.kind != HDO_X_CONST) {
        hdo_expr a = subst_rec(pool, node.a, tv, from, to, n, memo);
        hdo_expr b = arity == 2 ? subst_rec(pool, node.b, tv, from, to, n, memo)
                                : HDO_EXPR_NONE;
        if (a != node.a || (arity == 2 && b != node.b))
            r = arity == 2 ? hdo_expr_binary(pool, node.kind, a, b)
                           : hdo_expr_unary(pool, node.kind, a);
    }
    memo[x] = r;
    return r;
}

int
cert_start_guard_zero(cert_ctx *c, slong m, slong g)
{
    char why[64];
    cert_mode *cm = cert_mode_get(c, m, why, sizeof why);
    if (cm == NULL)
        return 0;
    hdo_model_struct *w = &c->work;
    const hdo_mode *mode = c->model->modes + m;
    hdo_expr *from = flint_malloc((mode->nvars + 1) * sizeof *from);
    hdo_expr *to = flint_malloc((mode->nvars + 1) * sizeof *to);
    slong n = 0;
    for (slong i = 0; i < mode->nvars; i++) {
        const hdo_var *v = c->model->vars + mode->vars[i];
        if (v->start == HDO_EXPR_NONE)
            continue;
        from[n] = hdo_expr_var(w->pool, mode->vars[i], 0);
        to[n++] = v->start;
    }
    hdo_expr e = cm->guards[g];
    hdo_expr *memo = flint_malloc((w->pool->len + 1) * sizeof *memo);
    for (slong i = 0; i <= e; i++)
        memo[i] = HDO_EXPR_NONE;
    /* the memo covers the nodes up to e: the walk reads only those */
    e = subst_rec(w->pool, e, c->model->t0, from, to, n, memo);
    flint_free(memo);
    int z = hdo_expr_is_constant(w->pool, e) && proven_zero(w, e);
    flint_free(from);
    flint_free(to);
    return z;
}

int
cert_guard_invariant(cert_ctx *c, slong m, slong g)
{
    char why[64];
    cert_mode *cm = cert_mode_get(c, m, why, sizeof why);
    if (cm == NULL)
        return 0;
    hdo_model_struct *w = &c->work;
    const hdo_reduced_struct *red = cm->red;
    /* the Lie derivative along the explicit flow, when S reads explicit
       variables and t only */
    hdo_expr S = cm->guards[g];
    hdo_expr L = hdo_expr_diff_time(w->pool, S);
    for (slong v = 0; v < c->model->nvars; v++) {
        if (hdo_expr_max_order(w->pool, S, v) < 0)
            continue;
        slong e;
        for (e = 0; e < red->nexplicit && red->explicit_var[e] != v; e++)
            ;
        if (e == red->nexplicit || hdo_expr_max_order(w->pool, S, v) > 0)
            return 0;
        L = hdo_expr_add(w->pool, L,
                         hdo_expr_mul(w->pool, hdo_expr_diff(w->pool, S, v, 0),
                                      red->rhs[e]));
    }
    return cert_expr_is_zero(w->pool, L);
}
