/* floors.c -- the scale floors of a run: below them a variable's digits,
 * or a switching function's sign, are absolute */
#include <math.h>
#include <stdlib.h>
#include "driver.h"

/* Why.  hdo holds every value to D significant digits relative to its
   own magnitude (issue 23), which needs a floor where a magnitude stops
   meaning anything: a variable that is zero (at rest, on a surface) is
   computed as rounding noise, and noise resolved relative to itself
   would hold the step at its scale.  The floor of variable v is its
   `nominal` when the model gives one (the user's scale: a smaller one
   holds the variable relative further down), else
       max(tol vmax_v, tol^2 max_w vmax_w),
   vmax the largest |value| so far: a value that has fallen tol below its
   own largest magnitude (a fast mode damped out: the stiffness estimate
   sees it then); a value tol^2 below the largest variable of the model
   (the far nodes of bowed_string, zero in the state and 10^-3000 in the
   truth, would hold the step to 10^-90).  Each term scales with the
   variables, so a model whose every state is multiplied by 10^40 runs
   the same steps.  Below its floor a value's digits are absolute: rows
   record the floor, --verify counts such values against the variable's
   scale, and summary.json reports them (sample.c, verify.c, output.c). */

int
hdo_run_floors_init(run_ctx *c)
{
    slong n = c->model->nvars;
    c->nominal = hdo_vec_init(n, 64);
    c->vmax = hdo_vec_init(n, 64);
    for (slong v = 0; v < n; v++) {
        const hdo_var *var = c->model->vars + v;
        mpfr_set_zero(c->vmax + v, 1);
        mpfr_set_zero(c->nominal + v, 1);
        if (var->nominal == HDO_EXPR_NONE)
            continue;
        if (hdo_expr_eval_constant(c->nominal + v, c->model->pool,
                                   var->nominal) != 0 ||
            !mpfr_number_p(c->nominal + v) || mpfr_sgn(c->nominal + v) <= 0) {
            hdo_error_set(c->err, HDO_ERR_DOMAIN, var->nominal_pos.line,
                          var->nominal_pos.col,
                          "the nominal value of '%s' is not a positive "
                          "number",
                          var->name);
            return hdo_run_fail(c, HDO_ERR_DOMAIN, -1, NULL);
        }
    }
    return 0;
}

void
hdo_run_floors_clear(run_ctx *c)
{
    if (c->nominal != NULL)
        hdo_vec_clear(c->nominal, c->model->nvars);
    if (c->vmax != NULL)
        hdo_vec_clear(c->vmax, c->model->nvars);
    c->nominal = c->vmax = NULL;
}

/* tol^2 max_w vmax_w */
static void
model_floor(mpfr_t low, const run_ctx *c)
{
    mpfr_set_zero(low, 1);
    for (slong v = 0; v < c->model->nvars; v++)
        mpfr_max(low, low, c->vmax + v, MPFR_RNDU);
    mpfr_mul(low, low, c->tol, MPFR_RNDN);
    mpfr_mul(low, low, c->tol, MPFR_RNDN);
}

/* floor := nominal_v when given (the user's scale replaces the
   defaults, so a smaller one holds the variable relative further down),
   else max(tol vmax_v, low) */
static void
floor_with(mpfr_t floor, const run_ctx *c, slong v, const mpfr_t low)
{
    if (mpfr_regular_p(c->nominal + v)) {
        mpfr_set(floor, c->nominal + v, MPFR_RNDN);
        return;
    }
    mpfr_mul(floor, c->vmax + v, c->tol, MPFR_RNDN);
    mpfr_max(floor, floor, low, MPFR_RNDN);
}

void
hdo_run_var_floor(mpfr_t floor, const run_ctx *c, slong v)
{
    mpfr_t low;
    if (c->vmax == NULL) {
        mpfr_set_zero(floor, 1);
        return;
    }
    mpfr_init2(low, 64);
    model_floor(low, c);
    floor_with(floor, c, v, low);
    mpfr_clear(low);
}

