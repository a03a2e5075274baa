/* radau_dot.c -- the stage residual's two exact row sums
   (ref/step/radau_dot.c): the product scanning of entries up to
   HDO_RADAU_COLS limbs (exact_cols) against mpn_addmul_1 (exact_mpn), bit for
   bit, on random stages of mixed signs, sizes and lengths, on sums that cancel,
   and on entries whose limbs are all ones (the columns' carries). */
#include <criterion/criterion.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_dot.h"

/* F and Z of s x n entries at prec bits: random, or with kind 1 every
   F entry +-(1 - 2^-prec) 2^e (all ones in its limbs), kind 2 F_j of
   stage pairs equal and opposite (the rows' sums cancel in part). */
static void
fill(mpfr_ptr F, mpfr_ptr Z, slong s, slong n, int kind, gmp_randstate_t rs)
{
    for (slong k = 0; k < s * n; k++) {
        mpfr_prec_t p = mpfr_get_prec(F + k);
        unsigned long u = gmp_urandomm_ui(rs, 1000);
        if (kind == 1) {
            mpfr_set_ui_2exp(F + k, 1, -(long)p, MPFR_RNDN);
            mpfr_ui_sub(F + k, 1, F + k, MPFR_RNDN);
            mpfr_mul_2si(F + k, F + k, (long)(u % 9) - 4, MPFR_RNDN);
        } else if (kind == 2 && (k / n) % 2 == 1) {
            mpfr_neg(F + k, F + k - n, MPFR_RNDN);
            continue;
        } else {
            mpfr_urandomb(F + k, rs);
            /* sizes over 2^-40 .. 2^40, a few zeros, a few entries of
               few bits (fewer limbs than the others) */
            mpfr_mul_2si(F + k, F + k, (long)(u % 81) - 40, MPFR_RNDN);
            if (u % 17 == 0)
                mpfr_set_zero(F + k, 1);
            if (u % 13 == 0)
                mpfr_set_si(F + k, (long)u - 500, MPFR_RNDN);
        }
        if (u % 2 == 1)
            mpfr_neg(F + k, F + k, MPFR_RNDN);
        mpfr_urandomb(Z + k, rs);
        mpfr_mul_2si(Z + k, Z + k, -10, MPFR_RNDN);
    }
}

Test(step_dot, columns_equal_mpn_bit_for_bit)
{
    const slong ss[4] = {3, 9, 17, 24}, n = 3, nstate = 2;
    /* 1 to HDO_RADAU_COLS = 12 limbs (760 bits: Van der Pol's dense
       output at 100 digits takes 10 and 11) */
    const mpfr_prec_t ps[12] = {53,  64,  100, 170, 237, 300,
                                380, 450, 560, 620, 680, 760};
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 28121);
    long rows = 0, cols_used = 0, limbs_used = 0;
    for (int c = 0; c < 4; c++)
        for (int pi = 0; pi < 12; pi++)
            for (int kind = 0; kind < 3; kind++)
                for (int pass = 0; pass < 2; pass++) {
                    slong s = ss[c];
                    mpfr_prec_t prec = ps[pi];
                    /* the tableau at the working precision's guard
                       bits over the stages' (radau.c's wprec) */
                    mpfr_prec_t wp = prec + 3 * s + 32;
                    mpfr_ptr nodes = hdo_vec_init(s, wp);
                    mpfr_ptr F = hdo_vec_init(s * n, prec);
                    mpfr_ptr Z = hdo_vec_init(s * n, prec);
                    mpfr_ptr R1 = hdo_vec_init(s * n, prec);
                    mpfr_ptr R2 = hdo_vec_init(s * n, prec);
                    hdo_mat_t A;
                    hdo_radau_dot d1, d2;
                    mpfr_t h, ntol;
                    mpfr_init2(h, prec);
                    mpfr_init2(ntol, 64);
                    hdo_mat_init(A, s, s, wp);
                    cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
                    cr_assert_eq(hdo_radau_matrix(A, nodes, s), 0);
                    hdo_radau_dot_init(&d1, A, n);
                    hdo_radau_dot_init(&d2, A, n);
                    d2.no_cols = 1;
                    mpfr_set_ui(h, 1, MPFR_RNDN);
                    mpfr_div_ui(h, h, 3000, MPFR_RNDN);
                    fill(F, Z, s, n, kind, rs);
                    /* ntol = 0: R's precision; else the rule's own */
                    if (pass == 0)
                        mpfr_set_zero(ntol, 1);
                    else
                        mpfr_set_ui_2exp(ntol, 1, -(long)prec / 2, MPFR_RNDN);
                    hdo_radau_dot_residual(R1, &d1, h, F, Z, nstate, ntol);
                    hdo_radau_dot_residual(R2, &d2, h, F, Z, nstate, ntol);
                    for (slong l = 1; l <= HDO_RADAU_COLS; l++)
                        if (d1.Al[l] != NULL) {
                            cols_used++;
                            limbs_used |= 1L << l;
                        }
                    for (slong i = 0; i < s; i++)
                        for (slong k = 0; k < nstate; k++) {
                            mpfr_ptr a = R1 + i * n + k, b = R2 + i * n + k;
                            rows++;
                            cr_expect(mpfr_equal_p(a, b) &&
                                          mpfr_signbit(a) == mpfr_signbit(b),
                                      "s = %ld, prec %ld, kind %d, pass %d, "
                                      "(%ld, %ld): %.17g against %.17g",
                                      (long)s, (long)prec, kind, pass, (long)i,
                                      (long)k, mpfr_get_d(a, MPFR_RNDN),
                                      mpfr_get_d(b, MPFR_RNDN));
                        }
                    hdo_radau_dot_clear(&d1);
                    hdo_radau_dot_clear(&d2);
                    hdo_mat_clear(A);
                    hdo_vec_clear(nodes, s);
                    hdo_vec_clear(F, s * n);
                    hdo_vec_clear(Z, s * n);
                    hdo_vec_clear(R1, s * n);
                    hdo_vec_clear(R2, s * n);
                    mpfr_clears(h, ntol, (mpfr_ptr)0);
                }
    gmp_randclear(rs);
    /* the columns ran (l <= HDO_RADAU_COLS), not mpn twice */
    cr_expect(cols_used > 100, "columns used %ld times", cols_used);
    /* every limb count from 2 to 12 among them */
    cr_expect((limbs_used & 0x1ffc) == 0x1ffc, "limb counts used: %#lx",
              limbs_used);
    cr_expect(rows == 12L * 3 * 2 * 2 * (3 + 9 + 17 + 24));
}
