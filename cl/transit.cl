/* transit.cl: the bandwidth benchmarks of Mo & Li, Sect. 6.1-6.2 for any tile
 * shape and precision (`clstencil bench transit`; cl/probe.cl has the fixed 32x6 float pair that
 * `clstencil probe` measures).  CLS_GX x CLS_GY work-groups; CLS_GHOST words (one 32-byte segment)
 * left and right of the tile, one row above and below. */
#ifdef CLS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif
#ifndef CLS_GX
#define CLS_GX 32
#endif
#ifndef CLS_GY
#define CLS_GY 6
#endif
#ifndef CLS_GHOST
#define CLS_GHOST 8
#endif
#define CLS_TILE_W (CLS_GX + 2 * CLS_GHOST)
#define CLS_TILE_H (CLS_GY + 2)
#define CLS_ITEMS (CLS_GX * CLS_GY)
#define CLS_NLOAD ((CLS_TILE_W * CLS_TILE_H + CLS_ITEMS - 1) / CLS_ITEMS)

/* Listing 4, cube_transit: every work-item copies its column along z; one read and one write per
 * point (Sect. 6.1).  CLS_PLANE_BARRIER (CPUs) makes the work-group step through the planes
 * together, as 2.5D blocking does, instead of one work-item's whole column after another. */
__kernel void cls_cube_transit(__global const real *restrict source,
                               __global real *restrict target, int nx, int ny, int nz)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int ok = x < nx && y < ny;
    const long plane = (long)nx * (long)ny;
    long i = x + (long)y * nx;
    for (int k = 0; k < nz; k++, i += plane) {
        if (ok) target[i] = source[i];
#ifdef CLS_PLANE_BARRIER
        barrier(CLK_GLOBAL_MEM_FENCE);
#endif
    }
}

/* Listing 5, cube_ghost_transit, with Listing 3's mapping: the work-items number the loaded
 * tile (CLS_TILE_W x CLS_TILE_H words) row-major and load CLS_NLOAD words each without
 * conditions (but for a last partial round), then write their own point from local memory.
 * `in` starts `pad` elements before the cube and has room after it, so that the ghost reads of
 * the edge tiles stay inside the buffer; their values do not matter to a bandwidth test. */
__kernel __attribute__((reqd_work_group_size(CLS_GX, CLS_GY, 1)))
void cls_cube_ghost_transit(__global const real *restrict in, __global real *restrict out,
                            int nx, int ny, int nz, int pad)
{
    __local real sh_m[CLS_TILE_W * CLS_TILE_H];
    const long plane = (long)nx * (long)ny;
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int index = ly * CLS_GX + lx;
    const int x = get_global_id(0), y = get_global_id(1);
    const int ok = x < nx && y < ny;
    int t[CLS_NLOAD];
    long i[CLS_NLOAD];
    for (int r = 0; r < CLS_NLOAD; r++) {
        t[r] = index + r * CLS_ITEMS;
        const int tile_x = t[r] % CLS_TILE_W, tile_y = t[r] / CLS_TILE_W;
        const long ix = (long)get_group_id(0) * CLS_GX + tile_x - CLS_GHOST;
        const long iy = (long)get_group_id(1) * CLS_GY + tile_y - 1;
        i[r] = pad + ix + iy * nx;
    }
    const int own = lx + CLS_GHOST + (ly + 1) * CLS_TILE_W;
    long o = x + (long)y * nx;
    for (int k = 0; k < nz; k++) {
        for (int r = 0; r < CLS_NLOAD; r++) {
            if (r + 1 < CLS_NLOAD || t[r] < CLS_TILE_W * CLS_TILE_H) sh_m[t[r]] = in[i[r]];
            i[r] += plane;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (ok) out[o] = sh_m[own];
        o += plane;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
