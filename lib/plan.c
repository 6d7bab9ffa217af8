/* plan.c: the planner core: validates a request against the device, computes its facts once,
 * asks every registered schedule for priced candidates, picks one for device-resident states
 * and one for runs from host arrays, builds them, and says why. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "clstencil_tune.h"
#include "expr.h"
#include "plan.h"

/* Below this predicted run time (the minimal traffic at the device's bandwidth) the planner
 * lets no schedule measure what it lacks: the measurement would cost more than the run can
 * save (doc/architecture.md, "How the core plans"). */
#define CLS__MIN_MEASURE_SECONDS 0.05

const char *cls_schedule_name(cls_schedule s)
{
    if (s == CLS_SCHEDULE_AUTO) return "auto";
    const cls__schedule_ops *o = cls__schedule_by_id((int)s);
    return o ? o->name : "unknown";
}

cls_status cls_schedule_from_name(const char *name, cls_schedule *s)
{
    if (name && s && !strcmp(name, "auto")) {
        *s = CLS_SCHEDULE_AUTO;
        return CLS_SUCCESS;
    }
    const cls__schedule_ops *o = cls__schedule_find(name);
    if (o && s) {
        *s = (cls_schedule)o->id;
        return CLS_SUCCESS;
    }
    char names[256] = "auto";
    size_t n = strlen(names);
    for (size_t i = 0; (o = cls__schedule_at(i)) && n < sizeof names; i++) {
        int w = snprintf(names + n, sizeof names - n, ", %s", o->name);
        if (w > 0) n += (size_t)w;
    }
    return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "unknown schedule '%s' (%s)",
                     name ? name : "(null)", names);
}

void cls_plan_options_init(cls_plan_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->size = sizeof *opt;
    opt->schedule = CLS_SCHEDULE_AUTO;
}

/* The caller's options, as much of them as its struct holds (doc/guide.md, "Options"). */
static cls_status read_options(cls_context *ctx, const cls_plan_options *in, cls_plan_options *o)
{
    cls_plan_options_init(o);
    if (!in) return CLS_SUCCESS;
    cls_status s = cls__options_read(o, sizeof *o, in, "plan");
    return s == CLS_SUCCESS ? s : cls__fail(ctx, s, "%s", cls_last_error());
}

/* ---------------------------------------------------------------- candidates */
cls_status cls__candidate_add(cls__candidates *l, const cls__schedule_ops *ops, void *config,
                              cls__rank rank, double seconds, const char *fmt, ...)
{
    char *why = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && (why = malloc((size_t)n + 1))) {
        va_start(ap, fmt);
        vsnprintf(why, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    if (!why || (l->n == l->cap && l->cap > 4096)) {
        free(why);
        ops->release(config);
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "a candidate of %s", ops->name);
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        cls__candidate *c = realloc(l->c, cap * sizeof *c);
        if (!c) {
            free(why);
            ops->release(config);
            return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "a candidate of %s", ops->name);
        }
        l->c = c;
        l->cap = cap;
    }
    cls__candidate *c = &l->c[l->n++];
    memset(c, 0, sizeof *c);
    c->ops = ops;
    c->config = config;
    c->rank = rank;
    c->seconds = seconds > 0 && isfinite(seconds) ? seconds : 0;
    c->why = why;
    return CLS_SUCCESS;
}

static void candidate_free(cls__candidate *c)
{
    if (c->ops && c->config) c->ops->release(c->config);
    free(c->why);
    memset(c, 0, sizeof *c);
}

void cls__candidates_clear(cls__candidates *l)
{
    for (size_t i = 0; i < l->n; i++) candidate_free(&l->c[i]);
    free(l->c);
    memset(l, 0, sizeof *l);
}

/* Drops the candidates of one schedule (before asking it again). */
static void drop_schedule(cls__candidates *l, const cls__schedule_ops *ops)
{
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->c[i].ops == ops)
            candidate_free(&l->c[i]);
        else
            l->c[k++] = l->c[i];
    }
    l->n = k;
}

