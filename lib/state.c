/* state.c: states: a run's field and auxiliary arrays kept between calls, on the device (or in
 * pinned host memory for grids above the device's, which host schedules run tile by tile). */
#include <stdlib.h>
#include <string.h>

#include "clstencil_cl.h"
#include "plan.h"

static cls_status state_new(cls_plan *p, cls_state **out)
{
    cls_state *s = calloc(1, sizeof *s);
    if (!s) return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "state");
    s->ctx = p->ctx;
    s->dims = p->st->dims;
    s->size = p->dims;
    s->dtype = p->st->dtype;
    s->points = p->points;
    s->elem = p->elem;
    s->host = p->resident.ops == NULL;
    s->n_aux = p->st->n_aux;
    if (s->n_aux > CLS__MAX_AUX) {
        free(s);
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED, "a state holds at most %d auxiliary arrays",
                         CLS__MAX_AUX);
    }
    for (size_t k = 0; k < s->n_aux; k++) s->per_step[k] = p->st->aux[k].per_step;
    s->n_fields = cls_stencil_num_fields(p->st);
    cls__rotation_init(&s->rot, p->st);
    s->n_buf = s->rot.n_bufs;
    /* A host schedule sweeps every field from one array into another that no field occupies
     * (tiles read their neighbours' rows of the sweep's start). */
    if (s->host && s->n_buf < 2 * s->n_fields) s->n_buf = 2 * s->n_fields;
    *out = s;
    return CLS_SUCCESS;
}

static cls_status alloc_field(cls_state *s, int i)
{
    size_t bytes = s->points * s->elem;
    if (s->host) {
        cls_status st = cls_host_alloc(s->ctx, bytes, &s->hbuf[i]);
        return st;
    }
    cl_int err;
    s->buf[i] = clCreateBuffer(s->ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return cls__fail(s->ctx, (cls_status)err,
                         "allocating a %zu-byte field buffer on the device", bytes);
    return CLS_SUCCESS;
}

cls_status cls_state_create(cls_plan *p, cls_state **out)
{
    cls_state *s = NULL;
    cls_status st;
    if (!p || !out) return cls__fail(p ? p->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                                     "cls_state_create: NULL argument");
    *out = NULL;
    if ((st = state_new(p, &s)) != CLS_SUCCESS) return st;
    for (size_t i = 0; i < s->n_buf && st == CLS_SUCCESS; i++) st = alloc_field(s, (int)i);
    if (st != CLS_SUCCESS) {
        cls_state_release(s);
        return st;
    }
    s->allocated = 1;
    *out = s;
    return CLS_SUCCESS;
}

cls_status cls_state_wrap(cls_plan *p, cl_mem field, cls_state **out)
{
    cls_state *s = NULL;
    cls_status st;
    cl_context c = NULL;
    size_t size = 0;
    if (!p || !field || !out)
        return cls__fail(p ? p->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_wrap: NULL argument");
    *out = NULL;
    if (!p->resident.ops)
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED,
                         "cls_state_wrap: the plan has no device-resident configuration (%s)",
                         p->why);
    cl_int err = clGetMemObjectInfo(field, CL_MEM_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS) err = clGetMemObjectInfo(field, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return cls__fail(p->ctx, (cls_status)err, "cls_state_wrap: the buffer is not readable");
    if (c != p->ctx->cl)
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_wrap: the buffer belongs to another OpenCL context (create "
                         "the library's context with cls_context_create_from_cl)");
    if (size < p->points * p->elem)
        return cls__fail(p->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_wrap: the buffer holds %zu bytes; the %zux%zux%zu grid needs "
                         "%zu",
                         size, p->dims.n[0], p->dims.n[1], p->dims.n[2], p->points * p->elem);
    if (cls__stencil_is_system(p->st))
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED,
                         "cls_state_wrap: '%s' is a system of %zu fields; a wrapped buffer "
                         "holds one field",
                         p->st->name, p->st->n_fields);
    if ((st = state_new(p, &s)) != CLS_SUCCESS) return st;
    if ((err = clRetainMemObject(field)) != CL_SUCCESS) {
        cls_state_release(s);
        return cls__fail(p->ctx, (cls_status)err, "cls_state_wrap: retaining the buffer");
    }
    s->buf[0] = field;
    s->wrapped = 1;
    if ((st = alloc_field(s, 1)) != CLS_SUCCESS) {
        cls_state_release(s);
        return st;
    }
    s->written = 1;
    s->field_written[0] = 1;
    *out = s;
    return CLS_SUCCESS;
}

void cls_state_release(cls_state *s)
{
    if (!s) return;
    for (size_t i = 0; i < CLS__MAX_BUFS; i++) {
        if (s->buf[i]) clReleaseMemObject(s->buf[i]);
        if (s->hbuf[i]) cls_host_free(s->ctx, s->hbuf[i]);
    }
    for (size_t k = 0; k < s->n_aux; k++) {
        if (s->aux[k]) clReleaseMemObject(s->aux[k]);
        if (s->haux[k]) cls_host_free(s->ctx, s->haux[k]);
    }
    free(s);
}

/* Writes field f into the buffer that holds it. */
static cls_status write_field(cls_state *s, size_t f, const void *data)
{
    size_t bytes = s->points * s->elem;
    int b = s->rot.at[f];
    if (s->host) {
        memcpy(s->hbuf[b], data, bytes);
    } else {
        cl_int err = clEnqueueWriteBuffer(s->ctx->queue, s->buf[b], CL_TRUE, 0, bytes, data, 0,
                                          NULL, NULL);
        if (err != CL_SUCCESS) {
            s->written = 0;
            memset(s->field_written, 0, sizeof s->field_written);
            return cls__fail(s->ctx, (cls_status)err, "copying field %zu to the device", f);
        }
    }
    s->field_written[f] = 1;
    s->written = 1;
    for (size_t g = 0; g < s->n_fields; g++) s->written &= s->field_written[g];
    s->step = 0;
    return CLS_SUCCESS;
}

cls_status cls_state_write(cls_state *s, const void *field)
{
    if (!s || !field)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write: NULL argument");
    if (s->n_fields > 1)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write: the state holds %zu fields; write each with "
                         "cls_state_write_field",
                         s->n_fields);
    return write_field(s, 0, field);
}