void
hdo_run_var_floors_log2(double *lf, const run_ctx *c, const int *present)
{
    mpfr_t low, f;
    mpfr_inits2(64, low, f, (mpfr_ptr)0);
    model_floor(low, c);
    for (slong v = 0; v < c->model->nvars; v++)
        if (present == NULL || present[v]) {
            floor_with(f, c, v, low);
            lf[v] = hdo_log2_abs(f);
        }
    mpfr_clears(low, f, (mpfr_ptr)0);
}

void
hdo_run_var_scale(mpfr_t r, const run_ctx *c, slong v, mpfr_srcptr x)
{
    mpfr_abs(r, x, MPFR_RNDN);
    if (c->vmax != NULL) {
        mpfr_max(r, r, c->vmax + v, MPFR_RNDN);
        mpfr_max(r, r, c->nominal + v, MPFR_RNDN);
    }
    mpfr_mul(r, r, c->tol, MPFR_RNDN);
}

/* vmax_v := max(vmax_v, |x|) */
static void
note_value(run_ctx *c, slong v, mpfr_srcptr x)
{
    if (!mpfr_number_p(x))
        return;
    if (mpfr_cmpabs(x, c->vmax + v) > 0)
        mpfr_abs(c->vmax + v, x, MPFR_RNDU);
}

void
hdo_run_set_floors(run_ctx *c, mode_cache *mc)
{
    const hdo_reduced_struct *r = mc->red;
    mpfr_t low;
    if (c->vmax == NULL)
        return; /* hdo_run_rows: no steps */
    /* the run's time span, for Taylor's noise window (D-106), and its
       time unit, the driver's own, for Radau's step cap (D-122) */
    if (mc->step->lspan == -INFINITY) {
        mpfr_init2(low, 64);
        mpfr_sub(low, c->t_end, c->res->t0, MPFR_RNDN);
        mc->step->lspan = hdo_log2_abs(low);
        mpfr_clear(low);
        hdo_run_time_unit(mc->step->unit, c);
    }
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].order == 0)
            note_value(c, r->state[i].var, mc->xs + i);
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].order == 0)
            note_value(c, r->unknown[j].var, mc->xu + j);
    mpfr_init2(low, 64);
    model_floor(low, c);
    for (slong i = 0; i < r->nstate; i++)
        floor_with(mc->step->floor + i, c, r->state[i].var, low);
    for (slong j = 0; j < r->nimplicit; j++)
        floor_with(mc->step->floor + r->nstate + j, c, r->unknown[j].var, low);
    mpfr_clear(low);
}

/* The last guard floors' inputs (the point t, the guards' inputs and
   their radii: all that the enclosures read, trad being a function of
   t) are key; 1 when they are mc->gfkey's, else they are stored there
   and 0.  An event's expansion (hdo_run_expand_entered) and the step
   after it compute the floors at the same point (issue 28, D-113). */
static int
floors_key(run_ctx *c, mode_cache *mc, const mpfr_t t, mpfr_srcptr mid,
           mpfr_srcptr rad, slong nin)
{
    slong n = 1 + 2 * nin;
    int hit = mc->gfkey_valid;
    for (slong k = 0; k < n && hit; k++)
        hit = hdo_same_number(mc->gfkey + k, k == 0     ? t
                                             : k <= nin ? mid + (k - 1)
                                                        : rad + (k - 1 - nin));
    if (hit)
        return 1;
    if (mc->gfkey == NULL) {
        /* exact copies: rad is at 64 bits, a run's precision may be less */
        mc->gfkey = hdo_vec_init(n, c->prec > 64 ? c->prec : 64);
        mc->gfval = hdo_vec_init(mc->step->nguards, 64);
    }
    mpfr_set(mc->gfkey, t, MPFR_RNDN);
    for (slong q = 0; q < nin; q++) {
        mpfr_set(mc->gfkey + 1 + q, mid + q, MPFR_RNDN);
        mpfr_set(mc->gfkey + 1 + nin + q, rad + q, MPFR_RNDN);
    }
    mc->gfkey_valid = 0; /* until the values are stored */
    return 0;
}

/* The guards' radii at (t, xs, xu) into out (and mc->gfloor when
   gfloor): each input known to tol max(|value|, floor), plus, with dense,
   its drift over H and the event time's uncertainty (driver.h). */
