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

#endif
