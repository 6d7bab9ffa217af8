/* test_state.c: states on PoCL, bitwise against the host reference: a state advanced by a, then
 * b steps holds one run of a + b steps, for 1D, 2D and 3D stencils and every schedule (naive;
 * trapezoid with restart and barrier sync, split inside a stage; stream25d one step per pass
 * and fused, split inside a pass; host-resident states of grids above a device-memory cap,
 * split inside a pipeline sweep), and with several advances in a row; per-step auxiliary
 * arrays whose STEP continues across advances and whose end is enforced; OpenCL interop
 * (cls_state_wrap around a buffer of the library's context, cls_state_mem, a context made from
 * the test's own cl_context, the buffers refused); snapshots after every K steps; and misuse
 * (another grid, dtype or context, nothing written, a cancelled advance, NULL arguments). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_cl.h"
#include "tap.h"

/* The most steps any case runs: per-step arrays are written with this many slices. */
#define MAX_STEPS 16

static double value(size_t i, int k)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)((k + 3) * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double r = (h & 0xffff) / 65536.0;
    return k < 0 ? r : 0.01 * r; /* aux arrays: small sources and weights */
}

/* A stencil on a grid with its input and auxiliary arrays (per-step ones with MAX_STEPS
 * slices). */
typedef struct grid {
    const char *name;
    cls_stencil *st;
    cls_dims dims;
    size_t n, elem, na;
    void *in, *aux[4];
    size_t slices[4];
} grid;

static void fill(void *buf, size_t elem, size_t n, int k)
{
    for (size_t i = 0; i < n; i++) {
        double v = value(i, k);
        if (elem == 8)
            ((double *)buf)[i] = v;
        else
            ((float *)buf)[i] = (float)v;
    }
}

static int grid_make(grid *g, const char *name, cls_dims dims, cls_dtype dt)
{
    memset(g, 0, sizeof *g);
    g->name = name;
    g->dims = dims;
    if (cls_stencil_builtin(name, &g->st) != CLS_SUCCESS ||
        cls_stencil_set_dtype(g->st, dt) != CLS_SUCCESS)
        return 0;
    g->n = cls_dims_points(dims);
    g->elem = cls_dtype_size(dt);
    g->na = cls_stencil_num_aux(g->st);
    if (!(g->in = malloc(g->n * g->elem))) return 0;
    fill(g->in, g->elem, g->n, -1);
    for (size_t k = 0; k < g->na; k++) {
        g->slices[k] = cls_stencil_aux_per_step(g->st, k) ? MAX_STEPS : 1;
        if (!(g->aux[k] = malloc(g->slices[k] * g->n * g->elem))) return 0;
        fill(g->aux[k], g->elem, g->slices[k] * g->n, (int)k);
    }
    return 1;
}

static void grid_free(grid *g)
{
    free(g->in);
    for (size_t k = 0; k < g->na; k++) free(g->aux[k]);
    cls_stencil_release(g->st);
}

/* The reference after `steps` steps from the grid's input (malloc'ed; NULL on failure). */
static void *reference(const grid *g, size_t steps)
{
    void *out = malloc(g->n * g->elem);
    if (out && cls_reference_run(g->st, g->dims, steps, g->in, (const void *const *)g->aux,
                                 out) != CLS_SUCCESS) {
        tap_diag("reference: %s", cls_last_error());
        free(out);
        return NULL;
    }
    return out;
}

/* Whether the state holds the reference of `steps` steps, bit for bit. */
static int holds(const grid *g, const cls_state *s, size_t steps)
{
    void *ref = reference(g, steps), *got = malloc(g->n * g->elem);
    int ok = ref && got && cls_state_read(s, got) == CLS_SUCCESS &&
             memcmp(got, ref, g->n * g->elem) == 0;
    free(ref);
    free(got);
    return ok;
}

