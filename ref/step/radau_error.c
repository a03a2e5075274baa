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
                   slong n, slong s, mpfr_prec_t w)
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
