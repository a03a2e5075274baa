/* cmd_analyze.c -- hdo analyze: structure, strangeness index, hidden
 * constraints and consistent start of every mode */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "km.h"
#include "reduce.h"

static void
usage(FILE *out)
{
    fprintf(
        out,
        "usage: hdo analyze MODEL [--json] [-d|--digits D] [-p NAME=VALUE]...\n"
        "\n"
        "For each mode: its variables, the explicit/implicit split and\n"
        "Pryce offsets of the index reduction, the strangeness index mu\n"
        "and the counts d, a, v (Kunkel-Mehrmann) with the singular value\n"
        "gaps the rank decisions rest on, the hidden constraints, and a\n"
        "consistent initial point of the start mode (start values kept\n"
        "where possible).  Exit 0, or 2 for a model error, a singular\n"
        "mode or an inconsistent start.\n");
}

/* What is known about one mode. */
typedef struct {
    hdo_reduced_t red;
    int reduced;    /* hdo_reduce_mode succeeded */
    int consistent; /* a consistent point was found */
    int km_ok;
    hdo_km_result km;
    hdo_error_t err; /* the first failure */
    mpfr_ptr xs, xu; /* the consistent point */
} mode_info;

/* Start values of every model variable (0 where none is given). */
static int
start_values(mpfr_ptr val, int *given, const hdo_model_t model,
             hdo_error_t *err)
{
    for (slong i = 0; i < model->nvars; i++) {
        given[i] = model->vars[i].start != HDO_EXPR_NONE;
        mpfr_set_ui(val + i, 0, MPFR_RNDN);
        if (given[i] && hdo_expr_eval_constant(val + i, model->pool,
                                               model->vars[i].start) != 0)
            return hdo_error_set(err, HDO_ERR_DOMAIN, model->vars[i].pos.line,
                                 model->vars[i].pos.col,
                                 "the start value of %s is undefined",
                                 model->vars[i].name);
    }
    return 0;
}

static mpfr_srcptr value_of(const mode_info *mi, slong v);

/* Whether the sign pattern of mode m can hold at the start: every
   relation of the pattern is on its side (within 2^(32-prec)) at the
   consistent point of mi.  A mode without relations can. */
static int
pattern_possible(hdo_model_t model, slong m, const mode_info *mi,
                 const mpfr_t t0, mpfr_prec_t prec)
{
    const hdo_mode *mode = model->modes + m;
    if (mode->pattern == NULL)
        return 1;
    if (!mi->consistent)
        return 0;
    slong k = mode->nrel, first = mode->nwhens - k;
    hdo_expr *g = malloc(k * sizeof *g);
    for (slong j = 0; j < k; j++)
        g[j] = mode->whens[first + j].guard;
    hdo_program_t prog;
    hdo_program_init(prog, model->pool, g, k, prec);
    free(g);
    int ok = 1;
    for (slong i = 0; i < prog->ninputs && ok; i++) {
        mpfr_srcptr v = value_of(mi, prog->inputs[i].var);
        if (v == NULL || prog->inputs[i].order != 0)
            ok = 0;
        else
            mpfr_set(prog->value[prog->inputs[i].slot], v, MPFR_RNDN);
    }
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t0, MPFR_RNDN);
    hdo_expr bad;
    if (ok && hdo_program_eval(prog, &bad) != 0)
        ok = 0;
    for (slong j = 0; j < k && ok; j++) {
        mpfr_srcptr v = prog->value[prog->root_slot[j]];
        if (mpfr_sgn(v) < 0 && mpfr_get_exp(v) > 32 - (mpfr_exp_t)prec)
            ok = 0;
    }
    hdo_program_clear(prog);
    return ok;
}

/* Consistent point of a reduced mode from the start values: given values
   of order 0 are kept where possible, everything else is a free guess. */
