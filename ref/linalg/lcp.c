/* lcp.c -- linear complementarity problems in exact rational arithmetic:
 * enumeration of the index sets, Lemke's method with the lexicographic
 * rule, the P-matrix test and a point where a non-P matrix's problem has
 * two solutions (docs/decisions.md D-086) */
#include <stdlib.h>
#include <flint/fmpq_mat.h>
#include <flint/fmpz_poly_mat.h>
#include "linalg.h"
#include "status.h"

/* The principal submatrix M[alpha, alpha] and the vector -q[alpha] (bit i
   of alpha: row and column i), k = |alpha| rows. */
static void
principal(fmpq_mat_t A, fmpq_mat_t b, const fmpq_mat_t M, const fmpq_mat_t q,
          ulong alpha)
{
    slong m = fmpq_mat_nrows(M), r = 0;
    for (slong i = 0; i < m; i++) {
        if (!((alpha >> i) & 1))
            continue;
        slong c = 0;
        for (slong j = 0; j < m; j++)
            if ((alpha >> j) & 1)
                fmpq_set(fmpq_mat_entry(A, r, c++), fmpq_mat_entry(M, i, j));
        if (q != NULL)
            fmpq_neg(fmpq_mat_entry(b, r, 0), fmpq_mat_entry(q, i, 0));
        r++;
    }
}