cls_status cls_state_write_field(cls_state *s, size_t f, const void *data)
{
    if (!s || !data)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write_field: NULL argument");
    if (f >= s->n_fields)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write_field: the state holds %zu field%s, not %zu",
                         s->n_fields, s->n_fields == 1 ? "" : "s", f + 1);
    return write_field(s, f, data);
}

cls_status cls_state_write_aux(cls_state *s, size_t k, const void *data, size_t slices)
{
    if (!s || !data)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write_aux: NULL argument");
    if (k >= s->n_aux)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write_aux: the stencil has %zu auxiliary arrays, not %zu",
                         s->n_aux, k + 1);
    if (!s->per_step[k]) slices = 1;
    if (slices == 0 || slices > ((size_t)-1) / 2 / (s->points * s->elem))
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_write_aux: %zu grids of the per-step array %zu", slices, k);
    size_t bytes = slices * s->points * s->elem;
    if (s->slices[k] != slices) {
        if (s->aux[k]) clReleaseMemObject(s->aux[k]);
        if (s->haux[k]) cls_host_free(s->ctx, s->haux[k]);
        s->aux[k] = NULL;
        s->haux[k] = NULL;
        s->slices[k] = 0;
        s->aux_written[k] = 0;
        if (s->host) {
            cls_status st = cls_host_alloc(s->ctx, bytes, &s->haux[k]);
            if (st != CLS_SUCCESS) return st;
        } else {
            cl_int err;
            s->aux[k] = clCreateBuffer(s->ctx->cl, CL_MEM_READ_ONLY, bytes, NULL, &err);
            if (err != CL_SUCCESS)
                return cls__fail(s->ctx, (cls_status)err,
                                 "allocating a %zu-byte auxiliary buffer on the device", bytes);
        }
        s->slices[k] = slices;
    }
    if (s->host) {
        memcpy(s->haux[k], data, bytes);
    } else {
        cl_int err = clEnqueueWriteBuffer(s->ctx->queue, s->aux[k], CL_TRUE, 0, bytes, data, 0,
                                          NULL, NULL);
        if (err != CL_SUCCESS) {
            s->aux_written[k] = 0;
            return cls__fail(s->ctx, (cls_status)err, "copying an auxiliary array to the device");
        }
    }
    s->aux_written[k] = 1;
    return CLS_SUCCESS;
}

