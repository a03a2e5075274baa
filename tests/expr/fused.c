/* fused.c -- the limb kernels of ref/expr/fused.c against MPFR: the fused
 * multiply-add and Horner's rule to the bit (mpfr_fma, a loop of it),
 * the powers of h to the bit (a loop of mpfr_mul),
 * the fused Cauchy product against the exact sum (mpfr_sum of exact
 * products at a precision that holds every bit) */
#include <limits.h>
#include <criterion/criterion.h>
#include "expr.h"

static const mpfr_prec_t precs[] = {2,   53,  63,  64,  65,  100, 127,
                                    128, 133, 192, 200, 233, 256, 366,
                                    448, 511, 512, 513, 700};
#define NPRECS ((int)(sizeof precs / sizeof precs[0]))

/* x := a random number of x's precision: random bits, or few bits (an
   integer mantissa: ties and exact cancellations), exponent in
   [-span, span], random sign. */
static void
random_num(mpfr_t x, flint_rand_t st, long span)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    if (n_randint(st, 4) == 0) {
        mpfr_set_ui(x, n_randint(st, 64) + 1, MPFR_RNDN);
    } else {
        /* a uniform significand from random limbs */
        mpz_t z;
        mpz_init(z);
        for (mpfr_prec_t b = 0; b < p; b += 32) {
            mpz_mul_2exp(z, z, 32);
            mpz_add_ui(z, z, n_randint(st, 1UL << 32));
        }
        mpz_setbit(z, (mp_bitcnt_t)(p + (32 - p % 32) % 32 - 1));
        mpfr_set_z(x, z, MPFR_RNDZ);
        mpz_clear(z);
    }
    mpfr_set_exp(x, (mpfr_exp_t)n_randint(st, 2 * span + 1) - span);
    if (n_randint(st, 2))
        mpfr_neg(x, x, MPFR_RNDN);
}

/* Two random series u, v of len coefficients at precision p for the
   Cauchy-product tests: exponents within 3 or 60 bits, a tenth of u's
   coefficients zero.  series_clear frees them. */
static void
series_init(mpfr_t **u, mpfr_t **v, slong len, mpfr_prec_t p, flint_rand_t st)
{
    *u = flint_malloc(len * sizeof **u);
    *v = flint_malloc(len * sizeof **v);
    for (slong j = 0; j < len; j++) {
        mpfr_init2((*u)[j], p);
        mpfr_init2((*v)[j], p);
        random_num((*u)[j], st, n_randint(st, 2) ? 3 : 60);
        random_num((*v)[j], st, n_randint(st, 2) ? 3 : 60);
        if (n_randint(st, 10) == 0)
            mpfr_set_zero((*u)[j], 1);
    }
}

static void
series_clear(mpfr_t *u, mpfr_t *v, slong len)
{
    for (slong j = 0; j < len; j++) {
        mpfr_clear(u[j]);
        mpfr_clear(v[j]);
    }
    flint_free(u);
    flint_free(v);
}

static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/* The bits of mpfr_fma at every precision up to 700 bits (the fast path
   up to 256), operands of one or of three precisions, exponents close
   (cancellation) and far apart (one operand only rounds), x y + z near
   -z (z the rounded -x y, one ulp beside it), results aliased with an
   operand, and zeros, infinities and NaN (mpfr_fma's own path). */
