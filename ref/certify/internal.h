/* internal.h -- the certified pass's private layers (ref/certify/): a
   reduced mode compiled for ball expansions, Krawczyk solves, the
   validated Taylor step and its dense output, the wrapping of the state
   set, event enclosure, transitions and the driver. */
#ifndef HDO_CERTIFY_INTERNAL_H
#define HDO_CERTIFY_INTERNAL_H

#include <arb.h>
#include <arb_mat.h>
#include "certify.h"
#include "reduce.h"
#include "series.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* system.c: a reduced mode (reduce.h) compiled once for ball expansions.

   One program holds, as roots, the derivative of every state (an rhs,
   or the next derivative of an implicit variable, itself a state or an
   unknown), the implicit equations h, the switching functions, and
   every state and unknown itself (VAR nodes: so that each has a slot,
   whether or not an expression reads it).  hprog holds h alone and jprog
   the dense Jacobian dh/du (row-major), for Krawczyk's method. */
typedef struct {
    hdo_model_struct *model; /* the workspace whose pool compiled them */
    const hdo_reduced_struct *red;
    slong ns, nu, ng;
    hdo_program_t prog;
    slong *sx, *su; /* slots of the states and unknowns in prog */
    slong *sder;    /* slot of each state's derivative */
    slong *sh, *sg; /* slots of h and of the guards */
    char *dep_u;    /* per slot: depends on an unknown */
    hdo_program_t hprog, jprog;
    /* per input of hprog / jprog: its state (>= 0) or unknown (-1 - j) */
    slong *hin, *jin;
    int status; /* HDO_ERR_UNSUPPORTED: an input that is neither */
    char why[256];
    void *cache; /* order-0 series of hprog and jprog per precision */
} cert_sys_struct;
typedef cert_sys_struct cert_sys_t[1];

/* Compiles red (a mode of model, whose pool is written: a workspace) with
   the switching functions guards[0..ng).  A guard's derivative of an
   explicit variable is replaced by its rhs.  Returns 0, or
   HDO_ERR_UNSUPPORTED (sys->why says which expression reads a variable
   that is neither a state nor an unknown of the reduced form); clear
   either way. */
int cert_sys_init(cert_sys_t sys, hdo_model_struct *model,
                  const hdo_reduced_struct *red, const hdo_expr *guards,
                  slong ng);
void cert_sys_clear(cert_sys_t sys);

/* The inputs of a program of sys's pool read from the states and
   unknowns: map[i] = state index, or -1 - unknown index, for program
   input i; returns 0 or HDO_ERR_UNSUPPORTED (an input that is neither,
   named in why). */
int cert_sys_map_inputs(slong *map, const cert_sys_t sys,
                        const hdo_program_struct *prog, char *why, size_t size);

/* The expansion of sys to order S->order (S built on sys->prog with nd
   parameters).  x0: the states' order-0 jets, ns blocks of w = 1 + nd
   entries (value, then the derivatives); u0: the unknowns' values
   (Krawczyk enclosures for the same state balls), whose derivatives are
   computed here through the implicit function theorem; t: the time
   ball.  Unknowns of order k solve h_k = J u_k + r_k = 0 with
   J = dh/du at order 0 (jprog), inverted once in Arb.  Returns 0,
   HDO_ERR_DOMAIN (*bad set), or HDO_ERR_SINGULAR (J not provably
   invertible). */
int cert_sys_expand(cert_series_t S, const cert_sys_t sys, arb_srcptr x0,
                    arb_srcptr u0, const arb_t t, hdo_expr *bad);

/* Values of hprog (h) or jprog (dh/du, row-major) at order 0 for the
   state balls x, unknown balls u and time t, into out. */
int cert_sys_eval_h(arb_ptr out, const cert_sys_t sys, arb_srcptr x,
                    arb_srcptr u, const arb_t t, slong prec);
int cert_sys_eval_jac(arb_ptr out, const cert_sys_t sys, arb_srcptr x,
                      arb_srcptr u, const arb_t t, slong prec);
/* The states' derivatives (ns) at the balls x, u and t. */
int cert_sys_eval_f(arb_ptr out, const cert_sys_t sys, arb_srcptr x,
                    arb_srcptr u, const arb_t t, slong prec);

