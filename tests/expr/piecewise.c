/* piecewise.c -- unit tests of relations, conditions and `if` nodes:
   canonical forms, exact folding, sign patterns, printing, constant
   evaluation.  Expected values are worked out by hand. */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <mpfr.h>
#include "expr.h"

static hdo_expr
X(hdo_expr_pool_t p)
{
    return hdo_expr_var(p, 0, 0);
}

static hdo_expr
C(hdo_expr_pool_t p, slong n, ulong d)
{
    return hdo_expr_const_si(p, n, d);
}

static int
is_const(hdo_expr_pool_t p, hdo_expr e, slong n)
{
    fmpq_t q;
    fmpq_init(q);
    int ok = hdo_expr_get_fmpq(q, p, e) == 0 && fmpq_equal_si(q, n);
    fmpq_clear(q);
    return ok;
}

static void
expect_print(hdo_expr_pool_t p, hdo_expr e, const char *want)
{
    static const char *const names[] = {"x", "y"};
    char *s = hdo_expr_to_string(p, e, names);
    cr_expect_str_eq(s, want);
    free(s);
}

Test(expr_piecewise, rational_relations_fold)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    cr_expect(is_const(p, hdo_expr_rel(p, 0, C(p, 0, 1)), 1)); /* 0 >= 0 */
    cr_expect(is_const(p, hdo_expr_rel(p, 1, C(p, 0, 1)), 0)); /* 0 > 0 */
    cr_expect(is_const(p, hdo_expr_rel(p, 1, C(p, -1, 3)), 0));
    cr_expect(is_const(p, hdo_expr_rel(p, 0, C(p, 1, 3)), 1));
    /* max(1, 2) = 2, min(1, 2) = 1, abs(-3/2) = 3/2, sign(0) = 0 */
    hdo_expr e = hdo_expr_max(p, C(p, 1, 1), C(p, 2, 1));
    cr_expect(is_const(p, e, 2));
    cr_expect(is_const(p, hdo_expr_min(p, C(p, 1, 1), C(p, 2, 1)), 1));
    fmpq_t q;
    fmpq_init(q);
    cr_assert_eq(hdo_expr_get_fmpq(q, p, hdo_expr_abs(p, C(p, -3, 2))), 0);
    cr_expect(fmpq_cmp_si(q, 0) > 0 && fmpz_equal_si(fmpq_numref(q), 3) &&
              fmpz_equal_si(fmpq_denref(q), 2));
    fmpq_clear(q);
    cr_expect(is_const(p, hdo_expr_sign(p, C(p, 0, 1)), 0));
    cr_expect(is_const(p, hdo_expr_sign(p, C(p, -7, 1)), -1));
    cr_expect(is_const(p, hdo_expr_sign(p, C(p, 7, 1)), 1));
    hdo_expr_pool_clear(p);
}

Test(expr_piecewise, mirror_relations_share_one_switching_function)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr x = X(p), one = C(p, 1, 1);
    /* x > 1 (D = x - 1) and x < 1 (D = 1 - x), -x >= 0 and x >= 0 */
    hdo_expr a = hdo_expr_rel(p, 1, hdo_expr_sub(p, x, one));
    hdo_expr b = hdo_expr_rel(p, 1, hdo_expr_sub(p, one, x));
    hdo_expr c = hdo_expr_rel(p, 0, hdo_expr_neg(p, x));
    hdo_expr d = hdo_expr_rel(p, 0, x);
    hdo_expr *rel = NULL;
    slong n = 0, alloc = 0;
    hdo_expr sum = hdo_expr_add(
        p, hdo_expr_if(p, a, one, C(p, 2, 1)),
        hdo_expr_add(p, hdo_expr_if(p, b, one, C(p, 3, 1)),
                     hdo_expr_add(p, hdo_expr_if(p, c, one, C(p, 4, 1)),
                                  hdo_expr_if(p, d, one, C(p, 5, 1)))));
    hdo_expr_relations(&rel, &n, &alloc, p, sum);
    cr_expect_eq(n, 2, "x - 1 and x, found %ld", (long)n);
    /* x < 1 is not(x - 1 >= 0): an if on it has its branches swapped */
    cr_expect_eq(hdo_expr_node_get(p, b)->kind, HDO_X_NOT);
    cr_expect_eq(hdo_expr_node_get(p, c)->kind, HDO_X_NOT);
    flint_free(rel);
    hdo_expr_pool_clear(p);
}

