/* cmd_check.c -- hdo check: compares another solver's CSV result with the
 * reference, value tube and events */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <flint/flint.h>
#include <gmp.h>
#include "check.h"
#include "commands.h"
#include "compare.h"
#include "hybrid.h"
#include "model.h"

/* Digits of the reference run: those of `hdo run` by default, so that
   the reference is the one hdo run computes (the report says how many). */
#define CHECK_DIGITS 30

static void
usage(FILE *out)
{
    fprintf(out,
            "usage: hdo check MODEL CANDIDATE.csv [-t|--tol FILE] "
            "[--events FILE]\n"
            "                 [--junit FILE] [--plot FILE.png] [-d D]\n"
            "                 [--time-abs X] [--value-abs X] [--value-rel X]\n"
            "                 [--map CAND=VAR]... [-p NAME=VALUE]...\n"
            "\n"
            "Compares another solver's result (CSV: time first, an optional\n"
            "mode column, one column per variable, repeated time rows at\n"
            "events) with the reference hdo run computes from the model's\n"
            "start to its end time (MAT v4 dsres files are read too).  A\n"
            "value passes when it lies within value_abs + value_rel*|ref| of\n"
            "the range the reference takes over [t - time_abs, t + "
            "time_abs];\n"
            "events must match in number, order, mode change (modes = "
            "exact)\n"
            "and time (within time_abs).  The last line of the report is a\n"
            "machine-readable summary: 'summary: verdict=PASS|FAIL "
            "value_err=...'\n"
            "(fields in docs/decisions.md).\n"
            "\n"
            "  -t, --tol FILE   tolerance file (default "
            "tolerances/<model>.tol)\n"
            "  --events FILE    the candidate's events (time,from,to or "
            "events.csv);\n"
            "                   default: inferred from repeated time rows and "
            "the\n"
            "                   mode column\n"
            "  --junit FILE     JUnit XML report: one test case per variable "
            "and one\n"
            "                   for the events\n"
            "  --plot FILE.png  reference, band and candidate per variable "
            "(gnuplot;\n"
            "                   FILE-<var>.png when there are several)\n"
            "  --time-abs X, --value-abs X, --value-rel X\n"
            "                   tolerances, overriding the file's (without "
            "a file:\n"
            "                   time_abs 1e-6, value_abs 1e-8, value_rel "
            "1e-6)\n"
            "  -d, --digits D   digits of the reference run (default 30, as "
            "hdo run)\n"
            "  --map CAND=VAR   the candidate column CAND is the model "
            "variable VAR\n"
            "                   (repeatable; also `map = ` in the tolerance "
            "file)\n"
            "  -p, --param NAME=VALUE\n"
            "                   override the parameter NAME with the exact "
            "value\n"
            "                   VALUE (9.81, -1e-3, 1/3); repeatable\n"
            "\n"
            "Exit 0 pass, 1 fail, 2 bad input or a reference run that cannot "
            "go on.\n");
}

