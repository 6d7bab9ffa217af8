/* exec.c: the trapezoid schedule's executor: stages of h steps, joined by kernel restarts or by
 * one persistent launch with an in-kernel global barrier (Meng & Skadron 2010, Sect. 4.5). */
#include "trapezoid.h"

void cls__trapezoid_set_height(cls__trapezoid *t, cls_dims dims, int sdims, size_t h)
{
    t->c.h = h;
    t->tiles = 1;
    for (int i = 0; i < sdims; i++) {
        size_t inner = t->c.tile[i] - 2 * h * t->halo[i];
        t->tiles *= (dims.n[i] + inner - 1) / inner;
    }
    /* One work-group per tile with restarts (tile t = group t along the first axis); with the
     * in-kernel barrier only as many groups as are surely resident at once: one per compute
     * unit (the tile fits one group's limits), each looping over tiles. */
    if (t->c.sync == CLS__TRAP_BARRIER) {
        t->groups = t->compute_units ? t->compute_units : 1;
        if (t->groups > t->tiles) t->groups = t->tiles;
    } else {
        t->groups = 0;
    }
    t->global[0] = (t->c.sync == CLS__TRAP_BARRIER ? t->groups : t->tiles) * t->local[0];
    t->global[1] = t->local[1];
    t->global[2] = t->local[2];
}

/* Sets the buffers of sets[first] then sets[1 - first] as arguments 0 .. 2 x fields - 1. */
static cl_int set_field_args(cls__exec *x, const cls__trapezoid *t, int set[2][CLS__MAX_FIELDS],
                             int first)
{
    cls_state *s = x->state;
    cl_int err = CL_SUCCESS;
    for (int k = 0; k < 2; k++)
        for (size_t f = 0; f < s->n_fields && err == CL_SUCCESS; f++)
            err = clSetKernelArg(t->kernel, (cl_uint)(k * s->n_fields + f), sizeof(cl_mem),
                                 &s->buf[set[k ? 1 - first : first][f]]);
    return err;
}

static cls_status run_restart_fields(cls__exec *x, const cls__trapezoid *t)
{
    cls_state *s = x->state;
    cls_status st;
    int set[2][CLS__MAX_FIELDS];
    size_t h = t->c.h, stages = (x->steps + h - 1) / h;
    cl_uint a = (cl_uint)(2 * s->n_fields);
    cl_int hh = (cl_int)h;
    if ((st = cls__exec_field_sets(x, set, "the trapezoid's second set of fields")) != CLS_SUCCESS)
        return st;
    cl_int err = clSetKernelArg(t->kernel, a + 2, sizeof hh, &hh);
    if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
    for (size_t k = 0; k < stages; k++) {
        cl_int step0 = (cl_int)(s->step + k * h);
        cl_int hs = (cl_int)(x->steps - k * h < h ? x->steps - k * h : h);
        err = set_field_args(x, t, set, (int)(k % 2));
        if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a, sizeof step0, &step0);
        if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a + 1, sizeof hs, &hs);
        if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
        if ((st = cls__exec_launch(x, t->kernel, 3, t->global, t->local,
                                   cls__exec_event(x, k, stages), "trapezoid")) != CLS_SUCCESS)
            return st;
        for (size_t f = 0; f < s->n_fields; f++) s->rot.at[f] = set[(k + 1) % 2][f];
        size_t done = (k + 1) * h < x->steps ? (k + 1) * h : x->steps;
        if (cls__exec_progress_due(x, done, h) && (st = cls__exec_progress(x, done)) != CLS_SUCCESS)
            return st;
    }
    return CLS_SUCCESS;
}

static cls_status run_restart(cls__exec *x, const cls__trapezoid *t)
{
    cls_state *s = x->state;
    cls_status st;
    cl_int err;
    size_t h = t->c.h, stages = (x->steps + h - 1) / h;
    cl_uint a = (cl_uint)(2 + s->n_aux);
    cl_int hh = (cl_int)h;
    err = clSetKernelArg(t->kernel, a + 2, sizeof hh, &hh);
    if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
    for (size_t k = 0; k < stages; k++) {
        cl_int step0 = (cl_int)(s->step + k * h);
        cl_int hs = (cl_int)(x->steps - k * h < h ? x->steps - k * h : h);
        err = clSetKernelArg(t->kernel, 0, sizeof(cl_mem), &s->buf[s->rot.at[0]]);
        if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, 1, sizeof(cl_mem), &s->buf[1 - s->rot.at[0]]);
        if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a, sizeof step0, &step0);
        if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a + 1, sizeof hs, &hs);
        if (err != CL_SUCCESS) return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
        err = clEnqueueNDRangeKernel(x->ctx->queue, t->kernel, 3, NULL, t->global, t->local, 0,
                                     NULL, cls__exec_event(x, k, stages));
        if (err != CL_SUCCESS)
            return cls__fail(x->ctx, (cls_status)err,
                             "launching the trapezoid kernel (tile %zux%zux%zu, work-group "
                             "%zux%zux%zu, %zu tiles)",
                             t->c.tile[0], t->c.tile[1], t->c.tile[2], t->local[0], t->local[1],
                             t->local[2], t->tiles);
        s->rot.at[0] = 1 - s->rot.at[0];
        size_t done = (k + 1) * h < x->steps ? (k + 1) * h : x->steps;
        if (cls__exec_progress_due(x, done, h) && (st = cls__exec_progress(x, done)) != CLS_SUCCESS)
            return st;
    }
    return CLS_SUCCESS;
}

