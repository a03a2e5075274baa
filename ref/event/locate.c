/* locate.c -- certified location of the first event of a switching function on
 * one Taylor step */
#include <stdlib.h>
#include <arb_poly.h>
#include "event.h"

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
   set a tolerance). */
static void
coef_scale(mpfr_t scale, mpfr_srcptr c, slong len, const mpfr_t H)
{
    mpfr_t p, term;
    mpfr_init2(p, 64);
    mpfr_init2(term, 64);
    mpfr_set_ui(p, 1, MPFR_RNDN);
    mpfr_set_ui(scale, 0, MPFR_RNDN);
    for (slong k = 0; k < len; k++) {
        mpfr_abs(term, c + k, MPFR_RNDU);
        mpfr_mul(term, term, p, MPFR_RNDU);
        if (mpfr_cmp(term, scale) > 0)
            mpfr_set(scale, term, MPFR_RNDU);
        mpfr_mul(p, p, H, MPFR_RNDU);
    }
    mpfr_clear(p);
    mpfr_clear(term);
}

/* Horner: f = P(x), fp = P'(x) for P = sum c_k x^k, len coefficients. */
static void
horner2(mpfr_t f, mpfr_t fp, mpfr_srcptr c, slong len, const mpfr_t x)
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

/* Refines the root of P in the bracket [a, b] (P(a) >= 0 >= P(b), at
   least one strict) by Newton steps safeguarded by bisection, until the
   bracket or the step is below 2^(2-prec) H.  Writes the root to x. */
