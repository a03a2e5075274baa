/* radau_block.c -- the Newton matrix of Radau IIA in block-diagonal form:
 * A = T Lambda T^-1 turns I - h (A (x) J) into the n x n complex blocks
 * I - h lambda_k J (Hairer and Wanner II, IV.8), solved in double */
/* Compiled at -O3 (Makefile, HOT_DOUBLE): its loops vectorised, the same
   bits (decisions.md D-140). */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "radau.h"

/* Why this form.  Factoring the full n s x n s matrix costs (n s)^3 / 3
   multiplications (18k at n = 2, s = 24 stages): it dominated a step.
   With one Jacobian J for all stages and A = Q S Q^* (complex Schur
   form: Q unitary, S upper triangular), the matrix is unitarily similar
   to I - h (S (x) J), block upper triangular: s complex n x n blocks
   I - h s_kk J to factor (s_kk the eigenvalues of A) and a back
   substitution over the stages.  The eigenvector basis (Hairer-Wanner's
   choice for RADAU5, block-diagonal) is not used: its condition number
   grows about 10^(s/2) (1e8 at s = 18, 1e19 at s = 38, measured), which
   at the stage counts used here destroys any double-precision solve;
   Q is unitary, so rounding it to double costs nothing.

   Why in double.  The solve is only a preconditioner: the residual is
   computed in MPFR in the original variables, so an inexact solve (Q, S
   rounded to 53 bits, the blocks' one Jacobian instead of each stage's)
   makes the iteration contract by some theta < 1 per step instead of
   converging quadratically, and cannot change what it converges to.
   The Newton loop measures theta and falls back to the full matrix in
   MPFR when it is not small.  The right-hand side is scaled by a power
   of two into double's range and back. */

int
hdo_radau_block_init(hdo_radau_block *b, const hdo_mat_t A, slong n)
{
    slong s = A->rows;
    int ok;
    b->n = n;
    b->s = s;
    b->ny = n;
    b->nnz = n * n;
    b->row = malloc((n * n + 1) * sizeof(slong));
    b->col = malloc((n * n + 1) * sizeof(slong));
    b->ord = malloc((n + 1) * sizeof(slong));
    b->pos = malloc((n + 1) * sizeof(slong));
    HDO_ASSERT(b->row != NULL && b->col != NULL && b->ord != NULL &&
               b->pos != NULL);
    for (slong e = 0; e < n * n; e++) {
        b->row[e] = e / n;
        b->col[e] = e % n;
    }
    for (slong i = 0; i < n; i++)
        b->ord[i] = b->pos[i] = i;
    b->kl = b->ku = n > 0 ? n - 1 : 0;
    b->bw = n;
    b->band = 0;
    b->x = calloc(n + 1, sizeof(double complex));
    HDO_ASSERT(b->x != NULL);
    b->Q = calloc(s * s, sizeof(double complex));
    b->S = calloc(s * s, sizeof(double complex));
    b->T = calloc(s * s, sizeof(double complex));
    b->B = calloc(s * n * n + 1, sizeof(double complex));
    b->w = calloc(s * n + 1, sizeof(double complex));
    b->u = calloc(s * n + 1, sizeof(double complex));
    b->w0 = calloc(s * n + 1, sizeof(double complex));
    b->rd = calloc(s * n + 1, sizeof(double));
    b->hJ = calloc(n * n + 1, sizeof(double));
    b->perm = malloc((s * n + 1) * sizeof(slong));
    HDO_ASSERT(b->Q != NULL && b->S != NULL && b->T != NULL && b->B != NULL &&
               b->w != NULL && b->u != NULL && b->w0 != NULL && b->rd != NULL &&
               b->hJ != NULL && b->perm != NULL);
    b->A = malloc((s * s + 1) * sizeof(double));
    HDO_ASSERT(b->A != NULL);
    for (slong i = 0; i < s * s; i++)
        b->A[i] = mpfr_get_d(hdo_mat_entry(A, i / s, i % s), MPFR_RNDN);
    b->lu = NULL;
    b->lperm = NULL;
    b->hJs = b->rf = NULL;
    b->staged = b->refine = b->refined = 0;
    ok = hdo_radau_schur(b->Q, b->S, b->T, A) == 0;
    return ok ? 0 : -1;
}

