/* cpu_rows.c: the CPU row kernel's step time (model/cpu_rows.h): the longer of the compute,
 * counted as the vector iterations cl/naive_rows.cl runs (each the longer of its load side and
 * its arithmetic), and the traffic at the bandwidth of the level the working set fits. */
#include "cpu_rows.h"

static double ceil_div(double a, double b) { return b > 0 ? (double)(size_t)((a + b - 1) / b) : 0; }

/* Vector iterations of one row of nx points cut into runs of `len`: the points whose stencil
 * stays inside the row in x go `lanes` at a time, the last vector of a run's inner part
 * overlapping the one before it (a whole vector for a remainder); *ends: the halo-wide ends,
 * computed one point at a time. */
static double row_vectors(size_t nx, size_t hx, size_t len, size_t lanes, double *runs,
                          double *ends)
{
    double v = 0, e = 0;
    size_t r = 0;
    if (len == 0) len = nx;
    for (size_t x0 = 0; x0 < nx; x0 += len, r++) {
        size_t x1 = x0 + len < nx ? x0 + len : nx;
        size_t inner = 0;
        if (2 * hx < nx) {
            size_t lo = x0 > hx ? x0 : hx, hi = x1 < nx - hx ? x1 : nx - hx;
            inner = hi > lo ? hi - lo : 0;
        }
        v += ceil_div((double)inner, (double)lanes);
        e += (double)(x1 - x0 - inner);
    }
    *runs = (double)r;
    *ends = e;
    return v;
}

void cls__cpu_rows_terms(const cls__cpu_rows_work *w, size_t lanes, size_t cores,
                         double x[CLS__CPU_TERMS])
{
    double runs = 0, ends = 0;
    double v = row_vectors(w->n[0], w->halo_x, w->row_length, lanes ? lanes : 1, &runs, &ends);
    double rows = (double)w->n[1] * (double)w->n[2];
    size_t ir = w->item_rows ? w->item_rows : 1;
    /* Work-items (a run of item_rows rows each) spread over the cores; the busiest core's share
     * of the total is ceil(items / cores) / items. */
    double items = runs * ceil_div((double)w->n[1], (double)ir) * (double)w->n[2];
    double c = (double)(cores ? cores : 1);
    double share = items > 0 ? ceil_div(items, c) / items : 0;
    double launches = (double)(w->launches ? w->launches : 1);
    double vectors = v * rows * share;
    x[0] = launches * vectors;
    x[1] = vectors * w->reads;
    x[2] = vectors * w->flops;
    x[3] = vectors * w->divs;
    x[4] = launches * runs * rows * share;
    x[5] = ends * rows * share * w->reads;
}

double cls__cpu_compute_cycles(const cls__cpu_device *d, const double x[CLS__CPU_TERMS])
{
    /* a core issues the loads (with the loop, the addresses and the store) and the arithmetic
     * on separate ports: a vector costs the longer side */
    double loads = x[0] * d->point_cycles + x[1] * d->read_cycles + x[5] * d->end_read_cycles;
    double arith = x[2] * d->flop_cycles + x[3] * d->div_cycles;
    return (loads > arith ? loads : arith) + x[4] * d->start_cycles;
}

double cls__cpu_seconds_per_byte(const cls__cpu_device *d, double ws)
{
    double mem = d->bandwidth > 0 ? 1 / d->bandwidth : 0;
    if (!(d->bandwidth_cache > 0) || !(d->cache_bytes > 0)) return mem;
    double cache = 1 / d->bandwidth_cache;
    if (ws <= d->cache_bytes) return cache;
    double f = d->cache_bytes / ws;
    return f * cache + (1 - f) * mem;
}

double cls__cpu_rows_step(const cls__cpu_device *d, const cls__cpu_rows_work *w, double *compute,
                          double *memory)
{
    double x[CLS__CPU_TERMS];
    cls__cpu_rows_terms(w, d->lanes, d->cores, x);
    double c = d->clock_hz > 0 ? cls__cpu_compute_cycles(d, x) / d->clock_hz : 0;
    double points = (double)w->n[0] * (double)w->n[1] * (double)w->n[2];
    double fresh = w->stream_bytes < w->bytes_per_point ? w->stream_bytes : w->bytes_per_point;
    double m = points * (w->bytes_per_point - fresh) * cls__cpu_seconds_per_byte(d, w->working_set);
    if (fresh > 0 && d->bandwidth > 0) m += points * fresh / d->bandwidth;
    if (compute) *compute = c;
    if (memory) *memory = m;
    /* Within the cache the cores' loads stream ahead of their arithmetic and the two overlap;
     * beyond it, a share of the shorter adds to the longer (memory.stream_overlap). */
    double longer = c > m ? c : m, shorter = c > m ? m : c;
    int beyond = d->cache_bytes > 0 && d->bandwidth_cache > 0 && w->working_set > d->cache_bytes;
    return (double)(w->launches ? w->launches : 1) * d->restart + longer +
           (beyond ? d->stream_overlap * shorter : 0);
}
