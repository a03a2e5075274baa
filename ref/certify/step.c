/* step.c -- one validated Taylor step: the series from the centre, the
   derivatives of the coefficients over the set, the a priori enclosure
   and the Lagrange remainder on it, and the step's dense output in balls */
#include <math.h>
#include <stdio.h>
#include "internal.h"

/* Why three expansions.  The value at the centre c must carry the digits
   asked for: it is the only expansion at the working precision.  The
   derivatives of the coefficients with respect to the start state (the
   Lohner part) multiply x0 - c, which is as small as the set, and the
   remainder coefficient multiplies h^(p+1), about the tolerance: a few
   correct digits of each suffice, so both are computed at the low
   precision, where Arb is several times cheaper.  The remainder is
   evaluated over the a priori box B of the whole step, which a wide box
   overestimates (the dependency effect grows with the order), but a
   factor F on the remainder costs only F^(1/(p+1)) in step size. */

/* The relative inflation of the a priori box, and how often it is
   enlarged (by 2^8 each time) before the step is halved. */
#define INFLATE_BITS 20
#define INFLATE_TRIES 3
#define MAX_TRIES 40

static slong
comp_slot(const cert_step_struct *st, slong i)
{
    const cert_sys_struct *sys = st->sys;
    if (i < st->ns)
        return sys->sx[i];
    if (i < st->ns + st->nu)
        return sys->su[i - st->ns];
    return sys->sg[i - st->ns - st->nu];
}

void
cert_step_init(cert_step_t st, const cert_sys_t sys, slong p, slong prec,
               slong lprec, int mutate)
{
    st->sys = sys;
    st->ns = sys->ns;
    st->nu = sys->nu;
    st->ng = sys->ng;
    st->ncomp = sys->ns + sys->nu + sys->ng;
    st->p = p;
    st->prec = prec;
    st->lprec = lprec;
    st->mutate = mutate;
    cert_series_init(st->main, sys->prog, sys->model->pool, p, 0, prec);
    cert_series_init(st->jet, sys->prog, sys->model->pool, p, sys->ns, lprec);
    cert_series_init(st->rem, sys->prog, sys->model->pool, p + 1, 0, lprec);
    arb_init(st->t0);
    arf_init(st->h);
    st->R = _arb_vec_init(st->ncomp + 1);
    st->B = _arb_vec_init(st->ns + 1);
    st->UB = _arb_vec_init(st->nu + 1);
    st->u0 = _arb_vec_init(st->nu + 1);
    st->X = NULL;
    st->tries = 0;
    st->lhfac = 0;
    st->why[0] = '\0';
}

void
cert_step_clear(cert_step_t st)
{
    cert_series_clear(st->main);
    cert_series_clear(st->jet);
    cert_series_clear(st->rem);
    arb_clear(st->t0);
    arf_clear(st->h);
    _arb_vec_clear(st->R, st->ncomp + 1);
    _arb_vec_clear(st->B, st->ns + 1);
    _arb_vec_clear(st->UB, st->nu + 1);
    _arb_vec_clear(st->u0, st->nu + 1);
}

/* [0, x] as a ball. */
static void
zero_to(arb_t r, const arb_t x, slong prec)
{
    arb_mul_2exp_si(r, x, -1);
    arb_add_error(r, r);
    (void)prec;
}

/* Horner's rule for sum_k c[k * stride] s^k, k = 0..n-1 (deriv: the
   derivative). */
static void
horner(arb_t out, arb_srcptr c, slong n, const arb_t s, int deriv, slong prec)
{
    arb_t acc;
    arb_init(acc);
    for (slong k = n - 1; k >= (deriv ? 1 : 0); k--) {
        arb_mul(acc, acc, s, prec);
        if (deriv)
            arb_addmul_si(acc, c + k, k, prec);
        else
            arb_add(acc, acc, c + k, prec);
    }
    arb_swap(out, acc);
    arb_clear(acc);
}

