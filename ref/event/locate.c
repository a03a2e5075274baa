/* locate.c -- certified location of the first event of a switching function on
 * one Taylor step */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <arb_poly.h>
#include "event.h"
#include "expr.h"   /* hdo_fma_rn */
#include "linalg.h" /* hdo_log2_abs */
#include "series.h"

/* Why this method.  The dense output of a step is an exact polynomial
   S(s) = sum c_k s^k on [0, H], so "never miss an event" is a question
   about the real roots of a polynomial on an interval, which ball
   arithmetic answers with certainty: on a subinterval [a, b] with midpoint
   m and radius r, the Taylor shift S(m + u) = sum T_k u^k gives the
   enclosures
       S([a, b])  in  T_0 +- sum_{k>=1} |T_k| r^k,
       S'([a, b]) in  T_1 +- sum_{k>=2} k |T_k| r^(k-1),
   which are tight (centred form) and rigorous (Arb).  Where S has a
   certain sign there is no root; where S' has a certain sign there is at
   most one, decided by the signs at the ends; elsewhere the interval is
   halved.  Two zeros close together thus end up in different intervals,
   however small the natural step is relative to their distance.  The
   search runs left to right, so the first sign change is the one found.

   Halving stops at width w_min = H sqrt(tol) / 4: an interval that is
   still undecided there contains a cluster of roots (a tangency, or
   zeros closer than w_min).  It is an event only if S is negative at its
   right end; a dip below zero and back inside it reaches at most about
   max|S''| w_min^2 / 8 <= tol * scale deep, below what the tolerance can
   resolve, and is ignored. */

/* A coefficient scale: max_k |c_k| H^k (at low precision: only used to
   set a tolerance), each term rounded up at 64 bits.  With lc (lc[k] =
   log2 |c_k| + k log2 H in doubles, within 1e-12 per unit of the
   magnitudes; H > 0) a term is computed only where it can be the
   largest (issue 28: the loop cost 30,000 instructions at order 48):
   term k, rounded up at each of its k + 1 roundings, is within (k + 1)
   2^-63 relative of the exact one, so a k whose lc[k] is below the
   largest by more than 1e-6 (and 1e-12 per unit) cannot give the
   maximum; the chain of H^k is the same as far as the last k that can,
   and the bits are the plain loop's (decisions.md D-101). */
void
hdo_event_coef_scale(mpfr_t scale, mpfr_srcptr c, slong len, const mpfr_t H,
                     const double *lc)
{
    double cut = -INFINITY;
    slong last = len - 1;
    if (lc != NULL && mpfr_sgn(H) > 0) {
        double top = -INFINITY, big = fabs(hdo_log2_abs(H)) * (double)len;
        for (slong k = 0; k < len; k++)
            if (lc[k] > top)
                top = lc[k];
        cut = top - 1e-6 - 1e-12 * (fabs(top) + big);
        last = -1;
        for (slong k = 0; k < len; k++)
            if (lc[k] >= cut)
                last = k;
    } else {
        lc = NULL;
    }
    MPFR_DECL_INIT(p, 64); /* on the stack: at every step (D-120) */
    MPFR_DECL_INIT(term, 64);
    mpfr_set_ui(p, 1, MPFR_RNDN);
    mpfr_set_ui(scale, 0, MPFR_RNDN);
    for (slong k = 0; k <= last; k++) {
        if (lc == NULL || lc[k] >= cut) {
            mpfr_abs(term, c + k, MPFR_RNDU);
            mpfr_mul(term, term, p, MPFR_RNDU);
            if (mpfr_cmp(term, scale) > 0)
                mpfr_set(scale, term, MPFR_RNDU);
        }
        mpfr_mul(p, p, H, MPFR_RNDU);
    }
}

/* The number of coefficients up to the last nonzero one (at least 1).
   A guard's series often ends in exact zeros: a polynomial guard (the
   height of a falling ball, degree 2) gets exactly zero Taylor
   coefficients beyond its degree, and every computation below gives the
   same bits on the shorter series, in a fraction of the O(len^2) cost of
   the Taylor shifts (issue 28). */
slong
hdo_event_actual_len(mpfr_srcptr c, slong len)
{
    while (len > 1 && mpfr_zero_p(c + len - 1))
        len--;
    return len;
}

/* Sign of an enclosure: 1, -1, or 0 when it contains zero. */
static int
arb_sign(const arb_t x)
{
    if (arb_is_positive(x))
        return 1;
    if (arb_is_negative(x))
        return -1;
    return 0;
}

