/* invariant.c -- switching functions that are first integrals of their mode
 * (Kunkel and Mehrmann 2017, section 5.1, case 4(a), eq. (23); issue #5) */
#include <stdlib.h>
#include <string.h>
#include "reduce.h"

/* Why.  A switching function S that is a first integral of its mode
   (d/dt S = 0 along the flow, identically) cannot change sign on an arc:
   in exact arithmetic S keeps its entry value.  Numerically it does not:
   the states drift off the level set S = S(entry) by the integration
   error, about tol per step in a direction that need not average out,
   and the event locator, whose zero tolerance is relative to the size of
   S's own series over the step (zero here), sees the drift as a sign
   change once it passes -tol -- at some precisions and not at others
   (km_energy: at 50 and 60 digits after five steps).  So such a guard
   is recognised once, when the mode's cache is built, and then
     - it reports no event on an arc that enters the mode on its feasible
       side (S(entry) >= -tol); an entry beyond -tol on the infeasible
       side is left to the locator, which reports it at once;
     - the mode is integrated in KM's regularised form (23): the first
       integral is kept as a constraint S(t, x) = S(entry) of a copy of
       the reduced form, so the projection after every step (the stepper's
       evolve) holds S at its entry value to the working precision.

   Recognition.  L = dS/dt + sum_i dS/dx_i rhs_i (hdo_sliding_lie) along
   the explicit flow.  S must be a function of t and of explicit
   variables only (order 0); for a mode with algebraic parts, L must
   moreover not depend on an implicit variable (its values at a random
   point would have to be consistent): otherwise S is not recognised and
   the guard is located as before.  "Identically zero" is decided
     1. symbolically: L simplifies to the constant 0 (the expression
        engine's folding), else
     2. by a zero test at FI_POINTS deterministic pseudo-random points
        x_i = b_i + (1 + |b_i|) r_i, t = t_b + (1 + |t_b|) r_t, with b the
        start values of the variables (0 when none), t_b the time the
        cache is built, r uniform in [-1/2, 1/2] (halved up to
        FI_SHRINK times when an expression is undefined there, to stay in
        the domain of the functions), evaluated in MPFR at precision
        3 prec + 64: L counts as zero only when |L| <= 2^(-2 prec)
        (|dS/dt| + sum_i |dS/dx_i| |rhs_i|) at every point.
   Rationale: the rounding error of L at 3 prec + 64 bits is far below
   2^(-2 prec) times the size of its terms, so an identically vanishing L
   passes; a nonzero analytic function vanishes only on a set of measure
   zero, and to reach 2^(-2 prec) of its terms at every one of several
   independent random points it would have to be that small everywhere
   nearby -- a perturbation below the square of the working precision,
   which the run could not resolve anyway.  A point where the test
   cannot be made (an undefined expression after the shrinking) leaves
   S unrecognised: never a first integral by default. */

#define FI_POINTS 4
#define FI_SHRINK 8

struct hdo_invariant {
    slong nguards;
    int *first;             /* per guard: 1 when a first integral */
    int *skip;              /* per guard: no events on the current arc */
    slong *row;             /* per first integral: its constraint row in reg */
    hdo_reduced_struct reg; /* KM (23): red plus the first integrals */
    /* the first integrals at the working precision, for entry values */
    hdo_program_t prog;
    slong *in_state; /* per input of prog: its state index */
    slong nfirst;
    slong *first_guard; /* root k of prog is guard first_guard[k] */
};

/* splitmix64: a fixed, platform-independent sequence. */
static uint64_t
mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* r in [-1/2, 1/2] for (point, coordinate), exact in 53 bits. */
void
hdo_first_integral_offset(mpfr_t r, slong point, slong coord)
{
    uint64_t u = mix(((uint64_t)point << 32) ^ (uint64_t)(coord + 1) ^
                     0x68646f2d666900ULL);
    mpfr_set_ui_2exp(r, (unsigned long)(u >> 11), -53, MPFR_RNDN);
    mpfr_sub_d(r, r, 0.5, MPFR_RNDN);
}

/* The position of var among the explicit variables, or -1 if it is
   none (an index, not a status). */
static slong
explicit_pos(const hdo_reduced_struct *r, slong var)
{
    for (slong i = 0; i < r->nexplicit; i++)
        if (r->explicit_var[i] == var)
            return i;
    return -1;
}

typedef struct {
    slong var[64];
    slong n;
    int bad;
} fi_vars;