static void
guard_radii(run_ctx *c, mode_cache *mc, const mpfr_t t, mpfr_srcptr xs,
            mpfr_srcptr xu, const hdo_dense *dense, const mpfr_t H,
            mpfr_ptr out, int gfloor, int *enclosed)
{
    const hdo_stepper_struct *sp = mc->step;
    slong ng = sp->nguards;
    if (ng == 0)
        return;
    if (mc->gprog == NULL) {
        mc->gprog = malloc(sizeof *mc->gprog);
        HDO_ASSERT(mc->gprog != NULL);
        hdo_program_init(mc->gprog, c->model->pool, sp->guards, ng, 64);
        mc->gfloor = hdo_vec_init(ng, 64);
        mc->gmid = hdo_vec_init(mc->gprog->ninputs + 1, c->prec);
        mc->grad = hdo_vec_init(mc->gprog->ninputs + 1, 64);
    }
    const hdo_program_struct *gp = mc->gprog;
    slong nin = gp->ninputs;
    mpfr_ptr mid = mc->gmid, rad = mc->grad; /* every entry read is set */
    mpfr_t m, r;
    mpfr_inits2(c->prec, m, r, (mpfr_ptr)0);
    /* the 64-bit ones on the stack (issue 28: at every step; D-116) */
    MPFR_DECL_INIT(trad, 64);
    MPFR_DECL_INIT(low, 64);
    /* hdo_run_var_floor's model floor, once: vmax does not change here */
    if (c->vmax != NULL)
        model_floor(low, c);
    MPFR_DECL_INIT(zero, 64);
    mpfr_set_zero(zero, 1);
    left_limit L = {mc->red, xs, xu, dense, zero};
    int known = 1;
    /* Over the step the inputs drift by their rate's error, tol |x'| H
       (the guard x2 - x1 of three balls at their limit state, x = 0,
       has for slope v2 - v1 the limit's rounding: it must be zero, not a
       direction).  Right after an event the state is also off by its
       rate times the uncertainty of the event's time (a triple root of
       h^3 is located to tol^(1/3) only, and h^3 at the arc's start is
       then that big). */
    int after = mpfr_equal_p(t, c->event_at) && dense != NULL &&
                mpfr_regular_p(c->event_dt);
    for (slong q = 0; q < nin && known; q++) {
        known = hdo_run_left_value(mid + q, &L, gp->inputs[q].var,
                                   gp->inputs[q].order);
        if (c->vmax != NULL)
            floor_with(rad + q, c, gp->inputs[q].var, low);
        else
            mpfr_set_zero(rad + q, 1);
        if (mpfr_cmpabs(mid + q, rad + q) > 0)
            mpfr_abs(rad + q, mid + q, MPFR_RNDU);
        /* the stepper's floors: no input below its rounding floor
           (Radau's 2^lround, radau_scale.c), which the guard's error
           estimate would read as the guard's own; the event tests that
           read these floors (the zero rule, Zeno, patterns) then know
           the guard to what its inputs are known (decisions.md D-139) */
        if (gfloor && sp->lround > -INFINITY) {
            mpfr_set_ui_2exp(m, 1, (long)sp->lround, MPFR_RNDN);
            mpfr_max(rad + q, rad + q, m, MPFR_RNDU);
        }
        mpfr_mul(rad + q, rad + q, c->tol, MPFR_RNDU);
        if (dense != NULL && hdo_run_left_value(m, &L, gp->inputs[q].var,
                                                gp->inputs[q].order + 1)) {
            mpfr_abs(m, m, MPFR_RNDU);
            mpfr_mul(r, m, c->tol, MPFR_RNDU);
            if (mpfr_number_p(H))
                mpfr_mul(r, r, H, MPFR_RNDU);
            mpfr_add(rad + q, rad + q, r, MPFR_RNDU);
            if (after) {
                mpfr_mul(m, m, c->event_dt, MPFR_RNDU);
                mpfr_add(rad + q, rad + q, m, MPFR_RNDU);
            }
        }
    }
    /* the floors (not the noise: its own key, the point) kept by the
       enclosures' inputs: the same inputs, the same bits */
    int memo = gfloor && known,
        hit = memo && floors_key(c, mc, t, mid, rad, nin);
    if (!hit)
        hdo_run_time_tol(trad, c, t);
    for (slong g = 0; g < ng; g++) {
        mpfr_set_zero(out + g, 1);
        int ok = 0;
        if (hit)
            mpfr_set(out + g, mc->gfval + g, MPFR_RNDN); /* exact */
        else if (known && hdo_expr_enclose(m, r, c->model->pool, sp->guards[g],
                                           gp->inputs, mid, rad, nin, t, trad,
                                           c->prec + 32) == 0) {
            mpfr_set(out + g, r, MPFR_RNDU);
            ok = 1;
        }
        if (enclosed != NULL)
            enclosed[g] = ok;
        if (memo && !hit)
            mpfr_set(mc->gfval + g, out + g, MPFR_RNDN);
        if (gfloor)
            mpfr_set(mc->gfloor + g, out + g, MPFR_RNDU);
    }
    if (memo)
        mc->gfkey_valid = 1;
    mpfr_clears(m, r, (mpfr_ptr)0);
}

