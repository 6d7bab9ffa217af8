/* stream25d_column.cl: one-step 2.5D streaming for star stencils of radius up to 4 (Mo & Li,
 * Sect. 2-3, the structure of high-order seismic kernels): a CLS_BX x CLS_BY work-group tile of
 * the XY plane marches along z through CLS_ZCHUNK planes; each work-item keeps the 2*CLS_RZ+1
 * values of each of its CLS_ITEM_Y columns along z in a register queue shifted every plane; the
 * centre plane of the tile and its XY halo sit in local memory (double-buffered: the tile's points
 * from the queues' centres, the halo loaded from global memory CLS_COL_AHEAD planes ahead).  The update reads
 * in-plane offsets (dz = 0) from local memory and z offsets of its own column from the queue
 * (the prelude's compact window, CLS_S25_COLUMN); the planner refuses reads with dz != 0 off the
 * column.  A system streams every field its stage reads: star fields (CLS_COL_STAR_MASK) through
 * queue and local plane, fields read only at the point through a one-value queue.  One launch per
 * time step (per stage for a system). */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_RX 1
#define CLS_RY 1
#define CLS_RZ 1
#define CLS_COL_OFFSETS(X) X(0, -1) X(-1, 0) X(1, 0) X(0, 1)
inline real cls_update_stream(__private const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[CLS_WIN_IDX(0, 0, -1)] + in[CLS_WIN_IDX(0, 0, 1)] + in[CLS_WIN_IDX(1, 0, 0)];
}
#endif
#ifndef CLS_BX
#define CLS_BX 32
#endif
#ifndef CLS_BY
#define CLS_BY 4
#endif
#ifndef CLS_ITEM_Y
#define CLS_ITEM_Y 1
#endif
#ifndef CLS_ZCHUNK
#define CLS_ZCHUNK NZ
#endif
#ifndef CLS_CORNERS
#define CLS_CORNERS 0 /* the body reads in-plane diagonals: the halo bands take the corners */
#endif

/* Fields: a single-field stencil is one star field; a system's stage names its read fields
 * and its star fields as bit masks, CLS_COL_NSTAR the star fields. */
#ifdef CLS_NUM_FIELDS
#define CLS_COL_NF CLS_NUM_FIELDS
#define CLS_COL_KERNEL cls_stream25d_column_stage
#define CLS_COL_PARAMS CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, int step
#define CLS_COL_SRCS {CLS_FIELD_ARGS}
#define CLS_COL_STORE(W, X, Y, Z, OK, AT) CLS_STAGE_WIN_STORE(W, 0, X, Y, Z, step, OK, AT)
#else
#define CLS_COL_NF 1
#define CLS_COL_READ_MASK 1
#define CLS_COL_STAR_MASK 1
#define CLS_COL_NSTAR 1
#define CLS_COL_KERNEL cls_stream25d_column
#define CLS_COL_PARAMS                                                                          \
    __global const real *restrict in, __global real *restrict out CLS_AUX_PARAMS, int step
#define CLS_COL_SRCS {in}
#define CLS_COL_STORE(W, X, Y, Z, OK, AT)                                                       \
    do {                                                                                        \
        real v_ = cls_update_stream(W[0] CLS_AUX_ARGS, X, Y, Z, step);                          \
        if (OK) out[AT] = v_;                                                                   \
    } while (0)
#endif
#define CLS_COL_READS(f) ((CLS_COL_READ_MASK >> (f)) & 1)
#define CLS_COL_STAR(f) ((CLS_COL_STAR_MASK >> (f)) & 1)
/* a star field's local planes: its place among the star fields */
#define CLS_COL_SLOT(f) popcount((uint)CLS_COL_STAR_MASK & ((1u << (f)) - 1u))

