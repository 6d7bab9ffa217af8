/* trapezoid.cl: the ghost-zone (trapezoid) schedule of Meng & Skadron 2010: a work-group
 * loads a tile of CLS_TILE_X x CLS_TILE_Y x CLS_TILE_Z points (its output block enlarged by a
 * ghost zone of h x halo on every side) into local memory, computes up to h steps there without
 * shrinking the computed region, and commits only the valid inner block (Sect. 3.3).
 * Global synchronisation between stages: kernel restart (cls_trapezoid, one launch per stage)
 * or a persistent kernel with an in-kernel barrier from atomics and fences, one counter per
 * stage (cls_trapezoid_persistent, Sect. 4.5).  With CLS_PROFILE the file instead defines the
 * profiling kernel of lib/schedules/trapezoid/profile.c (Sect. 4.3: the computation alone, no
 * device memory).
 *
 * A work-group of CLS_WG_X x CLS_WG_Y x CLS_WG_Z work-items holds one tile; each work-item
 * updates CLS_PPI points of it, CLS_WG apart along the stencil's slowest axis.  The height h is
 * a kernel argument, so one program serves every h of a tile.  Tiles that lie inside the grid
 * with one halo around them (most of them) take a path without boundary code: neighbours at
 * constant offsets in local memory, auxiliary arrays read directly. */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 1
#define CLS_HALO_Y 1
#define CLS_HALO_Z 0
#define CLS_TILE_X 16
#define CLS_TILE_Y 16
#define CLS_TILE_Z 1
#define CLS_WG_X 16
#define CLS_WG_Y 8
#define CLS_WG_Z 1
#define CLS_PPI 2
#define CLS_PITCH_X (CLS_TILE_X + 2 * CLS_HALO_X)
#define CLS_PITCH_Y (CLS_TILE_Y + 2 * CLS_HALO_Y)
#define CLS_PITCH_Z (CLS_TILE_Z + 2 * CLS_HALO_Z)
#define CLS_TILE_INDEX(lx, ly, lz)                                                             \
    ((lx) + CLS_HALO_X + CLS_PITCH_X * ((ly) + CLS_HALO_Y + CLS_PITCH_Y * ((lz) + CLS_HALO_Z)))
inline real cls_update_tile(__local const real *restrict in, int X, int Y, int Z, int STEP,
                            int OX, int OY, int OZ)
{
    return in[CLS_TILE_INDEX(X - OX, Y - OY, Z - OZ)];
}
inline real cls_update_tile_interior(__local const real *restrict in, int X, int Y, int Z,
                                     int STEP, int OX, int OY, int OZ)
{
    return in[CLS_TILE_INDEX(X - OX, Y - OY, Z - OZ)];
}
#endif

#ifndef CLS_WG_X
#define CLS_WG_X CLS_TILE_X
#define CLS_WG_Y CLS_TILE_Y
#define CLS_WG_Z CLS_TILE_Z
#endif
#ifndef CLS_PPI
#define CLS_PPI 1
#endif

/* Local memory per tile buffer, margins included. */
#ifndef CLS_TILE_ALLOC
#define CLS_TILE_ALLOC (CLS_PITCH_X * CLS_PITCH_Y * CLS_PITCH_Z)
#endif

/* The valid margin a tile loses per step on each side: the halo of one field; for a system the
 * sum of its stages' radii (the planner's CLS_GHOST_*).  The margin of the arrays stays one
 * halo: a stage reads at most that far. */
#ifndef CLS_GHOST_X
#define CLS_GHOST_X CLS_HALO_X
#define CLS_GHOST_Y CLS_HALO_Y
#define CLS_GHOST_Z CLS_HALO_Z
#endif

/* The k-th point of this work-item: CLS_PPI points CLS_WG apart along the slowest axis. */
#define CLS_PX(k) (get_local_id(0) + (CLS_DIMS == 1 ? (k) * CLS_WG_X : 0))
#define CLS_PY(k) (get_local_id(1) + (CLS_DIMS == 2 ? (k) * CLS_WG_Y : 0))
#define CLS_PZ(k) (get_local_id(2) + (CLS_DIMS == 3 ? (k) * CLS_WG_Z : 0))

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
#ifndef CLS_LOAD_QUAL
#define CLS_LOAD_QUAL const
#endif

/* Where tile t of a stage of height h starts (its ghost zone included), and whether it lies
 * inside the grid with one halo around it. */
typedef struct cls_tile_pos {
    int ox, oy, oz, interior;
} cls_tile_pos;

