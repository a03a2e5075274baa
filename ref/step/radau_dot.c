/* radau_dot.c -- the stage residual of Radau IIA, h (A (x) I) F(Z) - Z, as
 * fixed-point dot products */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "radau.h"
#include "radau_dot.h"

/* Why.  The residual is computed at every Newton iteration: s^2 n
   multiply-adds (1,152 at 24 stages and two components), which as an
   mpfr_fma loop at the working precision were half of Van der Pol
   mu = 1000's run time (each mpfr_fma forms the exact product, then adds
   with a rounding).  Here each column of F is scaled to integers with
   one exponent (p bits below its largest entry), A is kept as integers
   with 64 L >= p fraction bits, and a row is summed exactly in GMP
   integers (exact_cols and exact_mpn, at the limb level) and rounded once.  And
   p is not the working precision: the Newton iteration needs the residual to an
   absolute accuracy below its stopping tolerance ntol, so p is 32 bits more
   than the ratio of |Z|, |h F| to ntol (166 bits at 30 digits against a working
   precision of 237). */

/* nmem: the entries of hdo_radau_dot_residual_next's memories Fp and Rp
   (s n, or 0 where only products are formed) */
static void
dot_init(hdo_radau_dot *d, const hdo_mat_t A, slong n, slong nmem)
{
    slong s = A->rows;
    d->s = s;
    d->n = n;
    d->lmax = (A->prec + 63) / 64 + 1;
    d->Az = calloc(d->lmax + 1, sizeof(mpz_ptr));
    d->A = hdo_vec_init(s * s, A->prec);
    d->Fz = malloc((s * n + 1) * sizeof(mpz_t));
    HDO_ASSERT(d->Az != NULL && d->Fz != NULL);
    for (slong k = 0; k < s * n; k++)
        mpz_init(d->Fz[k]);
    mpz_init(d->acc);
    d->pos = d->neg = NULL;
    d->nacc = 0;
    d->no_cols = 0;
    d->ashift = 0;
    /* exact_cols' signs; s + 1 rows for the predictor's powers (the
       stage count itself is at most the maximum, radau_nodes.c) */
    HDO_ASSERT(s <= HDO_RADAU_MAX_STAGES + 1);
    for (slong l = 0; l <= HDO_RADAU_COLS; l++) {
        d->Al[l] = NULL;
        d->As[l] = NULL;
    }
    d->fl = malloc((s * HDO_RADAU_COLS + 1) * sizeof(mp_limb_t));
    d->fs = malloc(s + 1);
    HDO_ASSERT(d->fl != NULL && d->fs != NULL);
    mpfr_init2(d->t, A->prec);
    d->nmem = nmem;
    d->Fp = hdo_vec_init(nmem, A->prec);
    d->Rp = hdo_vec_init(nmem, A->prec);
    for (slong i = 0; i < s * s; i++)
        mpfr_set(d->A + i, hdo_mat_entry(A, i / s, i % s), MPFR_RNDN);
}

void
hdo_radau_dot_init(hdo_radau_dot *d, const hdo_mat_t A, slong n)
{
    dot_init(d, A, n, A->rows * n);
}

void
hdo_radau_dot_init_products(hdo_radau_dot *d, const hdo_mat_t A, slong n)
{
    dot_init(d, A, n, 0);
}

void
hdo_radau_dot_clear(hdo_radau_dot *d)
{
    slong s = d->s;
    for (slong l = 0; l <= d->lmax; l++)
        if (d->Az[l] != NULL) {
            for (slong i = 0; i < s * s; i++)
                mpz_clear(d->Az[l] + i);
            free(d->Az[l]);
        }
    free(d->Az);
    for (slong l = 0; l <= HDO_RADAU_COLS; l++) {
        free(d->Al[l]);
        free(d->As[l]);
    }
    free(d->fl);
    free(d->fs);
    for (slong k = 0; k < s * d->n; k++)
        mpz_clear(d->Fz[k]);
    free(d->Fz);
    hdo_vec_clear(d->A, s * s);
    mpz_clear(d->acc);
    free(d->pos);
    free(d->neg);
    mpfr_clear(d->t);
    hdo_vec_clear(d->Fp, d->nmem);
    hdo_vec_clear(d->Rp, d->nmem);
}

static int pack(mp_limb_t *limbs, unsigned char *sg, const mpz_t *x,
                slong stride, slong s, slong L);

