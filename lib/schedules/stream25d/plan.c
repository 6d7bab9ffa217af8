/* plan.c: the stream25d schedule's operations (Mo & Li, 2.5D streaming): its parameters, its
 * offer under AUTO's rule (rule.c), the build through its planners (plan_single.c,
 * plan_fused.c), and what it reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "planner.h"

#define OPS (&cls__stream25d_ops)

static const char *const loader_names[] = {"auto", "classic", "aligned", "direct", NULL};
static const char *const window_names[] = {"auto", "full", "column", NULL};

static const cls__param_desc params[] = {
    {"tile", CLS__PARAM_SIZES, 1, 1u << 20, NULL,
     "the XY work-group (direct loader: row length x rows per work-item); absent: chosen per "
     "device"},
    {"planes", CLS__PARAM_SIZE, 1, 1u << 24, NULL,
     "planes each work-group streams along z (absent: enough groups for four waves)"},
    {"loader", CLS__PARAM_NAME, 0, 0, loader_names,
     "how a plane and its ghost zone come on chip: classic (Mo & Li Listing 2), aligned "
     "(Listing 3), direct (no local memory), auto"},
    {"prefetch", CLS__PARAM_SIZE, 1, 4, NULL, "planes loaded ahead into registers"},
    {"rows_per_item", CLS__PARAM_SIZE, 1, 8, NULL,
     "adjacent rows of the tile each work-item updates from one register window"},
    {"steps_per_pass", CLS__PARAM_SIZE, 1, 16, NULL,
     "time steps fused into one pass over z (absent: the ghost-zone model's choice)"},
    {"window", CLS__PARAM_NAME, 0, 0, window_names,
     "the one-step kernel's registers: full (every read offset of every plane, radius up to 2), "
     "column (the own column's planes in a queue, the centre plane in local memory: stars up to "
     "radius 4), auto (column for stars beyond radius 1)"},
    {NULL, 0, 0, 0, NULL, NULL}};

double cls__s25_tuning(const cls__s25 *p, const char *key, double dflt)
{
    const cls__facts *f = cls__s25_facts(p);
    return f->model ? cls__facts_model(f, key) : dflt;
}

cls_status cls__s25_build_kernel(cls__s25 *p, const char *tmpl, const char *defines,
                                 const char *kernel)
{
    const cls__facts *f = cls__s25_facts(p);
    cls__built b = {.kernel = p->kernel, .program = p->program};
    /* a system's (fused steps): its one stage, the update reading the window and the levels */
    cls_status s = cls__stencil_is_system(p->st)
                       ? cls__build_stage_kernel(f, 0, tmpl, defines, kernel, f->max_registers, &b)
                       : cls__build_kernel(f, tmpl, defines, CLS__UPDATE_WINDOW, kernel,
                                           f->max_registers, &b);
    p->program = b.program;
    p->kernel = b.kernel;
    p->from_cache = b.from_cache;
    p->build_seconds = b.build_seconds;
    p->max_regs = b.max_regs;
    p->regs_ignored = b.regs_ignored;
    return s;
}

static void request_of(const cls__facts *f, cls__s25_request *r)
{
    size_t v[3];
    memset(r, 0, sizeof *r);
    if (cls__param_get(f->params, OPS, "tile", v)) memcpy(r->local_size, v, sizeof r->local_size);
    if (cls__param_get(f->params, OPS, "planes", v)) r->points_per_item = v[0];
    if (cls__param_get(f->params, OPS, "loader", v)) r->loader = (int)v[0];
    if (cls__param_get(f->params, OPS, "prefetch", v)) r->prefetch = v[0];
    if (cls__param_get(f->params, OPS, "rows_per_item", v)) r->rows_per_item = v[0];
    if (cls__param_get(f->params, OPS, "steps_per_pass", v)) r->steps_per_pass = v[0];
    if (cls__param_get(f->params, OPS, "window", v)) r->window = (int)v[0];
}

static void release(void *config);

