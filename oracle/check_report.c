/* check_report.c -- hdo check's human report, its summary line and its
   JUnit report */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

int
chk_variable_failed(const check_state *s, slong j)
{
    return hdo_tube_failed(s->tube + j);
}

int
chk_failed(const check_state *s)
{
    for (slong j = 0; j < s->nvar; j++)
        if (chk_variable_failed(s, j))
            return 1;
    return s->match->nfailed > 0;
}

/* The time of event match k: the reference's, else the candidate's. */
static double
match_time(const check_state *s, const hdo_match *m)
{
    return m->ref >= 0 ? s->ref_ev->ev[m->ref].t_lo
                       : s->cand_ev->ev[m->cand].t_lo;
}

static void
format_cand_time(char *buf, size_t n, const hdo_cmp_event *e)
{
    if (e->t_lo == e->t_hi)
        snprintf(buf, n, "%.17g", e->t_lo);
    else
        snprintf(buf, n, "%.10g..%.10g", e->t_lo, e->t_hi);
}

static void
format_modes(char *buf, size_t n, const check_state *s, slong from, slong to)
{
    snprintf(buf, n, "%s -> %s", chk_mode_name(s, from), chk_mode_name(s, to));
}

void
chk_describe_variable(char *buf, size_t n, const check_state *s, slong j)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    int k;
    if (tb->ncompared == 0) {
        snprintf(buf, n,
                 "no value compared (the reference or the candidate "
                 "has none in every window)");
        return;
    }
    if (tb->worst_err == 0)
        k = snprintf(buf, n, "%ld compared, all inside the tube",
                     (long)tb->ncompared);
    else
        k = snprintf(buf, n,
                     "%ld compared, %ld outside the tube; largest error %.3g "
                     "at t = %.17g (line %d, allowed %.3g)",
                     (long)tb->ncompared, (long)tb->nfailed, tb->worst_err,
                     c->time[tb->worst], c->line[tb->worst], tb->worst_allowed);
    if (tb->max_diff_row >= 0 && k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k,
                      "; largest |candidate - reference(t)| %.3g at t = %.15g",
                      tb->max_diff, c->time[tb->max_diff_row]);
    if (tb->nnoref + tb->nnocand > 0 && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k,
                 "; NOT COMPARED: %ld rows where the reference has no value, "
                 "%ld where the candidate's cell is empty (first at t = "
                 "%.15g, line %d)",
                 (long)tb->nnoref, (long)tb->nnocand,
                 c->time[tb->first_uncompared], c->line[tb->first_uncompared]);
}

void
chk_describe_row_failure(char *buf, size_t n, const check_state *s, slong j,
                         slong i)
{
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    if (tb->fail[i] == 2) {
        snprintf(buf, n,
                 "t = %.17g (%s line %d), variable %s: not compared: %s",
                 c->time[i], s->cand_path, c->line[i], c->names[s->col[j]],
                 isnan(tb->lo[i]) ? "the reference has no value within "
                                    "time_abs"
                                  : "the candidate's cell is empty where the "
                                    "reference has a value");
        return;
    }
    snprintf(buf, n,
             "t = %.17g (%s line %d), variable %s: candidate %.17g, "
             "reference range [%.17g, %.17g] over [t - %g, t + %g], "
             "allowed [%.17g, %.17g]",
             c->time[i], s->cand_path, c->line[i], c->names[s->col[j]],
             c->values[i * c->ncols + s->col[j]], tb->lo[i], tb->hi[i],
             s->tol->time_abs, s->tol->time_abs, tb->band_lo[i],
             tb->band_hi[i]);
}

