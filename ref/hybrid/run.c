/* run.c -- hdo_run: the driver loop over arcs, events, transitions, chattering
 * and Zeno */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hybrid.h"
#include "internal.h"
#include "km.h"

/* The layering (style.md, GSL odeiv2): a stepper (ref/step.h: the Taylor
   method today) is step + control (the dense output at a point and its
   step size), seen only through its table; this file is the
   driver: it takes the steps, projects onto the constraints after each,
   asks ref/hybrid/locate.c whether a switching function changes sign
   inside the step, and performs the transitions.  Everything that can be
   built once per mode (reduced form, stepper compiled with the
   guards, the `with` programs) is built the first time the mode is
   entered and kept in a mode_cache for the whole run. */

/* How many past events the Zeno detection looks at: enough for
   LIVELOCK_SAMPLES states of a cascade of period LIVELOCK_MAX_PERIOD. */
#define HIST 24
/* How many intersection sliding modes a run may build. */
#define HDO_RUN_XSLOTS 64

typedef struct {
    int built;
    hdo_reduced_t red;
    hdo_stepper_t step;         /* the integrator of this mode (step.h) */
    slong ntr;                  /* whens, then the zeno clause if any */
    hdo_program_struct *assign; /* per transition, compiled on first use */
    int *assign_built;
    mpfr_ptr xs, xu; /* the current state while in this mode */
    mpfr_ptr ls, lu; /* left limit scratch */
    mpfr_ptr ts, tu; /* dense output scratch */
    int *fixed;
    slong nguards; /* guards compiled into the stepper */
    /* a sliding mode (index >= nmodes): its pair, the weight of a, and
       the transitions of a and b behind guards 2.. */
    slong sa, sb;
    hdo_expr alpha;
    slong *other_mode, *other_when;
    /* sliding on an intersection of surfaces (slot >= nmodes + nmodes^2):
       the cube of adjacent modes, surfaces and weights (sliding.c) */
    hdo_sliding_set *set;
    /* guards that are first integrals of the mode (invariant.c), NULL
       when none: then the stepper integrates the regularised form */
    hdo_invariant *inv;
} mode_cache;

/* A followed event, for the Zeno extrapolation. */
typedef struct {
    mpfr_t t;
    slong src, g;    /* the mode left and its `when` */
    mpfr_ptr ls, lu; /* left limit (sizes of src's state) */
    slong ns, nu;
} hist_entry;

typedef struct {
    hdo_model_struct *model;
    const hdo_run_options *opt;
    hdo_result_struct *res;
    hdo_error_t *err;
    mpfr_prec_t prec;
    long digits;
    mpfr_t tol;
    mode_cache *mc;
    /* sampling */
    slong nsamples, next_sample;
    mpfr_t every; /* at prec + 32 */
    /* current point */
    slong mode;
    mpfr_t t, t_end;
    /* events */
    hist_entry hist[HIST];
    slong nhist;       /* entries used, newest last */
    slong ninstant;    /* instantaneous switches in a row */
    int spurious;      /* one of them starts from a state that leaves */
    mpfr_t last_event; /* time of the last event (or -inf) */
    slong max_steps, max_events;
    hdo_stiff_watch stiff; /* is the current arc stiff (stiff.c) */
    struct timespec start;
    /* the intersection sliding modes built so far: cache slot
       nmodes + nmodes^2 + i holds the modes of xmask[i] */
    slong nx;
    uint64_t xmask[HDO_RUN_XSLOTS];
    int phase; /* the phase timer in force, and since when */
    struct timespec phase_since;
} run_ctx;

/* ------------------------------------------------------------------ */
/* Small helpers */

static double
elapsed(const run_ctx *c)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - c->start.tv_sec) +
           1e-9 * (double)(now.tv_nsec - c->start.tv_nsec);
}

/* Phase timers (hdo_result_struct): the time since the last switch is
   charged to the phase in force; phase_enter switches and returns the
   previous phase, which the caller restores, so a nested phase is
   charged to itself only. */
enum { PH_OTHER, PH_INTEGRATION, PH_EVENTS, PH_REDUCTION, PH_REINIT };

static int
phase_enter(run_ctx *c, int phase)
{
    double *acc[] = {NULL, &c->res->seconds_integration,
                     &c->res->seconds_events, &c->res->seconds_reduction,
                     &c->res->seconds_reinit};
    struct timespec now;
    int old = c->phase;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (acc[old] != NULL)
        *acc[old] += (double)(now.tv_sec - c->phase_since.tv_sec) +
                     1e-9 * (double)(now.tv_nsec - c->phase_since.tv_nsec);
    c->phase_since = now;
    c->phase = phase;
    return old;
}

/* Fills the error's place: the model file, the mode, the time. */
static int
fail(run_ctx *c, int status, slong mode, const mpfr_t t)
{
    if (c->err != NULL) {
        c->err->status = status;
        c->err->file = c->model->file;
        if (mode >= 0 && mode < c->model->nmodes && c->err->mode == NULL)
            c->err->mode = c->model->modes[mode].name;
        if (t != NULL && !c->err->has_time) {
            c->err->has_time = 1;
            c->err->time = mpfr_get_d(t, MPFR_RNDN);
        }
    }
    return status;
}

/* A command-line option is wrong: the error names the option, not the
   model file (err->file stays NULL). */
static int
option_fail(run_ctx *c)
{
    if (c->err != NULL)
        c->err->status = HDO_ERR_INPUT;
    return HDO_ERR_INPUT;
}

/* The method of a new arc of reduced form red (hdo_run_options.method):
   Radau IIA for an ODE mode under --method implicit, else Taylor (auto
   switches later, in step, where an arc is stiff). */
static const hdo_step_type *
stepper_for(const run_ctx *c, const hdo_reduced_struct *red)
{
    if (c->opt->method == HDO_METHOD_IMPLICIT && hdo_reduced_is_ode(red))
        return &hdo_step_radau;
    return &hdo_step_taylor;
}

/* hdo_stepper_init with the method of stepper_for; an implicit method
   that cannot take the mode (HDO_ERR_UNSUPPORTED: a switching function
   that reads a derivative, as in some sliding modes) leaves it to the
   Taylor method. */
static int
stepper_init(const run_ctx *c, hdo_stepper_t s, hdo_model_t model,
             const hdo_reduced_struct *red, const hdo_expr *guards, slong ng)
{
    const hdo_step_type *type = stepper_for(c, red);
    int st = hdo_stepper_init(s, type, model, red, guards, ng, c->prec);
    if (st == HDO_ERR_UNSUPPORTED && type != &hdo_step_taylor) {
        hdo_stepper_clear(s);
        st = hdo_stepper_init(s, &hdo_step_taylor, model, red, guards, ng,
                              c->prec);
    }
    return st;
}

/* --method auto: an ODE arc that has been stiff for HDO_STIFF_STEPS steps
   with more than HDO_AUTO_SWITCH_STEPS steps ahead at its step size goes
   on with Radau IIA; returns 1 when the stepper of mode m was switched. */
static int
auto_switch(run_ctx *c, slong m)
{
    mode_cache *mc = c->mc + m;
    if (c->opt->method != HDO_METHOD_AUTO ||
        mc->step->type != &hdo_step_taylor ||
        !hdo_reduced_is_ode(mc->step->red) ||
        c->stiff.steps < HDO_STIFF_STEPS || !(c->stiff.h > 0))
        return 0;
    double left =
        (mpfr_get_d(c->t_end, MPFR_RNDN) - mpfr_get_d(c->t, MPFR_RNDN)) /
        c->stiff.h;
    if (!(left > HDO_AUTO_SWITCH_STEPS))
        return 0;
    if (hdo_stepper_switch(mc->step, &hdo_step_radau) != 0)
        return 0; /* Taylor goes on, and the watch reports */
    c->res->method_switches++;
    hdo_stiff_watch_init(&c->stiff);
    return 1;
}

/* Time tolerance at t: tol * max(1, |t|). */
static void
time_tol(mpfr_t r, const run_ctx *c, const mpfr_t t)
{
    mpfr_abs(r, t, MPFR_RNDN);
    if (mpfr_cmp_ui(r, 1) < 0)
        mpfr_set_ui(r, 1, MPFR_RNDN);
    mpfr_mul(r, r, c->tol, MPFR_RNDN);
}

/* The horizon of the event search of a step from t (and of the zero rule
   for a zero at the start of an arc, KM Remark 12): on input the natural
   step proposed at t (hdo_stepper_step_size), replaced by one time
   unit max(1, |t|) when it is not finite (a polynomial series).  It is
   never clipped to the end time: hdo_event_locate judges a coefficient
   c_k by its contribution |c_k| H^k over the horizon H, so a step
   shortened by the end time would drop a significant c_k (the ball's
   velocity after an impact) and place the event at the start of the arc;
   events beyond the step actually taken are ignored instead
   (decisions.md). */
static void
event_horizon(mpfr_t H, const mpfr_t t)
{
    if (mpfr_number_p(H))
        return;
    mpfr_abs(H, t, MPFR_RNDN);
    if (mpfr_cmp_ui(H, 1) < 0)
        mpfr_set_ui(H, 1, MPFR_RNDN);
}

/* The values of the model variables of mode m at (xs, xu) into a row
   (values, present). */
static void
mode_values(mpfr_ptr values, int *present, const mode_cache *mc, mpfr_srcptr xs,
            mpfr_srcptr xu)
{
    const hdo_reduced_struct *r = mc->red;
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].order == 0) {
            mpfr_set(values + r->state[i].var, xs + i, MPFR_RNDN);
            if (present != NULL)
                present[r->state[i].var] = 1;
        }
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].order == 0) {
            mpfr_set(values + r->unknown[j].var, xu + j, MPFR_RNDN);
            if (present != NULL)
                present[r->unknown[j].var] = 1;
        }
}

/* The mode index in results of cache slot m: an intersection sliding
   slot is named by its modes (sliding.c). */
static slong
res_mode(const run_ctx *c, slong m)
{
    slong n = c->model->nmodes;
    if (m < n + n * n)
        return m;
    return hdo_sliding_index(c->model, c->xmask[m - n - n * n]);
}

static void
add_row(run_ctx *c, const mpfr_t t, slong mode, mpfr_srcptr xs, mpfr_srcptr xu)
{
    hdo_row *row, tmp;
    if (c->opt->row_sink != NULL) {
        /* one row at a time, not stored: hdo check keeps doubles only */
        slong n = c->res->nvars;
        mpfr_init2(tmp.time, c->res->prec);
        mpfr_set(tmp.time, t, MPFR_RNDN);
        tmp.mode = res_mode(c, mode);
        tmp.values = hdo_vec_init(n, c->res->prec);
        tmp.present = calloc(n ? n : 1, sizeof *tmp.present);
        HDO_ASSERT(tmp.present != NULL);
        for (slong v = 0; v < n; v++)
            mpfr_set_nan(tmp.values + v);
        mode_values(tmp.values, tmp.present, c->mc + mode, xs, xu);
        c->opt->row_sink(c->opt->row_sink_data, &tmp);
        hdo_vec_clear(tmp.values, n);
        free(tmp.present);
        mpfr_clear(tmp.time);
        return;
    }
    row = hdo_result_add_row(c->res, t, res_mode(c, mode));
    mode_values(row->values, row->present, c->mc + mode, xs, xu);
}

