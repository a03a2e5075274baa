/* schur.c -- exact-pivot elimination of the explicit equations of a
   derivative array: the Schur complement the rank decisions are made on.

   Why.  A mode with n variables has a derivative array of
   L = (mu + 1) l rows and (mu + 2) n columns; the straightforward
   analysis takes several SVDs of matrices of that size in MPFR, which
   for the bowed string (n = 206, L = 824 at mu = 3) is hours.  But most
   equations of such a mode are explicit: equation i involves one
   derivative, x_j' (match[i] = j), with a nonzero coefficient
   c_i = dF_i/dx_j'.  Its k-th derivative then involves x_j^(k+1) with the
   same coefficient c_i and otherwise only derivatives of order <= k.  So
   the rows E of these equations at every level, against the columns P of
   the x_j^(k+1), form a block lower triangular matrix with nonsingular
   diagonal blocks (levels), and eliminating them is exact in exact
   arithmetic:
       J = [J_EC J_EP; J_GC J_GP]   (C: the other columns, G: other rows)
       W = J_EP^{-1} J_EC,          S = J_GC - J_GP W,
       rank J = |E| + rank S,  rank F_mu;y = |E| + rank S_y,
   and the left null space of F_mu;y is {(-(J_GP J_EP^{-1})^T z, z) :
   z^T S_y = 0}, so Z2^T F_mu;x = Z_G^T S_x.  The decisions of
   Hypothesis 1 are taken on S (a few rows for the bowed string: its two
   boundary constraints at each level) instead of on the whole array.
   The elimination runs at prec + KM_SCHUR_GUARD bits so that its
   rounding stays far below the precision S is then rounded to; the
   structure (one derivative per explicit row, zeros elsewhere) is checked
   on the evaluated J, and when it does not hold the caller takes the
   dense path. */
#include <math.h>
#include <string.h>
#include "km_level.h"
#include "status.h"

/* Guard bits of the elimination: the multipliers grow like the
   stiffness of the mode to the power mu (1e6^3 for the bowed string,
   about 60 bits), and this keeps S exact to beyond its own precision. */
#define KM_SCHUR_GUARD 96

void
km_schur_init(km_schur *s)
{
    memset(s, 0, sizeof *s);
}

void
km_schur_clear(km_schur *s)
{
    if (s->minpiv_init)
        mpfr_clear(s->minpiv);
    hdo_mat_clear(s->W); /* a zeroed matrix clears to nothing */
    hdo_mat_clear(s->S);
    flint_free(s->match);
    flint_free(s->erow);
    flint_free(s->ecol);
    flint_free(s->grow);
    flint_free(s->ccol);
    flint_free(s->pivrow);
    memset(s, 0, sizeof *s);
}

