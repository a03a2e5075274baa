/* sample.c -- the rows of a run: values of a mode, event rows and the
 * sampling grid (--every, --until) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "chatter.h"

/* The values of the model variables of mode m at (xs, xu) into a row
   (values, present). */
void
hdo_run_mode_values(mpfr_ptr values, int *present, const mode_cache *mc,
                    mpfr_srcptr xs, mpfr_srcptr xu)
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

/* The mode index in results of the mode table's key m: the keys of
   today's kinds of modes are their result indices (driver.h). */
slong
hdo_run_res_mode(const run_ctx *c, slong m)
{
    return m;
}

static void compute_magnitudes(run_ctx *c);

/* Why a time floor.  Time is absolute: at prec bits an event time t is
   rounded to about 2^-prec |t|, and a variable moving at rate x' is off
   by x' times that.  On the short arcs of a cascade (the ball's flights
   near its Zeno point, 1e-34 long at t = 2.56) that noise outgrows tol
   times the value: its digits are absolute there, however the step's
   error is controlled (issue 23).  The floor is that noise over tol. */
static double
time_floor(const run_ctx *c, const hdo_row *row, slong v)
{
    double lt = hdo_log2_abs(row->time);
    if (!(c->steprate[v] > -INFINITY) || !(lt > -INFINITY))
        return -INFINITY;
    return c->steprate[v] + lt - (double)c->prec - hdo_log2_abs(c->tol);
}

/* row's magnitudes: the current step's (or, waiting for the next
   step's, none yet) and the nominal values; its floors (the control's,
   and the method's rounding floor) and scales. */
static void
row_magnitudes(run_ctx *c, hdo_row *row, slong index)
{
    double lround = hdo_run_mode_entry(c, c->mode)->step->lround;
    /* the floors of all variables at once: each is the model's floor
       (a maximum over every variable) or the variable's own, and per
       variable it was O(nvars^2) a row (issue 28) */
    double *lf = malloc((c->res->nvars ? c->res->nvars : 1) * sizeof *lf);
    HDO_ASSERT(lf != NULL);
    hdo_run_var_floors_log2(lf, c, row->present);
    for (slong v = 0; v < c->res->nvars; v++) {
        if (!row->present[v])
            continue;
        double nom = hdo_log2_abs(c->nominal + v), m = nom;
        if (c->stepmag_valid && c->stepmag[v] > m)
            m = c->stepmag[v];
        row->mag[v] = m;
        row->floor[v] = lf[v] > lround ? lf[v] : lround;
        if (c->stepmag_valid) {
            double tf = time_floor(c, row, v);
            if (tf > row->floor[v])
                row->floor[v] = tf;
        }
        double sc = hdo_log2_abs(c->vmax + v),
               lv = hdo_log2_abs(row->values + v);
        if (nom > sc)
            sc = nom;
        if (lv > sc)
            sc = lv;
        row->scale[v] = sc;
    }
    free(lf);
    if (!c->stepmag_valid && c->pending_row < 0)
        c->pending_row = index;
}

slong
hdo_run_add_row(run_ctx *c, const mpfr_t t, slong mode, mpfr_srcptr xs,
                mpfr_srcptr xu)
{
    hdo_row *row, tmp;
    if (c->opt->row_sink != NULL) {
        /* one row at a time, not stored: hdo check keeps doubles only */
        slong n = c->res->nvars;
        mpfr_init2(tmp.time, c->res->prec);
        mpfr_set(tmp.time, t, MPFR_RNDN);
        tmp.mode = hdo_run_res_mode(c, mode);
        tmp.values = hdo_vec_init(n, c->res->prec);
        tmp.present = calloc(n ? n : 1, sizeof *tmp.present);
        HDO_ASSERT(tmp.present != NULL);
        tmp.sample = -1;
        tmp.mag = NULL;
        for (slong v = 0; v < n; v++)
            mpfr_set_nan(tmp.values + v);
        hdo_run_mode_values(tmp.values, tmp.present,
                            hdo_run_mode_entry(c, mode), xs, xu);
        for (slong v = 0; v < n; v++)
            if (tmp.present[v] && mpfr_nan_p(tmp.values + v))
                c->undefined_row = 1;
        c->opt->row_sink(c->opt->row_sink_data, &tmp);
        hdo_vec_clear(tmp.values, n);
        free(tmp.present);
        mpfr_clear(tmp.time);
        return -1;
    }
    row = hdo_result_add_row(c->res, t, hdo_run_res_mode(c, mode));
    hdo_run_mode_values(row->values, row->present, hdo_run_mode_entry(c, mode),
                        xs, xu);
    for (slong v = 0; v < c->res->nvars; v++)
        if (row->present[v] && mpfr_nan_p(row->values + v))
            c->undefined_row = 1;
    if (c->stepmag_due)
        compute_magnitudes(c);
    if (c->stepmag != NULL && c->vmax != NULL)
        row_magnitudes(c, row, c->res->nrows - 1);
    return c->res->nrows - 1;
}

