/* run.c -- hdo_run: the driver loop over arcs, events, transitions, chattering
 * and Zeno */
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "util.h"

/* The layering (style.md, GSL odeiv2): a stepper (ref/step.h: the Taylor
   method today) is step + control (the dense output at a point and its
   step size), seen only through its table; this file is the
   driver: it takes the steps, projects onto the constraints after each,
   asks ref/event/locate.c whether a switching function changes sign
   inside the step, and performs the transitions.  Everything that can be
   built once per mode (reduced form, stepper compiled with the
   guards, the `with` programs) is built the first time the mode is
   entered and kept in a mode_cache for the whole run (mode.c). */

/* ------------------------------------------------------------------ */

/* An event within the time tolerance of t_end is not taken: whether a
   zero at t_end itself (a PWM edge at the end time, a sliding that ends
   exactly there) is found at all depends on rounding, so the run ends at
   t_end in the current mode at every precision (decisions.md D-017).  The
   tolerance is the one of t_end, not of the step's start: a last step
   from 2 to 3 used to judge an event near 3 with 2 tol, so the rule
   depended on where the step sequence happened to start the last step. */
int
hdo_run_event_at_end(const run_ctx *c, const mpfr_t h, const mpfr_t root)
{
    mpfr_t d, etol;
    mpfr_inits2(c->prec, d, etol, (mpfr_ptr)0);
    hdo_run_time_tol(etol, c, c->t_end);
    mpfr_sub(d, h, root, MPFR_RNDN);
    int at_end = mpfr_cmp(d, etol) <= 0;
    mpfr_clears(d, etol, (mpfr_ptr)0);
    return at_end;
}

/* The zero rule's error of guard g's value at the step's start
   (hdo_run_guard_value_floor, D-112), or NULL (D-016's rule): asked only
   where that rule takes S(0) for a zero, |S(0)| within tol times S's
   size over the step (an enclosure per guard otherwise). */
static mpfr_srcptr
value_floor(mpfr_t vf, run_ctx *c, mode_cache *mc, slong g, mpfr_srcptr coef,
            slong len, const mpfr_t hloc, int after, slong *order)
{
    /* D-016's zero order: hdo_event_locate_after's own where no vfloor
       comes back (passed on, not computed twice: D-116) */
    *order = hdo_event_zero_order(coef, len, hloc, c->tol, mc->gfloor + g);
    if (*order == 0)
        return NULL; /* not a zero by tol times its size: nor by its error */
    return hdo_run_guard_value_floor(vf, c, mc, g, coef, len, after) ? vf
                                                                     : NULL;
}

/* S'(0)'s own error (hdo_run_guard_slope_floor_at, D-130), or NULL:
   asked only where S(0) is a zero within vf and D-016's rule takes
   S'(0) = c_1 != 0 for one too, within tol times S's size over the
   step. */
static mpfr_srcptr
slope_floor(mpfr_t sf, run_ctx *c, mode_cache *mc, slong g, mpfr_srcptr coef,
            slong len, const mpfr_t hloc, int after, mpfr_srcptr vf)
{
    if (vf == NULL || len < 2 || mpfr_zero_p(coef + 1) ||
        hdo_event_zero_order_at(coef, len, hloc, c->tol, mc->gfloor + g, vf) <
            2)
        return NULL;
    return hdo_run_guard_slope_floor_at(sf, c, mc, g, coef, len, c->t, after)
               ? sf
               : NULL;
}

/* The guard whose floor over [0, b] the event search asks (D-131). */
typedef struct {
    run_ctx *c;
    mode_cache *mc;
    slong g;
} floor_over_ctx;

static int
floor_over(mpfr_t floor, const mpfr_t b, void *ctx)
{
    floor_over_ctx *f = ctx;
    return hdo_run_guard_floor_over(floor, f->c, f->mc, f->g, b);
}

