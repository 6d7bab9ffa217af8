/* tune.c: the tuner: the device model of a context, CLS_SCHEDULE_AUTO (naive or trapezoid by
 * predicted time), the public predictions of the ghost-zone model, and cls_tune with its
 * exhaustive, measuring twin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream25d.h"
#include "tune.h"

cls_status cls__ctx_model(cls_context *ctx, const cls_model **m)
{
    if (!ctx->model) {
        cls_status s = cls_model_match(&ctx->info, NULL, &ctx->model, ctx->model_why,
                                       sizeof ctx->model_why);
        if (s != CLS_SUCCESS) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            return cls__fail(ctx, s, "no device model for '%s': %s", ctx->info.name, msg);
        }
    }
    *m = ctx->model;
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- CLS_SCHEDULE_AUTO */
cls_status cls__plan_auto(cls_plan *p, const cls_plan_options *opt)
{
    cls_context *ctx = p->ctx;
    cls_ghost_profile prof;
    cls__trap_config c;
    double naive_s, trap_s = 0;
    char choice[512];
    cls_status s;
    int have, fc = 0;

    /* Options that only the trapezoid takes ask for it; a work-group or points per item
     * without them describe a naive plan (as before the model existed). */
    if (opt->trapezoid_height || opt->sync != CLS_SYNC_AUTO) return cls__plan_trapezoid(p, opt);
    /* 3D on GPUs: single-pass or fused stream25d where the H100 measured it beating naive
     * (lib/stream25d_rule.c); several steps per pass ask for it. */
    int s25 = CLS__S25_NAIVE;
    if (opt->steps_per_pass > 1 ||
        (!opt->local_size[0] && !opt->local_size[1] && !opt->points_per_item &&
         (s25 = cls__stream25d_auto(p, opt)) != CLS__S25_NAIVE)) {
        char keep[512];
        cls_plan_options o = *opt;
        if (s25 == CLS__S25_SINGLE) o.steps_per_pass = 1; /* not the model's k */
        snprintf(keep, sizeof keep, "%s", opt->steps_per_pass > 1 ? "stream25d: steps per pass "
                                                                    "given" : p->why);
        p->schedule = CLS_SCHEDULE_STREAM25D;
        p->why[0] = 0;
        s = cls__plan_stream25d(p, &o);
        char plan_why[512];
        snprintf(plan_why, sizeof plan_why, "%s", p->why);
        snprintf(p->why, sizeof p->why, "%.250s%s%.250s", keep, plan_why[0] ? "; " : "",
                 plan_why);
        return s;
    }
    p->schedule = CLS_SCHEDULE_NAIVE;
    have = cls__profile_get(ctx, p->st, 0, &prof, &fc) == CLS_SUCCESS;
    if (opt->local_size[0] || opt->local_size[1] || opt->local_size[2] || opt->points_per_item) {
        p->predicted_seconds = have ? cls__naive_predict(p, &prof) : 0;
        snprintf(p->why, sizeof p->why, "naive: the work-group or points per item were given");
        return cls__plan_naive(p, opt);
    }
    naive_s = cls__naive_predict(p, have ? &prof : NULL);
    if (!have && naive_s < CLS__TUNE_MIN_RUN_SECONDS) {
        p->predicted_seconds = naive_s;
        p->predicted_naive = naive_s;
        snprintf(p->why, sizeof p->why,
                 "naive: the run is predicted to take %.3g s at the minimal traffic, less than "
                 "the %.2g s below which no profile of '%s' is measured (none is cached)",
                 naive_s, CLS__TUNE_MIN_RUN_SECONDS, p->st->name);
        return cls__plan_naive(p, opt);
    }
    if (!have && (s = cls__profile_get(ctx, p->st, 1, &prof, &fc)) != CLS_SUCCESS) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        p->predicted_seconds = naive_s;
        snprintf(p->why, sizeof p->why, "naive: the stencil's profile could not be measured (%s)",
                 msg);
        return cls__plan_naive(p, opt);
    }
    naive_s = cls__naive_predict(p, &prof);
    s = cls__trapezoid_choose(p, opt, &prof, &c, &trap_s, NULL, 0, NULL);
    snprintf(choice, sizeof choice, "%s", s == CLS_SUCCESS ? p->why : cls_last_error());
    p->predicted_naive = naive_s;
    p->predicted_trapezoid = s == CLS_SUCCESS ? trap_s : 0;
    if (s == CLS_SUCCESS && trap_s < naive_s) {
        snprintf(p->why, sizeof p->why,
                 "trapezoid: predicted %.4g s against the naive schedule's %.4g s (its measured "
                 "rate); %.380s",
                 trap_s, naive_s, choice);
        p->tuned = 1;
        p->choice = c;
        p->have_profile = 1;
        p->profile = prof;
        char keep[512];
        snprintf(keep, sizeof keep, "%s", p->why);
        s = cls__plan_trapezoid(p, opt);
        snprintf(p->why, sizeof p->why, "%s", keep);
        return s;
    }
    p->predicted_seconds = naive_s;
    if (s == CLS_SUCCESS)
        snprintf(p->why, sizeof p->why,
                 "naive: predicted %.4g s (its measured rate) against the best trapezoid's "
                 "%.4g s; %.380s",
                 naive_s, trap_s, choice);
    else
        snprintf(p->why, sizeof p->why, "naive: no trapezoid configuration fits (%.440s)", choice);
    return cls__plan_naive(p, opt);
}

