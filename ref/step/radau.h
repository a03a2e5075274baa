/* radau.h -- private to ref/step: the Radau IIA tableau */
#ifndef HDO_STEP_RADAU_H
#define HDO_STEP_RADAU_H

#include "step.h"
#include "taylor.h"

/* The most stages hdo_radau_stages chooses (radau_nodes.c says why; 64
   until decisions.md D-105). */
#define HDO_RADAU_MAX_STAGES 200
/* The largest n s for which the full Newton matrix (n s x n s, MPFR) is
   made: beyond, a block factorisation that fails, or converges too
   slowly, shrinks the step.  One full factorisation costs (n s)^3 / 3
   products: at EMEP's 67 x 17 = 1139 (16 digits) 4.9e8, minutes, where
   a shorter step costs a block factorisation (issue 28: its first step
   took 230 s, and auto stopped for minutes at a sunset); 512 lies above
   every n s of the corpus' Radau runs (transistor_amplifier at 60
   digits: 8 x 45 = 360), whose steps it leaves as they were
   (decisions.md D-095). */
#define HDO_RADAU_MAX_FULL 512

/* The s Radau IIA nodes c_1 < ... < c_s = 1 (the zeros of
   P_s(2c - 1) - P_{s-1}(2c - 1)) into c[0..s), to the precision of c.
   Returns 0, or HDO_ERR_NO_CONVERGENCE when the double-precision scan
   did not bracket s - 1 interior zeros (not for s <= 200). */
int hdo_radau_nodes(mpfr_ptr c, slong s);
/* The collocation matrix a_ij = integral over [0, c_i] of the Lagrange
   polynomial l_j of the nodes, into the s x s matrix A (its
   precision).  Returns 0 or HDO_ERR_SINGULAR. */
int hdo_radau_matrix(hdo_mat_t A, mpfr_srcptr c, slong s);
/* a_0 .. a_s := the coefficients of prod_k (x - c_k) over the s nodes,
   a_s = 1, each product and difference rounded to a's precision (the
   interpolation's P, radau_error.c's omega). */
void hdo_radau_node_poly(mpfr_ptr a, mpfr_srcptr c, slong s);
/* Ci := 2^-e C^-1 for the s x s matrix C_mk = c_m^(k+1) (m, k < s),
   e the exponent of C^-1's largest entry (so |Ci_ik| < 1, and the
   scaling is exact): the coefficients b_1..b_s of the polynomial in
   tau through (0, 0) and (c_m, Z_m) are 2^e Ci Z.  Each entry rounded
   once to Ci's precision (computed 4 s + 64 bits beyond it).  Returns
   0, or -1 when C is singular at that precision. */
int hdo_radau_interp_inverse(hdo_mat_t Ci, long *e, mpfr_srcptr c, slong s);
/* out := sum_k c[k] h^k (k = 0..s) by Horner at wprec bits, rounded to
   out's precision: the value of a dense output polynomial. */
void hdo_radau_horner(mpfr_ptr out, const mpfr_t *c, slong s, const mpfr_t h,
                      mpfr_prec_t wprec);
/* The same with the sums in acc (at its precision, as wprec above):
   no accumulator to allocate at each of a step's s N evaluations. */
void hdo_radau_horner_acc(mpfr_ptr out, mpfr_ptr acc, const mpfr_t *c,
                          slong s, const mpfr_t h);

/* The Newton matrix I - h (A (x) J) of s stages of n components in
   block upper triangular form (radau_block.c): A = Q S Q^* (complex
   Schur form), blocks I - h s_kk J, all in double (a preconditioner). */
typedef struct {
    slong n, s;
    slong ny;           /* the first ny components are states (n: an ODE) */
    _Complex double *Q; /* s x s, unitary */
    _Complex double *S; /* s x s, upper triangular */
    _Complex double *T; /* S^-1 (for DAE modes) */
    _Complex double *B; /* s LU factors, n x n each (band: n x bw) */
    slong *perm;        /* s x n */
    _Complex double *w, *u, *x; /* s x n, s x n, n */
    _Complex double *w0;        /* s x n: w before the back substitution */
    double *rd, *hJ;            /* s x n, nnz (h J's nonzero entries) */
    double h;                   /* the step of the factorisation */
    /* J's nonzero pattern (row[e], col[e], e < nnz; all n^2 entries
       until hdo_radau_block_set_pattern), the order of the blocks'
       unknowns (ord: position -> component, pos its inverse: reverse
       Cuthill-McKee of J + J^T), and in that order the bandwidths kl,
       ku; band: the blocks are factored as band matrices of width
       bw = 2 kl + ku + 1 (partial pivoting fills ku + kl above) */
    slong nnz, *row, *col, *ord, *pos;
    slong kl, ku, bw;
    int band;
    /* the stages' own Jacobians (radau_stagelu.c): A in double (s x s),
       and when staged the full s n x s n matrix's LU in double (lu,
       lperm; made on first use) that the solve then takes */
    double *A, *lu;
    slong *lperm;
    int staged;
    /* refine: the blocks precondition an iteration in double on that
       matrix (radau_stagelu.c), hJs its h J_j (s x nnz), rf its work
       space (4 s n), made on first use; refined: the last solve took a
       correction of that iteration */
    double *hJs, *rf;
    int refine, refined;
} hdo_radau_block;

