/* device.c: OpenCL device discovery (every platform, every device) and selector matching. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

static const char *type_name(cls_device_type t)
{
    switch (t) {
    case CLS_DEVICE_CPU: return "CPU";
    case CLS_DEVICE_GPU: return "GPU";
    case CLS_DEVICE_ACCELERATOR: return "accelerator";
    default: return "other";
    }
}

/* A string property into a fixed buffer (always NUL-terminated, cut if too long). */
static cl_int device_string(cl_device_id d, cl_device_info what, char *buf, size_t cap)
{
    size_t n = 0;
    cl_int err = clGetDeviceInfo(d, what, 0, NULL, &n);
    if (err != CL_SUCCESS) return err;
    char *tmp = malloc(n + 1);
    if (!tmp) return CL_OUT_OF_HOST_MEMORY;
    err = clGetDeviceInfo(d, what, n, tmp, NULL);
    if (err == CL_SUCCESS) {
        tmp[n] = '\0';
        snprintf(buf, cap, "%s", tmp);
    }
    free(tmp);
    return err;
}

static cl_int platform_string(cl_platform_id p, cl_platform_info what, char *buf, size_t cap)
{
    size_t n = 0;
    cl_int err = clGetPlatformInfo(p, what, 0, NULL, &n);
    if (err != CL_SUCCESS) return err;
    char *tmp = malloc(n + 1);
    if (!tmp) return CL_OUT_OF_HOST_MEMORY;
    err = clGetPlatformInfo(p, what, n, tmp, NULL);
    if (err == CL_SUCCESS) {
        tmp[n] = '\0';
        snprintf(buf, cap, "%s", tmp);
    }
    free(tmp);
    return err;
}

/* Whether the space-separated extension list of the device names `ext`. */
int cls__device_has_extension(cl_device_id d, const char *ext)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0) return 0;
    char *list = malloc(n + 1);
    if (!list) return 0;
    int found = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, list, NULL) == CL_SUCCESS) {
        list[n] = '\0';
        size_t len = strlen(ext);
        for (const char *s = list; (s = strstr(s, ext)) != NULL; s += len) {
            int starts = s == list || s[-1] == ' ';
            int ends = s[len] == '\0' || s[len] == ' ';
            if (starts && ends) {
                found = 1;
                break;
            }
        }
    }
    free(list);
    return found;
}

cls_status cls__device_query(cl_platform_id p, cl_device_id d, int pi, int di,
                             cls_device_info *info)
{
    cls_status st = CLS_SUCCESS;
    cl_device_type type = 0;
    cl_uint u = 0;
    cl_ulong ul = 0;
    cl_device_local_mem_type lmt = 0;
    cl_device_fp_config fp64 = 0;
    size_t wis[3] = {0, 0, 0};
    cl_uint dims = 0;

    if (!info) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls__device_query: info is NULL");
    memset(info, 0, sizeof *info);
    info->platform_index = pi;
    info->device_index = di;

    CLS__CHECK_CL(NULL, st, platform_string(p, CL_PLATFORM_NAME, info->platform_name,
                                            sizeof info->platform_name),
                  "clGetPlatformInfo(CL_PLATFORM_NAME) failed; the OpenCL driver is broken");
    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL),
                  "clGetDeviceInfo(CL_DEVICE_TYPE) failed; the OpenCL driver is broken");
    if (type & CL_DEVICE_TYPE_GPU)
        info->type = CLS_DEVICE_GPU;
    else if (type & CL_DEVICE_TYPE_CPU)
        info->type = CLS_DEVICE_CPU;
    else if (type & CL_DEVICE_TYPE_ACCELERATOR)
        info->type = CLS_DEVICE_ACCELERATOR;
    else
        info->type = CLS_DEVICE_OTHER;

    CLS__CHECK_CL(NULL, st, device_string(d, CL_DEVICE_NAME, info->name, sizeof info->name),
                  "clGetDeviceInfo(CL_DEVICE_NAME) failed");
    CLS__CHECK_CL(NULL, st, device_string(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor),
                  "clGetDeviceInfo(CL_DEVICE_VENDOR) failed");
    CLS__CHECK_CL(NULL, st, device_string(d, CL_DRIVER_VERSION, info->driver_version,
                                          sizeof info->driver_version),
                  "clGetDeviceInfo(CL_DRIVER_VERSION) failed");
    CLS__CHECK_CL(NULL, st, device_string(d, CL_DEVICE_VERSION, info->device_version,
                                          sizeof info->device_version),
                  "clGetDeviceInfo(CL_DEVICE_VERSION) failed");

    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL),
                  "clGetDeviceInfo(CL_DEVICE_MAX_COMPUTE_UNITS) failed");
    info->compute_units = u;
    u = 0;
    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL),
                  "clGetDeviceInfo(CL_DEVICE_MAX_CLOCK_FREQUENCY) failed");
    info->clock_mhz = u;
    CLS__CHECK_CL(NULL, st,
                  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_work_group_size,
                                  &info->max_work_group_size, NULL),
                  "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE) failed");
    CLS__CHECK_CL(NULL, st,
                  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL),
                  "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) failed");
    if (dims >= 3) {
        /* The answer has `dims` entries; read them all, keep the first three. */
        size_t *all = calloc(dims, sizeof *all);
        if (!all) CLS__GOTO_FAIL(NULL, st, CLS_ERR_OUT_OF_HOST_MEMORY, "querying work-item sizes");
        cl_int err = clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof *all, all, NULL);
        memcpy(wis, all, sizeof wis);
        free(all);
        CLS__CHECK_CL(NULL, st, err, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES) failed");
    } else if (dims > 0) {
        CLS__CHECK_CL(NULL, st,
                      clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof wis[0], wis, NULL),
                      "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES) failed");
    }
    for (int i = 0; i < 3; i++) info->max_work_item_sizes[i] = wis[i] ? wis[i] : 1;

    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul, NULL),
                  "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE) failed");
    info->global_mem_bytes = ul;
    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ul, &ul, NULL),
                  "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE) failed");
    info->max_alloc_bytes = ul;
    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul, NULL),
                  "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE) failed");
    info->local_mem_bytes = ul;
    CLS__CHECK_CL(NULL, st, clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof lmt, &lmt, NULL),
                  "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_TYPE) failed");
    info->local_mem_is_global = lmt == CL_GLOBAL;

    /* CL_DEVICE_DOUBLE_FP_CONFIG is core in 1.2 but may be rejected by older drivers: a failure
     * there only means "look at the extensions". */
    if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) != CL_SUCCESS)
        fp64 = 0;
    info->double_support = fp64 != 0 || cls__device_has_extension(d, "cl_khr_fp64");
    return CLS_SUCCESS;

