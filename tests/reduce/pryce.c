/* pryce.c -- tests of hdo_pryce_offsets against hand-derived offsets and brute
 * force */
#include <criterion/criterion.h>
#include <stdlib.h>
#include "reduce.h"

#define N_ HDO_SIGMA_NONE

/* First-order pendulum x' = vx, y' = vy, vx' = -lam x, vy' = -lam y - g,
   x^2 + y^2 = L^2 (variables x, y, vx, vy, lam).  Offsets by hand: the
   constraint needs two differentiations (c = 2), which forces d = 2 on
   x, y, hence c = 1 on their equations, d = 1 on vx, vy, d = 0 on lam. */
Test(reduce, pryce_pendulum_first_order)
{
    const slong s[25] = {
        1,  N_, 0,  N_, N_, /* der(x) = vx */
        N_, 1,  N_, 0,  N_, /* der(y) = vy */
        0,  N_, 1,  N_, 0,  /* der(vx) = -lam x */
        N_, 0,  N_, 1,  0,  /* der(vy) = -lam y - g */
        0,  0,  N_, N_, N_, /* x^2 + y^2 = L^2 */
    };
    slong c[5], d[5], match[5];
    const slong ec[5] = {1, 1, 0, 0, 2}, ed[5] = {2, 2, 1, 1, 0};
    cr_assert_eq(hdo_pryce_offsets(c, d, match, s, 5), 0);
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(c[i], ec[i], "c[%d] = %ld", i, (long)c[i]);
        cr_expect_eq(d[i], ed[i], "d[%d] = %ld", i, (long)d[i]);
    }
}

/* Pryce 2001, section 2: the second-order pendulum
   x'' + x lam = 0, y'' + y lam - g = 0, x^2 + y^2 - L^2 = 0 has
   c = (0, 0, 2), d = (2, 2, 0). */
Test(reduce, pryce_pendulum_second_order_paper)
{
    const slong s[9] = {2, N_, 0, N_, 2, 0, 0, 0, N_};
    slong c[3], d[3], match[3];
    cr_assert_eq(hdo_pryce_offsets(c, d, match, s, 3), 0);
    cr_expect_eq(c[0], 0);
    cr_expect_eq(c[1], 0);
    cr_expect_eq(c[2], 2);
    cr_expect_eq(d[0], 2);
    cr_expect_eq(d[1], 2);
    cr_expect_eq(d[2], 0);
}

Test(reduce, pryce_structurally_singular)
{
    /* Both equations involve only the first variable. */
    const slong s[4] = {0, N_, 1, N_};
    slong c[2], d[2], match[2];
    cr_assert_eq(hdo_pryce_offsets(c, d, match, s, 2), HDO_ERR_SINGULAR);
    cr_expect((match[0] < 0) != (match[1] < 0),
              "exactly one equation is unmatched");
}

/* Value of the best transversal by trying every permutation (n <= 6),
   or N_ when none avoids missing entries. */
static slong
brute_value(const slong *s, slong n, slong *perm, slong k, char *used)
{
    slong best = N_;
    if (k == n) {
        slong v = 0;
        for (slong i = 0; i < n; i++)
            v += s[i * n + perm[i]];
        return v;
    }
    for (slong j = 0; j < n; j++) {
        if (used[j] || s[k * n + j] == N_)
            continue;
        used[j] = 1;
        perm[k] = j;
        slong v = brute_value(s, n, perm, k + 1, used);
        if (v != N_ && (best == N_ || v > best))
            best = v;
        used[j] = 0;
    }
    return best;
}

Test(reduce, pryce_random_against_brute_force)
{
    srand(12345);
    int singular_seen = 0, regular_seen = 0;
    for (int trial = 0; trial < 400; trial++) {
        slong n = 1 + rand() % 6, s[36], c[6], d[6], match[6], perm[6];
        char used[6] = {0};
        for (slong i = 0; i < n * n; i++)
            s[i] = (rand() % 3 == 0) ? N_ : rand() % 4;
        slong best = brute_value(s, n, perm, 0, used);
        int st = hdo_pryce_offsets(c, d, match, s, n);
        if (best == N_) {
            cr_assert_eq(st, HDO_ERR_SINGULAR, "trial %d", trial);
            singular_seen++;
            continue;
        }
        regular_seen++;
        cr_assert_eq(st, 0, "trial %d", trial);
        slong v = 0, sumd = 0, sumc = 0, minc = c[0];
        for (slong i = 0; i < n; i++) {
            v += s[i * n + match[i]];
            sumc += c[i];
            sumd += d[i];
            if (c[i] < minc)
                minc = c[i];
            /* Offsets dominate the signature, tight on the transversal. */
            for (slong j = 0; j < n; j++)
                if (s[i * n + j] != N_)
                    cr_assert(d[j] - c[i] >= s[i * n + j], "trial %d", trial);
            cr_assert_eq(d[match[i]] - c[i], s[i * n + match[i]]);
        }
        cr_assert_eq(v, best, "trial %d: transversal not maximal", trial);
        cr_assert_eq(sumd - sumc, best, "trial %d", trial);
        /* Smallest offsets are normalised: some c_i is 0. */
        cr_assert_eq(minc, 0, "trial %d", trial);
    }
    cr_assert(singular_seen > 10 && regular_seen > 10);
}
