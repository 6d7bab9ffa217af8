/* internal.h: structures and helpers shared by the library's own files (never installed). */
#ifndef CLS_INTERNAL_H
#define CLS_INTERNAL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "clstencil_tune.h"
#include "hash.h"

#define CLS__MAX_DIMS 3
#define CLS__NAME_MAX 64

/* ---------------------------------------------------------------- errors (lib/status.c) */
/* Records a formatted message as the thread's last error (and, when ctx is not NULL, as the
 * context's) and returns `st`, so failures read: return cls__fail(ctx, CLS_ERR_..., "...");
 * If `st` is an OpenCL code the message is prefixed by its CL_* name. */
cls_status cls__fail(cls_context *ctx, cls_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
cls_status cls__vfail(cls_context *ctx, cls_status st, const char *fmt, va_list ap);
/* Clears nothing: a successful call leaves the last error as it was (like errno). */

/* Goto-style checks with one cleanup label (as PoCL's POCL_GOTO_ERROR_ON). */
#define CLS__GOTO_FAIL(ctx, stvar, code, ...)                                                   \
    do {                                                                                       \
        (stvar) = cls__fail((ctx), (code), __VA_ARGS__);                                       \
        goto fail;                                                                             \
    } while (0)
#define CLS__CHECK_CL(ctx, stvar, err, what)                                                   \
    do {                                                                                       \
        cl_int cls__e = (err);                                                                 \
        if (cls__e != CL_SUCCESS) CLS__GOTO_FAIL(ctx, stvar, (cls_status)cls__e, "%s", what);  \
    } while (0)

/* One profiled command's device time (end - start, seconds; 0 when the clock did not move),
 * from a queue with CL_QUEUE_PROFILING_ENABLE; the OpenCL error when the times are unreadable.
 * (lib/exec.c) */
cl_int cls__event_seconds(cl_event ev, double *seconds);

/* A byte count for limit messages: "7.1 PiB", units of 1024 (lib/plan.c). */
const char *cls__bytes_text(char *buf, size_t n, double bytes);
/* The host's physical memory in bytes (0 when unknown): what host arrays can hold at most. */
double cls__host_memory_bytes(void);

/* Debug logging to stderr when CLSTENCIL_DEBUG is set (non-empty, not "0"). */
void cls__debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads a caller's options struct (its first member the `size` the caller compiled it with)
 * into dst, which holds the defaults: the fields the caller's size covers are copied, dst's
 * size stays the library's.  A size that no init function wrote is refused, naming `what`. */
cls_status cls__options_read(void *dst, size_t dst_size, const void *src, const char *what);

/* Small string helpers. */
char *cls__strdup(const char *s);
/* Appends formatted text to a growable buffer (*buf, *len, *cap); returns 0 or -1 (no mem). */
int cls__appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A double printed with %.17g (round-trips exactly) and a '.' decimal point in any locale. */
const char *cls__fmt_double(char buf[40], double v);
/* s in single quotes for a message: bytes outside printable ASCII, quotes and backslashes as
 * \xNN, at most 64 bytes of s (then "...").  Returns out; cap >= 8, CLS__QUOTE_MAX always fits. */
#define CLS__QUOTE_MAX 272
const char *cls__quote(char *out, size_t cap, const char *s);
/* Whether s is a name the library accepts for a stencil: [A-Za-z_][A-Za-z0-9_]*, 1 to
 * CLS__NAME_MAX - 1 characters (lib/stencil.c). */
int cls__valid_name(const char *s);
/* Monotonic seconds. */
double cls__now(void);
/* Sorts v ascending (timings: the minimum is v[0] afterwards). */
void cls__sort_doubles(double *v, size_t n);
/* Quantile q (0..1) of n > 0 sorted values, linearly interpolated between ranks. */
double cls__quantile(const double *sorted, size_t n, double q);
/* Sorts v and returns its median (the mean of the middle two for even n); n >= 1. */
double cls__median(double *v, size_t n);
/* cls__hash: 64-bit FNV-1a (model/hash.h). */

/* The largest side of an image (lib/image.c); also bounds placements such as the offsets of
 * cls_poisson_edit. */
#define CLS__IMAGE_MAX_SIDE 1048576L

/* SHA-256 (lib/sha256.c): init, update any number of times, final. */
typedef struct cls__sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t fill;
} cls__sha256;
void cls__sha256_init(cls__sha256 *s);
void cls__sha256_update(cls__sha256 *s, const void *data, size_t len);
void cls__sha256_final(cls__sha256 *s, unsigned char out[32]);
void cls__sha256_of(const void *data, size_t len, unsigned char out[32]);

