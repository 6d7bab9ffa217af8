/* exec.c: the pipeline schedule's executor: host-resident grids through the device tile by tile
 * (Visschers 2012, Sect. 6.2, Figs. 6.11-6.13): tiles along the grid, each tile's
 * input box (the tile plus halo x h) copied in, h steps computed over shrinking regions, the
 * tile copied out, on three in-order queues (in, kernel, out) joined by events so that
 * different tiles' stages overlap.  Schemes: basic (full-size device arrays), scalable (three
 * tile-sized buffer sets reused round-robin), buffered (scalable, staged through pinned host
 * tiles).  A box as wide as the array (Sect. 6.2.3) is one contiguous copy, any other one
 * rectangular copy.  Runs of more steps than h make several sweeps through host arrays.
 * Systems of fields: every field (time levels included) has an input box per set, a tile's
 * stages write work boxes rotated as a state's buffers (lib/rotation.c), and the region each
 * stage computes shrinks by the later stages' radii.  Periodic grids: edge tiles' boxes reach
 * past the grid's edges at virtual coordinates, filled with wrapped copies of the far side. */
#include <stdlib.h>
#include <string.h>

#include "pipe.h"

/* A box of global coordinates [lo, hi). */
typedef struct box {
    long lo[3], hi[3];
} box;

/* A device buffer that holds the box `geo` of the grid (rows of geo's x extent). */
typedef struct dbuf {
    cl_mem mem;
    box geo;
} dbuf;

static size_t ext(const box *b, int d) { return (size_t)(b->hi[d] - b->lo[d]); }
static size_t box_points(const box *b) { return ext(b, 0) * ext(b, 1) * ext(b, 2); }

/* Whether box b occupies one contiguous range of an array holding box a (Sect. 6.2.3): a
 * segment of one row, whole rows of one plane, or whole planes. */
static int contiguous(const box *b, const box *a)
{
    if (ext(b, 1) == 1 && ext(b, 2) == 1) return 1;
    if (ext(b, 0) != ext(a, 0)) return 0;
    return ext(b, 2) == 1 || ext(b, 1) == ext(a, 1);
}

static size_t index_in(const box *a, long x, long y, long z)
{
    return (size_t)(x - a->lo[0]) +
           ext(a, 0) * ((size_t)(y - a->lo[1]) + ext(a, 1) * (size_t)(z - a->lo[2]));
}

/* A run's buffers; the plan keeps them for its next run (struct cls__pipe, kept). */
struct cls__pipe_bufs {
    dbuf in[3][CLS__PIPE_ARRAYS]; /* per set: the fields, then aux (basic: one set, full
                                     arrays) */
    dbuf out[3];    /* per set: the tile's result buffer (basic: the full output) */
    dbuf tmp[2];    /* basic with h > 1: ping-pong boxes */
    dbuf pp[3];     /* scalable with halo reuse and h > 1: per set, the ping-pong box that
                       otherwise is the input buffer, which the next tile's halo copy reads */
    dbuf work[3][CLS__MAX_BUFS]; /* a system's work boxes per set (basic: one set) */
    dbuf fout[CLS__MAX_FIELDS];  /* a system on the basic scheme: the full output arrays */
    cl_mem stage_in[3][CLS__PIPE_ARRAYS], stage_out[3][CLS__MAX_FIELDS]; /* buffered: pinned
                                                                             staging tiles */
    void *map_in[3][CLS__PIPE_ARRAYS], *map_out[3][CLS__MAX_FIELDS];      /* ... mapped */
};

typedef struct run {
    cls__pipe *q;
    cls_context *ctx;
    const cls_stencil *st;
    size_t elem;
    box grid;
    box full;        /* the basic scheme's full-size arrays: the grid, padded by the input
                        boxes' reach past its edges on periodic grids */
    size_t nt, sets;
    struct cls__pipe_bufs b;
    int allocated; /* b was created by this run */
    cl_event *ev_w, *ev_k0, *ev_k, *ev_r;
    cl_event *ev_d;  /* scalable halo reuse: tile t's device copy out of set t - 1 */
    cl_event *ev_all; /* $CLSTENCIL_PIPE_TRACE: every kernel, tile t's launch i at t * h_all + i */
    size_t h_all;     /* ... the launches per tile of the longest sweep */
    int reuse;       /* the axis along which consecutive input boxes overlap (halo reuse), -1 */
    size_t nf;       /* fields */
    size_t n_arrays; /* fields + aux */
    int at[CLS__MAX_FIELDS]; /* a system: the buffer holding each field after a tile's
                                kernels (ids below nf: the input boxes, others work boxes) */
    double kernel_seconds;
} run;

static box tile_box(const run *r, size_t t)
{
    box b;
    size_t i[3] = {t % r->q->ntiles[0], t / r->q->ntiles[0] % r->q->ntiles[1],
                   t / (r->q->ntiles[0] * r->q->ntiles[1])};
    for (int d = 0; d < 3; d++) {
        b.lo[d] = (long)(i[d] * r->q->tile[d]);
        b.hi[d] = b.lo[d] + (long)r->q->tile[d];
        if (b.hi[d] > r->grid.hi[d]) b.hi[d] = r->grid.hi[d];
    }
    return b;
}

/* The tile widened by m[d] points on each side: clipped to the grid, or on periodic grids
 * reaching past its edges (virtual coordinates). */
static box widen_by(const run *r, const box *t, const size_t m[3])
{
    box b = *t;
    for (int d = 0; d < 3; d++) {
        b.lo[d] = t->lo[d] - (long)m[d];
        b.hi[d] = t->hi[d] + (long)m[d];
        if (r->q->periodic) continue;
        if (b.lo[d] < 0) b.lo[d] = 0;
        if (b.hi[d] > r->grid.hi[d]) b.hi[d] = r->grid.hi[d];
    }
    return b;
}

/* The tile widened by `w` halos (steps' reaches) on each side. */
static box widen(const run *r, const box *t, size_t w)
{
    size_t m[3];
    for (int d = 0; d < 3; d++) m[d] = r->q->halo[d] * w;
    return widen_by(r, t, m);
}

static cls_status new_buffer(run *r, size_t bytes, cl_mem_flags flags, cl_mem *m, const char *what)
{
    cl_int err;
    *m = clCreateBuffer(r->ctx->cl, flags, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS)
        return cls__fail(r->ctx, (cls_status)err, "allocating %s (%zu bytes)", what, bytes);
    return CLS_SUCCESS;
}

/* Host array <-> device buffer: box vb of the device buffer, box hb (of vb's extent) of the
 * host array holding box hgeo; one copy, contiguous or rectangular. */
