/* reduce.h -- the integrator's form of a mode: structural index reduction
   (Pryce's signature method) with substitution of explicit derivatives,
   giving a semi-explicit index-1 system plus its constraints (the
   algebraic equations and every hidden constraint). */
#ifndef HDO_REDUCE_H
#define HDO_REDUCE_H

#include "model.h"
#include "linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reduced form of mode j (all indices "local" are into mode->vars).

   Variables split into
   - explicit (D): variable has an equation solvable as der(x) = rhs(t, x)
     with rhs free of derivatives (der(x) = ..., m*der(v) = ..., with a
     coefficient free of derivatives); its state is x itself;
   - implicit (A): every other variable; it enters with Pryce offset d[j]:
     states x^(0..d[j]-1) and one unknown x^(d[j]) (d[j] = 0: algebraic).

   Equations: the explicit ones stay as der(x) = rhs.  Every other
   equation g_k is differentiated c[k] times (total derivative, with every
   derivative of an explicit variable replaced by rhs and its total
   derivatives), giving
     h_k   = g_k^(c_k)          implicit equations, solved for the unknowns
     g_k^(m), m < c_k           constraints on the state (m = 0: the
                                algebraic equation itself when c_k >= 1,
                                m >= 1: hidden constraints).
   The Jacobian of h with respect to the unknowns is nonsingular at
   consistent points (checked when the form is used).

   Everything is an expression in the model's pool, in terms of
   VAR(var, order) nodes with model variable indices.

   What index and dof mean here:
   - index is Pryce's structural index nu_S = max_k c_k over all
     equations, plus 1 if some variable has d_j = 0 (is algebraic).  For
     the pendulum it is 3, for an ODE 0; it bounds the differentiation
     index when the system Jacobian is nonsingular (Pryce 2001, thm 4.2).
     Only implicit equations can have c > 0 in max_k c_k that matters:
     explicit ones are never differentiated.
   - dof = nstate - ncons is the number of initial values that can be
     chosen freely (the dimension of the solution manifold), equal to
     Pryce's sum d_j - sum c_i of the full system when the constraints
     are independent. */
typedef struct {
    slong var;   /* model variable index */
    slong order; /* derivative order */
} hdo_varord;

typedef struct {
    slong mode;
    slong n; /* mode->nvars */
    /* explicit variables */
    slong nexplicit;
    slong *explicit_var; /* model var indices */
    hdo_expr *rhs;       /* der(explicit_var[i]) = rhs[i] */
    slong *explicit_eq;  /* the equation index it came from */
    /* implicit variables and their offsets */
    slong nimplicit;
    slong *implicit_var; /* model var indices */
    slong *d;            /* offsets, per implicit variable */
    /* implicit equations */
    slong nh;    /* == nimplicit */
    slong *h_eq; /* source equation index of h[k] */
    slong *c;    /* offsets, per implicit equation */
    hdo_expr *h; /* g_k^(c_k), substituted */
    /* constraints on the state: g_k^(m), m < c_k */
    slong ncons;
    hdo_expr *cons;
    slong *cons_eq;    /* source equation; -1 for a constraint added
                          by hdo_reduced_add_constraint */
    slong *cons_order; /* m */
    /* NULL: every constraint is cons[i] = 0; else ncons values (set by
       the user of hdo_reduced_add_constraint): cons[i] = cons_rhs[i] */
    mpfr_ptr cons_rhs;
    /* the state vector (order used by the integrator):
       explicit variables (order 0) first, then for each implicit
       variable j its orders 0..d[j]-1. */
    slong nstate;
    hdo_varord *state;
    /* the unknowns: implicit_var[j] at order d[j] */
    hdo_varord *unknown; /* nimplicit entries */
    slong dof;           /* nstate - ncons: degrees of freedom */
    slong index;         /* differentiation index: max c + (any d == 0) */
    /* 1 when built by hdo_reduce_mode_km (the Kunkel-Mehrmann fallback):
       the equations were first transformed by the exact left null space
       of their derivative Jacobian, then reduced as below */
    int km_fallback;
    /* Pryce's offsets of the full system (explicit equations included),
       for reporting: var_d[i] for mode->vars[i], eq_c[k] for
       mode->eqs[k]; d[] and c[] above are their implicit entries. */
    slong *var_d;
    slong *eq_c;
    /* Compiled programs and symbolic Jacobians for hdo_consistent_init
       and hdo_reduced_residual, built once per mode (programs compiled
       lazily, once per precision).  Private to ref/reduce/. */
    struct hdo_reduce_cache *cache;
} hdo_reduced_struct;
typedef hdo_reduced_struct hdo_reduced_t[1];

