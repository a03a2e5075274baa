/* run.c -- tests of hdo_run on small ODE models: events against closed forms,
 * simultaneity, infeasible starts, Zeno, chattering, sampling */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "hybrid.h"
#include "../model_util.h"
#include "run_util.h"

/* Expected values come from closed forms evaluated here with MPFR (the
   ball's impact times, exact event times of linear arcs), never from
   hdo_run itself. */

static const char *ball_text = "model ball\n"
                               "param g = 9.81\n"
                               "param e = 0.7\n"
                               "var h = 1, v = 0\n"
                               "mode fly\n"
                               "  der(h) = v\n"
                               "  der(v) = -g\n"
                               "  when h < 0 goto fly with v = -e*v\n"
                               "end\n"
                               "start fly at 0\n"
                               "until 2.5\n";

Test(hybrid, run_ball_impacts_closed_form)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, ball_text);
    int st = tm_run(res, model, 40, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    /* t1 = sqrt(2/g), t_{k+1} = t_k + 2 e^k t1; 2.5 lies between t_11 =
       2.4936... and t_12 = 2.5191..., so 11 impacts */
    mpfr_prec_t prec = 300;
    mpfr_t g, e, t1, t, ek, vl;
    mpfr_inits2(prec, g, e, t1, t, ek, vl, (mpfr_ptr)0);
    mpfr_set_str(g, "9.81", 10, MPFR_RNDN);
    mpfr_set_str(e, "0.7", 10, MPFR_RNDN);
    mpfr_ui_div(t1, 2, g, MPFR_RNDN);
    mpfr_sqrt(t1, t1, MPFR_RNDN);
    mpfr_set(t, t1, MPFR_RNDN);
    mpfr_set_ui(ek, 1, MPFR_RNDN);
    cr_assert_eq(res->nevents, 11);
    slong v = hdo_model_find_var(model, "v");
    for (slong k = 0; k < res->nevents; k++) {
        const hdo_event *ev = res->events + k;
        cr_assert(close_to(ev->time, t, 40), "impact %ld time", (long)k + 1);
        cr_assert_eq(ev->kind, HDO_EV_SWITCH);
        /* v just before impact k+1: -g t1 e^k; just after: -e times it */
        mpfr_mul(vl, g, t1, MPFR_RNDN);
        mpfr_mul(vl, vl, ek, MPFR_RNDN);
        mpfr_neg(vl, vl, MPFR_RNDN);
        cr_assert(close_to(ev->left + v, vl, 39), "impact %ld v-", (long)k + 1);
        mpfr_mul(vl, vl, e, MPFR_RNDN);
        mpfr_neg(vl, vl, MPFR_RNDN);
        cr_assert(close_to(ev->right + v, vl, 39), "impact %ld v+",
                  (long)k + 1);
        mpfr_mul(ek, ek, e, MPFR_RNDN);
        mpfr_mul(vl, ek, t1, MPFR_RNDN);
        mpfr_mul_2ui(vl, vl, 1, MPFR_RNDN);
        mpfr_add(t, t, vl, MPFR_RNDN);
    }
    /* rows: 1001 grid rows plus 2 per event, in time order */
    cr_assert_eq(res->nrows, 1001 + 2 * 11);
    for (slong i = 1; i < res->nrows; i++)
        cr_assert(mpfr_cmp(res->rows[i - 1].time, res->rows[i].time) <= 0);
    cr_assert(mpfr_cmp_ui(res->rows[res->nrows - 1].time, 0) > 0);
    cr_assert(mpfr_cmp_d(res->rows[res->nrows - 1].time, 2.5) == 0);
    mpfr_clears(g, e, t1, t, ek, vl, (mpfr_ptr)0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_simultaneous_first_in_file_order)
{
    /* x' = 1 from 0: `t > 1` and `x > 1` both reach zero at t = 1; the
       first `when` in file order is taken, marked simultaneous */
    const char *text[2] = {
        "model sim\nvar x = 0\n"
        "mode a\n  der(x) = 1\n  when t > 1 goto b\n  when x > 1 goto c\nend\n"
        "mode b\n  der(x) = 2\nend\nmode c\n  der(x) = 3\nend\n"
        "start a\nuntil 2\n",
        "model sim\nvar x = 0\n"
        "mode a\n  der(x) = 1\n  when x > 1 goto c\n  when t > 1 goto b\nend\n"
        "mode b\n  der(x) = 2\nend\nmode c\n  der(x) = 3\nend\n"
        "start a\nuntil 2\n"};
    const char *target[2] = {"b", "c"};
    for (int i = 0; i < 2; i++) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, text[i]);
        int st = tm_run(res, model, 30, NULL, &err);
        cr_assert_eq(st, 0, "%s", err.message);
        cr_assert_eq(res->nevents, 1);
        cr_assert_eq(res->events[0].kind, HDO_EV_SIMULTANEOUS);
        cr_assert_str_eq(model->modes[res->events[0].to].name, target[i]);
        cr_assert(close_to_d(res->events[0].time, 1, 30), "time");
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

Test(hybrid, run_infeasible_start_switches_at_once)
{
    /* x(0) = -1 is infeasible for a (x < 0 is its event): switch to b at
       t0 = 0.5, where x' = 2 gives x(2) = -1 + 2 * 1.5 = 2 */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model inf\nvar x = -1\n"
                    "mode a\n  der(x) = -1\n  when x < 0 goto b\nend\n"
                    "mode b\n  der(x) = 2\nend\n"
                    "start a at 0.5\nuntil 2\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_assert(mpfr_cmp_d(res->events[0].time, 0.5) == 0);
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert(close_to_d(last->values + 0, 2, 30), "x(2)");
    cr_assert_str_eq(model->modes[last->mode].name, "b");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_zero_at_arc_start_leaving_feasibly_is_no_event)
{
    /* after the switch at x = 0, mode b sits on its own surface (it has
       `when x < 0` too) with x' = 1 > 0: it leaves it feasibly, so there
       is exactly one event */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model leave\nvar x = 1\n"
                    "mode a\n  der(x) = -1\n  when x < 0 goto b\nend\n"
                    "mode b\n  der(x) = 1\n  when x < 0 goto a\nend\n"
                    "start a\nuntil 3\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_assert(close_to_d(res->events[0].time, 1, 30), "time");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_chattering_is_an_error)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model ch\nvar x = 1\n"
                    "mode l\n  der(x) = -1\n  when x < 0 goto r\nend\n"
                    "mode r\n  der(x) = 1\n  when x > 0 goto l\nend\n"
                    "chattering stop\nstart l\nuntil 3\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, HDO_ERR_CHATTERING);
    cr_assert(strstr(err.message, "chattering stop") != NULL, "%s",
              err.message);
    cr_assert(err.has_time && err.time > 0.999 && err.time < 1.001);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_filippov_sliding)
{
    /* the same pair with the default `chattering filippov`: sliding on
       x = 0 from t = 1 (alpha = 1/2) to the end, one sliding-start */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model ch\nvar x = 1\n"
                    "mode l\n  der(x) = -1\n  when x < 0 goto r\nend\n"
                    "mode r\n  der(x) = 1\n  when x > 0 goto l\nend\n"
                    "start l\nuntil 3\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_assert_eq(res->events[0].kind, HDO_EV_SLIDING_START);
    cr_assert(close_to_d(res->events[0].time, 1, 30), "time");
    cr_assert_eq(res->events[0].to, model->nmodes + 0 * model->nmodes + 1);
    /* x' = -alpha + (1 - alpha), 0 = x: alpha from x' = 0 (index 2),
       d = 0, a = 2 (x = 0 and x' = 0) */
    cr_assert_eq(res->nsliding, 1);
    expect_sliding_info(res, 0, res->events[0].to, 1, 1, 0, 2, 2);
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert(mpfr_cmpabs_ui(last->values + 0, 0) == 0 ||
                  mpfr_get_exp(last->values + 0) < -90,
              "x at the end");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_filippov_sliding_with_algebraic_part)
{
    /* the modes share the algebraic equation y = 2 t: the sliding mode
       keeps it (y = 6 at t = 3), x = 0 from t = 1 */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model ch\nvar x = 1, y = 0\n"
                    "mode l\n  der(x) = -1\n  y = 2*t\n"
                    "  when x < 0 goto r\nend\n"
                    "mode r\n  der(x) = 1\n  y = 2*t\n"
                    "  when x > 0 goto l\nend\n"
                    "start l\nuntil 3\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 1);
    cr_assert_eq(res->events[0].kind, HDO_EV_SLIDING_START);
    cr_assert(close_to_d(res->events[0].time, 1, 30), "time");
    /* unknowns x, y, alpha: y = 2 t, x = 0, x' = 0; no freedom left */
    expect_sliding_info(res, 0, res->events[0].to, 1, 1, 0, 3, 3);
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert(close_to_d(last->values + 1, 6, 30), "y at the end");
    cr_assert(mpfr_cmpabs_ui(last->values + 0, 0) == 0 ||
                  mpfr_get_exp(last->values + 0) < -90,
              "x at the end");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* stick-slip with a ramp force sg t and friction limit 1, in modes of
   strangeness index 2 that share the constraint y = 0 with its multiplier
   lam (w' = v - lam, so lam = v); sg = 1: v' = t -+ 1 from v = -1 in neg,
   sg = -1 the mirror image (v' = -t -+ 1 from v = 1 in pos) */
static void
ramp_stick(int sg)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    const char *common = "  der(x) = v\n  der(y) = w\n"
                         "  der(w) = v - lam\n  y = 0\n";
    const char *f = sg > 0 ? "t" : "-t";
    char text[600];
    snprintf(text, sizeof text,
             "model ramp_stick\nvar x = 0, v = %d, y = 0, w = 0, lam = 0\n"
             "mode pos\n  der(v) = %s - 1\n%s  when v < 0 goto neg\nend\n"
             "mode neg\n  der(v) = %s + 1\n%s  when v > 0 goto pos\nend\n"
             "start %s at 0\nuntil 2\n",
             -sg, f, common, f, common, sg > 0 ? "neg" : "pos");
    tm_parse(model, text);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 2);
    mpfr_t ts, x2;
    mpfr_inits2(200, ts, x2, (mpfr_ptr)0);
    mpfr_sqrt_ui(ts, 3, MPFR_RNDN);
    mpfr_ui_sub(x2, 0, ts, MPFR_RNDN);
    mpfr_add_d(x2, x2, 1.5, MPFR_RNDN); /* 3/2 - sqrt(3) */
    mpfr_mul_si(x2, x2, sg, MPFR_RNDN);
    mpfr_sub_ui(ts, ts, 1, MPFR_RNDN);
    cr_assert_eq(res->events[0].kind, HDO_EV_SLIDING_START);
    cr_assert(close_to(res->events[0].time, ts, 28), "sliding start");
    cr_assert_eq(res->events[1].kind, HDO_EV_SLIDING_END);
    cr_assert(close_to_d(res->events[1].time, 1, 28), "sliding end");
    /* sg = 1: alpha (pos's weight) = (t + 1)/2 reaches 1, into pos;
       sg = -1: alpha = (1 - t)/2 reaches 0, into neg */
    cr_assert_eq(res->events[1].to, sg > 0 ? 0 : 1);
    cr_assert_str_eq(res->events[1].guard, sg > 0 ? "alpha = 1" : "alpha = 0");
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert(close_to_d(last->values + 1, 0.5 * sg, 28), "v at the end");
    cr_assert(close_to_d(last->values + 4, 0.5 * sg, 28), "lam at the end");
    cr_assert(close_to(last->values + 0, x2, 28), "x at the end");
    mpfr_clears(ts, x2, (mpfr_ptr)0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_filippov_sliding_ends_in_dae_modes)
{
    /* v reaches 0 at ts = sqrt(3) - 1 and sticks; the stick force needs
       |t| > 1 at t = 1: sliding-end (alpha = 1 into pos for sg = 1,
       alpha = 0 into neg for sg = -1), then v = sg (t - 1)^2/2.  At t = 2:
       v = lam = sg/2, x = sg (3/2 - sqrt(3)).  The bowed string's stick
       (sliding of two DAE modes) ends the same way. */
    ramp_stick(1);
    ramp_stick(-1);
}

Test(hybrid, run_sliding_meets_a_second_surface)
{
    /* sliding on x = 0 from t = 1; a's other surface y = 0 is reached at
       t = 2 while sliding: not covered, a clear error */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model ch\nvar x = 1, y = 2\n"
                    "mode a\n  der(x) = -1\n  der(y) = -1\n"
                    "  when x < 0 goto b\n  when y < 0 goto c\nend\n"
                    "mode b\n  der(x) = 1\n  der(y) = -1\n"
                    "  when x > 0 goto a\nend\n"
                    "mode c\n  der(x) = 0\n  der(y) = 0\nend\n"
                    "start a\nuntil 3\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_assert(strstr(err.message, "intersection of surfaces") != NULL, "%s",
              err.message);
    cr_assert(strstr(err.message, "y < 0") != NULL, "%s", err.message);
    cr_assert(err.has_time && err.time > 1.999 && err.time < 2.001);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_hysteresis_moves_the_surfaces)
{
    /* `chattering hysteresis 1/10`: l leaves at x = -1/10 (t = 1.1), r at
       x = +1/10 (t = 1.3), l again at t = 1.5 ... */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model ch\nvar x = 1\n"
                    "mode l\n  der(x) = -1\n  when x < 0 goto r\nend\n"
                    "mode r\n  der(x) = 1\n  when x > 0 goto l\nend\n"
                    "chattering hysteresis 1/10\nstart l\nuntil 2\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, 5);
    cr_assert(close_to_d(res->events[0].time, 1.1, 15), "t1");
    cr_assert(close_to_d(res->events[1].time, 1.3, 15), "t2");
    cr_assert(close_to_d(res->events[4].time, 1.9, 15), "t5");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_zeno_with_clause)
{
    /* the ball with an ODE rest mode: the accumulation point
       t1 (1 + e) / (1 - e) is where the zeno clause is taken */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, "model bz\nparam g = 9.81\nparam e = 0.7\n"
                    "var h = 1, v = 0\n"
                    "mode fly\n  der(h) = v\n  der(v) = -g\n"
                    "  when h < 0 goto fly with v = -e*v\n"
                    "  zeno goto rest with v = 0\nend\n"
                    "mode rest\n  der(h) = 0\n  der(v) = 0\nend\n"
                    "start fly\nuntil 3\n");
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    const hdo_event *z = res->events + res->nevents - 1;
    cr_assert_eq(z->kind, HDO_EV_ZENO);
    cr_assert_str_eq(model->modes[z->to].name, "rest");
    mpfr_t tz, x;
    mpfr_inits2(200, tz, x, (mpfr_ptr)0);
    mpfr_set_str(x, "9.81", 10, MPFR_RNDN);
    mpfr_ui_div(tz, 2, x, MPFR_RNDN);
    mpfr_sqrt(tz, tz, MPFR_RNDN);
    mpfr_mul_ui(tz, tz, 17, MPFR_RNDN);
    mpfr_div_ui(tz, tz, 3, MPFR_RNDN); /* (1 + 0.7) / (1 - 0.7) = 17/3 */
    cr_assert(close_to(z->time, tz, 30), "zeno time");
    /* every impact before it is separated by more than the tolerance */
    cr_assert(res->nevents > 100);
    mpfr_clears(tz, x, (mpfr_ptr)0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_errors)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    hdo_run_options opt;
    fmpq_t q;
    tm_parse(model, ball_text);
    /* the options are read once, naming the option (hdo_run_parse_time);
       a step that is not positive is refused by the run too */
    fmpq_init(q);
    cr_assert_eq(hdo_run_parse_time(q, "--every", "0", 1, &err), HDO_ERR_INPUT);
    cr_expect_str_eq(err.message,
                     "--every: expected a positive decimal number, got '0'");
    cr_expect(err.file == NULL);
    cr_assert_eq(hdo_run_parse_time(q, "--every", "abc", 1, &err),
                 HDO_ERR_INPUT);
    fmpq_set_si(q, -1, 2);
    hdo_run_options_init(&opt);
    opt.every = q;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), HDO_ERR_INPUT);
    cr_expect(strstr(err.message, "--every") != NULL, "%s", err.message);
    hdo_result_clear(res);
    fmpq_clear(q);
    hdo_run_options_init(&opt);
    opt.max_events = 3;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), HDO_ERR_TOO_MUCH_WORK);
    cr_assert_eq(res->nevents, 4); /* the 4th is the one refused */
    hdo_result_clear(res);
    /* --max-events N allows exactly N events: the ball has 11 impacts
       before t = 2.5 (closed form, see run_ball_impacts) */
    hdo_run_options_init(&opt);
    opt.max_events = 11;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 11);
    hdo_result_clear(res);
    hdo_run_options_init(&opt);
    opt.max_events = 10;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), HDO_ERR_TOO_MUCH_WORK);
    hdo_result_clear(res);
    hdo_run_options_init(&opt);
    opt.max_steps = 2;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), HDO_ERR_TOO_MUCH_WORK);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, agreement_of_two_precisions)
{
    /* the same ball at 30 and 40 digits agrees to about 30 digits; a
       slightly different model (g = 9.8, one impact fewer) to none */
    hdo_model_t model, other;
    hdo_result_t a, b;
    hdo_error_t err;
    tm_parse(model, ball_text);
    cr_assert_eq(tm_run(a, model, 30, NULL, &err), 0);
    cr_assert_eq(tm_run(b, model, 40, NULL, &err), 0);
    long d = hdo_result_agreement(a, b);
    cr_assert(d >= 28 && d <= 30, "agreement %ld", d);
    hdo_result_clear(b);
    char *t = strdup(ball_text);
    memcpy(strstr(t, "9.81"), "9.80", 4);
    tm_parse(other, t);
    free(t);
    cr_assert_eq(tm_run(b, other, 40, NULL, &err), 0);
    d = hdo_result_agreement(a, b);
    cr_assert(d <= 4, "agreement with another model %ld", d);
    /* the place of the fewest digits, before the event lists part (g =
       9.8 has one impact fewer before t = 2.5): the first impact's
       velocity, -sqrt(2 g) = -4.4294469180700... against -4.4271887242357...
       (closed form; relative difference 5.1e-4, 3 digits; its time
       differs by 2.3e-4 against the time scale 2.5, 4 digits) */
    char where[1024];
    long d2 = hdo_result_agreement_where(where, sizeof where, model, a, b);
    cr_assert_eq(d2, d);
    cr_assert(strstr(where, "event 1 at t = 0.451523640985") == where &&
                  strstr(where, "v before it: -4.4294469180700") != NULL &&
                  strstr(where, "against -4.4271887242357") != NULL &&
                  strstr(where, "(3 digits)") != NULL,
              "%s", where);
    hdo_result_clear(a);
    hdo_result_clear(b);
    hdo_model_clear(model);
    hdo_model_clear(other);
}

