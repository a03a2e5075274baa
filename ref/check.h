/* check.h -- hdo check as a library: a candidate result file judged
   against the reference hdo computes from the model (ref/check/).

   The stages a caller drives, in order (hdo_check_run does all three):
   hdo_check_read_model (parameters and the model), hdo_check_read_inputs
   (the candidate, the tolerances, the compared variables, the candidate's
   events), hdo_check_compute (the reference run, its samples, the tube of
   every variable and the pairing of events; compare.h).  The verdict is
   hdo_check_failed; the figures of the summary line are
   hdo_check_summarize (compare.h), written by hdo_check_write_summary;
   hdo_check_write_junit and hdo_check_plot write the JUnit report and
   the plots.  Nothing here prints on the terminal: oracle/cmd_check.c
   renders the human report.  Errors name file, line and column where
   there is one (err->file set); an error without a file is about the
   command (an option, memory). */
#ifndef HDO_CHECK_H
#define HDO_CHECK_H

#include <stdio.h>
#include "compare.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    long digits;             /* of the reference run (HDO_DIGITS_DEFAULT) */
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

/* The machine-readable line "summary: verdict=... ref_span=T0..T1\n"
   (docs/decisions.md, "hdo check summary line"), preceded by an empty
   line. */
void hdo_check_write_summary(FILE *out, const hdo_check_t s);

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

#ifdef __cplusplus
}
#endif

#endif
