/* stream25d.h: what the stream25d planner (lib/plan_stream25d.c) shares with its temporal-blocking
 * part (lib/plan_stream25d_tb.c). */
#ifndef CLS_STREAM25D_H
#define CLS_STREAM25D_H
#include "plan.h"
#include "stream25d_rule.h"

#define CLS__S25_MAX_R 2 /* window radius in every dimension: offsets within a 5x5x5 box */

/* The IN offsets the body reads: read[dy][dx] for the in-plane offsets of any dz, the radii
 * and whether any read is diagonal in the plane. */
typedef struct cls__s25_reads {
    unsigned char read[2 * CLS__S25_MAX_R + 1][2 * CLS__S25_MAX_R + 1];
    int r[3];
    int corners;
} cls__s25_reads;

/* Temporal blocking (cl/stream25d_tb.cl): plans opt->steps_per_pass > 1 steps per pass, or, when
 * it is 0 on a GPU, lets the ghost-zone model choose the steps and the tile.  *fused is 1 when the
 * plan is complete (fused kernel built), 0 when the caller plans the single-pass kernel (the
 * model chose one step, a CPU, a body beyond radius 1 with no steps asked for). */
cls_status cls__plan_stream25d_tb(cls_plan *p, const cls_plan_options *opt,
                                  const cls__s25_reads *rd, int *fused);
/* The ghost-zone model's gain of its best fused configuration over one step per pass on the
 * same tile (CPL ratio; 0 when the body is beyond radius 1 or there is no model), and its k. */
double cls__stream25d_tb_gain(cls_plan *p, const cls__s25_reads *rd, size_t *k);
/* CLS_SCHEDULE_AUTO's question (lib/tune.c): naive, single-pass or fused stream25d here?
 * Returns CLS__S25_NAIVE, _SINGLE or _FUSED (lib/stream25d_rule.h) and writes the reason into
 * p->why. */
int cls__stream25d_auto(cls_plan *p, const cls_plan_options *opt);
#endif