/* Whether AUTO may offer a lifted 2D grid here (tuning.stream25d_2d); else 0 with the reason. */
static int offer_2d(const cls__s25 *c, char *why, size_t len)
{
    if (!c->lifted || cls__s25_tuning(c, "tuning.stream25d_2d", 0) != 0) return 1;
    snprintf(why, len,
             "2D grids are streamed along y only where the device model offers it "
             "(tuning.stream25d_2d 0)");
    return 0;
}

/* AUTO for a system: fused steps where fused_system.c accepts it (a field and its time levels,
 * or one stage updating every field) and the ghost-zone model's prediction of them, against the
 * minimal traffic of one step per launch (the naive schedule's prediction), is at least
 * tuning.stream25d_system_gain; then preferred, as the single-field rule prefers fused steps
 * (rule.c).  The threshold is a ratio of two models: the ghost-zone
 * model prices the fused kernel's instructions, the traffic bound prices none, so the ratio
 * understates the gain (doc/stream25d.md, "Fused steps for systems").  One step per pass is
 * never offered: it measured no faster than naive for systems on the H100 (doc/results.md,
 * "stream25d for systems"). */
static cls_status system_candidate(cls__facts *f, cls__s25 *c, cls__candidates *out)
{
    char why[400];
    cls__s25_reads rd;
    size_t k = 1;
    /* Double precision has its own threshold: on the H100 wave3d's fused steps ran at 0.81x
     * naive where the model said 1.01x (doc/results.md, "Resident warps and the fused 3D
     * tiles"). */
    const char *gain_key = c->elem == 8 ? "tuning.stream25d_system_gain_fp64"
                                        : "tuning.stream25d_system_gain";
    double seconds = 0, naive = 0, want = cls__s25_tuning(c, gain_key, 0.85);
    if (cls__s25_tuning(c, "tuning.local_tiles", 1) == 0)
        snprintf(why, sizeof why,
                 "the device model's local memory is cache (tuning.local_tiles 0): streaming "
                 "planes through it does not pay");
    else if (!offer_2d(c, why, sizeof why)) {
        /* offer_2d said why */
    }
    else if (f->st->n_aux)
        snprintf(why, sizeof why,
                 "the system reads %zu auxiliary array%s, which fused steps read from global "
                 "memory at every step",
                 f->st->n_aux, f->st->n_aux == 1 ? "" : "s");
    else if (f->st->boundary == CLS_BOUNDARY_MIRROR &&
             cls__s25_tuning(c, "tuning.stream25d_fused_mirror", 0) == 0)
        snprintf(why, sizeof why,
                 "a mirror grid, whose fused steps' boundary fix-ups cost more than fusing saves "
                 "(tuning.stream25d_fused_mirror 0)");
    else if (f->st->boundary != CLS_BOUNDARY_PERIODIC &&
             cls__s25_tuning(c, "tuning.stream25d_system_fix_ups", 0) == 0)
        snprintf(why, sizeof why,
                 "a %s grid, whose fused steps' boundary fix-ups cost more than fusing saves for "
                 "a system (tuning.stream25d_system_fix_ups 0; periodic grids need none)",
                 cls_boundary_name(f->st->boundary));
    else if (!cls__facts_fit_field_sets(f, why, sizeof why)) {
        /* cls__facts_fit_field_sets said why */
    }
    else if (cls__s25_fused_system(c, &rd, &c->levels, c->fields, why, sizeof why)) {
        cls__stream25d_tb_gain(c, &rd, &k, &seconds, NULL);
        if (f->bandwidth > 0)
            naive = (double)f->steps * (f->restart_seconds + (double)f->points *
                                                                 f->min_bytes_per_point /
                                                                 f->bandwidth);
        if (k < 2 || !(seconds > 0) || !(naive > 0))
            snprintf(why, sizeof why,
                     "the ghost-zone model %s",
                     k < 2 && seconds > 0 ? "prefers one step per pass" : "has no prediction");
        else if (naive / seconds < want)
            snprintf(why, sizeof why,
                     "%zu fused steps per pass predicted at %.2fx the speed of the minimal "
                     "traffic of one step per launch, below %.2g (%s)",
                     k, naive / seconds, want, gain_key);
        else {
            c->req.steps_per_pass = k;
            return cls__candidate_add(out, OPS, c, CLS__RANK_PREFERRED, seconds,
                                      "%s of radius 1, whose %zu fused steps per pass the "
                                      "ghost-zone model predicts at %.2fx the speed of the "
                                      "minimal traffic of one step per launch (at least %.2g, "
                                      "%s)",
                                      f->st->stages[0].n > 1 ? "one stage updating all its fields"
                                                             : "a field and its time levels",
                                      k, naive / seconds, want, gain_key);
        }
    }
    release(c);
    return cls__candidate_add(out, OPS, NULL, CLS__RANK_DECLINED, 0, "%s", why);
}

