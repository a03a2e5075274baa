/* concurrent.c -- one parsed model run several times at once: hdo_run
 * leaves the model unchanged, two runs in two threads give the results
 * of two runs one after the other, bit for bit, and hdo_run_verify gives
 * those of hdo_run at D and D + 10 digits with their agreement.
 *
 * The expected results are computed a second way (FLINT's rule when no
 * independent value exists): the same runs one after the other in one
 * thread, each on a model parsed afresh for it. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid.h"
#include "../model_util.h"

/* cases/pendulum.hdae: an index-3 DAE, whose reduction grows the pool
   (from 29 to 176 nodes, when hdo_run wrote into the model's pool) */
static const char *const pendulum =
    "model pendulum\nparam g = 9.8\nparam L = 1\n"
    "var x = 1, y = 0, vx = 0, vy = 0\nvar lambda\n"
    "mode right\n  der(x) = vx\n  der(y) = vy\n  der(vx) = -x*lambda\n"
    "  der(vy) = -y*lambda - g\n  x^2 + y^2 = L^2\n  when x < 0 goto left\n"
    "end\n"
    "mode left\n  der(x) = vx\n  der(y) = vy\n  der(vx) = -x*lambda\n"
    "  der(vy) = -y*lambda - g\n  x^2 + y^2 = L^2\n  when x > 0 goto right\n"
    "end\nstart right at 0\nuntil 3\n";

/* a Filippov sliding mode built during the run (ref/reduce/filippov.c):
   x reaches 0 at t = 2 - sqrt(2), slides with alpha = (1 + y)/3 until
   y = t = 2, then leaves into l */
static const char *const sliding =
    "model sl\nvar x = 1, y = 0\n"
    "mode l\n  der(x) = -2 + y\n  der(y) = 1\n  when x < 0 goto r\nend\n"
    "mode r\n  der(x) = 1 + y\n  der(y) = 1\n  when x > 0 goto l\nend\n"
    "start l\nuntil 2.5\n";

/* cases/bouncing_ball.hdae: the events followed before the Zeno limit
   grow with the digits (161 steps at 20 digits, 225 at 30) */
static const char *const ball =
    "model bouncing_ball\nparam g = 9.81\nparam e = 0.7\nvar h = 1\n"
    "var v = 0\nvar f\n"
    "mode fly\n  der(h) = v\n  der(v) = -g\n"
    "  when h < 0 goto fly with v = -e*v\n  zeno goto rest\nend\n"
    "mode rest\n  der(h) = v\n  der(v) = -g + f\n  h = 0\n"
    "  when f < 0 goto fly\nend\nstart fly at 0\nuntil 3\n";

static int
same_mpfr(mpfr_srcptr a, mpfr_srcptr b)
{
    return (mpfr_nan_p(a) && mpfr_nan_p(b)) || mpfr_equal_p(a, b);
}

/* a and b are the same result, bit for bit (timings aside). */
static void
expect_same(const hdo_result_struct *a, const hdo_result_struct *b,
            const char *what)
{
    cr_assert_eq(a->prec, b->prec, "%s: precision", what);
    cr_assert_eq(a->steps, b->steps, "%s: steps %ld %ld", what, (long)a->steps,
                 (long)b->steps);
    cr_assert_eq(a->nrows, b->nrows, "%s: rows", what);
    cr_assert_eq(a->nevents, b->nevents, "%s: events", what);
    cr_assert_eq(a->start_adjusted, b->start_adjusted, "%s", what);
    cr_assert(same_mpfr(a->max_residual, b->max_residual), "%s: residual",
              what);
    for (slong i = 0; i < a->nrows; i++) {
        const hdo_row *ra = a->rows + i, *rb = b->rows + i;
        cr_assert(mpfr_equal_p(ra->time, rb->time), "%s: row %ld time", what,
                  (long)i);
        cr_assert_eq(ra->mode, rb->mode, "%s: row %ld mode", what, (long)i);
        for (slong v = 0; v < a->nvars; v++) {
            cr_assert_eq(ra->present[v], rb->present[v], "%s", what);
            cr_assert(same_mpfr(ra->values + v, rb->values + v),
                      "%s: row %ld variable %ld", what, (long)i, (long)v);
        }
    }
    for (slong k = 0; k < a->nevents; k++) {
        const hdo_event *ea = a->events + k, *eb = b->events + k;
        cr_assert(mpfr_equal_p(ea->time, eb->time), "%s: event %ld", what,
                  (long)k);
        cr_assert(ea->from == eb->from && ea->to == eb->to &&
                      ea->kind == eb->kind && strcmp(ea->guard, eb->guard) == 0,
                  "%s: event %ld: %ld->%ld kind %d '%s', %ld->%ld kind %d '%s'",
                  what, (long)k, (long)ea->from, (long)ea->to, (int)ea->kind,
                  ea->guard, (long)eb->from, (long)eb->to, (int)eb->kind,
                  eb->guard);
        for (slong v = 0; v < a->nvars; v++)
            cr_assert(same_mpfr(ea->left + v, eb->left + v) &&
                          same_mpfr(ea->right + v, eb->right + v),
                      "%s: event %ld variable %ld", what, (long)k, (long)v);
    }
    cr_assert_eq(a->nsliding, b->nsliding, "%s: sliding modes", what);
    for (slong m = 0; m < a->nmodes; m++)
        cr_assert_eq(a->modes[m].used, b->modes[m].used, "%s", what);
}