Test(expr_fused, fma_rn_is_mpfr_fma)
{
    flint_rand_t st;
    flint_randinit(st);
    for (long trial = 0; trial < 60000; trial++) {
        mpfr_prec_t pr = precs[n_randint(st, NPRECS)];
        int mixed = n_randint(st, 4) == 0;
        mpfr_t x, y, z, r1, r2;
        mpfr_init2(x, mixed ? precs[n_randint(st, NPRECS)] : pr);
        mpfr_init2(y, mixed ? precs[n_randint(st, NPRECS)] : pr);
        mpfr_init2(z, mixed ? precs[n_randint(st, NPRECS)] : pr);
        mpfr_inits2(pr, r1, r2, (mpfr_ptr)0);
        long span = n_randint(st, 2) ? 4 : 300;
        random_num(x, st, span);
        random_num(y, st, span);
        random_num(z, st, span);
        switch (n_randint(st, 8)) {
        case 0: /* z = -(x y) rounded, then maybe one ulp off */
            mpfr_mul(z, x, y, MPFR_RNDN);
            mpfr_neg(z, z, MPFR_RNDN);
            if (n_randint(st, 2))
                mpfr_nextabove(z);
            break;
        case 1: /* a special operand */
            switch (n_randint(st, 4)) {
            case 0:
                mpfr_set_zero(z, n_randint(st, 2) ? 1 : -1);
                break;
            case 1:
                mpfr_set_zero(x, 1);
                break;
            case 2:
                mpfr_set_inf(y, -1);
                break;
            default:
                mpfr_set_nan(z);
            }
            break;
        case 2: /* z tiny or huge against x y */
            mpfr_set_exp(z, mpfr_get_exp(x) + mpfr_get_exp(y) +
                                (n_randint(st, 2) ? 1 : -1) *
                                    (long)(pr + n_randint(st, 300)));
            break;
        default:
            break;
        }
        mpfr_fma(r1, x, y, z, MPFR_RNDN);
        int alias = (int)n_randint(st, 3);
        if (alias == 1 && mpfr_get_prec(x) == pr) {
            mpfr_set(r2, x, MPFR_RNDN);
            hdo_fma_rn(r2, r2, y, z);
        } else if (alias == 2 && mpfr_get_prec(z) == pr) {
            mpfr_set(r2, z, MPFR_RNDN);
            hdo_fma_rn(r2, x, y, r2);
        } else {
            hdo_fma_rn(r2, x, y, z);
        }
        if (!same_bits(r1, r2)) {
            char buf[2000];
            mpfr_snprintf(buf, sizeof buf,
                          "trial %ld: prec %ld: x = %Ra, y = %Ra, z = %Ra: "
                          "mpfr_fma %Ra, hdo_fma_rn %Ra",
                          trial, (long)pr, x, y, z, r1, r2);
            cr_assert_fail("%s", buf);
        }
        mpfr_clears(x, y, z, r1, r2, (mpfr_ptr)0);
    }
    flint_randclear(st);
}

/* Ties: x y + z exactly halfway between two neighbours is rounded to the
   even one (1 + 2^-p -> 1; 1 + 2^(1-p) + 2^-p -> 1 + 2^(2-p)). */
Test(expr_fused, fma_rn_ties_to_even)
{
    for (int i = 0; i < NPRECS; i++) {
        mpfr_prec_t p = precs[i];
        mpfr_t x, y, z, r, want;
        mpfr_inits2(p, x, y, z, r, want, (mpfr_ptr)0);
        mpfr_set_ui_2exp(x, 1, -(long)p / 2, MPFR_RNDN);
        mpfr_set_ui_2exp(y, 1, -(long)(p - p / 2), MPFR_RNDN); /* x y = 2^-p */
        mpfr_set_ui(z, 1, MPFR_RNDN);
        hdo_fma_rn(r, x, y, z);
        cr_assert(mpfr_cmp_ui(r, 1) == 0, "prec %ld: 1 + 2^-p", (long)p);
        mpfr_nextabove(z); /* 1 + 2^(1-p): odd last bit */
        hdo_fma_rn(r, x, y, z);
        mpfr_set(want, z, MPFR_RNDN);
        mpfr_nextabove(want);
        if (p > 1)
            cr_assert(mpfr_equal_p(r, want), "prec %ld: odd + half", (long)p);
        mpfr_clears(x, y, z, r, want, (mpfr_ptr)0);
    }
}

/* hdo_horner_rn against the loop it stands for (mpfr_set, then mpfr_fma
   per coefficient, then mpfr_set), to the bit: random polynomials of
   length 1 to 60 with exact zeros among the coefficients (a series that
   ends in zeros), coefficients of another precision, signs that cancel,
   h positive, negative or 0, accumulators of the coefficients'
   precision or another. */
