/* schema.c: the model schema as data: field and table descriptors, their checks and ranges. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"

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

static const char *const sections[] = {"compute", "local_memory", "memory", "sync",
                                       "transfer", "alloc"};

int cls__section_known(const char *section)
{
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (strcmp(sections[i], section) == 0) return 1;
    return 0;
}

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

void cls__fmt_num(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, len, "%.17g", v);
}

const char *cls__field_kind_text(int i)
{
    const cls__field *f = &cls__fields[i];
    if (f->flags & CLS__POW2) return "a power of two";
    if (f->is_int) return f->lo >= 1 ? "a positive integer" : "a non-negative integer";
    return (f->flags & CLS__GT0) ? "a positive number" : "a non-negative number";
}

static int is_pow2(double v)
{
    uint64_t u;
    if (!(v >= 1 && v <= 9223372036854775808.0)) return 0; /* [1, 2^63]: exact as uint64 */
    u = (uint64_t)v;
    return (double)u == v && (u & (u - 1)) == 0;
}

int cls__field_check(int i, double v, char *msg, size_t len)
{
    const cls__field *f = &cls__fields[i];
    char got[64], lim[64];
    cls__fmt_num(got, sizeof got, v);
    if (!isfinite(v) || (f->is_int && floor(v) != v) || v < f->lo ||
        ((f->flags & CLS__GT0) && v <= f->lo) || ((f->flags & CLS__POW2) && !is_pow2(v))) {
        snprintf(msg, len, "must be %s, got %s", cls__field_kind_text(i), got);
        return -1;
    }
    if (v > f->hi) {
        cls__fmt_num(lim, sizeof lim, f->hi);
        snprintf(msg, len, "must be at most %s (%s), got %s", lim, f->unit, got);
        return -1;
    }
    return 0;
}

/* 2^53: byte counts above it are not exact in JSON numbers. */
#define CLS__MAX_EXACT 9007199254740992.0

int cls__table_check(const cls_model_point *pts, size_t n, char *where, size_t wlen, char *msg,
                     size_t mlen)
{
    char got[64], prev[64];
    if (n > CLS__TABLE_MAX) {
        snprintf(where, wlen, "%s", "");
        snprintf(msg, mlen, "must have at most %d entries, got %zu", CLS__TABLE_MAX, n);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        const cls_model_point *e = &pts[k];
        if (!isfinite(e->bytes) || floor(e->bytes) != e->bytes || e->bytes < 1 ||
            e->bytes > CLS__MAX_EXACT) {
            cls__fmt_num(got, sizeof got, e->bytes);
            snprintf(where, wlen, "[%zu].bytes", k);
            snprintf(msg, mlen, "must be a positive integer no larger than 2^53, got %s", got);
            return -1;
        }
        if (k > 0 && e->bytes <= pts[k - 1].bytes) {
            cls__fmt_num(got, sizeof got, e->bytes);
            cls__fmt_num(prev, sizeof prev, pts[k - 1].bytes);
            snprintf(where, wlen, "[%zu].bytes", k);
            snprintf(msg, mlen, "must be larger than the previous entry's (%s), got %s", prev,
                     got);
            return -1;
        }
        if (!isfinite(e->ns) || e->ns <= 0 || e->ns > 1e15) {
            cls__fmt_num(got, sizeof got, e->ns);
            snprintf(where, wlen, "[%zu].ns", k);
            snprintf(msg, mlen, "must be a positive number of nanoseconds (at most 1e15), got %s",
                     got);
            return -1;
        }
        if (!isfinite(e->spread_ns) || e->spread_ns < 0 || e->spread_ns > 1e15) {
            cls__fmt_num(got, sizeof got, e->spread_ns);
            snprintf(where, wlen, "[%zu].spread_ns", k);
            snprintf(msg, mlen, "must be a non-negative number of nanoseconds, got %s", got);
            return -1;
        }
    }
    return 0;
}

int cls__params_check(const cls_model_params *p, char *where, size_t wlen, char *msg,
                      size_t mlen)
{
    /* The GT200 rule halves a segment down to the smallest one (family_gt200.c). */
    if (p->min_segment_bytes > p->segment_bytes) {
        snprintf(where, wlen, "%s", "memory.min_segment_bytes");
        snprintf(msg, mlen, "must not exceed memory.segment_bytes (%lld), got %lld",
                 (long long)p->segment_bytes, (long long)p->min_segment_bytes);
        return -1;
    }
    /* Hashing folds the address over the channels: with one channel the fold is degenerate. */
    if (p->channel_hash && p->channels < 2) {
        snprintf(where, wlen, "%s", "memory.channel_hash");
        snprintf(msg, mlen,
                 "must be 0 when memory.channels is %lld: hashing spreads addresses over two or "
                 "more channels",
                 (long long)p->channels);
        return -1;
    }
    if (p->max_work_group > p->max_threads_per_cu) {
        snprintf(where, wlen, "%s", "compute.max_work_group");
        snprintf(msg, mlen, "must not exceed compute.max_threads_per_cu (%lld), got %lld",
                 (long long)p->max_threads_per_cu, (long long)p->max_work_group);
        return -1;
    }
    return 0;
}

int cls__text_check(const char *s, size_t maxlen, char *msg, size_t len)
{
    size_t n = strlen(s);
    if (n == 0 || n > maxlen) {
        snprintf(msg, len, "must be a text of 1 to %zu bytes, got %zu bytes", maxlen, n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            snprintf(msg, len, "must not contain control characters (byte %zu)", i);
            return -1;
        }
    }
    return 0;
}
