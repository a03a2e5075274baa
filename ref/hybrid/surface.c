/* surface.c -- switching surfaces at an event, from the left limit: two
 * switching functions as one surface seen from its two sides, and the
 * numeric test of Filippov's entry into sliding */
#include <stdlib.h>
#include "driver.h"

typedef struct {
    slong var[64];
    slong n;
} surf_vars;

static void
surf_collect(slong var, slong order, void *data)
{
    surf_vars *l = data;
    for (slong i = 0; i < l->n; i++)
        if (l->var[i] == var)
            return;
    if (order == 0 && l->n < 64)
        l->var[l->n++] = var;
}

int
hdo_run_gradients_opposite(mpfr_srcptr ga, mpfr_srcptr gb, slong n,
                           const mpfr_t tol, mpfr_prec_t prec)
{
    mpfr_t dot, na, nb, x, y, thr;
    int ok;
    mpfr_inits2(prec, dot, na, nb, x, y, thr, (mpfr_ptr)0);
    mpfr_sqrt(thr, tol, MPFR_RNDN);
    mpfr_set_ui(dot, 0, MPFR_RNDN);
    mpfr_set_ui(na, 0, MPFR_RNDN);
    mpfr_set_ui(nb, 0, MPFR_RNDN);
    for (slong i = 0; i < n; i++) {
        mpfr_fma(dot, ga + i, gb + i, dot, MPFR_RNDN);
        mpfr_fma(na, ga + i, ga + i, na, MPFR_RNDN);
        mpfr_fma(nb, gb + i, gb + i, nb, MPFR_RNDN);
    }
    /* opposite: dot < 0; parallel: dot^2 >= |ga|^2 |gb|^2 (1 - thr) */
    ok = mpfr_sgn(dot) < 0;
    if (ok) {
        mpfr_sqr(x, dot, MPFR_RNDN);
        mpfr_mul(y, na, nb, MPFR_RNDN);
        mpfr_ui_sub(thr, 1, thr, MPFR_RNDN);
        mpfr_mul(y, y, thr, MPFR_RNDN);
        ok = mpfr_cmp(x, y) >= 0;
    }
    mpfr_clears(dot, na, nb, x, y, thr, (mpfr_ptr)0);
    return ok;
}

int
hdo_run_sliding_entry_test(mpfr_srcptr v, const mpfr_t tol, mpfr_prec_t prec)
{
    mpfr_t thr;
    mpfr_init2(thr, prec);
    mpfr_sqrt(thr, tol, MPFR_RNDN);
    int yes = mpfr_cmpabs(v + 0, thr) <= 0 && mpfr_cmp(v + 1, thr) <= 0 &&
              mpfr_cmp(v + 2, thr) > 0;
    if (yes) {
        mpfr_neg(thr, thr, MPFR_RNDN);
        yes = mpfr_cmp(v + 3, thr) < 0;
    }
    mpfr_clear(thr);
    return yes;
}

/* S_b = -k S_a (k > 0) near the point to first order.  Two surfaces
   that merely meet at the point (a corner, an accumulation of switches
   between two surfaces) are not one switching surface. */
int
hdo_run_same_surface(run_ctx *c, hdo_expr Sa, hdo_expr Sb, const left_limit *L,
                     const mpfr_t t)
{
    hdo_model_struct *model = c->model;
    surf_vars l;
    l.n = 0;
    hdo_expr_foreach_var(model->pool, Sa, surf_collect, &l);
    hdo_expr_foreach_var(model->pool, Sb, surf_collect, &l);
    slong n = l.n + 1;
    hdo_expr *e = malloc(2 * n * sizeof *e);
    HDO_ASSERT(e != NULL);
    for (slong i = 0; i < l.n; i++) {
        e[i] = hdo_expr_diff(model->pool, Sa, l.var[i], 0);
        e[n + i] = hdo_expr_diff(model->pool, Sb, l.var[i], 0);
    }
    e[l.n] = hdo_expr_diff_time(model->pool, Sa);
    e[n + l.n] = hdo_expr_diff_time(model->pool, Sb);
    mpfr_ptr g = hdo_vec_init(2 * n, c->prec);
    int ok = hdo_run_eval_on_left(c, g, e, 2 * n, L, t) == 0 &&
             hdo_run_gradients_opposite(g, g + n, n, c->tol, c->prec);
    hdo_vec_clear(g, 2 * n);
    free(e);
    return ok;
}

int
hdo_run_clock_pair(hdo_model_struct *model, hdo_expr Sa, hdo_expr Sb)
{
    hdo_expr_pool_struct *pool = model->pool;
    if (hdo_expr_neg(pool, Sb) != Sa || !hdo_expr_has_time(pool, Sa))
        return 0;
    for (slong v = 0; v < model->nvars; v++)
        if (hdo_expr_max_order(pool, Sa, v) >= 0)
            return 0;
    return 1;
}
