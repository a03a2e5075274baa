/* tube.c -- the tube comparison of one variable (Modelica csv-compare's tube)
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void
hdo_tube_init(hdo_tube_t tube)
{
    memset(tube, 0, sizeof *tube);
    tube->first_fail = tube->worst = tube->max_diff_row = -1;
    tube->first_uncompared = -1;
}

void
hdo_tube_clear(hdo_tube_t tube)
{
    free(tube->lo);
    free(tube->hi);
    free(tube->band_lo);
    free(tube->band_hi);
    free(tube->fail);
    free(tube->diff);
    memset(tube, 0, sizeof *tube);
}

/* A monotonic deque of reference sample indices: the window minimum (or
   maximum) is at its head, so the sliding window costs O(1) a sample. */
typedef struct {
    slong *q;
    slong head, tail;
} deque;

static void
dq_push(deque *d, const double *v, slong k, int want_max)
{
    while (d->tail > d->head) {
        double last = v[d->q[d->tail - 1]];
        if (want_max ? last <= v[k] : last >= v[k])
            d->tail--;
        else
            break;
    }
    d->q[d->tail++] = k;
}

static void
dq_pop_before(deque *d, const double *t, double a)
{
    while (d->tail > d->head && t[d->q[d->head]] < a)
        d->head++;
}

/* A reference event: the time and both limits, and the arcs on either side
   as polynomials through up to three samples of each arc within
   4 time_abs of the event (the limit itself and its neighbours). */
typedef struct {
    double t;
    int nl, nr; /* points of the left and the right arc */
    double lt[3], lv[3], rt[3], rv[3];
} ref_event;

/* The Lagrange polynomial through (xs[k], ys[k]), k < n, at x. */
static double
lagrange(const double *xs, const double *ys, int n, double x)
{
    double sum = 0;
    for (int k = 0; k < n; k++) {
        double w = ys[k];
        for (int m = 0; m < n; m++)
            if (m != k)
                w *= (x - xs[m]) / (xs[k] - xs[m]);
        sum += w;
    }
    return sum;
}

/* The events of the reference: groups of samples with the same time; the
   first sample of a group is the left limit, the last the right limit. */
static slong
find_events(ref_event *ev, const double *t, const double *v, slong n,
            double time_abs)
{
    slong ne = 0, i = 0;
    while (i < n) {
        slong j = i + 1;
        while (j < n && t[j] == t[i])
            j++;
        if (j - i > 1 && !isnan(v[i]) && !isnan(v[j - 1])) {
            ref_event *e = ev + ne++;
            e->t = t[i];
            e->nl = e->nr = 0;
            /* Left arc: i, i-1, i-2 while strictly earlier, on the arc
               (no group boundary in between) and near. */
            for (slong k = i; k >= 0 && e->nl < 3; k--) {
                if (k < i && (t[k] == t[k + 1] || isnan(v[k]) ||
                              t[i] - t[k] > 4 * time_abs))
                    break;
                e->lt[e->nl] = t[k];
                e->lv[e->nl++] = v[k];
                if (k > 0 && t[k - 1] == t[k] && k < i)
                    break; /* k is the right limit of an earlier event */
            }
            for (slong k = j - 1; k < n && e->nr < 3; k++) {
                if (k > j - 1 && (t[k] == t[k - 1] || isnan(v[k]) ||
                                  t[k] - t[j - 1] > 4 * time_abs))
                    break;
                e->rt[e->nr] = t[k];
                e->rv[e->nr++] = v[k];
                if (k + 1 < n && t[k + 1] == t[k] && k > j - 1)
                    break; /* k is the left limit of a later event */
            }
        }
        i = j;
    }
    return ne;
}

