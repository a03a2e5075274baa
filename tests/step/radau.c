/* radau.c -- the implicit method (Radau IIA, ref/step/radau.c): its tableau
   against the published small cases, and runs of linear stiff systems
   against their closed forms (exp solutions, MPFR's exp at the same
   precision) at 30 and 60 digits. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "../../ref/step/radau.h"
#include "hybrid.h"
#include "../model_util.h"

/* Hairer-Wanner II, table 5.5/5.6: s = 2: c = 1/3, 1, A = [5/12 -1/12;
   3/4 1/4]; s = 3: c = (4 -+ sqrt 6)/10, 1. */
Test(step, radau_tableau_two_and_three_stages)
{
    mpfr_prec_t prec = 200;
    mpfr_ptr c = hdo_vec_init(3, prec);
    mpfr_t w;
    hdo_mat_t A;
    mpfr_init2(w, prec);
    cr_assert_eq(hdo_radau_nodes(c, 2), 0);
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);
    cr_expect(tm_close_rel(c + 0, w, 58));
    cr_expect(mpfr_cmp_ui(c + 1, 1) == 0);
    hdo_mat_init(A, 2, 2, prec);
    cr_assert_eq(hdo_radau_matrix(A, c, 2), 0);
    const long num[4] = {5, -1, 3, 1}, den[4] = {12, 12, 4, 4};
    for (int k = 0; k < 4; k++) {
        mpfr_set_si(w, num[k], MPFR_RNDN);
        mpfr_div_ui(w, w, (unsigned long)den[k], MPFR_RNDN);
        cr_expect(tm_close_rel(hdo_mat_entry(A, k / 2, k % 2), w, 58), "a%d",
                  k);
    }
    hdo_mat_clear(A);
    cr_assert_eq(hdo_radau_nodes(c, 3), 0);
    for (int k = 0; k < 2; k++) {
        mpfr_sqrt_ui(w, 6, MPFR_RNDN);
        if (k == 0)
            mpfr_neg(w, w, MPFR_RNDN);
        mpfr_add_ui(w, w, 4, MPFR_RNDN);
        mpfr_div_ui(w, w, 10, MPFR_RNDN);
        cr_expect(tm_close_rel(c + k, w, 58), "c%d", k);
    }
    /* many stages: s - 1 interior nodes found, increasing, in (0, 1) */
    mpfr_ptr c40 = hdo_vec_init(40, prec);
    cr_assert_eq(hdo_radau_nodes(c40, 40), 0);
    for (int k = 1; k < 40; k++)
        cr_expect(mpfr_cmp(c40 + k - 1, c40 + k) < 0);
    cr_expect(mpfr_sgn(c40) > 0);
    hdo_vec_clear(c40, 40);
    hdo_vec_clear(c, 3);
    mpfr_clear(w);
}

/* x' = -1e6 x + y, y' = -y, x(0) = y(0) = 1 (stiffness ratio 10^6):
   y = e^-t, x = (1 - k) e^(-1e6 t) + k e^-t with k = 1/(1e6 - 1).  At
   t = 10 the fast mode is e^(-1e7), far below the tolerance; at
   t = 2e-6 it is e^-2.  Run with --method implicit at 30 and 60 digits:
   D - 2 digits at both points, in far fewer steps than the explicit
   method's 10^6 / 3 (its stability limit). */
