/* check.h -- hdo check as a library: a candidate result file judged
   against the reference hdo computes from the model.  Three layers, each
   using only those before it: ref/check/formats/ (what is read: candidate
   CSV and MAT v4 behind a table of readers, tolerance and events files),
   ref/check/judge/ (the reference run, the tube, the pairing of events,
   the verdict), ref/check/report/ (the texts, the human report, JUnit,
   --plot).  This header is the module's one public face.

   The stages a caller drives, in order (hdo_check_run does all three):
   hdo_check_read_model (parameters and the model), hdo_check_read_inputs
   (the candidate, the tolerances, the compared variables, the candidate's
   events), hdo_check_compute (the reference run, its samples, the tube of
   every variable and the pairing of events).  The verdict is
   hdo_check_failed; the figures of the summary line are
   hdo_check_summarize, written by hdo_check_write_summary;
   hdo_check_write_report writes the human report, hdo_check_write_junit
   and hdo_check_plot the JUnit report and the plots, each to the stream
   or file it is given (oracle/cmd_check.c chooses them).  Errors name file,
   line and column where there is one (err->file set); an error without a file
   is about the command (an option, memory). */
#ifndef HDO_CHECK_H
#define HDO_CHECK_H

#include <stddef.h>
#include <stdio.h>
#include <flint/flint.h>
#include "hybrid.h"
#include "model.h"
#include "status.h"
#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================== */
/* The comparison on doubles: readers of candidate, event and tolerance
   files, the tube, the pairing of events, the summary figures, JUnit.
   It works on plain double arrays (reference samples, reference events,
   candidate rows), so it is tested without running a model.  Errors go
   to an hdo_error_t with the file, line and column (HDO_ERR_INPUT for bad
   content, HDO_ERR_IO for a file that cannot be read, HDO_ERR_MEMORY). */

/* Distinct strings (mode names as written in a file), each with the place
   where it first occurs, for error messages. */
typedef struct {
    slong n, alloc;
    char **names;
    int *line, *col;
} hdo_strtab;

/* ------------------------------------------------------------------ */
/* Candidate CSV

   The first line that is neither blank nor a comment (`#` first on its
   line, anywhere in the file) is the header.  Its first column must be
   `time`, `Time` or `t`; a column named `mode` (anywhere after it) holds
   mode names; every other column is a value column, its header a
   variable name (the reader does not know the model: the caller checks
   the names).  Column names are unique and non-empty.  A value cell of
   the first data row that holds several numbers separated by blanks (an
   FMI 3 array, "1 2 3" under y) makes the columns y[1], y[2], y[3]; that
   cell holds as many numbers on every row (or is empty).

   The separator is found from the header: of ',', ';' and tab outside
   quotes the most frequent, else runs of blanks (whitespace-separated
   columns).  Blanks around a cell are ignored; a cell may be
   double-quoted ("" inside quotes is one quote; a quoted cell may not
   span lines).  Lines end with LF, CRLF or CR; the
   last line needs no line end; blank lines are skipped; a UTF-8 byte order
   mark at the start is skipped.  Every row has exactly as many cells as
   the header.

   Numbers are read by strtod in the C locale, whatever the process
   locale: decimal and hexadecimal floats, inf and nan; the whole cell must
   be the number.  A number beyond the range of a double is an error.
   - time: never empty, finite, non-decreasing down the file; equal times
     on consecutive rows are an event (left and right limits).
   - value cells: may be EMPTY, which means the candidate has no value there
     (its mode lacks the variable, as in hdo's own trajectory.csv); such
     cells are not compared.  nan and inf are values (and fail).
   - mode cells: never empty. */
typedef struct {
    char *file; /* copy of the file name, for messages */
    int header_line;
    slong ncols;   /* value columns */
    char **names;  /* their headers, in file order */
    int *name_col; /* 1-based column of each header */
    int has_mode;
    int mode_col; /* 1-based column of `mode`, when has_mode */
    slong nrows, alloc;
    double *time;           /* nrows */
    double *values;         /* nrows x ncols, row-major */
    unsigned char *present; /* nrows x ncols: 0 where the cell is empty */
    slong *mode;            /* nrows indices into modes, when has_mode */
    int *line;              /* source line of each row */
    int *mode_cell_col;     /* 1-based column of each row's mode cell */
    hdo_strtab modes;       /* the distinct mode names */
    char sep;               /* the separator found: ',', ';', '\t', ' ' */
    /* Set by the caller before reading (NULL: the file's header): the
       column names of a file without a header line, by position,
       separated by commas ("time,h,v"); the first line is then data.
       Borrowed. */
    const char *columns;
} hdo_csv_struct;
typedef hdo_csv_struct hdo_csv_t[1];

void hdo_csv_init(hdo_csv_t csv);
void hdo_csv_clear(hdo_csv_t csv);

/* Reads text[0..len) (any bytes) into csv, freshly initialised.  Returns 0,
   or HDO_ERR_INPUT / HDO_ERR_MEMORY with err filled (err->file points to
   csv->file, so print before clearing).  A file without any data row is
   an error. */
int hdo_csv_read_string(hdo_csv_t csv, const char *text, size_t len,
                        const char *filename, hdo_error_t *err);
