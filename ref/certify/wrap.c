/* wrap.c -- the set of states carried from step to step: a point plus a
   parallelepiped (Lohner's QR method), a box, or an affine form in the
   start box (first-order Taylor models) */
#include <stdlib.h>
#include "internal.h"

/* Why a parallelepiped: the image of a box under a step is a rotated,
   sheared box; enclosing it by a box again every step (INTERVAL) inflates
   it by up to |J| |J^-1| per step, exponentially over a run (a rotation by
   angle a per step: (|cos a| + |sin a|)^steps).  Keeping the image's
   shape, x = c + A r with A the step's Jacobian times the last A, is
   exact for linear steps but A loses its conditioning; Lohner's remedy
   is to keep only an orthogonal factor Q of A (QR factorisation, columns
   ordered by their contribution, Nedialkov and Jackson 2001) and to move
   the rest into r: r := (Q^-1 J A) r + Q^-1 E, which wraps only in a
   rotated frame that follows the flow. */

void
cert_set_init(cert_set_t X, slong n, int wrap, slong prec, slong lprec)
{
    X->n = n;
    X->wrap = wrap;
    X->prec = prec;
    X->lprec = lprec;
    X->c = _arb_vec_init(n + 1);
    X->r = _arb_vec_init(n + 1);
    X->r0 = _arb_vec_init(n + 1);
    arb_mat_init(X->A, n, n);
    arb_mat_init(X->C, n, n);
    arb_mat_one(X->A);
    arb_mat_one(X->C);
}

void
cert_set_clear(cert_set_t X)
{
    _arb_vec_clear(X->c, X->n + 1);
    _arb_vec_clear(X->r, X->n + 1);
    _arb_vec_clear(X->r0, X->n + 1);
    arb_mat_clear(X->A);
    arb_mat_clear(X->C);
}

/* The ball of radius rad(x) around 0 (the deviation of x from its
   midpoint), at prec. */
static void
radius_ball(arb_t r, const arb_t x)
{
    arf_zero(arb_midref(r));
    mag_set(arb_radref(r), arb_radref(x));
}

void
cert_set_from_balls(cert_set_t X, arb_srcptr x)
{
    for (slong i = 0; i < X->n; i++) {
        arb_get_mid_arb(X->c + i, x + i);
        radius_ball(X->wrap == HDO_CERTIFY_WRAP_AFFINE ? X->r0 + i : X->r + i,
                    x + i);
        if (X->wrap == HDO_CERTIFY_WRAP_AFFINE)
            arb_zero(X->r + i);
    }
    arb_mat_one(X->A);
    arb_mat_one(X->C);
}

/* out := M v (M n x n, v n balls). */
static void
mat_vec(arb_ptr out, const arb_mat_t M, arb_srcptr v, slong n, slong prec)
{
    for (slong i = 0; i < n; i++)
        arb_dot(out + i, NULL, 0, M->rows[i], 1, v, 1, n, prec);
}

void
cert_set_hull(arb_ptr out, const cert_set_t X, slong prec)
{
    slong n = X->n;
    arb_ptr d = _arb_vec_init(n + 1), e = _arb_vec_init(n + 1);
    mat_vec(d, X->A, X->r, n, X->lprec);
    if (X->wrap == HDO_CERTIFY_WRAP_AFFINE) {
        mat_vec(e, X->C, X->r0, n, X->lprec);
        _arb_vec_add(d, d, e, n, X->lprec);
    }
    _arb_vec_add(out, X->c, d, n, prec);
    _arb_vec_clear(d, n + 1);
    _arb_vec_clear(e, n + 1);
}

void
cert_set_dot(arb_t out, arb_srcptr g, const cert_set_t X, slong prec)
{
    /* (g A) r + (g C) r0: the row times the frame first, so that the
       box r is met only once (no wrapping of A r into a box) */
    slong n = X->n;
    arb_ptr gA = _arb_vec_init(n + 1);
    arb_t acc;
    arb_init(acc);
    for (slong j = 0; j < n; j++)
        arb_dot(gA + j, NULL, 0, g, 1, X->A->rows[0] + j, X->A->c, n, prec);
    arb_dot(acc, NULL, 0, gA, 1, X->r, 1, n, prec);
    if (X->wrap == HDO_CERTIFY_WRAP_AFFINE) {
        for (slong j = 0; j < n; j++)
            arb_dot(gA + j, NULL, 0, g, 1, X->C->rows[0] + j, X->C->c, n, prec);
        arb_dot(acc, acc, 0, gA, 1, X->r0, 1, n, prec);
    }
    arb_swap(out, acc);
    arb_clear(acc);
    _arb_vec_clear(gA, n + 1);
}

typedef struct {
    double key;
    slong col;
} col_key;

