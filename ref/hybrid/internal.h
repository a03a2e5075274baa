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
/* The Jacobian test (hdo_stiff_check_due, hdo_stiff_jacobian_ratio).
   Every HDO_STIFF_CHECK_EVERY steps of an ODE or index-1 arc on the
   Taylor method, h rho (rho the spectral radius of the Jacobian,
   hdo_stepper_spectral_radius) is compared with a_p, the h |lambda| at
   which the step rule of order p resolves an active mode e^(lambda t)
   (hdo_stiff_active_step): a step of at least HDO_STIFF_JAC_RATIO a_p
   cannot be limited by accuracy on that mode, so it is limited by
   stability, and the fast mode is damped (stiff).  Measured (a_p and
   the stability boundary of the degree-p Taylor polynomial on the
   negative real axis, beta_p): at 16/30/60/100 digits a_p = 2.15/2.67/
   3.86/5.52 and beta_p = 13.3/19.2/31.8/48.8, 6.2 to 8.8 times a_p: a
   stiff arc's step sits near beta_p, an active mode's at a_p.  After
   HDO_STIFF_CHECKS stiff checks in a row, --method auto switches the
   arc when more than HDO_AUTO_SWITCH_MIN_STEPS steps of the current
   size are left. */
#define HDO_STIFF_CHECK_EVERY 8
#define HDO_STIFF_JAC_RATIO 3.0
#define HDO_STIFF_CHECKS 2
#define HDO_AUTO_SWITCH_MIN_STEPS 100.0
typedef struct {
    slong mode;   /* the stiff arc's mode */
    slong steps;  /* stiff steps in a row (0: the last was not stiff) */
    double since; /* time of the first of them */
    double ratio; /* the last hdo_stepper_stiffness */
    const char *method; /* the stepper's name */
    double h;     /* the last natural step */
    /* the Jacobian test: the mode it ran on, steps since it last ran,
       stiff checks in a row, its last rho and h rho / a_p */
    slong jac_mode, jac_since, jac_hits;
    double rho, hrho;
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
   on the Taylor method): the Jacobian test found the arc stiff
   HDO_STIFF_CHECKS times in a row and more than HDO_AUTO_SWITCH_MIN_STEPS
   steps of size h are left; or the arc has been stiff by the series'
   ratio for HDO_STIFF_STEPS steps and more than HDO_AUTO_SWITCH_STEPS
   steps of size h are left. */
int hdo_stiff_watch_switch_due(const hdo_stiff_watch *w, double t,
                               double t_end);
/* a_p: h |lambda| of the step that the Taylor step rule (orders
   floor((3p + 3)/4)..p, tolerance 2^ltol) takes on x' = lambda x,
   min_j (j!)^(1/j) 2^(ltol/p) (taylor.h, hdo_taylor_step_size). */
double hdo_stiff_active_step(slong order, double ltol);
/* 1 when the Jacobian test is due at this step of mode (counts the
   step). */
int hdo_stiff_check_due(hdo_stiff_watch *w, slong mode);
/* Records a Jacobian test: rho (< 0: none) at the step h of order
   p and tolerance 2^ltol; returns h rho / a_p (0 without rho). */
double hdo_stiff_jacobian_ratio(hdo_stiff_watch *w, double rho, double h,
                                slong order, double ltol);
/* The diagnosis, for an error message. */
void hdo_stiff_watch_describe(char *buf, size_t n, const hdo_stiff_watch *w,
                              const hdo_model_struct *model, double t,
                              double t_end);

#endif
