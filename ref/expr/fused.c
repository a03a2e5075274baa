/* fused.c -- MPFR kernels on the limbs: a correctly rounded fused
 * multiply-add, Horner's rule and a fused Cauchy product */
#include <string.h>
#include "expr.h"
#include "mac.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* Why.  An MPFR call at 40 digits costs about 220 (mpfr_mul) to 790
   (mpfr_fma) instructions, most of it in argument checks, the exponent
   range saved and restored through thread-local storage, temporaries,
   and the general case of every precision and rounding mode (issue 28:
   9.5% of a Taylor run in __tls_get_addr alone).  The dense output's
   Horner loop and the Taylor recurrences' convolutions are long chains
   of the same operation on numbers of one small precision.  Here they
   work on the limbs (MPFR's documented layout of a regular number: n
   limbs, most significant last, normalised, value 0.m 2^exp), for n =
   1 to 4 limbs (256 bits: 30 and 60 digits), every operand of the same
   n, in loops the compiler unrolls (n a constant in each copy); MPFR
   does the rest.

   hdo_fma_rn is correctly rounded, as mpfr_fma, and hdo_horner_rn
   rounds as a loop of them: the same bits, so the dense output does not
   change.  hdo_conv_fused, for the Taylor recurrences' Cauchy products,
   sums the products in one fixed-point window, each cut at the window's
   last bit, and rounds once: not the bits of the former chain of
   roundings (one per product and per addition), but closer to the exact
   sum (its rule and error bound above conv_n). */

#define NMAX 4 /* limbs handled here */
#define LB 64  /* bits of a limb (mp_limb_t on amd64 and arm64) */
#define BUF (3 * NMAX + 2)
/* the kernels assume 64-bit limbs and MPFR's struct of a number (its
   documented layout); elsewhere the build stops here rather than the
   numbers going wrong */
_Static_assert(GMP_NUMB_BITS == LB, "fused.c needs 64-bit GMP limbs");

typedef mp_limb_t limb;
typedef unsigned __int128 dlimb;

#define INLINE static inline __attribute__((always_inline))

/* n when x is a regular number of n <= NMAX limbs with a moderate
   exponent, else 0 (then MPFR does the work). */
static int
nlimbs(mpfr_srcptr x)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    long e;
    if (!mpfr_regular_p(x) || p > NMAX * LB)
        return 0;
    e = mpfr_get_exp(x);
    return e > (1L << 60) || e < -(1L << 60) ? 0 : (int)((p + LB - 1) / LB);
}

/* P (2n limbs) := A B (n limbs each), schoolbook. */
INLINE void
mul_n(limb *P, const limb *A, const limb *B, int n)
{
    for (int i = 0; i < n; i++) {
        /* row i: P[i .. i + n] += A[i] B (row 0 sets them) */
        dlimb t = (dlimb)A[i] * B[0] + (i > 0 ? P[i] : 0);
        P[i] = (limb)t;
        limb c = (limb)(t >> LB);
        if (i == 0) {
            for (int j = 1; j < n; j++) {
                t = (dlimb)A[0] * B[j] + c;
                P[j] = (limb)t;
                c = (limb)(t >> LB);
            }
            P[n] = c;
            continue;
        }
        for (int j = 1; j < n; j++) {
            t = (dlimb)A[i] * B[j] + P[i + j] + c;
            P[i + j] = (limb)t;
            c = (limb)(t >> LB);
        }
        P[i + n] = c;
    }
}

/* R[d] += or -= s, with the carry or borrow c (in and out). */
INLINE void
limb_step(limb *R, long d, limb s, limb *c, int sub)
{
    if (sub) {
        limb a = R[d], t = a - s - *c;
        *c = a < s || (a == s && *c);
        R[d] = t;
    } else {
        dlimb t = (dlimb)R[d] + s + *c;
        R[d] = (limb)t;
        *c = (limb)(t >> LB);
    }
}

/* R[0 .. L-1] +=/-= S: the limbs of src (len limbs) shifted right by
   s >= 0 bits from the position where src's top limb is R[top];
   returns the OR of the bits that fall below R[0].  Carries and
   borrows run to R[L - 1] (the caller leaves room). */