/* Encloses Q and Q' on [m - r, m + r]: q and dq.  T is scratch of len. */
static void
enclose(arb_t q, arb_t dq, arb_ptr T, arb_srcptr Q, slong len, const arf_t m,
        const arf_t r, slong aprec)
{
    arb_t mid;
    mag_t rad, rk, t, sum, dsum;
    arb_init(mid);
    mag_init(rad);
    mag_init(rk);
    mag_init(t);
    mag_init(sum);
    mag_init(dsum);
    _arb_vec_set(T, Q, len);
    arb_set_arf(mid, m);
    _arb_poly_taylor_shift_horner(T, mid, len, aprec);
    arf_get_mag(rad, r);
    /* sum |T_k| r^k for k >= 1, and sum k |T_k| r^(k-1) for k >= 2 */
    mag_one(rk);
    for (slong k = 1; k < len; k++) {
        arb_get_mag(t, T + k);
        if (k >= 2) {
            mag_t kt;
            mag_init(kt);
            mag_mul(kt, t, rk); /* |T_k| r^(k-1) */
            mag_mul_ui(kt, kt, k);
            mag_add(dsum, dsum, kt);
            mag_clear(kt);
        }
        mag_mul(rk, rk, rad);
        mag_addmul(sum, t, rk);
    }
    arb_set(q, T + 0);
    arb_add_error_mag(q, sum);
    if (len >= 2)
        arb_set(dq, T + 1);
    else
        arb_zero(dq);
    arb_add_error_mag(dq, dsum);
    arb_clear(mid);
    mag_clear(rad);
    mag_clear(rk);
    mag_clear(t);
    mag_clear(sum);
    mag_clear(dsum);
}

/* Sign of the exact polynomial value Q(x) from a rigorous ball
   evaluation; 0 when the ball contains zero. */
static int
sign_at(arb_srcptr Q, slong len, const arf_t x, slong aprec)
{
    arb_t y, xb;
    arb_init(y);
    arb_init(xb);
    arb_set_arf(xb, x);
    _arb_poly_evaluate(y, Q, len, xb, aprec);
    int s = arb_sign(y);
    arb_clear(y);
    arb_clear(xb);
    return s;
}

/* An interval [a, b] of s, with u = s / H at its ends (exact while the
   interval is wider than 2^-50 H: dyadic fractions of 1). */
typedef struct {
    arf_struct a, b;
    double ua, ub;
} interval;

/* The search's decisions first in doubles (issue 28).  Arb's Taylor
   shift costs a million instructions at order 48 and 40 digits, most
   steps near an event need two or three, and most decisions have a
   margin of many digits.  The same centred forms are computed in u =
   s / H, where S(H u) = sum e_k u^k with e_k = Q_k H^k 2^-G (G the
   largest exponent, so |e_k| <= 1), in doubles that carry a rigorous
   bound of their error (|fl(x) - x| <= 2^-52 |fl(x)| per operation,
   plus 2^-1070 for subnormals); the exact centred forms in u and in s
   are the same numbers.  A decision is taken from the doubles only
   when Arb's own ball is sure to give it: a sign when the doubles'
   enclosure keeps it with room for Arb's radii (its 30-bit magnitudes,
   eta; its rounding at aprec, a 2^-80 fraction of the doubles'), "may
   be zero" when even the exact enclosure must contain 0 (Arb's contains
   the exact one).  Otherwise Arb decides, as before: the search takes
   the same path, interval by interval, and finds the same bracket. */
#define FAST_MAX 200 /* longer: the doubles' error bounds grow like 2^len */
typedef struct {
    slong len;
    double *e, *err;  /* coefficients in u and their error bounds */
    double *T, *Terr; /* scratch: a shift and its error bounds */
    /* room for Arb's ball: eta relative for its 30-bit magnitudes, rho
       of the doubles' error bounds for its radii (the same recurrences
       at 2^-aprec instead of 2^-52, with a factor 16 to spare), tiny
       absolute */
    double eta, rho, tiny;
    double G; /* the scale 2^-G of e */
    slong aprec;
    /* e, err, T, Terr: on the caller's stack (issue 28: a heap block of
       1.6 kB made glibc consolidate its fast bins at most steps near an
       event, 2 M of boost_converter_ideal's location) */
    double buf[4 * FAST_MAX];
} fastpoly;

#define FAST_U 0x1p-52      /* a double operation's relative error bound */
#define FAST_TINY 0x1p-1070 /* and its absolute one (subnormals) */

/* Fills f from the len coefficients c (the exact Q) and H > 0; 0 when
   doubles cannot hold them (then Arb alone decides). */
static int
fast_init(fastpoly *f, mpfr_srcptr c, slong len, const mpfr_t H, slong aprec)
{
    long he, ek;
    f->len = len;
    f->e = NULL;
    if (len < 1 || len > FAST_MAX || !mpfr_regular_p(H))
        return 0;
    double hm = mpfr_get_d_2exp(&he, H, MPFR_RNDN), pw = 1, G = -INFINITY;
    double *x = f->buf, *ex = x + len;
    for (slong k = 0; k < len; k++, pw *= hm) {
        x[k] = 0;
        ex[k] = -INFINITY;
        if (mpfr_zero_p(c + k))
            continue;
        if (!mpfr_regular_p(c + k)) {
            G = NAN; /* an infinity or NaN: Arb's business */
            break;
        }
        x[k] = hdo_get_d_2exp(&ek, c + k) * pw;
        ex[k] = (double)ek + (double)k * (double)he;
        if (ex[k] > G)
            G = ex[k];
    }
    if (!(G > -INFINITY && fabs(G) < 0x1p50))
        return 0;
    f->e = x;
    f->G = G;
    f->err = x + len;
    f->T = x + 2 * len;
    f->Terr = x + 3 * len;
    for (slong k = 0; k < len; k++) {
        /* the mantissas of c_k and H^k: 2k + 2 roundings */
        f->e[k] = ex[k] == -INFINITY
                      ? 0
                      : hdo_event_scale2(x[k], (long)fmax(ex[k] - G, -1100));
        f->err[k] = (double)(2 * k + 3) * FAST_U * fabs(f->e[k]) + FAST_TINY;
    }
    f->eta = 8.0 * (double)len * 0x1p-29 + 1e-9;
    f->rho = ldexp(1.0, 56 - (int)FLINT_MIN(aprec, 2000));
    f->tiny = 0x1p-1000;
    f->aprec = aprec;
    return 1;
}

