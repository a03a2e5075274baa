/* farith.h -- internal: add, sub and mul correctly rounded to nearest on
 * 2 to 4 limbs, inline (program.c) and behind hdo_add_rn, hdo_sub_rn,
 * hdo_mul_rn (farith.c); decisions.md D-132 */
#ifndef HDO_EXPR_FARITH_H
#define HDO_EXPR_FARITH_H

#include "expr.h"

/* mac.h's names (as fixed.h's) */
typedef mp_limb_t limb;
typedef unsigned __int128 dlimb;
#define LB 64
#include "mac.h"

/* Why.  At 16 digits Radau works on 170 bits, three limbs, and about
   half of the ring modulator's run was MPFR's add, sub and mul with
   their calls: the library's entry, its dispatch on the precision, the
   thread-local exponent range and flags (__tls_get_addr), for some 60 to
   110 instructions of arithmetic.  A result rounded to nearest (ties to
   even) is one number, whoever computes it: here the exact sum or
   product is formed on the limbs, rounded once, and written into r's
   limbs as MPFR's documented struct holds them (the value 0.d 2^exp,
   d's top bit set).  So r gets mpfr_add's (mpfr_sub's, mpfr_mul's) bits.
   MPFR does the work for operands that are zero, infinite or NaN, for
   precisions that differ or lie outside 65..256 bits, for a zero
   difference (its sign) and for a result whose exponent lies within 2
   of the exponent range's ends (overflow, underflow and their flags);
   the inexact flag is not set here. */

#define FA_INLINE static inline __attribute__((always_inline))
#define FA_NMAX 4

typedef mp_limb_t fa_limb;

/* W (n + 1 limbs, W[n]'s top bit set) times 2^(e - 64 (n + 1)), plus
   less than one unit of W[0] when st: rounded to nearest, ties to even,
   to p bits into r.  0, or 1 (r untouched) when the exponent is near the
   range's ends. */
FA_INLINE int
fa_round(mpfr_ptr r, const fa_limb *W, fa_limb st, mpfr_exp_t e, int sign,
         int n, mpfr_prec_t p, const hdo_erange *er)
{
    int sh = (int)(64 * n - p); /* 0..63: the bits of d below the ulp */
    fa_limb rb, M[FA_NMAX];
    HDO_UNROLL(16)
    for (int i = 0; i < n; i++)
        M[i] = W[i + 1];
    if (sh > 0) {
        fa_limb low = M[0] & (((fa_limb)1 << sh) - 1);
        rb = low >> (sh - 1);
        st |= (low & (((fa_limb)1 << (sh - 1)) - 1)) | W[0];
        M[0] -= low;
    } else {
        rb = W[0] >> 63;
        st |= W[0] << 1;
    }
    if (rb && (st || ((M[0] >> sh) & 1))) {
        fa_limb c = (fa_limb)1 << sh;
        HDO_UNROLL(16)
        for (int i = 0; i < n; i++) {
            M[i] += c;
            c = M[i] < c;
        }
        if (c) { /* up to the next power of two */
            M[n - 1] = (fa_limb)1 << 63;
            e++;
        }
    }
    if (e <= er->emin + 1 || e >= er->emax - 1)
        return 1;
    HDO_UNROLL(16)
    for (int i = 0; i < n; i++)
        r->_mpfr_d[i] = M[i];
    r->_mpfr_exp = e;
    r->_mpfr_sign = sign;
    return 0;
}

/* The limbs n (2..4) of r when r, a and b share a precision of 65 to 256
   bits and a, b are regular numbers; else 0. */
FA_INLINE int
fa_limbs(mpfr_srcptr r, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_prec_t p = r->_mpfr_prec;
    if (a->_mpfr_prec != p || b->_mpfr_prec != p || p <= 64 ||
        p > 64 * FA_NMAX || !mpfr_regular_p(a) || !mpfr_regular_p(b))
        return 0;
    return (int)((p + 63) / 64);
}

FA_INLINE int
fa_mul_n(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, int n,
         const hdo_erange *er)
{
    const fa_limb *A = a->_mpfr_d, *B = b->_mpfr_d;
    fa_limb P[2 * FA_NMAX], c0 = 0, c1 = 0;
    /* the exact product, column by column */
    HDO_UNROLL(16)
    for (int k = 0; k <= 2 * n - 2; k++) {
        fa_limb c2 = 0;
        HDO_UNROLL(16)
        for (int i = k - n + 1 > 0 ? k - n + 1 : 0; i <= k && i < n; i++)
            MAC3(c0, c1, c2, A[i], B[k - i]);
        P[k] = c0;
        c0 = c1;
        c1 = c2;
    }
    P[2 * n - 1] = c0;
    mpfr_exp_t e = a->_mpfr_exp + b->_mpfr_exp;
    fa_limb st = 0;
    HDO_UNROLL(16)
    for (int i = 0; i < n - 2; i++)
        st |= P[i];
    if (!(P[2 * n - 1] >> 63)) { /* a product of two halves or more: < 1 */
        HDO_UNROLL(16)
        for (int i = 2 * n - 1; i > n - 2; i--)
            P[i] = P[i] << 1 | P[i - 1] >> 63;
        st |= P[n - 2] << 1;
        e--;
    } else {
        st |= P[n - 2];
    }
    return fa_round(r, P + n - 1, st, e, a->_mpfr_sign * b->_mpfr_sign, n,
                    r->_mpfr_prec, er);
}

