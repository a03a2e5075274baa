/* analyze.h -- hdo analyze as a library function: per mode its reduced
   form (explicit/implicit split, Pryce offsets, hidden constraints), the
   Kunkel-Mehrmann analysis (mu, d, a, v, the singular-value gaps of the
   rank decisions) at a consistent point, and the consistent initial
   point of the start mode, all at the precision of a run at D digits.
   Nothing here prints on the terminal: oracle/cmd_analyze.c renders the
   text report; hdo_analysis_write_json writes the JSON one. */
#ifndef HDO_ANALYZE_H
#define HDO_ANALYZE_H

#include <stdio.h>
#include "km.h"
#include "reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is known about one mode. */
typedef struct {
    hdo_reduced_t red;
    int reduced;    /* hdo_reduce_mode succeeded */
    int consistent; /* a consistent point was found from the start values */
    int adjusted;   /* ... only by changing a given start value */
    int km_ok;      /* the Kunkel-Mehrmann analysis succeeded there */
    hdo_km_result km;
    /* The first failure (0: none), described by err.  fatal: it fails
       the analysis (a singular mode; at the start mode any failure).
       noted: it deserves a message of its own; every failure except an
       inconsistent start at a mode other than the start mode, whose
       start values need not fit it (the report still gives err). */
    int status, fatal, noted;
    hdo_error_t err;
    mpfr_ptr xs, xu; /* the consistent point (when consistent) */
    /* Pryce's form was numerically singular at the start and red is the
       Kunkel-Mehrmann fallback's (docs/decisions.md D-070); pryce_err says
       why */
    int km_fallback;
    hdo_error_t pryce_err;
    /* the mode can hold at the start: 1 unless it is a sign pattern
       (docs/model-format.md) whose relations are not all on its side at
       its consistent point; reports list only these */
    int possible;
} hdo_analysis_mode;

/* The well-posedness of one complementarity block
   (ref/analyze/complementarity.c; docs/cli.md): the block of mode (a
   mode with nperp > 0 whose active set is 0, one per sign pattern of its
   relations) and its linear complementarity form (reduce.h).  p: whether
   its matrix D = dB/dA is a P-matrix (1: every LCP at a point has one
   solution; 0: alpha the rows of a principal minor <= 0, minor its
   value, and when witness is 1 a right-hand side q with the two
   solutions z1 and z2 of LCP(q, D)); gp: whether its transfer matrix
   G(sigma) is a P-matrix for all large sigma (1: a unique forward
   solution from every consistent state; 0: galpha the rows of a
   principal minor whose series in 1/sigma leads with gcoef at order
   gorder, or vanishes, gorder -1).  Both -1 when there is no linear
   form (form.why says why). */
typedef struct {
    slong mode;
    hdo_cp_form form;
    int p, witness, gp;
    ulong alpha, galpha;
    fmpq_t minor, gcoef;
    slong gorder;
    fmpq_mat_t q, z1, z2;
} hdo_analysis_block;

typedef struct {
    long digits;
    mpfr_prec_t prec; /* hdo_run_prec(digits): a run's precision */
    mpfr_t t0;        /* the start time */
    slong nvars;
    mpfr_ptr start; /* every variable's start value (hdo_start_values) */
    int *given;     /* 1 where the model gives one */
    slong nmodes;
    hdo_analysis_mode *modes;
    slong start_mode; /* of a mode with relations, its first sign pattern
                         that holds at the start (mask order) */
    int failed;       /* some mode's failure is fatal */
    hdo_analysis_block *blocks; /* the complementarity blocks, by mode */
    slong nblocks;
    hdo_error_t start_err; /* no sign pattern holds at the start (failed) */
    /* the analysis' workspace (hdo_model_workspace_init): the reduced
       forms and constraints live in its expression pool, so the parsed
       model is never written; render the analysis with &a->work */
    hdo_model_struct work;
    int have_work;
    int live; /* private: 1 from hdo_analysis_init to hdo_analysis_clear */
} hdo_analysis_struct;
typedef hdo_analysis_struct hdo_analysis_t[1];

/* hdo_analysis_init makes an empty analysis; hdo_analyze fills it, and
   a second hdo_analyze of the same analysis first empties it (no
   modes of two analyses mixed, nothing leaked).  hdo_analysis_clear
   frees it; a second hdo_analysis_clear does nothing (clearing is
   idempotent), and hdo_analyze refuses a cleared analysis with
   HDO_ERR_INPUT until it is initialised again. */
void hdo_analysis_init(hdo_analysis_t a);
void hdo_analysis_clear(hdo_analysis_t a);

/* Analyses every mode of model at digits D (1 to HDO_MAX_DIGITS, as
   hdo_run): the reduced form; a
   consistent point from the start values at t0 (hdo_start_guess,
   hdo_consistent_init), the start values kept where possible; the
   Kunkel-Mehrmann analysis there (hdo_km_analyze).  A mode that fails
   is recorded in its entry (status, err) and the others go on.  Returns
   0 (then a->failed says whether a fatal failure occurred), or
   HDO_ERR_DOMAIN with err (file set) when the start time or a start
   value cannot be evaluated, or, before any work, HDO_ERR_INPUT with
   err->file NULL for a model that is not parsed (hdo_model_parsed), a
   cleared analysis, or digits outside 1 .. HDO_MAX_DIGITS. */
int hdo_analyze(hdo_analysis_t a, const hdo_model_struct *model, long digits,
                hdo_error_t *err);

/* Writes the analysis as the JSON document of `hdo analyze --json`
   (docs/cli.md): model, digits, precision_bits, per mode its reduced
   form, mu/d/a/v with the rank decisions (or why they are missing) and
   its hidden constraints, and the initial point (null when the start
   mode has no consistent point). */
void hdo_analysis_write_json(FILE *out, hdo_model_t model,
                             const hdo_analysis_t an);
/* Writes the analysis as the text report of `hdo analyze` (docs/cli.md):
   the modes that can hold at the start, each with its reduced form,
   mu/d/a/v with the rank gaps (or why they are missing) and its hidden
   constraints, then the start mode's consistent initial point. */
void hdo_analysis_write_text(FILE *out, hdo_model_t model,
                             const hdo_analysis_t an);

/* Fills a->blocks (ref/analyze/complementarity.c); part of
   hdo_analyze. */
void hdo_analysis_blocks(hdo_analysis_t a, hdo_model_struct *model);
void hdo_analysis_blocks_clear(hdo_analysis_t a);
/* "id = 0, -ud = 0": the equation of each condition of mode's active
   set (inactive: A = 0, active: B = 0). */
void hdo_analysis_active_set(char *buf, size_t n, const hdo_mode *mode);
/* The blocks' sections of the reports. */
void hdo_analysis_blocks_text(FILE *out, hdo_model_t model,
                              const hdo_analysis_t an);
void hdo_analysis_blocks_json(FILE *out, hdo_model_t model,
                              const hdo_analysis_t an);

/* The value of model variable v (order 0) at the consistent point of
   mode mi, or NULL when the mode lacks it. */
mpfr_srcptr hdo_analysis_value(const hdo_analysis_mode *mi, slong v);

#ifdef __cplusplus
}
#endif

#endif