/* ---------------------------------------------------------------- files (lib/file_write.c) */
/* Writes a then b to path through a temporary created exclusively beside it, then rename();
 * on failure path is as it was and the message names it. */
cls_status cls__write_file(const char *path, const void *a, size_t alen, const void *b,
                           size_t blen);
/* The steps, for writers that stream: creates "PATH.tmp-<random>" with O_EXCL|O_NOFOLLOW
 * (mode 0666 less the umask) and returns its fd (*tmp_path malloc'ed), or -1 with errno;
 * cls__write_all writes everything (0 or -1 with errno); cls__temp_commit syncs, closes and
 * renames (always consuming fd and tmp_path); cls__temp_discard closes and removes. */
int cls__temp_create(const char *path, char **tmp_path);
int cls__write_all(int fd, const void *data, size_t len);
cls_status cls__temp_commit(int fd, char *tmp_path, const char *path);
void cls__temp_discard(int fd, char *tmp_path);

/* ---------------------------------------------------------------- stencil spec (lib/stencil.c) */
typedef struct cls__point {
    int off[3];
    double coef;
} cls__point;

typedef struct cls__aux {
    char name[CLS__NAME_MAX];
    int per_step; /* holds `steps` grids; read at the current step's slice */
} cls__aux;

typedef struct cls__param {
    char name[CLS__NAME_MAX];
    double value;
} cls__param;

/* Systems of fields (lib/stencil_system.c): fields updated by an ordered list of stages per
 * time step.  A stencil with a body or points and no declared field is the single-field form
 * (one field "u", one stage); declaring a field makes it a system, whose updates each have a
 * body of their own. */
#define CLS__MAX_FIELDS 16
#define CLS__MAX_STAGES 16

typedef struct cls__sysfield {
    char name[CLS__NAME_MAX];
    char previous[CLS__NAME_MAX]; /* a time level: the field whose previous step it holds ("":
                                     an ordinary field, updated by the stages) */
} cls__sysfield;

typedef struct cls__update {
    int field;  /* index into the fields */
    char *body;
} cls__update;

typedef struct cls__stage {
    cls__update update[CLS__MAX_FIELDS];
    size_t n;
} cls__stage;

/* A built-in may regenerate its body/halo when a structural parameter (e.g. the moving
 * average's radius) changes. */
typedef cls_status (*cls__regen_fn)(cls_stencil *st);

struct cls_stencil {
    char name[CLS__NAME_MAX];
    char *description;
    int dims;
    cls_dtype dtype;
    int halo[3];
    int halo_explicit;        /* halo given by the user; else derived from the body */
    cls_boundary boundary;
    double boundary_value;
    /* The user's body, or the one generated from the points: built on first use after the
     * points change (cls__stencil_body), so adding n points costs O(n), not O(n^2).  Atomic,
     * since concurrent readers of one const stencil may build it at once (the first to store
     * wins). */
    char *_Atomic body;
    int body_from_points;
    cls__point *points;
    size_t n_points, cap_points;
    cls__aux *aux;
    size_t n_aux;
    cls__param *params;
    size_t n_params;
    cls__regen_fn regen;      /* built-ins only */
    /* A system (n_fields > 0; then body and points are unused). */
    cls__sysfield fields[CLS__MAX_FIELDS];
    size_t n_fields;
    cls__stage stages[CLS__MAX_STAGES];
    size_t n_stages;
    /* A 2D stencil lifted to the 3D grid NX x 1 x NY (cls__stencil_lift_2d): dims is 3, the
     * body is parsed as written (2D) and then lifted (cls__expr_lift_2d). */
    int lift_2d;
};

/* The body text: the user's, or the one generated from the points (equal coefficients grouped
 * as c * (IN(..) + ..), groups in the order their coefficients first appear: the common
 * sub-expressions of Mo & Li, Sect. 6.3), built in O(n) on first use.  NULL when there is none or when memory ran out (then *oom is set, if given). */
