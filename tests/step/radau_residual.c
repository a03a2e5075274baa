/* radau_residual.c -- the stage residual (ref/step/radau_dot.c) against
   h sum_j a_ij F_jk - Z_ik summed plainly at twice the precision: the
   residual itself (hdo_radau_dot_residual), and a Newton iteration's
   next residual from the last one (hdo_radau_dot_residual_next,
   decisions.md D-123).  The row sums' two kernels against each other:
   tests/step/radau_dot.c. */
#include <criterion/criterion.h>
#include "../../ref/step/radau.h"
#include "../../ref/step/radau_dot.h"
#include "hybrid.h"

/* Radau IIA's A at s stages, F up to 1e6 and Z near 1e-3 of mixed
   signs for n components, h = 1/3072 (not a power of two). */
typedef struct {
    slong s, n;
    mpfr_ptr nodes, F, Z, R;
    hdo_mat_t A;
    hdo_radau_dot d;
    mpfr_t h;
} dot_case;

static void
dot_case_init(dot_case *c, slong s, slong n, mpfr_prec_t prec,
              mpfr_prec_t zprec)
{
    c->s = s;
    c->n = n;
    c->nodes = hdo_vec_init(s, prec);
    c->F = hdo_vec_init(s * n, prec);
    c->Z = hdo_vec_init(s * n, zprec);
    c->R = hdo_vec_init(s * n, prec);
    hdo_mat_init(c->A, s, s, prec);
    cr_assert_eq(hdo_radau_nodes(c->nodes, s), 0);
    cr_assert_eq(hdo_radau_matrix(c->A, c->nodes, s), 0);
    hdo_radau_dot_init(&c->d, c->A, n);
    mpfr_init2(c->h, 2 * prec);
    mpfr_set_d(c->h, 1.0 / 1024, MPFR_RNDN);
    mpfr_div_ui(c->h, c->h, 3, MPFR_RNDN);
    for (slong k = 0; k < s * n; k++) {
        mpfr_set_si(c->F + k, (long)((k * 7919) % 2001) - 1000, MPFR_RNDN);
        mpfr_mul_ui(c->F + k, c->F + k, 1000, MPFR_RNDN);
        mpfr_div_ui(c->F + k, c->F + k, 7, MPFR_RNDN);
        mpfr_set_si(c->Z + k, (long)((k * 104729) % 201) - 100, MPFR_RNDN);
        mpfr_div_ui(c->Z + k, c->Z + k, 30011, MPFR_RNDN);
    }
}

static void
dot_case_clear(dot_case *c)
{
    hdo_radau_dot_clear(&c->d);
    hdo_mat_clear(c->A);
    hdo_vec_clear(c->nodes, c->s);
    hdo_vec_clear(c->F, c->s * c->n);
    hdo_vec_clear(c->Z, c->s * c->n);
    hdo_vec_clear(c->R, c->s * c->n);
    mpfr_clear(c->h);
}

/* err := |h sum_j a_ij F_jk - Z_ik - R_ik| and sum := h sum_j |a_ij F_jk|
   + |Z_ik|, at their own (twice R's) precision */
static void
residual_error(mpfr_t err, mpfr_t sum, const dot_case *c, slong i, slong k)
{
    slong n = c->n;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(err));
    mpfr_set_ui(err, 0, MPFR_RNDN);
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    for (slong j = 0; j < c->s; j++) {
        mpfr_mul(t, hdo_mat_entry(c->A, i, j), c->F + j * n + k, MPFR_RNDN);
        mpfr_add(err, err, t, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_add(sum, sum, t, MPFR_RNDN);
    }
    mpfr_mul(err, err, c->h, MPFR_RNDN);
    mpfr_mul(sum, sum, c->h, MPFR_RNDN);
    mpfr_sub(err, err, c->Z + i * n + k, MPFR_RNDN);
    mpfr_sub(err, err, c->R + i * n + k, MPFR_RNDN);
    mpfr_abs(err, err, MPFR_RNDN);
    mpfr_abs(t, c->Z + i * n + k, MPFR_RNDN);
    mpfr_add(sum, sum, t, MPFR_RNDN);
    mpfr_clear(t);
}

/* Every row k < nstate of R within its bound, the others still 12345:
   with lg > 0, 2^lg ulps of R's precision of the row's sum of |terms|;
   else factor 2^-32 ntol. */
