/* radau_control.c -- Radau IIA's cost thresholds: when to refactor the
 * Newton matrix, when to keep the step size, when to probe twice it */
#include <math.h>
#include "radau_control.h"

int
hdo_radau_refactor(double theta, int full, int fresh)
{
    if (theta > HDO_RADAU_NEWTON_REFACTOR)
        /* slow: the matrix again at this iterate; the full one when the
           blocks' one Jacobian was fresh and still slow (the stages'
           Jacobians differ too much) */
        return full == 1 || fresh ? 2 : 1;
    if (full == 2)
        return !fresh && theta > HDO_RADAU_STAGED_REFACTOR;
    if (!full && !fresh && theta > HDO_RADAU_BLOCK_REFACTOR)
        return 1;
    return 0;
}

int
hdo_radau_stage_lu_due(long n, long s, mpfr_prec_t prec)
{
    long limbs = ((long)prec + 63) / 64;
    return n * s <= HDO_RADAU_STAGE_LU_MAX &&
           n * n * s <= HDO_RADAU_STAGE_LU_K * limbs;
}

int
hdo_radau_newton_limit(mpfr_prec_t prec)
{
    /* D as hdo_radau_stages reads it */
    long d = (long)((double)prec / 3.3219280948873623) - 10;
    return d <= 30 ? HDO_RADAU_NEWTON_MAX
                   : (int)((HDO_RADAU_NEWTON_MAX * (d + 5) + 34) / 35);
}

int
hdo_radau_keep_step(double fac, long s)
{
    double keep =
        s <= HDO_RADAU_SAFETY_STAGES
            ? HDO_RADAU_STEP_KEEP
            : pow(HDO_RADAU_STEP_KEEP,
                  (double)(HDO_RADAU_SAFETY_STAGES - 1) / (double)(s - 1));
    return fac >= 1 && fac < keep;
}

double
hdo_radau_step_safety(long s)
{
    return s <= HDO_RADAU_SAFETY_STAGES
               ? 0.8
               : pow(0.8,
                     (double)(HDO_RADAU_SAFETY_STAGES - 1) / (double)(s - 1));
}

int
hdo_radau_reject_stalled(double efell, double hfell)
{
    return hfell > 1 && !(efell >= hfell);
}

int
hdo_radau_reject_note(mpfr_t erej, mpfr_t hrej, const mpfr_t e, const mpfr_t h)
{
    int stalled = 0;
    if (!mpfr_zero_p(erej)) {
        mpfr_t q;
        mpfr_init2(q, 64);
        mpfr_div(q, erej, e, MPFR_RNDN);
        double efell = mpfr_get_d(q, MPFR_RNDN);
        mpfr_div(q, hrej, h, MPFR_RNDN);
        stalled = hdo_radau_reject_stalled(efell, mpfr_get_d(q, MPFR_RNDN));
        mpfr_clear(q);
    }
    mpfr_set(erej, e, MPFR_RNDN);
    mpfr_set(hrej, h, MPFR_RNDN);
    return stalled;
}

void
hdo_radau_reject_factor(mpfr_t fac, const mpfr_t tol, const mpfr_t e, long s,
                        int stalled)
{
    mpfr_div(fac, tol, e, MPFR_RNDN);
    mpfr_rootn_ui(fac, fac, (unsigned long)(s - 1), MPFR_RNDN);
    mpfr_mul_d(fac, fac, hdo_radau_step_safety(s), MPFR_RNDN);
    if (stalled || mpfr_nan_p(fac) || mpfr_cmp_d(fac, HDO_RADAU_REJECT_MIN) < 0)
        mpfr_set_d(fac, HDO_RADAU_REJECT_MIN, MPFR_RNDN);
}

