/* pipeline.cl: one step of the naive schedule on a tile of a host-resident grid
 * (Visschers 2012, Sect. 2.7, 6.2): the state and the auxiliary arrays are boxes of
 * the grid (the tile plus its padding, or the whole grid for the basic scheme), and the launch
 * computes the region [R, R + RN) of global coordinates into the output box (virtual ones past
 * a periodic grid's edges).  Several steps per
 * tile shrink the region by one halo per step (the ghost zone of Sect. 2.7.2). */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 0
#define CLS_HALO_Y 0
#define CLS_HALO_Z 0
#define CLS_BOX_ARGS_DECL                                                                      \
    int OX, int OY, int OZ, int PX, int PY, int SX, int SY, int SZ, int AOX, int AOY, int AOZ,   \
        int APX, int APY
inline real cls_update_box(__global const real *restrict in, int X, int Y, int Z, int STEP,
                           CLS_BOX_ARGS_DECL)
{
    return in[cls_box_index(X + SX, Y + SY, 0, OX, OY, OZ, PX, PY)];
}
inline real cls_update_box_interior(__global const real *restrict in, int X, int Y, int Z,
                                    int STEP, CLS_BOX_ARGS_DECL)
{
    return in[cls_box_index(X + SX, Y + SY, 0, OX, OY, OZ, PX, PY)];
}
#endif

/* Whether the stencil around (x, y, z) stays inside the grid in every dimension. */
#define CLS_INSIDE(x, y, z)                                                                    \
    ((x) >= CLS_HALO_X && (x) < NX - CLS_HALO_X &&                                             \
     (CLS_DIMS < 2 || ((y) >= CLS_HALO_Y && (y) < NY - CLS_HALO_Y)) &&                         \
     (CLS_DIMS < 3 || ((z) >= CLS_HALO_Z && (z) < NZ - CLS_HALO_Z)))

/* in: box at (iox, ioy, ioz), pitches ipx, ipy; aux: box at (aox, ...); out: box at (oox, ...);
 * region: origin (rx, ry, rz), extent (rnx, rny, rnz), in virtual coordinates; one point per
 * work-item. */
__kernel void cls_pipe(__global const real *restrict in, __global real *restrict out
                       CLS_AUX_PARAMS, int step, int iox, int ioy, int ioz, int ipx, int ipy,
                       int aox, int aoy, int aoz, int apx, int apy, int oox, int ooy, int ooz,
                       int opx, int opy, int rx, int ry, int rz, int rnx, int rny, int rnz)
{
    int gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    if (gx >= rnx || gy >= rny || gz >= rnz) return;
    int vx = rx + gx, vy = ry + gy, vz = rz + gz;
    int x = CLS_PIPE_GRID(vx, NX), y = CLS_PIPE_GRID(vy, NY), z = CLS_PIPE_GRID(vz, NZ);
    int sx = vx - x, sy = vy - y, sz = vz - z;
    real v = CLS_INSIDE(x, y, z)
                 ? cls_update_box_interior(in CLS_AUX_ARGS, x, y, z, step, iox, ioy, ioz, ipx,
                                           ipy, sx, sy, sz, aox, aoy, aoz, apx, apy)
                 : cls_update_box(in CLS_AUX_ARGS, x, y, z, step, iox, ioy, ioz, ipx, ipy, sx,
                                  sy, sz, aox, aoy, aoz, apx, apy);
    out[cls_box_index(vx, vy, vz, oox, ooy, ooz, opx, opy)] = v;
}