static cl_int copy_piece(run *r, int write, const dbuf *dev, void *host, const box *hgeo,
                         const box *vb, const box *hb, cl_uint nwait, const cl_event *wait,
                         cl_event *ev)
{
    size_t e = r->elem;
    cl_command_queue q = r->q->q[write ? 0 : 2];
    char *h = (char *)host;
    if (!r->q->rect && contiguous(vb, &dev->geo) && contiguous(hb, hgeo)) {
        size_t off_d = index_in(&dev->geo, vb->lo[0], vb->lo[1], vb->lo[2]) * e;
        size_t off_h = index_in(hgeo, hb->lo[0], hb->lo[1], hb->lo[2]) * e;
        size_t bytes = box_points(vb) * e;
        return write ? clEnqueueWriteBuffer(q, dev->mem, CL_FALSE, off_d, bytes, h + off_h, nwait,
                                            wait, ev)
                     : clEnqueueReadBuffer(q, dev->mem, CL_FALSE, off_d, bytes, h + off_h, nwait,
                                           wait, ev);
    }
    size_t dorig[3] = {(size_t)(vb->lo[0] - dev->geo.lo[0]) * e, (size_t)(vb->lo[1] - dev->geo.lo[1]),
                       (size_t)(vb->lo[2] - dev->geo.lo[2])};
    size_t horig[3] = {(size_t)(hb->lo[0] - hgeo->lo[0]) * e, (size_t)(hb->lo[1] - hgeo->lo[1]),
                       (size_t)(hb->lo[2] - hgeo->lo[2])};
    size_t region[3] = {ext(vb, 0) * e, ext(vb, 1), ext(vb, 2)};
    size_t drow = ext(&dev->geo, 0) * e, dslice = drow * ext(&dev->geo, 1);
    size_t hrow = ext(hgeo, 0) * e, hslice = hrow * ext(hgeo, 1);
    return write ? clEnqueueWriteBufferRect(q, dev->mem, CL_FALSE, dorig, horig, region, drow,
                                            dslice, hrow, hslice, host, nwait, wait, ev)
                 : clEnqueueReadBufferRect(q, dev->mem, CL_FALSE, dorig, horig, region, drow,
                                           dslice, hrow, hslice, host, nwait, wait, ev);
}

static long floor_div(long a, long n) { return a >= 0 ? a / n : -((-a + n - 1) / n); }

/* The periods box b spans along each axis of the grid (one each inside it; past a periodic
 * grid's edges, the copies of the grid it reaches into). */
static void periods(const run *r, const box *b, long k0[3], long k1[3])
{
    for (int d = 0; d < 3; d++) {
        long n = r->grid.hi[d];
        k0[d] = floor_div(b->lo[d], n);
        k1[d] = floor_div(b->hi[d] - 1, n);
    }
}

/* Piece (k0, k1, k2) of box b: its part in period k of each axis, at virtual coordinates
 * (*vb) and wrapped into the grid (*hb). */
static void piece(const run *r, const box *b, const long k[3], box *vb, box *hb)
{
    for (int d = 0; d < 3; d++) {
        long n = r->grid.hi[d], lo = k[d] * n, hi = lo + n;
        vb->lo[d] = b->lo[d] > lo ? b->lo[d] : lo;
        vb->hi[d] = b->hi[d] < hi ? b->hi[d] : hi;
        hb->lo[d] = vb->lo[d] - lo;
        hb->hi[d] = vb->hi[d] - lo;
    }
}

/* Host array (the whole grid, or a packed box hgeo) <-> device buffer, box b: one copy, or on
 * periodic grids one per period of the grid the box reaches into (the far side's values at
 * virtual coordinates).  The first copy waits for the list, the last one signals ev. */
static cl_int copy_box(run *r, int write, const dbuf *dev, void *host, const box *hgeo,
                       const box *b, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    int inside = 1;
    for (int d = 0; d < 3; d++)
        if (b->lo[d] < hgeo->lo[d] || b->hi[d] > hgeo->hi[d]) inside = 0;
    if (inside) return copy_piece(r, write, dev, host, hgeo, b, b, nwait, wait, ev);
    long k0[3], k1[3], k[3];
    periods(r, b, k0, k1);
    cl_int err = CL_SUCCESS;
    for (k[2] = k0[2]; k[2] <= k1[2]; k[2]++)
        for (k[1] = k0[1]; k[1] <= k1[1]; k[1]++)
            for (k[0] = k0[0]; k[0] <= k1[0] && err == CL_SUCCESS; k[0]++) {
                box vb, hb;
                piece(r, b, k, &vb, &hb);
                int last = k[0] == k1[0] && k[1] == k1[1] && k[2] == k1[2];
                err = copy_piece(r, write, dev, host, hgeo, &vb, &hb, nwait, wait,
                                 last ? ev : NULL);
                nwait = 0, wait = NULL;
            }
    return err;
}

/* Host copies of the buffered scheme (its host engine): box b between the grid-shaped array
 * `grid` and a packed tile `packed` holding box b itself (on periodic grids b's parts past the
 * edges come from the far side). */
static void pack(const run *r, int to_packed, void *grid, void *packed, const box *b)
{
    size_t e = r->elem;
    char *g = grid, *k = packed;
    long k0[3], k1[3], p[3];
    periods(r, b, k0, k1);
    for (p[2] = k0[2]; p[2] <= k1[2]; p[2]++)
        for (p[1] = k0[1]; p[1] <= k1[1]; p[1]++)
            for (p[0] = k0[0]; p[0] <= k1[0]; p[0]++) {
                box vb, hb;
                piece(r, b, p, &vb, &hb);
                size_t row = ext(&vb, 0) * e;
                for (long z = 0; z < (long)ext(&vb, 2); z++)
                    for (long y = 0; y < (long)ext(&vb, 1); y++) {
                        char *gp = g + index_in(&r->grid, hb.lo[0], hb.lo[1] + y, hb.lo[2] + z) * e;
                        char *kp = k + index_in(b, vb.lo[0], vb.lo[1] + y, vb.lo[2] + z) * e;
                        if (to_packed)
                            memcpy(kp, gp, row);
                        else
                            memcpy(gp, kp, row);
                    }
            }
}

static cl_int set_box_args(cl_kernel k, cl_uint a, const box *g)
{
    cl_int v[5] = {(cl_int)g->lo[0], (cl_int)g->lo[1], (cl_int)g->lo[2], (cl_int)ext(g, 0),
                   (cl_int)ext(g, 1)};
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < 5 && err == CL_SUCCESS; i++) err = clSetKernelArg(k, a + i, sizeof v[i], &v[i]);
    return err;
}

