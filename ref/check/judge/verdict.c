/* verdict.c -- hdo check's judgement: the check's state (init, clear),
 * the reference run, the tube of every compared variable, the pairing of
 * events, the verdict and the figures of the summary line */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "util.h"

void
hdo_check_options_init(hdo_check_options *opt)
{
    memset(opt, 0, sizeof *opt);
    /* those of `hdo run` by default, so that the reference is the one
       hdo run computes */
    opt->digits = HDO_DIGITS_DEFAULT;
    opt->time_abs = opt->value_abs = opt->value_rel = NAN;
}

void
hdo_check_init(hdo_check_t s)
{
    memset(s, 0, sizeof *s);
    hdo_check_options_init(&s->opt);
    hdo_model_init(s->model);
    hdo_csv_init(s->cand);
    hdo_tol_init(s->tol);
    hdo_evfile_init(s->evfile);
    hdo_evlist_init(s->cand_ev);
    hdo_evlist_init(s->ref_ev);
    hdo_matching_init(s->match);
    hdo_refsamp_init(s->ref);
}

void
hdo_check_clear(hdo_check_t s)
{
    if (s->tube != NULL)
        for (slong j = 0; j < s->nvar; j++)
            hdo_tube_clear(s->tube + j);
    free(s->tube);
    hdo_refsamp_clear(s->ref);
    free(s->ignored);
    free(s->col);
    free(s->var);
    free(s->mode_map);
    free(s->tol_default);
    free(s->tol_looked);
    free(s->plot_file);
    hdo_matching_clear(s->match);
    hdo_evlist_clear(s->ref_ev);
    hdo_evlist_clear(s->cand_ev);
    hdo_evfile_clear(s->evfile);
    hdo_tol_clear(s->tol);
    hdo_csv_clear(s->cand);
    hdo_model_clear(s->model);
    /* all zeros, which every clear above takes as empty: a second
       hdo_check_clear frees nothing twice */
    memset(s, 0, sizeof *s);
}

/* The reference samples (ref/check/judge/reference.c), from the check's
   own run or from run (shared by several candidates), with the errors
   placed: a candidate that starts before t0 at its first row, a model
   without a span at the model. */
