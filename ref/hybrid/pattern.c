/* pattern.c -- entering a mode with relations: the sign pattern (or zero
 * variant) that the state at the entry time selects, and the refusal
 * where the solution does not continue uniquely (docs/decisions.md D-013,
 * D-014, piecewise expressions and "Which solution") */
#include <stdlib.h>
#include "driver.h"
#include "chatter.h"

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

/* move_state for a pattern that is only tried: one that cannot be
   entered there (a singular pattern, no consistent point) is no
   continuation, and its error must not stay in the record (a later
   failure would inherit its mode and time).  1 when moved. */
static int
try_move(run_ctx *c, slong from, slong to, const mpfr_t t)
{
    if (move_state(c, from, to, t) == 0)
        return 1;
    if (c->err != NULL)
        hdo_error_clear(c->err);
    return 0;
}

/* The Taylor expansion of mode m at its state (consistent at t) and H,
   the horizon of the zero rule there.  0, or -1 when the expansion
   fails (the first step reports it). */
static int
expand(run_ctx *c, slong m, const mpfr_t t, mpfr_t H)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    hdo_error_t e;
    hdo_error_clear(&e);
    hdo_run_set_floors(c, mc);
    hdo_run_guard_noise(c, mc, t, mc->xs, mc->xu);
    if (hdo_stepper_apply(mc->step, t, mc->xs, mc->xu, &e) < 0)
        return -1;
    hdo_stepper_step_size(H, mc->step);
    hdo_run_event_horizon(H, c, t);
    hdo_run_guard_floors(c, mc, t, mc->xs, mc->xu, &mc->step->dense, H);
    return 0;
}

/* Where the switching function of a guard goes over the step just
   expanded, by the zero rule of hdo_event_zero_order (its first
   coefficient that matters): R_ZERO when it stays within the rule's
   tolerance over the whole step (identically zero), else R_POS or R_NEG
   by that coefficient's sign, order its index (0: the value itself is
   not zero); R_FAIL when the mode could not be expanded. */
enum { R_FAIL = -2, R_NEG = -1, R_ZERO = 0, R_POS = 1 };

typedef struct {
    int kind;
    slong order;
} rel_state;

static rel_state
guard_state(run_ctx *c, slong m, slong g, const mpfr_t H, int sgn,
            const mpfr_t t)
{
    mode_cache *mc = hdo_run_mode_entry(c, m);
    slong p = mc->step->dense.order;
    mpfr_srcptr coef = mc->step->dense.guard[g * (p + 1)];
    mpfr_srcptr fl = mc->gfloor != NULL ? mc->gfloor + g : NULL;
    rel_state r;
    /* D(0) a value: zero only within its own error (D-112), not within
       tol times D's size over the step (1e-30 - y at y = 0, D-125); then
       D'(0) too (D-130) */
    r.order = hdo_run_guard_zero_order(c, mc, g, coef, p + 1, H, fl, t,
                                       mpfr_equal_p(t, c->event_at));
    r.kind = r.order == p + 1 ? R_ZERO : sgn * mpfr_sgn(coef + r.order);
    return r;
}

/* The state of relation j's D in pattern m: its crossing guard is D on
   the >= side and in a zero variant, -D on the < side. */
static rel_state
rel_state_of(run_ctx *c, slong m, slong j, const mpfr_t H, const mpfr_t t)
{
    const hdo_mode *mode = c->model->modes + m;
    slong first = mode->nwhens - mode->nrel;
    int sgn = ((mode->mask | mode->zmask) >> j) & 1 ? 1 : -1;
    return guard_state(c, m, first + j, H, sgn, t);
}

/* The run's note that a mode was used (summary.json) is taken back for
   a mode that was only tried. */
static void
untry(run_ctx *c, slong q, int was_used)
{
    if (q >= 0 && q < c->model->nmodes)
        c->res->modes[q].used = was_used;
}

/* Refuses: the solution is not unique at t (or, with status
   HDO_ERR_UNSUPPORTED, no continuation is covered) on the surface of
   relation j of mode m, for the reason why (a format in which every %s
   is the switching function D). */
static int
refuse(run_ctx *c, int status, slong m, slong j, const mpfr_t t,
       const char *why)
{
    const hdo_mode *mode = c->model->modes + m;
    const hdo_mode *fam = c->model->modes + mode->family;
    char *ts, *ds = hdo_expr_to_string(c->model->pool, fam->rel[j],
                                       c->model->var_names);
    const char *d = ds != NULL ? ds : "?";
    char reason[600];
    mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), t);
    snprintf(reason, sizeof reason, why, d, d, d);
    hdo_error_set(
        c->err, status, fam->rel_pos[j].line, fam->rel_pos[j].col,
        "%s at t = %s: on the surface '%s = 0' of mode '%s', %s%s",
        status == HDO_ERR_NOT_UNIQUE ? "the solution is not unique"
                                     : "the continuation is not covered",
        ts, d, mode->name, reason,
        status == HDO_ERR_NOT_UNIQUE ? "; hdo does not choose one" : "");
    mpfr_free_str(ts);
    free(ds);
    return hdo_run_fail(c, status, m, t);
}

