/* exec_naive.c: the naive schedule's executor: one launch per step over ping-pong buffers
 * (the launcher also drives stream25d, whose kernels stream a whole step per launch). */
#include "tune.h"

cls_status cls__naive_launch(cls_plan *p, cls__dev_grid *g, int *cur, cl_event *first,
                             cl_event *last)
{
    cls_context *ctx = p->ctx;
    cls_status s;
    cl_int err;
    if ((s = cls__set_aux_args(p, p->kernel, 2, g)) != CLS_SUCCESS) return s;
    cl_uint step_arg = (cl_uint)(2 + g->n_aux);
    /* Progress reports need the queue drained; do it about 50 times per run at most. */
    size_t chunk = p->progress ? (p->steps / 50 ? p->steps / 50 : 1) : p->steps + 1;
    for (size_t t = 0; t < p->steps; t++) {
        cl_int step = (cl_int)t;
        err = clSetKernelArg(p->kernel, 0, sizeof(cl_mem), &g->buf[*cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, 1, sizeof(cl_mem), &g->buf[1 - *cur]);
        if (err == CL_SUCCESS) err = clSetKernelArg(p->kernel, step_arg, sizeof step, &step);
        if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "setting kernel arguments");
        /* Events only on the first and the last launch: their span is the device time. */
        cl_event *ev = t == 0 ? first : t + 1 == p->steps ? last : NULL;
        /* stream25d's kernels are 3D whatever the stencil (2D groups times z chunks). */
        cl_uint work_dim = p->schedule == CLS_SCHEDULE_STREAM25D ? 3 : (cl_uint)p->st->dims;
        err = clEnqueueNDRangeKernel(ctx->queue, p->kernel, work_dim, NULL, p->global, p->local, 0,
                                     NULL, ev);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err,
                             "launching the %s kernel (work-group %zux%zux%zu, global %zux%zux%zu)",
                             cls_schedule_name(p->schedule), p->local[0], p->local[1],
                             p->local[2], p->global[0], p->global[1], p->global[2]);
        *cur = 1 - *cur;
        if ((t + 1) % chunk == 0 && t + 1 < p->steps) {
            if ((err = clFinish(ctx->queue)) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "waiting for the device");
            if (p->progress(t + 1, p->steps, p->progress_user))
                return cls__fail(ctx, CLS_ERR_CANCELLED,
                                 "run cancelled by the progress callback after %zu of %zu steps",
                                 t + 1, p->steps);
        }
    }
    return CLS_SUCCESS;
}

cls_status cls__exec_naive(cls_plan *p, const void *input, const void *const *aux, void *output,
                           cls_report *report)
{
    cls__dev_grid g;
    cl_event first = NULL, last = NULL;
    int cur = 0;
    double t_start = cls__now();
    cls_status s = cls__dev_grid_take(p, input, aux, &g);
    if (s != CLS_SUCCESS) return s;
    s = cls__naive_launch(p, &g, &cur, &first, &last);
    return cls__exec_finish(p, &g, cur, first, last, t_start, output, report, s);
}
