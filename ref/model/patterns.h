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

/* The id of a lazy family's pattern (hdo_model_lazy_id, passed in so
   that the pattern builder does not depend on the registry). */
typedef slong (*hdo_pattern_lazy_id)(hdo_model_struct *m, slong family,
                                     slong mask, slong zmask);

/* A family under construction: its k relations d and the modes of its
   sign patterns (fam, by mask) and of its zero variants (zfam, nzero of
   them, in increasing zero_code). */
typedef struct {
    const hdo_expr *d;
    slong k;
    slong *fam;
    slong *zcode, *zfam;
    slong nzero;
    /* a lazy family (fam NULL): its patterns' ids come from the registry
       of model (ref/model/lazy.c), -1 beyond its capacity */
    hdo_model_struct *lazy_model;
    slong family;
    hdo_pattern_lazy_id lazy_id;
} hdo_pattern_family;

/* ref/model/pattern_build.c: fills *pm, the pattern (mask, zmask) of the
   mode src of family f (src is read before *pm is written, so pm == src
   is fine); the rank of a state of k relations in base 3 (relation j at
   digit j: 0 the < side, 1 the >= side, 2 zero); what a mode owns,
   freed (fields set to NULL are skipped). */
void hdo_model_build_pattern(hdo_model_struct *m, hdo_mode *pm,
                             const hdo_mode *src, slong family, slong mask,
                             slong zmask, const hdo_pattern_family *f);
slong hdo_model_zero_code(slong k, slong mask, slong zmask);

void hdo_model_mode_free(hdo_mode *mode);

/* Fills *out, the sign pattern mask of the lazy family (the file's mode
   file, its k relations d), in m's pool; its crossings' targets get ids
   from the registry (-1 beyond its capacity). */
void hdo_model_build_lazy_pattern(hdo_model_struct *m, hdo_mode *out,
                                  const hdo_mode *file, slong family,
                                  slong mask, const hdo_expr *d, slong k,
                                  hdo_pattern_lazy_id lazy_id);

/* The registry of lazily built sign patterns (ref/model/lazy.c).  init
   makes m's (its modes array has HDO_MODEL_MAX_LAZY_MODES slots);
   add_family records family (its name, relations and their texts)
   before its mask-0 pattern is built, keep_file_mode the file's mode
   after (the registry owns it then, name excepted).  lazy_id: the id of
   the pattern (mask, zmask) of family, registered if new (slot filled
   in the parsed model and in m); -1 for a zero variant or beyond the
   capacity.  free: the registry and the lazy slots of the parsed
   model. */
void hdo_model_lazy_init(hdo_model_struct *m);
void hdo_model_lazy_add_family(hdo_model_struct *m, slong family,
                               const hdo_mode *file, const hdo_expr *d,
                               slong k);
void hdo_model_lazy_keep_file_mode(hdo_model_struct *m, slong family,
                                   hdo_mode *file);
slong hdo_model_lazy_id(hdo_model_struct *m, slong family, slong mask,
                        slong zmask);
void hdo_model_lazy_free(hdo_model_struct *m);
/* For hdo_model_workspace_init / _clear: a workspace of a lazy model
   gets a modes array of its own (a copy of the slots so far), whose
   patterns it builds in its own pool. */
void hdo_model_lazy_workspace_init(hdo_model_struct *work,
                                   const hdo_model_struct *model);
void hdo_model_lazy_workspace_clear(hdo_model_struct *work);

#endif