/* Relation j of pattern m (consistent at t, expanded with horizon Hm)
   is zero at t.  Which pattern continues (docs/model-format.md, "Which
   solution"): Pp and Pn are the patterns with j on its >= and < side,
   P0 the one that gives j its value at D = 0 (a zero variant, or Pp or
   Pn when that value is one side's).  A side continues when its field
   leaves into it; both: not unique.  Both fields pointing at the
   surface (first order): Filippov sliding, which the driver's first
   step starts from a side pattern; at higher order (both tangent to
   first order) the zero variant when it keeps D identically zero.  A
   side whose field keeps D identically zero while the other's points at
   the surface: that side.  Both keep D identically zero: P0 if it does
   too.  One keeps it, the other leaves: not unique (staying and leaving
   are both Filippov solutions).  Sets *next. */
static int
decide(run_ctx *c, slong m, slong j, const mpfr_t t, const mpfr_t Hm,
       slong *next)
{
    const hdo_mode *mode = c->model->modes + m;
    const hdo_mode *fam = c->model->modes + mode->family;
    slong bit = (slong)1 << j, zm = mode->zmask & ~bit;
    slong cand[3]; /* Pp, Pn, P0 */
    cand[0] =
        hdo_model_pattern_mode(c->model, mode->family, mode->mask | bit, zm);
    cand[1] =
        hdo_model_pattern_mode(c->model, mode->family, mode->mask & ~bit, zm);
    cand[2] = (fam->mixed & bit)
                  ? hdo_model_pattern_mode(c->model, mode->family,
                                           mode->mask & ~bit, zm | bit)
              : (fam->strict & bit) ? cand[1]
                                    : cand[0];
    rel_state r[3];
    int was[3] = {0, 0, 0}, tried[3] = {0, 0, 0};
    mpfr_t H;
    mpfr_init2(H, c->prec);
    for (int i = 0; i < 3; i++) {
        r[i].kind = R_FAIL;
        r[i].order = 0;
        slong q = cand[i];
        if (q < 0)
            continue;
        if (i == 2 && (q == cand[0] || q == cand[1])) {
            r[2] = r[q == cand[0] ? 0 : 1];
            continue;
        }
        if (q == m) {
            r[i] = rel_state_of(c, m, j, Hm, t);
            continue;
        }
        was[i] = c->res->modes[q].used;
        tried[i] = 1;
        if (try_move(c, m, q, t) && expand(c, q, t, H) == 0)
            r[i] = rel_state_of(c, q, j, H, t);
    }
    mpfr_clear(H);
    int pk = r[0].kind, nk = r[1].kind, zk = r[2].kind;
    slong chosen = m;
    const char *why = NULL;
    int status = HDO_ERR_NOT_UNIQUE;
    if (pk == R_POS && nk == R_NEG) {
        why = "the fields of both sides leave it (repulsive sliding: %s > 0 "
              "and %s < 0 both continue)";
    } else if (pk == R_POS && nk != R_ZERO) {
        chosen = cand[0];
    } else if (nk == R_NEG && pk != R_ZERO) {
        chosen = cand[1];
    } else if (pk == R_NEG && nk == R_POS) {
        /* both fields point at the surface: Filippov sliding, started by
           the driver from a side pattern; tangent to first order on
           both sides, the value at 0 when it keeps D identically zero
           (der(x) = v, der(v) = -sign(x) at rest) */
        if (r[0].order > HDO_CP_MAX_ORDER || r[1].order > HDO_CP_MAX_ORDER) {
            /* a side excluded only at order 3 or more: solutions whose
               switches accumulate at t from the right leave the surface
               (der(x''') = -sign(x) from 0, Camlibel et al. 2002 Ex.
               5.3); the rule of complementarity blocks */
            why = "both sides' fields point at it, one only at order 3 or "
                  "more of %s's Taylor series: solutions whose switches "
                  "accumulate at t from the right may leave it (Filippov)";
        } else if (r[0].order >= 2 && r[1].order >= 2 && zk == R_ZERO)
            chosen = cand[2];
        else
            chosen = (mode->zmask & bit) ? cand[1] : m;
    } else if (pk == R_ZERO && nk == R_ZERO) {
        if (zk == R_ZERO)
            chosen = cand[2];
        else if (cand[2] < 0) {
            status = HDO_ERR_UNSUPPORTED;
            why = fam->family_modes == NULL
                      ? "%s is identically zero, and the relation's value at "
                        "0 needs a zero variant, which a mode whose sign "
                        "patterns are built when entered (more than 12 "
                        "relations) does not have"
                      : "%s is identically zero, and the relation's value at "
                        "0 needs a zero variant beyond the 4096 sign-pattern "
                        "modes";
        } else
            why = "the fields of both sides keep %s identically zero, and "
                  "the relation's value at 0 does not";
    } else if (pk == R_ZERO && nk == R_POS) {
        chosen = cand[0];
    } else if (pk == R_NEG && nk == R_ZERO) {
        chosen = cand[1];
    } else if ((pk == R_ZERO && nk == R_NEG) || (nk == R_ZERO && pk == R_POS)) {
        /* one side keeps D identically zero, the other's field leaves
           it: the Filippov set at the surface holds both, so staying and
           leaving are both solutions (der(h) = sign(h) - 1 from 0: h = 0
           and h = -2 t); hdo does not choose */
        why = "one side's field keeps %s identically zero and the other's "
              "leaves it: staying on the surface and leaving it are both "
              "solutions (%s = 0 is in the convex hull of the two fields)";
    }
    /* otherwise (a side could not be entered or expanded): stay, the
       first step reports what is wrong with it */
    for (int i = 0; i < 3; i++)
        if (tried[i] && cand[i] != chosen)
            untry(c, cand[i], was[i]);
    if (why != NULL)
        return refuse(c, status, m, j, t, why);
    *next = chosen;
    return 0;
}