/* The Schur form of A (radau_schur.c: in double, by the QR algorithm)
   for n components.  Returns 0, or -1 when it fails (the caller uses the
   full matrix); clear it either way. */
int hdo_radau_block_init(hdo_radau_block *b, const hdo_mat_t A, slong n);
void hdo_radau_block_clear(hdo_radau_block *b);
/* Makes the block form that of an index-1 DAE mode whose first ny < n
   components are states and the others algebraic unknowns: the Newton
   matrix's rows are I - h (A (x) (f_y f_z)) for the states and
   (g_y g_z) at each stage for the unknowns, J holding both (radau_block.c
   says how).  Call before factoring. */
void hdo_radau_block_set_states(hdo_radau_block *b, slong ny);
/* Gives the blocks J's nonzero pattern (nnz entries row[e], col[e]):
   hdo_radau_block_factor_sparse then takes J's values in that order, and
   factors each block as a band matrix in reverse Cuthill-McKee order
   when that is cheaper than dense (bandwidths kl + ku < n/4): a cost
   linear in n for a sparse mode of small bandwidth (issue #28). */
void hdo_radau_block_set_pattern(hdo_radau_block *b, slong nnz,
                                 const slong *row, const slong *col);
/* Factors the blocks I - h s_kk J, J dense n x n row-major (the
   pattern must be the full one: no set_pattern call).
   Returns 0, or -1 on an exactly singular block or h J beyond double's
   range (the caller uses the full matrix). */
int hdo_radau_block_factor(hdo_radau_block *b, const mpfr_t h, mpfr_srcptr J);
/* The same with J's nnz values in the order of the pattern. */
int hdo_radau_block_factor_sparse(hdo_radau_block *b, const mpfr_t h,
                                  mpfr_srcptr Jval);

/* radau_band.c: ord := reverse Cuthill-McKee order of the n components
   for the pattern (row, col) of J + J^T; band LU with partial pivoting
   of an n x n complex band matrix (row i holds columns i - kl ..
   i + ku + kl at B[i bw + j - i + kl], bw = 2 kl + ku + 1), ipiv the
   interchanges (0, or -1 when singular), and its solve in place. */
void hdo_radau_rcm(slong *ord, slong n, slong nnz, const slong *row,
                   const slong *col);
int hdo_radau_band_factor(_Complex double *B, slong *ipiv, slong n, slong kl,
                          slong ku);
void hdo_radau_band_solve(_Complex double *v, const _Complex double *B,
                          const slong *ipiv, slong n, slong kl, slong ku);
/* radau_schur.c: Q, S (upper triangular) and T = S^-1, s x s row-major
   in double, with A = Q S Q^* (the complex Schur form of the s x s
   matrix A) and Q unitary, to about double's rounding: 0, or -1 when
   hdo_radau_schur_error exceeds HDO_RADAU_SCHUR_TOL (the caller uses the
   full matrix). */
int hdo_radau_schur(_Complex double *Q, _Complex double *S, _Complex double *T,
                    const hdo_mat_t A);
/* The largest entry of |Q S Q^* - A|, |Q^* Q - I| and |S T - I| (in
   double) for a Schur form of A (s x s) rounded to double, T = S^-1;
   NaN when any is not a number. */
#define HDO_RADAU_SCHUR_TOL 1e-13
double hdo_radau_schur_error(const _Complex double *Q, const _Complex double *S,
                             const _Complex double *T, const hdo_mat_t A,
                             slong s);
/* R := (I - h (A (x) J))^-1 R to about double's accuracy, R of s x n
   entries (stage-major). */
void hdo_radau_block_solve(hdo_radau_block *b, mpfr_ptr R);
/* The same on b->rd (s x n doubles) in place. */
void hdo_radau_block_solve_doubles(hdo_radau_block *b);
/* x[k] := R[perm[k]] 2^-emax rounded to double (perm NULL: R[k]), emax
   the largest exponent among R's nonzero entries, which it returns;
   LONG_MIN, x untouched, when all ns entries are zero. */