void
hdo_run_carry_floors(run_ctx *c, slong from, slong to)
{
    if (from < 0 || to < 0)
        return; /* rows not kept (row_sink) */
    const hdo_row *a = c->res->rows + from;
    hdo_row *b = c->res->rows + to;
    for (slong v = 0; v < c->res->nvars; v++)
        if (a->present[v] && b->present[v] && a->floor[v] > b->floor[v])
            b->floor[v] = a->floor[v];
}

/* Computes the magnitudes of the due step (see driver.h). */
static void
compute_magnitudes(run_ctx *c)
{
    mode_cache *mc = hdo_run_mode_entry(c, c->mode);
    mpfr_srcptr s_end = c->stepmag_end;
    c->stepmag_due = 0;
    slong nv = c->res->nvars;
    if (c->stepmag == NULL)
        return;
    /* the largest |x| at the start and at a quarter, half, three
       quarters and the end of the step taken: a step may span a whole
       arc (the ball's flight is one polynomial step), whose ends are
       both zero */
    mpfr_ptr vals = hdo_vec_init(nv, c->prec), prev = hdo_vec_init(nv, c->prec);
    mpfr_t s, d;
    mpfr_init2(s, c->prec);
    mpfr_init2(d, 64);
    for (slong v = 0; v < nv; v++)
        c->stepmag[v] = c->steprate[v] = -INFINITY;
    for (int q = 0; q <= 4; q++) {
        for (slong v = 0; v < nv; v++) {
            mpfr_swap(prev + v, vals + v);
            mpfr_set_nan(vals + v);
        }
        if (q == 0) {
            hdo_run_mode_values(vals, NULL, mc, mc->xs, mc->xu);
        } else {
            mpfr_mul_ui(s, s_end, (unsigned long)q, MPFR_RNDN);
            mpfr_div_ui(s, s, 4, MPFR_RNDN);
            /* the end, s_end itself: kept for the event there */
            int keep = q == 4 && mpfr_equal_p(s, s_end);
            mpfr_ptr ys = keep ? mc->es : mc->ts, yu = keep ? mc->eu : mc->tu;
            hdo_stepper_eval(ys, yu, NULL, mc->step, s);
            mc->es_valid = keep;
            hdo_run_mode_values(vals, NULL, mc, ys, yu);
        }
        for (slong v = 0; v < nv; v++) {
            if (hdo_log2_abs(vals + v) > c->stepmag[v])
                c->stepmag[v] = hdo_log2_abs(vals + v);
            if (q == 0 || !mpfr_number_p(vals + v) || !mpfr_number_p(prev + v))
                continue;
            /* the rate over the quarter: |difference| / (s_end / 4) */
            mpfr_sub(d, vals + v, prev + v, MPFR_RNDN);
            double r = hdo_log2_abs(d) + 2 - hdo_log2_abs(s_end);
            if (r > c->steprate[v])
                c->steprate[v] = r;
        }
    }
    mpfr_clears(s, d, (mpfr_ptr)0);
    hdo_vec_clear(vals, nv);
    hdo_vec_clear(prev, nv);
    /* rows since the last transition (its right state, samples at a
       point) belong to this arc */
    if (c->pending_row >= 0 && c->opt->row_sink == NULL)
        for (slong i = c->pending_row; i < c->res->nrows; i++) {
            hdo_row *r = c->res->rows + i;
            for (slong v = 0; v < nv; v++) {
                if (r->present[v] && c->stepmag[v] > r->mag[v])
                    r->mag[v] = c->stepmag[v];
                if (r->present[v] && r->floor != NULL &&
                    time_floor(c, r, v) > r->floor[v])
                    r->floor[v] = time_floor(c, r, v);
            }
        }
    c->pending_row = -1;
    c->stepmag_valid = 1;
}