/* Pryce's signature method on an n x n signature matrix sigma (row-major:
   sigma[i * n + j] is the highest order of variable j in equation i, or
   HDO_SIGMA_NONE when it does not occur).  Finds a transversal of
   maximal value (match[i] = the variable of equation i) and the smallest
   offsets c (per equation), d (per variable) with d_j - c_i >= sigma_ij,
   equality on the transversal (Pryce 2001, section 3, fixed-point
   iteration from c = 0).  Returns 0, or HDO_ERR_SINGULAR when there is
   no transversal with finite entries (structurally singular); then
   match holds a maximum matching (-1 for unmatched equations) and c, d
   are undefined. */
#define HDO_SIGMA_NONE (-(WORD(1) << 40))
int hdo_pryce_offsets(slong *c, slong *d, slong *match, const slong *sigma,
                      slong n);

void hdo_reduced_init(hdo_reduced_t r);
void hdo_reduced_clear(hdo_reduced_t r);

/* A deep copy of r (arrays and the symbolic Jacobians; the compiled
   programs are rebuilt on first use).  out is initialised here. */
void hdo_reduced_copy(hdo_reduced_t out, const hdo_reduced_t r);

/* Appends the constraint e = value (a first integral kept as a
   constraint, KM 2017 (23)): e is an expression of order-0 state
   variables of r and t; its row is returned.  Its value starts at 0;
   the caller sets r->cons_rhs[row] (created here at precision prec,
   zero for the other rows).  cons_eq is -1, cons_order 0, dof one less;
   the projection of hdo_consistent_init and hdo_reduced_residual use it
   from then on. */
slong hdo_reduced_add_constraint(hdo_reduced_t r, hdo_model_t model, hdo_expr e,
                                 mpfr_prec_t prec);

/* Builds the reduced form of a mode.  Returns 0, or HDO_ERR_SINGULAR
   when the structure is singular (no transversal: e.g. a variable that
   no equation can determine), with err naming the mode and the
   variables or equations involved.  Pure symbolic work: done once per
   mode, never per step. */
int hdo_reduce_mode(hdo_reduced_t r, hdo_model_t model, slong mode,
                    hdo_error_t *err);

/* The Kunkel-Mehrmann fallback, for a mode whose reduced form from
   hdo_reduce_mode is numerically singular (hdo_consistent_init returns
   HDO_ERR_SINGULAR: Pryce's structure promised a nonsingular Jacobian of
   h and the numbers deny it, as for M x' = f(x) with M singular but a
   full transversal).  Level 0 of the derivative array: E = dF/dx', which
   must have rational constant entries (F affine in x' with constant
   coefficients), and its left null space Z2 (E^T's exact reduced row
   echelon form over Q, FLINT's fmpq_mat_rref) gives the a = l - rank E
   combinations z^T F that are free of derivatives (KM 2006's F^_2 at
   mu = 0); each replaces the equation at its pivot (z_k = 1, zero at the
   other pivots: an invertible transformation), the rest (F^_1) are kept,
   and the system is reduced by Pryce's method as in hdo_reduce_mode,
   which now differentiates the algebraic combinations.  Sets
   r->km_fallback.  Returns 0, or HDO_ERR_UNSUPPORTED (err says why: a
   derivative of order 2 or more, a coefficient of a derivative that is
   not a rational constant, or a left null space of E that holds only the
   mode's own algebraic equations, so the transformation would change
   nothing), or a status of the reduction. */
int hdo_reduce_mode_km(hdo_reduced_t r, hdo_model_t model, slong mode,
                       hdo_error_t *err);