/* Jorba and Zou's step: rho_i = min_j (scale_i / |a_ij|)^(1/j) over the
   last quarter of the orders estimates the radius of convergence of
   component i (states and unknowns), and h = tol^(1/p) min_i rho_i puts
   the last term near tol scale_i (as ref/taylor/control.c); log2 of it,
   or lhmax when those coefficients all vanish. */
static double
step_log2(const cert_step_struct *st, const mag_struct *scale, double ltol,
          double lhmax)
{
    slong p = st->p;
    double best = lhmax;
    for (slong i = 0; i < st->ns + st->nu; i++) {
        arb_srcptr c = cert_series_coef((cert_series_struct *)st->main,
                                        comp_slot(st, i), 0, 0);
        double ls = mag_get_d_log2_approx(scale + i);
        for (slong j = (3 * p + 3) / 4; j <= p; j++) {
            if (arb_is_zero(c + j))
                continue;
            mag_t m;
            mag_init(m);
            arb_get_mag(m, c + j);
            double lh =
                ltol / (double)p + (ls - mag_get_d_log2_approx(m)) / (double)j;
            mag_clear(m);
            if (lh < best)
                best = lh;
        }
    }
    return best;
}

int
cert_step_take(cert_step_t st, const cert_set_t X, const arb_t t0,
               const arf_t hmax, const mag_struct *scale, double ltol,
               arb_srcptr uguess, hdo_expr *bad)
{
    const cert_sys_struct *sys = st->sys;
    slong ns = st->ns, nu = st->nu, p = st->p, lp = st->lprec;
    int status = 0;
    arb_ptr hull = _arb_vec_init(ns + 1), x0 = _arb_vec_init(ns * (ns + 1) + 1);
    arb_ptr uX = _arb_vec_init(nu + 1), B0 = _arb_vec_init(ns + nu + 1);
    arb_ptr lhs = _arb_vec_init(ns + 1);
    arb_t T, s, sp, tmp;
    arf_t h;
    arb_init(T);
    arb_init(s);
    arb_init(sp);
    arb_init(tmp);
    arf_init(h);
    st->X = X;
    st->tries = 0;
    arb_set(st->t0, t0);

    /* the centre: unknowns by Krawczyk, then the expansion */
    if (nu > 0 && (status = cert_unknowns(st->u0, sys, X->c, t0, uguess,
                                          st->prec)) != 0) {
        snprintf(st->why, sizeof st->why,
                 "the algebraic unknowns are not enclosed at the step's start "
                 "(Krawczyk)");
        goto done;
    }
    if ((status = cert_sys_expand(st->main, sys, X->c, st->u0, t0, bad)) != 0)
        goto done;
    /* the derivatives over the set */
    cert_set_hull(hull, X, lp);
    if (nu > 0 &&
        (status = cert_unknowns(uX, sys, hull, t0, st->u0, lp)) != 0) {
        snprintf(st->why, sizeof st->why,
                 "the algebraic unknowns are not enclosed over the set of "
                 "states (Krawczyk)");
        goto done;
    }
    for (slong i = 0; i < ns; i++) {
        arb_set(x0 + i * (ns + 1), hull + i);
        for (slong d = 0; d < ns; d++)
            arb_set_si(x0 + i * (ns + 1) + 1 + d, i == d);
    }
    if ((status = cert_sys_expand(st->jet, sys, x0, uX, t0, bad)) != 0)
        goto done;

    /* the proposal, times what the certified remainder allowed last time */
    double lhmax = log2(arf_get_d(hmax, ARF_RND_DOWN));
    double lh = step_log2(st, scale, ltol, lhmax) + st->lhfac;
    arf_set(h, hmax);
    if (lh < lhmax)
        arf_set_d(h, exp2(lh));
    int inflate = 0;
    for (;;) {
        /* a step below the resolution of t0 (relative to max(1, |t0|)) */
        slong et = arf_is_zero(arb_midref(t0))
                       ? 0
                       : FLINT_MAX(0, arf_abs_bound_lt_2exp_si(arb_midref(t0)));
        if (++st->tries > MAX_TRIES || arf_is_zero(h) ||
            arf_cmpabs_2exp_si(h, et - st->prec + 8) < 0) {
            if (st->why[0] == '\0')
                snprintf(st->why, sizeof st->why,
                         "no step could be validated (the a priori enclosure "
                         "or the remainder failed down to h = %.3g)",
                         arf_get_d(h, ARF_RND_NEAR));
            status = HDO_ERR_STEP_COLLAPSE;
            goto done;
        }
        arb_set_arf(s, h);
        zero_to(s, s, lp);            /* [0, h] */
        arb_add(T, t0, s, st->prec); /* the times of the step */
        /* B0: the Taylor polynomial over [0, h] from the whole set */
        for (slong i = 0; i < ns + nu; i++)
            horner(B0 + i, cert_series_coef(st->jet, comp_slot(st, i), 0, 0),
                   p + 1, s, 0, lp);
        for (slong i = 0; i < ns; i++) {
            arb_set(st->B + i, B0 + i);
            if (st->mutate != HDO_CERTIFY_MUTATE_NO_INFLATION) {
                mag_t m;
                mag_init(m);
                arb_get_mag(m, B0 + i);
                mag_mul_2exp_si(m, m, -INFLATE_BITS + 8 * inflate);
                mag_add(arb_radref(st->B + i), arb_radref(st->B + i), m);
                mag_set_ui_2exp_si(m, 1, -2 * st->prec);
                mag_add(arb_radref(st->B + i), arb_radref(st->B + i), m);
                mag_clear(m);
            }
        }
        if (nu > 0 && cert_unknowns(st->UB, sys, st->B, T, B0 + ns, lp) != 0) {
            snprintf(st->why, sizeof st->why,
                     "the algebraic unknowns are not enclosed over the a "
                     "priori box (Krawczyk)");
            arf_mul_2exp_si(h, h, -1);
            continue;
        }
        hdo_expr b2 = HDO_EXPR_NONE;
        if (cert_sys_expand(st->rem, sys, st->B, st->UB, T, &b2) != 0) {
            snprintf(st->why, sizeof st->why,
                     "the remainder's expansion over the a priori box fails "
                     "(a domain edge or a singular Jacobian within it)");
            if (bad != NULL)
                *bad = b2;
            arf_mul_2exp_si(h, h, -1);
            continue;
        }
        for (slong i = 0; i < st->ncomp; i++)
            arb_set(st->R + i,
                    cert_series_coef(st->rem, comp_slot(st, i), 0, p + 1));
        /* [0, h]^(p+1) */
        arb_set_arf(sp, h);
        arb_pow_ui(sp, sp, p + 1, lp);
        zero_to(sp, sp, lp);
        int ok = 1;
        for (slong i = 0; i < ns && ok; i++) {
            arb_mul(lhs + i, sp, st->R + i, lp);
            arb_add(lhs + i, lhs + i, B0 + i, lp);
            if (st->mutate != HDO_CERTIFY_MUTATE_NO_INFLATION &&
                !arb_contains_interior(st->B + i, lhs + i))
                ok = 0;
        }
        if (!ok) {
            if (++inflate <= INFLATE_TRIES)
                continue;
            snprintf(st->why, sizeof st->why,
                     "the a priori enclosure does not hold (the Taylor "
                     "remainder over the box leaves it)");
            inflate = 0;
            arf_mul_2exp_si(h, h, -1);
            continue;
        }
        /* the remainder against the targets */
        double worst = 0;
        for (slong i = 0; i < ns + nu; i++) {
            mag_t m;
            mag_init(m);
            arb_get_mag(m, st->R + i);
            if (!mag_is_zero(m)) {
                double e = mag_get_d_log2_approx(m) +
                           (double)(p + 1) * log2(arf_get_d(h, ARF_RND_UP)) -
                           mag_get_d_log2_approx(scale + i) - ltol;
                if (e > worst)
                    worst = e;
            }
            mag_clear(m);
        }
        if (worst > 0) {
            /* a 10% margin below the step that would just meet it */
            arf_t f;
            arf_init(f);
            arf_set_d(f, 0.9 * exp2(-worst / (double)(p + 1)));
            arf_mul(h, h, f, 64, ARF_RND_DOWN);
            arf_clear(f);
            inflate = 0;
            continue;
        }
        break;
    }
    /* learn the ratio of the validated step to the proposal: it shrank,
       start there next time; it did not, try 25% more */
    {
        double la = log2(arf_get_d(h, ARF_RND_NEAR));
        if (la < lh - 0.01)
            st->lhfac += la - lh;
        else if (la < lhmax - 0.01)
            st->lhfac = FLINT_MIN(0.0, st->lhfac + 0.32);
    }
    arf_set(st->h, h);
    st->why[0] = '\0';
done:
    _arb_vec_clear(hull, ns + 1);
    _arb_vec_clear(x0, ns * (ns + 1) + 1);
    _arb_vec_clear(uX, nu + 1);
    _arb_vec_clear(B0, ns + nu + 1);
    _arb_vec_clear(lhs, ns + 1);
    arb_clear(T);
    arb_clear(s);
    arb_clear(sp);
    arb_clear(tmp);
    arf_clear(h);
    return status;
}