/* ------------------------------------------------------------------ */
/* krawczyk.c */

/* Encloses the unknowns of sys for every state in the balls x and time
   in t: Krawczyk's operator K(U) = m - C h(x, m) + (I - C J(x, U))(U - m)
   with m refined from the midpoints of guess by Newton and C an
   approximate inverse of J at the midpoints; K(U) inside the interior of
   U proves, for each (t, x), exactly one zero of h(t, x, .) in U, which
   lies in K(U), written to u.  Returns 0, or HDO_ERR_NO_CONVERGENCE
   when no box up to the tries is proven (u unchanged), HDO_ERR_DOMAIN. */
int cert_unknowns(arb_ptr u, const cert_sys_t sys, arb_srcptr x, const arb_t t,
                  arb_srcptr guess, slong prec);

/* Krawczyk's method for a square system F(y) = 0 given by callbacks:
   f(out, y, data) writes F at the balls y (n entries), jac(out, y, data)
   the Jacobian (row-major n x n) over them.  guess's midpoints start
   Newton; on success y holds K(Y), which contains the unique zero of F
   in Y.  Returns 0 or HDO_ERR_NO_CONVERGENCE. */
typedef int (*cert_vec_fn)(arb_ptr out, arb_srcptr y, void *data, slong prec);
int cert_krawczyk(arb_ptr y, slong n, cert_vec_fn f, cert_vec_fn jac,
                  void *data, arb_srcptr guess, slong prec);

/* ------------------------------------------------------------------ */
/* wrap.c: the set of states carried from step to step.

   x = c + A r (+ C r0 for AFFINE): c a point (working precision), A an
   n x n matrix and r a box of balls centred near 0 (low precision), r0
   the start box and C the product of the Jacobians since (AFFINE). */
typedef struct {
    slong n;
    int wrap; /* HDO_CERTIFY_WRAP_* */
    slong prec, lprec;
    arb_ptr c;   /* n points */
    arb_mat_t A; /* n x n */
    arb_ptr r;   /* n */
    arb_mat_t C; /* AFFINE: n x n */
    arb_ptr r0;  /* AFFINE: n */
} cert_set_struct;
typedef cert_set_struct cert_set_t[1];

void cert_set_init(cert_set_t X, slong n, int wrap, slong prec, slong lprec);
void cert_set_clear(cert_set_t X);
/* X := the balls x (n entries): c their midpoints, the radii in r
   (AFFINE: in r0, r zero). */
void cert_set_from_balls(cert_set_t X, arb_srcptr x);
/* Y := X (both initialised with the same n). */
void cert_set_copy(cert_set_t Y, const cert_set_t X);
/* out (n balls) := an enclosure of every point of X. */
void cert_set_hull(arb_ptr out, const cert_set_t X, slong prec);
/* out := an enclosure of g . (x - c) over x in X, for a row g (n). */
void cert_set_dot(arb_t out, arb_srcptr g, const cert_set_t X, slong prec);
/* The set after a step: every point x of X goes to P(x) with
   P(x) - P(c) = J (x - c), P(c) in xc (n balls, working precision), J
   (n x n) enclosing the Jacobian of the step over X: c := mid(xc), and
   the rest wrapped as X->wrap says. */
void cert_set_advance(cert_set_t X, arb_srcptr xc, const arb_mat_t J);

/* ------------------------------------------------------------------ */
/* step.c: one validated Taylor step of a mode.

   From the set X at time t0 (a ball: the start of an arc may be known
   only to a ball), over s in [0, h]: every component (states, unknowns,
   guards, in that order: ncomp = ns + nu + ng) satisfies
     y_i(t0 + s) in L_i(s) + H_i(s) + s^(P+1) R_i + G_i(s) . (x0 - c),
   L_i the Taylor polynomial of degree qj from the centre c (working
   precision), H_i the orders qj + 1 .. P = p + q enclosed over the whole
   set, R_i the coefficient P + 1 enclosed over the a priori box B of the
   step (the Lagrange remainder), G_i(s) the derivatives of the orders up
   to qj with respect to the start state over the hull of X (low
   precision: they multiply the small x0 - c), and x0 - c ranging over
   X - c (Lohner's linear part). */
