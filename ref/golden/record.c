/* record.c -- ref.json, the options of a golden reference: written by
 * hdo ref write, read and checked by hdo ref compare */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "golden.h"
#include "golden/json.h"
#include "version.h"

static const char *const method_names[] = {"auto", "taylor", "implicit"};

void
hdo_golden_record_init(hdo_golden_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->digits = 30;
}

void
hdo_golden_record_clear(hdo_golden_record *rec)
{
    for (slong k = 0; k < rec->nparams; k++)
        free(rec->params[k]);
    free(rec->params);
    free(rec->model);
    free(rec->hdo_version);
    free(rec->every);
    free(rec->until);
    hdo_golden_record_init(rec);
}

/* A copy of s (NULL stays NULL) into *out: 0, or -1 out of memory. */
static int
copy(char **out, const char *s)
{
    *out = s != NULL ? strdup(s) : NULL;
    return s != NULL && *out == NULL ? -1 : 0;
}

static int
add_param(hdo_golden_record *rec, const char *nv)
{
    char **p = realloc(rec->params, (size_t)(rec->nparams + 1) * sizeof *p);
    if (p == NULL)
        return -1;
    rec->params = p;
    if (copy(p + rec->nparams, nv) != 0)
        return -1;
    rec->nparams++;
    return 0;
}

int
hdo_golden_record_set(hdo_golden_record *rec, const char *model, long digits,
                      int verify, const char *every, const char *until,
                      int method, long max_steps, long max_events,
                      const char *const *params, slong nparams)
{
    int bad = copy(&rec->model, model) | copy(&rec->every, every) |
              copy(&rec->until, until) | copy(&rec->hdo_version, hdo_version());
    rec->digits = digits;
    rec->verify = verify;
    rec->method = method;
    rec->max_steps = max_steps;
    rec->max_events = max_events;
    for (slong k = 0; k < nparams && !bad; k++)
        bad = add_param(rec, params[k]);
    return bad ? hdo_error_set(NULL, HDO_ERR_MEMORY, 0, 0, "out of memory") : 0;
}

/* A string or null, then ",\n" (last: "\n"). */
static void
put_string(FILE *f, const char *key, const char *s, int last)
{
    fprintf(f, "  \"%s\": ", key);
    if (s != NULL)
        hdo_json_string(f, s);
    else
        fputs("null", f);
    fputs(last ? "\n" : ",\n", f);
}

static void
put_count(FILE *f, const char *key, long n)
{
    if (n > 0)
        fprintf(f, "  \"%s\": %ld,\n", key, n);
    else
        fprintf(f, "  \"%s\": null,\n", key);
}

int
hdo_golden_record_write(FILE *f, const hdo_golden_record *rec, hdo_error_t *err)
{
    fprintf(f, "{\n  \"hdo_ref\": %d,\n", HDO_GOLDEN_FORMAT);
    put_string(f, "model", rec->model, 0);
    put_string(f, "hdo_version", rec->hdo_version, 0);
    fprintf(f, "  \"digits\": %ld,\n  \"verify\": %s,\n", rec->digits,
            rec->verify ? "true" : "false");
    put_string(f, "every", rec->every, 0);
    put_string(f, "until", rec->until, 0);
    put_string(f, "method", method_names[rec->method], 0);
    put_count(f, "max_steps", rec->max_steps);
    put_count(f, "max_events", rec->max_events);
    fputs("  \"params\": {", f);
    for (slong k = 0; k < rec->nparams; k++) {
        const char *nv = rec->params[k], *eq = strchr(nv, '=');
        char *name = strndup(nv, eq != NULL ? (size_t)(eq - nv) : strlen(nv));
        fputs(k > 0 ? ", " : "", f);
        hdo_json_string(f, name != NULL ? name : "");
        fputs(": ", f);
        hdo_json_string(f, eq != NULL ? eq + 1 : "");
        free(name);
    }
    fputs("}\n}\n", f);
    fflush(f);
    if (ferror(f))
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write ref.json");
    return 0;
}

/* ------------------------------------------------------------------ */

