/* kmreport.c -- the KM indices (mu, d, a, v) of a mode at its first
 * consistent point, for the result */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* Reports mu, d, a, v of mode m at its first consistent point. */
void
hdo_run_note_mode_used(run_ctx *c, slong m, const mpfr_t t)
{
    if (m >= c->model->nmodes) {
        hdo_run_note_sliding_used(c, m);
        return;
    }
    hdo_mode_info *mi = c->res->modes + m;
    mode_cache *mc = c->mc + m;
    const hdo_mode *mode = c->model->modes + m;
    hdo_km_result km;
    hdo_error_t kerr;
    if (mi->used)
        return;
    mi->used = 1;
    mi->n = mode->nvars;
    mi->index = mc->red->index;
    mpfr_ptr vals = hdo_vec_init(c->model->nvars, c->prec);
    mpfr_ptr x = hdo_vec_init(mode->nvars, c->prec);
    hdo_run_mode_values(vals, NULL, mc, mc->xs, mc->xu);
    for (slong i = 0; i < mode->nvars; i++)
        mpfr_set(x + i, vals + mode->vars[i], MPFR_RNDN);
    hdo_error_clear(&kerr);
    if (hdo_km_analyze(&km, c->model, m, t, x, c->prec, &kerr) == 0) {
        mi->from_km = 1;
        mi->mu = km.mu;
        mi->d = km.d;
        mi->a = km.a;
        mi->v = km.v;
    } else {
        /* The reduced form's counts: strangeness index = differentiation
           index - 1 (for index >= 1), d = degrees of freedom. */
        mi->from_km = 0;
        mi->mu = mc->red->index > 0 ? mc->red->index - 1 : 0;
        mi->d = mc->red->dof;
        mi->a = mode->nvars - mc->red->dof;
        mi->v = 0;
    }
    hdo_vec_clear(vals, c->model->nvars);
    hdo_vec_clear(x, mode->nvars);
}
