/* cmd_check.c -- hdo check: compares another solver's CSV result with the
 * reference (the work is the library's: ref/check.h) */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "util.h"

/* The usage spells the default digits out, to stay one readable text. */
_Static_assert(HDO_DIGITS_DEFAULT == 30, "the usage says default 30");

static void
usage(FILE *out)
{
    fputs(
        "usage: hdo check MODEL CANDIDATE... [-t|--tol FILE]\n"
        "                 [--events FILE] [--columns time,NAME,...]\n"
        "                 [--junit FILE] [--plot FILE.png] [--report "
        "FILE.html]\n"
        "                 [--progress] [-d D] [--time-abs X] [--value-abs "
        "X]\n"
        "                 [--value-rel X] [--map CAND=VAR]...\n"
        "                 [-p NAME=VALUE]...\n"
        "\n"
        "Compares another solver's result (CSV: time first, an optional\n"
        "mode column, one column per variable, repeated time rows at\n"
        "events) with the reference hdo run computes from the model's\n"
        "start to its end time (MAT v4 dsres files are read too).  A value\n"
        "passes when it lies within value_abs + value_rel*|ref| of the\n"
        "range the reference takes over [t - time_abs, t + time_abs];\n"
        "events must match in number, order, mode change (modes = exact)\n"
        "and time (within time_abs); an event that changes no column the\n"
        "candidate has is 'not observable in the candidate', not judged.\n"
        "The last line of the report is a machine-readable summary:\n"
        "'summary: verdict=PASS|FAIL ...' (fields in docs/decisions.md "
        "D-037).\n"
        "\n"
        "Several candidates (or a folder: its .csv and .mat files) are\n"
        "checked against one reference run: one line each (PASS, FAIL with\n"
        "the first failure, ERROR), then 'summary: verdict=... candidates=N\n"
        "passed=N failed=N errors=N ...'.\n"
        "\n"
        "  -t, --tol FILE   tolerance file (default: tolerances/<file>.tol,\n"
        "                   <file> the model file's name without .hdae,\n"
        "                   then tolerances/<model name>.tol; in the\n"
        "                   working folder, else beside the model's)\n"
        "  --columns time,NAME,...\n"
        "                   the column names of a file without a header\n"
        "                   line (Octave's csvwrite), by position\n"
        "  --events FILE    the candidate's events (time,from,to or\n"
        "                   events.csv); default: inferred from repeated\n"
        "                   time rows and the mode column\n"
        "  --junit FILE     JUnit XML report: one test case per variable\n"
        "                   and one for the events (several candidates:\n"
        "                   one test case per candidate, named after it)\n"
        "  --plot FILE.png  reference, band and candidate per variable, the\n"
        "                   events by verdict, the error over the band on a\n"
        "                   log scale (gnuplot; FILE-<var>.png when there\n"
        "                   are several; FILE-<candidate>.png per candidate)\n"
        "  --report FILE.html\n"
        "                   one self-contained HTML page: the verdict table,\n"
        "                   per candidate the first failure, plots (inline\n"
        "                   SVG, with gnuplot) and the report\n"
        "  --progress       the reference run's progress on stderr\n"
        "  --time-abs X, --value-abs X, --value-rel X\n"
        "                   tolerances, overriding the file's (without a\n"
        "                   file: time_abs 1e-6, value_abs 1e-8, value_rel "
        "1e-6)\n"
        "  -d, --digits D   digits of the reference run (default 30, as\n"
        "                   hdo run)\n"
        "  --map CAND=VAR   the candidate column CAND is the model variable\n"
        "                   VAR (repeatable; also `map = ` in the tolerance "
        "file)\n"
        "  -p, --param NAME=VALUE\n"
        "                   override the parameter NAME with the exact value\n"
        "                   VALUE (9.81, -1e-3, 1/3); repeatable\n"
        "\n"
        "Exit 0 pass, 1 fail, 2 bad input or a reference run that cannot go "
        "on.\n",
        out);
}

/* The first error message, for the JUnit <error>. */
static char first_error[1400];

