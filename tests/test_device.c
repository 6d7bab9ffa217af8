/* test_device.c: device listing and selectors, context create/release, and the copy benchmark. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clstencil.h"
#include "tap.h"

static int has_ci(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, nl) == 0) return 1;
    return nl == 0;
}

static int same_device(const cls_device_info *a, const cls_device_info *b)
{
    return a->platform_index == b->platform_index && a->device_index == b->device_index;
}

/* A case-flipped piece of the middle of s (at most 8 characters), for substring selection. */
static void middle_piece(const char *s, char *out, size_t cap)
{
    size_t len = strlen(s), take = len < 8 ? len : 8, start = (len - take) / 2;
    if (take >= cap) take = cap - 1;
    for (size_t i = 0; i < take; i++) {
        char c = s[start + i];
        out[i] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    out[take] = '\0';
}

int main(void)
{
    size_t count = 0;
    cls_status st = cls_device_list(NULL, 0, &count);
    if (st == CLS_ERR_NO_PLATFORM || (st == CLS_SUCCESS && count == 0)) {
        tap_diag("%s", cls_last_error());
        tap_skip("device tests", "no OpenCL device");
        return tap_done();
    }
    tap_ok(st == CLS_SUCCESS && count > 0, "cls_device_list counts %zu device(s)", count);

    /* Keep the caller's CLSTENCIL_DEVICE aside: the selector tests control it. */
    char *saved_env = getenv("CLSTENCIL_DEVICE") ? strdup(getenv("CLSTENCIL_DEVICE")) : NULL;
    unsetenv("CLSTENCIL_DEVICE");

    cls_device_info *infos = calloc(count, sizeof *infos);
    size_t count2 = 0;
    st = cls_device_list(infos, count, &count2);
    tap_ok(st == CLS_SUCCESS && count2 == count, "cls_device_list fills the array");
    int fields_ok = 1;
    for (size_t i = 0; i < count; i++) {
        const cls_device_info *d = &infos[i];
        tap_diag("%d:%d %s | %s | %s | %s | %u CU | %llu MiB | fp64 %d | local global %d",
                 d->platform_index, d->device_index, d->name, d->vendor, d->platform_name,
                 d->device_version, d->compute_units,
                 (unsigned long long)(d->global_mem_bytes >> 20), d->double_support,
                 d->local_mem_is_global);
        if (!d->name[0] || !d->platform_name[0] || !d->device_version[0] ||
            d->compute_units == 0 || d->max_work_group_size == 0 || d->global_mem_bytes == 0 ||
            d->max_alloc_bytes == 0 || d->max_alloc_bytes > d->global_mem_bytes ||
            d->max_work_item_sizes[0] == 0)
            fields_ok = 0;
    }
    tap_ok(fields_ok, "every device has a name, compute units and memory sizes");
    size_t small = 0;
    st = cls_device_list(infos, 0, &small);
    tap_ok(st == CLS_SUCCESS && small == count, "capacity 0 still reports the count");
    st = cls_device_list(NULL, 1, &small);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "NULL array with capacity 1 is rejected");

    /* Default: first GPU, else first CPU, else first device. */
    cls_device_info info;
    const cls_device_info *expect = NULL;
    for (size_t i = 0; i < count && !expect; i++)
        if (infos[i].type == CLS_DEVICE_GPU) expect = &infos[i];
    for (size_t i = 0; i < count && !expect; i++)
        if (infos[i].type == CLS_DEVICE_CPU) expect = &infos[i];
    if (!expect) expect = &infos[0];
    st = cls_device_select(NULL, &info);
    tap_ok(st == CLS_SUCCESS && same_device(&info, expect), "NULL selects %s", expect->name);
    st = cls_device_select("", &info);
    tap_ok(st == CLS_SUCCESS && same_device(&info, expect), "\"\" selects the same default");

    /* By type. */
    const cls_device_info *first_cpu = NULL;
    size_t n_cpu = 0;
    for (size_t i = 0; i < count; i++)
        if (infos[i].type == CLS_DEVICE_CPU && n_cpu++ == 0) first_cpu = &infos[i];
    if (first_cpu) {
        st = cls_device_select("cpu", &info);
        tap_ok(st == CLS_SUCCESS && info.type == CLS_DEVICE_CPU && same_device(&info, first_cpu),
               "\"cpu\" selects the first CPU");
        st = cls_device_select("CPU:0", &info);
        tap_ok(st == CLS_SUCCESS && same_device(&info, first_cpu), "\"CPU:0\" is case-insensitive");
        char sel[32];
        snprintf(sel, sizeof sel, "cpu:%zu", n_cpu);
        st = cls_device_select(sel, &info);
        tap_ok(st == CLS_ERR_NO_DEVICE, "\"%s\" (one past the last CPU) fails: %s", sel,
               cls_last_error());
    } else {
        tap_skip("\"cpu\" selector", "no CPU device");
    }
    st = cls_device_select("cpu:x", &info);
    tap_ok(st == CLS_ERR_NO_DEVICE, "\"cpu:x\" is rejected");

    /* By indices. */
    st = cls_device_select("0:0", &info);
    tap_ok(st == CLS_SUCCESS && info.platform_index == 0 && info.device_index == 0 &&
               strcmp(info.name, infos[0].name) == 0,
           "\"0:0\" selects platform 0 device 0 (%s)", info.name);
    st = cls_device_select(" 0:0 ", &info);
    tap_ok(st == CLS_SUCCESS && info.platform_index == 0 && info.device_index == 0,
           "blanks around the selector are ignored");
    st = cls_device_select("99:0", &info);
    tap_ok(st == CLS_ERR_NO_DEVICE && strstr(cls_last_error(), "available"),
           "\"99:0\" fails and lists the devices");

    /* By name substring (case flipped) and by vendor. */
    char piece[16];
    middle_piece(infos[count - 1].name, piece, sizeof piece);
    st = cls_device_select(piece, &info);
    char full[600];
    snprintf(full, sizeof full, "%s %s", info.platform_name, info.name);
    tap_ok(st == CLS_SUCCESS && (has_ci(full, piece) || has_ci(info.vendor, piece)),
           "name substring \"%s\" selects %s", piece, info.name);
    st = cls_device_select(infos[0].platform_name, &info);
    tap_ok(st == CLS_SUCCESS && strcmp(info.platform_name, infos[0].platform_name) == 0,
           "platform name \"%s\" selects a device of that platform", infos[0].platform_name);
    if (infos[0].vendor[0]) {
        st = cls_device_select(infos[0].vendor, &info);
        tap_ok(st == CLS_SUCCESS, "vendor \"%s\" selects a device", infos[0].vendor);
    }

    /* No match: the message lists what there is. */
    st = cls_device_select("no-such-device-xyz", &info);
    const char *msg = cls_last_error();
    tap_ok(st == CLS_ERR_NO_DEVICE && strstr(msg, "no-such-device-xyz") &&
               strstr(msg, "available") && strstr(msg, infos[0].name) && strstr(msg, "0:0"),
           "a selector matching nothing fails with the list of devices");
    tap_diag("%s", msg);

    /* $CLSTENCIL_DEVICE: used for NULL/"", ignored for an explicit selector. */
    char sel_last[32];
    snprintf(sel_last, sizeof sel_last, "%d:%d", infos[count - 1].platform_index,
             infos[count - 1].device_index);
    setenv("CLSTENCIL_DEVICE", sel_last, 1);
    st = cls_device_select(NULL, &info);
    tap_ok(st == CLS_SUCCESS && same_device(&info, &infos[count - 1]),
           "CLSTENCIL_DEVICE=%s is used for a NULL selector", sel_last);
    st = cls_device_select("0:0", &info);
    tap_ok(st == CLS_SUCCESS && info.platform_index == 0 && info.device_index == 0,
           "an explicit selector overrides CLSTENCIL_DEVICE");
    setenv("CLSTENCIL_DEVICE", "no-such-device-xyz", 1);
    st = cls_device_select(NULL, &info);
    tap_ok(st == CLS_ERR_NO_DEVICE && strstr(cls_last_error(), "CLSTENCIL_DEVICE"),
           "a bad CLSTENCIL_DEVICE fails and says where the selector came from");
    setenv("CLSTENCIL_DEVICE", "", 1);
    st = cls_device_select(NULL, &info);
    tap_ok(st == CLS_SUCCESS && same_device(&info, expect), "an empty CLSTENCIL_DEVICE is ignored");
    unsetenv("CLSTENCIL_DEVICE");
    tap_ok(cls_device_select(NULL, NULL) == CLS_ERR_INVALID_ARGUMENT, "NULL info is rejected");

    /* Contexts. */
    cls_context_release(NULL);
    tap_ok(1, "cls_context_release(NULL) is a no-op");
    cls_context *ctx = NULL;
    st = cls_context_create("no-such-device-xyz", &ctx);
    tap_ok(st == CLS_ERR_NO_DEVICE && ctx == NULL, "cls_context_create with a bad selector fails");
    st = cls_context_create(NULL, &ctx);
    if (!tap_ok(st == CLS_SUCCESS && ctx != NULL, "cls_context_create(NULL) succeeds"))
        tap_diag("%s", cls_last_error());
    if (!ctx) {
        free(infos);
        free(saved_env);
        return tap_done();
    }
    cls_device_info cinfo;
    st = cls_context_device(ctx, &cinfo);
    tap_ok(st == CLS_SUCCESS && same_device(&cinfo, expect) && strcmp(cinfo.name, expect->name) == 0,
           "cls_context_device reports the selected device");
    tap_ok(strcmp(cls_context_last_error(ctx), "") == 0, "a fresh context has no last error");
    tap_ok(strcmp(cls_context_last_error(NULL), "") == 0, "cls_context_last_error(NULL) is \"\"");

    /* The copy benchmark. */
    double secs = 0;
    st = cls_bench_copy(ctx, CLS_FLOAT32, (size_t)1 << 22, 5, &secs);
    if (!tap_ok(st == CLS_SUCCESS && secs > 0, "cls_bench_copy float32 4 MiB: %.3g s (%.2f GB/s)",
                secs, secs > 0 ? 2.0 * (1 << 22) / secs / 1e9 : 0.0))
        tap_diag("%s", cls_last_error());
    st = cls_bench_copy(ctx, CLS_FLOAT32, 1000 * 4 + 3, 2, &secs);
    tap_ok(st == CLS_SUCCESS && secs > 0, "cls_bench_copy with an odd size and even reps");
    /* The copy moves 16-byte vectors and then the tail element by element; the library checks
     * both ends of the result, so every tail length, grids shorter than one vector and grids
     * longer than the checked ends must pass that check. */
    {
        static const size_t counts[] = {1, 2, 3, 5, 6, 7, 4099, 8195, ((size_t)1 << 20) + 3};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            for (int d = 0; d < (cinfo.double_support ? 2 : 1); d++) {
                cls_dtype dt = d ? CLS_FLOAT64 : CLS_FLOAT32;
                st = cls_bench_copy(ctx, dt, counts[i] * cls_dtype_size(dt), 1, &secs);
                if (!tap_ok(st == CLS_SUCCESS && secs > 0,
                            "cls_bench_copy of %zu %s elements copies both ends right", counts[i],
                            d ? "double" : "float"))
                    tap_diag("%s", cls_last_error());
            }
    }
    if (cinfo.double_support) {
        st = cls_bench_copy(ctx, CLS_FLOAT64, (size_t)1 << 20, 3, &secs);
        if (!tap_ok(st == CLS_SUCCESS && secs > 0, "cls_bench_copy float64: %.3g s", secs))
            tap_diag("%s", cls_last_error());
    } else {
        st = cls_bench_copy(ctx, CLS_FLOAT64, (size_t)1 << 20, 3, &secs);
        tap_ok(st == CLS_ERR_UNSUPPORTED, "cls_bench_copy float64 without fp64 is unsupported");
    }
    size_t huge = cinfo.max_alloc_bytes >= SIZE_MAX ? SIZE_MAX : (size_t)cinfo.max_alloc_bytes + 8;
    st = cls_bench_copy(ctx, CLS_FLOAT32, huge, 3, &secs);
    tap_ok(st == CLS_ERR_TOO_LARGE && strstr(cls_last_error(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE") &&
               strstr(cls_context_last_error(ctx), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"),
           "cls_bench_copy rejects more than the max allocation: %s", cls_last_error());
    if (cinfo.max_alloc_bytes > cinfo.global_mem_bytes / 2) {
        st = cls_bench_copy(ctx, CLS_FLOAT32, (size_t)(cinfo.global_mem_bytes / 2) + 8, 3, &secs);
        tap_ok(st == CLS_ERR_TOO_LARGE && strstr(cls_last_error(), "CL_DEVICE_GLOBAL_MEM_SIZE"),
               "cls_bench_copy rejects two buffers larger than global memory: %s",
               cls_last_error());
    } else {
        tap_skip("two buffers over global memory", "max allocation is at most half the memory");
    }
    st = cls_bench_copy(ctx, CLS_FLOAT32, 4096, 0, &secs);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "reps 0 is rejected");
    st = cls_bench_copy(ctx, CLS_FLOAT32, 2, 3, &secs);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "less than one element is rejected");
    st = cls_bench_copy(ctx, CLS_FLOAT32, 4096, 3, NULL);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "NULL seconds is rejected");
    cls_context_release(ctx);

    /* A context on every device. */
    for (size_t i = 0; i < count; i++) {
        char sel[32];
        snprintf(sel, sizeof sel, "%d:%d", infos[i].platform_index, infos[i].device_index);
        ctx = NULL;
        st = cls_context_create(sel, &ctx);
        int ok = st == CLS_SUCCESS && ctx && cls_context_device(ctx, &cinfo) == CLS_SUCCESS &&
                 same_device(&cinfo, &infos[i]);
        if (!tap_ok(ok, "context on %s (%s)", sel, infos[i].name))
            tap_diag("%s", cls_last_error());
        cls_context_release(ctx);
    }

    if (saved_env) setenv("CLSTENCIL_DEVICE", saved_env, 1);
    free(saved_env);
    free(infos);
    return tap_done();
}
