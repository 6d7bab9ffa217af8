/* cputile.cl: the cputile schedule for CPUs: overlapped temporal tiles in global scratch.
 * Each work-group (one work-item) takes tiles of CLS_CT_X x CLS_CT_Y x CLS_CT_Z points in
 * turn and advances each by `steps` (at most CLS_CT_H) time steps in a scratch box of its own,
 * small enough to stay in its core's cache: step s updates the tile widened by (steps - s)
 * halos, so that the last step has every value its tile needs, and only the last step writes
 * the grid (the ghost zones of Meng & Skadron 2010, without local memory or barriers: the
 * overlap is recomputed by each tile).  Tiles read the step's input grid `in` and write `out`,
 * so they are independent; one launch per pass of `steps` steps.
 *
 * The first step reads `in` with the boundary rule, as the naive row kernel does; the later
 * ones read the box through cls_update_scratch*, at constant offsets from the point, with no
 * boundary code: after each step the box's points just outside the grid (ghosts) get the
 * boundary rule's values.  Periodic grids have no ghosts: their tiles are widened across the
 * edge at virtual coordinates, the updates there get the wrapped coordinates.  Rows are plain
 * loops along x that the device compiler vectorises (the overlapping last vector block of
 * cl/naive_rows.cl).
 *
 * A system of fields (CLS_NUM_FIELDS; lib/codegen.c, system_scratch) keeps CLS_TILE_BUFS boxes
 * per group that rotate as the state's buffers do (cl/system_rotation.cl).  A tile's pass
 * copies every field's widened region from the grid into its boxes, runs every stage of every
 * step from box to box, each stage on the tile widened by the reach of the stages still to
 * come, and copies every field's tile into the grid. */