/* A plan of `steps` steps with the parameters and the device-memory cap (0: none). */
static cls_plan *plan_of(cls_context *ctx, const grid *g, size_t steps, cls_schedule sched,
                         const char *params, double cap)
{
    cls_plan_options opt;
    cls_plan *plan = NULL;
    cls_plan_options_init(&opt);
    opt.schedule = sched;
    opt.params = params;
    opt.device_memory = cap;
    if (cls_plan_create(ctx, g->st, g->dims, steps, &opt, &plan) != CLS_SUCCESS) {
        tap_diag("plan %s (%s): %s", g->name, params ? params : "", cls_last_error());
        return NULL;
    }
    return plan;
}

/* A state of the plan holding the grid's input and auxiliary arrays (NULL on failure). */
static cls_state *state_of(cls_plan *plan, const grid *g)
{
    cls_state *s = NULL;
    int ok = cls_state_create(plan, &s) == CLS_SUCCESS && cls_state_write(s, g->in) == CLS_SUCCESS;
    for (size_t k = 0; ok && k < g->na; k++)
        ok = cls_state_write_aux(s, k, g->aux[k], g->slices[k]) == CLS_SUCCESS;
    if (!ok) {
        tap_diag("state of %s: %s", g->name, cls_last_error());
        cls_state_release(s);
        return NULL;
    }
    return s;
}

/* Advances a state of the plan by each count of `by` (0-terminated) in turn; checks the step
 * count and that the field is the reference of their sum. */
static void check_split(cls_plan *plan, const grid *g, const size_t *by, const char *what)
{
    char counts[64] = "";
    size_t total = 0, len = 0;
    cls_status s = CLS_SUCCESS;
    cls_state *st = plan ? state_of(plan, g) : NULL;
    for (size_t i = 0; by[i] && st && s == CLS_SUCCESS; i++) {
        s = cls_plan_advance(plan, st, by[i], NULL);
        total += by[i];
        len += (size_t)snprintf(counts + len, sizeof counts - len, "%s%zu", i ? " + " : "", by[i]);
    }
    tap_ok(st && s == CLS_SUCCESS && cls_state_step(st) == total && holds(g, st, total),
           "%s %s: advanced by %s steps == the reference of %zu%s%s", g->name, what, counts, total,
           s == CLS_SUCCESS ? "" : ": ", s == CLS_SUCCESS ? "" : cls_last_error());
    cls_state_release(st);
}

/* Reads after every K steps equal the reference of K, 2K, ... steps. */
static void check_snapshots(cls_plan *plan, const grid *g, size_t k, size_t count,
                            const char *what)
{
    cls_state *st = plan ? state_of(plan, g) : NULL;
    size_t good = 0;
    for (size_t i = 1; st && i <= count; i++)
        if (cls_plan_advance(plan, st, k, NULL) == CLS_SUCCESS && holds(g, st, i * k)) good++;
    tap_ok(good == count, "%s %s: snapshots after every %zu steps == the reference (%zu of %zu)",
           g->name, what, k, good, count);
    cls_state_release(st);
}

static int refused(cls_status s, cls_status want, const char *needle)
{
    return s == want && strstr(cls_last_error(), needle) != NULL;
}

/* ---------------------------------------------------------------- per-step arrays */
static void per_step(cls_plan *plan, const grid *g, const char *what)
{
    const size_t one = 7, two = 9;
    /* STEP continues across advances: two advances read slices 0..6, then 7..15. */
    cls_state *st = plan ? state_of(plan, g) : NULL;
    cls_status s = st ? cls_plan_advance(plan, st, one, NULL) : CLS_ERR_INVALID_ARGUMENT;
    if (s == CLS_SUCCESS) s = cls_plan_advance(plan, st, two, NULL);
    tap_ok(s == CLS_SUCCESS && cls_state_step(st) == MAX_STEPS && holds(g, st, MAX_STEPS),
           "%s %s: the per-step array's slices follow STEP across advances (%zu + %zu of %d)",
           g->name, what, one, two, MAX_STEPS);
    /* Past the last slice: refused, the field kept. */
    s = st ? cls_plan_advance(plan, st, 1, NULL) : CLS_ERR_INVALID_ARGUMENT;
    tap_ok(refused(s, CLS_ERR_INVALID_ARGUMENT, "holds 16 steps") && holds(g, st, MAX_STEPS),
           "%s %s: advancing past the per-step array's slices is refused, the field kept: %s",
           g->name, what, cls_last_error());
    /* A field written as the reference of 5 steps, at step 5, continues from slice 5. */
    void *five = reference(g, 5);
    s = st && five ? cls_state_write(st, five) : CLS_ERR_INVALID_ARGUMENT;
    if (s == CLS_SUCCESS) s = cls_state_step(st) == 0 ? CLS_SUCCESS : CLS_ERR_INTERNAL;
    if (s == CLS_SUCCESS) s = cls_state_set_step(st, 5);
    if (s == CLS_SUCCESS) s = cls_plan_advance(plan, st, 6, NULL);
    tap_ok(s == CLS_SUCCESS && cls_state_step(st) == 11 && holds(g, st, 11),
           "%s %s: a field written at step 0, set to step 5 and advanced 6 == the reference of 11",
           g->name, what);
    free(five);
    cls_state_release(st);
}

