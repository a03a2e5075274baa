/* dqr.h -- Householder QR with column pivoting in double precision, for the
   IDA adapter's rank decisions and small least-squares solves (no LAPACK:
   the matrices are a mode's Jacobians, a few hundred rows at most). */
#ifndef HDO_IDA_DQR_H
#define HDO_IDA_DQR_H

#include <flint/flint.h>

/* A P = Q R of an m x n matrix A, P a column permutation chosen so that
   |R_00| >= |R_11| >= ... (up to rounding). */
typedef struct {
    slong m, n;
    slong kmax;  /* min(m, n) reflections */
    double *a;   /* column-major: R on and above the diagonal, the
                    reflectors' vectors below it (implicit leading 1) */
    double *tau; /* the reflectors' coefficients */
    slong *perm; /* column k of A P is column perm[k] of A */
    slong rank;  /* the numerical rank of the last dqr_factor */
} dqr_struct;
typedef dqr_struct dqr_t[1];

void dqr_init(dqr_t qr, slong m, slong n);
void dqr_clear(dqr_t qr);

/* Factors the m x n matrix A (row-major: A[i * n + j]) and sets qr->rank
   to the number of leading diagonal entries of R with |R_kk| > rtol |R_00|
   (0 when R_00 = 0). */
void dqr_factor(dqr_t qr, const double *A, double rtol);

/* b (length m) := Q^T b. */
void dqr_qt(const dqr_t qr, double *b);

/* x (length n) := the basic least-squares solution of A x = b using the
   first qr->rank columns of A P (the others' components are 0); b is not
   changed. */
void dqr_solve(double *x, const dqr_t qr, const double *b);

/* x (length m) := the minimum-norm solution of B^T x = b (b of length n)
   where qr holds the factorisation of the m x n matrix B, using its first
   qr->rank columns (the equations of the others are dropped). */
void dqr_solve_transposed(double *x, const dqr_t qr, const double *b);

#endif
