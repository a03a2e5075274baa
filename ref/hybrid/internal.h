/* internal.h -- private helpers shared by the files of ref/hybrid */
#ifndef HDO_HYBRID_INTERNAL_H
#define HDO_HYBRID_INTERNAL_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include "hybrid.h"
#include "reduce.h"
#include "step.h"

/* hdo_run, which also stops (HDO_ERR_TOO_MUCH_WORK, "stopped: ...")
   before a step once *stop is nonzero (stop may be NULL): the other run
   of hdo_run_verify has failed, so this one need not go on. */
int hdo_run_stoppable(hdo_result_t res, const hdo_model_struct *model,
                      const hdo_run_options *opt, hdo_error_t *err,
                      const atomic_int *stop);

/* The checks hdo_run, hdo_run_verify (res and check) and hdo_run_rows
   (res and check NULL) make of their arguments before any work, listed
   at hdo_run (args.c): 0, or HDO_ERR_INPUT with err (if not NULL)
   cleared and filled, err->file NULL. */
int hdo_run_check_args(const hdo_result_struct *res,
                       const hdo_result_struct *check,
                       const hdo_model_struct *model,
                       const hdo_run_options *opt, hdo_error_t *err);

/* The stiffness watch (stiff.c).  An arc counts as stiff at a step when
   hdo_stepper_stiffness (hdo_taylor_stiffness) of the step is at least
   hdo_stiff_threshold(order) = log10(order) + HDO_STIFF_MARGIN (3.28 at
   30 digits, 3.70 at 100).  Measured: on a smooth solution the ratio is
   near 1 or below (an exponential: 10^-1.15 at 30 digits); the corpus'
   non-stiff cases reach at most 10^2.65 (evaporator, 10^2.82 at 100
   digits); Robertson (10^3.3 from t = 23), Van der Pol with mu = 1000 on
   its slow arcs (10^4.5) and der(x) = -1e12*x after its transient (10^7
   and more) are above.  On a stiff arc the ratio grows with the digits
   (the damped fast mode sits at rounding level), on a smooth one it does
   not, so a threshold that grows slowly with the order stays between
   them.  A run stops early (HDO_ERR_TOO_MUCH_WORK) when the arc has been
   stiff for HDO_STIFF_STEPS steps in a row and the steps at the current
   size to the end time would exceed --max-steps. */
#define HDO_STIFF_MARGIN 1.6
#define HDO_STIFF_STEPS 100
typedef struct {
    slong mode;   /* the stiff arc's mode */
    slong steps;  /* stiff steps in a row (0: the last was not stiff) */
    double since; /* time of the first of them */
    double ratio; /* the last hdo_stepper_stiffness */
    const char *method; /* the stepper's name */
    double h;     /* the last natural step */
} hdo_stiff_watch;
void hdo_stiff_watch_init(hdo_stiff_watch *w);
double hdo_stiff_threshold(slong order);
/* Records the expansion of one step of mode and its natural step h. */
void hdo_stiff_watch_step(hdo_stiff_watch *w, const hdo_stepper_t s,
                          slong mode, const mpfr_t t, const mpfr_t h);
/* 1 when the arc has been stiff for HDO_STIFF_STEPS steps and steps +
   (t_end - t) / h exceeds max_steps. */
int hdo_stiff_watch_hopeless(const hdo_stiff_watch *w, double t, double t_end,
                             long steps, long max_steps);
/* --method auto's rule (hdo_run_auto_switch, for an ODE or index-1 arc
   on the Taylor method): the arc has been stiff for HDO_STIFF_STEPS steps
   and more than HDO_AUTO_SWITCH_STEPS steps of size h are left,
   (t_end - t) / h > HDO_AUTO_SWITCH_STEPS. */
int hdo_stiff_watch_switch_due(const hdo_stiff_watch *w, double t,
                               double t_end);
/* The diagnosis, for an error message. */
void hdo_stiff_watch_describe(char *buf, size_t n, const hdo_stiff_watch *w,
                              const hdo_model_struct *model, double t,
                              double t_end);

#endif
