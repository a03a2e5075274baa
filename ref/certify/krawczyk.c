/* krawczyk.c -- Krawczyk's method in Arb: a box proven to hold exactly one
   zero of a square system, for the algebraic unknowns of a reduced mode
   over a box of states and for consistent (re)initialisation */
#include "internal.h"

/* Why Krawczyk rather than the interval Newton operator: it needs no
   interval linear solve, only an approximate inverse C of the Jacobian at
   the midpoint and one product (I - C J(Y)), and Arb encloses that
   product directly (Moore, Kearfott and Cloud 2009, section 8.2).  The
   theorem: if K(Y) = m - C F(m) + (I - C J(Y)) (Y - m) lies in the
   interior of Y, F has exactly one zero in Y, and it lies in K(Y)
   (Krawczyk 1969; uniqueness by Moore 1977).  With parameters (the
   states in balls) F(m) and J(Y) are enclosed over the parameters too,
   and the statement holds for every parameter value in them. */

#define NEWTON_ITERS 8
#define INFLATE_TRIES 12

/* Newton on the midpoints: m := m - mid(J(m))^-1 mid(F(m)). */
static void
newton_mid(arb_ptr m, slong n, cert_vec_fn f, cert_vec_fn jac, void *data,
           slong prec)
{
    arb_ptr F = _arb_vec_init(n), Jv = _arb_vec_init(n * n);
    arb_mat_t J, rhs, d;
    arb_mat_init(J, n, n);
    arb_mat_init(rhs, n, 1);
    arb_mat_init(d, n, 1);
    for (int it = 0; it < NEWTON_ITERS; it++) {
        if (f(F, m, data, prec) != 0 || jac(Jv, m, data, prec) != 0)
            break;
        for (slong i = 0; i < n * n; i++)
            arf_set(arb_midref(arb_mat_entry(J, i / n, i % n)),
                    arb_midref(Jv + i));
        for (slong i = 0; i < n; i++) {
            arf_set(arb_midref(arb_mat_entry(rhs, i, 0)), arb_midref(F + i));
            mag_zero(arb_radref(arb_mat_entry(rhs, i, 0)));
        }
        if (!arb_mat_approx_solve(d, J, rhs, prec))
            break;
        int small = 1;
        for (slong i = 0; i < n; i++) {
            arb_ptr di = arb_mat_entry(d, i, 0);
            arf_sub(arb_midref(m + i), arb_midref(m + i), arb_midref(di), prec,
                    ARF_RND_NEAR);
            /* converged when the step is near the rounding of m */
            if (!arf_is_zero(arb_midref(di)) &&
                arf_cmpabs_2exp_si(arb_midref(di),
                                   arf_abs_bound_lt_2exp_si(arb_midref(m + i)) -
                                       prec + 8) > 0)
                small = 0;
        }
        if (small)
            break;
    }
    arb_mat_clear(J);
    arb_mat_clear(rhs);
    arb_mat_clear(d);
    _arb_vec_clear(F, n);
    _arb_vec_clear(Jv, n * n);
}

