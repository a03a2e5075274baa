/* cmd_run.c -- hdo run: compute the reference solution of a case and write
 * trajectory.csv, events.csv, summary.json */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "hybrid.h"

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
        "               [--method auto|taylor|implicit] [--progress]\n"
        "\n"
        "Computes the reference solution of MODEL (.hdae) and writes\n"
        "DIR/trajectory.csv, DIR/events.csv and DIR/summary.json.\n"
        "\n"
        "  -d, --digits D    significant digits of every value (default 30)\n"
        "  -o, --out DIR     output folder (default out/<model name>)\n"
        "  --every DT        sampling step (default (t_end - t0)/1000)\n"
        "  --until T         end time, overriding the model's `until`\n"
        "  --verify          solve again with D + 10 digits and report the\n"
        "                    agreeing digits (verified_digits)\n"
        "  --max-steps N     give up after N steps (default 1000000)\n"
        "  --max-events N    give up after N events (default 100000)\n"
        "  --method M        auto (default: Taylor, Radau IIA on stiff ODE\n"
        "                    arcs), taylor, or implicit (Radau IIA on ODE\n"
        "                    modes without `when` clauses)\n"
        "  --progress        print the progress on stderr (t, steps, events,\n"
        "                    method) also when stderr is not a terminal\n"
        "\n"
        "Exit status: 0 success, 2 bad input or a run that cannot go on.\n");
}

static void
print_error(const hdo_error_t *err)
{
    char buf[2048];
    hdo_error_format(buf, sizeof buf, err);
    fprintf(stderr, "%s\n", buf);
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

/* mkdir -p */
static int
make_dirs(const char *path)
{
    char *p = strdup(path);
    int rc = 0;
    if (p == NULL)
        return -1;
    for (char *q = p + 1; *q; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            rc = -1;
        *q = '/';
    }
    if (rc == 0 && mkdir(p, 0777) != 0 && errno != EEXIST)
        rc = -1;
    free(p);
    return rc;
}

static char *
path_join(const char *dir, const char *prefix, const char *name)
{
    size_t n = strlen(dir) + strlen(prefix) + strlen(name) + 32;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s%s", dir, prefix, name);
    return p;
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

/* Writes the three files into DIR under temporary names, then renames
   them; on any failure removes the temporaries.  Returns 0 or 2. */
static int
write_outputs(const char *dir, const hdo_result_t res, const hdo_model_t model,
              long digits, long verified)
{
    char *tmp[NOUT] = {NULL}, *fin[NOUT] = {NULL};
    char prefix[64];
    hdo_error_t err;
    int rc = 0;

    hdo_error_clear(&err);
    snprintf(prefix, sizeof prefix, ".tmp-%ld-", (long)getpid());
    for (int i = 0; i < NOUT && rc == 0; i++) {
        tmp[i] = path_join(dir, prefix, outputs[i]);
        fin[i] = path_join(dir, "", outputs[i]);
        if (tmp[i] == NULL || fin[i] == NULL) {
            rc = 2;
            break;
        }
        FILE *f = fopen(tmp[i], "w");
        if (f == NULL) {
            fprintf(stderr, "hdo run: cannot write %s: %s\n", tmp[i],
                    strerror(errno));
            rc = 2;
            break;
        }
        int st = i == 0   ? hdo_write_trajectory(f, res, model, digits, &err)
                 : i == 1 ? hdo_write_events(f, res, model, digits, &err)
                          : hdo_write_summary(f, res, model, verified, &err);
        if (fclose(f) != 0 && st == 0)
            st = hdo_error_set(&err, HDO_ERR_IO, 0, 0, "cannot write %s: %s",
                               tmp[i], strerror(errno));
        if (st != 0) {
            print_error(&err);
            rc = 2;
        }
    }
    for (int i = 0; i < NOUT && rc == 0; i++)
        if (rename(tmp[i], fin[i]) != 0) {
            fprintf(stderr, "hdo run: cannot rename %s to %s: %s\n", tmp[i],
                    fin[i], strerror(errno));
            rc = 2;
        }
    for (int i = 0; i < NOUT; i++) {
        if (rc != 0 && tmp[i] != NULL)
            unlink(tmp[i]);
        free(tmp[i]);
        free(fin[i]);
    }
    return rc;
}

/* After a failed run: no result of an earlier run may be taken for this
   run's, so the files of a previous run in DIR are removed too. */
static void
remove_outputs(const char *dir)
{
    for (int i = 0; i < NOUT; i++) {
        char *p = path_join(dir, "", outputs[i]);
        if (p != NULL)
            unlink(p);
        free(p);
    }
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

    hdo_run_options_init(&opt);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
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
            opt.digits = parse_count(val, 100000);
            if (opt.digits < 0)
                return fail_usage("--digits: expected a positive integer, "
                                  "got '%s'",
                                  val);
        } else if (strcmp(name, "-o") == 0 || strcmp(name, "--out") == 0) {
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
    if (hdo_model_parse_file(model, model_path, &err) != 0) {
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
    if (make_dirs(out) != 0) {
        fprintf(stderr, "hdo run: cannot create %s: %s\n", out,
                strerror(errno));
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
    int st = hdo_run(res, model, &opt, &err);
    long verified = -1;
    if (st == 0 && verify) {
        hdo_run_options opt2 = opt;
        hdo_result_t res2;
        hdo_error_t err2;
        opt2.digits = opt.digits + 10;
        hdo_error_clear(&err2);
        hdo_result_init(res2);
        st = hdo_run(res2, model, &opt2, &err2);
        if (st == 0)
            verified = hdo_result_agreement(res, res2);
        else
            err = err2;
        hdo_result_clear(res2);
    }
    progress_end(&ps);
    if (st != 0) {
        print_error(&err);
        remove_outputs(out);
        rc = 2;
    } else {
        rc = write_outputs(out, res, model, opt.digits, verified);
        if (rc == 0) {
            printf("%s: %ld steps, %ld events, %.2f s", model->name,
                   (long)res->steps, (long)res->nevents, res->seconds);
            if (verified >= 0)
                printf(", %ld verified digits", verified);
            printf(" -> %s\n", out);
        } else {
            remove_outputs(out);
        }
    }
    hdo_result_clear(res);
    hdo_model_clear(model);
    free(out_alloc);
    return rc;
}
