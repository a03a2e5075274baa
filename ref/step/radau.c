/* radau.c -- hdo_step_radau: Radau IIA collocation with s stages growing with
 * the digits, for ODE and index-1 DAE modes, behind the stepper interface */
#include <stdlib.h>
#include "radau_stepper.h"

/* Rejections in a row before the step is declared collapsed. */
#define MAX_REJECT 60

static int
domain_fail(hdo_error_t *err, radau *r, hdo_expr bad, const mpfr_t t)
{
    /* hdo_program_eval cleared the flag before evaluating (expr.h): an
       overflow is named as such, not as a domain error */
    int over = mpfr_overflow_p();
    char *s = hdo_expr_to_string(r->model->pool, bad, r->model->var_names);
    hdo_error_set(
        err, HDO_ERR_DOMAIN, 0, 0, "%s evaluating %.500s",
        over ? "overflow (beyond MPFR's exponent range)" : "domain error", s);
    free(s);
    if (err != NULL) {
        err->mode = r->model->modes[r->red->mode].name;
        err->file = r->model->file;
        err->has_time = 1;
        err->time = mpfr_get_d(t, MPFR_RNDN);
    }
    return HDO_ERR_DOMAIN;
}

static int
radau_apply(hdo_stepper_struct *st, const mpfr_t t0, mpfr_srcptr xs,
            mpfr_srcptr xu, hdo_error_t *err)
{
    radau *r = st->impl;
    slong n = r->n, N = r->N, s = r->s;
    mpfr_t e, fac, erej, hrej, hfirst, htry;
    hdo_expr bad;
    int status = 0;

    /* The driver re-applies at the point of the last apply to get its
       dense output back (after a test at another point): the same step
       and polynomial, not a new step from the proposal. */
    if (r->applied && mpfr_equal_p(r->t0, t0)) {
        int same = 1;
        for (slong i = 0; i < n && same; i++)
            same = mpfr_equal_p(r->y0 + i, xs + i);
        if (same)
            return 0;
    }
    /* the point before it (radau_guard.c, hdo_radau_memo) */
    if (r->have_memo && r->memo.valid && mpfr_equal_p(r->memo.t0, t0)) {
        int same = 1;
        for (slong i = 0; i < n && same; i++)
            same = mpfr_equal_p(r->memo.y0 + i, xs + i);
        if (same) {
            hdo_radau_memo_swap(&r->memo, r->t0, r->h, r->hnext, r->y0,
                                r->state_coef, N * (s + 1), r->guard_coef);
            r->memo.valid = r->applied;
            r->applied = 1;
            /* the rounding floor of this point, not the last one's (the
               guards' floors read it, D-139) */
            st->lround = hdo_radau_round_floor_log2(r->y0, N, s);
            return 0;
        }
    }
    if (r->have_memo && r->applied) {
        hdo_radau_memo_swap(&r->memo, r->t0, r->h, r->hnext, r->y0,
                            r->state_coef, N * (s + 1), r->guard_coef);
        mpfr_set(r->hnext, r->memo.hnext, MPFR_RNDN);
        r->memo.valid = 1;
    }
    r->applied = 0;
    mpfr_set(r->t0, t0, MPFR_RNDN);
    for (slong i = 0; i < n; i++)
        mpfr_set(r->y0 + i, xs + i, MPFR_RNDN);
    if (r->m > 0) {
        /* z0 from g(t0, y0, z) = 0 by Newton from the guess xu (the
           driver's points are consistent already: one iteration), at
           the run's precision as every consistent point */
        mpfr_ptr ys = hdo_vec_init(n, r->prec),
                 zs = hdo_vec_init(r->m, r->prec);
        for (slong i = 0; i < n; i++)
            mpfr_set(ys + i, xs + i, MPFR_RNDN);
        for (slong k = 0; k < r->m; k++)
            mpfr_set(zs + k, xu + k, MPFR_RNDN);
        status = hdo_consistent_init(ys, zs, NULL, r->model, r->red, t0,
                                     r->fixed, r->prec, err);
        for (slong k = 0; k < r->m; k++)
            mpfr_set(r->y0 + n + k, zs + k, MPFR_RNDN);
        hdo_vec_clear(ys, n);
        hdo_vec_clear(zs, r->m);
        if (status != 0)
            return status;
        hdo_radau_refine_unknowns(r);
    }
    mpfr_inits2(64, e, fac, erej, hrej, (mpfr_ptr)0);
    mpfr_inits2(r->wprec, hfirst, htry, (mpfr_ptr)0);
    mpfr_set_zero(erej, 1); /* no rejected estimate yet */
    st->lround = hdo_radau_round_floor_log2(r->y0, N, s);
    if (hdo_radau_stale_step(r, t0))
        mpfr_set_zero(r->hnext, 1);
    if (mpfr_zero_p(r->hnext)) {
        /* first step: tol^(1/(s+1)) times the state's time scale
           (radau_scale.c), a guess the error control corrects */
        hdo_radau_set_inputs(r, r->f, r->fin, t0, r->y0);
        if (hdo_program_eval(r->f, &bad) != 0) {
            status = domain_fail(err, r, bad, t0);
            goto out;
        }
        hdo_radau_time_scale(fac, r->y0, r->f->value, r->f->root_slot, r->nnz,
                             r->jrow, r->jcol, r->floor, r->sc, n, N, s);
        mpfr_rootn_ui(e, r->tol, s + 1, MPFR_RNDN);
        mpfr_mul(r->hnext, fac, e, MPFR_RNDN);
        hdo_radau_probe_reset(&r->probe);
    }
    mpfr_set(r->h, r->hnext, MPFR_RNDN);
    /* at most the run's span (D-126) */
    hdo_radau_span_cap(r->h, st->lspan);
    if (r->have_gd) {
        /* At most one time unit max(u, |t0|), u = min(1, span) the
           driver's (st->unit; 1 if unknown): the horizon it gives a
           Taylor step whose series is a polynomial
           (hdo_run_event_horizon, D-112), to the bit (D-122).  The zero
           rule judges a guard's coefficients by their size over the
           step, and a step that grew without bound on an exactly
           represented solution (four times a step) would call a
           guard's value at an arc's start zero and its crossing
           immediate (filippov_spiral near its Zeno point: steps of
           3e7).  With the 1 over a span below 1 the same happened at
           scale: the ball scaled to 3e-20 took steps of 1 s and
           chattered (D-119). */
        hdo_time_horizon(fac, st->unit, t0);
        if (mpfr_cmp(r->h, fac) > 0)
            mpfr_set(r->h, fac, MPFR_RNDN);
    }
    mpfr_set(hfirst, r->h, MPFR_RNDN);
    for (int tries = 0;; tries++) {
        /* the rejections in a row shrink h ever faster
           (hdo_radau_reject_streak), to MPFR's underflow at worst.  A
           step below t's resolution is not a collapse by itself: after
           an event a state at rest can ask for one (latezero of
           tests/e2e/run_identically_zero.sh at 30 digits: 4.0e-72 at
           t = 1, rejected, 1.9e-72 taken, 77 steps in all); it is the
           MAX_REJECT tries that say the step cannot be taken */
        if (tries >= MAX_REJECT || !mpfr_regular_p(r->h)) {
            hdo_error_set(err, HDO_ERR_STEP_COLLAPSE, 0, 0,
                          "the implicit method's step collapsed to %.3g",
                          mpfr_get_d(r->h, MPFR_RNDN));
            status = HDO_ERR_STEP_COLLAPSE;
            break;
        }
        mpfr_set(htry, r->h, MPFR_RNDN);
        int ns = hdo_radau_solve_stages(r, hdo_radau_predict(r));
        if (ns == 0) {
            /* the dense output of the states and unknowns */
            hdo_radau_interpolate(r);
            /* each component against its size at the step's start and
               end (the last stage, c_s = 1) */
            hdo_radau_scales(r->sc, r->y0, r->Z + (s - 1) * N, r->floor, N, s);
            int dfx = hdo_radau_defect_bound(r) == 0;
            hdo_radau_top_term(e, r->Z, r->L, r->sc, dfx ? r->dd : NULL, n, N,
                               s, r->wprec);
            if (r->have_gd) {
                /* the guards' polynomials are held to the tolerance as
                   the states' (a guard may vary faster than the states:
                   sin(2 pi t/T) of a PWM) */
                hdo_radau_start_term(e, r->Z, r->w0, r->sc, N, s, r->wprec);
                bad = HDO_EXPR_NONE;
                if (hdo_radau_guard_values(&r->gd, r->t0, r->h, r->y0, r->Z,
                                           r->c, &bad) != 0) {
                    mpfr_div_2ui(r->h, r->h, 2, MPFR_RNDN);
                    hdo_radau_reject_streak(r->h, htry, hfirst, tries + 1);
                    continue; /* undefined at a stage: a shorter step */
                }
                hdo_radau_guard_error(e, &r->gd, r->L, r->w0, r->tol);
            }
            if (mpfr_cmp(e, r->tol) <= 0) {
                /* accepted; next proposal from the same rule */
                hdo_radau_accept_factor(fac, r->tol, e, (long)s);
                /* a small growth keeps h, and with it the factored
                   Newton matrix; a probe whose estimate did not grow
                   with h, or grew far below the tolerance, doubles
                   again (hdo_radau_probe_again), and a long run of kept
                   steps tries twice h (hdo_radau_probe_due) */
                hdo_radau_probe_accept(
                    &r->probe, fac, r->h, e, r->tol,
                    hdo_radau_block_stiffness(&r->blk,
                                              r->Jst + (s - 1) * r->nnz, r->h),
                    (long)s);
                mpfr_mul(r->hnext, r->h, fac, MPFR_RNDN);
                for (slong i = 0; i < N; i++)
                    mpfr_set(r->prev_y0 + i, r->y0 + i, MPFR_RNDN);
                for (slong k = 0; k < s * N; k++)
                    mpfr_set(r->PF + N + k, r->B + k, MPFR_RNDN);
                mpfr_set(r->tprev, r->t0, MPFR_RNDN);
                mpfr_set(r->hprev, r->h, MPFR_RNDN);
                r->have_prev = 1;
                break;
            }
            /* an estimate that did not fall with the last shrink
               shrinks h by the most (hdo_radau_reject_note) */
            int stalled = hdo_radau_reject_note(erej, hrej, e, r->h);
            hdo_radau_probe_rejected(&r->probe, e, r->h);
            if (hdo_radau_probe_back(&r->probe, r->h))
                continue;
            hdo_radau_reject_factor(fac, r->tol, e, (long)s, stalled);
            mpfr_mul(r->h, r->h, fac, MPFR_RNDN);
            hdo_radau_reject_streak(r->h, htry, hfirst, tries + 1);
        } else if (hdo_radau_probe_back(&r->probe, r->h)) {
            /* the probe failed: back to the step it doubled */
        } else if (ns == 2) {
            /* the predictor led Newton astray: again from zero, once */
            r->have_prev = 0;
        } else {
            mpfr_div_2ui(r->h, r->h, 2, MPFR_RNDN);
            hdo_radau_reject_streak(r->h, htry, hfirst, tries + 1);
        }
    }
    if (status == 0 && r->have_gd) {
        status =
            hdo_radau_guard_dense(r->guard_coef, &r->gd, r->t0, r->h, r->y0,
                                  r->c, r->W, r->wperm, r->tol, err);
    }
out:
    r->applied = status == 0;
    mpfr_clears(e, fac, erej, hrej, hfirst, htry, (mpfr_ptr)0);
    return status;
}

