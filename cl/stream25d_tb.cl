/* stream25d_tb.cl: temporal blocking on top of 2.5D streaming: CLS_TB_K time steps per pass over
 * z.  The ghost zone of Meng & Skadron 2010 (Sect. 3) applied to the streamed XY tile of
 * Mo & Li: a CLS_BX x CLS_TY work-group tile is the output tile widened by
 * CLS_TB_K points of halo (radius 1) on every side, in y only when the body reads along y
 * (CLS_HY: a 2D grid streamed along its rows is NX x 1 x NY, its tile one row, no shrink in
 * y), and CLS_TB_K stages march along z as a
 * pipeline, stage s computing step s of the pass on the planes stage s-1 produced one iteration
 * earlier (each stage two planes behind the previous one, so one barrier per plane suffices).
 * Stage s is valid on the tile shrunk by s points per side; the last stage writes the output
 * tile.  Per stage: the newest plane of its input in local memory (double-buffered), the planes
 * z-1, z, z+1 around each work-item's CLS_ITEM_Y rows in a private window (registers).
 *
 * Boundaries, exactly as the reference: periodic grids compute the tile at virtual coordinates
 * (the input loaded wrapped, the update called at wrapped coordinates).  Stage 1's input plane
 * is loaded folded by the boundary rule within one point of the grid, so its window is right as
 * read.  The later stages read planes that earlier stages computed at virtual coordinates, whose
 * points outside the grid hold no boundary values: on clamp and mirror grids a work-item of an
 * edge group reads those planes at the folded coordinates (the image point's column and row,
 * per work-item constants), so its window needs no fix-up and the edge groups' loop needs about
 * the registers of the interior's (CLS_TB_REMAP); on constant grids a work-item at the grid's
 * edge replaces, before each update, the window entries that lie outside the grid by the
 * constant, first in x, then in y.  In z every boundary kind but the periodic replaces the
 * window's outer plane at the grid's first and last planes by its image's (or the constant).
 * The window's in-plane offsets (CLS_TB_BASE, per row) are closed under the rule's images, so the
 * image is always in the window.
 *
 * A system (CLS_TB_LEVELS defined: one stage updating one field u from its window, reading its
 * CLS_TB_LEVELS time levels u_prev, u_prev2, ... at the point only): stage s's step needs the
 * level values a_{s-2}, a_{s-3}, ... at its plane z, which earlier stages held in their windows
 * one plane lower one iteration earlier.  Each stage passes them on in registers per row:
 * before its window shifts, stage s hands stage s+1 the tuple (its window's centre at plane z-1,
 * its own level values at z-1); the stages run in descending order within an iteration, so
 * stage s+1 reads the tuple of the previous iteration before stage s replaces it.  Stage 1 reads
 * the levels from global memory.  The last stage writes u and the levels (its centre, then its
 * own level values).  A stage past the pass's last step passes its tuple on unchanged, so the
 * outputs of a shorter pass are the rotation of nsteps steps.
 *
 * A system whose one stage updates CLS_TB_F > 1 fields (no time levels): every field has its
 * own input plane and stage planes in local memory, prefetched words and a window per stage, all
 * of one geometry (CLS_OFFSETS: the union of the stage's reads, so one set of boundary rules and
 * one loader serve every field).  Each stage reads, fixes and shifts every field's window alike
 * and computes all the stage's updates from them (CLS_TB_UPDATES, generated: each update may
 * read every field, all at the step's start), then stores the CLS_TB_F values.
 *
 * Generated defines: CLS_TB_F (with CLS_TB_FIELD_PARAMS, CLS_TB_INS, CLS_TB_OUTS), CLS_TB_K,
 * CLS_BX, CLS_BY, CLS_ITEM_Y, CLS_HY (the y halo: CLS_TB_K, or 0 when the body reads no y
 * offset), CLS_OUT_X, CLS_OUT_Y (the output tile), CLS_GX (input words loaded left of the output
 * tile: CLS_TB_K, or whole segments for the aligned loader), CLS_LW0 (input words loaded per
 * row), CLS_ZCHUNK, CLS_PREFETCH, CLS_OFFSETS(X) (in-plane window offsets of all rows),
 * CLS_TB_BASE(X) (those of one row), CLS_TB_ROWS(X) (X(0) .. X(CLS_ITEM_Y - 1)), for kernels
 * without time levels and for single-row tiles CLS_TB_STAGES(X) (X(0) .. X(CLS_TB_K - 1)), and
 * for kernels with time levels CLS_TB_ZSELECT (the z fix-up by selects). */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_ITEM_Y 1