/* A 2D stencil or system runs as the 3D grid NX x 1 x NY, which has its memory layout:
 * the configuration keeps the lifted stencil and body (doc/stream25d.md, "2D grids"). */
static cls_status lift(const cls__facts *f, cls__s25 *c)
{
    if (f->st->dims != 2) return CLS_SUCCESS;
    cls_status s = cls__stencil_lift_2d(f->st, &c->lifted);
    if (s == CLS_SUCCESS) s = cls__stencil_parse(c->lifted, &c->lifted_expr);
    if (s != CLS_SUCCESS) return s;
    c->st = c->lifted;
    c->dims.n[0] = f->dims.n[0];
    c->dims.n[1] = 1;
    c->dims.n[2] = f->dims.n[1];
    return CLS_SUCCESS;
}

/* The facts the planner sees: f, or for a lifted stencil f with the lifted stencil, body and
 * grid (into *lf). */
static const cls__facts *planner_facts(const cls__facts *f, const cls__s25 *c, cls__facts *lf)
{
    if (!c->lifted) return f;
    *lf = *f;
    lf->st = c->lifted;
    lf->expr = c->lifted_expr;
    lf->dims = c->dims;
    return lf;
}

static cls_status candidates(cls__facts *f, int forced, cls__candidates *out)
{
    cls__facts lf;
    cls__s25 *c = calloc(1, sizeof *c);
    if (!c) return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "stream25d configuration");
    c->ctx = f->ctx;
    c->st = f->st;
    c->dims = f->dims;
    c->steps = f->steps;
    c->points = f->points;
    c->elem = f->elem;
    cls_status s = lift(f, c);
    if (s != CLS_SUCCESS) {
        release(c);
        return s;
    }
    c->facts = planner_facts(f, c, &lf);
    request_of(f, &c->req);
    if (forced) {
        c->facts = NULL;
        return cls__candidate_add(out, OPS, c, CLS__RANK_NORMAL, 0, "as asked");
    }
    if (cls__s25_column_offer(c, c->rule, sizeof c->rule)) {
        c->facts = NULL;
        c->req.window = CLS__WINDOW_COLUMN;
        c->req.steps_per_pass = 1;
        return cls__candidate_add(out, OPS, c, CLS__RANK_PREFERRED, 0, "%s", c->rule);
    }
    if (cls__stencil_is_system(f->st)) return system_candidate(f, c, out);
    int rule = offer_2d(c, c->rule, sizeof c->rule) ? cls__stream25d_auto(c, &c->req)
                                                     : CLS__S25_NONE;
    c->facts = NULL;
    if (rule == CLS__S25_NONE) {
        s = cls__candidate_add(out, OPS, NULL, CLS__RANK_DECLINED, 0, "%s", c->rule);
        release(c);
        return s;
    }
    /* One step per pass: not the model's k; the window of the rule's measurements. */
    if (rule == CLS__S25_SINGLE) c->req.steps_per_pass = 1;
    if (!c->req.window) c->req.window = CLS__WINDOW_FULL;
    return cls__candidate_add(out, OPS, c, CLS__RANK_PREFERRED, 0, "%s", c->rule);
}