static void
fast_clear(fastpoly *f)
{
    f->e = NULL; /* its arrays are its own */
}

/* f->T := the coefficients of the polynomial at m + v (Horner's shift,
   as Arb's), f->Terr their error bounds. */
static void
fast_shift(fastpoly *f, double m)
{
    slong n = f->len;
    double *T = f->T, *E = f->Terr;
    for (slong k = 0; k < n; k++) {
        T[k] = f->e[k];
        E[k] = f->err[k];
    }
    /* T[j + 1] and E[j + 1] carried in registers from the step before
       (issue 28: the arrays' loads were a tenth of the loop): the same
       operations in the same order, the same doubles */
    for (slong i = 0; i < n - 1; i++) {
        double t1 = T[n - 1], e1 = E[n - 1];
        for (slong j = n - 2; j >= i; j--) {
            double p = m * t1, t = T[j] + p;
            e1 = E[j] + (m * e1 + FAST_U * (fabs(p) + fabs(t)) + FAST_TINY);
            T[j] = t1 = t;
            E[j] = e1;
        }
    }
    for (slong k = 0; k < n; k++)
        E[k] *= 1 + 1e-12; /* the bounds' own rounding (n <= 200) */
}

/* The sign Arb's ball gives to c0 +- (s_exact), where the doubles give
   c0 within e0 and s_exact in [lo, hi]: 1 or -1, 0 (contains zero), or
   2 when the doubles cannot tell. */
static int
fast_sign(const fastpoly *f, double c0, double e0, double lo, double hi)
{
    double room = (1 + 2 * f->rho) * e0 +
                  (f->eta + 2 * f->rho) * (fabs(c0) + hi) + f->tiny;
    if (c0 - hi - room > 0)
        return 1;
    if (c0 + hi + room < 0)
        return -1;
    if (fabs(c0) + e0 <= lo)
        return 0;
    return 2;
}

/* enclose()'s signs of q (and of dq when q may be zero) on [ua, ub] in
   u, as arb_sign would give them: 1 when decided, 0 when Arb must. */
static int
fast_enclose(int *sq, int *sdq, fastpoly *f, double ua, double ub)
{
    slong n = f->len;
    if (f->e == NULL || !(ub - ua >= 0x1p-50))
        return 0;
    double m = 0.5 * (ua + ub), r = 0.5 * (ub - ua);
    fast_shift(f, m);
    const double *T = f->T, *E = f->Terr;
    /* sum_{k>=1} |T_k| r^k and sum_{k>=2} k |T_k| r^(k-1): bounds */
    double shi = 0, slo = 0, dhi = 0, dlo = 0, rk = 1, rprev;
    for (slong k = 1; k < n; k++) {
        rprev = rk;
        rk *= r;
        double up = fabs(T[k]) + E[k], down = fmax(fabs(T[k]) - E[k], 0);
        /* a power below 2^-900 counts as 2^-900 above, 0 below */
        double rkh = rk < 0x1p-900 ? 0x1p-900 : rk;
        double rk0 = rk < 0x1p-900 ? 0 : rk;
        shi += up * rkh;
        slo += down * rk0;
        if (k >= 2) {
            double rph = rprev < 0x1p-900 ? 0x1p-900 : rprev;
            double rp0 = rprev < 0x1p-900 ? 0 : rprev;
            dhi += (double)k * up * rph;
            dlo += (double)k * down * rp0;
        }
    }
    shi *= 1 + 1e-12;
    dhi *= 1 + 1e-12;
    slo *= 1 - 1e-12;
    dlo *= 1 - 1e-12;
    int s = fast_sign(f, T[0], E[0], slo, shi);
    if (s == 2)
        return 0;
    *sq = s;
    *sdq = 0;
    if (s == 0 && n >= 2) {
        int d = fast_sign(f, T[1], E[1], dlo, dhi);
        if (d == 2)
            return 0;
        *sdq = d;
    }
    return 1;
}

/* sign_at()'s answer at the end b of iv, or 2 when Arb must give it:
   Horner in doubles with its error bound, and room for Arb's radius (its
   rounding at aprec, whatever its algorithm: 2^(20 - aprec) n of the
   terms). */
static int
fast_sign_at(const fastpoly *f, const interval *iv)
{
    slong n = f->len;
    double x = iv->ub;
    if (f->e == NULL || !(iv->ub - iv->ua >= 0x1p-50)) /* x exact */
        return 2;
    double y = 0, e = 0, terms = 0;
    for (slong k = n - 1; k >= 0; k--) {
        double p = y * x;
        y = p + f->e[k];
        e = e * x + f->err[k] + FAST_U * (fabs(p) + fabs(y)) + FAST_TINY;
        terms = terms * x + fabs(f->e[k]);
    }
    double room =
        e * (1 + 1e-12) + (double)n * terms * f->rho * 0x1p-36 + f->tiny;
    if (y - room > 0)
        return 1;
    if (y + room < 0)
        return -1;
    return 2;
}

