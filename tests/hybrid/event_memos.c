/* event_memos.c -- what the driver keeps from one computation at an event
 * to the next (decisions.md D-113): the guards' floors kept by their
 * inputs (floors.c) and the programs of hdo_run_eval_on_left kept by
 * their roots (left.c).  A kept result must have the bits of a fresh
 * one; each test also changes one input at a time and fails when the
 * key ignores it (the fresh result differs from the kept one). */
#include <string.h>
#include <criterion/criterion.h>
#include <flint/ulong_extras.h>
#include "hybrid/driver.h"
#include "linalg.h"
#include "../model_util.h"

#define DIGITS 30

/* x' = y, y' = -x from (1, 2); guards of x, y and t (one reads t, so
   the time's radius matters) */
static const char *TEXT =
    "model memo\nvar x = 1, y = 2\nmode a\n  der(x) = y\n  der(y) = -x\n"
    "  when x*y + t > 3 goto b\n  when sin(x) - y < 0 goto b\n"
    "  when x - 5 > 0 goto b\nend\n"
    "mode b\n  der(x) = 1\n  der(y) = 0\nend\nstart a at 0\nuntil 1\n";

typedef struct {
    hdo_model_t model;
    hdo_model_struct work;
    hdo_run_options opt;
    hdo_result_t res;
    hdo_error_t err;
    run_ctx c;
    mode_cache *mc;
} fixture;

/* A run context as hdo_run_stoppable sets it up, with mode a built and
   its state at (1, 2). */
static void
fx_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    tm_parse(f->model, TEXT);
    hdo_run_options_init(&f->opt);
    f->opt.digits = DIGITS;
    hdo_error_clear(&f->err);
    run_ctx *c = &f->c;
    hdo_model_workspace_init(&f->work, f->model);
    c->model = &f->work;
    c->opt = &f->opt;
    hdo_result_init(f->res);
    c->res = f->res;
    c->err = &f->err;
    c->digits = hdo_run_digits(DIGITS);
    c->prec = hdo_run_prec(c->digits);
    hdo_result_setup(f->res, f->model, c->digits, c->prec);
    mpfr_init2(c->tol, c->prec);
    hdo_run_tol(c->tol, c->digits);
    mpfr_init2(c->every, c->prec + 32);
    mpfr_inits2(c->prec, c->t, c->t_end, c->last_event, c->event_at,
                (mpfr_ptr)0);
    mpfr_init2(c->event_dt, 64);
    mpfr_set_zero(c->event_dt, 1);
    mpfr_set_inf(c->event_at, -1);
    mpfr_set_ui(c->t, 0, MPFR_RNDN);
    mpfr_set_ui(c->t_end, 1, MPFR_RNDN);
    mpfr_set_ui(f->res->t0, 0, MPFR_RNDN);
    hdo_run_mode_table_init(&c->modes);
    cr_assert_eq(hdo_run_floors_init(c), 0);
    cr_assert_eq(hdo_run_mode_cache_get(c, 0, c->t), 0, "%s", f->err.message);
    f->mc = hdo_run_mode_entry(c, 0);
    cr_assert_eq(f->mc->red->nstate, 2);
    cr_assert_eq(f->mc->step->nguards, 3);
    for (slong i = 0; i < 2; i++)
        mpfr_set_ui(f->mc->xs + i,
                    f->mc->red->state[i].var == tm_var(f->model, "x") ? 1 : 2,
                    MPFR_RNDN);
}

static void
fx_clear(fixture *f)
{
    run_ctx *c = &f->c;
    hdo_run_left_progs_clear(c);
    hdo_run_floors_clear(c);
    hdo_run_mode_table_clear(&c->modes, f->res);
    hdo_model_workspace_clear(&f->work);
    mpfr_clears(c->tol, c->every, c->t, c->t_end, c->last_event, c->event_at,
                c->event_dt, (mpfr_ptr)0);
    hdo_result_clear(f->res);
    hdo_model_clear(f->model);
}

