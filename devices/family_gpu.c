/* family_gpu.c: rules and generic defaults of a modern GPU (live NVIDIA devices such as H100). */
#include "devices.h"

/* Defaults for a current GPU, which no document describes (so the family has no reference
 * file): 32-byte sectors, 32 banks of 4 bytes, 64 resident warps.  They are stand-ins until
 * `clstencil probe` measures the device, and a live device's own clock, compute units and
 * sizes replace them (cls_model_match); a file of the family leaves out what it does not know
 * (h100_probe.json), which then reads these, marked assumed. */
static void gpu_defaults(cls_model_params *p)
{
    cls__tuning_gpu(p);
    p->clock_mhz = 1500;
    p->compute_units = 16;
    p->cores_per_cu = 128;
    p->warp_width = 32;
    p->coalesce_width = 32;
    p->cpi = 0.25;                 /* warp 32 over 128 lanes (Meng & Skadron 2010, Sect. 4.3) */
    p->blocks_per_cu = 32;
    p->max_work_group = 1024;
    p->max_threads_per_cu = 2048;
    p->max_warps_per_cu = 64;
    p->registers_per_cu = 65536;
    p->local_bytes = 49152;
    p->banks = 32;
    p->bank_width_bytes = 4;
    p->bandwidth_peak_gbs = 500;
    p->latency_cycles = 500;
    p->channels = 16;
    p->channel_width_bytes = 256;
    p->segment_bytes = 32;         /* L2 sector */
    p->min_segment_bytes = 32;
    p->kernel_restart_cycles = 3350;     /* the GTX 280's (Meng & Skadron 2010), a stand-in */
    p->barrier_cycles_per_group = 210.3; /* the GTX 280's (Meng & Skadron 2010), a stand-in */
    p->copy_engines = 1;
    p->overlap_factor = 1.0;
}

/* Channel of an address.  The linear interleave of Kim & Shrivastava Sect. 5.4 (successive
 * channel_width_bytes regions to successive channels) unless the model sets memory.channel_hash:
 * then the channel index is folded with the bits above one interleave period (channels x
 * channel_width_bytes), XOR for a power-of-two channel count, addition otherwise.  Current GPUs
 * hash physical addresses over their memory partitions so that strided rows do not camp on one
 * channel (the partition camping of the GT200 that Eq. 5 measures); whether the H100 model needs it
 * is a question for the correlation experiment (doc/memory-analysis.md), answered in the model
 * file, not here. */
static unsigned gpu_channel(const cls_model_params *p, uint64_t addr)
{
    const uint64_t n = (uint64_t)p->channels;
    uint64_t unit = addr / (uint64_t)p->channel_width_bytes, c = unit % n, rest = unit / n;
    const int pow2 = (n & (n - 1)) == 0;
    /* One channel has nothing to hash over (and rest /= 1 would never end); the schema refuses
     * that model, the guard keeps the rule total for one built in code. */
    if (!p->channel_hash || n < 2) return (unsigned)c;
    for (; rest; rest /= n) c = pow2 ? c ^ (rest % n) : (c + rest % n) % n;
    return (unsigned)c;
}

/* Eq. 2's load count (Kim & Shrivastava Sect. 5.2).  The GT200 kept few warps per SM (32 at most,
 * fewer with local memory), so a warp's own independent loads were what overlapped memory latency.
 * An SM of this family holds up to 64 warps and switches among them every cycle: the other warps
 * cover a load's latency, and a warp's further fetch instructions (the classic loader's
 * partial-warp halo loads) add instructions, not overlap.  The H100 measurements show it
 * (doc/memory-analysis.md: the aligned loader, two rounds, is 1.4x faster than the classic one,
 * four fetches).  Latency hiding is left to Eq. 2's occupancy term. */
static double gpu_latency_loads(const cls_model_params *p, double n_loads)
{
    (void)p;
    return n_loads < 1 ? n_loads : 1;
}

/* Global reads go through the SM's L1 (256 KB per SM on the H100, shared with local memory;
 * every NVIDIA GPU since Volta caches global loads there by default): a work-group's second
 * read of an element hits on chip as a read of a local buffer would.  Eq. 1 then counts the
 * L1 as a buffer the hardware fills (model/cumapz.c), so that Fig. 1's unbuffered kernel gets
 * the reuse the GT200 could only have through local memory. */
static int gpu_global_reads_cached(const cls_model_params *p)
{
    (void)p;
    return 1;
}

/* Eq. 6's cost of a k-way bank conflict, from the device's own stride sweep (lib/probe.c,
 * probe_banks: work-item l reads local word l x s; with 32 banks a power-of-two stride s <= 32
 * is an s-way conflict).  The measured slowdown at stride s is what one s-way access costs in
 * conflict-free accesses, replays and issue overhead included: on the H100 1.64, 3.25, 6.46,
 * 12.9, 25.7 for s = 2 .. 32, about 0.8 s, not s.  Between measured strides the cost is
 * interpolated linearly (1 at k = 1), beyond the last one it grows in proportion to k.  A
 * model without the sweep (any entry 0) keeps Kim & Shrivastava Sect. 5.5's k. */
static double gpu_conflict_passes(const cls_model_params *p, double k)
{
    const double s[] = {1, 2, 4, 8, 16, 32};
    const double t[] = {1, p->stride_slowdown_2, p->stride_slowdown_4, p->stride_slowdown_8,
                        p->stride_slowdown_16, p->stride_slowdown_32};
    size_t i;
    for (i = 1; i < sizeof s / sizeof s[0]; i++)
        if (!(t[i] > 0)) return k;
    if (k <= 1) return k;
    for (i = 1; i < sizeof s / sizeof s[0]; i++)
        if (k <= s[i]) return t[i - 1] + (t[i] - t[i - 1]) * (k - s[i - 1]) / (s[i] - s[i - 1]);
    return t[5] * k / s[5];
}

/* Eq. 1 with an L2 (50 MB on the H100, every global load goes through it): the elements a
 * work-group loads are loaded from memory once for all the work-groups resident with it,
 * whose halos overlap (Mo & Li's ghost zones, Fig. 2's col+1/col+2).  The window is the device's
 * resident work-groups, compute units x groups per unit in launch order; their footprint
 * (kilobytes each) is far below an L2 of megabytes.  No L2 in the model: no window. */
static uint64_t gpu_cache_window(const cls_model_params *p, unsigned groups_per_cu)
{
    if (p->l2_bytes <= 0 || p->compute_units <= 0) return 0;
    return (uint64_t)p->compute_units * (groups_per_cu ? groups_per_cu : 1);
}

/* Transactions count distinct 32-byte sectors per warp and bank conflicts distinct words per
 * bank per warp: both are the shared defaults with this family's parameters; the channel rule
 * is gpu_channel. */
const cls_model_rules cls__family_gpu = {
    .family = "gpu",
    .summary = "generic modern GPU: whole-warp coalescing into 32-byte sectors, 32 banks",
    .defaults = gpu_defaults,
    .reference = NULL,
    .transactions = NULL,   /* shared default: distinct segment_bytes sectors per warp */
    .bank_conflicts = NULL, /* shared default */
    .channel = gpu_channel, /* linear, or hashed with memory.channel_hash */
    .occupancy = NULL,      /* shared default */
    .latency_loads = gpu_latency_loads,             /* at most one load per warp */
    .global_reads_cached = gpu_global_reads_cached, /* L1 serves repeated reads */
    .conflict_passes = gpu_conflict_passes,         /* the probe's stride sweep */
    .cache_window = gpu_cache_window,               /* L2 shared by resident groups */
};
