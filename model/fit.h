/* fit.h: least squares through measured points: a line (probe slopes, profile intercepts) and
 * non-negative costs of several terms (the CPU row kernel's). */
#ifndef CLS_MODEL_FIT_H
#define CLS_MODEL_FIT_H

#include <stddef.h>

/* The line y = a + b x of least squares over n >= 1 points (b = 0 when every x is equal).
 * *se (may be NULL) is the standard error of b (0 with fewer than three points); *rms (may be
 * NULL) the root-mean-square residual. */
void cls__fit_line(const double *x, const double *y, size_t n, double *a, double *b,
                   double *se, double *rms);

/* The k >= 1 coefficients b >= 0 of least squares y ~ X b over n rows (X row-major, n x k,
 * k <= 8): a coefficient that would come out negative is held at 0 and the others refitted.
 * Returns 0, or -1 when the columns left are linearly dependent (b is then all 0). */
int cls__fit_nonneg(const double *X, const double *y, size_t n, size_t k, double *b);

#endif /* CLS_MODEL_FIT_H */
