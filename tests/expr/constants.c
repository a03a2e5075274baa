/* constants.c -- exact zeros, undefined and out-of-range constants
   (issue 14): hdo_expr_eval_constant and hdo_expr_const_examine.

   Expected values are closed forms: sin(pi) = cos(pi/2) = sin(2 pi) = 0,
   sqrt(2)^2 - 2 = 0, 4 atan(1) - pi = 0, exp(log(2)) - 2 = 0 (exactly,
   so the result must be the MPFR zero, not a tiny number);
   exp(10^-4000) - 1 = 10^-4000 (1 + 10^-4000/2 + ...), so 10^-4000 to
   far more than the 200 bits asked; 3^(log 2 / log 3) = 2. */
#include <criterion/criterion.h>
#include <flint/fmpz.h>
#include <flint/ulong_extras.h>
#include "expr.h"
#include "linalg.h"
#include "../pool_fixture.h"

TestSuite(expr_constants, .init = pool_setup, .fini = pool_teardown);

static hdo_expr
K(slong p, ulong q)
{
    return hdo_expr_const_si(pool, p, q);
}

static hdo_expr
U(hdo_expr_kind k, hdo_expr a)
{
    return hdo_expr_unary(pool, k, a);
}

static hdo_expr
PI(void)
{
    return hdo_expr_pi(pool);
}

/* The six exact zeros of the issue. */
static void
zeros(hdo_expr z[6])
{
    z[0] = U(HDO_X_SIN, PI());
    z[1] = U(HDO_X_COS, hdo_expr_div(pool, PI(), K(2, 1)));
    z[2] = U(HDO_X_SIN, hdo_expr_mul(pool, K(2, 1), PI()));
    z[3] = hdo_expr_sub(
        pool, hdo_expr_pow(pool, U(HDO_X_SQRT, K(2, 1)), K(2, 1)), K(2, 1));
    z[4] = hdo_expr_sub(
        pool, hdo_expr_mul(pool, K(4, 1), U(HDO_X_ATAN, K(1, 1))), PI());
    z[5] = hdo_expr_sub(pool, U(HDO_X_EXP, U(HDO_X_LOG, K(2, 1))), K(2, 1));
}

Test(expr_constants, exact_zeros_evaluate_to_zero)
{
    hdo_expr z[6];
    zeros(z);
    mpfr_t r;
    mpfr_init2(r, 200);
    for (int i = 0; i < 6; i++) {
        mpfr_set_ui(r, 7, MPFR_RNDN);
        cr_assert_eq(hdo_expr_eval_constant(r, pool, z[i]), 0, "zero %d", i);
        cr_assert(mpfr_zero_p(r), "zero %d is not 0", i);
        hdo_const_report rep;
        cr_assert_eq(hdo_expr_const_examine(&rep, pool, z[i], 1), 0);
        cr_assert_eq(rep.assumed_zero, HDO_EXPR_NONE, "zero %d: no proof", i);
        /* 1 + zero is exactly 1 */
        cr_assert_eq(
            hdo_expr_eval_constant(r, pool, hdo_expr_add(pool, K(1, 1), z[i])),
            0);
        cr_assert(mpfr_cmp_ui(r, 1) == 0);
    }
    mpfr_clear(r);
}

Test(expr_constants, division_by_an_exact_zero_is_undefined)
{
    hdo_expr z[6];
    zeros(z);
    for (int i = 0; i < 6; i++) {
        hdo_expr d = hdo_expr_div(pool, K(1, 1), z[i]);
        hdo_expr l = U(HDO_X_LOG, z[i]);
        hdo_const_report rep;
        cr_assert_eq(hdo_expr_const_examine(&rep, pool, d, 0), HDO_ERR_DOMAIN,
                     "1/zero %d", i);
        cr_assert_eq(rep.reason, HDO_CONST_UNDEFINED);
        cr_assert_eq(rep.bad, d);
        cr_assert_eq(hdo_expr_const_examine(&rep, pool, l, 0), HDO_ERR_DOMAIN);
        cr_assert_eq(rep.bad, l);
        /* sqrt(0) = 0 and 0^(1/2) = 0 are fine */
        cr_assert_eq(hdo_expr_const_examine(&rep, pool, U(HDO_X_SQRT, z[i]), 1),
                     0);
    }
}

