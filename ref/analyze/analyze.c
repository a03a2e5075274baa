/* analyze.c -- hdo_analyze: reduced form, consistent point and
 * Kunkel-Mehrmann analysis of every mode */
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "result.h"

void
hdo_analysis_init(hdo_analysis_t a)
{
    memset(a, 0, sizeof *a);
    mpfr_init2(a->t0, 64);
    a->start_mode = -1;
    a->live = 1;
}

void
hdo_analysis_clear(hdo_analysis_t a)
{
    /* cleared: all zeros, so a second clear must not free t0 again */
    if (!a->live)
        return;
    for (slong m = 0; m < a->nmodes; m++) {
        hdo_analysis_mode *p = a->modes + m;
        if (p->xs != NULL) {
            hdo_vec_clear(p->xs, p->red->nstate);
            hdo_vec_clear(p->xu, p->red->nimplicit);
        }
        hdo_reduced_clear(p->red);
    }
    hdo_analysis_blocks_clear(a);
    free(a->modes);
    free(a->given);
    if (a->have_work)
        hdo_model_workspace_clear(&a->work);
    if (a->start != NULL)
        hdo_vec_clear(a->start, a->nvars);
    mpfr_clear(a->t0);
    memset(a, 0, sizeof *a);
}

mpfr_srcptr
hdo_analysis_value(const hdo_analysis_mode *mi, slong v)
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

/* A consistent point of mode p from the start values (the rule of a
   run's start, ref/reduce/start.c). */
static int
consistent_point(hdo_analysis_mode *p, hdo_model_t model, const mpfr_t t,
                 mpfr_prec_t prec)
{
    const hdo_reduced_struct *r = p->red;
    int *fixed = calloc(r->nstate + 1, sizeof(int));
    int adjusted, st;
    HDO_ASSERT(fixed != NULL);
    p->xs = hdo_vec_init(r->nstate, prec);
    p->xu = hdo_vec_init(r->nimplicit, prec);
    st = hdo_start_guess(p->xs, p->xu, fixed, model, r, &p->err);
    if (st == 0)
        st = hdo_consistent_init(p->xs, p->xu, &adjusted, model, r, t, fixed,
                                 prec, &p->err);
    free(fixed);
    p->consistent = st == 0;
    p->adjusted = st == 0 && adjusted;
    return st;
}

/* Pryce's form of p failed its consistent initialisation as
   numerically singular: the Kunkel-Mehrmann fallback's form replaces it
   (decisions.md D-070) and is initialised in its place, as a run does.
   Returns 0, or the status of the fallback (p->err then names Pryce's
   failure and why the fallback does not apply, or the fallback's own
   failure). */
static int
km_fallback(hdo_analysis_mode *p, hdo_model_t model, slong m, const mpfr_t t,
            mpfr_prec_t prec)
{
    hdo_reduced_t k;
    hdo_error_t why;
    hdo_reduced_init(k);
    hdo_error_clear(&why);
    int st = hdo_reduce_mode_km(k, model, m, &why);
    if (st != 0) {
        size_t len = strlen(p->err.message);
        const char *w = strstr(why.message, ": ");
        snprintf(p->err.message + len, sizeof p->err.message - len,
                 "; the Kunkel-Mehrmann fallback does not apply%s",
                 w != NULL ? w : "");
        hdo_reduced_clear(k);
        return st;
    }
    hdo_vec_clear(p->xs, p->red->nstate);
    hdo_vec_clear(p->xu, p->red->nimplicit);
    p->xs = p->xu = NULL;
    hdo_reduced_clear(p->red);
    *p->red = *k; /* moves the arrays and the cache */
    p->km_fallback = 1;
    p->pryce_err = p->err;
    hdo_error_clear(&p->err);
    return consistent_point(p, model, t, prec);
}

/* Whether the sign pattern of mode m can hold at the start: every
   relation of the pattern is on its side (>= -2^(32-prec)) at the
   consistent point of p.  A mode without relations can. */
static int guard_signs(int *sign, hdo_model_t model, slong m,
                       const hdo_analysis_mode *p, const mpfr_t t0,
                       mpfr_prec_t prec);

