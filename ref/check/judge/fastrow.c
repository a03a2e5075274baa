/* fastrow.c -- hdo check's reference rows in double-double: the dense
   output of a step converted once to double-doubles, each sample
   evaluated by a compensated Horner scheme with a rigorous error bound,
   and its double taken only
   when the bound proves it is the double the working-precision
   evaluation rounds to (docs/decisions.md D-096); else the row is left
   to the working precision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* Error-free transformations (round to nearest; no contraction: the
   build is ISO C, where GCC does not fuse a * b + c). */
static inline void
two_sum(double *s, double *e, double a, double b)
{
    double x = a + b, bb = x - a;
    *e = (a - (x - bb)) + (b - bb);
    *s = x;
}

/* x as a double-double: hi the double nearest, lo the double nearest
   the rest, |x - hi - lo| <= u^2 |x| (1 + u). */
static void
mpfr_get_dd(double *hi, double *lo, mpfr_srcptr x, mpfr_t scratch)
{
    *hi = mpfr_get_d(x, MPFR_RNDN);
    if (!isfinite(*hi)) {
        *lo = 0;
        return;
    }
    mpfr_sub_d(scratch, x, *hi, MPFR_RNDN); /* exact: scratch is wide */
    *lo = mpfr_get_d(scratch, MPFR_RNDN);
}

/* Two copies, chosen at load time: one with the FMA instructions (fma()
   inlined) where the processor has them, one calling libm's fma. */
