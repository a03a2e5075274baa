/* expr_constants.c -- regression tests (issue 10, fuzzing and probing of
   the model language): constant sub-expressions with large exact
   arguments, and non-zero denominators below 2^-256.

   Expected values:
   - sin(123456789012345678901234567890123456789012345) and
     sin(10^100000): python3-mpmath 1.2.1,
       mp.dps = 60 (resp. 100200); mpmath.sin(mpf(N))
     (at these precisions the integer argument is exact).
   - 1/log(1 + x) = 1/x + 1/2 - x/12 + O(x^2) and
     1/(exp(x) - 1) = 1/x - 1/2 + x/12 + O(x^3) (Taylor series), so with
     x = 10^-100 (10^-90) both are 10^100 (10^90) to 90 digits. */
#include <criterion/criterion.h>
#include <string.h>
#include "expr.h"
#include "model.h"
#include "../pool_fixture.h"

TestSuite(regress_expr_constants, .init = pool_setup, .fini = pool_teardown);

#define BIG "123456789012345678901234567890123456789012345"
#define SIN_BIG "-0.74693330985520452654695338812835789987930006894905"
#define SIN_1E100000 "0.172237674247312330893792995129"

/* |got - want| <= 2^-e (1 + |want|) */
static int
close_to(const mpfr_t got, const char *want, int e)
{
    mpfr_t w, d;
    int ok;
    mpfr_inits2(256, w, d, (mpfr_ptr)0);
    mpfr_set_str(w, want, 10, MPFR_RNDN);
    mpfr_sub(d, got, w, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_abs(w, w, MPFR_RNDN);
    mpfr_add_ui(w, w, 1, MPFR_RNDN);
    mpfr_mul_2si(w, w, -e, MPFR_RNDN);
    ok = mpfr_lessequal_p(d, w);
    mpfr_clears(w, d, (mpfr_ptr)0);
    return ok;
}

static hdo_expr
big_const(const char *dec)
{
    fmpq_t q;
    hdo_expr e;
    fmpq_init(q);
    fmpz_set_str(fmpq_numref(q), dec, 10);
    e = hdo_expr_const_fmpq(pool, q);
    fmpq_clear(q);
    return e;
}

/* The flat program rounds every CONST leaf to its precision and then
   applies sin to the rounded argument: sin(round_128(N)) has nothing in
   common with sin(N) when N has more bits than the precision.  Found:
   `param p = sin(BIG)` made `hdo run` integrate der(x) = -0.29298...
   instead of -0.74693... */
Test(regress_expr_constants, program_sin_of_large_integer)
{
    hdo_expr e = hdo_expr_unary(pool, HDO_X_SIN, big_const(BIG));
    hdo_program_t p;
    hdo_expr bad;
    hdo_program_init(p, pool, &e, 1, 128);
    cr_assert_eq(hdo_program_eval(p, &bad), 0);
    cr_assert(close_to(p->value[p->root_slot[0]], SIN_BIG, 120),
              "sin(" BIG ") = %.17g, want " SIN_BIG,
              mpfr_get_d(p->value[p->root_slot[0]], MPFR_RNDN));
    hdo_program_clear(p);
}

Test(regress_expr_constants, eval_constant_sin_of_large_integer)
{
    hdo_expr e = hdo_expr_unary(pool, HDO_X_SIN, big_const(BIG));
    mpfr_t r;
    mpfr_init2(r, 128);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    cr_assert(close_to(r, SIN_BIG, 120), "got %.17g", mpfr_get_d(r, MPFR_RNDN));
    mpfr_clear(r);
}

/* sin(10^100000) is well defined; the Ziv loop of
   hdo_expr_eval_constant stops at 64 * prec + 4096 bits, far below the
   332193 bits the argument needs, and reports a domain error. */
Test(regress_expr_constants, eval_constant_sin_of_huge_integer)
{
    hdo_expr e;
    mpfr_t r;
    e = hdo_expr_pow(pool, hdo_expr_const_si(pool, 10, 1),
                     hdo_expr_const_si(pool, 100000, 1));
    e = hdo_expr_unary(pool, HDO_X_SIN, e);
    mpfr_init2(r, 64);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    cr_assert(close_to(r, SIN_1E100000, 60), "got %.17g",
              mpfr_get_d(r, MPFR_RNDN));
    mpfr_clear(r);
}

/* hdo_expr_const_check decides at a fixed 256 bits: a denominator that
   is not zero but below 2^-256 relative to its operands (here 10^-100)
   is reported as a division by zero. */
Test(regress_expr_constants, const_check_tiny_nonzero_denominator)
{
    hdo_expr x = hdo_expr_pow(pool, hdo_expr_const_si(pool, 10, 1),
                              hdo_expr_const_si(pool, -100, 1));
    hdo_expr one = hdo_expr_const_si(pool, 1, 1);
    hdo_expr den = hdo_expr_unary(pool, HDO_X_LOG, hdo_expr_add(pool, one, x));
    hdo_expr e = hdo_expr_div(pool, one, den), bad = HDO_EXPR_NONE;
    mpfr_t r;
    cr_assert_eq(hdo_expr_const_check(pool, e, &bad), 0,
                 "1/log(1 + 10^-100) refused (bad node %d)", (int)bad);
    mpfr_init2(r, 128);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e), 0);
    cr_assert(close_to(r, "1e100", 120), "got %.17g", mpfr_get_d(r, MPFR_RNDN));
    mpfr_clear(r);
}

