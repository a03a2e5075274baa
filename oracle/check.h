/* check.h -- private to oracle/: the state of one `hdo check` and the
   functions its files share (cmd_check.c: options, inputs, the run;
   check_report.c: the report, the summary line, JUnit; check_plot.c:
   gnuplot). */
#ifndef HDO_ORACLE_CHECK_H
#define HDO_ORACLE_CHECK_H

#include <stdio.h>
#include "commands.h"
#include "compare.h"
#include "hybrid.h"
#include "model.h"

/* Everything one check holds, cleared in one place. */
typedef struct {
    const char *model_path, *cand_path, *tol_path, *events_path;
    const char *junit_path, *plot_path;
    char *tol_default;
    hdo_model_t model;
    hdo_csv_t cand;
    hdo_tol_t tol;
    hdo_evfile_t evfile;
    hdo_evlist_t cand_ev, ref_ev;
    hdo_matching_t match;
    slong *mode_map;       /* candidate mode names -> model modes */
    slong nvar;            /* compared variables */
    slong *col;            /* their candidate columns */
    slong *var;            /* their model variables */
    hdo_refsamp_t ref;     /* the reference samples */
    hdo_tube_struct *tube; /* nvar */
    const char *events_source;
    long digits;
    /* tolerances from the command line (NaN: not given) */
    double cli_time_abs, cli_value_abs, cli_value_rel;
    int tol_from_file; /* 0: no file, the defaults */
    int events_given;  /* 0: no events file, mode column or event rows */
    slong nignored;    /* candidate columns that are not model variables */
    slong *ignored;
    double seconds_start, seconds_ref, seconds_compare;
    char errmsg[1400]; /* the first error, for the JUnit <error> */
    char **maps;       /* --map arguments */
    hdo_cli_params params; /* -p NAME=VALUE */
    slong nmaps;
} check_state;

double chk_now(void);
/* Prints an error and keeps the first one for the JUnit report. */
void chk_error(check_state *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void chk_print_error(check_state *s, const hdo_error_t *err);
const char *chk_mode_name(const check_state *s, slong m);

int chk_variable_failed(const check_state *s, slong j);
int chk_failed(const check_state *s);
void chk_describe_variable(char *buf, size_t n, const check_state *s, slong j);
void chk_describe_row_failure(char *buf, size_t n, const check_state *s,
                              slong j, slong i);
void chk_describe_event_failure(char *buf, size_t n, const check_state *s,
                                const hdo_match *m);
void chk_print_report(const check_state *s, FILE *out);
void chk_print_summary(const check_state *s, FILE *out);
/* Written on every exit: with rc 2 an <error> element. */
int chk_write_junit(check_state *s, int rc);

int chk_on_path(const char *prog);
int chk_write_plots(const check_state *s);

#endif
