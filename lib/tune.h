/* tune.h: the tuner's internal interface, shared by plan_trapezoid.c, tune_trapezoid.c,
 * profile.c, tune.c and the executors' device-only launchers. */
#ifndef CLS_TUNE_H
#define CLS_TUNE_H

#include "ghost_zone.h"
#include "plan.h"

/* Below this predicted naive run time (seconds) CLS_SCHEDULE_AUTO does not measure a missing
 * profile: the measurement would cost more than the run can save (doc/ghost-zones.md). */
#define CLS__TUNE_MIN_RUN_SECONDS 0.05

/* ---------------------------------------------------------------- lib/plan_trapezoid.c */
/* Checks a configuration against the device (tile dimensions, inner block of Eq. 20, work-group
 * limits, local memory), builds the program and sets the launch geometry of plan p. */
cls_status cls__trapezoid_setup(cls_plan *p, const cls__trap_config *c);
/* Changes the height of a plan set up by cls__trapezoid_setup (the program takes h as an
 * argument); h must leave an inner block. */
void cls__trapezoid_set_height(cls_plan *p, size_t h);
/* Whether tile and ppi fit the device with at least h = 1 (no build); why gets the reason. */
int cls__trapezoid_fits(const cls_context *ctx, const cls_stencil *st, const size_t tile[3],
                        size_t ppi, char *why, size_t len);
/* The points per work-item of a tile on the device: the smallest power of two that keeps the
 * work-group within the device's preferred size (256 work-items on GPUs, 1024 on CPUs). */
size_t cls__trapezoid_default_ppi(const cls_context *ctx, const cls_stencil *st,
                                  const size_t tile[3]);
/* Candidate tiles of the tuner for the stencil on the device (those that fit, at most max);
 * returns how many. */
size_t cls__trapezoid_candidates(const cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                 size_t (*tiles)[3], size_t max);
/* Local memory of a tile in the trapezoid kernel: two buffers with a halo margin (bytes). */
double cls__trapezoid_local_bytes(const cls_stencil *st, const size_t tile[3]);
/* The tile the profile measures: the middle candidate for a large grid. */
void cls__trapezoid_profile_tile(const cls_context *ctx, const cls_stencil *st, size_t tile[3]);

/* ---------------------------------------------------------------- executors, device only */
/* Run plan->steps steps on grids already on the device; *cur ends as the buffer that holds the
 * result; first and last get the first and last kernel's events (last may stay NULL when there
 * is one launch).  No progress callback. */
cls_status cls__trapezoid_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                                 cl_event *last);
cls_status cls__naive_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                             cl_event *last);
cls_status cls__stream25d_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                                 cl_event *last);

/* ---------------------------------------------------------------- lib/tune.c */
/* The context's device model (matched once, kept on the context). */
cls_status cls__ctx_model(cls_context *ctx, const cls_model **m);

/* ---------------------------------------------------------------- lib/profile.c */
/* The stencil's measured profile: cached, or measured when `measure` is set (otherwise
 * CLS_ERR_CACHE when there is no valid cache entry). */
cls_status cls__profile_get(cls_context *ctx, const cls_stencil *st, int measure,
                            cls_ghost_profile *p, int *from_cache);

/* ---------------------------------------------------------------- lib/tune_trapezoid.c */
/* The model's inputs for a device model, profile and sync mode (flags as cls_ghost_evaluate;
 * groups: the persistent kernel's resident work-groups, 0 = the device's compute units).  With
 * CLS_GHOST_EXECUTOR and CLS_SYNC_BARRIER the device and profile describe the persistent
 * executor in the restart formulas, so the configuration's sync must then be
 * CLS_GZ_KNL_RESTART (*sync_out says which). */
cls_status cls__gz_inputs(const cls_model *m, const cls_ghost_profile *gp, unsigned flags,
                          cls_sync sync, double groups, cls_gz_device *d, cls_gz_profile *p,
                          cls_gz_sync *sync_out);
void cls__gz_config(const cls_ghost_profile *gp, cls_dims dims, const size_t tile[3], double h,
                    cls_gz_sync sync, cls_gz_config *c);
/* Predicted cycles of a run of `steps` loops in mode `sync` (c already describes the executor,
 * see cls__gz_inputs), and the integer h <= min(hmax, steps) that minimises them. */
double cls__run_cycles(const cls_model *m, const cls_gz_device *d, const cls_gz_profile *p,
                       const cls_gz_config *c, size_t steps, cls_sync sync);
int cls__best_run_height(const cls_model *m, const cls_gz_device *d, const cls_gz_profile *p,
                         const cls_gz_config *c, size_t steps, cls_sync sync, int hmax,
                         double *cycles);
/* The measured profile's ghost-zone description of a stencil (everything but the timings). */
void cls__profile_shape(const cls_stencil *st, cls_ghost_profile *gp);

/* The best trapezoid configuration the model predicts for plan p (its stencil, grid, steps and
 * device) within what opt fixes (tile, points per item, h, sync), with its predicted run
 * seconds.  table (may be NULL, room for max entries) receives every (tile, sync) candidate at
 * its optimal h; *n the count. */
cls_status cls__trapezoid_choose(cls_plan *p, const cls_plan_options *opt,
                                 const cls_ghost_profile *prof, cls__trap_config *best,
                                 double *seconds, cls_tune_entry *table, size_t max, size_t *n);
/* Predicted seconds of a run of a trapezoid configuration (steps of the plan). */
double cls__trapezoid_predict(cls_plan *p, const cls_ghost_profile *prof,
                              const cls__trap_config *c);
/* The same from a device model alone (its compute units; 0 when the model cannot say). */
double cls__trapezoid_predict_model(const cls_model *m, const cls_stencil *st,
                                    const cls_ghost_profile *prof, cls_dims dims, size_t steps,
                                    const cls__trap_config *c);
/* The executor's occupancy and whole waves (doc/ghost-zones.md "Occupancy and waves"): with
 * restarts BlksPerSM becomes the work-groups of this tile resident on a compute unit by the
 * family's occupancy rule (work-items, warps, local memory); both modes count whole waves. */
void cls__gz_tile_occupancy(const cls_model *m, const cls_stencil *st, const size_t tile[3],
                            size_t ppi, cls_sync sync, cls_gz_device *d);
/* Predicted seconds of the naive plan's run: the profile's measured time per point, or the
 * bandwidth bound at the minimal traffic when prof is NULL, plus a restart per step. */
double cls__naive_predict(cls_plan *p, const cls_ghost_profile *prof);

#endif /* CLS_TUNE_H */
