/* linalg.h -- dense vectors and matrices of MPFR numbers: LU solves,
   rank-revealing SVD, least squares and minimum-norm solutions. */
#ifndef HDO_LINALG_H
#define HDO_LINALG_H

#include <stdio.h>
#include <mpfr.h>
#include <flint/flint.h>
#include <flint/fmpq_mat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A dense matrix; every entry is initialised at A->prec.  A matrix may
   have zero rows or columns (entries is then NULL). */
typedef struct {
    mpfr_ptr entries; /* row-major, rows * cols */
    slong rows, cols;
    mpfr_prec_t prec;
} hdo_mat_struct;
typedef hdo_mat_struct hdo_mat_t[1];

#define hdo_mat_entry(A, i, j) ((A)->entries + (i) * (A)->cols + (j))

void hdo_mat_init(hdo_mat_t A, slong rows, slong cols, mpfr_prec_t prec);
void hdo_mat_clear(hdo_mat_t A);
/* Resizes (contents undefined afterwards, entries keep A->prec). */
void hdo_mat_resize(hdo_mat_t A, slong rows, slong cols);
void hdo_mat_zero(hdo_mat_t A);
void
hdo_mat_one(hdo_mat_t A); /* identity (ones on the diagonal if not square) */
void hdo_mat_set(hdo_mat_t B, const hdo_mat_t A);       /* B := A, B resized */
void hdo_mat_transpose(hdo_mat_t B, const hdo_mat_t A); /* no aliasing */
void hdo_mat_mul(hdo_mat_t C, const hdo_mat_t A,
                 const hdo_mat_t B); /* no aliasing */
/* y := A x (x, y vectors of mpfr_t as mpfr_ptr arrays; no aliasing).
   Every sum is rounded once per term at the precision of y. */
void hdo_mat_mul_vec(mpfr_ptr y, const hdo_mat_t A, mpfr_srcptr x);
/* Sets r to the Frobenius norm of A - B (same shapes). */
void hdo_mat_dist_frobenius(mpfr_t r, const hdo_mat_t A, const hdo_mat_t B);
/* Writes A to f with the given number of digits, for debugging only
   (the library itself never calls it). */
void hdo_mat_fprint(FILE *f, const hdo_mat_t A, int digits);

/* LU with partial pivoting.  hdo_lu_factor overwrites the square A with
   its factors and fills perm (length rows).  Returns 0, or
   HDO_ERR_SINGULAR if a pivot is exactly zero or below 2^(-prec/2) times
   the largest |entry| of A (rank decisions belong to the SVD; this is
   only for square systems known to be regular). */
int hdo_lu_factor(hdo_mat_t A, slong *perm);
/* Solves LU x = b in place (b has rows entries). */
void hdo_lu_solve(mpfr_ptr b, const hdo_mat_t LU, const slong *perm);

/* Singular value decomposition A = U diag(s) V^T of an m x n matrix by
   one-sided Jacobi (Hestenes; accurate in relative terms, simple), on
   the columns of A when m >= n and of A^T when m < n, iterated until
   every pair of columns is orthogonal to 2^-(A->prec + 4) relative to
   their norms, at A->prec plus guard bits.  U is resized to m x k,
   s must hold k = min(m, n) initialised entries and gets them in
   decreasing order, V is resized to n x k; all are rounded to their
   own precision.  U or V may be NULL when not wanted.  Columns of U
   (or V) that belong to exactly zero singular values are completed to
   an orthonormal set.  Returns 0 or HDO_ERR_NO_CONVERGENCE. */
int hdo_svd(mpfr_ptr s, hdo_mat_t U, hdo_mat_t V, const hdo_mat_t A);

/* A rank decision: the numerical rank of A is the number of singular
   values above tol = 2^(-prec * 3/4) * max(1, s_1) (a quarter of the
   working digits as safety for rounding in the derivative array).  gap is
   s_rank / s_{rank+1} (infinity when s_{rank+1} = 0 or rank = min(m,n));
   clear is 1 when the kept singular values are all above 2^(-prec/2) *
   max(1, s_1) and the dropped ones below tol, i.e. the decision is
   many orders of magnitude from ambiguous.  last_kept and first_dropped
   are the two singular values the decision rests on (0 if none); as
   doubles they may underflow at high precision, so their log10 are
   given too (-inf for 0). */
