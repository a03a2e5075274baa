/* perp.c -- a mode with complementarity conditions as the modes of its
 * active sets (docs/model-format.md, "Complementarity") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "model/patterns.h"
#include "model/perp.h"

static char *
dup_or_null(const char *s)
{
    return s == NULL ? NULL : strdup(s);
}

static char *
xasprintf2(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    HDO_ASSERT(s != NULL);
    snprintf(s, n, fmt, a, b);
    return s;
}

static void
copy_transition(hdo_transition *out, const hdo_transition *in)
{
    *out = *in;
    out->guard_text = dup_or_null(in->guard_text);
    out->assigns = NULL;
    if (in->nassigns > 0) {
        out->assigns = malloc(in->nassigns * sizeof *out->assigns);
        HDO_ASSERT(out->assigns != NULL);
        memcpy(out->assigns, in->assigns, in->nassigns * sizeof *out->assigns);
    }
}

/* The mode of active set mask of the file's mode src (index family),
   whose modes by mask are fam: the file's equations and `when`s, then
   per condition i its equation (active: B_i = 0; inactive: A_i = 0) and
   its `perp` transition (active: A_i < 0; inactive: B_i < 0), in the
   order of the conditions. */
static void
build_active_set(hdo_model_struct *m, hdo_mode *out, const hdo_mode *src,
                 slong family, slong mask, const slong *fam)
{
    hdo_expr_pool_struct *pool = m->pool;
    slong k = src->nperp;
    memset(out, 0, sizeof *out);
    out->name = strdup(src->name);
    out->pos = src->pos;
    out->neqs = src->neqs + k;
    out->eqs = malloc(out->neqs * sizeof *out->eqs);
    HDO_ASSERT(out->name != NULL && out->eqs != NULL);
    for (slong i = 0; i < src->neqs; i++) {
        out->eqs[i] = src->eqs[i];
        out->eqs[i].text = dup_or_null(src->eqs[i].text);
    }
    out->nvars = src->nvars;
    out->vars = malloc((src->nvars + 1) * sizeof *out->vars);
    HDO_ASSERT(out->vars != NULL);
    memcpy(out->vars, src->vars, src->nvars * sizeof *out->vars);
    out->nwhens = src->nwhens + k;
    out->whens = calloc(out->nwhens, sizeof *out->whens);
    HDO_ASSERT(out->whens != NULL);
    for (slong w = 0; w < src->nwhens; w++)
        copy_transition(out->whens + w, src->whens + w);
    for (slong i = 0; i < k; i++) {
        const hdo_perp *c = src->perp + i;
        int active = (int)((mask >> i) & 1);
        hdo_expr a = hdo_expr_var(pool, c->var, 0);
        hdo_equation *eq = out->eqs + src->neqs + i;
        eq->residual = active ? c->b : a;
        eq->pos = c->pos;
        eq->text =
            xasprintf2("%s = 0 (%s)", active ? c->btext : c->atext, c->text);
        hdo_transition *tr = out->whens + src->nwhens + i;
        tr->guard = active ? a : c->b;
        tr->guard_text = xasprintf2(active ? "%s < 0%s" : "%s < 0%s",
                                    active ? c->atext : c->btext, "");
        tr->target = fam[mask ^ ((slong)1 << i)];
        tr->pos = c->pos;
        tr->perp = i + 1;
    }
    out->has_zeno = src->has_zeno;
    if (src->has_zeno)
        copy_transition(&out->zeno, &src->zeno);
    else
        out->zeno.guard = HDO_EXPR_NONE;
    out->family = -1; /* set by hdo_model_expand_patterns */
    out->perp = src->perp;
    out->nperp = k;
    out->cp_family = family;
    out->cp_mask = mask;
}

int
hdo_model_expand_perp(hdo_model_struct *m, hdo_error_t *err)
{
    slong n0 = m->nmodes, total = n0;
    for (slong q = 0; q < n0; q++) {
        hdo_mode *mode = m->modes + q;
        mode->cp_family = q;
        if (mode->nperp == 0)
            continue;
        total += ((slong)1 << mode->nperp) - 1;
        if (total > HDO_MODEL_MAX_PATTERN_MODES)
            return hdo_error_set(
                err, HDO_ERR_UNSUPPORTED, mode->pos.line, mode->pos.col,
                "with mode '%s', the complementarity conditions make %ld "
                "active-set modes: at most %d modes are supported",
                mode->name, (long)total, HDO_MODEL_MAX_PATTERN_MODES);
    }
    if (total == n0)
        return 0;
    hdo_mode *modes = realloc(m->modes, total * sizeof *modes);
    HDO_ASSERT(modes != NULL);
    m->modes = modes;
    memset(modes + n0, 0, (total - n0) * sizeof *modes);
    slong next = n0;
    for (slong q = 0; q < n0; q++) {
        slong k = modes[q].nperp, np = (slong)1 << k;
        if (k == 0)
            continue;
        slong *fam = malloc(np * sizeof *fam);
        HDO_ASSERT(fam != NULL);
        fam[0] = q;
        for (slong p = 1; p < np; p++)
            fam[p] = next++;
        for (slong p = 1; p < np; p++)
            build_active_set(m, modes + fam[p], modes + q, q, p, fam);
        /* the file's mode becomes the active set 0 (all inactive) last,
           keeping its name string (the name table points at it) */
        hdo_mode file_mode = modes[q];
        build_active_set(m, modes + q, &file_mode, q, 0, fam);
        free(modes[q].name);
        modes[q].name = file_mode.name;
        file_mode.name = NULL;
        hdo_model_mode_free(&file_mode); /* its pattern is NULL */
        modes[q].cp_modes = fam;
    }
    HDO_ASSERT(next == total);
    m->nmodes = total;
    return 0;
}

slong
hdo_model_cp_mode(const hdo_model_struct *model, slong m, slong cp_mask)
{
    const hdo_mode *mode = model->modes + m;
    const hdo_mode *fam = model->modes + mode->cp_family;
    HDO_ASSERT(mode->nperp > 0 && fam->cp_modes != NULL);
    slong base = fam->cp_modes[cp_mask];
    if (mode->nrel == 0)
        return base;
    return hdo_model_pattern_mode(model, base, mode->mask, mode->zmask);
}
