/* patterns.c -- a mode with relations as the modes of their sign patterns
 * (version 2 piecewise expressions; docs/decisions.md) */
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "model/patterns.h"

static char *
dup_or_null(const char *s)
{
    return s == NULL ? NULL : strdup(s);
}

static void
copy_transition(hdo_transition *out, const hdo_transition *in,
                hdo_expr_pool_struct *pool, const hdo_expr *d, const int *bits,
                slong k)
{
    *out = *in;
    out->guard = in->guard == HDO_EXPR_NONE
                     ? HDO_EXPR_NONE
                     : hdo_expr_select(pool, in->guard, d, bits, k);
    out->guard_text = dup_or_null(in->guard_text);
    out->assigns = NULL;
    if (in->nassigns > 0) {
        out->assigns = malloc(in->nassigns * sizeof *out->assigns);
        HDO_ASSERT(out->assigns != NULL);
        for (slong a = 0; a < in->nassigns; a++) {
            out->assigns[a] = in->assigns[a];
            out->assigns[a].value =
                hdo_expr_select(pool, in->assigns[a].value, d, bits, k);
        }
    }
}

/* Fills *pm, the pattern mask of the mode src (whose own fields are
   read before it is overwritten when pm == src). */
static void
build_pattern(hdo_model_struct *m, hdo_mode *pm, const hdo_mode *src,
              slong family, slong mask, const hdo_expr *d, slong k,
              const slong *family_modes)
{
    hdo_expr_pool_struct *pool = m->pool;
    int bits[HDO_MODEL_MAX_RELATIONS];
    hdo_mode out;
    memset(&out, 0, sizeof out);
    for (slong j = 0; j < k; j++)
        bits[j] = (mask >> j) & 1;
    out.name = strdup(src->name);
    out.pos = src->pos;
    out.neqs = src->neqs;
    out.eqs = malloc(src->neqs * sizeof *out.eqs);
    HDO_ASSERT(out.name != NULL && out.eqs != NULL);
    for (slong i = 0; i < src->neqs; i++) {
        out.eqs[i] = src->eqs[i];
        out.eqs[i].text = dup_or_null(src->eqs[i].text);
        out.eqs[i].residual =
            hdo_expr_select(pool, src->eqs[i].residual, d, bits, k);
    }
    /* the mode's own variables, not those left in the branches taken: a
       variable that a pattern's equations lose is still the mode's, and
       the pattern is then singular (reported when a run enters it),
       never a smaller system that drops an equation's meaning */
    out.nvars = src->nvars;
    out.vars = malloc((src->nvars + 1) * sizeof *out.vars);
    HDO_ASSERT(out.vars != NULL);
    memcpy(out.vars, src->vars, src->nvars * sizeof *out.vars);
    /* the file's `when`s first (at a common root they win: the mode is
       left), then one crossing per relation */
    out.nwhens = src->nwhens + k;
    out.whens = calloc(out.nwhens, sizeof *out.whens);
    HDO_ASSERT(out.whens != NULL);
    for (slong w = 0; w < src->nwhens; w++)
        copy_transition(out.whens + w, src->whens + w, pool, d, bits, k);
    size_t plen = 1;
    char **texts = malloc(k * sizeof *texts);
    HDO_ASSERT(texts != NULL);
    for (slong j = 0; j < k; j++) {
        texts[j] = hdo_expr_to_string(pool, d[j], m->var_names);
        HDO_ASSERT(texts[j] != NULL);
        plen += strlen(texts[j]) + 8;
    }
    out.pattern = malloc(plen);
    HDO_ASSERT(out.pattern != NULL);
    out.pattern[0] = '\0';
    for (slong j = 0; j < k; j++) {
        hdo_transition *tr = out.whens + src->nwhens + j;
        hdo_expr dj = hdo_expr_select(pool, d[j], d, bits, k);
        /* feasible while the relation keeps its side: D >= 0 on the >=
           side, -D >= 0 on the other (the negated expression, which the
           Filippov code recognises as the same surface) */
        tr->guard = bits[j] ? dj : hdo_expr_neg(pool, dj);
        tr->target = family_modes[mask ^ ((slong)1 << j)];
        tr->pos = src->pos;
        tr->crossing = 1;
        size_t n = strlen(texts[j]) + 8;
        tr->guard_text = malloc(n);
        HDO_ASSERT(tr->guard_text != NULL);
        snprintf(tr->guard_text, n, "%s %s 0", texts[j], bits[j] ? "<" : ">");
        snprintf(out.pattern + strlen(out.pattern), plen - strlen(out.pattern),
                 "%s%s %s 0", j ? ", " : "", texts[j], bits[j] ? ">=" : "<");
        free(texts[j]);
    }
    free(texts);
    out.has_zeno = src->has_zeno;
    if (src->has_zeno)
        copy_transition(&out.zeno, &src->zeno, pool, d, bits, k);
    else
        out.zeno.guard = HDO_EXPR_NONE;
    out.family = family;
    out.mask = mask;
    *pm = out;
}

