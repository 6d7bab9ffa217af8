/* mapping_bench.cl: the measurable kernels of the CuMAPz correlation experiment
 * (Kim & Shrivastava, Sect. 6, Figs. 7-10; `clstencil analyze --measure`).  Each kernel is
 * the one its access description in model/cumapz_cases.c describes (fig2-*, transpose,
 * stencil2d, stencil3d), reference for reference; the variant is chosen by macros.  Every
 * kernel takes (in, out, a, b, c): two float arrays and three ints whose meaning each kernel
 * states.  Only memory behaviour matters here; the arithmetic is a token. */

#ifndef MB_F
#define MB_F (-1)   /* fig: the reference fetched, in[row*MAX+col+MB_F]; -1: none (Fig. 1) */
#endif
#ifndef MB_RW
#define MB_RW 0     /* fig: 1 row-wise s_in[ty][tx], 0 column-wise s_in[tx][ty] */
#endif
#ifndef MB_PAD
#define MB_PAD 0    /* fig, transpose, stencils: extra elements in a local row */
#endif
#ifndef MB_WCW
#define MB_WCW 0    /* fig: 1 column-wise global write out[col*MAX+row] (Kim & Shrivastava,
                       Sect. 3.3) */
#endif
#ifndef MB_DIAG
#define MB_DIAG 0   /* transpose: diagonal block order (Kim & Shrivastava, Sect. 6.1) */
#endif
#ifndef MB_BX
#define MB_BX 16    /* stencils: work-group shape */
#endif
#ifndef MB_BY
#define MB_BY 16
#endif
#ifndef MB_CM
#define MB_CM 0     /* stencils: 1 column-major local tile */
#endif
#ifndef MB_ALIGNED
#define MB_ALIGNED 0 /* stencils: the aligned 48x8 loader (32x6 work-groups) of Mo & Li,
                        Listing 3 */
#endif

/* ------------------------------------------------------- Kim & Shrivastava, Fig. 1 / Fig. 2 */
/* a = MAX (row length), 16x16 work-groups over ROWS x MAX.  `in` holds ROWS*MAX+2 elements,
 * `out` MAX*MAX when MB_WCW.  The fetch precedes the boundary check (as the description). */
#if MB_RW
#define S_IN(x, y) s_in[y][x]
#else
#define S_IN(x, y) s_in[x][y]
#endif
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void cls_mb_fig(__global const float *restrict in, __global float *restrict out, int MAX, int b,
                int c)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_global_id(0), row = get_global_id(1);
    const long base = (long)row * MAX + col;
    float t[3];
    (void)b;
    (void)c;
#if MB_F >= 0
    __local float s_in[16][16 + MB_PAD];
    S_IN(tx, ty) = in[base + MB_F];
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    if (col < MAX - 2) {
        for (int d = 0; d < 3; d++) {
#if MB_F >= 0
            const int lx = tx + d - MB_F;
            if (lx >= 0 && lx < 16) t[d] = S_IN(lx, ty);
            else t[d] = in[base + d];
#else
            t[d] = in[base + d];
#endif
        }
#if MB_WCW
        out[(long)col * MAX + row] = t[0] * t[1] * t[2];
#else
        out[base] = t[0] * t[1] * t[2];
#endif
    }
}

/* ---------------------------------------------------------------- matrix transpose */
/* a = N; 32x8 work-groups over N x N/4, 32x32 tiles, four elements per work-item (Ruetsch and
 * Micikevicius).  MB_TILED 0: naive; else through a 32 x (32+MB_PAD) tile. */
#ifndef MB_TILED
#define MB_TILED 0
#endif
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void cls_mb_transpose(__global const float *restrict idata, __global float *restrict odata,
                      int N, int b, int c)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    int bx = get_group_id(0), by = get_group_id(1);
    (void)b;
    (void)c;
#if MB_DIAG
    {   /* Kim & Shrivastava, Sect. 6.1:
           bid = x + gridDim.x * y; by = bid % gdy; bx = (bid / gdy + by) % gdx */
        const int gx = get_num_groups(0), gy = get_num_groups(1);
        const int bid = bx + gx * by;
        by = bid % gy;
        bx = (bid / gy + by) % gx;
    }
#endif
#if MB_TILED
    __local float tile[32][32 + MB_PAD];
    for (int i = 0; i < 4; i++)
        tile[ty + 8 * i][tx] = idata[(long)(by * 32 + ty + 8 * i) * N + bx * 32 + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; i++)
        odata[(long)(bx * 32 + ty + 8 * i) * N + by * 32 + tx] = tile[tx][ty + 8 * i];
