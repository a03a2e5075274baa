/* radau_control.c -- Radau IIA's cost thresholds at their boundaries
   (ref/step/radau_control.c: refactor the Newton matrix above a
   contraction of 1/4, an older block matrix above 1/100; keep a step
   whose growth is below 1.2; the step's safety factor beyond 24
   stages), the DAE block solve; the probe's wait after a failed blind
   probe (D-114).  The stage residual: tests/step/radau_residual.c. */
#include <criterion/criterion.h>
#include <math.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_control.h"
#include "hybrid.h"

/* FLINT's rule: each threshold is tested at its value and one part in
   a thousand beyond, so that moving it by that factor fails a test. */
#define NEAR(x, f) ((x) * (1 + (f)*1e-3))

Test(step, radau_refactor_threshold_quarter)
{
    /* a matrix factored at this step's iterates (fresh): only 1/4 */
    cr_expect_eq(hdo_radau_refactor(0.25, 0, 1), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, -1), 0, 1), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, 1), 0, 1), 2,
                 "a fresh block matrix that slow goes to the full one");
    cr_expect_eq(hdo_radau_refactor(0.2, 0, 1), 0,
                 "1/100 is not the test of a fresh matrix");
    /* the full matrix, fresh or not: 1/4, and it stays full */
    cr_expect_eq(hdo_radau_refactor(0.25, 1, 0), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, 1), 1, 0), 2);
    cr_expect_eq(hdo_radau_refactor(0.25, 1, 1), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, 1), 1, 1), 2);
    cr_expect_eq(hdo_radau_refactor(0.2, 1, 0), 0);
    /* an older block matrix above 1/4: the blocks again, not the full */
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, 1), 0, 0), 1);
}

/* The stages' matrix in double (full = 2, decisions.md D-109): an
   older one refactors above 1e-6, a fresh one only above 1/4, and then
   to the full matrix in MPFR. */
Test(step, radau_refactor_threshold_staged)
{
    cr_expect_eq(hdo_radau_refactor(1e-6, 2, 0), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(1e-6, -1), 2, 0), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(1e-6, 1), 2, 0), 1);
    cr_expect_eq(hdo_radau_refactor(1e-3, 2, 0), 1,
                 "one step old: 1e-3 refactors");
    cr_expect_eq(hdo_radau_refactor(0.2, 2, 1), 0,
                 "fresh: not the older threshold");
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, 1), 2, 1), 2);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.25, 1), 2, 0), 1);
}

/* When the stages' own Jacobians are factored in double (decisions.md
   D-109): n^2 s <= 128 limbs of prec, at most 1024 unknowns. */
Test(step, radau_stage_lu_due)
{
    /* Van der Pol (n = 2) at 30, 100 and 200 digits: yes */
    cr_expect(hdo_radau_stage_lu_due(2, 24, hdo_run_prec(30)));
    cr_expect(hdo_radau_stage_lu_due(2, 72, hdo_run_prec(100)));
    cr_expect(hdo_radau_stage_lu_due(2, 141, hdo_run_prec(200)));
    /* the ring modulator (15 states, 17 stages) at 16 digits: no */
    cr_expect(!hdo_radau_stage_lu_due(15, 17, hdo_run_prec(16)));
    /* the boundary: 128 at one limb, 256 at two */
    cr_expect(hdo_radau_stage_lu_due(4, 8, 64));
    cr_expect(!hdo_radau_stage_lu_due(4, 9, 64));
    cr_expect(hdo_radau_stage_lu_due(4, 16, 65));
    cr_expect(!hdo_radau_stage_lu_due(4, 17, 128));
    /* at most 1024 unknowns whatever the precision */
    cr_expect(hdo_radau_stage_lu_due(1, 1024, 1 << 20));
    cr_expect(!hdo_radau_stage_lu_due(1, 1025, 1 << 20));
}

Test(step, radau_refactor_threshold_block_hundredth)
{
    /* an older block matrix (kept from an earlier step or iterate) */
    cr_expect_eq(hdo_radau_refactor(0.01, 0, 0), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.01, -1), 0, 0), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.01, 1), 0, 0), 1);
    cr_expect_eq(hdo_radau_refactor(0.25, 0, 0), 1);
    /* not for the full matrix, nor a fresh block matrix */
    cr_expect_eq(hdo_radau_refactor(NEAR(0.01, 1), 1, 0), 0);
    cr_expect_eq(hdo_radau_refactor(NEAR(0.01, 1), 0, 1), 0);
}