static int
reference(hdo_check_t s, const hdo_refrun_struct *run, hdo_error_t *err)
{
    double t0 = hdo_clock_now();
    int st;
    hdo_error_clear(err);
    if (run == NULL)
        st = hdo_check_reference(s->ref, s->ref_ev, s->model, s->var, s->nvar,
                                 s->cand->time, s->cand->nrows,
                                 s->tol->time_abs, s->opt.digits, err);
    else
        st = hdo_refrun_sample(s->ref, s->ref_ev, run, s->var, s->nvar,
                               s->cand->time, s->cand->nrows, s->tol->time_abs,
                               err);
    s->seconds_ref = hdo_clock_now() - t0;
    if (st == 0)
        return 0;
    if (st == HDO_ERR_INPUT && err->file == NULL && err->line == 0) {
        /* the candidate starts before t0 (at its first row), or the
           model's span is undefined (at the model) */
        if (err->input == HDO_INPUT_CANDIDATE) {
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

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int
hdo_check_shared_run(hdo_refrun_t run, hdo_check_struct *const *s, slong n,
                     hdo_progress_fn progress, void *progress_data,
                     hdo_error_t *err)
{
    double t0, t_end, run_end = -INFINITY, *all = NULL;
    slong nall = 0, nvar = 0, *var = NULL;
    int st;
    hdo_error_clear(err);
    if (n < 1)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0, "no candidate");
    if ((st = hdo_check_model_span(&t0, &t_end, s[0]->model, err)) != 0) {
        err->file = s[0]->opt.model_path;
        return st;
    }
    for (slong i = 0; i < n; i++) {
        const hdo_csv_struct *c = s[i]->cand;
        double *x, *y;
        slong nx;
        hdo_error_t e2;
        /* a candidate that starts before t0 is refused by its own
           hdo_check_compute_from, at its first row */
        if (hdo_check_sample_times(&x, &nx, c->time, c->nrows,
                                   s[i]->tol->time_abs, t0, &e2) != 0)
            continue;
        y = realloc(all, (size_t)(nall + nx + 1) * sizeof(double));
        if (y == NULL) {
            free(x);
            free(all);
            free(var);
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        }
        all = y;
        memcpy(all + nall, x, (size_t)nx * sizeof(double));
        nall += nx;
        free(x);
        if (c->time[c->nrows - 1] + s[i]->tol->time_abs > run_end)
            run_end = c->time[c->nrows - 1] + s[i]->tol->time_abs;
        for (slong j = 0; j < s[i]->nvar; j++) {
            slong k = 0;
            while (k < nvar && var[k] != s[i]->var[j])
                k++;
            if (k < nvar)
                continue;
            slong *v2 = realloc(var, (size_t)(nvar + 1) * sizeof(slong));
            if (v2 == NULL) {
                free(all);
                free(var);
                return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                     "out of memory");
            }
            var = v2;
            var[nvar++] = s[i]->var[j];
        }
    }
    if (nall > 0) {
        slong m = 0;
        qsort(all, (size_t)nall, sizeof(double), cmp_double);
        for (slong i = 0; i < nall; i++)
            if (m == 0 || all[i] != all[m - 1])
                all[m++] = all[i];
        st = hdo_refrun_compute(run, s[0]->model, var, nvar, all, m, run_end,
                                s[0]->opt.digits, progress, progress_data, err);
    }
    free(all);
    free(var);
    return st;
}

/* Which reference events the candidate can show: every one when it gives
   an events file; else one that jumps a compared variable (its two limits
   differ by more than the value band, hdo_cells_jump), or, when the
   candidate has a mode column, one that changes the mode.  An event that
   changes no column the candidate has (stick to slip on a belt, in a
   candidate without modes: the state is continuous) cannot be seen in
   it: it is listed as not observable, never as missing, and the
   candidate's values around it are judged by the tube as everywhere. */
static void
mark_observable(hdo_check_t s)
{
    const hdo_refsamp_struct *r = s->ref;
    const hdo_tol_struct *t = s->tol;
    for (slong e = 0; e < s->ref_ev->n; e++) {
        hdo_cmp_event *ev = s->ref_ev->ev + e;
        slong k = ev->sample;
        int seen = s->opt.events_path != NULL ||
                   (s->cand->has_mode && ev->from != ev->to) || k < 0;
        for (slong j = 0; !seen && j < s->nvar; j++) {
            double a = r->v[j * r->n + k], b = r->v[j * r->n + k + 1];
            seen = hdo_cells_jump(a, !isnan(a), b, !isnan(b), t->value_abs,
                                  t->value_rel);
        }
        ev->observable = seen;
    }
}

/* Whether the candidate has an event that is not at the end time. */
static int
cand_events_before_end(const hdo_evlist_t ev, double t_end, double time_abs)
{
    for (slong k = 0; k < ev->n; k++)
        if (isnan(t_end) || ev->ev[k].t_hi < t_end - time_abs ||
            ev->ev[k].t_lo > t_end + time_abs)
            return 1;
    return 0;
}

/* Leaves out of list the events that keep their mode (from == to) within
   time_abs of a crossing of a relation (the reference's crossings): no
   mode change, and what jumps there (an algebraic unknown whose
   equation's branch changes, as the water tube's friction factors) is
   judged by the tubes.  Applied to both sides, so a crossing that the
   run labels with another kind (two crossings at one instant:
   `simultaneous`) is left out as well (issue #28, cases/water_tube). */
static void
drop_at_crossings(hdo_evlist_t list, const hdo_evlist_struct *cross,
                  double time_abs)
{
    slong k = 0;
    for (slong i = 0; i < list->n; i++) {
        const hdo_cmp_event *e = list->ev + i;
        int at = 0;
        for (slong c = 0; c < cross->n && !at && e->from == e->to; c++)
            at = e->t_lo <= cross->ev[c].t_hi + time_abs &&
                 e->t_hi >= cross->ev[c].t_lo - time_abs;
        if (!at)
            list->ev[k++] = *e;
    }
    list->n = k;
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
    mark_observable(s);
    drop_at_crossings(s->ref_ev, s->ref->crossings, t->time_abs);
    drop_at_crossings(s->cand_ev, s->ref->crossings, t->time_abs);
    hdo_evlist_merge_cascades(s->ref_ev);
    hdo_evlist_merge_cascades(s->cand_ev);
    /* Without an events file, a mode column or repeated time rows (the
       output of a fixed-step solver or a co-simulation), the candidate
       does not give its events: it is judged on its values alone. Rows
       repeated at the end time only do not give them either: an event
       there is not judged (OMSimulator writes every row twice and its
       one event at the stop time). */
    s->events_given =
        s->opt.events_path != NULL || c->has_mode ||
        cand_events_before_end(s->cand_ev, s->ref->t_end, t->time_abs);
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
    return hdo_check_compute_from(s, NULL, err);
}

int
hdo_check_compute_from(hdo_check_t s, const hdo_refrun_struct *run,
                       hdo_error_t *err)
{
    int st = reference(s, run, err);
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

/* The first failing row of variable j (outside the tube or not
   compared), -1 if none. */
slong
hdo_check_first_bad_row(const hdo_check_t s, slong j)
{
    const hdo_tube_struct *tb = s->tube + j;
    slong i = tb->first_fail;
    if (tb->first_uncompared >= 0 && (i < 0 || tb->first_uncompared < i))
        i = tb->first_uncompared;
    return i;
}

slong
hdo_check_missing_tail(double *t_last, const hdo_check_t s)
{
    slong k = s->match->n, nmore = 0;
    *t_last = NAN;
    if (!s->events_given)
        return 0;
    while (k > 0 && s->match->m[k - 1].cand < 0 &&
           (s->match->m[k - 1].verdict == HDO_MATCH_MISSING ||
            !hdo_match_judged(s->match->m[k - 1].verdict))) {
        const hdo_cmp_event *e = s->ref_ev->ev + s->match->m[k - 1].ref;
        /* an event the candidate cannot show is not one it misses */
        if (s->match->m[k - 1].verdict != HDO_MATCH_UNOBSERVABLE) {
            if (isnan(*t_last))
                *t_last = e->t_hi;
            nmore += e->count;
        }
        k--;
    }
    return nmore;
}

int
hdo_tube_failed(const hdo_tube_t tube)
{
    return tube->nfailed > 0 || tube->ncompared == 0 || tube->nnoref > 0 ||
           tube->nnocand > 0;
}

void
hdo_check_summarize(hdo_check_summary *sm, const hdo_tube_struct *tubes,
                    slong nvar, const double *cand_t, const double *cand_v,
                    const unsigned char *cand_present, slong ncols,
                    const slong *col, slong nrows, const hdo_matching_t match,
                    int events_given)
{
    memset(sm, 0, sizeof *sm);
    sm->value_var = -1;
    sm->event_time_err = NAN;
    sm->point_err = NAN;
    sm->nvar = nvar;
    sm->events_given = events_given;
    for (slong j = 0; j < nvar; j++) {
        const hdo_tube_struct *tb = tubes + j;
        sm->vars_failed += hdo_tube_failed(tb);
        sm->rows_compared += tb->ncompared;
        sm->rows_uncompared += tb->nnoref + tb->nnocand;
        if (tb->max_diff_row >= 0 && !(tb->max_diff <= sm->point_err))
            sm->point_err = tb->max_diff;
        for (slong i = 0; i < nrows; i++) {
            slong k = i * ncols + col[j];
            double v = cand_v[k], e;
            if (!cand_present[k] || isnan(tb->lo[i]))
                continue;
            e = isnan(v)        ? INFINITY
                : v < tb->lo[i] ? tb->lo[i] - v
                : v > tb->hi[i] ? v - tb->hi[i]
                                : 0;
            if (e > sm->value_err) {
                sm->value_err = e;
                sm->value_t = cand_t[i];
                sm->value_var = j;
            }
        }
        if (tb->worst >= 0 && tb->worst_err > 0) {
            double r = tb->worst_allowed > 0 ? tb->worst_err / tb->worst_allowed
                                             : INFINITY;
            sm->value_ratio = r > sm->value_ratio ? r : sm->value_ratio;
        }
    }
    for (slong k = 0; k < match->n; k++) {
        const hdo_match *m = match->m + k;
        sm->events_unobservable += m->verdict == HDO_MATCH_UNOBSERVABLE;
        sm->events_outside += m->verdict == HDO_MATCH_OUTSIDE;
        sm->events_at_end += m->verdict == HDO_MATCH_AT_END && m->ref >= 0;
        if (!hdo_match_judged(m->verdict))
            continue;
        sm->events_ref += m->ref >= 0;
        sm->events_cand += m->cand >= 0;
        if (m->verdict == HDO_MATCH_MISSING)
            sm->events_missing++;
        else if (m->verdict == HDO_MATCH_EXTRA)
            sm->events_extra++;
        else if (m->verdict != HDO_MATCH_OK)
            sm->events_wrong++;
        if (!isnan(m->diff) && !(fabs(m->diff) <= sm->event_time_err))
            sm->event_time_err = fabs(m->diff);
    }
    sm->failed = sm->vars_failed > 0 || match->nfailed > 0;
}

void
hdo_check_summary_of(hdo_check_summary *sm, const hdo_check_t s)
{
    const hdo_csv_struct *c = s->cand;
    hdo_check_summarize(sm, s->tube, s->nvar, c->time, c->values, c->present,
                        c->ncols, s->col, c->nrows, s->match, s->events_given);
    /* Without the candidate's events nothing is paired: the reference
       events in its span are still counted, so that the report's "N
       reference" and the summary line say the same. */
    if (!s->events_given)
        for (slong e = 0; e < s->ref_ev->n; e++)
            sm->events_ref += s->ref_ev->ev[e].t_lo >= c->time[0] &&
                              s->ref_ev->ev[e].t_lo <= c->time[c->nrows - 1];
}
