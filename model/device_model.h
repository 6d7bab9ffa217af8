/* device_model.h: the device-model interface: parameters (data) and family rules (plug-ins). */
#ifndef CLS_DEVICE_MODEL_H
#define CLS_DEVICE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "clstencil_model.h"

/* ------------------------------------------------------------------------------------------
 * Parameters.  One X-macro list is the single description of every scalar field: the C member,
 * its place in the JSON schema ($.section.key), its kind, unit, range and flags.  The struct,
 * the JSON loader and writer, the accessors and doc/devices.md all follow this list.
 *
 *   X(member, section, key, kind, unit, lo, hi, flags, summary)
 *
 * kind   CLS__INT (stored as int64_t, must be integral) or CLS__REAL (double)
 * lo, hi the accepted range; lo is exclusive when flags has CLS__GT0, inclusive otherwise
 * flags  CLS__REQ   required in every file
 *        CLS__UNK   may be absent: then 0, meaning "unknown" (no family default is invented)
 *        CLS__GT0   strictly greater than lo (lo is 0)
 *        CLS__POW2  a power of two
 * A field that is neither CLS__REQ nor CLS__UNK takes the family's default when absent (from
 * the family's code or its reference file: devices/defaults.c), and the loaded model marks it
 * "assumed".
 * ---------------------------------------------------------------------------------------- */
#define CLS__REQ 1u
#define CLS__UNK 2u
#define CLS__GT0 4u
#define CLS__POW2 8u