double
chk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Prints an error and keeps the first one for the JUnit report. */
void
chk_error(check_state *s, const char *fmt, ...)
{
    char buf[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", buf);
    if (s->errmsg[0] == '\0')
        snprintf(s->errmsg, sizeof s->errmsg, "%s", buf);
}

void
chk_print_error(check_state *s, const hdo_error_t *err)
{
    char buf[1400];
    hdo_error_format(buf, sizeof buf, err);
    chk_error(s, "%s", buf);
}

const char *
chk_mode_name(const check_state *s, slong m)
{
    /* sliding modes (hybrid.h) have composed names: two rotating
       buffers, as a message names at most two modes */
    static char buf[2][512];
    static int k;
    if (m >= 0 && m < s->model->nmodes)
        return s->model->modes[m].name;
    k = !k;
    hdo_mode_name(buf[k], sizeof buf[k], s->model, m);
    return buf[k];
}

/* ------------------------------------------------------------------ */
/* Inputs */

/* A tolerance given on the command line: a finite number >= 0. */
static int
parse_tol_option(double *x, const char *name, const char *arg)
{
    char *end;
    errno = 0;
    *x = strtod(arg, &end);
    if (*arg == '\0' || *end != '\0' || errno == ERANGE || !isfinite(*x) ||
        *x < 0) {
        fprintf(stderr,
                "hdo check: --%s expects a finite number >= 0, not '%s'\n",
                name, arg);
        return 2;
    }
    return 0;
}

/* Returns -1 when the arguments are good and the check goes on, else the
   exit status (0 after --help, 2 with a message printed): not an hdo
   status. */
static int
parse_args(check_state *s, int argc, char **argv)
{
    enum { O_EVENTS = 256, O_JUNIT, O_PLOT, O_TA, O_VA, O_VR, O_MAP };
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"tol", required_argument, NULL, 't'},
        {"digits", required_argument, NULL, 'd'},
        {"events", required_argument, NULL, O_EVENTS},
        {"junit", required_argument, NULL, O_JUNIT},
        {"plot", required_argument, NULL, O_PLOT},
        {"time-abs", required_argument, NULL, O_TA},
        {"value-abs", required_argument, NULL, O_VA},
        {"value-rel", required_argument, NULL, O_VR},
        {"map", required_argument, NULL, O_MAP},
        {"param", required_argument, NULL, 'p'},
        {NULL, 0, NULL, 0}};
    int c;
    s->digits = CHECK_DIGITS;
    s->cli_time_abs = s->cli_value_abs = s->cli_value_rel = NAN;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ht:d:p:", opts, NULL)) != -1) {
        const char **slot = NULL;
        const char *name = NULL;
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case 'p': /* -p NAME=VALUE, applied when the model is read */
            if (s->params.n == HDO_CLI_MAX_PARAMS) {
                fprintf(stderr, "hdo check: more than %d -p options\n",
                        HDO_CLI_MAX_PARAMS);
                return 2;
            }
            s->params.v[s->params.n++] = optarg;
            continue;
        case 't':
            slot = &s->tol_path, name = "--tol";
            break;
        case O_EVENTS:
            slot = &s->events_path, name = "--events";
            break;
        case O_JUNIT:
            slot = &s->junit_path, name = "--junit";
            break;
        case O_PLOT:
            slot = &s->plot_path, name = "--plot";
            break;
        case 'd': {
            char *end;
            long d;
            errno = 0;
            d = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || errno || d < 1 ||
                d > 10000) {
                fprintf(stderr,
                        "hdo check: --digits expects an integer in 1..10000, "
                        "not '%s'\n",
                        optarg);
                return 2;
            }
            s->digits = d;
            continue;
        }
        case O_TA:
            if (parse_tol_option(&s->cli_time_abs, "time-abs", optarg))
                return 2;
            continue;
        case O_VA:
            if (parse_tol_option(&s->cli_value_abs, "value-abs", optarg))
                return 2;
            continue;
        case O_VR:
            if (parse_tol_option(&s->cli_value_rel, "value-rel", optarg))
                return 2;
            continue;
        case O_MAP: {
            const char *eq = strchr(optarg, '=');
            char **m;
            if (eq == NULL || eq == optarg || eq[1] == '\0') {
                fprintf(stderr,
                        "hdo check: --map expects CANDIDATE_NAME=MODEL_VAR, "
                        "not '%s'\n",
                        optarg);
                return 2;
            }
            m = realloc(s->maps, (size_t)(s->nmaps + 1) * sizeof *m);
            if (m == NULL)
                return 2;
            s->maps = m;
            s->maps[s->nmaps++] = optarg;
            continue;
        }
        case ':':
            fprintf(stderr, "hdo check: %s needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "hdo check: unknown option '%s'\n",
                    argv[optind - 1]);
            usage(stderr);
            return 2;
        }
        if (*slot != NULL) {
            fprintf(stderr, "hdo check: %s given twice\n", name);
            return 2;
        }
        if (*optarg == '\0') {
            fprintf(stderr, "hdo check: %s needs a file name\n", name);
            return 2;
        }
        *slot = optarg;
    }
    if (argc - optind != 2) {
        fprintf(stderr,
                argc - optind > 2
                    ? "hdo check: unexpected argument '%s'\n"
                    : "hdo check: expected MODEL and CANDIDATE.csv%s\n",
                argc - optind > 2 ? argv[optind + 2] : "");
        usage(stderr);
        return 2;
    }
    s->model_path = argv[optind];
    s->cand_path = argv[optind + 1];
    return -1;
}

static int
file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* tolerances/<model>.tol in the working directory, else beside the
   model's folder (cases/x.hdae -> tolerances/x.tol), as the repository
   lays them out. */
