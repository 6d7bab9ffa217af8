/* analyze_measure.h: `clstencil analyze --measure`, the CuMAPz correlation experiment. */
#ifndef CLS_ANALYZE_MEASURE_H
#define CLS_ANALYZE_MEASURE_H

#include <stddef.h>

typedef struct measure_opts {
    const char *model;       /* model name or file; NULL: the live device's model */
    const char *cl_device;   /* device selector; NULL: the default */
    const char *kernels[8];  /* families to run (fig, transpose, stencil2d, loaders); none: all */
    size_t n_kernels;
    const char *csv;         /* per-variant CSV (may be NULL) */
    const char *summary_csv; /* per-kernel CSV (may be NULL) */
    size_t reps;             /* timed launches per variant (0: 10, 3 with quick) */
    int quick;               /* small sizes: a smoke test of the whole path */
    size_t max_work;         /* analysis bound (0: default) */
    const char *times[8];    /* --csv files of an earlier run: re-analyse, measure nothing */
    size_t n_times;
} measure_opts;

/* Runs the experiment; returns a CLI exit code. */
int analyze_measure(const measure_opts *o);

#endif