fail:
    return st;
}

cls_status cls__device_enumerate(cls_device_info **infos, cl_device_id **ids,
                                 cl_platform_id **platforms, size_t *count)
{
    cls_status st = CLS_SUCCESS;
    cl_uint np = 0;
    cl_platform_id *plats = NULL;
    cls_device_info *out_infos = NULL;
    cl_device_id *out_ids = NULL;
    cl_platform_id *out_plats = NULL;
    size_t n = 0, cap = 0;
    /* Why the first device or platform was skipped: the error when none is left. */
    char skipped[512] = "";

    if (infos) *infos = NULL;
    if (ids) *ids = NULL;
    if (platforms) *platforms = NULL;
    if (!count) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls__device_enumerate: count is NULL");
    *count = 0;

    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && np == 0))
        CLS__GOTO_FAIL(NULL, st, CLS_ERR_NO_PLATFORM,
                       "no OpenCL platform found: the ICD loader found no driver. Install one "
                       "(e.g. apt-get install pocl-opencl-icd for CPUs) and check "
                       "/etc/OpenCL/vendors and OCL_ICD_VENDORS (currently %s)",
                       getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "unset");
    CLS__CHECK_CL(NULL, st, err,
                  "clGetPlatformIDs failed; check the OpenCL ICD loader installation "
                  "(/etc/OpenCL/vendors, OCL_ICD_VENDORS)");
    plats = calloc(np, sizeof *plats);
    if (!plats) CLS__GOTO_FAIL(NULL, st, CLS_ERR_OUT_OF_HOST_MEMORY, "listing %u platforms", np);
    CLS__CHECK_CL(NULL, st, clGetPlatformIDs(np, plats, NULL), "clGetPlatformIDs failed");

    for (cl_uint pi = 0; pi < np; pi++) {
        cl_uint nd = 0;
        err = clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (err != CL_SUCCESS || nd == 0) {
            /* A platform without (working) devices is skipped, not fatal. */
            cls__debug("platform %u: clGetDeviceIDs gave %s with %u devices; skipped", pi,
                       cls_status_string(err), nd);
            if (err != CL_SUCCESS && err != CL_DEVICE_NOT_FOUND && !skipped[0])
                snprintf(skipped, sizeof skipped, "platform %u skipped: clGetDeviceIDs gave %s",
                         pi, cls_status_string(err));
            continue;
        }
        cl_device_id *devs = calloc(nd, sizeof *devs);
        if (!devs) CLS__GOTO_FAIL(NULL, st, CLS_ERR_OUT_OF_HOST_MEMORY, "listing %u devices", nd);
        err = clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, nd, devs, NULL);
        if (err != CL_SUCCESS) {
            cls__debug("platform %u: clGetDeviceIDs gave %s; skipped", pi, cls_status_string(err));
            if (!skipped[0])
                snprintf(skipped, sizeof skipped, "platform %u skipped: clGetDeviceIDs gave %s",
                         pi, cls_status_string(err));
            free(devs);
            continue;
        }
        if (n + nd > cap) {
            size_t ncap = cap ? cap : 4;
            while (ncap < n + nd) ncap *= 2;
            cls_device_info *ni = realloc(out_infos, ncap * sizeof *ni);
            if (ni) out_infos = ni;
            cl_device_id *nids = ni ? realloc(out_ids, ncap * sizeof *nids) : NULL;
            if (nids) out_ids = nids;
            cl_platform_id *npl = nids ? realloc(out_plats, ncap * sizeof *npl) : NULL;
            if (npl) out_plats = npl;
            if (!npl) {
                free(devs);
                CLS__GOTO_FAIL(NULL, st, CLS_ERR_OUT_OF_HOST_MEMORY, "listing devices");
            }
            cap = ncap;
        }
        for (cl_uint di = 0; di < nd; di++) {
            st = cls__device_query(plats[pi], devs[di], (int)pi, (int)di, &out_infos[n]);
            if (st == CLS_ERR_OUT_OF_HOST_MEMORY) {
                free(devs);
                goto fail;
            }
            if (st != CLS_SUCCESS) {
                /* A device the driver cannot describe is skipped; the others keep their
                 * indices, so "P:D" still names the same device. */
                cls__debug("device %u:%u skipped: %s", pi, di, cls_last_error());
                if (!skipped[0])
                    snprintf(skipped, sizeof skipped, "device %u:%u skipped: %s", pi, di,
                             cls_last_error());
                continue;
            }
            out_ids[n] = devs[di];
            out_plats[n] = plats[pi];
            n++;
        }
        free(devs);
    }

    if (n == 0 && skipped[0])
        CLS__GOTO_FAIL(NULL, st, CLS_ERR_NO_DEVICE, "no usable OpenCL device: %s", skipped);
    *count = n;
    if (infos) {
        *infos = out_infos;
        out_infos = NULL;
    }
    if (ids) {
        *ids = out_ids;
        out_ids = NULL;
    }
    if (platforms) {
        *platforms = out_plats;
        out_plats = NULL;
    }
    st = CLS_SUCCESS;

