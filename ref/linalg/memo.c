/* memo.c -- factorisations kept by their matrix (SVD, LU): a consistent
 * point's Gauss-Newton steps and Newton on the unknowns factor the same
 * Jacobian again at every event of a linear mode (decisions.md D-111) */
#include <stdlib.h>
#include "linalg.h"
#include "status.h"

/* hdo_svd is a function of A's entries and A->prec, of which of U and V
   are wanted and of the precisions of s, U and V (hdo_svd: each output
   rounded to its own): those are the key, and a kept result is copied
   out exactly (the same precisions). */
typedef struct {
    int used;
    hdo_mat_t A; /* the key matrix, at A's precision */
    int want_u, want_v;
    mpfr_prec_t sprec, uprec, vprec;
    slong k;
    mpfr_ptr s;     /* k values at sprec */
    hdo_mat_t U, V; /* as hdo_svd left them (when wanted) */
} memo_entry;

struct hdo_svd_memo {
    memo_entry e[HDO_SVD_MEMO_SIZE];
    slong next; /* the entry replaced next, round robin */
    unsigned long hits, misses;
};

hdo_svd_memo *
hdo_svd_memo_new(void)
{
    hdo_svd_memo *m = calloc(1, sizeof *m);
    HDO_ASSERT(m != NULL);
    return m;
}

static void
entry_clear(memo_entry *x)
{
    if (!x->used)
        return;
    hdo_mat_clear(x->A);
    hdo_vec_clear(x->s, x->k);
    if (x->want_u)
        hdo_mat_clear(x->U);
    if (x->want_v)
        hdo_mat_clear(x->V);
    x->used = 0;
}

void
hdo_svd_memo_free(hdo_svd_memo *memo)
{
    if (memo == NULL)
        return;
    for (slong i = 0; i < HDO_SVD_MEMO_SIZE; i++)
        entry_clear(memo->e + i);
    free(memo);
}

void
hdo_svd_memo_counts(unsigned long *hits, unsigned long *misses,
                    const hdo_svd_memo *memo)
{
    *hits = memo != NULL ? memo->hits : 0;
    *misses = memo != NULL ? memo->misses : 0;
}

/* K and A: the same shape, precision and entries. */
static int
same_mat(const hdo_mat_struct *K, const hdo_mat_struct *A)
{
    if (K->rows != A->rows || K->cols != A->cols || K->prec != A->prec)
        return 0;
    for (slong i = 0; i < A->rows * A->cols; i++)
        if (!hdo_same_number(K->entries + i, A->entries + i))
            return 0;
    return 1;
}

static int
matches(const memo_entry *x, mpfr_srcptr s, slong k, const hdo_mat_struct *U,
        const hdo_mat_struct *V, const hdo_mat_struct *A)
{
    if (!x->used || x->k != k || x->want_u != (U != NULL) ||
        x->want_v != (V != NULL) || (U != NULL && x->uprec != U->prec) ||
        (V != NULL && x->vprec != V->prec))
        return 0;
    for (slong j = 0; j < k; j++)
        if (mpfr_get_prec(s + j) != x->sprec)
            return 0;
    return same_mat(x->A, A);
}

/* Every entry at its matrix's precision and a number, and s at one
   precision: what the key assumes; and a small matrix (what a memo
   holds stays under a few megabytes: a large one is factored each
   time, as without a memo). */
static int
keyable(mpfr_srcptr s, slong k, const hdo_mat_struct *A)
{
    if (A->rows * A->cols > HDO_MEMO_MAX_ENTRIES)
        return 0;
    for (slong j = 1; j < k; j++)
        if (mpfr_get_prec(s + j) != mpfr_get_prec(s))
            return 0;
    for (slong i = 0; i < A->rows * A->cols; i++)
        if (mpfr_get_prec(A->entries + i) != A->prec ||
            !mpfr_number_p(A->entries + i))
            return 0;
    return 1;
}