long hdo_radau_scaled_doubles(double *x, mpfr_srcptr R, const slong *perm,
                              slong ns);
/* R[k] := x[k] 2^e (k < ns), as mpfr_set_d then mpfr_mul_2si (the
   same bits; no MPFR call for a normal double): a solve's result back
   from hdo_radau_scaled_doubles' scale. */
void hdo_radau_unscale_doubles(mpfr_ptr R, const double *x, slong ns, long e);

/* Factors the Newton matrix for h: where hdo_radau_stage_lu_due says
   (radau_control.h), in an ODE mode, I - h (A (x) I) diag(J_1..J_s) in
   double with
   the stages' Jacobians Jst (s x nnz values in the pattern's order);
   else, or when that fails, the blocks with their mean J0
   (hdo_radau_block_factor_sparse), which in an ODE mode then
   precondition an iteration in double on the stages' matrix (refine).
   hdo_radau_block_solve_stages then solves with what was factored.
   Returns 0, or -1 as the blocks do. */
int hdo_radau_block_factor_stages(hdo_radau_block *b, const mpfr_t h,
                                  mpfr_srcptr J0, mpfr_srcptr Jst);
/* h max |J_ii| over the states (i < ny) for J's values in the
   pattern's order: how stiff a stage is in its stiffest component. */
double hdo_radau_block_stiffness(const hdo_radau_block *b, mpfr_srcptr J,
                                 const mpfr_t h);
/* R := M^-1 R in double, M what hdo_radau_block_factor_stages factored
   (the stages' matrix; or the blocks, hdo_radau_block_solve, refined
   on the stages' matrix where refine says). */
void hdo_radau_block_solve_stages(hdo_radau_block *b, mpfr_ptr R);

/* The switching functions' dense output (radau_guard.c).  Their values at
   tau = 0, c_1..c_s (the start and the stages) are interpolated as the
   states are; a guard within sqrt(tol) of zero at the start, relative to
   its size over the step and its floor (an arc that
   starts on its surface: after an event, a contact) gets instead the
   polynomial whose coefficients 0..K are its exact Taylor jet at the
   start (one expansion of order K by the Taylor AD, no Taylor step) and
   that takes its values at the stages K+1..s, so that the zero rule at
   an arc's start (KM Remark 12), the chattering and Zeno tests read exact
   derivatives there, as on a Taylor expansion. */
typedef struct {
    slong ng, s, n, N, K;
    mpfr_prec_t wprec;
    hdo_taylor_struct *tay; /* order K: the guard program and the jet */
    mpfr_srcptr gfloor;     /* borrowed: the stepper's guard floors */
    int tay_init, cinit;
    mpfr_ptr gv; /* (s + 1) x ng values at the nodes */
    mpfr_ptr b;  /* s + 1 scratch coefficients */
    int *near;   /* per guard: anchored to its jet at the last call */
    hdo_mat_t C; /* LU of c_i^k, i = K+1..s, k = K+1..s */
    slong *cperm;
} hdo_radau_guard;

/* Compiles the guards of red for nodes c of s stages at wprec.  Returns
   0, or HDO_ERR_UNSUPPORTED with the reason in msg (a guard needs a
   derivative the reduced form does not provide); clear it either way. */
int hdo_radau_guard_init(hdo_radau_guard *g, hdo_model_t model,
                         const hdo_reduced_struct *red, const hdo_expr *guards,
                         slong nguards, mpfr_srcptr c, slong s,
                         mpfr_prec_t wprec, char *msg, size_t msglen);
void hdo_radau_guard_clear(hdo_radau_guard *g);
/* The guards at tau = 0, c_1..c_s of the step h from (t0, y0) with stage
   increments Z (s x N) into g->gv.  Returns 0 or HDO_ERR_DOMAIN (*bad). */
int hdo_radau_guard_values(hdo_radau_guard *g, const mpfr_t t0,
                           const mpfr_t h, mpfr_srcptr y0, mpfr_srcptr Z,
                           mpfr_srcptr c, hdo_expr *bad);
/* e := max(e, the error estimates of the guards' polynomials, relative
   to the guard's size over the step, max(|g| at tau = 0, c_1..c_s,
   gfloor / tol) (hdo_radau_guard_scale): the first stage against the
   polynomial through
   the others (weights L, as hdo_radau_top_term in radau_error.c) and the start against
   the stages' polynomial (weights w0, as hdo_radau_start_term), after
   hdo_radau_guard_values. */
void hdo_radau_guard_error(mpfr_t e, const hdo_radau_guard *g, mpfr_srcptr L,
                           mpfr_srcptr w0, const mpfr_t tol);
