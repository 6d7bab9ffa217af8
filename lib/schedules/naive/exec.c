/* exec.c: the naive schedule's executor: one launch per step over the state's two buffers, or
 * for a system one launch per stage and step over its rotating buffers (exec.h). */
#include "naive.h"

cls_status cls__naive_run(cls__exec *x)
{
    const cls__naive *c = x->config;
    if (c->n_stages)
        return cls__exec_stages_in_place(x, c->stage_kernel, c->in_place, (cl_uint)x->st->dims,
                                         c->global, c->local, "naive stage");
    return cls__exec_per_step(x, c->kernel, (cl_uint)x->st->dims, c->global, c->local, "naive");
}
