/* exec_stream25d.c: the stream25d schedule's executor: one launch per step, each streaming the
 * whole grid along z, over ping-pong buffers. */
#include "plan.h"

cls_status cls__exec_stream25d(cls_plan *p, const void *input, const void *const *aux,
                               void *output, cls_report *report)
{
    cls_context *ctx = p->ctx;
    cls__dev_grid g;
    cl_event first = NULL, last = NULL;
    cls_status s;
    cl_int err;
    double t_start = cls__now();

    if ((s = cls__dev_grid_upload(p, input, aux, &g)) != CLS_SUCCESS) return s;
    if ((s = cls__set_aux_args(p, p->kernel, 2, &g)) != CLS_SUCCESS) goto fail;
    const cl_uint step_arg = (cl_uint)(2 + g.n_aux);
    /* Progress reports drain the queue; about 50 per run at most. */
    const size_t chunk = p->progress ? (p->steps / 50 ? p->steps / 50 : 1) : p->steps + 1;
    int cur = 0;
    for (size_t t = 0; t < p->steps; t++) {
        cl_int step = (cl_int)t;
        err = clSetKernelArg(p->kernel, 0, sizeof(cl_mem), &g.buf[cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, 1, sizeof(cl_mem), &g.buf[1 - cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, step_arg, sizeof step, &step);
        CLS__CHECK_CL(ctx, s, err, "setting kernel arguments");
        cl_event *ev = t == 0 ? &first : t + 1 == p->steps ? &last : NULL;
        err = clEnqueueNDRangeKernel(ctx->queue, p->kernel, 3, NULL, p->global, p->local, 0, NULL,
                                     ev);
        if (err != CL_SUCCESS)
            CLS__GOTO_FAIL(ctx, s, (cls_status)err,
                           "launching the stream25d kernel (%s loader, tile %zux%zu, %zu planes "
                           "per group)",
                           cls_loader_name(p->loader), p->tile[0], p->tile[1], p->tile[2]);
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
    err = clEnqueueReadBuffer(ctx->queue, g.buf[cur], CL_TRUE, 0, p->points * p->elem, output, 0,
                              NULL, NULL);
    CLS__CHECK_CL(ctx, s, err, "reading the result back from the device");
    if (p->progress) p->progress(p->steps, p->steps, p->progress_user);
    cls__fill_report(p, report, t_start, cls__event_span(first, last ? last : first));
    s = CLS_SUCCESS;
fail:
    if (s != CLS_SUCCESS) clFinish(ctx->queue);
    if (first) clReleaseEvent(first);
    if (last) clReleaseEvent(last);
    cls__dev_grid_release(&g);
    return s;
}
