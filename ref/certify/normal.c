/* normal.c -- a proof that an expression is identically zero: its
   expansion as a polynomial in its non-polynomial sub-expressions (atoms:
   variables, sin(q), ...), like terms combined with exact rational
   coefficients */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpq_mat.h>
#include "internal.h"

/* Why: the derivative of a first integral along its flow, p g sin(q) +
   (-g sin(q)) p, is zero by commutativity and cancellation, which the
   expression pool's folding (hash-consing of each operation as written)
   does not see.  Expanding sums and products and combining equal
   monomials does, exactly; a result of no terms is a proof.  Atoms are
   compared as pool nodes, so sin(q) and sin(q) are one atom but
   sin(2*q) and 2*sin(q)*cos(q) are not: the test may say "not proven",
   never a false "zero". */

#define MAX_TERMS 4096
#define MAX_FACTORS 64
#define MAX_POW 8

typedef struct {
    fmpq_t c;
    slong nf;
    hdo_expr f[MAX_FACTORS]; /* sorted */
} term;

typedef struct {
    term *t;
    slong n, alloc;
    int overflow;
} poly;

static void
poly_init(poly *p)
{
    p->t = NULL;
    p->n = p->alloc = 0;
    p->overflow = 0;
}

static void
poly_clear(poly *p)
{
    for (slong i = 0; i < p->n; i++)
        fmpq_clear(p->t[i].c);
    free(p->t);
}

/* p += c * f[0..nf) (f sorted), combining with an equal monomial. */
static void
poly_add_term(poly *p, const fmpq_t c, const hdo_expr *f, slong nf)
{
    if (fmpq_is_zero(c) || p->overflow)
        return;
    for (slong i = 0; i < p->n; i++)
        if (p->t[i].nf == nf &&
            (nf == 0 || memcmp(p->t[i].f, f, (size_t)nf * sizeof *f) == 0)) {
            fmpq_add(p->t[i].c, p->t[i].c, c);
            return;
        }
    if (p->n == MAX_TERMS || nf > MAX_FACTORS) {
        p->overflow = 1;
        return;
    }
    if (p->n == p->alloc) {
        p->alloc = p->alloc ? 2 * p->alloc : 8;
        p->t = realloc(p->t, (size_t)p->alloc * sizeof *p->t);
        HDO_ASSERT(p->t != NULL);
    }
    term *t = p->t + p->n++;
    fmpq_init(t->c);
    fmpq_set(t->c, c);
    t->nf = nf;
    if (nf > 0) /* f may be NULL for a constant term */
        memcpy(t->f, f, (size_t)nf * sizeof *f);
}

static int
cmp_expr(const void *a, const void *b)
{
    hdo_expr x = *(const hdo_expr *)a, y = *(const hdo_expr *)b;
    return x < y ? -1 : x > y;
}

/* r := a * b (r distinct from both). */
static void
poly_mul(poly *r, const poly *a, const poly *b)
{
    hdo_expr f[2 * MAX_FACTORS];
    fmpq_t c;
    fmpq_init(c);
    r->overflow = a->overflow || b->overflow;
    for (slong i = 0; i < a->n && !r->overflow; i++)
        for (slong j = 0; j < b->n && !r->overflow; j++) {
            slong nf = a->t[i].nf + b->t[j].nf;
            if (nf > MAX_FACTORS) {
                r->overflow = 1;
                break;
            }
            memcpy(f, a->t[i].f, (size_t)a->t[i].nf * sizeof *f);
            memcpy(f + a->t[i].nf, b->t[j].f, (size_t)b->t[j].nf * sizeof *f);
            qsort(f, (size_t)nf, sizeof *f, cmp_expr);
            fmpq_mul(c, a->t[i].c, b->t[j].c);
            poly_add_term(r, c, f, nf);
        }
    fmpq_clear(c);
}

/* p := p + s * q (s = +-1). */
static void
poly_axpy(poly *p, int s, const poly *q)
{
    fmpq_t c;
    fmpq_init(c);
    p->overflow |= q->overflow;
    for (slong i = 0; i < q->n; i++) {
        fmpq_set(c, q->t[i].c);
        if (s < 0)
            fmpq_neg(c, c);
        poly_add_term(p, c, q->t[i].f, q->t[i].nf);
    }
    fmpq_clear(c);
}

