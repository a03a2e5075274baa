/* hybrid.h -- the driver of a hybrid run: arcs of a stepper (step.h),
   events on their dense output (event.h), transitions with resets and
   consistent reinitialisation, into a result (result.h). */
#ifndef HDO_HYBRID_H
#define HDO_HYBRID_H

#include "result.h"
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --method auto switches an arc to the implicit method with more than
   this many steps left at its step size (hdo_run_options.method). */
#define HDO_AUTO_SWITCH_STEPS 10000.0
/* Instantaneous switches in a row before the run is declared chattering. */
#define HDO_RUN_MAX_INSTANT 100

/* A sample row inside a step, offered to hdo_run_options.dense_row:
   its time, its offset s from the step's start (the value at the
   sample is the dense output at s, which the run evaluates at the
   working precision when dense_row declines), the mode and its reduced
   form (the states and unknowns the model variables are), the dense
   output (valid during the call) and the run precision; serial tells
   one dense output of the stepper from the next (step.h). */
typedef struct hdo_dense_sample_struct {
    mpfr_srcptr time, s;
    slong mode;
    const hdo_reduced_struct *red;
    const hdo_dense *dense;
    const void *stepper; /* with serial: which dense output */
    unsigned long serial;
    mpfr_prec_t prec;
} hdo_dense_sample;

/* Runs the model from its start to t_end, into res (initialised by
   hdo_result_init; what it holds from an earlier run is discarded
   first, hdo_result_init says why).

   The arguments are checked first, before any work and without touching
   res; HDO_ERR_INPUT with err->file NULL (the call is wrong, not the
   model) refuses: a model that no hdo_model_parse_file or
   hdo_model_parse_string has parsed successfully (one only initialised,
   one whose parse failed, one cleared: hdo_model_parsed); a cleared
   result; opt->digits outside 1 .. HDO_MAX_DIGITS; sample_times that are
   not all finite and strictly increasing, or nsample_times < 0.  Sample
   times outside the run's span (hdo_run_options) are refused the same
   way once the start and end times are evaluated, still before any
   step (res is then empty).

   The start: the start mode's variables with a `var` start value are
   fixed, the others free; hdo_consistent_init makes the point consistent
   (res->start_adjusted if a fixed value moved).  Then steps: Taylor
   expansion, step size for tol (clamped to t_end only: the dense output
   serves the samples), certified event search on every guard's series
   (hdo_event_locate); without an event the sample rows inside the step
   are written, the state is advanced and projected back onto the
   constraints (hdo_consistent_init with every state fixed).  With one:
   the samples before it, the left-limit row, the `with` values computed
   on the left limit, the target's start (assigned and kept values fixed,
   the rest free guesses from `var` start values), its consistent
   reinitialisation (kind reinit-adjusted if a fixed value moved), the
   event record and the right-limit row.  Several guards with roots within
   tol * max(1, |t|) of the first: the first in file order, kind
   simultaneous.  A sample at the event time is not written again (the
   two event rows stand for it).  The reduced form, Taylor program and
   `with` programs of a mode are built when it is first entered and
   kept for the run.

   Instantaneous switching: an event less than tol * max(1, |t|) after
   the previous one (a state infeasible right after a transition or at
   the start) is taken at once.
   Zeno: such an instantaneous event after six followed events with
   strictly shrinking gaps, the last below 10^6 times the time tolerance,
   means the event times accumulate; the accumulation
   point is extrapolated from the last three event times (Aitken's
   delta-squared) and the state there from the left limits of the last
   three events of the mode (Aitken per component where they converge
   geometrically), and the mode's `zeno goto` clause is taken there
   (kind zeno; the unresolvable last events are not reported).  Without a
   clause: HDO_ERR_ZENO with the estimated accumulation time.
   Chattering: `chattering hysteresis d` compiles every guard S as S + d
   (the surfaces moved by d).  Under `chattering filippov` (default) a
   switch A -> B into a mode that goes back to A at once across the same
   surface starts the Filippov sliding mode "sliding(a,b)" (a < b in file
   order; ref/reduce/filippov.c, decisions.md D-004; events sliding-start,
   sliding-end where alpha leaves [0, 1]); reaching a further surface
   while sliding slides on the intersection of 2 or 3 surfaces,
   "sliding(A,B,C,D)" (ref/hybrid/intersect.c), where its weights are
   unique, else HDO_ERR_UNSUPPORTED.  Otherwise more than
   HDO_RUN_MAX_INSTANT instantaneous switches in a row without
   accumulation is HDO_ERR_CHATTERING under `chattering stop`
   (HDO_ERR_UNSUPPORTED under `filippov`), naming the modes, the guard
   and the time.  Returns
   0, or a negative status with err filled (the rows and events up to the
   failure stay in res): HDO_ERR_INPUT (the arguments above, bad options,
   no end time), the statuses
   of reduction, consistent initialisation and expansion, HDO_ERR_CHATTERING,
   HDO_ERR_ZENO (accumulating events without a `zeno goto`),
   HDO_ERR_TOO_MUCH_WORK (more than max_steps steps or max_events events). */
/* The mode indices in results, events and the driver's mode table are
   the mode ids of model.h (hdo_mode_id_kind_of, hdo_mode_name). */

int hdo_run(hdo_result_t res, const hdo_model_struct *model,
            const hdo_run_options *opt, hdo_error_t *err);

/* Checks the options of a run before it starts (the model, digits and
   sample_times as hdo_run checks them, the start and end time, --until,
   --every; the checks hdo_run makes first) and sets *nrows to
   the number of sample rows the grid will have (events add two rows
   each).  Returns 0 or HDO_ERR_INPUT / a domain status with err filled;
   an error about an option (--until, --every) leaves err->file NULL, so
   that it names the option, not the model. */
int hdo_run_rows(slong *nrows, const hdo_model_struct *model,
                 const hdo_run_options *opt, hdo_error_t *err);

/* Runs model twice at once, in two threads: into res at opt->digits
   D (the result to report) and into check at D + 10 digits, with the
   same options otherwise, and sets *verified to the digits on which they
   agree (hdo_result_agreement; when where is not NULL, also the first
   place they agree to fewer than D digits, as
   hdo_result_agreement_where writes it, "" when none).  res and check
   are initialised (hdo_result_init) by the caller, who clears both;
   what they hold from earlier runs is discarded, and the arguments are
   checked, as by hdo_run (D up to HDO_MAX_DIGITS: the check then runs at
   HDO_MAX_DIGITS + 10).  The wall time is about that of the D + 10 run alone on
   a machine with two free cores; the model is only read (hdo_run never writes
   it), so both runs share it.  opt->progress is called by the D + 10 run only
   (the longer one); opt->row_sink receives the rows of the D run only (check
   keeps its rows: the agreement reads them).

   Returns 0, or the negative status of the run that failed with err
   filled: the D run's error as hdo_run gives it, or, when only the D + 10
   run failed, its error with the message "the verification run at N
   digits (--verify) failed: ...".  Once one run fails the other stops
   at its next step; *verified is then -1.  The thread frees its MPFR
   and FLINT caches before it ends; the library keeps no static mutable
   data, so several hdo_run and hdo_run_verify may run at once on one
   model. */
int hdo_run_verify(hdo_result_t res, hdo_result_t check, long *verified,
                   char *where, size_t size, const hdo_model_struct *model,
                   const hdo_run_options *opt, hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
