/* svd.c -- singular value decomposition by one-sided Jacobi (Hestenes) */
#include "linalg.h"
#include "status.h"
#include "internal.h"

/* Sweeps are quadratically convergent once the off-diagonal mass is
   small; this bound is far above what any matrix needs at any precision
   and only stops a loop that rounding keeps alive. */
#define HDO_SVD_MAX_SWEEPS 200

/* k vectors of length len, contiguous, at precision prec. */
static mpfr_ptr
block_init(slong k, slong len, mpfr_prec_t prec)
{
    return hdo_vec_init(k * len, prec);
}

/* Orthogonalises the k vectors G[j] (length len) by plane rotations
   applied to pairs, accumulating the same rotations in the k vectors R[j]
   (length k) if R is not NULL, until every pair satisfies
   |g_i . g_j| <= 2^-target * |g_i| |g_j| or lies at the rounding level
   |g_i . g_j| <= 2^-(wp - 8 - log2 len) ||G||_F max(|g_i|, |g_j|).
   Then G = G0 R (as columns).  The second test is needed because a
   column that is rounding noise (the small singular values of a
   rank-deficient matrix) picks up errors of size 2^-wp ||G|| at every
   rotation and can never be orthogonalised relative to its own tiny
   norm.  Skipping such a pair moves the smaller column's norm by at most
   |g_i . g_j| / max(|g_i|, |g_j|), the 2^-wp ||G|| that rounding already
   costs.  (A floor of 2^-(wp - 8 - log2 len) ||G||_F^2, without the
   max, left two columns below the square root of it unrotated: singular
   values near the rank threshold 2^(-3p/4) ||G|| came out as mixtures of
   each other, s = 4t, t/2 as 3.7t, 1.6t, and the rank was wrong;
   tests/linalg/thresholds.c.) */
