/* icsing.c -- consistent initial values for F(t, y, y') = 0 with a singular
   dF/d(y'_D, y_A) (the method is in icsing.h) */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dqr.h"
#include "icsing.h"

#define ICS_MAXIT 40

/* Row and column scales making the largest entry of every nonzero row,
   then of every nonzero column, of A (m x n) equal to 1 in magnitude. */
static void
equilibrate(double *dr, double *dc, const double *A, slong m, slong n)
{
    for (slong i = 0; i < m; i++) {
        double big = 0;
        for (slong j = 0; j < n; j++)
            big = fmax(big, fabs(A[i * n + j]));
        dr[i] = big > 0 ? 1 / big : 1;
    }
    for (slong j = 0; j < n; j++) {
        double big = 0;
        for (slong i = 0; i < m; i++)
            big = fmax(big, fabs(dr[i] * A[i * n + j]));
        dc[j] = big > 0 ? 1 / big : 1;
    }
}

slong
ics_numeric_rank(const double *A, slong m, slong n, double *ratio)
{
    double *dr = malloc((m + 1) * sizeof(double));
    double *dc = malloc((n + 1) * sizeof(double));
    double *S = malloc((m * n + 1) * sizeof(double));
    dqr_t qr;
    equilibrate(dr, dc, A, m, n);
    for (slong i = 0; i < m; i++)
        for (slong j = 0; j < n; j++)
            S[i * n + j] = dr[i] * A[i * n + j] * dc[j];
    dqr_init(qr, m, n);
    dqr_factor(qr, S, ICS_RANK_RTOL);
    slong r = qr->rank;
    if (ratio != NULL) {
        slong k = qr->kmax - 1;
        *ratio = k < 0 || qr->a[0] == 0 ? 0 : fabs(qr->a[k * m + k] / qr->a[0]);
    }
    dqr_clear(qr);
    free(S);
    free(dc);
    free(dr);
    return r;
}

