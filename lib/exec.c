/* exec.c: what executors share: the first and last events, auxiliary arguments, progress
 * calls, launches, one launch per step over the state's two buffers, one launch per stage and
 * step over a system's rotating buffers, two sets of a system's buffers, and event times. */
#include "exec.h"

cl_event *cls__exec_event(cls__exec *x, size_t i, size_t n)
{
    return i == 0 ? &x->first : i + 1 == n ? &x->last : NULL;
}

cls_status cls__exec_set_aux_args(cls__exec *x, cl_kernel k, cl_uint first)
{
    for (size_t i = 0; i < x->state->n_aux; i++) {
        cl_int err = clSetKernelArg(k, first + (cl_uint)i, sizeof(cl_mem), &x->state->aux[i]);
        if (err != CL_SUCCESS)
            return cls__fail(x->ctx, (cls_status)err, "setting an auxiliary kernel argument");
    }
    return CLS_SUCCESS;
}

int cls__exec_progress_due(const cls__exec *x, size_t done, size_t chunk_steps)
{
    if (!x->progress || done >= x->steps) return 0;
    /* about 50 calls per run: the queue is drained for each */
    size_t every = x->total / 50 > chunk_steps ? x->total / 50 : chunk_steps;
    if (!every) every = 1;
    return (x->done_before + done) / every != (x->done_before + done - chunk_steps) / every;
}

cls_status cls__exec_progress(cls__exec *x, size_t done)
{
    cl_int err = clFinish(x->ctx->queue);
    if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "waiting for the device");
    if (x->progress(x->done_before + done, x->total, x->progress_user))
        return cls__fail(x->ctx, CLS_ERR_CANCELLED,
                         "run cancelled by the progress callback after %zu of %zu steps",
                         x->done_before + done, x->total);
    return CLS_SUCCESS;
}

cls_status cls__exec_launch(cls__exec *x, cl_kernel k, cl_uint work_dim, const size_t global[3],
                            const size_t local[3], cl_event *ev, const char *what)
{
    cl_int err = clEnqueueNDRangeKernel(x->ctx->queue, k, work_dim, NULL, global, local, 0, NULL,
                                        ev);
    if (err != CL_SUCCESS)
        return cls__fail(x->ctx, (cls_status)err,
                         "launching the %s kernel (work-group %zux%zux%zu, global %zux%zux%zu)",
                         what, local[0], local[1], local[2], global[0], global[1], global[2]);
    return CLS_SUCCESS;
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

cl_int cls__event_seconds(cl_event ev, double *seconds)
{
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    *seconds = err == CL_SUCCESS && t1 > t0 ? (double)(t1 - t0) * 1e-9 : 0.0;
    return err;
}

cls_status cls__exec_per_step(cls__exec *x, cl_kernel k, cl_uint work_dim,
                              const size_t global[3], const size_t local[3], const char *what)
{
    cls_state *s = x->state;
    cls_status st;
    if ((st = cls__exec_set_aux_args(x, k, 2)) != CLS_SUCCESS) return st;
    cl_uint step_arg = (cl_uint)(2 + s->n_aux);
    for (size_t t = 0; t < x->steps; t++) {
        cl_int step = (cl_int)(s->step + t);
        cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &s->buf[s->rot.at[0]]);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, 1, sizeof(cl_mem), &s->buf[1 - s->rot.at[0]]);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, step_arg, sizeof step, &step);
        if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
        if ((st = cls__exec_launch(x, k, work_dim, global, local, cls__exec_event(x, t, x->steps),
                                   what)) != CLS_SUCCESS)
            return st;
        s->rot.at[0] = 1 - s->rot.at[0];
        if (cls__exec_progress_due(x, t + 1, 1) && (st = cls__exec_progress(x, t + 1)) != CLS_SUCCESS)
            return st;
    }
    return CLS_SUCCESS;
}

cls_status cls__exec_stages(cls__exec *x, const cl_kernel *kernels, cl_uint work_dim,
                            const size_t global[3], const size_t local[3], const char *what)
{
    return cls__exec_stages_in_place(x, kernels, NULL, work_dim, global, local, what);
}

cls_status cls__exec_stages_in_place(cls__exec *x, const cl_kernel *kernels,
                                     const unsigned *in_place, cl_uint work_dim,
                                     const size_t global[3], const size_t local[3],
                                     const char *what)
{
    cls_state *s = x->state;
    const cls_stencil *st = x->st;
    cls_status r;
    const size_t n_launch = x->steps * st->n_stages;
    for (size_t t = 0; t < x->steps; t++) {
        cl_int step = (cl_int)(s->step + t);
        cls__rotation_step_begin(&s->rot);
        for (size_t g = 0; g < st->n_stages; g++) {
            cl_kernel k = kernels[g];
            const cls__stage *sg = &st->stages[g];
            cl_uint arg = 0;
            cl_int err = CL_SUCCESS;
            cls__rotation_stage_begin_in_place(&s->rot, st, g, in_place ? in_place[g] : 0);
            for (size_t f = 0; f < st->n_fields && err == CL_SUCCESS; f++)
                err = clSetKernelArg(k, arg++, sizeof(cl_mem), &s->buf[s->rot.at[f]]);
            /* An output updated in place is written through its field's argument, and PoCL
             * costs a launch tens of microseconds when one buffer is two of its arguments
             * (fdtd2d 256^2 on one thread: 4x slower), so its argument is NULL. */
            static const cl_mem none = NULL;
            for (size_t u = 0; u < sg->n && err == CL_SUCCESS; u++) {
                int f = sg->update[u].field;
                err = clSetKernelArg(k, arg++, sizeof(cl_mem),
                                     in_place && (in_place[g] >> f & 1u) ? &none
                                                                         : &s->buf[s->rot.out[f]]);
            }
            if (err != CL_SUCCESS)
                return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
            if ((r = cls__exec_set_aux_args(x, k, arg)) != CLS_SUCCESS) return r;
            arg += (cl_uint)s->n_aux;
            if ((err = clSetKernelArg(k, arg, sizeof step, &step)) != CL_SUCCESS)
                return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
            if ((r = cls__exec_launch(x, k, work_dim, global, local,
                                      cls__exec_event(x, t * st->n_stages + g, n_launch), what)) !=
                CLS_SUCCESS)
                return r;
            cls__rotation_stage_end(&s->rot);
        }
        cls__rotation_step_end(&s->rot, st);
        if (cls__exec_progress_due(x, t + 1, 1) && (r = cls__exec_progress(x, t + 1)) != CLS_SUCCESS)
            return r;
    }
    return CLS_SUCCESS;
}

cls_status cls__exec_field_sets(cls__exec *x, int set[2][CLS__MAX_FIELDS], const char *what)
{
    cls_state *s = x->state;
    size_t nf = s->n_fields, bytes = s->points * s->elem;
    for (size_t b = s->n_buf; b < 2 * nf; b++) {
        cl_int err = CL_SUCCESS;
        if (!s->buf[b]) s->buf[b] = clCreateBuffer(x->ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS)
            return cls__fail(x->ctx, (cls_status)err, "allocating a %zu-byte buffer for %s",
                             bytes, what);
        s->n_buf = b + 1;
    }
    int used[CLS__MAX_BUFS] = {0};
    for (size_t f = 0; f < nf; f++) {
        set[0][f] = s->rot.at[f];
        used[s->rot.at[f]] = 1;
    }
    int b = 0;
    for (size_t f = 0; f < nf; f++) {
        while (used[b]) b++;
        set[1][f] = b;
        used[b] = 1;
    }
    return CLS_SUCCESS;
}