/* Reads the candidate file at path, whatever its format: the first row of
   the table of readers (ref/check/formats/readers.c: MAT v4 by content,
   then CSV text as above) that takes it.  HDO_ERR_IO if it cannot be
   read. */
int hdo_csv_read_file(hdo_csv_t csv, const char *path, hdo_error_t *err);

/* MAT v4 result files (`dsres`, OpenModelica and Dymola: Aclass, name,
   description, dataInfo, data_1, data_2; binNormal or binTrans; double or
   single), read (by hdo's own MAT v4 reader) into csv as if it were CSV: the
   abscissa (Time) first, one column per other name (data_1 columns held
   constant), repeated time rows at events; line numbers are time-point numbers.
   hdo_csv_read_file chooses it by content (hdo_is_mat4: Aclass is the
   first matrix; the table of readers).  Returns 0, HDO_ERR_INPUT or
   HDO_ERR_MEMORY. */
int hdo_is_mat4(const char *path);
int hdo_csv_read_mat(hdo_csv_t csv, const char *path, hdo_error_t *err);

/* Co-simulation output written as two rows per output time (Dymola's
   co-simulation export: the output held from the step before, then the
   new one).  When csv is of that kind -- at least three output times on
   one grid t0 + k h, the first with one row and every later one with two,
   the first row of each pair equal to the row before it in every cell,
   and at least one pair that differs -- drops the first row of each pair
   (the held value, which is not the value at that time) and returns the
   number of rows dropped, with the step in *step; otherwise returns 0
   (and *step NaN) and leaves csv as it is. */
slong hdo_csv_cosim_rows(hdo_csv_t csv, double *step);

/* Index of the value column with this header, or -1 if there is none (an
   index, not a status). */
slong hdo_csv_find_column(const hdo_csv_t csv, const char *name);

/* ------------------------------------------------------------------ */
/* Event lists

   An event lies in [t_lo, t_hi]: t_lo == t_hi when its time is known (the
   reference, an events file, repeated time rows); for a mode change
   between two candidate rows at different times it is the interval between
   them.  from/to are mode indices of the caller's choosing (the model's),
   -1 when not known.  line: source line, 0 for none.  observable: 0 for
   a reference event that the candidate cannot show (it changes no column
   the candidate has: hdo_check_compute), which is paired only with a
   candidate event that agrees with it and is otherwise "not observable
   in the candidate", never missing; 1 otherwise (hdo_evlist_push's
   default).  sample: the index of a reference event's left limit among
   the reference samples (its right limit follows), -1 for none. */
typedef struct {
    double t_lo, t_hi;
    slong from, to;
    int line;
    slong count; /* events merged into this one (a cascade), >= 1 */
    int observable;
    slong sample;
} hdo_cmp_event;

typedef struct {
    slong n, alloc;
    hdo_cmp_event *ev;
} hdo_evlist_struct;
typedef hdo_evlist_struct hdo_evlist_t[1];

void hdo_evlist_init(hdo_evlist_t list);
void hdo_evlist_clear(hdo_evlist_t list);
/* Appends one event; 0 or HDO_ERR_MEMORY. */
int hdo_evlist_push(hdo_evlist_t list, double t_lo, double t_hi, slong from,
                    slong to, int line);

/* Merges each run of consecutive events at one instant into one event (a
   cascade: an impact and a stop at the same time, Zeno events that
   collapse to one double): events whose times differ by at most 8 units
   in the last place of a double.  The merged event goes from the first
   event's from to the last one's to, over [first t_lo, last t_hi]; count
   adds up; the merged event is observable when one of its events is.
   Events known only as an interval (t_lo < t_hi) are never merged.  Applied to
   both sides, a cascade of the reference matches one candidate event at that
   instant, and is judged by the state after it. */
int hdo_evlist_merge_cascades(hdo_evlist_t list);

/* The candidate's events, inferred from its rows and appended to list.
   A group of rows with the same time in which neither the mode nor any
   compared column jumps (hdo_cells_jump) is no event: copies of one row,
   or rows where only columns that are not compared change (OpenModelica
   writes a second pair of rows at an impact where only its discrete
   variables change).  hdo_csv_infer_events compares every column and
   counts any difference as a jump; hdo_csv_infer_events_on compares the
   columns col[0..ncol) with the band value_abs + value_rel max(|x|, |y|).
   A group of consecutive rows with the same time holds: with a mode
   column, one event per consecutive pair of its rows whose modes differ,
   or one event from the group's first to its last mode when none differ
   (a mode that switches to itself); without a mode column, one event.
   A mode change between rows at different times t1 < t2 is an event in
   [t1, t2].  mode_map maps csv->modes indices to the caller's mode indices
   (NULL: use them as they are).  Returns 0 or HDO_ERR_MEMORY. */
int hdo_csv_infer_events(hdo_evlist_t list, const hdo_csv_t csv,
                         const slong *mode_map);
int hdo_csv_infer_events_on(hdo_evlist_t list, const hdo_csv_t csv,
                            const slong *mode_map, const slong *col, slong ncol,
                            double value_abs, double value_rel);
/* Whether two cells x (present: px) and y of one column jump: they differ
   by more than value_abs + value_rel max(|x|, |y|) (0 and 0: any
   difference), or one is empty and the other not; two NaN do not. */
