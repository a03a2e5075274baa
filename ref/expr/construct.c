/* construct.c -- the constructors by kind (hdo_expr_unary, hdo_expr_binary),
 * with their folding of constants */
#include "expr.h"
#include "pool.h"

/* sqrt of a rational square is folded exactly (sqrt(4) = 2); other
   function values of constants stay symbolic. */
static int
fold_sqrt(hdo_expr *out, hdo_expr_pool_t pool, hdo_expr a)
{
    const fmpq *x = hdo_expr_const_ref(pool, a);
    if (fmpq_sgn(x) < 0 || !fmpz_is_square(fmpq_numref(x)) ||
        !fmpz_is_square(fmpq_denref(x)))
        return 0;
    fmpq_t r;
    fmpq_init(r);
    fmpz_sqrt(fmpq_numref(r), fmpq_numref(x));
    fmpz_sqrt(fmpq_denref(r), fmpq_denref(x));
    *out = hdo_expr_const_fmpq(pool, r);
    fmpq_clear(r);
    return 1;
}

hdo_expr
hdo_expr_unary(hdo_expr_pool_t pool, hdo_expr_kind kind, hdo_expr a)
{
    hdo_expr r;
    if (kind == HDO_X_NEG)
        return hdo_expr_neg(pool, a);
    if (kind == HDO_X_GE || kind == HDO_X_GT)
        return hdo_expr_rel(pool, kind == HDO_X_GT, a);
    if (kind == HDO_X_NOT)
        return hdo_expr_not(pool, a);
    if (is_rat_si(pool, a, 0)) {
        switch (kind) {
        case HDO_X_SIN:
        case HDO_X_TAN:
        case HDO_X_ASIN:
        case HDO_X_ATAN:
        case HDO_X_SQRT:
        case HDO_X_SINH:
        case HDO_X_TANH:
            return a;
        case HDO_X_COS:
        case HDO_X_EXP:
        case HDO_X_COSH:
            return hdo_expr_const_si(pool, 1, 1);
        case HDO_X_ACOS: /* pi/2 and -inf: not folded */
        case HDO_X_LOG:
            break;
        case HDO_X_CONST: /* not unary functions */
        case HDO_X_PI:
        case HDO_X_TIME:
        case HDO_X_VAR:
        case HDO_X_ADD:
        case HDO_X_SUB:
        case HDO_X_MUL:
        case HDO_X_DIV:
        case HDO_X_POW:
        case HDO_X_NEG:
        case HDO_X_GE: /* piecewise: built above or by hdo_expr_binary */
        case HDO_X_GT:
        case HDO_X_NOT:
        case HDO_X_AND:
        case HDO_X_OR:
        case HDO_X_IF:
        case HDO_X_ELSE:
            HDO_ASSERT(0);
        }
    }
    if (kind == HDO_X_LOG && is_rat_si(pool, a, 1))
        return hdo_expr_const_si(pool, 0, 1);
    if (kind == HDO_X_SQRT && is_rat(pool, a) && fold_sqrt(&r, pool, a))
        return r;
    HDO_ASSERT(hdo_expr_kind_table[kind].syntax == HDO_SYNTAX_CALL &&
               hdo_expr_kind_arity(kind) == 1);
    return hdo_expr_intern(pool, kind, a, 0);
}

hdo_expr
hdo_expr_binary(hdo_expr_pool_t pool, hdo_expr_kind kind, hdo_expr a,
                hdo_expr b)
{
    switch (kind) {
    case HDO_X_ADD:
        return hdo_expr_add(pool, a, b);
    case HDO_X_SUB:
        return hdo_expr_sub(pool, a, b);
    case HDO_X_MUL:
        return hdo_expr_mul(pool, a, b);
    case HDO_X_DIV:
        return hdo_expr_div(pool, a, b);
    case HDO_X_POW:
        return hdo_expr_pow(pool, a, b);
    case HDO_X_AND:
        return hdo_expr_and(pool, a, b);
    case HDO_X_OR:
        return hdo_expr_or(pool, a, b);
    case HDO_X_IF: /* b is an ELSE node: its branches */
        return hdo_expr_if(pool, a, pool->nodes[b].a, pool->nodes[b].b);
    case HDO_X_ELSE:
        return hdo_expr_intern(pool, HDO_X_ELSE, a, b);
    case HDO_X_GE: /* unary */
    case HDO_X_GT:
    case HDO_X_NOT:
    case HDO_X_CONST: /* not binary */
    case HDO_X_PI:
    case HDO_X_TIME:
    case HDO_X_VAR:
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
        HDO_ASSERT(0);
    }
    return HDO_EXPR_NONE;
}