typedef struct {
    const cert_sys_struct *sys;
    slong ns, nu, ng, ncomp;
    slong p;  /* the run's Taylor order */
    slong q;  /* further orders: P = p + q */
    slong qj; /* the orders from the centre, with derivatives */
    slong prec, lprec, eprec;
    int mutate;         /* HDO_CERTIFY_MUTATE_* */
    cert_series_t main; /* order qj, from c, working precision */
    cert_series_t jet;  /* order qj, ns parameters, over hull(X) */
    cert_series_t ext;  /* order P, over hull(X), precision eprec */
    cert_series_t rem;  /* order P + 1, over B */
    /* the step */
    arb_t t0;
    arf_t h;
    arb_ptr R;                /* ncomp remainder coefficients */
    arb_ptr B;                /* ns: the a priori box of the states */
    arb_ptr UB;               /* nu: the unknowns over B */
    arb_ptr u0;               /* nu: the unknowns at c */
    const cert_set_struct *X; /* the set at the step's start (borrowed) */
    slong tries;              /* remainder evaluations of the last step */
    double lhfac;             /* log2 of validated step / proposal, learned */
    char why[512];
} cert_step_struct;
typedef cert_step_struct cert_step_t[1];

void cert_step_init(cert_step_t st, const cert_sys_t sys, slong p, slong q,
                    slong prec, slong lprec, int mutate);
void cert_step_clear(cert_step_t st);

/* Takes a validated step from X at t0: h at most hmax (a point > 0),
   chosen from the Taylor coefficients (Jorba and Zou's rule for the
   tolerance) and shrunk until (1) the high-order enclosure
     sum_{k <= p} a_k(X) [0, h]^k + [0, h]^(p+1) a_(p+1)(B) in int(B)
   holds (Nedialkov, Jackson and Pryce 2001: then the solution from
   every point of X exists on [0, h] and stays in B), and (2) each
   state's and unknown's remainder h^(p+1) |R_i| is at most
   2^ltol scale_i (scale: mag, ncomp entries, each raised here to its
   component's size over the step; guards' unused).  uguess
   (nu): a guess of the unknowns at c.
   Returns 0, or HDO_ERR_STEP_COLLAPSE (no step validated, st->why says
   why), HDO_ERR_DOMAIN, HDO_ERR_SINGULAR or HDO_ERR_NO_CONVERGENCE (an
   unknown not enclosed). */
int cert_step_take(cert_step_t st, const cert_set_t X, const arb_t t0,
                   const arf_t hmax, mag_ptr scale, double ltol,
                   arb_srcptr uguess, hdo_expr *bad);

/* Component i at s: its value, or with CERT_EVAL_DERIV its time
   derivative (whose remainder is (p + 1) s^p R_i); with CERT_EVAL_CENTER
   for the trajectory from the centre c alone (the linear part left out).
   The caller vouches that the true s lies in [0, h] (the ball s may
   reach beyond: an interval's ball does).  Returns 0, or -1 when the
   midpoint of s is not in [0, h] (out is then indeterminate). */
#define CERT_EVAL_DERIV 1
#define CERT_EVAL_CENTER 2
#define CERT_EVAL_DERIV2 4 /* the second derivative, remainder likewise */
int cert_step_eval(arb_t out, const cert_step_t st, slong i, const arb_t s,
                   int flags, slong prec);
/* The derivatives of component i at s (or of its time derivative, with
   CERT_EVAL_DERIV) with respect to the start state, over the set: the
   row G_i(s) (ns balls). */
void cert_step_grad(arb_ptr g, const cert_step_t st, slong i, const arb_t s,
                    int flags);
/* Every state at s (ns balls) and the Jacobian of the states at s with
   respect to the start state, over X (n x n), for cert_set_advance. */
int cert_step_states(arb_ptr x, arb_mat_t J, const cert_step_t st,
                     const arb_t s);

/* ------------------------------------------------------------------ */
/* event.c: switching functions on a validated step.  Guard g is
   component ns + nu + g of the step; its enclosure over a ball of s
   (cert_step_eval) and of its derivative make both tests. */

