/* radau_error.c -- the defect bound of Radau IIA's dense output
   (ref/step/radau_error.c) against the real error of one step of linear
   oscillators with known solutions: y' = J y, J = [-a w; -w -a],
   y0 = (1, 0), y = e^(-a t) (cos w t, -sin w t).  The collocation step
   is solved here in MPFR (the stage equations as one linear system), so
   nothing comes from the stepper. */
#include <criterion/criterion.h>
#include <math.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_error.h"
#include "hybrid.h"
#include <arb_hypgeom.h>

#define P 480 /* bits: the errors reach 1e-60 */

/* The dense output of one collocation step of size h (coef: 2 x (s+1)
   coefficients in t - t0) for J (row-major), y0 = (1, 0). */
static void
collocate(mpfr_t *coef, const double J[4], mpfr_srcptr c, const hdo_mat_t A,
          slong s, const mpfr_t h)
{
    slong n = 2 * s;
    hdo_mat_t M, W;
    slong *perm = malloc((n + 1) * sizeof(slong));
    mpfr_ptr Z = hdo_vec_init(n, P), v = hdo_vec_init(s + 1, P);
    mpfr_t t, hk;
    mpfr_inits2(P, t, hk, (mpfr_ptr)0);
    hdo_mat_init(M, n, n, P);
    hdo_mat_init(W, s + 1, s + 1, P);
    /* Z_i - h sum_j a_ij J Z_j = h sum_j a_ij J y0 */
    for (slong i = 0; i < s; i++)
        for (int a = 0; a < 2; a++) {
            mpfr_set_ui(Z + 2 * i + a, 0, MPFR_RNDN);
            for (slong j = 0; j < s; j++) {
                mpfr_mul(t, hdo_mat_entry(A, i, j), h, MPFR_RNDN);
                for (int b = 0; b < 2; b++) {
                    mpfr_ptr m = hdo_mat_entry(M, 2 * i + a, 2 * j + b);
                    mpfr_mul_d(m, t, -J[2 * a + b], MPFR_RNDN);
                    if (i == j && a == b)
                        mpfr_add_ui(m, m, 1, MPFR_RNDN);
                }
                mpfr_mul_d(hk, t, J[2 * a], MPFR_RNDN); /* J y0, y0 = e_1 */
                mpfr_add(Z + 2 * i + a, Z + 2 * i + a, hk, MPFR_RNDN);
            }
        }
    cr_assert_eq(hdo_lu_factor(M, perm), 0);
    hdo_lu_solve(Z, M, perm);
    /* the polynomial through (0, y0), (c_m, y0 + Z_m) */
    for (slong m = 0; m <= s; m++)
        for (slong k = 0; k <= s; k++) {
            if (m == 0)
                mpfr_set_ui(hdo_mat_entry(W, 0, k), k == 0, MPFR_RNDN);
            else
                mpfr_pow_ui(hdo_mat_entry(W, m, k), c + m - 1, (unsigned long)k,
                            MPFR_RNDN);
        }
    cr_assert_eq(hdo_lu_factor(W, perm), 0);
    for (int a = 0; a < 2; a++) {
        mpfr_set_ui(v, a == 0, MPFR_RNDN);
        for (slong m = 1; m <= s; m++)
            mpfr_add_ui(v + m, Z + 2 * (m - 1) + a, a == 0, MPFR_RNDN);
        hdo_lu_solve(v, W, perm);
        mpfr_set_ui(hk, 1, MPFR_RNDN);
        for (slong k = 0; k <= s; k++) {
            mpfr_div(coef[a * (s + 1) + k], v + k, hk, MPFR_RNDN);
            mpfr_mul(hk, hk, h, MPFR_RNDN);
        }
    }
    hdo_mat_clear(M);
    hdo_mat_clear(W);
    hdo_vec_clear(Z, n);
    hdo_vec_clear(v, s + 1);
    mpfr_clears(t, hk, (mpfr_ptr)0);
    free(perm);
}

/* err_a := max over 400 points of [0, h] of |u_a - y_a|; dd := the
   defect bounds (radau_error.c) of the step: [0] unfiltered, [1]
   filtered by (I - gamma h J)^-1 alone, [2] the smaller of the two. */
