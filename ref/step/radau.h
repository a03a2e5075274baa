/* radau.h -- private to ref/step: the Radau IIA tableau */
#ifndef HDO_STEP_RADAU_H
#define HDO_STEP_RADAU_H

#include "step.h"

/* The s Radau IIA nodes c_1 < ... < c_s = 1 (the zeros of
   P_s(2c - 1) - P_{s-1}(2c - 1)) into c[0..s), to the precision of c.
   Returns 0, or HDO_ERR_NO_CONVERGENCE when the double-precision scan
   did not bracket s - 1 interior zeros (not for s <= 200). */
int hdo_radau_nodes(mpfr_ptr c, slong s);
/* The collocation matrix a_ij = integral over [0, c_i] of the Lagrange
   polynomial l_j of the nodes, into the s x s matrix A (its
   precision).  Returns 0 or HDO_ERR_SINGULAR. */
int hdo_radau_matrix(hdo_mat_t A, mpfr_srcptr c, slong s);

/* The Newton matrix I - h (A (x) J) of s stages of n components in
   block upper triangular form (radau_block.c): A = Q S Q^* (complex
   Schur form), blocks I - h s_kk J, all in double (a preconditioner). */
typedef struct {
    slong n, s;
    slong ny;           /* the first ny components are states (n: an ODE) */
    _Complex double *Q; /* s x s, unitary */
    _Complex double *S; /* s x s, upper triangular */
    _Complex double *T; /* S^-1 (for DAE modes) */
    _Complex double *B; /* s LU factors, n x n each */
    slong *perm;        /* s x n */
    _Complex double *w, *u; /* s x n */
    double *rd, *hJ;        /* s x n, n x n */
    double h;               /* the step of the factorisation */
} hdo_radau_block;

/* The Schur form of A (from its eigenvectors by Arb's QR algorithm,
   orthonormalised at A's precision plus 64 bits, rounded to double) for
   n components.  Returns 0, or -1 when it fails (the caller uses the
   full matrix); clear it either way. */
int hdo_radau_block_init(hdo_radau_block *b, const hdo_mat_t A, slong n);
void hdo_radau_block_clear(hdo_radau_block *b);
/* Makes the block form that of an index-1 DAE mode whose first ny < n
   components are states and the others algebraic unknowns: the Newton
   matrix's rows are I - h (A (x) (f_y f_z)) for the states and
   (g_y g_z) at each stage for the unknowns, J holding both (radau_block.c
   says how).  Call before factoring. */
void hdo_radau_block_set_states(hdo_radau_block *b, slong ny);
/* Factors the blocks I - h s_kk J, J dense n x n row-major.
   Returns 0, or -1 on an exactly singular block or h J beyond double's
   range (the caller uses the full matrix). */
int hdo_radau_block_factor(hdo_radau_block *b, const mpfr_t h, mpfr_srcptr J);
/* R := (I - h (A (x) J))^-1 R to about double's accuracy, R of s x n
   entries (stage-major). */
void hdo_radau_block_solve(hdo_radau_block *b, mpfr_ptr R);

#endif
