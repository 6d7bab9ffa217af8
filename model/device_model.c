/* device_model.c: dispatch of the architecture rules, with the shared defaults families reuse. */
#include "device_model.h"

/* Work-items are processed in groups of at most this many (the largest warp_width or
 * coalesce_width a model may have). */
#define CLS__MAX_GROUP 1024u

/* Blocks [lo, hi] of `block` bytes that one access of elem_size bytes at addr touches. */
static void block_range(uint64_t addr, size_t elem_size, uint64_t block, uint64_t *lo,
                        uint64_t *hi)
{
    *lo = addr / block;
    *hi = (addr + (elem_size - 1)) / block;
}

/* Whether block b is touched by an active access among addrs[0..j). */
static int block_seen(const uint64_t *addrs, size_t j, size_t elem_size, uint64_t block,
                      uint64_t b)
{
    for (size_t i = 0; i < j; i++) {
        uint64_t lo, hi;
        if (addrs[i] == CLS_MODEL_NO_ACCESS) continue;
        block_range(addrs[i], elem_size, block, &lo, &hi);
        if (b >= lo && b <= hi) return 1;
    }
    return 0;
}

/* Shared default of the transactions rule: each group of `group` consecutive work-items costs one
 * transaction per distinct aligned block it touches.  This is the Fermi rule (a warp's request is
 * served by 128-byte L1 lines: Mo & Li, Sect. 5, "one 128-byte access on ... Compute Capability
 * 2.0"; Kim & Shrivastava, Sect. 5.3 footnote 4, "cache line maps to 128-byte aligned segment"),
 * and the same counting with 32-byte sectors or 64-byte cache lines on later GPUs and CPUs. */
void cls__txn_distinct_blocks(const uint64_t *addrs, size_t n, size_t elem_size, size_t group,
                              uint64_t block, cls_model_txn *out)
{
    if (group == 0) group = 1;
    for (size_t g = 0; g < n; g += group) {
        const uint64_t *ga = addrs + g;
        size_t gn = n - g < group ? n - g : group;
        for (size_t j = 0; j < gn; j++) {
            uint64_t lo, hi;
            if (ga[j] == CLS_MODEL_NO_ACCESS) continue;
            out->requested += elem_size;
            block_range(ga[j], elem_size, block, &lo, &hi);
            for (uint64_t b = lo; b <= hi; b++) {
                if (block_seen(ga, j, elem_size, block, b)) continue;
                out->count++;
                out->bytes += block;
            }
        }
    }
}

/* Bank conflicts per group (Kim & Shrivastava, Sect. 5.5): successive bank-width words
 * go to successive banks; "when threads in a half warp access K different addresses within
 * one bank, the accesses are serialized K times".  A group's degree is the largest number of
 * distinct words in one bank; the same word read by several work-items counts once. */
void cls__banks_grouped(const cls_model_params *p, const uint64_t *addrs, size_t n,
                        size_t elem_size, size_t group, cls_model_banks *out)
{
    unsigned count[1024];
    uint64_t width = (uint64_t)p->bank_width_bytes;
    uint64_t nbanks = (uint64_t)p->banks;
    if (group == 0) group = 1;
    if (nbanks > 1024) nbanks = 1024;
    for (size_t g = 0; g < n; g += group) {
        const uint64_t *ga = addrs + g;
        size_t gn = n - g < group ? n - g : group;
        unsigned degree = 0;
        for (uint64_t b = 0; b < nbanks; b++) count[b] = 0;
        for (size_t j = 0; j < gn; j++) {
            uint64_t lo, hi;
            if (ga[j] == CLS_MODEL_NO_ACCESS) continue;
            block_range(ga[j], elem_size, width, &lo, &hi);
            for (uint64_t w = lo; w <= hi; w++) {
                unsigned *c;
                if (block_seen(ga, j, elem_size, width, w)) continue;
                c = &count[w % nbanks];
                if (++*c > degree) degree = *c;
            }
        }
        if (degree == 0) continue;
        out->groups++;
        out->passes += degree;
        if (degree > out->degree) out->degree = degree;
    }
}

/* Kim & Shrivastava, Sect. 5.4: "When the channel width is X-byte, successive X-byte
 * regions of global memory are mapped to successive channels." */
unsigned cls__channel_default(const cls_model_params *p, uint64_t addr)
{
    return (unsigned)((addr / (uint64_t)p->channel_width_bytes) % (uint64_t)p->channels);
}

static void occ_take(uint64_t by, cls_model_limit why, uint64_t *best, cls_model_limit *limit)
{
    if (by < *best) {
        *best = by;
        *limit = why;
    }
}

