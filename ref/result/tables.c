/* tables.c -- trajectory.csv, events.csv and summary.json of a run, as cli.md
 * specifies */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"
#include "util.h"
#include "version.h"

/* D significant digits: one before the point, D - 1 after it, as
   mpfr_fprintf's "%.*Re" writes them (the same text): the digits of
   mpfr_get_str (rounded to nearest, as %Re is; here from
   hdo_decimal_get_str, the same digits from integer arithmetic), the
   exponent with a sign and at least two digits.  mpfr_fprintf parses
   its format, allocates and copies for every value: 40% more
   instructions for the 1,000-row default of trajectory.csv, and
   fprintf for the exponent 870 a value (issue 28).  Zeros, infinities
   and one digit (no point) go to mpfr_fprintf. */
static void
put_value(FILE *f, hdo_decimal_t dec, mpfr_srcptr x, long digits)
{
    char small[128], *s = small, ex[24];
    if (mpfr_nan_p(x))
        return; /* empty cell */
    if (!mpfr_regular_p(x) || digits < 2) {
        mpfr_fprintf(f, "%.*Re", (int)(digits - 1), x);
        return;
    }
    if ((size_t)digits + 2 > sizeof small) {
        s = malloc((size_t)digits + 2);
        HDO_ASSERT(s != NULL);
    }
    long x10 = (long)hdo_decimal_get_str(s, dec, (size_t)digits, x) - 1;
    const char *d = s[0] == '-' ? s + 1 : s;
    if (d != s)
        fputc('-', f);
    fputc(d[0], f);
    fputc('.', f);
    fputs(d + 1, f);
    /* e, the sign, at least two digits: written backwards */
    unsigned long a = x10 < 0 ? -(unsigned long)x10 : (unsigned long)x10;
    char *p = ex + sizeof ex;
    *--p = '\0';
    do {
        *--p = (char)('0' + a % 10);
        a /= 10;
    } while (a != 0);
    if (p[1] == '\0')
        *--p = '0';
    *--p = x10 < 0 ? '-' : '+';
    *--p = 'e';
    fputs(p, f);
    if (s != small)
        free(s);
}

/* A CSV cell with quotes when it holds a comma, a quote or a line end. */
static void
put_text(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int
io_status(FILE *f, hdo_error_t *err, const char *what)
{
    if (ferror(f))
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write %s: %s", what,
                             strerror(errno));
    return 0;
}

/* A mode's name (a mode id of model.h: a model mode, "sliding(A,B)",
   "sliding(A,B,C,D)"). */
static void
put_mode(FILE *f, const hdo_model_t model, slong m)
{
    char buf[512];
    hdo_mode_name(buf, sizeof buf, model, m);
    put_text(f, buf);
}

int
hdo_write_trajectory(FILE *f, const hdo_result_t res, const hdo_model_t model,
                     long digits, hdo_error_t *err)
{
    fputs("time,mode", f);
    for (slong v = 0; v < model->nvars; v++) {
        fputc(',', f);
        put_text(f, model->vars[v].name);
    }
    fputc('\n', f);
    hdo_decimal_t dec;
    hdo_decimal_init(dec);
    for (slong i = 0; i < res->nrows; i++) {
        const hdo_row *r = res->rows + i;
        put_value(f, dec, r->time, digits);
        fputc(',', f);
        put_mode(f, model, r->mode);
        for (slong v = 0; v < model->nvars; v++) {
            fputc(',', f);
            if (r->present[v])
                put_value(f, dec, r->values + v, digits);
        }
        fputc('\n', f);
    }
    hdo_decimal_clear(dec);
    return io_status(f, err, "trajectory.csv");
}