/* Az[l] := A rounded to 64 l fraction bits, and packed for exact_cols
   when it fits l <= HDO_RADAU_COLS limbs an entry (Al[l] NULL else). */
static void
a_fill(hdo_radau_dot *d, slong l)
{
    slong s = d->s;
    /* mpfr_mul_2si then mpfr_get_z's integers, off the limbs */
    for (slong i = 0; i < s * s; i++)
        hdo_radau_fixed(d->Az[l] + i, d->A + i, 64 * l - d->ashift);
    if (l <= HDO_RADAU_COLS) {
        if (d->Al[l] == NULL)
            d->Al[l] = malloc(s * s * l * sizeof(mp_limb_t));
        if (d->As[l] == NULL)
            d->As[l] = malloc(s * s);
        HDO_ASSERT(d->Al[l] != NULL && d->As[l] != NULL);
        if (pack(d->Al[l], d->As[l], (const mpz_t *)d->Az[l], 1, s * s, l) !=
            0) {
            free(d->Al[l]); /* an entry beyond l limbs: mpn alone */
            d->Al[l] = NULL;
        }
    }
}

/* The limbs of A's integer form that a product at prec bits takes. */
static slong
dot_limbs(const hdo_radau_dot *d, long prec)
{
    slong l = (prec < 64 ? 64 : prec + 63) / 64;
    return l > d->lmax ? d->lmax : l;
}

/* A's integer form of l limbs, made on first use. */
static mpz_srcptr
a_fixed(hdo_radau_dot *d, slong l)
{
    slong s = d->s;
    if (d->Az[l] == NULL) {
        d->Az[l] = malloc(s * s * sizeof(mpz_t));
        HDO_ASSERT(d->Az[l] != NULL);
        for (slong i = 0; i < s * s; i++)
            mpz_init(d->Az[l] + i);
        a_fill(d, l);
    }
    return d->Az[l];
}

/* hdo_radau_fixed reads MPFR's significand limbs (its documented struct
   layout) as 64-bit limbs; elsewhere the build stops here */
_Static_assert(GMP_NUMB_BITS == 64, "radau_dot.c needs 64-bit GMP limbs");

void
hdo_radau_fixed(mpz_t z, mpfr_srcptr x, long shift)
{
    if (!mpfr_regular_p(x)) {
        mpz_set_ui(z, 0); /* a NaN or infinity is not reached: the
            stages' values are checked numbers (expr.h) */
        return;
    }
    /* x = M 2^(e - 64 nx), M the nx limbs of its significand (the low
       bits below its precision are zero): round(M 2^-r), r = 64 nx - e */
    slong nx = (mpfr_get_prec(x) + 63) / 64;
    const mp_limb_t *m = x->_mpfr_d;
    long e = (long)mpfr_get_exp(x) + shift, r = 64 * nx - e;
    if (r <= 0 || r >= 64 * nx) {
        /* beyond the significand, or below 1 (e <= 0; e = 0: [1/2, 1), a tie
           at 1/2 rounds to the even 0): MPFR's own rounding */
        mpfr_t t;
        mpfr_init2(t, mpfr_get_prec(x));
        mpfr_mul_2si(t, x, shift, MPFR_RNDN);
        mpfr_get_z(z, t, MPFR_RNDN);
        mpfr_clear(t);
        return;
    }
    slong off = r / 64, sh = r % 64, nq = nx - off;
    mp_ptr q = mpz_limbs_write(z, nq + 1);
    if (sh != 0)
        mpn_rshift(q, m + off, nq, (unsigned)sh);
    else
        mpn_copyi(q, m + off, nq);
    /* the bit worth 1/2 and whether any bit below it is set */
    long hb = r - 1;
    int half = (int)((m[hb / 64] >> (hb % 64)) & 1);
    int sticky = (m[hb / 64] & (((mp_limb_t)1 << (hb % 64)) - 1)) != 0;
    for (slong i = 0; i < hb / 64 && !sticky; i++)
        sticky = m[i] != 0;
    q[nq] = 0;
    if (half && (sticky || (q[0] & 1)))
        q[nq] = mpn_add_1(q, q, nq, 1);
    slong used = nq + 1;
    while (used > 0 && q[used - 1] == 0)
        used--;
    mpz_limbs_finish(z, mpfr_sgn(x) < 0 ? -used : used);
}

