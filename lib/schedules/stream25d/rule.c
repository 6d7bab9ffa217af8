/* rule.c: CLS_SCHEDULE_AUTO's stream25d rule for 3D bodies.  The naive kernel of a radius-1
 * star already streams at about copy speed, so one step per pass cannot win there, and fused
 * steps (Meng & Skadron 2010's ghost zones on the streamed tile) win only where the body is
 * cheap; box bodies are where streaming serves the in-plane reads from local memory while the
 * caches of one point per work-item fall behind.  Auxiliary arrays would be read from global
 * memory at every stage of a fused pass.  The thresholds are the device model's
 * (doc/devices.md, "Tuning"); the measurements behind the GPU family's are in doc/stream25d.md,
 * "AUTO's rule". */
#include <stdio.h>

#include "rule.h"

/* Fused steps where the model's k >= 2 gains at least fused_gain, except on mirror grids unless
 * fused_mirror: CLS__S25_FUSED or _NONE with the reason, -1 when the model does not fuse.
 * `what` names the body on a mirror grid, `whose` where it fuses; `key` adds to the reason. */
static int fused_choice(const cls__s25_features *f, const char *what, const char *whose,
                        const char *key, char *why, size_t why_len)
{
    if (f->k < 2 || !(f->gain >= f->fused_gain)) return -1;
    if (f->mirror && !f->fused_mirror) {
        snprintf(why, why_len,
                 "%s on a mirror grid, whose fused steps' boundary fix-ups cost more than fusing "
                 "saves (tuning.stream25d_fused_mirror 0)",
                 what);
        return CLS__S25_NONE;
    }
    snprintf(why, why_len,
             "%s whose %zu fused steps per pass the ghost-zone model predicts %.2fx faster than "
             "one (at least %.2g, tuning.stream25d_fused_gain%s)",
             whose, f->k, f->gain, f->fused_gain, key);
    return CLS__S25_FUSED;
}

int cls__s25_auto_rule(const cls__s25_features *f, char *why, size_t why_len)
{
    if (!f->radius1) {
        snprintf(why, why_len, "the body reads beyond the 3x3x3 box");
        return CLS__S25_NONE;
    }
    if (f->n_aux) {
        snprintf(why, why_len, "the body reads %zu auxiliary array%s, which are not kept on chip",
                 f->n_aux, f->n_aux == 1 ? "" : "s");
        return CLS__S25_NONE;
    }
    if (f->corners && f->cheap && f->box_single) {
        snprintf(why, why_len,
                 "one step per pass: a box body (in-plane diagonals) without divisions or "
                 "calls, whose in-plane reads streaming serves from local memory "
                 "(tuning.stream25d_box_single); model gain of fusing %.2fx",
                 f->gain);
        return CLS__S25_SINGLE;
    }
    if (!f->plain) {
        snprintf(why, why_len, "the body %s; streamed, such bodies turn compute-bound",
                 f->cheap ? "compares or selects in a star" : "divides or calls functions");
        return CLS__S25_NONE;
    }
    int fused = fused_choice(f, "a radius-1 star", "a cheap radius-1 star", "", why, why_len);
    if (fused >= 0) return fused;
    if (f->k <= 1)
        snprintf(why, why_len,
                 "a radius-1 star, which one point per work-item already streams at about copy "
                 "speed, and the ghost-zone model prefers one step per pass");
    else
        snprintf(why, why_len,
                 "a radius-1 star, which one point per work-item already streams at about copy "
                 "speed, and the model's gain of fusing %zu steps is %.2fx, below %.2g",
                 f->k, f->gain, f->fused_gain);
    return CLS__S25_NONE;
}

int cls__s25_auto_rule_2d(const cls__s25_features *f, char *why, size_t why_len)
{
    if (!f->radius1) {
        snprintf(why, why_len, "the 2D body reads beyond the 3x3 box");
        return CLS__S25_NONE;
    }
    /* On the H100 streaming along y beat the trapezoid only for star bodies without auxiliary
     * arrays (the 5-point star 1.07x in float, 1.23x in double); each stage's read of an
     * auxiliary array comes from global memory (poisson2d 0.67x, hotspot 0.30x) and a box body's
     * diagonals take a third row of each window (emboss 0.85x; doc/stream25d.md, "2D grids"). */
    if (f->n_aux || f->corners) {
        snprintf(why, why_len,
                 "a 2D body %s: streamed along y it ran slower than the trapezoid on the H100",
                 f->n_aux ? "reading auxiliary arrays, which every fused stage reads from global "
                            "memory"
                          : "reading diagonal neighbours");
        return CLS__S25_NONE;
    }
    /* Each group's pass starts with 3k - 1 rows of pipeline fill; a grid whose columns of
     * tiles are few must cut them into short chunks to fill the device, and the fill eats the
     * gain (H100, the 5-point star at 4096^2: 556 GPoints/s at best against the trapezoid's
     * 636; at 8192^2 745 against 698). */
    if (f->k > 1 && f->long_groups < f->resident_groups) {
        snprintf(why, why_len,
                 "a 2D grid too small for streaming along y: chunks of 16 times the pipeline's "
                 "fill (%zu rows at k = %zu) give %zu work-groups, below two per compute unit "
                 "(%zu)",
                 16 * (3 * f->k - 1), f->k, f->long_groups, f->resident_groups);
        return CLS__S25_NONE;
    }
    int fused = fused_choice(f, "a radius-1 2D body", "a radius-1 2D body streamed along y,",
                             "; tuning.stream25d_2d 1", why, why_len);
    if (fused >= 0) return fused;
    snprintf(why, why_len,
             "a radius-1 2D body, for which the ghost-zone model %s (tuning.stream25d_2d 1)",
             f->k <= 1 ? "prefers one step per pass" : "predicts too little from fusing");
    return CLS__S25_NONE;
}
