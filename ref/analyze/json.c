/* json.c -- hdo analyze --json: the analysis of every mode and the
 * consistent initial point as one JSON document */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "util.h"

static const char *
model_var(const hdo_model_t model, slong v)
{
    return model->vars[v].name;
}

static void
json_double(FILE *out, double x)
{
    if (isfinite(x))
        fprintf(out, "%.6g", x);
    else
        fputs("null", out);
}

static void
json_rank(FILE *out, const char *name, const hdo_rank_info *ri, int comma)
{
    fprintf(out, "%s\"%s\": {\"rank\": %ld, \"clear\": %s, \"log10_gap\": ",
            comma ? ", " : "", name, (long)ri->rank,
            ri->clear ? "true" : "false");
    json_double(out, ri->log10_gap);
    fputs(", \"last_kept\": ", out);
    json_double(out, ri->last_kept);
    fputs(", \"first_dropped\": ", out);
    json_double(out, ri->first_dropped);
    fputc('}', out);
}

static void
json_mode(FILE *out, hdo_model_t model, slong m, const hdo_analysis_mode *mi)
{
    const hdo_mode *mode = model->modes + m;
    const hdo_reduced_struct *r = mi->red;
    fputs("    {\"name\": ", out);
    hdo_json_string(out, mode->name);
    if (mode->pattern != NULL) {
        fputs(", \"sign_pattern\": ", out);
        hdo_json_string(out, mode->pattern);
    }
    fputs(", \"variables\": [", out);
    for (slong j = 0; j < mode->nvars; j++) {
        fputs(j ? ", " : "", out);
        hdo_json_string(out, model_var(model, mode->vars[j]));
    }
    fputc(']', out);
    if (mi->reduced) {
        fputs(", \"explicit\": [", out);
        for (slong i = 0; i < r->nexplicit; i++) {
            fputs(i ? ", " : "", out);
            hdo_json_string(out, model_var(model, r->explicit_var[i]));
        }
        fputs("], \"implicit\": {", out);
        for (slong j = 0; j < r->nimplicit; j++) {
            fputs(j ? ", " : "", out);
            hdo_json_string(out, model_var(model, r->implicit_var[j]));
            fprintf(out, ": %ld", (long)r->d[j]);
        }
        fputs("}, \"offsets\": {\"c\": [", out);
        for (slong k = 0; k < mode->neqs; k++)
            fprintf(out, "%s%ld", k ? ", " : "", (long)r->eq_c[k]);
        fputs("], \"d\": {", out);
        for (slong j = 0; j < mode->nvars; j++) {
            fputs(j ? ", " : "", out);
            hdo_json_string(out, model_var(model, mode->vars[j]));
            fprintf(out, ": %ld", (long)r->var_d[j]);
        }
        fprintf(out,
                "}}, \"structural_index\": %ld, \"states\": %ld, "
                "\"constraints\": %ld, \"dof\": %ld",
                (long)r->index, (long)r->nstate, (long)r->ncons, (long)r->dof);
        fprintf(out, ", \"analysis\": \"%s\"",
                mi->km_fallback ? "km-fallback" : "pryce");
        if (mi->km_fallback) {
            fputs(", \"derivative_array_constraints\": [", out);
            int first = 1;
            for (slong i = 0; i < r->ncons; i++) {
                if (r->cons_order[i] != 0)
                    continue;
                char *s = hdo_expr_to_string(model->pool, r->cons[i],
                                             model->var_names);
                fputs(first ? "" : ", ", out);
                hdo_json_string(out, s);
                free(s);
                first = 0;
            }
            fputc(']', out);
        }
    }
    if (mi->km_ok) {
        fprintf(out, ", \"mu\": %ld, \"d\": %ld, \"a\": %ld, \"v\": %ld",
                (long)mi->km.mu, (long)mi->km.d, (long)mi->km.a,
                (long)mi->km.v);
        fputs(", \"gaps\": {", out);
        json_rank(out, "M", &mi->km.rank_M, 0);
        json_rank(out, "A", &mi->km.rank_A, 1);
        json_rank(out, "D", &mi->km.rank_D, 1);
        fprintf(out, "}, \"clear\": %s", mi->km.clear ? "true" : "false");
    } else {
        char buf[1400];
        hdo_error_format(buf, sizeof buf, &mi->err);
        fputs(", \"mu\": null, \"d\": null, \"a\": null, \"v\": null, "
              "\"analysed_at_consistent_point\": false, \"reason\": ",
              out);
        hdo_json_string(out, buf);
    }
    fputs(", \"hidden_constraints\": [", out);
    if (mi->reduced) {
        int first = 1;
        for (slong i = 0; i < r->ncons; i++) {
            if (r->cons_order[i] == 0)
                continue;
            char *s =
                hdo_expr_to_string(model->pool, r->cons[i], model->var_names);
            size_t len = strlen(s);
            char *t = malloc(len + 5);
            memcpy(t, s, len);
            memcpy(t + len, " = 0", 5);
            fputs(first ? "" : ", ", out);
            hdo_json_string(out, t);
            free(t);
            free(s);
            first = 0;
        }
    }
    fputs("]}", out);
}

/* The start mode's consistent point: values and the start values that
   moved, with how far. */
static void
json_initial(FILE *out, hdo_model_t model, const hdo_analysis_t an)
{
    const hdo_analysis_mode *sm = an->modes + an->start_mode;
    const hdo_mode *smode = model->modes + an->start_mode;
    int digits = (int)an->digits, first = 1;
    mpfr_t dlt;
    mpfr_init2(dlt, an->prec);
    fputs("{\"mode\": ", out);
    hdo_json_string(out, smode->name);
    mpfr_fprintf(out, ", \"t\": %.*Rg, \"values\": {", digits, an->t0);
    for (slong j = 0; j < smode->nvars; j++) {
        slong v = smode->vars[j];
        fputs(j ? ", " : "", out);
        hdo_json_string(out, model_var(model, v));
        mpfr_fprintf(out, ": %.*Rg", digits, hdo_analysis_value(sm, v));
    }
    fputs("}, \"changed\": {", out);
    for (slong j = 0; j < smode->nvars; j++) {
        slong v = smode->vars[j];
        mpfr_sub(dlt, hdo_analysis_value(sm, v), an->start + v, MPFR_RNDN);
        if (!an->given[v] || mpfr_zero_p(dlt))
            continue;
        fputs(first ? "" : ", ", out);
        hdo_json_string(out, model_var(model, v));
        mpfr_fprintf(out, ": %.6Rg", dlt);
        first = 0;
    }
    fputs("}}\n}\n", out);
    mpfr_clear(dlt);
}

void
hdo_analysis_write_json(FILE *out, hdo_model_t model, const hdo_analysis_t an)
{
    fputs("{\n  \"model\": ", out);
    hdo_json_string(out, model->name);
    fprintf(out,
            ",\n  \"digits\": %ld,\n  \"precision_bits\": %ld,\n  "
            "\"modes\": [\n",
            an->digits, (long)an->prec);
    for (slong m = 0, first = 1; m < model->nmodes; m++) {
        if (!an->modes[m].possible)
            continue; /* a sign pattern that cannot hold at the start */
        fputs(first ? "" : ",\n", out);
        json_mode(out, model, m, an->modes + m);
        first = 0;
    }
    fputs("\n  ],\n  \"initial\": ", out);
    if (an->start_err.status == 0 && an->modes[an->start_mode].consistent)
        json_initial(out, model, an);
    else
        fputs("null\n}\n", out);
}
