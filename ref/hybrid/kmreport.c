/* kmreport.c -- the KM indices (mu, d, a, v) of a mode at its first
 * consistent point, and the counts of a sliding mode's Filippov DAE, for
 * the result */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* Records the sliding mode in slot m (nmodes <= m) on first use, with
   the counts of the Filippov DAE it stands for (hdo_mode_info). */
static void
note_sliding_used(run_ctx *c, slong m)
{
    slong id = hdo_run_res_mode(c, m);
    hdo_result_struct *res = c->res;
    const hdo_reduced_struct *r = hdo_run_mode_entry(c, m)->red;
    for (slong i = 0; i < res->nsliding; i++)
        if (res->sliding[i].mode == id)
            return;
    res->sliding =
        realloc(res->sliding, (res->nsliding + 1) * sizeof *res->sliding);
    HDO_ASSERT(res->sliding != NULL);
    hdo_mode_info *mi = res->sliding + res->nsliding++;
    slong k = hdo_mode_id_kind_of(c->model, m) == HDO_MODE_ID_CUBE
                  ? hdo_run_mode_entry(c, m)->set->k
                  : 1;
    memset(mi, 0, sizeof *mi);
    mi->used = 1;
    mi->mode = id;
    mi->surfaces = k;
    mi->n = r->n + k;
    mi->index = r->index > 2 ? r->index : 2;
    mi->mu = mi->index - 1;
    mi->d = r->dof - k;
    mi->a = (r->n - r->dof) + 2 * k;
    mi->v = 0;
}

/* Reports mu, d, a, v of mode m at its first consistent point. */
void
hdo_run_note_mode_used(run_ctx *c, slong m, const mpfr_t t)
{
    if (m >= c->model->nmodes) {
        note_sliding_used(c, m);
        return;
    }
    hdo_mode_info *mi = c->res->modes + m;
    mode_cache *mc = hdo_run_mode_entry(c, m);
    const hdo_mode *mode = c->model->modes + m;
    hdo_km_result km;
    hdo_error_t kerr;
    if (mi->used)
        return;
    mi->used = 1;
    mi->km_fallback = mc->red->km_fallback;
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
