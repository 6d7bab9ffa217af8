/* test_naive.c: the naive OpenCL schedule against the host reference for every built-in stencil,
 * boundary condition and precision, plus the runtime's error paths (on PoCL). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil.h"
#include "tap.h"

static double init_value(const char *name, size_t i, int k)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(k * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double r = (h & 0xffff) / 65536.0;
    if (!strcmp(name, "cell3d")) return r < 0.35;
    if (!strcmp(name, "hotspot")) return k < 0 ? 320 + 20 * r : 0.5 * r;
    if (!strcmp(name, "pathfinder")) return floor(10 * r);
    return r;
}

static void fill(void *buf, cls_dtype dt, size_t n, const char *name, int k)
{
    for (size_t i = 0; i < n; i++) {
        double v = init_value(name, i, k);
        if (dt == CLS_FLOAT64) ((double *)buf)[i] = v;
        else ((float *)buf)[i] = (float)v;
    }
}

/* Max |a-b| / max(1,|b|) over the grid; 0 means bitwise equal values. */
static double compare(const void *a, const void *b, cls_dtype dt, size_t n, int *bitwise)
{
    double worst = 0;
    *bitwise = memcmp(a, b, n * cls_dtype_size(dt)) == 0;
    for (size_t i = 0; i < n; i++) {
        double x = dt == CLS_FLOAT64 ? ((const double *)a)[i] : ((const float *)a)[i];
        double y = dt == CLS_FLOAT64 ? ((const double *)b)[i] : ((const float *)b)[i];
        double e = fabs(x - y) / (fabs(y) > 1 ? fabs(y) : 1);
        if (!(e <= worst)) worst = e; /* NaN counts as worst */
    }
    return worst;
}

/* The plan's parameters for `per_item` points per work-item (0: the planner's choice). */
static const char *naive_params(char *buf, size_t len, size_t per_item)
{
    if (!per_item) return NULL;
    snprintf(buf, len, "naive.points_per_item=%zu", per_item);
    return buf;
}

/* Points per work-item of whichever resident schedule the plan chose ("?" if none). */
static const char *plan_points_per_item(const cls_plan *plan)
{
    static const char *const names[] = {"naive.points_per_item", "trapezoid.points_per_item",
                                        "stream25d.planes"};
    for (int i = 0; i < 3; i++) {
        const char *v = cls_plan_param(plan, names[i]);
        if (v) return v;
    }
    return "?";
}

static const cls_dims sizes[3] = {{{97, 1, 1}}, {{23, 17, 1}}, {{11, 9, 7}}};

/* name: a built-in stencil or a stencil's JSON; size: the grid (NULL: sizes[] by dimension),
 * run on the naive schedule itself rather than AUTO's choice. */
static void check_stencil_at(cls_context *ctx, const char *name, cls_boundary b, cls_dtype dt,
                             size_t per_item, const cls_dims *size)
{
    cls_stencil *st = NULL;
    void *in = NULL, *out = NULL, *ref = NULL, *aux[4] = {NULL};
    cls_plan *plan = NULL;
    const size_t steps = 6;
    if ((name[0] == '{' ? cls_stencil_from_json(name, &st) : cls_stencil_builtin(name, &st)) !=
        CLS_SUCCESS) {
        tap_ok(0, "%s: %s", name, cls_last_error());
        return;
    }
    cls_stencil_set_dtype(st, dt);
    cls_stencil_set_boundary(st, b, 0.25);
    cls_dims d = size ? *size : sizes[cls_stencil_dims(st) - 1];
    size_t n = cls_dims_points(d), es = cls_dtype_size(dt);
    in = malloc(n * es);
    out = malloc(n * es);
    ref = malloc(n * es);
    fill(in, dt, n, name, -1);
    for (size_t k = 0; k < cls_stencil_num_aux(st); k++) {
        size_t m = cls_stencil_aux_per_step(st, k) ? n * steps : n;
        aux[k] = malloc(m * es);
        fill(aux[k], dt, m, name, (int)k);
    }
    cls_plan_options opt;
    char params[64];
    cls_plan_options_init(&opt);
    opt.params = naive_params(params, sizeof params, per_item);
    if (size) opt.schedule = CLS_SCHEDULE_NAIVE;
    cls_status s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    cls_status r = cls_reference_run(st, d, steps, in, (const void *const *)aux, ref);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s %s %s runs: %s", cls_stencil_name(st), cls_boundary_name(b),
               dt ? "double" : "float", cls_last_error());
    } else {
        int bitwise;
        double err = compare(out, ref, dt, n, &bitwise);
        int exact = cls_stencil_is_exact(st);
        /* Exact bodies must match bit for bit; others within a few ulps per step. */
        double tol = dt == CLS_FLOAT64 ? 1e-12 : 1e-5;
        const char *rows = cls_plan_param(plan, "naive.rows_per_item");
        tap_ok(exact ? bitwise : err <= tol,
               "%s %zux%zux%zu %s %s, %s per item%s: naive == reference (%s, max rel err %.3g)",
               cls_stencil_name(st), d.n[0], d.n[1], d.n[2], cls_boundary_name(b),
               dt ? "double" : "float",
               plan_points_per_item(plan), rows ? " (row kernel)" : "",
               bitwise ? "bitwise" : "not bitwise", err);
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    for (int k = 0; k < 4; k++) free(aux[k]);
    free(in);
    free(out);
    free(ref);
}

