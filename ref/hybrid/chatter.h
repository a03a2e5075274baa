/* chatter.h -- private to the driver of hdo_run: the chattering policies
   (`chattering filippov | hysteresis D | stop`) as a table of strategies */
#ifndef HDO_HYBRID_CHATTER_H
#define HDO_HYBRID_CHATTER_H

#include "model.h"

/* One row per hdo_chattering value: everything the driver does
   differently under that policy.  The driver asks the row, never the
   policy itself, so a new policy is a new row (and its keyword in the
   parser, ref/model/parse_decls.c). */
typedef struct {
    hdo_chattering policy; /* the row's own index, checked by the tests */
    const char *keyword;   /* as written after `chattering` */
    /* On entering a mode: the guard compiled into its stepper in place of
       the switching function S (the surface the run actually watches).
       NULL keeps S. */
    hdo_expr (*guard)(hdo_model_struct *model, hdo_expr S);
    /* Whether a switch into a mode that at once switches back across the
       same surface starts Filippov sliding (filippov.c), and so whether
       sliding modes are ever built. */
    int sliding;
    /* On detected chattering (more than HDO_RUN_MAX_INSTANT instantaneous
       switches in a row, none of them sliding, Zeno or a livelock): the
       status the run fails with and the end of its message. */
    int status;
    const char *why;
} hdo_chatter_policy;

/* Returns the row of the model's chattering policy. */
const hdo_chatter_policy *hdo_run_chatter_policy(const hdo_model_struct *model);

/* The number of rows (one per hdo_chattering value), for the tests. */
extern const slong hdo_run_chatter_npolicies;
const hdo_chatter_policy *hdo_run_chatter_row(slong i);

#endif