/* ---------------------------------------------------------------- OpenCL interop */
/* A buffer of `c` holding `bytes` of `data` (written through a queue of the test's own). */
static cl_mem buffer_with(cl_context c, cl_device_id dev, const void *data, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) return NULL;
    cl_command_queue q = clCreateCommandQueue(c, dev, 0, &err);
    if (err == CL_SUCCESS && data)
        err = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
    if (q) clReleaseCommandQueue(q);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* Reads the state's buffer (cls_state_mem) through a queue of the test's own. */
static int mem_holds(cls_context *ctx, const grid *g, const cls_state *s, size_t steps)
{
    cl_context c = NULL;
    cl_device_id dev = NULL;
    cl_mem m = NULL;
    cl_int err = CL_INVALID_VALUE;
    void *got = malloc(g->n * g->elem), *ref = reference(g, steps);
    if (got && ref && cls_context_cl(ctx, &c, &dev, NULL) == CLS_SUCCESS &&
        cls_state_mem(s, &m) == CLS_SUCCESS) {
        cl_command_queue q = clCreateCommandQueue(c, dev, 0, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(q, m, CL_TRUE, 0, g->n * g->elem, got, 0, NULL, NULL);
        if (q) clReleaseCommandQueue(q);
    }
    int ok = err == CL_SUCCESS && memcmp(got, ref, g->n * g->elem) == 0;
    free(got);
    free(ref);
    return ok;
}

/* A state around a buffer of the plan's context: taken as written, advanced, handed back. */
static void wrapped(cls_context *ctx, cls_plan *plan, const grid *g, const char *what)
{
    cl_context c = NULL;
    cl_device_id dev = NULL;
    cls_state *s = NULL;
    cls_status st = plan ? cls_context_cl(ctx, &c, &dev, NULL) : CLS_ERR_INVALID_ARGUMENT;
    cl_mem m = st == CLS_SUCCESS ? buffer_with(c, dev, g->in, g->n * g->elem) : NULL;
    if (m) st = cls_state_wrap(plan, m, &s);
    for (size_t k = 0; st == CLS_SUCCESS && k < g->na; k++)
        st = cls_state_write_aux(s, k, g->aux[k], g->slices[k]);
    int at0 = st == CLS_SUCCESS && cls_state_step(s) == 0 && holds(g, s, 0);
    if (st == CLS_SUCCESS) st = cls_plan_advance(plan, s, 2, NULL);
    if (st == CLS_SUCCESS) st = cls_plan_advance(plan, s, 3, NULL);
    tap_ok(m && st == CLS_SUCCESS && at0 && mem_holds(ctx, g, s, 5),
           "%s %s: a state wrapped around the caller's buffer holds its data at step 0; "
           "advanced 2 + 3, cls_state_mem's buffer holds the reference of 5%s%s",
           g->name, what, st == CLS_SUCCESS ? "" : ": ", st == CLS_SUCCESS ? "" : cls_last_error());
    cls_state_release(s);
    /* the library retained the buffer and let it go: the caller's reference still works */
    size_t size = 0;
    tap_ok(m && clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL) == CL_SUCCESS &&
               size == g->n * g->elem && clReleaseMemObject(m) == CL_SUCCESS,
           "%s: the caller's buffer outlives the state", g->name);
}