#define CLS_RX 1
#define CLS_RY 1
#define CLS_RZ 1
#define CLS_OFFSETS(X) X(0, -1) X(-1, 0) X(0, 0) X(1, 0) X(0, 1)
#define CLS_TB_BASE(X) X(0, -1) X(-1, 0) X(0, 0) X(1, 0) X(0, 1)
inline real cls_update_stream(__private const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[CLS_WIN_IDX(0, 0, -1)] + in[CLS_WIN_IDX(0, 0, 1)] - 2 * in[CLS_WIN_IDX(0, 0, 0)];
}
#endif
#ifndef CLS_TB_K
#define CLS_TB_K 2
#endif
#ifndef CLS_BX
#define CLS_BX 32
#endif
#ifndef CLS_BY
#define CLS_BY 8
#endif
#ifndef CLS_HY
#define CLS_HY CLS_TB_K
#endif
#ifndef CLS_OUT_X
#define CLS_OUT_X (CLS_BX - 2 * CLS_TB_K)
#endif
#ifndef CLS_OUT_Y
#define CLS_OUT_Y (CLS_BY * CLS_ITEM_Y - 2 * CLS_HY)
#endif
#ifndef CLS_GX
#define CLS_GX CLS_TB_K
#endif
#ifndef CLS_LW0
#define CLS_LW0 CLS_BX
#endif
#ifndef CLS_ZCHUNK
#define CLS_ZCHUNK NZ
#endif
#ifndef CLS_PREFETCH
#define CLS_PREFETCH 1
#endif
#ifndef CLS_TB_ZSELECT
#define CLS_TB_ZSELECT 0
#endif
#ifndef CLS_TB_ROWS
#if defined(CLS_GENERATED) || CLS_ITEM_Y != 1
#error "CLS_TB_ROWS: the generated list of the rows X(0) .. X(CLS_ITEM_Y - 1)"
#endif
#define CLS_TB_ROWS(X) X(0)
#endif
/* Fields the one stage updates (a system, lib/codegen.c's CLS_TB_UPDATES): field f's buffers are
 * in/out for f = 0, else the generated CLS_TB_FIELD_PARAMS (CLS_TB_INS, CLS_TB_OUTS list all). */
#ifndef CLS_TB_F
#define CLS_TB_F 1
#endif
#if CLS_TB_F == 1
#define CLS_TB_FIELD_PARAMS
#define CLS_TB_INS {in}
#define CLS_TB_OUTS {out}
#endif

#define CLS_K CLS_TB_K
#define CLS_TY (CLS_BY * CLS_ITEM_Y)
#define CLS_ITEMS (CLS_BX * CLS_BY)
/* Local planes keep a margin of one word on every side (rows: only when the body reads along y):
 * the reads of the tile's edge work-items (whose results are invalid anyway) stay inside the
 * array. */
#define CLS_MY (CLS_HY > 0)    /* margin rows */
#define CLS_P0 (CLS_LW0 + 2)   /* pitch of the input plane */
#define CLS_PS (CLS_BX + 2)    /* pitch of a stage's plane */
#define CLS_LIN (CLS_P0 * (CLS_TY + 2 * CLS_MY))
#define CLS_LST (CLS_PS * (CLS_TY + 2 * CLS_MY))
#define CLS_NST (CLS_K > 1 ? CLS_K - 1 : 1)
#define CLS_TB_REMAP (CLS_BOUNDARY == CLS_CLAMP || CLS_BOUNDARY == CLS_MIRROR)

/* Source of a load at virtual coordinate i: periodic grids wrap any distance (the tile computes
 * at virtual coordinates); otherwise the boundary rule within one point of the grid, any
 * in-grid point further out (those values only reach invalid points). */
inline int cls_tb_src(int i, int n)
{
#if CLS_BOUNDARY == CLS_PERIODIC
    int r = i % n;
    return r < 0 ? r + n : r;
#else
    return i >= -1 && i <= n ? cls_fold(i, n) : clamp(i, 0, n - 1);
#endif
}
/* The coordinate an update at virtual coordinate i is called with (auxiliary arrays and bodies
 * that use X, Y, Z). */
inline int cls_tb_at(int i, int n)
{
#if CLS_BOUNDARY == CLS_PERIODIC
    return cls_tb_src(i, n);
#else
    return clamp(i, 0, n - 1);
#endif
}

typedef struct cls_tb_slot {
    int src;
    int dst;
    int inside;
} cls_tb_slot;

#if CLS_BOUNDARY == CLS_CONSTANT
#define CLS_TB_FETCH(slot, zoff, inz)                                                           \
    ((inz) && (slot).inside ? in[(slot).src + (zoff)] : (real)CLS_BOUNDARY_VALUE)