/* the ball (h0 = 1, e = 0.7) with `zeno goto rest`, until 3 (after the
   accumulation point t* = 2.5586...) */
static const char *ball_zeno_text =
    "model bz\nparam g = 9.81\nparam e = 0.7\n"
    "var h = 1, v = 0\n"
    "mode fly\n  der(h) = v\n  der(v) = -g\n"
    "  when h < 0 goto fly with v = -e*v\n"
    "  zeno goto rest with v = 0\nend\n"
    "mode rest\n  der(h) = 0\n  der(v) = 0\nend\n"
    "start fly\nuntil 3\n";

Test(hybrid, agreement_across_a_zeno_point)
{
    /* the tighter run follows more impacts before the accumulation point;
       the common ones and the zeno events are compared */
    hdo_model_t model;
    hdo_result_t a, b;
    hdo_error_t err;
    tm_parse(model, ball_zeno_text);
    cr_assert_eq(tm_run(a, model, 30, NULL, &err), 0);
    cr_assert_eq(tm_run(b, model, 40, NULL, &err), 0);
    cr_assert(b->nevents > a->nevents, "%ld vs %ld events", (long)b->nevents,
              (long)a->nevents);
    long d = hdo_result_agreement(a, b);
    cr_assert(d >= 28 && d <= 30, "agreement %ld", d);
    hdo_result_clear(a);
    hdo_result_clear(b);
    hdo_model_clear(model);
}