/* 1 when Q(0) > 2 sum_{k>=1} |Q_k| H^k, rigorously: then Q >= Q(0)/2 on
   [0, H], every ball the search below evaluates is certainly positive
   or splits into such, and it finds nothing.  This O(len) test settles
   most steps (no event near) without the O(len^2) Taylor shifts of the
   search; the result is the same. */
static int
clearly_positive(arb_srcptr Q, slong len, const arf_t H)
{
    mag_t h, hk, t, sum, q0;
    int yes;
    mag_init(h);
    mag_init(hk);
    mag_init(t);
    mag_init(sum);
    mag_init(q0);
    arf_get_mag(h, H);
    mag_one(hk);
    for (slong k = 1; k < len; k++) {
        mag_mul(hk, hk, h);
        arb_get_mag(t, Q + k);
        mag_addmul(sum, t, hk);
    }
    mag_mul_2exp_si(sum, sum, 1);
    arb_get_mag_lower(q0, Q + 0);
    yes = arb_is_positive(Q + 0) && mag_cmp(q0, sum) > 0;
    mag_clear(h);
    mag_clear(hk);
    mag_clear(t);
    mag_clear(sum);
    mag_clear(q0);
    return yes;
}

/* clearly_positive()'s yes from the doubles, before Q's balls are made
   (issue 28: most steps of most guards end here): e_0 - err_0 above
   twice the bound of sum_{k>=1} |e_k| H^k by more than Arb's 30-bit
   magnitudes can take (8 len 2^-28 relative on the sum: a rounding up
   per power of H and per term; 2^-28 on Q(0))
   and the doubles' own rounding (1e-12).  0 when the doubles cannot
   tell: then clearly_positive decides. */
static int
fast_clearly_positive(const fastpoly *f)
{
    if (f->e == NULL)
        return 0;
    double sum = 0, q0 = f->e[0] - f->err[0];
    for (slong k = 1; k < f->len; k++)
        sum += fabs(f->e[k]) + f->err[k]; /* u = 1 is s = H */
    sum *= 2 * (1 + 8 * (double)f->len * 0x1p-28) * (1 + 1e-12);
    return q0 * (1 - 0x1p-28) * (1 - 1e-12) > sum + f->tiny;
}

/* 1 when clearly_positive(Q) must say no, from the doubles: the exact
   Q(0) (below |e_0| + err_0) is at most twice the exact sum_{k>=1} |Q_k|
   H^k (above the sum of |e_k| - err_k), which Arb's upper bounds of the
   sum and lower bound of Q(0) can only confirm; the doubles' rounding
   (a sum of at most 200 terms) within the factors 1 -+ 1e-12.  0: Arb
   decides. */
static int
fast_not_clearly_positive(const fastpoly *f)
{
    if (f->e == NULL)
        return 0;
    double sum = 0, q0 = (fabs(f->e[0]) + f->err[0]) * (1 + 1e-12);
    for (slong k = 1; k < f->len; k++)
        sum += fmax(fabs(f->e[k]) - f->err[k], 0);
    return 2 * sum * (1 - 1e-12) >= q0;
}

/* Q's balls (exact copies of the coefficients), made at their first use
   (issue 28: the search decides from the doubles on most steps, and
   making and clearing the balls cost 9 M of stick_slip_hysteresis's
   events). */
typedef struct {
    arb_ptr Q;
    mpfr_srcptr c;
    slong len;
} lazy_balls;

static arb_srcptr
balls(lazy_balls *z)
{
    if (z->Q == NULL) {
        arf_t t;
        arf_init(t);
        z->Q = _arb_vec_init(z->len);
        for (slong k = 0; k < z->len; k++) { /* exact copies */
            arf_set_mpfr(t, z->c + k);
            arb_set_arf(z->Q + k, t);
        }
        arf_clear(t);
    }
    return z->Q;
}

/* A cluster's depth against the guard's own error (decisions.md D-112):
   S(0) is a value known to its own error (hdo_event_zero_order_at), and a
   dip below zero narrower than w_min is ignored only when the enclosure
   of S on it stays above -(vfloor + (floor - vfloor) b / H + tol max_k
   |c_k| b^k): S(0)'s error, the floor's drift over the step (tol |x'| H
   of each input, hdo_run_guard_floors) over [0, b] only, and tol times
   S's size on [0, b] (the time scale of the dip itself, as
   hdo_event_time_error's), not tol times its size over the step: the
   dip of 1e-30 - t + 1e20 t^2 on [1e-30, 1e-20], 2.5e-21 deep, is the
   event.  NULL in search: the rule of w_min alone. */
typedef struct {
    mpfr_srcptr c; /* S's coefficients (Q = S) */
    slong len;
    mpfr_srcptr H, tol, floor, vfloor; /* floor: NULL for none */
    const hdo_event_own_errors *own;   /* its floor_over, or NULL */
} dip_rule;

/* 1 when the dip of Q on [a, b] (enclosed by q) is within the guard's
   error at b (dip_rule). */
