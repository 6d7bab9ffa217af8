/* params.c: a model's parameters as data (the field and table descriptors of the schema's
 * X-macro lists, lookup by key) and the calls that read a model: its identity, parameters and
 * tables.  Creating, loading and changing models is devices/'s job. */
#include <string.h>

#include "device_model.h"
#include "error.h"

#define CLS__ISINT_CLS__INT 1
#define CLS__ISINT_CLS__REAL 0
#define CLS__ISINT(kind) CLS__ISINT_##kind

const cls__field cls__fields[CLS__NFIELDS] = {
#define CLS__X(member, sec, key, kind, unit, lo, hi, flags, summary)                            \
    {sec, key, sec "." key, CLS__ISINT(kind), unit, lo, hi, flags, summary,                     \
     offsetof(cls_model_params, member)},
    CLS_MODEL_SCALARS(CLS__X)
#undef CLS__X
};

/* The public enum cls_model_table and the table list must agree. */
enum {
#define CLS__X(id, sec, key, summary) CLS__TORDER_##id,
    CLS_MODEL_TABLES(CLS__X)
#undef CLS__X
    CLS__TORDER_COUNT
};
#define CLS__X(id, sec, key, summary)                                                          \
    _Static_assert((int)CLS__TORDER_##id == (int)id, "CLS_MODEL_TABLES order");
CLS_MODEL_TABLES(CLS__X)
#undef CLS__X
_Static_assert((int)CLS__TORDER_COUNT == (int)CLS_TABLE_COUNT, "CLS_MODEL_TABLES count");

const cls__table_desc cls__tables[CLS_TABLE_COUNT] = {
#define CLS__X(id, sec, key, summary) {sec, key, sec "." key, summary},
    CLS_MODEL_TABLES(CLS__X)
#undef CLS__X
};

int cls__field_find(const char *key)
{
    if (!key) return -1;
    if (strncmp(key, "$.", 2) == 0) key += 2;
    for (int i = 0; i < CLS__NFIELDS; i++)
        if (strcmp(cls__fields[i].path, key) == 0) return i;
    return -1;
}

int cls__field_find2(const char *section, const char *key)
{
    for (int i = 0; i < CLS__NFIELDS; i++)
        if (strcmp(cls__fields[i].section, section) == 0 && strcmp(cls__fields[i].key, key) == 0)
            return i;
    return -1;
}

int cls__table_find2(const char *section, const char *key)
{
    for (int i = 0; i < CLS_TABLE_COUNT; i++)
        if (strcmp(cls__tables[i].section, section) == 0 && strcmp(cls__tables[i].key, key) == 0)
            return i;
    return -1;
}

double cls__field_get(const cls_model_params *p, int i)
{
    const char *at = (const char *)p + cls__fields[i].offset;
    if (cls__fields[i].is_int) {
        int64_t v;
        memcpy(&v, at, sizeof v);
        return (double)v;
    } else {
        double v;
        memcpy(&v, at, sizeof v);
        return v;
    }
}

void cls__field_put(cls_model_params *p, int i, double v)
{
    char *at = (char *)p + cls__fields[i].offset;
    if (cls__fields[i].is_int) {
        int64_t iv = (int64_t)v;
        memcpy(at, &iv, sizeof iv);
    } else {
        memcpy(at, &v, sizeof v);
    }
}

const char *cls_model_name(const cls_model *m)
{
    return m && m->name ? m->name : "";
}

const char *cls_model_family(const cls_model *m)
{
    return m ? m->rules->family : "";
}

const char *cls_model_description(const cls_model *m)
{
    return m && m->description ? m->description : "";
}

const char *cls_model_source(const cls_model *m)
{
    return m && m->source ? m->source : "";
}

const char *cls_model_origin(const cls_model *m)
{
    return m && m->origin ? m->origin : "";
}

const char *cls_model_device_name(const cls_model *m)
{
    return m ? m->device.name : NULL;
}

const char *cls_model_device_driver(const cls_model *m)
{
    return m ? m->device.driver_version : NULL;
}

const char *cls_model_param_key(size_t i)
{
    return i < (size_t)CLS__NFIELDS ? cls__fields[i].path : NULL;
}

const char *cls_model_param_unit(const char *key)
{
    int f = cls__field_find(key);
    return f < 0 ? NULL : cls__fields[f].unit;
}

const char *cls_model_param_summary(const char *key)
{
    int f = cls__field_find(key);
    return f < 0 ? NULL : cls__fields[f].summary;
}

cls_status cls_model_get(const cls_model *m, const char *key, double *value)
{
    int f = cls__field_find(key);
    if (!m || !value) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_get: NULL");
    if (f < 0)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "unknown model parameter \"%s\"",
                          key ? key : "(null)");
    *value = cls__field_get(&m->p, f);
    return CLS_SUCCESS;
}

int cls_model_is_assumed(const cls_model *m, const char *key)
{
    int f = cls__field_find(key);
    return m && f >= 0 ? m->assumed[f] : 0;
}

const char *cls_model_table_key(cls_model_table t)
{
    return (int)t >= 0 && t < CLS_TABLE_COUNT ? cls__tables[t].path : NULL;
}

cls_status cls_model_get_table(const cls_model *m, cls_model_table t,
                               const cls_model_point **pts, size_t *n)
{
    if (!m || !pts || !n || (int)t < 0 || t >= CLS_TABLE_COUNT)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_get_table: bad argument");
    *pts = m->p.tables[t].pts;
    *n = m->p.tables[t].n;
    return CLS_SUCCESS;
}
