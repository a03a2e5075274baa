/* zeno_bounds.c -- the thresholds of Zeno detection and of the livelock
 * rule (docs/decisions.md D-020, D-021) at their boundaries: 6 strictly
 * shrinking gaps with the last at most 10^6 tol, the period p <= 4 over 5p + 1
 * events, and Aitken limits that agree within tol max(1, |limit|). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gmp.h>
#include <criterion/criterion.h>
#include "hybrid/driver.h"
#include "../model_util.h"
#include "run_util.h"

/* Every expected value below comes from the rule as decisions.md D-020, D-021
   states it and from closed forms (event times of geometric gaps, exact
   rationals), never from a run of hdo. */

/* ------------------------------------------------------------------ */
/* Zeno in time: hdo_run_gaps_shrinking on a history built by hand */

#define GPREC 200

/* A run context with only what hdo_run_gaps_shrinking reads: the history
   of event times t_0 = 1/4, t_k = t_(k-1) + gaps[k-1] (exact at GPREC
   bits for the dyadic gaps used here). */
static void
hist_init(run_ctx *c, const double *gaps, slong ngaps)
{
    memset(c, 0, sizeof *c);
    c->prec = GPREC;
    c->nhist = ngaps + 1;
    cr_assert(c->nhist <= HIST);
    for (slong i = 0; i < c->nhist; i++) {
        mpfr_init2(c->hist[i].t, GPREC);
        if (i == 0)
            mpfr_set_d(c->hist[0].t, 0.25, MPFR_RNDN);
        else
            cr_assert_eq(mpfr_add_d(c->hist[i].t, c->hist[i - 1].t, gaps[i - 1],
                                    MPFR_RNDN),
                         0, "inexact event time");
    }
}

static void
hist_clear(run_ctx *c)
{
    for (slong i = 0; i < c->nhist; i++)
        mpfr_clear(c->hist[i].t);
}

static int
shrinking(const double *gaps, slong ngaps, const mpfr_t ttol)
{
    run_ctx c;
    hist_init(&c, gaps, ngaps);
    int yes = hdo_run_gaps_shrinking(&c, ttol);
    hist_clear(&c);
    return yes;
}

/* ttol = 2^-100; the last gap at 10^6 ttol exactly (accepted: "at most"),
   and 10^6 ttol (1 + 2^-20) (refused).  The count: the last 6 events (5
   gaps) decide, 5 events are too few, and a 7th event before them is not
   looked at. */
Test(hybrid_thresholds, zeno_gaps_shrinking_boundary)
{
    mpfr_t ttol;
    mpfr_init2(ttol, GPREC);
    mpfr_set_ui_2exp(ttol, 1, -100, MPFR_RNDN);
    const double at = ldexp(1e6, -100),
                 above = ldexp(1e6 + ldexp(1e6, -20), -100);

    /* 6 events: gaps 2^-4 > 2^-10 > 2^-20 > 2^-40 > last */
    double g[6] = {ldexp(1, -4), ldexp(1, -10), ldexp(1, -20), ldexp(1, -40),
                   at};
    cr_assert(shrinking(g, 5, ttol), "last gap = 10^6 ttol");
    g[4] = above;
    cr_assert(!shrinking(g, 5, ttol), "last gap = 10^6 ttol (1 + 2^-20)");
    g[4] = ldexp(1e6 / 2, -100);
    cr_assert(shrinking(g, 5, ttol), "last gap = 10^6 ttol / 2");

    /* 5 events (4 gaps) are too few, however small */
    cr_assert(!shrinking(g + 1, 4, ttol), "5 events");

    /* 6 events whose first gap does not shrink: refused; the same after
       a 7th, older event with a larger gap: the window is 6 events, so
       the non-shrinking pair decides (refused), and with the pair out of
       the window (the 7th event's gap first) it is accepted */
    double w[6] = {ldexp(1, -10), ldexp(1, -4),  ldexp(1, -20),
                   ldexp(1, -40), ldexp(1, -60), ldexp(1, -90)};
    cr_assert(!shrinking(w, 5, ttol), "6 events, first pair grows");
    cr_assert(shrinking(w + 1, 5, ttol), "6 events shrinking");
    cr_assert(shrinking(w, 6, ttol),
              "7 events: the oldest gap is outside the window of 6");

    /* strictly: an equal pair of gaps is not shrinking, nor a zero gap */
    double e[5] = {ldexp(1, -4), ldexp(1, -10), ldexp(1, -10), ldexp(1, -40),
                   ldexp(1, -90)};
    cr_assert(!shrinking(e, 5, ttol), "equal gaps");
    e[2] = ldexp(1, -20);
    cr_assert(shrinking(e, 5, ttol));
    e[4] = 0;
    cr_assert(!shrinking(e, 5, ttol), "zero gap");
    mpfr_clear(ttol);
}

