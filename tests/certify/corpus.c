/* corpus.c -- certification checks hdo's own solver: on every corpus case
   the pass certifies, each value and event time of the run lies in its
   ball within the run's own claimed D digits (the distance from the
   ball at most 10^-D of the value's scale) */
#include "common.h"

TestSuite(certify_corpus);

/* The scale a value's D digits are counted against, as --verify counts
   them: max(|x|, the variable's magnitude over the run's step) when that
   is at least the row's floor for it, else the larger of the variable's
   scale and its floor (its digits absolute). */
static double
scale_of(const hdo_row *r, slong v)
{
    double s = fabs(mpfr_get_d(r->values + v, MPFR_RNDN));
    if (isfinite(r->mag[v]) && exp2(r->mag[v]) > s)
        s = exp2(r->mag[v]);
    if (s < exp2(r->floor[v]))
        s = fmax(exp2(r->scale[v]), exp2(r->floor[v]));
    return s;
}

/* The distance of x from the ball b, beyond b's radius, as a double
   (0 inside). */
static double
outside_by(const hdo_ball *b, mpfr_srcptr x)
{
    mpfr_t d;
    mpfr_init2(d, mpfr_get_prec(b->mid) + 64);
    mpfr_sub(d, x, b->mid, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_sub(d, d, b->rad, MPFR_RNDN);
    double r = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(d);
    return r > 0 ? r : 0;
}

/* Checks the case; complete: whether the whole run is certified. */
static void
check_case(const char *name, long D, int complete, long min_digits)
{
    char path[256];
    snprintf(path, sizeof path, "cases/%s.hdae", name);
    ct_case c;
    ct_init(&c, NULL, path, NULL, D, NULL, NULL);
    cr_assert_eq(c.cert->complete, complete, "%s: %s", name, c.cert->reason);
    if (complete)
        cr_assert_eq(c.cert->nrows, c.res->nrows, "%s", name);
    cr_assert(c.cert->min_digits >= min_digits, "%s: %ld digits at %s", name,
              c.cert->min_digits, c.cert->where);
    double claim = pow(10.0, -(double)D);
    for (slong i = 0; i < c.cert->nrows; i++) {
        const hdo_cert_row *cr = c.cert->rows + i;
        const hdo_row *r = c.res->rows + cr->row;
        cr_assert_eq(cr->mode, r->mode, "%s row %ld: mode", name, (long)i);
        for (slong v = 0; v < c.model->nvars; v++) {
            cr_assert_eq(cr->present[v], r->present[v]);
            if (!r->present[v])
                continue;
            double off = outside_by(cr->values + v, r->values + v);
            cr_assert(off <= claim * scale_of(r, v),
                      "%s row %ld (t = %g), %s: the run's value is %g "
                      "outside the ball",
                      name, (long)cr->row, mpfr_get_d(r->time, MPFR_RNDN),
                      c.model->vars[v].name, off);
        }
    }
    double span = fmax(fabs(mpfr_get_d(c.res->t0, MPFR_RNDN)),
                       fabs(mpfr_get_d(c.res->t_end, MPFR_RNDN)));
    for (slong k = 0; k < c.cert->nevents; k++) {
        const hdo_cert_event *ce = c.cert->events + k;
        const hdo_event *e = c.res->events + ce->event;
        cr_assert_eq(ce->from, e->from);
        cr_assert_eq(ce->to, e->to);
        double off = outside_by(&ce->time, e->time);
        cr_assert(off <= claim * fmax(span, 1), "%s event %ld: time %g outside",
                  name, (long)e->index, off);
    }
    ct_clear(&c);
}

/* The cases certified over their whole run at 30 digits (cases/README.md
   has the table with the others, and why they stop). */
Test(certify_corpus, pendulum)
{
    check_case("pendulum", 30, 1, 25);
}

Test(certify_corpus, pendulum_angle)
{
    check_case("pendulum_angle", 30, 1, 25);
}

Test(certify_corpus, pendulum_break)
{
    check_case("pendulum_break", 30, 1, 25);
}

Test(certify_corpus, km_energy)
{
    check_case("km_energy", 30, 1, 25);
}

Test(certify_corpus, evaporator_hysteresis)
{
    check_case("evaporator_hysteresis", 30, 1, 25);
}

Test(certify_corpus, stick_slip_belt_static)
{
    check_case("stick_slip_belt_static", 30, 1, 25);
}

Test(certify_corpus, stick_slip_hysteresis)
{
    check_case("stick_slip_hysteresis", 30, 1, 24);
}

/* six reinit-adjusted openings (iL forced to 0: the smallest change) */
Test(certify_corpus, boost_converter)
{
    check_case("boost_converter", 30, 1, 25);
}

/* three tangential break-aways (tangent.c) */
Test(certify_corpus, stick_slip_stick)
{
    check_case("stick_slip_stick", 30, 1, 25);
}

/* Filippov sliding on one surface (sliding.c) */
Test(certify_corpus, stick_slip)
{
    check_case("stick_slip", 30, 1, 25);
}

Test(certify_corpus, stick_slip_belt)
{
    check_case("stick_slip_belt", 30, 1, 25);
}

Test(certify_corpus, evaporator)
{
    check_case("evaporator", 30, 1, 25);
}

Test(certify_corpus, km_chattering)
{
    check_case("km_chattering", 30, 1, 25);
}

/* Zeno cascades with their accumulation point (zeno.c) */
Test(certify_corpus, bouncing_ball)
{
    check_case("bouncing_ball", 30, 1, 25);
}

Test(certify_corpus, water_tanks)
{
    check_case("water_tanks", 30, 1, 25);
}

/* Certified up to a stop: what is certified holds the run's values. */
Test(certify_corpus, filippov_spiral_to_its_zeno_point)
{
    check_case("filippov_spiral", 30, 0, 25);
}

/* PWM edges on the grid (the event's rows stand for the sample) and
   the edge at until (not taken: a clock exactly zero there) */
Test(certify_corpus, boost_converter_ccm)
{
    check_case("boost_converter_ccm", 30, 1, 25);
}

Test(certify_corpus, boost_converter_dcm)
{
    check_case("boost_converter_dcm", 30, 1, 25);
}

/* At 100 digits: 90 certified digits at least. */
Test(certify_corpus, pendulum_angle_100_digits)
{
    check_case("pendulum_angle", 100, 1, 90);
}

Test(certify_corpus, pendulum_100_digits)
{
    check_case("pendulum", 100, 1, 90);
}

Test(certify_corpus, bouncing_ball_100_digits)
{
    check_case("bouncing_ball", 100, 1, 90);
}
