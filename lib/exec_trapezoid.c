/* exec_trapezoid.c: the trapezoid (ghost-zone) schedule's executor: stages of h steps, joined by
 * kernel restarts or by one persistent launch with an in-kernel global barrier. */
#include "tune.h"

static cls_status run_restart(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                              cl_event *last)
{
    cls_context *ctx = p->ctx;
    cl_int err;
    size_t stages = (p->steps + p->h - 1) / p->h;
    cl_uint a = (cl_uint)(2 + g->n_aux);
    cl_int h = (cl_int)p->h;
    size_t chunk = p->progress ? (stages / 50 ? stages / 50 : 1) : stages + 1;
    err = clSetKernelArg(p->kernel, a + 2, sizeof h, &h);
    if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "setting kernel arguments");
    for (size_t st = 0; st < stages; st++) {
        cl_int step0 = (cl_int)(st * p->h);
        cl_int hs = (cl_int)(p->steps - st * p->h < p->h ? p->steps - st * p->h : p->h);
        err = clSetKernelArg(p->kernel, 0, sizeof(cl_mem), &g->buf[*cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, 1, sizeof(cl_mem), &g->buf[1 - *cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, a, sizeof step0, &step0);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, a + 1, sizeof hs, &hs);
        if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "setting kernel arguments");
        cl_event *ev = st == 0 ? first : st + 1 == stages ? last : NULL;
        err = clEnqueueNDRangeKernel(ctx->queue, p->kernel, 3, NULL, p->global, p->local, 0, NULL,
                                     ev);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err,
                             "launching the trapezoid kernel (tile %zux%zux%zu, work-group "
                             "%zux%zux%zu, %zu tiles)",
                             p->tile[0], p->tile[1], p->tile[2], p->local[0], p->local[1],
                             p->local[2], p->tiles);
        *cur = 1 - *cur;
        if (p->progress && (st + 1) % chunk == 0 && st + 1 < stages) {
            if ((err = clFinish(ctx->queue)) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "waiting for the device");
            if (p->progress((st + 1) * p->h, p->steps, p->progress_user))
                return cls__fail(ctx, CLS_ERR_CANCELLED,
                                 "run cancelled by the progress callback after %zu of %zu steps",
                                 (st + 1) * p->h, p->steps);
        }
    }
    return CLS_SUCCESS;
}

static cls_status run_barrier(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first)
{
    cls_context *ctx = p->ctx;
    cls_status s = CLS_SUCCESS;
    cl_int err, zero = 0, status = 0;
    size_t stages = (p->steps + p->h - 1) / p->h;
    cl_mem counters = NULL, flag = NULL;
    counters = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, stages * sizeof(cl_int), NULL, &err);
    CLS__CHECK_CL(ctx, s, err, "allocating the barrier counters");
    flag = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
    CLS__CHECK_CL(ctx, s, err, "allocating the barrier status");
    err = clEnqueueFillBuffer(ctx->queue, counters, &zero, sizeof zero, 0, stages * sizeof(cl_int),
                              0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(ctx->queue, flag, &zero, sizeof zero, 0, sizeof zero, 0, NULL,
                                  NULL);
    CLS__CHECK_CL(ctx, s, err, "clearing the barrier counters");
    cl_uint a = (cl_uint)(2 + g->n_aux);
    cl_int steps = (cl_int)p->steps, h = (cl_int)p->h;
    /* The kernel alternates from buf0: the current state goes first. */
    err = clSetKernelArg(p->kernel, 0, sizeof(cl_mem), &g->buf[*cur]);
    if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, 1, sizeof(cl_mem), &g->buf[1 - *cur]);
    if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, a, sizeof(cl_mem), &counters);
    if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, a + 1, sizeof(cl_mem), &flag);
    if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, a + 2, sizeof steps, &steps);
    if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, a + 3, sizeof h, &h);
    CLS__CHECK_CL(ctx, s, err, "setting kernel arguments");
    err = clEnqueueNDRangeKernel(ctx->queue, p->kernel, 3, NULL, p->global, p->local, 0, NULL,
                                 first);
    CLS__CHECK_CL(ctx, s, err, "launching the persistent trapezoid kernel");
    err = clEnqueueReadBuffer(ctx->queue, flag, CL_TRUE, 0, sizeof status, &status, 0, NULL, NULL);
    CLS__CHECK_CL(ctx, s, err, "reading the barrier status");
    if (status)
        CLS__GOTO_FAIL(ctx, s, CLS_ERR_UNSUPPORTED,
                       "the in-kernel barrier gave up: the %zu work-groups were not all resident "
                       "at once on '%s'; use kernel-restart synchronisation",
                       p->groups, ctx->info.name);
    if (stages % 2) *cur = 1 - *cur;
fail:
    if (counters) clReleaseMemObject(counters);
    if (flag) clReleaseMemObject(flag);
    return s;
}

cls_status cls__trapezoid_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                                 cl_event *last)
{
    cls_status s = cls__set_aux_args(p, p->kernel, 2, g);
    if (s != CLS_SUCCESS || !p->steps) return s;
    return p->sync == CLS_SYNC_BARRIER ? run_barrier(p, g, cur, first)
                                       : run_restart(p, g, cur, first, last);
}

cls_status cls__exec_trapezoid(cls_plan *p, const void *input, const void *const *aux,
                               void *output, cls_report *report)
{
    cls__dev_grid g;
    cl_event first = NULL, last = NULL;
    int cur = 0;
    double t_start = cls__now();
    cls_status s = cls__dev_grid_take(p, input, aux, &g);
    if (s != CLS_SUCCESS) return s;
    s = cls__trapezoid_launch(p, &g, &cur, &first, &last);
    return cls__exec_finish(p, &g, cur, first, last, t_start, output, report, s);
}
