/* radau_dot.c -- the Newton iteration's next stage residual from the last
   one (ref/step/radau_dot.c, hdo_radau_dot_residual_next; decisions.md
   D-123) against h sum_j a_ij F_jk - Z_ik summed plainly at twice the
   precision, over three iterations whose increments shrink as Newton's
   do. */
#include <criterion/criterion.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_dot.h"
#include "hybrid.h"

/* |h sum_j a_ij F_jk - Z_ik - R_ik| at twice R's precision into err */
static void
residual_error(mpfr_t err, const hdo_mat_t A, const mpfr_t h, mpfr_srcptr F,
               mpfr_srcptr Z, mpfr_srcptr R, slong s, slong n, slong i, slong k)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(err));
    mpfr_set_ui(err, 0, MPFR_RNDN);
    for (slong j = 0; j < s; j++) {
        mpfr_mul(t, hdo_mat_entry(A, i, j), F + j * n + k, MPFR_RNDN);
        mpfr_add(err, err, t, MPFR_RNDN);
    }
    mpfr_mul(err, err, h, MPFR_RNDN);
    mpfr_sub(err, err, Z + i * n + k, MPFR_RNDN);
    mpfr_sub(err, err, R + i * n + k, MPFR_RNDN);
    mpfr_abs(err, err, MPFR_RNDN);
    mpfr_clear(t);
}

/* F near 1e6 moving by 1e-13, 1e-25, 1e-37 and Z near 1e-3 moving by
   1e-20, 1e-32, 1e-44 (a converging iteration): each next residual within
   (iteration + 1) (s + 2) 2^-32 ntol of the plain one (each residual's
   own rounding, ref/step/radau_dot.h, carried into the next), the rows
   k >= nstate untouched; without the last residual (Rp) or with F's
   change alone the error is the residual itself, near 1e-3. */
Test(step, radau_dot_residual_next_against_mpfr)
{
    const slong ss[2] = {3, 24}, n = 3, nstate = 2;
    const mpfr_prec_t prec = 237;
    for (int c = 0; c < 2; c++) {
        slong s = ss[c];
        mpfr_ptr nodes = hdo_vec_init(s, prec);
        mpfr_ptr F = hdo_vec_init(s * n, prec), R = hdo_vec_init(s * n, prec);
        mpfr_ptr Z = hdo_vec_init(s * n, 2 * prec); /* exact sums of dZ */
        mpfr_ptr dZ = hdo_vec_init(s * n, prec);
        hdo_mat_t A;
        hdo_radau_dot d;
        mpfr_t h, ntol, err, bound, dz;
        mpfr_inits2(2 * prec, h, err, bound, dz, (mpfr_ptr)0);
        mpfr_init2(ntol, 64);
        hdo_mat_init(A, s, s, prec);
        cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
        cr_assert_eq(hdo_radau_matrix(A, nodes, s), 0);
        hdo_radau_dot_init(&d, A, n);
        mpfr_set_ui(h, 1, MPFR_RNDN);
        mpfr_div_ui(h, h, 3000, MPFR_RNDN);
        mpfr_set_d(ntol, 1e-50, MPFR_RNDN);
        for (slong k = 0; k < s * n; k++) {
            mpfr_set_si(F + k, (long)((k * 7919) % 2001) - 1000, MPFR_RNDN);
            mpfr_mul_ui(F + k, F + k, 1000, MPFR_RNDN);
            mpfr_div_ui(F + k, F + k, 7, MPFR_RNDN);
            mpfr_set_si(Z + k, (long)((k * 104729) % 201) - 100, MPFR_RNDN);
            mpfr_div_ui(Z + k, Z + k, 30011, MPFR_RNDN);
        }
        hdo_radau_dot_residual(R, &d, h, F, Z, nstate, ntol);
        for (int it = 1; it <= 3; it++) {
            hdo_radau_dot_keep(&d, F, R, nstate);
            for (slong k = 0; k < s * n; k++) {
                /* the increment, as a solve would give it: R's
                   precision; Z moves by it exactly */
                mpfr_set_si(dZ + k, (long)((k * 31) % 17) - 8, MPFR_RNDN);
                mpfr_div_ui(dZ + k, dZ + k, 9, MPFR_RNDN);
                mpfr_mul_2si(dZ + k, dZ + k, -66 - 40 * (it - 1), MPFR_RNDN);
                mpfr_add(Z + k, Z + k, dZ + k, MPFR_RNDN);
                mpfr_set_si(dz, (long)((k * 53) % 23) - 11, MPFR_RNDN);
                mpfr_mul_2si(dz, dz, -43 - 40 * (it - 1), MPFR_RNDN);
                mpfr_add(F + k, F + k, dz, MPFR_RNDN);
            }
            hdo_radau_dot_moved(&d, dZ, nstate);
            for (slong k = 0; k < s * n; k++)
                mpfr_set_ui(R + k, 12345, MPFR_RNDN); /* untouched rows */
            hdo_radau_dot_residual_next(R, &d, h, F, nstate, ntol);
            mpfr_mul_ui(bound, ntol, (unsigned long)((it + 1) * (s + 2)),
                        MPFR_RNDN);
            mpfr_mul_2si(bound, bound, -32, MPFR_RNDN);
            for (slong i = 0; i < s; i++)
                for (slong k = 0; k < n; k++) {
                    if (k >= nstate) {
                        cr_expect(mpfr_cmp_ui(R + i * n + k, 12345) == 0);
                        continue;
                    }
                    residual_error(err, A, h, F, Z, R, s, n, i, k);
                    cr_expect(mpfr_cmp(err, bound) <= 0,
                              "s = %ld, iteration %d, (%ld, %ld): error %.3e "
                              "> %.3e",
                              (long)s, it, (long)i, (long)k,
                              mpfr_get_d(err, MPFR_RNDN),
                              mpfr_get_d(bound, MPFR_RNDN));
                }
        }
        hdo_radau_dot_clear(&d);
        hdo_mat_clear(A);
        hdo_vec_clear(nodes, s);
        hdo_vec_clear(F, s * n);
        hdo_vec_clear(R, s * n);
        hdo_vec_clear(Z, s * n);
        hdo_vec_clear(dZ, s * n);
        mpfr_clears(h, ntol, err, bound, dz, (mpfr_ptr)0);
    }
}
