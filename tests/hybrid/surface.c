/* surface.c -- unit tests of hdo_run on a switching surface at an entry
   point (ref/hybrid/pattern.c): a relation identically zero takes its
   value at 0, a solution that does not continue uniquely is refused,
   and a relay at rest stays at rest (issue 23, items 4, 6, 7).  Every
   expected value is the closed form stated with the test. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hybrid.h"
#include "../model_util.h"
#include "run_util.h"

/* 1 when every row of res has variable v equal to want within 10^-28
   (want 0: |value| <= 10^-28). */
static int
column_is(const hdo_result_t res, slong v, double want)
{
    for (slong i = 0; i < res->nrows; i++)
        if (!close_to_d(res->rows[i].values + v, want, 28))
            return 0;
    return res->nrows > 0;
}

/* y = 0 for all t (der(y) = 0): sign(y) = 0, if y >= 0 then 1 else -1
   is 1, if y < 0 then 1 else -1 is -1 (model-format.md's definitions);
   before issue 23 all three were taken on the y < 0 side (-1, -1, 1). */
Test(surface, identically_zero_relation_takes_its_value_at_zero)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model z\nvar y = 0\nvar a, b, c\nmode m\n"
                    "  der(y) = 0\n  a = sign(y)\n"
                    "  b = if y >= 0 then 1 else -1\n"
                    "  c = if y < 0 then 1 else -1\nend\n"
                    "start m\nuntil 1\n");
    cr_assert_eq(tm_run(res, model, 30, "0.25", &err), 0, "%s", err.message);
    cr_expect_eq(res->nevents, 0);
    cr_expect(column_is(res, tm_var(model, "y"), 0));
    cr_expect(column_is(res, tm_var(model, "a"), 0), "sign(0) = 0");
    cr_expect(column_is(res, tm_var(model, "b"), 1), "0 >= 0");
    cr_expect(column_is(res, tm_var(model, "c"), -1), "not 0 < 0");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* An algebraic y = 0, and every piecewise function at 0: abs(0) +
   max(0, 0) + min(0, 0) = 0, 0 > 0 false, 0 >= 0 and 0 <= 0 true. */
Test(surface, identically_zero_algebraic)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model z\nvar y = 0\nvar a, b, c, d, e\nmode m\n"
                    "  y = 0\n  a = sign(y)\n"
                    "  b = abs(y) + max(y, 0) + min(y, 0)\n"
                    "  c = if y > 0 then 1 else 2\n"
                    "  d = if y >= 0 then 1 else 2\n"
                    "  e = if y <= 0 then 1 else 2\nend\n"
                    "start m\nuntil 1\n");
    cr_assert_eq(tm_run(res, model, 30, "0.25", &err), 0, "%s", err.message);
    cr_expect(column_is(res, tm_var(model, "a"), 0));
    cr_expect(column_is(res, tm_var(model, "b"), 0));
    cr_expect(column_is(res, tm_var(model, "c"), 2));
    cr_expect(column_is(res, tm_var(model, "d"), 1));
    cr_expect(column_is(res, tm_var(model, "e"), 1));
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Without a zero variant (one strictness only): the value at 0 is the
   >= side's, or the < side's for D > 0 alone.  A tank filled at rate 1
   while h >= 0 and not at all below, started at h = 0, has two
   solutions: h = t, and h = 0 (0 is in the convex hull of the fields
   1 and 0 on the surface: Filippov).  It is refused as not unique, not
   given one of them (review of issue 23, H5). */
