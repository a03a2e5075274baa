/* hybrid.h -- the driver of a hybrid run: arcs of a stepper (step.h),
   event location on the dense output, transitions with resets and
   consistent reinitialisation, and the output tables. */
#ifndef HDO_HYBRID_H
#define HDO_HYBRID_H

#include <stdio.h>
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One stretch of time integrated by one method (hdo_result's
   method_arcs): its start and end, and the stepper's name ("taylor",
   "implicit"). */
typedef struct {
    double t_start, t_end;
    const char *method;
} hdo_method_arc;

typedef enum {
    HDO_EV_SWITCH,
    HDO_EV_SIMULTANEOUS,
    HDO_EV_SLIDING_START,
    HDO_EV_SLIDING_END,
    HDO_EV_ZENO,
    HDO_EV_REINIT_ADJUSTED,
    HDO_EV_CROSSING /* a relation of a piecewise expression changed sign */
} hdo_event_kind;

/* Working precision and tolerance from the digits D asked for:
     prec = ceil((D + 10) log2 10) bits  (10 guard digits against the
            rounding of long sums, projections and Newton solves),
     tol  = 10^-(D + 5)                  (local truncation error per step
            and the event tolerances: 5 guard digits against the
            accumulation of local errors over the steps of a run).
   The reported values have D significant digits. */
mpfr_prec_t hdo_run_prec(long digits);
/* The most digits D a run or an analysis accepts (hdo_run,
   hdo_run_verify, hdo_run_rows, hdo_analyze; the commands' --digits):
   a run at D digits costs about D^2.2 (measured on der(x) = -x over
   [0, 1]: 1000 digits 2.4 s, 2000 digits 10.7 s), so 10000 digits take
   minutes and 100000 would take most of a day.  The one definition of
   the limit: the command line and the library read it here. */
#define HDO_MAX_DIGITS 10000
void hdo_run_tol(mpfr_t tol, long digits); /* rounded to tol's precision */

/* Progress report: called after every step with the time reached (as a
   double, for display), the steps and events so far and the name of the
   method that took the step ("taylor").  The library never prints; the
   command decides whether to show it. */
typedef void (*hdo_progress_fn)(void *data, double t, long steps, long nevents,
                                const char *method);

struct hdo_row_struct;

typedef struct {
    long digits; /* D, 1 to HDO_MAX_DIGITS */
    /* The sampling step and the end time, exact (hdo_run_parse_time reads
       them from text once, naming the option in its errors); borrowed,
       read during hdo_run only.  every > 0, NULL: (t_end - t0) / 1000;
       until overrides the model's `until`, NULL: the model's. */
    const fmpq *every;
    const fmpq *until;
    long max_steps;  /* 0: default 10^6 */
    long max_events; /* 0: default 10^5 */
    /* When not NULL: sample exactly at these nsample_times times instead
       of the grid (every is then not read).  They must be finite,
       strictly increasing and within the run's span [t0, t_end], where
       t0 or t_end rounded to a double either way counts as t0 or t_end
       (its row is at t0 or t_end); else hdo_run refuses them
       (HDO_ERR_INPUT, naming the first bad entry) before computing. */
    const double *sample_times;
    slong nsample_times;
    int method; /* HDO_METHOD_AUTO (default), _TAYLOR or _IMPLICIT */
    hdo_progress_fn progress; /* may be NULL */
    void *progress_data;
    /* When not NULL, every output row is handed to row_sink (valid during
       the call only) instead of being stored in res->rows, so that a
       caller who keeps less (hdo check: doubles of a few variables) does
       not hold every row at the run precision.  Events are stored as
       always. */
    void (*row_sink)(void *data, const struct hdo_row_struct *row);
    void *row_sink_data;
} hdo_run_options;

void hdo_run_options_init(hdo_run_options *opt); /* D = 30, the rest defaults */

/* Sets q to the exact value of the decimal text of the option named
   option ("--until", "--every"; positive: the value must be > 0).
   Returns 0, or HDO_ERR_INPUT with err naming the option and the text
   ("--every: expected a positive decimal number, got '-1'", "--until:
   '1e1000000' is out of range (...)") and err->file NULL. */
