/* timeerror.c -- how well an event's time is determined: the smallest
 * shift of the root that the guard's tolerance cannot tell from it
 * (hdo_event_time_error; the location itself is locate.c's) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "event.h"
#include "expr.h"   /* hdo_fma_rn */
#include "linalg.h" /* hdo_log2_abs */
#include "series.h"

/* lc[k] := log2 |c_k| + k lr (-inf where c_k = 0), lr = log2 |r|, in
   doubles (hdo_log2_abs: within 1e-12 of the magnitudes); 1, or 0 when
   a term is beyond them (an infinity or NaN, r zero or infinite). */
static int
log_terms(double *lc, mpfr_srcptr c, slong len, double lr)
{
    if (!isfinite(lr))
        return 0;
    for (slong k = 0; k < len; k++) {
        if (!mpfr_zero_p(c + k) && !mpfr_regular_p(c + k))
            return 0;
        lc[k] = hdo_log2_abs(c + k) + (double)k * lr;
    }
    return 1;
}

/* ub[k] >= log2 of sum_j C(j, k) |c_j| |r|^(j-k), from lc[j] = log2
   |c_j| + j lr, lr = log2 |r| (log_terms), the bound of the
   Taylor coefficient T_k of S at r (and of its value computed by
   the working precision's shift, whose rounding is far below the margin),
   for 1 <= k < len;
   -inf where the sum is 0, +inf where doubles cannot tell.  In doubles:
   a_j = |c_j| |r|^j 2^-E (E their largest log2, so a_j <= 1; an a_j
   below 2^-1000 counts as 2^-1000), then sum_j C(j, k) a_j by Horner's
   shift at 1 (sums of nonnegative terms: relative error about len
   2^-53), and a margin of 1e-6 and 1e-12 per unit of the exponents for
   the logarithms. */
static void
shift_bounds(double *ub, const double *lc, slong len, double lr)
{
    double E = -INFINITY, big = fabs(lr) * (double)len;
    double *a = flint_malloc(len * sizeof *a);
    for (slong j = 0; j < len; j++) {
        a[j] = lc[j];
        if (a[j] > E)
            E = a[j];
    }
    for (slong j = 0; j < len; j++) {
        if (a[j] == -INFINITY)
            a[j] = 0;
        else
            a[j] = a[j] - E < -1000 ? 0x1p-1000 : exp2(a[j] - E);
    }
    for (slong i = 0; i < len - 1; i++)
        for (slong j = len - 2; j >= i; j--)
            a[j] += a[j + 1];
    for (slong k = 1; k < len; k++)
        ub[k] = a[k] == 0 ? -INFINITY
                          : log2(a[k]) + E - (double)k * lr + 1e-6 +
                                1e-12 * (fabs(E) + big);
    if (!isfinite(E) || !isfinite(lr))
        for (slong k = 1; k < len; k++)
            ub[k] = INFINITY;
    flint_free(a);
}

/* delta := min_k (ztol / |T_k|)^(1/k) over 1 <= k <= K (+inf when every
   T_k there is 0), as the 64-bit log and exp give it.  The minimum is
   screened in doubles first: a k whose log2 d_k is above the least by
   more than 1e-9 (a factor 1 + 7e-10, far beyond the doubles' and the
   64-bit values' errors) cannot be the least, and only the others get
   the log and exp (10,000 instructions each), in the same order: delta
   has the bits of the plain loop. */