/* Consistent (re)initialisation.

   x is the full value table of the reduced system's state and unknowns:
   state values in xs[0..nstate), unknowns in xu[0..nimplicit), at
   precision prec.  fixed[i] (i < nstate) says whether state i carries a
   given value (a var start value, an assigned or kept value) that should
   be kept if possible; the others are free guesses.

   Finds a point with every constraint and every h equation satisfied to
   the working precision: Gauss-Newton steps of minimum norm in the free
   components first, and only where the free components cannot satisfy
   the constraints, the smallest change of the fixed ones (each step:
   dX = lstsq(Z^T J_X, Z^T b) with Z spanning the complement of the range
   of the free columns J_F, then dF = lstsq(J_F, b - J_X dX)); a step is
   halved until the residual decreases.  "Smallest" is meant to first
   order: the limit of these steps differs from the Euclidean nearest
   consistent point by O(|change|^2) (exactly nearest when the free
   components absorb everything, or for a single constraint with fixed
   components).  Converged when max |constraint| <= 2^(8 - prec) *
   ||J||_inf ||xs||_inf (1 when that is 0).  Then solves h for the
   unknowns by Newton (LU), starting from the values in xu, until a step
   is at most 2^(8 - prec) ||xu||_inf (or, from the third iteration, a
   step that does not decrease at most 2^(-prec/2) ||xu||_inf).  Sets *adjusted
   (may be NULL) to 1 if a fixed value changed by more than 2^(-prec/2) max(1,
   |value|) (a "reinit-adjusted" event).  fixed may be NULL (all free). Returns
   0, HDO_ERR_INCONSISTENT (no consistent point near the guess, with the largest
   constraint residual in err), HDO_ERR_SINGULAR (dh/dunknowns singular, err
   names the equations and unknowns) or HDO_ERR_DOMAIN; err carries the mode and
   t.  The compiled programs are cached in r (recompiled when prec changes), so
   r is not thread-safe. */
int hdo_consistent_init(mpfr_ptr xs, mpfr_ptr xu, int *adjusted,
                        hdo_model_t model, const hdo_reduced_t r,
                        const mpfr_t t, const int *fixed, mpfr_prec_t prec,
                        hdo_error_t *err);

/* The start point of a run (ref/reduce/start.c), one rule for `hdo run`
   and `hdo analyze`.  hdo_start_values sets val[v] to the `var` start
   value of every model variable v (0 where none is given) and given[v]
   to whether one is given.  hdo_start_guess sets the guess of reduced
   mode r: each order-0 state and unknown at its variable's start value
   (0 where none), higher orders 0, and fixed[i] (i < nstate) to 1 for
   the order-0 states whose variable has a start value (kept if possible
   by hdo_consistent_init), else 0.  Values are rounded to the precision
   of the entries they go to.  Both return 0, or HDO_ERR_DOMAIN when a
   start value cannot be evaluated (the parser refuses such models: one
   built another way), err naming the variable and its place. */
int hdo_start_values(mpfr_ptr val, int *given, const hdo_model_t model,
                     hdo_error_t *err);
int hdo_start_guess(mpfr_ptr xs, mpfr_ptr xu, int *fixed,
                    const hdo_model_t model, const hdo_reduced_t r,
                    hdo_error_t *err);

/* Largest absolute residual of the constraints and h equations at
   (t, xs, xu), evaluated at the precision of res: a measure of
   consistency (reported in summary.json).  NaN on a domain error. */
void hdo_reduced_residual(mpfr_t res, hdo_model_t model, const hdo_reduced_t r,
                          const mpfr_t t, mpfr_srcptr xs, mpfr_srcptr xu);

/* How far the unknowns xu (solved from h at (t, xs)) can be from the
   truth when each state xs[i] is known to srad[i] and t to trad
   (ref/reduce/unknown_error.c, decisions.md D-124): urad[j] = sum_k
   |(dh/du)^-1_jk| (|m_k| + r_k), m_k +- r_k the enclosure of h_k over
   the states' and t's balls at xu (the states' errors and Newton's
   residual), dh/du at xu.  urad: nimplicit entries (64 bits suffice).
   Returns 0, or HDO_ERR_SINGULAR (dh/du numerically singular),
   HDO_ERR_DOMAIN or HDO_ERR_UNSUPPORTED (no compiled h): then no bound. */
int hdo_reduced_unknown_error(mpfr_ptr urad, hdo_model_t model,
                              const hdo_reduced_t r, const mpfr_t t,
                              const mpfr_t trad, mpfr_srcptr xs,
                              mpfr_srcptr srad, mpfr_srcptr xu,
                              mpfr_prec_t prec);

/* ------------------------------------------------------------------ */
/* Filippov sliding modes: reduced forms built from the reduced forms of
   the modes they slide between (ref/reduce/filippov.c, a pair on one
   surface; ref/reduce/filippov_cube.c, the cube of modes around an
   intersection of surfaces).  The driver enters them (ref/hybrid/). */

/* The Filippov sliding mode of modes a and b (reduced forms ra, rb, both
   explicit ODEs) on the surface S = 0 (S = a's guard, a feasible while
   S >= 0): a reduced form (out->mode = a) with
   der(x) = alpha f_a + (1 - alpha) f_b for the variables of both modes
   (a variable of one mode only keeps its equation) and alpha =
   L_b S / (L_b S - L_a S), the value that keeps d/dt S = 0 (KM (35)
   with the constraint S = 0 differentiated once), and a's algebraic
   (implicit) part, which must be b's too (the same expressions).
   *alpha is set.
   Returns 0, or HDO_ERR_UNSUPPORTED with the reason in why. */
