/* entry_bounds.c -- the end-time rule and the Filippov entry tests
 * (docs/decisions.md D-017, D-004) at their boundaries: a root within tol
 * max(u, |t_end|) (u = min(1, the span), D-112) of t_end on the last step
 * is not taken; sliding starts when |S_b|, L_a S <= sqrt(tol) < L_b S,
 * -L_b S_b and the gradients are parallel within sqrt(tol). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include "hybrid/driver.h"
#include "../model_util.h"
#include "run_util.h"

/* Expected values come from the rules as decisions.md D-017, D-004 states them
   and from closed forms (linear motion, exact dyadic values), never from a run
   of hdo. */

#define PREC 200

/* ------------------------------------------------------------------ */
/* The end-time rule */

/* hdo_run_event_at_end for a last step from t to t_end (h = t_end - t)
   with its root delta before t_end: tol = 2^-100, delta = f tol
   max(1, |t_end|), all exact at PREC bits. */
static int
at_end(double t, double t_end, double f)
{
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.prec = PREC;
    mpfr_inits2(PREC, c.tol, c.t, c.t_end, (mpfr_ptr)0);
    mpfr_set_ui_2exp(c.tol, 1, -100, MPFR_RNDN);
    mpfr_set_d(c.t, t, MPFR_RNDN);
    mpfr_set_d(c.t_end, t_end, MPFR_RNDN);
    mpfr_t h, root;
    mpfr_inits2(PREC, h, root, (mpfr_ptr)0);
    mpfr_set_d(h, t_end - t, MPFR_RNDN);
    double scale = fabs(t_end) > 1 ? fabs(t_end) : 1;
    cr_assert_eq(mpfr_mul_d(root, c.tol, f * scale, MPFR_RNDN), 0);
    cr_assert_eq(mpfr_sub(root, h, root, MPFR_RNDN), 0);
    int yes = hdo_run_event_at_end(&c, h, root);
    mpfr_clears(h, root, c.tol, c.t, c.t_end, (mpfr_ptr)0);
    return yes;
}

Test(hybrid_thresholds, end_time_rule_boundary)
{
    const double above = 1 + 1.0 / (1 << 20);
    /* t_end below 1: the tolerance is tol; equal is not taken */
    cr_assert(at_end(0, 0.5, 1));
    cr_assert(!at_end(0, 0.5, above));
    cr_assert(at_end(0, 0.5, 0.5));
    /* t_end = 3 from a step starting at 2: 3 tol (the tolerance of t_end,
       not the 2 tol of the step's start) */
    cr_assert(at_end(2, 3, 1));
    cr_assert(at_end(2, 3, 2.5 / 3));
    cr_assert(!at_end(2, 3, above));
    /* negative times: max(1, |t_end|) = 4 */
    cr_assert(at_end(-5, -4, 1));
    cr_assert(!at_end(-5, -4, above));
}

/* `der(x) = 1` from x = 0 at t = 0, `when x > a goto b`, until a + delta,
   at 20 digits (tol = 10^-25).  The series is a polynomial, so the
   natural step is one time unit max(u, |t|), u = min(1, until) (decisions.md
   D-016, D-112): steps 0 -> 1 -> 2 -> 4, or one step to until < 1.  Returns the
   number of events; the last row's mode in *mode. */
static slong
run_end(const char *a, const char *until, char *mode, size_t nmode)
{
    char text[512];
    snprintf(text, sizeof text,
             "model et\nvar x = 0\nmode a\n  der(x) = 1\n"
             "  when x > %s goto b\nend\nmode b\n  der(x) = 1\nend\n"
             "start a at 0\nuntil %s\n",
             a, until);
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, text);
    cr_assert_eq(tm_run(res, model, 20, NULL, &err), 0, "%s", err.message);
    slong n = res->nevents;
    if (n == 1) {
        mpfr_t want;
        mpfr_init2(want, PREC);
        mpfr_set_str(want, a[1] == '/' ? "0.5" : a, 10, MPFR_RNDN);
        cr_assert(close_to(res->events[0].time, want, 25), "event time %s", a);
        mpfr_clear(want);
    }
    const hdo_row *last = res->rows + res->nrows - 1;
    snprintf(mode, nmode, "%s", model->modes[last->mode].name);
    hdo_result_clear(res);
    hdo_model_clear(model);
    return n;
}

