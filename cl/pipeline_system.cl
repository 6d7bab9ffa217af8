/* pipeline_system.cl: one stage of a system of fields on a tile of a host-resident grid
 * (Visschers 2012, Sect. 2.7, 6.2): every field, the auxiliary arrays and the stage's outputs
 * are boxes of the grid (a field's box is its own: the whole grid or the tile's input box), and
 * the launch computes every update of the stage over the region [R, R + RN) of global
 * coordinates (virtual ones past a periodic grid's edges), which shrinks stage by stage by the
 * stages' radii (the ghost zone of Sect. 2.7.2 for several stages). */
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
#define CLS_FIELD_BOX_PARAMS , int f0_ox, int f0_oy, int f0_oz, int f0_px, int f0_py
#define CLS_FIELD_BOX_ARGS , f0_ox, f0_oy, f0_oz, f0_px, f0_py
inline void cls_stage_point_box(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS, int X, int Y, int Z,
                                int STEP, int inside CLS_FIELD_BOX_PARAMS, int SX, int SY,
                                int SZ, int AOX, int AOY, int AOZ, int APX, int APY, int OOX,
                                int OOY, int OOZ, int OPX, int OPY)
{
    out0[cls_box_index(X + SX, Y + SY, Z + SZ, OOX, OOY, OOZ, OPX, OPY)] =
        f0[cls_box_index(X + SX, Y + SY, Z + SZ, f0_ox, f0_oy, f0_oz, f0_px, f0_py)];
}
#endif

/* Whether the stencil around (x, y, z) stays inside the grid in every dimension. */
#define CLS_INSIDE(x, y, z)                                                                    \
    ((x) >= CLS_HALO_X && (x) < NX - CLS_HALO_X &&                                             \
     (CLS_DIMS < 2 || ((y) >= CLS_HALO_Y && (y) < NY - CLS_HALO_Y)) &&                         \
     (CLS_DIMS < 3 || ((z) >= CLS_HALO_Z && (z) < NZ - CLS_HALO_Z)))

/* Fields f<k> in boxes (f<k>_ox, ..., f<k>_py); the outputs in boxes at (oox, ...); the
 * auxiliary arrays in boxes at (aox, ...); one point per work-item. */
__kernel void cls_pipe_stage(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS,
                             int step CLS_FIELD_BOX_PARAMS, int aox, int aoy, int aoz, int apx,
                             int apy, int oox, int ooy, int ooz, int opx, int opy, int rx,
                             int ry, int rz, int rnx, int rny, int rnz)
{
    int gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    if (gx >= rnx || gy >= rny || gz >= rnz) return;
    int vx = rx + gx, vy = ry + gy, vz = rz + gz;
    int x = CLS_PIPE_GRID(vx, NX), y = CLS_PIPE_GRID(vy, NY), z = CLS_PIPE_GRID(vz, NZ);
    cls_stage_point_box(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, x, y, z, step,
                        CLS_INSIDE(x, y, z) CLS_FIELD_BOX_ARGS, vx - x, vy - y, vz - z, aox, aoy,
                        aoz, apx, apy, oox, ooy, ooz, opx, opy);
}
