/* event.c -- switching functions on a validated step: proofs that a guard
   stays positive, and the event time enclosed by the interval Newton
   operator with uniqueness */
#include "internal.h"

/* Why two tests for positivity: the enclosure of a guard over a piece
   [lo, hi] (cert_step_eval on a ball) is cheap and decides pieces far
   from zero; near a zero it includes the zero of the piece's width times
   the slope, so a piece that the guard approaches but does not reach is
   decided by monotonicity instead: a derivative of one sign over the
   piece and a positive value at the end that is lower. */

/* Evaluation budget of one positivity proof (pieces looked at). */
#define MAX_PIECES 4000
#define MAX_DEPTH 80

static void
ball_of(arb_t x, const arf_t lo, const arf_t hi, slong prec)
{
    arb_set_interval_arf(x, lo, hi, prec);
}

/* The lower bound of guard g over [lo, hi] is positive (1), the upper
   bound negative (-1), or neither (0). */
static int
sign_over(const cert_step_struct *st, slong comp, const arf_t lo,
          const arf_t hi, int deriv, slong prec)
{
    arb_t s, v;
    arb_init(s);
    arb_init(v);
    ball_of(s, lo, hi, prec);
    int r = 0;
    if (cert_step_eval(v, st, comp, s, deriv, prec) == 0)
        r = arb_is_positive(v) ? 1 : arb_is_negative(v) ? -1 : 0;
    arb_clear(s);
    arb_clear(v);
    return r;
}

int
cert_guard_positive(const cert_step_t st, slong g, const arf_t a, const arf_t b,
                    int zero_at_a, arf_t fail)
{
    slong comp = st->ns + st->nu + g, lp = st->lprec, n = 0, pieces = 0;
    arf_struct *lo = flint_malloc(2 * MAX_DEPTH * sizeof *lo);
    arf_struct *hi = flint_malloc(2 * MAX_DEPTH * sizeof *hi);
    int *depth = flint_malloc(2 * MAX_DEPTH * sizeof *depth);
    int ok = 1;
    arf_t start, mid;
    arf_init(start);
    arf_init(mid);
    arf_set(start, a);
    for (slong i = 0; i < 2 * MAX_DEPTH; i++) {
        arf_init(lo + i);
        arf_init(hi + i);
    }
    if (zero_at_a && arf_cmp(a, b) < 0) {
        /* S(a) = 0 exactly: S > 0 on (a, a + d] when S' > 0 on [a, a + d]
           (zero_at_a 2: S'(a) = 0 too, and S'' > 0 there) */
        int dflag = zero_at_a == 2 ? CERT_EVAL_DERIV2 : CERT_EVAL_DERIV;
        arf_t d;
        arf_init(d);
        arf_sub(d, b, a, lp, ARF_RND_DOWN);
        ok = 0;
        for (int k = 0; k < MAX_DEPTH; k++) {
            arf_add(mid, a, d, st->prec, ARF_RND_DOWN);
            if (arf_cmp(mid, b) > 0)
                arf_set(mid, b);
            if (sign_over(st, comp, a, mid, dflag, st->prec) > 0) {
                ok = 1;
                arf_set(start, mid);
                break;
            }
            arf_mul_2exp_si(d, d, -2);
        }
        arf_clear(d);
        if (!ok && fail != NULL)
            arf_set(fail, a);
    }
    if (ok && arf_cmp(start, b) < 0) {
        arf_set(lo, start);
        arf_set(hi, b);
        depth[0] = 0;
        n = 1;
    }
    while (ok && n > 0) {
        /* the leftmost piece first: a failure names the earliest place */
        n--;
        arf_struct *l = lo + n, *h = hi + n;
        int dep = depth[n];
        if (++pieces > MAX_PIECES) {
            ok = 0;
            if (fail != NULL)
                arf_set(fail, l);
            break;
        }
        int sv = sign_over(st, comp, l, h, 0, lp);
        if (sv > 0)
            continue;
        if (sv == 0) {
            int sd = sign_over(st, comp, l, h, 1, lp);
            if (sd > 0 && sign_over(st, comp, l, l, 0, st->prec) > 0)
                continue; /* rising from a positive value */
            if (sd < 0 && sign_over(st, comp, h, h, 0, st->prec) > 0)
                continue; /* falling to a positive value */
        }
        if (sv < 0 || dep + 1 >= MAX_DEPTH) {
            ok = 0;
            if (fail != NULL)
                arf_set(fail, l);
            break;
        }
        /* bisect: the right half below the left one on the stack */
        arf_add(mid, l, h, st->prec, ARF_RND_NEAR);
        arf_mul_2exp_si(mid, mid, -1);
        if (arf_cmp(mid, l) <= 0 || arf_cmp(mid, h) >= 0) {
            ok = 0; /* no more resolution */
            if (fail != NULL)
                arf_set(fail, l);
            break;
        }
        arf_set(lo + n + 1, l);
        arf_set(hi + n + 1, mid);
        arf_set(lo + n, mid); /* h unchanged */
        depth[n] = dep + 1;
        depth[n + 1] = dep + 1;
        n += 2;
    }
    for (slong i = 0; i < 2 * MAX_DEPTH; i++) {
        arf_clear(lo + i);
        arf_clear(hi + i);
    }
    flint_free(lo);
    flint_free(hi);
    flint_free(depth);
    arf_clear(start);
    arf_clear(mid);
    return ok;
}