void
hdo_run_guard_floors(run_ctx *c, mode_cache *mc, const mpfr_t t, mpfr_srcptr xs,
                     mpfr_srcptr xu, const hdo_dense *dense, const mpfr_t H)
{
    guard_radii(c, mc, t, xs, xu, dense, H, mc->step->gfloor, 1, NULL);
}

int
hdo_run_guard_floor_over(mpfr_t floor, run_ctx *c, mode_cache *mc, slong g,
                         const mpfr_t b)
{
    slong ng = mc->step->nguards;
    if (g < 0 || g >= ng)
        return 0;
    mpfr_ptr out = hdo_vec_init(ng, 64);
    int *enclosed = malloc(ng * sizeof *enclosed);
    HDO_ASSERT(enclosed != NULL);
    guard_radii(c, mc, c->t, mc->xs, mc->xu, &mc->step->dense, b, out, 0,
                enclosed);
    /* a floor not enclosed is not known: 0 would be no floor at all */
    int ok = enclosed[g] && mpfr_number_p(out + g);
    mpfr_set(floor, out + g, MPFR_RNDU);
    free(enclosed);
    hdo_vec_clear(out, ng);
    return ok;
}

/* Component k of the point (t, xs, xu): the key of the guard noise's
   last point. */
static mpfr_srcptr
point_entry(slong k, const mpfr_t t, mpfr_srcptr xs, slong ns, mpfr_srcptr xu)
{
    return k == 0 ? t : k <= ns ? xs + (k - 1) : xu + (k - 1 - ns);
}

void
hdo_run_guard_noise(run_ctx *c, mode_cache *mc, const mpfr_t t, mpfr_srcptr xs,
                    mpfr_srcptr xu)
{
    /* an implicit stepper's guard error reads gfloor (radau_guard.c) */
    if (mc->step->nguards == 0 || (mc->step->type->flags & HDO_STEP_IMPLICIT))
        return;
    /* the same point as the last: the same floors (an event's expansion,
       then the step from it; issue 28: an enclosure per guard) */
    slong ns = mc->red->nstate, n = 1 + ns + mc->red->nimplicit;
    int same = mc->gnkey != NULL && mc->gnkey_valid;
    for (slong k = 0; k < n && same; k++)
        same = mpfr_equal_p(mc->gnkey + k, point_entry(k, t, xs, ns, xu));
    if (same)
        return;
    mpfr_t H;
    mpfr_init2(H, 64);
    mpfr_set_zero(H, 1);
    guard_radii(c, mc, t, xs, xu, NULL, H, mc->step->gnoise, 0, NULL);
    mpfr_clear(H);
    if (mc->gnkey == NULL)
        mc->gnkey = hdo_vec_init(n, c->prec);
    for (slong k = 0; k < n; k++)
        mpfr_set(mc->gnkey + k, point_entry(k, t, xs, ns, xu), MPFR_RNDN);
    mc->gnkey_valid = 1;
}

