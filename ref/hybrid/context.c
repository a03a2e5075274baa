/* context.c -- the run context of hdo_run (driver.h): clocks and phase
 * timers, errors, tolerances */
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Small helpers */

double
hdo_run_elapsed(const run_ctx *c)
{
    return hdo_clock_now() - c->start;
}

int
hdo_run_phase_enter(run_ctx *c, int phase)
{
    double *acc[] = {NULL, &c->res->seconds_integration,
                     &c->res->seconds_events, &c->res->seconds_reduction,
                     &c->res->seconds_reinit};
    int old = c->phase;
    double now = hdo_clock_now();
    if (acc[old] != NULL)
        *acc[old] += now - c->phase_since;
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

/* The run's time unit u = min(1, |t_end - t0|): one, or the span where
   it is shorter (t_end not known yet: one).  The time tolerance and the
   event horizon are relative to max(u, |t|), so that a run over [0,
   1e-20] decides as the same run scaled to [0, 1] does (decisions.md
   D-112); a span of one or more keeps D-016's unit. */
void
hdo_run_time_unit(mpfr_t u, const run_ctx *c)
{
    mpfr_set_ui(u, 1, MPFR_RNDN);
    if (c->res == NULL || !mpfr_number_p(c->t_end) ||
        !mpfr_number_p(c->res->t0))
        return;
    /* on the stack: the same 64 bits without an allocation (issue 28:
       every guard's floors and event time ask it; D-116) */
    MPFR_DECL_INIT(s, 64);
    mpfr_sub(s, c->t_end, c->res->t0, MPFR_RNDU);
    mpfr_abs(s, s, MPFR_RNDU);
    if (mpfr_regular_p(s) && mpfr_cmp(s, u) < 0)
        mpfr_set(u, s, MPFR_RNDN);
}

/* Time tolerance at t: tol max(u, |t|) (with u = 1 two events 3e-41
   apart at 3e-21 in a run to 1e-20 were simultaneous). */
void
hdo_run_time_tol(mpfr_t r, const run_ctx *c, const mpfr_t t)
{
    MPFR_DECL_INIT(u, 64);
    hdo_run_time_unit(u, c);
    mpfr_abs(r, t, MPFR_RNDN);
    if (mpfr_cmp(r, u) < 0)
        mpfr_set(r, u, MPFR_RNDN);
    mpfr_mul(r, r, c->tol, MPFR_RNDN);
}

/* The horizon of the event search of a step from t (and of the zero rule
   for a zero at the start of an arc, KM Remark 12): on input the natural
   step proposed at t (hdo_stepper_step_size), replaced by one time
   unit max(u, |t|) when it is not finite (a polynomial series; with u =
   1 the ball scaled to [0, 3e-20] judged its velocity against g over a
   second, and its impacts stuck 120 bounces early).  It is
   never clipped to the end time: hdo_event_locate judges a coefficient
   c_k by its contribution |c_k| H^k over the horizon H, so a step
   shortened by the end time would drop a significant c_k (the ball's
   velocity after an impact) and place the event at the start of the arc;
   events beyond the step actually taken are ignored instead
   (decisions.md D-016). */
void
hdo_run_event_horizon(mpfr_t H, const run_ctx *c, const mpfr_t t)
{
    if (mpfr_number_p(H))
        return;
    mpfr_t u;
    mpfr_init2(u, 64);
    hdo_run_time_unit(u, c);
    hdo_time_horizon(H, u, t);
    mpfr_clear(u);
}
