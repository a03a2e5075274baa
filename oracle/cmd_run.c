/* cmd_run.c -- hdo run: compute the reference solution of a case and write
 * trajectory.csv, events.csv, summary.json */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "hybrid.h"
#include "certify.h"
#include "util.h"

/* The usage below spells the limit and the precision rule's numbers
   out, to stay one readable text; these say when it must change. */
_Static_assert(HDO_MAX_DIGITS == 10000, "the usage says --digits <= 10000");
_Static_assert(HDO_DIGITS_DEFAULT == 30, "the usage says default 30");
_Static_assert(HDO_VERIFY_EXTRA_DIGITS == 10, "the usage says D + 10");

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
        "               [--certify] [--fmi-ref DIR]\n"
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
        "  -p, --param NAME=VALUE\n"
        "                    override the parameter NAME with the exact\n"
        "                    value VALUE (9.81, -1e-3, 1/3); repeatable\n"
        "  --method M        auto (default: Taylor; an ODE or index-1 DAE\n"
        "                    arc that stays stiff goes on with Radau IIA),\n"
        "                    taylor (Taylor everywhere), or implicit (Radau\n"
        "                    IIA on every ODE and index-1 DAE mode, with or\n"
        "                    without `when` clauses, sign patterns and\n"
        "                    sliding modes included; modes with constraints\n"
        "                    on their states, or whose switching functions\n"
        "                    read a derivative the reduced form lacks, keep\n"
        "                    Taylor)\n"
        "  --progress        print the progress on stderr (t, steps, events,\n"
        "                    method) also when stderr is not a terminal\n"
        "  --certify         then prove every value and event time in ball\n"
        "                    arithmetic: DIR/certified.csv and\n"
        "                    certified_events.csv (docs/certify.md)\n"
        "  --fmi-ref DIR     also write DIR/<Model>_ref.csv and _ref.opt,\n"
        "                    the reference files of the FMI cross-check\n"
        "\n"
        "Exit status: 0 success, 1 --verify confirmed fewer than D digits\n"
        "(the files are written, stderr names the place of the fewest\n"
        "digits) or --certify certified only part of the run (stderr says\n"
        "where), 2 bad input, an output folder hdo may not write, or a run\n"
        "that cannot go on (an earlier result in DIR is then gone:\n"
        "docs/cli.md).\n");
}

/* Progress on stderr for a run of more than two seconds: on a terminal
   one line rewritten at most four times a second; elsewhere (--progress)
   a line every five seconds, for a log. */
typedef struct {
    double start; /* hdo_clock_now() */
    double last;
    int shown;
    int tty;
    double t_end;
} progress_state;

