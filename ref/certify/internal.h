/* internal.h -- the certified pass's private layers (ref/certify/): a
   reduced mode compiled for ball expansions, Krawczyk solves, the
   validated Taylor step and its dense output, the wrapping of the state
   set, event enclosure, transitions and the driver. */
#ifndef HDO_CERTIFY_INTERNAL_H
#define HDO_CERTIFY_INTERNAL_H

#include <arb.h>
#include <arb_mat.h>
#include "certify.h"
#include "series.h"

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
    int status;     /* HDO_ERR_UNSUPPORTED: an input that is neither */
    char why[256];
    void *cache;    /* order-0 series of hprog and jprog per precision */
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
                        const hdo_program_struct *prog, char *why,
                        size_t size);

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

/* ------------------------------------------------------------------ */
/* krawczyk.c */

/* Encloses the unknowns of sys for every state in the balls x and time
   in t: Krawczyk's operator K(U) = m - C h(x, m) + (I - C J(x, U))(U - m)
   with m refined from the midpoints of guess by Newton and C an
   approximate inverse of J at the midpoints; K(U) inside the interior of
   U proves, for each (t, x), exactly one zero of h(t, x, .) in U, which
   lies in K(U), written to u.  Returns 0, or HDO_ERR_NO_CONVERGENCE
   when no box up to the tries is proven (u unchanged), HDO_ERR_DOMAIN. */
int cert_unknowns(arb_ptr u, const cert_sys_t sys, arb_srcptr x,
                  const arb_t t, arb_srcptr guess, slong prec);

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
    int wrap;     /* HDO_CERTIFY_WRAP_* */
    slong prec, lprec;
    arb_ptr c;    /* n points */
    arb_mat_t A;  /* n x n */
    arb_ptr r;    /* n */
    arb_mat_t C;  /* AFFINE: n x n */
    arb_ptr r0;   /* AFFINE: n */
} cert_set_struct;
typedef cert_set_struct cert_set_t[1];

void cert_set_init(cert_set_t X, slong n, int wrap, slong prec, slong lprec);
void cert_set_clear(cert_set_t X);
/* X := the balls x (n entries): c their midpoints, the radii in r
   (AFFINE: in r0, r zero). */
void cert_set_from_balls(cert_set_t X, arb_srcptr x);
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
     y_i(t0 + s) in P_i(s) + s^(p+1) R_i + G_i(s) . (x0 - c),
   P_i the Taylor polynomial of degree p from the centre c (working
   precision), R_i the coefficient p + 1 enclosed over the a priori box
   B of the whole step (the Lagrange remainder), G_i(s) the polynomial of
   the derivatives of the coefficients with respect to the start state,
   enclosed over the hull of X (low precision: it multiplies the small
   x0 - c), and x0 - c ranging over X - c. */
typedef struct {
    const cert_sys_struct *sys;
    slong ns, nu, ng, ncomp;
    slong p;            /* Taylor order */
    slong prec, lprec;
    int mutate;         /* HDO_CERTIFY_MUTATE_* */
    cert_series_t main; /* order p, from c, working precision */
    cert_series_t jet;  /* order p, ns parameters, from hull(X) */
    cert_series_t rem;  /* order p + 1, over B */
    /* the step */
    arb_t t0;
    arf_t h;
    arb_ptr R;    /* ncomp remainder coefficients */
    arb_ptr B;    /* ns: the a priori box of the states */
    arb_ptr UB;   /* nu: the unknowns over B */
    arb_ptr u0;   /* nu: the unknowns at c */
    const cert_set_struct *X; /* the set at the step's start (borrowed) */
    slong tries;  /* remainder evaluations of the last step */
    double lhfac; /* log2 of validated step / proposal, learned */
    char why[512];
} cert_step_struct;
typedef cert_step_struct cert_step_t[1];

void cert_step_init(cert_step_t st, const cert_sys_t sys, slong p, slong prec,
                    slong lprec, int mutate);
void cert_step_clear(cert_step_t st);

/* Takes a validated step from X at t0: h at most hmax (a point > 0),
   chosen from the Taylor coefficients (Jorba and Zou's rule for the
   tolerance) and shrunk until (1) the high-order enclosure
     sum_{k <= p} a_k(X) [0, h]^k + [0, h]^(p+1) a_(p+1)(B) in int(B)
   holds (Nedialkov, Jackson and Pryce 2001: then the solution from
   every point of X exists on [0, h] and stays in B), and (2) each
   state's and unknown's remainder h^(p+1) |R_i| is at most
   2^ltol scale_i (scale: mag, ncomp entries; guards' unused).  uguess
   (nu): a guess of the unknowns at c.
   Returns 0, or HDO_ERR_STEP_COLLAPSE (no step validated, st->why says
   why), HDO_ERR_DOMAIN, HDO_ERR_SINGULAR or HDO_ERR_NO_CONVERGENCE (an
   unknown not enclosed). */
int cert_step_take(cert_step_t st, const cert_set_t X, const arb_t t0,
                   const arf_t hmax, const mag_struct *scale, double ltol,
                   arb_srcptr uguess, hdo_expr *bad);

/* Component i at s (a ball inside [0, h]): value or (deriv) its time
   derivative, whose remainder is (p + 1) s^p R_i.  Returns 0, or -1 when
   s is not inside [0, h] (out is then indeterminate). */
int cert_step_eval(arb_t out, const cert_step_t st, slong i, const arb_t s,
                   int deriv, slong prec);
/* Every state at s (ns balls) and the Jacobian of the states at s with
   respect to the start state, over X (n x n), for cert_set_advance. */
int cert_step_states(arb_ptr x, arb_mat_t J, const cert_step_t st,
                     const arb_t s);

#endif
