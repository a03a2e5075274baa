/* radau_dense.c -- the Radau IIA step's dense output: the stages'
 * interpolating polynomial, its defect bound, and the last accepted
 * step's polynomial as the next step's predictor */
#include "radau_stepper.h"

/* Whether the predictor's dot products cost less than Horner's rule:
   V's (s + 1)^2 powers and their integers cost about Horner's sums of
   one component, so they pay from three components (Van der Pol, two
   components at 30 digits: about even), and only up to PREDICT_COLS =
   6 limbs, where product scanning stopped then (beyond it, mpn_addmul_1
   a limb: twice Horner's cost, measured at 10 limbs, decisions.md D-139;
   the coefficients are prec/2 + 64 bits since D-142, so that limit moved
   from about 50 to about 75 digits, by the limb count).  The limit stays
   6 limbs though product scanning now goes to 12 (D-143): between them
   the choice was not measured, and it would move those runs' bits.  The
   powers' exponent bounded by tau's: s e. */
#define PREDICT_COLS 6
static int
predict_by_dots(const radau *r, mpfr_srcptr tau, long prec)
{
    long e = 1;
    for (slong m = 0; m <= r->s; m++)
        if (mpfr_regular_p(tau + m) && mpfr_get_exp(tau + m) > e)
            e = mpfr_get_exp(tau + m);
    long vexp = e * (long)r->s + 1;
    return r->N >= 3 && (prec + vexp + 63) / 64 <= PREDICT_COLS;
}

/* Pout_mi := sum_k PF_ki tau_m^k by Horner's rule with the abscissa
   and the sums at the coefficients' precision (one precision: the
   products and sums on the limbs, MPFR's bits, D-132). */
static void
predict_by_horner(radau *r, mpfr_srcptr tau)
{
    slong N = r->N, s = r->s;
    hdo_erange er;
    hdo_erange_get(&er);
    mpfr_t acc, x;
    mpfr_inits2(mpfr_get_prec(r->PF), acc, x, (mpfr_ptr)0);
    for (slong m = 0; m <= s; m++) {
        mpfr_set(x, tau + m, MPFR_RNDN);
        for (slong i = 0; i < N; i++) {
            mpfr_set(acc, r->PF + s * N + i, MPFR_RNDN);
            for (slong k = s - 1; k >= 0; k--) {
                hdo_mul_rn(acc, acc, x, &er);
                hdo_add_rn(acc, acc, r->PF + k * N + i, &er);
            }
            mpfr_set(r->Pout + m * N + i, acc, MPFR_RNDN);
        }
    }
    mpfr_clears(acc, x, (mpfr_ptr)0);
}

/* Z_i := p(t0 - tprev + c_i h) - y0, p the last accepted step's
   polynomial, when this step continues it (t0 = tprev + hprev and p
   ends at y0); else Z := 0.  Returns 1 when it predicted.

   Why as dot products.  p(tau) = y0' + sum_k b_k tau^k in the last
   step's tau = (t - tprev)/hprev (y0' its start), so the predictions
   are one matrix product: row m of V = (1, tau_m, .., tau_m^s) at the
   s stages and at tau = ds/hprev (the end, which must meet y0) times
   the columns (y0' - y0, b_1, .., b_s), each entry one exact dot
   product rounded once (radau_dot.c).  Horner's rule in MPFR took s
   roundings of (s + 1) N evaluations a try, 13% of the ring
   modulator's instructions at 16 digits (decisions.md D-139); it stays
   where the products would cost more (predict_by_dots). */
int
hdo_radau_predict(radau *r)
{
    slong N = r->N, s = r->s, s1 = s + 1;
    int ok = r->have_prev;
    mpfr_prec_t pp = mpfr_get_prec(r->PF);
    mpfr_t ds, d, x;
    mpfr_inits2(r->wprec, ds, d, x, (mpfr_ptr)0);
    mpfr_sub(ds, r->t0, r->tprev, MPFR_RNDN);
    mpfr_sub(d, ds, r->hprev, MPFR_RNDN);
    mpfr_mul_2si(x, r->hprev, -20, MPFR_RNDN);
    if (ok && (mpfr_sgn(ds) <= 0 || mpfr_cmpabs(d, x) > 0))
        ok = 0;
    if (ok) {
        /* the new stages' tau, and the end's, in the last step's */
        mpfr_ptr tau = r->Ptau;
        for (slong m = 0; m < s1; m++) {
            if (m < s)
                mpfr_mul(x, r->c + m, r->h, MPFR_RNDN);
            else
                mpfr_set_ui(x, 0, MPFR_RNDN);
            mpfr_add(x, x, ds, MPFR_RNDN);
            mpfr_div(tau + m, x, r->hprev, MPFR_RNDN);
        }
        for (slong i = 0; i < N; i++)
            mpfr_sub(r->PF + i, r->prev_y0 + i, r->y0 + i, MPFR_RNDN);
        /* the columns' rounding 2^-(pp + 8) of their largest
           coefficient whatever the powers' size, the powers' relative
           to each term, as Horner's roundings at pp bits were; the sum
           rounded once */
        if (predict_by_dots(r, tau, (long)pp + 8))
            hdo_radau_dot_powers(r->Pout, &r->Pd, tau, r->PF, (long)pp + 8);
        else
            predict_by_horner(r, tau);
        hdo_radau_scales(r->sc, r->y0, NULL, r->floor, N, s);
        for (slong i = 0; i < N && ok; i++) {
            mpfr_mul_2si(x, r->sc + i, -(long)r->prec / 2, MPFR_RNDN);
            ok = mpfr_cmpabs(r->Pout + s * N + i, x) <= 0;
        }
    }
    for (slong k = 0; k < s * N; k++)
        if (ok)
            mpfr_swap(r->Z + k, r->Pout + k);
        else
            mpfr_set_ui(r->Z + k, 0, MPFR_RNDN);
    mpfr_clears(ds, d, x, (mpfr_ptr)0);
    return ok;
}

