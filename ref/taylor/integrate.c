/* integrate.c -- the evolve layer (step, residual, projection) and a driver for
 * one mode without events */
#include "internal.h"

int
hdo_taylor_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_taylor_t tay, const mpfr_t h,
                  hdo_error_t *err)
{
    const hdo_reduced_struct *r = tay->red;
    mpfr_t t1, res;
    int st = 0, adjusted;

    hdo_taylor_eval(xs, xu, NULL, tay, h);
    if (tay->lazy_status != 0) /* a lazy unknown could not be solved */
        return hdo_taylor_fail(err, tay, tay->lazy_status, tay->t0,
                               tay->lazy_message);
    if (r->ncons == 0 && r->nimplicit == 0)
        return 0; /* an ODE: nothing to keep */
    mpfr_inits2(tay->prec, t1, res, (mpfr_ptr)0);
    mpfr_add(t1, tay->t0, h, MPFR_RNDN);
    /* The residual before the projection measures the drift of the dense
       output off the constraints over the step; after it, it is at
       rounding level by construction. */
    hdo_reduced_residual(res, tay->model, r, t1, xs, xu);
    if (mpfr_nan_p(res) || mpfr_cmp(res, tay->max_residual) > 0)
        mpfr_set(tay->max_residual, res, MPFR_RNDU);
    st = hdo_consistent_init(xs, xu, &adjusted, tay->model, r, t1, tay->fixed,
                             tay->prec, err);
    mpfr_clears(t1, res, (mpfr_ptr)0);
    return st;
}

int
hdo_taylor_integrate(mpfr_ptr xs, mpfr_ptr xu, hdo_taylor_t tay,
                     const mpfr_t t0, const mpfr_t t1, slong *steps,
                     hdo_error_t *err)
{
    mpfr_t t, h, rem, span, lim;
    slong n = 0;
    int st = 0, dir = mpfr_cmp(t1, t0) >= 0 ? 1 : -1;

    mpfr_inits2(tay->prec, t, h, rem, span, lim, (mpfr_ptr)0);
    mpfr_set(t, t0, MPFR_RNDN);
    mpfr_sub(span, t1, t0, MPFR_RNDN);
    mpfr_abs(span, span, MPFR_RNDN);
    while (!mpfr_equal_p(t, t1)) {
        int last = 0;
        if ((st = hdo_taylor_expand(tay, t, xs, xu, err)) != 0)
            break;
        hdo_taylor_step_size(h, tay, tay->tol);
        mpfr_sub(rem, t1, t, MPFR_RNDN);
        mpfr_abs(rem, rem, MPFR_RNDN);
        if (mpfr_cmp(h, rem) >= 0) {
            mpfr_set(h, rem, MPFR_RNDN);
            last = 1;
        }
        /* A step that no longer moves t by more than rounding means a
           singularity of the solution (or a tolerance below the
           precision). */
        mpfr_abs(lim, t, MPFR_RNDN);
        if (mpfr_cmp(lim, span) < 0)
            mpfr_set(lim, span, MPFR_RNDN);
        mpfr_mul_2si(lim, lim, -(long)tay->prec, MPFR_RNDN);
        if (!last && mpfr_cmp(h, lim) <= 0) {
            char msg[200];
            mpfr_snprintf(msg, sizeof msg,
                          "the step size collapsed to %.6Rg (a singularity "
                          "of the solution?)",
                          h);
            st = hdo_taylor_fail(err, tay, HDO_ERR_STEP_COLLAPSE, t, msg);
            break;
        }
        if (dir < 0)
            mpfr_neg(h, h, MPFR_RNDN);
        n++;
        if ((st = hdo_taylor_evolve(xs, xu, tay, h, err)) != 0)
            break;
        if (last)
            mpfr_set(t, t1, MPFR_RNDN);
        else
            mpfr_add(t, t, h, MPFR_RNDN);
    }
    if (steps != NULL)
        *steps = n;
    mpfr_clears(t, h, rem, span, lim, (mpfr_ptr)0);
    return st;
}
