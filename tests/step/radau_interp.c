/* radau_interp.c -- the dense output's coefficients as dot products
   (ref/step/radau_nodes.c's hdo_radau_interp_inverse, radau_dot.c's
   hdo_radau_dot_apply; decisions.md D-136): the scaled inverse of the
   nodes' Vandermonde against the identity, each dot product within its
   stated error of the exact one, and the polynomial 2^e Ci Z through
   every stage (c_m, Z_m) to the working precision. */
#include <criterion/criterion.h>
#include <arb_mat.h>
#include <limits.h>
#include <math.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_dot.h"

static const slong stage_counts[5] = {3, 9, 17, 24, 45};

/* the run's precision at D digits and radau_setup.c's working one */
static mpfr_prec_t
working_prec(slong s, int digits)
{
    return (mpfr_prec_t)((digits + 10) * 3.3219280948873623) + 3 * s + 32;
}

/* The nodes of s stages at w bits (returned) and Ci := 2^-e C^-1 at w
   bits (hdo_radau_interp_inverse); both asserted to succeed. */
static mpfr_ptr
nodes_and_inverse(hdo_mat_t Ci, long *e, slong s, mpfr_prec_t w)
{
    mpfr_ptr nodes = hdo_vec_init(s, w);
    hdo_mat_init(Ci, s, s, w);
    cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
    cr_assert_eq(hdo_radau_interp_inverse(Ci, e, nodes, s), 0);
    return nodes;
}

Test(step_interp, inverse_times_vandermonde_is_identity)
{
    for (int c = 0; c < 5; c++) {
        slong s = stage_counts[c];
        mpfr_prec_t w = working_prec(s, 16), p = 4 * w;
        hdo_mat_t Ci;
        long e = 0;
        mpfr_ptr nodes = nodes_and_inverse(Ci, &e, s, w);
        mpfr_t acc, t, pw, worst;
        mpfr_inits2(p, acc, t, pw, (mpfr_ptr)0);
        mpfr_init2(worst, 64);
        mpfr_set_zero(worst, 1);
        int below_one = 1, reaches_half = 0;
        for (slong i = 0; i < s * s; i++) {
            mpfr_srcptr x = hdo_mat_entry(Ci, i / s, i % s);
            below_one &= mpfr_cmpabs_ui(x, 1) < 0;
            reaches_half |= mpfr_get_exp(x) == 0;
        }
        /* (2^e Ci C)_ij = sum_k Ci_ik 2^e c_k^(j+1), exactly at p bits */
        for (slong i = 0; i < s; i++)
            for (slong j = 0; j < s; j++) {
                mpfr_set_zero(acc, 1);
                for (slong k = 0; k < s; k++) {
                    mpfr_pow_ui(pw, nodes + k, (unsigned long)j + 1, MPFR_RNDN);
                    mpfr_mul(t, hdo_mat_entry(Ci, i, k), pw, MPFR_RNDN);
                    mpfr_add(acc, acc, t, MPFR_RNDN);
                }
                mpfr_mul_2si(acc, acc, e, MPFR_RNDN);
                if (i == j)
                    mpfr_sub_ui(acc, acc, 1, MPFR_RNDN);
                mpfr_abs(acc, acc, MPFR_RNDN);
                mpfr_max(worst, worst, acc, MPFR_RNDN);
            }
        /* each entry rounded once at w bits below 2^e: s of them a
           sum, times c^(j+1) <= 1 */
        mpfr_set_ui_2exp(t, (unsigned long)s, e - (long)w, MPFR_RNDN);
        cr_expect(mpfr_cmp(worst, t) <= 0,
                  "s = %ld: |2^e Ci C - I| = %.3e against %.3e (e = %ld)",
                  (long)s, mpfr_get_d(worst, MPFR_RNDN),
                  mpfr_get_d(t, MPFR_RNDN), e);
        cr_expect(below_one && reaches_half,
                  "s = %ld: Ci's largest entry in [1/2, 1)", (long)s);
        mpfr_clears(acc, t, pw, worst, (mpfr_ptr)0);
        hdo_mat_clear(Ci);
        hdo_vec_clear(nodes, s);
    }
}

