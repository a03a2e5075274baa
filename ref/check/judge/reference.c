/* reference.c -- hdo check's reference: the run of the model sampled
   around every candidate time, kept as doubles of the compared variables
   only (rows pass through hdo_run's row sink and are never stored at the
   run precision), with both limits of every event. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void
hdo_refsamp_init(hdo_refsamp_t r)
{
    memset(r, 0, sizeof *r);
}

void
hdo_refsamp_clear(hdo_refsamp_t r)
{
    free(r->t);
    free(r->v);
    hdo_evlist_clear(r->crossings);
    memset(r, 0, sizeof *r);
}

/* The rows as they arrive, in time order. */
typedef struct {
    const slong *var;
    slong nvar, n, alloc;
    double *t, *v; /* v: row-major, nvar per row */
    int failed;    /* out of memory */
    hdo_fastrow_t fast;
} sink_data;

/* Room for one more row; 0 when out of memory. */
static int
sink_room(sink_data *d)
{
    if (d->n == d->alloc) {
        slong na = d->alloc ? d->alloc + d->alloc / 2 + 64 : 4096;
        double *t = realloc(d->t, (size_t)na * sizeof(double));
        double *v;
        if (t == NULL) {
            d->failed = 1;
            return 0;
        }
        d->t = t;
        v = realloc(d->v, (size_t)na * (size_t)(d->nvar + 1) * sizeof(double));
        if (v == NULL) {
            d->failed = 1;
            return 0;
        }
        d->v = v;
        d->alloc = na;
    }
    return 1;
}

/* A sample row inside a step: its doubles from the dense output in
   double-double when they are proven (fastrow.c), else 0 (the run
   computes the row and hands it to sink_row). */
static int
sink_dense(void *data, const hdo_dense_sample *smp)
{
    sink_data *d = data;
    if (d->failed || !sink_room(d))
        return 0;
    if (!hdo_fastrow_eval(d->t + d->n, d->v + d->n * d->nvar, d->fast, smp))
        return 0;
    d->n++;
    return 1;
}

static void
sink_row(void *data, const hdo_row *row)
{
    sink_data *d = data;
    if (d->failed || !sink_room(d))
        return;
    d->t[d->n] = mpfr_get_d(row->time, MPFR_RNDN);
    for (slong j = 0; j < d->nvar; j++)
        d->v[d->n * d->nvar + j] =
            mpfr_get_d(row->values + d->var[j], MPFR_RNDN);
    d->n++;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int
hdo_check_model_span(double *t0, double *t_end, hdo_model_t model,
                     hdo_error_t *err)
{
    mpfr_t x;
    int st;
    mpfr_init2(x, 64);
    st = hdo_expr_eval_constant(x, model->pool, model->t0);
    *t0 = mpfr_get_d(x, MPFR_RNDN);
    *t_end = NAN;
    if (st == 0 && model->t_end != HDO_EXPR_NONE) {
        st = hdo_expr_eval_constant(x, model->pool, model->t_end);
        *t_end = mpfr_get_d(x, MPFR_RNDN);
    }
    mpfr_clear(x);
    if (st) {
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "the start or end time is undefined");
        if (err != NULL)
            err->input = HDO_INPUT_MODEL;
        return HDO_ERR_INPUT;
    }
    return 0;
}

void
hdo_refrun_init(hdo_refrun_t run)
{
    memset(run, 0, sizeof *run);
}

void
hdo_refrun_clear(hdo_refrun_t run)
{
    free(run->var);
    free(run->times);
    free(run->t);
    free(run->v);
    free(run->ev_t);
    free(run->ev_v);
    free(run->ev_kind);
    free(run->ev_from);
    free(run->ev_to);
    memset(run, 0, sizeof *run);
}

/* The sample times of one candidate (sorted, each once) into a new array:
   t - time_abs, t - time_abs/2, t, t + time_abs/2, t + time_abs of every
   candidate time t (the window ends and its middle, so that the window's
   range is right for a reference that is monotone or has one extremum in
   each half of the window), from t0 on, and up to the candidate's last
   time + time_abs.  Their number, or -1 when out of memory. */