/* 1 when the ball s lies in [0, h]. */
static int
inside_step(const cert_step_struct *st, const arb_t s)
{
    arf_t lo, hi;
    arf_init(lo);
    arf_init(hi);
    arb_get_lbound_arf(lo, s, st->prec);
    arb_get_ubound_arf(hi, s, st->prec);
    int ok = arf_sgn(lo) >= 0 && arf_cmp(hi, st->h) <= 0;
    arf_clear(lo);
    arf_clear(hi);
    return ok;
}

int
cert_step_eval(arb_t out, const cert_step_t st, slong i, const arb_t s,
               int deriv, slong prec)
{
    slong p = st->p, ns = st->ns, slot = comp_slot(st, i);
    if (!inside_step(st, s)) {
        arb_indeterminate(out);
        return -1;
    }
    arb_t v, r;
    arb_ptr g = _arb_vec_init(ns + 1);
    arb_init(v);
    arb_init(r);
    horner(v, cert_series_coef((cert_series_struct *)st->main, slot, 0, 0),
           p + 1, s, deriv, prec);
    if (st->mutate != HDO_CERTIFY_MUTATE_NO_REMAINDER) {
        /* s^(p+1) R, or (p + 1) s^p R for the derivative */
        arb_pow_ui(r, s, deriv ? p : p + 1, st->lprec);
        arb_mul(r, r, st->R + i, st->lprec);
        if (deriv)
            arb_mul_si(r, r, p + 1, st->lprec);
        arb_add(v, v, r, prec);
    }
    for (slong d = 0; d < ns; d++)
        horner(g + d,
               cert_series_coef((cert_series_struct *)st->jet, slot, d + 1, 0),
               p + 1, s, deriv, st->lprec);
    cert_set_dot(r, g, st->X, st->lprec);
    arb_add(out, v, r, prec);
    arb_clear(v);
    arb_clear(r);
    _arb_vec_clear(g, ns + 1);
    return 0;
}

int
cert_step_states(arb_ptr x, arb_mat_t J, const cert_step_t st, const arb_t s)
{
    slong p = st->p, ns = st->ns;
    if (!inside_step(st, s))
        return -1;
    arb_t r;
    arb_init(r);
    for (slong i = 0; i < ns; i++) {
        slong slot = comp_slot(st, i);
        horner(x + i,
               cert_series_coef((cert_series_struct *)st->main, slot, 0, 0),
               p + 1, s, 0, st->prec);
        if (st->mutate != HDO_CERTIFY_MUTATE_NO_REMAINDER) {
            arb_pow_ui(r, s, p + 1, st->lprec);
            arb_mul(r, r, st->R + i, st->lprec);
            arb_add(x + i, x + i, r, st->prec);
        }
        for (slong d = 0; d < ns; d++)
            horner(arb_mat_entry(J, i, d),
                   cert_series_coef((cert_series_struct *)st->jet, slot, d + 1,
                                    0),
                   p + 1, s, 0, st->lprec);
    }
    arb_clear(r);
    return 0;
}
