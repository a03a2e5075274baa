/* common.h -- shared set-up of the certified pass's tests: a model from
   text or a file, its run, its certified pass, and the ball checks */
#ifndef HDO_TESTS_CERTIFY_COMMON_H
#define HDO_TESTS_CERTIFY_COMMON_H

#include <criterion/criterion.h>
#include <arb.h>
#include <math.h>
#include <string.h>
#include "certify.h"
#include "hybrid.h"

typedef struct {
    hdo_model_t model;
    hdo_result_t res;
    hdo_certified_t cert;
    int status; /* hdo_certify's */
} ct_case;

/* Parses text (or the file path when text is NULL), applies the -p
   overrides (NULL-terminated "NAME=VALUE" list, may be NULL), runs it at
   digits D (until: NULL for the model's) and certifies it with opt
   (NULL: defaults). */
static inline void
ct_init_every(ct_case *c, const char *text, const char *path,
              const char *const *params, long digits, const char *until,
              const char *every, const hdo_certify_options *opt)
{
    hdo_error_t err;
    hdo_error_clear(&err);
    hdo_model_init(c->model);
    for (slong i = 0; params != NULL && params[i] != NULL; i++)
        cr_assert_eq(hdo_model_add_override(c->model, params[i], &err), 0, "%s",
                     err.message);
    int st = text != NULL ? hdo_model_parse_string(c->model, text, strlen(text),
                                                   "test.hdae", &err)
                          : hdo_model_parse_file(c->model, path, &err);
    cr_assert_eq(st, 0, "parse: %s", err.message);
    hdo_run_options ro;
    hdo_run_options_init(&ro);
    ro.digits = digits;
    fmpq_t u, ev;
    fmpq_init(u);
    fmpq_init(ev);
    if (until != NULL) {
        cr_assert_eq(hdo_run_parse_time(u, "--until", until, 1, &err), 0);
        ro.until = u;
    }
    if (every != NULL) {
        cr_assert_eq(hdo_run_parse_time(ev, "--every", every, 1, &err), 0);
        ro.every = ev;
    }
    hdo_result_init(c->res);
    st = hdo_run(c->res, c->model, &ro, &err);
    cr_assert_eq(st, 0, "run: %s", err.message);
    fmpq_clear(u);
    fmpq_clear(ev);
    hdo_certified_init(c->cert);
    c->status = hdo_certify(c->cert, c->res, c->model, opt, &err);
    cr_assert(c->status >= 0, "certify: %s", err.message);
}

static inline void
ct_init(ct_case *c, const char *text, const char *path,
        const char *const *params, long digits, const char *until,
        const hdo_certify_options *opt)
{
    ct_init_every(c, text, path, params, digits, until, NULL, opt);
}

static inline void
ct_clear(ct_case *c)
{
    hdo_certified_clear(c->cert);
    hdo_result_clear(c->res);
    hdo_model_clear(c->model);
}

static inline slong
ct_var(const ct_case *c, const char *name)
{
    slong v = hdo_model_find_var(c->model, name);
    cr_assert(v >= 0, "no variable %s", name);
    return v;
}

static inline void
ct_ball(arb_t x, const hdo_ball *b)
{
    arf_t r;
    arf_init(r);
    arf_set_mpfr(arb_midref(x), b->mid);
    mag_zero(arb_radref(x));
    arf_set_mpfr(r, b->rad);
    arb_add_error_arf(x, r);
    arf_clear(r);
}

/* 1 when the ball b contains every point of the exact ball x (an exact
   value computed independently, with its own tiny radius). */
static inline int
ct_contains(const hdo_ball *b, const arb_t x)
{
    arb_t y;
    arb_init(y);
    ct_ball(y, b);
    int r = arb_contains(y, x);
    arb_clear(y);
    return r;
}

/* 1 when b and x share no point: the ball excludes the value. */
static inline int
ct_excludes(const hdo_ball *b, const arb_t x)
{
    arb_t y;
    arb_init(y);
    ct_ball(y, b);
    int r = !arb_overlaps(y, x);
    arb_clear(y);
    return r;
}

/* The row's time as an exact ball (a sample's time is a point). */
static inline void
ct_time(arb_t t, const hdo_cert_row *r)
{
    ct_ball(t, &r->time);
}

#endif
