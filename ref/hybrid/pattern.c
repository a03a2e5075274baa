/* pattern.c -- entering a mode with relations: the sign pattern that the
 * state at the entry time selects (docs/decisions.md, piecewise
 * expressions) */
#include <stdlib.h>
#include "driver.h"

/* Moves the current state of mode from (consistent at t) into mode to
   of the same family, as a transition without a reset does: every state
   the two share is kept, the rest guessed, then to's consistent
   reinitialisation. */
static int
move_state(run_ctx *c, slong from, slong to, const mpfr_t t)
{
    int st = hdo_run_mode_cache_get(c, to, t), adjusted = 0;
    if (st < 0)
        return st;
    const mode_cache *mf = hdo_run_mode_entry(c, from);
    mode_cache *mt = hdo_run_mode_entry(c, to);
    left_limit L = {mf->red, mf->xs, mf->xu, NULL, NULL};
    const hdo_reduced_struct *r = mt->red;
    for (slong i = 0; i < r->nstate; i++) {
        slong v = r->state[i].var, o = r->state[i].order;
        mt->fixed[i] = hdo_run_left_value(mt->xs + i, &L, v, o);
        if (!mt->fixed[i]) {
            if (o == 0)
                hdo_run_start_guess(mt->xs + i, c, v);
            else
                mpfr_set_ui(mt->xs + i, 0, MPFR_RNDN);
        }
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        slong v = r->unknown[j].var, o = r->unknown[j].order;
        if (!hdo_run_left_value(mt->xu + j, &L, v, o)) {
            if (o == 0)
                hdo_run_start_guess(mt->xu + j, c, v);
            else
                mpfr_set_ui(mt->xu + j, 0, MPFR_RNDN);
        }
    }
    return hdo_run_reinit(c, to, t, &adjusted);
}

/* The mask of the pattern the state of mode m (consistent at t) lies
   in: every crossing guard of m that is infeasible at t, or zero there
   and leaving into its infeasible side (the first coefficient that
   matters over the step is negative: hdo_event_locate's rule for a zero
   at the start of an arc), flips its relation. */
static slong
wanted_mask(run_ctx *c, slong m, const mpfr_t t)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    const hdo_mode *mode = c->model->modes + m;
    slong k = mode->nrel, first = mode->nwhens - k, mask = mode->mask;
    hdo_error_t e;
    hdo_error_clear(&e);
    if (hdo_stepper_apply(mc->step, t, mc->xs, mc->xu, &e) < 0)
        return mask; /* the first step reports it */
    slong p = mc->step->dense.order;
    mpfr_t h, root;
    mpfr_init2(h, c->prec);
    mpfr_init2(root, c->prec);
    hdo_stepper_step_size(h, mc->step, c->tol);
    hdo_run_event_horizon(h, t);
    hdo_run_guard_floors(c, mc, t, mc->xs, mc->xu, &mc->step->dense);
    for (slong j = 0; j < k; j++) {
        mpfr_srcptr coef = mc->step->dense.guard[(first + j) * (p + 1)];
        if (hdo_event_locate(root, coef, p + 1, h, c->tol,
                             mc->gfloor + first + j, c->prec) ==
                HDO_EVENT &&
            mpfr_zero_p(root))
            mask ^= (slong)1 << j;
    }
    mpfr_clears(h, root, (mpfr_ptr)0);
    return mask;
}

int
hdo_run_pick_pattern(run_ctx *c, slong *m, const mpfr_t t)
{
    const hdo_mode *mode = c->model->modes + *m;
    if (mode->pattern == NULL)
        return 0;
    const hdo_mode *fam = c->model->modes + mode->family;
    slong seen[HDO_MODEL_MAX_RELATIONS + 2], nseen = 0;
    seen[nseen++] = *m;
    for (slong it = 0; it <= fam->nrel; it++) {
        slong mask = wanted_mask(c, *m, t);
        if (mask == c->model->modes[*m].mask)
            return 0;
        slong next = fam->family_modes[mask];
        for (slong i = 0; i < nseen; i++)
            if (seen[i] == next)
                return 0; /* both sides leave: the driver slides there */
        int st = move_state(c, *m, next, t);
        if (st < 0)
            return st;
        *m = next;
        seen[nseen++] = next;
    }
    return 0;
}