/* ------------------------------------------------------------------ */
/* The mode cache */

static void
mode_cache_clear(mode_cache *mc, hdo_result_struct *res)
{
    if (!mc->built)
        return;
    for (slong k = 0; k < mc->ntr; k++)
        if (mc->assign_built[k])
            hdo_program_clear(mc->assign + k);
    free(mc->assign);
    free(mc->assign_built);
    hdo_vec_clear(mc->xs, mc->red->nstate);
    hdo_vec_clear(mc->ls, mc->red->nstate);
    hdo_vec_clear(mc->ts, mc->red->nstate);
    hdo_vec_clear(mc->xu, mc->red->nimplicit);
    hdo_vec_clear(mc->lu, mc->red->nimplicit);
    hdo_vec_clear(mc->tu, mc->red->nimplicit);
    free(mc->fixed);
    free(mc->other_mode);
    free(mc->other_when);
    free(mc->set);
    mc->step->type->max_residual(res->max_residual, mc->step);
    hdo_stepper_clear(mc->step);
    hdo_invariant_free(mc->inv);
    hdo_reduced_clear(mc->red);
}

/* The part of a mode cache every kind of mode shares once its reduced
   form is built: ntr transition slots (reset assignments built on first
   use) and the state vectors (current, left limit, trial) at the run's
   precision. */
static void
mode_cache_alloc(mode_cache *mc, slong ntr, mpfr_prec_t prec)
{
    mc->ntr = ntr;
    mc->assign = calloc(ntr ? ntr : 1, sizeof *mc->assign);
    mc->assign_built = calloc(ntr ? ntr : 1, sizeof *mc->assign_built);
    HDO_ASSERT(mc->assign != NULL && mc->assign_built != NULL);
    mc->xs = hdo_vec_init(mc->red->nstate, prec);
    mc->ls = hdo_vec_init(mc->red->nstate, prec);
    mc->ts = hdo_vec_init(mc->red->nstate, prec);
    mc->xu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->lu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->tu = hdo_vec_init(mc->red->nimplicit, prec);
    mc->fixed = calloc(mc->red->nstate ? mc->red->nstate : 1, sizeof(int));
    HDO_ASSERT(mc->fixed != NULL);
    mc->built = 1;
}

/* Builds the reduced form and the Taylor program (with the mode's
   guards) of mode m, once per run (mode_cache_get). */
static int
mode_cache_build(run_ctx *c, slong m, const mpfr_t t)
{
    mode_cache *mc = c->mc + m;
    const hdo_mode *mode = c->model->modes + m;
    if (mc->built)
        return 0;
    hdo_reduced_init(mc->red);
    int st = hdo_reduce_mode(mc->red, c->model, m, c->err);
    if (st < 0) {
        hdo_reduced_clear(mc->red);
        return fail(c, st, m, t);
    }
    hdo_expr *guards =
        malloc((mode->nwhens ? mode->nwhens : 1) * sizeof *guards);
    HDO_ASSERT(guards != NULL);
    for (slong k = 0; k < mode->nwhens; k++) {
        guards[k] = mode->whens[k].guard;
        /* `chattering hysteresis d`: every switching surface moved by d
           (feasible while S + d >= 0), from the start (decisions.md) */
        if (c->model->chattering == HDO_CHATTER_HYSTERESIS)
            guards[k] =
                hdo_expr_add(c->model->pool, guards[k], c->model->hysteresis);
    }
    /* first integrals: no events, kept as constraints (KM (23)) */
    mc->inv = hdo_invariant_build(c->model, mc->red, guards, mode->nwhens, t,
                                  c->prec);
    st = stepper_init(c, mc->step, c->model,
                      hdo_invariant_reduced(mc->inv, mc->red), guards,
                      mode->nwhens);
    free(guards);
    if (st < 0) {
        hdo_error_set(c->err, st, mode->pos.line, mode->pos.col, "%s",
                      mc->step->message);
        hdo_stepper_clear(mc->step);
        hdo_invariant_free(mc->inv);
        mc->inv = NULL;
        hdo_reduced_clear(mc->red);
        return fail(c, st, m, t);
    }
    mc->nguards = mode->nwhens;
    mode_cache_alloc(mc, mode->nwhens + (mode->has_zeno ? 1 : 0), c->prec);
    return 0;
}

static int
mode_cache_get(run_ctx *c, slong m, const mpfr_t t)
{
    if (c->mc[m].built)
        return 0;
    int ph = phase_enter(c, PH_REDUCTION);
    int st = mode_cache_build(c, m, t);
    phase_enter(c, ph);
    return st;
}

static const hdo_transition *
transition_of(const hdo_model_struct *model, slong m, slong k)
{
    const hdo_mode *mode = model->modes + m;
    return k < mode->nwhens ? mode->whens + k : &mode->zeno;
}

/* Records the sliding mode in slot m (nmodes <= m) on first use, with
   the counts of the Filippov DAE it stands for (hdo_mode_info). */
static void
note_sliding_used(run_ctx *c, slong m)
{
    slong n = c->model->nmodes, id = res_mode(c, m);
    hdo_result_struct *res = c->res;
    const hdo_reduced_struct *r = c->mc[m].red;
    for (slong i = 0; i < res->nsliding; i++)
        if (res->sliding[i].mode == id)
            return;
    res->sliding =
        realloc(res->sliding, (res->nsliding + 1) * sizeof *res->sliding);
    HDO_ASSERT(res->sliding != NULL);
    hdo_mode_info *mi = res->sliding + res->nsliding++;
    slong k = m < n + n * n ? 1 : c->mc[m].set->k;
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
static void
note_mode_used(run_ctx *c, slong m, const mpfr_t t)
{
    if (m >= c->model->nmodes) {
        note_sliding_used(c, m);
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
    mode_values(vals, NULL, mc, mc->xs, mc->xu);
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

/* ------------------------------------------------------------------ */
/* Left limits and values for transitions */

typedef struct {
    const hdo_reduced_struct *r;
    mpfr_srcptr xs, xu;
    const hdo_dense *dense; /* NULL: only the point values */
    mpfr_srcptr s;          /* offset in the series */
} left_limit;

/* The m-th derivative at s of the series c[0..p]. */
static void
series_derivative(mpfr_t out, const mpfr_t *coef, slong p, slong m,
                  const mpfr_t s)
{
    mpfr_t term;
    mpfr_init2(term, mpfr_get_prec(out));
    mpfr_set_ui(out, 0, MPFR_RNDN);
    for (slong k = p; k >= m; k--) {
        mpfr_mul(out, out, s, MPFR_RNDN);
        mpfr_set(term, coef[k], MPFR_RNDN);
        for (slong i = 0; i < m; i++)
            mpfr_mul_ui(term, term, (unsigned long)(k - i), MPFR_RNDN);
        mpfr_add(out, out, term, MPFR_RNDN);
    }
    mpfr_clear(term);
}

/* The value of (var, order) on the left limit: a state or unknown of the
   source mode, or a derivative of the series of a lower order of it.
   Returns 1, or 0 if the source mode does not have it. */
static int
left_value(mpfr_t out, const left_limit *L, slong var, slong order)
{
    const hdo_reduced_struct *r = L->r;
    slong best = -1, best_order = -1, best_is_state = 0;
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == var) {
            if (r->state[i].order == order) {
                mpfr_set(out, L->xs + i, MPFR_RNDN);
                return 1;
            }
            if (r->state[i].order < order && r->state[i].order > best_order) {
                best = i;
                best_order = r->state[i].order;
                best_is_state = 1;
            }
        }
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].var == var) {
            if (r->unknown[j].order == order) {
                mpfr_set(out, L->xu + j, MPFR_RNDN);
                return 1;
            }
            if (r->unknown[j].order < order &&
                r->unknown[j].order > best_order) {
                best = j;
                best_order = r->unknown[j].order;
                best_is_state = 0;
            }
        }
    if (best < 0 || L->dense == NULL)
        return 0;
    slong p = L->dense->order;
    const mpfr_t *coef = best_is_state ? L->dense->state + best * (p + 1)
                                       : L->dense->unknown + best * (p + 1);
    series_derivative(out, coef, p, order - best_order, L->s);
    return 1;
}

/* A reset is only as good as the state it is evaluated on, which is
   known to about the local tolerance: `with v = 1/x` at an event on
   x < 0 divides by rounding noise and would print a number like 5e39 to
   every digit.  Each value is enclosed (Arb) with every input and t
   widened by tol max(1, |value|); a value whose enclosure meets a pole
   or a domain's edge, or is wider than 10^5 tol max(1, |value|) (the
   10^-D the run promises), is refused with the reset, mode and time. */
static int
reset_conditioning(run_ctx *c, hdo_program_struct *prog, slong src, slong k,
                   const mpfr_t t)
{
    const hdo_transition *tr = transition_of(c->model, src, k);
    mpfr_ptr in = malloc((prog->ninputs + 1) * sizeof *in);
    HDO_ASSERT(in != NULL);
    mpfr_t mid, rad, lim;
    mpfr_inits2(c->prec, mid, rad, lim, (mpfr_ptr)0);
    for (slong q = 0; q < prog->ninputs; q++) {
        mpfr_init2(in + q, c->prec);
        mpfr_set(in + q, prog->value[prog->inputs[q].slot], MPFR_RNDN);
    }
    int st = 0;
    for (slong a = 0; a < tr->nassigns && st == 0; a++) {
        const hdo_assign *as = tr->assigns + a;
        int pole =
            hdo_expr_enclose(mid, rad, c->model->pool, as->value, prog->inputs,
                             in, prog->ninputs, t, c->tol, c->prec + 32) != 0;
        if (!pole) {
            mpfr_abs(lim, prog->value[prog->root_slot[a]], MPFR_RNDN);
            if (mpfr_cmp_ui(lim, 1) < 0)
                mpfr_set_ui(lim, 1, MPFR_RNDN);
            mpfr_mul(lim, lim, c->tol, MPFR_RNDN);
            mpfr_mul_ui(lim, lim, 100000, MPFR_RNDN);
            if (mpfr_lessequal_p(rad, lim))
                continue;
        }
        char *s =
            hdo_expr_to_string(c->model->pool, as->value, c->model->var_names);
        char inputs[300] = "";
        for (slong q = 0; q < prog->ninputs && q < 4; q++) {
            size_t len = strlen(inputs);
            mpfr_snprintf(inputs + len, sizeof inputs - len, "%s%s%s%s = %.6Rg",
                          q ? ", " : "", prog->inputs[q].order ? "der(" : "",
                          c->model->vars[prog->inputs[q].var].name,
                          prog->inputs[q].order ? ")" : "", in + q);
        }
        mpfr_exp_t e10 = 0;
        mpfr_t rel10;
        mpfr_init2(rel10, 53);
        mpfr_log10(rel10, c->tol, MPFR_RNDN);
        e10 = (mpfr_exp_t)mpfr_get_si(rel10, MPFR_RNDN);
        mpfr_clear(rel10);
        hdo_error_set(c->err, HDO_ERR_DOMAIN, as->pos.line, as->pos.col,
                      "the reset %s = %.300s of the transition to mode '%s' "
                      "is ill-conditioned at the event: with the state "
                      "known to 10^%ld it %s (%s)",
                      c->model->vars[as->var].name, s ? s : "?",
                      c->model->modes[tr->target].name, (long)e10,
                      pole ? "meets a pole or leaves its domain"
                           : "is not determined to the digits asked",
                      inputs);
        free(s);
        st = fail(c, HDO_ERR_DOMAIN, src, t);
    }
    for (slong q = 0; q < prog->ninputs; q++)
        mpfr_clear(in + q);
    free(in);
    mpfr_clears(mid, rad, lim, (mpfr_ptr)0);
    return st;
}

