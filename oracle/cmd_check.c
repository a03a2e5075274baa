/* cmd_check.c -- hdo check: compares another solver's CSV result with the
 * reference, value tube and events */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "commands.h"
#include "compare.h"
#include "hybrid.h"
#include "model.h"

/* Digits of the reference run.  The comparison is in doubles, so 20
   digits are more than the candidate can show, and cheaper than the
   default 30 of hdo run. */
#define CHECK_DIGITS 20

static void
usage(FILE *out)
{
    fprintf(
        out,
        "usage: hdo check MODEL CANDIDATE.csv [-t|--tol FILE] "
        "[--events FILE]\n"
        "                 [--junit FILE] [--plot FILE.png] [-p NAME=VALUE]...\n"
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
        "\n"
        "Exit 0 pass, 1 fail, 2 bad input or a reference run that cannot "
        "go on.\n");
}

static void
print_error(const hdo_error_t *err)
{
    char buf[1400];
    hdo_error_format(buf, sizeof buf, err);
    fprintf(stderr, "%s\n", buf);
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
    slong nref;            /* reference samples */
    double *ref_t, *ref_v; /* ref_v: nvar x nref, variable-major */
    hdo_tube_struct *tube; /* nvar */
    const char *events_source;
    hdo_cli_params params; /* -p NAME=VALUE */
} check_state;

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

static int
parse_args(check_state *s, int argc, char **argv)
{
    const char *pos[2];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], **slot = NULL;
        const char *val = NULL;
        int prc = hdo_cli_param_option(&s->params, "check", argc, argv, &i);
        if (prc >= 0) {
            if (prc != 0)
                return prc;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "-t") == 0 || strcmp(a, "--tol") == 0)
            slot = &s->tol_path;
        else if (strncmp(a, "--tol=", 6) == 0)
            slot = &s->tol_path, val = a + 6;
        else if (strcmp(a, "--events") == 0)
            slot = &s->events_path;
        else if (strncmp(a, "--events=", 9) == 0)
            slot = &s->events_path, val = a + 9;
        else if (strcmp(a, "--junit") == 0)
            slot = &s->junit_path;
        else if (strncmp(a, "--junit=", 8) == 0)
            slot = &s->junit_path, val = a + 8;
        else if (strcmp(a, "--plot") == 0)
            slot = &s->plot_path;
        else if (strncmp(a, "--plot=", 7) == 0)
            slot = &s->plot_path, val = a + 7;
        else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "hdo check: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            if (npos == 2) {
                fprintf(stderr, "hdo check: unexpected argument '%s'\n", a);
                usage(stderr);
                return 2;
            }
            pos[npos++] = a;
            continue;
        }
        if (val == NULL) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hdo check: %s needs a file name\n", a);
                return 2;
            }
            val = argv[++i];
        }
        if (*slot != NULL) {
            fprintf(stderr, "hdo check: %s given twice\n", a);
            return 2;
        }
        if (*val == '\0') {
            fprintf(stderr, "hdo check: %s needs a file name\n", a);
            return 2;
        }
        *slot = val;
    }
    if (npos != 2) {
        fprintf(stderr, "hdo check: expected MODEL and CANDIDATE.csv\n");
        usage(stderr);
        return 2;
    }
    s->model_path = pos[0];
    s->cand_path = pos[1];
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
        fprintf(stderr, "hdo check: out of memory\n");
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
    int st;
    hdo_error_clear(&err);
    if (hdo_cli_params_apply(s->model, &s->params, "check") != 0)
        return 2;
    st = hdo_model_parse_file(s->model, s->model_path, &err);
    if (st) {
        print_error(&err);
        return 2;
    }
    if (s->model->warnings != NULL)
        fputs(s->model->warnings, stderr);
    hdo_error_clear(&err);
    if (hdo_csv_read_file(s->cand, s->cand_path, &err)) {
        print_error(&err);
        return 2;
    }
    for (slong i = 0; i < s->cand->ncols; i++)
        if (hdo_model_find_var(s->model, s->cand->names[i]) < 0) {
            fprintf(stderr,
                    "%s:%d:%d: error: the column '%s' is not a variable of "
                    "model %s\n",
                    s->cand_path, s->cand->header_line, s->cand->name_col[i],
                    s->cand->names[i], s->model->name);
            return 2;
        }
    if (s->tol_path == NULL && find_tolerances(s))
        return 2;
    hdo_error_clear(&err);
    if (hdo_tol_read_file(s->tol, s->tol_path, &err)) {
        print_error(&err);
        if (s->tol_path == s->tol_default)
            fprintf(stderr, "hdo check: give a tolerance file with -t FILE\n");
        return 2;
    }
    return 0;
}