static void
bound_and_error(double err[2], double dd[3][2], const double J[4], slong s,
                double hd)
{
    mpfr_ptr c = hdo_vec_init(s, P), b = hdo_vec_init(6, 64);
    mpfr_ptr x = hdo_vec_init(2, P), xf = hdo_vec_init(2, P);
    mpfr_t inf;
    mpfr_ptr u = hdo_vec_init(2, P), du = hdo_vec_init(2, P),
             f = hdo_vec_init(2, P);
    mpfr_t *coef = malloc(2 * (s + 1) * sizeof(mpfr_t));
    hdo_mat_t A;
    hdo_radau_defect d;
    mpfr_t h, tau, y, e;
    mpfr_inits2(P, h, tau, y, e, (mpfr_ptr)0);
    mpfr_init2(inf, 64);
    mpfr_set_inf(inf, 1);
    for (slong k = 0; k < 2 * (s + 1); k++)
        mpfr_init2(coef[k], P);
    hdo_mat_init(A, s, s, P);
    cr_assert_eq(hdo_radau_nodes(c, s), 0);
    cr_assert_eq(hdo_radau_matrix(A, c, s), 0);
    hdo_radau_defect_init(&d, c, s, P);
    mpfr_set_d(h, hd, MPFR_RNDN);
    collocate(coef, J, c, A, s, h);
    for (int k = 0; k < 6; k++)
        mpfr_set_nan(b + k);
    /* I - gamma h J, 2 x 2, its inverse by Cramer's rule */
    double g = mpfr_get_d(d.gamma, MPFR_RNDN) * hd;
    double m00 = 1 - g * J[0], m01 = -g * J[1], m10 = -g * J[2],
           m11 = 1 - g * J[3], det = m00 * m11 - m01 * m10;
    for (int k = 0; k < 2; k++) {
        mpfr_mul(tau, d.tau[k], h, MPFR_RNDN);
        for (int a = 0; a < 2; a++)
            hdo_radau_value_slope(u + a, du + a, coef + a * (s + 1), s, tau, P);
        for (int a = 0; a < 2; a++) { /* f = J u */
            mpfr_mul_d(f + a, u + 0, J[2 * a], MPFR_RNDN);
            mpfr_mul_d(y, u + 1, J[2 * a + 1], MPFR_RNDN);
            mpfr_add(f + a, f + a, y, MPFR_RNDN);
        }
        hdo_radau_defect_raw(x, du, f, h, 2);
        mpfr_mul_d(xf + 0, x + 0, m11 / det, MPFR_RNDN);
        mpfr_mul_d(y, x + 1, -m01 / det, MPFR_RNDN);
        mpfr_add(xf + 0, xf + 0, y, MPFR_RNDN);
        mpfr_mul_d(xf + 1, x + 1, m00 / det, MPFR_RNDN);
        mpfr_mul_d(y, x + 0, -m10 / det, MPFR_RNDN);
        mpfr_add(xf + 1, xf + 1, y, MPFR_RNDN);
        hdo_radau_defect_take(b + 0, x, NULL, d.R[k], d.Rf[k], 2);
        hdo_radau_defect_take(b + 2, x, xf, inf, d.Rf[k], 2);
        hdo_radau_defect_take(b + 4, x, xf, d.R[k], d.Rf[k], 2);
    }
    err[0] = err[1] = 0;
    for (int q = 0; q <= 400; q++) {
        mpfr_mul_d(tau, h, q / 400.0, MPFR_RNDN);
        for (int a = 0; a < 2; a++) {
            hdo_radau_value_slope(u + a, du + a, coef + a * (s + 1), s, tau, P);
            /* y = e^(-a t) (cos w t, -sin w t), w = J[1], a = -J[0] */
            mpfr_mul_d(y, tau, J[1], MPFR_RNDN);
            if (a == 0)
                mpfr_cos(y, y, MPFR_RNDN);
            else {
                mpfr_sin(y, y, MPFR_RNDN);
                mpfr_neg(y, y, MPFR_RNDN);
            }
            mpfr_mul_d(e, tau, J[0], MPFR_RNDN);
            mpfr_exp(e, e, MPFR_RNDN);
            mpfr_mul(y, y, e, MPFR_RNDN);
            mpfr_sub(e, u + a, y, MPFR_RNDN);
            double ea = fabs(mpfr_get_d(e, MPFR_RNDN));
            err[a] = ea > err[a] ? ea : err[a];
        }
    }
    for (int k = 0; k < 6; k++)
        dd[k / 2][k % 2] = mpfr_get_d(b + k, MPFR_RNDU);
    hdo_radau_defect_clear(&d);
    hdo_mat_clear(A);
    for (slong k = 0; k < 2 * (s + 1); k++)
        mpfr_clear(coef[k]);
    free(coef);
    mpfr_clears(h, tau, y, e, inf, (mpfr_ptr)0);
    hdo_vec_clear(c, s);
    hdo_vec_clear(b, 6);
    hdo_vec_clear(x, 2);
    hdo_vec_clear(xf, 2);
    hdo_vec_clear(u, 2);
    hdo_vec_clear(du, 2);
    hdo_vec_clear(f, 2);
}