/* The h steps of tile t (global steps step0 .. step0 + h - 1): step j computes the tile widened
 * by h - j halos, from the previous step's buffer. */
static cls_status kernels(run *r, size_t t, const box *tb, size_t step0, cl_uint nwait,
                          const cl_event *wait)
{
    cls__pipe *q = r->q;
    cls_context *ctx = r->ctx;
    cl_kernel k = q->kernel;
    size_t set = q->scheme == CLS__PIPE_BASIC ? 0 : t % r->sets;
    box inb = widen(r, tb, q->h);
    /* the state's and the aux arrays' boxes: the whole grid (basic) or the input box */
    box aux_geo = q->scheme == CLS__PIPE_BASIC ? r->full : inb;
    dbuf cur = r->b.in[set][0], a, b;
    cur.geo = aux_geo;
    /* the ping-pong pair of the intermediate steps */
    if (q->scheme == CLS__PIPE_BASIC) {
        a = r->b.tmp[0], b = r->b.tmp[1];
        a.geo = b.geo = inb;
    } else {
        a = r->b.out[set], b = r->b.pp[set].mem ? r->b.pp[set] : r->b.in[set][0];
        a.geo = b.geo = inb;
    }
    cl_uint na = (cl_uint)(r->n_arrays - 1);
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < na && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k, 2 + (cl_uint)i, sizeof(cl_mem), &r->b.in[set][1 + i].mem);
    cl_uint base = 2 + na;
    if (err == CL_SUCCESS) err = set_box_args(k, base + 6, &aux_geo);
    if (err != CL_SUCCESS) return cls__fail(ctx, (cls_status)err, "setting the tile kernel's arguments");
    for (size_t j = 1; j <= q->h; j++) {
        dbuf dst;
        if (j == q->h)
            dst = r->b.out[set]; /* basic: the full output; scalable: the set's result buffer */
        else
            dst = j % 2 ? a : b;
        if (j == q->h && q->scheme != CLS__PIPE_BASIC && q->h > 1) dst.geo = inb;
        if (j == q->h && q->scheme != CLS__PIPE_BASIC && q->h == 1) dst.geo = *tb;
        if (j == q->h && q->scheme != CLS__PIPE_BASIC && q->h > 1 && q->h % 2 == 0)
            dst = b, dst.geo = inb; /* even h ends in the second ping-pong box */
        box reg = widen(r, tb, q->h - j);
        cl_int step = (cl_int)(step0 + j - 1);
        cl_int ro[6] = {(cl_int)reg.lo[0], (cl_int)reg.lo[1], (cl_int)reg.lo[2],
                        (cl_int)ext(&reg, 0), (cl_int)ext(&reg, 1), (cl_int)ext(&reg, 2)};
        err = clSetKernelArg(k, 0, sizeof(cl_mem), &cur.mem);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, 1, sizeof(cl_mem), &dst.mem);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, base, sizeof step, &step);
        if (err == CL_SUCCESS) err = set_box_args(k, base + 1, &cur.geo);
        if (err == CL_SUCCESS) err = set_box_args(k, base + 11, &dst.geo);
        for (int i = 0; i < 6 && err == CL_SUCCESS; i++)
            err = clSetKernelArg(k, base + 16 + (cl_uint)i, sizeof ro[i], &ro[i]);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err, "setting the tile kernel's arguments");
        size_t global[3];
        for (int d = 0; d < 3; d++)
            global[d] = (ext(&reg, d) + q->local[d] - 1) / q->local[d] * q->local[d];
        cl_event *ev = j == q->h ? &r->ev_k[t] : j == 1 ? &r->ev_k0[t] : NULL;
        if (r->ev_all) ev = &r->ev_all[t * r->h_all + j - 1];
        err = clEnqueueNDRangeKernel(q->q[1], k, 3, NULL, global, q->local, j == 1 ? nwait : 0,
                                     j == 1 ? wait : NULL, ev);
        if (err == CL_SUCCESS && r->ev_all && (j == q->h || j == 1)) {
            /* kept only once retained: both lists release what they hold */
            cl_event *keep = j == q->h ? &r->ev_k[t] : &r->ev_k0[t];
            if ((err = clRetainEvent(*ev)) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "keeping tile %zu's kernel event", t);
            *keep = *ev;
        }
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err,
                             "launching the tile kernel (tile %zu, region %zux%zux%zu, "
                             "work-group %zux%zux%zu)",
                             t, ext(&reg, 0), ext(&reg, 1), ext(&reg, 2), q->local[0],
                             q->local[1], q->local[2]);
        cur = dst;
    }
    return CLS_SUCCESS;
}

/* A system's buffer `id` of set `set` for a tile whose input box is inb: ids below nf are the
 * fields' input boxes (basic: the full-size arrays), the others work boxes. */
static dbuf sys_buf(const run *r, size_t set, int id, const box *inb)
{
    dbuf d;
    if ((size_t)id < r->nf) {
        d = r->b.in[set][id];
        d.geo = r->q->scheme == CLS__PIPE_BASIC ? r->full : *inb;
    } else {
        d = r->b.work[set][(size_t)id - r->nf];
        d.geo = *inb;
    }
    return d;
}

/* The h steps of a system's tile t: per step and stage one launch, each computing the tile
 * widened by the reach of the steps and stages still to come, from the fields' buffers into
 * work boxes (rotated as lib/rotation.c rotates a state's, the input boxes never written);
 * the basic scheme then copies the tile's fields into its full-size output arrays. */
