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

/* hdo check's human report (check_report.c). */
void check_print_report(const hdo_check_t s, FILE *out);

#endif
