/* test_pipeline_order.c: the pipeline's dependencies (lib/schedules/pipeline/exec.c), read off the
 * profiling times that $CLSTENCIL_PIPE_TRACE writes.  A missing wait is a race that corrupts a
 * result only when the queues happen to interleave badly (a CI run once saw it); the times
 * show it on every run where the unguarded command ran early.  Each tile t must
 *   - compute after its input arrived: kernel 1 starts after write t and halo_copy t end;
 *   - be read after its last step: read t starts after kernel h ends;
 *   - (scalable, buffered) reuse buffer set t mod 3 only when tile t - 3 is done with it:
 *     write t starts after read t - 3 ends and after halo_copy t - 2 (which reads set
 *     t - 3's input box) ends.
 * The configurations include thin last tiles with auxiliary arrays, whose "write" is a
 * marker because the previous tile's box holds all their input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "tap.h"

/* One sweep's trace: per tile, the start and end (us) of each command; < 0 when absent. */
#define MAX_TILES 128
#define MAX_H 8
typedef struct span {
    double start, end;
} span;
typedef struct trace {
    size_t tiles, h;
    span write[MAX_TILES], halo[MAX_TILES], read[MAX_TILES], kernel[MAX_TILES][MAX_H + 1];
} trace;

static void trace_clear(trace *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < MAX_TILES; i++) {
        t->write[i] = t->halo[i] = t->read[i] = (span){-1, -1};
        for (size_t j = 0; j <= MAX_H; j++) t->kernel[i][j] = (span){-1, -1};
    }
}

/* Reads the rows of sweep 0 from the CSV at `path`; 0 when it cannot. */
static int trace_read(const char *path, trace *t)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int rows = 0;
    trace_clear(t);
    if (!f) return 0;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        char scheme[32], cmd[32];
        size_t tiles, h, sweep, tile, index;
        double queued, submit, start, end;
        if (sscanf(line, "%31[^,],%zu,%zu,%zu,%zu,%31[^,],%zu,%lf,%lf,%lf,%lf", scheme, &tiles,
                   &h, &sweep, &tile, cmd, &index, &queued, &submit, &start, &end) != 11)
            continue;
        if (sweep != 0 || tile >= MAX_TILES || h > MAX_H) continue;
        t->tiles = tiles, t->h = h;
        span s = {start, end};
        if (!strcmp(cmd, "write"))
            t->write[tile] = s;
        else if (!strcmp(cmd, "halo_copy"))
            t->halo[tile] = s;
        else if (!strcmp(cmd, "read"))
            t->read[tile] = s;
        else if (!strcmp(cmd, "kernel") && index >= 1 && index <= h)
            t->kernel[tile][index] = s;
        rows++;
    }
    fclose(f);
    return rows > 0;
}

/* Whether command `after` started no earlier than `before` ended; absent halo copies (tiles
 * without reuse) impose nothing.  Writes the first violation into msg. */
static int follows(span after, span before, const char *a, const char *b, size_t ta, size_t tb,
                   char *msg, size_t len)
{
    if (before.end < 0) return 1;
    if (after.start >= 0 && after.start >= before.end) return 1;
    if (!*msg)
        snprintf(msg, len, "%s %zu starts at %.3f us, before %s %zu ends at %.3f us", a, ta,
                 after.start, b, tb, before.end);
    return 0;
}

/* Checks every dependency of the header's list; returns 1 when all hold. */
static int check_order(const trace *t, int reuses_sets, char *msg, size_t len)
{
    int ok = 1;
    size_t sets = t->tiles < 3 ? t->tiles : 3;
    *msg = 0;
    for (size_t i = 0; i < t->tiles && i < MAX_TILES; i++) {
        if (t->write[i].end < 0 || t->read[i].end < 0 || t->kernel[i][t->h].end < 0) {
            if (!*msg) snprintf(msg, len, "tile %zu's write, last kernel or read has no times", i);
            ok = 0;
            continue;
        }
        ok &= follows(t->kernel[i][1], t->write[i], "kernel 1 of tile", "write", i, i, msg, len);
        ok &= follows(t->kernel[i][1], t->halo[i], "kernel 1 of tile", "halo_copy", i, i, msg, len);
        if (t->halo[i].start >= 0)
            ok &= follows(t->halo[i], t->write[i], "halo_copy", "write", i, i, msg, len);
        ok &= follows(t->read[i], t->kernel[i][t->h], "read", "last kernel of tile", i, i, msg,
                      len);
        if (reuses_sets && i >= sets) {
            ok &= follows(t->write[i], t->read[i - sets], "write", "read", i, i - sets, msg, len);
            ok &= follows(t->write[i], t->halo[i - sets + 1], "write", "halo_copy", i,
                          i - sets + 1, msg, len);
        }
    }
    return ok;
}

