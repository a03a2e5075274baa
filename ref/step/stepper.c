/* stepper.c -- the list of step types, and hdo_stepper_init, _clear and
 * _switch: the method-independent part of a stepper */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "step.h"

const hdo_step_type *const hdo_step_types[] = {&hdo_step_taylor,
                                               &hdo_step_radau, NULL};

const hdo_step_type *
hdo_step_type_find(unsigned flags, const hdo_reduced_struct *red)
{
    for (slong k = 0; hdo_step_types[k] != NULL; k++) {
        const hdo_step_type *t = hdo_step_types[k];
        if ((t->flags & flags) != flags)
            continue;
        if ((t->flags & HDO_STEP_INDEX1_ONLY) && !hdo_reduced_is_index1(red))
            continue;
        return t;
    }
    return NULL;
}

int
hdo_stepper_init(hdo_stepper_t s, const hdo_step_type *type, hdo_model_t model,
                 const hdo_reduced_struct *red, const hdo_expr *guards,
                 slong nguards, mpfr_prec_t prec, const mpfr_t tol)
{
    memset(s, 0, sizeof *s);
    mpfr_init2(s->tol, mpfr_get_prec(tol));
    mpfr_set(s->tol, tol, MPFR_RNDN);
    mpfr_init2(s->unit, 64);
    mpfr_set_ui(s->unit, 1, MPFR_RNDN);
    s->type = type;
    s->model = model;
    s->red = red;
    s->nguards = nguards;
    s->prec = prec;
    s->guards = malloc((nguards + 1) * sizeof(hdo_expr));
    HDO_ASSERT(s->guards != NULL);
    s->floor = hdo_vec_init(red->nstate + red->nimplicit, 64);
    for (slong i = 0; i < red->nstate + red->nimplicit; i++)
        mpfr_set_zero(s->floor + i, 1);
    s->lround = -INFINITY;
    s->lspan = -INFINITY;
    s->gfloor = hdo_vec_init(nguards, 64);
    s->gnoise = hdo_vec_init(nguards, 64);
    for (slong q = 0; q < nguards; q++) {
        mpfr_set_zero(s->gfloor + q, 1);
        mpfr_set_zero(s->gnoise + q, 1);
    }
    if (nguards > 0)
        memcpy(s->guards, guards, nguards * sizeof(hdo_expr));
    return type->alloc(s, model, red, guards, nguards, prec);
}

void
hdo_stepper_clear(hdo_stepper_t s)
{
    if (s->type != NULL)
        s->type->free(s);
    hdo_stepper_spectral_clear(s);
    free(s->guards);
    s->guards = NULL;
    if (s->floor != NULL) { /* initialised, and not cleared yet */
        mpfr_clear(s->tol);
        mpfr_clear(s->unit);
        hdo_vec_clear(s->floor, s->red->nstate + s->red->nimplicit);
    }
    if (s->gfloor != NULL) {
        hdo_vec_clear(s->gfloor, s->nguards);
        hdo_vec_clear(s->gnoise, s->nguards);
    }
    s->floor = s->gfloor = s->gnoise = NULL;
    s->impl = NULL;
    s->type = NULL;
}

int
hdo_stepper_switch(hdo_stepper_t s, const hdo_step_type *type)
{
    hdo_stepper_t t;
    int st = hdo_stepper_init(t, type, s->model, s->red, s->guards, s->nguards,
                              s->prec, s->tol);
    if (st != 0) {
        snprintf(s->message, sizeof s->message, "%s", t->message);
        hdo_stepper_clear(t);
        return st;
    }
    for (slong i = 0; i < s->red->nstate + s->red->nimplicit; i++)
        mpfr_set(t->floor + i, s->floor + i, MPFR_RNDN);
    for (slong q = 0; q < s->nguards; q++) {
        mpfr_set(t->gfloor + q, s->gfloor + q, MPFR_RNDN);
        mpfr_set(t->gnoise + q, s->gnoise + q, MPFR_RNDN);
    }
    t->lspan = s->lspan;
    mpfr_set(t->unit, s->unit, MPFR_RNDN);
    t->serial = s->serial;     /* never a serial seen before (step.h) */
    t->spectral = s->spectral; /* the same mode: the same Jacobian */
    s->spectral = NULL;
    hdo_stepper_clear(s);
    *s = *t;
    return 0;
}

int
hdo_reduced_is_ode(const hdo_reduced_struct *red)
{
    return red->nimplicit == 0 && red->ncons == 0;
}

int
hdo_reduced_is_index1(const hdo_reduced_struct *red)
{
    return red->ncons == 0;
}
