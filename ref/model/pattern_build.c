/* pattern_build.c -- one sign pattern of a mode with relations: its
 * equations with each relation on its side, its crossings (the expansion
 * at parse time, ref/model/patterns.c, and the patterns built when
 * entered, ref/model/lazy.c; docs/decisions.md D-013, D-092) */
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

/* A rank for the state of every relation, in base 3 with relation j at
   digit j (0: the < side, 1: the >= side, 2: zero); mask & zmask == 0. */
slong
hdo_model_zero_code(slong k, slong mask, slong zmask)
{
    slong code = 0;
    for (slong j = k - 1; j >= 0; j--)
        code = 3 * code + ((zmask >> j) & 1 ? 2 : (mask >> j) & 1);
    return code;
}

/* The position of code among the increasing codes[0..n), or -1. */
static slong
code_find(const slong *codes, slong n, slong code)
{
    slong lo = 0, hi = n;
    while (lo < hi) {
        slong mid = lo + (hi - lo) / 2;
        if (codes[mid] < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && codes[lo] == code ? lo : -1;
}

static slong
family_mode(const hdo_pattern_family *f, slong mask, slong zmask)
{
    if (f->fam == NULL)
        return f->lazy_id(f->lazy_model, f->family, mask, zmask);
    if (zmask == 0)
        return f->fam[mask];
    slong i =
        code_find(f->zcode, f->nzero, hdo_model_zero_code(f->k, mask, zmask));
    HDO_ASSERT(i >= 0);
    return f->zfam[i];
}

/* Fills *pm, the pattern (mask, zmask) of the mode src of family f (src's
   own fields are read before it is overwritten when pm == src). */
void
hdo_model_build_pattern(hdo_model_struct *m, hdo_mode *pm, const hdo_mode *src,
                        slong family, slong mask, slong zmask,
                        const hdo_pattern_family *f)
{
    hdo_expr_pool_struct *pool = m->pool;
    const hdo_expr *d = f->d;
    slong k = f->k;
    int bits[HDO_MODEL_MAX_LAZY_RELATIONS];
    hdo_mode out;
    memset(&out, 0, sizeof out);
    for (slong j = 0; j < k; j++)
        bits[j] = (zmask >> j) & 1 ? HDO_REL_ZERO : (int)((mask >> j) & 1);
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
        slong bit = (slong)1 << j;
        int zero = bits[j] == HDO_REL_ZERO;
        /* feasible while the relation keeps its side: D >= 0 on the >=
           side, -D >= 0 on the other (the negated expression, which the
           Filippov code recognises as the same surface).  A zero
           relation keeps D itself, which the run expands but does not
           locate as a crossing: the zero variant lasts while D stays
           within the zero rule's tolerance over each step, and its
           crossing is taken at once where it does not (ref/hybrid/run.c);
           every event into a zero variant decides the pattern anew
           (ref/hybrid/pattern.c) */
        tr->guard = bits[j] ? dj : hdo_expr_neg(pool, dj);
        tr->target = zero ? family_mode(f, mask | bit, zmask & ~bit)
                          : family_mode(f, mask ^ bit, zmask);
        tr->pos = src->pos;
        tr->crossing = 1;
        tr->zero = zero;
        size_t n = strlen(texts[j]) + 8;
        tr->guard_text = malloc(n);
        HDO_ASSERT(tr->guard_text != NULL);
        snprintf(tr->guard_text, n, "%s %s 0", texts[j],
                 zero      ? "!="
                 : bits[j] ? "<"
                           : ">");
        snprintf(out.pattern + strlen(out.pattern), plen - strlen(out.pattern),
                 "%s%s %s 0", j ? ", " : "", texts[j],
                 zero      ? "="
                 : bits[j] ? ">="
                           : "<");
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
    out.zmask = zmask;
    /* the active set of a complementarity block is kept; the block and
       its table of modes stay with their owner (model.h) */
    out.perp = src->perp;
    out.nperp = src->nperp;
    out.cp_family = src->cp_family;
    out.cp_mask = src->cp_mask;
    out.cp_modes = mask == 0 && zmask == 0 ? src->cp_modes : NULL;
    *pm = out;
}

void
hdo_model_build_lazy_pattern(hdo_model_struct *m, hdo_mode *out,
                             const hdo_mode *file, slong family, slong mask,
                             const hdo_expr *d, slong k,
                             hdo_pattern_lazy_id lazy_id)
{
    hdo_pattern_family f;
    memset(&f, 0, sizeof f);
    f.d = d;
    f.k = k;
    f.lazy_model = m;
    f.family = family;
    f.lazy_id = lazy_id;
    hdo_model_build_pattern(m, out, file, family, mask, 0, &f);
    out->nrel = k;
}

void
hdo_model_mode_free(hdo_mode *mode)
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
