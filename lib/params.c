/* params.c: the schedules' parameters as users give them, "schedule.name=value" separated by
 * spaces or commas, checked against what each registered schedule declares. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

#define MAX_PARAMS 64

/* "height (1..4096), sync (restart|barrier)" for the messages. */
static void list_params(const cls__schedule_ops *ops, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const cls__param_desc *d = ops->params; d && d->name && n < len; d++) {
        int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", d->name);
        if (w < 0) break;
        n += (size_t)w;
    }
    if (!n) snprintf(buf, len, "no parameters");
}

static const cls__param_desc *find_desc(const cls__schedule_ops *ops, const char *name,
                                        size_t len)
{
    for (const cls__param_desc *d = ops->params; d && d->name; d++)
        if (strlen(d->name) == len && !strncmp(d->name, name, len)) return d;
    return NULL;
}

/* One integer of a value: digits only, within lo..hi. */
static int parse_size(const char *s, size_t len, size_t *v)
{
    if (!len || len > 19) return -1;
    size_t r = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i])) return -1;
        r = r * 10 + (size_t)(s[i] - '0');
    }
    *v = r;
    return 0;
}

static cls_status parse_value(cls_context *ctx, const cls__schedule_ops *ops,
                               const cls__param_desc *d, const char *val, size_t len,
                               cls__param_value *out)
{
    memset(out, 0, sizeof *out);
    out->ops = ops;
    out->desc = d;
    if (d->kind == CLS__PARAM_NAME) {
        for (size_t i = 0; d->names && d->names[i]; i++)
            if (strlen(d->names[i]) == len && !strncmp(d->names[i], val, len)) {
                out->v[0] = i;
                out->count = 1;
                return CLS_SUCCESS;
            }
        char names[256];
        size_t n = 0;
        names[0] = '\0';
        for (size_t i = 0; d->names && d->names[i] && n < sizeof names; i++) {
            int w = snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", d->names[i]);
            if (w < 0) break;
            n += (size_t)w;
        }
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "parameter %s.%s: '%.*s' is not one of %s", ops->name, d->name,
                         (int)(len > 64 ? 64 : len), val, names);
    }
    size_t most = d->kind == CLS__PARAM_SIZES ? 3 : 1;
    const char *p = val, *end = val + len;
    while (p <= end && out->count < most + 1) {
        const char *x = memchr(p, 'x', (size_t)(end - p));
        size_t part = x ? (size_t)(x - p) : (size_t)(end - p);
        size_t v;
        if (out->count == most || parse_size(p, part, &v) != 0 || v < d->lo || v > d->hi)
            return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                             "parameter %s.%s: '%.*s' is not %s in %zu..%zu", ops->name,
                             d->name, (int)(len > 64 ? 64 : len), val,
                             most > 1 ? "one to three sizes like 64x8, each" : "an integer",
                             d->lo, d->hi);
        out->v[out->count++] = v;
        if (!x) break;
        p = x + 1;
    }
    return CLS_SUCCESS;
}

