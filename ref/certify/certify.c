/* certify.c -- hdo_certify: the arguments, the pass's settings, and the
   digits its balls guarantee */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "taylor.h"

#define CERT_GUARD_BITS 32
#define CERT_GUARD_DIGITS 3

/* log2 of x (an MPFR number), -inf for 0. */
static double
mpfr_log2d(const mpfr_t x)
{
    if (mpfr_zero_p(x) || !mpfr_number_p(x))
        return -INFINITY;
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return log2(fabs(d)) + (double)e;
}

/* The fewest digits over every certified cell, and where. */
static void
min_digits(hdo_certified_struct *cert, const hdo_result_struct *res,
           const hdo_model_struct *model, const double *nominal)
{
    double best = INFINITY;
    double span = fmax(fabs(mpfr_get_d(res->t0, MPFR_RNDN)),
                       fabs(mpfr_get_d(res->t_end, MPFR_RNDN)));
    if (span == 0)
        span = 1;
    for (slong i = 0; i < cert->nrows; i++) {
        const hdo_cert_row *r = cert->rows + i;
        const hdo_row *pr = res->rows + r->row;
        double d = hdo_ball_digits(&r->time, span);
        if (d < best) {
            best = d;
            snprintf(cert->where, sizeof cert->where,
                     "the time of the row at t = %.17g (row %ld)",
                     mpfr_get_d(r->time.mid, MPFR_RNDN), (long)r->row + 1);
        }
        for (slong v = 0; v < model->nvars; v++) {
            if (!r->present[v])
                continue;
            /* relative to the value's size (its own, its step's, its
               nominal); below its floor absolutely, against the
               variable's scale: as --verify counts it (hdo_row) */
            double ls = pr->mag[v];
            if (isfinite(nominal[v]) && nominal[v] > ls)
                ls = nominal[v];
            if (hdo_log2_abs(r->values[v].mid) > ls)
                ls = hdo_log2_abs(r->values[v].mid);
            if (pr->floor != NULL && ls < pr->floor[v])
                ls = fmax(pr->scale[v], pr->floor[v]);
            /* a variable without any size yet (exactly zero so far, no
               nominal, no floor): its radius counted against 1 */
            double sc = ls > -INFINITY ? exp2(ls) : 1.0;
            d = hdo_ball_digits(r->values + v, sc);
            if (d < best) {
                best = d;
                snprintf(cert->where, sizeof cert->where,
                         "%s at t = %.17g (row %ld)", model->vars[v].name,
                         mpfr_get_d(r->time.mid, MPFR_RNDN), (long)r->row + 1);
            }
        }
    }
    cert->min_digits = isfinite(best) ? (long)floor(best) : -1;
    if (!isfinite(best))
        cert->where[0] = '\0';
}

