/* drift_up.c -- hdo_run_drift_up (floors.c, decisions.md D-133): the
 * drift of a guard's coefficient within an event time's uncertainty,
 * rounded up on the limbs, against own_error's loop of mpfr calls with
 * MPFR_RNDU: the same bits, or not taken. */
#include <criterion/criterion.h>
#include <flint/flint.h>
#include "hybrid/driver.h"

/* own_error's loop as it was */
static void
drift_mpfr(mpfr_t out, mpfr_srcptr coef, slong order, slong last,
           const mpfr_t dt)
{
    mpfr_t r, trad;
    mpfr_inits2(64, r, trad, (mpfr_ptr)0);
    mpfr_set(trad, dt, MPFR_RNDU);
    for (slong k = order + 1; k <= last; k++) {
        mpfr_abs(r, coef + k, MPFR_RNDU);
        if (order == 1)
            mpfr_mul_ui(r, r, (unsigned long)k, MPFR_RNDU);
        mpfr_mul(r, r, trad, MPFR_RNDU);
        mpfr_add(out, out, r, MPFR_RNDU);
        mpfr_mul(trad, trad, dt, MPFR_RNDU);
    }
    mpfr_clears(r, trad, (mpfr_ptr)0);
}

/* a random coefficient: 0, a power of 2, all ones, or random limbs, of
   either sign, exponents over a wide range (the products then carry,
   round exactly or not, and the sums align from 0 to beyond 64 bits) */
static void
random_number(mpfr_t x, flint_rand_t st, long espan)
{
    int kind = (int)n_randint(st, 8);
    if (kind == 0) {
        mpfr_set_zero(x, n_randint(st, 2) ? 1 : -1);
        return;
    }
    slong n = (mpfr_get_prec(x) + 63) / 64;
    mpfr_set_ui(x, 1, MPFR_RNDN);
    for (slong i = 0; i < n; i++)
        x->_mpfr_d[i] = kind == 1 ? 0 : kind == 2 ? ~0UL : n_randtest(st);
    x->_mpfr_d[n - 1] |= 1UL << 63;
    if (kind == 1)
        x->_mpfr_d[n - 1] = 1UL << 63;
    /* the unused low bits of the last limb are 0 */
    slong used = mpfr_get_prec(x) - 64 * (n - 1);
    if (used < 64)
        x->_mpfr_d[0] &= ~0UL << (64 - used);
    mpfr_set_exp(x, (mpfr_exp_t)((long)n_randint(st, 2 * espan + 1) - espan));
    if (n_randint(st, 2))
        mpfr_neg(x, x, MPFR_RNDN);
}

Test(hybrid_drift_up, same_bits_as_mpfr_round_up)
{
    flint_rand_t st;
    flint_randinit(st);
    slong taken = 0;
    for (int it = 0; it < 20000; it++) {
        mpfr_prec_t prec = it % 3 == 0 ? 64 : it % 3 == 1 ? 113 : 200;
        slong len = 1 + (slong)n_randint(st, 60);
        slong order = (slong)n_randint(st, 2);
        mpfr_ptr c = flint_malloc(len * sizeof *c);
        for (slong k = 0; k < len; k++) {
            mpfr_init2(c + k, prec);
            random_number(c + k, st, it % 2 ? 80 : 4);
        }
        mpfr_t dt, a, b;
        mpfr_inits2(64, dt, a, b, (mpfr_ptr)0);
        random_number(dt, st, it % 2 ? 100 : 3);
        mpfr_abs(dt, dt, MPFR_RNDN);
        if (mpfr_zero_p(dt))
            mpfr_set_ui(dt, 1, MPFR_RNDN);
        random_number(a, st, 60);
        mpfr_abs(a, a, MPFR_RNDN);
        mpfr_set(b, a, MPFR_RNDN);
        slong last = len - 1;
        drift_mpfr(a, c, order, last, dt);
        if (hdo_run_drift_up(b, c, order, last, dt) == 0) {
            taken++;
            /* the same number, a zero of the same sign */
            cr_assert(mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b),
                      "iteration %d: order %ld, %ld terms", it, (long)order,
                      (long)len);
        } else {
            cr_assert(0, "iteration %d not taken", it);
        }
        for (slong k = 0; k < len; k++)
            mpfr_clear(c + k);
        flint_free(c);
        mpfr_clears(dt, a, b, (mpfr_ptr)0);
    }
    cr_assert_eq(taken, 20000);
    flint_randclear(st);
}

/* not taken, out unchanged: another precision of out, dt <= 0, an
   infinity among the coefficients */
Test(hybrid_drift_up, refuses_what_the_limbs_do_not_hold)
{
    mpfr_ptr c = flint_malloc(3 * sizeof *c);
    for (int i = 0; i < 3; i++) {
        mpfr_init2(c + i, 100);
        mpfr_set_d(c + i, 1.5 + i, MPFR_RNDN);
    }
    mpfr_t dt, out, o128;
    mpfr_inits2(64, dt, out, (mpfr_ptr)0);
    mpfr_init2(o128, 128);
    mpfr_set_d(dt, 1e-20, MPFR_RNDN);
    mpfr_set_d(out, 2.0, MPFR_RNDN);
    mpfr_set_d(o128, 2.0, MPFR_RNDN);
    cr_assert_eq(hdo_run_drift_up(o128, c, 0, 2, dt), 1);
    mpfr_neg(dt, dt, MPFR_RNDN);
    cr_assert_eq(hdo_run_drift_up(out, c, 0, 2, dt), 1);
    mpfr_neg(dt, dt, MPFR_RNDN);
    mpfr_set_inf(c + 2, 1);
    cr_assert_eq(hdo_run_drift_up(out, c, 0, 2, dt), 1);
    cr_assert_eq(mpfr_cmp_d(out, 2.0), 0);
    cr_assert_eq(mpfr_cmp_d(o128, 2.0), 0);
    mpfr_set_d(c + 2, 3.5, MPFR_RNDN);
    cr_assert_eq(hdo_run_drift_up(out, c, 0, 2, dt), 0);
    cr_assert_gt(mpfr_cmp_d(out, 2.0), 0);
    /* exponents up to 2^16 taken, beyond refused (MPFR's default range
       2^30 holds 2 2^16 4098 + 64); 4096 terms taken, 4097 refused */
    mpfr_set_ui_2exp(c + 2, 1, (1L << 16) - 1, MPFR_RNDN); /* exponent 2^16 */
    cr_assert_eq(hdo_run_drift_up(out, c, 0, 2, dt), 0);
    mpfr_mul_2ui(c + 2, c + 2, 1, MPFR_RNDN);
    mpfr_set(o128, out, MPFR_RNDN);
    cr_assert_eq(hdo_run_drift_up(out, c, 0, 2, dt), 1);
    cr_assert(mpfr_equal_p(out, o128));
    mpfr_ptr z = flint_malloc(4098 * sizeof *z);
    for (slong k = 0; k < 4098; k++)
        mpfr_init2(z + k, 64), mpfr_set_zero(z + k, 1);
    cr_assert_eq(hdo_run_drift_up(out, z, 0, 4096, dt), 0);
    cr_assert_eq(hdo_run_drift_up(out, z, 0, 4097, dt), 1);
    cr_assert_eq(hdo_run_drift_up(out, z, 1, 4097, dt), 0);
    for (slong k = 0; k < 4098; k++)
        mpfr_clear(z + k);
    flint_free(z);
    for (int i = 0; i < 3; i++)
        mpfr_clear(c + i);
    flint_free(c);
    mpfr_clears(dt, out, (mpfr_ptr)0);
    mpfr_clear(o128);
}