Test(step, radau_linear_stiff_closed_form_30_and_60_digits)
{
    for (long D = 30; D <= 60; D += 30) {
        const char *ends[2] = {"2e-6", "10"};
        for (int e = 0; e < 2; e++) {
            hdo_model_t model;
            hdo_result_t res;
            hdo_error_t err;
            hdo_run_options opt;
            tm_parse(model, "model lin\nvar x = 1, y = 1\nmode m\n"
                            "  der(x) = -1e6*x + y\n  der(y) = -y\nend\n"
                            "start m\n");
            hdo_run_options_init(&opt);
            opt.digits = D;
            opt.method = HDO_METHOD_IMPLICIT;
            fmpq_t until;
            fmpq_init(until);
            tm_decimal(until, ends[e]);
            opt.until = until;
            hdo_result_init(res);
            cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
            fmpq_clear(until);
            cr_expect(res->implicit_steps == res->steps);
            cr_expect(res->steps < 3000, "%ld steps", (long)res->steps);
            hdo_row *last = res->rows + res->nrows - 1;
            mpfr_prec_t p = mpfr_get_prec(last->time) + 64;
            mpfr_t t, k, ex, ey;
            mpfr_inits2(p, t, k, ex, ey, (mpfr_ptr)0);
            mpfr_set_str(t, ends[e], 10, MPFR_RNDN);
            cr_expect(mpfr_equal_p(last->time, t) ||
                      tm_close_rel(last->time, t, D + 5));
            mpfr_set_ui(k, 999999, MPFR_RNDN);
            mpfr_ui_div(k, 1, k, MPFR_RNDN);
            mpfr_neg(ey, t, MPFR_RNDN);
            mpfr_exp(ey, ey, MPFR_RNDN);
            mpfr_mul_ui(ex, t, 1000000, MPFR_RNDN);
            mpfr_neg(ex, ex, MPFR_RNDN);
            mpfr_exp(ex, ex, MPFR_RNDN);
            mpfr_t a;
            mpfr_init2(a, p);
            mpfr_ui_sub(a, 1, k, MPFR_RNDN);
            mpfr_mul(ex, ex, a, MPFR_RNDN);
            mpfr_mul(a, k, ey, MPFR_RNDN);
            mpfr_add(ex, ex, a, MPFR_RNDN);
            mpfr_srcptr gx = last->values + tm_var(model, "x"),
                        gy = last->values + tm_var(model, "y");
            cr_expect(tm_close_rel(gy, ey, D - 2), "y(%s) at %ld digits",
                      ends[e], D);
            /* x relative to its own size (k e^-10 ~ 4.5e-11 at t = 10) */
            mpfr_sub(a, gx, ex, MPFR_RNDN);
            mpfr_div(a, a, ex, MPFR_RNDN);
            cr_expect(fabs(mpfr_get_d(a, MPFR_RNDN)) <= pow(10, -(D - 2)),
                      "x(%s) at %ld digits: rel. error %.3e", ends[e], D,
                      mpfr_get_d(a, MPFR_RNDN));
            mpfr_clears(t, k, ex, ey, a, (mpfr_ptr)0);
            hdo_result_clear(res);
            hdo_model_clear(model);
        }
    }
}

/* An index-1 DAE mode under --method implicit (Radau IIA on the reduced
   form y' = f(t, y, z), 0 = g(t, y, z)): the stiff Prothero-Robinson
   problem with its forcing as an algebraic unknown,
     y' = -1e6 (y - z) + w,  0 = z - sin t,  0 = w - cos t,  y(0) = 0,
   has y = z = sin t, w = cos t (closed form; MPFR's sin and cos at a
   higher precision).  At 30 and 60 digits every output row (the
   collocation polynomial as the dense output of the states and of the
   unknowns, then the unknowns solved from g = 0) agrees to D - 2
   digits, every step is implicit, far fewer than the explicit method's
   stability limit (~10^7 steps to t = 10). */