Test(regress_expr_constants, model_param_tiny_nonzero_denominator)
{
    const char *text = "model m\n"
                       "param p = 1/(exp(10^-90) - 1)\n"
                       "var x = 0\n"
                       "mode a\n"
                       "  der(x) = p\n"
                       "end\n"
                       "start a\n";
    hdo_model_t m;
    hdo_error_t err;
    char msg[2048] = "";
    int status;
    hdo_error_clear(&err);
    hdo_model_init(m);
    status = hdo_model_parse_string(m, text, strlen(text), "tiny.hdae", &err);
    if (status != 0)
        hdo_error_format(msg, sizeof msg, &err);
    cr_expect_eq(status, 0, "%s", msg);
    hdo_model_clear(m);
}

/* Fuzz finding (model harness, 2026-11-23): 80^2^10800 in a mode equation
   took minutes (10800 squarings at every precision of the Ziv loop) for a
   value MPFR cannot hold (2^(6.3 2^10800)).  Such constants are refused at
   once; numbers just inside the range are still evaluated. */
Test(regress_expr_constants, huge_powers_refused_at_once)
{
    hdo_expr two = hdo_expr_const_si(pool, 2, 1),
             huge = hdo_expr_pow(
                 pool, hdo_expr_const_si(pool, 80, 1),
                 hdo_expr_pow(pool, two, hdo_expr_const_si(pool, 10800, 1))),
             bad = HDO_EXPR_NONE;
    mpfr_t r;
    mpfr_init2(r, 128);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, huge), HDO_ERR_DOMAIN);
    cr_assert_eq(hdo_expr_const_check(pool, huge, &bad), HDO_ERR_DOMAIN);
    cr_assert_eq(bad, huge);
    /* exp(2^70) is beyond the range too; exp(2^20) is not */
    hdo_expr e70 =
        hdo_expr_unary(pool, HDO_X_EXP,
                       hdo_expr_pow(pool, two, hdo_expr_const_si(pool, 70, 1)));
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e70), HDO_ERR_DOMAIN);
    hdo_expr e20 =
        hdo_expr_unary(pool, HDO_X_EXP,
                       hdo_expr_pow(pool, two, hdo_expr_const_si(pool, 20, 1)));
    cr_assert_eq(hdo_expr_eval_constant(r, pool, e20), 0);
    /* log2 exp(2^20) = 2^20 / ln 2 = 1512775.39...: the exponent is right */
    cr_assert_eq(mpfr_get_exp(r), 1512776);
    mpfr_clear(r);
}

/* Fuzz findings (model harness, 2026-11-23): 0^b with b a tiny positive
   rational (11e-30088) was "undecided" at every precision, and the
   denominator's 100,000 bits set the start of the precision loop, which
   then climbed to 6.4 million bits (minutes).  0^b = 0 for b > 0, tiny
   constants add no precision, and an exact zero divisor stops the loop at
   once. */
Test(regress_expr_constants, zero_to_a_tiny_power_and_exact_zero_divisors)
{
    fmpq_t q;
    fmpq_init(q);
    fmpz_set_ui(fmpq_numref(q), 11);
    fmpz_set_ui(fmpq_denref(q), 10);
    fmpz_pow_ui(fmpq_denref(q), fmpq_denref(q), 30088);
    hdo_expr tiny = hdo_expr_const_fmpq(pool, q);
    fmpq_clear(q);
    hdo_expr zero = hdo_expr_const_si(pool, 0, 1),
             z = hdo_expr_pow(pool, zero, tiny), bad = HDO_EXPR_NONE;
    mpfr_t r;
    mpfr_init2(r, 128);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, z), 0);
    cr_assert(mpfr_zero_p(r));
    /* 1/(0^tiny) is undefined for certain: refused, by both routines */
    hdo_expr inv = hdo_expr_div(pool, hdo_expr_const_si(pool, 1, 1), z);
    cr_assert_eq(hdo_expr_eval_constant(r, pool, inv), HDO_ERR_DOMAIN);
    cr_assert_eq(hdo_expr_const_check(pool, inv, &bad), HDO_ERR_DOMAIN);
    cr_assert_eq(bad, inv);
    mpfr_clear(r);
}