int
km_schur_build(km_schur *s, const hdo_mat_t J, mpfr_srcptr F, slong l, slong n,
               slong mu, mpfr_prec_t prec)
{
    slong L = J->rows, ncols = J->cols, i, j, k, e, g, c, p;
    mpfr_prec_t wp = prec + KM_SCHUR_GUARD;
    slong *used;
    mpfr_ptr row;
    mpfr_t t;

    km_schur_clear(s);
    HDO_ASSERT(L == (mu + 1) * l && ncols == (mu + 2) * n);
    s->L = L;
    s->n = n;
    s->l = l;
    s->mu = mu;
    s->match = flint_malloc((l + 1) * sizeof(slong));
    used = flint_calloc(n + 1, sizeof(slong));
    /* A pivot must pass the dense path's test for a clear-cut kept
       singular value, |c| > 2^(-prec/2) max(1, s_1(F_mu;y)), with the
       Frobenius norm (>= s_1) for s_1: a coefficient such as the
       1e-40 of eps*der(y) at 200 bits is not taken as a pivot, and its
       decision stays in S where it is refused as not clear-cut. */
    mpfr_init2(t, 64);
    mpfr_init2(s->minpiv, prec);
    s->minpiv_init = 1;
    mpfr_set_zero(s->minpiv, 1);
    {
        mpfr_t sq, fro;
        mpfr_inits2(64, sq, fro, (mpfr_ptr)0);
        mpfr_set_zero(fro, 1);
        for (i = 0; i < L; i++)
            for (c = n; c < ncols; c++) {
                mpfr_sqr(sq, hdo_mat_entry(J, i, c), MPFR_RNDU);
                mpfr_add(fro, fro, sq, MPFR_RNDU);
            }
        mpfr_sqrt(fro, fro, MPFR_RNDU);
        if (mpfr_cmp_ui(fro, 1) < 0)
            mpfr_set_ui(fro, 1, MPFR_RNDN);
        mpfr_mul_2si(t, fro, -(long)(prec / 2), MPFR_RNDU);
        mpfr_clears(sq, fro, (mpfr_ptr)0);
    }
    /* Explicit equations: exactly one nonzero among the x' columns of the
       level-0 row, in a variable no earlier equation has taken. */
    s->ne0 = 0;
    for (i = 0; i < l; i++) {
        slong cnt = 0, jj = -1;
        for (j = 0; j < n; j++)
            if (!mpfr_zero_p(hdo_mat_entry(J, i, n + j))) {
                cnt++;
                jj = j;
            }
        s->match[i] = -1;
        if (cnt == 1 && !used[jj] &&
            mpfr_cmpabs(hdo_mat_entry(J, i, n + jj), t) > 0) {
            s->match[i] = jj;
            used[jj] = 1;
            s->ne0++;
            if (mpfr_zero_p(s->minpiv) ||
                mpfr_cmpabs(hdo_mat_entry(J, i, n + jj), s->minpiv) < 0)
                mpfr_abs(s->minpiv, hdo_mat_entry(J, i, n + jj), MPFR_RNDN);
        }
    }
    mpfr_clear(t);
    flint_free(used);
    if (s->ne0 == 0)
        return 0;

    s->ne = s->ne0 * (mu + 1);
    s->ng = L - s->ne;
    s->erow = flint_malloc((s->ne + 1) * sizeof(slong));
    s->ecol = flint_malloc((s->ne + 1) * sizeof(slong));
    s->grow = flint_malloc((s->ng + 1) * sizeof(slong));
    s->pivrow = flint_malloc((ncols + 1) * sizeof(slong));
    for (c = 0; c < ncols; c++)
        s->pivrow[c] = -1;
    e = g = 0;
    for (k = 0; k <= mu; k++)
        for (i = 0; i < l; i++) {
            slong r = k * l + i;
            if (s->match[i] < 0) {
                s->grow[g++] = r;
                continue;
            }
            s->erow[e] = r;
            s->ecol[e] = (k + 1) * n + s->match[i];
            s->pivrow[s->ecol[e]] = e;
            e++;
        }
    /* The structure the elimination relies on, checked on the values:
       the pivot is nonzero and row (k, i) has no other derivative of
       order k + 1 and none above. */
    for (e = 0; e < s->ne; e++) {
        slong r = s->erow[e];
        k = r / l;
        if (mpfr_zero_p(hdo_mat_entry(J, r, s->ecol[e])))
            return 0;
        for (c = (k + 1) * n; c < ncols; c++)
            if (c != s->ecol[e] && !mpfr_zero_p(hdo_mat_entry(J, r, c)))
                return 0;
    }
    /* The columns kept: x first, then the y columns without a pivot. */
    s->ccol = flint_malloc((ncols + 1) * sizeof(slong));
    s->nc = 0;
    for (c = 0; c < ncols; c++)
        if (s->pivrow[c] < 0)
            s->ccol[s->nc++] = c;
    s->nq = s->nc - n;

    /* W = J_EP^{-1} [J_EC F_E], row by row in level order: row e needs
       only rows of the pivots of order <= k, all of earlier levels. */
    hdo_mat_init(s->W, s->ne, s->nc + 1, wp);
    mpfr_init2(t, wp);
    for (e = 0; e < s->ne; e++) {
        slong r = s->erow[e];
        mpfr_ptr w = hdo_mat_entry(s->W, e, 0);
        for (j = 0; j < s->nc; j++)
            mpfr_set(w + j, hdo_mat_entry(J, r, s->ccol[j]), MPFR_RNDN);
        mpfr_set(w + s->nc, F + r, MPFR_RNDN);
        for (p = 0; p < e; p++) {
            mpfr_srcptr a = hdo_mat_entry(J, r, s->ecol[p]);
            if (mpfr_zero_p(a))
                continue;
            for (j = 0; j <= s->nc; j++) {
                mpfr_mul(t, a, hdo_mat_entry(s->W, p, j), MPFR_RNDN);
                mpfr_sub(w + j, w + j, t, MPFR_RNDN);
            }
        }
        for (j = 0; j <= s->nc; j++)
            mpfr_div(w + j, w + j, hdo_mat_entry(J, r, s->ecol[e]), MPFR_RNDN);
    }
    /* S = [J_GC F_G] - J_GP W, accumulated at wp, stored at prec. */
    hdo_mat_init(s->S, s->ng, s->nc + 1, prec);
    row = hdo_vec_init(s->nc + 1, wp);
    for (g = 0; g < s->ng; g++) {
        slong r = s->grow[g];
        for (j = 0; j < s->nc; j++)
            mpfr_set(row + j, hdo_mat_entry(J, r, s->ccol[j]), MPFR_RNDN);
        mpfr_set(row + s->nc, F + r, MPFR_RNDN);
        for (p = 0; p < s->ne; p++) {
            mpfr_srcptr a = hdo_mat_entry(J, r, s->ecol[p]);
            if (mpfr_zero_p(a))
                continue;
            for (j = 0; j <= s->nc; j++) {
                mpfr_mul(t, a, hdo_mat_entry(s->W, p, j), MPFR_RNDN);
                mpfr_sub(row + j, row + j, t, MPFR_RNDN);
            }
        }
        for (j = 0; j <= s->nc; j++)
            mpfr_set(hdo_mat_entry(s->S, g, j), row + j, MPFR_RNDN);
    }
    hdo_vec_clear(row, s->nc + 1);
    mpfr_clear(t);
    return 1;
}