void
chk_describe_event_failure(char *buf, size_t n, const check_state *s,
                           const hdo_match *m)
{
    char ct[80], rm[120], cm[120];
    if (m->ref >= 0)
        format_modes(rm, sizeof rm, s, s->ref_ev->ev[m->ref].from,
                     s->ref_ev->ev[m->ref].to);
    if (m->cand >= 0) {
        format_cand_time(ct, sizeof ct, s->cand_ev->ev + m->cand);
        format_modes(cm, sizeof cm, s, s->cand_ev->ev[m->cand].from,
                     s->cand_ev->ev[m->cand].to);
    }
    if (m->cand < 0)
        snprintf(buf, n, "event %s at t = %.17g is missing from the candidate",
                 rm, s->ref_ev->ev[m->ref].t_lo);
    else if (m->ref < 0)
        snprintf(buf, n,
                 "the candidate has an extra event %s at t = %s (line %d)", cm,
                 ct, s->cand_ev->ev[m->cand].line);
    else
        snprintf(buf, n,
                 "event %s at t = %.17g: candidate %s at t = %s (line %d), %s "
                 "(difference %.3g, time_abs %g)",
                 rm, s->ref_ev->ev[m->ref].t_lo, cm, ct,
                 s->cand_ev->ev[m->cand].line,
                 hdo_match_verdict_name(m->verdict), m->diff, s->tol->time_abs);
}

/* Where a tolerance came from: line > 0 of the file, -1 the command
   line, 0 the default. */
static const char *
tol_source(const check_state *s, int line, char *buf, size_t n)
{
    if (line < 0)
        return "command line";
    if (line == 0)
        return "default";
    snprintf(buf, n, "line %d", line);
    return buf;
}

