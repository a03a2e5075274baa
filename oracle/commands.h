/* commands.h -- the subcommands of the hdo command line */
#ifndef HDO_COMMANDS_H
#define HDO_COMMANDS_H

#include <stdio.h>
#include "hdo.h"

/* Each takes the arguments after the subcommand name (argv[0] is the
   subcommand) and returns the process exit code: 0 success, 1 a failed
   check, 2 bad input or a run that cannot go on. */
int hdo_cmd_run(int argc, char **argv);
int hdo_cmd_analyze(int argc, char **argv);
int hdo_cmd_check(int argc, char **argv);
int hdo_cmd_ref(int argc, char **argv);

/* The run of hdo run (cmd_run.c), also hdo ref's: model run with opt
   into res, with --verify (verify) at D + 10 digits in a second thread
   (*verified the agreeing digits and where the place of the fewest;
   -1 and "" without), showing the progress on stderr on a terminal, or
   always with want_progress.  0, or the run's status with err. */
int run_with_progress(hdo_result_t res, long *verified, char *where, size_t n,
                      const hdo_model_struct *model, hdo_run_options *opt,
                      int verify, int want_progress, hdo_error_t *err);

/* hdo check's helpers (cmd_check.c, check_many.c) */
#include "cli.h"

/* The progress of a reference run on stderr (--progress). */
typedef struct {
    double start, last;
    int want, shown, tty;
} check_progress;
void check_progress_init(check_progress *ps, int want);
void check_progress_show(void *data, double t, long steps, long nevents,
                         const char *method);
void check_progress_end(check_progress *ps);
void check_note_no_tolerance_file(const hdo_check_t s);

/* What hdo check writes besides stdout (NULL: not asked). */
typedef struct {
    const char *junit, *plot, *report;
    int progress;
    int plot_in_report; /* 1: the report has plots (gnuplot is there) */
} check_outputs;

/* The one reference run of s[0..n) (check_many.c). */
int check_reference(hdo_refrun_t run, hdo_check_struct *const *s, slong n,
                    int want_progress, double *seconds, hdo_error_t *err);
/* The candidates named by paths[0..n) into out: a file as it is, a
   folder as its .csv and .mat files in name order (their names kept in
   *owned).  0, or 2 after printing why (a folder without candidates). */
int check_candidates(cli_list *out, char ***owned, slong *nowned,
                     const char *const *paths, int n);
/* Checks cands[0..n) of one model: one line each, the aggregate summary
   line, JUnit, plots and the HTML report; the exit code. */
int check_many(const hdo_check_options *opt, const char *const *cands,
               slong n, const check_outputs *o);

#endif