Test(expr_constants, undefined_constants_are_refused_at_once)
{
    hdo_expr bad[] = {
        U(HDO_X_SQRT, K(-1, 1)),
        U(HDO_X_LOG, K(0, 1)),
        U(HDO_X_LOG, K(-1, 1)),
        U(HDO_X_TAN, hdo_expr_div(pool, PI(), K(2, 1))),
        U(HDO_X_ASIN, K(2, 1)),
        U(HDO_X_ACOS, K(-3, 2)),
        hdo_expr_pow(pool, K(-8, 1), K(1, 3)),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        hdo_const_report rep;
        cr_assert_eq(hdo_expr_const_examine(&rep, pool, bad[i], 0),
                     HDO_ERR_DOMAIN, "%zu", i);
        cr_assert_eq(rep.reason, HDO_CONST_UNDEFINED, "%zu: reason %d", i,
                     rep.reason);
        cr_assert_eq(rep.bad, bad[i]);
        mpfr_t r;
        mpfr_init2(r, 100);
        cr_assert_eq(hdo_expr_eval_constant(r, pool, bad[i]), HDO_ERR_DOMAIN);
        mpfr_clear(r);
    }
}

Test(expr_constants, values_beyond_mpfr_are_refused)
{
    hdo_expr big = U(HDO_X_EXP, K(10000000000, 1));
    hdo_expr tiny = U(HDO_X_EXP, K(-10000000000, 1));
    hdo_expr tower = hdo_expr_pow(
        pool, PI(), hdo_expr_pow(pool, PI(), hdo_expr_pow(pool, PI(), PI())));
    hdo_const_report rep;
    /* defined (range 0) but not a value MPFR can hold (range 1) */
    cr_assert_eq(hdo_expr_const_examine(&rep, pool, big, 0), 0);
    cr_assert_eq(hdo_expr_const_examine(&rep, pool, big, 1), HDO_ERR_DOMAIN);
    cr_assert_eq(rep.reason, HDO_CONST_OVERFLOW);
    cr_assert_eq(hdo_expr_const_examine(&rep, pool, tower, 1), HDO_ERR_DOMAIN);
    cr_assert_eq(rep.reason, HDO_CONST_OVERFLOW);
    cr_assert_eq(hdo_expr_const_examine(&rep, pool, tiny, 1), HDO_ERR_DOMAIN);
    cr_assert_eq(rep.reason, HDO_CONST_UNDERFLOW);
    /* 1 + exp(-10^10) and exp(10^10)/exp(10^10) are fine: only the value
       the run holds must fit */
    cr_assert_eq(hdo_expr_const_examine(&rep, pool,
                                        hdo_expr_add(pool, K(1, 1), tiny), 1),
                 0);
    mpfr_t r;
    mpfr_init2(r, 100);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, big), HDO_ERR_DOMAIN);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, tiny), HDO_ERR_DOMAIN);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, hdo_expr_div(pool, big, big)),
                 0);
    cr_assert(mpfr_cmp_ui(r, 1) == 0);
    mpfr_clear(r);
}

/* A tiny nonzero value is not a zero: Calcium (at up to 20000 bits)
   separates exp(10^-4000) - 1 from 0. */
Test(expr_constants, tiny_nonzero_is_not_zero)
{
    fmpq_t q;
    fmpq_init(q);
    fmpz_one(fmpq_numref(q));
    fmpz_set_ui(fmpq_denref(q), 10);
    fmpz_pow_ui(fmpq_denref(q), fmpq_denref(q), 4000);
    hdo_expr e =
        hdo_expr_sub(pool, U(HDO_X_EXP, hdo_expr_const_fmpq(pool, q)), K(1, 1));
    hdo_const_report rep;
    cr_assert_eq(
        hdo_expr_const_examine(&rep, pool, hdo_expr_div(pool, K(1, 1), e), 1),
        0);
    cr_assert_eq(rep.assumed_zero, HDO_EXPR_NONE);
    mpfr_t r, w;
    mpfr_inits2(200, r, w, (mpfr_ptr)0);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    mpfr_set_str(w, "1e-4000", 10, MPFR_RNDN);
    cr_assert(mpfr_equal_p(r, w), "exp(1e-4000) - 1 is not 1e-4000 rounded");
    mpfr_clears(r, w, (mpfr_ptr)0);
    fmpq_clear(q);
}

/* Calcium 0.4 cannot prove 3^(log 2/log 3) - 2 = 0: the fallback takes
   it as zero and says so; dividing by it is refused. */
