/* test_stream25d.c: the stream25d schedule (classic, aligned and direct loaders) against the host
 * reference, bitwise: 7- and 27-point stencils, jacobi3d, cell3d's box, a radius-2 star, every
 * boundary, grids that are not multiples of the tile, columns split into chunks; the CSE of
 * point stencils and its flop count; and the plans stream25d refuses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

static double init_value(const char *name, size_t i)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ 0x9e3779b9u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double r = (h & 0xffff) / 65536.0;
    return strcmp(name, "cell3d") ? r : r < 0.35;
}

/* 13-point star of radius 2 (fourth-order Laplacian weights), a user stencil given as points. */
static cls_stencil *star13(void)
{
    static const double w[3] = {-7.5, 4.0 / 3, -1.0 / 12};
    cls_stencil *st = NULL;
    if (cls_stencil_create("star13", 3, CLS_FLOAT32, NULL, &st) != CLS_SUCCESS) return NULL;
    cls_stencil_add_point(st, 0, 0, 0, 1 + 0.01 * 3 * w[0]);
    for (int r = 1; r <= 2; r++)
        for (int d = 0; d < 3; d++)
            for (int s = -1; s <= 1; s += 2) {
                int off[3] = {0, 0, 0};
                off[d] = s * r;
                cls_stencil_add_point(st, off[0], off[1], off[2], 0.01 * w[r]);
            }
    return st;
}

/* heat3d27's weights given as 27 points (so the body is generated, with CSE). */
static cls_stencil *points27(void)
{
    static const double c[4] = {0.3, 0.05, 0.025, 0.0125};
    cls_stencil *st = NULL;
    if (cls_stencil_create("points27", 3, CLS_FLOAT32, NULL, &st) != CLS_SUCCESS) return NULL;
    for (int z = -1; z <= 1; z++)
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++)
                cls_stencil_add_point(st, x, y, z, c[abs(x) + abs(y) + abs(z)]);
    return st;
}

static cls_stencil *make(const char *name)
{
    cls_stencil *st = NULL;
    if (!strcmp(name, "star13")) return star13();
    if (!strcmp(name, "points27")) return points27();
    return cls_stencil_builtin(name, &st) == CLS_SUCCESS ? st : NULL;
}

/* Ragged against every tile used below, z split into uneven chunks when chunk > 0. */
static const cls_dims grid = {{37, 21, 13}};

/* stream25d.prefetch and stream25d.rows_per_item of the next check (0: default). */
static size_t prefetch_planes, item_rows;

/* The plan parameters of a stream25d request: the loader (NULL: the planner's), the XY
 * work-group, the planes per work-group, prefetch and rows per work-item (0: left out). */
static const char *s25_params(char *buf, size_t len, const char *loader, size_t bx, size_t by,
                              size_t chunk, size_t prefetch, size_t rows)
{
    size_t n = 0;
    buf[0] = '\0';
    if (loader) n += (size_t)snprintf(buf, len, "stream25d.loader=%s", loader);
    if (bx && n < len) n += (size_t)snprintf(buf + n, len - n, " stream25d.tile=%zux%zu", bx, by);
    if (chunk && n < len) n += (size_t)snprintf(buf + n, len - n, " stream25d.planes=%zu", chunk);
    if (prefetch && n < len)
        n += (size_t)snprintf(buf + n, len - n, " stream25d.prefetch=%zu", prefetch);
    if (rows && n < len) snprintf(buf + n, len - n, " stream25d.rows_per_item=%zu", rows);
    return buf;
}

/* Whether the plan's parameter `name` reads `want`. */
static int param_is(const cls_plan *plan, const char *name, const char *want)
{
    const char *v = cls_plan_param(plan, name);
    return v && !strcmp(v, want);
}

static int param_is_size(const cls_plan *plan, const char *name, size_t want)
{
    const char *v = cls_plan_param(plan, name);
    return v && strtoull(v, NULL, 10) == want;
}