#else
#define CLS_TB_FETCH(slot, zoff, inz) in[(slot).src + (zoff)]
#endif
#define CLS_NLOAD ((CLS_LW0 * CLS_TY + CLS_ITEMS - 1) / CLS_ITEMS)
#define CLS_PARTIAL ((CLS_LW0 * CLS_TY) % CLS_ITEMS != 0)

/* The input plane's CLS_LW0 x CLS_TY words (from x = ox - CLS_GX, y = oy - CLS_HY) numbered
 * row-major, work-item l loading words l, l + CLS_ITEMS, ...: coalesced, no conditions. */
inline void cls_tb_setup(__private cls_tb_slot *slots, int l, int ox, int oy)
{
#pragma unroll
    for (int r = 0; r < CLS_NLOAD; r++) {
        int t = l + r * CLS_ITEMS;
        int tx = t % CLS_LW0, ty = min(t / CLS_LW0, CLS_TY - 1);
        int gx = ox - CLS_GX + tx, gy = oy - CLS_HY + ty;
        slots[r].src = CLS_IDX(cls_tb_src(gx, NX), cls_tb_src(gy, NY), 0);
        slots[r].dst = t < CLS_LW0 * CLS_TY ? (ty + CLS_MY) * CLS_P0 + tx + 1 : -1;
        slots[r].inside = gx >= 0 && gx < NX && gy >= 0 && gy < NY;
    }
}

#define CLS_TB_ZOFF(p) CLS_IDX(0, 0, cls_tb_src(p, NZ))
#define CLS_TB_INZ(p) ((p) >= 0 && (p) < NZ)

inline void cls_tb_load(__global const real *restrict in, __private real *pf,
                        __private const cls_tb_slot *slots, int p)
{
    const int zoff = CLS_TB_ZOFF(p), inz = CLS_TB_INZ(p);
#pragma unroll
    for (int r = 0; r < CLS_NLOAD; r++) pf[r] = CLS_TB_FETCH(slots[r], zoff, inz);
}
inline void cls_tb_store(__local real *buf, __private const real *pf,
                         __private const cls_tb_slot *slots)
{
#pragma unroll
    for (int r = 0; r < CLS_NLOAD; r++)
        if (!CLS_PARTIAL || r + 1 < CLS_NLOAD || slots[r].dst >= 0) buf[slots[r].dst] = pf[r];
}

/* The window's newest plane from local plane `buf` (pitch `pitch`, the work-item's column at
 * `col`), and its shift by one plane. */
#define CLS_TB_READ(dx, dy)                                                                    \
    w[CLS_WIN_IDX(dx, dy, 1)] = buf[(ly * CLS_ITEM_Y + CLS_MY + (dy)) * pitch + col + (dx)];
/* The same read at the folded coordinates of the work-item's edge (stages 2..k on clamp and
 * mirror grids): frow, fcol from cls_tb_folds. */
#define CLS_TB_READ_FOLD(dx, dy)                                                               \
    w[CLS_WIN_IDX(dx, dy, 1)] = buf[frow[(dy) + 1] + fcol[(dx) + 1]];
#define CLS_TB_SHIFT(dx, dy)                                                                   \
    w[CLS_WIN_IDX(dx, dy, -1)] = w[CLS_WIN_IDX(dx, dy, 0)];                                    \
    w[CLS_WIN_IDX(dx, dy, 0)] = w[CLS_WIN_IDX(dx, dy, 1)];

#if CLS_BOUNDARY != CLS_PERIODIC
/* The entry that replaces one outside the grid at offset d: the clamp's edge, the mirror's
 * reflection (the constant needs none). */
#if CLS_BOUNDARY == CLS_MIRROR
#define CLS_TB_IMG(d) (-(d))
#else
#define CLS_TB_IMG(d) 0
#endif
#if CLS_BOUNDARY == CLS_CONSTANT
#define CLS_TB_SET(t, s) w[t] = (real)CLS_BOUNDARY_VALUE
#else
#define CLS_TB_SET(t, s) w[t] = w[s]
#endif
#define CLS_TB_SET3(dx, dy, sx, sy)                                                            \
    {                                                                                          \
        CLS_TB_SET(CLS_WIN_IDX(dx, dy, -1), CLS_WIN_IDX(sx, sy, -1));                          \
        CLS_TB_SET(CLS_WIN_IDX(dx, dy, 0), CLS_WIN_IDX(sx, sy, 0));                            \
        CLS_TB_SET(CLS_WIN_IDX(dx, dy, 1), CLS_WIN_IDX(sx, sy, 1));                            \
    }