/* a and b the same number, the sign of a zero included */
static int
same_bits(mpfr_srcptr a, mpfr_srcptr b)
{
    return (mpfr_nan_p(a) && mpfr_nan_p(b)) ||
           (mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b) &&
            mpfr_get_prec(a) == mpfr_get_prec(b));
}

/* ------------------------------------------------------------------ */
/* The guards' floors */

/* The floors of mode a at (t, xs) over H (mc's expansion for the rates),
   through the memo (fresh = 0) or with it emptied first (fresh = 1), into
   out[0..3) (64 bits); mc->gfloor must hold the same. */
static void
floors(fixture *f, const mpfr_t t, mpfr_srcptr xs, const mpfr_t H, int fresh,
       mpfr_ptr out)
{
    mode_cache *mc = f->mc;
    if (fresh)
        mc->gfkey_valid = 0;
    hdo_run_guard_floors(&f->c, mc, t, xs, mc->xu, &mc->step->dense, H);
    for (slong g = 0; g < 3; g++) {
        cr_assert(same_bits(mc->gfloor + g, mc->step->gfloor + g));
        mpfr_set(out + g, mc->step->gfloor + g, MPFR_RNDN);
    }
}

/* The kept floors (computed after a call at another point) against fresh
   ones at this point: the same bits, and they must differ from prev (the
   floors at the last point) so that a key without the changed input
   would have failed.  Then prev := these. */
static void
expect_fresh(fixture *f, const mpfr_t t, mpfr_srcptr xs, const mpfr_t H,
             mpfr_ptr prev, int must_move, const char *what)
{
    mpfr_ptr kept = hdo_vec_init(3, 64), fresh = hdo_vec_init(3, 64);
    floors(f, t, xs, H, 0, kept);
    floors(f, t, xs, H, 1, fresh);
    int moved = 0;
    for (slong g = 0; g < 3; g++) {
        cr_expect(same_bits(kept + g, fresh + g),
                  "%s: guard %ld's floor kept %g, fresh %g", what, (long)g,
                  mpfr_get_d(kept + g, MPFR_RNDN),
                  mpfr_get_d(fresh + g, MPFR_RNDN));
        moved |= !same_bits(fresh + g, prev + g);
        mpfr_set(prev + g, fresh + g, MPFR_RNDN);
    }
    cr_expect(moved || !must_move,
              "%s does not move the floors: the test proves nothing", what);
    hdo_vec_clear(kept, 3);
    hdo_vec_clear(fresh, 3);
}