static int
pattern_possible(hdo_model_t model, slong m, const hdo_analysis_mode *p,
                 const mpfr_t t0, mpfr_prec_t prec)
{
    const hdo_mode *mode = model->modes + m;
    if (mode->pattern == NULL && mode->nperp == 0)
        return 1;
    /* an active set holds only where the state needs no jump (as a
       run's entry decides, ref/hybrid/complementarity.c) */
    if (!p->consistent || (mode->nperp > 0 && p->adjusted))
        return 0;
    slong k = mode->nrel + mode->nperp;
    int *sign = malloc((k ? k : 1) * sizeof *sign), ok;
    HDO_ASSERT(sign != NULL);
    ok = guard_signs(sign, model, m, p, t0, prec);
    for (slong j = 0; j < k && ok; j++)
        ok = sign[j] >= 0;
    free(sign);
    return ok;
}

/* sign[j]: -1 where crossing guard j of mode m (the relations', then
   the complementarity inequalities') is below -2^(32 - prec) at the
   consistent point of p, else 0 or 1; returns 0 when they cannot be
   evaluated there. */
static int
guard_signs(int *sign, hdo_model_t model, slong m, const hdo_analysis_mode *p,
            const mpfr_t t0, mpfr_prec_t prec)
{
    const hdo_mode *mode = model->modes + m;
    /* the relations' crossings and the complementarity conditions'
       inequalities (ref/model/perp.c) */
    slong k = mode->nrel + mode->nperp, first = mode->nwhens - k;
    hdo_expr *g = malloc(k * sizeof *g);
    HDO_ASSERT(g != NULL);
    for (slong j = 0; j < k; j++)
        g[j] = mode->whens[first + j].guard;
    hdo_program_t prog;
    hdo_program_init(prog, model->pool, g, k, prec);
    free(g);
    int ok = 1;
    for (slong i = 0; i < prog->ninputs && ok; i++) {
        mpfr_srcptr v = hdo_analysis_value(p, prog->inputs[i].var);
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
        /* v >= -2^(32 - prec) holds, the boundary included (an exponent
           test, exp(v) > 32 - prec, refused v = -2^(32 - prec) itself:
           tests/analyze/thresholds.c) */
        sign[j] = mpfr_cmp_si_2exp(v, -1, 32 - (mpfr_exp_t)prec) < 0 ? -1
                  : mpfr_sgn(v) > 0                                  ? 1
                                                                     : 0;
    }
    hdo_program_clear(prog);
    return ok;
}

/* The start mode of a model whose start mode has relations: its first
   sign pattern that holds at the start (mask order). */
/* The mode of the file that mode m stands for: its relations' family,
   and that family's complementarity block's. */
static slong
file_mode(const hdo_model_struct *model, slong m)
{
    slong f = model->modes[m].family;
    return model->modes[f].nperp > 0 ? model->modes[f].cp_family : f;
}

static void analyze_mode(hdo_analysis_t a, hdo_model_t model, slong m);

/* The start pattern of a family whose patterns are built when entered
   (ref/model/lazy.c): not all 2^k are tried, only the walk from the
   family's mode (mask 0) that flips every relation whose sign at the
   consistent point disagrees with the pattern, at most k + 2 patterns
   (each analysed and reported as the expanded ones are).  1 when one
   holds (a->start_mode set). */
static int
start_pattern_lazy(hdo_analysis_t a, hdo_model_t model, slong family)
{
    slong q = family, k = model->modes[family].nrel;
    int *sign = malloc(k * sizeof *sign);
    HDO_ASSERT(sign != NULL);
    for (slong it = 0; it < k + 2; it++) {
        if (a->modes[q].possible) {
            a->start_mode = q;
            free(sign);
            return 1;
        }
        const hdo_mode *mode = model->modes + q;
        if (!a->modes[q].consistent ||
            !guard_signs(sign, model, q, a->modes + q, a->t0, a->prec))
            break;
        slong mask = mode->mask;
        for (slong j = 0; j < k; j++)
            if (sign[j] < 0)
                mask ^= (slong)1 << j;
        slong next = hdo_model_pattern_mode(model, family, mask, 0);
        if (next < 0 || next == q ||
            hdo_model_pattern_ensure(model, next, NULL) != 0)
            break;
        for (slong m = a->nmodes; m < model->nmodes; m++)
            hdo_reduced_init(a->modes[m].red);
        a->nmodes = model->nmodes;
        if (a->modes[next].red->mode < 0 && !a->modes[next].reduced &&
            a->modes[next].status == 0) {
            analyze_mode(a, model, next);
            a->modes[next].possible =
                pattern_possible(model, next, a->modes + next, a->t0, a->prec);
        }
        q = next;
    }
    free(sign);
    return 0;
}

