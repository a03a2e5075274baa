/* query.c -- questions about an expression: constant?, which variables? */
#include <stdlib.h>
#include "expr.h"
#include "pool.h"
#include "memo.h"

/* A set of node indices (open addressing), so that a walk costs what the
   reachable part of the graph costs, not the size of the whole pool. */
typedef struct {
    int32_t *slot;
    slong size, count;
} node_set;

static void
set_init(node_set *s)
{
    s->size = 64;
    s->count = 0;
    s->slot = flint_malloc(s->size * sizeof *s->slot);
    for (slong i = 0; i < s->size; i++)
        s->slot[i] = -1;
}

static void
set_clear(node_set *s)
{
    flint_free(s->slot);
}

static int set_insert(node_set *s, int32_t e);

static void
set_grow(node_set *s)
{
    node_set t;
    t.size = 2 * s->size;
    t.count = 0;
    t.slot = flint_malloc(t.size * sizeof *t.slot);
    for (slong i = 0; i < t.size; i++)
        t.slot[i] = -1;
    for (slong i = 0; i < s->size; i++)
        if (s->slot[i] >= 0)
            set_insert(&t, s->slot[i]);
    flint_free(s->slot);
    *s = t;
}

/* Returns 1 if e was new. */
static int
set_insert(node_set *s, int32_t e)
{
    if (2 * (s->count + 1) > s->size)
        set_grow(s);
    ulong h = ((ulong)(uint32_t)e * UWORD(0x9e3779b97f4a7c15)) >> 20;
    h &= s->size - 1;
    while (s->slot[h] >= 0) {
        if (s->slot[h] == e)
            return 0;
        h = (h + 1) & (s->size - 1);
    }
    s->slot[h] = e;
    s->count++;
    return 1;
}

static int
has_children(hdo_expr_kind k)
{
    return hdo_expr_kind_arity(k) > 0;
}

static int
is_binary(hdo_expr_kind k)
{
    return hdo_expr_kind_arity(k) == 2;
}

/* Calls visit(node, data) on every node reachable from e, once each, in
   no particular order; iterative, so deep graphs cannot overflow the
   stack.  Stops early when visit returns nonzero, and returns that. */
static int
walk(const hdo_expr_pool_struct *pool, hdo_expr e,
     int (*visit)(const hdo_expr_node *n, void *data), void *data)
{
    node_set seen;
    slong top = 0, alloc = 64;
    int32_t *stack = flint_malloc(alloc * sizeof *stack);
    int stop = 0;
    set_init(&seen);
    stack[top++] = e;
    set_insert(&seen, e);
    while (top > 0 && !stop) {
        /* visit() may append nodes (a derivative, say) and so move
           pool->nodes: look the node up again afterwards. */
        hdo_expr cur = stack[--top];
        stop = visit(pool->nodes + cur, data);
        const hdo_expr_node *n = pool->nodes + cur;
        if (!has_children(n->kind))
            continue;
        int32_t kids[2] = {n->a, n->b};
        for (int i = 0; i < (is_binary(n->kind) ? 2 : 1); i++) {
            if (!set_insert(&seen, kids[i]))
                continue;
            if (top == alloc) {
                alloc *= 2;
                stack = flint_realloc(stack, alloc * sizeof *stack);
            }
            stack[top++] = kids[i];
        }
    }
    flint_free(stack);
    set_clear(&seen);
    return stop;
}

int
hdo_expr_is_rational(const hdo_expr_pool_t pool, hdo_expr e)
{
    return pool->nodes[e].kind == HDO_X_CONST;
}

int
hdo_expr_get_fmpq(fmpq_t q, const hdo_expr_pool_t pool, hdo_expr e)
{
    if (pool->nodes[e].kind != HDO_X_CONST)
        return -1;
    fmpq_set(q, hdo_expr_const_ref(pool, e));
    return 0;
}

static int
visit_nonconstant(const hdo_expr_node *n, void *data)
{
    return n->kind == HDO_X_VAR || n->kind == HDO_X_TIME;
}