static cls_status kernels_sys(run *r, size_t t, const box *tb, size_t step0, cl_uint nwait,
                              const cl_event *wait)
{
    cls__pipe *q = r->q;
    cls_context *ctx = r->ctx;
    const cls_stencil *st = r->st;
    int basic = q->scheme == CLS__PIPE_BASIC;
    size_t set = basic ? 0 : t % r->sets, nf = r->nf, na = r->n_arrays - nf;
    size_t G = q->n_stages, launches = q->h * G, launch = 0;
    box inb = widen(r, tb, q->h);
    box aux_geo = basic ? r->full : inb;
    cls__rotation rot;
    cls__rotation_init(&rot, st);
    rot.reserved = (int)nf;
    cl_int err = CL_SUCCESS;
    for (size_t j = 1; j <= q->h; j++) {
        cls__rotation_step_begin(&rot);
        for (size_t g = 0; g < G; g++) {
            cls__rotation_stage_begin(&rot, st, g);
            cl_kernel k = q->stage_kernel[g];
            size_t nout = st->stages[g].n;
            /* the reach still to come: the later stages of this step, then h - j steps */
            size_t m[3];
            for (int d = 0; d < 3; d++) {
                m[d] = q->halo[d] * (q->h - j);
                for (size_t l = g + 1; l < G; l++) m[d] += q->reach[l][d];
            }
            box reg = widen_by(r, tb, m);
            cl_uint a = 0;
            for (size_t f = 0; f < nf && err == CL_SUCCESS; f++) {
                dbuf b = sys_buf(r, set, rot.at[f], &inb);
                err = clSetKernelArg(k, a++, sizeof(cl_mem), &b.mem);
            }
            box out_geo = inb;
            for (size_t u = 0; u < nout && err == CL_SUCCESS; u++) {
                int id = rot.out[st->stages[g].update[u].field];
                if (id < (int)nf || (size_t)id - nf >= q->work)
                    return cls__fail(ctx, CLS_ERR_INTERNAL,
                                     "tile %zu, step %zu, stage %zu: work box %d of %zu", t, j,
                                     g, id - (int)nf, q->work);
                err = clSetKernelArg(k, a++, sizeof(cl_mem), &r->b.work[set][id - (int)nf].mem);
            }
            for (size_t i = 0; i < na && err == CL_SUCCESS; i++)
                err = clSetKernelArg(k, a++, sizeof(cl_mem), &r->b.in[set][nf + i].mem);
            cl_int step = (cl_int)(step0 + j - 1);
            if (err == CL_SUCCESS) err = clSetKernelArg(k, a++, sizeof step, &step);
            for (size_t f = 0; f < nf && err == CL_SUCCESS; f++) {
                dbuf b = sys_buf(r, set, rot.at[f], &inb);
                err = set_box_args(k, a, &b.geo);
                a += 5;
            }
            if (err == CL_SUCCESS) err = set_box_args(k, a, &aux_geo);
            if (err == CL_SUCCESS) err = set_box_args(k, a + 5, &out_geo);
            a += 10;
            cl_int ro[6] = {(cl_int)reg.lo[0], (cl_int)reg.lo[1], (cl_int)reg.lo[2],
                            (cl_int)ext(&reg, 0), (cl_int)ext(&reg, 1), (cl_int)ext(&reg, 2)};
            for (int i = 0; i < 6 && err == CL_SUCCESS; i++)
                err = clSetKernelArg(k, a + (cl_uint)i, sizeof ro[i], &ro[i]);
            if (err != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err,
                                 "setting the tile kernel's arguments (stage %zu)", g);
            size_t global[3];
            for (int d = 0; d < 3; d++)
                global[d] = (ext(&reg, d) + q->local[d] - 1) / q->local[d] * q->local[d];
            int first = launch == 0, last = launch + 1 == launches && !basic;
            cl_event *ev = last ? &r->ev_k[t] : first ? &r->ev_k0[t] : NULL;
            if (r->ev_all) ev = &r->ev_all[t * r->h_all + launch];
            err = clEnqueueNDRangeKernel(q->q[1], k, 3, NULL, global, q->local, first ? nwait : 0,
                                         first ? wait : NULL, ev);
            if (err == CL_SUCCESS && r->ev_all && (first || last)) {
                /* kept only once retained: both lists release what they hold */
                cl_event *keep = last ? &r->ev_k[t] : &r->ev_k0[t];
                if ((err = clRetainEvent(*ev)) != CL_SUCCESS)
                    return cls__fail(ctx, (cls_status)err, "keeping tile %zu's kernel event", t);
                *keep = *ev;
            }
            if (err != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err,
                                 "launching the tile kernel of stage %zu (tile %zu, region "
                                 "%zux%zux%zu, work-group %zux%zux%zu)",
                                 g, t, ext(&reg, 0), ext(&reg, 1), ext(&reg, 2), q->local[0],
                                 q->local[1], q->local[2]);
            launch++;
            cls__rotation_stage_end(&rot);
        }
        cls__rotation_step_end(&rot, st);
    }
    memcpy(r->at, rot.at, sizeof r->at);
    if (!basic) return CLS_SUCCESS;
    /* basic: the next tile's kernels reuse the work boxes, so the tile's fields move to the
     * full-size outputs, on the kernel queue (in order after the kernels) */
    for (size_t f = 0; f < nf; f++) {
        dbuf src = sys_buf(r, 0, rot.at[f], &inb);
        size_t e = r->elem;
        size_t so[3] = {(size_t)(tb->lo[0] - src.geo.lo[0]) * e, (size_t)(tb->lo[1] - src.geo.lo[1]),
                        (size_t)(tb->lo[2] - src.geo.lo[2])};
        size_t dor[3] = {(size_t)tb->lo[0] * e, (size_t)tb->lo[1], (size_t)tb->lo[2]};
        size_t region[3] = {ext(tb, 0) * e, ext(tb, 1), ext(tb, 2)};
        size_t srow = ext(&src.geo, 0) * e, drow = ext(&r->grid, 0) * e;
        err = clEnqueueCopyBufferRect(q->q[1], src.mem, r->b.fout[f].mem, so, dor, region, srow,
                                      srow * ext(&src.geo, 1), drow, drow * ext(&r->grid, 1), 0,
                                      NULL, f + 1 == nf ? &r->ev_k[t] : NULL);
        if (err != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err, "copying tile %zu's field %zu to the output", t,
                             f);
    }
    return CLS_SUCCESS;
}

/* Where tile t's result lies after its kernels. */
static dbuf result_of(const run *r, size_t t, const box *tb, size_t f)
{
    const cls__pipe *q = r->q;
    if (q->n_stages) {
        if (q->scheme == CLS__PIPE_BASIC) return r->b.fout[f];
        box inb = widen(r, tb, q->h);
        return sys_buf(r, t % r->sets, r->at[f], &inb);
    }
    if (q->scheme == CLS__PIPE_BASIC) return r->b.out[0];
    size_t set = t % r->sets;
    dbuf d = q->h > 1 && q->h % 2 == 0 ? (r->b.pp[set].mem ? r->b.pp[set] : r->b.in[set][0])
                                         : r->b.out[set];
    d.geo = q->h > 1 ? widen(r, tb, q->h) : *tb;
    return d;
}