#define CLS_MODEL_SCALARS(X)                                                                   \
    X(clock_mhz, "compute", "clock_mhz", CLS__REAL, "MHz", 0, 1e5, CLS__REQ | CLS__GT0,       \
      "core clock rate")                                                                       \
    X(compute_units, "compute", "compute_units", CLS__INT, "count", 1, 1e6, CLS__REQ,           \
      "compute units (streaming multiprocessors, CPU cores)")                                  \
    X(cores_per_cu, "compute", "cores_per_cu", CLS__INT, "count", 1, 65536, 0,                \
      "scalar lanes per compute unit (SPs, CUDA cores, SIMD lanes)")                           \
    X(warp_width, "compute", "warp_width", CLS__INT, "work-items", 1, 1024, 0,                  \
      "warp or SIMD width: work-items issued together")                                        \
    X(coalesce_width, "compute", "coalesce_width", CLS__INT, "work-items", 1, 1024, 0,         \
      "work-items whose global accesses combine into transactions (half-warp on GT200)")      \
    X(cpi, "compute", "cpi", CLS__REAL, "cycles", 0, 1e4, CLS__GT0,                            \
      "average cycles per warp instruction on one compute unit")                               \
    X(blocks_per_cu, "compute", "blocks_per_cu", CLS__INT, "work-groups", 1, 4096, 0,          \
      "most work-groups resident on one compute unit")                                         \
    X(max_work_group, "compute", "max_work_group", CLS__INT, "work-items", 1, 16777216, 0,     \
      "largest work-group")                                                                    \
    X(max_threads_per_cu, "compute", "max_threads_per_cu", CLS__INT, "work-items", 1,          \
      16777216, 0, "most work-items resident on one compute unit")                             \
    X(max_warps_per_cu, "compute", "max_warps_per_cu", CLS__INT, "warps", 1, 1048576, 0,       \
      "most warps resident on one compute unit")                                               \
    X(registers_per_cu, "compute", "registers_per_cu", CLS__INT, "32-bit registers", 1,        \
      1073741824, 0, "register file of one compute unit")                                      \
    X(row_point_cycles, "compute", "row_point_cycles", CLS__REAL, "cycles", 0, 1e6, CLS__GT0,  \
      "CPU row kernel: cycles of one vector of points beyond its reads and flops (loop, "       \
      "address, store)")                                                                       \
    X(row_read_cycles, "compute", "row_read_cycles", CLS__REAL, "cycles", 0, 1e6, 0,           \
      "CPU row kernel: cycles per read of the body for one vector of points")                  \
    X(row_flop_cycles, "compute", "row_flop_cycles", CLS__REAL, "cycles", 0, 1e6, 0,           \
      "CPU row kernel: cycles per flop, comparison or select of the body for one vector of "   \
      "points")                                                                                \
    X(row_div_cycles, "compute", "row_div_cycles", CLS__REAL, "cycles", 0, 1e6, 0,             \
      "CPU row kernel: cycles per division or square root of the body for one vector of points") \
    X(row_end_read_cycles, "compute", "row_end_read_cycles", CLS__REAL, "cycles", 0, 1e6, 0,   \
      "CPU row kernel: cycles per read of a point at a row's end (computed one at a time)")     \
    X(row_start_cycles, "compute", "row_start_cycles", CLS__REAL, "cycles", 0, 1e9, 0,         \
      "CPU row kernel: cycles per run of a row (its set-up, the work-item's scheduling)")       \
    X(tile_point_cycles, "compute", "tile_point_cycles", CLS__REAL, "cycles", 0, 1e6, 0,       \
      "cputile: cycles of one vector of points, beyond its reads and flops, in the steps that "  \
      "read a tile's box in cache (row_point_cycles prices the first, which reads the grid)")   \
    X(tile_read_cycles, "compute", "tile_read_cycles", CLS__REAL, "cycles", 0, 1e6, 0,         \
      "cputile: cycles per read of the body for one vector of points in the steps that read a "  \
      "tile's box in cache")                                                                   \
    X(tile_row_cycles, "compute", "tile_row_cycles", CLS__REAL, "cycles", 0, 1e9, 0,           \
      "cputile: cycles per run of a row in the steps that read a tile's box in cache (its "      \
      "set-up and its last, partial vector)")                                                  \
    X(peak_gflops_sp, "compute", "peak_gflops_sp", CLS__REAL, "GFLOP/s", 0, 1e7,              \
      CLS__UNK | CLS__GT0, "peak single-precision rate")                                       \
    X(peak_gflops_dp, "compute", "peak_gflops_dp", CLS__REAL, "GFLOP/s", 0, 1e7,              \
      CLS__UNK | CLS__GT0, "peak double-precision rate")                                       \
    X(local_bytes, "local_memory", "bytes", CLS__INT, "bytes", 1, 1099511627776.0, 0,           \
      "local memory of one compute unit (also the most one work-group may use)")              \
    X(local_bytes_per_cu, "local_memory", "bytes_per_cu", CLS__INT, "bytes", 1,                \
      1099511627776.0, CLS__UNK,                                                               \
      "local memory shared by the work-groups resident on one compute unit (0: bytes)")       \
    X(banks, "local_memory", "banks", CLS__INT, "count", 1, 1024, 0, "local-memory banks")    \
    X(bank_width_bytes, "local_memory", "bank_width_bytes", CLS__INT, "bytes", 1, 64,          \
      CLS__POW2, "bytes per bank word; successive words go to successive banks")              \
    X(stride_slowdown_2, "local_memory", "stride_slowdown_2", CLS__REAL, "ratio", 0, 1e4,     \
      CLS__UNK | CLS__GT0, "measured time of a warp's stride-2 local access over stride 1")   \
    X(stride_slowdown_4, "local_memory", "stride_slowdown_4", CLS__REAL, "ratio", 0, 1e4,     \
      CLS__UNK | CLS__GT0, "the same at stride 4")                                            \
    X(stride_slowdown_8, "local_memory", "stride_slowdown_8", CLS__REAL, "ratio", 0, 1e4,     \
      CLS__UNK | CLS__GT0, "the same at stride 8")                                            \
    X(stride_slowdown_16, "local_memory", "stride_slowdown_16", CLS__REAL, "ratio", 0, 1e4,   \
      CLS__UNK | CLS__GT0, "the same at stride 16")                                           \
    X(stride_slowdown_32, "local_memory", "stride_slowdown_32", CLS__REAL, "ratio", 0, 1e4,   \
      CLS__UNK | CLS__GT0, "the same at stride 32")                                           \
    X(global_bytes, "memory", "global_bytes", CLS__INT, "bytes", 1, 1152921504606846976.0,     \
      CLS__UNK, "global memory size")                                                          \
    X(bandwidth_peak_gbs, "memory", "bandwidth_peak_gbs", CLS__REAL, "GB/s", 0, 1e6, CLS__GT0, \
      "peak global-memory bandwidth (10^9 bytes/s)")                                           \
    X(bandwidth_measured_gbs, "memory", "bandwidth_measured_gbs", CLS__REAL, "GB/s", 0, 1e6,    \
      CLS__UNK | CLS__GT0, "sustained copy bandwidth (cube_transit, 10^9 bytes/s)")            \
    X(bandwidth_ghost_gbs, "memory", "bandwidth_ghost_gbs", CLS__REAL, "GB/s", 0, 1e6,          \
      CLS__UNK | CLS__GT0, "bandwidth with aligned ghost-zone loads (cube_ghost_transit)")     \
    X(latency_cycles, "memory", "latency_cycles", CLS__REAL, "cycles", 0, 1e7, CLS__GT0,       \
      "uncontended round trip of one global-memory request")                                   \
    X(channels, "memory", "channels", CLS__INT, "count", 1, 4096, 0, "memory channels")        \
    X(channel_width_bytes, "memory", "channel_width_bytes", CLS__INT, "bytes", 1, 1048576,      \
      0, "interleave: successive regions of this size go to successive channels")             \
    X(channel_hash, "memory", "channel_hash", CLS__INT, "flag", 0, 1, CLS__UNK,                 \
      "1: addresses are hashed over the channels (gpu family: XOR fold), 0: linear interleave") \
    X(bandwidth_cache_gbs, "memory", "bandwidth_cache_gbs", CLS__REAL, "GB/s", 0, 1e6, 0,        \
      "copy bandwidth of a working set within cache_bytes (0: no cache level modelled)")        \
    X(cache_bytes, "memory", "cache_bytes", CLS__INT, "bytes", 0, 1099511627776.0, 0,           \
      "working set (all arrays of a step) served at bandwidth_cache_gbs (0: none)")            \
    X(stream_overlap, "memory", "stream_overlap", CLS__REAL, "ratio", 0, 1, 0,                  \
      "beyond cache_bytes: the share of the shorter of a step's compute and traffic that adds "  \
      "to the longer (0: they overlap, 1: they add)")                                          \
    X(l2_bytes, "memory", "l2_bytes", CLS__INT, "bytes", 0, 1099511627776.0, CLS__UNK,          \
      "last-level cache in front of global memory, shared by all compute units (0: none)")    \
    X(segment_bytes, "memory", "segment_bytes", CLS__INT, "bytes", 1, 4096, CLS__POW2,         \
      "coalescing granularity: largest transaction (segment, cache line or sector)")          \
    X(min_segment_bytes, "memory", "min_segment_bytes", CLS__INT, "bytes", 1, 4096, CLS__POW2, \
      "smallest transaction")                                                                  \
    X(kernel_restart_cycles, "sync", "kernel_restart_cycles", CLS__REAL, "cycles", 0, 1e12, 0,  \
      "global synchronisation by ending and relaunching a kernel")                             \
    X(barrier_cycles_per_group, "sync", "barrier_cycles_per_group", CLS__REAL, "cycles", 0,     \
      1e12, 0, "in-kernel global barrier, cost per work-group")                                \
    X(queue_wait_cycles, "sync", "queue_wait_cycles", CLS__REAL, "cycles", 0, 1e12, CLS__UNK,   \
      "a command released by an event of another queue: its start delay beyond a same-queue "  \
      "successor's")                                                                           \
    X(enqueue_cycles, "sync", "enqueue_cycles", CLS__REAL, "cycles", 0, 1e12, CLS__UNK,         \
      "host time to enqueue one command with its event on a profiling queue")                  \
    X(enqueue_plain_cycles, "sync", "enqueue_plain_cycles", CLS__REAL, "cycles", 0, 1e12,       \
      CLS__UNK, "host time to enqueue one kernel without an event")                            \
    X(flush_cycles, "sync", "flush_cycles", CLS__REAL, "cycles", 0, 1e12, CLS__UNK,             \
      "host time of one clFlush of a queue holding new commands")                              \
    X(copy_engines, "transfer", "copy_engines", CLS__INT, "count", 0, 64, 0,                   \
      "DMA copy engines (0: the host copies)")                                                 \
    X(overlap_factor, "transfer", "overlap_factor", CLS__REAL, "ratio", 0, 4, CLS__GT0,        \
      "throughput of both directions at once over one direction alone") \
    X(local_tiles, "tuning", "local_tiles", CLS__INT, "flag", 0, 1, 0, "1: staging tiles and planes in local memory pays (an on-chip store); 0: local memory is cache, schedules read through it") \
    X(row_kernel, "tuning", "row_kernel", CLS__INT, "flag", 0, 1, 0, "1: the naive schedule runs its row kernel (a vectorised run along x per work-item), 0: points along the slowest axis") \
    X(row_length, "tuning", "row_length", CLS__INT, "points", 1, 16777216, 0, "the row kernel's longest run along x in 2D and 3D") \
    X(row_length_1d, "tuning", "row_length_1d", CLS__INT, "points", 1, 16777216, 0, "... in 1D (shorter, so that every compute unit gets rows)") \
    X(row_kernel_rows, "tuning", "row_kernel_rows", CLS__INT, "rows", 1, 1024, 0, "rows each row-kernel work-item updates in 2D and 3D (fewer where the grid is small)") \
    X(row_items_per_cu, "tuning", "row_items_per_cu", CLS__INT, "work-items", 1, 1024, 0, "the row kernel keeps at least this many work-items per compute unit") \
    X(column, "tuning", "column", CLS__INT, "points", 1, 1024, 0, "naive schedule: points per work-item along the slowest axis in 2D and 3D (neighbours from registers)") \
    X(column_fp64_2d, "tuning", "column_fp64_2d", CLS__INT, "points", 1, 1024, 0, "... for 2D double precision") \
    X(column_vector_x, "tuning", "column_vector_x", CLS__INT, "points", 1, 4, 0, "naive schedule, single precision: consecutive points along x per work-item, stored as one vector (1, 2 or 4)") \
    X(column_vector_x_reads, "tuning", "column_vector_x_reads", CLS__INT, "reads", 0, 1024, 0, "... only for bodies of at most this many distinct reads (more registers per work-item cost more than the wider accesses gain)") \
    X(vector_reads_x, "tuning", "vector_reads_x", CLS__INT, "points", 1, 4, 0, "naive schedule, single precision, where aligned vector reads pay (lane-wise bodies: single fields dividing nothing that varies, systems reading their fields at several offsets): consecutive points along x per work-item, read as aligned vectors and stored as one (1, 2 or 4)") \
    X(group_items_1d, "tuning", "group_items_1d", CLS__INT, "work-items", 1, 16777216, 0, "work-items a one-point-per-item work-group aims at, 1D") \
    X(group_items_2d, "tuning", "group_items_2d", CLS__INT, "work-items", 1, 16777216, 0, "... 2D") \
    X(group_items_3d, "tuning", "group_items_3d", CLS__INT, "work-items", 1, 16777216, 0, "... 3D") \
    X(group_row_1d, "tuning", "group_row_1d", CLS__INT, "work-items", 1, 16777216, 0, "the longest row (x extent) of such a work-group, 1D") \
    X(group_row_2d, "tuning", "group_row_2d", CLS__INT, "work-items", 1, 16777216, 0, "... 2D") \
    X(group_row_3d, "tuning", "group_row_3d", CLS__INT, "work-items", 1, 16777216, 0, "... 3D") \
    X(trapezoid_group_items, "tuning", "trapezoid_group_items", CLS__INT, "work-items", 1, 16777216, 0, "work-items a trapezoid work-group aims at (points per work-item make up the rest of the tile)") \
    X(persistent_barrier, "tuning", "persistent_barrier", CLS__INT, "flag", 0, 1, 0, "1: AUTO considers the trapezoid's persistent kernel with an in-kernel barrier") \
    X(barrier_spin_limit, "tuning", "barrier_spin_limit", CLS__INT, "iterations", 0, 4294967295.0, 0, "an in-kernel barrier gives up after this many spins (0: never)") \
    X(profile_grid_bytes, "tuning", "profile_grid_bytes", CLS__INT, "bytes", 0, 1099511627776.0, 0, "the ghost-zone profile's grid (0: four times the global-memory cache, 128-512 MiB)") \
    X(profile_reps, "tuning", "profile_reps", CLS__INT, "runs", 1, 16, 0, "timed launches per profile measurement") \
    X(unroll, "tuning", "unroll", CLS__INT, "flag", 0, 1, 0, "1: kernels unroll their plane loops (the window rotates in registers)") \
    X(stream25d_prefetch, "tuning", "stream25d_prefetch", CLS__INT, "planes", 1, 4, 0, "stream25d: planes loaded ahead") \
    X(stream25d_rows, "tuning", "stream25d_rows", CLS__INT, "rows", 1, 8, 0, "stream25d, aligned loader: rows per work-item") \
    X(stream25d_rows_box_fp32, "tuning", "stream25d_rows_box_fp32", CLS__INT, "rows", 1, 8, 0, "... for single-precision bodies reading the whole in-plane box") \
    X(stream25d_box_single, "tuning", "stream25d_box_single", CLS__INT, "flag", 0, 1, 0, "AUTO streams cheap box bodies one step per pass") \
    X(stream25d_fused_gain, "tuning", "stream25d_fused_gain", CLS__REAL, "ratio", 0, 1000, 0, "AUTO fuses steps per pass where the ghost-zone model predicts at least this gain") \
    X(stream25d_fused_mirror, "tuning", "stream25d_fused_mirror", CLS__INT, "flag", 0, 1, 0, "1: AUTO fuses steps on mirror grids too") \
    X(stream25d_column, "tuning", "stream25d_column", CLS__INT, "radius", 0, 4, 0, "R > 0: AUTO offers stream25d's column window (one step per pass) for star bodies of radius max(R, 2) to 4; 0: never") \
    X(stream25d_column_rows, "tuning", "stream25d_column_rows", CLS__INT, "rows", 1, 8, 0, "stream25d's column window: rows per work-item when the caller leaves them open") \
    X(stream25d_column_prefetch, "tuning", "stream25d_column_prefetch", CLS__INT, "planes", 1, 4, 0, "stream25d's column window: planes loaded ahead when stream25d.prefetch is not given") \
    X(stream25d_2d, "tuning", "stream25d_2d", CLS__INT, "flag", 0, 1, 0, "1: AUTO offers stream25d for 2D grids (streamed along y, fused steps) where the ghost-zone model fuses; 0: only when asked for") \
    X(stream25d_system_fix_ups, "tuning", "stream25d_system_fix_ups", CLS__INT, "flag", 0, 1, 0, "AUTO fuses stream25d steps for a system on grids whose boundary needs fix-ups (clamp, mirror, constant) too; 0: periodic grids only") \
    X(stream25d_latency_rows, "tuning", "stream25d_latency_rows", CLS__INT, "rows", 0, 65536, 0, "AUTO ranks stream25d's fused 3D tiles of the ghost-zone model's k by their resident rows (warps x rows per work-item), below this many slowing in proportion; 0: by the ghost-zone model alone") \
    X(stream25d_system_gain, "tuning", "stream25d_system_gain", CLS__REAL, "ratio", 0, 1000, 0, "AUTO fuses stream25d steps for a system where the ghost-zone model predicts at least this ratio of the speed of the minimal traffic of one step per launch") \
    X(stream25d_system_gain_fp64, "tuning", "stream25d_system_gain_fp64", CLS__REAL, "ratio", 0, 1000, 0, "... for double-precision systems") \
    X(pipeline_when_fits, "tuning", "pipeline_when_fits", CLS__INT, "flag", 0, 1, 0, "1: runs from host arrays may pipeline grids that fit the device; 0: they stay resident") \
    X(cputile, "tuning", "cputile", CLS__INT, "flag", 0, 1, 0, "1: AUTO considers the cputile schedule (a work-item's loops vectorise over the compute unit's SIMD lanes); 0: it runs only when asked for") \
    X(cputile_cache_bytes, "tuning", "cputile_cache_bytes", CLS__INT, "bytes", 1, 1099511627776.0, 0, "cputile: the two scratch boxes of a work-group stay within this much of its compute unit's cache (a CPU core's L2)") \
    X(cputile_gain, "tuning", "cputile_gain", CLS__REAL, "ratio", 1, 100, 0, "cputile: AUTO takes it only where the model predicts its passes at least this much faster than passes of one step") \
    X(cputile_dims, "tuning", "cputile_dims", CLS__INT, "dimensions", 1, 3, 0, "cputile: AUTO considers it for stencils and systems of at most this many dimensions")