static int
dip_within_error(const dip_rule *dr, const arb_t q, const arf_t b)
{
    MPFR_DECL_INIT(bb, 64);
    MPFR_DECL_INIT(e, 64);
    MPFR_DECL_INIT(lo, 64);
    arf_t l;
    arf_init(l);
    arf_get_mpfr(bb, b, MPFR_RNDU);
    hdo_event_coef_scale(e, dr->c, dr->len, bb, NULL);
    mpfr_mul(e, e, dr->tol, MPFR_RNDU);
    mpfr_add(e, e, dr->vfloor, MPFR_RNDU);
    if (dr->floor != NULL && mpfr_cmp(dr->floor, dr->vfloor) > 0) {
        mpfr_sub(lo, dr->floor, dr->vfloor, MPFR_RNDU);
        mpfr_mul(lo, lo, bb, MPFR_RNDU);
        mpfr_div(lo, lo, dr->H, MPFR_RNDU);
        mpfr_add(e, e, lo, MPFR_RNDU);
    }
    arb_get_lbound_arf(l, q, 64);
    arf_get_mpfr(lo, l, MPFR_RNDD);
    mpfr_neg(e, e, MPFR_RNDD);
    int within = mpfr_cmp(lo, e) >= 0;
    if (within && dr->own != NULL && dr->own->floor_over != NULL) {
        /* the floor's drift over [0, b] itself, where the line from 0 to
           the step's floor is above it: the inputs' drift tol |x'| b
           through S (1e-60 - t + 1e58 t^2 at 16 digits: a floor of 1e16
           over a step of 1, 1e-42 on the line at b = 1e-58, 1e-79 by
           itself, and the dip is 2.4e-59 deep; D-131) */
        MPFR_DECL_INIT(fb, 64);
        if (dr->own->floor_over(fb, bb, dr->own->ctx) && mpfr_number_p(fb)) {
            hdo_event_coef_scale(e, dr->c, dr->len, bb, NULL);
            mpfr_mul(e, e, dr->tol, MPFR_RNDU);
            mpfr_add(e, e, dr->vfloor, MPFR_RNDU);
            mpfr_add(e, e, fb, MPFR_RNDU);
            mpfr_neg(e, e, MPFR_RNDD);
            within = mpfr_cmp(lo, e) >= 0;
        }
    }
    arf_clear(l);
    return within;
}

/* The search on Q (Q(0) > 0) over [0, H]: returns 1 and a bracket [a, b]
   (Q(a) >= 0 >= Q(b)) of the first sign change from + to -, or 0. */
static int
search(arf_t ra, arf_t rb, lazy_balls *Qz, slong len, const arf_t H,
       const arf_t wmin, slong aprec, fastpoly *fp, const dip_rule *dr)
{
    /* the first 64 intervals on the stack, as fast_init's arrays */
    slong cap = 64, top = 0;
    interval local[64], *stack = local;
    arb_ptr T = NULL; /* Arb's scratch, when the doubles hand over */
    arb_t q, dq;
    arf_t m, r, w;
    int found = 0;

    arb_init(q);
    arb_init(dq);
    arf_init(m);
    arf_init(r);
    arf_init(w);
    arf_init(&stack[0].a);
    arf_init(&stack[0].b);
    arf_zero(&stack[0].a);
    arf_set(&stack[0].b, H);
    stack[0].ua = 0;
    stack[0].ub = 1;
    top = 1;
    while (top > 0 && !found) {
        interval iv = stack[--top]; /* take ownership of a, b */
        arf_add(m, &iv.a, &iv.b, ARF_PREC_EXACT, ARF_RND_DOWN);
        arf_mul_2exp_si(m, m, -1);
        arf_sub(r, &iv.b, &iv.a, ARF_PREC_EXACT, ARF_RND_DOWN);
        arf_mul_2exp_si(r, r, -1);
        int sq, sdq, split = 0;
        if (!fast_enclose(&sq, &sdq, fp, iv.ua, iv.ub)) {
            if (T == NULL)
                T = _arb_vec_init(len);
            enclose(q, dq, T, balls(Qz), len, m, r, aprec);
            sq = arb_sign(q);
            sdq = arb_sign(dq);
        }
        if (sq > 0) {
            /* positive throughout: nothing here */
        } else if (sq < 0) {
            /* Everything to the left was certified non-negative, so the
               sign changed exactly at a (reached only when a is a root). */
            arf_set(ra, &iv.a);
            arf_set(rb, &iv.a);
            found = 1;
        } else if (sdq > 0) {
            /* increasing from a value >= 0 at a: stays positive on (a, b] */
        } else if (sdq < 0) {
            int sb = fast_sign_at(fp, &iv);
            if (sb == 2)
                sb = sign_at(balls(Qz), len, &iv.b, aprec);
            if (sb <= 0) { /* decreasing through zero in (a, b] */
                arf_set(ra, &iv.a);
                arf_set(rb, &iv.b);
                found = 1;
            }
        } else {
            arf_sub(w, &iv.b, &iv.a, ARF_PREC_EXACT, ARF_RND_DOWN);
            int cluster = arf_cmp(w, wmin) <= 0;
            if (cluster && dr != NULL) {
                /* deeper than the guard's error: split on, down to the
                   working precision of b */
                if (T == NULL)
                    T = _arb_vec_init(len);
                enclose(q, dq, T, balls(Qz), len, m, r, aprec);
                arf_mul_2exp_si(r, &iv.b, 16 - aprec);
                cluster = dip_within_error(dr, q, &iv.b) || arf_cmp(w, r) <= 0;
            }
            if (cluster) {
                /* a cluster of roots narrower than w_min: an event only if
                   it leaves S negative (see the comment at the top) */
                int sb = fast_sign_at(fp, &iv);
                if (sb == 2)
                    sb = sign_at(balls(Qz), len, &iv.b, aprec);
                if (sb < 0) {
                    arf_set(ra, &iv.a);
                    arf_set(rb, &iv.b);
                    found = 1;
                }
            } else {
                split = 1;
            }
        }
        if (split) {
            if (top + 2 > cap) {
                interval *more = flint_malloc(2 * cap * sizeof *more);
                memcpy(more, stack, top * sizeof *stack);
                if (stack != local)
                    flint_free(stack);
                stack = more;
                cap *= 2;
            }
            /* right half below the left half: the left one is taken first */
            interval right, left;
            arf_init(&right.a);
            arf_init(&right.b);
            arf_set(&right.a, m);
            arf_set(&right.b, &iv.b);
            right.ua = 0.5 * (iv.ua + iv.ub); /* exact: see interval */
            right.ub = iv.ub;
            left = iv;
            arf_set(&left.b, m);
            left.ub = right.ua;
            stack[top++] = right;
            stack[top++] = left;
        } else {
            arf_clear(&iv.a);
            arf_clear(&iv.b);
        }
    }
    while (top > 0) {
        top--;
        arf_clear(&stack[top].a);
        arf_clear(&stack[top].b);
    }
    if (stack != local)
        flint_free(stack);
    if (T != NULL)
        _arb_vec_clear(T, len);
    arb_clear(q);
    arb_clear(dq);
    arf_clear(m);
    arf_clear(r);
    arf_clear(w);
    return found;
}