int hdo_run_parse_time(fmpq_t q, const char *option, const char *text,
                       int positive, hdo_error_t *err);

/* The integration method of the arcs (hdo run --method):
   TAYLOR    the explicit Taylor method (hdo_step_taylor) everywhere;
   IMPLICIT  Radau IIA (hdo_step_radau) on ODE modes, Taylor on the others;
   AUTO      Taylor, and Radau IIA from the point where an ODE or
             index-1 arc is stiff: its Taylor step limited by stability
             against the Jacobian's spectral radius on two checks in a
             row, or stiff by the series' ratio for HDO_STIFF_STEPS steps
             in a row with more than HDO_AUTO_SWITCH_STEPS steps left at
             its step size (hybrid/internal.h, decisions.md). */
enum { HDO_METHOD_AUTO = 0, HDO_METHOD_TAYLOR, HDO_METHOD_IMPLICIT };
#define HDO_AUTO_SWITCH_STEPS 10000.0

#define HDO_RUN_MAX_STEPS 1000000L
#define HDO_RUN_MAX_EVENTS 100000L
/* Instantaneous switches in a row before the run is declared chattering. */
#define HDO_RUN_MAX_INSTANT 100

/* One output row: time, mode index, the value of every model variable
   (NaN where the mode lacks it), at the run precision. */
typedef struct hdo_row_struct {
    mpfr_t time;
    slong mode;
    mpfr_ptr values; /* model->nvars entries */
    int *present;    /* 1 where the mode has the variable */
    /* the index k of the sampling grid's time t0 + k every, or -1 for a
       row of an event */
    slong sample;
    /* per variable: log2 of the magnitude its digits are counted
       against (--verify): the larger of the variable's size over the
       integration step that produced the value and its nominal value
       (decisions.md, "Digits at every scale"); -inf where absent */
    double *mag;
    /* per variable, log2: the scale floor the error control held the
       value to (floors.c, and the method's own rounding floor), and the
       variable's scale (the largest magnitude it has had so far, or its
       nominal).  A value whose size and step are below its floor has its
       D digits absolutely, against its scale, not relative to itself:
       --verify counts them so and summary.json reports them
       ("absolute_values"). */
    double *floor, *scale;
} hdo_row;

typedef struct {
    slong index; /* 1-based, in time order */
    mpfr_t time;
    slong from, to;
    hdo_event_kind kind;
    const char *guard;    /* borrowed source text ("zeno" for zeno) */
    mpfr_ptr left, right; /* states (model->nvars, NaN where absent) */
    /* the rows of the left and right states in the result's rows, or -1
       (not stored: a row sink) */
    slong row_left, row_right;
} hdo_event;

/* What is reported per mode used: the Kunkel-Mehrmann counts at the
   first point the mode was used (from_km = 1), or, when that analysis
   fails, the reduced form's (mu = index - 1 clipped at 0, d = dof,
   a = n - d, v = 0; from_km = 0).  For a Filippov sliding mode on k
   surfaces (surfaces = k > 0), the counts of the DAE it stands for:
   the weighted flows with the k weights as algebraic unknowns and the
   k surfaces S_j = 0 as equations, the weights fixed by S_j' = 0 (one
   differentiation): index max(index of the reduced form, 2),
   d = dof - k, a = (n - dof) + 2 k, v = 0, n counting the weights
   (decisions.md). */
typedef struct {
    int used;
    int from_km;
    int km_fallback; /* integrated in the Kunkel-Mehrmann fallback's form
                        (hdo_reduce_mode_km): Pryce's was numerically
                        singular; "analysis": "km-fallback" */
    slong mu, d, a, v;
    slong index;    /* structural (Pryce) index of the reduced form */
    slong n;        /* variables of the mode */
    slong mode;     /* the mode's index in rows and events */
    slong surfaces; /* sliding modes: the switching surfaces; else 0 */
} hdo_mode_info;

