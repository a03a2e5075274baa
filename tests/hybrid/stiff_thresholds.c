/* stiff_thresholds.c -- the stiffness watch's thresholds at their
 * boundaries (ref/hybrid/stiff.c): a step counts as stiff when its ratio
 * is >= log10(order) + 1.6 (HDO_STIFF_MARGIN); an arc stiff for 100 steps
 * in a row (HDO_STIFF_STEPS) is hopeless when steps + (t_end - t) / h >
 * --max-steps, and --method auto switches it when (t_end - t) / h > 10^4
 * (HDO_AUTO_SWITCH_STEPS).  The watch is fed by a stand-in stepper whose
 * stiffness ratio the test sets; the thresholds are restated here from
 * decisions.md, not read from the headers. */
#include <math.h>
#include <string.h>
#include <criterion/criterion.h>
#include "hybrid.h"
#include "hybrid/internal.h"

static double fake_ratio;

static double
fake_stiffness(const hdo_stepper_struct *s)
{
    return fake_ratio;
}

static const hdo_step_type fake_type = {.name = "fake",
                                        .stiffness = fake_stiffness};

/* n steps of mode 0 with ratio r at order `order` and step h. */
static void
feed(hdo_stiff_watch *w, slong order, double r, int n, double h)
{
    hdo_stepper_t st;
    memset(st, 0, sizeof st);
    st->type = &fake_type;
    st->dense.order = order;
    mpfr_t t, hh;
    mpfr_inits2(64, t, hh, (mpfr_ptr)0);
    mpfr_set_d(hh, h, MPFR_RNDN);
    fake_ratio = r;
    for (int i = 0; i < n; i++) {
        mpfr_set_si(t, i, MPFR_RNDN);
        hdo_stiff_watch_step(w, st, 0, t, hh);
    }
    mpfr_clears(t, hh, (mpfr_ptr)0);
}

/* log10(order) + 1.6 counts, the double below it does not; 1 + 2^-20 and
   1 - 2^-20 times it either side. */
Test(stiff_thresholds, stiff_ratio_boundary)
{
    static const slong orders[] = {1, 2, 30, 57, 100, 173, 1000};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        slong q = orders[i];
        double thr = log10((double)q) + 1.6;
        hdo_stiff_watch w;
        hdo_stiff_watch_init(&w);
        feed(&w, q, thr, 3, 1e-3);
        cr_expect_eq(w.steps, 3, "order %ld: on the threshold", (long)q);
        feed(&w, q, nextafter(thr, 0), 1, 1e-3);
        cr_expect_eq(w.steps, 0, "order %ld: just below", (long)q);
        feed(&w, q, thr * (1 + 0x1p-20), 2, 1e-3);
        cr_expect_eq(w.steps, 2, "order %ld: 1 + 2^-20", (long)q);
        feed(&w, q, thr * (1 - 0x1p-20), 1, 1e-3);
        cr_expect_eq(w.steps, 0, "order %ld: 1 - 2^-20", (long)q);
    }
    /* order 0 or 1: log10(1) = 0, the margin alone */
    hdo_stiff_watch w;
    hdo_stiff_watch_init(&w);
    feed(&w, 0, 1.6, 1, 1e-3);
    cr_expect_eq(w.steps, 1);
    feed(&w, 0, nextafter(1.6, 0), 1, 1e-3);
    cr_expect_eq(w.steps, 0);
}

/* 100 stiff steps in a row, and steps + (t_end - t) / h > max_steps
   (strict): h = 1/4, t = 0, t_end = 250 gives 1000 steps ahead. */
Test(stiff_thresholds, hopeless_boundary)
{
    hdo_stiff_watch w;
    hdo_stiff_watch_init(&w);
    feed(&w, 30, 10.0, 99, 0.25);
    cr_expect(!hdo_stiff_watch_hopeless(&w, 0, 250, 500, 1000), "99 steps");
    feed(&w, 30, 10.0, 1, 0.25);
    cr_expect_eq(w.steps, 100);
    cr_expect(hdo_stiff_watch_hopeless(&w, 0, 250, 500, 1000), "100 steps");
    /* 500 + 1000 = 1500 against max_steps */
    cr_expect(hdo_stiff_watch_hopeless(&w, 0, 250, 500, 1499));
    cr_expect(!hdo_stiff_watch_hopeless(&w, 0, 250, 500, 1500));
    cr_expect(!hdo_stiff_watch_hopeless(&w, 0, 250, 501, 1501));
    /* a step that is not stiff starts the count again */
    feed(&w, 30, 0.0, 1, 0.25);
    feed(&w, 30, 10.0, 99, 0.25);
    cr_expect(!hdo_stiff_watch_hopeless(&w, 0, 250, 500, 1000));
}

/* --method auto: 100 stiff steps and more than 10^4 steps left:
   (t_end - t) / h with h = 2^-10 and t_end - t = 10^4 h exactly (not
   enough), 10^4 h + h (enough), 10^4 h (1 - 2^-20) (not). */
