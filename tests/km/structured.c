/* structured.c -- the structured Kunkel-Mehrmann analysis (elimination of
   the explicit equations, ref/km/schur.c) against the straightforward
   one on the whole derivative array: same status, mu, counts and ranks
   at every level, on hand-made modes and on random strings of masses with
   two end constraints (the bowed string's structure, with nonlinear
   coefficients and forces). */
#include <criterion/criterion.h>
#include <flint/fmpq.h>
#include <stdio.h>
#include <string.h>
#include "km.h"
#include "status.h"
#include "../model_util.h"

static void
free_caches(void)
{
    flint_cleanup();
    mpfr_free_cache();
}
TestSuite(km_structured, .fini = free_caches);

/* Parses text, sets the mode's variables to the exact rationals vals[i]
   (by name, "name=num/den" pairs) and compares both analyses. */
static void
compare(const char *text, const char *mode, const char **names,
        const fmpq *vals, slong nvals, mpfr_prec_t prec, int want)
{
    hdo_model_t model;
    hdo_error_t err, err2;
    hdo_km_result a, b;
    char msg[1200], msg2[1200];
    mpfr_ptr x;
    mpfr_t t;
    slong m, i, k;
    int sa, sb;

    tm_parse(model, text);
    m = hdo_model_find_mode(model, mode);
    cr_assert(m >= 0);
    x = hdo_vec_init(model->modes[m].nvars, prec);
    for (k = 0; k < nvals; k++) {
        slong v = tm_var(model, names[k]);
        for (i = 0; i < model->modes[m].nvars; i++)
            if (model->modes[m].vars[i] == v)
                fmpq_get_mpfr(x + i, vals + k, MPFR_RNDN);
    }
    mpfr_init2(t, prec);
    mpfr_set_d(t, 0.25, MPFR_RNDN);
    hdo_error_clear(&err);
    hdo_error_clear(&err2);
    sa = hdo_km_analyze(&a, model, m, t, x, prec, &err);
    sb = hdo_km_analyze_dense(&b, model, m, t, x, prec, &err2);
    hdo_error_format(msg, sizeof msg, &err);
    hdo_error_format(msg2, sizeof msg2, &err2);
    cr_assert_eq(sa, sb, "structured %d (%s), dense %d (%s)", sa, msg, sb,
                 msg2);
    cr_assert_eq(sa, want, "%s", msg);
    cr_assert_eq(a.nlevels, b.nlevels);
    cr_assert_eq(a.mu, b.mu);
    cr_assert_eq(a.d, b.d);
    cr_assert_eq(a.a, b.a);
    cr_assert_eq(a.v, b.v);
    cr_assert_eq(a.u, b.u);
    for (k = 0; k < a.nlevels; k++) {
        const hdo_km_level_info *p = a.levels + k, *q = b.levels + k;
        cr_assert_eq(p->a, q->a, "level %ld", (long)k);
        cr_assert_eq(p->d, q->d, "level %ld", (long)k);
        cr_assert_eq(p->v, q->v, "level %ld", (long)k);
        cr_assert_eq(p->u, q->u, "level %ld", (long)k);
        cr_assert_eq(p->clear, q->clear, "level %ld", (long)k);
        cr_assert_eq(p->rank_J.rank, q->rank_J.rank, "level %ld", (long)k);
        cr_assert_eq(p->rank_M.rank, q->rank_M.rank, "level %ld", (long)k);
        cr_assert_eq(p->rank_A.rank, q->rank_A.rank, "level %ld", (long)k);
        cr_assert_eq(p->rank_D.rank, q->rank_D.rank, "level %ld", (long)k);
        /* Both solve for the minimum-norm derivatives: the residuals
           left are both at the rounding level. */
        cr_assert(p->residual < 1e-20 && q->residual < 1e-20,
                  "level %ld: %g %g", (long)k, p->residual, q->residual);
    }
    mpfr_clear(t);
    hdo_vec_clear(x, model->modes[m].nvars);
    hdo_model_clear(model);
}

