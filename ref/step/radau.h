/* radau.h -- private to ref/step: the Radau IIA tableau */
#ifndef HDO_STEP_RADAU_H
#define HDO_STEP_RADAU_H

#include "step.h"

/* The s Radau IIA nodes c_1 < ... < c_s = 1 (the zeros of
   P_s(2c - 1) - P_{s-1}(2c - 1)) into c[0..s), to the precision of c.
   Returns 0, or HDO_ERR_NO_CONVERGENCE when the double-precision scan
   did not bracket s - 1 interior zeros (not for s <= 200). */
int hdo_radau_nodes(mpfr_ptr c, slong s);
/* The collocation matrix a_ij = integral over [0, c_i] of the Lagrange
   polynomial l_j of the nodes, into the s x s matrix A (its
   precision).  Returns 0 or HDO_ERR_SINGULAR. */
int hdo_radau_matrix(hdo_mat_t A, mpfr_srcptr c, slong s);

#endif
