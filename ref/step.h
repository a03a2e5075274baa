/* step.h -- the stepper interface: one table of functions per integration
   method, the only way the hybrid driver (hybrid.h) sees an integrator.

   The model is GSL's gsl_odeiv2_step_type (ode-initval2/rk8pd.c ends with
   one struct of function pointers): a new method is one file and one
   table, and the driver, which locates events, takes transitions and
   samples the output, never knows which method runs.  The contract that
   makes event location method-independent is the dense output: after
   apply, every state, unknown and switching function is a polynomial in
   (t - t0) of degree dense.order, valid over the step that step_size
   proposes (certified root isolation runs on those polynomials, and the
   derivatives a transition needs on the left limit are theirs).

   A step, as the driver runs it:
     apply      at a consistent point (t0, xs, xu): computes the dense
                output (the Taylor method: the expansion);
     step_size  proposes the step h for the stepper's tolerance, given
                at init as GSL's control is (the dense output is
                accurate to it over [t0, t0 + h]);
     eval       the dense output at t0 + s, 0 <= s <= h;
     evolve     moves to t0 + s: the dense output, then the projection
                onto the constraints (the next consistent point).
   Methods: hdo_step_taylor (ref/step/taylor_step.c), hdo_step_radau
   (ref/step/radau.c), listed in hdo_step_types; the driver chooses among
   them by their capability flags (HDO_STEP_*), never by name or
   address. */
#ifndef HDO_STEP_H
#define HDO_STEP_H

#include "reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dense output of the last apply: component i's coefficients c_ik,
   x_i(t0 + s) = sum_k c_ik s^k, are the contiguous entries
   coef[i * (order + 1) + k] of state, unknown and guard. */
typedef struct {
    slong order;
    const mpfr_t *state;   /* nstate x (order + 1) */
    const mpfr_t *unknown; /* nimplicit x (order + 1) */
    const mpfr_t *guard;   /* nguards x (order + 1) */
    /* solved[j] != 0: eval solves unknown j at the point (its value is
       not its polynomial's: Taylor's lazy unknowns); NULL: none */
    const char *solved;
} hdo_dense;

struct hdo_step_type_struct;

typedef struct {
    const struct hdo_step_type_struct *type;
    void *impl;      /* the method's own state */
    hdo_dense dense; /* read after a successful apply */
    /* Scale floors, nstate + nimplicit entries at 64 bits (states, then
       unknowns), zero after init and kept by hdo_stepper_switch: the
       error control holds component i to tol max(its magnitude over the
       step, floor[i]) (decisions.md D-011, "Error control relative to each
       component").  The caller sets them before apply. */
    mpfr_ptr floor;
    /* The switching functions' noise floors, nguards entries at 64 bits,
       zero after init: the size below which a guard's value cannot be
       told from zero given the state's errors (the driver's, from the
       last step: hdo_run_guard_floors).  A guard's error is held to tol
       max(its size over the step, gfloor / tol). */
    mpfr_ptr gfloor;
    /* The switching functions' noise floors at the step's start,
       nguards entries at 64 bits, zero after init: gfloor without the
       drift over the step (which needs the step), set by the caller
       before apply (the driver's hdo_run_guard_noise).  Taylor's step
       rule holds a guard to tol max(its magnitude over the step,
       gnoise), as a state to tol max(its magnitude, floor), and takes a
       leading coefficient within gnoise over the step for a zero
       (decisions.md D-106). */
    mpfr_ptr gnoise;
    /* log2 of the run's time span |t_end - t0| (the driver's, set with
       the floors; -inf after init: unknown): with max(u, |t|), u = min(1,
       span), the time scale of Taylor's noise window (decisions.md D-090,
       D-106, D-118). */
    double lspan;
    /* The run's time unit u = min(1, span) at 64 bits, the driver's
       (hdo_run_time_unit, set with lspan; 1 after init: unknown): a step
       on an arc with guards is at most the driver's event horizon
       hdo_time_horizon(u, t0) = max(u, |t0|) (Radau IIA, D-119, D-122). */
    mpfr_t unit;
    /* The tolerance of the error control (the driver's 10^-(D+5),
       hdo_run_tol), given at init, at its own precision, kept by
       hdo_stepper_switch. */
    mpfr_t tol;
    /* log2 of the method's own absolute rounding floor at the last
       apply (Radau IIA: 2^-(3s+25) of the largest component), below which
       it holds every component absolutely; -inf: none (Taylor) */
    double lround;
    /* incremented by every apply (hdo_stepper_apply): a dense output
       is told from the next by it, whatever its start (hdo check's
       cache of converted coefficients, hybrid.h hdo_dense_sample) */
    unsigned long serial;
    char message[512]; /* why init failed */
    /* what init was given, for hdo_stepper_switch */
    hdo_model_struct *model;
    const hdo_reduced_struct *red;
    hdo_expr *guards;
    slong nguards;
    mpfr_prec_t prec;
    /* the spectral radius estimator (jacobian.c), made at its first use
       and kept by hdo_stepper_switch */
    void *spectral;
} hdo_stepper_struct;
typedef hdo_stepper_struct hdo_stepper_t[1];

