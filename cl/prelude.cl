/* prelude.cl: what every generated stencil kernel shares: the real type, grid constants,
 * boundary handling and the IN/AUX accessors.  The generator (lib/codegen.c) defines the
 * macros below before this file; the defaults let the file compile on its own. */
#pragma OPENCL FP_CONTRACT OFF

#ifndef CLS_GENERATED
#define CLS_DIMS 2
#define NX 64
#define NY 64
#define NZ 1
#define CLS_BOUNDARY 0
#define CLS_BOUNDARY_VALUE 0
#endif

#ifdef CLS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
#endif

/* Boundary kinds, as cls_boundary in clstencil.h. */
#define CLS_CLAMP 0
#define CLS_CONSTANT 1
#define CLS_PERIODIC 2
#define CLS_MIRROR 3

#define CLS_NPOINTS ((ulong)NX * (ulong)NY * (ulong)NZ)

/* Flat index of an in-grid point; int arithmetic is enough below 2^31 points. */
#if (NX * NY * NZ) < 2147483647
#define CLS_IDX(x, y, z) ((x) + NX * ((y) + NY * (z)))
#else
#define CLS_IDX(x, y, z) ((size_t)(x) + (size_t)NX * ((size_t)(y) + (size_t)NY * (size_t)(z)))
#endif

/* Maps a coordinate that may lie up to one halo outside [0, n) back into the grid.  The
 * planner guarantees halo < n, so one reflection or wrap is enough. */
inline int cls_fold(int i, int n)
{
#if CLS_BOUNDARY == CLS_PERIODIC
    return i < 0 ? i + n : (i >= n ? i - n : i);
#elif CLS_BOUNDARY == CLS_MIRROR
    return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i);
#else
    return clamp(i, 0, n - 1);
#endif
}

inline real cls_read(__global const real *restrict a, int x, int y, int z)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    if (x < 0 || x >= NX || y < 0 || y >= NY || z < 0 || z >= NZ) return (real)CLS_BOUNDARY_VALUE;
    return a[CLS_IDX(x, y, z)];
#else
    return a[CLS_IDX(cls_fold(x, NX), cls_fold(y, NY), cls_fold(z, NZ))];
#endif
}

/* For points whose whole stencil lies inside the grid no boundary handling is needed.  The
 * CPU row kernels (naive's and cputile's) index in 64 bits: an int index is sign-extended at
 * every read of its vector loop (lea + movslq per neighbour in PoCL's code), a long one folds
 * into the address of a pointer per neighbour.  GPUs keep int arithmetic, which is cheaper
 * there. */
#if defined(CLS_NAIVE_ROWS) || defined(CLS_CPUTILE)
#define CLS_DIDX(x, y, z) ((long)(x) + (long)NX * ((long)(y) + (long)NY * (long)(z)))
#else
#define CLS_DIDX(x, y, z) CLS_IDX(x, y, z)
#endif
inline real cls_read_direct(__global const real *restrict a, int x, int y, int z)
{
    return a[CLS_DIDX(x, y, z)];
}

#ifdef CLS_VEC_READS
/* The naive GPU kernels' vector reads (CLS_VEC_X = 2 or 4 points along x per work-item, a
 * divisor of NX, so that every row starts on a vector boundary): the CLS_VEC_X values from
 * (x, y, z) on, from aligned vector loads of the one or two blocks that hold them.  Callers
 * pass x = X + dx with X a multiple of CLS_VEC_X and dx a constant, so the compiler knows
 * x % CLS_VEC_X and the lane selection folds: a warp's neighbour row costs one or two wide
 * loads, shared between the offsets dx that fall in the same blocks, where the lanes' scalar
 * reads took CLS_VEC_X loads per offset.  Both blocks lie in the row wherever the lanes' reads
 * do (the caller's lanes are interior). */
#if CLS_VEC_X == 2
typedef real2 realv;
#else
typedef real4 realv;
#endif
inline realv cls_read_vec(__global const real *restrict a, int x, int y, int z)
{
    int r = x & (CLS_VEC_X - 1);
    __global const realv *p = (__global const realv *)(a + CLS_IDX(x - r, y, z));
    realv lo = p[0];
    if (r == 0) return lo;
    realv hi = p[1];
#if CLS_VEC_X == 2
    return (realv)(lo.s1, hi.s0);
#else
    return r == 1 ? (realv)(lo.s123, hi.s0)
                  : (r == 2 ? (realv)(lo.s23, hi.s01) : (realv)(lo.s3, hi.s012));
#endif
}

