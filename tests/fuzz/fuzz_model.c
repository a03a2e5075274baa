/* fuzz_model.c -- libFuzzer entry point: the model parser on arbitrary
   bytes, then the cheap and pure work on what it accepts (printing,
   total derivatives, a print-and-reparse round trip, index reduction). */

/* The Makefile compiles every C file of tests/<dir>/ into build/test-unit, and
   two fuzz entry points there would collide (LLVMFuzzerTestOneInput is
   defined once per harness).  The body is only compiled for the fuzzer
   build (tools/fuzz.sh passes -DHDO_FUZZ); in test-unit this file is an
   empty unit. */
#ifdef HDO_FUZZ

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "reduce.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Guards against pathological sizes: the work after parsing is
   polynomial in these, and a slow input is not a finding. */
#define MAX_POOL 20000       /* expression nodes after parsing */
#define MAX_PRINT 65536      /* characters of a printed equation */
#define MAX_REDUCE_VARS 32   /* variables of a mode given to reduce */
#define MAX_ROUNDTRIP 200000 /* characters of a rebuilt model */

/* A growable string for the round-trip model text. */
typedef struct {
    char *s;
    size_t len, alloc;
} sbuf;

static void
sbuf_add(sbuf *b, const char *t)
{
    size_t n = strlen(t);
    if (b->len + n + 1 > b->alloc) {
        b->alloc = 2 * (b->len + n + 1);
        b->s = realloc(b->s, b->alloc);
        HDO_ASSERT(b->s != NULL);
    }
    memcpy(b->s + b->len, t, n + 1);
    b->len += n;
}

/* 1 if a failure to reparse printed text is explained by a limit that
   printing may legitimately cross (parentheses added around a long
   chain, an exact constant printed with too many digits), not by a
   printing bug. */
static int
reparse_limit(const hdo_error_t *err)
{
    return err->status == HDO_ERR_UNSUPPORTED ||
           strstr(err->message, "too deep") != NULL ||
           strstr(err->message, "nested too deeply") != NULL ||
           strstr(err->message, "too large") != NULL ||
           strstr(err->message, "too many") != NULL;
}

/* Sets *val to residual e of model at a fixed point (variable v at
   order k is 0.3 + 0.17 v + 0.11 k, t = 0.7), at precision prec.
   Returns 0, or -1 when the point is outside the expression's domain. */
static int
eval_at_point(mpfr_t val, const hdo_model_t model, hdo_expr e, mpfr_prec_t prec)
{
    hdo_program_t prog;
    slong nv = model->nvars, max_order = 0, i, k;
    mpfr_ptr x;
    mpfr_t t;
    hdo_expr bad;
    int status;

    for (i = 0; i < nv; i++) {
        slong o = hdo_expr_max_order(model->pool, e, i);
        if (o > max_order)
            max_order = o;
    }
    x = malloc((max_order + 1) * (nv > 0 ? nv : 1) * sizeof(__mpfr_struct));
    HDO_ASSERT(x != NULL);
    for (k = 0; k <= max_order; k++)
        for (i = 0; i < nv; i++) {
            mpfr_init2(x + k * nv + i, prec);
            mpfr_set_si(x + k * nv + i, 30 + 17 * i + 11 * k, MPFR_RNDN);
            mpfr_div_ui(x + k * nv + i, x + k * nv + i, 100, MPFR_RNDN);
        }
    mpfr_init2(t, prec);
    mpfr_set_d(t, 0.7, MPFR_RNDN);
    hdo_program_init(prog, model->pool, &e, 1, prec);
    status = hdo_program_eval_at(val, prog, t, x, nv, max_order, &bad);
    hdo_program_clear(prog);
    mpfr_clear(t);
    for (k = 0; k < (max_order + 1) * nv; k++)
        mpfr_clear(x + k);
    free(x);
    return status == 0 && mpfr_number_p(val) ? 0 : -1;
}