void
chk_print_report(const check_state *s, FILE *out)
{
    const hdo_csv_struct *c = s->cand;
    const hdo_tol_struct *t = s->tol;
    char buf[1024];
    char lt[64], la[64], lr[64];
    double first_t = INFINITY;
    slong first_var = -1, first_match = -1, first_row = -1;
    int failed = chk_failed(s);

    fprintf(out, "%s\n", failed ? "FAIL" : "PASS");
    fprintf(out, "model %s, candidate %s: %ld rows, t = %.15g .. %.15g\n",
            s->model->name, s->cand_path, (long)c->nrows, c->time[0],
            c->time[c->nrows - 1]);
    if (!isnan(s->ref->t_end) &&
        (c->time[0] > s->ref->t0 || c->time[c->nrows - 1] < s->ref->t_end))
        fprintf(out,
                "coverage: the candidate covers [%.15g, %.15g] of [%.15g, "
                "%.15g]: it is compared where it has rows only\n",
                c->time[0], c->time[c->nrows - 1], s->ref->t0, s->ref->t_end);
    fprintf(out,
            "reference: hdo run at %ld digits (as `hdo run -d %ld`), %ld "
            "samples, %ld steps, %ld events, %.2f s\n",
            s->digits, s->digits, (long)s->ref->n, (long)s->ref->steps,
            (long)s->ref->nrun_events, s->seconds_ref);
    fprintf(out,
            "tolerances (%s): time_abs %g (%s), value_abs %g (%s), "
            "value_rel %g (%s), modes %s\n",
            s->tol_from_file ? t->file : "no tolerance file", t->time_abs,
            tol_source(s, t->line_time_abs, lt, sizeof lt), t->value_abs,
            tol_source(s, t->line_value_abs, la, sizeof la), t->value_rel,
            tol_source(s, t->line_value_rel, lr, sizeof lr),
            t->modes_exact ? "exact" : "ignore");
    if (s->nignored > 0) {
        fprintf(out, "not compared (%s):",
                t->has_variables ? "not in the tolerance file's variables"
                                 : "not variables of the model");
        for (slong k = 0; k < s->nignored; k++)
            fprintf(out, " %s", c->names[s->ignored[k]]);
        fprintf(out, "\n");
    }
    fprintf(out, "\nvariables:\n");
    for (slong j = 0; j < s->nvar; j++) {
        const hdo_tube_struct *tb = s->tube + j;
        slong ff = tb->first_fail;
        if (tb->first_uncompared >= 0 && (ff < 0 || tb->first_uncompared < ff))
            ff = tb->first_uncompared;
        chk_describe_variable(buf, sizeof buf, s, j);
        fprintf(out, "  %-12s %s  %s\n", c->names[s->col[j]],
                chk_variable_failed(s, j) ? "FAIL" : "pass", buf);
        if (ff >= 0 && c->time[ff] < first_t) {
            first_t = c->time[ff];
            first_var = j;
            first_row = ff;
        }
    }
    if (!s->events_given)
        fprintf(out,
                "\nevents: %ld reference; not given by the candidate (no "
                "events file, mode column or repeated time rows): judged on "
                "its values only\n",
                (long)s->ref_ev->n);
    else
        fprintf(out, "\nevents: %ld reference, %ld candidate (%s)%s\n",
                (long)s->ref_ev->n, (long)s->cand_ev->n, s->events_source,
                t->modes_exact && !c->has_mode && s->events_path == NULL
                    ? "; the candidate has no modes: events compared by time"
                    : "");
    if (s->match->n > 0)
        fprintf(out, "  %4s  %-24s %-24s %-28s %-11s %s\n", "#", "reference",
                "candidate", "from -> to", "difference", "verdict");
    for (slong k = 0; k < s->match->n; k++) {
        const hdo_match *m = s->match->m + k;
        char rt[64] = "-", ct[80] = "-", md[260], dd[32] = "-";
        if (m->ref >= 0) {
            snprintf(rt, sizeof rt, "%.17g", s->ref_ev->ev[m->ref].t_lo);
            format_modes(md, sizeof md, s, s->ref_ev->ev[m->ref].from,
                         s->ref_ev->ev[m->ref].to);
        }
        if (m->cand >= 0) {
            const hdo_cmp_event *e = s->cand_ev->ev + m->cand;
            format_cand_time(ct, sizeof ct, e);
            if (m->ref < 0)
                format_modes(md, sizeof md, s, e->from, e->to);
            else if (m->verdict == HDO_MATCH_MODE) {
                size_t l = strlen(md);
                snprintf(md + l, sizeof md - l, " (cand. %s -> %s)",
                         chk_mode_name(s, e->from), chk_mode_name(s, e->to));
            }
        }
        if (!isnan(m->diff))
            snprintf(dd, sizeof dd, "%.3g", m->diff);
        fprintf(out, "  %4ld  %-24s %-24s %-28s %-11s %s\n", (long)(k + 1), rt,
                ct, md, dd, hdo_match_verdict_name(m->verdict));
        if (m->verdict != HDO_MATCH_OK && hdo_match_judged(m->verdict) &&
            first_match < 0)
            first_match = k;
    }
    /* Physics that differ, in words: the reference events after the
       candidate's last one (missed, or past the candidate's end). */
    if (s->events_given && s->match->n > 0) {
        slong k = s->match->n, nmore = 0;
        double tlast_ref = NAN;
        while (k > 0 && s->match->m[k - 1].cand < 0 &&
               (s->match->m[k - 1].verdict == HDO_MATCH_MISSING ||
                !hdo_match_judged(s->match->m[k - 1].verdict))) {
            const hdo_cmp_event *e = s->ref_ev->ev + s->match->m[k - 1].ref;
            if (isnan(tlast_ref))
                tlast_ref = e->t_hi;
            nmore += e->count;
            k--;
        }
        if (nmore > 0) {
            double tc = s->cand_ev->n > 0
                            ? s->cand_ev->ev[s->cand_ev->n - 1].t_hi
                            : NAN;
            if (s->cand_ev->n > 0)
                fprintf(out, "\nthe candidate stops switching at t = %.17g; ",
                        tc);
            else
                fprintf(out, "\nthe candidate has no event; ");
            fprintf(out,
                    "the reference has %ld more event%s up to t = %.17g%s\n",
                    (long)nmore, nmore == 1 ? "" : "s", tlast_ref,
                    tlast_ref > c->time[c->nrows - 1]
                        ? " (past the candidate's end: not counted)"
                        : "");
        }
    }
    if (!failed)
        return;
    fprintf(out, "\nfirst failure: ");
    if (first_match >= 0 &&
        (first_var < 0 ||
         match_time(s, s->match->m + first_match) <= first_t)) {
        chk_describe_event_failure(buf, sizeof buf, s,
                                   s->match->m + first_match);
        fprintf(out, "%s\n", buf);
    } else if (first_var >= 0) {
        chk_describe_row_failure(buf, sizeof buf, s, first_var, first_row);
        fprintf(out, "%s\n", buf);
    } else {
        for (slong j = 0; j < s->nvar; j++)
            if (chk_variable_failed(s, j)) {
                fprintf(out, "variable %s: no value compared\n",
                        c->names[s->col[j]]);
                break;
            }
    }
}