static void
q_set(fmpq *q, slong num, ulong den)
{
    fmpq_set_si(q, num, den);
}

Test(km_structured, pendulum)
{
    static const char *text =
        "model pendulum\n"
        "param g = 9.81\n"
        "var x = 0.6, y = -0.8, vx = 0.8, vy = 0.6, lam = 8.848\n"
        "mode swing\n"
        "  der(x) = vx\n"
        "  der(y) = vy\n"
        "  der(vx) = -x*lam\n"
        "  der(vy) = -y*lam - g\n"
        "  x^2 + y^2 = 1\n"
        "end\n"
        "start swing\n";
    const char *names[] = {"x", "y", "vx", "vy", "lam"};
    fmpq vals[5];
    for (int i = 0; i < 5; i++)
        fmpq_init(vals + i);
    q_set(vals + 0, 3, 5);
    q_set(vals + 1, -4, 5);
    q_set(vals + 2, 4, 5);
    q_set(vals + 3, 3, 5);
    q_set(vals + 4, 8848, 1000);
    compare(text, "swing", names, vals, 5, 128, 0);
    compare(text, "swing", names, vals, 5, 400, 0);
    for (int i = 0; i < 5; i++)
        fmpq_clear(vals + i);
}

/* Mixed: explicit equations with a coefficient, an algebraic force, and a
   nilpotent chain where nothing is explicit in the last row. */
Test(km_structured, stick_and_chain)
{
    static const char *stick = "model stick\n"
                               "var x1 = 1, x2 = 2, v1 = 0.25, v2 = 0.25, "
                               "F = 0\n"
                               "mode stick\n"
                               "  1*der(v1) = 3 - F\n"
                               "  2*der(v2) = 0.5 + F\n"
                               "  v1 - v2 = 0\n"
                               "  der(x1) = v1\n"
                               "  der(x2) = v2\n"
                               "end\n"
                               "start stick\n";
    static const char *chain = "model chain\n"
                               "var x1, x2, x3\n"
                               "mode m\n"
                               "  der(x2) = x1\n"
                               "  der(x3) = x2\n"
                               "  0 = x3 - t^2\n"
                               "end\n"
                               "start m\n";
    const char *sn[] = {"x1", "x2", "v1", "v2", "F"};
    const char *cn[] = {"x1", "x2", "x3"};
    fmpq v[5];
    for (int i = 0; i < 5; i++)
        fmpq_init(v + i);
    q_set(v + 0, 1, 1);
    q_set(v + 1, 2, 1);
    q_set(v + 2, 1, 4);
    q_set(v + 3, 1, 4);
    q_set(v + 4, 11, 6);
    compare(stick, "stick", sn, v, 5, 150, 0);
    /* t = 1/4: x3 = t^2, x2 = 2t, x1 = 2. */
    q_set(v + 0, 2, 1);
    q_set(v + 1, 1, 2);
    q_set(v + 2, 1, 16);
    compare(chain, "m", cn, v, 3, 150, 0);
    for (int i = 0; i < 5; i++)
        fmpq_clear(v + i);
}

/* The 1e-40 coefficient: refused (not clear-cut) by both at 200 bits,
   an ODE for both at 600 bits. */
Test(km_structured, tiny_coefficient)
{
    static const char *text = "model stiff\n"
                              "param eps = 1e-40\n"
                              "var x = 1, y = 0\n"
                              "mode m\n"
                              "  der(x) = y\n"
                              "  eps*der(y) = -x\n"
                              "end\n"
                              "start m\n";
    const char *names[] = {"x", "y"};
    fmpq v[2];
    fmpq_init(v + 0);
    fmpq_init(v + 1);
    q_set(v + 0, 1, 1);
    q_set(v + 1, 0, 1);
    compare(text, "m", names, v, 2, 200, HDO_ERR_SINGULAR);
    compare(text, "m", names, v, 2, 600, 0);
    fmpq_clear(v + 0);
    fmpq_clear(v + 1);
}

