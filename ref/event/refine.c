/* refine.c -- an event's root to the working precision, in its certified
 * bracket: Newton from a root found in doubles and double-doubles
 * (hdo_event_refine; the bracket is locate.c's search) */
#include <math.h>
#include <stdlib.h>
#include "linalg.h" /* hdo_get_d_2exp */
#include "series.h"

/* Horner: f = P(x), fp = P'(x) for P = sum c_k x^k, len coefficients. */
void
hdo_event_horner2(mpfr_t f, mpfr_t fp, mpfr_srcptr c, slong len, const mpfr_t x)
{
    mpfr_set_ui(f, 0, MPFR_RNDN);
    mpfr_set_ui(fp, 0, MPFR_RNDN);
    for (slong k = len - 1; k >= 0; k--) {
        mpfr_mul(fp, fp, x, MPFR_RNDN);
        mpfr_add(fp, fp, f, MPFR_RNDN);
        mpfr_mul(f, f, x, MPFR_RNDN);
        mpfr_add(f, f, c + k, MPFR_RNDN);
    }
}

/* Horner: f = P(x) alone. */
static void
horner1(mpfr_t f, mpfr_srcptr c, slong len, const mpfr_t x)
{
    mpfr_set_ui(f, 0, MPFR_RNDN);
    for (slong k = len - 1; k >= 0; k--) {
        mpfr_mul(f, f, x, MPFR_RNDN);
        mpfr_add(f, f, c + k, MPFR_RNDN);
    }
}

/* Double-double arithmetic (Dekker, Knuth; fma for the exact product):
   a value hi + lo, |lo| <= ulp(hi) / 2, about 106 bits. */
static inline void
dd_norm(double *h, double *l, double s, double e)
{
    double t = s + e;
    *l = e - (t - s);
    *h = t;
}

static inline void
dd_mul(double *h, double *l, double ah, double al, double bh, double bl)
{
    double p = ah * bh, e = fma(ah, bh, -p);
    dd_norm(h, l, p, e + (ah * bl + al * bh));
}

static inline void
dd_add(double *h, double *l, double ah, double al, double bh, double bl)
{
    double s = ah + bh, v = s - ah, e = (ah - (s - v)) + (bh - v);
    dd_norm(h, l, s, e + (al + bl));
}

/* v's significand in [1/2, 1) as a double-double (its first 117 bits,
   truncated: within 2^-105 relative), and its exponent; 0 when v is not
   a regular number or limbs are not 64 bits. */
static int
dd_of(double *h, double *l, long *ex, mpfr_srcptr v)
{
#if GMP_NUMB_BITS == 64
    if (!mpfr_regular_p(v))
        return 0;
    slong n = (mpfr_get_prec(v) + 63) / 64;
    const mp_limb_t *d = mpfr_custom_get_significand(v);
    mp_limb_t m1 = d[n - 1], m0 = n >= 2 ? d[n - 2] : 0;
    double s = mpfr_signbit(v) ? -1.0 : 1.0;
    double hi = s * 0x1p-53 * (double)(m1 >> 11);
    double lo = s * 0x1p-106 * (double)(((m1 & 0x7ff) << 42) | (m0 >> 22));
    dd_norm(h, l, hi, lo);
    *ex = mpfr_get_exp(v);
    return 1;
#else
    (void)h, (void)l, (void)ex, (void)v;
    return 0;
#endif
}

/* The doubles' root u of P(H u) = 2^G sum e_k u^k, converged there, one
   Newton step further with P in double-doubles (issue 28: from the
   doubles' 50 bits to about 100, so that one evaluation at the working
   precision reaches 30 digits where the doubles' start needed two,
   44,000 instructions each at order 48; this costs about 4,000).  The
   coefficients e_k = c_k H^k 2^-G from the significands (within about
   k 2^-104 relative); P' in doubles (the step is below 2^-40 u: its
   2^-50 relative error is 2^-90 of u).  u + ul is the result; unchanged
   (ul = 0) when the step is not that small: it is only a start, refine's
   bracket and steps decide. */
