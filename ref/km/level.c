/* level.c -- the derivative array F_mu of a mode and its Jacobians,
   built symbolically and compiled into one flat program */
#include <string.h>
#include <flint/fmpq.h>
#include "km_level.h"

static int
is_zero_const(hdo_expr_pool_t pool, hdo_expr e)
{
    fmpq_t q;
    int z;

    fmpq_init(q);
    z = hdo_expr_get_fmpq(q, pool, e) == 0 && fmpq_is_zero(q);
    fmpq_clear(q);
    return z;
}

/* Marks (order, local variable) of each variable node of a row. */
typedef struct {
    const slong *local; /* model variable -> local index, or -1 */
    char *mark;         /* (mu + 2) n entries, order-major */
    slong n, maxo;
} occ_data;

static void
mark_occurrence(slong var, slong order, void *data)
{
    occ_data *d = data;
    if (d->local[var] >= 0 && order <= d->maxo)
        d->mark[order * d->n + d->local[var]] = 1;
}

void
hdo_km_level_init(hdo_km_level *lev, hdo_model_t model, slong mode, hdo_expr *D,
                  slong *have, slong mu, mpfr_prec_t prec)
{
    const hdo_mode *m = model->modes + mode;
    slong l = m->neqs, n = m->nvars, L = (mu + 1) * l, ncols = (mu + 2) * n;
    slong k, i, r, o, j, nroots;
    hdo_expr *roots;

    /* Row k l + i is d/dt of row (k - 1) l + i: total derivatives are
       memoized in the pool, so earlier levels are never rebuilt. */
    for (k = *have; k <= mu; k++)
        for (i = 0; i < l; i++)
            D[k * l + i] = k == 0 ? m->eqs[i].residual
                                  : hdo_expr_total_derivative(
                                        model->pool, D[(k - 1) * l + i]);
    if (*have < mu + 1)
        *have = mu + 1;

    lev->l = l;
    lev->n = n;
    lev->mu = mu;
    lev->L = L;
    lev->ncols = ncols;
    lev->jroot = flint_malloc((L * ncols + 1) * sizeof(slong));
    roots = flint_malloc((L + L * ncols + 1) * sizeof(hdo_expr));
    nroots = 0;
    for (r = 0; r < L; r++)
        roots[nroots++] = D[r];
    /* A row is differentiated only with respect to the (variable,
       order) pairs that occur in it: the derivative with respect to any
       other is the constant 0 (jroot -1) without asking the symbolic
       differentiation, whose memo lookups cost seconds for the bowed
       string's 824 x 1030 array. */
    occ_data occ;
    occ.local = flint_malloc((model->nvars + 1) * sizeof(slong));
    for (j = 0; j < model->nvars; j++)
        ((slong *)occ.local)[j] = -1;
    for (j = 0; j < n; j++)
        ((slong *)occ.local)[m->vars[j]] = j;
    occ.mark = flint_malloc(ncols + 1);
    occ.n = n;
    occ.maxo = mu + 1;
    for (r = 0; r < L; r++) {
        k = r / l;
        memset(occ.mark, 0, ncols + 1);
        hdo_expr_foreach_var(model->pool, D[r], mark_occurrence, &occ);
        for (o = 0; o < mu + 2; o++)
            for (j = 0; j < n; j++) {
                hdo_expr e;
                slong c = o * n + j;
                /* The k-th derivative of a first-order equation has
                   derivatives of order k + 1 at most. */
                if (o > k + 1 || !occ.mark[c]) {
                    lev->jroot[r * ncols + c] = -1;
                    continue;
                }
                e = hdo_expr_diff(model->pool, D[r], m->vars[j], o);
                if (is_zero_const(model->pool, e)) {
                    lev->jroot[r * ncols + c] = -1;
                } else {
                    lev->jroot[r * ncols + c] = nroots;
                    roots[nroots++] = e;
                }
            }
    }
    flint_free((slong *)occ.local);
    flint_free(occ.mark);
    hdo_program_init(lev->prog, model->pool, roots, nroots, prec);
    flint_free(roots);
    lev->out = hdo_vec_init(nroots, prec);
    lev->tab_len = (mu + 2) * model->nvars;
    lev->tab = hdo_vec_init(lev->tab_len, prec);
}

void
hdo_km_level_clear(hdo_km_level *lev)
{
    hdo_vec_clear(lev->out, lev->prog->nroots);
    hdo_vec_clear(lev->tab, lev->tab_len);
    hdo_program_clear(lev->prog);
    flint_free(lev->jroot);
}

int
hdo_km_level_eval(mpfr_ptr F, hdo_mat_t J, hdo_km_level *lev, hdo_model_t model,
                  slong mode, const mpfr_t t, mpfr_srcptr x, mpfr_srcptr y,
                  hdo_expr *bad)
{
    const hdo_mode *m = model->modes + mode;
    slong n = lev->n, nv = model->nvars, o, j, r, c;
    int status;

    /* Variables of other modes never occur in this mode's equations;
       their entries stay zero. */
    for (j = 0; j < n; j++) {
        mpfr_set(lev->tab + m->vars[j], x + j, MPFR_RNDN);
        for (o = 1; o < lev->mu + 2; o++)
            mpfr_set(lev->tab + o * nv + m->vars[j], y + (o - 1) * n + j,
                     MPFR_RNDN);
    }
    status = hdo_program_eval_at(lev->out, lev->prog, t, lev->tab, nv,
                                 lev->mu + 1, bad);
    if (status != 0)
        return status;
    for (r = 0; r < lev->L; r++)
        mpfr_set(F + r, lev->out + r, MPFR_RNDN);
    hdo_mat_resize(J, lev->L, lev->ncols);
    for (r = 0; r < lev->L; r++)
        for (c = 0; c < lev->ncols; c++) {
            slong k = lev->jroot[r * lev->ncols + c];
            if (k < 0)
                mpfr_set_zero(hdo_mat_entry(J, r, c), 1);
            else
                mpfr_set(hdo_mat_entry(J, r, c), lev->out + k, MPFR_RNDN);
        }
    return 0;
}
