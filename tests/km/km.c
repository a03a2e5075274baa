/* km.c -- tests of the Kunkel-Mehrmann analysis on modes whose
   strangeness index and counts are derived by hand in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "km.h"
#include "status.h"
#include "../model_util.h"

static void
free_caches(void)
{
    flint_cleanup();
    mpfr_free_cache();
}
TestSuite(km, .fini = free_caches);

typedef struct {
    hdo_model_t model;
    slong mode;
    mpfr_ptr x;
    mpfr_t t;
    mpfr_prec_t prec;
} km_case;

static void
case_init(km_case *c, const char *text, const char *mode, mpfr_prec_t prec)
{
    tm_parse(c->model, text);
    c->mode = hdo_model_find_mode(c->model, mode);
    cr_assert(c->mode >= 0);
    c->prec = prec;
    c->x = hdo_vec_init(c->model->modes[c->mode].nvars, prec);
    mpfr_init2(c->t, prec);
    mpfr_set_zero(c->t, 1);
}

static void
case_clear(km_case *c)
{
    hdo_vec_clear(c->x, c->model->modes[c->mode].nvars);
    mpfr_clear(c->t);
    hdo_model_clear(c->model);
}

/* The entry of x that belongs to the named variable. */
static mpfr_ptr
xvar(km_case *c, const char *name)
{
    const hdo_mode *m = c->model->modes + c->mode;
    slong v = hdo_model_find_var(c->model, name), i;
    for (i = 0; i < m->nvars; i++)
        if (m->vars[i] == v)
            return c->x + i;
    cr_assert_fail("variable %s not in the mode", name);
    return NULL;
}

/* Sets a variable to the exact rational num/den, rounded. */
static void
setq(km_case *c, const char *name, slong num, ulong den)
{
    mpfr_ptr r = xvar(c, name);
    mpfr_set_si(r, num, MPFR_RNDN);
    mpfr_div_ui(r, r, den, MPFR_RNDN);
}

static int
run(hdo_km_result *res, km_case *c, char *msg, int msglen)
{
    hdo_error_t err;
    int status;
    hdo_error_clear(&err);
    status = hdo_km_analyze(res, c->model, c->mode, c->t, c->x, c->prec, &err);
    hdo_error_format(msg, msglen, &err);
    return status;
}

/* Cartesian pendulum, L = 1.  Level 0: the constraint alone (a = 1);
   T2 spans the tangent directions of the circle in (x, y), vx, vy and
   lambda; F_x' = diag(1,1,1,1,0) maps them onto rank 3: d = 3, u = 1.
   Level 1 adds x vx + y vy = 0 (a = 2), T2 = {lambda, two directions in
   (x, y, vx, vy)}, F_x' T2 has rank 2: u = 1 still.  Level 2 adds
   vx^2 + vy^2 - lambda (x^2 + y^2) - g y = 0, which contains lambda:
   a = 3, T2 two-dimensional inside (x, y, vx, vy), F_x' T2 rank 2:
   d = 2, u = 0.  So mu = 2, d = 2, a = 3, v = 0.
   Consistent point: (x, y) = (3/5, -4/5), (vx, vy) = (4/5, 3/5) (tangent),
   lambda = (vx^2 + vy^2 - g y) / L^2 = 1 + 9.81 * 4/5 = 8.848. */
static const char *pendulum =
    "model pendulum\n"
    "param g = 9.81\n"
    "param L = 1\n"
    "var x = 0.6, y = -0.8, vx = 0.8, vy = 0.6, lam = 8.848\n"
    "mode swing\n"
    "  der(x) = vx\n"
    "  der(y) = vy\n"
    "  der(vx) = -x*lam\n"
    "  der(vy) = -y*lam - g\n"
    "  x^2 + y^2 = L^2\n"
    "end\n"
    "start swing\n";

static void
pendulum_point(km_case *c)
{
    setq(c, "x", 3, 5);
    setq(c, "y", -4, 5);
    setq(c, "vx", 4, 5);
    setq(c, "vy", 3, 5);
    setq(c, "lam", 8848, 1000);
}

