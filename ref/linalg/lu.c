/* lu.c -- LU factorisation with partial pivoting and triangular solves */
#include "linalg.h"
#include "expr.h"
#include "status.h"

int
hdo_lu_factor(hdo_mat_t A, slong *perm)
{
    slong n = A->rows, i, j, k, p;
    mpfr_t amax, thresh, f, t;
    int status = 0;

    HDO_ASSERT(A->rows == A->cols);
    mpfr_inits2(A->prec, amax, thresh, f, t, (mpfr_ptr)0);
    mpfr_set_zero(amax, 1);
    for (i = 0; i < n * n; i++)
        if (mpfr_cmpabs(A->entries + i, amax) > 0)
            mpfr_abs(amax, A->entries + i, MPFR_RNDN);
    /* Pivots below this are rounding noise of a singular matrix, not
       information (see the header). */
    mpfr_mul_2si(thresh, amax, -(long)(A->prec / 2), MPFR_RNDN);

    for (i = 0; i < n; i++)
        perm[i] = i;
    for (k = 0; k < n; k++) {
        p = k;
        for (i = k + 1; i < n; i++)
            if (mpfr_cmpabs(hdo_mat_entry(A, i, k), hdo_mat_entry(A, p, k)) > 0)
                p = i;
        if (mpfr_zero_p(hdo_mat_entry(A, p, k)) ||
            mpfr_cmpabs(hdo_mat_entry(A, p, k), thresh) < 0) {
            status = HDO_ERR_SINGULAR;
            break;
        }
        if (p != k) {
            slong tp = perm[p];
            perm[p] = perm[k];
            perm[k] = tp;
            for (j = 0; j < n; j++)
                mpfr_swap(hdo_mat_entry(A, p, j), hdo_mat_entry(A, k, j));
        }
        for (i = k + 1; i < n; i++) {
            mpfr_div(f, hdo_mat_entry(A, i, k), hdo_mat_entry(A, k, k),
                     MPFR_RNDN);
            mpfr_set(hdo_mat_entry(A, i, k), f, MPFR_RNDN);
            if (mpfr_zero_p(f))
                continue;
            for (j = k + 1; j < n; j++) {
                mpfr_mul(t, f, hdo_mat_entry(A, k, j), MPFR_RNDN);
                mpfr_sub(hdo_mat_entry(A, i, j), hdo_mat_entry(A, i, j), t,
                         MPFR_RNDN);
            }
        }
    }
    mpfr_clears(amax, thresh, f, t, (mpfr_ptr)0);
    return status;
}

/* 1 or -1 when a is exactly that, else 0: exponent 1 and the
   significand 0.1000...0 in binary (its top limb the high bit alone,
   the others zero; mpfr_cmpabs_ui cost more than the product saved). */