inline cls_tile_pos cls_tile_origin(int t, int h)
{
    cls_tile_pos p;
    int ix = CLS_TILE_X - 2 * h * CLS_GHOST_X, iy = CLS_TILE_Y - 2 * h * CLS_GHOST_Y;
    int iz = CLS_TILE_Z - 2 * h * CLS_GHOST_Z;
    int nx = (NX + ix - 1) / ix, ny = (NY + iy - 1) / iy;
    int tx = t % nx, ty = (t / nx) % ny, tz = t / (nx * ny);
    p.ox = tx * ix - h * CLS_GHOST_X;
    p.oy = CLS_DIMS > 1 ? ty * iy - h * CLS_GHOST_Y : 0;
    p.oz = CLS_DIMS > 2 ? tz * iz - h * CLS_GHOST_Z : 0;
    p.interior = p.ox >= CLS_HALO_X && p.ox + CLS_TILE_X + CLS_HALO_X <= NX &&
                 p.oy >= CLS_HALO_Y && p.oy + CLS_TILE_Y + CLS_HALO_Y <= NY &&
                 p.oz >= CLS_HALO_Z && p.oz + CLS_TILE_Z + CLS_HALO_Z <= NZ;
    return p;
}

/* The number of tiles of a stage of height h. */
inline int cls_tile_count(int h)
{
    int ix = CLS_TILE_X - 2 * h * CLS_GHOST_X, iy = CLS_TILE_Y - 2 * h * CLS_GHOST_Y;
    int iz = CLS_TILE_Z - 2 * h * CLS_GHOST_Z;
    return ((NX + ix - 1) / ix) * ((NY + iy - 1) / iy) * ((NZ + iz - 1) / iz);
}

/* Whether the tile's point (lx, ly, lz), grid point (x, y, z), is in the grid and in the valid
 * inner block of a stage of height h (committed). */
#define CLS_COMMITS(x, y, z, lx, ly, lz, h)                                                    \
    ((x) >= 0 && (x) < NX && (y) >= 0 && (y) < NY && (z) >= 0 && (z) < NZ &&                   \
     (lx) >= (h) * CLS_GHOST_X && (lx) < CLS_TILE_X - (h) * CLS_GHOST_X &&                      \
     (ly) >= (h) * CLS_GHOST_Y && (ly) < CLS_TILE_Y - (h) * CLS_GHOST_Y &&                      \
     (lz) >= (h) * CLS_GHOST_Z && (lz) < CLS_TILE_Z - (h) * CLS_GHOST_Z)

/* Loads one array's tile: in-grid points, and for periodic grids the wrapped values at virtual
 * coordinates; other out-of-grid points are never read (reads fold into the grid). */
inline void cls_tile_load(CLS_LOAD_QUAL __global real *src, __local real *tile, cls_tile_pos p)
{
    for (int k = 0; k < CLS_PPI; k++) {
        int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
        int x = p.ox + lx, y = p.oy + ly, z = p.oz + lz;
        real v;
        if (p.interior || (x >= 0 && x < NX && y >= 0 && y < NY && z >= 0 && z < NZ)) {
            v = src[CLS_IDX(x, y, z)];
        } else {
#if CLS_BOUNDARY == CLS_PERIODIC
            v = src[CLS_IDX(cls_wrap(x, NX), cls_wrap(y, NY), cls_wrap(z, NZ))];
#else
            v = (real)CLS_BOUNDARY_VALUE;
#endif
        }
        tile[CLS_TILE_INDEX(lx, ly, lz)] = v;
    }
}

#ifndef CLS_NUM_FIELDS
/* `hs` steps from step0 on the tile in tile0; returns the buffer that holds the result. */
inline __local real *cls_tile_steps(cls_tile_pos p, int step0 CLS_AUX_PARAMS, int hs,
                                    __local real *tile0, __local real *tile1)
{
    __local real *cur = tile0, *nxt = tile1;
    if (p.interior) {
        for (int s = 0; s < hs; s++) {
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < CLS_PPI; k++) {
                int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                nxt[CLS_TILE_INDEX(lx, ly, lz)] = cls_update_tile_interior(
                    cur CLS_AUX_ARGS, p.ox + lx, p.oy + ly, p.oz + lz, step0 + s, p.ox, p.oy,
                    p.oz);
            }
            __local real *tmp = cur;
            cur = nxt;
            nxt = tmp;
        }
    } else {
        for (int s = 0; s < hs; s++) {
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < CLS_PPI; k++) {
                int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                nxt[CLS_TILE_INDEX(lx, ly, lz)] =
                    cls_update_tile(cur CLS_AUX_ARGS, p.ox + lx, p.oy + ly, p.oz + lz, step0 + s,
                                    p.ox, p.oy, p.oz);
            }
            __local real *tmp = cur;
            cur = nxt;
            nxt = tmp;
        }
    }
    return cur;
}

