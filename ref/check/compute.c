/* compute.c -- hdo check's reference run, the tube of every compared
 * variable, the pairing of events, and the verdict */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "util.h"

/* The reference samples (ref/compare/reference.c), with the errors
   placed: a candidate that starts before t0 at its first row, a model
   without a span at the model. */
static int
reference(hdo_check_t s, hdo_error_t *err)
{
    double t0 = hdo_clock_now();
    int st;
    hdo_error_clear(err);
    st = hdo_check_reference(s->ref, s->ref_ev, s->model, s->var, s->nvar,
                             s->cand->time, s->cand->nrows, s->tol->time_abs,
                             s->opt.digits, err);
    s->seconds_ref = hdo_clock_now() - t0;
    if (st == 0)
        return 0;
    if (st == HDO_ERR_INPUT && err->file == NULL && err->line == 0) {
        /* the candidate starts before t0, or the model's span is
           undefined */
        if (strstr(err->message, "candidate") != NULL) {
            err->file = s->opt.cand_path;
            err->line = s->cand->line[0];
            err->col = 1;
        } else {
            err->file = s->opt.model_path;
        }
    } else if (st == HDO_ERR_MEMORY) {
        size_t l = strlen(err->message);
        snprintf(err->message + l, sizeof err->message - l,
                 " (the candidate has %ld rows)", (long)s->cand->nrows);
    } else {
        s->run_status = st;
    }
    return st;
}

/* The tubes and the event pairing. */
static int
compare(hdo_check_t s)
{
    hdo_csv_struct *c = s->cand;
    hdo_tol_struct *t = s->tol;
    s->tube = calloc((size_t)s->nvar + 1, sizeof(hdo_tube_struct));
    if (s->tube == NULL)
        return HDO_ERR_MEMORY;
    for (slong j = 0; j < s->nvar; j++) {
        hdo_tube_init(s->tube + j);
        if (hdo_tube_compare(s->tube + j, s->ref->t, s->ref->v + j * s->ref->n,
                             s->ref->n, c->time, c->values + s->col[j],
                             c->present + s->col[j], c->ncols, c->nrows,
                             t->time_abs, t->value_abs, t->value_rel))
            return HDO_ERR_MEMORY;
    }
    hdo_evlist_merge_cascades(s->ref_ev);
    hdo_evlist_merge_cascades(s->cand_ev);
    /* Without an events file, a mode column or repeated time rows (the
       output of a fixed-step solver or a co-simulation), the candidate
       does not give its events: it is judged on its values alone. */
    s->events_given =
        s->opt.events_path != NULL || c->has_mode || s->cand_ev->n > 0;
    if (!s->events_given)
        return 0;
    if (hdo_events_match(s->match, s->ref_ev, s->cand_ev, t->time_abs,
                         t->modes_exact, c->time[0], c->time[c->nrows - 1]))
        return HDO_ERR_MEMORY;
    hdo_matching_excuse_end(s->match, s->ref_ev, s->cand_ev, s->ref->t_end,
                            t->time_abs);
    return 0;
}

int
hdo_check_compute(hdo_check_t s, hdo_error_t *err)
{
    int st = reference(s, err);
    double t0 = hdo_clock_now();
    if (st != 0)
        return st;
    st = compare(s);
    s->seconds_compare = hdo_clock_now() - t0;
    if (st != 0)
        return hdo_error_set(err, st, 0, 0, "out of memory comparing %ld rows",
                             (long)s->cand->nrows);
    return 0;
}

int
hdo_check_run(hdo_check_t s, const hdo_check_options *opt, hdo_error_t *err)
{
    int st = hdo_check_read_model(s, opt, err);
    if (st == 0)
        st = hdo_check_read_inputs(s, err);
    if (st == 0)
        st = hdo_check_compute(s, err);
    return st;
}

int
hdo_check_variable_failed(const hdo_check_t s, slong j)
{
    return hdo_tube_failed(s->tube + j);
}

int
hdo_check_failed(const hdo_check_t s)
{
    for (slong j = 0; j < s->nvar; j++)
        if (hdo_check_variable_failed(s, j))
            return 1;
    return s->match->nfailed > 0;
}
