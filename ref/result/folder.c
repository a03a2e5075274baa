/* folder.c -- a run's result folder: trajectory.csv, events.csv and
 * summary.json written as one set (ref/outdir.h) */
#include <string.h>
#include "result.h"
#include "outdir.h"

static const char *const names[] = {"trajectory.csv", "events.csv",
                                    "summary.json"};

typedef struct {
    const hdo_result_struct *res;
    const hdo_model_struct *model;
    long verified;
} outputs_data;

static int
write_one(FILE *f, int i, void *data, hdo_error_t *err)
{
    const outputs_data *d = data;
    hdo_result_struct *res = (hdo_result_struct *)d->res;
    hdo_model_struct *model = (hdo_model_struct *)d->model;
    return i == 0   ? hdo_write_trajectory(f, res, model, res->digits, err)
           : i == 1 ? hdo_write_events(f, res, model, res->digits, err)
                    : hdo_write_summary(f, res, model, d->verified, err);
}

int
hdo_run_outputs_prepare(const char *dir, hdo_error_t *err)
{
    hdo_outdir od = {dir, names, 3};
    return hdo_outdir_prepare(&od, err);
}

/* One line for the values below their scale floors (hdo_result_absolute):
   how many, of which variables (the first three by name), from when. */
static void
write_absolute_note(FILE *f, const hdo_result_t res,
                    const hdo_model_struct *model, long digits)
{
    slong nvars = 0, total = 0, from = -1;
    char listed[256] = "";
    size_t len = 0;
    for (slong v = 0; v < res->nvars; v++) {
        slong first, n = hdo_result_absolute(&first, res, v);
        if (n == 0)
            continue;
        if (nvars < 3 && len < sizeof listed)
            len += (size_t)snprintf(listed + len, sizeof listed - len,
                                    "%s%s: %ld", nvars ? ", " : "",
                                    model->vars[v].name, (long)n);
        nvars++;
        total += n;
        if (from < 0 ||
            mpfr_cmp(res->rows[first].time, res->rows[from].time) < 0)
            from = first;
    }
    if (nvars == 0)
        return;
    mpfr_fprintf(f,
                 "%s: note: %ld values of %ld variable%s (%s%s), from t = "
                 "%.10Rg, are below their scale floors (10^-%ld of the "
                 "variable's largest magnitude, its nominal value, or on "
                 "short arcs the rounding of the time): their digits are "
                 "absolute, against that magnitude, not significant "
                 "(summary.json \"absolute_values\"; cli.md)\n",
                 model->file, (long)total, (long)nvars, nvars > 1 ? "s" : "",
                 listed, nvars > 3 ? ", ..." : "", res->rows[from].time,
                 digits + HDO_TOL_GUARD_DIGITS);
}

void
hdo_run_write_notes(FILE *f, const hdo_result_t res,
                    const hdo_model_struct *model, long digits)
{
    for (slong k = 0; k < res->nmodes; k++) {
        if (!res->modes[k].used || !res->modes[k].km_fallback)
            continue;
        /* the sign patterns of a mode share its name: one note each */
        slong e;
        for (e = 0; e < k; e++)
            if (res->modes[e].used && res->modes[e].km_fallback &&
                strcmp(model->modes[e].name, model->modes[k].name) == 0)
                break;
        if (e == k)
            fprintf(f,
                    "%s: note: mode %s: Pryce's structural analysis gives a "
                    "numerically singular system; it was integrated in the "
                    "Kunkel-Mehrmann form (summary.json \"analysis\": "
                    "\"km-fallback\")\n",
                    model->file, model->modes[k].name);
    }
    write_absolute_note(f, res, model, digits);
    if (res->event_digits >= 0)
        fprintf(f,
                "%s: warning: the time of event %ld is determined to only %ld "
                "of the %ld digits (a multiple root of its switching "
                "function: a state known to 10^-%ld fixes it no better); "
                "summary.json \"event_digits\"\n",
                model->file, (long)res->event_digits_index, res->event_digits,
                digits, digits + HDO_TOL_GUARD_DIGITS);
}

int
hdo_run_outputs_write(const char *dir, const hdo_result_t res,
                      const hdo_model_t model, long verified_digits,
                      hdo_error_t *err)
{
    hdo_outdir od = {dir, names, 3};
    outputs_data d = {res, model, verified_digits};
    return hdo_outdir_commit(&od, write_one, &d, err);
}
