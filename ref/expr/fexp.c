/* fexp.c -- exp correctly rounded to nearest on the limbs, for the
 * working precisions up to 280 bits */
#include <limits.h>
#include "fixed.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* Why.  The ring modulator's diodes evaluate exp four times a stage
   evaluation, 119 evaluations a Radau step: mpfr_exp was 22% of that
   run at 16 digits (87 bits), about 17,000 instructions a call
   (mpfr_exp_2's general argument reduction and series on mpz).  Here
   exp(x) is computed in fixed point with F = 64 n fraction bits (n = 2
   to 5 limbs, at least 40 bits more than the result's precision p;
   fixed.h):

     x = k ln2 + j/64 + r2,  |r2| <= 2^-7,
     exp(x) = 2^k exp(j/64) exp(r2),

   exp(j/64) from a table, exp(r2) by its Taylor series to the term
   under 2^-F, and the sum within a bound E of exp(x) 2^-k (see
   fexp_fixed).  When every number within E of the approximation rounds
   to the same p-bit number (the nearest midpoint of two p-bit numbers
   is farther than E), that number is exp(x) correctly rounded: the bits
   of mpfr_exp(r, x, MPFR_RNDN).  exp(x) is never a midpoint (it is
   transcendental for x != 0), so no tie is decided here.  Otherwise
   (about once in 2^35 random arguments, far more often for a tiny x of
   few bits, whose exp lies within x^2 of a midpoint), for special values, |x|
   >= 2^11, precisions above 280 bits and results out of MPFR's exponent range,
   mpfr_exp does the work. */

#define EBOUND 32 /* the error bound, in units of 2^-F (see fexp_fixed) */

/* V := a fixed-point approximation of exp(x) 2^-k (n + 1 limbs, F = 64 n
   fraction bits) with |V 2^-F - exp(x) 2^-k| < EBOUND 2^-F, |x| < 2^11.
   Returns k, or LONG_MIN when the reduction leaves its table.

   The error, in units u = 2^-F: X = floor(|x| 2^F) is within u of |x|;
   K = floor(|k| floor(ln2 2^(F+64)) 2^-64) within (1 + |k| 2^-64) u <
   2u of |k| ln2 (|k| < 3,000); so r = x - k ln2 is known within 3u,
   exactly reduced by j/64 (6 bits) to R2, |R2| <= 2^-7: exp(R2) is
   within 3.1u relative of exp(r - j/64).  Horner's rule S_i = C_i +
   R2 S_(i+1) with C_i = floor(2^F / i!) (error < u) and products short
   by under n u (mulhi, n <= 5) is within (n + 1) u + 2^-7 e_(i+1), so
   e_0 < 6.05u, plus the series' tail |R2|^N/N! e^|R2| < u/2 (N =
   nterms): S within 6.6u of exp(R2), S < 1.008.  V = T S 2^-F, T =
   floor(exp(j/64) 2^F) < 1.44: T's error times S (1.01u), exp(j/64)
   times S's (9.5u), mulhi's (5u) and the reduction's 3.1u relative of
   V < 1.46 (4.6u):
   under 21u, held against EBOUND = 32. */
INLINE long
fexp_fixed(limb *V, mpfr_srcptr x, int n, int nterms)
{
    limb R[NMAX + 1], S[NMAX + 1], Q[NMAX + 1];
    int sr, s2;
    long k = reduce(R, &sr, x, n, hdo_fixed_ln2, 1, 1.4426950408889634);
    /* |r| < 0.36: j = round(64 |r|) */
    long jm = split64(R, &s2, n);
    if (jm < 0 || jm > HDO_FIXED_JEXP)
        return LONG_MIN;
    s2 *= sr;
    long j = sr < 0 ? -jm : jm;
    /* S = sum_(i < nterms) R2^i / i! by Horner's rule: S < 1 (no
       integer limb) up to S_1, which may reach 1 + 2^-7 */
    memcpy(S, TAB(hdo_fixed_fact[nterms - 1], n),
           (size_t)(n + 1) * sizeof(limb));
    Q[n] = 0;
    for (int i = nterms - 2; i >= 0; i--) {
        mulhi(Q, R, S, n);
        if (S[n] != 0) /* R (1 + frac) */
            addsub(Q, Q, R, n, 0);
        addsub(S, TAB(hdo_fixed_fact[i], n), Q, n, s2 < 0);
    }
    /* V = T S 2^-F, T = exp(j/64) < 1.44, S < 1.01 */
    mul01(V, TAB(hdo_fixed_exp[j + HDO_FIXED_JEXP], n), S, n);
    return k;
}

/* The terms of exp(R2)'s series, |R2| <= 2^-7: 2^(-7 nt)/nt! e^(1/128)
   < 2^-(F+1). */
static const int nterms_for[NMAX + 1] = {0, 0, 14, 20, 25, 31};

/* r := exp(x) rounded to nearest when decided here (0), else 1. */
INLINE int
fexp_n(mpfr_ptr r, mpfr_srcptr x, int n)
{
    limb V[NMAX + 1];
    long k = fexp_fixed(V, x, n, nterms_for[n]);
    return k == LONG_MIN ? 1 : round_out(r, V, n, EBOUND, k, 1);
}

int
hdo_exp_rn_limbs(mpfr_ptr r, mpfr_srcptr x)
{
    /* n a constant in each copy: the loops unroll */
    switch (fixed_limbs(r, x)) {
    case 0:
        return 1;
    case 2:
        return fexp_n(r, x, 2);
    case 3:
        return fexp_n(r, x, 3);
    case 4:
        return fexp_n(r, x, 4);
    default:
        return fexp_n(r, x, 5);
    }
}

void
hdo_exp_rn(mpfr_ptr r, mpfr_srcptr x)
{
    if (hdo_exp_rn_limbs(r, x) != 0)
        mpfr_exp(r, x, MPFR_RNDN);
}
