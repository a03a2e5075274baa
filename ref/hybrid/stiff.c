/* stiff.c -- the stiffness watch of the hybrid driver: which arc is stiff,
 * and whether the explicit method can still reach the end; the method of
 * an arc (--method) and the automatic switch to the implicit one */
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* The method of a new arc of reduced form red (hdo_run_options.method):
   Radau IIA for an ODE or index-1 DAE mode under --method implicit, else Taylor
   (auto switches later, in step (run.c), where an arc is stiff). */
static const hdo_step_type *
stepper_for(const run_ctx *c, const hdo_reduced_struct *red)
{
    if (c->opt->method == HDO_METHOD_IMPLICIT && hdo_reduced_is_index1(red))
        return &hdo_step_radau;
    return &hdo_step_taylor;
}

/* hdo_stepper_init with the method of stepper_for; an implicit method
   that cannot take the mode (HDO_ERR_UNSUPPORTED: a switching function
   that reads a derivative the reduced form does not provide) leaves it
   to the Taylor method.  Modes with switching functions and sign-pattern
   modes are the implicit method's too (issue #18). */
int
hdo_run_stepper_init(const run_ctx *c, hdo_stepper_t s, hdo_model_t model,
                     const hdo_reduced_struct *red, const hdo_expr *guards,
                     slong ng)
{
    const hdo_step_type *type = stepper_for(c, red);
    int st = hdo_stepper_init(s, type, model, red, guards, ng, c->prec);
    if (st == HDO_ERR_UNSUPPORTED && type != &hdo_step_taylor) {
        hdo_stepper_clear(s);
        st = hdo_stepper_init(s, &hdo_step_taylor, model, red, guards, ng,
                              c->prec);
    }
    return st;
}

/* The Jacobian test at this step of mode m (stepper st at c->t, the
   mode's point xs, xu, the natural step h), every
   HDO_STIFF_CHECK_EVERY steps of an ODE or index-1 arc on the Taylor
   method; the watch keeps the verdict. */
void
hdo_run_stiff_check(run_ctx *c, slong m, hdo_stepper_t st, mpfr_srcptr xs,
                    mpfr_srcptr xu, const mpfr_t h)
{
    if (st->type != &hdo_step_taylor || !hdo_reduced_is_index1(st->red) ||
        !mpfr_number_p(h) || !hdo_stiff_check_due(&c->stiff, m))
        return;
    double rho = hdo_stepper_spectral_radius(st, c->t, xs, xu);
    hdo_stiff_jacobian_ratio(&c->stiff, rho, mpfr_get_d(h, MPFR_RNDN),
                             st->dense.order,
                             (double)mpfr_get_exp(c->tol) - 1.0);
}

/* --method auto: an ODE or index-1 DAE arc that has been stiff for
   HDO_STIFF_STEPS steps with more than HDO_AUTO_SWITCH_STEPS steps ahead at its
   step size goes on with Radau IIA; returns 1 when the stepper of mode m was
   switched. */
int
hdo_run_auto_switch(run_ctx *c, slong m)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    if (c->opt->method != HDO_METHOD_AUTO ||
        mc->step->type != &hdo_step_taylor ||
        !hdo_reduced_is_index1(mc->step->red) ||
        !hdo_stiff_watch_switch_due(&c->stiff, mpfr_get_d(c->t, MPFR_RNDN),
                                    mpfr_get_d(c->t_end, MPFR_RNDN)))
        return 0;
    if (hdo_stepper_switch(mc->step, &hdo_step_radau) != 0)
        return 0; /* Taylor goes on, and the watch reports */
    c->res->method_switches++;
    hdo_stiff_watch_init(&c->stiff);
    return 1;
}

/* "; <the stiffness diagnosis>" for an error message. */
void
hdo_run_stiff_why(char *buf, size_t n, const run_ctx *c)
{
    buf[0] = ';';
    buf[1] = ' ';
    hdo_stiff_watch_describe(buf + 2, n - 2, &c->stiff, c->model,
                             mpfr_get_d(c->t, MPFR_RNDN),
                             mpfr_get_d(c->t_end, MPFR_RNDN));
}

/* Records that a step of method name starts at c->t: extends the last
   arc of res->method_arcs, or opens a new one when the method changed
   (the previous one ends here). */
void
hdo_run_note_method(run_ctx *c, const char *name)
{
    hdo_result_struct *res = c->res;
    double t = mpfr_get_d(c->t, MPFR_RNDN);
    if (res->nmethod_arcs > 0 &&
        strcmp(res->method_arcs[res->nmethod_arcs - 1].method, name) == 0) {
        res->method_arcs[res->nmethod_arcs - 1].t_end = t;
        return;
    }
    if (res->nmethod_arcs == res->method_arcs_alloc) {
        res->method_arcs_alloc = 2 * res->method_arcs_alloc + 4;
        res->method_arcs =
            realloc(res->method_arcs,
                    res->method_arcs_alloc * sizeof *res->method_arcs);
        HDO_ASSERT(res->method_arcs != NULL);
    }
    if (res->nmethod_arcs > 0)
        res->method_arcs[res->nmethod_arcs - 1].t_end = t;
    res->method_arcs[res->nmethod_arcs].t_start = t;
    res->method_arcs[res->nmethod_arcs].t_end = t;
    res->method_arcs[res->nmethod_arcs].method = name;
    res->nmethod_arcs++;
}