/* Time events with geometrically shrinking gaps (t_k = 2 - 2^-k, k = 1..8)
   that end in a cascade of instantaneous switches: the pattern of the
   boost converter's PWM edges (gaps 0.1, 0.06, then the diode switching
   at once), which a Zeno test on shrinking gaps alone took for an
   accumulation at the Aitken point 2 (boost_converter: "Zeno at 0.41").
   The gaps are macroscopic, so these are ordinary events. */
static const char *cascade_text =
    "model cascade\nvar x = 0, k = 1\n"
    "mode m\n  der(x) = 1\n  der(k) = 0\n"
    "  when t > 2 - 1/2^k goto m with k = k + 1\n"
    "  when k > 8 goto n with x = -1\nend\n"
    "mode n\n  der(x) = 1\n  der(k) = 0\n  when x < 0 goto p\nend\n"
    "mode p\n  der(x) = 1\n  der(k) = 0\nend\n"
    "start m at 0\nuntil 3\n";

Test(hybrid, run_shrinking_gaps_then_cascade_is_not_zeno)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, cascade_text);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    /* 8 time events at 2 - 2^-k, then m -> n -> p at once at 2 - 2^-8 */
    cr_assert_eq(res->nevents, 10);
    for (slong k = 0; k < 10; k++) {
        double tk = 2 - 1.0 / (double)(1L << (k < 8 ? k + 1 : 8));
        cr_assert(mpfr_cmp_d(res->events[k].time, tk) == 0, "event %ld",
                  (long)k + 1);
        cr_assert_neq(res->events[k].kind, HDO_EV_ZENO);
    }
    /* x = -1 at 2 - 2^-8, then x' = 1: x(3) = 2^-8 */
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert_str_eq(model->modes[last->mode].name, "p");
    cr_assert(mpfr_cmp_d(last->values + 0, 1.0 / 256) == 0 ||
                  close_to_d(last->values + 0, 1.0 / 256, 30),
              "x(3)");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Zeno at one instant: at t = 1 the reset v -> v/2, w -> w + v keeps
   x = 0 infeasible (x' = v < 0) forever; v = -2^-k -> 0, w -> -2. */
static const char *livelock_text =
    "model live\nvar x = 0, v = -1, w = 0\n"
    "mode a\n  der(x) = v\n  der(v) = 0\n  der(w) = 0\n"
    "  when x < 0 goto a with v = v/2, w = w + v\n"
    "  zeno goto b\nend\n"
    "mode b\n  der(x) = 1\n  der(v) = 0\n  der(w) = 0\nend\n"
    "start a at 1\nuntil 3\n";

Test(hybrid, run_livelock_takes_the_zeno_clause)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, livelock_text);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    slong x = hdo_model_find_var(model, "x"),
          v = hdo_model_find_var(model, "v"),
          w = hdo_model_find_var(model, "w");
    cr_assert(res->nevents >= 2);
    const hdo_event *z = res->events + res->nevents - 1;
    cr_assert_eq(z->kind, HDO_EV_ZENO);
    cr_assert_str_eq(model->modes[z->to].name, "b");
    for (slong k = 0; k < res->nevents; k++) {
        const hdo_event *ev = res->events + k;
        cr_assert(mpfr_cmp_ui(ev->time, 1) == 0, "event %ld time", (long)k);
        if (k + 1 < res->nevents) {
            /* left limit before switch k+1: v = -2^-k, w = -2 + 2^(1-k) */
            cr_assert(mpfr_cmp_d(ev->left + v, -1.0 / (double)(1L << k)) == 0);
            cr_assert(mpfr_cmp_d(ev->left + w, -2 + 2.0 / (double)(1L << k)) ==
                      0);
        }
    }
    /* the limit: v = 0, w = -2, x = 0, on both sides of the zeno event */
    cr_assert(close_to_d(z->left + v, 0, 30) &&
              close_to_d(z->right + v, 0, 30));
    cr_assert(close_to_d(z->left + w, -2, 30) &&
              close_to_d(z->right + w, -2, 30));
    cr_assert(close_to_d(z->right + x, 0, 30));
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert(close_to_d(last->values + x, 2, 30), "x(3)");
    cr_assert(close_to_d(last->values + w, -2, 30), "w(3)");
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_livelock_without_clause_is_an_error)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    char *text = strdup(livelock_text);
    char *zc = strstr(text, "  zeno goto b\n");
    memmove(zc, zc + strlen("  zeno goto b\n"),
            strlen(zc + strlen("  zeno goto b\n")) + 1);
    tm_parse(model, text);
    free(text);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, HDO_ERR_ZENO, "%d %s", st, err.message);
    cr_assert(strstr(err.message, "livelock") != NULL, "%s", err.message);
    cr_assert(err.has_time && err.time == 1);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_finite_cascades_are_followed)
{
    /* converging resets whose limit is feasible end by themselves: ten
       halvings bring x below 1/1000 (x = 2^-10); v_k = 1/1000 - 1001/1000
       2^-k turns positive after ten resets.  Neither is a livelock,
       whatever the zeno clause says. */
    const char *texts[2] = {
        "model halve\nvar x = 1, y = 0\n"
        "mode a\n  der(x) = 0\n  der(y) = 1\n"
        "  when x > 1/1000 goto a with x = x/2\n  zeno goto b\nend\n"
        "mode b\n  der(x) = 0\n  der(y) = 0\nend\nstart a\nuntil 1\n",
        "model vstar\nvar x = 0, v = -1\n"
        "mode a\n  der(x) = v\n  der(v) = 0\n"
        "  when x < 0 goto a with v = 1/1000 + (v - 1/1000)/2\n"
        "  zeno goto b\nend\n"
        "mode b\n  der(x) = 0\n  der(v) = 0\nend\nstart a\nuntil 1\n"};
    for (int i = 0; i < 2; i++) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, texts[i]);
        int st = tm_run(res, model, 30, NULL, &err);
        cr_assert_eq(st, 0, "%s", err.message);
        cr_assert_eq(res->nevents, 10, "model %d: %ld events", i,
                     (long)res->nevents);
        for (slong k = 0; k < res->nevents; k++)
            cr_assert_eq(res->events[k].kind, HDO_EV_SWITCH);
        const hdo_row *last = res->rows + res->nrows - 1;
        cr_assert_str_eq(model->modes[last->mode].name, "a");
        /* x(1) = 2^-10; and x(1) = v = (1/1000)(1 - 1001/1024) */
        double want = i == 0 ? 1.0 / 1024 : 23.0 / 1024000;
        cr_assert(close_to_d(last->values + 0, want, 15), "model %d", i);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