INLINE limb
addsub_shifted(limb *R, int L, const limb *src, int len, int top, long s,
               int sub)
{
    long q = s / LB;
    int r = (int)(s % LB);
    limb lost = 0, c = 0;
    /* S[j] = ((src << LB) >> r)[j], j = 0 .. len, goes to R[d0 + j] */
    long d0 = (long)top - len - q, j0 = d0 < 0 ? -d0 : 0;
    if (j0 > len + 1)
        j0 = len + 1;
#define S_(j)                                                                  \
    (r == 0 ? ((j) > 0 ? src[(j)-1] : 0)                                       \
            : (((j) > 0 ? src[(j)-1] >> r : 0) |                               \
               ((j) < len ? src[j] << (LB - r) : 0)))
    for (long j = 0; j < j0; j++) /* below R[0]: rare */
        lost |= S_(j);
    if (r == 0) {
        for (long j = j0 > 1 ? j0 : 1; j <= len; j++)
            limb_step(R, d0 + j, src[j - 1], &c, sub);
    } else {
        if (j0 == 0)
            limb_step(R, d0, src[0] << (LB - r), &c, sub);
        for (long j = j0 > 1 ? j0 : 1; j < len; j++)
            limb_step(R, d0 + j, src[j - 1] >> r | src[j] << (LB - r), &c, sub);
        if (j0 <= len)
            limb_step(R, d0 + len, src[len - 1] >> r, &c, sub);
    }
#undef S_
    for (long d = d0 + len + 1; c && d < L; d++) {
        if (sub) {
            c = R[d] == 0;
            R[d]--;
        } else {
            R[d]++;
            c = R[d] == 0;
        }
    }
    return lost;
}

/* A regular number on its limbs: 0.m 2^e times s (+1 or -1). */
typedef struct {
    limb m[NMAX];
    long e;
    int s;
} raw;

INLINE void
raw_get(raw *a, mpfr_srcptr x, int n)
{
    memcpy(a->m, x->_mpfr_d, (size_t)n * sizeof(limb));
    a->e = mpfr_get_exp(x);
    a->s = mpfr_signbit(x) ? -1 : 1;
}

/* x := a (x of n limbs) */
INLINE void
raw_set(mpfr_ptr x, const raw *a, int n)
{
    memcpy(x->_mpfr_d, a->m, (size_t)n * sizeof(limb));
    x->_mpfr_exp = a->e;
    x->_mpfr_sign = a->s;
}

/* The last step of rounding to nearest, ties to even: M (n limbs, its
   `low` bits under the kept ones clear) goes up by one unit of its last
   kept bit when the round bit is set and anything below it is, or M is
   odd.  A carry out of the top leaves 0.1 and one more exponent (*e). */
INLINE void
round_up_even(limb *M, int n, int low, limb round, limb below, long *e)
{
    if (!round || !(below || (M[0] >> low & 1)))
        return;
    limb c = (limb)1 << low;
    for (int i = 0; i < n && c; i++) {
        M[i] += c;
        c = M[i] < c;
    }
    if (c) { /* 0.11..1 + ulp = 1: one more bit of exponent */
        M[n - 1] = (limb)1 << (LB - 1);
        (*e)++;
    }
}

/* out := sign R 2^(E - LB L) (R of L limbs, not zero) rounded to
   nearest, ties to even, to p bits (n limbs); sticky != 0: the exact
   value is above R by less than R's last bit.  Returns 0, or 1 when the
   exponent is out of MPFR's range (out untouched). */