/* Records a schedule that cannot run here as a declined candidate carrying the reason. */
static cls_status decline(cls__candidates *l, const cls__schedule_ops *ops, const char *reason)
{
    return cls__candidate_add(l, ops, NULL, CLS__RANK_DECLINED, 0, "%s", reason);
}

/* Whether a beats b: higher rank, then a known and shorter prediction; ties stay with b (the
 * earlier schedule in the registry). */
static int better(const cls__candidate *a, const cls__candidate *b)
{
    if (a->rank != b->rank) return a->rank > b->rank;
    if (!(a->seconds > 0)) return 0;
    return !(b->seconds > 0) || a->seconds < b->seconds;
}

static int have_preferred(const cls__candidates *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->c[i].rank == CLS__RANK_PREFERRED) return 1;
    return 0;
}

/* ---------------------------------------------------------------- facts */
cls_status cls__facts_set_profile(cls__facts *f, const cls_ghost_profile *p)
{
    if (!f->profile_copy && !(f->profile_copy = malloc(sizeof *f->profile_copy)))
        return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "a profile");
    *f->profile_copy = *p;
    f->profile = f->profile_copy;
    f->version++;
    return CLS_SUCCESS;
}

int cls__facts_fit_field_sets(const cls__facts *f, char *why, size_t len)
{
    double grid = (double)f->points * (double)f->elem, total = 2.0 * (double)f->st->n_fields * grid;
    for (size_t k = 0; k < f->st->n_aux; k++)
        total += f->st->aux[k].per_step ? grid * (double)(f->steps ? f->steps : 1) : grid;
    if (!(f->device_cap > 0) || total <= f->device_cap) return 1;
    snprintf(why, len,
             "'%s' holds each of its %zu fields twice on the device (%.4g bytes with the "
             "auxiliary arrays), above the %.4g bytes a run may use",
             f->st->name, f->st->n_fields, total, f->device_cap);
    return 0;
}

double cls__facts_model(const cls__facts *f, const char *key)
{
    double v = 0;
    if (!f->model || cls_model_get(f->model, key, &v) != CLS_SUCCESS || !isfinite(v)) return 0;
    return v;
}

const char *cls__bytes_text(char *buf, size_t n, double b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) b /= 1024, u++;
    snprintf(buf, n, "%.1f %s", b, unit[u]);
    return buf;
}

/* Whether the whole grid fits: every buffer one allocation, all of them the cap. */
static int check_memory(cls_plan *p, double cap, char *msg, size_t len)
{
    const cls_device_info *d = &p->ctx->info;
    double grid = (double)p->points * (double)p->elem;
    /* the fields' buffers: two for one field, the rotation's for a system */
    cls__rotation rot;
    cls__rotation_init(&rot, p->st);
    double total = (double)rot.n_bufs * grid, largest = grid;
    for (size_t k = 0; k < p->st->n_aux; k++) {
        double a = p->st->aux[k].per_step ? grid * (double)p->steps : grid;
        total += a;
        if (a > largest) largest = a;
    }
    char b1[32], b2[32], b3[32];
    if (largest > (double)d->max_alloc_bytes) {
        snprintf(msg, len,
                 "a %zux%zux%zu %s grid needs a buffer of %s; '%s' allows at most %s in one "
                 "allocation (use a smaller grid or a device with more memory)",
                 p->dims.n[0], p->dims.n[1], p->dims.n[2], p->elem == 8 ? "double" : "float",
                 cls__bytes_text(b1, sizeof b1, largest), d->name,
                 cls__bytes_text(b2, sizeof b2, (double)d->max_alloc_bytes));
        return 0;
    }
    if (total > (double)d->global_mem_bytes) {
        snprintf(msg, len,
                 "a %zux%zux%zu %s grid needs %s of device buffers; '%s' has %s of global "
                 "memory (largest buffer %s)",
                 p->dims.n[0], p->dims.n[1], p->dims.n[2], p->elem == 8 ? "double" : "float",
                 cls__bytes_text(b1, sizeof b1, total), d->name,
                 cls__bytes_text(b2, sizeof b2, (double)d->global_mem_bytes),
                 cls__bytes_text(b3, sizeof b3, largest));
        return 0;
    }
    if (total > cap) {
        snprintf(msg, len,
                 "the whole grid needs %s (%.0f bytes) of device buffers, above the cap of %s",
                 cls__bytes_text(b1, sizeof b1, total), total, cls__bytes_text(b2, sizeof b2, cap));
        return 0;
    }
    return 1;
}

