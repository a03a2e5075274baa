/* compare.h -- hdo check: readers of candidate CSV, event and tolerance
   files, the tube comparison of values and the matching of events.

   The comparison core works on plain double arrays (reference samples,
   reference events, candidate rows), so it is tested without running a
   model.  Nothing here prints; errors go to an hdo_error_t with the file,
   line and column (HDO_ERR_INPUT for bad content, HDO_ERR_IO for a file
   that cannot be read, HDO_ERR_MEMORY). */
#ifndef HDO_COMPARE_H
#define HDO_COMPARE_H

#include <stddef.h>
#include <flint/flint.h>
#include "hybrid.h"
#include "model.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* Reads the file at path as above; HDO_ERR_IO if it cannot be read. */
int hdo_csv_read_file(hdo_csv_t csv, const char *path, hdo_error_t *err);

/* MAT v4 result files (`dsres`, OpenModelica and Dymola: Aclass, name,
   description, dataInfo, data_1, data_2; binNormal or binTrans; double or
   single), read (by hdo's own MAT v4 reader) into csv as if it were CSV: the
   abscissa (Time) first, one column per other name (data_1 columns held
   constant), repeated time rows at events; line numbers are time-point numbers.
   hdo_csv_read_file chooses it by content (hdo_is_mat4: Aclass is the
   first matrix).  Returns 0, HDO_ERR_INPUT or HDO_ERR_MEMORY. */
int hdo_is_mat4(const char *path);
int hdo_csv_read_mat(hdo_csv_t csv, const char *path, hdo_error_t *err);

/* Index of the value column with this header, or -1 if there is none (an
   index, not a status). */
slong hdo_csv_find_column(const hdo_csv_t csv, const char *name);

/* ------------------------------------------------------------------ */
/* Event lists

   An event lies in [t_lo, t_hi]: t_lo == t_hi when its time is known (the
   reference, an events file, repeated time rows); for a mode change
   between two candidate rows at different times it is the interval between
   them.  from/to are mode indices of the caller's choosing (the model's),
   -1 when not known.  line: source line, 0 for none. */
typedef struct {
    double t_lo, t_hi;
    slong from, to;
    int line;
    slong count; /* events merged into this one (a cascade), >= 1 */
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
   adds up.  Events known only as an interval (t_lo < t_hi) are never
   merged.  Applied to both sides, a cascade of the reference matches one
   candidate event at that instant, and is judged by the state after it. */
int hdo_evlist_merge_cascades(hdo_evlist_t list);

/* The candidate's events, inferred from its rows and appended to list.
   A group of rows that are copies of one another (same time, mode and
   cells) is no event.
   A group of consecutive rows with the same time holds: with a mode
   column, one event per consecutive pair of its rows whose modes differ,
   or one event from the group's first to its last mode when none differ
   (a mode that switches to itself); without a mode column, one event.
   A mode change between rows at different times t1 < t2 is an event in
   [t1, t2].  mode_map maps csv->modes indices to the caller's mode indices
   (NULL: use them as they are).  Returns 0 or HDO_ERR_MEMORY. */
int hdo_csv_infer_events(hdo_evlist_t list, const hdo_csv_t csv,
                         const slong *mode_map);

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

/* Reads a whole file into a malloc'd buffer (*len bytes, NUL added).
   Returns 0, HDO_ERR_IO (err message: the system's reason),
   HDO_ERR_MEMORY, or HDO_ERR_INPUT for a file that holds a NUL byte (not
   text: refused as soon as it is read, so /dev/zero stops at once) or is
   larger than HDO_INPUT_MAX_BYTES (4 GiB: 10^7 candidate rows of a dozen
   columns fit, a runaway device does not). */
#define HDO_INPUT_MAX_BYTES ((size_t)4 << 30)
int hdo_read_whole_file(char **text, size_t *len, const char *path,
                        hdo_error_t *err);

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
   as failures. */
typedef enum {
    HDO_MATCH_OK = 0,
    HDO_MATCH_MISSING, /* reference event without candidate */
    HDO_MATCH_EXTRA,   /* candidate event without reference */
    HDO_MATCH_EARLY,   /* candidate earlier than time_abs allows */
    HDO_MATCH_LATE,
    HDO_MATCH_MODE,    /* wrong mode change (modes exact) */
    HDO_MATCH_OUTSIDE, /* reference event outside the candidate's span */
    HDO_MATCH_AT_END   /* unpaired, within time_abs of the model's end time */
} hdo_match_verdict;

/* 1 for the verdicts that are judged (ok or a failure); 0 for events
   outside the candidate's span or at the end time, which are listed but
   neither pass nor fail. */
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
   status, HDO_ERR_INPUT (candidate before t0) or HDO_ERR_MEMORY, with err
   filled. */
int hdo_check_reference(hdo_refsamp_t ref, hdo_evlist_t ref_ev,
                        hdo_model_t model, const slong *var, slong nvar,
                        const double *cand_t, slong ncand, double time_abs,
                        long digits, hdo_error_t *err);

/* ------------------------------------------------------------------ */
/* The verdict and the figures of the summary line (docs/decisions.md,
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
/* Output files.  A regular file (or a new one) is written to a temporary
   file beside it and renamed into place by hdo_outfile_commit; a path
   that exists and is not a regular file (device, FIFO, symlink) is
   written through and never replaced.  A folder is refused (HDO_ERR_IO). */
typedef struct {
    const char *path;
    char *tmp; /* NULL when writing through */
    FILE *f;
} hdo_outfile;

int hdo_outfile_open(hdo_outfile *o, const char *path, hdo_error_t *err);
/* Closes, checks every write, renames: 0 or HDO_ERR_IO (the temporary
   file removed). */
int hdo_outfile_commit(hdo_outfile *o, hdo_error_t *err);
void hdo_outfile_abort(hdo_outfile *o);
/* Copies the file src onto dst as above. */
int hdo_outfile_copy(const char *dst, const char *src, hdo_error_t *err);

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
} hdo_junit_case;

/* Writes s escaped for XML text and attributes; bytes XML cannot hold
   (control characters, broken UTF-8) become '?'. */
void hdo_xml_escape(FILE *f, const char *s);
int hdo_junit_write(const char *path, const char *suite,
                    const hdo_junit_case *tc, slong n, const char *error,
                    double seconds, hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
