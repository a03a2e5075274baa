/* taylor.h -- the arbitrary-precision Taylor series integrator for reduced
   (semi-explicit index-1) modes, layered like GSL's odeiv2:
     step    one Taylor expansion at (t0, state): coefficients up to order p
             of every state, unknown, and (optionally) switching function;
     control the step size from the last coefficients (Jorba-Zou) and the
             order from the precision;
     evolve  take the step, re-project onto the constraints, accept;
     driver  hdo_taylor_integrate below for one mode without events; the
             hybrid driver (hybrid.h) loops to the end time, locating events.
   Why Taylor: its order rises freely with the digits asked for (p ~ 0.35
   prec, 1.15 per decimal digit), automatic differentiation over the flat
   expression program makes each coefficient cost O(p) per node, and the
   expansion is its own dense output, accurate to the tolerance over the
   whole step, which event location needs.  Collocation would need an n*s
   nonlinear solve per step (200 unknowns x 20 stages for the bowed
   string). */
#ifndef HDO_TAYLOR_H
#define HDO_TAYLOR_H

#include "reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the series of a program input, or of a state's derivative, comes
   from. */
typedef enum {
    HDO_TAYLOR_SRC_STATE,   /* state_coef[idx] */
    HDO_TAYLOR_SRC_UNKNOWN, /* unknown_coef[idx] */
    HDO_TAYLOR_SRC_ROOT     /* root idx of prog (an rhs) */
} hdo_taylor_src_kind;

typedef struct {
    hdo_taylor_src_kind kind;
    slong idx;
} hdo_taylor_src;

/* The compiled reduced system of one mode, at one precision.

   Coefficient layout (read directly by the hybrid driver): component i's
   normalised coefficients x_i^(k)(t0)/k!, k = 0..order, are the
   contiguous entries coef[i * (order + 1) + k] of state_coef,
   unknown_coef, guard_coef and extra_coef. */
typedef struct {
    const hdo_reduced_struct *red;
    hdo_model_struct *model; /* its pool compiled the programs */
    mpfr_prec_t prec;
    slong order;        /* Taylor order p */
    hdo_program_t prog; /* roots: rhs..., h..., guards..., extra... */
    slong nguards;      /* switching functions compiled in */
    slong nextra;
    hdo_taylor_src *in_src; /* per input of prog: a state or an unknown */
    slong *in_of[2];        /* the inputs of each kind (STATE, UNKNOWN) */
    slong nin_of[2];
    hdo_taylor_src *der_src; /* per state: the series of its derivative */
    char *dep_unknown;       /* per slot of prog: depends on an unknown */
    /* per slot: an order's first pass computes it (expand.c): h's
       ancestors and the slots that do not depend on an unknown; its
       second pass: the slots that depend on an unknown and that a root
       other than h reads (h's own are read by the first pass only) */
    char *first_pass, *second_pass;
    /* dh/dunknowns: its structurally nonzero entries compiled as roots of
       jac (entry e is d h[jac_row[e]] / d unknown[jac_col[e]]) */
    hdo_program_t jac;
    slong njac;
    slong *jac_row, *jac_col;
    hdo_taylor_src *jac_in_src;
    hdo_mat_t Jh; /* LU factors of dh/dunknowns at t0 */
    slong *perm;
    /* Jh's factors kept by its entries (linalg.h): a linear mode's
       matrix is the same at every point (decisions.md D-120) */
    hdo_lu_memo *jh_memo;
    mpfr_ptr work; /* nimplicit scratch entries */
    /* the series of the last expansion */
    mpfr_t *state_coef;   /* nstate x (order + 1) */
    mpfr_t *unknown_coef; /* nimplicit x (order + 1) */
    mpfr_t *guard_coef;   /* nguards x (order + 1) */
    mpfr_t *extra_coef;   /* nextra x (order + 1) */
    mpfr_t t0;            /* expansion point */
    int expanded;         /* 1 once hdo_taylor_expand succeeded */
    /* evolve and driver */
    mpfr_t tol;          /* tolerance of hdo_taylor_integrate; default
                            2^(17 - prec), about 10^-(D+5) for the
                            hybrid's prec of D + 10 digits */
    mpfr_t max_residual; /* largest constraint and h residual of the
                            dense output at step ends (before the
                            projection) seen by hdo_taylor_evolve */
    int *fixed;          /* nstate ones, for the projection */
    /* Scale floors of the error control, borrowed (nstate + nimplicit
       entries: states, then unknowns; NULL: all zero): component i is
       held to tol max(its magnitude over the step, floor[i]).  The
       stepper (ref/step/taylor_step.c) points it at the driver's floors. */
    mpfr_srcptr floor;
    /* The guards' noise floors, borrowed (nguards entries; NULL: all
       zero): guard g is held to tol max(its magnitude over the step,
       gnoise[g]) (the stepper's gnoise, decisions.md D-106). */
    mpfr_srcptr gnoise;
    /* log2 of the run's time span (-inf: unknown; the stepper's lspan):
       the noise window's horizon is max(u, |t0|, span), u = min(1, span)
       (control.c). */
    double lspan;
    /* log2 of each state's and unknown's own step (control.c) and of the
       tolerance it was for, kept by hdo_taylor_step_size for the
       stiffness estimate of the same expansion (comp_valid) */
    double *comp_lh, comp_ltol;
    int comp_valid;
    /* a failure found while compiling, reported by hdo_taylor_expand */
    int init_status;
    char init_message[512];
    /* Lazy algebraic unknowns (hdo_taylor_lazy_setup; nlazy = 0: none,
       every unknown carried at every order).  lazy[j] = 1 for an unknown
       that no state's derivative, guard or extra expression depends on,
       directly or through the h equations that determine the others:
       its series stops at order HDO_TAYLOR_LAZY_ORDER, and its value at
       a point of the step is solved from the states there (eval). */
    slong nlazy;
    char *lazy;             /* per unknown */
    char *active;           /* per slot of prog: needed by the recurrences */
    char *active_dep;       /* active and depending on an unknown */
    slong nneed;            /* the other unknowns ... */
    slong *need_u;          /* ... their indices */
    slong *need_h;          /* ... and the h equations that determine them */
    slong *lazy_u, *lazy_h; /* the lazy unknowns and their equations */
    hdo_mat_t Jn;           /* LU of d h[need_h] / d xu[need_u] at t0 */
    slong *perm_n;
    hdo_program_t lazy_prog; /* roots h[lazy_h] */
    hdo_program_t lazy_jac;  /* roots d h[lazy_h[a]] / d xu[lazy_u[b]],
                                row-major nlazy x nlazy, zeros included */
    hdo_taylor_src *lazy_prog_src, *lazy_jac_src;
    hdo_mat_t Jl; /* scratch for Newton on the lazy unknowns */
    slong *perm_l;
    mpfr_ptr work_l;
    int lazy_affine;   /* d h[lazy_h] / d xu[lazy_u] is constant: h is affine
                          in the lazy unknowns and one Newton step is exact */
    int lazy_factored; /* Jl holds the LU of that constant matrix */
    int lazy_status;   /* a failed solve of eval since the last expand */
    char lazy_message[300];
} hdo_taylor_struct;
typedef hdo_taylor_struct hdo_taylor_t[1];

