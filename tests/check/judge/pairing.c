/* pairing.c -- unit tests of the pairing of reference and candidate
 * events */
#include <math.h>
#include <string.h>
#include <criterion/criterion.h>
#include "../ball.h"
#include "check.h"

/* The ball's bounce times from the closed form, all fly -> fly (mode 0). */
static void
ball_list(hdo_evlist_t l, double shift, int skip)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    ball_events(tk, uk);
    hdo_evlist_init(l);
    for (int k = 1; k <= BALL_NEV; k++)
        if (k != skip)
            cr_assert_eq(
                hdo_evlist_push(l, tk[k] + shift, tk[k] + shift, 0, 0, k), 0);
}

static hdo_match_verdict
verdict_of_ref(const hdo_matching_t mt, slong ref)
{
    for (slong k = 0; k < mt->n; k++)
        if (mt->m[k].ref == ref)
            return mt->m[k].verdict;
    return (hdo_match_verdict)-1;
}

Test(compare, events_same_events_match)
{
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    ball_list(r, 0, 0);
    ball_list(c, 0.9e-6, 0);
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 3), 0);
    cr_expect_eq(mt->n, BALL_NEV);
    cr_expect_eq(mt->nfailed, 0);
    for (slong k = 0; k < mt->n; k++) {
        cr_expect_eq(mt->m[k].ref, k);
        cr_expect_eq(mt->m[k].cand, k);
        cr_expect(fabs(mt->m[k].diff - 0.9e-6) < 1e-12);
    }
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}

Test(compare, events_late_and_early_fail)
{
    double shifts[2] = {2e-6, -2e-6};
    hdo_match_verdict want[2] = {HDO_MATCH_LATE, HDO_MATCH_EARLY};
    for (int s = 0; s < 2; s++) {
        hdo_evlist_t r, c;
        hdo_matching_t mt;
        ball_list(r, 0, 0);
        ball_list(c, 0, 0);
        c->ev[2].t_lo = c->ev[2].t_hi = r->ev[2].t_lo + shifts[s];
        hdo_matching_init(mt);
        cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 3), 0);
        cr_expect_eq(mt->n, BALL_NEV);
        cr_expect_eq(mt->nfailed, 1);
        cr_expect_eq(mt->first_fail, 2);
        cr_expect_eq(mt->m[2].verdict, want[s]);
        cr_expect(fabs(mt->m[2].diff - shifts[s]) < 1e-12);
        hdo_matching_clear(mt);
        hdo_evlist_clear(r);
        hdo_evlist_clear(c);
    }
}

Test(compare, events_missing_and_extra)
{
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    /* The candidate misses bounce 3. */
    ball_list(r, 0, 0);
    ball_list(c, 0, 3);
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 3), 0);
    cr_expect_eq(mt->n, BALL_NEV);
    cr_expect_eq(mt->nfailed, 1);
    cr_expect_eq(verdict_of_ref(mt, 2), HDO_MATCH_MISSING);
    cr_expect_eq(verdict_of_ref(mt, 3), HDO_MATCH_OK);
    cr_expect_eq(verdict_of_ref(mt, 5), HDO_MATCH_OK);
    /* Swapped: the candidate has one more. */
    cr_assert_eq(hdo_events_match(mt, c, r, 1e-6, 1, 0, 3), 0);
    cr_expect_eq(mt->nfailed, 1);
    cr_expect_eq(mt->m[mt->first_fail].verdict, HDO_MATCH_EXTRA);
    cr_expect_eq(mt->m[mt->first_fail].cand, 2);
    /* The candidate misses the last one: missing at the end. */
    hdo_evlist_clear(c);
    ball_list(c, 0, BALL_NEV);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 3), 0);
    cr_expect_eq(mt->nfailed, 1);
    cr_expect_eq(verdict_of_ref(mt, BALL_NEV - 1), HDO_MATCH_MISSING);
    /* ... unless its span ends before it: then it is outside. */
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 2.5), 0);
    cr_expect_eq(mt->nfailed, 0);
    cr_expect_eq(verdict_of_ref(mt, BALL_NEV - 1), HDO_MATCH_OUTSIDE);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}

