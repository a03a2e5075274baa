/* thresholds.c -- the Kunkel-Mehrmann analysis' thresholds at their
 * boundaries: the explicit elimination's clarity test for a pivot
 * (ref/km/schur.c: |c| > 2^(-floor(prec/2)) max(1, ||F_mu;y||_F), strict)
 * and the index limit HDO_KM_MAX_MU = 8 (ref/km/hypothesis.c).  Expected
 * values from the rules and hand-derived indices, not from hdo. */
#include <criterion/criterion.h>
#include <string.h>
#include "km.h"
#include "km/km_level.h"
#include "status.h"
#include "../model_util.h"

/* km_schur_build on J (l rows, n variables, level 0: columns x, x');
   returns match[0]: 0 when row 0's x' coefficient is taken as a pivot,
   -1 when it is not. */
static slong
row0_match(const hdo_mat_t J, slong n, mpfr_prec_t prec)
{
    km_schur s;
    mpfr_ptr F = hdo_vec_init(J->rows, prec);
    for (slong i = 0; i < J->rows; i++)
        mpfr_set_zero(F + i, 1);
    km_schur_init(&s);
    km_schur_build(&s, J, F, J->rows, n, 0, prec);
    slong m = s.match[0];
    km_schur_clear(&s);
    hdo_vec_clear(F, J->rows);
    return m;
}

static const mpfr_prec_t precs[] = {64, 100, 199, 200, 333, 1000};

/* One row, der(x) with coefficient c: the norm is |c| < 1, so the scale
   is exactly 1 and the threshold exactly 2^(-floor(prec/2)): c on it is
   not a pivot (strict), c (1 + 2^-10) is, c (1 - 2^-10) and c / 2 are
   not, 2c is. */
Test(km_thresholds, schur_pivot_clarity_absolute)
{
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        mpfr_prec_t p = precs[i];
        long e = -(long)(p / 2);
        hdo_mat_t J;
        hdo_mat_init(J, 1, 2, p);
        mpfr_set_zero(hdo_mat_entry(J, 0, 0), 1);
        static const struct {
            ulong m;
            long shift;
            slong want;
        } cs[] = {{1, 0, -1},
                  {1025, -10, 0},
                  {1023, -10, -1},
                  {1, -1, -1},
                  {1, 1, 0}};
        for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
            for (int s = -1; s <= 1; s += 2) {
                mpfr_set_ui_2exp(hdo_mat_entry(J, 0, 1), cs[k].m,
                                 e + cs[k].shift, MPFR_RNDN);
                if (s < 0)
                    mpfr_neg(hdo_mat_entry(J, 0, 1), hdo_mat_entry(J, 0, 1),
                             MPFR_RNDN);
                cr_expect_eq(row0_match(J, 1, p), cs[k].want,
                             "%ld bits: c = %+d %lu 2^%ld", (long)p, s, cs[k].m,
                             e + cs[k].shift);
            }
        hdo_mat_clear(J);
    }
}

/* Relative: rows 1 and 2 carry 3 2^20 and 4 2^20 in their own x'
   columns, so ||F_0;y||_F = 5 2^20 (up to c^2, rounded up): the scale is
   5 2^20 and c = 5 2^(20 - floor(prec/2)) is not a pivot; c (1 + 2^-10)
   is, c (1 - 2^-10) is not.  Rows 1 and 2 are pivots throughout. */
