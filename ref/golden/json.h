/* json.h -- private: the JSON reader of the golden module (summary.json
   and ref.json, as hdo writes them, read back): a tree of values with
   their places in the text, numbers kept as their text so that no digit
   is lost. */
#ifndef HDO_GOLDEN_JSON_H
#define HDO_GOLDEN_JSON_H

#include <stddef.h>
#include <flint/flint.h>
#include "status.h"

typedef enum {
    HDO_JSON_NULL,
    HDO_JSON_FALSE,
    HDO_JSON_TRUE,
    HDO_JSON_NUMBER,
    HDO_JSON_STRING,
    HDO_JSON_ARRAY,
    HDO_JSON_OBJECT
} hdo_json_type;

/* Nesting deeper than this is refused (the reader is recursive; hdo's
   own files nest three levels). */
#define HDO_JSON_MAX_DEPTH 64

typedef struct hdo_json_struct {
    hdo_json_type type;
    int line, col;  /* where the value starts (1-based) */
    size_t off, len; /* its source text: text[off .. off + len) */
    /* NUMBER: the number as written; STRING: the decoded text (UTF-8,
       escapes resolved; a \u0000 is refused) */
    char *text;
    /* ARRAY, OBJECT: n items; OBJECT: their keys, in file order */
    slong n, alloc;
    struct hdo_json_struct *items;
    char **keys;
} hdo_json;

/* Parses text[0..len) as one JSON value (RFC 8259, with no duplicate
   key in an object) into v.  Returns 0, or HDO_ERR_INPUT with err's
   line and column at the first thing that is not JSON and err->file set
   to file (borrowed), or HDO_ERR_MEMORY.  v must be cleared in any case
   (hdo_json_clear). */
int hdo_json_parse(hdo_json *v, const char *text, size_t len,
                   const char *file, hdo_error_t *err);
void hdo_json_clear(hdo_json *v);

/* The member of object v with this key, or NULL (also when v is not an
   object). */
const hdo_json *hdo_json_get(const hdo_json *v, const char *key);

/* The source text of v with runs of blanks and line ends made one
   blank, cut to n - 1 bytes ("..." at the end when cut): for messages. */
void hdo_json_show(char *buf, size_t n, const char *text, const hdo_json *v);

/* 1 when a and b are the same value: the same type, strings equal,
   numbers equal as decimal numbers (1.0 and 1.00e0 are equal), arrays
   equal item by item, objects with the same keys in any order and
   equal members. */
int hdo_json_equal(const hdo_json *a, const hdo_json *b);

#endif