Test(expr_fused, horner_rn_is_the_fma_loop)
{
    flint_rand_t st;
    flint_randinit(st);
    for (long trial = 0; trial < 20000; trial++) {
        mpfr_prec_t p = precs[n_randint(st, NPRECS)];
        slong len = 1 + (slong)n_randint(st, 60);
        mpfr_t *c = flint_malloc(len * sizeof *c);
        for (slong k = 0; k < len; k++) {
            mpfr_init2(
                c[k], n_randint(st, 8) == 0 ? precs[n_randint(st, NPRECS)] : p);
            random_num(c[k], st, n_randint(st, 2) ? 2 : 40);
            if (n_randint(st, 6) == 0 || (k > len / 2 && n_randint(st, 2)))
                mpfr_set_zero(c[k], 1);
        }
        mpfr_t h, acc1, acc2, out1, out2;
        mpfr_init2(h, p);
        random_num(h, st, 3);
        if (n_randint(st, 20) == 0)
            mpfr_set_zero(h, 1);
        mpfr_prec_t pa =
            n_randint(st, 6) == 0 ? precs[n_randint(st, NPRECS)] : p;
        mpfr_inits2(pa, acc1, acc2, (mpfr_ptr)0);
        mpfr_inits2(p, out1, out2, (mpfr_ptr)0);
        mpfr_set(acc1, c[len - 1], MPFR_RNDN);
        for (slong k = len - 2; k >= 0; k--)
            mpfr_fma(acc1, acc1, h, c[k], MPFR_RNDN);
        mpfr_set(out1, acc1, MPFR_RNDN);
        hdo_horner_rn(out2, c, len, h, acc2);
        if (!same_bits(out1, out2)) {
            char buf[1200];
            mpfr_snprintf(buf, sizeof buf,
                          "trial %ld: prec %ld, len %ld, h = %Ra: loop %Ra, "
                          "hdo_horner_rn %Ra",
                          trial, (long)p, (long)len, h, out1, out2);
            cr_assert_fail("%s", buf);
        }
        for (slong k = 0; k < len; k++)
            mpfr_clear(c[k]);
        flint_free(c);
        mpfr_clears(h, acc1, acc2, out1, out2, (mpfr_ptr)0);
    }
    flint_randclear(st);
}

/* hdo_powers_rn is the loop v[p - j] = v[p - j + 1] h of mpfr_mul to
   the bit: every precision up to 700 bits (the limbs up to 256), h of
   the powers' precision or of another (more bits in the same limbs: the
   product by h itself, not by h rounded; fewer limbs: mpfr_mul), h
   negative, with few bits (exact powers, ties), just below a power of
   two (a rounding up carries into the exponent), zero, and exponents
   that leave MPFR's range within the chain (from there mpfr_mul's
   overflow and underflow). */