int hdo_sliding_build(hdo_reduced_struct *out, hdo_expr *alpha,
                      hdo_model_struct *model, const hdo_reduced_struct *ra,
                      const hdo_reduced_struct *rb, hdo_expr S, char *why,
                      size_t nwhy);
/* 1 if ra and rb differ only in their explicit equations. */
int hdo_sliding_same_implicit(const hdo_reduced_struct *ra,
                              const hdo_reduced_struct *rb);
/* L_r S = dS/dt along the explicit flow of r; HDO_EXPR_NONE when S has
   a variable that r does not give explicitly. */
hdo_expr hdo_sliding_lie(hdo_model_struct *model, const hdo_reduced_struct *r,
                         hdo_expr S);

/* Filippov sliding on the intersection of k switching surfaces
   (Aljarbouh-Caillaud (30), (39); decisions.md D-005).  The 2^k adjacent modes
   are the corners of a cube: corner[sigma], bit j of sigma set when the
   corner lies across surface j from corner[0] (the corner first in file
   order); surf[j] is corner[0]'s guard across surface j (corner[0]
   feasible while surf[j] >= 0).  beta[j] = 2 alpha_j - 1, alpha_j the
   weight of corner[0]'s side of surface j in the multilinear convex
   combination; det is the determinant whose non-vanishing makes the
   weights unique (HDO_EXPR_NONE when not built). */
#define HDO_SLIDING_MAXK 3
typedef struct {
    slong k;
    slong corner[1 << HDO_SLIDING_MAXK];
    hdo_expr surf[HDO_SLIDING_MAXK];
    hdo_expr beta[HDO_SLIDING_MAXK];
    hdo_expr det;
} hdo_sliding_set;

/* The cube of the modes in mask (bit q: mode q; 2^k of them, 1 <= k <=
   HDO_SLIDING_MAXK) into set (corners and surfaces; beta and det
   HDO_EXPR_NONE): the surfaces are matched structurally (a guard of the
   other side is the negated expression).  Returns 0, or
   HDO_ERR_UNSUPPORTED with the reason in why. */
int hdo_sliding_cube(hdo_sliding_set *set, hdo_model_struct *model,
                     uint64_t mask, char *why, size_t nwhy);
/* The sliding mode of the cube set (red[q]: the reduced form of mode q,
   for every corner; explicit ODEs with the same variables whose
   right-hand sides are affine in the signs of the k surfaces, checked
   symbolically): der(x) = f0 + sum_j beta_j g_j with f0, g_j the
   mean and the half-differences of the corner fields, beta solving the
   k tangency conditions d/dt surf_j = 0 (Cramer).  Sets set->beta and
   set->det.  Returns 0, or HDO_ERR_UNSUPPORTED with the reason. */
int hdo_sliding_build_set(hdo_reduced_struct *out, hdo_sliding_set *set,
                          hdo_model_struct *model,
                          const hdo_reduced_struct *const *red, char *why,
                          size_t nwhy);

/* ------------------------------------------------------------------ */
/* The regularised form of a mode whose guards are first integrals (KM
   (23)): a reduced form built from a reduced form, with the per-arc
   state of the guards it skips. */

/* Switching functions that are first integrals of their mode
   (ref/reduce/invariant.c: KM 2017 section 5.1 case 4(a), eq. (23);
   decisions.md D-019). */

/* Whether S (a function of t and of order-0 explicit variables of red)
   is a first integral of red's explicit flow: HDO_FI_SYMBOLIC when its
   Lie derivative simplifies to 0, HDO_FI_NUMERIC when it passes the zero
   test at FI_POINTS pseudo-random points at precision 3 prec + 64
   (invariant.c), 0 when not (or undecidable: S or its Lie derivative
   depends on an implicit variable or a derivative, or is undefined at
   the test points).  t: the time around which the points are taken. */
#define HDO_FI_SYMBOLIC 1
#define HDO_FI_NUMERIC 2
int hdo_first_integral_test(hdo_model_struct *model,
                            const hdo_reduced_struct *red, hdo_expr S,
                            const mpfr_t t, mpfr_prec_t prec);
/* The offset r in [-1/2, 1/2] (53 bits) of test point `point` (0 to 3)
   for coordinate coord (a variable's index, -1 for t): the point is
   b + (1 + |b|) r / 2^s, s the halvings (exposed for the boundary tests,
   tests/reduce/fi_thresholds.c). */
void hdo_first_integral_offset(mpfr_t r, slong point, slong coord);

