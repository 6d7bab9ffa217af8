/* exec.c: the naive schedule's executor: one launch per step over the state's two buffers. */
#include "naive.h"

cls_status cls__naive_run(cls__exec *x)
{
    const cls__naive *c = x->config;
    return cls__exec_per_step(x, c->kernel, (cl_uint)x->st->dims, c->global, c->local, "naive");
}