int hdo_cells_jump(double x, int px, double y, int py, double value_abs,
                   double value_rel);

/* An events file: CSV with a header that has columns `time`, `from` and
   `to` (in any order; other columns, such as those of hdo's events.csv,
   are ignored).  Times are finite and non-decreasing; from/to are mode
   names, or empty when not known (then -1 in from/to). */
typedef struct {
    char *file;
    slong n, alloc;
    double *time;
    slong *from, *to; /* indices into modes, or -1 */
    int *line;
    int *from_col, *to_col;
    hdo_strtab modes;
} hdo_evfile_struct;
typedef hdo_evfile_struct hdo_evfile_t[1];

void hdo_evfile_init(hdo_evfile_t ef);
void hdo_evfile_clear(hdo_evfile_t ef);
int hdo_evfile_read_string(hdo_evfile_t ef, const char *text, size_t len,
                           const char *filename, hdo_error_t *err);
int hdo_evfile_read_file(hdo_evfile_t ef, const char *path, hdo_error_t *err);

/* ------------------------------------------------------------------ */
/* Tolerance files: `key = value` lines, `#` comments, blank lines.
   Keys: time_abs, value_abs, value_rel (finite numbers >= 0, C-locale
   strtod syntax), variables (model variable names separated by spaces
   or commas), modes (exact | ignore), map (CANDIDATE_NAME=MODEL_VAR
   pairs separated by spaces or commas).  Each key at most once; an unknown key,
   a missing `=` or value, or a bad value is an error with line and column. Keys
   not given keep the defaults set by hdo_tol_init: time_abs 1e-6, value_abs
   1e-8, value_rel 1e-6, every variable, modes exact. */
/* A variable listed in a tolerance file, where it is listed. */
typedef struct {
    char *name;
    int line, col;
} hdo_tol_var;

/* A map entry: candidate column name -> model variable, and where it was
   given (line 0: the command line). */
typedef struct {
    char *from, *to;
    int line, col;
} hdo_tol_map_entry;

typedef struct {
    char *file;
    double time_abs, value_abs, value_rel;
    int modes_exact;
    int has_variables;
    slong nvariables, variables_alloc;
    hdo_tol_var *variables;
    /* line of the file that set time_abs, value_abs, value_rel; 0: the
       default (so a report can say where each tolerance came from) */
    int line_time_abs, line_value_abs, line_value_rel;
    /* map: candidate column names -> model variables (`map = ball.h=h
       ball.v=v`, and --map), in the order given */
    slong nmap, map_alloc;
    hdo_tol_map_entry *map;
} hdo_tol_struct;
typedef hdo_tol_struct hdo_tol_t[1];

void hdo_tol_init(hdo_tol_t tol);
/* Adds cand -> var to the map (a later entry wins; the same candidate
   name twice in a file is an error).  0, HDO_ERR_INPUT or HDO_ERR_MEMORY. */
int hdo_tol_add_map(hdo_tol_t tol, const char *cand, size_t ncand,
                    const char *var, size_t nvar, int line, int col,
                    hdo_error_t *err);
/* The model variable a candidate column stands for: its map entry, or
   its own name. */
const char *hdo_tol_map_name(const hdo_tol_t tol, const char *cand);
void hdo_tol_clear(hdo_tol_t tol);
int hdo_tol_read_string(hdo_tol_t tol, const char *text, size_t len,
                        const char *filename, hdo_error_t *err);
int hdo_tol_read_file(hdo_tol_t tol, const char *path, hdo_error_t *err);

/* The largest input file hdo check reads (hdo_read_whole_file, util.h,
   which refuses a NUL byte in them): 4 GiB, so 10^7 candidate rows of a
   dozen columns fit and a runaway device does not. */
#define HDO_INPUT_MAX_BYTES ((size_t)4 << 30)

/* ------------------------------------------------------------------ */
/* The tube comparison of one variable (Modelica csv-compare's tube).

   The candidate value c at time t passes when it lies within
   [lo - (value_abs + value_rel*|lo|), hi + (value_abs + value_rel*|hi|)],
   where lo..hi is the range of the reference samples whose times lie in
   [t - time_abs, t + time_abs] (inclusive, so both limits of an event in
   the window count).  The caller samples the reference densely enough in
   every window (hdo check: at t - time_abs, t - time_abs/2, t,
   t + time_abs/2, t + time_abs and both limits of every event).

   Events of the reference are groups of samples with equal times: the
   first is the left limit, the last the right limit.  A candidate up to
   time_abs late at an event is still on the arc before it (and one that
   is early already on the arc after it), which the reference never
   visits: so for an event at te in the window, the arc before it
   continued to t (when te <= t) and the arc after it continued back to t
   (when te >= t) join the range.  Each arc is continued by the polynomial
   through its limit and up to two more of its samples within 4 time_abs
   of te (none: not continued).

   ref_t is non-decreasing; ref_v NaN where the reference has no value (its
   mode lacks the variable), such samples are skipped.  The candidate row i
   has time cand_t[i] (non-decreasing) and value cand_v[i*stride], compared
   only when cand_present[i*stride] is non-zero (NULL: always) and the
   window holds a reference value.  A NaN candidate value fails. */
