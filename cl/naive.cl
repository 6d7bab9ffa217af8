/* naive.cl: the naive schedule: one launch per time step, every read from global memory,
 * ping-pong buffers swapped by the host.  Each work-item updates CLS_PER_ITEM consecutive
 * points along the slowest axis (1 = one point per item). */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 0
#define CLS_HALO_Y 0
#define CLS_HALO_Z 0
inline real cls_update(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
inline real cls_update_interior(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
#endif
#ifndef CLS_PER_ITEM
#define CLS_PER_ITEM 1
#endif
/* Points along x per work-item (2D and 3D; the planner makes it divide NX): their results are
 * stored as one vector.  With CLS_VEC_READS and a lane-wise body (CLS_LANE_WISE, from the
 * generator) the items whose lanes are all interior compute them as one vector from aligned
 * vector reads (cls_read_vec in the prelude); the others point by point. */
#ifndef CLS_VEC_X
#define CLS_VEC_X 1
#endif
#if CLS_VEC_X == 2
#define CLS_STORE_VEC(p, v) (*(__global real2 *)(p) = (real2)((v)[0], (v)[1]))
#elif CLS_VEC_X == 4
#define CLS_STORE_VEC(p, v) (*(__global real4 *)(p) = (real4)((v)[0], (v)[1], (v)[2], (v)[3]))
#endif

/* Whether the stencil around (x, y, z) stays inside the grid in every dimension. */
#define CLS_INSIDE(x, y, z)                                                                    \
    ((x) >= CLS_HALO_X && (x) < NX - CLS_HALO_X &&                                             \
     (CLS_DIMS < 2 || ((y) >= CLS_HALO_Y && (y) < NY - CLS_HALO_Y)) &&                         \
     (CLS_DIMS < 3 || ((z) >= CLS_HALO_Z && (z) < NZ - CLS_HALO_Z)))

/* The lanes of the point (X, Y, Z), all interior, as one vector. */
#define CLS_NAIVE_VEC_POINT(X, Y, Z)                                                           \
    (*(__global realv *)(out + CLS_IDX(X, Y, Z)) = cls_update_vec(in CLS_AUX_ARGS, X, Y, Z, step))

__kernel void cls_naive(__global const real *restrict in, __global real *restrict out
                        CLS_AUX_PARAMS, int step)
{
    int x = get_global_id(0);
#if CLS_DIMS == 1
    int y = 0, z = 0;
    if (x >= NX) return;
    out[x] = CLS_INSIDE(x, y, z) ? cls_update_interior(in CLS_AUX_ARGS, x, y, z, step)
                                 : cls_update(in CLS_AUX_ARGS, x, y, z, step);
#else
    x *= CLS_VEC_X;
#if CLS_DIMS == 2
    int z = 0, y0 = (int)get_global_id(1) * CLS_PER_ITEM;
    if (x >= NX) return;
#if defined(CLS_VEC_READS) && defined(CLS_LANE_WISE)
    CLS_VEC_COLUMN(CLS_NAIVE_VEC_POINT, x, y0, 0, 1, 0);
#endif
    for (int k = 0; k < CLS_PER_ITEM; k++) {
        int y = y0 + k;
        if (y >= NY) return;
#else
    int y = get_global_id(1), z0 = (int)get_global_id(2) * CLS_PER_ITEM;
    if (x >= NX || y >= NY) return;
#if defined(CLS_VEC_READS) && defined(CLS_LANE_WISE)
    CLS_VEC_COLUMN(CLS_NAIVE_VEC_POINT, x, y, z0, 0, 1);
#endif
    for (int k = 0; k < CLS_PER_ITEM; k++) {
        int z = z0 + k;
        if (z >= NZ) return;
#endif
#if CLS_VEC_X == 1
        out[CLS_IDX(x, y, z)] = CLS_INSIDE(x, y, z)
                                    ? cls_update_interior(in CLS_AUX_ARGS, x, y, z, step)
                                    : cls_update(in CLS_AUX_ARGS, x, y, z, step);
#else
#if defined(CLS_VEC_READS) && defined(CLS_LANE_WISE)
        if (CLS_INSIDE(x, y, z) && CLS_INSIDE(x + CLS_VEC_X - 1, y, z)) {
            CLS_NAIVE_VEC_POINT(x, y, z);
            continue;
        }
#endif
        real v[CLS_VEC_X];
#pragma unroll
        for (int i = 0; i < CLS_VEC_X; i++)
            v[i] = CLS_INSIDE(x + i, y, z) ? cls_update_interior(in CLS_AUX_ARGS, x + i, y, z, step)
                                           : cls_update(in CLS_AUX_ARGS, x + i, y, z, step);
        CLS_STORE_VEC(out + CLS_IDX(x, y, z), v);
#endif
    }
#endif
}