static cls_status read_field(const cls_state *s, size_t f, void *data)
{
    if (!s->written)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_read: the state holds no field (write %s first; a failed "
                         "advance leaves it empty)",
                         s->n_fields > 1 ? "every field" : "it");
    size_t bytes = s->points * s->elem;
    int b = s->rot.at[f];
    if (s->host) {
        memcpy(data, s->hbuf[b], bytes);
        return CLS_SUCCESS;
    }
    cl_int err = clEnqueueReadBuffer(s->ctx->queue, s->buf[b], CL_TRUE, 0, bytes, data, 0, NULL,
                                     NULL);
    if (err != CL_SUCCESS)
        return cls__fail(s->ctx, (cls_status)err, "reading field %zu back from the device", f);
    return CLS_SUCCESS;
}

cls_status cls_state_read(const cls_state *s, void *field)
{
    if (!s || !field)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_read: NULL argument");
    if (s->n_fields > 1)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_read: the state holds %zu fields; read each with "
                         "cls_state_read_field",
                         s->n_fields);
    return read_field(s, 0, field);
}

cls_status cls_state_read_field(const cls_state *s, size_t f, void *data)
{
    if (!s || !data)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_read_field: NULL argument");
    if (f >= s->n_fields)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_read_field: the state holds %zu field%s, not %zu",
                         s->n_fields, s->n_fields == 1 ? "" : "s", f + 1);
    return read_field(s, f, data);
}

size_t cls_state_step(const cls_state *s) { return s ? s->step : 0; }

cls_status cls_state_set_step(cls_state *s, size_t step)
{
    if (!s) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_state_set_step: NULL state");
    if (step > 2147483647u)
        return cls__fail(s->ctx, CLS_ERR_INVALID_ARGUMENT, "step: at most 2^31-1, got %zu", step);
    s->step = step;
    return CLS_SUCCESS;
}

cls_status cls_state_mem(const cls_state *s, cl_mem *field)
{
    if (!s || !field)
        return cls__fail(s ? s->ctx : NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_state_mem: NULL argument");
    if (s->host)
        return cls__fail(s->ctx, CLS_ERR_UNSUPPORTED,
                         "cls_state_mem: the state lives in host memory (its grid is above the "
                         "device's memory)");
    if (s->n_fields > 1)
        return cls__fail(s->ctx, CLS_ERR_UNSUPPORTED,
                         "cls_state_mem: the state holds %zu fields, which move between its "
                         "buffers as it advances",
                         s->n_fields);
    *field = s->buf[s->rot.at[0]];
    return CLS_SUCCESS;
}

/* Timing runs: constants that no denormal or NaN slows. */
static cl_int fill(cls_state *s, cl_mem m, size_t elems, double v)
{
    float f = (float)v;
    return clEnqueueFillBuffer(s->ctx->queue, m, s->elem == 8 ? (const void *)&v : (const void *)&f,
                               s->elem, 0, elems * s->elem, 0, NULL, NULL);
}

cls_status cls__state_refill(cls_state *s, size_t slices)
{
    cl_int err = CL_SUCCESS;
    if (s->host)
        return cls__fail(s->ctx, CLS_ERR_UNSUPPORTED, "timing runs keep their state on the device");
    if (!slices) slices = 1;
    for (size_t i = 0; i < s->n_buf && err == CL_SUCCESS; i++)
        err = fill(s, s->buf[i], s->points, 0.5);
    for (size_t k = 0; k < s->n_aux && err == CL_SUCCESS; k++) {
        size_t n = s->per_step[k] ? slices : 1;
        if (s->slices[k] != n) {
            if (s->aux[k]) clReleaseMemObject(s->aux[k]);
            s->slices[k] = 0;
            s->aux[k] = clCreateBuffer(s->ctx->cl, CL_MEM_READ_ONLY, n * s->points * s->elem, NULL,
                                       &err);
            if (err != CL_SUCCESS) {
                s->aux[k] = NULL;
                break;
            }
            s->slices[k] = n;
        }
        err = fill(s, s->aux[k], n * s->points, 0.25);
        s->aux_written[k] = err == CL_SUCCESS;
    }
    if (err == CL_SUCCESS) err = clFinish(s->ctx->queue);
    if (err != CL_SUCCESS) {
        s->written = 0;
        return cls__fail(s->ctx, (cls_status)err, "filling a timing run's device grids");
    }
    s->written = 1;
    for (size_t f = 0; f < s->n_fields; f++) s->field_written[f] = 1;
    s->step = 0;
    return CLS_SUCCESS;
}
