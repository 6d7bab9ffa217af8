/* test_faults.c: OpenCL fault injection (tests/ocl_shim.c) over every schedule.
 *
 * For each scenario (a context, pinned host memory, each schedule's plan created and run,
 * device-resident and pinned states advanced in two calls, the caller's own cl_context and
 * cl_mem, the chaotic solver, a program built from source and one whose every build fails) and
 * each OpenCL entry point the library calls, the N-th call of that entry point fails, for
 * N = 1, 2, ... until the scenario no longer makes N calls.  Every run must then either
 *   - fail with a cls_last_error() text that names the OpenCL error (the shim's
 *     CL_OUT_OF_RESOURCES) and says what the library was doing, leaving the caller's input
 *     untouched, and its output too (it holds a sentinel) unless the run pipelines
 *     (cls_plan_run streams a pipelined run's finished tiles into the output), or
 *   - succeed (the library recovered, e.g. rebuilt a program the disk cache could not give)
 *     with the fault-free run's output,
 * and in both cases every OpenCL object the scenario created is released once the plan and the
 * context are (the shim counts creates, retains and releases of each kind; leak suppressions
 * cover all of PoCL and would hide such leaks).
 *
 * Releases are never failed (shim_entry_can_fail): they are checked through the balance.
 * `test_faults --list` prints the entry points the shim covers (test_faults_cover.sh compares
 * them with the library's undefined OpenCL symbols). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_cl.h"
#include "clstencil_solver.h"
#include "ocl_shim.h"
#include "tap.h"

#define SENTINEL 0xA5

typedef enum scen_kind {
    SCEN_CONTEXT,
    SCEN_HOST_ALLOC,
    SCEN_PLAN,
    SCEN_STATE,   /* a device-resident state: written, advanced in two calls, read */
    SCEN_INTEROP, /* the caller's cl_context and cl_mem (clstencil_cl.h) */
    SCEN_FIELDS,  /* a system of fields from host arrays (cls_plan_run_fields) */
    SCEN_SOLVER
} scen_kind;

/* The scenarios; each plan scenario's options are set in plan_options_for. */
typedef enum scen_id {
    S_CONTEXT,
    S_HOST_ALLOC,
    S_NAIVE,
    S_NAIVE_SOURCE,
    S_BUILD_FAILS,
    S_TRAPEZOID_RESTART,
    S_TRAPEZOID_BARRIER,
    S_STREAM25D,
    S_STREAM25D_FUSED,
    S_PIPE_BASIC,
    S_PIPE_SCALABLE,
    S_PIPE_BUFFERED,
    S_STATE_TRAPEZOID,
    S_STATE_PIPELINE,
    S_INTEROP,
    S_SOLVER,
    S_PIPE_SYSTEM
} scen_id;

typedef struct scenario {
    scen_id id;
    const char *name;
    scen_kind kind;
    const char *stencil;      /* a built-in */
    cls_dims dims;
    size_t steps;
    int fresh_build;          /* empty the program cache before each run: a build from source */
    const char *always_fails; /* an entry point failing on every call (shim_fail_every) */
    cls_status expect;        /* the fault-free run's status */
    const char *writes_early; /* why its failed runs may write the output (cls_plan_run's
                                 exception for runs that pipeline), or NULL */
} scenario;

/* The pipelined schedules copy each finished tile of the last sweep into the caller's output
 * as soon as it is back, so a later failure leaves it part old, part new: cls_plan_run says
 * so, and promises the input untouched instead. */
#define TILES_EARLY "a pipelined run streams finished tiles into the output"

