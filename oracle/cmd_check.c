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
            "\n"
            "Compares another solver's result (CSV: time first, an optional\n"
            "mode column, one column per variable, repeated time rows at\n"
            "events) with the reference computed over its time span.  A\n"
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
            "\n"
            "Exit 0 pass, 1 fail, 2 bad input or a reference run that cannot "
            "go on.\n");
}

/* Everything one check holds, cleared in one place. */
typedef struct {
    const char *model_path, *cand_path, *tol_path, *events_path;
    const char *junit_path, *plot_path;
    char *tol_default;
    hdo_model_t model;
    hdo_csv_t cand;
    hdo_tol_t tol;
    hdo_evfile_t evfile;
    hdo_evlist_t cand_ev, ref_ev;
    hdo_matching_t match;
    slong *mode_map;       /* candidate mode names -> model modes */
    slong nvar;            /* compared variables */
    slong *col;            /* their candidate columns */
    slong *var;            /* their model variables */
    hdo_refsamp_t ref;     /* the reference samples */
    hdo_tube_struct *tube; /* nvar */
    const char *events_source;
    long digits;
    /* tolerances from the command line (NaN: not given) */
    double cli_time_abs, cli_value_abs, cli_value_rel;
    int tol_from_file; /* 0: no file, the defaults */
    int events_given;  /* 0: no events file, mode column or event rows */
    slong nignored;    /* candidate columns that are not model variables */
    slong *ignored;
    double seconds_start, seconds_ref, seconds_compare;
    char errmsg[1400]; /* the first error, for the JUnit <error> */
    char **maps;       /* --map arguments */
    slong nmaps;
} check_state;

static double
now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Prints an error and keeps the first one for the JUnit report. */
static void
check_error(check_state *s, const char *fmt, ...)
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

static void
print_error(check_state *s, const hdo_error_t *err)
{
    char buf[1400];
    hdo_error_format(buf, sizeof buf, err);
    check_error(s, "%s", buf);
}