int
hdo_svd_memo_get(hdo_svd_memo *memo, mpfr_ptr s, hdo_mat_t U, hdo_mat_t V,
                 const hdo_mat_t A)
{
    slong k = FLINT_MIN(A->rows, A->cols);
    if (memo == NULL || k == 0 || !keyable(s, k, A))
        return hdo_svd(s, U, V, A);
    for (slong i = 0; i < HDO_SVD_MEMO_SIZE; i++) {
        memo_entry *x = memo->e + i;
        if (!matches(x, s, k, U, V, A))
            continue;
        for (slong j = 0; j < k; j++)
            mpfr_set(s + j, x->s + j, MPFR_RNDN);
        if (U != NULL)
            hdo_mat_set(U, x->U);
        if (V != NULL)
            hdo_mat_set(V, x->V);
        memo->hits++;
        return 0;
    }
    memo->misses++;
    int status = hdo_svd(s, U, V, A);
    if (status != 0)
        return status; /* a failure is not kept: it fails again */
    memo_entry *x = memo->e + memo->next;
    memo->next = (memo->next + 1) % HDO_SVD_MEMO_SIZE;
    entry_clear(x);
    hdo_mat_init(x->A, 0, 0, A->prec);
    hdo_mat_set(x->A, A);
    x->k = k;
    x->sprec = mpfr_get_prec(s);
    x->s = hdo_vec_init(k, x->sprec);
    for (slong j = 0; j < k; j++)
        mpfr_set(x->s + j, s + j, MPFR_RNDN);
    x->want_u = U != NULL;
    x->want_v = V != NULL;
    if (U != NULL) {
        x->uprec = U->prec;
        hdo_mat_init(x->U, 0, 0, U->prec);
        hdo_mat_set(x->U, U);
    }
    if (V != NULL) {
        x->vprec = V->prec;
        hdo_mat_init(x->V, 0, 0, V->prec);
        hdo_mat_set(x->V, V);
    }
    x->used = 1;
    return 0;
}

/* LU: hdo_lu_factor is a function of A's entries and precision; the
   factors and the permutation are kept. */
typedef struct {
    int used;
    hdo_mat_t A, LU;
    slong *perm;
} lu_entry;

struct hdo_lu_memo {
    lu_entry e[HDO_LU_MEMO_SIZE];
    slong next;
    unsigned long hits, misses;
};

hdo_lu_memo *
hdo_lu_memo_new(void)
{
    hdo_lu_memo *m = calloc(1, sizeof *m);
    HDO_ASSERT(m != NULL);
    return m;
}

static void
lu_entry_clear(lu_entry *x)
{
    if (!x->used)
        return;
    hdo_mat_clear(x->A);
    hdo_mat_clear(x->LU);
    free(x->perm);
    x->used = 0;
}

void
hdo_lu_memo_free(hdo_lu_memo *memo)
{
    if (memo == NULL)
        return;
    for (slong i = 0; i < HDO_LU_MEMO_SIZE; i++)
        lu_entry_clear(memo->e + i);
    free(memo);
}

void
hdo_lu_memo_counts(unsigned long *hits, unsigned long *misses,
                   const hdo_lu_memo *memo)
{
    *hits = memo != NULL ? memo->hits : 0;
    *misses = memo != NULL ? memo->misses : 0;
}

int
hdo_lu_factor_memo(hdo_lu_memo *memo, hdo_mat_t A, slong *perm)
{
    slong n = A->rows;
    if (memo == NULL || n == 0 || !keyable(NULL, 0, A))
        return hdo_lu_factor(A, perm);
    for (slong i = 0; i < HDO_LU_MEMO_SIZE; i++) {
        lu_entry *x = memo->e + i;
        if (!x->used || !same_mat(x->A, A))
            continue;
        hdo_mat_set(A, x->LU);
        for (slong j = 0; j < n; j++)
            perm[j] = x->perm[j];
        memo->hits++;
        return 0;
    }
    memo->misses++;
    lu_entry *x = memo->e + memo->next;
    lu_entry_clear(x);
    hdo_mat_init(x->A, 0, 0, A->prec);
    hdo_mat_set(x->A, A);
    int status = hdo_lu_factor(A, perm);
    if (status != 0) {
        hdo_mat_clear(x->A); /* a failure is not kept: it fails again */
        return status;
    }
    memo->next = (memo->next + 1) % HDO_LU_MEMO_SIZE;
    hdo_mat_init(x->LU, 0, 0, A->prec);
    hdo_mat_set(x->LU, A);
    x->perm = malloc(n * sizeof *x->perm);
    HDO_ASSERT(x->perm != NULL);
    for (slong j = 0; j < n; j++)
        x->perm[j] = perm[j];
    x->used = 1;
    return 0;
}