/* Small grids and few steps, so that the thousand runs stay fast. */
static const scenario scenarios[] = {
    {S_CONTEXT, "context create and release", SCEN_CONTEXT, NULL, {{1, 1, 1}}, 0, 0, NULL, 0,
     NULL},
    {S_HOST_ALLOC, "pinned host memory", SCEN_HOST_ALLOC, NULL, {{1, 1, 1}}, 0, 0, NULL, 0, NULL},
    {S_NAIVE, "naive, hotspot 24x20", SCEN_PLAN, "hotspot", {{24, 20, 1}}, 3, 0, NULL, 0, NULL},
    {S_NAIVE_SOURCE, "naive, built from source", SCEN_PLAN, "poisson2d", {{16, 12, 1}}, 1, 1,
     NULL, 0, NULL},
    /* a failed build's log is read only after a failure: clBuildProgram fails throughout */
    {S_BUILD_FAILS, "naive, every build fails", SCEN_PLAN, "poisson2d", {{16, 12, 1}}, 1, 1,
     "clBuildProgram", CLS_ERR_BUILD_FAILED, NULL},
    {S_TRAPEZOID_RESTART, "trapezoid restart, poisson2d 40x36", SCEN_PLAN, "poisson2d",
     {{40, 36, 1}}, 4, 0, NULL, 0, NULL},
    {S_TRAPEZOID_BARRIER, "trapezoid barrier, poisson2d 40x36", SCEN_PLAN, "poisson2d",
     {{40, 36, 1}}, 4, 0, NULL, 0, NULL},
    {S_STREAM25D, "stream25d one step per pass, heat3d7 16x12x6", SCEN_PLAN, "heat3d7",
     {{16, 12, 6}}, 2, 0, NULL, 0, NULL},
    {S_STREAM25D_FUSED, "stream25d two steps per pass, heat3d7 16x12x6", SCEN_PLAN, "heat3d7",
     {{16, 12, 6}}, 2, 0, NULL, 0, NULL},
    {S_PIPE_BASIC, "pipeline basic, hotspot 24x20, 3 tiles", SCEN_PLAN, "hotspot",
     {{24, 20, 1}}, 1, 0, NULL, 0, TILES_EARLY},
    {S_PIPE_SCALABLE, "pipeline scalable, hotspot 24x8, thin tiles, rect copies", SCEN_PLAN,
     "hotspot", {{24, 8, 1}}, 2, 0, NULL, 0, TILES_EARLY},
    {S_PIPE_BUFFERED, "pipeline buffered, hotspot 24x20, 4 tiles, traced", SCEN_PLAN, "hotspot",
     {{24, 20, 1}}, 1, 0, NULL, 0, TILES_EARLY},
    {S_STATE_TRAPEZOID, "state, trapezoid restart, poisson2d 40x36, advanced 3 + 2 steps",
     SCEN_STATE, "poisson2d", {{40, 36, 1}}, 5, 0, NULL, 0, NULL},
    {S_STATE_PIPELINE, "state in pinned memory, pipeline scalable, hotspot 24x20, 2 + 1 steps",
     SCEN_STATE, "hotspot", {{24, 20, 1}}, 3, 0, NULL, 0, NULL},
    {S_INTEROP, "the caller's cl_context and cl_mem, naive, hotspot 24x20", SCEN_INTEROP,
     "hotspot", {{24, 20, 1}}, 3, 0, NULL, 0, NULL},
    {S_SOLVER, "chaotic solver 4w-combine, poisson2d 24x20", SCEN_SOLVER, "poisson2d",
     {{24, 20, 1}}, 0, 0, NULL, 0, NULL},
    {S_PIPE_SYSTEM, "pipeline basic, system wave2d 24x20, 3 tiles, 2 steps per tile",
     SCEN_FIELDS, "wave2d", {{24, 20, 1}}, 2, 0, NULL, 0, TILES_EARLY},
};
#define NSCEN (sizeof scenarios / sizeof scenarios[0])

