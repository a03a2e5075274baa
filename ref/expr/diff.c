/* diff.c -- symbolic partial derivatives and total time derivatives */
#include "expr.h"
#include "pool.h"
#include "memo.h"

/* What a derivative is taken with respect to.  op is HDO_MEMO_DIFF (the
   variable (var, order)), HDO_MEMO_DIFF_TIME (explicit t) or
   HDO_MEMO_TOTAL (d/dt along a trajectory). */
typedef struct {
    int32_t op, var, order;
} wrt;

static hdo_expr
leaf_derivative(hdo_expr_pool_t pool, const hdo_expr_node *n, wrt w)
{
    switch (n->kind) {
    case HDO_X_TIME:
        return hdo_expr_const_si(pool, w.op == HDO_MEMO_DIFF ? 0 : 1, 1);
    case HDO_X_VAR:
        if (w.op == HDO_MEMO_TOTAL)
            return hdo_expr_var(pool, n->a, n->b + 1);
        if (w.op == HDO_MEMO_DIFF && n->a == w.var && n->b == w.order)
            return hdo_expr_const_si(pool, 1, 1);
        return hdo_expr_const_si(pool, 0, 1);
    case HDO_X_CONST:
    case HDO_X_PI:
        return hdo_expr_const_si(pool, 0, 1);
    case HDO_X_ADD:
    case HDO_X_SUB:
    case HDO_X_MUL:
    case HDO_X_DIV:
    case HDO_X_POW:
    case HDO_X_NEG:
    case HDO_X_SIN:
    case HDO_X_COS:
    case HDO_X_TAN:
    case HDO_X_ASIN:
    case HDO_X_ACOS:
    case HDO_X_ATAN:
    case HDO_X_EXP:
    case HDO_X_LOG:
    case HDO_X_SQRT:
    case HDO_X_SINH:
    case HDO_X_COSH:
    case HDO_X_TANH:
    case HDO_X_GE:
    case HDO_X_GT:
    case HDO_X_NOT:
    case HDO_X_AND:
    case HDO_X_OR:
    case HDO_X_IF:
    case HDO_X_ELSE:
        break; /* not leaves: node_derivative */
    }
    HDO_ASSERT(0);
    return HDO_EXPR_NONE;
}

static hdo_expr
cst(hdo_expr_pool_t pool, slong v)
{
    return hdo_expr_const_si(pool, v, 1);
}

