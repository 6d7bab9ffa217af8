/* trapezoid.cl: the ghost-zone (trapezoid) schedule of 000_c422610359a92120.txt: a work-group
 * loads a tile of CLS_TILE_X x CLS_TILE_Y x CLS_TILE_Z points (its output block enlarged by a
 * ghost zone of CLS_H x halo on every side) into local memory, computes up to CLS_H steps there
 * without shrinking the computed region, and commits only the valid inner block (Sect. 3.3).
 * Global synchronisation between stages: kernel restart (cls_trapezoid, one launch per stage)
 * or a persistent kernel with an in-kernel barrier from atomics and fences, one counter per
 * stage (cls_trapezoid_persistent, Sect. 4.5). */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 1
#define CLS_HALO_Y 1
#define CLS_HALO_Z 0
#define CLS_TILE_X 16
#define CLS_TILE_Y 16
#define CLS_TILE_Z 1
#define CLS_H 2
inline real cls_update_tile(__local const real *restrict in, int X, int Y, int Z, int STEP,
                            int OX, int OY, int OZ)
{
    return cls_read_tile(in, X, Y, Z);
}
#endif

#define CLS_TILE (CLS_TILE_X * CLS_TILE_Y * CLS_TILE_Z)
/* The valid inner block each tile commits. */
#define CLS_INNER_X (CLS_TILE_X - 2 * CLS_H * CLS_HALO_X)
#define CLS_INNER_Y (CLS_TILE_Y - 2 * CLS_H * CLS_HALO_Y)
#define CLS_INNER_Z (CLS_TILE_Z - 2 * CLS_H * CLS_HALO_Z)
#define CLS_TILES_X ((NX + CLS_INNER_X - 1) / CLS_INNER_X)
#define CLS_TILES_Y ((NY + CLS_INNER_Y - 1) / CLS_INNER_Y)
#define CLS_TILES_Z ((NZ + CLS_INNER_Z - 1) / CLS_INNER_Z)

/* Wraps any coordinate into [0, n) (tiles can reach further than one grid length). */
inline int cls_wrap(int i, int n)
{
    int r = i % n;
    return r < 0 ? r + n : r;
}

#ifdef CLS_PERSISTENT
/* Stages written by other work-groups of the same launch must not come from a non-coherent
 * cache: the persistent kernel loads through volatile pointers. */
#define CLS_LOAD_QUAL volatile
#endif

/* One trapezoid: tile t of the grid, `hs` <= CLS_H steps from step0, from src into dst.  The
 * loads go through CLS_LOAD so that the persistent kernel can bypass non-coherent caches. */