/* One step of the current mode; sets *done at the end time. */
static int
step(run_ctx *c, int *done)
{
    slong m = c->mode;
    mode_cache *mc = hdo_run_mode_entry(c, m);
    slong p, best = -1, ncand = 0;
    mpfr_t h, hmax, hloc, root, broot, stol;
    int last = 0, st;

    if (++c->res->steps > c->max_steps) {
        char why[700] = "";
        if (c->stiff.steps > 0)
            hdo_run_stiff_why(why, sizeof why, c);
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "more than %ld steps (--max-steps)%s", c->max_steps, why);
        return hdo_run_fail(c, HDO_ERR_TOO_MUCH_WORK, m, c->t);
    }
    hdo_run_set_floors(c, mc);
    hdo_run_guard_noise(c, mc, c->t, mc->xs, mc->xu);
    st = hdo_stepper_apply(mc->step, c->t, mc->xs, mc->xu, c->err);
    if (st < 0)
        return hdo_run_fail(c, st, m, c->t);
    p = mc->step->dense.order;
    c->res->order_sum += p;
    mpfr_inits2(c->prec, h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
    st = hdo_stepper_step_size(h, mc->step);
    hdo_stiff_watch_step(&c->stiff, mc->step, m, c->t, h);
    if (st == 0)
        hdo_run_stiff_check(c, m, mc->step, mc->xs, mc->xu, h);
    if (st == 0 && hdo_run_auto_switch(c, mc)) {
        st = hdo_stepper_apply(mc->step, c->t, mc->xs, mc->xu, c->err);
        if (st < 0) {
            st = hdo_run_fail(c, st, m, c->t);
            mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
            return st;
        }
        p = mc->step->dense.order;
        st = hdo_stepper_step_size(h, mc->step);
    }
    if (mc->step->type->flags & HDO_STEP_IMPLICIT)
        c->res->implicit_steps++;
    hdo_run_note_method(c, mc->step->type->name);
    if (st == HDO_ERR_STEP_COLLAPSE) {
        char *hs, why[700] = "";
        mpfr_asprintf(&hs, "%.3Re", h);
        if (c->stiff.steps > 0)
            hdo_run_stiff_why(why, sizeof why, c);
        hdo_error_set(c->err, HDO_ERR_STEP_COLLAPSE, 0, 0,
                      "the step size collapsed to %s (%s)", hs,
                      why[0] ? why + 2 : "a singularity of the solution?");
        mpfr_free_str(hs);
        st = hdo_run_fail(c, HDO_ERR_STEP_COLLAPSE, m, c->t);
        mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
        return st;
    }
    if (hdo_stiff_watch_hopeless(&c->stiff, mpfr_get_d(c->t, MPFR_RNDN),
                                 mpfr_get_d(c->t_end, MPFR_RNDN),
                                 (long)c->res->steps, (long)c->max_steps)) {
        char why[700];
        hdo_run_stiff_why(why, sizeof why, c);
        hdo_error_set(c->err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                      "the run would take more than %ld steps "
                      "(--max-steps)%s",
                      c->max_steps, why);
        st = hdo_run_fail(c, HDO_ERR_TOO_MUCH_WORK, m, c->t);
        mpfr_clears(h, hmax, hloc, root, broot, stol, (mpfr_ptr)0);
        return st;
    }
    /* the events are searched over the natural step hloc; the step taken
       (h) stops at the end time */
    hdo_run_event_horizon(h, c, c->t);
    mpfr_set(hloc, h, MPFR_RNDN);
    mpfr_sub(hmax, c->t_end, c->t, MPFR_RNDN);
    if (mpfr_cmp(h, hmax) >= 0) {
        mpfr_set(h, hmax, MPFR_RNDN);
        last = 1;
    }

    /* the first event among the guards; file order among those within
       the time tolerance of the first */
    int ph = hdo_run_phase_enter(c, PH_EVENTS);
    hdo_run_time_tol(stol, c, c->t);
    hdo_run_guard_floors(c, mc, c->t, mc->xs, mc->xu, &mc->step->dense, hloc);
    int after = mpfr_equal_p(c->t, c->event_at); /* the first step after */
    mpfr_t vf, sf; /* a guard's value's and slope's own errors (D-112,
                      D-130) */
    mpfr_inits2(64, vf, sf, (mpfr_ptr)0);
    mpfr_srcptr vfp;
    slong zorder;
    floor_over_ctx fctx = {c, mc, 0};
    hdo_event_own_errors own = {NULL, NULL, floor_over, &fctx};
    for (slong g = 0; g < mc->nguards; g++) {
        mpfr_srcptr coef = mc->step->dense.guard[g * (p + 1)];
        if (hdo_invariant_skips(mc->inv, g))
            continue; /* a first integral on its feasible side */
        if (m < c->model->nmodes && c->model->modes[m].whens[g].zero) {
            /* a relation identically zero in this pattern stays so while
               its series is within the zero rule's tolerance over the
               step; once it is not (D = t^50 is zero beyond the Taylor
               order where the pattern was entered), the zero variant
               ends here: its crossing is taken at once, and the pattern
               decided anew (transition.c) */
            if (hdo_event_zero_order(coef, p + 1, hloc, c->tol,
                                     mc->gfloor + g) == p + 1)
                continue;
            mpfr_set_zero(root, 1);
        } else if ((vfp = value_floor(vf, c, mc, g, coef, p + 1, hloc, after,
                                      &zorder),
                    fctx.g = g, own.value = vfp,
                    own.slope = slope_floor(sf, c, mc, g, coef, p + 1, hloc,
                                            after, vfp),
                    hdo_event_locate_after_own(
                        root, coef, p + 1, hloc, c->tol, mc->gfloor + g, &own,
                        after ? c->event_dt : NULL, vfp == NULL ? zorder : -1,
                        c->prec) != HDO_EVENT) ||
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
    mpfr_clears(vf, sf, (mpfr_ptr)0);
    if (best >= 0 && last && hdo_run_event_at_end(c, h, broot))
        best = -1;

    /* the magnitudes of the step actually taken, for the rows' digits */
    hdo_run_step_magnitudes(c, best >= 0 ? broot : h);
    if (best < 0)
        hdo_run_phase_enter(c, ph); /* back to integration */
    if (best >= 0)
        hdo_run_event_digits(c, mc->step->dense.guard[best * (p + 1)], p + 1,
                             hloc, broot);
    if (best >= 0 && m >= c->model->nmodes) {
        st = hdo_run_sliding_event(c, best, broot);
    } else if (best >= 0) {
        st = hdo_run_handle_event(c, best, broot, ncand > 1);
    } else {
        /* no event: samples, then advance with projection */
        mpfr_t tnew;
        mpfr_init2(tnew, c->prec);
        if (last)
            mpfr_set(tnew, c->t_end, MPFR_RNDN);
        else
            mpfr_add(tnew, c->t, h, MPFR_RNDN);
        hdo_run_emit_samples(c, tnew, 1);
        /* dense output at h, residual, projection (the stepper's evolve) */
        st = hdo_stepper_evolve(mc->xs, mc->xu, mc->step, h, c->err);
        if (st < 0)
            st = hdo_run_fail(c, st, m, tnew);
        mpfr_set(c->t, tnew, MPFR_RNDN);
        c->ninstant = 0;
        c->spurious = 0;
        mpfr_clear(tnew);
        if (last)
            *done = 1;
    }
    if (best >= 0)
        hdo_run_phase_enter(c, ph);
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
        return hdo_run_fail(c, HDO_ERR_DOMAIN, -1, NULL);
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
        return hdo_run_fail(c, HDO_ERR_INPUT, -1, NULL);
    }
    st = eval_time(c, c->res->t0, model->t0, model->start_pos, "start");
    if (st < 0)
        return st;
    if (c->opt->until != NULL) {
        fmpq_get_mpfr(c->t_end, c->opt->until, MPFR_RNDN);
    } else if (model->t_end == HDO_EXPR_NONE) {
        hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                      "the model has no end time: add `until T` or give "
                      "--until T");
        return hdo_run_fail(c, HDO_ERR_INPUT, -1, NULL);
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
            /* the command line is wrong, not the model; the option is
               a number now (hdo_run_parse_time), shown as the end time */
            hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                          "--until %s: the end time %s is not after the "
                          "model's start time %s",
                          a, a, b);
            mpfr_free_str(a);
            mpfr_free_str(b);
            return hdo_run_option_fail(c);
        }
        hdo_error_set(c->err, HDO_ERR_INPUT, model->until_pos.line,
                      model->until_pos.col,
                      "the end time %s is not after the start time %s", a, b);
        mpfr_free_str(a);
        mpfr_free_str(b);
        return hdo_run_fail(c, HDO_ERR_INPUT, -1, NULL);
    }
    mpfr_set(c->res->t_end, c->t_end, MPFR_RNDN);
    return hdo_run_setup_samples(c);
}

