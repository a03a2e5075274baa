/* cmp.c -- one comparison of golden references: its differences and
 * notes, and numbers compared to N significant digits (cmp.h); the
 * tables (compare.c) and the summaries (summary.c) report through it */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>
#include "golden.h"
#include "golden/cmp.h"

/* Scales below which a value is compared absolutely: 10^-5 of its
   column's largest magnitude (decisions.md, "Golden references"). */
#define FLOOR_DECADES 5

int
gcmp_diff(gcmp *x, int file, int part, const char *fmt, ...)
{
    hdo_golden_cmp_struct *c = x->c;
    va_list ap;
    char *msg = NULL;
    c->ndiffs++;
    c->parts[part]++;
    if (x->shown[file] >= HDO_GOLDEN_SHOWN) {
        c->more[file]++;
        return 0;
    }
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return x->oom = HDO_ERR_MEMORY;
    hdo_golden_diff *d = realloc(c->shown, (size_t)(c->nshown + 1) * sizeof *d);
    if (d == NULL) {
        free(msg);
        return x->oom = HDO_ERR_MEMORY;
    }
    c->shown = d;
    c->shown[c->nshown++] = (hdo_golden_diff){file, part, msg};
    x->shown[file]++;
    return 0;
}

int
gcmp_note(gcmp *x, const char *fmt, ...)
{
    hdo_golden_cmp_struct *c = x->c;
    char *msg = NULL, *all = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return x->oom = HDO_ERR_MEMORY;
    n = asprintf(&all, "%s%s%s", c->notes ? c->notes : "", c->notes ? "; " : "",
                 msg);
    free(msg);
    if (n < 0)
        return x->oom = HDO_ERR_MEMORY;
    free(c->notes);
    c->notes = all;
    return 0;
}

int
gcmp_parse(mpfr_t v, const char *s)
{
    char *end;
    if (*s == '\0')
        return -1;
    mpfr_strtofr(v, s, &end, 10, MPFR_RNDN);
    return *end != '\0' || !mpfr_number_p(v) ? -1 : 0;
}

void
gcmp_digits(gcmp *x, const mpfr_t a, const mpfr_t b, const mpfr_t scale)
{
    mpfr_sub(x->diff, a, b, MPFR_RNDN);
    mpfr_abs(x->diff, x->diff, MPFR_RNDN);
    if (mpfr_zero_p(x->diff)) {
        mpfr_set_si(x->d, x->c->cap, MPFR_RNDN);
        return;
    }
    mpfr_ui_pow_ui(x->den, 10, FLOOR_DECADES, MPFR_RNDN);
    mpfr_div(x->den, scale, x->den, MPFR_RNDN);
    if (mpfr_cmpabs(a, x->den) > 0)
        mpfr_abs(x->den, a, MPFR_RNDN);
    if (mpfr_cmpabs(b, x->den) > 0)
        mpfr_abs(x->den, b, MPFR_RNDN);
    mpfr_div(x->d, x->diff, x->den, MPFR_RNDN);
    mpfr_log10(x->d, x->d, MPFR_RNDN);
    mpfr_neg(x->d, x->d, MPFR_RNDN);
    if (mpfr_cmp_si(x->d, x->c->cap) > 0)
        mpfr_set_si(x->d, x->c->cap, MPFR_RNDN);
}

int
gcmp_number(gcmp *x, int file, int part, const char *label, const char *sa,
            const char *sb, const mpfr_t scale)
{
    double d;
    if (gcmp_parse(x->a, sa) != 0 || gcmp_parse(x->b, sb) != 0)
        return gcmp_diff(x, file, part,
                         "%s: not a number: stored '%s', fresh '%s'", label, sa,
                         sb);
    gcmp_digits(x, x->a, x->b, scale);
    d = mpfr_get_d(x->d, MPFR_RNDN);
    if (!(d >= x->c->worst))
        x->c->worst = d;
    if (mpfr_cmp_si(x->d, x->c->need) < 0)
        return gcmp_diff(x, file, part,
                         "%s: stored %s, fresh %s: %.1f digits (need %ld)",
                         label, sa, sb, d, x->c->need);
    return 0;
}