static int at(hdo_error_t *err, const char *file, const hdo_json *v,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* An error at value v of ref.json. */
static int
at(hdo_error_t *err, const char *file, const hdo_json *v, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hdo_error_set(err, HDO_ERR_INPUT, v->line, v->col, "%s", msg);
    if (err != NULL)
        err->file = file;
    return HDO_ERR_INPUT;
}

/* A whole number in [1, max] (a JSON number without fraction or
   exponent): 0 with *n, or -1. */
static int
whole(long *n, const hdo_json *v, long max)
{
    char *end;
    if (v->type != HDO_JSON_NUMBER)
        return -1;
    long x = strtol(v->text, &end, 10);
    if (*end != '\0' || x < 1 || x > max)
        return -1;
    *n = x;
    return 0;
}

/* An exact decimal option (every, until) as the command line reads it. */
static int
read_time(char **out, const hdo_json *v, const char *option, int positive,
          const char *file, hdo_error_t *err)
{
    fmpq_t q;
    int st;
    if (v->type == HDO_JSON_NULL)
        return 0;
    if (v->type != HDO_JSON_STRING)
        return at(err, file, v,
                  "%s: expected a decimal number as a string "
                  "(\"0.01\") or null",
                  option);
    hdo_error_t e;
    hdo_error_clear(&e);
    fmpq_init(q);
    st = hdo_run_parse_time(q, option, v->text, positive, &e);
    fmpq_clear(q);
    if (st != 0)
        return at(err, file, v, "%s", e.message);
    return copy(out, v->text) ? HDO_ERR_MEMORY : 0;
}

/* params: {"NAME": "VALUE", ...}, each checked as -p checks it. */
static int
read_params(hdo_golden_record *rec, const hdo_json *v, const char *file,
            hdo_error_t *err)
{
    if (v->type == HDO_JSON_NULL)
        return 0;
    if (v->type != HDO_JSON_OBJECT)
        return at(err, file, v,
                  "params: expected an object {\"NAME\": \"VALUE\", ...}");
    for (slong k = 0; k < v->n; k++) {
        const hdo_json *x = v->items + k;
        char *nv = NULL;
        hdo_model_t m;
        hdo_error_t e;
        int st;
        if (x->type != HDO_JSON_STRING)
            return at(err, file, x,
                      "params: the value of %s: expected a string (\"7/10\")",
                      v->keys[k]);
        if (asprintf(&nv, "%s=%s", v->keys[k], x->text) < 0)
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        /* checked as -p checks it: the value's syntax; whether NAME is
           a parameter is the model's to say when the reference reruns */
        hdo_error_clear(&e);
        hdo_model_init(m);
        st = hdo_model_add_override(m, nv, &e);
        hdo_model_clear(m);
        if (st == 0 && add_param(rec, nv) != 0)
            st = HDO_ERR_MEMORY;
        free(nv);
        if (st == HDO_ERR_INPUT)
            return at(err, file, x, "params: %s", e.message);
        if (st != 0)
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    }
    return 0;
}

/* One key of ref.json into rec. */
static int
read_key(hdo_golden_record *rec, const char *key, const hdo_json *v,
         const char *file, hdo_error_t *err)
{
    if (strcmp(key, "hdo_ref") == 0) {
        long n;
        if (whole(&n, v, INT_MAX) != 0 || n != HDO_GOLDEN_FORMAT)
            return at(err, file, v,
                      "hdo_ref: this hdo reads golden references of format "
                      "%d",
                      HDO_GOLDEN_FORMAT);
    } else if (strcmp(key, "model") == 0 || strcmp(key, "hdo_version") == 0) {
        char **out = key[0] == 'm' ? &rec->model : &rec->hdo_version;
        if (v->type == HDO_JSON_NULL && key[0] == 'h')
            return 0;
        if (v->type != HDO_JSON_STRING)
            return at(err, file, v, "%s: expected a string", key);
        if (copy(out, v->text) != 0)
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    } else if (strcmp(key, "digits") == 0) {
        if (whole(&rec->digits, v, HDO_MAX_DIGITS) != 0)
            return at(err, file, v, "digits: expected an integer from 1 to %d",
                      HDO_MAX_DIGITS);
    } else if (strcmp(key, "verify") == 0) {
        if (v->type != HDO_JSON_TRUE && v->type != HDO_JSON_FALSE)
            return at(err, file, v, "verify: expected true or false");
        rec->verify = v->type == HDO_JSON_TRUE;
    } else if (strcmp(key, "every") == 0 || strcmp(key, "until") == 0) {
        int every = key[0] == 'e';
        return read_time(every ? &rec->every : &rec->until, v,
                         every ? "every" : "until", every, file, err);
    } else if (strcmp(key, "method") == 0) {
        for (int k = 0; k < 3; k++)
            if (v->type == HDO_JSON_STRING &&
                strcmp(v->text, method_names[k]) == 0) {
                rec->method = k;
                return 0;
            }
        return at(err, file, v,
                  "method: expected \"auto\", \"taylor\" or \"implicit\"");
    } else if (strcmp(key, "max_steps") == 0 ||
               strcmp(key, "max_events") == 0) {
        long *n = key[4] == 's' ? &rec->max_steps : &rec->max_events;
        if (v->type != HDO_JSON_NULL && whole(n, v, LONG_MAX) != 0)
            return at(err, file, v, "%s: expected a positive integer or null",
                      key);
    } else if (strcmp(key, "params") == 0) {
        return read_params(rec, v, file, err);
    } else {
        return at(err, file, v,
                  "unknown key \"%s\" (ref.json holds hdo_ref, model, "
                  "hdo_version, digits, verify, every, until, method, "
                  "max_steps, max_events, params)",
                  key);
    }
    return 0;
}

int
hdo_golden_record_read(hdo_golden_record *rec, const char *text, size_t len,
                       const char *file, hdo_error_t *err)
{
    static const char *const required[] = {"hdo_ref", "model", "digits"};
    hdo_json root;
    int st = hdo_json_parse(&root, text, len, file, err);
    if (st == 0 && root.type != HDO_JSON_OBJECT)
        st = at(err, file, &root, "expected an object {...}");
    for (int k = 0; st == 0 && k < 3; k++)
        if (hdo_json_get(&root, required[k]) == NULL)
            st = at(err, file, &root, "the key \"%s\" is missing", required[k]);
    for (slong k = 0; st == 0 && k < root.n; k++)
        st = read_key(rec, root.keys[k], root.items + k, file, err);
    hdo_json_clear(&root);
    return st;
}

int
hdo_golden_record_options(hdo_run_options *opt, fmpq_t every, fmpq_t until,
                          const hdo_golden_record *rec, hdo_error_t *err)
{
    opt->digits = rec->digits;
    opt->method = rec->method;
    opt->max_steps = rec->max_steps;
    opt->max_events = rec->max_events;
    opt->every = NULL;
    opt->until = NULL;
    if (rec->every != NULL) {
        if (hdo_run_parse_time(every, "every", rec->every, 1, err) != 0)
            return HDO_ERR_INPUT;
        opt->every = every;
    }
    if (rec->until != NULL) {
        if (hdo_run_parse_time(until, "until", rec->until, 0, err) != 0)
            return HDO_ERR_INPUT;
        opt->until = until;
    }
    return 0;
}
