/* result.c -- the result of a run: rows, events, per-mode facts; init, clear
 * and appending */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "linalg.h"
#include "result.h"

/* The fields of an empty result, except the three mpfr_t (initialised
   once, by hdo_result_init) and command_argv/command_argc (the
   caller's, kept across runs). */
static void
result_empty(hdo_result_t res)
{
    res->prec = 0;
    res->digits = 0;
    res->nvars = res->nmodes = 0;
    res->nrows = res->rows_alloc = 0;
    res->rows = NULL;
    res->nevents = res->events_alloc = 0;
    res->events = NULL;
    res->steps = 0;
    res->modes = NULL;
    res->nsliding = 0;
    res->sliding = NULL;
    res->event_digits = -1;
    res->event_digits_index = 0;
    res->start_adjusted = 0;
    res->seconds = 0;
    res->seconds_integration = res->seconds_events = 0;
    res->seconds_reduction = res->seconds_reinit = 0;
    res->order_sum = 0;
    res->implicit_steps = 0;
    res->method_switches = 0;
    res->method_arcs = NULL;
    res->nmethod_arcs = res->method_arcs_alloc = 0;
    res->cpu_seconds = 0;
}

/* Frees the rows, events and tables of a run (result_empty forgets
   them). */
static void
result_free(hdo_result_t res)
{
    for (slong i = 0; i < res->nrows; i++) {
        hdo_row *r = res->rows + i;
        mpfr_clear(r->time);
        hdo_vec_clear(r->values, res->nvars);
        free(r->present);
        free(r->mag);
        free(r->floor);
        free(r->scale);
    }
    free(res->rows);
    free(res->method_arcs);
    for (slong i = 0; i < res->nevents; i++) {
        hdo_event *e = res->events + i;
        mpfr_clear(e->time);
        hdo_vec_clear(e->left, res->nvars);
        hdo_vec_clear(e->right, res->nvars);
    }
    free(res->events);
    free(res->modes);
    free(res->sliding);
}

void
hdo_result_init(hdo_result_t res)
{
    result_empty(res);
    mpfr_init2(res->max_residual, 64);
    mpfr_set_ui(res->max_residual, 0, MPFR_RNDN);
    mpfr_init2(res->t0, 64);
    mpfr_init2(res->t_end, 64);
    mpfr_set_ui(res->t0, 0, MPFR_RNDN);
    mpfr_set_ui(res->t_end, 0, MPFR_RNDN);
    res->command_argv = NULL;
    res->command_argc = 0;
    res->live = HDO_RESULT_LIVE;
}

void
hdo_result_clear(hdo_result_t res)
{
    /* a cleared result is all zeros, live included: clearing it again
       must not free its mpfr_t twice */
    if (res->live != HDO_RESULT_LIVE)
        return;
    result_free(res);
    mpfr_clear(res->max_residual);
    mpfr_clear(res->t0);
    mpfr_clear(res->t_end);
    memset(res, 0, sizeof *res);
}

void
hdo_result_setup(hdo_result_t res, const hdo_model_t model, long digits,
                 mpfr_prec_t prec)
{
    /* a result that holds an earlier run is emptied, not appended to */
    result_free(res);
    result_empty(res);
    mpfr_set_ui(res->max_residual, 0, MPFR_RNDN);
    res->prec = prec;
    res->digits = digits;
    res->nvars = model->nvars;
    /* a model with lazy sign patterns: room for every id a run may
       give (hdo_model_id_n) */
    res->nmodes = hdo_model_id_n(model);
    res->modes = calloc(res->nmodes ? res->nmodes : 1, sizeof *res->modes);
    HDO_ASSERT(res->modes != NULL);
    for (slong m = 0; m < res->nmodes; m++)
        res->modes[m].mode = m;
    mpfr_set_prec(res->t0, prec);
    mpfr_set_prec(res->t_end, prec);
}

hdo_row *
hdo_result_add_row(hdo_result_t res, const mpfr_t t, slong mode)
{
    if (res->nrows == res->rows_alloc) {
        res->rows_alloc = res->rows_alloc ? 2 * res->rows_alloc : 1024;
        res->rows = realloc(res->rows, res->rows_alloc * sizeof *res->rows);
        HDO_ASSERT(res->rows != NULL);
    }
    hdo_row *r = res->rows + res->nrows++;
    mpfr_init2(r->time, res->prec);
    mpfr_set(r->time, t, MPFR_RNDN);
    r->mode = mode;
    r->values = hdo_vec_init(res->nvars, res->prec);
    r->present = calloc(res->nvars ? res->nvars : 1, sizeof *r->present);
    slong nv1 = res->nvars ? res->nvars : 1;
    r->mag = malloc(nv1 * sizeof *r->mag);
    r->floor = malloc(nv1 * sizeof *r->floor);
    r->scale = malloc(nv1 * sizeof *r->scale);
    HDO_ASSERT(r->present != NULL && r->mag != NULL && r->floor != NULL &&
               r->scale != NULL);
    r->sample = -1;
    for (slong v = 0; v < res->nvars; v++) {
        mpfr_set_nan(r->values + v);
        r->mag[v] = r->floor[v] = r->scale[v] = -INFINITY;
    }
    return r;
}

hdo_event *
hdo_result_add_event(hdo_result_t res, const mpfr_t t, slong from, slong to,
                     hdo_event_kind kind, const char *guard)
{
    if (res->nevents == res->events_alloc) {
        res->events_alloc = res->events_alloc ? 2 * res->events_alloc : 64;
        res->events =
            realloc(res->events, res->events_alloc * sizeof *res->events);
        HDO_ASSERT(res->events != NULL);
    }
    hdo_event *e = res->events + res->nevents++;
    e->index = res->nevents;
    mpfr_init2(e->time, res->prec);
    mpfr_set(e->time, t, MPFR_RNDN);
    e->from = from;
    e->to = to;
    e->kind = kind;
    e->guard = guard;
    e->row_left = e->row_right = -1;
    e->left = hdo_vec_init(res->nvars, res->prec);
    e->right = hdo_vec_init(res->nvars, res->prec);
    for (slong v = 0; v < res->nvars; v++) {
        mpfr_set_nan(e->left + v);
        mpfr_set_nan(e->right + v);
    }
    return e;
}

slong
hdo_result_absolute(slong *first, const hdo_result_t res, slong v)
{
    slong n = 0;
    *first = -1;
    for (slong i = 0; i < res->nrows; i++) {
        const hdo_row *r = res->rows + i;
        /* an exact zero is not counted: it is zero in both runs or
           compared absolutely by --verify, and has no digits to lose */
        if (!r->present[v] || r->floor == NULL || !(r->floor[v] > -INFINITY) ||
            !mpfr_regular_p(r->values + v))
            continue;
        double m = r->mag[v];
        if (hdo_log2_abs(r->values + v) > m)
            m = hdo_log2_abs(r->values + v);
        if (m < r->floor[v]) {
            if (*first < 0)
                *first = i;
            n++;
        }
    }
    return n;
}