void
hdo_radau_reject_streak(mpfr_t h, const mpfr_t hrej, const mpfr_t hfirst, int k)
{
    if (k < HDO_RADAU_REJECT_STREAK)
        return;
    mpfr_t b;
    mpfr_init2(b, mpfr_get_prec(h));
    mpfr_div(b, hrej, hfirst, MPFR_RNDN);
    mpfr_mul(b, b, hrej, MPFR_RNDN);
    if (mpfr_cmp(h, b) > 0)
        mpfr_set(h, b, MPFR_RNDN);
    mpfr_clear(b);
}

void
hdo_radau_span_cap(mpfr_t h, double lspan)
{
    if (!isfinite(lspan))
        return;
    mpfr_t b;
    mpfr_init2(b, 64);
    mpfr_set_d(b, lspan, MPFR_RNDN);
    mpfr_exp2(b, b, MPFR_RNDN);
    if (mpfr_cmp(h, b) > 0)
        mpfr_set(h, b, MPFR_RNDN);
    mpfr_clear(b);
}

int
hdo_radau_probe_due(long kept, double p, double hlam, long s)
{
    return kept >= HDO_RADAU_PROBE_AFTER &&
           (p < 0.5 * (double)(s - 1) || hlam >= HDO_RADAU_PROBE_STIFF);
}

int
hdo_radau_order_plausible(double p, long s)
{
    return p <= (double)(s + HDO_RADAU_ORDER_ABOVE);
}

int
hdo_radau_probe_blind_due(long kept, double p, double hlam, long wait)
{
    return !isfinite(p) && hlam < HDO_RADAU_PROBE_STIFF && kept >= wait &&
           kept >= HDO_RADAU_PROBE_AFTER;
}

void
hdo_radau_accept_factor(mpfr_t fac, const mpfr_t tol, const mpfr_t e, long s)
{
    if (mpfr_zero_p(e)) {
        mpfr_set_ui(fac, 4, MPFR_RNDN);
        return;
    }
    mpfr_div(fac, tol, e, MPFR_RNDN);
    mpfr_rootn_ui(fac, fac, (unsigned long)(s - 1), MPFR_RNDN);
    mpfr_mul_d(fac, fac, hdo_radau_step_safety(s), MPFR_RNDN);
    if (mpfr_cmp_ui(fac, 4) > 0)
        mpfr_set_ui(fac, 4, MPFR_RNDN);
}

void
hdo_radau_probe_init(hdo_radau_probe *p)
{
    mpfr_inits2(64, p->eprobe, p->hlast, p->elast, p->hrej, p->erej,
                (mpfr_ptr)0);
    mpfr_set_zero(p->erej, 1);
    p->pobs = INFINITY;
    p->kept = 0;
    p->probing = 0;
    p->wait = HDO_RADAU_PROBE_AFTER;
    p->blind = 0;
    p->steep = 0;
    p->room = 1;
}

void
hdo_radau_probe_clear(hdo_radau_probe *p)
{
    mpfr_clears(p->eprobe, p->hlast, p->elast, p->hrej, p->erej, (mpfr_ptr)0);
}

void
hdo_radau_probe_reset(hdo_radau_probe *p)
{
    p->kept = 0;
    p->probing = 0;
    p->pobs = INFINITY;
    p->wait = HDO_RADAU_PROBE_AFTER;
    p->blind = 0;
    p->steep = 0;
    p->room = 1;
    mpfr_set_zero(p->hlast, 1);
    mpfr_set_zero(p->erej, 1);
}

/* p->pobs := log(e / elast) / log(h / hlast) when h moved by more than 1%
   since the last accepted step (the exponent the estimate showed; NaN
   when no estimate of s stages has it: hdo_radau_order_plausible), then
   (hlast, elast) := (h, e); a zero estimate tells nothing. */