/* Proves that guard g is positive on [a, b] (0 <= a <= b <= h, points):
   pieces where the enclosure's lower bound is positive, or where the
   derivative has one sign and the value at the lower end (rising) or
   upper end (falling) is positive; bisection otherwise.  zero_at_a: the
   guard is exactly zero at a (proven by the caller, the arc's start on
   the surface of its previous event): then positivity on (a, b] is
   proven from a derivative positive over [a, a + d]; zero_at_a 2: its
   derivative is exactly zero at a too (cert_guard_slope_zero), and the
   second derivative positive over [a, a + d] proves it.  Returns 1 when
   proven; 0 otherwise, with *fail (may be NULL) set to the lower end of
   the first piece that could not be decided. */
int cert_guard_positive(const cert_step_t st, slong g, const arf_t a,
                        const arf_t b, int zero_at_a, arf_t fail);
/* The same on [a, z) for a guard exactly zero at z, a point of [zlo, b]
   (a clock's edge at the run's end): a derivative negative over [c, b]
   for some c <= zlo makes it positive on [c, z), and cert_guard_positive
   proves [a, c]. */
int cert_guard_positive_to_zero(const cert_step_t st, slong g, const arf_t a,
                                const arf_t zlo, const arf_t b, int zero_at_a,
                                arf_t fail);

/* Encloses a zero of guard g near sp (a point in [0, h]): the interval
   Newton operator N(I) = m - G(m)/G'(I) inside the interior of I proves
   exactly one zero in I (Moore; Neumaier 1990, thm 5.1.7), and a
   derivative negative over I makes it a crossing from feasible to
   infeasible.  root: the final I, inside [0, h].  flags: CERT_EVAL_CENTER
   for the trajectory from the set's centre alone.  Returns 0, or -1 when
   no I around sp is proven (a multiple or nearly multiple zero, a zero
   not there, or one at the step's edge). */
int cert_guard_root(arb_t root, const cert_step_t st, slong g, const arf_t sp,
                    int flags);

/* ------------------------------------------------------------------ */
/* result.c */
int cert_result_live(const hdo_certified_struct *c);
void cert_result_reset(hdo_certified_struct *c, long digits, mpfr_prec_t prec,
                       slong nvars);
void cert_ball_set_arb(hdo_ball *b, const arb_t x);
void cert_ball_get_arb(arb_t x, const hdo_ball *b);
hdo_cert_row *cert_result_add_row(hdo_certified_struct *c);
hdo_cert_event *cert_result_add_event(hdo_certified_struct *c);

/* ------------------------------------------------------------------ */
/* mode.c: the modes of a certified pass and what happens at their ends. */

/* A mode as the pass uses it: its reduced form (Pryce's, or the
   Kunkel-Mehrmann fallback's where the run used it), compiled with its
   switching functions (under `chattering hysteresis d`, S + d), and the
   stepper. */
typedef struct {
    int built;
    int status; /* < 0: unusable, why says why */
    char why[512];
    hdo_reduced_t red;
    cert_sys_t sys;
    cert_step_t step;
    slong ng;
    hdo_expr *guards; /* as compiled: hysteresis added */
    int *locate;      /* per guard: located (0: a zero variant's D) */
    const char **gtext; /* per guard: its text, for messages */
    slong *comp;      /* per model variable: its component (state or
                         unknown of order 0), or -1 */
    char name[256];   /* the mode's name as results write it */
    /* a Filippov sliding mode of the pair sa < sb (sliding.c; sa = -1
       for a model mode): the surface S (sa's guard towards sb), the Lie
       derivatives la = L_sa S, lb = L_sb S, the weight alpha =
       lb / (lb - la) of sa's field; guards alpha (then sb), 1 - alpha
       (then sa), then the other whens of sa and sb (other_mode,
       other_when) */
    slong sa, sb;
    hdo_expr S, la, lb, alpha;
    slong *other_mode, *other_when;
} cert_mode;

typedef struct {
    const hdo_result_struct *res;
    const hdo_model_struct *model;
    hdo_model_struct work; /* the workspace: reductions, programs */
    hdo_certified_struct *cert;
    const hdo_certify_options *opt;
    slong prec, lprec, p, q;
    double ltol; /* log2 of the tolerance 10^-(D+5) */
    slong nmodes;
    cert_mode *modes;
    /* the Filippov sliding modes used (sliding.c): their keys (the run's
       mode indices) and modes, each allocated once (pointers stay) */
    slong nslide;
    slong *slide_key;
    cert_mode **slide;
    double *varmax;    /* per variable: log2 of its largest magnitude so far */
    double *nominal;   /* per variable: log2 of its nominal, or -inf */
    double stiff_from; /* the run's first implicit arc's start, or +inf */
    /* the run's exact end (`until`, or the override), when its rounding
       is the run's t_end: the last row's time, HDO_EXPR_NONE otherwise */
    hdo_expr tend;
    arb_t tend_ball;
} cert_ctx;

