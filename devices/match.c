/* match.c: the model a live device gets: explicit, cached probe, shipped file, family defaults. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "devices.h"

/* The cache root: $CLSTENCIL_CACHE_DIR, $XDG_CACHE_HOME/libclstencil, ~/.cache/libclstencil. */
static int cache_root(char *buf, size_t len)
{
    const char *env = getenv("CLSTENCIL_CACHE_DIR");
    size_t n;
    if (env && env[0]) n = (size_t)snprintf(buf, len, "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) && env[0])
        n = (size_t)snprintf(buf, len, "%s/libclstencil", env);
    else if ((env = getenv("HOME")) && env[0])
        n = (size_t)snprintf(buf, len, "%s/.cache/libclstencil", env);
    else return -1;
    return n < len ? 0 : -1;
}

/* Lower-case letters, digits and dots; runs of anything else become one '-'. */
static void slug(const char *s, char *out, size_t len)
{
    size_t o = 0;
    int dash = 0;
    for (; *s && o + 1 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || c == '.') {
            if (dash && o > 0 && o + 2 < len) out[o++] = '-';
            out[o++] = (char)tolower(c);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    out[o] = '\0';
    if (o == 0) snprintf(out, len, "unknown");
}

cls_status cls_model_cache_path(const cls_device_info *info, char *path, size_t len)
{
    char root[3072], dev[49], drv[33];
    uint64_t h;
    if (!info || !path || len == 0)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_cache_path: NULL");
    if (cache_root(root, sizeof root) != 0)
        return cls__error(CLS_ERR_CACHE,
                          "no cache directory: set CLSTENCIL_CACHE_DIR, XDG_CACHE_HOME or HOME");
    slug(info->name, dev, sizeof dev);
    slug(info->driver_version, drv, sizeof drv);
    /* The slugs may collide; the hash of the exact texts keeps the key exact. */
    h = cls__hash(CLS__FNV_SEED, info->name, strnlen(info->name, sizeof info->name));
    h = cls__hash(h, "\n", 1);
    h = cls__hash(h, info->driver_version,
                  strnlen(info->driver_version, sizeof info->driver_version));
    if ((size_t)snprintf(path, len, "%s/models/%s--%s-%08x.json", root, dev, drv,
                         (unsigned)(h & 0xffffffffu)) >= len)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_cache_path: buffer too small");
    return CLS_SUCCESS;
}

/* Length of the pattern when it matches the device name, else 0.  Case is ignored; a pattern
 * that starts or ends with a letter or digit must meet a word boundary there ("GTX 280" does not
 * match "GTX 2800"); a leading '^' anchors it at the start of the name. */
static size_t pattern_score(const char *pat, const char *name)
{
    int anchored = pat[0] == '^';
    size_t plen, nlen = strlen(name);
    if (anchored) pat++;
    plen = strlen(pat);
    if (plen == 0 || plen > nlen) return 0;
    for (size_t i = 0; i + plen <= nlen; i++) {
        int before, after;
        if (anchored && i > 0) break;
        if (strncasecmp(name + i, pat, plen) != 0) continue;
        before = i == 0 || !isalnum((unsigned char)pat[0]) ||
                 !isalnum((unsigned char)name[i - 1]);
        after = name[i + plen] == '\0' || !isalnum((unsigned char)pat[plen - 1]) ||
                !isalnum((unsigned char)name[i + plen]);
        if (before && after) return plen;
    }
    return 0;
}

static void say(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    if (!why || whylen == 0) return;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

static int same(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Step 2: a probe result cached for this exact device and driver. */
static cls_model *from_cache(const cls_device_info *info, char *note, size_t notelen,
                             char *path, size_t pathlen)
{
    const char *off = getenv("CLSTENCIL_CACHE");
    cls_model *m = NULL;
    if (off && strcmp(off, "off") == 0) return NULL;
    if (cls_model_cache_path(info, path, pathlen) != CLS_SUCCESS || access(path, F_OK) != 0)
        return NULL;
    if (cls__model_parse_file(path, &m) != CLS_SUCCESS) {
        snprintf(note, notelen, "; ignored the cached probe result (%s)", cls__error_message());
        return NULL;
    }
    if (!same(m->device.name, info->name) ||
        !same(m->device.driver_version, info->driver_version)) {
        snprintf(note, notelen,
                 "; ignored the cached probe result %.512s: it is for \"%.200s\" driver "
                 "\"%.100s\"",
                 path, m->device.name ? m->device.name : "(no device)",
                 m->device.driver_version ? m->device.driver_version : "(none)");
        cls_model_release(m);
        return NULL;
    }
    return m;
}

/* Step 3: the shipped file with the longest pattern matching the device name, from the first
 * directory of the search path that has any. */
static cls_model *from_shipped(const cls_device_info *info, char *note, size_t notelen,
                               char *pattern, size_t patlen)
{
    size_t ndirs = 0;
    char **dirs = cls__model_dirs(&ndirs);
    cls_model *best = NULL;
    size_t best_score = 0;
    for (size_t d = 0; d < ndirs && !best; d++) {
        size_t nfiles = 0;
        char **files = cls__json_files(dirs[d], &nfiles);
        for (size_t i = 0; i < nfiles; i++) {
            cls_model *m;
            int better = 0;
            if (cls__model_parse_file(files[i], &m) != CLS_SUCCESS) {
                if (!note[0]) snprintf(note, notelen, "; skipped %s", cls__error_message());
                continue;
            }
            for (size_t k = 0; k < m->n_match; k++) {
                size_t s = pattern_score(m->match[k], info->name);
                if (s > best_score) {
                    best_score = s;
                    snprintf(pattern, patlen, "%s", m->match[k]);
                    better = 1;
                }
            }
            if (better) {
                cls_model_release(best);
                best = m;
            } else {
                cls_model_release(m);
            }
        }
        cls__strv_free(files, nfiles);
    }
    cls__strv_free(dirs, ndirs);
    return best;
}

/* How close a shipped model found by its name pattern is to the live device: the device it
 * was measured on (a probe result) or a reference model of the documents, the driver, and the
 * compute units and clock the model holds against the device's (read before the device's
 * values replace assumed ones). */
static void closeness(const cls_model *m, const cls_device_info *info, char *out, size_t len)
{
    size_t n = 0;
    const char *measured = m->device.name;
    if (measured && strcasecmp(measured, info->name) == 0) {
        const char *drv = m->device.driver_version;
        n += (size_t)snprintf(out, len, "measured on this device name%s%s%s",
                              !drv ? "" : same(drv, info->driver_version) ? " and driver"
                                                                          : ", driver ",
                              drv && !same(drv, info->driver_version) ? drv : "",
                              drv && !same(drv, info->driver_version) ? " then" : "");
    } else if (measured) {
        n += (size_t)snprintf(out, len, "measured on another device of the pattern, \"%.200s\"",
                              measured);
    } else {
        n += (size_t)snprintf(out, len, "a reference model, not measured on a device");
    }
    double cu = cls__field_get(&m->p, CLS__F_compute_units);
    double mhz = cls__field_get(&m->p, CLS__F_clock_mhz);
    if (n < len && cu > 0 && info->compute_units && cu != (double)info->compute_units)
        n += (size_t)snprintf(out + n, len - n, "; %g compute units in the model, %u here", cu,
                              info->compute_units);
    if (n < len && mhz > 0 && info->clock_mhz && mhz != (double)info->clock_mhz)
        n += (size_t)snprintf(out + n, len - n, "; %g MHz in the model, %u here", mhz,
                              info->clock_mhz);
    if (n < len && !(measured && strcasecmp(measured, info->name) == 0) &&
        (!(cu > 0) || cu == (double)info->compute_units) &&
        (!(mhz > 0) || mhz == (double)info->clock_mhz))
        snprintf(out + n, len - n, "; the same compute units and clock");
}

cls_status cls_model_match(const cls_device_info *info, const char *explicit_name_or_file,
                           cls_model **out, char *why, size_t whylen)
{
    char note[1152] = "", path[4096], pattern[CLS__MODEL_NAME_MAX];
    const char *family;
    cls_model *m;
    cls_status st;

    if (!out) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_match: NULL");
    *out = NULL;
    say(why, whylen, "%s", "");

    /* 1. An explicit --model NAME|FILE. */
    if (explicit_name_or_file && explicit_name_or_file[0]) {
        st = cls_model_load(explicit_name_or_file, &m);
        if (st != CLS_SUCCESS) return st;
        say(why, whylen, "explicit model \"%s\" (%s)", m->name, m->origin);
        *out = m;
        return CLS_SUCCESS;
    }
    if (!info)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "cls_model_match: neither a device nor an explicit model");

    /* 2. A probe result cached for this device and driver. */
    m = from_cache(info, note, sizeof note, path, sizeof path);
    if (m) {
        say(why, whylen, "probe result cached for \"%s\" driver \"%s\" (%s)", info->name,
            info->driver_version, path);
        *out = m;
        return CLS_SUCCESS;
    }

    /* 3. A shipped file whose patterns match the device name. */
    m = from_shipped(info, note + strlen(note), sizeof note - strlen(note), pattern,
                     sizeof pattern);
    if (m) {
        char close[512];
        closeness(m, info, close, sizeof close);
        int n = cls__model_apply_device(m, info, 1);
        say(why, whylen,
            "shipped model \"%s\" (%s): its pattern \"%s\" matches \"%s\"; how close: %s; "
            "%d assumed or unknown values taken from the device%s",
            m->name, m->origin, pattern, info->name, close, n, note);
        *out = m;
        return CLS_SUCCESS;
    }

    /* 4. The family defaults, filled from what OpenCL reports. */
    family = info->type == CLS_DEVICE_CPU ? "cpu" : "gpu";
    st = cls_model_from_defaults(family, info, &m);
    if (st != CLS_SUCCESS) return st;
    say(why, whylen,
        "no cached probe result or shipped model matches \"%s\": generic %s family defaults "
        "with the device's clock, compute units and sizes (`clstencil probe` measures the "
        "rest)%s",
        info->name, family, note);
    *out = m;
    return CLS_SUCCESS;
}