/* The compared variables: the tolerance file's list, or every value
   column of the candidate. */
static int
select_variables(check_state *s)
{
    hdo_tol_struct *t = s->tol;
    slong n = t->has_variables ? t->nvariables : s->cand->ncols;
    s->col = malloc((size_t)(n + 1) * sizeof(slong));
    s->var = malloc((size_t)(n + 1) * sizeof(slong));
    if (s->col == NULL || s->var == NULL) {
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    for (slong i = 0; i < n; i++) {
        const char *name =
            t->has_variables ? t->variables[i] : s->cand->names[i];
        s->var[i] = hdo_model_find_var(s->model, name);
        s->col[i] = hdo_csv_find_column(s->cand, name);
        if (s->var[i] < 0 || s->col[i] < 0) {
            fprintf(stderr, "%s:%d:%d: error: '%s' is not %s\n", t->file,
                    t->var_line[i], t->var_col[i], name,
                    s->var[i] < 0 ? "a variable of the model"
                                  : "a column of the candidate");
            return 2;
        }
    }
    s->nvar = n;
    if (n == 0) {
        fprintf(stderr,
                "%s:%d:1: error: no variable to compare (the "
                "candidate has only time%s)\n",
                s->cand_path, s->cand->header_line,
                s->cand->has_mode ? " and mode" : "");
        return 2;
    }
    return 0;
}

/* Maps the candidate's (or events file's) mode names to the model's. */
static int
map_modes(slong **map, const hdo_strtab *tab, const check_state *s,
          const char *file)
{
    *map = malloc((size_t)(tab->n + 1) * sizeof(slong));
    if (*map == NULL) {
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    for (slong i = 0; i < tab->n; i++) {
        (*map)[i] = hdo_find_mode_name(s->model, tab->names[i]);
        if ((*map)[i] < 0) {
            fprintf(stderr, "%s:%d:%d: error: '%s' is not a mode of model %s\n",
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
            fprintf(stderr, "hdo check: out of memory\n");
            return 2;
        }
        return 0;
    }
    s->events_source = s->events_path;
    hdo_error_clear(&err);
    if (hdo_evfile_read_file(s->evfile, s->events_path, &err)) {
        print_error(&err);
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
                fprintf(stderr, "hdo check: out of memory\n");
                st = 2;
            }
        }
        free(map);
        return st;
    }
}

/* ------------------------------------------------------------------ */
/* The reference */

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A reference sample: its time and where its values are. */
typedef struct {
    double t;
    slong seq; /* order of creation: left limit before right */
    mpfr_srcptr values;
} sample;

static int
cmp_sample(const void *a, const void *b)
{
    const sample *x = a, *y = b;
    if (x->t != y->t)
        return (x->t > y->t) - (x->t < y->t);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Runs the model up to the candidate's last time + time_abs, sampled at
   t - time_abs, t - time_abs/2, t, t + time_abs/2, t + time_abs of every
   candidate time t (the window ends and its middle, so that the window's
   range is right for a reference that is monotone or has one extremum
   in each half of the window), and keeps both limits of every event. */
static int
reference(check_state *s)
{
    hdo_csv_struct *c = s->cand;
    double ta = s->tol->time_abs, t0, t_end;
    double *times, *ev_t;
    slong n = 0, ns;
    hdo_run_options opt;
    hdo_result_t res;
    hdo_error_t err;
    char until[64];
    mpfr_t x;
    sample *smp;
    int st;

    mpfr_init2(x, 64);
    st = hdo_expr_eval_constant(x, s->model->pool, s->model->t0);
    t0 = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    if (st) {
        fprintf(stderr, "%s: error: the start time is undefined\n",
                s->model_path);
        return 2;
    }
    if (c->time[0] < t0) {
        fprintf(stderr,
                "%s:%d:1: error: the candidate starts at t = %.17g, before "
                "the model's start t0 = %.17g\n",
                s->cand_path, c->line[0], c->time[0], t0);
        return 2;
    }
    t_end = c->time[c->nrows - 1] + ta;
    times = malloc((size_t)c->nrows * 5 * sizeof(double));
    if (times == NULL) {
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    for (slong i = 0; i < c->nrows; i++) {
        double t = c->time[i];
        double pts[5] = {t - ta, t - ta / 2, t, t + ta / 2, t + ta};
        for (int k = 0; k < 5; k++)
            if (pts[k] >= t0 && pts[k] <= t_end)
                times[n++] = pts[k];
    }
    qsort(times, (size_t)n, sizeof(double), cmp_double);
    ns = 0;
    for (slong i = 0; i < n; i++)
        if (ns == 0 || times[i] != times[ns - 1])
            times[ns++] = times[i];

    hdo_run_options_init(&opt);
    opt.digits = CHECK_DIGITS;
    snprintf(until, sizeof until, "%.17g", t_end);
    opt.until = until;
    opt.sample_times = times;
    opt.nsample_times = ns;
    hdo_result_init(res);
    hdo_error_clear(&err);
    st = hdo_run(res, s->model, &opt, &err);
    free(times);
    if (st < 0) {
        print_error(&err);
        fprintf(stderr, "hdo check: the reference run failed (%s)\n",
                hdo_status_name(st));
        hdo_result_clear(res);
        return 2;
    }

    /* Rows and both limits of every event, in time order (a left limit
       before its right limit). */
    smp = malloc((size_t)(res->nrows + 2 * res->nevents + 1) * sizeof(sample));
    if (smp == NULL) {
        hdo_result_clear(res);
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    /* Rows at an event time are left out: which limit such a row holds is
       the run's choice, and the tube takes the limits from the events. */
    ev_t = malloc((size_t)(res->nevents + 1) * sizeof(double));
    if (ev_t == NULL) {
        free(smp);
        hdo_result_clear(res);
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    for (slong i = 0; i < res->nevents; i++)
        ev_t[i] = mpfr_get_d(res->events[i].time, MPFR_RNDN);
    qsort(ev_t, (size_t)res->nevents, sizeof(double), cmp_double);
    n = 0;
    for (slong i = 0; i < res->nrows; i++) {
        double tr = mpfr_get_d(res->rows[i].time, MPFR_RNDN);
        if (bsearch(&tr, ev_t, (size_t)res->nevents, sizeof(double),
                    cmp_double) != NULL)
            continue;
        smp[n].t = tr;
        smp[n].seq = n;
        smp[n].values = res->rows[i].values;
        n++;
    }
    for (slong i = 0; i < res->nevents; i++) {
        hdo_event *e = res->events + i;
        double te = mpfr_get_d(e->time, MPFR_RNDN);
        smp[n].t = te;
        smp[n].seq = n;
        smp[n++].values = e->left;
        smp[n].t = te;
        smp[n].seq = n;
        smp[n++].values = e->right;
        if (te >= c->time[0] - ta && te <= t_end &&
            hdo_evlist_push(s->ref_ev, te, te, e->from, e->to, 0)) {
            st = HDO_ERR_MEMORY;
            break;
        }
    }
    free(ev_t);
    qsort(smp, (size_t)n, sizeof(sample), cmp_sample);
    s->nref = n;
    s->ref_t = malloc((size_t)(n + 1) * sizeof(double));
    s->ref_v = malloc((size_t)(n + 1) * (size_t)s->nvar * sizeof(double));
    if (st || s->ref_t == NULL || s->ref_v == NULL) {
        free(smp);
        hdo_result_clear(res);
        fprintf(stderr, "hdo check: out of memory\n");
        return 2;
    }
    for (slong k = 0; k < n; k++) {
        s->ref_t[k] = smp[k].t;
        for (slong j = 0; j < s->nvar; j++)
            s->ref_v[j * n + k] =
                mpfr_get_d(smp[k].values + s->var[j], MPFR_RNDN);
    }
    free(smp);
    hdo_result_clear(res);
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
        if (hdo_tube_compare(s->tube + j, s->ref_t, s->ref_v + j * s->nref,
                             s->nref, c->time, c->values + s->col[j],
                             c->present + s->col[j], c->ncols, c->nrows,
                             t->time_abs, t->value_abs, t->value_rel))
            return 2;
    }
    if (hdo_events_match(s->match, s->ref_ev, s->cand_ev, t->time_abs,
                         t->modes_exact, c->time[0], c->time[c->nrows - 1]))
        return 2;
    return 0;
}

static int
variable_failed(const check_state *s, slong j)
{
    return s->tube[j].nfailed > 0 || s->tube[j].ncompared == 0;
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
        snprintf(buf + k, n - (size_t)k,
                 "; largest |candidate - reference(t)| %.3g at t = %.15g",
                 tb->max_diff, c->time[tb->max_diff_row]);
}

static void
describe_row_failure(char *buf, size_t n, const check_state *s, slong j,
                     slong i)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
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

static void
print_report(const check_state *s, FILE *out)
{
    const hdo_csv_struct *c = s->cand;
    const hdo_tol_struct *t = s->tol;
    char buf[1024];
    double first_t = INFINITY;
    slong first_var = -1, first_match = -1;
    int failed = check_failed(s);

    fprintf(out, "%s\n", failed ? "FAIL" : "PASS");
    fprintf(out, "model %s, candidate %s: %ld rows, t = %.15g .. %.15g\n",
            s->model->name, s->cand_path, (long)c->nrows, c->time[0],
            c->time[c->nrows - 1]);
    fprintf(out,
            "tolerances %s: time_abs %g, value_abs %g, value_rel %g, modes "
            "%s\n",
            t->file, t->time_abs, t->value_abs, t->value_rel,
            t->modes_exact ? "exact" : "ignore");
    fprintf(out, "\nvariables:\n");
    for (slong j = 0; j < s->nvar; j++) {
        describe_variable(buf, sizeof buf, s, j);
        fprintf(out, "  %-12s %s  %s\n", c->names[s->col[j]],
                variable_failed(s, j) ? "FAIL" : "pass", buf);
        if (s->tube[j].first_fail >= 0 &&
            c->time[s->tube[j].first_fail] < first_t) {
            first_t = c->time[s->tube[j].first_fail];
            first_var = j;
        }
    }
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
    if (!failed)
        return;
    fprintf(out, "\nfirst failure: ");
    if (first_match >= 0 &&
        (first_var < 0 ||
         match_time(s, s->match->m + first_match) <= first_t)) {
        describe_event_failure(buf, sizeof buf, s, s->match->m + first_match);
        fprintf(out, "%s\n", buf);
    } else if (first_var >= 0) {
        describe_row_failure(buf, sizeof buf, s, first_var,
                             s->tube[first_var].first_fail);
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
   value_err is the largest distance of a candidate value from the range
   the reference takes over [t - time_abs, t + time_abs] (the tube before
   the tolerance band), in the variable's units, and value_where where it
   occurs (VAR@- and value_err=0 when every value is inside the range);
   value_ratio is the largest such distance divided by the band allowed
   there (the verdict's measure: above 1 fails); event_time_err is the
   largest |candidate - reference| event time over the paired events;
   events_wrong counts pairs early, late or with the wrong mode change.
   Reference events outside the candidate's time span are not counted.
   Numbers are printed with %.3e (inf for a NaN candidate value). */
static void
print_summary(const check_state *s, FILE *out)
{
    const hdo_csv_struct *c = s->cand;
    double verr = 0, vt = 0, ratio = 0, eerr = 0;
    slong vj = -1, nref = 0, ncand = 0, miss = 0, extra = 0, wrong = 0;
    slong vfail = 0;

    for (slong j = 0; j < s->nvar; j++) {
        const hdo_tube_struct *tb = s->tube + j;
        vfail += variable_failed(s, j);
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
        if (!isnan(m->diff) && fabs(m->diff) > eerr)
            eerr = fabs(m->diff);
    }
    fprintf(out, "\nsummary: verdict=%s value_err=%.3e value_where=",
            check_failed(s) ? "FAIL" : "PASS", verr);
    if (vj >= 0)
        fprintf(out, "%s@%.17g", c->names[s->col[vj]], vt);
    else
        fprintf(out, "-");
    fprintf(out,
            " value_ratio=%.3e event_time_err=%.3e events_ref=%ld "
            "events_cand=%ld events_missing=%ld events_extra=%ld "
            "events_wrong=%ld vars_failed=%ld/%ld\n",
            ratio, eerr, (long)nref, (long)ncand, (long)miss, (long)extra,
            (long)wrong, (long)vfail, (long)s->nvar);
}

/* ------------------------------------------------------------------ */
/* JUnit XML */

/* Length of the well-formed UTF-8 sequence at p (at most n bytes) that
   XML 1.0 allows, or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
    size_t len;
    unsigned cp;
    if (p[0] < 0x80)
        return 1;
    if ((p[0] & 0xE0) == 0xC0)
        len = 2, cp = p[0] & 0x1F;
    else if ((p[0] & 0xF0) == 0xE0)
        len = 3, cp = p[0] & 0x0F;
    else if ((p[0] & 0xF8) == 0xF0)
        len = 4, cp = p[0] & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return len;
}

/* Writes s escaped for XML text and attributes; bytes XML cannot hold
   (control characters, broken UTF-8) become '?'. */
static void
xml_escape(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n > 0) {
        size_t l;
        switch (*p) {
        case '&':
            fputs("&amp;", f);
            l = 1;
            break;
        case '<':
            fputs("&lt;", f);
            l = 1;
            break;
        case '>':
            fputs("&gt;", f);
            l = 1;
            break;
        case '"':
            fputs("&quot;", f);
            l = 1;
            break;
        case '\'':
            fputs("&apos;", f);
            l = 1;
            break;
        case '\n':
            fputs("&#10;", f);
            l = 1;
            break;
        case '\t':
            fputs("&#9;", f);
            l = 1;
            break;
        default:
            l = utf8_len(p, n);
            if (l == 0 || (*p < 0x20)) {
                fputc('?', f);
                l = 1;
            } else {
                fwrite(p, 1, l, f);
            }
        }
        p += l;
        n -= l;
    }
}

static int
write_junit(const check_state *s)
{
    const char *path = s->junit_path;
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n), buf[1024];
    FILE *f;
    slong nfail = 0;
    int ok;
    if (tmp == NULL)
        return 2;
    snprintf(tmp, n, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (f == NULL) {
        fprintf(stderr, "%s: error: cannot write: %s\n", tmp, strerror(errno));
        free(tmp);
        return 2;
    }
    for (slong j = 0; j < s->nvar; j++)
        nfail += variable_failed(s, j);
    nfail += s->match->nfailed > 0;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(f, "  <testsuite name=\"hdo check ");
    xml_escape(f, s->model->name);
    fprintf(f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"0\">\n",
            (long)(s->nvar + 1), (long)nfail);
    for (slong j = 0; j < s->nvar; j++) {
        fprintf(f, "    <testcase classname=\"hdo.check.");
        xml_escape(f, s->model->name);
        fprintf(f, "\" name=\"");
        xml_escape(f, s->cand->names[s->col[j]]);
        fprintf(f, "\">\n");
        describe_variable(buf, sizeof buf, s, j);
        if (variable_failed(s, j)) {
            fprintf(f, "      <failure message=\"");
            xml_escape(f, buf);
            fprintf(f, "\">");
            if (s->tube[j].first_fail >= 0) {
                describe_row_failure(buf, sizeof buf, s, j,
                                     s->tube[j].first_fail);
                fprintf(f, "first failure: ");
                xml_escape(f, buf);
            }
            fprintf(f, "</failure>\n");
        } else {
            fprintf(f, "      <system-out>");
            xml_escape(f, buf);
            fprintf(f, "</system-out>\n");
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "    <testcase classname=\"hdo.check.");
    xml_escape(f, s->model->name);
    fprintf(f, "\" name=\"events\">\n");
    if (s->match->nfailed > 0) {
        snprintf(buf, sizeof buf,
                 "%ld of %ld events wrong (%ld reference, %ld candidate)",
                 (long)s->match->nfailed, (long)s->match->n, (long)s->ref_ev->n,
                 (long)s->cand_ev->n);
        fprintf(f, "      <failure message=\"");
        xml_escape(f, buf);
        fprintf(f, "\">");
        for (slong k = 0; k < s->match->n; k++) {
            const hdo_match *m = s->match->m + k;
            if (m->verdict == HDO_MATCH_OK || m->verdict == HDO_MATCH_OUTSIDE)
                continue;
            describe_event_failure(buf, sizeof buf, s, m);
            xml_escape(f, buf);
            fprintf(f, "\n");
        }
        fprintf(f, "</failure>\n");
    } else {
        fprintf(f, "      <system-out>%ld events match</system-out>\n",
                (long)s->match->n);
    }
    fprintf(f, "    </testcase>\n  </testsuite>\n</testsuites>\n");
    ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return 2;
    }
    free(tmp);
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
    snprintf(tmp_png, sizeof tmp_png, "%s.tmp", png);
    f = fopen(ref_path, "w");
    if (f == NULL)
        return -1;
    for (slong k = 0; k < s->nref; k++)
        fprintf(f, "%.17g %.17g\n", s->ref_t[k], s->ref_v[j * s->nref + k]);
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
    if (st == 0 && rename(tmp_png, png) != 0)
        st = -1;
    if (st != 0)
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
        if (plot_variable(s, j, dir, png) != 0) {
            fprintf(stderr, "%s: error: gnuplot could not draw the plot\n",
                    png);
            st = 2;
        }
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
    free(s->ref_t);
    free(s->ref_v);
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
    rc = parse_args(&s, argc, argv);
    if (rc >= 0)
        return rc;
    if (s.plot_path != NULL && !on_path("gnuplot")) {
        fprintf(stderr, "hdo check: --plot needs the gnuplot command, which "
                        "is not on PATH (install gnuplot or gnuplot-nox)\n");
        return 2;
    }
    hdo_model_init(s.model);
    hdo_csv_init(s.cand);
    hdo_tol_init(s.tol);
    hdo_evfile_init(s.evfile);
    hdo_evlist_init(s.cand_ev);
    hdo_evlist_init(s.ref_ev);
    hdo_matching_init(s.match);
    rc = read_inputs(&s);
    if (rc == 0)
        rc = select_variables(&s);
    if (rc == 0)
        rc = candidate_events(&s);
    if (rc == 0)
        rc = reference(&s);
    if (rc == 0 && compare(&s) != 0) {
        fprintf(stderr, "hdo check: out of memory\n");
        rc = 2;
    }
    if (rc == 0) {
        print_report(&s, stdout);
        print_summary(&s, stdout);
        if (s.junit_path != NULL && write_junit(&s) != 0)
            rc = 2;
        if (rc == 0 && s.plot_path != NULL && write_plots(&s) != 0)
            rc = 2;
        if (rc == 0)
            rc = check_failed(&s) ? 1 : 0;
    }
    state_clear(&s);
    return rc;
}
