/* lazy.c -- the sign patterns of a mode with many relations, built when a
 * run enters them (docs/decisions.md D-092)
 *
 * A family beyond HDO_MODEL_MAX_RELATIONS relations (or beyond
 * HDO_MODEL_MAX_PATTERN_MODES patterns in all) is not expanded at parse
 * time.  Its patterns get ids the first time something names them (a
 * crossing of a built pattern, the pattern chosen at an event): the
 * registry, shared by the parsed model and all its workspaces, maps
 * (family, mask) to an id and fills that id's slot with what needs no
 * expression pool (name, pattern text, family, mask).  A workspace builds
 * a pattern's equations and transitions in its own pool when it enters
 * it (hdo_model_pattern_ensure), with its neighbours across one relation
 * (the sliding code reads their crossings).  Ids are fixed once given,
 * whichever run gave them first, so the two runs of --verify agree. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "model/patterns.h"

typedef struct {
    slong family;
    const char *name; /* the family's, owned by the parsed model */
    hdo_mode file;    /* the file's mode, relations unselected */
    hdo_expr *d;
    slong k;
    char **texts; /* each relation's switching function, as text */
    char **cross; /* the crossing guard texts: 2j the < side's, 2j+1 the
                     >= side's (results point at them) */
} lazy_family;

typedef struct {
    pthread_mutex_t lock;
    hdo_mode *shared; /* the parsed model's modes (fixed capacity) */
    slong *nshared;   /* the parsed model's nmodes */
    lazy_family *fam;
    slong nfam;
    /* open addressing, key (family, mask), value id + 1 */
    slong *hfam, *hmask, *hid;
    slong hsize;
} lazy_reg;

void
hdo_model_lazy_init(hdo_model_struct *m)
{
    lazy_reg *r = calloc(1, sizeof *r);
    HDO_ASSERT(r != NULL);
    pthread_mutex_init(&r->lock, NULL);
    r->shared = m->modes;
    r->nshared = &m->nmodes;
    r->hsize = 2 * HDO_MODEL_MAX_LAZY_MODES;
    r->hfam = calloc(r->hsize, sizeof *r->hfam);
    r->hmask = calloc(r->hsize, sizeof *r->hmask);
    r->hid = calloc(r->hsize, sizeof *r->hid);
    HDO_ASSERT(r->hfam != NULL && r->hmask != NULL && r->hid != NULL);
    m->lazy = r;
}

static lazy_family *
family_of(const lazy_reg *r, slong family)
{
    for (slong i = 0; i < r->nfam; i++)
        if (r->fam[i].family == family)
            return r->fam + i;
    return NULL;
}

void
hdo_model_lazy_add_family(hdo_model_struct *m, slong family,
                          const hdo_mode *file, const hdo_expr *d, slong k)
{
    lazy_reg *r = m->lazy;
    r->fam = realloc(r->fam, (r->nfam + 1) * sizeof *r->fam);
    HDO_ASSERT(r->fam != NULL);
    lazy_family *f = r->fam + r->nfam++;
    memset(f, 0, sizeof *f);
    f->family = family;
    f->name = file->name;
    f->k = k;
    f->d = malloc(k * sizeof *f->d);
    f->texts = malloc(k * sizeof *f->texts);
    HDO_ASSERT(f->d != NULL && f->texts != NULL);
    memcpy(f->d, d, k * sizeof *d);
    f->cross = malloc(2 * k * sizeof *f->cross);
    HDO_ASSERT(f->cross != NULL);
    for (slong j = 0; j < k; j++) {
        f->texts[j] = hdo_expr_to_string(m->pool, d[j], m->var_names);
        HDO_ASSERT(f->texts[j] != NULL);
        for (int side = 0; side < 2; side++) {
            size_t n = strlen(f->texts[j]) + 8;
            f->cross[2 * j + side] = malloc(n);
            HDO_ASSERT(f->cross[2 * j + side] != NULL);
            snprintf(f->cross[2 * j + side], n, "%s %s 0", f->texts[j],
                     side ? "<" : ">");
        }
    }
}

void
hdo_model_lazy_keep_file_mode(hdo_model_struct *m, slong family, hdo_mode *file)
{
    lazy_family *f = family_of(m->lazy, family);
    HDO_ASSERT(f != NULL);
    f->file = *file;
    f->file.name = NULL; /* the family's mode owns it */
}

