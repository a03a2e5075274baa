/* internal.h -- private helpers shared by the files of ref/hybrid */
#ifndef HDO_HYBRID_INTERNAL_H
#define HDO_HYBRID_INTERNAL_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include "hybrid.h"
#include "reduce.h"
#include "step.h"

/* hdo_run, which also stops (HDO_ERR_TOO_MUCH_WORK, "stopped: ...")
   before a step once *stop is nonzero (stop may be NULL): the other run
   of hdo_run_verify has failed, so this one need not go on. */
int hdo_run_stoppable(hdo_result_t res, const hdo_model_struct *model,
                      const hdo_run_options *opt, hdo_error_t *err,
                      const atomic_int *stop);

/* The checks hdo_run, hdo_run_verify (res and check) and hdo_run_rows
   (res and check NULL) make of their arguments before any work, listed
   at hdo_run (args.c): 0, or HDO_ERR_INPUT with err (if not NULL)
   cleared and filled, err->file NULL. */
int hdo_run_check_args(const hdo_result_struct *res,
                       const hdo_result_struct *check,
                       const hdo_model_struct *model,
                       const hdo_run_options *opt, hdo_error_t *err);

/* Empties res of an earlier run (command_argv and command_argc kept)
   and sets it up for a run of model at digits D and precision prec. */
void hdo_result_setup(hdo_result_t res, const hdo_model_t model, long digits,
                      mpfr_prec_t prec);
/* Appends a row (values NaN, present 0) / an event (states NaN); the
   returned pointer is valid until the next append. */
hdo_row *hdo_result_add_row(hdo_result_t res, const mpfr_t t, slong mode);
hdo_event *hdo_result_add_event(hdo_result_t res, const mpfr_t t, slong from,
                                slong to, hdo_event_kind kind,
                                const char *guard);

/* The stiffness watch (stiff.c).  An arc counts as stiff at a step when
   hdo_stepper_stiffness (hdo_taylor_stiffness) of the step is at least
   hdo_stiff_threshold(order) = log10(order) + HDO_STIFF_MARGIN (3.28 at
   30 digits, 3.70 at 100).  Measured: on a smooth solution the ratio is
   near 1 or below (an exponential: 10^-1.15 at 30 digits); the corpus'
   non-stiff cases reach at most 10^2.65 (evaporator, 10^2.82 at 100
   digits); Robertson (10^3.3 from t = 23), Van der Pol with mu = 1000 on
   its slow arcs (10^4.5) and der(x) = -1e12*x after its transient (10^7
   and more) are above.  On a stiff arc the ratio grows with the digits
   (the damped fast mode sits at rounding level), on a smooth one it does
   not, so a threshold that grows slowly with the order stays between
   them.  A run stops early (HDO_ERR_TOO_MUCH_WORK) when the arc has been
   stiff for HDO_STIFF_STEPS steps in a row and the steps at the current
   size to the end time would exceed --max-steps. */
#define HDO_STIFF_MARGIN 1.6
#define HDO_STIFF_STEPS 100
/* The Jacobian test (hdo_stiff_check_due, hdo_stiff_jacobian_ratio).
   Every HDO_STIFF_CHECK_EVERY steps of an ODE or index-1 arc on the
   Taylor method, h rho (rho the spectral radius of the Jacobian,
   hdo_stepper_spectral_radius) is compared with a_p, the h |lambda| at
   which the step rule of order p resolves an active mode e^(lambda t)
   (hdo_stiff_active_step): a step of at least HDO_STIFF_JAC_RATIO a_p
   cannot be limited by accuracy on that mode, so it is limited by
   stability, and the fast mode is damped (stiff).  Measured (a_p and
   the stability boundary of the degree-p Taylor polynomial on the
   negative real axis, beta_p): at 16/30/60/100 digits a_p = 2.15/2.67/
   3.86/5.52 and beta_p = 13.3/19.2/31.8/48.8, 6.2 to 8.8 times a_p: a
   stiff arc's step sits near beta_p, an active mode's at a_p.  After
   HDO_STIFF_CHECKS stiff checks in a row, --method auto switches the
   arc when more than HDO_AUTO_SWITCH_MIN_STEPS steps of the current
   size are left. */
#define HDO_STIFF_CHECK_EVERY 8
#define HDO_STIFF_JAC_RATIO 3.0
#define HDO_STIFF_CHECKS 2
#define HDO_AUTO_SWITCH_MIN_STEPS 100.0
typedef struct {
    slong mode;   /* the stiff arc's mode */
    slong steps;  /* stiff steps in a row (0: the last was not stiff) */
    double since; /* time of the first of them */
    double ratio; /* the last hdo_stepper_stiffness */
    const char *method; /* the stepper's name */
    double h;     /* the last natural step */
    /* the Jacobian test: the mode it ran on, steps since it last ran,
       stiff checks in a row, its last rho and h rho / a_p */
    slong jac_mode, jac_since, jac_hits;
    double rho, hrho;
} hdo_stiff_watch;
void hdo_stiff_watch_init(hdo_stiff_watch *w);
double hdo_stiff_threshold(slong order);
/* Records the expansion of one step of mode and its natural step h. */
void hdo_stiff_watch_step(hdo_stiff_watch *w, const hdo_stepper_t s,
                          slong mode, const mpfr_t t, const mpfr_t h);
