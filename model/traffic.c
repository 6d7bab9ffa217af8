/* traffic.c: the memory traffic of 2.5D-streamed XY tiles (Mo & Li, Eq. 2) and the minimal
 * traffic of a step. */
#include <math.h>

#include "traffic.h"

/* Elements of n consecutive elements rounded up to whole segments (a tile row that starts on a
 * segment boundary moves ceil(n*elem/segment) segments). */
static double whole_segments(double n, double elem, double segment)
{
    if (n <= 0) return 0;
    return ceil(n * elem / segment) * segment / elem;
}

int cls_traffic_tile_eval(const cls_traffic_tile *tile, cls_traffic *t)
{
    const cls_traffic_tile *p = tile;
    if (!p || !t || !(p->bx >= 1) || !(p->by >= 1) || !(p->hx >= 0) || !(p->hy >= 0) ||
        !(p->elem >= 1) || !(p->segment >= 1) || !(p->nz >= 0) || !(p->hz >= 0) ||
        (p->loader != CLS_TRAFFIC_CLASSIC && p->loader != CLS_TRAFFIC_ALIGNED))
        return -1;
    const double points = p->bx * p->by;
    /* Sect. 4.2: the left and right ghost columns are not consecutive with the interior rows'
     * segments: each costs a whole segment per row (8 floats for hx = 1). */
    t->ghost_x = whole_segments(p->hx, p->elem, p->segment);
    t->row_x = whole_segments(p->bx, p->elem, p->segment);
    t->loaded_w = t->row_x + 2 * t->ghost_x;
    t->loaded_h = p->by + 2 * p->hy;
    if (p->loader == CLS_TRAFFIC_ALIGNED || p->corners) {
        /* Eq. 2 generalised: bx*by + 2*hy*bx + 2*(by + 2*hy)*ghost_x; for 32x6 floats, 32-byte
         * segments and a halo of 1: 192 + 64 + 128 = 384 = 48 x 8 (Sect. 4.3, Figure 2). */
        t->loaded = t->loaded_w * t->loaded_h;
    } else {
        /* Listing 2 without corners: the side columns only beside the by interior rows. */
        t->loaded = t->row_x * t->loaded_h + 2 * t->ghost_x * p->by;
    }
    t->written = t->row_x * p->by;
    /* Streaming nz planes reads hz extra planes at each end of the column. */
    double zfactor = p->nz > 0 ? (p->nz + 2 * p->hz) / p->nz : 1;
    t->read_bytes = t->loaded * p->elem / points * zfactor;
    t->write_bytes = t->written * p->elem / points;
    /* Sect. 4.3: 12 bytes per point for 32x6 floats (8 read incl. the ghost zone, 4 written). */
    t->bytes_per_point = t->read_bytes + t->write_bytes;
    t->loads_per_item = t->loaded / points;
    return 0;
}

double cls_traffic_eq2(double bx, double by)
{
    /* Eq. 2: bx*by + 2bx + 2(by + 2)*8 = bx*by + 2bx + 16by + 32 */
    return bx * by + 2 * bx + 16 * by + 32;
}

double cls_traffic_ideal_bytes(double elem)
{
    /* Sect. 4.2: "4 bytes for loading and 4 bytes for writing" in single precision. */
    return 2 * elem;
}

double cls_traffic_minimal_bytes(double elem, const double *reads, const double *writes,
                                 int n_stages, double aux)
{
    double arrays = aux;
    if (!(elem >= 1) || n_stages < 1 || !reads || !writes || !(aux >= 0)) return 0;
    for (int g = 0; g < n_stages; g++) {
        if (!(reads[g] >= 0) || !(writes[g] >= 0)) return 0;
        /* Sect. 4.2: one load and one store of elem bytes per point, for each array moved */
        arrays += reads[g] + writes[g];
    }
    return elem * arrays;
}

double cls_traffic_effective_bytes(double ref_bytes, double ref_gpts, double gpts)
{
    /* Sect. 6.2: 13.5 / 12.8 x 8 = 8.4 bytes per point. */
    if (!(ref_bytes > 0) || !(ref_gpts > 0) || !(gpts > 0)) return 0;
    return ref_bytes * ref_gpts / gpts;
}

double cls_traffic_eq3_gbs(double points, double bytes_per_point, double seconds, double unit)
{
    /* Eq. 3: nx*ny*nz*bytes_per_point / (t * 2^30) */
    if (!(seconds > 0) || !(unit > 0)) return 0;
    return points * bytes_per_point / (seconds * unit);
}