__attribute__((target_clones("fma", "default"))) int
hdo_dd_horner(double *out, const double *ch, const double *cl, slong len,
              double sh, double sl, mpfr_prec_t prec)
{
    const double u = 0x1p-53, u2 = 0x1p-106;
    double ah = 0, al = 0, R = 0, S = 0, as = fabs(sh), x = 0;
    double B, d, r, gap, p = 1;
    slong m = len;
    if (len < 1 || len > 4096)
        return 0;
    /* The zero polynomial (a ball at rest): with every coefficient +0 and
       s >= +0 each working-precision step (+0 s + +0, as a fused or a
       plain multiply and add) is +0. */
    {
        slong k = 0;
        while (k < len && ch[k] == 0 && !signbit(ch[k]) && cl[k] == 0)
            k++;
        if (k == len && !signbit(sh)) {
            *out = 0;
            return 1;
        }
    }
    /* R = sum_k |c_k| |s|^k; the top terms k >= m, together below 2^-70
       R, are summed in doubles (Horner with the FMA), the others in
       double-double: a step's series falls fast with k, and those at the
       top count only far below the double's last bit. */
    {
        double t[4096];
        for (slong k = 0; k < len; k++) {
            t[k] = fabs(ch[k]) * p;
            R += t[k];
            p *= as;
        }
        while (m > 1 && S + t[m - 1] <= 0x1p-70 * R)
            S += t[--m];
    }
    /* The top terms by Horner in doubles (its error: at most 2(n - m) u
       of their sum S, plus their low parts' and s's, 2u S: 4 len u S in
       all, carried down by |s|^m). */
    for (slong k = len - 1; k >= m; k--)
        x = fma(x, sh, ch[k]);
    /* The others by the compensated Horner scheme (Graillat, Langlois,
       Louvet, "Compensated Horner scheme", 2005): r by Horner in doubles,
       the exact errors of each step (pi of the product, TwoProd with the
       FMA; sg of the sum, TwoSum) and the low parts (cl_k, r sl) summed
       by Horner into the correction e; A = r + e exactly.  A - P(s) is
       e's own error: each step's correction term is at most u (2 |r_{k+1}
       s| + |r_k| + |c_k|), whose sum over k weighted by |s|^k is below
       u (3 len + 1) R (1 + gamma); evaluating it (three additions, a
       product and an FMA a step) errs by at most gamma_{2 len + 3} of
       that, and using sh for s by 2 len u^2 R. */
    {
        double rr = x, e = 0;
        for (slong k = m - 1; k >= 0; k--) {
            double pr = rr * sh, pi = fma(rr, sh, -pr);
            double rn = pr + ch[k], bb = rn - pr;
            double sg = (pr - (rn - bb)) + (ch[k] - bb);
            e = fma(e, sh, ((pi + sg) + cl[k]) + rr * sl);
            rr = rn;
        }
        two_sum(&ah, &al, rr, e);
    }
    if (!isfinite(ah) || !isfinite(al) || !(R > 0) || !(R < 1e300))
        return 0;
    /* The bound on |A - P(s)| + |V - P(s)|, P the polynomial of the
       working-precision coefficients at the working-precision s, V the
       working-precision value (at >= prec bits, then set at prec):
       - the top terms in doubles: 4 len u S;
       - the compensated part: u^2 R ((2 len + 3) (3 len + 1) + 2 len),
         gamma_k = k u / (1 - k u) <= 1.001 k u for len <= 4096;
       - coefficients to double-double: u^2 (1 + u) R;
       - s to double-double: |P'| |s| u^2 (1 + u) <= len u^2 R (1 + ...);
       - working precision: Horner (hdo_horner_rn, the implicit
         method's): two roundings a step of at most 2^-prec times what
         they round, summed with |s|^k below (len + 1) R, and the final
         ones; the Taylor method's fused dot product (decisions.md
         D-091): h^j with j - 1 roundings, the sum rounded once, (len +
         1) 2^-prec R: 2^(2 - prec) (3 len + 6) R covers both;
       - underflow in the low parts: 2^-1000 (len + 1);
       all times 1.25 for gamma's 1.001 and the doubles' rounding of this
       sum. */
    {
        double n = (double)len;
        B = 1.25 *
            (4 * n * u * S + u2 * R * ((2 * n + 3) * (3 * n + 1) + 3 * n + 2) +
             ldexp((3 * n + 6) * R, 2 - (int)prec) + ldexp(n + 1, -1000));
    }
    /* Ziv's rounding test (a zero d is refused above: its sign would be
       the working precision's rounding's): d = RN(ah + al) is the double every
       real within B of A rounds to when |A - d| + B is below half the gap to
       the nearer neighbour (strictly: a tie is refused); V is such a
       real, so mpfr_get_d(V) = d.  ah - d is exact (|al| <= ulp(ah) / 2,
       so d is ah or a neighbour), r and r + B are rounded once each:
       2^-50 of the gap covers both. */
    d = ah + al;
    if (!isfinite(d) || fabs(d) < 0x1p-1000)
        return 0;
    r = fabs((ah - d) + al);
    gap = fmin(nextafter(d, INFINITY) - d, d - nextafter(d, -INFINITY));
    if (!(r + B < 0.5 * gap * (1 - 0x1p-50)))
        return 0;
    *out = d;
    return 1;
}

void
hdo_fastrow_init(hdo_fastrow_t f, const slong *var, slong nvar)
{
    memset(f, 0, sizeof *f);
    f->var = var;
    f->nvar = nvar;
    mpfr_init2(f->scratch, 64);
}

void
hdo_fastrow_clear(hdo_fastrow_t f)
{
    free(f->comp);
    free(f->ch);
    free(f->cl);
    mpfr_clear(f->scratch);
    memset(f, 0, sizeof *f);
}

/* Coefficient k of component i (states, then unknowns) of dense. */
static mpfr_srcptr
coef(const hdo_dense_sample *smp, slong i, slong k)
{
    slong len = smp->dense->order + 1, ns = smp->red->nstate;
    return i < ns ? smp->dense->state[i * len + k]
                  : smp->dense->unknown[(i - ns) * len + k];
}

/* The cache for smp's dense output: which state each compared variable
   is (-1: absent from the mode), the coefficients as double-doubles.
   0 when the row is left to the working precision (a compared variable
   that is an algebraic unknown, whose value a stepper may solve for;
   coefficients that are not finite; out of memory). */
