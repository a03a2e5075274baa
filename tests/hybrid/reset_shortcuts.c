/* reset_shortcuts.c -- the work an event's reset skips (decisions.md
 * D-116): a derivative on the left limit summed from its series' last
 * nonzero coefficient (left.c), and a reset's enclosure on the
 * event-widened radii left out for an expression of total kinds
 * (transition.c, hdo_run_enclose_total).  Each must give what the whole
 * computation gives; each test fails when its condition is broken. */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include <flint/ulong_extras.h>
#include "hybrid/driver.h"
#include "../model_util.h"

/* ------------------------------------------------------------------ */
/* The derivative from the last nonzero coefficient */

/* The plain Horner sum of left.c before D-116: the m-th derivative at s
   of c[0..p], from k = p down. */
static void
plain_derivative(mpfr_t out, const mpfr_t *coef, slong p, slong m,
                 const mpfr_t s)
{
    mpfr_t term;
    mpfr_init2(term, mpfr_get_prec(out));
    mpfr_set_ui(out, 0, MPFR_RNDN);
    for (slong k = p; k >= m; k--) {
        mpfr_mul(out, out, s, MPFR_RNDN);
        mpfr_set(term, coef[k], MPFR_RNDN);
        for (slong i = 0; i < m; i++)
            mpfr_mul_ui(term, term, (unsigned long)(k - i), MPFR_RNDN);
        mpfr_add(out, out, term, MPFR_RNDN);
    }
    mpfr_clear(term);
}

static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    return (mpfr_nan_p(a) && mpfr_nan_p(b)) ||
           (mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b));
}

/* Series of one state x (order 0) with zeros of both signs above, below
   and between nonzero coefficients, NaN and infinities among them, at
   points s of both signs, zeros of both signs, tiny, huge and infinite:
   every derivative of order 1..4 through hdo_run_left_value has the
   plain sum's bits.  A sum started at the first nonzero coefficient from
   below, or one that drops the zeros between nonzero ones with their
   products, or starts at the last nonzero one counted from 0 instead of
   from m, fails here (the counts below say the cases occurred). */
Test(hybrid_reset_shortcuts, derivative_from_last_nonzero_same_bits)
{
    enum { P = 12, PREC = 133 };
    hdo_varord st = {0, 0};
    hdo_reduced_struct r;
    memset(&r, 0, sizeof r);
    r.nstate = 1;
    r.state = &st;
    mpfr_t coef[P + 1], s, xs, got, want;
    for (slong k = 0; k <= P; k++)
        mpfr_init2(coef[k], PREC);
    mpfr_inits2(PREC, s, xs, got, want, (mpfr_ptr)0);
    mpfr_set_ui(xs, 1, MPFR_RNDN);
    hdo_dense dense;
    memset(&dense, 0, sizeof dense);
    dense.order = P;
    dense.state = (const mpfr_t *)coef;
    left_limit L = {&r, xs, NULL, &dense, s};
    flint_rand_t rs;
    flint_randinit(rs);
    long skipped = 0, allzero = 0, special = 0, cases = 0;
    for (int trial = 0; trial < 3000; trial++) {
        /* the last nonzero coefficient at top, zeros above it */
        slong top = (slong)n_randint(rs, P + 2) - 1; /* -1: all zero */
        for (slong k = 0; k <= P; k++) {
            if (k > top || n_randint(rs, 4) == 0) {
                mpfr_set_zero(coef[k], n_randint(rs, 2) ? 1 : -1);
                continue;
            }
            mpfr_set_si(coef[k], (long)n_randint(rs, 2001) - 1000, MPFR_RNDN);
            if (mpfr_zero_p(coef[k]))
                mpfr_set_ui(coef[k], 7, MPFR_RNDN);
            mpfr_div_ui(coef[k], coef[k], 3 + n_randint(rs, 50), MPFR_RNDN);
            mpfr_mul_2si(coef[k], coef[k], (long)n_randint(rs, 200) - 100,
                         MPFR_RNDN);
        }
        if (top >= 0 && n_randint(rs, 20) == 0) {
            slong k = (slong)n_randint(rs, top + 1);
            if (n_randint(rs, 2))
                mpfr_set_nan(coef[k]);
            else
                mpfr_set_inf(coef[k], n_randint(rs, 2) ? 1 : -1);
            special++;
        }
        switch (n_randint(rs, 8)) {
        case 0:
            /* s = +0: left.c's own shortcuts, the zero sum (D-134) of a
               series zero at m among them; s = -0 too */
            mpfr_set_zero(s, n_randint(rs, 2) ? 1 : -1);
            break;
        case 1:
            mpfr_set_inf(s, n_randint(rs, 2) ? 1 : -1);
            break;
        case 2:
            mpfr_set_ui_2exp(s, 1, -400, MPFR_RNDN);
            break;
        case 3:
            mpfr_set_si_2exp(s, -3, 300, MPFR_RNDN);
            break;
        default:
            mpfr_set_si(s, (long)n_randint(rs, 2001) - 1000, MPFR_RNDN);
            mpfr_div_ui(s, s, 997, MPFR_RNDN);
        }
        for (slong m = 1; m <= 4; m++) {
            cr_assert(hdo_run_left_value(got, &L, 0, m));
            plain_derivative(want, (const mpfr_t *)coef, P, m, s);
            if (!same_bits(got, want))
                mpfr_printf("trial %d, m = %ld, top = %ld, s = %Rg: %Rg "
                            "against %Rg\n",
                            trial, (long)m, (long)top, s, got, want);
            cr_assert(same_bits(got, want));
            cases++;
            if (top >= m && top < P)
                skipped++;
            if (top < m)
                allzero++;
        }
    }
    cr_expect(skipped > 1000 && allzero > 500 && special > 50, "%ld %ld %ld",
              skipped, allzero, special);
    flint_randclear(rs);
    for (slong k = 0; k <= P; k++)
        mpfr_clear(coef[k]);
    mpfr_clears(s, xs, got, want, (mpfr_ptr)0);
}

