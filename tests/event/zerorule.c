/* zerorule.c -- the zero rule with a value's own error (decisions.md
 * D-112): S(0) is zero only within vfloor, and a dip narrower than w_min
 * is ignored only within the guard's error */
#include <criterion/criterion.h>
#include <flint/ulong_extras.h>
#include "event.h"

#define PREC 133 /* 30 digits + guard, as hdo -d 30 */

/* 1e-30 - s + k s^2 (k a decimal string) */
static void
guard(mpfr_ptr c, const char *k)
{
    for (int i = 0; i < 3; i++)
        mpfr_init2(c + i, PREC);
    mpfr_set_str(c + 0, "1e-30", 10, MPFR_RNDN);
    mpfr_set_si(c + 1, -1, MPFR_RNDN);
    mpfr_set_str(c + 2, k, 10, MPFR_RNDN);
}

/* the smaller root (1 - sqrt(1 - 4 c0 k)) / (2 k) of the rounded
   coefficients, at 400 bits (the quadratic formula, not the code under
   test; k = 0: c0) */
static void
smaller_root(mpfr_t r, mpfr_srcptr c)
{
    mpfr_t d;
    mpfr_init2(d, 400);
    if (mpfr_zero_p(c + 2)) {
        mpfr_set(r, c + 0, MPFR_RNDN);
    } else {
        mpfr_mul(d, c + 0, c + 2, MPFR_RNDN);
        mpfr_mul_2ui(d, d, 2, MPFR_RNDN);
        mpfr_ui_sub(d, 1, d, MPFR_RNDN);
        mpfr_sqrt(d, d, MPFR_RNDN);
        mpfr_ui_sub(d, 1, d, MPFR_RNDN);
        mpfr_div(d, d, c + 2, MPFR_RNDN);
        mpfr_div_2ui(r, d, 1, MPFR_RNDN);
    }
    mpfr_clear(d);
}

static void
set3(mpfr_t H, mpfr_t tol, mpfr_t zero)
{
    mpfr_inits2(64, H, tol, zero, (mpfr_ptr)0);
    mpfr_set_str(H, "2.7", 10, MPFR_RNDN);
    mpfr_set_str(tol, "1e-35", 10, MPFR_RNDN);
    mpfr_set_zero(zero, 1);
}

Test(event_zerorule, a_value_is_zero_only_within_its_own_error)
{
    mpfr_t c[3], H, tol, zero, vf;
    guard((mpfr_ptr)c, "1e20");
    set3(H, tol, zero);
    mpfr_init2(vf, 64);
    /* D-016's rule: 1e-30 is below tol 1e20 2.7^2 = 7e-15, so a zero,
       and c_1 = -1 decides */
    cr_assert_eq(hdo_event_zero_order((mpfr_srcptr)c, 3, H, tol, zero), 1);
    /* its own error 0 (x = 0 exactly) or 1e-31: not a zero */
    cr_assert_eq(hdo_event_zero_order_at((mpfr_srcptr)c, 3, H, tol, zero, zero),
                 0);
    mpfr_set_str(vf, "1e-31", 10, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order_at((mpfr_srcptr)c, 3, H, tol, zero, vf),
                 0);
    /* an error of 2e-30: a zero, and the later coefficients as before */
    mpfr_set_str(vf, "2e-30", 10, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order_at((mpfr_srcptr)c, 3, H, tol, zero, vf),
                 1);
    for (int i = 0; i < 3; i++)
        mpfr_clear(c[i]);
    mpfr_clears(H, tol, zero, vf, (mpfr_ptr)0);
}

Test(event_zerorule, the_event_at_its_own_time_not_at_zero)
{
    /* k = 0, 1e20 (a dip 2.5e-21 deep on [1e-30, 1e-20], narrower than
       w_min = 2.7 sqrt(1e-35) / 4 = 2e-18), -1e25, 1e28 (the dip on
       [1e-30, 1e-28]): the event at the smaller root, to 2^(4-prec) of
       itself; D-016's rule put it at 0 */
    const char *ks[] = {"0", "1e20", "-1e25", "1e28"};
    for (int i = 0; i < 4; i++) {
        mpfr_t c[3], H, tol, zero, root, e, d;
        guard((mpfr_ptr)c, ks[i]);
        set3(H, tol, zero);
        mpfr_init2(root, PREC);
        mpfr_inits2(400, e, d, (mpfr_ptr)0);
        cr_assert_eq(hdo_event_locate_after(root, (mpfr_srcptr)c, 3, H, tol,
                                            zero, zero, NULL, -1, PREC),
                     HDO_EVENT, "k = %s", ks[i]);
        smaller_root(e, (mpfr_srcptr)c);
        mpfr_sub(d, root, e, MPFR_RNDN);
        mpfr_div(d, d, e, MPFR_RNDN);
        cr_assert(mpfr_cmpabs_ui(d, 0) == 0 || mpfr_get_exp(d) <= 4 - PREC,
                  "k = %s: relative error %g", ks[i], mpfr_get_d(d, MPFR_RNDN));
        if (i > 0) {
            /* the rule of D-016 (vfloor NULL): at 0 */
            cr_assert_eq(hdo_event_locate_after(root, (mpfr_srcptr)c, 3, H, tol,
                                                zero, NULL, NULL, -1, PREC),
                         HDO_EVENT);
            cr_assert(mpfr_zero_p(root), "k = %s", ks[i]);
        }
        for (int j = 0; j < 3; j++)
            mpfr_clear(c[j]);
        mpfr_clears(H, tol, zero, root, e, d, (mpfr_ptr)0);
    }
}

