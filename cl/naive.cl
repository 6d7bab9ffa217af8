/* naive.cl: the naive schedule: one launch per time step, one work-item per point, every read
 * from global memory, ping-pong buffers swapped by the host. */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
inline real cls_update(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
#endif

__kernel void cls_naive(__global const real *restrict in, __global real *restrict out
                        CLS_AUX_PARAMS, int step)
{
    int x = get_global_id(0);
    int y = CLS_DIMS > 1 ? (int)get_global_id(1) : 0;
    int z = CLS_DIMS > 2 ? (int)get_global_id(2) : 0;
    if (x >= NX || y >= NY || z >= NZ) return;
    out[CLS_IDX(x, y, z)] = cls_update(in CLS_AUX_ARGS, x, y, z, step);
}
