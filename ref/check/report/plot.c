/* plot.c -- hdo check --plot: per variable the reference, the allowed
 * band and the candidate, the events by verdict, the switching points,
 * and the error relative to the band on a log scale (gnuplot: PNG, or
 * SVG for the HTML report) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

/* Whether an executable named prog is on PATH. */
static int
on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    if (path == NULL)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e != NULL ? (size_t)(e - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n > 0 ? path : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (e != NULL);
    }
    return 0;
}

/* Runs gnuplot on script; 0 when it succeeds. */
static int
run_gnuplot(const char *script)
{
    int status;
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* gnuplot's single-quoted strings: a quote is doubled. */
static void
gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* The colour of an event line by the verdict of its pairing, and the
   name the key gives it. */
static const char *
verdict_colour(hdo_match_verdict v, const char **name)
{
    switch (v) {
    case HDO_MATCH_OK:
        *name = "event (paired)";
        return "#969696";
    case HDO_MATCH_MISSING:
        *name = "missing event";
        return "#e31a1c";
    case HDO_MATCH_EXTRA:
        *name = "extra event";
        return "#ff7f00";
    case HDO_MATCH_EARLY:
        *name = "early event";
        return "#6a3d9a";
    case HDO_MATCH_LATE:
        *name = "late event";
        return "#1f78b4";
    case HDO_MATCH_MODE:
        *name = "wrong mode change";
        return "#b15928";
    case HDO_MATCH_OUTSIDE:
    case HDO_MATCH_AT_END:
        *name = "event not judged";
        return "#d9d9d9";
    case HDO_MATCH_UNOBSERVABLE:
        *name = "event not observable";
        return "#c7e9c0";
    }
    *name = "event";
    return "#969696";
}

/* The event lines (by verdict) and the switching points of piecewise
   expressions (thin green dots), at most 2000 lines; the verdicts seen
   are flagged in seen[]. */
static void
event_arrows(FILE *f, const hdo_check_t s, int *seen)
{
    slong narrow = 0;
    for (slong k = 0; k < s->match->n && narrow < 2000; k++, narrow++) {
        const hdo_match *m = s->match->m + k;
        const char *name;
        double te = m->ref >= 0 ? s->ref_ev->ev[m->ref].t_lo
                                : s->cand_ev->ev[m->cand].t_lo;
        const char *colour = verdict_colour(m->verdict, &name);
        seen[m->verdict] = 1;
        fprintf(f,
                "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead "
                "linecolor rgb '%s' dashtype 2 linewidth %s\n",
                te, te, colour, m->verdict == HDO_MATCH_OK ? "1" : "2");
    }
    /* a candidate that gives no events: the reference's, in grey */
    for (slong k = 0; !s->events_given && k < s->ref_ev->n && narrow < 2000;
         k++, narrow++) {
        double te = s->ref_ev->ev[k].t_lo;
        seen[HDO_MATCH_UNOBSERVABLE + 2] = 1;
        fprintf(f,
                "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead "
                "linecolor rgb '#bdbdbd' dashtype 2 linewidth 1\n",
                te, te);
    }
    for (slong k = 0; k < s->ref->crossings->n && narrow < 2000;
         k++, narrow++) {
        double te = s->ref->crossings->ev[k].t_lo;
        seen[HDO_MATCH_UNOBSERVABLE + 1] = 1;
        fprintf(f,
                "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead "
                "linecolor rgb '#41ab5d' dashtype 3 linewidth 1\n",
                te, te);
    }
}

/* Key entries for the event colours that appear (gnuplot draws arrows
   without a key: a line of no point stands for each). */
static void
event_keys(FILE *f, const int *seen)
{
    for (int v = 0; v <= HDO_MATCH_UNOBSERVABLE + 2; v++) {
        const char *name = "switching point (piecewise)", *colour = "#41ab5d";
        if (!seen[v])
            continue;
        if (v <= HDO_MATCH_UNOBSERVABLE)
            colour = verdict_colour((hdo_match_verdict)v, &name);
        else if (v == HDO_MATCH_UNOBSERVABLE + 2)
            name = "reference event (the candidate gives none)",
            colour = "#bdbdbd";
        fprintf(f,
                ", \\\n  NaN with lines linecolor rgb '%s' dashtype 2 "
                "title '%s'",
                colour, name);
    }
}

/* Draws variable j into out through files in dir, as PNG or (svg) SVG:
   0, -1 when gnuplot failed, -2 when the picture could not be written
   (err filled).  Both panels share one time axis, the candidate's span;
   the lower one is the error relative to the band allowed, on a log
   scale: |candidate - reference(t)| at the candidate's own times, and
   the distance out of the reference range where it is not 0 (above 1:
   outside the tube). */
static int
plot_variable(const hdo_check_t s, slong j, const char *dir, const char *out,
              int svg, hdo_error_t *err)
{
    char ref_path[4200], cand_path[4200], script[4200], tmp_out[4200];
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    const char *name = c->names[s->col[j]];
    double x0 = c->time[0], x1 = c->time[c->nrows - 1];
    int seen[HDO_MATCH_UNOBSERVABLE + 3] = {0};
    double ymax = 100; /* the top of the lower panel: 1 well inside */
    int any_out = 0;
    FILE *f;
    int st = 0;
    snprintf(ref_path, sizeof ref_path, "%s/ref.dat", dir);
    snprintf(cand_path, sizeof cand_path, "%s/cand.dat", dir);
    snprintf(script, sizeof script, "%s/plot.gp", dir);
    snprintf(tmp_out, sizeof tmp_out, "%s/plot.%s", dir, svg ? "svg" : "png");
    f = fopen(ref_path, "w");
    if (f == NULL)
        return -1;
    for (slong k = 0; k < s->ref->n; k++)
        fprintf(f, "%.17g %.17g\n", s->ref->t[k], s->ref->v[j * s->ref->n + k]);
    st |= fclose(f);
    f = fopen(cand_path, "w");
    if (f == NULL)
        return -1;
    for (slong i = 0; i < c->nrows; i++) {
        double v = c->present[i * c->ncols + s->col[j]]
                       ? c->values[i * c->ncols + s->col[j]]
                       : NAN;
        /* columns 6 and 7: |c - ref(t)| and the distance out of the
           reference range, each over the band allowed at that side (0
           drawn at 1e-17, the floor of the log scale) */
        double band = tb->band_hi[i] - tb->hi[i];
        double e = isnan(v) || isnan(tb->lo[i]) ? NAN
                   : v < tb->lo[i]              ? tb->lo[i] - v
                   : v > tb->hi[i]              ? v - tb->hi[i]
                                                : 0;
        double rp = band > 0 && !isnan(tb->diff[i]) ? tb->diff[i] / band : NAN;
        double re = band > 0 && !isnan(e) && e > 0 ? e / band : NAN;
        if (rp < 1e-17)
            rp = 1e-17;
        ymax = rp > ymax ? rp : ymax;
        any_out |= !isnan(re);
        ymax = re > ymax ? re : ymax;
        fprintf(f, "%.17g %.17g %.17g %.17g %d %.17g %.17g\n", c->time[i], v,
                tb->band_lo[i], tb->band_hi[i], tb->fail[i], rp, re);
    }
    st |= fclose(f);
    f = fopen(script, "w");
    if (f == NULL)
        return -1;
    if (svg)
        fprintf(f, "set terminal svg size 1000,720 font 'sans,11' "
                   "background rgb 'white'\n");
    else
        fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                   "  set terminal pngcairo size 1200,900\n"
                   "} else {\n"
                   "  set terminal png size 1200,900\n"
                   "}\n");
    fprintf(f, "set output ");
    gp_quote(f, tmp_out);
    fprintf(f, "\nset datafile missing 'nan'\n");
    /* one time axis for both panels: the candidate's span */
    if (x1 > x0)
        fprintf(f, "set xrange [%.17g:%.17g]\n", x0, x1);
    fprintf(f, "set title ");
    {
        char title[512];
        snprintf(title, sizeof title, "%s: %s (%ld outside the tube)",
                 s->model->name, name, (long)tb->nfailed);
        gp_quote(f, title);
    }
    fprintf(f, " noenhanced\nset ylabel ");
    gp_quote(f, name);
    fprintf(f, " noenhanced\nset key outside bottom center horizontal\n"
               "set grid\nset multiplot layout 2,1\n"
               "set lmargin 12\nset rmargin 4\nset format x ''\n");
    event_arrows(f, s, seen);
    fprintf(f, "plot ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:3:4 with filledcurves fillcolor rgb '#c6dbef' "
               "title 'allowed band', \\\n  ");
    gp_quote(f, ref_path);
    fprintf(f, " using 1:2 with lines linecolor rgb 'black' title "
               "'reference', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:2 with linespoints pointtype 7 pointsize 0.4 "
               "linecolor rgb '#2171b5' title 'candidate'");
    /* a series with no point would make gnuplot warn: drawn only when
       a row fails */
    if (tb->nfailed > 0) {
        fprintf(f, ", \\\n  ");
        gp_quote(f, cand_path);
        fprintf(f, " using 1:($5 > 0 ? $2 : 1/0) with points pointtype 2 "
                   "pointsize 2 linecolor rgb 'red' title 'outside'");
    }
    event_keys(f, seen);
    /* the second panel: the error over the band allowed, log scale */
    fprintf(f,
            "\nunset title\nset format x '%%g'\nset xlabel 'time'\n"
            "set logscale y\nset format y '10^{%%L}'\n"
            "set ylabel 'error / band allowed'\n"
            "set yrange [1e-17:%.3g]\n",
            isfinite(ymax) ? 10 * ymax : 1e300);
    fprintf(f, "plot 1 with lines linecolor rgb '#e31a1c' dashtype 2 "
               "title 'band allowed (1)', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:6 with points pointtype 7 pointsize 0.4 "
               "linecolor rgb '#2171b5' title '|candidate - reference(t)| "
               "/ band (0 at 1e-17)'");
    if (any_out) {
        fprintf(f, ", \\\n  ");
        gp_quote(f, cand_path);
        fprintf(f, " using 1:7 with points pointtype 2 pointsize 1.5 "
                   "linecolor rgb 'red' title 'out of the reference range "
                   "/ band'");
    }
    fprintf(f, "\nunset multiplot\n");
    st |= fclose(f);
    if (st == 0)
        st = run_gnuplot(script);
    if (st == 0) {
        /* never renamed over a device, FIFO or symlink (outfile.c) */
        if (hdo_outfile_copy(out, tmp_out, err) != 0)
            st = -2;
    }
    remove(tmp_out);
    remove(ref_path);
    remove(cand_path);
    remove(script);
    return st;
}