/* The plan options of each plan scenario: the one place this test spells them out. */
static void plan_options_for(scen_id id, cls_plan_options *opt)
{
    cls_plan_options_init(opt);
    opt->schedule = CLS_SCHEDULE_NAIVE;
    opt->params = "pipeline.scheme=off";
    switch (id) {
    case S_TRAPEZOID_RESTART:
    case S_STATE_TRAPEZOID:
        opt->schedule = CLS_SCHEDULE_TRAPEZOID;
        opt->params = "pipeline.scheme=off trapezoid.tile=16x16 trapezoid.height=2 "
                      "trapezoid.sync=restart";
        break;
    case S_TRAPEZOID_BARRIER:
        opt->schedule = CLS_SCHEDULE_TRAPEZOID;
        opt->params = "pipeline.scheme=off trapezoid.tile=16x16 trapezoid.height=2 "
                      "trapezoid.sync=barrier";
        break;
    case S_STREAM25D:
        opt->schedule = CLS_SCHEDULE_STREAM25D;
        opt->params = "pipeline.scheme=off stream25d.loader=classic stream25d.tile=16x8 "
                      "stream25d.steps_per_pass=1";
        break;
    case S_STREAM25D_FUSED:
        opt->schedule = CLS_SCHEDULE_STREAM25D;
        opt->params = "pipeline.scheme=off stream25d.loader=classic stream25d.tile=16x8 "
                      "stream25d.steps_per_pass=2";
        break;
    case S_STATE_PIPELINE: /* a grid above the device's memory: the state in pinned memory */
        opt->schedule = CLS_SCHEDULE_AUTO;
        opt->device_memory = 5000; /* the whole grid's buffers need 5760 bytes, tiles 4608 */
        opt->params = "pipeline.scheme=scalable pipeline.tile=24x4x1 pipeline.steps=1";
        break;
    case S_PIPE_BASIC: /* three tiles of whole rows: every buffer set, contiguous copies */
        opt->params = "pipeline.scheme=basic pipeline.tile=24x7x1 pipeline.steps=1";
        break;
    case S_PIPE_SCALABLE: /* tiles thinner than their overlap: the last bring nothing new */
        opt->params = "pipeline.scheme=scalable pipeline.tile=24x2x1 pipeline.steps=2 "
                      "pipeline.rect=1";
        break;
    case S_PIPE_SYSTEM: /* a system's work boxes, copied into basic's full-size outputs */
        opt->params = "pipeline.scheme=basic pipeline.tile=24x7x1 pipeline.steps=2";
        break;
    case S_PIPE_BUFFERED: /* tiles split in x: packed through pinned staging tiles */
        opt->params = "pipeline.scheme=buffered pipeline.tile=12x10x1 pipeline.steps=1";
        break;
    default:
        break;
    }
}

/* The inputs of a scenario: the initial state and up to four auxiliary arrays. */
typedef struct inputs {
    size_t points, bytes;
    float *in;
    float *aux[4];
    size_t naux;
} inputs;

static float value(size_t i, int k)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(k * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)((h & 0xffff) / 65536.0);
}

/* Removes the files of a flat directory (the program cache keeps no sub-directories). */
static void empty_dir(const char *path)
{
    DIR *d = path ? opendir(path) : NULL;
    struct dirent *de;
    char file[4300];
    if (!d) return;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        snprintf(file, sizeof file, "%s/%s", path, de->d_name);
        unlink(file);
    }
    closedir(d);
}

/* Runs a scenario once on a fresh context; `out` receives the result.  The N-th call of
 * `entry` fails (none when n is 0); the count starts once the context exists, except in the
 * context scenario, so that each scenario's count starts where its own work starts. */