/* ---------------------------------------------------------------- public predictions */
static cls_status eval_inputs(const cls_model *m, const cls_ghost_profile *p, cls_dims dims,
                              const size_t tile[3], double h, cls_sync sync, unsigned flags,
                              cls_gz_device *d, cls_gz_profile *gp, cls_gz_config *c)
{
    cls_gz_sync gs;
    double cu = 0, groups;
    cls_status s;
    if (!m || !p || !tile)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "ghost-zone prediction: NULL argument");
    if (sync != CLS_SYNC_RESTART && sync != CLS_SYNC_BARRIER)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "ghost-zone prediction: sync must be restart or barrier");
    if (p->dims < 1 || p->dims > 3)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "ghost-zone profile: dims %d", p->dims);
    cls__gz_config(p, dims, tile, h, CLS_GZ_KNL_RESTART, c);
    cls_gz_profile shape = {.D = p->dims};
    for (int i = 0; i < 3; i++) shape.HaloWidth[i] = p->halo_width[i];
    cls_model_get(m, "compute.compute_units", &cu);
    groups = cls_gz_T(&shape, &(cls_gz_config){.DataLength = {c->DataLength[0], c->DataLength[1],
                                                              c->DataLength[2]},
                                               .blk_len = {c->blk_len[0], c->blk_len[1],
                                                           c->blk_len[2]},
                                               .h = 1});
    if (!(groups < cu)) groups = cu;
    s = cls__gz_inputs(m, p, flags, sync, ceil(groups), d, gp, &gs);
    if (s != CLS_SUCCESS) return s;
    c->sync = gs;
    return cls_gz_check(d, gp, c);
}

cls_status cls_ghost_evaluate(const cls_model *m, const cls_ghost_profile *p, cls_dims dims,
                              const size_t tile[3], double h, cls_sync sync, unsigned flags,
                              cls_ghost_eval *out)
{
    cls_gz_device d, dd;
    cls_gz_profile gp, dp;
    cls_gz_config c;
    cls_gz_terms t;
    cls_gz_sync ds;
    cls_status s;
    if (!out) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_ghost_evaluate: NULL");
    memset(out, 0, sizeof *out);
    if ((s = eval_inputs(m, p, dims, tile, h, sync, flags, &d, &gp, &c)) != CLS_SUCCESS) return s;
    out->feasible = cls_gz_evaluate(&d, &gp, &c, &t);
    out->T = t.T;
    out->passes = t.passes;
    out->CPS = t.CPS;
    out->CPL = t.CPL;
    out->GlbSync = t.star.GlbSync;
    out->LoadSten = t.star.LoadSten;
    out->Commit = t.star.Commit;
    out->MiscComp = t.star.MiscComp;
    out->IterComp = t.star.IterComp;
    out->IterMem = t.star.IterMem;
    out->clock_hz = d.ClockRate;
    out->seconds_per_step = out->feasible ? t.CPL / d.ClockRate : HUGE_VAL;
    /* Eq. 23 is the document's quantity, whatever executor the rest describes. */
    if (cls__gz_inputs(m, p, CLS_GHOST_DOCUMENT, CLS_SYNC_RESTART, 0, &dd, &dp, &ds) == CLS_SUCCESS)
        out->delta = cls_gz_delta(&dd, &dp, &c);
    return CLS_SUCCESS;
}

