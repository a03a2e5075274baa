/* vec.c -- vectors of MPFR numbers: memory, dot products and norms */
#include <math.h>
#include "linalg.h"

mpfr_ptr
hdo_vec_init(slong n, mpfr_prec_t prec)
{
    mpfr_ptr v;
    slong i;

    /* One extra entry keeps the pointer non-NULL and unique for n = 0. */
    v = flint_malloc((n + 1) * sizeof(__mpfr_struct));
    for (i = 0; i < n; i++) {
        mpfr_init2(v + i, prec);
        mpfr_set_zero(v + i, 1);
    }
    return v;
}

void
hdo_vec_clear(mpfr_ptr v, slong n)
{
    slong i;

    for (i = 0; i < n; i++)
        mpfr_clear(v + i);
    flint_free(v);
}

void
hdo_vec_set(mpfr_ptr r, mpfr_srcptr v, slong n)
{
    slong i;

    for (i = 0; i < n; i++)
        mpfr_set(r + i, v + i, MPFR_RNDN);
}

void
hdo_vec_zero(mpfr_ptr v, slong n)
{
    slong i;

    for (i = 0; i < n; i++)
        mpfr_set_zero(v + i, 1);
}

void
hdo_vec_dot(mpfr_t r, mpfr_srcptr x, mpfr_srcptr y, slong n)
{
    slong i;
    mpfr_t t, acc;

    /* Accumulates in a temporary so that r may alias x or y. */
    mpfr_init2(t, mpfr_get_prec(r));
    mpfr_init2(acc, mpfr_get_prec(r));
    mpfr_set_zero(acc, 1);
    for (i = 0; i < n; i++) {
        mpfr_mul(t, x + i, y + i, MPFR_RNDN);
        mpfr_add(acc, acc, t, MPFR_RNDN);
    }
    mpfr_set(r, acc, MPFR_RNDN);
    mpfr_clear(t);
    mpfr_clear(acc);
}

void
hdo_vec_norm2(mpfr_t r, mpfr_srcptr v, slong n)
{
    slong i;
    mpfr_t t, acc;

    mpfr_init2(t, mpfr_get_prec(r) + 8);
    mpfr_init2(acc, mpfr_get_prec(r) + 8);
    mpfr_set_zero(acc, 1);
    for (i = 0; i < n; i++) {
        mpfr_sqr(t, v + i, MPFR_RNDN);
        mpfr_add(acc, acc, t, MPFR_RNDN);
    }
    mpfr_sqrt(r, acc, MPFR_RNDN);
    mpfr_clear(t);
    mpfr_clear(acc);
}

void
hdo_vec_norm_inf(mpfr_t r, mpfr_srcptr v, slong n)
{
    slong i;

    mpfr_set_zero(r, 1);
    for (i = 0; i < n; i++)
        if (mpfr_cmpabs(v + i, r) > 0)
            mpfr_abs(r, v + i, MPFR_RNDN);
}

double
hdo_log2_abs(mpfr_srcptr x)
{
    if (mpfr_inf_p(x))
        return INFINITY;
    if (!mpfr_regular_p(x))
        return -INFINITY;
#if GMP_NUMB_BITS == 64
    /* mpfr_get_d_2exp's d from the top limb (hdo_top_limb_sticky): a d
       rounded up to 1 gives e + 0 where MPFR gives (e + 1) + log2(1/2):
       the same double */
    return (double)mpfr_get_exp(x) +
           log2(0x1p-64 * (double)hdo_top_limb_sticky(x));
#else
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
#endif
}

int
hdo_same_number(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

double
hdo_log2_time_unit(double lspan)
{
    return lspan > -INFINITY && lspan < 0.0 ? lspan : 0.0;
}

void
hdo_time_horizon(mpfr_t H, const mpfr_t u, const mpfr_t t)
{
    mpfr_abs(H, t, MPFR_RNDN);
    if (mpfr_cmp(H, u) < 0)
        mpfr_set(H, u, MPFR_RNDN);
}
