/* icsing.h -- consistent initial values for F(t, y, y') = 0 when the
   Jacobian of F with respect to what IDACalcIC(IDA_YA_YDP_INIT) solves for
   (y'_D of the differential components, y_A of the algebraic ones) is
   singular: an index-1 DAE such as M y' = f(t, y) with M singular, whose
   algebraic combinations w^T F (w^T dF/dz = 0) constrain y and whose
   derivatives along the solution fix the part of y' that F leaves free.

   The method (a careful IDA user's, all in double precision):
   1. K = dF/dz at the current point, z = (y'_D, y_A), by forward-mode
      differentiation of F (exact up to rounding); rows and columns
      scaled to unit largest entry; Householder QR with column pivoting
      gives the numerical rank r (pivots above ICS_RANK_RTOL times the
      first) and W, the last n - r columns of Q: the left null space of
      the scaled K.
   2. The n - r hidden constraints w^T F = 0 hold along the solution, so
      their time derivatives vanish too: since w^T dF/dz = 0, that is
      w^T (dF/dt + dF/dy_D y'_D) = 0, the derivative of F along the
      direction (1, y'_D, 0) at fixed z.
   3. Newton on the square system: the range part (Q^T F)[0..r) and those
      n - r derivatives, for z (y_D is never changed, as IDACalcIC keeps
      differential components); the derivative rows' Jacobian by
      difference quotients (they only steer the iteration: the fixed point
      is exact).  K, W are recomputed at every iterate.
   4. At the solution, the hidden constraints themselves must hold to what
      IDA's corrector accepts: the minimum-norm change of y_D that would
      satisfy them to first order has a weighted RMS norm (IDA's weights
      1 / (rtol |y| + atol)) of at most 0.33 (IDA's epcon). */
#ifndef HDO_IDA_ICSING_H
#define HDO_IDA_ICSING_H

#include <flint/flint.h>

/* The rank threshold 2^-26: the square root of double's unit roundoff,
   the same relative pivot that libhdo's rank decisions use at 53 bits
   (2^(-floor(p/2)), ref/linalg/lu.c). */
#define ICS_RANK_RTOL (1.0 / 67108864.0)

/* Sets F = F(t, y, yp) and, when dF is not NULL, dF = its derivative in
   the direction (dt, dy, dyp). */
typedef void (*ics_resfn)(double *F, double *dF, double t, const double *y,
                          const double *yp, double dt, const double *dy,
                          const double *dyp, void *ud);

typedef struct {
    slong rank;      /* r: rank of dF/dz at the solution */
    slong iters;     /* Newton iterations */
    double step;     /* the last Newton step, max norm */
    double inconsis; /* WRMS norm of the y_D change the constraints want */
} ics_info;

enum {
    ICS_OK = 0,
    ICS_NONFINITE = -1,    /* F or its derivatives not finite */
    ICS_UNDETERMINED = -2, /* the derivatives of the constraints do not fix
                              z: the index is above 1 */
    ICS_NO_CONVERGENCE = -3,
    ICS_INCONSISTENT = -4 /* y_D violates the hidden constraints */
};

/* The numerical rank of the m x n matrix A (row-major) after scaling its
   rows and columns to unit largest entry, by QR with column pivoting and
   ICS_RANK_RTOL; *ratio (may be NULL) is set to |R_kk / R_00| of the
   smallest pivot, k = min(m, n) - 1 (0 for a zero matrix): how far a
   regular matrix is from the threshold.  A zero row or column is left
   unscaled. */
slong ics_numeric_rank(const double *A, slong m, slong n, double *ratio);

/* Consistent y' (and algebraic components) for F(t, y, yp) = 0 of size n:
   id[i] = 1 for a differential component (y[i] kept, yp[i] solved for),
   0 for an algebraic one (y[i] solved for, yp[i] kept).  y and yp hold
   the guesses on entry and the result on success.  Returns ICS_OK or a
   negative ICS_ code (y, yp then unspecified); info (may be NULL) gets
   the figures. */
int ics_consistent(double *y, double *yp, double t, slong n, const double *id,
                   double rtol, double atol, ics_resfn fn, void *ud,
                   ics_info *info);

/* A sentence for an ICS_ code. */
const char *ics_message(int code);

#endif