cls_status cls__params_parse(cls_context *ctx, const char *text, cls__params *out)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text) return CLS_SUCCESS;
    if (!(out->v = calloc(MAX_PARAMS, sizeof *out->v)))
        return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "schedule parameters");
    const char *p = text;
    cls_status s = CLS_SUCCESS;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n') p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != ' ' && *p != ',' && *p != '\t' && *p != '\n') p++;
        size_t len = (size_t)(p - start);
        const char *dot = memchr(start, '.', len), *eq = memchr(start, '=', len);
        if (!dot || !eq || dot > eq || dot == start || eq == dot + 1) {
            s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                          "schedule parameter '%.*s': write schedule.name=value "
                          "(`clstencil schedules` lists them)",
                          (int)(len > 64 ? 64 : len), start);
            break;
        }
        char sched[64];
        size_t sl = (size_t)(dot - start);
        if (sl >= sizeof sched) sl = sizeof sched - 1;
        memcpy(sched, start, sl);
        sched[sl] = '\0';
        const cls__schedule_ops *ops = cls__schedule_find(sched);
        if (!ops) {
            s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                          "schedule parameter '%.*s': there is no schedule '%s'",
                          (int)(len > 64 ? 64 : len), start, sched);
            break;
        }
        const cls__param_desc *d = find_desc(ops, dot + 1, (size_t)(eq - dot - 1));
        if (!d) {
            char names[256];
            list_params(ops, names, sizeof names);
            s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                          "schedule parameter '%.*s': %s takes %s", (int)(eq - start), start,
                          ops->name, names);
            break;
        }
        for (size_t i = 0; i < out->n; i++)
            if (out->v[i].desc == d) {
                s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                              "schedule parameter %s.%s given twice", ops->name, d->name);
                break;
            }
        if (s != CLS_SUCCESS) break;
        if (out->n == MAX_PARAMS) {
            s = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "more than %d schedule parameters",
                          MAX_PARAMS);
            break;
        }
        s = parse_value(ctx, ops, d, eq + 1, (size_t)(start + len - eq - 1), &out->v[out->n]);
        if (s != CLS_SUCCESS) break;
        out->n++;
    }
    if (s != CLS_SUCCESS) cls__params_free(out);
    return s;
}

void cls__params_free(cls__params *ps)
{
    if (!ps) return;
    free(ps->v);
    memset(ps, 0, sizeof *ps);
}

size_t cls__param_get(const cls__params *ps, const cls__schedule_ops *ops, const char *name,
                      size_t v[3])
{
    v[0] = v[1] = v[2] = 0;
    for (size_t i = 0; ps && i < ps->n; i++)
        if (ps->v[i].ops == ops && !strcmp(ps->v[i].desc->name, name)) {
            memcpy(v, ps->v[i].v, 3 * sizeof *v);
            return ps->v[i].count;
        }
    return 0;
}

const cls__schedule_ops *cls__params_single_schedule(const cls__params *ps, unsigned flags)
{
    const cls__schedule_ops *one = NULL;
    for (size_t i = 0; ps && i < ps->n; i++) {
        if ((ps->v[i].ops->flags & CLS__SCHED_HOST) != (flags & CLS__SCHED_HOST)) continue;
        if (one && ps->v[i].ops != one) return NULL;
        one = ps->v[i].ops;
    }
    return one;
}

cls_status cls_schedule_describe(size_t i, cls_schedule_info *info)
{
    const cls__schedule_ops *o = cls__schedule_at(i);
    if (!o || !info)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_schedule_describe: no schedule %zu",
                         i);
    memset(info, 0, sizeof *info);
    info->schedule = (cls_schedule)o->id;
    info->name = o->name;
    info->summary = o->summary;
    info->host = (o->flags & CLS__SCHED_HOST) != 0;
    for (const cls__param_desc *d = o->params; d && d->name; d++) info->num_params++;
    return CLS_SUCCESS;
}

cls_status cls_schedule_describe_param(size_t i, size_t k, cls_schedule_param *param)
{
    static const char *const kinds[] = {"integer", "sizes", "name"};
    const cls__schedule_ops *o = cls__schedule_at(i);
    size_t n = 0;
    for (const cls__param_desc *d = o ? o->params : NULL; d && d->name; d++) n++;
    if (!o || !param || k >= n)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_schedule_describe_param: no parameter %zu of schedule %zu", k, i);
    const cls__param_desc *d = &o->params[k];
    memset(param, 0, sizeof *param);
    param->name = d->name;
    param->kind = kinds[d->kind];
    param->min = d->lo;
    param->max = d->hi;
    param->doc = d->doc;
    for (size_t j = 0, len = 0; d->kind == CLS__PARAM_NAME && d->names && d->names[j] &&
                                len < sizeof param->values;
         j++) {
        int w = snprintf(param->values + len, sizeof param->values - len, "%s%s", j ? "|" : "",
                         d->names[j]);
        if (w < 0) break;
        len += (size_t)w;
    }
    return CLS_SUCCESS;
}
