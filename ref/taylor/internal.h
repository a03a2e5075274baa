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

#endif