/* The initial point: start values fixed, everything else free. */
static int
run_start(run_ctx *c)
{
    slong m = c->model->start_mode;
    int st = hdo_run_mode_cache_get(c, m, c->res->t0), adjusted = 0;
    if (st < 0)
        return st;
    mode_cache *mc = hdo_run_mode_entry(c, m);
    /* the rule hdo analyze shows (ref/reduce/start.c) */
    st = hdo_start_guess(mc->xs, mc->xu, mc->fixed, c->model, mc->red, c->err);
    if (st < 0)
        return hdo_run_fail(c, st, m, c->res->t0);
    st = hdo_run_enter(c, &m, c->res->t0, &adjusted, 1);
    if (st == 0)
        st = hdo_run_check_when_unique(c, m, c->res->t0);
    if (st < 0)
        return st;
    mc = hdo_run_mode_entry(c, m);
    c->res->start_adjusted = adjusted != 0; /* an impact at t0 too */
    c->mode = m;
    mpfr_set(c->t, c->res->t0, MPFR_RNDN);
    hdo_run_emit_samples_point(c, m, mc->xs, mc->xu, c->t, 1);
    /* the start is treated like the state right after a transition: an
       infeasible start switches at once (the first step sees a root at
       0); last_event = t0 makes such a switch count as instantaneous */
    mpfr_set(c->last_event, c->t, MPFR_RNDN);
    return 0;
}