Test(compare, events_modes)
{
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    hdo_evlist_init(r);
    hdo_evlist_init(c);
    hdo_evlist_push(r, 1, 1, 0, 1, 0);
    hdo_evlist_push(r, 2, 2, 1, 0, 0);
    hdo_evlist_push(c, 1, 1, 0, 1, 5);
    hdo_evlist_push(c, 2, 2, 1, 2, 9); /* wrong target */
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 3), 0);
    cr_expect_eq(mt->nfailed, 1);
    cr_expect_eq(mt->m[1].verdict, HDO_MATCH_MODE);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 0, 0, 3), 0);
    cr_expect_eq(mt->nfailed, 0);
    /* Unknown modes (-1) are not held against the candidate. */
    c->ev[1].to = -1;
    c->ev[0].from = -1;
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 3), 0);
    cr_expect_eq(mt->nfailed, 0);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}

/* An event known only to lie between two rows matches a reference event
   inside, or within time_abs of, that interval. */
Test(compare, events_intervals)
{
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    hdo_evlist_init(r);
    hdo_evlist_init(c);
    hdo_evlist_push(r, 1.5, 1.5, 0, 1, 0);
    hdo_evlist_push(r, 3.5, 3.5, 1, 0, 0);
    hdo_evlist_push(c, 1.0, 2.0, 0, 1, 3);
    hdo_evlist_push(c, 3.6, 4.0, 1, 0, 7);
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 0.05, 1, 0, 5), 0);
    cr_expect_eq(mt->m[0].verdict, HDO_MATCH_OK);
    cr_expect_eq(mt->m[0].diff, 0);
    cr_expect_eq(mt->m[1].verdict, HDO_MATCH_LATE);
    cr_expect(fabs(mt->m[1].diff - 0.1) < 1e-12);
    cr_assert_eq(hdo_events_match(mt, r, c, 0.2, 1, 0, 5), 0);
    cr_expect_eq(mt->nfailed, 0);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}

/* Pairing by time (#15): two spurious candidate events and one missed
   event leave every later pair where it belongs, and a candidate event
   late beyond time_abs between two anchors is "late", not missing and
   extra. */
Test(compare, events_paired_by_time_not_position)
{
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    const double rt[7] = {1, 2, 3, 4, 5, 6, 7};
    const double ct[8] = {1, 1.5, 1.6, 2, 3, 5.0004, 6.01, 7};
    const hdo_match_verdict want[10] = {
        HDO_MATCH_OK, HDO_MATCH_EXTRA, HDO_MATCH_EXTRA,
        HDO_MATCH_OK, HDO_MATCH_OK,    HDO_MATCH_MISSING,
        HDO_MATCH_OK, HDO_MATCH_LATE,  HDO_MATCH_OK};
    hdo_evlist_init(r);
    hdo_evlist_init(c);
    for (int k = 0; k < 7; k++)
        hdo_evlist_push(r, rt[k], rt[k], 0, 0, 0);
    for (int k = 0; k < 8; k++)
        hdo_evlist_push(c, ct[k], ct[k], 0, 0, 0);
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-3, 1, 0, 8), 0);
    cr_assert_eq(mt->n, 9);
    for (int k = 0; k < 9; k++)
        cr_expect_eq(mt->m[k].verdict, want[k], "pair %d: %s", k,
                     hdo_match_verdict_name(mt->m[k].verdict));
    cr_expect_eq(mt->m[6].ref, 4);
    cr_expect_eq(mt->m[6].cand, 5);
    cr_expect(fabs(mt->m[7].diff - 0.01) < 1e-12);
    cr_expect_eq(mt->nfailed, 4);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}

/* An event within time_abs of the model's end time that only one side
   has is listed but not judged (hdo run does not take an event at the end
   time; a solver may); one further from the end still fails. */
