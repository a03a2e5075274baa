/* jacobian.c -- the Jacobian of a reduced ODE or index-1 DAE mode as a
 * program (its nonzero partials), and its spectral radius by power
 * iteration: the stiffness test of --method auto */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "step.h"

/* The power iteration's length: the estimate only has to be right to a
   factor of about 1.5 (the test it serves has a margin of 3 on each
   side, hdo_stiff_check in ref/hybrid/stiff.c). */
#define POWER_ITERS 40
/* Index-1 DAE modes eliminate the unknowns with a dense LU of g_z in
   double; beyond this many unknowns the estimate is not made. */
#define MAX_DENSE_UNKNOWNS 300

int
hdo_jacobian_roots(hdo_jacobian_struct *jac, hdo_model_t model,
                   const hdo_reduced_struct *red)
{
    slong n = red->nstate, m = red->nimplicit, N = n + m;
    hdo_expr zero = hdo_expr_const_si(model->pool, 0, 1);
    memset(jac, 0, sizeof *jac);
    jac->n = n;
    jac->m = m;
    jac->N = N;
    jac->alloc = N + 16;
    jac->roots = malloc(jac->alloc * sizeof(hdo_expr));
    jac->row = malloc(jac->alloc * sizeof(slong));
    jac->col = malloc(jac->alloc * sizeof(slong));
    HDO_ASSERT(jac->roots != NULL && jac->row != NULL && jac->col != NULL);
    /* f_i = rhs_i for the explicit states, der(x^(k)) = x^(k+1) for a
       state of an implicit variable (the next state or its unknown);
       g = the h equations */
    for (slong i = 0; i < n; i++)
        jac->roots[i] = i < red->nexplicit
                            ? red->rhs[i]
                            : hdo_expr_var(model->pool, red->state[i].var,
                                           red->state[i].order + 1);
    for (slong k = 0; k < m; k++)
        jac->roots[n + k] = red->h[k];
    /* the nonzero partials only: a sparse mode of N components has O(N)
       of them, and everything after this is linear in their count */
    for (slong i = 0; i < N; i++)
        for (slong j = 0; j < N; j++) {
            const hdo_varord *x = j < n ? &red->state[j] : &red->unknown[j - n];
            hdo_expr d =
                hdo_expr_diff(model->pool, jac->roots[i], x->var, x->order);
            if (d == zero)
                continue;
            if (N + jac->nnz == jac->alloc) {
                jac->alloc *= 2;
                jac->roots = realloc(jac->roots, jac->alloc * sizeof(hdo_expr));
                jac->row = realloc(jac->row, jac->alloc * sizeof(slong));
                jac->col = realloc(jac->col, jac->alloc * sizeof(slong));
                HDO_ASSERT(jac->roots != NULL && jac->row != NULL &&
                           jac->col != NULL);
            }
            jac->row[jac->nnz] = i;
            jac->col[jac->nnz] = j;
            jac->roots[N + jac->nnz++] = d;
        }
    return 0;
}

void
hdo_jacobian_roots_clear(hdo_jacobian_struct *jac)
{
    free(jac->roots);
    free(jac->row);
    free(jac->col);
    memset(jac, 0, sizeof *jac);
}

/* The estimator a stepper keeps (hdo_stepper_struct.spectral). */
typedef struct {
    hdo_jacobian_struct jac;
    hdo_program_t prog;           /* the nnz partials */
    slong *in;                    /* per input of prog: its component */
    int ok;                       /* 0: no estimate for this mode */
    double *val, *x, *y, *gz, *w; /* nnz, N, N, m x m, m */
    slong *perm;                  /* m */
} spectral;

static void
spectral_free(spectral *sp)
{
    if (sp->prog->code != NULL)
        hdo_program_clear(sp->prog);
    hdo_jacobian_roots_clear(&sp->jac);
    free(sp->in);
    free(sp->val);
    free(sp->x);
    free(sp->y);
    free(sp->gz);
    free(sp->w);
    free(sp->perm);
    free(sp);
}