/* Row j's offset (dx, dy) outside the grid in x, then in y. */
#define CLS_TB_FIX_X(dx, dy)                                                                   \
    if (((dx) < 0 && x == 0) || ((dx) > 0 && x == NX - 1))                                    \
        CLS_TB_SET3(dx, j + (dy), CLS_TB_IMG(dx), j + (dy))
#define CLS_TB_FIX_Y(dx, dy)                                                                   \
    if (((dy) < 0 && y + j == 0) || ((dy) > 0 && y + j == NY - 1))                            \
        CLS_TB_SET3(dx, j + (dy), dx, j + CLS_TB_IMG(dy))
/* Per row, written out (CLS_TB_ROWS) for the reason the stages are (below): as a loop, the
 * fix-ups sent wave3d's windows on constant grids to the stack on the H100. */
#define CLS_TB_FIX_X_ROW(J)                                                                    \
    {                                                                                          \
        const int j = (J);                                                                     \
        CLS_TB_BASE(CLS_TB_FIX_X)                                                              \
    }
#define CLS_TB_FIX_Y_ROW(J)                                                                    \
    {                                                                                          \
        const int j = (J);                                                                     \
        CLS_TB_BASE(CLS_TB_FIX_Y)                                                              \
    }
inline void cls_tb_fix_xy(__private real *w, int x, int y)
{
    if (x == 0 || x == NX - 1) {
        CLS_TB_ROWS(CLS_TB_FIX_X_ROW)
    }
    if ((y <= 0 && y + CLS_ITEM_Y > 0) || (y <= NY - 1 && y + CLS_ITEM_Y > NY - 1)) {
        CLS_TB_ROWS(CLS_TB_FIX_Y_ROW)
    }
}
/* The window's outer planes at the grid's first and last planes (z = 0, NZ - 1) replaced by their
 * images: by branches in a loop version of their own for the iterations that compute those
 * planes (below), or with CLS_TB_ZSELECT (generated for systems with time levels) by selects in
 * every iteration, which spares those kernels a third copy of their tuples' code.  H100, clamp
 * grids: selects took wave2d 8192^2 from 522 to 646 GPoints/s and wave3d 512^3 (32x6 tiles)
 * from 291 to 298, and cost gray_scott 18 %, the 2D 5-point star 14 % and the 3D 7-point star
 * 28 % (doc/results.md). */
#if CLS_TB_ZSELECT
#if CLS_BOUNDARY == CLS_CONSTANT
#define CLS_TB_ZIMG(dx, dy, dz) ((real)CLS_BOUNDARY_VALUE)
#else
#define CLS_TB_ZIMG(dx, dy, dz) w[CLS_WIN_IDX(dx, dy, CLS_TB_IMG(dz))]
#endif
#define CLS_TB_FIX_Z(dx, dy)                                                                   \
    w[CLS_WIN_IDX(dx, dy, -1)] = z == 0 ? CLS_TB_ZIMG(dx, dy, -1) : w[CLS_WIN_IDX(dx, dy, -1)]; \
    w[CLS_WIN_IDX(dx, dy, 1)] = z == NZ - 1 ? CLS_TB_ZIMG(dx, dy, 1) : w[CLS_WIN_IDX(dx, dy, 1)];
inline void cls_tb_fix_z(__private real *w, int z) { CLS_OFFSETS(CLS_TB_FIX_Z) }
#else
#define CLS_TB_FIX_Z(dx, dy)                                                                   \
    if (z == 0) CLS_TB_SET(CLS_WIN_IDX(dx, dy, -1), CLS_WIN_IDX(dx, dy, CLS_TB_IMG(-1)));      \
    if (z == NZ - 1) CLS_TB_SET(CLS_WIN_IDX(dx, dy, 1), CLS_WIN_IDX(dx, dy, CLS_TB_IMG(1)));
inline void cls_tb_fix_z(__private real *w, int z)
{
    if (z == 0 || z == NZ - 1) {
        CLS_OFFSETS(CLS_TB_FIX_Z)
    }
}
#endif
#else
#define cls_tb_fix_xy(w, x, y) ((void)0)
#define cls_tb_fix_z(w, z) ((void)0)
#endif

/* Where an edge group's stages 2..k read their local planes (pitch CLS_PS) on clamp and mirror
 * grids: the offsets of the work-item's rows -1 .. CLS_ITEM_Y and the columns of its offsets -1,
 * 0, 1, at the coordinates folded by the boundary rule; kept inside the planes for work-items
 * outside the grid, whose results no valid point reads. */