static cls_status facts_init(cls_plan *p, const cls_plan_options *o, cls__facts *f,
                             char *fit_msg, size_t fit_len)
{
    cls_context *ctx = p->ctx;
    memset(f, 0, sizeof *f);
    f->ctx = ctx;
    f->dev = &ctx->info;
    f->st = p->st;
    f->expr = p->expr;
    f->dims = p->dims;
    f->steps = p->steps;
    f->points = p->points;
    f->elem = p->elem;
    const cls_model *m = NULL;
    if (cls__context_model(ctx, &m) == CLS_SUCCESS) f->model = m;
    f->min_bytes_per_point = cls_stencil_min_bytes_per_point(p->st);
    f->bandwidth = cls__facts_model(f, "memory.bandwidth_measured_gbs");
    if (!(f->bandwidth > 0)) f->bandwidth = cls__facts_model(f, "memory.bandwidth_peak_gbs");
    f->bandwidth *= 1e9;
    double clock = cls__facts_model(f, "compute.clock_mhz");
    if (clock > 0) f->restart_seconds = cls__facts_model(f, "sync.kernel_restart_cycles") / (clock * 1e6);
    f->device_cap = (double)ctx->info.global_mem_bytes;
    if (o->device_memory > 0 && (o->device_memory < f->device_cap || !(f->device_cap > 0)))
        f->device_cap = o->device_memory;
    f->fits = check_memory(p, f->device_cap, fit_msg, fit_len);
    f->fit_error = f->fits ? NULL : fit_msg;
    f->params = &p->params;
    f->max_registers = o->max_registers;
    f->host_pinned = o->host_pinned != 0;
    f->release_buffers = o->release_buffers != 0;
    /* what the schedules know without measuring (a cached profile) */
    const cls__schedule_ops *ops;
    for (size_t i = 0; (ops = cls__schedule_at(i)); i++)
        if (ops->load_facts && ops->load_facts(f) == CLS_ERR_OUT_OF_HOST_MEMORY)
            return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "planning facts");
    return CLS_SUCCESS;
}

void cls__facts_free(cls__facts *f)
{
    if (!f) return;
    free(f->profile_copy);
    f->profile_copy = NULL;
    f->profile = NULL;
}

/* The run at the minimal traffic and the device's bandwidth, a launch per step. */
static double bound_seconds(const cls__facts *f)
{
    if (!(f->bandwidth > 0)) return 0;
    return (double)f->steps *
           (f->restart_seconds + (double)f->points * f->min_bytes_per_point / f->bandwidth);
}

/* ---------------------------------------------------------------- the two phases */
/* Asks one schedule; a failure of a schedule that was not asked for becomes a declined
 * candidate with its reason. */
static cls_status ask(cls__facts *f, const cls__schedule_ops *ops, int forced,
                      cls__candidates *l)
{
    size_t before = l->n;
    cls_status s = ops->candidates(f, forced, l);
    if (s == CLS_SUCCESS || forced) return s;
    if (s == CLS_ERR_OUT_OF_HOST_MEMORY) return s;
    char reason[1024];
    snprintf(reason, sizeof reason, "%s", cls_last_error());
    while (l->n > before) candidate_free(&l->c[--l->n]);
    return decline(l, ops, reason);
}

/* The resident phase: every device-resident schedule (or the one asked for), asked again
 * while a schedule's measurement changes the facts, so that every price uses them. */