Test(expr_fused, powers_rn_is_the_mul_loop)
{
    flint_rand_t st;
    flint_randinit(st);
    for (long trial = 0; trial < 20000; trial++) {
        mpfr_prec_t p = precs[n_randint(st, NPRECS)];
        slong order = (slong)n_randint(st, 100);
        mpfr_t *v = flint_malloc((order + 1) * sizeof *v);
        mpfr_t *w = flint_malloc((order + 1) * sizeof *w);
        for (slong j = 0; j <= order; j++) {
            mpfr_init2(v[j], p);
            mpfr_init2(w[j], p);
        }
        mpfr_prec_t ph = p;
        if (n_randint(st, 6) == 0)
            ph = n_randint(st, 2) ? precs[n_randint(st, NPRECS)]
                                  : ((p + 63) / 64) * 64;
        mpfr_t h;
        mpfr_init2(h, ph);
        int kind = (int)n_randint(st, 8);
        random_num(h, st, kind == 0 ? (1L << 24) : 8);
        if (kind == 1) { /* 1 - 2^-ph: each power rounds up to a carry */
            mpfr_set_ui(h, 1, MPFR_RNDN);
            mpfr_nextbelow(h);
        } else if (kind == 2 && n_randint(st, 4) == 0) {
            mpfr_set_zero(h, n_randint(st, 2) ? 1 : -1);
        }
        mpfr_set_ui(w[order], 1, MPFR_RNDN);
        if (order >= 1)
            mpfr_set(w[order - 1], h, MPFR_RNDN);
        for (slong j = 2; j <= order; j++)
            mpfr_mul(w[order - j], w[order - j + 1], h, MPFR_RNDN);
        hdo_powers_rn(v, order, h);
        for (slong j = 0; j <= order; j++)
            if (!same_bits(v[order - j], w[order - j])) {
                char buf[1600];
                mpfr_snprintf(buf, sizeof buf,
                              "trial %ld: prec %ld, h of %ld bits %Ra: "
                              "h^%ld = %Ra, mpfr_mul's loop %Ra",
                              trial, (long)p, (long)ph, h, (long)j,
                              v[order - j], w[order - j]);
                cr_assert_fail("%s", buf);
            }
        for (slong j = 0; j <= order; j++) {
            mpfr_clear(v[j]);
            mpfr_clear(w[j]);
        }
        flint_free(v);
        flint_free(w);
        mpfr_clear(h);
    }
    flint_randclear(st);
}

/* Makes the window's last bits the result's: the terms of the series
   (weights as hdo_conv_fused's) cancel exactly by pairs (term i the
   negative of term j: u_i = u_j, v_(k-i) = -v_(k-j) w_j / w_i for w_i =
   w_j or 2 w_j; a square's pairs (i, k - i) against (j, k - j)), and
   every other term is moved to within 140 bits below to 40 above the
   window's last bit 2^(Emax - p - 64), Emax from the cancelling terms.
   The result then holds the window's sum exactly: a partial product cut
   differently shows (the random terms alone hide most of the window's
   bits in the rounding to p bits). */
static void
cancel_to_window(mpfr_t *u, mpfr_t *v, slong k, slong lo, slong hi, int weight,
                 int square, mpfr_prec_t p, flint_rand_t st)
{
    char *used = flint_calloc(k + 1, 1);
    long Emax = LONG_MIN;
    slong top = square ? (k + 1) / 2 - 1 : hi; /* a square: its pairs */
    for (slong j = lo; j <= top; j++) {
        ulong wj = weight == 1 ? (ulong)j : weight == 2 ? (ulong)(k - j) : 1;
        mpfr_t *b = square ? u : v;
        if (used[j] || wj == 0 || mpfr_zero_p(u[j]) || mpfr_zero_p(b[k - j]))
            continue;
        for (slong i = j + 1; i <= top; i++) {
            ulong wi = weight == 1   ? (ulong)i
                       : weight == 2 ? (ulong)(k - i)
                                     : 1;
            if (used[i] || (wi != wj && wi != 2 * wj))
                continue;
            mpfr_set(u[i], u[j], MPFR_RNDN);
            mpfr_neg(b[k - i], b[k - j], MPFR_RNDN);
            if (wi != wj)
                mpfr_div_2ui(b[k - i], b[k - i], 1, MPFR_RNDN);
            used[i] = used[j] = 1;
            long e = mpfr_get_exp(u[j]) + mpfr_get_exp(b[k - j]) +
                     FLINT_BIT_COUNT(wj);
            Emax = e > Emax ? e : Emax;
            break;
        }
    }
    if (Emax == LONG_MIN) {
        flint_free(used);
        return;
    }
    for (slong j = lo; j <= hi; j++) {
        mpfr_t *b = square ? u : v;
        if (used[j] || (square && (used[k - j] || j > k - j)) ||
            mpfr_zero_p(u[j]) || mpfr_zero_p(b[k - j]))
            continue;
        long target = Emax - p - 64 - 140 + (long)n_randint(st, 181);
        if (square && j == k - j)
            mpfr_set_exp(u[j], target / 2);
        else
            mpfr_set_exp(u[j], target - mpfr_get_exp(b[k - j]));
    }
    flint_free(used);
}

