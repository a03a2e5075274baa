/* grow.c -- growable arrays: hdo_grow, the one growth rule of libhdo */
#include <stdint.h>
#include <stdlib.h>
#include "util.h"

int
hdo_grow(void **p, slong *alloc, slong need, size_t sz)
{
    slong cap = *alloc;
    void *q;
    if (need <= cap)
        return 0;
    if (cap < 16)
        cap = 16;
    while (cap < need) {
        if (cap > WORD_MAX / 2)
            return HDO_ERR_MEMORY;
        cap *= 2;
    }
    if ((size_t)cap > SIZE_MAX / sz)
        return HDO_ERR_MEMORY;
    q = realloc(*p, (size_t)cap * sz);
    if (q == NULL)
        return HDO_ERR_MEMORY;
    *p = q;
    *alloc = cap;
    return 0;
}