int
hdo_write_events(FILE *f, const hdo_result_t res, const hdo_model_t model,
                 long digits, hdo_error_t *err)
{
    fputs("index,time,from,to,kind,guard\n", f);
    hdo_decimal_t dec;
    hdo_decimal_init(dec);
    for (slong i = 0; i < res->nevents; i++) {
        const hdo_event *e = res->events + i;
        fprintf(f, "%ld,", (long)e->index);
        put_value(f, dec, e->time, digits);
        fputc(',', f);
        put_mode(f, model, e->from);
        fputc(',', f);
        put_mode(f, model, e->to);
        fprintf(f, ",%s,", hdo_event_kind_name(e->kind));
        put_text(f, e->guard != NULL ? e->guard : "");
        fputc('\n', f);
    }
    hdo_decimal_clear(dec);
    return io_status(f, err, "events.csv");
}

int
hdo_write_summary(FILE *f, const hdo_result_t res, const hdo_model_t model,
                  long verified_digits, hdo_error_t *err)
{
    int first = 1;
    fputs("{\n  \"model\": ", f);
    hdo_json_string(f, model->name);
    if (model->file != NULL) {
        fputs(",\n  \"file\": ", f);
        hdo_json_string(f, model->file);
    }
    fprintf(f, ",\n  \"digits\": %ld,\n  \"precision_bits\": %ld,\n",
            res->digits, (long)res->prec);
    fprintf(f, "  \"tolerance\": \"1e-%ld\",\n",
            res->digits + HDO_TOL_GUARD_DIGITS);
    fputs("  \"t0\": ", f);
    mpfr_fprintf(f, "%.*Re", (int)(res->digits - 1), res->t0);
    fputs(",\n  \"t_end\": ", f);
    mpfr_fprintf(f, "%.*Re", (int)(res->digits - 1), res->t_end);
    fprintf(f, ",\n  \"steps\": %ld,\n  \"events\": %ld,\n", (long)res->steps,
            (long)res->nevents);
    /* the model's modes in file order, then the sliding modes in the
       order they were first used */
    fputs("  \"modes\": [", f);
    for (slong k = 0; k < res->nmodes + res->nsliding; k++) {
        const hdo_mode_info *mi =
            k < res->nmodes ? res->modes + k : res->sliding + (k - res->nmodes);
        char name[512];
        if (!mi->used)
            continue;
        fputs(first ? "\n    {" : ",\n    {", f);
        first = 0;
        fputs("\"name\": ", f);
        hdo_mode_name(name, sizeof name, model, mi->mode);
        hdo_json_string(f, name);
        /* the sign patterns of a mode with relations share its name */
        if (mi->mode >= 0 && mi->mode < model->nmodes &&
            model->modes[mi->mode].pattern != NULL) {
            fputs(", \"sign_pattern\": ", f);
            hdo_json_string(f, model->modes[mi->mode].pattern);
        }
        fprintf(f,
                ", \"mu\": %ld, \"d\": %ld, \"a\": %ld, \"v\": %ld, "
                "\"index\": %ld, \"analysis\": \"%s\"",
                (long)mi->mu, (long)mi->d, (long)mi->a, (long)mi->v,
                (long)mi->index,
                mi->surfaces > 0  ? "filippov"
                : mi->km_fallback ? "km-fallback"
                : mi->from_km     ? "kunkel-mehrmann"
                                  : "reduced");
        if (mi->surfaces > 0)
            fprintf(f, ", \"surfaces\": %ld", (long)mi->surfaces);
        fputs("}", f);
    }
    fputs(first ? "],\n" : "\n  ],\n", f);
    fputs("  \"max_residual\": ", f);
    mpfr_fprintf(f, "%.3Re", res->max_residual);
    fprintf(f, ",\n  \"start_adjusted\": %s,\n",
            res->start_adjusted ? "true" : "false");
    fprintf(f, "  \"seconds\": %.3f", res->seconds);
    /* timing differs from run to run: comparisons of summaries skip
       "seconds" and "timing" (decisions.md D-050) */
    fprintf(f, ",\n  \"average_order\": %.2f",
            res->steps > 0 ? (double)res->order_sum / (double)res->steps : 0.0);
    fprintf(f,
            ",\n  \"timing\": {\"total_s\": %.6f, \"cpu_s\": %.6f, "
            "\"integration_s\": %.6f, \"events_s\": %.6f, "
            "\"reduction_s\": %.6f, \"reinit_s\": %.6f}",
            res->seconds, res->cpu_seconds, res->seconds_integration,
            res->seconds_events, res->seconds_reduction, res->seconds_reinit);
    /* What produced the result: hdo's version, the command line (when the
       caller recorded it) and every parameter's value, with the digits of
       the run.  The version and the command line (its output folder) are
       not compared between summaries (tools/refcompare.py). */
    fputs(",\n  \"hdo_version\": ", f);
    hdo_json_string(f, hdo_version());
    if (res->command_argv != NULL) {
        fputs(",\n  \"command_line\": [", f);
        for (int k = 0; k < res->command_argc; k++) {
            fputs(k > 0 ? ", " : "", f);
            hdo_json_string(f, res->command_argv[k]);
        }
        fputs("]", f);
    }
    fputs(",\n  \"parameters\": {", f);
    for (slong k = 0; k < model->nparams; k++) {
        mpfr_t x;
        mpfr_init2(x, res->prec > 0 ? res->prec : 64);
        fputs(k > 0 ? ", " : "", f);
        hdo_json_string(f, model->params[k].name);
        if (hdo_expr_eval_constant(x, model->pool, model->params[k].value) == 0)
            mpfr_fprintf(f, ": %.*Re", (int)(res->digits - 1), x);
        else
            fputs(": null", f);
        mpfr_clear(x);
    }
    fputs("}", f);
    if (verified_digits >= 0)
        fprintf(f, ",\n  \"verified_digits\": %ld", verified_digits);
    /* only when an event time is known to fewer digits than asked (a
       multiple root): the field's absence means all of them */
    if (res->event_digits >= 0)
        fprintf(f, ",\n  \"event_digits\": %ld, \"event_digits_index\": %ld",
                res->event_digits, (long)res->event_digits_index);
    /* only when a variable fell below its scale floor: those values
       have their digits absolutely, against the variable's scale */
    int any = 0;
    for (slong v = 0; v < res->nvars; v++) {
        slong row0, n = hdo_result_absolute(&row0, res, v);
        if (n == 0)
            continue;
        fputs(any ? ", " : ",\n  \"absolute_values\": {", f);
        any = 1;
        hdo_json_string(f, model->vars[v].name);
        mpfr_fprintf(f, ": {\"count\": %ld, \"from\": %.17Rg}", (long)n,
                     res->rows[row0].time);
    }
    if (any)
        fputs("}", f);
    /* only when the implicit method ran (absent: Taylor throughout), so
       that the golden references' summaries stay as they were */
    if (res->implicit_steps > 0 || res->method_switches > 0) {
        fprintf(f, ",\n  \"implicit_steps\": %ld, \"method_switches\": %ld",
                (long)res->implicit_steps, (long)res->method_switches);
        /* which method ran when: the last arc ends at the last row */
        fputs(",\n  \"method_arcs\": [", f);
        for (slong k = 0; k < res->nmethod_arcs; k++) {
            const hdo_method_arc *a = res->method_arcs + k;
            double end = a->t_end;
            if (k + 1 == res->nmethod_arcs && res->nrows > 0)
                end = mpfr_get_d(res->rows[res->nrows - 1].time, MPFR_RNDN);
            fprintf(f,
                    "%s{\"t_start\": %.17g, \"t_end\": %.17g, "
                    "\"method\": \"%s\"}",
                    k ? ", " : "", a->t_start, end, a->method);
        }
        fputs("]", f);
    }
    /* -p NAME=VALUE, as given ("parameters" above has every value): only
       when there are any, so that the summaries of plain runs (golden
       references) stay as they were */
    if (model->noverrides > 0) {
        fputs(",\n  \"overrides\": {", f);
        for (slong k = 0; k < model->noverrides; k++) {
            fputs(k ? ", " : "", f);
            hdo_json_string(f, model->overrides[k].name);
            fputs(": ", f);
            hdo_json_string(f, model->overrides[k].text);
        }
        fputs("}", f);
    }
    fputs("\n}\n", f);
    return io_status(f, err, "summary.json");
}