static slong
sample_times(double **times, const double *cand_t, slong ncand, double ta,
             double t0)
{
    double t_end = cand_t[ncand - 1] + ta;
    slong n = 0, ns = 0;
    double *x = malloc((size_t)(ncand * 5 + 1) * sizeof(double));
    *times = x;
    if (x == NULL)
        return -1;
    for (slong i = 0; i < ncand; i++) {
        double t = cand_t[i];
        double pts[5] = {t - ta, t - ta / 2, t, t + ta / 2, t + ta};
        for (int k = 0; k < 5; k++)
            if (pts[k] >= t0)
                x[n++] = pts[k] <= t_end ? pts[k] : t_end;
    }
    qsort(x, (size_t)n, sizeof(double), cmp_double);
    for (slong i = 0; i < n; i++)
        if (ns == 0 || x[i] != x[ns - 1])
            x[ns++] = x[i];
    return ns;
}

/* The candidate that starts before t0 (or has no row): the error, at the
   candidate. */
static int
early_candidate(const double *cand_t, slong ncand, double t0, hdo_error_t *err)
{
    if (ncand < 1)
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0, "no candidate row");
    else
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "the candidate starts at t = %.17g, before the "
                      "model's start t0 = %.17g",
                      cand_t[0], t0);
    if (err != NULL)
        err->input = HDO_INPUT_CANDIDATE;
    return HDO_ERR_INPUT;
}

int
hdo_check_sample_times(double **times, slong *ntimes, const double *cand_t,
                       slong ncand, double time_abs, double t0,
                       hdo_error_t *err)
{
    *times = NULL;
    *ntimes = 0;
    if (ncand < 1 || cand_t[0] < t0)
        return early_candidate(cand_t, ncand, t0, err);
    *ntimes = sample_times(times, cand_t, ncand, time_abs, t0);
    if (*ntimes < 0) {
        *ntimes = 0;
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                             "out of memory: %ld candidate rows", (long)ncand);
    }
    return 0;
}

int
hdo_refrun_compute(hdo_refrun_t run, hdo_model_t model, const slong *var,
                   slong nvar, const double *times, slong ntimes,
                   double run_end, long digits, hdo_progress_fn progress,
                   void *progress_data, hdo_error_t *err)
{
    slong ns = ntimes, nev;
    hdo_run_options opt;
    hdo_result_t res;
    sink_data d;
    char until[64];
    fmpq_t until_q;
    int st;

    hdo_refrun_clear(run);
    run->digits = digits;
    run->run_end = run_end;
    st = hdo_check_model_span(&run->t0, &run->t_end, model, err);
    if (st)
        return st;
    run->nvar = nvar;
    run->var = malloc((size_t)(nvar + 1) * sizeof(slong));
    run->times = malloc((size_t)(ns + 1) * sizeof(double));
    if (run->var == NULL || run->times == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    memcpy(run->var, var, (size_t)nvar * sizeof(slong));
    memcpy(run->times, times, (size_t)ns * sizeof(double));
    run->ntimes = ns;

    memset(&d, 0, sizeof d);
    d.var = var;
    d.nvar = nvar;
    /* Room for every sample before the run starts (event rows grow it a
       little more), and for the merged copy after it: memory that is not
       there is a clear error now, not an abort half way through a run. */
    d.alloc = ns + 64;
    d.t = malloc((size_t)d.alloc * sizeof(double));
    d.v = malloc((size_t)d.alloc * (size_t)(nvar + 1) * sizeof(double));
    {
        void *probe =
            malloc((size_t)d.alloc * (size_t)(nvar + 2) * sizeof(double));
        if (d.t == NULL || d.v == NULL || probe == NULL) {
            free(probe);
            free(d.t);
            free(d.v);
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                 "out of memory: %ld reference samples need "
                                 "%.0f MB",
                                 (long)ns,
                                 2e-6 * (double)ns * (double)(nvar + 2) * 8);
        }
        free(probe);
    }
    hdo_run_options_init(&opt);
    opt.digits = digits;
    /* the end time as the decimal the double prints as (%.17g), read
       exactly: the reference of earlier versions, bit for bit */
    snprintf(until, sizeof until, "%.17g", run_end);
    fmpq_init(until_q);
    st = hdo_run_parse_time(until_q, "--until", until, 0, err);
    if (st != 0) { /* run_end beyond the doubles: "inf" */
        fmpq_clear(until_q);
        free(d.t);
        free(d.v);
        return st;
    }
    opt.until = until_q;
    opt.sample_times = times;
    opt.nsample_times = ns;
    opt.row_sink = sink_row;
    opt.dense_row = sink_dense;
    opt.row_sink_data = &d;
    hdo_fastrow_init(d.fast, var, nvar);
    opt.progress = progress;
    opt.progress_data = progress_data;
    hdo_result_init(res);
    st = hdo_run(res, model, &opt, err);
    run->rows_fast = d.fast->nfast;
    run->rows_slow = d.fast->nslow;
    hdo_fastrow_clear(d.fast);
    if (st == 0 && d.failed)
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                           "out of memory holding %ld reference samples",
                           (long)d.n);
    if (st != 0)
        goto done;
    run->steps = res->steps;
    run->nrun_events = res->nevents;
    /* the events as doubles: time, kind, modes, both limits */
    nev = res->nevents;
    run->ev_t = malloc((size_t)(nev + 1) * sizeof(double));
    run->ev_v =
        malloc((size_t)(2 * nev + 1) * (size_t)(nvar + 1) * sizeof(double));
    run->ev_kind = malloc((size_t)(nev + 1) * sizeof(int));
    run->ev_from = malloc((size_t)(nev + 1) * sizeof(slong));
    run->ev_to = malloc((size_t)(nev + 1) * sizeof(slong));
    if (run->ev_t == NULL || run->ev_v == NULL || run->ev_kind == NULL ||
        run->ev_from == NULL || run->ev_to == NULL) {
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        goto done;
    }
    for (slong e = 0; e < nev; e++) {
        const hdo_event *ev = res->events + e;
        run->ev_t[e] = mpfr_get_d(ev->time, MPFR_RNDN);
        run->ev_kind[e] = ev->kind;
        run->ev_from[e] = hdo_mode_id_family(model, ev->from);
        run->ev_to[e] = hdo_mode_id_family(model, ev->to);
        for (int side = 0; side < 2; side++) {
            mpfr_srcptr x = side == 0 ? ev->left : ev->right;
            for (slong j = 0; j < nvar; j++)
                run->ev_v[(2 * e + side) * nvar + j] =
                    mpfr_get_d(x + var[j], MPFR_RNDN);
        }
    }
    run->nev = nev;
    run->n = d.n;
    run->t = d.t;
    run->v = d.v;
    d.t = d.v = NULL;
