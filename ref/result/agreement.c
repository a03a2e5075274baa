/* agreement.c -- the number of significant digits on which two runs
 * agree (hdo run --verify) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "result.h"

/* Whether |x - y| <= 10^-k scale, decided on the safe side: d is |x - y|
   rounded up, the bound is rounded down, so a value on the boundary or
   within rounding of it does not count as agreeing to k digits. */
static int
within_digits(mpfr_srcptr d, mpfr_srcptr scale, long k, mpfr_prec_t prec)
{
    mpfr_t lim;
    mpfr_init2(lim, prec);
    mpfr_set_ui(lim, 10, MPFR_RNDN);
    mpfr_pow_si(lim, lim, -k, MPFR_RNDD);
    mpfr_mul(lim, lim, scale, MPFR_RNDD);
    int ok = mpfr_cmp(d, lim) <= 0;
    mpfr_clear(lim);
    return ok;
}

/* Digits of agreement of x with y relative to scale: the largest k with
   |x - y| <= 10^-k scale, capped at cap (also when x == y).  -log10 of
   the ratio in double precision only proposes k: rounded to a double it
   is k itself for a ratio 10^-k (1 + 2^-60), one digit more than the
   values agree to, so the candidates around it are checked exactly
   (within_digits) and a digit is never claimed that the values do not
   have (tests/result/verify_thresholds.c). */
static double
agree(mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr scale, long cap)
{
    mpfr_t d;
    double r;
    long k, lo;
    if (mpfr_nan_p(x) || mpfr_nan_p(y))
        return mpfr_nan_p(x) && mpfr_nan_p(y) ? (double)cap : 0.0;
    if (mpfr_inf_p(x) || mpfr_inf_p(y))
        return mpfr_equal_p(x, y) ? (double)cap : 0.0;
    mpfr_prec_t prec =
        (mpfr_get_prec(x) > mpfr_get_prec(y) ? mpfr_get_prec(x)
                                             : mpfr_get_prec(y)) +
        64;
    mpfr_init2(d, prec);
    mpfr_sub(d, x, y, MPFR_RNDA); /* |x - y| rounded up */
    mpfr_abs(d, d, MPFR_RNDN);
    if (mpfr_zero_p(d) || mpfr_zero_p(scale)) {
        mpfr_clear(d);
        return (double)cap;
    }
    {
        mpfr_t q;
        mpfr_init2(q, 64);
        mpfr_div(q, d, scale, MPFR_RNDN);
        mpfr_log10(q, q, MPFR_RNDN);
        r = -mpfr_get_d(q, MPFR_RNDN);
        mpfr_clear(q);
    }
    if (r >= (double)cap + 1) {
        mpfr_clear(d);
        return (double)cap;
    }
    /* the estimate is within far less than a digit of -log10 */
    lo = (long)floor(r) - 1;
    k = (long)floor(r) + 1 < cap ? (long)floor(r) + 1 : cap;
    while (k > lo && !within_digits(d, scale, k, prec))
        k--;
    mpfr_clear(d);
    return (double)k;
}

/* 2^l at 64 bits, rounded down; 0 for l = -inf */
static void
set_pow2(mpfr_t m, double l)
{
    if (!(l > -INFINITY) || !isfinite(l)) {
        mpfr_set_zero(m, 1);
        return;
    }
    mpfr_set_d(m, l, MPFR_RNDD);
    mpfr_ui_pow(m, 2, m, MPFR_RNDD);
}

/* The scale of value v of row r (of a) against y (b's value, the better
   estimate of the true one): max(|y|, 2^mag[v]) (y's size, and the
   variable's size over the step that produced the value or its nominal:
   sample.c) when that is at least the value's floor 2^floor[v], its
   digits significant; otherwise the variable's scale 2^scale[v] (the
   largest magnitude it has had so far, or its nominal), its digits
   absolute.  At 64 bits; returns 1 for an absolute value. */
static int
value_scale(mpfr_t sc, const hdo_row *r, slong v, mpfr_srcptr y)
{
    mpfr_t m;
    int absolute = 0;
    mpfr_init2(m, 64);
    mpfr_abs(sc, y, MPFR_RNDU);
    if (r->mag != NULL) {
        set_pow2(m, r->mag[v]);
        mpfr_max(sc, sc, m, MPFR_RNDU);
        set_pow2(m, r->floor[v]);
        if (mpfr_cmp(sc, m) < 0) {
            set_pow2(sc, r->scale[v]);
            mpfr_max(sc, sc, m, MPFR_RNDU);
            absolute = 1;
        }
    }
    mpfr_clear(m);
    return absolute;
}

/* Index of the next zeno event at or after i, or n. */
static slong
next_zeno(const hdo_result_t r, slong i)
{
    while (i < r->nevents && r->events[i].kind != HDO_EV_ZENO)
        i++;
    return i;
}