Test(step, radau_keep_step_threshold)
{
    const long upto24[3] = {3, 18, 24};
    for (int k = 0; k < 3; k++) {
        long s = upto24[k];
        cr_expect(hdo_radau_keep_step(1.0, s), "no growth keeps h");
        cr_expect(hdo_radau_keep_step(NEAR(1.2, -1), s));
        cr_expect(!hdo_radau_keep_step(1.2, s), "1.2 itself grows");
        cr_expect(!hdo_radau_keep_step(NEAR(1.2, 1), s));
        cr_expect(!hdo_radau_keep_step(NEAR(1.0, -1), s), "a shrink");
        cr_expect(!hdo_radau_keep_step(4.0, s));
    }
    /* beyond 24 stages the same error ratio 1.2^23: growth 1.2^(23/(s-1)),
       computed here with pow; 25 stages is the first to differ */
    const long beyond[3] = {25, 45, 64};
    for (int k = 0; k < 3; k++) {
        long s = beyond[k];
        double keep = pow(1.2, 23.0 / (double)(s - 1));
        cr_expect(hdo_radau_keep_step(1.0, s));
        cr_expect(hdo_radau_keep_step(keep * (1 - 1e-9), s), "s = %ld", s);
        cr_expect(!hdo_radau_keep_step(keep * (1 + 1e-9), s), "s = %ld", s);
        cr_expect(!hdo_radau_keep_step(NEAR(1.0, -1), s));
    }
    cr_expect(!hdo_radau_keep_step(1.195, 45), "below 1.2, beyond 1.2^(23/44)");
}

/* The step's safety factor: 0.8 up to 24 stages (the same error target
   0.8^23 tol as before), 0.8^(23/(s-1)) beyond; 24 and 25 stages on
   either side (moving the threshold by one stage fails a test), and the
   error target safety^(s-1) = 0.8^23 at 25, 33 and 53 stages against
   pow computed here. */
Test(step, radau_step_safety_threshold)
{
    cr_expect(hdo_radau_step_safety(9) == 0.8);
    cr_expect(hdo_radau_step_safety(24) == 0.8);
    cr_expect(hdo_radau_step_safety(25) > 0.8);
    const long ss[3] = {25, 33, 53};
    for (int k = 0; k < 3; k++) {
        double f = hdo_radau_step_safety(ss[k]);
        double target = pow(f, (double)(ss[k] - 1));
        cr_expect(fabs(target / pow(0.8, 23) - 1) < 1e-12,
                  "s = %ld: safety %.17g aims at %.17g tol", ss[k], f, target);
        cr_expect(f < 1);
    }
}

/* The stage rule (radau_nodes.c): min(D/2 + 9, 24) up to 30 digits,
   ceil(24 (D + 5) / 35) beyond (the same (D + 5) / (s - 1) as 24 stages
   at 30 digits, so that the step does not shrink with the digits), at
   most 200: 24 at 30 digits, 25 at 31, 45 at 60, 57 at 78, 72 at 100,
   141 at 200, 196 at 280, 200 at 300 (where the rule gives 210). */
Test(step, radau_stage_rule)
{
    static const long D[] = {16, 30, 31, 60, 78, 79, 100, 200, 280, 300};
    static const slong S[] = {17, 24, 25, 45, 57, 58, 72, 141, 196, 200};
    for (size_t k = 0; k < sizeof D / sizeof D[0]; k++)
        cr_expect_eq(hdo_radau_stages(hdo_run_prec(D[k])), S[k],
                     "%ld digits: %ld stages", D[k],
                     (long)hdo_radau_stages(hdo_run_prec(D[k])));
}

/* The Newton iterations a step may take: 40 up to 30 digits, then
   ceil(40 (D + 5)/35), in proportion to the digits to gain (decisions.md
   D-105): 42 at 31 digits, 75 at 60, 120 at 100, 235 at 200. */
Test(step, radau_newton_limit)
{
    static const long D[] = {16, 30, 31, 60, 100, 200};
    static const int L[] = {40, 40, 42, 75, 120, 235};
    for (size_t k = 0; k < sizeof D / sizeof D[0]; k++)
        cr_expect_eq(hdo_radau_newton_limit(hdo_run_prec(D[k])), L[k],
                     "%ld digits: %d", D[k],
                     hdo_radau_newton_limit(hdo_run_prec(D[k])));
}

