/* access_publish.h: the kernel templates publish their own access descriptions
 * (doc/memory-analysis.md): the core reads the body's offsets and sizes the analysed grid
 * (lib/access_publish.c), each schedule writes the variants its template can run. */
#ifndef CLS_ACCESS_PUBLISH_H
#define CLS_ACCESS_PUBLISH_H

#include "schedule.h"

#define CLS__ACCESS_MAX_OFFS 343 /* radius 3 in three dimensions */

struct cls__access_request {
    const cls_stencil *st;
    cls_dims dims;                   /* the plan's sizes */
    /* the state's reads IN(dx, dy, dz) as the generator emits the body (offsets folded) */
    int off[CLS__ACCESS_MAX_OFFS][3];
    size_t n;
    int r[3];                        /* radii */
    int corners;                     /* a read off both axes in the plane */
    /* the analysed grid: the pitch kept, rows and planes reduced (Kim & Shrivastava Sect. 7) */
    size_t nx, ny, nz;
    unsigned elem;
};

struct cls__access_out {
    char *b;
    size_t len, cap;
    int n;                           /* variants written */
};

/* Appends formatted text; -1 when out of memory. */
int cls__access_printf(cls__access_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Starts a variant: the comma between variants. */
int cls__access_next(cls__access_out *o);
/* The state's reads at point C (a let) as global references; with in_plane only the distinct
 * in-plane offsets. */
int cls__access_reads(cls__access_out *o, const cls__access_request *a, int in_plane);
size_t cls__access_round_up(size_t a, size_t b);
/* The whole description of a schedule's variants for st at dims (own: its configuration
 * alone).  *json is malloc'ed; fails with a message through cls__fail. */
cls_status cls__access_publish(const cls_stencil *st, cls_dims dims,
                               const cls__schedule_ops *ops, const void *own, char **json);

#endif /* CLS_ACCESS_PUBLISH_H */
