/* chaotic.cl: the convergent solver's kernels (Chen et al., Sect. IV): one synchronous
 * step with the norm of its update (the base schedule, and the residual check), the reduction of
 * the per-group norms, and the pass of the coarse and asynchronous schedules, in which a
 * work-group iterates its data block in local memory for n steps and, every l steps, exchanges
 * its boundary with its neighbours through global memory without ever waiting for them.
 *
 * The pass (cls_chaotic_pass): a work-group of CLS_NCOMP computation items (CLS_BX x CLS_WY, each
 * updating CLS_PPI points CLS_WY rows apart) and CLS_NCOMM communication items (Table II of the
 * document) holds its block of CLS_BX x CLS_BY points with a ring of one halo around it (the
 * tile, CLS_TILE_X x CLS_TILE_Y, first element at grid point (ox, oy)) twice in local memory:
 * the current and the next state.  The ring holds the neighbours' values; it stays as loaded
 * (coarse, mode 0) or is refreshed every `interval` steps (mode 1 up/down rows, 2 all four
 * sides in place, 3 all four sides with the left/right columns in contiguous arrays).  The mode
 * and the block order are kernel arguments, so one program serves every schedule.
 *
 * Memory consistency (doc/chaotic.md): OpenCL 1.2 orders global memory between work-groups of
 * one launch only through atomics, and promises no forward progress between them.  The exchange
 * therefore never waits for a neighbour and needs no order: each block only ever writes the
 * points it owns, every stored value is a complete iterate of its point, and a load returns
 * either the value of the last host synchronisation or one stored since, all of which chaotic
 * relaxation accepts (Chazan and Miranker).  Loads and stores of the exchange go through
 * volatile pointers, so that the compiler neither keeps nor merges them and the loads bypass
 * non-coherent first-level caches; mem_fence orders each item's stores before its later loads. */
#ifndef CLS_GENERATED
#define CLS_AUX_PARAMS
#define CLS_AUX_ARGS
#define CLS_HALO_X 1
#define CLS_HALO_Y 1
#define CLS_BX 32
#define CLS_BY 20
#define CLS_PPI 2
#define CLS_WY 10
#define CLS_NCOMM 32
#define CLS_NBX 2
#define CLS_NBY 4
#define CLS_SX 32
#define CLS_SY 8
#define CLS_TILE_X (CLS_BX + 2 * CLS_HALO_X)
#define CLS_TILE_Y (CLS_BY + 2 * CLS_HALO_Y)
#define CLS_TILE_Z 1
#define CLS_PITCH_X (CLS_TILE_X + 2 * CLS_HALO_X)
#define CLS_PITCH_Y (CLS_TILE_Y + 2 * CLS_HALO_Y)
#define CLS_PITCH_Z 1
#define CLS_TILE_INDEX(lx, ly, lz) ((lx) + CLS_HALO_X + CLS_PITCH_X * ((ly) + CLS_HALO_Y))
inline real cls_update(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[CLS_IDX(X, Y, 0)];
}
inline real cls_update_interior(__global const real *restrict in, int X, int Y, int Z, int STEP)
{
    return in[CLS_IDX(X, Y, 0)];
}
inline real cls_update_tile(__local const real *restrict in, int X, int Y, int Z, int STEP,
                            int OX, int OY, int OZ)
{
    return in[CLS_TILE_INDEX(X - OX, Y - OY, 0)];
}
inline real cls_update_tile_interior(__local const real *restrict in, int X, int Y, int Z,
                                     int STEP, int OX, int OY, int OZ)
{
    return in[CLS_TILE_INDEX(X - OX, Y - OY, 0)];
}
#endif

/* Work-items of the reduction kernel. */
#define CLS_RED 256
#define CLS_NCOMP (CLS_BX * CLS_WY)
#define CLS_LOCAL (CLS_NCOMP + CLS_NCOMM)
#define CLS_TILE_ALLOC (CLS_PITCH_X * CLS_PITCH_Y)
/* Tile cell (lx, ly), tile coordinates: (0, 0) is grid point (ox, oy). */
#define CLS_T(lx, ly) CLS_TILE_INDEX(lx, ly, 0)
/* The combined left/right boundary columns: block bx's left (side 0) or right (side 1) columns,
 * column k of CLS_HALO_X, row y: one contiguous run of NY values per column. */
