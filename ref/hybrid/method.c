/* method.c -- which stepper integrates an arc of the hybrid driver
 * (--method, by the step types' capability flags), --method auto's switch
 * to an implicit one, and the record of the methods' arcs */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* The method of a new arc of reduced form red (hdo_run_options.method):
   under --method implicit the first implicit step type that takes red
   (Radau IIA, for an ODE or index-1 DAE mode), else the default one,
   Taylor (auto switches later, in step (run.c), where an arc is
   stiff). */
static const hdo_step_type *
stepper_for(const run_ctx *c, const hdo_reduced_struct *red)
{
    const hdo_step_type *t = NULL;
    if (c->opt->method == HDO_METHOD_IMPLICIT)
        t = hdo_step_type_find(HDO_STEP_IMPLICIT, red);
    return t != NULL ? t : hdo_step_types[0];
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
    int st = hdo_stepper_init(s, type, model, red, guards, ng, c->prec, c->tol);
    if (st == HDO_ERR_UNSUPPORTED && (type->flags & HDO_STEP_IMPLICIT)) {
        hdo_stepper_clear(s);
        st = hdo_stepper_init(s, hdo_step_types[0], model, red, guards, ng,
                              c->prec, c->tol);
    }
    return st;
}

/* The Jacobian test at this step of mode m (stepper st at c->t, the
   mode's point xs, xu, the natural step h), every
   HDO_STIFF_CHECK_EVERY steps of an arc on an explicit method that an
   implicit one could take (an ODE or index-1 arc); the watch keeps the
   verdict. */
void
hdo_run_stiff_check(run_ctx *c, slong m, hdo_stepper_t st, mpfr_srcptr xs,
                    mpfr_srcptr xu, const mpfr_t h)
{
    if ((st->type->flags & HDO_STEP_IMPLICIT) ||
        hdo_step_type_find(HDO_STEP_IMPLICIT, st->red) == NULL ||
        !mpfr_number_p(h) || !hdo_stiff_check_due(&c->stiff, m))
        return;
    double rho = hdo_stepper_spectral_radius(st, c->t, xs, xu);
    hdo_stiff_jacobian_ratio(&c->stiff, rho, mpfr_get_d(h, MPFR_RNDN),
                             st->dense.order,
                             (double)mpfr_get_exp(c->tol) - 1.0);
}

/* --method auto: an ODE or index-1 DAE arc that has been stiff for
   HDO_STIFF_STEPS steps with more than HDO_AUTO_SWITCH_STEPS steps ahead at
   its step size goes on with the first implicit step type that takes it
   (Radau IIA); returns 1 when the stepper of the current mode's cache mc
   was switched.  mc is handed in (step() holds it), so that the choice of
   method does not look modes up: method.c is below mode.c. */
int
hdo_run_auto_switch(run_ctx *c, mode_cache *mc)
{
    const hdo_step_type *to;
    if (c->opt->method != HDO_METHOD_AUTO ||
        (mc->step->type->flags & HDO_STEP_IMPLICIT) ||
        (to = hdo_step_type_find(HDO_STEP_IMPLICIT, mc->step->red)) == NULL ||
        !hdo_stiff_watch_switch_due(&c->stiff, mpfr_get_d(c->t, MPFR_RNDN),
                                    mpfr_get_d(c->t_end, MPFR_RNDN)))
        return 0;
    if (hdo_stepper_switch(mc->step, to) != 0)
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
