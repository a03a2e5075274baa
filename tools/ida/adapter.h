/* adapter.h -- the IDA adapter's run state, shared by session.c (a
   mode's IDA memory), direct.c (modes integrated as F(t, y, y') = 0) and
   hdo-ida.c (the driver), each calling only those before it. */
#ifndef HDO_IDA_ADAPTER_H
#define HDO_IDA_ADAPTER_H

#include <stdio.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunlinsol/sunlinsol_dense.h>
#include "model.h"
#include "reduce.h"
#include "deval.h"

/* A mode's IDA system.  Components [0, nstate) are the states of the
   reduced form (explicit first, then the implicit chains); after them:
   - Pryce's form (direct = 0): every unknown of the reduced form, the
     residuals der(x) - rhs, x^(k)' - x^(k+1) and h (rows nstate + k);
   - the direct form (direct = 1, direct.c): only the unknowns of order 0
     (algebraic variables); an unknown x^(d) with d >= 1 is the y' of the
     top state x^(d-1) of its chain, so h is F(t, y, y') itself. */
typedef struct {
    int built;
    int decided; /* the form was chosen (at the mode's first entry) */
    int direct;
    hdo_reduced_t r;
    slong n;         /* IDA size */
    slong *cvar;     /* model variable of component c */
    slong *cord;     /* its order */
    slong *deriv;    /* for an implicit state: component of its derivative
                        (direct form: -1 for the top of a chain) */
    slong *hrow;     /* the residual row of h_k */
    slong nu;        /* direct form: unknowns taken from y' */
    slong *u_slot;   /* their value-table index */
    slong *u_top;    /* the component whose y' they are */
    deval_t res;     /* roots: rhs[0..nexplicit), h[0..nh) */
    deval_t cons;    /* constraints */
    deval_t guards;  /* switching functions, file order */
    deval_t *assign; /* per when: the `with` right-hand sides */
    void *ida;
    N_Vector y, yp, id;
    SUNMatrix A;
    SUNLinearSolver LS;
    int *dirs;
} mode_data;

typedef struct {
    hdo_model_t model;
    slong nv;
    slong maxord;  /* vtab holds orders 0..maxord */
    double *vtab;  /* current values, order-major */
    double *dvtab; /* a direction for deval_eval_dual, laid out as vtab */
    double *gtab;  /* left-limit values carried across a transition */
    char *gvalid;
    double *start; /* var start values */
    char *has_start;
    mode_data *modes;
    slong cur;
    double hyst; /* shift of every switching function */
    SUNContext ctx;
    double rtol, atol, every;
    long last_steps; /* IDAGetNumSteps of the current mode's memory */
    /* output */
    FILE *out, *ev;
    FILE *ic; /* --ic: y, y' after every (re)initialisation, or NULL */
    double drift;
    long nevents, nsteps;
} run_ctx;

/* session.c */

extern const char *prog_name;

/* Exits with status 2 after "hdo-ida: error: " fmt (one %s: arg). */
void ida_die(const char *fmt, const char *arg);
/* Exits with status 2 naming the IDA function fn and its flag when flag
   is negative (an IDA failure). */
void ida_check_flag(int flag, const char *fn);

/* IDA's residual function of a mode in Pryce's form (ud: the run_ctx):
   der(x) - rhs, the chains x^(k)' - x^(k+1), and h. */
int ida_resfn(sunrealtype t, N_Vector y, N_Vector yp, N_Vector rr, void *ud);

/* The switching functions of md at (t, y, y') into g, each shifted by the
   hysteresis c->hyst. */
void ida_guards_at(double *g, run_ctx *c, mode_data *md, double t,
                   const double *y, const double *yp);

/* Writes the values y (and, in the direct form, the unknowns from yp) of
   mode md into the table tab (c->vtab or c->dvtab). */
void ida_load(double *tab, const run_ctx *c, const mode_data *md,
              const double *y, const double *yp);

/* (Re)creates md's IDA memory and vectors for its current size md->n,
   with the residual function res of its form (ida_resfn, or direct.c's
   direct_resfn), the guards as root functions. */
void ida_create(run_ctx *c, mode_data *md, slong m, IDAResFn res);
void ida_destroy(mode_data *md);

/* direct.c */

/* 1 when the Jacobian of h by the unknowns of Pryce's form of md is
   numerically singular at the values in md->y (ics_numeric_rank);
   *rank and *ratio get its rank and smallest pivot ratio. */
int direct_needed(run_ctx *c, mode_data *md, double t, slong *rank,
                  double *ratio);

/* Turns md (Pryce's layout, IDA memory not yet used) into the direct form
   and recreates its IDA memory. */
void direct_convert(run_ctx *c, mode_data *md, slong m);

/* IDA's residual function of a direct-form mode. */
int direct_resfn(sunrealtype t, N_Vector y, N_Vector yp, N_Vector rr, void *ud);

/* Consistent y' (and algebraic components) for the direct-form mode
   current in c at t, from the guesses in md->y, md->yp (icsing.h), then
   IDAReInit.  Exits with status 2 and a message when there is none. */
void direct_start(run_ctx *c, mode_data *md, double t);

#endif