/* Tables: transfer and allocation times against size, X(id, section, key, summary). */
#define CLS_MODEL_TABLES(X)                                                                    \
    X(CLS_TABLE_HOST_TO_DEVICE_PINNED, "transfer", "host_to_device_pinned",                    \
      "copy from page-locked host memory to the device")                                       \
    X(CLS_TABLE_DEVICE_TO_HOST_PINNED, "transfer", "device_to_host_pinned",                    \
      "copy from the device to page-locked host memory")                                       \
    X(CLS_TABLE_HOST_TO_DEVICE_PAGEABLE, "transfer", "host_to_device_pageable",                \
      "copy from ordinary (pageable) host memory to the device")                               \
    X(CLS_TABLE_DEVICE_TO_HOST_PAGEABLE, "transfer", "device_to_host_pageable",                \
      "copy from the device to ordinary (pageable) host memory")                               \
    X(CLS_TABLE_HOST_TO_HOST, "transfer", "host_to_host",                                      \
      "copy between two page-locked host buffers")                                             \
    X(CLS_TABLE_ALLOC_HOST, "alloc", "host", "allocate and free one host buffer")              \
    X(CLS_TABLE_ALLOC_DEVICE, "alloc", "device", "allocate and free one device buffer")        \
    X(CLS_TABLE_HOST_TO_DEVICE_QUEUED, "transfer", "host_to_device_queued",                    \
      "copy from page-locked host memory queued behind another (marginal time in a stream)")  \
    X(CLS_TABLE_DEVICE_TO_HOST_QUEUED, "transfer", "device_to_host_queued",                    \
      "copy to page-locked host memory queued behind another (marginal time in a stream)")  \
    X(CLS_TABLE_PAIR_QUEUED, "transfer", "pair_queued",                                        \
      "one queued copy each way on two queues, both sizes the same (marginal time of a pair)")

