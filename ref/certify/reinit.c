/* reinit.c -- the consistent reinitialisation after a transition whose
   kept and assigned values break a constraint of the target (a
   reinit-adjusted event): the smallest change, enclosed in balls */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Why affine constraints only: model-format.md's smallest change is the
   Euclidean projection of the kept values onto the constraints' set.
   The run reaches it by Gauss-Newton steps of minimum norm
   (ref/reduce/init.c), which is exact in one step when the constraints
   are affine in the states, and off by O(|change|^2) otherwise
   (reduce.h): there the run's point and the nearest one differ, and the
   pass stops rather than certify either. */

/* Evaluates the roots of prog (inputs: the states of cm, in x) at time
   t into out; 0, or -1 (an input that is not a state, or not enclosed). */
static int
eval_roots(arb_ptr out, const cert_mode *cm, hdo_model_struct *w,
           const hdo_program_struct *prog, arb_srcptr x, const arb_t t,
           slong prec)
{
    slong *map = flint_malloc((prog->ninputs + 1) * sizeof *map);
    int st = cert_sys_map_inputs(map, cm->sys, prog, NULL, 0) != 0 ? -1 : 0;
    for (slong i = 0; st == 0 && i < prog->ninputs; i++)
        if (map[i] < 0)
            st = -1; /* an unknown */
    if (st == 0) {
        cert_series_t S;
        cert_series_init(S, prog, w->pool, 0, 0, prec);
        for (slong i = 0; i < prog->ninputs; i++)
            arb_set(cert_series_coef(S, prog->inputs[i].slot, 0, 0),
                    x + map[i]);
        if (prog->time_slot >= 0)
            arb_set(cert_series_coef(S, prog->time_slot, 0, 0), t);
        if (cert_series_step(S, 0, NULL, NULL) != 0)
            st = -1;
        for (slong r = 0; st == 0 && r < prog->nroots; r++) {
            arb_set(out + r, cert_series_coef(S, prog->root_slot[r], 0, 0));
            if (!arb_is_finite(out + r))
                st = -1;
        }
        cert_series_clear(S);
    }
    flint_free(map);
    return st;
}

int
cert_reinit_project(arb_ptr x, arb_mat_struct *P, cert_ctx *c,
                    const cert_mode *cm, const int *proven, const arb_t t,
                    char *why, size_t size)
{
    hdo_model_struct *w = &c->work;
    const hdo_reduced_struct *red = cm->red;
    slong n = red->nstate, m = red->ncons, prec = c->prec;
    if (red->cons_rhs != NULL) {
        snprintf(why, size, "its constraints hold values the run set");
        return -1;
    }
    /* A = dg/dx, which must read no variable (t allowed) */
    hdo_expr *d = flint_malloc((m * n + 1) * sizeof *d);
    int st = 0;
    for (slong q = 0; q < m && st == 0; q++)
        for (slong i = 0; i < n && st == 0; i++) {
            d[q * n + i] = hdo_expr_diff(
                w->pool, red->cons[q], red->state[i].var, red->state[i].order);
            for (slong v = 0; v < c->model->nvars && st == 0; v++)
                if (hdo_expr_max_order(w->pool, d[q * n + i], v) >= 0)
                    st = -1;
        }
    if (st != 0) {
        flint_free(d);
        snprintf(why, size,
                 "its constraints are not affine in the states (the run's "
                 "smallest change, Gauss-Newton steps, is the nearest "
                 "consistent point only to first order there)");
        return -1;
    }
    arb_ptr a = _arb_vec_init(m * n + 1), g = _arb_vec_init(m + 1);
    arb_mat_t A, M, L, AT;
    arb_mat_init(A, m, n);
    arb_mat_init(AT, n, m);
    arb_mat_init(M, m, m);
    arb_mat_init(L, m, 1);
    hdo_program_t pa, pg;
    hdo_program_init(pa, w->pool, d, m * n, 64);
    hdo_program_init(pg, w->pool, red->cons, m, 64);
    if (eval_roots(a, cm, w, pa, x, t, prec) != 0 ||
        eval_roots(g, cm, w, pg, x, t, prec) != 0) {
        snprintf(why, size,
                 "its constraints are not enclosed at the kept values");
        st = -1;
    }
    if (st == 0) {
        for (slong q = 0; q < m; q++) {
            for (slong i = 0; i < n; i++)
                arb_set(arb_mat_entry(A, q, i), a + q * n + i);
            /* a constraint proven zero is exactly zero, not its ball */
            if (proven[q])
                arb_zero(arb_mat_entry(L, q, 0));
            else
                arb_set(arb_mat_entry(L, q, 0), g + q);
        }
        /* x - A^T (A A^T)^-1 g(x): Arb's solver proves A A^T invertible */
        arb_mat_transpose(AT, A);
        arb_mat_mul(M, A, AT, prec);
        if (!arb_mat_solve(L, M, L, prec)) {
            snprintf(why, size,
                     "its constraints are not proven independent (A A^T "
                     "not proven invertible)");
            st = -1;
        }
    }
    if (st == 0) {
        arb_mat_t dx;
        arb_mat_init(dx, n, 1);
        arb_mat_mul(dx, AT, L, prec);
        for (slong i = 0; i < n; i++)
            arb_sub(x + i, x + i, arb_mat_entry(dx, i, 0), prec);
        arb_mat_clear(dx);
        if (P != NULL) {
            /* I - A^T (A A^T)^-1 A, for the set's Jacobian (low
               precision: it multiplies the set's small spread) */
            arb_mat_t S;
            arb_mat_init(S, m, n);
            if (!arb_mat_solve(S, M, A, c->lprec))
                st = -1;
            arb_mat_mul(P, AT, S, c->lprec);
            arb_mat_neg(P, P);
            for (slong i = 0; i < n; i++)
                arb_add_ui(arb_mat_entry(P, i, i), arb_mat_entry(P, i, i), 1,
                           c->lprec);
            arb_mat_clear(S);
            if (st != 0)
                snprintf(why, size,
                         "its constraints are not proven independent");
        }
    }
    hdo_program_clear(pa);
    hdo_program_clear(pg);
    arb_mat_clear(A);
    arb_mat_clear(AT);
    arb_mat_clear(M);
    arb_mat_clear(L);
    _arb_vec_clear(a, m * n + 1);
    _arb_vec_clear(g, m + 1);
    flint_free(d);
    return st;
}
