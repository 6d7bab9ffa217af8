/* exec_stream25d.c: the stream25d schedule's executor: one launch per pass over z, each streaming
 * the whole grid through one step (cl/stream25d.cl) or steps_per_pass steps
 * (cl/stream25d_tb.cl), over ping-pong buffers. */
#include "tune.h"

/* Temporal blocking: ceil(steps / k) launches, the last one told how many steps remain (its
 * later stages copy their input). */
static cls_status fused_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                               cl_event *last)
{
    cls_context *ctx = p->ctx;
    const size_t k = p->steps_per_pass;
    const size_t passes = (p->steps + k - 1) / k;
    cls_status s;
    cl_int err;
    if ((s = cls__set_aux_args(p, p->kernel, 2, g)) != CLS_SUCCESS) return s;
    cl_uint step_arg = (cl_uint)(2 + g->n_aux);
    size_t chunk = p->progress ? (passes / 50 ? passes / 50 : 1) : passes + 1;
    for (size_t i = 0; i < passes; i++) {
        cl_int step = (cl_int)(i * k);
        cl_int n = (cl_int)(p->steps - i * k < k ? p->steps - i * k : k);
        err = clSetKernelArg(p->kernel, 0, sizeof(cl_mem), &g->buf[*cur]);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(p->kernel, 1, sizeof(cl_mem), &g->buf[1 - *cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, step_arg, sizeof step, &step);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, step_arg + 1, sizeof n, &n);
        if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "setting kernel arguments");
        cl_event *ev = i == 0 ? first : i + 1 == passes ? last : NULL;
        err = clEnqueueNDRangeKernel(ctx->queue, p->kernel, 3, NULL, p->global, p->local, 0, NULL,
                                     ev);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err,
                             "launching the fused stream25d kernel (%zu steps per pass, "
                             "work-group %zux%zu, global %zux%zux%zu)",
                             k, p->local[0], p->local[1], p->global[0], p->global[1],
                             p->global[2]);
        *cur = 1 - *cur;
        if ((i + 1) % chunk == 0 && i + 1 < passes) {
            if ((err = clFinish(ctx->queue)) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "waiting for the device");
            size_t done = (i + 1) * k;
            if (p->progress(done, p->steps, p->progress_user))
                return cls__fail(ctx, CLS_ERR_CANCELLED,
                                 "run cancelled by the progress callback after %zu of %zu steps",
                                 done, p->steps);
        }
    }
    return CLS_SUCCESS;
}

/* Device only (the exhaustive search): one launch per step, or the fused passes. */
cls_status cls__stream25d_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                                 cl_event *last)
{
    return p->steps_per_pass > 1 ? fused_launch(p, g, cur, first, last)
                                 : cls__naive_launch(p, g, cur, first, last);
}

cls_status cls__exec_stream25d(cls_plan *p, const void *input, const void *const *aux,
                               void *output, cls_report *report)
{
    cls__dev_grid g;
    cl_event first = NULL, last = NULL;
    int cur = 0;
    double t_start = cls__now();
    cls_status s = cls__dev_grid_take(p, input, aux, &g);
    if (s != CLS_SUCCESS) return s;
    /* One streaming launch per pass; one step per pass uses the naive schedule's launcher. */
    if (p->steps_per_pass > 1) s = fused_launch(p, &g, &cur, &first, &last);
    else s = cls__naive_launch(p, &g, &cur, &first, &last);
    return cls__exec_finish(p, &g, cur, first, last, t_start, output, report, s);
}