/* The estimate's trend (decisions.md D-105): Van der Pol at 100 digits,
   72 stages, before its fast layer: an accepted step at 0.896 times the
   last h with the same estimate, 0.0037 tol.  Keeping h would be
   rejected (the estimate grows by 0.896^-71 = 2,400), so the trend's
   factor, safety * 0.896 * (0.01/0.0037^2)^(1/71), is taken; at 24
   stages the same trend predicts 0.017 tol, and nothing changes. */
Test(step, radau_trend_threshold)
{
    double hr = 0.896, u = 0.0037;
    cr_expect(hdo_radau_trend_rejects(hr, u, u, 1.0, 72));
    cr_expect(!hdo_radau_trend_rejects(hr, u, u, 1.0, 24));
    double g = hdo_radau_step_safety(72) * hr * pow(0.01 / (u * u), 1.0 / 71);
    cr_expect(fabs(hdo_radau_trend_factor(hr, u, u, 72) / g - 1) < 1e-12);
    cr_expect(!hdo_radau_trend_rejects(1.0, 0.5, 0.5, 1.0, 24),
              "a steady estimate at half the tolerance");
    /* the boundary: used^2/usedlast (fac/hratio)^(s-1) = 1 up to 24
       stages */
    cr_expect(!hdo_radau_trend_rejects(1.0, 0.5, 0.25, 1.0, 24));
    cr_expect(hdo_radau_trend_rejects(1.0, NEAR(0.5, 1), 0.25, 1.0, 24));
    cr_expect(!hdo_radau_trend_rejects(0.5, 0.5, 0.25, 0.5, 24));
    cr_expect(hdo_radau_trend_rejects(0.5, 0.5, 0.25, NEAR(0.5, 1), 24));
    /* and HDO_RADAU_TREND_FAIL = 0.2 beyond (D-144): 25 stages */
    cr_expect(!hdo_radau_trend_rejects(1.0, 0.5, 1.25, 1.0, 25));
    cr_expect(hdo_radau_trend_rejects(1.0, NEAR(0.5, 1), 1.25, 1.0, 25));
    cr_expect(!hdo_radau_trend_rejects(0.5, 0.5, 1.25, 0.5, 25));
    cr_expect(hdo_radau_trend_rejects(0.5, 0.5, 1.25, NEAR(0.5, 1), 25));
    cr_expect(!hdo_radau_trend_rejects(1.0, 0.125, 0.125, 1.0, 25),
              "a steady estimate at an eighth of the tolerance");
    /* Van der Pol at 60 digits, 45 stages: accepted at 0.887 times the
       last h at 0.0035 tol after 0.0032; floored, the trend predicts
       0.24 tol for keeping h, which used 1.27 */
    cr_expect(hdo_radau_trend_rejects(0.887, 0.0035, 0.0032, 1.0, 45));
    cr_expect(!hdo_radau_trend_rejects(0.887, 0.0035, 0.0032, 0.95, 45));
    /* an estimate far below the tolerance counts as 0.01 (RADAU5) */
    cr_expect(!hdo_radau_trend_rejects(1.0, 0.05, 1e-20, 1.0, 24));
    cr_expect_eq(HDO_RADAU_TREND_FLOOR, 0.01);
}

/* A run's first accepted step at 72 stages, h = 1e-3, an estimate of
   0.0037 tol (tol = 1e-100) and a proposal of 1.006: the trend tests'
   start. */
static void
trend_first_step(hdo_radau_probe *p, mpfr_t fac, mpfr_t h, mpfr_t e, mpfr_t tol)
{
    hdo_radau_probe_init(p);
    hdo_radau_probe_reset(p);
    mpfr_set_d(tol, 1e-100, MPFR_RNDN);
    mpfr_set_d(e, 0.0037e-100, MPFR_RNDN);
    mpfr_set_d(h, 1e-3, MPFR_RNDN);
    mpfr_set_d(fac, 1.006, MPFR_RNDN);
    hdo_radau_probe_accept(p, fac, h, e, tol, 100, 72);
}

/* The trend along accepted steps (hdo_radau_probe_accept at 72
   stages): the first step has no trend; a step at 0.896 times the last
   h with the same estimate, accepted after a rejection at the last h
   whose estimate (14.9 tol) fell as h^71, takes the trend's factor
   instead of keeping h; the same step without the rejection (a flat
   estimate: EMEP before a sunset, decisions.md D-105) keeps h, and so
   does one whose rejection fell only as h^30 (below (s-1)/2 = 35.5). */