/* room for len limbs in each accumulator */
static void
acc_room(hdo_radau_dot *d, slong len)
{
    if (len > d->nacc) {
        d->nacc = 2 * len;
        d->pos = realloc(d->pos, d->nacc * sizeof(mp_limb_t));
        d->neg = realloc(d->neg, d->nacc * sizeof(mp_limb_t));
        HDO_ASSERT(d->pos != NULL && d->neg != NULL);
    }
}

/* d->acc := pos - neg, the row's two accumulators of len limbs. */
static void
finish_row(hdo_radau_dot *d, slong len)
{
    int sign = mpn_cmp(d->pos, d->neg, len);
    mp_ptr big = sign >= 0 ? d->pos : d->neg,
           small = sign >= 0 ? d->neg : d->pos;
    mpn_sub_n(big, big, small, len);
    slong used = len;
    while (used > 0 && big[used - 1] == 0)
        used--;
    mp_ptr out = mpz_limbs_write(d->acc, used > 0 ? used : 1);
    mpn_copyi(out, big, used);
    mpz_limbs_finish(d->acc, sign >= 0 ? used : -used);
}

/* d->acc := sum_j a_j Fz[j n + k] exactly, the same integer as an
   mpz_addmul loop, at the limb level: the terms of each sign summed
   into their own accumulator by mpn_addmul_1 (no allocation, no
   normalisation per term), then one subtraction.  mpz_addmul cost about
   300 instructions a term on 3-limb operands, 30% of the ring
   modulator's run at 16 digits (decisions.md D-097). */
static void
exact_mpn(hdo_radau_dot *d, mpz_srcptr a, slong k)
{
    slong s = d->s, n = d->n, len = 0;
    for (slong j = 0; j < s; j++) {
        slong m = mpz_size(a + j) + mpz_size(d->Fz[j * n + k]) + 1;
        if (m > len)
            len = m;
    }
    len++; /* room for the carries of s terms (s < 2^64) */
    acc_room(d, len);
    mpn_zero(d->pos, len);
    mpn_zero(d->neg, len);
    for (slong j = 0; j < s; j++) {
        mpz_srcptr f = d->Fz[j * n + k];
        slong na = mpz_size(a + j), nf = mpz_size(f);
        if (na == 0 || nf == 0)
            continue;
        mp_ptr acc = mpz_sgn(a + j) * mpz_sgn(f) > 0 ? d->pos : d->neg;
        const mp_limb_t *al = mpz_limbs_read(a + j), *fl = mpz_limbs_read(f);
        for (slong q = 0; q < na; q++) {
            mp_limb_t cy = mpn_addmul_1(acc + q, fl, nf, al[q]);
            if (cy != 0)
                mpn_add_1(acc + q + nf, acc + q + nf, len - q - nf, cy);
        }
    }
    finish_row(d, len);
}

/* d->acc := sum_j a_j f_j exactly by product scanning (expr.h's
   hdo_dot_limbs), a the row's entries of L limbs, as their signs, f
   d->fl and d->fs: exact_mpn's integer.  The terms of each sign are
   listed without a branch (a branch per term and column mispredicts on
   the signs' random pattern). */
static void
exact_cols(hdo_radau_dot *d, const mp_limb_t *a, const unsigned char *as,
           slong L)
{
    slong s = d->s, len = 2 * L + 1, np = 0, nn = 0;
    slong jp[HDO_RADAU_MAX_STAGES + 1], jn[HDO_RADAU_MAX_STAGES + 1];
    for (slong j = 0; j < s; j++) {
        int neg = as[j] ^ d->fs[j];
        jp[np] = j;
        jn[nn] = j;
        np += !neg;
        nn += neg;
    }
    acc_room(d, len);
    mp_ptr out = d->pos;
    hdo_dot_limbs(out, a, d->fl, jp, np, jn, nn, L);
    int sign = (out[len - 1] >> (GMP_NUMB_BITS - 1)) != 0;
    if (sign)
        mpn_neg(out, out, len);
    slong used = len;
    while (used > 0 && out[used - 1] == 0)
        used--;
    mp_ptr w = mpz_limbs_write(d->acc, used > 0 ? used : 1);
    mpn_copyi(w, out, used);
    mpz_limbs_finish(d->acc, sign ? -used : used);
}