typedef struct {
    slong rank;
    int clear;
    double log10_gap; /* log10(last_kept / first_dropped), inf if none */
    double last_kept, first_dropped;
    double log10_last_kept, log10_first_dropped;
} hdo_rank_info;

/* Fills info for A at precision A->prec.  Returns 0 or
   HDO_ERR_NO_CONVERGENCE. */
int hdo_rank(hdo_rank_info *info, const hdo_mat_t A);
/* The same decision from k singular values s (decreasing) computed at
   precision prec. */
void hdo_rank_from_sv(hdo_rank_info *info, mpfr_srcptr s, slong k,
                      mpfr_prec_t prec);
/* Its rank alone (the rest, two logarithms, is for reports). */
slong hdo_rank_count(mpfr_srcptr s, slong k, mpfr_prec_t prec);

/* Orthonormal bases from the SVD: the columns of Z (m x (m - r)) span the
   left null space (corange complement) of A, i.e. Z^T A = 0; the columns
   of T (n x (n - r)) span the right null space, A T = 0; r = rank from
   hdo_rank.  Z and T are resized and keep their precision.  Returns 0
   or a negative status. */
int hdo_left_null(hdo_mat_t Z, const hdo_mat_t A, slong rank);
int hdo_right_null(hdo_mat_t T, const hdo_mat_t A, slong rank);

/* Minimum-norm least-squares solution x (n entries) of A x = b (m entries)
   through the SVD, truncated at the given rank (pass -1 to use
   hdo_rank's decision).  x must not alias b.  Returns 0 or a negative
   status. */
int hdo_lstsq(mpfr_ptr x, const hdo_mat_t A, mpfr_srcptr b, slong rank);

/* SVDs kept by their matrix (ref/linalg/memo.c): hdo_svd_memo_get
   is hdo_svd, the same bits, and keeps the last HDO_SVD_MEMO_SIZE
   results by their inputs (A's entries, the sign of a zero included,
   and precision; which of U and V are wanted and the precisions of s,
   U and V), so that the same matrix is not factored again (a mode's
   linear constraints at each consistent point, decisions.md D-111).
   memo NULL: hdo_svd.  A failed SVD is not kept, nor one of a matrix of
   more than HDO_MEMO_MAX_ENTRIES entries (the memory a memo holds). */
#define HDO_SVD_MEMO_SIZE 8
#define HDO_MEMO_MAX_ENTRIES 1024
typedef struct hdo_svd_memo hdo_svd_memo;
hdo_svd_memo *hdo_svd_memo_new(void);
void hdo_svd_memo_free(hdo_svd_memo *memo);
int hdo_svd_memo_get(hdo_svd_memo *memo, mpfr_ptr s, hdo_mat_t U, hdo_mat_t V,
                     const hdo_mat_t A);
/* Its hits and misses so far (tests, measurements). */
void hdo_svd_memo_counts(unsigned long *hits, unsigned long *misses,
                         const hdo_svd_memo *memo);
/* LU factorisations kept the same way (by A's entries and precision):
   hdo_lu_factor_memo is hdo_lu_factor, the same factors and
   permutation; memo NULL: hdo_lu_factor.  A failure is not kept, nor a
   matrix of more than HDO_MEMO_MAX_ENTRIES entries. */
#define HDO_LU_MEMO_SIZE 4
typedef struct hdo_lu_memo hdo_lu_memo;
hdo_lu_memo *hdo_lu_memo_new(void);
void hdo_lu_memo_free(hdo_lu_memo *memo);
int hdo_lu_factor_memo(hdo_lu_memo *memo, hdo_mat_t A, slong *perm);
void hdo_lu_memo_counts(unsigned long *hits, unsigned long *misses,
                        const hdo_lu_memo *memo);
