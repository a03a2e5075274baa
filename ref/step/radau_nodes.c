/* radau_nodes.c -- the Radau IIA tableau with s stages in MPFR: nodes,
 * collocation matrix A, and the interpolation matrix of the dense output */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include "radau.h"

/* q(x) = P_s(x) - P_{s-1}(x) (Legendre) and q'(x), by the three-term
   recurrence (n + 1) P_{n+1} = (2n + 1) x P_n - n P_{n-1} and
   (x^2 - 1) P_n' = n (x P_n - P_{n-1}); the Radau IIA nodes are
   c = (1 + x) / 2 for the s roots x of q, the last x = 1. */
static void
radau_q(mpfr_t q, mpfr_t dq, const mpfr_t x, slong s)
{
    mpfr_prec_t prec = mpfr_get_prec(q);
    mpfr_t p0, p1, p2, t, d1, d0;
    mpfr_inits2(prec, p0, p1, p2, t, d1, d0, (mpfr_ptr)0);
    mpfr_set_ui(p0, 1, MPFR_RNDN); /* P_0 */
    mpfr_set(p1, x, MPFR_RNDN);    /* P_1 */
    for (slong n = 1; n < s; n++) {
        mpfr_mul(t, x, p1, MPFR_RNDN);
        mpfr_mul_ui(t, t, 2 * n + 1, MPFR_RNDN);
        mpfr_mul_ui(p2, p0, n, MPFR_RNDN);
        mpfr_sub(p2, t, p2, MPFR_RNDN);
        mpfr_div_ui(p2, p2, n + 1, MPFR_RNDN);
        mpfr_swap(p0, p1);
        mpfr_swap(p1, p2);
    }
    /* p1 = P_s, p0 = P_{s-1}; P_{s-2} for P_{s-1}' */
    mpfr_sub(q, p1, p0, MPFR_RNDN);
    if (dq != NULL) {
        /* P_{s-2} from the recurrence backwards: s P_s = (2s-1) x P_{s-1}
           - (s-1) P_{s-2} */
        mpfr_t pm2, x2;
        mpfr_inits2(prec, pm2, x2, (mpfr_ptr)0);
        if (s >= 2) {
            mpfr_mul(t, x, p0, MPFR_RNDN);
            mpfr_mul_ui(t, t, 2 * s - 1, MPFR_RNDN);
            mpfr_mul_ui(pm2, p1, s, MPFR_RNDN);
            mpfr_sub(pm2, t, pm2, MPFR_RNDN);
            mpfr_div_ui(pm2, pm2, s - 1, MPFR_RNDN);
        } else {
            mpfr_set_ui(pm2, 0, MPFR_RNDN);
        }
        mpfr_sqr(x2, x, MPFR_RNDN);
        mpfr_sub_ui(x2, x2, 1, MPFR_RNDN);
        /* d1 = P_s' (x^2 - 1), d0 = P_{s-1}' (x^2 - 1) */
        mpfr_mul(d1, x, p1, MPFR_RNDN);
        mpfr_sub(d1, d1, p0, MPFR_RNDN);
        mpfr_mul_ui(d1, d1, s, MPFR_RNDN);
        mpfr_mul(d0, x, p0, MPFR_RNDN);
        mpfr_sub(d0, d0, pm2, MPFR_RNDN);
        mpfr_mul_ui(d0, d0, s - 1, MPFR_RNDN);
        mpfr_sub(dq, d1, d0, MPFR_RNDN);
        mpfr_div(dq, dq, x2, MPFR_RNDN);
        mpfr_clears(pm2, x2, (mpfr_ptr)0);
    }
    mpfr_clears(p0, p1, p2, t, d1, d0, (mpfr_ptr)0);
}

static double
radau_q_d(double x, slong s)
{
    double p0 = 1, p1 = x;
    for (slong n = 1; n < s; n++) {
        double p2 = ((2 * n + 1) * x * p1 - n * p0) / (n + 1);
        p0 = p1;
        p1 = p2;
    }
    return p1 - p0;
}

