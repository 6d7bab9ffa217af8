/* fit.c: the least-squares line (model/fit.h). */
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