Test(step, radau_trend_accept_sequence)
{
    for (int c = 0; c < 3; c++) {
        hdo_radau_probe p;
        mpfr_t fac, h, e, tol, er;
        mpfr_inits2(64, fac, h, e, tol, er, (mpfr_ptr)0);
        trend_first_step(&p, fac, h, e, tol);
        cr_expect(mpfr_cmp_ui(fac, 1) == 0, "no trend yet: kept");
        if (c == 0)
            mpfr_set_d(er, 14.9e-100, MPFR_RNDN);
        else /* e ~ h^30: 0.0037 0.896^-30 */
            mpfr_set_d(er, 0.0037e-100 * pow(0.896, -30.0), MPFR_RNDN);
        if (c != 1)
            hdo_radau_probe_rejected(&p, er, h);
        mpfr_set_d(h, 0.896e-3, MPFR_RNDN);
        mpfr_set_d(fac, 1.006, MPFR_RNDN);
        hdo_radau_probe_accept(&p, fac, h, e, tol, 100, 72);
        double g = hdo_radau_trend_factor(0.896, 0.0037, 0.0037, 72);
        if (c == 0) {
            cr_expect(fabs(mpfr_get_d(fac, MPFR_RNDN) / g - 1) < 1e-9,
                      "%g against %g", mpfr_get_d(fac, MPFR_RNDN), g);
            cr_expect(g < 0.95);
        } else {
            cr_expect(mpfr_cmp_ui(fac, 1) == 0, "case %d: kept", c);
        }
        mpfr_clears(fac, h, e, tol, er, (mpfr_ptr)0);
        hdo_radau_probe_clear(&p);
    }
}

/* The trend's evidence holds (decisions.md D-144): after a rejection
   whose estimate fell as h^71 the first accepted step takes the trend's
   factor g (D-105), and the HDO_RADAU_TREND_HOLD = 16 after it take it
   too, each at r times the last h with the same estimate, until together
   they shrank h by HDO_RADAU_TREND_SPAN = 4 (the step that would go
   beyond cut to the rest); then none.  r = 0.88 (Van der Pol's way into
   its fast layer at 100 digits, where a rejection followed every third
   step when only the first could): g = 0.90, the span ends it at the
   14th; r = 0.93: g = 0.95, the hold ends it after 16 (unbounded, EMEP's
   flat estimate at 40 digits was cut from 46 s to 9e-4 s in 15 steps).
   None after a rejection that fell as h^30. */
Test(step, radau_trend_holds)
{
    const double ratio[3] = {0.88, 0.896, 0.93};
    for (int c = 0; c < 3; c++) {
        hdo_radau_probe p;
        mpfr_t fac, h, e, tol, er;
        mpfr_inits2(64, fac, h, e, tol, er, (mpfr_ptr)0);
        trend_first_step(&p, fac, h, e, tol);
        /* 14.9 tol fell as h^71; 0.0037 0.896^-30 as h^30 */
        mpfr_set_d(er, c != 1 ? 14.9e-100 : 0.0037e-100 * pow(0.896, -30.0),
                   MPFR_RNDN);
        hdo_radau_probe_rejected(&p, er, h);
        double r = ratio[c], g = hdo_radau_trend_factor(r, 0.0037, 0.0037, 72);
        double room = HDO_RADAU_TREND_SPAN;
        int held = 0, clamped = 0;
        for (int k = 1; k <= HDO_RADAU_TREND_HOLD + 6; k++) {
            mpfr_mul_d(h, h, r, MPFR_RNDN);
            mpfr_set_d(fac, 1.006, MPFR_RNDN);
            hdo_radau_probe_accept(&p, fac, h, e, tol, 100, 72);
            double f = mpfr_get_d(fac, MPFR_RNDN), want = 0;
            if (c != 1 && k == 1)
                want = g;
            else if (c != 1 && k - 1 <= HDO_RADAU_TREND_HOLD &&
                     room > 1 + 1e-12)
                want = g * room < 1 ? 1 / room : g;
            if (want == 0) {
                cr_expect(f >= 1, "case %d, step %d: %g, not the trend's", c, k,
                          f);
                continue;
            }
            cr_expect(fabs(f / want - 1) < 1e-9, "case %d, step %d: %g for %g",
                      c, k, f, want);
            if (k > 1) {
                room *= want;
                held++;
                clamped += want > g;
            }
        }
        if (c == 0)
            cr_expect(clamped == 1 && held < HDO_RADAU_TREND_HOLD,
                      "the span ends it: held %d, clamped %d", held, clamped);
        if (c == 2)
            cr_expect(clamped == 0 && held == HDO_RADAU_TREND_HOLD,
                      "the hold ends it: held %d, clamped %d", held, clamped);
        mpfr_clears(fac, h, e, tol, er, (mpfr_ptr)0);
        hdo_radau_probe_clear(&p);
    }
    cr_expect_eq(HDO_RADAU_TREND_HOLD, 16);
    cr_expect_eq(HDO_RADAU_TREND_SPAN, 4.0);
}

