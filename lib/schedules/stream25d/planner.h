/* planner.h: what the stream25d planner's parts share (plan.c, plan_single.c,
 * plan_fused.c, rule.c); never seen by the executor. */
#ifndef CLS_STREAM25D_PLANNER_H
#define CLS_STREAM25D_PLANNER_H

#include "rule.h"
#include "schedule.h"
#include "stream25d.h"

extern const cls__schedule_ops cls__stream25d_ops;

/* The IN offsets the body reads: read[dy][dx] for the in-plane offsets of any dz, the radii
 * and whether any read is diagonal in the plane. */
typedef struct cls__s25_reads {
    unsigned char read[2 * CLS__S25_MAX_R + 1][2 * CLS__S25_MAX_R + 1];
    int r[3];
    int corners;
    int corners_xz;  /* reads x-z diagonals (a lifted 2D box body's diagonals) */
} cls__s25_reads;

/* The facts the configuration was planned with. */
static inline const cls__facts *cls__s25_facts(const cls__s25 *p) { return p->facts; }
/* A tuning number of the device model (doc/devices.md, "Tuning"); dflt when it has none. */
double cls__s25_tuning(const cls__s25 *p, const char *key, double dflt);
/* Builds the configuration's kernel (core cls__build_kernel; for a system, its one stage's
 * through cls__build_stage_kernel) into p. */
cls_status cls__s25_build_kernel(cls__s25 *p, const char *tmpl, const char *defines,
                                 const char *kernel);
/* Adds the reads of one emitted body (update k of stage `stage` for a system) to rd:
 * "IN(dx, dy, dz)" for a single field, the "CLS_FIELD_f(dx, dy, dz)" of field `only` (every
 * field's when it is -1: their union, one window geometry for all) for a system;
 * CLS_ERR_PLAN_INFEASIBLE beyond the window. */
cls_status cls__s25_scan_reads(const cls__s25 *p, const char *text, size_t stage, size_t k,
                               int only, cls__s25_reads *rd);
/* The next read of an emitted body at or after *at (text: the whole body): IN(dx, dy, dz) of a
 * single field (field 0) or CLS_FIELD_f(dx, dy, dz) of a system; 1 with the field and offsets
 * and *at moved past it, 0 when none is left. */
int cls__s25_next_read(const cls__s25 *p, const char *text, const char **at, int *field,
                       int off[3]);
/* Calls fn with the emitted text of the body (a single field: stage 0, update 0) or of every
 * update of every stage of a system, until a status other than CLS_SUCCESS, which it returns. */
typedef cls_status (*cls__s25_text_fn)(const cls__s25 *p, size_t stage, size_t k,
                                       const char *text, void *arg);
cls_status cls__s25_each_update(const cls__s25 *p, cls__s25_text_fn fn, void *arg);
/* Whether the device runs a bx x by work-group (CLS_ERR_PLAN_INFEASIBLE naming its limits). */
cls_status cls__s25_check_group(cls__s25 *p, size_t bx, size_t by);
/* A system's kernels, one per stage (kernel `name` of template `tmpl`), with the same
 * defines; *kmax the smallest work-group limit among them (plan_single.c). */
cls_status cls__s25_build_stages(cls__s25 *p, const char *tmpl, const char *name,
                                 const char *defines, size_t *kmax);
/* The configuration's kernel (`kernel`, or `stage_kernel` per stage for a system) of template
 * `tmpl` with the defines, replacing any built before; *kmax its work-group limit (0 if unknown). */
cls_status cls__s25_build_either(cls__s25 *p, const char *tmpl, const char *kernel,
                                 const char *stage_kernel, const char *defines, size_t *kmax);
/* The body's reads (CLS_ERR_PLAN_INFEASIBLE beyond the window). */
cls_status cls__s25_body_reads(const cls__s25 *p, cls__s25_reads *rd);

/* Whether the fused kernel runs the system (fused_system.c): 1 with the updated fields' reads
 * in rd (their union: one window geometry), the one updated field's time levels in *levels and
 * fields[] the updated fields then the levels (at most CLS__S25_MAX_FUSED_FIELDS), else 0 with
 * the reason in why. */
int cls__s25_fused_system(const cls__s25 *p, cls__s25_reads *rd, size_t *levels, int *fields,
                          char *why, size_t why_len);

/* The column variant (plan_column.c, cl/stream25d_column.cl): plans it into p and sets *column
 * to 1 when opt asks for it (stream25d.window=column) or leaves the window to the planner and
 * the body is a star of radius above 1 on a device with local tiles; else *column 0. */
cls_status cls__plan_stream25d_column(cls__s25 *p, const cls__s25_request *opt, int *column);
/* AUTO's offer of the column variant (tuning.stream25d_column): 1 with the reason in why, else 0
 * (the other rules decide). */
int cls__s25_column_offer(cls__s25 *p, char *why, size_t len);

/* One step per pass (plan_single.c): the whole planner, fused steps included when asked for or
 * chosen by the model (plan_fused.c). */
cls_status cls__plan_stream25d(cls__s25 *p, const cls__s25_request *opt);
/* Temporal blocking (cl/stream25d_tb.cl): plans opt->steps_per_pass > 1 steps per pass, or,
 * when it is 0 where the device model stages planes in local memory, lets the ghost-zone model
 * choose the steps and the tile.  *fused is 1 when the plan is complete (fused kernel built), 0
 * when the caller plans the single-pass kernel. */
cls_status cls__plan_stream25d_tb(cls__s25 *p, const cls__s25_request *opt,
                                  const cls__s25_reads *rd, int *fused);
/* The ghost-zone model's gain of its best fused configuration over one step per pass on the
 * same tile (CPL ratio; 0 when the body is beyond radius 1 or there is no model), its k and,
 * when seconds is not NULL, its predicted run (0 when none), when columns is not NULL its
 * columns of tiles (0 when none). */
double cls__stream25d_tb_gain(cls__s25 *p, const cls__s25_reads *rd, size_t *k,
                              double *seconds, size_t *columns);
/* CLS_SCHEDULE_AUTO's question: baseline, single-pass or fused stream25d here?  Returns
 * CLS__S25_NAIVE, _SINGLE or _FUSED (rule.h) and writes the reason into p->rule. */
int cls__stream25d_auto(cls__s25 *p, const cls__s25_request *opt);

#endif /* CLS_STREAM25D_PLANNER_H */
