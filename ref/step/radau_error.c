/* radau_error.c -- Radau IIA's error estimates of a step's dense output,
 * from the stage increments Z (s x n, stage-major) */
#include "radau.h"
#include "radau_error.h"

/* The error estimate of the dense output: the largest
   |Y_1 - p(c_1)| / sc_i (radau_scale.c), p the polynomial of degree s - 2
   through the stages 2..s, i.e. the last term of the polynomial
   through the stages (times prod_j (c_1 - c_j), well conditioned,
   where that term in monomials is not: the inverse Vandermonde of the
   nodes reaches 10^30 at 20 stages and turns the stages' rounding into
   a floor near the tolerance).  y0 is left out on purpose: on a stiff
   arc it differs from the stages' smooth curve by a fast mode damped
   within [0, c_1 h] (the dense output keeps it, bounded there by the
   Lebesgue constant of 0, c_1..c_s), which would hold h at the fast
   mode's time scale at every step size.  It behaves as h^(s-1). */
void
hdo_radau_top_term(mpfr_t e, mpfr_srcptr Z, mpfr_srcptr L, mpfr_srcptr sc,
                   mpfr_srcptr dd, slong nd, slong n, slong s, mpfr_prec_t w)
{
    mpfr_t a, t;
    mpfr_inits2(w, a, t, (mpfr_ptr)0);
    mpfr_set_ui(e, 0, MPFR_RNDN);
    for (slong i = 0; i < n; i++) {
        mpfr_set(a, Z + i, MPFR_RNDN); /* Y_1 - y0 */
        for (slong j = 1; j < s; j++) {
            mpfr_mul(t, L + j, Z + j * n + i, MPFR_RNDN);
            mpfr_sub(a, a, t, MPFR_RNDN); /* the weights sum to 1 */
        }
        /* the defect bound where it is the smaller (see below) */
        if (dd != NULL && i < nd && mpfr_cmpabs(dd + i, a) < 0)
            mpfr_set(a, dd + i, MPFR_RNDN);
        hdo_radau_scaled_max(e, a, 1, 1, sc + i);
    }
    mpfr_clears(a, t, (mpfr_ptr)0);
}

/* e := max(e, the distance of y0 from the stages' polynomial at
   tau = 0, |sum_j w0_j Z_j| / sc_i), in modes with switching
   functions.  The dense output takes y0 with the Lagrange weight l_0(tau)
   of the nodes 0, c_1..c_s, at most 1 on [0, 1]; hdo_radau_top_term leaves y0
   out, so a fast mode that the step does not resolve (a reset that leaves the
   slow manifold) would stay in the dense output at its full amplitude
   though the stages and the step's end are right.  Events are located on
   the dense output, so it must be accurate over the whole step: this
   term bounds the start point's share.  (In the runs measured it never
   bound alone: an unresolved fast mode also leaves a remnant of order
   1/(lambda h) in the stages, which top_term sees; decisions.md D-085.) */
void
hdo_radau_start_term(mpfr_t e, mpfr_srcptr Z, mpfr_srcptr w0, mpfr_srcptr sc,
                     slong n, slong s, mpfr_prec_t w)
{
    mpfr_t a;
    mpfr_init2(a, w);
    for (slong i = 0; i < n; i++) {
        mpfr_set_ui(a, 0, MPFR_RNDN);
        for (slong j = 0; j < s; j++)
            mpfr_fma(a, w0 + j, Z + j * n + i, a, MPFR_RNDN);
        hdo_radau_scaled_max(e, a, 1, 1, sc + i);
    }
    mpfr_clear(a);
}