inline void cls_tb_folds(__private int *frow, __private int *fcol, int lx, int ly, int x, int y)
{
#pragma unroll
    for (int d = -1; d <= 1; d++)
        fcol[d + 1] = clamp(lx + 1 + cls_fold(x + d, NX) - x, 0, CLS_BX + 1);
#pragma unroll
    for (int d = -1; d <= CLS_ITEM_Y; d++)
        frow[d + 1] =
            clamp(ly * CLS_ITEM_Y + CLS_MY + cls_fold(y + d, NY) - y, 0, CLS_TY + 2 * CLS_MY - 1) *
            CLS_PS;
}

#if defined(CLS_TB_LEVELS) && CLS_TB_LEVELS > 0
/* The level buffers: lv<m> the input of level m (u_prev, then u_prev2, ...), lo<m> its output;
 * the update gets the level values T[0..CLS_TB_LEVELS-1] at the point. */
#if CLS_TB_LEVELS == 1
#define CLS_TB_LEVEL_PARAMS , __global const real *restrict lv0, __global real *restrict lo0
#define CLS_TB_LV {lv0}
#define CLS_TB_LO {lo0}
#define CLS_TB_TARGS(T) , (T)[0]
#elif CLS_TB_LEVELS == 2
#define CLS_TB_LEVEL_PARAMS                                                                    \
    , __global const real *restrict lv0, __global real *restrict lo0,                          \
        __global const real *restrict lv1, __global real *restrict lo1
#define CLS_TB_LV {lv0, lv1}
#define CLS_TB_LO {lo0, lo1}
#define CLS_TB_TARGS(T) , (T)[0], (T)[1]
#elif CLS_TB_LEVELS == 3
#define CLS_TB_LEVEL_PARAMS                                                                    \
    , __global const real *restrict lv0, __global real *restrict lo0,                          \
        __global const real *restrict lv1, __global real *restrict lo1,                        \
        __global const real *restrict lv2, __global real *restrict lo2
#define CLS_TB_LV {lv0, lv1, lv2}
#define CLS_TB_LO {lo0, lo1, lo2}
#define CLS_TB_TARGS(T) , (T)[0], (T)[1], (T)[2]
#else
#error "CLS_TB_LEVELS: 0 to 3 time levels"
#endif
#define CLS_TB_HAS_LEVELS 1
#define CLS_TB_NL CLS_TB_LEVELS
/* Stages in descending order (see above). */
#define CLS_TB_STAGE(i) (CLS_K - (i))
#else
#define CLS_TB_LEVEL_PARAMS
#define CLS_TB_TARGS(T)
#define CLS_TB_HAS_LEVELS 0
#define CLS_TB_NL 1
#define CLS_TB_STAGE(i) ((i) + 1)
#endif
#ifdef CLS_STREAM25D_TB
/* a system's one update (lib/codegen.c) */
#define CLS_TB_UPDATE(w, j, T, X, Y, Z, STEP)                                                   \
    cls_update_tb((w) + (j) * CLS_WIN_X CLS_TB_TARGS(T) CLS_AUX_ARGS, X, Y, Z, STEP)
#else
#define CLS_TB_UPDATE(w, j, T, X, Y, Z, STEP)                                                   \
    cls_update_stream((w) + (j) * CLS_WIN_X CLS_AUX_ARGS, X, Y, Z, STEP)
#endif

/* A stage's values at row j: with several fields (CLS_TB_F > 1) all the stage's updates
 * (lib/codegen.c, CLS_TB_UPDATES) from the windows win[s - 1][0..CLS_TB_F-1], all reading the
 * step's start; else the one update from window w.  Steps past the pass's last (a shorter last
 * pass) copy their input. */
#if CLS_TB_F > 1
#define CLS_TB_VALUES(v, j, T, X, Y, Z, STEP)                                                      \
    if (s <= nsteps) {                                                                             \
        CLS_TB_UPDATES(win[s - 1], j, X, Y, Z, STEP, v);                                           \
    } else {                                                                                       \
        _Pragma("unroll")                                                                          \
        for (int f = 0; f < CLS_TB_F; f++) v[f] = win[s - 1][f][CLS_WIN_IDX(0, j, 0)];            \
    }
#else
#define CLS_TB_VALUES(v, j, T, X, Y, Z, STEP)                                                      \
    v[0] = s <= nsteps ? CLS_TB_UPDATE(w, j, T, X, Y, Z, STEP) : w[CLS_WIN_IDX(0, j, 0)];
#endif

/* Stage i of iteration q (the stages of CLS_TB_ITER below).  FIX_XY / FIX_Z: whether the
 * boundary rule in x and y (folded reads or fix-ups) / the z fix-up applies.  Every field has
 * its own prefetched words, local planes and windows, read, fixed and shifted alike. */
