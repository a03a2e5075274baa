/* pairing.c -- the pairing of reference and candidate events: anchors
 * in order, then each gap between them in order; the verdict of each pair
 * and the events at the end time */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void
hdo_matching_init(hdo_matching_t mt)
{
    memset(mt, 0, sizeof *mt);
    mt->first_fail = -1;
}

void
hdo_matching_clear(hdo_matching_t mt)
{
    free(mt->m);
    memset(mt, 0, sizeof *mt);
}

const char *
hdo_match_verdict_name(hdo_match_verdict v)
{
    switch (v) {
    case HDO_MATCH_OK:
        return "ok";
    case HDO_MATCH_MISSING:
        return "missing";
    case HDO_MATCH_EXTRA:
        return "extra";
    case HDO_MATCH_EARLY:
        return "early";
    case HDO_MATCH_LATE:
        return "late";
    case HDO_MATCH_MODE:
        return "wrong mode change";
    case HDO_MATCH_OUTSIDE:
        return "outside the candidate's span";
    case HDO_MATCH_AT_END:
        return "at the end time (not judged)";
    case HDO_MATCH_UNOBSERVABLE:
        return "not observable in the candidate";
    }
    return "?";
}

int
hdo_match_judged(hdo_match_verdict v)
{
    return v != HDO_MATCH_OUTSIDE && v != HDO_MATCH_AT_END &&
           v != HDO_MATCH_UNOBSERVABLE;
}

void
hdo_matching_excuse_end(hdo_matching_t mt, const hdo_evlist_t ref,
                        const hdo_evlist_t cand, double t_end, double time_abs)
{
    if (isnan(t_end))
        return;
    mt->nfailed = 0;
    mt->first_fail = -1;
    for (slong k = 0; k < mt->n; k++) {
        hdo_match *m = mt->m + k;
        const hdo_cmp_event *e =
            m->verdict == HDO_MATCH_MISSING ? ref->ev + m->ref
            : m->verdict == HDO_MATCH_EXTRA ? cand->ev + m->cand
                                            : NULL;
        if (e != NULL && e->t_hi >= t_end - time_abs &&
            e->t_lo <= t_end + time_abs)
            m->verdict = HDO_MATCH_AT_END;
        if (hdo_match_judged(m->verdict) && m->verdict != HDO_MATCH_OK) {
            mt->nfailed++;
            if (mt->first_fail < 0)
                mt->first_fail = k;
        }
    }
}

/* Candidate minus reference time: 0 when the reference time lies in the
   candidate's interval, else the distance to it with its sign. */
static double
time_diff(const hdo_cmp_event *r, const hdo_cmp_event *c)
{
    double t = r->t_lo;
    if (t < c->t_lo)
        return c->t_lo - t;
    if (t > c->t_hi)
        return c->t_hi - t;
    return 0;
}

static int
modes_agree(const hdo_cmp_event *r, const hdo_cmp_event *c)
{
    return (r->from < 0 || c->from < 0 || r->from == c->from) &&
           (r->to < 0 || c->to < 0 || r->to == c->to);
}

static int
agree(const hdo_cmp_event *r, const hdo_cmp_event *c, double time_abs,
      int modes_exact)
{
    return fabs(time_diff(r, c)) <= time_abs &&
           (!modes_exact || modes_agree(r, c));
}

static int
push_match(hdo_matching_t mt, slong ref, slong cand, hdo_match_verdict v,
           double diff)
{
    if (hdo_grow((void **)&mt->m, &mt->alloc, mt->n + 1, sizeof(hdo_match)))
        return HDO_ERR_MEMORY;
    mt->m[mt->n].ref = ref;
    mt->m[mt->n].cand = cand;
    mt->m[mt->n].verdict = v;
    mt->m[mt->n].diff = diff;
    if (v != HDO_MATCH_OK && hdo_match_judged(v)) {
        mt->nfailed++;
        if (mt->first_fail < 0)
            mt->first_fail = mt->n;
    }
    mt->n++;
    return 0;
}