cls_status cls_ghost_optimize(const cls_model *m, const cls_ghost_profile *p, cls_dims dims,
                              const size_t tile[3], size_t h_cap, cls_sync sync, unsigned flags,
                              cls_ghost_opt *out)
{
    cls_gz_device d;
    cls_gz_profile gp;
    cls_gz_config c;
    cls_gz_opt o;
    cls_status s;
    if (!out) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_ghost_optimize: NULL");
    memset(out, 0, sizeof *out);
    if ((s = eval_inputs(m, p, dims, tile, 1, sync, flags, &d, &gp, &c)) != CLS_SUCCESS) return s;
    if (h_cap > 1u << 30) h_cap = 1u << 30;
    if ((flags & CLS_GHOST_RUN) && !h_cap)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_ghost_optimize: CLS_GHOST_RUN needs the run's steps as h_cap");
    s = cls_gz_optimize_h(&d, &gp, &c, (int)h_cap, &o);
    if (s != CLS_SUCCESS) return s;
    out->h_cont = o.h_cont;
    out->cpl_cont = o.CPL_cont;
    out->h_floor = o.h_floor;
    out->h = o.h;
    out->cpl = o.CPL;
    out->h_max = o.h_max;
    if (flags & CLS_GHOST_RUN) {
        out->h = cls__best_run_height(m, &d, &gp, &c, h_cap, sync, o.h_max, NULL);
        c.h = out->h;
        out->cpl = cls_gz_CPL(&d, &gp, &c);
    }
    return CLS_SUCCESS;
}

cls_status cls_ghost_brute_force(const cls_model *m, const cls_ghost_profile *p, cls_dims dims,
                                 const size_t tile[3], size_t h_cap, cls_sync sync,
                                 unsigned flags, int *h, double *cpl)
{
    cls_gz_device d;
    cls_gz_profile gp;
    cls_gz_config c;
    cls_status s;
    if ((s = eval_inputs(m, p, dims, tile, 1, sync, flags, &d, &gp, &c)) != CLS_SUCCESS) return s;
    if (h_cap > 1u << 30) h_cap = 1u << 30;
    s = cls_gz_brute_force_h(&d, &gp, &c, (int)h_cap, h, cpl);
    if (s != CLS_SUCCESS) return s;
    if (flags & CLS_GHOST_RUN) {
        /* Every integer h up to the steps and Eq. 20's bound, by predicted run time. */
        double best = HUGE_VAL;
        if (!h_cap)
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "cls_ghost_brute_force: CLS_GHOST_RUN needs the run's steps as h_cap");
        for (int k = 1; k <= cls_gz_h_max(&gp, &c) && (size_t)k <= h_cap; k++) {
            cls_gz_config x = c;
            x.h = k;
            double f = cls__run_cycles(m, &d, &gp, &x, h_cap, sync);
            if (f < best) {
                best = f;
                *h = k;
                *cpl = cls_gz_CPL(&d, &gp, &x);
            }
        }
    }
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- cls_tune */
void cls_tune_options_init(cls_tune_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->reps = 3;
    opt->warmup = 1;
    opt->confirm = 5;
}

void cls_tune_result_release(cls_tune_result *r)
{
    if (!r) return;
    free(r->entries);
    free(r);
}

static void entry_of(cls_tune_entry *e, const cls_plan *p)
{
    memset(e, 0, sizeof *e);
    e->schedule = p->schedule;
    memcpy(e->local_size, p->local, sizeof e->local_size);
    e->points_per_item = p->per_item;
    if (p->schedule == CLS_SCHEDULE_TRAPEZOID) {
        memcpy(e->tile, p->tile, sizeof e->tile);
        e->h = p->h;
        e->sync = p->sync;
    }
    e->predicted_seconds = p->predicted_seconds;
}