/* Capability flags of a step type (hdo_step_type.flags). */
enum {
    /* a stiff method: its steps count as summary.json's implicit_steps;
       the method of --method implicit and of auto's switch */
    HDO_STEP_IMPLICIT = 1,
    /* takes only semi-explicit index-1 forms (hdo_reduced_is_index1):
       alloc fails on others */
    HDO_STEP_INDEX1_ONLY = 2
};

typedef struct hdo_step_type_struct {
    const char *name; /* as reported: "taylor" */
    unsigned flags;   /* HDO_STEP_* */
    /* Compiles the reduced mode red with its switching functions at
       precision prec (red and model outlive the stepper; s->tol is
       set).  Returns 0, or a negative status with the reason in
       s->message; free is called either way. */
    int (*alloc)(hdo_stepper_struct *s, hdo_model_t model,
                 const hdo_reduced_struct *red, const hdo_expr *guards,
                 slong nguards, mpfr_prec_t prec);
    /* The dense output at (t0, xs, xu); xu is a guess refined on h = 0.
       Returns 0 or a negative status (err filled: mode, time). */
    int (*apply)(hdo_stepper_struct *s, const mpfr_t t0, mpfr_srcptr xs,
                 mpfr_srcptr xu, hdo_error_t *err);
    /* The proposed step for the tolerance s->tol into h; +infinity when
       the dense output is exact everywhere (a polynomial solution).
       Returns 0 or HDO_ERR_STEP_COLLAPSE (h written). */
    int (*step_size)(mpfr_t h, const hdo_stepper_struct *s);
    /* The dense output at t0 + h into xs, xu and the guards g (any may be
       NULL). */
    void (*eval)(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g,
                 const hdo_stepper_struct *s, const mpfr_t h);
    /* Moves to t0 + h: the dense output, then the projection onto the
       constraints and the unknowns solved (every state fixed).  Returns 0
       or the projection's status (err filled). */
    int (*evolve)(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_struct *s,
                  const mpfr_t h, hdo_error_t *err);
    /* log10 of the factor by which stability, not accuracy, limits the
       step at the last apply (<= 0: not at all); see
       hdo_taylor_stiffness. */
    double (*stiffness)(const hdo_stepper_struct *s);
    /* r := max(r, the largest residual of the dense output at step ends
       before the projection, since alloc). */
    void (*max_residual)(mpfr_t r, const hdo_stepper_struct *s);
    void (*free)(hdo_stepper_struct *s);
} hdo_step_type;

/* The explicit Taylor method of taylor.h at its default order. */
extern const hdo_step_type hdo_step_taylor;
/* Radau IIA collocation (ref/step/radau.c), reported as "implicit":
   s = hdo_radau_stages(prec) stages (order 2s - 1 at step ends, the
   collocation polynomial of degree s as dense output), Newton with the
   exact Jacobian of the right-hand sides (symbolic, from the expression
   graphs) at every stage, the tableau computed in MPFR.  ODE modes and
   index-1 DAE modes (algebraic unknowns z with 0 = g(t, y, z) at every
   stage, the collocation polynomial as the dense output of z too),
   without constraints on the states (see decisions.md D-080): alloc fails with
   HDO_ERR_UNSUPPORTED otherwise, or when a switching function reads a
   derivative the reduced form does not provide.  Switching functions
   (radau_guard.c): their polynomials interpolate their values at the start
   and the stages, are held to the tolerance by the step control as the
   states are, and, for one within sqrt(tol) of zero at the start, begin
   with its exact Taylor coefficients up to order 4 (one expansion of the
   Taylor AD at the point), so that the zero rule at an arc's start reads
   exact derivatives as on a Taylor expansion; in a mode with switching
   functions a step is at most max(u, |t0|) long (u = s->unit), and an
   apply at the point of the apply before the last returns that one's
   dense output again.  It works at prec + 3s + 32 bits (decisions.md
   D-121: what each term protects) and chooses its step in apply, for
   the tolerance 2^(17 - prec) (about the hybrid driver's 10^-(D+5),
   which it is given in s->tol and does not use: radau_setup.c says
   why); step_size returns that step.  Flags: HDO_STEP_IMPLICIT,
   HDO_STEP_INDEX1_ONLY. */