/* A run works in a symbolic workspace of its own
   (hdo_model_workspace_init: the reduced forms, derivatives,
   substitutions and sliding fields go into its pool copy); results and
   errors point into the shared rest of the model, and stay valid while
   the caller's model lives. */
int
hdo_run_rows(slong *nrows, const hdo_model_struct *model,
             const hdo_run_options *opt, hdo_error_t *err)
{
    run_ctx c;
    hdo_result_t res;
    hdo_model_struct work;
    *nrows = 0;
    if (hdo_run_check_args(NULL, NULL, model, opt, err) != 0)
        return HDO_ERR_INPUT;
    memset(&c, 0, sizeof c);
    hdo_model_workspace_init(&work, model);
    c.model = &work;
    c.opt = opt;
    c.res = res;
    c.err = err;
    c.digits = hdo_run_digits(opt->digits);
    c.prec = hdo_run_prec(c.digits);
    if (err != NULL)
        hdo_error_clear(err);
    hdo_result_init(res);
    hdo_result_setup(res, model, c.digits, c.prec);
    mpfr_init2(c.tol, c.prec);
    hdo_run_tol(c.tol, c.digits);
    mpfr_init2(c.every, c.prec + 32);
    mpfr_inits2(c.prec, c.t, c.t_end, c.last_event, c.event_at, (mpfr_ptr)0);
    mpfr_init2(c.event_dt, 64);
    mpfr_set_zero(c.event_dt, 1);
    mpfr_set_inf(c.event_at, -1);
    int st = run_setup(&c);
    *nrows = st == 0 ? c.nsamples : 0;
    mpfr_clears(c.tol, c.every, c.t, c.t_end, c.last_event, c.event_at,
                c.event_dt, (mpfr_ptr)0);
    hdo_result_clear(res);
    hdo_model_workspace_clear(&work);
    return st < 0 ? st : 0;
}

int
hdo_run(hdo_result_t res, const hdo_model_struct *model,
        const hdo_run_options *opt, hdo_error_t *err)
{
    if (hdo_run_check_args(res, NULL, model, opt, err) != 0)
        return HDO_ERR_INPUT;
    return hdo_run_stoppable(res, model, opt, err, NULL);
}