void
hdo_radau_block_clear(hdo_radau_block *b)
{
    free(b->Q);
    free(b->S);
    free(b->T);
    free(b->B);
    free(b->w);
    free(b->u);
    free(b->w0);
    free(b->rd);
    free(b->hJ);
    free(b->perm);
    free(b->row);
    free(b->col);
    free(b->ord);
    free(b->pos);
    free(b->x);
    free(b->A);
    free(b->lu);
    free(b->lperm);
    free(b->hJs);
    free(b->rf);
}

void
hdo_radau_block_set_pattern(hdo_radau_block *b, slong nnz, const slong *row,
                            const slong *col)
{
    slong n = b->n;
    b->nnz = nnz;
    b->row = realloc(b->row, (nnz + 1) * sizeof(slong));
    b->col = realloc(b->col, (nnz + 1) * sizeof(slong));
    b->hJ = realloc(b->hJ, (nnz + 1) * sizeof(double));
    HDO_ASSERT(b->row != NULL && b->col != NULL && b->hJ != NULL);
    /* the stages' h J_j are sized by nnz on their first use */
    free(b->hJs);
    b->hJs = NULL;
    memcpy(b->row, row, nnz * sizeof(slong));
    memcpy(b->col, col, nnz * sizeof(slong));
    hdo_radau_rcm(b->ord, n, nnz, row, col);
    for (slong i = 0; i < n; i++)
        b->pos[b->ord[i]] = i;
    b->kl = b->ku = 0;
    for (slong e = 0; e < nnz; e++) {
        slong d = b->pos[row[e]] - b->pos[col[e]];
        if (d > b->kl)
            b->kl = d;
        if (-d > b->ku)
            b->ku = -d;
    }
    /* a band when it is much narrower than the matrix */
    b->band = 4 * (b->kl + b->ku) < n;
    if (!b->band) {
        for (slong i = 0; i < n; i++)
            b->ord[i] = b->pos[i] = i;
        b->kl = b->ku = n > 0 ? n - 1 : 0;
        b->bw = n;
        return;
    }
    b->bw = 2 * b->kl + b->ku + 1;
    b->B = realloc(b->B, (b->s * n * b->bw + 1) * sizeof(double complex));
    HDO_ASSERT(b->B != NULL);
}

void
hdo_radau_block_set_states(hdo_radau_block *b, slong ny)
{
    b->ny = ny;
}

int
hdo_radau_block_factor(hdo_radau_block *b, const mpfr_t h, mpfr_srcptr J)
{
    HDO_ASSERT(b->nnz == b->n * b->n);
    return hdo_radau_block_factor_sparse(b, h, J);
}

/* Block q of the band form: t_qq E - h J (DAE) or I - h s_qq J (ODE) in
   the order ord, factored in place. */
static int
factor_band(hdo_radau_block *b, slong q, double complex d, double complex g)
{
    slong n = b->n, bw = b->bw, kl = b->kl;
    double complex *B = b->B + q * n * bw;
    memset(B, 0, n * bw * sizeof(double complex));
    for (slong e = 0; e < b->nnz; e++) {
        slong i = b->pos[b->row[e]], j = b->pos[b->col[e]];
        B[i * bw + j - i + kl] -= g * b->hJ[e];
    }
    for (slong i = 0; i < n; i++)
        if (b->ord[i] < b->ny)
            B[i * bw + kl] += d;
    return hdo_radau_band_factor(B, b->perm + q * n, n, kl, b->ku);
}

