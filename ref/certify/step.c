/* step.c -- one validated Taylor step: the low orders from the centre with
   their derivatives over the set, the high orders over the set, the a
   priori enclosure and the Lagrange remainder on it, and the step's dense
   output in balls */
#include <math.h>
#include <stdio.h>
#include "internal.h"

/* Why four expansions.  The solution from a start x0 of the set X over
   s in [0, h] is
     x(s) = sum_{k <= P} a_k(x0) s^k + s^(P+1) a_(P+1)(xi)
   (Lagrange, xi on the trajectory).  The low orders k <= qj carry the
   digits and the set's shape: a_k(c) from the centre at the working
   precision (main), and their derivatives over the set (jet, low
   precision: they multiply x0 - c, as small as the set) give Lohner's
   linear part.  The high orders qj < k <= P are small terms: their balls
   over the whole set (ext) are tight enough, at a precision that covers
   their size (the set's spread in them is below the tolerance), and so
   need no derivatives.  The remainder's coefficient is enclosed over the
   a priori box B of the step (rem, low precision: it multiplies
   s^(P+1)); a wide box overestimates it (the dependency effect grows
   with the order), but a factor F costs only F^(1/(P+1)) in step size,
   and the orders beyond the run's p (P = p + q) make up for it.  Only
   main is at the working precision. */

/* The relative inflation of the a priori box, and how often it is
   enlarged (by 2^4 each time) before the step is halved. */
#define INFLATE_BITS 20
#define INFLATE_TRIES 2
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
cert_step_init(cert_step_t st, const cert_sys_t sys, slong p, slong q,
               slong prec, slong lprec, int mutate)
{
    hdo_expr_pool_struct *pool = sys->model->pool;
    st->sys = sys;
    st->ns = sys->ns;
    st->nu = sys->nu;
    st->ng = sys->ng;
    st->ncomp = sys->ns + sys->nu + sys->ng;
    st->p = p;
    st->q = q;
    st->qj = FLINT_MAX(1, p / 2);
    st->prec = prec;
    st->lprec = lprec;
    /* the high orders are at most about tol^(1/2) of the solution: half
       the working precision covers them, and a quarter more the growth
       of their rounding with the order */
    st->eprec = FLINT_MAX(2 * lprec, (3 * prec) / 4 + 32);
    st->mutate = mutate;
    cert_series_init(st->main, sys->prog, pool, st->qj, 0, prec);
    cert_series_init(st->jet, sys->prog, pool, st->qj, sys->ns, lprec);
    cert_series_init(st->ext, sys->prog, pool, p + q, 0, st->eprec);
    cert_series_init(st->rem, sys->prog, pool, p + q + 1, 0, lprec);
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
    cert_series_clear(st->ext);
    cert_series_clear(st->rem);
    arb_clear(st->t0);
    arf_clear(st->h);
    _arb_vec_clear(st->R, st->ncomp + 1);
    _arb_vec_clear(st->B, st->ns + 1);
    _arb_vec_clear(st->UB, st->nu + 1);
    _arb_vec_clear(st->u0, st->nu + 1);
}

/* [0, x] (x >= 0) as a ball. */
static void
zero_to(arb_t r, const arb_t x)
{
    arb_mul_2exp_si(r, x, -1);
    arb_add_error(r, r);
}

/* sum_{k=lo}^{hi} c[k] s^k by Horner's rule (its deriv-th derivative). */
static void
horner(arb_t out, arb_srcptr c, slong lo, slong hi, const arb_t s, int deriv,
       slong prec)
{
    /* the deriv-th derivative: sum of k!/(k - deriv)! c_k s^(k - deriv) */
    arb_t acc, sk;
    arb_init(acc);
    arb_init(sk);
    slong from = FLINT_MAX(lo, deriv);
    for (slong k = hi; k >= from; k--) {
        arb_mul(acc, acc, s, prec);
        slong f = 1;
        for (slong j = 0; j < deriv; j++)
            f *= k - j;
        if (deriv)
            arb_addmul_si(acc, c + k, f, prec);
        else
            arb_add(acc, acc, c + k, prec);
    }
    /* the loop left out the factor s^(from - deriv) */
    slong e = from - deriv;
    if (e > 0 && hi >= from) {
        arb_pow_ui(sk, s, e, prec);
        arb_mul(acc, acc, sk, prec);
    }
    arb_swap(out, acc);
    arb_clear(acc);
    arb_clear(sk);
}

