/* tuning.c: the family defaults of the device model's tuning section (doc/devices.md,
 * "Tuning"): the thresholds and preferred shapes the schedules consult, for GPUs and for CPUs,
 * and the costs of the CPU row kernel that price the schedules built on it.  A parameter file
 * or a probe may override any of them. */
#include "devices.h"

void cls__tuning_gpu(cls_model_params *p)
{
    p->local_tiles = 1;
    p->row_kernel = 0;
    p->row_length = 16384;
    p->row_length_1d = 4096;
    p->row_kernel_rows = 1;
    p->row_items_per_cu = 4;
    /* a column of 4 points per work-item lets the neighbours along the slowest axis come from
     * registers and L1 (H100: heat3d7 512^3 float 230 -> 303 GPoints/s, poisson2d 8192^2
     * 216 -> 254); 2D double peaks at 1-2 (doc/benchmarks.md, naive sweep) */
    p->column = 4;
    p->column_fp64_2d = 2;
    /* two points along x per work-item in single precision: accesses of 8 bytes, as double
     * precision's, which already streams near the copy; bodies of many reads lose to the
     * registers two points take (H200: heat3d7 1.11x, jacobi3d 1.26x, hotspot 1.20x,
     * heat3d27 0.64x; doc/results.md "NVIDIA H200") */
    p->column_vector_x = 2;
    p->column_vector_x_reads = 8;
    /* two points along x read as aligned vectors where that pays (lib/schedules/naive/plan.c;
     * H100, 512^3 and 8192^2: wave2d 212 -> 247 GPoints/s, gray_scott 166 -> 179,
     * acoustic3d_r4 160 -> 194, wave3d 219 -> 237, heat3d27 196 -> 270; four points lost for
     * most; doc/results.md, "Aligned vector reads") */
    p->vector_reads_x = 2;
    /* a few warps per group, rows of whole coalesced segments; 3D grids do best with 64x2
     * groups, 2D with 128x2 (H100 sweep in doc/benchmarks.md) */
    p->group_items_1d = 256;
    p->group_items_2d = 256;
    p->group_items_3d = 128;
    p->group_row_1d = 256;
    p->group_row_2d = 128;
    p->group_row_3d = 64;
    p->trapezoid_group_items = 256;
    p->persistent_barrier = 1;
    p->barrier_spin_limit = 0;
    p->profile_grid_bytes = 0;
    p->profile_reps = 7;
    p->unroll = 1;
    /* two planes ahead, 2 rows per work-item for a cross in the plane, 4 for the whole box in
     * single precision (H100, doc/stream25d.md) */
    p->stream25d_prefetch = 2;
    p->stream25d_rows = 2;
    p->stream25d_rows_box_fp32 = 4;
    /* AUTO's stream25d rule (doc/stream25d.md, "AUTO's rule") */
    p->stream25d_box_single = 1;
    p->stream25d_fused_gain = 1.2;
    p->stream25d_fused_mirror = 0;
    /* the column window for stars of radius 2-4: offered once measured on the device */
    p->stream25d_column = 0;
    p->stream25d_column_rows = 1;
    p->stream25d_column_prefetch = 1;
    /* 2D grids streamed along y: offered once measured on the device (doc/stream25d.md) */
    p->stream25d_2d = 0;
    /* fused steps of a system (wave3d) against the naive schedule's traffic bound: the
     * ghost-zone model's ratio understates the gain (H100 heat3d7 512^3: 1.05x predicted, 1.55x
     * measured), so 0.85 stands for about 1.25x measured (doc/stream25d.md) */
    /* a system's fused steps on grids with boundary fix-ups: offered once measured on the
     * device (the H100 model has 1: wave3d 512^3 clamp 1.08x naive under AUTO, gray_scott and
     * wave2d 8192^2 2.5x and 2.9x; doc/results.md) */
    p->stream25d_system_fix_ups = 0;
    p->stream25d_system_gain = 0.85;
    p->stream25d_system_gain_fp64 = 0.85;
    /* fused 3D tiles ranked by resident rows: set per device after measuring (the H100 model
     * has 64; doc/results.md, "Resident warps and the fused 3D tiles") */
    p->stream25d_latency_rows = 0;
    p->pipeline_when_fits = 1;
    /* a work-item is one lane of a GPU: its tile loops do not vectorise there */
    p->cputile = 0;
    p->cputile_cache_bytes = 262144;
    p->cputile_gain = 1.15;
    p->cputile_dims = 3;
    /* no GPU schedule runs the row kernel or reads through a CPU's cache levels */
    p->row_point_cycles = 1;
    p->row_read_cycles = 1;
    p->row_flop_cycles = 1;
    p->row_div_cycles = 1;
    p->row_end_read_cycles = 1;
    p->row_start_cycles = 0;
    p->tile_point_cycles = 1;
    p->tile_read_cycles = 1;
    p->tile_row_cycles = 0;
    p->bandwidth_cache_gbs = 0;
    p->cache_bytes = 0;
    p->stream_overlap = 0;
}

