/* alloc.c -- allocation that asserts: for the library's own tables,
 * whose failure is a bug or an exhausted machine, not an input error */
#include <stdlib.h>
#include "util.h"

void *
hdo_xmalloc(slong n, size_t size)
{
    void *p = malloc((n > 0 ? (size_t)n : 1) * size);
    HDO_ASSERT(p != NULL);
    return p;
}

void *
hdo_xcalloc(slong n, size_t size)
{
    void *p = calloc(n > 0 ? (size_t)n : 1, size);
    HDO_ASSERT(p != NULL);
    return p;
}
