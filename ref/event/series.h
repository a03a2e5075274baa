/* series.h -- helpers on a guard's series shared by the files of
 * ref/event */
#ifndef HDO_EVENT_SERIES_H
#define HDO_EVENT_SERIES_H

#include <flint/flint.h>
#include <mpfr.h>

/* The number of coefficients up to the last nonzero one (at least 1). */
slong hdo_event_actual_len(mpfr_srcptr c, slong len);

/* scale := max_k |c_k| H^k at 64 bits, each term rounded up; lc NULL,
   or lc[k] = log2 |c_k| + k log2 H in doubles to compute only the terms
   that can be the largest (the same bits; locate.c). */
void hdo_event_coef_scale(mpfr_t scale, mpfr_srcptr c, slong len,
                          const mpfr_t H, const double *lc);

#endif
