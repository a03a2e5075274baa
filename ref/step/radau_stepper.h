/* radau_stepper.h -- private to ref/step: the Radau IIA stepper's state,
 * shared by the files of hdo_step_radau */
#ifndef HDO_STEP_RADAU_STEPPER_H
#define HDO_STEP_RADAU_STEPPER_H

#include "radau.h"
#include "radau_control.h"
#include "radau_dot.h"
#include "radau_error.h"

/* hdo_step_radau in files of one job each: radau.c the step (apply) and
   the stepper interface, radau_setup.c the state's set-up and the
   programs' inputs, radau_newton.c the stage equations' Newton
   iteration, radau_dense.c the dense output, its defect bound and the
   predictor from the last step's polynomial. */
/* When the Newton matrix is refactored, how many iterations it may take
   (hdo_radau_newton_limit) and when the step is kept: radau_control.c */

typedef struct {
    hdo_model_struct *model;
    const hdo_reduced_struct *red;
    mpfr_prec_t prec, wprec; /* the run's, and the working one */
    /* n states y, m algebraic unknowns z (a DAE mode's index-1 reduced
       form y' = f(t, y, z), 0 = g(t, y, z)); every vector of N = n + m
       components holds y first, then z */
    slong n, m, N, s, ng;
    int max_newton;   /* iterations before the step is retried at h/4 */
    mpfr_ptr c;       /* s nodes */
    hdo_mat_t A;      /* s x s */
    hdo_radau_dot Ad; /* A for the residual's dot products (radau_dot.c) */
    hdo_mat_t W;      /* LU of the (s+1) x (s+1) Vandermonde of 0, c_1..c_s */
    slong *wperm;
    /* the dense output's coefficients b_1..b_s from Z as 2^cexp Ci Z
       (hdo_radau_interp_inverse), Ci's dot products in Cd; B their
       values (s x N) */
    hdo_radau_dot Cd;
    long cexp;
    int ci_ok;
    mpfr_ptr B;
    mpfr_ptr L;  /* L_j(c_1), j = 2..s: the Lagrange weights that
                    extrapolate from the stages 2..s to c_1 */
    mpfr_t Lsum; /* 1 + sum |L_j|: how the top term amplifies the stages'
                    errors */
    /* f, g and their nonzero partials: roots f[0..n), g[0..m), then
       the entries of the N x N Jacobian */
    hdo_program_t f;
    slong *fin;       /* per input of f: its component (y, then z) */
    hdo_program_t f0; /* the right-hand sides alone, for the iterations */
    slong *f0in;
    hdo_radau_tcache fc, f0c; /* their operations on time alone, per stage */
    slong nnz, *jrow, *jcol;
    /* the dense output, at wprec: y then z in state_coef */
    mpfr_t *state_coef, *guard_coef; /* N x (s+1), ng x (s+1) */
    int *fixed;                      /* n ones: every state is kept */
    mpfr_t max_res; /* the largest residual of g before the solve */
    mpfr_t t0, h, hnext, tol;
    hdo_radau_probe probe; /* the step-size probe (radau_control.h) */
    int applied;           /* the dense output is that of (t0, y0) */
    /* the factored Newton matrix M (perm) is valid for the step hlu */
    int lu_valid, lu_full; /* lu_full: M, else the blocks blk */
    mpfr_t hlu;
    hdo_radau_block blk; /* the block-diagonal form (radau_block.c) */
    int blk_init, have_blk;
    mpfr_ptr J0; /* n x n: the Jacobian of the blocks */
    /* the last accepted step's polynomial, the predictor of the next
       (radau_dense.c): its start y0 (prev_y0, N) and its coefficients
       b_1..b_s in that step's tau (rows 1..s of PF, (s + 1) x N; row 0
       is y0's change, set by each prediction); the products with the
       powers of the new stages' tau (Ptau, s + 1 with the end's) in Pd,
       into Pout ((s + 1) x N) */
    mpfr_ptr prev_y0, PF, Ptau, Pout;
    hdo_radau_dot Pd;
    mpfr_t tprev, hprev;
    int have_prev;
    /* work */
    mpfr_ptr y0, Z, F, R; /* N, s*N, s*N, s*N */
    hdo_mat_t M;             /* s*N x s*N */
    slong *perm;
    mpfr_ptr Jst; /* s x nnz Jacobian entries at the stages */
    /* modes with switching functions (radau_guard.c) */
    hdo_radau_guard gd;
    int have_gd;
    hdo_radau_memo memo; /* the previous apply's dense output */
    int have_memo;
    mpfr_ptr w0; /* s weights: the stages' polynomial at tau = 0 */
    /* each component's scale (radau_scale.c), from the stepper's floors
       (borrowed: N entries, the states' then the unknowns') */
    mpfr_srcptr floor;
    mpfr_ptr sc; /* N, 64 bits */
    /* the defect bound (radau_error.c): per state, 64 bits; the dense
       output's value and slope at a sample point (N each) */
    hdo_radau_defect dfx;
    mpfr_ptr dd, du, dslope, dx, dxf;
    /* I - gamma h J0 (an ODE mode), factored with the blocks: the
       defect bound's filter (fb_valid: for the current h and J0) */
    hdo_radau_block fb;
    int fb_ok, fb_valid;
} radau;

/* radau_setup.c: the stepper interface's alloc and free; the inputs of
   f or f0 (their components in, time t) from y. */
int hdo_radau_stepper_alloc(hdo_stepper_struct *st, hdo_model_t model,
                            const hdo_reduced_struct *red,
                            const hdo_expr *guards, slong nguards,
                            mpfr_prec_t prec);
void hdo_radau_stepper_free(hdo_stepper_struct *st);
void hdo_radau_set_inputs(radau *r, hdo_program_struct *prog, const slong *in,
                          const mpfr_t t, mpfr_srcptr y);
/* radau_start.c: the algebraic components of y0 refined by one Newton
   step at the working precision where the run's precision lost digits
   of them; 1 when it moved them. */
int hdo_radau_refine_unknowns(radau *r);
/* 1 when the step proposal hnext is below t0's resolution at the run's
   precision on an arc that does not continue the last step (a mode
   entered again): the first step's rule proposes anew. */
int hdo_radau_stale_step(const radau *r, const mpfr_t t0);
/* radau_newton.c: the stages Z of the step (t0, h) from the predictor
   or zero; 0, 1 (shrink h) or 2 (again from zero). */
int hdo_radau_solve_stages(radau *r, int predicted);
/* radau_dense.c: the predictor Z; the dense output state_coef from y0
   and Z; the defect bound dd of the dense output. */
int hdo_radau_predict(radau *r);
void hdo_radau_interpolate(radau *r);
int hdo_radau_defect_bound(radau *r);

#endif