static cls_status alloc_buffers(run *r)
{
    cls__pipe *q = r->q;
    cls_status s;
    size_t e = r->elem, grid = box_points(&r->grid) * e, full = box_points(&r->full) * e;
    int sys = q->n_stages > 0;
    /* the largest input box and tile (interior tiles) */
    size_t inb = 1, tile = 1;
    for (int d = 0; d < 3; d++) {
        size_t w = q->tile[d] + 2 * q->halo[d] * q->h;
        inb *= w < ext(&r->grid, d) || q->periodic ? w : ext(&r->grid, d);
        tile *= q->tile[d];
    }
    inb *= e;
    tile *= e;
    if (q->scheme == CLS__PIPE_BASIC) {
        for (size_t i = 0; i < r->n_arrays; i++) {
            if ((s = new_buffer(r, full, i >= r->nf ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                                &r->b.in[0][i].mem, "a full-size input array")) != CLS_SUCCESS)
                return s;
            r->b.in[0][i].geo = r->full;
        }
        if (sys) {
            for (size_t f = 0; f < r->nf; f++) {
                if ((s = new_buffer(r, grid, CL_MEM_READ_WRITE, &r->b.fout[f].mem,
                                    "a full-size output array")) != CLS_SUCCESS)
                    return s;
                r->b.fout[f].geo = r->grid;
            }
            for (size_t w = 0; w < q->work; w++)
                if ((s = new_buffer(r, inb, CL_MEM_READ_WRITE, &r->b.work[0][w].mem,
                                    "a work box")) != CLS_SUCCESS)
                    return s;
            return CLS_SUCCESS;
        }
        if ((s = new_buffer(r, grid, CL_MEM_READ_WRITE, &r->b.out[0].mem,
                            "the full-size output array")) != CLS_SUCCESS)
            return s;
        r->b.out[0].geo = r->grid;
        for (int i = 0; q->h > 1 && i < 2; i++)
            if ((s = new_buffer(r, inb, CL_MEM_READ_WRITE, &r->b.tmp[i].mem,
                                "a ping-pong tile box")) != CLS_SUCCESS)
                return s;
        return CLS_SUCCESS;
    }
    for (size_t k = 0; k < r->sets; k++) {
        for (size_t i = 0; i < r->n_arrays; i++)
            if ((s = new_buffer(r, inb, i >= r->nf ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                                &r->b.in[k][i].mem, "a tile input buffer")) != CLS_SUCCESS)
                return s;
        for (size_t w = 0; sys && w < q->work; w++)
            if ((s = new_buffer(r, inb, CL_MEM_READ_WRITE, &r->b.work[k][w].mem, "a work box")) !=
                CLS_SUCCESS)
                return s;
        /* halo reuse: the next tile's copy reads this set's input box, so the tile's steps
         * must not ping-pong through it (a system's never write it) */
        if (!sys && q->h > 1 && q->scheme == CLS__PIPE_SCALABLE && r->reuse >= 0 &&
            (s = new_buffer(r, inb, CL_MEM_READ_WRITE, &r->b.pp[k].mem, "a ping-pong tile box")) !=
                CLS_SUCCESS)
            return s;
        if (!sys && (s = new_buffer(r, q->h > 1 ? inb : tile, CL_MEM_READ_WRITE, &r->b.out[k].mem,
                                    "a tile output buffer")) != CLS_SUCCESS)
            return s;
        if (q->scheme != CLS__PIPE_BUFFERED) continue;
        /* pinned staging tiles, mapped once (Sect. 6.2.3): one per input array, one per
         * field's result */
        cl_int err;
        for (size_t i = 0; i < r->n_arrays + r->nf; i++) {
            int o = i >= r->n_arrays;
            size_t fo = o ? i - r->n_arrays : 0;
            cl_mem *m = o ? &r->b.stage_out[k][fo] : &r->b.stage_in[k][i];
            size_t bytes = o ? tile : inb;
            if ((s = new_buffer(r, bytes, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, m,
                                "a pinned staging tile")) != CLS_SUCCESS)
                return s;
            void *ptr = clEnqueueMapBuffer(q->q[0], *m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                           bytes, 0, NULL, NULL, &err);
            if (err != CL_SUCCESS)
                return cls__fail(r->ctx, (cls_status)err, "mapping a pinned staging tile");
            if (o)
                r->b.map_out[k][fo] = ptr;
            else
                r->b.map_in[k][i] = ptr;
        }
    }
    return CLS_SUCCESS;
}

/* Frees a run's buffers, unmapping the staging tiles on queue `q0` (drained by the caller). */
static void bufs_free(struct cls__pipe_bufs *b, cl_command_queue q0)
{
    for (size_t k = 0; k < 3; k++) {
        for (size_t i = 0; i < CLS__PIPE_ARRAYS; i++) {
            if (b->stage_in[k][i]) {
                if (b->map_in[k][i])
                    clEnqueueUnmapMemObject(q0, b->stage_in[k][i], b->map_in[k][i], 0, NULL, NULL);
                clReleaseMemObject(b->stage_in[k][i]);
            }
            if (b->in[k][i].mem) clReleaseMemObject(b->in[k][i].mem);
        }
        for (size_t f = 0; f < CLS__MAX_FIELDS; f++)
            if (b->stage_out[k][f]) {
                if (b->map_out[k][f])
                    clEnqueueUnmapMemObject(q0, b->stage_out[k][f], b->map_out[k][f], 0, NULL,
                                            NULL);
                clReleaseMemObject(b->stage_out[k][f]);
            }
        for (size_t w = 0; w < CLS__MAX_BUFS; w++)
            if (b->work[k][w].mem) clReleaseMemObject(b->work[k][w].mem);
        if (b->out[k].mem) clReleaseMemObject(b->out[k].mem);
        if (b->pp[k].mem) clReleaseMemObject(b->pp[k].mem);
    }
    clFinish(q0);
    for (int i = 0; i < 2; i++)
        if (b->tmp[i].mem) clReleaseMemObject(b->tmp[i].mem);
    for (size_t f = 0; f < CLS__MAX_FIELDS; f++)
        if (b->fout[f].mem) clReleaseMemObject(b->fout[f].mem);
    memset(b, 0, sizeof *b);
}

void cls__pipe_bufs_release(void *config)
{
    cls__pipe *q = config;
    if (!q || !q->kept) return;
    bufs_free(q->kept, q->q[0]);
    free(q->kept);
    q->kept = NULL;
}

/* The end of a run: the queues drained, the events released, and the buffers handed to the
 * plan for its next run (`keep`: a run that succeeded, without release_buffers) or freed. */
