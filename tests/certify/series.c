/* series.c -- the ball Taylor recurrences (ref/certify/series.c) against
   Arb's own series functions (arb_poly_*_series: another algorithm), every
   kind, at two precisions; and the jets' derivatives against the series of
   the derivative (d/dx0 of coefficient k of f(x0 + s) is (k + 1) times
   coefficient k + 1). */
#include <criterion/criterion.h>
#include <string.h>
#include <arb_poly.h>
#include "model.h"
#include "certify/series.h"

/* The series of f(x0 + s) for the model expression text (in x), by the
   recurrences, into co[0..order] (value) and dco (derivative jets). */
static void
series_of(arb_ptr co, arb_ptr dco, const char *expr, const arb_t x0,
          slong order, slong prec)
{
    char text[512];
    snprintf(text, sizeof text,
             "model s\nvar x = 0, y\nmode m\n  der(x) = 1\n  y = %s\nend\n"
             "start m\n",
             expr);
    hdo_model_t model;
    hdo_error_t err;
    hdo_model_init(model);
    int st = hdo_model_parse_string(model, text, strlen(text), "s.hdae", &err);
    cr_assert_eq(st, 0, "%s", err.message);
    /* the equation is y - (expr) = 0: the root is its negation */
    hdo_expr root = model->modes[0].eqs[1].residual;
    hdo_program_t prog;
    hdo_program_init(prog, model->pool, &root, 1, 64);
    cert_series_t S;
    cert_series_init(S, prog, model->pool, order, 1, prec);
    cr_assert_eq(prog->ninputs, 2); /* x and y */
    for (slong i = 0; i < prog->ninputs; i++) {
        slong s = prog->inputs[i].slot;
        if (prog->inputs[i].var == 0) { /* x = x0 + s */
            arb_set(cert_series_coef(S, s, 0, 0), x0);
            arb_one(cert_series_coef(S, s, 1, 0)); /* d/dx0 */
            if (order >= 1)
                arb_one(cert_series_coef(S, s, 0, 1));
        }
    }
    for (slong k = 0; k <= order; k++)
        cr_assert_eq(cert_series_step(S, k, NULL, NULL), 0, "%s order %ld",
                     expr, (long)k);
    slong r = prog->root_slot[0];
    for (slong k = 0; k <= order; k++) {
        /* y - f: the root at y's coefficients zero is -f */
        arb_neg(co + k, cert_series_coef(S, r, 0, k));
        arb_neg(dco + k, cert_series_coef(S, r, 1, k));
    }
    cert_series_clear(S);
    hdo_program_clear(prog);
    hdo_model_clear(model);
}

typedef void (*series_fn)(arb_poly_t, const arb_poly_t, slong, slong);

static void
check(const char *expr, series_fn f, const char *x0s, slong prec)
{
    slong order = 24;
    arb_t x0;
    arb_poly_t u, ref;
    arb_ptr co = _arb_vec_init(order + 2), dco = _arb_vec_init(order + 2);
    arb_init(x0);
    arb_poly_init(u);
    arb_poly_init(ref);
    arb_set_str(x0, x0s, prec);
    series_of(co, dco, expr, x0, order + 1, prec);
    arb_poly_set_coeff_arb(u, 0, x0);
    arb_poly_set_coeff_si(u, 1, 1);
    f(ref, u, order + 2, prec);
    for (slong k = 0; k <= order + 1; k++) {
        arb_t rk;
        arb_init(rk);
        arb_poly_get_coeff_arb(rk, ref, k);
        cr_assert(arb_overlaps(co + k, rk), "%s at %s, order %ld, prec %ld",
                  expr, x0s, (long)k, (long)prec);
        /* a ball as tight as Arb's own, within a few bits */
        cr_assert(arb_rel_accuracy_bits(co + k) > prec - 40 || arb_is_zero(rk),
                  "%s order %ld: %ld bits", expr, (long)k,
                  (long)arb_rel_accuracy_bits(co + k));
        if (k <= order) {
            arb_poly_get_coeff_arb(rk, ref, k + 1);
            arb_mul_si(rk, rk, k + 1, prec);
            cr_assert(arb_overlaps(dco + k, rk), "d/dx0 of %s order %ld", expr,
                      (long)k);
        }
        arb_clear(rk);
    }
    _arb_vec_clear(co, order + 2);
    _arb_vec_clear(dco, order + 2);
    arb_poly_clear(u);
    arb_poly_clear(ref);
    arb_clear(x0);
}