INLINE int
round_to(raw *out, mpfr_prec_t p, int n, int sign, const limb *R, int L, long E,
         int sticky, long emin_known, long emax_known)
{
    int h = L - 1;
    while (R[h] == 0)
        h--;
    int lz = __builtin_clzl(R[h]);
    long e = E - (long)(L - 1 - h) * LB - lz;
    /* the n limbs below the top bit: M[i] from R[h - n + 1 + i] and the
       limb under it; then the round bit and anything below */
    limb M[NMAX], round, below = sticky != 0;
    int lo = h - n + 1;
#define RL(i) ((i) >= 0 ? R[i] : (limb)0)
#define SH(i) (lz == 0 ? RL(i) : (RL(i) << lz | RL((i)-1) >> (LB - lz)))
    for (int i = 0; i < n; i++)
        M[i] = SH(lo + i);
    limb next = SH(lo - 1); /* the limb below M */
    int low = (int)(n * LB - p);
    if (low > 0) {
        limb rb = (limb)1 << (low - 1);
        round = M[0] & rb;
        below |= M[0] & (rb - 1);
        M[0] &= ~(((limb)1 << low) - 1);
        below |= next;
    } else {
        round = next >> (LB - 1);
        below |= next << 1;
    }
    /* the bits of R under next: R[lo - 2] shifted, and everything lower */
    if (lz != 0)
        below |= RL(lo - 2) << lz;
    for (int i = 0; i < lo - 2; i++)
        below |= R[i];
    if (lz == 0 && lo - 2 >= 0)
        below |= R[lo - 2];
#undef SH
#undef RL
    round_up_even(M, n, low, round, below, &e);
    /* in MPFR's exponent range: surely when between two exponents of
       numbers in it (the operands'), else asked */
    if ((e < emin_known && e < mpfr_get_emin()) ||
        (e > emax_known && e > mpfr_get_emax()))
        return 1;
    memcpy(out->m, M, (size_t)n * sizeof *M);
    out->e = e;
    out->s = sign;
    return 0;
}

/* out := x y + z rounded to nearest to p bits, all of n limbs: 0, or 1
   when MPFR must (an exact zero, a result out of range). */
INLINE int
fma_raw(raw *out, const raw *x, const raw *y, const limb *mz, long ez, int sZ,
        mpfr_prec_t p, int n)
{
    limb P[2 * NMAX], R[BUF];
    const int L = 3 * n + 2; /* both whole under a carry limb */
    mul_n(P, x->m, y->m, n);
    long eP = x->e + y->e;
    if (!(P[2 * n - 1] >> (LB - 1))) { /* 0.P in [1/4, 1): normalise */
        for (int i = 2 * n - 1; i > 0; i--)
            P[i] = P[i] << 1 | P[i - 1] >> (LB - 1);
        P[0] <<= 1;
        eP--;
    }
    int sP = x->s * y->s, same = sP == sZ;
    /* a: the operand of larger magnitude at R[L - 2] down, unshifted; b
       shifted right by the exponents' difference and added or
       subtracted; with equal exponents the significands decide */
    int p_first = eP > ez;
    if (eP == ez) {
        int c = 0;
        for (int i = 1; i <= n && c == 0; i++)
            c = P[2 * n - i] > mz[n - i]   ? 1
                : P[2 * n - i] < mz[n - i] ? -1
                                           : 0;
        for (int i = n + 1; i <= 2 * n && c == 0; i++)
            c = P[2 * n - i] != 0;
        if (c == 0 && !same)
            return 1; /* an exact zero: its sign is MPFR's rule */
        p_first = c >= 0;
    }
    long E = (p_first ? eP : ez) + LB; /* R's top: 2^E */
    for (int i = 0; i < L; i++)
        R[i] = 0;
    limb lost;
    int sign;
    if (p_first) {
        memcpy(R + L - 1 - 2 * n, P, 2 * n * sizeof *P);
        lost = addsub_shifted(R, L, mz, n, L - 2, eP - ez, !same);
        sign = sP;
    } else {
        memcpy(R + L - 1 - n, mz, n * sizeof *mz);
        lost = addsub_shifted(R, L, P, 2 * n, L - 2, ez - eP, !same);
        sign = sZ;
    }
    /* b lost bits only when it is 2^60 times smaller than a: then a -
       (b + lost) is just under a - b, at a rounding position far above
       R's end */
    if (lost && !same) {
        limb one = 1;
        addsub_shifted(R, L, &one, 1, 0, 0, 1);
    }
    long lo_e = x->e < y->e ? x->e : y->e, hi_e = x->e > y->e ? x->e : y->e;
    return round_to(out, p, n, sign, R, L, E, lost != 0, lo_e < ez ? lo_e : ez,
                    hi_e > ez ? hi_e : ez);
}

/* hdo_fma_rn for operands and result of n limbs. */
INLINE int
fma_n(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z, int n)
{
    raw a, b, out;
    raw_get(&a, x, n);
    raw_get(&b, y, n);
    if (fma_raw(&out, &a, &b, z->_mpfr_d, mpfr_get_exp(z),
                mpfr_signbit(z) ? -1 : 1, mpfr_get_prec(r), n) != 0)
        return 1;
    raw_set(r, &out, n);
    return 0;
}

