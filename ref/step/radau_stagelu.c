/* radau_stagelu.c -- Radau IIA's Newton matrix with each stage's own
 * Jacobian, I - h (A (x) I) diag(J_1..J_s), factored in double */
/* Compiled at -O3 (Makefile, HOT_DOUBLE): its loops vectorised, the same
   bits (decisions.md D-140). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "radau.h"
#include "radau_control.h"

/* Why.  The block form (radau_block.c) takes one Jacobian for all
   stages, their mean J0; the iteration then contracts by theta about
   h |J_i - J0|, 0.03 on Van der Pol mu = 1000 (1.5 digits an
   iteration), so a step took 20 iterations of the residual in MPFR at
   60 digits and more at 100, the iterations growing with D.  With the
   stages' own Jacobians (at the iterate where the matrix is factored)
   the only errors left are the Jacobians' change since then and
   double's rounding: a few iterations a step at any D.  Factoring the
   s n x s n matrix costs (s n)^3 / 3 multiplications in double (1e6 at
   144 unknowns: Van der Pol at 100 digits), less than one residual in
   MPFR there; where it is not (hdo_radau_stage_lu_due) the blocks stay.  As the
   blocks, a preconditioner: the residual is MPFR's, the Newton loop
   measures theta and goes to the full matrix in MPFR when it is slow
   (decisions.md D-109).
   Where the LU costs more than that (the ring modulator: 15 states, 17
   stages), the blocks' solve P^-1 preconditions an iteration in double
   on the same matrix M: d = P^-1 r, then d += P^-1 (r - M d), M d
   costing s nnz + s^2 n products in double.  Each correction gains
   what a Newton iteration with the blocks gains (theta about 0.05
   there), for a fraction of an iteration's residual in MPFR
   (decisions.md D-138). */

/* y := y - f x over m entries, four at a time: the same operations on
   each entry (no fused multiply-add, no reordering), so the same
   factors, but the pairs go to the vector unit (GCC's -O2 does not
   vectorise a loop of unknown count; this loop is most of the
   factorisation, which was 11% of Van der Pol's run at 100 digits:
   decisions.md D-123).  Two copies: AVX2's four doubles an instruction
   where the processor has it, SSE2's two elsewhere; the same operations,
   so the same bits (D-146). */
/* target_clones needs the loader's ifunc: ELF and glibc (MinGW, macOS
   and musl lack it) */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) &&            \
    defined(__GLIBC__)
#define AVX2_OR_DEFAULT __attribute__((target_clones("avx2", "default")))
#else
#define AVX2_OR_DEFAULT
#endif
AVX2_OR_DEFAULT static void
row_update(double *restrict y, const double *restrict x, double f, slong m)
{
    slong j = 0;
    for (; j + 3 < m; j += 4) {
        y[j] -= f * x[j];
        y[j + 1] -= f * x[j + 1];
        y[j + 2] -= f * x[j + 2];
        y[j + 3] -= f * x[j + 3];
    }
    for (; j < m; j++)
        y[j] -= f * x[j];
}

/* b->lu := the LU factors (partial pivoting, lperm) of
   I - (A (x) I) diag(hJ_1..hJ_s); -1 when singular or not finite. */
static int
factor_full_double(hdo_radau_block *b, const double *hJst)
{
    slong n = b->n, s = b->s, ns = n * s;
    double *M = b->lu;
    memset(M, 0, (size_t)(ns * ns) * sizeof(double));
    for (slong i = 0; i < s; i++)
        for (slong j = 0; j < s; j++) {
            double a = b->A[i * s + j];
            for (slong e = 0; e < b->nnz; e++)
                M[(i * n + b->row[e]) * ns + j * n + b->col[e]] -=
                    a * hJst[j * b->nnz + e];
        }
    for (slong k = 0; k < ns; k++) {
        M[k * ns + k] += 1;
        b->lperm[k] = k;
    }
    for (slong k = 0; k < ns; k++) {
        slong p = k;
        for (slong i = k + 1; i < ns; i++)
            if (fabs(M[i * ns + k]) > fabs(M[p * ns + k]))
                p = i;
        if (!(M[p * ns + k] != 0) || !isfinite(M[p * ns + k]))
            return -1;
        if (p != k) {
            slong tp = b->lperm[p];
            b->lperm[p] = b->lperm[k];
            b->lperm[k] = tp;
            for (slong j = 0; j < ns; j++) {
                double x = M[p * ns + j];
                M[p * ns + j] = M[k * ns + j];
                M[k * ns + j] = x;
            }
        }
        double piv = 1 / M[k * ns + k];
        for (slong i = k + 1; i < ns; i++) {
            double f = M[i * ns + k] * piv;
            M[i * ns + k] = f;
            if (f == 0)
                continue;
            row_update(M + i * ns + k + 1, M + k * ns + k + 1, f, ns - k - 1);
        }
    }
    return 0;
}

