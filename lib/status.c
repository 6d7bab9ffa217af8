/* status.c: status names and messages from one table, and the per-context last error over the
 * per-thread one that model/error.c keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "internal.h"

/* OpenCL's own codes keep their CL_* names (CLBlast's convention). */
static const char *cl_error_name(int code)
{
    switch (code) {
#define C(x) case x: return #x;
        C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE) C(CL_COMPILER_NOT_AVAILABLE)
        C(CL_MEM_OBJECT_ALLOCATION_FAILURE) C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
        C(CL_PROFILING_INFO_NOT_AVAILABLE) C(CL_MEM_COPY_OVERLAP) C(CL_IMAGE_FORMAT_MISMATCH)
        C(CL_IMAGE_FORMAT_NOT_SUPPORTED) C(CL_BUILD_PROGRAM_FAILURE) C(CL_MAP_FAILURE)
        C(CL_MISALIGNED_SUB_BUFFER_OFFSET) C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        C(CL_COMPILE_PROGRAM_FAILURE) C(CL_LINKER_NOT_AVAILABLE) C(CL_LINK_PROGRAM_FAILURE)
        C(CL_DEVICE_PARTITION_FAILED) C(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        C(CL_INVALID_VALUE) C(CL_INVALID_DEVICE_TYPE) C(CL_INVALID_PLATFORM) C(CL_INVALID_DEVICE)
        C(CL_INVALID_CONTEXT) C(CL_INVALID_QUEUE_PROPERTIES) C(CL_INVALID_COMMAND_QUEUE)
        C(CL_INVALID_HOST_PTR) C(CL_INVALID_MEM_OBJECT) C(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        C(CL_INVALID_IMAGE_SIZE) C(CL_INVALID_SAMPLER) C(CL_INVALID_BINARY)
        C(CL_INVALID_BUILD_OPTIONS) C(CL_INVALID_PROGRAM) C(CL_INVALID_PROGRAM_EXECUTABLE)
        C(CL_INVALID_KERNEL_NAME) C(CL_INVALID_KERNEL_DEFINITION) C(CL_INVALID_KERNEL)
        C(CL_INVALID_ARG_INDEX) C(CL_INVALID_ARG_VALUE) C(CL_INVALID_ARG_SIZE)
        C(CL_INVALID_KERNEL_ARGS) C(CL_INVALID_WORK_DIMENSION) C(CL_INVALID_WORK_GROUP_SIZE)
        C(CL_INVALID_WORK_ITEM_SIZE) C(CL_INVALID_GLOBAL_OFFSET) C(CL_INVALID_EVENT_WAIT_LIST)
        C(CL_INVALID_EVENT) C(CL_INVALID_OPERATION) C(CL_INVALID_GL_OBJECT)
        C(CL_INVALID_BUFFER_SIZE) C(CL_INVALID_MIP_LEVEL) C(CL_INVALID_GLOBAL_WORK_SIZE)
        C(CL_INVALID_PROPERTY) C(CL_INVALID_IMAGE_DESCRIPTOR) C(CL_INVALID_COMPILER_OPTIONS)
        C(CL_INVALID_LINKER_OPTIONS) C(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef C
    default: return NULL;
    }
}

const char *cls_status_string(int status)
{
    switch (status) {
#define CLS__NAME(name, value, msg) case value: return #name;
        CLS_STATUS_LIST(CLS__NAME)
#undef CLS__NAME
    default: break;
    }
    const char *cl = cl_error_name(status);
    return cl ? cl : "CLS_UNKNOWN_STATUS";
}

const char *cls_status_message(int status)
{
    switch (status) {
#define CLS__MSG(name, value, msg) case value: return msg;
        CLS_STATUS_LIST(CLS__MSG)
#undef CLS__MSG
    default: break;
    }
    return cl_error_name(status) ? "OpenCL call failed" : "unknown status";
}

/* The message lives in model/'s store, which model/ and devices/ record into directly. */
const char *cls_last_error(void) { return cls__error_message(); }

cls_status cls__vfail(cls_context *ctx, cls_status st, const char *fmt, va_list ap)
{
    char prefix[64];
    /* OpenCL codes get their name in front so the cause is visible without a table. */
    int cl = (int)st < 0 && (int)st > -1000;
    if (cl) snprintf(prefix, sizeof prefix, "%s: ", cls_status_string(st));
    cls__verror(st, cl ? prefix : NULL, fmt, ap);
    if (ctx) {
        free(ctx->last_error);
        ctx->last_error = cls__strdup(cls__error_message());
    }
    cls__debug("error %s: %s", cls_status_string(st), cls__error_message());
    return st;
}

cls_status cls__fail(cls_context *ctx, cls_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cls_status r = cls__vfail(ctx, st, fmt, ap);
    va_end(ap);
    return r;
}