extern const hdo_step_type hdo_step_radau;
slong hdo_radau_stages(mpfr_prec_t prec);

/* The step types, NULL-terminated, the default (explicit, any reduced
   form: hdo_step_taylor) first: a new method is one file and one entry
   here (ref/step/stepper.c). */
extern const hdo_step_type *const hdo_step_types[];
/* The first step type of hdo_step_types with every flag of flags that
   takes red (a type with HDO_STEP_INDEX1_ONLY takes index-1 forms
   only), or NULL. */
const hdo_step_type *hdo_step_type_find(unsigned flags,
                                        const hdo_reduced_struct *red);

/* s gets type's method for red (type->alloc) with the error control's
   tolerance tol (copied at its precision); clear it either way. */
int hdo_stepper_init(hdo_stepper_t s, const hdo_step_type *type,
                     hdo_model_t model, const hdo_reduced_struct *red,
                     const hdo_expr *guards, slong nguards, mpfr_prec_t prec,
                     const mpfr_t tol);
void hdo_stepper_clear(hdo_stepper_t s);
/* Replaces s's method by type for the same mode, guards, precision and
   tolerance (the dense output is that of the next apply).  Returns 0; or the
   new method's failure, and then s keeps its old method. */
int hdo_stepper_switch(hdo_stepper_t s, const hdo_step_type *type);
/* The Jacobian of an ODE or index-1 mode y' = f(t, y, z), 0 = g(t, y, z)
   (jacobian.c): roots[0..N) are f (n states: the right-hand sides, or
   the next derivative of an implicit variable's state) and g (m
   unknowns), roots[N + e] the nonzero partial of root row[e] by
   component col[e] (states then unknowns), e < nnz, row-major. */
typedef struct {
    slong n, m, N, nnz, alloc;
    hdo_expr *roots;
    slong *row, *col;
} hdo_jacobian_struct;
/* Builds jac for red (symbolic partials in model's pool); returns 0.
   Clear it with hdo_jacobian_roots_clear. */
int hdo_jacobian_roots(hdo_jacobian_struct *jac, hdo_model_t model,
                       const hdo_reduced_struct *red);
void hdo_jacobian_roots_clear(hdo_jacobian_struct *jac);
/* An estimate (power iteration in double, to a factor of about 1.5) of
   the spectral radius of the Jacobian of s's mode at (t, xs, xu): of f_y
   in an ODE mode, of f_y - f_z g_z^-1 g_y in an index-1 DAE mode.  The
   first call compiles the partials (kept in s->spectral).  Returns the
   estimate (>= 0), or -1 when there is none (constraints on the states,
   more than 300 unknowns, a value that is not finite, g_z singular). */
double hdo_stepper_spectral_radius(hdo_stepper_struct *s, const mpfr_t t,
                                   mpfr_srcptr xs, mpfr_srcptr xu);
void hdo_stepper_spectral_clear(hdo_stepper_struct *s);
/* 1 when red is an ODE mode: no algebraic unknowns, no constraints. */
int hdo_reduced_is_ode(const hdo_reduced_struct *red);
/* 1 when red is in semi-explicit index-1 form y' = f(t, y, z),
   0 = g(t, y, z): no constraints on the states (an ODE mode too); the
   modes Radau IIA integrates. */
int hdo_reduced_is_index1(const hdo_reduced_struct *red);

static inline int
hdo_stepper_apply(hdo_stepper_t s, const mpfr_t t0, mpfr_srcptr xs,
                  mpfr_srcptr xu, hdo_error_t *err)
{
    s->serial++;
    return s->type->apply(s, t0, xs, xu, err);
}

static inline int
hdo_stepper_step_size(mpfr_t h, const hdo_stepper_t s)
{
    return s->type->step_size(h, s);
}

static inline void
hdo_stepper_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_stepper_t s,
                 const mpfr_t h)
{
    s->type->eval(xs, xu, g, s, h);
}

static inline int
hdo_stepper_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_t s, const mpfr_t h,
                   hdo_error_t *err)
{
    return s->type->evolve(xs, xu, s, h, err);
}

static inline double
hdo_stepper_stiffness(const hdo_stepper_t s)
{
    return s->type->stiffness(s);
}

#ifdef __cplusplus
}
#endif

#endif
