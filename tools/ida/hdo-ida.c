/* hdo-ida -- runs a .hdae case with SUNDIALS IDA, the way a careful IDA
   user would, and writes a candidate for `hdo check`.

   What it does, and deliberately no more:
   - each mode is taken in libhdo's index-1 form (hdo_reduce_mode): the
     IDA variables are the reduced states and unknowns; the residuals are
     der(x) - rhs for explicit variables, x^(k)' - x^(k+1) along the state
     chains of implicit variables, and the implicit equations h;
   - the constraints (the algebraic equations that were differentiated and
     every hidden constraint) are NOT enforced: their largest absolute
     value at the output points is reported as the drift, which is what a
     user of IDA on an index-reduced model sees;
   - residuals are evaluated in double precision;
   - switching functions go to IDARootInit with direction -1 (S crossing
     zero downward); `chattering hysteresis d` shifts every S by +d;
   - at an event the `with` assignments are evaluated on the left limit,
     kept variables keep their left-limit values, the others start from
     their `var` start values (or 0), and IDAReInit + IDACalcIC
     (IDA_YA_YDP_INIT, id = 1 on states) make the new mode consistent;
   - except where Pryce's form is numerically singular (direct.c): at a
     mode's first entry, the Jacobian of h by the unknowns is evaluated
     at the guesses (forward-mode derivatives in double) and, rows and
     columns scaled to unit largest entry, factorised by QR with column
     pivoting; a pivot at most 2^-26 times the first (ics_numeric_rank)
     makes the mode's form, for the rest of the run, F(t, y, y') = 0
     itself: the unknowns x^(d), d >= 1, are the y' of their chains'
     top states, only order-0 unknowns stay algebraic, h is the residual
     of those rows (M y' = f with M singular: the Test Set's transistor
     amplifier).  IDACalcIC cannot start such a form (it solves for y'
     with a singular dF/dy'), so at every entry the adapter computes y'
     itself (icsing.h): F = 0 plus the time derivatives of its algebraic
     combinations w^T F (w^T dF/dy' = 0), by Newton in double precision,
     differential components unchanged; then IDAReInit, no IDACalcIC.
     A note on stderr names such a mode;
   - right after a (re)start, a guard that is already negative and still
     decreasing (a forward difference along y') is taken at once, as an
     event at the same time (bounded cascade);
   - a mode with relations (if, abs, sign, min, max) is libhdo's modes of
     their sign patterns, whose crossing guards are switching functions
     like the others (no reset, not written to the events file); at the
     start and after a `when` the pattern the state lies in is entered;
     there is no sliding logic, so a relay that slides stops at the
     cascade cap (exit 3, "chattering: IDA has no sliding logic");
   - `zeno goto` clauses are not used: IDA has no accumulation detection;
     `--max-events-per-unit` stops a run whose events pile up (Zeno,
     chattering without sliding logic) and says so.

   --ic FILE writes, after every (re)initialisation, one row per IDA
   component: time,mode,variable,order,value,derivative (the consistent
   y and y' IDA starts from).

   A model with a complementarity condition (0 <= A perp B >= 0) is not
   applicable (exit 4, naming the condition and its line).

   Exit codes: 0 done, 2 bad input or IDA failure (with the IDA flag name),
   3 stopped at the event cap (the output is complete up to that time), 4
   not applicable. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "adapter.h"

#define MAX_CASCADE 16

static double
const_value(hdo_model_t model, hdo_expr e)
{
    mpfr_t c;
    double d;
    mpfr_init2(c, 53);
    hdo_expr_eval_constant(c, model->pool, e);
    d = mpfr_get_d(c, MPFR_RNDN);
    mpfr_clear(c);
    return d;
}

/* ---- the modes' reduced forms and IDA memories --------------------- */