/* F of s x n entries at prec bits over sizes 2^-60 .. 2^60, mixed
   signs, a zero column and zeros */
static void
fill(mpfr_ptr F, slong s, slong n, gmp_randstate_t rs)
{
    for (slong k = 0; k < s * n; k++) {
        unsigned long u = gmp_urandomm_ui(rs, 1000);
        mpfr_urandomb(F + k, rs);
        mpfr_mul_2si(F + k, F + k, (long)(u % 121) - 60, MPFR_RNDN);
        if (u % 2 == 1)
            mpfr_neg(F + k, F + k, MPFR_RNDN);
        if (u % 19 == 0 || k % n == n - 1)
            mpfr_set_zero(F + k, 1);
    }
}

/* The exponent of column k's largest entry of F (rows x n), LONG_MIN
   when the column is zero. */
static long
column_exp(mpfr_srcptr F, slong rows, slong n, slong k)
{
    long ek = LONG_MIN;
    for (slong j = 0; j < rows; j++)
        if (!mpfr_zero_p(F + j * n + k) && mpfr_get_exp(F + j * n + k) > ek)
            ek = mpfr_get_exp(F + j * n + k);
    return ek;
}

/* Whether |got - exact| <= bound + |exact| 2^-w (the result's own
   rounding at w bits); the error into err. */
static int
within(mpfr_t err, mpfr_srcptr got, const mpfr_t exact, mpfr_t bound,
       mpfr_prec_t w)
{
    mpfr_mul_2si(err, exact, -(long)w, MPFR_RNDN);
    mpfr_abs(err, err, MPFR_RNDN);
    mpfr_add(bound, bound, err, MPFR_RNDU);
    mpfr_sub(err, got, exact, MPFR_RNDN);
    mpfr_abs(err, err, MPFR_RNDN);
    return mpfr_cmp(err, bound) <= 0;
}

/* Each entry of Ci (Traub's algorithm since decisions.md D-145) is C^-1's
   entry times 2^-e correctly rounded to Ci's precision: against Arb's
   inverse of C (its own LU, in balls at twice the bits), every ball
   narrow enough that both its ends round to the same w-bit number, and
   that number Ci's; e the exponent of C^-1's largest entry.  Up to 73
   stages (Van der Pol at 100 digits takes 72) at 16 and 100 digits, and
   141 (200 digits' count) at 16. */
