/* crossing_bounds.c -- a surface crossed while sliding (issue 23 item 7;
 * ref/hybrid/intersect.c, plain_crossing): the relay -sign(x) slides on
 * x = 0 while a relation of time changes sign, against closed forms, and
 * the test's three thresholds (docs/decisions.md D-005) on both sides. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include "hybrid/driver.h"
#include "../model_util.h"
#include "run_util.h"

#define PREC 200

/* der(x) = -sign(x) from x = 1/2 slides on x = 0 from t = 1/2 (the
   equivalent value of sign(x) is 0); z, fed by a relation that changes
   sign at t = 3/2 or t = pi/3, is integrated through it:
     if t < 1.5 then 1 else 2:  z(2) = 3/2 + 2 (1/2) = 5/2
     min(t, 1.5):               z(2) = 9/8 + 3/4 = 15/8
     abs(sin(3 t)):             z(2) = 2/3 + (1 + cos 6)/3 = 1 + cos(6)/3
   (the last: the integral of sin(3 t) over [0, pi/3] is 2/3, of
   -sin(3 t) over [pi/3, 2] is (cos 6 - cos pi)/3).  Each was refused as
   "sliding on an intersection ... det = 0: not covered". */
Test(crossing, relation_crossed_while_sliding)
{
    static const struct {
        const char *rhs;
        double tcross;
        int useq; /* z(2) is 1 + cos(6)/3 */
        double z2;
    } cases[] = {
        {"if t < 1.5 then 1 else 2", 1.5, 0, 2.5},
        {"min(t, 1.5)", 1.5, 0, 1.875},
        {"abs(sin(3*t))", 0, 1, 0},
    };
    for (int i = 0; i < 3; i++) {
        char text[300];
        snprintf(text, sizeof text,
                 "model s\nvar x = 0.5\nvar z = 0\nmode m\n"
                 "  der(x) = -sign(x)\n  der(z) = %s\nend\n"
                 "start m\nuntil 2\n",
                 cases[i].rhs);
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        tm_parse(model, text);
        int st = tm_run(res, model, 30, NULL, &err);
        cr_assert_eq(st, 0, "%s: %s", cases[i].rhs, err.message);
        cr_assert_eq(res->nevents, 2, "%s", cases[i].rhs);
        cr_expect_eq(res->events[0].kind, HDO_EV_SLIDING_START);
        cr_expect(close_to_d(res->events[0].time, 0.5, 29));
        cr_expect_eq(res->events[1].kind, HDO_EV_CROSSING);
        char name[64];
        hdo_mode_name(name, sizeof name, model, res->events[1].to);
        cr_expect_str_eq(name, "sliding(m,m)");
        mpfr_t want;
        mpfr_init2(want, PREC);
        if (cases[i].useq) {
            mpfr_const_pi(want, MPFR_RNDN);
            mpfr_div_ui(want, want, 3, MPFR_RNDN);
        } else {
            mpfr_set_d(want, cases[i].tcross, MPFR_RNDN);
        }
        cr_expect(close_to(res->events[1].time, want, 29), "%s: crossing",
                  cases[i].rhs);
        if (cases[i].useq) {
            mpfr_set_ui(want, 6, MPFR_RNDN);
            mpfr_cos(want, want, MPFR_RNDN);
            mpfr_div_ui(want, want, 3, MPFR_RNDN);
            mpfr_add_ui(want, want, 1, MPFR_RNDN);
        } else {
            mpfr_set_d(want, cases[i].z2, MPFR_RNDN);
        }
        const hdo_row *last = res->rows + res->nrows - 1;
        cr_expect(close_to_d(last->time, 2, 30));
        cr_expect(close_to(last->values + tm_var(model, "z"), want, 28),
                  "%s: z(2)", cases[i].rhs);
        cr_expect(close_to_d(last->values + tm_var(model, "x"), 0, 28),
                  "x(2) = 0");
        mpfr_clear(want);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* v = (L G, L' G', beta) = (-1, 1, 0) with component i set to x, or
   (i = 2) beta = sgn (1 - f 2^-50) exactly; tol = 2^-100, so sqrt(tol)
   = 2^-50 exactly. */
static int
plain_v(int i, double x, double sgn, double f)
{
    mpfr_ptr v = hdo_vec_init(3, PREC);
    mpfr_t tol;
    mpfr_init2(tol, PREC);
    mpfr_set_ui_2exp(tol, 1, -100, MPFR_RNDN);
    mpfr_set_d(v + 0, -1, MPFR_RNDN);
    mpfr_set_d(v + 1, 1, MPFR_RNDN);
    mpfr_set_d(v + 2, 0, MPFR_RNDN);
    if (i < 2) {
        mpfr_set_d(v + i, x, MPFR_RNDN);
    } else {
        mpfr_set_d(v + 2, f, MPFR_RNDN);
        mpfr_mul_2si(v + 2, v + 2, -50, MPFR_RNDN);
        mpfr_ui_sub(v + 2, 1, v + 2, MPFR_RNDN);
        mpfr_mul_d(v + 2, v + 2, sgn, MPFR_RNDN);
    }
    int yes = hdo_run_plain_crossing_test(v, 3, tol, PREC);
    hdo_vec_clear(v, 3);
    mpfr_clear(tol);
    return yes;
}

static int
plain(int i, double x)
{
    return plain_v(i, x, 0, 0);
}

static int
plain_beta(double sgn, double f)
{
    return plain_v(2, 0, sgn, f);
}

Test(hybrid_thresholds, plain_crossing_boundary)
{
    const double thr = ldexp(1, -50), e = ldexp(1, -30), up = thr * (1 + e),
                 down = thr * (1 - e);
    cr_assert(plain(0, -1));
    /* L G < -thr: the sliding field leaves through G */
    cr_assert(!plain(0, -thr) && !plain(0, -down));
    cr_assert(plain(0, -up));
    /* L' G' > thr: the field across moves on */
    cr_assert(!plain(1, thr) && !plain(1, down));
    cr_assert(plain(1, up));
    /* |beta| < 1 - thr: the sliding across has its weight inside */
    cr_assert(!plain_beta(1, 1) && !plain_beta(-1, 1));
    cr_assert(!plain_beta(1, 1 - e) && !plain_beta(-1, 1 - e));
    cr_assert(plain_beta(1, 1 + e) && plain_beta(-1, 1 + e));
}

/* On a run at 20 digits (sqrt(tol) = 3.16227766e-13): the relay slides
   from t = 1/2 and meets the relation t = 3/2 of
     der(z) = if c*(t - 1.5) < 0 then 1 else 2   (L G = -c, L' G' = c)
     der(x) = -sign(x) + w*(if t < 1.5 then 0 else 1)   (beta' = w)
   at 2.5e-13 and 4e-13 (c, with w = 0), and w = 1 - 2.5e-13, 1 - 4e-13
   (with c = 1: one relation, t - 1.5, for both).  Beyond the
   threshold the crossing is not plain and the cube's tangency conditions
   are singular (G does not depend on x): HDO_ERR_UNSUPPORTED at 3/2. */
static int
run_c_w(const char *c, const char *w)
{
    char text[400];
    snprintf(text, sizeof text,
             "model b\nvar x = 0.5\nvar z = 0\nmode m\n"
             "  der(x) = -sign(x) + %s*(if t < 1.5 then 0 else 1)\n"
             "  der(z) = if %s*(t - 1.5) < 0 then 1 else 2\nend\n"
             "start m\nuntil 2\n",
             w, c);
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, text);
    int st = tm_run(res, model, 20, NULL, &err);
    if (st == 0) {
        const hdo_row *last = res->rows + res->nrows - 1;
        cr_expect(close_to_d(last->values + tm_var(model, "x"), 0, 18));
        cr_expect(close_to_d(last->values + tm_var(model, "z"), 2.5, 18));
    } else {
        cr_expect(strstr(err.message, "not covered") != NULL, "%s",
                  err.message);
        cr_expect(err.has_time && fabs(err.time - 1.5) < 1e-12);
    }
    hdo_result_clear(res);
    hdo_model_clear(model);
    return st;
}

Test(hybrid_thresholds, plain_crossing_on_a_run)
{
    cr_expect_eq(run_c_w("0.0000000000004", "0"), 0);
    cr_expect_eq(run_c_w("0.00000000000025", "0"), HDO_ERR_UNSUPPORTED);
    cr_expect_eq(run_c_w("1", "0.9999999999996"), 0);
    cr_expect_eq(run_c_w("1", "0.99999999999975"), HDO_ERR_UNSUPPORTED);
}
