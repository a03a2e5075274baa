/* reference.c -- hdo check's reference: the run of the model sampled
   around every candidate time, kept as doubles of the compared variables
   only (rows pass through hdo_run's row sink and are never stored at the
   run precision), with both limits of every event. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

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
    memset(r, 0, sizeof *r);
}

/* The rows as they arrive, in time order. */
typedef struct {
    const slong *var;
    slong nvar, n, alloc;
    double *t, *v; /* v: row-major, nvar per row */
    int failed;    /* out of memory */
} sink_data;

static void
sink_row(void *data, const hdo_row *row)
{
    sink_data *d = data;
    if (d->failed)
        return;
    if (d->n == d->alloc) {
        slong na = d->alloc ? d->alloc + d->alloc / 2 + 64 : 4096;
        double *t = realloc(d->t, (size_t)na * sizeof(double));
        double *v;
        if (t == NULL) {
            d->failed = 1;
            return;
        }
        d->t = t;
        v = realloc(d->v, (size_t)na * (size_t)(d->nvar + 1) * sizeof(double));
        if (v == NULL) {
            d->failed = 1;
            return;
        }
        d->v = v;
        d->alloc = na;
    }
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
    if (st)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "the start or end time is undefined");
    return 0;
}

int
hdo_check_reference(hdo_refsamp_t ref, hdo_evlist_t ref_ev, hdo_model_t model,
                    const slong *var, slong nvar, const double *cand_t,
                    slong ncand, double time_abs, long digits, hdo_error_t *err)
{
    double ta = time_abs, t0, t_end, *times, *ev_t = NULL;
    slong n = 0, ns, nk, nev;
    hdo_run_options opt;
    hdo_result_t res;
    sink_data d;
    char until[64];
    fmpq_t until_q;
    int st;

    hdo_refsamp_clear(ref);
    ref->digits = digits;
    ref->nvar = nvar;
    st = hdo_check_model_span(&t0, &ref->t_end, model, err);
    if (st)
        return st;
    ref->t0 = t0;
    if (ncand < 1)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0, "no candidate row");
    if (cand_t[0] < t0)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "the candidate starts at t = %.17g, before the "
                             "model's start t0 = %.17g",
                             cand_t[0], t0);
    /* t - time_abs, t - time_abs/2, t, t + time_abs/2, t + time_abs of
       every candidate time t: the window ends and its middle, so that the
       window's range is right for a reference that is monotone or has one
       extremum in each half of the window. */
    /* The run goes time_abs past the candidate's last time, also past the
       model's end time: a row at the end time is judged against the whole
       window [t - time_abs, t + time_abs], like every other row, so that a
       candidate a little early or late there is not failed for a window cut
       in half.  An event that this extension takes at or just after the
       end time (which `hdo run` does not take) is not judged
       (hdo_matching_excuse_end). */
    t_end = cand_t[ncand - 1] + ta;
    times = malloc((size_t)ncand * 5 * sizeof(double));
    if (times == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                             "out of memory: %ld candidate rows", (long)ncand);
    for (slong i = 0; i < ncand; i++) {
        double t = cand_t[i];
        double pts[5] = {t - ta, t - ta / 2, t, t + ta / 2, t + ta};
        for (int k = 0; k < 5; k++)
            if (pts[k] >= t0)
                times[n++] = pts[k] <= t_end ? pts[k] : t_end;
    }
    qsort(times, (size_t)n, sizeof(double), cmp_double);
    ns = 0;
    for (slong i = 0; i < n; i++)
        if (ns == 0 || times[i] != times[ns - 1])
            times[ns++] = times[i];

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
            free(times);
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                 "out of memory: %ld reference samples for "
                                 "%ld candidate rows need %.0f MB",
                                 (long)ns, (long)ncand,
                                 2e-6 * (double)ns * (double)(nvar + 2) * 8);
        }
        free(probe);
    }
    hdo_run_options_init(&opt);
    opt.digits = digits;
    /* the end time as the decimal the double prints as (%.17g), read
       exactly: the reference of earlier versions, bit for bit */
    snprintf(until, sizeof until, "%.17g", t_end);
    fmpq_init(until_q);
    st = hdo_run_parse_time(until_q, "--until", until, 0, err);
    if (st != 0) { /* t_end beyond the doubles: "inf" */
        fmpq_clear(until_q);
        free(times);
        free(d.t);
        free(d.v);
        return st;
    }
    opt.until = until_q;
    opt.sample_times = times;
    opt.nsample_times = ns;
    opt.row_sink = sink_row;
    opt.row_sink_data = &d;
    hdo_result_init(res);
    st = hdo_run(res, model, &opt, err);
    free(times);
    if (st == 0 && d.failed)
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                           "out of memory holding %ld reference samples",
                           (long)d.n);
    if (st < 0 || st > 0)
        goto done;
    ref->steps = res->steps;
    ref->nrun_events = res->nevents;

    /* Rows at an event time are left out: which limit such a row holds is
       the run's choice, and the tube takes the limits from the events. */
    nev = res->nevents;
    ev_t = malloc((size_t)(nev + 1) * sizeof(double));
    if (ev_t == NULL) {
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        goto done;
    }
    for (slong i = 0; i < nev; i++)
        ev_t[i] = mpfr_get_d(res->events[i].time, MPFR_RNDN);
    nk = 0;
    for (slong i = 0; i < d.n; i++)
        if (bsearch(d.t + i, ev_t, (size_t)nev, sizeof(double), cmp_double) ==
            NULL)
            nk++;
    ref->n = nk + 2 * nev;
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
        slong i = 0, e = 0, k = 0;
        while (i < d.n || e < nev) {
            if (i < d.n && bsearch(d.t + i, ev_t, (size_t)nev, sizeof(double),
                                   cmp_double) != NULL) {
                i++;
                continue;
            }
            if (e >= nev || (i < d.n && d.t[i] < ev_t[e])) {
                ref->t[k] = d.t[i];
                for (slong j = 0; j < nvar; j++)
                    ref->v[j * ref->n + k] = d.v[i * nvar + j];
                k++;
                i++;
            } else {
                const hdo_event *ev = res->events + e;
                for (int side = 0; side < 2; side++) {
                    mpfr_srcptr x = side == 0 ? ev->left : ev->right;
                    ref->t[k] = ev_t[e];
                    for (slong j = 0; j < nvar; j++)
                        ref->v[j * ref->n + k] =
                            mpfr_get_d(x + var[j], MPFR_RNDN);
                    k++;
                }
                /* a kind that is no jump of the state (a crossing)
                   need not be reported by a candidate (result.h) */
                if (hdo_event_kind_shown(ev->kind) &&
                    ev_t[e] >= cand_t[0] - ta && ev_t[e] <= t_end &&
                    hdo_evlist_push(ref_ev, ev_t[e], ev_t[e],
                                    hdo_mode_id_family(model, ev->from),
                                    hdo_mode_id_family(model, ev->to), 0)) {
                    st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                       "out of memory");
                    goto done;
                }
                e++;
            }
        }
        ref->n = k;
    }
done:
    fmpq_clear(until_q);
    free(ev_t);
    free(d.t);
    free(d.v);
    hdo_result_clear(res);
    return st;
}
