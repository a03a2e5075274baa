/* hdo_reduce_mode_km -- the Kunkel-Mehrmann fallback: a mode whose equations
 * are first split by the exact left null space of their derivative
 * Jacobian, then reduced as by hdo_reduce_mode */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpq_mat.h>
#include "reduce.h"
#include "cache.h"

typedef struct {
    slong *order; /* per model variable: highest derivative order, or -1 */
} order_ctx;

static void
order_cb(slong var, slong order, void *data)
{
    order_ctx *oc = data;
    if (order > oc->order[var])
        oc->order[var] = order;
}

static int
unsupported(hdo_error_t *err, const hdo_model_t model, slong m, slong eq,
            const char *why)
{
    const hdo_mode *mode = model->modes + m;
    hdo_error_set(err, HDO_ERR_UNSUPPORTED, mode->eqs[eq].pos.line,
                  mode->eqs[eq].pos.col,
                  "the Kunkel-Mehrmann fallback does not cover mode %s: %s",
                  mode->name, why);
    if (err != NULL) {
        err->mode = mode->name;
        err->file = model->file;
    }
    return HDO_ERR_UNSUPPORTED;
}

int
hdo_reduce_mode_km(hdo_reduced_t r, hdo_model_t model, slong m,
                   hdo_error_t *err)
{
    hdo_expr_pool_struct *pool = model->pool;
    const hdo_mode *mode = model->modes + m;
    slong n = mode->nvars, l = mode->nvars, i, j, k, st = 0;
    slong *ord = xcalloc(model->nvars, sizeof(slong));
    hdo_expr *eqs = xcalloc(l, sizeof(hdo_expr));
    hdo_expr *from = xcalloc(n, sizeof(hdo_expr));
    hdo_expr *zero = xcalloc(n, sizeof(hdo_expr));
    slong *pivot_of_col = xcalloc(l, sizeof(slong));
    fmpq_mat_t Et, R;
    fmpq_t q;
    char why[600];

    fmpq_init(q);
    fmpq_mat_init(Et, n, l);
    fmpq_mat_init(R, n, l);
    for (j = 0; j < n; j++) {
        from[j] = hdo_expr_var(pool, mode->vars[j], 1);
        zero[j] = hdo_expr_const_si(pool, 0, 1);
    }
    /* E^T: column i holds dF_i/dx' (rational constants only). */
    for (i = 0; i < l && st == 0; i++) {
        order_ctx oc = {ord};
        hdo_expr e = mode->eqs[i].residual;
        eqs[i] = e;
        for (k = 0; k < model->nvars; k++)
            ord[k] = -1;
        hdo_expr_foreach_var(pool, e, order_cb, &oc);
        for (j = 0; j < n && st == 0; j++) {
            slong v = mode->vars[j];
            if (ord[v] > 1) {
                snprintf(why, sizeof why,
                         "equation '%s' has derivative %ld of %s (only "
                         "first derivatives are covered)",
                         mode->eqs[i].text ? mode->eqs[i].text : "?",
                         (long)ord[v], model->var_names[v]);
                st = unsupported(err, model, m, i, why);
            } else if (ord[v] == 1) {
                hdo_expr c = hdo_expr_diff(pool, e, v, 1);
                if (hdo_expr_get_fmpq(q, pool, c) != 0) {
                    char *s = hdo_expr_to_string(pool, c, model->var_names);
                    snprintf(why, sizeof why,
                             "the coefficient %.200s of der(%s) in '%.200s' is "
                             "not a rational constant",
                             s, model->var_names[v],
                             mode->eqs[i].text ? mode->eqs[i].text : "?");
                    free(s);
                    st = unsupported(err, model, m, i, why);
                } else {
                    fmpq_set(fmpq_mat_entry(Et, j, i), q);
                }
            }
        }
    }
    if (st != 0)
        goto cleanup;

    /* Left null space of E from the reduced row echelon form of E^T:
       one vector z per free column f, z_f = 1, z_{p} = -R[row of p][f]
       at the pivot columns p, 0 at the other free columns.  Equation f
       is replaced by z^T F with its (exactly cancelling) derivatives set
       to 0. */
    slong rank = fmpq_mat_rref(R, Et), changed = 0;
    for (i = 0; i < l; i++)
        pivot_of_col[i] = -1;
    for (slong row = 0, col = 0; row < rank; row++) {
        while (fmpq_is_zero(fmpq_mat_entry(R, row, col)))
            col++;
        pivot_of_col[col] = row;
    }
    for (slong f = 0; f < l; f++) {
        if (pivot_of_col[f] >= 0)
            continue;
        hdo_expr comb = mode->eqs[f].residual;
        for (slong p = 0; p < l; p++) {
            if (pivot_of_col[p] < 0)
                continue;
            fmpq_neg(q, fmpq_mat_entry(R, pivot_of_col[p], f));
            if (fmpq_is_zero(q))
                continue;
            comb = hdo_expr_add(pool, comb,
                                hdo_expr_mul(pool, hdo_expr_const_fmpq(pool, q),
                                             mode->eqs[p].residual));
            changed = 1;
        }
        eqs[f] = hdo_expr_substitute_many(pool, comb, from, zero, n);
        for (k = 0; k < model->nvars; k++)
            ord[k] = -1;
        order_ctx oc = {ord};
        hdo_expr_foreach_var(pool, eqs[f], order_cb, &oc);
        for (j = 0; j < n; j++)
            HDO_ASSERT(ord[mode->vars[j]] <= 0);
    }
    if (!changed) {
        st = unsupported(err, model, m, 0,
                         "the left null space of the Jacobian by the "
                         "derivatives holds only the mode's algebraic "
                         "equations (the singularity is not there)");
        goto cleanup;
    }
    st = hdo_reduce_equations(r, model, m, eqs, err);
    if (st == 0)
        r->km_fallback = 1;

cleanup:
    fmpq_mat_clear(Et);
    fmpq_mat_clear(R);
    fmpq_clear(q);
    free(ord);
    free(eqs);
    free(from);
    free(zero);
    free(pivot_of_col);
    return (int)st;
}