Test(step_interp, inverse_correctly_rounded_against_arb)
{
    const slong counts[6] = {3, 9, 24, 45, 73, 141};
    const int digits[2] = {16, 100};
    for (int c = 0; c < 6; c++)
        for (int di = 0; di < 2 - (counts[c] > 100); di++) {
            slong s = counts[c];
            mpfr_prec_t w = working_prec(s, digits[di]), p = 2 * w + 16 * s;
            hdo_mat_t Ci;
            long e = 0;
            mpfr_ptr nodes = nodes_and_inverse(Ci, &e, s, w);
            arb_mat_t C, X;
            arb_mat_init(C, s, s);
            arb_mat_init(X, s, s);
            for (slong m = 0; m < s; m++) {
                arb_t cm;
                arb_init(cm);
                arf_set_mpfr(arb_midref(cm), nodes + m);
                arb_set(arb_mat_entry(C, m, 0), cm);
                for (slong k = 1; k < s; k++)
                    arb_mul(arb_mat_entry(C, m, k), arb_mat_entry(C, m, k - 1),
                            cm, p);
                arb_clear(cm);
            }
            cr_assert(arb_mat_inv(X, C, p), "s = %ld: Arb's inverse", (long)s);
            mpfr_t lo, hi, rl, rh;
            mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
            mpfr_inits2(w, rl, rh, (mpfr_ptr)0);
            long wrong = 0, open = 0, emax = LONG_MIN;
            for (slong i = 0; i < s; i++)
                for (slong k = 0; k < s; k++) {
                    arb_ptr x = arb_mat_entry(X, i, k);
                    arb_get_interval_mpfr(lo, hi, x);
                    mpfr_set(rl, lo, MPFR_RNDN);
                    if (!mpfr_zero_p(rl) && mpfr_get_exp(rl) > emax)
                        emax = mpfr_get_exp(rl);
                    /* 2^-e exactly, then each end rounded to w bits */
                    mpfr_mul_2si(lo, lo, -e, MPFR_RNDN);
                    mpfr_mul_2si(hi, hi, -e, MPFR_RNDN);
                    mpfr_set(rl, lo, MPFR_RNDN);
                    mpfr_set(rh, hi, MPFR_RNDN);
                    if (!mpfr_equal_p(rl, rh)) {
                        open++;
                        continue;
                    }
                    wrong += !mpfr_equal_p(rl, hdo_mat_entry(Ci, i, k));
                }
            cr_expect_eq(open, 0, "s = %ld, %d digits: %ld balls undecided",
                         (long)s, digits[di], open);
            cr_expect_eq(wrong, 0, "s = %ld, %d digits: %ld entries off",
                         (long)s, digits[di], wrong);
            cr_expect_eq(e, emax, "s = %ld: e %ld, Arb's %ld", (long)s, e,
                         emax);
            mpfr_clears(lo, hi, rl, rh, (mpfr_ptr)0);
            arb_mat_clear(C);
            arb_mat_clear(X);
            hdo_mat_clear(Ci);
            hdo_vec_clear(nodes, s);
        }
    flint_cleanup();
}

