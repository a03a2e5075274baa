/* plot.c -- hdo check --plot: per variable the reference, the allowed
 * band and the candidate, the events, and the error against the band
 * (gnuplot) */
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

/* Draws variable j into png through files in dir: 0, -1 when gnuplot
   failed, -2 when the picture could not be written (err filled). */
static int
plot_variable(const hdo_check_t s, slong j, const char *dir, const char *png,
              hdo_error_t *err)
{
    char ref_path[4200], cand_path[4200], script[4200], tmp_png[4200];
    const hdo_tube_struct *tb = s->tube + j;
    const hdo_csv_struct *c = s->cand;
    const char *name = c->names[s->col[j]];
    FILE *f;
    int st = 0;
    snprintf(ref_path, sizeof ref_path, "%s/ref.dat", dir);
    snprintf(cand_path, sizeof cand_path, "%s/cand.dat", dir);
    snprintf(script, sizeof script, "%s/plot.gp", dir);
    snprintf(tmp_png, sizeof tmp_png, "%s/plot.png", dir);
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
        /* columns 6..8: the distance out of the reference range (signed)
           and the band allowed below and above it */
        double e = isnan(v) || isnan(tb->lo[i]) ? NAN
                   : v < tb->lo[i]              ? v - tb->lo[i]
                   : v > tb->hi[i]              ? v - tb->hi[i]
                                                : 0;
        fprintf(f, "%.17g %.17g %.17g %.17g %d %.17g %.17g %.17g\n", c->time[i],
                v, tb->band_lo[i], tb->band_hi[i], tb->fail[i], e,
                tb->band_lo[i] - tb->lo[i], tb->band_hi[i] - tb->hi[i]);
    }
    st |= fclose(f);
    f = fopen(script, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "  set terminal pngcairo size 1200,900\n"
               "} else {\n"
               "  set terminal png size 1200,900\n"
               "}\n");
    fprintf(f, "set output ");
    gp_quote(f, tmp_png);
    fprintf(f, "\nset datafile missing 'nan'\nset title ");
    {
        char title[512];
        snprintf(title, sizeof title, "%s: %s (%ld outside the tube)",
                 s->model->name, name, (long)tb->nfailed);
        gp_quote(f, title);
    }
    fprintf(f, " noenhanced\nset xlabel 'time'\nset ylabel ");
    gp_quote(f, name);
    fprintf(f, " noenhanced\nset key outside bottom center horizontal\n"
               "set grid\nset multiplot layout 2,1\n");
    /* the events: reference ones grey, missing ones red, the candidate's
       extra ones orange (at most 2000 lines) */
    for (slong k = 0, narrow = 0; k < s->match->n && narrow < 2000; k++) {
        const hdo_match *m = s->match->m + k;
        double te = m->ref >= 0 ? s->ref_ev->ev[m->ref].t_lo
                                : s->cand_ev->ev[m->cand].t_lo;
        const char *colour = m->verdict == HDO_MATCH_MISSING ? "#e31a1c"
                             : m->ref < 0                    ? "#ff7f00"
                                                             : "#969696";
        fprintf(f,
                "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead "
                "linecolor rgb '%s' dashtype 2\n",
                te, te, colour);
        narrow++;
    }
    fprintf(f, "plot ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:3:4 with filledcurves fillcolor rgb '#c6dbef' "
               "title 'allowed band', \\\n  ");
    gp_quote(f, ref_path);
    fprintf(f, " using 1:2 with lines linecolor rgb 'black' title "
               "'reference', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:2 with linespoints pointtype 7 pointsize 0.4 "
               "linecolor rgb '#2171b5' title 'candidate', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:($5 > 0 ? $2 : 1/0) with points pointtype 2 "
               "pointsize 2 linecolor rgb 'red' title 'outside'\n");
    /* the second panel: the error against the band allowed */
    fprintf(f, "unset title\nset ylabel 'error (out of the reference "
               "range)'\n");
    fprintf(f, "plot ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:7:8 with filledcurves fillcolor rgb '#c6dbef' "
               "title 'allowed', \\\n  ");
    gp_quote(f, cand_path);
    fprintf(f, " using 1:6 with linespoints pointtype 7 pointsize 0.4 "
               "linecolor rgb '#2171b5' title 'candidate error'\n"
               "unset multiplot\n");
    st |= fclose(f);
    if (st == 0)
        st = run_gnuplot(script);
    if (st == 0) {
        /* never renamed over a device, FIFO or symlink (outfile.c) */
        if (hdo_outfile_copy(png, tmp_png, err) != 0)
            st = -2;
    }
    remove(tmp_png);
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
        st = plot_variable(s, j, dir, s->plot_file, err);
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