static slong
popcount(ulong x)
{
    slong n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* w = q + M z. */
static void
lcp_w(fmpq_mat_t w, const fmpq_mat_t M, const fmpq_mat_t q, const fmpq_mat_t z)
{
    fmpq_mat_mul(w, M, z);
    fmpq_mat_add(w, w, q);
}

int
hdo_lcp_is_solution(const fmpq_mat_t M, const fmpq_mat_t q, const fmpq_mat_t z)
{
    slong m = fmpq_mat_nrows(M);
    fmpq_mat_t w;
    fmpq_mat_init(w, m, 1);
    lcp_w(w, M, q, z);
    int ok = 1;
    for (slong i = 0; i < m && ok; i++) {
        const fmpq *zi = fmpq_mat_entry(z, i, 0), *wi = fmpq_mat_entry(w, i, 0);
        ok = fmpq_sgn(zi) >= 0 && fmpq_sgn(wi) >= 0 &&
             (fmpq_is_zero(zi) || fmpq_is_zero(wi));
    }
    fmpq_mat_clear(w);
    return ok;
}

slong
hdo_lcp_enumerate(fmpq_mat_t z, ulong *set, int *continuum, const fmpq_mat_t M,
                  const fmpq_mat_t q)
{
    slong m = fmpq_mat_nrows(M), count = 0;
    HDO_ASSERT(m <= HDO_LCP_MAX_ENUM && fmpq_mat_ncols(M) == m);
    fmpq_mat_t cand, first;
    fmpq_mat_init(cand, m, 1);
    fmpq_mat_init(first, m, 1);
    *continuum = 0;
    for (ulong alpha = 0; alpha < ((ulong)1 << m); alpha++) {
        slong k = popcount(alpha);
        fmpq_mat_zero(cand);
        if (k > 0) {
            fmpq_mat_t A, b, x;
            fmpq_mat_init(A, k, k);
            fmpq_mat_init(b, k, 1);
            fmpq_mat_init(x, k, 1);
            principal(A, b, M, q, alpha);
            int regular = fmpq_mat_solve(x, A, b);
            if (!regular) {
                /* a singular block: solutions, if any, may form a
                   continuum; whether the system is consistent at all */
                fmpq_mat_t Ab;
                fmpq_mat_init(Ab, k, k + 1);
                for (slong i = 0; i < k; i++) {
                    for (slong j = 0; j < k; j++)
                        fmpq_set(fmpq_mat_entry(Ab, i, j),
                                 fmpq_mat_entry(A, i, j));
                    fmpq_set(fmpq_mat_entry(Ab, i, k), fmpq_mat_entry(b, i, 0));
                }
                fmpq_mat_t R;
                fmpq_mat_init(R, k, k + 1);
                slong rank = fmpq_mat_rref(R, Ab);
                int consistent = 1;
                if (rank > 0) {
                    /* the last nonzero row's pivot is not in column k */
                    slong j = 0;
                    while (j <= k &&
                           fmpq_is_zero(fmpq_mat_entry(R, rank - 1, j)))
                        j++;
                    consistent = j < k;
                }
                *continuum |= consistent;
                fmpq_mat_clear(R);
                fmpq_mat_clear(Ab);
            } else {
                slong r = 0;
                for (slong i = 0; i < m; i++)
                    if ((alpha >> i) & 1)
                        fmpq_set(fmpq_mat_entry(cand, i, 0),
                                 fmpq_mat_entry(x, r++, 0));
            }
            fmpq_mat_clear(A);
            fmpq_mat_clear(b);
            fmpq_mat_clear(x);
            if (!regular)
                continue;
        }
        if (!hdo_lcp_is_solution(M, q, cand))
            continue;
        /* a degenerate solution (z_i = w_i = 0) is found from several
           index sets: count it once */
        if (count > 0 && fmpq_mat_equal(cand, first))
            continue;
        if (count == 0) {
            fmpq_mat_set(first, cand);
            if (set != NULL)
                *set = alpha;
        }
        count++;
    }
    if (z != NULL && count > 0)
        fmpq_mat_set(z, first);
    fmpq_mat_clear(cand);
    fmpq_mat_clear(first);
    return count;
}

/* Lemke's method.  The tableau holds w - M z - d z0 = q with d = (1, ..,
   1): columns 0..m-1 are w, m..2m-1 are z, 2m is z0, 2m+1 the right-hand
   side; basis[i] is the variable of row i.  Ties in the ratio test are
   broken lexicographically by the rows of B^-1 (the columns of w, the
   initial basis), which makes every basis visited distinct and so
   rules out cycling (Cottle, Pang and Stone, The Linear Complementarity
   Problem, 4.9). */
int
hdo_lcp_lemke(fmpq_mat_t z, slong *npivots, const fmpq_mat_t M,
              const fmpq_mat_t q, slong max_pivots)
{
    slong m = fmpq_mat_nrows(M), cols = 2 * m + 2, rhs = 2 * m + 1;
    fmpq_mat_zero(z);
    *npivots = 0;
    slong imin = -1;
    for (slong i = 0; i < m; i++)
        if (fmpq_sgn(fmpq_mat_entry(q, i, 0)) < 0 &&
            (imin < 0 || fmpq_cmp(fmpq_mat_entry(q, i, 0),
                                  fmpq_mat_entry(q, imin, 0)) <= 0))
            imin = i; /* the last of tied minima: the rows (q_i - q_r,
                         e_i - e_r) stay lexicographically positive */
    if (imin < 0)
        return 0; /* q >= 0: z = 0 */
    fmpq_mat_t T;
    fmpq_mat_init(T, m, cols);
    slong *basis = malloc(m * sizeof *basis);
    HDO_ASSERT(basis != NULL);
    for (slong i = 0; i < m; i++) {
        fmpq_one(fmpq_mat_entry(T, i, i));
        for (slong j = 0; j < m; j++)
            fmpq_neg(fmpq_mat_entry(T, i, m + j), fmpq_mat_entry(M, i, j));
        fmpq_set_si(fmpq_mat_entry(T, i, 2 * m), -1, 1);
        fmpq_set(fmpq_mat_entry(T, i, rhs), fmpq_mat_entry(q, i, 0));
        basis[i] = i;
    }
    fmpq_t piv, f, a, b;
    fmpq_init(piv);
    fmpq_init(f);
    fmpq_init(a);
    fmpq_init(b);
    slong enter = 2 * m, row = imin;
    int status = HDO_LCP_CAP;
    for (slong it = 0; it < max_pivots; it++) {
        if (it > 0) {
            /* the ratio test on the entering column, lexicographic */
            row = -1;
            for (slong i = 0; i < m; i++) {
                const fmpq *ai = fmpq_mat_entry(T, i, enter);
                if (fmpq_sgn(ai) <= 0)
                    continue;
                if (row < 0) {
                    row = i;
                    continue;
                }
                const fmpq *ar = fmpq_mat_entry(T, row, enter);
                int cmp = 0;
                for (slong j = -1; j < m && cmp == 0; j++) {
                    slong col = j < 0 ? rhs : j;
                    fmpq_div(a, fmpq_mat_entry(T, i, col), ai);
                    fmpq_div(b, fmpq_mat_entry(T, row, col), ar);
                    cmp = fmpq_cmp(a, b);
                }
                if (cmp < 0)
                    row = i;
            }
            if (row < 0) {
                status = HDO_LCP_RAY;
                break;
            }
        }
        /* pivot on (row, enter) */
        fmpq_set(piv, fmpq_mat_entry(T, row, enter));
        for (slong j = 0; j < cols; j++)
            fmpq_div(fmpq_mat_entry(T, row, j), fmpq_mat_entry(T, row, j), piv);
        for (slong i = 0; i < m; i++) {
            if (i == row || fmpq_is_zero(fmpq_mat_entry(T, i, enter)))
                continue;
            fmpq_set(f, fmpq_mat_entry(T, i, enter));
            for (slong j = 0; j < cols; j++) {
                fmpq_mul(a, f, fmpq_mat_entry(T, row, j));
                fmpq_sub(fmpq_mat_entry(T, i, j), fmpq_mat_entry(T, i, j), a);
            }
        }
        slong leave = basis[row];
        basis[row] = enter;
        (*npivots)++;
        if (leave == 2 * m) {
            status = 0;
            break;
        }
        /* the complement of the variable that left enters */
        enter = leave < m ? leave + m : leave - m;
    }
    if (status == 0)
        for (slong i = 0; i < m; i++)
            if (basis[i] >= m && basis[i] < 2 * m)
                fmpq_set(fmpq_mat_entry(z, basis[i] - m, 0),
                         fmpq_mat_entry(T, i, rhs));
    fmpq_clear(piv);
    fmpq_clear(f);
    fmpq_clear(a);
    fmpq_clear(b);
    free(basis);
    fmpq_mat_clear(T);
    return status;
}

int
hdo_lcp_is_p_matrix(ulong *alpha, fmpq_t minor, const fmpq_mat_t M)
{
    slong m = fmpq_mat_nrows(M);
    HDO_ASSERT(m <= HDO_LCP_MAX_ENUM && fmpq_mat_ncols(M) == m);
    /* by size, so that the set reported is a smallest one: its proper
       principal minors are all positive */
    for (slong k = 1; k <= m; k++)
        for (ulong s = 1; s < ((ulong)1 << m); s++) {
            if (popcount(s) != k)
                continue;
            fmpq_mat_t A;
            fmpq_mat_init(A, k, k);
            principal(A, NULL, M, NULL, s);
            fmpq_mat_det(minor, A);
            fmpq_mat_clear(A);
            if (fmpq_sgn(minor) <= 0) {
                *alpha = s;
                return 0;
            }
        }
    *alpha = 0;
    fmpq_one(minor);
    return 1;
}

/* A sign-reversing vector x (x_i (M x)_i <= 0 for all i, x != 0) from
   the set alpha whose principal minor d is <= 0: a null vector of the
   block when d = 0, else x = M_aa^-1 s for a sign vector s with
   x_i s_i <= 0 (tried in turn).  1 when found. */
static int
sign_reversing(fmpq_mat_t x, const fmpq_mat_t M, ulong alpha, const fmpq_t d)
{
    slong m = fmpq_mat_nrows(M), k = popcount(alpha);
    fmpq_mat_t A, y, s;
    fmpq_mat_init(A, k, k);
    fmpq_mat_init(y, k, 1);
    fmpq_mat_init(s, k, 1);
    principal(A, NULL, M, NULL, alpha);
    int found = 0;
    if (fmpq_is_zero(d)) {
        fmpq_mat_t R;
        fmpq_mat_init(R, k, k);
        slong rank = fmpq_mat_rref(R, A);
        /* the first free column c: y_c = 1, y_pivot(r) = -R[r][c] */
        slong *pivot = malloc((k + 1) * sizeof *pivot), c = -1;
        HDO_ASSERT(pivot != NULL);
        for (slong r = 0, j = 0; r < rank; r++) {
            while (fmpq_is_zero(fmpq_mat_entry(R, r, j)))
                j++;
            pivot[r] = j++;
        }
        for (slong j = 0, r = 0; j < k && c < 0; j++) {
            if (r < rank && pivot[r] == j)
                r++;
            else
                c = j;
        }
        HDO_ASSERT(c >= 0);
        fmpq_one(fmpq_mat_entry(y, c, 0));
        for (slong r = 0; r < rank; r++)
            fmpq_neg(fmpq_mat_entry(y, pivot[r], 0), fmpq_mat_entry(R, r, c));
        free(pivot);
        fmpq_mat_clear(R);
        found = 1;
    } else {
        for (ulong sg = 0; sg < ((ulong)1 << k) && !found; sg++) {
            for (slong i = 0; i < k; i++)
                fmpq_set_si(fmpq_mat_entry(s, i, 0), (sg >> i) & 1 ? -1 : 1, 1);
            fmpq_mat_solve(y, A, s);
            found = 1;
            for (slong i = 0; i < k && found; i++)
                found = fmpq_sgn(fmpq_mat_entry(y, i, 0)) *
                            fmpq_sgn(fmpq_mat_entry(s, i, 0)) <=
                        0;
        }
    }
    fmpq_mat_zero(x);
    for (slong i = 0, r = 0; i < m; i++)
        if ((alpha >> i) & 1)
            fmpq_set(fmpq_mat_entry(x, i, 0), fmpq_mat_entry(y, r++, 0));
    fmpq_mat_clear(A);
    fmpq_mat_clear(y);
    fmpq_mat_clear(s);
    return found;
}

int
hdo_lcp_witness(fmpq_mat_t q, fmpq_mat_t z1, fmpq_mat_t z2, const fmpq_mat_t M,
                ulong alpha, const fmpq_t minor)
{
    slong m = fmpq_mat_nrows(M);
    fmpq_mat_t x, u;
    fmpq_mat_init(x, m, 1);
    fmpq_mat_init(u, m, 1);
    int found = sign_reversing(x, M, alpha, minor);
    if (found) {
        /* z1 = x+, z2 = x-: w1 = (M x)+ and w2 = (M x)- with q = (M x)+
           - M x+; both are complementary since x_i (M x)_i <= 0 */
        fmpq_mat_mul(u, M, x);
        for (slong i = 0; i < m; i++) {
            const fmpq *xi = fmpq_mat_entry(x, i, 0);
            if (fmpq_sgn(xi) > 0) {
                fmpq_set(fmpq_mat_entry(z1, i, 0), xi);
                fmpq_zero(fmpq_mat_entry(z2, i, 0));
            } else {
                fmpq_zero(fmpq_mat_entry(z1, i, 0));
                fmpq_neg(fmpq_mat_entry(z2, i, 0), xi);
            }
            const fmpq *ui = fmpq_mat_entry(u, i, 0);
            if (fmpq_sgn(ui) > 0)
                fmpq_set(fmpq_mat_entry(q, i, 0), ui);
            else
                fmpq_zero(fmpq_mat_entry(q, i, 0));
        }
        fmpq_mat_mul(u, M, z1);
        fmpq_mat_sub(q, q, u);
        /* checked, not trusted */
        found = hdo_lcp_is_solution(M, q, z1) && hdo_lcp_is_solution(M, q, z2);
    }
    fmpq_mat_clear(x);
    fmpq_mat_clear(u);
    return found;
}

int
hdo_lcp_is_p_series(ulong *alpha, slong *order, fmpq_t coef,
                    const fmpq_mat_struct *R, slong L)
{
    slong m = fmpq_mat_nrows(R), ok = 1;
    HDO_ASSERT(m <= HDO_LCP_MAX_ENUM);
    /* one denominator for every coefficient: scaling a k x k minor by
       den^k > 0 keeps its signs */
    fmpz_t den, c;
    fmpz_init(den);
    fmpz_init(c);
    fmpz_one(den);
    for (slong l = 0; l <= L; l++)
        for (slong i = 0; i < m; i++)
            for (slong j = 0; j < m; j++)
                fmpz_lcm(den, den, fmpq_denref(fmpq_mat_entry(R + l, i, j)));
    fmpz_poly_t det;
    fmpz_poly_init(det);
    *alpha = 0;
    *order = 0;
    fmpq_one(coef);
    for (slong k = 1; k <= m && ok; k++)
        for (ulong s = 1; s < ((ulong)1 << m) && ok; s++) {
            if (popcount(s) != k)
                continue;
            fmpz_poly_mat_t G;
            fmpz_poly_mat_init(G, k, k);
            for (slong i = 0, r = 0; i < m; i++) {
                if (!((s >> i) & 1))
                    continue;
                for (slong j = 0, q = 0; j < m; j++) {
                    if (!((s >> j) & 1))
                        continue;
                    for (slong l = 0; l <= L; l++) {
                        const fmpq *x = fmpq_mat_entry(R + l, i, j);
                        fmpz_divexact(c, den, fmpq_denref(x));
                        fmpz_mul(c, c, fmpq_numref(x));
                        fmpz_poly_set_coeff_fmpz(fmpz_poly_mat_entry(G, r, q),
                                                 l, c);
                    }
                    q++;
                }
                r++;
            }
            fmpz_poly_mat_det(det, G);
            fmpz_poly_mat_clear(G);
            /* the first coefficient up to order L (beyond it the minor's
               series is not known from R[0 .. L]) */
            slong o = 0, len = fmpz_poly_length(det);
            while (o < len && o <= L && fmpz_is_zero(det->coeffs + o))
                o++;
            if (o >= len || o > L) {
                ok = 0;
                *alpha = s;
                *order = -1;
                fmpq_zero(coef);
            } else if (fmpz_sgn(det->coeffs + o) < 0) {
                ok = 0;
                *alpha = s;
                *order = o;
                fmpz_pow_ui(c, den, (ulong)k);
                fmpq_set_fmpz_frac(coef, det->coeffs + o, c);
            }
        }
    fmpz_poly_clear(det);
    fmpz_clear(den);
    fmpz_clear(c);
    return (int)ok;
}
