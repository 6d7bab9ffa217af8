/* host_alloc.c: page-locked host arrays for a context's device (Visschers 2012,
 * Sect. 2.5.2: transfers from pinned memory skip the driver's staging copy).  OpenCL has no
 * pinned malloc; a CL_MEM_ALLOC_HOST_PTR buffer, mapped, is the portable way (NVIDIA backs it
 * with pinned memory).  The mapping's buffer is kept in a small registry to unmap on free. */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

typedef struct pinned {
    struct pinned *next;
    cls_context *ctx;
    cl_mem mem;
    void *ptr;
} pinned;

static pinned *registry;
static atomic_flag lock = ATOMIC_FLAG_INIT;

static void acquire(void)
{
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) {
    }
}
static void release(void) { atomic_flag_clear_explicit(&lock, memory_order_release); }

cls_status cls_host_alloc(cls_context *ctx, size_t bytes, void **ptr)
{
    if (!ctx || !ptr || !bytes)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_host_alloc: a context, a pointer and at least one byte");
    *ptr = NULL;
    pinned *n = calloc(1, sizeof *n);
    if (!n) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "cls_host_alloc");
    cl_int err;
    n->mem = clCreateBuffer(ctx->cl, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        n->ptr = clEnqueueMapBuffer(ctx->queue, n->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                    bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        if (n->mem) clReleaseMemObject(n->mem);
        free(n);
        return cls__fail(ctx, (cls_status)err, "allocating %zu bytes of pinned host memory", bytes);
    }
    n->ctx = ctx;
    acquire();
    n->next = registry;
    registry = n;
    release();
    *ptr = n->ptr;
    return CLS_SUCCESS;
}

void cls_host_free(cls_context *ctx, void *ptr)
{
    if (!ptr) return;
    acquire();
    pinned **pp = &registry, *n = NULL;
    for (; *pp; pp = &(*pp)->next)
        if ((*pp)->ptr == ptr && (!ctx || (*pp)->ctx == ctx)) {
            n = *pp;
            *pp = n->next;
            break;
        }
    release();
    if (!n) return;
    clEnqueueUnmapMemObject(n->ctx->queue, n->mem, n->ptr, 0, NULL, NULL);
    clFinish(n->ctx->queue);
    clReleaseMemObject(n->mem);
    free(n);
}
