/* test_stream25d_tb.c: temporal blocking on the stream25d schedule (several steps per pass over z,
 * cl/stream25d_tb.cl) against the host reference, bitwise: heat3d7, heat3d27, jacobi3d, cell3d,
 * an asymmetric user stencil with a static and a per-step auxiliary array, k = 1..4 steps per
 * pass with step counts that leave a shorter last pass, both local-memory loaders, every
 * boundary, grids that are not multiples of the output tile, columns split into chunks; the
 * plans it refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"
#include "user_aux.h"

static double init_value(const char *name, size_t i, int salt)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (0x9e3779b9u + (uint32_t)salt * 7919u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double r = (h & 0xffff) / 65536.0;
    return strcmp(name, "cell3d") || salt ? r : r < 0.35;
}

/* Reads a diagonal that has no mirror image in the body (the window's closure adds it), an
 * auxiliary array at an offset and a per-step one. */
static cls_stencil *user(void)
{
    return user_aux("user", 3,
                    "IN(0, 0, 0) + 0.1 * (IN(-1, 0, 0) + IN(0, 1, 0) - 2 * IN(0, 0, 0)) "
                    "+ 0.05 * IN(1, -1, 1) - 0.04 * IN(0, 0, -1) + "
                    "0.01 * AUX(src, 1, 0, 0) + 0.02 * AUX(f, 0, 0, 0)");
}

static cls_stencil *make(const char *name)
{
    cls_stencil *st = NULL;
    if (!strcmp(name, "user")) return user();
    /* reads no point of its own column: a shorter last pass copies the window's centre */
    if (!strcmp(name, "nocentre"))
        return cls_stencil_create("nocentre", 3, CLS_FLOAT32,
                                  "0.25 * (IN(1, 0, 0) + IN(-1, 0, 0) + IN(0, 1, 1)) + "
                                  "0.125 * IN(0, -1, -1)",
                                  &st) == CLS_SUCCESS
                   ? st
                   : NULL;
    return cls_stencil_builtin(name, &st) == CLS_SUCCESS ? st : NULL;
}

/* The plan parameters of a request: the loader (NULL: the planner's), the XY work-group, rows
 * per work-item, planes per work-group, steps per pass (0: left out), with the host pipeline
 * off (the schedule's own kernels run, not the pipeline's). */
static const char *tb_params(char *buf, size_t len, const char *loader, size_t bx, size_t by,
                             size_t rows, size_t chunk, size_t k)
{
    size_t n = (size_t)snprintf(buf, len, "pipeline.scheme=off");
    if (loader && n < len) n += (size_t)snprintf(buf + n, len - n, " stream25d.loader=%s", loader);
    if (bx && n < len) n += (size_t)snprintf(buf + n, len - n, " stream25d.tile=%zux%zu", bx, by);
    if (rows && n < len)
        n += (size_t)snprintf(buf + n, len - n, " stream25d.rows_per_item=%zu", rows);
    if (chunk && n < len) n += (size_t)snprintf(buf + n, len - n, " stream25d.planes=%zu", chunk);
    if (k && n < len) snprintf(buf + n, len - n, " stream25d.steps_per_pass=%zu", k);
    return buf;
}

/* The plan's value of an integer parameter (0 when it has none). */
static size_t plan_size(const cls_plan *plan, const char *name)
{
    const char *v = cls_plan_param(plan, name);
    return v ? (size_t)strtoull(v, NULL, 10) : 0;
}