Test(step_interp, dot_apply_within_its_error)
{
    /* 450 bits: l capped at lmax, A's own limbs plus one */
    const mpfr_prec_t precs[5] = {64, 100, 170, 300, 450};
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 31136);
    long checked = 0;
    for (int c = 0; c < 4; c++)
        for (int pi = 0; pi < 5; pi++) {
            slong s = stage_counts[c], n = 4;
            mpfr_prec_t w = working_prec(s, 30), prec = precs[pi];
            mpfr_ptr nodes = hdo_vec_init(s, w);
            mpfr_ptr F = hdo_vec_init(s * n, w);
            mpfr_ptr out = hdo_vec_init(s * n, w);
            hdo_mat_t A;
            hdo_radau_dot d;
            hdo_mat_init(A, s, s, w);
            cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
            cr_assert_eq(hdo_radau_matrix(A, nodes, s), 0);
            hdo_radau_dot_init(&d, A, n);
            fill(F, s, n, rs);
            hdo_radau_dot_apply(out, &d, F, n, (long)prec, 0);
            /* the mpn path gives the columns' bits, scaled exactly */
            hdo_radau_dot d2;
            mpfr_ptr out2 = hdo_vec_init(s * n, w);
            hdo_radau_dot_init(&d2, A, n);
            d2.no_cols = 1;
            hdo_radau_dot_apply(out2, &d2, F, n, (long)prec, -7);
            for (slong k = 0; k < s * n; k++) {
                mpfr_mul_2si(out2 + k, out2 + k, 7, MPFR_RNDN);
                cr_expect(mpfr_equal_p(out + k, out2 + k) ||
                              (mpfr_zero_p(out + k) && mpfr_zero_p(out2 + k)),
                          "s = %ld, prec %ld, entry %ld: mpn and columns "
                          "differ",
                          (long)s, (long)prec, (long)k);
            }
            hdo_radau_dot_clear(&d2);
            hdo_vec_clear(out2, s * n);
            slong l = (prec + 63) / 64;
            if (l > d.lmax)
                l = d.lmax;
            mpfr_t exact, t, bound, sa;
            mpfr_inits2(4 * w + 512, exact, t, bound, sa, (mpfr_ptr)0);
            for (slong k = 0; k < n; k++) {
                long ek = column_exp(F, s, n, k);
                for (slong i = 0; i < s; i++) {
                    /* the exact sum, and the bound: F's roundings (half
                       of 2^(ek - prec) each, times sum |a|), A's (half
                       of 2^-64l each, times sum |F|), the result's */
                    mpfr_set_zero(exact, 1);
                    mpfr_set_zero(sa, 1);
                    mpfr_set_zero(bound, 1);
                    for (slong j = 0; j < s; j++) {
                        mpfr_srcptr a = hdo_mat_entry(A, i, j);
                        mpfr_mul(t, a, F + j * n + k, MPFR_RNDN);
                        mpfr_add(exact, exact, t, MPFR_RNDN);
                        mpfr_abs(t, a, MPFR_RNDN);
                        mpfr_add(sa, sa, t, MPFR_RNDN);
                        mpfr_abs(t, F + j * n + k, MPFR_RNDN);
                        mpfr_add(bound, bound, t, MPFR_RNDN);
                    }
                    mpfr_mul_2si(bound, bound, -64 * l - 1, MPFR_RNDN);
                    if (ek != LONG_MIN) {
                        mpfr_mul_2si(sa, sa, ek - (long)prec - 1, MPFR_RNDN);
                        mpfr_add(bound, bound, sa, MPFR_RNDN);
                    }
                    cr_expect(within(t, out + i * n + k, exact, bound, w),
                              "s = %ld, prec %ld, (%ld, %ld): error %.3e "
                              "above %.3e",
                              (long)s, (long)prec, (long)i, (long)k,
                              mpfr_get_d(t, MPFR_RNDN),
                              mpfr_get_d(bound, MPFR_RNDN));
                    if (ek == LONG_MIN)
                        cr_expect(mpfr_zero_p(out + i * n + k));
                    checked++;
                }
            }
            mpfr_clears(exact, t, bound, sa, (mpfr_ptr)0);
            hdo_radau_dot_clear(&d);
            hdo_mat_clear(A);
            hdo_vec_clear(nodes, s);
            hdo_vec_clear(F, s * n);
            hdo_vec_clear(out, s * n);
        }
    gmp_randclear(rs);
    cr_expect(checked == 5L * 4 * (3 + 9 + 17 + 24));
}

/* The dense output's coefficients as radau_dense.c's interpolate makes
   them, b = 2^e Ci Z at wprec: the polynomial sum_k b_k c_m^k returns
   every Z_m to about wprec bits below |Z| (the LU solve of the
   (s + 1)^2 Vandermonde it replaced lost up to 3 s of them). */
