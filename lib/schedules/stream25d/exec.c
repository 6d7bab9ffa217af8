/* exec.c: the stream25d schedule's executor: one launch per pass over z, each streaming the
 * whole grid through one step (cl/stream25d.cl) or steps_per_pass steps (cl/stream25d_tb.cl),
 * over the state's two buffers; for a system one launch per stage and step (exec.h). */
#include "stream25d.h"

/* Fused steps: ceil(steps / k) launches, the last one told how many steps remain (its later
 * stages copy their input). */
static cls_status fused(cls__exec *x, const cls__s25 *c)
{
    cls_state *s = x->state;
    const size_t k = c->steps_per_pass, passes = (x->steps + k - 1) / k;
    cls_status st;
    if ((st = cls__exec_set_aux_args(x, c->kernel, 2)) != CLS_SUCCESS) return st;
    cl_uint step_arg = (cl_uint)(2 + s->n_aux);
    for (size_t i = 0; i < passes; i++) {
        cl_int step = (cl_int)(s->step + i * k);
        cl_int n = (cl_int)(x->steps - i * k < k ? x->steps - i * k : k);
        cl_int err = clSetKernelArg(c->kernel, 0, sizeof(cl_mem), &s->buf[s->rot.at[0]]);
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, 1, sizeof(cl_mem), &s->buf[1 - s->rot.at[0]]);
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, step_arg, sizeof step, &step);
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, step_arg + 1, sizeof n, &n);
        if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
        err = clEnqueueNDRangeKernel(x->ctx->queue, c->kernel, 3, NULL, c->global, c->local, 0,
                                     NULL, cls__exec_event(x, i, passes));
        if (err != CL_SUCCESS)
            return cls__fail(x->ctx, (cls_status)err,
                             "launching the fused stream25d kernel (%zu steps per pass, "
                             "work-group %zux%zu, global %zux%zux%zu)",
                             k, c->local[0], c->local[1], c->global[0], c->global[1],
                             c->global[2]);
        s->rot.at[0] = 1 - s->rot.at[0];
        size_t done = (i + 1) * k < x->steps ? (i + 1) * k : x->steps;
        if (cls__exec_progress_due(x, done, k) && (st = cls__exec_progress(x, done)) != CLS_SUCCESS)
            return st;
    }
    return CLS_SUCCESS;
}

cls_status cls__stream25d_run(cls__exec *x)
{
    const cls__s25 *c = x->config;
    /* The kernels are 3D whatever the stencil: 2D groups times z chunks. */
    if (c->n_stages) return cls__exec_stages(x, c->stage_kernel, 3, c->global, c->local, "stream25d stage");
    if (c->steps_per_pass > 1) return fused(x, c);
    return cls__exec_per_step(x, c->kernel, 3, c->global, c->local, "stream25d");
}
