/* tune.c: the ghost-zone model's public predictions (Meng & Skadron 2010) and the tuner:
 * cls_tune, what the planner picks against the baseline schedule, and cls_tune_exhaustive,
 * which measures every feasible trapezoid configuration to validate the pick. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "planner.h"

static const char *const sync_names[] = {"auto", "restart", "barrier"};

const char *cls_sync_name(cls_sync s) { return (size_t)s < 3 ? sync_names[s] : "unknown"; }

cls_status cls_sync_from_name(const char *name, cls_sync *s)
{
    for (size_t i = 0; name && i < 3; i++)
        if (!strcmp(name, sync_names[i])) {
            *s = (cls_sync)i;
            return CLS_SUCCESS;
        }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                     "unknown synchronisation '%s' (auto, restart, barrier)", name ? name : "(null)");
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
    opt->size = sizeof *opt;
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

/* A size list "34x34x1" of a plan parameter into v (zeros where absent). */
static void sizes_of(const cls_plan *p, const char *name, size_t v[3])
{
    const char *t = cls_plan_param(p, name);
    v[0] = v[1] = v[2] = 0;
    for (int i = 0; t && *t && i < 3; i++) {
        char *end;
        v[i] = (size_t)strtoull(t, &end, 10);
        t = *end == 'x' ? end + 1 : NULL;
    }
}

static void entry_of(cls_tune_entry *e, const cls_plan *p)
{
    cls_plan_info info;
    memset(e, 0, sizeof *e);
    cls_plan_describe(p, &info);
    e->schedule = info.schedule;
    memcpy(e->local_size, info.local_size, sizeof e->local_size);
    size_t v[3];
    if (e->schedule == (cls_schedule)cls__trapezoid_ops.id) {
        sizes_of(p, "trapezoid.tile", e->tile);
        sizes_of(p, "trapezoid.points_per_item", v);
        e->points_per_item = v[0];
        sizes_of(p, "trapezoid.height", v);
        e->h = v[0];
        const char *sync = cls_plan_param(p, "trapezoid.sync");
        e->sync = sync && !strcmp(sync, "barrier") ? CLS_SYNC_BARRIER : CLS_SYNC_RESTART;
    } else {
        char name[96];
        snprintf(name, sizeof name, "%s.points_per_item", info.schedule_name);
        sizes_of(p, name, v);
        e->points_per_item = v[0];
    }
    e->predicted_seconds = info.predicted_seconds;
}

/* Options of a plan of the baseline schedule (the registry's first), or of AUTO. */
static void options_of(cls_plan_options *o, int baseline)
{
    cls_plan_options_init(o);
    if (baseline) o->schedule = (cls_schedule)cls__schedule_at(0)->id;
}

