/* piecewise.c -- relations, conditions and `if` expressions: constructors
 * with exact folding, the relations of an expression, and the smooth
 * expression of one sign pattern */
#include <stdlib.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"

static int
is_rat(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    return pool->nodes[e].kind == HDO_X_CONST;
}

/* The truth value of a condition that folded to a constant (1 or 0),
   or -1 when e is not a constant. */
static int
truth(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    if (!is_rat(pool, e))
        return -1;
    return !fmpq_is_zero(hdo_expr_const_ref(pool, e));
}

static hdo_expr
boolean(hdo_expr_pool_t pool, int v)
{
    return hdo_expr_const_si(pool, v ? 1 : 0, 1);
}

hdo_expr
hdo_expr_rel(hdo_expr_pool_t pool, int strict, hdo_expr d)
{
    if (is_rat(pool, d)) {
        int s = fmpq_sgn(hdo_expr_const_ref(pool, d));
        return boolean(pool, s > 0 || (s == 0 && !strict));
    }
    /* One D for a relation and its mirror image: of D and -D the one
       first in the pool.  D >= 0 is not(-D > 0), D > 0 is not(-D >= 0). */
    hdo_expr nd = hdo_expr_neg(pool, d);
    if (nd < d)
        return hdo_expr_not(pool, hdo_expr_rel(pool, !strict, nd));
    return hdo_expr_intern(pool, strict ? HDO_X_GT : HDO_X_GE, d, 0);
}

hdo_expr
hdo_expr_not(hdo_expr_pool_t pool, hdo_expr c)
{
    int v = truth(pool, c);
    if (v >= 0)
        return boolean(pool, !v);
    if (pool->nodes[c].kind == HDO_X_NOT)
        return pool->nodes[c].a;
    return hdo_expr_intern(pool, HDO_X_NOT, c, 0);
}

hdo_expr
hdo_expr_and(hdo_expr_pool_t pool, hdo_expr c1, hdo_expr c2)
{
    int v1 = truth(pool, c1), v2 = truth(pool, c2);
    if (v1 == 0 || v2 == 0)
        return boolean(pool, 0);
    if (v1 == 1)
        return c2;
    if (v2 == 1 || c1 == c2)
        return c1;
    return hdo_expr_intern(pool, HDO_X_AND, c1, c2);
}

hdo_expr
hdo_expr_or(hdo_expr_pool_t pool, hdo_expr c1, hdo_expr c2)
{
    int v1 = truth(pool, c1), v2 = truth(pool, c2);
    if (v1 == 1 || v2 == 1)
        return boolean(pool, 1);
    if (v1 == 0)
        return c2;
    if (v2 == 0 || c1 == c2)
        return c1;
    return hdo_expr_intern(pool, HDO_X_OR, c1, c2);
}

hdo_expr
hdo_expr_if(hdo_expr_pool_t pool, hdo_expr c, hdo_expr a, hdo_expr b)
{
    int v = truth(pool, c);
    if (v >= 0)
        return v ? a : b;
    if (a == b)
        return a;
    /* not c: the branches swapped, so that a condition and its negation
       give one node */
    if (pool->nodes[c].kind == HDO_X_NOT)
        return hdo_expr_if(pool, pool->nodes[c].a, b, a);
    return hdo_expr_intern(pool, HDO_X_IF, c,
                           hdo_expr_intern(pool, HDO_X_ELSE, a, b));
}

hdo_expr
hdo_expr_abs(hdo_expr_pool_t pool, hdo_expr x)
{
    return hdo_expr_if(pool, hdo_expr_rel(pool, 0, x), x,
                       hdo_expr_neg(pool, x));
}

hdo_expr
hdo_expr_sign(hdo_expr_pool_t pool, hdo_expr x)
{
    hdo_expr neg = hdo_expr_if(
        pool, hdo_expr_rel(pool, 1, hdo_expr_neg(pool, x)),
        hdo_expr_const_si(pool, -1, 1), hdo_expr_const_si(pool, 0, 1));
    return hdo_expr_if(pool, hdo_expr_rel(pool, 1, x),
                       hdo_expr_const_si(pool, 1, 1), neg);
}

hdo_expr
hdo_expr_min(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    return hdo_expr_if(pool, hdo_expr_rel(pool, 0, hdo_expr_sub(pool, b, a)), a,
                       b);
}

hdo_expr
hdo_expr_max(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    return hdo_expr_if(pool, hdo_expr_rel(pool, 0, hdo_expr_sub(pool, a, b)), a,
                       b);
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
