/* schema.c: the model schema as data: field and table descriptors, their checks and ranges. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"

static const char *const sections[] = {"compute", "local_memory", "memory", "sync",
                                       "transfer", "alloc", "tuning"};

int cls__section_known(const char *section)
{
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (strcmp(sections[i], section) == 0) return 1;
    return 0;
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

cls_status cls__field_check(int i, double v)
{
    const cls__field *f = &cls__fields[i];
    char got[64], lim[64];
    cls__fmt_num(got, sizeof got, v);
    if (!isfinite(v) || (f->is_int && floor(v) != v) || v < f->lo ||
        ((f->flags & CLS__GT0) && v <= f->lo) || ((f->flags & CLS__POW2) && !is_pow2(v)))
        return cls__error(CLS_ERR_INVALID_MODEL, "must be %s, got %s", cls__field_kind_text(i),
                          got);
    if (v > f->hi) {
        cls__fmt_num(lim, sizeof lim, f->hi);
        return cls__error(CLS_ERR_INVALID_MODEL, "must be at most %s (%s), got %s", lim, f->unit,
                          got);
    }
    return CLS_SUCCESS;
}

/* 2^53: byte counts above it are not exact in JSON numbers. */
#define CLS__MAX_EXACT 9007199254740992.0

cls_status cls__table_check(const cls_model_point *pts, size_t n)
{
    const cls_status bad = CLS_ERR_INVALID_MODEL;
    char got[64], prev[64];
    if (n > CLS__TABLE_MAX)
        return cls__error(bad, ": must have at most %d entries, got %zu", CLS__TABLE_MAX, n);
    for (size_t k = 0; k < n; k++) {
        const cls_model_point *e = &pts[k];
        if (!isfinite(e->bytes) || floor(e->bytes) != e->bytes || e->bytes < 1 ||
            e->bytes > CLS__MAX_EXACT) {
            cls__fmt_num(got, sizeof got, e->bytes);
            return cls__error(bad,
                              "[%zu].bytes: must be a positive integer no larger than 2^53, "
                              "got %s",
                              k, got);
        }
        if (k > 0 && e->bytes <= pts[k - 1].bytes) {
            cls__fmt_num(got, sizeof got, e->bytes);
            cls__fmt_num(prev, sizeof prev, pts[k - 1].bytes);
            return cls__error(bad,
                              "[%zu].bytes: must be larger than the previous entry's (%s), "
                              "got %s",
                              k, prev, got);
        }
        if (!isfinite(e->ns) || e->ns <= 0 || e->ns > 1e15) {
            cls__fmt_num(got, sizeof got, e->ns);
            return cls__error(bad,
                              "[%zu].ns: must be a positive number of nanoseconds (at most "
                              "1e15), got %s",
                              k, got);
        }
        if (!isfinite(e->spread_ns) || e->spread_ns < 0 || e->spread_ns > 1e15) {
            cls__fmt_num(got, sizeof got, e->spread_ns);
            return cls__error(bad,
                              "[%zu].spread_ns: must be a non-negative number of "
                              "nanoseconds, got %s",
                              k, got);
        }
    }
    return CLS_SUCCESS;
}

cls_status cls__params_check(const cls_model_params *p)
{
    /* The GT200 rule halves a segment down to the smallest one (family_gt200.c). */
    if (p->min_segment_bytes > p->segment_bytes)
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "memory.min_segment_bytes: must not exceed memory.segment_bytes (%lld), "
                          "got %lld",
                          (long long)p->segment_bytes, (long long)p->min_segment_bytes);
    /* Hashing folds the address over the channels: with one channel the fold is degenerate. */
    if (p->channel_hash && p->channels < 2)
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "memory.channel_hash: must be 0 when memory.channels is %lld: hashing "
                          "spreads addresses over two or more channels",
                          (long long)p->channels);
    if (p->max_work_group > p->max_threads_per_cu)
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "compute.max_work_group: must not exceed compute.max_threads_per_cu "
                          "(%lld), got %lld",
                          (long long)p->max_threads_per_cu, (long long)p->max_work_group);
    return CLS_SUCCESS;
}

cls_status cls__text_check(const char *s, size_t maxlen)
{
    size_t n = strlen(s);
    if (n == 0 || n > maxlen)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "must be a text of 1 to %zu bytes, got %zu bytes", maxlen, n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return cls__error(CLS_ERR_INVALID_ARGUMENT,
                              "must not contain control characters (byte %zu)", i);
    return CLS_SUCCESS;
}