static cls_status tune_common(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                              size_t steps, cls_sync sync, cls_tune_result **out)
{
    cls_tune_result *r = NULL;
    cls_plan *naive = NULL, *pick = NULL;
    cls_plan_options opt;
    cls__trap_config c;
    cls__facts f;
    const cls_model *m;
    double trap_s = 0;
    size_t n = 0;
    cls_status s;
    memset(&f, 0, sizeof f);
    if (!ctx || !st || !out)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_tune: NULL argument");
    *out = NULL;
    if (steps == 0) return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_tune: steps must be >= 1");
    if (!(r = calloc(1, sizeof *r)) || !(r->entries = calloc(64, sizeof *r->entries))) {
        free(r);
        return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "cls_tune");
    }
    /* The stencil's profile first, so that the baseline plan is priced at its measured rate;
     * the baseline plan validates the sizes and memory like every plan. */
    if ((s = cls_stencil_validate(st)) != CLS_SUCCESS) goto fail;
    if ((s = cls__context_model(ctx, &m)) != CLS_SUCCESS) goto fail;
    snprintf(r->model, sizeof r->model, "%s", cls_model_name(m));
    snprintf(r->model_why, sizeof r->model_why, "%s", cls__context_model_why(ctx));
    if ((s = cls__profile_get(ctx, st, 1, &r->profile, &r->profile_from_cache)) != CLS_SUCCESS)
        goto fail;
    options_of(&opt, 1);
    if ((s = cls_plan_create(ctx, st, dims, steps, &opt, &naive)) != CLS_SUCCESS) goto fail;
    entry_of(&r->naive, naive);

    /* Every candidate tile and mode at its optimal h (the model's side of the table). */
    if ((s = cls__facts_of_plan(naive, &f)) != CLS_SUCCESS) goto fail;
    cls__trap_request req;
    memset(&req, 0, sizeof req);
    req.sync = sync == CLS_SYNC_AUTO ? 0 : (int)sync;
    s = cls__trapezoid_choose(&f, &req, &r->profile, &c, &trap_s, NULL, r->entries, 64, &n);
    r->n_entries = n;
    if (s == CLS_SUCCESS) {
        memset(&r->trapezoid, 0, sizeof r->trapezoid);
        r->trapezoid.schedule = CLS_SCHEDULE_TRAPEZOID;
        memcpy(r->trapezoid.tile, c.tile, sizeof c.tile);
        memcpy(r->trapezoid.local_size, c.tile, sizeof c.tile);
        r->trapezoid.local_size[st->dims - 1] /= c.ppi;
        r->trapezoid.points_per_item = c.ppi;
        r->trapezoid.h = c.h;
        r->trapezoid.sync = (cls_sync)c.sync;
        r->trapezoid.predicted_seconds = trap_s;
    }
    /* What AUTO picks, as cls_plan_create makes it. */
    options_of(&opt, 0);
    if ((s = cls_plan_create(ctx, st, dims, steps, &opt, &pick)) != CLS_SUCCESS) goto fail;
    entry_of(&r->pick, pick);
    {
        cls_plan_info info;
        cls_plan_describe(pick, &info);
        snprintf(r->why, sizeof r->why, "%s", info.why);
    }
    cls_plan_release(pick);
    cls_plan_release(naive);
    cls__facts_free(&f);
    *out = r;
    return CLS_SUCCESS;
fail:
    cls__facts_free(&f);
    cls_plan_release(pick);
    cls_plan_release(naive);
    cls_tune_result_release(r);
    return s;
}

cls_status cls_tune(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                    const cls_tune_options *opt, cls_tune_result **out)
{
    cls_tune_options o;
    cls_tune_options_init(&o);
    if (opt && cls__options_read(&o, sizeof o, opt, "tune") != CLS_SUCCESS)
        return CLS_ERR_INVALID_ARGUMENT;
    return tune_common(ctx, st, dims, steps, o.sync, out);
}

/* ---------------------------------------------------------------- exhaustive */
/* Device seconds of the plan's run on state g (filled with constants once): `warmup`
 * untimed runs, then the minimum (or the median) of `reps` timed ones. */
