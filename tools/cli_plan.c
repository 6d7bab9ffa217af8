/* cli_plan.c: a plan's options from the command line (--schedule, --param schedule.name=V and
 * the older per-schedule flags, which name the schedule they configure), and the plan printed
 * as text or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_plan_opts_init(cli_plan_opts *o)
{
    memset(o, 0, sizeof *o);
    cls_plan_options_init(&o->opt);
}

int cli_param_option(const cli_command *cmd, const char *v, struct cli_settings *set,
                     cli_plan_opts *o)
{
    const char *eq = strchr(v, '='), *dot = strchr(v, '.');
    if (eq && dot && dot < eq) return cli_parse_plan_option(cmd, "param", v, o);
    return cli_settings_option(set, cmd, "param", v);
}

void cli_plan_opts_free(cli_plan_opts *o)
{
    free(o->params);
    o->params = NULL;
    o->len = o->cap = 0;
}

/* Appends "name=value" to the parameter text. */
static int add(cli_plan_opts *o, const char *name, const char *value)
{
    size_t need = o->len + strlen(name) + strlen(value) + 3;
    if (need > o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 256;
        while (cap < need) cap *= 2;
        char *p = realloc(o->params, cap);
        if (!p) return cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "schedule parameters");
        o->params = p;
        o->cap = cap;
    }
    o->len += (size_t)snprintf(o->params + o->len, o->cap - o->len, "%s%s=%s", o->len ? " " : "",
                               name, value);
    return CLI_EXIT_OK;
}

int cli_parse_plan_option(const cli_command *cmd, const char *option, const char *value,
                          cli_plan_opts *o)
{
    size_t n;
    cls_dims d;
    int nd;
    if (strcmp(option, "schedule") == 0) {
        if (cls_schedule_from_name(value, &o->opt.schedule) != CLS_SUCCESS)
            return cli_usage_error(cmd, "%s", cls_last_error());
    } else if (strcmp(option, "param") == 0) {
        /* schedule.name=value: the library checks the name and the value */
        char name[128];
        const char *v;
        if (cli_parse_assign(value, name, sizeof name, &v) != 0 || !strchr(name, '.') || !*v)
            return cli_usage_error(cmd, "invalid --param '%s' (schedule.name=VALUE)", value);
        return add(o, name, v);
    } else if (strcmp(option, "height") == 0) {
        if (cli_parse_count(value, &n) != 0 || n > 65536)
            return cli_usage_error(cmd, "invalid --height '%s' (steps per stage, 1..65536)",
                                   value);
        o->height = value;
    } else if (strcmp(option, "points-per-item") == 0) {
        if (cli_parse_count(value, &n) != 0 || n == 0)
            return cli_usage_error(cmd, "invalid --points-per-item '%s' (a positive integer)",
                                   value);
        o->per_item = value;
    } else if (strcmp(option, "local-size") == 0) {
        if (cli_parse_size(value, &d, &nd) != 0)
            return cli_usage_error(cmd, "invalid --local-size '%s' (expected LX[xLY[xLZ]])",
                                   value);
        o->local = value;
    } else if (strcmp(option, "sync") == 0) {
        if (strcmp(value, "restart") && strcmp(value, "barrier"))
            return cli_usage_error(cmd, "unknown --sync '%s' (restart or barrier)", value);
        o->sync = value;
    } else if (strcmp(option, "pipeline") == 0) {
        static const char *const modes[] = {"auto", "off", "basic", "scalable", "buffered"};
        size_t i = 0;
        while (i < 5 && strcmp(value, modes[i])) i++;
        if (i == 5)
            return cli_usage_error(cmd,
                                   "unknown pipeline '%s' (auto, off, basic, scalable, buffered)",
                                   value);
        o->pipeline = value;
    } else if (strcmp(option, "pipeline-tile") == 0) {
        if (cli_parse_size(value, &d, &nd) != 0)
            return cli_usage_error(cmd, "invalid --pipeline-tile '%s' (TX[xTY[xTZ]])", value);
        o->pipeline_tile = value;
    } else if (strcmp(option, "pipeline-steps") == 0) {
        if (cli_parse_count(value, &n) != 0)
            return cli_usage_error(cmd, "invalid --pipeline-steps '%s' (a positive integer)",
                                   value);
        o->pipeline_steps = value;
    } else if (strcmp(option, "rect") == 0) {
        o->rect = 1;
    } else if (strcmp(option, "device-memory") == 0) {
        if (cli_parse_bytes(value, &o->opt.device_memory) != 0)
            return cli_usage_error(cmd, "invalid --device-memory '%s' (bytes, with K, M or G)",
                                   value);
    } else if (strcmp(option, "max-registers") == 0) {
        if (cli_parse_count(value, &o->opt.max_registers) != 0 || o->opt.max_registers < 16 ||
            o->opt.max_registers > 255)
            return cli_usage_error(cmd, "invalid --max-registers '%s' (16..255)", value);
    } else if (strcmp(option, "pinned") == 0) {
        o->opt.host_pinned = 1;
    } else {
        return cli_usage_error(cmd, "unknown plan option '--%s'", option);
    }
    return CLI_EXIT_OK;
}

