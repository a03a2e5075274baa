/* fallback_thresholds.c -- the constants' zero fallback at its boundary:
 * where Calcium cannot decide whether a constant is zero, its ball is taken
 * as zero when an upper bound of |x| is <= 2^-bits, bits being 16000 for
 * the parser's decisions and max(4 prec, 16000) for a value wanted to prec
 * bits (ref/expr/constant.c, through hdo_const_fallback_bits and
 * hdo_const_tiny_ball of ref/expr/exact.h).  Balls are built with exact
 * dyadic midpoints and radii, so their bounds are known exactly. */
#include <criterion/criterion.h>
#include <arb.h>
#include "expr/exact.h"

/* The ball m 2^e +- r 2^f (exact). */
static void
ball(arb_t x, slong m, slong e, slong r, slong f)
{
    arb_set_si(x, m);
    arb_mul_2exp_si(x, x, e);
    mag_set_ui(arb_radref(x), (ulong)r);
    mag_mul_2exp_si(arb_radref(x), arb_radref(x), f);
}

/* Both sides of 2^-bits: a point on it, a ball reaching it exactly, and
   the same 1 +- 2^-10 and a factor 2 either side; and both signs. */
static void
check_boundary(slong bits)
{
    arb_t x;
    arb_init(x);
    for (int s = -1; s <= 1; s += 2) {
        ball(x, s, -bits, 0, 0); /* exactly 2^-bits */
        cr_expect(hdo_const_tiny_ball(x, bits), "+-2^-%ld", (long)bits);
        ball(x, s * 1025, -bits - 10, 0, 0);
        cr_expect(!hdo_const_tiny_ball(x, bits), "2^-%ld (1 + 2^-10)",
                  (long)bits);
        ball(x, s * 1023, -bits - 10, 0, 0);
        cr_expect(hdo_const_tiny_ball(x, bits), "2^-%ld (1 - 2^-10)",
                  (long)bits);
        ball(x, s, -bits + 1, 0, 0);
        cr_expect(!hdo_const_tiny_ball(x, bits), "2^(1-%ld)", (long)bits);
        /* 2^-(bits+1) +- 2^-(bits+1): |x| <= 2^-bits exactly */
        ball(x, s, -bits - 1, 1, -bits - 1);
        cr_expect(hdo_const_tiny_ball(x, bits), "ball to 2^-%ld", (long)bits);
        ball(x, s, -bits - 1, 1025, -bits - 11);
        cr_expect(!hdo_const_tiny_ball(x, bits), "ball past 2^-%ld",
                  (long)bits);
    }
    ball(x, 0, 0, 1, -bits); /* 0 +- 2^-bits */
    cr_expect(hdo_const_tiny_ball(x, bits));
    ball(x, 0, 0, 1025, -bits - 10);
    cr_expect(!hdo_const_tiny_ball(x, bits));
    arb_clear(x);
}

Test(expr_fallback, parser_threshold_2_to_minus_16000)
{
    cr_assert_eq(hdo_const_fallback_bits(0), 16000);
    check_boundary(hdo_const_fallback_bits(0));
}

/* max(4 prec, 16000): 16000 up to 4000 bits, then 4 prec. */
Test(expr_fallback, run_time_threshold_max_4prec_16000)
{
    static const slong precs[] = {1,    64,   333,  3999, 4000,
                                  4001, 4002, 5000, 12345};
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        slong p = precs[i], want = 4 * p > 16000 ? 4 * p : 16000;
        cr_expect_eq(hdo_const_fallback_bits(p), want, "%ld bits", (long)p);
        check_boundary(hdo_const_fallback_bits(p));
    }
    /* 2^-16002 at 4000 and 4001 bits: zero, then not (16004 bits) */
    arb_t x;
    arb_init(x);
    ball(x, 1, -16002, 0, 0);
    cr_expect(hdo_const_tiny_ball(x, hdo_const_fallback_bits(4000)));
    cr_expect(!hdo_const_tiny_ball(x, hdo_const_fallback_bits(4001)));
    arb_clear(x);
}

/* bits 0: never zero, not even the exact zero's ball. */
Test(expr_fallback, zero_bits_never)
{
    arb_t x;
    arb_init(x);
    cr_expect(!hdo_const_tiny_ball(x, 0));
    arb_clear(x);
}