static cls_status time_plan(cls_plan *p, cls_state *g, size_t steps, size_t reps, size_t warmup,
                            int median, double *out)
{
    double t[32];
    if (reps > 32) reps = 32;
    if (reps < 1) reps = 1;
    if (warmup > 32) warmup = 32;
    for (size_t r = 0; r < reps + warmup; r++) {
        double sec = 0;
        cls_state_set_step(g, 0);
        cls_status s = cls__plan_advance(p, g, steps, 0, steps, &sec);
        if (s != CLS_SUCCESS) {
            cls__state_refill(g, steps); /* a failed advance leaves the state empty */
            return s;
        }
        if (r >= warmup) t[r - warmup] = sec;
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
/* The options of a trapezoid configuration. */
static void trapezoid_options(cls_plan_options *o, char *params, size_t len, const size_t tile[3],
                              size_t ppi, size_t h, cls_sync sync)
{
    cls_plan_options_init(o);
    o->schedule = (cls_schedule)cls__trapezoid_ops.id;
    snprintf(params, len,
             "trapezoid.tile=%zux%zux%zu trapezoid.points_per_item=%zu trapezoid.height=%zu "
             "trapezoid.sync=%s",
             tile[0], tile[1], tile[2], ppi, h, sync == CLS_SYNC_BARRIER ? "barrier" : "restart");
    o->params = params;
}

static cls_status plan_of(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                          const cls_tune_entry *e, cls_plan **p)
{
    cls_plan_options opt;
    char params[256];
    if (e->schedule != (cls_schedule)cls__trapezoid_ops.id) {
        options_of(&opt, e->schedule == (cls_schedule)cls__schedule_at(0)->id);
        return cls_plan_create(ctx, st, dims, steps, &opt, p);
    }
    trapezoid_options(&opt, params, sizeof params, e->tile, e->points_per_item, e->h, e->sync);
    return cls_plan_create(ctx, st, dims, steps, &opt, p);
}

/* Plans and times one entry on state g: its status and measured seconds (0 on failure). */
static void measure_entry(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                          cls_state *g, size_t reps, const cls_tune_options *topt,
                          cls_tune_entry *e)
{
    cls_plan *p = NULL;
    e->status = plan_of(ctx, st, dims, steps, e, &p);
    if (e->status == CLS_SUCCESS)
        e->status = time_plan(p, g, steps, reps, topt->warmup, topt->median, &e->measured_seconds);
    if (e->status != CLS_SUCCESS) e->measured_seconds = 0;
    cls_plan_release(p);
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
                (trapezoid_only && e->schedule != (cls_schedule)cls__trapezoid_ops.id))
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
            (trapezoid_only && e->schedule != (cls_schedule)cls__trapezoid_ops.id))
            continue;
        if (b == (size_t)-1 || e->confirmed_seconds < r->entries[b].confirmed_seconds) b = idx[j];
    }
    return b;
}

/* Confirmation (doc/ghost-zones.md, "The tuner"): the CLS_TUNE_CONFIRM_TOP fastest entries
 * overall and among the trapezoids, the model's trapezoid (pick) and AUTO's pick (auto_pick;
 * either may be -1) run once each per round, in turn, so that a slow phase of a shared machine
 * hits all of them alike; each keeps its least time. */
