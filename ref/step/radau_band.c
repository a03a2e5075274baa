/* radau_band.c -- band LU in complex double and the reverse Cuthill-McKee
 * order: the sparse blocks of radau_block.c at a cost linear in n */
/* Compiled at -O3 (Makefile, HOT_DOUBLE): its loops vectorised, the same
   bits (decisions.md D-140). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "radau.h"

/* Why.  The blocks I - h s_kk J are n x n; factored dense they cost n^3/3
   each (s of them per factorisation), which made the Test Set's Medical
   Akzo Nobel (400 states, J pentadiagonal in the grid order) spend its
   time in dense LU of a matrix with 5 nonzeros a row.  A mode's Jacobian
   from a discretised PDE or a chain is banded once its components are
   in a good order (the declaration order u[1..N], v[1..N] couples u_j
   with v_j, N apart): reverse Cuthill-McKee on the pattern of J + J^T
   finds that order (bandwidth 2 for Medical Akzo Nobel), and a band LU
   with partial pivoting (LAPACK's gbtrf: the upper band grows by kl)
   costs n kl (kl + ku) per block. */

/* ord[i] := the component at position i, reverse Cuthill-McKee: breadth
   first from a component of least degree, each level's neighbours by
   increasing degree, every connected part in turn; then reversed. */
void
hdo_radau_rcm(slong *ord, slong n, slong nnz, const slong *row,
              const slong *col)
{
    slong *deg = calloc(n + 1, sizeof(slong)), *start = NULL, *adj = NULL;
    char *seen = calloc(n + 1, 1);
    HDO_ASSERT(deg != NULL && seen != NULL);
    for (slong e = 0; e < nnz; e++)
        if (row[e] != col[e]) {
            deg[row[e]]++;
            deg[col[e]]++;
        }
    start = malloc((n + 1) * sizeof(slong));
    HDO_ASSERT(start != NULL);
    start[0] = 0;
    for (slong i = 0; i < n; i++)
        start[i + 1] = start[i] + deg[i];
    adj = malloc((start[n] + 1) * sizeof(slong));
    slong *fill = calloc(n + 1, sizeof(slong));
    HDO_ASSERT(adj != NULL && fill != NULL);
    for (slong e = 0; e < nnz; e++)
        if (row[e] != col[e]) {
            adj[start[row[e]] + fill[row[e]]++] = col[e];
            adj[start[col[e]] + fill[col[e]]++] = row[e];
        }
    slong len = 0;
    while (len < n) {
        slong root = -1;
        for (slong i = 0; i < n; i++)
            if (!seen[i] && (root < 0 || deg[i] < deg[root]))
                root = i;
        seen[root] = 1;
        ord[len++] = root;
        for (slong head = len - 1; head < len; head++) {
            slong v = ord[head], first = len;
            for (slong k = start[v]; k < start[v + 1]; k++)
                if (!seen[adj[k]]) {
                    seen[adj[k]] = 1;
                    ord[len++] = adj[k];
                }
            /* the new neighbours by increasing degree (insertion sort:
               a row has few) */
            for (slong a = first + 1; a < len; a++) {
                slong x = ord[a], b = a;
                while (b > first && deg[ord[b - 1]] > deg[x]) {
                    ord[b] = ord[b - 1];
                    b--;
                }
                ord[b] = x;
            }
        }
    }
    for (slong i = 0; i < n / 2; i++) {
        slong t = ord[i];
        ord[i] = ord[n - 1 - i];
        ord[n - 1 - i] = t;
    }
    free(deg);
    free(seen);
    free(start);
    free(adj);
    free(fill);
}

/* Entry (i, j) of a band matrix of n rows stored row by row, row i
   holding columns i - kl .. i + ku + kl (j - i + kl in [0, bw)). */
#define BAND(B, i, j) ((B)[(i)*bw + (j) - (i) + kl])

int
hdo_radau_band_factor(double complex *B, slong *ipiv, slong n, slong kl,
                      slong ku)
{
    slong bw = 2 * kl + ku + 1;
    for (slong k = 0; k < n; k++) {
        slong last = k + kl < n - 1 ? k + kl : n - 1;
        slong right = k + ku + kl < n - 1 ? k + ku + kl : n - 1;
        slong p = k;
        for (slong i = k + 1; i <= last; i++)
            if (cabs(BAND(B, i, k)) > cabs(BAND(B, p, k)))
                p = i;
        if (BAND(B, p, k) == 0)
            return -1;
        ipiv[k] = p;
        if (p != k)
            for (slong j = k; j <= right; j++) {
                double complex x = BAND(B, p, j);
                BAND(B, p, j) = BAND(B, k, j);
                BAND(B, k, j) = x;
            }
        double complex piv = 1 / BAND(B, k, k);
        for (slong i = k + 1; i <= last; i++) {
            double complex f = BAND(B, i, k) * piv;
            BAND(B, i, k) = f;
            if (f == 0)
                continue;
            for (slong j = k + 1; j <= right; j++)
                BAND(B, i, j) -= f * BAND(B, k, j);
        }
    }
    return 0;
}

void
hdo_radau_band_solve(double complex *v, const double complex *B,
                     const slong *ipiv, slong n, slong kl, slong ku)
{
    slong bw = 2 * kl + ku + 1;
    /* the interchanges and L column by column, as they were made */
    for (slong k = 0; k < n; k++) {
        if (ipiv[k] != k) {
            double complex x = v[k];
            v[k] = v[ipiv[k]];
            v[ipiv[k]] = x;
        }
        slong last = k + kl < n - 1 ? k + kl : n - 1;
        for (slong i = k + 1; i <= last; i++)
            v[i] -= BAND(B, i, k) * v[k];
    }
    for (slong i = n - 1; i >= 0; i--) {
        slong right = i + ku + kl < n - 1 ? i + ku + kl : n - 1;
        for (slong j = i + 1; j <= right; j++)
            v[i] -= BAND(B, i, j) * v[j];
        v[i] /= BAND(B, i, i);
    }
}
