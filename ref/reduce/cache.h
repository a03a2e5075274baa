/* cache.h -- private to ref/reduce/: the symbolic Jacobians and compiled programs of a reduced mode */
#ifndef HDO_REDUCE_CACHE_H
#define HDO_REDUCE_CACHE_H

#include "reduce.h"
#include "util.h"

/* A sparse list of symbolic partial derivatives: entry i is
   d f[row[i]] / d x[col[i]], nonzero symbolically. */
typedef struct {
    slong len;
    hdo_expr *e;
    slong *row, *col;
} hdo_reduce_sparse;

/* hdo_reduced_unknown_error's work space for prog_h's nin inputs and nu
   unknowns (unknown_error.c): made on first use, dropped with the
   programs; its calls at a complementarity decision are many (D-127) */
typedef struct {
    slong nin, nu;
    mpfr_ptr mid, rad, rho, col;
    slong *perm;
    hdo_mat_t J;
    mpfr_t m, e;
} hdo_unknown_scratch;

/* solve_unknowns' Newton work space for nu unknowns (consistent.c), kept
   as uscratch is: a complementarity decision finds a consistent point
   for each of its candidates, 16 at each of diode_bridge's (issue 28,
   decisions.md D-134) */
typedef struct {
    slong nu;
    mpfr_ptr f;
    slong *perm;
    hdo_mat_t J;
    mpfr_t step, prev, size, tol;
} hdo_newton_scratch;

/* project's work space for nc constraints on ns states (consistent.c),
   kept as nscratch is (decisions.md D-134) */
typedef struct {
    slong nc, ns;
    mpfr_ptr f, dx, xt;
    /* gn_step's: the free and fixed columns, their steps, the rhs */
    slong *F, *X;
    mpfr_ptr dX, dF, b2, tmp;
    hdo_mat_t J;
    mpfr_t res, rest, scale, tol;
} hdo_project_scratch;

struct hdo_reduce_cache {
    hdo_reduce_sparse jc; /* constraints by states */
    hdo_reduce_sparse jh; /* h by unknowns */
    /* Programs, compiled on first use at precision prec (0: not yet);
       a call at another precision recompiles.  prog_c's roots are the
       constraints then the entries of jc; prog_h's are h then jh. */
    mpfr_prec_t prec;
    hdo_program_t prog_c, prog_h;
    /* For each program input: state index i >= 0, or -1 - j for
       unknown j. */
    slong *in_c, *in_h;
    /* the projection's SVDs and the unknowns' LU by their matrix (made
       on first use): a linear mode has the same Jacobians at every
       consistent point (decisions.md D-111) */
    hdo_svd_memo *svd;
    hdo_lu_memo *lu;
    hdo_unknown_scratch *uscratch; /* NULL until used */
    hdo_newton_scratch *nscratch;  /* NULL until used */
    hdo_project_scratch *pscratch; /* NULL until used */
};

/* Compiles the programs of r at precision prec if not done yet. */
void hdo_reduce_cache_compile(hdo_model_t model, const hdo_reduced_t r,
                              mpfr_prec_t prec);
void hdo_reduce_cache_free(struct hdo_reduce_cache *cache);
/* Drops the compiled programs (recompiled on next use). */
void hdo_reduce_cache_invalidate(struct hdo_reduce_cache *cache);

/* hdo_reduce_mode on the residuals eqs (one per equation of the mode,
   equivalent to its own) in place of mode->eqs[k].residual (reduce.c). */
int hdo_reduce_equations(hdo_reduced_t r, hdo_model_t model, slong m,
                         const hdo_expr *eqs, hdo_error_t *err);

/* calloc of n entries (at least one) of size bytes, zeroed; an allocation
   failure is an assertion, as for the rest of the module (util.h's
   hdo_xcalloc).  The short name is kept by a macro, as the parser's
   helpers are. */
#define xcalloc(...) hdo_xcalloc(__VA_ARGS__)

#endif