static cls_status confirm_rounds(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                 size_t steps, cls_state *g, const cls_tune_options *topt,
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
        s = time_plan(plans[j], g, steps, 1, 0, 0, &t);
    }
    for (size_t round = 0; round < topt->confirm && s == CLS_SUCCESS; round++)
        for (size_t j = 0; j < n && s == CLS_SUCCESS; j++) {
            double t = 0;
            cls_tune_entry *e = &r->entries[idx[j]];
            s = time_plan(plans[j], g, steps, 1, 0, 0, &t);
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
    cls_state *g = NULL;
    cls__facts f;
    char params[256];
    size_t tiles[8][3], nt, cap = 64, pick_index = (size_t)-1, auto_index = (size_t)-1;
    int halo[3];
    cls_status s;
    memset(&f, 0, sizeof f);
    cls_tune_options_init(&defaults);
    if (topt && (s = cls__options_read(&defaults, sizeof defaults, topt, "tune")) != CLS_SUCCESS)
        return s;
    topt = &defaults;
    if ((s = tune_common(ctx, st, dims, steps, topt->sync, &r)) != CLS_SUCCESS) return s;
    r->n_entries = 0;
    size_t reps = topt->reps ? topt->reps : 3;

    /* The baseline plan first: its state holds the device grids every configuration runs on,
     * and it is the first entry (AUTO chooses between it and the others; the ratio that
     * matters is the best of everything over AUTO's pick). */
    options_of(&opt, 1);
    if ((s = cls_plan_create(ctx, st, dims, steps, &opt, &base)) != CLS_SUCCESS) goto fail;
    if ((s = cls_state_create(base, &g)) != CLS_SUCCESS) goto fail;
    if ((s = cls__state_refill(g, steps)) != CLS_SUCCESS) goto fail;
    if ((s = cls__facts_of_plan(base, &f)) != CLS_SUCCESS) goto fail;
    s = time_plan(base, g, steps, reps, topt->warmup, topt->median, &r->naive.measured_seconds);
    r->naive.status = s;
    if (s != CLS_SUCCESS) goto fail;
    r->entries[r->n_entries++] = r->naive;
    if (r->pick.schedule == r->naive.schedule &&
        !memcmp(r->pick.local_size, r->naive.local_size, sizeof r->naive.local_size) &&
        r->pick.points_per_item == r->naive.points_per_item)
        auto_index = 0;
    else if (r->pick.schedule != CLS_SCHEDULE_TRAPEZOID) {
        /* AUTO's pick is another configuration of the baseline, or another schedule. */
        cls_tune_entry *e = &r->entries[r->n_entries++];
        *e = r->pick;
        measure_entry(ctx, st, dims, steps, g, reps, topt, e);
        auto_index = r->n_entries - 1;
    }

    cls_stencil_halo(st, halo);
    nt = cls__trapezoid_candidates(f.dev, f.model, st, dims, tiles, 8);
    for (size_t t = 0; t < nt; t++) {
        size_t ppi = cls__trapezoid_default_ppi(f.dev, f.model, st, tiles[t]), hmax = steps,
               hs[128];
        for (int i = 0; i < st->dims; i++)
            if (halo[i] && (tiles[t][i] - 1) / (2 * (size_t)halo[i]) < hmax)
                hmax = (tiles[t][i] - 1) / (2 * (size_t)halo[i]);
        if (topt->max_h && topt->max_h < hmax) hmax = topt->max_h;
        size_t nh = heights(hmax, topt->all_h, hs, 128);
        for (int mode = CLS_SYNC_RESTART; mode <= CLS_SYNC_BARRIER; mode++) {
            if (topt->sync != CLS_SYNC_AUTO && topt->sync != (cls_sync)mode) continue;
            trapezoid_options(&opt, params, sizeof params, tiles[t], ppi, 1, (cls_sync)mode);
            s = cls_plan_create(ctx, st, dims, steps, &opt, &p);
            for (size_t k = 0; k < nh; k++) {
                cls_tune_entry *e;
                cls__trap_config c = {{tiles[t][0], tiles[t][1], tiles[t][2]}, ppi, hs[k], mode};
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
                cls__trapezoid_set_height(cls__plan_resident_config(p), dims, st->dims, hs[k]);
                e->predicted_seconds = cls__trapezoid_predict(&f, &r->profile, &c);
                e->status = time_plan(p, g, steps, reps, topt->warmup, topt->median,
                                      &e->measured_seconds);
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
        trapezoid_options(&opt, params, sizeof params, r->trapezoid.tile,
                          r->trapezoid.points_per_item, r->trapezoid.h, r->trapezoid.sync);
        if (grow(r, &cap) != 0) {
            s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "exhaustive table");
            goto fail;
        }
        cls_tune_entry *e = &r->entries[r->n_entries++];
        *e = r->trapezoid;
        e->status = cls_plan_create(ctx, st, dims, steps, &opt, &p);
        if (e->status == CLS_SUCCESS)
            e->status = time_plan(p, g, steps, reps, topt->warmup, topt->median,
                                  &e->measured_seconds);
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
        measure_entry(ctx, st, dims, steps, g, reps, topt, e);
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
        (s = confirm_rounds(ctx, st, dims, steps, g, topt, r,
                            r->trapezoid.measured_seconds > 0 ? pick_index : (size_t)-1,
                            r->pick.measured_seconds > 0 ? auto_index : (size_t)-1)) !=
            CLS_SUCCESS)
        goto fail;
    if (pick_index != (size_t)-1)
        r->trapezoid.confirmed_seconds = r->entries[pick_index].confirmed_seconds;
    if (auto_index != (size_t)-1) r->pick.confirmed_seconds = r->entries[auto_index].confirmed_seconds;
    r->naive.confirmed_seconds = r->entries[0].confirmed_seconds;
    cls_state_release(g);
    cls_plan_release(base);
    cls__facts_free(&f);
    *out = r;
    return CLS_SUCCESS;
fail:
    cls_plan_release(p);
    cls_state_release(g);
    cls_plan_release(base);
    cls__facts_free(&f);
    cls_tune_result_release(r);
    return s;
}
