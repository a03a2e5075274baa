/* context.c -- the run context of hdo_run (driver.h): clocks and phase
 * timers, errors, tolerances */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* ------------------------------------------------------------------ */
/* Small helpers */

double
hdo_run_elapsed(const run_ctx *c)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - c->start.tv_sec) +
           1e-9 * (double)(now.tv_nsec - c->start.tv_nsec);
}

int
hdo_run_phase_enter(run_ctx *c, int phase)
{
    double *acc[] = {NULL, &c->res->seconds_integration,
                     &c->res->seconds_events, &c->res->seconds_reduction,
                     &c->res->seconds_reinit};
    struct timespec now;
    int old = c->phase;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (acc[old] != NULL)
        *acc[old] += (double)(now.tv_sec - c->phase_since.tv_sec) +
                     1e-9 * (double)(now.tv_nsec - c->phase_since.tv_nsec);
    c->phase_since = now;
    c->phase = phase;
    return old;
}

/* Fills the error's place: the model file, the mode, the time. */
int
hdo_run_fail(run_ctx *c, int status, slong mode, const mpfr_t t)
{
    if (c->err != NULL) {
        c->err->status = status;
        c->err->file = c->model->file;
        if (mode >= 0 && mode < c->model->nmodes && c->err->mode == NULL)
            c->err->mode = c->model->modes[mode].name;
        if (t != NULL && !c->err->has_time) {
            c->err->has_time = 1;
            c->err->time = mpfr_get_d(t, MPFR_RNDN);
        }
    }
    return status;
}

/* A command-line option is wrong: the error names the option, not the
   model file (err->file stays NULL). */
int
hdo_run_option_fail(run_ctx *c)
{
    if (c->err != NULL)
        c->err->status = HDO_ERR_INPUT;
    return HDO_ERR_INPUT;
}

/* Time tolerance at t: tol * max(1, |t|). */
void
hdo_run_time_tol(mpfr_t r, const run_ctx *c, const mpfr_t t)
{
    mpfr_abs(r, t, MPFR_RNDN);
    if (mpfr_cmp_ui(r, 1) < 0)
        mpfr_set_ui(r, 1, MPFR_RNDN);
    mpfr_mul(r, r, c->tol, MPFR_RNDN);
}

/* The horizon of the event search of a step from t (and of the zero rule
   for a zero at the start of an arc, KM Remark 12): on input the natural
   step proposed at t (hdo_stepper_step_size), replaced by one time
   unit max(1, |t|) when it is not finite (a polynomial series).  It is
   never clipped to the end time: hdo_event_locate judges a coefficient
   c_k by its contribution |c_k| H^k over the horizon H, so a step
   shortened by the end time would drop a significant c_k (the ball's
   velocity after an impact) and place the event at the start of the arc;
   events beyond the step actually taken are ignored instead
   (decisions.md). */
void
hdo_run_event_horizon(mpfr_t H, const mpfr_t t)
{
    if (mpfr_number_p(H))
        return;
    mpfr_abs(H, t, MPFR_RNDN);
    if (mpfr_cmp_ui(H, 1) < 0)
        mpfr_set_ui(H, 1, MPFR_RNDN);
}

/* ------------------------------------------------------------------ */
/* Scale floors */

int
hdo_run_floors_init(run_ctx *c)
{
    slong n = c->model->nvars;
    c->nominal = hdo_vec_init(n, 64);
    c->vmax = hdo_vec_init(n, 64);
    for (slong v = 0; v < n; v++) {
        const hdo_var *var = c->model->vars + v;
        mpfr_set_zero(c->vmax + v, 1);
        mpfr_set_zero(c->nominal + v, 1);
        if (var->nominal == HDO_EXPR_NONE)
            continue;
        if (hdo_expr_eval_constant(c->nominal + v, c->model->pool,
                                   var->nominal) != 0 ||
            !mpfr_number_p(c->nominal + v) || mpfr_sgn(c->nominal + v) <= 0) {
            hdo_error_set(c->err, HDO_ERR_DOMAIN, var->nominal_pos.line,
                          var->nominal_pos.col,
                          "the nominal value of '%s' is not a positive "
                          "number",
                          var->name);
            return hdo_run_fail(c, HDO_ERR_DOMAIN, -1, NULL);
        }
    }
    return 0;
}

void
hdo_run_floors_clear(run_ctx *c)
{
    if (c->nominal != NULL)
        hdo_vec_clear(c->nominal, c->model->nvars);
    if (c->vmax != NULL)
        hdo_vec_clear(c->vmax, c->model->nvars);
    c->nominal = c->vmax = NULL;
}

/* floor := max(nominal_v, tol vmax_v, low), at 64 bits. */
static void
floor_of(mpfr_ptr floor, const run_ctx *c, slong v, mpfr_srcptr low)
{
    mpfr_mul(floor, c->vmax + v, c->tol, MPFR_RNDN);
    mpfr_max(floor, floor, c->nominal + v, MPFR_RNDN);
    mpfr_max(floor, floor, low, MPFR_RNDN);
}

void
hdo_run_set_floors(run_ctx *c, mode_cache *mc)
{
    const hdo_reduced_struct *r = mc->red;
    mpfr_t a;
    if (c->vmax == NULL)
        return; /* hdo_run_rows: no steps */
    mpfr_init2(a, 64);
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].order == 0 && mpfr_number_p(mc->xs + i)) {
            mpfr_abs(a, mc->xs + i, MPFR_RNDU);
            mpfr_max(c->vmax + r->state[i].var, c->vmax + r->state[i].var, a,
                     MPFR_RNDU);
        }
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].order == 0 && mpfr_number_p(mc->xu + j)) {
            mpfr_abs(a, mc->xu + j, MPFR_RNDU);
            mpfr_max(c->vmax + r->unknown[j].var, c->vmax + r->unknown[j].var,
                     a, MPFR_RNDU);
        }
    /* tol^2 times the largest magnitude of any variable so far: a
       component that far below the rest of the state is negligible
       beside it, and held absolutely there (the far nodes of
       bowed_string, zero in the state and 10^-3000 in the truth, would
       otherwise hold the step to 10^-90) */
    mpfr_set_zero(a, 1);
    for (slong v = 0; v < c->model->nvars; v++)
        mpfr_max(a, a, c->vmax + v, MPFR_RNDU);
    mpfr_mul(a, a, c->tol, MPFR_RNDN);
    mpfr_mul(a, a, c->tol, MPFR_RNDN);
    for (slong i = 0; i < r->nstate; i++)
        floor_of(mc->step->floor + i, c, r->state[i].var, a);
    for (slong j = 0; j < r->nimplicit; j++)
        floor_of(mc->step->floor + r->nstate + j, c, r->unknown[j].var, a);
    mpfr_clear(a);
}