/* Shared default of the occupancy rule: work-groups per compute unit are the least of the
 * resident-group limit (Meng & Skadron 2010, Table 1 BlksPerSM; Chen et al., Table I), the warp and
 * work-item limits, the register file and local memory (Chen et al., Table I), as NVIDIA's
 * occupancy calculator counts them (Kim & Shrivastava, Sect. 2.1: occupancy is active over maximum
 * threads).  Registers are counted per whole warp. */
void cls__occupancy_default(const cls_model_params *p, size_t work_group_size,
                            unsigned registers_per_item, size_t local_bytes,
                            cls_model_occupancy_info *out)
{
    uint64_t wg = work_group_size;
    uint64_t warp = (uint64_t)p->warp_width;
    uint64_t warps_per_group = (wg + warp - 1) / warp;
    uint64_t best = (uint64_t)p->blocks_per_cu;
    cls_model_limit limit = CLS_LIMIT_GROUPS;

    out->groups_per_cu = 0;
    out->warps_per_cu = 0;
    out->occupancy = 0.0;
    out->limit = CLS_LIMIT_NONE;
    if (wg == 0) return;
    if (wg > (uint64_t)p->max_work_group) {
        out->limit = CLS_LIMIT_WORK_GROUP_SIZE;
        return;
    }
    if ((int64_t)registers_per_item > p->registers_per_cu) {
        out->limit = CLS_LIMIT_REGISTERS;
        return;
    }
    occ_take((uint64_t)p->max_warps_per_cu / warps_per_group, CLS_LIMIT_WARPS, &best, &limit);
    occ_take((uint64_t)p->max_threads_per_cu / wg, CLS_LIMIT_WARPS, &best, &limit);
    if (registers_per_item > 0)
        occ_take((uint64_t)p->registers_per_cu / (registers_per_item * warps_per_group * warp),
                 CLS_LIMIT_REGISTERS, &best, &limit);
    /* The compute unit's local memory where the model knows it (the H100's 228 KB per SM, of
     * which one work-group may use 48 KB in OpenCL), else the per-group size. */
    if (local_bytes > 0)
        occ_take((uint64_t)(p->local_bytes_per_cu > 0 ? p->local_bytes_per_cu : p->local_bytes) /
                     local_bytes,
                 CLS_LIMIT_LOCAL_MEMORY, &best, &limit);
    out->groups_per_cu = (unsigned)best;
    out->warps_per_cu = (unsigned)(best * warps_per_group);
    out->occupancy = (double)out->warps_per_cu / (double)p->max_warps_per_cu;
    if (out->occupancy > 1.0) out->occupancy = 1.0;
    out->limit = limit;
}

void cls__model_transactions(const cls_model *m, const uint64_t *addrs, size_t n,
                             size_t elem_size, cls_model_txn *out)
{
    const cls_model_params *p = &m->p;
    size_t group = (size_t)p->coalesce_width;
    if (n == 0 || elem_size == 0) return;
    if (m->rules->transactions) {
        m->rules->transactions(p, addrs, n, elem_size, out);
        return;
    }
    if (group > CLS__MAX_GROUP) group = CLS__MAX_GROUP;
    cls__txn_distinct_blocks(addrs, n, elem_size, group, (uint64_t)p->segment_bytes, out);
}

void cls__model_bank_conflicts(const cls_model *m, const uint64_t *addrs, size_t n,
                               size_t elem_size, cls_model_banks *out)
{
    const cls_model_params *p = &m->p;
    size_t group = (size_t)p->warp_width;
    if (n == 0 || elem_size == 0) return;
    if (m->rules->bank_conflicts) {
        m->rules->bank_conflicts(p, addrs, n, elem_size, out);
        return;
    }
    if (group > CLS__MAX_GROUP) group = CLS__MAX_GROUP;
    cls__banks_grouped(p, addrs, n, elem_size, group, out);
}

unsigned cls__model_channel(const cls_model *m, uint64_t addr)
{
    if (m->rules->channel) return m->rules->channel(&m->p, addr);
    return cls__channel_default(&m->p, addr);
}

void cls__model_occupancy(const cls_model *m, size_t work_group_size,
                          unsigned registers_per_item, size_t local_bytes,
                          cls_model_occupancy_info *out)
{
    if (m->rules->occupancy) {
        m->rules->occupancy(&m->p, work_group_size, registers_per_item, local_bytes, out);
        return;
    }
    cls__occupancy_default(&m->p, work_group_size, registers_per_item, local_bytes, out);
}
