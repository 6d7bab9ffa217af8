/* stencil_lift.c: a 2D stencil or system as the 3D one of the grid NX x 1 x NY, which has the same
 * memory layout, for schedules that stream along z (stream25d streams 2D grids along y). */
#include <string.h>

#include "internal.h"

cls_status cls__stencil_lift_2d(const cls_stencil *st, cls_stencil **lifted)
{
    int oom = 0;
    *lifted = NULL;
    if (st->dims != 2 || st->lift_2d)
        return cls__fail(NULL, CLS_ERR_INTERNAL, "lifting '%s': not a 2D stencil", st->name);
    /* The body text of the points is written for the stencil's own dims: build it first, so
     * the copy carries the 2D text that cls__stencil_parse reads before lifting. */
    if (!cls__stencil_body(st, &oom) && oom)
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "building the body of the points");
    cls_status s = cls_stencil_copy(st, lifted);
    if (s != CLS_SUCCESS) return s;
    cls_stencil *c = *lifted;
    c->body_from_points = 0;
    c->dims = 3;
    c->lift_2d = 1;
    c->halo[2] = st->halo[1];
    c->halo[1] = 0;
    for (size_t i = 0; i < c->n_points; i++) {
        c->points[i].off[2] = c->points[i].off[1];
        c->points[i].off[1] = 0;
    }
    return CLS_SUCCESS;
}
