/* probe.cl: the microbenchmarks of `clstencil probe` (bandwidth, launch, global barrier, banks). */

/* cube_ghost_transit's work-group and its aligned ghost zone (Mo & Li,
 * Sect. 4.3): a 32x6 tile, one row above and below, 8 floats (32 bytes) left and right, so the
 * loaded tile is 48x8 = 384 floats, exactly two per work-item (Listing 3). */
#ifndef CLS_GX
#define CLS_GX 32
#endif
#ifndef CLS_GY
#define CLS_GY 6
#endif
#define CLS_GHOST_X 8
#define CLS_TILE_W (CLS_GX + 2 * CLS_GHOST_X)
#define CLS_TILE_H (CLS_GY + 2)
#if CLS_TILE_W * CLS_TILE_H != 2 * CLS_GX * CLS_GY
#error "the ghost-zone mapping of Listing 3 needs a loaded tile of exactly two floats per work-item"
#endif

/* Words of local memory the stride sweep reads (a power of two, larger than 32 lanes x 64). */
#ifndef CLS_BANK_WORDS
#define CLS_BANK_WORDS 4096
#endif

/* Mo & Li, Listing 4, cube_transit: every work-item of an nx x ny NDRange walks its column along z
 * and copies it, 8 bytes of traffic per float point and no ghost zone (Sect. 6.1, Eq. 3).
 * CLS_PLANE_BARRIER (set for CPU devices) adds a barrier after each plane: it exchanges no
 * data, but makes a CPU runtime, which otherwise runs each work-item's whole k-loop before the
 * next work-item, step through the planes with the whole work-group, as the 2.5D blocking the
 * k-loop stands for ("represents the loading and writing of 2.5D-blocking", Sect. 6.1). */
__kernel void cls_cube_transit(__global const float *restrict source,
                               __global float *restrict target, int nx, int ny, int nz)
{
    const size_t plane = (size_t)nx * (size_t)ny;
    size_t i = get_global_id(0) + get_global_id(1) * (size_t)nx;
    for (int k = 0; k < nz; k++, i += plane) {
        target[i] = source[i];
#ifdef CLS_PLANE_BARRIER
        barrier(CLK_GLOBAL_MEM_FENCE);
#endif
    }
}

/* Mo & Li, Listing 5, cube_ghost_transit, with the index mapping of Listing 3: the 32x6 work-items
 * load a 48x8 tile (two rows of 48 each, no divergent ghost-zone branches) into local memory
 * and write back their own 32x6 points: 12 bytes of traffic per point (Sect. 6.2).
 * `in` starts `pad` floats before the cube so that the ghost reads of the edge tiles stay inside
 * the buffer (pad >= nx + 8; the values read there do not matter to a bandwidth test). */
__kernel __attribute__((reqd_work_group_size(CLS_GX, CLS_GY, 1)))
void cls_cube_ghost_transit(__global const float *restrict in, __global float *restrict out,
                            int nx, int ny, int nz, int pad)
{
    __local float sh_m[CLS_TILE_W * CLS_TILE_H];
    const long plane = (long)nx * (long)ny;
    const int index = (int)(get_local_id(1) * CLS_GX + get_local_id(0));
    const int tile_y1 = index / CLS_TILE_W;
    const int tile_y2 = tile_y1 + CLS_TILE_H / 2;
    const int tile_x = index % CLS_TILE_W;
    const long ix = (long)get_group_id(0) * CLS_GX + tile_x - CLS_GHOST_X;
    const long iy1 = (long)get_group_id(1) * CLS_GY + tile_y1 - 1;
    const long iy2 = (long)get_group_id(1) * CLS_GY + tile_y2 - 1;
    long i1 = pad + ix + iy1 * nx;
    long i2 = pad + ix + iy2 * nx;
    const int own = (int)(get_local_id(0) + CLS_GHOST_X + (get_local_id(1) + 1) * CLS_TILE_W);
    out += get_global_id(0) + get_global_id(1) * (size_t)nx;
    for (int k = 0; k < nz; k++) {
        sh_m[tile_x + tile_y1 * CLS_TILE_W] = in[i1];
        sh_m[tile_x + tile_y2 * CLS_TILE_W] = in[i2];
        i1 += plane;
        i2 += plane;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[0] = sh_m[own];
        out += plane;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* An empty kernel: its launches measure the kernel restart of Meng & Skadron 2010,
 * Sect. 4.4 (Eq. 17: "restarting a kernel function with 240 empty thread blocks"). */
__kernel void cls_empty(__global int *unused)
{
}

/* The in-kernel global barrier of Meng & Skadron 2010, Sect. 4.5: at the end of each stage the
 * work-group synchronises its work-items, its first work-item commits with a memory fence,
 * atomically increments the stage's own counter and spins until every work-group has arrived.  Only
 * launched with all work-groups co-resident (at most one per compute unit).  The spin is bounded:
 * a work-group that waits spin_limit polls sets *abort_flag and every work-group leaves, so a
 * runtime that does not run the groups concurrently ends the kernel instead of hanging. */
__kernel void cls_global_barrier(__global volatile int *counters,
                                 __global volatile int *abort_flag, int groups, int stages,
                                 int spin_limit)
{
    __local int stop;
    for (int s = 0; s < stages; s++) {
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) {
            int spins = 0, give_up = 0;
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_inc(&counters[s]);
            while (atomic_add(&counters[s], 0) < groups) {
                if (++spins >= spin_limit) {
                    atomic_xchg(abort_flag, 1);
                    give_up = 1;
                    break;
                }
                if ((spins & 1023) == 0 && atomic_add(abort_flag, 0) != 0) {
                    give_up = 1;
                    break;
                }
            }
            stop = give_up;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (stop) return;
    }
}

/* Local-memory stride sweep (Kim & Shrivastava, Sect. 5.5): work-item l reads the word
 * l * stride, shifted each iteration by 64 words so that every lane keeps its bank; with B banks
 * of 4 bytes a warp's access is min(stride, B)-way serialised for power-of-two strides and
 * conflict-free for odd ones. */
__kernel void cls_local_stride(__global float *out, int stride, int iters)
{
    __local float buf[CLS_BANK_WORDS];
    const int lid = (int)get_local_id(0);
    const int lsize = (int)get_local_size(0);
    for (int i = lid; i < CLS_BANK_WORDS; i += lsize) buf[i] = (float)(i & 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    int idx = (lid % 32) * stride;
    float acc = 0.0f;
    for (int it = 0; it < iters; it++) {
        acc += buf[idx & (CLS_BANK_WORDS - 1)];
        idx += 64;
    }
    out[get_global_id(0)] = acc;
}
