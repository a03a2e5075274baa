/* patterns.c -- a mode with relations as the modes of their sign patterns
 * (version 2 piecewise expressions; docs/decisions.md D-013) */
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "model/patterns.h"

/* The number of zero variants of k relations whose mixed ones (m of
   them) may be zero: 3^m 2^(k-m) states less the 2^k sign patterns,
   capped at cap + 1 (the caller only compares it with cap). */
static slong
zero_count(slong k, slong mixed, slong cap)
{
    slong all = 1;
    for (slong j = 0; j < k && all <= cap + ((slong)1 << k); j++)
        all *= (mixed >> j) & 1 ? 3 : 2;
    slong n = all - ((slong)1 << k);
    return n > cap ? cap + 1 : n;
}

/* The codes of the zero variants, increasing: every state with at least
   one zero relation, all of them mixed.  n entries (zero_count). */
static slong *
zero_codes(slong k, slong mixed, slong n)
{
    slong total = 1, cnt = 0;
    for (slong j = 0; j < k; j++)
        total *= 3;
    slong *codes = malloc((n ? n : 1) * sizeof *codes);
    HDO_ASSERT(codes != NULL);
    for (slong code = 0; code < total && cnt < n; code++) {
        slong c = code;
        int any = 0, ok = 1;
        for (slong j = 0; j < k; j++, c /= 3)
            if (c % 3 == 2) {
                any = 1;
                ok &= (int)((mixed >> j) & 1);
            }
        if (any && ok)
            codes[cnt++] = code;
    }
    HDO_ASSERT(cnt == n);
    return codes;
}