static inline int
unit_sign(mpfr_srcptr a)
{
    if (!mpfr_regular_p(a) || mpfr_get_exp(a) != 1)
        return 0;
    const mp_limb_t *d = mpfr_custom_get_significand(a);
    slong n = (slong)((mpfr_get_prec(a) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    if (d[n - 1] != (mp_limb_t)1 << (GMP_NUMB_BITS - 1))
        return 0;
    for (slong k = 0; k < n - 1; k++)
        if (d[k] != 0)
            return 0;
    return mpfr_sgn(a);
}

/* x is finite (a zero or a regular number): mpfr_number_p without the
   call */
#define FINITE(x) (mpfr_zero_p(x) || mpfr_regular_p(x))

/* y_i -= a y_j where the product is an exact zero (a or y_j zero, the
   other finite); 0 when it is not, or y_i is not finite (the rounded
   operations then).  A nonzero y_i keeps its bits (y_i - 0 is y_i); a
   zero y_i stays a zero by the subtraction's sign rule (round to
   nearest: -0 only for (-0) - (+0)), so only (-0) - (-0) changes it,
   to +0, the product's sign being the xor of the factors'.  The Taylor
   expansion's b has a nonzero or two among zeros (a circuit's equations
   A = 0): most of its updates are zeros from zeros (D-120). */
static inline int
zero_update(mpfr_ptr yi, mpfr_srcptr a, mpfr_srcptr yj)
{
    if (!((mpfr_zero_p(a) && FINITE(yj)) || (mpfr_zero_p(yj) && FINITE(a))))
        return 0;
    if (mpfr_zero_p(yi)) {
        if (mpfr_signbit(yi) && mpfr_signbit(a) != mpfr_signbit(yj))
            mpfr_setsign(yi, yi, 0, MPFR_RNDN);
        return 1;
    }
    return mpfr_regular_p(yi);
}

/* y_i -= a y_j where zero_update did not apply.  For a = +-1 the
   product a y_j is exact (t has y_j's precision), so y_i -+ y_j rounds
   the same number once: the same bits, zeros' signs included (x - (-y)
   is x + y).  *init: whether t is initialised (at prec: the first
   product does it, most solves have none).  The operations on the limbs
   where they can (hdo_mul_rn: MPFR's bits, decisions.md D-132). */
static void
sub_product(mpfr_ptr yi, mpfr_srcptr a, mpfr_srcptr yj, mpfr_t t, int *init,
            mpfr_prec_t prec, const hdo_erange *er)
{
    int u = unit_sign(a);
    if (u > 0 && mpfr_get_prec(yj) <= prec) {
        hdo_sub_rn(yi, yi, yj, er);
        return;
    }
    if (u < 0 && mpfr_get_prec(yj) <= prec) {
        hdo_add_rn(yi, yi, yj, er);
        return;
    }
    if (!*init) {
        mpfr_init2(t, prec);
        *init = 1;
    }
    hdo_mul_rn(t, a, yj, er);
    hdo_sub_rn(yi, yi, t, er);
}

void
hdo_lu_solve(mpfr_ptr b, const hdo_mat_t LU, const slong *perm)
{
    slong n = LU->rows, i, j;
    mpfr_prec_t prec = mpfr_get_prec(b);
    mpfr_ptr y = b;
    mpfr_t t;
    int same = 1, tinit = 0;
    hdo_erange er;

    if (n == 0)
        return;
    hdo_erange_get(&er);
    for (i = 1; i < n; i++)
        same &= mpfr_get_prec(b + i) == prec;
    if (same) {
        /* y_i = b_perm[i] in place, by exchanges (the values move with
           their precision, the same for all): no copies to allocate on
           every solve (the Taylor expansion's unknowns, order by order) */
        for (i = 0; i < n; i++) {
            slong k = perm[i];
            while (k < i)
                k = perm[k];
            if (k != i)
                mpfr_swap(b + i, b + k);
        }
    } else {
        y = hdo_vec_init(n, prec);
        for (i = 0; i < n; i++)
            mpfr_set(y + i, b + perm[i], MPFR_RNDN);
    }
    /* Forward substitution with the unit lower triangle. */
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (!zero_update(y + i, hdo_mat_entry(LU, i, j), y + j))
                sub_product(y + i, hdo_mat_entry(LU, i, j), y + j, t, &tinit,
                            prec, &er);
    /* Back substitution with the upper triangle. */
    for (i = n - 1; i >= 0; i--) {
        for (j = i + 1; j < n; j++)
            if (!zero_update(y + i, hdo_mat_entry(LU, i, j), y + j))
                sub_product(y + i, hdo_mat_entry(LU, i, j), y + j, t, &tinit,
                            prec, &er);
        /* y_i / +-1 at y_i's own precision is exact: y_i or -y_i */
        mpfr_srcptr d = hdo_mat_entry(LU, i, i);
        int u = unit_sign(d);
        if (mpfr_zero_p(y + i) && mpfr_regular_p(d)) {
            /* a zero over a nonzero number: the zero, its sign the
               xor of the two (the division's rule) */
            if (mpfr_signbit(d))
                mpfr_neg(y + i, y + i, MPFR_RNDN);
        } else if (u < 0) {
            mpfr_neg(y + i, y + i, MPFR_RNDN);
        } else if (u == 0) {
            mpfr_div(y + i, y + i, d, MPFR_RNDN);
        }
    }
    if (!same) {
        hdo_vec_set(b, y, n);
        hdo_vec_clear(y, n);
    }
    if (tinit)
        mpfr_clear(t);
}