void
hdo_run_step_magnitudes(run_ctx *c, const mpfr_t s_end)
{
    if (c->stepmag == NULL)
        return;
    mpfr_set(c->stepmag_end, s_end, MPFR_RNDN);
    hdo_run_mode_entry(c, c->mode)->es_valid = 0; /* a new step */
    c->stepmag_due = 1;
    c->stepmag_valid = 0;
    if (c->pending_row >= 0)
        compute_magnitudes(c);
}

void
hdo_run_state_at_end(run_ctx *c, mode_cache *mc, const mpfr_t s)
{
    if (mc->es_valid && mc == hdo_run_mode_entry(c, c->mode) &&
        mpfr_equal_p(s, c->stepmag_end)) {
        hdo_vec_set(mc->ls, mc->es, mc->red->nstate);
        hdo_vec_set(mc->lu, mc->eu, mc->red->nimplicit);
    } else {
        hdo_stepper_eval(mc->ls, mc->lu, NULL, mc->step, s);
    }
}

void
hdo_run_stepmag_end(run_ctx *c)
{
    c->stepmag_valid = 0;
    c->stepmag_due = 0;
}

/* ------------------------------------------------------------------ */
/* Sampling */

/* The k-th sample time.  A given time within the rounding of t0 or
   t_end to a double (hdo_run_setup_samples refuses the others outside
   [t0, t_end]) is taken as t0 or t_end, so that a caller who has these
   times as doubles gets their rows: before, a time just past t_end gave
   no row, and one before t0 a row at its own time. */