typedef struct config {
    const char *name;
    cls_boundary b;
    cls_dims dims;
    size_t steps;
    const char *scheme; /* as pipeline.scheme names it */
    size_t tile[3], h;
    int rect;
} config;

static void run_config(cls_context *ctx, const config *c, const char *path, int rounds)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    float *in = NULL, *out = NULL, *aux[4] = {NULL};
    char msg[256] = "";
    const char *what = c->scheme;
    int ok = cls_stencil_builtin(c->name, &st) == CLS_SUCCESS;
    size_t n = cls_dims_points(c->dims), na = ok ? cls_stencil_num_aux(st) : 0;
    if (ok) {
        cls_stencil_set_boundary(st, c->b, 0.5);
        in = calloc(n, sizeof *in);
        out = calloc(n, sizeof *out);
        for (size_t k = 0; k < na; k++) aux[k] = calloc(n, sizeof(float));
        for (size_t i = 0; in && i < n; i++) in[i] = (float)(i % 17);
        cls_plan_options opt;
        char params[160];
        cls_plan_options_init(&opt);
        opt.schedule = CLS_SCHEDULE_NAIVE;
        snprintf(params, sizeof params,
                 "pipeline.scheme=%s pipeline.tile=%zux%zux%zu pipeline.steps=%zu "
                 "pipeline.rect=%d",
                 c->scheme, c->tile[0], c->tile[1], c->tile[2], c->h, c->rect);
        opt.params = params;
        ok = in && out && cls_plan_create(ctx, st, c->dims, c->steps, &opt, &plan) == CLS_SUCCESS;
    }
    /* several rounds: each is one chance for an unguarded command to run early */
    for (int r = 0; ok && r < rounds; r++) {
        trace t;
        unlink(path);
        ok = cls_plan_run(plan, in, (const void *const *)aux, out, NULL) == CLS_SUCCESS;
        if (!ok) {
            snprintf(msg, sizeof msg, "run failed: %s", cls_last_error());
            break;
        }
        if (!trace_read(path, &t)) {
            snprintf(msg, sizeof msg, "no trace rows in %s", path);
            ok = 0;
            break;
        }
        ok = check_order(&t, strcmp(c->scheme, "basic") != 0, msg, sizeof msg);
        if (!ok) tap_diag("round %d of %d", r + 1, rounds);
    }
    if (!*msg && !ok) snprintf(msg, sizeof msg, "setup failed: %s", cls_last_error());
    tap_ok(ok, "%s %s %zux%zux%zu, %s tile %zux%zux%zu, h %zu%s: %s", c->name,
           cls_boundary_name(c->b), c->dims.n[0], c->dims.n[1], c->dims.n[2], what, c->tile[0],
           c->tile[1], c->tile[2], c->h, c->rect ? ", rect" : "",
           ok ? "every dependency holds" : msg);
    cls_plan_release(plan);
    cls_stencil_release(st);
    free(in);
    free(out);
    for (size_t k = 0; k < na; k++) free(aux[k]);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("pipeline dependencies", "no OpenCL device");
        return tap_done();
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/cls-order-%ld.csv", (long)getpid());
    setenv("CLSTENCIL_PIPE_TRACE", path, 1);
    const cls_dims d2 = {{37, 29, 1}}, d3 = {{13, 11, 10}};
    static const char *const schemes[3] = {"basic", "scalable", "buffered"};
    for (int s = 0; s < 3; s++) {
        const char *sc = schemes[s];
        const config cs[] = {
            /* thin last tiles (nothing new to write) with auxiliary arrays, rect and not */
            {"hotspot", CLS_BOUNDARY_MIRROR, d2, 3, sc, {37, 2, 1}, 3, 1},
            {"hotspot", CLS_BOUNDARY_CLAMP, d2, 3, sc, {37, 2, 1}, 3, 0},
            /* without auxiliary arrays; an even h (ends in the ping-pong box) */
            {"emboss", CLS_BOUNDARY_MIRROR, d2, 2, sc, {37, 3, 1}, 2, 0},
            /* 3D planes with halo reuse, and boxes without it */
            {"jacobi3d", CLS_BOUNDARY_CLAMP, d3, 4, sc, {13, 11, 1}, 2, 1},
            {"jacobi3d", CLS_BOUNDARY_MIRROR, d3, 2, sc, {5, 4, 3}, 2, 0},
        };
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) run_config(ctx, &cs[i], path, 5);
    }
    unlink(path);
    cls_context_release(ctx);
    return tap_done();
}
