/* compile.c -- a model mode of the certified pass built on first use:
   its reduced form compiled for ball expansions (the system, stepper and
   components), and its release */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* The most states a mode may have: the Lohner part costs (1 + 2 n)
   products per product of the expansion (the 206 of the bowed string
   would take minutes a step). */
#define CERT_MAX_STATES 100

cert_mode *
cert_model_mode_get(cert_ctx *c, slong m, char *why, size_t size)
{
    cert_mode *cm = c->modes + m;
    hdo_model_struct *w = &c->work;
    const hdo_mode *mode = c->model->modes + m;
    if (cm->built) {
        if (cm->status < 0) {
            snprintf(why, size, "%s", cm->why);
            return NULL;
        }
        return cm;
    }
    cm->built = 1;
    cm->sa = cm->sb = -1;
    snprintf(cm->name, sizeof cm->name, "%s", mode->name);
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_reduced_init(cm->red);
    /* the run's choice between Pryce's form and the fallback */
    int km = m < c->res->nmodes && c->res->modes[m].km_fallback;
    cm->status = km ? hdo_reduce_mode_km(cm->red, w, m, &err)
                    : hdo_reduce_mode(cm->red, w, m, &err);
    if (cm->status < 0) {
        snprintf(cm->why, sizeof cm->why, "mode %s is not reduced: %.400s",
                 mode->name, err.message);
        snprintf(why, size, "%s", cm->why);
        return NULL;
    }
    if (cm->red->nstate > CERT_MAX_STATES) {
        cm->status = HDO_ERR_UNSUPPORTED;
        snprintf(cm->why, sizeof cm->why,
                 "mode %s has %ld states, more than the %d whose Jacobian "
                 "the certified pass carries (its cost grows as their square)",
                 mode->name, (long)cm->red->nstate, CERT_MAX_STATES);
        snprintf(why, size, "%s", cm->why);
        return NULL;
    }
    cm->ng = mode->nwhens;
    cm->guards = flint_malloc((cm->ng + 1) * sizeof *cm->guards);
    cm->locate = flint_malloc((cm->ng + 1) * sizeof *cm->locate);
    cm->gtext = flint_malloc((cm->ng + 1) * sizeof *cm->gtext);
    cm->gtext[cm->ng] = "zeno"; /* the zeno clause: k = ng (cert_when) */
    for (slong k = 0; k < cm->ng; k++) {
        cm->gtext[k] = mode->whens[k].guard_text;
        cm->guards[k] = mode->whens[k].guard;
        if (c->model->chattering == HDO_CHATTER_HYSTERESIS)
            cm->guards[k] =
                hdo_expr_add(w->pool, cm->guards[k], c->model->hysteresis);
        /* a zero variant's relation D is expanded, never located */
        cm->locate[k] = !mode->whens[k].zero;
    }
    for (slong k = 0; k < cm->ng; k++)
        if (!cm->locate[k]) {
            /* that D stays zero is the run's decision at the entry (the
               zero rule), not a proof */
            cm->status = HDO_ERR_UNSUPPORTED;
            snprintf(cm->why, sizeof cm->why,
                     "mode %s is a zero variant (a relation identically zero, "
                     "`%s`): its staying zero is not certified",
                     mode->name, mode->whens[k].guard_text);
            snprintf(why, size, "%s", cm->why);
            return NULL;
        }
    return cert_mode_compile(c, cm, why, size) == 0 ? cm : NULL;
}

int
cert_mode_compile(cert_ctx *c, cert_mode *cm, char *why, size_t size)
{
    cm->status = cert_sys_init(cm->sys, &c->work, cm->red, cm->guards, cm->ng);
    if (cm->status < 0) {
        snprintf(cm->why, sizeof cm->why, "mode %.200s: %.250s", cm->name,
                 cm->sys->why);
        snprintf(why, size, "%s", cm->why);
        cert_sys_clear(cm->sys);
        return -1;
    }
    cert_step_init(cm->step, cm->sys, c->p, c->q, c->prec, c->lprec,
                   c->opt->mutate);
    cm->comp = flint_malloc((c->model->nvars + 1) * sizeof *cm->comp);
    for (slong v = 0; v < c->model->nvars; v++)
        cm->comp[v] = -1;
    for (slong i = 0; i < cm->red->nstate; i++)
        if (cm->red->state[i].order == 0)
            cm->comp[cm->red->state[i].var] = i;
    for (slong j = 0; j < cm->red->nimplicit; j++)
        if (cm->red->unknown[j].order == 0)
            cm->comp[cm->red->unknown[j].var] = cm->red->nstate + j;
    return 0;
}

void
cert_mode_release(cert_mode *cm)
{
    if (!cm->built)
        return;
    if (cm->status >= 0) {
        cert_step_clear(cm->step);
        cert_sys_clear(cm->sys);
        flint_free(cm->comp);
    }
    if (cm->guards != NULL) {
        flint_free(cm->guards);
        flint_free(cm->locate);
        flint_free(cm->gtext);
    }
    flint_free(cm->other_mode);
    flint_free(cm->other_when);
    hdo_reduced_clear(cm->red);
}

void
cert_mode_free(cert_ctx *c)
{
    for (slong m = 0; m < c->nmodes; m++)
        cert_mode_release(c->modes + m);
    flint_free(c->modes);
    for (slong i = 0; i < c->nslide; i++) {
        cert_mode_release(c->slide[i]);
        flint_free(c->slide[i]);
    }
    flint_free(c->slide);
    flint_free(c->slide_key);
}

int
cert_same_up_to_sign(hdo_model_struct *w, hdo_expr e, hdo_expr s)
{
    hdo_expr zero = hdo_expr_const_si(w->pool, 0, 1);
    return e == s || e == hdo_expr_neg(w->pool, s) ||
           hdo_expr_sub(w->pool, e, s) == zero ||
           hdo_expr_add(w->pool, e, s) == zero;
}
