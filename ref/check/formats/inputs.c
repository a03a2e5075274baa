/* inputs.c -- what hdo check reads: the model with its parameter
 * overrides, the candidate, the tolerances, the compared variables and
 * the candidate's events */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "check.h"

static int
oom(hdo_error_t *err)
{
    return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
}

int
hdo_check_read_model(hdo_check_t s, const hdo_check_options *opt,
                     hdo_error_t *err)
{
    int st;
    s->opt = *opt;
    hdo_error_clear(err);
    for (slong k = 0; k < opt->nparams; k++)
        if ((st = hdo_model_add_override(s->model, opt->params[k], err)) != 0) {
            err->input = HDO_INPUT_OPTION;
            return st;
        }
    st = hdo_model_parse_file(s->model, opt->model_path, err);
    if (st != 0 && err != NULL)
        err->input = HDO_INPUT_MODEL;
    return st;
}

static int
file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The model's file name without its folder and its ".hdae" (NULL when
   out of memory): "cases/belt_mine.hdae" -> "belt_mine". */
static char *
file_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".hdae") == 0)
        n -= 5;
    return strndup(base, n);
}

/* Place k of the tolerance file of a model (malloc'd, NULL when out of
   memory): tolerances/<name>.tol in the working folder (k even), else
   beside the model's folder (cases/x.hdae -> cases/../tolerances/x.tol),
   as the repository lays them out. */
static char *
tolerance_place(const char *model_path, const char *name, int k)
{
    const char *slash = strrchr(model_path, '/');
    char *p = NULL;
    int n = k % 2 == 0 ? asprintf(&p, "tolerances/%s.tol", name)
            : slash != NULL
                ? asprintf(&p, "%.*s/../tolerances/%s.tol",
                           (int)(slash - model_path), model_path, name)
                : asprintf(&p, "../tolerances/%s.tol", name);
    return n < 0 ? NULL : p;
}

/* Appends ", item" (or item) to the malloc'd list *s: 0 or -1. */
static int
list_add(char **s, const char *item)
{
    char *t = NULL;
    if (asprintf(&t, "%s%s%s", *s ? *s : "", *s ? ", " : "", item) < 0)
        return -1;
    free(*s);
    *s = t;
    return 0;
}

/* The tolerance file when none is given: first by the model file's name
   (a copy belt_mine.hdae of a case keeps the case's `model` line, and
   its own tolerances/belt_mine.tol must not be passed over for the
   case's), then by the `model` line, each in the working folder and
   then beside the model's folder.  Sets s->tol_path to the first that
   exists (NULL: none, the defaults of hdo_tol_init) and how it was
   found, and s->tol_looked to the places tried. */
static int
find_tolerances(hdo_check_t s, hdo_error_t *err)
{
    char *stem = file_stem(s->opt.model_path);
    const char *name[2] = {stem, s->model->name};
    int same = stem != NULL && strcmp(stem, s->model->name) == 0;
    for (int k = same ? 2 : 0; stem != NULL && k < 4; k++) {
        char *p = tolerance_place(s->opt.model_path, name[k / 2], k);
        if (p == NULL || list_add(&s->tol_looked, p) != 0) {
            free(p);
            break;
        }
        if (file_exists(p)) {
            s->tol_default = p;
            s->tol_path = p;
            s->tol_found_by = k < 2 ? HDO_TOL_BY_FILE_NAME : HDO_TOL_BY_MODEL;
            free(stem);
            return 0;
        }
        free(p);
    }
    if (stem == NULL || s->tol_looked == NULL) {
        free(stem);
        return oom(err);
    }
    free(stem);
    return 0;
}

