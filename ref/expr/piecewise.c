/* piecewise.c -- relations, conditions and `if` expressions: the
 * constructors, with exact folding */
#include "expr.h"
#include "pool.h"

/* The truth value of a condition that folded to a constant (1 or 0),
   or -1 when e is not a constant. */
static int
truth(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    if (!is_rat(pool, e))
        return -1;
    return !fmpq_is_zero(hdo_expr_const_ref(pool, e));
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