static void
expect_rows(const dot_case *c, slong nstate, mpfr_prec_t prec,
            const mpfr_t ntol, long lg, long factor, const char *what)
{
    mpfr_t err, sum, bound;
    mpfr_inits2(2 * prec, err, sum, bound, (mpfr_ptr)0);
    for (slong i = 0; i < c->s; i++)
        for (slong k = 0; k < c->n; k++) {
            if (k >= nstate) {
                cr_expect(mpfr_cmp_ui(c->R + i * c->n + k, 12345) == 0);
                continue;
            }
            residual_error(err, sum, c, i, k);
            if (lg > 0) {
                mpfr_mul_2si(bound, sum, lg - (long)prec, MPFR_RNDN);
            } else {
                mpfr_mul_si(bound, ntol, factor, MPFR_RNDN);
                mpfr_mul_2si(bound, bound, -32, MPFR_RNDN);
            }
            cr_expect(mpfr_cmp(err, bound) <= 0,
                      "s = %ld, %s, (%ld, %ld): error %.3e > %.3e", (long)c->s,
                      what, (long)i, (long)k, mpfr_get_d(err, MPFR_RNDN),
                      mpfr_get_d(bound, MPFR_RNDN));
        }
    mpfr_clears(err, sum, bound, (mpfr_ptr)0);
}

static void
mark_rows(dot_case *c)
{
    for (slong k = 0; k < c->s * c->n; k++)
        mpfr_set_ui(c->R + k, 12345, MPFR_RNDN); /* untouched rows */
}

/* The residual at s = 3 and 24: with ntol = 0 to R's precision (4 ulps
   of the sum of |terms|), with ntol to (s + 2) 2^-32 ntol (the rounding
   the precision rule allows, ref/step/radau_dot.h). */
Test(step, radau_dot_residual_against_mpfr)
{
    const slong ss[2] = {3, 24}, n = 3, nstate = 2;
    const mpfr_prec_t prec = 237;
    for (int ci = 0; ci < 2; ci++) {
        dot_case c;
        mpfr_t ntol;
        mpfr_init2(ntol, 64);
        dot_case_init(&c, ss[ci], n, prec, prec);
        for (int pass = 0; pass < 2; pass++) {
            mpfr_set_d(ntol, pass == 0 ? 0 : 1e-40, MPFR_RNDN);
            mark_rows(&c);
            hdo_radau_dot_residual(c.R, &c.d, c.h, c.F, c.Z, nstate, ntol);
            expect_rows(&c, nstate, prec, ntol, pass == 0 ? 2 : 0,
                        (long)c.s + 2, pass == 0 ? "ntol 0" : "ntol 1e-40");
        }
        dot_case_clear(&c);
        mpfr_clear(ntol);
    }
}

/* Three next residuals after a full one, F moving by 1e-13, 1e-25,
   1e-37 and Z by 1e-20, 1e-32, 1e-44 (a converging iteration; Z kept
   at twice the precision, the exact sum of its increments): each within
   (k + 1) (s + 2) 2^-32 ntol of the plain sum after k of them (each
   residual's own rounding, carried into the next), the rows k >=
   nstate untouched.  Without the last residual (Rp := dZ) the error is
   that residual itself, near 1. */
Test(step, radau_dot_residual_next_against_mpfr)
{
    const slong ss[2] = {3, 24}, n = 3, nstate = 2;
    const mpfr_prec_t prec = 237;
    for (int ci = 0; ci < 2; ci++) {
        dot_case c;
        slong s = ss[ci];
        mpfr_ptr dZ = hdo_vec_init(s * n, prec);
        mpfr_t ntol, dz;
        mpfr_init2(ntol, 64);
        mpfr_init2(dz, prec);
        dot_case_init(&c, s, n, prec, 2 * prec);
        mpfr_set_d(ntol, 1e-50, MPFR_RNDN);
        hdo_radau_dot_residual(c.R, &c.d, c.h, c.F, c.Z, nstate, ntol);
        for (int it = 1; it <= 3; it++) {
            hdo_radau_dot_keep(&c.d, c.F, c.R, nstate);
            for (slong k = 0; k < s * n; k++) {
                /* the increment, as a solve gives it: R's precision */
                mpfr_set_si(dZ + k, (long)((k * 31) % 17) - 8, MPFR_RNDN);
                mpfr_div_ui(dZ + k, dZ + k, 9, MPFR_RNDN);
                mpfr_mul_2si(dZ + k, dZ + k, -66 - 40 * (it - 1), MPFR_RNDN);
                mpfr_add(c.Z + k, c.Z + k, dZ + k, MPFR_RNDN);
                mpfr_set_si(dz, (long)((k * 53) % 23) - 11, MPFR_RNDN);
                mpfr_mul_2si(dz, dz, -43 - 40 * (it - 1), MPFR_RNDN);
                mpfr_add(c.F + k, c.F + k, dz, MPFR_RNDN);
            }
            hdo_radau_dot_moved(&c.d, dZ, nstate);
            mark_rows(&c);
            hdo_radau_dot_residual_next(c.R, &c.d, c.h, c.F, nstate, ntol);
            expect_rows(&c, nstate, prec, ntol, 0, (it + 1) * (s + 2),
                        it == 1   ? "next 1"
                        : it == 2 ? "next 2"
                                  : "next 3");
        }
        dot_case_clear(&c);
        hdo_vec_clear(dZ, s * n);
        mpfr_clears(ntol, dz, (mpfr_ptr)0);
    }
}