static int
read_tolerances(hdo_check_t s, hdo_error_t *err)
{
    hdo_tol_struct *t = s->tol;
    int st;
    s->tol_path = s->opt.tol_path;
    if (s->tol_path == NULL && (st = find_tolerances(s, err)) != 0)
        return st;
    if (s->tol_path != NULL) {
        if ((st = hdo_tol_read_file(t, s->tol_path, err)) != 0)
            return st;
        s->tol_from_file = 1;
    }
    for (slong i = 0; i < s->opt.nmaps; i++) {
        const char *a = s->opt.maps[i], *eq = strchr(a, '=');
        if (eq == NULL || eq == a || eq[1] == '\0') {
            /* an option's error names no file (the candidate reader
               left its own in err) */
            hdo_error_clear(err);
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "--map expects CANDIDATE_NAME=MODEL_VAR, "
                                 "not '%s'",
                                 a);
        }
        hdo_error_clear(err);
        if ((st = hdo_tol_add_map(t, a, (size_t)(eq - a), eq + 1,
                                  strlen(eq + 1), 0, 0, err)) != 0) {
            char msg[sizeof err->message];
            if (snprintf(msg, sizeof msg, "--map %s: %s", a, err->message) >=
                (int)sizeof msg)
                msg[sizeof msg - 1] = '\0'; /* cut short */
            hdo_error_clear(err);
            return hdo_error_set(err, st, 0, 0, "%s", msg);
        }
    }
    if (!isnan(s->opt.time_abs))
        t->time_abs = s->opt.time_abs, t->line_time_abs = -1;
    if (!isnan(s->opt.value_abs))
        t->value_abs = s->opt.value_abs, t->line_value_abs = -1;
    if (!isnan(s->opt.value_rel))
        t->value_rel = s->opt.value_rel, t->line_value_rel = -1;
    return 0;
}

