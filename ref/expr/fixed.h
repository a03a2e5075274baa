/* fixed.h -- internal: fixed-point numbers on the limbs for the
 * correctly rounded elementary functions (fexp.c: exp; fsin.c: sin,
 * cos) */
#ifndef HDO_EXPR_FIXED_H
#define HDO_EXPR_FIXED_H

#include <string.h>
#include "expr.h"
#include "mac.h"

/* A number is n + 1 limbs, least significant first: n limbs of F = 64 n
   fraction bits and one of integer part; u = 2^-F its unit.  n = 2..5
   limbs, F at least GUARD bits above the result's precision p. */
typedef mp_limb_t limb;
typedef unsigned __int128 dlimb;
#define LB 64
#define NMAX 5    /* fraction limbs handled */
#define TMAX 5    /* fraction limbs of the tables */
#define NTERMS 31 /* 1/i! for i < NTERMS */
#define GUARD 40  /* bits of F above p */
#define INLINE static inline __attribute__((always_inline))

#define HDO_FIXED_JEXP 24 /* exp(j/64) for |j| <= 24 */
#define HDO_FIXED_JSIN 52 /* sin, cos of j/64 for 0 <= j <= 52 */
/* The tables (fixed.c): floor(v 2^(64 TMAX)) with an integer limb; the
   constants c < 1 of the reductions on TMAX + 1 fraction limbs,
   floor(c 2^(64 (TMAX + 1))). */
extern limb hdo_fixed_fact[NTERMS][TMAX + 1]; /* 1/i! */
extern limb hdo_fixed_exp[2 * HDO_FIXED_JEXP + 1][TMAX + 1];
extern limb hdo_fixed_sin[HDO_FIXED_JSIN + 1][TMAX + 1];
extern limb hdo_fixed_cos[HDO_FIXED_JSIN + 1][TMAX + 1];
extern limb hdo_fixed_ln2[TMAX + 1];
extern limb hdo_fixed_pi4[TMAX + 1];
/* out := floor(v 2^bits) on `len` limbs (v >= 0) */
void hdo_fixed_floor(limb *out, int len, mpfr_srcptr v, long bits);
/* the tables, made once (any thread, any exponent range) */
void hdo_fixed_init(void);
/* the n + 1 limbs of a table entry at F = 64 n: its top limbs (the
   floor of the floor is the floor) */
#define TAB(t, n) ((t) + TMAX - (n))

/* Q := A B 2^-F (A, B and Q of n limbs, F = 64 n) from the partial
   products A_i B_l with i + l >= n - 1 only, summed column by column:
   at most floor(A B 2^-F), less by under n (the columns below n - 1 hold
   under n - 1 units, the floor one more). */