static const char *
mode_name(const check_state *s, slong m)
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
        {NULL, 0, NULL, 0}};
    int c;
    s->digits = CHECK_DIGITS;
    s->cli_time_abs = s->cli_value_abs = s->cli_value_rel = NAN;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ht:d:", opts, NULL)) != -1) {
        const char **slot = NULL;
        const char *name = NULL;
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
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
        check_error(s, "hdo check: out of memory");
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
    if (hdo_model_parse_file(s->model, s->model_path, &err)) {
        print_error(s, &err);
        return 2;
    }
    hdo_error_clear(&err);
    if (hdo_csv_read_file(s->cand, s->cand_path, &err)) {
        print_error(s, &err);
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
            print_error(s, &err);
            return 2;
        }
        s->tol_from_file = 1;
    }
    for (slong i = 0; i < s->nmaps; i++) {
        const char *a = s->maps[i], *eq = strchr(a, '=');
        hdo_error_clear(&err);
        if (hdo_tol_add_map(t, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), 0,
                            0, &err)) {
            check_error(s, "hdo check: --map %s: %s", a, err.message);
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
        check_error(s, "hdo check: out of memory");
        return 2;
    }
    s->nvar = 0;
    for (slong i = 0; i < n; i++) {
        const char *name = t->has_variables ? t->variables[i]
                                            : hdo_tol_map_name(t, c->names[i]);
        slong v = hdo_model_find_var(s->model, name);
        slong col = t->has_variables ? -1 : i;
        /* the candidate column that stands for the variable */
        for (slong k = 0; col < 0 && k < c->ncols; k++)
            if (strcmp(hdo_tol_map_name(t, c->names[k]), name) == 0)
                col = k;
        if (t->has_variables && (v < 0 || col < 0)) {
            check_error(s, "%s:%d:%d: error: '%s' is not %s", t->file,
                        t->var_line[i], t->var_col[i], name,
                        v < 0 ? "a variable of the model"
                              : "a column of the candidate");
            return 2;
        }
        if (v < 0)
            continue;
        for (slong k = 0; k < s->nvar; k++)
            if (s->var[k] == v) {
                check_error(s,
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
        check_error(s,
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
        check_error(s, "hdo check: out of memory");
        return 2;
    }
    for (slong i = 0; i < tab->n; i++) {
        (*map)[i] = hdo_find_mode_name(s->model, tab->names[i]);
        if ((*map)[i] < 0) {
            check_error(s, "%s:%d:%d: error: '%s' is not a mode of model %s",
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
            check_error(s, "hdo check: out of memory");
            return 2;
        }
        return 0;
    }
    s->events_source = s->events_path;
    hdo_error_clear(&err);
    if (hdo_evfile_read_file(s->evfile, s->events_path, &err)) {
        print_error(s, &err);
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
                check_error(s, "hdo check: out of memory");
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
    double t0 = now_seconds();
    hdo_error_clear(&err);
    st = hdo_check_reference(s->ref, s->ref_ev, s->model, s->var, s->nvar,
                             s->cand->time, s->cand->nrows, s->tol->time_abs,
                             s->digits, &err);
    s->seconds_ref = now_seconds() - t0;
    if (st == HDO_ERR_INPUT && err.file == NULL && err.line == 0) {
        check_error(s, "%s:%d:1: error: %s", s->cand_path, s->cand->line[0],
                    err.message);
        return 2;
    }
    if (st == HDO_ERR_MEMORY) {
        check_error(s, "hdo check: %s (the candidate has %ld rows)",
                    err.message, (long)s->cand->nrows);
        return 2;
    }
    if (st) {
        print_error(s, &err);
        check_error(s, "hdo check: the reference run at %ld digits failed (%s)",
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
    return 0;
}

static int
variable_failed(const check_state *s, slong j)
{
    const hdo_tube_struct *tb = s->tube + j;
    return tb->nfailed > 0 || tb->ncompared == 0 || tb->nnoref > 0 ||
           tb->nnocand > 0;
}

static int
check_failed(const check_state *s)
{
    for (slong j = 0; j < s->nvar; j++)
        if (variable_failed(s, j))
            return 1;
    return s->match->nfailed > 0;
}

/* The time of event match k: the reference's, else the candidate's. */
static double
match_time(const check_state *s, const hdo_match *m)
{
    return m->ref >= 0 ? s->ref_ev->ev[m->ref].t_lo
                       : s->cand_ev->ev[m->cand].t_lo;
}

static void
format_cand_time(char *buf, size_t n, const hdo_cmp_event *e)
{
    if (e->t_lo == e->t_hi)
        snprintf(buf, n, "%.17g", e->t_lo);
    else
        snprintf(buf, n, "%.10g..%.10g", e->t_lo, e->t_hi);
}

static void
format_modes(char *buf, size_t n, const check_state *s, slong from, slong to)
{
    snprintf(buf, n, "%s -> %s", mode_name(s, from), mode_name(s, to));
}

static void
describe_variable(char *buf, size_t n, const check_state *s, slong j)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    int k;
    if (tb->ncompared == 0) {
        snprintf(buf, n,
                 "no value compared (the reference or the candidate "
                 "has none in every window)");
        return;
    }
    if (tb->worst_err == 0)
        k = snprintf(buf, n, "%ld compared, all inside the tube",
                     (long)tb->ncompared);
    else
        k = snprintf(buf, n,
                     "%ld compared, %ld outside the tube; largest error %.3g "
                     "at t = %.17g (line %d, allowed %.3g)",
                     (long)tb->ncompared, (long)tb->nfailed, tb->worst_err,
                     c->time[tb->worst], c->line[tb->worst], tb->worst_allowed);
    if (tb->max_diff_row >= 0 && k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k,
                      "; largest |candidate - reference(t)| %.3g at t = %.15g",
                      tb->max_diff, c->time[tb->max_diff_row]);
    if (tb->nnoref + tb->nnocand > 0 && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k,
                 "; NOT COMPARED: %ld rows where the reference has no value, "
                 "%ld where the candidate's cell is empty (first at t = "
                 "%.15g, line %d)",
                 (long)tb->nnoref, (long)tb->nnocand,
                 c->time[tb->first_uncompared], c->line[tb->first_uncompared]);
}

static void
describe_row_failure(char *buf, size_t n, const check_state *s, slong j,
                     slong i)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    if (tb->fail[i] == 2) {
        snprintf(buf, n,
                 "t = %.17g (%s line %d), variable %s: not compared: %s",
                 c->time[i], s->cand_path, c->line[i], c->names[s->col[j]],
                 isnan(tb->lo[i]) ? "the reference has no value within "
                                    "time_abs"
                                  : "the candidate's cell is empty where the "
                                    "reference has a value");
        return;
    }
    snprintf(buf, n,
             "t = %.17g (%s line %d), variable %s: candidate %.17g, "
             "reference range [%.17g, %.17g] over [t - %g, t + %g], "
             "allowed [%.17g, %.17g]",
             c->time[i], s->cand_path, c->line[i], c->names[s->col[j]],
             c->values[i * c->ncols + s->col[j]], tb->lo[i], tb->hi[i],
             s->tol->time_abs, s->tol->time_abs, tb->band_lo[i],
             tb->band_hi[i]);
}

static void
describe_event_failure(char *buf, size_t n, const check_state *s,
                       const hdo_match *m)
{
    char ct[80], rm[120], cm[120];
    if (m->ref >= 0)
        format_modes(rm, sizeof rm, s, s->ref_ev->ev[m->ref].from,
                     s->ref_ev->ev[m->ref].to);
    if (m->cand >= 0) {
        format_cand_time(ct, sizeof ct, s->cand_ev->ev + m->cand);
        format_modes(cm, sizeof cm, s, s->cand_ev->ev[m->cand].from,
                     s->cand_ev->ev[m->cand].to);
    }
    if (m->cand < 0)
        snprintf(buf, n, "event %s at t = %.17g is missing from the candidate",
                 rm, s->ref_ev->ev[m->ref].t_lo);
    else if (m->ref < 0)
        snprintf(buf, n,
                 "the candidate has an extra event %s at t = %s (line %d)", cm,
                 ct, s->cand_ev->ev[m->cand].line);
    else
        snprintf(buf, n,
                 "event %s at t = %.17g: candidate %s at t = %s (line %d), %s "
                 "(difference %.3g, time_abs %g)",
                 rm, s->ref_ev->ev[m->ref].t_lo, cm, ct,
                 s->cand_ev->ev[m->cand].line,
                 hdo_match_verdict_name(m->verdict), m->diff, s->tol->time_abs);
}

/* Where a tolerance came from: line > 0 of the file, -1 the command
   line, 0 the default. */
static const char *
tol_source(const check_state *s, int line, char *buf, size_t n)
{
    if (line < 0)
        return "command line";
    if (line == 0)
        return "default";
    snprintf(buf, n, "line %d", line);
    return buf;
}

static void
print_report(const check_state *s, FILE *out)
{
    const hdo_csv_struct *c = s->cand;
    const hdo_tol_struct *t = s->tol;
    char buf[1024];
    char lt[64], la[64], lr[64];
    double first_t = INFINITY;
    slong first_var = -1, first_match = -1, first_row = -1;
    int failed = check_failed(s);

    fprintf(out, "%s\n", failed ? "FAIL" : "PASS");
    fprintf(out, "model %s, candidate %s: %ld rows, t = %.15g .. %.15g\n",
            s->model->name, s->cand_path, (long)c->nrows, c->time[0],
            c->time[c->nrows - 1]);
    if (!isnan(s->ref->t_end) &&
        (c->time[0] > s->ref->t0 || c->time[c->nrows - 1] < s->ref->t_end))
        fprintf(out,
                "coverage: the candidate covers [%.15g, %.15g] of [%.15g, "
                "%.15g]: it is compared where it has rows only\n",
                c->time[0], c->time[c->nrows - 1], s->ref->t0, s->ref->t_end);
    fprintf(out,
            "reference: hdo run at %ld digits (as `hdo run -d %ld`), %ld "
            "samples, %ld steps, %ld events, %.2f s\n",
            s->digits, s->digits, (long)s->ref->n, (long)s->ref->steps,
            (long)s->ref->nrun_events, s->seconds_ref);
    fprintf(out,
            "tolerances (%s): time_abs %g (%s), value_abs %g (%s), "
            "value_rel %g (%s), modes %s\n",
            s->tol_from_file ? t->file : "no tolerance file", t->time_abs,
            tol_source(s, t->line_time_abs, lt, sizeof lt), t->value_abs,
            tol_source(s, t->line_value_abs, la, sizeof la), t->value_rel,
            tol_source(s, t->line_value_rel, lr, sizeof lr),
            t->modes_exact ? "exact" : "ignore");
    if (s->nignored > 0) {
        fprintf(out, "not compared (%s):",
                t->has_variables ? "not in the tolerance file's variables"
                                 : "not variables of the model");
        for (slong k = 0; k < s->nignored; k++)
            fprintf(out, " %s", c->names[s->ignored[k]]);
        fprintf(out, "\n");
    }
    fprintf(out, "\nvariables:\n");
    for (slong j = 0; j < s->nvar; j++) {
        const hdo_tube_struct *tb = s->tube + j;
        slong ff = tb->first_fail;
        if (tb->first_uncompared >= 0 && (ff < 0 || tb->first_uncompared < ff))
            ff = tb->first_uncompared;
        describe_variable(buf, sizeof buf, s, j);
        fprintf(out, "  %-12s %s  %s\n", c->names[s->col[j]],
                variable_failed(s, j) ? "FAIL" : "pass", buf);
        if (ff >= 0 && c->time[ff] < first_t) {
            first_t = c->time[ff];
            first_var = j;
            first_row = ff;
        }
    }
    if (!s->events_given)
        fprintf(out,
                "\nevents: %ld reference; not given by the candidate (no "
                "events file, mode column or repeated time rows): judged on "
                "its values only\n",
                (long)s->ref_ev->n);
    else
        fprintf(out, "\nevents: %ld reference, %ld candidate (%s)%s\n",
                (long)s->ref_ev->n, (long)s->cand_ev->n, s->events_source,
                t->modes_exact && !c->has_mode && s->events_path == NULL
                    ? "; the candidate has no modes: events compared by time"
                    : "");
    if (s->match->n > 0)
        fprintf(out, "  %4s  %-24s %-24s %-28s %-11s %s\n", "#", "reference",
                "candidate", "from -> to", "difference", "verdict");
    for (slong k = 0; k < s->match->n; k++) {
        const hdo_match *m = s->match->m + k;
        char rt[64] = "-", ct[80] = "-", md[260], dd[32] = "-";
        if (m->ref >= 0) {
            snprintf(rt, sizeof rt, "%.17g", s->ref_ev->ev[m->ref].t_lo);
            format_modes(md, sizeof md, s, s->ref_ev->ev[m->ref].from,
                         s->ref_ev->ev[m->ref].to);
        }
        if (m->cand >= 0) {
            const hdo_cmp_event *e = s->cand_ev->ev + m->cand;
            format_cand_time(ct, sizeof ct, e);
            if (m->ref < 0)
                format_modes(md, sizeof md, s, e->from, e->to);
            else if (m->verdict == HDO_MATCH_MODE) {
                size_t l = strlen(md);
                snprintf(md + l, sizeof md - l, " (cand. %s -> %s)",
                         mode_name(s, e->from), mode_name(s, e->to));
            }
        }
        if (!isnan(m->diff))
            snprintf(dd, sizeof dd, "%.3g", m->diff);
        fprintf(out, "  %4ld  %-24s %-24s %-28s %-11s %s\n", (long)(k + 1), rt,
                ct, md, dd, hdo_match_verdict_name(m->verdict));
        if (m->verdict != HDO_MATCH_OK && m->verdict != HDO_MATCH_OUTSIDE &&
            first_match < 0)
            first_match = k;
    }
    /* Physics that differ, in words: the reference events after the
       candidate's last one (missed, or past the candidate's end). */
    if (s->events_given && s->match->n > 0) {
        slong k = s->match->n, nmore = 0;
        double tlast_ref = NAN;
        while (k > 0 && s->match->m[k - 1].cand < 0 &&
               (s->match->m[k - 1].verdict == HDO_MATCH_MISSING ||
                s->match->m[k - 1].verdict == HDO_MATCH_OUTSIDE)) {
            const hdo_cmp_event *e = s->ref_ev->ev + s->match->m[k - 1].ref;
            if (isnan(tlast_ref))
                tlast_ref = e->t_hi;
            nmore += e->count;
            k--;
        }
        if (nmore > 0) {
            double tc = s->cand_ev->n > 0
                            ? s->cand_ev->ev[s->cand_ev->n - 1].t_hi
                            : NAN;
            if (s->cand_ev->n > 0)
                fprintf(out, "\nthe candidate stops switching at t = %.17g; ",
                        tc);
            else
                fprintf(out, "\nthe candidate has no event; ");
            fprintf(out,
                    "the reference has %ld more event%s up to t = %.17g%s\n",
                    (long)nmore, nmore == 1 ? "" : "s", tlast_ref,
                    tlast_ref > c->time[c->nrows - 1]
                        ? " (past the candidate's end: not counted)"
                        : "");
        }
    }
    if (!failed)
        return;
    fprintf(out, "\nfirst failure: ");
    if (first_match >= 0 &&
        (first_var < 0 ||
         match_time(s, s->match->m + first_match) <= first_t)) {
        describe_event_failure(buf, sizeof buf, s, s->match->m + first_match);
        fprintf(out, "%s\n", buf);
    } else if (first_var >= 0) {
        describe_row_failure(buf, sizeof buf, s, first_var, first_row);
        fprintf(out, "%s\n", buf);
    } else {
        for (slong j = 0; j < s->nvar; j++)
            if (variable_failed(s, j)) {
                fprintf(out, "variable %s: no value compared\n",
                        c->names[s->col[j]]);
                break;
            }
    }
}

/* The machine-readable last line of the report (docs/decisions.md,
   "hdo check summary line"):
     summary: verdict=PASS|FAIL value_err=E value_where=VAR@T value_ratio=R
              event_time_err=D events_ref=N events_cand=N events_missing=N
              events_extra=N events_wrong=N vars_failed=K/N
              rows_compared=N rows_uncompared=N point_err=E
              events_given=yes|no cand_span=A..B ref_span=T0..T1
   value_err is the largest distance of a candidate value from the range
   the reference takes over [t - time_abs, t + time_abs] (the tube before
   the tolerance band), in the variable's units, and value_where where it
   occurs (VAR@- and value_err=0 when every value is inside the range);
   value_ratio is the largest such distance divided by the band allowed
   there (the verdict's measure: above 1 fails); event_time_err is the
   largest |candidate - reference| event time over the paired events, `-`
   when no event was paired; events_wrong counts pairs early, late or with
   the wrong mode change.  Reference events outside the candidate's time
   span are not counted.  rows_compared / rows_uncompared count
   (variable, row) cells compared and not compared (the latter fail);
   point_err is the largest |candidate - reference(t)| at the candidate's
   own times away from events (- when none), which a wide time_abs cannot hide;
   events_given no when the candidate has no events file, mode column or
   repeated time rows (then events_ref counts 0: nothing was matched);
   cand_span
   the candidate's first and last time, ref_span the model's t0 and end
   time.  Numbers are printed with %.3e (inf for a NaN candidate value). */
static void
print_summary(const check_state *s, FILE *out)
{
    const hdo_csv_struct *c = s->cand;
    double verr = 0, vt = 0, ratio = 0, eerr = 0, perr = -1;
    slong vj = -1, nref = 0, ncand = 0, miss = 0, extra = 0, wrong = 0;
    slong vfail = 0, npaired = 0, ncomp = 0, nuncomp = 0;

    for (slong j = 0; j < s->nvar; j++) {
        const hdo_tube_struct *tb = s->tube + j;
        vfail += variable_failed(s, j);
        ncomp += tb->ncompared;
        nuncomp += tb->nnoref + tb->nnocand;
        if (tb->max_diff_row >= 0 && !(tb->max_diff <= perr))
            perr = tb->max_diff;
        for (slong i = 0; i < c->nrows; i++) {
            slong k = i * c->ncols + s->col[j];
            double v = c->values[k], e;
            if (!c->present[k] || isnan(tb->lo[i]))
                continue;
            e = isnan(v)        ? INFINITY
                : v < tb->lo[i] ? tb->lo[i] - v
                : v > tb->hi[i] ? v - tb->hi[i]
                                : 0;
            if (e > verr) {
                verr = e;
                vt = c->time[i];
                vj = j;
            }
        }
        if (tb->worst >= 0 && tb->worst_err > 0) {
            double r = tb->worst_allowed > 0 ? tb->worst_err / tb->worst_allowed
                                             : INFINITY;
            ratio = r > ratio ? r : ratio;
        }
    }
    for (slong k = 0; k < s->match->n; k++) {
        const hdo_match *m = s->match->m + k;
        if (m->verdict == HDO_MATCH_OUTSIDE)
            continue;
        nref += m->ref >= 0;
        ncand += m->cand >= 0;
        if (m->verdict == HDO_MATCH_MISSING)
            miss++;
        else if (m->verdict == HDO_MATCH_EXTRA)
            extra++;
        else if (m->verdict != HDO_MATCH_OK)
            wrong++;
        if (!isnan(m->diff)) {
            npaired++;
            if (fabs(m->diff) > eerr)
                eerr = fabs(m->diff);
        }
    }
    fprintf(out, "\nsummary: verdict=%s value_err=%.3e value_where=",
            check_failed(s) ? "FAIL" : "PASS", verr);
    if (vj >= 0)
        fprintf(out, "%s@%.17g", c->names[s->col[vj]], vt);
    else
        fprintf(out, "-");
    fprintf(out, " value_ratio=%.3e event_time_err=", ratio);
    if (npaired > 0)
        fprintf(out, "%.3e", eerr);
    else
        fprintf(out, "-");
    fprintf(out,
            " events_ref=%ld events_cand=%ld events_missing=%ld "
            "events_extra=%ld events_wrong=%ld vars_failed=%ld/%ld "
            "rows_compared=%ld rows_uncompared=%ld point_err=",
            (long)nref, (long)ncand, (long)miss, (long)extra, (long)wrong,
            (long)vfail, (long)s->nvar, (long)ncomp, (long)nuncomp);
    if (perr >= 0)
        fprintf(out, "%.3e", perr);
    else
        fprintf(out, "-");
    fprintf(out, " events_given=%s", s->events_given ? "yes" : "no");
    fprintf(out, " cand_span=%.17g..%.17g ref_span=%.17g..", c->time[0],
            c->time[c->nrows - 1], s->ref->t0);
    if (isnan(s->ref->t_end))
        fprintf(out, "-\n");
    else
        fprintf(out, "%.17g\n", s->ref->t_end);
}

/* ------------------------------------------------------------------ */
/* JUnit XML (ref/compare/junit.c): written on every exit, with an
   <error> when the check could not be done. */

static int
write_junit(check_state *s, int rc)
{
    slong n = s->tube != NULL ? s->nvar + 1 : 0;
    hdo_junit_case *tc = calloc((size_t)(n + 1), sizeof *tc);
    char(*fail)[512] = calloc((size_t)(n + 1), sizeof *fail);
    char(*text)[1024] = calloc((size_t)(n + 1), sizeof *text);
    const char *suite = s->model->name != NULL  ? s->model->name
                        : s->model_path != NULL ? s->model_path
                                                : "(no model)";
    hdo_error_t err;
    int st;
    if (tc == NULL || fail == NULL || text == NULL) {
        free(tc);
        free(fail);
        free(text);
        check_error(s, "hdo check: out of memory");
        return 2;
    }
    for (slong j = 0; rc != 2 && j < s->nvar; j++) {
        tc[j].name = s->cand->names[s->col[j]];
        tc[j].seconds = s->seconds_compare / (double)(s->nvar + 1);
        describe_variable(text[j], sizeof text[j], s, j);
        if (variable_failed(s, j)) {
            snprintf(fail[j], sizeof fail[j], "%s", text[j]);
            tc[j].failure = fail[j];
            if (s->tube[j].first_fail >= 0 ||
                s->tube[j].first_uncompared >= 0) {
                slong i = s->tube[j].first_fail;
                if (i < 0 || (s->tube[j].first_uncompared >= 0 &&
                              s->tube[j].first_uncompared < i))
                    i = s->tube[j].first_uncompared;
                memcpy(text[j], "first failure: ", 16);
                describe_row_failure(text[j] + 15, sizeof text[j] - 15, s, j,
                                     i);
            }
        }
        tc[j].text = text[j];
    }
    if (rc != 2) {
        slong k = s->nvar, len = 0;
        tc[k].name = "events";
        tc[k].seconds = s->seconds_compare / (double)(s->nvar + 1);
        if (s->match->nfailed > 0) {
            snprintf(fail[k], sizeof fail[k],
                     "%ld of %ld events wrong (%ld reference, %ld candidate)",
                     (long)s->match->nfailed, (long)s->match->n,
                     (long)s->ref_ev->n, (long)s->cand_ev->n);
            tc[k].failure = fail[k];
            for (slong q = 0; q < s->match->n && len < 900; q++) {
                const hdo_match *m = s->match->m + q;
                char b[400];
                if (m->verdict == HDO_MATCH_OK ||
                    m->verdict == HDO_MATCH_OUTSIDE)
                    continue;
                describe_event_failure(b, sizeof b, s, m);
                len += snprintf(text[k] + len, sizeof text[k] - (size_t)len,
                                "%s\n", b);
            }
        } else {
            snprintf(text[k], sizeof text[k], "%ld events match",
                     (long)s->match->n);
        }
        tc[k].text = text[k];
    }
    hdo_error_clear(&err);
    st = hdo_junit_write(s->junit_path, suite, tc, n,
                         rc == 2 ? (s->errmsg[0] ? s->errmsg
                                                 : "hdo check could not be "
                                                   "done: bad command line "
                                                   "(see standard error)")
                                 : NULL,
                         now_seconds() - s->seconds_start, &err);
    free(tc);
    free(fail);
    free(text);
    if (st) {
        fprintf(stderr, "%s: error: %s\n", s->junit_path, err.message);
        return 2;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Plots (gnuplot) */

/* Whether an executable named prog is on PATH. */
static int
on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    if (path == NULL)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e != NULL ? (size_t)(e - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n > 0 ? path : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (e != NULL);
    }
    return 0;
}

/* Runs gnuplot on script; 0 when it succeeds. */
static int
run_gnuplot(const char *script)
{
    int status;
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* gnuplot's single-quoted strings: a quote is doubled. */
static void
gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

static int
plot_variable(const check_state *s, slong j, const char *dir, const char *png)
{
    char ref_path[4200], cand_path[4200], script[4200], tmp_png[4200];
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    const char *name = c->names[s->col[j]];
    FILE *f;
    int st = 0;
    snprintf(ref_path, sizeof ref_path, "%s/ref.dat", dir);
    snprintf(cand_path, sizeof cand_path, "%s/cand.dat", dir);
    snprintf(script, sizeof script, "%s/plot.gp", dir);
    snprintf(tmp_png, sizeof tmp_png, "%s/plot.png", dir);
    f = fopen(ref_path, "w");
    if (f == NULL)
        return -1;
    for (slong k = 0; k < s->ref->n; k++)
        fprintf(f, "%.17g %.17g\n", s->ref->t[k], s->ref->v[j * s->ref->n + k]);
    st |= fclose(f);
    f = fopen(cand_path, "w");
    if (f == NULL)
        return -1;
    for (slong i = 0; i < c->nrows; i++) {
        double v = c->present[i * c->ncols + s->col[j]]
                       ? c->values[i * c->ncols + s->col[j]]
                       : NAN;
        fprintf(f, "%.17g %.17g %.17g %.17g %d\n", c->time[i], v,
                tb->band_lo[i], tb->band_hi[i], tb->fail[i]);
    }
    st |= fclose(f);
    f = fopen(script, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "  set terminal pngcairo size 1200,700\n"
               "} else {\n"
               "  set terminal png size 1200,700\n"
               "}\n");
    fprintf(f, "set output ");
    gp_quote(f, tmp_png);
    fprintf(f, "\nset datafile missing 'nan'\nset title ");
    {
        char title[512];
        snprintf(title, sizeof title, "%s: %s (%ld outside the tube)",
                 s->model->name, name, (long)tb->nfailed);
        gp_quote(f, title);
    }
    fprintf(f, " noenhanced\nset xlabel 'time'\nset ylabel ");
    gp_quote(f, name);
    fprintf(f, " noenhanced\nset key outside bottom center horizontal\n"
               "set grid\n");
    fprintf(f, "plot ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:3:4 with filledcurves fillcolor rgb '#c6dbef' "
               "title 'allowed band', \\\n  ");
    gp_quote(f, ref_path);
    fprintf(f, " using 1:2 with lines linecolor rgb 'black' title "
               "'reference', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:2 with linespoints pointtype 7 pointsize 0.4 "
               "linecolor rgb '#2171b5' title 'candidate', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:($5 > 0 ? $2 : 1/0) with points pointtype 2 "
               "pointsize 2 linecolor rgb 'red' title 'outside'\n");
    st |= fclose(f);
    if (st == 0)
        st = run_gnuplot(script);
    if (st == 0) {
        /* never renamed over a device, FIFO or symlink (outfile.c) */
        hdo_error_t err;
        hdo_error_clear(&err);
        if (hdo_outfile_copy(png, tmp_png, &err) != 0) {
            fprintf(stderr, "%s: error: %s\n", png, err.message);
            st = -2;
        }
    }
    remove(tmp_png);
    remove(ref_path);
    remove(cand_path);
    remove(script);
    return st;
}

static int
write_plots(const check_state *s)
{
    char dir[] = "/tmp/hdo-check-XXXXXX";
    const char *p = s->plot_path;
    size_t len = strlen(p), stem = len;
    int st = 0;
    if (stem >= 4 && strcmp(p + stem - 4, ".png") == 0)
        stem -= 4;
    if (mkdtemp(dir) == NULL) {
        fprintf(stderr, "hdo check: cannot make a temporary folder: %s\n",
                strerror(errno));
        return 2;
    }
    for (slong j = 0; j < s->nvar && st == 0; j++) {
        const char *name = s->cand->names[s->col[j]];
        size_t n = len + strlen(name) + 8;
        char *png = malloc(n);
        if (png == NULL) {
            st = 2;
            break;
        }
        if (s->nvar == 1)
            snprintf(png, n, "%s", p);
        else
            snprintf(png, n, "%.*s-%s.png", (int)stem, p, name);
        st = plot_variable(s, j, dir, png);
        if (st == -1)
            fprintf(stderr, "%s: error: gnuplot could not draw the plot\n",
                    png);
        st = st != 0 ? 2 : 0;
        free(png);
    }
    rmdir(dir);
    return st;
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
    s.seconds_start = now_seconds();
    rc = parse_args(&s, argc, argv);
    if (rc < 0 && s.plot_path != NULL && !on_path("gnuplot")) {
        check_error(&s, "hdo check: --plot needs the gnuplot command, which "
                        "is not on PATH (install gnuplot or gnuplot-nox)");
        rc = 2;
    }
    if (rc >= 0) {
        /* no stale report from an earlier run: an <error> replaces it */
        if (rc == 2 && s.junit_path != NULL)
            write_junit(&s, rc);
        return rc;
    }
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
        double t0 = now_seconds();
        if (compare(&s) != 0) {
            check_error(&s, "hdo check: out of memory comparing %ld rows",
                        (long)s.cand->nrows);
            rc = 2;
        }
        s.seconds_compare = now_seconds() - t0;
    }
    if (rc == 0) {
        print_report(&s, stdout);
        print_summary(&s, stdout);
        /* a report that did not reach its reader is no verdict */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            check_error(&s,
                        "hdo check: cannot write the report to standard "
                        "output: %s",
                        strerror(errno));
            rc = 2;
        }
        if (rc == 0 && s.plot_path != NULL && write_plots(&s) != 0)
            rc = 2;
        if (rc == 0)
            rc = check_failed(&s) ? 1 : 0;
    }
    if (s.junit_path != NULL && write_junit(&s, rc) != 0)
        rc = 2;
    state_clear(&s);
    return rc;
}
