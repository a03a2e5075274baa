/* text.c -- hdo check's human report (the verdict, the inputs, per
   variable the tube, the event table, the first failure), the analogue
   of hdo_analysis_write_text; the summary line is describe.c's */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

/* Where a tolerance came from: line > 0 of the file, -1 the command
   line, 0 the default. */
static const char *
tol_source(const hdo_check_t s, int line, char *buf, size_t n)
{
    if (line < 0)
        return "command line";
    if (line == 0)
        return "default";
    snprintf(buf, n, "line %d", line);
    return buf;
}

void
hdo_check_write_report(FILE *out, const hdo_check_t s)
{
    const hdo_csv_struct *c = s->cand;
    const hdo_tol_struct *t = s->tol;
    char buf[1024];
    char lt[64], la[64], lr[64], tf[1024];
    int failed = hdo_check_failed(s);
    hdo_check_summary sm;
    hdo_check_describe_tolerance_file(tf, sizeof tf, s);

    fprintf(out, "%s\n", failed ? "FAIL" : "PASS");
    fprintf(out, "model %s, candidate %s: %ld rows, t = %.15g .. %.15g\n",
            s->model->name, s->opt.cand_path, (long)c->nrows, c->time[0],
            c->time[c->nrows - 1]);
    if (!isnan(s->ref->t_end) &&
        (c->time[0] > s->ref->t0 || c->time[c->nrows - 1] < s->ref->t_end))
        fprintf(out,
                "coverage: the candidate covers [%.15g, %.15g] of [%.15g, "
                "%.15g]: it is compared where it has rows only\n",
                c->time[0], c->time[c->nrows - 1], s->ref->t0, s->ref->t_end);
    if (s->cosim_dropped > 0)
        fprintf(out,
                "rows: read as co-simulation output (two rows at each of the "
                "%ld output times after the first, every %.15g: the first "
                "repeats the previous time's values, the output held through "
                "the step, the second is the new one); the first row of each "
                "pair was left out\n",
                (long)s->cosim_dropped, s->cosim_step);
    fprintf(out,
            "reference: hdo run at %ld digits (as `hdo run -d %ld`), %ld "
            "samples, %ld steps, %ld events, %.2f s\n",
            s->opt.digits, s->opt.digits, (long)s->ref->n, (long)s->ref->steps,
            (long)s->ref->nrun_events, s->seconds_ref);
    fprintf(out,
            "tolerances (%s): time_abs %g (%s), value_abs %g (%s), "
            "value_rel %g (%s), modes %s\n",
            tf, t->time_abs, tol_source(s, t->line_time_abs, lt, sizeof lt),
            t->value_abs, tol_source(s, t->line_value_abs, la, sizeof la),
            t->value_rel, tol_source(s, t->line_value_rel, lr, sizeof lr),
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
        hdo_check_describe_variable(buf, sizeof buf, s, j);
        fprintf(out, "  %-12s %s  %s\n", c->names[s->col[j]],
                hdo_check_variable_failed(s, j) ? "FAIL" : "pass", buf);
    }
    hdo_check_summary_of(&sm, s);
    if (!s->events_given)
        fprintf(out,
                "\nevents: %ld reference; not given by the candidate (no "
                "events file, mode column or repeated time rows): judged on "
                "its values only\n",
                (long)sm.events_ref);
    else
        fprintf(out, "\nevents: %ld reference, %ld candidate (%s)%s\n",
                (long)sm.events_ref, (long)sm.events_cand, s->events_source,
                t->modes_exact && !c->has_mode && s->opt.events_path == NULL
                    ? "; the candidate has no modes: events compared by time"
                    : "");
    if (s->events_given &&
        sm.events_unobservable + sm.events_outside + sm.events_at_end > 0) {
        /* listed in the table, neither passed nor failed */
        const char *sep = "";
        fprintf(out, "  not judged:");
        if (sm.events_unobservable > 0)
            fprintf(out,
                    " %ld not observable in the candidate (they change "
                    "no column it has)",
                    (long)sm.events_unobservable),
                sep = ",";
        if (sm.events_outside > 0)
            fprintf(out, "%s %ld outside the candidate's span", sep,
                    (long)sm.events_outside),
                sep = ",";
        if (sm.events_at_end > 0)
            fprintf(out, "%s %ld at the end time", sep, (long)sm.events_at_end);
        fprintf(out, "\n");
    }
    if (s->match->n > 0)
        fprintf(out, "  %4s  %-24s %-24s %-28s %-11s %s\n", "#", "reference",
                "candidate", "from -> to", "difference", "verdict");
    for (slong k = 0; k < s->match->n; k++) {
        const hdo_match *m = s->match->m + k;
        char rt[64] = "-", ct[80] = "-", md[260], dd[32] = "-";
        if (m->ref >= 0) {
            snprintf(rt, sizeof rt, "%.17g", s->ref_ev->ev[m->ref].t_lo);
            hdo_check_modes(md, sizeof md, s, s->ref_ev->ev[m->ref].from,
                            s->ref_ev->ev[m->ref].to);
        }
        if (m->cand >= 0) {
            const hdo_cmp_event *e = s->cand_ev->ev + m->cand;
            hdo_check_event_time(ct, sizeof ct, e);
            if (m->ref < 0)
                hdo_check_modes(md, sizeof md, s, e->from, e->to);
            else if (m->verdict == HDO_MATCH_MODE) {
                char a[512], b[512];
                size_t l = strlen(md);
                snprintf(md + l, sizeof md - l, " (cand. %s -> %s)",
                         hdo_check_mode_name(a, sizeof a, s, e->from),
                         hdo_check_mode_name(b, sizeof b, s, e->to));
            }
        }
        if (!isnan(m->diff))
            snprintf(dd, sizeof dd, "%.3g", m->diff);
        fprintf(out, "  %4ld  %-24s %-24s %-28s %-11s %s\n", (long)(k + 1), rt,
                ct, md, dd, hdo_match_verdict_name(m->verdict));
    }
    /* Physics that differ, in words: the reference events after the
       candidate's last one (missed, or past the candidate's end). */
    double tlast;
    slong nmore = hdo_check_missing_tail(&tlast, s);
    if (nmore > 0) {
        if (s->cand_ev->n > 0)
            fprintf(out, "\nthe candidate stops switching at t = %.17g; ",
                    s->cand_ev->ev[s->cand_ev->n - 1].t_hi);
        else
            fprintf(out, "\nthe candidate has no event; ");
        fprintf(out, "the reference has %ld more event%s up to t = %.17g%s\n",
                (long)nmore, nmore == 1 ? "" : "s", tlast,
                tlast > c->time[c->nrows - 1]
                    ? " (past the candidate's end: not counted)"
                    : "");
    }
    if (failed && hdo_check_first_failure(buf, sizeof buf, s))
        fprintf(out, "\nfirst failure: %s\n", buf);
}