/* Sets B to the columns [c0, c0 + nc) of S. */
static void
cols_of(hdo_mat_t B, const hdo_mat_t S, slong c0, slong nc)
{
    hdo_mat_resize(B, S->rows, nc);
    for (slong i = 0; i < S->rows; i++)
        for (slong j = 0; j < nc; j++)
            mpfr_set(hdo_mat_entry(B, i, j), hdo_mat_entry(S, i, c0 + j),
                     MPFR_RNDN);
}

int
km_schur_step(mpfr_ptr dy, const km_schur *s, mpfr_prec_t prec)
{
    slong n = s->n, nq = s->nq, ny = (s->mu + 1) * n, e, j, q, nn;
    mpfr_prec_t wp = prec + KM_SCHUR_GUARD;
    hdo_mat_t Sy, Nq, N;
    hdo_rank_info info;
    mpfr_ptr dq, sF, cf, full;
    mpfr_t t;
    int status;

    hdo_mat_init(Sy, 0, 0, prec);
    hdo_mat_init(Nq, 0, 0, prec);
    cols_of(Sy, s->S, n, nq);
    dq = hdo_vec_init(nq + 1, prec);
    sF = hdo_vec_init(s->ng + 1, prec);
    full = hdo_vec_init(ny, wp);
    mpfr_init2(t, wp);
    for (j = 0; j < s->ng; j++)
        mpfr_set(sF + j, hdo_mat_entry(s->S, j, s->nc), MPFR_RNDN);
    /* The G rows: S_y dq = s_F in the least-squares sense, minimum norm. */
    status = hdo_rank(&info, Sy);
    if (status == 0 && nq > 0)
        status = hdo_lstsq(dq, Sy, sF, info.rank);
    if (status == 0 && nq > 0)
        status = hdo_right_null(Nq, Sy, info.rank);
    /* The E rows exactly: dy_P = w_F - W_Q dq. */
    if (status == 0) {
        for (q = 0; q < nq; q++)
            mpfr_set(full + s->ccol[n + q] - n, dq + q, MPFR_RNDN);
        for (e = 0; e < s->ne; e++) {
            mpfr_ptr o = full + s->ecol[e] - n;
            mpfr_set(o, hdo_mat_entry(s->W, e, s->nc), MPFR_RNDN);
            for (q = 0; q < nq; q++) {
                mpfr_mul(t, hdo_mat_entry(s->W, e, n + q), dq + q, MPFR_RNDN);
                mpfr_sub(o, o, t, MPFR_RNDN);
            }
        }
    }
    /* Minimum norm over the whole of y (what the dense path's
       pseudo-inverse gives): remove the component in the null space of
       F_mu;y, spanned by the columns (-W_Q n_q, n_q), n_q in null S_y. */
    nn = status == 0 && nq > 0 ? Nq->cols : 0;
    if (nn > 0) {
        hdo_mat_init(N, ny, nn, wp);
        hdo_mat_zero(N);
        for (q = 0; q < nq; q++)
            for (j = 0; j < nn; j++)
                mpfr_set(hdo_mat_entry(N, s->ccol[n + q] - n, j),
                         hdo_mat_entry(Nq, q, j), MPFR_RNDN);
        for (e = 0; e < s->ne; e++)
            for (j = 0; j < nn; j++) {
                mpfr_ptr o = hdo_mat_entry(N, s->ecol[e] - n, j);
                for (q = 0; q < nq; q++) {
                    mpfr_mul(t, hdo_mat_entry(s->W, e, n + q),
                             hdo_mat_entry(Nq, q, j), MPFR_RNDN);
                    mpfr_sub(o, o, t, MPFR_RNDN);
                }
            }
        cf = hdo_vec_init(nn, wp);
        status = hdo_lstsq(cf, N, full, nn);
        for (j = 0; j < ny && status == 0; j++)
            for (q = 0; q < nn; q++) {
                mpfr_mul(t, hdo_mat_entry(N, j, q), cf + q, MPFR_RNDN);
                mpfr_sub(full + j, full + j, t, MPFR_RNDN);
            }
        hdo_vec_clear(cf, nn);
        hdo_mat_clear(N);
    }
    if (status == 0)
        for (j = 0; j < ny; j++)
            mpfr_set(dy + j, full + j, MPFR_RNDN);
    mpfr_clear(t);
    hdo_vec_clear(full, ny);
    hdo_vec_clear(sF, s->ng + 1);
    hdo_vec_clear(dq, nq + 1);
    hdo_mat_clear(Nq);
    hdo_mat_clear(Sy);
    return status;
}

