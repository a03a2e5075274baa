/* radau_conv.c -- the Radau stepper's conversions and scaled maximum
   on MPFR's limbs (decisions.md D-128) against MPFR's own operations,
   bit for bit: hdo_radau_scaled_max against mpfr_div RNDU, abs and max
   over every entry; hdo_radau_scaled_doubles against
   mpfr_get_d_2exp and ldexp; hdo_radau_unscale_doubles against
   mpfr_set_d and mpfr_mul_2si. */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <gmp.h>
#include "../../ref/step/radau.h"

/* the rule as written before D-128 */
static void
scaled_max_plain(mpfr_t e, mpfr_srcptr a, slong n, slong N, mpfr_srcptr sc)
{
    mpfr_t q;
    mpfr_init2(q, 64);
    for (slong k = 0; k < n; k++) {
        mpfr_srcptr s = sc + k % N;
        if (mpfr_zero_p(a + k))
            continue;
        if (mpfr_nan_p(a + k) || mpfr_zero_p(s)) {
            mpfr_set_inf(e, 1);
            break;
        }
        mpfr_div(q, a + k, s, MPFR_RNDU);
        mpfr_abs(q, q, MPFR_RNDU);
        mpfr_max(e, e, q, MPFR_RNDU);
    }
    mpfr_clear(q);
}

/* a random number of prec bits, sign either, exponent in [-lo, lo] */
static void
random_entry(mpfr_ptr x, gmp_randstate_t rs, long lo)
{
    mpfr_urandomb(x, rs);
    if (mpfr_zero_p(x))
        mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_mul_2si(x, x, (long)gmp_urandomm_ui(rs, 2 * lo + 1) - lo, MPFR_RNDN);
    if (gmp_urandomm_ui(rs, 2))
        mpfr_neg(x, x, MPFR_RNDN);
}

Test(step, radau_scaled_max_same_bits_as_mpfr)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 128);
    slong N = 15, n = 17 * N;
    mpfr_ptr a = hdo_vec_init(n, 170), sc = hdo_vec_init(N, 64);
    mpfr_t e1, e2;
    mpfr_inits2(64, e1, e2, (mpfr_ptr)0);
    for (int trial = 0; trial < 3000; trial++) {
        int kind = trial % 6;
        for (slong i = 0; i < N; i++) {
            random_entry(sc + i, rs, 20);
            mpfr_abs(sc + i, sc + i, MPFR_RNDN);
        }
        for (slong k = 0; k < n; k++) {
            random_entry(a + k, rs, kind == 0 ? 2 : 40);
            if (kind == 1 && k % 3 == 0)
                mpfr_set_zero(a + k, 1);
        }
        if (kind == 2) {
            /* ties: the same quotient by entries of both signs, and
               quotients one ulp of 64 bits apart */
            for (slong k = 0; k < n; k++) {
                mpfr_set(a + k, sc + k % N, MPFR_RNDN);
                if (k % 2)
                    mpfr_neg(a + k, a + k, MPFR_RNDN);
                if (k % 5 == 0)
                    mpfr_nextabove(a + k);
            }
        }
        if (kind == 3)
            mpfr_set_inf(a + gmp_urandomm_ui(rs, n), 1);
        if (kind == 4)
            mpfr_set_nan(a + gmp_urandomm_ui(rs, n));
        if (kind == 5 && trial % 12 == 5)
            mpfr_set_zero(sc + gmp_urandomm_ui(rs, N), 1);
        /* e's start: zero, or a value above some quotients */
        mpfr_set_zero(e1, 1);
        if (trial % 4 == 1)
            mpfr_set_d(e1, 0.75, MPFR_RNDN);
        mpfr_set(e2, e1, MPFR_RNDN);
        scaled_max_plain(e1, a, n, N, sc);
        hdo_radau_scaled_max(e2, a, n, N, sc);
        cr_assert(mpfr_equal_p(e1, e2) || (mpfr_nan_p(e1) && mpfr_nan_p(e2)),
                  "trial %d", trial);
    }
    mpfr_clears(e1, e2, (mpfr_ptr)0);
    hdo_vec_clear(a, n);
    hdo_vec_clear(sc, N);
    gmp_randclear(rs);
}

