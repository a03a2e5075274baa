/* stiff.c -- stiffness estimate of an arc from the Taylor coefficients of
 * one expansion */
#include <math.h>
#include "internal.h"

/* *best := max(*best, log2 of rho_low_i / rho_high_i) over the components
   of one coefficient table, rho_w_i = min over j in window w ([1, lo1],
   then [hi0, p]) of (M_i / |c_ij|)^(1/j); *any := 1 when a component
   has both.  M_i is the component's magnitude (control.c's rule: the
   floor, |c_0| and |c_1| r) over rho_i = h_i tol^(-1/p), the radius of
   convergence behind its step h_i: its amplitude, so that a component
   crossing zero (c_0 = 0) has the low-order radius of its oscillation,
   not of its value, and a smooth component has both radii alike,
   whatever its scale.  The ratio is taken per component: the radii of
   two components (a fast one of size 1, a slow one of size 1e-5, as in
   Robertson's problem) do not mix.  The floor is what makes a fast mode
   damped below tol times its earlier size stiff: below the floor its
   digits are absolute, and resolving it further is what a stiff method
   avoids.  A component whose low orders vanish tells nothing. */
static void
ratio(double *best, int *poly, const mpfr_t *c, slong n, const char *skip,
      mpfr_srcptr floor, const double *kept, slong p, slong lo1, slong hi0,
      double ltol, double lhz, double lrad)
{
    for (slong i = 0; i < n; i++) {
        const mpfr_t *ci = c + i * (p + 1);
        if (skip != NULL && skip[i])
            continue; /* a lazy unknown: no series (taylor.h) */
        double lf = floor != NULL && !mpfr_zero_p(floor + i)
                        ? hdo_log2_abs(floor + i)
                        : -INFINITY;
        /* the step hdo_taylor_step_size found for it, or the same rule */
        double lh = kept != NULL
                        ? kept[i]
                        : hdo_taylor_component_step(ci, p, lf, ltol, lhz, lrad);
        if (lh == -INFINITY)
            continue;
        if (lh == INFINITY)
            continue; /* its window vanishes: no limit from it */
        *poly = 0;
        double lm =
            hdo_taylor_component_magnitude(ci, p, lf, lh - ltol / (double)p);
        if (lm == -INFINITY)
            continue; /* identically zero */
        double r[2] = {INFINITY, INFINITY};
        for (int w = 0; w < 2; w++)
            for (slong j = w ? hi0 : 1; j <= (w ? p : lo1); j++) {
                if (mpfr_zero_p(ci[j]) || !mpfr_number_p(ci[j]))
                    continue;
                double x = (lm - hdo_log2_abs(ci[j])) / (double)j;
                if (x < r[w])
                    r[w] = x;
            }
        if (isfinite(r[0]) && isfinite(r[1]) && r[0] - r[1] > *best)
            *best = r[0] - r[1];
    }
}

double
hdo_taylor_stiffness(const hdo_taylor_t tay)
{
    slong p = tay->order, lo1, hi0 = hdo_taylor_first_window_order(p);
    slong ns = tay->red->nstate;
    double best = -INFINITY, ltol;
    int poly = 1;

    HDO_ASSERT(tay->expanded);
    lo1 = p / 8 < 1 ? 1 : (p / 8 > 4 ? 4 : p / 8);
    if (p < 8 || hi0 <= lo1)
        return 0.0; /* too few orders to tell two scales apart */
    ltol = hdo_log2_abs(tay->tol);
    const double *kept = tay->comp_valid ? tay->comp_lh : NULL;
    if (kept != NULL)
        ltol = tay->comp_ltol; /* the tolerance those steps were for */
    double lhz = hdo_taylor_noise_horizon(tay),
           lrad = lhz + 0.5 * (double)tay->prec;
    ratio(&best, &poly, tay->state_coef, ns, NULL, tay->floor, kept, p, lo1,
          hi0, ltol, lhz, lrad);
    ratio(&best, &poly, tay->unknown_coef, tay->red->nimplicit, tay->lazy,
          tay->floor != NULL ? tay->floor + ns : NULL,
          kept != NULL ? kept + ns : NULL, p, lo1, hi0, ltol, lhz, lrad);
    if (poly || best == -INFINITY)
        return 0.0; /* a polynomial series, or nothing to compare */
    return best * 0.30102999566398120; /* log10 */
}