/* Y (n + 2 limbs, Y[n + 1] = 0) := Y / 2^(64 q), q <= n, the limbs
   shifted out or-ed into *st */
FA_INLINE void
fa_shift_limbs(fa_limb *Y, fa_limb *st, int n, int q)
{
    HDO_UNROLL(16)
    for (int i = 0; i < q; i++)
        *st |= Y[i];
    HDO_UNROLL(16)
    for (int i = 0; i <= n + 1; i++)
        Y[i] = i + q <= n + 1 ? Y[i + q] : 0;
}

/* a + b (neg = 0) or a - b (neg = 1) */
FA_INLINE int
fa_add_n(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, int neg, int n,
         const hdo_erange *er)
{
    mpfr_srcptr x = a, y = b;
    int sx = a->_mpfr_sign, sy = neg ? -b->_mpfr_sign : b->_mpfr_sign;
    if (a->_mpfr_exp < b->_mpfr_exp) {
        x = b;
        y = a;
        int t = sx;
        sx = sy;
        sy = t;
    }
    mpfr_uexp_t d = (mpfr_uexp_t)x->_mpfr_exp - (mpfr_uexp_t)y->_mpfr_exp;
    if (d >= (mpfr_uexp_t)r->_mpfr_prec + 2) {
        /* |y| < ulp(x)/4, below half of either ulp next to x: x */
        if (x->_mpfr_exp <= er->emin + 1 || x->_mpfr_exp >= er->emax - 1)
            return 1;
        if (r != x) {
            HDO_UNROLL(16)
            for (int i = 0; i < n; i++)
                r->_mpfr_d[i] = x->_mpfr_d[i];
            r->_mpfr_exp = x->_mpfr_exp;
        }
        r->_mpfr_sign = sx;
        return 0;
    }
    if (d < 64) {
        /* y within a limb: y >> d and the bits below, in registers;
           exact */
        const fa_limb *X = x->_mpfr_d, *Yl = y->_mpfr_d;
        int add = sx == sy;
        if (d == 0 && !add) { /* the larger on top */
            int i = n - 1;
            while (i > 0 && X[i] == Yl[i])
                i--;
            if (X[i] == Yl[i])
                return 1; /* a zero difference: its sign is MPFR's */
            if (X[i] < Yl[i]) {
                const fa_limb *t = X;
                X = Yl;
                Yl = t;
                sx = sy;
            }
        }
        fa_limb V[FA_NMAX + 1], Ys[FA_NMAX];
        int sd = (int)d;
        if (sd > 0) {
            V[0] = Yl[0] << (64 - sd);
            HDO_UNROLL(16)
            for (int i = 0; i < n - 1; i++)
                Ys[i] = Yl[i] >> sd | Yl[i + 1] << (64 - sd);
            Ys[n - 1] = Yl[n - 1] >> sd;
        } else {
            V[0] = 0;
            HDO_UNROLL(16)
            for (int i = 0; i < n; i++)
                Ys[i] = Yl[i];
        }
        mpfr_exp_t e = x->_mpfr_exp;
        fa_limb c = 0, st = 0;
        if (add) {
            HDO_UNROLL(16)
            for (int i = 0; i < n; i++) {
                fa_limb t = X[i] + c;
                c = t < c;
                V[i + 1] = t + Ys[i];
                c |= V[i + 1] < t;
            }
            if (c) {
                st = V[0] & 1;
                HDO_UNROLL(16)
                for (int i = 0; i < n; i++)
                    V[i] = V[i] >> 1 | V[i + 1] << 63;
                V[n] = V[n] >> 1 | (fa_limb)1 << 63;
                e++;
            }
        } else {
            /* |x| - |y| > 0 */
            c = V[0] != 0;
            V[0] = -V[0];
            HDO_UNROLL(16)
            for (int i = 0; i < n; i++) {
                fa_limb t = X[i] - Ys[i];
                fa_limb b1 = X[i] < Ys[i];
                V[i + 1] = t - c;
                c = b1 | (t < c);
            }
            while (V[n] == 0) { /* d <= 1 cancels: whole limbs */
                HDO_UNROLL(16)
                for (int i = n; i > 0; i--)
                    V[i] = V[i - 1];
                V[0] = 0;
                e -= 64;
            }
            int lz = __builtin_clzl(V[n]);
            if (lz > 0) {
                HDO_UNROLL(16)
                for (int i = n; i > 0; i--)
                    V[i] = V[i] << lz | V[i - 1] >> (64 - lz);
                V[0] <<= lz;
                e -= lz;
            }
        }
        return fa_round(r, V, st, e, sx, n, r->_mpfr_prec, er);
    }
    /* |x| 2^(64 - ex) and |y| shifted by d = ex - ey <= p + 1 on n + 1
       limbs */
    fa_limb W[FA_NMAX + 1], Y[FA_NMAX + 2], st = 0;
    W[0] = 0;
    Y[0] = 0;
    Y[n + 1] = 0;
    HDO_UNROLL(16)
    for (int i = 0; i < n; i++) {
        W[i + 1] = x->_mpfr_d[i];
        Y[i + 1] = y->_mpfr_d[i];
    }
    if (d > 0) {
        /* q whole limbs (q <= n: d <= p + 1), a constant in each case,
           then s bits */
        int q = (int)(d / 64), s = (int)(d % 64);
        switch (q) {
        case 0:
            break;
        case 1:
            fa_shift_limbs(Y, &st, n, 1);
            break;
        case 2:
            fa_shift_limbs(Y, &st, n, 2);
            break;
        case 3:
            fa_shift_limbs(Y, &st, n, 3);
            break;
        default:
            fa_shift_limbs(Y, &st, n, 4);
            break;
        }
        if (s > 0) {
            st |= Y[0] << (64 - s);
            HDO_UNROLL(16)
            for (int i = 0; i <= n; i++)
                Y[i] = Y[i] >> s | Y[i + 1] << (64 - s);
        }
    }
    st = st != 0;
    mpfr_exp_t e = x->_mpfr_exp;
    if (sx == sy) {
        fa_limb c = 0;
        HDO_UNROLL(16)
        for (int i = 0; i <= n; i++) {
            fa_limb t = W[i] + c;
            c = t < c;
            W[i] = t + Y[i];
            c |= W[i] < t;
        }
        if (c) { /* a carry: one bit right, the top set */
            st |= W[0] & 1;
            HDO_UNROLL(16)
            for (int i = 0; i < n; i++)
                W[i] = W[i] >> 1 | W[i + 1] << 63;
            W[n] = W[n] >> 1 | (fa_limb)1 << 63;
            e++;
        }
        return fa_round(r, W, st, e, sx, n, r->_mpfr_prec, er);
    }
    if (d == 0) { /* the larger on top; a zero difference is MPFR's */
        int i = n;
        while (i > 0 && W[i] == Y[i])
            i--;
        if (i == 0)
            return 1;
        if (W[i] < Y[i]) {
            HDO_UNROLL(16)
            for (int k = 1; k <= n; k++) {
                fa_limb t = W[k];
                W[k] = Y[k];
                Y[k] = t;
            }
            sx = sy;
        }
    }
    /* W - Y, less one unit when bits of y lie below the window: the
       exact difference is then within one unit above, which only the
       sticky bit sees (the top moves by one bit at most: d > 64) */
    fa_limb bo = st;
    HDO_UNROLL(16)
    for (int i = 0; i <= n; i++) {
        fa_limb t = W[i] - Y[i];
        fa_limb b1 = W[i] < Y[i];
        W[i] = t - bo;
        bo = b1 | (t < bo);
    }
    int h = n;
    while (W[h] == 0)
        h--;
    int lz = __builtin_clzl(W[h]), q = n - h;
    if (q > 0 || lz > 0) {
        HDO_UNROLL(16)
        for (int i = n; i >= 0; i--) {
            fa_limb hi = i - q >= 0 ? W[i - q] : 0;
            fa_limb lo = i - q - 1 >= 0 ? W[i - q - 1] : 0;
            W[i] = lz ? hi << lz | lo >> (64 - lz) : hi;
        }
        e -= 64 * q + lz;
    }
    return fa_round(r, W, st, e, sx, n, r->_mpfr_prec, er);
}

FA_INLINE int
fa_mul(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, const hdo_erange *er)
{
    switch (fa_limbs(r, a, b)) {
    case 2:
        return fa_mul_n(r, a, b, 2, er);
    case 3:
        return fa_mul_n(r, a, b, 3, er);
    case 4:
        return fa_mul_n(r, a, b, 4, er);
    default:
        return 1;
    }
}

FA_INLINE int
fa_add(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b, int neg,
       const hdo_erange *er)
{
    switch (fa_limbs(r, a, b)) {
    case 2:
        return fa_add_n(r, a, b, neg, 2, er);
    case 3:
        return fa_add_n(r, a, b, neg, 3, er);
    case 4:
        return fa_add_n(r, a, b, neg, 4, er);
    default:
        return 1;
    }
}

#endif