/* hdo_rank, hdo_left_null and hdo_lstsq with their SVD through memo. */
int hdo_rank_memo(hdo_rank_info *info, const hdo_mat_t A, hdo_svd_memo *memo);
int hdo_rank_count_memo(slong *rank, const hdo_mat_t A, hdo_svd_memo *memo);
int hdo_left_null_memo(hdo_mat_t Z, const hdo_mat_t A, slong rank,
                       hdo_svd_memo *memo);
int hdo_lstsq_memo(mpfr_ptr x, const hdo_mat_t A, mpfr_srcptr b, slong rank,
                   hdo_svd_memo *memo);

/* Vector helpers on mpfr arrays (allocated with hdo_vec_init, cleared
   with hdo_vec_clear; n may be 0). */
mpfr_ptr hdo_vec_init(slong n, mpfr_prec_t prec);
void hdo_vec_clear(mpfr_ptr v, slong n);
void hdo_vec_set(mpfr_ptr r, mpfr_srcptr v, slong n);
void hdo_vec_zero(mpfr_ptr v, slong n);
/* 1 when a and b are the same number, the sign of a zero included (a
   NaN is never the same): the key of the memos (D-111, D-113). */
int hdo_same_number(mpfr_srcptr a, mpfr_srcptr b);
/* r := sum x_i y_i, rounded once per term. */
void hdo_vec_dot(mpfr_t r, mpfr_srcptr x, mpfr_srcptr y, slong n);
void hdo_vec_norm2(mpfr_t r, mpfr_srcptr v, slong n);
void hdo_vec_norm_inf(mpfr_t r, mpfr_srcptr v, slong n);
/* log2 |x| in double (the exponent exactly, plus the log of a mantissa
   in [1/2, 1)): the size of a value, for scales and floors; -inf for
   zero and NaN, +inf for an infinity. */
double hdo_log2_abs(mpfr_srcptr x);
/* log2 of a run's time unit u = min(1, span) from lspan = log2 of its
   span (decisions.md D-112): lspan below 0, else 0, also for an unknown
   span (-inf).  Taylor's noise window (D-118) reads it. */
double hdo_log2_time_unit(double lspan);
/* H := max(u, |t|), |t| rounded to H's precision: one time unit at t, u
   a run's time unit (D-112).  The driver's event horizon of a
   polynomial series (hdo_run_event_horizon) and Radau's step cap on
   arcs with guards (D-119, D-122), the same bits for the same u. */
void hdo_time_horizon(mpfr_t H, const mpfr_t u, const mpfr_t t);
#if GMP_NUMB_BITS == 64
/* A regular x's top limb with a sticky bit (bit 0) for the limbs below:
   it holds the significand's 53 bits, its rounding bit and whether
   anything is below, so its conversion to double (round to nearest
   even) rounds as MPFR rounds the whole significand (issue 28: MPFR's
   general rounding is about 190 instructions). */
static inline mp_limb_t
hdo_top_limb_sticky(mpfr_srcptr x)
{
    slong n = (mpfr_get_prec(x) + 63) / 64;
    const mp_limb_t *l = (const mp_limb_t *)mpfr_custom_get_significand(x);
    mp_limb_t m = l[n - 1];
    for (slong i = 0; i < n - 1 && !(m & 1); i++)
        if (l[i] != 0)
            m |= 1;
    return m;
}
#endif

/* mpfr_get_d_2exp(e, x, MPFR_RNDN) for a regular x (the doubles of a
   located series' coefficients: decisions.md D-116): a d rounded up to
   1 is 1/2 with e + 1, as MPFR gives it. */
static inline double
hdo_get_d_2exp(long *e, mpfr_srcptr x)
{
#if GMP_NUMB_BITS == 64
    /* 2^-64, exact; no hex float: the header is C++11 too */
    double d = (1.0 / 18446744073709551616.0) * (double)hdo_top_limb_sticky(x);
    *e = (long)mpfr_get_exp(x);
    if (d == 1.0) {
        d = 0.5;
        *e += 1;
    }
    return mpfr_signbit(x) ? -d : d;
#else
    return mpfr_get_d_2exp(e, x, MPFR_RNDN);
#endif
}

