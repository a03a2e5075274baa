/* stepper.c -- hdo_stepper_init and hdo_stepper_clear: the method-independent
 * part of a stepper */
#include <string.h>
#include "step.h"

int
hdo_stepper_init(hdo_stepper_t s, const hdo_step_type *type, hdo_model_t model,
                 const hdo_reduced_struct *red, const hdo_expr *guards,
                 slong nguards, mpfr_prec_t prec)
{
    memset(s, 0, sizeof *s);
    s->type = type;
    return type->alloc(s, model, red, guards, nguards, prec);
}

void
hdo_stepper_clear(hdo_stepper_t s)
{
    if (s->type != NULL)
        s->type->free(s);
    s->impl = NULL;
    s->type = NULL;
}