Test(km, pendulum)
{
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, pendulum, "swing", 200);
    pendulum_point(&c);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.n, 5);
    cr_assert_eq(res.mu, 2);
    cr_assert_eq(res.d, 2);
    cr_assert_eq(res.a, 3);
    cr_assert_eq(res.v, 0);
    cr_assert_eq(res.u, 0);
    cr_assert(res.clear);
    /* The levels below: (a, d) = (1, 3) and (2, 2), one free each. */
    cr_assert_eq(res.levels[0].a, 1);
    cr_assert_eq(res.levels[0].d, 3);
    cr_assert_eq(res.levels[1].a, 2);
    cr_assert_eq(res.levels[1].d, 2);
    cr_assert_eq(res.levels[1].u, 1);
    /* rank F_2;y = 15 - 3 = 12; the dropped singular values are rounding
       noise at 200 bits (about 1e-60), the kept ones of order one. */
    cr_assert_eq(res.rank_M.rank, 12);
    cr_assert(res.rank_M.log10_gap > 40, "gap 1e%g", res.rank_M.log10_gap);
    cr_assert_eq(res.rank_A.rank, 3);
    cr_assert_eq(res.rank_D.rank, 2);
    case_clear(&c);
}

/* The same pendulum off its constraint (x^2 + y^2 = 1.01): no
   derivatives can satisfy level 0, so the point is refused. */
Test(km, pendulum_inconsistent)
{
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, pendulum, "swing", 200);
    pendulum_point(&c);
    setq(&c, "x", 7, 10);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), HDO_ERR_INCONSISTENT, "%s",
                 msg);
    cr_assert(strstr(msg, "not consistent") != NULL, "%s", msg);
    case_clear(&c);
}

/* Stick mode of two masses with a velocity constraint.  Level 0:
   a = 1 (v1 - v2 = 0), T2 = {x1, x2, v1 + v2 direction, F}; F_x' maps
   F to zero: d = 3, u = 1.  Level 1 adds (f1 - F)/m1 - (f2 + F)/m2 = 0
   (from v1' - v2' = 0), which fixes F: a = 2, T2 = {x1, x2, (v1 + v2)},
   d = 3, u = 0.  So mu = 1, a = 2, d = 3.  Consistent point:
   v1 = v2 = 1/4 and F = (m2 f1 - m1 f2) / (m1 + m2) = (6 - 1/2)/3 = 11/6. */
Test(km, stick_mode)
{
    static const char *text =
        "model stick\n"
        "param m1 = 1\n"
        "param m2 = 2\n"
        "param f1 = 3\n"
        "param f2 = 0.5\n"
        "var x1 = 1, x2 = 2, v1 = 0.25, v2 = 0.25, F = 0\n"
        "mode stick\n"
        "  m1*der(v1) = f1 - F\n"
        "  m2*der(v2) = f2 + F\n"
        "  v1 - v2 = 0\n"
        "  der(x1) = v1\n"
        "  der(x2) = v2\n"
        "end\n"
        "start stick\n";
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, text, "stick", 150);
    setq(&c, "x1", 1, 1);
    setq(&c, "x2", 2, 1);
    setq(&c, "v1", 1, 4);
    setq(&c, "v2", 1, 4);
    setq(&c, "F", 11, 6);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.mu, 1);
    cr_assert_eq(res.a, 2);
    cr_assert_eq(res.d, 3);
    cr_assert_eq(res.v, 0);
    cr_assert_eq(res.levels[0].u, 1);
    case_clear(&c);
}

/* Resting ball: h' = v, v' = -g + f, h = 0.  Level 0: a = 1, d = 1
   (v), u = 1 (f undetermined).  Level 1 adds v = 0: a = 2, T2 = {f},
   F_x' f = 0, d = 0, u = 1.  Level 2 adds v' = 0, i.e. f - g = 0:
   a = 3, d = 0.  mu = 2, d = 0, a = 3.  Point: h = v = 0, f = g. */
