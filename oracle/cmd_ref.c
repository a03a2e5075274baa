/* cmd_ref.c -- hdo ref write and hdo ref compare: golden references of a
 * user's own models, for regression tests in any folder and in CI (the
 * work is the library's: ref/golden.h) */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "util.h"

/* The usage spells the precision rule's numbers out, to stay one
   readable text; these say when it must change. */
_Static_assert(HDO_DIGITS_DEFAULT == 30, "the usage says default 30");
_Static_assert(HDO_VERIFY_EXTRA_DIGITS == 10, "the usage says D + 10");

static void
usage_ref(FILE *f)
{
    fputs("usage: hdo ref write MODEL DIR [run options]\n"
          "       hdo ref compare MODEL DIR [--digits-agree N] [--junit "
          "FILE]\n"
          "\n"
          "Golden references of your own models: 'write' runs MODEL and "
          "keeps the\n"
          "result in DIR with the options in DIR/ref.json; 'compare' "
          "runs it again\n"
          "with those options and names the first option, event or value "
          "that\n"
          "differs.  'hdo ref write --help' and 'hdo ref compare --help' "
          "give the\n"
          "options.  Exit 0 agree, 1 differ, 2 bad input.\n",
          f);
}

static void
usage_write(FILE *f)
{
    fputs("usage: hdo ref write MODEL DIR [-d|--digits D] [--every DT]\n"
          "                     [--until T] [--verify] [--max-steps N]\n"
          "                     [--max-events N] [-p|--param NAME=VALUE]...\n"
          "                     [--method auto|taylor|implicit] [--progress]\n"
          "\n"
          "Runs MODEL as hdo run does and writes the golden reference DIR:\n"
          "trajectory.csv, events.csv, summary.json and ref.json, the options\n"
          "that hdo ref compare runs it again with.  The options are those of\n"
          "hdo run (-o aside: the folder is DIR):\n"
          "\n"
          "  -d, --digits D    significant digits of every value (default 30,\n"
          "                    at most 10000)\n"
          "  --every DT        sampling step (default (t_end - t0)/1000)\n"
          "  --until T         end time, overriding the model's `until`\n"
          "  --verify          solve again with D + 10 digits and record the\n"
          "                    agreeing digits (verified_digits)\n"
          "  --max-steps N     give up after more than N steps\n"
          "  --max-events N    allow N events, give up at the next one\n"
          "  -p, --param NAME=VALUE\n"
          "                    the parameter NAME with the exact value VALUE\n"
          "                    (9.81, -1e-3, 1/3); repeatable\n"
          "  --method M        auto, taylor or implicit (as hdo run)\n"
          "  --progress        print the progress on stderr\n"
          "\n"
          "Exit status: 0 written, 1 --verify confirmed fewer than D digits\n"
          "(the files are written), 2 bad input or a run that cannot go on.\n",
          f);
}

static void
usage_compare(FILE *f)
{
    fputs(
        "usage: hdo ref compare MODEL DIR [--digits-agree N] [--junit FILE]\n"
        "                       [--with DIR2 | -o|--out DIR2] [--progress]\n"
        "\n"
        "Runs MODEL again with the options recorded in DIR/ref.json (by hdo\n"
        "ref write) and compares the result with the golden reference in\n"
        "DIR: the run's setting (digits, times, parameters), the events and\n"
        "every value, numbers to N significant digits (relative, and\n"
        "absolute below 10^-5 of their column's largest magnitude).  Prints\n"
        "the differences, the first first, and a last line 'PASS MODEL:\n"
        "agree to A digits ...' or 'FAIL MODEL: K difference(s) ...'.\n"
        "\n"
        "  --digits-agree N  digits that must agree, at most the recorded\n"
        "                    digits (default: the recorded digits - 5, at\n"
        "                    least 1)\n"
        "  --junit FILE      JUnit XML report: one test case each for the\n"
        "                    options, the events, the trajectory and the\n"
        "                    summary (an <error> on exit 2)\n"
        "  --with DIR2       compare with the result in DIR2 (hdo ref write\n"
        "                    or hdo run) instead of running MODEL\n"
        "  -o, --out DIR2    also write the fresh result into DIR2, as hdo\n"
        "                    ref write would (to inspect it, or to accept it)\n"
        "  --progress        print the progress of the run on stderr\n"
        "\n"
        "The run options (-d, -p, ...) are those of DIR/ref.json; giving\n"
        "them here is an error.  Exit status: 0 agree, 1 differ, 2 bad input\n"
        "(a missing or malformed file, at its file:line:col) or a run that\n"
        "cannot go on.\n",
        f);
}

