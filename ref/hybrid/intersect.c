/* intersect.c -- Filippov sliding on the intersection of several
 * switching surfaces (Aljarbouh-Caillaud, chattering path avoidance,
 * section 3.2; decisions.md D-005, "Filippov sliding").  It uses the
 * driver's private mode cache, left limits and transitions (driver.h);
 * the symbolic construction is in ref/reduce/filippov_cube.c.
 *
 * A regime is a set of adjacent modes: one mode (k = 0), the pair of a
 * `sliding(a,b)` mode (k = 1, filippov.c), or the 2^k corners of a cube
 * (k = 2, 3: mode table keys hdo_mode_id_cube(mask), named by their
 * modes).
 * The sliding field on the intersection of k surfaces is the
 * multilinear convex combination (30) of the 2^k corner fields with
 * the weights alpha_j fixed by the k tangency conditions (39).  It is
 * built only when the corner fields are affine in the signs of the
 * surfaces (checked symbolically, ref/reduce/filippov_cube.c); then (30) equals
 * f0 + sum_j beta_j g_j (beta_j = 2 alpha_j - 1: Utkin's equivalent
 * control) and (39) is the linear system G beta = -L_f0 surf with
 * G_jl = grad surf_j . g_l, so the weights are unique exactly when
 * det G != 0 -- which holds for both friction cases of the corpus (G is
 * constant and diagonal for the belt, constant with det > 0 for the
 * three blocks).  det G near 0, or det G not constant, is
 * HDO_ERR_UNSUPPORTED.
 *
 * Which regime follows an event (choose_regime): at a further surface
 * reached while sliding, the weights of the cube with that surface are
 * evaluated; all in (0, 1) (beyond sqrt(tol)): slide on the larger
 * intersection.  Otherwise every weight beyond [0, 1] pins its surface
 * to the side whose corner field it over-weights (alpha_j > 1: the side
 * of corner[0], alpha_j < 0: the other side), and the regime of the
 * remaining surfaces on those sides is taken if it is consistent: its
 * weights inside (0, 1) and its field moving into each pinned side
 * (beyond sqrt(tol)).  A weight within sqrt(tol) of 0 or 1, or an
 * inconsistent choice, is HDO_ERR_UNSUPPORTED naming the surfaces and
 * the time.  While sliding on k >= 2 surfaces, alpha_j reaching 0 or 1
 * leaves surface j into the side of the corner fields that weight
 * reaches (a stick force reaching the friction limit), the other
 * weights again inside (0, 1). */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

static int
popcount_u64(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The modes of the regime of mode table key m as a mask. */
static uint64_t
regime_mask(const run_ctx *c, slong m)
{
    return hdo_mode_id_mask(c->model, m);
}

static int
intersect_fail(run_ctx *c, slong mode, const mpfr_t t, const char *fmt,
               const char *what)
{
    char *ts;
    mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), t);
    const hdo_mode *md = c->model->modes + mode;
    hdo_error_set(c->err, HDO_ERR_UNSUPPORTED, md->pos.line, md->pos.col, fmt,
                  what, ts);
    mpfr_free_str(ts);
    return hdo_run_fail(c, HDO_ERR_UNSUPPORTED, mode, t);
}

/* "'S1', 'S2'" for the surfaces of set, as written in corner[0]. */
static void
surface_names(char *buf, size_t size, const run_ctx *c,
              const hdo_sliding_set *set)
{
    const hdo_mode *m0 = c->model->modes + set->corner[0];
    size_t len = 0;
    buf[0] = '\0';
    for (slong j = 0; j < set->k; j++)
        for (slong w = 0; w < m0->nwhens; w++)
            if (m0->whens[w].guard == set->surf[j]) {
                int r = snprintf(buf + len, size - len, "%s'%s'",
                                 len ? " and " : "", m0->whens[w].guard_text);
                if (r > 0 && (size_t)r < size - len)
                    len += (size_t)r;
                break;
            }
}

/* The cube of mask with its sliding field built into *red (caller
   clears it); the reduced forms of the corners are built first. */