typedef struct {
    slong n; /* candidate rows */
    slong ncompared, nfailed;
    /* Rows not compared, which fail the variable: nnoref where the
       candidate has a value and the reference none in the window (its
       mode lacks the variable, or it has no sample there); nnocand where
       the candidate's cell is empty and every reference sample of the
       window has a value.  An empty cell where the reference also lacks
       the variable somewhere in the window is neither. */
    slong nnoref, nnocand;
    slong first_uncompared; /* first such row, -1 if none */
    slong first_fail;       /* first row outside the tube, -1 if none */
    slong worst;            /* row of the largest error/allowed, -1 if none */
    double worst_err, worst_allowed; /* distance outside the range, band */
    slong max_diff_row; /* row of the largest |c - ref(t)| over rows with
                           no reference event within time_abs, -1 if none */
    double max_diff;
    double *lo, *hi;           /* per row: the reference range (NaN: none) */
    double *band_lo, *band_hi; /* per row: the allowed band (NaN: none) */
    unsigned char *fail;       /* per row: 1 outside the tube, 2 not compared */
    double *diff; /* per row: |c - ref(t)| at its own time (the nearer
                     limit at an event), NaN where not compared */
} hdo_tube_struct;
typedef hdo_tube_struct hdo_tube_t[1];

void hdo_tube_init(hdo_tube_t tube);
void hdo_tube_clear(hdo_tube_t tube);

/* Fills tube (initialised; earlier contents are replaced).  Returns 0 or
   HDO_ERR_MEMORY. */
int hdo_tube_compare(hdo_tube_t tube, const double *ref_t, const double *ref_v,
                     slong nref, const double *cand_t, const double *cand_v,
                     const unsigned char *cand_present, ptrdiff_t stride,
                     slong ncand, double time_abs, double value_abs,
                     double value_rel);

/* ------------------------------------------------------------------ */
/* Event matching: reference and candidate events, in time order, paired
   by time.  A pair agrees when the reference time lies within time_abs of
   the candidate's [t_lo, t_hi] and, with modes_exact, from and to are
   equal (or not known on either side).  First the anchors: in order, each
   reference event with the nearest agreeing candidate event after the
   last anchor (unless that one is nearer to the next reference event).
   Then, between two anchors, the events left are paired in order (wrong
   mode change, early, late) and the rest are missing or extra; so one
   spurious or missed event does not shift the pairings after it.
   Reference events whose time is outside [span_lo, span_hi] (the
   candidate's time span) and have no anchor are reported as outside, not
   as failures; reference events that are not observable and have no
   anchor are "not observable in the candidate", never paired in a gap
   (so never missing, early or late). */
typedef enum {
    HDO_MATCH_OK = 0,
    HDO_MATCH_MISSING, /* reference event without candidate */
    HDO_MATCH_EXTRA,   /* candidate event without reference */
    HDO_MATCH_EARLY,   /* candidate earlier than time_abs allows */
    HDO_MATCH_LATE,
    HDO_MATCH_MODE,    /* wrong mode change (modes exact) */
    HDO_MATCH_OUTSIDE, /* reference event outside the candidate's span */
    HDO_MATCH_AT_END,  /* unpaired, within time_abs of the model's end time */
    HDO_MATCH_UNOBSERVABLE /* a reference event the candidate cannot show */
} hdo_match_verdict;

/* 1 for the verdicts that are judged (ok or a failure); 0 for events
   outside the candidate's span, at the end time or not observable in the
   candidate, which are listed but neither pass nor fail. */
int hdo_match_judged(hdo_match_verdict v);

typedef struct {
    slong ref, cand; /* indices, -1 for none */
    hdo_match_verdict verdict;
    double diff; /* candidate - reference time (0 when inside
                    [t_lo, t_hi]); NaN without a pair */
} hdo_match;

typedef struct {
    slong n, alloc;
    hdo_match *m;
    slong nfailed;
    slong first_fail; /* index into m, -1 if none */
} hdo_matching_struct;
typedef hdo_matching_struct hdo_matching_t[1];

void hdo_matching_init(hdo_matching_t mt);
void hdo_matching_clear(hdo_matching_t mt);
int hdo_events_match(hdo_matching_t mt, const hdo_evlist_t ref,
                     const hdo_evlist_t cand, double time_abs, int modes_exact,
                     double span_lo, double span_hi);
const char *hdo_match_verdict_name(hdo_match_verdict v);

/* Events at the end time follow `hdo run`'s rule, which does not take an
   event within its tolerance of the end time: whether a solver takes one
   there is a convention, not physics.  So a missing or extra event within
   time_abs of the model's end time t_end (NaN: no end) becomes
   HDO_MATCH_AT_END, listed but not judged. */
void hdo_matching_excuse_end(hdo_matching_t mt, const hdo_evlist_t ref,
                             const hdo_evlist_t cand, double t_end,
                             double time_abs);