Test(hybrid, run_cascade_without_convergence_is_chattering)
{
    /* the reset keeps v = -1: no convergence, no limit to take */
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    char *text = strdup(livelock_text);
    char *with = strstr(text, "v = v/2, w = w + v");
    memcpy(with, "v = v, w = w + 1  ", strlen("v = v, w = w + 1  "));
    tm_parse(model, text);
    free(text);
    int st = tm_run(res, model, 30, NULL, &err);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_assert(strstr(err.message, "chattering") != NULL, "%s", err.message);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* ------------------------------------------------------------------ */
/* The ball near its accumulation point t* = t1 (1 + e) / (1 - e): the
   number of impacts before an end time, and the zeno event, must not
   depend on the end time or the sampling grid.  The event search of the
   last step used to run over the step clipped to the end time only; over
   so short a step the zero rule at the start of an arc (KM Remark 12)
   dropped the velocity after an impact as noise, so the next impact was
   placed at the impact itself, again and again, and the livelock test
   took the cascade for Zeno at one instant: at 16 digits and until
   2.55863396558 (before t*), 72 impacts, 73 false ones at t_72, then a
   zeno event at t_72. */

static int
run_until(hdo_result_t res, hdo_model_t model, long digits, const char *until,
          const char *every, hdo_error_t *err)
{
    hdo_run_options opt;
    fmpq_t u, e;
    int st;
    hdo_run_options_init(&opt);
    opt.digits = digits;
    fmpq_init(u);
    fmpq_init(e);
    tm_decimal(u, until);
    opt.until = u;
    if (every != NULL) {
        tm_decimal(e, every);
        opt.every = e;
    }
    hdo_result_init(res);
    st = hdo_run(res, model, &opt, err);
    fmpq_clear(u);
    fmpq_clear(e);
    return st;
}

#define BALL_PREC 400

/* The closed form: t[k] = t_{k+1}, the time of impact k + 1, for k < n. */
static void
ball_impacts(mpfr_t *t, slong n)
{
    mpfr_t g, e, t1, ek, d;
    mpfr_inits2(BALL_PREC, g, e, t1, ek, d, (mpfr_ptr)0);
    mpfr_set_str(g, "9.81", 10, MPFR_RNDN);
    mpfr_set_str(e, "0.7", 10, MPFR_RNDN);
    mpfr_ui_div(t1, 2, g, MPFR_RNDN);
    mpfr_sqrt(t1, t1, MPFR_RNDN);
    mpfr_set_ui(ek, 1, MPFR_RNDN);
    for (slong k = 0; k < n; k++) {
        mpfr_init2(t[k], BALL_PREC);
        if (k == 0) {
            mpfr_set(t[k], t1, MPFR_RNDN);
            continue;
        }
        mpfr_mul(ek, ek, e, MPFR_RNDN);
        mpfr_mul(d, ek, t1, MPFR_RNDN);
        mpfr_mul_2ui(d, d, 1, MPFR_RNDN);
        mpfr_add(t[k], t[k - 1], d, MPFR_RNDN);
    }
    mpfr_clears(g, e, t1, ek, d, (mpfr_ptr)0);
}

static void
ball_tstar(mpfr_t ts)
{
    mpfr_t g;
    mpfr_init2(g, BALL_PREC);
    mpfr_set_str(g, "9.81", 10, MPFR_RNDN);
    mpfr_ui_div(ts, 2, g, MPFR_RNDN);
    mpfr_sqrt(ts, ts, MPFR_RNDN);
    mpfr_mul_ui(ts, ts, 17, MPFR_RNDN);
    mpfr_div_ui(ts, ts, 3, MPFR_RNDN); /* (1 + 0.7) / (1 - 0.7) = 17/3 */
    mpfr_clear(g);
}

/* A run to `until` before t*: exactly the impacts t_k <= until of the
   closed form (each within 10^-digits), no zeno event, the last row at
   until in mode fly. */
static void
check_ball_before_tstar(long digits, const char *until)
{
    enum { N = 400 };
    mpfr_t t[N], u;
    ball_impacts(t, N);
    mpfr_init2(u, BALL_PREC);
    mpfr_set_str(u, until, 10, MPFR_RNDN);
    slong expect = 0;
    while (expect < N && mpfr_cmp(t[expect], u) <= 0)
        expect++;
    cr_assert(expect < N);

    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, ball_zeno_text);
    int st = run_until(res, model, digits, until, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
    cr_assert_eq(res->nevents, expect,
                 "until %s, %ld digits: %ld events, closed form %ld", until,
                 digits, (long)res->nevents, (long)expect);
    for (slong k = 0; k < res->nevents; k++) {
        cr_assert_eq(res->events[k].kind, HDO_EV_SWITCH, "event %ld kind",
                     (long)k + 1);
        cr_assert(close_to(res->events[k].time, t[k], digits),
                  "until %s, %ld digits: impact %ld time", until, digits,
                  (long)k + 1);
    }
    const hdo_row *last = res->rows + res->nrows - 1;
    cr_assert(mpfr_equal_p(last->time, res->t_end));
    cr_assert_str_eq(model->modes[last->mode].name, "fly");
    for (slong k = 0; k < N; k++)
        mpfr_clear(t[k]);
    mpfr_clear(u);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

Test(hybrid, run_ball_until_just_before_the_accumulation_point)
{
    /* t* = 2.55863396558580845...; t_75 = 2.5586339655785484 <
       2.55863396558 < t_76 = 2.5586339655807264 */
    const char *until[] = {"2.55863396558", "2.5586339655858", "2.5586"};
    for (int i = 0; i < 3; i++) {
        check_ball_before_tstar(16, until[i]);
        check_ball_before_tstar(30, until[i]);
    }
}

Test(hybrid, run_ball_until_between_two_impacts)
{
    /* the end time halfway between impacts 75 and 76, and just after
       impact 75 (by 10^-6 of the gap, 2e-18: beyond the time tolerance
       of 16 digits, 2.6e-21, within which an event at the end time is
       not taken, decisions.md D-017) */
    mpfr_t t[80], u, d;
    ball_impacts(t, 80);
    mpfr_inits2(BALL_PREC, u, d, (mpfr_ptr)0);
    char buf[128];
    for (int i = 0; i < 2; i++) {
        mpfr_sub(d, t[75], t[74], MPFR_RNDN);
        mpfr_div_ui(d, d, i == 0 ? 2 : 1000000, MPFR_RNDN);
        mpfr_add(u, t[74], d, MPFR_RNDN);
        mpfr_snprintf(buf, sizeof buf, "%.45Rf", u);
        check_ball_before_tstar(16, buf);
        check_ball_before_tstar(30, buf);
    }
    for (int k = 0; k < 80; k++)
        mpfr_clear(t[k]);
    mpfr_clears(u, d, (mpfr_ptr)0);
}

Test(hybrid, run_ball_zeno_time_independent_of_until_and_every)
{
    /* beyond t*, the impacts followed before the zeno event (until their
       gap falls below the time tolerance) and the zeno time are the same
       for every end time and sampling grid; the zeno time is t* to the
       run's digits */
    const char *until[] = {"3", "2.5587", "2.558633966", "2.5586339655859",
                           "10"};
    const char *every[] = {NULL, "0.001", "0.37"};
    long digits[] = {16, 30};
    mpfr_t ts;
    mpfr_init2(ts, BALL_PREC);
    ball_tstar(ts);
    for (int id = 0; id < 2; id++) {
        slong n0 = -1;
        for (int iu = 0; iu < 5; iu++)
            for (int ie = 0; ie < 3; ie++) {
                hdo_model_t model;
                hdo_result_t res;
                hdo_error_t err;
                tm_parse(model, ball_zeno_text);
                int st = run_until(res, model, digits[id], until[iu], every[ie],
                                   &err);
                cr_assert_eq(st, 0, "%s", err.message);
                const hdo_event *z = res->events + res->nevents - 1;
                cr_assert_eq(z->kind, HDO_EV_ZENO, "until %s", until[iu]);
                for (slong k = 0; k + 1 < res->nevents; k++)
                    cr_assert_eq(res->events[k].kind, HDO_EV_SWITCH);
                cr_assert(close_to(z->time, ts, digits[id]),
                          "%ld digits, until %s, every %s: zeno time",
                          digits[id], until[iu],
                          every[ie] ? every[ie] : "default");
                if (n0 < 0)
                    n0 = res->nevents;
                cr_assert_eq(res->nevents, n0,
                             "%ld digits, until %s, every %s: %ld events, "
                             "%ld with until 3",
                             digits[id], until[iu],
                             every[ie] ? every[ie] : "default",
                             (long)res->nevents, (long)n0);
                hdo_result_clear(res);
                hdo_model_clear(model);
            }
    }
    mpfr_clear(ts);
}