/* The older flags name the schedule they configure: the one asked for, else trapezoid for
 * --height and --sync, else naive (as AUTO read them before parameters existed). */
int cli_plan_finish(const cli_command *cmd, cli_plan_opts *o)
{
    const char *sched = NULL;
    int rc;
    if (o->opt.schedule != CLS_SCHEDULE_AUTO)
        sched = cls_schedule_name(o->opt.schedule);
    else if (o->height || o->sync)
        sched = "trapezoid";
    else if (o->local || o->per_item)
        sched = "naive";
    if ((o->local || o->per_item || o->height || o->sync) && sched &&
        !strcmp(sched, "pipeline"))
        return cli_usage_error(cmd, "--local-size, --points-per-item, --height and --sync "
                                    "configure a resident schedule, not the pipeline (use "
                                    "--pipeline-tile and --pipeline-steps)");
    if ((o->height || o->sync) && sched && strcmp(sched, "trapezoid"))
        return cli_usage_error(cmd, "--height and --sync configure the trapezoid schedule, not %s",
                               sched);
    char name[64];
    if (o->local) {
        snprintf(name, sizeof name, "%s.%s", sched, strcmp(sched, "naive") ? "tile" : "local");
        if ((rc = add(o, name, o->local)) != CLI_EXIT_OK) return rc;
    }
    if (o->per_item) {
        snprintf(name, sizeof name, "%s.%s", sched,
                 strcmp(sched, "stream25d") ? "points_per_item" : "planes");
        if ((rc = add(o, name, o->per_item)) != CLI_EXIT_OK) return rc;
    }
    if (o->height && (rc = add(o, "trapezoid.height", o->height)) != CLI_EXIT_OK) return rc;
    if (o->sync && (rc = add(o, "trapezoid.sync", o->sync)) != CLI_EXIT_OK) return rc;
    if (o->pipeline && (rc = add(o, "pipeline.scheme", o->pipeline)) != CLI_EXIT_OK) return rc;
    if (o->pipeline_tile && (rc = add(o, "pipeline.tile", o->pipeline_tile)) != CLI_EXIT_OK)
        return rc;
    if (o->pipeline_steps && (rc = add(o, "pipeline.steps", o->pipeline_steps)) != CLI_EXIT_OK)
        return rc;
    if (o->rect && (rc = add(o, "pipeline.rect", "1")) != CLI_EXIT_OK) return rc;
    o->opt.params = o->params;
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- reading a plan */
int cli_plan_size_param(const cls_plan *plan, const char *name, cls_dims *d)
{
    const char *t = cls_plan_param(plan, name);
    d->n[0] = d->n[1] = d->n[2] = 1;
    if (!t) return -1;
    for (int i = 0; i < 3 && *t; i++) {
        char *end;
        d->n[i] = (size_t)strtoull(t, &end, 10);
        t = *end == 'x' ? end + 1 : end;
    }
    return 0;
}

size_t cli_plan_points_per_item(const cls_plan *plan)
{
    static const char *const names[] = {"naive.points_per_item", "trapezoid.points_per_item",
                                        "stream25d.planes"};
    for (size_t i = 0; i < 3; i++) {
        const char *t = cls_plan_param(plan, names[i]);
        if (t) return (size_t)strtoull(t, NULL, 10);
    }
    return 1;
}

/* ---------------------------------------------------------------- printing */
static void dims_text(char *buf, size_t len, const size_t *n, int dims)
{
    cls_dims d = {{n[0], n[1], n[2]}};
    cli_format_size(buf, len, d, dims < 1 ? 1 : dims);
}

void cli_plan_text(FILE *f, const cls_plan *plan, const cls_plan_info *pi, int dims)
{
    char local[96], global[96];
    dims_text(local, sizeof local, pi->local_size, dims);
    dims_text(global, sizeof global, pi->global_size, dims);
    fprintf(f, "schedule: %s\n", pi->schedule_name);
    fprintf(f, "work-group: %s (global %s)\n", local, global);
    if (pi->params[0]) fprintf(f, "parameters: %s\n", pi->params);
    if (pi->schedule == CLS_SCHEDULE_TRAPEZOID) {
        const char *groups = cls_plan_param(plan, "trapezoid.resident_groups");
        fprintf(f, "trapezoid: tile %s, h %s, sync %s", cls_plan_param(plan, "trapezoid.tile"),
                cls_plan_param(plan, "trapezoid.height"), cls_plan_param(plan, "trapezoid.sync"));
        if (groups) fprintf(f, " (%s resident groups)", groups);
        fprintf(f, "\n");
    }
    /* what AUTO compared */
    size_t n = cls_plan_num_candidates(plan), shown = 0;
    for (size_t i = 0; i < n; i++) {
        cls_plan_candidate c;
        char t[32];
        if (cls_plan_candidate_info(plan, i, &c) != CLS_SUCCESS || c.host ||
            !(c.predicted_seconds > 0) || c.declined)
            continue;
        cli_format_seconds(t, sizeof t, c.predicted_seconds);
        fprintf(f, "%s%s %s", shown++ ? ", " : "predicted run: ", c.schedule_name, t);
    }
    if (shown) fprintf(f, "\n");
    if (pi->why[0]) fprintf(f, "why: %s\n", pi->why);
    if (pi->host_why[0]) fprintf(f, "pipeline: %s\n", pi->host_why);
    if (pi->from_cache)
        fprintf(f, "program: from the cache (cache hit, %.3f s)\n", pi->build_seconds);
    else
        fprintf(f, "program: built in %.3f s (cache miss)\n", pi->build_seconds);
}

void cli_plan_json(cli_json *j, const cls_plan *plan, const cls_plan_info *pi, int dims)
{
    cli_json_object(j, "plan");
    cli_json_str(j, "schedule", pi->schedule_name);
    cli_json_size_array(j, "local_size", pi->local_size, dims);
    cli_json_size_array(j, "global_size", pi->global_size, dims);
    cli_json_str(j, "params", pi->params);
    if (pi->predicted_seconds > 0) cli_json_num(j, "predicted_seconds", pi->predicted_seconds);
    cli_json_array(j, "candidates");
    size_t n = cls_plan_num_candidates(plan);
    for (size_t i = 0; i < n; i++) {
        cls_plan_candidate c;
        if (cls_plan_candidate_info(plan, i, &c) != CLS_SUCCESS) continue;
        cli_json_object(j, NULL);
        cli_json_str(j, "schedule", c.schedule_name);
        cli_json_bool(j, "chosen", c.chosen);
        cli_json_bool(j, "declined", c.declined);
        if (c.predicted_seconds > 0) cli_json_num(j, "predicted_seconds", c.predicted_seconds);
        if (c.predicted_total_seconds > 0)
            cli_json_num(j, "predicted_total_seconds", c.predicted_total_seconds);
        cli_json_str(j, "why", c.why);
        cli_json_close(j);
    }
    cli_json_close(j);
    cli_json_str(j, "why", pi->why);
    cli_json_object(j, "pipeline");
    const char *scheme = cls_plan_param(plan, "pipeline.scheme");
    cli_json_str(j, "scheme", pi->host_schedule == CLS_SCHEDULE_PIPELINE && scheme ? scheme : "off");
    if (pi->host_schedule == CLS_SCHEDULE_PIPELINE) {
        const char *t = cls_plan_param(plan, "pipeline.tiles");
        cli_json_str(j, "tile", cls_plan_param(plan, "pipeline.tile"));
        cli_json_uint(j, "tiles", t ? strtoull(t, NULL, 10) : 0);
        t = cls_plan_param(plan, "pipeline.steps");
        cli_json_uint(j, "steps_per_tile", t ? strtoull(t, NULL, 10) : 0);
        t = cls_plan_param(plan, "pipeline.rect");
        cli_json_str(j, "copies", t && !strcmp(t, "1") ? "rect" : "merged");
    }
    if (pi->predicted_total_seconds > 0)
        cli_json_num(j, "predicted_total_seconds", pi->predicted_total_seconds);
    if (pi->predicted_copy_seconds > 0)
        cli_json_num(j, "predicted_copy_compute_copy_seconds", pi->predicted_copy_seconds);
    if (pi->predicted_alloc_seconds > 0)
        cli_json_num(j, "predicted_alloc_seconds", pi->predicted_alloc_seconds);
    cli_json_str(j, "why", pi->host_why);
    cli_json_close(j);
    cli_json_bool(j, "cache_hit", pi->from_cache != 0);
    cli_json_num(j, "build_seconds", pi->build_seconds);
    cli_json_close(j);
}
