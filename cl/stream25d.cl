/* stream25d.cl: the 2.5D streaming schedule of Mo & Li: 2D work-groups tile the
 * XY plane and march along z through CLS_ZCHUNK planes (Sect. 2); one XY plane with its ghost
 * zone at a time in local memory, double-buffered, the next CLS_PREFETCH planes loaded into
 * registers while the current one is computed (software prefetch, Sect. 5); each work-item keeps
 * the values around its CLS_ITEM_Y adjacent columns of the last 2*CLS_RZ+1 planes in a private
 * window (registers, Sect. 3) from which the update reads IN(dx, dy, dz).
 * Ghost-zone loaders: CLS_LOADER 1, classic (Listing 2: edge work-items load the halo under
 * conditions), 2, aligned (Listing 3: the tile widened to whole segments, CLS_GX words each
 * side, loaded row-major by all work-items), 3, direct: no local memory, each work-item streams
 * CLS_ROWS rows of CLS_ROW_LEN points along z reading global memory (CPUs, whose caches hold
 * the planes; cls_stream25d_rows).  One launch per time step, as the naive schedule. */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 1
#define CLS_HALO_Y 1
#define CLS_HALO_Z 1
#define CLS_RX 1
#define CLS_RY 1
#define CLS_RZ 1
#define CLS_OFFSETS(X) X(0, -1) X(-1, 0) X(0, 0) X(1, 0) X(0, 1)
inline real cls_update_stream(__private const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[CLS_WIN_IDX(0, 0, -1)] + in[CLS_WIN_IDX(0, 0, 1)] - 2 * in[CLS_WIN_IDX(0, 0, 0)];
}
inline real cls_update(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0, 0);
}
inline real cls_update_interior(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0, 0);
}
#endif
#ifndef CLS_LOADER
#define CLS_LOADER 2
#endif
#ifndef CLS_BX
#define CLS_BX 32
#endif
#ifndef CLS_BY
#define CLS_BY 6
#endif
#ifndef CLS_ZCHUNK
#define CLS_ZCHUNK NZ
#endif
#ifndef CLS_CORNERS
#define CLS_CORNERS 0
#endif
#ifndef CLS_GX
#define CLS_GX (CLS_LOADER == 2 ? 8 : CLS_RX)
#endif
#ifndef CLS_ROW_LEN
#define CLS_ROW_LEN NX
#endif
#ifndef CLS_ROWS
#define CLS_ROWS 1
#endif
#ifndef CLS_PREFETCH
#define CLS_PREFETCH 1 /* planes loaded ahead of the one stored into local memory (Sect. 5) */
#endif
#ifndef CLS_UNROLL_Z
#define CLS_UNROLL_Z 0 /* unroll the plane loop by the window's 2*CLS_RZ+1 planes (GPUs) */
#endif
#ifndef CLS_ITEM_Y
#define CLS_ITEM_Y 1 /* adjacent rows each work-item updates (their windows overlap) */
#endif

/* Offset of plane z in the grid. */
#define CLS_PLANE(z) CLS_IDX(0, 0, z)

#if CLS_LOADER != 3
/* ------------------------------------------------------------------ local-memory loaders */
#define CLS_LW (CLS_BX + 2 * CLS_GX) /* local row: the tile and CLS_GX ghost words each side */
#define CLS_TY (CLS_BY * CLS_ITEM_Y) /* rows of the tile: work-item (lx, ly) has rows
                                        ly*CLS_ITEM_Y .. ly*CLS_ITEM_Y + CLS_ITEM_Y - 1 */
#define CLS_LH (CLS_TY + 2 * CLS_RY)
#define CLS_LPLANE (CLS_LW * CLS_LH)
#define CLS_ITEMS (CLS_BX * CLS_BY)

/* The grid point a load at coordinate i (virtual: up to r outside [0, n)) takes its value from
 * under the boundary rule; coordinates further out (the aligned loader's extra ghost words, the
 * work-items past a ragged edge) take any in-grid point: their values are never read. */
inline int cls_s25_src(int i, int n, int r)
{
    return i >= -r && i < n + r ? cls_fold(i, n) : clamp(i, 0, n - 1);
}

#if CLS_BOUNDARY == CLS_CONSTANT
#define CLS_INSIDE_XY(x, y) ((x) >= 0 && (x) < NX && (y) >= 0 && (y) < NY)
#else
#define CLS_INSIDE_XY(x, y) 1
#endif