/* The digits to which the event at c->t + s (of the guard series coef
   over the natural step H) is determined (hdo_event_time_error): when
   fewer than the digits asked, the fewest so far go into the result
   (summary.json "event_digits") with the index the event will get, so a
   multiple root is never presented as known to D digits. */
static void
event_digits(run_ctx *c, mpfr_srcptr coef, slong len, const mpfr_t H,
             const mpfr_t s)
{
    mpfr_t delta, at;
    mpfr_inits2(64, delta, at, (mpfr_ptr)0);
    hdo_event_time_error(delta, coef, len, H, c->tol, s, c->prec);
    mpfr_add(at, c->t, s, MPFR_RNDN);
    mpfr_abs(at, at, MPFR_RNDN);
    if (mpfr_cmp_ui(at, 1) < 0)
        mpfr_set_ui(at, 1, MPFR_RNDN);
    mpfr_div(delta, delta, at, MPFR_RNDN); /* relative */
    if (mpfr_number_p(delta) && mpfr_sgn(delta) > 0) {
        mpfr_log10(delta, delta, MPFR_RNDN);
        long dig = -mpfr_get_si(delta, MPFR_RNDU);
        if (dig < 0)
            dig = 0;
        if (dig < c->digits &&
            (c->res->event_digits < 0 || dig < c->res->event_digits)) {
            c->res->event_digits = dig;
            c->res->event_digits_index = c->res->nevents + 1;
        }
    }
    mpfr_clears(delta, at, (mpfr_ptr)0);
}

/* Evaluates the `with` right-hand sides of transition k of mode src on
   the left limit L at time t, into vals (one per assignment). */
static int
eval_assigns(run_ctx *c, mpfr_ptr vals, slong src, slong k, const left_limit *L,
             const mpfr_t t)
{
    mode_cache *mc = c->mc + src;
    const hdo_transition *tr = transition_of(c->model, src, k);
    if (tr->nassigns == 0)
        return 0;
    hdo_program_struct *prog = mc->assign + k;
    if (!mc->assign_built[k]) {
        hdo_expr *roots = malloc(tr->nassigns * sizeof *roots);
        HDO_ASSERT(roots != NULL);
        for (slong a = 0; a < tr->nassigns; a++)
            roots[a] = tr->assigns[a].value;
        hdo_program_init(prog, c->model->pool, roots, tr->nassigns, c->prec);
        free(roots);
        mc->assign_built[k] = 1;
    }
    for (slong i = 0; i < prog->ninputs; i++) {
        const hdo_program_input *in = prog->inputs + i;
        if (!left_value(prog->value[in->slot], L, in->var, in->order)) {
            hdo_error_set(c->err, HDO_ERR_SEMANTIC, tr->pos.line, tr->pos.col,
                          "the transition to mode '%s' uses %s%s%s, which "
                          "mode '%s' does not have",
                          c->model->modes[tr->target].name,
                          in->order > 0 ? "der(" : "",
                          c->model->vars[in->var].name,
                          in->order > 0 ? ")" : "", c->model->modes[src].name);
            return fail(c, HDO_ERR_SEMANTIC, src, t);
        }
    }
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    hdo_expr bad;
    if (hdo_program_eval(prog, &bad) != 0) {
        int over = mpfr_overflow_p(); /* cleared by hdo_program_eval */
        char *s = hdo_expr_to_string(c->model->pool, bad, c->model->var_names);
        hdo_error_set(c->err, HDO_ERR_DOMAIN, tr->pos.line, tr->pos.col,
                      "the reset of the transition to mode '%s' %s "
                      "at the event: %s",
                      c->model->modes[tr->target].name,
                      over ? "overflows (beyond MPFR's exponent range)"
                           : "is undefined",
                      s ? s : "?");
        free(s);
        return fail(c, HDO_ERR_DOMAIN, src, t);
    }
    for (slong a = 0; a < tr->nassigns; a++)
        mpfr_set(vals + a, prog->value[prog->root_slot[a]], MPFR_RNDN);
    return reset_conditioning(c, prog, src, k, t);
}

/* The start value of variable v as a guess (0 when it has none). */
static void
start_guess(mpfr_t out, const run_ctx *c, slong v)
{
    if (c->model->vars[v].start == HDO_EXPR_NONE ||
        hdo_expr_eval_constant(out, c->model->pool, c->model->vars[v].start) !=
            0)
        mpfr_set_ui(out, 0, MPFR_RNDN);
}

/* Consistent (re)initialisation of mode m at t from mc->xs, mc->xu and
   mc->fixed.  *adjusted as hdo_consistent_init. */
static int
reinit(run_ctx *c, slong m, const mpfr_t t, int *adjusted)
{
    mode_cache *mc = c->mc + m;
    int ph = phase_enter(c, PH_REINIT);
    int st = hdo_consistent_init(mc->xs, mc->xu, adjusted, c->model, mc->red, t,
                                 mc->fixed, c->prec, c->err);
    phase_enter(c, ph);
    if (st < 0)
        return fail(c, st, m, t);
    hdo_invariant_enter(mc->inv, t, mc->xs, c->tol);
    ph = phase_enter(c, PH_REDUCTION); /* the KM analysis, once per mode */
    note_mode_used(c, m, t);
    phase_enter(c, ph);
    return 0;
}

static void sample_time(mpfr_t out, const run_ctx *c, slong k);

/* Skips the samples at time t: the event rows stand for them. */
static void
skip_samples_at(run_ctx *c, const mpfr_t t)
{
    mpfr_t tk;
    mpfr_init2(tk, c->prec);
    while (c->next_sample < c->nsamples) {
        sample_time(tk, c, c->next_sample);
        if (mpfr_cmp(tk, t) > 0)
            break;
        c->next_sample++;
    }
    mpfr_clear(tk);
}

/* Performs transition k of mode src at time t from the left limit L:
   the left row, the resets, the consistent reinitialisation of the
   target, the event record and the right row.  The current mode becomes
   the target. */
static int
take_transition_tr(run_ctx *c, slong src, const hdo_transition *tr, slong k,
                   const left_limit *L, const mpfr_t t, hdo_event_kind kind)
{
    slong tgt = tr->target;
    mpfr_ptr vals = hdo_vec_init(tr->nassigns, c->prec);
    int st, adjusted = 0;

    add_row(c, t, src, L->xs, L->xu);
    st = tr->nassigns > 0 ? eval_assigns(c, vals, src, k, L, t) : 0;
    if (st == 0)
        st = mode_cache_get(c, tgt, t);
    if (st < 0) {
        hdo_vec_clear(vals, tr->nassigns);
        return st;
    }
    mode_cache *mt = c->mc + tgt;
    const hdo_reduced_struct *r = mt->red;
    /* Target start: assigned values fixed, kept values fixed, the rest
       free guesses from the start values (model-format.md, Meaning). */
    for (slong i = 0; i < r->nstate; i++) {
        slong v = r->state[i].var, o = r->state[i].order, a;
        for (a = 0; a < tr->nassigns; a++)
            if (tr->assigns[a].var == v)
                break;
        if (o == 0 && a < tr->nassigns) {
            mpfr_set(mt->xs + i, vals + a, MPFR_RNDN);
            mt->fixed[i] = 1;
        } else if (left_value(mt->xs + i, L, v, o)) {
            mt->fixed[i] = 1;
        } else {
            mt->fixed[i] = 0;
            if (o == 0)
                start_guess(mt->xs + i, c, v);
            else
                mpfr_set_ui(mt->xs + i, 0, MPFR_RNDN);
        }
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        slong v = r->unknown[j].var, o = r->unknown[j].order, a;
        for (a = 0; a < tr->nassigns; a++)
            if (tr->assigns[a].var == v)
                break;
        if (o == 0 && a < tr->nassigns)
            mpfr_set(mt->xu + j, vals + a, MPFR_RNDN);
        else if (!left_value(mt->xu + j, L, v, o)) {
            if (o == 0)
                start_guess(mt->xu + j, c, v);
            else
                mpfr_set_ui(mt->xu + j, 0, MPFR_RNDN);
        }
    }
    hdo_vec_clear(vals, tr->nassigns);
    st = reinit(c, tgt, t, &adjusted);
    if (st < 0)
        return st;
    if (adjusted && kind == HDO_EV_SWITCH)
        kind = HDO_EV_REINIT_ADJUSTED;

    hdo_event *ev = hdo_result_add_event(
        c->res, t, res_mode(c, src), res_mode(c, tgt), kind, tr->guard_text);
    mode_values(ev->left, NULL, c->mc + src, L->xs, L->xu);
    mode_values(ev->right, NULL, mt, mt->xs, mt->xu);
    add_row(c, t, tgt, mt->xs, mt->xu);
    skip_samples_at(c, t);
    c->mode = tgt;
    mpfr_set(c->t, t, MPFR_RNDN);
    mpfr_set(c->last_event, t, MPFR_RNDN);
    if (c->res->nevents > c->max_events) { /* N events allowed, not N+1 */
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "more than %ld events (--max-events)", c->max_events);
        return fail(c, HDO_ERR_TOO_MUCH_WORK, tgt, t);
    }
    return 0;
}

static int
take_transition(run_ctx *c, slong src, slong k, const left_limit *L,
                const mpfr_t t, hdo_event_kind kind)
{
    return take_transition_tr(c, src, transition_of(c->model, src, k), k, L, t,
                              kind);
}

/* ------------------------------------------------------------------ */
/* Sampling */

