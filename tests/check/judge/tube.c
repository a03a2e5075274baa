/* tube.c -- unit tests of the tube comparison against the closed-form bouncing
 * ball */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "../ball.h"
#include "check.h"

#define T_END 2.8 /* before the seventh bounce (t_6 = 2.88...) */

/* A series of (time, value) samples, growing. */
typedef struct {
    double *t, *v;
    slong n, alloc;
} series;

static void
push(series *s, double t, double v)
{
    if (s->n == s->alloc) {
        s->alloc = s->alloc ? 2 * s->alloc : 256;
        s->t = realloc(s->t, (size_t)s->alloc * sizeof(double));
        s->v = realloc(s->v, (size_t)s->alloc * sizeof(double));
        cr_assert(s->t != NULL && s->v != NULL);
    }
    s->t[s->n] = t;
    s->v[s->n++] = v;
}

static void
series_free(series *s)
{
    free(s->t);
    free(s->v);
}

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The reference of variable var as hdo check samples it: at t - ta,
   t - ta/2, t, t + ta/2, t + ta of every candidate time (within
   [0, T_END + ta]), and both limits of every event. */
static void
reference_for(series *ref, int var, const double *ct, slong nc, double ta)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    double *ts = malloc((size_t)(5 * nc + BALL_NEV) * sizeof(double));
    slong n = 0;
    int k = 1;
    ball_events(tk, uk);
    for (slong i = 0; i < nc; i++)
        for (int j = -2; j <= 2; j++) {
            double t = ct[i] + j * ta / 2;
            if (t >= 0 && t <= T_END + ta)
                ts[n++] = t;
        }
    qsort(ts, (size_t)n, sizeof(double), cmp_d);
    for (slong i = 0; i < n; i++) {
        if (i > 0 && ts[i] == ts[i - 1])
            continue;
        while (k <= BALL_NEV && tk[k] <= ts[i]) {
            push(ref, tk[k], ball_arc(k - 1, var, tk[k]));
            push(ref, tk[k], ball_arc(k, var, tk[k]));
            k++;
        }
        if (k > 1 && ts[i] == tk[k - 1])
            continue;
        push(ref, ts[i], ball(var, ts[i]));
    }
    free(ts);
}

/* A candidate on a uniform grid of step dt whose every bounce comes
   `delay` late (early when negative): the old arc continues until then,
   and afterwards the ball is the reference shifted by delay.  Two rows
   (left and right limit) at each of its events. */
static void
candidate(series *c, int var, double dt, double delay)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    int k = 1;
    ball_events(tk, uk);
    for (long i = 0; i * dt <= T_END; i++) {
        double t = i * dt;
        while (k <= BALL_NEV && tk[k] + delay <= t) {
            double te = tk[k] + delay;
            if (te <= T_END) {
                push(c, te, ball_arc(k - 1, var, te - (k > 1 ? delay : 0)));
                push(c, te, ball_arc(k, var, tk[k]));
            }
            k++;
        }
        if (k > 1 && t == tk[k - 1] + delay)
            continue;
        /* Arc k-1 (shifted by delay after the first bounce). */
        push(c, t, ball_arc(k - 1, var, t - (k > 1 ? delay : 0)));
    }
}

static void
run(hdo_tube_t tube, const series *ref, const series *c, double ta, double va,
    double vr)
{
    hdo_tube_init(tube);
    cr_assert_eq(hdo_tube_compare(tube, ref->t, ref->v, ref->n, c->t, c->v,
                                  NULL, 1, c->n, ta, va, vr),
                 0);
}

Test(compare, tube_closed_form_passes)
{
    for (int var = 0; var < 2; var++) {
        series ref = {0}, c = {0};
        hdo_tube_t tube;
        candidate(&c, var, 0.01, 0);
        reference_for(&ref, var, c.t, c.n, 1e-6);
        run(tube, &ref, &c, 1e-6, 1e-8, 1e-6);
        cr_expect_eq(tube->nfailed, 0, "var %d: %ld failed, first at t=%g", var,
                     (long)tube->nfailed,
                     tube->first_fail >= 0 ? c.t[tube->first_fail] : -1.0);
        cr_expect_eq(tube->ncompared, c.n);
        cr_expect(tube->max_diff < 1e-12, "max diff %g", tube->max_diff);
        hdo_tube_clear(tube);
        series_free(&ref);
        series_free(&c);
    }
}