static void
fi_collect(slong var, slong order, void *data)
{
    fi_vars *l = data;
    for (slong i = 0; i < l->n; i++)
        if (l->var[i] == var && order == 0)
            return;
    if (order != 0 || l->n == 64) {
        l->bad = 1;
        return;
    }
    l->var[l->n++] = var;
}

int
hdo_first_integral_test(hdo_model_struct *model, const hdo_reduced_struct *red,
                        hdo_expr S, const mpfr_t t, mpfr_prec_t prec)
{
    hdo_expr_pool_struct *pool = model->pool;
    hdo_expr L = hdo_sliding_lie(model, red, S);
    if (L == HDO_EXPR_NONE)
        return 0;
    fmpq_t q;
    fmpq_init(q);
    int zero = hdo_expr_get_fmpq(q, pool, L) == 0 && fmpq_is_zero(q);
    fmpq_clear(q);
    if (zero)
        return HDO_FI_SYMBOLIC;

    /* roots: L, dS/dt, then dS/dx_k and rhs_k for the variables of S */
    fi_vars l;
    l.n = 0;
    l.bad = 0;
    hdo_expr_foreach_var(pool, S, fi_collect, &l);
    if (l.bad)
        return 0;
    slong nr = 2 + 2 * l.n;
    hdo_expr *roots = malloc(nr * sizeof *roots);
    HDO_ASSERT(roots != NULL);
    roots[0] = L;
    roots[1] = hdo_expr_diff_time(pool, S);
    for (slong k = 0; k < l.n; k++) {
        roots[2 + 2 * k] = hdo_expr_diff(pool, S, l.var[k], 0);
        roots[3 + 2 * k] = red->rhs[explicit_pos(red, l.var[k])];
    }
    mpfr_prec_t hp = 3 * prec + 64;
    hdo_program_t prog;
    hdo_program_init(prog, pool, roots, nr, hp);
    free(roots);
    int ok = 1;
    for (slong i = 0; ok && i < prog->ninputs; i++)
        ok = prog->inputs[i].order == 0 &&
             explicit_pos(red, prog->inputs[i].var) >= 0;

    mpfr_t r, base, size, term, lim;
    mpfr_inits2(hp, r, base, size, term, lim, (mpfr_ptr)0);
    for (slong pt = 0; ok && pt < FI_POINTS; pt++) {
        int evaluated = 0;
        for (slong shrink = 0; !evaluated && shrink <= FI_SHRINK; shrink++) {
            for (slong i = 0; i < prog->ninputs; i++) {
                slong v = prog->inputs[i].var;
                if (model->vars[v].start == HDO_EXPR_NONE ||
                    hdo_expr_eval_constant(base, pool, model->vars[v].start) !=
                        0)
                    mpfr_set_ui(base, 0, MPFR_RNDN);
                hdo_first_integral_offset(r, pt, v);
                mpfr_div_2ui(r, r, (unsigned long)shrink, MPFR_RNDN);
                mpfr_abs(term, base, MPFR_RNDN);
                mpfr_add_ui(term, term, 1, MPFR_RNDN);
                mpfr_fma(prog->value[prog->inputs[i].slot], term, r, base,
                         MPFR_RNDN);
            }
            if (prog->time_slot >= 0) {
                hdo_first_integral_offset(r, pt, -1);
                mpfr_div_2ui(r, r, (unsigned long)shrink, MPFR_RNDN);
                mpfr_set(base, t, MPFR_RNDN);
                mpfr_abs(term, base, MPFR_RNDN);
                mpfr_add_ui(term, term, 1, MPFR_RNDN);
                mpfr_fma(prog->value[prog->time_slot], term, r, base,
                         MPFR_RNDN);
            }
            hdo_expr bad;
            evaluated = hdo_program_eval(prog, &bad) == 0;
        }
        if (!evaluated) {
            ok = 0;
            break;
        }
        /* size = |dS/dt| + sum |dS/dx_k| |rhs_k| */
        mpfr_abs(size, prog->value[prog->root_slot[1]], MPFR_RNDU);
        for (slong k = 0; k < l.n; k++) {
            mpfr_mul(term, prog->value[prog->root_slot[2 + 2 * k]],
                     prog->value[prog->root_slot[3 + 2 * k]], MPFR_RNDN);
            mpfr_abs(term, term, MPFR_RNDU);
            mpfr_add(size, size, term, MPFR_RNDU);
        }
        mpfr_mul_2si(lim, size, -2 * (long)prec, MPFR_RNDU);
        ok = mpfr_cmpabs(prog->value[prog->root_slot[0]], lim) <= 0;
    }
    mpfr_clears(r, base, size, term, lim, (mpfr_ptr)0);
    hdo_program_clear(prog);
    return ok ? HDO_FI_NUMERIC : 0;
}