Test(expr_constants, fallback_zero_is_reported)
{
    hdo_expr l =
        hdo_expr_div(pool, U(HDO_X_LOG, K(2, 1)), U(HDO_X_LOG, K(3, 1)));
    hdo_expr e = hdo_expr_sub(pool, hdo_expr_pow(pool, K(3, 1), l), K(2, 1));
    hdo_const_report rep;
    cr_assert_eq(hdo_expr_const_examine(&rep, pool, e, 1), 0);
    cr_assert_eq(rep.assumed_zero, e);
    cr_assert_eq(
        hdo_expr_const_examine(&rep, pool, hdo_expr_div(pool, K(1, 1), e), 0),
        HDO_ERR_DOMAIN);
    mpfr_t r;
    mpfr_init2(r, 100);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    cr_assert(mpfr_zero_p(r));
    mpfr_clear(r);
}

/* asin(sin(pi/2)) = pi/2: an argument exactly 1 is at the edge of the
   domain, not outside it. */
Test(expr_constants, domain_edge_is_exact)
{
    hdo_expr e = U(HDO_X_ASIN, U(HDO_X_SIN, hdo_expr_div(pool, PI(), K(2, 1))));
    mpfr_t r, w;
    mpfr_inits2(200, r, w, (mpfr_ptr)0);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    mpfr_const_pi(w, MPFR_RNDN);
    mpfr_div_2ui(w, w, 1, MPFR_RNDN);
    cr_assert(mpfr_equal_p(r, w));
    mpfr_clears(r, w, (mpfr_ptr)0);
}

/* hdo_expr_enclose (the reset conditioning of issue 14): 1/x with x
   = 10^-40 known to 10^-35 meets the pole; 2 x + 1 with x = 3 known to
   3 10^-35 is 7 +- (2 * 3 * 10^-35); t's radius is its own. */
Test(expr_constants, enclose_finds_poles_and_radii)
{
    hdo_expr x = hdo_expr_var(pool, 0, 0);
    hdo_program_input in = {.var = 0, .order = 0, .slot = 0};
    mpfr_t mid, rad, xv, xr, t, rel;
    mpfr_inits2(200, mid, rad, xv, xr, t, rel, (mpfr_ptr)0);
    mpfr_set_str(rel, "1e-35", 10, MPFR_RNDN);
    mpfr_set_ui(t, 1, MPFR_RNDN);
    mpfr_set_str(xv, "1e-40", 10, MPFR_RNDN);
    mpfr_set(xr, rel, MPFR_RNDN);
    cr_assert_eq(hdo_expr_enclose(mid, rad, pool,
                                  hdo_expr_div(pool, K(1, 1), x), &in, xv, xr,
                                  1, t, rel, 232),
                 HDO_ERR_DOMAIN);
    mpfr_set_ui(xv, 3, MPFR_RNDN);
    mpfr_mul_ui(xr, rel, 3, MPFR_RNDN);
    hdo_expr e = hdo_expr_add(pool, hdo_expr_mul(pool, K(2, 1), x), K(1, 1));
    cr_assert_eq(
        hdo_expr_enclose(mid, rad, pool, e, &in, xv, xr, 1, t, rel, 232), 0);
    cr_assert(mpfr_cmp_ui(mid, 7) == 0);
    mpfr_mul_ui(t, rel, 6, MPFR_RNDN);
    mpfr_div(t, rad, t, MPFR_RNDN);
    cr_assert(mpfr_cmp_d(t, 0.999) > 0 && mpfr_cmp_d(t, 1.01) < 0,
              "radius / 6e-35 = %g", mpfr_get_d(t, MPFR_RNDN));
    mpfr_clears(mid, rad, xv, xr, t, rel, (mpfr_ptr)0);
}

/* A random expression of depth <= depth over x0, x1, x2 (inputs), t and
   constants, by +, -, *, negation and, with walk_kinds, / and sin (which
   the small path leaves to the walk). */
