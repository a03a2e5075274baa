/* expr_mul_fold_grow.c -- regression test (issue 10, found by
   tests/fuzz/fuzz_model.c: heap-use-after-free in hdo_expr_mul).

   hdo_expr_mul folds c * (d * x) into (c d) * x with
     hdo_expr_mul(pool, fold(pool, HDO_X_MUL, a, nb->a), nb->b)
   where nb points into pool->nodes (ref/expr/construct.c, line 115 at
   the time; now ref/expr/arith.c).  fold() appends the constant c d; when
   that append reallocates the node array, nb->b is read from freed
   memory (the order in which the two arguments are evaluated is
   unspecified).
   The fuzzer reached it from the parser, e.g. `param p = 2*(3*q)` at a
   node count that is a power of two.  Only a build that evaluates the
   arguments left to right reads the freed array: clang does, gcc (the
   Makefile's default cc) happens not to, so this test catches the bug
   under `make check SAN=1 CC=clang` (AddressSanitizer); under gcc it
   passes either way. */
#include <criterion/criterion.h>
#include "expr.h"
#include "../pool_fixture.h"

TestSuite(regress_expr_mul_fold_grow, .init = pool_setup,
          .fini = pool_teardown);

Test(regress_expr_mul_fold_grow, fold_reallocates_the_node_array)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0);
    hdo_expr three_x = hdo_expr_mul(pool, hdo_expr_const_si(pool, 3, 1), x);
    hdo_expr two = hdo_expr_const_si(pool, 2, 1), r;
    const hdo_expr_node *n;

    cr_assert_eq(pool->nodes[three_x].kind, HDO_X_MUL);
    /* Fill the node array: the constant 6 made by the fold is the node
       that does not fit. */
    for (slong i = 0; pool->len < pool->alloc; i++)
        hdo_expr_const_si(pool, 1000 + i, 7);
    cr_assert_eq(pool->len, pool->alloc);
    r = hdo_expr_mul(pool, two, three_x);
    n = pool->nodes + r;
    cr_assert_eq(n->kind, HDO_X_MUL);
    cr_assert_eq(n->b, x, "2*(3*x) = 6*x: second factor %d, want x = %d",
                 (int)n->b, (int)x);
    cr_assert_eq(pool->nodes[n->a].kind, HDO_X_CONST);
    fmpq_t q;
    fmpq_init(q);
    cr_assert_eq(hdo_expr_get_fmpq(q, pool, n->a), 0);
    cr_assert(fmpq_equal_si(q, 6), "constant factor of 2*(3*x) is not 6");
    fmpq_clear(q);
}
