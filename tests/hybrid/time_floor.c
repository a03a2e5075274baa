/* time_floor.c -- the rows whose digits the rounding of the time makes
 * absolute (issue 23: ref/hybrid/sample.c time_floor) */
#include <criterion/criterion.h>
#include "hybrid.h"
#include "../model_util.h"

static const char *ball = "model ball\nparam g = 9.81\nparam e = 0.7\n"
                          "var h = 1\nvar v = 0\nvar f\n"
                          "mode fly\n  der(h) = v\n  der(v) = -g\n"
                          "  when h < %s goto fly with v = -e*v\n"
                          "  zeno goto rest\nend\n"
                          "mode rest\n  der(h) = v\n  der(v) = -g + f\n"
                          "  h = %s\n  when f < 0 goto fly\nend\n"
                          "start fly at 0\nuntil 3\n";

static void
parse_ball(hdo_model_t model, const char *level)
{
    char text[1024];
    snprintf(text, sizeof text, ball, level, level);
    tm_parse(model, text);
}

/* The ball's flights near its Zeno point are shorter than the time's
   rounding resolves: a row at t is off by v' = -g times the rounding of
   the arc's start time, 2^-prec |t| (prec = 133 at 30 digits, t = 2.56);
   v's floor is that over tol = 1e-35, 2.3e-4.  v after impact k is
   4.43 0.7^k: below the floor from k = 28, absolute from there (t =
   2.5584), relative before.  The ratio 2^-prec / tol is about 10^-5 at
   every D (9.2e-6 at 30 digits, 5.3e-6 at 40, prec = 167): at 40 digits
   the floor is 1.3e-4, passed from k = 30.  (The events' own states
   are not shifted in time and keep their digits further: issue 23's
   closing note.) */
Test(time_floor, short_arcs_of_a_cascade_are_absolute)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    parse_ball(model, "0");
    cr_assert_eq(tm_run(res, model, 30, NULL, &err), 0, "%s", err.message);
    slong v = tm_var(model, "v"), first;
    slong n = hdo_result_absolute(&first, res, v);
    cr_assert_gt(n, 0);
    cr_expect_gt(mpfr_cmp(res->rows[first].time, res->events[26].time), 0);
    cr_expect_lt(mpfr_cmp(res->rows[first].time, res->events[29].time), 0);
    hdo_result_t more;
    slong first40;
    cr_assert_eq(tm_run(more, model, 40, NULL, &err), 0, "%s", err.message);
    cr_assert_gt(hdo_result_absolute(&first40, more, v), 0);
    cr_expect_gt(mpfr_cmp(more->rows[first40].time, more->events[28].time), 0);
    cr_expect_lt(mpfr_cmp(more->rows[first40].time, more->events[31].time), 0);
    hdo_result_clear(more);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