static void
progress(void *data, double t, long steps, long nevents, const char *method)
{
    progress_state *ps = data;
    double e = hdo_clock_now() - ps->start;
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

int
run_with_progress(hdo_result_t res, long *verified, char *where, size_t n,
                  const hdo_model_struct *model, hdo_run_options *opt,
                  int verify, int want_progress, hdo_error_t *err)
{
    progress_state ps;
    int st;
    memset(&ps, 0, sizeof ps);
    ps.start = hdo_clock_now();
    ps.tty = isatty(STDERR_FILENO);
    if (ps.tty || want_progress) {
        opt->progress = progress;
        opt->progress_data = &ps;
    }
    *verified = -1;
    where[0] = '\0';
    if (verify) {
        /* the runs at D and D + 10 digits in two threads */
        hdo_result_t res2;
        hdo_result_init(res2);
        st = hdo_run_verify(res, res2, verified, where, n, model, opt, err);
        hdo_result_clear(res2);
    } else {
        st = hdo_run(res, model, opt, err);
    }
    progress_end(&ps);
    opt->progress = NULL;
    opt->progress_data = NULL;
    return st;
}

int
hdo_cmd_run(int argc, char **argv)
{
    const char *out = NULL;
    char *out_alloc = NULL;
    int certify = 0, rc = 0;
    const char *fmi_ref = NULL;
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    cli_run r;
    cli_run_init(&r);
    hdo_run_options *const opt = &r.opt;
    const cli_option opts[] = {
        {"out", 'o', CLI_PATH, .dest = &out, .what = "folder name"},
        CLI_RUN_OPTIONS(&r),
        {"certify", 0, CLI_FLAG, .dest = &certify},
        {"fmi-ref", 0, CLI_FILE, .dest = &fmi_ref, .what = "folder name"},
        {0}};
    cli c = {.cmd = "run",
             .operands = "MODEL",
             .nops = 1,
             .usage = usage,
             .opts = opts};

    rc = cli_parse(&c, argc, argv);
    if (rc >= 0) {
        cli_clear(&c);
        return rc;
    }
    rc = 2; /* until the run succeeds */
    cli_run_finish(&r, &c);
    hdo_error_clear(&err);
    hdo_model_init(model);
    hdo_result_init(res);
    if (cli_params_apply(model, &c) != 0 ||
        hdo_model_parse_file(model, c.op[0], &err) != 0) {
        if (err.message[0] != '\0')
            cli_print_error(&c, &err);
        goto done;
    }
    if (model->warnings != NULL)
        fputs(model->warnings, stderr);
    /* everything that can be refused is refused before the output
       folder is touched and before any computing */
    slong nrows = 0;
    if (hdo_run_rows(&nrows, model, opt, &err) != 0 ||
        hdo_run_check_memory(nrows, model, opt->digits, r.verify, &err) != 0) {
        cli_print_error(&c, &err);
        goto done;
    }
    if (out == NULL && asprintf(&out_alloc, "out/%s", model->name) >= 0)
        out = out_alloc;
    if (out == NULL)
        goto done;
    /* the five files of a certified result: an earlier certified.csv
       must not stay beside a new run's trajectory */
    if (hdo_certify_outputs_prepare(out, &err) != 0) {
        fprintf(stderr, "hdo run: %s\n", err.message);
        goto done;
    }

    res->command_argv = (const char *const *)argv; /* for summary.json */
    res->command_argc = argc;
    long verified;
    char where[1024];
    int st = run_with_progress(res, &verified, where, sizeof where, model, opt,
                               r.verify, r.progress, &err);
    if (st != 0) {
        /* the earlier result was removed by hdo_outdir_prepare */
        cli_print_error(&c, &err);
        rc = 2;
    } else {
        hdo_certified_t cert;
        hdo_certified_init(cert);
        int cst = 0;
        if (certify) {
            hdo_certify_options copt;
            hdo_certify_options_init(&copt);
            copt.until = opt->until;
            cst = hdo_certify(cert, res, model, &copt, &err);
        }
        if (cst < 0) {
            cli_print_error(&c, &err);
            rc = 2;
        } else {
            rc = hdo_certify_outputs_write(out, res, model, verified,
                                           certify ? cert : NULL, &err)
                     ? 2
                     : 0;
            if (rc != 0)
                fprintf(stderr, "hdo run: %s\n", err.message);
        }
        if (rc == 0 && fmi_ref != NULL) {
            /* the output step: --every, else (t_end - t0) / 1000 */
            double step = r.every.set ? fmpq_get_d(r.every.q)
                                      : (mpfr_get_d(res->t_end, MPFR_RNDN) -
                                         mpfr_get_d(res->t0, MPFR_RNDN)) /
                                            1000;
            rc = hdo_write_fmi_ref(fmi_ref, res, model, step, stderr, &err) ? 2
                                                                            : 0;
            if (rc != 0)
                fprintf(stderr, "hdo run: --fmi-ref: %s\n", err.message);
        }
        if (rc == 0) {
            printf("%s: %ld steps, %ld events, %.2f s", model->name,
                   (long)res->steps, (long)res->nevents, res->seconds);
            if (verified >= 0)
                printf(", %ld verified digits", verified);
            printf(" -> %s\n", out);
            hdo_run_write_notes(stderr, res, model, opt->digits);
        }
        if (rc == 0 && certify && cert->complete) {
            printf("%s: certified: every value and event time, %ld digits at "
                   "least, %.2f s\n",
                   model->name, cert->min_digits, cert->cpu_seconds);
        } else if (rc == 0 && certify) {
            /* nothing uncertified passes for certified: exit 1 */
            mpfr_fprintf(stderr,
                         "hdo run: --certify: certified up to t = %.17Rg; "
                         "not beyond: %s\n",
                         cert->until, cert->reason);
            rc = 1;
        }
        hdo_certified_clear(cert);
        if (rc != 2 && verified >= 0 && verified < opt->digits) {
            /* a reference that could not be confirmed must not pass for
               one that was: the files say verified_digits, the exit code
               says that the check failed */
            fprintf(stderr,
                    "hdo run: --verify: the runs at %ld and %ld digits agree "
                    "to only %ld digits; fewest digits: %s\n",
                    opt->digits, hdo_run_verify_digits(opt->digits), verified,
                    where[0] ? where : "(not located)");
            rc = 1;
        }
    }
done:
    hdo_result_clear(res);
    hdo_model_clear(model);
    cli_clear(&c);
    free(out_alloc);
    return rc;
}