/* The machine-readable last line of the report (docs/decisions.md,
   "hdo check summary line"):
     summary: verdict=PASS|FAIL value_err=E value_where=VAR@T value_ratio=R
              event_time_err=D events_ref=N events_cand=N events_missing=N
              events_extra=N events_wrong=N vars_failed=K/N
              rows_compared=N rows_uncompared=N point_err=E
              events_given=yes|no cand_span=A..B ref_span=T0..T1
   value_err is the largest distance of a candidate value from the range
   the reference takes over [t - time_abs, t + time_abs] (the tube before
   the tolerance band), in the variable's units, and value_where where it
   occurs (VAR@- and value_err=0 when every value is inside the range);
   value_ratio is the largest such distance divided by the band allowed
   there (the verdict's measure: above 1 fails); event_time_err is the
   largest |candidate - reference| event time over the paired events, `-`
   when no event was paired; events_wrong counts pairs early, late or with
   the wrong mode change.  Reference events outside the candidate's time
   span are not counted.  rows_compared / rows_uncompared count
   (variable, row) cells compared and not compared (the latter fail);
   point_err is the largest |candidate - reference(t)| at the candidate's
   own times away from events (- when none), which a wide time_abs cannot hide;
   events_given no when the candidate has no events file, mode column or
   repeated time rows (then events_ref counts 0: nothing was matched);
   cand_span
   the candidate's first and last time, ref_span the model's t0 and end
   time.  Numbers are printed with %.3e (inf for a NaN candidate value). */
void
chk_print_summary(const check_state *s, FILE *out)
{
    const hdo_csv_struct *c = s->cand;
    hdo_check_summary sm;
    hdo_check_summarize(&sm, s->tube, s->nvar, c->time, c->values, c->present,
                        c->ncols, s->col, c->nrows, s->match, s->events_given);
    fprintf(out, "\nsummary: verdict=%s value_err=%.3e value_where=",
            sm.failed ? "FAIL" : "PASS", sm.value_err);
    if (sm.value_var >= 0)
        fprintf(out, "%s@%.17g", c->names[s->col[sm.value_var]], sm.value_t);
    else
        fprintf(out, "-");
    fprintf(out, " value_ratio=%.3e event_time_err=", sm.value_ratio);
    if (!isnan(sm.event_time_err))
        fprintf(out, "%.3e", sm.event_time_err);
    else
        fprintf(out, "-");
    fprintf(out,
            " events_ref=%ld events_cand=%ld events_missing=%ld "
            "events_extra=%ld events_wrong=%ld vars_failed=%ld/%ld "
            "rows_compared=%ld rows_uncompared=%ld point_err=",
            (long)sm.events_ref, (long)sm.events_cand, (long)sm.events_missing,
            (long)sm.events_extra, (long)sm.events_wrong, (long)sm.vars_failed,
            (long)sm.nvar, (long)sm.rows_compared, (long)sm.rows_uncompared);
    if (!isnan(sm.point_err))
        fprintf(out, "%.3e", sm.point_err);
    else
        fprintf(out, "-");
    fprintf(out, " events_given=%s", sm.events_given ? "yes" : "no");
    fprintf(out, " cand_span=%.17g..%.17g ref_span=%.17g..", c->time[0],
            c->time[c->nrows - 1], s->ref->t0);
    if (isnan(s->ref->t_end))
        fprintf(out, "-\n");
    else
        fprintf(out, "%.17g\n", s->ref->t_end);
}