/* b->hJs := h J_j's entries in double (made on first use), each the
   product of h and the entry each rounded to double: a preconditioner's
   matrix needs no better, and two roundings cost far less than MPFR's
   product and its conversion (s nnz of them a factorisation).  0 when
   one is beyond double's range or not finite: then neither the stages'
   LU nor the refinement, the blocks alone (which take MPFR's product of
   h and the mean, and refuse in turn when that is beyond double's
   range: the full matrix in MPFR then). */
static int
stage_jacobians_double(hdo_radau_block *b, const mpfr_t h, mpfr_srcptr Jst)
{
    slong m = b->s * b->nnz;
    if (b->hJs == NULL) {
        b->hJs = malloc((size_t)(m + 1) * sizeof(double));
        HDO_ASSERT(b->hJs != NULL);
    }
    double hd = mpfr_get_d(h, MPFR_RNDN);
    for (slong k = 0; k < m; k++) {
        b->hJs[k] = hd * mpfr_get_d(Jst + k, MPFR_RNDN);
        if (!isfinite(b->hJs[k]) || fabs(b->hJs[k]) > 1e250)
            return 0;
    }
    return 1;
}

int
hdo_radau_block_factor_stages(hdo_radau_block *b, const mpfr_t h,
                              mpfr_srcptr J0, mpfr_srcptr Jst)
{
    slong n = b->n, s = b->s, ns = n * s;
    /* the working precision from h: Jst holds no number at all where the
       Jacobian's pattern is empty (nnz = 0) */
    if (b->ny < n || Jst == NULL)
        return hdo_radau_block_factor_sparse(b, h, J0);
    int ok = stage_jacobians_double(b, h, Jst),
        due = hdo_radau_stage_lu_due(n, s, mpfr_get_prec(h));
    if (ok && due) {
        if (b->lu == NULL) {
            b->lu = malloc((size_t)(ns * ns) * sizeof(double));
            b->lperm = malloc((size_t)ns * sizeof(slong));
            HDO_ASSERT(b->lu != NULL && b->lperm != NULL);
        }
        if (factor_full_double(b, b->hJs) == 0) {
            b->h = mpfr_get_d(h, MPFR_RNDN);
            b->refine = b->refined = 0;
            b->staged = 1;
            return 0;
        }
    }
    /* the refinement only where the LU was not due (where it was and
       failed in double, the blocks alone, as before), and not for an
       empty pattern (M = I = P) */
    int st = hdo_radau_block_factor_sparse(b, h, J0);
    if (st == 0 && ok && !due && b->nnz > 0) {
        if (b->rf == NULL) {
            b->rf = malloc((size_t)(4 * ns + 1) * sizeof(double));
            HDO_ASSERT(b->rf != NULL);
        }
        b->refine = 1;
    }
    return st;
}

static double
max_abs(const double *x, slong m)
{
    double big = 0;
    for (slong k = 0; k < m; k++)
        big = fabs(x[k]) > big || isnan(x[k]) ? fabs(x[k]) : big;
    return big;
}

/* res := r - M x, M = I - (A (x) I) diag(hJ_1..hJ_s) the stages'
   matrix (u: s n doubles of work space); returns max |res|. */
