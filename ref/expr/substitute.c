/* substitute.c -- replacing variable (and time) nodes by expressions */
#include <stdlib.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"

/* Rebuilds a node from (possibly new) children, with simplification. */
static hdo_expr
rebuild(hdo_expr_pool_t pool, hdo_expr_node n, hdo_expr a, hdo_expr b)
{
    if (hdo_expr_kind_arity(n.kind) == 2)
        return hdo_expr_binary(pool, n.kind, a, b);
    return hdo_expr_unary(pool, n.kind, a);
}

hdo_expr
hdo_expr_substitute_many(hdo_expr_pool_t pool, hdo_expr e, const hdo_expr *from,
                         const hdo_expr *to, slong n)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    hdo_expr *image = flint_malloc(len * sizeof *image);
    for (slong i = 0; i < len; i++) {
        hdo_expr x = nodes[i];
        const hdo_expr_node node = pool->nodes[x];
        image[i] = x;
        if (node.kind == HDO_X_VAR || node.kind == HDO_X_TIME) {
            for (slong k = 0; k < n; k++)
                if (from[k] == x)
                    image[i] = to[k];
        } else {
            hdo_expr a, b;
            int arity = hdo_expr_operand_images(&a, &b, nodes, i, &node, image);
            if (arity > 0 && (a != node.a || (arity == 2 && b != node.b)))
                image[i] = rebuild(pool, node, a, b);
        }
    }
    hdo_expr r = image[len - 1]; /* e is the largest index reachable */
    flint_free(image);
    flint_free(nodes);
    return r;
}

hdo_expr
hdo_expr_substitute(hdo_expr_pool_t pool, hdo_expr e, slong var, slong order,
                    hdo_expr repl)
{
    hdo_expr from = hdo_expr_var(pool, var, order);
    return hdo_expr_substitute_many(pool, e, &from, &repl, 1);
}
