/* stream25d_rule.c: CLS_SCHEDULE_AUTO's stream25d rule for 3D bodies on GPUs, from the H100
 * measurements of 2026-11-21 and 2026-11-22 (512^3, NVIDIA OpenCL, doc/stream25d.md "H100:
 * temporal blocking";
 * doc/data/h100-2026-11-21-stream25d-tb.csv, results of tools/gpu/h100_stream25d_tb.sh and of
 * the suite, GPoints/s per step):
 *
 *   stencil   dtype   naive  single pass  fused (AUTO's k)  model gain  -> rule
 *   heat3d7   float   302.5  281.9        343.7 (k=4)       2.15        fused   (1.14x)
 *   heat3d7   double  177.4  147.8        167.1 (k=3)       1.83        naive
 *   heat3d27  float   196.2  266.3        155.9 (k=3)       1.47        single  (1.36x)
 *   heat3d27  double  112.0  132.5         93.5 (k=2)       1.49        single  (1.18x)
 *   jacobi3d  float   298.3  277.3        250.0 (k=4)       -           naive   (a division)
 *   cell3d    float   168.0  174.1          50.0            -           naive   (comparisons)
 *
 * 2026-11-22, after the fused kernel's loop was versioned (interior work-groups carry no
 * boundary fix-ups) and the model chooses the loader and a shorter z chunk:
 *   heat3d7   float   302.5               466.2 (k=3)       >= 1.2      fused   (1.54x)
 *   heat3d7   double  177.6               210.2 (k=3)       2.20        fused   (1.18x)
 * so a cheap star fuses wherever the model's gain is at least 1.2 (the threshold was 2.0
 * while fused steps paid the fix-ups everywhere and double lost), except on mirror grids,
 * where the fused kernel ran 280.0 GPoints/s against naive's 295.1 (0.95x).
 *
 * 2026-11-22, cell3d summing its neighbours (lib/builtins.c; a box body that compares and
 * selects only in its rule), microseconds per step (doc/data/results-h100/sweep-medium*,
 * doc/data/h100-2026-11-22-cell3d-large*):
 *   cell3d    float   256^3: naive 94.3, single pass 71.2 (1.32x), fused k=2..6 111-424
 *                     512^3: naive 678.6, single pass 512.6 (1.32x), fused 662-2675
 * so box bodies stream one step per pass when they do not divide or call functions (the
 * counting body had single pass 1.04x too, but was kept naive as "not plain").
 *
 * The naive kernel streams a radius-1 star at copy speed (heat3d7 96 % of cube_transit), so one
 * step per pass cannot win there, and fused steps win only where the body is cheap: the
 * ghost-zone model's gain of 2.15 (float) became 1.14-1.21x, its 1.83 (double) nothing, and a
 * body with a division (jacobi3d, IEEE division in NVIDIA's OpenCL is a dozen instructions per
 * stage) or with comparisons and selects (cell3d) turns the fused kernel compute-bound
 * (0.84x and 0.30x of naive).  Box bodies are where streaming serves the 9 in-plane reads of
 * each plane from local memory while the naive kernel's caches fall behind: single pass 1.36x
 * (float) and 1.18x (double) over naive, while fusing them lost (0.78x, 0.83x).  Auxiliary
 * arrays are read from global memory at every stage of a fused pass; no measurement supports
 * streaming them, so they keep the naive schedule. */
#include <stdio.h>

#include "stream25d_rule.h"

int cls__s25_auto_rule(const cls__s25_features *f, char *why, size_t why_len)
{
    if (!f->radius1) {
        snprintf(why, why_len, "naive: the body reads beyond the 3x3x3 box");
        return CLS__S25_NAIVE;
    }
    if (f->n_aux) {
        snprintf(why, why_len,
                 "naive: the body reads %zu auxiliary array%s, which stream25d does not keep "
                 "on chip",
                 f->n_aux, f->n_aux == 1 ? "" : "s");
        return CLS__S25_NAIVE;
    }
    if (f->corners && f->cheap) {
        snprintf(why, why_len,
                 "stream25d, one step per pass: a box body (in-plane diagonals) without "
                 "divisions or calls, whose plane streaming serves from local memory (H100: "
                 "heat3d27 1.36x float, 1.18x double, cell3d 1.32x over naive; fused steps "
                 "lost); model gain of fusing %.2fx",
                 f->gain);
        return CLS__S25_SINGLE;
    }
    if (!f->plain) {
        snprintf(why, why_len,
                 "naive: the body %s; streamed, such bodies ran slower than naive on the H100 "
                 "(jacobi3d, a division: one step per pass 0.93x, fused 0.84x)",
                 f->cheap ? "compares or selects in a star" : "divides or calls functions");
        return CLS__S25_NAIVE;
    }
    if (f->k > 1 && f->gain >= CLS__S25_FUSED_GAIN && f->mirror) {
        snprintf(why, why_len,
                 "naive: a radius-1 star on a mirror grid, whose fused steps' boundary fix-ups "
                 "cost more than fusing saves (H100 heat3d7 k = 3: 280.0 against 295.1 "
                 "GPoints/s naive)");
        return CLS__S25_NAIVE;
    }
    if (f->k > 1 && f->gain >= CLS__S25_FUSED_GAIN) {
        snprintf(why, why_len,
                 "stream25d: a cheap radius-1 star whose %zu fused steps per pass the ghost-zone "
                 "model predicts %.2fx faster than one (at least %.1f; H100 heat3d7 k = 3: "
                 "1.54x float, 1.18x double over naive)",
                 f->k, f->gain, CLS__S25_FUSED_GAIN);
        return CLS__S25_FUSED;
    }
    if (f->k <= 1)
        snprintf(why, why_len,
                 "naive: a radius-1 star, which the naive kernel streams at about copy speed, "
                 "and the ghost-zone model prefers one step per pass");
    else
        snprintf(why, why_len,
                 "naive: a radius-1 star, which the naive kernel streams at about copy speed, "
                 "and the model's gain of fusing %zu steps is %.2fx, below %.1f",
                 f->k, f->gain, CLS__S25_FUSED_GAIN);
    return CLS__S25_NAIVE;
}