/* ------------------------------------------------------------------ */
/* JUnit XML (ref/compare/junit.c): written on every exit, with an
   <error> when the check could not be done. */

int
chk_write_junit(check_state *s, int rc)
{
    slong n = s->tube != NULL ? s->nvar + 1 : 0;
    hdo_junit_case *tc = calloc((size_t)(n + 1), sizeof *tc);
    char(*fail)[512] = calloc((size_t)(n + 1), sizeof *fail);
    char(*text)[1024] = calloc((size_t)(n + 1), sizeof *text);
    const char *suite = s->model->name != NULL  ? s->model->name
                        : s->model_path != NULL ? s->model_path
                                                : "(no model)";
    hdo_error_t err;
    int st;
    if (tc == NULL || fail == NULL || text == NULL) {
        free(tc);
        free(fail);
        free(text);
        chk_error(s, "hdo check: out of memory");
        return 2;
    }
    for (slong j = 0; rc != 2 && j < s->nvar; j++) {
        tc[j].name = s->cand->names[s->col[j]];
        tc[j].seconds = s->seconds_compare / (double)(s->nvar + 1);
        chk_describe_variable(text[j], sizeof text[j], s, j);
        if (chk_variable_failed(s, j)) {
            snprintf(fail[j], sizeof fail[j], "%s", text[j]);
            tc[j].failure = fail[j];
            if (s->tube[j].first_fail >= 0 ||
                s->tube[j].first_uncompared >= 0) {
                slong i = s->tube[j].first_fail;
                if (i < 0 || (s->tube[j].first_uncompared >= 0 &&
                              s->tube[j].first_uncompared < i))
                    i = s->tube[j].first_uncompared;
                memcpy(text[j], "first failure: ", 16);
                chk_describe_row_failure(text[j] + 15, sizeof text[j] - 15, s,
                                         j, i);
            }
        }
        tc[j].text = text[j];
    }
    if (rc != 2) {
        slong k = s->nvar, len = 0;
        tc[k].name = "events";
        tc[k].seconds = s->seconds_compare / (double)(s->nvar + 1);
        if (s->match->nfailed > 0) {
            snprintf(fail[k], sizeof fail[k],
                     "%ld of %ld events wrong (%ld reference, %ld candidate)",
                     (long)s->match->nfailed, (long)s->match->n,
                     (long)s->ref_ev->n, (long)s->cand_ev->n);
            tc[k].failure = fail[k];
            for (slong q = 0; q < s->match->n && len < 900; q++) {
                const hdo_match *m = s->match->m + q;
                char b[400];
                if (m->verdict == HDO_MATCH_OK || !hdo_match_judged(m->verdict))
                    continue;
                chk_describe_event_failure(b, sizeof b, s, m);
                len += snprintf(text[k] + len, sizeof text[k] - (size_t)len,
                                "%s\n", b);
            }
        } else {
            snprintf(text[k], sizeof text[k], "%ld events match",
                     (long)s->match->n);
        }
        tc[k].text = text[k];
    }
    hdo_error_clear(&err);
    st = hdo_junit_write(s->junit_path, suite, tc, n,
                         rc == 2 ? (s->errmsg[0] ? s->errmsg
                                                 : "hdo check could not be "
                                                   "done: bad command line "
                                                   "(see standard error)")
                                 : NULL,
                         chk_now() - s->seconds_start, &err);
    free(tc);
    free(fail);
    free(text);
    if (st) {
        fprintf(stderr, "%s: error: %s\n", s->junit_path, err.message);
        return 2;
    }
    return 0;
}
