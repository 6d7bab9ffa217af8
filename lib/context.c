/* context.c: a context is one selected device with its cl_context, profiling queue and program cache. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

cls_status cls_context_create(const char *selector, cls_context **out)
{
    cls_status st = CLS_SUCCESS;
    cls_device_info *infos = NULL;
    cl_device_id *ids = NULL;
    cl_platform_id *plats = NULL;
    cls_context *ctx = NULL;
    size_t n = 0, idx = 0;
    cl_int err = CL_SUCCESS;

    if (!out) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_context_create: ctx is NULL");
    *out = NULL;

    st = cls__device_enumerate(&infos, &ids, &plats, &n);
    if (st != CLS_SUCCESS) goto fail;
    st = cls__device_match(selector, infos, n, &idx);
    if (st != CLS_SUCCESS) goto fail;

    ctx = calloc(1, sizeof *ctx);
    if (!ctx) CLS__GOTO_FAIL(NULL, st, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating a context");
    ctx->platform = plats[idx];
    ctx->device = ids[idx];
    ctx->info = infos[idx];

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform, 0};
    ctx->cl = clCreateContext(props, 1, &ctx->device, NULL, NULL, &err);
    if (err != CL_SUCCESS || !ctx->cl)
        CLS__GOTO_FAIL(NULL, st, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                       "clCreateContext failed for device %d:%d %s (%s); the device may be busy "
                       "or its driver broken: try another device (clstencil devices lists them)",
                       ctx->info.platform_index, ctx->info.device_index, ctx->info.name,
                       ctx->info.platform_name);

    ctx->queue = clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS || !ctx->queue)
        CLS__GOTO_FAIL(NULL, st, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                       "clCreateCommandQueue (in order, profiling enabled) failed on %s (%s)",
                       ctx->info.name, ctx->info.platform_name);
    cls__debug("context on %d:%d %s (%s)", ctx->info.platform_index, ctx->info.device_index,
               ctx->info.name, ctx->info.platform_name);
    *out = ctx;
    ctx = NULL;

fail:
    cls_context_release(ctx);
    free(infos);
    free(ids);
    free(plats);
    return st;
}

void cls_context_release(cls_context *ctx)
{
    if (!ctx) return;
    cls__program_cache_clear(ctx);
    cls_model_release(ctx->model);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->cl) clReleaseContext(ctx->cl);
    free(ctx->last_error);
    free(ctx);
}

cls_status cls_context_device(const cls_context *ctx, cls_device_info *info)
{
    if (!ctx || !info)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_context_device: %s is NULL",
                         ctx ? "info" : "ctx");
    *info = ctx->info;
    return CLS_SUCCESS;
}

const char *cls_context_last_error(const cls_context *ctx)
{
    return ctx && ctx->last_error ? ctx->last_error : "";
}