/* ------------------------------------------------------------------ */
/* The reference of hdo check: the model run by hdo_run (as `hdo run -d
   digits` computes it, to the candidate's last time + time_abs), sampled
   at t - time_abs, t - time_abs/2, t, t + time_abs/2, t + time_abs of
   every candidate time t, plus both limits of every event (a group of
   two samples at the event time, left then right); rows at an event time
   are left out (which limit such a row holds is the run's choice).
   Values are the doubles of the compared variables var[0..nvar), NaN
   where the mode lacks the variable.  Rows go through hdo_run's row sink,
   so memory is 8 (nvar + 1) bytes a sample, never a row at the run
   precision. */
typedef struct {
    long digits;
    double t0, t_end; /* the model's start and end (t_end NaN: none) */
    slong nvar, n;
    double *t; /* n samples, non-decreasing */
    double *v; /* nvar x n, variable-major */
    slong steps, nrun_events;
    /* the crossings of relations of piecewise expressions (switching
       points, which no candidate need report), for the plots */
    hdo_evlist_t crossings;
} hdo_refsamp_struct;
typedef hdo_refsamp_struct hdo_refsamp_t[1];

void hdo_refsamp_init(hdo_refsamp_t r);
void hdo_refsamp_clear(hdo_refsamp_t r);

/* The model's start and end time as doubles (t_end NaN without
   `until`); HDO_ERR_INPUT when they cannot be evaluated. */
int hdo_check_model_span(double *t0, double *t_end, hdo_model_t model,
                         hdo_error_t *err);

/* Fills ref and appends to ref_ev the reference events from time_abs
   before the candidate's first time on.  Returns 0, the run's negative
   status, HDO_ERR_INPUT (the candidate before t0: err->input
   HDO_INPUT_CANDIDATE; the model's span undefined: HDO_INPUT_MODEL) or
   HDO_ERR_MEMORY, with err filled. */
int hdo_check_reference(hdo_refsamp_t ref, hdo_evlist_t ref_ev,
                        hdo_model_t model, const slong *var, slong nvar,
                        const double *cand_t, slong ncand, double time_abs,
                        long digits, hdo_error_t *err);

/* One reference run shared by several candidates of one model (hdo check
   MODEL CANDIDATE...): the run's rows at the union of the candidates'
   sample times (hdo_check_sample_times of each), to the latest of their
   ends, for the union of their compared variables, and its events with
   both limits; each candidate then takes its own samples from it
   (hdo_refrun_sample): the rows at its own sample times, and the limits
   of the events up to its last time + time_abs -- the samples a check of
   that candidate alone takes from its own run (hdo_check_reference is
   these two steps for one candidate). */
typedef struct {
    long digits;
    double t0, t_end; /* the model's start and end (t_end NaN: none) */
    double run_end;   /* where the run stopped */
    slong nvar;
    slong *var; /* the model variables kept */
    slong ntimes;
    double *times; /* the sample times asked (sorted) */
    slong n;
    double *t, *v; /* the run's rows: time, nvar values a row */
    slong nev;
    double *ev_t, *ev_v;    /* events: time; left then right limits (2 nvar) */
    int *ev_kind;           /* HDO_EV_* */
    slong *ev_from, *ev_to; /* the modes a candidate names (families) */
    slong steps, nrun_events;
    slong rows_fast, rows_slow; /* rows in double-double, at the run's */
} hdo_refrun_struct;
typedef hdo_refrun_struct hdo_refrun_t[1];

void hdo_refrun_init(hdo_refrun_t run);
void hdo_refrun_clear(hdo_refrun_t run);

/* The sample times of a candidate with times cand_t[0..ncand): t -
   time_abs, t - time_abs/2, t, t + time_abs/2, t + time_abs of each, from
   t0 on and up to the last time + time_abs, sorted, each once, in a new
   array *times (free it).  0, HDO_ERR_INPUT (no row, or the candidate
   starts before t0: err->input HDO_INPUT_CANDIDATE) or HDO_ERR_MEMORY. */
int hdo_check_sample_times(double **times, slong *ntimes, const double *cand_t,
                           slong ncand, double time_abs, double t0,
                           hdo_error_t *err);

/* The reference's sample rows in double-double (fastrow.c,
   docs/decisions.md D-096): hdo_dd_horner sets *out to the double that
   the working-precision evaluation of sum_k (ch[k] + cl[k]) s^k, k <
   len, s = sh + sl, at prec bits rounds to, and returns 1, when its
   rigorous error bound proves that double; else it returns 0 (the value
   is then left to the working precision).  The coefficients and s are
   the double-doubles of the working-precision ones. */
int hdo_dd_horner(double *out, const double *ch, const double *cl, slong len,
                  double sh, double sl, mpfr_prec_t prec);

/* The cache of one dense output (hybrid.h hdo_dense_sample): the
   compared variables' coefficients as double-doubles. */
typedef struct {
    const slong *var; /* the compared variables (borrowed) */
    slong nvar;
    const void *stepper, *dense; /* with serial: the dense output cached */
    unsigned long serial;
    int usable;       /* every compared variable a state or absent */
    slong len;        /* coefficients a component */
    slong *comp;      /* each variable's component (states, then
                         unknowns), -1: absent */
    double *ch, *cl;  /* nvar x len */
    mpfr_prec_t prec; /* the working precision the bound assumes */
    mpfr_t scratch;
    slong nfast, nslow; /* rows taken, rows left to the working precision */
} hdo_fastrow_struct;
typedef hdo_fastrow_struct hdo_fastrow_t[1];

