/* zeno.c -- the numerics of Zeno limits: Aitken extrapolation, the period of
 * a cascade of events, geometric convergence of event states */
#include "event.h"
#include "linalg.h"

/* The driver (zenodetect.c) decides when events accumulate and takes the `zeno`
   clause; this file holds the parts that only look at numbers, so that
   they can be read (and changed) without the driver's bookkeeping. */

void
hdo_zeno_aitken(mpfr_t out, mpfr_srcptr x0, mpfr_srcptr x1, mpfr_srcptr x2,
                const mpfr_t eps)
{
    mpfr_t d1, d2, den;
    mpfr_inits2(mpfr_get_prec(out), d1, d2, den, (mpfr_ptr)0);
    mpfr_sub(d1, x1, x0, MPFR_RNDN);
    mpfr_sub(d2, x2, x1, MPFR_RNDN);
    mpfr_sub(den, d1, d2, MPFR_RNDN);
    if (mpfr_cmpabs(d2, eps) <= 0 || mpfr_cmpabs(d2, d1) >= 0 ||
        mpfr_zero_p(den) || mpfr_sgn(d1) * mpfr_sgn(d2) <= 0) {
        mpfr_set(out, x2, MPFR_RNDN);
    } else {
        /* x2 + d2^2 / (d1 - d2) */
        mpfr_sqr(d2, d2, MPFR_RNDN);
        mpfr_div(d2, d2, den, MPFR_RNDN);
        mpfr_add(out, x2, d2, MPFR_RNDN);
    }
    mpfr_clears(d1, d2, den, (mpfr_ptr)0);
}

slong
hdo_zeno_period(const slong *src, const slong *g, slong n, slong nsamples,
                slong pmax)
{
    for (slong p = 1; p <= pmax; p++) {
        slong first = n - 1 - (nsamples - 1) * p; /* oldest in the window */
        if (first < 0)
            break;
        int ok = 1;
        for (slong i = first + p; ok && i < n; i++)
            ok = src[i] == src[i - p] && g[i] == g[i - p];
        if (ok)
            return p;
    }
    return 0;
}

/* max(|x|, big) * tol into r: relative to the component, and below it
   to the size big of the whole state (max(1, |x|) up to stop 21: a
   model scaled by 1e-40 took any cascade for a converging one). */
static void
rel_tol(mpfr_t r, mpfr_srcptr x, mpfr_srcptr big, const mpfr_t tol)
{
    mpfr_abs(r, x, MPFR_RNDN);
    mpfr_max(r, r, big, MPFR_RNDN);
    mpfr_mul(r, r, tol, MPFR_RNDN);
}

int
hdo_zeno_state_limit(mpfr_ptr lim, mpfr_srcptr const *y, slong n, slong dim,
                     const mpfr_t tol, mpfr_prec_t prec)
{
    if (n < 4 || dim <= 0)
        return 0;
    mpfr_t d, s, prev, eps, big;
    mpfr_inits2(prec, d, s, prev, eps, big, (mpfr_ptr)0);
    mpfr_ptr a = hdo_vec_init(dim, prec), b = hdo_vec_init(dim, prec);
    int ok = 1;

    /* the relative differences strictly shrink and never vanish */
    mpfr_set_inf(prev, 1);
    for (slong k = 1; ok && k < n; k++) {
        mpfr_set_ui(s, 0, MPFR_RNDN);
        hdo_vec_norm_inf(big, y[k], dim);
        for (slong i = 0; i < dim; i++) {
            mpfr_sub(d, y[k] + i, y[k - 1] + i, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            mpfr_abs(eps, y[k] + i, MPFR_RNDN);
            mpfr_max(eps, eps, big, MPFR_RNDN);
            if (!mpfr_zero_p(eps))
                mpfr_div(d, d, eps, MPFR_RNDN);
            if (mpfr_cmp(d, s) > 0)
                mpfr_set(s, d, MPFR_RNDN);
        }
        ok = mpfr_sgn(s) > 0 && mpfr_cmp(s, prev) < 0;
        mpfr_set(prev, s, MPFR_RNDN);
    }
    /* the Aitken limits of all consecutive triples agree within tol */
    for (slong k = 2; ok && k < n; k++) {
        hdo_vec_norm_inf(big, y[k], dim);
        for (slong i = 0; i < dim; i++) {
            rel_tol(eps, y[k] + i, big, tol);
            hdo_zeno_aitken(b + i, y[k - 2] + i, y[k - 1] + i, y[k] + i, eps);
        }
        if (k > 2)
            for (slong i = 0; ok && i < dim; i++) {
                mpfr_sub(d, b + i, a + i, MPFR_RNDN);
                rel_tol(eps, b + i, big, tol);
                ok = mpfr_cmpabs(d, eps) <= 0;
            }
        mpfr_ptr t = a;
        a = b;
        b = t;
    }
    if (ok)
        hdo_vec_set(lim, a, dim);
    hdo_vec_clear(a, dim);
    hdo_vec_clear(b, dim);
    mpfr_clears(d, s, prev, eps, big, (mpfr_ptr)0);
    return ok;
}

int
hdo_zeno_guard_leaves(mpfr_srcptr c, slong len, const mpfr_t H,
                      const mpfr_t tol, mpfr_srcptr floor)
{
    /* the zero rule of hdo_event_locate (KM Remark 12): the first
       coefficient beyond the tolerance decides */
    slong m = hdo_event_zero_order(c, len, H, tol, floor);
    return m < len && mpfr_sgn(c + m) > 0;
}