static void
sin_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_sin_series(r, u, n, p);
}
static void
cos_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_cos_series(r, u, n, p);
}
static void
tan_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_tan_series(r, u, n, p);
}
static void
asin_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_asin_series(r, u, n, p);
}
static void
acos_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_acos_series(r, u, n, p);
}
static void
atan_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_atan_series(r, u, n, p);
}
static void
exp_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_exp_series(r, u, n, p);
}
static void
log_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_log_series(r, u, n, p);
}
static void
sqrt_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_sqrt_series(r, u, n, p);
}
static void
sinh_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_sinh_series(r, u, n, p);
}
static void
cosh_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_cosh_series(r, u, n, p);
}
static void
tanh_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    /* tanh u = 1 - 2 / (exp(2u) + 1) */
    arb_poly_t e;
    arb_poly_init(e);
    arb_poly_scalar_mul_2exp_si(e, u, 1);
    arb_poly_exp_series(e, e, n, p);
    arb_poly_add_si(e, e, 1, p);
    arb_poly_inv_series(e, e, n, p);
    arb_poly_scalar_mul_2exp_si(e, e, 1);
    arb_poly_neg(e, e);
    arb_poly_add_si(r, e, 1, p);
    arb_poly_clear(e);
}
static void
pow3_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_pow_ui_trunc_binexp(r, u, 3, n, p);
}
static void
pow5_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_pow_ui_trunc_binexp(r, u, 5, n, p);
}
static void
inv2_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_poly_t s;
    arb_poly_init(s);
    arb_poly_mullow(s, u, u, n, p);
    arb_poly_inv_series(r, s, n, p);
    arb_poly_clear(s);
}
static void
powr_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    arb_t e;
    arb_init(e);
    arb_set_d(e, 2.5);
    arb_poly_pow_arb_series(r, u, e, n, p);
    arb_clear(e);
}
static void
rat_s(arb_poly_t r, const arb_poly_t u, slong n, slong p)
{
    /* (3 u + 1) / (u^2 + 2) */
    arb_poly_t a, b;
    arb_t three;
    arb_poly_init(a);
    arb_poly_init(b);
    arb_init(three);
    arb_set_si(three, 3);
    arb_poly_scalar_mul(a, u, three, p);
    arb_poly_add_si(a, a, 1, p);
    arb_poly_mullow(b, u, u, n, p);
    arb_poly_add_si(b, b, 2, p);
    arb_poly_div_series(r, a, b, n, p);
    arb_poly_clear(a);
    arb_poly_clear(b);
    arb_clear(three);
}

Test(certify_series, every_kind_against_arb_series)
{
    slong precs[] = {64, 256};
    for (int i = 0; i < 2; i++) {
        slong p = precs[i];
        check("sin(x)", sin_s, "0.7", p);
        check("cos(x)", cos_s, "-1.3", p);
        check("tan(x)", tan_s, "0.4", p);
        check("asin(x)", asin_s, "0.3", p);
        check("acos(x)", acos_s, "-0.6", p);
        check("atan(x)", atan_s, "2.5", p);
        check("exp(x)", exp_s, "-0.9", p);
        check("log(x)", log_s, "1.7", p);
        check("sqrt(x)", sqrt_s, "3.1", p);
        check("sinh(x)", sinh_s, "0.8", p);
        check("cosh(x)", cosh_s, "-0.5", p);
        check("tanh(x)", tanh_s, "0.35", p);
        check("x^3", pow3_s, "-1.2", p);
        check("x^5", pow5_s, "0.9", p);
        check("x^-2", inv2_s, "1.4", p);
        check("x^2.5", powr_s, "1.9", p);
        check("(3*x + 1)/(x^2 + 2)", rat_s, "0.25", p);
    }
}

/* A domain edge inside the ball is an error, never a finite ball. */
Test(certify_series, domain_edges_are_refused)
{
    const char *bad[] = {"log(x)", "sqrt(x)", "1/x", "asin(x + 1)", "x^-3"};
    for (int i = 0; i < 5; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "model s\nvar x = 0, y\nmode m\n  der(x) = 1\n  y = %s\n"
                 "end\nstart m\n",
                 bad[i]);
        hdo_model_t model;
        hdo_error_t err;
        hdo_model_init(model);
        cr_assert_eq(
            hdo_model_parse_string(model, text, strlen(text), "s.hdae", &err),
            0);
        hdo_expr root = model->modes[0].eqs[1].residual;
        hdo_program_t prog;
        hdo_program_init(prog, model->pool, &root, 1, 64);
        cert_series_t S;
        cert_series_init(S, prog, model->pool, 4, 0, 128);
        for (slong q = 0; q < prog->ninputs; q++)
            if (prog->inputs[q].var == 0) {
                arb_ptr x = cert_series_coef(S, prog->inputs[q].slot, 0, 0);
                arb_zero(x);
                mag_set_d(arb_radref(x), 1e-10);
                arb_one(x + 1);
            }
        int st = 0;
        for (slong k = 0; k <= 4 && st == 0; k++)
            st = cert_series_step(S, k, NULL, NULL);
        cr_assert_eq(st, HDO_ERR_DOMAIN, "%s", bad[i]);
        cert_series_clear(S);
        hdo_program_clear(prog);
        hdo_model_clear(model);
    }
}