/* ------------------------------------------------------------------ */
/* Linear complementarity problems LCP(q, M), exactly over the rationals
   (ref/linalg/lcp.c): z >= 0 with w = q + M z >= 0 and z_i w_i = 0 for
   every i, M an m x m and q, z m x 1 fmpq matrices.  Every decision is
   exact: no tolerance is involved. */

/* Enumeration and the P-matrix test visit the 2^m index sets: at most
   this many conditions (2^16 sets). */
#define HDO_LCP_MAX_ENUM 16

/* 1 when z solves LCP(q, M), else 0. */
int hdo_lcp_is_solution(const fmpq_mat_t M, const fmpq_mat_t q,
                        const fmpq_mat_t z);

/* Every solution, by enumeration of the index sets alpha (z_i > 0 only
   for i in alpha, w_i = 0 there: M[alpha, alpha] z_alpha = -q_alpha),
   m <= HDO_LCP_MAX_ENUM.  Returns the number of distinct solutions
   found; z (may be NULL) is set to the first (of the smallest alpha as
   a bit mask, *set, may be NULL) when there is one.  *continuum is 1
   when a singular principal block has a consistent system: the
   solutions may then form a continuum and the count is a lower bound
   (never for a P-matrix, whose blocks are all regular). */
slong hdo_lcp_enumerate(fmpq_mat_t z, ulong *set, int *continuum,
                        const fmpq_mat_t M, const fmpq_mat_t q);

/* Lemke's complementary pivoting method with covering vector (1, ...,
   1) and the lexicographic ratio test (no cycling).  Returns 0 with z a
   solution, HDO_LCP_RAY when it ends on a secondary ray (no solution is
   found: for a P-matrix this never happens, for others it does not
   prove that none exists), HDO_LCP_CAP after max_pivots pivots;
   *npivots is the number of pivots made. */
enum { HDO_LCP_RAY = 1, HDO_LCP_CAP = 2 };
int hdo_lcp_lemke(fmpq_mat_t z, slong *npivots, const fmpq_mat_t M,
                  const fmpq_mat_t q, slong max_pivots);

/* 1 when M is a P-matrix (every principal minor positive: LCP(q, M) has
   exactly one solution for every q), m <= HDO_LCP_MAX_ENUM.  Else 0,
   with *alpha (bit i: row and column i) a smallest index set whose
   principal minor, set in minor, is <= 0. */
int hdo_lcp_is_p_matrix(ulong *alpha, fmpq_t minor, const fmpq_mat_t M);

/* A point where LCP(q, M) has two solutions, for M not a P-matrix with
   alpha and minor as hdo_lcp_is_p_matrix gives them: q and the distinct
   solutions z1 and z2 (built from a sign-reversing vector x, x_i (M x)_i
   <= 0, as z1 = x+, z2 = x-, q = (M x)+ - M x+, and checked).  Returns
   1, or 0 when no sign-reversing vector was found in the block alpha
   (q, z1, z2 undefined). */
int hdo_lcp_witness(fmpq_mat_t q, fmpq_mat_t z1, fmpq_mat_t z2,
                    const fmpq_mat_t M, ulong alpha, const fmpq_t minor);

/* Whether G(s) = R[0] + R[1] s + ... + R[L] s^L (m x m rational
   matrices, s = 1/sigma: a transfer matrix's series at infinity) is a
   P-matrix for all small s > 0: the series of every principal minor,
   known to order L, has a positive first nonzero coefficient (minors in
   order of size).  Returns 1, or 0 with *alpha a smallest failing set,
   *order the order of its first nonzero coefficient and coef its value
   (negative), or *order = -1 and coef 0 when the minor vanishes to order
   L (the caller takes L large enough that this means identically). */
int hdo_lcp_is_p_series(ulong *alpha, slong *order, fmpq_t coef,
                        const fmpq_mat_struct *R, slong L);

#ifdef __cplusplus
}
#endif

#endif