void cls__tuning_cpu(cls_model_params *p)
{
    /* local memory is a copy in cache: schedules read through the caches instead */
    p->local_tiles = 0;
    /* a vectorised run along x per work-item, 8 rows each, so that the kernel's own row loop
     * replaces the runtime's work-item loop (PoCL, callgrind: doc/results.md) */
    p->row_kernel = 1;
    p->row_length = 16384;
    p->row_length_1d = 4096;
    p->row_kernel_rows = 8;
    p->row_items_per_cu = 4;
    p->column = 1;
    p->column_fp64_2d = 1;
    p->column_vector_x = 1;
    p->column_vector_x_reads = 0;
    p->vector_reads_x = 1;
    /* a work-group is one vectorised loop nest: long rows, few groups */
    p->group_items_1d = 1024;
    p->group_items_2d = 1024;
    p->group_items_3d = 1024;
    p->group_row_1d = 1024;
    p->group_row_2d = 1024;
    p->group_row_3d = 1024;
    p->trapezoid_group_items = 256;
    /* the persistent barrier spins the runtime's work-group threads against each other
     * (poisson2d 16x16: predicted 9.4 us a step, measured 186 us; doc/ghost-zones.md) */
    p->persistent_barrier = 0;
    p->barrier_spin_limit = 1u << 30;
    p->profile_grid_bytes = 8u << 20;
    p->profile_reps = 3;
    p->unroll = 0;
    p->stream25d_prefetch = 1;
    p->stream25d_rows = 1;
    p->stream25d_rows_box_fp32 = 1;
    p->stream25d_box_single = 0;
    p->stream25d_fused_gain = 1.2;
    p->stream25d_fused_mirror = 0;
    /* the column window for stars of radius 2-4: offered once measured on the device */
    p->stream25d_column = 0;
    p->stream25d_column_rows = 1;
    p->stream25d_column_prefetch = 1;
    /* 2D grids streamed along y: offered once measured on the device (doc/stream25d.md) */
    p->stream25d_2d = 0;
    /* a system's fused steps on grids with boundary fix-ups ran at 0.88-1.11x naive on the
     * H100 (wave3d 512^3 clamp), periodic ones at 1.37x (doc/results.md) */
    p->stream25d_system_fix_ups = 0;
    p->stream25d_system_gain = 0.85;
    p->stream25d_system_gain_fp64 = 0.85;
    /* CPUs fuse stream25d steps only when asked (tuning.local_tiles 0) */
    p->stream25d_latency_rows = 0;
    /* the tile kernel runs far slower than the row kernel, and host and device share the
     * memory anyway (PoCL hotspot 2048^2: 14.7 against 1.95 ms per step) */
    p->pipeline_when_fits = 0;
    /* tiles in a core's cache across steps (cl/cputile.cl): half of a 2 MiB L2 for the two
     * boxes leaves room for the grid's streams.  AUTO takes it where its passes are predicted
     * 1.15x faster than one-step passes, which are what naive runs: on the shared PoCL host the
     * model's times were 1-41 % off (doc/results.md, "cputile picked on PoCL"), and the margin
     * keeps near ties (heat3d7) on naive. */
    p->cputile = 1;
    p->cputile_cache_bytes = 1048576;
    p->cputile_gain = 1.15;
    /* 3D tiles lose a margin on six faces per step: on the AMD host every 3D system ran slower
     * on cputile than on naive (wave3d 128^3 3.3 against 3.5 GPoints/s, fdtd3d 160^3 0.58
     * against 0.67 at the best tile, acoustic3d_r4 1.0 against 1.8) and heat3d7 160^3 4.3
     * against 4.5, while the unprobed model priced wave3d's tiles faster (doc/results.md,
     * "cputile for systems on PoCL") */
    p->cputile_dims = 2;
    /* The row kernel's costs per vector of points on an unprobed CPU: a load and an add each
     * take about a cycle of a core's vector units, a division several, the loop and the store
     * a few, a run's set-up and the runtime's scheduling of its work-item a few hundred.  `clstencil probe`
     * fits them on the device (doc/devices.md, "The CPU row kernel"). */
    p->row_point_cycles = 4;
    p->row_read_cycles = 1;
    p->row_flop_cycles = 0.5;
    p->row_div_cycles = 4;
    p->row_end_read_cycles = 0.25;
    p->row_start_cycles = 300;
    /* cputile's steps after the first read a box in the core's own cache at constant offsets */
    p->tile_point_cycles = 2;
    p->tile_read_cycles = 1;
    p->tile_row_cycles = 16;
    /* a last-level cache of 8 MiB at four times the memory's bandwidth */
    p->bandwidth_cache_gbs = 80;
    p->cache_bytes = 8u << 20;
    /* beyond the cache half of the shorter side shows */
    p->stream_overlap = 0.5;
}