static int
all_finite(const double *x, slong len)
{
    for (slong i = 0; i < len; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* The workspace of one ics_consistent call. */
typedef struct {
    slong n;
    const double *id;
    ics_resfn fn;
    void *ud;
    double t;
    double *y, *yp;
    double *F, *D, *col, *dy, *dyp, *K, *S, *dr, *dc;
    dqr_t qr; /* of the scaled K */
} ics_work;

/* z_j: yp_j of a differential component, y_j of an algebraic one. */
static double *
zref(ics_work *w, slong j)
{
    return w->id[j] != 0 ? &w->yp[j] : &w->y[j];
}

/* F, K = dF/dz (one directional derivative per column), its scaled
   factorisation, and D = dF along (1, y'_D, 0). */
static int
linearise(ics_work *w)
{
    slong n = w->n;
    memset(w->dy, 0, n * sizeof(double));
    memset(w->dyp, 0, n * sizeof(double));
    for (slong j = 0; j < n; j++) {
        double *e = w->id[j] != 0 ? &w->dyp[j] : &w->dy[j];
        *e = 1;
        w->fn(w->F, w->col, w->t, w->y, w->yp, 0, w->dy, w->dyp, w->ud);
        *e = 0;
        for (slong i = 0; i < n; i++)
            w->K[i * n + j] = w->col[i];
    }
    for (slong i = 0; i < n; i++)
        w->dy[i] = w->id[i] != 0 ? w->yp[i] : 0;
    w->fn(w->F, w->D, w->t, w->y, w->yp, 1, w->dy, w->dyp, w->ud);
    memset(w->dy, 0, n * sizeof(double));
    if (!all_finite(w->K, n * n) || !all_finite(w->F, n) ||
        !all_finite(w->D, n))
        return ICS_NONFINITE;
    equilibrate(w->dr, w->dc, w->K, n, n);
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < n; j++)
            w->S[i * n + j] = w->dr[i] * w->K[i * n + j] * w->dc[j];
    dqr_factor(w->qr, w->S, ICS_RANK_RTOL);
    return ICS_OK;
}

/* out := Q^T (dr v). */
static void
project(double *out, ics_work *w, const double *v)
{
    for (slong i = 0; i < w->n; i++)
        out[i] = w->dr[i] * v[i];
    dqr_qt(w->qr, out);
}

/* One Newton step on z; sets *step to its max norm relative to
   max(1, |z|). */
static int
newton_step(ics_work *w, double *step)
{
    slong n = w->n, r = w->qr->rank;
    double *G = malloc(n * sizeof(double));
    double *J = malloc(n * n * sizeof(double));
    double *v = malloc(n * sizeof(double));
    double *ds = malloc(n * sizeof(double));
    double *D0 = malloc(n * sizeof(double));
    int status = ICS_OK;
    dqr_t jq;

    /* rows [0, r): the range part of F, exact Jacobian Q^T S */
    project(v, w, w->F);
    for (slong i = 0; i < r; i++)
        G[i] = v[i];
    for (slong j = 0; j < n; j++) {
        for (slong i = 0; i < n; i++)
            v[i] = w->S[i * n + j];
        dqr_qt(w->qr, v);
        for (slong i = 0; i < r; i++)
            J[i * n + j] = v[i];
    }
    /* rows [r, n): the derivatives of the hidden constraints, W^T dr D */
    project(v, w, w->D);
    for (slong i = r; i < n; i++)
        G[i] = v[i];
    memcpy(D0, w->D, n * sizeof(double));
    for (slong j = 0; j < n; j++) {
        double *zj = zref(w, j), z0 = *zj;
        double h = sqrt(DBL_EPSILON) * fmax(fabs(z0), 1.0);
        *zj = z0 + h;
        h = *zj - z0;
        for (slong i = 0; i < n; i++)
            w->dy[i] = w->id[i] != 0 ? w->yp[i] : 0;
        w->fn(w->F, w->D, w->t, w->y, w->yp, 1, w->dy, w->dyp, w->ud);
        *zj = z0;
        for (slong i = 0; i < n; i++)
            w->D[i] = (w->D[i] - D0[i]) / h;
        project(v, w, w->D);
        for (slong i = r; i < n; i++)
            J[i * n + j] = v[i] / w->dc[j]; /* per unit of s = z / dc */
    }
    memset(w->dy, 0, n * sizeof(double));
    memcpy(w->D, D0, n * sizeof(double));
    if (!all_finite(J, n * n) || !all_finite(G, n)) {
        status = ICS_NONFINITE;
        goto done;
    }
    /* rows to unit largest entry (the two blocks have unrelated scales),
       so that the rank threshold means the same as for K */
    for (slong i = 0; i < n; i++) {
        double big = 0;
        for (slong j = 0; j < n; j++)
            big = fmax(big, fabs(J[i * n + j]));
        if (big > 0) {
            for (slong j = 0; j < n; j++)
                J[i * n + j] /= big;
            G[i] /= big;
        }
    }
    dqr_init(jq, n, n);
    dqr_factor(jq, J, ICS_RANK_RTOL);
    if (jq->rank < n) {
        dqr_clear(jq);
        status = ICS_UNDETERMINED;
        goto done;
    }
    for (slong i = 0; i < n; i++)
        G[i] = -G[i];
    dqr_solve(ds, jq, G);
    dqr_clear(jq);
    double dmax = 0, zmax = 1;
    for (slong j = 0; j < n; j++) {
        double *zj = zref(w, j), dz = ds[j] * w->dc[j];
        *zj += dz;
        dmax = fmax(dmax, fabs(dz));
        zmax = fmax(zmax, fabs(*zj));
    }
    *step = dmax / zmax;
done:
    free(D0);
    free(ds);
    free(v);
    free(J);
    free(G);
    return status;
}

/* The WRMS norm (IDA's weights) of the least change of y_D that makes the
   hidden constraints W^T dr F vanish to first order, at the current
   (factorised) point. */
static double
inconsistency(ics_work *w, double rtol, double atol)
{
    slong n = w->n, r = w->qr->rank, a = n - r;
    if (a == 0)
        return 0;
    double *C = malloc(n * sizeof(double));
    double *B = malloc(n * a * sizeof(double)); /* (dC/dy_D)^T, n x a */
    double *v = malloc(n * sizeof(double));
    double *dyd = malloc(n * sizeof(double));
    dqr_t bq;
    project(v, w, w->F);
    for (slong k = 0; k < a; k++)
        C[k] = -v[r + k];
    for (slong i = 0; i < n; i++) {
        for (slong k = 0; k < a; k++)
            B[i * a + k] = 0;
        if (w->id[i] == 0)
            continue;
        w->dy[i] = 1;
        w->fn(w->F, w->col, w->t, w->y, w->yp, 0, w->dy, w->dyp, w->ud);
        w->dy[i] = 0;
        project(v, w, w->col);
        for (slong k = 0; k < a; k++)
            B[i * a + k] = v[r + k];
    }
    dqr_init(bq, n, a);
    dqr_factor(bq, B, ICS_RANK_RTOL);
    dqr_solve_transposed(dyd, bq, C);
    double s = 0;
    for (slong i = 0; i < n; i++) {
        double e = dyd[i] / (rtol * fabs(w->y[i]) + atol);
        s += e * e;
    }
    s = sqrt(s / n);
    /* constraints that no change of y_D can move (a dependent row of
       dC/dy_D) are as unsatisfiable as a large change when they are not
       zero; their residual after the least change is checked */
    if (bq->rank < a) {
        for (slong k = 0; k < a; k++) {
            double ck = -C[k];
            for (slong i = 0; i < n; i++)
                ck += B[i * a + k] * dyd[i];
            if (fabs(ck) > sqrt(DBL_EPSILON) * (fabs(C[k]) + DBL_MIN))
                s = INFINITY;
        }
    }
    dqr_clear(bq);
    free(dyd);
    free(v);
    free(B);
    free(C);
    return s;
}

int
ics_consistent(double *y, double *yp, double t, slong n, const double *id,
               double rtol, double atol, ics_resfn fn, void *ud, ics_info *info)
{
    ics_work w;
    int status = ICS_NO_CONVERGENCE;
    double step = INFINITY, prev = INFINITY;
    slong it;

    memset(&w, 0, sizeof w);
    w.n = n;
    w.id = id;
    w.fn = fn;
    w.ud = ud;
    w.t = t;
    w.y = y;
    w.yp = yp;
    w.F = malloc(n * sizeof(double));
    w.D = malloc(n * sizeof(double));
    w.col = malloc(n * sizeof(double));
    w.dy = calloc(n, sizeof(double));
    w.dyp = calloc(n, sizeof(double));
    w.K = malloc(n * n * sizeof(double));
    w.S = malloc(n * n * sizeof(double));
    w.dr = malloc(n * sizeof(double));
    w.dc = malloc(n * sizeof(double));
    dqr_init(w.qr, n, n);

    for (it = 0; it < ICS_MAXIT; it++) {
        int s = linearise(&w);
        if (s == ICS_OK)
            s = newton_step(&w, &step);
        if (s != ICS_OK) {
            status = s;
            break;
        }
        /* converged: at the rounding level, or a step that no longer
           shrinks while already below sqrt(eps) (the noise floor of the
           residuals, reached by a linearly converging iteration) */
        if (step <= 16 * DBL_EPSILON ||
            (it >= 2 && step >= 0.5 * prev && step <= sqrt(DBL_EPSILON))) {
            status = ICS_OK;
            it++;
            break;
        }
        prev = step;
    }
    if (status == ICS_OK)
        status = linearise(&w);
    double inc = NAN;
    if (status == ICS_OK) {
        inc = inconsistency(&w, rtol, atol);
        if (!(inc <= 0.33))
            status = ICS_INCONSISTENT;
    }
    if (info != NULL) {
        info->rank = w.qr->rank;
        info->iters = it;
        info->step = step;
        info->inconsis = inc;
    }
    dqr_clear(w.qr);
    free(w.dc);
    free(w.dr);
    free(w.S);
    free(w.K);
    free(w.dyp);
    free(w.dy);
    free(w.col);
    free(w.D);
    free(w.F);
    return status;
}

const char *
ics_message(int code)
{
    switch (code) {
    case ICS_OK:
        return "consistent";
    case ICS_NONFINITE:
        return "the residual or its derivatives are not finite";
    case ICS_UNDETERMINED:
        return "F and the derivatives of its algebraic combinations do not "
               "determine y' (index above 1)";
    case ICS_NO_CONVERGENCE:
        return "Newton's iteration for y' does not converge";
    case ICS_INCONSISTENT:
        return "the differential components violate the algebraic "
               "combinations of F, and like IDACalcIC the adapter does not "
               "change them";
    }
    return "unknown status";
}
