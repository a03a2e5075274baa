/* share.c -- the Taylor series of unary functions of t alone, shared by
   the programs of one pool (decisions.md D-129)

   The active sets of a complementarity mode are distinct modes, each
   with its own program, expanded at the same point when an event decides
   between them; a guard such as sin(2 pi t/T) is the same series in
   each.  An entry holds the operand's, the function's and its
   companion's coefficients 0..len-1 as one program computed them.  Order
   k of a function is a fixed function of its kind, the precision, the
   operand's coefficients 0..k and its own (and its companion's) 0..k-1
   (autodiff.c: no other state enters), so a program whose slot holds the
   entry's 0..k-1 (share_entry, share_gen and share_len say so: only this
   file and the slot's own computation write them) and whose operand has
   the entry's 0..k, bit for bit, gets the bits it would compute. */
#include <stdlib.h>
#include "share.h"
#include "pool.h"

/* A few entries: the candidates of one decision, a step's own point. */
#define NENTRIES 4

typedef struct {
    hdo_expr_kind kind;
    mpfr_prec_t prec;
    slong len, alloc;
    ulong gen;         /* changed when the entry is reused */
    mpfr_t *u, *r, *x; /* operand, function, companion */
} share_entry;

typedef struct {
    share_entry e[NENTRIES];
    slong next; /* the entry a new series replaces */
    ulong gen;
} share_table;

/* The same bits: the same precision, sign, exponent and limbs (a zero
   or an infinity of the same sign; never a NaN).  Inline on the limbs:
   the prefixes below compare O(k) coefficients an order. */
static inline int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    if (a->_mpfr_exp != b->_mpfr_exp || a->_mpfr_sign != b->_mpfr_sign ||
        a->_mpfr_prec != b->_mpfr_prec)
        return 0;
    if (!mpfr_regular_p(a))
        return !mpfr_nan_p(a);
    for (mpfr_prec_t j = (a->_mpfr_prec - 1) / GMP_NUMB_BITS; j >= 0; j--)
        if (a->_mpfr_d[j] != b->_mpfr_d[j])
            return 0;
    return 1;
}

static int
same_prefix(mpfr_t *a, mpfr_t *b, slong n)
{
    for (slong j = 0; j < n; j++)
        if (!same_bits(a[j], b[j]))
            return 0;
    return 1;
}

static void
entry_clear(share_entry *e)
{
    for (slong j = 0; j < e->alloc; j++) {
        mpfr_clear(e->u[j]);
        mpfr_clear(e->r[j]);
        mpfr_clear(e->x[j]);
    }
    flint_free(e->u);
    flint_free(e->r);
    flint_free(e->x);
    e->u = e->r = e->x = NULL;
    e->alloc = e->len = 0;
}

/* Room for coefficient k at precision prec. */
static void
entry_fit(share_entry *e, slong k, mpfr_prec_t prec)
{
    if (e->alloc > 0 && e->prec != prec)
        entry_clear(e);
    e->prec = prec;
    if (k < e->alloc)
        return;
    slong n = FLINT_MAX(2 * e->alloc, k + 1);
    e->u = flint_realloc(e->u, n * sizeof *e->u);
    e->r = flint_realloc(e->r, n * sizeof *e->r);
    e->x = flint_realloc(e->x, n * sizeof *e->x);
    for (slong j = e->alloc; j < n; j++) {
        mpfr_init2(e->u[j], prec);
        mpfr_init2(e->r[j], prec);
        mpfr_init2(e->x[j], prec);
    }
    e->alloc = n;
}

void
hdo_series_share_free(void *series)
{
    share_table *S = series;
    if (S == NULL)
        return;
    for (int q = 0; q < NENTRIES; q++)
        entry_clear(S->e + q);
    flint_free(S);
}

/* The kinds whose order k reads only the operand's 0..k and the slot's
   own and companion's 0..k-1 (one operand, at most one companion). */
static int
shareable_kind(hdo_expr_kind kind)
{
    switch (kind) {
    case HDO_X_SIN:
    case HDO_X_COS:
    case HDO_X_SINH:
    case HDO_X_COSH:
    case HDO_X_TAN:
    case HDO_X_TANH:
    case HDO_X_ATAN:
    case HDO_X_ASIN:
    case HDO_X_ACOS:
    case HDO_X_EXP:
    case HDO_X_LOG:
    case HDO_X_SQRT:
        return 1;
    default:
        return 0;
    }
}