/* The k-th sample time. */
static void
sample_time(mpfr_t out, const run_ctx *c, slong k)
{
    if (c->opt->sample_times != NULL) {
        mpfr_set_d(out, c->opt->sample_times[k], MPFR_RNDN);
    } else if (k == c->nsamples - 1) {
        mpfr_set(out, c->t_end, MPFR_RNDN);
    } else {
        mpfr_t kt;
        mpfr_init2(kt, c->prec + 32);
        mpfr_mul_si(kt, c->every, k, MPFR_RNDN);
        mpfr_add(out, c->res->t0, kt, MPFR_RNDN);
        mpfr_clear(kt);
    }
}

/* Emits the samples of the current expansion (at c->t, mode c->mode) with
   times below limit (or up to it when inclusive). */
static void
emit_samples(run_ctx *c, const mpfr_t limit, int inclusive)
{
    mode_cache *mc = c->mc + c->mode;
    mpfr_t tk, s;
    mpfr_inits2(c->prec, tk, s, (mpfr_ptr)0);
    while (c->next_sample < c->nsamples) {
        sample_time(tk, c, c->next_sample);
        int cmp = mpfr_cmp(tk, limit);
        if (cmp > 0 || (cmp == 0 && !inclusive))
            break;
        if (mpfr_cmp(tk, c->t) >= 0) {
            mpfr_sub(s, tk, c->t, MPFR_RNDN);
            hdo_stepper_eval(mc->ts, mc->tu, NULL, mc->step, s);
            add_row(c, tk, c->mode, mc->ts, mc->tu);
        }
        c->next_sample++;
    }
    mpfr_clears(tk, s, (mpfr_ptr)0);
}

/* Emits samples below limit from a point state (no expansion). */
static void
emit_samples_point(run_ctx *c, slong mode, mpfr_srcptr xs, mpfr_srcptr xu,
                   const mpfr_t limit, int inclusive)
{
    mpfr_t tk;
    mpfr_init2(tk, c->prec);
    while (c->next_sample < c->nsamples) {
        sample_time(tk, c, c->next_sample);
        int cmp = mpfr_cmp(tk, limit);
        if (cmp > 0 || (cmp == 0 && !inclusive))
            break;
        add_row(c, tk, mode, xs, xu);
        c->next_sample++;
    }
    mpfr_clear(tk);
}

/* Sets up the sampling grid: t0 + k * every, k = 0, 1, ..., with t_end as
   the last sample (replacing a grid point within every * 1e-9 of it). */
static int
setup_samples(run_ctx *c)
{
    if (c->opt->sample_times != NULL) {
        c->nsamples = c->opt->nsample_times;
        return 0;
    }
    if (c->opt->every != NULL) {
        fmpq_t q;
        fmpq_init(q);
        int st = hdo_parse_decimal(q, c->opt->every, strlen(c->opt->every));
        if (st == 0 && fmpq_sgn(q) <= 0)
            st = HDO_ERR_INPUT;
        if (st != 0) {
            fmpq_clear(q);
            if (st == HDO_ERR_UNSUPPORTED)
                hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                              "--every: '%s' is out of range (at most %d "
                              "significant digits and an exponent within "
                              "+-%d)",
                              c->opt->every, HDO_MODEL_MAX_DIGITS,
                              HDO_MODEL_MAX_EXPONENT);
            else
                hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                              "--every: expected a positive decimal number, "
                              "got '%s'",
                              c->opt->every);
            return option_fail(c);
        }
        fmpq_get_mpfr(c->every, q, MPFR_RNDN);
        fmpq_clear(q);
    } else {
        mpfr_sub(c->every, c->t_end, c->res->t0, MPFR_RNDN);
        mpfr_div_ui(c->every, c->every, 1000, MPFR_RNDN);
    }
    mpfr_t n, frac;
    mpfr_inits2(c->prec + 32, n, frac, (mpfr_ptr)0);
    mpfr_sub(n, c->t_end, c->res->t0, MPFR_RNDN);
    mpfr_div(n, n, c->every, MPFR_RNDN);
    if (mpfr_cmp_d(n, 1e8) > 0) {
        mpfr_clears(n, frac, (mpfr_ptr)0);
        hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                      "--every: more than 10^8 sample rows");
        return option_fail(c);
    }
    /* grid points 0..N with N = round down, t_end closing the grid */
    mpfr_add_d(n, n, 1e-9, MPFR_RNDN);
    mpfr_floor(n, n);
    slong N = mpfr_get_si(n, MPFR_RNDN);
    mpfr_mul_si(frac, c->every, N, MPFR_RNDN);
    mpfr_add(frac, frac, c->res->t0, MPFR_RNDN);
    mpfr_sub(frac, c->t_end, frac, MPFR_RNDN); /* t_end - t_N >= ~0 */
    mpfr_div(frac, frac, c->every, MPFR_RNDN);
    c->nsamples = (mpfr_cmp_d(frac, 1e-9) <= 0) ? N + 1 : N + 2;
    mpfr_clears(n, frac, (mpfr_ptr)0);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Zeno */

static void
hist_push(run_ctx *c, const mpfr_t t, slong src, slong g, mpfr_srcptr ls,
          mpfr_srcptr lu)
{
    const hdo_reduced_struct *r = c->mc[src].red;
    if (c->nhist == HIST) {
        hist_entry old = c->hist[0];
        memmove(c->hist, c->hist + 1, (HIST - 1) * sizeof *c->hist);
        hdo_vec_clear(old.ls, old.ns);
        hdo_vec_clear(old.lu, old.nu);
        mpfr_clear(old.t);
        c->nhist--;
    }
    hist_entry *h = c->hist + c->nhist++;
    mpfr_init2(h->t, c->prec);
    mpfr_set(h->t, t, MPFR_RNDN);
    h->src = src;
    h->g = g;
    h->ns = r->nstate;
    h->nu = r->nimplicit;
    h->ls = hdo_vec_init(h->ns, c->prec);
    h->lu = hdo_vec_init(h->nu, c->prec);
    hdo_vec_set(h->ls, ls, h->ns);
    hdo_vec_set(h->lu, lu, h->nu);
}

/* Followed events whose gaps must shrink before an instantaneous event
   counts as an accumulation, and how far above the time tolerance the
   last of those gaps may be (a geometric sequence of ratio r reaches the
   tolerance from at most tol / r; ratios down to 10^-6 are covered).  A
   cascade of instantaneous switches after an ordinary event (a PWM edge
   that makes a diode switch at once) fails the second test. */
#define ZENO_MIN_EVENTS 6
#define ZENO_LAST_GAP_FACTOR 1e6

/* 1 if the last ZENO_MIN_EVENTS followed events have strictly shrinking
   positive gaps, the last of them below ZENO_LAST_GAP_FACTOR * ttol. */
static int
gaps_shrinking(const run_ctx *c, const mpfr_t ttol)
{
    int ok = c->nhist >= ZENO_MIN_EVENTS;
    mpfr_t g1, g2;
    mpfr_inits2(c->prec, g1, g2, (mpfr_ptr)0);
    for (slong i = c->nhist - ZENO_MIN_EVENTS + 2; ok && i < c->nhist; i++) {
        mpfr_sub(g1, c->hist[i - 1].t, c->hist[i - 2].t, MPFR_RNDN);
        mpfr_sub(g2, c->hist[i].t, c->hist[i - 1].t, MPFR_RNDN);
        ok = mpfr_sgn(g2) > 0 && mpfr_cmp(g2, g1) < 0;
    }
    if (ok) {
        mpfr_mul_d(g1, ttol, ZENO_LAST_GAP_FACTOR, MPFR_RNDN);
        ok = mpfr_cmp(g2, g1) <= 0;
    }
    mpfr_clears(g1, g2, (mpfr_ptr)0);
    return ok;
}

/* The event times accumulate: the event just located at tn (in mode src,
   left limit L) follows the last one by less than the time tolerance,
   after shrinking gaps.  Takes the zeno clause at the extrapolated
   accumulation point, or fails with HDO_ERR_ZENO. */
static int
zeno(run_ctx *c, slong src, const left_limit *L, const mpfr_t tn)
{
    const hist_entry *h = c->hist + c->nhist - 3;
    slong zm = -1;
    mpfr_t tinf, eps;
    int st;

    mpfr_inits2(c->prec, tinf, eps, (mpfr_ptr)0);
    mpfr_set_ui(eps, 0, MPFR_RNDN);
    hdo_zeno_aitken(tinf, h[0].t, h[1].t, h[2].t, eps);
    if (mpfr_cmp(tinf, tn) < 0)
        mpfr_set(tinf, tn, MPFR_RNDN);
    /* whose clause: the mode of the accumulating events (the current
       one, else the latest earlier source that has a clause) */
    if (c->model->modes[src].has_zeno)
        zm = src;
    for (slong i = c->nhist - 1; zm < 0 && i >= 0; i--)
        if (c->model->modes[c->hist[i].src].has_zeno)
            zm = c->hist[i].src;
    if (zm < 0) {
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tinf);
        hdo_error_set(c->err, HDO_ERR_ZENO, c->model->modes[src].pos.line,
                      c->model->modes[src].pos.col,
                      "Zeno behaviour: the event times of mode '%s' "
                      "accumulate at t = %s (estimated from the last events, "
                      "after %ld events); the mode has no `zeno goto` clause",
                      c->model->modes[src].name, ts, (long)c->res->nevents);
        mpfr_free_str(ts);
        st = fail(c, HDO_ERR_ZENO, src, tinf);
        mpfr_clears(tinf, eps, (mpfr_ptr)0);
        return st;
    }
    if (mpfr_cmp(tinf, c->t_end) > 0)
        mpfr_set(tinf, c->t_end, MPFR_RNDN);

    /* The state at the accumulation point: the limit of the left limits
       of mode zm's events, by Aitken per component where three are at
       hand and converge geometrically, else the freshest left limit. */
    mode_cache *mz = c->mc + zm;
    const hdo_reduced_struct *r = mz->red;
    slong idx[3], n = 0;
    for (slong i = c->nhist - 1; i >= 0 && n < 3; i--)
        if (c->hist[i].src == zm)
            idx[n++] = i;
    if (zm == src) {
        hdo_vec_set(mz->ls, L->xs, r->nstate);
        hdo_vec_set(mz->lu, L->xu, r->nimplicit);
    } else {
        const hist_entry *e = c->hist + idx[0];
        hdo_vec_set(mz->ls, e->ls, r->nstate);
        hdo_vec_set(mz->lu, e->lu, r->nimplicit);
    }
    if (n == 3) {
        const hist_entry *a = c->hist + idx[2], *b = c->hist + idx[1],
                         *e = c->hist + idx[0];
        for (slong i = 0; i < r->nstate; i++) {
            time_tol(eps, c, e->ls + i);
            hdo_zeno_aitken(mz->ls + i, a->ls + i, b->ls + i, e->ls + i, eps);
        }
        for (slong j = 0; j < r->nimplicit; j++) {
            time_tol(eps, c, e->lu + j);
            hdo_zeno_aitken(mz->lu + j, a->lu + j, b->lu + j, e->lu + j, eps);
        }
    }
    /* samples up to the accumulation point from the limit state */
    emit_samples_point(c, zm, mz->ls, mz->lu, tinf, 0);
    left_limit Z = {r, mz->ls, mz->lu, NULL, NULL};
    st = take_transition(c, zm, c->model->modes[zm].nwhens, &Z, tinf,
                         HDO_EV_ZENO);
    mpfr_clears(tinf, eps, (mpfr_ptr)0);
    return st;
}