Test(surface, identically_zero_one_strictness)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model z\nvar y = 0\nvar b, c\nmode m\n"
                    "  der(y) = 0\n  b = if y >= 0 then 1 else -1\n"
                    "  c = if y > 0 then 1 else -1\nend\n"
                    "start m\nuntil 1\n");
    cr_assert_eq(tm_run(res, model, 30, "0.25", &err), 0, "%s", err.message);
    cr_expect(column_is(res, tm_var(model, "b"), 1));
    cr_expect(column_is(res, tm_var(model, "c"), -1));
    hdo_result_clear(res);
    hdo_model_clear(model);
    tm_parse(model, "model tank\nvar h = 0\nmode m\n"
                    "  der(h) = if h >= 0 then 1 else 0\nend\n"
                    "start m\nuntil 1\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, HDO_ERR_NOT_UNIQUE, "%d %s", st, err.message);
    cr_expect(strstr(err.message, "not unique") != NULL, "%s", err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* y = 0 until t = 1 (der(y) = 0 there), then y = t - 1: sign(y) is 0 on
   [0, 1] and 1 after; the crossing of t < 1 into the zero variant
   decides the pattern anew. */
Test(surface, identically_zero_until_a_crossing)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model z\nvar y = 0\nvar a\nmode m\n"
                    "  der(y) = if t < 1 then 0 else 1\n  a = sign(y)\nend\n"
                    "start m\nuntil 2\n");
    cr_assert_eq(tm_run(res, model, 30, "0.25", &err), 0, "%s", err.message);
    slong y = tm_var(model, "y"), a = tm_var(model, "a");
    for (slong i = 0; i < res->nrows; i++) {
        double t = mpfr_get_d(res->rows[i].time, MPFR_RNDN);
        if (t < 0.99) {
            cr_expect(close_to_d(res->rows[i].values + a, 0, 28), "t = %g", t);
            cr_expect(close_to_d(res->rows[i].values + y, 0, 28), "t = %g", t);
        } else if (t > 1.01) {
            cr_expect(close_to_d(res->rows[i].values + a, 1, 28), "t = %g", t);
            cr_expect(close_to_d(res->rows[i].values + y, t - 1, 28), "t = %g",
                      t);
        }
    }
    cr_expect_eq(res->nevents, 1);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* der(x) = v, der(v) = -sign(x) from rest: the energy |x| + v^2/2 is
   conserved, so x = v = 0 is the only solution; both sides' fields
   point at x = 0 to second order only (x = -+t^2/2), which the
   first-order Filippov entry test cannot see, and sign(0) = 0 keeps
   x identically 0.  (Refused as chattering before issue 23.) */
Test(surface, relay_at_rest_stays_at_rest)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model c\nvar x = 0\nvar v = 0\nmode m\n"
                    "  der(x) = v\n  der(v) = -sign(x)\nend\n"
                    "start m\nuntil 1\n");
    cr_assert_eq(tm_run(res, model, 30, "0.125", &err), 0, "%s", err.message);
    cr_expect_eq(res->nevents, 0);
    cr_expect(column_is(res, tm_var(model, "x"), 0));
    cr_expect(column_is(res, tm_var(model, "v"), 0));
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* The other side of that rule: a relay at x = 0 whose fields point at
   the surface to first order slides (Filippov), as before. */