static int
dd_polish(double *u, double *ul, double *dpo, double *rho, mpfr_srcptr c,
          slong len, const mpfr_t H, double G, double cq)
{
    double hh, hl, ph = 1, pl = 0, x = *u, fh = 0, fl = 0, dp = 0;
    double t0 = 0, t1 = 0;
    long he, ek;
    if (!dd_of(&hh, &hl, &he, H))
        return 0;
    enum { MAXLEN = 256 };
    double eh[MAXLEN], el[MAXLEN];
    for (slong k = 0; k < len; k++) {
        double ch, cl, sh, sl;
        eh[k] = el[k] = 0;
        if (!mpfr_zero_p(c + k)) {
            if (!dd_of(&ch, &cl, &ek, c + k))
                return 0;
            dd_mul(&sh, &sl, ch, cl, ph, pl);
            long sc =
                (long)fmax((double)ek + (double)k * (double)he - G, -1100);
            eh[k] = hdo_event_scale2(sh, sc);
            el[k] = hdo_event_scale2(sl, sc);
        }
        dd_mul(&ph, &pl, ph, pl, hh, hl);
    }
    for (slong k = len - 1; k >= 0; k--) {
        dp = fma(dp, x, fh);
        t1 = t1 * fabs(x) + t0; /* sum k |e_k| |x|^(k-1) */
        t0 = t0 * fabs(x) + fabs(eh[k]);
        /* f := f x + e_k, x a double */
        double p = fh * x, e = fma(fh, x, -p) + fl * x;
        dd_norm(&fh, &fl, p, e);
        dd_add(&fh, &fl, fh, fl, eh[k], el[k]);
    }
    double du = (fh + fl) / dp;
    if (!isfinite(du) || !(fabs(du) <= 0x1p-40 * fabs(x)))
        return 0;
    dd_add(u, ul, x, 0, -du, 0);
    /* dp is p'(x) within its Horner's rounding and the coefficients'
       (2 len + 3) 2^-52 relative, both below 2^-48 (len + 2) of sum k
       |e_k| |x|^(k-1); and p' at the new root differs from p'(x) by
       at most |p''| |du| <= cq |du| |p'| (cq >= 8 |p''| / |p'|) */
    *dpo = dp;
    *rho = 0x1p-48 * (double)(len + 2) * t1 / fabs(dp) + cq * fabs(du);
    return isfinite(*rho);
}

/* sum_k |e_k| |u|^k in doubles (Horner). */
static double
terms(const double *e, slong len, double u)
{
    double t = 0;
    for (slong k = len - 1; k >= 0; k--)
        t = t * fabs(u) + fabs(e[k]);
    return t;
}

/* A start for refine in doubles (issue 28): the same safeguarded Newton
   on P(H u) = 2^G sum e_k u^k, e_k = c_k H^k 2^-G (G the largest
   exponent, so |e_k| <= 1), u in [a/H, b/H], until the step is at the
   doubles' rounding.  From the midpoint of the bracket, refine took
   about 8 evaluations at the working precision (a wide bracket: three or
   four to come near, then one per doubling of the digits, then the one
   whose step is below its eps); from this start, with its 50 bits, it
   takes 2 to 3 at 16 to 40 digits.  Only the start: the bracket, the
   steps and the stopping rule at the working precision are refine's, so
   the root is the one it always converged to, up to its rounding (its
   last bits differ; decisions.md D-101).  Writes u H to x and returns 1,
   or 0 when doubles cannot hold the polynomial (then the midpoint).
   *cq: when Newton converged here, a bound of |P''| / (2 |P'|) near the
   root in u (16 times |p''| / (2 |p'|) at u, plus room for p'' varying
   within the doubles' distance to the root), so that a Newton step du
   at the working precision leaves the root within cq du^2 (in u);
   +inf otherwise. */