static hdo_expr
random_small(flint_rand_t rs, int depth, int walk_kinds)
{
    ulong r = n_randint(rs, depth > 0 ? (walk_kinds ? 11 : 9) : 4);
    switch (r) {
    case 0:
    case 1:
        return hdo_expr_var(pool, (slong)n_randint(rs, 3), 0);
    case 2:
        return hdo_expr_time(pool);
    case 3:
        return K((slong)n_randint(rs, 41) - 20, 1 + n_randint(rs, 9));
    case 4:
        return hdo_expr_neg(pool, random_small(rs, depth - 1, walk_kinds));
    case 5:
        return hdo_expr_add(pool, random_small(rs, depth - 1, walk_kinds),
                            random_small(rs, depth - 1, walk_kinds));
    case 6:
        return hdo_expr_sub(pool, random_small(rs, depth - 1, walk_kinds),
                            random_small(rs, depth - 1, walk_kinds));
    case 7:
    case 8:
        return hdo_expr_mul(pool, random_small(rs, depth - 1, walk_kinds),
                            random_small(rs, depth - 1, walk_kinds));
    case 9:
        return hdo_expr_div(pool, random_small(rs, depth - 1, walk_kinds),
                            random_small(rs, depth - 1, walk_kinds));
    default:
        return U(HDO_X_SIN, random_small(rs, depth - 1, walk_kinds));
    }
}

static int
same_number(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/* hdo_expr_enclose's small path (D-116) against the walk: the same
   status, mid and radius to the bit, on random expressions and balls
   (radii from 0 to the value's size, a NULL in_rad, an input listed
   twice, a missing one, infinite and NaN mids and radii).  A small path
   with another Arb operation for a kind, another rounding of the
   balls, or one that drops a node's finiteness test fails here. */
Test(expr_constants, enclose_small_path_as_the_walk)
{
    hdo_program_input in[4] = {{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {0, 0, 3}};
    mpfr_ptr xv = hdo_vec_init(4, 133), xr = hdo_vec_init(4, 64);
    mpfr_t m1, r1, m2, r2, t, trad;
    mpfr_inits2(133, m1, r1, m2, r2, t, (mpfr_ptr)0);
    mpfr_init2(trad, 64);
    flint_rand_t rs;
    flint_randinit(rs);
    int ok = 0, fail = 0;
    for (int trial = 0; trial < 4000; trial++) {
        hdo_expr e =
            random_small(rs, 1 + (int)n_randint(rs, 3), trial % 4 == 0);
        for (int q = 0; q < 4; q++) {
            mpfr_set_si(xv + q, (long)n_randint(rs, 2001) - 1000, MPFR_RNDN);
            mpfr_div_ui(xv + q, xv + q, 1 + n_randint(rs, 997), MPFR_RNDN);
            mpfr_mul_2si(xv + q, xv + q, (long)n_randint(rs, 200) - 100,
                         MPFR_RNDN);
            mpfr_mul_2si(xr + q, xv + q, -(long)n_randint(rs, 130), MPFR_RNDU);
            mpfr_abs(xr + q, xr + q, MPFR_RNDU);
            if (n_randint(rs, 40) == 0)
                mpfr_set_inf(xr + q, 1);
            if (n_randint(rs, 60) == 0)
                mpfr_set_nan(xv + q);
        }
        mpfr_set_si(t, (long)n_randint(rs, 100), MPFR_RNDN);
        mpfr_div_ui(t, t, 7, MPFR_RNDN);
        mpfr_set_str(trad, "1e-35", 10, MPFR_RNDN);
        slong nin = n_randint(rs, 8) == 0 ? 2 : 4; /* x2 missing: refused */
        mpfr_srcptr rad = n_randint(rs, 10) == 0 ? NULL : xr;
        mpfr_set_ui(m1, 5, MPFR_RNDN);
        mpfr_set(m2, m1, MPFR_RNDN);
        mpfr_set(r1, m1, MPFR_RNDN);
        mpfr_set(r2, m1, MPFR_RNDN);
        int s1 =
            hdo_expr_enclose(m1, r1, pool, e, in, xv, rad, nin, t, trad, 165);
        int s2 = hdo_expr_enclose_walk(m2, r2, pool, e, in, xv, rad, nin, t,
                                       trad, 165);
        cr_assert_eq(s1, s2, "trial %d", trial);
        cr_assert(same_number(m1, m2) && same_number(r1, r2), "trial %d",
                  trial);
        if (s1 == 0)
            ok++;
        else
            fail++;
    }
    cr_expect(ok > 2000 && fail > 100, "%d %d", ok, fail);
    flint_randclear(rs);
    hdo_vec_clear(xv, 4);
    hdo_vec_clear(xr, 4);
    mpfr_clears(m1, r1, m2, r2, t, trad, (mpfr_ptr)0);
}