done:
    fmpq_clear(until_q);
    free(d.t);
    free(d.v);
    hdo_result_clear(res);
    return st;
}

/* Which of the run's rows (times non-decreasing) a candidate keeps:
   keep[i] = 1 for a row up to t_end, not at an event time, and at one
   of the candidate's own sample times or at no sample time of any
   candidate (a row the run made of itself).  One forward merge of the
   sorted lists, not a binary search a row and list: with 50 candidates
   of 1,000 rows the searches were a fifth of the check (issue 26). */
static void
keep_rows(unsigned char *keep, const hdo_refrun_struct *run, const double *own,
          slong nown, double t_end)
{
    slong pe = 0, po = 0, pt = 0;
    for (slong i = 0; i < run->n; i++) {
        double x = run->t[i];
        int at_event, mine, sampled;
        while (pe < run->nev && run->ev_t[pe] < x)
            pe++;
        while (po < nown && own[po] < x)
            po++;
        while (pt < run->ntimes && run->times[pt] < x)
            pt++;
        at_event = pe < run->nev && run->ev_t[pe] == x;
        mine = po < nown && own[po] == x;
        sampled = pt < run->ntimes && run->times[pt] == x;
        keep[i] = x <= t_end && !at_event && (mine || !sampled);
    }
}

int
hdo_refrun_sample(hdo_refsamp_t ref, hdo_evlist_t ref_ev,
                  const hdo_refrun_t run, const slong *var, slong nvar,
                  const double *cand_t, slong ncand, double time_abs,
                  hdo_error_t *err)
{
    double ta = time_abs, t_end, *own = NULL;
    slong nown, nk = 0, *col;
    unsigned char *keep = NULL;
    int st = 0;

    hdo_refsamp_clear(ref);
    ref->digits = run->digits;
    ref->nvar = nvar;
    ref->t0 = run->t0;
    ref->t_end = run->t_end;
    ref->steps = run->steps;
    ref->nrun_events = run->nrun_events;
    if ((st = hdo_check_sample_times(&own, &nown, cand_t, ncand, ta, run->t0,
                                     err)) != 0)
        return st;
    t_end = cand_t[ncand - 1] + ta;
    col = malloc((size_t)(nvar + 1) * sizeof(slong));
    if (col == NULL) {
        free(own);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    /* the candidate's variables among the run's */
    for (slong j = 0; j < nvar; j++) {
        col[j] = -1;
        for (slong q = 0; q < run->nvar && col[j] < 0; q++)
            if (run->var[q] == var[j])
                col[j] = q;
        if (col[j] < 0) {
            free(own);
            free(col);
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "the reference run does not hold the "
                                 "variable %ld",
                                 (long)var[j]);
        }
    }
    /* The candidate's own samples: the rows at its sample times, and the
       rows the run made of itself (at no sample time of any candidate),
       up to its last time + time_abs -- with one candidate, every row.
       Rows at an event time are left out: which limit such a row holds
       is the run's choice, and the tube takes the limits from the
       events. */
    keep = malloc((size_t)(run->n + 1));
    if (keep == NULL) {
        free(own);
        free(col);
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    keep_rows(keep, run, own, nown, t_end);
#define KEEP(i) keep[i]
    for (slong i = 0; i < run->n; i++)
        nk += KEEP(i);
    ref->n = nk + 2 * run->nev;
    ref->t = malloc((size_t)(ref->n + 1) * sizeof(double));
    ref->v = malloc((size_t)(ref->n + 1) * (size_t)(nvar + 1) * sizeof(double));
    if (ref->t == NULL || ref->v == NULL) {
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                           "out of memory holding %ld reference samples",
                           (long)ref->n);
        goto done;
    }
    /* Merge the kept rows and the events' limits (a left limit before its
       right limit), both in time order. */
    {
        slong i = 0, e = 0, k = 0, nev = run->nev, rn = run->nvar;
        while (nev > 0 && run->ev_t[nev - 1] > t_end)
            nev--;
        while (i < run->n || e < nev) {
            if (i < run->n && !KEEP(i)) {
                i++;
                continue;
            }
            if (e >= nev || (i < run->n && run->t[i] < run->ev_t[e])) {
                ref->t[k] = run->t[i];
                for (slong j = 0; j < nvar; j++)
                    ref->v[j * ref->n + k] = run->v[i * rn + col[j]];
                k++;
                i++;
                continue;
            }
            for (int side = 0; side < 2; side++) {
                ref->t[k] = run->ev_t[e];
                for (slong j = 0; j < nvar; j++)
                    ref->v[j * ref->n + k] =
                        run->ev_v[(2 * e + side) * rn + col[j]];
                k++;
            }
            /* a kind that is no jump of the state (a crossing of a
               relation of a piecewise expression) need not be reported
               by a candidate (result.h); it is kept for the plots */
            if (!hdo_event_kind_shown((hdo_event_kind)run->ev_kind[e])) {
                if (hdo_evlist_push(ref->crossings, run->ev_t[e], run->ev_t[e],
                                    run->ev_from[e], run->ev_to[e], 0))
                    st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                       "out of memory");
            } else if (run->ev_t[e] >= cand_t[0] - ta) {
                if (hdo_evlist_push(ref_ev, run->ev_t[e], run->ev_t[e],
                                    run->ev_from[e], run->ev_to[e], 0))
                    st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                       "out of memory");
                else
                    ref_ev->ev[ref_ev->n - 1].sample = k - 2;
            }
            if (st)
                goto done;
            e++;
        }
        ref->n = k;
    }
