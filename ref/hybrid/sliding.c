/* sliding.c -- the Filippov sliding mode of two explicit modes on a common
 * switching surface (Kunkel-Mehrmann 2017, section 5.2, (35)) */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

void
hdo_mode_name(char *buf, size_t size, const hdo_model_struct *model, slong m)
{
    slong n = model->nmodes;
    if (m >= 0 && m < n)
        snprintf(buf, size, "%s", model->modes[m].name);
    else if (m >= n && m < n + n * n)
        snprintf(buf, size, "sliding(%s,%s)", model->modes[(m - n) / n].name,
                 model->modes[(m - n) % n].name);
    else
        snprintf(buf, size, "?");
}

typedef struct {
    slong var[64];
    slong n;
    int bad; /* a derivative, or too many variables */
} var_list;

static void
collect(slong var, slong order, void *data)
{
    var_list *l = data;
    if (order != 0 || l->n == 64) {
        l->bad = 1;
        return;
    }
    l->var[l->n++] = var;
}

static slong
explicit_index(const hdo_reduced_struct *r, slong var)
{
    for (slong i = 0; i < r->nexplicit; i++)
        if (r->explicit_var[i] == var)
            return i;
    return -1;
}

hdo_expr
hdo_sliding_lie(hdo_model_struct *model, const hdo_reduced_struct *r,
                hdo_expr S)
{
    var_list l;
    l.n = 0;
    l.bad = 0;
    hdo_expr_foreach_var(model->pool, S, collect, &l);
    if (l.bad)
        return HDO_EXPR_NONE;
    hdo_expr e = hdo_expr_diff_time(model->pool, S);
    for (slong k = 0; k < l.n; k++) {
        slong i = explicit_index(r, l.var[k]);
        if (i < 0)
            return HDO_EXPR_NONE;
        e = hdo_expr_add(model->pool, e,
                         hdo_expr_mul(model->pool,
                                      hdo_expr_diff(model->pool, S, l.var[k], 0),
                                      r->rhs[i]));
    }
    return e;
}

int
hdo_sliding_build(hdo_reduced_struct *out, hdo_expr *alpha,
                  hdo_model_struct *model, const hdo_reduced_struct *ra,
                  const hdo_reduced_struct *rb, hdo_expr S, char *why,
                  size_t nwhy)
{
    hdo_expr_pool_struct *pool = model->pool;
    const char *na = model->modes[ra->mode].name,
               *nb = model->modes[rb->mode].name;
    if (ra->nimplicit > 0 || rb->nimplicit > 0) {
        snprintf(why, nwhy,
                 "the Filippov sliding mode of modes '%s' and '%s' is built "
                 "only for modes in explicit form der(x) = f (mode '%s' has "
                 "algebraic or implicit variables); not covered yet",
                 na, nb, ra->nimplicit > 0 ? na : nb);
        return HDO_ERR_UNSUPPORTED;
    }
    hdo_expr la = hdo_sliding_lie(model, ra, S),
             lb = hdo_sliding_lie(model, rb, S);
    if (la == HDO_EXPR_NONE || lb == HDO_EXPR_NONE) {
        snprintf(why, nwhy,
                 "the switching surface between modes '%s' and '%s' depends "
                 "on a variable that is not a state of both modes; sliding "
                 "on it is not covered",
                 na, nb);
        return HDO_ERR_UNSUPPORTED;
    }
    /* alpha = lb / (lb - la) */
    *alpha = hdo_expr_div(pool, lb, hdo_expr_sub(pool, lb, la));
    hdo_expr beta = hdo_expr_sub(pool, hdo_expr_const_si(pool, 1, 1), *alpha);

    hdo_reduced_init(out);
    out->mode = ra->mode;
    slong cap = ra->nexplicit + rb->nexplicit;
    out->explicit_var = calloc(cap ? cap : 1, sizeof(slong));
    out->rhs = calloc(cap ? cap : 1, sizeof(hdo_expr));
    out->explicit_eq = calloc(cap ? cap : 1, sizeof(slong));
    out->state = calloc(cap ? cap : 1, sizeof(hdo_varord));
    HDO_ASSERT(out->explicit_var != NULL && out->rhs != NULL &&
               out->explicit_eq != NULL && out->state != NULL);
    slong n = 0;
    for (slong i = 0; i < ra->nexplicit; i++) {
        slong v = ra->explicit_var[i], j = explicit_index(rb, v);
        out->explicit_var[n] = v;
        out->explicit_eq[n] = ra->explicit_eq[i];
        out->rhs[n] =
            j < 0 ? ra->rhs[i]
                  : hdo_expr_add(pool, hdo_expr_mul(pool, *alpha, ra->rhs[i]),
                                 hdo_expr_mul(pool, beta, rb->rhs[j]));
        n++;
    }
    for (slong j = 0; j < rb->nexplicit; j++) {
        slong v = rb->explicit_var[j];
        if (explicit_index(ra, v) >= 0)
            continue;
        out->explicit_var[n] = v;
        out->explicit_eq[n] = rb->explicit_eq[j];
        out->rhs[n] = rb->rhs[j];
        n++;
    }
    out->nexplicit = n;
    out->nstate = n;
    out->n = n;
    for (slong i = 0; i < n; i++) {
        out->state[i].var = out->explicit_var[i];
        out->state[i].order = 0;
    }
    out->dof = n;
    out->index = 1;
    return 0;
}