/* The fused Cauchy product against the exact sum S (exact products,
   mpfr_sum at a precision holding all of them): |fused - S| at most
   half an ulp of the result plus (2 n + 1) m 2^(Emax - p - 64) (n limbs,
   m terms, every term below 2^Emax: decisions.md D-108), for the three
   weights, with cancelling signs and zeros among the terms, half the
   trials cancelled to the window; an infinity refuses (returns 1). */
Test(expr_fused, conv_fused_within_its_bound)
{
    flint_rand_t st;
    flint_randinit(st);
    for (long trial = 0; trial < 4000; trial++) {
        mpfr_prec_t p = precs[1 + n_randint(st, NPRECS - 1)];
        slong k = (slong)n_randint(st, 60), lo = n_randint(st, 2),
              hi = k - (slong)n_randint(st, 2), m = k + 1;
        int weight = (int)n_randint(st, 3);
        mpfr_t *u, *v;
        series_init(&u, &v, m, p, st);
        if (k >= 1 && n_randint(st, 4) == 0) { /* cancel two terms */
            mpfr_set(u[hi], u[lo], MPFR_RNDN);
            mpfr_neg(v[k - hi], v[k - lo], MPFR_RNDN);
        }
        if (n_randint(st, 2))
            cancel_to_window(u, v, k, lo, hi, weight, 0, p, st);
        mpfr_t r, S, err, bound, tmp;
        mpfr_init2(r, p);
        mpfr_inits2(8 * 8192, S, (mpfr_ptr)0);
        mpfr_inits2(64, err, bound, (mpfr_ptr)0);
        mpfr_ptr *terms = flint_malloc(m * sizeof *terms);
        slong nt = 0, mt = 0; /* terms, nonzero terms */
        long Emax = LONG_MIN;
        for (slong j = lo; j <= hi; j++) {
            terms[nt] = flint_malloc(sizeof(mpfr_t));
            mpfr_init2(terms[nt], 2 * p + 8);
            mpfr_mul(terms[nt], u[j], v[k - j], MPFR_RNDN); /* exact */
            mpfr_mul_ui(terms[nt], terms[nt],
                        weight == 1   ? j
                        : weight == 2 ? k - j
                                      : 1,
                        MPFR_RNDN);
            if (!mpfr_zero_p(terms[nt])) {
                long e = mpfr_get_exp(u[j]) + mpfr_get_exp(v[k - j]) +
                         FLINT_BIT_COUNT(weight == 1   ? j
                                         : weight == 2 ? k - j
                                                       : 1);
                Emax = e > Emax ? e : Emax;
                mt++;
            }
            nt++;
        }
        mpfr_sum(S, terms, nt, MPFR_RNDN);
        int rc = hdo_conv_fused(r, u, v, k, lo, hi, weight);
        cr_assert(rc == 0 || p > 256, "prec %ld: refused", (long)p);
        if (rc != 0)
            mpfr_set(r, S, MPFR_RNDN); /* the caller's own loop */
        mpfr_init2(tmp, 8 * 8192);
        mpfr_sub(tmp, S, r, MPFR_RNDN);
        mpfr_abs(err, tmp, MPFR_RNDU);
        /* half an ulp of r, plus (2 n + 1) mt 2^(Emax - p - 64) */
        mpfr_set_zero(bound, 1);
        if (!mpfr_zero_p(r))
            mpfr_set_ui_2exp(bound, 1, mpfr_get_exp(r) - p - 1, MPFR_RNDU);
        if (mt > 0) {
            mpfr_set_ui_2exp(tmp, (2 * ((p + 63) / 64) + 1) * (ulong)mt,
                             Emax - p - 64, MPFR_RNDU);
            mpfr_add(bound, bound, tmp, MPFR_RNDU);
        }
        if (mpfr_cmp(err, bound) > 0) {
            char buf[400];
            mpfr_snprintf(buf, sizeof buf,
                          "trial %ld: prec %ld, k %ld, weight %d: error %.3Re "
                          "above %.3Re",
                          trial, (long)p, (long)k, weight, err, bound);
            cr_assert_fail("%s", buf);
        }
        if (rc == 0 && (nt == 0 || mpfr_zero_p(S)))
            cr_assert(mpfr_zero_p(r) && !mpfr_signbit(r),
                      "trial %ld: an exact 0 is +0 (nt %ld, rc %d, r %g)",
                      trial, (long)nt, rc, mpfr_get_d(r, MPFR_RNDN));
        if (lo <= hi) { /* an infinity: refused, r untouched */
            mpfr_set_inf(u[lo], 1);
            mpfr_set_ui(r, 7, MPFR_RNDN);
            cr_assert_eq(hdo_conv_fused(r, u, v, k, lo, hi, weight), 1);
            cr_assert(mpfr_cmp_ui(r, 7) == 0);
        }
        for (slong j = 0; j < nt; j++) {
            mpfr_clear(terms[j]);
            flint_free(terms[j]);
        }
        flint_free(terms);
        series_clear(u, v, m);
        mpfr_clears(r, S, err, bound, tmp, (mpfr_ptr)0);
    }
    flint_randclear(st);
}