static cls_status resident_phase(cls__facts *f, const cls__schedule_ops *forced, int how,
                                 cls__candidates *l, int *chosen)
{
    cls_status s = CLS_SUCCESS;
    double bound = bound_seconds(f);
    char denied[256];
    *chosen = -1;
    for (int pass = 0; pass < 3; pass++) {
        unsigned v0 = f->version;
        const cls__schedule_ops *o;
        for (size_t i = 0; (o = cls__schedule_at(i)); i++) {
            if (o->flags & CLS__SCHED_HOST) continue;
            if (forced && o != forced) continue;
            drop_schedule(l, o);
            f->measure_allowed = forced != NULL ||
                                 (bound >= CLS__MIN_MEASURE_SECONDS && !have_preferred(l));
            if (f->measure_allowed)
                f->measure_denied = NULL;
            else if (have_preferred(l))
                f->measure_denied = "another schedule is preferred here";
            else {
                snprintf(denied, sizeof denied,
                         "the run is predicted to take %.3g s at the minimal traffic, less than "
                         "the %.2g s below which nothing is measured",
                         bound, CLS__MIN_MEASURE_SECONDS);
                f->measure_denied = denied;
            }
            if ((s = ask(f, o, forced ? how : CLS__NOT_FORCED, l)) != CLS_SUCCESS) return s;
        }
        if (f->version == v0) break;
    }
    f->measure_allowed = 0;
    f->measure_denied = "planning is over";
    for (size_t i = 0; i < l->n; i++) {
        if (l->c[i].ops->flags & CLS__SCHED_HOST || !l->c[i].config) continue;
        if (!forced && l->c[i].rank == CLS__RANK_DECLINED) continue;
        if (*chosen < 0 || better(&l->c[i], &l->c[*chosen])) *chosen = (int)i;
    }
    return CLS_SUCCESS;
}

/* The host phase: the host schedules compete with copying the grid whole around the resident
 * pick; a preferred offer takes host-to-host runs. */
static cls_status host_phase(cls__facts *f, int named_id, cls__candidates *l, int resident,
                             int *chosen)
{
    const cls__schedule_ops *o;
    *chosen = -1;
    f->resident = resident >= 0 ? l->c[resident].ops->name : NULL;
    f->resident_seconds = resident >= 0 ? l->c[resident].seconds : 0;
    for (size_t i = 0; (o = cls__schedule_at(i)); i++) {
        if (!(o->flags & CLS__SCHED_HOST)) continue;
        size_t before = l->n;
        int how = o->id == named_id ? CLS__FORCED_BY_NAME : CLS__NOT_FORCED;
        for (size_t k = 0; !how && k < f->params->n; k++)
            if (f->params->v[k].ops == o) how = CLS__FORCED_BY_PARAMS;
        /* a grid that does not fit runs through a host schedule or not at all */
        if (!how && !f->fits) how = CLS__FORCED_BY_PARAMS;
        cls_status s = ask(f, o, how, l);
        if (s != CLS_SUCCESS) return s;
        for (size_t k = before; k < l->n; k++)
            if (l->c[k].config && l->c[k].rank == CLS__RANK_PREFERRED &&
                (*chosen < 0 || better(&l->c[k], &l->c[*chosen])))
                *chosen = (int)k;
    }
    f->resident = NULL;
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- why */
static int appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[2048];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return cls__appendf(buf, len, cap, "%s", tmp);
}

static const char *seconds_text(char *buf, size_t n, double s)
{
    if (s > 0)
        snprintf(buf, n, "predicted %.4g s", s);
    else
        snprintf(buf, n, "no prediction");
    return buf;
}