/* Where (var, order) lives in r: state i >= 0, unknown -1 - j, or
   nstate when it is neither.  A state's error is tol times its largest
   size; an unknown's is not (the diode voltage ud = V sin(w t) - vC of
   rectifier_diode is zero while the diode conducts, its largest size so
   far its own rounding, 1e-79 with V = 1e-39, its error vC's, 1e-74):
   it is the states' errors carried through h (unknown_radii). */
static slong
where(const hdo_reduced_struct *r, slong var, slong order)
{
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == var && r->state[i].order == order)
            return i;
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].var == var && r->unknown[j].order == order)
            return -1 - j;
    return r->nstate;
}

/* mc->uval: the unknowns' errors at time t from the states'
   (hdo_run_var_scale) and t's (trad) through h
   (hdo_reduced_unknown_error, decisions.md D-124); 0 when it has them */
static int
unknown_radii(run_ctx *c, mode_cache *mc, const mpfr_t t, const mpfr_t trad)
{
    const hdo_reduced_struct *r = mc->red;
    slong ns = r->nstate, nu = r->nimplicit, n = 1 + ns + nu;
    if (mc->ukey != NULL && mpfr_get_prec(mc->ukey) != c->prec) {
        /* a key rounded to another precision could match another point */
        hdo_vec_clear(mc->ukey, n + ns);
        hdo_vec_clear(mc->uval, nu);
        mc->ukey = NULL;
        mc->ukey_valid = 0;
    }
    if (mc->ukey == NULL) {
        mc->ukey = hdo_vec_init(n + ns, c->prec);
        mc->uval = hdo_vec_init(nu, 64);
    }
    /* the key's tail: the states' errors, which grow with their largest
       sizes; the same key gives the same bits (trad is tol |t|) */
    mpfr_ptr srad = mc->ukey + n;
    int same = mc->ukey_valid;
    for (slong k = 0; k < n && same; k++)
        same =
            mpfr_equal_p(mc->ukey + k, point_entry(k, t, mc->xs, ns, mc->xu));
    for (slong i = 0; i < ns; i++) {
        MPFR_DECL_INIT(e, 64);
        hdo_run_var_scale(e, c, r->state[i].var, mc->xs + i);
        same = same && hdo_same_number(e, srad + i);
        mpfr_set(srad + i, e, MPFR_RNDU);
    }
    if (!same) {
        mc->ukey_valid = 0;
        if (hdo_reduced_unknown_error(mc->uval, c->model, r, t, trad, mc->xs,
                                      srad, mc->xu, c->prec) != 0)
            return 1;
        for (slong k = 0; k < n; k++)
            mpfr_set(mc->ukey + k, point_entry(k, t, mc->xs, ns, mc->xu),
                     MPFR_RNDN);
        mc->ukey_valid = 1;
    }
    return 0;
}

/* m +- r: an enclosure of e (an expression of prog's inputs) over the
   inputs' errors at (t +- trad, mc's point): a state's is tol times its
   largest size (hdo_run_var_scale), an unknown's the states' carried
   through h (unknown_radii); mid and rad: scratch of prog's inputs + 1.
   0 when an input is neither or an enclosure fails. */
static int
enclose_over_errors(mpfr_t m, mpfr_t r, run_ctx *c, mode_cache *mc,
                    const hdo_program_struct *prog, hdo_expr e, mpfr_ptr mid,
                    mpfr_ptr rad, const mpfr_t t, const mpfr_t trad)
{
    slong nin = prog->ninputs;
    MPFR_DECL_INIT(zero, 64);
    mpfr_set_zero(zero, 1);
    left_limit L = {mc->red, mc->xs, mc->xu, NULL, zero};
    int ok = 1;
    int urad = 0; /* mc->uval holds the unknowns' errors, when e reads one */
    for (slong q = 0; q < nin && ok; q++) {
        slong at = where(mc->red, prog->inputs[q].var, prog->inputs[q].order);
        ok = at < mc->red->nstate &&
             hdo_run_left_value(mid + q, &L, prog->inputs[q].var,
                                prog->inputs[q].order);
        if (ok && at >= 0)
            hdo_run_var_scale(rad + q, c, prog->inputs[q].var, mid + q);
        else if (ok) {
            if (!urad)
                ok = urad = unknown_radii(c, mc, t, trad) == 0;
            if (ok)
                mpfr_set(rad + q, mc->uval + (-1 - at), MPFR_RNDU);
        }
    }
    return ok && hdo_expr_enclose(m, r, c->model->pool, e, prog->inputs, mid,
                                  rad, nin, t, trad, c->prec + 32) == 0;
}