Test(step_interp, polynomial_through_the_stages)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 1361);
    for (int c = 0; c < 5; c++)
        for (int digits = 16; digits <= 60; digits += 44) {
            slong s = stage_counts[c], n = 3;
            mpfr_prec_t w = working_prec(s, digits);
            mpfr_ptr nodes = hdo_vec_init(s, w);
            mpfr_ptr Z = hdo_vec_init(s * n, w);
            mpfr_ptr B = hdo_vec_init(s * n, w);
            hdo_mat_t Ci;
            hdo_radau_dot d;
            long e = 0;
            hdo_mat_init(Ci, s, s, w);
            cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
            cr_assert_eq(hdo_radau_interp_inverse(Ci, &e, nodes, s), 0);
            hdo_radau_dot_init(&d, Ci, n);
            /* smooth stages: Z_m = sum_q g_q c_m^q, g_q of size 3^-q,
               each component its own scale */
            for (slong k = 0; k < n; k++) {
                mpfr_t g, pw, t;
                mpfr_inits2(w, g, pw, t, (mpfr_ptr)0);
                for (slong m = 0; m < s; m++)
                    mpfr_set_zero(Z + m * n + k, 1);
                for (slong q = 1; q <= s; q++) {
                    mpfr_urandomb(g, rs);
                    mpfr_sub_d(g, g, 0.5, MPFR_RNDN);
                    mpfr_mul_2si(g, g, 40 * (long)k - 40, MPFR_RNDN);
                    mpfr_div_d(g, g, pow(3.0, (double)q), MPFR_RNDN);
                    for (slong m = 0; m < s; m++) {
                        mpfr_pow_ui(pw, nodes + m, (unsigned long)q, MPFR_RNDN);
                        mpfr_mul(t, g, pw, MPFR_RNDN);
                        mpfr_add(Z + m * n + k, Z + m * n + k, t, MPFR_RNDN);
                    }
                }
                mpfr_clears(g, pw, t, (mpfr_ptr)0);
            }
            hdo_radau_dot_apply(B, &d, Z, n, (long)w, e);
            mpfr_t v, pw, t, zmax;
            mpfr_inits2(2 * w, v, pw, t, zmax, (mpfr_ptr)0);
            for (slong k = 0; k < n; k++) {
                mpfr_set_zero(zmax, 1);
                for (slong m = 0; m < s; m++) {
                    mpfr_abs(t, Z + m * n + k, MPFR_RNDN);
                    mpfr_max(zmax, zmax, t, MPFR_RNDN);
                }
                for (slong m = 0; m < s; m++) {
                    mpfr_set_zero(v, 1);
                    for (slong q = 1; q <= s; q++) {
                        mpfr_pow_ui(pw, nodes + m, (unsigned long)q, MPFR_RNDN);
                        mpfr_mul(t, B + (q - 1) * n + k, pw, MPFR_RNDN);
                        mpfr_add(v, v, t, MPFR_RNDN);
                    }
                    mpfr_sub(v, v, Z + m * n + k, MPFR_RNDN);
                    mpfr_abs(v, v, MPFR_RNDN);
                    /* 2^(e + 3 + log2 s) ulps of wprec below |Z|: the
                       inverse's size times its roundings, s terms */
                    mpfr_mul_2si(t, zmax, e + 8 - (long)w, MPFR_RNDN);
                    mpfr_mul_ui(t, t, (unsigned long)s, MPFR_RNDN);
                    cr_expect(mpfr_cmp(v, t) <= 0,
                              "s = %ld, %d digits, component %ld, stage "
                              "%ld: |p(c_m) - Z_m| = %.3e above %.3e",
                              (long)s, digits, (long)k, (long)m,
                              mpfr_get_d(v, MPFR_RNDN),
                              mpfr_get_d(t, MPFR_RNDN));
                }
            }
            mpfr_clears(v, pw, t, zmax, (mpfr_ptr)0);
            hdo_radau_dot_clear(&d);
            hdo_mat_clear(Ci);
            hdo_vec_clear(nodes, s);
            hdo_vec_clear(Z, s * n);
            hdo_vec_clear(B, s * n);
        }
    gmp_randclear(rs);
}

/* The scale 2^e is applied to the exact sum: b = 2^e Ci Z of stages
   near the bottom of a narrow exponent range (emin = -500, as
   tests/hybrid/time_terms.c narrows it) comes out as in the full
   range, where 2^-e b (e = 56 at s = 24) would have underflowed. */
