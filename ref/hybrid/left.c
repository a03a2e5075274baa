/* left.c -- the left limit of the state at an event: a variable's value
 * or derivative from the source mode's state and dense output, and
 * expressions evaluated there */
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* Horner's sum below, from c_top down to c_m, when it is a zero: every
   product by s a zero (s is zero, or the sum so far is), so only signs
   move -- a zero times a number s has the sign of neither or both, a zero plus
   a zero is -0 only when both are, a nonzero term (a number: times k - i
   >= 1 it stays one) replaces the sum.  The sum's signed zero into out
   and 1, or 0 when it is not one (a number, or a product that is not a
   zero): the bits of the loop without its 3 (p - m) operations, on the
   identically zero series of a blocked diode's current, whose derivative
   the guards' floors ask at every candidate (issue 28, decisions.md
   D-134). */
static int
zero_horner(mpfr_t out, const mpfr_t *coef, slong top, slong m, const mpfr_t s)
{
    int neg = 0, number = 0; /* the sum: +0 */
    if (!mpfr_number_p(s))
        return 0; /* a zero times an infinity is NaN */
    for (slong k = top; k >= m; k--) {
        if (number && !mpfr_zero_p(s))
            return 0;
        neg ^= mpfr_signbit(s) != 0; /* the product, a zero */
        if (mpfr_zero_p(coef[k])) {
            neg = neg && mpfr_signbit(coef[k]);
            number = 0;
        } else if (mpfr_regular_p(coef[k]) &&
                   mpfr_get_exp(coef[k]) <
                       mpfr_get_emax() -
                           (mpfr_exp_t)m * (mpfr_exp_t)FLINT_BIT_COUNT(k)) {
            /* c_k k (k - 1) .. (k - m + 1) <= 2^(EXP + m bits(k)): no
               overflow, a number of c_k's sign */
            neg = mpfr_signbit(coef[k]) != 0;
            number = 1;
        } else {
            return 0;
        }
    }
    if (number)
        return 0;
    mpfr_set_zero(out, neg ? -1 : 1);
    return 1;
}

/* The m-th derivative at s of the series c[0..p]. */
static void
series_derivative(mpfr_t out, const mpfr_t *coef, slong p, slong m,
                  const mpfr_t s)
{
    mpfr_t term;
    if (mpfr_zero_p(s)) {
        /* at s = 0 (the guards' floors at a step's start, every step)
           Horner's sum is its last term, m! c_m as below, whenever that
           is a nonzero number and the terms before it are numbers (then
           each product by s is a zero, and adding it is exact): the same
           bits without the p multiply-adds (issue 28); for m <= 1 that
           term is c_m rounded once to out's precision (the product by
           1 is exact), without the temporary (D-120) */
        int plain = 1;
        for (slong k = p; k > m && plain; k--)
            plain = mpfr_zero_p(coef[k]) || mpfr_regular_p(coef[k]);
        if (plain && m <= 1 && m <= p) {
            mpfr_set(out, coef[m], MPFR_RNDN);
            if (mpfr_regular_p(out))
                return; /* else Horner's sum below sets out */
        }
        mpfr_init2(term, mpfr_get_prec(out));
        if (plain && m <= p) {
            mpfr_set(term, coef[m], MPFR_RNDN);
            for (slong i = 0; i < m; i++)
                mpfr_mul_ui(term, term, (unsigned long)(m - i), MPFR_RNDN);
            if (mpfr_regular_p(term)) {
                mpfr_set(out, term, MPFR_RNDN);
                mpfr_clear(term);
                return;
            }
        }
    } else {
        mpfr_init2(term, mpfr_get_prec(out));
    }
    /* Horner's sum from the last nonzero c_k (k >= m): above it every
       product is a zero times s and every term a zero, so the sum there
       is a zero, and at c_top it becomes (zero * s) + term = term
       exactly (the same precision), whatever the zero's sign or s --
       the bits of the whole loop (a polynomial arc: the ball's velocity
       is linear, its series 2 terms of 30; issue 28, D-116).  With no
       nonzero c_k the whole loop gives the zero's sign. */
    slong top = p;
    while (top >= m && mpfr_zero_p(coef[top]))
        top--;
    if (top < m)
        top = p;
    if (zero_horner(out, coef, top, m, s)) {
        mpfr_clear(term);
        return;
    }
    mpfr_set_ui(out, 0, MPFR_RNDN);
    for (slong k = top; k >= m; k--) {
        mpfr_mul(out, out, s, MPFR_RNDN);
        mpfr_set(term, coef[k], MPFR_RNDN);
        for (slong i = 0; i < m; i++)
            mpfr_mul_ui(term, term, (unsigned long)(k - i), MPFR_RNDN);
        mpfr_add(out, out, term, MPFR_RNDN);
    }
    mpfr_clear(term);
}

