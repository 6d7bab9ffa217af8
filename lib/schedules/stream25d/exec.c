/* exec.c: the stream25d schedule's executor: one launch per pass over z, each streaming the
 * whole grid through one step (cl/stream25d.cl) or steps_per_pass steps (cl/stream25d_tb.cl),
 * over the state's two buffers; for a system one launch per stage and step (exec.h), or per
 * pass of fused steps over two sets of its buffers. */
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

/* Fused steps of a system (the fields its stage updates and, of one, its time levels): each
 * pass reads every field from one set of buffers and writes the other (cls__exec_field_sets), so
 * after it the state holds the fields after the pass's steps and each level the step before, as
 * that many single steps leave them (in other buffers than single steps would: the rotation
 * records where). */
static cls_status fused_levels(cls__exec *x, const cls__s25 *c)
{
    cls_state *s = x->state;
    const size_t k = c->steps_per_pass, passes = (x->steps + k - 1) / k;
    const size_t nf = c->levels + x->st->stages[0].n; /* updated fields, then time levels */
    int set[2][CLS__MAX_FIELDS];
    cls_status st;
    if ((st = cls__exec_field_sets(x, set, "the fused stream25d kernel's outputs")) != CLS_SUCCESS)
        return st;
    cl_uint aux_arg = (cl_uint)(2 * nf);
    if ((st = cls__exec_set_aux_args(x, c->kernel, aux_arg)) != CLS_SUCCESS) return st;
    cl_uint step_arg = aux_arg + (cl_uint)s->n_aux;
    for (size_t i = 0; i < passes; i++) {
        const int *from = set[i % 2], *to = set[(i + 1) % 2];
        cl_int step = (cl_int)(s->step + i * k);
        cl_int n = (cl_int)(x->steps - i * k < k ? x->steps - i * k : k);
        cl_int err = CL_SUCCESS;
        /* (per updated field, then per level: in, out) */
        for (size_t m = 0; m < nf && err == CL_SUCCESS; m++) {
            int f = c->fields[m];
            err = clSetKernelArg(c->kernel, (cl_uint)(2 * m), sizeof(cl_mem), &s->buf[from[f]]);
            if (err == CL_SUCCESS)
                err = clSetKernelArg(c->kernel, (cl_uint)(2 * m + 1), sizeof(cl_mem),
                                     &s->buf[to[f]]);
        }
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, step_arg, sizeof step, &step);
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, step_arg + 1, sizeof n, &n);
        if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
        if ((st = cls__exec_launch(x, c->kernel, 3, c->global, c->local,
                                   cls__exec_event(x, i, passes), "fused stream25d system")) !=
            CLS_SUCCESS)
            return st;
        for (size_t f = 0; f < s->n_fields; f++) s->rot.at[f] = to[f];
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
    if (c->steps_per_pass > 1)
        return cls__stencil_is_system(x->st) ? fused_levels(x, c) : fused(x, c);
    return cls__exec_per_step(x, c->kernel, 3, c->global, c->local, "stream25d");
}