void hdo_fastrow_init(hdo_fastrow_t f, const slong *var, slong nvar);
void hdo_fastrow_clear(hdo_fastrow_t f);
/* The row at smp: 1 with its time and the nvar values (NaN where the
   mode lacks the variable) exactly the doubles of the working-precision
   row; 0 to leave the row to the working precision. */
int hdo_fastrow_eval(double *t, double *v, hdo_fastrow_t f,
                     const hdo_dense_sample *smp);

/* Runs model at digits to run_end, sampled at times[0..ntimes) (sorted,
   in the span), keeping var[0..nvar); progress (may be NULL) is handed to
   hdo_run.  0, the run's status, or HDO_ERR_MEMORY, with err filled. */
int hdo_refrun_compute(hdo_refrun_t run, hdo_model_t model, const slong *var,
                       slong nvar, const double *times, slong ntimes,
                       double run_end, long digits, hdo_progress_fn progress,
                       void *progress_data, hdo_error_t *err);

/* Fills ref and ref_ev (as hdo_check_reference) for the candidate with
   times cand_t[0..ncand) and the variables var[0..nvar) (each kept by the
   run) from run, which must reach its last time + time_abs. */
int hdo_refrun_sample(hdo_refsamp_t ref, hdo_evlist_t ref_ev,
                      const hdo_refrun_t run, const slong *var, slong nvar,
                      const double *cand_t, slong ncand, double time_abs,
                      hdo_error_t *err);

/* ------------------------------------------------------------------ */
/* The verdict and the figures of the summary line (docs/decisions.md D-037,
   "hdo check summary line").  A variable fails when a row lies outside
   its tube, a row was not compared, or no row was compared at all; the
   check fails when a variable or an event pairing fails. */
typedef struct {
    int failed;
    double value_err;      /* largest distance from the reference range */
    slong value_var;       /* its variable (index into the compared), -1 */
    double value_t;        /* its candidate time */
    double value_ratio;    /* largest error / allowed band */
    double event_time_err; /* NaN when no event was paired */
    slong events_ref, events_cand, events_missing, events_extra, events_wrong;
    slong vars_failed, nvar;
    slong rows_compared, rows_uncompared;
    double point_err; /* largest |c - ref(t)| away from events, NaN: none */
    int events_given;
    /* reference events (cascades counted by their events) listed but
       not judged: not observable in the candidate, outside its span, at
       the end time */
    slong events_unobservable, events_outside, events_at_end;
} hdo_check_summary;

int hdo_tube_failed(const hdo_tube_t tube);
/* tubes[j] compares candidate column col[j] (values row-major, ncols a
   row) of nrows rows. */
void hdo_check_summarize(hdo_check_summary *sm, const hdo_tube_struct *tubes,
                         slong nvar, const double *cand_t, const double *cand_v,
                         const unsigned char *cand_present, slong ncols,
                         const slong *col, slong nrows,
                         const hdo_matching_t match, int events_given);

/* ------------------------------------------------------------------ */
/* JUnit XML.  One test case per entry (failure: NULL when it passed,
   else the failure's one-line message; text: the details), or, when
   error is not NULL, one test case `check` holding an <error> element
   (a check that exits 2).  time attributes in seconds. */
typedef struct {
    const char *name;
    const char *failure;
    const char *text;
    double seconds;
    const char *error; /* not NULL: the case could not be done (<error>) */
} hdo_junit_case;

int hdo_junit_write(const char *path, const char *suite,
                    const hdo_junit_case *tc, slong n, const char *error,
                    double seconds, hdo_error_t *err);
/* The same for another command (hdo_junit_write is "hdo check"): the
   suite is named "COMMAND SUITE", the classes "COMMAND.SUITE" with the
   command's blanks as dots, the test case of an error after the
   command's last word ("hdo ref compare": "compare"). */
int hdo_junit_write_for(const char *command, const char *path,
                        const char *suite, const hdo_junit_case *tc, slong n,
                        const char *error, double seconds, hdo_error_t *err);

/* ------------------------------------------------------------------ */
/* A CSV file as text (ref/check/formats/cells.c): the header and every
   cell as written (quotes removed, blanks around a cell trimmed), for
   comparisons of numbers digit by digit (golden references, which hold
   more digits than a double).  Comma-separated, as hdo writes them;
   blank lines skipped; every row has as many cells as the header, else
   HDO_ERR_INPUT at the row's line and column. */
typedef struct {
    char *file;
    slong ncols, nrows;
    char *buf; /* the cells, each NUL-terminated */
    size_t len;
    size_t *off; /* (nrows + 1) x ncols offsets into buf, header first */
    int *line;   /* source line of the header (0) and of each row (1..) */
    slong buf_alloc, off_alloc, line_alloc;
} hdo_csv_cells_struct;
typedef hdo_csv_cells_struct hdo_csv_cells_t[1];

void hdo_csv_cells_init(hdo_csv_cells_t c);
void hdo_csv_cells_clear(hdo_csv_cells_t c);
/* Reads text[0..len) into c, freshly initialised: 0, HDO_ERR_INPUT or
   HDO_ERR_MEMORY with err filled (err->file points to c->file). */