/* One load slot: the global XY offset of its source, its place in the local plane and, for the
 * constant boundary, whether the source is inside the grid. */
typedef struct cls_slot {
    int src;
    int dst;
    int inside;
} cls_slot;

inline cls_slot cls_make_slot(int gx, int gy, int lx, int ly)
{
    cls_slot s;
    s.src = CLS_IDX(cls_s25_src(gx, NX, CLS_RX), cls_s25_src(gy, NY, CLS_RY), 0);
    s.dst = lx + CLS_LW * ly;
    s.inside = CLS_INSIDE_XY(gx, gy);
    return s;
}

/* A value of plane p (virtual: p may lie CLS_RZ outside [0, NZ)); `inz` says whether p is in
 * the grid for the constant boundary, `zoff` is the folded plane's offset. */
#if CLS_BOUNDARY == CLS_CONSTANT
#define CLS_FETCH(slot, zoff, inz)                                                              \
    ((inz) && (slot).inside ? in[(slot).src + (zoff)] : (real)CLS_BOUNDARY_VALUE)
#else
#define CLS_FETCH(slot, zoff, inz) in[(slot).src + (zoff)]
#endif
/* The loaders below: cls_setup computes a work-item's load slots once, cls_load_plane fetches
 * its part of a plane from global memory into registers (pf), cls_store_plane puts it into
 * local memory. */

#if CLS_LOADER == 2
/* Listing 3: the loaded plane (CLS_LW x CLS_LH words, the ghost columns whole segments) is
 * numbered row-major and work-item l loads words l, l + CLS_ITEMS, ...: CLS_NLOAD loads per
 * work-item, coalesced, no conditions (but for a last partial round when the plane is not a
 * multiple of the work-group). */
#define CLS_NLOAD ((CLS_LPLANE + CLS_ITEMS - 1) / CLS_ITEMS)
#define CLS_PARTIAL (CLS_LPLANE % CLS_ITEMS != 0)
inline void cls_setup(__private cls_slot *slots, int lx, int ly, int x0, int y0)
{
#pragma unroll
    for (int r = 0; r < CLS_NLOAD; r++) {
        int t = lx + CLS_BX * ly + r * CLS_ITEMS;
        /* a last partial round loads a valid word and never stores it */
        int tx = t % CLS_LW, ty = min(t / CLS_LW, CLS_LH - 1);
        slots[r] = cls_make_slot(x0 - CLS_GX + tx, y0 - CLS_RY + ty, tx, ty);
        slots[r].dst = t;
    }
}
inline void cls_load_plane(__global const real *restrict in, __private real *pf,
                           __private const cls_slot *slots, int zoff, int inz, int lx, int ly)
{
#pragma unroll
    for (int r = 0; r < CLS_NLOAD; r++) pf[r] = CLS_FETCH(slots[r], zoff, inz);
}
inline void cls_store_plane(__local real *buf, __private const real *pf,
                            __private const cls_slot *slots, int lx, int ly)
{
#pragma unroll
    for (int r = 0; r < CLS_NLOAD; r++)
        if (!CLS_PARTIAL || r + 1 < CLS_NLOAD || slots[r].dst < CLS_LPLANE)
            buf[slots[r].dst] = pf[r];
}
#else
/* Listing 2: for each of its rows t, a work-item loads its own point (slot 0) and, only on the
 * tile's edge, the ghost zone: rows above (t < RY) and below (t >= TY - RY), columns left
 * (lx < RX) and right (lx >= BX - RX) and, when the stencil reads diagonal neighbours, the four
 * corners (lx < RX and t < RY). */