/* The value of (var, order) on the left limit: a state or unknown of the
   source mode, or a derivative of the series of a lower order of it.
   Returns 1, or 0 if the source mode does not have it. */
int
hdo_run_left_value(mpfr_t out, const left_limit *L, slong var, slong order)
{
    const hdo_reduced_struct *r = L->r;
    slong best = -1, best_order = -1, best_is_state = 0;
    for (slong i = 0; i < r->nstate; i++)
        if (r->state[i].var == var) {
            if (r->state[i].order == order) {
                mpfr_set(out, L->xs + i, MPFR_RNDN);
                return 1;
            }
            if (r->state[i].order < order && r->state[i].order > best_order) {
                best = i;
                best_order = r->state[i].order;
                best_is_state = 1;
            }
        }
    for (slong j = 0; j < r->nimplicit; j++)
        if (r->unknown[j].var == var) {
            if (r->unknown[j].order == order) {
                mpfr_set(out, L->xu + j, MPFR_RNDN);
                return 1;
            }
            if (r->unknown[j].order < order &&
                r->unknown[j].order > best_order) {
                best = j;
                best_order = r->unknown[j].order;
                best_is_state = 0;
            }
        }
    if (best < 0 || L->dense == NULL)
        return 0;
    slong p = L->dense->order;
    const mpfr_t *coef = best_is_state ? L->dense->state + best * (p + 1)
                                       : L->dense->unknown + best * (p + 1);
    series_derivative(out, coef, p, order - best_order, L->s);
    return 1;
}

/* Evaluates e[0..n) on the left limit L at t into out: 0, or -1 when L
   lacks a variable or an expression is undefined there. */
/* The program of the roots e[0..n) at the run's precision: a kept one
   with the same roots (the pool's nodes are unique, so the same
   expressions), else compiled, replacing the oldest.  A program is a
   function of its roots and precision, and its evaluation writes every
   slot it reads but the inputs, which the caller sets (expr.h): a kept
   one gives the bits of a fresh one. */
static hdo_program_struct *
left_program(run_ctx *c, const hdo_expr *e, slong n)
{
    for (slong k = 0; k < HDO_RUN_LEFT_PROGS; k++) {
        const left_prog *lp = c->lprog + k;
        if (lp->e != NULL && lp->n == n && memcmp(lp->e, e, n * sizeof *e) == 0)
            return lp->prog;
    }
    left_prog *lp = c->lprog + c->lprog_next;
    c->lprog_next = (c->lprog_next + 1) % HDO_RUN_LEFT_PROGS;
    if (lp->e != NULL) {
        hdo_program_clear(lp->prog);
        free(lp->e);
    } else {
        lp->prog = malloc(sizeof *lp->prog);
        HDO_ASSERT(lp->prog != NULL);
    }
    lp->e = malloc((n ? n : 1) * sizeof *e);
    HDO_ASSERT(lp->e != NULL);
    memcpy(lp->e, e, n * sizeof *e);
    lp->n = n;
    hdo_program_init(lp->prog, c->model->pool, e, n, c->prec);
    return lp->prog;
}

int
hdo_run_eval_on_left(run_ctx *c, mpfr_ptr out, const hdo_expr *e, slong n,
                     const left_limit *L, const mpfr_t t)
{
    hdo_program_struct *prog = left_program(c, e, n);
    hdo_expr bad;
    int ok = 0;
    for (slong i = 0; ok == 0 && i < prog->ninputs; i++) {
        const hdo_program_input *in = prog->inputs + i;
        if (!hdo_run_left_value(prog->value[in->slot], L, in->var, in->order))
            ok = -1;
    }
    if (ok == 0 && prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    if (ok == 0 && hdo_program_eval(prog, &bad) != 0)
        ok = -1;
    for (slong i = 0; ok == 0 && i < n; i++)
        mpfr_set(out + i, prog->value[prog->root_slot[i]], MPFR_RNDN);
    return ok;
}

void
hdo_run_left_progs_clear(run_ctx *c)
{
    for (slong k = 0; k < HDO_RUN_LEFT_PROGS; k++) {
        left_prog *lp = c->lprog + k;
        if (lp->e == NULL)
            continue;
        hdo_program_clear(lp->prog);
        free(lp->prog);
        free(lp->e);
        lp->e = NULL;
    }
    c->lprog_next = 0;
}