Test(expr_piecewise, select_takes_the_branches_of_a_pattern)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr x = X(p), y = hdo_expr_var(p, 1, 0);
    /* sign(x) + min(x, y) */
    hdo_expr sg = hdo_expr_sign(p, x); /* built first: first in order */
    hdo_expr e = hdo_expr_add(p, sg, hdo_expr_min(p, x, y));
    hdo_expr *rel = NULL;
    slong n = 0, alloc = 0;
    hdo_expr_relations(&rel, &n, &alloc, p, e);
    cr_assert_eq(n, 2);
    cr_expect_eq(rel[0], x); /* sign's relation comes first */
    cr_expect(hdo_expr_has_relation(p, e));
    int bits[4][2] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}};
    /* D_0 = x: sign 1 or -1 (never 0 in a pattern); D_1 = y - x: bit 1
       is x <= y, min = x */
    hdo_expr want[4] = {
        hdo_expr_add(p, C(p, 1, 1), x), hdo_expr_add(p, C(p, 1, 1), y),
        hdo_expr_add(p, C(p, -1, 1), x), hdo_expr_add(p, C(p, -1, 1), y)};
    for (int k = 0; k < 4; k++) {
        hdo_expr s = hdo_expr_select(p, e, rel, bits[k], 2);
        cr_expect_eq(s, want[k], "pattern %d", k);
        cr_expect(!hdo_expr_has_relation(p, s));
    }
    flint_free(rel);
    hdo_expr_pool_clear(p);
}

/* The zero side (HDO_REL_ZERO): D >= 0 true and D > 0 false, so
   sign(0) = 0, abs(x) = x, max(x, 0) = x, if x >= 0 then 1 else -1 is 1
   and if x < 0 then 1 else -1 is -1, as model-format.md defines them;
   and the kinds say which relations need it. */
Test(expr_piecewise, select_zero_side_is_the_definition_at_zero)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr x = X(p);
    hdo_expr sg = hdo_expr_sign(p, x);
    hdo_expr ge =
        hdo_expr_if(p, hdo_expr_rel(p, 0, x), C(p, 1, 1), C(p, -1, 1));
    hdo_expr lt = hdo_expr_if(p, hdo_expr_rel(p, 1, hdo_expr_neg(p, x)),
                              C(p, 1, 1), C(p, -1, 1));
    hdo_expr ab = hdo_expr_abs(p, x);
    hdo_expr mn = hdo_expr_max(p, x, C(p, 0, 1)); /* D = x - 0 = x */
    hdo_expr all[5] = {sg, ge, lt, ab, mn};
    hdo_expr *rel = NULL;
    slong n = 0, alloc = 0;
    for (int i = 0; i < 5; i++)
        hdo_expr_relations(&rel, &n, &alloc, p, all[i]);
    cr_assert_eq(n, 1);
    cr_assert_eq(rel[0], x);
    int zero[1] = {HDO_REL_ZERO};
    cr_expect(is_const(p, hdo_expr_select(p, sg, rel, zero, 1), 0));
    cr_expect(is_const(p, hdo_expr_select(p, ge, rel, zero, 1), 1));
    cr_expect(is_const(p, hdo_expr_select(p, lt, rel, zero, 1), -1));
    cr_expect_eq(hdo_expr_select(p, ab, rel, zero, 1), x);
    cr_expect_eq(hdo_expr_select(p, mn, rel, zero, 1), x);
    /* the sides are unchanged by the new value: sign is 1 and -1 */
    int one[1] = {1}, none[1] = {0};
    cr_expect(is_const(p, hdo_expr_select(p, sg, rel, one, 1), 1));
    cr_expect(is_const(p, hdo_expr_select(p, sg, rel, none, 1), -1));
    int kinds[1] = {0};
    hdo_expr_relation_kinds(kinds, p, sg, rel, 1);
    cr_expect_eq(kinds[0], 3); /* x > 0 and not(x >= 0) */
    kinds[0] = 0;
    hdo_expr_relation_kinds(kinds, p, hdo_expr_add(p, ge, lt), rel, 1);
    cr_expect_eq(kinds[0], 1); /* x >= 0 and not(x >= 0) */
    kinds[0] = 0;
    hdo_expr_relation_kinds(
        kinds, p, hdo_expr_if(p, hdo_expr_rel(p, 1, x), C(p, 1, 1), C(p, 0, 1)),
        rel, 1);
    cr_expect_eq(kinds[0], 2);
    flint_free(rel);
    hdo_expr_pool_clear(p);
}