static int at(hdo_error_t *err, const char *file, int line, int col,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* An input error at file:line:col (file borrowed from s). */
static int
at(hdo_error_t *err, const char *file, int line, int col, const char *fmt, ...)
{
    char msg[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hdo_error_set(err, HDO_ERR_INPUT, line, col, "%s", msg);
    if (err != NULL)
        err->file = file;
    return HDO_ERR_INPUT;
}

/* Every map entry in effect (not replaced by a later one for the same
   column, as --map replaces the file's) must name a variable of the
   model: a map to anything else would leave the column out of the
   comparison as "not a variable of the model", so a misspelt target
   (`--map h=H`) silently dropped the column it was meant to compare.
   A file entry is reported at its target, which follows `CAND=` on its
   line (tol.c keeps the column of CAND); a --map entry (line 0) names
   the option. */
static int
check_maps(hdo_check_t s, hdo_error_t *err)
{
    const hdo_tol_struct *t = s->tol;
    for (slong i = 0; i < t->nmap; i++) {
        const hdo_tol_map_entry *m = t->map + i;
        int replaced = 0;
        for (slong k = i + 1; k < t->nmap; k++)
            replaced |= strcmp(t->map[k].from, m->from) == 0;
        if (replaced || hdo_model_find_var(s->model, m->to) >= 0)
            continue;
        if (m->line > 0)
            return at(err, t->file, m->line, m->col + (int)strlen(m->from) + 1,
                      "'%s' is not a variable of model %s (map %s=%s)", m->to,
                      s->model->name, m->from, m->to);
        hdo_error_clear(err);
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "--map %s=%s: '%s' is not a variable of model %s",
                             m->from, m->to, m->to, s->model->name);
    }
    return 0;
}

/* The compared variables: the tolerance file's list (each must be a
   variable of the model and a column of the candidate), or every value
   column of the candidate that is a variable of the model; the other
   columns (der(h), parameters, outputs) are listed as not compared. */
static int
select_variables(hdo_check_t s, hdo_error_t *err)
{
    hdo_tol_struct *t = s->tol;
    hdo_csv_struct *c = s->cand;
    slong n = t->has_variables ? t->nvariables : c->ncols;
    s->col = malloc((size_t)(n + 1) * sizeof(slong));
    s->var = malloc((size_t)(n + 1) * sizeof(slong));
    s->ignored = malloc((size_t)(c->ncols + 1) * sizeof(slong));
    if (s->col == NULL || s->var == NULL || s->ignored == NULL)
        return oom(err);
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
        if (t->has_variables && (v < 0 || col < 0))
            return at(err, t->file, t->variables[i].line, t->variables[i].col,
                      "'%s' is not %s", name,
                      v < 0 ? "a variable of the model"
                            : "a column of the candidate");
        if (v < 0)
            continue;
        for (slong k = 0; k < s->nvar; k++)
            if (s->var[k] == v)
                return at(err, s->opt.cand_path, c->header_line,
                          c->name_col[col],
                          "the columns '%s' and '%s' both stand for the "
                          "variable '%s' (see --map)",
                          c->names[s->col[k]], c->names[col], name);
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
    if (s->nvar == 0)
        return at(err, s->opt.cand_path, c->header_line, 1,
                  "no variable to compare (the candidate has %s)",
                  c->ncols > 0  ? "no column named after a variable of the "
                                  "model"
                  : c->has_mode ? "only time and mode"
                                : "only time");
    return 0;
}

/* Maps the candidate's (or events file's) mode names to the model's. */
static int
map_modes(slong **map, const hdo_strtab *tab, hdo_check_t s, const char *file,
          hdo_error_t *err)
{
    *map = malloc((size_t)(tab->n + 1) * sizeof(slong));
    if (*map == NULL)
        return oom(err);
    for (slong i = 0; i < tab->n; i++) {
        (*map)[i] = hdo_find_mode_name(s->model, tab->names[i]);
        if ((*map)[i] < 0)
            return at(err, file, tab->line[i], tab->col[i],
                      "'%s' is not a mode of model %s", tab->names[i],
                      s->model->name);
    }
    return 0;
}

static int
candidate_events(hdo_check_t s, hdo_error_t *err)
{
    const char *path = s->opt.events_path;
    slong *map = NULL;
    int st = 0;
    if (s->cand->has_mode && (st = map_modes(&s->mode_map, &s->cand->modes, s,
                                             s->opt.cand_path, err)) != 0)
        return st;
    if (path == NULL) {
        s->events_source = s->cand->has_mode
                               ? "inferred from the mode column and repeated "
                                 "time rows"
                               : "inferred from repeated time rows";
        /* only the compared columns (and the mode) make events */
        if (hdo_csv_infer_events_on(s->cand_ev, s->cand, s->mode_map, s->col,
                                    s->nvar, s->tol->value_abs,
                                    s->tol->value_rel))
            return oom(err);
        return 0;
    }
    s->events_source = path;
    if ((st = hdo_evfile_read_file(s->evfile, path, err)) != 0)
        return st;
    st = map_modes(&map, &s->evfile->modes, s, path, err);
    for (slong i = 0; st == 0 && i < s->evfile->n; i++) {
        slong f = s->evfile->from[i], t = s->evfile->to[i];
        if (hdo_evlist_push(s->cand_ev, s->evfile->time[i], s->evfile->time[i],
                            f < 0 ? -1 : map[f], t < 0 ? -1 : map[t],
                            s->evfile->line[i]))
            st = oom(err);
    }
    free(map);
    return st;
}

/* Which input the error err of a stage below belongs to: the file it
   names (the candidate, the tolerance file, the events file), or the
   command line (an option) when it names none; memory is none. */
static void
tag_input(hdo_error_t *err, const hdo_check_t s)
{
    const char *f = err->file;
    if (f == NULL)
        err->input =
            err->status == HDO_ERR_INPUT ? HDO_INPUT_OPTION : HDO_INPUT_NONE;
    else if (f == s->cand->file || f == s->opt.cand_path)
        err->input = HDO_INPUT_CANDIDATE;
    else if (f == s->tol->file || f == s->opt.tol_path || f == s->tol_default)
        err->input = HDO_INPUT_TOLERANCES;
    else if (f == s->evfile->file || f == s->opt.events_path)
        err->input = HDO_INPUT_EVENTS;
}

int
hdo_check_read_inputs(hdo_check_t s, hdo_error_t *err)
{
    int st;
    hdo_error_clear(err);
    s->cand->columns = s->opt.columns;
    if (s->opt.columns != NULL && hdo_is_mat4(s->opt.cand_path)) {
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "--columns names the columns of a CSV file without a "
                      "header line; %s is a MAT file, whose names it holds",
                      s->opt.cand_path);
        err->input = HDO_INPUT_OPTION;
        return HDO_ERR_INPUT;
    }
    if ((st = hdo_csv_read_file(s->cand, s->opt.cand_path, err)) == 0)
        s->cosim_dropped = hdo_csv_cosim_rows(s->cand, &s->cosim_step);
    if (st != 0 || (st = read_tolerances(s, err)) != 0 ||
        (st = check_maps(s, err)) != 0 ||
        (st = select_variables(s, err)) != 0 ||
        (st = candidate_events(s, err)) != 0) {
        if (err != NULL)
            tag_input(err, s);
        return st;
    }
    return 0;
}