/* loader: "classic", "aligned" or "direct". */
static void check(cls_context *ctx, const char *name, cls_boundary b, const char *loader,
                  cls_dtype dt, size_t bx, size_t by, size_t chunk)
{
    cls_stencil *st = make(name);
    cls_plan *plan = NULL;
    const size_t steps = 3;
    if (!st) {
        tap_ok(0, "%s: %s", name, cls_last_error());
        return;
    }
    cls_stencil_set_boundary(st, b, 0.25);
    cls_stencil_set_dtype(st, dt);
    size_t n = cls_dims_points(grid), es = cls_dtype_size(dt);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    for (size_t i = 0; i < n; i++) {
        double v = init_value(name, i);
        if (dt == CLS_FLOAT64) ((double *)in)[i] = v;
        else ((float *)in)[i] = (float)v;
    }
    cls_plan_options opt;
    char params[256];
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    opt.params = s25_params(params, sizeof params, loader, bx, by, chunk, prefetch_planes,
                            item_rows);
    cls_status s = cls_plan_create(ctx, st, grid, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, NULL, out, NULL);
    cls_status r = cls_reference_run(st, grid, steps, in, NULL, ref);
    char what[160];
    snprintf(what, sizeof what, "%s %s %s %s %zux%zu chunk %zu prefetch %zu rows %zu", name,
             cls_boundary_name(b), loader, dt == CLS_FLOAT64 ? "double" : "float",
             bx, by, chunk, prefetch_planes, item_rows);
    if (s != CLS_SUCCESS || r != CLS_SUCCESS) {
        tap_ok(0, "%s: %s", what, cls_last_error());
    } else {
        cls_plan_info pi;
        cls_plan_describe(plan, &pi);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += memcmp(out + i * es, ref + i * es, es) != 0;
        tap_ok(bad == 0 && pi.schedule == CLS_SCHEDULE_STREAM25D &&
                   param_is(plan, "stream25d.loader", loader) &&
                   (!prefetch_planes ||
                    param_is_size(plan, "stream25d.prefetch", prefetch_planes)) &&
                   (!item_rows || param_is_size(plan, "stream25d.rows_per_item", item_rows)),
               "%s: stream25d == reference bitwise (%zu points differ)", what, bad);
    }
    cls_plan_release(plan);
    cls_stencil_release(st);
    free(in);
    free(out);
    free(ref);
}

static void check_deep(cls_context *ctx, const char *name, cls_boundary b, const char *loader,
                       size_t planes, size_t rows, size_t bx, size_t by, size_t chunk)
{
    prefetch_planes = planes;
    item_rows = rows;
    check(ctx, name, b, loader, CLS_FLOAT32, bx, by, chunk);
    prefetch_planes = item_rows = 0;
}

static void refuse(cls_context *ctx, const char *what, cls_stencil *st, cls_dims d,
                   const cls_plan_options *opt, cls_status want, const char *needle)
{
    cls_plan *plan = NULL;
    cls_status s = cls_plan_create(ctx, st, d, 2, opt, &plan);
    tap_ok(s == want && !plan && strstr(cls_last_error(), needle), "%s is refused: %s", what,
           cls_last_error());
    cls_plan_release(plan);
}