void
hdo_program_taylor_share(hdo_program_t prog, hdo_expr_pool_t pool)
{
    HDO_ASSERT(prog->coef != NULL);
    if (pool->series == NULL)
        pool->series = flint_calloc(1, sizeof(share_table));
    prog->share = pool->series;
    /* dep[i]: bit 0 when slot i reads t, bit 1 when it reads an input */
    char *dep = flint_calloc(prog->nslots + 1, 1);
    for (slong i = 0; i < prog->nslots; i++) {
        hdo_program_instr *c = prog->code + i;
        if (c->kind == HDO_X_TIME)
            dep[i] = 1;
        else if (c->kind == HDO_X_VAR)
            dep[i] = 2;
        else if (hdo_expr_kind_arity(c->kind) > 0)
            dep[i] = dep[c->a] | (c->b >= 0 ? dep[c->b] : 0);
        c->share_ok = shareable_kind(c->kind) && c->b < 0 && c->naux <= 1 &&
                      c->twin < 0 && dep[c->a] == 1;
        c->share_entry = -1;
    }
    flint_free(dep);
}

int
hdo_series_share_get(hdo_program_struct *prog, slong i, slong k)
{
    share_table *S = prog->share;
    hdo_program_instr *c = prog->code + i;
    slong per = prog->taylor_order + 1;
    mpfr_t *u = prog->coef + c->a * per, *r = prog->coef + i * per;
    mpfr_t *x = c->aux >= 0 ? prog->auxcoef + c->aux * per : NULL;
    share_entry *e = NULL;
    if (k == 0) {
        for (int q = 0; q < NENTRIES && e == NULL; q++) {
            share_entry *f = S->e + q;
            if (f->len >= 1 && f->kind == c->kind && f->prec == prog->prec &&
                same_bits(u[0], f->u[0])) {
                e = f;
                c->share_entry = q;
                c->share_gen = f->gen;
            }
        }
        if (e == NULL)
            return 0;
    } else {
        if (c->share_entry < 0)
            return 0;
        e = S->e + c->share_entry;
        if (e->gen != c->share_gen || c->share_len != k || e->len <= k ||
            !same_prefix(u, e->u, k + 1))
            return 0;
    }
    mpfr_set(r[k], e->r[k], MPFR_RNDN);
    if (x != NULL)
        mpfr_set(x[k], e->x[k], MPFR_RNDN);
    c->share_len = k + 1;
    return 1;
}

void
hdo_series_share_put(hdo_program_struct *prog, slong i, slong k, int ok)
{
    share_table *S = prog->share;
    hdo_program_instr *c = prog->code + i;
    slong per = prog->taylor_order + 1;
    mpfr_t *u = prog->coef + c->a * per, *r = prog->coef + i * per;
    mpfr_t *x = c->aux >= 0 ? prog->auxcoef + c->aux * per : NULL;
    share_entry *e;
    if (!ok) {
        c->share_entry = -1;
        return;
    }
    if (k == 0) {
        c->share_entry = S->next;
        S->next = (S->next + 1) % NENTRIES;
        e = S->e + c->share_entry;
        e->kind = c->kind;
        e->len = 0;
        e->gen = ++S->gen;
        c->share_gen = e->gen;
    } else {
        if (c->share_entry < 0)
            return;
        e = S->e + c->share_entry;
        /* the slot's 0..k-1 are the entry's (the token), and the entry
           ends there.  The operand's 0..k-1 were the entry's when each
           order was taken or noted: a pass that changed one since
           recomputed this slot at that order too (active is closed under
           dependents, expr.h), which broke the token; u_0, the point,
           checked again (O(1): a full prefix here was 1.5% of
           boost_converter_ideal's run) */
        if (e->gen != c->share_gen || c->share_len != k || e->len != k ||
            !same_bits(u[0], e->u[0])) {
            c->share_entry = -1;
            return;
        }
    }
    entry_fit(e, k, prog->prec);
    mpfr_set(e->u[k], u[k], MPFR_RNDN);
    mpfr_set(e->r[k], r[k], MPFR_RNDN);
    if (x != NULL)
        mpfr_set(e->x[k], x[k], MPFR_RNDN);
    e->len = k + 1;
    c->share_len = k + 1;
}
