/* fit.h: the least-squares line through measured points (probe slopes, profile intercepts). */
#ifndef CLS_MODEL_FIT_H
#define CLS_MODEL_FIT_H

#include <stddef.h>

/* The line y = a + b x of least squares over n >= 1 points (b = 0 when every x is equal).
 * *se (may be NULL) is the standard error of b (0 with fewer than three points); *rms (may be
 * NULL) the root-mean-square residual. */
void cls__fit_line(const double *x, const double *y, size_t n, double *a, double *b,
                   double *se, double *rms);

#endif /* CLS_MODEL_FIT_H */