Test(step, radau_index1_dae_closed_form_30_and_60_digits)
{
    for (long D = 30; D <= 60; D += 30) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        hdo_run_options opt;
        tm_parse(model, "model pr\nvar y = 0, z = 0, w = 1\nmode m\n"
                        "  der(y) = -1e6*(y - z) + w\n"
                        "  0 = z - sin(t)\n  0 = w - cos(t)\nend\n"
                        "start m\nuntil 10\n");
        hdo_run_options_init(&opt);
        opt.digits = D;
        opt.method = HDO_METHOD_IMPLICIT;
        hdo_result_init(res);
        cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
        cr_expect(res->implicit_steps == res->steps);
        cr_expect(res->steps < 5000, "%ld steps", (long)res->steps);
        cr_expect(res->nrows > 100);
        for (slong k = 0; k < res->nrows; k++) {
            hdo_row *row = res->rows + k;
            mpfr_t sn, cs;
            mpfr_inits2(mpfr_get_prec(row->time) + 64, sn, cs, (mpfr_ptr)0);
            mpfr_sin_cos(sn, cs, row->time, MPFR_RNDN);
            double tk = mpfr_get_d(row->time, MPFR_RNDN);
            cr_expect(tm_close_rel(row->values + tm_var(model, "y"), sn, D - 2),
                      "y(%.6g) at %ld digits", tk, D);
            cr_expect(tm_close_rel(row->values + tm_var(model, "z"), sn, D - 2),
                      "z(%.6g) at %ld digits", tk, D);
            cr_expect(tm_close_rel(row->values + tm_var(model, "w"), cs, D - 2),
                      "w(%.6g) at %ld digits", tk, D);
            mpfr_clears(sn, cs, (mpfr_ptr)0);
        }
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* x' = -z, 0 = z - 2 x (a non-stiff index-1 DAE: x = e^-2t, z = 2 e^-2t)
   runs implicitly and right at 30 digits; a mode of higher index (the
   pendulum's, with constraints on its states) stays with the Taylor
   method under --method implicit (Radau IIA refuses it: no projection
   inside the step). */
Test(step, radau_dae_index1_implicit_higher_index_taylor)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    hdo_run_options opt;
    tm_parse(model, "model a\nvar x = 1, z\nmode m\n  der(x) = -z\n"
                    "  z = 2*x\nend\nstart m\nuntil 1\n");
    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.method = HDO_METHOD_IMPLICIT;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_expect(res->steps > 0 && res->implicit_steps == res->steps);
    hdo_row *last = res->rows + res->nrows - 1;
    mpfr_t ex;
    mpfr_init2(ex, mpfr_get_prec(last->time) + 64);
    mpfr_mul_si(ex, last->time, -2, MPFR_RNDN);
    mpfr_exp(ex, ex, MPFR_RNDN);
    cr_expect(mpfr_cmp_ui(last->time, 1) == 0);
    cr_expect(tm_close_rel(last->values + tm_var(model, "x"), ex, 28));
    mpfr_mul_2ui(ex, ex, 1, MPFR_RNDN);
    cr_expect(tm_close_rel(last->values + tm_var(model, "z"), ex, 28));
    mpfr_clear(ex);
    hdo_result_clear(res);
    hdo_model_clear(model);

    tm_parse(model, "model p\nvar x = 1, y = 0, vx = 0, vy = 0\nvar lam\n"
                    "mode m\n  der(x) = vx\n  der(y) = vy\n"
                    "  der(vx) = -x*lam\n  der(vy) = -y*lam - 9.81\n"
                    "  x^2 + y^2 = 1\nend\nstart m\nuntil 0.5\n");
    hdo_run_options_init(&opt);
    opt.digits = 30;
    opt.method = HDO_METHOD_IMPLICIT;
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_expect(res->steps > 0);
    cr_expect_eq(res->implicit_steps, 0);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* Solves M x = R with the block form (radau_block.c) for a random R and
   checks |M x - R| <= 1e-9 |M| |x| (double's accuracy times a margin for
   the eigenvector matrix's conditioning) against M built here in MPFR, at
   h = 0.01 and each stage count in ss: the states' rows (k < ny)
   I - h (A (x) J), an unknown's rows (k >= ny) J at each stage alone. */
static void
check_block_solve(const double *J, slong n, slong ny, const slong *ss,
                  int count)
{
    for (int c = 0; c < count; c++) {
        slong s = ss[c], ns = n * s;
        /* the tableau's Vandermonde solve loses about 2.4 s bits */
        mpfr_prec_t prec = 256 + 3 * s;
        mpfr_ptr nodes = hdo_vec_init(s, prec), Jm = hdo_vec_init(n * n, prec);
        mpfr_ptr R = hdo_vec_init(ns, prec), x = hdo_vec_init(ns, prec);
        hdo_mat_t A;
        hdo_radau_block b;
        mpfr_t h, acc, t, a, rn, mn, xn, row;
        mpfr_inits2(prec, h, acc, t, a, rn, mn, xn, row, (mpfr_ptr)0);
        hdo_mat_init(A, s, s, prec);
        cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
        cr_assert_eq(hdo_radau_matrix(A, nodes, s), 0);
        cr_assert_eq(hdo_radau_block_init(&b, A, n), 0, "s = %ld", (long)s);
        if (ny < n)
            hdo_radau_block_set_states(&b, ny);
        for (slong e = 0; e < n * n; e++)
            mpfr_set_d(Jm + e, J[e], MPFR_RNDN);
        mpfr_set_d(h, 0.01, MPFR_RNDN);
        cr_assert_eq(hdo_radau_block_factor(&b, h, Jm), 0);
        for (slong k = 0; k < ns; k++) {
            mpfr_set_si(R + k, (long)((k * 7919) % 201) - 100, MPFR_RNDN);
            mpfr_div_ui(R + k, R + k, 37, MPFR_RNDN);
            mpfr_set(x + k, R + k, MPFR_RNDN);
        }
        hdo_radau_block_solve(&b, x);
        mpfr_set_ui(rn, 0, MPFR_RNDN);
        mpfr_set_ui(mn, 0, MPFR_RNDN);
        hdo_vec_norm_inf(xn, x, ns);
        for (slong i = 0; i < s; i++)
            for (slong k = 0; k < n; k++) {
                /* acc = (M x)_ik - R_ik, row = sum |M_ik,jl| */
                mpfr_set_ui(acc, 0, MPFR_RNDN);
                mpfr_set_ui(row, 0, MPFR_RNDN);
                for (slong j = 0; j < s; j++)
                    for (slong l = 0; l < n; l++) {
                        if (k < ny) {
                            mpfr_mul(t, hdo_mat_entry(A, i, j), h, MPFR_RNDN);
                            mpfr_mul(t, t, Jm + k * n + l, MPFR_RNDN);
                            mpfr_neg(t, t, MPFR_RNDN);
                            if (i == j && k == l)
                                mpfr_add_ui(t, t, 1, MPFR_RNDN);
                        } else if (i == j)
                            mpfr_set(t, Jm + k * n + l, MPFR_RNDN);
                        else
                            continue;
                        mpfr_abs(a, t, MPFR_RNDN);
                        mpfr_add(row, row, a, MPFR_RNDN);
                        mpfr_mul(t, t, x + j * n + l, MPFR_RNDN);
                        mpfr_add(acc, acc, t, MPFR_RNDN);
                    }
                mpfr_sub(acc, acc, R + i * n + k, MPFR_RNDN);
                mpfr_abs(acc, acc, MPFR_RNDN);
                mpfr_max(mn, mn, row, MPFR_RNDN);
                mpfr_max(rn, rn, acc, MPFR_RNDN);
            }
        mpfr_mul(t, mn, xn, MPFR_RNDN);
        mpfr_mul_d(t, t, 1e-9, MPFR_RNDN);
        cr_expect(mpfr_cmp(rn, t) <= 0,
                  "s = %ld: |Mx - R| = %.3e, |M||x| = %.3e", (long)s,
                  mpfr_get_d(rn, MPFR_RNDN),
                  mpfr_get_d(mn, MPFR_RNDN) * mpfr_get_d(xn, MPFR_RNDN));
        /* and it solved something: x is not R */
        mpfr_sub(t, x, R, MPFR_RNDN);
        cr_expect(!mpfr_zero_p(t));
        hdo_radau_block_clear(&b);
        hdo_mat_clear(A);
        hdo_vec_clear(nodes, s);
        hdo_vec_clear(Jm, n * n);
        hdo_vec_clear(R, ns);
        hdo_vec_clear(x, ns);
        mpfr_clears(h, acc, t, a, rn, mn, xn, row, (mpfr_ptr)0);
    }
}

/* The block-diagonal Newton solve (radau_block.c, in double) against the
   full matrix M = I - h (A (x) J) built here in MPFR: x = solve(R) must
   satisfy |M x - R| <= 1e-9 |M| |x| (double's accuracy times a margin
   for the eigenvector matrix's conditioning), with a stiff J (entries
   from -1e6 to 1e3) at s = 3, 7 (one real eigenvalue), 18 and 24. */
Test(step, radau_block_solve_against_full_matrix)
{
    const double J[9] = {-1e6, 1, 0, 0.5, -2, 3, 0, 1e3, -1e4};
    const slong ss[5] = {3, 7, 18, 24, 48};
    check_block_solve(J, 3, 3, ss, 5);
}

/* The Schur form (radau_schur.c, the QR algorithm in double) reproduces
   A to 1e-13 at 24 stages (30 digits), 50 and 51, and where the former
   route from A's eigenvectors at 64 + 2 s bits failed (64: 1e-11; 68
   and 72: NaN) up to 100; the block solve at 51, 64, 72 stages against
   the full matrix; and the check itself flags a perturbed Q and a NaN
   (decisions.md D-105). */
Test(step, radau_schur_form_many_stages)
{
    static const slong ss[] = {24, 50, 51, 64, 68, 72, 100};
    for (size_t k = 0; k < sizeof ss / sizeof ss[0]; k++) {
        slong s = ss[k];
        mpfr_prec_t prec = 366 + 3 * s + 32;
        mpfr_ptr c = hdo_vec_init(s, prec);
        hdo_mat_t A;
        hdo_mat_init(A, s, s, prec);
        cr_assert_eq(hdo_radau_nodes(c, s), 0);
        cr_assert_eq(hdo_radau_matrix(A, c, s), 0);
        _Complex double *Q = malloc(3 * s * s * sizeof(_Complex double));
        cr_assert(Q != NULL);
        _Complex double *S = Q + s * s, *T = S + s * s;
        cr_expect_eq(hdo_radau_schur(Q, S, T, A), 0, "s = %ld", (long)s);
        double err = hdo_radau_schur_error(Q, S, T, A, s);
        cr_expect(err <= HDO_RADAU_SCHUR_TOL, "s = %ld: %g", (long)s, err);
        for (slong i = 0; i < s; i++)
            for (slong j = 0; j < i; j++)
                cr_expect(S[i * s + j] == 0, "S is triangular");
        Q[s + 1] += 1e-10;
        cr_expect(hdo_radau_schur_error(Q, S, T, A, s) > 1e-13);
        Q[s + 1] = NAN;
        cr_expect(isnan(hdo_radau_schur_error(Q, S, T, A, s)));
        free(Q);
        hdo_mat_clear(A);
        hdo_vec_clear(c, s);
    }
    const double J[4] = {-1e6, 1, 0.5, -2};
    const slong sb[3] = {51, 64, 72};
    check_block_solve(J, 2, 2, sb, 3);
}

/* Prothero-Robinson: y' = -1e6 (y - sin t) + cos t, y(0) = 0, whose
   solution is y = sin t (stiffness 1e6 against a smooth solution, the
   classic test of an implicit method's accuracy on stiff problems: a
   method with order reduction loses digits here).  --method implicit
   at 30 and 60 digits to t = 10: y(10) = sin 10 to D - 2 digits, in
   far fewer steps than the explicit method's stability limit (~10^6). */
Test(step, radau_prothero_robinson_30_and_60_digits)
{
    for (long D = 30; D <= 60; D += 30) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        hdo_run_options opt;
        tm_parse(model, "model pr\nvar y = 0\nmode m\n"
                        "  der(y) = -1e6*(y - sin(t)) + cos(t)\nend\n"
                        "start m\nuntil 10\n");
        hdo_run_options_init(&opt);
        opt.digits = D;
        opt.method = HDO_METHOD_IMPLICIT;
        hdo_result_init(res);
        cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
        cr_expect(res->implicit_steps == res->steps);
        cr_expect(res->steps < 5000, "%ld steps", (long)res->steps);
        for (slong k = 0; k < res->nrows; k++) {
            hdo_row *row = res->rows + k;
            mpfr_t ex;
            mpfr_init2(ex, mpfr_get_prec(row->time) + 64);
            mpfr_sin(ex, row->time, MPFR_RNDN);
            cr_expect(tm_close_rel(row->values + tm_var(model, "y"), ex, D - 2),
                      "y(%.6g) at %ld digits", mpfr_get_d(row->time, MPFR_RNDN),
                      D);
            mpfr_clear(ex);
        }
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* summary.json's method_arcs (hdo_result's): under --method auto the
   stiff system x' = -1e6 x + y, y' = -y runs Taylor from t = 0 until the
   stiffness watch switches it, then Radau IIA to the end: two arcs, the
   second starting where the first ends; a non-stiff run is one Taylor
   arc; --method implicit is one implicit arc. */
Test(step, radau_method_arcs_auto_taylor_implicit)
{
    const char *src[3] = {
        "model lin\nvar x = 1, y = 1\nmode m\n  der(x) = -1e6*x + y\n"
        "  der(y) = -y\nend\nstart m\nuntil 1\n",
        "model slow\nvar y = 1\nmode m\n  der(y) = -y\nend\nstart m\n"
        "until 1\n",
        "model lin\nvar x = 1, y = 1\nmode m\n  der(x) = -1e6*x + y\n"
        "  der(y) = -y\nend\nstart m\nuntil 1\n"};
    const int meth[3] = {HDO_METHOD_AUTO, HDO_METHOD_AUTO, HDO_METHOD_IMPLICIT};
    const slong narcs[3] = {2, 1, 1};
    for (int c = 0; c < 3; c++) {
        hdo_model_t model;
        hdo_result_t res;
        hdo_error_t err;
        hdo_run_options opt;
        tm_parse(model, src[c]);
        hdo_run_options_init(&opt);
        opt.digits = 30;
        opt.method = meth[c];
        hdo_result_init(res);
        cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
        cr_assert_eq(res->nmethod_arcs, narcs[c], "case %d: %ld arcs", c,
                     (long)res->nmethod_arcs);
        cr_expect(res->method_arcs[0].t_start == 0.0);
        if (c == 0) {
            cr_expect_str_eq(res->method_arcs[0].method, "taylor");
            cr_expect_str_eq(res->method_arcs[1].method, "implicit");
            cr_expect(res->method_arcs[1].t_start == res->method_arcs[0].t_end);
            /* 100 stiff steps near the stability limit (about 2e-5,
               order / 1e6) after the transient: far before t = 1 */
            cr_expect(res->method_arcs[1].t_start > 0 &&
                          res->method_arcs[1].t_start < 1e-2,
                      "switched at %g", res->method_arcs[1].t_start);
            cr_expect_eq(res->method_switches, 1);
        } else {
            cr_expect_str_eq(res->method_arcs[0].method,
                             c == 1 ? "taylor" : "implicit");
        }
        hdo_result_clear(res);
        hdo_model_clear(model);
    }
}

/* The block solve of a DAE mode (radau_block.c, A^-1's Schur form
   T = S^-1) against the full Newton matrix built here in MPFR: the
   states' rows I - h (A (x) (f_y f_z)), the unknown's rows (g_y g_z) at
   each stage alone; x = solve(R) must satisfy |M x - R| <= 1e-9 |M| |x|
   at s = 3, 7, 18 and 24, with a stiff f (entries to -1e6, h = 0.01).
   A wrong sign or a missing A^-1 in the unknowns' or the states' rows
   leaves residuals of the size of R. */
Test(step, radau_block_solve_dae_against_full_matrix)
{
    /* y1' = -1e6 y1 + y2 + z, y2' = 0.5 y1 - 2 y2 + 3 z, 0 = y1 - y2 + 2z
       linearised: rows 0, 1 f, row 2 g */
    const double J[9] = {-1e6, 1, 1, 0.5, -2, 3, 1, -1, 2};
    const slong ss[4] = {3, 7, 18, 24};
    check_block_solve(J, 3, 2, ss, 4);
}

/* The band form of the blocks (radau_band.c, issue #28) against the
   dense one: J of a chain of 40 components stored in a scrambled order
   (component i couples to the components before and after it in the
   chain, 3 nonzeros a row, entries to -1e6) is banded only after the
   reverse Cuthill-McKee order; the solve with the pattern must give the
   dense solve's x to 1e-9 relative (both are double-precision
   preconditioners of the same matrix), for an ODE and for a DAE whose
   last 10 components are unknowns, at s = 3 and 24. */
Test(step, radau_block_band_against_dense)
{
    const slong n = 40, ss[2] = {3, 24};
    mpfr_prec_t prec = 256;
    slong sigma[40];
    for (slong i = 0; i < n; i++)
        sigma[i] = (i * 17 + 5) % n; /* a permutation: 17 is prime to 40 */
    for (int dae = 0; dae < 2; dae++)
        for (int c = 0; c < 2; c++) {
            slong s = ss[c], nnz = 0, row[3 * 40], col[3 * 40];
            mpfr_ptr nodes = hdo_vec_init(s, prec);
            mpfr_ptr Jd = hdo_vec_init(n * n, prec),
                     Jv = hdo_vec_init(3 * n, prec);
            mpfr_ptr R1 = hdo_vec_init(n * s, prec),
                     R2 = hdo_vec_init(n * s, prec);
            hdo_mat_t A;
            hdo_radau_block bd, bb;
            mpfr_t h;
            mpfr_init2(h, prec);
            mpfr_set_d(h, 0.01, MPFR_RNDN);
            for (slong k = 0; k < n * n; k++)
                mpfr_set_ui(Jd + k, 0, MPFR_RNDN);
            for (slong k = 0; k < n; k++)
                for (slong d = -1; d <= 1; d++) {
                    if (k + d < 0 || k + d >= n)
                        continue;
                    slong i = sigma[k], j = sigma[k + d];
                    double v = d == 0 ? -1e6 * (1 + 0.01 * (double)k)
                                      : 3e5 + 1e3 * (double)(k % 7);
                    row[nnz] = i;
                    col[nnz] = j;
                    mpfr_set_d(Jv + nnz, v, MPFR_RNDN);
                    mpfr_set_d(Jd + i * n + j, v, MPFR_RNDN);
                    nnz++;
                }
            hdo_mat_init(A, s, s, prec);
            cr_assert_eq(hdo_radau_nodes(nodes, s), 0);
            cr_assert_eq(hdo_radau_matrix(A, nodes, s), 0);
            cr_assert_eq(hdo_radau_block_init(&bd, A, n), 0);
            cr_assert_eq(hdo_radau_block_init(&bb, A, n), 0);
            if (dae) {
                hdo_radau_block_set_states(&bd, n - 10);
                hdo_radau_block_set_states(&bb, n - 10);
            }
            hdo_radau_block_set_pattern(&bb, nnz, row, col);
            cr_assert(bb.band, "the chain is a band after RCM");
            cr_expect(bb.kl <= 2 && bb.ku <= 2, "kl %ld ku %ld", (long)bb.kl,
                      (long)bb.ku);
            cr_assert_eq(hdo_radau_block_factor(&bd, h, Jd), 0);
            cr_assert_eq(hdo_radau_block_factor_sparse(&bb, h, Jv), 0);
            for (slong k = 0; k < n * s; k++) {
                mpfr_set_d(R1 + k, sin(1.0 + 3.0 * (double)k), MPFR_RNDN);
                mpfr_set(R2 + k, R1 + k, MPFR_RNDN);
            }
            hdo_radau_block_solve(&bd, R1);
            hdo_radau_block_solve(&bb, R2);
            double big = 0, diff = 0;
            for (slong k = 0; k < n * s; k++) {
                double a = mpfr_get_d(R1 + k, MPFR_RNDN),
                       b = mpfr_get_d(R2 + k, MPFR_RNDN);
                big = fmax(big, fabs(a));
                diff = fmax(diff, fabs(a - b));
            }
            cr_expect(big > 0 && diff <= 1e-9 * big, "dae %d s %ld: %g / %g",
                      dae, (long)s, diff, big);
            hdo_radau_block_clear(&bd);
            hdo_radau_block_clear(&bb);
            hdo_mat_clear(A);
            mpfr_clear(h);
            hdo_vec_clear(nodes, s);
            hdo_vec_clear(Jd, n * n);
            hdo_vec_clear(Jv, 3 * n);
            hdo_vec_clear(R1, n * s);
            hdo_vec_clear(R2, n * s);
        }
}

/* The first step's time scale (hdo_radau_time_scale) of a state at rest:
   the ball h = S^2, v = 0 (h' = v, v' = -g, J_hv = 1): h moves by its
   own size in sqrt(S^2 / g) = S / sqrt(g) (decisions.md D-122), at every
   S in proportion to S (to the bit for S = 2^-k); it was S^2 / g, a time
   squared.  A moving component keeps its |y_i| / |f_i|; with no
   acceleration either, one time unit as before. */
Test(step, radau_time_scale_of_a_state_at_rest)
{
    const slong n = 2, N = 2, nnz = 1, slot[3] = {0, 1, 2};
    const slong jrow[1] = {0}, jcol[1] = {1};
    mpfr_t value[3], T, T1, w;
    mpfr_ptr y0 = hdo_vec_init(2, 64), sc = hdo_vec_init(2, 64);
    for (int k = 0; k < 3; k++)
        mpfr_init2(value[k], 64);
    mpfr_inits2(64, T, T1, w, (mpfr_ptr)0);
    for (long k = 0; k <= 100; k += 25) {
        mpfr_set_ui_2exp(y0 + 0, 1, -2 * k, MPFR_RNDN); /* h = S^2 */
        mpfr_set_ui(y0 + 1, 0, MPFR_RNDN);
        mpfr_set_ui(value[0], 0, MPFR_RNDN); /* h' = v = 0 */
        mpfr_set_d(value[1], -9.81, MPFR_RNDN);
        mpfr_set_ui(value[2], 1, MPFR_RNDN); /* dh'/dv */
        hdo_radau_time_scale(T, y0, value, slot, nnz, jrow, jcol, NULL, sc, n,
                             N, 9);
        if (k == 0) {
            mpfr_set_d(w, 1 / sqrt(9.81), MPFR_RNDN);
            cr_expect(fabs(mpfr_get_d(T, MPFR_RNDN) / mpfr_get_d(w, MPFR_RNDN) -
                           1) < 1e-15,
                      "T = %.17g", mpfr_get_d(T, MPFR_RNDN));
            mpfr_set(T1, T, MPFR_RNDN);
        } else {
            mpfr_mul_2si(w, T1, -k, MPFR_RNDN);
            cr_expect(mpfr_equal_p(T, w), "S = 2^-%ld: T / S = %.17g", k,
                      mpfr_get_d(T, MPFR_RNDN) * pow(2.0, (double)k));
        }
    }
    /* a moving component: |y_i| / |f_i| (h = 1, v = 2: 1/2 and 2/9.81) */
    mpfr_set_ui(y0 + 0, 1, MPFR_RNDN);
    mpfr_set_ui(y0 + 1, 2, MPFR_RNDN);
    mpfr_set_ui(value[0], 2, MPFR_RNDN);
    hdo_radau_time_scale(T, y0, value, slot, nnz, jrow, jcol, NULL, sc, n, N,
                         9);
    mpfr_set_ui(w, 2, MPFR_RNDN);
    mpfr_div(w, w, value[1], MPFR_RNDN);
    mpfr_abs(w, w, MPFR_RNDN);
    cr_expect(mpfr_equal_p(T, w), "moving: T = %.17g",
              mpfr_get_d(T, MPFR_RNDN));
    /* at rest without acceleration: one time unit */
    mpfr_set_ui(y0 + 1, 0, MPFR_RNDN);
    mpfr_set_ui(value[0], 0, MPFR_RNDN);
    mpfr_set_ui(value[1], 0, MPFR_RNDN);
    hdo_radau_time_scale(T, y0, value, slot, nnz, jrow, jcol, NULL, sc, n, N,
                         9);
    cr_expect(mpfr_cmp_ui(T, 1) == 0, "at rest: T = %.17g",
              mpfr_get_d(T, MPFR_RNDN));
    for (int k = 0; k < 3; k++)
        mpfr_clear(value[k]);
    mpfr_clears(T, T1, w, (mpfr_ptr)0);
    hdo_vec_clear(y0, 2);
    hdo_vec_clear(sc, 2);
}