Test(km, resting_ball)
{
    static const char *text = "model rest\n"
                              "param g = 9.81\n"
                              "var h = 0, v = 0, f = 9.81\n"
                              "mode rest\n"
                              "  der(h) = v\n"
                              "  der(v) = -g + f\n"
                              "  h = 0\n"
                              "end\n"
                              "start rest\n";
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, text, "rest", 128);
    setq(&c, "h", 0, 1);
    setq(&c, "v", 0, 1);
    setq(&c, "f", 981, 100);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.mu, 2);
    cr_assert_eq(res.d, 0);
    cr_assert_eq(res.a, 3);
    cr_assert_eq(res.levels[0].d, 1);
    cr_assert_eq(res.levels[1].a, 2);
    cr_assert_eq(res.levels[1].d, 0);
    case_clear(&c);
}

/* An ODE mode: F_x' = I, F_0;y = I has full rank, a = 0, d = 2 at
   level 0 already: mu = 0 (strangeness-free). */
Test(km, ode_mode)
{
    static const char *text = "model ode\n"
                              "var x = 1, y = 2\n"
                              "mode m\n"
                              "  der(x) = -x + sin(t)\n"
                              "  der(y) = x*y\n"
                              "end\n"
                              "start m\n";
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, text, "m", 100);
    setq(&c, "x", 1, 1);
    setq(&c, "y", 2, 1);
    mpfr_set_d(c.t, 0.25, MPFR_RNDN);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.mu, 0);
    cr_assert_eq(res.a, 0);
    cr_assert_eq(res.d, 2);
    cr_assert_eq(res.rank_M.rank, 2);
    case_clear(&c);
}

/* A nilpotent chain of length 3: x2' = x1, x3' = x2, 0 = x3 - sin t,
   i.e. N x' = x + f with N a single nilpotent block of size 3.  The
   solution is forced: x3 = sin t, x2 = cos t, x1 = -sin t (x3 must be
   differentiated three times to give x1': differentiation index 3,
   strangeness index 2).  Levels: 0: a = 1 (x3), d = 1 (x2), u = 1;
   1: a = 2 (x3, x2), T2 = {x1}, F_x' x1 = 0, d = 0, u = 1;
   2: a = 3, d = 0, u = 0.  So mu = 2, a = 3, d = 0. */
Test(km, nilpotent_chain)
{
    static const char *text = "model chain\n"
                              "var x1, x2, x3\n"
                              "mode m\n"
                              "  der(x2) = x1\n"
                              "  der(x3) = x2\n"
                              "  0 = x3 - sin(t)\n"
                              "end\n"
                              "start m\n";
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, text, "m", 160);
    mpfr_set_ui(c.t, 1, MPFR_RNDN);
    mpfr_div_2ui(c.t, c.t, 1, MPFR_RNDN);
    mpfr_sin(xvar(&c, "x1"), c.t, MPFR_RNDN);
    mpfr_neg(xvar(&c, "x1"), xvar(&c, "x1"), MPFR_RNDN);
    mpfr_cos(xvar(&c, "x2"), c.t, MPFR_RNDN);
    mpfr_sin(xvar(&c, "x3"), c.t, MPFR_RNDN);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.mu, 2);
    cr_assert_eq(res.a, 3);
    cr_assert_eq(res.d, 0);
    cr_assert_eq(res.levels[0].d, 1);
    cr_assert_eq(res.levels[1].a, 2);
    cr_assert_eq(res.levels[1].d, 0);
    case_clear(&c);
}

/* Mehrmann's slides, "uniformly regular but not uniquely solvable":
   [-t t^2; -1 t] x' = -x.  Every x = c(t) (t, 1) solves it, so the mode
   must be refused although det(lambda E + I) = 1 is a regular pencil.
   By hand, level 0: E has rank 1, a = 1 with Z2 = (1, -t), T2 = (t, 1),
   E T2 = 0: d = 0, u = 1.  Level 1: the second pair of rows repeats the
   first times t in [F_x F_y] (v = 1), a = 1, d = 0, u = 1 again: the
   counts are stable with one free component.  Point: t = 2, c = 1. */
