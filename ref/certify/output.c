/* output.c -- certified.csv, certified_events.csv and summary.json's
   "certified" key, and the result folder of hdo run --certify */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "outdir.h"

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

/* A ball as arb_printn writes it: the midpoint to the digits its radius
   leaves correct (at most D + 5), "[m +/- r]", an exact value alone. */
static void
put_ball(FILE *f, const hdo_ball *b, long digits)
{
    arb_t x;
    arb_init(x);
    cert_ball_get_arb(x, b);
    char *s = arb_get_str(x, digits + 5, 0);
    fputs(s, f);
    flint_free(s);
    arb_clear(x);
}

static void
put_mode(FILE *f, const hdo_model_struct *model, slong m)
{
    char buf[512];
    hdo_mode_name(buf, sizeof buf, model, m);
    put_text(f, buf);
}

/* The comment line that says how far the file is certified. */
static void
put_status(FILE *f, const hdo_certified_struct *c)
{
    if (mpfr_nan_p(c->until))
        fputs("# certified until: nothing", f);
    else
        mpfr_fprintf(f, "# certified until t = %.17Rg", c->until);
    if (c->complete)
        fputs(": complete\n", f);
    else
        fprintf(f, "; not beyond: %s\n", c->reason);
}

static int
io_status(FILE *f, hdo_error_t *err, const char *what)
{
    if (ferror(f))
        return hdo_error_set(err, HDO_ERR_IO, 0, 0, "cannot write %s: %s", what,
                             strerror(errno));
    return 0;
}

int
hdo_certify_write_rows(FILE *f, const hdo_certified_t c,
                       const hdo_model_struct *model, hdo_error_t *err)
{
    put_status(f, c);
    fputs("time,mode", f);
    for (slong v = 0; v < model->nvars; v++) {
        fputc(',', f);
        put_text(f, model->vars[v].name);
    }
    fputc('\n', f);
    for (slong i = 0; i < c->nrows; i++) {
        const hdo_cert_row *r = c->rows + i;
        put_ball(f, &r->time, c->digits);
        fputc(',', f);
        put_mode(f, model, r->mode);
        for (slong v = 0; v < model->nvars; v++) {
            fputc(',', f);
            if (r->present[v])
                put_ball(f, r->values + v, c->digits);
        }
        fputc('\n', f);
    }
    return io_status(f, err, "certified.csv");
}

int
hdo_certify_write_events(FILE *f, const hdo_certified_t c,
                         const hdo_model_struct *model, hdo_error_t *err)
{
    put_status(f, c);
    fputs("index,time,from,to,kind,guard", f);
    for (int side = 0; side < 2; side++)
        for (slong v = 0; v < model->nvars; v++) {
            char name[600];
            snprintf(name, sizeof name, "%s%c", model->vars[v].name,
                     side ? '+' : '-');
            fputc(',', f);
            put_text(f, name);
        }
    fputc('\n', f);
    for (slong i = 0; i < c->nevents; i++) {
        const hdo_cert_event *e = c->events + i;
        fprintf(f, "%ld,", (long)e->event + 1);
        put_ball(f, &e->time, c->digits);
        fputc(',', f);
        put_mode(f, model, e->from);
        fputc(',', f);
        put_mode(f, model, e->to);
        fprintf(f, ",%s,", hdo_event_kind_name(e->kind));
        put_text(f, e->guard != NULL ? e->guard : "");
        for (int side = 0; side < 2; side++)
            for (slong v = 0; v < model->nvars; v++) {
                fputc(',', f);
                if (side ? e->right_present[v] : e->left_present[v])
                    put_ball(f, side ? e->right + v : e->left + v, c->digits);
            }
        fputc('\n', f);
    }
    return io_status(f, err, "certified_events.csv");
}

void
hdo_certify_write_json(FILE *f, const hdo_certified_t c)
{
    fputs("{\"until\": ", f);
    if (mpfr_nan_p(c->until))
        fputs("null", f);
    else
        mpfr_fprintf(f, "%.17Rg", c->until);
    fprintf(f, ", \"complete\": %s, \"min_digits\": %ld, \"where\": ",
            c->complete ? "true" : "false", c->min_digits);
    hdo_json_string(f, c->where);
    fputs(", \"method\": ", f);
    hdo_json_string(f, c->method);
    fputs(", \"reason\": ", f);
    hdo_json_string(f, c->reason);
    fprintf(f, ", \"steps\": %ld, \"cpu_s\": %.6f}", (long)c->steps,
            c->cpu_seconds);
}

static const char *const names[] = {"trajectory.csv", "events.csv",
                                    "summary.json", "certified.csv",
                                    "certified_events.csv"};

typedef struct {
    const hdo_result_struct *res;
    const hdo_model_struct *model;
    long verified;
    const hdo_certified_struct *cert;
} outputs_data;

/* summary.json as hdo_write_summary writes it, with the "certified" key
   added before its closing brace: the run's summary is written by the
   hybrid module, and this keeps the pass out of it. */
static int
write_summary(FILE *f, const outputs_data *d, hdo_error_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                             "cannot write summary.json: %s", strerror(errno));
    int st = hdo_write_summary(m, (hdo_result_struct *)d->res,
                               (hdo_model_struct *)d->model, d->verified, err);
    fclose(m);
    if (st == 0) {
        char *end = strrchr(buf, '}');
        if (end == NULL) {
            fputs(buf, f);
        } else {
            /* the last member's end: back over white space */
            char *q = end;
            while (q > buf && (q[-1] == '\n' || q[-1] == ' '))
                q--;
            fwrite(buf, 1, (size_t)(q - buf), f);
            fputs(",\n  \"certified\": ", f);
            hdo_certify_write_json(f, d->cert);
            fputc('\n', f);
            fputs(end, f);
        }
        st = io_status(f, err, "summary.json");
    }
    free(buf);
    return st;
}

static int
write_one(FILE *f, int i, void *data, hdo_error_t *err)
{
    const outputs_data *d = data;
    hdo_result_struct *res = (hdo_result_struct *)d->res;
    hdo_model_struct *model = (hdo_model_struct *)d->model;
    switch (i) {
    case 0:
        return hdo_write_trajectory(f, res, model, res->digits, err);
    case 1:
        return hdo_write_events(f, res, model, res->digits, err);
    case 2:
        if (d->cert == NULL)
            return hdo_write_summary(f, res, model, d->verified, err);
        return write_summary(f, d, err);
    case 3:
        return hdo_certify_write_rows(f, d->cert, model, err);
    default:
        return hdo_certify_write_events(f, d->cert, model, err);
    }
}

int
hdo_certify_outputs_prepare(const char *dir, hdo_error_t *err)
{
    hdo_outdir od = {dir, names, 5};
    return hdo_outdir_prepare(&od, err);
}

int
hdo_certify_outputs_write(const char *dir, const hdo_result_t res,
                          const hdo_model_t model, long verified_digits,
                          const hdo_certified_struct *cert, hdo_error_t *err)
{
    hdo_outdir od = {dir, names, cert != NULL ? 5 : 3};
    outputs_data d = {res, model, verified_digits, cert};
    return hdo_outdir_commit(&od, write_one, &d, err);
}