Test(hybrid_thresholds, end_time_rule_on_a_run)
{
    char mode[64];
    /* the event at 1/2 on the one step 0 -> 1/2 + delta: the span is
       below 1, the tolerance tol max(span, |t_end|) = 0.5e-25 (D-112; it
       was 1e-25, and 0.8 tol before t_end was not taken) */
    cr_assert_eq(
        run_end("1/2", "0.50000000000000000000000004", mode, sizeof mode), 0,
        "0.4 tol before t_end = 0.5: not taken");
    cr_assert_str_eq(mode, "a");
    cr_assert_eq(
        run_end("1/2", "0.50000000000000000000000006", mode, sizeof mode), 1,
        "0.6 tol before t_end = 0.5: taken");
    cr_assert_str_eq(mode, "b");
    cr_assert_eq(
        run_end("1/2", "0.50000000000000000000000008", mode, sizeof mode), 1,
        "0.8 tol before t_end = 0.5: taken");
    /* the event at 3 on the last step 2 -> 3 + delta: 3 tol = 3e-25 */
    cr_assert_eq(
        run_end("3", "3.00000000000000000000000025", mode, sizeof mode), 0,
        "2.5e-25 before t_end = 3: not taken");
    cr_assert_str_eq(mode, "a");
    cr_assert_eq(
        run_end("3", "3.00000000000000000000000035", mode, sizeof mode), 1,
        "3.5e-25 before t_end = 3: taken");
    /* the rule applies only on the step that reaches t_end: the event at
       1 ends the step 0 -> 1 (its natural length), 5e-26 before t_end,
       and is taken */
    cr_assert_eq(
        run_end("1", "1.00000000000000000000000005", mode, sizeof mode), 1,
        "found on a step that does not reach t_end: taken");
    cr_assert_str_eq(mode, "b");
}

/* ------------------------------------------------------------------ */
/* The Filippov entry tests */

/* v = (S_b, L_a S, L_b S, L_b S_b) = (0, -1, 1, -1) with component i
   set to x; tol = 2^-100, so sqrt(tol) = 2^-50 exactly. */
static int
entry(int i, double x)
{
    mpfr_ptr v = hdo_vec_init(4, PREC);
    mpfr_t tol;
    mpfr_init2(tol, PREC);
    mpfr_set_ui_2exp(tol, 1, -100, MPFR_RNDN);
    mpfr_set_d(v + 0, 0, MPFR_RNDN);
    mpfr_set_d(v + 1, -1, MPFR_RNDN);
    mpfr_set_d(v + 2, 1, MPFR_RNDN);
    mpfr_set_d(v + 3, -1, MPFR_RNDN);
    mpfr_set_d(v + i, x, MPFR_RNDN);
    int yes = hdo_run_sliding_entry_test(v, tol, PREC);
    hdo_vec_clear(v, 4);
    mpfr_clear(tol);
    return yes;
}

Test(hybrid_thresholds, filippov_entry_boundary)
{
    const double thr = ldexp(1, -50), up = thr * (1 + ldexp(1, -30)),
                 down = thr * (1 - ldexp(1, -30));
    cr_assert(entry(0, 0));
    /* |S_b| <= thr */
    cr_assert(entry(0, thr) && entry(0, -thr));
    cr_assert(!entry(0, up) && !entry(0, -up));
    /* L_a S <= thr: a's flow leaves (or is noise) */
    cr_assert(entry(1, thr) && entry(1, down));
    cr_assert(!entry(1, up));
    /* L_b S > thr: b's flow points back */
    cr_assert(!entry(2, thr) && !entry(2, down));
    cr_assert(entry(2, up));
    /* L_b S_b < -thr: b's flow leaves through S_b */
    cr_assert(!entry(3, -thr) && !entry(3, -down));
    cr_assert(entry(3, -up));
}

