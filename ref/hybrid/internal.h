/* internal.h -- private helpers shared by the files of ref/hybrid */
#ifndef HDO_HYBRID_INTERNAL_H
#define HDO_HYBRID_INTERNAL_H

#include <stdio.h>
#include "hybrid.h"
#include "reduce.h"

void hdo_result_setup(hdo_result_t res, const hdo_model_t model, long digits,
                      mpfr_prec_t prec);
/* Appends a row (values NaN, present 0) / an event (states NaN); the
   returned pointer is valid until the next append. */
hdo_row *hdo_result_add_row(hdo_result_t res, const mpfr_t t, slong mode);
hdo_event *hdo_result_add_event(hdo_result_t res, const mpfr_t t, slong from,
                                slong to, hdo_event_kind kind,
                                const char *guard);

/* The Filippov sliding mode of modes a and b (reduced forms ra, rb, both
   explicit ODEs) on the surface S = 0 (S = a's guard, a feasible while
   S >= 0): a reduced form (out->mode = a) with
   der(x) = alpha f_a + (1 - alpha) f_b for the variables of both modes
   (a variable of one mode only keeps its equation) and alpha =
   L_b S / (L_b S - L_a S), the value that keeps d/dt S = 0 (KM (35)
   with the constraint S = 0 differentiated once), and a's algebraic
   (implicit) part, which must be b's too (the same expressions).
   *alpha is set.
   Returns 0, or HDO_ERR_UNSUPPORTED with the reason in why. */
int hdo_sliding_build(hdo_reduced_struct *out, hdo_expr *alpha,
                      hdo_model_struct *model, const hdo_reduced_struct *ra,
                      const hdo_reduced_struct *rb, hdo_expr S, char *why,
                      size_t nwhy);
/* 1 if ra and rb differ only in their explicit equations. */
int hdo_sliding_same_implicit(const hdo_reduced_struct *ra,
                              const hdo_reduced_struct *rb);
/* L_r S = dS/dt along the explicit flow of r; HDO_EXPR_NONE when S has
   a variable that r does not give explicitly. */
hdo_expr hdo_sliding_lie(hdo_model_struct *model, const hdo_reduced_struct *r,
                         hdo_expr S);

#endif
