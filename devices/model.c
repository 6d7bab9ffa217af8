/* model.c: the cls_model handle: creation, copies, identity and parameter accessors. */
#include <stdlib.h>
#include <string.h>

#include "devices.h"

int cls__set_text(char **dst, const char *src)
{
    char *copy = NULL;
    if (src) {
        size_t n = strlen(src) + 1;
        copy = malloc(n);
        if (!copy) return -1;
        memcpy(copy, src, n);
    }
    free(*dst);
    *dst = copy;
    return 0;
}

int cls__table_copy(cls__table *dst, const cls_model_point *pts, size_t n)
{
    cls_model_point *copy = NULL;
    if (n > 0) {
        copy = malloc(n * sizeof *copy);
        if (!copy) return -1;
        memcpy(copy, pts, n * sizeof *copy);
    }
    free(dst->pts);
    dst->pts = copy;
    dst->n = n;
    return 0;
}

cls_status cls__model_new(const cls_model_rules *rules, cls_model **out)
{
    cls_model *m = calloc(1, sizeof *m);
    cls_status st;
    *out = NULL;
    if (!m) return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "out of memory");
    m->rules = rules;
    if ((st = cls__family_defaults(rules, &m->p, NULL)) != CLS_SUCCESS) {
        free(m);
        return st;
    }
    for (int i = 0; i < CLS__NFIELDS; i++) m->assumed[i] = !(cls__fields[i].flags & CLS__UNK);
    *out = m;
    return CLS_SUCCESS;
}

void cls_model_release(cls_model *m)
{
    if (!m) return;
    free(m->name);
    free(m->description);
    free(m->source);
    free(m->origin);
    for (size_t i = 0; i < m->n_match; i++) free(m->match[i]);
    free(m->match);
    free(m->device.name);
    free(m->device.vendor);
    free(m->device.driver_version);
    free(m->device.platform);
    for (int t = 0; t < CLS_TABLE_COUNT; t++) free(m->p.tables[t].pts);
    free(m);
}

cls_status cls_model_copy(const cls_model *m, cls_model **copy)
{
    cls_model *c;
    int bad = 0;
    if (!m || !copy) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_copy: NULL");
    c = calloc(1, sizeof *c);
    if (!c) goto oom;
    c->rules = m->rules;
    c->p = m->p;
    memcpy(c->assumed, m->assumed, sizeof c->assumed);
    for (int t = 0; t < CLS_TABLE_COUNT; t++) c->p.tables[t] = (cls__table){NULL, 0};
    for (int t = 0; t < CLS_TABLE_COUNT; t++)
        bad |= cls__table_copy(&c->p.tables[t], m->p.tables[t].pts, m->p.tables[t].n);
    bad |= cls__set_text(&c->name, m->name);
    bad |= cls__set_text(&c->description, m->description);
    bad |= cls__set_text(&c->source, m->source);
    bad |= cls__set_text(&c->origin, m->origin);
    bad |= cls__set_text(&c->device.name, m->device.name);
    bad |= cls__set_text(&c->device.vendor, m->device.vendor);
    bad |= cls__set_text(&c->device.driver_version, m->device.driver_version);
    bad |= cls__set_text(&c->device.platform, m->device.platform);
    if (m->n_match > 0) {
        c->match = calloc(m->n_match, sizeof *c->match);
        if (!c->match) goto oom;
        c->n_match = m->n_match;
        for (size_t i = 0; i < m->n_match; i++) bad |= cls__set_text(&c->match[i], m->match[i]);
    }
    if (bad) goto oom;
    *copy = c;
    return CLS_SUCCESS;
oom:
    cls_model_release(c);
    return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_copy: out of memory");
}

void cls__model_settle(cls_model *m)
{
    cls_model_params *p = &m->p;
    if (m->assumed[CLS__F_max_threads_per_cu] && p->max_threads_per_cu < p->max_work_group)
        p->max_threads_per_cu = p->max_work_group;
    if (m->assumed[CLS__F_max_warps_per_cu] &&
        p->max_warps_per_cu * p->warp_width < p->max_threads_per_cu)
        p->max_warps_per_cu = (p->max_threads_per_cu + p->warp_width - 1) / p->warp_width;
    if (m->assumed[CLS__F_min_segment_bytes] && p->min_segment_bytes > p->segment_bytes)
        p->min_segment_bytes = p->segment_bytes;
    if (m->assumed[CLS__F_segment_bytes] && p->segment_bytes < p->min_segment_bytes)
        p->segment_bytes = p->min_segment_bytes;
}

static int take(cls_model *m, int f, double v, int only_assumed)
{
    int unknown = (cls__fields[f].flags & CLS__UNK) && cls__field_get(&m->p, f) == 0;
    if (v <= 0 || cls__field_check(f, v) != CLS_SUCCESS) return 0;
    if (only_assumed && !m->assumed[f] && !unknown) return 0;
    if (cls__field_get(&m->p, f) == v && !m->assumed[f]) return 0;
    cls__field_put(&m->p, f, v);
    m->assumed[f] = 0;
    return 1;
}