/* Where the comparison stands: the value with the fewest digits so
   far, described in msg (when msg is not NULL) if below `want`. */
typedef struct {
    long want;
    char *msg;
    size_t size;
    int found;    /* a structural difference was described */
    double worst; /* the fewest digits noted */
    const hdo_model_struct *model;
} place_t;

/* Notes that x (run a) and y (run b) agree to only d digits at time t:
   what, and where (an event's index, or 0: a row). */
static void
note(place_t *pl, double d, const char *what, slong index, mpfr_srcptr t,
     mpfr_srcptr x, mpfr_srcptr y)
{
    if (pl == NULL || pl->msg == NULL || pl->found || d >= (double)pl->want ||
        d >= pl->worst)
        return;
    pl->worst = d;
    char where[64];
    if (index > 0)
        snprintf(where, sizeof where, "event %ld", (long)index);
    else
        snprintf(where, sizeof where, "the row");
    mpfr_snprintf(pl->msg, pl->size,
                  "%s at t = %.17Rg, %s: %.*Re against %.*Re (%ld digits)",
                  where, t, what, (int)pl->want + 4, x, (int)pl->want + 4, y,
                  d <= 0 ? 0L : (long)floor(d));
}

/* The digits on which rows ra (of a) and rb (of b) agree, every variable
   both have, each relative to its scale in a (value_scale). */
static double
row_agreement(const hdo_row *ra, const hdo_row *rb, slong nvars, long cap,
              slong index, const char *side, place_t *pl)
{
    double worst = (double)cap;
    mpfr_t sc;
    mpfr_init2(sc, 64);
    for (slong v = 0; v < nvars; v++) {
        if (!ra->present[v] || !rb->present[v])
            continue;
        value_scale(sc, ra, v, rb->values + v);
        double d = agree(ra->values + v, rb->values + v, sc, cap);
        if (d < worst)
            worst = d;
        if (pl != NULL && d < (double)pl->want) {
            char what[300];
            snprintf(what, sizeof what, "%s%s",
                     pl->model != NULL ? pl->model->vars[v].name : "a variable",
                     side);
            note(pl, d, what, index, ra->time, ra->values + v, rb->values + v);
        }
    }
    mpfr_clear(sc);
    return worst;
}

/* An event's time and its two rows (the states before and after it). */
static double
event_agreement(const hdo_result_struct *a, const hdo_event *ea,
                const hdo_result_struct *b, const hdo_event *eb,
                mpfr_srcptr tscale, long cap, place_t *pl)
{
    double worst = agree(ea->time, eb->time, tscale, cap);
    note(pl, worst, "its time", ea->index, ea->time, ea->time, eb->time);
    slong la = ea->row_left, lb = eb->row_left, qa = ea->row_right,
          qb = eb->row_right;
    if (la >= 0 && lb >= 0) {
        double d = row_agreement(a->rows + la, b->rows + lb, a->nvars, cap,
                                 ea->index, " before it", pl);
        if (d < worst)
            worst = d;
    }
    if (qa >= 0 && qb >= 0) {
        double d = row_agreement(a->rows + qa, b->rows + qb, a->nvars, cap,
                                 ea->index, " after it", pl);
        if (d < worst)
            worst = d;
    }
    return worst;
}

/* The sequences of events differ at event k of a (or b has more): named
   unless a value before it already agrees to fewer than D digits (the
   first symptom is the more useful place). */
static void
note_structure(place_t *pl, const hdo_result_struct *a, slong ia,
               const hdo_result_struct *b, slong ib)
{
    if (pl == NULL || pl->msg == NULL || pl->found)
        return;
    pl->found = 1;
    if (pl->msg[0] != '\0')
        return; /* the values before it already part: that place */
    if (ia < a->nevents && ib < b->nevents) {
        char fa[256], ta[256], fb[256], tb[256];
        const hdo_event *ea = a->events + ia, *eb = b->events + ib;
        hdo_mode_name(fa, sizeof fa, pl->model, ea->from);
        hdo_mode_name(ta, sizeof ta, pl->model, ea->to);
        hdo_mode_name(fb, sizeof fb, pl->model, eb->from);
        hdo_mode_name(tb, sizeof tb, pl->model, eb->to);
        mpfr_snprintf(pl->msg, pl->size,
                      "event %ld: %s -> %s at t = %.17Rg against %s -> %s "
                      "at t = %.17Rg (the runs switch differently)",
                      (long)ea->index, fa, ta, ea->time, fb, tb, eb->time);
    } else if (ia < a->nevents) {
        mpfr_snprintf(pl->msg, pl->size,
                      "event %ld at t = %.17Rg, which the second run does not "
                      "have (%ld events against %ld)",
                      (long)a->events[ia].index, a->events[ia].time,
                      (long)a->nevents, (long)b->nevents);
    } else if (ib < b->nevents) {
        mpfr_snprintf(pl->msg, pl->size,
                      "event %ld of the second run at t = %.17Rg, which the "
                      "first does not have (%ld events against %ld)",
                      (long)b->events[ib].index, b->events[ib].time,
                      (long)a->nevents, (long)b->nevents);
    }
}

