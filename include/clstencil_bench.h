/* clstencil_bench.h: the research benchmarks behind `clstencil bench transit` and `clstencil
 * analyze --measure`: bandwidth transits of a cube and the timing of the mapping kernels. */
#ifndef CLSTENCIL_BENCH_H
#define CLSTENCIL_BENCH_H

#include <stddef.h>

#include "clstencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bandwidth benchmarks of Mo & Li, Sect. 6.1-6.2 on an nx x ny x nz cube of
 * the dtype: cube_transit (Listing 4: every work-item copies its column along z, one read and
 * one write per point; 32x8 work-groups on GPUs, as `clstencil probe`) and cube_ghost_transit
 * (Listing 5 with Listing 3's mapping: tile[0] x tile[1] work-groups load their tile with a
 * ghost zone of one row above and below and one 32-byte segment left and right into local
 * memory, then write their own points).  Each is run once untimed and `reps` times timed
 * (profiling events); medians are reported. */
typedef struct cls_transit_result {
    double transit_seconds;     /* cube_transit, one pass over the cube */
    double transit_gpts;        /* points per second / 10^9 */
    double transit_gbs;         /* Eq. 3 at 2 x element size bytes per point, 10^9 bytes */
    double ghost_seconds;       /* cube_ghost_transit */
    double ghost_gpts;
    double ghost_gbs;           /* Eq. 3 at ghost_bytes_per_point */
    double ghost_bytes_per_point; /* the traffic model's figure for the tile: 12 for 32x6
                                     floats (8 read incl. the ghost zone, 4 written) */
    size_t loaded[2];           /* the loaded tile, ghost zone included (48 x 8 for 32x6) */
} cls_transit_result;

CLS_API cls_status cls_bench_transit(cls_context *ctx, cls_dtype dtype, cls_dims dims,
                                     const size_t tile[2], size_t reps, cls_transit_result *r);

/* Times one kernel of the embedded benchmark file cl/mapping_bench.cl (the CuMAPz correlation
 * experiment, `clstencil analyze --measure`, lib/bench_mapping.c): kernel(in, out, a, b, c)
 * over two float buffers of in_bytes and out_bytes (filled with 1.0), built with `options`
 * ("-D MB_F=0 ..."), launched `reps` times after one untimed launch.  Reports the fastest
 * and the median device time. */
typedef struct cls_mapping_launch {
    const char *kernel;   /* "cls_mb_fig", "cls_mb_transpose", ... */
    const char *options;  /* build options (may be NULL) */
    size_t global[2], local[2];
    size_t in_bytes, out_bytes;
    int args[3];
    size_t reps;
} cls_mapping_launch;

CLS_API cls_status cls_bench_mapping(cls_context *ctx, const cls_mapping_launch *l,
                                     double *min_seconds, double *median_seconds);

/* The access description (the JSON of doc/memory-analysis.md) that the kernel templates
 * publish for the schedule's mapping variants on this stencil and size: naive work-group
 * shapes, stream25d classic and aligned loaders x work-group shapes, trapezoid (2D) tiles x
 * work-group heights; rows and planes reduced as Kim & Shrivastava, Sect. 7 allows.
 * `clstencil analyze STENCIL` ranks them.  *json: free with cls_free. */
CLS_API cls_status cls_mapping_describe(const cls_stencil *st, cls_dims dims,
                                        cls_schedule schedule, char **json);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_BENCH_H */
