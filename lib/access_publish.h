/* access_publish.h: access descriptions published by the kernel templates, and the planner's
 * ranking of a schedule's mapping variants by CuMAPz MPE (004_3bb0fc5541bb7adb.txt). */
#ifndef CLS_ACCESS_PUBLISH_H
#define CLS_ACCESS_PUBLISH_H

#include "internal.h"

/* One mapping variant: cls__access_publish describes exactly this one (any shape, not only
 * the published candidates) instead of the candidates. */
typedef struct cls__mapping {
    int aligned;              /* stream25d: 1 aligned loader (001 Listing 3), 0 classic */
    unsigned bx, by;          /* work-group */
    unsigned tile_x, tile_y;  /* trapezoid: the tile, ghost zone included */
    unsigned h;               /* trapezoid: steps per pass */
} cls__mapping;

/* The JSON access description (doc/memory-analysis.md) of the schedule's mapping variants for
 * the stencil at dims, reduced to at most 96 rows and 2 planes (004 Sect. 7).  naive: work-group
 * shapes; stream25d: classic and aligned loaders x work-group shapes; trapezoid (2D): tiles x
 * work-group heights at h 2; with `only`, that one mapping alone.  *json is malloc'ed.  err
 * gets one sentence on failure. */
cls_status cls__access_publish(const cls_stencil *st, cls_dims dims, cls_schedule schedule,
                               const cls__mapping *only, char **json, char *err,
                               size_t errlen);

/* Ranks the plan's schedule's mapping variants by MPE on the plan's device model and appends
 * the ranking and the plan's own variant's place to plan->why.  Never fails the plan: when
 * the analysis cannot run, the note says why. */
void cls__mapping_rank_note(cls_plan *plan);

#endif