/* u's significand as the integer of its n limbs: |u| 2^(64 n - exp u). */
static void
limbs_of(mpz_t z, mpfr_srcptr u, long n)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(u));
    mpfr_abs(t, u, MPFR_RNDN);
    mpfr_mul_2si(t, t, 64 * n - mpfr_get_exp(u), MPFR_RNDN); /* exact */
    mpfr_get_z(z, t, MPFR_RNDZ);
    mpfr_clear(t);
}

/* acc += (or -=) one term w a b of the rule, in units of the window's
   last bit 2^bottom: A = w (a's limbs) 2^rho and B = b's limbs, the
   product's last bit 2^(exp a + exp b - 128 n) = 2^(bottom + 64 Q +
   rho), 0 <= rho < 64; each partial product A_i B_l 2^(64 (Q + i + l))
   truncated to an integer alone. */
static void
rule_term(mpz_t acc, mpfr_srcptr a, mpfr_srcptr b, ulong w, long n, long bottom)
{
    if (mpfr_zero_p(a) || mpfr_zero_p(b) || w == 0)
        return;
    long s = mpfr_get_exp(a) + mpfr_get_exp(b) - 128 * n - bottom;
    long rho = ((s % 64) + 64) % 64, Q = (s - rho) / 64;
    mpz_t A, B, Ai, Bl, P, sum;
    mpz_inits(A, B, Ai, Bl, P, sum, (mpz_ptr)0);
    limbs_of(A, a, n);
    limbs_of(B, b, n);
    mpz_mul_ui(A, A, w);
    mpz_mul_2exp(A, A, (mp_bitcnt_t)rho);
    long na = (long)(mpz_sizeinbase(A, 2) + 63) / 64;
    for (long i = 0; i < na; i++) {
        mpz_fdiv_q_2exp(Ai, A, (mp_bitcnt_t)(64 * i));
        mpz_fdiv_r_2exp(Ai, Ai, 64);
        for (long l = 0; l < n; l++) {
            mpz_fdiv_q_2exp(Bl, B, (mp_bitcnt_t)(64 * l));
            mpz_fdiv_r_2exp(Bl, Bl, 64);
            mpz_mul(P, Ai, Bl);
            long sh = 64 * (Q + i + l);
            if (sh >= 0)
                mpz_mul_2exp(P, P, (mp_bitcnt_t)sh);
            else
                mpz_fdiv_q_2exp(P, P, (mp_bitcnt_t)-sh);
            mpz_add(sum, sum, P);
        }
    }
    if (mpfr_signbit(a) != mpfr_signbit(b))
        mpz_sub(acc, acc, sum);
    else
        mpz_add(acc, acc, sum);
    mpz_clears(A, B, Ai, Bl, P, sum, (mpz_ptr)0);
}