static void
grow_vtab(run_ctx *c, slong ord)
{
    if (ord <= c->maxord)
        return;
    c->vtab = realloc(c->vtab, (ord + 1) * c->nv * sizeof(double));
    c->dvtab = realloc(c->dvtab, (ord + 1) * c->nv * sizeof(double));
    c->gtab = realloc(c->gtab, (ord + 1) * c->nv * sizeof(double));
    c->gvalid = realloc(c->gvalid, (ord + 1) * c->nv);
    for (slong i = (c->maxord + 1) * c->nv; i < (ord + 1) * c->nv; i++) {
        c->vtab[i] = c->gtab[i] = NAN;
        c->dvtab[i] = 0;
        c->gvalid[i] = 0;
    }
    c->maxord = ord;
}

static mode_data *
build_mode(run_ctx *c, slong m)
{
    mode_data *md = &c->modes[m];
    hdo_mode *mode = &c->model->modes[m];
    hdo_error_t err;
    char msg[1400];

    if (md->built)
        return md;
    hdo_reduced_init(md->r);
    hdo_error_clear(&err);
    if (hdo_reduce_mode(md->r, c->model, m, &err) != 0) {
        hdo_error_format(msg, sizeof msg, &err);
        fprintf(stderr, "%s: %s\n", prog_name, msg);
        exit(2);
    }
    hdo_reduced_struct *r = md->r;
    md->n = r->nstate + r->nimplicit;
    md->cvar = malloc(md->n * sizeof(slong));
    md->cord = malloc(md->n * sizeof(slong));
    md->deriv = malloc(md->n * sizeof(slong));
    for (slong i = 0; i < r->nstate; i++) {
        md->cvar[i] = r->state[i].var;
        md->cord[i] = r->state[i].order;
    }
    for (slong j = 0; j < r->nimplicit; j++) {
        md->cvar[r->nstate + j] = r->unknown[j].var;
        md->cord[r->nstate + j] = r->unknown[j].order;
    }
    /* The derivative of an implicit state x^(k) is x^(k+1): the next
       state of the chain, or the unknown at the end of it. */
    for (slong i = 0; i < md->n; i++) {
        md->deriv[i] = -1;
        if (i < r->nexplicit || i >= r->nstate)
            continue;
        for (slong k = 0; k < md->n; k++)
            if (md->cvar[k] == md->cvar[i] && md->cord[k] == md->cord[i] + 1)
                md->deriv[i] = k;
        if (md->deriv[i] < 0)
            ida_die("reduced form of mode %s has a broken state chain",
                    mode->name);
    }

    hdo_expr *roots = malloc((r->nexplicit + r->nh + 1) * sizeof(hdo_expr));
    for (slong i = 0; i < r->nexplicit; i++)
        roots[i] = r->rhs[i];
    for (slong k = 0; k < r->nh; k++)
        roots[r->nexplicit + k] = r->h[k];
    deval_init(md->res, c->model->pool, roots, r->nexplicit + r->nh, c->nv);
    free(roots);
    deval_init(md->cons, c->model->pool, r->cons, r->ncons, c->nv);
    roots = malloc((mode->nwhens + 1) * sizeof(hdo_expr));
    for (slong k = 0; k < mode->nwhens; k++)
        roots[k] = mode->whens[k].guard;
    deval_init(md->guards, c->model->pool, roots, mode->nwhens, c->nv);
    free(roots);
    md->assign = calloc(mode->nwhens + 1, sizeof(deval_t));
    for (slong k = 0; k < mode->nwhens; k++) {
        hdo_transition *tr = &mode->whens[k];
        roots = malloc((tr->nassigns + 1) * sizeof(hdo_expr));
        for (slong a = 0; a < tr->nassigns; a++)
            roots[a] = tr->assigns[a].value;
        deval_init(md->assign[k], c->model->pool, roots, tr->nassigns, c->nv);
        free(roots);
        grow_vtab(c, md->assign[k]->maxorder);
    }
    slong ord = md->res->maxorder;
    if (md->cons->maxorder > ord)
        ord = md->cons->maxorder;
    if (md->guards->maxorder > ord)
        ord = md->guards->maxorder;
    for (slong i = 0; i < md->n; i++)
        if (md->cord[i] + 1 > ord)
            ord = md->cord[i] + 1;
    grow_vtab(c, ord);

    md->hrow = malloc((r->nh + 1) * sizeof(slong));
    for (slong k = 0; k < r->nh; k++)
        md->hrow[k] = r->nstate + k;
    ida_create(c, md, m, ida_resfn);
    md->built = 1;
    return md;
}

