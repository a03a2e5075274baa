/* taylor_step.c -- hdo_step_taylor: the Taylor integrator of taylor.h
 * behind the stepper interface */
#include <stdlib.h>
#include <string.h>
#include "step.h"
#include "taylor.h"

/* The expansion and what its last successful apply was given: the
   expansion point, the states, the unknowns and the scale floors (the
   only inputs of hdo_taylor_expand besides the compiled program; the
   guards' noise floors, inputs of the step size), each
   kept exactly at its own precision.  After an event the driver expands
   the entered mode to decide which solution continues (pattern.c), and
   its next step expands it again at the same point: an apply with the
   same inputs finds the expansion already there (issue 28: one Taylor
   expansion per event at a PWM edge; decisions.md D-093). */
typedef struct {
    hdo_taylor_struct tay;
    mpfr_ptr key; /* t0, xs, xu, floors, guards' floors: 1 + 2 (nstate +
                     nimplicit) + nguards */
    slong nkey;
    int valid;
    /* the step size of this expansion, once asked (a function of the
       expansion, the floors and the tolerance alone) */
    mpfr_t h;
    int h_valid, h_status;
} taylor_impl;

/* 1 when a and b are the same number, the sign of a zero included (a
   NaN is never the same). */
static int
same_value(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_zero_p(a) || mpfr_zero_p(b))
        return mpfr_zero_p(a) && mpfr_zero_p(b) &&
               mpfr_signbit(a) == mpfr_signbit(b);
    return mpfr_equal_p(a, b);
}

/* Compares (mode 0) or stores (mode 1) the apply's inputs in w->key: 1
   when they were all the same. */
static int
key_pass(taylor_impl *w, int store, const mpfr_t t0, mpfr_srcptr xs,
         mpfr_srcptr xu)
{
    slong ns = w->tay.red->nstate, nu = w->tay.red->nimplicit, i = 0;
    mpfr_srcptr floor = w->tay.floor;
    for (slong k = 0; k < w->nkey; k++) {
        mpfr_srcptr x = k == 0         ? t0
                        : k <= ns      ? xs + (k - 1)
                        : k <= ns + nu ? xu + (k - 1 - ns)
                        : k <= 2 * (ns + nu)
                            ? floor + (k - 1 - ns - nu)
                            : w->tay.gnoise + (k - 1 - 2 * (ns + nu));
        mpfr_ptr y = w->key + i++;
        if (store) {
            mpfr_set_prec(y, mpfr_get_prec(x));
            mpfr_set(y, x, MPFR_RNDN); /* exact */
        } else if (mpfr_get_prec(y) != mpfr_get_prec(x) || !same_value(x, y)) {
            return 0;
        }
    }
    return 1;
}

/* The series are the dense output: the table points into the expansion's
   own arrays, which hdo_taylor_init allocates once, so nothing is copied
   and the driver computes exactly what it did on hdo_taylor_t. */
static int
taylor_alloc(hdo_stepper_struct *s, hdo_model_t model,
             const hdo_reduced_struct *red, const hdo_expr *guards,
             slong nguards, mpfr_prec_t prec)
{
    taylor_impl *w = malloc(sizeof *w);
    HDO_ASSERT(w != NULL);
    hdo_taylor_struct *tay = &w->tay;
    w->valid = 0;
    w->h_valid = 0;
    mpfr_init2(w->h, MPFR_PREC_MIN);
    w->nkey = 1 + 2 * (red->nstate + red->nimplicit) + nguards;
    w->key = malloc(w->nkey * sizeof *w->key);
    HDO_ASSERT(w->key != NULL);
    for (slong k = 0; k < w->nkey; k++)
        mpfr_init2(w->key + k, MPFR_PREC_MIN);
    s->impl = w;
    int st =
        hdo_taylor_init(tay, model, red, guards, nguards, NULL, 0, prec, 0);
    if (st != 0)
        snprintf(s->message, sizeof s->message, "%s", tay->init_message);
    else
        hdo_taylor_lazy_setup(
            tay); /* the driver's unknowns: decisions.md D-071 */
    tay->floor = s->floor;
    tay->gnoise = s->gnoise;
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
    taylor_impl *w = s->impl;
    hdo_taylor_struct *tay = &w->tay;
    /* the same inputs, the expansion intact (a failed one, or a lazy
       unknown that failed since, goes the full way and fails as before):
       hdo_taylor_expand would compute the same coefficients again */
    if (w->valid && tay->expanded && tay->init_status == 0 &&
        tay->lazy_status == 0 && key_pass(w, 0, t0, xs, xu))
        return 0; /* the step size and the components' steps kept too */
    w->h_valid = 0;
    tay->lspan = s->lspan; /* constant over a run */
    int st = hdo_taylor_expand(tay, t0, xs, xu, err);
    w->valid = st == 0 && tay->expanded;
    if (w->valid)
        key_pass(w, 1, t0, xs, xu);
    return st;
}

static int
taylor_step_size(mpfr_t h, const hdo_stepper_struct *s)
{
    taylor_impl *w = s->impl;
    if (w->h_valid && mpfr_get_prec(w->h) == mpfr_get_prec(h)) {
        mpfr_set(h, w->h, MPFR_RNDN); /* exact */
        return w->h_status;
    }
    w->h_status = hdo_taylor_step_size(h, &w->tay, s->tol);
    mpfr_set_prec(w->h, mpfr_get_prec(h));
    mpfr_set(w->h, h, MPFR_RNDN);
    w->h_valid = 1;
    return w->h_status;
}

static void
taylor_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_stepper_struct *s,
            const mpfr_t h)
{
    hdo_taylor_eval(xs, xu, g, &((taylor_impl *)s->impl)->tay, h);
}

static int
taylor_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_struct *s, const mpfr_t h,
              hdo_error_t *err)
{
    return hdo_taylor_evolve(xs, xu, &((taylor_impl *)s->impl)->tay, h, err);
}

static double
taylor_stiffness(const hdo_stepper_struct *s)
{
    return hdo_taylor_stiffness(&((const taylor_impl *)s->impl)->tay);
}

static void
taylor_max_residual(mpfr_t r, const hdo_stepper_struct *s)
{
    const hdo_taylor_struct *tay = &((const taylor_impl *)s->impl)->tay;
    if (mpfr_cmp(tay->max_residual, r) > 0)
        mpfr_set(r, tay->max_residual, MPFR_RNDU);
}

static void
taylor_free(hdo_stepper_struct *s)
{
    taylor_impl *w = s->impl;
    if (w == NULL)
        return;
    hdo_taylor_clear(&w->tay);
    mpfr_clear(w->h);
    for (slong k = 0; k < w->nkey; k++)
        mpfr_clear(w->key + k);
    free(w->key);
    free(w);
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