static int
load(hdo_fastrow_t f, const hdo_dense_sample *smp)
{
    const hdo_reduced_struct *red = smp->red;
    slong len = smp->dense->order + 1, nv = f->nvar;
    f->stepper = smp->stepper;
    f->dense = smp->dense->state;
    f->serial = smp->serial;
    f->usable = 0;
    f->len = len;
    f->comp = realloc(f->comp, (size_t)(nv + 1) * sizeof(slong));
    f->ch = realloc(f->ch, (size_t)(nv * len + 1) * sizeof(double));
    f->cl = realloc(f->cl, (size_t)(nv * len + 1) * sizeof(double));
    if (f->comp == NULL || f->ch == NULL || f->cl == NULL)
        return 0;
    for (slong j = 0; j < nv; j++) {
        f->comp[j] = -1;
        for (slong i = 0; i < red->nstate; i++)
            if (red->state[i].order == 0 && red->state[i].var == f->var[j])
                f->comp[j] = i;
        /* an unknown after the states, as hdo_run_mode_values sets them;
           one the stepper solves for at the point is left to it */
        for (slong q = 0; q < red->nimplicit; q++)
            if (red->unknown[q].order == 0 &&
                red->unknown[q].var == f->var[j]) {
                if (smp->dense->unknown == NULL ||
                    (smp->dense->solved != NULL && smp->dense->solved[q]))
                    return 0;
                f->comp[j] = red->nstate + q;
            }
    }
    /* the working precision the bound assumes: the run's, or the
       coefficients' where lower; the scratch wide enough to hold a
       coefficient minus its double exactly */
    {
        mpfr_prec_t wide = 0;
        f->prec = smp->prec;
        for (slong j = 0; j < nv; j++)
            for (slong k = 0; f->comp[j] >= 0 && k < len; k++) {
                mpfr_srcptr c = coef(smp, f->comp[j], k);
                if (mpfr_get_prec(c) > wide)
                    wide = mpfr_get_prec(c);
                if (mpfr_get_prec(c) < f->prec)
                    f->prec = mpfr_get_prec(c);
            }
        mpfr_set_prec(f->scratch, wide + 64);
    }
    for (slong j = 0; j < nv; j++)
        for (slong k = 0; f->comp[j] >= 0 && k < len; k++) {
            mpfr_srcptr c = coef(smp, f->comp[j], k);
            if (!mpfr_number_p(c))
                return 0;
            mpfr_get_dd(f->ch + j * len + k, f->cl + j * len + k, c,
                        f->scratch);
            if (!isfinite(f->ch[j * len + k]))
                return 0;
        }
    f->usable = 1;
    return 1;
}

int
hdo_fastrow_eval(double *t, double *v, hdo_fastrow_t f,
                 const hdo_dense_sample *smp)
{
    double sh, sl;
    if (f->stepper != smp->stepper || f->serial != smp->serial ||
        f->dense != smp->dense->state || f->len != smp->dense->order + 1 ||
        f->comp == NULL)
        load(f, smp);
    if (!f->usable || mpfr_sgn(smp->s) < 0)
        goto slow;
    if (mpfr_get_prec(smp->s) + 64 > mpfr_get_prec(f->scratch))
        mpfr_set_prec(f->scratch, mpfr_get_prec(smp->s) + 64);
    mpfr_get_dd(&sh, &sl, smp->s, f->scratch);
    if (!isfinite(sh))
        goto slow;
    for (slong j = 0; j < f->nvar; j++) {
        if (f->comp[j] < 0)
            v[j] = NAN; /* the mode lacks the variable */
        else if (!hdo_dd_horner(v + j, f->ch + j * f->len, f->cl + j * f->len,
                                f->len, sh, sl, f->prec))
            goto slow;
    }
    *t = mpfr_get_d(smp->time, MPFR_RNDN);
    f->nfast++;
    return 1;
slow:
    f->nslow++;
    return 0;
}