#define CLS_TB_STAGE_BODY(i, FIX_XY, FIX_Z)                                                        \
    {                                                                                              \
        const int s = CLS_TB_STAGE(i);                                                             \
        const int z = q - 2 * s + 1;                                                               \
        _Pragma("unroll")                                                                          \
        for (int f = 0; f < CLS_TB_F; f++) {                                                       \
            __private real *w = win[s - 1][f];                                                     \
            __local const real *buf =                                                              \
                s == 1 ? lin[f][q & 1] : lst[f][s > 1 ? s - 2 : 0][(q - 1) & 1];                   \
            const int pitch = s == 1 ? CLS_P0 : CLS_PS;                                            \
            const int col = s == 1 ? lx - CLS_K + CLS_GX + 1 : lx + 1;                             \
            if (FIX_XY && CLS_TB_REMAP && s > 1) {                                                 \
                CLS_OFFSETS(CLS_TB_READ_FOLD)                                                      \
            } else {                                                                               \
                CLS_OFFSETS(CLS_TB_READ)                                                           \
            }                                                                                      \
            if (FIX_XY && !CLS_TB_REMAP) cls_tb_fix_xy(w, x, y);                                   \
            if (FIX_Z) cls_tb_fix_z(w, z);                                                         \
        }                                                                                          \
        const int zu = cls_tb_at(z, NZ);                                                           \
        {                                                                                          \
            __private real *w = win[s - 1][0];                                                     \
            _Pragma("unroll")                                                                      \
            for (int j = 0; j < CLS_ITEM_Y; j++) {                                                 \
                CLS_TB_LEVELS_IN                                                                   \
                real v[CLS_TB_F];                                                                  \
                CLS_TB_VALUES(v, j, T, xu, cls_tb_at(y + j, NY), zu, step + s - 1)                 \
                const int row = ly * CLS_ITEM_Y + j;                                               \
                if (s < CLS_K) {                                                                   \
                    const int at = (row + CLS_MY) * CLS_PS + lx + 1;                               \
                    _Pragma("unroll")                                                              \
                    for (int f = 0; f < CLS_TB_F; f++)                                             \
                        lst[f][s < CLS_K ? s - 1 : 0][q & 1][at] = v[f];                           \
                } else if (write_x && row >= CLS_HY && row < CLS_HY + CLS_OUT_Y &&                 \
                           y + j < NY && z >= z0 && z < z1) {                                      \
                    _Pragma("unroll")                                                              \
                    for (int f = 0; f < CLS_TB_F; f++) outs[f][CLS_IDX(x, y + j, z)] = v[f];       \
                    CLS_TB_LEVELS_STORE                                                            \
                }                                                                                  \
                CLS_TB_LEVELS_PASS                                                                 \
            }                                                                                      \
        }                                                                                          \
        _Pragma("unroll")                                                                          \
        for (int f = 0; f < CLS_TB_F; f++) {                                                       \
            __private real *w = win[s - 1][f];                                                     \
            CLS_OFFSETS(CLS_TB_SHIFT)                                                              \
        }                                                                                          \
    }
/* The stages of a loop version.  CLS_TB_STAGES (generated for kernels without time levels and
 * for single-row tiles: X(0) .. X(CLS_TB_K - 1)) writes them out rather than leaving them to a
 * loop the compiler must unroll: NVIDIA's compiler kept the single fields' stage loop as a loop,
 * indexed the windows at run time and put them on the stack (648 bytes, heat3d7 at 15 GPoints/s
 * instead of 508).  3D tiles of systems with time levels keep the loop, which it unrolls:
 * written out, wave3d's periodic kernel took 133 registers instead of 121, one 256-item group
 * per SM, and ran 233 GPoints/s instead of 313; wave2d's single-row tiles ran 645 written out,
 * 541 as the loop (doc/results.md). */
#define CLS_TB_STAGE_00(i) CLS_TB_STAGE_BODY(i, 0, 0)
#define CLS_TB_STAGE_01(i) CLS_TB_STAGE_BODY(i, 0, 1)
#define CLS_TB_STAGE_11(i) CLS_TB_STAGE_BODY(i, 1, 1)
#ifdef CLS_TB_STAGES
#define CLS_TB_ITER_STAGES(FIX_XY, FIX_Z) CLS_TB_STAGES(CLS_TB_STAGE_##FIX_XY##FIX_Z)
#else
#define CLS_TB_ITER_STAGES(FIX_XY, FIX_Z)                                                          \
    _Pragma("unroll") for (int i_ = 0; i_ < CLS_K; i_++) CLS_TB_STAGE_BODY(i_, FIX_XY, FIX_Z)