/* Prints the summary line of a finished run and its notes; the exit
   code of a --verify that confirmed fewer than D digits (1) or 0. */
static int
report_run(const hdo_result_t res, const hdo_model_t model, long digits,
           long verified, const char *where, const char *dir, const char *cmd)
{
    printf("%s: %ld steps, %ld events, %.2f s", model->name, (long)res->steps,
           (long)res->nevents, res->seconds);
    if (verified >= 0)
        printf(", %ld verified digits", verified);
    printf(" -> %s\n", dir);
    hdo_run_write_notes(stderr, res, model, digits);
    if (verified < 0 || verified >= digits)
        return 0;
    /* a reference that could not be confirmed must not pass for one that
       was (as hdo run says it) */
    fprintf(stderr,
            "hdo %s: --verify: the runs at %ld and %ld digits agree to only "
            "%ld digits; fewest digits: %s\n",
            cmd, digits, hdo_run_verify_digits(digits), verified,
            where[0] ? where : "(not located)");
    return 1;
}

/* Parses the model with the overrides params (exit code 0 or 2, the
   error printed). */
static int
read_model(hdo_model_t model, const cli *c, const char *const *params,
           slong nparams)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    for (slong k = 0; k < nparams; k++)
        if (hdo_model_add_override(model, params[k], &err) != 0) {
            fprintf(stderr, "hdo %s: %s\n", c->cmd, err.message);
            return 2;
        }
    if (hdo_model_parse_file(model, c->op[0], &err) != 0) {
        cli_print_error(c, &err);
        return 2;
    }
    if (model->warnings != NULL)
        fputs(model->warnings, stderr);
    return 0;
}

/* Runs model with opt (refused first if its grid cannot be held) into
   res; the files rendered into g (with rec as ref.json when not NULL).
   Exit code 0 (*verified, where set), or 2 with the error printed. */
static int
run_into(hdo_golden_files_t g, hdo_result_t res, long *verified, char *where,
         size_t n, const hdo_model_t model, hdo_run_options *opt, int verify,
         int progress, const hdo_golden_record *rec, const cli *c)
{
    hdo_error_t err;
    slong rows = 0;
    hdo_error_clear(&err);
    if (hdo_run_rows(&rows, model, opt, &err) != 0 ||
        hdo_run_check_memory(rows, model, opt->digits, verify, &err) != 0 ||
        run_with_progress(res, verified, where, n, model, opt, verify, progress,
                          &err) != 0 ||
        hdo_golden_files_render(g, "(fresh run)", res, model, *verified, rec,
                                &err) != 0) {
        cli_print_error(c, &err);
        return 2;
    }
    return 0;
}

/* ------------------------------------------------------------------ */

static int
ref_write(int argc, char **argv, char **all)
{
    hdo_golden_record rec;
    hdo_golden_files_t g;
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    cli_run r;
    int rc;
    long verified = -1;
    char where[1024];
    cli_run_init(&r);
    const cli_option opts[] = {CLI_RUN_OPTIONS(&r), {0}};
    cli c = {.cmd = "ref write",
             .operands = "MODEL and DIR",
             .nops = 2,
             .usage = usage_write,
             .opts = opts};
    rc = cli_parse(&c, argc, argv);
    if (rc >= 0) {
        cli_clear(&c);
        return rc;
    }
    hdo_error_clear(&err);
    hdo_model_init(model);
    hdo_result_init(res);
    hdo_golden_files_init(g);
    hdo_golden_record_init(&rec);
    cli_run_finish(&r, &c);
    rc = read_model(model, &c, c.params.v, c.params.n);
    if (rc == 0 && hdo_golden_record_set(
                       &rec, model->name, c.digits, r.verify, r.every.text,
                       r.until.text, r.opt.method, r.opt.max_steps,
                       r.opt.max_events, c.params.v, c.params.n) != 0) {
        fprintf(stderr, "hdo ref write: out of memory\n");
        rc = 2;
    }
    /* the folder is checked (and an earlier result removed) before any
       computing, as hdo run does */
    if (rc == 0 && hdo_golden_prepare(c.op[1], &err) != 0) {
        fprintf(stderr, "hdo ref write: %s\n", err.message);
        rc = 2;
    }
    res->command_argv = (const char *const *)all; /* for summary.json */
    res->command_argc = argc + 1;
    if (rc == 0)
        rc = run_into(g, res, &verified, where, sizeof where, model, &r.opt,
                      r.verify, r.progress, &rec, &c);
    if (rc == 0 && hdo_golden_files_write(c.op[1], g, &err) != 0) {
        fprintf(stderr, "hdo ref write: %s\n", err.message);
        rc = 2;
    }
    if (rc == 0)
        rc = report_run(res, model, r.opt.digits, verified, where, c.op[1],
                        "ref write");
    hdo_golden_record_clear(&rec);
    hdo_golden_files_clear(g);
    hdo_result_clear(res);
    hdo_model_clear(model);
    cli_clear(&c);
    return rc;
}

