/* memo.c -- the pool's cache of derivatives: (operation, node, a, b) -> node */
#include <stdlib.h>
#include <string.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"

typedef struct {
    int32_t op, node, a, b, result;
} memo_entry;

typedef struct {
    memo_entry *slot;
    slong size, count;
} memo_table;

static void
memo_free(void *m)
{
    memo_table *t = m;
    flint_free(t->slot);
    flint_free(t);
}

static ulong
memo_hash(int32_t op, int32_t node, int32_t a, int32_t b)
{
    ulong h = (ulong)(uint32_t)op * UWORD(0x9e3779b97f4a7c15);
    h ^= (ulong)(uint32_t)node + (h << 6) + (h >> 2);
    h ^= (ulong)(uint32_t)a * UWORD(0xc2b2ae3d27d4eb4f) + (h << 6) + (h >> 2);
    h ^= (ulong)(uint32_t)b + UWORD(0x165667b19e3779f9) + (h << 6) + (h >> 2);
    return h ^ (h >> 29);
}

static memo_table *
table(hdo_expr_pool_struct *pool)
{
    if (pool->memo == NULL) {
        memo_table *t = flint_malloc(sizeof *t);
        t->size = 1024;
        t->count = 0;
        t->slot = flint_malloc(t->size * sizeof *t->slot);
        for (slong i = 0; i < t->size; i++)
            t->slot[i].op = -1;
        pool->memo = t;
        pool->memo_free = memo_free;
    }
    return pool->memo;
}

static memo_entry *
find(memo_table *t, int32_t op, int32_t node, int32_t a, int32_t b)
{
    ulong h = memo_hash(op, node, a, b) & (t->size - 1);
    while (t->slot[h].op >= 0) {
        memo_entry *s = t->slot + h;
        if (s->op == op && s->node == node && s->a == a && s->b == b)
            return s;
        h = (h + 1) & (t->size - 1);
    }
    return t->slot + h;
}

void *
hdo_memo_copy(const void *memo)
{
    const memo_table *t = memo;
    memo_table *u = flint_malloc(sizeof *u);
    u->size = t->size;
    u->count = t->count;
    u->slot = flint_malloc(t->size * sizeof *t->slot);
    memcpy(u->slot, t->slot, t->size * sizeof *t->slot);
    return u;
}

hdo_expr
hdo_memo_get(hdo_expr_pool_struct *pool, int32_t op, hdo_expr node, int32_t a,
             int32_t b)
{
    memo_entry *s = find(table(pool), op, node, a, b);
    return s->op >= 0 ? s->result : HDO_EXPR_NONE;
}

void
hdo_memo_put(hdo_expr_pool_struct *pool, int32_t op, hdo_expr node, int32_t a,
             int32_t b, hdo_expr result)
{
    memo_table *t = table(pool);
    if (2 * (t->count + 1) > t->size) {
        memo_table big;
        big.size = 2 * t->size;
        big.count = t->count;
        big.slot = flint_malloc(big.size * sizeof *big.slot);
        for (slong i = 0; i < big.size; i++)
            big.slot[i].op = -1;
        for (slong i = 0; i < t->size; i++) {
            memo_entry *s = t->slot + i;
            if (s->op >= 0)
                *find(&big, s->op, s->node, s->a, s->b) = *s;
        }
        flint_free(t->slot);
        t->slot = big.slot;
        t->size = big.size;
    }
    memo_entry *s = find(t, op, node, a, b);
    if (s->op < 0)
        t->count++;
    s->op = op;
    s->node = node;
    s->a = a;
    s->b = b;
    s->result = result;
}