/* On the real path: `when t > c goto a with c = c + d, d = d r`, from
   t = 0 with c = 1/4: events at t_1 = 1/4 and t_(k+1) = t_k + d0 r^(k-1),
   t_k = 1/4 + d0 (1 - r^(k-1)) / (1 - r), accumulating at
   t* = 1/4 + d0 / (1 - r).  r = 10^-7, at 30 digits (tol = 10^-35; every
   time is below 1, so the time tolerance is tol itself).  An event is
   instantaneous when its gap is below tol; a gap below the locator's
   zero tolerance (tol (1 + 1) here) is located at the start of the arc,
   gap 0. */
static int
run_clock(hdo_result_t res, const char *d0, hdo_error_t *err)
{
    char text[1024];
    snprintf(text, sizeof text,
             "model zclock\nvar c = 1/4, d = %s\n"
             "mode a\n  der(c) = 0\n  der(d) = 0\n"
             "  when t > c goto a with c = c + d, d = d / 10000000\n"
             "  zeno goto b\nend\n"
             "mode b\n  der(c) = 0\n  der(d) = 0\nend\n"
             "start a at 0\nuntil 1\n",
             d0);
    hdo_model_t model;
    tm_parse(model, text);
    int st = tm_run(res, model, 30, NULL, err);
    hdo_model_clear(model);
    return st;
}

/* t_k (k >= 1) for d0 = num/den, into out */
static void
clock_time(mpfr_t out, long num, long den, long k)
{
    mpq_t t, g, r;
    mpq_inits(t, g, r, NULL);
    mpq_set_ui(t, 1, 4);
    mpq_set_si(g, num, den);
    mpq_set_ui(r, 1, 10000000);
    for (long i = 1; i < k; i++) {
        mpq_add(t, t, g);
        mpq_mul(g, g, r);
    }
    mpfr_set_q(out, t, MPFR_RNDN);
    mpq_clears(t, g, r, NULL);
}

/* t* = 1/4 + d0 / (1 - r) */
static void
clock_limit(mpfr_t out, long num, long den)
{
    mpq_t t, g;
    mpq_inits(t, g, NULL);
    mpq_set_si(g, num, den);
    mpq_set_ui(t, 9999999, 10000000);
    mpq_div(g, g, t);
    mpq_set_ui(t, 1, 4);
    mpq_add(t, t, g);
    mpfr_set_q(out, t, MPFR_RNDN);
    mpq_clears(t, g, NULL);
}

static void
expect_switches(const hdo_result_t res, slong n, long num, long den)
{
    mpfr_t want;
    mpfr_init2(want, 300);
    for (slong k = 0; k < n; k++) {
        cr_assert_eq(res->events[k].kind, HDO_EV_SWITCH, "event %ld",
                     (long)k + 1);
        clock_time(want, num, den, k + 1);
        cr_assert(close_to(res->events[k].time, want, 30), "event %ld time",
                  (long)k + 1);
    }
    mpfr_clear(want);
}

