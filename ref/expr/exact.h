/* exact.h -- internal: exact decisions on constant expressions (Calcium) */
#ifndef HDO_EXPR_EXACT_H
#define HDO_EXPR_EXACT_H

#include <calcium/ca.h>
#include <calcium/ca_vec.h>
#include "expr.h"

/* The exact values (Calcium ca_t, in one context) of the nodes of one
   constant expression, built on demand: only a node whose Arb ball
   contains zero is ever asked about, so the common case costs nothing.
   nodes[0..len) are the expression's reachable nodes, ascending (as
   hdo_expr_reachable gives them); the array is borrowed, not copied. */
typedef struct {
    const hdo_expr_pool_struct *pool;
    const int32_t *nodes;
    slong len;
    int ready;         /* ctx and v initialised */
    ca_ctx_struct ctx[1];
    ca_ptr v;          /* v[i]: the value of nodes[i] ... */
    signed char *have; /* ... when have[i] = 1; -1: Calcium cannot */
} hdo_exact_struct;
typedef hdo_exact_struct hdo_exact_t[1];

void hdo_exact_init(hdo_exact_t x, const hdo_expr_pool_struct *pool,
                    const int32_t *nodes, slong len);
void hdo_exact_clear(hdo_exact_t x);

/* Whether the value of nodes[pos] is exactly zero: T_TRUE, T_FALSE or
   T_UNKNOWN (Calcium could not decide, or the expression holds a
   rational too large to hand it). */
truth_t hdo_exact_is_zero(hdo_exact_t x, slong pos);
/* Whether the value of nodes[pos] is exactly c. */
truth_t hdo_exact_equals_si(hdo_exact_t x, slong pos, slong c);
/* Whether nodes[pos] is a finite number (T_FALSE for tan(pi/2)). */
truth_t hdo_exact_is_number(hdo_exact_t x, slong pos);

/* The numerical fallback where Calcium cannot decide (constant.c): a
   ball is taken as zero when it lies within 2^-bits of zero, i.e. when
   an upper bound of |x| is <= 2^-bits (equal is zero; bits 0: never).
   The bits are 16000 for the parser's decisions (want 0) and
   max(4 want, 16000) for a value wanted to want bits
   (hdo_expr_eval_constant).  Exposed for the boundary tests. */
slong hdo_const_fallback_bits(slong want);
int hdo_const_tiny_ball(const arb_t x, slong bits);

#endif
