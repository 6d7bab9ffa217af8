/* ocl_shim.c: the OpenCL fault-injection shim (see tests/ocl_shim.h): counts calls and objects,
 * fails the armed call, forwards the others to the real OpenCL through dlsym(RTLD_NEXT). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "ocl_shim.h"

/* Every entry point libclstencil calls (nm -D --undefined-only on the library; the test
 * test_faults_cover.sh keeps this list equal to it).  R: a release, never failed. */
#define SHIM_ENTRIES(X, R)                                                                     \
    X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo)             \
    X(clCreateContext) R(clReleaseContext) X(clCreateCommandQueue) R(clReleaseCommandQueue)   \
    X(clCreateBuffer) R(clReleaseMemObject) X(clCreateProgramWithSource)                      \
    X(clCreateProgramWithBinary) X(clBuildProgram) X(clGetProgramInfo)                        \
    X(clGetProgramBuildInfo) R(clReleaseProgram) X(clCreateKernel) X(clSetKernelArg)          \
    X(clGetKernelWorkGroupInfo) R(clReleaseKernel) X(clEnqueueNDRangeKernel)                  \
    X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueReadBufferRect)                 \
    X(clEnqueueWriteBufferRect) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer)                 \
    X(clEnqueueMapBuffer) X(clEnqueueUnmapMemObject) X(clEnqueueMarkerWithWaitList)           \
    X(clWaitForEvents) X(clGetEventProfilingInfo) X(clRetainEvent) R(clReleaseEvent)          \
    X(clFlush) X(clFinish) X(clGetContextInfo) X(clRetainContext) X(clGetMemObjectInfo)      \
    X(clRetainMemObject) X(clEnqueueCopyBufferRect)

#define SHIM_ENUM(name) E_##name,
enum { SHIM_ENTRIES(SHIM_ENUM, SHIM_ENUM) E_COUNT };
#define SHIM_NAME(name) #name,
static const char *const entry_names[E_COUNT] = {SHIM_ENTRIES(SHIM_NAME, SHIM_NAME)};
#define SHIM_FAILS(name) 1,
#define SHIM_KEEPS(name) 0,
static const int entry_fails[E_COUNT] = {SHIM_ENTRIES(SHIM_FAILS, SHIM_KEEPS)};

static void *_Atomic real_fn[E_COUNT];
static atomic_ulong calls[E_COUNT];
static atomic_long live[SHIM_KINDS];
static atomic_size_t armed_entry = E_COUNT;
static atomic_ulong armed_n;
static atomic_size_t every_entry = E_COUNT;
static atomic_int fired;

static const char *const kind_names[SHIM_KINDS] = {"context", "queue",  "mem",
                                                   "program", "kernel", "event"};

size_t shim_entry_count(void) { return E_COUNT; }
const char *shim_entry_name(size_t entry) { return entry < E_COUNT ? entry_names[entry] : NULL; }
int shim_entry_can_fail(size_t entry) { return entry < E_COUNT && entry_fails[entry]; }
const char *shim_kind_name(shim_kind kind) { return kind < SHIM_KINDS ? kind_names[kind] : "?"; }
long shim_live(shim_kind kind) { return kind < SHIM_KINDS ? atomic_load(&live[kind]) : 0; }
int shim_fired(void) { return atomic_load(&fired); }
unsigned long shim_calls(size_t entry) { return entry < E_COUNT ? atomic_load(&calls[entry]) : 0; }

int shim_entry_index(const char *name)
{
    for (size_t i = 0; i < E_COUNT; i++)
        if (!strcmp(entry_names[i], name)) return (int)i;
    return -1;
}

void shim_arm(size_t entry, unsigned long n)
{
    atomic_store(&armed_n, n);
    atomic_store(&armed_entry, n && entry < E_COUNT && entry_fails[entry] ? entry : E_COUNT);
}

void shim_fail_every(size_t entry)
{
    atomic_store(&every_entry, entry < E_COUNT && entry_fails[entry] ? entry : E_COUNT);
}

