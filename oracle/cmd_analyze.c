/* cmd_analyze.c -- hdo analyze: structure, strangeness index, hidden
 * constraints and consistent start of every mode */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"

static void
usage(FILE *out)
{
    fprintf(
        out,
        "usage: hdo analyze MODEL [--json] [-d|--digits D] [-p NAME=VALUE]...\n"
        "\n"
        "For each mode: its variables, the explicit/implicit split and\n"
        "Pryce offsets of the index reduction, the strangeness index mu\n"
        "and the counts d, a, v (Kunkel-Mehrmann) with the singular value\n"
        "gaps the rank decisions rest on, the hidden constraints, and a\n"
        "consistent initial point of the start mode (start values kept\n"
        "where possible).\n"
        "\n"
        "  --json            the same, machine-readable (JSON)\n"
        "  -d, --digits D    digits of the printed values (default 30, at\n"
        "                    most 10000)\n"
        "  -p, --param NAME=VALUE\n"
        "                    override the parameter NAME with the exact\n"
        "                    value VALUE (9.81, -1e-3, 1/3); repeatable\n"
        "\n"
        "Exit 0, also when a mode other than the start mode cannot be\n"
        "analysed at the start values (its error is printed); 2 for a model\n"
        "error, an inconsistent start, a failed analysis of the start mode,\n"
        "a singular mode, or a report that cannot be written.\n");
}

static void
print_error(const hdo_error_t *err)
{
    char buf[1400];
    hdo_error_format(buf, sizeof buf, err);
    fprintf(stderr, "%s\n", buf);
}

int
hdo_cmd_analyze(int argc, char **argv)
{
    int json = 0, code;
    hdo_model_t model;
    hdo_error_t err;
    hdo_analysis_t an;
    const cli_option opts[] = {{"json", 0, CLI_FLAG, .dest = &json}, {0}};
    cli c = {.cmd = "analyze",
             .operands = "MODEL",
             .nops = 1,
             .usage = usage,
             .opts = opts};

    code = cli_parse(&c, argc, argv);
    if (code >= 0) {
        cli_clear(&c);
        return code;
    }
    hdo_error_clear(&err);
    hdo_model_init(model);
    hdo_analysis_init(an);
    if (cli_params_apply(model, &c) != 0 ||
        hdo_model_parse_file(model, c.op[0], &err) != 0) {
        if (err.message[0] != '\0')
            print_error(&err);
        code = 2;
    } else {
        if (model->warnings != NULL)
            fputs(model->warnings, stderr);
        code = hdo_analyze(an, model, c.digits, &err) != 0 ? 2 : 0;
        if (code != 0)
            print_error(&err);
    }
    if (code == 0) {
        for (slong m = 0; m < an->nmodes; m++)
            if (an->modes[m].noted)
                print_error(&an->modes[m].err);
        if (an->start_err.status != 0)
            print_error(&an->start_err);
        code = an->failed ? 2 : 0;
        if (json)
            hdo_analysis_write_json(stdout, &an->work, an);
        else
            hdo_analysis_write_text(stdout, &an->work, an);
    }
    hdo_analysis_clear(an);
    hdo_model_clear(model);
    cli_clear(&c);
    return code;
}