#endif
/* One iteration q of the pipeline (the loop body of the kernel below), a version of the boundary
 * code (constants: the kernel versions its loop, so interior work-groups and planes carry no
 * boundary code; on the H100 the fix-ups cost a third of the fused kernel's rate when every
 * iteration carried them). */
#define CLS_TB_ITER(FIX_XY, FIX_Z)                                                                 \
    {                                                                                              \
        _Pragma("unroll")                                                                          \
        for (int f = 0; f < CLS_TB_F; f++) {                                                       \
            _Pragma("unroll")                                                                      \
            for (int d = 0; d + 1 < CLS_PREFETCH; d++)                                             \
                _Pragma("unroll")                                                                  \
                for (int r = 0; r < CLS_NLOAD; r++) pf[f][d][r] = pf[f][d + 1][r];                 \
            if (q + CLS_PREFETCH < lq1)                                                            \
                cls_tb_load(ins[f], pf[f][CLS_PREFETCH - 1], slots, q + CLS_PREFETCH);             \
        }                                                                                          \
        CLS_TB_LEVELS_LOAD                                                                         \
        CLS_TB_ITER_STAGES(FIX_XY, FIX_Z)                                                          \
        if (q + 1 < lq1) {                                                                         \
            _Pragma("unroll")                                                                      \
            for (int f = 0; f < CLS_TB_F; f++) cls_tb_store(lin[f][(q + 1) & 1], pf[f][0], slots); \
        }                                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }

#if CLS_TB_HAS_LEVELS
/* Stage 1's level values at plane q - 1 (the plane it computes), loaded at the iteration's start
 * so that the other stages' work hides their latency; wrapped on periodic grids, clamped
 * elsewhere (values outside the grid are never used). */
#define CLS_TB_LEVELS_LOAD                                                                         \
    {                                                                                              \
        const int zl = cls_tb_at(q - 1, NZ);                                                       \
        _Pragma("unroll")                                                                          \
        for (int j = 0; j < CLS_ITEM_Y; j++)                                                       \
            _Pragma("unroll")                                                                      \
            for (int m = 0; m < CLS_TB_NL; m++)                                                    \
                lvl[j][m] = lv[m][CLS_IDX(xu, cls_tb_at(y + j, NY), zl)];                          \
    }
/* Stage s's level values: stage 1's from global memory, the others' from stage s-1's tuple of
 * the previous iteration. */
#define CLS_TB_LEVELS_IN                                                                           \
    __private const real *T = s == 1 ? lvl[j] : tup[s > 1 ? s - 2 : 0][j];
/* The last stage's outputs: after a step its centre is level 1 and level m its level m-1;
 * past the last step the levels stay. */
#define CLS_TB_LEVELS_STORE                                                                        \
    _Pragma("unroll")                                                                              \
    for (int m = 0; m < CLS_TB_NL; m++)                                                            \
        lo[m][CLS_IDX(x, y + j, z)] =                                                              \
            s > nsteps ? T[m] : m == 0 ? w[CLS_WIN_IDX(0, j, 0)] : T[m > 0 ? m - 1 : 0];
/* The tuple stage s+1 needs next iteration (plane z - 1): the same rule one plane lower, from
 * the window's bottom plane and the level values this stage had last iteration; then this
 * iteration's level values are kept for the next. */
#define CLS_TB_LEVELS_PASS                                                                         \
    if (s < CLS_K) {                                                                               \
        __private real *o = tup[s < CLS_K ? s - 1 : 0][j];                                         \
        __private real *h = old[s - 1][j];                                                         \
        _Pragma("unroll")                                                                          \
        for (int m = CLS_TB_NL - 1; m >= 0; m--)                                                   \
            o[m] = s > nsteps ? h[m] : m == 0 ? w[CLS_WIN_IDX(0, j, -1)] : h[m > 0 ? m - 1 : 0];   \
        _Pragma("unroll")                                                                          \
        for (int m = 0; m < CLS_TB_NL; m++) h[m] = T[m];                                           \
    }
#else
#define CLS_TB_LEVELS_LOAD
#define CLS_TB_LEVELS_IN
#define CLS_TB_LEVELS_STORE
#define CLS_TB_LEVELS_PASS
#endif

