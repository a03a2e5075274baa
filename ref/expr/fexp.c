/* fexp.c -- exp correctly rounded to nearest on the limbs, for the
 * working precisions up to 280 bits */
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include "expr.h"
#include "mac.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* Why.  The ring modulator's diodes evaluate exp four times a stage
   evaluation, 119 evaluations a Radau step: mpfr_exp was 22% of that
   run at 16 digits (87 bits), about 17,000 instructions a call
   (mpfr_exp_2's general argument reduction and series on mpz).  Here
   exp(x) is computed in fixed point with F = 64 n fraction bits (n = 2
   or 3 limbs, at least 40 bits more than the result's precision p):

     x = k ln2 + j/64 + r2,  |r2| <= 2^-7,
     exp(x) = 2^k exp(j/64) exp(r2),

   exp(j/64) from a table, exp(r2) by its Taylor series to the term
   under 2^-F, and the sum within a bound E of exp(x) 2^-k (see
   fexp_fixed).  When every number within E of the approximation rounds
   to the same p-bit number (the nearest midpoint of two p-bit numbers
   is farther than E), that number is exp(x) correctly rounded: the bits
   of mpfr_exp(r, x, MPFR_RNDN).  exp(x) is never a midpoint (it is
   transcendental for x != 0), so no tie is decided here.  Otherwise,
   about once in 2^35 calls, and for special values, |x| >= 2^11,
   precisions above 280 bits and results out of MPFR's exponent range,
   mpfr_exp does the work. */

typedef mp_limb_t limb;
typedef unsigned __int128 dlimb;
#define LB 64
#define NMAX 5    /* fraction limbs handled here */
#define TMAX 5    /* fraction limbs of the tables */
#define JMAX 24   /* exp(j/64) for |j| <= JMAX */
#define NTERMS 31 /* 1/i! for i < NTERMS */
#define EBOUND 32 /* the error bound, in units of 2^-F (see fexp_fixed) */
#define GUARD 40  /* bits of F above p */
#define INLINE static inline __attribute__((always_inline))

/* The tables, floor(v 2^(64 TMAX)) with one more limb for the integer
   part: exp(j/64), 1/i!, and ln2 with a limb more (for k ln2). */
static limb tab_exp[2 * JMAX + 1][TMAX + 1];
static limb tab_fact[NTERMS][TMAX + 1];
static limb tab_ln2[TMAX + 1];
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;
static int tab_ready; /* set (release) once the tables are written */

/* out := floor(v 2^(64 bits)) on `len` limbs (v >= 0) */
static void
floor_limbs(limb *out, int len, mpfr_srcptr v, long bits)
{
    mpz_t z;
    mpz_init(z);
    mpfr_t w;
    mpfr_init2(w, mpfr_get_prec(v));
    mpfr_mul_2si(w, v, bits, MPFR_RNDN); /* exact */
    mpfr_get_z(z, w, MPFR_RNDD);
    HDO_ASSERT(mpz_sizeinbase(z, 2) <= (size_t)(len * LB));
    memset(out, 0, (size_t)len * sizeof(limb));
    mpz_export(out, NULL, -1, sizeof(limb), 0, 0, z);
    mpfr_clear(w);
    mpz_clear(z);
}

static void
tab_init(void)
{
    /* 640 bits hold every table entry's 384 and 256 more: each entry
       rounded down there, then floored, is within 2^-600 of its floor */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min()); /* v 2^384 in any caller's range */
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_t v;
    mpfr_init2(v, 640);
    for (int j = -JMAX; j <= JMAX; j++) {
        mpfr_set_si(v, j, MPFR_RNDN);
        mpfr_div_ui(v, v, 64, MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDD);
        floor_limbs(tab_exp[j + JMAX], TMAX + 1, v, LB * TMAX);
    }
    mpfr_set_ui(v, 1, MPFR_RNDN);
    for (int i = 0; i < NTERMS; i++) {
        if (i > 1)
            mpfr_div_ui(v, v, (unsigned long)i, MPFR_RNDD);
        floor_limbs(tab_fact[i], TMAX + 1, v, LB * TMAX);
    }
    mpfr_const_log2(v, MPFR_RNDD);
    floor_limbs(tab_ln2, TMAX + 1, v, LB * (TMAX + 1));
    mpfr_clear(v);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    __atomic_store_n(&tab_ready, 1, __ATOMIC_RELEASE);
}

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
    const long F = LB * n;
    int nx = (int)((mpfr_get_prec(x) + LB - 1) / LB);
    long e = mpfr_get_exp(x);
    limb X[NMAX + 1], K[NMAX + 1], R[NMAX + 1], S[NMAX + 1], Q[NMAX + 1];
    /* X = floor(|x| 2^F): x's significand M (nx limbs, value M 2^(e -
       64 nx)) shifted by e + F - 64 nx */
    long sh = e + F - LB * (long)nx;
    for (int i = 0; i <= n; i++)
        X[i] = e < -F - LB ? 0 : bits_at(x->_mpfr_d, nx, LB * (long)i - sh);
    int sx = mpfr_signbit(x) ? -1 : 1;
    double xd = mpfr_get_d(x, MPFR_RNDN);
    double kd = xd * 1.4426950408889634; /* x / ln2: any k near it will do */
    long k = (long)(kd < 0 ? kd - 0.5 : kd + 0.5);
    unsigned long ak = (unsigned long)(k < 0 ? -k : k);
    /* K = floor(|k| L 2^-64), L = floor(ln2 2^(F + 64)) on n + 1 limbs */
    const limb *L = TAB(tab_ln2, n);
    limb c = 0;
    for (int i = 0; i <= n; i++) {
        dlimb t = (dlimb)L[i] * ak + c;
        if (i > 0)
            K[i - 1] = (limb)t;
        c = (limb)(t >> LB);
    }
    K[n] = c;
    /* r = sign(x) (X - K) (k has x's sign or is 0) */
    int sr = sx;
    if (cmp(X, K, n) >= 0) {
        addsub(R, X, K, n, 1);
    } else {
        addsub(R, K, X, n, 1);
        sr = -sx;
    }
    /* |r| < 0.36: j = round(64 |r|) from R's top fraction bits */
    if (R[n] != 0)
        return LONG_MIN;
    limb top = R[n - 1];
    long jm = (long)((top >> 57) + 1) >> 1;
    if (jm > JMAX)
        return LONG_MIN;
    limb jl = (limb)jm << 58;
    int s2 = sr;
    if (top >= jl) {
        R[n - 1] = top - jl;
    } else {                 /* R2 = j/64 - |r| */
        R[n - 1] = top - jl; /* two's complement, negated below */
        limb b = 1;          /* -R = ~R + 1 over the n limbs */
        for (int i = 0; i < n; i++) {
            R[i] = ~R[i] + b;
            b = b && R[i] == 0;
        }
        s2 = -sr;
    }
    long j = sr < 0 ? -jm : jm;
    /* S = sum_(i < nterms) R2^i / i! by Horner's rule: S < 1 (no
       integer limb) up to S_1, which may reach 1 + 2^-7 */
    memcpy(S, TAB(tab_fact[nterms - 1], n), (size_t)(n + 1) * sizeof(limb));
    Q[n] = 0;
    for (int i = nterms - 2; i >= 0; i--) {
        mulhi(Q, R, S, n);
        if (S[n] != 0) /* R (1 + frac) */
            addsub(Q, Q, R, n, 0);
        addsub(S, TAB(tab_fact[i], n), Q, n, s2 < 0);
    }
    /* V = T S 2^-F, T = exp(j/64) < 1.44, S < 1.01: the fractions'
       product and the integer limbs' (0 or 1) terms */
    const limb *T = TAB(tab_exp[j + JMAX], n);
    mulhi(V, T, S, n);
    V[n] = 0;
    if (T[n] != 0)
        addsub(V, V, S, n, 0);
    if (S[n] != 0) {
        memcpy(Q, T, (size_t)n * sizeof(limb));
        Q[n] = 0; /* T_int S_int is in S above */
        addsub(V, V, Q, n, 0);
    }
    return k;
}