/* The naive kernels' column of CLS_PER_ITEM points from (X, Y, Z) on along (DY, DZ), when its
 * every point and lane is interior (the kernel's CLS_INSIDE; callers check the generator's
 * CLS_LANE_WISE): the points unrolled, each by POINT(X, Y, Z), so that the compiler loads each
 * row along the column once for the work-item instead of once per point (the neighbours along
 * the slowest axis from registers); then the work-item is done. */
#define CLS_VEC_COLUMN(POINT, X, Y, Z, DY, DZ)                                                 \
    do {                                                                                       \
        if (CLS_INSIDE(X, Y, Z) &&                                                             \
            CLS_INSIDE((X) + CLS_VEC_X - 1, (Y) + (DY) * (CLS_PER_ITEM - 1),                   \
                       (Z) + (DZ) * (CLS_PER_ITEM - 1))) {                                     \
            _Pragma("unroll") for (int k_ = 0; k_ < CLS_PER_ITEM; k_++)                        \
                POINT(X, (Y) + (DY) * k_, (Z) + (DZ) * k_);                                    \
            return;                                                                            \
        }                                                                                      \
    } while (0)
#endif

#if defined(CLS_NAIVE_ROWS) || defined(CLS_CPUTILE)
/* The row kernel's edge rows (cl/naive_rows.cl): x inside the grid, y and z by the boundary
 * rule.  The folds depend on the row only, so the compiler hoists them out of the x loop and
 * the loop vectorises like an interior one (OpenMP's clamped row pointers do the same). */
inline real cls_read_row(__global const real *restrict a, int x, int y, int z)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    /* a clamped, always valid address, then the constant where the row lies outside */
    real v = a[CLS_DIDX(x, clamp(y, 0, NY - 1), clamp(z, 0, NZ - 1))];
    return y < 0 || y >= NY || z < 0 || z >= NZ ? (real)CLS_BOUNDARY_VALUE : v;
#else
    return a[CLS_DIDX(x, cls_fold(y, NY), cls_fold(z, NZ))];
#endif
}

/* The row kernel's end points (x within a halo of the row's ends) in edge rows: x folded too,
 * y and z as in cls_read_row (folded once per row); at the unrolled ends x is a constant whose
 * fold vanishes.  cls_read folded y and z again at every read. */
inline real cls_read_end(__global const real *restrict a, int x, int y, int z)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    real v = a[CLS_DIDX(clamp(x, 0, NX - 1), clamp(y, 0, NY - 1), clamp(z, 0, NZ - 1))];
    return x < 0 || x >= NX || y < 0 || y >= NY || z < 0 || z >= NZ ? (real)CLS_BOUNDARY_VALUE
                                                                    : v;
#else
    return a[CLS_DIDX(cls_fold(x, NX), cls_fold(y, NY), cls_fold(z, NZ))];
#endif
}
/* The same with y and z inside the grid (auxiliary arrays of inner rows; cls_read_end_rel). */
inline real cls_read_end_direct(__global const real *restrict a, int x, int y, int z)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    real v = a[CLS_DIDX(clamp(x, 0, NX - 1), y, z)];
    return x < 0 || x >= NX ? (real)CLS_BOUNDARY_VALUE : v;
#else
    return a[CLS_DIDX(cls_fold(x, NX), y, z)];
#endif
}
/* Rows whose stencil stays inside the grid in y and z read the state relative to their row
 * (the readers are macros over the update's parameters Y and Z): cls_read_rel indexes `a`
 * (the whole state) by the row's offset plus the neighbour's constant offset from the point,
 * as the OpenMP loop's row pointers do; cls_read_end_rel indexes `a` = the state at (0, Y, Z).
 * Absolute indices left the compiler one pointer per neighbour row, stepped and spilled per
 * row, and end points that recomputed each neighbour's index.  The loop's index keeps the
 * row's offset as a separate term: with `a` itself at the row (one pointer, constant offsets)
 * LLVM carried the centre's vector over from the previous iteration's x + 1 and shuffled it
 * into place, 3 more instructions per vector (hotspot on PoCL, callgrind). */
