/* perp.h -- the expansion of modes with complementarity conditions into
   the modes of their active sets (private to ref/model/) */
#ifndef HDO_MODEL_PERP_H
#define HDO_MODEL_PERP_H

#include "model.h"

/* Replaces every mode of m with complementarity conditions (nperp > 0)
   by the 2^nperp modes of its active sets (model.h, hdo_mode: perp and
   cp_*); a model without conditions is left as it is.  Runs before
   hdo_model_expand_patterns, which keeps the cp fields.  Returns 0, or
   HDO_ERR_UNSUPPORTED with err set (the mode's place) beyond
   HDO_MODEL_MAX_PATTERN_MODES modes in all. */
int hdo_model_expand_perp(hdo_model_struct *m, hdo_error_t *err);

#endif
