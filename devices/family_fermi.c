/* family_fermi.c: rules and defaults of the Fermi family (compute capability 2.x). */
#include "devices.h"

/* The family's defaults are the documents' Fermi device, the Tesla C2050 (Mo & Li; Chen et
 * al., Sect. VII; Visschers 2012 for its transfers), with the values its file marks assumed;
 * doc/devices.md gives the source of each. */
static const char *const fermi_reference[] = {"tesla_c2050.json", NULL};

/* Where the family's defaults differ from the C2050. */
static void fermi_defaults(cls_model_params *p)
{
    cls__tuning_gpu(p);
    /* Chen et al. (Sect. VII) give Fermi 16 SMs; the C2050's file holds 14, derived from its
     * 448 cores and marked assumed. */
    p->compute_units = 16;
    /* One copy engine, so no overlap of the two directions, as on the GeForce GTX 460
     * (Visschers 2012); the C2050's two engines are its own. */
    p->copy_engines = 1;
    p->overlap_factor = 1.0;
}

/* Fermi needs no rule of its own: a warp's request is served by the distinct 128-byte lines
 * it touches (the shared default with segment_bytes = 128 and coalesce_width = 32), and
 * local-memory conflicts are judged per full warp (the shared default). */
const cls_model_rules cls__family_fermi = {
    .family = "fermi",
    .summary = "NVIDIA Fermi (compute capability 2.x): whole-warp coalescing into 128-byte "
               "lines, 32 banks",
    .defaults = fermi_defaults,
    .reference = fermi_reference,
    .transactions = NULL,   /* shared default: distinct segment_bytes lines per warp */
    .bank_conflicts = NULL, /* shared default: distinct words per bank per warp */
    .channel = NULL,        /* shared default */
    .occupancy = NULL,      /* shared default */
};