static cls_status run_scenario(const scenario *sc, const cls_stencil *st, const inputs *x,
                               void *out, size_t entry, unsigned long n)
{
    cls_context *ctx = NULL;
    cls_status r;
    if (sc->kind == SCEN_CONTEXT) {
        shim_reset();
        shim_arm(entry, n);
        r = cls_context_create(NULL, &ctx);
        shim_arm(0, 0);
        cls_context_release(ctx);
        return r;
    }
    if (sc->fresh_build) empty_dir(getenv("CLSTENCIL_CACHE_DIR"));
    r = cls_context_create(NULL, &ctx);
    if (r != CLS_SUCCESS) return r;
    cl_context user_context = NULL;
    cl_device_id user_device = NULL;
    cl_mem user_mem = NULL;
    if (sc->kind == SCEN_INTEROP) {
        cl_int err = CL_SUCCESS;
        r = cls_context_cl(ctx, &user_context, &user_device, NULL);
        if (r == CLS_SUCCESS)
            user_mem = clCreateBuffer(user_context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                      x->bytes, x->in, &err);
        if (r != CLS_SUCCESS || err != CL_SUCCESS) {
            cls_context_release(ctx);
            return r != CLS_SUCCESS ? r : (cls_status)err;
        }
    }
    shim_reset();
    shim_arm(entry, n);
    if (sc->always_fails) shim_fail_every((size_t)shim_entry_index(sc->always_fails));
    if (sc->kind == SCEN_HOST_ALLOC) {
        void *p = NULL;
        r = cls_host_alloc(ctx, 4096, &p);
        if (r == CLS_SUCCESS) {
            memset(p, 0x5a, 4096);
            memcpy(out, p, x->bytes < 4096 ? x->bytes : 4096);
        }
        cls_host_free(ctx, p);
    } else if (sc->kind == SCEN_PLAN) {
        cls_plan_options opt;
        cls_plan *plan = NULL;
        plan_options_for(sc->id, &opt);
        r = cls_plan_create(ctx, st, sc->dims, sc->steps, &opt, &plan);
        if (r == CLS_SUCCESS)
            r = cls_plan_run(plan, x->in, x->naux ? (const void *const *)x->aux : NULL, out, NULL);
        cls_plan_release(plan);
    } else if (sc->kind == SCEN_FIELDS) {
        /* every field starts from the input; the first field's result is compared */
        cls_plan_options opt;
        cls_plan *plan = NULL;
        size_t nf = cls_stencil_num_fields(st);
        const void *in[8];
        void *outs[8] = {out};
        r = nf <= 8 ? CLS_SUCCESS : CLS_ERR_INVALID_ARGUMENT;
        for (size_t f = 0; f < nf && r == CLS_SUCCESS; f++) {
            in[f] = x->in;
            if (f && !(outs[f] = malloc(x->bytes))) r = CLS_ERR_OUT_OF_HOST_MEMORY;
        }
        plan_options_for(sc->id, &opt);
        if (r == CLS_SUCCESS) r = cls_plan_create(ctx, st, sc->dims, sc->steps, &opt, &plan);
        if (r == CLS_SUCCESS)
            r = cls_plan_run_fields(plan, in, x->naux ? (const void *const *)x->aux : NULL, outs,
                                    NULL);
        cls_plan_release(plan);
        for (size_t f = 1; f < nf && f < 8; f++) free(outs[f]);
    } else if (sc->kind == SCEN_STATE) {
        /* The first advance takes all but the last steps (inside the trapezoid's stage, or a
         * pipeline sweep), the second the rest. */
        cls_plan_options opt;
        cls_plan *plan = NULL;
        cls_state *s = NULL;
        plan_options_for(sc->id, &opt);
        r = cls_plan_create(ctx, st, sc->dims, sc->steps, &opt, &plan);
        if (r == CLS_SUCCESS) r = cls_state_create(plan, &s);
        if (r == CLS_SUCCESS) r = cls_state_write(s, x->in);
        for (size_t k = 0; k < x->naux && r == CLS_SUCCESS; k++)
            r = cls_state_write_aux(s, k, x->aux[k], 1);
        if (r == CLS_SUCCESS) r = cls_plan_advance(plan, s, sc->steps - 1, NULL);
        if (r == CLS_SUCCESS) r = cls_plan_advance(plan, s, 1, NULL);
        if (r == CLS_SUCCESS) r = cls_state_read(s, out);
        cls_state_release(s);
        cls_plan_release(plan);
    } else if (sc->kind == SCEN_INTEROP) {
        /* The caller's buffer exists before the count starts; the library's own context on
         * the caller's cl_context retains it, and the state retains the buffer. */
        cls_plan_options opt;
        cls_context *mine = NULL;
        cls_plan *plan = NULL;
        cls_state *s = NULL;
        plan_options_for(sc->id, &opt);
        r = cls_context_create_from_cl(user_context, user_device, &mine);
        if (r == CLS_SUCCESS) r = cls_plan_create(mine, st, sc->dims, sc->steps, &opt, &plan);
        if (r == CLS_SUCCESS) r = cls_state_wrap(plan, user_mem, &s);
        for (size_t k = 0; k < x->naux && r == CLS_SUCCESS; k++)
            r = cls_state_write_aux(s, k, x->aux[k], 1);
        if (r == CLS_SUCCESS) r = cls_plan_advance(plan, s, sc->steps, NULL);
        if (r == CLS_SUCCESS) r = cls_state_read(s, out);
        cls_state_release(s);
        cls_plan_release(plan);
        cls_context_release(mine);
    } else {
        cls_solver_options o;
        cls_solver *solver = NULL;
        cls_solver_options_init(&o);
        o.block[0] = 8;
        o.block[1] = 4;
        o.comm_items = 4;
        o.check_interval = 4;
        o.tolerance = 1e-3;
        o.max_steps = 2000;
        r = cls_solver_create(ctx, st, sc->dims, &o, &solver);
        if (r == CLS_SUCCESS)
            r = cls_solver_run(solver, x->in, x->naux ? (const void *const *)x->aux : NULL, out,
                               NULL);
        cls_solver_release(solver);
    }
    shim_arm(0, 0);
    shim_fail_every(shim_entry_count());
    if (user_mem) clReleaseMemObject(user_mem);
    cls_context_release(ctx);
    return r;
}

