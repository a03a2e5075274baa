/* radau_schur.c -- the complex Schur form A = Q S Q^* of Radau IIA's
 * collocation matrix, in double, for the block form of the Newton matrix
 * (radau_block.c) */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "radau.h"

/* Why in double, by the QR algorithm.  Until D-105 the form came from
   A's eigenvectors (Arb's QR algorithm at 64 + 2 s bits), orthonormalised
   by Gram-Schmidt: the eigenvectors' conditioning (about 2^(2 s)) was
   paid in precision.  64 + 2 s bits cover it up to 50 stages only (Q S
   Q^* - A 2e-14 at 52 stages, 1e-11 at 64; from 66 stages S held NaNs,
   the block solve returned NaN and Van der Pol's step collapsed to
   1e-42 at 68 stages), and the route cost 9% of Van der Pol mu = 1000's
   instructions at 30 digits (24 stages), 19% at 60 (45 stages; 4.9e9 of
   26.1e9), 1 s of CPU at 64 stages.  Householder reduction to Hessenberg
   form and the complex QR algorithm with Wilkinson shifts are unitary
   transformations, backward stable: Q S Q^* = A to about s times
   double's rounding whatever the eigenvectors' conditioning (the
   eigenvalues on S's diagonal may be off, the product is not; the block
   solve needs the product), in milliseconds (3e-15 at 24 stages, 8e-14
   at 200; decisions.md D-105).  The result is checked
   (hdo_radau_schur_error). */

double
hdo_radau_schur_error(const double complex *Q, const double complex *S,
                      const double complex *T, const hdo_mat_t A, slong s)
{
    double err = 0;
    double complex *X = malloc((s * s + 1) * sizeof(double complex));
    HDO_ASSERT(X != NULL);
    /* X = S Q^*, then Q X - A and Q^* Q - I entry by entry; S T - I */
    for (slong k = 0; k < s; k++)
        for (slong j = 0; j < s; j++) {
            double complex a = 0;
            for (slong l = k; l < s; l++)
                a += S[k * s + l] * conj(Q[j * s + l]);
            X[k * s + j] = a;
        }
    for (slong i = 0; i < s; i++)
        for (slong j = 0; j < s; j++) {
            double complex a = 0, q = 0, u = 0;
            for (slong k = 0; k < s; k++) {
                a += Q[i * s + k] * X[k * s + j];
                q += conj(Q[k * s + i]) * Q[k * s + j];
                u += S[i * s + k] * T[k * s + j];
            }
            a -= mpfr_get_d(hdo_mat_entry(A, i, j), MPFR_RNDN);
            q -= i == j;
            u -= i == j;
            /* a NaN makes err NaN (fmax would drop it) */
            double ea = cabs(a), eq = cabs(q), eu = cabs(u);
            if (isnan(ea) || isnan(eq) || isnan(eu))
                err = NAN;
            else if (!isnan(err))
                err = fmax(err, fmax(ea, fmax(eq, eu)));
        }
    free(X);
    return err;
}

/* H := Q^* H Q for the unitary Householder reflection Q = I - 2 v v^* /
   |v|^2 acting on indices k..s-1 (v[k..s)), and Q_acc := Q_acc Q. */
static void
reflect(double complex *H, double complex *Qa, const double complex *v, slong k,
        slong s)
{
    double vn = 0;
    for (slong i = k; i < s; i++)
        vn += creal(v[i] * conj(v[i]));
    if (vn == 0)
        return;
    for (slong j = 0; j < s; j++) {
        double complex d = 0;
        for (slong i = k; i < s; i++)
            d += conj(v[i]) * H[i * s + j];
        d *= 2 / vn;
        for (slong i = k; i < s; i++)
            H[i * s + j] -= v[i] * d;
    }
    for (slong i = 0; i < s; i++) {
        double complex d = 0, e = 0;
        for (slong j = k; j < s; j++) {
            d += H[i * s + j] * v[j];
            e += Qa[i * s + j] * v[j];
        }
        d *= 2 / vn;
        e *= 2 / vn;
        for (slong j = k; j < s; j++) {
            H[i * s + j] -= d * conj(v[j]);
            Qa[i * s + j] -= e * conj(v[j]);
        }
    }
}

/* The rotation U = [conj(c) conj(g); -g c] of rows k, k+1 (columns
   from j0), U [x; y] = [r; 0] for c = x/r, g = y/r. */
static void
rotate_rows(double complex *H, slong s, slong k, slong j0, double complex c,
            double complex g)
{
    for (slong j = j0; j < s; j++) {
        double complex t1 = H[k * s + j], t2 = H[(k + 1) * s + j];
        H[k * s + j] = conj(c) * t1 + conj(g) * t2;
        H[(k + 1) * s + j] = -g * t1 + c * t2;
    }
}

/* M := M U^* on columns k, k+1, rows 0..i1. */
static void
rotate_cols(double complex *M, slong s, slong k, slong i1, double complex c,
            double complex g)
{
    for (slong i = 0; i <= i1; i++) {
        double complex t1 = M[i * s + k], t2 = M[i * s + k + 1];
        M[i * s + k] = t1 * c + t2 * g;
        M[i * s + k + 1] = -t1 * conj(g) + t2 * conj(c);
    }
}

