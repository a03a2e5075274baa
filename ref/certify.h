/* certify.h -- the certified pass (hdo run --certify): a second pass in
   ball arithmetic (Arb) along the arcs of a run, proving an enclosure of
   every value and event time (docs/certify.md). */
#ifndef HDO_CERTIFY_H
#define HDO_CERTIFY_H

#include <stdio.h>
#include "hybrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the set of states is carried from step to step (the wrapping
   effect; docs/decisions.md, "Certified pass: wrapping"):
   LOHNER    x in c + A r, A orthogonal from a QR factorisation of the
             step's Jacobian times the last A (Lohner 1987), the default;
   INTERVAL  x in c + r, the mean-value form wrapped into a box each step;
   AFFINE    x in c + C r0 + A r: first-order Taylor models in the start
             box r0 (C the product of the steps' Jacobians, never
             wrapped), the local errors wrapped as LOHNER (CAPD's
             doubleton). */
enum {
    HDO_CERTIFY_WRAP_LOHNER = 0,
    HDO_CERTIFY_WRAP_INTERVAL,
    HDO_CERTIFY_WRAP_AFFINE
};

/* Deliberate defects for the mutation tests (tests/certify/mutation.c;
   docs/decisions.md's boundary-test table): each must make a
   closed-form test fail.  0 in every real run. */
enum {
    HDO_CERTIFY_MUTATE_NONE = 0,
    HDO_CERTIFY_MUTATE_NO_REMAINDER,    /* the Lagrange remainder dropped */
    HDO_CERTIFY_MUTATE_NO_INFLATION,    /* the a priori box not inflated */
    HDO_CERTIFY_MUTATE_EVENT_SHRINK     /* event-time balls shrunk by 2 */
};

typedef struct {
    int wrap;     /* HDO_CERTIFY_WRAP_* */
    int mutate;   /* HDO_CERTIFY_MUTATE_*: tests only */
    slong order;  /* Taylor order; 0: the run's (hdo_taylor_default_order) */
} hdo_certify_options;

void hdo_certify_options_init(hdo_certify_options *opt);

/* A value proven to lie in mid +- rad (rad rounded up). */
typedef struct {
    mpfr_t mid, rad;
} hdo_ball;

#ifdef __cplusplus
}
#endif

#endif
