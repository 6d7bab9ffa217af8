/* family_cpu.c: rules and generic defaults of CPU devices (PoCL and other CPU runtimes). */
#include "devices.h"

/* A CPU has no local-memory banks: local memory is ordinary cached memory, so no access
 * conflicts; each group of a warp (SIMD width) costs one pass. */
static void cpu_bank_conflicts(const cls_model_params *p, const uint64_t *addrs, size_t n,
                               size_t elem_size, cls_model_banks *out)
{
    size_t group = (size_t)p->warp_width;
    (void)elem_size;
    for (size_t g = 0; g < n; g += group) {
        size_t gn = n - g < group ? n - g : group;
        int active = 0;
        for (size_t j = 0; j < gn && !active; j++) active = addrs[g + j] != CLS_MODEL_NO_ACCESS;
        if (!active) continue;
        out->groups++;
        out->passes++;
        out->degree = 1;
    }
}

/* A CPU runtime runs one work-group at a time on a core, as a loop over its work-items
 * vectorised by the SIMD width: one resident work-group per compute unit, if it fits. */
static void cpu_occupancy(const cls_model_params *p, size_t work_group_size,
                          unsigned registers_per_item, size_t local_bytes,
                          cls_model_occupancy_info *out)
{
    uint64_t warp = (uint64_t)p->warp_width;
    (void)registers_per_item;
    out->groups_per_cu = 0;
    out->warps_per_cu = 0;
    out->occupancy = 0.0;
    out->limit = CLS_LIMIT_NONE;
    if (work_group_size == 0) return;
    if ((uint64_t)work_group_size > (uint64_t)p->max_work_group) {
        out->limit = CLS_LIMIT_WORK_GROUP_SIZE;
        return;
    }
    if ((uint64_t)local_bytes > (uint64_t)p->local_bytes) {
        out->limit = CLS_LIMIT_LOCAL_MEMORY;
        return;
    }
    out->groups_per_cu = 1;
    out->warps_per_cu = (unsigned)(((uint64_t)work_group_size + warp - 1) / warp);
    out->occupancy = 1.0;
    out->limit = CLS_LIMIT_GROUPS;
}

/* The clock and compute units, which every model file must give, are the generic PoCL CPU's
 * (pocl_cpu.json, where they are marked assumed). */
static const char *const cpu_reference[] = {"pocl_cpu.json", NULL};

/* Generic defaults for a CPU: none of these numbers is in the documents.  A live device's own
 * clock, compute units and sizes replace them (cls_model_match), and `clstencil probe`
 * measures the rest. */
static void cpu_defaults(cls_model_params *p)
{
    cls__tuning_cpu(p);
    p->cores_per_cu = 1;
    p->warp_width = 8;             /* SIMD lanes of 4-byte floats (256-bit vectors) */
    p->coalesce_width = 8;
    p->cpi = 1;
    p->blocks_per_cu = 1;
    p->max_work_group = 4096;
    p->max_threads_per_cu = 4096;
    p->max_warps_per_cu = 512;
    p->registers_per_cu = 65536;   /* not used by the cpu rules */
    p->local_bytes = 65536;
    p->banks = 1;                  /* no banks */
    p->bank_width_bytes = 64;
    p->bandwidth_peak_gbs = 20;
    p->latency_cycles = 200;
    p->channels = 2;
    p->channel_width_bytes = 64;
    p->segment_bytes = 64;         /* cache line */
    p->min_segment_bytes = 64;
    p->kernel_restart_cycles = 20000;
    p->barrier_cycles_per_group = 1000;
    p->copy_engines = 0;           /* the host copies */
    p->overlap_factor = 1.0;
}

const cls_model_rules cls__family_cpu = {
    .family = "cpu",
    .summary = "CPU device: 64-byte cache lines, no banks, one work-group per core",
    .defaults = cpu_defaults,
    .reference = cpu_reference,
    .transactions = NULL, /* shared default: distinct cache lines per SIMD group */
    .bank_conflicts = cpu_bank_conflicts,
    .channel = NULL,      /* shared default */
    .occupancy = cpu_occupancy,
};