INLINE void
mulhi(limb *Q, const limb *A, const limb *B, int n)
{
    limb c0 = 0, c1 = 0, c2 = 0; /* the column's sum */
    for (int c = n - 1; c <= 2 * n - 2; c++) {
        for (int i = c - n + 1 > 0 ? c - n + 1 : 0; i <= c && i < n; i++)
            MAC3(c0, c1, c2, A[i], B[c - i]);
        if (c >= n)
            Q[c - n] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
    Q[n - 1] = c0;
}

/* R := A + B or A - B (A >= B), n + 1 limbs; returns the carry */
INLINE limb
addsub(limb *R, const limb *A, const limb *B, int n, int sub)
{
    limb c = 0;
    for (int i = 0; i <= n; i++) {
        limb t;
        if (sub) {
            limb b1 = __builtin_sub_overflow(A[i], B[i], &t);
            limb b2 = __builtin_sub_overflow(t, c, &R[i]);
            c = b1 | b2;
        } else {
            limb c1 = __builtin_add_overflow(A[i], B[i], &t);
            limb c2 = __builtin_add_overflow(t, c, &R[i]);
            c = c1 | c2;
        }
    }
    return c;
}

INLINE int
cmp(const limb *A, const limb *B, int n)
{
    for (int i = n; i >= 0; i--)
        if (A[i] != B[i])
            return A[i] < B[i] ? -1 : 1;
    return 0;
}

/* 64 bits of the integer M (len limbs) from bit pos up (bits outside
   M are 0) */
INLINE limb
bits_at(const limb *M, int len, long pos)
{
    long q = pos >= 0 ? pos / LB : -((-pos + LB - 1) / LB);
    int s = (int)(pos - q * LB);
    limb lo = q >= 0 && q < len ? M[q] : 0;
    limb hi = q + 1 >= 0 && q + 1 < len ? M[q + 1] : 0;
    return s == 0 ? lo : (lo >> s | hi << (LB - s));
}

/* P := A B 2^-F for A, B < 2 (integer limbs 0 or 1): the fractions'
   product (mulhi) and the integer limbs' terms; short by under n u. */
INLINE void
mul01(limb *P, const limb *A, const limb *B, int n)
{
    limb Q[NMAX + 1];
    mulhi(P, A, B, n);
    P[n] = 0;
    if (A[n] != 0)
        addsub(P, P, B, n, 0);
    if (B[n] != 0) {
        memcpy(Q, A, (size_t)n * sizeof(limb));
        Q[n] = 0; /* A_int B_int is in B above */
        addsub(P, P, Q, n, 0);
    }
}

/* The reduction x = k c + r on the limbs: R := |r| (n + 1 limbs), *sr its
   sign, k = round(x inv) from doubles (any k near it will do), c =
   mult C (C < 1 the constant's table on TMAX + 1 fraction limbs).
   |x| < 2^11.  r is within 3u: X = floor(|x| 2^F) within u of |x|, K =
   floor(|k| mult floor(C 2^(F + 64)) 2^-64) within (1 + |k| mult 2^-64)
   u < 2u of |k| c. */
INLINE long
reduce(limb *R, int *sr, mpfr_srcptr x, int n, const limb *Ctab,
       unsigned long mult, double inv)
{
    const long F = LB * n;
    int nx = (int)((mpfr_get_prec(x) + LB - 1) / LB);
    long e = mpfr_get_exp(x);
    limb X[NMAX + 1], K[NMAX + 1];
    /* X = floor(|x| 2^F): x's significand M (nx limbs, value M 2^(e -
       64 nx)) shifted by e + F - 64 nx */
    long sh = e + F - LB * (long)nx;
    for (int i = 0; i <= n; i++)
        X[i] = e < -F - LB ? 0 : bits_at(x->_mpfr_d, nx, LB * (long)i - sh);
    int sx = mpfr_signbit(x) ? -1 : 1;
    double kd = mpfr_get_d(x, MPFR_RNDN) * inv;
    long k = (long)(kd < 0 ? kd - 0.5 : kd + 0.5);
    unsigned long ak = (unsigned long)(k < 0 ? -k : k) * mult;
    /* K = floor(ak L 2^-64), L = floor(C 2^(F + 64)) on n + 1 limbs */
    const limb *L = TAB(Ctab, n);
    limb c = 0;
    for (int i = 0; i <= n; i++) {
        dlimb t = (dlimb)L[i] * ak + c;
        if (i > 0)
            K[i - 1] = (limb)t;
        c = (limb)(t >> LB);
    }
    K[n] = c;
    /* r = sign(x) (X - K) (k has x's sign or is 0) */
    *sr = sx;
    if (cmp(X, K, n) >= 0) {
        addsub(R, X, K, n, 1);
    } else {
        addsub(R, K, X, n, 1);
        *sr = -sx;
    }
    return k;
}

/* R (|r| < 1) := |R2|, R2 = |r| - j/64 exactly, j = round(64 |r|) (the
   return), *s2 the sign of R2; |R2| <= 2^-7.  -1 when |r| >= 1. */
INLINE long
split64(limb *R, int *s2, int n)
{
    if (R[n] != 0)
        return -1;
    limb top = R[n - 1];
    long jm = (long)((top >> 57) + 1) >> 1;
    limb jl = (limb)jm << 58;
    *s2 = 1;
    R[n - 1] = top - jl;
    if (top < jl) {  /* R2 = j/64 - |r|: two's complement, negated */
        limb b = 1; /* -R = ~R + 1 over the n limbs */
        for (int i = 0; i < n; i++) {
            R[i] = ~R[i] + b;
            b = b && R[i] == 0;
        }
        *s2 = -1;
    }
    return jm;
}

/* The fraction limbs n (2..5) for r of p bits (F >= p + GUARD) when x is
   regular with |x| < 2^11 and p <= 280, the tables then made; else 0. */
INLINE int
fixed_limbs(mpfr_srcptr r, mpfr_srcptr x)
{
    mpfr_prec_t p = mpfr_get_prec(r);
    if (!mpfr_regular_p(x) || mpfr_get_exp(x) > 11 || p > LB * NMAX - GUARD)
        return 0;
    hdo_fixed_init();
    int n = (int)((p + GUARD + LB - 1) / LB);
    return n < 2 ? 2 : n;
}

/* r := sign V 2^(ex0 - F) rounded to nearest to r's precision p, V
   (n + 1 limbs) within E u of the exact value, which is no midpoint:
   0 when every number within E u of V rounds to the same p bits (the
   nearest midpoint farther than E u: V - E + half and V + E + half agree
   from the ulp's bit b up; near a power of two both binades round to
   it), else 1 (r untouched), also when V has fewer than p + 8 bits or the
   result leaves MPFR's exponent range. */
INLINE int
round_out(mpfr_ptr r, const limb *V, int n, limb E, long ex0, int sign)
{
    const long F = LB * n;
    mpfr_prec_t p = mpfr_get_prec(r);
    int hi = n;
    while (hi > 0 && V[hi] == 0)
        hi--;
    if (V[hi] == 0)
        return 1;
    long b = LB * (long)hi + (LB - 1 - __builtin_clzl(V[hi])) - p + 1;
    if (b < 8)
        return 1;
    limb H[NMAX + 1] = {0}, A[NMAX + 1], B[NMAX + 1], Eb[NMAX + 1] = {0};
    H[(b - 1) / LB] = (limb)1 << ((b - 1) % LB);
    Eb[0] = E;
    addsub(A, V, H, n, 0);
    memcpy(B, A, sizeof A);
    addsub(A, A, Eb, n, 1);
    addsub(B, B, Eb, n, 0);
    int q = (int)(b / LB), s = (int)(b % LB);
    limb mask = ~(((limb)1 << s) - 1);
    if ((A[q] & mask) != (B[q] & mask))
        return 1;
    for (int i = q + 1; i <= n; i++)
        if (A[i] != B[i])
            return 1;
    /* the result: V + half with the bits under b cleared (one more bit
       after a carry to a power of two) */
    limb M[NMAX + 1];
    addsub(M, V, H, n, 0);
    for (int i = 0; i < q; i++)
        M[i] = 0;
    M[q] &= mask;
    hi = n;
    while (M[hi] == 0)
        hi--;
    long top = LB * (long)hi + (LB - 1 - __builtin_clzl(M[hi]));
    long ex = top - F + 1 + ex0; /* MPFR's: value 0.m 2^ex */
    if (ex < mpfr_get_emin() || ex > mpfr_get_emax())
        return 1;
    int nr = (int)((p + LB - 1) / LB);
    for (int i = 0; i < nr; i++)
        r->_mpfr_d[i] = bits_at(M, n + 1, top + 1 - LB * (long)(nr - i));
    r->_mpfr_exp = ex;
    r->_mpfr_sign = sign;
    return 0;
}

#endif
