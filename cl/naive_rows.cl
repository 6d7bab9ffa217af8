/* naive_rows.cl: the naive schedule for CPUs: each work-item updates a run of CLS_ROW_LEN points
 * along x with plain loops that the device compiler vectorises like a hand-written C loop
 * (per-point work-items with boundary branches defeat PoCL's vectoriser).  One launch per
 * step, every read from global memory, as naive.cl.
 *
 * The run's points whose stencil stays inside the grid in x, [lo, hi), take one loop without
 * boundary code: cls_update_rel in rows whose stencil stays inside in y and z too (the state
 * read at the row's offset plus each neighbour's constant offset from the point),
 * cls_update_row (y and z folded once per row) in the edge rows.  That loop covers a multiple
 * of CLS_ROW_VEC points (the device's preferred vector width, a multiple of the compiler's)
 * and then the last CLS_ROW_VEC points of [lo, hi) once more, overlapping: the overlap
 * recomputes the same values, and every point runs in vector code instead of a scalar
 * remainder.  The halo-wide ends of the run (x < CLS_HALO_X, x >= NX - CLS_HALO_X) fold x
 * by the boundary rule and read relative to the row too (cls_update_end_rel) or share the
 * loop's y and z folds (cls_update_end), unrolled where a run reaches the row's end so that
 * their folds of x vanish (CLS_ROW_HEAD, CLS_ROW_TAIL in the prelude).  Measured on PoCL
 * (callgrind, heat3d7 64^3): the scalar remainders and the edge rows' per-point folds were
 * half the instructions; later (jacobi3d 128^3) the end points' per-read folds of y and z and
 * the loop's pointer per neighbour row, stepped and spilled per row, a fifth. */
#ifndef CLS_GENERATED
#define CLS_INLINE inline
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 0
#define CLS_HALO_Y 0
#define CLS_HALO_Z 0
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
inline real cls_update_end(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return IN(0, 0);
}
inline real cls_update_rel(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[X];
}
inline real cls_update_end_rel(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[X];
}
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

/* [lo, hi) as a multiple of CLS_ROW_VEC points, then its last CLS_ROW_VEC points again; the
 * update reads the state through `at`. */
#define CLS_ROW_LOOP(update, at)                                                               \
    do {                                                                                       \
        int n_ = hi - lo, full_ = n_ - n_ % CLS_ROW_VEC;                                       \
        for (int x = lo; x < lo + full_; x++)                                                  \
            row[x] = update(at CLS_AUX_ARGS, x, y, z, step);                                   \
        int tail_ = full_ == n_ ? hi : (n_ >= CLS_ROW_VEC ? hi - CLS_ROW_VEC : lo);             \
        for (int x = tail_; x < hi; x++) row[x] = update(at CLS_AUX_ARGS, x, y, z, step);      \
    } while (0)

/* One run of points [x0, x1) of row (y, z). */
CLS_INLINE void cls_row(__global const real *restrict in, __global real *restrict out
                        CLS_AUX_PARAMS, int x0, int x1, int y, int z, int step)
{
    /* Chosen by the preprocessor: a constant operand of && would draw a compiler warning. */
    int inner_row = 1;
#if CLS_DIMS > 1
    if (y < CLS_HALO_Y || y >= NY - CLS_HALO_Y) inner_row = 0;
#endif
#if CLS_DIMS > 2
    if (z < CLS_HALO_Z || z >= NZ - CLS_HALO_Z) inner_row = 0;
#endif
    int lo = max(x0, CLS_HALO_X), hi = min(x1, NX - CLS_HALO_X);
    if (hi < lo) hi = lo = x1;
    __global real *restrict row = out + CLS_IDX(0, y, z);
#define CLS_ROW_END(x) (row[x] = cls_update_end(in CLS_AUX_ARGS, x, y, z, step))
#define CLS_ROW_END_REL(x) (row[x] = cls_update_end_rel(at CLS_AUX_ARGS, x, y, z, step))
    if (inner_row) {
        __global const real *restrict at = in + CLS_DIDX(0, y, z);
        CLS_ROW_HEAD(CLS_ROW_END_REL, CLS_HALO_X);
        CLS_ROW_LOOP(cls_update_rel, in);
        CLS_ROW_TAIL(CLS_ROW_END_REL, CLS_HALO_X);
    } else {
        CLS_ROW_HEAD(CLS_ROW_END, CLS_HALO_X);
        CLS_ROW_LOOP(cls_update_row, in);
        CLS_ROW_TAIL(CLS_ROW_END, CLS_HALO_X);
    }
#undef CLS_ROW_END
#undef CLS_ROW_END_REL
}

__kernel void cls_naive(__global const real *restrict in, __global real *restrict out
                        CLS_AUX_PARAMS, int step)
{
    int x0 = (int)get_global_id(0) * CLS_ROW_LEN;
    int y0 = CLS_DIMS > 1 ? (int)get_global_id(1) * CLS_ITEM_ROWS : 0;
    int z = CLS_DIMS > 2 ? (int)get_global_id(2) : 0;
    if (x0 >= NX || y0 >= NY || z >= NZ) return;
    int x1 = min(x0 + CLS_ROW_LEN, NX);
    int y1 = CLS_DIMS > 1 ? min(y0 + CLS_ITEM_ROWS, NY) : 1;
    for (int y = y0; y < y1; y++) cls_row(in, out CLS_AUX_ARGS, x0, x1, y, z, step);
}