int
hdo_radau_nodes(mpfr_ptr c, slong s)
{
    mpfr_prec_t prec = mpfr_get_prec(c);
    slong found = 0, grid = 400 * s;
    mpfr_t x, q, dq, dx, tol;
    mpfr_inits2(prec, x, q, dq, dx, tol, (mpfr_ptr)0);
    /* brackets of the s - 1 interior roots in double, bisected to
       1e-14, then Newton in MPFR (quadratic: a few iterations). */
    double a = -1, fa = radau_q_d(-1, s);
    for (slong k = 1; k <= grid && found < s - 1; k++) {
        double b = -1 + 2.0 * (double)k / (double)grid, fb;
        if (b > 1 - 1e-9)
            b = 1 - 1e-9;
        fb = radau_q_d(b, s);
        if ((fa < 0) != (fb < 0)) {
            double lo = a, hi = b, flo = fa;
            for (int it = 0; it < 60 && hi - lo > 1e-15; it++) {
                double mid = 0.5 * (lo + hi), fm = radau_q_d(mid, s);
                if ((fm < 0) == (flo < 0)) {
                    lo = mid;
                    flo = fm;
                } else {
                    hi = mid;
                }
            }
            mpfr_set_d(x, 0.5 * (lo + hi), MPFR_RNDN);
            for (int it = 0; it < 64; it++) {
                radau_q(q, dq, x, s);
                mpfr_div(dx, q, dq, MPFR_RNDN);
                mpfr_sub(x, x, dx, MPFR_RNDN);
                mpfr_mul_2si(tol, x, 4 - (long)prec, MPFR_RNDN);
                if (mpfr_cmpabs(dx, tol) <= 0 || mpfr_zero_p(dx))
                    break;
            }
            /* c = (1 + x) / 2 */
            mpfr_add_ui(c + found, x, 1, MPFR_RNDN);
            mpfr_div_2ui(c + found, c + found, 1, MPFR_RNDN);
            found++;
        }
        a = b;
        fa = fb;
    }
    mpfr_set_ui(c + s - 1, 1, MPFR_RNDN);
    mpfr_clears(x, q, dq, dx, tol, (mpfr_ptr)0);
    return found == s - 1 ? 0 : HDO_ERR_NO_CONVERGENCE;
}

int
hdo_radau_matrix(hdo_mat_t A, mpfr_srcptr c, slong s)
{
    mpfr_prec_t prec = A->prec;
    hdo_mat_t G;
    slong *perm = malloc(s * sizeof(slong));
    mpfr_ptr r = hdo_vec_init(s, prec);
    int st;
    HDO_ASSERT(perm != NULL);
    /* G_kj = c_j^k, k = 0..s-1: a_i solves G a_i = (c_i^(k+1) / (k+1))_k,
       the exact integrals of the monomials over [0, c_i]. */
    hdo_mat_init(G, s, s, prec);
    for (slong j = 0; j < s; j++) {
        mpfr_set_ui(hdo_mat_entry(G, 0, j), 1, MPFR_RNDN);
        for (slong k = 1; k < s; k++)
            mpfr_mul(hdo_mat_entry(G, k, j), hdo_mat_entry(G, k - 1, j), c + j,
                     MPFR_RNDN);
    }
    st = hdo_lu_factor(G, perm);
    for (slong i = 0; i < s && st == 0; i++) {
        mpfr_t pw;
        mpfr_init2(pw, prec);
        mpfr_set(pw, c + i, MPFR_RNDN);
        for (slong k = 0; k < s; k++) {
            mpfr_div_ui(r + k, pw, k + 1, MPFR_RNDN);
            mpfr_mul(pw, pw, c + i, MPFR_RNDN);
        }
        mpfr_clear(pw);
        hdo_lu_solve(r, G, perm);
        for (slong j = 0; j < s; j++)
            mpfr_set(hdo_mat_entry(A, i, j), r + j, MPFR_RNDN);
    }
    hdo_mat_clear(G);
    hdo_vec_clear(r, s);
    free(perm);
    return st;
}

slong
hdo_radau_stages(mpfr_prec_t prec)
{
    /* The dense output is a polynomial of degree s; the error estimate
       behaves as h^(s-1), so the step is about tol^(1/(s-1)) times the
       solution's time scale, with tol = 10^-(D+5) (D = prec / log2(10)
       - 10).  Up to 30 digits, s = min(D/2 + 9, 24): with the Newton
       solve cheap (radau_block.c), fewer and longer steps win (Van der
       Pol mu = 1000 at 30 digits, CPU: 18 stages 2,218 steps 0.85 s,
       24 stages 702 steps 0.57 s, 30 stages 434 steps 0.77 s;
       decisions.md D-081).  Beyond, s = ceil(24 (D + 5) / 35): the same
       (D + 5)/(s - 1) as 24 stages at 30 digits, so the step, and the
       number of steps, stay those of 30 digits (issue #28: D/2 + 3
       made tol^(1/(s-1)) 0.03 at 30 digits but 0.009 at 60 and 100,
       593 -> 1,691 steps).  At most HDO_RADAU_MAX_STAGES (200, from
       287 digits on: the nodes' scan brackets them up to 200, and the
       Schur form was measured to 200).  Until D-105 the rule stopped at
       64: 68 stages collapsed the step at Van der Pol's first steps, as
       the Schur form of A, computed from its eigenvectors at 64 + 2 s
       bits, held NaNs from 66 stages on (radau_schur.c). */
    slong d = (slong)((double)prec / 3.3219280948873623) - 10;
    slong s, t = d / 2 + 9;
    if (t > 24)
        t = 24;
    s = d <= 30 ? t : (24 * (d + 5) + 34) / 35;
    if (s > HDO_RADAU_MAX_STAGES)
        s = HDO_RADAU_MAX_STAGES;
    return s < 3 ? 3 : s;
}

void
hdo_radau_horner_acc(mpfr_ptr out, mpfr_ptr acc, const mpfr_t *c, slong s,
                     const mpfr_t h)
{
    hdo_erange er;
    hdo_erange_get(&er);
    mpfr_set(acc, c[s], MPFR_RNDN);
    /* on the limbs where they can: MPFR's bits (decisions.md D-132) */
    for (slong k = s - 1; k >= 0; k--) {
        hdo_mul_rn(acc, acc, h, &er);
        hdo_add_rn(acc, acc, c[k], &er);
    }
    mpfr_set(out, acc, MPFR_RNDN);
}

