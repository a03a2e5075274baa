/* share.c -- the Taylor series of functions of t alone shared by a
   pool's programs (ref/expr/share.c, D-129): every coefficient has the
   bits of a program that shares nothing (the same computation, done
   twice: FLINT's rule), at the same point and at others, at two
   precisions, for an operand that agrees with the cache's at order 0
   only, and for programs of different orders in either sequence. */
#include <criterion/criterion.h>
#include "expr.h"
#include "../pool_fixture.h"

TestSuite(expr_share, .init = pool_setup, .fini = pool_teardown);

#define ORDER 10
#define PREC 200

static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_zero_p(a) || mpfr_zero_p(b))
        return mpfr_zero_p(a) && mpfr_zero_p(b) &&
               mpfr_signbit(a) == mpfr_signbit(b);
    return mpfr_equal_p(a, b);
}

/* f(a) + x, a = c + s (t/5): a function of t alone and a variable. */
static hdo_expr
root(hdo_expr_kind kind, slong cnum, ulong cden, slong s)
{
    hdo_expr t5 =
        hdo_expr_div(pool, hdo_expr_time(pool), hdo_expr_const_si(pool, 5, 1));
    hdo_expr a =
        hdo_expr_add(pool, hdo_expr_const_si(pool, cnum, cden),
                     hdo_expr_mul(pool, hdo_expr_const_si(pool, s, 1), t5));
    return hdo_expr_add(pool, hdo_expr_unary(pool, kind, a),
                        hdo_expr_var(pool, 0, 0));
}

/* Expands p at t0 (x = 1/7 + t) to order n. */
static void
expand(hdo_program_t p, const char *t0, slong n)
{
    mpfr_set_str(hdo_program_coef(p, p->time_slot, 0), t0, 10, MPFR_RNDN);
    for (slong k = 0; k <= n; k++) {
        slong in = p->inputs[0].slot;
        if (k == 0)
            mpfr_set_si(hdo_program_coef(p, in, 0), 1, MPFR_RNDN),
                mpfr_div_ui(hdo_program_coef(p, in, 0),
                            hdo_program_coef(p, in, 0), 7, MPFR_RNDN);
        else
            mpfr_set_si(hdo_program_coef(p, in, k), k == 1, MPFR_RNDN);
        cr_assert_eq(hdo_program_taylor_step(p, k, NULL), 0);
    }
}

/* Every slot's and companion's coefficients 0..n of p and q agree. */
static void
assert_same(hdo_program_t p, hdo_program_t q, slong n, const char *what)
{
    cr_assert_eq(p->nslots, q->nslots);
    slong pp = p->taylor_order + 1, pq = q->taylor_order + 1;
    for (slong i = 0; i < p->nslots; i++)
        for (slong k = 0; k <= n; k++)
            cr_assert(same_bits(p->coef[i * pp + k], q->coef[i * pq + k]),
                      "%s: slot %ld, order %ld", what, (long)i, (long)k);
    for (slong j = 0; j < p->naux; j++)
        for (slong k = 0; k <= n; k++)
            cr_assert(same_bits(p->auxcoef[j * pp + k], q->auxcoef[j * pq + k]),
                      "%s: companion %ld, order %ld", what, (long)j, (long)k);
}

static void
make(hdo_program_t p, hdo_expr e, mpfr_prec_t prec, slong order, int share)
{
    hdo_program_init(p, pool, &e, 1, prec);
    hdo_program_taylor_alloc(p, order);
    if (share)
        hdo_program_taylor_share(p, pool);
}

/* The function slot of f(a) + x follows a cache entry to order n. */
static void
assert_followed(hdo_program_t p, slong n)
{
    slong f = -1;
    for (slong i = 0; i < p->nslots; i++)
        if (p->code[i].share_ok)
            f = i;
    cr_assert(f >= 0, "the function of t is shared");
    cr_assert(p->code[f].share_entry >= 0 && p->code[f].share_len == n + 1);
}

Test(expr_share, shared_series_same_bits_as_unshared)
{
    const hdo_expr_kind kinds[] = {
        HDO_X_SIN,  HDO_X_COS,  HDO_X_SINH, HDO_X_COSH, HDO_X_TAN, HDO_X_TANH,
        HDO_X_ATAN, HDO_X_ASIN, HDO_X_ACOS, HDO_X_EXP,  HDO_X_LOG, HDO_X_SQRT};
    for (size_t q = 0; q < sizeof kinds / sizeof *kinds; q++) {
        /* a = 1/3 + t/5 (in every domain near t = 0.1), and 1/3 + 2 t/5:
           other bits from order 1 at t = 0 */
        hdo_expr e = root(kinds[q], 1, 3, 1), e2 = root(kinds[q], 1, 3, 2);
        hdo_program_t a, b, c, ref, lo, lo_ref, d, d_ref;
        make(a, e, PREC, ORDER, 1);
        make(b, e, PREC, ORDER, 1);
        make(c, e, PREC, ORDER / 2, 1);
        make(ref, e, PREC, ORDER, 0);
        make(lo, e, 100, ORDER, 1);
        make(lo_ref, e, 100, ORDER, 0);
        make(d, e2, PREC, ORDER, 1);
        make(d_ref, e2, PREC, ORDER, 0);

        /* the same point: b takes a's series */
        expand(a, "0.1", ORDER);
        expand(b, "0.1", ORDER);
        expand(ref, "0.1", ORDER);
        assert_same(a, ref, ORDER, "a at 0.1");
        assert_same(b, ref, ORDER, "b at 0.1");
        assert_followed(b, ORDER);
        /* another precision at the same point */
        expand(lo, "0.1", ORDER);
        expand(lo_ref, "0.1", ORDER);
        assert_same(lo, lo_ref, ORDER, "100 bits at 0.1");
        /* another point, then back: b at 0.125 */
        expand(b, "0.125", ORDER);
        expand(ref, "0.125", ORDER);
        assert_same(b, ref, ORDER, "b at 0.125");
        /* a shorter series first, a longer one after it, a again */
        expand(c, "0.0625", ORDER / 2);
        expand(a, "0.0625", ORDER);
        expand(ref, "0.0625", ORDER);
        assert_same(a, ref, ORDER, "a after a shorter series");
        expand(c, "0.0625", ORDER / 2);
        assert_same(c, ref, ORDER / 2, "the shorter series after a");
        /* the same operand at order 0 (t = 0: both 1/3), not at order 1 */
        expand(a, "0", ORDER);
        expand(d, "0", ORDER);
        expand(d_ref, "0", ORDER);
        assert_same(d, d_ref, ORDER, "an operand equal at order 0 only");

        hdo_program_t *all[] = {&a, &b, &c, &ref, &lo, &lo_ref, &d, &d_ref};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            hdo_program_clear(*all[i]);
    }
}