/* Each bound holds the real error of the step on [0, h] in each
   component: for the undamped oscillator (w h from 0.1 to 2, four
   steps a period), damped ones and stiff ones (a h up to 2e4), at the
   stage counts of 16, 30 digits and a small one.  The undamped
   oscillator's unfiltered bound is within a factor 40 of the error
   (Omega1 over the largest |int_0^tau omega|: 11, 21, 30 at 9, 17, 24
   stages), the filtered one within 2 of that; on the stiff ones the
   filter brings the bound from up to 1e6 times the error to below 100
   times.  The bound is of order s + 1: halving h divides it by 2^(s+1)
   within a factor 1.5. */
Test(step, radau_defect_bound_holds_the_error_of_a_step)
{
    const slong stages[3] = {9, 17, 24};
    const double damp[4] = {0, 0.1, 10, 1e4};
    const double hs[5] = {0.1, 0.3, 0.6, 1.0, 2.0};
    for (int is = 0; is < 3; is++)
        for (int ia = 0; ia < 4; ia++)
            for (int ih = 0; ih < 5; ih++) {
                slong s = stages[is];
                double J[4] = {-damp[ia], 1, -1, -damp[ia]}, err[2], dd[3][2];
                bound_and_error(err, dd, J, s, hs[ih]);
                for (int a = 0; a < 2; a++) {
                    for (int k = 0; k < 3; k++)
                        cr_expect(err[a] <= dd[k][a],
                                  "s = %ld, a = %g, h = %g, y%d: error %.3e, "
                                  "bound %d %.3e",
                                  (long)s, damp[ia], hs[ih], a + 1, err[a], k,
                                  dd[k][a]);
                    if (ia == 0)
                        cr_expect(dd[0][a] <= 40 * err[a] &&
                                      dd[1][a] <= 80 * err[a],
                                  "s = %ld, h = %g: bounds %.3e %.3e, error "
                                  "%.3e",
                                  (long)s, hs[ih], dd[0][a], dd[1][a], err[a]);
                    if (ia == 3)
                        cr_expect(dd[2][a] <= 100 * err[a],
                                  "s = %ld, h = %g: filtered %.3e, error %.3e",
                                  (long)s, hs[ih], dd[2][a], err[a]);
                }
            }
    for (int is = 0; is < 3; is++) {
        slong s = stages[is];
        double J[4] = {0, 1, -1, 0}, e1[2], d1[3][2], e2[2], d2[3][2];
        bound_and_error(e1, d1, J, s, 0.2);
        bound_and_error(e2, d2, J, s, 0.1);
        /* the larger component: one of cos, sin has a vanishing
           derivative of order s + 1 at t = 0 */
        double r = fmax(d1[2][0], d1[2][1]) / fmax(d2[2][0], d2[2][1]) /
                   pow(2, (double)(s + 1));
        cr_expect(r > 1 / 1.5 && r < 1.5, "s = %ld: order ratio %.3f", (long)s,
                  r);
    }
}

/* |omega(x)| = prod_j |x - c_j| at x's precision. */
static void
omega_abs(mpfr_t r, const mpfr_t x, mpfr_srcptr c, slong s)
{
    mpfr_t d;
    mpfr_init2(d, mpfr_get_prec(r));
    mpfr_set_ui(r, 1, MPFR_RNDN);
    for (slong j = 0; j < s; j++) {
        mpfr_sub(d, x, c + j, MPFR_RNDN);
        mpfr_mul(r, r, d, MPFR_RNDN);
    }
    mpfr_abs(r, r, MPFR_RNDN);
    mpfr_clear(d);
}

/* The filter's constant gamma = Omega1 / (1.01 (|omega(0)| + M + TV))
   (radau_error.c, hdo_radau_defect_init) against the same formula with
   omega's extrema found here another way: a golden-section search on
   |omega|'s values (unimodal between consecutive nodes) at twice the
   bits, not the sign of omega'/omega; Omega1 by Gauss-Legendre
   quadrature on each interval between nodes, not omega's antiderivative.  gamma
   is 64 bits: the two agree to 2^-58 (its extrema located to 20 bisection steps
   instead of its own would miss by about 1e-12). */