/* ga = (a, 0, 0), gb = (-b, b s1, b s2): sin^2 of the angle is
   (s1^2 + s2^2) / (1 + s1^2 + s2^2), and the test is s1^2 + s2^2 <=
   thr / (1 - thr) with thr = sqrt(tol) = 2^-50: s1 = 2^-25 (s^2 = thr)
   passes, s2 = 2^-35 more (s^2 = thr (1 + 2^-20)) fails. */
static int
opposite(double a, double b, double s1, double s2)
{
    mpfr_ptr ga = hdo_vec_init(3, PREC), gb = hdo_vec_init(3, PREC);
    mpfr_t tol;
    mpfr_init2(tol, PREC);
    mpfr_set_ui_2exp(tol, 1, -100, MPFR_RNDN);
    mpfr_set_d(ga + 0, a, MPFR_RNDN);
    mpfr_set_d(ga + 1, 0, MPFR_RNDN);
    mpfr_set_d(ga + 2, 0, MPFR_RNDN);
    mpfr_set_d(gb + 0, -b, MPFR_RNDN);
    mpfr_set_d(gb + 1, b * s1, MPFR_RNDN);
    mpfr_set_d(gb + 2, b * s2, MPFR_RNDN);
    int yes = hdo_run_gradients_opposite(ga, gb, 3, tol, PREC);
    hdo_vec_clear(ga, 3);
    hdo_vec_clear(gb, 3);
    mpfr_clear(tol);
    return yes;
}

Test(hybrid_thresholds, filippov_parallel_boundary)
{
    const double s = ldexp(1, -25), e = ldexp(1, -35);
    cr_assert(opposite(1, 1, 0, 0));
    cr_assert(opposite(1, 1, s, 0), "sin^2 = thr / (1 + thr)");
    cr_assert(!opposite(1, 1, s, e), "s^2 = thr (1 + 2^-20)");
    /* scale-free: |ga| = 3, |gb| = 5 */
    cr_assert(opposite(3, 5, s, 0));
    cr_assert(!opposite(3, 5, s, e));
    /* same direction, or orthogonal: not opposite */
    cr_assert(!opposite(-1, 1, 0, 0));
    cr_assert(!opposite(0, 1, 0, 0));

    /* equal is accepted: tol = 1/4 (thr = 1/2) and gradients at 45
       degrees, sin^2 = 1/2 = thr: (ga.gb)^2 = 1 = |ga|^2 |gb|^2 (1 - thr)
       exactly */
    mpfr_ptr ga = hdo_vec_init(2, PREC), gb = hdo_vec_init(2, PREC);
    mpfr_t tol;
    mpfr_init2(tol, PREC);
    mpfr_set_ui_2exp(tol, 1, -2, MPFR_RNDN);
    mpfr_set_si(ga + 0, 1, MPFR_RNDN);
    mpfr_set_si(ga + 1, 1, MPFR_RNDN);
    mpfr_set_si(gb + 0, -1, MPFR_RNDN);
    mpfr_set_si(gb + 1, 0, MPFR_RNDN);
    cr_assert(hdo_run_gradients_opposite(ga, gb, 2, tol, PREC), "equal");
    mpfr_set_ui_2exp(gb + 1, 1, -40, MPFR_RNDN); /* a little wider */
    cr_assert(!hdo_run_gradients_opposite(ga, gb, 2, tol, PREC));
    hdo_vec_clear(ga, 2);
    hdo_vec_clear(gb, 2);
    mpfr_clear(tol);
}

/* On the real path, at 20 digits: tol = 10^-25, sqrt(tol) =
   3.16227766e-13.  Mode A, der(x) = -1 from x = 1, reaches S_A = x = 0
   at t = 1 and switches to B (when x < 0); B goes back to A across S_B.
   Each model below puts one of the entry quantities at 0.79 and 1.26
   sqrt(tol) (2.5e-13 and 4e-13) with the others far from their
   thresholds.  Returns hdo_run's status. */
static int
run_pair(hdo_result_t res, const char *text, hdo_error_t *err)
{
    hdo_model_t model;
    tm_parse(model, text);
    int st = tm_run(res, model, 20, NULL, err);
    hdo_model_clear(model);
    return st;
}