Test(step_interp, scale_inside_a_narrow_exponent_range)
{
    slong s = 24, n = 2;
    mpfr_prec_t w = working_prec(s, 30);
    mpfr_ptr nodes = hdo_vec_init(s, w);
    mpfr_ptr Z = hdo_vec_init(s * n, w);
    mpfr_ptr B1 = hdo_vec_init(s * n, w), B2 = hdo_vec_init(s * n, w);
    hdo_mat_t Ci;
    hdo_radau_dot d;
    long e = 0;
    hdo_mat_init(Ci, s, s, w);
    cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
    cr_assert_eq(hdo_radau_interp_inverse(Ci, &e, nodes, s), 0);
    cr_assert_eq(e, 56);
    hdo_radau_dot_init(&d, Ci, n);
    /* Z_m = 2^-450 (c_m + c_m^2 / 3), the second column its negative */
    for (slong m = 0; m < s; m++) {
        mpfr_sqr(Z + m * n, nodes + m, MPFR_RNDN);
        mpfr_div_ui(Z + m * n, Z + m * n, 3, MPFR_RNDN);
        mpfr_add(Z + m * n, Z + m * n, nodes + m, MPFR_RNDN);
        mpfr_mul_2si(Z + m * n, Z + m * n, -450, MPFR_RNDN);
        mpfr_neg(Z + m * n + 1, Z + m * n, MPFR_RNDN);
    }
    hdo_radau_dot_apply(B1, &d, Z, n, (long)w, e);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    cr_assert_eq(mpfr_set_emin(-500), 0);
    cr_assert_eq(mpfr_set_emax(500), 0);
    hdo_radau_dot_apply(B2, &d, Z, n, (long)w, e);
    cr_assert_eq(mpfr_set_emin(emin), 0);
    cr_assert_eq(mpfr_set_emax(emax), 0);
    /* b_3.. are rounding noise near 2^(e - w - 450) = 2^-631: zero in
       the narrow range, as any value below its 2^-501 (exponent -500) */
    for (slong k = 0; k < s * n; k++)
        cr_expect(mpfr_equal_p(B1 + k, B2 + k) ||
                      (mpfr_zero_p(B2 + k) &&
                       (mpfr_zero_p(B1 + k) || mpfr_get_exp(B1 + k) <= -500)),
                  "entry %ld: %.6e in the full range, %.6e in the narrow",
                  (long)k, mpfr_get_d(B1 + k, MPFR_RNDN),
                  mpfr_get_d(B2 + k, MPFR_RNDN));
    /* b_1 = 2^-450 and b_2 = 2^-450 / 3: the polynomial's own
       coefficients, far from zero */
    cr_expect(mpfr_cmp_si_2exp(B2 + 0, 1, -451) > 0 &&
                  mpfr_cmp_si_2exp(B2 + 0, 1, -449) < 0,
              "b_1 = %.6e", mpfr_get_d(B2 + 0, MPFR_RNDN));
    hdo_radau_dot_clear(&d);
    hdo_mat_clear(Ci);
    hdo_vec_clear(nodes, s);
    hdo_vec_clear(Z, s * n);
    hdo_vec_clear(B1, s * n);
    hdo_vec_clear(B2, s * n);
}

/* The predictor's products (radau_dense.c's hdo_radau_predict, radau_dot.c's
   hdo_radau_dot_powers; decisions.md D-139): sum_j x_m^j F_j for s + 1
   abscissae in (0, 3.5], as the last step's polynomial is extrapolated
   to the next step's stages, within the stated error of the exact sums:
   F's roundings 2^-prec of each column's largest entry a term, V's own
   (each power j + 1 roundings at d's precision, then 64 l fraction bits
   below 2^vexp), the result's.  Twice on one d with other abscissae: the
   second product must use the new powers' integers, not the first's. */