int
cert_krawczyk(arb_ptr y, slong n, cert_vec_fn f, cert_vec_fn jac, void *data,
              arb_srcptr guess, slong prec)
{
    if (n == 0)
        return 0;
    int status = HDO_ERR_NO_CONVERGENCE;
    arb_ptr m = _arb_vec_init(n), F = _arb_vec_init(n), Y = _arb_vec_init(n);
    arb_ptr Jv = _arb_vec_init(n * n), K = _arb_vec_init(n);
    mag_ptr rho = _mag_vec_init(n);
    arb_mat_t J, C, I, M, dY, cF;
    arb_mat_init(J, n, n);
    arb_mat_init(C, n, n);
    arb_mat_init(I, n, n);
    arb_mat_init(M, n, n);
    arb_mat_init(dY, n, 1);
    arb_mat_init(cF, n, 1);
    for (slong i = 0; i < n; i++)
        arb_get_mid_arb(m + i, guess + i);
    newton_mid(m, n, f, jac, data, prec);
    /* C: an approximate inverse of J at the midpoint */
    if (jac(Jv, m, data, prec) != 0)
        goto done;
    for (slong i = 0; i < n * n; i++)
        arb_get_mid_arb(arb_mat_entry(J, i / n, i % n), Jv + i);
    arb_mat_one(I);
    if (!arb_mat_approx_solve(C, J, I, prec))
        goto done;
    arb_mat_get_mid(C, C);
    /* -C F(m), enclosed: over the parameters' balls when there are some */
    if (f(F, m, data, prec) != 0)
        goto done;
    for (slong i = 0; i < n; i++)
        arb_set(arb_mat_entry(dY, i, 0), F + i);
    arb_mat_mul(cF, C, dY, prec);
    /* the first box: twice the Newton correction, at least a few ulps */
    for (slong i = 0; i < n; i++) {
        mag_t u;
        mag_init(u);
        arb_get_mag(rho + i, arb_mat_entry(cF, i, 0));
        mag_mul_2exp_si(rho + i, rho + i, 1);
        arf_get_mag(u, arb_midref(m + i));
        mag_mul_2exp_si(u, u, -prec + 4);
        mag_add(rho + i, rho + i, u);
        mag_set_ui_2exp_si(u, 1, -4 * prec);
        mag_add(rho + i, rho + i, u);
        mag_clear(u);
    }
    for (int tr = 0; tr < INFLATE_TRIES; tr++) {
        for (slong i = 0; i < n; i++) {
            arb_set(Y + i, m + i);
            mag_set(arb_radref(Y + i), rho + i);
        }
        if (jac(Jv, Y, data, prec) != 0)
            break;
        for (slong i = 0; i < n * n; i++)
            arb_set(arb_mat_entry(J, i / n, i % n), Jv + i);
        /* M = I - C J(Y); K = m - C F(m) + M (Y - m) */
        arb_mat_mul(M, C, J, prec);
        arb_mat_sub(M, I, M, prec);
        for (slong i = 0; i < n; i++) {
            arb_zero(arb_mat_entry(dY, i, 0));
            mag_set(arb_radref(arb_mat_entry(dY, i, 0)), rho + i);
        }
        arb_mat_t MdY;
        arb_mat_init(MdY, n, 1);
        arb_mat_mul(MdY, M, dY, prec);
        int inside = 1;
        for (slong i = 0; i < n; i++) {
            arb_sub(K + i, m + i, arb_mat_entry(cF, i, 0), prec);
            arb_add(K + i, K + i, arb_mat_entry(MdY, i, 0), prec);
            if (!arb_contains_interior(Y + i, K + i))
                inside = 0;
        }
        arb_mat_clear(MdY);
        if (inside) {
            _arb_vec_set(y, K, n);
            status = 0;
            break;
        }
        /* grow each radius to twice the distance K reaches */
        for (slong i = 0; i < n; i++) {
            arb_t dist;
            mag_t r;
            arb_init(dist);
            mag_init(r);
            arb_sub(dist, K + i, m + i, prec);
            arb_get_mag(r, dist);
            mag_max(rho + i, rho + i, r);
            mag_mul_2exp_si(rho + i, rho + i, 1);
            arb_clear(dist);
            mag_clear(r);
        }
    }
done:
    arb_mat_clear(J);
    arb_mat_clear(C);
    arb_mat_clear(I);
    arb_mat_clear(M);
    arb_mat_clear(dY);
    arb_mat_clear(cF);
    _arb_vec_clear(m, n);
    _arb_vec_clear(F, n);
    _arb_vec_clear(Y, n);
    _arb_vec_clear(Jv, n * n);
    _arb_vec_clear(K, n);
    _mag_vec_clear(rho, n);
    return status;
}

typedef struct {
    const cert_sys_struct *sys;
    arb_srcptr x;
    arb_srcptr t;
} unknowns_data;

static int
h_fn(arb_ptr out, arb_srcptr u, void *data, slong prec)
{
    unknowns_data *d = data;
    return cert_sys_eval_h(out, d->sys, d->x, u, d->t, prec);
}

static int
j_fn(arb_ptr out, arb_srcptr u, void *data, slong prec)
{
    unknowns_data *d = data;
    return cert_sys_eval_jac(out, d->sys, d->x, u, d->t, prec);
}

int
cert_unknowns(arb_ptr u, const cert_sys_t sys, arb_srcptr x, const arb_t t,
              arb_srcptr guess, slong prec)
{
    unknowns_data d = {sys, x, t};
    return cert_krawczyk(u, sys->nu, h_fn, j_fn, &d, guess, prec);
}
