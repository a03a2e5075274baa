/* cmd_run.c -- hdo run: compute the reference solution of a case and write
 * trajectory.csv, events.csv, summary.json */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "hybrid.h"
#include "outdir.h"

/* hdo run --digits: a run at D digits costs about D^2.2 (measured on
   der(x) = -x over [0, 1]: 1000 digits 2.4 s, 2000 digits 10.7 s), so
   10000 digits take minutes and 100000 would take most of a day. */
#define MAX_DIGITS 10000
#define MAX_DIGITS_TEXT "10000"

static const char *const outputs[] = {"trajectory.csv", "events.csv",
                                      "summary.json"};
#define NOUT 3

static void
usage(FILE *f)
{
    fprintf(
        f,
        "usage: hdo run MODEL [-d|--digits D] [-o|--out DIR] [--every DT]\n"
        "               [--until T] [--verify] [--max-steps N] "
        "[--max-events N]\n"
        "               [-p|--param NAME=VALUE]...\n"
        "               [--method auto|taylor|implicit] [--progress]\n"
        "\n"
        "Computes the reference solution of MODEL (.hdae) and writes\n"
        "DIR/trajectory.csv, DIR/events.csv and DIR/summary.json.\n"
        "\n"
        "  -d, --digits D    significant digits of every value (default 30,\n"
        "                    at most 10000)\n"
        "  -o, --out DIR     output folder (default out/<model name>)\n"
        "  --every DT        sampling step (default (t_end - t0)/1000)\n"
        "  --until T         end time, overriding the model's `until`\n"
        "  --verify          solve again with D + 10 digits and report the\n"
        "                    agreeing digits (verified_digits)\n"
        "  --max-steps N     give up after more than N steps\n"
        "                    (default 1000000)\n"
        "  --max-events N    allow N events, give up at the next one\n"
        "                    (default 100000)\n"
        "  -p NAME=VALUE     override the parameter NAME with the exact\n"
        "                    value VALUE (9.81, -1e-3, 1/3); repeatable\n"
        "  --method M        auto (default: Taylor, Radau IIA on stiff ODE\n"
        "                    arcs), taylor, or implicit (Radau IIA on ODE\n"
        "                    modes without `when` clauses)\n"
        "  --progress        print the progress on stderr (t, steps, events,\n"
        "                    method) also when stderr is not a terminal\n"
        "\n"
        "Exit status: 0 success, 1 --verify confirmed fewer than D digits\n"
        "(the files are written, stderr names the first disagreement), 2 bad\n"
        "input, an output folder hdo may not write, or a run that cannot go\n"
        "on (an earlier result in DIR is then gone: docs/cli.md).\n");
}

static void
print_error(const hdo_error_t *err)
{
    char buf[2048];
    hdo_error_format(buf, sizeof buf, err);
    /* an error without a file is about the command line */
    fprintf(stderr, "%s%s\n", err->file == NULL ? "hdo run: " : "", buf);
}

static int
fail_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "hdo run: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    usage(stderr);
    return 2;
}

/* A positive integer option value, or -1. */
static long
parse_count(const char *s, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v <= 0 || v > max)
        return -1;
    return v;
}

/* Progress on stderr for a run of more than two seconds: on a terminal
   one line rewritten at most four times a second; elsewhere (--progress)
   a line every five seconds, for a log. */
typedef struct {
    struct timespec start;
    double last;
    int shown;
    int tty;
    double t_end;
} progress_state;

static double
since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) +
           1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

static void
progress(void *data, double t, long steps, long nevents, const char *method)
{
    progress_state *ps = data;
    double e = since(&ps->start);
    if (e < 2.0 || e - ps->last < (ps->tty ? 0.25 : 5.0))
        return;
    ps->last = e;
    ps->shown = 1;
    fprintf(stderr,
            "%shdo run: t = %-14.8g steps %-9ld events %-8ld method %s "
            "%6.1f s%s",
            ps->tty ? "\r" : "", t, steps, nevents, method, e,
            ps->tty ? "" : "\n");
    fflush(stderr);
}