Test(step_interp, powers_within_their_error)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 40139);
    long checked = 0;
    hdo_radau_dot d;
    for (int c = 0; c < 5; c++)
        for (int round = 0; round < 2; round++) {
            slong s1 = stage_counts[c] + 1, n = 3;
            mpfr_prec_t w = working_prec(s1 - 1, 16);
            long prec = (long)w - 11 + 8 * round;
            mpfr_ptr x = hdo_vec_init(s1, w);
            mpfr_ptr F = hdo_vec_init(s1 * n, w), out = hdo_vec_init(s1 * n, w);
            if (round == 0) {
                hdo_mat_t Z;
                hdo_mat_init(Z, s1, s1, w);
                hdo_mat_zero(Z);
                hdo_radau_dot_init(&d, Z, n);
                hdo_mat_clear(Z);
            }
            /* abscissae to 3.5 (round 0) or to 1.2 (round 1) */
            for (slong m = 0; m < s1; m++) {
                mpfr_urandomb(x + m, rs);
                mpfr_mul_d(x + m, x + m, round == 0 ? 3.5 : 1.2, MPFR_RNDN);
            }
            fill(F, s1, n, rs);
            hdo_radau_dot_powers(out, &d, x, F, prec);
            mpfr_t exact, t, pw, bound, big;
            mpfr_inits2(8 * w + 512, exact, t, pw, bound, big, (mpfr_ptr)0);
            /* an upper bound of the powers' size: 2^vexp >= |x_m^j| */
            mpfr_set_ui(big, 1, MPFR_RNDN);
            for (slong m = 0; m < s1; m++) {
                mpfr_pow_ui(t, x + m, (unsigned long)s1 - 1, MPFR_RNDU);
                mpfr_max(big, big, t, MPFR_RNDU);
            }
            long vexp = (long)mpfr_get_exp(big) + 1;
            /* the fewest limbs the dot products may take (vexp at
               most 2 above theirs) */
            slong l = (prec + vexp - 2 + 63) / 64;
            if (l > d.lmax)
                l = d.lmax;
            for (slong k = 0; k < n; k++) {
                long ek = column_exp(F, s1, n, k);
                for (slong m = 0; m < s1; m++) {
                    mpfr_set_zero(exact, 1);
                    mpfr_set_zero(bound, 1);
                    for (slong j = 0; j < s1; j++) {
                        mpfr_pow_ui(pw, x + m, (unsigned long)j, MPFR_RNDN);
                        mpfr_mul(t, pw, F + j * n + k, MPFR_RNDN);
                        mpfr_add(exact, exact, t, MPFR_RNDN);
                        /* V's: (j + 1) 2^-w relative, 2^(vexp - 64 l) */
                        mpfr_abs(t, t, MPFR_RNDN);
                        mpfr_mul_ui(t, t, (unsigned long)j + 1, MPFR_RNDU);
                        mpfr_mul_2si(t, t, -(long)w, MPFR_RNDU);
                        mpfr_add(bound, bound, t, MPFR_RNDU);
                        mpfr_abs(t, F + j * n + k, MPFR_RNDN);
                        mpfr_mul_2si(t, t, vexp - 64 * l, MPFR_RNDU);
                        mpfr_add(bound, bound, t, MPFR_RNDU);
                    }
                    /* F's: 2^(ek - prec - 1) a term; the result's */
                    if (ek != LONG_MIN) {
                        mpfr_set_ui_2exp(t, (unsigned long)s1, ek - prec - 1,
                                         MPFR_RNDU);
                        mpfr_add(bound, bound, t, MPFR_RNDU);
                    }
                    cr_expect(within(t, out + m * n + k, exact, bound, w),
                              "s + 1 = %ld, round %d, (%ld, %ld): error %.3e "
                              "above %.3e",
                              (long)s1, round, (long)m, (long)k,
                              mpfr_get_d(t, MPFR_RNDN),
                              mpfr_get_d(bound, MPFR_RNDN));
                    checked++;
                }
            }
            mpfr_clears(exact, t, pw, bound, big, (mpfr_ptr)0);
            if (round == 1)
                hdo_radau_dot_clear(&d);
            hdo_vec_clear(x, s1);
            hdo_vec_clear(F, s1 * n);
            hdo_vec_clear(out, s1 * n);
        }
    gmp_randclear(rs);
    cr_expect(checked == 2L * 3 * (4 + 10 + 18 + 25 + 46));
}