#define CLS__CTYPE_CLS__INT int64_t
#define CLS__CTYPE_CLS__REAL double
#define CLS__CTYPE(kind) CLS__CTYPE_##kind

typedef enum cls__field_id {
#define CLS__X(member, sec, key, kind, unit, lo, hi, flags, summary) CLS__F_##member,
    CLS_MODEL_SCALARS(CLS__X)
#undef CLS__X
    CLS__NFIELDS
} cls__field_id;

/* One row of a transfer or allocation table (the public cls_model_point). */
typedef struct cls__table {
    cls_model_point *pts; /* ascending bytes; NULL when n == 0 (unknown) */
    size_t n;
} cls__table;

/* The parameters of one device, every scalar filled (from the file, the device or the family
 * defaults) except CLS__UNK fields, which are 0 when unknown. */
typedef struct cls_model_params {
#define CLS__X(member, sec, key, kind, unit, lo, hi, flags, summary) CLS__CTYPE(kind) member;
    CLS_MODEL_SCALARS(CLS__X)
#undef CLS__X
    cls__table tables[CLS_TABLE_COUNT];
} cls_model_params;

/* Descriptor of one scalar field (model/params.c). */
typedef struct cls__field {
    const char *section;
    const char *key;
    const char *path;     /* "compute.clock_mhz" */
    int is_int;
    const char *unit;
    double lo, hi;
    unsigned flags;
    const char *summary;
    size_t offset;        /* into cls_model_params */
} cls__field;

