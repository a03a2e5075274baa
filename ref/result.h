/* result.h -- the result of a run and what is done with it: the run's
   options and precision rule, rows, events and per-mode facts, the
   output tables and the result folder, the digits two results agree on
   (--verify), the memory a grid of rows needs.  The driver (hybrid.h)
   fills a result; analyze, check and the commands read it. */
#ifndef HDO_RESULT_H
#define HDO_RESULT_H

#include <stdio.h>
#include "model.h"

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

/* The table of event kinds, one row each: X(SUFFIX, NAME, SHOWN).
   - HDO_EV_<SUFFIX> is the kind (hdo_event.kind; the values are the
     rows' order, HDO_EV_SWITCH = 0: a new kind is a row at the end);
   - NAME its name in events.csv's kind column (hdo_event_kind_name;
     docs/cli.md lists them);
   - SHOWN 1 when a candidate must show it (hdo check expects it among
     the candidate's events), 0 when it is no jump of the state and a
     candidate need not report it (a crossing: the tube judges the
     values there; a candidate's events file may list it, ignored).
   Besides its row a new kind touches where the driver raises it and the
   switches that decide per kind without a default (-Werror=switch finds
   them: the certified pass's, ref/certify/driver.c); docs/internals.md
   says how to add one. */
#define HDO_EVENT_KINDS(X)                                                     \
    X(SWITCH, "switch", 1)             /* a guard's transition */              \
    X(SIMULTANEOUS, "simultaneous", 1) /* several guards at one instant */     \
    X(SLIDING_START, "sliding-start", 1)                                       \
    X(SLIDING_END, "sliding-end", 1)                                           \
    X(ZENO, "zeno", 1) /* the limit of an accumulation of events */            \
    X(REINIT_ADJUSTED, "reinit-adjusted", 1) /* kept values moved */           \
    X(CROSSING, "crossing", 0) /* a piecewise relation changed sign */         \
    X(IMPACT, "impact", 1)     /* contacts with restitution: a jump */

#define HDO_EV_ENUM_(suffix, name, shown) HDO_EV_##suffix,
typedef enum { HDO_EVENT_KINDS(HDO_EV_ENUM_) } hdo_event_kind;
#undef HDO_EV_ENUM_
/* The number of kinds: not an enumerator of hdo_event_kind, so that a
   switch over the kinds needs no case for it. */
#define HDO_EV_COUNT_(suffix, name, shown) +1
enum { HDO_EV_NKINDS = 0 HDO_EVENT_KINDS(HDO_EV_COUNT_) };
#undef HDO_EV_COUNT_

/* One row of the table, and the table itself, indexed by kind
   (ref/result/kinds.c). */
typedef struct {
    const char *name;
    int shown;
} hdo_event_kind_info;
extern const hdo_event_kind_info hdo_event_kind_table[HDO_EV_NKINDS];
/* The name of kind ("?" for a value that is no kind). */
const char *hdo_event_kind_name(hdo_event_kind kind);
/* The kind named name, or -1. */
int hdo_event_kind_lookup(const char *name);
/* 1 when a candidate must show an event of kind (the SHOWN column). */
int hdo_event_kind_shown(hdo_event_kind kind);

/* The precision rule (ref/result/precision.c), the one definition of its
   numbers, which the library, the commands and the tests call: a run
   reports D significant digits (HDO_DIGITS_DEFAULT when none is asked:
   hdo_run_digits), and computes with the working precision and the
   tolerance
     prec = ceil((D + 10) log2 10) bits  (HDO_GUARD_DIGITS = 10 guard
            digits against the rounding of long sums, projections and
            Newton solves: hdo_run_prec),
     tol  = 10^-(D + 5)                  (local truncation error per step
            and the event tolerances: HDO_TOL_GUARD_DIGITS = 5 guard
            digits against the accumulation of local errors over the
            steps of a run: hdo_run_tol);
   --verify's second run is at D + HDO_VERIFY_EXTRA_DIGITS digits
   (hdo_run_verify_digits). */
#define HDO_DIGITS_DEFAULT 30
#define HDO_GUARD_DIGITS 10
#define HDO_TOL_GUARD_DIGITS 5
#define HDO_VERIFY_EXTRA_DIGITS 10
long hdo_run_digits(long digits);        /* digits > 0 ? digits : the default */
long hdo_run_verify_digits(long digits); /* hdo_run_digits(digits) + 10 */
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
struct hdo_dense_sample_struct;

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
    /* With row_sink: when not NULL, a sample row inside a step is first
       offered to dense_row (with row_sink_data) with the step's dense
       output; it returns 1 when it took the row (no row is then computed
       or handed to row_sink), 0 to have the row computed at the working
       precision and handed to row_sink as always.  hdo check's rigorous
       double-double evaluation (ref/check/judge/fastrow.c). */
    int (*dense_row)(void *data, const struct hdo_dense_sample_struct *smp);
} hdo_run_options;

