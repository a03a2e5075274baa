/* stiff.c -- the stiffness watch of the hybrid driver: which arc is stiff,
 * and whether the explicit method can still reach the end */
#include <math.h>
#include <stdio.h>
#include "driver.h"

void
hdo_stiff_watch_init(hdo_stiff_watch *w)
{
    w->mode = -1;
    w->steps = 0;
    w->since = 0;
    w->ratio = 0;
    w->h = 0;
    w->method = "";
    w->jac_mode = -1;
    w->jac_since = 0;
    w->jac_hits = 0;
    w->rho = 0;
    w->hrho = 0;
}

double
hdo_stiff_active_step(slong order, double ltol)
{
    slong p = order > 1 ? order : 1, j0 = (3 * p + 3) / 4;
    double best = INFINITY;
    for (slong j = j0 < 1 ? 1 : j0; j <= p; j++) {
        double r = exp(lgamma((double)j + 1.0) / (double)j);
        if (r < best)
            best = r;
    }
    return best * exp2(ltol / (double)p);
}

int
hdo_stiff_check_due(hdo_stiff_watch *w, slong mode)
{
    if (w->jac_mode != mode) {
        w->jac_mode = mode;
        w->jac_since = 0;
        w->jac_hits = 0;
    }
    return ++w->jac_since % HDO_STIFF_CHECK_EVERY == 0;
}

double
hdo_stiff_jacobian_ratio(hdo_stiff_watch *w, double rho, double h, slong order,
                         double ltol)
{
    double q = 0;
    if (rho >= 0 && h > 0 && isfinite(h))
        q = h * rho / hdo_stiff_active_step(order, ltol);
    w->rho = rho;
    w->hrho = q;
    w->jac_hits = q >= HDO_STIFF_JAC_RATIO ? w->jac_hits + 1 : 0;
    return q;
}

double
hdo_stiff_threshold(slong order)
{
    return log10((double)(order > 1 ? order : 1)) + HDO_STIFF_MARGIN;
}

void
hdo_stiff_watch_step(hdo_stiff_watch *w, const hdo_stepper_t st, slong mode,
                     const mpfr_t t, const mpfr_t h)
{
    double s = hdo_stepper_stiffness(st);
    int jac = w->jac_mode == mode && w->jac_hits > 0;
    w->method = st->type->name;
    if ((s < hdo_stiff_threshold(st->dense.order) && !jac) ||
        !mpfr_number_p(h)) {
        w->steps = 0;
        return;
    }
    if (w->steps == 0 || w->mode != mode) {
        w->mode = mode;
        w->steps = 0;
        w->since = mpfr_get_d(t, MPFR_RNDN);
    }
    w->steps++;
    w->ratio = s;
    w->h = mpfr_get_d(h, MPFR_RNDN);
}

int
hdo_stiff_watch_hopeless(const hdo_stiff_watch *w, double t, double t_end,
                         long steps, long max_steps)
{
    if (w->steps < HDO_STIFF_STEPS || !(w->h > 0))
        return 0;
    /* (t_end - t) / h further steps at the current size: a stiff arc's
       step is fixed by the fast mode's stability and stays near it. */
    return (double)steps + (t_end - t) / w->h > (double)max_steps;
}

int
hdo_stiff_watch_switch_due(const hdo_stiff_watch *w, double t, double t_end)
{
    if (!(w->h > 0))
        return 0;
    if (w->jac_hits >= HDO_STIFF_CHECKS && w->jac_mode == w->mode &&
        (t_end - t) / w->h > HDO_AUTO_SWITCH_MIN_STEPS)
        return 1;
    if (w->steps < HDO_STIFF_STEPS)
        return 0;
    return (t_end - t) / w->h > HDO_AUTO_SWITCH_STEPS;
}

void
hdo_stiff_watch_describe(char *buf, size_t n, const hdo_stiff_watch *w,
                         const hdo_model_struct *model, double t, double t_end)
{
    const char *name = w->mode >= 0 && w->mode < model->nmodes
                           ? model->modes[w->mode].name
                           : "(a sliding mode)";
    char why[200];
    if (w->jac_hits > 0 && w->jac_mode == w->mode)
        snprintf(why, sizeof why,
                 "the step times the Jacobian's spectral radius, %.3g, is "
                 "%.3g times what resolving a mode that fast needs",
                 w->rho, w->hrho);
    else
        snprintf(why, sizeof why,
                 "its series' radius of convergence is 10^%.1f times "
                 "smaller from its last orders than from its first",
                 w->ratio);
    snprintf(buf, n,
             "mode %s is stiff since t = %.6g: the step of method %s, "
             "%.3g, is limited by stability, not accuracy (%s); at this "
             "step reaching t = %.6g needs about %.3g more steps",
             name, w->since, w->method, w->h, why, t_end, (t_end - t) / w->h);
}
