/* event.h -- the numerics of events on a step's polynomials: certified
   root isolation of a switching function's series, the zero rule, how
   well an event's time is determined, and the limits of accumulating
   events (Aitken, periods of a cascade).  Numbers only: the hybrid
   driver (hybrid.h) decides what an event does. */
#ifndef HDO_EVENT_H
#define HDO_EVENT_H

#include <mpfr.h>
#include <flint/flint.h>
#include "status.h" /* HDO_EVENT */

#ifdef __cplusplus
extern "C" {
#endif

/* The zero rule of KM Remark 12 used by hdo_event_locate: the index m
   of the first coefficient of S = sum c_k s^k whose contribution
   |c_m| H^m over the step exceeds ztol = tol max_k |c_k| H^k + floor (S
   is then s^m Q(s) up to the tolerance, and the sign of c_m says where
   it leaves zero), or len when S stays within ztol over the step.  The
   first term is relative to S's own size over the step; floor (NULL: 0)
   is the size below which S cannot be told from zero given the errors
   of the state it is computed from (the driver's guard floors,
   hdo_run_guard_floors): no absolute tolerance, so a guard 1e-65 h < 0
   switches where h < 0 does. */
slong hdo_event_zero_order(mpfr_srcptr c, slong len, const mpfr_t H,
                           const mpfr_t tol, mpfr_srcptr floor);
/* hdo_event_zero_order where S(0) = c_0 is a computed value whose own
   error is vfloor (NULL: the rule above): c_0 is a zero only within
   vfloor, not within tol times S's size over the step (its truncation,
   which S(0) does not have: decisions.md D-112; 1e-30 - t + 1e20 t^2
   starts at 1e-30, not on the surface); the later coefficients as
   above. */
slong hdo_event_zero_order_at(mpfr_srcptr c, slong len, const mpfr_t H,
                              const mpfr_t tol, mpfr_srcptr floor,
                              mpfr_srcptr vfloor);
/* hdo_event_zero_order_at where S'(0) = c_1 is a computed value too,
   whose own error is sfloor (NULL: the rule above): once c_0 is a zero
   within vfloor, c_1 beyond sfloor is no zero, even within tol times
   S's size over the step (that size is S's error at the step's end,
   not at its start: decisions.md D-130); within sfloor the rule
   above decides. */
slong hdo_event_zero_order_own(mpfr_srcptr c, slong len, const mpfr_t H,
                               const mpfr_t tol, mpfr_srcptr floor,
                               mpfr_srcptr vfloor, mpfr_srcptr sfloor);

/* Event location on one step (ref/event/locate.c).

   S(s) = sum_{k < len} c[k] s^k is the Taylor series of a switching
   function over a step s in [0, H] (the integrator's guard series; c is
   a contiguous array of len coefficients).  The mode is feasible while
   S >= 0; an event is a sign change of S from positive to negative.

   Finds the first event in [0, H], certified: ball arithmetic (Arb) on
   the exact polynomial with subdivision, so two zeros close together are
   never mistaken for none.  A value |S(0)| within the zero rule's ztol
   (hdo_event_zero_order, with floor) is taken as an exact zero
   (Kunkel-Mehrmann, Remark 12): the zero at
   the start of an arc is then an event only if the first coefficient
   that matters over the step is negative (S leaves the surface into the
   infeasible side).  A tangency (S touching zero without crossing) is
   not an event.

   Returns HDO_EVENT with root set to the event's s in [0, H] (0 when the
   start itself is infeasible), refined by safeguarded Newton on the
   polynomial to about 2^(2-prec) of the root itself (not of H:
   decisions.md D-106); or 0 when S stays feasible on the step.  root is rounded
   to its own precision. */
int hdo_event_locate(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                     const mpfr_t tol, mpfr_srcptr floor, mpfr_prec_t prec);

/* hdo_event_locate at the start of an arc whose start time is known
   only to slack (an event's time, hdo_event_time_error; NULL: exactly):
   where S is infeasible at once but rises back through zero within
   slack of the start, the arc starts on the surface and leaves it into
   the feasible side, and the search goes on from slack on (0, or the
   first event beyond it); otherwise as hdo_event_locate, with S(0)
   zero only within vfloor when given (hdo_event_zero_order_at).  order:
   hdo_event_zero_order(c, len, H, tol, floor) when the caller has it
   and vfloor is NULL (not computed again), else -1. */
int hdo_event_locate_after(mpfr_t root, mpfr_srcptr c, slong len,
                           const mpfr_t H, const mpfr_t tol, mpfr_srcptr floor,
                           mpfr_srcptr vfloor, mpfr_srcptr slack, slong order,
                           mpfr_prec_t prec);
/* What a caller knows of S's own errors at the step's start: value,
   S(0)'s (vfloor above; NULL: not known); slope, S'(0)'s (sfloor of
   hdo_event_zero_order_own, read only with value); floor_over, when
   given, sets floor to the guard's floor with its inputs' drift over
   [0, b] only and returns 1 (0: not known): a dip within the floor's
   drift drawn as a line from 0 to the step's floor is an event when it
   is beyond the drift over the dip itself (decisions.md D-131). */
typedef struct {
    mpfr_srcptr value, slope;
    int (*floor_over)(mpfr_t floor, const mpfr_t b, void *ctx);
    void *ctx;
} hdo_event_own_errors;

/* hdo_event_locate_after with own errors (NULL: none; own->value
   replaces vfloor, and an order passed is read only without it). */
int hdo_event_locate_after_own(mpfr_t root, mpfr_srcptr c, slong len,
                               const mpfr_t H, const mpfr_t tol,
                               mpfr_srcptr floor,
                               const hdo_event_own_errors *own,
                               mpfr_srcptr slack, slong order,
                               mpfr_prec_t prec);

/* How well the root s = root of S found by hdo_event_locate is
   determined when S is known to ztol = tol max_k |c_k| root^k (tol
   relative to its size on [0, root]): sets delta to min_k (ztol / |T_k|)^(1/k),
   T_k the Taylor coefficients of S at the root, i.e. ztol / |S'| at a simple
   root and (ztol m! / |S^(m)|)^(1/m) at a root of multiplicity m (the
   event of der(x) = -5 (t - 1)^4, when x < 0, at t = 1, is known to
   about tol^(1/5)).  No precision of the root finder can do better:
   only a run at more digits can.  delta: 64 bits, +inf if S is flat. */
void hdo_event_time_error(mpfr_t delta, mpfr_srcptr c, slong len,
                          const mpfr_t H, const mpfr_t tol, const mpfr_t root,
                          mpfr_prec_t prec);

/* Zeno limits (ref/event/zeno.c): the numbers only; the driver decides
   when events accumulate (ref/hybrid/zenodetect.c). */

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
   agree within tol max(|limit_i|, ||y||).  Returns 1 with lim[0..dim)
   set to the limit of the last triple, else 0 (lim untouched). */
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

#ifdef __cplusplus
}
#endif

#endif