long
hdo_result_agreement(const hdo_result_t a, const hdo_result_t b)
{
    return hdo_result_agreement_where(NULL, 0, NULL, a, b);
}

/* The index of b's row of grid sample k (rows of b hold the samples in
   increasing order), or -1. */
static slong
sample_row(const hdo_result_struct *b, slong k, slong *from)
{
    for (slong i = *from; i < b->nrows; i++) {
        if (b->rows[i].sample == k) {
            *from = i + 1;
            return i;
        }
        if (b->rows[i].sample > k)
            return -1;
    }
    return -1;
}

long
hdo_result_agreement_where(char *msg, size_t size,
                           const hdo_model_struct *model, const hdo_result_t a,
                           const hdo_result_t b)
{
    long cap = a->digits;
    double worst = (double)cap;
    int same = 1;
    mpfr_t tscale;
    place_t place = {a->digits, msg, size, 0, (double)a->digits, model};
    place_t *pl = msg != NULL && size > 0 && model != NULL ? &place : NULL;

    if (pl != NULL)
        msg[0] = '\0';
    if (a->nvars != b->nvars)
        return 0;
    mpfr_init2(tscale, 64);
    mpfr_abs(tscale, b->t0, MPFR_RNDU);
    if (mpfr_cmpabs(b->t_end, tscale) > 0)
        mpfr_abs(tscale, b->t_end, MPFR_RNDU);
    if (mpfr_zero_p(tscale))
        mpfr_set_ui(tscale, 1, MPFR_RNDN);
    /* Segments end at zeno events.  Before an accumulation point the runs
       follow events until their gaps fall below each run's tolerance, so
       the tighter run follows more of them: there the common prefix is
       compared, and the zeno events with each other.  A segment that
       ends without accumulation must have the same events in both. */
    slong ia = 0, ib = 0;
    while (same && (ia < a->nevents || ib < b->nevents)) {
        slong za = next_zeno(a, ia), zb = next_zeno(b, ib);
        int ends_a = za < a->nevents, ends_b = zb < b->nevents;
        slong na = za - ia, nb = zb - ib, n = na < nb ? na : nb;
        /* a different number of events fails the comparison, but the
           common ones are compared first: the first place where the
           runs part may be a value before the extra event */
        int mismatch = ends_a != ends_b || (!ends_a && na != nb);
        for (slong k = 0; k < n && same; k++) {
            const hdo_event *ea = a->events + ia + k, *eb = b->events + ib + k;
            if (ea->from != eb->from || ea->to != eb->to) {
                note_structure(pl, a, ia + k, b, ib + k);
                same = 0;
                break;
            }
            double d = event_agreement(a, ea, b, eb, tscale, cap, pl);
            if (d < worst)
                worst = d;
        }
        if (same && mismatch) {
            note_structure(pl, a, ia + n, b, ib + n);
            same = 0;
            break;
        }
        if (same && ends_a) {
            /* the mode left at the accumulation point is the one the
               last followed event entered, which depends on how many
               were followed: only the target must agree */
            const hdo_event *ea = a->events + za, *eb = b->events + zb;
            if (ea->to != eb->to) {
                note_structure(pl, a, za, b, zb);
                same = 0;
            }
            double d = event_agreement(a, ea, b, eb, tscale, cap, pl);
            if (d < worst)
                worst = d;
        }
        ia = ends_a ? za + 1 : a->nevents;
        ib = ends_b ? zb + 1 : b->nevents;
    }
    /* every row of the sampling grid both runs wrote (a grid time that
       falls on an event is an event's row in one run and a grid row in
       the other: it is compared with the event) */
    slong from = 0;
    for (slong i = 0; same && i < a->nrows; i++) {
        const hdo_row *ra = a->rows + i;
        if (ra->sample < 0)
            continue;
        slong j = sample_row(b, ra->sample, &from);
        if (j < 0 || b->rows[j].mode != ra->mode)
            continue;
        double d = row_agreement(ra, b->rows + j, a->nvars, cap, 0, "", pl);
        if (d < worst)
            worst = d;
    }
    /* and the last rows (results built without a sampling grid) */
    if (same && a->nrows > 0 && b->nrows > 0) {
        const hdo_row *ra = a->rows + a->nrows - 1,
                      *rb = b->rows + b->nrows - 1;
        if (mpfr_equal_p(ra->time, rb->time)) {
            double d = row_agreement(ra, rb, a->nvars, cap, 0, "", pl);
            if (d < worst)
                worst = d;
        }
    }
    mpfr_clear(tscale);
    if (!same)
        return 0;
    return worst <= 0 ? 0 : (long)floor(worst);
}
