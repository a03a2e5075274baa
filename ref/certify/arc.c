/* arc.c -- an arc of the certified pass: its start in a mode, the stop
   of the pass with its place, a ball's centre as a double: the tools
   of rows.c, jump.c and driver.c */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

/* Stops the pass: cert->reason "<why> (in mode M at t = T)". */
int
cert_stop(arc_t *a, double t, const char *fmt, ...)
{
    hdo_certified_struct *cert = a->c->cert;
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char mode[256] = "?";
    if (a->m >= 0)
        hdo_mode_name(mode, sizeof mode, a->c->model, a->m);
    snprintf(cert->stop_mode, sizeof cert->stop_mode, "%s", mode);
    cert->stop_time = t;
    if (isnan(t))
        snprintf(cert->reason, sizeof cert->reason, "%s (in mode %s)", buf,
                 mode);
    else
        snprintf(cert->reason, sizeof cert->reason,
                 "%s (in mode %s at t = %.17g)", buf, mode, t);
    return HDO_CERTIFY_STOPPED;
}

double
cert_arb_d(const arb_t x)
{
    return arf_get_d(arb_midref(x), ARF_RND_NEAR);
}

/* Starts a new arc of mode m at time t (ball) from the set of states X
   (NULL: the balls x) and the unknowns u. */
int
cert_arc_begin(arc_t *a, slong m, const arb_t t, const cert_set_struct *X,
               arb_srcptr x, arb_srcptr u)
{
    char why[512];
    cert_mode *cm = cert_mode_get(a->c, m, why, sizeof why);
    if (cm == NULL)
        return cert_stop(a, cert_arb_d(t), "%s", why);
    if (a->has_X) {
        cert_set_clear(a->X);
        _arb_vec_clear(a->u, a->cm->red->nimplicit + 1);
        flint_free(a->zero0);
        flint_free(a->skip);
        flint_free(a->slope0);
    }
    a->m = m;
    a->cm = cm;
    cert_set_init(a->X, cm->red->nstate, a->c->opt->wrap, a->c->prec,
                  a->c->lprec);
    a->has_X = 1;
    if (X != NULL)
        cert_set_copy(a->X, X);
    else
        cert_set_from_balls(a->X, x);
    a->u = _arb_vec_init(cm->red->nimplicit + 1);
    _arb_vec_set(a->u, u, cm->red->nimplicit);
    a->zero0 = flint_calloc(cm->ng + 1, sizeof(int));
    a->skip = flint_calloc(cm->ng + 1, sizeof(int));
    a->slope0 = flint_malloc((cm->ng + 1) * sizeof(int));
    for (slong g = 0; g < cm->ng; g++)
        a->slope0[g] = -1;
    a->prev_m = a->prev_k = -1;
    a->prev_at_zero = a->prev_moved = 0;
    arb_set(a->tarc, t);
    arf_zero(a->sloc);
    return 0;
}