/* Jorba and Zou's step over the coefficients of orders [3P/4, P] of the
   high-order expansion: rho_i = min_j (scale_i / |a_ij|)^(1/j) estimates
   the radius of convergence of component i (states and unknowns), and
   h = tol^(1/P) min_i rho_i puts the last term near tol scale_i (as
   ref/taylor/control.c); log2 of it, or lhmax when those coefficients
   all vanish. */
static double
step_log2_once(const cert_step_struct *st, const mag_struct *scale, double ltol,
               double lhmax)
{
    slong P = st->p + st->q;
    double best = lhmax;
    for (slong i = 0; i < st->ns + st->nu; i++) {
        arb_srcptr c = cert_series_coef((cert_series_struct *)st->ext,
                                        comp_slot(st, i), 0, 0);
        double ls = mag_get_d_log2_approx(scale + i);
        for (slong j = (3 * P + 3) / 4; j <= P; j++) {
            mag_t m;
            mag_init(m);
            arb_get_mag(m, c + j);
            if (!mag_is_zero(m)) {
                double lh = ltol / (double)P +
                            (ls - mag_get_d_log2_approx(m)) / (double)j;
                if (lh < best)
                    best = lh;
            }
            mag_clear(m);
        }
    }
    return best;
}

/* The same with each scale raised to its component's size over that
   step (max_k |a_ik| h^k), to a fixed point: a component that passes
   through zero (a velocity from rest) is held relative to the size it
   reaches over the step, as the run's error control holds it. */
static double
step_log2(const cert_step_struct *st, mag_ptr scale, double ltol, double lhmax)
{
    slong P = st->p + st->q;
    double lh = step_log2_once(st, scale, ltol, lhmax);
    for (int it = 0; it < 4 && isfinite(lh); it++) {
        for (slong i = 0; i < st->ns + st->nu; i++) {
            arb_srcptr c = cert_series_coef((cert_series_struct *)st->ext,
                                            comp_slot(st, i), 0, 0);
            for (slong k = 0; k <= P; k++) {
                mag_t m;
                mag_init(m);
                arb_get_mag(m, c + k);
                mag_mul_2exp_si(m, m, (slong)floor(lh * (double)k));
                mag_max(scale + i, scale + i, m);
                mag_clear(m);
            }
        }
        double l2 = step_log2_once(st, scale, ltol, lhmax);
        if (l2 <= lh + 0.01)
            break;
        lh = l2;
    }
    return lh;
}

/* The expansions that do not depend on the step: main from the centre,
   jet and ext over the set. */