int main(void)
{
    /* Common sub-expression elimination of point stencils (Mo & Li, Sect. 6.3): the symmetric
     * 27-point stencil needs 4 multiplications and 26 additions, not 27 and 26. */
    cls_stencil *st = points27();
    size_t flops = 0;
    cls_status fs = st ? cls_stencil_flops(st, &flops) : CLS_ERR_INVALID_SPEC;
    tap_ok(fs == CLS_SUCCESS && flops == 30, "heat3d27 as 27 points: %zu flops (ungrouped: 53)",
           flops);
    tap_ok(st && strstr(cls_stencil_body(st), "0.050000000000000003 * (IN(0, 0, -1) + "
                                              "IN(0, -1, 0) + IN(-1, 0, 0)") != NULL,
           "equal weights share one multiplication: %.80s...", st ? cls_stencil_body(st) : "");
    cls_stencil_release(st);
    cls_stencil_builtin("heat3d7", &st);
    fs = cls_stencil_flops(st, &flops);
    tap_ok(fs == CLS_SUCCESS && flops == 9, "heat3d7 as written (Eq. 1): %zu flops", flops);
    cls_stencil_release(st);

    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("stream25d schedule", "no OpenCL device");
        return tap_done();
    }
    /* Each program takes PoCL seconds to build, so the matrix is chosen, not full: the 27-point
     * box (corners) with both local-memory loaders on every boundary, the other stencils with
     * both loaders on one boundary each; tiles that leave ragged edges in x and y, columns
     * split in chunks (13 planes = 5 + 5 + 3, 4 + 4 + 4 + 1, 6 + 6 + 1) half of the time; the
     * deeper software prefetch (2 and 3 planes) and several rows per work-item in between. */
    for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) {
        check(ctx, "heat3d27", (cls_boundary)b, "classic", CLS_FLOAT32, 16, 4,
              b % 2 ? 5 : 0);
        if (b == CLS_BOUNDARY_PERIODIC)
            check_deep(ctx, "heat3d27", (cls_boundary)b, "aligned", 2, 2, 16, 4, 5);
        else
            check(ctx, "heat3d27", (cls_boundary)b, "aligned", CLS_FLOAT32, 16, 4,
                  b % 2 ? 0 : 5);
    }
    check(ctx, "heat3d7", CLS_BOUNDARY_MIRROR, "classic", CLS_FLOAT32, 32, 2, 5);
    check_deep(ctx, "heat3d7", CLS_BOUNDARY_PERIODIC, "aligned", 3, 2, 8, 8, 0);
    /* jacobi3d divides, cell3d reads the 3x3x3 box and compares. */
    check(ctx, "jacobi3d", CLS_BOUNDARY_CONSTANT, "classic", CLS_FLOAT32, 8, 8, 4);
    check(ctx, "jacobi3d", CLS_BOUNDARY_CLAMP, "aligned", CLS_FLOAT32, 32, 2, 0);
    check_deep(ctx, "cell3d", CLS_BOUNDARY_MIRROR, "classic", 2, 3, 8, 3, 0);
    check(ctx, "cell3d", CLS_BOUNDARY_CONSTANT, "aligned", CLS_FLOAT32, 16, 3, 6);
    /* A radius-2 star (a 5x5x5 window); 2 rows of a 16x1 work-group make the 2 halo rows. */
    check_deep(ctx, "star13", CLS_BOUNDARY_CLAMP, "classic", 3, 1, 16, 4, 0);
    check_deep(ctx, "star13", CLS_BOUNDARY_PERIODIC, "aligned", 1, 2, 16, 1, 6);
    /* The local-memory-free loader (CPUs): rows of 16 points, 4 rows per work-item. */
    check(ctx, "heat3d27", CLS_BOUNDARY_CONSTANT, "direct", CLS_FLOAT32, 16, 4, 5);
    check(ctx, "points27", CLS_BOUNDARY_MIRROR, "direct", CLS_FLOAT32, 0, 0, 0);
    check(ctx, "star13", CLS_BOUNDARY_PERIODIC, "direct", CLS_FLOAT32, 8, 2, 5);
    /* Double precision. */
    cls_device_info info;
    cls_context_device(ctx, &info);
    if (info.double_support)
        check(ctx, "heat3d27", CLS_BOUNDARY_MIRROR, "aligned", CLS_FLOAT64, 16, 4, 0);

    /* The planner's own choices (no tile, no chunk, no loader given). */
    check(ctx, "heat3d7", CLS_BOUNDARY_CLAMP, info.type == CLS_DEVICE_CPU ? "direct"
                                                                         : "aligned",
          CLS_FLOAT32, 0, 0, 0);

    /* Refusals say which limit they hit. */
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_STREAM25D;
    cls_stencil_builtin("moving_average", &st);
    refuse(ctx, "a 1D stencil", st, (cls_dims){{4096, 1, 1}}, &opt, CLS_ERR_UNSUPPORTED, "3D");
    cls_stencil_release(st);
    cls_stencil_create("far", 3, CLS_FLOAT32, "IN(0, 0, 3) + IN(0, 0, 0)", &st);
    opt.params = "stream25d.window=full"; /* the column window runs it (test_stream25d_column) */
    refuse(ctx, "an offset of 3", st, grid, &opt, CLS_ERR_PLAN_INFEASIBLE, "offset 3");
    opt.params = NULL;
    cls_stencil_release(st);
    st = star13();
    char params[256];
    opt.params = s25_params(params, sizeof params, "classic", 16, 1, 0, 0, 1);
    refuse(ctx, "a classic tile narrower than the halo", st, grid, &opt, CLS_ERR_PLAN_INFEASIBLE,
           "at least as large as the halo");
    opt.params = s25_params(params, sizeof params, "classic", 16, 1 << 20, 0, 0, 1);
    refuse(ctx, "an oversized tile", st, grid, &opt, CLS_ERR_PLAN_INFEASIBLE, "work-items");
    /* Loader names: the ones the checks above read back, and an unknown one refused with the
     * names stream25d.loader takes. */
    opt.params = "stream25d.loader=fast";
    refuse(ctx, "an unknown loader name", st, grid, &opt, CLS_ERR_INVALID_ARGUMENT,
           "classic, aligned, direct");
    cls_stencil_release(st);
    cls_context_release(ctx);
    return tap_done();
}