static int
by_key_desc(const void *a, const void *b)
{
    double x = ((const col_key *)a)->key, y = ((const col_key *)b)->key;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Q: orthonormal columns (midpoints, modified Gram-Schmidt at prec) from
   those of mid(M), taken in decreasing order of |M_j| rad(r_j); a column
   that is (numerically) dependent on the earlier ones is replaced by a
   unit vector.  Q is exact as stored (zero radii): only its inverse is
   enclosed, by Arb. */
static void
orthonormal_frame(arb_mat_t Q, const arb_mat_t M, arb_srcptr r, slong n,
                  slong prec)
{
    col_key *keys = malloc((n + 1) * sizeof *keys);
    HDO_ASSERT(keys != NULL);
    for (slong j = 0; j < n; j++) {
        double s = 0;
        for (slong i = 0; i < n; i++) {
            double m =
                arf_get_d(arb_midref(arb_mat_entry(M, i, j)), ARF_RND_NEAR);
            s += m * m;
        }
        double rad = mag_get_d(arb_radref(r + j));
        keys[j].key = rad > 0 ? s * rad * rad : s * 1e-300;
        keys[j].col = j;
    }
    qsort(keys, n, sizeof *keys, by_key_desc);
    arb_ptr v = _arb_vec_init(n + 1);
    arb_t dot;
    arb_init(dot);
    for (slong q = 0; q < n; q++) {
        for (int attempt = 0; attempt <= n; attempt++) {
            for (slong i = 0; i < n; i++) {
                if (attempt == 0)
                    arb_get_mid_arb(v + i, arb_mat_entry(M, i, keys[q].col));
                else
                    arb_set_si(v + i, i == (attempt - 1));
            }
            for (int pass = 0; pass < 2; pass++) /* re-orthogonalise */
                for (slong k = 0; k < q; k++) {
                    arb_zero(dot);
                    for (slong i = 0; i < n; i++)
                        arb_addmul(dot, v + i, arb_mat_entry(Q, i, k), prec);
                    arb_get_mid_arb(dot, dot);
                    for (slong i = 0; i < n; i++) {
                        arb_submul(v + i, dot, arb_mat_entry(Q, i, k), prec);
                        arb_get_mid_arb(v + i, v + i);
                    }
                }
            arb_zero(dot);
            for (slong i = 0; i < n; i++)
                arb_addmul(dot, v + i, v + i, prec);
            arb_get_mid_arb(dot, dot);
            /* dependent: less than 2^-(prec/2) of the column is new */
            if (arf_cmp_2exp_si(arb_midref(dot), -prec / 2) > 0)
                break;
        }
        arb_sqrt(dot, dot, prec);
        arb_get_mid_arb(dot, dot);
        for (slong i = 0; i < n; i++) {
            arb_div(arb_mat_entry(Q, i, q), v + i, dot, prec);
            arb_get_mid_arb(arb_mat_entry(Q, i, q), arb_mat_entry(Q, i, q));
        }
    }
    arb_clear(dot);
    _arb_vec_clear(v, n + 1);
    free(keys);
}

void
cert_set_advance(cert_set_t X, arb_srcptr xc, const arb_mat_t J)
{
    slong n = X->n, lp = X->lprec;
    arb_ptr E = _arb_vec_init(n + 1), t = _arb_vec_init(n + 1);
    arb_mat_t M, Q, Qi, QM;
    arb_mat_init(M, n, n);
    arb_mat_init(Q, n, n);
    arb_mat_init(Qi, n, n);
    arb_mat_init(QM, n, n);
    /* the new centre and the ball of P(c) around it */
    for (slong i = 0; i < n; i++) {
        arb_get_mid_arb(X->c + i, xc + i);
        radius_ball(E + i, xc + i);
    }
    arb_mat_mul(M, J, X->A, lp);
    if (X->wrap == HDO_CERTIFY_WRAP_AFFINE) {
        /* C := mid(J C), exact; what J C has beyond it, times r0, joins
           the local error (CAPD's doubleton): a ball matrix C would
           wrap in its own radii */
        arb_mat_t C, D;
        arb_mat_init(C, n, n);
        arb_mat_init(D, n, n);
        arb_mat_mul(C, J, X->C, lp);
        arb_mat_get_mid(X->C, C);
        arb_mat_sub(D, C, X->C, lp);
        mat_vec(t, D, X->r0, n, lp);
        _arb_vec_add(E, E, t, n, lp);
        arb_mat_clear(C);
        arb_mat_clear(D);
    }
    if (X->wrap == HDO_CERTIFY_WRAP_INTERVAL) {
        /* A stays I: r := J r + E, a box again */
        mat_vec(t, M, X->r, n, lp);
        _arb_vec_add(X->r, t, E, n, lp);
    } else {
        orthonormal_frame(Q, M, X->r, n, lp);
        if (!arb_mat_inv(Qi, Q, lp)) {
            /* Q numerically singular (cannot happen for an orthonormal
               frame; kept safe): wrap into a box */
            arb_mat_one(Q);
            arb_mat_one(Qi);
        }
        arb_mat_mul(QM, Qi, M, lp);
        mat_vec(t, QM, X->r, n, lp);
        mat_vec(X->r, Qi, E, n, lp);
        _arb_vec_add(X->r, X->r, t, n, lp);
        arb_mat_swap(X->A, Q);
    }
    arb_mat_clear(M);
    arb_mat_clear(Q);
    arb_mat_clear(Qi);
    arb_mat_clear(QM);
    _arb_vec_clear(E, n + 1);
    _arb_vec_clear(t, n + 1);
}

void
cert_set_copy(cert_set_t Y, const cert_set_t X)
{
    HDO_ASSERT(Y->n == X->n);
    Y->wrap = X->wrap;
    _arb_vec_set(Y->c, X->c, X->n);
    _arb_vec_set(Y->r, X->r, X->n);
    _arb_vec_set(Y->r0, X->r0, X->n);
    arb_mat_set(Y->A, X->A);
    arb_mat_set(Y->C, X->C);
}