slong
hdo_model_pattern_mode(const hdo_model_struct *model, slong family, slong mask,
                       slong zmask)
{
    const hdo_mode *fam = model->modes + family;
    if (fam->family_modes == NULL && fam->nrel > 0)
        return hdo_model_lazy_id((hdo_model_struct *)model, family, mask,
                                 zmask);
    if (zmask == 0)
        return fam->family_modes[mask];
    slong lo = 0, hi = fam->nzero,
          code = hdo_model_zero_code(fam->nrel, mask, zmask);
    /* the zero variants are in increasing zero_code */
    while (lo < hi) {
        slong mid = lo + (hi - lo) / 2;
        const hdo_mode *z = model->modes + fam->zero_modes[mid];
        if (hdo_model_zero_code(fam->nrel, z->mask, z->zmask) < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < fam->nzero) {
        const hdo_mode *z = model->modes + fam->zero_modes[lo];
        if (z->mask == mask && z->zmask == zmask)
            return fam->zero_modes[lo];
    }
    return -1;
}

/* Collects into rel/nrel the relations of mode and ORs their kinds
   (hdo_expr_relation_kinds) into kinds, over its equations, guards and
   resets; kinds is read only when collect is 0. */
static void
mode_relations(hdo_expr **rel, slong *nrel, slong *alloc, int *kinds,
               int collect, const hdo_model_struct *m, const hdo_mode *mode)
{
    hdo_expr roots[1];
    for (slong i = 0; i <= mode->neqs + mode->nwhens; i++) {
        const hdo_transition *tr = NULL;
        if (i < mode->neqs) {
            roots[0] = mode->eqs[i].residual;
        } else {
            slong w = i - mode->neqs;
            tr = w < mode->nwhens ? mode->whens + w
                 : mode->has_zeno ? &mode->zeno
                                  : NULL;
            if (tr == NULL)
                break;
            roots[0] = tr->guard;
        }
        for (slong a = -1; a < (tr ? tr->nassigns : 0); a++) {
            hdo_expr e = a < 0 ? roots[0] : tr->assigns[a].value;
            if (e == HDO_EXPR_NONE)
                continue;
            if (collect)
                hdo_expr_relations(rel, nrel, alloc, m->pool, e);
            else
                hdo_expr_relation_kinds(kinds, m->pool, e, *rel, *nrel);
        }
    }
}

/* Whether family q (k relations, npat pattern modes made so far) is
   expanded at parse time; otherwise its patterns are built when entered
   (ref/model/lazy.c).  Sets err for what neither covers. */
static int
family_kind(int *lazy, const hdo_mode *mode, slong k, slong npat,
            hdo_error_t *err)
{
    *lazy = 0;
    if (k <= HDO_MODEL_MAX_RELATIONS &&
        npat + ((slong)1 << k) <= HDO_MODEL_MAX_PATTERN_MODES)
        return 0;
    if (mode->nperp > 0 && k > HDO_MODEL_MAX_RELATIONS)
        return hdo_error_set(
            err, HDO_ERR_UNSUPPORTED, mode->pos.line, mode->pos.col,
            "mode '%s' has %ld relations (in if, abs, sign, min, max): "
            "at most %d are supported with complementarity conditions, "
            "since each sign pattern is a mode",
            mode->name, (long)k, HDO_MODEL_MAX_RELATIONS);
    if (mode->nperp > 0)
        return hdo_error_set(
            err, HDO_ERR_UNSUPPORTED, mode->pos.line, mode->pos.col,
            "with mode '%s', the relations (in if, abs, sign, min, "
            "max) make %ld sign-pattern modes: at most %d are "
            "supported",
            mode->name, (long)(npat + ((slong)1 << k)),
            HDO_MODEL_MAX_PATTERN_MODES);
    if (k > HDO_MODEL_MAX_LAZY_RELATIONS)
        return hdo_error_set(
            err, HDO_ERR_UNSUPPORTED, mode->pos.line, mode->pos.col,
            "mode '%s' has %ld relations (in if, abs, sign, min, max): "
            "at most %d are supported (a sign pattern is a 64-bit mask)",
            mode->name, (long)k, HDO_MODEL_MAX_LAZY_RELATIONS);
    *lazy = 1;
    return 0;
}

int
hdo_model_expand_patterns(hdo_model_struct *m, hdo_error_t *err)
{
    slong n0 = m->nmodes, total = n0, npat = 0, nlazy = 0;
    slong *nrel = calloc(n0 ? n0 : 1, sizeof *nrel);
    slong *mixed = calloc(n0 ? n0 : 1, sizeof *mixed);
    slong *nzero = calloc(n0 ? n0 : 1, sizeof *nzero);
    slong *strict = calloc(n0 ? n0 : 1, sizeof *strict);
    int *lazy = calloc(n0 ? n0 : 1, sizeof *lazy);
    hdo_expr **rel = calloc(n0 ? n0 : 1, sizeof *rel);
    HDO_ASSERT(nrel != NULL && mixed != NULL && nzero != NULL &&
               strict != NULL && lazy != NULL && rel != NULL);
    int status = 0;
    for (slong q = 0; q < n0; q++) {
        hdo_mode *mode = m->modes + q;
        slong alloc = 0;
        mode->family = q;
        mode_relations(rel + q, nrel + q, &alloc, NULL, 1, m, mode);
        if (nrel[q] > 0 && status == 0)
            status = family_kind(lazy + q, mode, nrel[q], npat, err);
        if (nrel[q] > 0 && status == 0 && !lazy[q]) {
            total += ((slong)1 << nrel[q]) - 1;
            npat += (slong)1 << nrel[q];
        }
        nlazy += lazy[q];
        if (nrel[q] > 0 && status == 0) {
            int kinds[HDO_MODEL_MAX_LAZY_RELATIONS] = {0};
            mode_relations(rel + q, nrel + q, &alloc, kinds, 0, m, mode);
            for (slong j = 0; j < nrel[q]; j++)
                if (kinds[j] == 3)
                    mixed[q] |= (slong)1 << j;
                else if (kinds[j] == 2)
                    strict[q] |= (slong)1 << j;
        }
    }
    /* the zero variants, family by family while all patterns stay
       within the cap (model.h); none for a lazy family */
    for (slong q = 0; q < n0 && status == 0; q++) {
        if (mixed[q] == 0 || lazy[q])
            continue;
        slong nz = zero_count(nrel[q], mixed[q], HDO_MODEL_MAX_PATTERN_MODES);
        if (npat + nz <= HDO_MODEL_MAX_PATTERN_MODES) {
            nzero[q] = nz;
            npat += nz;
            total += nz;
        }
    }
    if (status == 0 && nlazy > 0 && total >= HDO_MODEL_MAX_LAZY_MODES)
        status = hdo_error_set(
            err, HDO_ERR_UNSUPPORTED, m->modes[0].pos.line, m->modes[0].pos.col,
            "the model has %ld modes with its sign patterns: at most %d "
            "are supported",
            (long)total, HDO_MODEL_MAX_LAZY_MODES);
    if (status != 0 || (total == n0 && nlazy == 0)) {
        for (slong q = 0; q < n0; q++)
            flint_free(rel[q]);
        free(nrel);
        free(mixed);
        free(nzero);
        free(strict);
        free(lazy);
        free(rel);
        return status;
    }
    hdo_mode *modes;
    if (nlazy > 0) {
        /* a fixed capacity: a run's patterns get their ids (and slots)
           while other code holds pointers into this array */
        modes = calloc(HDO_MODEL_MAX_LAZY_MODES, sizeof *modes);
        HDO_ASSERT(modes != NULL);
        memcpy(modes, m->modes, n0 * sizeof *modes);
        free(m->modes);
    } else {
        modes = realloc(m->modes, total * sizeof *modes);
        HDO_ASSERT(modes != NULL);
        memset(modes + n0, 0, (total - n0) * sizeof *modes);
    }
    m->modes = modes;
    /* indices: the sign patterns of every family first (so that they
       are where a model without zero variants has them), then the zero
       variants, then (ids from the registry) the lazy families'
       patterns as they are met */
    hdo_pattern_family *fams = calloc(n0, sizeof *fams);
    HDO_ASSERT(fams != NULL);
    slong next = n0;
    for (slong q = 0; q < n0; q++) {
        slong k = nrel[q], np = (slong)1 << k;
        fams[q].d = rel[q];
        fams[q].k = k;
        if (k == 0 || lazy[q])
            continue;
        fams[q].fam = malloc(np * sizeof *fams[q].fam);
        HDO_ASSERT(fams[q].fam != NULL);
        fams[q].fam[0] = q;
        for (slong p = 1; p < np; p++)
            fams[q].fam[p] = next++;
    }
    for (slong q = 0; q < n0; q++) {
        if (nzero[q] == 0)
            continue;
        fams[q].nzero = nzero[q];
        fams[q].zcode = zero_codes(nrel[q], mixed[q], nzero[q]);
        fams[q].zfam = malloc(nzero[q] * sizeof *fams[q].zfam);
        HDO_ASSERT(fams[q].zfam != NULL);
        for (slong i = 0; i < nzero[q]; i++)
            fams[q].zfam[i] = next++;
    }
    HDO_ASSERT(next == total);
    m->nmodes = total;
    if (nlazy > 0)
        hdo_model_lazy_init(m);
    for (slong q = 0; q < n0; q++) {
        hdo_pattern_family *f = fams + q;
        slong k = f->k, np = (slong)1 << k;
        if (k == 0)
            continue;
        hdo_mode file_mode = modes[q];
        if (lazy[q]) {
            /* the registry keeps the file's mode; its neighbours across
               one relation get their ids now (build_pattern) */
            f->lazy_model = m;
            f->family = q;
            f->lazy_id = hdo_model_lazy_id;
            hdo_model_lazy_add_family(m, q, &file_mode, rel[q], k);
            hdo_model_build_pattern(m, modes + q, &file_mode, q, 0, 0, f);
            free(modes[q].name);
            modes[q].name = file_mode.name;
            hdo_model_lazy_keep_file_mode(m, q, &file_mode);
        } else {
            /* the patterns read the file's mode q, which becomes mask 0
               last */
            for (slong p = 1; p < np; p++)
                hdo_model_build_pattern(m, modes + f->fam[p], modes + q, q, p,
                                        0, f);
            for (slong i = 0; i < f->nzero; i++) {
                slong c = f->zcode[i], mask = 0, zmask = 0;
                for (slong j = 0; j < k; j++, c /= 3) {
                    if (c % 3 == 2)
                        zmask |= (slong)1 << j;
                    else if (c % 3 == 1)
                        mask |= (slong)1 << j;
                }
                hdo_model_build_pattern(m, modes + f->zfam[i], modes + q, q,
                                        mask, zmask, f);
            }
            hdo_model_build_pattern(m, modes + q, &file_mode, q, 0, 0, f);
            /* the name table points at the mode's own name string */
            free(modes[q].name);
            modes[q].name = file_mode.name;
            file_mode.name = NULL;
            hdo_model_mode_free(&file_mode);
        }
        modes[q].family_modes = f->fam;
        modes[q].zero_modes = f->zfam;
        modes[q].nzero = f->nzero;
        modes[q].mixed = mixed[q];
        modes[q].strict = strict[q];
        modes[q].nrel = k;
        modes[q].rel = malloc(k * sizeof *modes[q].rel);
        modes[q].rel_pos = malloc(k * sizeof *modes[q].rel_pos);
        HDO_ASSERT(modes[q].rel != NULL && modes[q].rel_pos != NULL);
        memcpy(modes[q].rel, rel[q], k * sizeof *rel[q]);
        for (slong j = 0; j < k; j++) {
            /* the first place the parser met the relation */
            slong r = 0;
            while (r < m->nrelpos && m->relpos[r].d != rel[q][j])
                r++;
            modes[q].rel_pos[j] =
                r < m->nrelpos ? m->relpos[r].pos : modes[q].pos;
        }
        if (!lazy[q]) {
            for (slong p = 1; p < np; p++)
                modes[f->fam[p]].nrel = k;
            for (slong i = 0; i < f->nzero; i++)
                modes[f->zfam[i]].nrel = k;
        }
        free(f->zcode);
        flint_free(rel[q]);
    }
    free(fams);
    free(nrel);
    free(mixed);
    free(nzero);
    free(strict);
    free(lazy);
    free(rel);
    return 0;
}