Test(km_thresholds, schur_pivot_clarity_relative)
{
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        mpfr_prec_t p = precs[i];
        long e = 20 - (long)(p / 2);
        hdo_mat_t J;
        hdo_mat_init(J, 3, 6, p);
        for (slong r = 0; r < 3; r++)
            for (slong c = 0; c < 6; c++)
                mpfr_set_zero(hdo_mat_entry(J, r, c), 1);
        mpfr_set_ui_2exp(hdo_mat_entry(J, 1, 4), 3, 20, MPFR_RNDN);
        mpfr_set_ui_2exp(hdo_mat_entry(J, 2, 5), 4, 20, MPFR_RNDN);
        mpfr_set_ui(hdo_mat_entry(J, 0, 1), 1, MPFR_RNDN); /* F_x: no say */
        static const struct {
            ulong m;
            long shift;
            slong want;
        } cs[] = {
            {5, 0, -1}, {5 * 1025, -10, 0}, {5 * 1023, -10, -1}, {5, 1, 0}};
        for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
            mpfr_set_ui_2exp(hdo_mat_entry(J, 0, 3), cs[k].m, e + cs[k].shift,
                             MPFR_RNDN);
            cr_expect_eq(row0_match(J, 3, p), cs[k].want,
                         "%ld bits: c = %lu 2^%ld", (long)p, cs[k].m,
                         e + cs[k].shift);
        }
        hdo_mat_clear(J);
    }
}

/* A nilpotent chain of length k: der(x2) = x1, ..., der(xk) = x(k-1),
   0 = xk - sin(t): xk must be differentiated k times, strangeness index
   mu = k - 1 (k = 3 gives mu = 2, tests/km/km.c).  Consistent point at
   t = 1/2: x(k-j) = sin(t + j pi/2). */
static int
chain(hdo_km_result *res, int k, char *msg, size_t msglen)
{
    char text[2000];
    size_t len = 0;
    len += snprintf(text + len, sizeof text - len, "model chain\nvar x1");
    for (int j = 2; j <= k; j++)
        len += snprintf(text + len, sizeof text - len, ", x%d", j);
    len += snprintf(text + len, sizeof text - len, "\nmode m\n");
    for (int j = 1; j < k; j++)
        len += snprintf(text + len, sizeof text - len, "  der(x%d) = x%d\n",
                        j + 1, j);
    snprintf(text + len, sizeof text - len,
             "  0 = x%d - sin(t)\nend\nstart m\n", k);
    hdo_model_t model;
    tm_parse(model, text);
    mpfr_prec_t prec = 200;
    const hdo_mode *m = model->modes;
    mpfr_ptr x = hdo_vec_init(m->nvars, prec);
    mpfr_t t, a, pi;
    mpfr_inits2(prec, t, a, pi, (mpfr_ptr)0);
    mpfr_set_d(t, 0.5, MPFR_RNDN);
    mpfr_const_pi(pi, MPFR_RNDN);
    for (slong i = 0; i < m->nvars; i++) {
        const char *name = model->vars[m->vars[i]].name;
        int j = k - atoi(name + 1);
        mpfr_mul_ui(a, pi, j, MPFR_RNDN);
        mpfr_div_2ui(a, a, 1, MPFR_RNDN);
        mpfr_add(a, a, t, MPFR_RNDN);
        mpfr_sin(x + i, a, MPFR_RNDN);
    }
    hdo_error_t err;
    hdo_error_clear(&err);
    int st = hdo_km_analyze(res, model, 0, t, x, prec, &err);
    hdo_error_format(msg, (int)msglen, &err);
    mpfr_clears(t, a, pi, (mpfr_ptr)0);
    hdo_vec_clear(x, m->nvars);
    hdo_model_clear(model);
    return st;
}

/* mu = 8 (a chain of 9) is analysed, mu = 9 (10) is refused. */
Test(km_thresholds, max_mu_boundary)
{
    hdo_km_result res;
    char msg[1200];
    cr_assert_eq(chain(&res, 9, msg, sizeof msg), 0, "%s", msg);
    cr_expect_eq(res.mu, 8);
    cr_expect_eq(res.a, 9);
    cr_expect_eq(res.d, 0);
    cr_expect_eq(chain(&res, 10, msg, sizeof msg), HDO_ERR_SINGULAR, "%s", msg);
    cr_expect(strstr(msg, "Hypothesis 1 holds for no mu <= 8") != NULL, "%s",
              msg);
}