int
hdo_certify(hdo_certified_t cert, const hdo_result_t res,
            const hdo_model_struct *model, const hdo_certify_options *opt,
            hdo_error_t *err)
{
    hdo_certify_options defaults;
    if (err != NULL)
        hdo_error_clear(err);
    if (opt == NULL) {
        hdo_certify_options_init(&defaults);
        opt = &defaults;
    }
    const char *bad = NULL;
    if (model == NULL || !hdo_model_parsed(model))
        bad = "the model was not parsed";
    else if (cert == NULL || !cert_result_live(cert))
        bad = "the certified result is not initialised (hdo_certified_init)";
    else if (res == NULL || res->live != HDO_RESULT_LIVE)
        bad = "the run's result is not initialised or was cleared";
    else if (res->nrows == 0)
        bad = "the run's result holds no rows (a run with a row sink, or no "
              "run)";
    else if (res->nvars != model->nvars || res->rows[0].mode < 0)
        bad = "the run's result is not one of this model";
    if (bad != NULL)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0, "hdo_certify: %s", bad);
    double cpu0 = hdo_clock_thread_cpu();
    cert_result_reset(cert, res->digits, res->prec, model->nvars);

    cert_ctx c;
    memset(&c, 0, sizeof c);
    c.res = res;
    c.model = model;
    c.cert = cert;
    c.opt = opt;
    /* a margin of 32 bits and 3 digits over the run's precision and
       tolerance: the radii accumulate over steps and events, and the
       digits the balls guarantee should still reach D */
    c.prec = res->prec + CERT_GUARD_BITS;
    c.p = opt->order > 0 ? opt->order : hdo_taylor_default_order(res->prec);
    c.lprec = opt->lprec > 0 ? opt->lprec : 64;
    c.q = opt->extra >= 0 ? opt->extra : c.p / 2;
    c.ltol = -(double)(res->digits + HDO_TOL_GUARD_DIGITS + CERT_GUARD_DIGITS) *
             3.32192809488736234787;
    hdo_model_workspace_init(&c.work, model);
    if (model->lazy != NULL) {
        /* sign patterns built when entered: the workspace builds those
           the run used, and certification reads them there */
        for (slong m = 0; m < res->nmodes && m < c.work.nmodes; m++)
            if (res->modes[m].used &&
                hdo_model_pattern_ensure(&c.work, m, NULL) != 0)
                break;
        c.model = &c.work;
        model = &c.work;
    }
    c.nmodes = model->nmodes;
    c.modes = flint_calloc(model->nmodes + 1, sizeof *c.modes);
    c.varmax = flint_malloc((model->nvars + 1) * sizeof *c.varmax);
    c.nominal = flint_malloc((model->nvars + 1) * sizeof *c.nominal);
    for (slong v = 0; v < model->nvars; v++) {
        c.varmax[v] = -INFINITY;
        c.nominal[v] = -INFINITY;
        if (model->vars[v].nominal != HDO_EXPR_NONE) {
            mpfr_t x;
            mpfr_init2(x, 64);
            if (hdo_expr_eval_constant(x, model->pool,
                                       model->vars[v].nominal) == 0)
                c.nominal[v] = mpfr_log2d(x);
            mpfr_clear(x);
        }
    }
    c.stiff_from = INFINITY;
    for (slong k = 0; k < res->nmethod_arcs; k++)
        if (strcmp(res->method_arcs[k].method, "taylor") != 0 &&
            res->method_arcs[k].t_start < c.stiff_from)
            c.stiff_from = res->method_arcs[k].t_start;
    static const char *const wraps[] = {"Lohner's QR", "interval box",
                                        "affine (doubleton)"};
    snprintf(cert->method, sizeof cert->method,
             "Taylor order %ld in Arb (%ld bits; %ld-bit remainder and "
             "Jacobians), high-order a priori enclosure, %s wrapping, "
             "Krawczyk for the algebraic unknowns, interval Newton for event "
             "times",
             (long)c.p, (long)c.prec, (long)c.lprec,
             wraps[opt->wrap >= 0 && opt->wrap <= 2 ? opt->wrap : 0]);

    /* the exact end: the run's t_end is its rounding (hdo_run evaluates
       it the same way), or the end is not the one given */
    c.tend = opt->until != NULL ? hdo_expr_const_fmpq(c.work.pool, opt->until)
                                : model->t_end;
    arb_init(c.tend_ball);
    if (c.tend != HDO_EXPR_NONE) {
        mpfr_t te;
        mpfr_init2(te, res->prec);
        if (hdo_expr_eval_constant(te, c.work.pool, c.tend) != 0 ||
            !mpfr_equal_p(te, res->t_end) ||
            cert_constant_arb(c.tend_ball, &c.work, c.tend, c.prec) != 0)
            c.tend = HDO_EXPR_NONE;
        mpfr_clear(te);
    }
    int st = cert_run(&c);
    min_digits(cert, res, model, c.nominal);
    if (cert->complete)
        mpfr_set(cert->until, res->t_end, MPFR_RNDN);

    cert_mode_free(&c);
    arb_clear(c.tend_ball);
    hdo_model_workspace_clear(&c.work);
    flint_free(c.varmax);
    flint_free(c.nominal);
    cert->cpu_seconds = hdo_clock_thread_cpu() - cpu0;
    return st;
}