static int
double_start(mpfr_t x, double *cq, double *dpo, double *rho, double *go,
             mpfr_srcptr c, slong len, const mpfr_t a, const mpfr_t b,
             const mpfr_t H, mpfr_prec_t prec, const double *pre, double preG)
{
    enum { MAXLEN = 256 };
    double own[MAXLEN], mk[MAXLEN], G = preG;
    const double *e = pre;
    long ex[MAXLEN], he, ek;
    *cq = INFINITY;
    if (len < 2 || len > MAXLEN || !mpfr_regular_p(H))
        return 0;
    if (pre == NULL) {
        double hm = mpfr_get_d_2exp(&he, H, MPFR_RNDN), pw = 1;
        G = -INFINITY;
        for (slong k = 0; k < len; k++, pw *= hm) {
            mk[k] = 0;
            ex[k] = 0;
            if (mpfr_zero_p(c + k))
                continue;
            if (!mpfr_regular_p(c + k))
                return 0;
            mk[k] = hdo_get_d_2exp(&ek, c + k) * pw;
            ex[k] = ek + (long)k * he;
            if ((double)ex[k] > G)
                G = (double)ex[k];
        }
        if (!(G > -INFINITY && fabs(G) < 0x1p50))
            return 0;
        for (slong k = 0; k < len; k++)
            own[k] = mk[k] == 0
                         ? 0
                         : hdo_event_scale2(
                               mk[k], (long)fmax((double)ex[k] - G, -1100));
        e = own;
    }
    MPFR_DECL_INIT(q, 53); /* on the stack: at every event (D-120) */
    mpfr_div(q, a, H, MPFR_RNDN);
    double lo = mpfr_get_d(q, MPFR_RNDN);
    mpfr_div(q, b, H, MPFR_RNDN);
    double hi = mpfr_get_d(q, MPFR_RNDN);
    double u = 0.5 * (lo + hi);
    int converged = 0;
    for (int it = 0; it < 200 && hi > lo; it++) {
        double p = 0, dp = 0;
        for (slong k = len - 1; k >= 0; k--) {
            dp = dp * u + p;
            p = p * u + e[k];
        }
        if (!isfinite(p))
            break;
        /* p within the doubles' rounding (a guard whose terms cancel:
           the steps would only wander) and the step small: as near as
           doubles get (issue 28: such a root took 50 to 80 evaluations
           at the working precision, bisecting its noise); the sum of
           the terms only when the step is small */
        if (p == 0 || (fabs(p) <= 0x1p-40 * fabs(dp) * fabs(u) &&
                       fabs(p) <= 0x1p-50 * (double)len * terms(e, len, u))) {
            converged = 1;
            break;
        }
        if (p > 0)
            lo = u;
        else
            hi = u;
        double un = u - p / dp;
        int newton = dp != 0 && un > lo && un < hi;
        if (!newton)
            un = 0.5 * (lo + hi);
        double step = fabs(un - u);
        u = un;
        if (newton && step <= 0x1p-51 * fabs(u)) {
            converged = 1;
            break;
        }
        if (!newton && hi - lo <= 0x1p-51 * hi)
            break;
    }
    int ok = isfinite(u);
    if (ok && converged) {
        double p = 0, dp = 0, ddp = 0, room = 0;
        for (slong k = len - 1; k >= 0; k--) {
            ddp = ddp * u + 2 * dp;
            dp = dp * u + p;
            p = p * u + e[k];
            room += (double)k * (double)k * fabs(e[k]);
        }
        double bound = 8 * (fabs(ddp) + 0x1p-30 * room) / fabs(dp);
        if (isfinite(bound) && dp != 0)
            *cq = bound;
    }
    double ul = 0;
    /* the doubles' root would take two evaluations at the working
       precision (cq du^2 above eps after the first, du = 2^-50 |u|, eps
       2^(2-prec) |u|): polish it */
    *dpo = 0;
    if (ok && isfinite(*cq) &&
        ldexp(*cq * fabs(u), -100) > ldexp(1.0, 1 - (int)prec) &&
        !dd_polish(&u, &ul, dpo, rho, c, len, H, G, *cq))
        *dpo = 0;
    *go = G;
    if (ok) {
        mpfr_set_d(x, u, MPFR_RNDN);
        mpfr_add_d(x, x, ul, MPFR_RNDN);
        mpfr_mul(x, x, H, MPFR_RNDN);
        ok = mpfr_cmp(x, a) > 0 && mpfr_cmp(x, b) < 0;
    }
    return ok;
}