static cls_status build(const cls__facts *f, cls__candidate *cand)
{
    cls__s25 *c = cand->config;
    cls__facts lf;
    c->facts = planner_facts(f, c, &lf);
    c->why[0] = '\0';
    cls_status s = cls__plan_stream25d(c, &c->req);
    c->facts = NULL;
    if (s != CLS_SUCCESS) return s;
    char fit[300];
    if (cls__stencil_is_system(f->st) && c->steps_per_pass > 1 &&
        !cls__facts_fit_field_sets(f, fit, sizeof fit))
        return cls__fail(f->ctx, CLS_ERR_PLAN_INFEASIBLE, "stream25d: fused steps: %s", fit);
    cand->seconds = c->predicted_seconds;
    char *why = NULL;
    size_t len = 0, cap = 0;
    int r = cls__appendf(&why, &len, &cap, "%s%s%s", cand->why, c->why[0] ? "; " : "", c->why);
    if (r == 0 && c->regs_ignored)
        r = cls__appendf(&why, &len, &cap,
                         "; register cap %zu ignored: the device has no cl_nv_compiler_options",
                         c->regs_ignored);
    if (r != 0) {
        free(why);
        return cls__fail(f->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "stream25d: why");
    }
    free(cand->why);
    cand->why = why;
    return CLS_SUCCESS;
}

static void describe(const void *config, cls__description *d)
{
    const cls__s25 *c = config;
    memcpy(d->local, c->local, sizeof d->local);
    memcpy(d->global, c->global, sizeof d->global);
    d->from_cache = c->from_cache;
    d->build_seconds = c->build_seconds;
    d->max_registers = c->max_regs;
    cls__describe_param(d, OPS, "tile", "%zux%zu", c->tile[0], c->tile[1]);
    cls__describe_param(d, OPS, "planes", "%zu", c->per_item);
    if (c->window != CLS__WINDOW_COLUMN)
        cls__describe_param(d, OPS, "loader", "%s", loader_names[c->loader & 3]);
    if (c->prefetch) cls__describe_param(d, OPS, "prefetch", "%zu", c->prefetch);
    if (c->item_rows) cls__describe_param(d, OPS, "rows_per_item", "%zu", c->item_rows);
    cls__describe_param(d, OPS, "steps_per_pass", "%zu", c->steps_per_pass);
    cls__describe_param(d, OPS, "window", "%s", window_names[c->window == CLS__WINDOW_COLUMN ? 2 : 1]);
}

static void variant_name(const void *config, char *name, size_t len)
{
    const cls__s25 *c = config;
    /* the direct loader reads no plane into local memory, fused steps and lifted 2D grids are
     * not among the variants: nothing the analysis describes */
    if (c->loader == CLS__LOADER_DIRECT || c->steps_per_pass > 1 || c->lifted ||
        c->window == CLS__WINDOW_COLUMN) {
        if (len) name[0] = '\0';
        return;
    }
    snprintf(name, len, "%s-%zux%zu", c->loader == CLS__LOADER_ALIGNED ? "aligned" : "classic",
             c->local[0], c->local[1]);
}

static void release(void *config)
{
    cls__s25 *c = config;
    if (!c) return;
    if (c->kernel) clReleaseKernel(c->kernel);
    for (size_t g = 0; g < c->n_stages; g++)
        if (c->stage_kernel[g]) clReleaseKernel(c->stage_kernel[g]);
    cls__expr_free(c->lifted_expr);
    cls_stencil_release(c->lifted);
    free(c);
}


const cls__schedule_ops cls__stream25d_ops = {
    .name = "stream25d",
    .id = CLS_SCHEDULE_STREAM25D,
    .flags = 0,
    .summary = "3D (2D: streamed along y): 2D work-groups march along z, planes in registers "
               "and local memory (Mo & Li); one step per pass or several fused",
    .params = params,
    .candidates = candidates,
    .build = build,
    .run = cls__stream25d_run,
    .describe = describe,
    .variant_name = variant_name,
    .publish_access = cls__stream25d_publish_access,
    .release = release,
};