/* Zeno at one instant (livelock: Camlibel et al. 2002, section 5.3 and
   Example 5.1; decisions.md).  A cascade of instantaneous events whose
   (mode, when) pattern repeats with a period p, and whose states at the
   same place of the period converge geometrically, is the limit of
   infinitely many events at this instant: the zeno clause is taken there
   with the extrapolated limit state.  The test looks at
   LIVELOCK_SAMPLES states (the 6 events of the time test, one per
   period), so a cycle is followed (LIVELOCK_SAMPLES - 1) p times before
   its limit is taken. */
#define LIVELOCK_SAMPLES ZENO_MIN_EVENTS
#define LIVELOCK_MAX_PERIOD 4

/* Whether the switching function of when g of mode m, expanded at the
   state (xs, xu) at t, leaves into its feasible side there
   (hdo_zeno_guard_leaves over the horizon of a step, event_horizon).  Uses m's
   Taylor object; an expansion that fails counts as leaving (no limit is
   taken from a state the mode cannot continue from). */
static int
guard_leaves_at(run_ctx *c, slong m, slong g, mpfr_srcptr xs, mpfr_srcptr xu,
                const mpfr_t t)
{
    mode_cache *mc = c->mc + m;
    hdo_stepper_struct *sp = mc->step;
    hdo_error_t e;
    hdo_error_clear(&e);
    if (hdo_stepper_apply(sp, t, xs, xu, &e) < 0)
        return 1;
    slong p = sp->dense.order;
    mpfr_t h;
    mpfr_init2(h, c->prec);
    hdo_stepper_step_size(h, sp, c->tol);
    event_horizon(h, t);
    int leaves =
        hdo_zeno_guard_leaves(sp->dense.guard[g * (p + 1)], p + 1, h, c->tol);
    mpfr_clear(h);
    return leaves;
}

/* The event of when g of mode src (left limit L) at tn is instantaneous.
   When it and the events before it form a cascade at tn of period p whose
   states converge, at every place of the period, to a limit at which
   that place's switching function does not leave into its feasible side
   (else the cascade ends by itself after finitely many events: it is
   followed), takes the zeno clause of the latest mode of the period that
   has one at tn, from that place's limit state (*taken = 1), or fails
   with HDO_ERR_ZENO when no mode of the period has one.  Otherwise
   *taken = 0 and the run goes on as before (the Taylor expansion of the
   current step is restored). */
static int
livelock(run_ctx *c, slong src, slong g, const left_limit *L, const mpfr_t tn,
         const mpfr_t ttol, int *taken)
{
    slong n = c->nhist + 1, srcs[HIST + 1], gs[HIST + 1];
    *taken = 0;
    if (c->spurious)
        return 0;
    for (slong i = 0; i < c->nhist; i++) {
        srcs[i] = c->hist[i].src;
        gs[i] = c->hist[i].g;
    }
    srcs[n - 1] = src;
    gs[n - 1] = g;
    slong p =
        hdo_zeno_period(srcs, gs, n, LIVELOCK_SAMPLES, LIVELOCK_MAX_PERIOD);
    if (p == 0)
        return 0;
    slong first = n - 1 - (LIVELOCK_SAMPLES - 1) * p;
    int ok = 1;
    mpfr_t d;
    mpfr_init2(d, c->prec);
    for (slong i = first; ok && i < n - 1; i++) {
        mpfr_sub(d, c->hist[i].t, tn, MPFR_RNDN);
        ok = mpfr_cmpabs(d, ttol) < 0;
    }
    mpfr_clear(d);
    if (!ok)
        return 0;

    /* each place of the last period, newest first: its limit, and
       whether its switching function still acts there */
    slong zm = -1, zdim = 0, cnt = 0;
    mpfr_ptr zlim = NULL;
    int expanded = 0;
    for (slong j = n - 1; ok && j > n - 1 - p; j--) {
        slong m = srcs[j];
        const hdo_reduced_struct *r = c->mc[m].red;
        slong ns = r->nstate, nu = r->nimplicit, dim = ns + nu;
        mpfr_ptr ys[LIVELOCK_SAMPLES];
        cnt = 0;
        for (slong i = j - ((j - first) / p) * p; i <= j; i += p) {
            mpfr_srcptr xs = i == n - 1 ? L->xs : c->hist[i].ls;
            mpfr_srcptr xu = i == n - 1 ? L->xu : c->hist[i].lu;
            ys[cnt] = hdo_vec_init(dim, c->prec);
            hdo_vec_set(ys[cnt], xs, ns);
            hdo_vec_set(ys[cnt] + ns, xu, nu);
            cnt++;
        }
        mpfr_ptr lim = hdo_vec_init(dim, c->prec);
        ok = hdo_zeno_state_limit(lim, (mpfr_srcptr const *)ys, cnt, dim,
                                  c->tol, c->prec);
        if (ok) {
            expanded |= m == src;
            ok = !guard_leaves_at(c, m, gs[j], lim, lim + ns, tn);
        }
        if (ok && zm < 0 && c->model->modes[m].has_zeno) {
            zm = m;
            zlim = lim;
            zdim = dim;
        } else {
            hdo_vec_clear(lim, dim);
        }
        for (slong k = 0; k < cnt; k++)
            hdo_vec_clear(ys[k], dim);
    }
    int st = 0;
    if (!ok) {
        if (expanded)
            st = hdo_stepper_apply(c->mc[src].step, c->t, c->mc[src].xs,
                                   c->mc[src].xu, c->err);
        if (st < 0)
            st = fail(c, st, src, c->t);
    } else if (zm < 0) {
        const hdo_mode *mode = c->model->modes + src;
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tn);
        hdo_error_set(c->err, HDO_ERR_ZENO, mode->whens[g].pos.line,
                      mode->whens[g].pos.col,
                      "Zeno behaviour at one instant (livelock): at t = %s "
                      "mode '%s' takes '%s' again and again without time "
                      "advancing (%ld periods of %ld event%s followed) while "
                      "the state converges; no mode of the cycle has a "
                      "`zeno goto` clause",
                      ts, mode->name, mode->whens[g].guard_text,
                      (long)(LIVELOCK_SAMPLES - 1), (long)p, p > 1 ? "s" : "");
        mpfr_free_str(ts);
        st = fail(c, HDO_ERR_ZENO, src, tn);
    } else {
        mode_cache *mz = c->mc + zm;
        const hdo_reduced_struct *r = mz->red;
        hdo_vec_set(mz->ls, zlim, r->nstate);
        hdo_vec_set(mz->lu, zlim + r->nstate, r->nimplicit);
        left_limit Z = {r, mz->ls, mz->lu, NULL, NULL};
        *taken = 1;
        st = take_transition(c, zm, c->model->modes[zm].nwhens, &Z, tn,
                             HDO_EV_ZENO);
    }
    if (zlim != NULL)
        hdo_vec_clear(zlim, zdim);
    return st;
}

static void
hist_clear(run_ctx *c)
{
    for (slong i = 0; i < c->nhist; i++) {
        hdo_vec_clear(c->hist[i].ls, c->hist[i].ns);
        hdo_vec_clear(c->hist[i].lu, c->hist[i].nu);
        mpfr_clear(c->hist[i].t);
    }
    c->nhist = 0;
}

/* ------------------------------------------------------------------ */
/* Filippov sliding (KM 2017, section 5.2; decisions.md) */

/* The when of mode m that goes to mode tgt (the first), or -1. */
static slong
when_to(const hdo_model_struct *model, slong m, slong tgt)
{
    for (slong k = 0; k < model->modes[m].nwhens; k++)
        if (model->modes[m].whens[k].target == tgt)
            return k;
    return -1;
}

/* Evaluates e[0..n) on the left limit L at t into out: 0, or -1 when L
   lacks a variable or an expression is undefined there. */