#define CLS_SLOTS (CLS_CORNERS ? 9 : 5)
#define CLS_NLOAD (CLS_ITEM_Y * CLS_SLOTS)
inline void cls_setup(__private cls_slot *slots, int lx, int ly, int x0, int y0)
{
#pragma unroll
    for (int j = 0; j < CLS_ITEM_Y; j++) {
        __private cls_slot *sl = slots + j * CLS_SLOTS;
        int t = ly * CLS_ITEM_Y + j, gx = x0 + lx, gy = y0 + t;
        sl[0] = cls_make_slot(gx, gy, lx + CLS_GX, t + CLS_RY);
        sl[1] = cls_make_slot(gx, gy - CLS_RY, lx + CLS_GX, t);
        sl[2] = cls_make_slot(gx, gy + CLS_RY, lx + CLS_GX, t + 2 * CLS_RY);
        sl[3] = cls_make_slot(gx - CLS_RX, gy, lx + CLS_GX - CLS_RX, t + CLS_RY);
        sl[4] = cls_make_slot(gx + CLS_RX, gy, lx + CLS_GX + CLS_RX, t + CLS_RY);
#if CLS_CORNERS
        sl[5] = cls_make_slot(gx - CLS_RX, gy - CLS_RY, lx, t);
        sl[6] = cls_make_slot(gx + CLS_BX, gy - CLS_RY, lx + CLS_GX + CLS_BX, t);
        sl[7] = cls_make_slot(gx - CLS_RX, gy + CLS_TY, lx, t + CLS_TY + CLS_RY);
        sl[8] = cls_make_slot(gx + CLS_BX, gy + CLS_TY, lx + CLS_GX + CLS_BX, t + CLS_TY + CLS_RY);
#endif
    }
}
/* Which slots a work-item loads for its row t (the conditions of Listing 2, lines 7-11). */
#define CLS_EDGE_TOP(t) ((t) < CLS_RY)
#define CLS_EDGE_BOTTOM(t) ((t) >= CLS_TY - CLS_RY)
#define CLS_EDGE_LEFT (lx < CLS_RX)
#define CLS_EDGE_RIGHT (lx >= CLS_BX - CLS_RX)
inline void cls_load_plane(__global const real *restrict in, __private real *pf,
                           __private const cls_slot *slots, int zoff, int inz, int lx, int ly)
{
#pragma unroll
    for (int j = 0; j < CLS_ITEM_Y; j++) {
        __private const cls_slot *sl = slots + j * CLS_SLOTS;
        __private real *v = pf + j * CLS_SLOTS;
        int t = ly * CLS_ITEM_Y + j;
        v[0] = CLS_FETCH(sl[0], zoff, inz);
        if (CLS_EDGE_TOP(t)) v[1] = CLS_FETCH(sl[1], zoff, inz);
        if (CLS_EDGE_BOTTOM(t)) v[2] = CLS_FETCH(sl[2], zoff, inz);
        if (CLS_EDGE_LEFT) v[3] = CLS_FETCH(sl[3], zoff, inz);
        if (CLS_EDGE_RIGHT) v[4] = CLS_FETCH(sl[4], zoff, inz);
#if CLS_CORNERS
        if (CLS_EDGE_LEFT && CLS_EDGE_TOP(t)) {
            v[5] = CLS_FETCH(sl[5], zoff, inz);
            v[6] = CLS_FETCH(sl[6], zoff, inz);
            v[7] = CLS_FETCH(sl[7], zoff, inz);
            v[8] = CLS_FETCH(sl[8], zoff, inz);
        }
#endif
    }
}
inline void cls_store_plane(__local real *buf, __private const real *pf,
                            __private const cls_slot *slots, int lx, int ly)
{
#pragma unroll
    for (int j = 0; j < CLS_ITEM_Y; j++) {
        __private const cls_slot *sl = slots + j * CLS_SLOTS;
        __private const real *v = pf + j * CLS_SLOTS;
        int t = ly * CLS_ITEM_Y + j;
        buf[sl[0].dst] = v[0];
        if (CLS_EDGE_TOP(t)) buf[sl[1].dst] = v[1];
        if (CLS_EDGE_BOTTOM(t)) buf[sl[2].dst] = v[2];
        if (CLS_EDGE_LEFT) buf[sl[3].dst] = v[3];
        if (CLS_EDGE_RIGHT) buf[sl[4].dst] = v[4];
#if CLS_CORNERS
        if (CLS_EDGE_LEFT && CLS_EDGE_TOP(t)) {
            buf[sl[5].dst] = v[5];
            buf[sl[6].dst] = v[6];
            buf[sl[7].dst] = v[7];
            buf[sl[8].dst] = v[8];
        }
#endif
    }
}
#endif

/* Folded offset of virtual plane p, and whether p is inside the grid (constant boundary). */
#define CLS_ZOFF(p) CLS_PLANE(cls_s25_src(p, NZ, CLS_RZ))
#define CLS_INZ(p) ((p) >= 0 && (p) < NZ)

/* The window's newest plane (dz = +CLS_RZ) from the local plane `buf`, at the offsets the update
 * reads (CLS_OFFSETS lists them), and the shift of the window by one plane. */
