/* pool.c -- the expression pool: node storage and hash-consing */
#include <stdlib.h>
#include <string.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"

void
hdo_expr_pool_init(hdo_expr_pool_t pool)
{
    memset(pool, 0, sizeof *pool);
    pool->table_size = 1024;
    pool->table = flint_malloc(pool->table_size * sizeof *pool->table);
    for (slong i = 0; i < pool->table_size; i++)
        pool->table[i] = HDO_EXPR_NONE;
}

void
hdo_expr_pool_clear(hdo_expr_pool_t pool)
{
    if (pool->memo != NULL && pool->memo_free != NULL)
        pool->memo_free(pool->memo);
    hdo_series_share_free(pool->series);
    for (slong i = 0; i < pool->nconsts; i++)
        fmpq_clear(pool->consts + i);
    flint_free(pool->consts);
    flint_free(pool->nodes);
    flint_free(pool->table);
    memset(pool, 0, sizeof *pool);
}

void
hdo_expr_pool_init_copy(hdo_expr_pool_t dst, const hdo_expr_pool_t src)
{
    memset(dst, 0, sizeof *dst);
    dst->len = dst->alloc = src->len;
    dst->nodes = flint_malloc((src->len ? src->len : 1) * sizeof *dst->nodes);
    memcpy(dst->nodes, src->nodes, src->len * sizeof *dst->nodes);
    dst->nconsts = dst->consts_alloc = src->nconsts;
    dst->consts =
        flint_malloc((src->nconsts ? src->nconsts : 1) * sizeof *dst->consts);
    for (slong i = 0; i < src->nconsts; i++) {
        fmpq_init(dst->consts + i);
        fmpq_set(dst->consts + i, src->consts + i);
    }
    dst->table_size = src->table_size;
    dst->table = flint_malloc(src->table_size * sizeof *dst->table);
    memcpy(dst->table, src->table, src->table_size * sizeof *dst->table);
    if (src->memo != NULL) {
        dst->memo = hdo_memo_copy(src->memo);
        dst->memo_free = src->memo_free;
    }
}

static ulong
mix(ulong h, ulong x)
{
    h ^= x + UWORD(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h;
}

/* Hash of a rational: its residues modulo a large prime, so that equal
   values hash equally whatever their size. */
ulong
hdo_expr_hash_fmpq(const fmpq_t q)
{
    const ulong p = UWORD(4611686018427387847); /* a prime below 2^62 */
    ulong h = mix(0, fmpz_fdiv_ui(fmpq_numref(q), p));
    h = mix(h, fmpz_fdiv_ui(fmpq_denref(q), p));
    return mix(h, (ulong)fmpz_sgn(fmpq_numref(q)) + 7);
}

static ulong
node_hash(const hdo_expr_pool_struct *pool, hdo_expr_kind kind, int32_t a,
          int32_t b)
{
    ulong h = mix(0, (ulong)kind);
    if (kind == HDO_X_CONST)
        return mix(h, hdo_expr_hash_fmpq(pool->consts + a));
    h = mix(h, (ulong)(uint32_t)a);
    return mix(h, (ulong)(uint32_t)b);
}

static int
node_equal(const hdo_expr_pool_struct *pool, const hdo_expr_node *n,
           hdo_expr_kind kind, int32_t a, int32_t b)
{
    if (n->kind != kind)
        return 0;
    if (kind == HDO_X_CONST)
        return fmpq_equal(pool->consts + n->a, pool->consts + a);
    return n->a == a && n->b == b;
}

static void
table_grow(hdo_expr_pool_struct *pool)
{
    slong size = 2 * pool->table_size;
    int32_t *table = flint_malloc(size * sizeof *table);
    for (slong i = 0; i < size; i++)
        table[i] = HDO_EXPR_NONE;
    for (slong e = 0; e < pool->len; e++) {
        const hdo_expr_node *n = pool->nodes + e;
        ulong h = node_hash(pool, n->kind, n->a, n->b) & (size - 1);
        while (table[h] != HDO_EXPR_NONE)
            h = (h + 1) & (size - 1);
        table[h] = (int32_t)e;
    }
    flint_free(pool->table);
    pool->table = table;
    pool->table_size = size;
}

/* Returns the node (kind, a, b), creating it if new.  For CONST, a is the
   index of a constant already appended to pool->consts; when an equal
   constant exists, the appended one is dropped again. */
hdo_expr
hdo_expr_intern(hdo_expr_pool_struct *pool, hdo_expr_kind kind, int32_t a,
                int32_t b)
{
    if (2 * (pool->len + 1) > pool->table_size)
        table_grow(pool);
    ulong mask = pool->table_size - 1;
    ulong h = node_hash(pool, kind, a, b) & mask;
    while (pool->table[h] != HDO_EXPR_NONE) {
        hdo_expr e = pool->table[h];
        if (node_equal(pool, pool->nodes + e, kind, a, b)) {
            if (kind == HDO_X_CONST && a == pool->nconsts - 1) {
                fmpq_clear(pool->consts + a);
                pool->nconsts--;
            }
            return e;
        }
        h = (h + 1) & mask;
    }
    HDO_ASSERT(pool->len < INT32_MAX);
    if (pool->len == pool->alloc) {
        pool->alloc = pool->alloc ? 2 * pool->alloc : 256;
        pool->nodes =
            flint_realloc(pool->nodes, pool->alloc * sizeof *pool->nodes);
    }
    hdo_expr e = (hdo_expr)pool->len++;
    pool->nodes[e].kind = kind;
    pool->nodes[e].a = a;
    pool->nodes[e].b = b;
    pool->table[h] = e;
    return e;
}

hdo_expr
hdo_expr_const_fmpq(hdo_expr_pool_t pool, const fmpq_t q)
{
    if (pool->nconsts == pool->consts_alloc) {
        pool->consts_alloc = pool->consts_alloc ? 2 * pool->consts_alloc : 64;
        pool->consts = flint_realloc(pool->consts,
                                     pool->consts_alloc * sizeof *pool->consts);
    }
    HDO_ASSERT(pool->nconsts < INT32_MAX);
    fmpq_init(pool->consts + pool->nconsts);
    fmpq_set(pool->consts + pool->nconsts, q);
    pool->nconsts++;
    return hdo_expr_intern(pool, HDO_X_CONST, (int32_t)(pool->nconsts - 1), 0);
}

hdo_expr
hdo_expr_const_si(hdo_expr_pool_t pool, slong num, ulong den)
{
    fmpq_t q;
    fmpq_init(q);
    fmpq_set_si(q, num, den);
    hdo_expr e = hdo_expr_const_fmpq(pool, q);
    fmpq_clear(q);
    return e;
}

hdo_expr
hdo_expr_pi(hdo_expr_pool_t pool)
{
    return hdo_expr_intern(pool, HDO_X_PI, 0, 0);
}

hdo_expr
hdo_expr_time(hdo_expr_pool_t pool)
{
    return hdo_expr_intern(pool, HDO_X_TIME, 0, 0);
}

hdo_expr
hdo_expr_var(hdo_expr_pool_t pool, slong var, slong order)
{
    HDO_ASSERT(var >= 0 && var < INT32_MAX && order >= 0 && order < INT32_MAX);
    return hdo_expr_intern(pool, HDO_X_VAR, (int32_t)var, (int32_t)order);
}