static int
eval_on_left(run_ctx *c, mpfr_ptr out, const hdo_expr *e, slong n,
             const left_limit *L, const mpfr_t t)
{
    hdo_program_t prog;
    hdo_expr bad;
    int ok = 0;
    hdo_program_init(prog, c->model->pool, e, n, c->prec);
    for (slong i = 0; ok == 0 && i < prog->ninputs; i++) {
        const hdo_program_input *in = prog->inputs + i;
        if (!left_value(prog->value[in->slot], L, in->var, in->order))
            ok = -1;
    }
    if (ok == 0 && prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    if (ok == 0 && hdo_program_eval(prog, &bad) != 0)
        ok = -1;
    for (slong i = 0; ok == 0 && i < n; i++)
        mpfr_set(out + i, prog->value[prog->root_slot[i]], MPFR_RNDN);
    hdo_program_clear(prog);
    return ok;
}

typedef struct {
    slong var[64];
    slong n;
} surf_vars;

static void
surf_collect(slong var, slong order, void *data)
{
    surf_vars *l = data;
    for (slong i = 0; i < l->n; i++)
        if (l->var[i] == var)
            return;
    if (order == 0 && l->n < 64)
        l->var[l->n++] = var;
}

/* 1 if S_b = -k S_a (k > 0) near the point to first order: the gradients
   (in the variables and t) are opposite and parallel within sqrt(tol).
   Two surfaces that merely meet at the point (a corner, an accumulation
   of switches between two surfaces) are not one switching surface. */
static int
same_surface(run_ctx *c, hdo_expr Sa, hdo_expr Sb, const left_limit *L,
             const mpfr_t t)
{
    hdo_model_struct *model = c->model;
    surf_vars l;
    l.n = 0;
    hdo_expr_foreach_var(model->pool, Sa, surf_collect, &l);
    hdo_expr_foreach_var(model->pool, Sb, surf_collect, &l);
    slong n = l.n + 1;
    hdo_expr *e = malloc(2 * n * sizeof *e);
    HDO_ASSERT(e != NULL);
    for (slong i = 0; i < l.n; i++) {
        e[i] = hdo_expr_diff(model->pool, Sa, l.var[i], 0);
        e[n + i] = hdo_expr_diff(model->pool, Sb, l.var[i], 0);
    }
    e[l.n] = hdo_expr_diff_time(model->pool, Sa);
    e[n + l.n] = hdo_expr_diff_time(model->pool, Sb);
    mpfr_ptr g = hdo_vec_init(2 * n, c->prec);
    int ok = eval_on_left(c, g, e, 2 * n, L, t) == 0;
    mpfr_t dot, na, nb, x, y, thr;
    mpfr_inits2(c->prec, dot, na, nb, x, y, thr, (mpfr_ptr)0);
    mpfr_sqrt(thr, c->tol, MPFR_RNDN);
    mpfr_set_ui(dot, 0, MPFR_RNDN);
    mpfr_set_ui(na, 0, MPFR_RNDN);
    mpfr_set_ui(nb, 0, MPFR_RNDN);
    for (slong i = 0; ok && i < n; i++) {
        mpfr_fma(dot, g + i, g + n + i, dot, MPFR_RNDN);
        mpfr_fma(na, g + i, g + i, na, MPFR_RNDN);
        mpfr_fma(nb, g + n + i, g + n + i, nb, MPFR_RNDN);
    }
    /* opposite: dot < 0; parallel: dot^2 >= |ga|^2 |gb|^2 (1 - thr) */
    if (ok)
        ok = mpfr_sgn(dot) < 0;
    if (ok) {
        mpfr_sqr(x, dot, MPFR_RNDN);
        mpfr_mul(y, na, nb, MPFR_RNDN);
        mpfr_ui_sub(thr, 1, thr, MPFR_RNDN);
        mpfr_mul(y, y, thr, MPFR_RNDN);
        ok = mpfr_cmp(x, y) >= 0;
    }
    mpfr_clears(dot, na, nb, x, y, thr, (mpfr_ptr)0);
    hdo_vec_clear(g, 2 * n);
    free(e);
    return ok;
}

/* Whether the event of when g of mode src (left limit L, time t) starts
   Filippov sliding: the target b goes back to src across a surface S_b
   that vanishes here too, b's flow leaves through it at once
   (L_b S_b < 0), src's flow leaves through S = S_src (L_src S <= 0) and
   b's flow points back (L_b S > 0).  The thresholds are sqrt(tol).
   Returns 1, 0, or a negative status (the target cannot be built). */
static int
sliding_pair(run_ctx *c, slong src, slong g, const left_limit *L,
             const mpfr_t t)
{
    hdo_model_struct *model = c->model;
    slong tgt = model->modes[src].whens[g].target, kb;
    if (model->chattering != HDO_CHATTER_FILIPPOV || tgt == src ||
        (kb = when_to(model, tgt, src)) < 0)
        return 0;
    int st = mode_cache_get(c, tgt, t);
    if (st < 0)
        return st;
    const hdo_reduced_struct *ra = c->mc[src].red, *rb = c->mc[tgt].red;
    if (!hdo_sliding_same_implicit(ra, rb))
        return 0; /* the chattering is reported as not covered */
    hdo_expr S = model->modes[src].whens[g].guard,
             Sb = model->modes[tgt].whens[kb].guard;
    hdo_expr e[4];
    e[0] = Sb;
    e[1] = hdo_sliding_lie(model, ra, S);
    e[2] = hdo_sliding_lie(model, rb, S);
    e[3] = hdo_sliding_lie(model, rb, Sb);
    if (e[1] == HDO_EXPR_NONE || e[2] == HDO_EXPR_NONE || e[3] == HDO_EXPR_NONE)
        return 0;
    mpfr_ptr v = hdo_vec_init(4, c->prec);
    mpfr_t thr;
    mpfr_init2(thr, c->prec);
    mpfr_sqrt(thr, c->tol, MPFR_RNDN);
    int ev_ok = eval_on_left(c, v, e, 4, L, t);
    int yes = ev_ok == 0 && mpfr_cmpabs(v + 0, thr) <= 0 &&
              mpfr_cmp(v + 1, thr) <= 0 && mpfr_cmp(v + 2, thr) > 0;
    if (yes) {
        mpfr_neg(thr, thr, MPFR_RNDN);
        yes = mpfr_cmp(v + 3, thr) < 0;
    }
    mpfr_clear(thr);
    hdo_vec_clear(v, 4);
    if (yes)
        yes = same_surface(c, S, Sb, L, t);
    return yes;
}

/* Builds (once per run) the sliding mode of the pair a < b into the mode
   cache at nmodes + a * nmodes + b: the surface is a's guard towards b,
   alpha the weight of a's flow; guards alpha >= 0 (then b), 1 - alpha >=
   0 (then a), then the other whens of a and b (reaching one of them is
   sliding on an intersection, not covered). */
static int
sliding_get(run_ctx *c, slong a, slong b, const mpfr_t t, slong *idx)
{
    hdo_model_struct *model = c->model;
    slong n = model->nmodes, m = n + a * n + b;
    mode_cache *mc = c->mc + m;
    int st;
    *idx = m;
    if (mc->built)
        return 0;
    if ((st = mode_cache_get(c, a, t)) < 0 ||
        (st = mode_cache_get(c, b, t)) < 0)
        return st;
    slong ka = when_to(model, a, b);
    const hdo_transition *tra = model->modes[a].whens + ka;
    char why[512];
    hdo_reduced_init(mc->red);
    st = hdo_sliding_build(mc->red, &mc->alpha, model, c->mc[a].red,
                           c->mc[b].red, tra->guard, why, sizeof why);
    if (st < 0) {
        hdo_reduced_clear(mc->red);
        hdo_error_set(c->err, st, tra->pos.line, tra->pos.col, "%s", why);
        return fail(c, st, a, t);
    }
    slong cap = 2 + model->modes[a].nwhens + model->modes[b].nwhens, ng = 2;
    hdo_expr *guards = malloc(cap * sizeof *guards);
    mc->other_mode = calloc(cap, sizeof(slong));
    mc->other_when = calloc(cap, sizeof(slong));
    HDO_ASSERT(guards != NULL && mc->other_mode != NULL &&
               mc->other_when != NULL);
    guards[0] = mc->alpha;
    guards[1] = hdo_expr_sub(model->pool, hdo_expr_const_si(model->pool, 1, 1),
                             mc->alpha);
    for (int side = 0; side < 2; side++) {
        slong p = side ? b : a, q = side ? a : b;
        for (slong k = 0; k < model->modes[p].nwhens; k++)
            if (model->modes[p].whens[k].target != q) {
                mc->other_mode[ng] = p;
                mc->other_when[ng] = k;
                guards[ng++] = model->modes[p].whens[k].guard;
            }
    }
    st = stepper_init(c, mc->step, model, mc->red, guards, ng);
    free(guards);
    if (st < 0) {
        hdo_error_set(c->err, st, tra->pos.line, tra->pos.col,
                      "the sliding mode of '%s' and '%s': %s",
                      model->modes[a].name, model->modes[b].name,
                      mc->step->message);
        hdo_stepper_clear(mc->step);
        hdo_reduced_clear(mc->red);
        free(mc->other_mode);
        free(mc->other_when);
        mc->other_mode = mc->other_when = NULL;
        return fail(c, st, a, t);
    }
    mc->nguards = ng;
    mc->sa = a;
    mc->sb = b;
    mode_cache_alloc(mc, 0, c->prec);
    return 0;
}

static int enter_slot(run_ctx *c, slong src, slong m, const left_limit *L,
                      const mpfr_t t, hdo_event_kind kind, const char *text);

/* Enters the sliding mode of src and the target of its when g at t from
   the left limit L (every state kept): a sliding-start event. */
static int
sliding_enter(run_ctx *c, slong src, slong g, const left_limit *L,
              const mpfr_t t)
{
    const hdo_transition *tr = c->model->modes[src].whens + g;
    slong tgt = tr->target, m;
    int st =
        sliding_get(c, src < tgt ? src : tgt, src < tgt ? tgt : src, t, &m);
    if (st < 0)
        return st;
    return enter_slot(c, src, m, L, t, HDO_EV_SLIDING_START, tr->guard_text);
}

/* Enters the sliding mode in cache slot m (built) from slot src at t,
   every state kept from the left limit L: an event of the given kind. */
static int
enter_slot(run_ctx *c, slong src, slong m, const left_limit *L, const mpfr_t t,
           hdo_event_kind kind, const char *text)
{
    int st;
    mode_cache *mc = c->mc + m;
    const hdo_reduced_struct *r = mc->red;
    for (slong i = 0; i < r->nstate; i++) {
        mc->fixed[i] = 1;
        if (!left_value(mc->xs + i, L, r->state[i].var, r->state[i].order)) {
            mc->fixed[i] = 0;
            if (r->state[i].order == 0)
                start_guess(mc->xs + i, c, r->state[i].var);
            else
                mpfr_set_ui(mc->xs + i, 0, MPFR_RNDN);
        }
    }
    for (slong j = 0; j < r->nimplicit; j++)
        if (!left_value(mc->xu + j, L, r->unknown[j].var, r->unknown[j].order))
            mpfr_set_ui(mc->xu + j, 0, MPFR_RNDN);
    if (r->nimplicit > 0 || r->ncons > 0) {
        int adjusted = 0;
        st = reinit(c, m, t, &adjusted);
        if (st < 0)
            return st;
    }
    /* what reinit notes, for a mode that needed none */
    int ph = phase_enter(c, PH_REDUCTION);
    note_mode_used(c, m, t);
    phase_enter(c, ph);
    add_row(c, t, src, L->xs, L->xu);
    hdo_event *ev = hdo_result_add_event(c->res, t, res_mode(c, src),
                                         res_mode(c, m), kind, text);
    mode_values(ev->left, NULL, c->mc + src, L->xs, L->xu);
    mode_values(ev->right, NULL, mc, mc->xs, mc->xu);
    add_row(c, t, m, mc->xs, mc->xu);
    skip_samples_at(c, t);
    hist_clear(c);
    c->mode = m;
    mpfr_set(c->t, t, MPFR_RNDN);
    mpfr_set(c->last_event, t, MPFR_RNDN);
    if (c->res->nevents > c->max_events) { /* N events allowed, not N+1 */
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "more than %ld events (--max-events)", c->max_events);
        return fail(c, HDO_ERR_TOO_MUCH_WORK, src, t);
    }
    return 0;
}

#include "intersect.inc"

/* The event of guard g of the current sliding mode at offset s: alpha
   leaves [0, 1] (guard 0: alpha = 0, into b; guard 1: alpha = 1, into
   a; a sliding-end event), or another surface of a or b is reached
   (HDO_ERR_UNSUPPORTED). */