#define cls_read_rel(a, x, y, z) (a)[CLS_DIDX(0, Y, Z) + CLS_DIDX(x, (y) - Y, (z) - Z)]
#define cls_read_end_rel(a, x, y, z) cls_read_end_direct(a, x, (y) - Y, (z) - Z)
#endif
#ifdef CLS_NAIVE_ROWS
#ifdef __clang__
#define CLS_UNROLL _Pragma("unroll")
#else
#define CLS_UNROLL
#endif
/* The row kernels' ends (cl/naive_rows.cl, naive_system_rows.cl): the points [x0, lo) and
 * [hi, x1) of a run [x0, x1) outside its boundary-free part, each stored by POINT(x); H is the
 * reach of the reads towards that end.  Where the run reaches the row's own end, a loop of
 * constant bounds, unrolled: every x is then a constant and the boundary rule's folds of
 * x + dx vanish at compile time (acoustic3d_r4 on PoCL: its 8 end points took 1164
 * instructions a row, 70 % of the kernel's at 48^3, against 455 for the OpenMP loop's folded
 * pointers). */
#define CLS_ROW_HEAD(POINT, H)                                                                 \
    do {                                                                                       \
        if (x0 == 0 && lo == (H)) {                                                            \
            CLS_UNROLL                                                                         \
            for (int x = 0; x < (H); x++) POINT(x);                                            \
        } else {                                                                               \
            for (int x = x0; x < lo; x++) POINT(x);                                            \
        }                                                                                      \
    } while (0)
#define CLS_ROW_TAIL(POINT, H)                                                                 \
    do {                                                                                       \
        if (x1 == NX && hi == NX - (H)) {                                                      \
            CLS_UNROLL                                                                         \
            for (int x = NX - (H); x < NX; x++) POINT(x);                                      \
        } else {                                                                               \
            for (int x = hi; x < x1; x++) POINT(x);                                            \
        }                                                                                      \
    } while (0)
#endif

/* The generator emits the update twice: with CLS_READ = cls_read for points near the edge and
 * CLS_READ = cls_read_direct for interior points (identical values there). */
#ifndef CLS_READ
#define CLS_READ cls_read
#endif

/* IN(...) takes one offset per dimension, like the body language. */
#if CLS_DIMS == 1
#define IN(dx) CLS_READ(in, X + (dx), 0, 0)
#elif CLS_DIMS == 2
#define IN(dx, dy) CLS_READ(in, X + (dx), Y + (dy), 0)
#else
#define IN(dx, dy, dz) CLS_READ(in, X + (dx), Y + (dy), Z + (dz))
#endif

#ifdef CLS_CPUTILE
/* The cputile schedule (cl/cputile.cl): a work-item advances a tile of CLS_CT_X x CLS_CT_Y x
 * CLS_CT_Z points by up to CLS_CT_H steps in a scratch box of the tile widened by CLS_CT_H
 * halos, whose boundary rule is held in ghost points around the grid's edges.  The update
 * gets a pointer to its point in the box and reads its neighbours at constant offsets from it:
 * no boundary code, and the same code at virtual (wrapped) coordinates of periodic grids. */
/* The margin a tile loses per step: one halo; for a system the sum of its stages' reaches
 * (the planner's CLS_CT_GX..), and beyond the margins its ghosts (CLS_CT_GHOST_X..), which
 * the region a system's pass loads can reach at the grid's edges. */
#ifndef CLS_CT_GX
#define CLS_CT_GX CLS_HALO_X
#define CLS_CT_GY CLS_HALO_Y
#define CLS_CT_GZ CLS_HALO_Z
#endif
#ifdef CLS_CT_GHOST_X
#define CLS_CT_PAD_X CLS_CT_GHOST_X
#define CLS_CT_PAD_Y CLS_CT_GHOST_Y
#define CLS_CT_PAD_Z CLS_CT_GHOST_Z
#else
#define CLS_CT_PAD_X 0
#define CLS_CT_PAD_Y 0
#define CLS_CT_PAD_Z 0
#endif
#define CLS_SCR_PX (CLS_CT_X + 2 * (CLS_CT_H * CLS_CT_GX + CLS_CT_PAD_X))
#define CLS_SCR_PY (CLS_CT_Y + 2 * (CLS_CT_H * CLS_CT_GY + CLS_CT_PAD_Y))
#define CLS_SCR_PZ (CLS_CT_Z + 2 * (CLS_CT_H * CLS_CT_GZ + CLS_CT_PAD_Z))
#define cls_read_scr(a, x, y, z)                                                               \
    (a)[(long)((x) - X) + (long)CLS_SCR_PX * ((long)((y) - Y) + (long)CLS_SCR_PY * (long)((z) - Z))]