/* Whether a successful run gave the fault-free run's result: bitwise for the schedules; the
 * chaotic solver's asynchronous exchange makes its iterates differ from run to run, so there
 * every value must be finite and within the input's range (the maximum principle of its
 * averaging update with no right-hand side). */
static int same_result(const scenario *sc, const inputs *x, const void *out, const void *want)
{
    if (sc->kind != SCEN_SOLVER) return memcmp(out, want, x->bytes) == 0;
    float lo = x->in[0], hi = x->in[0];
    for (size_t i = 1; i < x->points; i++) {
        lo = x->in[i] < lo ? x->in[i] : lo;
        hi = x->in[i] > hi ? x->in[i] : hi;
    }
    for (size_t i = 0; i < x->points; i++) {
        float v = ((const float *)out)[i];
        if (!(v >= lo && v <= hi)) return 0;
    }
    return 1;
}

/* The live objects the balance is measured from: none, until a leak was reported. */
static long baseline[SHIM_KINDS];

static void rebase_counts(void)
{
    for (int k = 0; k < SHIM_KINDS; k++) baseline[k] = shim_live((shim_kind)k);
}

/* Whether every object created since the baseline was released; why lists what was left. */
static int counts_balanced(char *why, size_t len)
{
    int ok = 1;
    size_t at = 0;
    why[0] = '\0';
    for (int k = 0; k < SHIM_KINDS; k++) {
        long live = shim_live((shim_kind)k) - baseline[k];
        if (live != 0) {
            ok = 0;
            int w = snprintf(why + at, len - at, "%s%ld %s", at ? ", " : "", live,
                             shim_kind_name((shim_kind)k));
            if (w > 0 && (size_t)w < len - at) at += (size_t)w;
        }
    }
    return ok;
}

/* A failure's message says what failed: every injected failure is CL_OUT_OF_RESOURCES, and
 * the caller must learn it (with the library's words on what it was doing). */
static int message_clear(const char *msg)
{
    static const char name[] = "CL_OUT_OF_RESOURCES";
    return msg && strstr(msg, name) && strlen(msg) > sizeof name + 8;
}

static int cancel_after_first(size_t done, size_t total, void *user)
{
    (void)user;
    return done > 0 && done < total;
}

/* cls_plan_run's promise on cancellation: a resident run leaves `output` untouched; a
 * pipelined run of three sweeps has written its first sweep into `output` by then (the sweeps
 * alternate between it and one host array) and promises the input untouched instead. */
