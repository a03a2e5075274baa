/* kinds.c -- one generic test per expression kind (FLINT's t-*.c style):
   for every operator and builtin function of the kind table (expr.h), at
   random arguments and at two precisions (64 and 256 bits), each rule of
   the kind is checked against mpmath (tests/expr/kinds_ref.h, written by
   tests/expr/kinds_mpmath.py at 100 digits; nothing from hdo):
   - evaluation (program.c): correctly rounded, as MPFR's functions are;
   - constant evaluation (constant.c, Arb and Ziv's loop): within one ulp;
   - Arb enclosure (hdo_expr_enclose): the ball contains the true value,
     and is narrow (radius below 2^(16 - prec) max(1, |f|));
   - symbolic derivative (diff.c): d/dx (and d/dy) evaluated at the point
     against mpmath's derivative;
   - Taylor rule (autodiff.c): the coefficients of f(x + s) (f(x + s, y +
     s/2) for binary kinds) from AD against mpmath.taylor, orders 0..8.
   A kind of the table with operands but no reference fails
   kinds_every_kind_has_references. */
#include <string.h>
#include <criterion/criterion.h>
#include "expr.h"
#include "kinds_ref.h"
#include "../pool_fixture.h"

TestSuite(expr_kinds, .init = pool_setup, .fini = pool_teardown);

static const mpfr_prec_t precs[] = {64, 256};
#define NPRECS (sizeof precs / sizeof *precs)
#define NREFS (sizeof kinds_refs / sizeof *kinds_refs)
#define REF_PREC 512 /* for the references: beyond their 100 digits */

/* The kind spelt name in the table, or -1. */
static int
kind_named(const char *name)
{
    for (int k = 0; k < HDO_X_NKINDS; k++)
        if (strcmp(hdo_expr_kind_table[k].name, name) == 0)
            return k;
    return -1;
}

/* f(a) or f(a, b) for the kind of r. */
static hdo_expr
apply(const kinds_ref *r, hdo_expr a, hdo_expr b)
{
    hdo_expr_kind k = (hdo_expr_kind)kind_named(r->name);
    return r->arity == 2 ? hdo_expr_binary(pool, k, a, b)
                         : hdo_expr_unary(pool, k, a);
}

