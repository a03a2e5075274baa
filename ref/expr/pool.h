/* pool.h -- internal interface of the expression pool (not public) */
#ifndef HDO_EXPR_POOL_H
#define HDO_EXPR_POOL_H

#include "expr.h"
#include "status.h"

hdo_expr hdo_expr_intern(hdo_expr_pool_struct *pool, hdo_expr_kind kind,
                         int32_t a, int32_t b);
ulong hdo_expr_hash_fmpq(const fmpq_t q);
/* Frees the programs' shared series of a pool (share.c; NULL: none). */
void hdo_series_share_free(void *series);

static inline const fmpq *
hdo_expr_const_ref(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    return pool->consts + pool->nodes[e].a;
}

/* 1 when e is a rational constant (equal to v). */
static inline int
is_rat(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    return pool->nodes[e].kind == HDO_X_CONST;
}

static inline int
is_rat_si(const hdo_expr_pool_struct *pool, hdo_expr e, slong v)
{
    return is_rat(pool, e) &&
           fmpq_equal_si((fmpq *)hdo_expr_const_ref(pool, e), v);
}

/* The constant 1 (v nonzero) or 0: the value of a decided condition. */
static inline hdo_expr
boolean(hdo_expr_pool_t pool, int v)
{
    return hdo_expr_const_si(pool, v ? 1 : 0, 1);
}

#endif