#ifndef CLS_LOAD_QUAL
#define CLS_LOAD_QUAL const
#endif
inline void cls_trapezoid_tile(CLS_LOAD_QUAL __global real *src, __global real *dst
                               CLS_AUX_PARAMS, int t, int step0, int hs,
                               __local real *tile0, __local real *tile1)
{
    int lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
    int l = lx + CLS_TILE_X * (ly + CLS_TILE_Y * lz);
    int tx = t % CLS_TILES_X, ty = (t / CLS_TILES_X) % CLS_TILES_Y;
    int tz = t / (CLS_TILES_X * CLS_TILES_Y);
    int ox = tx * CLS_INNER_X - CLS_H * CLS_HALO_X;
    int oy = CLS_DIMS > 1 ? ty * CLS_INNER_Y - CLS_H * CLS_HALO_Y : 0;
    int oz = CLS_DIMS > 2 ? tz * CLS_INNER_Z - CLS_H * CLS_HALO_Z : 0;
    int x = ox + lx, y = oy + ly, z = oz + lz;
    int inside = x >= 0 && x < NX && y >= 0 && y < NY && z >= 0 && z < NZ;

    /* Load the tile: in-grid points, and for periodic grids the wrapped values at virtual
     * coordinates; other out-of-grid points are never read (reads fold into the grid). */
    real v;
    if (inside) {
        v = src[CLS_IDX(x, y, z)];
    } else {
#if CLS_BOUNDARY == CLS_PERIODIC
        v = src[CLS_IDX(cls_wrap(x, NX), cls_wrap(y, NY), cls_wrap(z, NZ))];
#else
        v = (real)CLS_BOUNDARY_VALUE;
#endif
    }
    tile0[l] = v;
    __local real *cur = tile0, *nxt = tile1;
    for (int s = 0; s < hs; s++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        nxt[l] = cls_update_tile(cur CLS_AUX_ARGS, x, y, z, step0 + s, ox, oy, oz);
        __local real *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    /* Commit the valid inner block (only this item wrote cur[l]: no barrier needed). */
    if (inside && lx >= CLS_H * CLS_HALO_X && lx < CLS_TILE_X - CLS_H * CLS_HALO_X &&
        ly >= CLS_H * CLS_HALO_Y && ly < CLS_TILE_Y - CLS_H * CLS_HALO_Y &&
        lz >= CLS_H * CLS_HALO_Z && lz < CLS_TILE_Z - CLS_H * CLS_HALO_Z)
        dst[CLS_IDX(x, y, z)] = cur[l];
    /* The tiles are reused by the next trapezoid of this group. */
    barrier(CLK_LOCAL_MEM_FENCE);
}

#ifndef CLS_PERSISTENT
/* Kernel restart: one work-group per tile, one launch per stage. */
__kernel __attribute__((reqd_work_group_size(CLS_TILE_X, CLS_TILE_Y, CLS_TILE_Z)))
void cls_trapezoid(__global const real *restrict in, __global real *restrict out
                   CLS_AUX_PARAMS, int step0, int hs)
{
    __local real tile0[CLS_TILE], tile1[CLS_TILE];
    int t = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) *
                                                   get_group_id(2));
    cls_trapezoid_tile(in, out CLS_AUX_ARGS, t, step0, hs, tile0, tile1);
}
#endif

#ifdef CLS_PERSISTENT
#ifndef CLS_SPIN_LIMIT
#define CLS_SPIN_LIMIT (1 << 26)
#endif
/* The global barrier of Sect. 4.5: every group's leader increments the stage's counter after a
 * fence and spins until all groups have arrived.  OpenCL 1.2 promises no forward progress
 * between work-groups, so the executor launches only as many groups as can be resident at
 * once, and a leader that spins CLS_SPIN_LIMIT times gives up and raises *status instead of
 * hanging (the host then reports that the groups were not co-resident). */
inline int cls_grid_barrier(__global volatile int *counter, __global volatile int *status,
                            __local volatile int *ok)
{
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) {
        int groups = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
        int spins = 0;
        *ok = 1;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_inc(counter);
        while (atomic_add(counter, 0) < groups) {
            if (*status || ++spins > CLS_SPIN_LIMIT) {
                *status = 1;
                *ok = 0;
                break;
            }
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    return *ok;
}

/* Persistent kernel: resident groups loop over the tiles of every stage; buffers alternate. */
__kernel __attribute__((reqd_work_group_size(CLS_TILE_X, CLS_TILE_Y, CLS_TILE_Z)))
void cls_trapezoid_persistent(__global real *buf0, __global real *buf1 CLS_AUX_PARAMS,
                              __global volatile int *counters, __global volatile int *status,
                              int steps)
{
    __local real tile0[CLS_TILE], tile1[CLS_TILE];
    __local volatile int ok;
    int groups = get_num_groups(0);
    int ntiles = CLS_TILES_X * CLS_TILES_Y * CLS_TILES_Z;
    int stages = (steps + CLS_H - 1) / CLS_H;
    for (int s = 0; s < stages; s++) {
        __global real *src = s % 2 ? buf1 : buf0, *dst = s % 2 ? buf0 : buf1;
        int hs = min(CLS_H, steps - s * CLS_H);
        for (int t = get_group_id(0); t < ntiles; t += groups)
            cls_trapezoid_tile(src, dst CLS_AUX_ARGS, t, s * CLS_H, hs, tile0, tile1);
        if (s + 1 < stages && !cls_grid_barrier(counters + s, status, &ok)) return;
    }
}
#endif