#define CLS_COL(bx, side, k, y) ((((bx) * 2 + (side)) * CLS_HALO_X + (k)) * NY + (y))

/* Reduces the per-item (max |d|, sum d^2, non-finite flag) over a work-group of n items into
 * out[0..2]; red holds 3n values.  Every item of the group must call it. */
inline void cls_group_reduce(real m, real s, real nf, __local real *red, int lid, int n,
                             __global real *out)
{
    red[lid] = m;
    red[n + lid] = s;
    red[2 * n + lid] = nf;
    int p = 1;
    while (p < n) p <<= 1;
    for (int h = p >> 1; h > 0; h >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h && lid + h < n) {
            red[lid] = fmax(red[lid], red[lid + h]);
            red[n + lid] += red[n + lid + h];
            red[2 * n + lid] = fmax(red[2 * n + lid], red[2 * n + lid + h]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        out[0] = red[0];
        out[1] = red[n];
        out[2] = red[2 * n];
    }
}

/* The norm contributions of one update d of a point whose new value is v. */
inline void cls_norm_add(real v, real d, real *m, real *s, real *nf)
{
    if (isfinite(v) && isfinite(d)) {
        *m = fmax(*m, fabs(d));
        *s += d * d;
    } else {
        *nf = 1;
    }
}

/* One synchronous step (Jacobi): out = F(in) where `write`, and the norm of F(in) - in per
 * work-group into partial[3 * group ..].  The base schedule runs it every step; with write = 0
 * it measures the residual of the state `in`. */
__kernel __attribute__((reqd_work_group_size(CLS_SX, CLS_SY, 1)))
void cls_chaotic_step(__global const real *restrict in, __global real *restrict out
                      CLS_AUX_PARAMS, __global real *partial, int step, int write)
{
    __local real red[3 * CLS_SX * CLS_SY];
    int x = get_global_id(0), y = get_global_id(1);
    real m = 0, s = 0, nf = 0;
    if (x < NX && y < NY) {
        real v;
        if (x >= CLS_HALO_X && x < NX - CLS_HALO_X && y >= CLS_HALO_Y && y < NY - CLS_HALO_Y)
            v = cls_update_interior(in CLS_AUX_ARGS, x, y, 0, step);
        else
            v = cls_update(in CLS_AUX_ARGS, x, y, 0, step);
        if (write) out[CLS_IDX(x, y, 0)] = v;
        cls_norm_add(v, v - in[CLS_IDX(x, y, 0)], &m, &s, &nf);
    }
    int lid = get_local_id(0) + CLS_SX * get_local_id(1);
    cls_group_reduce(m, s, nf, red, lid, CLS_SX * CLS_SY,
                     partial + 3 * (get_group_id(0) + get_num_groups(0) * get_group_id(1)));
}

/* The per-group norms into one (max, sum, flag) triple per work-group of this kernel, at
 * result[3 * group ..]: one group gives the final triple; for large grids the host first runs
 * several groups and then one over their triples, so that no single group walks a long list
 * with one memory latency per entry (10^5 groups at 4096^2). */
__kernel __attribute__((reqd_work_group_size(CLS_RED, 1, 1)))
void cls_chaotic_reduce(__global const real *partial, int count, __global real *result)
{
    __local real red[3 * CLS_RED];
    int lid = get_local_id(0);
    real m = 0, s = 0, nf = 0;
    for (int i = get_global_id(0); i < count; i += get_global_size(0)) {
        m = fmax(m, partial[3 * i]);
        s += partial[3 * i + 1];
        nf = fmax(nf, partial[3 * i + 2]);
    }
    cls_group_reduce(m, s, nf, red, lid, CLS_RED, result + 3 * get_group_id(0));
}

/* ------------------------------------------------------------------------------ the pass */
typedef struct cls_block {
    int bx, by;     /* block coordinates */
    int ox, oy;     /* grid point of tile cell (0, 0): the block's corner minus one halo */
    int ew, eh;     /* points the block owns along x and y (the last blocks may be short) */
    int interior;   /* the whole tile lies inside the grid: no boundary rule needed */
} cls_block;

/* The block of work-group g: the stripe (order 0) or square (order 1) order of the document's
 * Fig. 6.  Work-groups start roughly in the order of their ids, so consecutive ids are the
 * co-resident ones. */
inline cls_block cls_block_of(int g, int order, int sq)
{
    cls_block b;
    if (order == 0) {
        /* Stripe: down one column of blocks, then the next column. */
        b.bx = g / CLS_NBY;
        b.by = g % CLS_NBY;
    } else {
        /* Square: rows of squares of sq x sq blocks (clipped at the grid's edges), each square
         * filled row by row. */
        int sr = g / (sq * CLS_NBX);
        int rem = g - sr * sq * CLS_NBX;
        int h = min(sq, CLS_NBY - sr * sq);
        int sc = rem / (sq * h);
        int r2 = rem - sc * sq * h;
        int w = min(sq, CLS_NBX - sc * sq);
        b.bx = sc * sq + r2 % w;
        b.by = sr * sq + r2 / w;
    }
    b.ox = b.bx * CLS_BX - CLS_HALO_X;
    b.oy = b.by * CLS_BY - CLS_HALO_Y;
    b.ew = min(CLS_BX, NX - b.bx * CLS_BX);
    b.eh = min(CLS_BY, NY - b.by * CLS_BY);
    b.interior = b.ox >= 0 && b.oy >= 0 && b.ox + CLS_TILE_X <= NX && b.oy + CLS_TILE_Y <= NY;
    return b;
}

/* The grid point that holds the value of tile cell (x, y): the point itself inside the grid, the
 * wrapped point on periodic grids; 0 when the cell lies outside a grid of another boundary (the
 * update folds such reads back into the block, or reads the constant, so the cell is unused). */
inline int cls_source(int *x, int *y)
{
    if (*x >= 0 && *x < NX && *y >= 0 && *y < NY) return 1;
#if CLS_BOUNDARY == CLS_PERIODIC
    *x = *x < 0 ? *x + NX : (*x >= NX ? *x - NX : *x);
    *y = *y < 0 ? *y + NY : (*y >= NY ? *y - NY : *y);
    return 1;
#else
    return 0;
#endif
}

/* Stores the block's own boundary from tile t: its top and bottom CLS_HALO_Y rows in place
 * (x fastest: coalesced), and with 4-way exchange (mode 2, 3) its left and right CLS_HALO_X
 * columns, in place (strided) or into the combined arrays (contiguous).  Items first,
 * first + stride, ... share the work. */
inline void cls_store_boundary(__local const real *t, cls_block b, int mode,
                               __global volatile real *u, __global volatile real *cols,
                               int first, int stride)
{
    int nr = 2 * CLS_HALO_Y * b.ew;
    for (int i = first; i < nr; i += stride) {
        int side = i / (CLS_HALO_Y * b.ew), r = (i / b.ew) % CLS_HALO_Y, c = i % b.ew;
        int lx = CLS_HALO_X + c, ly = side ? b.eh + r : CLS_HALO_Y + r;
        u[CLS_IDX(b.ox + lx, b.oy + ly, 0)] = t[CLS_T(lx, ly)];
    }
    int nc = mode >= 2 ? 2 * CLS_HALO_X * b.eh : 0;
    for (int i = first; i < nc; i += stride) {
        int side = i / (CLS_HALO_X * b.eh), k = (i / b.eh) % CLS_HALO_X, r = i % b.eh;
        int lx = side ? b.ew + k : CLS_HALO_X + k, ly = CLS_HALO_Y + r;
        if (mode == 3)
            cols[CLS_COL(b.bx, side, k, b.oy + ly)] = t[CLS_T(lx, ly)];
        else
            u[CLS_IDX(b.ox + lx, b.oy + ly, 0)] = t[CLS_T(lx, ly)];
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}

/* Loads the neighbours' values into the ring of tile t (and of t2 when `both`): the rows above
 * and below the block over the tile's width (corners included), and with 4-way exchange the
 * columns left and right of it, from wherever the owners last stored them. */
inline void cls_load_ring(__local real *t, __local real *t2, int both, cls_block b, int mode,
                          __global volatile real *u, __global volatile real *cols, int first,
                          int stride)
{
    int w = b.ew + 2 * CLS_HALO_X;
    int nr = 2 * CLS_HALO_Y * w;
    for (int i = first; i < nr; i += stride) {
        int side = i / (CLS_HALO_Y * w), r = (i / w) % CLS_HALO_Y, c = i % w;
        int lx = c, ly = side ? CLS_HALO_Y + b.eh + r : r;
        int x = b.ox + lx, y = b.oy + ly;
        if (!cls_source(&x, &y)) continue;
        real v = u[CLS_IDX(x, y, 0)];
        t[CLS_T(lx, ly)] = v;
        if (both) t2[CLS_T(lx, ly)] = v;
    }
    int nc = mode >= 2 ? 2 * CLS_HALO_X * b.eh : 0;
    for (int i = first; i < nc; i += stride) {
        int side = i / (CLS_HALO_X * b.eh), k = (i / b.eh) % CLS_HALO_X, r = i % b.eh;
        int lx = side ? CLS_HALO_X + b.ew + k : k, ly = CLS_HALO_Y + r;
        real v;
        if (mode == 3) {
            /* Left ring: the left neighbour's right columns; right ring: the right one's left. */
            int nb = side ? b.bx + 1 : b.bx - 1;
            if (nb < 0 || nb >= CLS_NBX) {
#if CLS_BOUNDARY == CLS_PERIODIC
                nb = nb < 0 ? nb + CLS_NBX : nb - CLS_NBX;
#else
                continue;
#endif
            }
            v = cols[CLS_COL(nb, 1 - side, k, b.oy + ly)];
        } else {
            int x = b.ox + lx, y = b.oy + ly;
            if (!cls_source(&x, &y)) continue;
            v = u[CLS_IDX(x, y, 0)];
        }
        t[CLS_T(lx, ly)] = v;
        if (both) t2[CLS_T(lx, ly)] = v;
    }
}

/* Copies the ring cells that an exchange refreshes from tile `from` to tile `to`. */
inline void cls_copy_ring(__local const real *from, __local real *to, cls_block b, int mode,
                          int first, int stride)
{
    int w = b.ew + 2 * CLS_HALO_X;
    int nr = 2 * CLS_HALO_Y * w;
    for (int i = first; i < nr; i += stride) {
        int side = i / (CLS_HALO_Y * w), r = (i / w) % CLS_HALO_Y, c = i % w;
        int ly = side ? CLS_HALO_Y + b.eh + r : r;
        to[CLS_T(c, ly)] = from[CLS_T(c, ly)];
    }
    int nc = mode >= 2 ? 2 * CLS_HALO_X * b.eh : 0;
    for (int i = first; i < nc; i += stride) {
        int side = i / (CLS_HALO_X * b.eh), k = (i / b.eh) % CLS_HALO_X, r = i % b.eh;
        int lx = side ? CLS_HALO_X + b.ew + k : k, ly = CLS_HALO_Y + r;
        to[CLS_T(lx, ly)] = from[CLS_T(lx, ly)];
    }
}

/* One pass: `nsteps` steps of the block of this work-group, from src into dst (coarse: two
 * buffers; asynchronous: the same buffer twice, which is also the exchange medium of the rows
 * and, without combining, of the columns).  Exchanges happen before steps interval, 2 interval,
 * ...  With communication items, the exchange overlaps a step: they store the boundary from the
 * current tile and load the ring into the next one (neither is touched by the computation items
 * in that step), and in the following step copy the fresh ring into the other tile.  Without
 * them, all items exchange between two steps (the communication items of a coarse pass, mode
 * 0, idle).  partial[3 * group ..] receives the norm of the change of the block's points over
 * the pass (divided by nsteps on the host). */
__kernel __attribute__((reqd_work_group_size(CLS_LOCAL, 1, 1)))
void cls_chaotic_pass(__global volatile real *src, __global real *dst CLS_AUX_PARAMS,
                      __global volatile real *cols, __global real *partial, int nsteps,
                      int interval, int step0, int mode, int order, int square)
{
    __local real tile0[CLS_TILE_ALLOC], tile1[CLS_TILE_ALLOC];
    __local real red[3 * CLS_LOCAL];
    int lid = get_local_id(0);
    cls_block b = cls_block_of(get_group_id(0), order, square);

    /* The block and its ring, into both tiles. */
    int tw = b.ew + 2 * CLS_HALO_X, th = b.eh + 2 * CLS_HALO_Y;
    for (int i = lid; i < tw * th; i += CLS_LOCAL) {
        int lx = i % tw, ly = i / tw, x = b.ox + lx, y = b.oy + ly;
        if (!cls_source(&x, &y)) continue;
        real v = src[CLS_IDX(x, y, 0)];
        tile0[CLS_T(lx, ly)] = v;
        tile1[CLS_T(lx, ly)] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    int comp = lid < CLS_NCOMP;
    int cx = lid % CLS_BX, cy = lid / CLS_BX;
    real start[CLS_PPI];
    for (int k = 0; k < CLS_PPI; k++) start[k] = 0;
    if (comp)
        for (int k = 0; k < CLS_PPI; k++)
            if (cx < b.ew && cy + k * CLS_WY < b.eh)
                start[k] = tile0[CLS_T(CLS_HALO_X + cx, CLS_HALO_Y + cy + k * CLS_WY)];

    __local real *cur = tile0, *nxt = tile1;
    for (int s = 0; s < nsteps; s++) {
        int ex = mode > 0 && s > 0 && s % interval == 0;
#if CLS_NCOMM > 0
        int cp = mode > 0 && s > 1 && (s - 1) % interval == 0;
        if (!comp) {
            int c = lid - CLS_NCOMP;
            if (ex) {
                cls_store_boundary(cur, b, mode, src, cols, c, CLS_NCOMM);
                cls_load_ring(nxt, nxt, 0, b, mode, src, cols, c, CLS_NCOMM);
            } else if (cp) {
                cls_copy_ring(cur, nxt, b, mode, c, CLS_NCOMM);
            }
        }
#else
        if (ex) {
            cls_store_boundary(cur, b, mode, src, cols, lid, CLS_LOCAL);
            cls_load_ring(cur, nxt, 1, b, mode, src, cols, lid, CLS_LOCAL);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
#endif
        if (comp) {
            for (int k = 0; k < CLS_PPI; k++) {
                int lx = CLS_HALO_X + cx, ly = CLS_HALO_Y + cy + k * CLS_WY;
                if (cx < b.ew && cy + k * CLS_WY < b.eh) {
                    int x = b.ox + lx, y = b.oy + ly;
                    nxt[CLS_T(lx, ly)] =
                        b.interior ? cls_update_tile_interior(cur CLS_AUX_ARGS, x, y, 0,
                                                              step0 + s, b.ox, b.oy, 0)
                                   : cls_update_tile(cur CLS_AUX_ARGS, x, y, 0, step0 + s,
                                                     b.ox, b.oy, 0);
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        __local real *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }

    /* Commit the block and measure its change over the pass.  The global fence orders the
     * communication items' last stores before the commit of the same points by other items
     * (a stale boundary value must not land after the final one). */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    real m = 0, sq = 0, nf = 0;
    if (comp) {
        for (int k = 0; k < CLS_PPI; k++) {
            int lx = CLS_HALO_X + cx, ly = CLS_HALO_Y + cy + k * CLS_WY;
            if (cx < b.ew && cy + k * CLS_WY < b.eh) {
                real v = cur[CLS_T(lx, ly)];
                dst[CLS_IDX(b.ox + lx, b.oy + ly, 0)] = v;
                cls_norm_add(v, v - start[k], &m, &sq, &nf);
            }
        }
    }
    /* Keep the combined columns equal to the committed state for the next pass. */
    if (mode == 3) {
        int nc = 2 * CLS_HALO_X * b.eh;
        for (int i = lid; i < nc; i += CLS_LOCAL) {
            int side = i / (CLS_HALO_X * b.eh), k = (i / b.eh) % CLS_HALO_X, r = i % b.eh;
            int lx = side ? b.ew + k : CLS_HALO_X + k, ly = CLS_HALO_Y + r;
            cols[CLS_COL(b.bx, side, k, b.oy + ly)] = cur[CLS_T(lx, ly)];
        }
    }
    cls_group_reduce(m, sq, nf, red, lid, CLS_LOCAL, partial + 3 * get_group_id(0));
}

/* Fills the combined column arrays from the state u (before the first pass). */
__kernel void cls_chaotic_pack(__global const real *u, __global real *cols)
{
    int e = get_global_id(0);
    if (CLS_HALO_X == 0 || e >= 2 * CLS_HALO_X * CLS_NBX * NY) return;
    int y = e % NY, slot = e / NY;
    int k = slot % CLS_HALO_X, side = (slot / CLS_HALO_X) % 2, bx = slot / (2 * CLS_HALO_X);
    int ew = min(CLS_BX, NX - bx * CLS_BX);
    int x = side ? bx * CLS_BX + ew - CLS_HALO_X + k : bx * CLS_BX + k;
    cols[e] = u[CLS_IDX(x, y, 0)];
}