Test(event_memos, floors_same_bits_and_keyed_on_every_input)
{
    fixture f;
    fx_init(&f);
    run_ctx *c = &f.c;
    mode_cache *mc = f.mc;
    mpfr_t t, H;
    mpfr_inits2(c->prec, t, H, (mpfr_ptr)0);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    hdo_run_set_floors(c, mc);
    hdo_run_guard_noise(c, mc, t, mc->xs, mc->xu);
    cr_assert_eq(hdo_stepper_apply(mc->step, t, mc->xs, mc->xu, &f.err), 0);
    cr_assert_eq(hdo_stepper_step_size(H, mc->step), 0);
    hdo_run_event_horizon(H, c, t);

    mpfr_ptr prev = hdo_vec_init(3, 64), again = hdo_vec_init(3, 64);
    floors(&f, t, mc->xs, H, 1, prev);
    for (slong g = 0; g < 3; g++)
        cr_assert(mpfr_regular_p(prev + g) && mpfr_sgn(prev + g) > 0,
                  "guard %ld's floor %g", (long)g,
                  mpfr_get_d(prev + g, MPFR_RNDN));
    /* the same point again: kept, the same bits; and kept it is (a
       marked value comes back) */
    floors(&f, t, mc->xs, H, 0, again);
    for (slong g = 0; g < 3; g++)
        cr_expect(same_bits(again + g, prev + g));
    cr_assert(mc->gfkey_valid);
    mpfr_set_ui(mc->gfval + 1, 12345, MPFR_RNDN);
    floors(&f, t, mc->xs, H, 0, again);
    cr_expect_eq(mpfr_cmp_ui(again + 1, 12345), 0,
                 "the same point is not served from the memo");
    floors(&f, t, mc->xs, H, 1, again); /* the real values back */

    /* each input in turn */
    mpfr_mul_ui(H, H, 2, MPFR_RNDN);
    expect_fresh(&f, t, mc->xs, H, prev, 1, "the horizon H");
    mpfr_ptr xs = hdo_vec_init(2, c->prec);
    mpfr_set(xs, mc->xs, MPFR_RNDN);
    mpfr_set(xs + 1, mc->xs + 1, MPFR_RNDN);
    /* y one ulp up: the floors may round to the same, but the key is
       exact (the point is stored anew) */
    mpfr_nextabove(xs + 1);
    expect_fresh(&f, t, xs, H, prev, 0, "a state one ulp away");
    int stored = 0;
    for (slong k = 0; k < 1 + 2 * mc->gprog->ninputs; k++)
        stored |= same_bits(mc->gfkey + k, xs + 1);
    cr_expect(stored, "the key does not hold the state one ulp away");
    mpfr_mul_ui(xs + 1, xs + 1, 3, MPFR_RNDN);
    expect_fresh(&f, t, xs, H, prev, 1, "a state");
    mpfr_set_ui(t, 3, MPFR_RNDN); /* the time's radius tol |t| */
    expect_fresh(&f, t, xs, H, prev, 1, "the time");
    /* a variable's largest size: its floor tol vmax above |value| */
    mpfr_set_ui_2exp(c->vmax + tm_var(f.model, "y"), 1, 200, MPFR_RNDN);
    expect_fresh(&f, t, xs, H, prev, 1, "a variable's largest size (vmax)");
    /* right after an event: the state off by its rate times the event
       time's uncertainty */
    mpfr_set(c->event_at, t, MPFR_RNDN);
    mpfr_set_ui_2exp(c->event_dt, 1, -20, MPFR_RNDN);
    expect_fresh(&f, t, xs, H, prev, 1, "the event time's uncertainty");
    mpfr_set_ui_2exp(c->event_dt, 1, -10, MPFR_RNDN);
    expect_fresh(&f, t, xs, H, prev, 1, "another uncertainty");
    /* the sign of a zero is a different key (a zero's sign can change an
       enclosure: 1/x) */
    mpfr_set_zero(xs, 1);
    floors(&f, t, xs, H, 0, again);
    mpfr_set_zero(xs, -1);
    floors(&f, t, xs, H, 0, again);
    int negzero = 0;
    for (slong k = 0; k < 1 + 2 * mc->gprog->ninputs; k++)
        negzero |= mpfr_zero_p(mc->gfkey + k) && mpfr_signbit(mc->gfkey + k);
    cr_expect(negzero, "-0 after +0 was served as the same key");

    hdo_vec_clear(xs, 2);
    hdo_vec_clear(prev, 3);
    hdo_vec_clear(again, 3);
    mpfr_clears(t, H, (mpfr_ptr)0);
    fx_clear(&f);
}

/* ------------------------------------------------------------------ */
/* The programs of hdo_run_eval_on_left */

/* e[0..n) at (t, xs) by a program compiled here (what
   hdo_run_eval_on_left did before D-113) into out; 0 or -1. */
