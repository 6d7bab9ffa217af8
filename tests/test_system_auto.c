/* test_system_auto.c: the ghost-zone model and AUTO for systems of fields on the test device.
 * For gray_scott (two fields, one stage), wave2d (a field and its time level) and fdtd2d (three
 * fields, two stages): the measured profile carries the system's shape (fields, stages, the
 * summed reach, each stage's own reach and cost), read back from the disk cache bit for bit
 * and measured again when its stage values are missing; the trapezoid asked for with nothing given
 * plans the model's pick with a prediction; AUTO prices the naive schedule, the trapezoid and
 * cputile and takes the lowest prediction; both plans run bitwise equal to cls_reference_run_fields on
 * a grid the tiles do not divide; with the naive schedule's measured rate made slow, AUTO
 * takes the trapezoid and runs it bitwise.  Under the H100 stand-in (its model allows 48 KiB of local
 * memory per work-group) a tile whose fields' buffers exceed that is refused with the bytes,
 * the buffers and the model's limit, and a smaller one plans. */
#define _XOPEN_SOURCE 700 /* nftw, setenv, mkdtemp (h100_standin.h) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clstencil.h"
#include "clstencil_tune.h"
#include "h100_standin.h"
#include "tap.h"

enum { STEPS = 9, MAXF = 4 };

typedef struct grids {
    size_t nf, n;
    cls_dims dims;
    float *in[MAXF], *ref[MAXF], *out[MAXF];
} grids;

static void grids_free(grids *g)
{
    for (size_t f = 0; f < MAXF; f++) free(g->in[f]), free(g->ref[f]), free(g->out[f]);
}

/* Smooth values in [0.1, 0.9] that differ per field and point (Gray-Scott's u and v stay in
 * their range, the waves stay bounded). */
static float sample(size_t f, size_t i)
{
    uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull + (f + 1) * 0xbf58476d1ce4e5b9ull;
    x ^= x >> 31;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 29;
    return 0.1f + 0.8f * (float)(x >> 40) / (float)(1ull << 24);
}

static int grids_make(grids *g, const cls_stencil *st)
{
    memset(g, 0, sizeof *g);
    g->dims = (cls_dims){{97, 83, 1}}; /* no tile's inner block divides these */
    g->n = cls_dims_points(g->dims);
    g->nf = cls_stencil_num_fields(st);
    if (g->nf > MAXF || cls_stencil_num_aux(st) > 0) return 0;
    for (size_t f = 0; f < g->nf; f++) {
        g->in[f] = malloc(g->n * sizeof(float));
        g->ref[f] = calloc(g->n, sizeof(float));
        g->out[f] = calloc(g->n, sizeof(float));
        if (!g->in[f] || !g->ref[f] || !g->out[f]) return 0;
        for (size_t i = 0; i < g->n; i++) g->in[f][i] = sample(f, i);
    }
    return cls_reference_run_fields(st, g->dims, STEPS, (const void *const *)g->in, NULL,
                                    (void *const *)g->ref) == CLS_SUCCESS;
}

/* Runs the plan on the inputs and compares every field with the reference bitwise. */
static int run_equal(cls_plan *p, grids *g)
{
    for (size_t f = 0; f < g->nf; f++) memset(g->out[f], 0, g->n * sizeof(float));
    if (cls_plan_run_fields(p, (const void *const *)g->in, NULL, (void *const *)g->out, NULL) !=
        CLS_SUCCESS)
        return 0;
    for (size_t f = 0; f < g->nf; f++)
        if (memcmp(g->out[f], g->ref[f], g->n * sizeof(float))) return 0;
    return 1;
}

/* The prediction of a schedule's priced (not declined) resident candidate, 0 if none. */
static double candidate_seconds(const cls_plan *plan, cls_schedule schedule)
{
    for (size_t i = 0; i < cls_plan_num_candidates(plan); i++) {
        cls_plan_candidate c;
        if (cls_plan_candidate_info(plan, i, &c) == CLS_SUCCESS && !c.host && !c.declined &&
            c.schedule == schedule && c.predicted_seconds > 0)
            return c.predicted_seconds;
    }
    return 0;
}

typedef struct expect {
    const char *name;
    int fields, stages, halo_width; /* halo_width: 2 x the summed reach, both axes */
} expect;

static int same_stages(const cls_ghost_profile *a, const cls_ghost_profile *b)
{
    if (a->num_stages != b->num_stages || a->insts_per_sm_ic != b->insts_per_sm_ic) return 0;
    for (int g = 0; g < a->num_stages; g++)
        if (a->stage_insts_per_sm_ic[g] != b->stage_insts_per_sm_ic[g]) return 0;
    return 1;
}

/* A new context reads a system's profile back with its stages' values bit for bit; a file
 * whose stage values are missing is measured again. */
static void check_cache(const cls_stencil *st, const cls_ghost_profile *p, const char *name)
{
    cls_context *c = NULL;
    cls_ghost_profile q;
    char path[4096];
    int fc = -1;
    int ok = cls_context_create(NULL, &c) == CLS_SUCCESS &&
             cls_ghost_profile_path(c, st, path, sizeof path) == CLS_SUCCESS &&
             cls_ghost_profile_get(c, st, &q, &fc) == CLS_SUCCESS;
    cls_context_release(c);
    c = NULL;
    tap_ok(ok && fc == 1 && same_stages(p, &q),
           "%s: a new context reads the profile and each stage's value from the cache", name);
    if (!ok) return;
    /* the stage values' key renamed: the entry lacks them */
    FILE *f = fopen(path, "rb");
    char text[16384];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = 0;
    char *key = strstr(text, "stage_insts_per_sm_ic");
    if (key) key[0] = 'x';
    f = key ? fopen(path, "wb") : NULL;
    if (f) {
        fwrite(text, 1, n, f);
        fclose(f);
    }
    fc = -1;
    ok = f && cls_context_create(NULL, &c) == CLS_SUCCESS &&
         cls_ghost_profile_get(c, st, &q, &fc) == CLS_SUCCESS;
    cls_context_release(c);
    tap_ok(ok && fc == 0 && q.num_stages == p->num_stages && q.stage_insts_per_sm_ic[0] > 0 &&
               q.stage_insts_per_sm_ic[1] > 0,
           "%s: an entry without the stages' values is measured again", name);
}

static void check_profile(cls_context *ctx, const cls_stencil *st, const expect *e)
{
    cls_ghost_profile p;
    int from_cache = 0;
    cls_status s = cls_ghost_profile_get(ctx, st, &p, &from_cache);
    if (!tap_ok(s == CLS_SUCCESS, "%s: a system's profile is measured or read (%s)", e->name,
                s == CLS_SUCCESS ? (from_cache ? "cached" : "measured") : cls_last_error()))
        return;
    tap_ok(p.num_fields == e->fields && p.num_stages == e->stages &&
               p.halo_width[0] == e->halo_width && p.halo_width[1] == e->halo_width &&
               p.halo_width[2] == 0 && p.num_stencil_arrays == e->fields,
           "%s: its shape: %g fields (want %d), %d stages (want %d), HaloWidth %dx%d (want %d, "
           "twice the summed reach), %g arrays loaded",
           e->name, p.num_fields, e->fields, p.num_stages, e->stages, p.halo_width[0],
           p.halo_width[1], e->halo_width, p.num_stencil_arrays);
    int stages_ok = p.insts_per_sm_mc > 0 && p.insts_per_sm_ic > 0 &&
                    p.naive_seconds_per_point > 0 && p.alpha > 0;
    int width_sum[2] = {0, 0};
    for (int g = 0; e->stages >= 2 && g < p.num_stages; g++) {
        stages_ok &= p.stage_insts_per_sm_ic[g] > 0;
        width_sum[0] += p.stage_halo_width[g][0];
        width_sum[1] += p.stage_halo_width[g][1];
    }
    if (e->stages >= 2)
        stages_ok &= width_sum[0] == e->halo_width && width_sum[1] == e->halo_width;
    tap_ok(stages_ok, "%s: InstsPerSM_MC %.4g, IC %.4g%s, naive %.3g ns/point, alpha %.3g",
           e->name, p.insts_per_sm_mc, p.insts_per_sm_ic,
           e->stages >= 2 ? " (each stage measured alone, their widths summing to HaloWidth)"
                          : "",
           p.naive_seconds_per_point * 1e9, p.alpha);
    if (e->stages >= 2) check_cache(st, &p, e->name);
}

static void check_system(cls_context *ctx, const expect *e)
{
    cls_stencil *st = NULL;
    grids g;
    if (!tap_ok(cls_stencil_builtin(e->name, &st) == CLS_SUCCESS, "%s: built in", e->name)) return;
    if (!tap_ok(grids_make(&g, st), "%s: inputs and the reference", e->name)) {
        grids_free(&g);
        cls_stencil_release(st);
        return;
    }
    check_profile(ctx, st, e);

    /* The trapezoid asked for with nothing given: the model's tile, height and sync. */
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    cls_plan *p = NULL;
    cls_plan_info pi;
    cls_status s = cls_plan_create(ctx, st, g.dims, STEPS, &opt, &p);
    if (s == CLS_SUCCESS) cls_plan_describe(p, &pi);
    tap_ok(s == CLS_SUCCESS && pi.predicted_seconds > 0 && cls_plan_param(p, "trapezoid.tile") &&
               cls_plan_param(p, "trapezoid.height") && strstr(pi.why, "ghost-zone model"),
           "%s: the trapezoid with nothing given plans tile %s, h %s, predicted %.3g s", e->name,
           s == CLS_SUCCESS ? cls_plan_param(p, "trapezoid.tile") : "-",
           s == CLS_SUCCESS ? cls_plan_param(p, "trapezoid.height") : "-",
           s == CLS_SUCCESS ? pi.predicted_seconds : 0);
    if (s != CLS_SUCCESS) tap_diag("%s", cls_last_error());
    tap_ok(s == CLS_SUCCESS && run_equal(p, &g), "%s: the model's trapezoid runs bitwise equal to "
                                                 "the reference", e->name);
    cls_plan_release(p);
    p = NULL;

    /* AUTO: both schedules priced, the lower prediction taken. */
    cls_plan_options_init(&opt);
    s = cls_plan_create(ctx, st, g.dims, STEPS, &opt, &p);
    if (s == CLS_SUCCESS) cls_plan_describe(p, &pi);
    double naive_s = s == CLS_SUCCESS ? candidate_seconds(p, CLS_SCHEDULE_NAIVE) : 0;
    double trap_s = s == CLS_SUCCESS ? candidate_seconds(p, CLS_SCHEDULE_TRAPEZOID) : 0;
    /* cputile competes where the device model lets AUTO take it (0: declined) */
    double tile_s = s == CLS_SUCCESS ? candidate_seconds(p, CLS_SCHEDULE_CPUTILE) : 0;
    cls_schedule lower = trap_s < naive_s ? CLS_SCHEDULE_TRAPEZOID : CLS_SCHEDULE_NAIVE;
    double lowest = trap_s < naive_s ? trap_s : naive_s;
    if (tile_s > 0 && tile_s < lowest) {
        lower = CLS_SCHEDULE_CPUTILE;
        lowest = tile_s;
    }
    tap_ok(s == CLS_SUCCESS && naive_s > 0 && trap_s > 0 && pi.schedule == lower &&
               pi.predicted_seconds == lowest,
           "%s: AUTO predicts naive %.4g s, trapezoid %.4g s, cputile %.4g s (0: declined) and "
           "takes %s",
           e->name, naive_s, trap_s, tile_s,
           s == CLS_SUCCESS ? cls_schedule_name(pi.schedule) : cls_last_error());
    tap_ok(s == CLS_SUCCESS && run_equal(p, &g), "%s: the AUTO plan runs bitwise equal to the "
                                                 "reference", e->name);
    cls_plan_release(p);
    grids_free(&g);
    cls_stencil_release(st);
}

/* AUTO takes the trapezoid where it predicts a gain: the system's measured profile with the
 * naive schedule's rate set to a microsecond per point (a device where every global access is
 * slow), in a cache of its own; the trapezoid is then predicted faster than naive, and the AUTO
 * plan, the trapezoid (cputile where the device model lets AUTO take it and predicts it
 * faster still), runs bitwise equal to the reference. */
static void auto_takes_trapezoid(const char *name)
{
    cls_stencil *st = NULL;
    cls_context *ctx = NULL;
    grids g;
    char path[4096], dir[4096], *text = NULL;
    const char *base = getenv("CLSTENCIL_CACHE_DIR");
    size_t n = 0;
    int ok = cls_stencil_builtin(name, &st) == CLS_SUCCESS && grids_make(&g, st) &&
             cls_context_create(NULL, &ctx) == CLS_SUCCESS &&
             cls_ghost_profile_path(ctx, st, path, sizeof path) == CLS_SUCCESS;
    cls_context_release(ctx);
    ctx = NULL;
    FILE *f = ok ? fopen(path, "rb") : NULL;
    if (f && (text = calloc(1, 16384))) n = fread(text, 1, 16383, f);
    if (f) fclose(f);
    /* "naive_seconds_per_point": <number>, -> 1e-06 */
    char *at = text ? strstr(text, "\"naive_seconds_per_point\":") : NULL, *end = NULL;
    if (at) end = strchr(at, ',');
    char edited[16384];
    if (at && end && n < sizeof edited - 64) {
        int lead = (int)(at - text);
        snprintf(edited, sizeof edited, "%.*s\"naive_seconds_per_point\": 1e-06%s", lead, text,
                 end);
    } else {
        ok = 0;
    }
    snprintf(dir, sizeof dir, "%s/slow-naive", base ? base : ".");
    mkdir(dir, 0777);
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    ok = ok && cls_context_create(NULL, &ctx) == CLS_SUCCESS &&
         cls_ghost_profile_path(ctx, st, path, sizeof path) == CLS_SUCCESS;
    f = ok ? fopen(path, "wb") : NULL;
    ok = f && fputs(edited, f) >= 0;
    if (f) fclose(f);
    cls_plan *p = NULL;
    cls_plan_info pi;
    cls_status s = ok ? cls_plan_create(ctx, st, g.dims, STEPS, NULL, &p) : CLS_ERR_CACHE;
    if (s == CLS_SUCCESS) cls_plan_describe(p, &pi);
    double naive_s = s == CLS_SUCCESS ? candidate_seconds(p, CLS_SCHEDULE_NAIVE) : 0;
    double trap_s = s == CLS_SUCCESS ? candidate_seconds(p, CLS_SCHEDULE_TRAPEZOID) : 0;
    double tile_s = s == CLS_SUCCESS ? candidate_seconds(p, CLS_SCHEDULE_CPUTILE) : 0;
    /* the trapezoid where cputile is declined or predicted slower (cputile's model does not
     * use the naive rate) */
    cls_schedule want = tile_s > 0 && tile_s < trap_s ? CLS_SCHEDULE_CPUTILE
                                                      : CLS_SCHEDULE_TRAPEZOID;
    tap_ok(s == CLS_SUCCESS && pi.schedule == want && trap_s > 0 && trap_s < naive_s,
           "%s with a slow naive rate: AUTO predicts naive %.4g s, trapezoid %.4g s, cputile "
           "%.4g s (0: declined) and takes %s",
           name, naive_s, trap_s, tile_s, s == CLS_SUCCESS ? cls_schedule_name(pi.schedule) : "-");
    tap_ok(s == CLS_SUCCESS && run_equal(p, &g),
           "%s: AUTO's %s runs bitwise equal to the reference", name,
           s == CLS_SUCCESS ? cls_schedule_name(pi.schedule) : "plan");
    cls_plan_release(p);
    cls_context_release(ctx);
    if (base) setenv("CLSTENCIL_CACHE_DIR", base, 1);
    free(text);
    grids_free(&g);
    cls_stencil_release(st);
}

/* The H100 stand-in: F fields' buffers within the model's 48 KiB of local memory. */
static void local_memory_rule(void)
{
    char cache[4096], model[4096];
    const char *base = getenv("CLSTENCIL_CACHE_DIR");
    cls_context *ctx = NULL;
    snprintf(cache, sizeof cache, "%s/h100-standin", base ? base : ".");
    setenv("CLSTENCIL_CACHE_DIR", cache, 1);
    if (!standin_context(model, sizeof model, &ctx)) {
        cls_context_release(ctx);
        tap_skip("the local memory of a system's tiles", "no H100 stand-in");
        return;
    }
    cls_stencil *st = NULL;
    cls_stencil_builtin("gray_scott", &st);
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    cls_plan *p = NULL;
    /* gray_scott's two fields rotate through 4 buffers: a 64x64 tile with its margin of one
     * needs 4 x 66 x 66 x 4 = 69696 bytes, a 32x32 one 4 x 34 x 34 x 4 = 18496 */
    opt.params = "trapezoid.tile=64x64 trapezoid.points_per_item=16 trapezoid.height=2 "
                 "trapezoid.sync=restart";
    cls_status s = cls_plan_create(ctx, st, (cls_dims){{200, 200, 1}}, 4, &opt, &p);
    tap_ok(s == CLS_ERR_PLAN_INFEASIBLE && strstr(cls_last_error(), "69696 bytes") &&
               strstr(cls_last_error(), "4 buffers") && strstr(cls_last_error(), "49152"),
           "gray_scott on the H100's model: a 64x64 tile is refused (%s)", cls_last_error());
    cls_plan_release(p);
    p = NULL;
    opt.params = "trapezoid.tile=32x32 trapezoid.points_per_item=4 trapezoid.height=2 "
                 "trapezoid.sync=restart";
    s = cls_plan_create(ctx, st, (cls_dims){{200, 200, 1}}, 4, &opt, &p);
    tap_ok(s == CLS_SUCCESS, "gray_scott on the H100's model: a 32x32 tile fits%s%s",
           s == CLS_SUCCESS ? "" : ": ", s == CLS_SUCCESS ? "" : cls_last_error());
    cls_plan_release(p);
    cls_stencil_release(st);
    cls_context_release(ctx);
    if (base) setenv("CLSTENCIL_CACHE_DIR", base, 1);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("AUTO for systems of fields", "no OpenCL device");
        return tap_done();
    }
    static const expect systems[] = {
        {"gray_scott", 2, 1, 2}, {"wave2d", 2, 1, 2}, {"fdtd2d", 3, 2, 4}};
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++) check_system(ctx, &systems[i]);
    cls_context_release(ctx);
    auto_takes_trapezoid("fdtd2d");
    local_memory_rule();
    return tap_done();
}