/* The reference on its own uniform grid (dt 1e-3) plus the event limits;
   the candidate on an irregular grid.  value_abs 1e-5 covers what the
   samples miss at an apex: at most g/8 dt^2 = 1.2e-6. */
Test(compare, tube_other_time_points_pass)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    series ref = {0}, c = {0};
    hdo_tube_t tube;
    int k = 1;
    ball_events(tk, uk);
    for (long i = 0; i * 1e-3 <= T_END + 0.01; i++) {
        double t = i * 1e-3;
        while (k <= BALL_NEV && tk[k] <= t) {
            push(&ref, tk[k], ball_arc(k - 1, 0, tk[k]));
            push(&ref, tk[k], ball_arc(k, 0, tk[k]));
            k++;
        }
        push(&ref, t, ball(0, t));
    }
    for (long i = 0;; i++) {
        double t = i * 0.0137 + 0.004 * (1 + sin((double)i));
        if (t > T_END)
            break;
        push(&c, t, ball(0, t));
    }
    run(tube, &ref, &c, 2e-3, 1e-5, 0);
    cr_expect_eq(tube->nfailed, 0, "first failure at t = %g",
                 tube->first_fail >= 0 ? c.t[tube->first_fail] : -1.0);
    cr_expect_eq(tube->ncompared, c.n);
    hdo_tube_clear(tube);
    series_free(&ref);
    series_free(&c);
}

/* A bump mid-arc (at the apex of the first arc after the bounce, where
   h = 0.64): 1e-5 is outside the band 1e-8 + 1e-6*0.64, 1e-7 inside. */
Test(compare, tube_bump_mid_arc)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    double bumps[2] = {1e-5, 1e-7};
    ball_events(tk, uk);
    for (int b = 0; b < 2; b++) {
        series ref = {0}, c = {0};
        hdo_tube_t tube;
        slong row = -1;
        double apex = tk[1] + uk[1] / BALL_G;
        candidate(&c, 0, 0.01, 0);
        for (slong i = 0; i < c.n; i++)
            if (row < 0 || fabs(c.t[i] - apex) < fabs(c.t[row] - apex))
                row = i;
        c.v[row] += bumps[b];
        reference_for(&ref, 0, c.t, c.n, 1e-6);
        run(tube, &ref, &c, 1e-6, 1e-8, 1e-6);
        if (b == 0) {
            cr_expect_eq(tube->nfailed, 1);
            cr_expect_eq(tube->first_fail, row);
            cr_expect_eq(tube->worst, row);
            cr_expect(fabs(tube->worst_err - 1e-5) < 1e-7, "%g",
                      tube->worst_err);
            cr_expect(tube->band_hi[row] < c.v[row]);
            cr_expect(fabs(tube->max_diff - 1e-5) < 1e-9);
        } else {
            cr_expect_eq(tube->nfailed, 0);
            cr_expect_eq(tube->worst, row);
        }
        hdo_tube_clear(tube);
        series_free(&ref);
        series_free(&c);
    }
}

/* Every bounce late (or early) by 0.4 time_abs: the tube absorbs the jump,
   the short continuation of the old arc and the phase shift after it. */
Test(compare, tube_event_shift_within_time_abs_passes)
{
    double ta = 1e-3, delays[2] = {0.4e-3, -0.4e-3};
    for (int d = 0; d < 2; d++)
        for (int var = 0; var < 2; var++) {
            series ref = {0}, c = {0};
            hdo_tube_t tube;
            candidate(&c, var, 0.001, delays[d]);
            reference_for(&ref, var, c.t, c.n, ta);
            run(tube, &ref, &c, ta, 1e-8, 1e-6);
            cr_expect_eq(tube->nfailed, 0,
                         "delay %g var %d: %ld failed, first at t=%.17g",
                         delays[d], var, (long)tube->nfailed,
                         tube->first_fail >= 0 ? c.t[tube->first_fail] : -1.0);
            hdo_tube_clear(tube);
            series_free(&ref);
            series_free(&c);
        }
}