static void
free_mode(run_ctx *c, mode_data *md, slong m)
{
    if (!md->built)
        return;
    for (slong k = 0; k < c->model->modes[m].nwhens; k++)
        deval_clear(md->assign[k]);
    free(md->assign);
    deval_clear(md->res);
    deval_clear(md->cons);
    deval_clear(md->guards);
    ida_destroy(md);
    free(md->cvar);
    free(md->cord);
    free(md->deriv);
    free(md->hrow);
    free(md->u_slot);
    free(md->u_top);
    hdo_reduced_clear(md->r);
}

/* Sets g0 to the guards at (t, y) and g1 to them a small step dt ahead
   along the flow (states moved by dt y', the rest held), so that a guard
   at zero can be told leaving from entering. */
static void
guards_now_and_ahead(double *g0, double *g1, run_ctx *c, mode_data *md,
                     double t)
{
    slong n = md->n;
    double y1[n];
    double *y = NV_DATA_S(md->y), *yp = NV_DATA_S(md->yp);
    double dt = 1e-7 * (1.0 + fabs(t));
    ida_guards_at(g0, c, md, t, y, yp);
    for (slong i = 0; i < n; i++)
        y1[i] = y[i] + dt * (i < md->r->nstate ? yp[i] : 0.0);
    ida_guards_at(g1, c, md, t + dt, y1, yp);
}

/* ---- output --------------------------------------------------------- */

static void
write_row(run_ctx *c, double t)
{
    mode_data *md = &c->modes[c->cur];
    hdo_mode *mode = &c->model->modes[c->cur];
    char *in = calloc(c->nv, 1);
    double *y = NV_DATA_S(md->y);

    ida_load(c->vtab, c, md, y, NV_DATA_S(md->yp));
    for (slong i = 0; i < mode->nvars; i++)
        in[mode->vars[i]] = 1;
    fprintf(c->out, "%.17g,%s", t, mode->name);
    for (slong v = 0; v < c->nv; v++) {
        if (in[v])
            fprintf(c->out, ",%.17g", c->vtab[v]);
        else
            fputc(',', c->out);
    }
    fputc('\n', c->out);
    free(in);
    if (md->cons->nroots > 0) {
        double cv[md->cons->nroots];
        deval_eval(cv, md->cons, t, c->vtab);
        for (slong k = 0; k < md->cons->nroots; k++)
            if (!(fabs(cv[k]) <= c->drift))
                c->drift = fabs(cv[k]);
    }
}

/* ---- starting a mode ------------------------------------------------ */

/* --ic: one row per IDA component after a (re)initialisation. */
static void
write_ic(run_ctx *c, const mode_data *md, double t)
{
    if (c->ic == NULL)
        return;
    for (slong i = 0; i < md->n; i++)
        fprintf(c->ic, "%.17g,%s,%s,%ld,%.17g,%.17g\n", t,
                c->model->modes[c->cur].name, c->model->vars[md->cvar[i]].name,
                (long)md->cord[i], NV_Ith_S(md->y, i), NV_Ith_S(md->yp, i));
}

/* Sets md->y, md->yp from the carried values (gtab/gvalid), the start
   values and zeros. */