static cls_status tune_common(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                              size_t steps, cls_sync sync, cls_tune_result **out)
{
    cls_tune_result *r = NULL;
    cls_plan *naive = NULL, *pick = NULL, tp;
    cls_plan_options opt;
    cls__trap_config c;
    const cls_model *m;
    double trap_s = 0;
    size_t n = 0;
    cls_status s;
    if (!ctx || !st || !out)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_tune: NULL argument");
    *out = NULL;
    if (steps == 0) return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_tune: steps must be >= 1");
    if (!(r = calloc(1, sizeof *r)) || !(r->entries = calloc(64, sizeof *r->entries))) {
        free(r);
        return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "cls_tune");
    }
    /* The naive plan validates the stencil, sizes and memory like every plan. */
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    if ((s = cls_plan_create(ctx, st, dims, steps, &opt, &naive)) != CLS_SUCCESS) goto fail;
    if ((s = cls__ctx_model(ctx, &m)) != CLS_SUCCESS) goto fail;
    snprintf(r->model, sizeof r->model, "%s", cls_model_name(m));
    snprintf(r->model_why, sizeof r->model_why, "%s", ctx->model_why);
    if ((s = cls__profile_get(ctx, naive->st, 1, &r->profile, &r->profile_from_cache)) !=
        CLS_SUCCESS)
        goto fail;
    entry_of(&r->naive, naive);
    r->naive.predicted_seconds = cls__naive_predict(naive, &r->profile);

    /* Every candidate tile and mode at its optimal h (the model's side of the table). */
    memset(&tp, 0, sizeof tp);
    tp = *naive;
    tp.kernel = NULL;
    cls_plan_options_init(&opt);
    opt.sync = sync;
    s = cls__trapezoid_choose(&tp, &opt, &r->profile, &c, &trap_s, r->entries, 64, &n);
    r->n_entries = n;
    if (s == CLS_SUCCESS) {
        memset(&r->trapezoid, 0, sizeof r->trapezoid);
        r->trapezoid.schedule = CLS_SCHEDULE_TRAPEZOID;
        memcpy(r->trapezoid.tile, c.tile, sizeof c.tile);
        memcpy(r->trapezoid.local_size, c.tile, sizeof c.tile);
        r->trapezoid.local_size[st->dims - 1] /= c.ppi;
        r->trapezoid.points_per_item = c.ppi;
        r->trapezoid.h = c.h;
        r->trapezoid.sync = c.sync;
        r->trapezoid.predicted_seconds = trap_s;
    }
    /* What AUTO picks, as cls_plan_create makes it. */
    cls_plan_options_init(&opt);
    if ((s = cls_plan_create(ctx, st, dims, steps, &opt, &pick)) != CLS_SUCCESS) goto fail;
    entry_of(&r->pick, pick);
    snprintf(r->why, sizeof r->why, "%s", pick->why);
    cls_plan_release(pick);
    cls_plan_release(naive);
    *out = r;
    return CLS_SUCCESS;
fail:
    cls_plan_release(pick);
    cls_plan_release(naive);
    cls_tune_result_release(r);
    return s;
}

cls_status cls_tune(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                    const cls_tune_options *opt, cls_tune_result **out)
{
    return tune_common(ctx, st, dims, steps, opt ? opt->sync : CLS_SYNC_AUTO, out);
}

/* ---------------------------------------------------------------- exhaustive */
/* Device buffers of the run filled with constants (timing only: no host data moves). */
static cls_status grid_fill(cls_plan *p, cls__dev_grid *g)
{
    cls_context *ctx = p->ctx;
    size_t bytes = p->points * p->elem;
    float f[2] = {0.5f, 0.25f};
    double d[2] = {0.5, 0.25};
    cl_int err = CL_SUCCESS;
    memset(g, 0, sizeof *g);
    g->n_aux = p->st->n_aux;
    for (int i = 0; i < 2 && err == CL_SUCCESS; i++) {
        g->buf[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, g->buf[i], p->elem == 8 ? (void *)&d[0]
                                                                          : (void *)&f[0],
                                      p->elem, 0, bytes, 0, NULL, NULL);
    }
    for (size_t k = 0; k < g->n_aux && err == CL_SUCCESS; k++) {
        size_t ab = p->st->aux[k].per_step ? bytes * p->steps : bytes;
        g->aux[k] = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, ab, NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(ctx->queue, g->aux[k], p->elem == 8 ? (void *)&d[1]
                                                                          : (void *)&f[1],
                                      p->elem, 0, ab, 0, NULL, NULL);
    }
    if (err == CL_SUCCESS) err = clFinish(ctx->queue);
    if (err != CL_SUCCESS) {
        cls__dev_grid_release(g);
        return cls__fail(ctx, (cls_status)err, "allocating the exhaustive search's device grids");
    }
    return CLS_SUCCESS;
}

/* Device seconds of the plan's run: `warmup` untimed runs, then the minimum (or the median) of
 * `reps` timed ones. */
