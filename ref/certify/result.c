/* result.c -- the certified pass's result: balls, rows, events, the
   digits the radii guarantee */
#include <math.h>
#include <string.h>
#include "internal.h"

#define CERT_LIVE 0x68646f63UL /* "hdoc" */

void
hdo_certify_options_init(hdo_certify_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->wrap = HDO_CERTIFY_WRAP_LOHNER;
    opt->mutate = HDO_CERTIFY_MUTATE_NONE;
    opt->extra = -1;
}

void
hdo_certified_init(hdo_certified_t c)
{
    memset(c, 0, sizeof *c);
    mpfr_init2(c->until, 64);
    mpfr_set_nan(c->until);
    c->min_digits = -1;
    c->stop_time = NAN;
    c->live = CERT_LIVE;
}

static void
ball_init(hdo_ball *b, mpfr_prec_t prec)
{
    mpfr_init2(b->mid, prec + 64);
    mpfr_init2(b->rad, 64);
    mpfr_set_nan(b->mid);
    mpfr_set_zero(b->rad, 1);
}

static void
ball_clear(hdo_ball *b)
{
    mpfr_clear(b->mid);
    mpfr_clear(b->rad);
}

static hdo_ball *
balls_init(slong n, mpfr_prec_t prec)
{
    hdo_ball *b = flint_malloc((n + 1) * sizeof *b);
    for (slong i = 0; i < n; i++)
        ball_init(b + i, prec);
    return b;
}

static void
balls_clear(hdo_ball *b, slong n)
{
    for (slong i = 0; i < n; i++)
        ball_clear(b + i);
    flint_free(b);
}

/* Empties c, keeping it initialised. */
static void
certified_empty(hdo_certified_struct *c)
{
    for (slong i = 0; i < c->nrows; i++) {
        ball_clear(&c->rows[i].time);
        balls_clear(c->rows[i].values, c->nvars);
        flint_free(c->rows[i].present);
    }
    for (slong i = 0; i < c->nevents; i++) {
        hdo_cert_event *e = c->events + i;
        ball_clear(&e->time);
        balls_clear(e->left, c->nvars);
        balls_clear(e->right, c->nvars);
        flint_free(e->left_present);
        flint_free(e->right_present);
    }
    flint_free(c->rows);
    flint_free(c->events);
    c->rows = NULL;
    c->events = NULL;
    c->nrows = c->nevents = 0;
    c->complete = 0;
    c->reason[0] = c->stop_mode[0] = c->where[0] = c->method[0] = '\0';
    c->stop_time = NAN;
    c->min_digits = -1;
    c->steps = c->tries = 0;
    c->cpu_seconds = 0;
    mpfr_set_nan(c->until);
}

void
hdo_certified_clear(hdo_certified_t c)
{
    if (c->live != CERT_LIVE)
        return;
    certified_empty(c);
    mpfr_clear(c->until);
    c->live = 0;
}

int
cert_result_live(const hdo_certified_struct *c)
{
    return c->live == CERT_LIVE;
}

void
cert_result_reset(hdo_certified_struct *c, long digits, mpfr_prec_t prec,
                  slong nvars)
{
    certified_empty(c);
    c->digits = digits;
    c->prec = prec;
    c->nvars = nvars;
    mpfr_set_prec(c->until, prec);
    mpfr_set_nan(c->until);
}

void
cert_ball_set_arb(hdo_ball *b, const arb_t x)
{
    /* the midpoint exactly if it fits, else rounded with the rounding
       added to the radius */
    arf_t r;
    mag_t m;
    arf_init(r);
    mag_init(m);
    int inexact = arf_get_mpfr(b->mid, arb_midref(x), MPFR_RNDN);
    mag_set(m, arb_radref(x));
    if (inexact) {
        mag_t u;
        mag_init(u);
        arf_get_mag(u, arb_midref(x));
        mag_mul_2exp_si(u, u, -(slong)mpfr_get_prec(b->mid) + 1);
        mag_add(m, m, u);
        mag_clear(u);
    }
    arf_set_mag(r, m);
    arf_get_mpfr(b->rad, r, MPFR_RNDU);
    if (!arb_is_finite(x)) {
        mpfr_set_nan(b->mid);
        mpfr_set_inf(b->rad, 1);
    }
    arf_clear(r);
    mag_clear(m);
}

void
cert_ball_get_arb(arb_t x, const hdo_ball *b)
{
    arf_t r;
    arf_init(r);
    arf_set_mpfr(arb_midref(x), b->mid);
    mag_zero(arb_radref(x));
    arf_set_mpfr(r, b->rad);
    arb_add_error_arf(x, r);
    arf_clear(r);
}

hdo_cert_row *
cert_result_add_row(hdo_certified_struct *c)
{
    if ((c->nrows & (c->nrows - 1)) == 0) /* 0, 1, 2, 4, ...: grow */
        c->rows = flint_realloc(c->rows, 2 * (c->nrows + 1) * sizeof *c->rows);
    hdo_cert_row *r = c->rows + c->nrows++;
    ball_init(&r->time, c->prec);
    r->values = balls_init(c->nvars, c->prec);
    r->present = flint_calloc(c->nvars + 1, sizeof(int));
    r->row = -1;
    r->mode = -1;
    return r;
}

hdo_cert_event *
cert_result_add_event(hdo_certified_struct *c)
{
    if ((c->nevents & (c->nevents - 1)) == 0)
        c->events =
            flint_realloc(c->events, 2 * (c->nevents + 1) * sizeof *c->events);
    hdo_cert_event *e = c->events + c->nevents++;
    memset(e, 0, sizeof *e);
    ball_init(&e->time, c->prec);
    e->left = balls_init(c->nvars, c->prec);
    e->right = balls_init(c->nvars, c->prec);
    e->left_present = flint_calloc(c->nvars + 1, sizeof(int));
    e->right_present = flint_calloc(c->nvars + 1, sizeof(int));
    return e;
}

double
hdo_ball_digits(const hdo_ball *b, double scale)
{
    if (mpfr_nan_p(b->mid) || !mpfr_number_p(b->rad))
        return 0;
    if (mpfr_zero_p(b->rad))
        return INFINITY;
    /* log10 by doubles of their logarithms: values beyond the double
       range keep their digits */
    long em = 0, er = 0;
    double dm = mpfr_get_d_2exp(&em, b->mid, MPFR_RNDN);
    double dr = mpfr_get_d_2exp(&er, b->rad, MPFR_RNDU);
    double lr = log2(fabs(dr)) + (double)er;
    double lm = mpfr_zero_p(b->mid) ? -INFINITY : log2(fabs(dm)) + (double)em;
    /* |mid| - rad, in log2 */
    double lv = -INFINITY;
    if (lm > lr) {
        double q = exp2(lr - lm);
        lv = lm + log2(1 - q);
    }
    double ls = scale > 0 ? log2(scale) : -INFINITY;
    double lsc = lv > ls ? lv : ls;
    if (lsc == -INFINITY)
        return 0;
    double d = (lsc - lr) * 0.30102999566398119521;
    return d > 0 ? d : 0;
}