static int
radau_step_size(mpfr_t h, const hdo_stepper_struct *st)
{
    const radau *r = st->impl;
    /* the step was chosen by apply for r->tol */
    mpfr_set(h, r->h, MPFR_RNDN);
    return 0;
}

static void
radau_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_stepper_struct *st,
           const mpfr_t h)
{
    const radau *r = st->impl;
    if (xs != NULL)
        for (slong i = 0; i < r->n; i++)
            hdo_radau_horner(xs + i, r->state_coef + i * (r->s + 1), r->s, h,
                             r->wprec);
    if (xu != NULL)
        for (slong k = 0; k < r->m; k++)
            hdo_radau_horner(xu + k, r->state_coef + (r->n + k) * (r->s + 1),
                             r->s, h, r->wprec);
    if (g != NULL)
        for (slong q = 0; q < r->ng; q++)
            hdo_radau_horner(g + q, r->guard_coef + q * (r->s + 1), r->s, h,
                             r->wprec);
}

static int
radau_evolve(mpfr_ptr xs, mpfr_ptr xu, hdo_stepper_struct *st, const mpfr_t h,
             hdo_error_t *err)
{
    radau *r = st->impl;
    radau_eval(xs, xu, NULL, st, h);
    if (r->m == 0)
        return 0; /* an ODE mode: no constraints to project onto */
    /* The states stay (index 1: no constraint on them); the unknowns are
       solved from g = 0 at the new point.  At the step's end the last
       stage satisfies g = 0 already (Radau IIA is stiffly accurate);
       inside the step the collocation polynomial of z is off g = 0 by
       about the tolerance, which the residual before the solve records
       (as the Taylor method's drift). */
    mpfr_t t1, res;
    mpfr_inits2(r->prec, t1, res, (mpfr_ptr)0);
    mpfr_add(t1, r->t0, h, MPFR_RNDN);
    hdo_reduced_residual(res, r->model, r->red, t1, xs, xu);
    if (mpfr_nan_p(res) || mpfr_cmp(res, r->max_res) > 0)
        mpfr_set(r->max_res, res, MPFR_RNDU);
    int stat = hdo_consistent_init(xs, xu, NULL, r->model, r->red, t1, r->fixed,
                                   r->prec, err);
    mpfr_clears(t1, res, (mpfr_ptr)0);
    return stat;
}

static double
radau_stiffness(const hdo_stepper_struct *st)
{
    (void)st;
    return 0.0; /* L-stable: no step is limited by stability */
}

static void
radau_max_residual(mpfr_t r, const hdo_stepper_struct *st)
{
    const radau *ra = st->impl;
    if (ra->m > 0 && mpfr_cmp(ra->max_res, r) > 0)
        mpfr_set(r, ra->max_res, MPFR_RNDU);
}

const hdo_step_type hdo_step_radau = {.name = "implicit",
                                      .flags = HDO_STEP_IMPLICIT |
                                               HDO_STEP_INDEX1_ONLY,
                                      .alloc = hdo_radau_stepper_alloc,
                                      .apply = radau_apply,
                                      .step_size = radau_step_size,
                                      .eval = radau_eval,
                                      .evolve = radau_evolve,
                                      .stiffness = radau_stiffness,
                                      .max_residual = radau_max_residual,
                                      .free = hdo_radau_stepper_free};