static void
refine(mpfr_t x, mpfr_srcptr c, slong len, const mpfr_t a0, const mpfr_t b0,
       const mpfr_t H, mpfr_prec_t prec)
{
    mpfr_t a, b, f, fp, xn, eps, w;
    mpfr_inits2(prec, a, b, f, fp, xn, eps, w, (mpfr_ptr)0);
    mpfr_set(a, a0, MPFR_RNDN);
    mpfr_set(b, b0, MPFR_RNDN);
    mpfr_mul_2si(eps, H, 2 - (long)prec, MPFR_RNDN);
    mpfr_add(x, a, b, MPFR_RNDN);
    mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    /* Newton converges quadratically once close; the bisection fallback
       halves the bracket at worst, so 2 prec iterations always suffice. */
    for (long it = 0; it < 2 * (long)prec + 10; it++) {
        horner2(f, fp, c, len, x);
        if (mpfr_zero_p(f))
            break;
        if (mpfr_sgn(f) > 0)
            mpfr_set(a, x, MPFR_RNDN);
        else
            mpfr_set(b, x, MPFR_RNDN);
        mpfr_sub(w, b, a, MPFR_RNDN);
        if (mpfr_cmp(w, eps) <= 0) {
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
        if (newton_ok && mpfr_cmp(w, eps) <= 0)
            break;
    }
    mpfr_clears(a, b, f, fp, xn, eps, w, (mpfr_ptr)0);
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

typedef struct {
    arf_struct a, b;
} interval;

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

/* The search on Q (Q(0) > 0) over [0, H]: returns 1 and a bracket [a, b]
   (Q(a) >= 0 >= Q(b)) of the first sign change from + to -, or 0. */
static int
search(arf_t ra, arf_t rb, arb_srcptr Q, slong len, const arf_t H,
       const arf_t wmin, slong aprec)
{
    slong cap = 64, top = 0;
    interval *stack = flint_malloc(cap * sizeof *stack);
    arb_ptr T = _arb_vec_init(len);
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
    top = 1;
    while (top > 0 && !found) {
        interval iv = stack[--top]; /* take ownership of a, b */
        arf_add(m, &iv.a, &iv.b, ARF_PREC_EXACT, ARF_RND_DOWN);
        arf_mul_2exp_si(m, m, -1);
        arf_sub(r, &iv.b, &iv.a, ARF_PREC_EXACT, ARF_RND_DOWN);
        arf_mul_2exp_si(r, r, -1);
        enclose(q, dq, T, Q, len, m, r, aprec);
        int sq = arb_sign(q), sdq = arb_sign(dq);
        int split = 0;
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
            int sb = sign_at(Q, len, &iv.b, aprec);
            if (sb <= 0) { /* decreasing through zero in (a, b] */
                arf_set(ra, &iv.a);
                arf_set(rb, &iv.b);
                found = 1;
            }
        } else {
            arf_sub(w, &iv.b, &iv.a, ARF_PREC_EXACT, ARF_RND_DOWN);
            if (arf_cmp(w, wmin) <= 0) {
                /* a cluster of roots narrower than w_min: an event only if
                   it leaves S negative (see the comment at the top) */
                if (sign_at(Q, len, &iv.b, aprec) < 0) {
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
                cap *= 2;
                stack = flint_realloc(stack, cap * sizeof *stack);
            }
            /* right half below the left half: the left one is taken first */
            interval right, left;
            arf_init(&right.a);
            arf_init(&right.b);
            arf_set(&right.a, m);
            arf_set(&right.b, &iv.b);
            left = iv;
            arf_set(&left.b, m);
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
    flint_free(stack);
    _arb_vec_clear(T, len);
    arb_clear(q);
    arb_clear(dq);
    arf_clear(m);
    arf_clear(r);
    arf_clear(w);
    return found;
}

slong
hdo_event_zero_order(mpfr_srcptr c, slong len, const mpfr_t H, const mpfr_t tol,
                     mpfr_srcptr floor)
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
       below which the state's own errors hide S (event.h). */
    mpfr_t ztol, term, p;
    slong m;
    mpfr_inits2(64, ztol, term, p, (mpfr_ptr)0);
    coef_scale(ztol, c, len, H);
    mpfr_mul(ztol, ztol, tol, MPFR_RNDU);
    if (floor != NULL)
        mpfr_add(ztol, ztol, floor, MPFR_RNDU);
    mpfr_set_ui(p, 1, MPFR_RNDN);
    for (m = 0; m < len; m++) {
        mpfr_abs(term, c + m, MPFR_RNDN);
        mpfr_mul(term, term, p, MPFR_RNDN);
        if (mpfr_cmp(term, ztol) > 0)
            break;
        mpfr_mul(p, p, H, MPFR_RNDN);
    }
    mpfr_clears(ztol, term, p, (mpfr_ptr)0);
    return m;
}

int
hdo_event_locate(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                 const mpfr_t tol, mpfr_srcptr floor, mpfr_prec_t prec)
{
    mpfr_t term;
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
    m = hdo_event_zero_order(c, len, H, tol, floor);
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
    mpfr_init2(term, 64);

    {
        slong qlen = len - m;
        slong aprec = prec + 32;
        arb_ptr Q = _arb_vec_init(qlen);
        arf_t Ha, wmin, ra, rb;
        mpfr_t a, b, fa, fb, dummy;

        arf_init(Ha);
        for (slong k = 0; k < qlen; k++) { /* exact copies */
            arf_set_mpfr(Ha, c + m + k);
            arb_set_arf(Q + k, Ha);
        }
        arf_init(wmin);
        arf_init(ra);
        arf_init(rb);
        arf_set_mpfr(Ha, H);
        /* w_min = H sqrt(tol) / 4 */
        mpfr_sqrt(term, tol, MPFR_RNDD);
        mpfr_mul(term, term, H, MPFR_RNDD);
        mpfr_div_2ui(term, term, 2, MPFR_RNDD);
        arf_set_mpfr(wmin, term);

        if (!clearly_positive(Q, qlen, Ha) &&
            search(ra, rb, Q, qlen, Ha, wmin, aprec)) {
            mpfr_inits2(prec, a, b, fa, fb, dummy, (mpfr_ptr)0);
            arf_get_mpfr(a, ra, MPFR_RNDN);
            arf_get_mpfr(b, rb, MPFR_RNDN);
            if (mpfr_equal_p(a, b)) {
                mpfr_set(root, a, MPFR_RNDN);
            } else {
                /* Refine on S itself when it brackets the same root (the
                   dropped coefficients were noise, but S is the dense
                   output the states come from); otherwise on Q. */
                horner2(fa, dummy, c, len, a);
                horner2(fb, dummy, c, len, b);
                if (m > 0 && (mpfr_sgn(fa) < 0 || mpfr_sgn(fb) > 0))
                    refine(root, c + m, qlen, a, b, H, prec);
                else
                    refine(root, c, len, a, b, H, prec);
            }
            mpfr_clears(a, b, fa, fb, dummy, (mpfr_ptr)0);
            result = HDO_EVENT;
        }
        _arb_vec_clear(Q, qlen);
        arf_clear(Ha);
        arf_clear(wmin);
        arf_clear(ra);
        arf_clear(rb);
    }
    mpfr_clear(term);
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
            mpfr_fma(T + j, r, T + j + 1, T + j, MPFR_RNDN);
}

void
hdo_event_time_error(mpfr_t delta, mpfr_srcptr c, slong len, const mpfr_t H,
                     const mpfr_t tol, const mpfr_t root, mpfr_prec_t prec)
{
    /* S is known to ztol = tol scale, scale = max_k |c_k| r^k: relative
       to its size on [0, r], the arc up to the root (the zero rule's
       absolute term, or the size over the whole natural step H, would
       call the late bounces of a ball approaching its Zeno point
       undetermined, while they are computed, and checked against their
       closed form, to D digits), so its root r is only known to the
       smallest delta with
       sum_{k >= 1} |T_k| delta^k >= ztol, T_k the Taylor coefficients of
       S at r: ztol / |T_1| at a simple root, (ztol / |T_m|)^(1/m) at a
       root of multiplicity m, whatever the precision of the root
       finder.  min_k (ztol / |T_k|)^(1/k) estimates it to a factor of
       about len.  The Taylor shift is at the working precision: T_1
       cancels at a multiple root, and its rounding error (2^-prec times
       the coefficients) stays far below ztol. */
    mpfr_t ztol, d, lg;
    mpfr_ptr T = flint_malloc(len * sizeof *T);
    mpfr_inits2(64, ztol, d, lg, (mpfr_ptr)0);
    coef_scale(ztol, c, len, root);
    mpfr_mul(ztol, ztol, tol, MPFR_RNDU);
    shift_to(T, c, len, root, prec); /* T(u) = S(r + u) */
    mpfr_set_inf(delta, 1);
    for (slong k = 1; k < len; k++) {
        if (mpfr_zero_p(T + k))
            continue;
        /* d = (ztol / |T_k|)^(1/k) */
        mpfr_abs(d, T + k, MPFR_RNDN);
        mpfr_div(d, ztol, d, MPFR_RNDN);
        mpfr_log(lg, d, MPFR_RNDN);
        mpfr_div_si(lg, lg, k, MPFR_RNDN);
        mpfr_exp(d, lg, MPFR_RNDN);
        if (mpfr_cmp(d, delta) < 0)
            mpfr_set(delta, d, MPFR_RNDN);
    }
    for (slong k = 0; k < len; k++)
        mpfr_clear(T + k);
    flint_free(T);
    mpfr_clears(ztol, d, lg, (mpfr_ptr)0);
}

int
hdo_event_locate_after(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                       const mpfr_t tol, mpfr_srcptr floor, mpfr_srcptr slack,
                       mpfr_prec_t prec)
{
    int st = hdo_event_locate(root, c, len, H, tol, floor, prec);
    if (st != HDO_EVENT || !mpfr_zero_p(root) || slack == NULL ||
        !mpfr_regular_p(slack) || len < 2)
        return st;
    /* Infeasible at the start.  The start is an event's time, known only
       to slack: if S rises back through zero within it (a triple root of
       h^3 located to tol^(1/3): h is a little past zero, h^3 negative,
       and rising), the arc starts on the surface and leaves it into the
       feasible side; the search goes on beyond the window. */
    mpfr_t w, r, rest;
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
