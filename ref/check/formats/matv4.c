/* matv4.c -- candidates as MAT v4 result files (`dsres`), as OpenModelica
   and Dymola write them, read with libmatio: Aclass (its fourth row
   binNormal or binTrans), name, description, dataInfo, data_1, data_2,
   in double or single precision.  The result becomes an hdo_csv_t as if
   the file were CSV: Time first, one value column per variable (data_1
   columns, constants and parameters, held constant over time), repeated
   time rows at events; "line" numbers are the 1-based time points. */
#include <math.h>
#include <matio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "formats.h"

int
hdo_is_mat4(const char *path)
{
    unsigned char h[26];
    struct stat sb;
    FILE *f;
    size_t n;
    /* only a regular file is peeked at: reading a FIFO would consume it */
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    n = fread(h, 1, sizeof h, f);
    fclose(f);
    /* a MAT v4 header of five 32-bit integers, then the first matrix's
       name: a dsres file starts with Aclass */
    return n == sizeof h && memcmp(h + 20, "Aclass", 6) == 0;
}

/* Element (i, j) of a column-major matrix of doubles, singles or
   32-bit integers (what dsres files hold; NaN for other types). */
static double
elem(const matvar_t *v, size_t i, size_t j)
{
    size_t k = i + j * v->dims[0];
    switch (v->data_type) {
    case MAT_T_DOUBLE:
        return ((const double *)v->data)[k];
    case MAT_T_SINGLE:
        return ((const float *)v->data)[k];
    case MAT_T_INT32:
        return ((const int32_t *)v->data)[k];
    case MAT_T_UINT8:
        return ((const uint8_t *)v->data)[k];
    case MAT_T_UINT16:
        return ((const uint16_t *)v->data)[k];
    case MAT_T_INT16:
        return ((const int16_t *)v->data)[k];
    default:
        return NAN;
    }
}

/* String k of a char matrix: row k (binNormal), or column k (binTrans),
   trailing blanks and NULs dropped. */
static char *
mat_string(const matvar_t *v, size_t k, int trans)
{
    size_t len = trans ? v->dims[0] : v->dims[1], n = 0;
    char *s = malloc(len + 1);
    if (s == NULL)
        return NULL;
    for (size_t j = 0; j < len; j++) {
        double c = trans ? elem(v, j, k) : elem(v, k, j);
        s[j] = c > 0 && c < 256 ? (char)(int)c : '\0';
    }
    s[len] = '\0';
    n = strlen(s);
    while (n > 0 && s[n - 1] == ' ')
        s[--n] = '\0';
    return s;
}

static matvar_t *
need(mat_t *mat, const char *name, hdo_error_t *err)
{
    matvar_t *v = Mat_VarRead(mat, name);
    if (v == NULL)
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "not a dsres result file: no matrix '%s'", name);
    else if (v->rank != 2 || v->data == NULL) {
        hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                      "the matrix '%s' is not a two-dimensional matrix", name);
        Mat_VarFree(v);
        v = NULL;
    }
    return v;
}