int
hdo_tube_compare(hdo_tube_t tube, const double *ref_t, const double *ref_v,
                 slong nref, const double *cand_t, const double *cand_v,
                 const unsigned char *cand_present, ptrdiff_t stride,
                 slong ncand, double time_abs, double value_abs,
                 double value_rel)
{
    deque dmin, dmax;
    ref_event *ev;
    slong nev, e0 = 0; /* the first event not before the window */
    slong next = 0;    /* the next reference sample to enter a window */
    slong exact = 0;   /* first reference sample with time >= t */
    slong left = 0;    /* first reference sample with time >= t - time_abs */
    slong nnan = 0;    /* samples without a value in [left, next) */
    int near_event;    /* a reference event in the window */
    size_t n = (size_t)(ncand > 0 ? ncand : 1);
    double worst_ratio = -1;
    hdo_tube_clear(tube);
    hdo_tube_init(tube);
    tube->n = ncand;
    tube->lo = malloc(n * sizeof(double));
    tube->hi = malloc(n * sizeof(double));
    tube->band_lo = malloc(n * sizeof(double));
    tube->band_hi = malloc(n * sizeof(double));
    tube->fail = calloc(n, 1);
    tube->diff = malloc(n * sizeof(double));
    dmin.q = malloc((size_t)(nref > 0 ? nref : 1) * sizeof(slong));
    dmax.q = malloc((size_t)(nref > 0 ? nref : 1) * sizeof(slong));
    if (tube->lo == NULL || tube->hi == NULL || tube->band_lo == NULL ||
        tube->band_hi == NULL || tube->fail == NULL || tube->diff == NULL ||
        dmin.q == NULL || dmax.q == NULL) {
        free(dmin.q);
        free(dmax.q);
        return HDO_ERR_MEMORY;
    }
    dmin.head = dmin.tail = dmax.head = dmax.tail = 0;
    ev = malloc((size_t)(nref / 2 + 1) * sizeof(ref_event));
    if (ev == NULL) {
        free(dmin.q);
        free(dmax.q);
        return HDO_ERR_MEMORY;
    }
    nev = find_events(ev, ref_t, ref_v, nref, time_abs);
    for (slong i = 0; i < ncand; i++) {
        double t = cand_t[i], a = t - time_abs, b = t + time_abs;
        double c = cand_v[i * stride], lo, hi, tlo, thi, err, allowed;
        /* Slide the window [a, b]: candidate times never decrease, so
           neither end does. */
        while (next < nref && ref_t[next] <= b) {
            if (!isnan(ref_v[next])) {
                dq_push(&dmin, ref_v, next, 0);
                dq_push(&dmax, ref_v, next, 1);
            } else {
                nnan++;
            }
            next++;
        }
        while (left < next && ref_t[left] < a)
            nnan -= isnan(ref_v[left++]);
        dq_pop_before(&dmin, ref_t, a);
        dq_pop_before(&dmax, ref_t, a);
        tube->lo[i] = tube->hi[i] = NAN;
        tube->diff[i] = NAN;
        tube->band_lo[i] = tube->band_hi[i] = NAN;
        if (dmin.tail == dmin.head) {
            /* The reference has no value in this window: a candidate
               value here is not compared, which is a failure (never a
               row skipped in silence); an empty cell agrees. */
            if (cand_present == NULL || cand_present[i * stride]) {
                tube->nnoref++;
                tube->fail[i] = 2;
                if (tube->first_uncompared < 0)
                    tube->first_uncompared = i;
            }
            continue;
        }
        lo = ref_v[dmin.q[dmin.head]];
        hi = ref_v[dmax.q[dmax.head]];
        /* A candidate up to time_abs late (early) at an event is still on
           the arc before (after) it: each arc, continued to t, is part of
           the range. */
        while (e0 < nev && ev[e0].t < a)
            e0++;
        near_event = 0;
        for (slong k = e0; k < nev && ev[k].t <= b; k++) {
            double x = NAN;
            near_event = 1;
            if (ev[k].t <= t && ev[k].nl > 1)
                x = lagrange(ev[k].lt, ev[k].lv, ev[k].nl, t);
            if (!isnan(x)) {
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
            x = NAN;
            if (ev[k].t >= t && ev[k].nr > 1)
                x = lagrange(ev[k].rt, ev[k].rv, ev[k].nr, t);
            if (!isnan(x)) {
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
        }
        tlo = value_abs + value_rel * fabs(lo);
        thi = value_abs + value_rel * fabs(hi);
        tube->lo[i] = lo;
        tube->hi[i] = hi;
        tube->band_lo[i] = lo - tlo;
        tube->band_hi[i] = hi + thi;
        if (cand_present != NULL && !cand_present[i * stride]) {
            /* An empty cell agrees with a reference that lacks the
               variable somewhere in the window (a mode without it);
               where the reference has a value throughout, the candidate
               left out a value it should have given. */
            if (nnan == 0) {
                tube->nnocand++;
                tube->fail[i] = 2;
                if (tube->first_uncompared < 0)
                    tube->first_uncompared = i;
            }
            continue;
        }
        tube->ncompared++;
        /* The difference from the reference at the same time: the samples
           at exactly t (both limits at an event: the nearer counts). */
        while (exact < nref && ref_t[exact] < t)
            exact++;
        {
            double dbest = NAN;
            for (slong k = exact; k < nref && ref_t[k] == t; k++) {
                double d = isnan(c) ? INFINITY : fabs(c - ref_v[k]);
                if (!isnan(ref_v[k]) && !(d >= dbest))
                    dbest = d;
            }
            tube->diff[i] = dbest;
            /* away from events only: within time_abs of one, the
               difference at the same time is the jump itself */
            if (!isnan(dbest) && !near_event &&
                (tube->max_diff_row < 0 || dbest > tube->max_diff)) {
                tube->max_diff = dbest;
                tube->max_diff_row = i;
            }
        }
        if (isnan(c)) {
            err = INFINITY;
            allowed = thi;
        } else if (c < lo) {
            err = lo - c;
            allowed = tlo;
        } else if (c > hi) {
            err = c - hi;
            allowed = thi;
        } else {
            err = 0;
            allowed = tlo < thi ? tlo : thi;
        }
        if (!(err <= allowed)) {
            tube->fail[i] = 1;
            tube->nfailed++;
            if (tube->first_fail < 0)
                tube->first_fail = i;
        }
        {
            double ratio = allowed > 0 ? err / allowed : err > 0 ? INFINITY : 0;
            if (ratio > worst_ratio) {
                worst_ratio = ratio;
                tube->worst = i;
                tube->worst_err = err;
                tube->worst_allowed = allowed;
            }
        }
    }
    free(ev);
    free(dmin.q);
    free(dmax.q);
    return 0;
}