/* Why not gnoise (tol max(|x|, floor) per input): a value below its
   floor is known absolutely, to tol times the variable's largest size
   (hdo_run_var_scale, what --verify holds it to), not to tol times the
   floor.  The ball's h after its impacts near the Zeno point is -9e-43
   at 30 digits where gnoise says 1e-70: taken for a sign, h < 0 fired at
   once, 100 times (D-112). */
int
hdo_run_guard_value_floor(mpfr_t vf, run_ctx *c, mode_cache *mc, slong g,
                          mpfr_srcptr coef, slong len, int after)
{
    return hdo_run_guard_value_floor_at(vf, c, mc, g, coef, len, c->t, after);
}

/* out += sum_{k > order} C(k, order) |c_k| dt^(k - order), order 0 or
   1, each term rounded up as |c_k| (k), then times dt^(k - order), that
   power made by products rounded up in turn (r, trad: 64-bit scratch).
   A term of at most an ulp of out > 0 makes the sum rounded up out's
   next number exactly, whatever its value: there it is bounded by
   exponents alone (|c_k| < 2^EXP(c_k), dt^j <= 2^(j EXP(dt)) for dt > 0,
   k <= 2^bits(k), within the exponent range),
   and the power is formed only when a term needs its value -- the same
   products in the same order, so the same bits: diode_bridge's
   candidates (order-48 series) own_error 18.2 M -> 9.1 M instructions
   (decisions.md D-134). */
void
hdo_run_add_time_terms(mpfr_t out, mpfr_srcptr coef, slong len, slong order,
                       const mpfr_t dt, mpfr_t r, mpfr_t trad)
{
    /* a zero coefficient adds +0 to out >= 0, nothing: the terms up to
       the last nonzero one (a polynomial guard's degree) */
    slong last = len - 1;
    while (last > order && mpfr_zero_p(coef + last))
        last--;
    HDO_ASSERT(order == 0 || order == 1);
    int bound = mpfr_regular_p(dt) && mpfr_sgn(dt) > 0;
    mpfr_exp_t edt = bound ? mpfr_get_exp(dt) : 0, emin = mpfr_get_emin(),
               emax = mpfr_get_emax();
    /* the powers' bound 2^(j edt) within the exponent range, j <= jmax:
       a power that underflows is rounded up to 2^(emin - 1), still
       below it, and none overflows (and j edt fits a long) */
    slong jmax = !bound    ? 0
                 : edt > 0 ? (slong)((emax - 1) / edt)
                 : edt < 0 ? (slong)((emin - 1) / edt)
                           : WORD_MAX;
    mpfr_set(trad, dt, MPFR_RNDU);
    slong have = 1; /* trad = dt^have */
    for (slong k = order + 1; k <= last; k++) {
        slong j = k - order;
        if (j > jmax)
            bound = 0; /* the plain sum from here on */
        if (bound && mpfr_zero_p(coef + k))
            continue; /* +0 times a finite power added: out unchanged */
        if (bound && mpfr_regular_p(coef + k) && mpfr_regular_p(out) &&
            mpfr_sgn(out) > 0) {
            long bits = 0;
            if (order == 1)
                for (unsigned long kk = (unsigned long)k - 1; kk > 0; kk >>= 1)
                    bits++; /* k <= 2^bits */
            /* the term <= 2^e (|c_k| k rounded up does not overflow; a
               product that underflows is 2^(emin - 1) <= 2^e), at most
               an ulp of out: out + term rounded up is out's next number */
            mpfr_exp_t ec = mpfr_get_exp(coef + k) + bits,
                       e = ec + (mpfr_exp_t)j * edt;
            if (ec < emax && e >= emin - 1 &&
                e <= mpfr_get_exp(out) - (mpfr_exp_t)mpfr_get_prec(out)) {
                mpfr_nextabove(out);
                continue;
            }
        }
        for (; have < j; have++)
            mpfr_mul(trad, trad, dt, MPFR_RNDU);
        mpfr_abs(r, coef + k, MPFR_RNDU);
        if (order == 1)
            mpfr_mul_ui(r, r, (unsigned long)k, MPFR_RNDU);
        mpfr_mul(r, r, trad, MPFR_RNDU);
        mpfr_add(out, out, r, MPFR_RNDU);
    }
}

