/* exec.c: the cputile schedule's executor: one launch per pass of up to `height` steps from
 * the state's fields into their partner buffers, each pass with its own tile counter; the
 * work-groups' scratch boxes and the counters are allocated by the first run and kept with the
 * configuration.  A single field's kernel takes (in, out, aux.., scratch, counters, pass,
 * step0, steps), a system's (in0.., out0.., scratch, counters, pass, step0, steps, aux..), as
 * the trapezoid's system kernels. */
#include "cputile.h"

/* Allocates the scratch and a zeroed tile counter for each of `passes` passes. */
static cls_status prepare(cls__exec *x, cls__cputile *c, size_t passes)
{
    cl_int err = CL_SUCCESS;
    if (!c->scratch) {
        size_t bytes = c->groups * c->boxes * c->box * x->elem;
        c->scratch = clCreateBuffer(x->ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS) {
            c->scratch = NULL;
            return cls__fail(x->ctx, (cls_status)err,
                             "allocating the cputile scratch (%zu groups of %zu x %zu points, "
                             "%zu bytes)",
                             c->groups, c->boxes, c->box, bytes);
        }
    }
    if (c->counters < passes) {
        if (c->counter) clReleaseMemObject(c->counter);
        c->counters = 0;
        c->counter = clCreateBuffer(x->ctx->cl, CL_MEM_READ_WRITE, passes * sizeof(cl_int), NULL,
                                    &err);
        if (err != CL_SUCCESS) {
            c->counter = NULL;
            return cls__fail(x->ctx, (cls_status)err, "allocating %zu tile counters", passes);
        }
        c->counters = passes;
    }
    const cl_int zero = 0;
    err = clEnqueueFillBuffer(x->ctx->queue, c->counter, &zero, sizeof zero, 0,
                              passes * sizeof zero, 0, NULL, NULL);
    if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "zeroing the tile counters");
    return CLS_SUCCESS;
}

cls_status cls__cputile_run(cls__exec *x)
{
    cls__cputile *c = x->config;
    cls_state *s = x->state;
    const int sys = cls__stencil_is_system(x->st);
    const size_t nf = s->n_fields, h = c->height, passes = (x->steps + h - 1) / h;
    int set[2][CLS__MAX_FIELDS];
    cls_status st;
    if (!x->steps) return CLS_SUCCESS;
    if ((st = prepare(x, c, passes)) != CLS_SUCCESS) return st;
    if (sys && (st = cls__exec_field_sets(x, set, "the cputile schedule's second set of fields")) !=
                   CLS_SUCCESS)
        return st;
    /* the scratch, the counters, pass, step0, steps: after the fields (and a single field's
     * auxiliary arrays) */
    const cl_uint a = sys ? (cl_uint)(2 * nf) : (cl_uint)(2 + s->n_aux);
    if ((st = cls__exec_set_aux_args(x, c->kernel, sys ? a + 5 : 2)) != CLS_SUCCESS) return st;
    cl_int err = clSetKernelArg(c->kernel, a, sizeof(cl_mem), &c->scratch);
    if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, a + 1, sizeof(cl_mem), &c->counter);
    if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
    const size_t global[3] = {c->groups, 1, 1}, local[3] = {1, 1, 1};
    for (size_t k = 0; k < passes; k++) {
        cl_int step0 = (cl_int)(s->step + k * h);
        cl_int n = (cl_int)(x->steps - k * h < h ? x->steps - k * h : h);
        cl_int pass = (cl_int)k;
        if (sys) {
            /* passes alternate between the two sets of the fields' buffers */
            for (size_t i = 0; i < 2 * nf && err == CL_SUCCESS; i++)
                err = clSetKernelArg(c->kernel, (cl_uint)i, sizeof(cl_mem),
                                     &s->buf[set[(i / nf + k) % 2][i % nf]]);
        } else {
            err = clSetKernelArg(c->kernel, 0, sizeof(cl_mem), &s->buf[s->rot.at[0]]);
            if (err == CL_SUCCESS)
                err = clSetKernelArg(c->kernel, 1, sizeof(cl_mem), &s->buf[1 - s->rot.at[0]]);
        }
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, a + 2, sizeof pass, &pass);
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, a + 3, sizeof step0, &step0);
        if (err == CL_SUCCESS) err = clSetKernelArg(c->kernel, a + 4, sizeof n, &n);
        if (err != CL_SUCCESS)
            return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
        if ((st = cls__exec_launch(x, c->kernel, 1, global, local, cls__exec_event(x, k, passes),
                                   "cputile")) != CLS_SUCCESS)
            return st;
        if (sys)
            for (size_t f = 0; f < nf; f++) s->rot.at[f] = set[(k + 1) % 2][f];
        else
            s->rot.at[0] = 1 - s->rot.at[0];
        size_t done = (k + 1) * h < x->steps ? (k + 1) * h : x->steps;
        if (cls__exec_progress_due(x, done, h) && (st = cls__exec_progress(x, done)) != CLS_SUCCESS)
            return st;
    }
    return CLS_SUCCESS;
}