static void
observe_order(hdo_radau_probe *p, const mpfr_t h, const mpfr_t e, long s)
{
    if (mpfr_zero_p(e))
        return;
    if (!mpfr_zero_p(p->hlast) && !mpfr_zero_p(p->elast)) {
        mpfr_t q;
        mpfr_init2(q, 64);
        mpfr_div(q, h, p->hlast, MPFR_RNDN);
        mpfr_log(q, q, MPFR_RNDN);
        double lh = mpfr_get_d(q, MPFR_RNDN);
        if (fabs(lh) > 0.01) {
            mpfr_div(q, e, p->elast, MPFR_RNDN);
            mpfr_log(q, q, MPFR_RNDN);
            p->pobs = mpfr_get_d(q, MPFR_RNDN) / lh;
            if (!hdo_radau_order_plausible(p->pobs, s))
                p->pobs = NAN;
        }
        mpfr_clear(q);
    }
    mpfr_set(p->hlast, h, MPFR_RNDN);
    mpfr_set(p->elast, e, MPFR_RNDN);
}

int
hdo_radau_probe_again(double grew, double used)
{
    return grew <= 1 || grew * used <= HDO_RADAU_PROBE_AIM;
}

double
hdo_radau_trend_factor(double hratio, double used, double usedlast, long s)
{
    if (usedlast < HDO_RADAU_TREND_FLOOR)
        usedlast = HDO_RADAU_TREND_FLOOR;
    return hdo_radau_step_safety(s) * hratio *
           pow(usedlast / (used * used), 1.0 / (double)(s - 1));
}

int
hdo_radau_trend_rejects(double hratio, double used, double usedlast, double fac,
                        long s)
{
    if (usedlast < HDO_RADAU_TREND_FLOOR)
        usedlast = HDO_RADAU_TREND_FLOOR;
    double fail = s > HDO_RADAU_SAFETY_STAGES ? HDO_RADAU_TREND_FAIL : 1;
    return used * used / usedlast * pow(fac / hratio, (double)(s - 1)) > fail;
}

/* fac := the trend's factor when the trend predicts that the step fac
   proposes (1 when it keeps h) fails, from the last accepted step
   (p->hlast, p->elast; none after a reset). */
void
hdo_radau_probe_rejected(hdo_radau_probe *p, const mpfr_t e, const mpfr_t h)
{
    mpfr_set(p->erej, e, MPFR_RNDN);
    mpfr_set(p->hrej, h, MPFR_RNDN);
}

/* Whether the trend may act on this accepted step: a rejection just
   before it whose estimate fell at least as h^((s-1)/2) lets it act
   here (returns 1, D-105), and gives it the next HDO_RADAU_TREND_HOLD
   accepted steps (p->steep) to shrink h by at most
   HDO_RADAU_TREND_SPAN together (p->room; returns 2); a rejection that
   fell slower ends it (0). */
static int
trend_evidence(hdo_radau_probe *p, const mpfr_t h, const mpfr_t e, long s)
{
    if (mpfr_zero_p(p->erej) || mpfr_cmp(p->hrej, h) <= 0) {
        if (p->steep == 0)
            return 0;
        p->steep--;
        return 2;
    }
    p->steep = 0;
    if (mpfr_zero_p(e))
        return 0;
    mpfr_t q;
    mpfr_init2(q, 64);
    mpfr_div(q, p->erej, e, MPFR_RNDN);
    double fell = log(mpfr_get_d(q, MPFR_RNDN));
    mpfr_div(q, p->hrej, h, MPFR_RNDN);
    int steep = fell >= 0.5 * (double)(s - 1) * log(mpfr_get_d(q, MPFR_RNDN));
    mpfr_clear(q);
    if (steep) {
        p->steep = HDO_RADAU_TREND_HOLD;
        p->room = HDO_RADAU_TREND_SPAN;
    }
    return steep;
}

