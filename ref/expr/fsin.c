/* fsin.c -- sin and cos correctly rounded to nearest on the limbs, for
 * the working precisions up to 280 bits */
#include "fixed.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* Why.  The ring modulator's sources sin(20000 pi t) and sin(2000 pi t)
   are evaluated at each new stage time (the time-only operations are
   kept across a step's Newton iterations, D-097): after exp (D-117),
   mpfr_sin was 3.9% of that run at 16 digits, about 17,000 instructions
   a call at Radau's 170 bits.  As exp in fexp.c:

     x = k pi/2 + j/64 + r2,  |r2| <= 2^-7,  0 <= j <= 51,
     sin(j/64 + r2) = sin(j/64) cos(r2) + cos(j/64) sin(r2),
     cos(j/64 + r2) = cos(j/64) cos(r2) - sin(j/64) sin(r2),

   the quadrant k mod 4 choosing which of them, and its sign; cos(r2)
   and sin(r2)/r2 by their series in w = r2^2.  The value within E of
   |sin x| or |cos x| (see fsin_fixed) rounds to the same p-bit number
   as every number within E of it, or mpfr_sin / mpfr_cos decide (sin
   and cos of x != 0 are transcendental: no midpoint).  A result near
   zero (x near a multiple of pi/2) has fewer correct bits and goes to
   MPFR. */

#define EBOUND 64 /* the error bound, in units of 2^-F (see fsin_fixed) */

/* The terms of the series in w <= 2^-14 (tail under u/4): cos(r2)
   w^m/(2m)!, sin(r2) 2^-7 w^m/(2m + 1)!. */
static const int mcos_for[NMAX + 1] = {0, 0, 7, 10, 13, 16};
static const int msin_for[NMAX + 1] = {0, 0, 7, 10, 12, 15};

/* P := sum_(i < m) (-w)^i / (2i + off)! by Horner's rule (off 0: cos
   r2; 1: sin(r2)/r2): P_i = C_(2i + off) - W P_(i + 1), each P < 1 but
   P_0 <= 1. */
INLINE void
series_w(limb *P, const limb *W, int m, int off, int n)
{
    limb Q[NMAX + 1];
    memcpy(P, TAB(hdo_fixed_fact[2 * (m - 1) + off], n),
           (size_t)(n + 1) * sizeof(limb));
    Q[n] = 0;
    for (int i = m - 2; i >= 0; i--) {
        mulhi(Q, W, P, n);
        addsub(P, TAB(hdo_fixed_fact[2 * i + off], n), Q, n, 1);
    }
}

/* Y := |f(x)| on the limbs, f = sin (c = 0) or cos (c = 1), within
   EBOUND u; *sign f(x)'s sign.  Returns 0, or 1 when the reduction
   leaves its table.

   The error, in units u: r = x - k pi/2 within 3u (reduce, |k| <
   1,400), R2 exact from it, |R2| <= 2^-7; W = R2^2 within 5u (mulhi);
   each Horner step within (n + 1) u + w e_(i+1), so 6.1u, and W's
   error moves cos(r2) by 5u/2 and sin(r2)/r2 by 5u/6: Pc within 8.9u,
   Ps within 7.2u (tails under u/4); sin(r2) = R2 Ps within 5u + 2^-7
   7.2u = 5.1u (mul01).  A = sin(j/64) Pc within 1u + 0.72 8.9u + 5u =
   12.5u, B = cos(j/64) sin(r2) within 2^-7 u + 5.1u + 5u = 10.2u: sin
   a within 22.7u, and the 3u of r: 25.7u; cos a the same way: cos(j/64)
   Pc within 1u + 8.9u + 5u, sin(j/64) sin(r2) within 3.7u + 5u:
   23.6u + 3u.  Under 27u, held against EBOUND = 64. */
INLINE int
fsin_fixed(limb *Y, int *sign, mpfr_srcptr x, int n, int c)
{
    limb R[NMAX + 1], W[NMAX + 1], Pc[NMAX + 1], Ps[NMAX + 1], Sr[NMAX + 1],
        A[NMAX + 1], B[NMAX + 1];
    int sr, s2;
    long k = reduce(R, &sr, x, n, hdo_fixed_pi4, 2, 0.63661977236758134);
    /* |r| <= pi/4 + a little: j = round(64 |r|) <= 51 */
    long j = split64(R, &s2, n);
    if (j < 0 || j > HDO_FIXED_JSIN)
        return 1;
    R[n] = 0;
    mulhi(W, R, R, n);
    W[n] = 0;
    series_w(Pc, W, mcos_for[n], 0, n);
    series_w(Ps, W, msin_for[n], 1, n);
    mul01(Sr, R, Ps, n); /* |sin(r2)| */
    const limb *Sj = TAB(hdo_fixed_sin[j], n), *Cj = TAB(hdo_fixed_cos[j], n);
    /* the quadrant: f(x) = f(k pi/2 + r), r = sr a, a = j/64 + r2 >= 0;
       q = (k + c) mod 4: sin r, cos r, -sin r, -cos r */
    int q = (int)(((k + c) % 4 + 4) % 4);
    int s_out = q >= 2 ? -1 : 1;
    if (q == 0 || q == 2) { /* sin a = Sj Pc + s2 Cj Sr */
        mul01(A, Sj, Pc, n);
        mul01(B, Cj, Sr, n);
        s_out *= sr;
    } else { /* cos a = Cj Pc - s2 Sj Sr */
        mul01(A, Cj, Pc, n);
        mul01(B, Sj, Sr, n);
        s2 = -s2;
    }
    if (s2 > 0) {
        addsub(Y, A, B, n, 0);
    } else if (cmp(A, B, n) >= 0) {
        addsub(Y, A, B, n, 1);
    } else { /* sin a below its error: a near 0 */
        addsub(Y, B, A, n, 1);
        s_out = -s_out;
    }
    *sign = s_out;
    return 0;
}

/* r := sin(x) (c = 0) or cos(x) (c = 1) rounded to nearest when decided
   here (0), else 1. */
INLINE int
fsin_n(mpfr_ptr r, mpfr_srcptr x, int n, int c)
{
    limb Y[NMAX + 1];
    int sign;
    if (fsin_fixed(Y, &sign, x, n, c) != 0)
        return 1;
    return round_out(r, Y, n, EBOUND, 0, sign);
}

static int
fsin_limbs(mpfr_ptr r, mpfr_srcptr x, int c)
{
    int n = fixed_limbs(r, x);
    if (n == 0)
        return 1;
    return n == 2   ? fsin_n(r, x, 2, c)
           : n == 3 ? fsin_n(r, x, 3, c)
           : n == 4 ? fsin_n(r, x, 4, c)
                    : fsin_n(r, x, 5, c);
}

int
hdo_sin_rn_limbs(mpfr_ptr r, mpfr_srcptr x)
{
    return fsin_limbs(r, x, 0);
}

int
hdo_cos_rn_limbs(mpfr_ptr r, mpfr_srcptr x)
{
    return fsin_limbs(r, x, 1);
}

void
hdo_sin_rn(mpfr_ptr r, mpfr_srcptr x)
{
    if (fsin_limbs(r, x, 0) != 0)
        mpfr_sin(r, x, MPFR_RNDN);
}

void
hdo_cos_rn(mpfr_ptr r, mpfr_srcptr x)
{
    if (fsin_limbs(r, x, 1) != 0)
        mpfr_cos(r, x, MPFR_RNDN);
}