fail:
    free(plats);
    free(out_infos);
    free(out_ids);
    free(out_plats);
    return st;
}

/* Case-insensitive substring search. */
static int contains_ci(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    if (nl == 0) return 1;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < nl && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == nl) return 1;
    }
    return 0;
}

/* Parses a non-negative decimal integer spanning [s, end); -1 if not one. */
static long parse_index(const char *s, const char *end)
{
    if (s == end) return -1;
    long v = 0;
    for (; s < end; s++) {
        if (!isdigit((unsigned char)*s)) return -1;
        v = v * 10 + (*s - '0');
        if (v > 1000000) return -1;
    }
    return v;
}

/* Writes "available: 0:0 name (CPU, platform), ..." into buf, for error messages. */
static void list_devices(char *buf, size_t cap, const cls_device_info *infos, size_t count)
{
    size_t len = 0;
    buf[0] = '\0';
    if (count == 0) {
        snprintf(buf, cap, "no OpenCL devices were found on any platform");
        return;
    }
    len += (size_t)snprintf(buf + len, cap - len, "available:");
    for (size_t i = 0; i < count && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s %d:%d %s (%s, %s)", i ? "," : "",
                                infos[i].platform_index, infos[i].device_index, infos[i].name,
                                type_name(infos[i].type), infos[i].platform_name);
}