/* hdo_event_zero_order's answer in doubles (issue 28: it runs on every
   guard at every step, and its 64-bit scale costs len multiplications):
   1 and *mo when every comparison of the loop below is clear, 0 when one
   is too close to call (then the 64-bit loop decides).  In log2: l_k =
   log2 |c_k| + k log2 H, the scale max_k l_k, ztol = 2^scale tol (+
   floor); term m is compared with it.  The 64-bit values are within
   about len 2^-63 relative of the exact ones and the doubles' logarithms
   within 1e-12 of their magnitudes: a margin of 1e-9 in log2 (and
   1e-12 per unit of the magnitudes) leaves every decision to the same
   side (decisions.md D-093). */
#define FAST_ZERO_MAX 256
static int
fast_zero_order(slong *mo, mpfr_srcptr c, slong n, slong m0, const mpfr_t H,
                const mpfr_t tol, mpfr_srcptr floor)
{
    double l[FAST_ZERO_MAX];
    if (n > FAST_ZERO_MAX || !mpfr_regular_p(H) || !mpfr_regular_p(tol))
        return 0;
    double lh = hdo_log2_abs(H), lt = hdo_log2_abs(tol), sl = -INFINITY;
    for (slong k = 0; k < n; k++) {
        if (!mpfr_number_p(c + k))
            return 0;
        l[k] = mpfr_zero_p(c + k) ? -INFINITY
                                  : hdo_log2_abs(c + k) + (double)k * lh;
        if (l[k] > sl)
            sl = l[k];
    }
    if (sl == -INFINITY)
        return 0;
    double lz = sl + lt;
    if (floor != NULL) {
        if (!mpfr_number_p(floor))
            return 0;
        if (mpfr_regular_p(floor)) {
            double b = hdo_log2_abs(floor), a = lz;
            lz = fmax(a, b) + log2(1 + exp2(-fabs(a - b)));
        }
    }
    double margin =
        1e-9 + 1e-12 * (fabs(sl) + fabs(lt) + fabs(lz) + fabs(lh) * (double)n);
    for (slong m = m0; m < n; m++) {
        if (l[m] > lz + margin) {
            *mo = m;
            return 1;
        }
        if (l[m] >= lz - margin)
            return 0; /* too close to call */
    }
    *mo = n;
    return 1;
}

slong
hdo_event_zero_order(mpfr_srcptr c, slong len, const mpfr_t H, const mpfr_t tol,
                     mpfr_srcptr floor)
{
    return hdo_event_zero_order_at(c, len, H, tol, floor, NULL);
}

slong
hdo_event_zero_order_at(mpfr_srcptr c, slong len, const mpfr_t H,
                        const mpfr_t tol, mpfr_srcptr floor, mpfr_srcptr vfloor)
{
    return hdo_event_zero_order_own(c, len, H, tol, floor, vfloor, NULL);
}

