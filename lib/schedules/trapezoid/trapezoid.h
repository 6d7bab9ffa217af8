/* trapezoid.h: the trapezoid schedule's configuration, shared by its planner and its executor.
 * Meng & Skadron 2010: tiles of the grid with a ghost zone of h x halo are loaded into local
 * memory and advanced h steps there (a trapezoid in time), stages joined by kernel restarts or
 * an in-kernel global barrier. */
#ifndef CLS_TRAPEZOID_H
#define CLS_TRAPEZOID_H

#include "exec.h"

/* Stage synchronisation (Sect. 4.5); the values are the public cls_sync's. */
enum { CLS__TRAP_RESTART = 1, CLS__TRAP_BARRIER = 2 };

typedef struct cls__trap_config {
    size_t tile[3]; /* the tile, ghost zone included (1 beyond the stencil's dimensions) */
    size_t ppi;     /* points per work-item along the slowest axis */
    size_t h;       /* steps per stage */
    int sync;       /* CLS__TRAP_RESTART or CLS__TRAP_BARRIER */
} cls__trap_config;

typedef struct cls__trapezoid {
    cls__trap_config c;
    int all_given;        /* every choice came from the caller */
    /* built */
    cl_program program;
    cl_kernel kernel;
    int from_cache;
    double build_seconds;
    size_t local[3], global[3];
    size_t tiles;         /* tiles per stage of height h */
    size_t groups;        /* the persistent kernel's resident work-groups (0 with restarts) */
    size_t halo[3];       /* the valid margin a tile loses per step: the halo, or for a system
                             the sum of its stages' radii */
    size_t compute_units;
} cls__trapezoid;

/* Sets the stage height of a built configuration (the program takes h as an argument); h
 * must leave an inner block. */
void cls__trapezoid_set_height(cls__trapezoid *t, cls_dims dims, int sdims, size_t h);


/* The operations the planner's table points at (exec.c, access.c). */
typedef struct cls__access_request cls__access_request;
typedef struct cls__access_out cls__access_out;
cls_status cls__trapezoid_run(cls__exec *x);
cls_status cls__trapezoid_publish_access(const cls__access_request *a, const void *own,
                                  cls__access_out *out);

#endif /* CLS_TRAPEZOID_H */
