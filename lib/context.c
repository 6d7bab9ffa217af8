/* context.c: a context is one selected device with its cl_context, profiling queue and program cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_cl.h"
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

cls_status cls__context_model(cls_context *ctx, const cls_model **m)
{
    if (!ctx->model) {
        cls_status s = cls_model_match(&ctx->info, NULL, &ctx->model, ctx->model_why,
                                       sizeof ctx->model_why);
        if (s != CLS_SUCCESS) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            return cls__fail(ctx, s, "no device model for '%s': %s", ctx->info.name, msg);
        }
    }
    *m = ctx->model;
    return CLS_SUCCESS;
}

const char *cls__context_model_why(const cls_context *ctx) { return ctx->model_why; }

cls_status cls_context_create_from_cl(cl_context context, cl_device_id device, cls_context **out)
{
    cls_status st = CLS_SUCCESS;
    cls_context *ctx = NULL;
    cl_platform_id platform = NULL;
    cl_device_id *ids = NULL;
    cl_uint n = 0;
    cl_int err;
    if (!context || !device || !out)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_context_create_from_cl: NULL argument");
    *out = NULL;
    /* the device must be one of the context's */
    err = clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(NULL, (cls_status)err, "cls_context_create_from_cl: not a context");
    if (n == 0 || n > 4096 || !(ids = calloc(n, sizeof *ids)))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_context_create_from_cl: the context has %u devices", n);
    err = clGetContextInfo(context, CL_CONTEXT_DEVICES, n * sizeof *ids, ids, NULL);
    int found = 0;
    for (cl_uint i = 0; err == CL_SUCCESS && i < n; i++) found |= ids[i] == device;
    free(ids);
    if (err != CL_SUCCESS)
        return cls__fail(NULL, (cls_status)err,
                         "cls_context_create_from_cl: the context's devices");
    if (!found)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_context_create_from_cl: the device is not one of the context's");
    err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(NULL, (cls_status)err, "cls_context_create_from_cl: device platform");
    if (!(ctx = calloc(1, sizeof *ctx)))
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "allocating a context");
    ctx->platform = platform;
    ctx->device = device;
    /* its place in the enumeration, when it is there (-1 otherwise) */
    cls_device_info *infos = NULL;
    cl_device_id *all = NULL;
    size_t count = 0, k;
    int pi = -1, di = -1;
    if (cls__device_enumerate(&infos, &all, NULL, &count) == CLS_SUCCESS)
        for (k = 0; k < count; k++)
            if (all[k] == device) pi = infos[k].platform_index, di = infos[k].device_index;
    free(infos);
    free(all);
    if ((st = cls__device_query(platform, device, pi, di, &ctx->info)) != CLS_SUCCESS) goto fail;
    if ((err = clRetainContext(context)) != CL_SUCCESS)
        CLS__GOTO_FAIL(NULL, st, (cls_status)err, "retaining the caller's context");
    ctx->cl = context;
    ctx->queue = clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS || !ctx->queue)
        CLS__GOTO_FAIL(NULL, st, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                       "clCreateCommandQueue (in order, profiling enabled) failed on %s",
                       ctx->info.name);
    *out = ctx;
    return CLS_SUCCESS;
fail:
    cls_context_release(ctx);
    return st;
}

cls_status cls_context_cl(const cls_context *ctx, cl_context *context, cl_device_id *device,
                          cl_command_queue *queue)
{
    if (!ctx) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_context_cl: NULL context");
    if (context) *context = ctx->cl;
    if (device) *device = ctx->device;
    if (queue) *queue = ctx->queue;
    return CLS_SUCCESS;
}