/* The registry of sign patterns built when entered is full (model.h):
   the pattern a run needs has no id. */
static int
full(run_ctx *c, slong m, const mpfr_t t)
{
    const hdo_mode *fam = c->model->modes + c->model->modes[m].family;
    hdo_error_set(c->err, HDO_ERR_UNSUPPORTED, fam->pos.line, fam->pos.col,
                  "mode '%s': the run meets more than %d sign patterns "
                  "(with their neighbours across one relation): not "
                  "supported",
                  fam->name, HDO_MODEL_MAX_LAZY_MODES);
    return hdo_run_fail(c, HDO_ERR_UNSUPPORTED, m, t);
}

/* The pattern under `chattering hysteresis d`, whose crossing guards are
   moved by d (a relation at D = 0 is then inside its band on both sides):
   every crossing guard infeasible at t, or zero there and leaving into
   its infeasible side, flips its relation, until a pattern repeats. */
static int
pick_by_feasibility(run_ctx *c, slong *m, const mpfr_t t)
{
    const hdo_mode *fam = c->model->modes + c->model->modes[*m].family;
    slong seen[HDO_MODEL_MAX_LAZY_RELATIONS + 2], nseen = 0;
    mpfr_t H;
    int st = 0;
    mpfr_init2(H, c->prec);
    seen[nseen++] = *m;
    for (slong it = 0; it <= fam->nrel && st == 0; it++) {
        const hdo_mode *mode = c->model->modes + *m;
        slong k = mode->nrel, first = mode->nwhens - k, mask = mode->mask;
        if (expand(c, *m, t, H) < 0)
            break;
        for (slong j = 0; j < k; j++) {
            rel_state r = guard_state(c, *m, first + j, H, 1, t);
            if (r.kind == R_NEG)
                mask ^= (slong)1 << j;
        }
        if (mask == mode->mask)
            break;
        slong next = hdo_model_pattern_mode(c->model, mode->family, mask, 0), i;
        if (next < 0) {
            st = full(c, *m, t);
            break;
        }
        for (i = 0; i < nseen && seen[i] != next; i++)
            ;
        if (i < nseen)
            break; /* both sides leave: the driver slides there */
        st = move_state(c, *m, next, t);
        if (st == 0) {
            *m = next;
            seen[nseen++] = next;
        }
    }
    mpfr_clear(H);
    return st;
}