int
hdo_csv_read_mat(hdo_csv_t csv, const char *path, hdo_error_t *err)
{
    mat_t *mat;
    matvar_t *ac = NULL, *nm = NULL, *di = NULL, *d1 = NULL, *d2 = NULL;
    char *kind = NULL;
    int trans, st = 0;
    size_t nnames, ntimes, nv2, nv1 = 0, tcol = 0;
    slong tk = -1;

    csv->file = strdup(path);
    if (err != NULL)
        err->file = csv->file;
    if (csv->file == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    mat = Mat_Open(path, MAT_ACC_RDONLY);
    if (mat == NULL)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "cannot read it as a MAT file");
    if ((ac = need(mat, "Aclass", err)) == NULL ||
        (nm = need(mat, "name", err)) == NULL ||
        (di = need(mat, "dataInfo", err)) == NULL ||
        (d2 = need(mat, "data_2", err)) == NULL) {
        st = HDO_ERR_INPUT;
        goto done;
    }
    d1 = Mat_VarRead(mat, "data_1");
    kind = ac->dims[0] >= 4 ? mat_string(ac, 3, 0) : NULL;
    if (kind == NULL ||
        (strcmp(kind, "binNormal") != 0 && strcmp(kind, "binTrans") != 0)) {
        st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                           "the fourth row of Aclass must be binNormal or "
                           "binTrans, found '%s'",
                           kind != NULL ? kind : "");
        goto done;
    }
    trans = strcmp(kind, "binTrans") == 0;
    nnames = trans ? nm->dims[1] : nm->dims[0];
    if ((trans ? di->dims[1] : di->dims[0]) != nnames ||
        (trans ? di->dims[0] : di->dims[1]) < 2) {
        st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                           "dataInfo does not describe the %zu names", nnames);
        goto done;
    }
    ntimes = trans ? d2->dims[1] : d2->dims[0];
    nv2 = trans ? d2->dims[0] : d2->dims[1];
    if (d1 != NULL && d1->rank == 2 && d1->data != NULL)
        nv1 = trans ? d1->dims[0] : d1->dims[1];
    if (ntimes == 0 || nv2 == 0) {
        st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                           "data_2 holds no time point");
        goto done;
    }
    csv->names = calloc(nnames + 1, sizeof(char *));
    csv->name_col = calloc(nnames + 1, sizeof(int));
    if (csv->names == NULL || csv->name_col == NULL) {
        st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        goto done;
    }
    /* which name is the time (dataInfo(1) = 0, the abscissa), and the
       value columns */
    {
        slong *src = calloc(nnames + 1, sizeof(slong));
        slong *which = calloc(nnames + 1, sizeof(slong));
        if (src == NULL || which == NULL) {
            free(src);
            free(which);
            st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
            goto done;
        }
        for (size_t k = 0; k < nnames && st == 0; k++) {
            double m = trans ? elem(di, 0, k) : elem(di, k, 0);
            double c = trans ? elem(di, 1, k) : elem(di, k, 1);
            char *s = mat_string(nm, k, trans);
            size_t avail = m == 2 ? nv2 : nv1;
            if (s == NULL) {
                st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
                break;
            }
            if (m == 0 || (k == 0 && (strcmp(s, "Time") == 0 ||
                                      strcmp(s, "time") == 0))) {
                free(s);
                if (tk < 0)
                    tk = (slong)k;
                continue;
            }
            if ((m != 1 && m != 2) || c == 0 || fabs(c) > (double)avail ||
                c != floor(c)) {
                st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                   "dataInfo of '%s': matrix %g, column %g "
                                   "(data_%g has %zu)",
                                   s, m, c, m, avail);
                free(s);
                break;
            }
            for (slong q = 0; q < csv->ncols && st == 0; q++)
                if (strcmp(csv->names[q], s) == 0)
                    st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                       "the name '%s' appears twice", s);
            if (st) {
                free(s);
                break;
            }
            which[csv->ncols] = (slong)m;
            src[csv->ncols] = (slong)c;
            csv->name_col[csv->ncols] = (int)k + 1;
            csv->names[csv->ncols++] = s;
        }
        if (st == 0 && tk < 0)
            st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                               "no time (abscissa) among the names");
        if (st == 0) {
            /* the time's column of data_2 (1 when dataInfo leaves it 0) */
            double c =
                trans ? elem(di, 1, (size_t)tk) : elem(di, (size_t)tk, 1);
            tcol =
                c >= 1 && c <= (double)nv2 && c == floor(c) ? (size_t)c - 1 : 0;
        }
        if (st == 0) {
            size_t nc = (size_t)(csv->ncols > 0 ? csv->ncols : 1);
            csv->time = malloc(ntimes * sizeof(double));
            csv->values = malloc(ntimes * nc * sizeof(double));
            csv->present = malloc(ntimes * nc);
            csv->mode = malloc(ntimes * sizeof(slong));
            csv->line = malloc(ntimes * sizeof(int));
            csv->mode_cell_col = calloc(ntimes, sizeof(int));
            if (csv->time == NULL || csv->values == NULL ||
                csv->present == NULL || csv->mode == NULL ||
                csv->line == NULL || csv->mode_cell_col == NULL)
                st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                   "out of memory: %zu time points", ntimes);
        }
        for (size_t i = 0; st == 0 && i < ntimes; i++) {
            double t = trans ? elem(d2, tcol, i) : elem(d2, i, tcol);
            if (!isfinite(t) || (i > 0 && t < csv->time[i - 1])) {
                st = hdo_error_set(err, HDO_ERR_INPUT, (int)i + 1, 0,
                                   "time point %zu: %.17g %s", i + 1, t,
                                   isfinite(t) ? "goes backwards"
                                               : "is not finite");
                break;
            }
            csv->time[i] = t;
            csv->mode[i] = -1;
            csv->line[i] = i + 1 < 0x7fffffff ? (int)(i + 1) : 0x7fffffff;
            for (slong q = 0; q < csv->ncols; q++) {
                size_t c = (size_t)labs(src[q]) - 1;
                double x = which[q] == 2
                               ? (trans ? elem(d2, c, i) : elem(d2, i, c))
                               : (trans ? elem(d1, c, 0) : elem(d1, 0, c));
                csv->values[i * (size_t)csv->ncols + (size_t)q] =
                    src[q] < 0 ? -x : x;
                csv->present[i * (size_t)csv->ncols + (size_t)q] = 1;
            }
            csv->nrows++;
        }
        csv->alloc = csv->nrows;
        free(src);
        free(which);
    }
    csv->header_line = 0;
    csv->sep = 0;
done:
    free(kind);
    if (ac != NULL)
        Mat_VarFree(ac);
    if (nm != NULL)
        Mat_VarFree(nm);
    if (di != NULL)
        Mat_VarFree(di);
    if (d1 != NULL)
        Mat_VarFree(d1);
    if (d2 != NULL)
        Mat_VarFree(d2);
    Mat_Close(mat);
    return st;
}