static void
choose_start_pattern(hdo_analysis_t a, hdo_model_t model)
{
    if (model->modes[a->start_mode].nperp > 0) {
        /* a complementarity block: its first active set (with its first
           sign pattern) that holds at the start, in index order */
        slong f = file_mode(model, a->start_mode), q;
        for (q = 0; q < model->nmodes; q++)
            if (file_mode(model, q) == f && a->modes[q].possible)
                break;
        if (q < model->nmodes) {
            a->start_mode = q;
            return;
        }
        const hdo_mode *fm = model->modes + f;
        hdo_error_set(&a->start_err, HDO_ERR_INCONSISTENT, fm->pos.line,
                      fm->pos.col,
                      "no active set of the complementarity conditions of "
                      "mode %s holds at the start",
                      fm->name);
        a->start_err.file = model->file;
        a->failed = 1;
        return;
    }
    if (model->modes[a->start_mode].pattern == NULL)
        return;
    const hdo_mode *fam = model->modes + model->modes[a->start_mode].family;
    if (fam->family_modes == NULL) {
        if (start_pattern_lazy(a, model, model->modes[a->start_mode].family))
            return;
        fam = model->modes + model->modes[a->start_mode].family;
        hdo_error_set(&a->start_err, HDO_ERR_INCONSISTENT, fam->pos.line,
                      fam->pos.col,
                      "no sign pattern of the relations of mode %s holds at "
                      "the start (of those reached from the pattern of all "
                      "relations on their < side by flipping the relations "
                      "whose sign disagrees)",
                      fam->name);
        a->start_err.file = model->file;
        a->failed = 1;
        return;
    }
    slong np = (slong)1 << fam->nrel, q;
    for (q = 0; q < np && !a->modes[fam->family_modes[q]].possible; q++)
        ;
    if (q < np) {
        a->start_mode = fam->family_modes[q];
        return;
    }
    hdo_error_set(&a->start_err, HDO_ERR_INCONSISTENT, fam->pos.line,
                  fam->pos.col,
                  "no sign pattern of the relations of mode %s holds at the "
                  "start",
                  fam->name);
    a->start_err.file = model->file;
    a->failed = 1;
}

/* The analysis of mode m; a failure is recorded in its entry. */
static void
analyze_mode(hdo_analysis_t a, hdo_model_t model, slong m)
{
    hdo_analysis_mode *p = a->modes + m;
    /* a sign pattern is judged as the start once the start pattern is
       chosen (choose_start_pattern) */
    int is_start = m == model->start_mode && model->modes[m].pattern == NULL &&
                   model->modes[m].nperp == 0;
    hdo_reduced_init(p->red);
    hdo_error_clear(&p->err);
    p->status = hdo_reduce_mode(p->red, model, m, &p->err);
    if (p->status != 0) {
        if (p->err.file == NULL)
            p->err.file = model->file;
        /* an active set of a complementarity block that is singular is
           no continuation: the run never enters it (hdo run tries every
           active set), so the model is not at fault */
        p->fatal = model->modes[m].nperp == 0;
        p->noted = 1;
        return;
    }
    p->reduced = 1;
    p->status = consistent_point(p, model, a->t0, a->prec);
    if (p->status == HDO_ERR_SINGULAR)
        p->status = km_fallback(p, model, m, a->t0, a->prec);
    if (p->status != 0) {
        /* only the start mode must be consistent at the start values
           (of a mode with relations: one of its sign patterns, checked
           by choose_start_pattern) */
        p->fatal = p->noted = is_start;
        return;
    }
    slong n = model->modes[m].nvars;
    mpfr_ptr x = hdo_vec_init(n, a->prec);
    for (slong j = 0; j < n; j++)
        mpfr_set(x + j, hdo_analysis_value(p, model->modes[m].vars[j]),
                 MPFR_RNDN);
    p->status = hdo_km_analyze(&p->km, model, m, a->t0, x, a->prec, &p->err);
    if (p->status == 0) {
        p->km_ok = 1;
    } else {
        /* At the start mode a failed analysis is always fatal (a domain
           error there is as bad as a singular mode); another mode is only
           evaluated at the start values, which need not lie in its
           domain. */
        p->noted = 1;
        p->fatal =
            (p->status == HDO_ERR_SINGULAR && model->modes[m].nperp == 0) ||
            is_start;
    }
    hdo_vec_clear(x, n);
}

