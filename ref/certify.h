/* certify.h -- the certified pass (hdo run --certify): a second pass in
   ball arithmetic (Arb) along the arcs of a run, proving an enclosure of
   every value and event time (docs/certify.md). */
#ifndef HDO_CERTIFY_H
#define HDO_CERTIFY_H

#include <stdio.h>
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the set of states is carried from step to step (the wrapping
   effect; docs/decisions.md, "Certified pass: wrapping"):
   LOHNER    x in c + A r, A orthogonal from a QR factorisation of the
             step's Jacobian times the last A (Lohner 1987), the default;
   INTERVAL  x in c + r, the mean-value form wrapped into a box each step;
   AFFINE    x in c + C r0 + A r: first-order Taylor models in the start
             box r0 (C the product of the steps' Jacobians, its rounding
             moved into A r), the local errors wrapped as LOHNER (CAPD's
             doubleton). */
enum {
    HDO_CERTIFY_WRAP_LOHNER = 0,
    HDO_CERTIFY_WRAP_INTERVAL,
    HDO_CERTIFY_WRAP_AFFINE
};

/* Deliberate defects for the mutation tests (tests/certify/mutation.c,
   docs/decisions.md's boundary-test table): each must make a test fail.
   HDO_CERTIFY_MUTATE_NONE in every real run. */
enum {
    HDO_CERTIFY_MUTATE_NONE = 0,
    HDO_CERTIFY_MUTATE_NO_REMAINDER, /* the Lagrange remainder dropped */
    HDO_CERTIFY_MUTATE_NO_INFLATION, /* the a priori box not inflated (the
                                        enclosure check then never holds) */
    HDO_CERTIFY_MUTATE_EVENT_SHRINK  /* event-time balls shrunk by 2 */
};

typedef struct {
    int wrap;    /* HDO_CERTIFY_WRAP_*, default LOHNER */
    int mutate;  /* HDO_CERTIFY_MUTATE_*: tests only */
    slong order; /* Taylor order; 0: the run's (hdo_taylor_default_order) */
    slong lprec; /* bits of the low-precision parts; 0: 64 */
    slong extra; /* orders beyond order at the low precision, before the
                    remainder; -1: order / 2 */
    /* The run's end when it overrode the model's `until`
       (hdo_run_options.until); NULL: the model's.  The pass certifies
       the last row at this exact time, once it is proven to be the one
       the run rounded (else at the run's rounded end). */
    const fmpq *until;
} hdo_certify_options;

void hdo_certify_options_init(hdo_certify_options *opt);

/* A value proven to lie in [mid - rad, mid + rad]. */
typedef struct {
    mpfr_t mid; /* at the run's precision + 64 bits */
    mpfr_t rad; /* 64 bits, rounded up */
} hdo_ball;

/* A certified row of the plain run's trajectory. */
typedef struct {
    slong row;        /* its index in the run's rows */
    slong mode;       /* as the run's row */
    hdo_ball time;    /* exact for a sample, the event's ball for an
                         event row */
    hdo_ball *values; /* model->nvars; only where present */
    int *present;     /* 1 where the mode has the variable */
} hdo_cert_row;

/* A certified event: its time and the states before and after it. */
typedef struct {
    slong event; /* its index in the run's events */
    slong from, to;
    hdo_event_kind kind;
    const char *guard; /* borrowed, as the run's event */
    hdo_ball time;
    hdo_ball *left, *right; /* model->nvars each */
    int *left_present, *right_present;
} hdo_cert_event;