static cls_status time_plan(cls_plan *p, cls__dev_grid *g, size_t reps, size_t warmup,
                            int median, double *out)
{
    double t[32];
    if (reps > 32) reps = 32;
    if (reps < 1) reps = 1;
    if (warmup > 32) warmup = 32;
    for (size_t r = 0; r < reps + warmup; r++) {
        cl_event first = NULL, last = NULL;
        int cur = 0;
        cls_status s = p->schedule == CLS_SCHEDULE_TRAPEZOID
                           ? cls__trapezoid_launch(p, g, &cur, &first, &last)
                       : p->schedule == CLS_SCHEDULE_STREAM25D
                           ? cls__stream25d_launch(p, g, &cur, &first, &last)
                           : cls__naive_launch(p, g, &cur, &first, &last);
        if (s == CLS_SUCCESS) {
            cl_int err = clFinish(p->ctx->queue);
            if (err != CL_SUCCESS) s = cls__fail(p->ctx, (cls_status)err, "waiting for the device");
        }
        if (r >= warmup) t[r - warmup] = cls__event_span(first, last ? last : first);
        if (first) clReleaseEvent(first);
        if (last) clReleaseEvent(last);
        if (s != CLS_SUCCESS) return s;
    }
    if (median) {
        *out = cls__median(t, reps);
    } else {
        cls__sort_doubles(t, reps);
        *out = t[0];
    }
    return CLS_SUCCESS;
}

/* The plan of an exhaustive entry: a naive configuration, AUTO's own pick (another schedule:
 * planned as AUTO plans it), or a trapezoid configuration. */
static cls_status plan_of(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                          const cls_tune_entry *e, cls_plan **p)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    if (e->schedule == CLS_SCHEDULE_NAIVE) {
        opt.schedule = CLS_SCHEDULE_NAIVE;
        memcpy(opt.local_size, e->local_size, sizeof opt.local_size);
        opt.points_per_item = e->points_per_item;
        return cls_plan_create(ctx, st, dims, steps, &opt, p);
    }
    if (e->schedule != CLS_SCHEDULE_TRAPEZOID) return cls_plan_create(ctx, st, dims, steps, &opt, p);
    opt.schedule = CLS_SCHEDULE_TRAPEZOID;
    memcpy(opt.local_size, e->tile, sizeof opt.local_size);
    opt.points_per_item = e->points_per_item;
    opt.trapezoid_height = e->h;
    opt.sync = e->sync;
    return cls_plan_create(ctx, st, dims, steps, &opt, p);
}

/* Appends to idx the k fastest measured entries not yet in it (trapezoids only when asked). */
static void fastest(const cls_tune_result *r, size_t k, int trapezoid_only, size_t *idx, size_t *n)
{
    for (size_t m = 0; m < k; m++) {
        size_t b = (size_t)-1;
        for (size_t i = 0; i < r->n_entries; i++) {
            const cls_tune_entry *e = &r->entries[i];
            int taken = 0;
            for (size_t j = 0; j < *n; j++) taken |= idx[j] == i;
            if (taken || e->status != CLS_SUCCESS || !(e->measured_seconds > 0) ||
                (trapezoid_only && e->schedule != CLS_SCHEDULE_TRAPEZOID))
                continue;
            if (b == (size_t)-1 || e->measured_seconds < r->entries[b].measured_seconds) b = i;
        }
        if (b == (size_t)-1) return;
        idx[(*n)++] = b;
    }
}

/* The entry of least confirmed time among idx (trapezoids only when asked); -1: none. */
static size_t confirmed_min(const cls_tune_result *r, const size_t *idx, size_t n,
                            int trapezoid_only)
{
    size_t b = (size_t)-1;
    for (size_t j = 0; j < n; j++) {
        const cls_tune_entry *e = &r->entries[idx[j]];
        if (!(e->confirmed_seconds > 0) ||
            (trapezoid_only && e->schedule != CLS_SCHEDULE_TRAPEZOID))
            continue;
        if (b == (size_t)-1 || e->confirmed_seconds < r->entries[b].confirmed_seconds) b = idx[j];
    }
    return b;
}

/* Confirmation (doc/ghost-zones.md, "Measurement protocol"): the CLS_TUNE_CONFIRM_TOP fastest
 * entries overall and among the trapezoids, the model's trapezoid (pick) and AUTO's pick
 * (auto_pick; either may be -1) run once each per round, in turn, so that a slow phase of a
 * shared machine hits all of them alike; each keeps its least time. */