static void release_all(run *r, int keep)
{
    for (int i = 0; i < 3; i++) clFinish(r->q->q[i]);
    /* the run took the plan's buffers at its start, so the plan holds none now */
    if (keep && (r->q->kept = malloc(sizeof *r->q->kept)) != NULL) {
        *r->q->kept = r->b;
        memset(&r->b, 0, sizeof r->b);
    }
    bufs_free(&r->b, r->q->q[0]);
    cl_event *lists[5] = {r->ev_w, r->ev_k0, r->ev_k, r->ev_r, r->ev_d};
    for (int l = 0; l < 5; l++) {
        for (size_t t = 0; lists[l] && t < r->nt; t++)
            if (lists[l][t]) clReleaseEvent(lists[l][t]);
        free(lists[l]);
    }
    for (size_t i = 0; r->ev_all && i < r->nt * r->h_all; i++)
        if (r->ev_all[i]) clReleaseEvent(r->ev_all[i]);
    free(r->ev_all);
}

static cl_int flush_all(run *r)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < 3 && err == CL_SUCCESS; i++) err = clFlush(r->q->q[i]);
    return err;
}

/* The overlap *ov of tile t's input box *inb with tile t - 1's (*pinb); 0 when there is none
 * to reuse. */
static int reuse_overlap(const run *r, size_t t, const box *inb, box *pinb, box *ov)
{
    int s = r->reuse;
    if (s < 0 || t == 0) return 0;
    box pt = tile_box(r, t - 1);
    *pinb = widen(r, &pt, r->q->h);
    if (pinb->hi[s] <= inb->lo[s]) return 0;
    *ov = *inb;
    ov->hi[s] = pinb->hi[s];
    /* the boxes span the other dimensions: one range in both buffers (checked, not assumed) */
    if (!contiguous(ov, pinb) || !contiguous(ov, inb)) return 0;
    return 1;
}

/* Scalable halo reuse: tile t's overlap with tile t - 1's input box, copied from set t - 1's
 * input buffers into set t's on the kernel queue, right before tile t's kernels.  It waits for
 * tile t's write, so that no two queues write set t's buffers at once (undefined in OpenCL;
 * PoCL mixed them up) and set t - 1's are complete (the write queue is in order).  Set t - 1's
 * input stays intact until then: its kernels ping-pong through r->b.pp, and the write that
 * refills it waits for this copy (ev_d).  On the H100 the same copies on the write queue cost
 * 20-30 us a tile in the host-to-device stream (doc/pipeline.md). */
static cls_status halo_copy(run *r, size_t t)
{
    cls__pipe *q = r->q;
    box tb = tile_box(r, t), inb = widen(r, &tb, q->h), ov, pinb;
    if (q->scheme != CLS__PIPE_SCALABLE || !reuse_overlap(r, t, &inb, &pinb, &ov))
        return CLS_SUCCESS;
    size_t e = r->elem;
    size_t off_s = index_in(&pinb, ov.lo[0], ov.lo[1], ov.lo[2]) * e;
    size_t off_d = index_in(&inb, ov.lo[0], ov.lo[1], ov.lo[2]) * e;
    for (size_t a = 0; a < r->n_arrays; a++) {
        int first = a == 0, last = a + 1 == r->n_arrays;
        cl_int err = clEnqueueCopyBuffer(q->q[1], r->b.in[(t - 1) % r->sets][a].mem,
                                         r->b.in[t % r->sets][a].mem, off_s, off_d,
                                         box_points(&ov) * e, first ? 1 : 0,
                                         first ? &r->ev_w[t] : NULL, last ? &r->ev_d[t] : NULL);
        if (err != CL_SUCCESS)
            return cls__fail(r->ctx, (cls_status)err,
                             "copying tile %zu's halo overlap on the device", t);
    }
    return CLS_SUCCESS;
}

/* $CLSTENCIL_PIPE_TRACE: the sweep's commands, tile by tile (trace.c). */
typedef struct trace_list {
    size_t n;
    cl_event *ev;
    size_t *tile, *index;
    const char **what;
} trace_list;

static void trace_add(trace_list *l, cl_event e, size_t t, size_t index, const char *what)
{
    if (!e) return;
    l->ev[l->n] = e, l->tile[l->n] = t, l->index[l->n] = index, l->what[l->n++] = what;
}

static void trace(const run *r, size_t sweep_index)
{
    size_t cap = r->nt * (3 + r->h_all);
    trace_list l = {0, malloc(cap * sizeof *l.ev), malloc(cap * sizeof *l.tile),
                    malloc(cap * sizeof *l.index), malloc(cap * sizeof *l.what)};
    if (l.ev && l.tile && l.index && l.what) {
        for (size_t t = 0; t < r->nt; t++) {
            trace_add(&l, r->ev_w[t], t, 0, "write");
            trace_add(&l, r->ev_d[t], t, 0, "halo_copy");
            for (size_t j = 0; j < r->q->h * (r->q->n_stages ? r->q->n_stages : 1); j++)
                trace_add(&l, r->ev_all[t * r->h_all + j], t, j + 1, "kernel");
            trace_add(&l, r->ev_r[t], t, 0, "read");
        }
        cls__pipe_trace_events te = {l.n, l.ev, l.tile, l.index, l.what};
        cls__pipe_trace_write(r->q, sweep_index, &te);
    }
    free(l.ev), free(l.tile), free(l.index), free(l.what);
}

/* One sweep: h steps of every tile from the fields' host arrays src (and the aux arrays) into
 * dst. */