/* The step-size probe: after 16 accepted steps in a row that kept h, when
   the estimate's exponent seen at the last change of h was below
   (s - 1)/2 (11.5 at 24 stages); never when it followed h^(s-1) or when
   no change of h was seen yet (INFINITY: hdo_radau_probe_blind_due's
   case, tests/step/radau_floor.c). */
Test(step, radau_probe_threshold)
{
    cr_expect(!hdo_radau_probe_due(15, 0.0, 0, 24), "one kept step short");
    cr_expect(hdo_radau_probe_due(16, 0.0, 0, 24));
    cr_expect(hdo_radau_probe_due(16, -1.0, 0, 24), "an estimate that fell");
    cr_expect(hdo_radau_probe_due(16, NEAR(11.5, -1), 0, 24));
    cr_expect(!hdo_radau_probe_due(16, 11.5, 0, 24), "(s - 1)/2 itself");
    cr_expect(!hdo_radau_probe_due(100, 23.0, 0, 24), "the order s - 1");
    cr_expect(!hdo_radau_probe_due(100, INFINITY, 0, 24), "nothing seen");
    cr_expect(hdo_radau_probe_due(16, 21.5, 0, 45), "(45 - 1)/2 = 22");
    cr_expect(!hdo_radau_probe_due(16, 22.0, 0, 45));
    /* a stiff step probes whatever the exponent: h |J_ii| >= 1000 */
    cr_expect(hdo_radau_probe_due(16, 30.0, 1000, 24));
    cr_expect(!hdo_radau_probe_due(16, 30.0, NEAR(1000, -1), 24));
    cr_expect(!hdo_radau_probe_due(15, 30.0, 1e6, 24), "still 16 kept");
}

/* A probe that passed doubles again when its estimate did not grow, or
   when one more growth by the factor the doubling showed stays below
   half the tolerance (grew * used <= 1/2); where the estimate follows
   h^(s-1) (a growth of 2^23 at 24 stages) it ends (decisions.md D-098). */
Test(step, radau_probe_again_threshold)
{
    cr_expect(hdo_radau_probe_again(1.0, 0.9), "no larger: as before");
    cr_expect(hdo_radau_probe_again(0.1, 0.99));
    cr_expect(hdo_radau_probe_again(5.9, 0.5 / 5.9),
              "EMEP at 30 digits: 0.0015 to 0.0087 tol");
    cr_expect(hdo_radau_probe_again(2.0, NEAR(0.25, -1)));
    cr_expect(!hdo_radau_probe_again(2.0, NEAR(0.25, 1)));
    cr_expect(!hdo_radau_probe_again(8388608.0, 1e-3),
              "2^23 from 1.2e-10 tol to 1e-3 tol: the next would be 8e3 tol");
    cr_expect(!hdo_radau_probe_again(8388608.0, 0.05), "2^23: ends");
    cr_expect(!hdo_radau_probe_again(INFINITY, 0.0), "from a zero estimate");
}

/* A fresh probe state, and tol = 1e-30, h = 1e-3 and e = 0.0025 tol
   (a proposed growth of about 1.04 at 24 stages: kept). */
static void
probe_start(hdo_radau_probe *p, mpfr_t fac, mpfr_t h, mpfr_t e, mpfr_t tol)
{
    hdo_radau_probe_init(p);
    hdo_radau_probe_reset(p);
    mpfr_inits2(64, fac, h, e, tol, (mpfr_ptr)0);
    mpfr_set_d(tol, 1e-30, MPFR_RNDN);
    mpfr_set_d(h, 1e-3, MPFR_RNDN);
    mpfr_set_d(e, 2.5e-33, MPFR_RNDN);
}

/* The probe along accepted steps (hdo_radau_probe_accept): 16 kept
   steps on a stiff step, a doubling whose estimate grew by 4 but used
   only 1/100 of the tolerance doubles again; one that grew by 2^23
   returns to the standard proposal. */