const char *cls__stencil_body(const cls_stencil *st, int *oom);
/* Parses the spec's body with its dims, dtype, aux arrays and parameters (lib/expr.h). */
struct cls_expr;
cls_status cls__stencil_parse(const cls_stencil *st, struct cls_expr **e);
/* A copy of the 2D stencil or system st as the 3D one of the grid NX x 1 x NY, which has
 * its memory layout: offsets (dx, dy) become (dx, 0, dy), Y and NY become Z and NZ, the halo
 * (hx, hy) becomes (hx, 0, hy) (lib/stencil_lift.c).  For schedules that stream along z; the
 * body stays the user's text, re-emitted only from its lifted tree. */
cls_status cls__stencil_lift_2d(const cls_stencil *st, cls_stencil **lifted);
/* Index of a parameter / aux array by name, -1 if absent. */
int cls__stencil_param_index(const cls_stencil *st, const char *name);
int cls__stencil_aux_index(const cls_stencil *st, const char *name);
/* The built-in systems' makers (lib/builtin_systems.c): fields, stages and parameters on a
 * stencil created without a body. */
cls_status cls__make_wave2d(cls_stencil *st);
cls_status cls__make_wave3d(cls_stencil *st);
cls_status cls__make_acoustic3d_r4(cls_stencil *st);
cls_status cls__make_gray_scott(cls_stencil *st);
cls_status cls__make_fdtd2d(cls_stencil *st);
cls_status cls__make_fdtd3d(cls_stencil *st);

/* Systems (lib/stencil_system.c).  Whether the stencil declares fields (a one-field stencil
 * with a body is not a system: every schedule runs it). */
int cls__stencil_is_system(const cls_stencil *st);
/* A system's field by name, -1 if absent; the field that time level f holds the previous step
 * of, -1 when f is an ordinary field (or the source is missing). */
int cls__stencil_field_index(const cls_stencil *st, const char *name);
int cls__stencil_previous(const cls_stencil *st, size_t f);
/* The time levels of field f in order (the field holding f's previous step, then that one's,
 * ...), at most max of them into chain; returns how many. */
size_t cls__stencil_levels(const cls_stencil *st, size_t f, int *chain, size_t max);
/* Parses update k of stage `stage` of a system; a failure names the stage and the field. */
cls_status cls__stencil_parse_update(const cls_stencil *st, size_t stage, size_t k,
                                     struct cls_expr **e);
/* A system's structure: stages, fields, time levels (no body parsed); then every update
 * parsed, and need[] the largest offset any update reads per dimension. */
cls_status cls__system_check(const cls_stencil *st, int need[3]);
/* Deep copies and frees of a system's update bodies (stencil copy and release). */
cls_status cls__system_copy(const cls_stencil *st, cls_stencil *c);
void cls__system_free(cls_stencil *st);
/* Bytes per point one step of a system moves at the least: per stage, every field it reads
 * and every field it writes, once; the auxiliary arrays once a step. */
double cls__system_min_bytes_per_point(const cls_stencil *st);
/* The largest offset stage `stage` of a system reads of any field, per dimension (its radius;
 * auxiliary arrays aside, which stay in global memory). */
cls_status cls__system_stage_reach(const cls_stencil *st, size_t stage, int reach[3]);
/* How far one step's values depend on the previous step's, per dimension: the halo of a
 * single-field stencil, the sum of the stages' radii of a system (a tile advanced one step in
 * local memory loses this much valid margin on each side). */
void cls__stencil_step_reach(const cls_stencil *st, int reach[3]);
/* The fields (bit f: field f) whose updates in stage `stage` may write in place, the stage's
 * result unchanged, into the buffer of field cls__system_in_place_into(f): f itself, read in
 * the stage only by its own update at offset 0 (f neither a time level nor a time level's
 * source); or, for the source of time levels, the oldest level, read in the step only by f's
 * update at offset 0, f updated in no other stage (lib/in_place.c). */
cls_status cls__system_stage_in_place(const cls_stencil *st, size_t stage, unsigned *fields);
/* The field whose buffer an in-place update of field f writes: f's oldest time level, or f. */
int cls__system_in_place_into(const cls_stencil *st, size_t f);
/* Sums and conjunctions over a system's updates (cls_stencil_flops, cls_stencil_is_exact). */
cls_status cls__system_flops(const cls_stencil *st, size_t *flops);
int cls__system_is_exact(const cls_stencil *st);

