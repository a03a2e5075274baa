/* patterns.h -- the expansion of modes with relations into the modes of
   their sign patterns (private to ref/model/) */
#ifndef HDO_MODEL_PATTERNS_H
#define HDO_MODEL_PATTERNS_H

#include "model.h"

/* Replaces every mode of m whose expressions (equations, guards, resets)
   hold relations by the modes of their sign patterns (model.h, hdo_mode);
   a model without relations is left as it is.  Needs m->var_names (the
   pattern texts name the variables).  Returns 0, or HDO_ERR_UNSUPPORTED
   with err set (the mode's place) beyond HDO_MODEL_MAX_RELATIONS or
   HDO_MODEL_MAX_PATTERN_MODES. */
int hdo_model_expand_patterns(hdo_model_struct *m, hdo_error_t *err);

#endif