static void
progress_end(progress_state *ps)
{
    if (ps->shown && ps->tty)
        fprintf(stderr, "\r\033[K");
}

/* Bytes one stored row of the trajectory takes at D digits with n
   variables (hdo_result_add_row): the row record, twice for the array
   that grows by doubling; the time and n values, each an mpfr struct
   and a heap block of limbs (one more limb for MPFR's header, malloc's
   8-byte header, 16-byte granules); the presence flags.  Measured: 410
   bytes a row for 3 variables at 30 digits (300450 rows, 124 MB), this
   gives 480. */
static double
row_bytes(long digits, slong nvars)
{
    double limbs = ceil((double)hdo_run_prec(digits) / 64.0) + 1;
    double block = 16.0 * ceil((limbs * 8 + 8) / 16.0);
    return 2.0 * sizeof(hdo_row) + (double)(nvars + 2) * sizeof(__mpfr_struct) +
           16.0 + (double)(nvars + 1) * block +
           16.0 * ceil((4.0 * (double)nvars + 8) / 16.0);
}

/* The memory this machine gives a process: the physical memory, or a
   smaller ulimit (-v, -d). */
static double
memory_limit(void)
{
    double m = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (m <= 0)
        m = 1e18;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (double)rl.rlim_cur < m)
        m = (double)rl.rlim_cur;
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (double)rl.rlim_cur < m)
        m = (double)rl.rlim_cur;
    return m;
}

