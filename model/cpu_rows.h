/* cpu_rows.h: the time of a step of the CPU row kernel (cl/naive_rows.cl, naive_system_rows.cl)
 * and of cputile's in-cache loops: each core's vector work against the traffic at the bandwidth
 * of the level the working set lives in. */
#ifndef CLS_CPU_ROWS_H
#define CLS_CPU_ROWS_H

#include <stddef.h>

/* The device: its cores and clock, the row kernel's costs (doc/devices.md, "The CPU row
 * kernel") and the bandwidths of its cache level and of memory. */
typedef struct cls__cpu_device {
    double clock_hz;
    size_t cores;
    size_t lanes;          /* points per vector of the row loop (the driver's preferred width) */
    double point_cycles;   /* per vector of points, beyond its reads and flops */
    double read_cycles;    /* per read of the body, per vector */
    double flop_cycles;    /* per flop of the body, per vector */
    double start_cycles;   /* per run of a row */
    double bandwidth;      /* bytes/s of memory (> 0) */
    double bandwidth_cache; /* bytes/s of a working set within cache_bytes (0: no such level) */
    double cache_bytes;
    double restart;        /* seconds per launch */
} cls__cpu_device;

/* One step: the grid, how the kernel cuts it and what each point costs. */
typedef struct cls__cpu_rows_work {
    size_t n[3];           /* grid, x first (1 for unused dimensions) */
    size_t halo_x;         /* points at each end of a row computed one at a time */
    size_t row_length;     /* points of a run (a row longer than that is cut into runs) */
    size_t item_rows;      /* rows of one work-item (2D and 3D) */
    size_t launches;       /* kernels per step (a system's stages) */
    double reads, flops;   /* per point and step, summed over the launches; reads of auxiliary
                              arrays included */
    double bytes_per_point; /* traffic of a step */
    double working_set;    /* bytes of every array a step touches */
} cls__cpu_rows_work;

/* The work of a step on the busiest core, as the terms the costs multiply: x[0] vectors
 * (launches x vector iterations, an end point counting as one), x[1] vectors x reads per point,
 * x[2] vectors x flops per point, x[3] runs of rows (launches x runs).  The compute time of a
 * step is (x . {point, read, flop, start cycles}) / clock. */
#define CLS__CPU_TERMS 4
void cls__cpu_rows_terms(const cls__cpu_rows_work *w, size_t lanes, size_t cores,
                         double x[CLS__CPU_TERMS]);

/* Seconds per byte of a working set of ws bytes: the cache's rate within it, beyond it the
 * share that fits at the cache's rate and the rest at memory's. */
double cls__cpu_seconds_per_byte(const cls__cpu_device *d, double ws);

/* Seconds of one step: the launches, then the longer of the busiest core's compute and the
 * traffic (the two overlap: the cores' loads stream ahead of their arithmetic).  *compute and
 * *memory (may be NULL) receive the two terms. */
double cls__cpu_rows_step(const cls__cpu_device *d, const cls__cpu_rows_work *w, double *compute,
                          double *memory);

#endif /* CLS_CPU_ROWS_H */