/* Whether the Newton step du (relative to H, rounded up) just taken
   leaves x within eps = 2^(2-prec) r of the root, r = |x| / H (the
   root's own size, relative to H): its bound, cq du^2 with the exact P',
   or 2 du (rho + cq du) with the doubles' P' (relative error rho <=
   2^-20, for |e0| <= 2 du), at most half of eps.  With a convergence
   constant C = |P''| / (2 |P'|) the step's error is at most (2 du rho +
   4 C du^2) / (1 - rho); cq is 8 |P''| / |P'| = 16 C (double_start), so
   that is at most left / (1 - rho) < 2 left <= eps.  In a 64-bit MPFR:
   2^(1-prec) r leaves the doubles' range above 1000 bits or for a root
   far below H (a test in doubles read 0 <= 0 and stopped Newton near
   2^-1200 at any precision). */
static int
quadratic_stop(const mpfr_t du, int approx, double rho, double cq,
               const mpfr_t r, mpfr_prec_t prec)
{
    MPFR_DECL_INIT(left, 64);
    MPFR_DECL_INIT(t, 64);
    mpfr_mul_d(t, du, cq, MPFR_RNDU);
    if (approx) {
        mpfr_add_d(t, t, rho, MPFR_RNDU);
        mpfr_mul(left, t, du, MPFR_RNDU);
        mpfr_mul_2ui(left, left, 1, MPFR_RNDU);
    } else {
        mpfr_mul(left, t, du, MPFR_RNDU);
    }
    mpfr_mul_2si(t, r, 1 - (long)prec, MPFR_RNDD);
    return mpfr_cmp(left, t) <= 0;
}

/* Whether the bracket [a, b] (0 <= a < b) is within eps = 2^(2-prec) of
   the root's size: b - a <= 2^(2-prec) a (a = 0: never; the root may be
   as far below H as it likes). */
static int
bracket_narrow(const mpfr_t a, const mpfr_t b, mpfr_t w, mpfr_prec_t prec)
{
    mpfr_sub(w, b, a, MPFR_RNDN);
    mpfr_div_2si(w, w, 2 - (long)prec, MPFR_RNDN);
    return mpfr_cmpabs(w, a) <= 0;
}

/* Refines the root of P in the bracket [a, b] (P(a) >= 0 >= P(b), at
   least one strict) by Newton steps safeguarded by bisection, until the
   bracket or the step is below eps = 2^(2-prec) |x|: relative to the
   root, not to H (decisions.md D-106: an event at 1e-30 from t0 = 0 on a
   step of 1 has D digits of its time; relative to H it had none, and a
   root at 1.5 on a sliding mode's polynomial arc, H = 1e30, had 40 of
   60).  Writes the root to x; *tr (may be NULL) what it took. */