static cls_status match_one(const char *sel, const cls_device_info *infos, size_t count,
                            size_t *index, const char *origin)
{
    char avail[4096];
    /* Trim surrounding blanks: "gpu " from a shell variable should still work. */
    while (isspace((unsigned char)*sel)) sel++;
    size_t len = strlen(sel);
    while (len > 0 && isspace((unsigned char)sel[len - 1])) len--;
    char *s = malloc(len + 1);
    if (!s) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "device selector");
    memcpy(s, sel, len);
    s[len] = '\0';

    cls_status st = CLS_SUCCESS;
    const char *colon = strchr(s, ':');
    const char *word_end = colon ? colon : s + len;
    size_t wl = (size_t)(word_end - s);

    /* Device-type words, optionally ":N" (N counts from 0 among devices of that type). */
    static const struct { const char *word; cls_device_type type; } types[] = {
        {"gpu", CLS_DEVICE_GPU}, {"cpu", CLS_DEVICE_CPU}, {"accelerator", CLS_DEVICE_ACCELERATOR}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        if (wl != strlen(types[t].word) || strncasecmp(s, types[t].word, wl) != 0) continue;
        long want = 0;
        if (colon) {
            want = parse_index(colon + 1, s + len);
            if (want < 0) {
                list_devices(avail, sizeof avail, infos, count);
                CLS__GOTO_FAIL(NULL, st, CLS_ERR_NO_DEVICE,
                               "bad device selector '%s'%s: after '%s:' a device number is "
                               "expected (e.g. '%s:0'); %s",
                               s, origin, types[t].word, types[t].word, avail);
            }
        }
        long seen = 0;
        for (size_t i = 0; i < count; i++) {
            if (infos[i].type != types[t].type) continue;
            if (seen++ == want) {
                *index = i;
                goto done;
            }
        }
        list_devices(avail, sizeof avail, infos, count);
        CLS__GOTO_FAIL(NULL, st, CLS_ERR_NO_DEVICE,
                       "no device matches '%s'%s: %ld %s device(s) found; %s", s, origin, seen,
                       type_name(types[t].type), avail);
    }

    /* "P:D" indices. */
    if (colon) {
        long p = parse_index(s, colon), d = parse_index(colon + 1, s + len);
        if (p >= 0 && d >= 0) {
            for (size_t i = 0; i < count; i++) {
                if (infos[i].platform_index == p && infos[i].device_index == d) {
                    *index = i;
                    goto done;
                }
            }
            list_devices(avail, sizeof avail, infos, count);
            CLS__GOTO_FAIL(NULL, st, CLS_ERR_NO_DEVICE,
                           "no device matches '%s'%s: there is no device %ld of platform %ld; %s",
                           s, origin, d, p, avail);
        }
    }

    /* Name substring: "<platform name> <device name>", or the vendor. */
    for (size_t i = 0; i < count; i++) {
        char full[sizeof infos[i].platform_name + sizeof infos[i].name + 2];
        snprintf(full, sizeof full, "%s %s", infos[i].platform_name, infos[i].name);
        if (contains_ci(full, s) || contains_ci(infos[i].vendor, s)) {
            *index = i;
            goto done;
        }
    }
    list_devices(avail, sizeof avail, infos, count);
    CLS__GOTO_FAIL(NULL, st, CLS_ERR_NO_DEVICE, "no device matches '%s'%s; %s", s, origin, avail);

done:
    st = CLS_SUCCESS;
fail:
    free(s);
    return st;
}

cls_status cls__device_match(const char *selector, const cls_device_info *infos, size_t count,
                             size_t *index)
{
    if (!index || (count > 0 && !infos))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls__device_match: NULL argument");
    if (count == 0)
        return cls__fail(NULL, CLS_ERR_NO_DEVICE,
                         "no OpenCL device found: the platforms report no devices; check the "
                         "driver installation (clinfo lists what the loader sees)");
    if (selector && *selector) return match_one(selector, infos, count, index, "");

    const char *env = getenv("CLSTENCIL_DEVICE");
    if (env && *env) return match_one(env, infos, count, index, " (from $CLSTENCIL_DEVICE)");

    /* Default: first GPU, else first CPU, else the first device. */
    static const cls_device_type order[] = {CLS_DEVICE_GPU, CLS_DEVICE_CPU};
    for (size_t t = 0; t < 2; t++)
        for (size_t i = 0; i < count; i++)
            if (infos[i].type == order[t]) {
                *index = i;
                return CLS_SUCCESS;
            }
    *index = 0;
    return CLS_SUCCESS;
}

cls_status cls_device_list(cls_device_info *infos, size_t capacity, size_t *count)
{
    cls_device_info *all = NULL;
    size_t n = 0;
    if (!count) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_device_list: count is NULL");
    *count = 0;
    if (capacity > 0 && !infos)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_device_list: infos is NULL but capacity is %zu", capacity);
    cls_status st = cls__device_enumerate(&all, NULL, NULL, &n);
    if (st != CLS_SUCCESS) return st;
    for (size_t i = 0; i < n && i < capacity; i++) infos[i] = all[i];
    *count = n;
    free(all);
    return CLS_SUCCESS;
}

cls_status cls_device_select(const char *selector, cls_device_info *info)
{
    cls_device_info *all = NULL;
    size_t n = 0, idx = 0;
    if (!info) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_device_select: info is NULL");
    cls_status st = cls__device_enumerate(&all, NULL, NULL, &n);
    if (st == CLS_SUCCESS) st = cls__device_match(selector, all, n, &idx);
    if (st == CLS_SUCCESS) *info = all[idx];
    free(all);
    return st;
}