/* p := the expansion of e (p empty on entry). */
static void
expand(poly *p, const hdo_expr_pool_struct *pool, hdo_expr e, int depth)
{
    const hdo_expr_node *n = hdo_expr_node_get(pool, e);
    fmpq_t q;
    fmpq_init(q);
    if (depth > 200) {
        p->overflow = 1;
    } else if (hdo_expr_get_fmpq(q, pool, e) == 0) {
        poly_add_term(p, q, NULL, 0);
    } else if (n->kind == HDO_X_ADD || n->kind == HDO_X_SUB) {
        poly b;
        poly_init(&b);
        expand(p, pool, n->a, depth + 1);
        expand(&b, pool, n->b, depth + 1);
        poly_axpy(p, n->kind == HDO_X_ADD ? 1 : -1, &b);
        poly_clear(&b);
    } else if (n->kind == HDO_X_NEG) {
        poly a;
        poly_init(&a);
        expand(&a, pool, n->a, depth + 1);
        poly_axpy(p, -1, &a);
        poly_clear(&a);
    } else if (n->kind == HDO_X_MUL) {
        poly a, b;
        poly_init(&a);
        poly_init(&b);
        expand(&a, pool, n->a, depth + 1);
        expand(&b, pool, n->b, depth + 1);
        poly_mul(p, &a, &b);
        poly_clear(&a);
        poly_clear(&b);
    } else if (n->kind == HDO_X_DIV && hdo_expr_get_fmpq(q, pool, n->b) == 0 &&
               !fmpq_is_zero(q)) {
        poly a;
        poly_init(&a);
        expand(&a, pool, n->a, depth + 1);
        fmpq_inv(q, q);
        for (slong i = 0; i < a.n; i++)
            fmpq_mul(a.t[i].c, a.t[i].c, q);
        poly_axpy(p, 1, &a);
        poly_clear(&a);
    } else if (n->kind == HDO_X_POW && hdo_expr_get_fmpq(q, pool, n->b) == 0 &&
               fmpz_is_one(fmpq_denref(q)) && fmpz_sgn(fmpq_numref(q)) >= 0 &&
               fmpz_cmp_si(fmpq_numref(q), MAX_POW) <= 0) {
        slong k = fmpz_get_si(fmpq_numref(q));
        poly a, r;
        poly_init(&a);
        poly_init(&r);
        expand(&a, pool, n->a, depth + 1);
        fmpq_one(q);
        poly_add_term(&r, q, NULL, 0);
        for (slong i = 0; i < k && !r.overflow; i++) {
            poly t;
            poly_init(&t);
            poly_mul(&t, &r, &a);
            poly_clear(&r);
            r = t;
        }
        poly_axpy(p, 1, &r);
        poly_clear(&a);
        poly_clear(&r);
    } else {
        fmpq_one(q);
        poly_add_term(p, q, &e, 1); /* an atom */
    }
    fmpq_clear(q);
}

int
cert_expr_is_zero(const hdo_expr_pool_struct *pool, hdo_expr e)
{
    poly p;
    poly_init(&p);
    expand(&p, pool, e, 0);
    int zero = !p.overflow;
    for (slong i = 0; zero && i < p.n; i++)
        if (!fmpq_is_zero(p.t[i].c))
            zero = 0;
    poly_clear(&p);
    return zero;
}

int
cert_expr_in_span(const hdo_expr_pool_struct *pool, hdo_expr e,
                  const hdo_expr *rel, slong n)
{
    /* e and every relation expanded; the monomials of all of them index
       the rows of [R | e] over Q, whose reduced row echelon form has no
       pivot in the last column exactly when e = sum c_j rel_j */
    poly *p = flint_malloc((n + 1) * sizeof *p);
    int ok = 1;
    for (slong j = 0; j <= n; j++) {
        poly_init(p + j);
        expand(p + j, pool, j < n ? rel[j] : e, 0);
        ok &= !p[j].overflow;
    }
    slong nm = 0, alloc = 16;
    term **mono = flint_malloc(alloc * sizeof *mono);
    for (slong j = 0; ok && j <= n; j++)
        for (slong i = 0; i < p[j].n; i++) {
            term *t = p[j].t + i;
            slong k;
            for (k = 0; k < nm; k++)
                if (mono[k]->nf == t->nf &&
                    (t->nf == 0 || memcmp(mono[k]->f, t->f,
                                          (size_t)t->nf * sizeof *t->f) == 0))
                    break;
            if (k == nm) {
                if (nm == alloc) {
                    alloc *= 2;
                    mono = flint_realloc(mono, alloc * sizeof *mono);
                }
                mono[nm++] = t;
            }
        }
    if (ok && nm > 0) {
        fmpq_mat_t M;
        fmpq_mat_init(M, nm, n + 1);
        for (slong j = 0; j <= n; j++)
            for (slong i = 0; i < p[j].n; i++) {
                term *t = p[j].t + i;
                for (slong k = 0; k < nm; k++)
                    if (mono[k]->nf == t->nf &&
                        (t->nf == 0 ||
                         memcmp(mono[k]->f, t->f,
                                (size_t)t->nf * sizeof *t->f) == 0))
                        fmpq_add(fmpq_mat_entry(M, k, j),
                                 fmpq_mat_entry(M, k, j), t->c);
            }
        fmpq_mat_rref(M, M);
        /* a row whose first nonzero entry is in the last column: e is
           not in the span */
        for (slong k = 0; k < nm && ok; k++) {
            slong j = 0;
            while (j <= n && fmpq_is_zero(fmpq_mat_entry(M, k, j)))
                j++;
            if (j == n)
                ok = 0;
        }
        fmpq_mat_clear(M);
    }
    flint_free(mono);
    for (slong j = 0; j <= n; j++)
        poly_clear(p + j);
    flint_free(p);
    return ok;
}