static int
sliding_event(run_ctx *c, slong g, const mpfr_t s)
{
    slong m = c->mode;
    mode_cache *mc = c->mc + m;
    hdo_model_struct *model = c->model;
    mpfr_t tstar;
    int st;

    mpfr_init2(tstar, c->prec);
    mpfr_add(tstar, c->t, s, MPFR_RNDN);
    emit_samples(c, tstar, 0);
    hdo_stepper_eval(mc->ls, mc->lu, NULL, mc->step, s);
    left_limit L = {mc->red, mc->ls, mc->lu, &mc->step->dense, s};
    if (mc->set != NULL || g >= 2) {
        /* an intersection: a weight reaches its bound, or a further
           surface is reached (intersect.inc) */
        st = mc->set != NULL && g < 2 * mc->set->k
                 ? intersect_leave(c, m, g / 2, g % 2 == 0, &L, tstar)
                 : intersect_reach(c, m, g, &L, tstar);
        mpfr_clear(tstar);
        return st;
    }
    hdo_transition tr;
    memset(&tr, 0, sizeof tr);
    tr.guard = HDO_EXPR_NONE;
    tr.target = g == 0 ? mc->sb : mc->sa;
    tr.guard_text = g == 0 ? "alpha = 0" : "alpha = 1";
    tr.pos = model->modes[tr.target].pos;
    hist_clear(c);
    st = take_transition_tr(c, m, &tr, 0, &L, tstar, HDO_EV_SLIDING_END);
    mpfr_clear(tstar);
    return st;
}

/* ------------------------------------------------------------------ */
/* The event of a step */

/* Handles the event of guard g at offset s of the current step. */
static int
handle_event(run_ctx *c, slong g, const mpfr_t s, int simultaneous)
{
    slong src = c->mode;
    mode_cache *mc = c->mc + src;
    const hdo_mode *mode = c->model->modes + src;
    mpfr_t tstar, gap, ttol;
    int st = 0;

    mpfr_inits2(c->prec, tstar, gap, ttol, (mpfr_ptr)0);
    mpfr_add(tstar, c->t, s, MPFR_RNDN);
    emit_samples(c, tstar, 0);
    hdo_stepper_eval(mc->ls, mc->lu, NULL, mc->step, s);
    left_limit L = {mc->red, mc->ls, mc->lu, &mc->step->dense, s};

    mpfr_sub(gap, tstar, c->last_event, MPFR_RNDN);
    time_tol(ttol, c, tstar);
    int instant = mpfr_cmp(gap, ttol) < 0;

    if (instant && gaps_shrinking(c, ttol)) {
        /* the samples between tstar and the accumulation point come
           from the zeno code; drop the history after it */
        st = zeno(c, src, &L, tstar);
        hist_clear(c);
        c->ninstant = 0;
        c->spurious = 0;
        mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
        return st;
    }
    /* An event at the instant of the previous one must start from a state
       (the one that event left behind) whose switching function does not
       leave into its feasible side (KM Remark 12; the ball at h = 0 with
       v > 0 goes up, its next impact is later).  One that does was
       located in error: the cascade it belongs to is no livelock (no
       limit is taken from it) and ends at the chattering count. */
    if (!instant) {
        c->spurious = 0;
    } else if (!c->spurious) {
        c->spurious = guard_leaves_at(c, src, g, L.xs, L.xu, tstar);
        st = hdo_stepper_apply(mc->step, c->t, mc->xs, mc->xu, c->err);
        if (st < 0) {
            st = fail(c, st, src, c->t);
            mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
            return st;
        }
    }
    if (instant) {
        int taken = 0;
        st = livelock(c, src, g, &L, tstar, ttol, &taken);
        if (taken || st < 0) {
            hist_clear(c);
            c->ninstant = 0;
            c->spurious = 0;
            mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
            return st;
        }
    }
    if (instant) {
        if (++c->ninstant > HDO_RUN_MAX_INSTANT) {
            slong prev = c->res->nevents > 0
                             ? c->res->events[c->res->nevents - 1].from
                             : src;
            const char *how =
                c->model->chattering == HDO_CHATTER_STOP
                    ? "`chattering stop` ends the run here"
                : c->model->chattering == HDO_CHATTER_HYSTERESIS
                    ? "`chattering hysteresis` is not implemented yet"
                    : "Filippov sliding is not covered here (sliding on an "
                      "intersection of surfaces, a mode that switches to "
                      "itself, or modes not in explicit form)";
            char *ts, who[256];
            mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tstar);
            if (prev == src)
                snprintf(who, sizeof who, "mode '%s' switches to itself",
                         mode->name);
            else
                snprintf(who, sizeof who,
                         "modes '%s' and '%s' switch back and forth",
                         c->model->modes[prev].name, mode->name);
            int cst = c->model->chattering == HDO_CHATTER_FILIPPOV
                          ? HDO_ERR_UNSUPPORTED
                          : HDO_ERR_CHATTERING;
            hdo_error_set(
                c->err, cst, mode->whens[g].pos.line, mode->whens[g].pos.col,
                "chattering: %s on '%s' at t = %s (%d "
                "instantaneous switches in a row); %s",
                who, mode->whens[g].guard_text, ts, HDO_RUN_MAX_INSTANT, how);
            mpfr_free_str(ts);
            st = fail(c, cst, src, tstar);
            mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
            return st;
        }
    } else {
        c->ninstant = 0;
        c->spurious = 0;
    }
    /* Filippov: a switch into a mode that at once switches back across
       the same surface starts sliding (tested after the chattering
       count, so an enter/leave livelock at one instant ends there) */
    st = sliding_pair(c, src, g, &L, tstar);
    int slid = st == 1;
    if (st == 1 && simultaneous) {
        char *ts;
        mpfr_asprintf(&ts, "%.*Re", (int)(c->digits - 1), tstar);
        hdo_error_set(c->err, HDO_ERR_UNSUPPORTED, mode->whens[g].pos.line,
                      mode->whens[g].pos.col,
                      "sliding on an intersection of surfaces is not "
                      "covered: mode '%s' reaches '%s' together with another "
                      "of its surfaces at t = %s",
                      mode->name, mode->whens[g].guard_text, ts);
        mpfr_free_str(ts);
        st = HDO_ERR_UNSUPPORTED;
        fail(c, st, src, tstar);
    } else if (st == 1) {
        st = sliding_enter(c, src, g, &L, tstar);
    }
    if (st != 0 || slid) {
        mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
        return st;
    }
    hist_push(c, tstar, src, g, mc->ls, mc->lu);
    st = take_transition(c, src, g, &L, tstar,
                         simultaneous ? HDO_EV_SIMULTANEOUS : HDO_EV_SWITCH);
    mpfr_clears(tstar, gap, ttol, (mpfr_ptr)0);
    return st;
}

/* "; <the stiffness diagnosis>" for an error message. */
static void
stiff_why(char *buf, size_t n, const run_ctx *c)
{
    buf[0] = ';';
    buf[1] = ' ';
    hdo_stiff_watch_describe(buf + 2, n - 2, &c->stiff, c->model,
                             mpfr_get_d(c->t, MPFR_RNDN),
                             mpfr_get_d(c->t_end, MPFR_RNDN));
}

/* ------------------------------------------------------------------ */
/* One step of the current mode; sets *done at the end time. */
static int
step(run_ctx *c, int *done)
{
    slong m = c->mode;
    mode_cache *mc = c->mc + m;
    slong p, best = -1, ncand = 0;
    mpfr_t h, hmax, hloc, root, broot, stol;
    int last = 0, st;

    if (++c->res->steps > c->max_steps) {
        char why[700] = "";
        if (c->stiff.steps > 0)
            stiff_why(why, sizeof why, c);
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "more than %ld steps (--max-steps)%s", c->max_steps, why);
        return fail(c, HDO_ERR_TOO_MUCH_WORK, m, c->t);
    }
    st = hdo_stepper_apply(mc->step, c->t, mc->xs, mc->xu, c->err);
    if (st < 0)
        return fail(c, st, m, c->t);
    p = mc->step->dense.order;
    c->res->order_sum += p;
    mpfr_inits2(c->prec, h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
    st = hdo_stepper_step_size(h, mc->step, c->tol);
    hdo_stiff_watch_step(&c->stiff, mc->step, m, c->t, h);
    if (st == 0 && auto_switch(c, m)) {
        st = hdo_stepper_apply(mc->step, c->t, mc->xs, mc->xu, c->err);
        if (st < 0) {
            st = fail(c, st, m, c->t);
            mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
            return st;
        }
        p = mc->step->dense.order;
        st = hdo_stepper_step_size(h, mc->step, c->tol);
    }
    if (mc->step->type == &hdo_step_radau)
        c->res->implicit_steps++;
    if (st == HDO_ERR_STEP_COLLAPSE) {
        char *hs, why[700] = "";
        mpfr_asprintf(&hs, "%.3Re", h);
        if (c->stiff.steps > 0)
            stiff_why(why, sizeof why, c);
        hdo_error_set(c->err, HDO_ERR_STEP_COLLAPSE, 0, 0,
                      "the step size collapsed to %s (%s)", hs,
                      why[0] ? why + 2 : "a singularity of the solution?");
        mpfr_free_str(hs);
        st = fail(c, HDO_ERR_STEP_COLLAPSE, m, c->t);
        mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
        return st;
    }
    if (hdo_stiff_watch_hopeless(&c->stiff, mpfr_get_d(c->t, MPFR_RNDN),
                                 mpfr_get_d(c->t_end, MPFR_RNDN),
                                 (long)c->res->steps, (long)c->max_steps)) {
        char why[700];
        stiff_why(why, sizeof why, c);
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "the run would take more than %ld steps "
                      "(--max-steps)%s",
                      c->max_steps, why);
        st = fail(c, HDO_ERR_TOO_MUCH_WORK, m, c->t);
        mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
        return st;
    }
    /* the events are searched over the natural step hloc; the step taken
       (h) stops at the end time */
    event_horizon(h, c->t);
    mpfr_set(hloc, h, MPFR_RNDN);
    mpfr_sub(hmax, c->t_end, c->t, MPFR_RNDN);
    if (mpfr_cmp(h, hmax) >= 0) {
        mpfr_set(h, hmax, MPFR_RNDN);
        last = 1;
    }

    /* the first event among the guards; file order among those within
       the time tolerance of the first */
    int ph = phase_enter(c, PH_EVENTS);
    time_tol(stol, c, c->t);
    for (slong g = 0; g < mc->nguards; g++) {
        mpfr_srcptr coef = mc->step->dense.guard[g * (p + 1)];
        if (hdo_invariant_skips(mc->inv, g))
            continue; /* a first integral on its feasible side */
        if (hdo_event_locate(root, coef, p + 1, hloc, c->tol, c->prec) !=
                HDO_EVENT ||
            mpfr_cmp(root, h) > 0)
            continue;
        if (best < 0) {
            best = g;
            mpfr_set(broot, root, MPFR_RNDN);
            ncand = 1;
            continue;
        }
        /* root < broot - stol: strictly earlier; within stol: tie */
        mpfr_t d;
        mpfr_init2(d, c->prec);
        mpfr_sub(d, broot, root, MPFR_RNDN);
        if (mpfr_cmp(d, stol) > 0) {
            best = g;
            mpfr_set(broot, root, MPFR_RNDN);
            ncand = 1;
        } else {
            mpfr_neg(d, d, MPFR_RNDN);
            if (mpfr_cmp(d, stol) <= 0)
                ncand++; /* the earlier guard in file order stays */
        }
        mpfr_clear(d);
    }
    /* An event within the time tolerance of t_end is not taken: whether a
       zero at t_end itself (a PWM edge at the end time, a sliding that
       ends exactly there) is found at all depends on rounding, so the
       run ends at t_end in the current mode at every precision
       (decisions.md). */
    if (best >= 0 && last) {
        mpfr_t d;
        mpfr_init2(d, c->prec);
        mpfr_sub(d, h, broot, MPFR_RNDN);
        if (mpfr_cmp(d, stol) <= 0)
            best = -1;
        mpfr_clear(d);
    }

    if (best < 0)
        phase_enter(c, ph); /* back to integration */
    if (best >= 0)
        event_digits(c, mc->step->dense.guard[best * (p + 1)], p + 1, hloc,
                     broot);
    if (best >= 0 && m >= c->model->nmodes) {
        st = sliding_event(c, best, broot);
    } else if (best >= 0) {
        st = handle_event(c, best, broot, ncand > 1);
    } else {
        /* no event: samples, then advance with projection */
        mpfr_t tnew;
        mpfr_init2(tnew, c->prec);
        if (last)
            mpfr_set(tnew, c->t_end, MPFR_RNDN);
        else
            mpfr_add(tnew, c->t, h, MPFR_RNDN);
        emit_samples(c, tnew, 1);
        /* dense output at h, residual, projection (the stepper's evolve) */
        st = hdo_stepper_evolve(mc->xs, mc->xu, mc->step, h, c->err);
        if (st < 0)
            st = fail(c, st, m, tnew);
        mpfr_set(c->t, tnew, MPFR_RNDN);
        c->ninstant = 0;
        c->spurious = 0;
        mpfr_clear(tnew);
        if (last)
            *done = 1;
    }
    if (best >= 0)
        phase_enter(c, ph);
    mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
    return st;
}