/* The ball of a constant expression of the workspace (0, or -1). */
int cert_constant_arb(arb_t r, hdo_model_struct *w, hdo_expr e, slong prec);

/* driver.c: the pass along the run's arcs from its start; fills
   c->cert's rows, events, complete, reason, until.  Returns 0 (the
   whole run) or HDO_CERTIFY_STOPPED. */
int cert_run(cert_ctx *c);

/* sliding.c: the mode m (a model mode, or a sliding mode's result
   index), built on first use; NULL (with the reason in why) when it
   cannot be used. */
cert_mode *cert_mode_get(cert_ctx *c, slong m, char *why, size_t size);
/* compile.c: the model mode m < nmodes, as cert_mode_get. */
cert_mode *cert_model_mode_get(cert_ctx *c, slong m, char *why, size_t size);
void cert_mode_free(cert_ctx *c);
/* Compiles cm (its red, guards, locate and name set) for ball
   expansions: its system, stepper and components.  0, or -1 with why. */
int cert_mode_compile(cert_ctx *c, cert_mode *cm, char *why, size_t size);
/* Frees what cert_mode_get built in cm. */
void cert_mode_release(cert_mode *cm);
/* The model's `when` k of src when the event is that transition into
   the model mode dst, resets applied; NULL for the entry into or the
   exit from a Filippov sliding mode (every state kept, no reset:
   decisions.md D-004, "Filippov sliding"). */
const hdo_transition *cert_when(const cert_ctx *c, slong src, slong k,
                                slong dst);

/* sliding.c: the sliding mode of the pair (run's index m >= nmodes),
   built into a new cert_mode; NULL with why for an intersection or a
   pair the pass does not cover. */
cert_mode *cert_sliding_get(cert_ctx *c, slong m, char *why, size_t size);
/* At a sliding start (from model mode src by its when k, into the
   sliding mode dst) on the surface, at the left limit's balls y (src's
   states then unknowns) and time t: both fields point at the surface,
   la < 0 < lb, proven in balls (the side that fired is already proven
   by its crossing), and the two whens are across one surface (b's guard
   is -S, exactly).  0, or -1 with why. */
int cert_sliding_entry(cert_ctx *c, slong src, slong k, slong dst,
                       arb_srcptr y, const arb_t t, char *why, size_t size);
/* After the sliding-end of the sliding mode src by its guard k (0:
   alpha = 0, into sb; 1: alpha = 1, into sa), guard g of the target dst:
   1 when it is the surface's (+-S): zero there, S being exactly
   invariant along the sliding field; *slope then 1 (its derivative is
   -+lb or +-la, zero at that end). */
int cert_sliding_exit_zero(cert_ctx *c, slong src, slong k, slong dst, slong g,
                           int *slope);

/* The start point of mode m at t0: the states as balls (x, ns) from the
   `var` start values, proven consistent (every constraint exactly zero
   there, by Calcium, where the mode has constraints), and the unknowns
   (u, nu) enclosed by Krawczyk near guess (nu values, may be NULL).
   Returns 0, or -1 with why. */
int cert_start_state(arb_ptr x, arb_ptr u, cert_ctx *c, slong m, const arb_t t0,
                     arb_srcptr guess, char *why, size_t size);

/* The state after transition k of mode src into dst (left-limit
   component values y, ns + nu of src, at time t): the `with` values (a
   model when's: cert_when) evaluated on
   y in Arb, kept values copied, the target's constraints proven exactly
   zero (each, after the reset, a constraint of src, whose exact solution
   keeps it zero, or with at_zero the switching function that fired, zero
   at its located event; or exactly zero in balls), the target's unknowns
   by Krawczyk near guess.  x: the target's states, u: its unknowns.
   A constraint not proven so is met by the smallest change of the
   states (cert_reinit_project): *moved = 1, and P (the target's nstate
   square, may be NULL) gets the change's Jacobian; *moved = 0 and P
   untouched otherwise.  Returns 0, or -1 with why. */
