/* events.c -- unit tests of event matching and of events inferred from a
 * candidate */
#include <math.h>
#include <string.h>
#include <criterion/criterion.h>
#include "ball.h"
#include "compare.h"

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

static void
read_csv(hdo_csv_t csv, const char *text)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_csv_init(csv);
    cr_assert_eq(hdo_csv_read_string(csv, text, strlen(text), "c.csv", &err), 0,
                 "%s", err.message);
}

Test(compare, events_inferred_from_repeated_rows)
{
    hdo_csv_t csv;
    hdo_evlist_t l;
    /* 0.25 written twice with the same value is no event (#15); 0.5 is
       (the value jumps), and so is the group at 1 */
    read_csv(csv, "time,h\n0,1\n0.25,2\n0.25,2\n0.5,0\n0.5,-1\n0.75,1\n"
                  "1,1\n1,2\n1,3\n");
    hdo_evlist_init(l);
    cr_assert_eq(hdo_csv_infer_events(l, csv, NULL), 0);
    cr_assert_eq(l->n, 2);
    cr_expect_eq(l->ev[0].t_lo, 0.5);
    cr_expect_eq(l->ev[0].t_hi, 0.5);
    cr_expect_eq(l->ev[0].from, -1);
    cr_expect_eq(l->ev[0].line, 6);
    cr_expect_eq(l->ev[1].t_lo, 1);
    hdo_evlist_clear(l);
    hdo_csv_clear(csv);
}

Test(compare, events_inferred_from_modes)
{
    hdo_csv_t csv;
    hdo_evlist_t l;
    slong map[3] = {10, 20, 30};
    /* fly->fly at 0.5 (repeated rows, no mode change), fly->rest between
       0.8 and 0.9, rest->fly->stop at 1 (two changes in one group). */
    read_csv(csv, "time,mode,h\n0,fly,1\n0.5,fly,0\n0.5,fly,-0.5\n0.8,fly,1\n"
                  "0.9,rest,1\n1,rest,2\n1,fly,3\n1,stop,3\n2,stop,3");
    hdo_evlist_init(l);
    cr_assert_eq(hdo_csv_infer_events(l, csv, map), 0);
    cr_assert_eq(l->n, 4);
    cr_expect(l->ev[0].t_lo == 0.5 && l->ev[0].from == 10 && l->ev[0].to == 10);
    cr_expect(l->ev[1].t_lo == 0.8 && l->ev[1].t_hi == 0.9 &&
              l->ev[1].from == 10 && l->ev[1].to == 20);
    cr_expect(l->ev[2].t_lo == 1 && l->ev[2].from == 20 && l->ev[2].to == 10);
    cr_expect(l->ev[3].t_lo == 1 && l->ev[3].from == 10 && l->ev[3].to == 30);
    hdo_evlist_clear(l);
    hdo_csv_clear(csv);
}

Test(compare, events_events_file)
{
    const char *text = "index,time,from,to,kind,guard\r\n"
                       "1,0.4515,fly,fly,switch,\"h < 0\"\r\n"
                       "2,1.17,fly,rest,sliding-start,\"f, g\"\r\n";
    const char *simple = "time,from,to\n1,,\n2,a,b\n";
    hdo_evfile_t ef;
    hdo_error_t err;
    hdo_evfile_init(ef);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_evfile_read_string(ef, text, strlen(text), "e.csv", &err),
                 0, "%s", err.message);
    cr_expect_eq(ef->n, 2);
    cr_expect_eq(ef->time[1], 1.17);
    cr_expect_str_eq(ef->modes.names[ef->from[1]], "fly");
    cr_expect_str_eq(ef->modes.names[ef->to[1]], "rest");
    hdo_evfile_clear(ef);
    hdo_evfile_init(ef);
    cr_assert_eq(
        hdo_evfile_read_string(ef, simple, strlen(simple), "e.csv", &err), 0,
        "%s", err.message);
    cr_expect_eq(ef->from[0], -1);
    cr_expect_eq(ef->to[0], -1);
    hdo_evfile_clear(ef);
    /* Errors: no 'to' column; times out of order. */
    hdo_evfile_init(ef);
    cr_expect_eq(
        hdo_evfile_read_string(ef, "time,from\n1,a\n", 14, "e.csv", &err),
        HDO_ERR_INPUT);
    hdo_evfile_clear(ef);
    hdo_evfile_init(ef);
    cr_expect_eq(hdo_evfile_read_string(ef, "time,from,to\n2,a,b\n1,a,b\n", 25,
                                        "e.csv", &err),
                 HDO_ERR_INPUT);
    cr_expect_eq(err.line, 3);
    cr_expect_eq(err.col, 1);
    hdo_evfile_clear(ef);
}

/* hdo's own events.csv as an events file: the rows of a kind a candidate
   need not show (crossing, result.h's table) are skipped, every other
   kind is kept, a kind the table does not know too. */
Test(compare, events_file_skips_crossings)
{
    const char *text = "index,time,from,to,kind,guard\n"
                       "1,0.25,a,a,crossing,\"0.25 - t < 0\"\n"
                       "2,0.5,a,b,switch,\"x < 0\"\n"
                       "3,0.75,b,b,crossing,\"t - 0.75 >= 0\"\n"
                       "4,1,b,a,reinit-adjusted,\"y < 0\"\n"
                       "5,1.5,a,b,a-kind-of-its-own,\"z < 0\"\n";
    hdo_evfile_t ef;
    hdo_error_t err;
    hdo_evfile_init(ef);
    hdo_error_clear(&err);
    cr_assert_eq(hdo_evfile_read_string(ef, text, strlen(text), "e.csv", &err),
                 0, "%s", err.message);
    cr_assert_eq(ef->n, 3);
    cr_expect_eq(ef->time[0], 0.5);
    cr_expect_eq(ef->time[1], 1);
    cr_expect_eq(ef->time[2], 1.5);
    hdo_evfile_clear(ef);
}

/* A cascade: events whose times differ by a few units in the last place
   are one event from the first's from to the last's to; an event known
   only as an interval is never merged, nor are events further apart. */
Test(compare, events_cascades_merge)
{
    hdo_evlist_t l;
    double z = 2.5586339655858081, z1 = nextafter(z, 3);
    hdo_evlist_init(l);
    hdo_evlist_push(l, 1.0, 1.0, 0, 0, 0);
    hdo_evlist_push(l, z, z, 0, 0, 0);
    hdo_evlist_push(l, z, z, 0, 0, 0);
    hdo_evlist_push(l, z1, z1, 0, 1, 0);
    hdo_evlist_push(l, z1, 2.6, 1, 0, 0);
    hdo_evlist_push(l, 2.7, 2.7, 0, 1, 0);
    cr_assert_eq(hdo_evlist_merge_cascades(l), 0);
    cr_assert_eq(l->n, 4);
    cr_expect(l->ev[1].t_lo == z && l->ev[1].t_hi == z1);
    cr_expect(l->ev[1].from == 0 && l->ev[1].to == 1 && l->ev[1].count == 3);
    cr_expect(l->ev[2].t_hi == 2.6 && l->ev[2].count == 1);
    cr_expect(l->ev[3].t_lo == 2.7);
    hdo_evlist_clear(l);
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
