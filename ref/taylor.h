/* taylor.h -- the arbitrary-precision Taylor series integrator for reduced
   (semi-explicit index-1) modes, layered like GSL's odeiv2:
     step    one Taylor expansion at (t0, state): coefficients up to order p
             of every state, unknown, and (optionally) switching function;
     control the step size from the last coefficients (Jorba-Zou) and the
             order from the tolerance;
     evolve  take the step, re-project onto the constraints, accept;
     driver  (hybrid.h) loops to the end time, locating events.
   Why Taylor: its order rises freely with the digits asked for (p ~ 1.2 D),
   automatic differentiation over the flat expression program makes each
   coefficient cost O(p) per node, and the expansion is its own dense
   output, accurate to the tolerance over the whole step, which event
   location needs.  Collocation would need an n*s nonlinear solve per
   step (200 unknowns x 20 stages for the bowed string). */
#ifndef HDO_TAYLOR_H
#define HDO_TAYLOR_H

#include "reduce.h"

/* The compiled reduced system of one mode, at one precision. */
typedef struct {
    const hdo_reduced_struct *red;
    mpfr_prec_t prec;
    slong order;            /* Taylor order p */
    hdo_program_t prog;     /* roots: rhs..., h..., guards..., extra... */
    slong nguards;          /* switching functions compiled in */
    slong nextra;
    /* per state / unknown: the program input slots (or -1) */
    slong *state_slot, *unknown_slot;
    /* every (var, order) input of the program and where its series comes
       from (a state, an unknown, or a derivative of one) */
    hdo_mat_t Jh;           /* dh/dunknowns at the expansion point */
    slong *perm;
    /* the series of the last expansion: coef[i][k] for states, unknowns */
    mpfr_t *state_coef;     /* nstate x (order + 1) */
    mpfr_t *unknown_coef;   /* nimplicit x (order + 1) */
    mpfr_t *guard_coef;     /* nguards x (order + 1) */
    mpfr_t t0;              /* expansion point */
} hdo_taylor_struct;
typedef hdo_taylor_struct hdo_taylor_t[1];

/* Compiles the reduced mode and the given guard (and extra) expressions.
   order 0 means "choose from prec" (p = ceil(0.6 * prec * log10(2)) + 2,
   about 1.2 per decimal digit... see control). */
void hdo_taylor_init(hdo_taylor_t tay, hdo_model_t model,
                     const hdo_reduced_t red, const hdo_expr *guards,
                     slong nguards, const hdo_expr *extra, slong nextra,
                     mpfr_prec_t prec, slong order);
void hdo_taylor_clear(hdo_taylor_t tay);

/* Step layer: expands the solution at (t0, xs, xu) (a consistent point)
   up to tay->order.  Returns 0, or HDO_ERR_DOMAIN / HDO_ERR_SINGULAR
   with err filled (expression, mode, time). */
int hdo_taylor_expand(hdo_taylor_t tay, const mpfr_t t0, mpfr_srcptr xs,
                      mpfr_srcptr xu, hdo_error_t *err);

/* Dense output: evaluates the expansion at t0 + h (Horner) into xs, xu
   (either may be NULL) and the guards into g (may be NULL). */
void hdo_taylor_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g,
                     const hdo_taylor_t tay, const mpfr_t h);

/* Control layer: the step size for tolerance tol (absolute and relative,
   on the state): h = rho * exp(-2) style estimate from the last two
   coefficients (Jorba and Zou 2005), so that the truncation error stays
   below tol.  Writes h (> 0). */
void hdo_taylor_step_size(mpfr_t h, const hdo_taylor_t tay, const mpfr_t tol);

#endif