static int
hestenes(mpfr_ptr G, mpfr_ptr R, slong k, slong len, mpfr_prec_t wp,
         mpfr_prec_t target, slong max_sweeps)
{
    slong sweep, i, j, l;
    mpfr_ptr sq;
    int *fresh;
    mpfr_t alpha, beta, gamma, zeta, t, c, s, x, y, lim, floor, fnorm;
    int status = HDO_ERR_NO_CONVERGENCE;

    mpfr_inits2(wp, alpha, beta, gamma, zeta, t, c, s, x, y, lim, floor, fnorm,
                (mpfr_ptr)0);
    /* g_j . g_j, kept while column j is not rotated: the dot product of
       an unchanged column gives the same rounded value, so this saves
       two of the three dot products of a pair without changing a bit. */
    sq = hdo_vec_init(k, wp);
    fresh = flint_calloc(k, sizeof(int));
    hdo_vec_norm2(fnorm, G, k * len);
    mpfr_mul_2si(fnorm, fnorm, -(long)(wp - 8 - FLINT_BIT_COUNT(len)),
                 MPFR_RNDN);
    for (sweep = 0; sweep < max_sweeps; sweep++) {
        int rotated = 0;
        for (i = 0; i < k; i++)
            for (j = i + 1; j < k; j++) {
                mpfr_ptr gi = G + i * len, gj = G + j * len;
                if (!fresh[i])
                    hdo_vec_dot(sq + i, gi, gi, len);
                if (!fresh[j])
                    hdo_vec_dot(sq + j, gj, gj, len);
                fresh[i] = fresh[j] = 1;
                mpfr_set(alpha, sq + i, MPFR_RNDN);
                mpfr_set(beta, sq + j, MPFR_RNDN);
                hdo_vec_dot(gamma, gi, gj, len);
                mpfr_max(floor, alpha, beta, MPFR_RNDN);
                mpfr_sqrt(floor, floor, MPFR_RNDN);
                mpfr_mul(floor, floor, fnorm, MPFR_RNDN);
                if (mpfr_cmpabs(gamma, floor) <= 0)
                    continue;
                mpfr_mul(lim, alpha, beta, MPFR_RNDN);
                mpfr_sqrt(lim, lim, MPFR_RNDN);
                mpfr_mul_2si(lim, lim, -(long)target, MPFR_RNDN);
                if (mpfr_cmpabs(gamma, lim) <= 0)
                    continue;
                rotated = 1;
                fresh[i] = fresh[j] = 0;
                /* zeta = (beta - alpha) / (2 gamma); t is the smaller
                   root of t^2 + 2 zeta t - 1 = 0, which zeroes the new
                   inner product and keeps the rotation angle <= pi/4. */
                mpfr_sub(zeta, beta, alpha, MPFR_RNDN);
                mpfr_div(zeta, zeta, gamma, MPFR_RNDN);
                mpfr_div_2ui(zeta, zeta, 1, MPFR_RNDN);
                mpfr_sqr(t, zeta, MPFR_RNDN);
                mpfr_add_ui(t, t, 1, MPFR_RNDN);
                mpfr_sqrt(t, t, MPFR_RNDN);
                mpfr_abs(x, zeta, MPFR_RNDN);
                mpfr_add(t, t, x, MPFR_RNDN);
                mpfr_ui_div(t, 1, t, MPFR_RNDN);
                if (mpfr_sgn(zeta) < 0)
                    mpfr_neg(t, t, MPFR_RNDN);
                mpfr_sqr(c, t, MPFR_RNDN);
                mpfr_add_ui(c, c, 1, MPFR_RNDN);
                mpfr_rec_sqrt(c, c, MPFR_RNDN);
                mpfr_mul(s, c, t, MPFR_RNDN);
                for (l = 0; l < len; l++) {
                    /* (gi, gj) := (c gi - s gj, s gi + c gj) */
                    mpfr_mul(x, c, gi + l, MPFR_RNDN);
                    mpfr_mul(y, s, gj + l, MPFR_RNDN);
                    mpfr_mul(gj + l, c, gj + l, MPFR_RNDN);
                    mpfr_fma(gj + l, s, gi + l, gj + l, MPFR_RNDN);
                    mpfr_sub(gi + l, x, y, MPFR_RNDN);
                }
                if (R != NULL) {
                    mpfr_ptr ri = R + i * k, rj = R + j * k;
                    for (l = 0; l < k; l++) {
                        mpfr_mul(x, c, ri + l, MPFR_RNDN);
                        mpfr_mul(y, s, rj + l, MPFR_RNDN);
                        mpfr_mul(rj + l, c, rj + l, MPFR_RNDN);
                        mpfr_fma(rj + l, s, ri + l, rj + l, MPFR_RNDN);
                        mpfr_sub(ri + l, x, y, MPFR_RNDN);
                    }
                }
            }
        if (!rotated) {
            status = 0;
            break;
        }
    }
    mpfr_clears(alpha, beta, gamma, zeta, t, c, s, x, y, lim, floor, fnorm,
                (mpfr_ptr)0);
    hdo_vec_clear(sq, k);
    flint_free(fresh);
    return status;
}

/* Replaces the vectors Q[j] (length len) for j in [first, k) by an
   orthonormal completion of Q[0..first) (which must be orthonormal),
   drawn from the unit vectors by Gram-Schmidt applied twice. */
static void
complete_orthonormal(mpfr_ptr Q, slong first, slong k, slong len,
                     mpfr_prec_t wp)
{
    slong j, e, i, pass;
    mpfr_t d, nrm, half;

    mpfr_inits2(wp, d, nrm, half, (mpfr_ptr)0);
    /* A candidate that keeps less than half of its norm after projection
       lies too close to the span already built; try the next one. */
    mpfr_set_d(half, 0.5, MPFR_RNDN);
    e = 0;
    for (j = first; j < k; j++) {
        mpfr_ptr q = Q + j * len;
        for (; e < len; e++) {
            hdo_vec_zero(q, len);
            mpfr_set_ui(q + e, 1, MPFR_RNDN);
            for (pass = 0; pass < 2; pass++)
                for (i = 0; i < j; i++) {
                    slong l;
                    mpfr_ptr p = Q + i * len;
                    hdo_vec_dot(d, p, q, len);
                    for (l = 0; l < len; l++) {
                        mpfr_mul(nrm, d, p + l, MPFR_RNDN);
                        mpfr_sub(q + l, q + l, nrm, MPFR_RNDN);
                    }
                }
            hdo_vec_norm2(nrm, q, len);
            if (mpfr_cmp(nrm, half) >= 0) {
                slong l;
                for (l = 0; l < len; l++)
                    mpfr_div(q + l, q + l, nrm, MPFR_RNDN);
                e++;
                break;
            }
        }
        HDO_ASSERT(e <= len);
    }
    mpfr_clears(d, nrm, half, (mpfr_ptr)0);
}