/* A sequential run of text at digits on a model parsed for it alone
   (the caller clears it after res: events borrow its guard texts). */
static void
run_alone(hdo_result_t res, hdo_model_t model, const char *text, long digits)
{
    hdo_error_t err;
    tm_parse(model, text);
    int st = tm_run(res, model, digits, NULL, &err);
    cr_assert_eq(st, 0, "%s", err.message);
}

Test(concurrent, run_leaves_the_model_unchanged)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    tm_parse(model, pendulum);
    hdo_model_struct before = model[0];
    slong len = model->pool->len;
    hdo_expr_node *nodes = malloc(len * sizeof *nodes);
    cr_assert(nodes != NULL);
    memcpy(nodes, model->pool->nodes, len * sizeof *nodes);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(tm_run(res, model, 20, NULL, &err), 0, "%s", err.message);
        cr_assert_gt(res->nevents, 0);
        hdo_result_clear(res);
        /* every field (the pool's length, constants, table and memo
           pointers among them) and every node as parsed */
        cr_assert(memcmp(&before, model, sizeof before) == 0,
                  "run %d changed the model (pool %ld -> %ld nodes)", k,
                  (long)len, (long)model->pool->len);
        cr_assert(memcmp(nodes, model->pool->nodes, len * sizeof *nodes) == 0);
    }
    free(nodes);
    hdo_model_clear(model);
}

typedef struct {
    hdo_result_struct *res;
    const hdo_model_struct *model;
    long digits;
    int status;
    hdo_error_t err;
} job;

static void *
job_run(void *data)
{
    job *j = data;
    hdo_run_options opt;
    hdo_run_options_init(&opt);
    opt.digits = j->digits;
    hdo_error_clear(&j->err);
    j->status = hdo_run(j->res, j->model, &opt, &j->err);
    flint_cleanup();
    return NULL;
}

/* Two runs of one parsed model at da and db digits in two threads, each
   against a sequential run of its own. */
static void
two_threads(const char *text, long da, long db)
{
    hdo_model_t model;
    hdo_result_t ra, rb, sa, sb;
    hdo_model_t msa, msb;
    pthread_t ta, tb;
    tm_parse(model, text);
    slong len = model->pool->len;
    hdo_result_init(ra);
    hdo_result_init(rb);
    job a = {ra, model, da, 0, {0}}, b = {rb, model, db, 0, {0}};
    cr_assert_eq(pthread_create(&ta, NULL, job_run, &a), 0);
    cr_assert_eq(pthread_create(&tb, NULL, job_run, &b), 0);
    cr_assert_eq(pthread_join(ta, NULL), 0);
    cr_assert_eq(pthread_join(tb, NULL), 0);
    cr_assert_eq(a.status, 0, "%s", a.err.message);
    cr_assert_eq(b.status, 0, "%s", b.err.message);
    cr_assert_eq(model->pool->len, len, "the model's pool grew");
    run_alone(sa, msa, text, da);
    run_alone(sb, msb, text, db);
    expect_same(ra, sa, "thread a");
    expect_same(rb, sb, "thread b");
    hdo_result_clear(ra);
    hdo_result_clear(rb);
    hdo_result_clear(sa);
    hdo_result_clear(sb);
    hdo_model_clear(msa);
    hdo_model_clear(msb);
    hdo_model_clear(model);
}

