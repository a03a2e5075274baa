/* golden.h -- golden references of a user's own models (hdo ref write,
   hdo ref compare; docs/ref.md): a result folder written with
   the options that produced it (ref.json), read back, and compared with
   a fresh result to N significant digits, naming the first differing
   option, event or value.

   A golden reference is the folder hdo run writes (trajectory.csv,
   events.csv, summary.json) plus ref.json.  The comparison reads the
   files as text (the CSV cells through check.h's hdo_csv_cells, the
   JSON through the module's own reader), so that no digit is lost to a
   double; numbers are compared in MPFR at the digits the files hold.
   Nothing here prints; errors name the file, line and column. */
#ifndef HDO_GOLDEN_H
#define HDO_GOLDEN_H

#include <stdio.h>
#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The files of a golden reference, in this order (hdo_golden_file_name
   gives their names: "trajectory.csv", ..., "ref.json"). */
enum {
    HDO_GOLDEN_TRAJECTORY = 0,
    HDO_GOLDEN_EVENTS,
    HDO_GOLDEN_SUMMARY,
    HDO_GOLDEN_RECORD,
    HDO_GOLDEN_NFILES
};
const char *hdo_golden_file_name(int file);

/* The version of ref.json this library writes and reads. */
#define HDO_GOLDEN_FORMAT 1

/* The options of a golden reference, as given to hdo ref write (and kept
   in ref.json): rerun with them, a model gives the same result. */
typedef struct {
    char *model;       /* the model's name (its `model` line) */
    char *hdo_version; /* the hdo that wrote it; NULL: not recorded */
    long digits;       /* D, 1 to HDO_MAX_DIGITS */
    int verify;        /* --verify */
    /* --every and --until as written (exact decimals); NULL: not given
       (the default step, the model's `until`) */
    char *every, *until;
    int method;                 /* HDO_METHOD_AUTO, _TAYLOR, _IMPLICIT */
    long max_steps, max_events; /* 0: not given (the defaults) */
    slong nparams;
    char **params; /* -p NAME=VALUE as given, in order */
} hdo_golden_record;

void hdo_golden_record_init(hdo_golden_record *rec);
void hdo_golden_record_clear(hdo_golden_record *rec);

/* Fills rec (initialised) with copies of the arguments (every and until
   may be NULL) and this library's hdo_version().  0 or HDO_ERR_MEMORY. */
int hdo_golden_record_set(hdo_golden_record *rec, const char *model,
                          long digits, int verify, const char *every,
                          const char *until, int method, long max_steps,
                          long max_events, const char *const *params,
                          slong nparams);

/* Writes rec as ref.json: one JSON object, a key per line, in the order
   hdo_ref (HDO_GOLDEN_FORMAT), model, hdo_version, digits, verify,
   every, until, method, max_steps, max_events, params (an object NAME:
   "VALUE"); null for what was not given.  0 or HDO_ERR_IO. */
int hdo_golden_record_write(FILE *f, const hdo_golden_record *rec,
                            hdo_error_t *err);

/* Reads ref.json text into rec (initialised): hdo_ref, model and digits
   are required, the other keys optional (absent or null: not given);
   every value is checked as the command line would check it (digits 1
   to HDO_MAX_DIGITS, every a positive exact decimal, until an exact
   decimal, method auto, taylor or implicit, max_steps and max_events
   positive, each param NAME=VALUE with an exact decimal or ratio).
   Returns 0, or HDO_ERR_INPUT with err at the file, line and column of
   the offending value or key (file borrowed), or HDO_ERR_MEMORY. */
int hdo_golden_record_read(hdo_golden_record *rec, const char *text, size_t len,
                           const char *file, hdo_error_t *err);

/* The run options of rec: opt (initialised by the caller with
   hdo_run_options_init) gets digits, method, the limits, and every and
   until set into the caller's fmpq (initialised; they must outlive the
   run).  0, or HDO_ERR_INPUT (a record not read by
   hdo_golden_record_read: err names the option). */
int hdo_golden_record_options(hdo_run_options *opt, fmpq_t every, fmpq_t until,
                              const hdo_golden_record *rec, hdo_error_t *err);

/* ------------------------------------------------------------------ */
/* The files of a result as text.  where names them in messages: the
   folder they were read from, or the caller's name for a run. */
typedef struct {
    char *where;
    char *path[HDO_GOLDEN_NFILES]; /* "WHERE/NAME", for messages */
    char *text[HDO_GOLDEN_NFILES]; /* NUL-terminated; NULL: absent */
    size_t len[HDO_GOLDEN_NFILES];
} hdo_golden_files_struct;
typedef hdo_golden_files_struct hdo_golden_files_t[1];

void hdo_golden_files_init(hdo_golden_files_t g);
void hdo_golden_files_clear(hdo_golden_files_t g);

/* Reads the files of folder dir.  trajectory.csv, events.csv and
   summary.json must be there, and ref.json when need_record; a missing
   ref.json is otherwise left NULL.  0, or HDO_ERR_IO / HDO_ERR_INPUT
   (a NUL byte, over HDO_INPUT_MAX_BYTES) with err->message naming the
   file ("DIR/summary.json: cannot open: ..."), or HDO_ERR_MEMORY. */
