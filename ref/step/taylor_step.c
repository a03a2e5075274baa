/* taylor_step.c -- hdo_step_taylor: the Taylor integrator of taylor.h
 * behind the stepper interface */
#include <stdlib.h>
#include <string.h>
#include "step.h"
#include "taylor.h"

/* The series are the dense output: the table points into the expansion's
   own arrays, which hdo_taylor_init allocates once, so nothing is copied
   and the driver computes exactly what it did on hdo_taylor_t. */
static int
taylor_alloc(hdo_stepper_struct *s, hdo_model_t model,
             const hdo_reduced_struct *red, const hdo_expr *guards,
             slong nguards, mpfr_prec_t prec)
{
    hdo_taylor_struct *tay = malloc(sizeof *tay);
    HDO_ASSERT(tay != NULL);
    s->impl = tay;
    int st =
        hdo_taylor_init(tay, model, red, guards, nguards, NULL, 0, prec, 0);
    if (st != 0)
        snprintf(s->message, sizeof s->message, "%s", tay->init_message);
    else
        hdo_taylor_lazy_setup(
            tay); /* the driver's unknowns: decisions.md D-071 */
    tay->floor = s->floor;
    s->dense.order = tay->order;
    s->dense.state = (const mpfr_t *)tay->state_coef;
    s->dense.unknown = (const mpfr_t *)tay->unknown_coef;
    s->dense.guard = (const mpfr_t *)tay->guard_coef;
    s->dense.solved = tay->nlazy > 0 ? tay->lazy : NULL;
    return st;
}

static int
taylor_apply(hdo_stepper_struct *s, const mpfr_t t0, mpfr_srcptr xs,
             mpfr_srcptr xu, hdo_error_t *err)
{
    return hdo_taylor_expand(s->impl, t0, xs, xu, err);
}

static int
taylor_step_size(mpfr_t h, const hdo_stepper_struct *s)
{
    return hdo_taylor_step_size(h, s->impl, s->tol);
}

static void
taylor_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_stepper_struct *s,
            const mpfr_t h)
{
    hdo_taylor_eval(xs, xu, g, s->impl, h);
}

static int
taylor_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_struct *s, const mpfr_t h,
              hdo_error_t *err)
{
    return hdo_taylor_evolve(xs, xu, s->impl, h, err);
}

static double
taylor_stiffness(const hdo_stepper_struct *s)
{
    return hdo_taylor_stiffness(s->impl);
}

static void
taylor_max_residual(mpfr_t r, const hdo_stepper_struct *s)
{
    const hdo_taylor_struct *tay = s->impl;
    if (mpfr_cmp(tay->max_residual, r) > 0)
        mpfr_set(r, tay->max_residual, MPFR_RNDU);
}

static void
taylor_free(hdo_stepper_struct *s)
{
    if (s->impl == NULL)
        return;
    hdo_taylor_clear(s->impl);
    free(s->impl);
}

const hdo_step_type hdo_step_taylor = {.name = "taylor",
                                       .flags = 0,
                                       .alloc = taylor_alloc,
                                       .apply = taylor_apply,
                                       .step_size = taylor_step_size,
                                       .eval = taylor_eval,
                                       .evolve = taylor_evolve,
                                       .stiffness = taylor_stiffness,
                                       .max_residual = taylor_max_residual,
                                       .free = taylor_free};
