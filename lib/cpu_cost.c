/* cpu_cost.c: the CPU row kernel's model filled from a request's facts (lib/cpu_cost.h). */
#include "cpu_cost.h"
#include "expr.h"

size_t cls__cpu_row_lanes(cl_device_id device, cls_dtype dtype)
{
    cl_uint w = 0;
    cl_device_info what = dtype == CLS_FLOAT64 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
                                               : CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT;
    if (clGetDeviceInfo(device, what, sizeof w, &w, NULL) != CL_SUCCESS || w == 0) w = 16;
    return w > 64 ? 64 : w;
}

void cls__cpu_device_costs(cls__cpu_device *d, double (*get)(const void *src, const char *key),
                           const void *src)
{
    d->clock_hz = get(src, "compute.clock_mhz") * 1e6;
    d->point_cycles = get(src, "compute.row_point_cycles");
    d->read_cycles = get(src, "compute.row_read_cycles");
    d->flop_cycles = get(src, "compute.row_flop_cycles");
    d->div_cycles = get(src, "compute.row_div_cycles");
    d->start_cycles = get(src, "compute.row_start_cycles");
    d->end_read_cycles = get(src, "compute.row_end_read_cycles");
    d->box_point_cycles = get(src, "compute.tile_point_cycles");
    d->box_read_cycles = get(src, "compute.tile_read_cycles");
    d->box_row_cycles = get(src, "compute.tile_row_cycles");
    d->bandwidth_cache = get(src, "memory.bandwidth_cache_gbs") * 1e9;
    d->cache_bytes = get(src, "memory.cache_bytes");
    d->stream_overlap = get(src, "memory.stream_overlap");
}

static double facts_value(const void *f, const char *key) { return cls__facts_model(f, key); }

int cls__cpu_device_of(const cls__facts *f, cls__cpu_device *d, const char **why)
{
    *d = (cls__cpu_device){0};
    cls__cpu_device_costs(d, facts_value, f);
    d->cores = f->dev->compute_units ? f->dev->compute_units : 1;
    d->lanes = cls__cpu_row_lanes(f->ctx->device, f->st->dtype);
    d->bandwidth = f->bandwidth;
    d->restart = f->restart_seconds;
    if (!(d->clock_hz > 0) || !(d->point_cycles > 0) || !(d->bandwidth > 0)) {
        *why = "no device model with a clock, the row kernel's costs and a bandwidth";
        return 0;
    }
    return 1;
}

void cls__cpu_expr_ops(const struct cls_expr *e, double *reads, double *flops, double *divs)
{
    size_t fl = 0, dv = 0, sel = 0;
    cls__expr_point_ops(e, &fl, &dv, &sel);
    *reads += (double)cls__expr_in_reads(e);
    *flops += (double)(fl + sel);
    *divs += (double)dv;
}

cls_status cls__cpu_body_ops(const cls__facts *f, double *reads, double *flops, double *divs,
                             size_t *launches)
{
    *reads = (double)f->st->n_aux; /* the auxiliary arrays, read once a step */
    *flops = *divs = 0;
    *launches = 1;
    if (!cls__stencil_is_system(f->st)) {
        cls__cpu_expr_ops(f->expr, reads, flops, divs);
        return CLS_SUCCESS;
    }
    /* a system: every update of every stage */
    *launches = f->st->n_stages;
    for (size_t g = 0; g < f->st->n_stages; g++)
        for (size_t k = 0; k < f->st->stages[g].n; k++) {
            struct cls_expr *e = NULL;
            cls_status s = cls__stencil_parse_update(f->st, g, k, &e);
            if (s != CLS_SUCCESS) return s;
            cls__cpu_expr_ops(e, reads, flops, divs);
            cls__expr_free(e);
        }
    return CLS_SUCCESS;
}

cls_status cls__cpu_rows_work_of(const cls__facts *f, size_t row_length, size_t item_rows,
                                 cls__cpu_rows_work *w)
{
    int halo[3];
    *w = (cls__cpu_rows_work){0};
    for (int d = 0; d < 3; d++) w->n[d] = f->dims.n[d] ? f->dims.n[d] : 1;
    cls_stencil_halo(f->st, halo);
    w->halo_x = halo[0] > 0 ? (size_t)halo[0] : 0;
    w->row_length = row_length;
    w->item_rows = item_rows;
    cls_status s = cls__cpu_body_ops(f, &w->reads, &w->flops, &w->divs, &w->launches);
    if (s != CLS_SUCCESS) return s;
    w->bytes_per_point = f->min_bytes_per_point;
    /* the arrays every step touches again: two state copies (or two per field of a system) and
     * the auxiliary arrays, but for those of one row per step, which each step reads afresh */
    size_t arrays = cls__stencil_is_system(f->st) ? 2 * f->st->n_fields : 2;
    for (size_t k = 0; k < f->st->n_aux; k++) {
        if (cls_stencil_aux_per_step(f->st, k)) w->stream_bytes += (double)f->elem;
        else arrays++;
    }
    w->working_set = (double)arrays * (double)f->points * (double)f->elem;
    return CLS_SUCCESS;
}
