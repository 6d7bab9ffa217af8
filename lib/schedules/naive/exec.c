/* exec.c: the naive schedule's executor: one launch per step over the state's two buffers, or
 * for a system one launch per stage and step over its rotating buffers (exec.h). */
#include "naive.h"

/* kernel(fields..., outputs..., aux..., step) for every stage of every step. */
static cls_status run_system(cls__exec *x, const cls__naive *c)
{
    cls_state *s = x->state;
    const cls_stencil *st = x->st;
    cls_status r;
    const size_t n_launch = x->steps * c->n_stages;
    for (size_t t = 0; t < x->steps; t++) {
        cl_int step = (cl_int)(s->step + t);
        cls__rotation_step_begin(&s->rot);
        for (size_t g = 0; g < c->n_stages; g++) {
            cl_kernel k = c->stage_kernel[g];
            const cls__stage *sg = &st->stages[g];
            cl_uint arg = 0;
            cl_int err = CL_SUCCESS;
            cls__rotation_stage_begin(&s->rot, st, g);
            for (size_t f = 0; f < st->n_fields && err == CL_SUCCESS; f++)
                err = clSetKernelArg(k, arg++, sizeof(cl_mem), &s->buf[s->rot.at[f]]);
            for (size_t u = 0; u < sg->n && err == CL_SUCCESS; u++)
                err = clSetKernelArg(k, arg++, sizeof(cl_mem),
                                     &s->buf[s->rot.out[sg->update[u].field]]);
            if (err != CL_SUCCESS)
                return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
            if ((r = cls__exec_set_aux_args(x, k, arg)) != CLS_SUCCESS) return r;
            arg += (cl_uint)s->n_aux;
            if ((err = clSetKernelArg(k, arg, sizeof step, &step)) != CL_SUCCESS)
                return cls__fail(x->ctx, (cls_status)err, "setting kernel arguments");
            if ((r = cls__exec_launch(x, k, (cl_uint)st->dims, c->global, c->local,
                                      cls__exec_event(x, t * c->n_stages + g, n_launch),
                                      "naive stage")) != CLS_SUCCESS)
                return r;
            cls__rotation_stage_end(&s->rot);
        }
        cls__rotation_step_end(&s->rot, st);
        if (cls__exec_progress_due(x, t + 1, 1) && (r = cls__exec_progress(x, t + 1)) != CLS_SUCCESS)
            return r;
    }
    return CLS_SUCCESS;
}

cls_status cls__naive_run(cls__exec *x)
{
    const cls__naive *c = x->config;
    if (c->n_stages) return run_system(x, c);
    return cls__exec_per_step(x, c->kernel, (cl_uint)x->st->dims, c->global, c->local, "naive");
}