#endif

#ifdef CLS_TILE_X
/* Trapezoid tiles (Meng & Skadron 2010, Sect. 3.3): the state of CLS_TILE_X x CLS_TILE_Y x
 * CLS_TILE_Z points in local memory, whose first element is grid point (ox, oy, oz).  Reads
 * outside the grid follow the boundary rule inside the tile: clamp and mirror fold the
 * coordinate into the grid (the folded point lies in the tile's valid part whenever the reading
 * point is valid); periodic tiles hold wrapped values at virtual coordinates, so no folding.
 * Points whose neighbours leave the tile are invalid anyway; the index clamp keeps their reads
 * inside the array.  The tile is stored with a margin of one halo on every side (pitches
 * CLS_PITCH_*), so that constant-offset reads of its edge points stay inside the array too. */
#define CLS_PITCH_X (CLS_TILE_X + 2 * CLS_HALO_X)
#define CLS_PITCH_Y (CLS_TILE_Y + 2 * CLS_HALO_Y)
#define CLS_PITCH_Z (CLS_TILE_Z + 2 * CLS_HALO_Z)
#define CLS_TILE_INDEX(lx, ly, lz)                                                             \
    ((lx) + CLS_HALO_X + CLS_PITCH_X * ((ly) + CLS_HALO_Y + CLS_PITCH_Y * ((lz) + CLS_HALO_Z)))
inline real cls_tile_at(__local const real *restrict t, int x, int y, int z, int ox, int oy,
                        int oz)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    if (x < 0 || x >= NX || y < 0 || y >= NY || z < 0 || z >= NZ) return (real)CLS_BOUNDARY_VALUE;
#elif CLS_BOUNDARY != CLS_PERIODIC
    x = cls_fold(x, NX);
    y = cls_fold(y, NY);
    z = cls_fold(z, NZ);
#endif
    int lx = clamp(x - ox, 0, CLS_TILE_X - 1);
    int ly = clamp(y - oy, 0, CLS_TILE_Y - 1);
    int lz = clamp(z - oz, 0, CLS_TILE_Z - 1);
    return t[CLS_TILE_INDEX(lx, ly, lz)];
}
#define cls_read_tile(a, x, y, z) cls_tile_at(a, x, y, z, OX, OY, OZ)
/* Interior tiles (the tile and one halo around it lie inside the grid) need no boundary rule:
 * neighbours are read at constant offsets, and those of the tile's edge points (invalid after
 * the first step anyway) fall into the margin. */
#define cls_read_tile_direct(a, x, y, z) (a)[CLS_TILE_INDEX((x) - OX, (y) - OY, (z) - OZ)]
#endif

#ifdef CLS_BOX
/* Pipeline tiles (Visschers 2012, Sect. 2.7): arrays that hold only a box of the
 * grid, first element at grid point (ox, oy, oz), rows of px and planes of px x py points.
 * Coordinates stay global, so boundary conditions see the grid's edges, not the box's; clamp
 * and mirror fold into the grid, and the folded point lies in the box whenever the reading
 * point is valid for the step (the box reaches the grid's edge there).  Periodic boxes hold the
 * wrapped values at virtual coordinates (an edge tile's box reaches past the grid's edge, filled
 * from the far side), so their reads never fold: a point is computed at its virtual coordinates
 * (x + SX, ...) and the body sees its grid coordinates (x, ...). */
/* The grid coordinate of virtual coordinate v (periodic boxes reach past the grid's edges;
 * other boxes stay inside it). */
#if CLS_BOUNDARY == CLS_PERIODIC
#define CLS_PIPE_GRID(v, n) ((((v) % (n)) + (n)) % (n))
#else
#define CLS_PIPE_GRID(v, n) (v)
#endif