Test(step, radau_probe_accept_sequence)
{
    hdo_radau_probe p;
    mpfr_t fac, h, e, tol;
    probe_start(&p, fac, h, e, tol);
    for (int k = 0; k < 16; k++) {
        mpfr_set_d(fac, 1.04, MPFR_RNDN);
        hdo_radau_probe_accept(&p, fac, h, e, tol, 1e6, 24);
    }
    cr_expect(mpfr_cmp_ui(fac, 2) == 0 && p.probing, "the 16th probes");
    mpfr_set_d(h, 2e-3, MPFR_RNDN);
    mpfr_set_d(e, 1e-32, MPFR_RNDN); /* grew by 4, 0.01 tol */
    mpfr_set_d(fac, 0.9, MPFR_RNDN);
    hdo_radau_probe_accept(&p, fac, h, e, tol, 2e6, 24);
    cr_expect(mpfr_cmp_ui(fac, 2) == 0 && p.probing, "doubles again");
    mpfr_set_d(h, 4e-3, MPFR_RNDN);
    mpfr_set_d(e, 1e-40, MPFR_RNDN); /* fell */
    mpfr_set_d(fac, 0.9, MPFR_RNDN);
    hdo_radau_probe_accept(&p, fac, h, e, tol, 4e6, 24);
    cr_expect(mpfr_cmp_ui(fac, 2) == 0, "no larger: doubles again");
    mpfr_set_d(h, 8e-3, MPFR_RNDN);
    mpfr_mul_d(e, e, 8388608.0, MPFR_RNDN); /* grew by 2^23: 8e-4 tol */
    mpfr_set_d(fac, 0.9, MPFR_RNDN);
    hdo_radau_probe_accept(&p, fac, h, e, tol, 8e6, 24);
    cr_expect(mpfr_cmp_d(fac, 0.9) == 0 && !p.probing,
              "grew by 2^23: the proposal of the error rule");
    mpfr_clears(fac, h, e, tol, (mpfr_ptr)0);
    hdo_radau_probe_clear(&p);
}

/* The wait: an estimate that follows h^(s-1) whose last reading was not
   plausible (e ~ h^40 at 24 stages: its change along t) probes after 16
   kept steps; the probe fails (2^23 times the estimate) and h goes back,
   and the next probe waits 32 kept steps; one that passes sets the wait
   back to 16. */
Test(step, radau_probe_blind_wait_sequence)
{
    const long s = 24;
    hdo_radau_probe p;
    mpfr_t fac, h, e, tol;
    probe_start(&p, fac, h, e, tol);
    mpfr_set_d(fac, 1.04, MPFR_RNDN);
    hdo_radau_probe_accept(&p, fac, h, e, tol, 1.0, s);
    mpfr_set_d(h, 1.02e-3, MPFR_RNDN);
    mpfr_set_d(e, 2.5e-33 * pow(1.02, 40), MPFR_RNDN);
    mpfr_set_d(fac, 1.04, MPFR_RNDN);
    hdo_radau_probe_accept(&p, fac, h, e, tol, 1.0, s);
    cr_expect(isnan(p.pobs), "h^40 at 24 stages: %g", p.pobs);
    int n = 2;
    while (!p.probing && n < 100) {
        mpfr_set_d(fac, 1.04, MPFR_RNDN);
        hdo_radau_probe_accept(&p, fac, h, e, tol, 1.0, s);
        n++;
    }
    cr_expect_eq(n, 16, "probes at the 16th kept step");
    cr_expect(mpfr_cmp_ui(fac, 2) == 0);
    mpfr_mul_2ui(h, h, 1, MPFR_RNDN);
    mpfr_mul_d(e, e, 8388608.0, MPFR_RNDN); /* 2^23: fails */
    hdo_radau_probe_rejected(&p, e, h);
    cr_expect(hdo_radau_probe_back(&p, h), "back to the kept h");
    cr_expect(mpfr_cmp_d(h, 1.02e-3) == 0);
    cr_expect_eq(p.wait, 32);
    mpfr_div_d(e, e, 8388608.0, MPFR_RNDN);
    n = 0;
    while (!p.probing && n < 100) {
        mpfr_set_d(fac, 1.04, MPFR_RNDN);
        hdo_radau_probe_accept(&p, fac, h, e, tol, 1.0, s);
        n++;
    }
    cr_expect_eq(n, 32, "the next probe after 32 kept steps");
    /* this one passes with an estimate no larger: the wait is 16 again */
    mpfr_mul_2ui(h, h, 1, MPFR_RNDN);
    mpfr_set_d(fac, 1.04, MPFR_RNDN);
    hdo_radau_probe_accept(&p, fac, h, e, tol, 1.0, s);
    cr_expect_eq(p.wait, 16);
    cr_expect(mpfr_cmp_ui(fac, 2) == 0 && p.probing, "doubles again");
    mpfr_clears(fac, h, e, tol, (mpfr_ptr)0);
    hdo_radau_probe_clear(&p);
}

