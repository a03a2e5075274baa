/* farith.c -- add, sub and mul correctly rounded to nearest on the limbs
 * for the callers outside program.c (farith.h; decisions.md D-132) */
#include "farith.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

void
hdo_erange_get(hdo_erange *er)
{
    er->emin = mpfr_get_emin();
    er->emax = mpfr_get_emax();
}

int
hdo_add_rn_limbs(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    return fa_add(r, a, b, 0, er);
}

int
hdo_sub_rn_limbs(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    return fa_add(r, a, b, 1, er);
}

int
hdo_mul_rn_limbs(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    return fa_mul(r, a, b, er);
}

void
hdo_add_rn(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    if (fa_add(r, a, b, 0, er) != 0)
        mpfr_add(r, a, b, MPFR_RNDN);
}

void
hdo_sub_rn(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    if (fa_add(r, a, b, 1, er) != 0)
        mpfr_sub(r, a, b, MPFR_RNDN);
}

void
hdo_mul_rn(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    if (fa_mul(r, a, b, er) != 0)
        mpfr_mul(r, a, b, MPFR_RNDN);
}