/* A context made from the test's own cl_context: its buffers wrap, others' are refused. */
static void own_context(cls_context *lib, const grid *g, const char *params)
{
    cl_device_id dev = NULL;
    cl_int err = CL_INVALID_VALUE;
    cl_context mine = NULL, got = NULL;
    cls_context *ctx = NULL;
    cls_plan *plan = NULL, *lib_plan = NULL;
    cls_state *s = NULL;
    cls_status st = cls_context_cl(lib, NULL, &dev, NULL);
    if (st == CLS_SUCCESS) mine = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err == CL_SUCCESS) st = cls_context_create_from_cl(mine, dev, &ctx);
    int same = ctx && cls_context_cl(ctx, &got, NULL, NULL) == CLS_SUCCESS && got == mine;
    tap_ok(err == CL_SUCCESS && st == CLS_SUCCESS && same,
           "cls_context_create_from_cl on the test's own cl_context (cls_context_cl gives it "
           "back)%s%s",
           st == CLS_SUCCESS ? "" : ": ", st == CLS_SUCCESS ? "" : cls_last_error());
    if (!same) {
        cls_context_release(ctx);
        if (mine) clReleaseContext(mine);
        return;
    }
    plan = plan_of(ctx, g, 7, CLS_SCHEDULE_STREAM25D, params, 0);
    cl_mem m = buffer_with(mine, dev, g->in, g->n * g->elem);
    st = plan && m ? cls_state_wrap(plan, m, &s) : CLS_ERR_INVALID_ARGUMENT;
    if (st == CLS_SUCCESS) st = cls_plan_advance(plan, s, 2, NULL);
    if (st == CLS_SUCCESS) st = cls_plan_advance(plan, s, 5, NULL);
    tap_ok(st == CLS_SUCCESS && mem_holds(ctx, g, s, 7),
           "%s stream25d (%s) on that context: the test's buffer wrapped, advanced 2 + 5 == the "
           "reference of 7%s%s",
           g->name, params, st == CLS_SUCCESS ? "" : ": ",
           st == CLS_SUCCESS ? "" : cls_last_error());
    /* its states are no state of the library's own context's plans */
    lib_plan = plan_of(lib, g, 7, CLS_SCHEDULE_STREAM25D, params, 0);
    st = lib_plan && s ? cls_plan_advance(lib_plan, s, 1, NULL) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "another context"),
           "a state of another context is refused: %s", cls_last_error());
    cls_state_release(s);
    s = NULL;
    /* buffers: of another context, too small */
    st = lib_plan && m ? cls_state_wrap(lib_plan, m, &s) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "another OpenCL context") && !s,
           "wrapping a buffer of another cl_context is refused: %s", cls_last_error());
    cl_mem small = buffer_with(mine, dev, NULL, g->n * g->elem - 1);
    st = small ? cls_state_wrap(plan, small, &s) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "holds") && !s,
           "wrapping a buffer smaller than the grid is refused: %s", cls_last_error());
    if (small) clReleaseMemObject(small);
    if (m) clReleaseMemObject(m);
    cls_plan_release(lib_plan);
    cls_plan_release(plan);
    cls_context_release(ctx);
    /* the library retained the context and let it go again */
    tap_ok(clReleaseContext(mine) == CL_SUCCESS, "the test's cl_context outlives the library's");
}

/* ---------------------------------------------------------------- misuse */
static int cancel_at_once(size_t done, size_t total, void *user)
{
    (void)done, (void)total, (void)user;
    return 1;
}

