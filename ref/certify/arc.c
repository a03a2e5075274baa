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
    const char *mode = a->m >= 0 && a->m < a->c->model->nmodes
                           ? a->c->model->modes[a->m].name
                           : "?";
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
    arb_set(a->tarc, t);
    arf_zero(a->sloc);
    return 0;
}