hdo_invariant *
hdo_invariant_build(hdo_model_struct *model, const hdo_reduced_struct *red,
                    const hdo_expr *guards, slong nguards, const mpfr_t t,
                    mpfr_prec_t prec)
{
    int *first = calloc(nguards ? nguards : 1, sizeof *first);
    slong nfirst = 0;
    HDO_ASSERT(first != NULL);
    for (slong g = 0; g < nguards; g++) {
        first[g] = hdo_first_integral_test(model, red, guards[g], t, prec) > 0;
        nfirst += first[g];
    }
    if (nfirst == 0) {
        free(first);
        return NULL;
    }
    hdo_invariant *inv = calloc(1, sizeof *inv);
    HDO_ASSERT(inv != NULL);
    inv->nguards = nguards;
    inv->first = first;
    inv->skip = calloc(nguards, sizeof *inv->skip);
    inv->row = calloc(nguards, sizeof *inv->row);
    inv->first_guard = calloc(nfirst, sizeof *inv->first_guard);
    HDO_ASSERT(inv->skip != NULL && inv->row != NULL &&
               inv->first_guard != NULL);
    hdo_expr *roots = malloc(nfirst * sizeof *roots);
    HDO_ASSERT(roots != NULL);
    hdo_reduced_copy(&inv->reg, red);
    for (slong g = 0; g < nguards; g++) {
        inv->row[g] = -1;
        if (!first[g])
            continue;
        inv->row[g] =
            hdo_reduced_add_constraint(&inv->reg, model, guards[g], prec);
        inv->first_guard[inv->nfirst] = g;
        roots[inv->nfirst++] = guards[g];
    }
    hdo_program_init(inv->prog, model->pool, roots, nfirst, prec);
    free(roots);
    inv->in_state = calloc(inv->prog->ninputs + 1, sizeof *inv->in_state);
    HDO_ASSERT(inv->in_state != NULL);
    for (slong i = 0; i < inv->prog->ninputs; i++) {
        inv->in_state[i] = explicit_pos(red, inv->prog->inputs[i].var);
        HDO_ASSERT(inv->in_state[i] >= 0 && red->state[inv->in_state[i]].var ==
                                                inv->prog->inputs[i].var);
    }
    return inv;
}

const hdo_reduced_struct *
hdo_invariant_reduced(const hdo_invariant *inv, const hdo_reduced_struct *red)
{
    return inv != NULL ? &inv->reg : red;
}

int
hdo_invariant_enter(hdo_invariant *inv, const mpfr_t t, mpfr_srcptr xs,
                    const mpfr_t tol)
{
    if (inv == NULL)
        return 0;
    hdo_program_struct *prog = inv->prog;
    for (slong i = 0; i < prog->ninputs; i++)
        mpfr_set(prog->value[prog->inputs[i].slot], xs + inv->in_state[i],
                 MPFR_RNDN);
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    hdo_expr bad;
    int defined = hdo_program_eval(prog, &bad) == 0;
    for (slong k = 0; k < inv->nfirst; k++) {
        slong g = inv->first_guard[k];
        mpfr_srcptr v = prog->value[prog->root_slot[k]];
        /* undefined at the entry: the locator decides, as for any guard */
        inv->skip[g] = 0;
        mpfr_set_ui(inv->reg.cons_rhs + inv->row[g], 0, MPFR_RNDN);
        if (!defined)
            continue;
        mpfr_set(inv->reg.cons_rhs + inv->row[g], v, MPFR_RNDN);
        if (mpfr_sgn(v) >= 0 || mpfr_cmpabs(v, tol) <= 0)
            inv->skip[g] = 1;
    }
    return defined ? 0 : HDO_ERR_DOMAIN;
}

int
hdo_invariant_skips(const hdo_invariant *inv, slong g)
{
    return inv != NULL && g < inv->nguards && inv->skip[g];
}

int
hdo_invariant_is_first(const hdo_invariant *inv, slong g)
{
    return inv != NULL && g < inv->nguards && inv->first[g];
}

void
hdo_invariant_free(hdo_invariant *inv)
{
    if (inv == NULL)
        return;
    hdo_program_clear(inv->prog);
    hdo_reduced_clear(&inv->reg);
    free(inv->first);
    free(inv->skip);
    free(inv->row);
    free(inv->first_guard);
    free(inv->in_state);
    free(inv);
}