void
hdo_fma_rn(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z)
{
    int n = nlimbs(x), done = 1;
    if (n != 0 && nlimbs(y) == n && nlimbs(z) == n &&
        (mpfr_get_prec(r) + LB - 1) / LB == n) {
        switch (n) { /* n a constant in each copy */
        case 1:
            done = fma_n(r, x, y, z, 1);
            break;
        case 2:
            done = fma_n(r, x, y, z, 2);
            break;
        case 3:
            done = fma_n(r, x, y, z, 3);
            break;
        default:
            done = fma_n(r, x, y, z, 4);
        }
    }
    if (done != 0)
        mpfr_fma(r, x, y, z, MPFR_RNDN);
}

/* hdo_horner_rn with acc and h of n limbs: the accumulator stays on its
   limbs from step to step; a step the kernel does not take (a zero, an
   operand of other size, an exact zero or a range question) is
   mpfr_fma's. */
INLINE void
horner_n(mpfr_ptr acc, const mpfr_t *c, slong len, mpfr_srcptr h, int n)
{
    mpfr_prec_t p = mpfr_get_prec(acc);
    raw a, hr;
    int live = 0; /* a holds acc */
    raw_get(&hr, h, n);
    for (slong k = len - 2; k >= 0; k--) {
        mpfr_srcptr z = c[k];
        if (!live && nlimbs(acc) == n) {
            raw_get(&a, acc, n);
            live = 1;
        }
        raw out;
        if (live && mpfr_zero_p(z)) {
            /* a h + (+-0) is a h rounded (a, h != 0): the product alone */
            limb P[2 * NMAX];
            mul_n(P, a.m, hr.m, n);
            long lo_e = a.e < hr.e ? a.e : hr.e;
            long hi_e = a.e > hr.e ? a.e : hr.e;
            if (round_to(&out, p, n, a.s * hr.s, P, 2 * n, a.e + hr.e, 0, lo_e,
                         hi_e) == 0) {
                a = out;
                continue;
            }
        } else if (live && nlimbs(z) == n &&
                   fma_raw(&out, &a, &hr, z->_mpfr_d, mpfr_get_exp(z),
                           mpfr_signbit(z) ? -1 : 1, p, n) == 0) {
            a = out;
            continue;
        }
        if (live)
            raw_set(acc, &a, n);
        live = 0;
        mpfr_fma(acc, acc, h, c[k], MPFR_RNDN);
    }
    if (live)
        raw_set(acc, &a, n);
}

void
hdo_horner_rn(mpfr_ptr out, const mpfr_t *c, slong len, mpfr_srcptr h,
              mpfr_ptr acc)
{
    int n = nlimbs(h);
    mpfr_set(acc, c[len - 1], MPFR_RNDN);
    if (n == 0 || (mpfr_get_prec(acc) + LB - 1) / LB != n) {
        for (slong k = len - 2; k >= 0; k--)
            mpfr_fma(acc, acc, h, c[k], MPFR_RNDN);
    } else {
        switch (n) { /* n a constant in each copy */
        case 1:
            horner_n(acc, c, len, h, 1);
            break;
        case 2:
            horner_n(acc, c, len, h, 2);
            break;
        case 3:
            horner_n(acc, c, len, h, 3);
            break;
        default:
            horner_n(acc, c, len, h, 4);
        }
    }
    mpfr_set(out, acc, MPFR_RNDN);
}

/* The chain of powers on the limbs: x := x h rounded to nearest, ties
   to even, to p bits (n limbs), the exact product of the two n-limb
   significands in 2n limbs (mul_n) giving the rounding exactly; the
   exponent e + eh or one less.  Returns 0, or 1 when the result leaves
   [emin, emax] (x untouched).  A specialised round_to: the product is
   normalised by at most one bit and nothing lies below it, about a
   half of mpfr_mul's loop at 3 limbs (issue 28: the dense output's
   powers of h; decisions.md D-110). */