/* ------------------------------------------------------------------ */

/* What hdo ref compare was asked, and what it found. */
typedef struct {
    cli c;
    long need;
    const char *junit, *with, *out;
    int progress;
    hdo_golden_record rec;
    hdo_golden_files_t stored, fresh;
    hdo_golden_cmp_t cmp;
    double t0;
    char error[1400]; /* the first error, for the JUnit <error> */
} compare_job;

static void fail(compare_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints an error line and keeps the first for the JUnit report. */
static void
fail(compare_job *j, const char *fmt, ...)
{
    char buf[sizeof j->error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", buf);
    if (j->error[0] == '\0')
        snprintf(j->error, sizeof j->error, "%s", buf);
}

static void
fail_err(compare_job *j, const hdo_error_t *err)
{
    char buf[1200];
    hdo_error_format(buf, sizeof buf, err);
    if (err->file == NULL)
        fail(j, "hdo ref compare: %s", buf);
    else
        fail(j, "%s", buf);
}

/* The options of DIR and the stored files: exit code 0 or 2. */
static int
read_stored(compare_job *j)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    if (hdo_golden_files_read(j->stored, j->c.op[1], 1, &err) != 0 ||
        hdo_golden_record_read(&j->rec, j->stored->text[HDO_GOLDEN_RECORD],
                               j->stored->len[HDO_GOLDEN_RECORD],
                               j->stored->path[HDO_GOLDEN_RECORD], &err) != 0) {
        fail_err(j, &err);
        return 2;
    }
    if (j->need == 0)
        j->need = j->rec.digits > 5 ? j->rec.digits - 5 : 1;
    /* the agreement is capped at the stored digits: more could never
       pass, not even a bit-identical rerun */
    if (j->need > j->rec.digits) {
        fail(j,
             "hdo ref compare: --digits-agree %ld: %s holds %ld digits "
             "(ref.json), at most %ld can agree",
             j->need, j->c.op[1], j->rec.digits, j->rec.digits);
        return 2;
    }
    return 0;
}

/* The fresh result: MODEL run again with the recorded options (also
   written into --out), or the folder --with.  Exit code 0 or 2. */
static int
fresh_result(compare_job *j, char **argv, int argc)
{
    hdo_run_options opt;
    hdo_golden_record now;
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    fmpq_t every, until;
    long verified = -1;
    char where[1024];
    int rc = 0;
    hdo_error_clear(&err);
    if (j->with != NULL) {
        if (hdo_golden_files_read(j->fresh, j->with, 0, &err) == 0)
            return 0;
        fail_err(j, &err);
        return 2;
    }
    hdo_run_options_init(&opt);
    hdo_golden_record_init(&now);
    fmpq_init(every);
    fmpq_init(until);
    hdo_model_init(model);
    hdo_result_init(res);
    res->command_argv = (const char *const *)argv;
    res->command_argc = argc;
    if (hdo_golden_record_options(&opt, every, until, &j->rec, &err) != 0) {
        fail_err(j, &err);
        rc = 2;
    }
    if (rc == 0)
        rc = read_model(model, &j->c, (const char *const *)j->rec.params,
                        j->rec.nparams);
    if (rc == 0 && j->out != NULL && hdo_golden_prepare(j->out, &err) != 0) {
        fail(j, "hdo ref compare: %s", err.message);
        rc = 2;
    }
    /* the -o folder is a golden reference of this hdo: its ref.json
       names this version */
    if (rc == 0 && j->out != NULL &&
        hdo_golden_record_set(
            &now, j->rec.model, j->rec.digits, j->rec.verify, j->rec.every,
            j->rec.until, j->rec.method, j->rec.max_steps, j->rec.max_events,
            (const char *const *)j->rec.params, j->rec.nparams) != 0) {
        fail(j, "hdo ref compare: out of memory");
        rc = 2;
    }
    if (rc == 0)
        rc = run_into(j->fresh, res, &verified, where, sizeof where, model,
                      &opt, j->rec.verify, j->progress,
                      j->out != NULL ? &now : NULL, &j->c);
    if (rc == 0 && j->out != NULL &&
        hdo_golden_files_write(j->out, j->fresh, &err) != 0) {
        fail(j, "hdo ref compare: %s", err.message);
        rc = 2;
    }
    if (rc == 0 && verified >= 0 && verified < opt.digits)
        fprintf(stderr,
                "hdo ref compare: note: --verify confirmed only %ld of the "
                "%ld digits of the fresh run (%s)\n",
                verified, opt.digits, where);
    if (rc == 2 && j->error[0] == '\0')
        snprintf(j->error, sizeof j->error, "the run of %s failed", j->c.op[0]);
    hdo_golden_record_clear(&now);
    hdo_result_clear(res);
    hdo_model_clear(model);
    fmpq_clear(every);
    fmpq_clear(until);
    return rc;
}

/* The differences, the first first, and the verdict line: 0 or 1. */
static int
print_verdict(const compare_job *j)
{
    const hdo_golden_cmp_struct *r = j->cmp;
    const char *name = j->rec.model;
    for (slong k = 0; k < r->nshown; k++)
        printf("FAIL %s: %s: %s\n", name,
               hdo_golden_file_name(r->shown[k].file), r->shown[k].message);
    for (int f = 0; f < HDO_GOLDEN_NFILES; f++)
        if (r->more[f] > 0)
            printf("FAIL %s: %s: ... and %ld more differences\n", name,
                   hdo_golden_file_name(f), (long)r->more[f]);
    /* a reference of another hdo may differ by the engine's change,
       not the model's: say so */
    char version[160] = "";
    if (j->rec.hdo_version != NULL && j->with == NULL &&
        strcmp(j->rec.hdo_version, hdo_version()) != 0)
        snprintf(version, sizeof version,
                 "; written by hdo %.60s, compared by hdo %.60s",
                 j->rec.hdo_version, hdo_version());
    if (r->ndiffs > 0) {
        printf("FAIL %s: %ld difference(s) beyond %ld digits or in structure",
               name, (long)r->ndiffs, r->need);
        if (isnan(r->worst))
            printf(" (smallest agreement - digits)%s\n", version);
        else
            printf(" (smallest agreement %.1f digits)%s\n", r->worst, version);
        return 1;
    }
    double shown = isnan(r->worst) ? (double)r->cap : r->worst;
    printf("PASS %s: agree to ", name);
    if (shown == floor(shown))
        printf("%ld", (long)shown);
    else
        printf("%.1f", shown);
    printf(" digits (%ld trajectory rows, %ld events%s)", (long)r->rows,
           (long)r->events, r->identical ? ", bit-identical" : "");
    if (r->notes != NULL)
        printf("; notes: %s", r->notes);
    printf("%s\n", version);
    return 0;
}

/* One JUnit test case per part: its first difference and the others
   shown. */
static int
write_junit(compare_job *j, int code)
{
    hdo_junit_case tc[HDO_GOLDEN_NPARTS];
    char *first[HDO_GOLDEN_NPARTS] = {0}, *text[HDO_GOLDEN_NPARTS] = {0};
    const hdo_golden_cmp_struct *r = j->cmp;
    hdo_error_t err;
    int n = code == 2 ? 0 : HDO_GOLDEN_NPARTS, st;
    for (int p = 0; p < n; p++) {
        size_t len = 0;
        FILE *f = open_memstream(text + p, &len);
        for (slong k = 0; f != NULL && k < r->nshown; k++)
            if (r->shown[k].part == p)
                fprintf(f, "%s: %s\n", hdo_golden_file_name(r->shown[k].file),
                        r->shown[k].message);
        if (f != NULL)
            fclose(f);
        slong k = 0;
        while (k < r->nshown && r->shown[k].part != p)
            k++;
        if (r->parts[p] > 0 &&
            asprintf(first + p, "%ld difference(s), the first: %s: %s",
                     (long)r->parts[p],
                     k < r->nshown ? hdo_golden_file_name(r->shown[k].file)
                                   : hdo_golden_part_name(p),
                     k < r->nshown ? r->shown[k].message
                                   : "(not shown: see the report)") < 0)
            first[p] = NULL;
        tc[p] = (hdo_junit_case){hdo_golden_part_name(p),
                                 r->parts[p] > 0 ? first[p] : NULL,
                                 text[p] != NULL ? text[p] : "", 0.0, NULL};
    }
    hdo_error_clear(&err);
    st = hdo_junit_write_for("hdo ref compare", j->junit,
                             j->rec.model != NULL ? j->rec.model : j->c.op[0],
                             tc, n, code == 2 ? j->error : NULL,
                             hdo_clock_now() - j->t0, &err);
    for (int p = 0; p < n; p++) {
        free(first[p]);
        free(text[p]);
    }
    if (st != 0)
        fprintf(stderr, "hdo ref compare: --junit: %s\n", err.message);
    return st != 0 ? 2 : code;
}

/* Refuses the run options, which are DIR/ref.json's. */
static int
refuse_run_options(compare_job *j)
{
    if (j->c.digits_given || j->c.params.n > 0) {
        fail(j,
             "hdo ref compare: %s: the run options are those recorded in "
             "%s/ref.json (hdo ref write records them)",
             j->c.digits_given ? "--digits" : "--param", j->c.op[1]);
        return 2;
    }
    if (j->with != NULL && j->out != NULL) {
        fail(j, "hdo ref compare: --with and --out exclude each other (with "
                "--with nothing runs)");
        return 2;
    }
    if (j->need > HDO_MAX_DIGITS) {
        fail(j, "hdo ref compare: --digits-agree %ld: at most %d digits",
             j->need, HDO_MAX_DIGITS);
        return 2;
    }
    return 0;
}

static int
ref_compare(int argc, char **argv, char **all)
{
    compare_job j;
    hdo_error_t err;
    int rc;
    memset(&j, 0, sizeof j);
    j.t0 = hdo_clock_now();
    const cli_option opts[] = {
        {"digits-agree", 0, CLI_COUNT, .dest = &j.need},
        {"junit", 0, CLI_FILE, .dest = &j.junit, .what = "file name"},
        {"with", 0, CLI_PATH, .dest = &j.with, .what = "folder name"},
        {"out", 'o', CLI_PATH, .dest = &j.out, .what = "folder name"},
        {"progress", 0, CLI_FLAG, .dest = &j.progress},
        {0}};
    j.c = (cli){.cmd = "ref compare",
                .operands = "MODEL and DIR",
                .nops = 2,
                .usage = usage_compare,
                .opts = opts};
    rc = cli_parse(&j.c, argc, argv);
    if (rc >= 0) {
        cli_clear(&j.c);
        return rc;
    }
    hdo_golden_record_init(&j.rec);
    hdo_golden_files_init(j.stored);
    hdo_golden_files_init(j.fresh);
    hdo_golden_cmp_init(j.cmp);
    rc = refuse_run_options(&j);
    if (rc == 0)
        rc = read_stored(&j);
    if (rc == 0)
        rc = fresh_result(&j, all, argc + 1);
    hdo_error_clear(&err);
    if (rc == 0 &&
        hdo_golden_compare(j.cmp, j.stored, j.fresh, j.need, &err) != 0) {
        fail_err(&j, &err);
        rc = 2;
    }
    if (rc == 0)
        rc = print_verdict(&j);
    if (j.junit != NULL)
        rc = write_junit(&j, rc);
    hdo_golden_cmp_clear(j.cmp);
    hdo_golden_files_clear(j.fresh);
    hdo_golden_files_clear(j.stored);
    hdo_golden_record_clear(&j.rec);
    cli_clear(&j.c);
    return rc;
}

int
hdo_cmd_ref(int argc, char **argv)
{
    if (argc < 2) {
        usage_ref(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage_ref(stdout);
        return 0;
    }
    /* summary.json records the command line from "ref" on */
    if (strcmp(argv[1], "write") == 0)
        return ref_write(argc - 1, argv + 1, argv);
    if (strcmp(argv[1], "compare") == 0)
        return ref_compare(argc - 1, argv + 1, argv);
    fprintf(stderr, "hdo ref: unknown command '%s' (write or compare)\n",
            argv[1]);
    usage_ref(stderr);
    return 2;
}