void
hdo_run_sample_time(mpfr_t out, const run_ctx *c, slong k)
{
    if (c->opt->sample_times != NULL) {
        mpfr_set_d(out, c->opt->sample_times[k], MPFR_RNDN);
        if (mpfr_cmp(out, c->res->t0) < 0)
            mpfr_set(out, c->res->t0, MPFR_RNDN);
        else if (mpfr_cmp(out, c->t_end) > 0)
            mpfr_set(out, c->t_end, MPFR_RNDN);
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

/* The row of sample c->next_sample at tk from the current expansion (s:
   scratch): offered to opt->dense_row first (hdo check), else evaluated
   at the working precision. */
static void
sample_row(run_ctx *c, mode_cache *mc, const mpfr_t tk, mpfr_t s)
{
    mpfr_sub(s, tk, c->t, MPFR_RNDN);
    if (c->opt->row_sink != NULL && c->opt->dense_row != NULL) {
        hdo_dense_sample smp = {tk,
                                s,
                                c->mode,
                                mc->red,
                                &mc->step->dense,
                                mc->step,
                                mc->step->serial,
                                c->prec};
        if (c->opt->dense_row(c->opt->row_sink_data, &smp))
            return;
    }
    hdo_stepper_eval(mc->ts, mc->tu, NULL, mc->step, s);
    slong i = hdo_run_add_row(c, tk, c->mode, mc->ts, mc->tu);
    if (i >= 0)
        c->res->rows[i].sample = c->next_sample;
}

/* Emits the samples of the current expansion (at c->t, mode c->mode) with
   times below limit (or up to it when inclusive). */
void
hdo_run_emit_samples(run_ctx *c, const mpfr_t limit, int inclusive)
{
    mode_cache *mc = hdo_run_mode_entry(c, c->mode);
    mpfr_t tk, s;
    mpfr_inits2(c->prec, tk, s, (mpfr_ptr)0);
    while (c->next_sample < c->nsamples) {
        hdo_run_sample_time(tk, c, c->next_sample);
        int cmp = mpfr_cmp(tk, limit);
        if (cmp > 0 || (cmp == 0 && !inclusive))
            break;
        if (mpfr_cmp(tk, c->t) >= 0)
            sample_row(c, mc, tk, s);
        c->next_sample++;
    }
    mpfr_clears(tk, s, (mpfr_ptr)0);
}

/* Emits samples below limit from a point state (no expansion). */
void
hdo_run_emit_samples_point(run_ctx *c, slong mode, mpfr_srcptr xs,
                           mpfr_srcptr xu, const mpfr_t limit, int inclusive)
{
    mpfr_t tk;
    mpfr_init2(tk, c->prec);
    while (c->next_sample < c->nsamples) {
        hdo_run_sample_time(tk, c, c->next_sample);
        int cmp = mpfr_cmp(tk, limit);
        if (cmp > 0 || (cmp == 0 && !inclusive))
            break;
        slong i = hdo_run_add_row(c, tk, mode, xs, xu);
        if (i >= 0)
            c->res->rows[i].sample = c->next_sample;
        c->next_sample++;
    }
    mpfr_clear(tk);
}

/* Sets up the sampling grid: t0 + k * every, k = 0, 1, ..., with t_end as
   the last sample (replacing a grid point within every * 1e-9 of it). */
int
hdo_run_setup_samples(run_ctx *c)
{
    c->event_clock = HDO_EXPR_NONE;
    c->clock_sign_of = HDO_EXPR_NONE;
    c->clock_sign_k = -1;
    if (c->opt->sample_times != NULL) {
        /* finite and increasing: hdo_run_check_args; here the span,
           which is known only now (the times may be doubles of t0 and
           t_end, rounded either way: the doubles around them pass) */
        slong n = c->opt->nsample_times;
        double lo = mpfr_get_d(c->res->t0, MPFR_RNDD);
        double hi = mpfr_get_d(c->t_end, MPFR_RNDU);
        if (n > 0 && (c->opt->sample_times[0] < lo ||
                      c->opt->sample_times[n - 1] > hi)) {
            int before = c->opt->sample_times[0] < lo;
            slong k = before ? 0 : n - 1;
            hdo_error_set(
                c->err, HDO_ERR_INPUT, 0, 0,
                "sample_times[%ld] = %.17g is %s the run's %s "
                "time %.17g: the sample times must lie in the "
                "run's span",
                (long)k, c->opt->sample_times[k], before ? "before" : "after",
                before ? "start" : "end",
                mpfr_get_d(before ? c->res->t0 : c->t_end, MPFR_RNDN));
            return hdo_run_option_fail(c);
        }
        c->nsamples = n;
        return 0;
    }
    if (c->opt->every != NULL) {
        if (fmpq_sgn(c->opt->every) <= 0) {
            hdo_error_set(c->err, HDO_ERR_INPUT, 0, 0,
                          "--every: the sampling step must be positive");
            return hdo_run_option_fail(c);
        }
        fmpq_get_mpfr(c->every, c->opt->every, MPFR_RNDN);
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
        return hdo_run_option_fail(c);
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
/* Samples at an event of a clock */

/* The exact time of sample k, which hdo_run_sample_time rounds: a
   constant expression of the run's pool (t0 + k every, t_end for the
   last, or the double given). */
static hdo_expr
sample_time_expr(run_ctx *c, slong k)
{
    hdo_expr_pool_struct *pool = c->model->pool;
    hdo_expr t0 = c->model->t0;
    hdo_expr te = c->opt->until != NULL
                      ? hdo_expr_const_fmpq(pool, c->opt->until)
                      : c->model->t_end;
    if (c->opt->sample_times != NULL) {
        mpfr_t d;
        mpfr_init2(d, 64);
        mpfr_set_d(d, c->opt->sample_times[k], MPFR_RNDN); /* exact */
        hdo_expr e;
        if (mpfr_cmp(d, c->res->t0) < 0) {
            e = t0;
        } else if (mpfr_cmp(d, c->t_end) > 0) {
            e = te;
        } else {
            mpz_t m;
            fmpq_t q;
            mpz_init(m);
            fmpq_init(q);
            mpfr_exp_t x = mpfr_get_z_2exp(m, d);
            fmpz_set_mpz(fmpq_numref(q), m);
            if (x >= 0)
                fmpq_mul_2exp(q, q, (ulong)x);
            else
                fmpq_div_2exp(q, q, (ulong)-x);
            e = hdo_expr_const_fmpq(pool, q);
            fmpq_clear(q);
            mpz_clear(m);
        }
        mpfr_clear(d);
        return e;
    }
    if (k == c->nsamples - 1)
        return te;
    hdo_expr every = c->opt->every != NULL
                         ? hdo_expr_const_fmpq(pool, c->opt->every)
                         : hdo_expr_div(pool, hdo_expr_sub(pool, te, t0),
                                        hdo_expr_const_si(pool, 1000, 1));
    return hdo_expr_add(
        pool, t0, hdo_expr_mul(pool, hdo_expr_const_si(pool, k, 1), every));
}

/* Where sample k (rounded time tk) lies against the event being taken,
   located at tstar: -1 before it, 0 at its time, 1 after.  The two
   rounded times order them, except for a clock's event within the time
   tolerance of the sample: there the two rounded times may order an
   exact coincidence (a PWM edge k T/2 on the grid) either way, and the
   switching function's sign at the sample's exact time decides, exactly
   (hdo_expr_const_sign: Arb, then Calcium for a zero): positive before
   the event, zero at it, negative after.  Not decided: the rounded
   times. */
int
hdo_run_sample_side(run_ctx *c, slong k, const mpfr_t tk, const mpfr_t tstar)
{
    int cmp = mpfr_cmp(tk, tstar);
    int side = cmp < 0 ? -1 : cmp > 0;
    if (c->event_clock == HDO_EXPR_NONE)
        return side;
    mpfr_t d, ttol;
    mpfr_inits2(64, d, ttol, (mpfr_ptr)0);
    mpfr_sub(d, tk, tstar, MPFR_RNDA);
    hdo_run_time_tol(ttol, c, tstar);
    int near = mpfr_cmpabs(d, ttol) <= 0;
    mpfr_clears(d, ttol, (mpfr_ptr)0);
    if (!near)
        return side;
    if (c->clock_sign_of != c->event_clock || c->clock_sign_k != k) {
        /* an exact zero costs Calcium a million instructions or more: it
           is decided once per clock and sample (issue 28) */
        hdo_expr_pool_struct *pool = c->model->pool;
        hdo_expr T = hdo_expr_time(pool), at = sample_time_expr(c, k);
        hdo_expr e = hdo_expr_substitute_many(pool, c->event_clock, &T, &at, 1);
        c->clock_sign_status = hdo_expr_const_sign(&c->clock_sign, pool, e);
        c->clock_sign_of = c->event_clock;
        c->clock_sign_k = k;
    }
    if (c->clock_sign_status != 0)
        return side;
    return -c->clock_sign;
}

void
hdo_run_event_samples_begin(run_ctx *c, slong m, slong g, const mpfr_t tstar)
{
    hdo_expr_pool_struct *pool = c->model->pool;
    hdo_expr S = c->model->modes[m].whens[g].guard;
    const hdo_chatter_policy *pol = hdo_run_chatter_policy(c->model);
    if (pol->guard != NULL)
        S = pol->guard(c->model, S);
    c->event_clock = hdo_expr_has_time(pool, S) ? S : HDO_EXPR_NONE;
    for (slong v = 0; v < c->model->nvars && c->event_clock != HDO_EXPR_NONE;
         v++)
        if (hdo_expr_max_order(pool, S, v) >= 0)
            c->event_clock = HDO_EXPR_NONE;
    /* the samples before the event, from the current expansion (one
       decided before it although its rounded time is not: a rounding
       beyond the root) */
    mode_cache *mc = hdo_run_mode_entry(c, c->mode);
    mpfr_t tk, s;
    mpfr_inits2(c->prec, tk, s, (mpfr_ptr)0);
    while (c->next_sample < c->nsamples) {
        hdo_run_sample_time(tk, c, c->next_sample);
        if (hdo_run_sample_side(c, c->next_sample, tk, tstar) >= 0)
            break;
        if (mpfr_cmp(tk, c->t) >= 0)
            sample_row(c, mc, tk, s);
        c->next_sample++;
    }
    mpfr_clears(tk, s, (mpfr_ptr)0);
}

void
hdo_run_event_samples_end(run_ctx *c)
{
    c->event_clock = HDO_EXPR_NONE;
}