static int
expand_set(cert_step_struct *st, const cert_set_t X, const arb_t t0,
           arb_srcptr uguess, hdo_expr *bad)
{
    const cert_sys_struct *sys = st->sys;
    slong ns = st->ns, nu = st->nu, lp = st->lprec, w = ns + 1;
    int status = 0;
    arb_ptr hull = _arb_vec_init(ns + 1), x0 = _arb_vec_init(ns * w + 1);
    arb_ptr uX = _arb_vec_init(nu + 1);
    if (nu > 0 && cert_unknowns(st->u0, sys, X->c, t0, uguess, st->prec)) {
        snprintf(st->why, sizeof st->why,
                 "the algebraic unknowns are not enclosed at the step's start "
                 "(Krawczyk)");
        status = HDO_ERR_NO_CONVERGENCE;
        goto done;
    }
    if ((status = cert_sys_expand(st->main, sys, X->c, st->u0, t0, bad)) != 0)
        goto done;
    /* the derivatives of the low orders over the set */
    cert_set_hull(hull, X, lp);
    if (nu > 0 && cert_unknowns(uX, sys, hull, t0, st->u0, lp) != 0) {
        snprintf(st->why, sizeof st->why,
                 "the algebraic unknowns are not enclosed over the set of "
                 "states (Krawczyk)");
        status = HDO_ERR_NO_CONVERGENCE;
        goto done;
    }
    for (slong i = 0; i < ns; i++) {
        arb_set(x0 + i * w, hull + i);
        for (slong d = 0; d < ns; d++)
            arb_set_si(x0 + i * w + 1 + d, i == d);
    }
    if ((status = cert_sys_expand(st->jet, sys, x0, uX, t0, bad)) != 0)
        goto done;
    /* every order over the set, at the precision of the high ones */
    cert_set_hull(hull, X, st->eprec);
    if (nu > 0 && cert_unknowns(uX, sys, hull, t0, st->u0, st->eprec) != 0) {
        snprintf(st->why, sizeof st->why,
                 "the algebraic unknowns are not enclosed over the set of "
                 "states (Krawczyk)");
        status = HDO_ERR_NO_CONVERGENCE;
        goto done;
    }
    status = cert_sys_expand(st->ext, sys, hull, uX, t0, bad);
done:
    _arb_vec_clear(hull, ns + 1);
    _arb_vec_clear(x0, ns * w + 1);
    _arb_vec_clear(uX, nu + 1);
    return status;
}

/* One attempt at the a priori box and the remainder for the step h
   (inflation level inflate): 0 accepted, 1 the enclosure does not hold
   (inflate or shrink), 2 an unknown or the expansion fails over B (shrink),
   3 accurate enough not (h shrunk in place). */