static int
build_cube(run_ctx *c, uint64_t mask, hdo_sliding_set *set,
           hdo_reduced_struct *red, const mpfr_t t, slong near, const char *ctx)
{
    char why[512];
    int st = hdo_sliding_cube(set, c->model, mask, why, sizeof why);
    if (st == 0) {
        const hdo_reduced_struct *reds[HDO_MODE_ID_MAXMODES];
        for (slong s = 0; s < ((slong)1 << set->k); s++) {
            slong q = set->corner[s];
            if ((st = hdo_run_mode_cache_get(c, q, t)) < 0)
                return st;
            reds[q] = hdo_run_mode_entry(c, q)->red;
        }
        st = hdo_sliding_build_set(red, set, c->model, reds, why, sizeof why);
    }
    if (st < 0) {
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), t);
        const hdo_mode *md = c->model->modes + near;
        hdo_error_set(c->err, st, md->pos.line, md->pos.col,
                      "%s: %s (at t = %s)", ctx, why, ts);
        mpfr_free_str(ts);
        return hdo_run_fail(c, st, near, t);
    }
    return 0;
}

/* Chooses the regime after an event at t (left limit L) among the faces
   of the cube of mask: pinned_j >= 0 is a surface left with its side
   (bit value pinned_side), not tested for the direction (its weight is
   at its bound).  *out: the mask of the chosen regime. */