int
hdo_radau_block_factor_sparse(hdo_radau_block *b, const mpfr_t h, mpfr_srcptr J)
{
    slong n = b->n, nn = n * n, s = b->s;
    mpfr_t t;
    b->staged = b->refine = b->refined = 0;
    mpfr_init2(t, 64);
    for (slong e = 0; e < b->nnz; e++) {
        mpfr_mul(t, h, J + e, MPFR_RNDN);
        b->hJ[e] = mpfr_get_d(t, MPFR_RNDN);
        /* beyond double's range: the full matrix in MPFR instead */
        if (!isfinite(b->hJ[e]) || fabs(b->hJ[e]) > 1e250) {
            mpfr_clear(t);
            return -1;
        }
    }
    b->h = mpfr_get_d(h, MPFR_RNDN);
    mpfr_clear(t);
    for (slong q = 0; q < s; q++) {
        double complex *B = b->B + q * nn;
        slong *perm = b->perm + q * n;
        /* an ODE: I - h s_qq J; a DAE mode: t_qq diag(I, 0) - h J */
        double complex d = b->ny < n ? b->T[q * s + q] : 1,
                       g = b->ny < n ? 1 : b->S[q * s + q];
        if (b->band) {
            if (factor_band(b, q, d, g) != 0)
                return -1;
            continue;
        }
        memset(B, 0, nn * sizeof(double complex));
        for (slong e = 0; e < b->nnz; e++)
            B[b->row[e] * n + b->col[e]] = -g * b->hJ[e];
        for (slong i = 0; i < n; i++) {
            if (i < b->ny)
                B[i * n + i] += d;
            perm[i] = i;
        }
        for (slong k = 0; k < n; k++) {
            slong p = k;
            for (slong i = k + 1; i < n; i++)
                if (cabs(B[i * n + k]) > cabs(B[p * n + k]))
                    p = i;
            if (B[p * n + k] == 0)
                return -1;
            if (p != k) {
                slong tp = perm[p];
                perm[p] = perm[k];
                perm[k] = tp;
                for (slong j = 0; j < n; j++) {
                    double complex x = B[p * n + j];
                    B[p * n + j] = B[k * n + j];
                    B[k * n + j] = x;
                }
            }
            double complex piv = 1 / B[k * n + k];
            for (slong i = k + 1; i < n; i++) {
                double complex f = B[i * n + k] * piv;
                B[i * n + k] = f;
                if (f == 0)
                    continue;
                for (slong j = k + 1; j < n; j++)
                    B[i * n + j] -= f * B[k * n + j];
            }
        }
    }
    return 0;
}

/* RN(|x|) to 53 bits times 2^64 from x's top limb, x regular: the
   double of the limb rounds it to nearest even on its own 64 bits, and
   a set low bit stands for the limbs below when they decide a tie.
   The value mpfr_get_d_2exp rounds to, without its call (decisions.md
   D-128). */
static double
top_limb_double(mpfr_srcptr x)
{
    slong nl = (mpfr_get_prec(x) - 1) / GMP_NUMB_BITS + 1;
    mp_limb_t t = x->_mpfr_d[nl - 1];
    if ((t & 0x7ff) == 0x400)
        for (slong i = 0; i < nl - 1; i++)
            if (x->_mpfr_d[i] != 0) {
                t |= 1;
                break;
            }
    return (double)t;
}

long
hdo_radau_scaled_doubles(double *x, mpfr_srcptr R, const slong *perm, slong ns)
{
    long emax = LONG_MIN;
    for (slong k = 0; k < ns; k++)
        if (!mpfr_zero_p(R + k) && mpfr_get_exp(R + k) > emax)
            emax = mpfr_get_exp(R + k);
    if (emax == LONG_MIN)
        return emax;
    for (slong k = 0; k < ns; k++) {
        mpfr_srcptr r = R + (perm != NULL ? perm[k] : k);
        long e;
        if (mpfr_regular_p(r)) {
            /* r = t 2^(e - 64), t its top limb rounded (a double in
               [2^63, 2^64]); below 2^-1100 of 2^emax the double is 0,
               as the clamp below gives */
            double d = top_limb_double(r);
            d = mpfr_signbit(r) ? -d : d;
            e = (long)mpfr_get_exp(r) - emax;
            x[k] = e < -1100 ? copysign(0.0, d) : ldexp(d, (int)e - 64);
            continue;
        }
        double d = mpfr_get_d_2exp(&e, r, MPFR_RNDN);
        /* below 2^-1100 a double is 0 anyway; the clamp keeps the int's
           conversion defined over MPFR's whole exponent range */
        long de = e - emax < -1100 ? -1100 : e - emax;
        x[k] = mpfr_zero_p(r) ? 0 : ldexp(d, (int)de);
    }
    return emax;
}