static int
init_mode(mode_info *mi, hdo_model_t model, const mpfr_t t, mpfr_srcptr val,
          const int *given, mpfr_prec_t prec)
{
    const hdo_reduced_struct *r = mi->red;
    int *fixed = calloc(r->nstate + 1, sizeof(int));
    int adjusted, st;
    mi->xs = hdo_vec_init(r->nstate, prec);
    mi->xu = hdo_vec_init(r->nimplicit, prec);
    for (slong i = 0; i < r->nstate; i++) {
        mpfr_set_ui(mi->xs + i, 0, MPFR_RNDN);
        if (r->state[i].order == 0) {
            mpfr_set(mi->xs + i, val + r->state[i].var, MPFR_RNDN);
            fixed[i] = given[r->state[i].var];
        }
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        mpfr_set_ui(mi->xu + j, 0, MPFR_RNDN);
        if (r->unknown[j].order == 0)
            mpfr_set(mi->xu + j, val + r->unknown[j].var, MPFR_RNDN);
    }
    st = hdo_consistent_init(mi->xs, mi->xu, &adjusted, model, r, t, fixed,
                             prec, &mi->err);
    free(fixed);
    mi->consistent = st == 0;
    return st;
}

/* Value of model variable v (order 0) at the consistent point of mi. */
static mpfr_srcptr
value_of(const mode_info *mi, slong v)
{
    const hdo_reduced_struct *r = mi->red;
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == v && r->state[i].order == 0)
            return mi->xs + i;
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].var == v && r->unknown[j].order == 0)
            return mi->xu + j;
    return NULL;
}

static void
json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
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
print_error(const hdo_error_t *err)
{
    char buf[1400];
    hdo_error_format(buf, sizeof buf, err);
    fprintf(stderr, "%s\n", buf);
}

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
text_mode(FILE *out, hdo_model_t model, slong m, const mode_info *mi)
{
    const hdo_mode *mode = model->modes + m;
    const hdo_reduced_struct *r = mi->red;
    fprintf(out, "mode %s\n", mode->name);
    if (mode->pattern != NULL)
        fprintf(out, "  sign pattern: %s\n", mode->pattern);
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

static void
json_mode(FILE *out, hdo_model_t model, slong m, const mode_info *mi)
{
    const hdo_mode *mode = model->modes + m;
    const hdo_reduced_struct *r = mi->red;
    fputs("    {\"name\": ", out);
    json_string(out, mode->name);
    if (mode->pattern != NULL) {
        fputs(", \"sign_pattern\": ", out);
        json_string(out, mode->pattern);
    }
    fputs(", \"variables\": [", out);
    for (slong j = 0; j < mode->nvars; j++) {
        fputs(j ? ", " : "", out);
        json_string(out, var_name(model, mode->vars[j]));
    }
    fputc(']', out);
    if (mi->reduced) {
        fputs(", \"explicit\": [", out);
        for (slong i = 0; i < r->nexplicit; i++) {
            fputs(i ? ", " : "", out);
            json_string(out, var_name(model, r->explicit_var[i]));
        }
        fputs("], \"implicit\": {", out);
        for (slong j = 0; j < r->nimplicit; j++) {
            fputs(j ? ", " : "", out);
            json_string(out, var_name(model, r->implicit_var[j]));
            fprintf(out, ": %ld", (long)r->d[j]);
        }
        fputs("}, \"offsets\": {\"c\": [", out);
        for (slong k = 0; k < mode->neqs; k++)
            fprintf(out, "%s%ld", k ? ", " : "", (long)r->eq_c[k]);
        fputs("], \"d\": {", out);
        for (slong j = 0; j < mode->nvars; j++) {
            fputs(j ? ", " : "", out);
            json_string(out, var_name(model, mode->vars[j]));
            fprintf(out, ": %ld", (long)r->var_d[j]);
        }
        fprintf(out,
                "}}, \"structural_index\": %ld, \"states\": %ld, "
                "\"constraints\": %ld, \"dof\": %ld",
                (long)r->index, (long)r->nstate, (long)r->ncons, (long)r->dof);
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
        json_string(out, buf);
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
            json_string(out, t);
            free(t);
            free(s);
            first = 0;
        }
    }
    fputs("]}", out);
}