static int
find_tolerances(check_state *s)
{
    const char *name = s->model->name;
    const char *slash = strrchr(s->model_path, '/');
    size_t n = strlen(name) + 32 +
               (slash != NULL ? (size_t)(slash - s->model_path) : 0);
    char *other = malloc(n);
    s->tol_default = malloc(n);
    if (other == NULL || s->tol_default == NULL) {
        free(other);
        chk_error(s, "hdo check: out of memory");
        return 2;
    }
    snprintf(s->tol_default, n, "tolerances/%s.tol", name);
    if (slash != NULL)
        snprintf(other, n, "%.*s/../tolerances/%s.tol",
                 (int)(slash - s->model_path), s->model_path, name);
    else
        snprintf(other, n, "../tolerances/%s.tol", name);
    if (!file_exists(s->tol_default) && file_exists(other)) {
        free(s->tol_default);
        s->tol_default = other;
    } else {
        free(other);
    }
    s->tol_path = s->tol_default;
    return 0;
}

static int
read_inputs(check_state *s)
{
    hdo_error_t err;
    hdo_tol_struct *t = s->tol;
    hdo_error_clear(&err);
    if (hdo_cli_params_apply(s->model, &s->params, "check") != 0)
        return 2;
    if (hdo_model_parse_file(s->model, s->model_path, &err)) {
        chk_print_error(s, &err);
        return 2;
    }
    if (s->model->warnings != NULL)
        fputs(s->model->warnings, stderr);
    hdo_error_clear(&err);
    if (hdo_csv_read_file(s->cand, s->cand_path, &err)) {
        chk_print_error(s, &err);
        return 2;
    }
    if (s->tol_path == NULL) {
        if (find_tolerances(s))
            return 2;
        /* no tolerance file beside the model: the documented defaults */
        if (!file_exists(s->tol_path))
            s->tol_path = NULL;
    }
    if (s->tol_path != NULL) {
        hdo_error_clear(&err);
        if (hdo_tol_read_file(t, s->tol_path, &err)) {
            chk_print_error(s, &err);
            return 2;
        }
        s->tol_from_file = 1;
    }
    for (slong i = 0; i < s->nmaps; i++) {
        const char *a = s->maps[i], *eq = strchr(a, '=');
        hdo_error_clear(&err);
        if (hdo_tol_add_map(t, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), 0,
                            0, &err)) {
            chk_error(s, "hdo check: --map %s: %s", a, err.message);
            return 2;
        }
    }
    if (!isnan(s->cli_time_abs))
        t->time_abs = s->cli_time_abs, t->line_time_abs = -1;
    if (!isnan(s->cli_value_abs))
        t->value_abs = s->cli_value_abs, t->line_value_abs = -1;
    if (!isnan(s->cli_value_rel))
        t->value_rel = s->cli_value_rel, t->line_value_rel = -1;
    return 0;
}

/* The compared variables: the tolerance file's list (each must be a
   variable of the model and a column of the candidate), or every value
   column of the candidate that is a variable of the model; the other
   columns (der(h), parameters, outputs) are listed as not compared. */
static int
select_variables(check_state *s)
{
    hdo_tol_struct *t = s->tol;
    hdo_csv_struct *c = s->cand;
    slong n = t->has_variables ? t->nvariables : c->ncols;
    s->col = malloc((size_t)(n + 1) * sizeof(slong));
    s->var = malloc((size_t)(n + 1) * sizeof(slong));
    s->ignored = malloc((size_t)(c->ncols + 1) * sizeof(slong));
    if (s->col == NULL || s->var == NULL || s->ignored == NULL) {
        chk_error(s, "hdo check: out of memory");
        return 2;
    }
    s->nvar = 0;
    for (slong i = 0; i < n; i++) {
        const char *name = t->has_variables ? t->variables[i].name
                                            : hdo_tol_map_name(t, c->names[i]);
        slong v = hdo_model_find_var(s->model, name);
        slong col = t->has_variables ? -1 : i;
        /* the candidate column that stands for the variable */
        for (slong k = 0; col < 0 && k < c->ncols; k++)
            if (strcmp(hdo_tol_map_name(t, c->names[k]), name) == 0)
                col = k;
        if (t->has_variables && (v < 0 || col < 0)) {
            chk_error(s, "%s:%d:%d: error: '%s' is not %s", t->file,
                      t->variables[i].line, t->variables[i].col, name,
                      v < 0 ? "a variable of the model"
                            : "a column of the candidate");
            return 2;
        }
        if (v < 0)
            continue;
        for (slong k = 0; k < s->nvar; k++)
            if (s->var[k] == v) {
                chk_error(s,
                          "%s:%d:%d: error: the columns '%s' and '%s' both "
                          "stand for the variable '%s' (see --map)",
                          s->cand_path, c->header_line, c->name_col[col],
                          c->names[s->col[k]], c->names[col], name);
                return 2;
            }
        s->var[s->nvar] = v;
        s->col[s->nvar++] = col;
    }
    for (slong i = 0; i < c->ncols; i++) {
        int used = 0;
        for (slong j = 0; j < s->nvar; j++)
            used |= s->col[j] == i;
        if (!used)
            s->ignored[s->nignored++] = i;
    }
    if (s->nvar == 0) {
        chk_error(s,
                  "%s:%d:1: error: no variable to compare (the candidate "
                  "has %s)",
                  s->cand_path, c->header_line,
                  c->ncols > 0  ? "no column named after a variable of the "
                                  "model"
                  : c->has_mode ? "only time and mode"
                                : "only time");
        return 2;
    }
    return 0;
}

