/* params.c -- the option -p NAME=VALUE shared by run, analyze and check:
   collected while the arguments are read, applied to the model before
   it is parsed (the parse reports a NAME that is no parameter). */
#include <stdio.h>
#include <string.h>
#include "commands.h"

int
hdo_cli_param_option(hdo_cli_params *ps, const char *cmd, int argc, char **argv,
                     int *i)
{
    const char *a = argv[*i], *val;
    if (strcmp(a, "-p") == 0 || strcmp(a, "--param") == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "hdo %s: %s needs NAME=VALUE\n", cmd, a);
            return 2;
        }
        val = argv[++*i];
    } else if (strncmp(a, "--param=", 8) == 0) {
        val = a + 8;
    } else if (strncmp(a, "-p", 2) == 0) {
        val = a + 2; /* -pNAME=VALUE, as getopt allows */
    } else {
        return -1;
    }
    if (ps->n == HDO_CLI_MAX_PARAMS) {
        fprintf(stderr, "hdo %s: more than %d -p options\n", cmd,
                HDO_CLI_MAX_PARAMS);
        return 2;
    }
    ps->v[ps->n++] = val;
    return 0;
}

int
hdo_cli_params_apply(hdo_model_t model, const hdo_cli_params *ps,
                     const char *cmd)
{
    for (int k = 0; k < ps->n; k++) {
        hdo_error_t err;
        hdo_error_clear(&err);
        if (hdo_model_add_override(model, ps->v[k], &err) != 0) {
            fprintf(stderr, "hdo %s: %s\n", cmd, err.message);
            return 2;
        }
    }
    return 0;
}