static void check_cancel(void)
{
    enum { NX = 24, NY = 20, N = NX * NY };
    static const scen_id ids[] = {S_NAIVE, S_PIPE_BASIC};
    cls_context *ctx = NULL;
    cls_stencil *st = NULL;
    static float in[N], in0[N], out[N], sentinel[N];
    cls_status r = cls_context_create(NULL, &ctx);
    if (r == CLS_SUCCESS) r = cls_stencil_builtin("poisson2d", &st);
    for (size_t i = 0; i < N; i++) in0[i] = value(i, 0);
    float rhs[N] = {0};
    const void *aux[1] = {rhs};
    memset(sentinel, SENTINEL, sizeof sentinel);
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        cls_plan *plan = NULL;
        cls_plan_options opt;
        cls_status s = r;
        plan_options_for(ids[k], &opt);
        if (s == CLS_SUCCESS) s = cls_plan_create(ctx, st, (cls_dims){{NX, NY, 1}}, 3, &opt, &plan);
        if (s == CLS_SUCCESS) s = cls_plan_set_progress(plan, cancel_after_first, NULL);
        memcpy(in, in0, sizeof in);
        memcpy(out, sentinel, sizeof out);
        if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, aux, out, NULL);
        int out_kept = !memcmp(out, sentinel, sizeof out), in_kept = !memcmp(in, in0, sizeof in);
        if (ids[k] == S_PIPE_BASIC)
            tap_ok(s == CLS_ERR_CANCELLED && in_kept,
                   "a pipelined run of 3 sweeps cancelled after the first: %s, input %s "
                   "(output %s)",
                   cls_status_string(s), in_kept ? "untouched" : "written",
                   out_kept ? "untouched" : "holds a sweep");
        else
            tap_ok(s == CLS_ERR_CANCELLED && in_kept && out_kept,
                   "a resident run cancelled after its first step: %s, input %s, output %s",
                   cls_status_string(s), in_kept ? "untouched" : "written",
                   out_kept ? "untouched" : "written");
        cls_plan_release(plan);
    }
    cls_stencil_release(st);
    cls_context_release(ctx);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t e = 0; e < shim_entry_count(); e++) printf("%s\n", shim_entry_name(e));
        return 0;
    }
    /* A cache of its own, so that the runs do not depend on what other tests left there. */
    const char *base = getenv("CLSTENCIL_CACHE_DIR");
    char top[4096], cache[4200];
    snprintf(top, sizeof top, "%s", base && *base ? base : "test-cache");
    snprintf(cache, sizeof cache, "%s/faults", top);
    setenv("CLSTENCIL_CACHE_DIR", cache, 1);

    {
        cls_context *probe = NULL;
        if (cls_context_create(NULL, &probe) != CLS_SUCCESS) {
            tap_skip("OpenCL fault injection", "no OpenCL device");
            return tap_done();
        }
        cls_context_release(probe);
    }
    char why[256];
    tap_ok(counts_balanced(why, sizeof why), "a context created and released leaves no object "
                                             "(%s)", why[0] ? why : "all kinds balanced");

    /* To reproduce one failure: CLS_FAULTS_ONLY, a scenario name substring; CLS_FAULTS_ENTRY,
     * an entry point, and CLS_FAULTS_FROM, the first N; CLS_FAULTS_VERBOSE, every injected
     * fault's outcome. */
    const char *only = getenv("CLS_FAULTS_ONLY"), *only_entry = getenv("CLS_FAULTS_ENTRY");
    const char *from_text = getenv("CLS_FAULTS_FROM");
    unsigned long from = from_text ? strtoul(from_text, NULL, 10) : 1;
    if (from < 1) from = 1;
    int verbose = getenv("CLS_FAULTS_VERBOSE") && *getenv("CLS_FAULTS_VERBOSE");
    size_t total_runs = 0, total_faults = 0;
    unsigned long covered[64] = {0};
    for (size_t s = 0; s < NSCEN; s++) {
        const scenario *sc = &scenarios[s];
        if (only && *only && !strstr(sc->name, only)) continue;
        cls_stencil *st = NULL;
        inputs x = {0};
        x.points = cls_dims_points(sc->dims);
        x.bytes = x.points * sizeof(float);
        if (sc->kind == SCEN_HOST_ALLOC || sc->kind == SCEN_CONTEXT) x.bytes = 4096;
        if (sc->stencil) {
            if (cls_stencil_builtin(sc->stencil, &st) != CLS_SUCCESS) {
                tap_ok(0, "%s: the built-in stencil: %s", sc->name, cls_last_error());
                continue;
            }
            x.naux = cls_stencil_num_aux(st);
        }
        x.in = malloc(x.bytes);
        /* The solver's problem converges in a few checks: small noise, no right-hand side. */
        for (size_t i = 0; i < x.bytes / sizeof(float); i++)
            x.in[i] = value(i, 0) * (sc->kind == SCEN_SOLVER ? 0.01f : 1.0f);
        float *in0 = malloc(x.bytes); /* what the input must still hold after every run */
        memcpy(in0, x.in, x.bytes);
        for (size_t k = 0; k < x.naux; k++) {
            x.aux[k] = malloc(x.points * sizeof(float));
            for (size_t i = 0; i < x.points; i++)
                x.aux[k][i] = sc->kind == SCEN_SOLVER ? 0.0f : value(i, (int)k + 1);
        }
        char dir[4200], trace[4200];
        if (sc->fresh_build) {
            snprintf(dir, sizeof dir, "%s/faults-fresh", top);
            setenv("CLSTENCIL_CACHE_DIR", dir, 1);
        }
        /* The pipeline's trace keeps events of every tile (clRetainEvent). */
        snprintf(trace, sizeof trace, "%s/faults-pipe-trace.txt", top);
        if (sc->id == S_PIPE_BUFFERED) setenv("CLSTENCIL_PIPE_TRACE", trace, 1);
        unsigned char *want = malloc(x.bytes), *out = malloc(x.bytes), *sentinel = malloc(x.bytes);
        memset(sentinel, SENTINEL, x.bytes);

        /* The fault-free run (every build failing in S_BUILD_FAILS). */
        memset(want, SENTINEL, x.bytes);
        cls_status r = run_scenario(sc, st, &x, want, shim_entry_count(), 0);
        if (!tap_ok(r == sc->expect && counts_balanced(why, sizeof why),
                    "%s: runs without a fault: %s%s%s", sc->name, cls_status_string(r),
                    r ? ": " : "", r ? cls_last_error() : why)) {
            goto next;
        }
        size_t runs = 0, faults = 0, bad_msg = 0, bad_out = 0, bad_in = 0, bad_count = 0,
               bad_result = 0, recovered = 0;
        char first_bad[512] = "", first_out[512] = "", first_in[512] = "";
        for (size_t e = 0; e < shim_entry_count(); e++) {
            if (!shim_entry_can_fail(e)) continue;
            if (only_entry && *only_entry && strcmp(only_entry, shim_entry_name(e))) continue;
            for (unsigned long n = only_entry && *only_entry ? from : 1;; n++) {
                if (verbose) {
                    printf("# %s: failing %s call %lu\n", sc->name, shim_entry_name(e), n);
                    fflush(stdout);
                }
                memcpy(out, sentinel, x.bytes);
                r = run_scenario(sc, st, &x, out, e, n);
                runs++;
                if (!shim_fired()) {
                    /* Fewer than n calls: the fault was not reached; the run must be clean. */
                    if (r != sc->expect || (r == CLS_SUCCESS && !same_result(sc, &x, out, want))) {
                        bad_result++;
                        if (!first_bad[0])
                            snprintf(first_bad, sizeof first_bad,
                                     "%s never reached: %s %s", shim_entry_name(e),
                                     cls_status_string(r), cls_last_error());
                    }
                    break;
                }
                faults++;
                covered[e]++;
                if (verbose)
                    tap_diag("%s: %s call %lu failed: %s %s", sc->name, shim_entry_name(e), n,
                             cls_status_string(r), r == CLS_SUCCESS ? "" : cls_last_error());
                int balanced = counts_balanced(why, sizeof why);
                if (!balanced) {
                    bad_count++;
                    if (!first_bad[0])
                        snprintf(first_bad, sizeof first_bad, "%s call %lu failed: left %s (%s)",
                                 shim_entry_name(e), n, why,
                                 r == CLS_SUCCESS ? "recovered" : cls_last_error());
                }
                if (r == CLS_SUCCESS) {
                    recovered++;
                    if (!same_result(sc, &x, out, want)) {
                        bad_result++;
                        if (!first_bad[0])
                            snprintf(first_bad, sizeof first_bad,
                                     "%s call %lu failed: success with a different result",
                                     shim_entry_name(e), n);
                    }
                } else {
                    const char *msg = cls_last_error();
                    if (!message_clear(msg)) {
                        bad_msg++;
                        if (!first_bad[0])
                            snprintf(first_bad, sizeof first_bad,
                                     "%s call %lu failed: unclear error %s '%s'",
                                     shim_entry_name(e), n, cls_status_string(r), msg);
                    }
                    if (memcmp(out, sentinel, x.bytes) != 0 && bad_out++ == 0)
                        snprintf(first_out, sizeof first_out, "; first: %s call %lu failed (%s)",
                                 shim_entry_name(e), n, msg);
                    if (memcmp(x.in, in0, x.bytes) != 0 && bad_in++ == 0) {
                        snprintf(first_in, sizeof first_in, "; first: %s call %lu failed (%s)",
                                 shim_entry_name(e), n, msg);
                        memcpy(x.in, in0, x.bytes);
                    }
                }
                /* Count the next runs from what this one left, and go on with the next entry
                 * point (one leak per entry point is enough to report). */
                if (!balanced) {
                    rebase_counts();
                    break;
                }
            }
        }
        total_runs += runs;
        total_faults += faults;
        tap_ok(bad_count == 0 && bad_msg == 0 && bad_result == 0,
               "%s: %zu faults injected (%zu recovered): each a clear error or the same result, "
               "every object released%s%s",
               sc->name, faults, recovered, first_bad[0] ? "; first problem: " : "", first_bad);
        if (bad_count || bad_msg || bad_result)
            tap_diag("%s: %zu leaks, %zu unclear messages, %zu wrong results", sc->name,
                     bad_count, bad_msg, bad_result);
        if (!sc->writes_early)
            tap_ok(bad_out == 0, "%s: every failed run leaves the output untouched (%zu wrote "
                   "it%s)", sc->name, bad_out, first_out);
        else
            tap_diag("%s: %zu failed runs wrote the output (%s)", sc->name, bad_out,
                     sc->writes_early);
        tap_ok(bad_in == 0, "%s: every failed run leaves the input untouched (%zu wrote it%s)",
               sc->name, bad_in, first_in);
    next:
        if (sc->fresh_build) setenv("CLSTENCIL_CACHE_DIR", cache, 1);
        if (sc->id == S_PIPE_BUFFERED) {
            unsetenv("CLSTENCIL_PIPE_TRACE");
            unlink(trace);
        }
        cls_stencil_release(st);
        free(x.in);
        free(in0);
        for (size_t k = 0; k < x.naux; k++) free(x.aux[k]);
        free(want);
        free(out);
        free(sentinel);
    }
    tap_diag("%zu runs, %zu faults injected", total_runs, total_faults);
    if (!(only && *only) && !(only_entry && *only_entry)) {
        char missing[1024] = "";
        size_t at = 0;
        for (size_t e = 0; e < shim_entry_count(); e++) {
            if (shim_entry_can_fail(e))
                tap_diag("%-28s failed %lu times", shim_entry_name(e), covered[e]);
            else
                tap_diag("%-28s a release: checked by the balance", shim_entry_name(e));
            if (shim_entry_can_fail(e) && !covered[e]) {
                int w = snprintf(missing + at, sizeof missing - at, " %s", shim_entry_name(e));
                if (w > 0 && (size_t)w < sizeof missing - at) at += (size_t)w;
            }
        }
        tap_ok(!missing[0], "every entry point the library calls was failed at least once%s%s",
               missing[0] ? "; never:" : "", missing);
        check_cancel();
    }
    return tap_done();
}
