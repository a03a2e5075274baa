/* filippov.h -- private to ref/reduce/: the helpers that the Filippov
   forms of a pair (filippov.c) and of a cube (filippov_cube.c) share */
#ifndef HDO_REDUCE_FILIPPOV_H
#define HDO_REDUCE_FILIPPOV_H

#include "reduce.h"

/* The variables of an expression (hdo_expr_foreach_var with collect),
   at most 64, each of order 0. */
typedef struct {
    slong var[64];
    slong n;
    int bad; /* a derivative, or too many variables */
} var_list;

static inline void
collect(slong var, slong order, void *data)
{
    var_list *l = data;
    if (order != 0 || l->n == 64) {
        l->bad = 1;
        return;
    }
    l->var[l->n++] = var;
}

/* The position of var among the explicit variables, or -1 if it is
   none (an index, not a status). */
static inline slong
explicit_index(const hdo_reduced_struct *r, slong var)
{
    for (slong i = 0; i < r->nexplicit; i++)
        if (r->explicit_var[i] == var)
            return i;
    return -1;
}

#endif