/* (s - s0)^2 - d: c = {s0^2 - d, -2 s0, 1} at PREC, from decimals */
static void
dip(mpfr_ptr c, const char *s0, const char *d)
{
    mpfr_t a, b;
    mpfr_inits2(400, a, b, (mpfr_ptr)0);
    for (int i = 0; i < 3; i++)
        mpfr_init2(c + i, PREC);
    mpfr_set_str(a, s0, 10, MPFR_RNDN);
    mpfr_set_str(b, d, 10, MPFR_RNDN);
    mpfr_mul_si(c + 1, a, -2, MPFR_RNDN);
    mpfr_sqr(a, a, MPFR_RNDN);
    mpfr_sub(c + 0, a, b, MPFR_RNDN);
    mpfr_set_ui(c + 2, 1, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

Test(event_zerorule, a_dip_by_its_own_scale)
{
    /* (s - 0.5)^2 - 1e-40: two roots 2e-20 apart, narrower than w_min
       = 2e-18, 1e-40 deep, within tol = 1e-35 times S's size 0.25 on
       [0, 0.5]: a tangency, no event (as by D-016's rule).
       (s - 1e-20)^2 - 1e-44: roots 2e-22 apart at 1e-20, 1e-44 deep,
       S's size on [0, 1e-20] is 1e-40: 1e-4 of it, an event at
       1e-20 - 1e-22 (D-016's rule: S(0) = 1e-40 a zero, c_1 < 0, at 0) */
    mpfr_t c[3], H, tol, zero, root, e;
    set3(H, tol, zero);
    mpfr_init2(root, PREC);
    mpfr_init2(e, 400);
    dip((mpfr_ptr)c, "0.5", "1e-40");
    cr_assert_eq(hdo_event_locate_after(root, (mpfr_srcptr)c, 3, H, tol, zero,
                                        zero, NULL, -1, PREC),
                 0);
    for (int i = 0; i < 3; i++)
        mpfr_clear(c[i]);
    dip((mpfr_ptr)c, "1e-20", "1e-44");
    cr_assert_eq(hdo_event_locate_after(root, (mpfr_srcptr)c, 3, H, tol, zero,
                                        zero, NULL, -1, PREC),
                 HDO_EVENT);
    mpfr_set_str(e, "0.99e-20", 10, MPFR_RNDN);
    mpfr_sub(e, root, e, MPFR_RNDN);
    mpfr_div(e, e, root, MPFR_RNDN);
    cr_assert(mpfr_zero_p(e) || mpfr_get_exp(e) <= -100, "%g",
              mpfr_get_d(root, MPFR_RNDN));
    cr_assert_eq(hdo_event_locate_after(root, (mpfr_srcptr)c, 3, H, tol, zero,
                                        NULL, NULL, -1, PREC),
                 HDO_EVENT);
    cr_assert(mpfr_zero_p(root));
    for (int i = 0; i < 3; i++)
        mpfr_clear(c[i]);
    mpfr_clears(H, tol, zero, root, e, (mpfr_ptr)0);
}

/* The zero order the caller passes (hdo_run's step asks
   hdo_event_zero_order first, D-116): taken for D-016's rule only.  For
   1e-30 - s + k s^2 that order is 1 (S(0) a zero); with vfloor the
   event is at 1e-30, and a locate that took the order passed with a
   vfloor would put it at 0.  Without vfloor the order passed gives what
   the locate computes itself, at random series and horizons. */
Test(event_zerorule, known_order_only_without_vfloor)
{
    mpfr_t c[3], H, tol, zero, r1, r2;
    guard((mpfr_ptr)c, "1e20");
    set3(H, tol, zero);
    mpfr_inits2(PREC, r1, r2, (mpfr_ptr)0);
    slong z = hdo_event_zero_order((mpfr_srcptr)c, 3, H, tol, zero);
    cr_assert_eq(z, 1);
    cr_assert_eq(hdo_event_locate_after(r1, (mpfr_srcptr)c, 3, H, tol, zero,
                                        zero, NULL, z, PREC),
                 HDO_EVENT);
    cr_assert(mpfr_regular_p(r1), "the event at %g", mpfr_get_d(r1, MPFR_RNDN));
    cr_assert_eq(hdo_event_locate_after(r2, (mpfr_srcptr)c, 3, H, tol, zero,
                                        NULL, NULL, z, PREC),
                 HDO_EVENT);
    cr_assert(mpfr_zero_p(r2));
    for (int i = 0; i < 3; i++)
        mpfr_clear(c[i]);
    /* random cubics a0 + a1 s + a2 s^2 + a3 s^3, some a0 within the rule */
    enum { N = 4 };
    mpfr_t d[N];
    for (int i = 0; i < N; i++)
        mpfr_init2(d[i], PREC);
    flint_rand_t rs;
    flint_randinit(rs);
    int events = 0, zeros = 0;
    for (int trial = 0; trial < 400; trial++) {
        for (int i = 0; i < N; i++) {
            mpfr_set_si(d[i], (long)n_randint(rs, 2001) - 1000, MPFR_RNDN);
            mpfr_div_ui(d[i], d[i], 7 + n_randint(rs, 90), MPFR_RNDN);
        }
        if (n_randint(rs, 3) == 0) /* S(0) at the rule's tolerance */
            mpfr_mul_2si(d[0], d[0], -100 - (long)n_randint(rs, 40), MPFR_RNDN);
        mpfr_set_ui(H, 1 + n_randint(rs, 5), MPFR_RNDN);
        slong o = hdo_event_zero_order((mpfr_srcptr)d, N, H, tol, zero);
        int s1 = hdo_event_locate_after(r1, (mpfr_srcptr)d, N, H, tol, zero,
                                        NULL, NULL, o, PREC);
        int s2 = hdo_event_locate_after(r2, (mpfr_srcptr)d, N, H, tol, zero,
                                        NULL, NULL, -1, PREC);
        cr_assert_eq(s1, s2, "trial %d", trial);
        if (s1 == HDO_EVENT) {
            cr_assert(mpfr_equal_p(r1, r2) &&
                          mpfr_signbit(r1) == mpfr_signbit(r2),
                      "trial %d", trial);
            events++;
        }
        zeros += o > 0;
    }
    cr_expect(events > 50 && zeros > 30, "%d %d", events, zeros);
    flint_randclear(rs);
    for (int i = 0; i < N; i++)
        mpfr_clear(d[i]);
    mpfr_clears(H, tol, zero, r1, r2, (mpfr_ptr)0);
}

/* S'(0) a value known to its own error (D-130): the series after the
   crossing of 1e-30 - y + 1e28 y^2 at 1.01e-30, at 16 digits (tol
   1e-21, a step of 1): S's size over the step is 1e28, so D-016's rule
   takes S'(0) = 0.98 for a zero and S'' < 0 says infeasible at once;
   with S'(0) known to 1e-20 it is no zero and the next crossing is the
   larger root, 9.8e-29 on.  Within its own error D-016's rule decides. */
Test(event_zerorule, a_slope_beyond_its_own_error_is_no_zero)
{
    mpfr_t c[3], H, tol, zero, vf, sf, root, e;
    for (int i = 0; i < 3; i++)
        mpfr_init2(c[i], PREC);
    mpfr_set_str(c[0], "4.381e-57", 10, MPFR_RNDN);
    mpfr_set_str(c[1], "0.9798", 10, MPFR_RNDN);
    mpfr_set_str(c[2], "-1e28", 10, MPFR_RNDN);
    mpfr_inits2(64, H, tol, zero, vf, sf, (mpfr_ptr)0);
    mpfr_inits2(PREC, root, e, (mpfr_ptr)0);
    mpfr_set_ui(H, 1, MPFR_RNDN);
    mpfr_set_str(tol, "1e-21", 10, MPFR_RNDN);
    mpfr_set_zero(zero, 1);
    mpfr_set_str(vf, "2e-51", 10, MPFR_RNDN);
    mpfr_set_str(sf, "1e-20", 10, MPFR_RNDN);
    mpfr_srcptr cs = (mpfr_srcptr)c;
    cr_assert_eq(hdo_event_zero_order_at(cs, 3, H, tol, zero, vf), 2);
    cr_assert_eq(hdo_event_zero_order_own(cs, 3, H, tol, zero, vf, sf), 1);
    cr_assert_eq(hdo_event_zero_order_own(cs, 3, H, tol, zero, vf, NULL), 2);
    cr_assert_eq(
        hdo_event_locate_after(root, cs, 3, H, tol, zero, vf, NULL, -1, PREC),
        HDO_EVENT);
    cr_assert(mpfr_zero_p(root), "D-016's rule: infeasible at once");
    hdo_event_own_errors own = {vf, sf, NULL, NULL};
    cr_assert_eq(hdo_event_locate_after_own(root, cs, 3, H, tol, zero, &own,
                                            NULL, -1, PREC),
                 HDO_EVENT);
    /* the larger root of c0 + c1 s + c2 s^2 (c2 < 0), at 400 bits */
    mpfr_t d;
    mpfr_init2(d, 400);
    mpfr_mul(d, c[0], c[2], MPFR_RNDN);
    mpfr_mul_si(d, d, -4, MPFR_RNDN);
    mpfr_fma(d, c[1], c[1], d, MPFR_RNDN);
    mpfr_sqrt(d, d, MPFR_RNDN);
    mpfr_add(d, d, c[1], MPFR_RNDN);
    mpfr_div(d, d, c[2], MPFR_RNDN);
    mpfr_div_si(e, d, -2, MPFR_RNDN);
    mpfr_clear(d);
    mpfr_sub(e, root, e, MPFR_RNDN);
    mpfr_div(e, e, root, MPFR_RNDN);
    cr_assert(mpfr_get_d(root, MPFR_RNDN) > 9.7e-29 &&
                  mpfr_get_d(root, MPFR_RNDN) < 9.9e-29,
              "the crossing at %g", mpfr_get_d(root, MPFR_RNDN));
    cr_assert(mpfr_get_exp(e) < -90, "relative error 2^%ld",
              (long)mpfr_get_exp(e));
    /* S'(0) within its own error: D-016's rule, infeasible at once */
    mpfr_set_ui(sf, 1, MPFR_RNDN);
    cr_assert_eq(hdo_event_zero_order_own(cs, 3, H, tol, zero, vf, sf), 2);
    for (int i = 0; i < 3; i++)
        mpfr_clear(c[i]);
    mpfr_clears(H, tol, zero, vf, sf, (mpfr_ptr)0);
    mpfr_clears(root, e, (mpfr_ptr)0);
}

/* the floor over [0, b] a test hands the search: its ctx, a fixed value */
static int
fixed_floor(mpfr_t floor, const mpfr_t b, void *ctx)
{
    (void)b;
    mpfr_set_str(floor, (const char *)ctx, 10, MPFR_RNDU);
    return 1;
}

/* The floor's drift over a dip (D-131): 1e-60 - s + 1e58 s^2 over a step
   of 1 at 16 digits (tol 1e-21) with the step's floor 1e16 (the inputs'
   drift over the whole step through S's curvature): drawn as a line to
   b = 1e-58 it is 1e-42, above the dip's depth 2.4e-59, and the dip is
   ignored; the floor over [0, b] itself, 1e-79, shows it: the crossing
   at 1.0102e-60.  A floor over b as large as the line's (1e-30 at every
   b the search tries) still hides it. */
Test(event_zerorule, a_dip_beyond_the_drift_over_itself_is_an_event)
{
    mpfr_t c[3], H, tol, floor, vf, root;
    for (int i = 0; i < 3; i++)
        mpfr_init2(c[i], PREC);
    mpfr_set_str(c[0], "1e-60", 10, MPFR_RNDN);
    mpfr_set_si(c[1], -1, MPFR_RNDN);
    mpfr_set_str(c[2], "1e58", 10, MPFR_RNDN);
    mpfr_inits2(64, H, tol, floor, vf, (mpfr_ptr)0);
    mpfr_init2(root, PREC);
    mpfr_set_ui(H, 1, MPFR_RNDN);
    mpfr_set_str(tol, "1e-21", 10, MPFR_RNDN);
    mpfr_set_str(floor, "1e16", 10, MPFR_RNDN);
    mpfr_set_str(vf, "3e-88", 10, MPFR_RNDN);
    mpfr_srcptr cs = (mpfr_srcptr)c;
    cr_assert_eq(
        hdo_event_locate_after(root, cs, 3, H, tol, floor, vf, NULL, -1, PREC),
        0, "the line's drift hides the dip");
    char small[] = "1e-79", large[] = "1e-30";
    hdo_event_own_errors own = {vf, NULL, fixed_floor, small};
    cr_assert_eq(hdo_event_locate_after_own(root, cs, 3, H, tol, floor, &own,
                                            NULL, -1, PREC),
                 HDO_EVENT);
    double r = mpfr_get_d(root, MPFR_RNDN);
    cr_assert(r > 1.0102e-60 && r < 1.0103e-60, "the crossing at %g", r);
    own.ctx = large;
    cr_assert_eq(hdo_event_locate_after_own(root, cs, 3, H, tol, floor, &own,
                                            NULL, -1, PREC),
                 0, "a drift over the dip as large as the line's hides it");
    for (int i = 0; i < 3; i++)
        mpfr_clear(c[i]);
    mpfr_clears(H, tol, floor, vf, root, (mpfr_ptr)0);
}
