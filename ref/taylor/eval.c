/* dense output: the Taylor polynomials of the last expansion evaluated as
 * fused dot products with the powers of h */
#include "internal.h"

/* Why dot products.  Horner's rule rounds once per order (p + 1
   multiply-adds per component: 81% of the FPU chain's run, issue 28).
   The powers h^j are shared by every component of a point: computed
   once (p roundings), each component is then one fused dot product
   sum_j c_j h^j (hdo_conv_fused: the products summed in one window,
   rounded once), about a third of the instructions of a Horner step a
   term.  The error is Horner's kind: at most (j - 1) 2^-prec relative
   in h^j's term plus half an ulp (and the window's (2n + 1) (p + 1)
   2^-(prec + 61) of the largest term, n limbs: D-108), against Horner's
   one rounding per order; not its bits (decisions.md D-091). */

/* The powers of h for one point, on the stack: the fused products take
   at most 256 bits (4 limbs), where the order is at most 90. */
#define PW_MAX 128
#define PW_LIMBS 4
typedef struct {
    mpfr_t v[PW_MAX];
    mp_limb_t limbs[PW_MAX * PW_LIMBS];
    int ok; /* 0: none (above 256 bits or PW_MAX orders): Horner */
} pow_buf;

/* pw->v[p - j] := h^j, j = 0..p (reversed: the second operand of the
   Cauchy product sum_j c[j] v[p - j]), at prec. */
static void
powers(pow_buf *pw, slong p, const mpfr_t h, mpfr_prec_t prec)
{
    pw->ok = prec <= PW_LIMBS * GMP_NUMB_BITS && p + 1 <= PW_MAX;
    if (!pw->ok)
        return;
    for (slong j = 0; j <= p; j++) {
        mpfr_custom_init(pw->limbs + j * PW_LIMBS, prec);
        mpfr_custom_init_set(pw->v[j], MPFR_ZERO_KIND, 0, prec,
                             pw->limbs + j * PW_LIMBS);
    }
    hdo_powers_rn(pw->v, p, h); /* mpfr_mul's bits, on the limbs: D-110 */
}

/* out[i] := sum_k c[i len + k] h^k for i < n, k < len <= p + 1, from
   the reversed powers of order p; Horner's rule through acc where the
   fused product does not apply (more than 256 bits, an infinity). */
static void
dot(mpfr_ptr out, const mpfr_t *c, slong n, slong len, const pow_buf *pw,
    slong p, const mpfr_t h, mpfr_t acc)
{
    const mpfr_t *v = pw->v + (p + 1 - len); /* v[len - 1 - j] = h^j */
    for (slong i = 0; i < n; i++)
        if (!pw->ok || hdo_conv_fused(out + i, c + i * len, v, len - 1, 0,
                                      len - 1, 0) != 0)
            hdo_horner_rn(out + i, c + i * len, len, h, acc);
}

void
hdo_taylor_eval(mpfr_ptr xs, mpfr_ptr xu, mpfr_ptr g, const hdo_taylor_t tay,
                const mpfr_t h)
{
    mpfr_t acc;
    slong p = tay->order;
    pow_buf pw;
    HDO_ASSERT(tay->expanded);
    mpfr_init2(acc, tay->prec);
    powers(&pw, p, h, tay->prec);
    if (xs != NULL)
        dot(xs, tay->state_coef, tay->red->nstate, p + 1, &pw, p, h, acc);
    if (xu != NULL && tay->nlazy > 0) {
        /* needed unknowns to the full order, lazy ones to theirs */
        for (slong j = 0; j < tay->red->nimplicit; j++)
            dot(xu + j, tay->unknown_coef + j * (p + 1), 1,
                tay->lazy[j] ? HDO_TAYLOR_LAZY_ORDER + 1 : p + 1, &pw, p, h,
                acc);
    } else if (xu != NULL) {
        dot(xu, tay->unknown_coef, tay->red->nimplicit, p + 1, &pw, p, h, acc);
    }
    if (xu != NULL) {
        if (tay->nlazy > 0) {
            /* the lazy unknowns' truncated series is a guess: solved from
               the states at the point; the solve's scratch and its sticky
               failure are not part of the expansion (hence the cast) */
            mpfr_ptr s = xs;
            if (s == NULL) {
                s = hdo_vec_init(tay->red->nstate, tay->prec);
                dot(s, tay->state_coef, tay->red->nstate, p + 1, &pw, p, h,
                    acc);
            }
            hdo_taylor_lazy_solve(xu, (hdo_taylor_struct *)tay, s, h);
            if (s != xs)
                hdo_vec_clear(s, tay->red->nstate);
        }
    }
    if (g != NULL)
        dot(g, tay->guard_coef, tay->nguards, p + 1, &pw, p, h, acc);
    mpfr_clear(acc);
}

void
hdo_taylor_eval_extra(mpfr_ptr e, const hdo_taylor_t tay, const mpfr_t h)
{
    mpfr_t acc;
    slong p = tay->order;
    pow_buf pw;
    HDO_ASSERT(tay->expanded);
    mpfr_init2(acc, tay->prec);
    powers(&pw, p, h, tay->prec);
    dot(e, tay->extra_coef, tay->nextra, p + 1, &pw, p, h, acc);
    mpfr_clear(acc);
}