int hdo_csv_cells_read_string(hdo_csv_cells_t c, const char *text, size_t len,
                              const char *filename, hdo_error_t *err);
/* The cell of row (0-based; -1 the header) and column col. */
const char *hdo_csv_cell(const hdo_csv_cells_t c, slong row, slong col);

/* ================================================================== */
/* hdo check on a model: the stages, the verdict, the reports */

/* What to check (strings borrowed for the life of the check). */
typedef struct {
    const char *model_path, *cand_path;
    /* the tolerance file; NULL: tolerances/<stem>.tol, <stem> the model
       file's name without ".hdae", then tolerances/<model name>.tol,
       each in the working folder, else beside the model's folder
       (cases/x.hdae -> tolerances/x.tol), else the defaults of
       hdo_tol_init */
    const char *tol_path;
    const char *events_path; /* NULL: inferred from the candidate */
    /* the column names of a candidate without a header line, by
       position ("time,h,v"); NULL: its header */
    const char *columns;
    long digits; /* of the reference run (HDO_DIGITS_DEFAULT) */
    /* tolerances overriding the file's (NaN: not given) */
    double time_abs, value_abs, value_rel;
    /* CANDIDATE_NAME=MODEL_VAR, after the file's (replacing its entry
       for the same column); hdo_check_read_inputs refuses, with
       HDO_ERR_INPUT, a MODEL_VAR that is not a variable of the model,
       here or in the file (err->file NULL for an entry of maps) */
    const char *const *maps;
    slong nmaps;
    const char *const *params; /* NAME=VALUE parameter overrides */
    slong nparams;
} hdo_check_options;

void hdo_check_options_init(hdo_check_options *opt);

/* How the tolerance file was found (hdo_check_struct.tol_found_by). */
enum {
    HDO_TOL_GIVEN = 0,    /* opt.tol_path, or no file at all */
    HDO_TOL_BY_FILE_NAME, /* tolerances/<model file's name>.tol */
    HDO_TOL_BY_MODEL      /* tolerances/<model name>.tol */
};

typedef struct {
    hdo_check_options opt;
    const char *tol_path; /* the tolerance file read, NULL: none */
    char *tol_default;
    /* how tol_path was found when opt.tol_path was NULL, and the places
       tried then (", "-separated; NULL when a file was given) */
    int tol_found_by;
    char *tol_looked;
    hdo_model_t model;
    hdo_csv_t cand;
    hdo_tol_t tol;
    hdo_evfile_t evfile;
    hdo_evlist_t cand_ev, ref_ev;
    hdo_matching_t match;
    slong *mode_map; /* candidate mode names -> model modes */
    slong nvar;      /* compared variables */
    slong *col;      /* their candidate columns */
    slong *var;      /* their model variables */
    slong nignored;  /* candidate columns not compared */
    slong *ignored;
    hdo_refsamp_t ref;         /* the reference samples */
    hdo_tube_struct *tube;     /* nvar, NULL until compared */
    const char *events_source; /* the events file, or how they were found */
    int tol_from_file;
    /* co-simulation double rows (hdo_csv_cosim_rows): the rows dropped,
       0 when the candidate is not of that kind, and the step */
    slong cosim_dropped;
    double cosim_step;
    int events_given; /* 0: no events file, mode column or event rows */
    int run_status;   /* the reference run's failure, 0: none */
    double seconds_ref, seconds_compare;
    char *plot_file; /* the picture hdo_check_plot failed on */
} hdo_check_struct;
typedef hdo_check_struct hdo_check_t[1];

/* hdo_check_clear frees everything s holds; a second hdo_check_clear
   does nothing (clearing is idempotent).  A cleared check must be
   initialised again before it is used. */
void hdo_check_init(hdo_check_t s);
void hdo_check_clear(hdo_check_t s);

/* The stages; each returns 0 or a negative status with err filled. */
int hdo_check_read_model(hdo_check_t s, const hdo_check_options *opt,
                         hdo_error_t *err);
int hdo_check_read_inputs(hdo_check_t s, hdo_error_t *err);
/* Sets s->run_status when the reference run itself failed. */
int hdo_check_compute(hdo_check_t s, hdo_error_t *err);
/* hdo_check_compute with the reference samples taken from run, shared
   with other candidates of the model (NULL: the check's own run). */
int hdo_check_compute_from(hdo_check_t s, const hdo_refrun_struct *run,
                           hdo_error_t *err);
/* The one reference run of the checks s[0..n) of one model, each past
   hdo_check_read_inputs: the union of their sample times and compared
   variables, to the latest last time + time_abs, at s[0]'s digits, with
   s[0]'s model (progress may be NULL).  A candidate that starts before
   t0 is left out (its hdo_check_compute_from says so).  0, the run's
   status or HDO_ERR_MEMORY, with err filled. */
int hdo_check_shared_run(hdo_refrun_t run, hdo_check_struct *const *s, slong n,
                         hdo_progress_fn progress, void *progress_data,
                         hdo_error_t *err);
int hdo_check_run(hdo_check_t s, const hdo_check_options *opt,
                  hdo_error_t *err);