/* A step rejected twice in a row whose estimate fell less than in
   proportion to h (e ~ h^p, p < 1) shrinks by the most (0.1): EMEP at
   40 digits kept 1.16 tol from h = 0.29 s to 7e-6 s (decisions.md
   D-103); an estimate that follows h^(s-1) is not stalled. */
Test(step, radau_reject_stalled)
{
    double shrink = 1 / 0.84; /* one standard rejection */
    cr_expect(hdo_radau_reject_stalled(1.0, shrink), "EMEP: the same e");
    cr_expect(hdo_radau_reject_stalled(0.5, shrink), "e grew");
    cr_expect(hdo_radau_reject_stalled(NEAR(shrink, -1), shrink), "p < 1");
    cr_expect(!hdo_radau_reject_stalled(shrink, shrink), "p = 1 itself");
    cr_expect(!hdo_radau_reject_stalled(pow(shrink, 30), shrink),
              "e ~ h^30 at 31 stages");
    cr_expect(!hdo_radau_reject_stalled(1.0, 1.0), "h did not shrink");
    cr_expect(!hdo_radau_reject_stalled(0.5, 0.5), "h grew");
    cr_expect_eq(HDO_RADAU_REJECT_MIN, 0.1);
}

/* The rejections of one step (hdo_radau_reject_note,
   hdo_radau_reject_factor): the first has nothing to compare; EMEP's
   second, the same estimate at 0.84 h, stalls and shrinks by 0.1; a
   third whose estimate fell as h^30 shrinks by the proposal. */
Test(step, radau_reject_sequence)
{
    mpfr_t erej, hrej, e, h, tol, fac;
    mpfr_inits2(64, erej, hrej, e, h, tol, fac, (mpfr_ptr)0);
    mpfr_set_zero(erej, 1);
    mpfr_set_d(tol, 7e-46, MPFR_RNDN);
    mpfr_set_d(e, 1.157 * 7e-46, MPFR_RNDN);
    mpfr_set_d(h, 0.286, MPFR_RNDN);
    cr_expect(!hdo_radau_reject_note(erej, hrej, e, h), "the first");
    hdo_radau_reject_factor(fac, tol, e, 31, 0);
    double std = hdo_radau_step_safety(31) * pow(1 / 1.157, 1.0 / 30);
    cr_expect(fabs(mpfr_get_d(fac, MPFR_RNDN) / std - 1) < 1e-12,
              "the proposal: %g", mpfr_get_d(fac, MPFR_RNDN));
    mpfr_mul(h, h, fac, MPFR_RNDN);
    cr_expect(hdo_radau_reject_note(erej, hrej, e, h), "the same e stalls");
    hdo_radau_reject_factor(fac, tol, e, 31, 1);
    cr_expect(mpfr_cmp_d(fac, 0.1) == 0);
    mpfr_mul(h, h, fac, MPFR_RNDN);
    mpfr_mul_d(e, e, 1e-30, MPFR_RNDN); /* 0.1^30 */
    cr_expect(!hdo_radau_reject_note(erej, hrej, e, h), "fell as h^30");
    mpfr_clears(erej, hrej, e, h, tol, fac, (mpfr_ptr)0);
}

/* An estimate that is NaN or infinite shrinks h by the smallest factor,
   as a stalled one: never a NaN step (decisions.md D-126). */
Test(step, radau_reject_factor_not_finite)
{
    mpfr_t tol, e, fac;
    mpfr_inits2(64, tol, e, fac, (mpfr_ptr)0);
    mpfr_set_d(tol, 8.5e-22, MPFR_RNDN);
    mpfr_set_nan(e);
    hdo_radau_reject_factor(fac, tol, e, 17, 0);
    cr_expect(mpfr_cmp_d(fac, HDO_RADAU_REJECT_MIN) == 0, "NaN");
    mpfr_set_inf(e, 1);
    hdo_radau_reject_factor(fac, tol, e, 17, 0);
    cr_expect(mpfr_cmp_d(fac, HDO_RADAU_REJECT_MIN) == 0, "inf");
    mpfr_clears(tol, e, fac, (mpfr_ptr)0);
}