int cert_transition_state(arb_ptr x, arb_ptr u, cert_ctx *c, slong src, slong k,
                          slong dst, arb_srcptr y, const arb_t t,
                          arb_srcptr guess, int at_zero, arb_mat_struct *P,
                          int *moved, char *why, size_t size);

/* reinit.c: the smallest change of the states x of mode cm at time t
   onto its constraints (those with proven[q] are exactly zero at x):
   when they are affine in the states, the Euclidean projection
   x - A^T (A A^T)^-1 g(x), A = dg/dx (Arb proves A A^T invertible);
   P (nstate x nstate, may be NULL) gets its Jacobian
   I - A^T (A A^T)^-1 A.  Returns 0, or -1 with why. */
int cert_reinit_project(arb_ptr x, arb_mat_struct *P, cert_ctx *c,
                        const cert_mode *cm, const int *proven, const arb_t t,
                        char *why, size_t size);

/* 1 when guard g of mode dst is exactly zero right after transition k of
   src: composed with the reset it is, up to its sign, src's guard k (with
   at_zero: the event was its located zero) or a constraint of src. */
int cert_guard_zero_after(cert_ctx *c, slong src, slong k, slong dst, slong g,
                          int at_zero);
/* e and s are the same expression of w's pool, or opposite ones. */
int cert_same_up_to_sign(hdo_model_struct *w, hdo_expr e, hdo_expr s);

/* 1 when guard g of mode m is exactly zero at the run's start (its
   value at the `var` start values and t0 a constant that Calcium proves
   zero). */
int cert_start_guard_zero(cert_ctx *c, slong m, slong g);
/* 1 when guard g of mode m is a first integral, proven symbolically: its
   derivative along the flow, dS/dt + sum dS/dx_i rhs_i over the explicit
   variables it reads (and no others), expands to zero (normal.c). */
int cert_guard_invariant(cert_ctx *c, slong m, slong g);

/* normal.c: 1 when e expands, as a polynomial in its other
   sub-expressions with exact rational coefficients, to no term: a proof
   that e is identically zero (0 means not proven). */
int cert_expr_is_zero(const hdo_expr_pool_struct *pool, hdo_expr e);
/* 1 when e expands (as above) to a combination sum c_j rel_j with
   exact rational c_j: e is zero wherever every rel_j is (0: not
   proven). */
int cert_expr_in_span(const hdo_expr_pool_struct *pool, hdo_expr e,
                      const hdo_expr *rel, slong n);

/* The Jacobian K (target states x source states) of the state after
   transition k of src with respect to src's states, over the left-limit
   balls y (states then unknowns of src) at time t: the assignments'
   derivatives (with the unknowns' through the implicit function), rows of
   the identity for kept states.  Returns 0, or -1. */
int cert_transition_jacobian(arb_mat_t K, cert_ctx *c, slong src, slong k,
                             slong dst, arb_srcptr y, const arb_t t);

/* ------------------------------------------------------------------ */
/* arc.c, rows.c, jump.c, driver.c (each calling only those before
   it): the pass along the run's arcs. */

/* run_arc's outcome besides the end of the run (0) and a stop */
#define ARC_EVENT 2

/* The arc being certified: its mode, its set of states, its time. */
typedef struct {
    cert_ctx *c;
    slong m;
    cert_mode *cm;
    cert_set_t X;
    int has_X;
    arb_t tarc; /* the arc's start, absolute: an event's time ball */
    arf_t sloc; /* the current step's start, from tarc: exact */
    arb_ptr u;  /* the unknowns at the current point (guesses) */
    int *zero0; /* per guard: exactly zero at the arc's start */
    int *skip;  /* per guard: zero all along the arc (a first integral) */
    slong prev_m, prev_k; /* the transition that began the arc, or -1 */
    int prev_at_zero;     /* ... at a located zero of its guard */
    int prev_moved;       /* ... whose reinitialisation moved the state */
    int *slope0; /* per guard: its derivative proven zero at the start (1),
                    not (0), not tried yet (-1): tangent.c */
    /* a clock (switching function of t alone) proven exactly zero at the
       arc's start time: the one whose located zero the last event was,
       kept through instantaneous events; HDO_EXPR_NONE when none */
    hdo_expr tzero;
    slong row;            /* the next row of the run to certify */
    slong ev;             /* the next event of the run */
    mpfr_t last;          /* the time of the last certified row */
} arc_t;