Test(stiff_thresholds, auto_switch_boundary)
{
    const double h = 0x1p-10;
    hdo_stiff_watch w;
    hdo_stiff_watch_init(&w);
    feed(&w, 30, 10.0, 99, h);
    cr_expect(!hdo_stiff_watch_switch_due(&w, 1.0, 1.0 + 10001 * h),
              "99 steps");
    feed(&w, 30, 10.0, 1, h);
    cr_expect(hdo_stiff_watch_switch_due(&w, 1.0, 1.0 + 10001 * h));
    cr_expect(!hdo_stiff_watch_switch_due(&w, 1.0, 1.0 + 10000 * h));
    cr_expect(
        hdo_stiff_watch_switch_due(&w, 1.0, 1.0 + 10000 * h * (1 + 0x1p-20)));
    cr_expect(
        !hdo_stiff_watch_switch_due(&w, 1.0, 1.0 + 10000 * h * (1 - 0x1p-20)));
    cr_expect(hdo_stiff_watch_switch_due(&w, 0.0, 20000 * h));
    cr_expect(!hdo_stiff_watch_switch_due(&w, 0.0, 5000 * h));
}

/* a_p (hdo_stiff_active_step) against values computed outside hdo
   (mpmath, 80 digits: min over j in [floor((3p + 3)/4), p] of
   (j!)^(1/j) 2^(ltol/p)): the orders and tolerances 2^(17 - prec) of
   16, 30 and 100 digits (prec 87, 133, 366; p 32, 48, 128). */
Test(stiff_thresholds, active_step_closed_form)
{
    static const struct {
        slong p;
        double ltol, a;
    } cases[] = {{32, 17.0 - 87, 2.152085992367574},
                 {48, 17.0 - 133, 2.674532817937237},
                 {128, 17.0 - 366, 5.5167727766229016}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double a = hdo_stiff_active_step(cases[i].p, cases[i].ltol);
        cr_expect(fabs(a - cases[i].a) <= 1e-12 * cases[i].a,
                  "p = %ld: %.17g against %.17g", (long)cases[i].p, a,
                  cases[i].a);
    }
}

/* The Jacobian test: due every 8th step of a mode (a new mode starts
   the count again); h rho / a_p >= 3 is stiff, the double below is not;
   two stiff checks in a row with more than 100 steps of h left switch
   (100 exactly does not), one does not, and a check below 3 starts the
   count again. */
Test(stiff_thresholds, jacobian_test_boundaries)
{
    hdo_stiff_watch w;
    hdo_stiff_watch_init(&w);
    int due = 0;
    for (int i = 1; i <= 16; i++)
        due += hdo_stiff_check_due(&w, 0) ? i : 0;
    cr_expect_eq(due, 8 + 16);
    for (int i = 1; i <= 5; i++)
        cr_expect(!hdo_stiff_check_due(&w, 1));
    slong p = 48;
    double ltol = 17.0 - 133, a = hdo_stiff_active_step(p, ltol);
    double h = 0x1p-10, rho = 3.0 * a / h;
    double q = hdo_stiff_jacobian_ratio(&w, rho, h, p, ltol);
    cr_expect(fabs(q - 3.0) <= 1e-14, "%.17g", q);
    /* a fresh watch on mode 0, its step h recorded by a stiff step */
    hdo_stiff_watch_init(&w);
    hdo_stiff_check_due(&w, 0);
    feed(&w, p, 10.0, 1, h);
    hdo_stiff_jacobian_ratio(&w, nextafter(3.0 * a, 0) / h, h, p, ltol);
    cr_expect_eq(w.jac_hits, 0, "just below 3: not stiff");
    hdo_stiff_jacobian_ratio(&w, 3.0 * a * (1 + 0x1p-20) / h, h, p, ltol);
    cr_expect_eq(w.jac_hits, 1);
    cr_expect(!hdo_stiff_watch_switch_due(&w, 0.0, 1000 * h), "one check");
    hdo_stiff_jacobian_ratio(&w, 10.0 * a / h, h, p, ltol);
    cr_expect_eq(w.jac_hits, 2);
    cr_expect(hdo_stiff_watch_switch_due(&w, 0.0, 101 * h));
    cr_expect(!hdo_stiff_watch_switch_due(&w, 0.0, 100 * h));
    cr_expect(hdo_stiff_watch_switch_due(&w, 0.0, 100 * h * (1 + 0x1p-20)));
    hdo_stiff_jacobian_ratio(&w, 2.0 * a / h, h, p, ltol);
    cr_expect_eq(w.jac_hits, 0);
    cr_expect(!hdo_stiff_watch_switch_due(&w, 0.0, 1000 * h));
    /* no estimate (rho < 0): not stiff */
    hdo_stiff_jacobian_ratio(&w, -1, h, p, ltol);
    cr_expect_eq(w.jac_hits, 0);
}