/* The guards' polynomials in t - t0 (ng x (s + 1) into coef) from the
   values of hdo_radau_guard_values, W the LU (wperm) of the Vandermonde
   of 0, c_1..c_s; the jet of the guards near zero from an expansion at
   (t0, y0).  Returns 0 or the expansion's failure (err filled). */
int hdo_radau_guard_dense(mpfr_t *coef, hdo_radau_guard *g, const mpfr_t t0,
                          const mpfr_t h, mpfr_srcptr y0, mpfr_srcptr c,
                          const hdo_mat_t W, const slong *wperm,
                          const mpfr_t tol, hdo_error_t *err);

/* The dense output of the previous apply point, kept so that the driver,
   which re-applies at its step's start after testing another point (a
   guard's direction at an event, a sign pattern), gets back the very
   polynomial it located the event on, not a new step. */
typedef struct {
    slong N, ncoef;
    int valid;
    mpfr_t t0, h, hnext;
    mpfr_ptr y0;
    mpfr_t *coef; /* the states' then the guards' coefficients */
} hdo_radau_memo;

void hdo_radau_memo_init(hdo_radau_memo *mo, slong N, slong ncoef,
                         mpfr_prec_t w);
void hdo_radau_memo_clear(hdo_radau_memo *mo);
/* Exchanges the memo with the current point and dense output. */
void hdo_radau_memo_swap(hdo_radau_memo *mo, mpfr_t t0, mpfr_t h, mpfr_t hnext,
                         mpfr_ptr y0, mpfr_t *state_coef, slong nstate_coef,
                         mpfr_t *guard_coef);

/* radau_eval.c: the values of a program's operations on time and
   constants alone (sin(20000 pi t) of a source), kept per stage with the
   stage's time: hdo_radau_tcache_eval(c, prog, i, bad) is
   hdo_program_eval(prog, bad) for stage i (inputs and time set), giving
   the same values, with those operations copied back when stage i's time
   is the one they were computed at. */
typedef struct {
    slong s, nt;  /* stages; operations on time alone */
    slong *slot;  /* their slots, in program order */
    mpfr_ptr val; /* s x nt values */
    mpfr_ptr t;   /* s: the time of each stage's values */
    int *valid;   /* s */
} hdo_radau_tcache;

void hdo_radau_tcache_init(hdo_radau_tcache *c, const hdo_program_struct *prog,
                           slong s);
/* Also on a zeroed cache that was never made. */
void hdo_radau_tcache_clear(hdo_radau_tcache *c);
int hdo_radau_tcache_eval(hdo_radau_tcache *c, hdo_program_struct *prog,
                          slong stage, hdo_expr *bad);

/* radau_scale.c: sc[i] := the scale of component i of N (64 bits):
   max(|y0_i|, |y0_i + Z_i| (Z NULL: left out), floor_i (floor NULL: 0),
   2^-(3s + 25) max_k |y0_k|), the size the Newton iteration and the
   error estimate measure component i's errors against (the reason for
   the last term is there).  e := max(e, |a_k| / sc[k mod N]) over the n
   entries of a (stage-major vectors of N components); +inf when an
   entry is NaN or is nonzero where the scale is 0. */
void hdo_radau_scales(mpfr_ptr sc, mpfr_srcptr y0, mpfr_srcptr Z,
                      mpfr_srcptr floor, slong N, slong s);
void hdo_radau_scaled_max(mpfr_t e, mpfr_srcptr a, slong n, slong N,
                          mpfr_srcptr sc);

/* radau_scale.c: T := the state's time scale for the first step:
   min |y0_i| / |f_i| over the components i < n that move and are above
   their floors (floor NULL: every nonzero one), f_i = value[slot[i]];
   without one, min sqrt(|y0_i| / |a_i|) over those at rest (f_i = 0)
   above their floors, a = J f over the states (J's nnz entries
   value[slot[N + e]] at (jrow[e], jcol[e])); without one either,
   max_i sc_i / max_i |f_i| (sc from hdo_radau_scales, set here); 1 when
   that is not a number.
   hdo_radau_round_floor_log2: log2 of the iteration's rounding floor
   2^-(3s + 25) max_k |y0_k| (hdo_radau_scales' last term), -inf for a
   zero state. */
void hdo_radau_time_scale(mpfr_t T, mpfr_srcptr y0, const mpfr_t *value,
                          const slong *slot, slong nnz, const slong *jrow,
                          const slong *jcol, mpfr_srcptr floor, mpfr_ptr sc,
                          slong n, slong N, slong s);
double hdo_radau_round_floor_log2(mpfr_srcptr y0, slong N, slong s);

#endif
