/* complementarity.c -- hdo analyze's section on complementarity blocks:
 * per block its linear complementarity form, the relative degrees, the
 * leading-row matrix and whether it is a P-matrix, with a point of
 * non-uniqueness where it is not (docs/cli.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "util.h"

void
hdo_analysis_blocks(hdo_analysis_t a, hdo_model_struct *model)
{
    slong n = 0;
    for (slong m = 0; m < model->nmodes; m++)
        n += model->modes[m].nperp > 0 && model->modes[m].cp_mask == 0 &&
             model->modes[m].zmask == 0;
    a->blocks = calloc(n + 1, sizeof *a->blocks);
    HDO_ASSERT(a->blocks != NULL);
    for (slong m = 0; m < model->nmodes; m++) {
        const hdo_mode *mode = model->modes + m;
        if (mode->nperp == 0 || mode->cp_mask != 0 || mode->zmask != 0)
            continue;
        hdo_analysis_block *b = a->blocks + a->nblocks++;
        slong k = mode->nperp;
        b->mode = m;
        hdo_cp_form_init(&b->form);
        fmpq_init(b->minor);
        fmpq_init(b->gcoef);
        fmpq_mat_init(b->q, k, 1);
        fmpq_mat_init(b->z1, k, 1);
        fmpq_mat_init(b->z2, k, 1);
        b->p = b->gp = -1;
        if (hdo_cp_form_build(&b->form, model, m) != 0)
            continue;
        /* through locals: GCC 12 misjudges the size of the fields of a
           calloc'd array element (-Wstringop-overflow) */
        fmpq_t minor;
        ulong alpha;
        slong order;
        fmpq_init(minor);
        b->p = hdo_lcp_is_p_matrix(&alpha, minor, b->form.R);
        if (!b->p)
            b->witness =
                hdo_lcp_witness(b->q, b->z1, b->z2, b->form.R, alpha, minor);
        b->alpha = alpha;
        fmpq_swap(b->minor, minor);
        b->gp =
            hdo_lcp_is_p_series(&alpha, &order, minor, b->form.R, b->form.L);
        b->galpha = alpha;
        b->gorder = order;
        fmpq_swap(b->gcoef, minor);
        fmpq_clear(minor);
    }
}

void
hdo_analysis_active_set(char *buf, size_t n, const hdo_mode *mode)
{
    size_t len = 0;
    buf[0] = '\0';
    for (slong i = 0; i < mode->nperp && len + 1 < n; i++) {
        const hdo_perp *p = mode->perp + i;
        len += (size_t)snprintf(buf + len, n - len, "%s%s = 0", i ? ", " : "",
                                (mode->cp_mask >> i) & 1 ? p->btext : p->atext);
    }
}

void
hdo_analysis_blocks_clear(hdo_analysis_t a)
{
    for (slong i = 0; i < a->nblocks; i++) {
        hdo_analysis_block *b = a->blocks + i;
        hdo_cp_form_clear(&b->form);
        fmpq_clear(b->minor);
        fmpq_clear(b->gcoef);
        fmpq_mat_clear(b->q);
        fmpq_mat_clear(b->z1);
        fmpq_mat_clear(b->z2);
    }
    free(a->blocks);
    a->blocks = NULL;
    a->nblocks = 0;
}

static void
text_vec(FILE *out, const fmpq_mat_t v)
{
    fputc('(', out);
    for (slong i = 0; i < fmpq_mat_nrows(v); i++) {
        fputs(i ? ", " : "", out);
        fmpq_fprint(out, fmpq_mat_entry(v, i, 0));
    }
    fputc(')', out);
}

static void
text_rows(FILE *out, const ulong alpha, slong k)
{
    fputc('{', out);
    for (slong i = 0, first = 1; i < k; i++)
        if ((alpha >> i) & 1) {
            fprintf(out, "%s%ld", first ? "" : ", ", (long)i + 1);
            first = 0;
        }
    fputc('}', out);
}