/* The entries x[j stride] (j < s) as L limbs each into limbs, their
   signs (1: negative) into sg; returns 0, or -1 when one needs more
   than L limbs. */
static int
pack(mp_limb_t *limbs, unsigned char *sg, const mpz_t *x, slong stride, slong s,
     slong L)
{
    for (slong j = 0; j < s; j++) {
        mpz_srcptr z = x[j * stride];
        slong nz = mpz_size(z);
        if (nz > L)
            return -1;
        mpn_zero(limbs + j * L, L);
        if (nz > 0)
            mpn_copyi(limbs + j * L, mpz_limbs_read(z), nz);
        sg[j] = mpz_sgn(z) < 0;
    }
    return 0;
}

void
hdo_radau_dot_apply(mpfr_ptr out, hdo_radau_dot *d, mpfr_srcptr F, slong ncols,
                    long prec, long scale)
{
    slong s = d->s, n = d->n;
    if (prec < 64)
        prec = 64;
    slong l = dot_limbs(d, prec);
    mpz_srcptr Az = a_fixed(d, l);
    for (slong k = 0; k < ncols; k++) {
        /* column k of F as integers times 2^(ek - prec) */
        long ek = LONG_MIN;
        for (slong j = 0; j < s; j++)
            if (!mpfr_zero_p(F + j * n + k) && mpfr_get_exp(F + j * n + k) > ek)
                ek = mpfr_get_exp(F + j * n + k);
        if (ek == LONG_MIN)
            ek = 0; /* the column is zero (or not a number: kept so) */
        for (slong j = 0; j < s; j++)
            hdo_radau_fixed(d->Fz[j * n + k], F + j * n + k, prec - ek);
        /* by columns when A and F fit l <= 12 limbs (the residual
           3 at 16 and 30 digits, 5 at 60, 7 at 100; the dense output 7
           at 60, 10 and 11 at 100), else by mpn_addmul_1: the same
           integers */
        int cols = !d->no_cols && l <= HDO_RADAU_COLS && d->Al[l] != NULL &&
                   pack(d->fl, d->fs, (const mpz_t *)d->Fz + k, n, s, l) == 0;
        for (slong i = 0; i < s; i++) {
            if (cols)
                exact_cols(d, d->Al[l] + i * s * l, d->As[l] + i * s, l);
            else
                exact_mpn(d, Az + i * s, k);
            mpfr_set_z_2exp(out + i * n + k, d->acc, ek - prec - 64 * l + scale,
                            MPFR_RNDN);
        }
    }
}

void
hdo_radau_dot_powers(mpfr_ptr out, hdo_radau_dot *d, mpfr_srcptr x,
                     mpfr_srcptr F, long prec)
{
    slong s1 = d->s;
    long vexp = LONG_MIN;
    hdo_erange er;
    hdo_erange_get(&er);
    /* V in d's matrix; the products on the limbs (MPFR's bits, D-132) */
    for (slong m = 0; m < s1; m++) {
        mpfr_ptr row = d->A + m * s1;
        mpfr_set_ui(row, 1, MPFR_RNDN);
        for (slong k = 1; k < s1; k++)
            hdo_mul_rn(row + k, row + k - 1, x + m, &er);
        for (slong k = 0; k < s1; k++)
            if (!mpfr_zero_p(row + k) && mpfr_get_exp(row + k) > vexp)
                vexp = mpfr_get_exp(row + k);
    }
    /* |V| < 2^vexp, vexp >= 1 (V holds ones); the integer form of the
       limbs the product takes made again, the others dropped */
    d->ashift = vexp;
    slong lu = dot_limbs(d, prec + vexp);
    for (slong l = 0; l <= d->lmax; l++)
        if (d->Az[l] != NULL) {
            if (l == lu) {
                a_fill(d, l);
                continue;
            }
            for (slong i = 0; i < s1 * s1; i++)
                mpz_clear(d->Az[l] + i);
            free(d->Az[l]);
            d->Az[l] = NULL;
        }
    hdo_radau_dot_apply(out, d, F, d->n, prec + vexp, vexp);
}