/* One trapezoid: tile t of a stage of height h, `hs` <= h steps from step0, from src into dst.
 * The loads go through CLS_LOAD_QUAL so that the persistent kernel can bypass non-coherent
 * caches. */
inline void cls_trapezoid_tile(CLS_LOAD_QUAL __global real *src, __global real *dst
                               CLS_AUX_PARAMS, int t, int h, int step0, int hs,
                               __local real *tile0, __local real *tile1)
{
    cls_tile_pos p = cls_tile_origin(t, h);
    cls_tile_load(src, tile0, p);
    __local real *cur = cls_tile_steps(p, step0 CLS_AUX_ARGS, hs, tile0, tile1);
    /* Commit the valid inner block (only this item wrote these points of cur: no barrier). */
    for (int k = 0; k < CLS_PPI; k++) {
        int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
        int x = p.ox + lx, y = p.oy + ly, z = p.oz + lz;
        if (CLS_COMMITS(x, y, z, lx, ly, lz, h))
            dst[CLS_IDX(x, y, z)] = cur[CLS_TILE_INDEX(lx, ly, lz)];
    }
}

#else /* CLS_NUM_FIELDS */
/* A system of fields (lib/codegen.c, system_tiles): every field's tile in local memory, CLS_TILE_BUFS
 * buffers of CLS_TILE_ALLOC values in T that rotate as lib/rotation.c rotates the state's
 * (cl/system_rotation.cl, emitted before this template).  The rotation is the same for every
 * work-item (private arrays, uniform control flow). */

/* `hs` loops of every stage (only < 0) or of stage `only` alone (profiling, Sect. 4.3: one
 * stage's computation) on the tile's buffers in T, rotating them; at[f] receives the buffer
 * that holds field f. */
inline void cls_tile_fields_steps(cls_tile_pos p, int *at, int step0 CLS_AUX_PARAMS, int hs,
                                  int only, __local real *T)
{
    int start[CLS_NUM_FIELDS], out[CLS_NUM_FIELDS];
    for (int f = 0; f < CLS_NUM_FIELDS; f++) start[f] = out[f] = -1;
    for (int s = 0; s < hs; s++) {
        for (int f = 0; f < CLS_NUM_FIELDS; f++) start[f] = at[f];
        for (int g = 0; g < CLS_NUM_STAGES; g++) {
            if (only >= 0 && g != only) continue;
            cls_rot_stage_begin(g, at, start, out);
            /* the stage's reads wait for the last stage's writes, and its writes for the last
             * stage's reads of the buffers now free */
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < CLS_PPI; k++) {
                int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                cls_stage_tile(g, T, at, out CLS_AUX_ARGS, p.ox + lx, p.oy + ly, p.oz + lz,
                               step0 + s, p.ox, p.oy, p.oz, p.interior);
            }
            cls_rot_stage_end(at, out);
        }
        cls_rot_step_end(at, start);
    }
}

/* One trapezoid of a system: tile t of a stage of height h, `hs` <= h steps from step0, every
 * field from src[f] into dst[f]. */
inline void cls_trapezoid_tile_fields(CLS_LOAD_QUAL __global real *const *src,
                                      __global real *const *dst CLS_AUX_PARAMS, int t, int h,
                                      int step0, int hs, __local real *T)
{
    cls_tile_pos p = cls_tile_origin(t, h);
    int at[CLS_NUM_FIELDS];
    for (int f = 0; f < CLS_NUM_FIELDS; f++) {
        cls_tile_load(src[f], T + f * CLS_TILE_ALLOC, p);
        at[f] = f;
    }
    cls_tile_fields_steps(p, at, step0 CLS_AUX_ARGS, hs, -1, T);
    /* Commit: every point of every buffer read here was written (or loaded) by this item. */
    for (int f = 0; f < CLS_NUM_FIELDS; f++)
        for (int k = 0; k < CLS_PPI; k++) {
            int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
            int x = p.ox + lx, y = p.oy + ly, z = p.oz + lz;
            if (CLS_COMMITS(x, y, z, lx, ly, lz, h))
                dst[f][CLS_IDX(x, y, z)] = T[at[f] * CLS_TILE_ALLOC + CLS_TILE_INDEX(lx, ly, lz)];
        }
}

#endif /* CLS_NUM_FIELDS */