/* The tries a step starting at hfirst takes to fall to hok when every
   rejection shrinks it by fac, with the streak rule or without. */
static int
tries_to(double hfirst, double hok, double fac, int streak)
{
    mpfr_t h, hrej, h0;
    mpfr_inits2(64, h, hrej, h0, (mpfr_ptr)0);
    mpfr_set_d(h0, hfirst, MPFR_RNDN);
    mpfr_set(h, h0, MPFR_RNDN);
    int k = 0;
    while (mpfr_cmp_d(h, hok) > 0 && k < 1000) {
        mpfr_set(hrej, h, MPFR_RNDN);
        mpfr_mul_d(h, h, fac, MPFR_RNDN);
        ++k;
        if (streak)
            hdo_radau_reject_streak(h, hrej, h0, k);
    }
    mpfr_clears(h, hrej, h0, (mpfr_ptr)0);
    return k;
}

/* slack_radau at 16 digits (decisions.md D-126): the first step 3.44e180
   failed Newton down to h ~ 1e110, each failure shrinking it by 4; the
   60 rejections of a collapse ended at 2.6e144.  With the streak rule
   the step falls by 1e180 in 15 tries, and by 1e144 at the smallest
   estimate factor 0.1 in 13; seven rejections in a row are untouched. */
Test(step, radau_reject_streak_sequence)
{
    cr_expect(tries_to(3.44e180, 1, 0.25, 0) > 60, "4^60 = 1.3e36 only");
    int k = tries_to(3.44e180, 1, 0.25, 1);
    cr_expect(k <= 15, "%d tries", k);
    k = tries_to(1e144, 1, HDO_RADAU_REJECT_MIN, 1);
    cr_expect(k <= 13, "%d tries", k);
    cr_expect(tries_to(1, 0.25 * 0.25 * 0.25 * 0.25 * 0.25 * 0.25 * 0.25, 0.25,
                       1) == 7);
    mpfr_t h, hrej, h0;
    mpfr_inits2(64, h, hrej, h0, (mpfr_ptr)0);
    mpfr_set_ui(h0, 1, MPFR_RNDN);
    mpfr_set_d(hrej, 1e-3, MPFR_RNDN);
    mpfr_set_d(h, 2.5e-4, MPFR_RNDN);
    hdo_radau_reject_streak(h, hrej, h0, HDO_RADAU_REJECT_STREAK - 1);
    cr_expect(mpfr_cmp_d(h, 2.5e-4) == 0, "silent below the streak");
    hdo_radau_reject_streak(h, hrej, h0, HDO_RADAU_REJECT_STREAK);
    cr_expect(fabs(mpfr_get_d(h, MPFR_RNDN) / 1e-6 - 1) < 1e-15,
              "hrej^2 / hfirst: %g", mpfr_get_d(h, MPFR_RNDN));
    mpfr_set_d(h, 1e-9, MPFR_RNDN);
    hdo_radau_reject_streak(h, hrej, h0, HDO_RADAU_REJECT_STREAK);
    cr_expect(mpfr_cmp_d(h, 1e-9) == 0, "a smaller proposal stays");
    mpfr_clears(h, hrej, h0, (mpfr_ptr)0);
}

/* The step is at most the run's span 2^lspan; none when unknown. */
Test(step, radau_span_cap)
{
    mpfr_t h;
    mpfr_init2(h, 64);
    mpfr_set_d(h, 3.44e180, MPFR_RNDN);
    hdo_radau_span_cap(h, -INFINITY);
    cr_expect(mpfr_cmp_d(h, 3.44e180) == 0, "unknown span");
    hdo_radau_span_cap(h, 0.0);
    cr_expect(mpfr_cmp_ui(h, 1) == 0, "span 1: %g", mpfr_get_d(h, MPFR_RNDN));
    mpfr_set_d(h, 3.44e120, MPFR_RNDN);
    hdo_radau_span_cap(h, log2(1e-60));
    cr_expect(fabs(mpfr_get_d(h, MPFR_RNDN) / 1e-60 - 1) < 1e-14,
              "span 1e-60: %g", mpfr_get_d(h, MPFR_RNDN));
    mpfr_set_d(h, 0.5, MPFR_RNDN);
    hdo_radau_span_cap(h, 0.0);
    cr_expect(mpfr_cmp_d(h, 0.5) == 0, "within the span");
    mpfr_clear(h);
}
