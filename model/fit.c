/* fit.c: least squares (model/fit.h). */
#include <math.h>

#include "fit.h"

void cls__fit_line(const double *x, const double *y, size_t n, double *a, double *b,
                   double *se, double *rms)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, ssr = 0, mx, my;
    for (size_t i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
    }
    mx = sx / (double)n;
    my = sy / (double)n;
    /* Centred sums: no cancellation between n*sum(xy) and sum(x)*sum(y). */
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    *b = sxx > 0 ? sxy / sxx : 0;
    *a = my - *b * mx;
    for (size_t i = 0; i < n; i++) {
        double r = y[i] - (*a + *b * x[i]);
        ssr += r * r;
    }
    if (se) *se = n > 2 && sxx > 0 ? sqrt(ssr / (double)(n - 2) / sxx) : 0;
    if (rms) *rms = sqrt(ssr / (double)n);
}

/* Solves the normal equations (X^T X) b = X^T y over the columns in use, by Gaussian elimination
 * with partial pivoting; -1 when a pivot vanishes. */
static int solve_normal(const double *X, const double *y, size_t n, size_t k, const int *use,
                        double *b)
{
    double a[8][9];
    size_t idx[8], m = 0;
    for (size_t j = 0; j < k; j++)
        if (use[j]) idx[m++] = j;
    for (size_t r = 0; r < m; r++) {
        for (size_t c = 0; c < m; c++) {
            double s = 0;
            for (size_t i = 0; i < n; i++) s += X[i * k + idx[r]] * X[i * k + idx[c]];
            a[r][c] = s;
        }
        double s = 0;
        for (size_t i = 0; i < n; i++) s += X[i * k + idx[r]] * y[i];
        a[r][m] = s;
    }
    double scale = 0;
    for (size_t r = 0; r < m; r++)
        if (a[r][r] > scale) scale = a[r][r];
    for (size_t c = 0; c < m; c++) {
        size_t p = c;
        for (size_t r = c + 1; r < m; r++)
            if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        if (!(fabs(a[p][c]) > 1e-12 * scale)) return -1;
        for (size_t q = 0; q <= m; q++) {
            double t = a[c][q];
            a[c][q] = a[p][q];
            a[p][q] = t;
        }
        for (size_t r = 0; r < m; r++) {
            if (r == c) continue;
            double f = a[r][c] / a[c][c];
            for (size_t q = c; q <= m; q++) a[r][q] -= f * a[c][q];
        }
    }
    for (size_t j = 0; j < k; j++) b[j] = 0;
    for (size_t r = 0; r < m; r++) b[idx[r]] = a[r][m] / a[r][r];
    return 0;
}

int cls__fit_nonneg(const double *X, const double *y, size_t n, size_t k, double *b)
{
    int use[8];
    if (k < 1 || k > 8) return -1;
    for (size_t j = 0; j < k; j++) use[j] = 1;
    /* at most k passes: each holds one more coefficient at 0 */
    for (size_t pass = 0; pass < k; pass++) {
        if (solve_normal(X, y, n, k, use, b) != 0) {
            for (size_t j = 0; j < k; j++) b[j] = 0;
            return -1;
        }
        size_t worst = k;
        for (size_t j = 0; j < k; j++)
            if (use[j] && b[j] < 0 && (worst == k || b[j] < b[worst])) worst = j;
        if (worst == k) return 0;
        use[worst] = 0;
        b[worst] = 0;
    }
    for (size_t j = 0; j < k; j++) b[j] = 0;
    return -1;
}