#if !defined(CLS_PERSISTENT) && !defined(CLS_PROFILE) && defined(CLS_NUM_FIELDS)
/* Kernel restart for a system: arguments in0.., out0.., step0, hs, h, then the aux arrays. */
__kernel __attribute__((reqd_work_group_size(CLS_WG_X, CLS_WG_Y, CLS_WG_Z)))
void cls_trapezoid(CLS_FOR_FIELDS(CLS_IN_PARAM) CLS_FOR_FIELDS(CLS_OUT_PARAM) int step0, int hs,
                   int h CLS_AUX_PARAMS)
{
    __local real T[CLS_TILE_BUFS * CLS_TILE_ALLOC];
    CLS_LOAD_QUAL __global real *src[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_IN_ARG)};
    __global real *dst[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_OUT_ARG)};
    cls_trapezoid_tile_fields(src, dst CLS_AUX_ARGS, get_group_id(0), h, step0, hs, T);
}
#endif

#if !defined(CLS_PERSISTENT) && !defined(CLS_PROFILE) && !defined(CLS_NUM_FIELDS)
/* Kernel restart: one work-group per tile (tile t = group t along the first axis), one launch
 * per stage. */
__kernel __attribute__((reqd_work_group_size(CLS_WG_X, CLS_WG_Y, CLS_WG_Z)))
void cls_trapezoid(__global const real *restrict in, __global real *restrict out
                   CLS_AUX_PARAMS, int step0, int hs, int h)
{
    __local real tile0[CLS_TILE_ALLOC], tile1[CLS_TILE_ALLOC];
    cls_trapezoid_tile(in, out CLS_AUX_ARGS, get_group_id(0), h, step0, hs, tile0, tile1);
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

#ifdef CLS_NUM_FIELDS
/* Persistent kernel for a system: every field alternates between its buffers a<f> and b<f>;
 * arguments a0.., b0.., counters, status, step0, steps, h, then the aux arrays. */
__kernel __attribute__((reqd_work_group_size(CLS_WG_X, CLS_WG_Y, CLS_WG_Z)))
void cls_trapezoid_persistent(CLS_FOR_FIELDS(CLS_A_PARAM) CLS_FOR_FIELDS(CLS_B_PARAM)
                              __global volatile int *counters, __global volatile int *status,
                              int step0, int steps, int h CLS_AUX_PARAMS)
{
    __local real T[CLS_TILE_BUFS * CLS_TILE_ALLOC];
    __local volatile int ok;
    __global real *a[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_A_ARG)};
    __global real *b[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_B_ARG)};
    int groups = get_num_groups(0);
    int ntiles = cls_tile_count(h);
    int stages = (steps + h - 1) / h;
    for (int s = 0; s < stages; s++) {
        CLS_LOAD_QUAL __global real *src[CLS_NUM_FIELDS];
        __global real *dst[CLS_NUM_FIELDS];
        for (int f = 0; f < CLS_NUM_FIELDS; f++) {
            src[f] = s % 2 ? b[f] : a[f];
            dst[f] = s % 2 ? a[f] : b[f];
        }
        int hs = min(h, steps - s * h);
        for (int t = get_group_id(0); t < ntiles; t += groups) {
            cls_trapezoid_tile_fields(src, dst CLS_AUX_ARGS, t, h, step0 + s * h, hs, T);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (s + 1 < stages && !cls_grid_barrier(counters + s, status, &ok)) return;
    }
}
#else
/* Persistent kernel: resident groups loop over the tiles of every stage; buffers alternate.
 * The steps are those from step0 (STEP of the first one) on. */