Test(step, radau_scaled_doubles_same_bits_as_mpfr)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 1280);
    mpfr_prec_t precs[] = {53, 64, 100, 128, 170, 300};
    slong ns = 64;
    double *x = malloc(ns * sizeof(double));
    for (int pi = 0; pi < 6; pi++) {
        mpfr_ptr R = hdo_vec_init(ns, precs[pi]);
        for (int trial = 0; trial < 400; trial++) {
            for (slong k = 0; k < ns; k++) {
                /* exponents far below the largest too: subnormal
                   doubles and the clamp */
                random_entry(R + k, rs, trial % 2 ? 1200 : 30);
                if (k % 7 == 3 && precs[pi] > 53) {
                    /* 1 + 2^-53: a tie at 53 bits, decided by a bit
                       below it (in the limbs below at prec > 64) */
                    mpfr_set_ui_2exp(R + k, (1UL << 53) + 1, -53, MPFR_RNDN);
                    if (k % 2)
                        mpfr_nextabove(R + k);
                    if (k % 4 == 1)
                        mpfr_neg(R + k, R + k, MPFR_RNDN);
                }
                if (k % 11 == 5)
                    mpfr_set_zero(R + k, k % 2 ? -1 : 1);
            }
            long emax = hdo_radau_scaled_doubles(x, R, NULL, ns);
            long e2 = LONG_MIN;
            for (slong k = 0; k < ns; k++)
                if (!mpfr_zero_p(R + k) && mpfr_get_exp(R + k) > e2)
                    e2 = mpfr_get_exp(R + k);
            cr_assert_eq(emax, e2);
            for (slong k = 0; k < ns; k++) {
                long e;
                double d = mpfr_get_d_2exp(&e, R + k, MPFR_RNDN);
                long de = e - emax < -1100 ? -1100 : e - emax;
                double want = mpfr_zero_p(R + k) ? 0 : ldexp(d, (int)de);
                cr_assert(want == x[k] && signbit(want) == signbit(x[k]),
                          "prec %ld trial %d k %ld: %a against %a",
                          (long)precs[pi], trial, (long)k, x[k], want);
            }
        }
        hdo_vec_clear(R, ns);
    }
    free(x);
    gmp_randclear(rs);
}

Test(step, radau_unscale_doubles_same_bits_as_mpfr)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 12800);
    mpfr_prec_t precs[] = {20, 53, 64, 170, 300};
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    for (int pi = 0; pi < 10; pi++) {
        /* the second half in a narrow exponent range: overflow and
           underflow as MPFR's calls give them */
        mpfr_set_emin(pi < 5 ? emin : -500);
        mpfr_set_emax(pi < 5 ? emax : 500);
        mpfr_t r1, r2;
        mpfr_inits2(precs[pi % 5], r1, r2, (mpfr_ptr)0);
        for (int trial = 0; trial < 5000; trial++) {
            double x;
            switch (trial % 8) {
            case 0:
                x = trial % 16 ? 0.0 : -0.0;
                break;
            case 1:
                x = ldexp(1.0 + gmp_urandomm_ui(rs, 1000), -1070);
                break; /* subnormal */
            case 2:
                x = trial % 3 ? INFINITY : NAN;
                break;
            default:
                x = ldexp((double)gmp_urandomb_ui(rs, 53) + 1,
                          (int)gmp_urandomm_ui(rs, 200) - 100);
            }
            if (trial % 5 == 1)
                x = -x;
            long e = (long)gmp_urandomm_ui(rs, 4000) - 2000;
            mpfr_set_d(r1, x, MPFR_RNDN);
            mpfr_mul_2si(r1, r1, e, MPFR_RNDN);
            mpfr_set_ui(r2, 7, MPFR_RNDN); /* stale limbs */
            mpfr_nextabove(r2);
            hdo_radau_unscale_doubles(r2, &x, 1, e);
            cr_assert(mpfr_nan_p(r1) ? mpfr_nan_p(r2)
                                     : mpfr_equal_p(r1, r2) &&
                                           mpfr_signbit(r1) == mpfr_signbit(r2),
                      "prec %ld: %a 2^%ld", (long)precs[pi % 5], x, e);
        }
        mpfr_clears(r1, r2, (mpfr_ptr)0);
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    gmp_randclear(rs);
}