/* The Taylor order chosen from the precision (order 0 in
   hdo_taylor_init): p = ceil(prec ln(2) / 2) + 1, Jorba and Zou's
   optimal order -ln(eps)/2 + 1 for eps = 2^-prec (it minimises the work
   per unit time when the nonlinear operations, O(p^2) each, dominate).
   30 digits (prec 133): 48; 100 digits (prec 365): 128. */
slong hdo_taylor_default_order(mpfr_prec_t prec);

/* Compiles the reduced mode and the given guard (and extra) expressions
   (model expressions of the mode's variables; a der(x) of an explicit
   variable x is replaced by its rhs, and higher derivatives by total
   derivatives of it).  order 0 means hdo_taylor_default_order(prec).
   red and model must outlive tay.  Returns 0, or HDO_ERR_UNSUPPORTED
   when a guard or extra expression needs a derivative the reduced form
   does not provide (a derivative of an implicit variable beyond its
   unknown); the failure is also kept in tay and returned, with its
   message, by every hdo_taylor_expand.  tay must be cleared either way. */
int hdo_taylor_init(hdo_taylor_t tay, hdo_model_t model,
                    const hdo_reduced_t red, const hdo_expr *guards,
                    slong nguards, const hdo_expr *extra, slong nextra,
                    mpfr_prec_t prec, slong order);
void hdo_taylor_clear(hdo_taylor_t tay);

/* The lazy algebraic unknowns' series stop at this order: enough for a
   guess from which Newton converges in a few iterations at any point of
   the step, and cheap (the cost of an order grows with the order). */
#define HDO_TAYLOR_LAZY_ORDER 2

/* Makes the unknowns that the recurrences do not need lazy (decisions.md D-071,
   "Lazy algebraic unknowns"): an unknown is needed when a state's
   derivative, a guard or an extra expression depends on it, or when the
   h equation matched to a needed unknown (a perfect matching of the
   structure of dh/dxu) contains it; the needed unknowns' equations then
   involve needed unknowns only, so dh/dxu is block triangular and its
   needed block is nonsingular with it.  An unknown whose variable has a
   derivative anywhere in the model (an equation of any mode, a reset)
   stays needed, since a transition may read that derivative from the
   series.  Above order HDO_TAYLOR_LAZY_ORDER only the program slots the
   needed roots depend on are computed, and only the needed block is
   solved; the step size and the stiffness estimate ignore the lazy
   unknowns; hdo_taylor_eval solves them by Newton from the states and
   needed unknowns at the point (a failure there is reported by the next
   hdo_taylor_evolve or hdo_taylor_expand, and the values are NaN).
   Does nothing when no unknown is lazy.  Call once, after
   hdo_taylor_init succeeded. */