/* ------------------------------------------------------------------ */
/* The reset's enclosure on the event-widened radii */

/* The reset expression of `when x < 0 goto b with y = EXPR`, parsed. */
static int
total_of(const char *expr)
{
    char text[512];
    snprintf(text, sizeof text,
             "model r\nvar x = 1, y = 2\nmode a\n  der(x) = -1\n"
             "  der(y) = 0\n  when x < 0 goto b with y = %s\nend\n"
             "mode b\n  der(x) = 1\n  der(y) = 0\nend\n"
             "start a at 0\nuntil 2\n",
             expr);
    hdo_model_t model;
    tm_parse(model, text);
    const hdo_transition *tr = model->modes[0].whens;
    cr_assert_eq(tr->nassigns, 1);
    int total = hdo_run_enclose_total(model->pool, tr->assigns[0].value);
    hdo_model_clear(model);
    return total;
}

/* The kinds whose Arb enclosure has no ball test are total; each kind
   with one (a divisor, a power, a domain) is not, wherever it sits in
   the expression.  (A piecewise reset is split by the model into its
   branches' transitions: no relation reaches an assignment.) */
Test(hybrid_reset_shortcuts, enclose_total_kinds)
{
    static const char *total[] = {"-7/10*y", "x*y + t", "sin(x) - cos(y)*pi",
                                  "atan(x) + tanh(y)", "-(x - y)*(x + 2)"};
    static const char *partial[] = {
        "1/x",     "y/(x + 1)", "x^2",      "x^(1/2)",     "sqrt(x)",
        "exp(x)",  "log(y)",    "tan(x)",   "asin(x/4)",   "acos(y/4)",
        "sinh(x)", "cosh(x)",   "sin(1/x)", "y + sqrt(x)", "-exp(x)*y"};
    for (size_t i = 0; i < sizeof total / sizeof *total; i++)
        cr_expect(total_of(total[i]), "%s", total[i]);
    for (size_t i = 0; i < sizeof partial / sizeof *partial; i++)
        cr_expect(!total_of(partial[i]), "%s", partial[i]);
}

/* x = 1 - t reaches 0 at t = 1, where it is zero up to the event time's
   rounding: the enclosure of 1/x on the radii widened by x's rate times
   that uncertainty meets the pole, the one on tol max(|x|, floor) alone
   may not.  The reset must be refused (the widened enclosure is
   computed: a division is not total); -7/10 x and sin(x) there, which
   are total, are taken. */
static int
reset_run(const char *expr, hdo_error_t *err)
{
    char text[512];
    snprintf(text, sizeof text,
             "model r\nvar x = 1, v = 2\nmode a\n  der(x) = -1\n"
             "  der(v) = 0\n  when x < 0 goto b with v = %s\nend\n"
             "mode b\n  der(x) = 0\n  der(v) = 0\nend\n"
             "start a at 0\nuntil 2\n",
             expr);
    hdo_model_t model;
    hdo_result_t res;
    tm_parse(model, text);
    int st = tm_run(res, model, 30, NULL, err);
    hdo_result_clear(res);
    hdo_model_clear(model);
    return st;
}

Test(hybrid_reset_shortcuts, widened_enclosure_kept_for_poles)
{
    hdo_error_t err;
    cr_expect_eq(reset_run("1/x", &err), HDO_ERR_DOMAIN);
    cr_expect(strstr(err.message, "meets a pole") != NULL, "%s", err.message);
    cr_expect_eq(reset_run("-7/10*x", &err), 0, "%s", err.message);
    cr_expect_eq(reset_run("sin(x) + 1", &err), 0, "%s", err.message);
}
