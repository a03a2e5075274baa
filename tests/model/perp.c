/* perp.c -- unit tests of complementarity conditions in the model
   language: the expansion of a mode into its active sets (equations,
   transitions, the table of modes), their combination with the sign
   patterns of relations, and the contextual word `perp`.  Expected
   structures are written down by hand from docs/model-format.md. */
#include <string.h>
#include <criterion/criterion.h>
#include "model.h"

static int
parse(hdo_model_t m, const char *text, hdo_error_t *err)
{
    hdo_error_clear(err);
    return hdo_model_parse_string(m, text, strlen(text), "perp.hdae", err);
}

/* The residual of equation k of mode q is VAR(var, 0), or its negation. */
static int
is_var(const hdo_model_t m, hdo_expr e, slong var)
{
    const hdo_expr_node *n = hdo_expr_node_get(m->pool, e);
    return n->kind == HDO_X_VAR && n->a == var && n->b == 0;
}

static const char *two = "model two\n"
                         "var x = 1, a, b\n"
                         "mode m\n"
                         "  der(x) = -x + a - b\n"
                         "  0 <= a perp x >= 0\n"
                         "  0 <= b perp 2 - x >= 0\n"
                         "  when x > 5 goto m\n"
                         "end\n"
                         "start m\n";

/* Two conditions: 4 modes, the mask of each, one equation and one
   transition per condition after the file's, targets by flipped bits. */
Test(perp, expansion)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    cr_assert_eq(parse(m, two, &err), 0, "%s", err.message);
    cr_assert_eq(m->nmodes, 4);
    slong a = hdo_model_find_var(m, "a"), b = hdo_model_find_var(m, "b");
    const hdo_mode *f = m->modes + 0;
    cr_assert_eq(f->nperp, 2);
    cr_assert_eq(f->cp_family, 0);
    cr_assert(f->cp_modes != NULL);
    for (slong mask = 0; mask < 4; mask++) {
        slong q = f->cp_modes[mask];
        const hdo_mode *mode = m->modes + q;
        cr_assert_eq(mode->cp_mask, mask);
        cr_assert_eq(mode->cp_family, 0);
        cr_assert_str_eq(mode->name, "m");
        cr_assert_eq(mode->neqs, 3);
        cr_assert_eq(mode->nvars, 3);
        cr_assert_eq(mode->nwhens, 3);
        /* condition 0: active B = x (the residual x), inactive a */
        if (mask & 1) {
            cr_assert(is_var(m, mode->eqs[1].residual, 0));
            cr_assert(is_var(m, mode->whens[1].guard, a));
            cr_assert_str_eq(mode->whens[1].guard_text, "a < 0");
        } else {
            cr_assert(is_var(m, mode->eqs[1].residual, a));
            cr_assert(is_var(m, mode->whens[1].guard, 0));
            cr_assert_str_eq(mode->whens[1].guard_text, "x < 0");
        }
        if (!(mask & 2))
            cr_assert(is_var(m, mode->eqs[2].residual, b));
        cr_assert_eq(mode->whens[1].perp, 1);
        cr_assert_eq(mode->whens[2].perp, 2);
        cr_assert_eq(mode->whens[0].perp, 0);
        cr_assert_eq(mode->whens[1].target, f->cp_modes[mask ^ 1]);
        cr_assert_eq(mode->whens[2].target, f->cp_modes[mask ^ 2]);
        cr_assert_eq(hdo_model_cp_mode(m, q, 3 - mask), f->cp_modes[3 - mask]);
    }
    cr_assert_str_eq(f->perp[1].text, "0 <= b perp 2 - x >= 0");
    cr_assert_str_eq(f->perp[1].btext, "2 - x");
    cr_assert_eq(f->perp[1].pos.line, 6);
    cr_assert_eq(f->perp[1].pos.col, 3);
    cr_assert_eq(f->perp[1].bpos.col, 15);
    hdo_model_clear(m);
}

/* With a relation: every active set has its two sign patterns, and
   hdo_model_cp_mode keeps the pattern while changing the active set. */
Test(perp, with_relations)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    const char *text = "model r\n"
                       "var x = 1, a\n"
                       "mode m\n"
                       "  der(x) = if t < 1 then a else -a\n"
                       "  0 <= a perp x >= 0\n"
                       "end\n"
                       "start m\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    cr_assert_eq(m->nmodes, 4);
    for (slong q = 0; q < 4; q++) {
        const hdo_mode *mode = m->modes + q;
        cr_assert_eq(mode->nperp, 1);
        cr_assert_eq(mode->nrel, 1);
        slong other = hdo_model_cp_mode(m, q, 1 - mode->cp_mask);
        cr_assert_neq(other, q);
        cr_assert_eq(m->modes[other].cp_mask, 1 - mode->cp_mask);
        cr_assert_eq(m->modes[other].mask, mode->mask);
        /* the perp transition before the relation's crossing */
        cr_assert_eq(mode->whens[0].perp, 1);
        cr_assert(mode->whens[1].crossing);
    }
    hdo_model_clear(m);
}

/* `perp` is a word only where no name of that spelling is declared: a
   variable named perp keeps its meaning in equations. */
Test(perp, contextual_word)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    const char *text = "model c\n"
                       "var perp = 1\n"
                       "mode m\n"
                       "  der(perp) = -perp\n"
                       "end\n"
                       "start m\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    cr_assert_eq(m->nmodes, 1);
    cr_assert_eq(m->modes[0].nperp, 0);
    hdo_model_clear(m);
}

/* Conditions inside a for loop, one per element; the limit of
   conditions per mode is refused at its place. */
Test(perp, loops_and_limit)
{
    hdo_model_t m;
    hdo_error_t err;
    hdo_model_init(m);
    const char *text = "model l\n"
                       "param N = 3\n"
                       "var x[1..N] = 1, f[1..N]\n"
                       "mode m\n"
                       "  for i in 1..N\n"
                       "    der(x[i]) = -x[i] + f[i]\n"
                       "    0 <= f[i] perp x[i] >= 0\n"
                       "  end\n"
                       "end\n"
                       "start m\n";
    cr_assert_eq(parse(m, text, &err), 0, "%s", err.message);
    cr_assert_eq(m->nmodes, 8);
    cr_assert_str_eq(m->modes[0].perp[2].text,
                     "0 <= f[i] perp x[i] >= 0 (i = 3)");
    hdo_model_clear(m);
    char big[4096];
    size_t n = (size_t)snprintf(big, sizeof big,
                                "model l\nparam N = %d\nvar x[1..N] = 1, "
                                "f[1..N]\nmode m\n  for i in 1..N\n    "
                                "der(x[i]) = -x[i] + f[i]\n    0 <= f[i] "
                                "perp x[i] >= 0\n  end\nend\nstart m\n",
                                HDO_MODEL_MAX_PERP + 1);
    cr_assert(n < sizeof big);
    hdo_model_init(m);
    cr_assert_eq(parse(m, big, &err), HDO_ERR_UNSUPPORTED);
    cr_assert_eq(err.line, 7);
    cr_assert(strstr(err.message, "more than 10 complementarity") != NULL, "%s",
              err.message);
    hdo_model_clear(m);
}