void
hdo_stepper_spectral_clear(hdo_stepper_struct *s)
{
    if (s->spectral != NULL)
        spectral_free(s->spectral);
    s->spectral = NULL;
}

static spectral *
spectral_new(const hdo_stepper_struct *s)
{
    spectral *sp = calloc(1, sizeof *sp);
    HDO_ASSERT(sp != NULL);
    const hdo_reduced_struct *red = s->red;
    if (red->ncons > 0 || red->nimplicit > MAX_DENSE_UNKNOWNS)
        return sp; /* ok = 0 */
    hdo_jacobian_roots(&sp->jac, s->model, red);
    slong N = sp->jac.N, m = sp->jac.m, nnz = sp->jac.nnz;
    hdo_program_init(sp->prog, s->model->pool, sp->jac.roots + N, nnz, 64);
    sp->in = malloc((sp->prog->ninputs + 1) * sizeof(slong));
    sp->val = calloc(nnz + 1, sizeof(double));
    sp->x = calloc(N + 1, sizeof(double));
    sp->y = calloc(N + 1, sizeof(double));
    sp->gz = calloc(m * m + 1, sizeof(double));
    sp->w = calloc(m + 1, sizeof(double));
    sp->perm = calloc(m + 1, sizeof(slong));
    HDO_ASSERT(sp->in != NULL && sp->val != NULL && sp->x != NULL &&
               sp->y != NULL && sp->gz != NULL && sp->w != NULL &&
               sp->perm != NULL);
    for (slong q = 0; q < sp->prog->ninputs; q++) {
        sp->in[q] = -1;
        for (slong i = 0; i < red->nstate; i++)
            if (red->state[i].var == sp->prog->inputs[q].var &&
                red->state[i].order == sp->prog->inputs[q].order)
                sp->in[q] = i;
        for (slong k = 0; k < red->nimplicit; k++)
            if (red->unknown[k].var == sp->prog->inputs[q].var &&
                red->unknown[k].order == sp->prog->inputs[q].order)
                sp->in[q] = red->nstate + k;
        if (sp->in[q] < 0)
            return sp; /* reads something else: no estimate */
    }
    sp->ok = 1;
    return sp;
}

/* LU with partial pivoting of the m x m matrix a in place; 0, or -1 when
   it is singular. */
static int
dense_lu(double *a, slong *perm, slong m)
{
    for (slong i = 0; i < m; i++)
        perm[i] = i;
    for (slong k = 0; k < m; k++) {
        slong p = k;
        for (slong i = k + 1; i < m; i++)
            if (fabs(a[i * m + k]) > fabs(a[p * m + k]))
                p = i;
        if (a[p * m + k] == 0 || !isfinite(a[p * m + k]))
            return -1;
        if (p != k) {
            slong t = perm[p];
            perm[p] = perm[k];
            perm[k] = t;
            for (slong j = 0; j < m; j++) {
                double x = a[p * m + j];
                a[p * m + j] = a[k * m + j];
                a[k * m + j] = x;
            }
        }
        for (slong i = k + 1; i < m; i++) {
            double f = a[i * m + k] / a[k * m + k];
            a[i * m + k] = f;
            for (slong j = k + 1; j < m; j++)
                a[i * m + j] -= f * a[k * m + j];
        }
    }
    return 0;
}

/* y := J_eff x over the states, J_eff = f_y - f_z g_z^-1 g_y (f_y in an
   ODE mode): the Jacobian of the states' flow with the unknowns
   eliminated. */
