/* api.c -- hdo_certify's calling conventions: arguments refused before any
   work, results that are reused or cleared twice, the options' defaults */
#include "common.h"

TestSuite(certify_api);

static const char *decay = "model d\nvar x = 1\nmode m\n  der(x) = -x\nend\n"
                           "start m\nuntil 1\n";

Test(certify_api, refuses_what_it_cannot_use)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_certified_t cert;
    hdo_error_t err;
    hdo_model_init(model);
    hdo_result_init(res);
    hdo_certified_init(cert);
    /* a model not parsed */
    cr_assert_eq(hdo_certify(cert, res, model, NULL, &err), HDO_ERR_INPUT);
    cr_assert(err.file == NULL && strstr(err.message, "parsed") != NULL);
    cr_assert_eq(
        hdo_model_parse_string(model, decay, strlen(decay), "d.hdae", &err), 0);
    /* a result with no run in it */
    cr_assert_eq(hdo_certify(cert, res, model, NULL, &err), HDO_ERR_INPUT);
    cr_assert(strstr(err.message, "no rows") != NULL, "%s", err.message);
    /* a result cleared */
    hdo_result_clear(res);
    cr_assert_eq(hdo_certify(cert, res, model, NULL, &err), HDO_ERR_INPUT);
    hdo_result_init(res);
    /* a cleared certified result */
    hdo_run_options o;
    hdo_run_options_init(&o);
    cr_assert_eq(hdo_run(res, model, &o, &err), 0);
    hdo_certified_clear(cert);
    cr_assert_eq(hdo_certify(cert, res, model, NULL, &err), HDO_ERR_INPUT);
    hdo_certified_clear(cert); /* a second clear does nothing */
    hdo_certified_init(cert);
    cr_assert_eq(hdo_certify(cert, res, model, NULL, &err), 0);
    cr_assert(cert->complete);
    hdo_certified_clear(cert);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* A result that receives a second pass holds that pass alone. */
Test(certify_api, a_reused_result_holds_the_last_pass)
{
    ct_case c;
    ct_init(&c, decay, NULL, NULL, 30, NULL, NULL);
    slong rows = c.cert->nrows;
    hdo_error_t err;
    cr_assert_eq(hdo_certify(c.cert, c.res, c.model, NULL, &err), 0);
    cr_assert_eq(c.cert->nrows, rows);
    cr_assert_eq(c.cert->nrows, c.res->nrows);
    ct_clear(&c);
}

/* The files: a comment line that says how far they are certified, the
   header of trajectory.csv, a ball per cell. */
Test(certify_api, files_say_how_far)
{
    ct_case c;
    ct_init(&c, decay, NULL, NULL, 30, NULL, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hdo_error_t err;
    cr_assert_eq(hdo_certify_write_rows(f, c.cert, c.model, &err), 0);
    fclose(f);
    cr_assert(strncmp(buf, "# certified until t = 1: complete\ntime,mode,x\n",
                      46) == 0,
              "%.80s", buf);
    cr_assert(strstr(buf, "+/-") != NULL);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    hdo_certify_write_json(f, c.cert);
    fclose(f);
    cr_assert(strstr(buf, "\"complete\": true") != NULL, "%s", buf);
    cr_assert(strstr(buf, "\"min_digits\": ") != NULL);
    free(buf);
    ct_clear(&c);
}

Test(certify_api, ball_digits)
{
    hdo_ball b;
    mpfr_init2(b.mid, 128);
    mpfr_init2(b.rad, 64);
    mpfr_set_d(b.mid, 1.0, MPFR_RNDN);
    mpfr_set_d(b.rad, 1e-30, MPFR_RNDN);
    cr_assert(fabs(hdo_ball_digits(&b, 0) - 30) < 0.01);
    /* a value near zero counted against its scale */
    mpfr_set_d(b.mid, 1e-40, MPFR_RNDN);
    cr_assert(fabs(hdo_ball_digits(&b, 1.0) - 30) < 0.01);
    cr_assert_eq(hdo_ball_digits(&b, 0), 0);
    mpfr_set_zero(b.rad, 1);
    cr_assert(isinf(hdo_ball_digits(&b, 0)));
    mpfr_clear(b.mid);
    mpfr_clear(b.rad);
}

/* The largest mode the pass takes: 100 states certify, 101 stop at once
   with the reason (CERT_MAX_STATES, ref/certify/mode.c). */
static void
states(slong n, int expect_complete)
{
    char text[256];
    snprintf(text, sizeof text,
             "model many\nvar x[1..%ld] = 1\nmode m\n  for i in 1..%ld\n"
             "    der(x[i]) = -x[i]\n  end\nend\nstart m\nuntil 1/1000\n",
             (long)n, (long)n);
    ct_case c;
    ct_init_every(&c, text, NULL, NULL, 10, NULL, "0.0001", NULL);
    cr_assert_eq(c.cert->complete, expect_complete, "%ld states: %s", (long)n,
                 c.cert->reason);
    if (!expect_complete)
        cr_assert(strstr(c.cert->reason, "101 states") != NULL, "%s",
                  c.cert->reason);
    ct_clear(&c);
}

Test(certify_api, states_limit_boundary)
{
    states(100, 1);
    states(101, 0);
}