int
hdo_expr_is_constant(const hdo_expr_pool_t pool, hdo_expr e)
{
    return !walk(pool, e, visit_nonconstant, NULL);
}

static int
visit_time(const hdo_expr_node *n, void *data)
{
    return n->kind == HDO_X_TIME;
}

int
hdo_expr_has_time(const hdo_expr_pool_t pool, hdo_expr e)
{
    return walk(pool, e, visit_time, NULL);
}

typedef struct {
    slong var, order;
} max_order_data;

static int
visit_max_order(const hdo_expr_node *n, void *data)
{
    max_order_data *d = data;
    if (n->kind == HDO_X_VAR && n->a == d->var && n->b > d->order)
        d->order = n->b;
    return 0;
}

slong
hdo_expr_max_order(const hdo_expr_pool_t pool, hdo_expr e, slong var)
{
    max_order_data d = {var, -1};
    walk(pool, e, visit_max_order, &d);
    return d.order;
}

typedef struct {
    void (*f)(slong var, slong order, void *data);
    void *data;
} foreach_data;

static int
visit_var(const hdo_expr_node *n, void *data)
{
    foreach_data *d = data;
    if (n->kind == HDO_X_VAR)
        d->f(n->a, n->b, d->data);
    return 0;
}

void
hdo_expr_foreach_var(const hdo_expr_pool_t pool, hdo_expr e,
                     void (*f)(slong var, slong order, void *data), void *data)
{
    foreach_data d = {f, data};
    walk(pool, e, visit_var, &d);
}

typedef struct {
    int32_t *nodes;
    slong len, alloc;
    const hdo_expr_pool_struct *pool;
} collect_data;

static int
visit_collect(const hdo_expr_node *n, void *data)
{
    collect_data *d = data;
    if (d->len == d->alloc) {
        d->alloc = d->alloc ? 2 * d->alloc : 64;
        d->nodes = flint_realloc(d->nodes, d->alloc * sizeof *d->nodes);
    }
    d->nodes[d->len++] = (int32_t)(n - d->pool->nodes);
    return 0;
}

static int
cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

slong
hdo_expr_reachable(int32_t **out, const hdo_expr_pool_struct *pool,
                   const hdo_expr *roots, slong nroots)
{
    collect_data d = {NULL, 0, 0, pool};
    node_set seen;
    set_init(&seen);
    for (slong r = 0; r < nroots; r++) {
        /* walk() keeps its own visited set per root; merge here */
        collect_data one = {NULL, 0, 0, pool};
        walk(pool, roots[r], visit_collect, &one);
        for (slong i = 0; i < one.len; i++)
            if (set_insert(&seen, one.nodes[i]))
                visit_collect(pool->nodes + one.nodes[i], &d);
        flint_free(one.nodes);
    }
    set_clear(&seen);
    if (d.len > 1)
        qsort(d.nodes, d.len, sizeof *d.nodes, cmp_int32);
    *out = d.nodes;
    return d.len;
}

slong
hdo_expr_reachable_position(const int32_t *nodes, slong len, int32_t id)
{
    slong lo = 0, hi = len - 1;
    while (lo <= hi) {
        slong mid = (lo + hi) / 2;
        if (nodes[mid] == id)
            return mid;
        if (nodes[mid] < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    HDO_ASSERT(0 && "the node is among the reachable ones");
    return -1; /* not reached: the assertion does not return */
}

int
hdo_expr_operand_images(hdo_expr *a, hdo_expr *b, const int32_t *nodes, slong i,
                        const hdo_expr_node *node, const hdo_expr *image)
{
    int arity = hdo_expr_kind_arity(node->kind);
    /* the operands come before nodes[i] (children before parents) */
    *a = arity > 0 ? image[hdo_expr_reachable_position(nodes, i, node->a)]
                   : HDO_EXPR_NONE;
    *b = arity == 2 ? image[hdo_expr_reachable_position(nodes, i, node->b)]
                    : HDO_EXPR_NONE;
    return arity;
}