Test(concurrent, two_threads_same_digits_pendulum)
{
    two_threads(pendulum, 30, 30);
}

Test(concurrent, two_threads_two_precisions_sliding)
{
    two_threads(sliding, 25, 35);
}

Test(concurrent, run_verify_is_two_runs_and_their_agreement)
{
    const char *const texts[] = {pendulum, sliding, ball};
    for (int i = 0; i < 3; i++) {
        hdo_model_t model;
        hdo_result_t res, check, sa, sb;
        hdo_model_t msa, msb;
        hdo_run_options opt;
        hdo_error_t err;
        char where[1024], where2[1024];
        long verified;
        tm_parse(model, texts[i]);
        hdo_run_options_init(&opt);
        opt.digits = 20;
        hdo_result_init(res);
        hdo_result_init(check);
        int st = hdo_run_verify(res, check, &verified, where, sizeof where,
                                model, &opt, &err);
        cr_assert_eq(st, 0, "%s", err.message);
        run_alone(sa, msa, texts[i], 20);
        run_alone(sb, msb, texts[i], 30);
        expect_same(res, sa, "the D run");
        expect_same(check, sb, "the D + 10 run");
        long want =
            hdo_result_agreement_where(where2, sizeof where2, model, sa, sb);
        cr_assert_eq(verified, want);
        cr_assert_str_eq(where, where2);
        cr_assert_geq(verified, 18, "verified %ld digits", verified);
        hdo_result_clear(res);
        hdo_result_clear(check);
        hdo_result_clear(sa);
        hdo_result_clear(sb);
        hdo_model_clear(model);
        hdo_model_clear(msa);
        hdo_model_clear(msb);
    }
}

/* A failing D run is reported as hdo_run reports it; a D + 10 run that
   alone fails is named as the verification run. */
Test(concurrent, run_verify_errors)
{
    hdo_model_t model;
    hdo_result_t res, check, sa, sb;
    hdo_model_t msa, msb;
    hdo_run_options opt;
    hdo_error_t err;
    long verified = 7;
    tm_parse(model, ball);
    run_alone(sa, msa, ball, 20);
    run_alone(sb, msb, ball, 30);
    cr_assert_lt(sa->steps, sb->steps, "30 digits take more steps than 20");
    hdo_run_options_init(&opt);
    opt.digits = 20;

    opt.max_steps = sa->steps - 1; /* too few for either run */
    hdo_result_init(res);
    hdo_result_init(check);
    int st = hdo_run_verify(res, check, &verified, NULL, 0, model, &opt, &err);
    cr_assert_eq(st, HDO_ERR_TOO_MUCH_WORK);
    cr_assert_eq(verified, -1);
    /* both runs exceed the limit; the one that does so first is reported
       (the threads race), either way naming the limit */
    cr_assert(strstr(err.message, "--max-steps") != NULL, "%s", err.message);
    hdo_result_clear(res);
    hdo_result_clear(check);

    opt.max_steps = sa->steps; /* enough for D only */
    hdo_result_init(res);
    hdo_result_init(check);
    st = hdo_run_verify(res, check, &verified, NULL, 0, model, &opt, &err);
    cr_assert_eq(st, HDO_ERR_TOO_MUCH_WORK);
    cr_assert_eq(verified, -1);
    cr_assert(strstr(err.message,
                     "the verification run at 30 digits "
                     "(--verify) failed: more than") == err.message,
              "%s", err.message);
    /* the D run may have finished or been stopped when the check failed
       (the threads race; either way the verification failed and is
       reported as such): its result is not compared */
    hdo_result_clear(res);
    hdo_result_clear(check);
    hdo_result_clear(sa);
    hdo_result_clear(sb);
    hdo_model_clear(msa);
    hdo_model_clear(msb);
    hdo_model_clear(model);
}