int
hdo_run_stoppable(hdo_result_t res, const hdo_model_struct *model,
                  const hdo_run_options *opt, hdo_error_t *err,
                  const atomic_int *stop)
{
    run_ctx c;
    int st = 0, done = 0;
    double cpu0;
    hdo_model_struct work;

    memset(&c, 0, sizeof c);
    cpu0 = hdo_clock_thread_cpu();
    c.start = hdo_clock_now();
    hdo_model_workspace_init(&work, model);
    c.model = &work;
    c.opt = opt;
    c.res = res;
    c.err = err;
    c.digits = hdo_run_digits(opt->digits);
    c.prec = hdo_run_prec(c.digits);
    c.max_steps = opt->max_steps > 0 ? opt->max_steps : HDO_RUN_MAX_STEPS;
    c.max_events = opt->max_events > 0 ? opt->max_events : HDO_RUN_MAX_EVENTS;
    hdo_stiff_watch_init(&c.stiff);
    c.phase_since = c.start;
    if (err != NULL)
        hdo_error_clear(err);
    hdo_result_setup(res, model, c.digits, c.prec);
    mpfr_init2(c.tol, c.prec);
    hdo_run_tol(c.tol, c.digits);
    mpfr_init2(c.every, c.prec + 32);
    mpfr_inits2(c.prec, c.t, c.t_end, c.last_event, c.event_at, (mpfr_ptr)0);
    mpfr_init2(c.event_dt, 64);
    mpfr_set_zero(c.event_dt, 1);
    mpfr_set_inf(c.event_at, -1);
    mpfr_set_ui(c.t, 0, MPFR_RNDN);
    /* an entry per mode entered: the model's, the sliding ones */
    hdo_run_mode_table_init(&c.modes);
    c.stepmag = malloc((model->nvars + 1) * sizeof *c.stepmag);
    c.steprate = malloc((model->nvars + 1) * sizeof *c.steprate);
    HDO_ASSERT(c.stepmag != NULL && c.steprate != NULL);
    mpfr_init2(c.stepmag_end, c.prec);
    c.pending_row = -1;

    st = run_setup(&c);
    if (st == 0)
        st = hdo_run_floors_init(&c);
    if (st == 0)
        st = run_start(&c);
    while (st == 0 && !done) {
        if (mpfr_cmp(c.t, c.t_end) >= 0)
            break;
        if (stop != NULL && atomic_load(stop)) {
            /* the other run of hdo_run_verify failed: this result will
               not be used */
            hdo_error_set(err, HDO_ERR_TOO_MUCH_WORK, 0, 0,
                          "stopped: the other run of the verification "
                          "failed");
            st = hdo_run_fail(&c, HDO_ERR_TOO_MUCH_WORK, c.mode, c.t);
            break;
        }
        int ph = hdo_run_phase_enter(&c, PH_INTEGRATION);
        st = step(&c, &done);
        hdo_run_phase_enter(&c, ph);
        if (opt->progress != NULL && st == 0)
            opt->progress(opt->progress_data, mpfr_get_d(c.t, MPFR_RNDN),
                          (long)res->steps, (long)res->nevents,
                          hdo_run_mode_entry(&c, c.mode)->step->type->name);
    }
    if (st == 0) /* a sample at t_end not yet written (event at t_end) */
        hdo_run_emit_samples_point(
            &c, c.mode, hdo_run_mode_entry(&c, c.mode)->xs,
            hdo_run_mode_entry(&c, c.mode)->xu, c.t_end, 1);
    if (st == 0 && c.undefined_row) {
        /* never a NaN presented as a result (a lazy unknown whose solve
           failed in a step that no later step or projection reported) */
        hdo_error_set(err, HDO_ERR_NO_CONVERGENCE, 0, 0,
                      "an output row has an undefined value (an algebraic "
                      "unknown could not be solved at the row's time)");
        st = hdo_run_fail(&c, HDO_ERR_NO_CONVERGENCE, c.mode, c.t);
    }

    hdo_run_hist_clear(&c);
    hdo_run_left_progs_clear(&c);
    hdo_run_floors_clear(&c);
    free(c.stepmag);
    free(c.steprate);
    mpfr_clear(c.stepmag_end);
    hdo_run_mode_table_clear(&c.modes, res);
    hdo_model_workspace_clear(&work);
    mpfr_clears(c.tol, c.every, c.t, c.t_end, c.last_event, c.event_at,
                c.event_dt, (mpfr_ptr)0);
    hdo_run_phase_enter(&c, PH_OTHER);
    res->seconds = hdo_run_elapsed(&c);
    res->cpu_seconds = hdo_clock_thread_cpu() - cpu0;
    return st < 0 ? st : 0;
}
