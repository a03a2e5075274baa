/* radau_start.c -- a mode entered again: Radau IIA's step proposal kept
 * from the mode's last arc is dropped only where it is below t0's
 * resolution and the arc does not continue the last step
 * (ref/step/radau_start.c, decisions.md D-135). */
#include <criterion/criterion.h>
#include <string.h>
#include "../../ref/step/radau_stepper.h"

static void
setup(radau *r, mpfr_prec_t prec)
{
    memset(r, 0, sizeof *r);
    r->prec = prec;
    r->wprec = prec + 100;
    mpfr_inits2(r->wprec, r->hnext, r->tprev, r->hprev, (mpfr_ptr)0);
}

static void
teardown(radau *r)
{
    mpfr_clears(r->hnext, r->tprev, r->hprev, (mpfr_ptr)0);
}

/* t0 = 3 (exponent 2) at 113 bits: half its ulp is 2^(2 - 113 - 1).  A
   proposal just below it is stale on a new arc, one at it is not (t0 +
   h may round up), one on an arc that continues the last step never is,
   and a proposal 0 is the first step's already.  Moving the boundary by
   one binade either way fails one of these. */
Test(step, radau_stale_step_at_half_an_ulp_of_t0)
{
    radau r;
    mpfr_prec_t p = 113;
    setup(&r, p);
    mpfr_t t0;
    mpfr_init2(t0, p);
    mpfr_set_ui(t0, 3, MPFR_RNDN);
    long half = 2 - (long)p - 1; /* log2 of half an ulp of t0 */

    mpfr_set_ui_2exp(r.hnext, 1, half, MPFR_RNDN);
    mpfr_nextbelow(r.hnext); /* just below half an ulp */
    r.have_prev = 0;
    cr_expect(hdo_radau_stale_step(&r, t0), "no last step: stale");
    /* a last arc that ended elsewhere (the mode left at t = 1e-30) */
    r.have_prev = 1;
    mpfr_set_d(r.tprev, 1e-30, MPFR_RNDN);
    mpfr_set_d(r.hprev, 1e-31, MPFR_RNDN);
    cr_expect(hdo_radau_stale_step(&r, t0), "a new arc: stale");
    /* at half an ulp: kept */
    mpfr_set_ui_2exp(r.hnext, 1, half, MPFR_RNDN);
    cr_expect(!hdo_radau_stale_step(&r, t0), "half an ulp: kept");
    /* below it but continuing the last step (t0 = tprev + hprev) */
    mpfr_set_ui_2exp(r.hnext, 1, half - 10, MPFR_RNDN);
    mpfr_set_ui(r.tprev, 2, MPFR_RNDN);
    mpfr_set_ui(r.hprev, 1, MPFR_RNDN);
    cr_expect(!hdo_radau_stale_step(&r, t0), "the same arc: kept");
    /* within 2^-20 hprev of continuing it, as the predictor's test */
    mpfr_set_ui_2exp(r.hprev, 1, 0, MPFR_RNDN);
    mpfr_set_ui(r.tprev, 2, MPFR_RNDN);
    mpfr_mul_2si(t0, r.hprev, -22, MPFR_RNDN);
    mpfr_add_ui(t0, t0, 3, MPFR_RNDN);
    cr_expect(!hdo_radau_stale_step(&r, t0), "2^-22 hprev off: continues");
    mpfr_set_ui(t0, 3, MPFR_RNDN);
    mpfr_set_ui_2exp(r.hprev, 1, -1, MPFR_RNDN); /* ends at 2.5 */
    cr_expect(hdo_radau_stale_step(&r, t0), "ends at 2.5: a new arc");
    /* no proposal yet: nothing to drop */
    mpfr_set_zero(r.hnext, 1);
    cr_expect(!hdo_radau_stale_step(&r, t0));
    mpfr_clear(t0);
    teardown(&r);
}