/* Which buffer holds each field while a system's steps run (lib/rotation.c), shared by the
 * host reference and the executors, so that no field's values are ever copied: within a stage
 * every update writes a free buffer while all reads see the stage's start; after the stage the
 * written buffers hold the fields; after the step each time level takes the buffer its source
 * held at the step's start.  A single-field stencil is the one-field case: two buffers in
 * turn.  Use: init once (at[f] = f), then per step: step_begin, per stage stage_begin (read
 * at[], write out[]) and stage_end, then step_end. */
#define CLS__MAX_BUFS (3 * CLS__MAX_FIELDS)
typedef struct cls__rotation {
    size_t n_fields;
    size_t n_bufs;               /* buffers a run needs: the most in use at any moment + 1 */
    int at[CLS__MAX_FIELDS];     /* the buffer holding each field */
    int start[CLS__MAX_FIELDS];  /* during a step: the buffer each field held at its start */
    int out[CLS__MAX_FIELDS];    /* during a stage: the buffer each updated field writes (-1:
                                    not updated by the stage) */
    int reserved;                /* buffers below this one are read, never written (0 after
                                    init; the pipeline's tiles keep their input boxes so) */
} cls__rotation;
void cls__rotation_init(cls__rotation *r, const cls_stencil *st);
void cls__rotation_step_begin(cls__rotation *r);
void cls__rotation_stage_begin(cls__rotation *r, const cls_stencil *st, size_t stage);
/* The same with the fields in the mask in_place (bit f: field f; cls__system_stage_in_place
 * says which may) written over their own buffer: out[f] = at[f]. */
void cls__rotation_stage_begin_in_place(cls__rotation *r, const cls_stencil *st, size_t stage,
                                        unsigned in_place);
void cls__rotation_stage_end(cls__rotation *r);
void cls__rotation_step_end(cls__rotation *r, const cls_stencil *st);

/* Validates the spec against grid sizes too (dims may be NULL to skip size checks). */
cls_status cls__stencil_check(const cls_stencil *st, const cls_dims *dims, size_t steps);

/* ---------------------------------------------------------------- devices (lib/device.c) */
/* Enumerates all devices; fills cl ids in parallel arrays (either may be NULL). */
cls_status cls__device_enumerate(cls_device_info **infos, cl_device_id **ids,
                                 cl_platform_id **platforms, size_t *count);
/* Applies a selector (see cls_device_select) to the enumeration; returns an index. */
cls_status cls__device_match(const char *selector, const cls_device_info *infos, size_t count,
                             size_t *index);
cls_status cls__device_query(cl_platform_id p, cl_device_id d, int pi, int di,
                             cls_device_info *info);
/* Whether the device's extension list names `ext` (a whole word). */
int cls__device_has_extension(cl_device_id d, const char *ext);

/* ---------------------------------------------------------------- context (lib/context.c) */
typedef struct cls__program_entry cls__program_entry;

struct cls_context {
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl;
    cl_command_queue queue;     /* in-order, profiling enabled */
    cls_device_info info;
    char *last_error;
    cls__program_entry *programs; /* in-memory program cache (lib/program.c) */
    cls_model *model;           /* the device's model (cls_model_match), matched on first use
                                   (cls__context_model); NULL until then */
    char model_why[512];        /* why that model */
    /* Ghost-zone profiles read or measured on this context (lib/schedules/trapezoid/profile.c), by
     * cache key, the oldest replaced first. */
    uint64_t profile_keys[8];
    cls_ghost_profile profiles[8];
    size_t n_profiles;
};

/* The context's device model, matched on first use and kept (lib/context.c); why it was
 * chosen. */
cls_status cls__context_model(cls_context *ctx, const cls_model **m);
const char *cls__context_model_why(const cls_context *ctx);

/* ---------------------------------------------------------------- programs (lib/program.c) */
/* Returns a built program for (source, options) on the context's device: from the in-memory
 * cache, else from the on-disk binary cache (validated), else built from source and stored.
 * The context owns the program (do not release it).  On a build failure returns
 * CLS_ERR_BUILD_FAILED with the build log in the message.  *from_cache (may be NULL) is set to
 * 1 for a disk-cache hit, 2 for an in-memory hit, 0 for a fresh build. */
cls_status cls__program_get(cls_context *ctx, const char *source, const char *options,
                            cl_program *program, int *from_cache);
void cls__program_cache_clear(cls_context *ctx);
/* clBuildProgram for one device with the process's stderr captured while the driver compiles
 * (lib/build_quiet.c): *chatter (may be NULL) gets what the driver printed there (malloc'd;
 * NULL when nothing), for the caller to show only where the user asked for build logs. */