#else
    for (int i = 0; i < 4; i++)
        odata[(long)(bx * 32 + tx) * N + by * 32 + ty + 8 * i] =
            idata[(long)(by * 32 + ty + 8 * i) * N + bx * 32 + tx];
#endif
}

/* ---------------------------------------------------------------- stencils with a local tile */
/* Rows of P = a elements (the interior NX plus 32 on each side), NY+2 rows per plane (one halo
 * row above and below), b = planes to march (3D; 1 in 2D), c = the plane pitch PL.  Point
 * (gx, gy, k) is element O + k*PL + gy*P + gx, O = PL + P + 32 in 3D, P + 32 in 2D (the caller
 * passes the base in `c` of 2D as 0).  The tile: classic (Mo & Li, Listing 2) (BX+2) x (BY+2), or
 * aligned (Listing 3) 48 x 8 with 8-element ghost columns; row-major or column-major (MB_CM),
 * MB_PAD extra elements in the fast dimension. */
#if MB_ALIGNED
#define TW0 48
#define TH0 8
#define OX 8   /* tile column of the work-group's first point */
#else
#define TW0 (MB_BX + 2)
#define TH0 (MB_BY + 2)
#define OX 1
#endif
#define TW (TW0 + MB_PAD * (1 - MB_CM))
#define TH (TH0 + MB_PAD * MB_CM)
#define SX (MB_CM * TH + (1 - MB_CM))
#define SY ((1 - MB_CM) * TW + MB_CM)
#define SH(x, y) sh[(x) * SX + (y) * SY]

/* Loads the tile of the plane whose element (0,0) of this work-group's points is `c0`. */
static void load_tile(__local float *sh, __global const float *restrict in, long c0, int P,
                      int tx, int ty)
{
#if MB_ALIGNED
    /* Listing 3: the 32x6 work-group seen as 48x4 loads two rows of four. */
    const int lid = tx + MB_BX * ty, vx = lid % 48, vy = lid / 48;
    const long g = c0 - OX - P; /* tile element (0,0) */
    SH(vx, vy) = in[g + (long)vy * P + vx];
    SH(vx, vy + 4) = in[g + (long)(vy + 4) * P + vx];
#else
    const long C = c0 + (long)ty * P + tx;
    SH(tx + 1, ty + 1) = in[C];
    if (ty == 0) SH(tx + 1, 0) = in[C - P];
    if (ty == MB_BY - 1) SH(tx + 1, MB_BY + 1) = in[C + P];
    if (tx == 0) SH(0, ty + 1) = in[C - 1];
    if (tx == MB_BX - 1) SH(MB_BX + 1, ty + 1) = in[C + 1];
#endif
}

/* 2D 5-point (description stencil2d): a = P. */
__kernel __attribute__((reqd_work_group_size(MB_BX, MB_BY, 1)))
void cls_mb_stencil2d(__global const float *restrict in, __global float *restrict out, int P,
                      int b, int c)
{
    __local float sh[TW * TH];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const long O = (long)P + 32;
    const long c0 = O + (long)get_group_id(1) * MB_BY * P + (long)get_group_id(0) * MB_BX;
    const long C = c0 + (long)ty * P + tx;
    (void)b;
    (void)c;
    load_tile(sh, in, c0, P, tx, ty);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[C] = 0.2f * (SH(tx + OX, ty + 1) + SH(tx + OX - 1, ty + 1) + SH(tx + OX + 1, ty + 1) +
                     SH(tx + OX, ty) + SH(tx + OX, ty + 2));
}

/* 3D 7-point marching along z (description stencil3d): a = P, b = NZ, c = PL.  The in-plane
 * neighbours come from the tile, the plane behind from a register (the previous centre), the
 * plane in front from one global read per point. */
__kernel __attribute__((reqd_work_group_size(MB_BX, MB_BY, 1)))
void cls_mb_stencil3d(__global const float *restrict in, __global float *restrict out, int P,
                      int NZ, int PL)
{
    __local float sh[TW * TH];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const long O = (long)PL + P + 32;
    long c0 = O + (long)get_group_id(1) * MB_BY * P + (long)get_group_id(0) * MB_BX;
    float behind = in[c0 - PL + (long)ty * P + tx];
    for (int k = 0; k < NZ; k++, c0 += PL) {
        const long C = c0 + (long)ty * P + tx;
        const float front = in[C + PL];
        float centre;
        load_tile(sh, in, c0, P, tx, ty);
        barrier(CLK_LOCAL_MEM_FENCE);
        centre = SH(tx + OX, ty + 1);
        out[C] = (1.0f / 7.0f) * (centre + SH(tx + OX - 1, ty + 1) + SH(tx + OX + 1, ty + 1) +
                                  SH(tx + OX, ty) + SH(tx + OX, ty + 2) + behind + front);
        behind = centre;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