static void
least_delta(mpfr_t delta, mpfr_srcptr T, slong K, const mpfr_t ztol)
{
    MPFR_DECL_INIT(d, 64); /* on the stack: at every event (D-120) */
    MPFR_DECL_INIT(lg, 64);
    double lz = hdo_log2_abs(ztol), lmin = INFINITY;
    int screen = mpfr_regular_p(ztol);
    double *lk = flint_malloc((K + 1) * sizeof *lk);
    for (slong k = 1; screen && k <= K; k++) {
        lk[k] = mpfr_zero_p(T + k) ? INFINITY
                                   : (lz - hdo_log2_abs(T + k)) / (double)k;
        if (lk[k] < lmin)
            lmin = lk[k];
    }
    if (!isfinite(lmin))
        screen = 0; /* no finite candidate: the plain loop decides */
    mpfr_set_inf(delta, 1);
    for (slong k = 1; k <= K; k++) {
        /* the margin grows with the logarithms: hdo_log2_abs is
           within about |exponent| 2^-53 of log2 (review of D-101) */
        if (mpfr_zero_p(T + k) ||
            (screen &&
             lk[k] >
                 lmin + 1e-9 + 1e-15 * (fabs(lz) + fabs(lk[k]) + fabs(lmin))))
            continue;
        /* d = (ztol / |T_k|)^(1/k); at k = 1 the quotient itself (issue
           28: the log and exp, 20,000 instructions, gave it to a few
           ulps of 64 bits; D-101) */
        mpfr_abs(d, T + k, MPFR_RNDN);
        mpfr_div(d, ztol, d, MPFR_RNDN);
        if (k > 1) {
            mpfr_log(lg, d, MPFR_RNDN);
            mpfr_div_si(lg, lg, k, MPFR_RNDN);
            mpfr_exp(d, lg, MPFR_RNDN);
        }
        if (mpfr_cmp(d, delta) < 0)
            mpfr_set(delta, d, MPFR_RNDN);
    }
    flint_free(lk);
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
       the coefficients) stays far below ztol.

       Only the T_k that can be the least are computed (issue 28: the
       whole shift is len^2/2 multiply-adds, a million instructions at
       order 48).  Pass i of Horner's shift leaves T_i final, so the
       passes up to K give T_1 .. T_K with the bits of the whole shift;
       the bounds of shift_bounds show when no later T_k can give a
       smaller d_k (at a simple root: after T_1), else the passes go on
       to the last k that still can. */
    MPFR_DECL_INIT(ztol, 64); /* on the stack: at every event (D-120) */
    len = hdo_event_actual_len(c, len);
    /* T, lc, ub and T's significands in one allocation (issue 28: four
       of them an event; D-116) */
    size_t limbs = mpfr_custom_get_size(prec);
    char *mem = flint_malloc(
        (size_t)len * (sizeof(__mpfr_struct) + 2 * sizeof(double) + limbs));
    mpfr_ptr T = (mpfr_ptr)mem;
    double *lc = (double *)(mem + (size_t)len * sizeof(__mpfr_struct)),
           *ub = lc + len, lr = hdo_log2_abs(root);
    int logs = log_terms(lc, c, len, lr);
    hdo_event_coef_scale(ztol, c, len, root, logs ? lc : NULL);
    mpfr_mul(ztol, ztol, tol, MPFR_RNDU);
    /* T's significands in one block (MPFR's custom interface: the same
       numbers at prec, without an allocation per coefficient) */
    char *block = (char *)(ub + len);
    for (slong k = 0; k < len; k++) {
        char *sig = block + (size_t)k * limbs;
        if (mpfr_regular_p(c + k) && mpfr_get_prec(c + k) == prec) {
            /* a copy at the same precision: the significand's bytes
               (mpfr_set's bits without its rounding path) */
            memcpy(sig, mpfr_custom_get_significand(c + k), limbs);
            mpfr_custom_init_set(T + k,
                                 mpfr_signbit(c + k) ? -MPFR_REGULAR_KIND
                                                     : MPFR_REGULAR_KIND,
                                 mpfr_get_exp(c + k), prec, sig);
            continue;
        }
        mpfr_custom_init(sig, prec);
        mpfr_custom_init_set(T + k, MPFR_ZERO_KIND, 0, prec, sig);
        mpfr_set(T + k, c + k, MPFR_RNDN);
    }
    int bounded = mpfr_regular_p(ztol) && !mpfr_zero_p(root);
    if (bounded) {
        if (!logs) /* a term beyond doubles: shift_bounds says +inf */
            for (slong j = 0; j < len; j++)
                lc[j] = hdo_log2_abs(c + j) + (double)j * lr;
        shift_bounds(ub, lc, len, lr);
    }
    slong done = 0, K = len > 2 && bounded ? 1 : len - 1;
    double lz = hdo_log2_abs(ztol);
    for (;;) {
        /* passes done .. K (none past len - 2: T_{len-1} is final; none
           at r = 0, where they change nothing) */
        for (slong i = done; i <= K && i < len - 1 && !mpfr_zero_p(root); i++)
            for (slong j = len - 2; j >= i; j--)
                hdo_fma_rn(T + j, root, T + j + 1, T + j);
        done = K + 1;
        least_delta(delta, T, K, ztol);
        if (K >= len - 1)
            break;
        /* the last k > K whose d_k >= (ztol / ub_k)^(1/k) may still be
           below delta */
        double ld = hdo_log2_abs(delta);
        slong need = 0;
        for (slong k = K + 1; k < len; k++)
            if ((lz - ub[k]) / (double)k <= ld + 1e-6)
                need = k;
        if (need == 0)
            break;
        K = need;
    }
    flint_free(mem);
}