/* The verdict: a variable fails when a row lies outside its tube, a row
   was not compared, or none was; the check fails when a variable or an
   event pairing fails. */
int hdo_check_variable_failed(const hdo_check_t s, slong j);
int hdo_check_failed(const hdo_check_t s);

/* One-line descriptions (into buf, n bytes) for reports: compared
   variable j; the failure of variable j at candidate row i; an event
   pairing.  hdo_check_mode_name writes the name of mode index m (the
   model's, a sliding mode's, or "?") and returns buf. */
const char *hdo_check_mode_name(char *buf, size_t n, const hdo_check_t s,
                                slong m);
void hdo_check_describe_variable(char *buf, size_t n, const hdo_check_t s,
                                 slong j);
void hdo_check_describe_row_failure(char *buf, size_t n, const hdo_check_t s,
                                    slong j, slong i);
void hdo_check_describe_event_failure(char *buf, size_t n, const hdo_check_t s,
                                      const hdo_match *m);

/* The tolerance file in words, for the report's "tolerances (...)"
   line: "no tolerance file", its name as given (-t), or its name and
   how it was found ("tolerances/belt_mine.tol, found by the model
   file's name belt_mine.hdae", "..., found by the model name belt"). */
void hdo_check_describe_tolerance_file(char *buf, size_t n,
                                       const hdo_check_t s);

/* The event time of e ("%.17g", or "a..b" for an interval) and the
   mode change "A -> B" (cut short at n bytes). */
void hdo_check_event_time(char *buf, size_t n, const hdo_cmp_event *e);
void hdo_check_modes(char *buf, size_t n, const hdo_check_t s, slong from,
                     slong to);
/* The first failing row of variable j (outside the tube or not
   compared), -1 if none. */
slong hdo_check_first_bad_row(const hdo_check_t s, slong j);
/* The first failure in time (an event pairing or a row; ties go to the
   event), or a variable with no row compared, described into buf: 1, or
   0 when nothing failed. */
int hdo_check_first_failure(char *buf, size_t n, const hdo_check_t s);
/* The reference events after the candidate's last one (missed, or past
   the candidate's end; cascades counted by their events), when the
   candidate gives its events: their number, and in *t_last the time of
   the last (NaN when none). */
slong hdo_check_missing_tail(double *t_last, const hdo_check_t s);

/* The human report (oracle/cmd_check.c prints it on stdout, before the
   summary line): the verdict, the candidate's rows and span, the
   coverage, the reference run, the tolerances and where each came from,
   the columns not compared, per variable the tube, the event table, the
   events the candidate misses at its end, and the first failure. */
void hdo_check_write_report(FILE *out, const hdo_check_t s);

/* The figures of the summary line of s (hdo_check_summarize, and when
   the candidate gives no events, events_ref: the reference events in the
   candidate's span), which the human report quotes too. */
void hdo_check_summary_of(hdo_check_summary *sm, const hdo_check_t s);

/* The machine-readable line "summary: verdict=... ref_span=T0..T1\n"
   (docs/decisions.md D-037, "hdo check summary line"), preceded by an empty
   line. */
void hdo_check_write_summary(FILE *out, const hdo_check_t s);

/* The JUnit XML report of several candidates of one model at path: one
   test suite (the model), one test case per candidate named after its
   file (s[i]->opt.cand_path): a failure with the first failure, or, when
   errors[i] is not NULL (a candidate that could not be checked), an
   <error> holding it.  seconds: the whole check.  0 or HDO_ERR_IO. */
int hdo_check_write_junit_many(const char *path, hdo_check_struct *const *s,
                               const char *const *errors, slong n,
                               double seconds, hdo_error_t *err);

/* The JUnit XML report at path: one test case per compared variable and
   one for the events; when error is not NULL (a check that could not be
   done, exit 2: s may be at any stage) one test case `check` with an
   <error> holding it.  seconds: the whole check.  0 or HDO_ERR_IO. */
int hdo_check_write_junit(const char *path, const hdo_check_t s,
                          const char *error, double seconds, hdo_error_t *err);

/* --plot: per variable the reference, the allowed band, the candidate
   and the events, and below the error against the band, drawn by
   gnuplot into png (PNG-<var>.png when several variables are compared).
   hdo_check_plot_available says whether gnuplot is on PATH.  0, or
   HDO_ERR_IO with err (file set to the picture) when a plot could not be
   made. */
int hdo_check_plot_available(void);
int hdo_check_plot(hdo_check_t s, const char *png, hdo_error_t *err);
/* The plot of compared variable j as SVG into the file svg (for the HTML
   report).  0 or HDO_ERR_IO. */
int hdo_check_plot_svg(hdo_check_t s, slong j, const char *svg,
                       hdo_error_t *err);

/* --report: one self-contained HTML page at path (a regular file is
   replaced atomically): the verdict table of the candidates s[0..n) of
   one model (errors[i] not NULL: candidate i could not be checked, and
   why), and per candidate its first failure, the plot of every compared
   variable as inline SVG when plots is 1 (gnuplot on PATH), and its
   report with the summary line.  0 or a status with err filled. */
int hdo_check_write_html(const char *path, hdo_check_struct *const *s,
                         const char *const *errors, slong n, int plots,
                         hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
