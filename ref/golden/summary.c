/* summary.c -- golden references: summary.json and ref.json of the two
 * sides compared key by key (golden.h says which keys count) */
#include <stdlib.h>
#include <string.h>
#include "golden/cmp.h"

/* What produced the result, not what it is: never compared.  "file" is
   the model's path as given, which differs between folders. */
static const char *const not_compared[] = {"seconds", "timing", "hdo_version",
                                           "command_line", "file"};
/* The figures of the computation: notes when they change ("method_arcs":
   where --method auto switched, a choice of cost, decisions.md D-084;
   "absolute_values": which values fell below their scale floor, a count
   that noise at the floor moves while the values themselves are held by
   the trajectory's rule, decisions.md D-137; tools/refcompare.py's NOTED
   is the same list). */
static const char *const noted[] = {"steps",         "implicit_steps",
                                    "method_arcs",   "max_residual",
                                    "average_order", "absolute_values"};
/* The run's setting, compared first (part "options"). */
static const char *const setup[] = {"model", "digits",     "t0",
                                    "t_end", "parameters", "overrides"};

#define IN(list, key) in_list(list, sizeof list / sizeof *list, key)

static int
in_list(const char *const *list, size_t n, const char *key)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(list[k], key) == 0)
            return 1;
    return 0;
}

/* summary.json of one side, parsed; an object. */
static int
read_summary(hdo_json *v, const hdo_golden_files_t g, hdo_error_t *err)
{
    const int k = HDO_GOLDEN_SUMMARY;
    int st = hdo_json_parse(v, g->text[k], g->len[k], g->path[k], err);
    if (st == 0 && v->type != HDO_JSON_OBJECT) {
        st = hdo_error_set(err, HDO_ERR_INPUT, v->line, v->col,
                           "expected an object {...}");
        if (err != NULL)
            err->file = g->path[k];
    }
    return st;
}

int
gcmp_summaries_read(gcmp *x, const hdo_golden_files_t stored,
                    const hdo_golden_files_t fresh, hdo_error_t *err)
{
    int st;
    x->stored = stored;
    x->fresh = fresh;
    x->ta = stored->text[HDO_GOLDEN_SUMMARY];
    x->tb = fresh->text[HDO_GOLDEN_SUMMARY];
    hdo_golden_record_init(&x->ra);
    hdo_golden_record_init(&x->rb);
    st = read_summary(&x->sa, stored, err);
    if (st == 0)
        st = read_summary(&x->sb, fresh, err);
    x->records = stored->text[HDO_GOLDEN_RECORD] != NULL &&
                 fresh->text[HDO_GOLDEN_RECORD] != NULL;
    if (st == 0 && x->records)
        st = hdo_golden_record_read(&x->ra, stored->text[HDO_GOLDEN_RECORD],
                                    stored->len[HDO_GOLDEN_RECORD],
                                    stored->path[HDO_GOLDEN_RECORD], err);
    if (st == 0 && x->records)
        st = hdo_golden_record_read(&x->rb, fresh->text[HDO_GOLDEN_RECORD],
                                    fresh->len[HDO_GOLDEN_RECORD],
                                    fresh->path[HDO_GOLDEN_RECORD], err);
    return st;
}

void
gcmp_summaries_clear(gcmp *x)
{
    hdo_json_clear(&x->sa);
    hdo_json_clear(&x->sb);
    hdo_golden_record_clear(&x->ra);
    hdo_golden_record_clear(&x->rb);
}

long
gcmp_stored_digits(const gcmp *x, long need)
{
    const hdo_json *d = hdo_json_get(&x->sa, "digits");
    char *end;
    long n =
        d != NULL && d->type == HDO_JSON_NUMBER ? strtol(d->text, &end, 10) : 0;
    if (n < 1 || n > HDO_MAX_DIGITS || *end != '\0')
        n = need + 5;
    return n;
}

/* ------------------------------------------------------------------ */
/* ref.json */