/* Coefficient `order` (0: S(0), 1: S'(0)) of guard g's series coef
   against e, that coefficient as an expression of prog's inputs (mid,
   rad: their scratch): out = |coef[order] - m| + r for the enclosure m
   +- r of e over the inputs' errors at t +- tol |t|, plus, after an
   event, the coefficient's change within the event time's uncertainty
   dt, sum_{k > order} C(k, order) |c_k| dt^(k - order); 1, or 0 when
   not known. */
static int
own_error(mpfr_t out, run_ctx *c, mode_cache *mc,
          const hdo_program_struct *prog, hdo_expr e, mpfr_ptr mid,
          mpfr_ptr rad, mpfr_srcptr coef, slong len, slong order,
          const mpfr_t t, int after)
{
    mpfr_t m, r, trad;
    mpfr_init2(m, c->prec + 32);
    mpfr_inits2(64, r, trad, (mpfr_ptr)0);
    mpfr_abs(trad, t, MPFR_RNDU);
    mpfr_mul(trad, trad, c->tol, MPFR_RNDU);
    int ok = enclose_over_errors(m, r, c, mc, prog, e, mid, rad, t, trad);
    if (ok) {
        /* the truth is in m +- r, so |coef - truth| <= |coef - m| + r:
           the coefficient's own rounding at the working precision counts
           (the boost converter's PWM guard at t = 0 is 0 in exact
           arithmetic, -1e-51 at 50 digits, its enclosure 1e-62 wide) */
        mpfr_sub(m, coef + order, m, MPFR_RNDN);
        mpfr_abs(m, m, MPFR_RNDU);
        mpfr_add(out, r, m, MPFR_RNDU);
        if (after && mpfr_regular_p(c->event_dt))
            hdo_run_add_time_terms(out, coef, len, order, c->event_dt, r, trad);
        ok = mpfr_number_p(out);
    }
    mpfr_clear(m);
    mpfr_clears(r, trad, (mpfr_ptr)0);
    return ok;
}

int
hdo_run_guard_value_floor_at(mpfr_t vf, run_ctx *c, mode_cache *mc, slong g,
                             mpfr_srcptr coef, slong len, const mpfr_t t,
                             int after)
{
    if (mc->gprog == NULL) /* made by hdo_run_guard_floors */
        return 0;
    /* guard_radii's scratch */
    return own_error(vf, c, mc, mc->gprog, mc->step->guards[g], mc->gmid,
                     mc->grad, coef, len, 0, t, after);
}

typedef struct {
    slong var;
    int found;
} var_probe;

static void
probe_var(slong var, slong order, void *data)
{
    var_probe *p = data;
    if (var == p->var && order == 0)
        p->found = 1;
}

static int
reads_var(const hdo_expr_pool_struct *pool, hdo_expr e, slong var)
{
    var_probe p = {var, 0};
    hdo_expr_foreach_var(pool, e, probe_var, &p);
    return p.found;
}

/* S with each algebraic unknown u (order 0) that an implicit equation
   gives explicitly, h_k = u - f with f free of u (`z = a - y + k*y^2`),
   replaced by f, until none is left that way: equal to S on the mode's
   solutions, so its derivative along the explicit flow is S's. */
