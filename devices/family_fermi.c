/* family_fermi.c: rules and generic defaults of the Fermi family (compute capability 2.x). */
#include "devices.h"

/* Generic defaults of the family.  The documents give the Tesla C2050's clock and bandwidth
 * (001 Table 1), Fermi's 48 KB of shared memory and 1.5k resident threads (002 Sect. VII),
 * whole-warp coalescing into 128-byte lines with 32-byte segments below them (001 Sect. 4 and
 * 5; 004 Sect. 5.3 footnote 4); the rest are generic defaults carried over from GT200 or
 * assumed (doc/devices.md marks which). */
static void fermi_defaults(cls_model_params *p)
{
    *p = (cls_model_params){0};
    p->clock_mhz = 1115;           /* 001 Table 1 (C2050) */
    p->compute_units = 16;         /* 002 Sect. VII: "the number of SMs to 16" */
    p->cores_per_cu = 32;          /* assumed */
    p->warp_width = 32;            /* 001 Sect. 4: "32 threads of one warp" */
    p->coalesce_width = 32;        /* 001 Sect. 5: one 128-byte access per warp on CC 2.0 */
    p->cpi = 1;                    /* assumed: 000 Sect. 4.3's rule, warp 32 over 32 cores */
    p->blocks_per_cu = 8;          /* assumed: GT200's value, 000 Table 1 */
    p->max_work_group = 1024;      /* assumed */
    p->max_threads_per_cu = 1536;  /* 002 Sect. VII: "more threads (1.5k)" */
    p->max_warps_per_cu = 48;      /* 1536 / 32 */
    p->registers_per_cu = 32768;   /* assumed */
    p->local_bytes = 49152;        /* 002 Sect. VII: "larger shared memory (48K)" */
    p->banks = 32;                 /* assumed: one bank per work-item of a warp */
    p->bank_width_bytes = 4;       /* assumed: GT200's width, 004 Sect. 5.5 */
    p->bandwidth_peak_gbs = 144;   /* 001 Table 1 (C2050) */
    p->latency_cycles = 300;       /* assumed: 000 Table 1 */
    p->channels = 8;               /* assumed: GT200's count, 000 Sect. 4.2 */
    p->channel_width_bytes = 256;  /* assumed: 004 Sect. 5.4 (C1060) */
    p->segment_bytes = 128;        /* 001 Sect. 5; 004 Sect. 5.3 footnote 4 */
    p->min_segment_bytes = 32;     /* 001 Sect. 4: aligned by 32, 64 or 128 bytes */
    p->kernel_restart_cycles = 3350;     /* assumed: 000 Sect. 4.4 (GTX 280) */
    p->barrier_cycles_per_group = 210.3; /* assumed: 000 Sect. 4.5 (GTX 280) */
    p->copy_engines = 1;           /* assumed */
    p->overlap_factor = 1.0;       /* assumed: one engine, no overlap */
}

/* Fermi needs no rule of its own: a warp's request is served by the distinct 128-byte lines
 * it touches (the shared default with segment_bytes = 128 and coalesce_width = 32), and
 * local-memory conflicts are judged per full warp (the shared default). */
const cls_model_rules cls__family_fermi = {
    .family = "fermi",
    .summary = "NVIDIA Fermi (compute capability 2.x): whole-warp coalescing into 128-byte "
               "lines, 32 banks",
    .defaults = fermi_defaults,
    .transactions = NULL,   /* shared default: distinct segment_bytes lines per warp */
    .bank_conflicts = NULL, /* shared default: distinct words per bank per warp */
    .channel = NULL,        /* shared default */
    .occupancy = NULL,      /* shared default */
};