static int
eval_fresh(fixture *f, mpfr_ptr out, const hdo_expr *e, slong n,
           const left_limit *L, const mpfr_t t)
{
    hdo_program_t prog;
    hdo_expr bad;
    int ok = 0;
    hdo_program_init(prog, f->c.model->pool, e, n, f->c.prec);
    for (slong i = 0; ok == 0 && i < prog->ninputs; i++)
        if (!hdo_run_left_value(prog->value[prog->inputs[i].slot], L,
                                prog->inputs[i].var, prog->inputs[i].order))
            ok = -1;
    if (ok == 0 && prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    if (ok == 0 && hdo_program_eval(prog, &bad) != 0)
        ok = -1;
    for (slong i = 0; ok == 0 && i < n; i++)
        mpfr_set(out + i, prog->value[prog->root_slot[i]], MPFR_RNDN);
    hdo_program_clear(prog);
    return ok;
}

Test(event_memos, left_programs_same_bits_and_keyed_on_every_root)
{
    fixture f;
    fx_init(&f);
    run_ctx *c = &f.c;
    mode_cache *mc = f.mc;
    hdo_expr_pool_struct *pool = c->model->pool;
    const hdo_mode *a = c->model->modes;
    /* lists of roots: the guards, their Lie derivatives along a, and
       lists that share their first root or their length (a key of the
       length or of the first root alone serves the wrong program) */
    hdo_expr g0 = a->whens[0].guard, g1 = a->whens[1].guard,
             g2 = a->whens[2].guard;
    hdo_expr l0 = hdo_sliding_lie(c->model, mc->red, g0),
             l1 = hdo_sliding_lie(c->model, mc->red, g1);
    cr_assert(l0 != HDO_EXPR_NONE && l1 != HDO_EXPR_NONE);
    hdo_expr sum = hdo_expr_add(pool, g0, g1);
    const hdo_expr lists[][3] = {
        {g0, g1, g2}, {g0, g2, g1}, {g1}, {g2}, {g0, l0}, {g0, l1},
        {l1, l0},     {sum},        {g0}, {l0}, {g1, g2}, {g2, g1},
    };
    const slong len[] = {3, 3, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2};
    const slong nl = sizeof len / sizeof *len;
    cr_assert(nl > HDO_RUN_LEFT_PROGS); /* the oldest are replaced */
    mpfr_ptr xs = hdo_vec_init(2, c->prec), got = hdo_vec_init(3, c->prec),
             want = hdo_vec_init(3, c->prec);
    mpfr_t t;
    mpfr_init2(t, c->prec);
    left_limit L = {mc->red, xs, mc->xu, NULL, NULL};
    flint_rand_t st;
    flint_randinit(st);
    slong checks = 0;
    for (slong it = 0; it < 300; it++) {
        slong k = (slong)n_randint(st, (ulong)nl);
        /* a new point each time: a program's values from the last call
           must not leak into this one's */
        mpfr_set_si_2exp(xs, (slong)n_randint(st, 1000) - 500, -7, MPFR_RNDN);
        mpfr_set_si_2exp(xs + 1, (slong)n_randint(st, 1000) + 1, -5, MPFR_RNDN);
        mpfr_set_si_2exp(t, (slong)n_randint(st, 100), -3, MPFR_RNDN);
        int rg = hdo_run_eval_on_left(c, got, lists[k], len[k], &L, t);
        int rw = eval_fresh(&f, want, lists[k], len[k], &L, t);
        cr_assert_eq(rg, rw, "list %ld: status %d, fresh %d", (long)k, rg, rw);
        for (slong i = 0; rg == 0 && i < len[k]; i++, checks++)
            cr_assert(same_bits(got + i, want + i),
                      "list %ld root %ld: kept %g, fresh %g", (long)k, (long)i,
                      mpfr_get_d(got + i, MPFR_RNDN),
                      mpfr_get_d(want + i, MPFR_RNDN));
    }
    cr_assert(checks > 300);
    flint_randclear(st);
    mpfr_clear(t);
    hdo_vec_clear(xs, 2);
    hdo_vec_clear(got, 3);
    hdo_vec_clear(want, 3);
    fx_clear(&f);
}