#define CLS_WIN_READ(dx, dy)                                                                   \
    win[CLS_WIN_IDX(dx, dy, CLS_RZ)] =                                                         \
        buf[(ly * CLS_ITEM_Y + CLS_RY + (dy)) * CLS_LW + lx + CLS_GX + (dx)];
#define CLS_WIN_MOVE(dx, dy, dz) win[CLS_WIN_IDX(dx, dy, dz)] = win[CLS_WIN_IDX(dx, dy, (dz) + 1)];
#if CLS_RZ == 0
#define CLS_WIN_SHIFT(dx, dy)
#elif CLS_RZ == 1
#define CLS_WIN_SHIFT(dx, dy) CLS_WIN_MOVE(dx, dy, -1) CLS_WIN_MOVE(dx, dy, 0)
#else
#define CLS_WIN_SHIFT(dx, dy)                                                                  \
    CLS_WIN_MOVE(dx, dy, -2) CLS_WIN_MOVE(dx, dy, -1) CLS_WIN_MOVE(dx, dy, 0)                  \
    CLS_WIN_MOVE(dx, dy, 1)
#endif

#ifndef CLS_NUM_FIELDS
__kernel __attribute__((reqd_work_group_size(CLS_BX, CLS_BY, 1)))
void cls_stream25d(__global const real *restrict in, __global real *restrict out
                   CLS_AUX_PARAMS, int step)
{
    __local real planes[2][CLS_LPLANE];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x0 = get_group_id(0) * CLS_BX, y0 = get_group_id(1) * CLS_TY;
    const int z0 = get_group_id(2) * CLS_ZCHUNK, z1 = min(z0 + CLS_ZCHUNK, NZ);
    const int x = x0 + lx, y = y0 + ly * CLS_ITEM_Y;
    /* Items past a ragged edge compute throw-away values at in-grid coordinates. */
    const int xc = min(x, NX - 1);
    cls_slot slots[CLS_NLOAD];
    real pf[CLS_PREFETCH][CLS_NLOAD]; /* planes q + 1 .. q + CLS_PREFETCH, in flight */
    real win[CLS_WIN];
    cls_setup(slots, lx, ly, x0, y0);

    /* Planes q0 .. q1 - 1 pass through: global memory -> registers (pf, CLS_PREFETCH planes
     * ahead: the software prefetch of Sect. 5) -> local memory (double-buffered) -> the window.
     * Iteration q takes plane q from local memory into the window (Sect. 5, step 2), computes
     * and writes plane z = q - RZ once the window holds planes z - RZ .. z + RZ (step 4), while
     * the loads of plane q + CLS_PREFETCH are in flight (step 3); then it stores plane q + 1
     * into the other buffer. */
    const int q0 = z0 - CLS_RZ, q1 = z1 + CLS_RZ;
#pragma unroll
    for (int d = 0; d < CLS_PREFETCH; d++)
        if (q0 + d < q1)
            cls_load_plane(in, pf[d], slots, CLS_ZOFF(q0 + d), CLS_INZ(q0 + d), lx, ly);
    cls_store_plane(planes[q0 & 1], pf[0], slots, lx, ly);
    barrier(CLK_LOCAL_MEM_FENCE);
#if CLS_UNROLL_Z && CLS_RZ == 1
#pragma unroll 3
#elif CLS_UNROLL_Z && CLS_RZ == 2
#pragma unroll 5
#endif
    for (int q = q0; q < q1; q++) {
#pragma unroll
        for (int d = 0; d + 1 < CLS_PREFETCH; d++)
#pragma unroll
            for (int r = 0; r < CLS_NLOAD; r++) pf[d][r] = pf[d + 1][r];
        const int ahead = q + CLS_PREFETCH;
        if (ahead < q1)
            cls_load_plane(in, pf[CLS_PREFETCH - 1], slots, CLS_ZOFF(ahead), CLS_INZ(ahead), lx,
                           ly);
        {
            __local real *buf = planes[q & 1];
            CLS_OFFSETS(CLS_WIN_READ)
        }
        const int z = q - CLS_RZ;
        if (z >= z0) {
            /* Row j's window is the shared one shifted by j rows. */
#pragma unroll
            for (int j = 0; j < CLS_ITEM_Y; j++) {
                real v = cls_update_stream(win + j * CLS_WIN_X CLS_AUX_ARGS, xc,
                                           min(y + j, NY - 1), z, step);
                if (x < NX && y + j < NY) out[CLS_IDX(x, y + j, z)] = v;
            }
        }
        if (q + 1 < q1) cls_store_plane(planes[(q + 1) & 1], pf[0], slots, lx, ly);
        barrier(CLK_LOCAL_MEM_FENCE);
        CLS_OFFSETS(CLS_WIN_SHIFT)
    }
}
#else
/* One stage of a system of fields (codegen's system stage): the kernel above with every field
 * of the system streamed side by side, each with its planes in local memory and its window,
 * at the offsets the stage's updates read of any field (their union: the windows' unused
 * entries are dead code).  Every update of the stage reads the fields as they were at the
 * stage's start and writes its own output buffer (lib/rotation.c). */