#ifndef CLS_GENERATED
#define CLS_INLINE inline
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 0
#define CLS_HALO_Y 0
#define CLS_HALO_Z 0
#define CLS_CPUTILE 1
#define CLS_CT_X 64
#define CLS_CT_Y 16
#define CLS_CT_Z 1
#define CLS_CT_H 2
inline real cls_update(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
inline real cls_update_interior(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
inline real cls_update_row(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
#define cls_update_scratch cls_update
#define cls_update_scratch_interior cls_update
#define cls_update_scratch_row cls_update
#endif
#ifndef CLS_ROW_VEC
#define CLS_ROW_VEC 16
#endif

#define CLS_SCR_BOX ((long)CLS_SCR_PX * CLS_SCR_PY * CLS_SCR_PZ)

/* How far outside the grid's edges the boxes hold ghost points: the halo; for a system the
 * widest reach of one stage (the planner's CLS_CT_GHOST_X..). */
#ifndef CLS_CT_GHOST_X
#define CLS_CT_GHOST_X CLS_HALO_X
#define CLS_CT_GHOST_Y CLS_HALO_Y
#define CLS_CT_GHOST_Z CLS_HALO_Z
#endif

/* A coordinate of a widened periodic tile (up to CLS_CT_H halos outside [0, n)) in the grid;
 * the identity for coordinates inside. */
inline int cls_ct_wrap(int i, int n)
{
    if (i >= 0 && i < n) return i;
    i %= n;
    return i < 0 ? i + n : i;
}

/* [a, b) as a multiple of CLS_ROW_VEC points, then its last CLS_ROW_VEC points again (the
 * overlap recomputes the same values, so every point runs in vector code). */
#define CLS_CT_LOOP(stmt)                                                                      \
    do {                                                                                       \
        int n_ = b - a, full_ = n_ - n_ % CLS_ROW_VEC;                                         \
        for (int x = a; x < a + full_; x++) stmt;                                              \
        int tail_ = full_ == n_ ? b : (n_ >= CLS_ROW_VEC ? b - CLS_ROW_VEC : a);               \
        for (int x = tail_; x < b; x++) stmt;                                                  \
    } while (0)

/* Whether row (y, z) of the grid lies at least a halo inside its edges. */
inline int cls_ct_inner_row(int y, int z)
{
    int inner = 1;
#if CLS_DIMS > 1
    if (y < CLS_HALO_Y || y >= NY - CLS_HALO_Y) inner = 0;
#endif
#if CLS_DIMS > 2
    if (z < CLS_HALO_Z || z >= NZ - CLS_HALO_Z) inner = 0;
#endif
    return inner;
}

/* The box index of grid (or virtual) point (x, y, z) of the box whose first point is o. */
inline long cls_ct_at(int x, int y, int z, int ox, int oy, int oz)
{
    return (long)(x - ox) + (long)CLS_SCR_PX * ((long)(y - oy) + (long)CLS_SCR_PY * (long)(z - oz));
}

#if CLS_BOUNDARY != CLS_PERIODIC
/* The value of ghost point (x, y, z) from the box, where every coordinate inside the grid
 * is a computed point or an already filled ghost. */
inline real cls_ct_ghost(__global const real *restrict box, int x, int y, int z, int ox, int oy,
                         int oz)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    return (real)CLS_BOUNDARY_VALUE;
#else
    return box[cls_ct_at(cls_fold(x, NX), cls_fold(y, NY), cls_fold(z, NZ), ox, oy, oz)];
#endif
}

/* Ghost rows: row (y, z) of the box over [x0, x1) takes the values of row (sy, sz) (inside the
 * grid, its x ghosts filled), or the boundary's constant: a plain copy that vectorises. */
inline void cls_ct_ghost_copy(__global real *restrict box, int x0, int x1, int y, int z, int sy,
                              int sz, int ox, int oy, int oz)
{
    __global real *restrict row = box + cls_ct_at(x0, y, z, ox, oy, oz);
#if CLS_BOUNDARY == CLS_CONSTANT
    for (int i = 0; i < x1 - x0; i++) row[i] = (real)CLS_BOUNDARY_VALUE;
#else
    __global const real *restrict from = box + cls_ct_at(x0, sy, sz, ox, oy, oz);
    for (int i = 0; i < x1 - x0; i++) row[i] = from[i];
#endif
}

/* Fills the ghosts of the box's region lo..hi (clipped to the grid): a halo outside each edge
 * of the grid that the region reaches; x in the region's rows first, then whole rows in y,
 * then whole planes in z, so that a corner takes the folded point of every coordinate
 * (cls_read's rule). */
inline void cls_ct_fill_ghosts(__global real *restrict box, const int *lo, const int *hi,
                               int ox, int oy, int oz)
{
    const int n[3] = {NX, NY, NZ}, h[3] = {CLS_CT_GHOST_X, CLS_CT_GHOST_Y, CLS_CT_GHOST_Z};
    int gl[3], gh[3];
    for (int d = 0; d < 3; d++) {
        gl[d] = lo[d] == 0 ? -h[d] : lo[d];
        gh[d] = hi[d] == n[d] ? n[d] + h[d] : hi[d];
    }
    if (gl[0] < lo[0] || gh[0] > hi[0])
        for (int z = lo[2]; z < hi[2]; z++)
            for (int y = lo[1]; y < hi[1]; y++) {
                __global real *restrict row = box + cls_ct_at(0, y, z, ox, oy, oz);
                for (int x = gl[0]; x < lo[0]; x++) row[x] = cls_ct_ghost(box, x, y, z, ox, oy, oz);
                for (int x = hi[0]; x < gh[0]; x++) row[x] = cls_ct_ghost(box, x, y, z, ox, oy, oz);
            }
    for (int z = lo[2]; z < hi[2]; z++) {
        for (int y = gl[1]; y < lo[1]; y++)
            cls_ct_ghost_copy(box, gl[0], gh[0], y, z, cls_fold(y, NY), z, ox, oy, oz);
        for (int y = hi[1]; y < gh[1]; y++)
            cls_ct_ghost_copy(box, gl[0], gh[0], y, z, cls_fold(y, NY), z, ox, oy, oz);
    }
    for (int z = gl[2]; z < gh[2]; z++)
        if (z < lo[2] || z >= hi[2])
            for (int y = gl[1]; y < gh[1]; y++)
                cls_ct_ghost_copy(box, gl[0], gh[0], y, z, y, cls_fold(z, NZ), ox, oy, oz);
}
#endif

/* The points c0 .. c1 (exclusive) of tile t (x fastest, the last tiles of each axis ragged);
 * 0 when t is past the last tile. */
inline int cls_ct_tile_bounds(int t, int *c0, int *c1)
{
    const int tx = (NX + CLS_CT_X - 1) / CLS_CT_X, ty = (NY + CLS_CT_Y - 1) / CLS_CT_Y,
              tz = (NZ + CLS_CT_Z - 1) / CLS_CT_Z;
    if (t >= tx * ty * tz) return 0;
    c0[0] = t % tx * CLS_CT_X;
    c0[1] = t / tx % ty * CLS_CT_Y;
    c0[2] = t / tx / ty * CLS_CT_Z;
    c1[0] = min(c0[0] + CLS_CT_X, NX);
    c1[1] = min(c0[1] + CLS_CT_Y, NY);
    c1[2] = min(c0[2] + CLS_CT_Z, NZ);
    return 1;
}

#ifndef CLS_NUM_FIELDS
/* The first step: points [x0, x1) of row (y, z) (wrapped into the grid) from the grid `in`;
 * dst points at the value of x0. */
CLS_INLINE void cls_ct_row_grid(__global const real *restrict in, __global real *restrict dst
                                CLS_AUX_PARAMS, int x0, int x1, int y, int z, int step)
{
    int a = max(x0, CLS_HALO_X), b = min(x1, NX - CLS_HALO_X);
    if (b < a) b = a = x1;
    __global real *restrict row = dst - x0;
    for (int x = x0; x < a; x++)
        row[x] = cls_update(in CLS_AUX_ARGS, cls_ct_wrap(x, NX), y, z, step);
    if (cls_ct_inner_row(y, z))
        CLS_CT_LOOP(row[x] = cls_update_interior(in CLS_AUX_ARGS, x, y, z, step));
    else
        CLS_CT_LOOP(row[x] = cls_update_row(in CLS_AUX_ARGS, x, y, z, step));
    for (int x = b; x < x1; x++)
        row[x] = cls_update(in CLS_AUX_ARGS, cls_ct_wrap(x, NX), y, z, step);
}

/* A later step: points [x0, x1) of row (y, z) from the box; src and dst point at the value of
 * x0 in the previous and the next step's box (or dst in the grid). */
CLS_INLINE void cls_ct_row_box(__global const real *restrict src, __global real *restrict dst
                               CLS_AUX_PARAMS, int x0, int x1, int y, int z, int step)
{
    int a = max(x0, CLS_HALO_X), b = min(x1, NX - CLS_HALO_X);
    if (b < a) b = a = x1;
    __global const real *restrict s = src - x0;
    __global real *restrict row = dst - x0;
    for (int x = x0; x < a; x++)
        row[x] = cls_update_scratch(s + x CLS_AUX_ARGS, cls_ct_wrap(x, NX), y, z, step);
    if (cls_ct_inner_row(y, z))
        CLS_CT_LOOP(row[x] = cls_update_scratch_interior(s + x CLS_AUX_ARGS, x, y, z, step));
    else
        CLS_CT_LOOP(row[x] = cls_update_scratch_row(s + x CLS_AUX_ARGS, x, y, z, step));
    for (int x = b; x < x1; x++)
        row[x] = cls_update_scratch(s + x CLS_AUX_ARGS, cls_ct_wrap(x, NX), y, z, step);
}

/* Advances the tile of points c0 .. c1 (exclusive) by `steps` steps from `in` into `out`,
 * through the two boxes b0 and b1. */
CLS_INLINE void cls_ct_tile(__global const real *restrict in, __global real *restrict out
                            CLS_AUX_PARAMS, __global real *restrict b0, __global real *restrict b1,
                            const int *c0, const int *c1, int step0, int steps)
{
    const int n[3] = {NX, NY, NZ}, h[3] = {CLS_HALO_X, CLS_HALO_Y, CLS_HALO_Z};
    const int ox = c0[0] - CLS_CT_H * CLS_HALO_X, oy = c0[1] - CLS_CT_H * CLS_HALO_Y,
              oz = c0[2] - CLS_CT_H * CLS_HALO_Z;
    for (int s = 1; s <= steps; s++) {
        int lo[3], hi[3];
        for (int d = 0; d < 3; d++) {
            lo[d] = c0[d] - (steps - s) * h[d];
            hi[d] = c1[d] + (steps - s) * h[d];
#if CLS_BOUNDARY != CLS_PERIODIC
            lo[d] = max(lo[d], 0);
            hi[d] = min(hi[d], n[d]);
#endif
        }
        __global const real *restrict src = (s & 1) ? b1 : b0; /* step s - 1's box */
        __global real *restrict dst = (s & 1) ? b0 : b1;
        const int step = step0 + s - 1;
        for (int z = lo[2]; z < hi[2]; z++)
            for (int y = lo[1]; y < hi[1]; y++) {
                const int yw = cls_ct_wrap(y, NY), zw = cls_ct_wrap(z, NZ);
                __global real *restrict d = s == steps ? out + CLS_DIDX(lo[0], y, z)
                                                       : dst + cls_ct_at(lo[0], y, z, ox, oy, oz);
                if (s == 1)
                    cls_ct_row_grid(in, d CLS_AUX_ARGS, lo[0], hi[0], yw, zw, step);
                else
                    cls_ct_row_box(src + cls_ct_at(lo[0], y, z, ox, oy, oz), d CLS_AUX_ARGS, lo[0],
                                   hi[0], yw, zw, step);
            }
#if CLS_BOUNDARY != CLS_PERIODIC
        if (s < steps) cls_ct_fill_ghosts(dst, lo, hi, ox, oy, oz);
#endif
    }
}

/* One pass: `steps` steps (1 .. CLS_CT_H) from step `step0` on, from `in` into `out`.  The
 * groups take the tiles (x fastest) one at a time from the pass's counter (zeroed by the host
 * for each run's passes), so that a core the machine's other work holds back takes fewer;
 * each group keeps its two boxes in scratch. */
__kernel void cls_cputile(__global const real *restrict in, __global real *restrict out
                          CLS_AUX_PARAMS, __global real *restrict scratch,
                          __global int *restrict counters, int pass, int step0, int steps)
{
    __global int *counter = counters + pass;
    if (get_local_id(0) != 0) return;
    __global real *restrict b0 = scratch + (long)get_group_id(0) * 2 * CLS_SCR_BOX;
    __global real *restrict b1 = b0 + CLS_SCR_BOX;
    int c0[3], c1[3];
    for (int t = atomic_inc(counter); cls_ct_tile_bounds(t, c0, c1); t = atomic_inc(counter))
        cls_ct_tile(in, out CLS_AUX_ARGS, b0, b1, c0, c1, step0, steps);
}

#else /* CLS_NUM_FIELDS */
__constant int cls_stage_reach[CLS_NUM_STAGES * 3] = CLS_STAGE_REACH;

/* Stage g on points [x0, x1) of row (y, z) (wrapped into the grid): f<f> point at x = 0 of
 * the row in the box of field f, o<k> at x = 0 of the row in the box that update k writes.
 * The ends as wide as the halo read the auxiliary arrays by the boundary rule; without
 * auxiliary arrays every point is the same code, one loop. */
#ifdef CLS_CT_NO_AUX
#define CLS_CT_STAGE_ROW_FN(g)                                                                 \
    CLS_INLINE void cls_ct_stage_row_##g(CLS_SCR_FIELD_PARAMS CLS_CT_OUT_PARAMS_##g            \
                                         CLS_AUX_PARAMS, int x0, int x1, int y, int z,          \
                                         int step)                                             \
    {                                                                                          \
        int a = x0, b = x1;                                                                    \
        CLS_CT_LOOP(CLS_CT_STAGE_##g(, x, cls_ct_wrap(x, NX), y, z, step));                    \
    }
#else
#define CLS_CT_STAGE_ROW_FN(g)                                                                 \
    CLS_INLINE void cls_ct_stage_row_##g(CLS_SCR_FIELD_PARAMS CLS_CT_OUT_PARAMS_##g            \
                                         CLS_AUX_PARAMS, int x0, int x1, int y, int z,          \
                                         int step)                                             \
    {                                                                                          \
        int a = max(x0, CLS_HALO_X), b = min(x1, NX - CLS_HALO_X);                             \
        if (b < a) b = a = x1;                                                                 \
        for (int x = x0; x < a; x++) CLS_CT_STAGE_##g(, x, cls_ct_wrap(x, NX), y, z, step);    \
        if (cls_ct_inner_row(y, z))                                                            \
            CLS_CT_LOOP(CLS_CT_STAGE_##g(_interior, x, x, y, z, step));                        \
        else                                                                                   \
            CLS_CT_LOOP(CLS_CT_STAGE_##g(_row, x, x, y, z, step));                             \
        for (int x = b; x < x1; x++) CLS_CT_STAGE_##g(, x, cls_ct_wrap(x, NX), y, z, step);    \
    }
#endif
CLS_FOR_STAGES(CLS_CT_STAGE_ROW_FN)

/* The region of the tile c0 .. c1 widened by m[d] points, clipped to the grid unless it is
 * periodic. */
inline void cls_ct_region(const int *c0, const int *c1, const int *m, int *lo, int *hi)
{
    const int n[3] = {NX, NY, NZ};
    for (int d = 0; d < 3; d++) {
        lo[d] = c0[d] - m[d];
        hi[d] = c1[d] + m[d];
#if CLS_BOUNDARY != CLS_PERIODIC
        lo[d] = max(lo[d], 0);
        hi[d] = min(hi[d], n[d]);
#endif
    }
}

/* Copies region lo..hi of field `in` (wrapped into the grid) into its box. */
inline void cls_ct_load(__global const real *restrict in, __global real *restrict box,
                        const int *lo, const int *hi, int ox, int oy, int oz)
{
    const int a = max(lo[0], 0), b = min(hi[0], NX);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++) {
            __global real *restrict row = box + cls_ct_at(0, y, z, ox, oy, oz);
            __global const real *restrict src = in + CLS_DIDX(0, cls_ct_wrap(y, NY), cls_ct_wrap(z, NZ));
            for (int x = lo[0]; x < a; x++) row[x] = src[cls_ct_wrap(x, NX)];
            for (int x = a; x < b; x++) row[x] = src[x];
            for (int x = max(b, lo[0]); x < hi[0]; x++) row[x] = src[cls_ct_wrap(x, NX)];
        }
}

/* Advances every field of the tile of points c0 .. c1 (exclusive) by `steps` steps from the
 * grids in[f] into out[f], through the boxes from B on. */
CLS_INLINE void cls_ct_tile_fields(__global const real *const *in, __global real *const *out
                                   CLS_AUX_PARAMS, __global real *restrict B, const int *c0,
                                   const int *c1, int step0, int steps)
{
    const int G[3] = {CLS_CT_GX, CLS_CT_GY, CLS_CT_GZ};
    const int ox = c0[0] - CLS_CT_H * CLS_CT_GX - CLS_CT_PAD_X,
              oy = c0[1] - CLS_CT_H * CLS_CT_GY - CLS_CT_PAD_Y,
              oz = c0[2] - CLS_CT_H * CLS_CT_GZ - CLS_CT_PAD_Z;
    int at[CLS_NUM_FIELDS], start[CLS_NUM_FIELDS], dst[CLS_NUM_FIELDS], lo[3], hi[3], m[3];
    for (int d = 0; d < 3; d++) m[d] = steps * G[d];
    cls_ct_region(c0, c1, m, lo, hi);
    for (int f = 0; f < CLS_NUM_FIELDS; f++) {
        cls_ct_load(in[f], B + (long)f * CLS_SCR_BOX, lo, hi, ox, oy, oz);
#if CLS_BOUNDARY != CLS_PERIODIC
        cls_ct_fill_ghosts(B + (long)f * CLS_SCR_BOX, lo, hi, ox, oy, oz);
#endif
        at[f] = f;
        dst[f] = -1;
    }
    for (int s = 1; s <= steps; s++) {
        const int step = step0 + s - 1;
        for (int f = 0; f < CLS_NUM_FIELDS; f++) start[f] = at[f];
        for (int g = 0; g < CLS_NUM_STAGES; g++) {
            /* widened by the reach of the stages after this one, to the pass's end */
            for (int d = 0; d < 3; d++) {
                m[d] = (steps - s) * G[d];
                for (int l = g + 1; l < CLS_NUM_STAGES; l++) m[d] += cls_stage_reach[3 * l + d];
            }
            cls_ct_region(c0, c1, m, lo, hi);
            cls_rot_stage_begin(g, at, start, dst);
            for (int z = lo[2]; z < hi[2]; z++)
                for (int y = lo[1]; y < hi[1]; y++) {
                    const long r = cls_ct_at(0, y, z, ox, oy, oz);
                    const int yw = cls_ct_wrap(y, NY), zw = cls_ct_wrap(z, NZ);
#define CLS_CT_STAGE_CASE(g)                                                                   \
    case g:                                                                                    \
        cls_ct_stage_row_##g(CLS_SCR_FIELD_ARGS_AT(B, at, r) CLS_CT_OUT_ARGS_##g(B, dst, r)      \
                             CLS_AUX_ARGS, lo[0], hi[0], yw, zw, step);                        \
        break;
                    switch (g) { CLS_FOR_STAGES(CLS_CT_STAGE_CASE) }
#undef CLS_CT_STAGE_CASE
                }
#if CLS_BOUNDARY != CLS_PERIODIC
            if (s < steps || g < CLS_NUM_STAGES - 1)
                for (int k = 0; k < CLS_NUM_FIELDS; k++) {
                    int f = cls_stage_fields[g * CLS_NUM_FIELDS + k];
                    if (f < 0) break;
                    cls_ct_fill_ghosts(B + (long)dst[f] * CLS_SCR_BOX, lo, hi, ox, oy, oz);
                }
#endif
            cls_rot_stage_end(at, dst);
        }
        cls_rot_step_end(at, start);
    }
    for (int f = 0; f < CLS_NUM_FIELDS; f++)
        for (int z = c0[2]; z < c1[2]; z++)
            for (int y = c0[1]; y < c1[1]; y++) {
                __global const real *restrict row =
                    B + (long)at[f] * CLS_SCR_BOX + cls_ct_at(0, y, z, ox, oy, oz);
                __global real *restrict to = out[f] + CLS_DIDX(0, y, z);
                for (int x = c0[0]; x < c1[0]; x++) to[x] = row[x];
            }
}

/* One pass of a system: `steps` steps (1 .. CLS_CT_H) from step `step0` on, every field from
 * in<f> into out<f>; each group keeps its CLS_TILE_BUFS boxes in scratch. */
__kernel void cls_cputile(CLS_FOR_FIELDS(CLS_IN_PARAM) CLS_FOR_FIELDS(CLS_OUT_PARAM)
                          __global real *restrict scratch, __global int *restrict counters,
                          int pass, int step0, int steps CLS_AUX_PARAMS)
{
    __global int *counter = counters + pass;
    if (get_local_id(0) != 0) return;
    __global const real *in[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_IN_ARG)};
    __global real *out[CLS_NUM_FIELDS] = {CLS_FOR_FIELDS(CLS_OUT_ARG)};
    __global real *restrict B = scratch + (long)get_group_id(0) * CLS_TILE_BUFS * CLS_SCR_BOX;
    int c0[3], c1[3];
    for (int t = atomic_inc(counter); cls_ct_tile_bounds(t, c0, c1); t = atomic_inc(counter))
        cls_ct_tile_fields(in, out CLS_AUX_ARGS, B, c0, c1, step0, steps);
}
#endif /* CLS_NUM_FIELDS */
