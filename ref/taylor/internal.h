/* internal.h -- private to ref/taylor/: error reporting with the mode and time
 */
#ifndef HDO_TAYLOR_INTERNAL_H
#define HDO_TAYLOR_INTERNAL_H

#include "taylor.h"

/* Fills err (if not NULL) with status, msg, the mode of tay and time t
   (NULL: no time), and returns status. */
int hdo_taylor_fail(hdo_error_t *err, const hdo_taylor_t tay, int status,
                    const mpfr_t t, const char *msg);

/* The coefficient array of a series source. */
static inline mpfr_t *
hdo_taylor_src_coef(const hdo_taylor_struct *tay, hdo_taylor_src s)
{
    return (s.kind == HDO_TAYLOR_SRC_STATE ? tay->state_coef
                                           : tay->unknown_coef) +
           s.idx * (tay->order + 1);
}

/* lazy.c: frees what hdo_taylor_lazy_setup allocated; factors the needed
   block of dh/dxu at the expansion point from tay->jac's values (returns
   hdo_lu_factor's status); solves the lazy unknowns at t0 + h by Newton
   from xs (states there) and xu (needed unknowns there, lazy ones a
   guess), failures recorded in tay->lazy_status (the values NaN). */
void hdo_taylor_lazy_clear(hdo_taylor_t tay);
int hdo_taylor_lazy_factor(hdo_taylor_t tay);
void hdo_taylor_lazy_solve(mpfr_ptr xu, hdo_taylor_t tay, mpfr_srcptr xs,
                           const mpfr_t h);

#endif
