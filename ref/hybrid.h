/* hybrid.h -- the driver of a hybrid run: arcs of the Taylor integrator,
   event location on the dense output, transitions with resets and
   consistent reinitialisation, and the output tables. */
#ifndef HDO_HYBRID_H
#define HDO_HYBRID_H

#include "taylor.h"

typedef enum {
    HDO_EV_SWITCH, HDO_EV_SIMULTANEOUS, HDO_EV_SLIDING_START,
    HDO_EV_SLIDING_END, HDO_EV_ZENO, HDO_EV_REINIT_ADJUSTED
} hdo_event_kind;

typedef struct {
    long digits;          /* D */
    const char *every;    /* sampling step as text (exact), NULL: default */
    const char *until;    /* overrides until, NULL: model's */
    long max_steps;       /* 0: default */
    long max_events;      /* 0: default */
    const double *sample_times; /* when not NULL: sample exactly here */
    slong nsample_times;
} hdo_run_options;

/* One output row: time, mode index, the value of every model variable
   (NaN where the mode lacks it), at the run precision. */
typedef struct {
    mpfr_t time;
    slong mode;
    mpfr_ptr values;     /* model->nvars entries */
    int *present;
} hdo_row;

typedef struct {
    slong index;
    mpfr_t time;
    slong from, to;
    hdo_event_kind kind;
    const char *guard;   /* borrowed source text */
    mpfr_ptr left, right; /* states (model->nvars, NaN where absent) */
} hdo_event;

typedef struct {
    mpfr_prec_t prec;
    long digits;
    slong nrows, rows_alloc;
    hdo_row *rows;
    slong nevents, events_alloc;
    hdo_event *events;
    slong steps;
    slong *modes_used;    /* per mode: 1 if used */
    double max_residual;  /* largest constraint residual along all arcs */
    mpfr_t t0, t_end;
    double seconds;
} hdo_result_struct;
typedef hdo_result_struct hdo_result_t[1];

void hdo_result_init(hdo_result_t res);
void hdo_result_clear(hdo_result_t res);

/* Event location on one step (ref/hybrid/locate.c).

   S(s) = sum_{k < len} c[k] s^k is the Taylor series of a switching
   function over a step s in [0, H] (the integrator's guard series; c is
   a contiguous array of len coefficients).  The mode is feasible while
   S >= 0; an event is a sign change of S from positive to negative.

   Finds the first event in [0, H], certified: ball arithmetic (Arb) on
   the exact polynomial with subdivision, so two zeros close together are
   never mistaken for none.  A value |S(0)| <= tol (1 + max_k |c_k| H^k)
   is taken as an exact zero (Kunkel-Mehrmann, Remark 12): the zero at
   the start of an arc is then an event only if the first coefficient
   that matters over the step is negative (S leaves the surface into the
   infeasible side).  A tangency (S touching zero without crossing) is
   not an event.

   Returns HDO_EVENT with root set to the event's s in [0, H] (0 when the
   start itself is infeasible), refined by safeguarded Newton on the
   polynomial to about 2^(2-prec) H; or 0 when S stays feasible on the
   step.  root is rounded to its own precision. */
int hdo_event_locate(mpfr_t root, mpfr_srcptr c, slong len, const mpfr_t H,
                     const mpfr_t tol, mpfr_prec_t prec);

/* Runs the model.  Returns 0 or a negative status with err filled. */
int hdo_run(hdo_result_t res, hdo_model_t model, const hdo_run_options *opt,
            hdo_error_t *err);

#endif
