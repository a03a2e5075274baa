/* precision.c -- the precision rule of a run: the working precision and
 * the tolerance from the digits asked for */
#include <math.h>
#include "result.h"

mpfr_prec_t
hdo_run_prec(long digits)
{
    return (mpfr_prec_t)ceil((double)(digits + 10) * 3.321928094887362348);
}

void
hdo_run_tol(mpfr_t tol, long digits)
{
    mpfr_set_ui(tol, 10, MPFR_RNDN);
    mpfr_pow_si(tol, tol, -(digits + 5), MPFR_RNDN);
}