typedef struct {
    mpfr_prec_t prec;
    long digits;
    slong nvars, nmodes;
    slong nrows, rows_alloc;
    hdo_row *rows;
    slong nevents, events_alloc;
    hdo_event *events;
    slong steps;
    hdo_mode_info *modes; /* nmodes entries */
    /* the Filippov sliding modes used, in the order of first use */
    slong nsliding;
    hdo_mode_info *sliding;
    mpfr_t max_residual; /* largest constraint residual of the dense
                            output at the step ends, over all arcs */
    int start_adjusted;  /* the start values had to move to be consistent */
    mpfr_t t0, t_end;
    double seconds;
    /* Wall time (CLOCK_MONOTONIC) of hdo_run by phase, exclusive (a
       phase nested in another is charged to itself only): integration
       (Taylor expansion, step size, dense output, advance and
       projection), events (guard root search, transitions and their
       resets, Zeno and sliding bookkeeping), reduction (reduced forms
       and compiled Taylor programs per mode, Kunkel-Mehrmann analysis)
       and reinit (consistent (re)initialisation).  seconds - their sum
       is setup and the rest.  order_sum: the Taylor orders of all
       steps (average order = order_sum / steps).  cpu_seconds: CPU time
       of the thread that ran hdo_run (CLOCK_THREAD_CPUTIME_ID: the other
       run of hdo_run_verify is not counted), steadier than wall time on
       a loaded machine. */
    double cpu_seconds;
    double seconds_integration, seconds_events, seconds_reduction,
        seconds_reinit;
    slong order_sum;
    /* The command line of the run, borrowed from the caller, who sets it
       after hdo_result_init (NULL: none); hdo_write_summary records it. */
    const char *const *command_argv;
    int command_argc;
    /* The fewest significant digits to which an event time is determined
       (hdo_event_time_error, relative to max(1, |t|)) when that is fewer
       than the digits asked (a multiple root of a switching function),
       with the event's index; -1 when every event time is known to all
       the digits asked. */
    long event_digits;
    slong event_digits_index;
    /* steps taken by the implicit method, and arcs that --method auto
       switched to it */
    slong implicit_steps, method_switches;
    /* The method of each stretch of time: maximal intervals integrated by
       one method (mode changes inside do not split them), in order;
       arc k ends where arc k + 1 starts, the last at the run's end. */
    hdo_method_arc *method_arcs;
    slong nmethod_arcs, method_arcs_alloc;
    /* private: HDO_RESULT_LIVE from hdo_result_init to hdo_result_clear,
       0 after it */
    unsigned long live;
} hdo_result_struct;
typedef hdo_result_struct hdo_result_t[1];
#define HDO_RESULT_LIVE 0x68646f72UL /* "hdor" */

/* Initialises res to an empty result, ready for hdo_run.  A result may
   receive several runs in turn: each hdo_run (hdo_run_verify) first
   discards what res holds from the one before (as MPFR and FLINT
   functions replace the value of their output argument), keeping only
   command_argv and command_argc, so a reused result holds the rows and
   events of its last run, never those of two runs appended. */
void hdo_result_init(hdo_result_t res);
/* Frees what res holds.  A second hdo_result_clear of the same result
   does nothing (clearing is idempotent, as SUNDIALS' IDAFree(&mem)
   leaves mem NULL so that a second call is harmless); a cleared result
   must be initialised again before hdo_run takes it (hdo_run refuses it
   with HDO_ERR_INPUT).  Clearing a result that was never initialised is
   undefined. */
void hdo_result_clear(hdo_result_t res);
/* The number of rows whose value of variable v is absolute (its size and
   its step's below its floor: hdo_row; exact zeros not counted), and in
   *first the first such row (-1: none). */
slong hdo_result_absolute(slong *first, const hdo_result_t res, slong v);

