/* hdo_pryce_offsets -- maximum-value transversal and smallest offsets of a
 * signature matrix */
#include <stdlib.h>
#include "reduce.h"

/* Minimum-cost assignment of an n x n cost matrix (Kuhn-Munkres with
   potentials, O(n^3); n is at most a few hundred).  Writes row_of_col
   inverse as match[row] = column. */
static void
assignment(slong *match, const slong *cost, slong n)
{
    /* 1-based arrays: index 0 is the virtual row/column of the method. */
    slong *u = calloc(n + 1, sizeof(slong));
    slong *v = calloc(n + 1, sizeof(slong));
    slong *p = calloc(n + 1, sizeof(slong));
    slong *way = calloc(n + 1, sizeof(slong));
    slong *minv = malloc((n + 1) * sizeof(slong));
    char *used = malloc(n + 1);
    slong i, j;

    HDO_ASSERT(u && v && p && way && minv && used);
    for (i = 1; i <= n; i++) {
        slong j0 = 0;
        p[0] = i;
        for (j = 0; j <= n; j++) {
            minv[j] = WORD_MAX;
            used[j] = 0;
        }
        do {
            slong i0 = p[j0], delta = WORD_MAX, j1 = 0;
            used[j0] = 1;
            for (j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                slong cur = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            slong j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0 != 0);
    }
    for (j = 1; j <= n; j++)
        match[p[j] - 1] = j - 1;
    free(u);
    free(v);
    free(p);
    free(way);
    free(minv);
    free(used);
}

int
hdo_pryce_offsets(slong *c, slong *d, slong *match, const slong *sigma, slong n)
{
    slong i, j, maxabs = 0, big, *cost;
    int singular = 0;

    if (n == 0)
        return 0;
    for (i = 0; i < n * n; i++)
        if (sigma[i] != HDO_SIGMA_NONE && FLINT_ABS(sigma[i]) > maxabs)
            maxabs = FLINT_ABS(sigma[i]);
    /* A missing entry costs more than any difference in value between two
       transversals, so the optimum uses as few missing entries as
       possible: its finite part is a maximum matching. */
    big = (n + 1) * (2 * maxabs + 1) + 1;
    cost = malloc(n * n * sizeof(slong));
    HDO_ASSERT(cost != NULL);
    for (i = 0; i < n * n; i++)
        cost[i] = sigma[i] == HDO_SIGMA_NONE ? big : -sigma[i];
    assignment(match, cost, n);
    free(cost);
    for (i = 0; i < n; i++)
        if (sigma[i * n + match[i]] == HDO_SIGMA_NONE) {
            match[i] = -1;
            singular = 1;
        }
    if (singular)
        return HDO_ERR_SINGULAR;

    /* Pryce's fixed-point iteration: from c = 0, alternately
       d_j = max_i (sigma_ij + c_i) and c_i = d_{match(i)} - sigma_{i,match(i)};
       it increases monotonically to the smallest offsets (Pryce 2001,
       algorithm 3.3) and terminates because a maximal transversal
       exists. */
    for (i = 0; i < n; i++)
        c[i] = 0;
    for (slong iter = 0;; iter++) {
        int changed = 0;
        HDO_ASSERT(iter < 100000);
        for (j = 0; j < n; j++)
            d[j] = HDO_SIGMA_NONE;
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                if (sigma[i * n + j] != HDO_SIGMA_NONE &&
                    sigma[i * n + j] + c[i] > d[j])
                    d[j] = sigma[i * n + j] + c[i];
        for (i = 0; i < n; i++) {
            slong ci = d[match[i]] - sigma[i * n + match[i]];
            if (ci != c[i]) {
                c[i] = ci;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    return 0;
}
