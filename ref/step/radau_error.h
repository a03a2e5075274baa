/* radau_error.h -- private to ref/step: Radau IIA's error estimates of a
 * step's dense output (radau_error.c says how and why) */
#ifndef HDO_STEP_RADAU_ERROR_H
#define HDO_STEP_RADAU_ERROR_H

#include <flint/flint.h>
#include <mpfr.h>

/* e := the largest |Y_1 - p(c_1)| / sc_i over the n components, p the
   polynomial through the stages 2..s (weights L[1..s), stage increments
   Z, s x n), computed at w bits; for the first nd components the smaller
   of that and the defect bound dd_i (dd NULL: none). */
void hdo_radau_top_term(mpfr_t e, mpfr_srcptr Z, mpfr_srcptr L, mpfr_srcptr sc,
                        mpfr_srcptr dd, slong nd, slong n, slong s,
                        mpfr_prec_t w);
/* e := max(e, the largest |sum_j w0_j Z_j| / sc_i): y0's distance from
   the stages' polynomial at tau = 0 (modes with switching functions). */
void hdo_radau_start_term(mpfr_t e, mpfr_srcptr Z, mpfr_srcptr w0,
                          mpfr_srcptr sc, slong n, slong s, mpfr_prec_t w);

/* L[1..s) := L_j(c_1), the Lagrange weights of the stages 2..s at c_1
   (hdo_radau_top_term's), and Lsum := 1 + sum_j |L_j| (64 bits: how
   that estimate amplifies the stages' errors), at L's precision. */
void hdo_radau_top_weights(mpfr_ptr L, mpfr_t Lsum, mpfr_srcptr c, slong s);
/* w0[0..s) := the Lagrange weights of the stages at tau = 0
   (hdo_radau_start_term's), at w0's precision. */
void hdo_radau_start_weights(mpfr_ptr w0, mpfr_srcptr c, slong s);

/* The defect bound of the dense output (radau_error.c says why it
   bounds the local error): sample points tau[k] (in step units, one
   near each end of the step), R[k] = Omega1 / |omega(tau[k])|
   (Omega1 = int_0^1 |omega|, omega = prod_i (tau - c_i)), and for the
   filtered bound gamma and Rf[k] = Cg / |omega(tau[k])|. */
typedef struct {
    mpfr_t tau[2], R[2], Rf[2], gamma;
} hdo_radau_defect;

void hdo_radau_defect_init(hdo_radau_defect *d, mpfr_srcptr c, slong s,
                           mpfr_prec_t w);
void hdo_radau_defect_clear(hdo_radau_defect *d);
/* v := p(x), dv := p'(x), p = sum_k coef[k] x^k (k = 0..s), at w bits. */
void hdo_radau_value_slope(mpfr_t v, mpfr_t dv, const mpfr_t *coef, slong s,
                           const mpfr_t x, mpfr_prec_t w);
/* x_i := h (slope_i - f_i), i < n: h times the defect at a sample point. */
void hdo_radau_defect_raw(mpfr_ptr x, mpfr_srcptr slope, mpfr_srcptr f,
                          const mpfr_t h, slong n);
/* dd_i := max(dd_i, min(|x_i| R, |xf_i| Rf)) for i < n (xf NULL: |x_i|
   R; dd_i NaN: unset), xf = (I - gamma h J)^-1 x: the bounds from one
   sample point. */
void hdo_radau_defect_take(mpfr_ptr dd, mpfr_srcptr x, mpfr_srcptr xf,
                           const mpfr_t R, const mpfr_t Rf, slong n);

#endif
