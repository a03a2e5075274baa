/* radau_scale.c -- the scale of each component in Radau IIA's Newton
 * iteration and error estimate: relative to its own size */
#include "radau.h"

/* Why.  Radau IIA measured every error against max(1, |y0|), so below 1
   the tolerance was absolute: x' = -x (1 + t) from x = 1e-50 took its
   whole run in steps whose Newton iteration stopped before x moved
   (issue 23).  Each component is now measured against its own size over
   the step, with two floors: the driver's (floors.c: nominal values,
   values fallen tol below their largest magnitude), and the rounding of
   the iteration, 2^-(3s + 25) of the largest component.  A component
   that is zero in the truth is computed as the Newton iteration's
   rounding, about 2^(8 - wprec) of the largest component (wprec = prec
   + 3s + 32); against this floor that noise is 2^(1 - prec), below the
   iteration's stopping tolerance tol 2^-8 / Lsum (tol = 2^(17 - prec),
   Lsum < 2^8), so it neither stalls the iteration nor fails the error
   estimate.  At 30 digits (s about 10) the floor is 3e-17 of the
   largest component, and tol times it 3e-52: a component of 1e-20
   beside one of 1 still has its 30 digits. */

void
hdo_radau_scales(mpfr_ptr sc, mpfr_srcptr y0, mpfr_srcptr Z, mpfr_srcptr floor,
                 slong N, slong s)
{
    mpfr_t a, low;
    mpfr_inits2(64, a, low, (mpfr_ptr)0);
    mpfr_set_zero(low, 1);
    for (slong i = 0; i < N; i++)
        if (mpfr_cmpabs(y0 + i, low) > 0)
            mpfr_abs(low, y0 + i, MPFR_RNDN);
    mpfr_mul_2si(low, low, -(3 * s + 25), MPFR_RNDN);
    for (slong i = 0; i < N; i++) {
        mpfr_abs(sc + i, y0 + i, MPFR_RNDN);
        if (Z != NULL) {
            mpfr_add(a, y0 + i, Z + i, MPFR_RNDN);
            mpfr_abs(a, a, MPFR_RNDN);
            mpfr_max(sc + i, sc + i, a, MPFR_RNDN);
        }
        if (floor != NULL)
            mpfr_max(sc + i, sc + i, floor + i, MPFR_RNDN);
        mpfr_max(sc + i, sc + i, low, MPFR_RNDN);
    }
    mpfr_clears(a, low, (mpfr_ptr)0);
}

void
hdo_radau_scaled_max(mpfr_t e, mpfr_srcptr a, slong n, slong N, mpfr_srcptr sc)
{
    mpfr_t q;
    mpfr_init2(q, 64);
    for (slong k = 0; k < n; k++) {
        mpfr_srcptr s = sc + k % N;
        if (mpfr_zero_p(a + k))
            continue;
        if (mpfr_zero_p(s)) {
            mpfr_set_inf(e, 1); /* a whole state of zeros moved */
            break;
        }
        mpfr_div(q, a + k, s, MPFR_RNDU);
        mpfr_abs(q, q, MPFR_RNDU);
        mpfr_max(e, e, q, MPFR_RNDU);
    }
    mpfr_clear(q);
}
