/* json.c -- the JSON reader of the golden module: summary.json and
 * ref.json read back, numbers kept as written */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpq.h>
#include "golden/json.h"
#include "model.h"

typedef struct {
    const char *s;
    size_t len, p;
    int line;
    size_t line_start;
    const char *file;
    hdo_error_t *err;
} reader;

static int fail(reader *r, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error at byte at of the text (on the current line). */
static int
fail(reader *r, size_t at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hdo_error_set(r->err, HDO_ERR_INPUT, r->line, (int)(at - r->line_start) + 1,
                  "%s", msg);
    if (r->err != NULL)
        r->err->file = r->file;
    return HDO_ERR_INPUT;
}

static int
nomem(reader *r)
{
    return hdo_error_set(r->err, HDO_ERR_MEMORY, 0, 0, "out of memory");
}

static void
skip_blanks(reader *r)
{
    while (r->p < r->len) {
        char c = r->s[r->p];
        if (c == '\n') {
            r->line++;
            r->line_start = r->p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        r->p++;
    }
}

/* What stands at p, for "found ...". */
static const char *
found(const reader *r, char *buf, size_t n)
{
    unsigned char c = r->p < r->len ? (unsigned char)r->s[r->p] : 0;
    if (r->p >= r->len)
        return "the end of the file";
    if (c < 0x20 || c >= 0x7f)
        snprintf(buf, n, "byte 0x%02X", c);
    else
        snprintf(buf, n, "'%c'", c);
    return buf;
}

static int
hex4(unsigned *u, const char *s)
{
    *u = 0;
    for (int k = 0; k < 4; k++) {
        int c = s[k], d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (d < 0)
            return -1;
        *u = *u * 16 + (unsigned)d;
    }
    return 0;
}

/* Appends the UTF-8 bytes of code point u to out (room for 4). */
static size_t
put_utf8(char *out, unsigned long u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xC0 | (u >> 6));
        out[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xE0 | (u >> 12));
        out[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        out[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (u >> 18));
    out[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    out[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* The escape at p (after the backslash) into out; advances p. */
static int
escape(reader *r, char *out, size_t *n)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *q =
        r->p < r->len && r->s[r->p] != '\0' ? strchr(from, r->s[r->p]) : NULL;
    unsigned u, lo;
    if (q != NULL) {
        out[(*n)++] = to[q - from];
        r->p++;
        return 0;
    }
    if (r->len - r->p < 5 || r->s[r->p] != 'u' || hex4(&u, r->s + r->p + 1))
        return fail(r, r->p - 1, "a bad escape in a string");
    r->p += 5;
    if (u >= 0xD800 && u < 0xDC00) {
        /* a surrogate pair: the second half must follow */
        if (r->len - r->p < 6 || r->s[r->p] != '\\' || r->s[r->p + 1] != 'u' ||
            hex4(&lo, r->s + r->p + 2) || lo < 0xDC00 || lo > 0xDFFF)
            return fail(r, r->p - 6, "a lone surrogate in a string");
        r->p += 6;
        *n += put_utf8(out + *n, 0x10000 + ((unsigned long)(u - 0xD800) << 10) +
                                     (lo - 0xDC00));
        return 0;
    }
    if (u == 0)
        return fail(r, r->p - 6, "\\u0000 in a string");
    if (u >= 0xDC00 && u < 0xE000)
        return fail(r, r->p - 6, "a lone surrogate in a string");
    *n += put_utf8(out + *n, u);
    return 0;
}

/* A string at p (the opening quote), decoded into a new buffer. */
static int
string(reader *r, char **out)
{
    size_t start = r->p++, n = 0;
    char *buf = malloc(r->len - start + 1); /* never longer than the text */
    if (buf == NULL)
        return nomem(r);
    for (;;) {
        unsigned char c = r->p < r->len ? (unsigned char)r->s[r->p] : 0;
        if (r->p >= r->len || c == '\n') {
            free(buf);
            return fail(r, start, "a string that does not end on its line");
        }
        if (c < 0x20) {
            free(buf);
            return fail(r, r->p, "a control character 0x%02X in a string", c);
        }
        r->p++;
        if (c == '"')
            break;
        if (c == '\\') {
            if (escape(r, buf, &n) != 0) {
                free(buf);
                return HDO_ERR_INPUT;
            }
            continue;
        }
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A number at p: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?, kept as written. */
static int
number(reader *r, hdo_json *v)
{
    size_t q = r->p;
    const char *s = r->s;
    if (q < r->len && s[q] == '-')
        q++;
    if (q < r->len && s[q] == '0')
        q++;
    else if (q < r->len && is_digit(s[q]))
        while (q < r->len && is_digit(s[q]))
            q++;
    else
        return fail(r, r->p, "a malformed number");
    if (q < r->len && s[q] == '.') {
        if (++q >= r->len || !is_digit(s[q]))
            return fail(r, r->p, "a malformed number");
        while (q < r->len && is_digit(s[q]))
            q++;
    }
    if (q < r->len && (s[q] == 'e' || s[q] == 'E')) {
        if (++q < r->len && (s[q] == '+' || s[q] == '-'))
            q++;
        if (q >= r->len || !is_digit(s[q]))
            return fail(r, r->p, "a malformed number");
        while (q < r->len && is_digit(s[q]))
            q++;
    }
    v->text = strndup(s + r->p, q - r->p);
    if (v->text == NULL)
        return nomem(r);
    v->type = HDO_JSON_NUMBER;
    r->p = q;
    return 0;
}

static int value(reader *r, hdo_json *v, int depth);

static int
push_item(reader *r, hdo_json *v)
{
    if (v->n == v->alloc) {
        slong a = v->alloc < 8 ? 8 : 2 * v->alloc;
        hdo_json *items = realloc(v->items, (size_t)a * sizeof *items);
        char **keys =
            items == NULL ? NULL : realloc(v->keys, (size_t)a * sizeof *keys);
        if (items != NULL)
            v->items = items;
        if (keys == NULL)
            return nomem(r);
        v->keys = keys;
        v->alloc = a;
    }
    memset(v->items + v->n, 0, sizeof *v->items);
    v->keys[v->n] = NULL;
    v->n++;
    return 0;
}

/* The members of an object or the items of an array, from after the
   opening bracket to after the closing one. */
static int
members(reader *r, hdo_json *v, int depth)
{
    int object = v->type == HDO_JSON_OBJECT, st;
    char close = object ? '}' : ']', buf[16];
    skip_blanks(r);
    if (r->p < r->len && r->s[r->p] == close) {
        r->p++;
        return 0;
    }
    for (;;) {
        if ((st = push_item(r, v)) != 0)
            return st;
        if (object) {
            size_t at = r->p;
            if (r->p >= r->len || r->s[r->p] != '"')
                return fail(r, r->p, "expected a key (a string), found %s",
                            found(r, buf, sizeof buf));
            if ((st = string(r, v->keys + v->n - 1)) != 0)
                return st;
            for (slong k = 0; k + 1 < v->n; k++)
                if (strcmp(v->keys[k], v->keys[v->n - 1]) == 0)
                    return fail(r, at, "the key \"%s\" appears twice",
                                v->keys[k]);
            skip_blanks(r);
            if (r->p >= r->len || r->s[r->p] != ':')
                return fail(r, r->p, "expected ':' after the key, found %s",
                            found(r, buf, sizeof buf));
            r->p++;
        }
        if ((st = value(r, v->items + v->n - 1, depth + 1)) != 0)
            return st;
        skip_blanks(r);
        if (r->p < r->len && r->s[r->p] == ',') {
            r->p++;
            skip_blanks(r);
            continue;
        }
        if (r->p < r->len && r->s[r->p] == close) {
            r->p++;
            return 0;
        }
        return fail(r, r->p, "expected ',' or '%c', found %s", close,
                    found(r, buf, sizeof buf));
    }
}

static int
word(reader *r, hdo_json *v, const char *w, hdo_json_type t)
{
    size_t n = strlen(w);
    if (r->len - r->p < n || memcmp(r->s + r->p, w, n) != 0)
        return 1;
    v->type = t;
    r->p += n;
    return 0;
}

static int
value(reader *r, hdo_json *v, int depth)
{
    char buf[16], c;
    int st;
    skip_blanks(r);
    v->line = r->line;
    v->col = (int)(r->p - r->line_start) + 1;
    v->off = r->p;
    if (depth > HDO_JSON_MAX_DEPTH)
        return fail(r, r->p, "nested more than %d levels", HDO_JSON_MAX_DEPTH);
    c = r->p < r->len ? r->s[r->p] : '\0';
    if (c == '{' || c == '[') {
        v->type = c == '{' ? HDO_JSON_OBJECT : HDO_JSON_ARRAY;
        r->p++;
        st = members(r, v, depth);
    } else if (c == '"') {
        v->type = HDO_JSON_STRING;
        st = string(r, &v->text);
    } else if (c == '-' || is_digit(c)) {
        st = number(r, v);
    } else if (word(r, v, "null", HDO_JSON_NULL) == 0 ||
               word(r, v, "true", HDO_JSON_TRUE) == 0 ||
               word(r, v, "false", HDO_JSON_FALSE) == 0) {
        st = 0;
    } else {
        return fail(r, r->p, "expected a value, found %s",
                    found(r, buf, sizeof buf));
    }
    v->len = r->p - v->off;
    return st;
}

int
hdo_json_parse(hdo_json *v, const char *text, size_t len, const char *file,
               hdo_error_t *err)
{
    reader r = {text, len, 0, 1, 0, file, err};
    char buf[16];
    int st;
    memset(v, 0, sizeof *v);
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        r.p = r.line_start = 3;
    if ((st = value(&r, v, 0)) != 0)
        return st;
    skip_blanks(&r);
    if (r.p < len)
        return fail(&r, r.p,
                    "expected the end of the file after the value, "
                    "found %s",
                    found(&r, buf, sizeof buf));
    return 0;
}

void
hdo_json_clear(hdo_json *v)
{
    for (slong k = 0; k < v->n; k++) {
        hdo_json_clear(v->items + k);
        free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    memset(v, 0, sizeof *v);
}

const hdo_json *
hdo_json_get(const hdo_json *v, const char *key)
{
    if (v == NULL || v->type != HDO_JSON_OBJECT)
        return NULL;
    for (slong k = 0; k < v->n; k++)
        if (strcmp(v->keys[k], key) == 0)
            return v->items + k;
    return NULL;
}

void
hdo_json_show(char *buf, size_t n, const char *text, const hdo_json *v)
{
    size_t k = 0;
    int blank = 0;
    if (n == 0)
        return;
    for (size_t i = 0; i < v->len && k + 1 < n; i++) {
        char c = text[v->off + i];
        int b = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (b && blank)
            continue;
        blank = b;
        buf[k++] = b ? ' ' : c;
    }
    buf[k] = '\0';
    if (k + 1 == n && k < v->len && n > 4)
        memcpy(buf + n - 4, "...", 4);
}

/* Numbers as exact decimals (hdo_parse_decimal); a number beyond its
   limits compares as text. */
static int
numbers_equal(const char *a, const char *b)
{
    fmpq_t x, y;
    int eq;
    if (strcmp(a, b) == 0)
        return 1;
    fmpq_init(x);
    fmpq_init(y);
    eq = hdo_parse_decimal(x, a, strlen(a)) == 0 &&
         hdo_parse_decimal(y, b, strlen(b)) == 0 && fmpq_equal(x, y);
    fmpq_clear(x);
    fmpq_clear(y);
    return eq;
}

int
hdo_json_equal(const hdo_json *a, const hdo_json *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case HDO_JSON_NULL:
    case HDO_JSON_FALSE:
    case HDO_JSON_TRUE:
        return 1;
    case HDO_JSON_NUMBER:
        return numbers_equal(a->text, b->text);
    case HDO_JSON_STRING:
        return strcmp(a->text, b->text) == 0;
    case HDO_JSON_ARRAY:
        if (a->n != b->n)
            return 0;
        for (slong k = 0; k < a->n; k++)
            if (!hdo_json_equal(a->items + k, b->items + k))
                return 0;
        return 1;
    case HDO_JSON_OBJECT:
        if (a->n != b->n)
            return 0;
        for (slong k = 0; k < a->n; k++) {
            const hdo_json *m = hdo_json_get(b, a->keys[k]);
            if (m == NULL || !hdo_json_equal(a->items + k, m))
                return 0;
        }
        return 1;
    }
    return 0;
}