static int
choose_regime(run_ctx *c, uint64_t mask, slong pinned_j, int pinned_side,
              const left_limit *L, const mpfr_t t, const char *ctx,
              uint64_t *out)
{
    hdo_model_struct *model = c->model;
    hdo_sliding_set set, sub;
    hdo_reduced_t red, sred;
    slong q0 = 0;
    int st;
    char names[512];
    while (!((mask >> q0) & 1))
        q0++;
    hdo_reduced_init(red);
    hdo_reduced_init(sred);
    if ((st = build_cube(c, mask, &set, red, t, q0, ctx)) < 0) {
        hdo_reduced_clear(red);
        hdo_reduced_clear(sred);
        return st;
    }
    surface_names(names, sizeof names, c, &set);
    int k = (int)set.k;
    hdo_expr e[HDO_SLIDING_MAXK + 1];
    mpfr_ptr v = hdo_vec_init(2 * HDO_SLIDING_MAXK + 2, c->prec);
    mpfr_t thr, x;
    mpfr_inits2(c->prec, thr, x, (mpfr_ptr)0);
    mpfr_sqrt(thr, c->tol, MPFR_RNDN);
    for (int j = 0; j < k; j++)
        e[j] = set.beta[j];
    e[k] = set.det;
    const char *bad = NULL;
    if (!hdo_expr_is_constant(model->pool, set.det))
        bad = "sliding on the intersection of %s: the weights depend on the "
              "state through a non-constant determinant; not covered (t = %s)";
    else if (hdo_run_eval_on_left(c, v, e, k + 1, L, t) != 0 ||
             mpfr_cmpabs(v + k, thr) <= 0)
        bad = "sliding on the intersection of %s: the Filippov weights are "
              "not unique (the surfaces are not transversal to the corner "
              "fields) at t = %s; not covered";
    /* pins: weights beyond [0, 1] (beta beyond [-1, 1]) */
    uint64_t pin = 0, side = 0;
    for (int j = 0; bad == NULL && j < k; j++) {
        if (j == pinned_j) {
            pin |= (uint64_t)1 << j;
            side |= (uint64_t)pinned_side << j;
            continue;
        }
        mpfr_abs(x, v + j, MPFR_RNDN);
        mpfr_sub_ui(x, x, 1, MPFR_RNDN);
        if (mpfr_cmpabs(x, thr) <= 0)
            bad = "sliding on the intersection of %s: a Filippov weight is at "
                  "0 or 1 at t = %s (a tangential or degenerate point); not "
                  "covered";
        else if (mpfr_sgn(x) > 0) {
            pin |= (uint64_t)1 << j;
            /* beta_j > 1: alpha_j > 1, corner[0]'s side (bit 0) */
            if (mpfr_sgn(v + j) < 0)
                side |= (uint64_t)1 << j;
        }
    }
    if (bad == NULL && pin == 0) {
        *out = mask;
    } else if (bad == NULL) {
        uint64_t smask = 0;
        for (slong s = 0; s < ((slong)1 << k); s++)
            if (((uint64_t)s & pin) == side)
                smask |= (uint64_t)1 << set.corner[s];
        /* the field of the face: a mode's own field, or the sliding
           field of the sub-cube; its weights must be inside (0, 1) */
        const hdo_reduced_struct *fr;
        if (popcount_u64(smask) == 1) {
            slong q = 0;
            while (!((smask >> q) & 1))
                q++;
            fr = hdo_run_mode_entry(c, q)->red;
        } else {
            slong s0 = 0;
            while (!((smask >> s0) & 1))
                s0++;
            if ((st = build_cube(c, smask, &sub, sred, t, s0, ctx)) < 0)
                goto done;
            for (int j = 0; j < sub.k; j++)
                e[j] = sub.beta[j];
            if (hdo_run_eval_on_left(c, v, e, (slong)sub.k, L, t) != 0)
                bad = "sliding on %s: the weights cannot be evaluated at t = "
                      "%s";
            for (int j = 0; bad == NULL && j < sub.k; j++) {
                mpfr_abs(x, v + j, MPFR_RNDN);
                mpfr_sub_ui(x, x, 1, MPFR_RNDN);
                mpfr_add(x, x, thr, MPFR_RNDN);
                if (mpfr_sgn(x) >= 0)
                    bad = "sliding on the intersection of %s: after leaving "
                          "the surfaces whose Filippov weights fall outside "
                          "[0, 1], a weight of the remaining ones is outside "
                          "(0, 1) too at t = %s (the choice of the face is "
                          "not covered)";
            }
            fr = sred;
        }
        /* the face's field moves into every pinned side */
        for (int j = 0; bad == NULL && j < k; j++) {
            if (!((pin >> j) & 1) || j == pinned_j)
                continue;
            hdo_expr lie = hdo_sliding_lie(model, fr, set.surf[j]);
            if (lie == HDO_EXPR_NONE ||
                hdo_run_eval_on_left(c, v, &lie, 1, L, t) != 0)
                bad = "sliding on the intersection of %s: a surface depends "
                      "on a variable the face lacks (t = %s)";
            else if (!(((side >> j) & 1)
                           ? mpfr_cmpabs(v, thr) > 0 && mpfr_sgn(v) < 0
                           : mpfr_cmp(v, thr) > 0))
                bad = "sliding on the intersection of %s: the face chosen by "
                      "the Filippov weights outside [0, 1] does not move off "
                      "the surface it leaves at t = %s (not covered)";
        }
        *out = smask;
    }
    if (bad != NULL)
        st = intersect_fail(c, q0, t, bad, names);
done:
    mpfr_clears(thr, x, (mpfr_ptr)0);
    hdo_vec_clear(v, 2 * HDO_SLIDING_MAXK + 2);
    hdo_reduced_clear(red);
    hdo_reduced_clear(sred);
    return st;
}

/* Builds (once per run) the sliding mode on the intersection of the
   cube of mask into its mode table entry, key hdo_mode_id_cube(mask): guards
   1 + beta_j (alpha_j = 0) and 1 - beta_j (alpha_j = 1) for each surface, then
   the other whens of the corners (each guard expression once). */