static void
apply_jac(spectral *sp, const double *x, double *y)
{
    slong n = sp->jac.n, m = sp->jac.m, nnz = sp->jac.nnz;
    double *w = sp->w;
    for (slong i = 0; i < n; i++)
        y[i] = 0;
    for (slong k = 0; k < m; k++)
        w[k] = 0;
    for (slong e = 0; e < nnz; e++) {
        slong i = sp->jac.row[e], j = sp->jac.col[e];
        if (j >= n)
            continue;
        if (i < n)
            y[i] += sp->val[e] * x[j];
        else
            w[i - n] -= sp->val[e] * x[j]; /* -g_y x */
    }
    if (m == 0)
        return;
    /* z = g_z^-1 (-g_y x), then y += f_z z */
    double *z = sp->y + n;
    for (slong k = 0; k < m; k++)
        z[k] = w[sp->perm[k]];
    for (slong i = 0; i < m; i++)
        for (slong j = 0; j < i; j++)
            z[i] -= sp->gz[i * m + j] * z[j];
    for (slong i = m - 1; i >= 0; i--) {
        for (slong j = i + 1; j < m; j++)
            z[i] -= sp->gz[i * m + j] * z[j];
        z[i] /= sp->gz[i * m + i];
    }
    for (slong e = 0; e < nnz; e++) {
        slong i = sp->jac.row[e], j = sp->jac.col[e];
        if (i < n && j >= n)
            y[i] += sp->val[e] * z[j - n];
    }
}

double
hdo_stepper_spectral_radius(hdo_stepper_struct *s, const mpfr_t t,
                            mpfr_srcptr xs, mpfr_srcptr xu)
{
    if (s->spectral == NULL)
        s->spectral = spectral_new(s);
    spectral *sp = s->spectral;
    if (!sp->ok)
        return -1;
    slong n = sp->jac.n, m = sp->jac.m, nnz = sp->jac.nnz;
    hdo_program_struct *prog = sp->prog;
    hdo_expr bad;
    for (slong q = 0; q < prog->ninputs; q++)
        mpfr_set(prog->value[prog->inputs[q].slot],
                 sp->in[q] < n ? xs + sp->in[q] : xu + (sp->in[q] - n),
                 MPFR_RNDN);
    if (prog->time_slot >= 0)
        mpfr_set(prog->value[prog->time_slot], t, MPFR_RNDN);
    if (hdo_program_eval(prog, &bad) != 0)
        return -1;
    for (slong e = 0; e < nnz; e++) {
        sp->val[e] = mpfr_get_d(prog->value[prog->root_slot[e]], MPFR_RNDN);
        if (!isfinite(sp->val[e]))
            return -1;
    }
    if (m > 0) {
        memset(sp->gz, 0, m * m * sizeof(double));
        for (slong e = 0; e < nnz; e++)
            if (sp->jac.row[e] >= n && sp->jac.col[e] >= n)
                sp->gz[(sp->jac.row[e] - n) * m + sp->jac.col[e] - n] =
                    sp->val[e];
        if (dense_lu(sp->gz, sp->perm, m) != 0)
            return -1;
    }
    if (n == 0)
        return 0;
    /* a fixed start with every component nonzero, so that the run is
       reproducible; the growth over the second half of the iteration
       (log-averaged: a complex pair makes single ratios oscillate) */
    double *x = sp->x, *y = sp->y, lsum = 0, nrm;
    for (slong i = 0; i < n; i++)
        x[i] = 1.0 + 0.5 * sin(1.0 + 2.0 * (double)i);
    for (int it = 0; it < POWER_ITERS; it++) {
        apply_jac(sp, x, y);
        nrm = 0;
        for (slong i = 0; i < n; i++)
            nrm = fmax(nrm, fabs(y[i]));
        if (!(nrm > 0) || !isfinite(nrm))
            return nrm > 0 ? -1 : 0; /* nilpotent on this start: 0 */
        if (it >= POWER_ITERS / 2)
            lsum += log(nrm);
        for (slong i = 0; i < n; i++)
            x[i] = y[i] / nrm;
    }
    return exp(lsum / (double)(POWER_ITERS - POWER_ITERS / 2));
}
