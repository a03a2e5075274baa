/* matv4.c -- candidates as MAT v4 result files (`dsres`), as OpenModelica
   and Dymola write them: Aclass (its fourth row binNormal or binTrans),
   name, description, dataInfo, data_1, data_2, in double or single
   precision.  The result becomes an hdo_csv_t as if the file were CSV:
   Time first, one value column per variable (data_1 columns, constants
   and parameters, held constant over time), repeated time rows at
   events; "line" numbers are the 1-based time points.

   MAT v4 is a sequence of matrices, each a fixed header of five 32-bit
   integers (type MOPT, rows, columns, imaginary flag, name length), the
   name with its NUL, then the elements column by column (the real part,
   then the imaginary one when the flag is set).  It is read here
   directly: libmatio, which hdo used before, pulled HDF5, libcurl, GnuTLS
   and Kerberos into every start of hdo, 18 of its 31 million
   instructions of start-up (issue 28). */
#include <math.h>
#include <stdint.h>
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

/* One matrix of the file, its elements as doubles, column-major (a
   char matrix holds the character codes). */
typedef struct {
    size_t dims[2];
    double *data; /* NULL when empty */
} mat4_var;

/* The file being read: its stream, byte order (1: big-endian) and
   size. */
typedef struct {
    FILE *f;
    int big;
    uint64_t size;
} mat4_file;

static uint32_t
get_u32(const unsigned char *p, int big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
                     (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[1] << 8 | p[0];
}

/* Element k of a buffer of elements of MAT v4 precision P (0 double, 1
   single, 2 int32, 3 int16, 4 uint16, 5 uint8) in the given byte
   order. */
static double
get_elem(const unsigned char *buf, size_t k, int P, int big)
{
    static const int size[6] = {8, 4, 4, 2, 2, 1};
    unsigned char b[8];
    int n = size[P];
    for (int i = 0; i < n; i++) /* to the machine's order (little) */
        b[i] = buf[k * n + (big ? n - 1 - i : i)];
    union {
        double d;
        float f;
        int32_t i32;
        int16_t i16;
        uint16_t u16;
        uint8_t u8;
    } u;
    memcpy(&u, b, (size_t)n);
    switch (P) {
    case 0:
        return u.d;
    case 1:
        return u.f;
    case 2:
        return u.i32;
    case 3:
        return u.i16;
    case 4:
        return u.u16;
    default:
        return u.u8;
    }
}

/* Reads the matrix called name (the first of that name, as libmatio
   did), from the start of the file.  0 and *v, 1 when there is none,
   HDO_ERR_INPUT or HDO_ERR_MEMORY with err set when the file is not MAT
   v4 as far as it goes to find it. */
static int
read_var(mat4_var *v, mat4_file *mf, const char *name, hdo_error_t *err)
{
    static const int size[6] = {8, 4, 4, 2, 2, 1};
    unsigned char h[20];
    uint64_t pos = 0;
    memset(v, 0, sizeof *v);
    if (fseek(mf->f, 0, SEEK_SET) != 0)
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "cannot read it as a MAT file");
    for (slong k = 1;; k++) {
        size_t got = fread(h, 1, sizeof h, mf->f);
        if (got == 0 && feof(mf->f))
            return 1; /* the end: no matrix of that name */
        if (got != sizeof h)
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "not a MAT v4 file: matrix %ld: its header "
                                 "is cut short",
                                 (long)k);
        if (k == 1) { /* the byte order: M = 0 little-, 1 big-endian */
            uint32_t le = get_u32(h, 0);
            mf->big = le >= 5000;
        }
        uint32_t type = get_u32(h, mf->big), rows = get_u32(h + 4, mf->big),
                 cols = get_u32(h + 8, mf->big),
                 imagf = get_u32(h + 12, mf->big),
                 namlen = get_u32(h + 16, mf->big);
        int M = (int)(type / 1000), O = (int)(type / 100 % 10),
            P = (int)(type / 10 % 10), T = (int)(type % 10);
        if (type >= 5000 || M != mf->big || O != 0 || P > 5 || T > 2 ||
            imagf > 1 || namlen == 0 || namlen > 65536 || rows > INT32_MAX ||
            cols > INT32_MAX)
            return hdo_error_set(
                err, HDO_ERR_INPUT, 0, 0,
                M > 1 && M < 5 && type < 5000
                    ? "not a MAT v4 file of IEEE numbers: matrix %ld has "
                      "number format %d (VAX or Cray)"
                    : "not a MAT v4 file: matrix %ld has a header that is "
                      "not MAT v4's (type %d)",
                (long)k, M > 1 && M < 5 ? M : (int)type);
        char *nm = malloc(namlen);
        if (nm == NULL)
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        if (fread(nm, 1, namlen, mf->f) != namlen || nm[namlen - 1] != '\0') {
            free(nm);
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "not a MAT v4 file: matrix %ld: its name is "
                                 "cut short or not terminated",
                                 (long)k);
        }
        uint64_t n = (uint64_t)rows * cols,
                 bytes = n * (uint64_t)size[P] * (imagf ? 2 : 1);
        pos += sizeof h + namlen;
        if (bytes > mf->size - pos) {
            free(nm);
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "not a MAT v4 file: matrix %ld (%lu x %lu) "
                                 "runs past the end of the file",
                                 (long)k, (unsigned long)rows,
                                 (unsigned long)cols);
        }
        int match = strcmp(nm, name) == 0;
        free(nm);
        if (!match) {
            pos += bytes;
            if (fseeko(mf->f, (off_t)pos, SEEK_SET) != 0)
                return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                     "cannot read it as a MAT file");
            continue;
        }
        if (T == 2 || imagf)
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "the matrix '%s' is %s, not a dsres "
                                 "matrix",
                                 name, T == 2 ? "sparse" : "complex");
        v->dims[0] = rows;
        v->dims[1] = cols;
        if (n == 0)
            return 0;
        unsigned char *buf = malloc((size_t)(n * size[P]));
        v->data = malloc((size_t)n * sizeof(double));
        if (buf == NULL || v->data == NULL) {
            free(buf);
            free(v->data);
            v->data = NULL;
            return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0,
                                 "out of memory: the matrix '%s' (%lu x %lu)",
                                 name, (unsigned long)rows,
                                 (unsigned long)cols);
        }
        if (fread(buf, size[P], (size_t)n, mf->f) != (size_t)n) {
            free(buf);
            free(v->data);
            v->data = NULL;
            return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                 "cannot read the matrix '%s'", name);
        }
        for (uint64_t i = 0; i < n; i++)
            v->data[i] = get_elem(buf, (size_t)i, P, mf->big);
        free(buf);
        return 0;
    }
}