#undef KEEP
done:
    free(own);
    free(col);
    free(keep);
    return st;
}

int
hdo_check_reference(hdo_refsamp_t ref, hdo_evlist_t ref_ev, hdo_model_t model,
                    const slong *var, slong nvar, const double *cand_t,
                    slong ncand, double time_abs, long digits, hdo_error_t *err)
{
    double t0, t_end, *times;
    slong ns;
    hdo_refrun_t run;
    int st;

    hdo_refsamp_clear(ref);
    st = hdo_check_model_span(&t0, &t_end, model, err);
    if (st)
        return st;
    /* The run goes time_abs past the candidate's last time, also past the
       model's end time: a row at the end time is judged against the whole
       window [t - time_abs, t + time_abs], like every other row, so that a
       candidate a little early or late there is not failed for a window cut
       in half.  An event that this extension takes at or just after the
       end time (which `hdo run` does not take) is not judged
       (hdo_matching_excuse_end). */
    if ((st = hdo_check_sample_times(&times, &ns, cand_t, ncand, time_abs, t0,
                                     err)) != 0)
        return st;
    hdo_refrun_init(run);
    st = hdo_refrun_compute(run, model, var, nvar, times, ns,
                            cand_t[ncand - 1] + time_abs, digits, NULL, NULL,
                            err);
    free(times);
    if (st == 0)
        st = hdo_refrun_sample(ref, ref_ev, run, var, nvar, cand_t, ncand,
                               time_abs, err);
    hdo_refrun_clear(run);
    return st;
}
