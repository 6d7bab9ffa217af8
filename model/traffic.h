/* traffic.h: bytes moved per grid point by a 2.5D-streamed XY tile (Mo & Li), and the minimal
 * traffic of a step of a stencil or a system of fields. */
#ifndef CLS_TRAFFIC_H
#define CLS_TRAFFIC_H

/* Source: Mo & Li, "Accelerating stencil computation on GPGPU by novel mapping method between the
 * global memory and the shared memory", Sect. 4.2-4.3 (Eq. 2, the 48x8 loaded tile, 12 bytes per
 * point), Sect. 6.1-6.2 (Eq. 3, the 8 and 12 bytes per point of cube_transit and
 * cube_ghost_transit, the effective 8.4 bytes per point derived from their throughputs) and Sect. 7
 * (8.9 bytes per point for the 7-point stencil).
 *
 * A work-group of bx x by work-items streams its XY tile along z: per plane it loads the tile
 * and a ghost zone of hy rows above and below and hx columns left and right, and writes its
 * bx x by points.  Global memory moves whole segments (the smallest transaction, 32 bytes on
 * the documents' GPUs), so a ghost column of hx elements costs ceil(hx*elem/segment) segments
 * in every row it is loaded for.  Pure C: no OpenCL, no state, no allocation. */

#include <stddef.h>

/* How the ghost zone is brought into local memory. */
typedef enum cls_traffic_loader {
    /* Listing 2: each work-item loads its own point; edge work-items load the ghost rows and
     * columns under conditions (divergent branches); the corners only when the stencil reads
     * them (corners = 1). */
    CLS_TRAFFIC_CLASSIC = 0,
    /* Listing 3 (Sect. 4.3): the loaded tile is widened to whole segments on both sides and
     * loaded row-major by all work-items alike, no conditions: corners are always included. */
    CLS_TRAFFIC_ALIGNED = 1
} cls_traffic_loader;

typedef struct cls_traffic_tile {
    double bx, by;          /* work-group = output tile, points */
    double hx, hy;          /* ghost-zone width: the stencil's halo in x and y */
    double elem;            /* bytes per element: 4 single, 8 double precision */
    double segment;         /* bytes of the smallest global-memory transaction (32) */
    double nz;              /* planes streamed per work-group (0: the z halo is ignored) */
    double hz;              /* planes read above and below the streamed range */
    int corners;            /* the stencil reads diagonal neighbours (classic loader only) */
    cls_traffic_loader loader;
} cls_traffic_tile;

typedef struct cls_traffic {
    double ghost_x;         /* elements loaded left (and right) of the tile: whole segments */
    double row_x;           /* elements per loaded row of the interior: whole segments */
    double loaded_w;        /* aligned loader: width of the loaded tile (48 for 32x6 float) */
    double loaded_h;        /* rows of the loaded tile (8 for 32x6) */
    double loaded;          /* elements loaded per plane, ghost zone included (Eq. 2) */
    double written;         /* elements written per plane (whole segments) */
    double read_bytes;      /* bytes read per point (z halo included when nz > 0) */
    double write_bytes;     /* bytes written per point */
    double bytes_per_point; /* read_bytes + write_bytes */
    double loads_per_item;  /* elements each work-item loads per plane (2 for 32x6, Listing 3) */
} cls_traffic;

/* Fills *t for one tile; returns 0, or -1 when an argument is out of range (sizes < 1,
 * negative halos, element or segment size < 1). */
int cls_traffic_tile_eval(const cls_traffic_tile *tile, cls_traffic *t);

/* Eq. 2 as printed, single precision with 32-byte segments and a ghost zone of 1:
 * bx*by + 2bx + 16by + 32 elements loaded per plane. */
double cls_traffic_eq2(double bx, double by);

/* Ideal traffic: one read and one write per point, no ghost zone (8 bytes per float point,
 * Sect. 4.2 and 6.1). */
double cls_traffic_ideal_bytes(double elem);

/* The minimal traffic of one time step of a stencil or a system of fields, bytes per point:
 * Sect. 4.2's ideal (every point read once and written once) for every array the step must
 * move.  Stage g of a step reads reads[g] arrays (the fields any of its updates reads) and
 * writes writes[g] (the fields it updates), each once per point: a stage sees its
 * predecessor's results, so a field that two stages read is read twice; auxiliary arrays are
 * read once per step.  A time level is a field's earlier buffer (no traffic to keep it) and
 * counts where a stage reads it.  One field in one stage: reads 1, writes 1, elem x (2 + aux).
 * 0 for an argument out of range (elem < 1, n_stages < 1, a negative count). */
double cls_traffic_minimal_bytes(double elem, const double *reads, const double *writes,
                                 int n_stages, double aux);

/* Bytes per point that a kernel effectively moves, derived from throughputs (Sect. 6.2):
 * a reference kernel that moves ref_bytes per point at ref_gpts, and the kernel at gpts,
 * running at the same bandwidth, move ref_bytes * ref_gpts / gpts
 * (13.5 / 12.8 x 8 = 8.4 for cube_ghost_transit against cube_transit). */
double cls_traffic_effective_bytes(double ref_bytes, double ref_gpts, double gpts);

/* Eq. 3: the bandwidth of nx*ny*nz points moving bytes_per_point each in t seconds, in units of
 * `unit` bytes (2^30 as printed in Eq. 3; the document's tables and this project use 10^9). */
double cls_traffic_eq3_gbs(double points, double bytes_per_point, double seconds, double unit);

#endif /* CLS_TRAFFIC_H */
