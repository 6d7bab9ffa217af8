/* family_gpu.c: rules and generic defaults of a modern GPU (live NVIDIA devices such as H100). */
#include "device_model.h"

/* Generic defaults for a current GPU that no file describes: 32-byte sectors, 32 banks of
 * 4 bytes, 64 resident warps.  None of these numbers is in the documents; they are stand-ins
 * until `clstencil probe` measures the device, and a live device's own clock, compute units
 * and sizes replace them (cls_model_match). */
static void gpu_defaults(cls_model_params *p)
{
    *p = (cls_model_params){0};
    p->clock_mhz = 1500;
    p->compute_units = 16;
    p->cores_per_cu = 128;
    p->warp_width = 32;
    p->coalesce_width = 32;
    p->cpi = 0.25;                 /* 000 Sect. 4.3's rule: warp 32 over 128 lanes */
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
    p->kernel_restart_cycles = 3350;     /* 000 Sect. 4.4's GTX 280 value, as a stand-in */
    p->barrier_cycles_per_group = 210.3; /* 000 Sect. 4.5's GTX 280 value, as a stand-in */
    p->copy_engines = 1;
    p->overlap_factor = 1.0;
}

/* Transactions count distinct 32-byte sectors per warp and bank conflicts distinct words per
 * bank per warp: both are the shared defaults with this family's parameters. */
const cls_model_rules cls__family_gpu = {
    .family = "gpu",
    .summary = "generic modern GPU: whole-warp coalescing into 32-byte sectors, 32 banks",
    .defaults = gpu_defaults,
    .transactions = NULL,   /* shared default: distinct segment_bytes sectors per warp */
    .bank_conflicts = NULL, /* shared default */
    .channel = NULL,        /* shared default */
    .occupancy = NULL,      /* shared default */
};
