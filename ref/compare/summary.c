/* summary.c -- the verdict of hdo check and the figures of its summary
   line, from the tubes of the compared variables and the event matching,
   so that a C caller gets the same verdict as the command line. */
#include <math.h>
#include <string.h>
#include "compare.h"

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
