/* parse.h -- the parser's entry point (private to ref/model/) */
#ifndef HDO_MODEL_PARSE_H
#define HDO_MODEL_PARSE_H

#include "model.h"
#include "model/lex.h"

/* Parses the tokens of lx into model, whose pool and name table
   (model->names) exist and are empty.  Returns 0 or a negative status
   with err set (err->file is left to the caller). */
int hdo_model_parse_tokens(hdo_model_t model, hdo_lexed_struct *lx,
                           hdo_error_t *err);

#endif
