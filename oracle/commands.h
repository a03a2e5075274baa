/* commands.h -- the subcommands of the hdo command line */
#ifndef HDO_COMMANDS_H
#define HDO_COMMANDS_H

#include "model.h"

/* Each takes the arguments after the subcommand name (argv[0] is the
   subcommand) and returns the process exit code: 0 success, 1 a failed
   check, 2 bad input or a run that cannot go on. */
int hdo_cmd_run(int argc, char **argv);
int hdo_cmd_analyze(int argc, char **argv);
int hdo_cmd_check(int argc, char **argv);

/* The -p NAME=VALUE options of one command line (params.c). */
#define HDO_CLI_MAX_PARAMS 256
typedef struct {
    const char *v[HDO_CLI_MAX_PARAMS];
    int n;
} hdo_cli_params;

/* If argv[*i] is -p/--param (then *i moves past its value), records it
   in ps and returns 0, or prints a message naming the option and returns
   2; returns -1 if argv[*i] is another argument. */
int hdo_cli_param_option(hdo_cli_params *ps, const char *cmd, int argc,
                         char **argv, int *i);
/* Adds the recorded overrides to model (initialised, not yet parsed);
   returns 0, or 2 after printing why a value is malformed. */
int hdo_cli_params_apply(hdo_model_t model, const hdo_cli_params *ps,
                         const char *cmd);

#endif