Test(km, slides_regular_pencil_not_solvable)
{
    static const char *text = "model slides1\n"
                              "var x1 = 2, x2 = 1\n"
                              "mode m\n"
                              "  -t*der(x1) + t^2*der(x2) = -x1\n"
                              "  -der(x1) + t*der(x2) = -x2\n"
                              "end\n"
                              "start m\n";
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, text, "m", 128);
    mpfr_set_ui(c.t, 2, MPFR_RNDN);
    setq(&c, "x1", 2, 1);
    setq(&c, "x2", 1, 1);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), HDO_ERR_SINGULAR, "%s", msg);
    cr_assert(strstr(msg, "not uniquely solvable") != NULL, "%s", msg);
    cr_assert_eq(res.u, 1);
    cr_assert_eq(res.a, 1);
    cr_assert_eq(res.d, 0);
    cr_assert_eq(res.levels[0].v, 0);
    cr_assert_eq(res.levels[1].v, 1);
    case_clear(&c);
}

/* Mehrmann's slides, "uniformly singular but uniquely solvable":
   [0 0; 1 -t] x' = [-1 t; 0 0] x + f, here with f1 = t^2, f2 = 1 + t.
   The pencil is singular for all t, yet x2 = f2 - f1' = 1 - t,
   x1 = t x2 + f1 = t is the only solution.  By hand, level 0: a = 1
   (Z2 = e1), T2 = (t, 1), E T2 = 0: d = 0, u = 1.  Level 1 (rows F1, F2,
   F1', F2'): F2 and F1' have opposite y-parts, so Z2 = {e1, e2 + e3}
   gives the constraints x1 - t x2 - t^2 and x2 - 1 + t: a = 2, v = 0,
   d = 0, u = 0; level 2 confirms.  mu = 1.  Point: t = 1/2,
   x = (1/2, 1/2). */
Test(km, slides_singular_pencil_solvable)
{
    static const char *text = "model slides2\n"
                              "var x1 = 0.5, x2 = 0.5\n"
                              "mode m\n"
                              "  0 = -x1 + t*x2 + t^2\n"
                              "  der(x1) - t*der(x2) = 1 + t\n"
                              "end\n"
                              "start m\n";
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, text, "m", 128);
    mpfr_set_d(c.t, 0.5, MPFR_RNDN);
    setq(&c, "x1", 1, 2);
    setq(&c, "x2", 1, 2);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.mu, 1);
    cr_assert_eq(res.a, 2);
    cr_assert_eq(res.d, 0);
    cr_assert_eq(res.v, 0);
    cr_assert_eq(res.levels[0].a, 1);
    cr_assert_eq(res.levels[0].u, 1);
    case_clear(&c);
}

/* der(x) = y, eps der(y) = -x with eps = 1e-40: F_0;y = diag(1, eps).
   At 200 bits the singular value 1e-40 lies between the threshold
   2^-150 (1e-45) and the certainty bound 2^-100 (1e-30): the rank
   decision is not clear-cut and must be refused, naming the singular
   value.  At 600 bits (bounds 1e-135 and 1e-90) it is clear: an ODE,
   mu = 0. */
static const char *stiff = "model stiff\n"
                           "param eps = 1e-40\n"
                           "var x = 1, y = 0\n"
                           "mode m\n"
                           "  der(x) = y\n"
                           "  eps*der(y) = -x\n"
                           "end\n"
                           "start m\n";

Test(km, unclear_rank_refused)
{
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, stiff, "m", 200);
    setq(&c, "x", 1, 1);
    setq(&c, "y", 0, 1);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), HDO_ERR_SINGULAR, "%s", msg);
    cr_assert(strstr(msg, "not clear-cut") != NULL, "%s", msg);
    cr_assert(strstr(msg, "1e-40.0") != NULL, "%s", msg);
    case_clear(&c);
}

Test(km, small_singular_value_clear_at_high_precision)
{
    km_case c;
    hdo_km_result res;
    char msg[1200];
    case_init(&c, stiff, "m", 600);
    setq(&c, "x", 1, 1);
    setq(&c, "y", 0, 1);
    cr_assert_eq(run(&res, &c, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(res.mu, 0);
    cr_assert_eq(res.d, 2);
    cr_assert(fabs(res.rank_M.log10_last_kept + 40) < 1e-9, "1e%g",
              res.rank_M.log10_last_kept);
    case_clear(&c);
}
