/* session.c -- the IDA session of hdo-ida: a mode's IDA memory (created
   with the residual function of its form, root functions the guards),
   the residual of Pryce's form, the guards at a point, the values table,
   and the adapter's fatal errors.  hdo-ida.c (the driver) and direct.c
   (the direct form, with its own residual) build on it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "adapter.h"

const char *prog_name = "hdo-ida";

void
ida_die(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: error: ", prog_name);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

void
ida_check_flag(int flag, const char *fn)
{
    if (flag < 0) {
        fprintf(stderr, "%s: error: %s failed: %s\n", prog_name, fn,
                IDAGetReturnFlagName(flag));
        exit(2);
    }
}

int
ida_resfn(sunrealtype t, N_Vector yv, N_Vector ypv, N_Vector rv, void *ud)
{
    run_ctx *c = ud;
    mode_data *md = &c->modes[c->cur];
    hdo_reduced_struct *r = md->r;
    double *y = NV_DATA_S(yv), *yp = NV_DATA_S(ypv), *rr = NV_DATA_S(rv);
    double f[r->nexplicit + r->nh + 1];

    ida_load(c->vtab, c, md, y, yp);
    deval_eval(f, md->res, t, c->vtab);
    for (slong i = 0; i < r->nexplicit; i++)
        rr[i] = yp[i] - f[i];
    for (slong i = r->nexplicit; i < r->nstate; i++)
        rr[i] = yp[i] - y[md->deriv[i]];
    for (slong k = 0; k < r->nh; k++)
        rr[r->nstate + k] = f[r->nexplicit + k];
    for (slong i = 0; i < md->n; i++)
        if (!isfinite(rr[i]))
            return 1; /* recoverable: IDA retries with a smaller step */
    return 0;
}

void
ida_guards_at(double *g, run_ctx *c, mode_data *md, double t, const double *y,
          const double *yp)
{
    ida_load(c->vtab, c, md, y, yp);
    deval_eval(g, md->guards, t, c->vtab);
    for (slong k = 0; k < md->guards->nroots; k++)
        g[k] += c->hyst;
}

static int
rootfn(sunrealtype t, N_Vector yv, N_Vector ypv, sunrealtype *g, void *ud)
{
    run_ctx *c = ud;
    ida_guards_at(g, c, &c->modes[c->cur], t, NV_DATA_S(yv), NV_DATA_S(ypv));
    return 0;
}

/* IDA: one memory per mode, created on its first entry (and again if the
   mode turns out to need the direct form), IDAReInit after. */
void
ida_create(run_ctx *c, mode_data *md, slong m, IDAResFn res)
{
    hdo_mode *mode = &c->model->modes[m];
    md->y = N_VNew_Serial(md->n, c->ctx);
    md->yp = N_VNew_Serial(md->n, c->ctx);
    md->id = N_VNew_Serial(md->n, c->ctx);
    for (slong i = 0; i < md->n; i++)
        NV_Ith_S(md->id, i) = i < md->r->nstate ? 1.0 : 0.0;
    md->ida = IDACreate(c->ctx);
    if (md->ida == NULL)
        ida_die("IDACreate failed%s", "");
    N_VConst(0.0, md->y);
    N_VConst(0.0, md->yp);
    ida_check_flag(
        IDAInit(md->ida, res, 0.0, md->y, md->yp),
        "IDAInit");
    ida_check_flag(IDASStolerances(md->ida, c->rtol, c->atol), "IDASStolerances");
    ida_check_flag(IDASetUserData(md->ida, c), "IDASetUserData");
    ida_check_flag(IDASetId(md->ida, md->id), "IDASetId");
    ida_check_flag(IDASetMaxNumSteps(md->ida, 100000), "IDASetMaxNumSteps");
    md->A = SUNDenseMatrix(md->n, md->n, c->ctx);
    md->LS = SUNLinSol_Dense(md->y, md->A, c->ctx);
    ida_check_flag(IDASetLinearSolver(md->ida, md->LS, md->A),
               "IDASetLinearSolver");
    if (mode->nwhens > 0) {
        ida_check_flag(IDARootInit(md->ida, (int)mode->nwhens, rootfn),
                   "IDARootInit");
        md->dirs = malloc(mode->nwhens * sizeof(int));
        for (slong k = 0; k < mode->nwhens; k++)
            md->dirs[k] = -1;
        ida_check_flag(IDASetRootDirection(md->ida, md->dirs),
                   "IDASetRootDirection");
        ida_check_flag(IDASetNoInactiveRootWarn(md->ida),
                   "IDASetNoInactiveRootWarn");
    }
}

void
ida_destroy(mode_data *md)
{
    IDAFree(&md->ida);
    SUNLinSolFree(md->LS);
    SUNMatDestroy(md->A);
    N_VDestroy(md->y);
    N_VDestroy(md->yp);
    N_VDestroy(md->id);
    free(md->dirs);
    md->dirs = NULL;
}

void
ida_load(double *tab, const run_ctx *c, const mode_data *md, const double *y,
         const double *yp)
{
    for (slong i = 0; i < md->n; i++)
        tab[md->cord[i] * c->nv + md->cvar[i]] = y[i];
    for (slong j = 0; j < md->nu; j++)
        tab[md->u_slot[j]] = yp[md->u_top[j]];
}