INLINE int
pow_step(raw *x, const limb *hm, long eh, int sh, mpfr_prec_t p, int n,
         long emin, long emax)
{
    limb P[2 * NMAX];
    mul_n(P, x->m, hm, n);
    long e = x->e + eh;
    if (!(P[2 * n - 1] >> (LB - 1))) { /* 0.P in [1/4, 1/2) */
        for (int i = 2 * n - 1; i > 0; i--)
            P[i] = P[i] << 1 | P[i - 1] >> (LB - 1);
        P[0] <<= 1;
        e--;
    }
    /* M = P[n .. 2n - 1] holds the p bits, then the round bit; the
       sticky bits are M's below it and P[0 .. n - 1] */
    int low = (int)(n * LB - p);
    limb *M = P + n, round, below = 0;
    for (int i = 0; i < n - 1; i++)
        below |= P[i];
    if (low > 0) {
        limb rb = (limb)1 << (low - 1);
        round = M[0] & rb;
        below |= (M[0] & (rb - 1)) | P[n - 1];
        M[0] &= ~(((limb)1 << low) - 1);
    } else {
        round = P[n - 1] >> (LB - 1);
        below |= P[n - 1] << 1;
    }
    round_up_even(M, n, low, round, below, &e);
    if (e < emin || e > emax)
        return 1;
    for (int i = 0; i < n; i++)
        x->m[i] = M[i];
    x->e = e;
    x->s *= sh;
    return 0;
}

/* hdo_powers_rn for h and the powers of n limbs; from the first power
   the limbs do not take (out of the exponent range) on, mpfr_mul. */
INLINE void
powers_n(mpfr_t *v, slong p, mpfr_srcptr h, int n)
{
    mpfr_prec_t prec = mpfr_get_prec(v[p]);
    long emin = mpfr_get_emin(), emax = mpfr_get_emax();
    raw x;
    raw_get(&x, v[p - 1], n);
    const limb *hm = h->_mpfr_d;
    long eh = mpfr_get_exp(h);
    int sh = mpfr_signbit(h) ? -1 : 1;
    slong j = 2;
    for (; j <= p; j++) {
        if (pow_step(&x, hm, eh, sh, prec, n, emin, emax) != 0)
            break;
        raw_set(v[p - j], &x, n);
    }
    for (; j <= p; j++)
        mpfr_mul(v[p - j], v[p - j + 1], h, MPFR_RNDN);
}

void
hdo_powers_rn(mpfr_t *v, slong p, mpfr_srcptr h)
{
    mpfr_set_ui(v[p], 1, MPFR_RNDN);
    if (p < 1)
        return;
    mpfr_set(v[p - 1], h, MPFR_RNDN);
    int n = (int)((mpfr_get_prec(v[p]) + LB - 1) / LB);
    /* h and h rounded (v[p - 1]) regular, of n limbs: each power is
       the one before times h, as mpfr_mul's loop */
    if (p < 2 || nlimbs(h) != n || nlimbs(v[p - 1]) != n) {
        for (slong j = 2; j <= p; j++)
            mpfr_mul(v[p - j], v[p - j + 1], h, MPFR_RNDN);
        return;
    }
    switch (n) { /* n a constant in each copy */
    case 1:
        powers_n(v, p, h, 1);
        break;
    case 2:
        powers_n(v, p, h, 2);
        break;
    case 3:
        powers_n(v, p, h, 3);
        break;
    default:
        powers_n(v, p, h, 4);
    }
}

/* Weight of term j of a convolution of order k. */
static limb
weight_of(int weight, slong j, slong k)
{
    return weight == 1 ? (limb)j : weight == 2 ? (limb)(k - j) : 1;
}

/* hi << r | lo >> (LB - r), 0 <= r < LB (hi at r = 0): one shld on
   amd64, where the compiler's two shifts and an or take five */
INLINE limb
shld(limb hi, limb lo, int r)
{
#if defined(__x86_64__) && !defined(HDO_FUSED_NO_ASM)
    __asm__("shldq %%cl, %1, %0" : "+r"(hi) : "r"(lo), "c"(r) : "cc");
    return hi;
#else
    return hi << r | (lo >> (LB - 1 - r)) >> 1;
#endif
}

/* R[Q + d] += A[i] B[l] (d = i + l) for A of na limbs and B of n, each
   partial product cut at R[0]: the diagonals d > D0 = -1 - Q whole, d =
   D0 its high halves (at R[0]), the ones below not at all.  Column by
   column (Comba): the column's sum in (c2 c1 c0), its low limb added to
   R once.  The carries run to R[L - 1] (the caller leaves room).  D0 a
   constant in each copy (add_cut's switch): the loops unroll. */