static void
var_free(mat4_var *v)
{
    if (v != NULL) {
        free(v->data);
        free(v);
    }
}

/* Element (i, j) of a column-major matrix. */
static double
elem(const mat4_var *v, size_t i, size_t j)
{
    return v->data[i + j * v->dims[0]];
}

/* String k of a char matrix: row k (binNormal), or column k (binTrans),
   trailing blanks and NULs dropped. */
static char *
mat_string(const mat4_var *v, size_t k, int trans)
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

/* The matrix called name, or NULL with err set (*st the status). */
static mat4_var *
find(mat4_file *mf, const char *name, int required, int *st, hdo_error_t *err)
{
    mat4_var *v = malloc(sizeof *v);
    if (v == NULL) {
        *st = hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
        return NULL;
    }
    int r = read_var(v, mf, name, err);
    if (r < 0) {
        *st = r;
    } else if (r == 1) {
        if (required)
            *st =
                hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                              "not a dsres result file: no matrix '%s'", name);
    } else if (v->data == NULL) {
        if (required)
            *st = hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                                "the matrix '%s' is not a two-dimensional "
                                "matrix",
                                name);
    } else {
        return v;
    }
    var_free(v);
    return NULL;
}

int
hdo_csv_read_mat(hdo_csv_t csv, const char *path, hdo_error_t *err)
{
    mat4_file mf = {NULL, 0, 0};
    mat4_var *ac = NULL, *nm = NULL, *di = NULL, *d1 = NULL, *d2 = NULL;
    struct stat sb;
    char *kind = NULL;
    int trans, st = 0;
    size_t nnames, ntimes, nv2, nv1 = 0, tcol = 0;
    slong tk = -1;

    csv->file = strdup(path);
    if (err != NULL)
        err->file = csv->file;
    if (csv->file == NULL)
        return hdo_error_set(err, HDO_ERR_MEMORY, 0, 0, "out of memory");
    mf.f = fopen(path, "rb");
    if (mf.f == NULL || fstat(fileno(mf.f), &sb) != 0) {
        if (mf.f != NULL)
            fclose(mf.f);
        return hdo_error_set(err, HDO_ERR_INPUT, 0, 0,
                             "cannot read it as a MAT file");
    }
    mf.size = (uint64_t)sb.st_size;
    if ((ac = find(&mf, "Aclass", 1, &st, err)) == NULL ||
        (nm = find(&mf, "name", 1, &st, err)) == NULL ||
        (di = find(&mf, "dataInfo", 1, &st, err)) == NULL ||
        (d2 = find(&mf, "data_2", 1, &st, err)) == NULL)
        goto done;
    d1 = find(&mf, "data_1", 0, &st, err);
    if (st != 0)
        goto done;
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
    if (d1 != NULL)
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
    var_free(ac);
    var_free(nm);
    var_free(di);
    var_free(d1);
    var_free(d2);
    fclose(mf.f);
    return st;
}