/* The zero rule of KM Remark 12 used by hdo_event_locate: the index m
   of the first coefficient of S = sum c_k s^k whose contribution
   |c_m| H^m over the step exceeds ztol = tol max_k |c_k| H^k + floor (S
   is then s^m Q(s) up to the tolerance, and the sign of c_m says where
   it leaves zero), or len when S stays within ztol over the step.  The
   first term is relative to S's own size over the step; floor (NULL: 0)
   is the size below which S cannot be told from zero given the errors
   of the state it is computed from (the driver's guard floors,
   hdo_run_guard_floors): no absolute tolerance, so a guard 1e-65 h < 0
   switches where h < 0 does. */
slong hdo_event_zero_order(mpfr_srcptr c, slong len, const mpfr_t H,
                           const mpfr_t tol, mpfr_srcptr floor);

/* Event location on one step (ref/hybrid/locate.c).

   S(s) = sum_{k < len} c[k] s^k is the Taylor series of a switching
   function over a step s in [0, H] (the integrator's guard series; c is
   a contiguous array of len coefficients).  The mode is feasible while
   S >= 0; an event is a sign change of S from positive to negative.

   Finds the first event in [0, H], certified: ball arithmetic (Arb) on
   the exact polynomial with subdivision, so two zeros close together are
   never mistaken for none.  A value |S(0)| within the zero rule's ztol
   (hdo_event_zero_order, with floor) is taken as an exact zero
   (Kunkel-Mehrmann, Remark 12): the zero at
   the start of an arc is then an event only if the first coefficient
   that matters over the step is negative (S leaves the surface into the
   infeasible side).  A tangency (S touching zero without crossing) is
   not an event.

   Returns HDO_EVENT with root set to the event's s in [0, H] (0 when the
   start itself is infeasible), refined by safeguarded Newton on the
   polynomial to about 2^(2-prec) H; or 0 when S stays feasible on the
   step.  root is rounded to its own precision. */
int hdo_event_locate(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                     const mpfr_t tol, mpfr_srcptr floor, mpfr_prec_t prec);

/* hdo_event_locate at the start of an arc whose start time is known
   only to slack (an event's time, hdo_event_time_error; NULL: exactly):
   where S is infeasible at once but rises back through zero within
   slack of the start, the arc starts on the surface and leaves it into
   the feasible side, and the search goes on from slack on (0, or the
   first event beyond it); otherwise as hdo_event_locate. */
int hdo_event_locate_after(mpfr_t root, mpfr_srcptr c, slong len,
                           const mpfr_t H, const mpfr_t tol, mpfr_srcptr floor,
                           mpfr_srcptr slack, mpfr_prec_t prec);

/* How well the root s = root of S found by hdo_event_locate is
   determined when S is known to ztol = tol max_k |c_k| root^k (tol
   relative to its size on [0, root]): sets delta to min_k (ztol / |T_k|)^(1/k),
   T_k the Taylor coefficients of S at the root, i.e. ztol / |S'| at a simple
   root and (ztol m! / |S^(m)|)^(1/m) at a root of multiplicity m (the
   event of der(x) = -5 (t - 1)^4, when x < 0, at t = 1, is known to
   about tol^(1/5)).  No precision of the root finder can do better:
   only a run at more digits can.  delta: 64 bits, +inf if S is flat. */
void hdo_event_time_error(mpfr_t delta, mpfr_srcptr c, slong len,
                          const mpfr_t H, const mpfr_t tol, const mpfr_t root,
                          mpfr_prec_t prec);

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
   order; ref/hybrid/sliding.c, decisions.md; events sliding-start,
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
/* Mode indices in results: the model's modes, then the Filippov sliding
   modes of ordered pairs, nmodes + a * nmodes + b, named "sliding(A,B)",
   then those on intersections, nmodes + nmodes^2 + mask (bit q: mode q),
   named "sliding(A,B,C,D)" in file order (decisions.md).  hdo_mode_name writes
   the name of index m ("?" when out of range); hdo_find_mode_name is its
   inverse (-1 if unknown: an index, not a status). */
void hdo_mode_name(char *buf, size_t size, const hdo_model_struct *model,
                   slong m);
slong hdo_find_mode_name(const hdo_model_struct *model, const char *name);

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

