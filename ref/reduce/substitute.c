/* hdo_reduce_substitute -- replace variable nodes of an expression, rebuilding it bottom-up */
#include <stdlib.h>
#include "reduce.h"

/* Rebuilds node kind with new children a, b through the simplifying
   constructors, so that substituted constants fold. */
static hdo_expr
rebuild(hdo_expr_pool_t pool, hdo_expr_kind kind, hdo_expr a, hdo_expr b)
{
    switch (kind) {
    case HDO_X_ADD: return hdo_expr_add(pool, a, b);
    case HDO_X_SUB: return hdo_expr_sub(pool, a, b);
    case HDO_X_MUL: return hdo_expr_mul(pool, a, b);
    case HDO_X_DIV: return hdo_expr_div(pool, a, b);
    case HDO_X_POW: return hdo_expr_pow(pool, a, b);
    case HDO_X_NEG: return hdo_expr_neg(pool, a);
    default: return hdo_expr_unary(pool, kind, a);
    }
}

static int
is_binary(hdo_expr_kind kind)
{
    return kind == HDO_X_ADD || kind == HDO_X_SUB || kind == HDO_X_MUL
           || kind == HDO_X_DIV || kind == HDO_X_POW;
}

static int
is_leaf(hdo_expr_kind kind)
{
    return kind == HDO_X_CONST || kind == HDO_X_PI || kind == HDO_X_TIME
           || kind == HDO_X_VAR;
}

hdo_expr
hdo_reduce_substitute(hdo_expr_pool_t pool, hdo_expr e,
                      hdo_expr (*map)(slong var, slong order, void *data),
                      void *data)
{
    hdo_expr *memo;
    char *reach;
    hdo_expr i, res;

    if (e == HDO_EXPR_NONE)
        return e;
    /* Children precede their parents in the pool, so one descending pass
       marks what e reaches and one ascending pass rebuilds it, without
       recursion.  The map may itself grow the pool (it may substitute
       recursively): only indices are kept across calls, never pointers
       into pool->nodes. */
    memo = malloc((e + 1) * sizeof(hdo_expr));
    reach = calloc(e + 1, 1);
    HDO_ASSERT(memo != NULL && reach != NULL);
    reach[e] = 1;
    for (i = e; i >= 0; i--) {
        hdo_expr_node nd;
        if (!reach[i])
            continue;
        nd = pool->nodes[i];
        if (is_leaf(nd.kind))
            continue;
        reach[nd.a] = 1;
        if (is_binary(nd.kind))
            reach[nd.b] = 1;
    }
    for (i = 0; i <= e; i++) {
        hdo_expr_node nd;
        if (!reach[i])
            continue;
        nd = pool->nodes[i];
        if (nd.kind == HDO_X_VAR) {
            hdo_expr r = map(nd.a, nd.b, data);
            memo[i] = r == HDO_EXPR_NONE ? i : r;
        } else if (is_leaf(nd.kind)) {
            memo[i] = i;
        } else if (is_binary(nd.kind)) {
            hdo_expr a = memo[nd.a], b = memo[nd.b];
            memo[i] = (a == nd.a && b == nd.b) ? i
                                               : rebuild(pool, nd.kind, a, b);
        } else {
            hdo_expr a = memo[nd.a];
            memo[i] = a == nd.a ? i : rebuild(pool, nd.kind, a, HDO_EXPR_NONE);
        }
    }
    res = memo[e];
    free(memo);
    free(reach);
    return res;
}