void
hdo_analysis_blocks_text(FILE *out, hdo_model_t model, const hdo_analysis_t an)
{
    for (slong i = 0; i < an->nblocks; i++) {
        const hdo_analysis_block *b = an->blocks + i;
        const hdo_mode *mode = model->modes + b->mode;
        slong k = mode->nperp;
        fprintf(out, "complementarity block of mode %s (%ld condition%s)",
                mode->name, (long)k, k == 1 ? "" : "s");
        if (mode->pattern != NULL)
            fprintf(out, ", sign pattern %s", mode->pattern);
        fputs(":\n", out);
        for (slong j = 0; j < k; j++) {
            fprintf(out, "  %ld. %s (line %d)", (long)j + 1, mode->perp[j].text,
                    mode->perp[j].pos.line);
            if (b->p >= 0)
                fprintf(out, ": relative degree %ld", (long)b->form.reldeg[j]);
            fputc('\n', out);
        }
        if (b->p < 0) {
            fprintf(out,
                    "  not tested (no linear complementarity form: %s); the "
                    "run decides each point by its active sets\n\n",
                    b->form.why);
            continue;
        }
        fputs("  matrix D = dB/dA (exact):", out);
        for (slong r = 0; r < k; r++) {
            fputs(r ? "; " : " [", out);
            for (slong c = 0; c < k; c++) {
                fputs(c ? ", " : "", out);
                fmpq_fprint(out, fmpq_mat_entry(b->form.R, r, c));
            }
        }
        fputs("]\n", out);
        if (b->p) {
            fputs("  P-matrix: yes (every principal minor positive): the "
                  "complementarity problem at every point has one "
                  "solution\n",
                  out);
        } else {
            fputs("  P-matrix: no: the principal minor of rows ", out);
            text_rows(out, b->alpha, k);
            fputs(" is ", out);
            fmpq_fprint(out, b->minor);
            if (b->witness) {
                fputs("; at q = ", out);
                text_vec(out, b->q);
                fputs(" the problem q + D z has the two solutions z = ", out);
                text_vec(out, b->z1);
                fputs(" and ", out);
                text_vec(out, b->z2);
            }
            fputc('\n', out);
        }
        if (b->gp) {
            fputs("  transfer matrix G(s) = D + C (sI - A)^-1 B: a P-matrix "
                  "for all large s: a unique forward solution from every "
                  "consistent state\n\n",
                  out);
            continue;
        }
        fputs("  transfer matrix G(s) = D + C (sI - A)^-1 B: not a P-matrix "
              "for large s: its principal minor of rows ",
              out);
        text_rows(out, b->galpha, k);
        if (b->gorder < 0) {
            fputs(" vanishes identically", out);
        } else {
            fputs(" is ", out);
            fmpq_fprint(out, b->gcoef);
            fprintf(out, " s^-%ld + ...", (long)b->gorder);
        }
        fputs(": forward solutions need not be unique\n\n", out);
    }
}

static void
json_fmpq(FILE *out, const fmpq_t x)
{
    char *s = fmpq_get_str(NULL, 10, x);
    hdo_json_string(out, s);
    flint_free(s);
}

static void
json_rows(FILE *out, ulong alpha, slong k)
{
    fputc('[', out);
    for (slong j = 0, first = 1; j < k; j++)
        if ((alpha >> j) & 1) {
            fprintf(out, "%s%ld", first ? "" : ", ", (long)j + 1);
            first = 0;
        }
    fputc(']', out);
}

static void
json_vec(FILE *out, const fmpq_mat_t v)
{
    fputc('[', out);
    for (slong i = 0; i < fmpq_mat_nrows(v); i++) {
        fputs(i ? ", " : "", out);
        json_fmpq(out, fmpq_mat_entry(v, i, 0));
    }
    fputc(']', out);
}

void
hdo_analysis_blocks_json(FILE *out, hdo_model_t model, const hdo_analysis_t an)
{
    fputs("  \"complementarity\": [", out);
    for (slong i = 0; i < an->nblocks; i++) {
        const hdo_analysis_block *b = an->blocks + i;
        const hdo_mode *mode = model->modes + b->mode;
        slong k = mode->nperp;
        fputs(i ? ",\n    {\"mode\": " : "\n    {\"mode\": ", out);
        hdo_json_string(out, mode->name);
        fputs(", \"sign_pattern\": ", out);
        if (mode->pattern != NULL)
            hdo_json_string(out, mode->pattern);
        else
            fputs("null", out);
        fputs(", \"conditions\": [", out);
        for (slong j = 0; j < k; j++) {
            fprintf(out, "%s{\"text\": ", j ? ", " : "");
            hdo_json_string(out, mode->perp[j].text);
            fprintf(out, ", \"line\": %d, \"relative_degree\": ",
                    mode->perp[j].pos.line);
            if (b->p >= 0)
                fprintf(out, "%ld}", (long)b->form.reldeg[j]);
            else
                fputs("null}", out);
        }
        fputs("], \"p_matrix\": ", out);
        fputs(b->p < 0 ? "null" : b->p ? "true" : "false", out);
        if (b->p < 0) {
            fputs(", \"why_untested\": ", out);
            hdo_json_string(out, b->form.why);
            fputc('}', out);
            continue;
        }
        fputs(", \"matrix\": [", out);
        for (slong r = 0; r < k; r++) {
            fputs(r ? ", [" : "[", out);
            for (slong c = 0; c < k; c++) {
                fputs(c ? ", " : "", out);
                json_fmpq(out, fmpq_mat_entry(b->form.R, r, c));
            }
            fputc(']', out);
        }
        fputc(']', out);
        if (!b->p) {
            fputs(", \"minor_rows\": ", out);
            json_rows(out, b->alpha, k);
            fputs(", \"minor\": ", out);
            json_fmpq(out, b->minor);
            if (b->witness) {
                fputs(", \"witness\": {\"q\": ", out);
                json_vec(out, b->q);
                fputs(", \"z1\": ", out);
                json_vec(out, b->z1);
                fputs(", \"z2\": ", out);
                json_vec(out, b->z2);
                fputc('}', out);
            }
        }
        fprintf(out, ", \"transfer_p_matrix\": %s", b->gp ? "true" : "false");
        if (!b->gp) {
            fputs(", \"transfer_minor_rows\": ", out);
            json_rows(out, b->galpha, k);
            fprintf(out, ", \"transfer_minor_order\": %ld", (long)b->gorder);
            fputs(", \"transfer_minor_coefficient\": ", out);
            json_fmpq(out, b->gcoef);
        }
        fputc('}', out);
    }
    fputs(an->nblocks ? "\n  ],\n" : "],\n", out);
}
