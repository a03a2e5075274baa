/* memo.h -- internal: the pool's derivative cache */
#ifndef HDO_EXPR_MEMO_H
#define HDO_EXPR_MEMO_H

#include "expr.h"

enum { HDO_MEMO_DIFF = 1, HDO_MEMO_DIFF_TIME = 2, HDO_MEMO_TOTAL = 3 };

hdo_expr hdo_memo_get(hdo_expr_pool_struct *pool, int32_t op, hdo_expr node,
                      int32_t a, int32_t b);
/* A copy of the cache pool->memo (not NULL), for a copy of the pool
   (hdo_expr_pool_init_copy); freed by the same memo_free. */
void *hdo_memo_copy(const void *memo);
void hdo_memo_put(hdo_expr_pool_struct *pool, int32_t op, hdo_expr node,
                  int32_t a, int32_t b, hdo_expr result);

/* Every node reachable from the roots, ascending (a topological order:
   children before parents).  Returns the count; *out is flint_malloc'd. */
slong hdo_expr_reachable(int32_t **out, const hdo_expr_pool_struct *pool,
                         const hdo_expr *roots, slong nroots);

/* The position of node id among nodes[0..len), sorted ascending (the
   order of hdo_expr_reachable, where a node's children come before it);
   asserts that it is there (a bug otherwise), so it never returns -1. */
slong hdo_expr_reachable_position(const int32_t *nodes, slong len, int32_t id);

/* The images of the operands of node, the reachable node nodes[i], where
   image[k] is the image of nodes[k] (a rebuilding walk, as substitution):
   sets *a, and *b for a binary node (HDO_EXPR_NONE otherwise; both for a
   leaf), and returns the node's arity. */
int hdo_expr_operand_images(hdo_expr *a, hdo_expr *b, const int32_t *nodes,
                            slong i, const hdo_expr_node *node,
                            const hdo_expr *image);

#endif