/* loader: "classic" or "aligned". */
static void check(cls_context *ctx, const char *name, cls_boundary b, const char *loader,
                  cls_dtype dt, cls_dims grid, size_t k, size_t steps, size_t bx, size_t by,
                  size_t rows, size_t chunk)
{
    cls_stencil *st = make(name);
    cls_plan *plan = NULL;
    if (!st) {
        tap_ok(0, "%s: %s", name, cls_last_error());
        return;
    }
    cls_stencil_set_boundary(st, b, 0.25);
    cls_stencil_set_dtype(st, dt);
    size_t n = cls_dims_points(grid), es = cls_dtype_size(dt), na = cls_stencil_num_aux(st);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    void *aux[4] = {NULL};
    for (size_t i = 0; i < n; i++) {
        double v = init_value(name, i, 0);
        if (dt == CLS_FLOAT64) ((double *)in)[i] = v;
        else ((float *)in)[i] = (float)v;
    }
    for (size_t a = 0; a < na && a < 4; a++) {
        size_t m = cls_stencil_aux_per_step(st, a) ? n * steps : n;
        aux[a] = malloc(m * es);
        for (size_t i = 0; i < m; i++) {
            double v = init_value(name, i, (int)a + 1);
            if (dt == CLS_FLOAT64) ((double *)aux[a])[i] = v;
            else ((float *)aux[a])[i] = (float)v;
        }
    }
    cls_plan_options opt;
    char params[256];
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = tb_params(params, sizeof params, loader, bx, by, rows, chunk, k);
    cls_status s = cls_plan_create(ctx, st, grid, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, (const void *const *)aux, out, NULL);
    cls_status r = cls_reference_run(st, grid, steps, in, (const void *const *)aux, ref);
    char what[200];
    snprintf(what, sizeof what,
             "%s %s %s %s %zux%zux%zu, %zu steps, k %zu, %zux%zu rows %zu chunk %zu", name,
             cls_boundary_name(b), loader,
             dt == CLS_FLOAT64 ? "double" : "float", grid.n[0], grid.n[1], grid.n[2], steps, k,
             bx, by, rows, chunk);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s: %s", what, cls_last_error());
    } else {
        cls_plan_info pi;
        cls_plan_describe(plan, &pi);
        const char *got_loader = cls_plan_param(plan, "stream25d.loader");
        size_t got_k = plan_size(plan, "stream25d.steps_per_pass");
        size_t bad = 0, first = n;
        for (size_t i = 0; i < n; i++)
            if (memcmp(out + i * es, ref + i * es, es) != 0) {
                if (first == n) first = i;
                bad++;
            }
        size_t want_k = k < steps ? k : steps;
        tap_ok(bad == 0 && pi.schedule == CLS_SCHEDULE_STREAM25D && got_k == want_k &&
                   (want_k < 2 || (got_loader && !strcmp(got_loader, loader))),
               "%s: == reference bitwise (%zu points differ, first %zu; %zu steps per pass)",
               what, bad, first, got_k);
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    for (int a = 0; a < 4; a++) free(aux[a]);
    free(in);
    free(out);
    free(ref);
}

