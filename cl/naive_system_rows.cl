/* naive_system_rows.cl: the naive schedule's stage of a system of fields for CPUs, as
 * naive_rows.cl is for one field: each work-item updates a run of CLS_ROW_LEN points along x
 * in CLS_ITEM_ROWS rows with plain loops that the device compiler vectorises.  Every update of
 * the stage is computed at each point from the fields at the stage's start and stored in the
 * stage's outputs (other buffers: the host rotates them, lib/rotation.c), so the overlapping
 * last vector block recomputes the same values.  The run's points whose stencil stays inside
 * in x take the direct updates (cls_update_<k>_interior in inner rows, cls_update_<k>_row with
 * y and z folded once per row in edge rows); the ends as wide as the stage's reach towards
 * them (CLS_STAGE_HALO_XLO, CLS_STAGE_HALO_XHI: an FDTD stage reads x - 1 or x + 1, not both)
 * take the boundary rule per read.  One launch per stage and step, every read from global
 * memory.
 *
 * With CLS_IN_PLACE (the schedule's choice), the updates that cls__system_stage_in_place
 * allows (CLS_STAGE_IN_PLACE, a mask of fields) store into the field they read, as a
 * hand-written loop updates E and H: each reads its field only at its own point, so a store
 * destroys nothing the stage still needs, and the step moves one array less per such update
 * (no write-allocated output).  The overlapping last block would then read values already
 * stored, so it is computed first, before the run's stores, and stored after them. */
#ifndef CLS_GENERATED
#define CLS_NAIVE_ROWS 1
#define CLS_INLINE inline
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 0
#define CLS_HALO_Y 0
#define CLS_HALO_Z 0
#define CLS_FIELD_PARAMS __global const real *restrict f0
#define CLS_FIELD_ARGS f0
#define CLS_STAGE_OUT_PARAMS , __global real *restrict out0
#define CLS_STAGE_OUT_ARGS , out0
#define CLS_STAGE_STORE(SUF, X, Y, Z, STEP) (out0[CLS_DIDX(X, Y, Z)] = f0[CLS_DIDX(X, Y, Z)])
#endif
#ifndef CLS_ROW_LEN
#define CLS_ROW_LEN NX
#endif
#ifndef CLS_ITEM_ROWS
#define CLS_ITEM_ROWS 1
#endif
#ifndef CLS_ROW_VEC
#define CLS_ROW_VEC 16
#endif
#ifndef CLS_STAGE_IN_PLACE
#define CLS_STAGE_IN_PLACE 0
#endif
#ifndef CLS_STAGE_HALO_XLO
#define CLS_STAGE_HALO_XLO CLS_HALO_X
#define CLS_STAGE_HALO_XHI CLS_HALO_X
#endif
#if CLS_STAGE_IN_PLACE
#ifndef CLS_STAGE_BLOCK
#define CLS_STAGE_BLOCK (8 * CLS_ROW_VEC)
#endif
/* [lo, hi) as a multiple of CLS_ROW_VEC points in blocks of at most CLS_STAGE_BLOCK, each
 * computed into T before it is stored: the store then cannot alias a load of the same loop,
 * which the vectoriser would otherwise check at run time (a field's store and its read at
 * offset 0 are the same address, and the check sends the loop to its scalar version).  The
 * last CLS_ROW_VEC points, where they overlap that, are computed first and stored last. */
#define CLS_STAGE_ROW_LOOP(SUF)                                                                \
    do {                                                                                       \
        int n_ = hi - lo, full_ = n_ - n_ % CLS_ROW_VEC;                                       \
        int keep_ = full_ != n_ && n_ >= CLS_ROW_VEC, tail_ = hi - CLS_ROW_VEC;                 \
        real k_[CLS_STAGE_UPDATES][CLS_ROW_VEC], t_[CLS_STAGE_UPDATES][CLS_STAGE_BLOCK];        \
        if (keep_)                                                                             \
            for (int i = 0; i < CLS_ROW_VEC; i++) CLS_STAGE_KEEP(SUF, tail_ + i, y, z, step, k_, i); \
        if (n_ < CLS_ROW_VEC) full_ = n_ > 0 ? n_ : 0;                                         \
        for (int b = lo; b < lo + full_; b += CLS_STAGE_BLOCK) {                               \
            int m_ = min(CLS_STAGE_BLOCK, lo + full_ - b);                                     \
            for (int i = 0; i < m_; i++) CLS_STAGE_KEEP(SUF, b + i, y, z, step, t_, i);         \
            for (int i = 0; i < m_; i++) CLS_STAGE_PUT(b + i, y, z, t_, i);                     \
        }                                                                                      \
        if (keep_)                                                                             \
            for (int i = 0; i < CLS_ROW_VEC; i++) CLS_STAGE_PUT(tail_ + i, y, z, k_, i);        \
    } while (0)
#else
/* [lo, hi) as a multiple of CLS_ROW_VEC points, then its last CLS_ROW_VEC points again. */
#define CLS_STAGE_ROW_LOOP(SUF)                                                                \
    do {                                                                                       \
        int n_ = hi - lo, full_ = n_ - n_ % CLS_ROW_VEC;                                       \
        for (int x = lo; x < lo + full_; x++) CLS_STAGE_STORE(SUF, x, y, z, step);             \
        int tail_ = full_ == n_ ? hi : (n_ >= CLS_ROW_VEC ? hi - CLS_ROW_VEC : lo);             \
        for (int x = tail_; x < hi; x++) CLS_STAGE_STORE(SUF, x, y, z, step);                  \
    } while (0)
#endif

/* One run of points [x0, x1) of row (y, z). */
CLS_INLINE void cls_stage_row(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, int x0,
                              int x1, int y, int z, int step)
{
#if CLS_DIMS == 1
    int inner_row = 1;
#elif CLS_DIMS == 2
    int inner_row = y >= CLS_HALO_Y && y < NY - CLS_HALO_Y;
#else
    int inner_row =
        y >= CLS_HALO_Y && y < NY - CLS_HALO_Y && z >= CLS_HALO_Z && z < NZ - CLS_HALO_Z;
#endif
    int lo = max(x0, CLS_STAGE_HALO_XLO), hi = min(x1, NX - CLS_STAGE_HALO_XHI);
    if (hi < lo) hi = lo = x1;
#define CLS_STAGE_END(x) CLS_STAGE_STORE(, x, y, z, step)
    CLS_ROW_HEAD(CLS_STAGE_END, CLS_STAGE_HALO_XLO);
    if (inner_row)
        CLS_STAGE_ROW_LOOP(_interior);
    else
        CLS_STAGE_ROW_LOOP(_row);
    CLS_ROW_TAIL(CLS_STAGE_END, CLS_STAGE_HALO_XHI);
#undef CLS_STAGE_END
}

__kernel void cls_naive_stage(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, int step)
{
    int x0 = (int)get_global_id(0) * CLS_ROW_LEN;
    int y0 = CLS_DIMS > 1 ? (int)get_global_id(1) * CLS_ITEM_ROWS : 0;
    int z = CLS_DIMS > 2 ? (int)get_global_id(2) : 0;
    if (x0 >= NX || y0 >= NY || z >= NZ) return;
    int x1 = min(x0 + CLS_ROW_LEN, NX);
    int y1 = CLS_DIMS > 1 ? min(y0 + CLS_ITEM_ROWS, NY) : 1;
    for (int y = y0; y < y1; y++)
        cls_stage_row(CLS_FIELD_ARGS CLS_STAGE_OUT_ARGS CLS_AUX_ARGS, x0, x1, y, z, step);
}