/* The chain rule for one node, given its children's derivatives da, db. */
static hdo_expr
node_derivative(hdo_expr_pool_t pool, hdo_expr e, hdo_expr da, hdo_expr db)
{
    const hdo_expr_node n = pool->nodes[e];
    hdo_expr a = n.a, b = n.b, zero = cst(pool, 0), t;
    if (hdo_expr_kind_arity(n.kind) == 1 && da == zero)
        return zero;
    switch (n.kind) {
    case HDO_X_GE: /* conditions are piecewise constant */
    case HDO_X_GT:
    case HDO_X_NOT:
    case HDO_X_AND:
    case HDO_X_OR:
        return zero;
    case HDO_X_ELSE: /* the derivative of an `if` is that of its branch,
                        away from the switching surfaces */
        return hdo_expr_intern(pool, HDO_X_ELSE, da, db);
    case HDO_X_IF:
        return hdo_expr_binary(pool, HDO_X_IF, a, db);
    case HDO_X_ADD:
        return hdo_expr_add(pool, da, db);
    case HDO_X_SUB:
        return hdo_expr_sub(pool, da, db);
    case HDO_X_MUL:
        return hdo_expr_add(pool, hdo_expr_mul(pool, da, b),
                            hdo_expr_mul(pool, a, db));
    case HDO_X_DIV:
        /* (a/b)' = a'/b - a b'/b^2; a zero term is left out, so that a
           structurally zero derivative is the constant 0 */
        if (db == zero)
            return hdo_expr_div(pool, da, b);
        if (da == zero)
            return hdo_expr_neg(
                pool, hdo_expr_div(pool, hdo_expr_mul(pool, a, db),
                                   hdo_expr_pow(pool, b, cst(pool, 2))));
        return hdo_expr_sub(pool, hdo_expr_div(pool, da, b),
                            hdo_expr_div(pool, hdo_expr_mul(pool, a, db),
                                         hdo_expr_pow(pool, b, cst(pool, 2))));
    case HDO_X_POW:
        if (db == zero) /* b * a^(b-1) * a' */
            return hdo_expr_mul(
                pool,
                hdo_expr_mul(
                    pool, b,
                    hdo_expr_pow(pool, a, hdo_expr_sub(pool, b, cst(pool, 1)))),
                da);
        /* a^b (b' log a + b a'/a) */
        if (da == zero)
            return hdo_expr_mul(
                pool, e,
                hdo_expr_mul(pool, db, hdo_expr_unary(pool, HDO_X_LOG, a)));
        t = hdo_expr_add(
            pool, hdo_expr_mul(pool, db, hdo_expr_unary(pool, HDO_X_LOG, a)),
            hdo_expr_div(pool, hdo_expr_mul(pool, b, da), a));
        return hdo_expr_mul(pool, e, t);
    case HDO_X_NEG:
        return hdo_expr_neg(pool, da);
    case HDO_X_SIN:
        return hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_COS, a), da);
    case HDO_X_COS:
        return hdo_expr_neg(
            pool, hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_SIN, a), da));
    case HDO_X_TAN: /* (1 + tan^2) a' */
        return hdo_expr_mul(pool,
                            hdo_expr_add(pool, cst(pool, 1),
                                         hdo_expr_pow(pool, e, cst(pool, 2))),
                            da);
    case HDO_X_ASIN:
    case HDO_X_ACOS:
        t = hdo_expr_div(
            pool, da,
            hdo_expr_unary(pool, HDO_X_SQRT,
                           hdo_expr_sub(pool, cst(pool, 1),
                                        hdo_expr_pow(pool, a, cst(pool, 2)))));
        return n.kind == HDO_X_ASIN ? t : hdo_expr_neg(pool, t);
    case HDO_X_ATAN:
        return hdo_expr_div(pool, da,
                            hdo_expr_add(pool, cst(pool, 1),
                                         hdo_expr_pow(pool, a, cst(pool, 2))));
    case HDO_X_EXP:
        return hdo_expr_mul(pool, e, da);
    case HDO_X_LOG:
        return hdo_expr_div(pool, da, a);
    case HDO_X_SQRT:
        return hdo_expr_div(pool, da, hdo_expr_mul(pool, cst(pool, 2), e));
    case HDO_X_SINH:
        return hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_COSH, a), da);
    case HDO_X_COSH:
        return hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_SINH, a), da);
    case HDO_X_TANH: /* (1 - tanh^2) a' */
        return hdo_expr_mul(pool,
                            hdo_expr_sub(pool, cst(pool, 1),
                                         hdo_expr_pow(pool, e, cst(pool, 2))),
                            da);
    case HDO_X_CONST: /* leaves: leaf_derivative */
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
        break;
    }
    HDO_ASSERT(0);
    return HDO_EXPR_NONE;
}

/* Differentiates every node reachable from e, children first (ascending
   index is a topological order), so that no recursion is needed and each
   shared sub-expression is differentiated once; results are memoized. */
static hdo_expr
derivative(hdo_expr_pool_t pool, hdo_expr e, wrt w)
{
    hdo_expr r = hdo_memo_get(pool, w.op, e, w.var, w.order);
    if (r != HDO_EXPR_NONE)
        return r;
    int32_t *nodes;
    slong len = hdo_expr_reachable(&nodes, pool, &e, 1);
    for (slong i = 0; i < len; i++) {
        hdo_expr x = nodes[i];
        if (hdo_memo_get(pool, w.op, x, w.var, w.order) != HDO_EXPR_NONE)
            continue;
        const hdo_expr_node n = pool->nodes[x];
        hdo_expr d;
        if (hdo_expr_kind_arity(n.kind) == 0) {
            d = leaf_derivative(pool, &n, w);
        } else {
            hdo_expr da = hdo_memo_get(pool, w.op, n.a, w.var, w.order);
            hdo_expr db = (hdo_expr_kind_arity(n.kind) == 2)
                              ? hdo_memo_get(pool, w.op, n.b, w.var, w.order)
                              : HDO_EXPR_NONE;
            d = node_derivative(pool, x, da, db);
        }
        hdo_memo_put(pool, w.op, x, w.var, w.order, d);
    }
    flint_free(nodes);
    return hdo_memo_get(pool, w.op, e, w.var, w.order);
}

hdo_expr
hdo_expr_diff(hdo_expr_pool_t pool, hdo_expr e, slong var, slong order)
{
    wrt w = {HDO_MEMO_DIFF, (int32_t)var, (int32_t)order};
    return derivative(pool, e, w);
}

hdo_expr
hdo_expr_diff_time(hdo_expr_pool_t pool, hdo_expr e)
{
    wrt w = {HDO_MEMO_DIFF_TIME, 0, 0};
    return derivative(pool, e, w);
}

hdo_expr
hdo_expr_total_derivative(hdo_expr_pool_t pool, hdo_expr e)
{
    wrt w = {HDO_MEMO_TOTAL, 0, 0};
    return derivative(pool, e, w);
}