/* 1 if residual e1 of m1 and e2 of m2 agree at the fixed point, at prec
   bits: |a - b| <= 2^(-prec/2) (1 + |a| + |b|).  The bound is loose on
   purpose: the two are summed in different orders, and cancellation
   between large terms (10^30 - 10^30 + ...) leaves rounding errors far
   above 2^-prec |a|; a printing bug changes the value by far more.
   Undecided (a domain error) counts as agreement. */
static int
agree(const hdo_model_t m1, hdo_expr e1, const hdo_model_t m2, hdo_expr e2,
      mpfr_prec_t prec)
{
    mpfr_t a, b, d, tol;
    int ok = 1;

    mpfr_inits2(prec, a, b, d, tol, (mpfr_ptr)0);
    if (eval_at_point(a, m1, e1, prec) == 0 &&
        eval_at_point(b, m2, e2, prec) == 0) {
        mpfr_sub(d, a, b, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_abs(a, a, MPFR_RNDN);
        mpfr_abs(b, b, MPFR_RNDN);
        mpfr_add(tol, a, b, MPFR_RNDU);
        mpfr_add_ui(tol, tol, 1, MPFR_RNDU);
        mpfr_mul_2si(tol, tol, -(long)prec / 2, MPFR_RNDU);
        ok = mpfr_lessequal_p(d, tol);
    }
    mpfr_clears(a, b, d, tol, (mpfr_ptr)0);
    return ok;
}

/* Prints mode m of model as a model of its own (the same variables in
   the same order, each equation as "RESIDUAL = 0"), parses it back, and
   checks that each reparsed residual has the value of the original at a
   fixed point.  Printing promises re-parseable text with the model's
   names and minimal parentheses; the text itself may differ (the order
   of the terms of a sum follows the pool's node order). */
static void
roundtrip_mode(const hdo_model_t model, slong m, char **printed)
{
    const hdo_mode *mode = model->modes + m;
    hdo_model_t again;
    hdo_error_t err;
    sbuf b = {NULL, 0, 0};
    char msg[2048];
    slong i;
    int status;

    sbuf_add(&b, "model roundtrip\n");
    for (i = 0; i < model->nvars;) {
        /* array elements u[lo], ..., u[hi] (consecutive, as the parser
           expands them) are declared again as the array u[lo..hi] */
        const char *name = model->vars[i].name;
        const char *br = strchr(name, '[');
        slong j = i + 1;
        sbuf_add(&b, "var ");
        if (br != NULL) {
            size_t len = (size_t)(br - name);
            long lo = strtol(br + 1, NULL, 10), hi = lo;
            while (j < model->nvars &&
                   strncmp(model->vars[j].name, name, len) == 0 &&
                   model->vars[j].name[len] == '[' &&
                   strtol(model->vars[j].name + len + 1, NULL, 10) == hi + 1) {
                hi++;
                j++;
            }
            char range[64];
            snprintf(range, sizeof range, "[%ld..%ld]", lo, hi);
            char *base = strndup(name, len);
            sbuf_add(&b, base ? base : name);
            free(base);
            sbuf_add(&b, range);
        } else {
            sbuf_add(&b, name);
        }
        sbuf_add(&b, "\n");
        i = j;
    }
    sbuf_add(&b, "mode ");
    sbuf_add(&b, mode->name);
    sbuf_add(&b, "\n");
    for (i = 0; i < mode->neqs; i++) {
        sbuf_add(&b, printed[i]);
        sbuf_add(&b, " = 0\n");
        if (b.len > MAX_ROUNDTRIP) {
            free(b.s);
            return;
        }
    }
    sbuf_add(&b, "end\nstart ");
    sbuf_add(&b, mode->name);
    sbuf_add(&b, "\n");

    hdo_error_clear(&err);
    hdo_model_init(again);
    status = hdo_model_parse_string(again, b.s, b.len, "roundtrip.hdae", &err);
    if (status == 0) {
        const hdo_mode *m2 = again->modes;
        HDO_ASSERT(again->nmodes == 1 && again->nvars == model->nvars);
        HDO_ASSERT(m2->neqs == mode->neqs);
        for (i = 0; i < m2->neqs; i++) {
            hdo_expr e1 = mode->eqs[i].residual, e2 = m2->eqs[i].residual;
            if (!agree(model, e1, again, e2, 256) &&
                !agree(model, e1, again, e2, 2048)) {
                char *s = hdo_expr_to_string(again->pool, e2, again->var_names);
                fprintf(stderr,
                        "round trip changed the value of an equation:\n"
                        "  source:    %s\n  printed:   %s\n"
                        "  reprinted: %s\n",
                        mode->eqs[i].text, printed[i], s);
                free(s);
                HDO_ASSERT(!"printing and reparsing changed an equation");
            }
        }
    } else if (status == HDO_ERR_SYNTAX && !reparse_limit(&err)) {
        /* A semantic error can be honest (x = x folds to 0 = 0 and the
           mode loses a variable); a syntax error means that printing
           produced text outside the language. */
        hdo_error_format(msg, sizeof msg, &err);
        fprintf(stderr, "printed model does not parse: %s\n---\n%s---\n", msg,
                b.s);
        HDO_ASSERT(!"printed equations do not parse");
    }
    hdo_model_clear(again);
    free(b.s);
}

static void
exercise(hdo_model_t model)
{
    hdo_expr_pool_struct *pool = model->pool;
    slong m, k, size0 = pool->len;

    if (size0 > MAX_POOL)
        return;
    for (m = 0; m < model->nmodes; m++) {
        const hdo_mode *mode = model->modes + m;
        char **printed = calloc(mode->neqs + 1, sizeof(char *));
        int print_ok = 1;

        HDO_ASSERT(printed != NULL);
        for (k = 0; k < mode->neqs; k++) {
            hdo_expr e = mode->eqs[k].residual, d;
            char *s;

            HDO_ASSERT(e >= 0 && e < pool->len);
            s = hdo_expr_to_string(pool, e, model->var_names);
            HDO_ASSERT(s != NULL);
            printed[k] = s;
            if (strlen(s) > MAX_PRINT)
                print_ok = 0;
            if (pool->len > 4 * MAX_POOL)
                continue;
            d = hdo_expr_total_derivative(pool, e);
            HDO_ASSERT(d >= 0 && d < pool->len);
            s = hdo_expr_to_string(pool, d, model->var_names);
            HDO_ASSERT(s != NULL);
            free(s);
        }
        for (k = 0; k < mode->nwhens; k++) {
            char *s = hdo_expr_to_string(pool, mode->whens[k].guard,
                                         model->var_names);
            HDO_ASSERT(s != NULL);
            free(s);
        }
        if (print_ok)
            roundtrip_mode(model, m, printed);
        for (k = 0; k < mode->neqs; k++)
            free(printed[k]);
        free(printed);

        if (mode->nvars <= MAX_REDUCE_VARS && pool->len <= 4 * MAX_POOL) {
            hdo_reduced_t r;
            hdo_error_t err;
            char msg[2048];

            hdo_error_clear(&err);
            hdo_reduced_init(r);
            if (hdo_reduce_mode(r, model, m, &err) != 0)
                hdo_error_format(msg, sizeof msg, &err);
            else
                HDO_ASSERT(r->nstate >= 0 && r->dof <= r->nstate);
            hdo_reduced_clear(r);
        }
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hdo_model_t model;
    hdo_error_t err;
    char msg[2048];

    hdo_error_clear(&err);
    hdo_model_init(model);
    if (hdo_model_parse_string(model, (const char *)data, size, "fuzz.hdae",
                               &err) == 0) {
        HDO_ASSERT(model->nmodes > 0);
        HDO_ASSERT(model->start_mode >= 0 && model->start_mode < model->nmodes);
        exercise(model);
    } else {
        /* The message must be printable and say where. */
        HDO_ASSERT(err.status < 0);
        hdo_error_format(msg, sizeof msg, &err);
        HDO_ASSERT(strlen(msg) > 0);
    }
    hdo_model_clear(model);
    return 0;
}

#else
typedef int hdo_fuzz_model_empty_unit; /* ISO C: no empty units */
#endif
