/* util.c: small helpers shared by the library: strings, growable buffers, clock, debug log. */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "internal.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

char *cls__strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int cls__appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = *cap - *len;
        va_start(ap, fmt);
        int n = vsnprintf(*buf ? *buf + *len : NULL, *buf ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return -1;
        if (*buf && (size_t)n < room) {
            *len += (size_t)n;
            return 0;
        }
        size_t want = *cap ? *cap : 256;
        while (want - *len <= (size_t)n) want *= 2;
        char *nb = realloc(*buf, want);
        if (!nb) return -1;
        *buf = nb;
        *cap = want;
    }
}

const char *cls__fmt_double(char buf[40], double v)
{
    snprintf(buf, 40, "%.17g", v);
    /* OpenCL C and JSON need '.', whatever LC_NUMERIC the host program chose. */
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && (dp[0] != '.' || dp[1])) {
        size_t dl = strlen(dp);
        char *p = strstr(buf, dp);
        if (p) {
            *p = '.';
            memmove(p + 1, p + dl, strlen(p + dl) + 1);
        }
    }
    return buf;
}

const char *cls__quote(char *out, size_t cap, const char *s)
{
    /* Escaped so that a hostile name cannot move a terminal's cursor or recolour it. */
    size_t o = 0, i = 0;
    if (cap < 8) {
        if (cap) out[0] = '\0';
        return out;
    }
    if (!s) s = "(null)";
    out[o++] = '\'';
    for (; s[i] && o + 6 < cap && i < 64; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
            out[o++] = (char)c;
        } else {
            snprintf(out + o, cap - o, "\\x%02x", c);
            o += 4;
        }
    }
    if (s[i] && o + 4 < cap) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o++] = '\'';
    out[o] = '\0';
    return out;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cls__sort_doubles(double *v, size_t n) { qsort(v, n, sizeof *v, cmp_double); }

double cls__quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    double frac = pos - (double)lo;
    return lo + 1 < n ? sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]) : sorted[n - 1];
}

double cls__median(double *v, size_t n)
{
    cls__sort_doubles(v, n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double cls__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cls__debug(const char *fmt, ...)
{
    const char *e = getenv("CLSTENCIL_DEBUG");
    if (!e || !*e || strcmp(e, "0") == 0) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("clstencil: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

double cls__host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0;
}

void cls_free(void *ptr) { free(ptr); }

const char *cls_version(void) { return PACKAGE_VERSION; }

size_t cls_dtype_size(cls_dtype dtype) { return dtype == CLS_FLOAT64 ? 8 : 4; }

size_t cls_dims_points(cls_dims d)
{
    size_t n = 1;
    for (int i = 0; i < 3; i++) {
        if (d.n[i] == 0) return 0;
        if (n > SIZE_MAX / d.n[i]) return 0;
        n *= d.n[i];
    }
    return n;
}

cls_status cls__options_read(void *dst, size_t dst_size, const void *src, const char *what)
{
    size_t n;
    memcpy(&n, src, sizeof n);
    if (n <= sizeof n || n > (size_t)1 << 20)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "%s options: size %zu; initialise them with their init function", what,
                         n);
    memcpy(dst, src, n < dst_size ? n : dst_size);
    memcpy(dst, &dst_size, sizeof dst_size);
    return CLS_SUCCESS;
}