#define CLS_TY (CLS_BY * CLS_ITEM_Y) /* work-item (lx, ly) has rows ly*CLS_ITEM_Y + j */
#define CLS_LW (CLS_BX + 2 * CLS_RX)
#define CLS_LH (CLS_TY + 2 * CLS_RY)
#define CLS_LPLANE (CLS_LW * CLS_LH)
#define CLS_ITEMS (CLS_BX * CLS_BY)
#define CLS_QN (2 * CLS_RZ + 1)
/* The halo: bands of CLS_RY rows above and below the tile (CLS_BAND wide from CLS_BAND_X0: only
 * over the tile for a star, whole rows when the body reads diagonals) and CLS_RX columns left and
 * right of its rows, numbered in that order and loaded round-robin by the work-items. */
#if CLS_CORNERS
#define CLS_BAND CLS_LW
#define CLS_BAND_X0 0
#else
#define CLS_BAND CLS_BX
#define CLS_BAND_X0 CLS_RX
#endif
#define CLS_NHALO (2 * CLS_RY * CLS_BAND + 2 * CLS_RX * CLS_TY)
#define CLS_NH ((CLS_NHALO + CLS_ITEMS - 1) / CLS_ITEMS)
#define CLS_NH1 (CLS_NH > 0 ? CLS_NH : 1)
#define CLS_SIDES (CLS_RX > 0 ? 2 * CLS_RX : 1)

/* The grid point a load at coordinate i (up to r outside [0, n)) takes its value from under the
 * boundary rule; coordinates further out (work-items past a ragged edge) take any in-grid
 * point, whose value is never read. */
inline int cls_col_src(int i, int n, int r)
{
    return i >= -r && i < n + r ? cls_fold(i, n) : clamp(i, 0, n - 1);
}

/* A load: the XY offset of its source, its place in the local plane (-1: none) and, for the
 * constant boundary, whether the source is inside the grid. */
typedef struct cls_col_slot {
    int src, dst, inside;
} cls_col_slot;

inline cls_col_slot cls_col_make(int gx, int gy, int dst)
{
    cls_col_slot s;
    s.src = CLS_IDX(cls_col_src(gx, NX, CLS_RX), cls_col_src(gy, NY, CLS_RY), 0);
    s.dst = dst;
#if CLS_BOUNDARY == CLS_CONSTANT
    s.inside = gx >= 0 && gx < NX && gy >= 0 && gy < NY;
#else
    s.inside = 1;
#endif
    return s;
}

/* Halo point h of the tile at (x0, y0). */
inline cls_col_slot cls_col_halo(int h, int x0, int y0)
{
    int tx, ty;
    if (h < CLS_RY * CLS_BAND) {
        ty = h / CLS_BAND;
        tx = CLS_BAND_X0 + h % CLS_BAND;
    } else if (h < 2 * CLS_RY * CLS_BAND) {
        h -= CLS_RY * CLS_BAND;
        ty = CLS_RY + CLS_TY + h / CLS_BAND;
        tx = CLS_BAND_X0 + h % CLS_BAND;
    } else {
        h -= 2 * CLS_RY * CLS_BAND;
        int c = h % CLS_SIDES;
        ty = CLS_RY + min(h / CLS_SIDES, CLS_TY - 1); /* a last partial round: any row */
        tx = c < CLS_RX ? c : CLS_BX + c;
    }
    return cls_col_make(x0 - CLS_RX + tx, y0 - CLS_RY + ty, tx + CLS_LW * ty);
}

/* Plane p (virtual: up to CLS_RZ outside [0, NZ)): its folded offset and whether it is in the
 * grid (constant boundary). */
#define CLS_ZOFF(p) CLS_IDX(0, 0, cls_col_src(p, NZ, CLS_RZ))
#define CLS_INZ(p) ((p) >= 0 && (p) < NZ)
#if CLS_BOUNDARY == CLS_CONSTANT
#define CLS_FETCH(a, slot, p)                                                                   \
    (CLS_INZ(p) && (slot).inside ? (a)[(slot).src + CLS_ZOFF(p)] : (real)CLS_BOUNDARY_VALUE)