Test(compare, events_at_the_end_time_not_judged)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    ball_events(tk, uk);
    double t_end = tk[BALL_NEV];
    /* the candidate takes the last bounce, the reference does not */
    ball_list(r, 0, BALL_NEV);
    ball_list(c, 0, 0);
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, t_end), 0);
    cr_expect_eq(mt->nfailed, 1);
    hdo_matching_excuse_end(mt, r, c, t_end, 1e-6);
    cr_expect_eq(mt->nfailed, 0);
    cr_expect_eq(mt->first_fail, -1);
    cr_expect_eq(mt->m[mt->n - 1].verdict, HDO_MATCH_AT_END);
    /* swapped: the reference has it, the candidate not */
    cr_assert_eq(hdo_events_match(mt, c, r, 1e-6, 1, 0, t_end), 0);
    hdo_matching_excuse_end(mt, c, r, t_end, 1e-6);
    cr_expect_eq(mt->nfailed, 0);
    cr_expect_eq(verdict_of_ref(mt, BALL_NEV - 1), HDO_MATCH_AT_END);
    /* 2 time_abs before the end it is judged: missing */
    cr_assert_eq(hdo_events_match(mt, c, r, 1e-6, 1, 0, t_end), 0);
    hdo_matching_excuse_end(mt, c, r, t_end + 2e-6, 1e-6);
    cr_expect_eq(mt->nfailed, 1);
    cr_expect_eq(verdict_of_ref(mt, BALL_NEV - 1), HDO_MATCH_MISSING);
    /* no end time: nothing excused */
    cr_assert_eq(hdo_events_match(mt, c, r, 1e-6, 1, 0, t_end), 0);
    hdo_matching_excuse_end(mt, c, r, NAN, 1e-6);
    cr_expect_eq(mt->nfailed, 1);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}

/* A reference event that the candidate cannot show (issue 26): not
   paired in a gap (so never missing, early or late), listed as not
   observable and not judged; paired when a candidate event agrees with
   it. */
Test(compare, events_unobservable)
{
    hdo_evlist_t r, c;
    hdo_matching_t mt;
    hdo_evlist_init(r);
    hdo_evlist_init(c);
    hdo_evlist_push(r, 1, 1, 0, 1, 0);
    hdo_evlist_push(r, 2, 2, 1, 0, 0);
    hdo_evlist_push(r, 3, 3, 0, 1, 0);
    r->ev[0].observable = r->ev[2].observable = 0;
    hdo_evlist_push(c, 2, 2, -1, -1, 5);
    hdo_matching_init(mt);
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 4), 0);
    cr_assert_eq(mt->n, 3);
    cr_expect_eq(mt->m[0].verdict, HDO_MATCH_UNOBSERVABLE);
    cr_expect_eq(mt->m[1].verdict, HDO_MATCH_OK);
    cr_expect_eq(mt->m[2].verdict, HDO_MATCH_UNOBSERVABLE);
    cr_expect_eq(mt->nfailed, 0);
    cr_expect(!hdo_match_judged(HDO_MATCH_UNOBSERVABLE));
    /* observable, the same events are missing */
    r->ev[0].observable = r->ev[2].observable = 1;
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 4), 0);
    cr_expect_eq(mt->nfailed, 2);
    /* not observable but given by the candidate: paired */
    r->ev[0].observable = 0;
    hdo_evlist_push(c, 1, 1, -1, -1, 3);
    c->ev[1] = c->ev[0];
    c->ev[0].t_lo = c->ev[0].t_hi = 1;
    cr_assert_eq(hdo_events_match(mt, r, c, 1e-6, 1, 0, 4), 0);
    cr_expect_eq(mt->m[0].verdict, HDO_MATCH_OK);
    cr_expect_eq(mt->m[0].cand, 0);
    hdo_matching_clear(mt);
    hdo_evlist_clear(r);
    hdo_evlist_clear(c);
}