extern const cls__field cls__fields[CLS__NFIELDS];

/* Descriptor of one table. */
typedef struct cls__table_desc {
    const char *section;
    const char *key;
    const char *path;    /* "transfer.host_to_device_pinned" */
    const char *summary;
} cls__table_desc;

extern const cls__table_desc cls__tables[CLS_TABLE_COUNT];

/* Index of a scalar field by "section.key" (a leading "$." accepted), -1 if none
 * (model/params.c). */
int cls__field_find(const char *key);
/* Index of a scalar field / table by section and key, -1 if none. */
int cls__field_find2(const char *section, const char *key);
int cls__table_find2(const char *section, const char *key);
/* Field i of a parameter set, as a double. */
double cls__field_get(const cls_model_params *p, int i);
void cls__field_put(cls_model_params *p, int i, double v);

/* ------------------------------------------------------------------------------------------
 * Rules: the interface an architecture family implements, one struct of function pointers per
 * family.  model/ declares it and calls only through it (model/rules.c, the dispatch below);
 * the families that fill it live in devices/.  Every rule is pure: it reads the parameters and
 * its arguments and never fails (the public wrappers check the arguments first: elem_size is
 * 1, 2, 4, 8 or 16, every active address is a multiple of it, n is at most 4096).
 * Addresses equal to CLS_MODEL_NO_ACCESS are inactive work-items (divergence, ghost lanes).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_model_rules {
    /* Family name as written in JSON ("gt200"). */
    const char *family;
    /* One line for listings. */
    const char *summary;

    /* Sets the family's own defaults: the values its reference files do not give, or give
     * otherwise than the family has them; leaves every other field of *p as it is.  Required.
     * devices/defaults.c lays the reference files' values under these (cls__family_defaults). */
    void (*defaults)(cls_model_params *p);

    /* Shipped model files (devices/, built into the library) whose values are the family's
     * defaults wherever `defaults` sets none, the first file that gives a field winning (gt200:
     * the GTX 280's file, then the C1060's).  NULL-terminated; NULL when the family has none. */
    const char *const *reference;

    /* Memory transactions made by the global accesses of consecutive work-items: addrs[i] is
     * the byte address of work-item i (one warp, or any run of them), each access elem_size
     * bytes.  Adds count, bytes moved and bytes requested to *out (which the caller zeroes).
     * May be NULL: the shared default splits the work-items into groups of coalesce_width and
     * counts the distinct aligned blocks of segment_bytes each group touches (Fermi L1 lines,
     * sectors of later GPUs, CPU cache lines). */
    void (*transactions)(const cls_model_params *p, const uint64_t *addrs, size_t n,
                         size_t elem_size, cls_model_txn *out);

    /* Local-memory bank conflicts of one access by consecutive work-items: addrs[i] is the
     * byte address of work-item i in local memory.  Fills *out.  May be NULL: the shared
     * default takes groups of one full warp over `banks` banks of bank_width_bytes, and a
     * group needs as many passes as the most distinct words any one bank holds (the same word
     * read by many work-items is broadcast). */
    void (*bank_conflicts)(const cls_model_params *p, const uint64_t *addrs, size_t n,
                           size_t elem_size, cls_model_banks *out);

    /* Memory channel of a global byte address.  May be NULL: the shared default maps successive
     * channel_width_bytes regions to successive channels (Kim & Shrivastava, Sect. 5.4). */
    unsigned (*channel)(const cls_model_params *p, uint64_t addr);

    /* Resident work-groups and warps per compute unit for a kernel using work_group_size
     * work-items, registers_per_item 32-bit registers each (0: unknown, not limiting) and
     * local_bytes of local memory per work-group.  Fills *out; groups_per_cu is 0 when the
     * work-group cannot run at all (out->limit says why).  May be NULL: the shared default
     * takes the least of the work-group, warp, register and local-memory limits. */
    void (*occupancy)(const cls_model_params *p, size_t work_group_size,
                      unsigned registers_per_item, size_t local_bytes,
                      cls_model_occupancy_info *out);

    /* Eq. 2's n_shm_load as the family's warps experience it: of n_loads independent fetch
     * instructions a warp issues per buffer fill, how many count towards hiding latency.  May
     * be NULL: all of them (Kim & Shrivastava, Sect. 5.2, a GT200 warp overlaps its own loads). */
    double (*latency_loads)(const cls_model_params *p, double n_loads);

    /* 1 when an on-chip cache serves a work-group's repeated global reads, so that Eq. 1 counts
     * that cache as a buffer the hardware fills (model/cumapz.c); 0 when every global read goes
     * to memory.  May be NULL: 0 (GT200, and Fermi as the documents use it). */
    int (*global_reads_cached)(const cls_model_params *p);

    /* Eq. 6's cost, in conflict-free passes, of one group's access with a degree-way bank
     * conflict.  May be NULL: degree (Kim & Shrivastava, Sect. 5.5, "the accesses are serialized K
     * times"). */
    double (*conflict_passes)(const cls_model_params *p, double degree);

    /* Work-groups, counted in launch order, whose global loads share a cache in front of
     * memory (an L2): an element one of them loaded is not loaded from memory again by the
     * next ones (Eq. 1's bytes_buffered, model/cumapz.c).  groups_per_cu: the kernel's resident
     * work-groups per compute unit.  May be NULL, or return 0: no such cache. */
    uint64_t (*cache_window)(const cls_model_params *p, unsigned groups_per_cu);
} cls_model_rules;