static void
put_bytes(char *buf, size_t n, double b)
{
    const char *unit[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int k = 0;
    while (b >= 1000 && k < 6) {
        b /= 1000;
        k++;
    }
    snprintf(buf, n, k == 0 ? "%.0f %s" : "%.1f %s", b, unit[k]);
}

/* Refuses, before computing, a sampling grid whose rows would not fit
   in half of the memory this process may use (the rest is for the
   computation); with --verify the second run's rows at D + 10 digits
   are held at the same time.  Events add rows the grid cannot foresee:
   they are not counted.  Returns 0 or 2 (message printed). */
static int
check_rows(slong nrows, const hdo_model_t model, long digits, int verify)
{
    double per = row_bytes(digits, model->nvars) +
                 (verify ? row_bytes(digits + 10, model->nvars) : 0);
    double need = (double)nrows * per, have = memory_limit();
    if (need <= have / 2)
        return 0;
    char a[32], b[32];
    put_bytes(a, sizeof a, need);
    put_bytes(b, sizeof b, have);
    fprintf(stderr,
            "hdo run: error: %ld output rows of %ld variable%s at %ld digits%s "
            "would need about %s of memory (%.0f bytes a row), more than "
            "half of the %s this process may use: choose a larger --every, "
            "a shorter --until or fewer digits\n",
            (long)nrows, (long)model->nvars, model->nvars == 1 ? "" : "s",
            digits,
            verify ? " (with --verify: twice, the second at D + 10)" : "", a,
            per, b);
    return 2;
}

/* The three files, written by hdo_outdir_commit. */
typedef struct {
    const hdo_result_struct *res;
    const hdo_model_struct *model;
    long digits, verified;
} outputs_data;

static int
write_one(FILE *f, int i, void *data, hdo_error_t *err)
{
    const outputs_data *d = data;
    hdo_result_struct *res = (hdo_result_struct *)d->res;
    hdo_model_struct *model = (hdo_model_struct *)d->model;
    return i == 0   ? hdo_write_trajectory(f, res, model, d->digits, err)
           : i == 1 ? hdo_write_events(f, res, model, d->digits, err)
                    : hdo_write_summary(f, res, model, d->verified, err);
}

int
hdo_cmd_run(int argc, char **argv)
{
    hdo_run_options opt;
    const char *model_path = NULL, *out = NULL;
    char *out_alloc = NULL;
    int verify = 0, want_progress = 0, rc = 0;
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    progress_state ps;
    hdo_cli_params params;

    hdo_run_options_init(&opt);
    params.n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int prc = hdo_cli_param_option(&params, "run", argc, argv, &i);
        if (prc >= 0) {
            if (prc != 0)
                return prc;
            continue;
        }
        /* options that take a value: "-d D", "--digits D", "--digits=D" */
        static const char *const valued[] = {
            "-d",      "--digits",    "-o",           "--out",   "--every",
            "--until", "--max-steps", "--max-events", "--method"};
        char name[32] = "";
        if (a[0] == '-' && a[1] == '-' && strchr(a, '=') != NULL) {
            size_t n = (size_t)(strchr(a, '=') - a);
            if (n < sizeof name) {
                memcpy(name, a, n);
                name[n] = '\0';
                val = a + n + 1;
            }
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        int takes = 0;
        for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
            if (strcmp(name, valued[k]) == 0)
                takes = 1;
        if (takes && val == NULL) {
            if (i + 1 >= argc)
                return fail_usage("option %s needs a value", a);
            val = argv[++i];
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(name, "-d") == 0 || strcmp(name, "--digits") == 0) {
            opt.digits = parse_count(val, LONG_MAX);
            if (opt.digits < 0)
                return fail_usage("--digits: expected a positive integer, "
                                  "got '%s'",
                                  val);
            if (opt.digits > MAX_DIGITS)
                return fail_usage("--digits %s: at most " MAX_DIGITS_TEXT
                                  " digits (the work grows like D^2.2: "
                                  "2000 digits take about 10 s on one "
                                  "variable, 10000 about 6 minutes)",
                                  val);
        } else if (strcmp(name, "-o") == 0 || strcmp(name, "--out") == 0) {
            if (val[0] == '\0')
                return fail_usage("%s: the folder name is empty", name);
            out = val;
        } else if (strcmp(name, "--every") == 0) {
            opt.every = val;
        } else if (strcmp(name, "--until") == 0) {
            opt.until = val;
        } else if (strcmp(name, "--max-steps") == 0) {
            opt.max_steps = parse_count(val, LONG_MAX);
            if (opt.max_steps < 0)
                return fail_usage("--max-steps: expected a positive integer, "
                                  "got '%s'",
                                  val);
        } else if (strcmp(name, "--max-events") == 0) {
            opt.max_events = parse_count(val, LONG_MAX);
            if (opt.max_events < 0)
                return fail_usage("--max-events: expected a positive "
                                  "integer, got '%s'",
                                  val);
        } else if (strcmp(a, "--verify") == 0) {
            verify = 1;
        } else if (strcmp(name, "--method") == 0) {
            if (strcmp(val, "auto") == 0)
                opt.method = HDO_METHOD_AUTO;
            else if (strcmp(val, "taylor") == 0)
                opt.method = HDO_METHOD_TAYLOR;
            else if (strcmp(val, "implicit") == 0)
                opt.method = HDO_METHOD_IMPLICIT;
            else
                return fail_usage("--method: expected auto, taylor or "
                                  "implicit, got '%s'",
                                  val);
        } else if (strcmp(a, "--progress") == 0) {
            want_progress = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return fail_usage("unknown option '%s'", a);
        } else if (model_path == NULL) {
            model_path = a;
        } else {
            return fail_usage("unexpected argument '%s'", a);
        }
    }
    if (model_path == NULL)
        return fail_usage("%s", "missing MODEL");

    hdo_error_clear(&err);
    hdo_model_init(model);
    if (hdo_cli_params_apply(model, &params, "run") != 0) {
        hdo_model_clear(model);
        return 2;
    }
    if (hdo_model_parse_file(model, model_path, &err) != 0) {
        print_error(&err);
        hdo_model_clear(model);
        return 2;
    }
    if (model->warnings != NULL)
        fputs(model->warnings, stderr);
    /* everything that can be refused is refused before the output
       folder is touched and before any computing */
    slong nrows = 0;
    if (hdo_run_rows(&nrows, model, &opt, &err) != 0 ||
        check_rows(nrows, model, opt.digits, verify) != 0) {
        if (err.status != 0)
            print_error(&err);
        hdo_model_clear(model);
        return 2;
    }
    if (out == NULL) {
        size_t n = strlen(model->name) + 8;
        out_alloc = malloc(n);
        if (out_alloc == NULL) {
            hdo_model_clear(model);
            return 2;
        }
        snprintf(out_alloc, n, "out/%s", model->name);
        out = out_alloc;
    }
    hdo_outdir od = {out, outputs, NOUT, "hdo run"};
    if (hdo_outdir_prepare(&od) != 0) {
        hdo_model_clear(model);
        free(out_alloc);
        return 2;
    }

    memset(&ps, 0, sizeof ps);
    clock_gettime(CLOCK_MONOTONIC, &ps.start);
    ps.tty = isatty(STDERR_FILENO);
    if (ps.tty || want_progress) {
        opt.progress = progress;
        opt.progress_data = &ps;
    }
    hdo_result_init(res);
    res->command_argv = (const char *const *)argv; /* for summary.json */
    res->command_argc = argc;
    int st = hdo_run(res, model, &opt, &err);
    long verified = -1;
    char where[1024] = "";
    if (st == 0 && verify) {
        hdo_run_options opt2 = opt;
        hdo_result_t res2;
        hdo_error_t err2;
        opt2.digits = opt.digits + 10;
        hdo_error_clear(&err2);
        hdo_result_init(res2);
        st = hdo_run(res2, model, &opt2, &err2);
        if (st == 0) {
            verified = hdo_result_agreement_where(where, sizeof where, model,
                                                  res, res2);
        } else {
            /* say which run failed: the first one succeeded */
            char msg[sizeof err2.message];
            snprintf(msg, sizeof msg,
                     "the verification run at %ld digits (--verify) failed: "
                     "%.900s",
                     opt2.digits, err2.message);
            err = err2;
            snprintf(err.message, sizeof err.message, "%s", msg);
        }
        hdo_result_clear(res2);
    }
    progress_end(&ps);
    if (st != 0) {
        /* the earlier result was removed by hdo_outdir_prepare */
        print_error(&err);
        rc = 2;
    } else {
        outputs_data d = {res, model, opt.digits, verified};
        rc = hdo_outdir_commit(&od, write_one, &d);
        if (rc == 0) {
            printf("%s: %ld steps, %ld events, %.2f s", model->name,
                   (long)res->steps, (long)res->nevents, res->seconds);
            if (verified >= 0)
                printf(", %ld verified digits", verified);
            printf(" -> %s\n", out);
            for (slong k = 0; k < res->nmodes; k++)
                if (res->modes[k].used && res->modes[k].km_fallback)
                    fprintf(stderr,
                            "%s: note: mode %s: Pryce's structural analysis "
                            "gives a numerically singular system; it was "
                            "integrated in the Kunkel-Mehrmann form "
                            "(summary.json \"analysis\": \"km-fallback\")\n",
                            model->file, model->modes[k].name);
            if (res->event_digits >= 0)
                fprintf(stderr,
                        "%s: warning: the time of event %ld is determined to "
                        "only %ld of the %ld digits (a multiple root of its "
                        "switching function: a state known to 10^-%ld fixes "
                        "it no better); summary.json \"event_digits\"\n",
                        model->file, (long)res->event_digits_index,
                        res->event_digits, opt.digits, opt.digits + 5);
        }
        if (rc == 0 && verified >= 0 && verified < opt.digits) {
            /* a reference that could not be confirmed must not pass for
               one that was: the files say verified_digits, the exit code
               says that the check failed */
            fprintf(stderr,
                    "hdo run: --verify: the runs at %ld and %ld digits agree "
                    "to only %ld digits; first disagreement: %s\n",
                    opt.digits, opt.digits + 10, verified,
                    where[0] ? where : "(not located)");
            rc = 1;
        }
    }
    hdo_result_clear(res);
    hdo_model_clear(model);
    free(out_alloc);
    return rc;
}