/* Pairs the events of one gap between two anchors (or the ends): in
   order, as many pairs as both sides have, judged early, late, wrong mode
   change or ok; the rest missing or extra.  Reference events outside the
   candidate's span are outside, never paired. */
static int
match_gap(hdo_matching_t mt, const hdo_cmp_event *R, slong i0, slong i1,
          const hdo_cmp_event *C, slong j0, slong j1, double time_abs,
          int modes_exact, double span_lo, double span_hi)
{
    slong i = i0, j = j0;
    while (i < i1 || j < j1) {
        int st;
        if (i < i1 && (R[i].t_lo < span_lo || R[i].t_lo > span_hi)) {
            st = push_match(mt, i++, -1, HDO_MATCH_OUTSIDE, NAN);
        } else if (i < i1 && !R[i].observable) {
            /* no candidate event agreed with it (an anchor): the
               candidate cannot show it */
            st = push_match(mt, i++, -1, HDO_MATCH_UNOBSERVABLE, NAN);
        } else if (i < i1 && j < j1) {
            double d = time_diff(R + i, C + j);
            hdo_match_verdict v = modes_exact && !modes_agree(R + i, C + j)
                                      ? HDO_MATCH_MODE
                                  : d > time_abs  ? HDO_MATCH_LATE
                                  : d < -time_abs ? HDO_MATCH_EARLY
                                                  : HDO_MATCH_OK;
            st = push_match(mt, i++, j++, v, d);
        } else if (i < i1) {
            st = push_match(mt, i++, -1, HDO_MATCH_MISSING, NAN);
        } else {
            st = push_match(mt, -1, j++, HDO_MATCH_EXTRA, NAN);
        }
        if (st)
            return st;
    }
    return 0;
}

int
hdo_events_match(hdo_matching_t mt, const hdo_evlist_t ref,
                 const hdo_evlist_t cand, double time_abs, int modes_exact,
                 double span_lo, double span_hi)
{
    const hdo_cmp_event *R = ref->ev, *C = cand->ev;
    slong i = 0, j0 = 0, ia = 0, ja = 0; /* ia, ja: after the last anchor */
    mt->n = 0;
    mt->nfailed = 0;
    mt->first_fail = -1;
    /* Anchors: in order, each reference event with the nearest candidate
       event that agrees with it (within time_abs, the same modes), unless
       that candidate is nearer to the next reference event.  Between
       anchors, what is left is paired in order (match_gap): one spurious or
       missed event never shifts the pairings after it. */
    for (i = 0; i < ref->n; i++) {
        slong best = -1;
        double bd = INFINITY;
        while (j0 < cand->n && C[j0].t_hi < R[i].t_lo - time_abs)
            j0++;
        for (slong j = j0 > ja ? j0 : ja;
             j < cand->n && C[j].t_lo <= R[i].t_lo + time_abs; j++) {
            double d = fabs(time_diff(R + i, C + j));
            if (agree(R + i, C + j, time_abs, modes_exact) && d < bd) {
                bd = d;
                best = j;
            }
        }
        if (best < 0)
            continue;
        if (i + 1 < ref->n &&
            agree(R + i + 1, C + best, time_abs, modes_exact) &&
            fabs(time_diff(R + i + 1, C + best)) < bd)
            continue;
        {
            int st = match_gap(mt, R, ia, i, C, ja, best, time_abs, modes_exact,
                               span_lo, span_hi);
            if (st == 0)
                st = push_match(mt, i, best, HDO_MATCH_OK,
                                time_diff(R + i, C + best));
            if (st)
                return st;
        }
        ia = i + 1;
        ja = best + 1;
    }
    return match_gap(mt, R, ia, ref->n, C, ja, cand->n, time_abs, modes_exact,
                     span_lo, span_hi);
}