/* D = HDO_DIGITS_DEFAULT, the rest defaults */
void hdo_run_options_init(hdo_run_options *opt);

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
             its step size (hybrid/internal.h, decisions.md D-072). */
enum { HDO_METHOD_AUTO = 0, HDO_METHOD_TAYLOR, HDO_METHOD_IMPLICIT };

#define HDO_RUN_MAX_STEPS 1000000L
#define HDO_RUN_MAX_EVENTS 100000L

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
       (decisions.md D-011, "Digits at every scale"); -inf where absent */
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
   (decisions.md D-036). */
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

/* For the driver that fills a result (ref/hybrid/). */
/* Empties res of an earlier run (command_argv and command_argc kept)
   and sets it up for a run of model at digits D and precision prec. */
void hdo_result_setup(hdo_result_t res, const hdo_model_t model, long digits,
                      mpfr_prec_t prec);
/* Appends a row (values NaN, present 0) / an event (states NaN); the
   returned pointer is valid until the next append. */
hdo_row *hdo_result_add_row(hdo_result_t res, const mpfr_t t, slong mode);
hdo_event *hdo_result_add_event(hdo_result_t res, const mpfr_t t, slong from,
                                slong to, hdo_event_kind kind,
                                const char *guard);

/* Refuses, before computing, a grid of nrows rows (hdo_run_rows) of
   model at digits D whose rows would not fit in half of the memory this
   process may use (the physical memory, or a smaller ulimit -v / -d;
   the rest is for the computation); with verify the rows of a second
   run at D + 10 digits count too.  Event rows are not counted.  Returns
   0, or HDO_ERR_INPUT with err giving the rows, the bytes and the limit
   (err->file NULL: the options are to change). */
int hdo_run_check_memory(slong nrows, const hdo_model_t model, long digits,
                         int verify, hdo_error_t *err);

/* Decimal digits of a binary number (ref/result/decimal.c): the n >= 1
   significant digits of x (regular) rounded to nearest, ties to an even
   last digit, into buf (n + 2 chars: '-' for a negative x, the digits,
   a NUL), and the exponent e with |x| ~ 0.d1...dn 10^e -- mpfr_get_str
   (buf, &e, 10, n, x, MPFR_RNDN)'s text, from exact integer arithmetic
   (a quarter of its instructions at 30 digits: D-110).  d holds the scratch of
   the integers: init once, clear after the last value. */
typedef struct {
    mpz_t p5, p, q, r, lo, hi;
    size_t n; /* the digits lo = 10^(n-1) and hi = 10^n are of; 0 none */
    long k5;  /* p5 = 5^k5; -1 none */
} hdo_decimal_struct;
typedef hdo_decimal_struct hdo_decimal_t[1];
void hdo_decimal_init(hdo_decimal_t d);
void hdo_decimal_clear(hdo_decimal_t d);
mpfr_exp_t hdo_decimal_get_str(char *buf, hdo_decimal_t d, size_t n,
                               const mpfr_t x);

/* Output tables (ref/result/tables.c), as cli.md specifies: values with
   `digits` significant digits, empty cells where a mode lacks a
   variable.  Return 0 or HDO_ERR_IO (err filled with strerror). */
int hdo_write_trajectory(FILE *f, const hdo_result_t res,
                         const hdo_model_t model, long digits,
                         hdo_error_t *err);
int hdo_write_events(FILE *f, const hdo_result_t res, const hdo_model_t model,
                     long digits, hdo_error_t *err);
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

/* The FMI cross-check's reference files of a run, in the folder dir
   (made if missing): <Model>_ref.csv (comma separated, the header
   "time","h",... quoted, every row of the result as doubles (%.17g), an
   event as two rows at its time, left then right limit; a variable
   without a value in some row, a mode of the run lacking it, is left out,
   with a note on notes (unless NULL) naming it and the mode: the FMI
   CSV rules want a number in every cell) and <Model>_ref.opt (StartTime,
   StopTime, StepSize = step, the output step, and RelTol 1e-15: the
   values are the doubles nearest the solution).  A regular file is
   replaced atomically.  0, HDO_ERR_IO, HDO_ERR_MEMORY, or HDO_ERR_INPUT
   when no variable has a value in every row. */
int hdo_write_fmi_ref(const char *dir, const hdo_result_t res,
                      const hdo_model_t model, double step, FILE *notes,
                      hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