Test(surface, relay_at_zero_slides)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model r\nvar x = 0\nmode m\n  der(x) = -sign(x)\nend\n"
                    "start m\nuntil 1\n");
    cr_assert_eq(tm_run(res, model, 30, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_expect_eq(res->events[0].kind, HDO_EV_SLIDING_START);
    cr_expect(mpfr_zero_p(res->events[0].time));
    cr_expect(column_is(res, 0, 0));
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Runs text and expects HDO_ERR_NOT_UNIQUE at (line, col) in mode at
   time t, with the message naming what. */
static void
expect_not_unique(const char *text, int line, int col, const char *mode,
                  double t, const char *what)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    char want[64];
    tm_parse(model, text);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_expect_eq(st, HDO_ERR_NOT_UNIQUE, "%d: %s", st, err.message);
    snprintf(want, sizeof want, "the solution is not unique at t = %.6f", t);
    want[strlen(want) - 1] = '\0'; /* a prefix of the printed time */
    cr_expect(strstr(err.message, want) != NULL, "%s", err.message);
    cr_expect(strstr(err.message, what) != NULL, "%s", err.message);
    cr_expect(strstr(err.message, "hdo does not choose one") != NULL, "%s",
              err.message);
    cr_expect(err.line == line && err.col == col, "%d:%d", err.line, err.col);
    cr_expect(err.mode != NULL && strcmp(err.mode, mode) == 0, "%s",
              err.mode ? err.mode : "(none)");
    cr_expect(err.has_time && fabs(err.time - t) < 1e-12, "%g", err.time);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* der(x) = sign(x) from x = 0: x = t, x = -t and x = 0 all solve it
   (Camlibel et al. 2002, section 6.3); hdo printed x = -t. */
Test(surface, not_unique_repulsive_relation)
{
    expect_not_unique("model n\nvar x = 0\nmode m\n  der(x) = sign(x)\nend\n"
                      "start m\nuntil 1\n",
                      4, 12, "m", 0, "'x = 0'");
    /* the same to second order: x = +-t^2/2 */
    expect_not_unique("model n\nvar x = 0, v = 0\nmode m\n  der(x) = v\n"
                      "  der(v) = sign(x)\nend\nstart m\nuntil 1\n",
                      5, 12, "m", 0, "'x = 0'");
}

/* The same after a `when`, at t = 1 in the mode entered. */
Test(surface, not_unique_after_a_transition)
{
    expect_not_unique("model n\nvar x = 0, s = 0\n"
                      "mode wait\n  der(x) = 0\n  der(s) = 1\n"
                      "  when s > 1 goto go\nend\n"
                      "mode go\n  der(x) = sign(x)\n"
                      "  der(s) = 1\nend\n"
                      "start wait\nuntil 2\n",
                      9, 12, "go", 1, "'x = 0'");
}

/* Two modes on the two sides of x = 0, each leaving into its own side:
   A (x' = 1, feasible while x >= 0) and B (x' = -1, feasible while
   x <= 0) from x = 0.  The refusal names the `when` of the mode in
   which the run stands. */
Test(surface, not_unique_between_two_modes)
{
    expect_not_unique("model w\nvar x = 0\n"
                      "mode A\n  der(x) = 1\n  when x < 0 goto B\nend\n"
                      "mode B\n  der(x) = -1\n  when x > 0 goto A\nend\n"
                      "start A\nuntil 1\n",
                      5, 3, "A", 0, "between modes 'A' and 'B'");
}

/* The same entered by a `when` at t = 1 (from a third mode, x = 0). */
Test(surface, not_unique_between_two_modes_after_a_transition)
{
    expect_not_unique("model w\nvar x = 0, s = 0\n"
                      "mode C\n  der(x) = 0\n  der(s) = 1\n"
                      "  when s > 1 goto A\nend\n"
                      "mode A\n  der(x) = 1\n  der(s) = 1\n"
                      "  when x < 0 goto B\nend\n"
                      "mode B\n  der(x) = -1\n  der(s) = 1\n"
                      "  when x > 0 goto A\nend\n"
                      "start C\nuntil 2\n",
                      11, 3, "A", 1, "between modes 'A' and 'B'");
}

/* The unique counterparts run: B's field points back at the surface
   (x = t in A); and a `when` with a reset is a hybrid automaton's jump,
   not a side of a surface: A continues. */
Test(surface, unique_between_two_modes)
{
    static const char *const texts[] = {
        "model w\nvar x = 0\n"
        "mode A\n  der(x) = 1\n  when x < 0 goto B\nend\n"
        "mode B\n  der(x) = 1\n  when x > 0 goto A\nend\n"
        "start A\nuntil 1\n",
        "model w\nvar x = 0\n"
        "mode A\n  der(x) = 1\n  when x < 0 goto B with x = 0\nend\n"
        "mode B\n  der(x) = -1\n  when x > 0 goto A\nend\n"
        "start A\nuntil 1\n"};
    for (int i = 0; i < 2; i++) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, texts[i]);
        cr_assert_eq(tm_run(res, model, 30, NULL, &err), 0, "%s", err.message);
        const hdo_row *last = res->rows + res->nrows - 1;
        cr_expect(close_to_d(last->values + 0, 1, 28), "x(1) = 1");
        cr_expect_eq(res->nevents, 0);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* The same model as tests/model/thresholds.c zero_variants_boundary:
   der(y) = 0, der(x) = sign(y) + (if x >= j then 1 else 0, j = 1..10)
   from x = y = 0, so y = 0 and x = 0 for all t (sign(0) = 0).  With its
   zero variants (4096 modes in all) it runs; without them (a third mode
   of 2 patterns: 4098) the identically zero relation is not covered. */
static void
zero_variant_model(hdo_model_t model, int three)
{
    static char text[8192];
    size_t len = 0;
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "model z\nvar x = 0, y = 0\nmode m0\n"
                            "  der(y) = 0\n  der(x) = sign(y)");
    for (int j = 1; j <= 10; j++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " + if x >= %d then 1 else 0", j);
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "\nend\nmode m1\n  der(y) = 0\n  der(x) = 1");
    for (int j = 1; j <= 10; j++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " + if x >= %d then 1 else 0", j);
    len += (size_t)snprintf(text + len, sizeof text - len, "\nend\n");
    if (three)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "mode m2\n  der(y) = 0\n"
                                "  der(x) = if x >= 1 then 1 else 0\nend\n");
    snprintf(text + len, sizeof text - len, "start m0\nuntil 1\n");
    tm_parse(model, text);
}

Test(surface, zero_variants_beyond_the_cap, .timeout = 120)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    zero_variant_model(model, 0);
    cr_assert_eq(tm_run(res, model, 30, NULL, &err), 0, "%s", err.message);
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_expect(close_to_d(last->values + tm_var(model, "x"), 0, 28));
    hdo_result_clear(res);
    hdo_model_clear(model);
    zero_variant_model(model, 1);
    cr_expect_eq(tm_run(res, model, 30, NULL, &err), HDO_ERR_UNSUPPORTED);
    cr_expect(strstr(err.message, "the continuation is not covered at t = "
                                  "0") != NULL &&
                  strstr(err.message, "beyond the 4096") != NULL &&
                  err.line == 5 && err.col == 12,
              "%d:%d %s", err.line, err.col, err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* A side that cannot be entered is no continuation: on x = 0 with
   der(x) = -1, the pattern x >= 0 of (if x >= 0 then x else y) = 1 is
   structurally singular (x = 1 leaves y undetermined); the run takes
   x < 0 (y = 1, x = -t), as before the decision looked at both sides. */
Test(surface, singular_side_is_no_continuation)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model s\nvar x = 0\nvar y\nmode m\n  der(x) = -1\n"
                    "  (if x >= 0 then x else y) = 1\nend\n"
                    "start m\nuntil 1\n");
    cr_assert_eq(tm_run(res, model, 30, NULL, &err), 0, "%s", err.message);
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_expect(close_to_d(last->values + tm_var(model, "x"), -1, 28));
    cr_expect(close_to_d(last->values + tm_var(model, "y"), 1, 28));
    hdo_result_clear(res);
    hdo_model_clear(model);
}
