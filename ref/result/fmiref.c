/* fmiref.c -- a run's result as the reference files of the FMI cross-check
 * (<Model>_ref.csv and <Model>_ref.opt), so that an FMU vendor can take
 * hdo's answer as the reference of the cross-check */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "result.h"
#include "util.h"

/* A header name, double-quoted ("" for a quote inside). */
static void
put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* dir/<name><suffix> into a new string, or NULL. */
static char *
path_of(const char *dir, const char *name, const char *suffix)
{
    size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s%s", dir, name, suffix);
    return p;
}

/* keep[v]: whether variable v has a value in every row (the FMI
   cross-check's CSV rules want a number in every cell, so a variable that
   a mode of the run lacks is left out, with a note naming the mode);
   the number kept. */
static slong
kept_variables(int *keep, const hdo_result_t res, const hdo_model_t model,
               const char *file, FILE *notes)
{
    slong n = 0;
    for (slong v = 0; v < model->nvars; v++) {
        slong miss = -1;
        for (slong i = 0; i < res->nrows && miss < 0; i++)
            if (!res->rows[i].present[v])
                miss = i;
        keep[v] = miss < 0;
        n += keep[v];
        if (miss >= 0 && notes != NULL) {
            char mode[256];
            hdo_mode_name(mode, sizeof mode, model, res->rows[miss].mode);
            fprintf(notes,
                    "hdo run: --fmi-ref: note: %s is left out of %s: mode "
                    "%s (from t = %.17g) has no value of it, and the FMI "
                    "cross-check's CSV rules want a number in every cell\n",
                    model->vars[v].name, file, mode,
                    mpfr_get_d(res->rows[miss].time, MPFR_RNDN));
        }
    }
    return n;
}

static int
write_csv(const char *path, const int *keep, const hdo_result_t res,
          const hdo_model_t model, hdo_error_t *err)
{
    hdo_outfile o;
    int st = hdo_outfile_open(&o, path, err);
    if (st)
        return st;
    /* the FMI cross-check's rules: comma separated, quoted names, time
       first, double values, an event as two rows at its time (left,
       then right limit: the rows of trajectory.csv) */
    put_quoted(o.f, "time");
    for (slong v = 0; v < model->nvars; v++) {
        if (!keep[v])
            continue;
        fputc(',', o.f);
        put_quoted(o.f, model->vars[v].name);
    }
    fputc('\n', o.f);
    for (slong i = 0; i < res->nrows; i++) {
        const hdo_row *r = res->rows + i;
        fprintf(o.f, "%.17g", mpfr_get_d(r->time, MPFR_RNDN));
        for (slong v = 0; v < model->nvars; v++)
            if (keep[v])
                fprintf(o.f, ",%.17g", mpfr_get_d(r->values + v, MPFR_RNDN));
        fputc('\n', o.f);
    }
    return hdo_outfile_commit(&o, err);
}

static int
write_opt(const char *path, const hdo_result_t res, double step,
          hdo_error_t *err)
{
    hdo_outfile o;
    int st = hdo_outfile_open(&o, path, err);
    if (st)
        return st;
    /* RelTol: what the reference holds, each value the double nearest
       the solution (hdo's own tolerance, 10^-(D+5), is below what a
       double can say) */
    fprintf(o.f,
            "StartTime, %.17g\nStopTime, %.17g\nStepSize, %.17g\n"
            "RelTol, 1e-15\n",
            mpfr_get_d(res->t0, MPFR_RNDN), mpfr_get_d(res->t_end, MPFR_RNDN),
            step);
    return hdo_outfile_commit(&o, err);
}

int
hdo_write_fmi_ref(const char *dir, const hdo_result_t res,
                  const hdo_model_t model, double step, FILE *notes,
                  hdo_error_t *err)
{
    char *csv = path_of(dir, model->name, "_ref.csv");
    char *opt = path_of(dir, model->name, "_ref.opt");
    int *keep = calloc((size_t)model->nvars + 1, sizeof *keep);
    int st = 0;
    if (csv == NULL || opt == NULL || keep == NULL)
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    if (st == 0 && kept_variables(keep, res, model, csv, notes) == 0)
        st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                           "no variable of model %s has a value in every "
                           "row of the run: %s would have no column but "
                           "time",
                           model->name, csv);
    if (st == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
        st = hdo_error_set(err, HDO_ERR_IO, 0, 0,
                           "%s: cannot make the folder: %s", dir,
                           strerror(errno));
    if (st == 0 && (st = write_csv(csv, keep, res, model, err)) != 0 &&
        err != NULL)
        err->file = NULL;
    if (st == 0 && (st = write_opt(opt, res, step, err)) != 0 && err != NULL)
        err->file = NULL;
    free(csv);
    free(opt);
    free(keep);
    return st;
}