int cls__model_apply_device(cls_model *m, const cls_device_info *info, int only_assumed)
{
    int n = 0;
    n += take(m, CLS__F_clock_mhz, (double)info->clock_mhz, only_assumed);
    n += take(m, CLS__F_compute_units, (double)info->compute_units, only_assumed);
    n += take(m, CLS__F_max_work_group, (double)info->max_work_group_size, only_assumed);
    n += take(m, CLS__F_local_bytes, (double)info->local_mem_bytes, only_assumed);
    n += take(m, CLS__F_global_bytes, (double)info->global_mem_bytes, only_assumed);
    cls__model_settle(m);
    return n;
}

cls_status cls_model_from_defaults(const char *family, const cls_device_info *info,
                                   cls_model **out)
{
    const cls_model_rules *rules = cls__family_find(family);
    cls_model *m;
    cls_status st;
    if (!out) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_from_defaults: NULL");
    if (!rules)
        return cls__error(CLS_ERR_UNKNOWN_MODEL,
                          "unknown device-model family \"%s\" (known: gt200, fermi, cpu, gpu)",
                          family ? family : "(null)");
    if ((st = cls__model_new(rules, &m)) != CLS_SUCCESS) return st;
    if (cls__set_text(&m->origin, "defaults") != 0) goto oom;
    if (info) {
        cls__model_apply_device(m, info, 0);
        if (cls__text_check(info->name, CLS__MODEL_NAME_MAX - 1) == CLS_SUCCESS) {
            if (cls__set_text(&m->name, info->name) != 0) goto oom;
        } else if (cls__set_text(&m->name, family) != 0) {
            goto oom;
        }
        if ((st = cls_model_set_device(m, info)) != CLS_SUCCESS) {
            cls_model_release(m);
            return st;
        }
    } else if (cls__set_text(&m->name, family) != 0) {
        goto oom;
    }
    *out = m;
    return CLS_SUCCESS;
oom:
    cls_model_release(m);
    return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_from_defaults: out of memory");
}

cls_status cls_model_set_device(cls_model *m, const cls_device_info *info)
{
    if (!m || !info) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_set_device: NULL");
    if (cls__text_check(info->name, CLS__MODEL_TEXT_MAX - 1) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_ARGUMENT, "device name ");
    if (cls__set_text(&m->device.name, info->name) != 0 ||
        cls__set_text(&m->device.vendor, info->vendor[0] ? info->vendor : NULL) != 0 ||
        cls__set_text(&m->device.driver_version,
                      info->driver_version[0] ? info->driver_version : NULL) != 0 ||
        cls__set_text(&m->device.platform, info->platform_name[0] ? info->platform_name : NULL))
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_set_device: out of memory");
    return CLS_SUCCESS;
}

cls_status cls_model_set_name(cls_model *m, const char *name)
{
    if (!m || !name) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_set_name: NULL");
    if (cls__text_check(name, CLS__MODEL_NAME_MAX - 1) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_ARGUMENT, "model name ");
    if (cls__set_text(&m->name, name) != 0)
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_set_name: out of memory");
    return CLS_SUCCESS;
}

cls_status cls_model_set_source(cls_model *m, const char *source)
{
    if (!m) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_set_source: NULL");
    if (source && cls__text_check(source, CLS__MODEL_TEXT_MAX - 1) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_ARGUMENT, "model source ");
    if (cls__set_text(&m->source, source) != 0)
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_set_source: out of memory");
    return CLS_SUCCESS;
}

cls_status cls_model_set(cls_model *m, const char *key, double value)
{
    cls_model_params p;
    int f = cls__field_find(key);
    if (!m) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_set: NULL");
    if (f < 0)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "unknown model parameter \"%s\"",
                          key ? key : "(null)");
    if (cls__field_check(f, value) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_MODEL, "$.%s: ", cls__fields[f].path);
    p = m->p;
    cls__field_put(&p, f, value);
    if (cls__params_check(&p) != CLS_SUCCESS) return cls__error_prefix(CLS_ERR_INVALID_MODEL, "$.");
    m->p = p;
    m->assumed[f] = 0;
    cls__model_settle(m);
    return CLS_SUCCESS;
}

cls_status cls_model_set_table(cls_model *m, cls_model_table t, const cls_model_point *pts,
                               size_t n)
{
    if (!m || (int)t < 0 || t >= CLS_TABLE_COUNT || (n > 0 && !pts))
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_set_table: bad argument");
    if (cls__table_check(pts, n) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_MODEL, "$.%s", cls__tables[t].path);
    if (cls__table_copy(&m->p.tables[t], pts, n) != 0)
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_set_table: out of memory");
    return CLS_SUCCESS;
}
