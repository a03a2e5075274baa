/* mat.c -- dense MPFR matrices: memory, copies, products */
#include "linalg.h"
#include "status.h"

static mpfr_ptr
entries_alloc(slong len, mpfr_prec_t prec)
{
    mpfr_ptr e;
    slong i;

    if (len == 0)
        return NULL;
    e = flint_malloc(len * sizeof(__mpfr_struct));
    for (i = 0; i < len; i++)
        mpfr_init2(e + i, prec);
    return e;
}

static void
entries_free(mpfr_ptr e, slong len)
{
    slong i;

    for (i = 0; i < len; i++)
        mpfr_clear(e + i);
    flint_free(e);
}

void
hdo_mat_init(hdo_mat_t A, slong rows, slong cols, mpfr_prec_t prec)
{
    A->rows = rows;
    A->cols = cols;
    A->prec = prec;
    A->entries = entries_alloc(rows * cols, prec);
}

void
hdo_mat_clear(hdo_mat_t A)
{
    entries_free(A->entries, A->rows * A->cols);
    A->entries = NULL;
    A->rows = A->cols = 0;
}

void
hdo_mat_resize(hdo_mat_t A, slong rows, slong cols)
{
    slong old = A->rows * A->cols, len = rows * cols, i;

    /* Reuses the entries already initialised; only the surplus is
       created or destroyed. */
    if (len > old) {
        A->entries = flint_realloc(A->entries, len * sizeof(__mpfr_struct));
        for (i = old; i < len; i++)
            mpfr_init2(A->entries + i, A->prec);
    } else if (len < old) {
        for (i = len; i < old; i++)
            mpfr_clear(A->entries + i);
        if (len == 0) {
            flint_free(A->entries);
            A->entries = NULL;
        } else {
            A->entries = flint_realloc(A->entries, len * sizeof(__mpfr_struct));
        }
    }
    A->rows = rows;
    A->cols = cols;
}

void
hdo_mat_zero(hdo_mat_t A)
{
    slong i;

    for (i = 0; i < A->rows * A->cols; i++)
        mpfr_set_zero(A->entries + i, 1);
}

void
hdo_mat_one(hdo_mat_t A)
{
    slong i;

    hdo_mat_zero(A);
    for (i = 0; i < A->rows && i < A->cols; i++)
        mpfr_set_ui(hdo_mat_entry(A, i, i), 1, MPFR_RNDN);
}

void
hdo_mat_set(hdo_mat_t B, const hdo_mat_t A)
{
    slong i;

    if (B == A)
        return;
    hdo_mat_resize(B, A->rows, A->cols);
    for (i = 0; i < A->rows * A->cols; i++)
        mpfr_set(B->entries + i, A->entries + i, MPFR_RNDN);
}

void
hdo_mat_transpose(hdo_mat_t B, const hdo_mat_t A)
{
    slong i, j;

    HDO_ASSERT(A != B);
    hdo_mat_resize(B, A->cols, A->rows);
    for (i = 0; i < A->rows; i++)
        for (j = 0; j < A->cols; j++)
            mpfr_set(hdo_mat_entry(B, j, i), hdo_mat_entry(A, i, j), MPFR_RNDN);
}

void
hdo_mat_mul(hdo_mat_t C, const hdo_mat_t A, const hdo_mat_t B)
{
    slong i, j, k;
    mpfr_t t;

    HDO_ASSERT(C != A && C != B && A->cols == B->rows);
    hdo_mat_resize(C, A->rows, B->cols);
    mpfr_init2(t, C->prec);
    for (i = 0; i < A->rows; i++)
        for (j = 0; j < B->cols; j++) {
            mpfr_ptr c = hdo_mat_entry(C, i, j);
            mpfr_set_zero(c, 1);
            for (k = 0; k < A->cols; k++) {
                mpfr_mul(t, hdo_mat_entry(A, i, k), hdo_mat_entry(B, k, j),
                         MPFR_RNDN);
                mpfr_add(c, c, t, MPFR_RNDN);
            }
        }
    mpfr_clear(t);
}

void
hdo_mat_mul_vec(mpfr_ptr y, const hdo_mat_t A, mpfr_srcptr x)
{
    slong i, k;
    mpfr_t t;

    HDO_ASSERT(y != x || A->rows == 0);
    mpfr_init2(t, A->rows > 0 ? mpfr_get_prec(y) : A->prec);
    for (i = 0; i < A->rows; i++) {
        mpfr_set_zero(y + i, 1);
        for (k = 0; k < A->cols; k++) {
            mpfr_mul(t, hdo_mat_entry(A, i, k), x + k, MPFR_RNDN);
            mpfr_add(y + i, y + i, t, MPFR_RNDN);
        }
    }
    mpfr_clear(t);
}

void
hdo_mat_dist_frobenius(mpfr_t r, const hdo_mat_t A, const hdo_mat_t B)
{
    slong i;
    mpfr_t t;

    HDO_ASSERT(A->rows == B->rows && A->cols == B->cols);
    mpfr_init2(t, mpfr_get_prec(r) + 16);
    mpfr_set_zero(r, 1);
    for (i = 0; i < A->rows * A->cols; i++) {
        mpfr_sub(t, A->entries + i, B->entries + i, MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_add(r, r, t, MPFR_RNDN);
    }
    mpfr_sqrt(r, r, MPFR_RNDN);
    mpfr_clear(t);
}

void
hdo_mat_fprint(FILE *f, const hdo_mat_t A, int digits)
{
    slong i, j;

    for (i = 0; i < A->rows; i++) {
        for (j = 0; j < A->cols; j++)
            mpfr_fprintf(f, " %.*Rg", digits, hdo_mat_entry(A, i, j));
        fputc('\n', f);
    }
}