/* Each component's polynomial through (0, y0_i), (c_m, y0_i + Z_mi) in
   tau = (t - t0)/h, converted to t - t0: state_coef[i][k] = b_k / h^k,
   b_0 = y0_i and b_1..b_s = 2^cexp Ci Z_i, each one dot product rounded
   once (radau_dot.c, the scale 2^cexp on the exact sum: b itself, not a
   scaled intermediate, meets the exponent range), times h^-k, whose
   powers are rounded once for all N (decisions.md D-136).  The stages
   are numbers here (the step's error estimate read them). */
void
hdo_radau_interpolate(radau *r)
{
    slong N = r->N, s = r->s;
    mpfr_ptr hk = hdo_vec_init(s, r->wprec); /* h^-1 .. h^-s */
    mpfr_ui_div(hk + 0, 1, r->h, MPFR_RNDN);
    for (slong k = 1; k < s; k++)
        mpfr_mul(hk + k, hk + k - 1, hk + 0, MPFR_RNDN);
    /* Z_i's integers at wprec bits below its largest stage */
    hdo_radau_dot_apply(r->B, &r->Cd, r->Z, N, (long)r->wprec, r->cexp);
    hdo_erange er;
    hdo_erange_get(&er);
    for (slong i = 0; i < N; i++) {
        mpfr_t *dst = r->state_coef + i * (s + 1);
        mpfr_set(dst[0], r->y0 + i, MPFR_RNDN);
        for (slong k = 1; k <= s; k++)
            hdo_mul_rn(dst[k], r->B + (k - 1) * N + i, hk + k - 1, &er);
    }
    hdo_vec_clear(hk, s);
}

/* dd := the defect bound of each state's dense output (radau_error.c),
   from f at the two sample points; returns 0, or -1 when f is not
   defined there (the step then goes by hdo_radau_top_term alone). */
int
hdo_radau_defect_bound(radau *r)
{
    slong N = r->N, s = r->s;
    hdo_program_struct *prog = r->f0;
    mpfr_t x, t;
    hdo_expr bad;
    int st = 0;
    mpfr_inits2(r->wprec, x, t, (mpfr_ptr)0);
    for (slong i = 0; i < N; i++)
        mpfr_set_nan(r->dd + i);
    for (int k = 0; k < 2 && st == 0; k++) {
        mpfr_mul(x, r->dfx.tau[k], r->h, MPFR_RNDN);
        for (slong i = 0; i < N; i++)
            hdo_radau_value_slope(r->du + i, r->dslope + i,
                                  r->state_coef + i * (s + 1), s, x, r->wprec);
        mpfr_add(t, r->t0, x, MPFR_RNDN);
        hdo_radau_set_inputs(r, prog, r->f0in, t, r->du);
        st = hdo_program_eval(prog, &bad) != 0 ? -1 : 0;
        for (slong i = 0; i < r->n && st == 0; i++)
            mpfr_set(r->du + i, prog->value[prog->root_slot[i]], MPFR_RNDN);
        if (st != 0)
            break;
        hdo_radau_defect_raw(r->dx, r->dslope, r->du, r->h, r->n);
        /* filtered with the blocks' J0 while they are factored for h */
        int filt = r->fb_valid && r->lu_valid && !r->lu_full &&
                   mpfr_equal_p(r->hlu, r->h);
        if (filt) {
            for (slong i = 0; i < N; i++)
                mpfr_set(r->dxf + i, r->dx + i, MPFR_RNDN);
            hdo_radau_block_solve(&r->fb, r->dxf);
        }
        hdo_radau_defect_take(r->dd, r->dx, filt ? r->dxf : NULL, r->dfx.R[k],
                              r->dfx.Rf[k], r->n);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
    return st;
}
