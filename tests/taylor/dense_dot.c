/* dense_dot.c -- the dense output as fused dot products with the powers of
 * h (ref/taylor/eval.c, decisions.md D-091): hdo_taylor_eval against the
 * exact sum of the same coefficients.
 *
 * After a real expansion of der(x) = -x the coefficients are replaced by
 * c_j = (-1)^j r_j with r_j random in [1/2, 1) 2^-j (terms of every sign
 * and size), and the point h by a random number in [-1, 1]; the exact
 * value S = sum c_j h^j is computed at 8 times the precision.  The bound:
 * half an ulp of the result, plus (j - 1) 2^-prec |c_j h^j| for each term
 * (h^j rounded j - 1 times), plus (p + 1) (2 n + 1) 2^(Emax - prec - 64)
 * with 2^Emax <= 8 times the largest term (the fused window's cut
 * partial products, n limbs: decisions.md D-108).  At 20 and 60 digits (the
 * fused path, 100 and 233 bits) and at 80 (299 bits: Horner, which the same
 * bound holds). */
#include "common.h"

static void
check_digits(long digits)
{
    hdo_error_t err;
    tt_case c;
    mpfr_t t0, h, S, term, bound, e, hp;
    gmp_randstate_t st;
    tt_init(&c, "model f\nvar x = 1\nmode m\n  der(x) = -x\nend\nstart m\n",
            digits, 0);
    mpfr_init2(t0, c.prec);
    mpfr_set_zero(t0, 1);
    cr_assert_eq(hdo_taylor_expand(c.tay, t0, c.xs, c.xu, &err), 0, "%s",
                 err.message);
    slong p = c.tay->order;
    mpfr_t *co = c.tay->state_coef;
    mpfr_prec_t wp = 8 * c.prec;
    mpfr_init2(h, c.prec);
    mpfr_inits2(wp, S, term, hp, (mpfr_ptr)0);
    mpfr_inits2(64, bound, e, (mpfr_ptr)0);
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)digits);
    for (int trial = 0; trial < 200; trial++) {
        for (slong j = 0; j <= p; j++) {
            mpfr_urandomb(co[j], st);
            mpfr_div_2ui(co[j], co[j], 1, MPFR_RNDN);
            mpfr_add_d(co[j], co[j], 0.5, MPFR_RNDN);
            mpfr_mul_2si(co[j], co[j], -(long)j, MPFR_RNDN);
            if (j % 2)
                mpfr_neg(co[j], co[j], MPFR_RNDN);
        }
        mpfr_urandomb(h, st);
        mpfr_mul_2ui(h, h, 1, MPFR_RNDN);
        mpfr_sub_ui(h, h, 1, MPFR_RNDN);
        hdo_taylor_eval(c.xs, NULL, NULL, c.tay, h);
        /* the sum at 8 times the precision: its own error is far below
           the bound */
        mpfr_set_zero(S, 1);
        mpfr_set_ui(hp, 1, MPFR_RNDN);
        mpfr_set_zero(bound, 1);
        mpfr_set_zero(e, 1);
        for (slong j = 0; j <= p; j++) {
            mpfr_mul(term, co[j], hp, MPFR_RNDN);
            mpfr_add(S, S, term, MPFR_RNDN);
            mpfr_abs(term, term, MPFR_RNDN);
            if (mpfr_cmp(term, e) > 0)
                mpfr_set(e, term, MPFR_RNDU); /* the largest term */
            mpfr_mul_ui(term, term, (unsigned long)(j > 0 ? j - 1 : 0),
                        MPFR_RNDU);
            mpfr_mul_2si(term, term, -(long)c.prec, MPFR_RNDU);
            mpfr_add(bound, bound, term, MPFR_RNDU);
            mpfr_mul(hp, hp, h, MPFR_RNDN);
        }
        mpfr_mul_ui(e, e,
                    (unsigned long)(p + 1) *
                        (2 * (unsigned long)((c.prec + 63) / 64) + 1) * 8,
                    MPFR_RNDU);
        mpfr_mul_2si(e, e, -(long)c.prec - 64, MPFR_RNDU);
        mpfr_add(bound, bound, e, MPFR_RNDU);
        mpfr_set_ui_2exp(e, 1, mpfr_get_exp(c.xs) - c.prec - 1, MPFR_RNDU);
        mpfr_add(bound, bound, e, MPFR_RNDU);
        /* and Horner's own growth above 256 bits: p rounded steps */
        if (c.prec > 256) {
            mpfr_mul_ui(bound, bound, (unsigned long)(p + 1), MPFR_RNDU);
        }
        mpfr_sub(term, S, c.xs, MPFR_RNDN);
        mpfr_abs(term, term, MPFR_RNDU);
        cr_assert(mpfr_cmp(term, bound) <= 0,
                  "%ld digits, trial %d: error %g above %g", digits, trial,
                  mpfr_get_d(term, MPFR_RNDN), mpfr_get_d(bound, MPFR_RNDN));
    }
    gmp_randclear(st);
    mpfr_clears(t0, h, (mpfr_ptr)0);
    mpfr_clears(S, term, hp, bound, e, (mpfr_ptr)0);
    tt_clear(&c);
}

Test(taylor_dense_dot, within_its_bound_20_digits)
{
    check_digits(20);
}
Test(taylor_dense_dot, within_its_bound_30_digits)
{
    check_digits(30); /* 3 limbs: the pendulum bench's */
}
Test(taylor_dense_dot, within_its_bound_60_digits)
{
    check_digits(60);
}
Test(taylor_dense_dot, horner_above_256_bits_80_digits)
{
    check_digits(80);
}