static cls_status sweep(run *r, const void *const *src, const void *const *aux, void *const *dst,
                        size_t step0)
{
    cls__pipe *q = r->q;
    cls_context *ctx = r->ctx;
    cls_status s;
    cl_int err;
    int buffered = q->scheme == CLS__PIPE_BUFFERED, basic = q->scheme == CLS__PIPE_BASIC;
    for (size_t t = 0; t < r->nt; t++) {
        cl_event *ls[5] = {r->ev_w, r->ev_k0, r->ev_k, r->ev_r, r->ev_d};
        for (int l = 0; l < 5; l++)
            if (ls[l][t]) clReleaseEvent(ls[l][t]), ls[l][t] = NULL;
    }
    for (size_t i = 0; r->ev_all && i < r->nt * r->h_all; i++)
        if (r->ev_all[i]) clReleaseEvent(r->ev_all[i]), r->ev_all[i] = NULL;
    /* Step i of the pipeline (Sect. 6.4.4): write i, kernels i - 1, read i - 2, in that order;
     * the buffered scheme's host copies around them (pack before the write, unpack after its
     * read completes). */
    for (size_t i = 0; i < r->nt + 3; i++) {
        if (i < r->nt) {
            size_t t = i, set = basic ? 0 : t % r->sets;
            box tb = tile_box(r, t), inb = widen(r, &tb, q->h);
            /* a set is free again once the tile that used it three tiles ago is read out,
             * and the halo copy of the tile after that one has read it (halo reuse) */
            cl_uint nw = !basic && t >= r->sets ? 1 : 0;
            cl_event wl[2] = {nw ? r->ev_r[t - r->sets] : NULL,
                              nw ? r->ev_d[t - r->sets + 1] : NULL};
            if (wl[1]) nw = 2;
            cl_event *wait = nw ? wl : NULL;
            /* the staging tiles are free once the writes from them are done */
            if (buffered && nw && (err = clWaitForEvents(1, &r->ev_w[t - r->sets])) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "waiting for a staging tile");
            /* Halo reuse: the part of the input box that the previous tile's box holds
             * already does not cross the bus again; only hb comes from the host (scalable:
             * the overlap is copied on the device, halo_copy). */
            box hb = inb, ov, pinb;
            if (reuse_overlap(r, t, &inb, &pinb, &ov)) hb.lo[r->reuse] = ov.hi[r->reuse];
            /* nothing new (a thin last tile): one marker stands for the writes and carries
             * their wait list (dropping it let the tile's kernels overwrite a set still
             * being read; tests/test_pipeline_order.c) */
            size_t fresh = box_points(&hb);
            if (!fresh &&
                (err = clEnqueueMarkerWithWaitList(q->q[0], nw, wait, &r->ev_w[t])) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "ordering tile %zu after its set's last use", t);
            for (size_t a = 0; fresh && a < r->n_arrays; a++) {
                const void *h = a < r->nf ? src[a] : aux[a - r->nf];
                dbuf dev = r->b.in[set][a];
                if (!basic) dev.geo = inb;
                int last = a + 1 == r->n_arrays;
                cl_event *ev = last ? &r->ev_w[t] : NULL;
                if (buffered) {
                    pack(r, 1, (void *)h, r->b.map_in[set][a], &inb);
                    err = clEnqueueWriteBuffer(q->q[0], dev.mem, CL_FALSE, 0,
                                               box_points(&inb) * r->elem, r->b.map_in[set][a], nw,
                                               wait, ev);
                } else {
                    err = copy_box(r, 1, &dev, (void *)h, &r->grid, &hb, nw, wait, ev);
                }
                if (err != CL_SUCCESS)
                    return cls__fail(ctx, (cls_status)err, "copying tile %zu's input to the device", t);
                nw = 0, wait = NULL;
            }
        }
        if (i >= 1 && i - 1 < r->nt) {
            size_t t = i - 1;
            box tb = tile_box(r, t);
            /* the halo copy on the kernel queue: the write queue streams host data only */
            if ((s = halo_copy(r, t)) != CLS_SUCCESS) return s;
            s = r->q->n_stages ? kernels_sys(r, t, &tb, step0, 1, &r->ev_w[t])
                               : kernels(r, t, &tb, step0, 1, &r->ev_w[t]);
            if (s != CLS_SUCCESS) return s;
        }
        if (i >= 2 && i - 2 < r->nt) {
            size_t t = i - 2;
            box tb = tile_box(r, t);
            /* every field's tile; the last read signals the tile's */
            for (size_t f = 0; f < r->nf; f++) {
                dbuf res = result_of(r, t, &tb, f);
                cl_uint nw = f ? 0 : 1;
                cl_event *ev = f + 1 == r->nf ? &r->ev_r[t] : NULL;
                if (buffered) {
                    box packed = tb;
                    err = copy_box(r, 0, &res, r->b.map_out[t % r->sets][f], &packed, &tb, nw,
                                   nw ? &r->ev_k[t] : NULL, ev);
                } else {
                    err = copy_box(r, 0, &res, dst[f], &r->grid, &tb, nw, nw ? &r->ev_k[t] : NULL,
                                   ev);
                }
                if (err != CL_SUCCESS)
                    return cls__fail(ctx, (cls_status)err,
                                     "copying tile %zu's result to the host", t);
            }
        }
        if ((err = flush_all(r)) != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err, "submitting the pipeline's commands");
        if (buffered && i >= 3 && i - 3 < r->nt) {
            size_t t = i - 3;
            box tb = tile_box(r, t);
            if ((err = clWaitForEvents(1, &r->ev_r[t])) != CL_SUCCESS)
                return cls__fail(ctx, (cls_status)err, "waiting for tile %zu's result", t);
            for (size_t f = 0; f < r->nf; f++) pack(r, 0, dst[f], r->b.map_out[t % r->sets][f], &tb);
        }
    }
    if (!buffered && r->nt && (err = clWaitForEvents(1, &r->ev_r[r->nt - 1])) != CL_SUCCESS)
        return cls__fail(ctx, (cls_status)err, "waiting for the last tile");
    for (int i = 0; i < 3; i++)
        if ((err = clFinish(q->q[i])) != CL_SUCCESS)
            return cls__fail(ctx, (cls_status)err, "waiting for the pipeline");
    for (size_t t = 0; t < r->nt; t++)
        r->kernel_seconds += cls__event_span(r->ev_k0[t] ? r->ev_k0[t] : r->ev_k[t], r->ev_k[t]);
    if (r->ev_all) trace(r, step0 / r->h_all);
    return CLS_SUCCESS;
}

/* A run through host arrays: sweeps of h steps from the fields' arrays src, the last one
 * into dst; the first never writes an array it reads (tiles read their neighbours' rows), so
 * a sweep writes the arrays it does not read: `other`, or dst. */
static cls_status sweeps(run *r, cls__exec *x, const void *const *src, const void *const *aux,
                         void *const *dst, void *const *other, size_t step0)
{
    cls__pipe *q = r->q;
    size_t h = q->h, n = (x->steps + h - 1) / h;
    cls_status s;
    for (size_t k = 0; k < n; k++) {
        /* the last sweep writes dst; the others alternate so that it does */
        void *const *to = (n - 1 - k) % 2 == 0 ? dst : other;
        size_t hk = x->steps - k * h < h ? x->steps - k * h : h;
        /* the last, shorter sweep: fewer steps, same boxes (its padding is wide enough) */
        q->h = hk;
        s = sweep(r, src, aux, to, step0 + k * h);
        q->h = h;
        if (s != CLS_SUCCESS) return s;
        src = (const void *const *)to;
        size_t done = (k + 1) * h;
        if (x->progress && k + 1 < n && x->progress(x->done_before + done, x->total, x->progress_user))
            return cls__fail(x->ctx, CLS_ERR_CANCELLED,
                             "run cancelled by the progress callback after %zu of %zu steps",
                             x->done_before + done, x->total);
    }
    return CLS_SUCCESS;
}