INLINE void
add_cut_d(limb *R, int L, const limb *A, int na, const limb *B, int n, long Q,
          int D0)
{
    const int dmax = na + n - 2, first = D0 < 0 ? 0 : D0;
    limb c0 = 0, c1 = 0, c2 = 0;
    HDO_UNROLL(16)
    for (int d = first; d <= dmax; d++) {
        int i0 = d - n + 1 > 0 ? d - n + 1 : 0, i1 = d < na - 1 ? d : na - 1;
        HDO_UNROLL(8)
        for (int i = i0; i <= i1; i++) {
            if (d > D0)
                MAC3(c0, c1, c2, A[i], B[d - i]);
            else
                MACHI(c1, c2, A[i], B[d - i]);
        }
        if (d > D0) { /* column Q + d is complete: R's limb joins it */
            ADD3(c0, c1, c2, R[Q + d]);
            R[Q + d] = c0;
        }
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
    /* the last column, then its carry */
    long top = Q + dmax + 1;
    ADD3(c0, c1, c2, R[top]);
    R[top] = c0;
    for (long d = top + 1; c1 && d < L; d++) {
        R[d] += c1;
        c1 = R[d] < c1;
    }
}

/* add_cut_d with D0 = -1 - Q made a constant by cases; nothing when no
   partial product reaches R[0]. */
INLINE void
add_cut(limb *R, int L, const limb *A, int na, const limb *B, int n, long Q)
{
    long D0 = -1 - Q;
    switch (D0) {
#define CUT(k)                                                                 \
    case k:                                                                    \
        if (k <= na + n - 2)                                                   \
            add_cut_d(R, L, A, na, B, n, Q, k);                                \
        return;
        CUT(-1)
        CUT(0)
        CUT(1)
        CUT(2)
        CUT(3)
        CUT(4)
        CUT(5)
        CUT(6)
        CUT(7)
        CUT(8)
#undef CUT
    default: /* below -1 (unreachable: Q <= 1 - n), every product whole */
        if (D0 < -1)
            add_cut_d(R, L, A, na, B, n, Q, -1);
        return; /* else every partial product below R[0] */
    }
}

/* One term w a b of a Cauchy product into the window pos or neg (W + 1
   limbs, last bit 2^B): the product of A = w a 2^rho (a's limbs as an
   integer, of n + 1 or n + 2 limbs) and b's limbs, placed Q limbs
   above the window's last limb, each partial product A_i b_l cut at the
   window's last bit (decisions.md D-108). */
INLINE void
conv_term(limb *pos, limb *neg, int W, long B, mpfr_srcptr a, mpfr_srcptr b,
          limb w, int n)
{
    long e = a->_mpfr_exp + b->_mpfr_exp;
    /* |w a b| < 2^(e + bits(w)) at or below the window's last bit: every
       partial product is below it, nothing to add (the dense output's
       high orders) */
    if (e + (w != 1 ? (long)FLINT_BIT_COUNT(w) : 0) <= B)
        return;
    /* a b = (a's limbs) (b's limbs) 2^(e - 2 LB n): its last bit s bits
       above the window's, s = LB Q + rho, 0 <= rho < LB */
    long s = e - 2L * LB * n - B;
    int rho = (int)(s & (LB - 1));
    long Q = (s - rho) >> 6; /* exact: GCC's >> of a negative is floor */
    limb *R = mpfr_signbit(a) != mpfr_signbit(b) ? neg : pos;
    const limb *M = a->_mpfr_d;
    limb A[NMAX + 2], X[NMAX + 1];
    int na = n + 1;
    if (w != 1) { /* w a: one more limb */
        limb c = 0;
        for (int i = 0; i < n; i++) {
            dlimb t = (dlimb)M[i] * w + c;
            X[i] = (limb)t;
            c = (limb)(t >> LB);
        }
        X[n] = c;
        M = X;
        na = n + 2;
    }
    /* A = M 2^rho, na limbs (the double shift is 0 at rho = 0) */
    A[0] = M[0] << rho;
    for (int i = 1; i < na - 1; i++)
        A[i] = shld(M[i], M[i - 1], rho);
    A[na - 1] = shld((limb)0, M[na - 2], rho);
    add_cut(R, W + 1, A, na, b->_mpfr_d, n, Q);
}

/* hdo_conv_fused once the operands are known regular or zero, of n
   limbs, and the largest weighted product below 2^Emax, m terms; sym:
   a square (u = v, unweighted, lo + hi = k): each pair j < k - j summed
   once (u_j the shifted operand) and doubled, then the middle term;
   clean: no zero operand and no zero weight.

   The rule (decisions.md D-108; tests/expr/fused.c holds the kernel to
   it bit for bit, written with GMP).  The window's last bit is 2^B, B =
   T - LB W, T = Emax + bits(m) + 1, W limbs down to p + 64 bits below
   Emax.  A term w a b is the product of the integer A = w (a's limbs)
   2^rho (n + 1 or n + 2 limbs) and b's n limbs, its last bit LB Q + rho
   bits above 2^B (0 <= rho < LB); each partial product A_i b_l 2^(LB (Q +
   i + l)) is truncated at 2^B alone, so the diagonals wholly below the
   window are never computed.  The truncated terms' sum is exact
   (signs apart, each in its own window) and rounded once to nearest.

   The error.  A term loses, in units of 2^B: under 1 for each of the at
   most n partial products that straddle 2^B (their low limbs), and the
   diagonals below, each of at most n products under 2^(LB (Q + i + l +
   2)) = 2^(-LB t) for the t-th diagonal below, under n (1 + 2^-63): in
   all under 2n + 1.  So |result - exact sum| <= half an ulp of the
   result + (2n + 1) m 2^B, and 2^B <= 2^(Emax - p - 64) with 2^Emax <=
   8 |largest term|: (2n + 1) m 2^-(p + 61) of the largest term (at 30
   digits, 3 limbs and 49 terms: 343 2^-194, against the half ulp of
   2^-134 relative of the result), where D-100's rule lost under one
   unit a term. */
INLINE int
conv_n(mpfr_ptr r, const mpfr_t *u, const mpfr_t *v, slong k, slong lo,
       slong hi, int weight, long Emax, slong m, int sym, int clean, int n)
{
    /* the window: from 2^T (room for the carries of m terms) down to p +
       64 bits below the largest term; what lies below is dropped */
    mpfr_prec_t p = mpfr_get_prec(r);
    long T = Emax + (long)FLINT_BIT_COUNT((limb)m) + 1;
    int W = (int)((T - (Emax - (long)p - 64) + LB - 1) / LB);
    limb pos[BUF + 1], neg[BUF + 1];
    if (W > BUF)
        return 1;
    for (int i = 0; i <= W; i++)
        pos[i] = neg[i] = 0;
    /* sym: the pairs j < k - j, j <= ceil(k/2) - 1 */
    slong top = sym ? (k + 1) / 2 - 1 : hi;
    for (slong j = lo; j <= top; j++) {
        mpfr_srcptr a = u[j], b = v[k - j];
        limb w = weight_of(weight, j, k);
        if (!clean && (mpfr_zero_p(a) || mpfr_zero_p(b) || w == 0))
            continue;
        conv_term(pos, neg, W, T - (long)LB * W, a, b, w, n);
    }
    if (sym) {
        /* twice the pairs (no bit is lost: the whole sum fits), then
           the middle term */
        for (int i = W; i > 0; i--) {
            pos[i] = pos[i] << 1 | pos[i - 1] >> (LB - 1);
            neg[i] = neg[i] << 1 | neg[i - 1] >> (LB - 1);
        }
        pos[0] <<= 1;
        neg[0] <<= 1;
        if (k % 2 == 0 && !mpfr_zero_p(u[k / 2]))
            conv_term(pos, neg, W, T - (long)LB * W, u[k / 2], u[k / 2], 1, n);
    }
    int c = 0, sign = 1;
    for (int i = W - 1; i >= 0 && c == 0; i--)
        c = pos[i] > neg[i] ? 1 : pos[i] < neg[i] ? -1 : 0;
    if (c == 0) {
        mpfr_set_zero(r, 1);
        return 0;
    }
    limb *big = c > 0 ? pos : neg, *small = c > 0 ? neg : pos;
    sign = c > 0 ? 1 : -1;
    addsub_shifted(big, W + 1, small, W, W - 1, 0, 1);
    raw out;
    if (round_to(&out, mpfr_get_prec(r), n, sign, big, W, T, 0, T,
                 T - 2 * LB * BUF) != 0)
        return 1;
    raw_set(r, &out, n);
    return 0;
}

int
hdo_conv_fused(mpfr_ptr r, const mpfr_t *u, const mpfr_t *v, slong k, slong lo,
               slong hi, int weight)
{
    int n = (int)((mpfr_get_prec(r) + LB - 1) / LB);
    slong m = 0;
    long Emax = 0;
    if (n > NMAX || n < 1 || k < 0 || k > (1L << 20))
        return 1;
    /* a square: the terms j and k - j are the same product */
    int sym = u == v && weight == 0 && lo + hi == k && lo <= hi;
    slong top = sym ? k / 2 : hi;
    /* the largest product's exponent, and whether every operand is a
       number this kernel takes (read from the fields: MPFR's special
       values are the three exponents up to __MPFR_EXP_INF) */
    mpfr_prec_t pr = mpfr_get_prec(r);
    int clean = 0;
    if (lo <= hi && (weight == 0 || (weight == 1 ? lo >= 1 : hi <= k - 1))) {
        /* the common case first, without branches: every operand regular
           (special values' exponents are near LONG_MIN: out of range
           here), of r's precision, |e| < 2^60, every weight >= 1; else
           the loop below sorts it out */
        unsigned long bad = 0, pd = 0;
        long E = LONG_MIN;
        for (slong j = lo; j <= top; j++) {
            mpfr_srcptr a = u[j], b = v[k - j];
            long ea = a->_mpfr_exp, eb = b->_mpfr_exp;
            bad |= ((unsigned long)ea + (1UL << 60)) |
                   ((unsigned long)eb + (1UL << 60));
            pd |= (unsigned long)(a->_mpfr_prec ^ pr) |
                  (unsigned long)(b->_mpfr_prec ^ pr);
            /* unsigned: a special value's exponent wraps (refused) */
            long e = (long)((unsigned long)ea + (unsigned long)eb +
                            (weight == 0
                                 ? 1
                                 : FLINT_BIT_COUNT(weight_of(weight, j, k))));
            E = e > E ? e : E;
        }
        if (bad >> 61 == 0 && pd == 0) {
            clean = 1;
            Emax = E;
            m = hi - lo + 1; /* a square's pairs twice, its middle once */
        }
    }
    for (slong j = lo; j <= top && !clean; j++) {
        mpfr_srcptr a = u[j], b = v[k - j];
        long ea = a->_mpfr_exp, eb = b->_mpfr_exp;
        if (ea <= __MPFR_EXP_INF || eb <= __MPFR_EXP_INF) {
            if ((ea != __MPFR_EXP_ZERO && ea <= __MPFR_EXP_INF) ||
                (eb != __MPFR_EXP_ZERO && eb <= __MPFR_EXP_INF))
                return 1; /* an infinity or a NaN */
            continue;     /* a zero */
        }
        /* |e| <= 2^60: one unsigned comparison each */
        if ((a->_mpfr_prec != pr && nlimbs(a) != n) ||
            (b->_mpfr_prec != pr && nlimbs(b) != n) ||
            (unsigned long)ea + (1UL << 60) > (2UL << 60) ||
            (unsigned long)eb + (1UL << 60) > (2UL << 60))
            return 1;
        limb w = weight_of(weight, j, k);
        if (w == 0)
            continue;
        long e = ea + eb + (long)FLINT_BIT_COUNT(w);
        if (m == 0 || e > Emax)
            Emax = e;
        m += sym && j != k - j ? 2 : 1;
    }
    if (m == 0) {
        mpfr_set_zero(r, 1); /* as the sum of products from +0 */
        return 0;
    }
    switch (n) {
    case 1:
        return conv_n(r, u, v, k, lo, hi, weight, Emax, m, sym, clean, 1);
    case 2:
        return conv_n(r, u, v, k, lo, hi, weight, Emax, m, sym, clean, 2);
    case 3:
        return conv_n(r, u, v, k, lo, hi, weight, Emax, m, sym, clean, 3);
    default:
        return conv_n(r, u, v, k, lo, hi, weight, Emax, m, sym, clean, 4);
    }
}
