/* km.h -- the Kunkel-Mehrmann analysis of a mode: derivative arrays,
   Hypothesis 1 rank decisions, strangeness index mu and the counts
   d (differential), a (algebraic), v (redundant). */
#ifndef HDO_KM_H
#define HDO_KM_H

#include "model.h"
#include "linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HDO_KM_MAX_MU 8

/* The characteristic values at one level mu of the derivative array
   F_mu (l equations, n variables, L = (mu+1) l rows):
     r = rank [F_mu;x F_mu;y],      v = L - r   (redundant equations)
     rank F_mu;y = r - a                         (a: algebraic part)
     Z2 = left null space of F_mu;y, L x (a + v); rank Z2^T F_mu;x = a
     T2 = right null space of Z2^T F_mu;x, n x (n - a)
     d = rank F_x' T2                            (differential part)
     u = n - a - d                               (undetermined part)
   (Kunkel-Mehrmann 2006, Hypothesis 4.11, the form with redundancies;
   for a square system it is the paper's Hypothesis 1 when v = 0.) */
typedef struct {
    slong mu, r, a, d, v, u;
    hdo_rank_info rank_J, rank_M, rank_A, rank_D;
    int clear;       /* every decision of this level clear-cut */
    double residual; /* max |F_mu| at the derivatives y found */
} hdo_km_level_info;

typedef struct {
    slong n; /* variables of the mode */
    slong l; /* equations of the mode */
    slong mu, d, a, v;
    slong u; /* n - a - d: free components (0 when regular) */
    /* The rank decisions the result rests on, for reporting:
       rank of [F_mu;x F_mu;y] (gives v), rank of M_mu = F_mu;y, rank of
       Z2^T F_mu;x, rank of F_x' T2. */
    hdo_rank_info rank_J, rank_M, rank_A, rank_D;
    int clear; /* every decision clear-cut */
    /* Every level examined, 0..nlevels-1 (for `hdo analyze`). */
    slong nlevels;
    hdo_km_level_info levels[HDO_KM_MAX_MU + 2];
    /* Largest |F_mu| at the derivatives found for the reported level. */
    double residual;
} hdo_km_result;

/* Analyses mode `mode` at time t and a consistent value x of its
   variables (x[i] is the value of model variable mode->vars[i]), at
   precision prec.  Builds F_mu symbolically (memoized in the pool),
   solves F_mu(t, x, y) = 0 for the derivatives y by minimum-norm
   Gauss-Newton, and takes the smallest mu for which Hypothesis 1 holds
   with u = 0 (the mode is regular: uniquely solvable from a consistent
   point) and is confirmed with the same a and d at mu + 1 (so at most
   HDO_KM_MAX_MU + 1 levels are built).  res is filled as far as the
   analysis got, also on failure.  Returns 0,
   HDO_ERR_SINGULAR (no mu satisfies the hypothesis -- for instance a
   system that is not uniquely solvable, u > 0 -- or a rank decision is
   not clear-cut: err says which singular values),
   HDO_ERR_INCONSISTENT (F_mu(t, x, y) = 0 has no solution y: x is not
   consistent), HDO_ERR_UNSUPPORTED (an equation with second or higher
   derivatives), HDO_ERR_DOMAIN (an evaluation failed) or
   HDO_ERR_NO_CONVERGENCE.
   Where the mode has explicit equations (one derivative each, nonzero
   coefficient), their rows are eliminated exactly first and the rank
   decisions are taken on the Schur complement (ref/km/schur.c): the
   same ranks, and the singular values reported are those of the
   complement. */
int hdo_km_analyze(hdo_km_result *res, hdo_model_t model, slong mode,
                   const mpfr_t t, mpfr_srcptr x, mpfr_prec_t prec,
                   hdo_error_t *err);
/* The same analysis with every decision on the whole derivative array
   (the straightforward method, for tests that compare the two). */
int hdo_km_analyze_dense(hdo_km_result *res, hdo_model_t model, slong mode,
                         const mpfr_t t, mpfr_srcptr x, mpfr_prec_t prec,
                         hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