static void
option_text(gcmp *x, const char *option, const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0))
        gcmp_diff(x, HDO_GOLDEN_RECORD, HDO_GOLDEN_PART_OPTIONS,
                  "option %s: stored %s, fresh %s", option,
                  a != NULL ? a : "(not given)", b != NULL ? b : "(not given)");
}

static void
option_number(gcmp *x, const char *option, long a, long b)
{
    char sa[32] = "(not given)", sb[32] = "(not given)";
    if (a == b)
        return;
    if (a > 0)
        snprintf(sa, sizeof sa, "%ld", a);
    if (b > 0)
        snprintf(sb, sizeof sb, "%ld", b);
    option_text(x, option, sa, sb);
}

/* The -p list of a record as one string ("e=0.7 g=10"), malloc'd. */
static char *
params_text(const hdo_golden_record *r)
{
    size_t n = 1;
    for (slong k = 0; k < r->nparams; k++)
        n += strlen(r->params[k]) + 1;
    char *s = calloc(n, 1);
    for (slong k = 0; s != NULL && k < r->nparams; k++) {
        if (k > 0)
            strcat(s, " ");
        strcat(s, r->params[k]);
    }
    return s;
}

void
gcmp_records(gcmp *x)
{
    static const char *const methods[] = {"auto", "taylor", "implicit"};
    const hdo_golden_record *a = &x->ra, *b = &x->rb;
    char *pa, *pb;
    if (!x->records)
        return;
    option_text(x, "model", a->model, b->model);
    option_number(x, "--digits", a->digits, b->digits);
    option_text(x, "--verify", a->verify ? "yes" : "no",
                b->verify ? "yes" : "no");
    option_text(x, "--every", a->every, b->every);
    option_text(x, "--until", a->until, b->until);
    option_text(x, "--method", methods[a->method], methods[b->method]);
    option_number(x, "--max-steps", a->max_steps, b->max_steps);
    option_number(x, "--max-events", a->max_events, b->max_events);
    pa = params_text(a);
    pb = params_text(b);
    if (pa == NULL || pb == NULL)
        x->oom = HDO_ERR_MEMORY;
    else
        option_text(x, "-p", *pa ? pa : NULL, *pb ? pb : NULL);
    free(pa);
    free(pb);
}

/* ------------------------------------------------------------------ */
/* summary.json */

/* "key K: stored A, fresh B" with both values as written (shortened). */
static void
key_diff(gcmp *x, int part, const char *label, const hdo_json *a,
         const hdo_json *b)
{
    char va[200], vb[200];
    hdo_json_show(va, sizeof va, x->ta, a);
    hdo_json_show(vb, sizeof vb, x->tb, b);
    gcmp_diff(x, HDO_GOLDEN_SUMMARY, part, "%s: stored %s, fresh %s", label, va,
              vb);
}

/* Every parameter by name, as a number relative to its own magnitude. */
static void
compare_parameters(gcmp *x, const hdo_json *a, const hdo_json *b)
{
    const int P = HDO_GOLDEN_PART_OPTIONS;
    char label[160];
    if (a->type != HDO_JSON_OBJECT || b->type != HDO_JSON_OBJECT) {
        if (!hdo_json_equal(a, b))
            key_diff(x, P, "key parameters", a, b);
        return;
    }
    for (slong k = 0; k < a->n; k++) {
        const hdo_json *pa = a->items + k, *pb = hdo_json_get(b, a->keys[k]);
        snprintf(label, sizeof label, "parameter %.100s", a->keys[k]);
        if (pb == NULL) {
            gcmp_diff(x, HDO_GOLDEN_SUMMARY, P, "%s: only in stored", label);
        } else if (pa->type == HDO_JSON_NUMBER && pb->type == HDO_JSON_NUMBER) {
            gcmp_parse(x->den, pa->text);
            mpfr_abs(x->den, x->den, MPFR_RNDN);
            if (mpfr_zero_p(x->den) || !mpfr_number_p(x->den))
                mpfr_set_ui(x->den, 1, MPFR_RNDN);
            mpfr_t scale;
            mpfr_init2(scale, x->prec);
            mpfr_set(scale, x->den, MPFR_RNDN);
            gcmp_number(x, HDO_GOLDEN_SUMMARY, P, label, pa->text, pb->text,
                        scale);
            mpfr_clear(scale);
        } else if (!hdo_json_equal(pa, pb)) {
            key_diff(x, P, label, pa, pb);
        }
    }
    for (slong k = 0; k < b->n; k++)
        if (hdo_json_get(a, b->keys[k]) == NULL)
            gcmp_diff(x, HDO_GOLDEN_SUMMARY, P,
                      "parameter %.100s: only in fresh", b->keys[k]);
}