static void check_stencil(cls_context *ctx, const char *name, cls_boundary b, cls_dtype dt,
                          size_t per_item)
{
    check_stencil_at(ctx, name, b, dt, per_item, NULL);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int is_system(const char *name)
{
    cls_stencil *st = NULL;
    int r = cls_stencil_builtin(name, &st) == CLS_SUCCESS && cls_stencil_is_system(st);
    cls_stencil_release(st);
    return r;
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("naive schedule", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    tap_diag("device: %s (%s)", info.name, info.platform_name);

    /* The built-in systems of fields run in tests/test_system.c. */
    for (size_t i = 0; cls_stencil_builtin_name(i); i++)
        for (int b = 0; b <= CLS_BOUNDARY_MIRROR && !is_system(cls_stencil_builtin_name(i)); b++)
            for (int dt = 0; dt <= 1; dt++) {
                if (dt == 1 && !info.double_support) {
                    tap_skip(cls_stencil_builtin_name(i), "no double precision on this device");
                    continue;
                }
                check_stencil(ctx, cls_stencil_builtin_name(i), (cls_boundary)b, (cls_dtype)dt, 0);
            }
    /* Runs split across work-items (rows on CPUs, columns on GPUs), with ragged ends. */
    for (size_t i = 0; cls_stencil_builtin_name(i); i++)
        for (size_t per = 2; per <= 3 && !is_system(cls_stencil_builtin_name(i)); per++) {
            check_stencil(ctx, cls_stencil_builtin_name(i), CLS_BOUNDARY_PERIODIC, CLS_FLOAT32, per);
            check_stencil(ctx, cls_stencil_builtin_name(i), CLS_BOUNDARY_MIRROR, CLS_FLOAT32, per);
        }

    /* The row kernel's row ends (CPUs): rows of 2 and 3 points, shorter than a vector, rows
     * of an odd length past it; heat3d27 reads every y and z neighbour at the ends, hotspot an
     * auxiliary array.  1-point rows: stencils that read no x neighbour (halo 0 in x).  Every
     * boundary kind in float, clamp in double. */
    static const cls_dims short_rows[2][4] = {
        {{{2, 6, 1}}, {{3, 5, 1}}, {{21, 4, 1}}, {{1, 7, 1}}},
        {{{2, 5, 4}}, {{3, 3, 3}}, {{19, 4, 3}}, {{1, 5, 4}}}};
    static const char *const short_row_stencils[2][2] = {
        {"hotspot", "{\"name\":\"ycol2\",\"dims\":2,\"body\":\"0.5*IN(0,-1) + 0.25*IN(0,1) + "
                    "0.25*IN(0,0)\"}"},
        {"heat3d27", "{\"name\":\"yzcol3\",\"dims\":3,\"body\":\"0.5*IN(0,-1,0) + 0.25*IN(0,0,1) "
                     "+ 0.25*IN(0,1,-1)\"}"}};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 4; j++) {
            const char *name = short_row_stencils[k][j == 3];
            for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++)
                check_stencil_at(ctx, name, (cls_boundary)b, CLS_FLOAT32, 0, &short_rows[k][j]);
            if (info.double_support)
                check_stencil_at(ctx, name, CLS_BOUNDARY_CLAMP, CLS_FLOAT64, 0, &short_rows[k][j]);
        }
    /* Runs of one point each along a row. */
    check_stencil_at(ctx, "heat3d27", CLS_BOUNDARY_MIRROR, CLS_FLOAT32, 1, &short_rows[1][2]);

    /* A user stencil with transcendental functions: agreement within tolerance. */
    cls_stencil *st = NULL;
    if (cls_stencil_from_json("{\"name\":\"wave\",\"dims\":2,\"body\":\"0.5*IN(0,0) + 0.1*sin(IN(1,0)) + 0.1*exp(-IN(0,1))\"}", &st) == CLS_SUCCESS) {
        tap_ok(!cls_stencil_is_exact(st), "sin/exp bodies are flagged inexact");
        cls_stencil_release(st);
    }

    /* Errors: a grid larger than the device allows. */
    cls_stencil_builtin("heat3d7", &st);
    cls_plan *plan = NULL;
    cls_dims huge = {{4096, 4096, 4096}};
    /* Device-resident only (the pipeline off): refused, naming the device's limit. */
    cls_plan_options resident;
    cls_plan_options_init(&resident);
    resident.params = "pipeline.scheme=off";
    cls_status s = cls_plan_create(ctx, st, huge, 1, &resident, &plan);
    tap_ok(s == CLS_ERR_TOO_LARGE && plan == NULL && strstr(cls_context_last_error(ctx), "allows"),
           "a grid larger than the device is refused with the pipeline off: %s",
           cls_context_last_error(ctx));
    /* By default such a grid runs tile by tile (doc/pipeline.md) where the host can hold its
     * arrays (512 GiB here): elsewhere it is refused, with the bytes, unless the caller sets
     * the pipeline's parameters (the arrays may be mapped files); the scheme is scalable. */
    s = cls_plan_create(ctx, st, huge, 1, NULL, &plan);
    if (s == CLS_SUCCESS) {
        cls_plan_release(plan);
        plan = NULL;
        tap_ok(1, "a 4096^3 grid is planned tile by tile on a host that holds its arrays");
    } else {
        tap_ok(s == CLS_ERR_TOO_LARGE && strstr(cls_context_last_error(ctx), "host arrays") &&
                   strstr(cls_context_last_error(ctx), "512.0 GiB"),
               "a 4096^3 grid is refused on a host that cannot hold its arrays: %s",
               cls_context_last_error(ctx));
    }
    cls_plan_options tiled;
    cls_plan_options_init(&tiled);
    tiled.params = "pipeline.steps=1";
    s = cls_plan_create(ctx, st, huge, 1, &tiled, &plan);
    cls_plan_info huge_info;
    if (s == CLS_SUCCESS) s = cls_plan_describe(plan, &huge_info);
    tap_ok(s == CLS_SUCCESS && huge_info.host_schedule == CLS_SCHEDULE_PIPELINE &&
               cls_plan_param(plan, "pipeline.scheme") &&
               !strcmp(cls_plan_param(plan, "pipeline.scheme"), "scalable"),
           "a grid larger than the device is tiled through the scalable pipeline by default (%s)",
           s == CLS_SUCCESS ? huge_info.host_why : cls_context_last_error(ctx));
    cls_plan_release(plan);
    plan = NULL;

    /* Errors: a kernel template that does not compile carries the compiler's words. */
    char dir[] = "/tmp/cls_kdir_XXXXXX";
    if (mkdtemp(dir)) {
        char path[256];
        snprintf(path, sizeof path, "%s/prelude.cl", dir);
        write_file(path, "typedef float real;\n");
        /* Both naive templates (GPU columns, CPU rows) get the broken kernel. */
        static const char *const tmpl[] = {"naive.cl", "naive_rows.cl"};
        for (int t = 0; t < 2; t++) {
            snprintf(path, sizeof path, "%s/%s", dir, tmpl[t]);
            write_file(path, "__kernel void cls_naive(__global float *a) { a[0] = undefined_thing_xyz; }\n");
        }
        setenv("CLSTENCIL_KERNEL_DIR", dir, 1);
        cls_dims d = {{8, 8, 8}};
        s = cls_plan_create(ctx, st, d, 1, NULL, &plan);
        tap_ok(s == CLS_ERR_BUILD_FAILED && strstr(cls_context_last_error(ctx), "undefined_thing_xyz"),
               "a failing build reports the build log (%s)", cls_status_string(s));
        unsetenv("CLSTENCIL_KERNEL_DIR");
        snprintf(path, sizeof path, "%s/prelude.cl", dir);
        unlink(path);
        for (int t = 0; t < 2; t++) {
            snprintf(path, sizeof path, "%s/%s", dir, tmpl[t]);
            unlink(path);
        }
        rmdir(dir);
    }
    cls_plan_release(plan);

    /* Errors: missing aux arrays and bad local sizes. */
    cls_stencil *hs = NULL;
    cls_stencil_builtin("hotspot", &hs);
    cls_dims d2 = {{16, 16, 1}};
    if (cls_plan_create(ctx, hs, d2, 2, NULL, &plan) == CLS_SUCCESS) {
        float g[256] = {0}, o[256];
        s = cls_plan_run(plan, g, NULL, o, NULL);
        tap_ok(s == CLS_ERR_INVALID_ARGUMENT && strstr(cls_last_error(), "power"),
               "running without the aux array names it");
        cls_plan_release(plan);
        plan = NULL;
    }
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.params = "naive.local=1048576x1";
    s = cls_plan_create(ctx, hs, d2, 2, &opt, &plan);
    tap_ok(s == CLS_ERR_INVALID_ARGUMENT && plan == NULL, "an impossible work-group size is refused: %s",
           cls_last_error());
    cls_stencil_release(hs);
    cls_stencil_release(st);
    cls_context_release(ctx);

    /* Errors: no device matches the selector. */
    s = cls_context_create("no-such-device-xyz", &ctx);
    tap_ok(s == CLS_ERR_NO_DEVICE && ctx == NULL && strstr(cls_last_error(), "no-such-device-xyz"),
           "unknown device selector: %s", cls_last_error());
    return tap_done();
}