void hdo_taylor_lazy_setup(hdo_taylor_t tay);

/* Step layer: expands the solution at (t0, xs, xu) (a consistent point)
   up to tay->order.  The unknowns xu are a guess: they are refined by
   Newton on h (one iteration, without change, at a consistent point) and
   the refined values are unknown_coef[j * (order + 1)].  Returns 0, or
   HDO_ERR_DOMAIN (err names the expression), HDO_ERR_SINGULAR (dh/dxu
   singular), HDO_ERR_INCONSISTENT (Newton on h fails), with err's mode
   and time filled; or the init failure. */
int hdo_taylor_expand(hdo_taylor_t tay, const mpfr_t t0, mpfr_srcptr xs,
                      mpfr_srcptr xu, hdo_error_t *err);

/* Dense output: evaluates the last expansion at t0 + h (Horner; any h,
   accurate to the tolerance for |h| up to the step size) into xs, xu and
   the guards into g (any may be NULL), each rounded to its precision. */
void hdo_taylor_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g,
                     const hdo_taylor_t tay, const mpfr_t h);
/* The same for the extra expressions. */
void hdo_taylor_eval_extra(mpfr_ptr e, const hdo_taylor_t tay, const mpfr_t h);

/* Control layer: the step size for tolerance tol (mixed absolute and
   relative, per component: states, unknowns and guards),
     h = tol^(1/p) min over components i and orders j in [ceil(3p/4), p]
           of (max(1, |c_i0|) / |c_ij|)^(1/j),
   Jorba and Zou's (2005) rule h = rho tol^(1/p), rho the radius of
   convergence estimated from the last coefficients; with their order
   p = -ln(tol)/2 + 1 it is their h = rho / e^2.  They estimate rho from
   the last two orders only; series with gaps (the pendulum from theta =
   pi/2 at rest: theta - pi/2 = t^2 f(t^4)) defeat that, hence the last
   quarter.  The last term is then at most tol max(1, |x_i|) and the
   neglected tail, a geometric series of ratio h/rho <= tol^(1/p) (< 0.2
   at the default order), is below it.  Writes h > 0, or +infinity when
   those coefficients of every component vanish (a polynomial solution).
   Returns 0, or HDO_ERR_STEP_COLLAPSE when h <= 2^-prec |t0| (h is still
   written).  Keeps each component's step for hdo_taylor_stiffness. */
int hdo_taylor_step_size(mpfr_t h, hdo_taylor_t tay, const mpfr_t tol);

/* Stiffness estimate of the last expansion: log10 of rho_low / rho_high,
   where rho_low is the radius of convergence estimated from the first
   orders j = 1..min(4, p/8) and rho_high the one hdo_taylor_step_size
   uses (orders ceil(3p/4)..p), each the minimum over the states and
   unknowns of (max(1, |c_i0|) / |c_ij|)^(1/j).  On a smooth solution
   (a non-stiff arc, or the fast transient of a stiff one) the two
   estimates agree or the first orders see the nearer singularity (an
   exponential: -log10(3p/(4e)), -1.15 at 30 digits); on a stiff arc after
   its transient the high orders are those of a fast mode damped to
   rounding level, invisible in the first orders, and the ratio is the
   factor by which the stability of the explicit Taylor step, not the
   solution's smoothness, limits the step: 10^7 and more for
   der(x) = -1e12*x.  Returns 0 when the series has fewer than 8 orders
   or its last quarter vanishes, +infinity when the first orders vanish
   but the last do not.  Doubles only: it is a diagnosis, not a result. */
double hdo_taylor_stiffness(const hdo_taylor_t tay);

/* Evolve layer: after hdo_taylor_expand, moves to t0 + h: the dense
   output into xs, xu (nstate and nimplicit entries, at tay->prec), then,
   when the mode has constraints or unknowns, records the residual
   (hdo_reduced_residual) in tay->max_residual and projects onto the
   constraints and re-solves the unknowns (hdo_consistent_init with every
   state fixed: the smallest change).  Returns 0 or the projection's
   status (err filled). */
int hdo_taylor_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_taylor_t tay,
                      const mpfr_t h, hdo_error_t *err);

/* Driver for one mode without events: integrates from the consistent
   point (xs, xu) at t0 to t1 (either direction) with tolerance tay->tol,
   steps of hdo_taylor_step_size, the last one shortened to end exactly at
   t1; xs, xu are overwritten by the values at t1.  *steps (may be NULL)
   gets the number of steps.  Returns 0, HDO_ERR_STEP_COLLAPSE (a step
   below 2^-prec max(|t|, |t1 - t0|)), or the expansion's or projection's
   status, with err filled. */
int hdo_taylor_integrate(mpfr_ptr xs, mpfr_ptr xu, hdo_taylor_t tay,
                         const mpfr_t t0, const mpfr_t t1, slong *steps,
                         hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
