/* outputs.c -- a run's result folder: trajectory.csv, events.csv and
 * summary.json written as one set (ref/outdir.h) */
#include "hybrid.h"
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

int
hdo_run_outputs_write(const char *dir, const hdo_result_t res,
                      const hdo_model_t model, long verified_digits,
                      hdo_error_t *err)
{
    hdo_outdir od = {dir, names, 3};
    outputs_data d = {res, model, verified_digits};
    return hdo_outdir_commit(&od, write_one, &d, err);
}
