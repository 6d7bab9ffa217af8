/* plan_run.c: runs: a plan advances a state by any number of steps with the configuration for
 * the state's residency, and runs host arrays through the device (through the host schedule, or
 * by copying the grid into a state kept on the plan, advancing it and copying it out). */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* ---------------------------------------------------------------- advancing */
/* One call of configuration c's run operation for `steps` steps of a run of `total`. */
static void exec_init(cls__exec *x, const cls_plan *p, const cls__candidate *c, size_t steps,
                      size_t total)
{
    memset(x, 0, sizeof *x);
    x->ctx = p->ctx;
    x->st = p->st;
    x->dims = p->dims;
    x->points = p->points;
    x->elem = p->elem;
    x->config = c->config;
    x->steps = steps;
    x->keep_buffers = !p->release_buffers;
    x->progress = p->progress;
    x->progress_user = p->progress_user;
    x->total = total;
}

static cls_status check_state(const cls_plan *p, const cls_state *s)
{
    if (s->ctx != p->ctx)
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "the state belongs to another context than the plan");
    if (s->dims != p->st->dims || memcmp(&s->size, &p->dims, sizeof s->size) ||
        s->dtype != p->st->dtype || s->n_aux != p->st->n_aux ||
        s->n_fields != cls_stencil_num_fields(p->st))
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "the state holds a %dD %zux%zux%zu %s grid of %zu field%s with %zu "
                         "auxiliary arrays; the plan's '%s' runs a %dD %zux%zux%zu %s grid of "
                         "%zu with %zu",
                         s->dims, s->size.n[0], s->size.n[1], s->size.n[2],
                         s->dtype == CLS_FLOAT64 ? "double" : "float", s->n_fields,
                         s->n_fields == 1 ? "" : "s", s->n_aux, p->st->name, p->st->dims,
                         p->dims.n[0], p->dims.n[1], p->dims.n[2],
                         p->st->dtype == CLS_FLOAT64 ? "double" : "float",
                         cls_stencil_num_fields(p->st), p->st->n_aux);
    if (!s->written)
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "the state holds no field: write it first (a failed advance leaves it "
                         "empty)");
    for (size_t k = 0; k < s->n_aux; k++)
        if (!s->aux_written[k])
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "auxiliary array %zu ('%s') of the state was never written "
                             "(cls_state_write_aux)",
                             k, p->st->aux[k].name);
    const cls__candidate *c = s->host ? &p->host : &p->resident;
    if (!c->ops)
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED,
                         s->host ? "the state lives in host memory and the plan has no host "
                                   "schedule to run it"
                                 : "the plan has no device-resident configuration: %s",
                         p->why);
    return CLS_SUCCESS;
}

cls_status cls__plan_advance(cls_plan *p, cls_state *s, size_t steps, size_t done_before,
                             size_t total, double *kernel_seconds)
{
    cls_status st = check_state(p, s);
    if (st != CLS_SUCCESS) return st;
    if (s->step + steps > 2147483647u || s->step + steps < s->step)
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "steps: the state is at step %zu; %zu more pass 2^31-1", s->step, steps);
    for (size_t k = 0; k < s->n_aux; k++)
        if (s->per_step[k] && s->step + steps > s->slices[k])
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "the per-step array '%s' holds %zu steps; the state is at step %zu "
                             "and %zu more were asked for",
                             p->st->aux[k].name, s->slices[k], s->step, steps);
    *kernel_seconds = 0;
    if (!steps) return CLS_SUCCESS;
    const cls__candidate *c = s->host ? &p->host : &p->resident;
    cls__exec x;
    exec_init(&x, p, c, steps, total);
    x.state = s;
    x.done_before = done_before;
    st = c->ops->run(&x);
    if (st == CLS_SUCCESS) {
        cl_int err = clFinish(p->ctx->queue);
        if (err != CL_SUCCESS) st = cls__fail(p->ctx, (cls_status)err, "waiting for the device");
    }
    if (st == CLS_SUCCESS) {
        *kernel_seconds = x.timed ? x.kernel_seconds : cls__event_span(x.first, x.last ? x.last : x.first);
        s->step += steps;
    } else {
        clFinish(p->ctx->queue);
        s->written = 0;
        memset(s->field_written, 0, sizeof s->field_written);
    }
    if (x.first) clReleaseEvent(x.first);
    if (x.last) clReleaseEvent(x.last);
    return st;
}

static void fill_report(const cls_plan *p, const cls__candidate *c, cls_report *r,
                        size_t steps, double t_start, double kernel_seconds)
{
    if (!r) return;
    r->schedule = c->ops ? (cls_schedule)c->ops->id : CLS_SCHEDULE_AUTO;
    r->steps = steps;
    r->seconds_total = cls__now() - t_start;
    r->seconds_kernels = kernel_seconds;
    /* the plan's own prediction for a run of its steps (scaling would round it off by an ulp),
     * else in proportion */
    if (p->steps && c->seconds > 0)
        r->predicted_seconds =
            steps == p->steps ? c->seconds : c->seconds * (double)steps / (double)p->steps;
    if (steps) {
        r->seconds_per_step = kernel_seconds / (double)steps;
        if (kernel_seconds > 0)
            r->gpoints_per_s = (double)p->points * (double)steps / kernel_seconds / 1e9;
    }
}