/* ------------------------------------------------------------------ */

/* Evaluates a constant model expression (t0, until) at the run
   precision. */
static int
eval_time(run_ctx *c, mpfr_t out, hdo_expr e, hdo_srcpos pos, const char *what)
{
    if (hdo_expr_eval_constant(out, c->model->pool, e) != 0) {
        hdo_error_set(c->err, HDO_ERR_DOMAIN, pos.line, pos.col,
                      "the %s time is undefined", what);
        return fail(c, HDO_ERR_DOMAIN, -1, NULL);
    }
    return 0;
}

static int
run_setup(run_ctx *c)
{
    hdo_model_struct *model = c->model;
    int st;
    if (c->opt->digits <= 0) {
        hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                      "digits must be positive, got %ld", c->opt->digits);
        return fail(c, HDO_ERR_INPUT, -1, NULL);
    }
    st = eval_time(c, c->res->t0, model->t0, model->start_pos, "start");
    if (st < 0)
        return st;
    if (c->opt->until != NULL) {
        fmpq_t q;
        fmpq_init(q);
        st = hdo_parse_decimal(q, c->opt->until, strlen(c->opt->until));
        if (st == 0)
            fmpq_get_mpfr(c->t_end, q, MPFR_RNDN);
        fmpq_clear(q);
        if (st == HDO_ERR_UNSUPPORTED) {
            hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                          "--until: '%s' is out of range (at most %d "
                          "significant digits and an exponent within +-%d)",
                          c->opt->until, HDO_MODEL_MAX_DIGITS,
                          HDO_MODEL_MAX_EXPONENT);
            return option_fail(c);
        } else if (st != 0) {
            hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                          "--until: expected a decimal number, got '%s'",
                          c->opt->until);
            return option_fail(c);
        }
    } else if (model->t_end == HDO_EXPR_NONE) {
        hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                      "the model has no end time: add `until T` or give "
                      "--until T");
        return fail(c, HDO_ERR_INPUT, -1, NULL);
    } else {
        st = eval_time(c, c->t_end, model->t_end, model->until_pos, "end");
        if (st < 0)
            return st;
    }
    if (mpfr_cmp(c->t_end, c->res->t0) <= 0) {
        char *a, *b;
        mpfr_asprintf(&a, "%.*Rg", 20, c->t_end);
        mpfr_asprintf(&b, "%.*Rg", 20, c->res->t0);
        if (c->opt->until != NULL) {
            /* the command line is wrong, not the model */
            hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                          "--until %s: the end time %s is not after the "
                          "model's start time %s",
                          c->opt->until, a, b);
            mpfr_free_str(a);
            mpfr_free_str(b);
            return option_fail(c);
        }
        hdo_error_set(c->err, HDO_ERR_INPUT, model->until_pos.line,
                      model->until_pos.col,
                      "the end time %s is not after the start time %s", a, b);
        mpfr_free_str(a);
        mpfr_free_str(b);
        return fail(c, HDO_ERR_INPUT, -1, NULL);
    }
    mpfr_set(c->res->t_end, c->t_end, MPFR_RNDN);
    return setup_samples(c);
}

/* The initial point: start values fixed, everything else free. */
static int
run_start(run_ctx *c)
{
    slong m = c->model->start_mode;
    int st = mode_cache_get(c, m, c->res->t0), adjusted = 0;
    if (st < 0)
        return st;
    mode_cache *mc = c->mc + m;
    const hdo_reduced_struct *r = mc->red;
    for (slong i = 0; i < r->nstate; i++) {
        slong v = r->state[i].var;
        mc->fixed[i] =
            r->state[i].order == 0 && c->model->vars[v].start != HDO_EXPR_NONE;
        if (r->state[i].order == 0)
            start_guess(mc->xs + i, c, v);
        else
            mpfr_set_ui(mc->xs + i, 0, MPFR_RNDN);
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        if (r->unknown[j].order == 0)
            start_guess(mc->xu + j, c, r->unknown[j].var);
        else
            mpfr_set_ui(mc->xu + j, 0, MPFR_RNDN);
    }
    st = reinit(c, m, c->res->t0, &adjusted);
    if (st < 0)
        return st;
    c->res->start_adjusted = adjusted;
    c->mode = m;
    mpfr_set(c->t, c->res->t0, MPFR_RNDN);
    emit_samples_point(c, m, mc->xs, mc->xu, c->t, 1);
    /* the start is treated like the state right after a transition: an
       infeasible start switches at once (the first step sees a root at
       0); last_event = t0 makes such a switch count as instantaneous */
    mpfr_set(c->last_event, c->t, MPFR_RNDN);
    return 0;
}

int
hdo_run_rows(slong *nrows, hdo_model_t model, const hdo_run_options *opt,
             hdo_error_t *err)
{
    run_ctx c;
    hdo_result_t res;
    memset(&c, 0, sizeof c);
    c.model = model;
    c.opt = opt;
    c.res = res;
    c.err = err;
    c.digits = opt->digits > 0 ? opt->digits : 30;
    c.prec = hdo_run_prec(c.digits);
    if (err != NULL)
        hdo_error_clear(err);
    hdo_result_init(res);
    hdo_result_setup(res, model, c.digits, c.prec);
    mpfr_init2(c.tol, c.prec);
    hdo_run_tol(c.tol, c.digits);
    mpfr_init2(c.every, c.prec + 32);
    mpfr_inits2(c.prec, c.t, c.t_end, c.last_event, (mpfr_ptr)0);
    int st = run_setup(&c);
    *nrows = st == 0 ? c.nsamples : 0;
    mpfr_clears(c.tol, c.every, c.t, c.t_end, c.last_event, (mpfr_ptr)0);
    hdo_result_clear(res);
    return st < 0 ? st : 0;
}

int
hdo_run(hdo_result_t res, hdo_model_t model, const hdo_run_options *opt,
        hdo_error_t *err)
{
    run_ctx c;
    int st = 0, done = 0;
    struct timespec cpu0, cpu1;

    memset(&c, 0, sizeof c);
    c.model = model;
    c.opt = opt;
    c.res = res;
    c.err = err;
    c.digits = opt->digits > 0 ? opt->digits : 30;
    c.prec = hdo_run_prec(c.digits);
    c.max_steps = opt->max_steps > 0 ? opt->max_steps : HDO_RUN_MAX_STEPS;
    c.max_events = opt->max_events > 0 ? opt->max_events : HDO_RUN_MAX_EVENTS;
    hdo_stiff_watch_init(&c.stiff);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
    clock_gettime(CLOCK_MONOTONIC, &c.start);
    c.phase_since = c.start;
    if (err != NULL)
        hdo_error_clear(err);
    hdo_result_setup(res, model, c.digits, c.prec);
    mpfr_init2(c.tol, c.prec);
    hdo_run_tol(c.tol, c.digits);
    mpfr_init2(c.every, c.prec + 32);
    mpfr_inits2(c.prec, c.t, c.t_end, c.last_event, (mpfr_ptr)0);
    mpfr_set_ui(c.t, 0, MPFR_RNDN);
    /* the model's modes, then a slot per ordered pair for the sliding
       modes (nmodes + a * nmodes + b, a < b used) */
    slong nall = model->nmodes + model->nmodes * model->nmodes + HDO_RUN_XSLOTS;
    c.mc = calloc(nall ? nall : 1, sizeof *c.mc);
    HDO_ASSERT(c.mc != NULL);

    st = run_setup(&c);
    if (st == 0)
        st = run_start(&c);
    while (st == 0 && !done) {
        if (mpfr_cmp(c.t, c.t_end) >= 0)
            break;
        int ph = phase_enter(&c, PH_INTEGRATION);
        st = step(&c, &done);
        phase_enter(&c, ph);
        if (opt->progress != NULL)
            opt->progress(opt->progress_data, mpfr_get_d(c.t, MPFR_RNDN),
                          (long)res->steps, (long)res->nevents,
                          c.mc[c.mode].step->type->name);
    }
    if (st == 0) /* a sample at t_end not yet written (event at t_end) */
        emit_samples_point(&c, c.mode, c.mc[c.mode].xs, c.mc[c.mode].xu,
                           c.t_end, 1);

    hist_clear(&c);
    for (slong m = 0; m < nall; m++)
        mode_cache_clear(c.mc + m, res);
    free(c.mc);
    mpfr_clears(c.tol, c.every, c.t, c.t_end, c.last_event, (mpfr_ptr)0);
    phase_enter(&c, PH_OTHER);
    res->seconds = elapsed(&c);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
    res->cpu_seconds = (double)(cpu1.tv_sec - cpu0.tv_sec) +
                       1e-9 * (double)(cpu1.tv_nsec - cpu0.tv_nsec);
    return st < 0 ? st : 0;
}