/* Maps the candidate's (or events file's) mode names to the model's. */
static int
map_modes(slong **map, const hdo_strtab *tab, check_state *s, const char *file)
{
    *map = malloc((size_t)(tab->n + 1) * sizeof(slong));
    if (*map == NULL) {
        chk_error(s, "hdo check: out of memory");
        return 2;
    }
    for (slong i = 0; i < tab->n; i++) {
        (*map)[i] = hdo_find_mode_name(s->model, tab->names[i]);
        if ((*map)[i] < 0) {
            chk_error(s, "%s:%d:%d: error: '%s' is not a mode of model %s",
                      file, tab->line[i], tab->col[i], tab->names[i],
                      s->model->name);
            return 2;
        }
    }
    return 0;
}

static int
candidate_events(check_state *s)
{
    hdo_error_t err;
    if (s->cand->has_mode &&
        map_modes(&s->mode_map, &s->cand->modes, s, s->cand_path))
        return 2;
    if (s->events_path == NULL) {
        s->events_source = s->cand->has_mode
                               ? "inferred from the mode column and repeated "
                                 "time rows"
                               : "inferred from repeated time rows";
        if (hdo_csv_infer_events(s->cand_ev, s->cand, s->mode_map)) {
            chk_error(s, "hdo check: out of memory");
            return 2;
        }
        return 0;
    }
    s->events_source = s->events_path;
    hdo_error_clear(&err);
    if (hdo_evfile_read_file(s->evfile, s->events_path, &err)) {
        chk_print_error(s, &err);
        return 2;
    }
    {
        slong *map;
        int st = map_modes(&map, &s->evfile->modes, s, s->events_path);
        for (slong i = 0; st == 0 && i < s->evfile->n; i++) {
            slong f = s->evfile->from[i], t = s->evfile->to[i];
            if (hdo_evlist_push(s->cand_ev, s->evfile->time[i],
                                s->evfile->time[i], f < 0 ? -1 : map[f],
                                t < 0 ? -1 : map[t], s->evfile->line[i])) {
                chk_error(s, "hdo check: out of memory");
                st = 2;
            }
        }
        free(map);
        return st;
    }
}

/* ------------------------------------------------------------------ */
/* The reference (ref/compare/reference.c) */

