/* share.h -- internal: the Taylor series of functions of t alone, shared
   by the programs of one pool (share.c) */
#ifndef HDO_EXPR_SHARE_H
#define HDO_EXPR_SHARE_H

#include "expr.h"

/* Copies order k of slot i (share_ok) and its companion from the cache
   where the cache's entry was computed from the same bits as prog's
   slot would be; returns 1 then, 0 where it must be computed. */
int hdo_series_share_get(hdo_program_struct *prog, slong i, slong k);
/* Notes order k of slot i, just computed without error, in the cache
   (a new entry at k = 0, appended to the slot's entry at its end), or
   that slot i no longer follows an entry. */
void hdo_series_share_put(hdo_program_struct *prog, slong i, slong k, int ok);

#endif