/* The two rules above with their defaults, for the analysis (model/cumapz.c). */
static inline double cls__rule_conflict_passes(const cls_model *m, double degree);
static inline uint64_t cls__rule_cache_window(const cls_model *m, unsigned groups_per_cu);

/* A loaded model (the public opaque cls_model). */
#define CLS__MODEL_NAME_MAX 128
#define CLS__MODEL_TEXT_MAX 1024
#define CLS__MODEL_MAX_MATCH 64

typedef struct cls__model_device {
    char *name;
    char *vendor;
    char *driver_version;
    char *platform;
} cls__model_device;

struct cls_model {
    char *name;
    char *description;
    char *source;
    char *origin;                 /* file it came from, or "defaults" */
    char **match;                 /* device-name patterns */
    size_t n_match;
    cls__model_device device;     /* the live device a probe measured (all NULL otherwise) */
    const cls_model_rules *rules;
    cls_model_params p;
    unsigned char assumed[CLS__NFIELDS]; /* 1: generic default or assumption, not measured or
                                            taken from a document */
};

static inline double cls__rule_conflict_passes(const cls_model *m, double degree)
{
    return m->rules->conflict_passes ? m->rules->conflict_passes(&m->p, degree) : degree;
}

static inline uint64_t cls__rule_cache_window(const cls_model *m, unsigned groups_per_cu)
{
    return m->rules->cache_window ? m->rules->cache_window(&m->p, groups_per_cu) : 0;
}