static void
expect_event(const hdo_result_t res, slong k, hdo_event_kind kind,
             const char *t)
{
    cr_assert(k < res->nevents, "%ld events", (long)res->nevents);
    cr_assert_eq(res->events[k].kind, kind, "event %ld: kind %d", (long)k + 1,
                 (int)res->events[k].kind);
    mpfr_t want;
    mpfr_init2(want, PREC);
    mpfr_set_str(want, t, 10, MPFR_RNDN);
    cr_assert(close_to(res->events[k].time, want, 25), "event %ld time",
              (long)k + 1);
    mpfr_clear(want);
}

/* B: der(x) = k, `when m*x > 0 goto A` (S_B = -m x): L_B S_A = k,
   L_B S_B = -m k. */
static int
run_entry(hdo_result_t res, const char *k, const char *m, hdo_error_t *err)
{
    char text[512];
    snprintf(text, sizeof text,
             "model fk\nvar x = 1\n"
             "mode A\n  der(x) = -1\n  when x < 0 goto B\nend\n"
             "mode B\n  der(x) = %s\n  when %s*x > 0 goto A\nend\n"
             "start A at 0\nuntil 2\n",
             k, m);
    return run_pair(res, text, err);
}

/* L_B S_A = k > thr and L_B S_B = -m k < -thr together (m = 1), then
   each alone (the other far from its threshold). */
Test(hybrid_thresholds, filippov_entry_on_a_run)
{
    hdo_result_t res;
    hdo_error_t err;
    static const char *pass[3][2] = {
        {"4e-13", "1"}, {"4e-13", "1000000"}, {"1", "4e-13"}};
    for (int i = 0; i < 3; i++) {
        /* sliding from A at t = 1: alpha = k / (k + 1), x' = 0 */
        cr_assert_eq(run_entry(res, pass[i][0], pass[i][1], &err), 0, "%s",
                     err.message);
        cr_assert_eq(res->nevents, 1, "k = %s, m = %s", pass[i][0], pass[i][1]);
        expect_event(res, 0, HDO_EV_SLIDING_START, "1");
        cr_assert(close_to_d(res->rows[res->nrows - 1].values + 0, 0, 25));
        hdo_result_clear(res);
    }
    /* k = 2.5e-13 (m = 1, or 10^6: L_B S_B = -2.5e-7): A -> B is a
       switch; B is infeasible at once (S_B = 0, L_B S_B < 0), and B -> A
       passes the test (L_A S_B = m > thr, L_A S_A = -1): sliding from B
       at the same instant */
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(run_entry(res, "2.5e-13", i ? "1000000" : "1", &err), 0,
                     "%s", err.message);
        cr_assert_eq(res->nevents, 2);
        expect_event(res, 0, HDO_EV_SWITCH, "1");
        expect_event(res, 1, HDO_EV_SLIDING_START, "1");
        hdo_result_clear(res);
    }
    /* k = 1, m = 2.5e-13: A -> B a switch, and B -> A fails too (L_A S_B
       = m): A and B switch back and forth at t = 1 without a change of
       state, which ends at the chattering count */
    int st = run_entry(res, "1", "2.5e-13", &err);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_assert(strstr(err.message, "chattering") != NULL, "%s", err.message);
    expect_event(res, 0, HDO_EV_SWITCH, "1");
    for (slong k = 0; k < res->nevents; k++)
        cr_assert_neq(res->events[k].kind, HDO_EV_SLIDING_START);
    hdo_result_clear(res);
}

/* |S_B| <= thr: B leaves at `when x > e` (S_B = e - x, e at the
   switch); until 1 + 2.5e. */