/* Refuses, before computing, a grid of nrows rows (hdo_run_rows) of
   model at digits D whose rows would not fit in half of the memory this
   process may use (the physical memory, or a smaller ulimit -v / -d;
   the rest is for the computation); with verify the rows of a second
   run at D + 10 digits count too.  Event rows are not counted.  Returns
   0, or HDO_ERR_INPUT with err giving the rows, the bytes and the limit
   (err->file NULL: the options are to change). */
int hdo_run_check_memory(slong nrows, const hdo_model_t model, long digits,
                         int verify, hdo_error_t *err);

/* Output tables (ref/hybrid/output.c), as cli.md specifies: values with
   `digits` significant digits, empty cells where a mode lacks a
   variable.  Return 0 or HDO_ERR_IO (err filled with strerror). */
int hdo_write_trajectory(FILE *f, const hdo_result_t res,
                         const hdo_model_t model, long digits,
                         hdo_error_t *err);
int hdo_write_events(FILE *f, const hdo_result_t res, const hdo_model_t model,
                     long digits, hdo_error_t *err);
/* Writes s as a JSON string literal: '"' and '\\' escaped, control
   characters as \u00XX, every other byte as it is (UTF-8 passes
   through).  The one JSON escaping of hdo (summary.json, hdo analyze
   --json). */
void hdo_json_string(FILE *f, const char *s);
/* verified_digits < 0: not verified (the key is left out). */
int hdo_write_summary(FILE *f, const hdo_result_t res, const hdo_model_t model,
                      long verified_digits, hdo_error_t *err);

/* A run's result folder DIR (docs/cli.md, "Output files and safety"):
   hdo_run_outputs_prepare, before computing, makes DIR, refuses it
   unless trajectory.csv, events.csv and summary.json there are absent
   or regular files, and removes an earlier result; hdo_run_outputs_write
   writes the three files of res (res->digits digits; verified_digits as
   hdo_write_summary) into temporary files renamed into place together
   (hdo_outdir_prepare, hdo_outdir_commit).  0, or a status with err. */
int hdo_run_outputs_prepare(const char *dir, hdo_error_t *err);
int hdo_run_outputs_write(const char *dir, const hdo_result_t res,
                          const hdo_model_t model, long verified_digits,
                          hdo_error_t *err);

/* Writes to f the notes a user must see about a finished run of model
   at digits D, one line each with the model file: the modes integrated
   in the Kunkel-Mehrmann fallback's form, and an event time determined
   to fewer than D digits (summary.json "event_digits"). */
void hdo_run_write_notes(FILE *f, const hdo_result_t res,
                         const hdo_model_struct *model, long digits);

/* The smallest number of significant digits on which two runs of the same
   model agree, over every value both report: event times (relative to
   max(|t0|, |t_end|)), the rows of events (the states before and after
   them), the rows of the sampling grid both runs wrote (paired by
   sample index) and the last rows.  A value x of a is compared with b's
   y relative to max(|y|, its variable's size over the integration step
   that produced x, the variable's nominal value) when that is at least
   x's floor (the magnitudes and floors hdo_row records), so a solution
   that decays to 1e-18 has its digits counted at 1e-18, and a value
   passing through zero those of its step; below its floor, absolutely
   against the variable's scale (hdo_result_absolute counts those).  Before a
   zeno event the runs follow events until their gaps reach each run's own
   tolerance, so there only the events both followed are compared, and the zeno
   events with each other; everywhere else the two event lists must
   match one to one (same modes).  Capped at the digits of a.  Returns
   the number, or 0 when the event structure differs. */
long hdo_result_agreement(const hdo_result_t a, const hdo_result_t b);

/* The same number; when it is below a's digits and msg is not NULL,
   also writes into msg (size bytes) the place where the runs agree to
   the fewest digits: the event (its time, a state before or after it,
   or the first different switch) or the row, the variable and both
   values (model names the modes and variables). */
long hdo_result_agreement_where(char *msg, size_t size,
                                const hdo_model_struct *model,
                                const hdo_result_t a, const hdo_result_t b);

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
