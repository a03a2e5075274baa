/* pool.h -- internal interface of the expression pool (not public) */
#ifndef HDO_EXPR_POOL_H
#define HDO_EXPR_POOL_H

#include "expr.h"
#include "status.h"

hdo_expr hdo_expr_intern(hdo_expr_pool_struct *pool, hdo_expr_kind kind,
                         int32_t a, int32_t b);
ulong hdo_expr_hash_fmpq(const fmpq_t q);

static inline const fmpq *
hdo_expr_const_ref(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    return pool->consts + pool->nodes[e].a;
}

#endif
