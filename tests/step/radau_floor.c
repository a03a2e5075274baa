/* radau_floor.c -- Radau IIA's step controller (ref/step/radau_control.c)
   on an error estimate that does not fall with h: the order read off it
   is not trusted beyond s + 1, and with the order unknown a run of kept
   steps probes twice h (decisions.md D-114; the wait's doubling after a
   failed probe: tests/step/radau_control.c). */
#include <criterion/criterion.h>
#include <math.h>
#include "../../ref/step/radau_control.h"

/* FLINT's rule: each threshold is tested at its value and one part in
   a thousand beyond. */
#define NEAR(x, f) ((x) * (1 + (f)*1e-3))

/* The highest exponent an estimate of s stages has is s + 1 (the defect
   bound's); EMEP's 55 at 31 stages is not one. */
Test(step, radau_order_plausible_threshold)
{
    cr_expect(hdo_radau_order_plausible(25.0, 24), "s + 1 itself");
    cr_expect(!hdo_radau_order_plausible(NEAR(25.0, 1), 24));
    cr_expect(hdo_radau_order_plausible(23.0, 24), "the top term's s - 1");
    cr_expect(hdo_radau_order_plausible(-3.0, 24), "an estimate that fell");
    cr_expect(!hdo_radau_order_plausible(55.0, 31), "EMEP's reading");
    cr_expect(hdo_radau_order_plausible(32.0, 31));
    cr_expect(!hdo_radau_order_plausible(INFINITY, 31));
    cr_expect(!hdo_radau_order_plausible(NAN, 31));
}

/* With the order unknown (NaN or INFINITY) and h not stiff: a probe from
   the wait on (at least 16 kept steps); never with a known order (that
   is hdo_radau_probe_due's rule) or on a stiff step (probed there
   anyway). */
Test(step, radau_probe_blind_threshold)
{
    cr_expect(hdo_radau_probe_blind_due(16, NAN, 0, 16));
    cr_expect(!hdo_radau_probe_blind_due(15, NAN, 0, 16), "one kept short");
    cr_expect(hdo_radau_probe_blind_due(16, INFINITY, 0, 16), "none seen");
    cr_expect(!hdo_radau_probe_blind_due(16, 23.0, 0, 16), "order known");
    cr_expect(!hdo_radau_probe_blind_due(16, 0.0, 0, 16), "order known");
    cr_expect(!hdo_radau_probe_blind_due(31, NAN, 0, 32), "the wait");
    cr_expect(hdo_radau_probe_blind_due(32, NAN, 0, 32));
    cr_expect(!hdo_radau_probe_blind_due(15, NAN, 0, 8), "at least 16");
    cr_expect(hdo_radau_probe_blind_due(16, NAN, NEAR(1000, -1), 16));
    cr_expect(!hdo_radau_probe_blind_due(16, NAN, 1000, 16),
              "stiff: hdo_radau_probe_due probes");
}

/* EMEP's estimate after its sunrise at 40 digits (31 stages, tol 7e-46):
   the start term, 2.7e-48 to 4e-48 whatever h, then the h^30 of the
   stages, which reaches tol at h = 17 s.  k counts accepted steps. */
static double
emep_estimate(double h, int k)
{
    static const double floors[5] = {3.2e-48, 2.9e-48, 4.0e-48, 3.5e-48,
                                     2.7e-48};
    double fl = k == 0 ? 6.9e-48 : k == 1 ? 2.7e-48 : floors[k % 5];
    return fl + 7e-46 * pow(h / 17, 30);
}

/* One step as radau.c takes it: tried at h until the estimate passes
   (a failed probe goes back to the step it doubled, another rejection
   shrinks h by the proposal); then h := h times the accepted growth.
   Returns the rejections. */
static int
take_step(hdo_radau_probe *p, mpfr_t h, const mpfr_t tol, int k, long s)
{
    mpfr_t e, fac;
    mpfr_inits2(64, e, fac, (mpfr_ptr)0);
    int rejected = 0;
    for (;;) {
        mpfr_set_d(e, emep_estimate(mpfr_get_d(h, MPFR_RNDN), k), MPFR_RNDN);
        if (mpfr_cmp(e, tol) <= 0) {
            hdo_radau_accept_factor(fac, tol, e, s);
            hdo_radau_probe_accept(p, fac, h, e, tol, 1.0, s);
            mpfr_mul(h, h, fac, MPFR_RNDN);
            break;
        }
        rejected++;
        hdo_radau_probe_rejected(p, e, h);
        if (hdo_radau_probe_back(p, h))
            continue;
        hdo_radau_reject_factor(fac, tol, e, s, 0);
        mpfr_mul(h, h, fac, MPFR_RNDN);
    }
    mpfr_clears(e, fac, (mpfr_ptr)0);
    return rejected;
}

/* The lock: at h = 2.44e-7 the estimate 6.9e-48 proposes 0.983 h, the
   next (2.7e-48) reads as e ~ h^55 and proposes 1.015: kept, and so are
   all after it (1.002 to 1.015, inside the keep band of 1.15 at 31
   stages).  Before D-114 the order 55 disabled the probe and h stayed
   at 2.40e-7 for good.  Now 55 is no order, the 17th step probes, the
   probes pass with an estimate no larger and double again, and h
   reaches the estimate's own scale, seconds, within 60 steps, without
   a step that fails by more than the probes' doubling. */
Test(step, radau_floor_estimate_does_not_lock)
{
    const long s = 31;
    hdo_radau_probe p;
    hdo_radau_probe_init(&p);
    hdo_radau_probe_reset(&p);
    mpfr_t h, tol;
    mpfr_inits2(64, h, tol, (mpfr_ptr)0);
    mpfr_set_d(tol, 7e-46, MPFR_RNDN);
    mpfr_set_d(h, 2.44e-7, MPFR_RNDN);
    take_step(&p, h, tol, 0, s);
    double h1 = mpfr_get_d(h, MPFR_RNDN);
    cr_expect(h1 < 2.44e-7 && h1 > 2.39e-7, "0.983 h: %g", h1);
    take_step(&p, h, tol, 1, s);
    cr_expect(isnan(p.pobs), "the reading %g is not an order", p.pobs);
    cr_expect(mpfr_get_d(h, MPFR_RNDN) == h1, "kept");
    int k = 2, rejected = 0;
    for (; k < 16; k++)
        rejected += take_step(&p, h, tol, k, s);
    cr_expect(mpfr_get_d(h, MPFR_RNDN) == h1, "15 steps kept");
    take_step(&p, h, tol, k++, s);
    cr_expect(mpfr_get_d(h, MPFR_RNDN) == 2 * h1, "the 17th probes");
    for (; k < 60; k++)
        rejected += take_step(&p, h, tol, k, s);
    double hend = mpfr_get_d(h, MPFR_RNDN);
    cr_expect(hend > 1 && hend < 17, "h = %g after 60 steps", hend);
    cr_expect(rejected <= 2, "%d rejections", rejected);
    mpfr_clears(h, tol, (mpfr_ptr)0);
    hdo_radau_probe_clear(&p);
}