/* The fused Cauchy product to the bit, against its rule written with
   GMP (decisions.md D-108): the window's last bit 2^(T - 64 W) (T = Emax
   + bits(m) + 1, W limbs down to p + 64 bits below Emax, Emax the
   largest term's exponent bound, m terms); each term w_j u_j v_(k-j) a
   product of the limbs of w_j u_j 2^rho (rho < 64: the product's last
   bit a whole number of limbs from the window's) and v_(k-j)'s, each
   partial product truncated towards zero at the window's last bit; the
   sum of the truncated terms exact, rounded once to nearest (+0 for 0).
   A square (u = v, unweighted, lo + hi = k) one trial in two: each pair
   j < k - j once (u_j the shifted operand), doubled, and the middle
   term.  Half the trials cancel to the window (cancel_to_window). */
Test(expr_fused, conv_fused_is_its_cut_sum)
{
    flint_rand_t st;
    flint_randinit(st);
    for (long trial = 0; trial < 6000; trial++) {
        mpfr_prec_t p = precs[1 + n_randint(st, 12)]; /* 53 .. 256 */
        long n = (long)(p + 63) / 64;
        slong k = (slong)n_randint(st, 60);
        int square = n_randint(st, 2), weight = square ? 0 : n_randint(st, 3);
        slong lo = n_randint(st, 2),
              hi = square ? k - lo : k - (slong)n_randint(st, 2);
        mpfr_t *u, *v;
        series_init(&u, &v, k + 1, p, st);
        if (n_randint(st, 2))
            cancel_to_window(u, v, k, lo, hi, weight, square, p, st);
        const mpfr_t *w2 = square ? (const mpfr_t *)u : (const mpfr_t *)v;
        /* the rule: Emax and m, then the cut terms' exact sum */
        long Emax = 0;
        slong m = 0;
        for (slong j = lo; j <= hi; j++) {
            ulong w = weight == 1 ? (ulong)j : weight == 2 ? (ulong)(k - j) : 1;
            if (mpfr_zero_p(u[j]) || mpfr_zero_p(w2[k - j]) || w == 0)
                continue;
            long e = mpfr_get_exp(u[j]) + mpfr_get_exp(w2[k - j]) +
                     FLINT_BIT_COUNT(w);
            Emax = m == 0 || e > Emax ? e : Emax;
            m++;
        }
        mpz_t S;
        mpfr_t want, got;
        mpz_init(S);
        mpfr_inits2(p, want, got, (mpfr_ptr)0);
        long bottom = 0;
        if (m > 0) {
            long T = Emax + FLINT_BIT_COUNT((ulong)m) + 1;
            long W = (T - (Emax - (long)p - 64) + 63) / 64;
            bottom = T - 64 * W;
            for (slong j = lo; j <= hi; j++) {
                ulong w = weight == 1   ? (ulong)j
                          : weight == 2 ? (ulong)(k - j)
                                        : 1;
                if (!square)
                    rule_term(S, u[j], w2[k - j], w, n, bottom);
                else if (j < k - j) /* the pair, twice */
                    for (int twice = 0; twice < 2; twice++)
                        rule_term(S, u[j], u[k - j], 1, n, bottom);
                else if (j == k - j)
                    rule_term(S, u[j], u[j], 1, n, bottom);
            }
        }
        mpfr_set_z_2exp(want, S, bottom, MPFR_RNDN); /* +0 for 0 */
        cr_assert_eq(hdo_conv_fused(got, u, w2, k, lo, hi, weight), 0);
        if (!same_bits(want, got)) {
            char buf[600];
            mpfr_snprintf(buf, sizeof buf,
                          "trial %ld: prec %ld, k %ld, lo %ld, hi %ld, weight "
                          "%d, square %d: rule %Ra, kernel %Ra",
                          trial, (long)p, (long)k, (long)lo, (long)hi, weight,
                          square, want, got);
            cr_assert_fail("%s", buf);
        }
        series_clear(u, v, k + 1);
        mpz_clear(S);
        mpfr_clears(want, got, (mpfr_ptr)0);
    }
    flint_randclear(st);
}