static cls_status confirm_rounds(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                 size_t steps, cls__dev_grid *g, const cls_tune_options *topt,
                                 cls_tune_result *r, size_t pick, size_t auto_pick)
{
    enum { MAX = 2 * CLS_TUNE_CONFIRM_TOP + 2 };
    size_t idx[MAX], n = 0, b;
    cls_plan *plans[MAX] = {NULL};
    cls_status s = CLS_SUCCESS;
    fastest(r, CLS_TUNE_CONFIRM_TOP, 0, idx, &n);
    fastest(r, CLS_TUNE_CONFIRM_TOP, 1, idx, &n);
    for (int k = 0; k < 2; k++) {
        size_t want = k ? auto_pick : pick;
        int taken = want == (size_t)-1;
        for (size_t j = 0; j < n; j++) taken |= idx[j] == want;
        if (!taken && r->entries[want].status == CLS_SUCCESS) idx[n++] = want;
    }
    for (size_t j = 0; j < n && s == CLS_SUCCESS; j++)
        s = plan_of(ctx, st, dims, steps, &r->entries[idx[j]], &plans[j]);
    for (size_t j = 0; j < n && s == CLS_SUCCESS; j++) { /* one warm-up each */
        double t;
        s = time_plan(plans[j], g, 1, 0, 0, &t);
    }
    for (size_t round = 0; round < topt->confirm && s == CLS_SUCCESS; round++)
        for (size_t j = 0; j < n && s == CLS_SUCCESS; j++) {
            double t = 0;
            cls_tune_entry *e = &r->entries[idx[j]];
            s = time_plan(plans[j], g, 1, 0, 0, &t);
            if (s == CLS_SUCCESS && t > 0 &&
                (!(e->confirmed_seconds > 0) || t < e->confirmed_seconds))
                e->confirmed_seconds = t;
        }
    for (size_t j = 0; j < n; j++) cls_plan_release(plans[j]);
    if (s != CLS_SUCCESS) return s;
    if ((b = confirmed_min(r, idx, n, 1)) != (size_t)-1) {
        r->confirmed_best = b;
        if (pick != (size_t)-1 && r->entries[pick].confirmed_seconds > 0)
            r->confirmed_ratio = r->entries[b].confirmed_seconds / r->entries[pick].confirmed_seconds;
    }
    if ((b = confirmed_min(r, idx, n, 0)) != (size_t)-1) {
        r->confirmed_best_overall = b;
        if (auto_pick != (size_t)-1 && r->entries[auto_pick].confirmed_seconds > 0)
            r->confirmed_overall_ratio =
                r->entries[b].confirmed_seconds / r->entries[auto_pick].confirmed_seconds;
    }
    return CLS_SUCCESS;
}

/* The heights the exhaustive search tries for a tile: every one up to 12 (or all), then steps
 * of about 25 %, and the largest. */
static size_t heights(size_t hmax, int all, size_t *hs, size_t cap)
{
    size_t n = 0;
    for (size_t h = 1; h <= hmax && n < cap;) {
        hs[n++] = h;
        if (all || h < 12)
            h++;
        else {
            size_t next = (size_t)ceil((double)h * 1.25);
            if (h < hmax && next > hmax) next = hmax;
            h = next;
        }
    }
    return n;
}

static int grow(cls_tune_result *r, size_t *cap)
{
    if (r->n_entries < *cap) return 0;
    cls_tune_entry *e = realloc(r->entries, 2 * *cap * sizeof *e);
    if (!e) return -1;
    r->entries = e;
    *cap *= 2;
    return 0;
}