static void
guesses(run_ctx *c, mode_data *md)
{
    double *y = NV_DATA_S(md->y), *yp = NV_DATA_S(md->yp);
    for (slong i = 0; i < md->n; i++) {
        slong v = md->cvar[i], o = md->cord[i];
        if (c->gvalid[o * c->nv + v])
            y[i] = c->gtab[o * c->nv + v];
        else if (o == 0 && c->has_start[v])
            y[i] = c->start[v];
        else
            y[i] = 0.0;
        yp[i] =
            c->gvalid[(o + 1) * c->nv + v] ? c->gtab[(o + 1) * c->nv + v] : 0.0;
    }
}

/* Sets y, yp of mode m from the guesses, reinitialises IDA at t and runs
   IDACalcIC (Pryce's form) or the adapter's own consistent
   initialisation (the direct form). */
static void
enter_mode(run_ctx *c, slong m, double t, double tout1)
{
    mode_data *md = build_mode(c, m);

    guesses(c, md);
    c->cur = m;
    if (!md->decided) {
        /* Pryce's form with a numerically singular Jacobian of h by the
           unknowns (a structure that hides a singular mass matrix) is
           given to IDA as F(t, y, y') = 0 instead (direct.c). */
        slong rank = 0;
        double ratio = 0;
        md->decided = 1;
        if (direct_needed(c, md, t, &rank, &ratio)) {
            fprintf(stderr,
                    "%s: note: mode %s: the Jacobian of its equations by the "
                    "unknowns of Pryce's form is singular (rank %ld of %ld, "
                    "smallest pivot %.1e): integrated as F(t, y, y') = 0, "
                    "y' made consistent by the adapter (derivatives of the "
                    "algebraic combinations), no IDACalcIC\n",
                    prog_name, c->model->modes[m].name, (long)rank,
                    (long)md->r->nimplicit, ratio);
            direct_convert(c, md, m);
            guesses(c, md);
        }
    }
    if (md->direct) {
        direct_start(c, md, t);
        write_ic(c, md, t);
        c->last_steps = 0;
        return;
    }
    ida_check_flag(IDAReInit(md->ida, t, md->y, md->yp), "IDAReInit");
    /* tout1 only gives IDACalcIC the direction and scale of the first
       step; it must not be too close to t. */
    if (tout1 - t < 1e-3 * c->every)
        tout1 = t + c->every;
    int flag = IDACalcIC(md->ida, IDA_YA_YDP_INIT, tout1);
    /* IDACalcIC's Newton iteration works with the step 0.001 (tout1 - t):
       on a stiff mode with a long sampling step (Robertson to 1e11 samples
       every 1e8) that step is far beyond what it can converge with, so a
       failure is retried with tout1 a thousand times closer, down to
       1e-12 (|t| + 1).  Runs whose first call succeeds are unchanged. */
    while (flag == IDA_CONV_FAIL || flag == IDA_NO_RECOVERY ||
           flag == IDA_LINESEARCH_FAIL) {
        double d = (tout1 - t) / 1000;
        if (d < 1e-12 * (fabs(t) + 1))
            break;
        tout1 = t + d;
        ida_check_flag(IDAReInit(md->ida, t, md->y, md->yp), "IDAReInit");
        flag = IDACalcIC(md->ida, IDA_YA_YDP_INIT, tout1);
    }
    if (flag < 0) {
        fprintf(
            stderr, "%s: error: IDACalcIC failed in mode %s at t = %.17g: %s\n",
            prog_name, c->model->modes[m].name, t, IDAGetReturnFlagName(flag));
        exit(2);
    }
    ida_check_flag(IDAGetConsistentIC(md->ida, md->y, md->yp),
               "IDAGetConsistentIC");
    write_ic(c, md, t);
    c->last_steps = 0;
}

static void carry(run_ctx *c);

/* A mode with relations (if, abs, sign, min, max) is the modes of their
   sign patterns (model.h); entered at the start or by a `when`, the
   pattern is the one the consistent state lies in: a crossing guard
   that is negative there, or zero and decreasing along the flow, flips
   its relation, and the new pattern is entered silently (no event), up
   to once per relation. */