void
hdo_radau_horner(mpfr_ptr out, const mpfr_t *c, slong s, const mpfr_t h,
                 mpfr_prec_t wprec)
{
    mpfr_t acc, hw;
    mpfr_init2(acc, wprec);
    if (mpfr_get_prec(h) < wprec) {
        /* h (the driver's offset, at the run's precision) at wprec: the
           same value, so the same products, and those on the limbs
           (decisions.md D-132) */
        mpfr_init2(hw, wprec);
        mpfr_set(hw, h, MPFR_RNDN);
        hdo_radau_horner_acc(out, acc, c, s, hw);
        mpfr_clear(hw);
    } else {
        hdo_radau_horner_acc(out, acc, c, s, h);
    }
    mpfr_clear(acc);
}

void
hdo_radau_node_poly(mpfr_ptr a, mpfr_srcptr c, slong s)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(a));
    /* one factor (x - c_k) at a time: a_i := a_(i-1) - c_k a_i */
    mpfr_set_ui(a + 0, 1, MPFR_RNDN);
    for (slong k = 0; k < s; k++) {
        mpfr_set(a + k + 1, a + k, MPFR_RNDN);
        for (slong i = k; i >= 1; i--) {
            mpfr_mul(t, c + k, a + i, MPFR_RNDN);
            mpfr_sub(a + i, a + i - 1, t, MPFR_RNDN);
        }
        mpfr_mul(a + 0, a + 0, c + k, MPFR_RNDN);
        mpfr_neg(a + 0, a + 0, MPFR_RNDN);
    }
    mpfr_clear(t);
}

int
hdo_radau_interp_inverse(hdo_mat_t Ci, long *e, mpfr_srcptr c, slong s)
{
    /* C = diag(c) V with V_mk = c_m^k, so C^-1 = V^-1 diag(c)^-1, and
       column m of V^-1 holds the coefficients of the Lagrange polynomial
       l_m = q_m / q_m(c_m), q_m = P / (x - c_m), P = prod_k (x - c_k)
       (Traub's algorithm): P's coefficients once, then q_m by synthetic
       division and q_m(c_m) = prod_{k != m} (c_m - c_k): 5/2 s^2 products and
       s^2 divisions where an LU and s solves took 4/3 s^3 (0.87e9 instructions
       of Van der Pol's 100-digit run; decisions.md D-145).  The entries are
       huge and alternate in sign, so the division cancels: computed 4 s + 64
       bits beyond Ci's precision, as the LU was, and each rounded once to it
       (the unit test holds them to Arb's inverse). */
    mpfr_prec_t p = mpfr_get_prec(hdo_mat_entry(Ci, 0, 0)) + 4 * s + 64;
    mpfr_ptr a = hdo_vec_init(s + 1, p), b = hdo_vec_init(s, p);
    mpfr_t d, t;
    mpfr_inits2(p, d, t, (mpfr_ptr)0);
    hdo_radau_node_poly(a, c, s);
    int st = 0;
    *e = LONG_MIN;
    for (slong m = 0; m < s && st == 0; m++) {
        /* q_m = P / (x - c_m): b_(s-1) = a_s, b_(k-1) = a_k + c_m b_k */
        mpfr_set(b + s - 1, a + s, MPFR_RNDN);
        for (slong k = s - 1; k >= 1; k--) {
            mpfr_mul(t, c + m, b + k, MPFR_RNDN);
            mpfr_add(b + k - 1, a + k, t, MPFR_RNDN);
        }
        /* d = c_m prod_{k != m} (c_m - c_k) */
        mpfr_set(d, c + m, MPFR_RNDN);
        for (slong k = 0; k < s; k++)
            if (k != m) {
                mpfr_sub(t, c + m, c + k, MPFR_RNDN);
                mpfr_mul(d, d, t, MPFR_RNDN);
            }
        if (!mpfr_regular_p(d)) {
            st = -1; /* equal nodes, or a node at 0: C singular */
            break;
        }
        for (slong i = 0; i < s; i++) {
            mpfr_ptr x = hdo_mat_entry(Ci, i, m);
            mpfr_div(x, b + i, d, MPFR_RNDN);
            if (!mpfr_number_p(x))
                st = -1;
            else if (!mpfr_zero_p(x) && mpfr_get_exp(x) > *e)
                *e = mpfr_get_exp(x);
        }
    }
    if (st == 0 && *e == LONG_MIN)
        st = -1;
    for (slong i = 0; i < s * s && st == 0; i++)
        mpfr_mul_2si(hdo_mat_entry(Ci, i / s, i % s),
                     hdo_mat_entry(Ci, i / s, i % s), -*e, MPFR_RNDN);
    mpfr_clears(d, t, (mpfr_ptr)0);
    hdo_vec_clear(a, s + 1);
    hdo_vec_clear(b, s);
    return st;
}