/* "<chosen>: <its why>; against: <others>" from the candidates of one phase. */
static char *phase_why(const cls__candidates *l, int chosen, int host, int forced)
{
    char *b = NULL, t[64];
    size_t len = 0, cap = 0;
    int others = 0;
    if (chosen >= 0) {
        const cls__candidate *c = &l->c[chosen];
        /* a host schedule's account names what it does */
        if (host ? appendf(&b, &len, &cap, "%s", c->why) < 0
                 : appendf(&b, &len, &cap, "%s%s: %s", c->ops->name,
                           forced ? " (asked for)" : "", c->why) < 0)
            goto oom;
    }
    for (size_t i = 0; i < l->n; i++) {
        const cls__candidate *c = &l->c[i];
        if ((int)i == chosen || !!(c->ops->flags & CLS__SCHED_HOST) != host) continue;
        const char *lead = others++ ? "; " : chosen >= 0 ? ". Against: " : "";
        /* a host schedule that declines says itself what runs instead */
        if (host && chosen < 0) {
            if (appendf(&b, &len, &cap, "%s%s", others > 1 ? "; " : "", c->why) < 0) goto oom;
            continue;
        }
        int r = c->rank == CLS__RANK_DECLINED || !c->config
                    ? appendf(&b, &len, &cap, "%s%s not taken: %s", lead, c->ops->name, c->why)
                    : appendf(&b, &len, &cap, "%s%s %s (%s)", lead, c->ops->name,
                              seconds_text(t, sizeof t, c->seconds), c->why);
        if (r < 0) goto oom;
    }
    if (!b && !(b = cls__strdup(""))) goto oom;
    return b;
oom:
    free(b);
    return NULL;
}

/* ---------------------------------------------------------------- describe */
void cls__describe_param(cls__description *d, const cls__schedule_ops *ops, const char *name,
                         const char *fmt, ...)
{
    char val[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof val, fmt, ap);
    va_end(ap);
    cls__appendf(&d->params, &d->len, &d->cap, "%s%s.%s=%s", d->len ? " " : "", ops->name, name,
                 val);
}

/* Splits "a.b=v c.d=w" into the plan's (name, value) list. */
static cls_status split_params(cls_plan *p, const char *text)
{
    size_t n = 0;
    for (const char *c = text; *c; c++) n += *c == '=';
    if (!n) return CLS_SUCCESS;
    if (!(p->param = calloc(n, sizeof *p->param)))
        return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "plan parameters");
    const char *c = text;
    while (*c && p->n_param < n) {
        while (*c == ' ') c++;
        const char *eq = strchr(c, '='), *end = strchr(c, ' ');
        if (!eq) break;
        if (!end) end = c + strlen(c);
        cls__plan_param *pp = &p->param[p->n_param];
        pp->name = malloc((size_t)(eq - c) + 1);
        pp->value = malloc((size_t)(end - eq));
        if (!pp->name || !pp->value) {
            free(pp->name);
            free(pp->value);
            return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "plan parameters");
        }
        memcpy(pp->name, c, (size_t)(eq - c));
        pp->name[eq - c] = '\0';
        memcpy(pp->value, eq + 1, (size_t)(end - eq - 1));
        pp->value[end - eq - 1] = '\0';
        p->n_param++;
        c = end;
    }
    return CLS_SUCCESS;
}

static cls_status describe_all(cls_plan *p)
{
    cls__description d;
    memset(&d, 0, sizeof d);
    if (p->host.ops && p->host.ops->describe) p->host.ops->describe(p->host.config, &d);
    cls__description hostd = d;
    memset(&d, 0, sizeof d);
    if (p->resident.ops && p->resident.ops->describe)
        p->resident.ops->describe(p->resident.config, &d);
    if (hostd.params) {
        cls__appendf(&d.params, &d.len, &d.cap, "%s%s", d.len ? " " : "", hostd.params);
        free(hostd.params);
    }
    if (!p->resident.ops) {
        memcpy(d.local, hostd.local, sizeof d.local);
        memcpy(d.global, hostd.global, sizeof d.global);
        d.from_cache = hostd.from_cache;
        d.build_seconds = hostd.build_seconds;
    }
    p->desc = d;
    return split_params(p, d.params ? d.params : "");
}

/* ---------------------------------------------------------------- create */
static cls_status take(cls__candidates *l, int i, cls__candidate *dst)
{
    *dst = l->c[i];
    dst->why = cls__strdup(l->c[i].why);
    l->c[i].config = NULL; /* the plan owns it now; the list keeps the text */
    return dst->why ? CLS_SUCCESS : cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "plan");
}