/* 1 if |got - want| <= tol max(1, |want|), tol = 2^tol_exp. */
static int
close_to(mpfr_srcptr got, const char *want, long tol_exp)
{
    mpfr_t w, d;
    mpfr_inits2(REF_PREC, w, d, (mpfr_ptr)0);
    mpfr_set_str(w, want, 10, MPFR_RNDN);
    mpfr_sub(d, got, w, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_abs(w, w, MPFR_RNDN);
    if (mpfr_cmp_ui(w, 1) < 0)
        mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_mul_2si(w, w, tol_exp, MPFR_RNDN);
    int ok = mpfr_cmp(d, w) <= 0;
    mpfr_clears(w, d, (mpfr_ptr)0);
    return ok;
}

/* Sets the program's inputs: x = xn/1024 (variable 0), y = yn/1024
   (variable 1), with Taylor coefficient 1 of x = 1, of y = 1/2 when
   taylor != 0. */
static void
set_inputs(hdo_program_t p, const kinds_ref *r, int taylor)
{
    for (slong i = 0; i < p->ninputs; i++) {
        slong slot = p->inputs[i].slot;
        long n = p->inputs[i].var == 0 ? r->xn : r->yn;
        mpfr_ptr v = taylor ? hdo_program_coef(p, slot, 0) : p->value[slot];
        mpfr_set_si_2exp(v, n, -10, MPFR_RNDN);
        if (taylor) {
            mpfr_set_si_2exp(hdo_program_coef(p, slot, 1), 1,
                             p->inputs[i].var == 0 ? 0 : -1, MPFR_RNDN);
            for (slong k = 2; k <= KINDS_ORDER; k++)
                mpfr_set_zero(hdo_program_coef(p, slot, k), 1);
        }
    }
}

Test(expr_kinds, every_kind_has_references)
{
    int checked = 0;
    for (int k = 0; k < HDO_X_NKINDS; k++) {
        const hdo_expr_kind_info *row = hdo_expr_kind_table + k;
        cr_assert(row->name != NULL && row->name[0] != '\0', "kind %d", k);
        cr_expect(row->arity >= 0 && row->arity <= 2, "%s", row->name);
        cr_expect((row->arity == 0) == (row->syntax == HDO_SYNTAX_LEAF), "%s",
                  row->name);
        cr_expect_str_eq(hdo_expr_kind_name((hdo_expr_kind)k), row->name);
        if (row->syntax == HDO_SYNTAX_CALL)
            cr_expect_eq(hdo_expr_kind_lookup(row->name, strlen(row->name)), k,
                         "%s", row->name);
        else
            cr_expect_eq(hdo_expr_kind_lookup(row->name, strlen(row->name)), -1,
                         "%s is no function", row->name);
        /* piecewise kinds are never compiled into a program (no MPFR or
           Taylor rule to check against mpmath): tests/expr/piecewise.c */
        if (row->arity == 0 || row->syntax == HDO_SYNTAX_COND)
            continue;
        int n = 0;
        for (size_t i = 0; i < NREFS; i++)
            if (strcmp(kinds_refs[i].name, row->name) == 0) {
                cr_expect_eq(kinds_refs[i].arity, row->arity, "%s", row->name);
                n++;
            }
        cr_expect(n >= 4, "kind %s has %d mpmath references (4 wanted)",
                  row->name, n);
        checked++;
    }
    for (size_t i = 0; i < NREFS; i++)
        cr_expect(kind_named(kinds_refs[i].name) >= 0, "reference for %s",
                  kinds_refs[i].name);
    cr_expect(checked >= 18); /* at least the 6 operators, 12 functions */
}

Test(expr_kinds, evaluation_is_correctly_rounded)
{
    for (size_t i = 0; i < NREFS; i++) {
        const kinds_ref *r = kinds_refs + i;
        hdo_expr e =
            apply(r, hdo_expr_var(pool, 0, 0), hdo_expr_var(pool, 1, 0));
        for (size_t j = 0; j < NPRECS; j++) {
            hdo_program_t p;
            mpfr_t want;
            hdo_expr bad = HDO_EXPR_NONE;
            hdo_program_init(p, pool, &e, 1, precs[j]);
            set_inputs(p, r, 0);
            cr_assert_eq(hdo_program_eval(p, &bad), 0, "%s", r->name);
            mpfr_init2(want, precs[j]);
            mpfr_set_str(want, r->value, 10, MPFR_RNDN);
            cr_expect(mpfr_equal_p(p->value[p->root_slot[0]], want),
                      "%s(%ld/1024, %ld/1024) at %ld bits: got %.17g, want %s",
                      r->name, r->xn, r->yn, (long)precs[j],
                      mpfr_get_d(p->value[p->root_slot[0]], MPFR_RNDN),
                      r->value);
            mpfr_clear(want);
            hdo_program_clear(p);
        }
    }
}

Test(expr_kinds, constant_evaluation_is_faithful)
{
    for (size_t i = 0; i < NREFS; i++) {
        const kinds_ref *r = kinds_refs + i;
        hdo_expr e = apply(r, hdo_expr_const_si(pool, r->xn, 1024),
                           hdo_expr_const_si(pool, r->yn, 1024));
        for (size_t j = 0; j < NPRECS; j++) {
            mpfr_t got;
            mpfr_init2(got, precs[j]);
            cr_assert_eq(hdo_expr_eval_constant(got, pool, e), 0, "%s",
                         r->name);
            /* within one ulp of the value: 2^(EXP(got) - prec) */
            long ulp = mpfr_get_exp(got) - (long)precs[j];
            mpfr_t w, d;
            mpfr_inits2(REF_PREC, w, d, (mpfr_ptr)0);
            mpfr_set_str(w, r->value, 10, MPFR_RNDN);
            mpfr_sub(d, got, w, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            cr_expect(mpfr_cmp_ui_2exp(d, 1, ulp) <= 0,
                      "%s(%ld/1024, %ld/1024) constant at %ld bits: got "
                      "%.17g, want %s",
                      r->name, r->xn, r->yn, (long)precs[j],
                      mpfr_get_d(got, MPFR_RNDN), r->value);
            mpfr_clears(w, d, got, (mpfr_ptr)0);
        }
    }
}

Test(expr_kinds, arb_enclosure_contains_the_value)
{
    for (size_t i = 0; i < NREFS; i++) {
        const kinds_ref *r = kinds_refs + i;
        hdo_expr e =
            apply(r, hdo_expr_var(pool, 0, 0), hdo_expr_var(pool, 1, 0));
        hdo_program_input in[2] = {{0, 0, 0}, {1, 0, 1}};
        for (size_t j = 0; j < NPRECS; j++) {
            mpfr_t xy[2], t, rel, mid, rad, w, d, slack;
            for (int q = 0; q < 2; q++)
                mpfr_init2(xy[q], 64);
            mpfr_set_si_2exp(xy[0], r->xn, -10, MPFR_RNDN);
            mpfr_set_si_2exp(xy[1], r->yn, -10, MPFR_RNDN);
            mpfr_inits2(REF_PREC, t, rel, mid, rad, w, d, slack, (mpfr_ptr)0);
            mpfr_set_zero(t, 1);
            mpfr_set_zero(rel, 1); /* exact inputs */
            cr_assert_eq(hdo_expr_enclose(mid, rad, pool, e, in, xy[0], NULL,
                                          r->arity, t, rel, precs[j]),
                         0, "%s", r->name);
            mpfr_set_str(w, r->value, 10, MPFR_RNDN);
            mpfr_sub(d, mid, w, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            /* the reference's own error: 100 digits, below 2^-320 */
            mpfr_abs(slack, w, MPFR_RNDN);
            if (mpfr_cmp_ui(slack, 1) < 0)
                mpfr_set_ui(slack, 1, MPFR_RNDN);
            mpfr_mul_2si(slack, slack, -320, MPFR_RNDN);
            mpfr_add(slack, slack, rad, MPFR_RNDU);
            cr_expect(mpfr_cmp(d, slack) <= 0,
                      "%s(%ld/1024, %ld/1024) at %ld bits: ball %.17g +- "
                      "%.3g misses %s",
                      r->name, r->xn, r->yn, (long)precs[j],
                      mpfr_get_d(mid, MPFR_RNDN), mpfr_get_d(rad, MPFR_RNDU),
                      r->value);
            mpfr_abs(w, w, MPFR_RNDN);
            if (mpfr_cmp_ui(w, 1) < 0)
                mpfr_set_ui(w, 1, MPFR_RNDN);
            mpfr_mul_2si(w, w, 16 - (long)precs[j], MPFR_RNDN);
            cr_expect(mpfr_cmp(rad, w) <= 0,
                      "%s at %ld bits: radius %.3g is not narrow", r->name,
                      (long)precs[j], mpfr_get_d(rad, MPFR_RNDU));
            mpfr_clears(t, rel, mid, rad, w, d, slack, xy[0], xy[1],
                        (mpfr_ptr)0);
        }
    }
}

Test(expr_kinds, derivative_rule)
{
    for (size_t i = 0; i < NREFS; i++) {
        const kinds_ref *r = kinds_refs + i;
        hdo_expr e =
            apply(r, hdo_expr_var(pool, 0, 0), hdo_expr_var(pool, 1, 0));
        hdo_expr d[2] = {hdo_expr_diff(pool, e, 0, 0),
                         hdo_expr_diff(pool, e, 1, 0)};
        for (size_t j = 0; j < NPRECS; j++) {
            hdo_program_t p;
            hdo_expr bad = HDO_EXPR_NONE;
            hdo_program_init(p, pool, d, 2, precs[j]);
            set_inputs(p, r, 0);
            cr_assert_eq(hdo_program_eval(p, &bad), 0, "%s", r->name);
            cr_expect(
                close_to(p->value[p->root_slot[0]], r->dx, 12 - (long)precs[j]),
                "d%s/dx at (%ld, %ld)/1024, %ld bits: got %.17g, want "
                "%s",
                r->name, r->xn, r->yn, (long)precs[j],
                mpfr_get_d(p->value[p->root_slot[0]], MPFR_RNDN), r->dx);
            cr_expect(
                close_to(p->value[p->root_slot[1]], r->dy, 12 - (long)precs[j]),
                "d%s/dy at (%ld, %ld)/1024, %ld bits: got %.17g, want "
                "%s",
                r->name, r->xn, r->yn, (long)precs[j],
                mpfr_get_d(p->value[p->root_slot[1]], MPFR_RNDN), r->dy);
            hdo_program_clear(p);
        }
    }
}

Test(expr_kinds, taylor_rule)
{
    for (size_t i = 0; i < NREFS; i++) {
        const kinds_ref *r = kinds_refs + i;
        hdo_expr e =
            apply(r, hdo_expr_var(pool, 0, 0), hdo_expr_var(pool, 1, 0));
        for (size_t j = 0; j < NPRECS; j++) {
            hdo_program_t p;
            hdo_expr bad = HDO_EXPR_NONE;
            /* tolerance: 2^(16 - prec) times the largest coefficient */
            mpfr_t big, c;
            mpfr_inits2(REF_PREC, big, c, (mpfr_ptr)0);
            mpfr_set_ui(big, 1, MPFR_RNDN);
            for (int k = 0; k <= KINDS_ORDER; k++) {
                mpfr_set_str(c, r->taylor[k], 10, MPFR_RNDN);
                if (mpfr_cmpabs(c, big) > 0)
                    mpfr_abs(big, c, MPFR_RNDN);
            }
            long scale = mpfr_get_exp(big);
            hdo_program_init(p, pool, &e, 1, precs[j]);
            hdo_program_taylor_alloc(p, KINDS_ORDER);
            set_inputs(p, r, 1);
            for (int k = 0; k <= KINDS_ORDER; k++) {
                cr_assert_eq(hdo_program_taylor_step(p, k, &bad), 0,
                             "%s order %d", r->name, k);
                mpfr_ptr got = hdo_program_coef(p, p->root_slot[0], k);
                cr_expect(
                    close_to(got, r->taylor[k], 16 + scale - (long)precs[j]),
                    "%s at (%ld, %ld)/1024, %ld bits, coefficient %d: "
                    "got %.17g, want %s",
                    r->name, r->xn, r->yn, (long)precs[j], k,
                    mpfr_get_d(got, MPFR_RNDN), r->taylor[k]);
            }
            mpfr_clears(big, c, (mpfr_ptr)0);
            hdo_program_clear(p);
        }
    }
}