/* The defect bound (decisions.md D-104).  The dense output u (degree s
   through y0 and the stages) satisfies u' = f(t, u) at the nodes only;
   its defect d = u' - f(t, u) vanishes at c_1..c_s, so
   d(tau) = omega(tau) q(tau), omega = prod_i (tau - c_i), q smooth.
   The local error e = u - y (e(0) = 0) solves e' = J e + d.  For a
   linear problem with J normal and its eigenvalues in the closed left
   half-plane, d is exactly D omega (u' - J u is a polynomial of degree
   s vanishing at the nodes), and each eigencomponent obeys
   |e(tau)| = |h D int_0^tau exp(h lam (tau - sig)) omega(sig) dsig|
           <= |h D| Omega1,   Omega1 = int_0^1 |omega|:
   a bound of order h^(s+1) (|h D| ~ h^(s+1) |y^(s+1)| / s!), the
   dense output's own, where hdo_radau_top_term is of order h^(s-1).
   D is read off the defect at two points, one near each end of the
   step (q varies over the step in a nonlinear problem: the larger of
   the two), so the bound costs two evaluations of f a step and no
   derivative.  On a stiff component d holds lam e, h lam times the
   error, so the bound is loose there, never short.  Filtered: for
   gamma > 0 and Re z <= 0 (z = h lam), integrating by parts,
   z Phi(tau) = e^(z tau) omega(0) - omega(tau)
                + int_0^tau e^(z (tau - sig)) omega'(sig) dsig,
   so |(1 - gamma z) Phi(tau)| <= Cg = Omega1 + gamma (|omega(0)| + M
   + TV), M = max |omega|, TV = int_0^1 |omega'|, and
   |e| <= Cg |x| / |omega(tau_k)| with x = (I - gamma h J)^-1 h d(tau_k):
   the filter of RADAU5's estimate, here with a constant that makes it
   a bound; on a stiff component it divides the loose bound by about
   gamma |z|.  gamma = Omega1 / (|omega(0)| + M + TV), so Cg = 2 Omega1.
   The step takes, per component, the smallest of these estimates and
   hdo_radau_top_term, each an upper bound (the smallest of bounds is
   one). */