/* After build: the list's entry takes what the build refined (its prediction, and its why,
 * which the plan's why is made from). */
static cls_status built_back(cls__candidate *listed, const cls__candidate *built)
{
    char *why = cls__strdup(built->why);
    if (!why) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "plan");
    free(listed->why);
    listed->why = why;
    listed->seconds = built->seconds;
    return CLS_SUCCESS;
}

cls_status cls__plan_create(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                            const cls_plan_options *opt_in, unsigned flags, cls_plan **out)
{
    cls_plan_options opt;
    cls_plan *p = NULL;
    cls__facts f;
    cls_status s;
    char fit_msg[1024] = "";
    int rchosen = -1, hchosen = -1;
    memset(&f, 0, sizeof f); /* the failure path frees it, also before facts_init fills it */
    if (!ctx || !st || !out)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_plan_create: NULL argument");
    *out = NULL;
    if ((s = read_options(ctx, opt_in, &opt)) != CLS_SUCCESS) return s;
    if ((s = cls__stencil_check(st, &dims, steps)) != CLS_SUCCESS) {
        char msg[2048];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(ctx, s, "%s", msg);
    }
    if (st->dtype == CLS_FLOAT64 && !ctx->info.double_support)
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED, "'%s' has no double precision (cl_khr_fp64)",
                         ctx->info.name);
    if (steps > 2147483647u)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "steps: at most 2^31-1, got %zu", steps);
    /* ptxas takes caps from 16 (below that no kernel compiles) to the 255 of the ISA. */
    if (opt.max_registers && (opt.max_registers < 16 || opt.max_registers > 255))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "max registers: 16 to 255 per work-item, got %zu", opt.max_registers);
    if (!(opt.device_memory >= 0) || !isfinite(opt.device_memory))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "device memory cap: a byte count >= 0 (0: the device's), got %g",
                         opt.device_memory);
    const cls__schedule_ops *forced = NULL;
    int how = CLS__FORCED_BY_NAME;
    if (opt.schedule != CLS_SCHEDULE_AUTO && !(forced = cls__schedule_by_id((int)opt.schedule)))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "unknown schedule %d", (int)opt.schedule);
    if (!(p = calloc(1, sizeof *p))) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "plan");
    p->ctx = ctx;
    p->resident_index = p->host_index = -1;
    p->release_buffers = opt.release_buffers != 0;
    p->dims = dims;
    p->steps = steps;
    p->points = cls_dims_points(dims);
    p->elem = cls_dtype_size(st->dtype);
    if ((s = cls_stencil_copy(st, &p->st)) != CLS_SUCCESS) goto fail;
    if ((s = cls__stencil_parse(p->st, &p->expr)) != CLS_SUCCESS) goto fail;
    if ((s = cls__params_parse(ctx, opt.params, &p->params)) != CLS_SUCCESS) goto fail;
    facts_init(p, &opt, &f, fit_msg, sizeof fit_msg);

    /* The schedule asked for: by name, or the one resident schedule whose parameters are
     * given (they describe it); a host schedule asked for leaves the resident choice open. */
    int host_forced = forced && (forced->flags & CLS__SCHED_HOST) ? forced->id : -1;
    if (forced && (forced->flags & CLS__SCHED_HOST)) forced = NULL;
    if (!forced) {
        forced = cls__params_single_schedule(&p->params, 0);
        how = CLS__FORCED_BY_PARAMS;
    }
    for (size_t i = 0; i < p->params.n; i++)
        if (forced && !(p->params.v[i].ops->flags & CLS__SCHED_HOST) &&
            p->params.v[i].ops != forced) {
            s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                          "parameter %s.%s given for the %s schedule", p->params.v[i].ops->name,
                          p->params.v[i].desc->name, forced->name);
            goto fail;
        }

    /* A grid above the device's memory has no resident configuration; a host schedule may
     * still run it tile by tile. */
    if (f.fits) {
        if ((s = resident_phase(&f, forced, how, &p->considered, &rchosen)) != CLS_SUCCESS)
            goto fail;
        if (rchosen < 0) {
            s = cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE, "no schedule can run '%s' here: %s",
                          p->st->name, p->considered.n ? p->considered.c[0].why : "none asked");
            goto fail;
        }
        p->resident_index = rchosen;
        if ((s = take(&p->considered, rchosen, &p->resident)) != CLS_SUCCESS) goto fail;
        if ((s = p->resident.ops->build(&f, &p->resident)) != CLS_SUCCESS ||
            (s = built_back(&p->considered.c[rchosen], &p->resident)) != CLS_SUCCESS)
            goto fail;
    }
    if (!(flags & CLS__PLAN_RESIDENT_ONLY) &&
        (s = host_phase(&f, host_forced, &p->considered, f.fits ? rchosen : -1, &hchosen)) !=
            CLS_SUCCESS)
        goto fail;
    /* The host phase's predictions of the resident alternative, chosen or not. */
    for (size_t i = 0; i < p->considered.n; i++) {
        const cls__candidate *c = &p->considered.c[i];
        if (!(c->ops->flags & CLS__SCHED_HOST)) continue;
        p->predicted_copy = c->copy_seconds;
        p->predicted_total = c->copy_seconds;
        p->predicted_alloc = c->copy_alloc_seconds;
    }
    if (hchosen >= 0) {
        p->host_index = hchosen;
        if ((s = take(&p->considered, hchosen, &p->host)) != CLS_SUCCESS) goto fail;
        if ((s = p->host.ops->build(&f, &p->host)) != CLS_SUCCESS) goto fail;
        p->predicted_total = p->host.total_seconds;
        p->predicted_alloc = p->host.alloc_seconds;
    } else if (!f.fits) {
        const char *reason = "no schedule runs grids above the device's memory";
        for (size_t i = 0; i < p->considered.n; i++)
            if (p->considered.c[i].ops->flags & CLS__SCHED_HOST) reason = p->considered.c[i].why;
        s = cls__fail(ctx, CLS_ERR_TOO_LARGE, "%s; %s", fit_msg, reason);
        goto fail;
    }
    if (!(p->why = phase_why(&p->considered, rchosen, 0, forced != NULL)) ||
        !(p->host_why = phase_why(&p->considered, hchosen, 1, host_forced >= 0))) {
        s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "plan");
        goto fail;
    }
    if (!f.fits && !p->why[0]) {
        free(p->why);
        if (!(p->why = cls__strdup(fit_msg))) {
            s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "plan");
            goto fail;
        }
    }
    if ((s = describe_all(p)) != CLS_SUCCESS) goto fail;
    cls__facts_free(&f);
    *out = p;
    return CLS_SUCCESS;