static void error_line(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Prints an error and keeps the first one for the JUnit report. */
static void
error_line(const char *fmt, ...)
{
    char buf[sizeof first_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", buf);
    if (first_error[0] == '\0')
        snprintf(first_error, sizeof first_error, "%s", buf);
}

/* "file:line:col: error: ..." when err names a file, else "hdo check:
   ..." (an option, memory). */
static void
print_error(const hdo_error_t *err)
{
    char buf[sizeof first_error];
    if (err->file != NULL) {
        hdo_error_format(buf, sizeof buf, err);
        error_line("%s", buf);
    } else {
        error_line("hdo check: %s", err->message);
    }
}

/* Reads, computes and reports; the exit code. */
static int
check(hdo_check_t s, const hdo_check_options *opt, const char *plot,
      int want_progress)
{
    hdo_error_t err;
    hdo_check_struct *list[1] = {s};
    int rc = hdo_check_read_model(s, opt, &err);
    if (rc == 0 && s->model->warnings != NULL)
        fputs(s->model->warnings, stderr);
    if (rc == 0)
        rc = hdo_check_read_inputs(s, &err);
    if (rc == 0)
        check_note_no_tolerance_file(s);
    if (rc == 0) {
        hdo_refrun_t run;
        double sec;
        hdo_refrun_init(run);
        rc = check_reference(run, list, 1, want_progress, &sec, &err);
        if (rc == 0)
            rc = hdo_check_compute_from(s, run, &err);
        s->seconds_ref += sec;
        hdo_refrun_clear(run);
    }
    if (rc != 0) {
        print_error(&err);
        if (s->run_status != 0)
            error_line("hdo check: the reference run at %ld digits failed (%s)",
                       opt->digits, hdo_status_name(s->run_status));
        return 2;
    }
    hdo_check_write_report(stdout, s);
    hdo_check_write_summary(stdout, s);
    /* a report that did not reach its reader is no verdict */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        error_line("hdo check: cannot write the report to standard output: %s",
                   strerror(errno));
        return 2;
    }
    if (plot != NULL && hdo_check_plot(s, plot, &err) != 0) {
        print_error(&err);
        return 2;
    }
    return hdo_check_failed(s) ? 1 : 0;
}

int
hdo_cmd_check(int argc, char **argv)
{
    double t0 = hdo_clock_now();
    check_outputs o = {NULL, NULL, NULL, 0, 0};
    hdo_check_options opt;
    hdo_check_t s;
    cli_list maps = {NULL, 0}, cands = {NULL, 0};
    char **owned = NULL;
    slong nowned = 0;
    int rc, many = 0;
    hdo_check_options_init(&opt);
    const cli_option opts[] = {
        {"tol", 't', CLI_FILE, .dest = &opt.tol_path, .what = "file name"},
        {"events", 0, CLI_FILE, .dest = &opt.events_path, .what = "file name"},
        {"columns", 0, CLI_FILE, .dest = &opt.columns,
         .what = "list of column names"},
        {"junit", 0, CLI_FILE, .dest = &o.junit, .what = "file name"},
        {"plot", 0, CLI_FILE, .dest = &o.plot, .what = "file name"},
        {"report", 0, CLI_FILE, .dest = &o.report, .what = "file name"},
        {"progress", 0, CLI_FLAG, .dest = &o.progress},
        {"time-abs", 0, CLI_TOL, .dest = &opt.time_abs},
        {"value-abs", 0, CLI_TOL, .dest = &opt.value_abs},
        {"value-rel", 0, CLI_TOL, .dest = &opt.value_rel},
        {"map", 0, CLI_PAIR, .dest = &maps, .what = "CANDIDATE_NAME=MODEL_VAR"},
        {0}};
    cli c = {.cmd = "check",
             .operands = "MODEL and CANDIDATE.csv",
             .nops = 2,
             .more_ops = 1,
             .usage = usage,
             .opts = opts};

    hdo_check_init(s);
    rc = cli_parse(&c, argc, argv);
    if (rc == 0) { /* --help */
        hdo_check_clear(s);
        cli_clear(&c);
        return 0;
    }
    if (rc < 0 && o.plot != NULL && !hdo_check_plot_available()) {
        error_line("hdo check: --plot needs the gnuplot command, which is not "
                   "on PATH (install gnuplot or gnuplot-nox)");
        rc = 2;
    }
    o.plot_in_report = o.report != NULL && hdo_check_plot_available();
    if (rc < 0) {
        const char **paths = malloc((size_t)(c.rest.n + 2) * sizeof *paths);
        if (paths == NULL) {
            rc = 2;
        } else {
            paths[0] = c.op[1];
            for (int k = 0; k < c.rest.n; k++)
                paths[k + 1] = c.rest.v[k];
            rc = check_candidates(&cands, &owned, &nowned, paths,
                                  c.rest.n + 1) == 0
                     ? -1
                     : 2;
            free(paths);
        }
        /* one file: the full report, as always; several: one line each */
        many = rc < 0 && (cands.n > 1 || nowned > 0);
    }
    if (rc < 0) {
        opt.model_path = c.op[0];
        opt.cand_path = cands.v[0];
        opt.digits = c.digits;
        opt.maps = maps.v;
        opt.nmaps = maps.n;
        opt.params = c.params.v;
        opt.nparams = c.params.n;
        if (many)
            rc = check_many(&opt, cands.v, cands.n, &o);
        else
            rc = check(s, &opt, o.plot, o.progress);
    }
    /* written on every exit: on exit 2 an <error>, so that no stale report
       of an earlier run stays */
    if (!many && o.junit != NULL) {
        hdo_error_t err;
        const char *e = rc != 2          ? NULL
                        : first_error[0] ? first_error
                                         : "hdo check could not be done: bad "
                                           "command line (see standard error)";
        if (hdo_check_write_junit(o.junit, s, e, hdo_clock_now() - t0, &err) !=
            0) {
            print_error(&err);
            rc = 2;
        }
    }
    if (!many && o.report != NULL && s->opt.cand_path != NULL) {
        /* on exit 2 the page says why, as the JUnit report does */
        hdo_error_t err;
        hdo_check_struct *list[1] = {s};
        const char *errors[1] = {rc == 2 || s->tube == NULL
                                     ? (first_error[0] ? first_error
                                                       : "hdo check could not "
                                                         "be done")
                                     : NULL};
        if (hdo_check_write_html(o.report, list, errors, 1, o.plot_in_report,
                                 &err) != 0) {
            print_error(&err);
            rc = 2;
        }
    }
    for (slong i = 0; i < nowned; i++)
        free(owned[i]);
    free(owned);
    free(cands.v);
    hdo_check_clear(s);
    cli_clear(&c);
    return rc;
}