/* "x >= 0, y < 0", as the expanded patterns spell it (patterns.c) */
static char *
pattern_text(const lazy_family *f, slong mask)
{
    size_t len = 1;
    for (slong j = 0; j < f->k; j++)
        len += strlen(f->texts[j]) + 8;
    char *s = malloc(len);
    HDO_ASSERT(s != NULL);
    s[0] = '\0';
    for (slong j = 0; j < f->k; j++)
        snprintf(s + strlen(s), len - strlen(s), "%s%s %s 0", j ? ", " : "",
                 f->texts[j], (mask >> j) & 1 ? ">=" : "<");
    return s;
}

static slong
hash_slot(const lazy_reg *r, slong family, slong mask)
{
    uint64_t h = (uint64_t)mask * 0x9E3779B97F4A7C15u ^
                 (uint64_t)family * 0xC2B2AE3D27D4EB4Fu;
    slong i = (slong)((h ^ (h >> 29)) % (uint64_t)r->hsize);
    while (r->hid[i] != 0 && (r->hfam[i] != family || r->hmask[i] != mask))
        i = (i + 1) % r->hsize;
    return i;
}

slong
hdo_model_lazy_id(hdo_model_struct *m, slong family, slong mask, slong zmask)
{
    lazy_reg *r = m->lazy;
    if (zmask != 0 || r == NULL)
        return -1; /* no zero variants: decide() says so */
    const lazy_family *f = family_of(r, family);
    HDO_ASSERT(f != NULL);
    pthread_mutex_lock(&r->lock);
    slong h = hash_slot(r, family, mask), id;
    if (r->hid[h] != 0) {
        id = r->hid[h] - 1;
    } else if (*r->nshared >= HDO_MODEL_MAX_LAZY_MODES) {
        pthread_mutex_unlock(&r->lock);
        return -1;
    } else {
        id = (*r->nshared)++;
        hdo_mode *s = r->shared + id;
        memset(s, 0, sizeof *s);
        s->name = (char *)f->name;
        s->pos = f->file.pos;
        s->family = family;
        s->mask = mask;
        s->nrel = f->k;
        s->pattern = pattern_text(f, mask);
        s->zeno.guard = HDO_EXPR_NONE;
        s->cp_family = r->shared[family].cp_family;
        s->lazy = 1;
        r->hfam[h] = family;
        r->hmask[h] = mask;
        r->hid[h] = id + 1;
    }
    if (m->modes != r->shared && m->modes[id].name == NULL) {
        m->modes[id] = r->shared[id];
        m->modes[id].lazy = 1;
    }
    if (m->nmodes <= id)
        m->nmodes = id + 1;
    pthread_mutex_unlock(&r->lock);
    return id;
}

/* Builds slot q (a registered pattern) in m; -1 when a neighbour finds
   the registry full. */
static int
build_one(hdo_model_struct *m, slong q)
{
    hdo_mode *mode = m->modes + q;
    if (mode->lazy != 1)
        return 0;
    const lazy_family *f = family_of(m->lazy, mode->family);
    HDO_ASSERT(f != NULL);
    hdo_mode out, file = f->file;
    file.name = (char *)f->name; /* build_pattern copies it */
    hdo_model_build_lazy_pattern(m, &out, &file, mode->family, mode->mask, f->d,
                                 f->k, hdo_model_lazy_id);
    free(out.name);
    free(out.pattern);
    out.name = mode->name;
    out.pattern = mode->pattern;
    /* the texts events and errors keep point into the registry, which
       outlives every workspace (slot_free leaves them) */
    slong nfile = out.nwhens - f->k;
    for (slong i = 0; i < out.neqs; i++) {
        free(out.eqs[i].text);
        out.eqs[i].text = f->file.eqs[i].text;
    }
    for (slong w = 0; w < out.nwhens; w++) {
        free(out.whens[w].guard_text);
        out.whens[w].guard_text =
            w < nfile
                ? f->file.whens[w].guard_text
                : f->cross[2 * (w - nfile) + ((mode->mask >> (w - nfile)) & 1)];
    }
    free(out.zeno.guard_text);
    out.zeno.guard_text = f->file.zeno.guard_text;
    out.cp_family = mode->cp_family;
    out.lazy = 2;
    int full = 0;
    for (slong w = 0; w < out.nwhens; w++)
        full |= out.whens[w].target < 0;
    *mode = out;
    return full ? -1 : 0;
}