/* The terms of exp(R2)'s series, |R2| <= 2^-7: 2^(-7 nt)/nt! e^(1/128)
   < 2^-(F+1). */
static const int nterms_for[NMAX + 1] = {0, 0, 14, 20, 25, 31};

/* r := exp(x) rounded to nearest when decided here (0), else 1. */
INLINE int
fexp_n(mpfr_ptr r, mpfr_srcptr x, int n)
{
    const long F = LB * n;
    mpfr_prec_t p = mpfr_get_prec(r);
    limb V[NMAX + 1];
    long k = fexp_fixed(V, x, n, nterms_for[n]);
    if (k == LONG_MIN)
        return 1;
    /* V in [0.68, 1.46] 2^F: its p-bit rounding keeps the bits from
       b up (b = F - p, or F - p + 1 when V >= 2^F); decided when
       V - E + half and V + E + half agree from bit b up */
    long b = V[n] != 0 ? F - p + 1 : F - p;
    limb H[NMAX + 1] = {0}, A[NMAX + 1], B[NMAX + 1], Eb[NMAX + 1] = {0};
    H[(b - 1) / LB] = (limb)1 << ((b - 1) % LB);
    Eb[0] = EBOUND;
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
    /* the result: V + half with the bits under b cleared, its top bit
       at 2^(top) (top = F or F - 1, F + 1 after a carry to 2^(F + 1)) */
    limb M[NMAX + 1];
    memcpy(M, V, sizeof M);
    addsub(M, M, H, n, 0);
    for (int i = 0; i < q; i++)
        M[i] = 0;
    M[q] &= mask;
    int hi = n;
    while (M[hi] == 0)
        hi--;
    long top = LB * (long)hi + (LB - 1 - __builtin_clzl(M[hi]));
    long ex = top - F + 1 + k; /* MPFR's: value 0.m 2^ex */
    if (ex < mpfr_get_emin() || ex > mpfr_get_emax())
        return 1;
    int nr = (int)((p + LB - 1) / LB);
    for (int i = 0; i < nr; i++)
        r->_mpfr_d[i] = bits_at(M, n + 1, top + 1 - LB * (long)(nr - i));
    r->_mpfr_exp = ex;
    r->_mpfr_sign = 1;
    return 0;
}

int
hdo_exp_rn_limbs(mpfr_ptr r, mpfr_srcptr x)
{
    mpfr_prec_t p = mpfr_get_prec(r);
    if (!mpfr_regular_p(x) || mpfr_get_exp(x) > 11 || p > LB * NMAX - GUARD)
        return 1;
    if (!__atomic_load_n(&tab_ready, __ATOMIC_ACQUIRE))
        pthread_once(&tab_once, tab_init);
    switch ((p + GUARD + LB - 1) / LB) {
    case 0: /* p <= 24 */
    case 1:
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
