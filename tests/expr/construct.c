/* construct.c -- tests of the pool, hash-consing and exact simplification */
#include <criterion/criterion.h>
#include "expr.h"
#include "../pool_fixture.h"

TestSuite(expr_construct, .init = pool_setup, .fini = pool_teardown);

static int
equals_rational(hdo_expr e, slong num, ulong den)
{
    fmpq_t q, r;
    int ok;
    fmpq_init(q);
    fmpq_init(r);
    fmpq_set_si(r, num, den);
    ok = hdo_expr_get_fmpq(q, pool, e) == 0 && fmpq_equal(q, r);
    fmpq_clear(q);
    fmpq_clear(r);
    return ok;
}

Test(expr_construct, hash_consing_shares_equal_nodes)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0), y = hdo_expr_var(pool, 1, 0);
    cr_assert_eq(hdo_expr_var(pool, 0, 0), x);
    cr_assert_eq(hdo_expr_add(pool, x, y), hdo_expr_add(pool, y, x));
    cr_assert_eq(hdo_expr_mul(pool, x, y), hdo_expr_mul(pool, y, x));
    cr_assert_neq(hdo_expr_var(pool, 0, 1), x);
    /* equal rationals are one node, however they were written */
    cr_assert_eq(hdo_expr_const_si(pool, 2, 4), hdo_expr_const_si(pool, 1, 2));
}

Test(expr_construct, rational_folding_is_exact)
{
    hdo_expr a = hdo_expr_const_si(pool, 1, 10),
             b = hdo_expr_const_si(pool, 2, 10);
    cr_assert(equals_rational(hdo_expr_add(pool, a, b), 3, 10));
    cr_assert(equals_rational(hdo_expr_div(pool, a, b), 1, 2));
    cr_assert(equals_rational(
        hdo_expr_pow(pool, b, hdo_expr_const_si(pool, -3, 1)), 125, 1));
    cr_assert(equals_rational(
        hdo_expr_unary(pool, HDO_X_SQRT, hdo_expr_const_si(pool, 9, 4)), 3, 2));
}

Test(expr_construct, identities)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0);
    hdo_expr zero = hdo_expr_const_si(pool, 0, 1),
             one = hdo_expr_const_si(pool, 1, 1);
    cr_assert_eq(hdo_expr_add(pool, x, zero), x);
    cr_assert_eq(hdo_expr_mul(pool, one, x), x);
    cr_assert_eq(hdo_expr_mul(pool, x, zero), zero);
    cr_assert_eq(hdo_expr_pow(pool, x, one), x);
    cr_assert_eq(hdo_expr_neg(pool, hdo_expr_neg(pool, x)), x);
    cr_assert_eq(hdo_expr_sub(pool, x, x), zero);
    cr_assert_eq(hdo_expr_add(pool, x, hdo_expr_neg(pool, x)), zero);
    /* 2 * (3 * x) = 6 * x */
    hdo_expr six_x = hdo_expr_mul(pool, hdo_expr_const_si(pool, 6, 1), x);
    cr_assert_eq(
        hdo_expr_mul(pool, hdo_expr_const_si(pool, 2, 1),
                     hdo_expr_mul(pool, hdo_expr_const_si(pool, 3, 1), x)),
        six_x);
}

Test(expr_construct, division_by_zero_and_zero_powers_are_kept)
{
    hdo_expr zero = hdo_expr_const_si(pool, 0, 1);
    hdo_expr d = hdo_expr_div(pool, hdo_expr_const_si(pool, 1, 1), zero);
    cr_assert_eq(hdo_expr_node_get(pool, d)->kind, HDO_X_DIV);
    hdo_expr p = hdo_expr_pow(pool, zero, hdo_expr_const_si(pool, -1, 1));
    cr_assert_eq(hdo_expr_node_get(pool, p)->kind, HDO_X_POW);
}

Test(expr_construct, queries)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0), dx = hdo_expr_var(pool, 0, 2);
    hdo_expr e = hdo_expr_add(pool, hdo_expr_unary(pool, HDO_X_SIN, x),
                              hdo_expr_mul(pool, dx, hdo_expr_time(pool)));
    cr_assert_eq(hdo_expr_max_order(pool, e, 0), 2);
    cr_assert_eq(hdo_expr_max_order(pool, e, 1), -1);
    cr_assert(hdo_expr_has_time(pool, e));
    cr_assert(!hdo_expr_is_constant(pool, e));
    cr_assert(hdo_expr_is_constant(
        pool, hdo_expr_unary(pool, HDO_X_SIN, hdo_expr_pi(pool))));
}

Test(expr_construct, deep_chains_do_not_overflow_the_stack)
{
    hdo_expr e = hdo_expr_var(pool, 0, 0);
    for (int i = 0; i < 200000; i++)
        e = hdo_expr_unary(pool, HDO_X_SIN, e);
    cr_assert_eq(hdo_expr_max_order(pool, e, 0), 0);
    cr_assert(!hdo_expr_is_constant(pool, e));
}

/* A copy names the same expressions under the same indices, with the
   derivative cache, and grows without touching the original. */
Test(expr_construct, pool_copy_is_independent)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0), y = hdo_expr_var(pool, 1, 0);
    hdo_expr third = hdo_expr_const_si(pool, 1, 3);
    hdo_expr e = hdo_expr_mul(pool, hdo_expr_unary(pool, HDO_X_SIN, x),
                              hdo_expr_add(pool, y, third));
    hdo_expr de = hdo_expr_diff(pool, e, 0, 0); /* fills the memo */
    slong len = pool->len, nconsts = pool->nconsts;
    hdo_expr_pool_t copy;
    hdo_expr_pool_init_copy(copy, pool);
    cr_assert_eq(copy->len, len);
    cr_assert_eq(copy->nconsts, nconsts);
    /* hash-consing in the copy finds the original's nodes */
    cr_assert_eq(hdo_expr_var(copy, 1, 0), y);
    cr_assert_eq(hdo_expr_const_si(copy, 2, 6), third);
    cr_assert_eq(hdo_expr_mul(copy, hdo_expr_unary(copy, HDO_X_SIN, x),
                              hdo_expr_add(copy, y, third)),
                 e);
    cr_assert_eq(copy->len, len, "no new node for known expressions");
    /* the memo came along (a copy of its own), and the derivative is the
       same node */
    cr_assert(copy->memo != NULL && copy->memo != pool->memo);
    cr_assert_eq(hdo_expr_diff(copy, e, 0, 0), de);
    cr_assert_eq(copy->len, len);
    /* growth of the copy: new nodes and constants there only */
    hdo_expr d2 = hdo_expr_diff(copy, de, 0, 0);
    hdo_expr c = hdo_expr_const_si(copy, 5, 7);
    cr_assert_geq(d2, len);
    cr_assert_gt(copy->len, len);
    cr_assert_eq(copy->nconsts, nconsts + 1);
    cr_assert_eq(pool->len, len, "the original grew");
    cr_assert_eq(pool->nconsts, nconsts);
    fmpq_t q;
    fmpq_init(q);
    cr_assert_eq(hdo_expr_get_fmpq(q, copy, c), 0);
    cr_assert(fmpq_cmp_si(q, 5) < 0 && fmpq_cmp_si(q, 0) > 0);
    fmpq_clear(q);
    /* the original, cleared first, takes nothing of the copy with it */
    hdo_expr_pool_clear(pool);
    hdo_expr_pool_init(pool);
    cr_assert_eq(hdo_expr_diff(copy, de, 0, 0), d2);
    hdo_expr_pool_clear(copy);
}
