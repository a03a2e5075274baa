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

/* Runs the model.  Returns 0 or a negative status with err filled. */
int hdo_run(hdo_result_t res, hdo_model_t model, const hdo_run_options *opt,
            hdo_error_t *err);

#endif
