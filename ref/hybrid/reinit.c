/* reinit.c -- the consistent (re)initialisation of a mode the driver
 * enters, with the Kunkel-Mehrmann fallback where Pryce's form is
 * numerically singular */
#include <stdio.h>
#include <string.h>
#include "driver.h"

/* Consistent (re)initialisation of mode m at t from mc->xs, mc->xu and
   mc->fixed.  *adjusted as hdo_consistent_init. */
int
hdo_run_reinit(run_ctx *c, slong m, const mpfr_t t, int *adjusted)
{
    int st = hdo_run_reinit_point(c, m, t, adjusted);
    if (st == 0)
        hdo_run_reinit_enter(c, m, t);
    return st;
}

/* The point of hdo_run_reinit: the consistent values alone. */
int
hdo_run_reinit_point(run_ctx *c, slong m, const mpfr_t t, int *adjusted)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    int ph = hdo_run_phase_enter(c, PH_REINIT);
    int st = hdo_consistent_init(mc->xs, mc->xu, adjusted, c->model, mc->red, t,
                                 mc->fixed, c->prec, c->err);
    hdo_run_phase_enter(c, ph);
    if (st == HDO_ERR_SINGULAR && m < c->model->nmodes &&
        !mc->red->km_fallback) {
        /* Pryce's form is numerically singular here (its Jacobian of h
           failed the LU pivot test): the Kunkel-Mehrmann fallback
           (decisions.md D-070) */
        hdo_error_t why;
        hdo_error_clear(&why);
        int fst = hdo_run_mode_cache_km_fallback(c, m, t, &why);
        if (fst == 0) {
            /* Pryce's failure is resolved: a later error must not inherit
               its mode and time (hdo_run_fail keeps those already set) */
            if (c->err != NULL)
                hdo_error_clear(c->err);
            ph = hdo_run_phase_enter(c, PH_REINIT);
            st = hdo_consistent_init(mc->xs, mc->xu, adjusted, c->model,
                                     mc->red, t, mc->fixed, c->prec, c->err);
            hdo_run_phase_enter(c, ph);
            if (st < 0 && c->err != NULL) {
                size_t len = strlen(c->err->message);
                snprintf(c->err->message + len, sizeof c->err->message - len,
                         " (in the Kunkel-Mehrmann fallback's form, Pryce's "
                         "being numerically singular)");
            }
        } else if (fst == HDO_ERR_UNSUPPORTED && c->err != NULL) {
            size_t len = strlen(c->err->message);
            const char *w = strstr(why.message, ": ");
            snprintf(c->err->message + len, sizeof c->err->message - len,
                     "; the Kunkel-Mehrmann fallback does not apply%s",
                     w != NULL ? w : "");
        } else {
            st = fst;
        }
    }
    if (st < 0)
        return hdo_run_fail(c, st, m, t);
    return 0;
}

/* The rest of hdo_run_reinit, once mode m is entered at its consistent
   point: its first integrals' values, and its note in the result. */
void
hdo_run_reinit_enter(run_ctx *c, slong m, const mpfr_t t)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    hdo_invariant_enter(mc->inv, t, mc->xs, c->tol);
    int ph = hdo_run_phase_enter(
        c, PH_REDUCTION); /* the KM analysis, once per mode */
    hdo_run_note_mode_used(c, m, t);
    hdo_run_phase_enter(c, ph);
}

int
hdo_run_expand_entered(run_ctx *c, slong m, const mpfr_t t, mpfr_t H)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    hdo_error_t e;
    hdo_error_clear(&e);
    /* the next step's own expansion and step size (the stepper keeps
       them: the step finds them there), so integration's */
    int ph = hdo_run_phase_enter(c, PH_INTEGRATION);
    hdo_run_set_floors(c, mc);
    hdo_run_guard_noise(c, mc, t, mc->xs, mc->xu);
    int st = hdo_stepper_apply(mc->step, t, mc->xs, mc->xu, &e);
    if (st == 0)
        hdo_stepper_step_size(H, mc->step);
    hdo_run_phase_enter(c, ph);
    if (st < 0)
        return -1;
    hdo_run_event_horizon(H, c, t);
    hdo_run_guard_floors(c, mc, t, mc->xs, mc->xu, &mc->step->dense, H);
    return 0;
}