inline size_t cls_box_index(int x, int y, int z, int ox, int oy, int oz, int px, int py)
{
    return (size_t)(x - ox) + (size_t)px * ((size_t)(y - oy) + (size_t)py * (size_t)(z - oz));
}
inline real cls_box_at(__global const real *restrict a, int x, int y, int z, int ox, int oy,
                       int oz, int px, int py)
{
#if CLS_BOUNDARY == CLS_CONSTANT
    if (x < 0 || x >= NX || y < 0 || y >= NY || z < 0 || z >= NZ) return (real)CLS_BOUNDARY_VALUE;
#elif CLS_BOUNDARY != CLS_PERIODIC
    x = cls_fold(x, NX);
    y = cls_fold(y, NY);
    z = cls_fold(z, NZ);
#endif
    return a[cls_box_index(x, y, z, ox, oy, oz, px, py)];
}
/* The state's box (OX..PY) and the auxiliary arrays' box (AOX..APY), and the shift SX, SY, SZ
 * from grid to box coordinates: parameters of the update variants cls_update_box and
 * cls_update_box_interior.  The fields of a system have a box each (f<k>_ox..f<k>_py, named
 * after the field's parameter f<k>). */
#define cls_read_box(a, x, y, z) cls_box_at(a, (x) + SX, (y) + SY, (z) + SZ, OX, OY, OZ, PX, PY)
#define cls_read_abox(a, x, y, z) cls_box_at(a, (x) + SX, (y) + SY, (z) + SZ, AOX, AOY, AOZ, APX, APY)
#define cls_read_box_direct(a, x, y, z)                                                        \
    (a)[cls_box_index((x) + SX, (y) + SY, (z) + SZ, OX, OY, OZ, PX, PY)]
#define cls_read_abox_direct(a, x, y, z)                                                       \
    (a)[cls_box_index((x) + SX, (y) + SY, (z) + SZ, AOX, AOY, AOZ, APX, APY)]
#define cls_read_fbox(a, x, y, z)                                                              \
    cls_box_at(a, (x) + SX, (y) + SY, (z) + SZ, a##_ox, a##_oy, a##_oz, a##_px, a##_py)
#define cls_read_fbox_direct(a, x, y, z)                                                       \
    (a)[cls_box_index((x) + SX, (y) + SY, (z) + SZ, a##_ox, a##_oy, a##_oz, a##_px, a##_py)]
#endif

#ifdef CLS_STREAM25D
/* The stream25d schedule (Mo & Li, Sect. 3): the update reads IN(dx, dy, dz) from
 * a private window of 2*CLS_RZ+1 planes of (2*CLS_RY+CLS_ITEM_Y) x (2*CLS_RX+1) values around
 * the work-item's CLS_ITEM_Y adjacent columns, which the template fills from the XY plane in
 * local memory.  The planes hold the boundary rule's values at virtual coordinates, so the
 * window needs no boundary code; the offsets are constants, so the window lives in registers
 * (the update of the j-th column gets the window shifted by j rows). */
#ifndef CLS_ITEM_Y
#define CLS_ITEM_Y 1
#endif
#ifdef CLS_S25_COLUMN
/* The column variant (cl/stream25d_column.cl): a star's window, the in-plane offsets of plane
 * dz = 0 ((2*CLS_RX+1) x (2*CLS_RY+1)) then the work-item's own column (dx = dy = 0) at the
 * other planes; the planner refuses reads at dz != 0 off the column. */
#define CLS_WIN_X (2 * CLS_RX + 1)
#define CLS_WIN_Y (2 * CLS_RY + 1)
#define CLS_WIN (CLS_WIN_X * CLS_WIN_Y + 2 * CLS_RZ + 1)
#define CLS_WIN_IDX(dx, dy, dz)                                                                \
    ((dz) != 0 ? CLS_WIN_X * CLS_WIN_Y + (dz) + CLS_RZ : ((dy) + CLS_RY) * CLS_WIN_X + (dx) + CLS_RX)
#else
#define CLS_WIN_X (2 * CLS_RX + 1)
#define CLS_WIN_Y (2 * CLS_RY + CLS_ITEM_Y) /* a work-item's CLS_ITEM_Y rows share one window */
#define CLS_WIN (CLS_WIN_X * CLS_WIN_Y * (2 * CLS_RZ + 1))
#define CLS_WIN_IDX(dx, dy, dz)                                                                \
    ((((dz) + CLS_RZ) * CLS_WIN_Y + (dy) + CLS_RY) * CLS_WIN_X + (dx) + CLS_RX)
#endif
#define cls_read_win(a, x, y, z) (a)[CLS_WIN_IDX((x) - X, (y) - Y, (z) - Z)]
#endif