static int
attempt(cert_step_struct *st, arf_t h, int inflate, const mag_struct *scale,
        double ltol, hdo_expr *bad)
{
    const cert_sys_struct *sys = st->sys;
    slong ns = st->ns, nu = st->nu, lp = st->lprec, P = st->p + st->q;
    int r = 0;
    arb_ptr B0 = _arb_vec_init(ns + nu + 1);
    arb_t s, T, sp, lhs;
    arb_init(s);
    arb_init(T);
    arb_init(sp);
    arb_init(lhs);
    arb_set_arf(s, h);
    zero_to(s, s);                   /* [0, h] */
    arb_add(T, st->t0, s, st->prec); /* the times of the step */
    /* B0: the Taylor polynomial of degree P over [0, h] from the set */
    for (slong i = 0; i < ns + nu; i++)
        horner(B0 + i, cert_series_coef(st->ext, comp_slot(st, i), 0, 0), 0, P,
               s, 0, lp);
    for (slong i = 0; i < ns; i++) {
        arb_set(st->B + i, B0 + i);
        if (st->mutate == HDO_CERTIFY_MUTATE_NO_INFLATION)
            continue;
        mag_t m;
        mag_init(m);
        arb_get_mag(m, B0 + i);
        mag_mul_2exp_si(m, m, -INFLATE_BITS + 4 * inflate);
        mag_add(arb_radref(st->B + i), arb_radref(st->B + i), m);
        mag_set_ui_2exp_si(m, 1, -2 * st->prec);
        mag_add(arb_radref(st->B + i), arb_radref(st->B + i), m);
        mag_clear(m);
    }
    if (nu > 0 && cert_unknowns(st->UB, sys, st->B, T, B0 + ns, lp) != 0) {
        snprintf(st->why, sizeof st->why,
                 "the algebraic unknowns are not enclosed over the a priori "
                 "box (Krawczyk)");
        r = 2;
        goto done;
    }
    if (cert_sys_expand(st->rem, sys, st->B, st->UB, T, bad) != 0) {
        snprintf(st->why, sizeof st->why,
                 "the remainder's expansion over the a priori box fails (a "
                 "domain edge or a singular Jacobian within it)");
        r = 2;
        goto done;
    }
    for (slong i = 0; i < st->ncomp; i++)
        arb_set(st->R + i,
                cert_series_coef(st->rem, comp_slot(st, i), 0, P + 1));
    /* B0 + [0, h]^(P+1) R in the interior of B: the high-order enclosure
       (Nedialkov, Jackson and Pryce 2001) */
    arb_set_arf(sp, h);
    arb_pow_ui(sp, sp, P + 1, lp);
    zero_to(sp, sp);
    for (slong i = 0; i < ns; i++) {
        arb_mul(lhs, sp, st->R + i, lp);
        arb_add(lhs, lhs, B0 + i, lp);
        if (!arb_contains_interior(st->B + i, lhs)) {
            snprintf(st->why, sizeof st->why,
                     "the a priori enclosure does not hold (the Taylor "
                     "remainder over the box leaves it)");
            r = 1;
            goto done;
        }
    }
    /* the remainder against the tolerance */
    double worst = 0;
    for (slong i = 0; i < ns + nu; i++) {
        mag_t m;
        mag_init(m);
        arb_get_mag(m, st->R + i);
        if (!mag_is_zero(m)) {
            double e = mag_get_d_log2_approx(m) +
                       (double)(P + 1) * log2(arf_get_d(h, ARF_RND_UP)) -
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
        arf_set_d(f, 0.9 * exp2(-worst / (double)(P + 1)));
        arf_mul(h, h, f, 64, ARF_RND_DOWN);
        arf_clear(f);
        r = 3;
    }
done:
    _arb_vec_clear(B0, ns + nu + 1);
    arb_clear(s);
    arb_clear(T);
    arb_clear(sp);
    arb_clear(lhs);
    return r;
}

int
cert_step_take(cert_step_t st, const cert_set_t X, const arb_t t0,
               const arf_t hmax, mag_ptr scale, double ltol, arb_srcptr uguess,
               hdo_expr *bad)
{
    st->X = X;
    st->tries = 0;
    st->why[0] = '\0';
    arb_set(st->t0, t0);
    int status = expand_set(st, X, t0, uguess, bad);
    if (status != 0)
        return status;
    /* the proposal, times what the certified remainder allowed last time;
       at the end of the way, all of it or two halves, never a sliver */
    arf_t h;
    arf_init(h);
    double lhmax = log2(arf_get_d(hmax, ARF_RND_DOWN));
    double lh = step_log2(st, scale, ltol, INFINITY) + st->lhfac;
    int capped = lh >= lhmax - 1;
    if (lh >= lhmax)
        arf_set(h, hmax);
    else if (capped)
        arf_mul_2exp_si(h, hmax, -1);
    else
        arf_set_d(h, exp2(lh));
    double ltry = log2(arf_get_d(h, ARF_RND_NEAR));
    /* a step below the resolution of t0 (relative to max(1, |t0|)) fails */
    slong et = arf_is_zero(arb_midref(t0))
                   ? 0
                   : FLINT_MAX(0, arf_abs_bound_lt_2exp_si(arb_midref(t0)));
    int inflate = 0;
    for (;;) {
        if (++st->tries > MAX_TRIES ||
            arf_cmpabs_2exp_si(h, et - st->prec + 8) < 0) {
            char last[sizeof st->why];
            snprintf(last, sizeof last, "%s", st->why);
            snprintf(st->why, sizeof st->why,
                     "no step could be validated down to h = %.3g%s%.300s",
                     arf_get_d(h, ARF_RND_NEAR), last[0] ? ": " : "", last);
            status = HDO_ERR_STEP_COLLAPSE;
            break;
        }
        int r = attempt(st, h, inflate, scale, ltol, bad);
        if (r == 0)
            break;
        if (r == 1 && ++inflate <= INFLATE_TRIES)
            continue;
        inflate = 0;
        if (r != 3)
            arf_mul_2exp_si(h, h, -1);
    }
    if (status == 0) {
        /* learn the ratio of the validated step to the one tried: it
           shrank, start there next time; it did not, try 7% more */
        double la = log2(arf_get_d(h, ARF_RND_NEAR));
        if (la < ltry - 0.01)
            st->lhfac += la - ltry;
        else if (!capped)
            st->lhfac = FLINT_MIN(0.0, st->lhfac + 0.1);
        arf_set(st->h, h);
        st->why[0] = '\0';
    }
    arf_clear(h);
    return status;
}

/* The midpoint of s lies in [0, h].  The caller vouches that the true s
   lies in [0, h]: the enclosure holds there, and over a ball that
   contains it (an interval [l, u] in [0, h] as a ball reaches a little
   beyond its ends), so only a gross misuse is caught here. */
static int
inside_step(const cert_step_struct *st, const arb_t s)
{
    return arf_sgn(arb_midref(s)) >= 0 && arf_cmp(arb_midref(s), st->h) <= 0 &&
           arb_is_finite(s);
}

/* The part of component i that does not depend on where x0 lies in the
   set: the low orders from the centre, the high orders over the set, and
   the remainder (deriv: the derivative of each). */
static void
centre_part(arb_t v, const cert_step_struct *st, slong i, const arb_t s,
            int deriv, slong prec)
{
    slong P = st->p + st->q, slot = comp_slot(st, i), qj = st->qj;
    arb_t r;
    arb_init(r);
    horner(v, cert_series_coef((cert_series_struct *)st->main, slot, 0, 0), 0,
           qj, s, deriv, prec);
    horner(r, cert_series_coef((cert_series_struct *)st->ext, slot, 0, 0),
           qj + 1, P, s, deriv, st->eprec);
    arb_add(v, v, r, prec);
    if (st->mutate != HDO_CERTIFY_MUTATE_NO_REMAINDER) {
        /* s^(P+1) R, or (P + 1)!/(P + 1 - d)! s^(P+1-d) R for the d-th
           derivative (the Taylor coefficient of y^(d) of order P + 1 - d
           is that multiple of y's of order P + 1: Lagrange's remainder
           of y^(d) over the same box) */
        arb_pow_ui(r, s, P + 1 - deriv, st->lprec);
        arb_mul(r, r, st->R + i, st->lprec);
        for (slong j = 0; j < deriv; j++)
            arb_mul_si(r, r, P + 1 - j, st->lprec);
        arb_add(v, v, r, prec);
    }
    arb_clear(r);
}

/* The order of the derivative flags asks for. */
static int
deriv_order(int flags)
{
    return flags & CERT_EVAL_DERIV2 ? 2 : (flags & CERT_EVAL_DERIV ? 1 : 0);
}

void
cert_step_grad(arb_ptr g, const cert_step_t st, slong i, const arb_t s,
               int flags)
{
    slong slot = comp_slot(st, i);
    for (slong d = 0; d < st->ns; d++)
        horner(g + d,
               cert_series_coef((cert_series_struct *)st->jet, slot, d + 1, 0),
               0, st->qj, s, deriv_order(flags), st->lprec);
}

int
cert_step_eval(arb_t out, const cert_step_t st, slong i, const arb_t s,
               int flags, slong prec)
{
    if (!inside_step(st, s)) {
        arb_indeterminate(out);
        return -1;
    }
    arb_t v;
    arb_init(v);
    centre_part(v, st, i, s, deriv_order(flags), prec);
    if (!(flags & CERT_EVAL_CENTER)) {
        arb_t r;
        arb_init(r);
        arb_ptr g = _arb_vec_init(st->ns + 1);
        cert_step_grad(g, st, i, s, flags);
        cert_set_dot(r, g, st->X, st->lprec);
        arb_add(v, v, r, prec);
        _arb_vec_clear(g, st->ns + 1);
        arb_clear(r);
    }
    arb_swap(out, v);
    arb_clear(v);
    return 0;
}

int
cert_step_states(arb_ptr x, arb_mat_t J, const cert_step_t st, const arb_t s)
{
    if (!inside_step(st, s))
        return -1;
    arb_ptr g = _arb_vec_init(st->ns + 1);
    for (slong i = 0; i < st->ns; i++) {
        centre_part(x + i, st, i, s, 0, st->prec);
        cert_step_grad(g, st, i, s, 0);
        for (slong d = 0; d < st->ns; d++)
            arb_set(arb_mat_entry(J, i, d), g + d);
    }
    _arb_vec_clear(g, st->ns + 1);
    return 0;
}