static int
reference(check_state *s)
{
    hdo_error_t err;
    int st;
    double t0 = chk_now();
    hdo_error_clear(&err);
    st = hdo_check_reference(s->ref, s->ref_ev, s->model, s->var, s->nvar,
                             s->cand->time, s->cand->nrows, s->tol->time_abs,
                             s->digits, &err);
    s->seconds_ref = chk_now() - t0;
    if (st == HDO_ERR_INPUT && err.file == NULL && err.line == 0) {
        /* the candidate starts before t0, or the model's span is undefined */
        if (strstr(err.message, "candidate") != NULL)
            chk_error(s, "%s:%d:1: error: %s", s->cand_path, s->cand->line[0],
                      err.message);
        else
            chk_error(s, "%s: error: %s", s->model_path, err.message);
        return 2;
    }
    if (st == HDO_ERR_MEMORY) {
        chk_error(s, "hdo check: %s (the candidate has %ld rows)", err.message,
                  (long)s->cand->nrows);
        return 2;
    }
    if (st) {
        chk_print_error(s, &err);
        chk_error(s, "hdo check: the reference run at %ld digits failed (%s)",
                  s->digits, hdo_status_name(st));
        return 2;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Comparison and report */

static int
compare(check_state *s)
{
    hdo_csv_struct *c = s->cand;
    hdo_tol_struct *t = s->tol;
    s->tube = calloc((size_t)s->nvar, sizeof(hdo_tube_struct));
    if (s->tube == NULL)
        return 2;
    for (slong j = 0; j < s->nvar; j++) {
        hdo_tube_init(s->tube + j);
        if (hdo_tube_compare(s->tube + j, s->ref->t, s->ref->v + j * s->ref->n,
                             s->ref->n, c->time, c->values + s->col[j],
                             c->present + s->col[j], c->ncols, c->nrows,
                             t->time_abs, t->value_abs, t->value_rel))
            return 2;
    }
    hdo_evlist_merge_cascades(s->ref_ev);
    hdo_evlist_merge_cascades(s->cand_ev);
    /* Without an events file, a mode column or repeated time rows (the
       output of a fixed-step solver or a co-simulation), the candidate
       does not give its events: it is judged on its values alone. */
    s->events_given =
        s->events_path != NULL || c->has_mode || s->cand_ev->n > 0;
    if (!s->events_given)
        return 0;
    if (hdo_events_match(s->match, s->ref_ev, s->cand_ev, t->time_abs,
                         t->modes_exact, c->time[0], c->time[c->nrows - 1]))
        return 2;
    hdo_matching_excuse_end(s->match, s->ref_ev, s->cand_ev, s->ref->t_end,
                            t->time_abs);
    return 0;
}

/* ------------------------------------------------------------------ */

static void
state_clear(check_state *s)
{
    if (s->tube != NULL)
        for (slong j = 0; j < s->nvar; j++)
            hdo_tube_clear(s->tube + j);
    free(s->tube);
    hdo_refsamp_clear(s->ref);
    free(s->ignored);
    free(s->maps);
    free(s->col);
    free(s->var);
    free(s->mode_map);
    free(s->tol_default);
    hdo_matching_clear(s->match);
    hdo_evlist_clear(s->ref_ev);
    hdo_evlist_clear(s->cand_ev);
    hdo_evfile_clear(s->evfile);
    hdo_tol_clear(s->tol);
    hdo_csv_clear(s->cand);
    hdo_model_clear(s->model);
}

int
hdo_cmd_check(int argc, char **argv)
{
    check_state s;
    int rc;
    memset(&s, 0, sizeof s);
    s.seconds_start = chk_now();
    rc = parse_args(&s, argc, argv);
    if (rc < 0 && s.plot_path != NULL && !chk_on_path("gnuplot")) {
        chk_error(&s, "hdo check: --plot needs the gnuplot command, which "
                      "is not on PATH (install gnuplot or gnuplot-nox)");
        rc = 2;
    }
    if (rc >= 0) {
        /* no stale report from an earlier run: an <error> replaces it */
        if (rc == 2 && s.junit_path != NULL)
            chk_write_junit(&s, rc);
        return rc;
    }
    /* Memory that runs out inside GMP, MPFR or FLINT (the reference run)
       is a message and exit 2 through the handlers of hdo_process_init
       (oracle/process.c); hdo check's own arrays are checked where they
       are allocated, and the reference's room is reserved before the
       run. */
    hdo_model_init(s.model);
    hdo_csv_init(s.cand);
    hdo_tol_init(s.tol);
    hdo_evfile_init(s.evfile);
    hdo_evlist_init(s.cand_ev);
    hdo_evlist_init(s.ref_ev);
    hdo_matching_init(s.match);
    hdo_refsamp_init(s.ref);
    rc = read_inputs(&s);
    if (rc == 0)
        rc = select_variables(&s);
    if (rc == 0)
        rc = candidate_events(&s);
    if (rc == 0)
        rc = reference(&s);
    if (rc == 0) {
        double t0 = chk_now();
        if (compare(&s) != 0) {
            chk_error(&s, "hdo check: out of memory comparing %ld rows",
                      (long)s.cand->nrows);
            rc = 2;
        }
        s.seconds_compare = chk_now() - t0;
    }
    if (rc == 0) {
        chk_print_report(&s, stdout);
        chk_print_summary(&s, stdout);
        /* a report that did not reach its reader is no verdict */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            chk_error(&s,
                      "hdo check: cannot write the report to standard "
                      "output: %s",
                      strerror(errno));
            rc = 2;
        }
        if (rc == 0 && s.plot_path != NULL && chk_write_plots(&s) != 0)
            rc = 2;
        if (rc == 0)
            rc = chk_failed(&s) ? 1 : 0;
    }
    if (s.junit_path != NULL && chk_write_junit(&s, rc) != 0)
        rc = 2;
    state_clear(&s);
    return rc;
}