cls_status cls_tune_exhaustive(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                               size_t steps, const cls_tune_options *topt,
                               cls_tune_result **out)
{
    cls_tune_options defaults;
    cls_tune_result *r = NULL;
    cls_plan *base = NULL, *p = NULL;
    cls_plan_options opt;
    cls__dev_grid g;
    size_t tiles[8][3], nt, cap = 64, pick_index = (size_t)-1, auto_index = (size_t)-1;
    int halo[3];
    cls_status s;
    memset(&g, 0, sizeof g);
    if (!topt) {
        cls_tune_options_init(&defaults);
        topt = &defaults;
    }
    if ((s = tune_common(ctx, st, dims, steps, topt->sync, &r)) != CLS_SUCCESS) return s;
    r->n_entries = 0;
    size_t reps = topt->reps ? topt->reps : 3;

    /* The naive plan first: it owns the device grids every configuration runs on, and it is
     * the first entry (AUTO chooses between it and the trapezoids; the ratio that matters is
     * the best of everything over AUTO's pick). */
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    if ((s = cls_plan_create(ctx, st, dims, steps, &opt, &base)) != CLS_SUCCESS) goto fail;
    if ((s = grid_fill(base, &g)) != CLS_SUCCESS) goto fail;
    s = time_plan(base, &g, reps, topt->warmup, topt->median, &r->naive.measured_seconds);
    r->naive.status = s;
    if (s != CLS_SUCCESS) goto fail;
    r->entries[r->n_entries++] = r->naive;
    if (r->pick.schedule == CLS_SCHEDULE_NAIVE &&
        !memcmp(r->pick.local_size, r->naive.local_size, sizeof r->naive.local_size) &&
        r->pick.points_per_item == r->naive.points_per_item)
        auto_index = 0;
    else if (r->pick.schedule != CLS_SCHEDULE_TRAPEZOID) {
        /* AUTO's pick is another naive configuration or schedule (stream25d on 3D GPUs). */
        cls_tune_entry *e = &r->entries[r->n_entries++];
        *e = r->pick;
        e->status = plan_of(ctx, st, dims, steps, e, &p);
        if (e->status == CLS_SUCCESS)
            e->status = time_plan(p, &g, reps, topt->warmup, topt->median, &e->measured_seconds);
        if (e->status != CLS_SUCCESS) e->measured_seconds = 0;
        cls_plan_release(p);
        p = NULL;
        auto_index = r->n_entries - 1;
    }

    cls_stencil_halo(base->st, halo);
    nt = cls__trapezoid_candidates(ctx, base->st, dims, tiles, 8);
    for (size_t t = 0; t < nt; t++) {
        size_t ppi = cls__trapezoid_default_ppi(ctx, base->st, tiles[t]), hmax = steps, hs[128];
        for (int i = 0; i < st->dims; i++)
            if (halo[i] && (tiles[t][i] - 1) / (2 * (size_t)halo[i]) < hmax)
                hmax = (tiles[t][i] - 1) / (2 * (size_t)halo[i]);
        if (topt->max_h && topt->max_h < hmax) hmax = topt->max_h;
        size_t nh = heights(hmax, topt->all_h, hs, 128);
        for (int mode = CLS_SYNC_RESTART; mode <= CLS_SYNC_BARRIER; mode++) {
            if (topt->sync != CLS_SYNC_AUTO && topt->sync != (cls_sync)mode) continue;
            cls_plan_options_init(&opt);
            opt.schedule = CLS_SCHEDULE_TRAPEZOID;
            memcpy(opt.local_size, tiles[t], sizeof opt.local_size);
            opt.points_per_item = ppi;
            opt.trapezoid_height = 1;
            opt.sync = (cls_sync)mode;
            s = cls_plan_create(ctx, st, dims, steps, &opt, &p);
            for (size_t k = 0; k < nh; k++) {
                cls_tune_entry *e;
                cls__trap_config c = {{tiles[t][0], tiles[t][1], tiles[t][2]}, ppi, hs[k],
                                      (cls_sync)mode};
                if (grow(r, &cap) != 0) {
                    s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "exhaustive table");
                    goto fail;
                }
                e = &r->entries[r->n_entries++];
                memset(e, 0, sizeof *e);
                e->schedule = CLS_SCHEDULE_TRAPEZOID;
                memcpy(e->tile, tiles[t], sizeof e->tile);
                memcpy(e->local_size, tiles[t], sizeof e->local_size);
                e->local_size[st->dims - 1] /= ppi;
                e->points_per_item = ppi;
                e->h = hs[k];
                e->sync = (cls_sync)mode;
                if (s != CLS_SUCCESS) {
                    e->status = s;
                    continue;
                }
                cls__trapezoid_set_height(p, hs[k]);
                e->predicted_seconds = cls__trapezoid_predict(p, &r->profile, &c);
                e->status =
                    time_plan(p, &g, reps, topt->warmup, topt->median, &e->measured_seconds);
                if (e->status != CLS_SUCCESS) e->measured_seconds = 0;
                if (!memcmp(e->tile, r->trapezoid.tile, sizeof e->tile) &&
                    e->h == r->trapezoid.h && e->sync == r->trapezoid.sync &&
                    e->points_per_item == r->trapezoid.points_per_item)
                    pick_index = r->n_entries - 1;
            }
            cls_plan_release(p);
            p = NULL;
        }
    }
    /* The model's trapezoid pick, when the thinned heights skipped it. */
    if (pick_index == (size_t)-1 && r->trapezoid.h) {
        cls_plan_options_init(&opt);
        opt.schedule = CLS_SCHEDULE_TRAPEZOID;
        memcpy(opt.local_size, r->trapezoid.tile, sizeof opt.local_size);
        opt.points_per_item = r->trapezoid.points_per_item;
        opt.trapezoid_height = r->trapezoid.h;
        opt.sync = r->trapezoid.sync;
        if (grow(r, &cap) != 0) {
            s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "exhaustive table");
            goto fail;
        }
        cls_tune_entry *e = &r->entries[r->n_entries++];
        *e = r->trapezoid;
        e->status = cls_plan_create(ctx, st, dims, steps, &opt, &p);
        if (e->status == CLS_SUCCESS)
            e->status = time_plan(p, &g, reps, topt->warmup, topt->median, &e->measured_seconds);
        cls_plan_release(p);
        p = NULL;
        pick_index = r->n_entries - 1;
    }
    /* AUTO's trapezoid pick: its row of the table, or measured as an extra row. */
    for (size_t i = 0; r->pick.schedule == CLS_SCHEDULE_TRAPEZOID && i < r->n_entries; i++) {
        const cls_tune_entry *e = &r->entries[i];
        if (e->schedule == CLS_SCHEDULE_TRAPEZOID && !memcmp(e->tile, r->pick.tile, sizeof e->tile) &&
            e->h == r->pick.h && e->sync == r->pick.sync &&
            e->points_per_item == r->pick.points_per_item)
            auto_index = i;
    }
    if (r->pick.schedule == CLS_SCHEDULE_TRAPEZOID && auto_index == (size_t)-1) {
        if (grow(r, &cap) != 0) {
            s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "exhaustive table");
            goto fail;
        }
        cls_tune_entry *e = &r->entries[r->n_entries++];
        *e = r->pick;
        e->status = plan_of(ctx, st, dims, steps, e, &p);
        if (e->status == CLS_SUCCESS)
            e->status = time_plan(p, &g, reps, topt->warmup, topt->median, &e->measured_seconds);
        if (e->status != CLS_SUCCESS) e->measured_seconds = 0;
        cls_plan_release(p);
        p = NULL;
        auto_index = r->n_entries - 1;
    }
    /* The fastest trapezoid, and the fastest of everything. */
    r->best = r->best_overall = (size_t)-1;
    for (size_t i = 0; i < r->n_entries; i++) {
        const cls_tune_entry *e = &r->entries[i];
        if (e->status != CLS_SUCCESS || !(e->measured_seconds > 0)) continue;
        if (r->best_overall == (size_t)-1 ||
            e->measured_seconds < r->entries[r->best_overall].measured_seconds)
            r->best_overall = i;
        if (e->schedule == CLS_SCHEDULE_TRAPEZOID &&
            (r->best == (size_t)-1 || e->measured_seconds < r->entries[r->best].measured_seconds))
            r->best = i;
    }
    if (r->best_overall == (size_t)-1) r->best_overall = 0;
    if (r->best == (size_t)-1) r->best = r->best_overall;
    if (pick_index != (size_t)-1) {
        r->trapezoid.measured_seconds = r->entries[pick_index].measured_seconds;
        r->trapezoid.status = r->entries[pick_index].status;
        if (r->trapezoid.measured_seconds > 0 &&
            r->entries[r->best].schedule == CLS_SCHEDULE_TRAPEZOID)
            r->ratio = r->entries[r->best].measured_seconds / r->trapezoid.measured_seconds;
    }
    if (auto_index != (size_t)-1) {
        r->pick.measured_seconds = r->entries[auto_index].measured_seconds;
        r->pick.status = r->entries[auto_index].status;
        if (r->pick.measured_seconds > 0)
            r->overall_ratio =
                r->entries[r->best_overall].measured_seconds / r->pick.measured_seconds;
    }
    if (topt->confirm && r->entries[r->best_overall].measured_seconds > 0 &&
        (s = confirm_rounds(ctx, st, dims, steps, &g, topt, r,
                            r->trapezoid.measured_seconds > 0 ? pick_index : (size_t)-1,
                            r->pick.measured_seconds > 0 ? auto_index : (size_t)-1)) !=
            CLS_SUCCESS)
        goto fail;
    if (pick_index != (size_t)-1)
        r->trapezoid.confirmed_seconds = r->entries[pick_index].confirmed_seconds;
    if (auto_index != (size_t)-1) r->pick.confirmed_seconds = r->entries[auto_index].confirmed_seconds;
    r->naive.confirmed_seconds = r->entries[0].confirmed_seconds;
    cls_plan_release(base);
    cls__dev_grid_release(&g);
    *out = r;
    return CLS_SUCCESS;
fail:
    cls_plan_release(p);
    cls_plan_release(base);
    cls__dev_grid_release(&g);
    cls_tune_result_release(r);
    return s;
}
