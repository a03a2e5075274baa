/* names.h -- the hash table of declared names (private to ref/model/) */
#ifndef HDO_MODEL_NAMES_H
#define HDO_MODEL_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include <flint/flint.h>

/* HDO_NAME_ARRAY: index into model->arrays; HDO_NAME_VAR also names each
   array element ("u[3]"). */
enum { HDO_NAME_PARAM = 1, HDO_NAME_VAR, HDO_NAME_MODE, HDO_NAME_ARRAY };

typedef struct {
    const char *name; /* borrowed from the model's param/var/mode */
    size_t len;
    uint64_t hash;
    int kind;    /* HDO_NAME_*, 0 for an empty slot */
    int defined; /* a parameter whose value has been parsed */
    slong index; /* into model->params, vars or modes */
    slong tok;   /* token of the first declaration */
} hdo_name_entry;

typedef struct {
    hdo_name_entry *slots;
    slong size; /* a power of two, or 0 */
    slong count;
} hdo_names;

/* Returns a new empty table, or NULL when out of memory. */
hdo_names *hdo_names_new(void);
void hdo_names_free(hdo_names *t);

/* The entry for s[0..len), or NULL. */
hdo_name_entry *hdo_names_find(const hdo_names *t, const char *s, size_t len);

/* Adds an entry for name (borrowed, NUL-terminated, length len) that
   must not be present yet; returns it, or NULL when out of memory.
   Entry pointers are invalidated by the next addition. */
hdo_name_entry *hdo_names_add(hdo_names *t, const char *name, size_t len,
                              int kind, slong index, slong tok);

#endif