/* 1 when the arc has been stiff for HDO_STIFF_STEPS steps and steps +
   (t_end - t) / h exceeds max_steps. */
int hdo_stiff_watch_hopeless(const hdo_stiff_watch *w, double t, double t_end,
                             long steps, long max_steps);
/* --method auto's rule (hdo_run_auto_switch, for an ODE or index-1 arc
   on the Taylor method): the Jacobian test found the arc stiff
   HDO_STIFF_CHECKS times in a row and more than HDO_AUTO_SWITCH_MIN_STEPS
   steps of size h are left; or the arc has been stiff by the series'
   ratio for HDO_STIFF_STEPS steps and more than HDO_AUTO_SWITCH_STEPS
   steps of size h are left. */
int hdo_stiff_watch_switch_due(const hdo_stiff_watch *w, double t,
                               double t_end);
/* a_p: h |lambda| of the step that the Taylor step rule (orders
   floor((3p + 3)/4)..p, tolerance 2^ltol) takes on x' = lambda x,
   min_j (j!)^(1/j) 2^(ltol/p) (taylor.h, hdo_taylor_step_size). */
double hdo_stiff_active_step(slong order, double ltol);
/* 1 when the Jacobian test is due at this step of mode (counts the
   step). */
int hdo_stiff_check_due(hdo_stiff_watch *w, slong mode);
/* Records a Jacobian test: rho (< 0: none) at the step h of order
   p and tolerance 2^ltol; returns h rho / a_p (0 without rho). */
double hdo_stiff_jacobian_ratio(hdo_stiff_watch *w, double rho, double h,
                                slong order, double ltol);
/* The diagnosis, for an error message. */
void hdo_stiff_watch_describe(char *buf, size_t n, const hdo_stiff_watch *w,
                              const hdo_model_struct *model, double t,
                              double t_end);

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

/* Switching functions that are first integrals of their mode
   (ref/hybrid/invariant.c: KM 2017 section 5.1 case 4(a), eq. (23);
   decisions.md). */

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
   tests/hybrid/fi_thresholds.c). */
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

/* Zeno limits (ref/hybrid/zeno.c) */

/* Sets out to Aitken's delta-squared limit x2 + d2^2 / (d1 - d2) of
   x0, x1, x2 (d1 = x1 - x0, d2 = x2 - x1), or to x2 itself when |d2| <=
   eps (converged to the noise level), when the differences do not shrink
   or change sign.  out may not alias the inputs. */
void hdo_zeno_aitken(mpfr_t out, mpfr_srcptr x0, mpfr_srcptr x1, mpfr_srcptr x2,
                     const mpfr_t eps);
/* The smallest period p in 1..pmax of the last (nsamples - 1) p + 1
   events of src[0..n), g[0..n) (a followed event's mode and `when`,
   oldest first): (src, g)[i] = (src, g)[i - p] throughout that window;
   0 when there is none (or too few events). */
slong hdo_zeno_period(const slong *src, const slong *g, slong n, slong nsamples,
                      slong pmax);
/* Whether the states y[0..n) (n >= 4, oldest first, dim components
   each) converge geometrically: the differences y[k] - y[k-1] (max norm,
   componentwise relative to max(|y_i|, ||y||)) are nonzero and strictly
   shrink, and the componentwise Aitken limits of all consecutive triples
   agree within tol max(|limit_i|, ||y||).  Returns 1 with lim[0..dim) set to the limit of the
   last triple, else 0 (lim untouched). */
int hdo_zeno_state_limit(mpfr_ptr lim, mpfr_srcptr const *y, slong n, slong dim,
                         const mpfr_t tol, mpfr_prec_t prec);
/* 1 when the switching function with the series c[0..len) over a step
   of length H leaves zero into its feasible side (S > 0) by more than the
   tolerance, with hdo_event_locate's rule for a zero at the start of an
   arc; 0 when it is infeasible at once or stays on the surface within
   the tolerance over the step (floor: the guard's, as in
   hdo_event_zero_order). */
int hdo_zeno_guard_leaves(mpfr_srcptr c, slong len, const mpfr_t H,
                          const mpfr_t tol, mpfr_srcptr floor);
/* Filippov sliding on the intersection of k switching surfaces
   (Aljarbouh-Caillaud (30), (39); decisions.md).  The 2^k adjacent modes
   are the corners of a cube: corner[sigma], bit j of sigma set when the
   corner lies across surface j from corner[0] (the corner first in file
   order); surf[j] is corner[0]'s guard across surface j (corner[0]
   feasible while surf[j] >= 0).  beta[j] = 2 alpha_j - 1, alpha_j the
   weight of corner[0]'s side of surface j in the multilinear convex
   combination; det is the determinant whose non-vanishing makes the
   weights unique (HDO_EXPR_NONE when not built). */
#define HDO_SLIDING_MAXK 3
/* Intersection sliding modes are numbered nmodes + nmodes^2 + mask (bit
   q of mask: mode q adjacent), for models of at most this many modes. */
#define HDO_SLIDING_MAXMODES 62
slong hdo_sliding_index(const hdo_model_struct *model, uint64_t mask);
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

#endif