/* A = Q S Q^* in double: Hessenberg form by Householder reflections,
   then the complex QR algorithm, one explicit Wilkinson shift a sweep
   (an exceptional shift every 10th sweep without deflation).  Returns
   0, or -1 when it does not converge within 100 s sweeps. */
static int
schur_double(double complex *Q, double complex *S, const hdo_mat_t A, slong s)
{
    double complex *H = S, *v = malloc((s + 1) * sizeof(double complex));
    double complex *cs = malloc(2 * (s + 1) * sizeof(double complex));
    HDO_ASSERT(v != NULL && cs != NULL);
    double norm = 0;
    for (slong i = 0; i < s; i++)
        for (slong j = 0; j < s; j++) {
            H[i * s + j] = mpfr_get_d(hdo_mat_entry(A, i, j), MPFR_RNDN);
            Q[i * s + j] = i == j;
            norm = fmax(norm, cabs(H[i * s + j]));
        }
    for (slong k = 0; k + 2 < s; k++) {
        double a = 0;
        for (slong i = k + 1; i < s; i++)
            a += creal(H[i * s + k] * conj(H[i * s + k]));
        a = sqrt(a);
        if (a == 0)
            continue;
        double complex x0 = H[(k + 1) * s + k];
        double complex alpha = -(x0 == 0 ? 1 : x0 / cabs(x0)) * a;
        for (slong i = k + 1; i < s; i++)
            v[i] = H[i * s + k];
        v[k + 1] -= alpha;
        reflect(H, Q, v, k + 1, s);
        for (slong i = k + 2; i < s; i++)
            H[i * s + k] = 0;
    }
    slong hi = s - 1, sweeps = 0, since = 0;
    int st = 0;
    while (hi > 0) {
        slong l = hi;
        for (; l > 0; l--) {
            double t = cabs(H[l * s + l]) + cabs(H[(l - 1) * s + l - 1]);
            if (t == 0)
                t = norm;
            if (cabs(H[l * s + l - 1]) <= DBL_EPSILON * t) {
                H[l * s + l - 1] = 0;
                break;
            }
        }
        if (l == hi) {
            hi--;
            since = 0;
            continue;
        }
        if (++sweeps > 100 * s) {
            st = -1;
            break;
        }
        /* the eigenvalue of the trailing 2 x 2 block nearer its last
           diagonal entry */
        double complex a = H[(hi - 1) * s + hi - 1], b = H[(hi - 1) * s + hi],
                       c = H[hi * s + hi - 1], d = H[hi * s + hi];
        double complex m = (a + d) / 2,
                       r = csqrt((a - d) * (a - d) / 4 + b * c);
        double complex mu = cabs(m + r - d) < cabs(m - r - d) ? m + r : m - r;
        if (++since % 10 == 0)
            mu = d + cabs(c);
        for (slong k = l; k <= hi; k++)
            H[k * s + k] -= mu;
        for (slong k = l; k < hi; k++) {
            double complex x = H[k * s + k], y = H[(k + 1) * s + k];
            double rr = hypot(cabs(x), cabs(y));
            double complex cc = rr == 0 ? 1 : x / rr, g = rr == 0 ? 0 : y / rr;
            cs[2 * k] = cc;
            cs[2 * k + 1] = g;
            rotate_rows(H, s, k, k, cc, g);
            H[(k + 1) * s + k] = 0;
        }
        for (slong k = l; k < hi; k++) {
            rotate_cols(H, s, k, k + 1, cs[2 * k], cs[2 * k + 1]);
            rotate_cols(Q, s, k, s - 1, cs[2 * k], cs[2 * k + 1]);
        }
        for (slong k = l; k <= hi; k++)
            H[k * s + k] += mu;
    }
    for (slong i = 0; i < s; i++)
        for (slong j = 0; j < i; j++)
            H[i * s + j] = 0;
    free(v);
    free(cs);
    return st;
}

/* T := S^-1, S upper triangular, by back substitution in double. */
static void
triangular_inverse(double complex *T, const double complex *S, slong s)
{
    for (slong j = 0; j < s; j++) {
        for (slong i = j + 1; i < s; i++)
            T[i * s + j] = 0;
        T[j * s + j] = 1 / S[j * s + j];
        for (slong i = j - 1; i >= 0; i--) {
            double complex a = 0;
            for (slong k = i + 1; k <= j; k++)
                a += S[i * s + k] * T[k * s + j];
            T[i * s + j] = -a / S[i * s + i];
        }
    }
}

int
hdo_radau_schur(_Complex double *Q, _Complex double *S, _Complex double *T,
                const hdo_mat_t A)
{
    slong s = A->rows;
    int ok = schur_double(Q, S, A, s) == 0;
    if (ok)
        triangular_inverse(T, S, s);
    return ok && hdo_radau_schur_error(Q, S, T, A, s) <= HDO_RADAU_SCHUR_TOL
               ? 0
               : -1;
}
