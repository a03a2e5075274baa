/* cpform.c -- the linear complementarity form of a block (reduce.h,
   hdo_cp_form_build) and the P test of its transfer matrix
   (hdo_lcp_is_p_series), on circuits and a contact whose realisation is
   worked out by hand in the comments. */
#include <string.h>
#include <criterion/criterion.h>
#include "reduce.h"

static void
build(hdo_model_t m, hdo_cp_form *f, const char *text, int want)
{
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(hdo_model_parse_string(m, text, strlen(text), "f.hdae", &err),
                 0, "%s", err.message);
    hdo_cp_form_init(f);
    cr_assert_eq(hdo_cp_form_build(f, m, 0), want, "%s", f->why);
}

static void
assert_q(const fmpq *x, slong num, ulong den)
{
    fmpq_t y;
    fmpq_init(y);
    fmpq_set_si(y, num, den);
    cr_assert(fmpq_equal(x, y), "%s, expected %ld/%lu",
              fmpq_get_str(NULL, 10, x), (long)num, den);
    fmpq_clear(y);
}

static int
p_series(const hdo_cp_form *f, ulong *alpha, slong *order)
{
    fmpq_t c;
    fmpq_init(c);
    int p = hdo_lcp_is_p_series(alpha, order, c, f->R, f->L);
    fmpq_clear(c);
    return p;
}

/* The ideal-diode peak detector: C vC' = id - vC/R, ud = V sin(w t) - vC,
   B = -ud = vC - V sin(w t): D = 0; with id = lambda, vC' = lambda/C -
   vC/(RC), so C_sys = 1, B_sys = 1/C: relative degree 1, R[1] = 1/C =
   1000; G(s) = 1000/s + ... is P for large s, D is not. */
Test(cpform, rectifier)
{
    hdo_model_t m;
    hdo_cp_form f;
    build(m, &f,
          "model r\nparam C = 1/1000\nvar vC = 0, id, ud\nmode m\n"
          "  C*der(vC) = id - vC/100\n  ud = 10*sin(t) - vC\n"
          "  0 <= id perp -ud >= 0\nend\nstart m\n",
          HDO_CP_LCS);
    cr_assert_eq(f.m, 1);
    cr_assert_eq(f.ns, 1);
    assert_q(fmpq_mat_entry(f.R, 0, 0), 0, 1);
    assert_q(fmpq_mat_entry(f.R + 1, 0, 0), 1000, 1);
    /* R[2] = C A B = 1 (-1/(RC)) (1/C) = -10 * 1000 */
    assert_q(fmpq_mat_entry(f.R + 2, 0, 0), -10000, 1);
    cr_assert_eq(f.reldeg[0], 1);
    ulong alpha;
    slong order;
    cr_assert(p_series(&f, &alpha, &order));
    hdo_cp_form_clear(&f);
    hdo_model_clear(m);
}

/* A ball on the floor: der(h) = v, m v' = -m g + f, B = h: D = C B = 0,
   C A B = 1/m (relative degree 2). */
Test(cpform, contact)
{
    hdo_model_t m;
    hdo_cp_form f;
    build(m, &f,
          "model c\nparam mass = 2\nvar h = 1, v = 0, f\nmode m\n"
          "  der(h) = v\n  mass*der(v) = -mass*981/100 + f\n"
          "  0 <= f perp h >= 0\nend\nstart m\n",
          HDO_CP_LCS);
    cr_assert_eq(f.ns, 2);
    assert_q(fmpq_mat_entry(f.R, 0, 0), 0, 1);
    assert_q(fmpq_mat_entry(f.R + 1, 0, 0), 0, 1);
    assert_q(fmpq_mat_entry(f.R + 2, 0, 0), 1, 2);
    cr_assert_eq(f.reldeg[0], 2);
    ulong alpha;
    slong order;
    cr_assert(p_series(&f, &alpha, &order));
    hdo_cp_form_clear(&f);
    hdo_model_clear(m);
}

/* The diode bridge of cases/diode_bridge.hdae: D is Siconos' matrix
   [[1/R, 1/R, -1, 0], [1/R, 1/R, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0]]; its
   minor on rows {3} is 0 (not P), and G's minor on {1, 2} is
   identically 0 (rows 1 and 2 of G are those of D: the currents i2, i4
   depend on no state). */
Test(cpform, bridge)
{
    hdo_model_t m;
    hdo_cp_form f;
    build(m, &f,
          "model b\nparam L = 1/100\nparam C = 1/1000000\nparam R = 1000\n"
          "var v = 10, iL = 0, w2, w4, i1, i2, i3, i4, iR\nmode m\n"
          "  C*der(v) = -iL - i1 + i3\n  L*der(iL) = v\n  R*iR = w2 + w4\n"
          "  i2 = iR - i1\n  i4 = iR - i3\n  0 <= w2 perp i2 >= 0\n"
          "  0 <= w4 perp i4 >= 0\n  0 <= i1 perp w2 - v >= 0\n"
          "  0 <= i3 perp v + w4 >= 0\nend\nstart m\n",
          HDO_CP_LCS);
    slong want[4][4][2] = {{{1, 1000}, {1, 1000}, {-1, 1}, {0, 1}},
                           {{1, 1000}, {1, 1000}, {0, 1}, {-1, 1}},
                           {{1, 1}, {0, 1}, {0, 1}, {0, 1}},
                           {{0, 1}, {1, 1}, {0, 1}, {0, 1}}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            assert_q(fmpq_mat_entry(f.R, i, j), want[i][j][0],
                     (ulong)want[i][j][1]);
    ulong alpha;
    slong order;
    fmpq_t minor;
    fmpq_init(minor);
    cr_assert(!hdo_lcp_is_p_matrix(&alpha, minor, f.R));
    cr_assert_eq(alpha, 4);
    cr_assert(!p_series(&f, &alpha, &order));
    cr_assert_eq(alpha, 3);
    cr_assert_eq(order, -1);
    fmpq_clear(minor);
    hdo_cp_form_clear(&f);
    hdo_model_clear(m);
}

/* No linear form: the relay of Ex. 5.3 (x1 = l1 - l2 ties the left
   sides to a state) and a nonlinear B. */
Test(cpform, no_form)
{
    hdo_model_t m;
    hdo_cp_form f;
    build(m, &f,
          "model p\nvar x1 = 0, x2 = 0, x3 = 0, u, l1, l2\nmode m\n"
          "  der(x1) = x2\n  der(x2) = x3\n  der(x3) = u\n  x1 = l1 - l2\n"
          "  0 <= l1 perp 1 + u >= 0\n  0 <= l2 perp 1 - u >= 0\nend\n"
          "start m\n",
          HDO_CP_NOT_FREE);
    hdo_cp_form_clear(&f);
    hdo_model_clear(m);
    build(m, &f,
          "model n\nvar x = 1, l\nmode m\n  der(x) = -x + l\n"
          "  0 <= l perp x^2 - l >= 0\nend\nstart m\n",
          HDO_CP_NOT_LINEAR);
    cr_assert(strstr(f.why, "B = x^2 - l (line 5)") != NULL, "%s", f.why);
    hdo_cp_form_clear(&f);
    hdo_model_clear(m);
}