static int
xslot_get(run_ctx *c, uint64_t mask, const mpfr_t t, slong *idx)
{
    hdo_model_struct *model = c->model;
    slong q0 = 0, key = hdo_mode_id_cube(model, mask);
    int st;
    while (!((mask >> q0) & 1))
        q0++;
    mode_cache *mc = hdo_run_mode_entry(c, key);
    *idx = key;
    if (mc->built)
        return 0;
    hdo_sliding_set *set = calloc(1, sizeof *set);
    HDO_ASSERT(set != NULL);
    hdo_reduced_init(mc->red);
    if ((st = build_cube(c, mask, set, mc->red, t, q0,
                         "the sliding mode on an intersection")) < 0) {
        hdo_reduced_clear(mc->red);
        free(set);
        return st;
    }
    slong k = set->k, nc = (slong)1 << k, cap = 2 * k;
    for (slong s = 0; s < nc; s++)
        cap += model->modes[set->corner[s]].nwhens;
    hdo_expr *guards = malloc(cap * sizeof *guards);
    mc->other_mode = calloc(cap, sizeof(slong));
    mc->other_when = calloc(cap, sizeof(slong));
    HDO_ASSERT(guards != NULL && mc->other_mode != NULL &&
               mc->other_when != NULL);
    hdo_expr one = hdo_expr_const_si(model->pool, 1, 1);
    slong ng = 0;
    for (slong j = 0; j < k; j++) {
        guards[ng++] = hdo_expr_add(model->pool, one, set->beta[j]);
        guards[ng++] = hdo_expr_sub(model->pool, one, set->beta[j]);
    }
    for (slong s = 0; s < nc; s++) {
        slong p = set->corner[s];
        for (slong w = 0; w < model->modes[p].nwhens; w++) {
            slong tg = model->modes[p].whens[w].target;
            hdo_expr G = model->modes[p].whens[w].guard;
            if ((tg >= 0 && tg < 64 && ((mask >> tg) & 1)) ||
                model->modes[p].whens[w].zero)
                continue;
            slong d;
            for (d = 2 * k; d < ng; d++)
                if (guards[d] == G)
                    break;
            if (d < ng)
                continue;
            mc->other_mode[ng] = p;
            mc->other_when[ng] = w;
            guards[ng++] = G;
        }
    }
    st = hdo_run_stepper_init(c, mc->step, model, mc->red, guards, ng);
    free(guards);
    if (st < 0) {
        hdo_error_set(c->err, st, model->modes[q0].pos.line,
                      model->modes[q0].pos.col,
                      "the sliding mode on an intersection at '%s': %s",
                      model->modes[q0].name, mc->step->message);
        hdo_stepper_clear(mc->step);
        hdo_reduced_clear(mc->red);
        free(mc->other_mode);
        free(mc->other_when);
        mc->other_mode = mc->other_when = NULL;
        free(set);
        return hdo_run_fail(c, st, q0, t);
    }
    mc->set = set;
    mc->nguards = ng;
    mc->sa = mc->sb = -1;
    hdo_run_mode_cache_alloc(mc, 0, c->prec);
    return 0;
}

/* Moves from slot src to the regime of mask at t (every state kept). */
static int
enter_regime(run_ctx *c, slong src, uint64_t mask, const left_limit *L,
             const mpfr_t t, hdo_event_kind kind, const char *text)
{
    int np = popcount_u64(mask), st;
    slong m, a = 0;
    while (!((mask >> a) & 1))
        a++;
    hdo_run_hist_clear(c);
    if (np == 1) {
        hdo_transition tr;
        memset(&tr, 0, sizeof tr);
        tr.guard = HDO_EXPR_NONE;
        tr.target = a;
        tr.guard_text = (char *)text;
        tr.pos = c->model->modes[a].pos;
        return hdo_run_take_transition_tr(c, src, &tr, 0, L, t, kind);
    }
    if (np == 2) {
        slong b = a + 1;
        while (!((mask >> b) & 1))
            b++;
        st = hdo_run_sliding_get(c, a, b, t, &m);
    } else {
        st = xslot_get(c, mask, t, &m);
    }
    if (st < 0)
        return st;
    return hdo_run_enter_slot(c, src, m, L, t, kind, text);
}

/* 1 when, while sliding in slot m (regime mask, field red), the surface
   G that every corner crosses into mir (the mirrored regime) is simply
   crossed at t (left limit L): no corner's transition across it has a
   reset, the sliding field leaves through G (L G < -sqrt(tol)), the
   regime of mir slides on the same surfaces with its weights inside
   (0, 1) beyond sqrt(tol), and its field moves on into its side of G
   (L' G' > sqrt(tol), G' the guard back).  Then the Filippov solution
   passes through the surface while the sliding goes on (a relay
   sliding while `if t < 1.5` switches): no weight on G is needed,
   where the cube with G has none (its tangency conditions are singular
   when G does not depend on the sliding variables).  0 otherwise, or a
   negative status (the regime of mir cannot be built). */