Test(hybrid_thresholds, zeno_last_gap_factor_on_a_run)
{
    hdo_result_t res;
    hdo_error_t err;
    mpfr_t tstar;
    mpfr_init2(tstar, 300);

    /* d0 = 1/20: the 6 events before the 7th have gaps 1/20, 5e-9, 5e-16,
       5e-23, 5e-30 = 5e5 tol (<= 10^6 tol); the 7th (gap 5e-37 < tol) is
       instantaneous: the zeno clause at t*, as the 7th event. */
    cr_assert_eq(run_clock(res, "1/20", &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 7);
    expect_switches(res, 6, 1, 20);
    cr_assert_eq(res->events[6].kind, HDO_EV_ZENO);
    clock_limit(tstar, 1, 20);
    cr_assert(close_to(res->events[6].time, tstar, 30), "t*");
    hdo_result_clear(res);

    /* d0 = 1/4: the last of those gaps is 2.5e-29 = 2.5e6 tol: the 7th
       event (gap 2.5e-36 < tol, located at gap 0) is followed as a switch.
       Its zero gap keeps every later window of the time test from
       shrinking strictly, so the limit comes from the livelock rule: the
       6 events E6..E11 within tol of one instant (E7..E11 at gap 0) with
       geometric states, at t_6 = t* - 2.5e-36 / (1 - r). */
    cr_assert_eq(run_clock(res, "1/4", &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 11);
    expect_switches(res, 6, 1, 4);
    for (slong k = 6; k < 10; k++)
        cr_assert_eq(res->events[k].kind, HDO_EV_SWITCH, "event %ld",
                     (long)k + 1);
    cr_assert_eq(res->events[10].kind, HDO_EV_ZENO);
    clock_limit(tstar, 1, 4);
    cr_assert(close_to(res->events[10].time, tstar, 34), "t*");
    hdo_result_clear(res);
    mpfr_clear(tstar);
}

Test(hybrid_thresholds, zeno_event_count_on_a_run)
{
    hdo_result_t res;
    hdo_error_t err;
    /* d0 = 10^-8: gaps 1e-8, 1e-15, 1e-22, 1e-29, then 1e-36 < tol: the
       6th event is instantaneous with only 5 events before it (too few):
       a switch.  With 6 (d0 = 1/20 above) it is the zeno event. */
    cr_assert_eq(run_clock(res, "1/100000000", &err), 0, "%s", err.message);
    expect_switches(res, 5, 1, 100000000);
    cr_assert_eq(res->events[5].kind, HDO_EV_SWITCH);
    /* then the livelock rule at E10 (E5..E10 within tol of one instant) */
    cr_assert_eq(res->nevents, 10);
    cr_assert_eq(res->events[9].kind, HDO_EV_ZENO);
    hdo_result_clear(res);
}

/* ------------------------------------------------------------------ */
/* The livelock rule: period p <= 4 over the last 5p + 1 events */

/* (src, g) of n events repeating with period p (mode i mod p, when 0) */
static slong
period_of(slong p, slong n)
{
    slong src[64], g[64];
    cr_assert(n <= 64);
    for (slong i = 0; i < n; i++) {
        src[i] = i % p;
        g[i] = 0;
    }
    return hdo_run_livelock_period(src, g, n);
}

Test(hybrid_thresholds, livelock_period_boundary)
{
    /* 5p + 1 events are needed: 6 for p = 1, 21 for p = 4 */
    cr_assert_eq(period_of(1, 6), 1);
    cr_assert_eq(period_of(1, 5), 0);
    cr_assert_eq(period_of(2, 11), 2);
    cr_assert_eq(period_of(2, 10), 0);
    cr_assert_eq(period_of(4, 21), 4);
    cr_assert_eq(period_of(4, 20), 0);
    /* p = 5 is beyond the rule, however many events */
    cr_assert_eq(period_of(5, 26), 0);
    cr_assert_eq(period_of(5, 60), 0);
}

/* A chain of p modes a1 -> a2 -> ... -> ap -> a1 at t = 1, each with
   `when x < 0` and der(x) = v < 0 (infeasible at once) and the reset
   v = v/2, w = w + v: every event is at t = 1, the states converge
   geometrically to v = 0, w = -2 (w_k = -(2 - 2^(1-k))). */
static int
run_chain(hdo_result_t res, hdo_model_t model, int p, hdo_error_t *err)
{
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof text,
                                  "model chain\nvar x = 0, v = -1, w = 0\n");
    for (int i = 1; i <= p; i++)
        len += (size_t)snprintf(
            text + len, sizeof text - len,
            "mode a%d\n  der(x) = v\n  der(v) = 0\n  der(w) = 0\n"
            "  when x < 0 goto a%d with v = v/2, w = w + v\n"
            "  zeno goto z\nend\n",
            i, i % p + 1);
    snprintf(text + len, sizeof text - len,
             "mode z\n  der(x) = 1\n  der(v) = 0\n  der(w) = 0\nend\n"
             "start a1 at 1\nuntil 3\n");
    tm_parse(model, text);
    return tm_run(res, model, 30, NULL, err);
}

Test(hybrid_thresholds, livelock_period_on_a_run)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    for (int p = 1; p <= 4; p++) {
        /* 5p switches at t = 1, then the (5p + 1)th event completes the
           window: the zeno clause, from the limit v = 0, w = -2 */
        int st = run_chain(res, model, p, &err);
        cr_assert_eq(st, 0, "p = %d: %s", p, err.message);
        cr_assert_eq(res->nevents, 5 * p + 1, "p = %d: %ld events", p,
                     (long)res->nevents);
        for (slong k = 0; k < 5 * p; k++)
            cr_assert(res->events[k].kind == HDO_EV_SWITCH &&
                      mpfr_cmp_ui(res->events[k].time, 1) == 0);
        const hdo_event *z = res->events + 5 * p;
        cr_assert_eq(z->kind, HDO_EV_ZENO, "p = %d", p);
        cr_assert(mpfr_cmp_ui(z->time, 1) == 0);
        slong v = tm_var(model, "v"), w = tm_var(model, "w");
        cr_assert(close_to_d(z->right + v, 0, 30) &&
                      close_to_d(z->right + w, -2, 30),
                  "p = %d: the limit", p);
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
    /* p = 5: no livelock; the cascade goes on to the chattering count
       (HDO_ERR_UNSUPPORTED under the default `filippov`): 100 events, all
       instantaneous (the first too: it is at the start time), are
       allowed, the 101st is refused */
    int st = run_chain(res, model, 5, &err);
    cr_assert_eq(st, HDO_ERR_UNSUPPORTED, "%d %s", st, err.message);
    cr_assert(strstr(err.message, "chattering") != NULL, "%s", err.message);
    cr_assert_eq(res->nevents, HDO_RUN_MAX_INSTANT, "%ld", (long)res->nevents);
    for (slong k = 0; k < res->nevents; k++)
        cr_assert_neq(res->events[k].kind, HDO_EV_ZENO);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* ------------------------------------------------------------------ */
/* Aitken limits within tol max(1, |limit|) */

#define APREC 300

/* y[0..3]: y0, y1, y2 = L + 1, L + 1/2, L + 1/4 (Aitken limit L exactly)
   and y3 such that the Aitken limit of (y1, y2, y3) is L + delta,
   delta = f tol max(1, |L + delta|) (f > 0; tol = 2^-100): with
   d1 = y2 - y1 and K = L + delta - y2, d2 = y3 - y2 = K d1 / (d1 + K)
   (from y2 + d1 d2 / (d1 - d2) = L + delta). */
static int
state_limit_at(const mpq_t L, double f)
{
    mpq_t y[4], d1, K, tol, scale, delta;
    for (int i = 0; i < 4; i++)
        mpq_init(y[i]);
    mpq_inits(d1, K, tol, scale, delta, NULL);
    for (int i = 0; i < 3; i++) {
        mpq_set_ui(y[i], 1, 1UL << i);
        mpq_add(y[i], y[i], L);
    }
    mpq_set_ui(tol, 1, 1);
    mpq_div_2exp(tol, tol, 100);
    /* delta = f tol max(|L + delta|, ||y_3||): f tol L / (1 - f tol)
       when L >= 1 (the limit is the larger); f tol (L + 1/8) when
       |L| < 1/2 (y_3 = L + 1/8 up to O(tol), the state's size is the
       larger: the 0.9 and 1.1 margins dwarf that O(tol^2)) */
    mpq_set_d(delta, f);
    mpq_mul(delta, delta, tol);
    if (mpq_cmp_ui(L, 1, 1) < 0) {
        mpq_set_ui(scale, 1, 8);
        mpq_add(scale, scale, L);
        mpq_mul(delta, delta, scale);
    } else {
        mpq_set_ui(scale, 1, 1);
        mpq_sub(scale, scale, delta);
        mpq_div(delta, delta, scale);
        mpq_mul(delta, delta, L);
    }
    mpq_sub(d1, y[2], y[1]);
    mpq_add(K, L, delta);
    mpq_sub(K, K, y[2]);
    mpq_add(y[3], d1, K);
    mpq_div(y[3], K, y[3]);
    mpq_mul(y[3], y[3], d1);
    mpq_add(y[3], y[3], y[2]);

    mpfr_ptr ys[4];
    for (int i = 0; i < 4; i++) {
        ys[i] = hdo_vec_init(1, APREC);
        mpfr_set_q(ys[i], y[i], MPFR_RNDN);
    }
    mpfr_t t;
    mpfr_init2(t, APREC);
    mpfr_set_ui_2exp(t, 1, -100, MPFR_RNDN);
    mpfr_ptr lim = hdo_vec_init(1, APREC);
    int ok = hdo_zeno_state_limit(lim, (mpfr_srcptr const *)ys, 4, 1, t, APREC);
    hdo_vec_clear(lim, 1);
    mpfr_clear(t);
    for (int i = 0; i < 4; i++) {
        hdo_vec_clear(ys[i], 1);
        mpq_clear(y[i]);
    }
    mpq_clears(d1, K, tol, scale, delta, NULL);
    return ok;
}

Test(hybrid_thresholds, livelock_aitken_agreement_boundary)
{
    mpq_t L;
    mpq_init(L);
    /* |limit| = 1000: the tolerance is 1000 tol */
    mpq_set_ui(L, 1000, 1);
    cr_assert(state_limit_at(L, 0.9), "L = 1000, 0.9 tol |L|");
    cr_assert(!state_limit_at(L, 1.1), "L = 1000, 1.1 tol |L|");
    /* |limit| below the state's size (y_3 = 1/1000 + 1/8): the tolerance
       is tol |y_3|, relative to the state, not to 1 (a state scaled by
       10^-40 has the limits it has at 1) */
    mpq_set_ui(L, 1, 1000);
    cr_assert(state_limit_at(L, 0.9), "L = 1/1000, 0.9 tol |y_3|");
    cr_assert(!state_limit_at(L, 1.1), "L = 1/1000, 1.1 tol |y_3|");
    mpq_clear(L);
}

/* On the real path: the cascade of run_chain with p = 1 and a component
   u_k = 1000 + 2^-(k-1) + b 4^-(k-1) (two geometric modes: its Aitken
   limits differ) beside the pure geometric v, p, q.  The largest
   disagreement of consecutive Aitken limits of u over the window of 6
   states starting at event s, in units of tol max(1, |limit|), is
   computed here exactly (mpq); b = 4.2e-32 puts it at 0.79 for s = 1
   (the zeno clause at the 6th event), b = 6.4e-32 at 1.2 for s = 1 and
   0.3 for s = 2 (at the 7th). */
static double
aitken_worst(const mpq_t b, long s)
{
    mpq_t u[6], A[4], d1, d2, x, tol, worst;
    mpq_inits(d1, d2, x, tol, worst, NULL);
    for (int k = 0; k < 6; k++) {
        mpq_init(u[k]); /* u at event s + k: 1000 + 2^-(s+k-1) + b 4^-(s+k-1) */
        mpq_set_ui(u[k], 1, 1);
        mpq_div_2exp(u[k], u[k], (mp_bitcnt_t)(s + k - 1));
        mpq_set(x, b);
        mpq_div_2exp(x, x, (mp_bitcnt_t)(2 * (s + k - 1)));
        mpq_add(u[k], u[k], x);
        mpq_set_ui(x, 1000, 1);
        mpq_add(u[k], u[k], x);
    }
    for (int k = 2; k < 6; k++) {
        mpq_init(A[k - 2]);
        mpq_sub(d1, u[k - 1], u[k - 2]);
        mpq_sub(d2, u[k], u[k - 1]);
        mpq_sub(x, d1, d2);
        mpq_mul(A[k - 2], d2, d2);
        mpq_div(A[k - 2], A[k - 2], x);
        mpq_add(A[k - 2], A[k - 2], u[k]);
    }
    mpq_set_ui(tol, 1, 1);
    mpz_ui_pow_ui(mpq_denref(tol), 10, 35);
    for (int k = 1; k < 4; k++) {
        mpq_sub(x, A[k], A[k - 1]);
        mpq_abs(x, x);
        mpq_div(x, x, tol);
        mpq_div(x, x, A[k]); /* |A| > 1 */
        if (mpq_cmp(x, worst) > 0)
            mpq_set(worst, x);
    }
    double w = mpq_get_d(worst);
    for (int k = 0; k < 6; k++)
        mpq_clear(u[k]);
    for (int k = 0; k < 4; k++)
        mpq_clear(A[k]);
    mpq_clears(d1, d2, x, tol, worst, NULL);
    return w;
}

static int
run_aitken(hdo_result_t res, const char *b, hdo_error_t *err)
{
    char text[1024];
    snprintf(text, sizeof text,
             "model ak\nvar x = 0, v = -1, p = 1, q = %s, u = 1001 + %s\n"
             "mode a\n  der(x) = v\n  der(v) = 0\n  der(p) = 0\n"
             "  der(q) = 0\n  der(u) = 0\n"
             "  when x < 0 goto a with v = v/2, p = p/2, q = q/4, "
             "u = 1000 + p/2 + q/4\n"
             "  zeno goto z\nend\n"
             "mode z\n  der(x) = 1\n  der(v) = 0\n  der(p) = 0\n"
             "  der(q) = 0\n  der(u) = 0\nend\n"
             "start a at 1\nuntil 2\n",
             b, b);
    hdo_model_t model;
    tm_parse(model, text);
    int st = tm_run(res, model, 30, NULL, err);
    hdo_model_clear(model);
    return st;
}

Test(hybrid_thresholds, livelock_aitken_agreement_on_a_run)
{
    mpq_t b;
    hdo_result_t res;
    hdo_error_t err;
    mpq_init(b);

    mpq_set_ui(b, 42, 1);
    mpz_ui_pow_ui(mpq_denref(b), 10, 33);
    mpq_canonicalize(b);
    double w1 = aitken_worst(b, 1);
    cr_assert(w1 > 0.7 && w1 < 0.9, "premise: %g", w1);
    cr_assert_eq(run_aitken(res, "4.2e-32", &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 6);
    cr_assert_eq(res->events[5].kind, HDO_EV_ZENO);
    hdo_result_clear(res);

    mpq_set_ui(b, 64, 1);
    mpz_ui_pow_ui(mpq_denref(b), 10, 33);
    mpq_canonicalize(b);
    w1 = aitken_worst(b, 1);
    double w2 = aitken_worst(b, 2);
    cr_assert(w1 > 1.1 && w1 < 1.3 && w2 < 0.5, "premise: %g %g", w1, w2);
    cr_assert_eq(run_aitken(res, "6.4e-32", &err), 0, "%s", err.message);
    cr_assert_eq(res->nevents, 7);
    cr_assert_eq(res->events[5].kind, HDO_EV_SWITCH);
    cr_assert_eq(res->events[6].kind, HDO_EV_ZENO);
    hdo_result_clear(res);
    mpq_clear(b);
}
