/* exec_common.c: what every executor shares: device buffers for the state and the auxiliary
 * arrays, upload, profiling spans and the run report. */
#include <string.h>

#include "plan.h"

/* Creates the grid's buffers (the state twice, each auxiliary array once). */
static cls_status grid_create(cls_plan *p, cls__dev_grid *g)
{
    cls_context *ctx = p->ctx;
    cls_status s = CLS_SUCCESS;
    cl_int err;
    size_t bytes = p->points * p->elem;
    memset(g, 0, sizeof *g);
    g->n_aux = p->st->n_aux;
    g->allocated = 1;
    for (int i = 0; i < 2; i++) {
        g->buf[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        CLS__CHECK_CL(ctx, s, err, "allocating a grid buffer on the device");
    }
    for (size_t k = 0; k < g->n_aux; k++) {
        size_t ab = p->st->aux[k].per_step ? bytes * (p->steps ? p->steps : 1) : bytes;
        g->aux[k] = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, ab, NULL, &err);
        CLS__CHECK_CL(ctx, s, err, "allocating an auxiliary buffer on the device");
    }
    return CLS_SUCCESS;
fail:
    cls__dev_grid_release(g);
    return s;
}

/* Queues the input into buf[0] and the auxiliary arrays into theirs. */
static cls_status grid_write(cls_plan *p, const void *input, const void *const *aux,
                             cls__dev_grid *g)
{
    cls_context *ctx = p->ctx;
    cls_status s = CLS_SUCCESS;
    cl_int err;
    size_t bytes = p->points * p->elem;
    err = clEnqueueWriteBuffer(ctx->queue, g->buf[0], CL_FALSE, 0, bytes, input, 0, NULL, NULL);
    CLS__CHECK_CL(ctx, s, err, "copying the input grid to the device");
    for (size_t k = 0; k < g->n_aux; k++) {
        size_t wb = p->st->aux[k].per_step ? bytes * p->steps : bytes;
        if (!wb) continue;
        err = clEnqueueWriteBuffer(ctx->queue, g->aux[k], CL_FALSE, 0, wb, aux[k], 0, NULL, NULL);
        CLS__CHECK_CL(ctx, s, err, "copying an auxiliary array to the device");
    }
    return CLS_SUCCESS;
fail:
    clFinish(ctx->queue);
    return s;
}

cls_status cls__dev_grid_upload(cls_plan *p, const void *input, const void *const *aux,
                                cls__dev_grid *g)
{
    cls_status s = grid_create(p, g);
    if (s == CLS_SUCCESS && (s = grid_write(p, input, aux, g)) != CLS_SUCCESS)
        cls__dev_grid_release(g);
    return s;
}

cls_status cls__dev_grid_take(cls_plan *p, const void *input, const void *const *aux,
                              cls__dev_grid *g)
{
    if (!p->kept.buf[0]) return cls__dev_grid_upload(p, input, aux, g);
    /* out of the plan for the run: a failure releases them and the next run allocates anew */
    *g = p->kept;
    memset(&p->kept, 0, sizeof p->kept);
    g->allocated = 0;
    cls_status s = grid_write(p, input, aux, g);
    if (s != CLS_SUCCESS) cls__dev_grid_release(g);
    return s;
}

void cls__dev_grid_release(cls__dev_grid *g)
{
    for (int i = 0; i < 2; i++)
        if (g->buf[i]) clReleaseMemObject(g->buf[i]);
    for (size_t k = 0; k < g->n_aux; k++)
        if (g->aux[k]) clReleaseMemObject(g->aux[k]);
    memset(g, 0, sizeof *g);
}

cls_status cls__set_aux_args(cls_plan *p, cl_kernel k, cl_uint first, const cls__dev_grid *g)
{
    for (size_t i = 0; i < g->n_aux; i++) {
        cl_int err = clSetKernelArg(k, first + (cl_uint)i, sizeof(cl_mem), &g->aux[i]);
        if (err != CL_SUCCESS)
            return cls__fail(p->ctx, (cls_status)err, "setting an auxiliary kernel argument");
    }
    return CLS_SUCCESS;
}

cl_int cls__event_seconds(cl_event ev, double *seconds)
{
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    *seconds = err == CL_SUCCESS && t1 > t0 ? (double)(t1 - t0) * 1e-9 : 0.0;
    return err;
}

double cls__event_span(cl_event first, cl_event last)
{
    cl_ulong t0 = 0, t1 = 0;
    if (!first || !last ||
        clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
        return 0;
    return t1 > t0 ? (double)(t1 - t0) * 1e-9 : 0;
}

void cls__fill_report(const cls_plan *p, cls_report *r, double t_start, double kernel_seconds)
{
    if (!r) return;
    r->schedule = p->schedule;
    r->steps = p->steps;
    r->seconds_total = cls__now() - t_start;
    r->seconds_kernels = kernel_seconds;
    r->predicted_seconds = p->predicted_seconds;
    if (p->steps) {
        r->seconds_per_step = kernel_seconds / (double)p->steps;
        if (kernel_seconds > 0)
            r->gpoints_per_s = (double)p->points * (double)p->steps / kernel_seconds / 1e9;
    }
}

void cls__report_allocation(const cls_plan *p, cls_report *r, int allocated)
{
    if (!r) return;
    r->allocated = allocated;
    if (allocated && r->predicted_total_seconds > 0)
        r->predicted_total_seconds += p->predicted_alloc;
}

cls_status cls__exec_finish(cls_plan *p, cls__dev_grid *g, int cur, cl_event first,
                            cl_event last, double t_start, void *output, cls_report *report,
                            cls_status s)
{
    cls_context *ctx = p->ctx;
    if (s == CLS_SUCCESS) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, g->buf[cur], CL_TRUE, 0, p->points * p->elem,
                                         output, 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            s = cls__fail(ctx, (cls_status)err, "reading the result back from the device");
        } else {
            if (p->progress) p->progress(p->steps, p->steps, p->progress_user);
            cls__fill_report(p, report, t_start, cls__event_span(first, last ? last : first));
        }
    }
    if (s != CLS_SUCCESS) clFinish(ctx->queue);
    if (first) clReleaseEvent(first);
    if (last) clReleaseEvent(last);
    if (s == CLS_SUCCESS) cls__report_allocation(p, report, g->allocated);
    if (s == CLS_SUCCESS && !p->release_buffers) {
        p->kept = *g; /* the read above was blocking: nothing of this run uses them now */
    } else {
        cls__dev_grid_release(g);
    }
    return s;
}
