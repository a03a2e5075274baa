/* direct.c -- modes whose Pryce form is numerically singular, given to IDA
   as F(t, y, y') = 0 with the adapter's own consistent y' (icsing.h).

   Pryce's structural analysis sees which derivatives occur, not their
   coefficients: M y' = f(t, y) with a singular constant M (the Test Set's
   transistor amplifier: C1 (y1' - y2') in two equations) has a full
   transversal, so its reduced form keeps the derivatives as algebraic
   unknowns u of an h(t, y, u) = 0 that is singular in u.  Given to IDA
   that way the system is of index 2 in u, and IDACalcIC(IDA_YA_YDP_INIT)
   cannot fix the part of u in the null space of M: it returns a u that
   satisfies h but not the derivative of the hidden constraints (the
   amplifier: y1' = y2' = -0.052 where the solution has 51.34), and
   IDASolve's error test then fails at h = 1.6e-15.  A careful SUNDIALS
   user gives IDA the DAE as written, F(t, y, y') = M y' - f = 0 of index
   1 (as the Test Set gives it to DASSL, RADAU and PSIDE), with a
   consistent y' that F alone does not determine. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "adapter.h"
#include "icsing.h"

/* F(t, y, yp) of the current mode in either form (rows as in resfn and
   direct_resfn) and, when dF is not NULL, its derivative in the direction
   (dt, dy, dyp): an ics_resfn with ud the run_ctx. */
static void
res_eval(double *F, double *dF, double t, const double *y, const double *yp,
         double dt, const double *dy, const double *dyp, void *ud)
{
    run_ctx *c = ud;
    mode_data *md = &c->modes[c->cur];
    hdo_reduced_struct *r = md->r;
    slong nf = r->nexplicit + r->nh;
    double f[nf + 1], df[nf + 1];

    ida_load(c->vtab, c, md, y, yp);
    if (dF != NULL) {
        memset(c->dvtab, 0, (c->maxord + 1) * c->nv * sizeof(double));
        ida_load(c->dvtab, c, md, dy, dyp);
        deval_eval_dual(f, df, md->res, t, dt, c->vtab, c->dvtab);
    } else {
        deval_eval(f, md->res, t, c->vtab);
    }
    for (slong i = 0; i < r->nexplicit; i++) {
        F[i] = yp[i] - f[i];
        if (dF != NULL)
            dF[i] = dyp[i] - df[i];
    }
    for (slong i = r->nexplicit; i < r->nstate; i++) {
        slong j = md->deriv[i];
        if (j < 0)
            continue; /* the top of a chain (direct form): an h row */
        F[i] = yp[i] - y[j];
        if (dF != NULL)
            dF[i] = dyp[i] - dy[j];
    }
    for (slong k = 0; k < r->nh; k++) {
        F[md->hrow[k]] = f[r->nexplicit + k];
        if (dF != NULL)
            dF[md->hrow[k]] = df[r->nexplicit + k];
    }
}

int
direct_resfn(sunrealtype t, N_Vector yv, N_Vector ypv, N_Vector rv, void *ud)
{
    run_ctx *c = ud;
    mode_data *md = &c->modes[c->cur];
    double *rr = NV_DATA_S(rv);
    res_eval(rr, NULL, t, NV_DATA_S(yv), NV_DATA_S(ypv), 0, NULL, NULL, c);
    for (slong i = 0; i < md->n; i++)
        if (!isfinite(rr[i]))
            return 1; /* recoverable: IDA retries with a smaller step */
    return 0;
}

int
direct_needed(run_ctx *c, mode_data *md, double t, slong *rank, double *ratio)
{
    hdo_reduced_struct *r = md->r;
    slong n = md->n, nu = r->nimplicit, nh = r->nh;
    if (nu == 0 || nh != nu)
        return 0;
    double *A = malloc(nh * nu * sizeof(double));
    double *F = malloc(n * sizeof(double)), *dF = malloc(n * sizeof(double));
    double *dy = calloc(n, sizeof(double)), *dyp = calloc(n, sizeof(double));
    int finite = 1;
    for (slong j = 0; j < nu; j++) {
        dy[r->nstate + j] = 1;
        res_eval(F, dF, t, NV_DATA_S(md->y), NV_DATA_S(md->yp), 0, dy, dyp, c);
        dy[r->nstate + j] = 0;
        for (slong k = 0; k < nh; k++) {
            A[k * nu + j] = dF[md->hrow[k]];
            finite = finite && isfinite(A[k * nu + j]);
        }
    }
    /* a Jacobian that cannot be evaluated at the guesses is IDACalcIC's
       business, as before */
    *rank = finite ? ics_numeric_rank(A, nh, nu, ratio) : nu;
    free(dyp);
    free(dy);
    free(dF);
    free(F);
    free(A);
    return *rank < nu;
}

void
direct_convert(run_ctx *c, mode_data *md, slong m)
{
    hdo_reduced_struct *r = md->r;
    slong ns = r->nstate, nalg = 0, nu = 0;

    ida_destroy(md);
    for (slong j = 0; j < r->nimplicit; j++) {
        if (r->unknown[j].order == 0)
            nalg++;
        else
            nu++;
    }
    slong n = ns + nalg;
    md->u_slot = malloc((nu + 1) * sizeof(slong));
    md->u_top = malloc((nu + 1) * sizeof(slong));
    md->nu = 0;
    slong a = ns;
    for (slong j = 0; j < r->nimplicit; j++) {
        slong v = r->unknown[j].var, o = r->unknown[j].order;
        if (o == 0) {
            md->cvar[a] = v; /* a <= old index: the arrays only shrink */
            md->cord[a] = 0;
            a++;
            continue;
        }
        slong top = -1;
        for (slong i = 0; i < ns; i++)
            if (md->cvar[i] == v && md->cord[i] == o - 1)
                top = i;
        if (top < 0)
            ida_die("reduced form of mode %s has a broken state chain",
                    c->model->modes[m].name);
        md->u_slot[md->nu] = o * c->nv + v;
        md->u_top[md->nu] = top;
        md->nu++;
    }
    /* The rows of the tops of the chains and of the algebraic components
       take h, in order. */
    slong k = 0;
    for (slong i = r->nexplicit; i < n; i++) {
        if (i < ns && md->deriv[i] < ns) {
            continue; /* a chain row: x^(k)' = x^(k+1), a state */
        }
        if (i < ns)
            md->deriv[i] = -1;
        if (k < r->nh)
            md->hrow[k] = i;
        k++;
    }
    if (k != r->nh)
        ida_die("reduced form of mode %s does not fit the direct form",
                c->model->modes[m].name);
    md->n = n;
    md->direct = 1;
    ida_create(c, md, m, direct_resfn);
}

void
direct_start(run_ctx *c, mode_data *md, double t)
{
    ics_info info;
    int s =
        ics_consistent(NV_DATA_S(md->y), NV_DATA_S(md->yp), t, md->n,
                       NV_DATA_S(md->id), c->rtol, c->atol, res_eval, c, &info);
    if (s != ICS_OK) {
        fprintf(stderr,
                "%s: error: consistent initial values failed in mode %s at t "
                "= %.17g: %s (rank of dF/dy' %ld of %ld, %ld iterations, "
                "last step %.1e, inconsistency %.1e)\n",
                prog_name, c->model->modes[c->cur].name, t, ics_message(s),
                (long)info.rank, (long)md->n, (long)info.iters, info.step,
                info.inconsis);
        exit(2);
    }
    if (IDAReInit(md->ida, t, md->y, md->yp) < 0)
        ida_die("IDAReInit failed%s", "");
}
