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
    double div_cycles;     /* per division (or square root) of the body, per vector */
    double start_cycles;   /* per run of a row */
    double end_read_cycles; /* per read of a point at a row's end (computed one at a time) */
    double bandwidth;      /* bytes/s of memory (> 0) */
    double bandwidth_cache; /* bytes/s of a working set within cache_bytes (0: no such level) */
    double cache_bytes;
    double stream_overlap; /* beyond the cache: the share of the shorter of compute and traffic
                              that adds to the longer (0: they overlap, 1: they add) */
    double restart;        /* seconds per launch */
    double box_point_cycles; /* point_cycles in cputile's steps that read a tile's box in cache */
    double box_read_cycles;  /* read_cycles in those steps */
    double box_row_cycles;   /* start_cycles in those steps */
} cls__cpu_device;

/* One step: the grid, how the kernel cuts it and what each point costs. */
typedef struct cls__cpu_rows_work {
    size_t n[3];           /* grid, x first (1 for unused dimensions) */
    size_t halo_x;         /* points at each end of a row computed one at a time */
    size_t row_length;     /* points of a run (a row longer than that is cut into runs) */
    size_t item_rows;      /* rows of one work-item (2D and 3D) */
    size_t launches;       /* kernels per step (a system's stages) */
    double reads, flops, divs; /* per point and step, summed over the launches: reads (of
                              auxiliary arrays too), flops (comparisons and selects too),
                              divisions and square roots */
    double bytes_per_point; /* traffic of a step */
    double stream_bytes;   /* of which, per point: arrays each step reads afresh (a step's row
                              of a per-step auxiliary array), always from memory */
    double working_set;    /* bytes of the arrays every step touches again */
} cls__cpu_rows_work;

/* The work of a step on the busiest core, as the terms the costs multiply: x[0] vector
 * iterations (launches x those of a launch), x[1] vectors x reads per point, x[2] vectors x
 * flops per point, x[3] vectors x divisions per point, x[4] runs of rows (launches x runs),
 * x[5] the points at the rows' ends (computed one at a time) x reads per point.  The compute
 * time of a step is, over the clock, the longer of the load side x[0] point + x[1] read + x[5]
 * end_read and the arithmetic x[2] flop + x[3] div, plus x[4] start cycles. */
#define CLS__CPU_TERMS 6
void cls__cpu_rows_terms(const cls__cpu_rows_work *w, size_t lanes, size_t cores,
                         double x[CLS__CPU_TERMS]);

/* The busiest core's cycles of a step's terms. */
double cls__cpu_compute_cycles(const cls__cpu_device *d, const double x[CLS__CPU_TERMS]);

/* Seconds per byte of a working set of ws bytes: the cache's rate within it, beyond it the
 * share that fits at the cache's rate and the rest at memory's. */
double cls__cpu_seconds_per_byte(const cls__cpu_device *d, double ws);

/* Seconds of one step: the launches, then the longer of the busiest core's compute and the
 * traffic, plus stream_overlap times the shorter where the working set exceeds the cache.
 * *compute and *memory (may be NULL) receive the two terms. */
double cls__cpu_rows_step(const cls__cpu_device *d, const cls__cpu_rows_work *w, double *compute,
                          double *memory);

#endif /* CLS_CPU_ROWS_H */
