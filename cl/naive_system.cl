/* naive_system.cl: the naive schedule for one stage of a system of fields: one launch per stage
 * and step, every read from global memory.  Each work-item computes every update of the stage
 * at CLS_PER_ITEM consecutive points along the slowest axis (times CLS_VEC_X along x), reading
 * all fields as they were at the stage's start and writing the stage's outputs (other buffers:
 * the host rotates them, lib/rotation.c). */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 0
#define CLS_HALO_Y 0
#define CLS_HALO_Z 0
#define CLS_FIELD_PARAMS __global const real *restrict f0
#define CLS_FIELD_ARGS f0
#define CLS_STAGE_OUT_PARAMS , __global real *restrict out0
#define CLS_STAGE_OUT_ARGS , out0
inline void cls_stage_point(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS, int X, int Y, int Z,
                            int STEP, int inside)
{
    out0[CLS_IDX(X, Y, Z)] = cls_read(f0, X, Y, Z);
}
#endif
#ifndef CLS_PER_ITEM
#define CLS_PER_ITEM 1
#endif
/* Points along x per work-item (2D and 3D; the planner makes it divide NX).  With
 * CLS_VEC_READS and lane-wise updates (CLS_LANE_WISE, from the generator) the items whose lanes
 * are all interior compute them as vectors from aligned vector reads (cls_read_vec in the
 * prelude) and store them as vectors; the others point by point. */
#ifndef CLS_VEC_X
#define CLS_VEC_X 1
#endif

/* Whether the stencil around (x, y, z) stays inside the grid in every dimension. */
#define CLS_INSIDE(x, y, z)                                                                    \
    ((x) >= CLS_HALO_X && (x) < NX - CLS_HALO_X &&                                             \
     (CLS_DIMS < 2 || ((y) >= CLS_HALO_Y && (y) < NY - CLS_HALO_Y)) &&                         \
     (CLS_DIMS < 3 || ((z) >= CLS_HALO_Z && (z) < NZ - CLS_HALO_Z)))

/* The lanes of the point (X, Y, Z), all interior, as vectors. */
#define CLS_STAGE_VEC_POINT(X, Y, Z)                                                           \
    cls_stage_point_vec(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, X, Y, Z, step)

__kernel void cls_naive_stage(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, int step)
{
    int x = get_global_id(0);
#if CLS_DIMS == 1
    int y = 0, z = 0;
    if (x >= NX) return;
    cls_stage_point(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, x, y, z, step,
                    CLS_INSIDE(x, y, z));
#else
    x *= CLS_VEC_X;
#if CLS_DIMS == 2
    int z = 0, y0 = (int)get_global_id(1) * CLS_PER_ITEM;
    if (x >= NX) return;
#if defined(CLS_VEC_READS) && defined(CLS_LANE_WISE)
    CLS_VEC_COLUMN(CLS_STAGE_VEC_POINT, x, y0, 0, 1, 0);
#endif
    for (int k = 0; k < CLS_PER_ITEM; k++) {
        int y = y0 + k;
        if (y >= NY) return;
#else
    int y = get_global_id(1), z0 = (int)get_global_id(2) * CLS_PER_ITEM;
    if (x >= NX || y >= NY) return;
#if defined(CLS_VEC_READS) && defined(CLS_LANE_WISE)
    CLS_VEC_COLUMN(CLS_STAGE_VEC_POINT, x, y, z0, 0, 1);
#endif
    for (int k = 0; k < CLS_PER_ITEM; k++) {
        int z = z0 + k;
        if (z >= NZ) return;
#endif
#if defined(CLS_VEC_READS) && defined(CLS_LANE_WISE)
        if (CLS_INSIDE(x, y, z) && CLS_INSIDE(x + CLS_VEC_X - 1, y, z)) {
            CLS_STAGE_VEC_POINT(x, y, z);
            continue;
        }
#endif
        for (int i = 0; i < CLS_VEC_X; i++)
            cls_stage_point(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, x + i, y, z, step,
                            CLS_INSIDE(x + i, y, z));
    }
#endif
}
