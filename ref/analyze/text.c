/* text.c -- the text report of `hdo analyze` (docs/cli.md): per mode
 * its reduced form, mu/d/a/v with the rank gaps, the hidden constraints,
 * then the start mode's consistent initial point */
#include <math.h>
#include <stdlib.h>
#include "analyze.h"

static const char *
var_name(const hdo_model_t model, slong v)
{
    return model->vars[v].name;
}

/* " M rank 12 (gap 10^35.5)"; an infinite gap means nothing was
   dropped or the dropped singular values are exactly zero. */
static void
text_rank(FILE *out, const char *name, const hdo_rank_info *ri)
{
    fprintf(out, "%s rank %ld", name, (long)ri->rank);
    if (isfinite(ri->log10_gap))
        fprintf(out, " (gap 10^%.1f)", ri->log10_gap);
    else
        fputs(" (exact)", out);
}

static void
text_mode(FILE *out, hdo_model_t model, slong m, const hdo_analysis_mode *mi)
{
    const hdo_mode *mode = model->modes + m;
    const hdo_reduced_struct *r = mi->red;
    fprintf(out, "mode %s\n", mode->name);
    if (mode->pattern != NULL)
        fprintf(out, "  sign pattern: %s\n", mode->pattern);
    if (mode->nperp > 0) {
        char set[1024];
        hdo_analysis_active_set(set, sizeof set, mode);
        fprintf(out, "  active set: %s\n", set);
    }
    fputs("  variables: ", out);
    for (slong j = 0; j < mode->nvars; j++)
        fprintf(out, "%s%s", j ? ", " : "", var_name(model, mode->vars[j]));
    fputc('\n', out);
    if (!mi->reduced) {
        char buf[1400];
        hdo_error_format(buf, sizeof buf, &mi->err);
        fprintf(out, "  not analysed: %s\n\n", buf);
        return;
    }
    fputs("  explicit (der(x) = rhs):", out);
    for (slong i = 0; i < r->nexplicit; i++)
        fprintf(out, "%s %s", i ? "," : "",
                var_name(model, r->explicit_var[i]));
    if (r->nexplicit == 0)
        fputs(" none", out);
    fputs("\n  implicit (offset d):", out);
    for (slong j = 0; j < r->nimplicit; j++)
        fprintf(out, "%s %s (%ld)", j ? "," : "",
                var_name(model, r->implicit_var[j]), (long)r->d[j]);
    if (r->nimplicit == 0)
        fputs(" none", out);
    fputs("\n  Pryce offsets: c =", out);
    for (slong k = 0; k < mode->neqs; k++)
        fprintf(out, " %ld", (long)r->eq_c[k]);
    fputs(" (equations in order), d =", out);
    for (slong j = 0; j < mode->nvars; j++)
        fprintf(out, " %s:%ld", var_name(model, mode->vars[j]),
                (long)r->var_d[j]);
    fprintf(
        out,
        "\n  structural index %ld, %ld states, %ld constraints, %ld degrees "
        "of freedom\n",
        (long)r->index, (long)r->nstate, (long)r->ncons, (long)r->dof);
    if (mi->km_fallback) {
        char buf[1400];
        hdo_error_format(buf, sizeof buf, &mi->pryce_err);
        fprintf(out,
                "  analysis: km-fallback (Pryce's form is numerically "
                "singular: %s); the offsets, index and constraints are those "
                "of the equations transformed by the left null space of "
                "dF/dx'\n",
                buf);
        fputs("  derivative-array constraints:", out);
        for (slong i = 0; i < r->ncons; i++) {
            if (r->cons_order[i] != 0)
                continue;
            char *s =
                hdo_expr_to_string(model->pool, r->cons[i], model->var_names);
            fprintf(out, "\n    %s = 0", s);
            free(s);
        }
        fputc('\n', out);
    }
    if (mi->km_ok) {
        fprintf(out,
                "  strangeness index mu = %ld: d = %ld differential, a = %ld "
                "algebraic, v = %ld redundant%s\n",
                (long)mi->km.mu, (long)mi->km.d, (long)mi->km.a, (long)mi->km.v,
                mi->km.clear ? "" : " (a rank decision is not clear-cut)");
        fputs("  rank decisions:", out);
        text_rank(out, " M", &mi->km.rank_M);
        text_rank(out, ", A", &mi->km.rank_A);
        text_rank(out, ", D", &mi->km.rank_D);
        fputc('\n', out);
    } else {
        char buf[1400];
        hdo_error_format(buf, sizeof buf, &mi->err);
        fprintf(out, "  not analysed at a consistent point: %s\n", buf);
    }
    fputs("  hidden constraints:", out);
    int any = 0;
    for (slong i = 0; i < r->ncons; i++) {
        if (r->cons_order[i] == 0)
            continue;
        char *s = hdo_expr_to_string(model->pool, r->cons[i], model->var_names);
        fprintf(out, "\n    %s = 0", s);
        free(s);
        any = 1;
    }
    fputs(any ? "\n\n" : " none\n\n", out);
}

/* The start mode's consistent point, with how far each given start
   value moved. */
static void
initial_point(FILE *out, hdo_model_t model, const hdo_analysis_t an)
{
    const hdo_analysis_mode *sm = an->modes + an->start_mode;
    const hdo_mode *smode = model->modes + an->start_mode;
    int digits = (int)an->digits;
    mpfr_t dlt;
    mpfr_init2(dlt, an->prec);
    mpfr_fprintf(out, "consistent initial point of mode %s at t = %.*Rg:\n",
                 smode->name, digits, an->t0);
    for (slong j = 0; j < smode->nvars; j++) {
        slong v = smode->vars[j];
        mpfr_fprintf(out, "  %s = %.*Rg", var_name(model, v), digits,
                     hdo_analysis_value(sm, v));
        mpfr_sub(dlt, hdo_analysis_value(sm, v), an->start + v, MPFR_RNDN);
        if (!an->given[v])
            fputs("  (computed)", out);
        else if (!mpfr_zero_p(dlt))
            mpfr_fprintf(out, "  (start value changed by %.6Rg)", dlt);
        fputc('\n', out);
    }
    mpfr_clear(dlt);
}

void
hdo_analysis_write_text(FILE *out, hdo_model_t model, const hdo_analysis_t an)
{
    fprintf(out, "model %s (%s), %ld digits (%ld bits)\n\n", model->name,
            model->file, an->digits, (long)an->prec);
    for (slong m = 0; m < model->nmodes; m++)
        if (an->modes[m].possible)
            text_mode(out, model, m, an->modes + m);
    hdo_analysis_blocks_text(out, model, an);
    if (an->start_err.status == 0 && an->modes[an->start_mode].consistent)
        initial_point(out, model, an);
    else
        fprintf(out, "no consistent initial point of mode %s\n",
                model->modes[model->start_mode].name);
}