#else
#define CLS_FETCH(a, slot, p) (a)[(slot).src + CLS_ZOFF(p)]
#endif

/* The window entries of in-plane offset (dx, dy) from the local plane around point `at`. */
#define CLS_COL_LOCAL(dx, dy) w[f][CLS_WIN_IDX(dx, dy, 0)] = at[(dy) * CLS_LW + (dx)];

/* How many planes ahead the loads are issued (stream25d.prefetch): plane z + CLS_COL_AHEAD is
 * requested while plane z is computed, so that more loads are in flight per work-item. */
#ifndef CLS_COL_AHEAD
#define CLS_COL_AHEAD 1
#endif

__kernel __attribute__((reqd_work_group_size(CLS_BX, CLS_BY, 1)))
void CLS_COL_KERNEL(CLS_COL_PARAMS)
{
    __local real planes[CLS_COL_NSTAR > 0 ? CLS_COL_NSTAR : 1][2][CLS_LPLANE];
    __global const real *src[CLS_COL_NF] = CLS_COL_SRCS;
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x0 = get_group_id(0) * CLS_BX, y0 = get_group_id(1) * CLS_TY;
    const int z0 = get_group_id(2) * CLS_ZCHUNK, z1 = min(z0 + CLS_ZCHUNK, NZ);
    const int x = x0 + lx, y = y0 + ly * CLS_ITEM_Y;
    /* Items past a ragged edge compute throw-away values at in-grid coordinates; their columns
     * hold the boundary rule's values, which points near the edge read. */
    const int xc = min(x, NX - 1);
    cls_col_slot col[CLS_ITEM_Y];
    /* the loads in flight: entry a holds plane z + 1 + a (queues: the plane entering them) */
    real qn[CLS_COL_AHEAD][CLS_COL_NF][CLS_ITEM_Y];
    real q[CLS_COL_NF][CLS_ITEM_Y][CLS_QN];
    real w[CLS_COL_NF][CLS_WIN];
#pragma unroll
    for (int j = 0; j < CLS_ITEM_Y; j++)
        col[j] = cls_col_make(x, y + j, lx + CLS_RX + CLS_LW * (ly * CLS_ITEM_Y + j + CLS_RY));
    cls_col_slot halo[CLS_NH1];
    real hv[CLS_COL_AHEAD][CLS_COL_NF][CLS_NH1];
#pragma unroll
    for (int r = 0; r < CLS_NH; r++) {
        int h = lx + CLS_BX * ly + r * CLS_ITEMS;
        halo[r] = cls_col_halo(min(h, CLS_NHALO - 1), x0, y0);
        if (h >= CLS_NHALO) halo[r].dst = -1;
    }

    /* The queues of planes z0 - RZ .. z0 + RZ (a point field: plane z0), the halo of z0. */
#pragma unroll
    for (int f = 0; f < CLS_COL_NF; f++) {
        if (!CLS_COL_READS(f)) continue;
#pragma unroll
        for (int j = 0; j < CLS_ITEM_Y; j++)
#pragma unroll
            for (int d = 0; d < CLS_QN; d++)
                if (CLS_COL_STAR(f) || d == CLS_RZ)
                    q[f][j][d] = CLS_FETCH(src[f], col[j], z0 - CLS_RZ + d);
        if (!CLS_COL_STAR(f)) continue;
        __local real *pl = planes[CLS_COL_SLOT(f)][0];
#pragma unroll
        for (int r = 0; r < CLS_NH; r++)
            if (halo[r].dst >= 0) pl[halo[r].dst] = CLS_FETCH(src[f], halo[r], z0);
#pragma unroll
        for (int j = 0; j < CLS_ITEM_Y; j++) pl[col[j].dst] = q[f][j][CLS_RZ];
    }

    /* The loads of plane p into entry a of the ring: the queues' new plane p + RZ (a point
     * field: p) and the halo of p. */
#define CLS_COL_LOAD(a, p)                                                                      \
    _Pragma("unroll") for (int f = 0; f < CLS_COL_NF; f++) {                                    \
        if (!CLS_COL_READS(f)) continue;                                                        \
        _Pragma("unroll") for (int j = 0; j < CLS_ITEM_Y; j++) qn[a][f][j] =                    \
            CLS_FETCH(src[f], col[j], CLS_COL_STAR(f) ? (p) + CLS_RZ : (p));                    \
        if (!CLS_COL_STAR(f)) continue;                                                         \
        _Pragma("unroll") for (int r = 0; r < CLS_NH; r++) hv[a][f][r] =                        \
            CLS_FETCH(src[f], halo[r], p);                                                      \
    }
#pragma unroll
    for (int a = 0; a + 1 < CLS_COL_AHEAD; a++)
        if (z0 + 1 + a < z1) {
            CLS_COL_LOAD(a, z0 + 1 + a)
        }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Plane z: the loads of plane z + AHEAD are issued first and land while z is computed from
     * local plane b and the queues; then the queues shift, plane z + 1 goes into the other
     * buffer and the ring moves on; one barrier per plane. */
    for (int z = z0, b = 0; z < z1; z++, b ^= 1) {
        const int zn = z + 1;
        if (z + CLS_COL_AHEAD < z1) {
            CLS_COL_LOAD(CLS_COL_AHEAD - 1, z + CLS_COL_AHEAD)
        }
#pragma unroll
        for (int j = 0; j < CLS_ITEM_Y; j++) {
#pragma unroll
            for (int f = 0; f < CLS_COL_NF; f++) {
                if (!CLS_COL_READS(f)) continue;
                if (CLS_COL_STAR(f)) {
                    __local const real *at = planes[CLS_COL_SLOT(f)][b] + col[j].dst;
                    CLS_COL_OFFSETS(CLS_COL_LOCAL)
                }
#pragma unroll
                for (int d = -CLS_RZ; d <= CLS_RZ; d++)
                    if (CLS_COL_STAR(f) || d == 0) w[f][CLS_WIN_IDX(0, 0, d)] = q[f][j][d + CLS_RZ];
            }
            CLS_COL_STORE(w, xc, min(y + j, NY - 1), z, x < NX && y + j < NY,
                          CLS_IDX(x, y + j, z));
        }
        if (zn < z1) {
#pragma unroll
            for (int f = 0; f < CLS_COL_NF; f++) {
                if (!CLS_COL_READS(f)) continue;
#pragma unroll
                for (int j = 0; j < CLS_ITEM_Y; j++) {
                    if (CLS_COL_STAR(f)) {
#pragma unroll
                        for (int d = 0; d + 1 < CLS_QN; d++) q[f][j][d] = q[f][j][d + 1];
                        q[f][j][CLS_QN - 1] = qn[0][f][j];
                    } else {
                        q[f][j][CLS_RZ] = qn[0][f][j];
                    }
                }
                if (!CLS_COL_STAR(f)) continue;
                __local real *pl = planes[CLS_COL_SLOT(f)][b ^ 1];
#pragma unroll
                for (int r = 0; r < CLS_NH; r++)
                    if (halo[r].dst >= 0) pl[halo[r].dst] = hv[0][f][r];
#pragma unroll
                for (int j = 0; j < CLS_ITEM_Y; j++) pl[col[j].dst] = q[f][j][CLS_RZ];
            }
#pragma unroll
            for (int a = 0; a + 1 < CLS_COL_AHEAD; a++) {
#pragma unroll
                for (int f = 0; f < CLS_COL_NF; f++) {
#pragma unroll
                    for (int j = 0; j < CLS_ITEM_Y; j++) qn[a][f][j] = qn[a + 1][f][j];
#pragma unroll
                    for (int r = 0; r < CLS_NH; r++) hv[a][f][r] = hv[a + 1][f][r];
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