/* Random strings of N + 1 masses, ends held by multipliers:
     der(u_i) = w_i,
     (c_i + u_i^2) der(w_i) = sum_j a_ij u_j + b_i sin(w_i) [- l1 | - l2],
     u_0 = 0, u_N = 0,
   with small random integers a_ij, b_i, c_i >= 1 and a consistent point:
   u_0 = u_N = w_0 = w_N = 0 (the hidden constraints) and l1, l2 from
   der(w_0) = der(w_N) = 0.  Strangeness index 2, a = 6. */
Test(km_structured, random_strings)
{
    flint_rand_t st;
    flint_randinit(st);
    for (int trial = 0; trial < 4; trial++) {
        slong N = 3 + trial, i, j, nv = 0;
        slong a[8][8], b[8], c[8];
        char text[8000];
        size_t p = 0;
        const char *names[32];
        char namebuf[32][8];
        fmpq vals[32];
        fmpq_t l1, l2;

        fmpq_init(l1);
        fmpq_init(l2);
        for (i = 0; i <= N; i++) {
            for (j = 0; j <= N; j++)
                a[i][j] = (slong)n_randint(st, 7) - 3;
            b[i] = (slong)n_randint(st, 5) - 2;
            c[i] = 1 + (slong)n_randint(st, 3);
        }
        p += snprintf(text + p, sizeof text - p, "model s\nvar l1, l2");
        for (i = 0; i <= N; i++)
            p += snprintf(text + p, sizeof text - p, ", u%ld, w%ld", (long)i,
                          (long)i);
        p += snprintf(text + p, sizeof text - p, "\nmode m\n");
        for (i = 0; i <= N; i++)
            p += snprintf(text + p, sizeof text - p, "  der(u%ld) = w%ld\n",
                          (long)i, (long)i);
        for (i = 0; i <= N; i++) {
            p += snprintf(text + p, sizeof text - p,
                          "  (%ld + u%ld^2)*der(w%ld) = %ld*sin(w%ld)",
                          (long)c[i], (long)i, (long)i, (long)b[i], (long)i);
            for (j = 0; j <= N; j++)
                p += snprintf(text + p, sizeof text - p, " + %ld*u%ld",
                              (long)a[i][j], (long)j);
            if (i == 0)
                p += snprintf(text + p, sizeof text - p, " - l1");
            if (i == N)
                p += snprintf(text + p, sizeof text - p, " - l2");
            p += snprintf(text + p, sizeof text - p, "\n");
        }
        p += snprintf(text + p, sizeof text - p,
                      "  u0 = 0\n  u%ld = 0\nend\nstart m\n", (long)N);
        cr_assert(p < sizeof text);

        for (i = 0; i <= N; i++)
            for (int uw = 0; uw < 2; uw++) {
                fmpq_init(vals + nv);
                if (i > 0 && i < N)
                    fmpq_set_si(vals + nv, (slong)n_randint(st, 9) - 4,
                                1 + n_randint(st, 4));
                snprintf(namebuf[nv], sizeof namebuf[nv], "%c%ld",
                         uw ? 'w' : 'u', (long)i);
                names[nv] = namebuf[nv];
                nv++;
            }
        /* l1 = sum_j a_0j u_j, l2 = sum_j a_Nj u_j (sin(0) = 0). */
        for (j = 0; j <= N; j++) {
            fmpq_t term;
            fmpq_init(term);
            fmpq_mul_si(term, vals + 2 * j, a[0][j]);
            fmpq_add(l1, l1, term);
            fmpq_mul_si(term, vals + 2 * j, a[N][j]);
            fmpq_add(l2, l2, term);
            fmpq_clear(term);
        }
        fmpq_init(vals + nv);
        fmpq_set(vals + nv, l1);
        names[nv++] = "l1";
        fmpq_init(vals + nv);
        fmpq_set(vals + nv, l2);
        names[nv++] = "l2";
        compare(text, "m", names, vals, nv, 160, 0);
        for (i = 0; i < nv; i++)
            fmpq_clear(vals + i);
        fmpq_clear(l1);
        fmpq_clear(l2);
    }
    flint_randclear(st);
}
