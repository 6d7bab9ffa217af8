/* exec.h: what a schedule's executor sees: the state it advances (its fields on the device or
 * on the host), the steps, the progress callback and the events that time the kernels.  No
 * model and no planner here: executors only run what the planner configured. */
#ifndef CLS_EXEC_H
#define CLS_EXEC_H

#include "internal.h"

#define CLS__MAX_AUX 16

/* A run's arrays between calls (the public cls_state).
 *
 * Fields: the state holds n_buf buffers of one grid each (buf on the device, hbuf in host
 * memory), and rot.at[f] is the buffer that holds field f (lib/rotation.c).  A single-field
 * stencil has two buffers: the field in buf[rot.at[0]] and its ping-pong partner in
 * buf[1 - rot.at[0]]; a schedule that runs one field swaps them by setting rot.at[0].  A
 * system has cls_stencil_num_fields fields and rot.n_bufs buffers; a schedule runs a step as
 *     cls__rotation_step_begin(&s->rot);
 *     for each stage g:
 *         cls__rotation_stage_begin(&s->rot, st, g);
 *         read field f from buf[rot.at[f]], write update k's field f to buf[rot.out[f]];
 *         cls__rotation_stage_end(&s->rot);
 *     cls__rotation_step_end(&s->rot, st);
 * so that time levels take their sources' buffers and nothing is copied.  The rotation is part
 * of the state: an advance continues where the last one stopped. */
struct cls_state {
    cls_context *ctx;
    int dims;                  /* the stencil's dimensionality */
    cls_dims size;
    cls_dtype dtype;
    size_t points, elem;
    int host;                  /* host-resident: the fields live in host memory (grids above
                                  the device's memory, run by a host schedule) */
    size_t n_fields;           /* 1 for a single-field stencil */
    size_t n_buf;              /* buffers the fields rotate through (2 for one field) */
    cl_mem buf[CLS__MAX_BUFS]; /* device buffers */
    int wrapped;               /* buf[0] is the caller's (cls_state_wrap): not released */
    void *hbuf[CLS__MAX_BUFS]; /* host buffers (host-resident states) */
    cls__rotation rot;         /* which buffer holds each field */
    size_t n_aux;
    int per_step[CLS__MAX_AUX]; /* holds one grid per step */
    size_t slices[CLS__MAX_AUX]; /* grids it holds (1 unless per-step) */
    cl_mem aux[CLS__MAX_AUX];
    void *haux[CLS__MAX_AUX];
    int aux_written[CLS__MAX_AUX];
    int written;               /* every field holds data */
    int field_written[CLS__MAX_FIELDS]; /* field f holds data */
    size_t step;               /* steps advanced since the field was written: the STEP of the
                                  next step (per-step arrays are read at that slice) */
    int allocated;             /* the buffers were created by the call that used them last */
};

/* One call of a schedule's run operation. */
typedef struct cls__exec {
    cls_context *ctx;
    const cls_stencil *st;
    cls_dims dims;
    size_t points, elem;
    void *config;              /* the schedule's configuration, built */
    size_t steps;              /* steps to advance */
    /* Device-resident schedules and host states: the state to advance (its step is the STEP
     * of the first step).  Host schedules without a state run from `input` (one array per
     * field) and `aux` into `output` (one per field; any may be an input's array), STEP from
     * 0. */
    cls_state *state;
    const void *const *input;
    const void *const *aux;
    void *const *output;
    int keep_buffers;          /* host schedules may keep their device buffers for the next run */
    /* progress: called with (done_before + done, total) */
    cls_progress_fn progress;
    void *progress_user;
    size_t done_before, total;
    /* out */
    cl_event first, last;      /* the first and the last kernel (last may stay NULL) */
    double kernel_seconds;     /* set by schedules that time their kernels themselves */
    int timed;                 /* ... and then 1 */
    int allocated;             /* this call allocated the buffers it ran on */
} cls__exec;

/* The event slot for launch i of n (the first and the last get events, the others NULL). */
cl_event *cls__exec_event(cls__exec *x, size_t i, size_t n);
/* Sets the state's auxiliary buffers as kernel arguments first, first+1, ... */
cls_status cls__exec_set_aux_args(cls__exec *x, cl_kernel k, cl_uint first);
/* Whether the progress callback is due after `done` of the call's steps (about 50 times per
 * call), and the call itself: after draining the queue, CLS_ERR_CANCELLED when it asks to
 * stop. */
int cls__exec_progress_due(const cls__exec *x, size_t done, size_t chunk_steps);
cls_status cls__exec_progress(cls__exec *x, size_t done);
/* Launch failures name the kernel and its geometry. */
cls_status cls__exec_launch(cls__exec *x, cl_kernel k, cl_uint work_dim, const size_t global[3],
                            const size_t local[3], cl_event *ev, const char *what);
/* One launch per step of kernel(in, out, aux..., step) over the state's two buffers. */
cls_status cls__exec_per_step(cls__exec *x, cl_kernel k, cl_uint work_dim,
                              const size_t global[3], const size_t local[3], const char *what);
/* A system: one launch per stage and step of kernels[g](fields..., outputs..., aux..., step),
 * the fields in the buffers the rotation gives them (above), the outputs in the free ones. */
cls_status cls__exec_stages(cls__exec *x, const cl_kernel *kernels, cl_uint work_dim,
                            const size_t global[3], const size_t local[3], const char *what);
/* The same with stage g's fields in the mask in_place[g] (cls__system_stage_in_place) updated
 * in place: the kernel writes them through their field argument, and their output argument
 * is NULL. */
cls_status cls__exec_stages_in_place(cls__exec *x, const cl_kernel *kernels,
                                     const unsigned *in_place, cl_uint work_dim,
                                     const size_t global[3], const size_t local[3],
                                     const char *what);
/* Two sets of a system's buffers for kernels that read every field from one set and write the
 * other (tiles of other work-groups still read the first): set[0][f] the state's buffer of
 * field f, set[1][f] one the rotation leaves free, allocated here (for `what`) when the state
 * holds fewer than two per field.  A kernel's pass leaves field f in set[1][f]. */
cls_status cls__exec_field_sets(cls__exec *x, int set[2][CLS__MAX_FIELDS], const char *what);
/* Device seconds from the start of `first` to the end of `last` (0 if unavailable). */
double cls__event_span(cl_event first, cl_event last);

#endif /* CLS_EXEC_H */