static void
mode_free(hdo_mode *mode)
{
    free(mode->name);
    for (slong j = 0; j < mode->neqs; j++)
        free(mode->eqs[j].text);
    free(mode->eqs);
    free(mode->vars);
    for (slong j = 0; j < mode->nwhens; j++) {
        free(mode->whens[j].guard_text);
        free(mode->whens[j].assigns);
    }
    free(mode->whens);
    free(mode->zeno.guard_text);
    free(mode->zeno.assigns);
    free(mode->pattern);
}

int
hdo_model_expand_patterns(hdo_model_struct *m, hdo_error_t *err)
{
    slong n0 = m->nmodes, total = n0, npat = 0;
    slong *nrel = calloc(n0 ? n0 : 1, sizeof *nrel);
    hdo_expr **rel = calloc(n0 ? n0 : 1, sizeof *rel);
    HDO_ASSERT(nrel != NULL && rel != NULL);
    int status = 0;
    for (slong q = 0; q < n0; q++) {
        hdo_mode *mode = m->modes + q;
        slong alloc = 0;
        mode->family = q;
        for (slong i = 0; i < mode->neqs; i++)
            hdo_expr_relations(rel + q, nrel + q, &alloc, m->pool,
                               mode->eqs[i].residual);
        for (slong w = 0; w <= mode->nwhens; w++) {
            const hdo_transition *tr =
                w < mode->nwhens ? mode->whens + w : &mode->zeno;
            if (w == mode->nwhens && !mode->has_zeno)
                break;
            if (tr->guard != HDO_EXPR_NONE)
                hdo_expr_relations(rel + q, nrel + q, &alloc, m->pool,
                                   tr->guard);
            for (slong a = 0; a < tr->nassigns; a++)
                hdo_expr_relations(rel + q, nrel + q, &alloc, m->pool,
                                   tr->assigns[a].value);
        }
        if (nrel[q] > HDO_MODEL_MAX_RELATIONS && status == 0)
            status = hdo_error_set(
                err, HDO_ERR_UNSUPPORTED, mode->pos.line, mode->pos.col,
                "mode '%s' has %ld relations (in if, abs, sign, min, max): "
                "at most %d are supported, since each sign pattern is a mode",
                mode->name, (long)nrel[q], HDO_MODEL_MAX_RELATIONS);
        if (nrel[q] > 0 && status == 0) {
            total += ((slong)1 << nrel[q]) - 1;
            npat += (slong)1 << nrel[q];
            if (npat > HDO_MODEL_MAX_PATTERN_MODES)
                status = hdo_error_set(
                    err, HDO_ERR_UNSUPPORTED, mode->pos.line, mode->pos.col,
                    "with mode '%s', the relations (in if, abs, sign, min, "
                    "max) make %ld sign-pattern modes: at most %d are "
                    "supported",
                    mode->name, (long)npat, HDO_MODEL_MAX_PATTERN_MODES);
        }
    }
    if (status != 0 || total == n0) {
        for (slong q = 0; q < n0; q++)
            flint_free(rel[q]);
        free(nrel);
        free(rel);
        return status;
    }
    hdo_mode *modes = realloc(m->modes, total * sizeof *modes);
    HDO_ASSERT(modes != NULL);
    m->modes = modes;
    memset(modes + n0, 0, (total - n0) * sizeof *modes);
    slong next = n0;
    for (slong q = 0; q < n0; q++) {
        slong k = nrel[q], np = (slong)1 << k;
        if (k == 0) {
            flint_free(rel[q]);
            continue;
        }
        slong *fam = malloc(np * sizeof *fam);
        HDO_ASSERT(fam != NULL);
        fam[0] = q;
        for (slong p = 1; p < np; p++)
            fam[p] = next++;
        /* the patterns read the file's mode q, which becomes mask 0
           last */
        for (slong p = 1; p < np; p++)
            build_pattern(m, modes + fam[p], modes + q, q, p, rel[q], k, fam);
        hdo_mode file_mode = modes[q];
        build_pattern(m, modes + q, &file_mode, q, 0, rel[q], k, fam);
        /* the name table points at the mode's own name string */
        free(modes[q].name);
        modes[q].name = file_mode.name;
        file_mode.name = NULL;
        mode_free(&file_mode);
        modes[q].family_modes = fam;
        modes[q].nrel = k;
        modes[q].rel = malloc(k * sizeof *modes[q].rel);
        HDO_ASSERT(modes[q].rel != NULL);
        memcpy(modes[q].rel, rel[q], k * sizeof *rel[q]);
        for (slong p = 1; p < np; p++)
            modes[fam[p]].nrel = k;
        flint_free(rel[q]);
    }
    m->nmodes = total;
    free(nrel);
    free(rel);
    return 0;
}