void
hdo_radau_dot_residual(mpfr_ptr R, hdo_radau_dot *d, const mpfr_t h,
                       mpfr_srcptr F, mpfr_srcptr Z, slong nstate,
                       const mpfr_t ntol)
{
    slong s = d->s, n = d->n;
    long prec = (long)mpfr_get_prec(R), emax = LONG_MIN, e;
    /* the dot's precision: its rounding, relative to the larger of |Z|
       and |h F| (A's rows sum to c_i <= 1 in size), 2^-32 of ntol */
    for (slong k = 0; k < s * n; k++) {
        if (k % n >= nstate)
            continue;
        if (!mpfr_zero_p(Z + k) && mpfr_get_exp(Z + k) > emax)
            emax = mpfr_get_exp(Z + k);
        if (!mpfr_zero_p(F + k) &&
            (e = mpfr_get_exp(F + k) + mpfr_get_exp(h)) > emax)
            emax = e;
    }
    if (emax != LONG_MIN && mpfr_regular_p(ntol) &&
        emax - mpfr_get_exp(ntol) + 32 < prec)
        prec = emax - mpfr_get_exp(ntol) + 32;
    hdo_radau_dot_apply(R, d, F, nstate, prec, 0);
    hdo_erange er;
    hdo_erange_get(&er);
    for (slong i = 0; i < s; i++)
        for (slong k = 0; k < nstate; k++) {
            mpfr_ptr Ri = R + i * n + k;
            /* the product on the limbs: MPFR's bits (decisions.md
               D-132); the difference, which cancels, MPFR's faster */
            hdo_mul_rn(Ri, Ri, h, &er);
            mpfr_sub(Ri, Ri, Z + i * n + k, MPFR_RNDN);
        }
}

/* Why.  A Newton iteration whose matrix is factored in double gains a
   fixed number of bits an iteration (decisions.md D-109), so the
   iterations a step takes grow with the digits, and each full residual
   costs s^2 n products of about the working precision.  After the
   first, only the low bits of F move: the dot products of the change
   need the bits between its size and the tolerance, as the correction
   of a mixed-precision iterative refinement does (D-123). */
void
hdo_radau_dot_residual_next(mpfr_ptr R, hdo_radau_dot *d, const mpfr_t h,
                            mpfr_srcptr F, slong nstate, const mpfr_t ntol)
{
    slong s = d->s, n = d->n;
    HDO_ASSERT(d->nmem == s * n);
    for (slong i = 0; i < s; i++)
        for (slong k = 0; k < nstate; k++) {
            mpfr_ptr f = d->Fp + i * n + k;
            mpfr_sub(f, F + i * n + k, f, MPFR_RNDN);
        }
    hdo_radau_dot_residual(R, d, h, d->Fp, d->Rp, nstate, ntol);
}

void
hdo_radau_dot_keep(hdo_radau_dot *d, mpfr_srcptr F, mpfr_srcptr R, slong nstate)
{
    slong s = d->s, n = d->n;
    HDO_ASSERT(d->nmem == s * n);
    for (slong i = 0; i < s; i++)
        for (slong k = 0; k < nstate; k++) {
            mpfr_set(d->Fp + i * n + k, F + i * n + k, MPFR_RNDN);
            mpfr_set(d->Rp + i * n + k, R + i * n + k, MPFR_RNDN);
        }
}

void
hdo_radau_dot_keep_swap(hdo_radau_dot *d, mpfr_ptr F, mpfr_srcptr R,
                        slong nstate)
{
    slong s = d->s, n = d->n;
    HDO_ASSERT(d->nmem == s * n);
    for (slong i = 0; i < s; i++)
        for (slong k = 0; k < nstate; k++) {
            mpfr_ptr f = d->Fp + i * n + k, g = F + i * n + k;
            if (mpfr_get_prec(f) == mpfr_get_prec(g))
                mpfr_swap(f, g);
            else
                mpfr_set(f, g, MPFR_RNDN);
            mpfr_set(d->Rp + i * n + k, R + i * n + k, MPFR_RNDN);
        }
}

void
hdo_radau_dot_moved(hdo_radau_dot *d, mpfr_srcptr dZ, slong nstate)
{
    slong s = d->s, n = d->n;
    HDO_ASSERT(d->nmem == s * n);
    hdo_erange er;
    hdo_erange_get(&er);
    for (slong i = 0; i < s; i++)
        for (slong k = 0; k < nstate; k++) {
            mpfr_ptr p = d->Rp + i * n + k;
            hdo_sub_rn(p, dZ + i * n + k, p, &er);
        }
}
