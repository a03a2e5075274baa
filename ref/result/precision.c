/* precision.c -- the precision rule of a run: the digits, the working
 * precision, the tolerance and --verify's digits (result.h) */
#include <math.h>
#include "result.h"

long
hdo_run_digits(long digits)
{
    return digits > 0 ? digits : HDO_DIGITS_DEFAULT;
}

long
hdo_run_verify_digits(long digits)
{
    return hdo_run_digits(digits) + HDO_VERIFY_EXTRA_DIGITS;
}

mpfr_prec_t
hdo_run_prec(long digits)
{
    return (mpfr_prec_t)ceil((double)(digits + HDO_GUARD_DIGITS) *
                             3.321928094887362348);
}

void
hdo_run_tol(mpfr_t tol, long digits)
{
    mpfr_set_ui(tol, 10, MPFR_RNDN);
    mpfr_pow_si(tol, tol, -(digits + HDO_TOL_GUARD_DIGITS), MPFR_RNDN);
}