int
hdo_analyze(hdo_analysis_t a, const hdo_model_struct *parsed, long digits,
            hdo_error_t *err)
{
    hdo_model_struct *model = &a->work;
    hdo_error_clear(err);
    /* a library caller's mistakes, refused before any work (the
       command line never makes them): each used to crash or, for the
       digits, to run for days */
    if (!a->live)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "the analysis was cleared (hdo_analysis_clear): "
                             "initialise it again with hdo_analysis_init");
    if (!hdo_model_parsed(parsed))
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "the model holds no parsed model: "
                             "hdo_model_parse_file or hdo_model_parse_string "
                             "must succeed on it first");
    if (digits <= 0 || digits > HDO_MAX_DIGITS)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "digits %ld: expected 1 to %d (HDO_MAX_DIGITS)",
                             digits, HDO_MAX_DIGITS);
    if (a->have_work) { /* an earlier analysis: emptied, not mixed in */
        hdo_analysis_clear(a);
        hdo_analysis_init(a);
    }
    hdo_model_workspace_init(model, parsed);
    a->have_work = 1;
    a->digits = digits;
    /* the precision of a run at D digits: ten guard digits, so that the
       rank decisions and the consistent point are computed with more
       than the digits shown */
    a->prec = hdo_run_prec(digits);
    mpfr_set_prec(a->t0, a->prec);
    a->nvars = model->nvars;
    a->start = hdo_vec_init(model->nvars, a->prec);
    a->given = calloc(model->nvars + 1, sizeof(int));
    a->start_mode = model->start_mode;
    HDO_ASSERT(a->given != NULL);
    if (hdo_expr_eval_constant(a->t0, model->pool, model->t0) != 0 ||
        hdo_start_values(a->start, a->given, model, err) != 0) {
        if (err->status == 0)
            hdo_error_set(err, HDO_ERR_DOMAIN, model->start_pos.line,
                          model->start_pos.col, "the start time is undefined");
        err->file = model->file;
        return err->status;
    }
    /* room for the patterns built when entered (hdo_model_id_n) */
    a->modes = calloc(hdo_model_id_n(model) + 1, sizeof *a->modes);
    HDO_ASSERT(a->modes != NULL);
    a->nmodes = model->nmodes;
    for (slong m = 0; m < model->nmodes; m++) {
        if (model->modes[m].zmask != 0 || model->modes[m].lazy == 1) {
            /* a zero variant, or a sign pattern not built (ref/model/
               lazy.c: its neighbours get ids, not content): not
               analysed, not reported */
            /* a zero variant (a relation identically zero) is entered by
               a run's Taylor test, never at a start value alone: not
               analysed, not reported */
            hdo_reduced_init(a->modes[m].red);
            continue;
        }
        analyze_mode(a, model, m);
        a->modes[m].possible =
            pattern_possible(model, m, a->modes + m, a->t0, a->prec);
    }
    choose_start_pattern(a, model);
    hdo_analysis_blocks(a, model);
    for (slong m = 0; m < model->nmodes; m++) {
        hdo_analysis_mode *p = a->modes + m;
        if (model->modes[m].pattern != NULL || model->modes[m].nperp > 0) {
            /* the chosen start pattern is the start mode; a pattern that
               cannot hold at the start is not reported, unless it is
               singular (a run may enter it later) */
            if (m == a->start_mode && a->start_err.status == 0)
                p->fatal = p->noted = p->status != 0;
            else if (!p->possible)
                p->noted = p->fatal;
        }
        a->failed |= p->fatal;
    }
    return 0;
}