#define CLS_FIELD_WIN_READ(dx, dy)                                                             \
    w[CLS_WIN_IDX(dx, dy, CLS_RZ)] = buf[(ly * CLS_ITEM_Y + CLS_RY + (dy)) * CLS_LW + lx + CLS_GX + (dx)];
#define CLS_FIELD_WIN_MOVE(dx, dy, dz) w[CLS_WIN_IDX(dx, dy, dz)] = w[CLS_WIN_IDX(dx, dy, (dz) + 1)];
#if CLS_RZ == 0
#define CLS_FIELD_WIN_SHIFT(dx, dy)
#elif CLS_RZ == 1
#define CLS_FIELD_WIN_SHIFT(dx, dy) CLS_FIELD_WIN_MOVE(dx, dy, -1) CLS_FIELD_WIN_MOVE(dx, dy, 0)
#else
#define CLS_FIELD_WIN_SHIFT(dx, dy)                                                            \
    CLS_FIELD_WIN_MOVE(dx, dy, -2) CLS_FIELD_WIN_MOVE(dx, dy, -1)                              \
    CLS_FIELD_WIN_MOVE(dx, dy, 0) CLS_FIELD_WIN_MOVE(dx, dy, 1)
#endif
__kernel __attribute__((reqd_work_group_size(CLS_BX, CLS_BY, 1)))
void cls_stream25d_stage(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, int step)
{
    __local real planes[CLS_NUM_FIELDS][2][CLS_LPLANE];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x0 = get_group_id(0) * CLS_BX, y0 = get_group_id(1) * CLS_TY;
    const int z0 = get_group_id(2) * CLS_ZCHUNK, z1 = min(z0 + CLS_ZCHUNK, NZ);
    const int x = x0 + lx, y = y0 + ly * CLS_ITEM_Y;
    const int xc = min(x, NX - 1);
    __global const real *src[CLS_NUM_FIELDS] = {CLS_FIELD_ARGS};
    cls_slot slots[CLS_NLOAD];
    real pf[CLS_NUM_FIELDS][CLS_PREFETCH][CLS_NLOAD];
    real win[CLS_NUM_FIELDS][CLS_WIN];
    cls_setup(slots, lx, ly, x0, y0);

    const int q0 = z0 - CLS_RZ, q1 = z1 + CLS_RZ;
#pragma unroll
    for (int f = 0; f < CLS_NUM_FIELDS; f++) {
#pragma unroll
        for (int d = 0; d < CLS_PREFETCH; d++)
            if (q0 + d < q1)
                cls_load_plane(src[f], pf[f][d], slots, CLS_ZOFF(q0 + d), CLS_INZ(q0 + d), lx,
                               ly);
        cls_store_plane(planes[f][q0 & 1], pf[f][0], slots, lx, ly);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = q0; q < q1; q++) {
        const int ahead = q + CLS_PREFETCH;
#pragma unroll
        for (int f = 0; f < CLS_NUM_FIELDS; f++) {
#pragma unroll
            for (int d = 0; d + 1 < CLS_PREFETCH; d++)
#pragma unroll
                for (int r = 0; r < CLS_NLOAD; r++) pf[f][d][r] = pf[f][d + 1][r];
            if (ahead < q1)
                cls_load_plane(src[f], pf[f][CLS_PREFETCH - 1], slots, CLS_ZOFF(ahead),
                               CLS_INZ(ahead), lx, ly);
            __local real *buf = planes[f][q & 1];
            __private real *w = win[f];
            CLS_OFFSETS(CLS_FIELD_WIN_READ)
        }
        const int z = q - CLS_RZ;
        if (z >= z0) {
#pragma unroll
            for (int j = 0; j < CLS_ITEM_Y; j++)
                CLS_STAGE_WIN_STORE(win, j, xc, min(y + j, NY - 1), z, step,
                                    x < NX && y + j < NY, CLS_IDX(x, y + j, z));
        }
#pragma unroll
        for (int f = 0; f < CLS_NUM_FIELDS; f++)
            if (q + 1 < q1) cls_store_plane(planes[f][(q + 1) & 1], pf[f][0], slots, lx, ly);
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int f = 0; f < CLS_NUM_FIELDS; f++) {
            __private real *w = win[f];
            CLS_OFFSETS(CLS_FIELD_WIN_SHIFT)
        }
    }
}
#endif
#else
/* ------------------------------------------------------------------ direct (CPUs) */
/* Each work-item streams a block of CLS_ROWS rows of CLS_ROW_LEN points through CLS_ZCHUNK
 * planes.  The rows of planes z-1, z, z+1 it reads were touched one plane earlier, so they come
 * from the cache; the interior part of each row has no boundary code and vectorises like a C
 * loop (as naive_rows.cl). */
