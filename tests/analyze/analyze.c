/* analyze.c -- hdo_analyze against results known in closed form: the
 * pendulum's Kunkel-Mehrmann counts and its consistent start */
#include <criterion/criterion.h>
#include <string.h>
#include "analyze.h"
#include "../model_util.h"

/* The Cartesian pendulum (tests/km/km.c derives mu = 2, d = 2, a = 3,
   v = 0 by hand).  The start values are consistent in position and
   velocity, (3/5, -4/5) and (4/5, 3/5), and lam is given wrong: it is an
   algebraic unknown, so the consistent start computes it, lambda =
   v^2 - g y = 1 + 9.81 * 4/5 = 8.848 exactly. */
static const char *pendulum = "model pendulum\n"
                              "param g = 9.81\n"
                              "var x = 0.6, y = -0.8, vx = 0.8, vy = 0.6\n"
                              "var lam = 0\n"
                              "mode swing\n"
                              "  der(x) = vx\n"
                              "  der(y) = vy\n"
                              "  der(vx) = -x*lam\n"
                              "  der(vy) = -y*lam - g\n"
                              "  x^2 + y^2 = 1\n"
                              "end\n"
                              "start swing\n"
                              "until 1\n";

/* |x| < u 2^e: -1, 0 or 1 as mpfr_cmpabs. */
static int
mpfr_cmpabs_ui_2exp(mpfr_srcptr x, unsigned long u, long e)
{
    mpfr_t b;
    int c;
    mpfr_init2(b, 64);
    mpfr_set_ui_2exp(b, u, e, MPFR_RNDN);
    c = mpfr_cmpabs(x, b);
    mpfr_clear(b);
    return c;
}

Test(analyze, pendulum)
{
    hdo_model_t model;
    hdo_analysis_t an;
    hdo_error_t err;
    mpfr_t want;
    tm_parse(model, pendulum);
    slong len = model->pool->len;
    hdo_analysis_init(an);
    cr_assert_eq(hdo_analyze(an, model, 30, &err), 0, "%s", err.message);
    cr_assert_eq(an->failed, 0);
    /* the reduction went into the analysis' own pool, not the model's */
    cr_expect_eq(model->pool->len, len, "the model's pool grew: %ld -> %ld",
                 (long)len, (long)model->pool->len);
    cr_expect_gt(an->work.pool->len, len);
    /* a run's precision at 30 digits: ceil(40 log2 10) = ceil(132.88) */
    cr_expect_eq(an->prec, 133);
    cr_assert_eq(an->nmodes, 1);
    const hdo_analysis_mode *p = an->modes;
    cr_assert(p->reduced && p->consistent && p->km_ok);
    cr_expect_eq(p->km.mu, 2);
    cr_expect_eq(p->km.d, 2);
    cr_expect_eq(p->km.a, 3);
    cr_expect_eq(p->km.v, 0);
    cr_expect_eq(p->status, 0);
    /* the given positions and velocities are kept, lam is computed */
    mpfr_init2(want, 200);
    mpfr_set_str(want, "8.848", 10, MPFR_RNDN);
    mpfr_srcptr lam = hdo_analysis_value(p, tm_var(model, "lam"));
    cr_assert(lam != NULL);
    mpfr_sub(want, want, lam, MPFR_RNDN);
    cr_expect(mpfr_cmpabs_ui_2exp(want, 1, -100) < 0, "lam off by %g",
              mpfr_get_d(want, MPFR_RNDN));
    mpfr_set_str(want, "0.6", 10, MPFR_RNDN);
    mpfr_sub(want, want, hdo_analysis_value(p, tm_var(model, "x")), MPFR_RNDN);
    cr_expect(mpfr_cmpabs_ui_2exp(want, 1, -120) < 0);
    cr_expect(an->given[tm_var(model, "lam")]);
    mpfr_clear(want);
    hdo_analysis_clear(an);
    hdo_model_clear(model);
}

/* A mode whose algebraic equation y^2 = -1 - x^2 has no real solution:
   at the start mode that fails the analysis (exit 2 for hdo analyze);
   at another mode, evaluated only at the start values, it is recorded
   but neither fatal nor worth a message of its own. */
static const char *two_modes = "model two\n"
                               "var x = 1, y = 1\n"
                               "mode good\n"
                               "  der(x) = 1\n"
                               "  y = x\n"
                               "end\n"
                               "mode bad\n"
                               "  der(x) = 1\n"
                               "  y^2 = -1 - x^2\n"
                               "end\n"
                               "start %s\n"
                               "until 1\n";

static void
analyze_two(hdo_analysis_t an, hdo_model_t model, const char *start)
{
    char text[400];
    hdo_error_t err;
    snprintf(text, sizeof text, two_modes, start);
    tm_parse(model, text);
    hdo_analysis_init(an);
    cr_assert_eq(hdo_analyze(an, model, 20, &err), 0, "%s", err.message);
    cr_assert_eq(an->nmodes, 2);
}

Test(analyze, failure_rules)
{
    hdo_model_t model;
    hdo_analysis_t an;
    analyze_two(an, model, "good");
    cr_expect(an->modes[0].consistent && an->modes[0].km_ok);
    cr_expect(an->modes[1].reduced && !an->modes[1].consistent);
    cr_expect_neq(an->modes[1].status, 0);
    cr_expect(!an->modes[1].fatal && !an->modes[1].noted);
    cr_expect_eq(an->failed, 0);
    hdo_analysis_clear(an);
    hdo_model_clear(model);

    analyze_two(an, model, "bad");
    cr_expect(an->modes[1].fatal && an->modes[1].noted);
    cr_expect(an->modes[1].err.message[0] != '\0');
    cr_expect_eq(an->failed, 1);
    hdo_analysis_clear(an);
    hdo_model_clear(model);
}
