/* planner.h: the trapezoid planner's parts (never seen by the executor): the user's
 * choices, the device checks, the ghost-zone model of Meng & Skadron 2010 applied to this
 * executor, the measured profiles and the tuner. */
#ifndef CLS_TRAPEZOID_PLANNER_H
#define CLS_TRAPEZOID_PLANNER_H

#include "clstencil_tune.h"
#include "ghost_zone.h"
#include "schedule.h"
#include "trapezoid.h"

extern const cls__schedule_ops cls__trapezoid_ops;

/* What the caller fixed (cls_plan_options.params); 0 where left open. */
typedef struct cls__trap_request {
    size_t tile[3];
    int tile_given;
    size_t ppi;
    size_t h;
    int sync; /* 0: open, else CLS__TRAP_RESTART or CLS__TRAP_BARRIER */
} cls__trap_request;

void cls__trapezoid_request(const cls__facts *f, cls__trap_request *r);

/* ---------------------------------------------------------------- plan.c */
/* Whether tile and ppi fit the device with at least h = 1 (no build): the work-group, the local
 * memory of every buffer the fields rotate through (within the device's and the device model's
 * local_memory.bytes, m may be NULL) and Eq. 20; why gets the reason. */
int cls__trapezoid_fits(const cls_device_info *d, const cls_model *m, const cls_stencil *st,
                        const size_t tile[3], size_t ppi, char *why, size_t len);
/* The points per work-item of a tile: the smallest power of two that keeps the work-group
 * within the work-items the device model aims at. */
size_t cls__trapezoid_default_ppi(const cls_device_info *d, const cls_model *m,
                                  const cls_stencil *st, const size_t tile[3]);
/* Candidate tiles for the stencil on the device (those that fit, at most max); how many. */
size_t cls__trapezoid_candidates(const cls_device_info *d, const cls_model *m,
                                 const cls_stencil *st, cls_dims dims, size_t (*tiles)[3],
                                 size_t max);
/* The tile buffers a work-group holds in local memory: 2 for one field, the rotation's count
 * for a system (lib/rotation.c). */
size_t cls__trapezoid_tile_buffers(const cls_stencil *st);
/* Local memory of a tile in the trapezoid kernel: those buffers with a halo margin (bytes). */
double cls__trapezoid_local_bytes(const cls_stencil *st, const size_t tile[3]);
/* The tile the profile measures: the middle candidate for a large grid. */
void cls__trapezoid_profile_tile(const cls_device_info *d, const cls_model *m,
                                 const cls_stencil *st, size_t tile[3]);
/* Checks a configuration against the device, builds its program and sets its launch
 * geometry. */
cls_status cls__trapezoid_setup(const cls__facts *f, cls__trapezoid *t);

/* ---------------------------------------------------------------- choose.c */
cls_status cls__gz_inputs(const cls_model *m, const cls_ghost_profile *gp, unsigned flags,
                          cls_sync sync, double groups, cls_gz_device *d, cls_gz_profile *p,
                          cls_gz_sync *sync_out);
void cls__gz_config(const cls_ghost_profile *gp, cls_dims dims, const size_t tile[3], double h,
                    cls_gz_sync sync, cls_gz_config *c);
double cls__run_cycles(const cls_model *m, const cls_gz_device *d, const cls_gz_profile *p,
                       const cls_gz_config *c, size_t steps, cls_sync sync);
int cls__best_run_height(const cls_model *m, const cls_gz_device *d, const cls_gz_profile *p,
                         const cls_gz_config *c, size_t steps, cls_sync sync, int hmax,
                         double *cycles);
void cls__profile_shape(const cls_stencil *st, cls_ghost_profile *gp);
void cls__gz_tile_occupancy(const cls_model *m, const cls_stencil *st, const size_t tile[3],
                            size_t ppi, cls_sync sync, cls_gz_device *d);
/* The best configuration the model predicts for the facts within what r fixes, its predicted
 * run seconds and a sentence on how it was chosen (*why malloc'ed, may be NULL); table (may be
 * NULL, room for max entries) receives every (tile, sync) candidate at its optimal h. */
cls_status cls__trapezoid_choose(const cls__facts *f, const cls__trap_request *r,
                                 const cls_ghost_profile *prof, cls__trap_config *best,
                                 double *seconds, char **why, cls_tune_entry *table, size_t max,
                                 size_t *n);
/* Predicted seconds of a run of the facts' steps in configuration c (0: none). */
double cls__trapezoid_predict(const cls__facts *f, const cls_ghost_profile *prof,
                              const cls__trap_config *c);

/* ---------------------------------------------------------------- profile.c */
/* The stencil's measured profile: cached (this context, then disk), or measured when
 * `measure` is set (otherwise CLS_ERR_CACHE when there is none). */
cls_status cls__profile_get(cls_context *ctx, const cls_stencil *st, int measure,
                            cls_ghost_profile *p, int *from_cache);

#endif /* CLS_TRAPEZOID_PLANNER_H */
