/* substitute.c -- rewriting a graph: variables (and time) replaced by
 * expressions, relations by their signs (the smooth expression of one
 * sign pattern), and the relations an expression holds */
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

void
hdo_expr_relations(hdo_expr **d, slong *n, slong *alloc,
                   const hdo_expr_pool_t pool, hdo_expr e)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    /* ascending node order is children first: a relation nested in the
       switching function of another comes before it */
    for (slong i = 0; i < len; i++) {
        const hdo_expr_node *nd = pool->nodes + nodes[i];
        if (nd->kind != HDO_X_GE && nd->kind != HDO_X_GT)
            continue;
        slong j;
        for (j = 0; j < *n && (*d)[j] != nd->a; j++)
            ;
        if (j < *n)
            continue;
        if (*n == *alloc) {
            *alloc = *alloc ? 2 * *alloc : 8;
            *d = flint_realloc(*d, *alloc * sizeof **d);
        }
        (*d)[(*n)++] = nd->a;
    }
    flint_free(nodes);
}

int
hdo_expr_has_relation(const hdo_expr_pool_t pool, hdo_expr e)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    int has = 0;
    for (slong i = 0; i < len && !has; i++)
        has = pool->nodes[nodes[i]].kind == HDO_X_GE ||
              pool->nodes[nodes[i]].kind == HDO_X_GT;
    flint_free(nodes);
    return has;
}

void
hdo_expr_relation_kinds(int *kinds, const hdo_expr_pool_t pool, hdo_expr e,
                        const hdo_expr *d, slong n)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    for (slong i = 0; i < len; i++) {
        const hdo_expr_node *nd = pool->nodes + nodes[i];
        if (nd->kind != HDO_X_GE && nd->kind != HDO_X_GT)
            continue;
        for (slong j = 0; j < n; j++)
            if (d[j] == nd->a)
                kinds[j] |= nd->kind == HDO_X_GE ? 1 : 2;
    }
    flint_free(nodes);
}

hdo_expr
hdo_expr_select(hdo_expr_pool_t pool, hdo_expr e, const hdo_expr *d,
                const int *bits, slong n)
{
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    hdo_expr *image = flint_malloc(len * sizeof *image);
    for (slong i = 0; i < len; i++) {
        hdo_expr x = nodes[i];
        const hdo_expr_node node = pool->nodes[x];
        image[i] = x;
        hdo_expr a, b;
        int arity = hdo_expr_operand_images(&a, &b, nodes, i, &node, image);
        if (arity == 0)
            continue;
        int binary = arity == 2;
        if (node.kind == HDO_X_GE || node.kind == HDO_X_GT) {
            slong j;
            for (j = 0; j < n && d[j] != node.a; j++)
                ;
            if (j < n) {
                /* on the zero side D >= 0 holds and D > 0 does not */
                image[i] = boolean(pool, bits[j] == HDO_REL_ZERO
                                             ? node.kind == HDO_X_GE
                                             : bits[j] != 0);
                continue;
            }
        }
        if (a != node.a || (binary && b != node.b))
            image[i] = binary ? hdo_expr_binary(pool, node.kind, a, b)
                              : hdo_expr_unary(pool, node.kind, a);
    }
    hdo_expr r = image[len - 1];
    flint_free(image);
    flint_free(nodes);
    return r;
}
