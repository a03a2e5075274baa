/* arith.c -- the arithmetic constructors (neg, add, sub, mul, div, pow)
 * with exact folding of rational constants */
#include "expr.h"
#include "pool.h"

static hdo_expr
fold(hdo_expr_pool_t pool, hdo_expr_kind kind, hdo_expr a, hdo_expr b)
{
    fmpq_t r;
    fmpq_init(r);
    const fmpq *x = hdo_expr_const_ref(pool, a);
    const fmpq *y = hdo_expr_const_ref(pool, b);
    switch (kind) {
    case HDO_X_ADD:
        fmpq_add(r, x, y);
        break;
    case HDO_X_SUB:
        fmpq_sub(r, x, y);
        break;
    case HDO_X_MUL:
        fmpq_mul(r, x, y);
        break;
    case HDO_X_DIV:
        fmpq_div(r, x, y);
        break;
    default:
        HDO_ASSERT(0);
    }
    hdo_expr e = hdo_expr_const_fmpq(pool, r);
    fmpq_clear(r);
    return e;
}

hdo_expr
hdo_expr_neg(hdo_expr_pool_t pool, hdo_expr a)
{
    const hdo_expr_node *n = pool->nodes + a;
    if (n->kind == HDO_X_CONST) {
        fmpq_t r;
        fmpq_init(r);
        fmpq_neg(r, hdo_expr_const_ref(pool, a));
        hdo_expr e = hdo_expr_const_fmpq(pool, r);
        fmpq_clear(r);
        return e;
    }
    if (n->kind == HDO_X_NEG)
        return n->a;
    if (n->kind == HDO_X_SUB)
        return hdo_expr_intern(pool, HDO_X_SUB, n->b, n->a);
    return hdo_expr_intern(pool, HDO_X_NEG, a, 0);
}

hdo_expr
hdo_expr_add(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    if (is_rat(pool, a) && is_rat(pool, b))
        return fold(pool, HDO_X_ADD, a, b);
    if (is_rat_si(pool, a, 0))
        return b;
    if (is_rat_si(pool, b, 0))
        return a;
    if (pool->nodes[b].kind == HDO_X_NEG)
        return hdo_expr_sub(pool, a, pool->nodes[b].a);
    if (pool->nodes[a].kind == HDO_X_NEG)
        return hdo_expr_sub(pool, b, pool->nodes[a].a);
    /* Canonical order, so that a+b and b+a are one node: a rational
       constant goes last (x + 1 reads better), otherwise by index. */
    if (is_rat(pool, a) || (!is_rat(pool, b) && a > b)) {
        hdo_expr t = a;
        a = b;
        b = t;
    }
    return hdo_expr_intern(pool, HDO_X_ADD, a, b);
}

hdo_expr
hdo_expr_sub(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    if (is_rat(pool, a) && is_rat(pool, b))
        return fold(pool, HDO_X_SUB, a, b);
    if (a == b)
        return hdo_expr_const_si(pool, 0, 1);
    if (is_rat_si(pool, b, 0))
        return a;
    if (is_rat_si(pool, a, 0))
        return hdo_expr_neg(pool, b);
    if (pool->nodes[b].kind == HDO_X_NEG)
        return hdo_expr_add(pool, a, pool->nodes[b].a);
    return hdo_expr_intern(pool, HDO_X_SUB, a, b);
}

hdo_expr
hdo_expr_mul(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    if (is_rat(pool, a) && is_rat(pool, b))
        return fold(pool, HDO_X_MUL, a, b);
    /* A rational constant goes first (2*x), otherwise order by index. */
    if (is_rat(pool, b) || (!is_rat(pool, a) && a > b)) {
        hdo_expr t = a;
        a = b;
        b = t;
    }
    if (is_rat(pool, a)) {
        if (is_rat_si(pool, a, 0))
            return a;
        if (is_rat_si(pool, a, 1))
            return b;
        if (is_rat_si(pool, a, -1))
            return hdo_expr_neg(pool, b);
        const hdo_expr_node *nb = pool->nodes + b;
        /* c * (d * x) = (c d) * x */
        if (nb->kind == HDO_X_MUL && is_rat(pool, nb->a)) {
            /* fold() may move pool->nodes: copy the children first */
            hdo_expr c = nb->a, x = nb->b;
            return hdo_expr_mul(pool, fold(pool, HDO_X_MUL, a, c), x);
        }
    }
    if (pool->nodes[a].kind == HDO_X_NEG)
        return hdo_expr_neg(pool, hdo_expr_mul(pool, pool->nodes[a].a, b));
    if (pool->nodes[b].kind == HDO_X_NEG)
        return hdo_expr_neg(pool, hdo_expr_mul(pool, a, pool->nodes[b].a));
    return hdo_expr_intern(pool, HDO_X_MUL, a, b);
}

hdo_expr
hdo_expr_div(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    /* A division by an exact zero is kept as a node, so that it is
       reported (hdo_expr_const_check), never folded away. */
    if (is_rat(pool, b) && !is_rat_si(pool, b, 0)) {
        if (is_rat(pool, a))
            return fold(pool, HDO_X_DIV, a, b);
        fmpq_t r;
        fmpq_init(r);
        fmpq_inv(r, hdo_expr_const_ref(pool, b));
        hdo_expr c = hdo_expr_const_fmpq(pool, r);
        fmpq_clear(r);
        return hdo_expr_mul(pool, c, a);
    }
    if (pool->nodes[a].kind == HDO_X_NEG)
        return hdo_expr_neg(pool, hdo_expr_div(pool, pool->nodes[a].a, b));
    return hdo_expr_intern(pool, HDO_X_DIV, a, b);
}

/* Exact integer power of a rational, when small enough to be worth it. */
static int
fold_pow(hdo_expr *out, hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    const fmpq *x = hdo_expr_const_ref(pool, a);
    const fmpq *y = hdo_expr_const_ref(pool, b);
    if (!fmpz_is_one(fmpq_denref(y)) || !fmpz_fits_si(fmpq_numref(y)))
        return 0;
    slong n = fmpz_get_si(fmpq_numref(y));
    if (fmpq_is_zero(x) && n < 0)
        return 0; /* 0^negative stays, to be reported */
    if (n > 4096 || n < -4096)
        return 0; /* keep absurd powers symbolic */
    fmpq_t r;
    fmpq_init(r);
    fmpq_pow_si(r, x, n);
    *out = hdo_expr_const_fmpq(pool, r);
    fmpq_clear(r);
    return 1;
}

hdo_expr
hdo_expr_pow(hdo_expr_pool_t pool, hdo_expr a, hdo_expr b)
{
    hdo_expr r;
    if (is_rat(pool, a) && is_rat(pool, b) && fold_pow(&r, pool, a, b))
        return r;
    if (is_rat_si(pool, b, 1))
        return a;
    if (is_rat_si(pool, b, 0))
        return hdo_expr_const_si(pool, 1, 1);
    if (is_rat_si(pool, a, 1))
        return a;
    return hdo_expr_intern(pool, HDO_X_POW, a, b);
}
