/* expr_foreach_grow.c -- regression test (issue 10, found by `make check
   SAN=1`: heap-use-after-free in hdo_run on cases/car_axis.hdae).

   hdo_expr_foreach_var walks the graph holding a pointer into
   pool->nodes across the call of the callback; reduce.c's jac_cb calls
   hdo_expr_diff from that callback, which appends nodes, and when the
   pool's node array is reallocated the walk reads the freed array
   (ref/expr/query.c, walk(): `n->kind` after `visit(n, data)`).
   Only AddressSanitizer or valgrind see it reliably: run under
   `make check SAN=1`. */
#include <criterion/criterion.h>
#include "expr.h"
#include "../pool_fixture.h"

TestSuite(regress_expr_foreach_grow, .init = pool_setup, .fini = pool_teardown);

typedef struct {
    hdo_expr_pool_struct *pool;
    hdo_expr e;
    slong calls;
} grow_ctx;

/* Differentiates e with respect to the variable met, as reduce.c does,
   and then adds enough fresh constants that the node array must be
   reallocated at least once while the walk is inside this call. */
static void
grow_cb(slong var, slong order, void *data)
{
    grow_ctx *g = data;
    slong target = 2 * g->pool->alloc + 16;
    hdo_expr_diff(g->pool, g->e, var, order);
    for (slong i = 0; g->pool->len < target; i++)
        hdo_expr_const_si(g->pool, 1000003 + 7 * i + 100000 * g->calls, 3);
    g->calls++;
}

Test(regress_expr_foreach_grow, callback_may_grow_the_pool)
{
    /* sin(x) * y + der(x) * x^2: the walk still has children to visit
       after the first variable it reports. */
    hdo_expr x = hdo_expr_var(pool, 0, 0), y = hdo_expr_var(pool, 1, 0);
    hdo_expr dx = hdo_expr_var(pool, 0, 1);
    hdo_expr e = hdo_expr_add(
        pool, hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_SIN, x), y),
        hdo_expr_mul(pool, dx,
                     hdo_expr_pow(pool, x, hdo_expr_const_si(pool, 2, 1))));
    grow_ctx g = {pool, e, 0};
    hdo_expr_foreach_var(pool, e, grow_cb, &g);
    cr_assert_eq(g.calls, 3, "variables visited: %ld, want 3 (x, y, der(x))",
                 (long)g.calls);
}
