/* deval.h -- double-precision evaluation of hdo expression graphs, for the
   solver adapters: a flat list of the nodes that some roots need, in
   ascending (topological) order, evaluated with the C library's double
   functions, as a user of a double-precision solver would. */
#ifndef HDO_IDA_DEVAL_H
#define HDO_IDA_DEVAL_H

#include "expr.h"

typedef struct {
    const hdo_expr_pool_struct *pool;
    slong nroots;
    hdo_expr *roots;
    slong ncode;
    int32_t *code;  /* the needed nodes, ascending */
    double *val;    /* val[node], for node <= the largest root */
    double *dval;   /* their directional derivatives (deval_eval_dual) */
    slong nvars;    /* VAR(var, order) reads vtab[order * nvars + var] */
    slong maxorder; /* largest order of a VAR node read */
} deval_struct;
typedef deval_struct deval_t[1];

/* Compiles roots[0..nroots) of pool.  Constants are rounded once to the
   nearest double.  nvars is the number of model variables. */
void deval_init(deval_t p, const hdo_expr_pool_t pool, const hdo_expr *roots,
                slong nroots, slong nvars);
void deval_clear(deval_t p);

/* Evaluates every root at time t with variable values from vtab
   (order-major, maxorder + 1 blocks of nvars) and writes them to out. */
void deval_eval(double *out, deval_t p, double t, const double *vtab);

/* Evaluates every root and its derivative along a direction: out as
   deval_eval, dout[i] the derivative of root i at (t, vtab) in the
   direction (dt, dvtab) (dvtab laid out like vtab): forward-mode
   differentiation of the graph in double precision, exact up to rounding
   (no difference quotient).  Conditions and the choice of an `if` branch
   have derivative 0 (the branch taken is differentiated). */
void deval_eval_dual(double *out, double *dout, deval_t p, double t, double dt,
                     const double *vtab, const double *dvtab);

#endif