/* Late by 3 time_abs: the candidate, still falling, fails right after
   the reference's first bounce, and not before it. */
Test(compare, tube_event_late_beyond_time_abs_fails)
{
    double ta = 1e-3, tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    series ref = {0}, c = {0};
    hdo_tube_t tube;
    ball_events(tk, uk);
    candidate(&c, 0, 0.001, 3 * ta);
    reference_for(&ref, 0, c.t, c.n, ta);
    run(tube, &ref, &c, ta, 1e-8, 1e-6);
    cr_assert(tube->nfailed > 0);
    cr_expect(c.t[tube->first_fail] > tk[1] + ta, "first failure %.17g",
              c.t[tube->first_fail]);
    cr_expect(c.t[tube->first_fail] <= tk[1] + 3 * ta + 1e-12,
              "first failure %.17g", c.t[tube->first_fail]);
    hdo_tube_clear(tube);
    series_free(&ref);
    series_free(&c);
}

/* The candidate misses the first bounce: it falls through the floor. */
Test(compare, tube_missed_event_fails)
{
    double tk[BALL_NEV + 1], uk[BALL_NEV + 1];
    series ref = {0}, c = {0};
    hdo_tube_t tube;
    ball_events(tk, uk);
    for (long i = 0; i * 0.01 <= T_END; i++)
        push(&c, i * 0.01, ball_arc(0, 0, i * 0.01));
    reference_for(&ref, 0, c.t, c.n, 1e-6);
    run(tube, &ref, &c, 1e-6, 1e-8, 1e-6);
    cr_assert(tube->first_fail >= 0);
    cr_expect(c.t[tube->first_fail] > tk[1]);
    cr_expect(c.t[tube->first_fail] < tk[1] + 0.01 + 1e-9);
    hdo_tube_clear(tube);
    series_free(&ref);
    series_free(&c);
}

/* Empty candidate cells and reference gaps (NaN: a mode without the
   variable) are not compared; a NaN candidate value fails. */
Test(compare, tube_gaps_and_nan)
{
    double rt[6] = {0, 1, 2, 2, 3, 4}, rv[6] = {0, 1, 2, NAN, NAN, NAN};
    double ct[5] = {0, 1, 2, 3, 4}, cv[5] = {0, 1, NAN, 7, 8};
    unsigned char pr[5] = {1, 1, 1, 1, 0};
    hdo_tube_t tube;
    hdo_tube_init(tube);
    cr_assert_eq(hdo_tube_compare(tube, rt, rv, 6, ct, cv, pr, 1, 5, 0, 0, 0),
                 0);
    cr_expect_eq(tube->ncompared, 3);
    cr_expect_eq(tube->nfailed, 1);
    cr_expect_eq(tube->first_fail, 2);
    cr_expect(isnan(tube->lo[3]));
    hdo_tube_clear(tube);
}

/* The band: value_abs + value_rel*|ref| on each side of the range, here
   computed by hand for a linear reference r(t) = 10 t. */
Test(compare, tube_band_edges)
{
    double rt[5] = {0.9, 0.95, 1, 1.05, 1.1};
    double rv[5] = {9, 9.5, 10, 10.5, 11};
    double ct[1] = {1};
    double ok_hi = 11 + 0.01 + 0.1 * 11, ok_lo = 9 - 0.01 - 0.1 * 9;
    double vals[4] = {ok_hi * (1 - 1e-12), ok_hi * (1 + 1e-12),
                      ok_lo * (1 + 1e-12), ok_lo * (1 - 1e-12)};
    int fails[4] = {0, 1, 0, 1};
    for (int k = 0; k < 4; k++) {
        hdo_tube_t tube;
        hdo_tube_init(tube);
        cr_assert_eq(hdo_tube_compare(tube, rt, rv, 5, ct, vals + k, NULL, 1, 1,
                                      0.1, 0.01, 0.1),
                     0);
        cr_expect_eq(tube->nfailed, fails[k], "value %.17g", vals[k]);
        cr_expect_float_eq(tube->lo[0], 9, 1e-15);
        cr_expect_float_eq(tube->hi[0], 11, 1e-15);
        hdo_tube_clear(tube);
    }
}