slong
hdo_event_zero_order_own(mpfr_srcptr c, slong len, const mpfr_t H,
                         const mpfr_t tol, mpfr_srcptr floor,
                         mpfr_srcptr vfloor, mpfr_srcptr sfloor)
{
    /* Remark 12 of Kunkel and Mehrmann: right after a transition S(0) is
       zero up to the errors of the event location and the reset, of
       either sign.  A value of S(0) within the tolerance is taken as an
       exact zero, and so is every following coefficient whose
       contribution |c_k| H^k over the step is within it: S is then
       s^m Q(s) with Q(0) = c_m, and the sign of c_m says in which
       direction S leaves the surface.  The tolerance is ztol = tol scale,
       scale = max_k |c_k| H^k: S is known to about tol relative to its
       size over the step, whatever that size (an absolute term, tol (1 +
       scale) up to stop 21, made a guard 1e-25 h at 20 digits zero
       everywhere: events at t = 0, or none; issue 23), plus the floor
       below which the state's own errors hide S (event.h).  With vfloor,
       S(0) = c_0 is a value, not a truncated series: it is zero only
       within its own error vfloor (decisions.md D-112: 1e-30 - t +
       1e20 t^2 is not zero at t = 0 because its t^2 term is 7e20 over
       the step). */
    mpfr_t ztol, term, p;
    slong m, m0 = 0;
    slong n = hdo_event_actual_len(c, len);
    if (vfloor != NULL && n > 0) {
        if (mpfr_cmpabs(c + 0, vfloor) > 0)
            return 0;
        m0 = 1;
        /* S'(0) a value too: beyond its own error it is no zero,
           whatever S's size over the step (D-130) */
        if (sfloor != NULL && n > 1 && mpfr_cmpabs(c + 1, sfloor) > 0)
            return 1;
    }
    if (fast_zero_order(&m, c, n, m0, H, tol, floor))
        return m == n ? len : m;
    mpfr_inits2(64, ztol, term, p, (mpfr_ptr)0);
    hdo_event_coef_scale(ztol, c, n, H, NULL);
    mpfr_mul(ztol, ztol, tol, MPFR_RNDU);
    if (floor != NULL)
        mpfr_add(ztol, ztol, floor, MPFR_RNDU);
    mpfr_pow_ui(p, H, (unsigned long)m0, MPFR_RNDN);
    for (m = m0; m < n; m++) {
        mpfr_abs(term, c + m, MPFR_RNDN);
        mpfr_mul(term, term, p, MPFR_RNDN);
        if (mpfr_cmp(term, ztol) > 0)
            break;
        mpfr_mul(p, p, H, MPFR_RNDN);
    }
    mpfr_clears(ztol, term, p, (mpfr_ptr)0);
    return m == n ? len : m; /* the exact zeros after n are within ztol */
}

/* hdo_event_locate with what the caller knows of S's own errors (own:
   NULL for nothing) */
static int
locate(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H, const mpfr_t tol,
       mpfr_srcptr floor, const hdo_event_own_errors *own, slong order,
       mpfr_prec_t prec)
{
    mpfr_srcptr vfloor = own != NULL ? own->value : NULL;
    mpfr_srcptr sfloor = own != NULL ? own->slope : NULL;
    MPFR_DECL_INIT(term, 64); /* on the stack: at every step (D-120) */
    slong m;
    int result = 0;

    if (len <= 0 || mpfr_sgn(H) <= 0) {
        /* A step of zero length only sees S(0). */
        if (len > 0 && mpfr_sgn(c + 0) < 0) {
            mpfr_set_ui(root, 0, MPFR_RNDN);
            return HDO_EVENT;
        }
        return 0;
    }
    /* the caller's hdo_event_zero_order of these arguments, when it
       has it (issue 28: the step asks it first, D-116) */
    m = order >= 0 && vfloor == NULL
            ? order
            : hdo_event_zero_order_own(c, len, H, tol, floor, vfloor, sfloor);
    if (m == len) {
        /* |S| <= len * ztol on the whole step: it stays on the surface
           as far as the tolerance can tell; no crossing. */
        return 0;
    }
    if (mpfr_sgn(c + m) < 0) {
        /* infeasible at once: S(0) < 0, or S leaves zero downwards */
        mpfr_set_ui(root, 0, MPFR_RNDN);
        return HDO_EVENT;
    }
    len = hdo_event_actual_len(c, len); /* c[m] != 0: still len > m */

    fastpoly fp;
    fast_init(&fp, c + m, len - m, H, prec + 32);
    if (fast_clearly_positive(&fp)) {
        fast_clear(&fp);
        return 0;
    }
    {
        slong qlen = len - m;
        slong aprec = prec + 32;
        lazy_balls Qz = {NULL, c + m, qlen};
        arf_t Ha, wmin, ra, rb;
        mpfr_t a, b, fa, fb, dummy;

        arf_init(Ha);
        arf_init(wmin);
        arf_init(ra);
        arf_init(rb);
        arf_set_mpfr(Ha, H);
        /* w_min = H sqrt(tol) / 4 */
        mpfr_sqrt(term, tol, MPFR_RNDD);
        mpfr_mul(term, term, H, MPFR_RNDD);
        mpfr_div_2ui(term, term, 2, MPFR_RNDD);
        arf_set_mpfr(wmin, term);

        dip_rule dr = {c, len, H, tol, floor, vfloor, own};
        int hit = (fast_not_clearly_positive(&fp) ||
                   !clearly_positive(balls(&Qz), qlen, Ha)) &&
                  search(ra, rb, &Qz, qlen, Ha, wmin, aprec, &fp,
                         vfloor != NULL && m == 0 ? &dr : NULL);
        if (hit) {
            mpfr_inits2(prec, a, b, fa, fb, dummy, (mpfr_ptr)0);
            arf_get_mpfr(a, ra, MPFR_RNDN);
            arf_get_mpfr(b, rb, MPFR_RNDN);
            if (mpfr_equal_p(a, b)) {
                mpfr_set(root, a, MPFR_RNDN);
            } else {
                /* Refine on S itself when it brackets the same root (the
                   dropped coefficients were noise, but S is the dense
                   output the states come from); otherwise on Q. */
                int on_q = 0;
                if (m > 0) { /* S's signs at the ends: only asked then */
                    hdo_event_horner2(fa, dummy, c, len, a);
                    hdo_event_horner2(fb, dummy, c, len, b);
                    on_q = mpfr_sgn(fa) < 0 || mpfr_sgn(fb) > 0;
                }
                /* the search's doubles are those of c + m */
                if (on_q || m == 0)
                    hdo_event_refine(root, c + m, qlen, a, b, H, prec, fp.e,
                                     fp.G);
                else
                    hdo_event_refine(root, c, len, a, b, H, prec, NULL, 0);
            }
            mpfr_clears(a, b, fa, fb, dummy, (mpfr_ptr)0);
            result = HDO_EVENT;
        }
        fast_clear(&fp);
        if (Qz.Q != NULL)
            _arb_vec_clear(Qz.Q, qlen);
        arf_clear(Ha);
        arf_clear(wmin);
        arf_clear(ra);
        arf_clear(rb);
    }
    return result;
}