static cls_status run_barrier(cls__exec *x, const cls__trapezoid *t)
{
    cls_state *s = x->state;
    cls_status st = CLS_SUCCESS;
    cl_int err, zero = 0, status = 0;
    size_t stages = (x->steps + t->c.h - 1) / t->c.h;
    cl_mem counters = NULL, flag = NULL;
    counters = clCreateBuffer(x->ctx->cl, CL_MEM_READ_WRITE, stages * sizeof(cl_int), NULL, &err);
    CLS__CHECK_CL(x->ctx, st, err, "allocating the barrier counters");
    flag = clCreateBuffer(x->ctx->cl, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
    CLS__CHECK_CL(x->ctx, st, err, "allocating the barrier status");
    err = clEnqueueFillBuffer(x->ctx->queue, counters, &zero, sizeof zero, 0,
                              stages * sizeof(cl_int), 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(x->ctx->queue, flag, &zero, sizeof zero, 0, sizeof zero, 0, NULL,
                                  NULL);
    CLS__CHECK_CL(x->ctx, st, err, "clearing the barrier counters");
    int sys = cls__stencil_is_system(x->st), set[2][CLS__MAX_FIELDS];
    /* one field: (buf0, buf1, aux.., counters, ...); a system: (a.., b.., counters, ..., aux..) */
    cl_uint a = sys ? (cl_uint)(2 * s->n_fields) : (cl_uint)(2 + s->n_aux);
    cl_int step0 = (cl_int)s->step, steps = (cl_int)x->steps, h = (cl_int)t->c.h;
    /* The kernel alternates from buf0: the current state goes first. */
    if (sys) {
        if ((st = cls__exec_field_sets(x, set, "the trapezoid's second set of fields")) !=
            CLS_SUCCESS)
            goto fail;
        err = set_field_args(x, t, set, 0);
    } else {
        err = clSetKernelArg(t->kernel, 0, sizeof(cl_mem), &s->buf[s->rot.at[0]]);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(t->kernel, 1, sizeof(cl_mem), &s->buf[1 - s->rot.at[0]]);
    }
    if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a, sizeof(cl_mem), &counters);
    if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a + 1, sizeof(cl_mem), &flag);
    if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a + 2, sizeof step0, &step0);
    if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a + 3, sizeof steps, &steps);
    if (err == CL_SUCCESS) err = clSetKernelArg(t->kernel, a + 4, sizeof h, &h);
    CLS__CHECK_CL(x->ctx, st, err, "setting kernel arguments");
    err = clEnqueueNDRangeKernel(x->ctx->queue, t->kernel, 3, NULL, t->global, t->local, 0, NULL,
                                 &x->first);
    CLS__CHECK_CL(x->ctx, st, err, "launching the persistent trapezoid kernel");
    err = clEnqueueReadBuffer(x->ctx->queue, flag, CL_TRUE, 0, sizeof status, &status, 0, NULL,
                              NULL);
    CLS__CHECK_CL(x->ctx, st, err, "reading the barrier status");
    if (status)
        CLS__GOTO_FAIL(x->ctx, st, CLS_ERR_UNSUPPORTED,
                       "the in-kernel barrier gave up: the %zu work-groups were not all resident "
                       "at once on '%s'; use kernel-restart synchronisation",
                       t->groups, x->ctx->info.name);
    if (stages % 2 && sys)
        for (size_t f = 0; f < s->n_fields; f++) s->rot.at[f] = set[1][f];
    else if (stages % 2)
        s->rot.at[0] = 1 - s->rot.at[0];
fail:
    if (counters) clReleaseMemObject(counters);
    if (flag) clReleaseMemObject(flag);
    return st;
}

cls_status cls__trapezoid_run(cls__exec *x)
{
    const cls__trapezoid *t = x->config;
    /* A system's kernels take the auxiliary arrays last (cl/trapezoid.cl). */
    size_t nf = x->state->n_fields;
    cl_uint aux = !cls__stencil_is_system(x->st)        ? 2
                  : t->c.sync == CLS__TRAP_BARRIER ? (cl_uint)(2 * nf + 5)
                                                   : (cl_uint)(2 * nf + 3);
    cls_status s = cls__exec_set_aux_args(x, t->kernel, aux);
    if (s != CLS_SUCCESS || !x->steps) return s;
    if (t->c.sync == CLS__TRAP_BARRIER) return run_barrier(x, t);
    return cls__stencil_is_system(x->st) ? run_restart_fields(x, t) : run_restart(x, t);
}