#ifndef CLS_NUM_FIELDS
__kernel void cls_stream25d_rows(__global const real *restrict in, __global real *restrict out
                                 CLS_AUX_PARAMS, int step)
{
    const int x0 = (int)get_global_id(0) * CLS_ROW_LEN;
    const int yb = (int)get_global_id(1) * CLS_ROWS;
    const int z0 = (int)get_global_id(2) * CLS_ZCHUNK;
    if (x0 >= NX || yb >= NY || z0 >= NZ) return;
    const int x1 = min(x0 + CLS_ROW_LEN, NX), y1 = min(yb + CLS_ROWS, NY);
    const int z1 = min(z0 + CLS_ZCHUNK, NZ);
    const int lo_in = max(x0, CLS_HALO_X), hi_in = min(x1, NX - CLS_HALO_X);
    for (int z = z0; z < z1; z++) {
        const int inner_z = z >= CLS_HALO_Z && z < NZ - CLS_HALO_Z;
        for (int y = yb; y < y1; y++) {
            /* [lo, hi) is the part of the row whose stencil stays inside the grid. */
            int inner = inner_z && y >= CLS_HALO_Y && y < NY - CLS_HALO_Y && lo_in < hi_in;
            int lo = inner ? lo_in : x1, hi = inner ? hi_in : x1;
            __global real *restrict row = out + CLS_IDX(0, y, z);
            for (int x = x0; x < lo; x++) row[x] = cls_update(in CLS_AUX_ARGS, x, y, z, step);
            for (int x = lo; x < hi; x++)
                row[x] = cls_update_interior(in CLS_AUX_ARGS, x, y, z, step);
            for (int x = hi; x < x1; x++) row[x] = cls_update(in CLS_AUX_ARGS, x, y, z, step);
        }
    }
}
#else
/* One stage of a system, as above: every update of the stage per point (CLS_STAGE_STORE). */
__kernel void cls_stream25d_stage_rows(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS,
                                       int step)
{
    const int x0 = (int)get_global_id(0) * CLS_ROW_LEN;
    const int yb = (int)get_global_id(1) * CLS_ROWS;
    const int z0 = (int)get_global_id(2) * CLS_ZCHUNK;
    if (x0 >= NX || yb >= NY || z0 >= NZ) return;
    const int x1 = min(x0 + CLS_ROW_LEN, NX), y1 = min(yb + CLS_ROWS, NY);
    const int z1 = min(z0 + CLS_ZCHUNK, NZ);
    const int lo_in = max(x0, CLS_HALO_X), hi_in = min(x1, NX - CLS_HALO_X);
    for (int z = z0; z < z1; z++) {
        const int inner_z = z >= CLS_HALO_Z && z < NZ - CLS_HALO_Z;
        for (int y = yb; y < y1; y++) {
            int inner = inner_z && y >= CLS_HALO_Y && y < NY - CLS_HALO_Y && lo_in < hi_in;
            int lo = inner ? lo_in : x1, hi = inner ? hi_in : x1;
            for (int x = x0; x < lo; x++) CLS_STAGE_STORE(, x, y, z, step);
            for (int x = lo; x < hi; x++) CLS_STAGE_STORE(_interior, x, y, z, step);
            for (int x = hi; x < x1; x++) CLS_STAGE_STORE(, x, y, z, step);
        }
    }
}
#endif
#endif