static void
trend_limit(hdo_radau_probe *p, mpfr_t fac, const mpfr_t h, const mpfr_t e,
            const mpfr_t tol, long s)
{
    int act = trend_evidence(p, h, e, s);
    if (act == 0 || mpfr_zero_p(p->hlast) || mpfr_zero_p(p->elast) ||
        mpfr_zero_p(e))
        return;
    mpfr_t q;
    mpfr_init2(q, 64);
    mpfr_div(q, h, p->hlast, MPFR_RNDN);
    double hratio = mpfr_get_d(q, MPFR_RNDN);
    mpfr_div(q, e, tol, MPFR_RNDN);
    double used = mpfr_get_d(q, MPFR_RNDN);
    mpfr_div(q, p->elast, tol, MPFR_RNDN);
    double last = mpfr_get_d(q, MPFR_RNDN);
    double f = mpfr_get_d(fac, MPFR_RNDN);
    if (hdo_radau_keep_step(f, s))
        f = 1;
    if (hdo_radau_trend_rejects(hratio, used, last, f, s)) {
        double g = hdo_radau_trend_factor(hratio, used, last, s);
        if (g < HDO_RADAU_REJECT_MIN)
            g = HDO_RADAU_REJECT_MIN;
        if (act == 2 && g < 1 / p->room)
            g = 1 / p->room; /* the held steps' shrink, bounded */
        if (g < f) {
            mpfr_set_d(fac, g, MPFR_RNDN);
            if (act == 2)
                p->room *= g;
        }
    }
    if (p->room <= 1)
        p->steep = 0;
    mpfr_clear(q);
}

void
hdo_radau_probe_accept(hdo_radau_probe *p, mpfr_t fac, const mpfr_t h,
                       const mpfr_t e, const mpfr_t tol, double hlam, long s)
{
    trend_limit(p, fac, h, e, tol, s);
    mpfr_set_zero(p->erej, 1);
    observe_order(p, h, e, s);
    int again = 0;
    if (p->probing && p->blind)
        p->wait = HDO_RADAU_PROBE_AFTER; /* a blind probe passed */
    p->blind = 0;
    if (p->probing) {
        /* the growth of the estimate over the doubling, and the share
           of the tolerance the probe used */
        mpfr_t q;
        mpfr_init2(q, 64);
        mpfr_div(q, e, p->eprobe, MPFR_RNDU);
        double grew = mpfr_zero_p(e)           ? 0
                      : mpfr_zero_p(p->eprobe) ? INFINITY
                                               : mpfr_get_d(q, MPFR_RNDU);
        mpfr_div(q, e, tol, MPFR_RNDU);
        again = hdo_radau_probe_again(grew, mpfr_get_d(q, MPFR_RNDU));
        mpfr_clear(q);
    }
    if (again) {
        if (mpfr_cmp_ui(fac, 2) < 0)
            mpfr_set_ui(fac, 2, MPFR_RNDN);
        mpfr_set(p->eprobe, e, MPFR_RNDN);
    } else if (hdo_radau_keep_step(mpfr_get_d(fac, MPFR_RNDN), s)) {
        mpfr_set_ui(fac, 1, MPFR_RNDN);
        p->probing = 0;
        ++p->kept;
        int due = hdo_radau_probe_due(p->kept, p->pobs, hlam, s);
        p->blind =
            !due && hdo_radau_probe_blind_due(p->kept, p->pobs, hlam, p->wait);
        if (due || p->blind) {
            mpfr_set_ui(fac, 2, MPFR_RNDN);
            mpfr_set(p->eprobe, e, MPFR_RNDN);
            p->probing = 1;
            p->kept = 0;
        }
    } else {
        p->kept = 0;
        p->probing = 0;
    }
}

int
hdo_radau_probe_back(hdo_radau_probe *p, mpfr_t h)
{
    if (!p->probing)
        return 0;
    p->probing = 0;
    if (p->blind && p->wait < (1L << 20))
        p->wait *= 2; /* a blind probe failed: wait twice as long */
    p->blind = 0;
    mpfr_div_2ui(h, h, 1, MPFR_RNDN);
    return 1;
}
