/* main.c -- the hdo command: dispatches to run, analyze, check and ref */
#include <stdio.h>
#include <string.h>
#include <mpfr.h>
#include <flint/flint.h>
#include "commands.h"

static void
usage(FILE *out)
{
    fprintf(out,
            "usage: hdo COMMAND [options]\n"
            "\n"
            "commands:\n"
            "  run MODEL      compute the reference solution of a case\n"
            "  analyze MODEL  index, hidden constraints, consistent start\n"
            "  check MODEL CANDIDATE.csv  cross-check another solver's output\n"
            "  ref write|compare MODEL DIR  golden references of your own\n"
            "                 models: write one, compare a fresh run with it\n"
            "\n"
            "'hdo COMMAND --help' describes each command's options.\n"
            "Exit codes: 0 success, 1 a check failed, 2 bad input or a run\n"
            "that cannot go on.\n");
}

static int
dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("hdo %s\n", hdo_version());
        return 0;
    }
    if (strcmp(argv[1], "run") == 0)
        return hdo_cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "analyze") == 0)
        return hdo_cmd_analyze(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") == 0)
        return hdo_cmd_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "ref") == 0)
        return hdo_cmd_ref(argc - 1, argv + 1);
    fprintf(stderr, "hdo: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

int
main(int argc, char **argv)
{
    hdo_process_init();
    int code = dispatch(argc, argv);
    /* a report that did not reach its reader is no success (cli.md) */
    hdo_error_t err;
    hdo_error_clear(&err);
    if (hdo_stdout_finish(&err) != 0) {
        fprintf(stderr, "hdo: error: %s\n", err.message);
        code = 2;
    }
    /* Release the libraries' caches so that valgrind sees no leak. */
    flint_cleanup_master();
    mpfr_free_cache();
    return code;
}