static int
plain_crossing(run_ctx *c, slong m, hdo_expr G, uint64_t mask, uint64_t mir,
               const left_limit *L, const mpfr_t t, slong *key)
{
    hdo_model_struct *model = c->model;
    const mode_cache *mc = hdo_run_mode_find(c, m);
    slong n = model->nmodes, q0 = -1, q1 = -1, w1 = -1;
    int np = popcount_u64(mir), st, yes = 1;
    if (np < 2)
        return 0;
    for (slong q = 0; q < n && q < 64 && yes; q++) {
        if (!((mask >> q) & 1))
            continue;
        for (slong w = 0; w < model->modes[q].nwhens; w++) {
            const hdo_transition *tr = model->modes[q].whens + w;
            if (tr->guard != G || tr->zero)
                continue;
            yes = tr->nassigns == 0;
            if (q0 < 0) {
                q0 = q;
                q1 = tr->target;
            }
            break;
        }
    }
    if (!yes || q0 < 0)
        return 0;
    /* the guard of q1 back to q0 */
    for (slong w = 0; w < model->modes[q1].nwhens && w1 < 0; w++)
        if (model->modes[q1].whens[w].target == q0 &&
            !model->modes[q1].whens[w].zero)
            w1 = w;
    if (w1 < 0 || model->modes[q1].whens[w1].nassigns > 0)
        return 0;
    if (np == 2) {
        slong a = 0, b;
        while (!((mir >> a) & 1))
            a++;
        for (b = a + 1; !((mir >> b) & 1); b++)
            ;
        slong ka;
        for (ka = 0; ka < model->modes[a].nwhens; ka++)
            if (model->modes[a].whens[ka].target == b &&
                !model->modes[a].whens[ka].zero)
                break;
        if (ka == model->modes[a].nwhens)
            return 0; /* no sliding pair across there */
        st = hdo_run_sliding_get(c, a, b, t, key);
    } else {
        st = xslot_get(c, mir, t, key);
    }
    if (st < 0)
        return st;
    const mode_cache *mt = hdo_run_mode_find(c, *key);
    hdo_expr e[2 + 2 * HDO_SLIDING_MAXK];
    slong ne = 0;
    e[ne++] = hdo_sliding_lie(model, mc->red, G);
    e[ne++] = hdo_sliding_lie(model, mt->red, model->modes[q1].whens[w1].guard);
    if (e[0] == HDO_EXPR_NONE || e[1] == HDO_EXPR_NONE)
        return 0;
    /* the weights of the regime across, beta = 2 alpha - 1 for a pair */
    hdo_expr one = hdo_expr_const_si(model->pool, 1, 1);
    if (mt->set == NULL)
        e[ne++] = hdo_expr_sub(
            model->pool,
            hdo_expr_mul(model->pool, hdo_expr_const_si(model->pool, 2, 1),
                         mt->alpha),
            one);
    else
        for (slong j = 0; j < mt->set->k; j++)
            e[ne++] = mt->set->beta[j];
    mpfr_ptr v = hdo_vec_init(ne, c->prec);
    yes = hdo_run_eval_on_left(c, v, e, ne, L, t) == 0 &&
          hdo_run_plain_crossing_test(v, ne, c->tol, c->prec);
    hdo_vec_clear(v, ne);
    return yes;
}

int
hdo_run_plain_crossing_test(mpfr_srcptr v, slong n, const mpfr_t tol,
                            mpfr_prec_t prec)
{
    mpfr_t thr, x;
    mpfr_inits2(prec, thr, x, (mpfr_ptr)0);
    mpfr_sqrt(thr, tol, MPFR_RNDN);
    mpfr_neg(x, v + 0, MPFR_RNDN);
    int yes = mpfr_cmp(x, thr) > 0 && mpfr_cmp(v + 1, thr) > 0;
    for (slong i = 2; yes && i < n; i++) {
        /* |beta| < 1 - thr, as |beta| + thr < 1 */
        mpfr_abs(x, v + i, MPFR_RNDN);
        mpfr_add(x, x, thr, MPFR_RNDN);
        yes = mpfr_cmp_ui(x, 1) < 0;
    }
    mpfr_clears(thr, x, (mpfr_ptr)0);
    return yes;
}