int
hdo_model_pattern_ensure(hdo_model_struct *model, slong m, hdo_error_t *err)
{
    if (model->lazy == NULL || m < 0 || m >= model->nmodes)
        return 0;
    const hdo_mode *fam = model->modes + model->modes[m].family;
    if (fam->nrel == 0 || fam->family_modes != NULL)
        return 0;
    int st = build_one(model, m);
    const hdo_mode *mode = model->modes + m;
    for (slong j = 0; j < mode->nrel && st == 0; j++)
        st =
            build_one(model, mode->whens[mode->nwhens - mode->nrel + j].target);
    if (st != 0)
        return hdo_error_set(
            err, HDO_ERR_UNSUPPORTED, fam->pos.line, fam->pos.col,
            "mode '%s': the run meets more than %d sign patterns (with their "
            "neighbours across one relation): not supported",
            fam->name, HDO_MODEL_MAX_LAZY_MODES);
    return 0;
}

const hdo_mode *
hdo_model_lazy_file_mode(const hdo_model_struct *model, slong i)
{
    const lazy_reg *r = model->lazy;
    return r != NULL && i >= 0 && i < r->nfam ? &r->fam[i].file : NULL;
}

slong
hdo_model_id_n(const hdo_model_struct *model)
{
    return model->lazy != NULL ? HDO_MODEL_MAX_LAZY_MODES : model->nmodes;
}

/* What a built slot owns: not its borrowed name and pattern. */
static void
slot_free(hdo_mode *mode)
{
    mode->name = NULL;
    mode->pattern = NULL;
    for (slong i = 0; i < mode->neqs; i++)
        mode->eqs[i].text = NULL;
    for (slong w = 0; w < mode->nwhens; w++)
        mode->whens[w].guard_text = NULL;
    mode->zeno.guard_text = NULL;
    hdo_model_mode_free(mode);
}

void
hdo_model_lazy_workspace_init(hdo_model_struct *work,
                              const hdo_model_struct *model)
{
    lazy_reg *r = model->lazy;
    hdo_mode *modes = calloc(HDO_MODEL_MAX_LAZY_MODES, sizeof *modes);
    HDO_ASSERT(modes != NULL);
    pthread_mutex_lock(&r->lock);
    memcpy(modes, model->modes, model->nmodes * sizeof *modes);
    work->nmodes = model->nmodes;
    pthread_mutex_unlock(&r->lock);
    /* the parsed model's built slots stay its own */
    for (slong q = 0; q < work->nmodes; q++)
        if (modes[q].lazy == 2)
            modes[q].lazy = 3;
    work->modes = modes;
    work->own_modes = 1;
}

void
hdo_model_lazy_workspace_clear(hdo_model_struct *work)
{
    for (slong q = 0; q < work->nmodes; q++)
        if (work->modes[q].lazy == 2)
            slot_free(work->modes + q);
    free(work->modes);
    work->modes = NULL;
    work->own_modes = 0;
}

void
hdo_model_lazy_free(hdo_model_struct *m)
{
    lazy_reg *r = m->lazy;
    if (r == NULL)
        return;
    for (slong q = 0; q < m->nmodes; q++) {
        hdo_mode *mode = m->modes + q;
        if (mode->lazy == 0)
            continue;
        char *pattern = mode->pattern;
        if (mode->lazy == 2)
            slot_free(mode);
        free(pattern);
        memset(mode, 0, sizeof *mode);
    }
    for (slong i = 0; i < r->nfam; i++) {
        lazy_family *f = r->fam + i;
        hdo_model_mode_free(&f->file);
        for (slong j = 0; j < f->k; j++) {
            free(f->texts[j]);
            free(f->cross[2 * j]);
            free(f->cross[2 * j + 1]);
        }
        free(f->texts);
        free(f->cross);
        free(f->d);
    }
    free(r->fam);
    free(r->hfam);
    free(r->hmask);
    free(r->hid);
    pthread_mutex_destroy(&r->lock);
    free(r);
    m->lazy = NULL;
}