int
hdo_cmd_analyze(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, digits = 30, code = 0;
    hdo_model_t model;
    hdo_error_t err;
    mpfr_prec_t prec;
    mpfr_ptr val = NULL;
    int *given = NULL, *possible = NULL;
    mode_info *mi = NULL;
    mpfr_t t0;
    hdo_cli_params params;

    params.n = 0;
    for (int i = 1; i < argc; i++) {
        int prc = hdo_cli_param_option(&params, "analyze", argc, argv, &i);
        if (prc >= 0) {
            if (prc != 0)
                return prc;
            continue;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--digits") == 0 ||
                   strcmp(argv[i], "-d") == 0) {
            char *end;
            if (i + 1 >= argc) {
                fprintf(stderr, "hdo analyze: %s needs a number of digits\n",
                        argv[i]);
                return 2;
            }
            long d = strtol(argv[++i], &end, 10);
            if (*end != '\0' || d < 1 || d > 10000) {
                fprintf(stderr,
                        "hdo analyze: bad number of digits '%s' "
                        "(expected an integer from 1 to 10000)\n",
                        argv[i]);
                return 2;
            }
            digits = (int)d;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "hdo analyze: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (path == NULL) {
            path = argv[i];
        } else {
            fprintf(stderr, "hdo analyze: more than one model given ('%s')\n",
                    argv[i]);
            return 2;
        }
    }
    if (path == NULL) {
        usage(stderr);
        return 2;
    }

    hdo_error_clear(&err);
    hdo_model_init(model);
    if (hdo_cli_params_apply(model, &params, "analyze") != 0 ||
        hdo_model_parse_file(model, path, &err) != 0) {
        if (err.message[0] != '\0')
            print_error(&err);
        hdo_model_clear(model);
        return 2;
    }
    if (model->warnings != NULL)
        fputs(model->warnings, stderr);
    /* Ten guard digits: the rank decisions and the consistent point are
       computed with more than the digits shown. */
    prec = (mpfr_prec_t)ceil((digits + 10) * 3.3219280948873623);
    mpfr_init2(t0, prec);
    val = hdo_vec_init(model->nvars, prec);
    given = calloc(model->nvars + 1, sizeof(int));
    mi = calloc(model->nmodes, sizeof(mode_info));
    if (hdo_expr_eval_constant(t0, model->pool, model->t0) != 0 ||
        start_values(val, given, model, &err) != 0) {
        if (err.status == 0)
            hdo_error_set(&err, HDO_ERR_DOMAIN, model->start_pos.line,
                          model->start_pos.col, "the start time is undefined");
        err.file = model->file;
        print_error(&err);
        code = 2;
        goto done;
    }

    for (slong m = 0; m < model->nmodes; m++) {
        mode_info *p = mi + m;
        hdo_reduced_init(p->red);
        hdo_error_clear(&p->err);
        if (hdo_reduce_mode(p->red, model, m, &p->err) != 0) {
            if (p->err.file == NULL)
                p->err.file = model->file;
            print_error(&p->err);
            code = 2;
            continue;
        }
        p->reduced = 1;
        if (init_mode(p, model, t0, val, given, prec) != 0) {
            /* Only the start mode must be consistent at the start values
               (of a mode with relations: one of its sign patterns,
               checked below). */
            if (m == model->start_mode && model->modes[m].pattern == NULL) {
                print_error(&p->err);
                code = 2;
            }
            continue;
        }
        mpfr_ptr x = hdo_vec_init(model->modes[m].nvars, prec);
        for (slong j = 0; j < model->modes[m].nvars; j++)
            mpfr_set(x + j, value_of(p, model->modes[m].vars[j]), MPFR_RNDN);
        if (hdo_km_analyze(&p->km, model, m, t0, x, prec, &p->err) == 0) {
            p->km_ok = 1;
        } else {
            print_error(&p->err);
            /* An analysis that failed is never a success: at the start
               mode it is always exit 2 (a domain error there is as bad
               as a singular mode); another mode is only evaluated at
               the start values, which need not lie in its domain. */
            if (p->err.status == HDO_ERR_SINGULAR || m == model->start_mode)
                code = 2;
        }
        hdo_vec_clear(x, model->modes[m].nvars);
    }

    /* A mode with relations is reported by the sign patterns that can
       hold at the start; the start is the first of them (mask order). */
    possible = calloc((size_t)model->nmodes + 1, sizeof(int));
    slong start = model->start_mode;
    for (slong m = 0; m < model->nmodes; m++)
        possible[m] = pattern_possible(model, m, mi + m, t0, prec);
    if (model->modes[start].pattern != NULL) {
        const hdo_mode *fam = model->modes + model->modes[start].family;
        slong np = (slong)1 << fam->nrel, q;
        for (q = 0; q < np && !possible[fam->family_modes[q]]; q++)
            ;
        if (q < np) {
            start = fam->family_modes[q];
        } else {
            fprintf(stderr,
                    "%s:%d:%d: error: no sign pattern of the relations of "
                    "mode %s holds at the start\n",
                    model->file, fam->pos.line, fam->pos.col, fam->name);
            code = 2;
        }
    }
    {
        FILE *out = stdout;
        const mode_info *sm = mi + start;
        const hdo_mode *smode = model->modes + start;
        if (json) {
            fputs("{\n  \"model\": ", out);
            json_string(out, model->name);
            fprintf(out,
                    ",\n  \"digits\": %d,\n  \"precision_bits\": %ld,\n  "
                    "\"modes\": [\n",
                    digits, (long)prec);
            int first_mode = 1;
            for (slong m = 0; m < model->nmodes; m++) {
                if (!possible[m])
                    continue;
                fputs(first_mode ? "" : ",\n", out);
                json_mode(out, model, m, mi + m);
                first_mode = 0;
            }
            fputs("\n", out);
            fputs("  ],\n  \"initial\": ", out);
            if (sm->consistent) {
                fputs("{\"mode\": ", out);
                json_string(out, smode->name);
                mpfr_fprintf(out, ", \"t\": %.*Rg, \"values\": {", digits, t0);
                for (slong j = 0; j < smode->nvars; j++) {
                    slong v = smode->vars[j];
                    fputs(j ? ", " : "", out);
                    json_string(out, var_name(model, v));
                    mpfr_fprintf(out, ": %.*Rg", digits, value_of(sm, v));
                }
                fputs("}, \"changed\": {", out);
                int first = 1;
                mpfr_t dlt;
                mpfr_init2(dlt, prec);
                for (slong j = 0; j < smode->nvars; j++) {
                    slong v = smode->vars[j];
                    if (!given[v])
                        continue;
                    mpfr_sub(dlt, value_of(sm, v), val + v, MPFR_RNDN);
                    if (mpfr_zero_p(dlt))
                        continue;
                    fputs(first ? "" : ", ", out);
                    json_string(out, var_name(model, v));
                    mpfr_fprintf(out, ": %.6Rg", dlt);
                    first = 0;
                }
                mpfr_clear(dlt);
                fputs("}}\n}\n", out);
            } else {
                fputs("null\n}\n", out);
            }
        } else {
            fprintf(out, "model %s (%s), %d digits (%ld bits)\n\n", model->name,
                    model->file, digits, (long)prec);
            for (slong m = 0; m < model->nmodes; m++)
                if (possible[m])
                    text_mode(out, model, m, mi + m);
            if (sm->consistent) {
                mpfr_t dlt;
                mpfr_init2(dlt, prec);
                mpfr_fprintf(
                    out, "consistent initial point of mode %s at t = %.*Rg:\n",
                    smode->name, digits, t0);
                for (slong j = 0; j < smode->nvars; j++) {
                    slong v = smode->vars[j];
                    mpfr_fprintf(out, "  %s = %.*Rg", var_name(model, v),
                                 digits, value_of(sm, v));
                    if (!given[v]) {
                        fputs("  (computed)", out);
                    } else {
                        mpfr_sub(dlt, value_of(sm, v), val + v, MPFR_RNDN);
                        if (!mpfr_zero_p(dlt))
                            mpfr_fprintf(
                                out, "  (start value changed by %.6Rg)", dlt);
                    }
                    fputc('\n', out);
                }
                mpfr_clear(dlt);
            } else {
                fprintf(out, "no consistent initial point of mode %s\n",
                        smode->name);
            }
        }
    }

done:
    for (slong m = 0; m < model->nmodes && mi != NULL; m++) {
        if (mi[m].xs != NULL) {
            hdo_vec_clear(mi[m].xs, mi[m].red->nstate);
            hdo_vec_clear(mi[m].xu, mi[m].red->nimplicit);
        }
        hdo_reduced_clear(mi[m].red);
    }
    free(mi);
    free(possible);
    free(given);
    if (val != NULL)
        hdo_vec_clear(val, model->nvars);
    mpfr_clear(t0);
    hdo_model_clear(model);
    return code;
}
