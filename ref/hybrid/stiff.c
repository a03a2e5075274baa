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
    w->method = st->type->name;
    if (s < hdo_stiff_threshold(st->dense.order) || !mpfr_number_p(h)) {
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
    if (w->steps < HDO_STIFF_STEPS || !(w->h > 0))
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
    snprintf(buf, n,
             "mode %s is stiff since t = %.6g: the step of method %s, "
             "%.3g, is limited by stability, not accuracy (its series' "
             "radius of convergence is 10^%.1f times smaller from its last "
             "orders than from its first); at this step reaching t = %.6g "
             "needs about %.3g more steps",
             name, w->since, w->method, w->h, w->ratio, t_end,
             (t_end - t) / w->h);
}