int
hdo_run_pick_pattern(run_ctx *c, slong *m, const mpfr_t t)
{
    const hdo_mode *mode = c->model->modes + *m;
    if (mode->pattern == NULL)
        return 0;
    if (hdo_run_chatter_policy(c->model)->guard != NULL)
        return pick_by_feasibility(c, m, t);
    const hdo_mode *fam = c->model->modes + mode->family;
    slong k = fam->nrel;
    mpfr_t H;
    int st = 0;
    mpfr_init2(H, c->prec);
    /* each round fixes at least one relation; a bound for safety */
    for (slong it = 0; it < 2 * k + 2 && st == 0; it++) {
        mode = c->model->modes + *m;
        if (expand(c, *m, t, H) < 0)
            break;
        /* relations away from their surface: the side of their value */
        slong mask = mode->mask, zmask = mode->zmask, onsurf = 0;
        for (slong j = 0; j < k; j++) {
            slong bit = (slong)1 << j;
            rel_state r = rel_state_of(c, *m, j, H, t);
            if (r.kind == R_ZERO || r.order > 0) {
                onsurf |= bit;
                continue;
            }
            zmask &= ~bit;
            mask = r.kind == R_POS ? mask | bit : mask & ~bit;
        }
        slong next = *m;
        if (mask != mode->mask || zmask != mode->zmask) {
            next = hdo_model_pattern_mode(c->model, mode->family, mask, zmask);
            st = next < 0 ? full(c, *m, t) : move_state(c, *m, next, t);
        } else {
            /* on their surface: one at a time (decide) */
            for (slong j = 0; j < k && st == 0 && next == *m; j++)
                if ((onsurf >> j) & 1)
                    st = decide(c, *m, j, t, H, &next);
        }
        if (st < 0 || next == *m)
            break;
        *m = next;
    }
    mpfr_clear(H);
    return st;
}

/* The `when` of mode b back to the family of mode a without a reset, or
   -1 (an index, not a status). */
static slong
when_back(const hdo_model_struct *model, slong b, slong a)
{
    const hdo_mode *mb = model->modes + b;
    slong fa = model->modes[a].family;
    for (slong k = 0; k < mb->nwhens; k++)
        if (!mb->whens[k].crossing && mb->whens[k].nassigns == 0 &&
            model->modes[mb->whens[k].target].family == fa)
            return k;
    return -1;
}

int
hdo_run_check_when_unique(run_ctx *c, slong m, const mpfr_t t)
{
    hdo_model_struct *model = c->model;
    const hdo_mode *mode = model->modes + m;
    slong nfile = mode->nwhens - mode->nrel;
    if (nfile == 0 || hdo_run_chatter_policy(model)->guard != NULL)
        return 0;
    mpfr_t H, Hb;
    int st = 0, expanded = 0;
    mpfr_inits2(c->prec, H, Hb, (mpfr_ptr)0);
    for (slong g = 0; g < nfile && st == 0; g++) {
        const hdo_transition *tr = mode->whens + g;
        slong b = tr->target, kb;
        if (tr->nassigns > 0 || tr->perp || model->modes[b].pattern != NULL ||
            model->modes[b].family == mode->family ||
            (kb = when_back(model, b, m)) < 0)
            continue;
        if (!expanded && hdo_run_expand_entered(c, m, t, H) < 0)
            break;
        expanded = 1;
        /* m's guard zero at t and leaving into m's feasible side */
        rel_state ra = guard_state(c, m, g, H, 1, t);
        if (ra.kind != R_POS || ra.order == 0)
            continue;
        const mode_cache *mc = hdo_run_mode_find(c, m);
        left_limit L = {mc->red, mc->xs, mc->xu, NULL, NULL};
        if (!hdo_run_same_surface(c, tr->guard, model->modes[b].whens[kb].guard,
                                  &L, t))
            continue;
        int was = c->res->modes[b].used;
        rel_state rb = {R_FAIL, 0};
        if (try_move(c, m, b, t)) {
            mode_cache *mb = hdo_run_mode_entry(c, b);
            if (hdo_run_clock_pair(model, tr->guard,
                                   model->modes[b].whens[kb].guard) &&
                !(mb->step->type->flags & HDO_STEP_IMPLICIT)) {
                /* b's function is -m's: it leaves into its own infeasible
                   side.  Of the expansion only what outlives it is done:
                   b's values noted in the scale floors (an implicit
                   stepper's apply has a history: it is expanded) */
                hdo_run_set_floors(c, mb);
                rb.kind = R_NEG;
            } else if (expand(c, b, t, Hb) == 0) {
                rb = guard_state(c, b, kb, Hb, 1, t);
            }
        }
        untry(c, b, was);
        if (rb.kind != R_POS || rb.order == 0)
            continue;
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), t);
        hdo_error_set(c->err, HDO_ERR_NOT_UNIQUE, tr->pos.line, tr->pos.col,
                      "the solution is not unique at t = %s: on the surface "
                      "'%s' between modes '%s' and '%s', the fields of both "
                      "leave it into their own sides (repulsive sliding: "
                      "each mode continues); hdo does not choose one",
                      ts, tr->guard_text, mode->name, model->modes[b].name);
        mpfr_free_str(ts);
        st = hdo_run_fail(c, HDO_ERR_NOT_UNIQUE, m, t);
    }
    mpfr_clears(H, Hb, (mpfr_ptr)0);
    return st;
}
