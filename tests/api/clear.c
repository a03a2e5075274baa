/* clear.c -- the public _clear functions may be called twice (#23 item
 * 9): results, models, analyses, checks; a cleared result or analysis is
 * refused by the call that would fill it */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include "analyze.h"
#include "check.h"
#include "api_util.h"
#include "../scratch_dir.h"

/* hdo_result_clear twice used to free the rows' and t0's limbs again (a
   segmentation fault, or ASan's double free). */
Test(api, result_clear_twice)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, api_decay);
    cr_assert_eq(tm_run(res, model, 20, "0.25", &err), 0, "%s", err.message);
    cr_assert_eq(res->nrows, 5);
    hdo_result_clear(res);
    hdo_result_clear(res);
    /* a result that never ran */
    hdo_result_init(res);
    hdo_result_clear(res);
    hdo_result_clear(res);
    hdo_model_clear(model);
}

/* A cleared result is refused (its mpfr_t are freed), and left as it
   is: it may be cleared again, or initialised and used. */
Test(api, cleared_result_refused)
{
    hdo_model_t model;
    hdo_result_t res, check;
    hdo_run_options opt;
    hdo_error_t err;
    long verified;
    tm_parse(model, api_decay);
    hdo_run_options_init(&opt);
    opt.digits = 20;
    hdo_result_init(res);
    hdo_result_clear(res);
    api_expect_refused(hdo_run(res, model, &opt, &err), &err,
                       "initialise it again with hdo_result_init");
    cr_expect_eq(res->nrows, 0);
    hdo_result_init(check);
    api_expect_refused(
        hdo_run_verify(check, res, &verified, NULL, 0, model, &opt, &err), &err,
        "hdo_result_clear");
    cr_expect_eq(verified, -1);
    cr_expect_eq(check->nrows, 0);
    hdo_result_clear(res);
    hdo_result_init(res);
    cr_assert_eq(hdo_run(res, model, &opt, &err), 0, "%s", err.message);
    cr_expect_eq(res->nrows, 1001); /* the default grid: (1 - 0) / 1000 */
    cr_expect(api_row_is_decay(res->rows + 1000, 1.0, 20));
    hdo_result_clear(res);
    hdo_result_clear(check);
    hdo_model_clear(model);
}

/* A model cleared twice (after a parse, and after a failed one) frees
   nothing twice, and is no parsed model any more. */
Test(api, model_clear_twice)
{
    hdo_model_t model;
    hdo_error_t err;
    tm_parse(model, api_decay);
    cr_expect_eq(hdo_model_parsed(model), 1);
    hdo_model_clear(model);
    cr_expect_eq(hdo_model_parsed(model), 0);
    hdo_model_clear(model);
    hdo_model_init(model);
    cr_expect_eq(hdo_model_parsed(model), 0);
    cr_assert_eq(
        hdo_model_parse_string(model, "model m\nvar", 11, "bad.hdae", &err),
        HDO_ERR_SYNTAX);
    cr_expect_eq(hdo_model_parsed(model), 0);
    hdo_model_clear(model);
    hdo_model_clear(model);
}

/* hdo_analysis_clear twice used to free t0 again; a cleared analysis is
   refused by hdo_analyze. */
Test(api, analysis_clear_twice)
{
    hdo_model_t model;
    hdo_analysis_t an;
    hdo_error_t err;
    tm_parse(model, api_decay);
    hdo_analysis_init(an);
    cr_assert_eq(hdo_analyze(an, model, 20, &err), 0, "%s", err.message);
    cr_expect_eq(an->nmodes, 1);
    hdo_analysis_clear(an);
    hdo_analysis_clear(an);
    api_expect_refused(hdo_analyze(an, model, 20, &err), &err,
                       "initialise it again with hdo_analysis_init");
    hdo_analysis_clear(an);
    hdo_model_clear(model);
}

/* Writes text to scratch/name into path (n bytes). */
static void
put(char *path, size_t n, const char *name, const char *text)
{
    FILE *f;
    snprintf(path, n, "%s/%s", scratch, name);
    f = fopen(path, "w");
    cr_assert(f != NULL);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

static void
setup(void)
{
    scratch_make("api");
}

/* hdo_check_clear twice used to free the tubes, the compared columns
   and the name of the default tolerance file again. */
Test(api, check_clear_twice, .init = setup, .fini = scratch_remove)
{
    char model[128], cand[128], text[1024];
    size_t k = (size_t)snprintf(text, sizeof text, "time,x\n");
    hdo_check_options opt;
    hdo_check_t s;
    hdo_error_t err;
    /* the candidate from libm's exp */
    for (int i = 0; i <= 4; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%.17g,%.17g\n",
                              i / 4.0, exp(-i / 4.0));
    put(model, sizeof model, "api_decay.hdae", api_decay);
    put(cand, sizeof cand, "cand.csv", text);
    hdo_check_options_init(&opt);
    opt.model_path = model;
    opt.cand_path = cand;
    opt.digits = 20;
    hdo_check_init(s);
    cr_assert_eq(hdo_check_run(s, &opt, &err), 0, "%s", err.message);
    cr_assert(s->tube != NULL && s->nvar == 1);
    cr_expect_eq(hdo_check_failed(s), 0);
    hdo_check_clear(s);
    /* what makes the second clear harmless: nothing left to free */
    cr_expect(s->tube == NULL && s->col == NULL && s->var == NULL &&
              s->tol_default == NULL && s->nvar == 0);
    hdo_check_clear(s);
}
