/* summary.c -- unit tests of the verdict and the summary figures of hdo
 * check (hdo_check_summarize): closed-form references x = t */
#include <math.h>
#include <criterion/criterion.h>
#include "check.h"

/* The reference x = t sampled every 0.05 on [0, 1] (no value after 0.8,
   a mode without x), a candidate of 5 rows, one 1e-3 off, one where the
   reference has no value, one empty where it has. */
Test(compare, summary_counts_and_no_pairs)
{
    double rt[21], rv[21];
    double ct[5] = {0.1, 0.3, 0.5, 0.6, 0.9};
    double cv[5] = {0.1, 0.301, 0.5, NAN, 0.9};
    unsigned char cp[5] = {1, 1, 1, 0, 1};
    slong col = 0;
    hdo_tube_struct tube[1];
    hdo_matching_t mt;
    hdo_evlist_t r, c;
    hdo_check_summary sm;
    for (int k = 0; k <= 20; k++) {
        rt[k] = k / 20.0;
        rv[k] = rt[k] <= 0.8 ? rt[k] : NAN;
    }
    hdo_tube_init(tube);
    cr_assert_eq(
        hdo_tube_compare(tube, rt, rv, 21, ct, cv, cp, 1, 5, 1e-9, 1e-6, 0), 0);
    cr_expect_eq(tube->ncompared, 3);
    cr_expect_eq(tube->nfailed, 1);
    cr_expect_eq(tube->nnoref, 1);  /* t = 0.9 */
    cr_expect_eq(tube->nnocand, 1); /* t = 0.6 */
    cr_expect_eq(tube->first_uncompared, 3);
    hdo_matching_init(mt);
    hdo_evlist_init(r);
    hdo_evlist_init(c);
    hdo_evlist_push(r, 0.5, 0.5, 0, 0, 0);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-9, 1, 0.1, 0.9), 0);
    hdo_check_summarize(&sm, tube, 1, ct, cv, cp, 1, &col, 5, mt, 1);
    cr_expect(sm.failed);
    cr_expect_eq(sm.vars_failed, 1);
    cr_expect_eq(sm.rows_compared, 3);
    cr_expect_eq(sm.rows_uncompared, 2);
    cr_expect(fabs(sm.value_err - 1e-3) < 1e-12);
    cr_expect_eq(sm.value_t, 0.3);
    cr_expect(isnan(sm.event_time_err), "nothing paired: NaN, printed -");
    cr_expect_eq(sm.events_missing, 1);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
    hdo_tube_clear(tube);
}