/* T := the coefficients of S(r + u), S = sum c_k s^k (Horner's Taylor
   shift at prec; T has len entries, initialised here). */
static void
shift_to(mpfr_ptr T, mpfr_srcptr c, slong len, const mpfr_t r, mpfr_prec_t prec)
{
    for (slong k = 0; k < len; k++) {
        mpfr_init2(T + k, prec);
        mpfr_set(T + k, c + k, MPFR_RNDN);
    }
    for (slong i = 0; i < len - 1; i++)
        for (slong j = len - 2; j >= i; j--)
            hdo_fma_rn(T + j, r, T + j + 1, T + j); /* mpfr_fma's bits */
}

int
hdo_event_locate(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                 const mpfr_t tol, mpfr_srcptr floor, mpfr_prec_t prec)
{
    return locate(root, c, len, H, tol, floor, NULL, -1, prec);
}

int
hdo_event_locate_after(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                       const mpfr_t tol, mpfr_srcptr floor, mpfr_srcptr vfloor,
                       mpfr_srcptr slack, slong order, mpfr_prec_t prec)
{
    hdo_event_own_errors own = {vfloor, NULL, NULL, NULL};
    return hdo_event_locate_after_own(root, c, len, H, tol, floor, &own, slack,
                                      order, prec);
}

int
hdo_event_locate_after_own(mpfr_t root, mpfr_srcptr c, slong len,
                           const mpfr_t H, const mpfr_t tol, mpfr_srcptr floor,
                           const hdo_event_own_errors *own, mpfr_srcptr slack,
                           slong order, mpfr_prec_t prec)
{
    int st = locate(root, c, len, H, tol, floor, own, order, prec);
    if (st != HDO_EVENT || !mpfr_zero_p(root) || slack == NULL ||
        !mpfr_regular_p(slack) || len < 2)
        return st;
    /* Infeasible at the start.  The start is an event's time, known only
       to slack: if S rises back through zero within it (a triple root of
       h^3 located to tol^(1/3): h is a little past zero, h^3 negative,
       and rising), the arc starts on the surface and leaves it into the
       feasible side; the search goes on beyond the window. */
    mpfr_t w, r, rest;
    len = hdo_event_actual_len(c, len);
    mpfr_ptr negc = flint_malloc(len * sizeof *negc);
    mpfr_inits2(prec, w, r, rest, (mpfr_ptr)0);
    mpfr_min(w, slack, H, MPFR_RNDN);
    for (slong k = 0; k < len; k++) {
        mpfr_init2(negc + k, mpfr_get_prec(c + k));
        mpfr_neg(negc + k, c + k, MPFR_RNDN);
    }
    int up = hdo_event_locate(r, negc, len, w, tol, NULL, prec) == HDO_EVENT &&
             mpfr_sgn(r) > 0;
    for (slong k = 0; k < len; k++)
        mpfr_clear(negc + k);
    flint_free(negc);
    if (up) {
        /* the search goes on from the window's end, not from the zero
           itself: a triple zero is located to a third of the digits, and
           the series shifted there starts with its rounding */
        mpfr_ptr T = flint_malloc(len * sizeof *T);
        shift_to(T, c, len, w, prec);
        mpfr_sub(rest, H, w, MPFR_RNDN);
        int st2 = hdo_event_locate(root, T, len, rest, tol, floor, prec);
        if (st2 != HDO_EVENT || mpfr_sgn(root) > 0) {
            st = st2;
            if (st2 == HDO_EVENT)
                mpfr_add(root, root, w, MPFR_RNDN);
        } else {
            mpfr_set_zero(root, 1); /* infeasible after it too */
        }
        for (slong k = 0; k < len; k++)
            mpfr_clear(T + k);
        flint_free(T);
    }
    mpfr_clears(w, r, rest, (mpfr_ptr)0);
    return st;
}