int
hdo_svd(mpfr_ptr s, hdo_mat_t U, hdo_mat_t V, const hdo_mat_t A)
{
    return hdo_svd_sweeps(s, U, V, A, HDO_SVD_MAX_SWEEPS);
}

int
hdo_svd_sweeps(mpfr_ptr s, hdo_mat_t U, hdo_mat_t V, const hdo_mat_t A,
               slong max_sweeps)
{
    slong m = A->rows, n = A->cols, k, len, i, j, l;
    int wide = m < n, status;
    mpfr_prec_t wp;
    mpfr_ptr G, R = NULL, sv;
    slong *order;
    hdo_mat_struct *Gside, *Rside; /* which output gets G, which R */

    k = wide ? m : n;
    len = wide ? n : m;
    /* Guard bits for the dot products over len terms and the rotations. */
    wp = A->prec + 32 + FLINT_BIT_COUNT(len + k);
    Gside = wide ? V : U;
    Rside = wide ? U : V;

    G = block_init(k, len, wp);
    for (j = 0; j < k; j++)
        for (l = 0; l < len; l++)
            mpfr_set(G + j * len + l,
                     wide ? hdo_mat_entry(A, j, l) : hdo_mat_entry(A, l, j),
                     MPFR_RNDN);
    if (Rside != NULL) {
        R = block_init(k, k, wp);
        for (j = 0; j < k; j++)
            mpfr_set_ui(R + j * k + j, 1, MPFR_RNDN);
    }
    status = hestenes(G, R, k, len, wp, A->prec + 4, max_sweeps);

    sv = hdo_vec_init(k, wp);
    order = flint_malloc((k + 1) * sizeof(slong));
    for (j = 0; j < k; j++) {
        hdo_vec_norm2(sv + j, G + j * len, len);
        order[j] = j;
    }
    /* Insertion sort, decreasing; stable so that ties keep column order. */
    for (j = 1; j < k; j++) {
        slong o = order[j];
        for (i = j; i > 0 && mpfr_cmp(sv + order[i - 1], sv + o) < 0; i--)
            order[i] = order[i - 1];
        order[i] = o;
    }
    for (j = 0; j < k; j++)
        mpfr_set(s + j, sv + order[j], MPFR_RNDN);

    if (Gside != NULL) {
        /* Normalised G columns, in sorted order, in a scratch block; the
           zero ones (sorted last) are completed orthonormally. */
        mpfr_ptr Q = block_init(k, len, wp);
        slong nz = k;
        for (j = 0; j < k; j++) {
            mpfr_srcptr g = G + order[j] * len;
            if (mpfr_zero_p(sv + order[j])) {
                nz = j;
                break;
            }
            for (l = 0; l < len; l++)
                mpfr_div(Q + j * len + l, g + l, sv + order[j], MPFR_RNDN);
        }
        if (nz < k)
            complete_orthonormal(Q, nz, k, len, wp);
        hdo_mat_resize(Gside, len, k);
        for (j = 0; j < k; j++)
            for (l = 0; l < len; l++)
                mpfr_set(hdo_mat_entry(Gside, l, j), Q + j * len + l,
                         MPFR_RNDN);
        hdo_vec_clear(Q, k * len);
    }
    if (Rside != NULL) {
        hdo_mat_resize(Rside, k, k);
        for (j = 0; j < k; j++)
            for (l = 0; l < k; l++)
                mpfr_set(hdo_mat_entry(Rside, l, j), R + order[j] * k + l,
                         MPFR_RNDN);
        hdo_vec_clear(R, k * k);
    }
    flint_free(order);
    hdo_vec_clear(sv, k);
    hdo_vec_clear(G, k * len);
    return status;
}