static double
stage_residual(const hdo_radau_block *b, double *res, const double *r,
               const double *x, double *u)
{
    slong n = b->n, s = b->s, ns = n * s;
    memset(u, 0, (size_t)ns * sizeof(double));
    for (slong j = 0; j < s; j++) {
        const double *hJ = b->hJs + j * b->nnz;
        for (slong e = 0; e < b->nnz; e++)
            u[j * n + b->row[e]] += hJ[e] * x[j * n + b->col[e]];
    }
    for (slong i = 0; i < s; i++)
        for (slong k = 0; k < n; k++) {
            double acc = x[i * n + k];
            for (slong j = 0; j < s; j++)
                acc -= b->A[i * s + j] * u[j * n + k];
            res[i * n + k] = r[i * n + k] - acc;
        }
    return max_abs(res, ns);
}

/* rd := M^-1 rd for the stages' matrix M, by the blocks' solve P^-1 as
   a preconditioner: d = P^-1 r, then d += P^-1 (r - M d) while the
   residual r - M d falls by half or more, until it is 2^-40 of r's
   (HDO_RADAU_REFINE_MAX corrections at most).  A correction that does
   not halve it is not taken (a cost choice: the Newton matrix then
   keeps the blocks' refactoring rule), so the result is never worse
   than the blocks' own in that residual.  Why: see the top of this file and
   decisions.md D-138. */
static void
refine_solve(hdo_radau_block *b)
{
    slong ns = b->n * b->s;
    double *r = b->rf, *d = r + ns, *res = d + ns, *u = res + ns;
    memcpy(r, b->rd, (size_t)ns * sizeof(double));
    double rmax = max_abs(r, ns);
    hdo_radau_block_solve_doubles(b);
    memcpy(d, b->rd, (size_t)ns * sizeof(double));
    double rn = stage_residual(b, res, r, d, u);
    b->refined = 0;
    for (int it = 0; it < HDO_RADAU_REFINE_MAX && rn > ldexp(rmax, -40); it++) {
        memcpy(b->rd, res, (size_t)ns * sizeof(double));
        hdo_radau_block_solve_doubles(b);
        /* the candidate d + c in rd, and its residual in res */
        for (slong k = 0; k < ns; k++)
            b->rd[k] += d[k];
        double rnew = stage_residual(b, res, r, b->rd, u);
        if (!(rnew <= 0.5 * rn) || !isfinite(rnew))
            break;
        memcpy(d, b->rd, (size_t)ns * sizeof(double));
        rn = rnew;
        b->refined = 1;
    }
    memcpy(b->rd, d, (size_t)ns * sizeof(double));
}

void
hdo_radau_block_solve_stages(hdo_radau_block *b, mpfr_ptr R)
{
    slong ns = b->n * b->s;
    if (!b->staged && !b->refine) {
        hdo_radau_block_solve(b, R);
        return;
    }
    if (!b->staged) {
        long emax = hdo_radau_scaled_doubles(b->rd, R, NULL, ns);
        b->refined = 0;
        if (emax == LONG_MIN)
            return; /* R = 0: so is the solution */
        refine_solve(b);
        hdo_radau_unscale_doubles(R, b->rd, ns, emax);
        return;
    }
    const double *M = b->lu;
    double *x = b->rd;
    /* R scaled by 2^-emax into double's range, permuted */
    long emax = hdo_radau_scaled_doubles(x, R, b->lperm, ns);
    if (emax == LONG_MIN)
        return; /* R = 0: so is the solution */
    for (slong i = 1; i < ns; i++) {
        double acc = x[i];
        for (slong j = 0; j < i; j++)
            acc -= M[i * ns + j] * x[j];
        x[i] = acc;
    }
    for (slong i = ns - 1; i >= 0; i--) {
        double acc = x[i];
        for (slong j = i + 1; j < ns; j++)
            acc -= M[i * ns + j] * x[j];
        x[i] = acc / M[i * ns + i];
    }
    hdo_radau_unscale_doubles(R, x, ns, emax);
}

double
hdo_radau_block_stiffness(const hdo_radau_block *b, mpfr_srcptr J,
                          const mpfr_t h)
{
    double big = 0;
    for (slong e = 0; e < b->nnz; e++)
        if (b->row[e] == b->col[e] && b->row[e] < b->ny) {
            double d = fabs(mpfr_get_d(J + e, MPFR_RNDN));
            if (d > big)
                big = d;
        }
    return big * fabs(mpfr_get_d(h, MPFR_RNDN));
}
