/* naive_system.cl: the naive schedule for one stage of a system of fields: one launch per stage
 * and step, every read from global memory.  Each work-item computes every update of the stage
 * at CLS_PER_ITEM consecutive points along the slowest axis, reading all fields as they were at
 * the stage's start and writing the stage's outputs (other buffers: the host rotates them,
 * lib/rotation.c). */
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

/* Whether the stencil around (x, y, z) stays inside the grid in every dimension. */
#define CLS_INSIDE(x, y, z)                                                                    \
    ((x) >= CLS_HALO_X && (x) < NX - CLS_HALO_X &&                                             \
     (CLS_DIMS < 2 || ((y) >= CLS_HALO_Y && (y) < NY - CLS_HALO_Y)) &&                         \
     (CLS_DIMS < 3 || ((z) >= CLS_HALO_Z && (z) < NZ - CLS_HALO_Z)))

__kernel void cls_naive_stage(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, int step)
{
    int x = get_global_id(0);
#if CLS_DIMS == 1
    int y = 0, z = 0;
    if (x >= NX) return;
    cls_stage_point(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, x, y, z, step,
                    CLS_INSIDE(x, y, z));
#else
#if CLS_DIMS == 2
    int z = 0, y0 = (int)get_global_id(1) * CLS_PER_ITEM;
    if (x >= NX) return;
    for (int k = 0; k < CLS_PER_ITEM; k++) {
        int y = y0 + k;
        if (y >= NY) return;
#else
    int y = get_global_id(1), z0 = (int)get_global_id(2) * CLS_PER_ITEM;
    if (x >= NX || y >= NY) return;
    for (int k = 0; k < CLS_PER_ITEM; k++) {
        int z = z0 + k;
        if (z >= NZ) return;
#endif
        cls_stage_point(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, x, y, z, step,
                        CLS_INSIDE(x, y, z));
    }
#endif
}
