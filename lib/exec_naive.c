/* exec_naive.c: the naive schedule's executor: one launch per step over ping-pong buffers. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* Device seconds from the start of `first` to the end of `last` (in-order queue). */
static double event_span(cl_event first, cl_event last)
{
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
        return 0;
    return t1 > t0 ? (double)(t1 - t0) * 1e-9 : 0;
}

cls_status cls__exec_naive(cls_plan *p, const void *input, const void *const *aux, void *output,
                           cls_report *report)
{
    cls_context *ctx = p->ctx;
    cl_mem buf[2] = {NULL, NULL}, auxbuf[16] = {NULL};
    cl_event first = NULL, last = NULL;
    cls_status s = CLS_SUCCESS;
    cl_int err;
    size_t bytes = p->points * p->elem;
    size_t n_aux = p->st->n_aux;
    double t_start = cls__now();

    for (int i = 0; i < 2; i++) {
        buf[i] = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        CLS__CHECK_CL(ctx, s, err, "allocating a grid buffer on the device");
    }
    err = clEnqueueWriteBuffer(ctx->queue, buf[0], CL_FALSE, 0, bytes, input, 0, NULL, NULL);
    CLS__CHECK_CL(ctx, s, err, "copying the input grid to the device");
    for (size_t k = 0; k < n_aux; k++) {
        size_t ab = p->st->aux[k].per_step ? bytes * (p->steps ? p->steps : 1) : bytes;
        auxbuf[k] = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, ab, NULL, &err);
        CLS__CHECK_CL(ctx, s, err, "allocating an auxiliary buffer on the device");
        size_t wb = p->st->aux[k].per_step ? bytes * p->steps : bytes;
        if (wb) {
            err = clEnqueueWriteBuffer(ctx->queue, auxbuf[k], CL_FALSE, 0, wb, aux[k], 0, NULL, NULL);
            CLS__CHECK_CL(ctx, s, err, "copying an auxiliary array to the device");
        }
    }
    for (size_t k = 0; k < n_aux; k++) {
        err = clSetKernelArg(p->kernel, (cl_uint)(2 + k), sizeof(cl_mem), &auxbuf[k]);
        CLS__CHECK_CL(ctx, s, err, "setting an auxiliary kernel argument");
    }
    cl_uint step_arg = (cl_uint)(2 + n_aux);
    /* Progress reports need the queue drained; do it about 50 times per run at most. */
    size_t chunk = p->progress ? (p->steps / 50 ? p->steps / 50 : 1) : p->steps + 1;
    int cur = 0;
    for (size_t t = 0; t < p->steps; t++) {
        cl_int step = (cl_int)t;
        err = clSetKernelArg(p->kernel, 0, sizeof(cl_mem), &buf[cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, 1, sizeof(cl_mem), &buf[1 - cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, step_arg, sizeof step, &step);
        CLS__CHECK_CL(ctx, s, err, "setting kernel arguments");
        cl_event ev = NULL;
        int want_event = t == 0 || t + 1 == p->steps;
        err = clEnqueueNDRangeKernel(ctx->queue, p->kernel, (cl_uint)p->st->dims, NULL, p->global,
                                     p->local, 0, NULL, want_event ? &ev : NULL);
        CLS__CHECK_CL(ctx, s, err, "launching the naive stencil kernel");
        if (t == 0) first = ev;
        if (t + 1 == p->steps) {
            if (last && last != first) clReleaseEvent(last);
            last = ev;
            if (t == 0) clRetainEvent(ev);
        }
        cur = 1 - cur;
        if ((t + 1) % chunk == 0 && t + 1 < p->steps) {
            err = clFinish(ctx->queue);
            CLS__CHECK_CL(ctx, s, err, "waiting for the device");
            if (p->progress(t + 1, p->steps, p->progress_user))
                CLS__GOTO_FAIL(ctx, s, CLS_ERR_CANCELLED,
                               "run cancelled by the progress callback after %zu of %zu steps",
                               t + 1, p->steps);
        }
    }
    err = clEnqueueReadBuffer(ctx->queue, buf[cur], CL_TRUE, 0, bytes, output, 0, NULL, NULL);
    CLS__CHECK_CL(ctx, s, err, "reading the result back from the device");
    if (p->progress) p->progress(p->steps, p->steps, p->progress_user);
    if (report) {
        report->schedule = CLS_SCHEDULE_NAIVE;
        report->steps = p->steps;
        report->seconds_total = cls__now() - t_start;
        report->seconds_kernels = first && last ? event_span(first, last) : 0;
        if (p->steps) {
            report->seconds_per_step = report->seconds_kernels / (double)p->steps;
            if (report->seconds_kernels > 0)
                report->gpoints_per_s = (double)p->points * (double)p->steps /
                                        report->seconds_kernels / 1e9;
        }
    }
fail:
    if (s != CLS_SUCCESS) clFinish(ctx->queue);
    if (first) clReleaseEvent(first);
    if (last) clReleaseEvent(last);
    for (int i = 0; i < 2; i++)
        if (buf[i]) clReleaseMemObject(buf[i]);
    for (size_t k = 0; k < n_aux; k++)
        if (auxbuf[k]) clReleaseMemObject(auxbuf[k]);
    return s;
}