void
hdo_radau_defect_init(hdo_radau_defect *d, mpfr_srcptr c, slong s,
                      mpfr_prec_t w)
{
    mpfr_prec_t p = w + 64;
    mpfr_ptr om = hdo_vec_init(s + 1, p); /* omega's monomial coefficients */
    mpfr_t a, b, x, t, sum;
    mpfr_inits2(p, a, b, x, t, sum, (mpfr_ptr)0);
    hdo_radau_node_poly(om, c, s);
    /* Omega1: omega keeps its sign between consecutive zeros 0 (not a
       zero: omega's sign is constant on [0, c_1]), c_1, ..., c_s */
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    mpfr_set_ui(a, 0, MPFR_RNDN); /* the antiderivative at 0 */
    for (slong i = 0; i < s; i++) {
        mpfr_set_ui(b, 0, MPFR_RNDN);
        for (slong k = s; k >= 0; k--) { /* sum om_k x^(k+1) / (k+1) */
            mpfr_div_ui(t, om + k, (unsigned long)(k + 1), MPFR_RNDN);
            mpfr_add(b, b, t, MPFR_RNDN);
            mpfr_mul(b, b, c + i, MPFR_RNDN);
        }
        mpfr_sub(t, b, a, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_add(sum, sum, t, MPFR_RNDN);
        mpfr_set(a, b, MPFR_RNDN);
    }
    /* omega's extrema: one in each (c_i, c_{i+1}), where
       sum_j 1 / (tau - c_j) falls from +inf to -inf (bisection); omega
       is monotone on [0, c_1], so TV = |omega(0)| + 2 sum |omega(e_i)| */
    mpfr_t om0, M, TV;
    mpfr_inits2(p, om0, M, TV, (mpfr_ptr)0);
    mpfr_set_ui(om0, 1, MPFR_RNDN);
    for (slong j = 0; j < s; j++)
        mpfr_mul(om0, om0, c + j, MPFR_RNDN); /* |omega(0)| */
    mpfr_set(M, om0, MPFR_RNDN);
    mpfr_set(TV, om0, MPFR_RNDN);
    double *cd = malloc((s + 1) * sizeof(double));
    HDO_ASSERT(cd != NULL);
    for (slong j = 0; j < s; j++)
        cd[j] = mpfr_get_d(c + j, MPFR_RNDN);
    for (slong i = 0; i + 1 < s; i++) {
        /* located in double: omega is flat at its extremum, so the
           point's error (about s 2^-53 of the interval) moves |omega|
           there by about its square, far below the 1% below and gamma's
           64 bits; omega itself is then taken at p bits.  (The bisection
           at p bits cost 40 M instructions at 24 stages, 1.2e9 at 72:
           decisions.md D-141.) */
        double lo = cd[i], hi = cd[i + 1], xd = lo + (hi - lo) / 2;
        for (int it = 0; it < 80; it++) {
            double mid = lo + (hi - lo) / 2, sum_inv = 0;
            if (mid <= lo || mid >= hi)
                break; /* the interval is one ulp: xd is inside it */
            xd = mid;
            for (slong j = 0; j < s; j++)
                sum_inv += 1 / (xd - cd[j]);
            if (sum_inv > 0)
                lo = xd;
            else
                hi = xd;
        }
        mpfr_set_d(x, xd, MPFR_RNDN);
        mpfr_set_ui(t, 1, MPFR_RNDN);
        for (slong j = 0; j < s; j++) {
            mpfr_sub(b, x, c + j, MPFR_RNDN);
            mpfr_mul(t, t, b, MPFR_RNDN);
        }
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_max(M, M, t, MPFR_RNDN);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
        mpfr_add(TV, TV, t, MPFR_RNDN);
    }
    /* gamma and Cg = 2 Omega1, with 1% against the extrema's bisection */
    mpfr_add(t, om0, M, MPFR_RNDN);
    mpfr_add(t, t, TV, MPFR_RNDN);
    mpfr_mul_d(t, t, 1.01, MPFR_RNDU);
    mpfr_init2(d->gamma, 64);
    mpfr_div(d->gamma, sum, t, MPFR_RNDN);
    mpfr_clears(om0, M, TV, (mpfr_ptr)0);
    free(cd);
    for (int k = 0; k < 2; k++) {
        slong i = k == 0 ? 0 : s - 2; /* between c_1, c_2 and c_{s-1}, c_s */
        mpfr_init2(d->tau[k], w);
        mpfr_init2(d->R[k], 64);
        mpfr_add(x, c + i, c + i + 1, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
        mpfr_set(d->tau[k], x, MPFR_RNDN);
        mpfr_set_ui(t, 1, MPFR_RNDN);
        for (slong j = 0; j < s; j++) {
            mpfr_sub(b, x, c + j, MPFR_RNDN);
            mpfr_mul(t, t, b, MPFR_RNDN);
        }
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_div(d->R[k], sum, t, MPFR_RNDU);
        mpfr_init2(d->Rf[k], 64);
        mpfr_mul_2ui(d->Rf[k], d->R[k], 1, MPFR_RNDU);
    }
    mpfr_clears(a, b, x, t, sum, (mpfr_ptr)0);
    hdo_vec_clear(om, s + 1);
}

void
hdo_radau_defect_clear(hdo_radau_defect *d)
{
    for (int k = 0; k < 2; k++)
        mpfr_clears(d->tau[k], d->R[k], d->Rf[k], (mpfr_ptr)0);
    mpfr_clear(d->gamma);
}

void
hdo_radau_value_slope(mpfr_t v, mpfr_t dv, const mpfr_t *coef, slong s,
                      const mpfr_t x, mpfr_prec_t w)
{
    mpfr_t a, da;
    hdo_erange er;
    hdo_erange_get(&er);
    mpfr_inits2(w, a, da, (mpfr_ptr)0);
    mpfr_set(a, coef[s], MPFR_RNDN);
    mpfr_set_ui(da, 0, MPFR_RNDN);
    /* on the limbs: MPFR's bits (decisions.md D-132) */
    for (slong k = s - 1; k >= 0; k--) {
        hdo_mul_rn(da, da, x, &er); /* (p q)' = p' q + p */
        hdo_add_rn(da, da, a, &er);
        hdo_mul_rn(a, a, x, &er);
        hdo_add_rn(a, a, coef[k], &er);
    }
    mpfr_set(v, a, MPFR_RNDN);
    mpfr_set(dv, da, MPFR_RNDN);
    mpfr_clears(a, da, (mpfr_ptr)0);
}

void
hdo_radau_defect_raw(mpfr_ptr x, mpfr_srcptr slope, mpfr_srcptr f,
                     const mpfr_t h, slong n)
{
    for (slong i = 0; i < n; i++) {
        mpfr_sub(x + i, slope + i, f + i, MPFR_RNDN);
        mpfr_mul(x + i, x + i, h, MPFR_RNDN);
    }
}

void
hdo_radau_defect_take(mpfr_ptr dd, mpfr_srcptr x, mpfr_srcptr xf,
                      const mpfr_t R, const mpfr_t Rf, slong n)
{
    mpfr_t a, b;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    for (slong i = 0; i < n; i++) {
        mpfr_abs(a, x + i, MPFR_RNDU);
        mpfr_mul(a, a, R, MPFR_RNDU);
        if (xf != NULL) {
            mpfr_abs(b, xf + i, MPFR_RNDU);
            mpfr_mul(b, b, Rf, MPFR_RNDU);
            mpfr_min(a, a, b, MPFR_RNDU);
        }
        if (mpfr_nan_p(dd + i) || mpfr_cmp(a, dd + i) > 0)
            mpfr_set(dd + i, a, MPFR_RNDU);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
}

void
hdo_radau_top_weights(mpfr_ptr L, mpfr_t Lsum, mpfr_srcptr c, slong s)
{
    mpfr_prec_t w = mpfr_get_prec(L);
    for (slong j = 1; j < s; j++) {
        mpfr_t num, den;
        mpfr_inits2(w, num, den, (mpfr_ptr)0);
        mpfr_set_ui(L + j, 1, MPFR_RNDN);
        for (slong k = 1; k < s; k++) {
            if (k == j)
                continue;
            mpfr_sub(num, c + 0, c + k, MPFR_RNDN);
            mpfr_sub(den, c + j, c + k, MPFR_RNDN);
            mpfr_mul(L + j, L + j, num, MPFR_RNDN);
            mpfr_div(L + j, L + j, den, MPFR_RNDN);
        }
        mpfr_clears(num, den, (mpfr_ptr)0);
    }
    mpfr_set_ui(Lsum, 1, MPFR_RNDN);
    for (slong j = 1; j < s; j++) {
        mpfr_t a;
        mpfr_init2(a, 64);
        mpfr_abs(a, L + j, MPFR_RNDU);
        mpfr_add(Lsum, Lsum, a, MPFR_RNDU);
        mpfr_clear(a);
    }
}

void
hdo_radau_start_weights(mpfr_ptr w0, mpfr_srcptr c, slong s)
{
    mpfr_prec_t w = mpfr_get_prec(w0);
    for (slong j = 0; j < s; j++) {
        mpfr_t den;
        mpfr_init2(den, w);
        mpfr_set_ui(w0 + j, 1, MPFR_RNDN);
        for (slong k = 0; k < s; k++) {
            if (k == j)
                continue;
            mpfr_sub(den, c + j, c + k, MPFR_RNDN);
            mpfr_mul(w0 + j, w0 + j, c + k, MPFR_RNDN);
            mpfr_div(w0 + j, w0 + j, den, MPFR_RNDN);
            mpfr_neg(w0 + j, w0 + j, MPFR_RNDN);
        }
        mpfr_clear(den);
    }
}