/* The result of a certified pass. */
typedef struct {
    long digits;
    mpfr_prec_t prec;
    slong nvars;
    /* 1 when every row and event of the run is certified: the pass
       reached the run's end */
    int complete;
    /* The time up to which every row is certified (the last certified
       row's time; the run's end when complete), and when not complete
       why it stopped: "<reason> (in mode M at t = T)", the mode and the
       time of the place (stop_time NaN when none). */
    mpfr_t until;
    char reason[1024];
    char stop_mode[256];
    double stop_time;
    /* The fewest correct significant digits any cell's radius guarantees
       (-1 when there is no cell), and that cell ("x at t = ... (row 12)").
       A value's digits: -log10(rad / scale), scale the larger of
       |value| - rad, the variable's magnitude over the run's step that
       produced it (the row's mag) and its nominal value; an event time's
       relative to max(|t0|, |t_end|), as --verify counts them.  A ball
       of radius 0 is exact and not counted. */
    long min_digits;
    char where[512];
    char method[256]; /* "taylor order 48, lohner-qr, ..." */
    slong nrows, nevents;
    hdo_cert_row *rows;
    hdo_cert_event *events;
    slong steps;        /* validated steps */
    slong tries;        /* remainder evaluations (steps + retries) */
    double cpu_seconds; /* CPU time of the pass (its thread) */
    unsigned long live; /* private */
} hdo_certified_struct;
typedef hdo_certified_struct hdo_certified_t[1];

/* hdo_certified_init makes an empty result; hdo_certified_clear frees it
   (a second clear does nothing; a cleared result must be initialised
   again before hdo_certify takes it). */
void hdo_certified_init(hdo_certified_t c);
void hdo_certified_clear(hdo_certified_t c);

/* Returned by hdo_certify when the pass stopped before the run's end: a
   normal stop (positive), not a failure. */
#define HDO_CERTIFY_STOPPED 1

/* The certified pass along the run res of model (res from hdo_run with
   its rows stored: no row sink): every row and event of res, up to where
   the pass stops, as balls that contain the exact solution of the model
   (model-format.md: exact parameters and constants; docs/certify.md says
   what is proven, and where the pass stops).  What cert holds is
   replaced.  Returns 0 when the whole run is certified,
   HDO_CERTIFY_STOPPED when it is certified only up to cert->until
   (cert->reason says why), or HDO_ERR_INPUT (err filled, err->file
   NULL) for arguments it refuses: a model not parsed, a cleared result
   or one without rows (a row sink), a result of another model. */
int hdo_certify(hdo_certified_t cert, const hdo_result_t res,
                const hdo_model_struct *model, const hdo_certify_options *opt,
                hdo_error_t *err);

/* The digits a ball guarantees against scale (a positive magnitude, or
   <= 0 for the ball's own): -log10(rad / max(|mid| - rad, scale)),
   +infinity for rad 0, 0 when the ball holds 0 and scale <= 0. */
double hdo_ball_digits(const hdo_ball *b, double scale);

/* certified.csv: the header of trajectory.csv after a comment line
   "# certified until T: complete" or "# certified until T; not beyond:
   REASON"; then the certified rows, every numeric cell a ball as
   arb_printn writes it ("[m +/- r]", its midpoint to the digits the
   radius allows, an exact value without the radius), empty cells where
   the mode lacks the variable.  certified_events.csv: the same comment
   line, then "index,time,from,to,kind,guard" and the variables twice,
   "<var>-" before and "<var>+" after the event.  Return 0 or
   HDO_ERR_IO (err filled). */
int hdo_certify_write_rows(FILE *f, const hdo_certified_t c,
                           const hdo_model_struct *model, hdo_error_t *err);
int hdo_certify_write_events(FILE *f, const hdo_certified_t c,
                             const hdo_model_struct *model, hdo_error_t *err);
/* The value of summary.json's "certified" key: {"until": T, "complete":
   true|false, "min_digits": k, "where": "...", "method": "...",
   "reason": "...", "steps": n, "cpu_s": s}. */
void hdo_certify_write_json(FILE *f, const hdo_certified_t c);

/* The result folder of `hdo run --certify` (docs/cli.md): as
   hdo_run_outputs_prepare and hdo_run_outputs_write, with certified.csv
   and certified_events.csv beside the three files, and summary.json's
   "certified" key; cert NULL writes the three files of a run without
   the pass.  Prepare refuses, and removes, the five files (a run without
   --certify must not leave an earlier certified.csv beside a new
   trajectory). */
int hdo_certify_outputs_prepare(const char *dir, hdo_error_t *err);
int hdo_certify_outputs_write(const char *dir, const hdo_result_t res,
                              const hdo_model_t model, long verified_digits,
                              const hdo_certified_struct *cert,
                              hdo_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