Test(expr_piecewise, print_reparses_as_written)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr x = X(p), y = hdo_expr_var(p, 1, 0);
    expect_print(p, hdo_expr_abs(p, x), "(if x >= 0 then x else -x)");
    hdo_expr c = hdo_expr_and(p, hdo_expr_rel(p, 1, x),
                              hdo_expr_not(p, hdo_expr_rel(p, 0, y)));
    expect_print(p, hdo_expr_if(p, c, C(p, 1, 1), C(p, 0, 1)),
                 "(if (x > 0) and (not (y >= 0)) then 1 else 0)");
    hdo_expr o = hdo_expr_or(p, hdo_expr_rel(p, 1, x), hdo_expr_rel(p, 1, y));
    expect_print(p, hdo_expr_if(p, o, x, y),
                 "(if (x > 0) or (y > 0) then x else y)");
    hdo_expr_pool_clear(p);
}

Test(expr_piecewise, and_or_not_fold)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr r = hdo_expr_rel(p, 1, X(p)), t = C(p, 1, 1), f = C(p, 0, 1);
    cr_expect_eq(hdo_expr_and(p, r, t), r);
    cr_expect(is_const(p, hdo_expr_and(p, r, f), 0));
    cr_expect_eq(hdo_expr_or(p, r, f), r);
    cr_expect(is_const(p, hdo_expr_or(p, t, r), 1));
    cr_expect_eq(hdo_expr_not(p, hdo_expr_not(p, r)), r);
    cr_expect(is_const(p, hdo_expr_not(p, t), 0));
    /* an if with equal branches is the branch */
    cr_expect_eq(hdo_expr_if(p, r, X(p), X(p)), X(p));
    hdo_expr_pool_clear(p);
}

Test(expr_piecewise, constant_sign_and_value_exact)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr pi = hdo_expr_pi(p);
    int s = 9;
    /* sin(pi) is exactly 0 (Calcium), pi - 3 > 0, 3 - pi < 0 */
    cr_assert_eq(hdo_expr_const_sign(&s, p, hdo_expr_unary(p, HDO_X_SIN, pi)),
                 0);
    cr_expect_eq(s, 0);
    cr_assert_eq(hdo_expr_const_sign(&s, p, hdo_expr_sub(p, pi, C(p, 3, 1))),
                 0);
    cr_expect_eq(s, 1);
    cr_assert_eq(hdo_expr_const_sign(&s, p, hdo_expr_sub(p, C(p, 3, 1), pi)),
                 0);
    cr_expect_eq(s, -1);
    /* sqrt(2)^2 - 2 is exactly 0 */
    hdo_expr z = hdo_expr_sub(
        p,
        hdo_expr_pow(p, hdo_expr_unary(p, HDO_X_SQRT, C(p, 2, 1)), C(p, 2, 1)),
        C(p, 2, 1));
    cr_assert_eq(hdo_expr_const_sign(&s, p, z), 0);
    cr_expect_eq(s, 0);
    /* an if node left with a constant condition evaluates its branch:
       if pi > 3 then pi else 3, built without folding */
    hdo_expr c = hdo_expr_rel(p, 1, hdo_expr_sub(p, pi, C(p, 3, 1)));
    hdo_expr e = hdo_expr_if(p, c, pi, C(p, 3, 1));
    mpfr_t r, want;
    mpfr_inits2(200, r, want, (mpfr_ptr)0);
    cr_assert_eq(hdo_expr_eval_constant(r, p, e), 0);
    mpfr_const_pi(want, MPFR_RNDN);
    cr_expect(mpfr_equal_p(r, want));
    mpfr_clears(r, want, (mpfr_ptr)0);
    hdo_expr_pool_clear(p);
}

Test(expr_piecewise, derivative_of_an_if_is_the_if_of_the_derivatives)
{
    hdo_expr_pool_t p;
    hdo_expr_pool_init(p);
    hdo_expr x = X(p);
    /* d/dx max(x^2, 1) = if x^2 - 1 >= 0 then 2 x else 0 */
    hdo_expr x2 = hdo_expr_pow(p, x, C(p, 2, 1));
    hdo_expr e = hdo_expr_max(p, x2, C(p, 1, 1));
    hdo_expr d = hdo_expr_diff(p, e, 0, 0);
    hdo_expr want =
        hdo_expr_if(p, hdo_expr_rel(p, 0, hdo_expr_sub(p, x2, C(p, 1, 1))),
                    hdo_expr_mul(p, C(p, 2, 1), x), C(p, 0, 1));
    cr_expect_eq(d, want);
    hdo_expr_pool_clear(p);
}