Test(step, radau_defect_gamma_from_omega_extrema)
{
    const slong stages[5] = {3, 9, 24, 45, 72};
    for (int is = 0; is < 5; is++) {
        slong s = stages[is];
        mpfr_prec_t w = 64 + 3 * s + 32 + 10 * s, q = 2 * w + 64;
        mpfr_ptr c = hdo_vec_init(s, w), cq = hdo_vec_init(s, q);
        cr_assert_eq(hdo_radau_nodes(c, s), 0);
        for (slong j = 0; j < s; j++)
            mpfr_set(cq + j, c + j, MPFR_RNDN);
        hdo_radau_defect d;
        hdo_radau_defect_init(&d, c, s, w);
        mpfr_t a, b, x1, x2, f1, f2, om0, M, TV, om1, g;
        mpfr_inits2(q, a, b, x1, x2, f1, f2, om0, M, TV, om1, g, (mpfr_ptr)0);
        mpfr_set_ui(a, 0, MPFR_RNDN);
        omega_abs(om0, a, cq, s);
        mpfr_set(M, om0, MPFR_RNDN);
        mpfr_set(TV, om0, MPFR_RNDN);
        const double phi = 0.6180339887498949;
        for (slong i = 0; i + 1 < s; i++) {
            mpfr_set(a, cq + i, MPFR_RNDN);
            mpfr_set(b, cq + i + 1, MPFR_RNDN);
            for (int it = 0; it < 200; it++) {
                /* x1 = b - phi (b - a), x2 = a + phi (b - a) */
                mpfr_sub(x2, b, a, MPFR_RNDN);
                mpfr_mul_d(x2, x2, phi, MPFR_RNDN);
                mpfr_sub(x1, b, x2, MPFR_RNDN);
                mpfr_add(x2, a, x2, MPFR_RNDN);
                omega_abs(f1, x1, cq, s);
                omega_abs(f2, x2, cq, s);
                if (mpfr_cmp(f1, f2) > 0)
                    mpfr_set(b, x2, MPFR_RNDN);
                else
                    mpfr_set(a, x1, MPFR_RNDN);
            }
            omega_abs(f1, a, cq, s);
            mpfr_max(M, M, f1, MPFR_RNDN);
            mpfr_mul_2ui(f1, f1, 1, MPFR_RNDN);
            mpfr_add(TV, TV, f1, MPFR_RNDN);
        }
        /* Omega1: on each of [0, c_1], [c_1, c_2], .., [c_(s-1), c_s]
           omega keeps its sign, so int |omega| there is Gauss-Legendre's
           sum of |omega| at n = s/2 + 1 points (Arb's roots and
           weights), exact for omega's degree s */
        slong n = s / 2 + 1;
        mpfr_ptr gx = hdo_vec_init(n, q), gw = hdo_vec_init(n, q);
        arb_t root, weight;
        arb_init(root);
        arb_init(weight);
        for (slong k = 0; k < n; k++) {
            arb_hypgeom_legendre_p_ui_root(root, weight, (ulong)n, (ulong)k,
                                           q + 32);
            arf_get_mpfr(gx + k, arb_midref(root), MPFR_RNDN);
            arf_get_mpfr(gw + k, arb_midref(weight), MPFR_RNDN);
        }
        arb_clear(root);
        arb_clear(weight);
        mpfr_set_ui(om1, 0, MPFR_RNDN);
        for (slong i = 0; i < s; i++) {
            /* a: the interval's midpoint, b: its half-width */
            if (i == 0)
                mpfr_set_ui(x1, 0, MPFR_RNDN);
            else
                mpfr_set(x1, cq + i - 1, MPFR_RNDN);
            mpfr_add(a, cq + i, x1, MPFR_RNDN);
            mpfr_div_2ui(a, a, 1, MPFR_RNDN);
            mpfr_sub(b, cq + i, x1, MPFR_RNDN);
            mpfr_div_2ui(b, b, 1, MPFR_RNDN);
            mpfr_set_ui(f2, 0, MPFR_RNDN);
            for (slong k = 0; k < n; k++) {
                mpfr_fma(x2, b, gx + k, a, MPFR_RNDN);
                omega_abs(f1, x2, cq, s);
                mpfr_fma(f2, f1, gw + k, f2, MPFR_RNDN);
            }
            mpfr_fma(om1, f2, b, om1, MPFR_RNDN);
        }
        hdo_vec_clear(gx, n);
        hdo_vec_clear(gw, n);
        /* gamma = Omega1 / (1.01 (om0 + M + TV)) */
        mpfr_add(f1, om0, M, MPFR_RNDN);
        mpfr_add(f1, f1, TV, MPFR_RNDN);
        mpfr_mul_d(f1, f1, 1.01, MPFR_RNDN);
        mpfr_div(g, om1, f1, MPFR_RNDN);
        mpfr_sub(f1, g, d.gamma, MPFR_RNDN);
        mpfr_div(f1, f1, g, MPFR_RNDN);
        double rel = fabs(mpfr_get_d(f1, MPFR_RNDN));
        cr_expect(rel < ldexp(1, -58),
                  "s = %ld: gamma %.17g, here %.17g, rel %.3g", (long)s,
                  mpfr_get_d(d.gamma, MPFR_RNDN), mpfr_get_d(g, MPFR_RNDN),
                  rel);
        mpfr_clears(a, b, x1, x2, f1, f2, om0, M, TV, om1, g, (mpfr_ptr)0);
        hdo_radau_defect_clear(&d);
        hdo_vec_clear(c, s);
        hdo_vec_clear(cq, s);
    }
    /* FLINT's integer cache (Arb's Legendre roots), for the leak checks */
    flint_cleanup();
}
