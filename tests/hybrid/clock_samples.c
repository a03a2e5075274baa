/* clock_samples.c -- a sample whose exact time is an event's of a
 * switching function of t alone (a PWM edge on the sampling grid): the
 * event's two rows stand for it, whatever way the two times round
 * (cli.md, trajectory.csv) */
#include <criterion/criterion.h>
#include <string.h>
#include "hybrid.h"
#include "../model_util.h"

/* PWM of period 1/10: edges at k/20, every one on the grid of --every
   1/100; x counts up while on, down while off */
static const char *pwm_text = "model pwm\n"
                              "param T = 1/10\n"
                              "var x = 0\n"
                              "mode on\n"
                              "  der(x) = 1\n"
                              "  when sin(2*pi*t/T) < 0 goto off\n"
                              "end\n"
                              "mode off\n"
                              "  der(x) = -1\n"
                              "  when sin(2*pi*t/T) > 0 goto on\n"
                              "end\n"
                              "start on at 0\n"
                              "until 1\n";

/* Every event has exactly its two rows at its time (left in the mode
   left, right in the target), no sample row beside them, and the grid
   point there has no row: 101 grid points, 19 edges inside (0, 1) (the
   one at 1 = until is not taken), so 101 - 19 samples. */
static void
check_pwm(long digits)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, pwm_text);
    int st = tm_run(res, model, digits, "0.01", &err);
    cr_assert_eq(st, 0, "%ld digits: %s", digits, err.message);
    cr_assert_eq(res->nevents, 19, "%ld digits: %ld events", digits,
                 (long)res->nevents);
    slong samples = 0;
    for (slong i = 0; i < res->nrows; i++)
        samples += res->rows[i].sample >= 0;
    cr_expect_eq(samples, 101 - 19, "%ld digits: %ld sample rows", digits,
                 (long)samples);
    cr_expect_eq(res->nrows, 101 - 19 + 2 * 19, "%ld digits: %ld rows", digits,
                 (long)res->nrows);
    for (slong k = 0; k < res->nevents; k++) {
        const hdo_event *e = res->events + k;
        slong n = 0;
        for (slong i = 0; i < res->nrows; i++)
            if (mpfr_equal_p(res->rows[i].time, e->time))
                n++;
        cr_expect_eq(n, 2, "%ld digits: %ld rows at the edge %ld", digits,
                     (long)n, (long)k + 1);
        cr_expect(e->row_left >= 0 && e->row_right == e->row_left + 1);
        cr_expect_eq(res->rows[e->row_left].mode, e->from);
        cr_expect_eq(res->rows[e->row_right].mode, e->to);
        /* the row before the event is the grid point one before: the
           edge (k + 1)/20 is grid point 5 (k + 1) */
        const hdo_row *prev = res->rows + e->row_left - 1;
        cr_expect_eq(prev->sample, 5 * (k + 1) - 1,
                     "%ld digits: the row before edge %ld is sample %ld",
                     digits, (long)k + 1, (long)prev->sample);
        if (e->row_right + 1 < res->nrows)
            cr_expect_eq(res->rows[e->row_right + 1].sample, 5 * (k + 1) + 1,
                         "%ld digits: the row after edge %ld is sample %ld",
                         digits, (long)k + 1,
                         (long)res->rows[e->row_right + 1].sample);
    }
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Before the fix the rounded event time and the rounded grid time
   ordered the two either way: a grid point whose rounded time fell
   before the edge's came as a row in the mode left, one that fell after
   as a third row in the target, and only an equal one was left out: 87,
   90, 89, 90 and 91 sample rows of the 82 at 16, 20, 25, 30 and 40
   digits.  Several precisions: each rounds differently. */
Test(hybrid_clock, pwm_edge_on_the_grid_has_the_event_rows_only)
{
    static const long digits[] = {16, 20, 25, 30, 40};
    for (size_t i = 0; i < sizeof digits / sizeof *digits; i++)
        check_pwm(digits[i]);
}

/* An edge 10^-40 after a grid point, closer than any of these runs
   tells times apart: the exact sign of the clock at the sample's time
   puts the sample before the event (mode a), not on it. */
Test(hybrid_clock, sample_just_before_a_clock_edge_stays_before)
{
    static const char *text = "model near\n"
                              "var x = 0\n"
                              "mode a\n"
                              "  der(x) = 1\n"
                              "  when t > 1/2 + 10^-40 goto b\n"
                              "end\n"
                              "mode b\n"
                              "  der(x) = -1\n"
                              "end\n"
                              "start a at 0\n"
                              "until 1\n";
    static const long digits[] = {16, 25, 30};
    for (size_t d = 0; d < sizeof digits / sizeof *digits; d++) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, text);
        int st = tm_run(res, model, digits[d], "0.25", &err);
        cr_assert_eq(st, 0, "%s", err.message);
        cr_assert_eq(res->nevents, 1);
        const hdo_event *e = res->events;
        cr_assert(e->row_left >= 1);
        const hdo_row *s = res->rows + e->row_left - 1;
        cr_expect_eq(s->sample, 2,
                     "%ld digits: the row before the event is "
                     "sample %ld",
                     digits[d], (long)s->sample);
        cr_expect_eq(s->mode, 0, "%ld digits: the sample 1/2 in mode %ld",
                     digits[d], (long)s->mode);
        cr_expect_eq(res->nrows, 5 + 2, "%ld digits: %ld rows", digits[d],
                     (long)res->nrows);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}
