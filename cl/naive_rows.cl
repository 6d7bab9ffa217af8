/* naive_rows.cl: the naive schedule for CPUs: each work-item updates a run of CLS_ROW_LEN points
 * along x with a plain loop whose interior part has no boundary code, so the device compiler
 * vectorises it like a hand-written C loop (per-point work-items with boundary branches defeat
 * PoCL's vectoriser).  One launch per step, every read from global memory, as naive.cl. */
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
#ifndef CLS_ROW_LEN
#define CLS_ROW_LEN NX
#endif

__kernel void cls_naive(__global const real *restrict in, __global real *restrict out
                        CLS_AUX_PARAMS, int step)
{
    int x0 = (int)get_global_id(0) * CLS_ROW_LEN;
    int y = CLS_DIMS > 1 ? (int)get_global_id(1) : 0;
    int z = CLS_DIMS > 2 ? (int)get_global_id(2) : 0;
    if (x0 >= NX || y >= NY || z >= NZ) return;
    int x1 = min(x0 + CLS_ROW_LEN, NX);
    /* [lo, hi) is the part of the run whose stencil stays inside the grid. */
    int inner_row = (CLS_DIMS < 2 || (y >= CLS_HALO_Y && y < NY - CLS_HALO_Y)) &&
                    (CLS_DIMS < 3 || (z >= CLS_HALO_Z && z < NZ - CLS_HALO_Z));
    int lo = inner_row ? max(x0, CLS_HALO_X) : x1;
    int hi = inner_row ? min(x1, NX - CLS_HALO_X) : x1;
    if (hi < lo) hi = lo = x1;
    __global real *restrict row = out + CLS_IDX(0, y, z);
    for (int x = x0; x < lo; x++) row[x] = cls_update(in CLS_AUX_ARGS, x, y, z, step);
    for (int x = lo; x < hi; x++) row[x] = cls_update_interior(in CLS_AUX_ARGS, x, y, z, step);
    for (int x = hi; x < x1; x++) row[x] = cls_update(in CLS_AUX_ARGS, x, y, z, step);
}