fail:
    cls__facts_free(&f);
    cls_plan_release(p);
    return s;
}

cls_status cls_plan_create(cls_context *ctx, const cls_stencil *st, cls_dims dims, size_t steps,
                           const cls_plan_options *opt, cls_plan **out)
{
    return cls__plan_create(ctx, st, dims, steps, opt, 0, out);
}

cls_status cls__facts_of_plan(cls_plan *p, cls__facts *f)
{
    cls_plan_options o;
    static char unused[8];
    cls_plan_options_init(&o);
    o.release_buffers = p->release_buffers;
    return facts_init(p, &o, f, unused, sizeof unused);
}

void *cls__plan_resident_config(cls_plan *p) { return p ? p->resident.config : NULL; }

cls_status cls__baseline_step_seconds(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                                      size_t reps, double *seconds)
{
    cls_plan_options o;
    cls_plan *p = NULL;
    cls_state *g = NULL;
    double t[16];
    cls_status s;
    cls_plan_options_init(&o);
    o.schedule = (cls_schedule)cls__schedule_at(0)->id;
    if (reps < 1) reps = 1;
    if (reps > 16) reps = 16;
    if ((s = cls__plan_create(ctx, st, dims, 1, &o, CLS__PLAN_RESIDENT_ONLY, &p)) != CLS_SUCCESS)
        return s;
    if ((s = cls_state_create(p, &g)) == CLS_SUCCESS) s = cls__state_refill(g, 1);
    for (size_t r = 0; r <= reps && s == CLS_SUCCESS; r++) {
        double k = 0;
        g->step = 0;
        s = cls__plan_advance(p, g, 1, 0, 1, &k);
        if (r) t[r - 1] = k;
    }
    if (s == CLS_SUCCESS) *seconds = cls__median(t, reps);
    cls_state_release(g);
    cls_plan_release(p);
    return s;
}

