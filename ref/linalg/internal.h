/* internal.h -- linalg functions for the module and its tests only (not
   installed, not exported from libhdo.so) */
#ifndef HDO_LINALG_INTERNAL_H
#define HDO_LINALG_INTERNAL_H

#include "linalg.h"

/* hdo_svd with at most max_sweeps Jacobi sweeps instead of the default
   200 (a sweep that rotates no pair ends the iteration; it counts).
   Returns HDO_ERR_NO_CONVERGENCE when the last sweep allowed still
   rotated, with s, U, V from the columns as they then are.  hdo_svd
   never needs that many; the tests pass a small limit to reach the
   failure that no finite matrix provokes in practice. */
int hdo_svd_sweeps(mpfr_ptr s, hdo_mat_t U, hdo_mat_t V, const hdo_mat_t A,
                   slong max_sweeps);

#endif