typedef struct hdo_invariant hdo_invariant;
/* Recognises the first integrals among the guards (compiled
   expressions) of a mode with the reduced form red.  NULL when there is
   none; else the regularised form (red plus one constraint per first
   integral, KM (23)) and the per-arc state.  red and model must outlive
   it. */
hdo_invariant *hdo_invariant_build(hdo_model_struct *model,
                                   const hdo_reduced_struct *red,
                                   const hdo_expr *guards, slong nguards,
                                   const mpfr_t t, mpfr_prec_t prec);
/* The reduced form to integrate with: the regularised one, or red when
   inv is NULL. */
const hdo_reduced_struct *hdo_invariant_reduced(const hdo_invariant *inv,
                                                const hdo_reduced_struct *red);
/* At the entry of an arc at (t, xs) (consistent states of red): every
   first integral's constraint value becomes S(t, xs), and its guard is
   skipped on this arc when S(t, xs) >= -tol (feasible, or on the surface
   within the tolerance); otherwise (infeasible at once) the locator
   keeps it and reports the event at the start.  Returns 0, or
   HDO_ERR_DOMAIN when a first integral is undefined there (then no guard
   is skipped, and the step's expansion, which evaluates the guards,
   reports the domain error).  A NULL inv is a no-op. */
int hdo_invariant_enter(hdo_invariant *inv, const mpfr_t t, mpfr_srcptr xs,
                        const mpfr_t tol);
/* 1 when guard g reports no events on the current arc. */
int hdo_invariant_skips(const hdo_invariant *inv, slong g);
/* 1 when guard g was recognised as a first integral. */
int hdo_invariant_is_first(const hdo_invariant *inv, slong g);
void hdo_invariant_free(hdo_invariant *inv);

/* ------------------------------------------------------------------ */
/* The linear complementarity system of a complementarity block
   (ref/reduce/complementarity.c; docs/decisions.md D-086).

   For the mode m of a block (any of its active sets: the mode's own
   equations, those before the conditions' equations, are what counts),
   with each variable's highest derivative in the equations an unknown z
   and its lower derivatives the states s, the equations F(z, s, t) = 0
   and A_i = lambda_i are solved for z when they are affine with rational
   constant coefficients and regular: z = -P G s + K lambda + (terms in
   t), so that ds/dt = A s + B lambda + ... and B_i = (C s + D
   lambda)_i + ... (Heemels, Schumacher and Weiland 2000, the linear
   complementarity system (A, B, C, D)).  D = dB/dA is the matrix of the
   complementarity problem at a point, w = q + D lambda.  The Markov
   parameters R[0] = D, R[l] = C A^(l-1) B (l = 1 .. L, L = m (ns + 1))
   are the series of the transfer matrix G(sigma) = D + C (sigma I -
   A)^-1 B in 1/sigma, as far as any principal minor of G needs them
   (the minor is a rational function whose series, when not zero,
   starts below that order); the relative degree of condition i is the
   first l with row i of R[l] nonzero.  When G(sigma) is a P-matrix for
   all large sigma, the system has a unique forward solution from every
   consistent state (their Theorem 6.5 and section 7). */
enum {
    HDO_CP_LCS = 0,    /* the realisation exists: D, R, reldeg set */
    HDO_CP_NOT_LINEAR, /* an equation or B is not affine with constant
                          coefficients (why says which) */
    HDO_CP_NOT_FREE    /* with the A's given the equations are singular:
                          the A's are tied to each other or to states */
};
typedef struct {
    slong m;            /* conditions */
    int status;         /* HDO_CP_* */
    char why[512];      /* what stops the realisation (status != LCS) */
    slong ns;           /* states */
    slong L;            /* R[0 .. L] */
    fmpq_mat_struct *R; /* the Markov parameters, m x m each; R[0] = D */
    slong *reldeg;      /* per condition, -1 where no R[l] row is nonzero */
    /* the states s (variable, order) and B (ns x m): an impulse P on the
       conditions moves the state by B P (ref/hybrid/complementarity.c,
       impacts) */
    hdo_varord *state;
    fmpq_mat_t B;
    int have_B;
} hdo_cp_form;
void hdo_cp_form_init(hdo_cp_form *f);
void hdo_cp_form_clear(hdo_cp_form *f);
/* Builds f for mode m (nperp > 0) of model: returns 0 (HDO_CP_LCS) or
   the other status, with f->why.  Symbolic derivatives go into model's
   pool. */
int hdo_cp_form_build(hdo_cp_form *f, hdo_model_struct *model, slong m);

#ifdef __cplusplus
}
#endif

#endif