static void misuse(cls_plan *one_d, const grid *g1, cls_plan *one_d_double, cls_plan *two_d,
                   const grid *g2)
{
    cls_state *s = one_d ? state_of(one_d, g1) : NULL;
    void *buf = malloc(g2->n * g2->elem);
    cls_status st;
    /* another grid, another dtype */
    st = s && two_d ? cls_plan_advance(two_d, s, 1, NULL) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "the state holds a 1D") && holds(g1, s, 0),
           "a state of another grid is refused, its field kept: %s", cls_last_error());
    if (one_d_double) {
        st = s ? cls_plan_advance(one_d_double, s, 1, NULL) : CLS_ERR_INTERNAL;
        tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "float grid") && holds(g1, s, 0),
               "a state of another dtype is refused: %s", cls_last_error());
    } else {
        tap_skip("a state of another dtype", "no double precision on this device");
    }
    cls_state_release(s);
    s = NULL;

    /* nothing written yet: the field, then an auxiliary array */
    st = two_d ? cls_state_create(two_d, &s) : CLS_ERR_INTERNAL;
    if (st == CLS_SUCCESS) st = cls_plan_advance(two_d, s, 1, NULL);
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "no field"),
           "advancing an unwritten state is refused: %s", cls_last_error());
    st = s && buf ? cls_state_read(s, buf) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "no field"),
           "reading an unwritten state is refused: %s", cls_last_error());
    st = s ? cls_state_write(s, g2->in) : CLS_ERR_INTERNAL;
    if (st == CLS_SUCCESS) st = cls_plan_advance(two_d, s, 1, NULL);
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "never written"),
           "advancing with an unwritten auxiliary array is refused: %s", cls_last_error());
    st = s ? cls_state_write_aux(s, g2->na, g2->aux[0], 1) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_INVALID_ARGUMENT, "auxiliary arrays"),
           "an auxiliary array past the stencil's is refused: %s", cls_last_error());
    cls_state_release(s);
    s = NULL;

    /* a cancelled advance leaves no field; writing it again recovers the state */
    s = two_d ? state_of(two_d, g2) : NULL;
    cls_plan_set_progress(two_d, cancel_at_once, NULL);
    st = s ? cls_plan_advance(two_d, s, 6, NULL) : CLS_ERR_INTERNAL;
    cls_plan_set_progress(two_d, NULL, NULL);
    cls_status rd = s && buf ? cls_state_read(s, buf) : CLS_ERR_INTERNAL;
    cls_status again = s ? cls_plan_advance(two_d, s, 1, NULL) : CLS_ERR_INTERNAL;
    tap_ok(st == CLS_ERR_CANCELLED && refused(rd, CLS_ERR_INVALID_ARGUMENT, "no field") &&
               refused(again, CLS_ERR_INVALID_ARGUMENT, "no field"),
           "a cancelled advance leaves the state unreadable and unadvanceable (%s)",
           cls_status_string(st));
    st = s ? cls_state_write(s, g2->in) : CLS_ERR_INTERNAL;
    if (st == CLS_SUCCESS) st = cls_plan_advance(two_d, s, 6, NULL);
    tap_ok(st == CLS_SUCCESS && holds(g2, s, 6),
           "written again, it advances to the reference (%s)", cls_status_string(st));

    /* NULL arguments */
    cls_state *none = NULL;
    cl_mem m = NULL;
    int ok = cls_state_create(NULL, &none) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_create(two_d, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_write(NULL, g2->in) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_write(s, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_write_aux(NULL, 0, g2->aux[0], 1) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_write_aux(s, 0, NULL, 1) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_read(NULL, buf) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_read(s, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_set_step(NULL, 1) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_step(NULL) == 0 &&
             cls_plan_advance(NULL, s, 1, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_plan_advance(two_d, NULL, 1, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_wrap(two_d, NULL, &none) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_mem(NULL, &m) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_mem(s, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_context_create_from_cl(NULL, NULL, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_context_cl(NULL, NULL, NULL, NULL) == CLS_ERR_INVALID_ARGUMENT &&
             cls_state_set_step(s, (size_t)1 << 31) == CLS_ERR_INVALID_ARGUMENT;
    cls_state_release(NULL);
    tap_ok(ok && holds(g2, s, 6), "NULL arguments and a step past 2^31-1 are refused, the state "
                                  "kept; cls_state_release(NULL) is accepted");
    cls_state_release(s);
    free(buf);
}

/* ---------------------------------------------------------------- host-resident states */
static void host_resident(cls_plan *plan, const grid *g, const char *what)
{
    cls_plan_info info;
    int host = plan && cls_plan_describe(plan, &info) == CLS_SUCCESS &&
               info.schedule == CLS_SCHEDULE_AUTO && info.host_schedule == CLS_SCHEDULE_PIPELINE;
    tap_ok(host, "%s %s: the grid is above the cap, the plan has only the pipeline (%s)", g->name,
           what, plan ? info.host_why : cls_last_error());
    check_split(plan, g, (const size_t[]){4, 5, 0}, what);
    check_split(plan, g, (const size_t[]){1, 2, 3, 2, 1, 0}, what);
    /* no device buffer to hand out or wrap */
    cls_state *s = plan ? state_of(plan, g) : NULL;
    cl_mem m = NULL;
    cls_status st = s ? cls_state_mem(s, &m) : CLS_ERR_INTERNAL;
    tap_ok(refused(st, CLS_ERR_UNSUPPORTED, "host memory") && !m,
           "%s %s: cls_state_mem of a host-resident state is refused: %s", g->name, what,
           cls_last_error());
    cls_state_release(s);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("states", "no OpenCL device");
        return tap_done();
    }
    cls_device_info dev;
    cls_context_device(ctx, &dev);
    const cls_dims d1 = {{97, 1, 1}}, d2 = {{37, 29, 1}}, d3 = {{19, 13, 11}};
    grid path, path64, poisson, hotspot, heat, jacobi;
    int ready = grid_make(&path, "pathfinder", d1, CLS_FLOAT32) &&
                grid_make(&path64, "pathfinder", d1, CLS_FLOAT64) &&
                grid_make(&poisson, "poisson2d", d2, CLS_FLOAT32) &&
                grid_make(&hotspot, "hotspot", d2, CLS_FLOAT32) &&
                grid_make(&heat, "heat3d7", d3, CLS_FLOAT32) &&
                grid_make(&jacobi, "jacobi3d", d3, CLS_FLOAT32);
    if (!tap_ok(ready, "grids (%s)", ready ? "ok" : cls_last_error())) return tap_done();

    /* naive: 1D with a per-step array (float and double), 2D with an auxiliary array */
    cls_plan *naive1 = plan_of(ctx, &path, 7, CLS_SCHEDULE_NAIVE, NULL, 0);
    cls_plan *naive1d = dev.double_support
                            ? plan_of(ctx, &path64, 7, CLS_SCHEDULE_NAIVE, NULL, 0)
                            : NULL;
    cls_plan *naive2 = plan_of(ctx, &poisson, 5, CLS_SCHEDULE_NAIVE, NULL, 0);
    check_split(naive1, &path, (const size_t[]){3, 4, 0}, "naive");
    check_split(naive1, &path, (const size_t[]){1, 2, 1, 3, 0}, "naive");
    if (dev.double_support)
        check_split(naive1d, &path64, (const size_t[]){2, 5, 0}, "naive, double");
    else
        tap_skip("pathfinder naive, double", "no double precision on this device");
    check_split(naive2, &poisson, (const size_t[]){2, 3, 0}, "naive");
    per_step(naive1, &path, "naive");

    /* trapezoid, h = 3: 9 steps split after 4 (inside the second stage); the per-step array
     * read at STEP inside a stage that spans two advances */
    cls_plan *trap_r = plan_of(ctx, &path, 9, CLS_SCHEDULE_TRAPEZOID,
                               "trapezoid.tile=32x1x1 trapezoid.height=3 "
                               "trapezoid.sync=restart",
                               0);
    cls_plan *trap_b = plan_of(ctx, &poisson, 9, CLS_SCHEDULE_TRAPEZOID,
                               "trapezoid.tile=16x8x1 trapezoid.height=3 "
                               "trapezoid.sync=barrier",
                               0);
    check_split(trap_r, &path, (const size_t[]){4, 5, 0}, "trapezoid h 3 restart");
    check_split(trap_r, &path, (const size_t[]){1, 1, 4, 2, 1, 0}, "trapezoid h 3 restart");
    check_split(trap_b, &poisson, (const size_t[]){4, 5, 0}, "trapezoid h 3 barrier");
    per_step(trap_r, &path, "trapezoid h 3 restart");
    check_snapshots(trap_r, &path, 2, 4, "trapezoid h 3 restart");
    /* any plan of the same stencil and grid advances the state */
    {
        cls_state *s = trap_b ? state_of(trap_b, &poisson) : NULL;
        cls_status st = s ? cls_plan_advance(trap_b, s, 4, NULL) : CLS_ERR_INTERNAL;
        if (st == CLS_SUCCESS && naive2) st = cls_plan_advance(naive2, s, 5, NULL);
        tap_ok(st == CLS_SUCCESS && holds(&poisson, s, 9),
               "poisson2d: 4 steps with the trapezoid, then 5 with the naive plan == the "
               "reference of 9");
        cls_state_release(s);
    }

    /* stream25d: one step per pass, fused k = 3 split after 2 (inside a pass), k = 2 */
    cls_plan *s25_1 = plan_of(ctx, &heat, 5, CLS_SCHEDULE_STREAM25D,
                              "stream25d.steps_per_pass=1", 0);
    const char *fused3 = "stream25d.loader=classic stream25d.tile=16x8 stream25d.steps_per_pass=3";
    cls_plan *s25_3 = plan_of(ctx, &heat, 7, CLS_SCHEDULE_STREAM25D, fused3, 0);
    cls_plan *s25_2 = plan_of(ctx, &jacobi, 7, CLS_SCHEDULE_STREAM25D,
                              "stream25d.loader=aligned stream25d.tile=16x8 "
                              "stream25d.steps_per_pass=2",
                              0);
    check_split(s25_1, &heat, (const size_t[]){2, 3, 0}, "stream25d one step per pass");
    check_split(s25_3, &heat, (const size_t[]){2, 5, 0}, "stream25d 3 steps per pass");
    check_split(s25_3, &heat, (const size_t[]){2, 2, 1, 4, 0}, "stream25d 3 steps per pass");
    check_split(s25_2, &jacobi, (const size_t[]){3, 4, 0}, "stream25d 2 steps per pass");
    check_snapshots(s25_3, &heat, 2, 4, "stream25d 3 steps per pass");

    /* host-resident: above a device-memory cap, the pipeline runs the state tile by tile, 3
     * steps per sweep (split after 4: inside the second sweep) */
    cls_plan *pipe3 = plan_of(ctx, &jacobi, 9, CLS_SCHEDULE_AUTO, "pipeline.steps=3", 16000);
    cls_plan *pipe2 = plan_of(ctx, &hotspot, 9, CLS_SCHEDULE_AUTO, "pipeline.steps=3", 10000);
    host_resident(pipe3, &jacobi, "pipeline (3 steps per sweep)");
    host_resident(pipe2, &hotspot, "pipeline (3 steps per sweep)");
    check_snapshots(pipe3, &jacobi, 2, 4, "pipeline (3 steps per sweep)");
    {
        cls_state *s = NULL;
        cl_context c = NULL;
        cl_device_id d = NULL;
        cls_context_cl(ctx, &c, &d, NULL);
        cl_mem m = buffer_with(c, d, jacobi.in, jacobi.n * jacobi.elem);
        cls_status st = pipe3 && m ? cls_state_wrap(pipe3, m, &s) : CLS_ERR_INTERNAL;
        tap_ok(refused(st, CLS_ERR_UNSUPPORTED, "no device-resident") && !s,
               "wrapping a buffer for a plan without a resident configuration is refused: %s",
               cls_last_error());
        if (m) clReleaseMemObject(m);
    }

    /* OpenCL interop */
    wrapped(ctx, naive2, &poisson, "naive");
    wrapped(ctx, trap_r, &path, "trapezoid h 3 restart");
    own_context(ctx, &heat, fused3);

    misuse(naive1, &path, naive1d, naive2, &poisson);

    cls_plan *plans[] = {naive1, naive1d, naive2, trap_r, trap_b,
                         s25_1,  s25_3,   s25_2,  pipe3,  pipe2};
    for (size_t i = 0; i < sizeof plans / sizeof *plans; i++) cls_plan_release(plans[i]);
    grid *grids[] = {&path, &path64, &poisson, &hotspot, &heat, &jacobi};
    for (size_t i = 0; i < sizeof grids / sizeof *grids; i++) grid_free(grids[i]);
    cls_context_release(ctx);
    return tap_done();
}