int hdo_golden_files_read(hdo_golden_files_t g, const char *dir,
                          int need_record, hdo_error_t *err);

/* The files of a finished run of model as hdo run writes them (res's
   digits; verified < 0: not verified) and rec as ref.json (NULL: none),
   rendered in memory.  0, or HDO_ERR_MEMORY / HDO_ERR_IO. */
int hdo_golden_files_render(hdo_golden_files_t g, const char *where,
                            const hdo_result_t res, const hdo_model_t model,
                            long verified, const hdo_golden_record *rec,
                            hdo_error_t *err);

/* A golden reference folder, as hdo run's (ref/outdir.h): made and
   checked before computing, an earlier result removed (the four files);
   then the files of g (ref.json included when g has it) written into
   temporary files and renamed into place together.  0, or a status with
   err. */
int hdo_golden_prepare(const char *dir, hdo_error_t *err);
int hdo_golden_files_write(const char *dir, const hdo_golden_files_t g,
                           hdo_error_t *err);

/* ------------------------------------------------------------------ */
/* The comparison of a stored golden reference with a fresh result.

   Numbers a (stored) and b (fresh) agree to

       -log10(|a - b| / max(|a|, |b|, 10^-5 S))

   digits, capped at the stored digits, where S is the largest magnitude
   of the number's column in the stored trajectory.csv (times and event
   times: the time column's; a column of zeros: 1; a parameter: its own
   magnitude; t0 and t_end: 1): relative within five decades of the
   column's scale, absolute (10^-(N+5) S) below, because hdo holds every
   value to its column's scale (docs/decisions.md D-041, "Golden references").
   They differ when they agree to fewer than need digits.

   What is compared, in the order the differences are listed:
   - options: when both sides have ref.json, every option of it; in
     summary.json the run's setting: model, digits, t0, t_end, each
     parameter (as numbers), overrides;
   - events.csv: the header, the count, and event by event (up to the
     shorter list) the time as a number and every other column as text;
   - trajectory.csv: the header, the count, and row by row (up to the
     shorter file) the time, the mode and every value (an empty cell
     only against an empty cell);
   - summary.json, the other keys: equal as JSON values, except the
     wall and CPU times and what produced the result (seconds, timing,
     hdo_version, command_line, file: the model's path as given, which
     differs between folders), the figures of the computation (steps,
     implicit_steps, average_order, max_residual: notes when they
     change), and verified_digits (a note when it changes, a difference
     when it falls below need from at least need).  A key only one side
     has is a note (a format change). */
enum {
    HDO_GOLDEN_PART_OPTIONS = 0,
    HDO_GOLDEN_PART_EVENTS,
    HDO_GOLDEN_PART_VALUES,
    HDO_GOLDEN_PART_SUMMARY,
    HDO_GOLDEN_NPARTS
};
/* The name of a part, for reports and JUnit test cases: "options",
   "events", "trajectory", "summary". */
const char *hdo_golden_part_name(int part);

/* Differences kept per file; the rest are counted (more[]). */
#define HDO_GOLDEN_SHOWN 5

typedef struct {
    int file; /* HDO_GOLDEN_* */
    int part; /* HDO_GOLDEN_PART_* */
    /* "line 6 (t = 0.15) column x: stored A, fresh B: 29.7 digits (need
       35)", "stored has 3 events, fresh 2", "key events: stored 3, fresh
       4", "parameter e: stored ..., fresh ...", "option --every: stored
       0.1, fresh 0.05" */
    char *message;
} hdo_golden_diff;

typedef struct {
    long need, cap; /* digits asked and held (the stored digits) */
    slong ndiffs;   /* every difference */
    slong parts[HDO_GOLDEN_NPARTS]; /* differences per part */
    slong nshown, shown_alloc;
    hdo_golden_diff *shown; /* the first HDO_GOLDEN_SHOWN of each file */
    slong more[HDO_GOLDEN_NFILES];
    double worst;       /* the fewest agreeing digits over the numbers
                           compared, at most cap; NaN: none compared */
    slong rows, events; /* of the stored result */
    int identical;      /* trajectory.csv and events.csv the same bytes */
    char *notes;        /* "steps 33 -> 35; ..." or NULL */
} hdo_golden_cmp_struct;
typedef hdo_golden_cmp_struct hdo_golden_cmp_t[1];

void hdo_golden_cmp_init(hdo_golden_cmp_t c);
void hdo_golden_cmp_clear(hdo_golden_cmp_t c);

/* Compares fresh with stored to need significant digits (1 to
   HDO_MAX_DIGITS) into c (initialised; earlier contents replaced).
   Returns 0 when the files could be compared (c->ndiffs says whether
   they agree), HDO_ERR_INPUT when a file is not as hdo writes it (err
   at its file, line and column; err->file is stored's or fresh's path
   of the file), HDO_ERR_MEMORY. */
int hdo_golden_compare(hdo_golden_cmp_t c, const hdo_golden_files_t stored,
                       const hdo_golden_files_t fresh, long need,
                       hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