int
cert_guard_positive_to_zero(const cert_step_t st, slong g, const arf_t a,
                            const arf_t zlo, const arf_t b, int zero_at_a,
                            arf_t fail)
{
    slong comp = st->ns + st->nu + g;
    arf_t d, c;
    arf_init(d);
    arf_init(c);
    arf_sub(d, zlo, a, st->lprec, ARF_RND_DOWN);
    int ok = 0, sloped = 0;
    for (int k = 0; k < MAX_DEPTH && !sloped && arf_sgn(d) > 0; k++) {
        /* S(z) = 0 and S' < 0 on [c, b], z in [zlo, b]: S > 0 on [c, z);
           a larger c leaves more to the enclosures of [a, c] */
        arf_sub(c, zlo, d, st->prec, ARF_RND_DOWN);
        if (arf_cmp(c, a) < 0)
            arf_set(c, a);
        sloped = sign_over(st, comp, c, b, 1, st->prec) < 0;
        arf_mul_2exp_si(d, d, -2);
    }
    if (sloped)
        ok = arf_cmp(c, a) > 0
                 ? cert_guard_positive(st, g, a, c, zero_at_a, fail)
                 : !zero_at_a;
    else if (fail != NULL)
        arf_set(fail, zlo);
    if (sloped && !ok && fail != NULL && arf_cmp(c, a) <= 0)
        arf_set(fail, a);
    arf_clear(d);
    arf_clear(c);
    return ok;
}

int
cert_guard_root(arb_t root, const cert_step_t st, slong g, const arf_t sp,
                int flags)
{
    slong comp = st->ns + st->nu + g, prec = st->prec;
    int status = -1;
    arb_t I, m, gm, d, N, tmp;
    arf_t lo, hi, zero;
    mag_t delta, r;
    arb_init(I);
    arb_init(m);
    arb_init(gm);
    arb_init(d);
    arb_init(N);
    arb_init(tmp);
    arf_init(lo);
    arf_init(hi);
    arf_init(zero);
    mag_init(delta);
    mag_init(r);
    /* a first width: four Newton corrections at sp, at least a few ulps
       of the step */
    arb_set_arf(m, sp);
    cert_step_eval(gm, st, comp, m, flags, prec);
    cert_step_eval(d, st, comp, m, flags | CERT_EVAL_DERIV, prec);
    arb_div(tmp, gm, d, prec);
    arb_get_mag(delta, tmp);
    mag_mul_2exp_si(delta, delta, 2);
    arf_get_mag(r, st->h);
    mag_mul_2exp_si(r, r, -prec + 16);
    mag_add(delta, delta, r);
    if (!mag_is_finite(delta))
        arf_get_mag(delta, st->h);
    for (int tries = 0; tries < 24 && status != 0; tries++) {
        /* I = [sp - delta, sp + delta] clipped to [0, h] */
        arf_set_mag(lo, delta);
        arf_sub(lo, sp, lo, prec, ARF_RND_DOWN);
        arf_set_mag(hi, delta);
        arf_add(hi, sp, hi, prec, ARF_RND_UP);
        if (arf_sgn(lo) < 0)
            arf_zero(lo);
        if (arf_cmp(hi, st->h) > 0)
            arf_set(hi, st->h);
        arb_set_interval_arf(I, lo, hi, prec);
        if (cert_step_eval(d, st, comp, I, flags | CERT_EVAL_DERIV, prec) !=
                0 ||
            !arb_is_negative(d)) {
            /* the slope is not one-signed: I too wide, or a multiple
               (or rising) zero; narrower first, then give up */
            mag_mul_2exp_si(delta, delta, -3);
            continue;
        }
        for (int it = 0; it < 8; it++) {
            arb_get_mid_arb(m, I);
            cert_step_eval(gm, st, comp, m, flags, prec);
            arb_div(N, gm, d, prec);
            arb_sub(N, m, N, prec);
            if (!arb_contains_interior(I, N)) {
                if (it == 0)
                    break;
                status = 0; /* proven at the previous iterate */
                break;
            }
            /* N(I) in int(I): exactly one zero, inside N(I) */
            status = 0;
            arb_swap(I, N);
            mag_t w0;
            mag_init(w0);
            mag_set(w0, arb_radref(I));
            if (cert_step_eval(d, st, comp, I, flags | CERT_EVAL_DERIV, prec) !=
                    0 ||
                !arb_is_negative(d)) {
                mag_clear(w0);
                status = -1;
                break;
            }
            mag_clear(w0);
        }
        if (status != 0)
            mag_mul_2exp_si(delta, delta, 2);
    }
    if (status == 0) {
        arb_set(root, I);
        if (st->mutate == HDO_CERTIFY_MUTATE_EVENT_SHRINK)
            mag_mul_2exp_si(arb_radref(root), arb_radref(root), -1);
    }
    arb_clear(I);
    arb_clear(m);
    arb_clear(gm);
    arb_clear(d);
    arb_clear(N);
    arb_clear(tmp);
    arf_clear(lo);
    arf_clear(hi);
    arf_clear(zero);
    mag_clear(delta);
    mag_clear(r);
    return status;
}