/* While sliding in slot m, its guard g (another surface of a corner)
   is reached at t. */
int
hdo_run_intersect_reach(run_ctx *c, slong m, slong g, const left_limit *L,
                        const mpfr_t t)
{
    hdo_model_struct *model = c->model;
    mode_cache *mc = hdo_run_mode_entry(c, m);
    slong p = mc->other_mode[g];
    const hdo_transition *o = model->modes[p].whens + mc->other_when[g];
    uint64_t mask, big, next;
    int st;
    /* before any mask is formed: a shift by a mode index of 64 or more
       would be undefined */
    if (hdo_model_id_n(model) > HDO_MODE_ID_MAXMODES)
        return intersect_fail(c, p, t,
                              "sliding on an intersection of surfaces (at "
                              "'%s', t = %s) is covered for models of at most "
                              "62 modes",
                              o->guard_text);
    mask = big = regime_mask(c, m);
    /* every corner crosses the new surface into its own neighbour */
    for (slong q = 0; q < model->nmodes; q++) {
        if (!((mask >> q) & 1))
            continue;
        slong w;
        for (w = 0; w < model->modes[q].nwhens; w++)
            if (model->modes[q].whens[w].guard == o->guard)
                break;
        if (w == model->modes[q].nwhens)
            return intersect_fail(
                c, q, t,
                "while sliding, the surface '%s' is reached at t = %s, "
                "but not every mode adjacent to the sliding surfaces has "
                "a `when` across it: sliding on an intersection of "
                "surfaces (or crossing a surface while sliding) is not "
                "covered here",
                o->guard_text);
        big |= (uint64_t)1 << model->modes[q].whens[w].target;
    }
    if (popcount_u64(big) != 2 * popcount_u64(mask))
        return intersect_fail(c, p, t,
                              "while sliding, the surface '%s' is reached at "
                              "t = %s, and the modes across it are not "
                              "distinct: not covered",
                              o->guard_text);
    /* a surface that the sliding simply crosses (a relation of time,
       or of variables the sliding does not hold) */
    slong key;
    st = plain_crossing(c, m, o->guard, mask, big & ~mask, L, t, &key);
    if (st < 0)
        return st;
    if (st == 1)
        return hdo_run_enter_slot(c, m, key, L, t,
                                  o->crossing ? HDO_EV_CROSSING : HDO_EV_SWITCH,
                                  o->guard_text);
    char ctx[512];
    snprintf(ctx, sizeof ctx,
             "the surface '%s' of mode '%s' reached while "
             "sliding",
             o->guard_text, model->modes[p].name);
    st = choose_regime(c, big, -1, 0, L, t, ctx, &next);
    if (st < 0)
        return st;
    /* fewer modes: surfaces left; more: the new surface added; as
       many: the new surface crossed while sliding on the others (a
       switch, no mode kept) or traded for one of them (a start) */
    int kn = popcount_u64(next), ko = popcount_u64(mask);
    hdo_event_kind kind = kn < ko              ? HDO_EV_SLIDING_END
                          : kn > ko            ? HDO_EV_SLIDING_START
                          : (next & mask) == 0 ? HDO_EV_SWITCH
                                               : HDO_EV_SLIDING_START;
    return enter_regime(c, m, next, L, t, kind, o->guard_text);
}

/* While sliding in intersection slot m, the weight of surface j reaches
   0 (to_far = 1: the corner fields across surface j from corner[0] take
   over) or 1 at t. */
int
hdo_run_intersect_leave(run_ctx *c, slong m, slong j, int to_far,
                        const left_limit *L, const mpfr_t t)
{
    uint64_t next;
    int st = choose_regime(c, regime_mask(c, m), j, to_far, L, t,
                           "a Filippov weight of an intersection at its "
                           "bound",
                           &next);
    if (st < 0)
        return st;
    return enter_regime(c, m, next, L, t, HDO_EV_SLIDING_END,
                        to_far ? "alpha = 0" : "alpha = 1");
}