void
hdo_event_refine_traced(mpfr_t x, mpfr_srcptr c, slong len, const mpfr_t a0,
                        const mpfr_t b0, const mpfr_t H, mpfr_prec_t prec,
                        const double *e, double G, hdo_event_refine_trace *tr)
{
    mpfr_t a, b, f, fp, xn, w;
    double cq, dpd = 0, rho = INFINITY, g = 0;
    int evals = 0, alone = 0;
    mpfr_inits2(prec, a, b, f, fp, xn, w, (mpfr_ptr)0);
    MPFR_DECL_INIT(du, 64);
    MPFR_DECL_INIT(r, 64);
    mpfr_set(a, a0, MPFR_RNDN);
    mpfr_set(b, b0, MPFR_RNDN);
    if (!double_start(x, &cq, &dpd, &rho, &g, c, len, a, b, H, prec, e, G)) {
        dpd = 0;
        mpfr_add(x, a, b, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    }
    /* Newton converges quadratically once close; the bisection fallback
       halves the bracket at worst, so 2 prec iterations always suffice
       once b is within a factor 2 of the root, and log2(H / root) more
       bring it there. */
    for (long it = 0;; it++) {
        long gap = mpfr_regular_p(b) ? mpfr_get_exp(H) - mpfr_get_exp(b) : 0;
        if (it >= 2 * (long)prec + 10 + (gap > 0 ? gap : 0))
            break;
        /* from a double-double start: P at the working precision, P'
           from the start's doubles (issue 28: half an evaluation; the
           step's error is then rho |du| besides the quadratic term),
           when they hold it to 2^-20 at least (near a double root they
           may not: a step of P / P' far too small would then pass for
           a step below eps) */
        int approx = it == 0 && dpd != 0 && rho <= 0x1p-20;
        evals++;
        alone |= approx;
        if (approx) {
            horner1(f, c, len, x);
            mpfr_set_d(fp, dpd, MPFR_RNDN);
            mpfr_mul_2si(fp, fp, (long)g, MPFR_RNDN);
            mpfr_div(fp, fp, H, MPFR_RNDN);
        } else {
            hdo_event_horner2(f, fp, c, len, x);
        }
        if (mpfr_zero_p(f))
            break;
        if (mpfr_sgn(f) > 0)
            mpfr_set(a, x, MPFR_RNDN);
        else
            mpfr_set(b, x, MPFR_RNDN);
        if (bracket_narrow(a, b, w, prec)) {
            mpfr_add(x, a, b, MPFR_RNDN);
            mpfr_div_2ui(x, x, 1, MPFR_RNDN);
            break;
        }
        int newton_ok = !mpfr_zero_p(fp);
        if (newton_ok) {
            mpfr_div(xn, f, fp, MPFR_RNDN);
            mpfr_sub(xn, x, xn, MPFR_RNDN);
            newton_ok = mpfr_cmp(xn, a) > 0 && mpfr_cmp(xn, b) < 0;
        }
        if (!newton_ok) {
            mpfr_add(xn, a, b, MPFR_RNDN);
            mpfr_div_2ui(xn, xn, 1, MPFR_RNDN);
        }
        mpfr_sub(w, xn, x, MPFR_RNDN);
        mpfr_abs(w, w, MPFR_RNDN);
        mpfr_set(x, xn, MPFR_RNDN);
        if (newton_ok) {
            mpfr_mul_2si(r, x, 2 - (long)prec, MPFR_RNDZ);
            if (mpfr_cmpabs(w, r) <= 0)
                break; /* |w| <= 2^(2-prec) |x| */
        }
        /* quadratic convergence from the doubles' root: the step du
           just taken leaves x within cq du^2 of the root; below half of
           eps, the evaluation that would find a step below eps is not
           made (issue 28: one evaluation at the working precision of
           the two or three) */
        if (newton_ok && isfinite(cq)) {
            mpfr_div(du, w, H, MPFR_RNDU);
            mpfr_div(r, x, H, MPFR_RNDD);
            mpfr_abs(r, r, MPFR_RNDD);
            if (quadratic_stop(du, approx, rho, cq, r, prec))
                break;
        }
    }
    if (tr != NULL) {
        tr->evals = evals;
        tr->alone = alone;
        tr->rho = dpd != 0 ? rho : INFINITY;
    }
    mpfr_clears(a, b, f, fp, xn, w, (mpfr_ptr)0);
}

void
hdo_event_refine(mpfr_t x, mpfr_srcptr c, slong len, const mpfr_t a,
                 const mpfr_t b, const mpfr_t H, mpfr_prec_t prec,
                 const double *e, double G)
{
    hdo_event_refine_traced(x, c, len, a, b, H, prec, e, G, NULL);
}
