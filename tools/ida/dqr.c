/* dqr.c -- Householder QR with column pivoting in double precision */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dqr.h"

void
dqr_init(dqr_t qr, slong m, slong n)
{
    qr->m = m;
    qr->n = n;
    qr->kmax = m < n ? m : n;
    qr->a = calloc(m * n + 1, sizeof(double));
    qr->tau = calloc(qr->kmax + 1, sizeof(double));
    qr->perm = calloc(n + 1, sizeof(slong));
    qr->rank = 0;
}

void
dqr_clear(dqr_t qr)
{
    free(qr->a);
    free(qr->tau);
    free(qr->perm);
    memset(qr, 0, sizeof *qr);
}

/* The Euclidean norm of x[0..len), scaled against overflow. */
static double
norm2(const double *x, slong len)
{
    double s = 0, big = 0;
    for (slong i = 0; i < len; i++)
        if (fabs(x[i]) > big)
            big = fabs(x[i]);
    if (big == 0)
        return 0;
    for (slong i = 0; i < len; i++)
        s += (x[i] / big) * (x[i] / big);
    return big * sqrt(s);
}

void
dqr_factor(dqr_t qr, const double *A, double rtol)
{
    slong m = qr->m, n = qr->n;
    double *a = qr->a;
    for (slong i = 0; i < m; i++)
        for (slong j = 0; j < n; j++)
            a[j * m + i] = A[i * n + j];
    for (slong j = 0; j < n; j++)
        qr->perm[j] = j;
    for (slong k = 0; k < qr->kmax; k++) {
        /* the remaining column of largest norm (recomputed: the matrices
           are small, and downdated norms lose accuracy) */
        slong best = k;
        double bestn = -1;
        for (slong j = k; j < n; j++) {
            double nj = norm2(a + j * m + k, m - k);
            if (nj > bestn) {
                bestn = nj;
                best = j;
            }
        }
        if (best != k) {
            for (slong i = 0; i < m; i++) {
                double tmp = a[k * m + i];
                a[k * m + i] = a[best * m + i];
                a[best * m + i] = tmp;
            }
            slong tp = qr->perm[k];
            qr->perm[k] = qr->perm[best];
            qr->perm[best] = tp;
        }
        double *x = a + k * m + k;
        double alpha = bestn;
        if (alpha == 0) {
            qr->tau[k] = 0;
            continue;
        }
        if (x[0] > 0)
            alpha = -alpha;
        /* H = I - tau v v^T with v = (1, x[1..] / (x0 - alpha)) maps x to
           alpha e1 */
        double v0 = x[0] - alpha;
        for (slong i = 1; i < m - k; i++)
            x[i] /= v0;
        qr->tau[k] = -v0 / alpha;
        x[0] = alpha;
        for (slong j = k + 1; j < n; j++) {
            double *y = a + j * m + k;
            double s = y[0];
            for (slong i = 1; i < m - k; i++)
                s += x[i] * y[i];
            s *= qr->tau[k];
            y[0] -= s;
            for (slong i = 1; i < m - k; i++)
                y[i] -= s * x[i];
        }
    }
    qr->rank = 0;
    if (qr->kmax > 0 && a[0] != 0) {
        double r0 = fabs(a[0]);
        while (qr->rank < qr->kmax &&
               fabs(a[qr->rank * m + qr->rank]) > rtol * r0)
            qr->rank++;
    }
}

void
dqr_qt(const dqr_t qr, double *b)
{
    slong m = qr->m;
    for (slong k = 0; k < qr->kmax; k++) {
        const double *v = qr->a + k * m + k;
        double s = b[k];
        for (slong i = 1; i < m - k; i++)
            s += v[i] * b[k + i];
        s *= qr->tau[k];
        b[k] -= s;
        for (slong i = 1; i < m - k; i++)
            b[k + i] -= s * v[i];
    }
}

void
dqr_solve(double *x, const dqr_t qr, const double *b)
{
    slong m = qr->m, n = qr->n, r = qr->rank;
    double *c = malloc((m + 1) * sizeof(double));
    memcpy(c, b, m * sizeof(double));
    dqr_qt(qr, c);
    for (slong j = 0; j < n; j++)
        x[j] = 0;
    for (slong k = r - 1; k >= 0; k--) {
        double s = c[k];
        for (slong j = k + 1; j < r; j++)
            s -= qr->a[j * m + k] * c[j];
        c[k] = s / qr->a[k * m + k];
    }
    for (slong k = 0; k < r; k++)
        x[qr->perm[k]] = c[k];
    free(c);
}

void
dqr_solve_transposed(double *x, const dqr_t qr, const double *b)
{
    /* B P = Q R, so B^T = P R^T Q^T: with u = Q^T x, R^T u = P^T b is
       lower triangular in u's first rank entries; the rest of u is 0,
       which makes x = Q u the solution of least norm. */
    slong m = qr->m, r = qr->rank;
    const double *a = qr->a;
    for (slong i = 0; i < m; i++)
        x[i] = 0;
    for (slong k = 0; k < r; k++) {
        double s = b[qr->perm[k]];
        for (slong j = 0; j < k; j++)
            s -= a[k * m + j] * x[j];
        x[k] = s / a[k * m + k];
    }
    for (slong k = qr->kmax - 1; k >= 0; k--) {
        const double *v = a + k * m + k;
        double s = x[k];
        for (slong i = 1; i < m - k; i++)
            s += v[i] * x[k + i];
        s *= qr->tau[k];
        x[k] -= s;
        for (slong i = 1; i < m - k; i++)
            x[k + i] -= s * v[i];
    }
}