void
hdo_radau_unscale_doubles(mpfr_ptr R, const double *x, slong ns, long e)
{
    long lo = (long)mpfr_get_emin(), hi = (long)mpfr_get_emax();
    for (slong k = 0; k < ns; k++) {
        mpfr_ptr r = R + k;
        mpfr_prec_t p = mpfr_get_prec(r);
        uint64_t b;
        memcpy(&b, x + k, sizeof b);
        long be = (long)((b >> 52) & 0x7ff), E = be - 1022 + e;
        if (be != 0 && be != 0x7ff && p >= 53 && E >= lo && E <= hi) {
            /* a normal double 0.1m 2^(be - 1022): r's top limb is its
               53 bits, the limbs below zero, its exponent be - 1022 + e:
               the value mpfr_set_d and mpfr_mul_2si give, written as
               MPFR's documented struct holds it (decisions.md D-128),
               within MPFR's current exponent range */
            slong nl = (p - 1) / GMP_NUMB_BITS + 1;
            for (slong i = 0; i < nl - 1; i++)
                r->_mpfr_d[i] = 0;
            r->_mpfr_d[nl - 1] =
                (mp_limb_t)((b & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52)
                << 11;
            r->_mpfr_exp = (mpfr_exp_t)E;
            r->_mpfr_sign = (b >> 63) != 0 ? -1 : 1;
            continue;
        }
        /* zero, subnormal, not finite, or out of range: MPFR's calls */
        mpfr_set_d(r, x[k], MPFR_RNDN);
        mpfr_mul_2si(r, r, e, MPFR_RNDN);
    }
}

/* v + a b and v - a b with the product as C forms it inline, (ac - bd)
   + (ad + bc) i, without the test that sends a product whose two parts
   are NaN to libgcc's __muldc3 (which recovers infinities there). */
static inline double complex
cadd_mul(double complex v, double complex a, double complex b)
{
    double re = creal(a) * creal(b) - cimag(a) * cimag(b),
           im = creal(a) * cimag(b) + cimag(a) * creal(b);
    return CMPLX(creal(v) + re, cimag(v) + im);
}

static inline double complex
csub_mul(double complex v, double complex a, double complex b)
{
    double re = creal(a) * creal(b) - cimag(a) * cimag(b),
           im = creal(a) * cimag(b) + cimag(a) * creal(b);
    return CMPLX(creal(v) - re, cimag(v) - im);
}

/* The back substitution over the stages, w in place (u: scratch);
   (I - h s_qq J) v_q = w_q + sum_{j>q} s_qj (hJ) v_j, u_j = (hJ) v_j.
   fast: the products by cadd_mul and csub_mul, which give C's products
   wherever no product has two NaN parts; a NaN, once formed, stays in
   w (every entry is updated in place or copied, B's pivots divide
   it), so a w that ends finite had none, and the result is C's to the
   bit.  Returns whether every entry of w is finite (fast), 1 else. */
static int
back_substitute(hdo_radau_block *b, double complex *w, double complex *u,
                int dae, int fast)
{
    slong n = b->n, s = b->s, nn = n * n;
    for (slong q = s - 1; q >= 0; q--) {
        double complex *v = w + q * n, x[1];
        const double complex *B = b->B + q * nn;
        const slong *perm = b->perm + q * n;
        for (slong j = q + 1; j < s; j++) {
            /* a DAE mode: (t_qq E - h J) v_q = w_q - sum_{j>q} t_qj E v_j,
               E = diag(I, 0), u_j = E v_j */
            double complex sq = dae ? -b->T[q * s + j] : b->S[q * s + j];
            if (fast)
                for (slong k = 0; k < n; k++)
                    v[k] = cadd_mul(v[k], sq, u[j * n + k]);
            else
                for (slong k = 0; k < n; k++)
                    v[k] += sq * u[j * n + k];
        }
        if (b->band) {
            /* in the band's order, solved, and back */
            for (slong k = 0; k < n; k++)
                b->x[k] = v[b->ord[k]];
            hdo_radau_band_solve(b->x, b->B + q * n * b->bw, perm, n, b->kl,
                                 b->ku);
            for (slong k = 0; k < n; k++)
                v[b->ord[k]] = b->x[k];
        } else {
            /* permute, L (unit), U */
            for (slong k = 0; k < n; k++)
                u[q * n + k] = v[perm[k]];
            for (slong k = 0; k < n; k++)
                v[k] = u[q * n + k];
            for (slong i = 1; i < n; i++)
                for (slong j = 0; j < i; j++)
                    v[i] = fast ? csub_mul(v[i], B[i * n + j], v[j])
                                : v[i] - B[i * n + j] * v[j];
            for (slong i = n - 1; i >= 0; i--) {
                for (slong j = i + 1; j < n; j++)
                    v[i] = fast ? csub_mul(v[i], B[i * n + j], v[j])
                                : v[i] - B[i * n + j] * v[j];
                v[i] /= B[i * n + i];
            }
        }
        /* u_q = E v_q (DAE) or (h J) v_q, J's nonzeros only */
        for (slong i = 0; i < n; i++)
            u[q * n + i] = dae ? (i < b->ny ? v[i] : 0) : 0;
        if (!dae)
            for (slong e = 0; e < b->nnz; e++)
                u[q * n + b->row[e]] += b->hJ[e] * v[b->col[e]];
        (void)x;
    }
    if (!fast)
        return 1;
    for (slong k = 0; k < s * n; k++)
        if (!isfinite(creal(w[k])) || !isfinite(cimag(w[k])))
            return 0;
    return 1;
}

void
hdo_radau_block_solve_doubles(hdo_radau_block *b)
{
    slong n = b->n, s = b->s, ns = n * s;
    double complex *w = b->w, *u = b->u;
    /* w = (Q^* (x) I) R, each entry summed over i in ascending order
       with the k loop innermost (unit stride: the same bits as one sum
       per entry, decisions.md D-138) */
    for (slong q = 0; q < s; q++) {
        double complex *wq = w + q * n;
        for (slong k = 0; k < n; k++)
            wq[k] = 0;
        for (slong i = 0; i < s; i++) {
            double complex c = conj(b->Q[i * s + q]);
            const double *ri = b->rd + i * n;
            for (slong k = 0; k < n; k++)
                wq[k] += c * ri[k];
        }
    }
    int dae = b->ny < n;
    if (dae)
        /* the states' rows times A^-1 / h, the unknowns' times -1 (see
           below): h times that is T w for the states (Q^* A^-1 = T Q^*),
           -h w for the unknowns; T upper triangular, so ascending q
           reads only entries not yet overwritten */
        for (slong q = 0; q < s; q++)
            for (slong k = 0; k < n; k++) {
                if (k >= b->ny) {
                    w[q * n + k] *= -b->h;
                    continue;
                }
                double complex acc = 0;
                for (slong j = q; j < s; j++)
                    acc += b->T[q * s + j] * w[j * n + k];
                w[q * n + k] = acc;
            }
    /* back substitution, first with the products written out (fast),
       again C's complex way from the saved w when that ends in a
       number that is not finite (see back_substitute) */
    memcpy(b->w0, w, (size_t)ns * sizeof(double complex));
    if (!back_substitute(b, w, u, dae, 1)) {
        memcpy(w, b->w0, (size_t)ns * sizeof(double complex));
        back_substitute(b, w, u, dae, 0);
    }
    /* R = Re (Q (x) I) v: the real part of each product, a c - b d, as
       C's complex product forms it; that product goes to libgcc's
       __muldc3 only where both its parts are NaN, and where no term is
       infinite or NaN the sum is finite, so a sum that is not is taken
       again the complex way (the same bits either way) */
    for (slong i = 0; i < s; i++) {
        const double complex *Qi = b->Q + i * s;
        double *ri = b->rd + i * n; /* rd is free after w's transform */
        for (slong k = 0; k < n; k++)
            ri[k] = 0;
        for (slong q = 0; q < s; q++) {
            double qr = creal(Qi[q]), qi = cimag(Qi[q]);
            const double complex *wq = w + q * n;
            for (slong k = 0; k < n; k++)
                ri[k] += qr * creal(wq[k]) - qi * cimag(wq[k]);
        }
        for (slong k = 0; k < n; k++)
            if (!isfinite(ri[k])) {
                double acc = 0;
                for (slong q = 0; q < s; q++)
                    acc += creal(Qi[q] * w[q * n + k]);
                ri[k] = acc;
            }
    }
}

void
hdo_radau_block_solve(hdo_radau_block *b, mpfr_ptr R)
{
    slong ns = b->n * b->s;
    long emax = hdo_radau_scaled_doubles(b->rd, R, NULL, ns);
    if (emax == LONG_MIN)
        return; /* R = 0: so is the solution */
    hdo_radau_block_solve_doubles(b);
    hdo_radau_unscale_doubles(R, b->rd, ns, emax);
}