Test(hybrid_thresholds, filippov_surface_offset_on_a_run)
{
    static const char *fmt = "model fe\nvar x = 1\n"
                             "mode A\n  der(x) = -1\n  when x < 0 goto B\nend\n"
                             "mode B\n  der(x) = 1\n  when x > %s goto A\nend\n"
                             "start A at 0\nuntil %s\n";
    char text[512];
    hdo_result_t res;
    hdo_error_t err;
    snprintf(text, sizeof text, fmt, "2.5e-13", "1.000000000000625");
    cr_assert_eq(run_pair(res, text, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    expect_event(res, 0, HDO_EV_SLIDING_START, "1");
    hdo_result_clear(res);
    /* e = 4e-13: not the same surface: x goes up to e at 1 + e, down to 0
       at 1 + 2e */
    snprintf(text, sizeof text, fmt, "4e-13", "1.000000000001");
    cr_assert_eq(run_pair(res, text, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 3);
    expect_event(res, 0, HDO_EV_SWITCH, "1");
    expect_event(res, 1, HDO_EV_SWITCH, "1.0000000000004");
    expect_event(res, 2, HDO_EV_SWITCH, "1.0000000000008");
    hdo_result_clear(res);
}

/* L_A S_A <= thr: mode C puts x = -10^-20 at t = 1 and enters A, which
   has der(x) = delta > 0 (it would not leave; the event is the reset's
   infeasible start).  B: der(x) = 1. */
Test(hybrid_thresholds, filippov_leaving_flow_on_a_run)
{
    static const char *fmt =
        "model fa\nvar x = 1\n"
        "mode C\n  der(x) = 0\n  when t > 1 goto A with x = -1/10^20\nend\n"
        "mode A\n  der(x) = %s\n  when x < 0 goto B\nend\n"
        "mode B\n  der(x) = 1\n  when x > 0 goto A\nend\n"
        "start C at 0\nuntil 2\n";
    char text[512];
    hdo_result_t res;
    hdo_error_t err;
    /* delta = 4e-13: A -> B a switch; B reaches x = 0 at 1 + 10^-20 and
       A takes over: x(2) = delta (1 - 10^-20) = 4e-13 to 25 digits */
    snprintf(text, sizeof text, fmt, "4e-13");
    cr_assert_eq(run_pair(res, text, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 3);
    expect_event(res, 1, HDO_EV_SWITCH, "1");
    expect_event(res, 2, HDO_EV_SWITCH, "1.00000000000000000001");
    cr_assert(close_to_d(res->rows[res->nrows - 1].values + 0, 4e-13, 25));
    hdo_result_clear(res);
    /* delta = 2.5e-13: taken as leaving: sliding starts; its weight
       alpha = 1 / (1 - delta) > 1 ends it at once into A, which is
       infeasible at once again: a cycle at one instant without change of
       state, which ends at the chattering count.  Its message names the
       sliding mode the cycle comes from. */
    snprintf(text, sizeof text, fmt, "2.5e-13");
    int st = run_pair(res, text, &err);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    expect_event(res, 1, HDO_EV_SLIDING_START, "1");
    cr_assert(strstr(err.message, "chattering: modes 'sliding(A,B)' and 'A'") !=
                  NULL,
              "%s", err.message);
    hdo_result_clear(res);
}

/* Gradients parallel within sqrt(tol): S_B = -(x + s y) with y = 0 at the
   point; sin^2 of the angle to S_A = x is s^2 / (1 + s^2). */
Test(hybrid_thresholds, filippov_parallel_on_a_run)
{
    static const char *fmt =
        "model fs\nvar x = 1, y = 0\n"
        "mode A\n  der(x) = -1\n  der(y) = 0\n  when x < 0 goto B\nend\n"
        "mode B\n  der(x) = 1\n  der(y) = 0\n  when x + %s*y > 0 goto A\nend\n"
        "start A at 0\nuntil 2\n";
    char text[512];
    hdo_result_t res;
    hdo_error_t err;
    /* s = 5e-7: s^2 = 2.5e-13 */
    snprintf(text, sizeof text, fmt, "5e-7");
    cr_assert_eq(run_pair(res, text, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    expect_event(res, 0, HDO_EV_SLIDING_START, "1");
    hdo_result_clear(res);
    /* s = 6.3e-7: s^2 = 3.97e-13: two surfaces that meet at the point; B
       and A switch back and forth at t = 1 without sliding: chattering */
    snprintf(text, sizeof text, fmt, "6.3e-7");
    int st = run_pair(res, text, &err);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_assert(strstr(err.message, "chattering") != NULL, "%s", err.message);
    expect_event(res, 0, HDO_EV_SWITCH, "1");
    for (slong k = 0; k < res->nevents; k++)
        cr_assert_neq(res->events[k].kind, HDO_EV_SLIDING_START);
    hdo_result_clear(res);
}
