/* radau_error.h -- private to ref/step: Radau IIA's error estimates of a
 * step's dense output (radau_error.c says how and why) */
#ifndef HDO_STEP_RADAU_ERROR_H
#define HDO_STEP_RADAU_ERROR_H

#include <flint/flint.h>
#include <mpfr.h>

/* e := the largest |Y_1 - p(c_1)| / sc_i over the n components, p the
   polynomial through the stages 2..s (weights L[1..s), stage increments
   Z, s x n), computed at w bits. */
void hdo_radau_top_term(mpfr_t e, mpfr_srcptr Z, mpfr_srcptr L, mpfr_srcptr sc,
                        slong n, slong s, mpfr_prec_t w);
/* e := max(e, the largest |sum_j w0_j Z_j| / sc_i): y0's distance from
   the stages' polynomial at tau = 0 (modes with switching functions). */
void hdo_radau_start_term(mpfr_t e, mpfr_srcptr Z, mpfr_srcptr w0,
                          mpfr_srcptr sc, slong n, slong s, mpfr_prec_t w);

#endif