void cls_plan_release_buffers(cls_plan *p)
{
    if (!p) return;
    cls_state_release(p->kept);
    p->kept = NULL;
    if (p->host.ops && p->host.ops->release_buffers) p->host.ops->release_buffers(p->host.config);
}

void cls_plan_release(cls_plan *p)
{
    if (!p) return;
    cls_plan_release_buffers(p);
    candidate_free(&p->resident);
    candidate_free(&p->host);
    cls__candidates_clear(&p->considered);
    cls__params_free(&p->params);
    for (size_t i = 0; i < p->n_param; i++) {
        free(p->param[i].name);
        free(p->param[i].value);
    }
    free(p->param);
    free(p->desc.params);
    free(p->why);
    free(p->host_why);
    cls__expr_free(p->expr);
    cls_stencil_release(p->st);
    free(p);
}

/* ---------------------------------------------------------------- inspection */
cls_status cls_plan_describe(const cls_plan *p, cls_plan_info *info)
{
    if (!p || !info) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_plan_describe: NULL");
    memset(info, 0, sizeof *info);
    info->schedule = p->resident.ops ? (cls_schedule)p->resident.ops->id : CLS_SCHEDULE_AUTO;
    info->schedule_name = p->resident.ops ? p->resident.ops->name : "none";
    info->host_schedule = p->host.ops ? (cls_schedule)p->host.ops->id : CLS_SCHEDULE_AUTO;
    memcpy(info->local_size, p->desc.local, sizeof info->local_size);
    memcpy(info->global_size, p->desc.global, sizeof info->global_size);
    info->max_registers = p->desc.max_registers;
    info->from_cache = p->desc.from_cache;
    info->build_seconds = p->desc.build_seconds;
    info->predicted_seconds = p->resident.ops ? p->resident.seconds : p->host.seconds;
    info->predicted_total_seconds = p->predicted_total;
    info->predicted_copy_seconds = p->predicted_copy;
    info->predicted_alloc_seconds = p->predicted_alloc;
    info->params = p->desc.params ? p->desc.params : "";
    info->why = p->why;
    info->host_why = p->host_why;
    return CLS_SUCCESS;
}

const char *cls_plan_param(const cls_plan *p, const char *name)
{
    for (size_t i = 0; p && name && i < p->n_param; i++)
        if (!strcmp(p->param[i].name, name)) return p->param[i].value;
    return NULL;
}

size_t cls_plan_num_candidates(const cls_plan *p) { return p ? p->considered.n : 0; }

cls_status cls_plan_candidate_info(const cls_plan *p, size_t i, cls_plan_candidate *c)
{
    if (!p || !c || i >= p->considered.n)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_plan_candidate_info: no candidate %zu",
                         i);
    const cls__candidate *k = &p->considered.c[i];
    memset(c, 0, sizeof *c);
    c->schedule = (cls_schedule)k->ops->id;
    c->schedule_name = k->ops->name;
    c->host = (k->ops->flags & CLS__SCHED_HOST) != 0;
    c->predicted_seconds = k->seconds;
    c->predicted_total_seconds = k->total_seconds;
    c->chosen = (int)i == p->resident_index || (int)i == p->host_index;
    c->declined = k->rank == CLS__RANK_DECLINED || (!k->config && !c->chosen);
    c->why = k->why;
    return CLS_SUCCESS;
}

cls_status cls_plan_set_progress(cls_plan *p, cls_progress_fn fn, void *user)
{
    if (!p) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_plan_set_progress: NULL plan");
    p->progress = fn;
    p->progress_user = user;
    return CLS_SUCCESS;
}