/* A host state's run: its fields' arrays and as many others take turns (lib/state.c holds
 * twice the fields for host states); the rotation then names the arrays the run ended in. */
static cls_status run_state(run *r, cls__exec *x)
{
    cls_state *st = x->state;
    const void *aux[CLS__MAX_AUX];
    void *from[CLS__MAX_FIELDS], *other[CLS__MAX_FIELDS];
    int from_i[CLS__MAX_FIELDS], other_i[CLS__MAX_FIELDS];
    size_t nf = r->nf, no = 0;
    for (size_t k = 0; k < st->n_aux; k++) aux[k] = st->haux[k];
    for (size_t f = 0; f < nf; f++) from_i[f] = st->rot.at[f], from[f] = st->hbuf[st->rot.at[f]];
    for (size_t b = 0; b < st->n_buf && no < nf; b++) {
        int held = 0;
        for (size_t f = 0; f < nf; f++) held |= st->rot.at[f] == (int)b;
        if (!held) other_i[no] = (int)b, other[no++] = st->hbuf[b];
    }
    if (no < nf)
        return cls__fail(r->ctx, CLS_ERR_INTERNAL,
                         "the host state holds %zu arrays for %zu fields; sweeps need twice the "
                         "fields",
                         st->n_buf, nf);
    size_t n = (x->steps + r->q->h - 1) / r->q->h;
    /* an odd number of sweeps ends in the other arrays, an even one back in these, which the
     * first sweep must not write: the last sweep's target is chosen so */
    int odd = n % 2 == 1;
    cls_status s = sweeps(r, x, (const void *const *)from, aux, odd ? other : from,
                          odd ? from : other, st->step);
    if (s != CLS_SUCCESS) return s;
    for (size_t f = 0; f < nf; f++) st->rot.at[f] = odd ? other_i[f] : from_i[f];
    return CLS_SUCCESS;
}

cls_status cls__pipeline_run(cls__exec *x)
{
    run r;
    cls_status s = CLS_SUCCESS;
    void *tmp[CLS__MAX_FIELDS] = {NULL};
    memset(&r, 0, sizeof r);
    r.q = x->config;
    r.ctx = x->ctx;
    r.st = x->st;
    r.elem = x->elem;
    r.nf = r.q->n_fields ? r.q->n_fields : 1;
    for (int d = 0; d < 3; d++) {
        r.grid.hi[d] = (long)x->dims.n[d];
        /* periodic: the input boxes of edge tiles reach h x halo past the edges */
        long pad = r.q->periodic ? (long)(r.q->halo[d] * r.q->h) : 0;
        r.full.lo[d] = -pad;
        r.full.hi[d] = r.grid.hi[d] + pad;
    }
    r.nt = r.q->ntiles[0] * r.q->ntiles[1] * r.q->ntiles[2];
    r.sets = r.nt < 3 ? r.nt : 3;
    r.n_arrays = r.nf + x->st->n_aux;
    if (x->st->n_aux > CLS__MAX_AUX || r.nf > CLS__MAX_FIELDS)
        return cls__fail(x->ctx, CLS_ERR_UNSUPPORTED,
                         "the pipeline takes at most %d fields and %d auxiliary arrays",
                         CLS__MAX_FIELDS, CLS__MAX_AUX);
    r.ev_w = calloc(r.nt, sizeof *r.ev_w);
    r.ev_k0 = calloc(r.nt, sizeof *r.ev_k0);
    r.ev_k = calloc(r.nt, sizeof *r.ev_k);
    r.ev_r = calloc(r.nt, sizeof *r.ev_r);
    r.ev_d = calloc(r.nt, sizeof *r.ev_d);
    if (cls__pipe_trace_on()) {
        r.h_all = r.q->h * (r.q->n_stages ? r.q->n_stages : 1);
        r.ev_all = calloc(r.nt * r.h_all, sizeof *r.ev_all);
    }
    if (!r.ev_w || !r.ev_k0 || !r.ev_k || !r.ev_r || !r.ev_d || (r.h_all && !r.ev_all)) {
        s = cls__fail(x->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "pipeline events for %zu tiles", r.nt);
        goto done;
    }
    r.reuse = r.q->reuse;
    if (r.q->kept) {
        /* the last run's buffers: out of the plan while in use, so a failure frees them */
        r.b = *r.q->kept;
        free(r.q->kept);
        r.q->kept = NULL;
    } else {
        r.allocated = 1;
        if ((s = alloc_buffers(&r)) != CLS_SUCCESS) goto done;
    }
    if (x->state) {
        if ((s = run_state(&r, x)) != CLS_SUCCESS) goto done;
    } else {
        size_t n = (x->steps + r.q->h - 1) / r.q->h, bytes = x->points * x->elem;
        /* in place: an output is one of the inputs' arrays */
        int in_place = 0;
        for (size_t f = 0; f < r.nf; f++)
            for (size_t g = 0; g < r.nf; g++) in_place |= x->output[f] == x->input[g];
        for (size_t f = 0; (n > 1 || in_place) && f < r.nf; f++) {
            if (!(tmp[f] = malloc(bytes))) {
                char b1[32];
                s = cls__fail(x->ctx, CLS_ERR_OUT_OF_HOST_MEMORY,
                              "cannot allocate a host array of %s (%zu bytes) for the sweeps",
                              cls__bytes_text(b1, sizeof b1, (double)bytes), bytes);
                goto done;
            }
        }
        /* in place with an odd number of sweeps: the sweeps end in tmp, copied out below */
        int via_tmp = in_place && n % 2;
        void *const *dst = via_tmp ? tmp : x->output;
        void *const *other = via_tmp ? x->output : tmp;
        s = sweeps(&r, x, x->input, x->aux, dst, other, 0);
        if (s != CLS_SUCCESS) goto done;
        for (size_t f = 0; via_tmp && f < r.nf; f++) memcpy(x->output[f], tmp[f], bytes);
    }
    release_all(&r, x->keep_buffers);
    x->kernel_seconds = r.kernel_seconds;
    x->timed = 1;
    x->allocated = r.allocated;
    for (size_t f = 0; f < CLS__MAX_FIELDS; f++) free(tmp[f]);
    return CLS_SUCCESS;
done:
    release_all(&r, 0);
    for (size_t f = 0; f < CLS__MAX_FIELDS; f++) free(tmp[f]);
    return s;
}
