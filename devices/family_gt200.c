/* family_gt200.c: rules and defaults of the GT200 family (compute capability 1.3). */
#include "devices.h"

/* Global-memory coalescing on compute capability 1.2/1.3, per half-warp
 * (Kim & Shrivastava Sect. 5.3 and Fig. 5(a): "threads in each half warp", "transactions
 * are of 32-byte, 64-byte, or 128-byte", "based on compute capability 1.3 [NVIDIA 2010b]";
 * Meng & Skadron 2010 Sect. 4.2: CoalesceDegree = 16).  The steps are those of the CUDA
 * C Programming Guide that Kim & Shrivastava cites as [NVIDIA 2010b]:
 *   1. take the segment holding the lowest-numbered active work-item's address: 32 bytes for
 *      1-byte words, 64 for 2-byte words, 128 for 4-, 8- and 16-byte words;
 *   2. serve every active work-item whose address lies in that segment;
 *   3. while the transaction is larger than the smallest segment and only its lower or upper
 *      half is used, halve it (128 -> 64 -> 32);
 *   4. issue it, and repeat until the half-warp is served.
 * Segment sizes come from the parameters: segment_bytes (128) and min_segment_bytes (32). */
static void gt200_transactions(const cls_model_params *p, const uint64_t *addrs, size_t n,
                               size_t elem_size, cls_model_txn *out)
{
    size_t group = (size_t)p->coalesce_width;
    uint64_t max_seg = (uint64_t)p->segment_bytes, min_seg = (uint64_t)p->min_segment_bytes;
    uint64_t seg = 32u * (uint64_t)elem_size;
    unsigned char served[1024];

    if (seg < min_seg) seg = min_seg;
    if (seg > max_seg) seg = max_seg;
    if (group > sizeof served) group = sizeof served;
    for (size_t g = 0; g < n; g += group) {
        const uint64_t *ga = addrs + g;
        size_t gn = n - g < group ? n - g : group;
        for (size_t j = 0; j < gn; j++) served[j] = ga[j] == CLS_MODEL_NO_ACCESS;
        for (size_t t = 0; t < gn; t++) {
            uint64_t base, size, lo, hi;
            if (served[t]) continue;
            base = ga[t] - ga[t] % seg;
            size = seg;
            lo = UINT64_MAX;
            hi = 0;
            for (size_t j = t; j < gn; j++) {
                if (served[j] || ga[j] < base || ga[j] - base >= seg) continue;
                served[j] = 1;
                out->requested += elem_size;
                if (ga[j] < lo) lo = ga[j];
                if (ga[j] + elem_size > hi) hi = ga[j] + elem_size;
            }
            while (size > min_seg) {
                uint64_t half = size / 2;
                if (hi <= base + half) {
                    size = half;
                } else if (lo >= base + half) {
                    base += half;
                    size = half;
                } else {
                    break;
                }
            }
            out->count++;
            out->bytes += size;
        }
    }
}

/* Bank conflicts per half-warp (Kim & Shrivastava Sect. 5.5: "When threads in a half
 * warp access K different addresses within one bank, the accesses are serialized K times"). */
static void gt200_bank_conflicts(const cls_model_params *p, const uint64_t *addrs, size_t n,
                                 size_t elem_size, cls_model_banks *out)
{
    size_t half = (size_t)p->warp_width / 2;
    cls__banks_grouped(p, addrs, n, elem_size, half ? half : 1, out);
}

/* The family's defaults are the documents' GT200 devices: the GeForce GTX 280 (Meng & Skadron
 * 2010, Table 1; Kim & Shrivastava for banks and segments), and where its file is silent the
 * Tesla C1060 (Chen et al., Table I: resident threads, warps and registers; Kim & Shrivastava,
 * Sect. 5.4: the 256-byte channel width).  doc/devices.md gives the source of each value. */
static const char *const gt200_reference[] = {"gtx280.json", "tesla_c1060.json", NULL};

/* What neither device's file gives: the tuning section's GPU defaults and one copy engine, so
 * no overlap of the two transfer directions. */
static void gt200_defaults(cls_model_params *p)
{
    cls__tuning_gpu(p);
    p->copy_engines = 1;
    p->overlap_factor = 1.0;
}

const cls_model_rules cls__family_gt200 = {
    .family = "gt200",
    .summary = "NVIDIA GT200 (compute capability 1.3): half-warp coalescing into "
               "32/64/128-byte segments, 16 banks",
    .defaults = gt200_defaults,
    .reference = gt200_reference,
    .transactions = gt200_transactions,
    .bank_conflicts = gt200_bank_conflicts,
    .channel = NULL,   /* shared default: successive channel_width_bytes regions */
    .occupancy = NULL, /* shared default: least of the group, warp, register, local limits */
};