void shim_reset(void)
{
    for (size_t i = 0; i < E_COUNT; i++) atomic_store(&calls[i], 0);
    atomic_store(&fired, 0);
}

/* The real entry point; a missing one is a broken test set-up, not a case to survive. */
static void *resolve(size_t e)
{
    void *p = atomic_load(&real_fn[e]);
    if (!p) {
        p = dlsym(RTLD_NEXT, entry_names[e]);
        if (!p) {
            fprintf(stderr, "ocl_shim: %s not found after the shim: %s\n", entry_names[e],
                    dlerror());
            abort();
        }
        atomic_store(&real_fn[e], p);
    }
    return p;
}

/* Counts the call; 1 when it is the one to fail. */
static int enter(size_t e)
{
    unsigned long n = atomic_fetch_add(&calls[e], 1) + 1;
    if (atomic_load(&armed_entry) == e && atomic_load(&armed_n) == n) {
        atomic_store(&fired, 1);
        return 1;
    }
    return atomic_load(&every_entry) == e;
}

static void count(shim_kind k, long d) { atomic_fetch_add(&live[k], d); }

/* Forwards to the real entry point with the caller's arguments. */
#define REAL(name) ((__typeof__(&name))resolve(E_##name))

/* An entry point returning cl_int: fails with SHIM_ERROR, else forwards. */
#define PLAIN(name, params, args)                                                              \
    CL_API_ENTRY cl_int CL_API_CALL name params                                                \
    {                                                                                          \
        if (enter(E_##name)) return SHIM_ERROR;                                                \
        return REAL(name) args;                                                                \
    }

/* An enqueue that may return an event: counted when it does. */
#define ENQUEUE(name, params, args)                                                            \
    CL_API_ENTRY cl_int CL_API_CALL name params                                                \
    {                                                                                          \
        if (enter(E_##name)) return SHIM_ERROR;                                                \
        cl_int err = REAL(name) args;                                                          \
        if (err == CL_SUCCESS && event && *event) count(SHIM_EVENT, 1);                        \
        return err;                                                                            \
    }

/* A create returning an object through errcode_ret. */
#define CREATE(type, kind, name, params, args)                                                 \
    CL_API_ENTRY type CL_API_CALL name params                                                  \
    {                                                                                          \
        if (enter(E_##name)) {                                                                 \
            if (errcode_ret) *errcode_ret = SHIM_ERROR;                                        \
            return NULL;                                                                       \
        }                                                                                      \
        type obj = REAL(name) args;                                                            \
        if (obj) count(kind, 1);                                                               \
        return obj;                                                                            \
    }

/* A retain: counted as one more reference when the runtime takes it. */
#define RETAIN(type, kind, name)                                                               \
    CL_API_ENTRY cl_int CL_API_CALL name(type obj)                                             \
    {                                                                                          \
        if (enter(E_##name)) return SHIM_ERROR;                                                \
        cl_int err = REAL(name)(obj);                                                          \
        if (err == CL_SUCCESS) count(kind, 1);                                                 \
        return err;                                                                            \
    }

/* A release: never failed, counted when the runtime accepts it. */
#define RELEASE(type, kind, name)                                                              \
    CL_API_ENTRY cl_int CL_API_CALL name(type obj)                                             \
    {                                                                                          \
        enter(E_##name);                                                                       \
        cl_int err = REAL(name)(obj);                                                          \
        if (err == CL_SUCCESS) count(kind, -1);                                                \
        return err;                                                                            \
    }

PLAIN(clGetPlatformIDs, (cl_uint n, cl_platform_id *p, cl_uint *np), (n, p, np))
PLAIN(clGetPlatformInfo, (cl_platform_id p, cl_platform_info i, size_t s, void *v, size_t *r),
      (p, i, s, v, r))
PLAIN(clGetDeviceIDs, (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d,
                       cl_uint *nd),
      (p, t, n, d, nd))
PLAIN(clGetDeviceInfo, (cl_device_id d, cl_device_info i, size_t s, void *v, size_t *r),
      (d, i, s, v, r))
CREATE(cl_context, SHIM_CONTEXT, clCreateContext,
       (const cl_context_properties *props, cl_uint n, const cl_device_id *d,
        void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
        cl_int *errcode_ret),
       (props, n, d, notify, user, errcode_ret))
RELEASE(cl_context, SHIM_CONTEXT, clReleaseContext)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
CREATE(cl_command_queue, SHIM_QUEUE, clCreateCommandQueue,
       (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *errcode_ret),
       (c, d, p, errcode_ret))
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
RELEASE(cl_command_queue, SHIM_QUEUE, clReleaseCommandQueue)
CREATE(cl_mem, SHIM_MEM, clCreateBuffer,
       (cl_context c, cl_mem_flags f, size_t size, void *host, cl_int *errcode_ret),
       (c, f, size, host, errcode_ret))
RELEASE(cl_mem, SHIM_MEM, clReleaseMemObject)
CREATE(cl_program, SHIM_PROGRAM, clCreateProgramWithSource,
       (cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *errcode_ret),
       (c, n, s, l, errcode_ret))
CREATE(cl_program, SHIM_PROGRAM, clCreateProgramWithBinary,
       (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,
        const unsigned char **b, cl_int *bs, cl_int *errcode_ret),
       (c, n, d, l, b, bs, errcode_ret))
PLAIN(clBuildProgram, (cl_program p, cl_uint n, const cl_device_id *d, const char *o,
                       void(CL_CALLBACK *notify)(cl_program, void *), void *user),
      (p, n, d, o, notify, user))
PLAIN(clGetProgramInfo, (cl_program p, cl_program_info i, size_t s, void *v, size_t *r),
      (p, i, s, v, r))
PLAIN(clGetProgramBuildInfo, (cl_program p, cl_device_id d, cl_program_build_info i, size_t s,
                              void *v, size_t *r),
      (p, d, i, s, v, r))
RELEASE(cl_program, SHIM_PROGRAM, clReleaseProgram)
CREATE(cl_kernel, SHIM_KERNEL, clCreateKernel, (cl_program p, const char *name,
                                                cl_int *errcode_ret),
       (p, name, errcode_ret))
PLAIN(clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
PLAIN(clGetKernelWorkGroupInfo, (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i,
                                 size_t s, void *v, size_t *r),
      (k, d, i, s, v, r))
RELEASE(cl_kernel, SHIM_KERNEL, clReleaseKernel)
ENQUEUE(clEnqueueNDRangeKernel, (cl_command_queue q, cl_kernel k, cl_uint dim,
                                 const size_t *off, const size_t *g, const size_t *l,
                                 cl_uint nw, const cl_event *w, cl_event *event),
        (q, k, dim, off, g, l, nw, w, event))
ENQUEUE(clEnqueueReadBuffer, (cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t size,
                              void *p, cl_uint nw, const cl_event *w, cl_event *event),
        (q, m, b, off, size, p, nw, w, event))
ENQUEUE(clEnqueueWriteBuffer, (cl_command_queue q, cl_mem m, cl_bool b, size_t off,
                               size_t size, const void *p, cl_uint nw, const cl_event *w,
                               cl_event *event),
        (q, m, b, off, size, p, nw, w, event))
ENQUEUE(clEnqueueReadBufferRect,
        (cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,
         const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, void *p, cl_uint nw,
         const cl_event *w, cl_event *event),
        (q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, nw, w, event))
ENQUEUE(clEnqueueWriteBufferRect,
        (cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,
         const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, const void *p,
         cl_uint nw, const cl_event *w, cl_event *event),
        (q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, nw, w, event))
ENQUEUE(clEnqueueCopyBuffer, (cl_command_queue q, cl_mem s, cl_mem d, size_t so, size_t dof,
                              size_t size, cl_uint nw, const cl_event *w, cl_event *event),
        (q, s, d, so, dof, size, nw, w, event))
ENQUEUE(clEnqueueCopyBufferRect,
        (cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *dof,
         const size_t *r, size_t srp, size_t ssp, size_t drp, size_t dsp, cl_uint nw,
         const cl_event *w, cl_event *event),
        (q, s, d, so, dof, r, srp, ssp, drp, dsp, nw, w, event))
ENQUEUE(clEnqueueFillBuffer, (cl_command_queue q, cl_mem m, const void *pat, size_t ps,
                              size_t off, size_t size, cl_uint nw, const cl_event *w,
                              cl_event *event),
        (q, m, pat, ps, off, size, nw, w, event))
ENQUEUE(clEnqueueMarkerWithWaitList, (cl_command_queue q, cl_uint nw, const cl_event *w,
                                      cl_event *event),
        (q, nw, w, event))

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool b,
                                                  cl_map_flags f, size_t off, size_t size,
                                                  cl_uint nw, const cl_event *w,
                                                  cl_event *event, cl_int *errcode_ret)
{
    if (enter(E_clEnqueueMapBuffer)) {
        if (errcode_ret) *errcode_ret = SHIM_ERROR;
        return NULL;
    }
    cl_int err = CL_SUCCESS;
    void *p = REAL(clEnqueueMapBuffer)(q, m, b, f, off, size, nw, w, event, &err);
    if (errcode_ret) *errcode_ret = err;
    if (err == CL_SUCCESS && event && *event) count(SHIM_EVENT, 1);
    return p;
}

ENQUEUE(clEnqueueUnmapMemObject, (cl_command_queue q, cl_mem m, void *p, cl_uint nw,
                                  const cl_event *w, cl_event *event),
        (q, m, p, nw, w, event))

PLAIN(clWaitForEvents, (cl_uint n, const cl_event *e), (n, e))
PLAIN(clGetEventProfilingInfo, (cl_event e, cl_profiling_info i, size_t s, void *v, size_t *r),
      (e, i, s, v, r))

RETAIN(cl_event, SHIM_EVENT, clRetainEvent)
RELEASE(cl_event, SHIM_EVENT, clReleaseEvent)
PLAIN(clFlush, (cl_command_queue q), (q))
PLAIN(clFinish, (cl_command_queue q), (q))

/* The caller's objects the library takes (clstencil_cl.h): queried, then retained. */
PLAIN(clGetContextInfo, (cl_context c, cl_context_info i, size_t s, void *v, size_t *r),
      (c, i, s, v, r))
PLAIN(clGetMemObjectInfo, (cl_mem m, cl_mem_info i, size_t s, void *v, size_t *r),
      (m, i, s, v, r))

RETAIN(cl_context, SHIM_CONTEXT, clRetainContext)
RETAIN(cl_mem, SHIM_MEM, clRetainMemObject)

/* ---------------------------------------------------------------- environment configuration */
static void shim_report(void)
{
    fprintf(stderr, "ocl_shim: fired %d live", shim_fired());
    for (int k = 0; k < SHIM_KINDS; k++)
        fprintf(stderr, " %s %ld", kind_names[k], shim_live((shim_kind)k));
    fprintf(stderr, " calls");
    for (size_t e = 0; e < E_COUNT; e++)
        if (shim_calls(e)) fprintf(stderr, " %s=%lu", entry_names[e], shim_calls(e));
    fprintf(stderr, "\n");
}

__attribute__((constructor)) static void shim_from_env(void)
{
    const char *spec = getenv("CLS_SHIM_FAIL"), *report = getenv("CLS_SHIM_REPORT");
    if (spec && *spec) {
        char name[64];
        unsigned long n = 0;
        const char *colon = strchr(spec, ':');
        size_t len = colon ? (size_t)(colon - spec) : 0;
        int e = -1;
        if (colon && len < sizeof name) {
            memcpy(name, spec, len);
            name[len] = '\0';
            e = shim_entry_index(name);
            n = strtoul(colon + 1, NULL, 10);
        }
        if (e < 0 || n == 0 || !entry_fails[e]) {
            fprintf(stderr, "ocl_shim: CLS_SHIM_FAIL='%s': expected ENTRY:N with N >= 1 and "
                            "ENTRY an entry point the shim can fail\n", spec);
            exit(2);
        }
        shim_arm((size_t)e, n);
    }
    if (report && *report && strcmp(report, "0")) atexit(shim_report);
}