static hdo_expr
explicit_form(hdo_model_struct *model, const hdo_reduced_struct *r, hdo_expr S)
{
    hdo_expr_pool_struct *pool = model->pool;
    for (slong pass = 0; pass <= r->nimplicit; pass++) {
        int changed = 0;
        for (slong j = 0; j < r->nimplicit; j++) {
            slong var = r->unknown[j].var;
            if (r->unknown[j].order != 0 || !reads_var(pool, S, var))
                continue;
            hdo_expr u = hdo_expr_var(pool, var, 0);
            for (slong k = 0; k < r->nh; k++) {
                const hdo_expr_node *n = hdo_expr_node_get(pool, r->h[k]);
                if (n->kind == HDO_X_SUB && n->a == u &&
                    !reads_var(pool, n->b, var)) {
                    S = hdo_expr_substitute(pool, S, var, 0, n->b);
                    changed = 1;
                    break;
                }
            }
        }
        if (!changed)
            break;
    }
    return S;
}

/* mc->glie and mc->lprog, made on first use; 0 when no guard has a
   derivative along the explicit flow */
static int
lie_ready(run_ctx *c, mode_cache *mc)
{
    slong ng = mc->step->nguards;
    if (mc->glie == NULL) {
        mc->glie = malloc((ng + 1) * sizeof *mc->glie);
        hdo_expr *roots = malloc((ng + 1) * sizeof *roots);
        HDO_ASSERT(mc->glie != NULL && roots != NULL);
        slong n = 0;
        for (slong g = 0; g < ng; g++) {
            mc->glie[g] = hdo_sliding_lie(
                c->model, mc->red,
                explicit_form(c->model, mc->red, mc->step->guards[g]));
            if (mc->glie[g] != HDO_EXPR_NONE)
                roots[n++] = mc->glie[g];
        }
        if (n > 0) {
            mc->lprog = malloc(sizeof *mc->lprog);
            HDO_ASSERT(mc->lprog != NULL);
            hdo_program_init(mc->lprog, c->model->pool, roots, n, 64);
            mc->lmid = hdo_vec_init(mc->lprog->ninputs + 1, c->prec);
            mc->lrad = hdo_vec_init(mc->lprog->ninputs + 1, 64);
        }
        free(roots);
    }
    return mc->lprog != NULL;
}

/* Why: after an event S(0) is a zero within its own error (D-112), and
   D-016's rule then takes S'(0) for a zero when it is within tol times
   S's size over the step: that is S's error at the step's end, where
   the states are larger.  y' = 1, S = 1e-30 - y + 1e28 y^2 at 16
   digits, the step after the crossing at 1.01e-30 is 1 long, S's size
   over it 1e28, so S'(0) = 0.98 counted as zero and S'' < 0 put the
   next crossing at once (9.9e-29 in truth).  S'(0) is a value known to
   its own error, as S(0) is. */
int
hdo_run_guard_slope_floor_at(mpfr_t sf, run_ctx *c, mode_cache *mc, slong g,
                             mpfr_srcptr coef, slong len, const mpfr_t t,
                             int after)
{
    if (len < 2 || !lie_ready(c, mc) || mc->glie[g] == HDO_EXPR_NONE)
        return 0;
    return own_error(sf, c, mc, mc->lprog, mc->glie[g], mc->lmid, mc->lrad,
                     coef, len, 1, t, after);
}

slong
hdo_run_guard_zero_order(run_ctx *c, mode_cache *mc, slong g, mpfr_srcptr coef,
                         slong len, const mpfr_t H, mpfr_srcptr fl,
                         const mpfr_t t, int after)
{
    slong o = hdo_event_zero_order(coef, len, H, c->tol, fl);
    if (o == 0)
        return 0; /* not a zero by tol times its size: nor by its error */
    MPFR_DECL_INIT(vf, 64);
    MPFR_DECL_INIT(sf, 64);
    /* S(0) of exactly 0 is zero within any error, and the order with
       vf = 0 is the one just found (D-127) */
    if (mpfr_zero_p(coef + 0))
        mpfr_set_zero(vf, 1);
    else if (!hdo_run_guard_value_floor_at(vf, c, mc, g, coef, len, t, after))
        return o;
    else
        o = hdo_event_zero_order_at(coef, len, H, c->tol, fl, vf);
    if (o >= 2 && !mpfr_zero_p(coef + 1) &&
        hdo_run_guard_slope_floor_at(sf, c, mc, g, coef, len, t, after))
        o = hdo_event_zero_order_own(coef, len, H, c->tol, fl, vf, sf);
    return o;
}