static void
pick_pattern(run_ctx *c, double t, double tout1)
{
    for (int it = 0; it <= HDO_MODEL_MAX_RELATIONS; it++) {
        const hdo_mode *mode = c->model->modes + c->cur;
        if (mode->pattern == NULL)
            return;
        const hdo_mode *fam = c->model->modes + mode->family;
        mode_data *md = &c->modes[c->cur];
        slong nw = mode->nwhens, k = mode->nrel, mask = mode->mask;
        double g0[nw], g1[nw];
        guards_now_and_ahead(g0, g1, c, md, t);
        for (slong j = 0; j < k; j++) {
            slong g = nw - k + j;
            if (g0[g] < 0 || (g0[g] == 0 && g1[g] < 0))
                mask ^= (slong)1 << j;
        }
        if (mask == mode->mask)
            return;
        carry(c);
        enter_mode(c, fam->family_modes[mask], t, tout1);
    }
}

/* Copies the current mode's values (and the derivatives of its states)
   into the carried table, which is cleared first. */
static void
carry(run_ctx *c)
{
    mode_data *md = &c->modes[c->cur];
    double *y = NV_DATA_S(md->y), *yp = NV_DATA_S(md->yp);
    memset(c->gvalid, 0, (c->maxord + 1) * c->nv);
    for (slong i = 0; i < md->n; i++) {
        slong v = md->cvar[i], o = md->cord[i];
        c->gtab[o * c->nv + v] = y[i];
        c->gvalid[o * c->nv + v] = 1;
        if (i < md->r->nstate && !c->gvalid[(o + 1) * c->nv + v]) {
            c->gtab[(o + 1) * c->nv + v] = yp[i];
            c->gvalid[(o + 1) * c->nv + v] = 1;
        }
    }
}

/* Applies transition k of the current mode at t (left limit in the
   current y) and enters its target. */
static void
transition(run_ctx *c, slong k, double t, double tout1)
{
    mode_data *md = &c->modes[c->cur];
    hdo_transition *tr = &c->model->modes[c->cur].whens[k];
    double a[tr->nassigns + 1];

    ida_load(c->vtab, c, md, NV_DATA_S(md->y), NV_DATA_S(md->yp));
    deval_eval(a, md->assign[k], t, c->vtab);
    carry(c);
    for (slong i = 0; i < tr->nassigns; i++) {
        c->gtab[tr->assigns[i].var] = a[i];
        c->gvalid[tr->assigns[i].var] = 1;
    }
    /* a crossing of a relation is no jump: hdo check expects none */
    if (!tr->crossing)
        fprintf(c->ev, "%.17g,%s,%s\n", t, c->model->modes[c->cur].name,
                c->model->modes[tr->target].name);
    c->nevents++;
    enter_mode(c, tr->target, t, tout1);
    if (!tr->crossing)
        pick_pattern(c, t, tout1);
}

/* The first guard (file order) that is negative at t and not increasing
   along the flow (forward difference along y'), or -1. */
static slong
infeasible_guard(run_ctx *c, double t)
{
    mode_data *md = &c->modes[c->cur];
    slong nw = md->guards->nroots;
    if (nw == 0)
        return -1;
    double g0[nw], g1[nw];
    guards_now_and_ahead(g0, g1, c, md, t);
    for (slong k = 0; k < nw; k++)
        if ((g0[k] < 0 && g1[k] <= g0[k]) || (g0[k] == 0 && g1[k] < 0))
            return k;
    return -1;
}

/* Takes immediate transitions after a (re)start, writing a row for
   every intermediate mode.  Returns 0, or -1 if the cascade cycles. */
static int
cascade(run_ctx *c, double t, double tout1)
{
    for (int i = 0; i < MAX_CASCADE; i++) {
        slong k = infeasible_guard(c, t);
        if (k < 0)
            return 0;
        write_row(c, t);
        transition(c, k, t, tout1);
    }
    return -1;
}

