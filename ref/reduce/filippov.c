/* filippov.c -- the Filippov sliding mode of two explicit modes on a
 * common switching surface (Kunkel-Mehrmann 2017, section 5.2, (35)): a
 * reduced form built from two reduced forms */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reduce.h"
/* the symbolic Jacobians of a reduced form: a sliding mode with an
   algebraic part reuses a's */
#include "reduce/cache.h"
#include "reduce/filippov.h"

/* 1 if the implicit parts (variables, offsets, implicit equations and
   constraints, after substitution) of ra and rb are the same expressions:
   the modes differ only in their explicit equations. */
static int
same_implicit(const hdo_reduced_struct *ra, const hdo_reduced_struct *rb)
{
    if (ra->nimplicit != rb->nimplicit || ra->ncons != rb->ncons ||
        ra->nstate - ra->nexplicit != rb->nstate - rb->nexplicit)
        return 0;
    for (slong j = 0; j < ra->nimplicit; j++)
        if (ra->implicit_var[j] != rb->implicit_var[j] ||
            ra->d[j] != rb->d[j] || ra->h[j] != rb->h[j] ||
            ra->unknown[j].var != rb->unknown[j].var ||
            ra->unknown[j].order != rb->unknown[j].order)
            return 0;
    for (slong k = 0; k < ra->ncons; k++)
        if (ra->cons[k] != rb->cons[k])
            return 0;
    return 1;
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
        e = hdo_expr_add(
            model->pool, e,
            hdo_expr_mul(model->pool,
                         hdo_expr_diff(model->pool, S, l.var[k], 0),
                         r->rhs[i]));
    }
    return e;
}

#define DUP(dst, src, n)                                                       \
    do {                                                                       \
        (dst) = malloc(((n) > 0 ? (n) : 1) * sizeof *(src));                   \
        HDO_ASSERT((dst) != NULL);                                             \
        if ((n) > 0)                                                           \
            memcpy((dst), (src), (n) * sizeof *(src));                         \
    } while (0)

int
hdo_sliding_same_implicit(const hdo_reduced_struct *ra,
                          const hdo_reduced_struct *rb)
{
    return same_implicit(ra, rb);
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
    if (!same_implicit(ra, rb)) {
        snprintf(why, nwhy,
                 "the Filippov sliding mode of modes '%s' and '%s' is built "
                 "for modes that differ only in explicit equations der(x) = "
                 "f; their algebraic (implicit) parts differ: not covered "
                 "yet",
                 na, nb);
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
            (j < 0 || rb->rhs[j] == ra->rhs[i])
                ? ra->rhs[i]
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
    out->n = n + ra->nimplicit;
    /* the implicit part: a's (the same as b's) */
    slong nis = ra->nstate - ra->nexplicit;
    free(out->state);
    out->state = calloc(n + nis > 0 ? n + nis : 1, sizeof(hdo_varord));
    HDO_ASSERT(out->state != NULL);
    for (slong i = 0; i < n; i++) {
        out->state[i].var = out->explicit_var[i];
        out->state[i].order = 0;
    }
    for (slong i = 0; i < nis; i++)
        out->state[n + i] = ra->state[ra->nexplicit + i];
    out->nstate = n + nis;
    out->nimplicit = ra->nimplicit;
    out->nh = ra->nh;
    DUP(out->implicit_var, ra->implicit_var, ra->nimplicit);
    DUP(out->d, ra->d, ra->nimplicit);
    DUP(out->h_eq, ra->h_eq, ra->nh);
    DUP(out->c, ra->c, ra->nh);
    DUP(out->h, ra->h, ra->nh);
    DUP(out->unknown, ra->unknown, ra->nimplicit);
    out->ncons = ra->ncons;
    DUP(out->cons, ra->cons, ra->ncons);
    DUP(out->cons_eq, ra->cons_eq, ra->ncons);
    DUP(out->cons_order, ra->cons_order, ra->ncons);
    if (ra->nimplicit > 0 || ra->ncons > 0) {
        /* the projection and the unknowns' Newton use a's symbolic
           Jacobians: valid when the state layout is a's */
        int same = n == ra->nexplicit && ra->cache != NULL;
        for (slong i = 0; same && i < n; i++)
            same = out->explicit_var[i] == ra->explicit_var[i];
        if (!same) {
            snprintf(why, nwhy,
                     "the Filippov sliding mode of modes '%s' and '%s': mode "
                     "'%s' has explicit variables that '%s' lacks, next to "
                     "an algebraic part; not covered yet",
                     na, nb, nb, na);
            hdo_reduced_clear(out);
            return HDO_ERR_UNSUPPORTED;
        }
        struct hdo_reduce_cache *k = calloc(1, sizeof *k);
        HDO_ASSERT(k != NULL);
        const struct hdo_reduce_cache *src = ra->cache;
        k->jc.len = src->jc.len;
        DUP(k->jc.e, src->jc.e, src->jc.len);
        DUP(k->jc.row, src->jc.row, src->jc.len);
        DUP(k->jc.col, src->jc.col, src->jc.len);
        k->jh.len = src->jh.len;
        DUP(k->jh.e, src->jh.e, src->jh.len);
        DUP(k->jh.row, src->jh.row, src->jh.len);
        DUP(k->jh.col, src->jh.col, src->jh.len);
        out->cache = k;
    }
    out->dof = out->nstate - out->ncons;
    out->index = ra->index > 1 ? ra->index : 1;
    return 0;
}