cls_status cls_plan_advance(cls_plan *p, cls_state *s, size_t steps, cls_report *report)
{
    if (!p || !s)
        return cls__fail(p ? p->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_plan_advance: plan and state are required");
    if (report) memset(report, 0, sizeof *report);
    double t0 = cls__now(), ks = 0;
    cls_status st = cls__plan_advance(p, s, steps, 0, steps, &ks);
    if (st != CLS_SUCCESS) return st;
    if (p->progress && steps) p->progress(steps, steps, p->progress_user);
    fill_report(p, s->host ? &p->host : &p->resident, report, steps, t0, ks);
    return CLS_SUCCESS;
}

/* ---------------------------------------------------------------- host arrays */
/* Through the host schedule: it reads the inputs and writes the outputs itself. */
static cls_status run_host(cls_plan *p, const void *const *input, const void *const *aux,
                           void *const *output, cls_report *report)
{
    cls__exec x;
    double t0 = cls__now();
    exec_init(&x, p, &p->host, p->steps, p->steps);
    x.input = input;
    x.aux = aux;
    x.output = output;
    cls_status s = p->host.ops->run(&x);
    if (x.first) clReleaseEvent(x.first);
    if (x.last) clReleaseEvent(x.last);
    if (s != CLS_SUCCESS) return s;
    if (p->progress) p->progress(p->steps, p->steps, p->progress_user);
    fill_report(p, &p->host, report, p->steps, t0, x.kernel_seconds);
    if (report) {
        report->predicted_total_seconds = p->predicted_total;
        report->allocated = x.allocated;
        if (x.allocated && p->predicted_total > 0) report->predicted_total_seconds += p->predicted_alloc;
    }
    return CLS_SUCCESS;
}

/* Copy in, advance resident, copy out, on the state the plan keeps between runs. */
static cls_status run_resident(cls_plan *p, const void *const *input, const void *const *aux,
                               void *const *output, cls_report *report)
{
    double t0 = cls__now(), ks = 0;
    cls_state *s = p->kept;
    cls_status st = CLS_SUCCESS;
    int allocated = 0;
    p->kept = NULL; /* out of the plan while in use: a failure frees it */
    if (!s) {
        if ((st = cls_state_create(p, &s)) != CLS_SUCCESS) return st;
        allocated = 1;
    }
    const size_t n_fields = cls_stencil_num_fields(p->st);
    for (size_t f = 0; f < n_fields && st == CLS_SUCCESS; f++)
        st = cls_state_write_field(s, f, input[f]);
    for (size_t k = 0; k < p->st->n_aux && st == CLS_SUCCESS; k++)
        st = cls_state_write_aux(s, k, aux[k], p->st->aux[k].per_step ? (p->steps ? p->steps : 1) : 1);
    if (st == CLS_SUCCESS) st = cls__plan_advance(p, s, p->steps, 0, p->steps, &ks);
    /* Every field is read before any output is written: an output may be an input, and a
     * failed read must leave the outputs as they were (host memory for the fields first). */
    void *tmp[CLS__MAX_FIELDS] = {NULL};
    for (size_t f = 0; f < n_fields && st == CLS_SUCCESS; f++)
        if (n_fields > 1 && !(tmp[f] = malloc(p->points * p->elem)))
            st = cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "reading the fields back");
    for (size_t f = 0; f < n_fields && st == CLS_SUCCESS; f++)
        st = cls_state_read_field(s, f, n_fields > 1 ? tmp[f] : output[f]);
    for (size_t f = 0; f < n_fields && st == CLS_SUCCESS && n_fields > 1; f++)
        memcpy(output[f], tmp[f], p->points * p->elem);
    for (size_t f = 0; f < n_fields; f++) free(tmp[f]);
    if (st != CLS_SUCCESS) {
        cls_state_release(s);
        return st;
    }
    if (p->progress) p->progress(p->steps, p->steps, p->progress_user);
    fill_report(p, &p->resident, report, p->steps, t0, ks);
    if (report) {
        report->predicted_total_seconds = p->predicted_copy;
        report->allocated = allocated;
        if (allocated && p->predicted_copy > 0) report->predicted_total_seconds += p->predicted_alloc;
    }
    if (p->release_buffers)
        cls_state_release(s);
    else
        p->kept = s;
    return CLS_SUCCESS;
}

cls_status cls_plan_run(cls_plan *p, const void *input, const void *const *aux, void *output,
                        cls_report *report)
{
    if (!p || !input || !output)
        return cls__fail(p ? p->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_plan_run: plan, input and output are required");
    if (cls__stencil_is_system(p->st))
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_plan_run: '%s' is a system of %zu fields: use cls_plan_run_fields",
                         p->st->name, p->st->n_fields);
    const void *in[1] = {input};
    void *out[1] = {output};
    return cls_plan_run_fields(p, in, aux, out, report);
}

cls_status cls_plan_run_fields(cls_plan *p, const void *const *input, const void *const *aux,
                               void *const *output, cls_report *report)
{
    if (!p || !input || !output)
        return cls__fail(p ? p->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_plan_run: plan, input and output are required");
    for (size_t f = 0; f < cls_stencil_num_fields(p->st); f++)
        if (!input[f] || !output[f])
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "cls_plan_run: no host array for field %zu ('%s')", f,
                             cls_stencil_field_name(p->st, f));
    for (size_t k = 0; k < p->st->n_aux; k++)
        if (!aux || !aux[k])
            return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                             "cls_plan_run: stencil '%s' needs auxiliary array %zu ('%s')",
                             p->st->name, k, p->st->aux[k].name);
    if (report) memset(report, 0, sizeof *report);
    if (p->host.ops) return run_host(p, input, aux, output, report);
    return run_resident(p, input, aux, output, report);
}
