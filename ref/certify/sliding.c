/* sliding.c -- Filippov sliding of codimension 1 in the certified pass:
   the sliding mode of a pair as the run builds it, the proof that both
   fields point at the surface where it starts, and the surface's zero
   where it ends; and cert_mode_get, which builds either kind of mode */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Why this is a proof (docs/certify.md, "Filippov sliding"): the
   sliding field der(x) = alpha f_a + (1 - alpha) f_b with alpha =
   lb / (lb - la) keeps S constant, alpha la + (1 - alpha) lb = 0 being
   alpha's definition wherever lb - la != 0.  Every validated step
   divides by lb - la in balls, so it is nonzero over the step, and the
   guards alpha and 1 - alpha are proven positive over it as any guard:
   then lb and -la keep the signs they had at the entry (positive: both
   fields point at the surface), which is Filippov's condition for
   sliding, over the whole step, and the sliding solution from the
   surface is the unique Filippov solution.  It ends where alpha
   reaches 0 (lb = 0: b's field turns tangent) or 1 (la = 0), an event
   located as any other. */

/* The when of mode p into mode q, or -1. */
static slong
when_to(const hdo_model_struct *model, slong p, slong q)
{
    for (slong k = 0; k < model->modes[p].nwhens; k++)
        if (model->modes[p].whens[k].target == q)
            return k;
    return -1;
}

static cert_mode *
fail(cert_mode *cm, char *why, size_t size)
{
    cm->status = HDO_ERR_UNSUPPORTED;
    snprintf(why, size, "%s", cm->why);
    return NULL;
}

cert_mode *
cert_sliding_get(cert_ctx *c, slong m, char *why, size_t size)
{
    for (slong i = 0; i < c->nslide; i++)
        if (c->slide_key[i] == m) {
            cert_mode *cm = c->slide[i];
            if (cm->status < 0) {
                snprintf(why, size, "%s", cm->why);
                return NULL;
            }
            return cm;
        }
    hdo_model_struct *w = &c->work;
    slong n = c->nmodes;
    cert_mode *cm = flint_calloc(1, sizeof *cm);
    c->slide = flint_realloc(c->slide, (c->nslide + 1) * sizeof *c->slide);
    c->slide_key =
        flint_realloc(c->slide_key, (c->nslide + 1) * sizeof *c->slide_key);
    c->slide[c->nslide] = cm;
    c->slide_key[c->nslide++] = m;
    cm->built = 1;
    cm->sa = cm->sb = -1;
    hdo_reduced_init(cm->red);
    hdo_mode_name(cm->name, sizeof cm->name, c->model, m);
    if (m >= n + n * n) {
        snprintf(cm->why, sizeof cm->why,
                 "Filippov sliding on an intersection of surfaces (%s), "
                 "which the pass does not certify",
                 cm->name);
        return fail(cm, why, size);
    }
    slong a = (m - n) / n, b = (m - n) % n, ka = when_to(c->model, a, b),
          kb = when_to(c->model, b, a);
    cert_mode *ca = cert_mode_get(c, a, why, size);
    cert_mode *cb = ca != NULL ? cert_mode_get(c, b, why, size) : NULL;
    if (cb == NULL) {
        snprintf(cm->why, sizeof cm->why, "%s", why);
        return fail(cm, why, size);
    }
    cm->sa = a;
    cm->sb = b;
    cm->S = c->model->modes[a].whens[ka].guard;
    /* one surface: b's guard towards a is exactly -S */
    hdo_expr Sb = c->model->modes[b].whens[kb].guard;
    if (Sb == cm->S || !cert_same_up_to_sign(w, Sb, cm->S)) {
        snprintf(cm->why, sizeof cm->why,
                 "the sliding of %s: the guards `%s` and `%s` are not proven "
                 "one surface (the one the negation of the other)",
                 cm->name, c->model->modes[a].whens[ka].guard_text,
                 c->model->modes[b].whens[kb].guard_text);
        return fail(cm, why, size);
    }
    char w2[512];
    if (hdo_sliding_build(cm->red, &cm->alpha, w, ca->red, cb->red, cm->S, w2,
                          sizeof w2) < 0) {
        snprintf(cm->why, sizeof cm->why, "%s", w2);
        return fail(cm, why, size);
    }
    cm->la = hdo_sliding_lie(w, ca->red, cm->S);
    cm->lb = hdo_sliding_lie(w, cb->red, cm->S);
    /* guards as the run's (ref/hybrid/filippov.c, hdo_run_sliding_get) */
    slong cap = 2 + c->model->modes[a].nwhens + c->model->modes[b].nwhens;
    cm->guards = flint_malloc(cap * sizeof *cm->guards);
    cm->locate = flint_malloc(cap * sizeof *cm->locate);
    cm->gtext = flint_malloc(cap * sizeof *cm->gtext);
    cm->other_mode = flint_calloc(cap, sizeof *cm->other_mode);
    cm->other_when = flint_calloc(cap, sizeof *cm->other_when);
    cm->guards[0] = cm->alpha;
    cm->gtext[0] = "alpha = 0";
    cm->guards[1] =
        hdo_expr_sub(w->pool, hdo_expr_const_si(w->pool, 1, 1), cm->alpha);
    cm->gtext[1] = "alpha = 1";
    cm->locate[0] = cm->locate[1] = 1;
    slong ng = 2;
    for (int side = 0; side < 2; side++) {
        slong p = side ? b : a, q = side ? a : b;
        for (slong k = 0; k < c->model->modes[p].nwhens; k++) {
            const hdo_transition *tr = c->model->modes[p].whens + k;
            if (tr->target == q || tr->zero)
                continue;
            cm->other_mode[ng] = p;
            cm->other_when[ng] = k;
            cm->gtext[ng] = tr->guard_text;
            cm->locate[ng] = 1;
            cm->guards[ng++] = tr->guard;
        }
    }
    cm->ng = ng;
    if (cm->red->nstate > 100) {
        snprintf(cm->why, sizeof cm->why, "%s has %ld states, more than 100",
                 cm->name, (long)cm->red->nstate);
        return fail(cm, why, size);
    }
    return cert_mode_compile(c, cm, why, size) == 0 ? cm : NULL;
}

/* The ball of e (a program of cm's pool over its states and unknowns)
   at the balls y (states, then unknowns) and time t. */
static int
eval_on(arb_t out, cert_ctx *c, const cert_mode *cm, hdo_expr e, arb_srcptr y,
        const arb_t t)
{
    hdo_program_t prog;
    hdo_program_init(prog, c->work.pool, &e, 1, 64);
    slong *map = flint_malloc((prog->ninputs + 1) * sizeof *map);
    int st = cert_sys_map_inputs(map, cm->sys, prog, NULL, 0) != 0 ? -1 : 0;
    if (st == 0) {
        cert_series_t S;
        cert_series_init(S, prog, c->work.pool, 0, 0, c->prec);
        slong ns = cm->red->nstate;
        for (slong i = 0; i < prog->ninputs; i++)
            arb_set(cert_series_coef(S, prog->inputs[i].slot, 0, 0),
                    map[i] >= 0 ? y + map[i] : y + ns + (-1 - map[i]));
        if (prog->time_slot >= 0)
            arb_set(cert_series_coef(S, prog->time_slot, 0, 0), t);
        if (cert_series_step(S, 0, NULL, NULL) != 0)
            st = -1;
        else
            arb_set(out, cert_series_coef(S, prog->root_slot[0], 0, 0));
        cert_series_clear(S);
    }
    flint_free(map);
    hdo_program_clear(prog);
    return st;
}

cert_mode *
cert_mode_get(cert_ctx *c, slong m, char *why, size_t size)
{
    return m >= c->nmodes ? cert_sliding_get(c, m, why, size)
                          : cert_model_mode_get(c, m, why, size);
}

int
cert_sliding_entry(cert_ctx *c, slong src, slong k, slong dst, arb_srcptr y,
                   const arb_t t, char *why, size_t size)
{
    cert_mode *cs = cert_mode_get(c, src, why, size);
    cert_mode *cd = cs != NULL ? cert_mode_get(c, dst, why, size) : NULL;
    if (cd == NULL)
        return -1;
    int from_a = src == cd->sa;
    if ((!from_a && src != cd->sb) ||
        c->model->modes[src].whens[k].target != (from_a ? cd->sb : cd->sa)) {
        snprintf(why, size,
                 "the run's sliding start from %s by `%s` is not "
                 "the pair of %s",
                 cs->name, cs->gtext[k], cd->name);
        return -1;
    }
    /* the side that fired crosses its guard (la < 0, or lb > 0 from b's
       guard -S); the other side's field must point at the surface */
    arb_t v;
    arb_init(v);
    int st = eval_on(v, c, cs, from_a ? cd->lb : cd->la, y, t);
    int ok = st == 0 && (from_a ? arb_is_positive(v) : arb_is_negative(v));
    if (!ok) {
        char *vs = st == 0 ? arb_get_str(v, 10, 0) : NULL;
        snprintf(why, size,
                 "the sliding start of %s from %s by `%s`: the other side's "
                 "field is not proven to point at the surface (L_%s S = %s, "
                 "whose sign decides between sliding and crossing)",
                 cd->name, cs->name, cs->gtext[k],
                 c->model->modes[from_a ? cd->sb : cd->sa].name,
                 vs != NULL ? vs : "not enclosed");
        flint_free(vs);
    }
    arb_clear(v);
    return ok ? 0 : -1;
}

int
cert_sliding_exit_zero(cert_ctx *c, slong src, slong k, slong dst, slong g,
                       int *slope)
{
    char why[64];
    *slope = 0;
    if (src < c->nmodes || k > 1)
        return 0;
    cert_mode *cs = cert_mode_get(c, src, why, sizeof why);
    cert_mode *cd = cs != NULL ? cert_mode_get(c, dst, why, sizeof why) : NULL;
    if (cd == NULL || dst != (k == 0 ? cs->sb : cs->sa))
        return 0;
    /* S is zero on the sliding arc; at alpha = 0, lb = 0: the target b's
       slope of +-S is -+lb = 0; at alpha = 1, la = 0 likewise */
    if (!cert_same_up_to_sign(&c->work, cd->guards[g], cs->S))
        return 0;
    *slope = 1;
    return 1;
}