/* One key present on both sides. */
static void
compare_key(gcmp *x, int part, const char *key, const hdo_json *a,
            const hdo_json *b)
{
    char label[160];
    snprintf(label, sizeof label, "key %.100s", key);
    if (strcmp(key, "parameters") == 0) {
        compare_parameters(x, a, b);
    } else if (IN(noted, key)) {
        if (!hdo_json_equal(a, b)) {
            char va[64], vb[64];
            hdo_json_show(va, sizeof va, x->ta, a);
            hdo_json_show(vb, sizeof vb, x->tb, b);
            gcmp_note(x, "%s %s -> %s", key, va, vb);
        }
    } else if (strcmp(key, "verified_digits") == 0) {
        long va = a->type == HDO_JSON_NUMBER ? atol(a->text) : 0;
        long vb = b->type == HDO_JSON_NUMBER ? atol(b->text) : 0;
        if (!hdo_json_equal(a, b))
            gcmp_note(x, "verified_digits %ld -> %ld", va, vb);
        if (va >= x->c->need && vb < x->c->need)
            gcmp_diff(x, HDO_GOLDEN_SUMMARY, part,
                      "verified_digits: stored %ld, fresh %ld (need %ld)", va,
                      vb, x->c->need);
    } else if ((strcmp(key, "t0") == 0 || strcmp(key, "t_end") == 0) &&
               a->type == HDO_JSON_NUMBER && b->type == HDO_JSON_NUMBER) {
        gcmp_number(x, HDO_GOLDEN_SUMMARY, part, label, a->text, b->text,
                    x->one);
    } else if (!hdo_json_equal(a, b)) {
        key_diff(x, part, label, a, b);
    }
}

/* A key of the stored or fresh summary (the other may lack it). */
static void
visit(gcmp *x, int part, const char *key)
{
    const hdo_json *a = hdo_json_get(&x->sa, key),
                   *b = hdo_json_get(&x->sb, key);
    if (IN(not_compared, key))
        return;
    if (a == NULL || b == NULL)
        gcmp_note(x, "%s only in %s", key, a != NULL ? "stored" : "fresh");
    else
        compare_key(x, part, key, a, b);
}

void
gcmp_summary_setup(gcmp *x)
{
    for (size_t k = 0; k < sizeof setup / sizeof *setup; k++)
        if (hdo_json_get(&x->sa, setup[k]) != NULL ||
            hdo_json_get(&x->sb, setup[k]) != NULL)
            visit(x, HDO_GOLDEN_PART_OPTIONS, setup[k]);
}

static int
by_name(const void *p, const void *q)
{
    return strcmp(*(char *const *)p, *(char *const *)q);
}

void
gcmp_summary_rest(gcmp *x)
{
    slong n = 0;
    const char **keys = malloc((size_t)(x->sa.n + x->sb.n + 1) * sizeof *keys);
    if (keys == NULL) {
        x->oom = HDO_ERR_MEMORY;
        return;
    }
    for (slong k = 0; k < x->sa.n; k++)
        keys[n++] = x->sa.keys[k];
    for (slong k = 0; k < x->sb.n; k++)
        if (hdo_json_get(&x->sa, x->sb.keys[k]) == NULL)
            keys[n++] = x->sb.keys[k];
    qsort(keys, (size_t)n, sizeof *keys, by_name);
    for (slong k = 0; k < n; k++)
        if (!IN(setup, keys[k]))
            visit(x, HDO_GOLDEN_PART_SUMMARY, keys[k]);
    free(keys);
}