int
hdo_check_plot_available(void)
{
    return on_path("gnuplot");
}

int
hdo_check_plot(hdo_check_t s, const char *png_path, hdo_error_t *err)
{
    char dir[] = "/tmp/hdo-check-XXXXXX";
    size_t len = strlen(png_path), stem = len;
    int st = 0;
    hdo_error_clear(err);
    if (stem >= 4 && strcmp(png_path + stem - 4, ".png") == 0)
        stem -= 4;
    if (mkdtemp(dir) == NULL)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0,
                             "cannot make a temporary folder: %s",
                             strerror(errno));
    for (slong j = 0; j < s->nvar && st == 0; j++) {
        const char *name = s->cand->names[s->col[j]];
        size_t n = len + strlen(name) + 8;
        free(s->plot_file);
        s->plot_file = malloc(n);
        if (s->plot_file == NULL) {
            st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
            break;
        }
        if (s->nvar == 1)
            snprintf(s->plot_file, n, "%s", png_path);
        else
            snprintf(s->plot_file, n, "%.*s-%s.png", (int)stem, png_path, name);
        st = plot_variable(s, j, dir, s->plot_file, 0, err);
        if (st == -1)
            hdo_error_set(err, HDO_ERR_IO, 0, 0,
                          "gnuplot could not draw the plot");
        if (st != 0) {
            st = err->status;
            err->file = s->plot_file;
        }
    }
    rmdir(dir);
    return st;
}

int
hdo_check_plot_svg(hdo_check_t s, slong j, const char *svg, hdo_error_t *err)
{
    char dir[] = "/tmp/hdo-check-XXXXXX";
    int st;
    hdo_error_clear(err);
    if (mkdtemp(dir) == NULL)
        return hdo_error_set(err, HDO_ERR_IO, 0, 0,
                             "cannot make a temporary folder: %s",
                             strerror(errno));
    st = plot_variable(s, j, dir, svg, 1, err);
    if (st == -1)
        st = hdo_error_set(err, HDO_ERR_IO, 0, 0,
                           "gnuplot could not draw the plot");
    else if (st != 0)
        st = err->status;
    rmdir(dir);
    return st;
}