/* Fills info for a decision on an empty matrix: rank 0, nothing dropped. */
static void
rank_empty(hdo_rank_info *info)
{
    memset(info, 0, sizeof *info);
    info->clear = 1;
    info->last_kept = 1;
    info->log10_gap = INFINITY;
    info->log10_first_dropped = -INFINITY;
}

/* The decisions on S also rest on the pivots, which are kept: the
   smallest of them is reported as the last kept value when it is below
   S's (or S keeps nothing). */
static void
merge_pivots(hdo_rank_info *info, slong srank, const mpfr_t minpiv)
{
    double lp;
    mpfr_t t;

    if (mpfr_zero_p(minpiv))
        return;
    mpfr_init2(t, 53);
    mpfr_log10(t, minpiv, MPFR_RNDN);
    lp = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clear(t);
    if (srank == 0 || lp < info->log10_last_kept) {
        info->last_kept = mpfr_get_d(minpiv, MPFR_RNDN);
        info->log10_last_kept = lp;
        if (isfinite(info->log10_first_dropped))
            info->log10_gap = lp - info->log10_first_dropped;
    }
}

int
km_schur_hypothesis(hdo_km_level_info *info, const km_schur *s,
                    const hdo_mat_t J, mpfr_prec_t prec)
{
    slong n = s->n, nq = s->nq, i, j, nfree, nk, rows;
    hdo_mat_t SJ, Sy, Sx, Z, Zt, A, K;
    slong *freev;
    int status = 0;

    hdo_mat_init(SJ, 0, 0, prec);
    hdo_mat_init(Sy, 0, 0, prec);
    hdo_mat_init(Sx, 0, 0, prec);
    hdo_mat_init(Z, 0, 0, prec);
    hdo_mat_init(Zt, 0, 0, prec);
    hdo_mat_init(A, 0, 0, prec);
    hdo_mat_init(K, 0, 0, prec);
    info->mu = s->mu;
    cols_of(SJ, s->S, 0, n + nq);
    cols_of(Sy, s->S, n, nq);
    cols_of(Sx, s->S, 0, n);

    /* rank [F_mu;x F_mu;y] = |E| + rank S, rank F_mu;y = |E| + rank S_y;
       the singular values reported are those of S and S_y. */
    if (s->ng > 0)
        status = hdo_rank(&info->rank_J, SJ);
    else
        rank_empty(&info->rank_J);
    if (status == 0) {
        if (s->ng > 0 && nq > 0)
            status = hdo_rank(&info->rank_M, Sy);
        else
            rank_empty(&info->rank_M);
    }
    if (status == 0) {
        slong rsy = info->rank_M.rank;
        merge_pivots(&info->rank_J, info->rank_J.rank, s->minpiv);
        merge_pivots(&info->rank_M, rsy, s->minpiv);
        info->rank_J.rank += s->ne;
        info->rank_M.rank += s->ne;
        info->r = info->rank_J.rank;
        info->v = s->L - info->r;
        info->a = info->r - info->rank_M.rank;
        /* Z_G: left null space of S_y (all of R^ng when S_y has no
           columns), so that A = Z_G^T S_x spans the rows of Z2^T F_mu;x. */
        if (nq > 0) {
            status = hdo_left_null(Z, Sy, rsy);
        } else {
            hdo_mat_resize(Z, s->ng, s->ng);
            hdo_mat_one(Z);
        }
    }
    if (status == 0) {
        hdo_mat_transpose(Zt, Z);
        hdo_mat_mul(A, Zt, Sx);
        if (A->rows > 0)
            status = hdo_rank(&info->rank_A, A);
        else
            rank_empty(&info->rank_A);
    }
    /* d = rank F_x' T2, T2 a basis of null A.  A vector t of null A with
       F_x' t = 0 has t_j = 0 for every matched variable j (the explicit
       rows of F_x' are c_i e_j^T), so null(F_x' T2) is the null space of
       K = [A; F_x'[G0]] restricted to the unmatched columns, and
       d = (n - rank A) - (#unmatched - rank K): a decision on a matrix of
       a few columns instead of an SVD of size n. */
    freev = flint_malloc((n + 1) * sizeof(slong));
    nfree = 0;
    if (status == 0) {
        int *ism = flint_calloc(n + 1, sizeof(int));
        for (i = 0; i < s->l; i++)
            if (s->match[i] >= 0)
                ism[s->match[i]] = 1;
        for (j = 0; j < n; j++)
            if (!ism[j])
                freev[nfree++] = j;
        flint_free(ism);
        nk = 0;
        for (i = 0; i < s->l; i++)
            if (s->match[i] < 0)
                nk++;
        rows = A->rows + nk;
        if (nfree > 0 && rows > 0) {
            slong rr = 0;
            hdo_mat_resize(K, rows, nfree);
            for (i = 0; i < A->rows; i++, rr++)
                for (j = 0; j < nfree; j++)
                    mpfr_set(hdo_mat_entry(K, rr, j),
                             hdo_mat_entry(A, i, freev[j]), MPFR_RNDN);
            for (i = 0; i < s->l; i++)
                if (s->match[i] < 0) {
                    for (j = 0; j < nfree; j++)
                        mpfr_set(hdo_mat_entry(K, rr, j),
                                 hdo_mat_entry(J, i, n + freev[j]), MPFR_RNDN);
                    rr++;
                }
            status = hdo_rank(&info->rank_D, K);
        } else {
            rank_empty(&info->rank_D);
        }
    }
    if (status == 0) {
        slong rk = info->rank_D.rank;
        info->d = (n - info->rank_A.rank) - (nfree - rk);
        info->rank_D.rank = info->d;
        info->u = n - info->a - info->d;
        info->clear = info->rank_J.clear && info->rank_M.clear &&
                      info->rank_A.clear && info->rank_D.clear &&
                      info->rank_A.rank == info->a;
    }
    flint_free(freev);
    hdo_mat_clear(SJ);
    hdo_mat_clear(Sy);
    hdo_mat_clear(Sx);
    hdo_mat_clear(Z);
    hdo_mat_clear(Zt);
    hdo_mat_clear(A);
    hdo_mat_clear(K);
    return status;
}
