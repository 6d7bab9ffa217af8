/* cpu_cost.h: the CPU row kernel's model (model/cpu_rows.h) filled from a request's facts, for
 * the schedules that run row loops on a CPU (naive's row kernels, cputile) and for the probe
 * that measures its costs. */
#ifndef CLS_CPU_COST_H
#define CLS_CPU_COST_H

#include "cpu_rows.h"
#include "schedule.h"

/* Points per vector of the row loops: the device's preferred vector width for the element
 * type, which the compiler's vectorisation factor divides; 16 when the driver does not say. */
size_t cls__cpu_row_lanes(cl_device_id device, cls_dtype dtype);

/* The model's clock, costs and cache level: each key's value from get(src, key) (a plan's
 * facts, or a model the probe is filling); the cores, lanes, memory bandwidth and launch are
 * the caller's. */
void cls__cpu_device_costs(cls__cpu_device *d, double (*get)(const void *src, const char *key),
                           const void *src);

/* The device side from the facts' model; 0 (and *why) when the model lacks the clock, the
 * costs or a bandwidth. */
int cls__cpu_device_of(const cls__facts *f, cls__cpu_device *d, const char **why);

struct cls_expr;

/* Adds one parsed body's operations per point: its reads, its flops (comparisons and selects
 * too) and its divisions (square roots too), as the row loop runs them (cls__expr_point_ops). */
void cls__cpu_expr_ops(const struct cls_expr *e, double *reads, double *flops, double *divs);

/* Reads (state or fields, and auxiliary arrays), flops (comparisons and selects too) and
 * divisions per point of a step, summed over a system's stages (cls__expr_point_ops), and the
 * launches of a step (1, or the stages). */
cls_status cls__cpu_body_ops(const cls__facts *f, double *reads, double *flops, double *divs,
                             size_t *launches);

/* A step of the row kernel over the facts' grid: runs of `row_length` points, `item_rows` rows
 * per work-item. */
cls_status cls__cpu_rows_work_of(const cls__facts *f, size_t row_length, size_t item_rows,
                                 cls__cpu_rows_work *w);

#endif /* CLS_CPU_COST_H */