/* arc.c */
int cert_stop(arc_t *a, double t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
double cert_arb_d(const arb_t x);
int cert_arc_begin(arc_t *a, slong m, const arb_t t, const cert_set_struct *X,
                   arb_srcptr x, arb_srcptr u);

/* rows.c */
/* The values of the mode's variables at s into out (model->nvars),
   present set; 0, or -1 when one is not enclosed. */
int cert_values_at(hdo_ball *out, int *present, arc_t *a, const arb_t s);
/* Certifies the run's row a->row, a sample at local time s. */
int cert_emit_sample(arc_t *a, const arb_t s);
/* s := t - (tarc + sloc), the local time of t in the current step. */
void cert_local_time(arb_t s, arc_t *a, const mpfr_t t);
/* The time of the run's row i (a ball: the exact end for the last
   sample, cert_ctx.tend), and its local time in the current step. */
void cert_row_time(arb_t t, const cert_ctx *c, slong i);
void cert_row_local_time(arb_t s, arc_t *a, slong i);
/* 1 when guard g of the arc's mode is of t alone and exactly zero at
   the run's exact end (Calcium): a clock's edge at `until`. */
int cert_clock_zero_at_end(arc_t *a, slong g);
/* Certifies the sample rows of the current step up to local time hc. */
int cert_emit_samples(arc_t *a, arf_t hc, int upto_inclusive);
int cert_time_only(const arc_t *a, slong m, slong k);
int cert_time_sign(const arc_t *a, slong m, slong k, const mpfr_t t);
int cert_before_clock(arc_t *a, slong k, const mpfr_t t);
int cert_time_root(arb_t te, const arc_t *a, slong m, slong k);
/* Records the run's event E (src -> dst at the ball t), proven: the
   state before it (y, in cs's components), after it (x, u in cd's) and
   its two rows; the pass moves past them (a->row, a->ev). */
void cert_record_event(arc_t *a, const hdo_event *E, slong src, slong dst,
                       const cert_mode *cs, const cert_mode *cd,
                       const arb_t t, arb_srcptr y, arb_srcptr x,
                       arb_srcptr u);

/* tangent.c: 1 when guard g of the arc's mode, exactly zero at the arc's
   start after a transition, has its derivative along the mode's flow
   exactly zero there too (a tangential departure: the break-away of
   stick_slip_stick), proven symbolically: that derivative, written in
   the left limit's variables through the reset (the target's unknowns
   as fresh symbols), is a rational combination of relations that hold
   at the event: the mode left's implicit equations and constraints, the
   fired switching function, and the target's implicit equations and
   constraints. */
int cert_guard_slope_zero(arc_t *a, slong g);

/* zeno.c: the run's zeno event E, the next after the arc's last event:
   its time t* enclosed by the scaling argument (zeno.c says when it
   applies), the zeno clause taken from the limit state 0 there, and the
   target's arc begun.  Returns ARC_EVENT, or a stop saying why not. */
int cert_zeno(arc_t *a, const hdo_event *E, arb_t tstar, char *why,
              size_t size);
int cert_zeno_event(arc_t *a, const hdo_event *E);
/* The run's events from a->ev up to its zeno event, when the steps cannot
   enclose them (gaps near the rounding): each certified by the cascade's
   self-similarity, its time and states the scaled image of the first
   cycle's; the arc after them begun.  ARC_EVENT, a stop, or -2 when no
   such cascade lies ahead (the caller's stop stands). */
int cert_zeno_tail(arc_t *a);

/* jump.c */
void cert_unknown_guess(arb_ptr g, const cert_mode *cm, mpfr_srcptr vals);
void cert_exact_zeros(arc_t *a);
void cert_arc_invariants(arc_t *a);
int cert_take_event(arc_t *a, slong k, const arb_t I, int instant);
int cert_instant_event(arc_t *a, slong k);

#endif