__kernel __attribute__((reqd_work_group_size(CLS_BX, CLS_BY, 1)))
void cls_stream25d_tb(__global const real *restrict in, __global real *restrict out
                      CLS_TB_FIELD_PARAMS CLS_TB_LEVEL_PARAMS CLS_AUX_PARAMS, int step, int nsteps)
{
    __local real lin[CLS_TB_F][2][CLS_LIN];
    __local real lst[CLS_TB_F][CLS_NST][2][CLS_LST];
    __global const real *ins[CLS_TB_F] = CLS_TB_INS;
    __global real *outs[CLS_TB_F] = CLS_TB_OUTS;
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int ox = get_group_id(0) * CLS_OUT_X, oy = get_group_id(1) * CLS_OUT_Y;
    const int z0 = get_group_id(2) * CLS_ZCHUNK, z1 = min(z0 + CLS_ZCHUNK, NZ);
    /* The work-item's virtual column and first row, and where the update is called. */
    const int x = ox - CLS_K + lx, y = oy - CLS_HY + ly * CLS_ITEM_Y;
    const int xu = cls_tb_at(x, NX);
    const int write_x = lx >= CLS_K && lx < CLS_K + CLS_OUT_X && x < NX;
    cls_tb_slot slots[CLS_NLOAD];
    real pf[CLS_TB_F][CLS_PREFETCH][CLS_NLOAD];
    real win[CLS_K][CLS_TB_F][CLS_WIN];
#pragma unroll
    for (int s = 0; s < CLS_K; s++)
#pragma unroll
        for (int f = 0; f < CLS_TB_F; f++)
#pragma unroll
            for (int i = 0; i < CLS_WIN; i++) win[s][f][i] = 0;
#if CLS_TB_HAS_LEVELS
    __global const real *lv[CLS_TB_NL] = CLS_TB_LV;
    __global real *lo[CLS_TB_NL] = CLS_TB_LO;
    /* per stage and row: the tuple for the next stage, the level values of the last iteration;
     * stage 1's level values of this iteration */
    real tup[CLS_NST][CLS_ITEM_Y][CLS_TB_NL], old[CLS_K][CLS_ITEM_Y][CLS_TB_NL];
    real lvl[CLS_ITEM_Y][CLS_TB_NL];
#pragma unroll
    for (int s = 0; s < CLS_K; s++)
#pragma unroll
        for (int j = 0; j < CLS_ITEM_Y; j++)
#pragma unroll
            for (int m = 0; m < CLS_TB_NL; m++) tup[s < CLS_NST ? s : 0][j][m] = old[s][j][m] = 0;
#endif
    cls_tb_setup(slots, lx + CLS_BX * ly, ox, oy);
    int frow[CLS_ITEM_Y + 2], fcol[3];
    cls_tb_folds(frow, fcol, lx, ly, x, y);

    /* Iteration q: stage 1 reads input plane q (stored before the barrier that ends iteration
     * q-1) and computes plane q-1; stage s >= 2 reads the plane stage s-1 computed in iteration
     * q-1 and computes plane q-2s+1.  Stage s is needed on planes z0-(K-s) .. z1+(K-s)-1, so
     * the input on z0-K .. z1+K-1 and the last stage on z0 .. z1-1. */
    const int q0 = z0 - CLS_K, q1 = z1 + 2 * CLS_K - 1, lq1 = z1 + CLS_K;
#pragma unroll
    for (int f = 0; f < CLS_TB_F; f++) {
#pragma unroll
        for (int d = 0; d < CLS_PREFETCH; d++)
            if (q0 + d < lq1) cls_tb_load(ins[f], pf[f][d], slots, q0 + d);
        cls_tb_store(lin[f][q0 & 1], pf[f][0], slots);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if CLS_BOUNDARY == CLS_PERIODIC
    for (int q = q0; q < q1; q++) CLS_TB_ITER(0, 0)
#else
    /* Work-groups whose tile reaches the grid's edge in x or y (when the body reads along y) fix
     * every iteration; the others z only, by selects in every iteration (CLS_TB_ZSELECT) or in
     * the iterations in which some stage computes plane 0 or NZ-1 (stage s computes plane
     * q - 2s + 1). */
    const int tx0 = ox - CLS_K, ty0 = oy - CLS_HY;
    const int edge_xy = (tx0 <= 0 && tx0 + CLS_BX > 0) ||
                        (tx0 <= NX - 1 && tx0 + CLS_BX > NX - 1) ||
                        (CLS_HY > 0 && ((ty0 <= 0 && ty0 + CLS_TY > 0) ||
                                        (ty0 <= NY - 1 && ty0 + CLS_TY > NY - 1)));
    if (edge_xy) {
        for (int q = q0; q < q1; q++) CLS_TB_ITER(1, 1)
    } else if (CLS_TB_ZSELECT) {
        for (int q = q0; q < q1; q++) CLS_TB_ITER(0, 1)
    } else {
        for (int q = q0; q < q1; q++) {
            if ((q >= 1 && q <= 2 * CLS_K - 1) || (q >= NZ && q <= NZ + 2 * CLS_K - 2))
                CLS_TB_ITER(0, 1)
            else
                CLS_TB_ITER(0, 0)
        }
    }
#endif
}
