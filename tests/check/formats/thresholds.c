/* thresholds.c -- hdo check's cascade rule at its boundary
 * (ref/check/formats/events.c, hdo_evlist_merge_cascades; decisions.md "hdo
 * check cascades"): an event known at one time that follows the previous
 * one by at most 8 DBL_EPSILON |t| (t the previous one's latest time) is
 * the same event; times are exact dyadics, so the gaps are exact. */
#include <float.h>
#include <math.h>
#include <criterion/criterion.h>
#include "check.h"

/* Events at t and t + gap (gap = k 2^-52, exact): merged or not. */
static slong
merged(double t, int k)
{
    hdo_evlist_t l;
    double u = t + ldexp(k, -52);
    cr_assert_eq(u - t, ldexp(k, -52), "the gap is exact");
    hdo_evlist_init(l);
    hdo_evlist_push(l, t, t, 0, 1, 0);
    hdo_evlist_push(l, u, u, 1, 2, 0);
    cr_assert_eq(hdo_evlist_merge_cascades(l), 0);
    slong n = l->n;
    if (n == 1)
        cr_expect(l->ev[0].from == 0 && l->ev[0].to == 2 &&
                  l->ev[0].count == 2 && l->ev[0].t_hi == u);
    hdo_evlist_clear(l);
    return n;
}

Test(compare_thresholds, cascade_gap_boundary)
{
    /* t = 2: 8 eps |t| = 16 2^-52 (8 units in the last place, 2^-51) */
    cr_expect_eq(merged(2.0, 16), 1);
    cr_expect_eq(merged(2.0, 18), 2);
    /* t = 3.5: 8 eps |t| = 28 2^-52 (14 units in the last place) */
    cr_expect_eq(merged(3.5, 28), 1);
    cr_expect_eq(merged(3.5, 30), 2);
    /* t = 1: 8 2^-52 (8 units, 2^-52 each) */
    cr_expect_eq(merged(1.0, 8), 1);
    cr_expect_eq(merged(1.0, 9), 2);
    /* relative: t = 1024, 8 eps |t| = 8192 2^-52 */
    cr_expect_eq(merged(1024.0, 8192), 1);
    cr_expect_eq(merged(1024.0, 8192 + 1024), 2);
}