__kernel __attribute__((reqd_work_group_size(CLS_WG_X, CLS_WG_Y, CLS_WG_Z)))
void cls_trapezoid_persistent(__global real *buf0, __global real *buf1 CLS_AUX_PARAMS,
                              __global volatile int *counters, __global volatile int *status,
                              int step0, int steps, int h)
{
    __local real tile0[CLS_TILE_ALLOC], tile1[CLS_TILE_ALLOC];
    __local volatile int ok;
    int groups = get_num_groups(0);
    int ntiles = cls_tile_count(h);
    int stages = (steps + h - 1) / h;
    for (int s = 0; s < stages; s++) {
        __global real *src = s % 2 ? buf1 : buf0, *dst = s % 2 ? buf0 : buf1;
        int hs = min(h, steps - s * h);
        for (int t = get_group_id(0); t < ntiles; t += groups) {
            cls_trapezoid_tile(src, dst CLS_AUX_ARGS, t, h, step0 + s * h, hs, tile0, tile1);
            /* The tiles are reused by the next trapezoid of this group. */
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (s + 1 < stages && !cls_grid_barrier(counters + s, status, &ok)) return;
    }
}
#endif /* CLS_NUM_FIELDS */
#endif

#if defined(CLS_PROFILE) && defined(CLS_NUM_FIELDS)
/* Profiling a system (lib/schedules/trapezoid/profile.c) as the single-field kernel below
 * does; `only` >= 0 computes stage `only` alone in each loop (the per-stage costs of the
 * model's Eq. 16 for systems).  Arguments in0.., out0.., step0, hs, h, io, limit, only, never,
 * then the aux arrays. */
__kernel __attribute__((reqd_work_group_size(CLS_WG_X, CLS_WG_Y, CLS_WG_Z)))
void cls_trapezoid_profile(CLS_FOR_FIELDS(CLS_IN_PARAM) CLS_FOR_FIELDS(CLS_OUT_PARAM) int step0,
                           int hs, int h, int io, int limit, int only, real never CLS_AUX_PARAMS)
{
    __local real T[CLS_TILE_BUFS * CLS_TILE_ALLOC];
    __global const real *src[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_IN_ARG)};
    __global real *dst[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_OUT_ARG)};
    int ntiles = min(cls_tile_count(h), limit);
    for (int t = get_group_id(0); t < ntiles; t += get_num_groups(0)) {
        if (io) {
            cls_trapezoid_tile_fields(src, dst CLS_AUX_ARGS, t, h, step0, hs, T);
        } else {
            cls_tile_pos p = cls_tile_origin(t, h);
            int at[CLS_NUM_FIELDS];
            for (int f = 0; f < CLS_NUM_FIELDS; f++) {
                at[f] = f;
                for (int k = 0; k < CLS_PPI; k++) {
                    int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                    T[f * CLS_TILE_ALLOC + CLS_TILE_INDEX(lx, ly, lz)] =
                        (real)((lx + ly + lz + t + f) & 15) * (real)0.0625;
                }
            }
            cls_tile_fields_steps(p, at, step0 CLS_AUX_ARGS, hs, only, T);
            for (int f = 0; f < CLS_NUM_FIELDS; f++)
                for (int k = 0; k < CLS_PPI; k++) {
                    int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                    real v = T[at[f] * CLS_TILE_ALLOC + CLS_TILE_INDEX(lx, ly, lz)];
                    if (v == never) dst[f][CLS_TILE_INDEX(lx, ly, lz)] = v;
                }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif

#if defined(CLS_PROFILE) && !defined(CLS_NUM_FIELDS)
/* Profiling (Meng & Skadron 2010, Sect. 4.3; lib/schedules/trapezoid/profile.c).  With io = 0:
 * the trapezoids of one stage of height h computed `hs` times over with no device-memory traffic
 * of the state: the tile is filled from the work-item's index and the result is stored only where
 * it equals `never`, which the host sets to a value no result takes (a NaN), so the compiler can
 * remove nothing.  With io = 1: the restart kernel's trapezoids (load, hs steps, commit).  Groups
 * take tiles t, t + groups, ... below min(tiles of the stage, limit): one tile each as the
 * restart kernel, or several as the persistent one. */
__kernel __attribute__((reqd_work_group_size(CLS_WG_X, CLS_WG_Y, CLS_WG_Z)))
void cls_trapezoid_profile(__global const real *restrict in, __global real *restrict out
                           CLS_AUX_PARAMS, int step0, int hs, int h, int io, int limit,
                           real never)
{
    __local real tile0[CLS_TILE_ALLOC], tile1[CLS_TILE_ALLOC];
    int ntiles = min(cls_tile_count(h), limit);
    for (int t = get_group_id(0); t < ntiles; t += get_num_groups(0)) {
        if (io) {
            cls_trapezoid_tile(in, out CLS_AUX_ARGS, t, h, step0, hs, tile0, tile1);
        } else {
            cls_tile_pos p = cls_tile_origin(t, h);
            for (int k = 0; k < CLS_PPI; k++) {
                int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                tile0[CLS_TILE_INDEX(lx, ly, lz)] = (real)((lx + ly + lz + t) & 15) * (real)0.0625;
            }
            __local real *cur = cls_tile_steps(p, step0 CLS_AUX_ARGS, hs, tile0, tile1);
            for (int k = 0; k < CLS_PPI; k++) {
                int lx = CLS_PX(k), ly = CLS_PY(k), lz = CLS_PZ(k);
                real v = cur[CLS_TILE_INDEX(lx, ly, lz)];
                if (v == never) out[CLS_TILE_INDEX(lx, ly, lz)] = v;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif
