/* test_tune.c: the tuner: its optimal h equals the brute-force minimum over integer h for fixed
 * profiles (the document's and a measured-looking one, both sync modes, both executors); the
 * profile cache (hit, corrupt entry rebuilt); on the test device the tuner's pick is feasible,
 * runs bitwise equal to the reference and is the model's integer optimum;
 * CLS_SCHEDULE_AUTO never takes a schedule the model predicts slower; and the exhaustive search
 * measures everything AUTO chooses from (the naive plan among the rows), with both ratios (best
 * of all over AUTO's pick, best trapezoid over the model's) and both picks confirmed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_tune.h"
#include "tap.h"

/* ---------------------------------------------------------------- the model alone */
static void brute_force_cases(const char *model_name, const cls_ghost_profile *p,
                              const cls_dims *sizes, size_t n_sizes, const size_t (*blocks)[3],
                              size_t n_blocks, unsigned flags)
{
    cls_model *m = NULL;
    size_t cases = 0, agree = 0;
    char first_bad[256] = "";
    if (cls_model_from_name(model_name, &m) != CLS_SUCCESS) {
        tap_ok(0, "model %s: %s", model_name, cls_last_error());
        return;
    }
    for (size_t s = 0; s < n_sizes; s++)
        for (size_t b = 0; b < n_blocks; b++)
            for (int mode = CLS_SYNC_RESTART; mode <= CLS_SYNC_BARRIER; mode++)
                for (size_t cap = (flags & CLS_GHOST_RUN) ? 5 : 0; cap <= 24; cap += 8) {
                    cls_ghost_opt o;
                    int h = 0;
                    double cpl = 0;
                    if (cls_ghost_optimize(m, p, sizes[s], blocks[b], cap, (cls_sync)mode, flags,
                                           &o) != CLS_SUCCESS)
                        continue; /* a block that admits no h (checked elsewhere) */
                    cases++;
                    if (cls_ghost_brute_force(m, p, sizes[s], blocks[b], cap, (cls_sync)mode,
                                              flags, &h, &cpl) == CLS_SUCCESS &&
                        (h == o.h || fabs(cpl - o.cpl) <= 1e-12 * cpl))
                        agree++;
                    else if (!first_bad[0])
                        snprintf(first_bad, sizeof first_bad,
                                 "block %zux%zux%zu mode %d cap %zu: optimizer h %d, brute force "
                                 "h %d",
                                 blocks[b][0], blocks[b][1], blocks[b][2], mode, cap, o.h, h);
                }
    tap_ok(cases > 0 && agree == cases,
           "%s, %s, %s equations%s: optimizer == brute force over integer h in %zu of %zu cases %s",
           model_name, p->source, (flags & CLS_GHOST_EXECUTOR) ? "executor" : "document",
           (flags & CLS_GHOST_RUN) ? ", run time of h_cap steps" : "", agree, cases, first_bad);
    cls_model_release(m);
}

static void model_tests(void)
{
    static const size_t blocks2[][3] = {{16, 16, 1}, {20, 20, 1}, {32, 16, 1}, {32, 32, 1},
                                        {64, 32, 1}, {64, 64, 1}, {128, 32, 1}};
    static const size_t blocks1[][3] = {{256, 1, 1}, {1024, 1, 1}, {4096, 1, 1}};
    static const size_t blocks3[][3] = {{8, 8, 8}, {16, 8, 8}, {16, 16, 16}};
    static const cls_dims sizes2[] = {{{2000, 2000, 1}}, {{8192, 8192, 1}}, {{300, 700, 1}}};
    static const cls_dims sizes1[] = {{{1000000, 1, 1}}, {{10000000, 1, 1}}};
    static const cls_dims sizes3[] = {{{100, 100, 100}}, {{384, 384, 384}}};
    static const char *const apps[] = {"pathfinder", "hotspot", "poisson2d", "cell3d"};
    for (size_t a = 0; a < 4; a++) {
        cls_ghost_profile p;
        if (cls_ghost_profile_document(apps[a], &p) != CLS_SUCCESS) {
            tap_ok(0, "document profile %s: %s", apps[a], cls_last_error());
            continue;
        }
        static const unsigned fl[] = {CLS_GHOST_DOCUMENT, CLS_GHOST_EXECUTOR,
                                      CLS_GHOST_EXECUTOR | CLS_GHOST_RUN};
        for (size_t f = 0; f < 3; f++) {
            unsigned flags = fl[f];
            if (p.dims == 1)
                brute_force_cases("gtx280", &p, sizes1, 2, blocks1, 3, flags);
            else if (p.dims == 2)
                brute_force_cases("gtx280", &p, sizes2, 3, blocks2, 7, flags);
            else
                brute_force_cases("gtx280", &p, sizes3, 2, blocks3, 3, flags);
        }
    }
    /* A profile as the timing method produces it (tau off, a measured alpha, persistent-kernel
     * values), on the H100's measured model. */
    cls_ghost_profile q;
    cls_ghost_profile_document("hotspot", &q);
    q.insts_per_sm_mc = 31000;
    q.insts_per_sm_ic = 2400;
    q.insts_per_sm_mc_persistent = 52000;
    q.insts_per_sm_ic_persistent = 3100;
    q.n = 33554432;
    q.alpha = 1.3;
    snprintf(q.source, sizeof q.source, "a fixed measured-style profile");
    brute_force_cases("h100", &q, sizes2, 3, blocks2, 7, CLS_GHOST_EXECUTOR);
    brute_force_cases("h100", &q, sizes2, 3, blocks2, 7, CLS_GHOST_DOCUMENT);
    brute_force_cases("h100", &q, sizes2, 3, blocks2, 7, CLS_GHOST_EXECUTOR | CLS_GHOST_RUN);

    /* The document's reported heights through the public API (HotSpot 20x20 over 2000^2). */
    cls_model *m = NULL;
    cls_ghost_profile hs;
    cls_ghost_opt o[2];
    cls_ghost_eval e;
    size_t blk[3] = {20, 20, 1};
    cls_dims d = {{2000, 2000, 1}};
    cls_model_from_name("gtx280", &m);
    cls_ghost_profile_document("hotspot", &hs);
    int ok = m && cls_ghost_optimize(m, &hs, d, blk, 0, CLS_SYNC_RESTART, 0, &o[0]) == 0 &&
             cls_ghost_optimize(m, &hs, d, blk, 0, CLS_SYNC_BARRIER, 0, &o[1]) == 0 &&
             cls_ghost_evaluate(m, &hs, d, blk, 2, CLS_SYNC_RESTART, 0, &e) == 0;
    tap_ok(ok && o[0].h == 2 && o[1].h == 2 && fabs(e.CPL - 3567378) < 1 && e.delta > 0 &&
               fabs(e.GlbSync + e.LoadSten + e.Commit + e.MiscComp + e.IterComp + e.IterMem -
                    e.CPL) < 1e-6 * e.CPL,
           "HotSpot on the GTX 280: h 2 in both modes, CPL(2) = %.0f, delta %.2f > 0, Eqs. 25-30 "
           "sum to CPL",
           ok ? e.CPL : 0, ok ? e.delta : 0);
    cls_model_release(m);
}

/* ---------------------------------------------------------------- on the test device */
static int same_profile(const cls_ghost_profile *a, const cls_ghost_profile *b)
{
    return a->insts_per_sm_mc == b->insts_per_sm_mc && a->insts_per_sm_ic == b->insts_per_sm_ic &&
           a->alpha == b->alpha && a->naive_seconds_per_point == b->naive_seconds_per_point &&
           a->n == b->n;
}

/* Hit, then a corrupt entry rebuilt, in a cache folder of the test's own. */
static void cache_tests(const cls_stencil *st)
{
    char dir[] = "/tmp/clstencil-tune-XXXXXX", path[1024];
    const char *old = getenv("CLSTENCIL_CACHE_DIR");
    char *saved = old ? strdup(old) : NULL;
    cls_ghost_profile p1, p2, p3, p4;
    int fc1 = -1, fc2 = -1, fc3 = -1, fc4 = -1;
    cls_context *c;
    if (!mkdtemp(dir)) {
        tap_ok(0, "mkdtemp");
        free(saved);
        return;
    }
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    /* Each step on a new context: the in-memory copy stays with its context. */
    int ok1 = cls_context_create(NULL, &c) == CLS_SUCCESS &&
              cls_ghost_profile_get(c, st, &p1, &fc1) == CLS_SUCCESS &&
              cls_ghost_profile_path(c, st, path, sizeof path) == CLS_SUCCESS;
    cls_context_release(c);
    tap_ok(ok1 && fc1 == 0 && access(path, R_OK) == 0 && p1.insts_per_sm_mc > 0 &&
               p1.insts_per_sm_ic > 0 && p1.naive_seconds_per_point > 0,
           "a missing profile is measured and stored (%s): InstsPerSM_MC %.4g, IC %.4g, "
           "alpha %.3g, %.2f s",
           ok1 ? path : cls_last_error(), p1.insts_per_sm_mc, p1.insts_per_sm_ic, p1.alpha,
           p1.seconds);
    int ok2 = cls_context_create(NULL, &c) == CLS_SUCCESS &&
              cls_ghost_profile_get(c, st, &p2, &fc2) == CLS_SUCCESS;
    cls_context_release(c);
    tap_ok(ok2 && fc2 == 1 && same_profile(&p1, &p2), "a new context reads it from the cache");

    FILE *f = fopen(path, "w");
    if (f) {
        fputs("{\"format\": \"libclstencil ghost-zone profile v3\", \"insts_per_sm_mc\": ", f);
        fclose(f);
    }
    int ok3 = cls_context_create(NULL, &c) == CLS_SUCCESS &&
              cls_ghost_profile_get(c, st, &p3, &fc3) == CLS_SUCCESS;
    cls_context_release(c);
    int ok4 = cls_context_create(NULL, &c) == CLS_SUCCESS &&
              cls_ghost_profile_get(c, st, &p4, &fc4) == CLS_SUCCESS;
    cls_context_release(c);
    tap_ok(f && ok3 && fc3 == 0 && p3.insts_per_sm_mc > 0 && ok4 && fc4 == 1 &&
               same_profile(&p3, &p4),
           "a corrupt entry is ignored, measured again and rewritten (then read back)");

    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) tap_diag("could not remove %s", dir);
    if (saved)
        setenv("CLSTENCIL_CACHE_DIR", saved, 1);
    else
        unsetenv("CLSTENCIL_CACHE_DIR");
    free(saved);
}

/* The plan parameters of a trapezoid tuning entry. */
static const char *entry_params(char *buf, size_t len, const cls_tune_entry *e)
{
    snprintf(buf, len,
             "trapezoid.tile=%zux%zux%zu trapezoid.points_per_item=%zu trapezoid.height=%zu "
             "trapezoid.sync=%s",
             e->tile[0], e->tile[1], e->tile[2], e->points_per_item, e->h,
             cls_sync_name(e->sync));
    return buf;
}

/* Whether the plan's parameter `name` reads `want`. */
static int param_is(const cls_plan *plan, const char *name, const char *want)
{
    const char *v = cls_plan_param(plan, name);
    return v && !strcmp(v, want);
}

/* The least prediction among the resident candidates of `schedule` the plan priced and did not
 * decline (0: none). */
static double candidate_seconds(const cls_plan *plan, cls_schedule schedule)
{
    double best = 0;
    for (size_t i = 0; i < cls_plan_num_candidates(plan); i++) {
        cls_plan_candidate c;
        if (cls_plan_candidate_info(plan, i, &c) != CLS_SUCCESS || c.host || c.declined ||
            c.schedule != schedule || !(c.predicted_seconds > 0))
            continue;
        if (!(best > 0) || c.predicted_seconds < best) best = c.predicted_seconds;
    }
    return best;
}

static void fill(float *a, size_t n, double base)
{
    for (size_t i = 0; i < n; i++) a[i] = (float)(base + 0.001 * (double)((i * 2654435761u) % 1000));
}

static void device_tests(cls_context *ctx, const cls_stencil *st)
{
    const cls_dims d = {{128, 128, 1}};
    const size_t steps = 8, n = 128 * 128;
    cls_tune_result *r = NULL;
    cls_device_info info;
    cls_context_device(ctx, &info);

    cls_status s = cls_tune(ctx, st, d, steps, NULL, &r);
    tap_ok(s == CLS_SUCCESS && r->trapezoid.h >= 1 && r->n_entries > 0,
           "cls_tune poisson2d 128x128, 8 steps: %s", s == CLS_SUCCESS ? r->why : cls_last_error());
    if (s != CLS_SUCCESS) return;

    /* The pick is the model's integer optimum for its tile and mode. */
    cls_model *m = NULL;
    int hb = 0;
    double cpl = 0;
    s = cls_model_match(&info, NULL, &m, NULL, 0);
    /* Every integer h up to the steps, predicted as the tuner predicts (occupancy and whole
     * waves, CLS_GHOST_WAVES); Eq. 20 ends the scan. */
    cpl = HUGE_VAL;
    for (size_t h = 1; s == CLS_SUCCESS && h <= steps; h++) {
        double sec = 0;
        if (cls_ghost_predict_run(m, st, &r->profile, d, steps, r->trapezoid.tile,
                                  r->trapezoid.points_per_item, h, r->trapezoid.sync,
                                  CLS_GHOST_WAVES, &sec) != CLS_SUCCESS)
            break;
        if (sec < cpl) {
            cpl = sec;
            hb = (int)h;
        }
    }
    tap_ok(s == CLS_SUCCESS && (size_t)hb == r->trapezoid.h &&
               fabs(cpl / r->trapezoid.predicted_seconds - 1) < 1e-9,
           "the picked h %zu is the brute-force minimum %d over integer h of the predicted run "
           "time (tile %zux%zu, %s; %.4g s, the pick's prediction %.4g s)",
           r->trapezoid.h, hb, r->trapezoid.tile[0], r->trapezoid.tile[1],
           cls_sync_name(r->trapezoid.sync), cpl, r->trapezoid.predicted_seconds);
    cls_model_release(m);

    /* Feasible: it plans and runs, bitwise equal to the reference. */
    float *in = malloc(n * sizeof *in), *rhs = malloc(n * sizeof *rhs);
    float *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    const void *aux[1] = {rhs};
    cls_plan_options opt;
    cls_plan *plan = NULL;
    char params[256];
    fill(in, n, 0.5);
    fill(rhs, n, 0.01);
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    opt.params = entry_params(params, sizeof params, &r->trapezoid);
    s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, aux, out, NULL);
    if (s == CLS_SUCCESS) s = cls_reference_run(st, d, steps, in, aux, ref);
    tap_ok(s == CLS_SUCCESS && memcmp(out, ref, n * sizeof *out) == 0,
           "the pick is feasible and runs bitwise equal to the reference%s%s",
           s == CLS_SUCCESS ? "" : ": ", s == CLS_SUCCESS ? "" : cls_last_error());
    cls_plan_release(plan);
    plan = NULL;

    /* The trapezoid default (nothing set) is the same pick. */
    cls_plan_info pi;
    char h_text[32], tile_text[96];
    snprintf(h_text, sizeof h_text, "%zu", r->trapezoid.h);
    snprintf(tile_text, sizeof tile_text, "%zux%zux%zu", r->trapezoid.tile[0],
             r->trapezoid.tile[1], r->trapezoid.tile[2]);
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) cls_plan_describe(plan, &pi);
    tap_ok(s == CLS_SUCCESS && param_is(plan, "trapezoid.height", h_text) &&
               param_is(plan, "trapezoid.tile", tile_text) &&
               param_is(plan, "trapezoid.sync", cls_sync_name(r->trapezoid.sync)) &&
               pi.predicted_seconds > 0,
           "CLS_SCHEDULE_TRAPEZOID with nothing set plans the tuner's pick (predicted %.3g s)",
           s == CLS_SUCCESS ? pi.predicted_seconds : 0);
    cls_plan_release(plan);
    plan = NULL;

    /* AUTO: the profile is cached, so the model decides; never the slower prediction. */
    cls_plan_options_init(&opt);
    s = cls_plan_create(ctx, st, d, steps, &opt, &plan);
    if (s == CLS_SUCCESS) cls_plan_describe(plan, &pi);
    /* the two predictions AUTO compared */
    double naive_s = s == CLS_SUCCESS ? candidate_seconds(plan, CLS_SCHEDULE_NAIVE) : 0;
    double trap_s = s == CLS_SUCCESS ? candidate_seconds(plan, CLS_SCHEDULE_TRAPEZOID) : 0;
    /* the CPU tiles (their own model, doc/cputile.md) compete where the device model asks */
    double tile_s = s == CLS_SUCCESS ? candidate_seconds(plan, CLS_SCHEDULE_CPUTILE) : 0;
    int decided = s == CLS_SUCCESS && naive_s > 0 && trap_s > 0;
    cls_schedule faster =
        decided && trap_s < naive_s ? CLS_SCHEDULE_TRAPEZOID : CLS_SCHEDULE_NAIVE;
    double faster_s = faster == CLS_SCHEDULE_TRAPEZOID ? trap_s : naive_s;
    if (tile_s > 0 && tile_s < faster_s) faster = CLS_SCHEDULE_CPUTILE;
    tap_ok(decided && pi.schedule == faster &&
               (info.type != CLS_DEVICE_CPU || pi.schedule != CLS_SCHEDULE_TRAPEZOID ||
                trap_s < naive_s),
           "AUTO on %s picks %s: predicted naive %.3g s, trapezoid %.3g s, cputile %.3g s (%s)",
           info.type == CLS_DEVICE_CPU ? "the CPU" : "the device",
           s == CLS_SUCCESS ? cls_schedule_name(pi.schedule) : "-", naive_s, trap_s, tile_s,
           s == CLS_SUCCESS ? pi.why : cls_last_error());
    tap_ok(r->pick.schedule == pi.schedule, "cls_tune reports the same AUTO pick (%s)",
           cls_schedule_name(r->pick.schedule));
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, aux, out, NULL);
    tap_ok(s == CLS_SUCCESS && memcmp(out, ref, n * sizeof *out) == 0,
           "the AUTO plan runs bitwise equal to the reference");
    cls_plan_release(plan);

    /* A short run with no profile cached measures none: naive or the CPU tiles, never the
     * trapezoid, which needs the profile. */
    cls_stencil *em = NULL;
    cls_stencil_builtin("emboss", &em);
    cls_plan_options_init(&opt);
    plan = NULL;
    s = cls_plan_create(ctx, em, (cls_dims){{16, 16, 1}}, 2, &opt, &plan);
    if (s == CLS_SUCCESS) cls_plan_describe(plan, &pi);
    tap_ok(s == CLS_SUCCESS && pi.schedule != CLS_SCHEDULE_TRAPEZOID &&
               strstr(pi.why, "no profile"),
           "AUTO on a tiny uncached run: %s", s == CLS_SUCCESS ? pi.why : cls_last_error());
    cls_plan_release(plan);
    cls_stencil_release(em);

    cls_tune_result_release(r);
    free(in);
    free(rhs);
    free(out);
    free(ref);
}

/* Whether two entries describe the same configuration. */
static int same_entry(const cls_tune_entry *a, const cls_tune_entry *b)
{
    return a->schedule == b->schedule &&
           !memcmp(a->local_size, b->local_size, sizeof a->local_size) &&
           a->points_per_item == b->points_per_item &&
           (a->schedule != CLS_SCHEDULE_TRAPEZOID ||
            (!memcmp(a->tile, b->tile, sizeof a->tile) && a->h == b->h && a->sync == b->sync));
}

/* The least measured (or confirmed) time of the rows, of every schedule or trapezoids only;
 * *at its row. */
static double least_of(const cls_tune_result *r, int confirmed, int trapezoid_only, size_t *at)
{
    double best = 0;
    for (size_t i = 0; i < r->n_entries; i++) {
        const cls_tune_entry *e = &r->entries[i];
        double t = confirmed ? e->confirmed_seconds : e->measured_seconds;
        if (e->status != CLS_SUCCESS || !(t > 0) ||
            (trapezoid_only && e->schedule != CLS_SCHEDULE_TRAPEZOID))
            continue;
        if (!(best > 0) || t < best) {
            best = t;
            *at = i;
        }
    }
    return best;
}

static void exhaustive_tests(cls_context *ctx, const cls_stencil *st)
{
    cls_tune_options topt;
    cls_tune_result *r = NULL;
    cls_tune_options_init(&topt);
    topt.sync = CLS_SYNC_RESTART;
    topt.max_h = 2;
    topt.reps = 1;
    topt.confirm = 2;
    cls_status s = cls_tune_exhaustive(ctx, st, (cls_dims){{16, 16, 1}}, 4, &topt, &r);
    tap_ok(s == CLS_SUCCESS, "cls_tune_exhaustive poisson2d 16x16, 4 steps%s%s",
           s == CLS_SUCCESS ? "" : ": ", s == CLS_SUCCESS ? "" : cls_last_error());
    if (s != CLS_SUCCESS) return;
    size_t trap = 0, pick_rows = 0, at_all = 0, at_trap = 0, c_at = 0;
    for (size_t i = 0; i < r->n_entries; i++) {
        trap += r->entries[i].schedule == CLS_SCHEDULE_TRAPEZOID;
        pick_rows += same_entry(&r->entries[i], &r->pick) &&
                     r->entries[i].measured_seconds == r->pick.measured_seconds;
    }
    tap_ok(r->n_entries > 1 && r->entries[0].schedule == CLS_SCHEDULE_NAIVE &&
               same_entry(&r->entries[0], &r->naive) && r->entries[0].measured_seconds > 0 &&
               r->entries[0].measured_seconds == r->naive.measured_seconds && trap > 0,
           "the naive plan is a measured row beside %zu trapezoid rows", trap);
    tap_ok(pick_rows == 1 && r->pick.measured_seconds > 0,
           "AUTO's pick (%s) is one measured row", cls_schedule_name(r->pick.schedule));
    double all = least_of(r, 0, 0, &at_all), tr = least_of(r, 0, 1, &at_trap);
    tap_ok(r->best_overall == at_all && r->overall_ratio > 0 && r->overall_ratio <= 1 &&
               fabs(r->overall_ratio - all / r->pick.measured_seconds) < 1e-12,
           "overall: best row %zu (%s), ratio best / AUTO's pick %.3f", r->best_overall,
           cls_schedule_name(r->entries[r->best_overall].schedule), r->overall_ratio);
    tap_ok(r->best == at_trap && r->entries[r->best].schedule == CLS_SCHEDULE_TRAPEZOID &&
               r->ratio > 0 && r->ratio <= 1 && r->trapezoid.measured_seconds > 0 &&
               fabs(r->ratio - tr / r->trapezoid.measured_seconds) < 1e-12,
           "trapezoids: best row %zu, ratio best trapezoid / model's trapezoid %.3f", r->best,
           r->ratio);
    /* Confirmation: both picks and both bests re-timed; the confirmed ratios over them. */
    double call = least_of(r, 1, 0, &c_at), ctr = least_of(r, 1, 1, &c_at);
    tap_ok(r->pick.confirmed_seconds > 0 && r->trapezoid.confirmed_seconds > 0 &&
               r->entries[r->best_overall].confirmed_seconds > 0 &&
               r->entries[r->best].confirmed_seconds > 0 && r->entries[r->confirmed_best_overall].confirmed_seconds == call &&
               r->entries[r->confirmed_best].confirmed_seconds == ctr &&
               fabs(r->confirmed_overall_ratio - call / r->pick.confirmed_seconds) < 1e-12 &&
               fabs(r->confirmed_ratio - ctr / r->trapezoid.confirmed_seconds) < 1e-12 &&
               r->confirmed_overall_ratio <= 1 && r->confirmed_ratio <= 1,
           "confirmation re-times AUTO's pick and the overall best: confirmed ratios %.3f "
           "(overall), %.3f (trapezoids)",
           r->confirmed_overall_ratio, r->confirmed_ratio);
    cls_tune_result_release(r);
}

int main(void)
{
    cls_context *ctx = NULL;
    cls_stencil *st = NULL;
    model_tests();
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("tuner on a device", "no OpenCL device");
        return tap_done();
    }
    cls_stencil_builtin("poisson2d", &st);
    cache_tests(st);
    device_tests(ctx, st);
    exhaustive_tests(ctx, st);
    cls_stencil_release(st);
    cls_context_release(ctx);
    return tap_done();
}