static void refuse(cls_context *ctx, const char *what, cls_stencil *st, cls_dims d,
                   const cls_plan_options *opt, cls_status want, const char *needle)
{
    cls_plan *plan = NULL;
    cls_status s = cls_plan_create(ctx, st, d, 4, opt, &plan);
    tap_ok(s == want && !plan && strstr(cls_last_error(), needle), "%s is refused: %s", what,
           cls_last_error());
    cls_plan_release(plan);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("stream25d temporal blocking", "no OpenCL device");
        return tap_done();
    }
    /* Ragged against every output tile below (16x8 work-groups: 12x4 .. 8x1 points out). */
    const cls_dims g = {{37, 21, 13}}, small = {{9, 7, 5}};
    const char *const C = "classic", *const A = "aligned";
    /* Every boundary with the 7-point and the 27-point stencil, k = 2 and 3 over 5 steps (a
     * shorter last pass), both loaders in turn. */
    for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
        check(ctx, "heat3d7", (cls_boundary)b, b % 2 ? A : C, CLS_FLOAT32, g, 2, 5, 16, 8, 1,
              b % 2 ? 0 : 6);
        check(ctx, "heat3d27", (cls_boundary)b, b % 2 ? C : A, CLS_FLOAT32, g, 3, 5, 16, 4, 2,
              b % 2 ? 5 : 0);
        check(ctx, "user", (cls_boundary)b, b % 2 ? A : C, CLS_FLOAT32, g, 2, 3, 16, 8, 1, 4);
    }
    /* k = 1 (the single-pass kernel) .. 4; a grid smaller than one tile; several rows per
     * work-item. */
    for (size_t k = 1; k <= 4; k++)
        check(ctx, "heat3d7", CLS_BOUNDARY_CLAMP, A, CLS_FLOAT32, g, k, 4, 16, 5, 2, 0);
    check(ctx, "heat3d27", CLS_BOUNDARY_PERIODIC, C, CLS_FLOAT32, small, 4, 6, 16, 4, 3, 0);
    check(ctx, "heat3d7", CLS_BOUNDARY_MIRROR, A, CLS_FLOAT32, small, 3, 3, 32, 2, 4, 2);
    check(ctx, "jacobi3d", CLS_BOUNDARY_CONSTANT, A, CLS_FLOAT32, g, 4, 7, 16, 12, 1, 0);
    check(ctx, "jacobi3d", CLS_BOUNDARY_MIRROR, C, CLS_FLOAT32, g, 2, 2, 32, 8, 1, 5);
    check(ctx, "cell3d", CLS_BOUNDARY_PERIODIC, A, CLS_FLOAT32, g, 3, 4, 16, 8, 1, 0);
    check(ctx, "cell3d", CLS_BOUNDARY_CLAMP, C, CLS_FLOAT32, g, 2, 3, 16, 4, 2, 7);
    check(ctx, "nocentre", CLS_BOUNDARY_PERIODIC, C, CLS_FLOAT32, g, 4, 7, 16, 10, 1, 0);
    /* More steps asked per pass than the run has: one pass of all of them. */
    check(ctx, "heat3d7", CLS_BOUNDARY_CONSTANT, C, CLS_FLOAT32, g, 6, 2, 16, 8, 1, 0);
    cls_device_info info;
    cls_context_device(ctx, &info);
    if (info.double_support) {
        check(ctx, "heat3d27", CLS_BOUNDARY_MIRROR, A, CLS_FLOAT64, g, 2, 3, 16, 8, 1, 0);
        check(ctx, "heat3d7", CLS_BOUNDARY_PERIODIC, C, CLS_FLOAT64, g, 3, 4, 16, 8, 1, 6);
    }
    /* The planner's tile for a given k (no tile, no loader given). */
    cls_stencil *st = NULL;
    cls_plan_options opt;
    char params[256];
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = tb_params(params, sizeof params, NULL, 0, 0, 0, 0, 2);
    {
        cls_stencil_builtin("heat3d7", &st);
        size_t n = cls_dims_points(g);
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
              *ref = malloc(n * sizeof *ref);
        for (size_t i = 0; i < n; i++) in[i] = (float)init_value("heat3d7", i, 0);
        cls_plan *plan = NULL;
        cls_plan_info pi = {0};
        cls_status s = cls_plan_create(ctx, st, g, 3, &opt, &plan);
        if (s == CLS_SUCCESS) s = cls_plan_describe(plan, &pi);
        if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, NULL, out, NULL);
        if (s == CLS_SUCCESS) s = cls_reference_run(st, g, 3, in, NULL, ref);
        tap_ok(s == CLS_SUCCESS && plan_size(plan, "stream25d.steps_per_pass") == 2 &&
                   !memcmp(out, ref, n * sizeof *out),
               "heat3d7, 2 steps per pass, the planner's tile %zux%zu: == reference (%s)",
               pi.local_size[0], pi.local_size[1], s == CLS_SUCCESS ? "ok" : cls_last_error());
        cls_plan_release(plan);
        free(in);
        free(out);
        free(ref);
        cls_stencil_release(st);
    }
    /* Refusals say which limit they hit. */
    cls_stencil_create("far", 3, CLS_FLOAT32, "IN(0, 0, 2) + IN(0, 0, 0)", &st);
    refuse(ctx, "a radius-2 body with 2 steps per pass", st, g, &opt, CLS_ERR_PLAN_INFEASIBLE,
           "radius 1");
    cls_stencil_release(st);
    cls_stencil_builtin("heat3d7", &st);
    opt.params = tb_params(params, sizeof params, "direct", 0, 0, 0, 0, 2);
    refuse(ctx, "the direct loader with 2 steps per pass", st, g, &opt, CLS_ERR_PLAN_INFEASIBLE,
           "local memory");
    opt.params = tb_params(params, sizeof params, "classic", 16, 4, 0, 0, 2);
    refuse(ctx, "a tile with no output left", st, g, &opt, CLS_ERR_PLAN_INFEASIBLE,
           "no output left");
    opt.params = tb_params(params, sizeof params, "classic", 16, 4, 0, 0, 17);
    refuse(ctx, "17 steps per pass", st, g, &opt, CLS_ERR_INVALID_ARGUMENT, "1..16");
    opt.params = tb_params(params, sizeof params, "classic", 32, 8, 0, 0, 2);
    opt.max_registers = 300;
    refuse(ctx, "a register cap of 300", st, g, &opt, CLS_ERR_INVALID_ARGUMENT, "16 to 255");
    /* A register cap is NVIDIA's compiler option: elsewhere the plan builds without one and
     * says so. */
    opt.max_registers = 64;
    {
        cls_plan *plan = NULL;
        cls_plan_info pi;
        cls_status s = cls_plan_create(ctx, st, g, 3, &opt, &plan);
        int nv = strstr(info.name, "NVIDIA") != NULL;
        if (s == CLS_SUCCESS) cls_plan_describe(plan, &pi);
        tap_ok(s == CLS_SUCCESS && (nv ? pi.max_registers == 64
                                       : pi.max_registers == 0 &&
                                             strstr(pi.why, "register cap 64 ignored") != NULL),
               "a register cap of 64: %s", s == CLS_SUCCESS ? pi.why : cls_last_error());
        cls_plan_release(plan);
    }
    cls_stencil_release(st);
    cls_context_release(ctx);
    return tap_done();
}