cl_int cls__build_quiet(cl_program prog, cl_device_id device, const char *options, char **chatter);
/* The disk cache's size cap in bytes: CLSTENCIL_CACHE_MAX (a byte count with an optional K, M
 * or G suffix, powers of 1024), else 256 MiB (lib/cache_evict.c). */
uint64_t cls__cache_max(void);
/* Removes the least recently used entries (*.clbin, by modification time, which a hit
 * refreshes) of the cache folder until their sizes add up to at most `cap` bytes, and
 * temporaries that a crashed writer left behind. */
void cls__cache_evict(const char *dir, uint64_t cap);
/* Directory of the disk cache (NULL when disabled by CLSTENCIL_CACHE=off). Caller frees. */
char *cls__cache_dir(void);

/* ---------------------------------------------------------------- kernel sources (generated) */
/* Embedded cl/ files: returns the text of "naive.cl" etc., or NULL.  When the environment
 * variable CLSTENCIL_KERNEL_DIR is set, the file is read from there instead (development);
 * the returned string must then be freed: *owned is set to 1. */
const char *cls__kernel_source(const char *file, int *owned);

/* ---------------------------------------------------------------- code generation (lib/codegen.c) */
/* The update function's variants a template may call besides cls_update (boundary handled)
 * and cls_update_interior (direct reads), by where the state comes from. */
#define CLS__UPDATE_ROW 1u    /* cls_update_row: y and z folded once per row, x direct (row
                                 kernels' edge rows; CLS_NAIVE_ROWS readers); cls_update_end:
                                 x folded too, for a row's end points; cls_update_rel,
                                 cls_update_end_rel: the state read relative to the row
                                 (0, Y, Z), inner rows */
#define CLS__UPDATE_TILE 2u   /* cls_update_tile, cls_update_tile_interior: a local-memory tile
                                 whose first element is grid point (OX, OY, OZ) (CLS_TILE_X) */
#define CLS__UPDATE_WINDOW 4u /* cls_update_stream: a private window of planes (CLS_STREAM25D) */
#define CLS__UPDATE_BOX 8u    /* cls_update_box, cls_update_box_interior: state and auxiliary
                                 arrays hold boxes of the grid (CLS_BOX) */
#define CLS__UPDATE_SCRATCH 16u /* cls_update_scratch, _scratch_interior, _scratch_row: the state
                                   read relative to the point from a scratch box (CLS_CPUTILE),
                                   auxiliary arrays by the boundary rule, directly, or with y
                                   and z folded once per row */

/* Builds the OpenCL C source for a stencil: the common prelude (real type, boundary
 * functions, accessors), the update function's variants (parameters as constants), the
 * schedule's own defines (extra_defines, may be NULL) and its template.  *source is
 * malloc'ed.  A system takes variants == CLS__UPDATE_TILE: every stage on a local-memory
 * tile (CLS_NUM_FIELDS, CLS_FOR_FIELDS, CLS_FIELD_PREV, CLS_STAGE_FIELDS, CLS_TILE_BUFS and
 * cls_stage_tile; lib/codegen.c says what each holds), or variants with CLS__UPDATE_SCRATCH:
 * every stage in scratch boxes (the same structure, CLS_STAGE_REACH and per stage
 * CLS_CT_STAGE_<g>; lib/codegen.c, system_scratch); both with cl/system_rotation.cl. */
cls_status cls__codegen(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                        const char *template_file, const char *extra_defines, unsigned variants,
                        char **source, char **options);
/* The same for one stage of a system: the prelude, CLS_FIELD_PARAMS / CLS_FIELD_ARGS (every
 * field, read-only, in declaration order), CLS_STAGE_OUT_PARAMS / CLS_STAGE_OUT_ARGS (one
 * output per update of the stage, in its order, each with a leading comma, as the aux
 * arrays'), the update functions cls_update_<k> and cls_update_<k>_interior, and
 * cls_stage_point(fields, outputs, aux, X, Y, Z, STEP, inside), which computes every update
 * of the stage at one point from the stage's start and stores them (inside: the stencil lies
 * in the grid, reads need no boundary rule).  cls__codegen refuses a system. */
cls_status cls__codegen_stage(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                              size_t stage, const char *template_file,
                              const char *extra_defines, char **source, char **options);

#endif /* CLS_INTERNAL_H */