/* ------------------------------------------------------------------------------------------
 * Dispatch (model/device_model.c): the family's rule, else the shared default.  These are what
 * the model formulas call; they add nothing for n == 0 or elem_size 0 and report no resident
 * group for a work-group size of 0.
 * ---------------------------------------------------------------------------------------- */
void cls__model_transactions(const cls_model *m, const uint64_t *addrs, size_t n,
                             size_t elem_size, cls_model_txn *out);
void cls__model_bank_conflicts(const cls_model *m, const uint64_t *addrs, size_t n,
                               size_t elem_size, cls_model_banks *out);
unsigned cls__model_channel(const cls_model *m, uint64_t addr);
void cls__model_occupancy(const cls_model *m, size_t work_group_size,
                          unsigned registers_per_item, size_t local_bytes,
                          cls_model_occupancy_info *out);

/* Shared building blocks the families reuse. */
/* Counts distinct aligned `block`-byte blocks touched per group of `group` work-items. */
void cls__txn_distinct_blocks(const uint64_t *addrs, size_t n, size_t elem_size, size_t group,
                              uint64_t block, cls_model_txn *out);
/* Bank conflicts per group of `group` work-items over p->banks banks of p->bank_width_bytes. */
void cls__banks_grouped(const cls_model_params *p, const uint64_t *addrs, size_t n,
                        size_t elem_size, size_t group, cls_model_banks *out);
void cls__occupancy_default(const cls_model_params *p, size_t work_group_size,
                            unsigned registers_per_item, size_t local_bytes,
                            cls_model_occupancy_info *out);
unsigned cls__channel_default(const cls_model_params *p, uint64_t addr);

#endif /* CLS_DEVICE_MODEL_H */
