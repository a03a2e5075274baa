/* names.c -- an open-addressing hash table of declared names, so that a
   model with 100000 modes resolves names in constant time */
#include <stdlib.h>
#include <string.h>
#include "model/names.h"

static uint64_t
hash_bytes(const char *s, size_t len)
{
    /* FNV-1a: short names, no adversary who could profit from
       collisions beyond slowing down his own parse. */
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

hdo_names *
hdo_names_new(void)
{
    return calloc(1, sizeof(hdo_names));
}

void
hdo_names_free(hdo_names *t)
{
    if (t != NULL)
        free(t->slots);
    free(t);
}

hdo_name_entry *
hdo_names_find(const hdo_names *t, const char *s, size_t len)
{
    uint64_t h;
    slong i;
    if (t == NULL || t->size == 0)
        return NULL;
    h = hash_bytes(s, len);
    for (i = (slong)(h & (uint64_t)(t->size - 1));;
         i = (i + 1) & (t->size - 1)) {
        hdo_name_entry *e = t->slots + i;
        if (e->kind == 0)
            return NULL;
        if (e->hash == h && e->len == len && memcmp(e->name, s, len) == 0)
            return e;
    }
}

static void
insert_slot(hdo_name_entry *slots, slong size, const hdo_name_entry *e)
{
    slong i = (slong)(e->hash & (uint64_t)(size - 1));
    while (slots[i].kind != 0)
        i = (i + 1) & (size - 1);
    slots[i] = *e;
}

hdo_name_entry *
hdo_names_add(hdo_names *t, const char *name, size_t len, int kind, slong index,
              slong tok)
{
    hdo_name_entry e;
    /* Keep the load at most one half, so that probes stay short. */
    if (2 * (t->count + 1) > t->size) {
        slong size = t->size ? 2 * t->size : 64, i;
        hdo_name_entry *slots = calloc((size_t)size, sizeof *slots);
        if (slots == NULL)
            return NULL;
        for (i = 0; i < t->size; i++)
            if (t->slots[i].kind != 0)
                insert_slot(slots, size, t->slots + i);
        free(t->slots);
        t->slots = slots;
        t->size = size;
    }
    memset(&e, 0, sizeof e);
    e.name = name;
    e.len = len;
    e.hash = hash_bytes(name, len);
    e.kind = kind;
    e.index = index;
    e.tok = tok;
    insert_slot(t->slots, t->size, &e);
    t->count++;
    return hdo_names_find(t, name, len);
}