/* ---- the driver ------------------------------------------------------ */

static void
usage(FILE *f)
{
    fprintf(f,
            "usage: hdo-ida MODEL.hdae [--rtol R] [--atol A] [--out FILE.csv]\n"
            "               [--events FILE] [--every DT] [--until T]\n"
            "               [--max-events-per-unit N] [--ic FILE.csv]\n");
}

static double
num_arg(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(d))
        ida_die("bad number for %s", opt);
    return d;
}

int
main(int argc, char **argv)
{
    const char *path = NULL, *out_path = NULL, *ev_path = NULL;
    const char *ic_path = NULL;
    double every = 0, until = NAN, cap = 1000;
    run_ctx c;
    hdo_error_t err;
    char msg[1400];

    memset(&c, 0, sizeof c);
    c.rtol = 1e-6;
    c.atol = 1e-8;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (a[0] == '-' && a[1] == '-') {
            if (i + 1 >= argc)
                ida_die("option %s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--rtol"))
                c.rtol = num_arg(a, v);
            else if (!strcmp(a, "--atol"))
                c.atol = num_arg(a, v);
            else if (!strcmp(a, "--out"))
                out_path = v;
            else if (!strcmp(a, "--events"))
                ev_path = v;
            else if (!strcmp(a, "--every"))
                every = num_arg(a, v);
            else if (!strcmp(a, "--until"))
                until = num_arg(a, v);
            else if (!strcmp(a, "--ic"))
                ic_path = v;
            else if (!strcmp(a, "--max-events-per-unit"))
                cap = num_arg(a, v);
            else
                ida_die("unknown option %s", a);
        } else if (path == NULL) {
            path = a;
        } else {
            ida_die("unexpected argument %s", a);
        }
    }
    if (path == NULL) {
        usage(stderr);
        return 2;
    }
    if (!(c.rtol > 0) || !(c.atol > 0) || every < 0 || !(cap > 0))
        ida_die("tolerances, --every and --max-events-per-unit must be "
                "positive%s",
                "");

    hdo_model_init(c.model);
    hdo_error_clear(&err);
    if (hdo_model_parse_file(c.model, path, &err) != 0) {
        hdo_error_format(msg, sizeof msg, &err);
        fprintf(stderr, "%s\n", msg);
        return 2;
    }
    hdo_model_struct *model = c.model;
    for (slong m = 0; m < model->nmodes; m++)
        if (model->modes[m].nrel > 0 && model->modes[m].family == m &&
            model->modes[m].family_modes == NULL) {
            /* sign patterns built when a run enters them (decisions.md
               D-092): this adapter's tables hold every mode up front */
            fprintf(stderr,
                    "%s: not applicable: %s:%d: mode '%s' has %ld relations "
                    "(if, abs, sign, min, max): beyond %d, hdo builds each "
                    "sign pattern when a run enters it, which this adapter "
                    "does not do\n",
                    prog_name, model->file, model->modes[m].pos.line,
                    model->modes[m].name, (long)model->modes[m].nrel,
                    HDO_MODEL_MAX_RELATIONS);
            hdo_model_clear(c.model);
            return 4;
        }
    for (slong m = 0; m < model->nmodes; m++)
        if (model->modes[m].nperp > 0) {
            /* the active set of a complementarity block is decided at
               every entry by trying them all (ref/hybrid/complementarity.c):
               an IDA user has no such rule */
            const hdo_perp *p = model->modes[m].perp;
            fprintf(stderr,
                    "%s: not applicable: %s:%d: the complementarity "
                    "condition '%s' (0 <= A perp B >= 0) is not supported: "
                    "hdo chooses its active set at every event from all of "
                    "them, which this adapter does not do\n",
                    prog_name, model->file, p->pos.line, p->text);
            hdo_model_clear(c.model);
            return 4;
        }
    c.nv = model->nvars;
    c.maxord = -1;
    grow_vtab(&c, 1);
    c.start = calloc(c.nv + 1, sizeof(double));
    c.has_start = calloc(c.nv + 1, 1);
    for (slong v = 0; v < c.nv; v++)
        if (model->vars[v].start != HDO_EXPR_NONE) {
            c.start[v] = const_value(c.model, model->vars[v].start);
            c.has_start[v] = 1;
        }
    if (model->chattering == HDO_CHATTER_HYSTERESIS)
        c.hyst = const_value(c.model, model->hysteresis);
    double t0 = const_value(c.model, model->t0);
    if (isnan(until)) {
        if (model->t_end == HDO_EXPR_NONE)
            ida_die("%s has no `until`: give --until", path);
        until = const_value(c.model, model->t_end);
    }
    if (!(until > t0))
        ida_die("the end time must be after the start time%s", "");
    if (every == 0)
        every = (until - t0) / 1000;
    c.every = every;
    for (slong m = 0; m < model->nmodes; m++)
        if (model->modes[m].has_zeno) {
            fprintf(stderr,
                    "%s: note: `zeno goto` of mode %s is not used: IDA has "
                    "no accumulation detection\n",
                    prog_name, model->modes[m].name);
        }

    char *out_tmp = NULL, *ev_tmp = NULL;
    if (out_path) {
        out_tmp = malloc(strlen(out_path) + 8);
        sprintf(out_tmp, "%s.part", out_path);
        c.out = fopen(out_tmp, "w");
        if (!c.out)
            ida_die("cannot write %s", out_tmp);
    } else {
        c.out = stdout;
    }
    if (ev_path) {
        ev_tmp = malloc(strlen(ev_path) + 8);
        sprintf(ev_tmp, "%s.part", ev_path);
        c.ev = fopen(ev_tmp, "w");
        if (!c.ev)
            ida_die("cannot write %s", ev_tmp);
    } else {
        c.ev = fopen("/dev/null", "w");
    }
    if (ic_path) {
        c.ic = fopen(ic_path, "w");
        if (!c.ic)
            ida_die("cannot write %s", ic_path);
        fprintf(c.ic, "time,mode,variable,order,value,derivative\n");
    }
    fprintf(c.out, "time,mode");
    for (slong v = 0; v < c.nv; v++)
        fprintf(c.out, ",%s", model->vars[v].name);
    fputc('\n', c.out);
    fprintf(c.ev, "time,from,to\n");

    SUNContext_Create(NULL, &c.ctx);
    c.modes = calloc(model->nmodes, sizeof(mode_data));

    /* The start: var values as given, then as after a transition. */
    double t = t0;
    long k_out = 1;
    double tout = fmin(t0 + k_out * every, until);
    memset(c.gvalid, 0, (c.maxord + 1) * c.nv);
    for (slong v = 0; v < c.nv; v++)
        if (c.has_start[v]) {
            c.gtab[v] = c.start[v];
            c.gvalid[v] = 1;
        }
    enter_mode(&c, model->start_mode, t, tout);
    pick_pattern(&c, t, tout);
    int status = 0;
    double stop_t = NAN;
    if (cascade(&c, t, tout) != 0) {
        write_row(&c, t);
        stop_t = t;
        status = 4;
    } else
        write_row(&c, t);

    /* Event times in a ring, for the cap on events per unit time. */
    long ring_n = (long)cap + 1, ring_i = 0;
    double *ring = malloc(ring_n * sizeof(double));
    for (long i = 0; i < ring_n; i++)
        ring[i] = -INFINITY;

    while (status == 0 && t < until) {
        mode_data *md = &c.modes[c.cur];
        double tret;
        /* An event that fell on (or within rounding of) the output time
           already gave rows there. */
        while (tout < until && tout - t <= 1e-12 * (1 + fabs(t))) {
            k_out++;
            tout = fmin(t0 + k_out * every, until);
        }
        ida_check_flag(IDASetStopTime(md->ida, until), "IDASetStopTime");
        int flag = IDASolve(md->ida, tout, &tret, md->y, md->yp, IDA_NORMAL);
        long ns = 0;
        if (flag < 0) {
            fprintf(stderr,
                    "%s: error: IDASolve failed in mode %s at t = %.17g: "
                    "%s\n",
                    prog_name, model->modes[c.cur].name, tret,
                    IDAGetReturnFlagName(flag));
            status = 2;
            break;
        }
        IDAGetNumSteps(md->ida, &ns);
        c.nsteps += ns - c.last_steps;
        c.last_steps = ns;
        t = tret;
        if (flag == IDA_ROOT_RETURN) {
            slong nw = model->modes[c.cur].nwhens, k = -1;
            int found[nw + 1];
            ida_check_flag(IDAGetRootInfo(md->ida, found), "IDAGetRootInfo");
            for (slong j = 0; j < nw && k < 0; j++)
                if (found[j] != 0)
                    k = j;
            if (k < 0)
                continue;
            write_row(&c, t);
            transition(&c, k, t, tout);
            /* the cap: more than cap events in (t - 1, t] */
            ring[ring_i] = t;
            ring_i = (ring_i + 1) % ring_n;
            if (ring[ring_i] > t - 1) {
                write_row(&c, t);
                stop_t = t;
                status = 3;
                break;
            }
            if (cascade(&c, t, tout) != 0) {
                write_row(&c, t);
                stop_t = t;
                status = 4;
                break;
            }
            write_row(&c, t);
        } else {
            write_row(&c, t);
            if (t >= tout) {
                k_out++;
                tout = fmin(t0 + k_out * every, until);
                if (until - tout < 1e-12 * every)
                    tout = until;
            }
        }
    }

    fclose(c.out);
    fclose(c.ev);
    if (c.ic)
        fclose(c.ic);
    if (status == 2) {
        if (out_tmp)
            remove(out_tmp);
        if (ev_tmp)
            remove(ev_tmp);
    } else {
        if (out_tmp && rename(out_tmp, out_path) != 0)
            ida_die("cannot rename %s", out_tmp);
        if (ev_tmp && rename(ev_tmp, ev_path) != 0)
            ida_die("cannot rename %s", ev_tmp);
    }
    if (status == 3)
        fprintf(stderr,
                "%s: stopped: more than %g events in one unit of time, at t "
                "= %.17g in mode %s (Zeno or chattering: IDA has no sliding "
                "or accumulation logic)\n",
                prog_name, cap, stop_t, model->modes[c.cur].name);
    if (status == 4) {
        fprintf(stderr,
                "%s: stopped: more than %d instantaneous transitions at t = "
                "%.17g (chattering: IDA has no sliding logic)\n",
                prog_name, MAX_CASCADE, isnan(stop_t) ? t0 : stop_t);
        status = 3;
    }
    /* One machine-readable line for tools/crosscheck.sh. */
    fprintf(stderr,
            "hdo-ida: summary: status=%s t_reached=%.17g events=%ld "
            "steps=%ld drift=%.3e\n",
            status == 0   ? "ok"
            : status == 3 ? "stopped"
                          : "failed",
            status == 3 ? stop_t : t, c.nevents, c.nsteps, c.drift);

    for (slong m = 0; m < model->nmodes; m++)
        free_mode(&c, &c.modes[m], m);
    free(c.modes);
    free(ring);
    SUNContext_Free(&c.ctx);
    free(c.vtab);
    free(c.dvtab);
    free(c.gtab);
    free(c.gvalid);
    free(c.start);
    free(c.has_start);
    free(out_tmp);
    free(ev_tmp);
    hdo_model_clear(c.model);
    return status;
}
