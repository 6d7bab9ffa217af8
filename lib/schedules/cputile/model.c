/* model.c: the cputile schedule's model: the updates a pass computes (the tiles' overlap
 * included), each at the rate of one compute unit, and the rows they run in.  The grid's
 * traffic (the first step's input, the last step's output) streams while those two steps
 * compute; the steps between read boxes in the core's cache and overlap with no traffic of the
 * grid.  The ghost-zone reasoning of Meng & Skadron 2010 (Eqs. 1-2) with the cache in place of
 * local memory. */
#include "cpu_cost.h"
#include "cputile.h"

void cls__cputile_cost_prices(cls__cputile_cost *c, const cls__cpu_device *d, double reads,
                              double flops, double divs, double ws)
{
    /* a vector of lanes points: the longer of its load side (the loop and its reads) and its
     * arithmetic (flops and divisions), as the row kernel's (model/cpu_rows.c); the steps that
     * read a box pay the box's costs per vector and per read instead of the grid's */
    double x[CLS__CPU_TERMS] = {1, reads, flops, divs, 0, 0};
    double per = (double)(d->lanes ? d->lanes : 1) * d->clock_hz;
    cls__cpu_device box = *d;
    box.point_cycles = d->box_point_cycles;
    box.read_cycles = d->box_read_cycles;
    c->point_seconds = per > 0 ? cls__cpu_compute_cycles(d, x) / per : 0;
    c->box_point_seconds = per > 0 ? cls__cpu_compute_cycles(&box, x) / per : 0;
    c->row_seconds = d->clock_hz > 0 ? d->start_cycles / d->clock_hz : 0;
    c->box_row_seconds = d->clock_hz > 0 ? d->box_row_cycles / d->clock_hz : 0;
    double spb = cls__cpu_seconds_per_byte(d, ws);
    c->bandwidth = spb > 0 ? 1 / spb : 0;
    c->cache_bandwidth = d->bandwidth_cache > 0 ? d->bandwidth_cache : c->bandwidth;
    c->memory_bandwidth = d->bandwidth;
}

size_t cls__cputile_box(const size_t tile[3], const int halo[3], const int pad[3], size_t height)
{
    size_t b = 1;
    for (int d = 0; d < 3; d++) b *= tile[d] + 2 * height * (size_t)halo[d] + 2 * (size_t)pad[d];
    return b;
}

/* Sum over j = 0 .. m-1 of min(j * t - e, w) for j >= 1 (0 for j = 0): a loop over the
 * tiles within w of the edge, the others counted at w. */
static double edge_sum(size_t m, size_t t, size_t e, size_t w)
{
    double sum = 0;
    size_t j = 1;
    for (; j < m && j * t - e < w; j++) sum += (double)(j * t - e);
    return sum + (double)(m > j ? m - j : 0) * (double)w;
}

/* Points along dimension d that the tiles of one pass compute at r halos of widening, summed
 * over the tiles along d (clipped to the grid unless it is periodic): the tiles themselves,
 * then each one's widening on either side, up to the edge. */
static double extent_sum(const cls__cputile_cost *c, int d, size_t tile, size_t r)
{
    size_t n = c->n[d], w = r * (size_t)c->halo[d], m = (n + tile - 1) / tile;
    if (c->periodic) return (double)n + (double)m * 2.0 * (double)w;
    /* left: tile i starts at i * tile; right: the j-th tile from the end stops j * tile - e
     * before it (e: what the last tile lacks) */
    return (double)n + edge_sum(m, tile, 0, w) + edge_sum(m, tile, m * tile - n, w);
}

/* Points computed (all tiles) at r halos of widening: the product of the sums, as the clipped
 * region of a tile is the product of its extents. */
static double level_points(const cls__cputile_cost *c, const size_t tile[3], size_t r)
{
    double p = 1;
    for (int d = 0; d < 3; d++) p *= extent_sum(c, d, tile[d], r);
    return p;
}

/* Rows (runs along x, one per tile and y, z) computed at r halos of widening. */
static double level_rows(const cls__cputile_cost *c, const size_t tile[3], size_t r)
{
    double rows = (double)((c->n[0] + tile[0] - 1) / tile[0]);
    for (int d = 1; d < 3; d++) rows *= extent_sum(c, d, tile[d], r);
    return rows;
}

/* One pass of k steps: the first and the last step (one step: that one) against the grid's
 * traffic (each tile's widened input, the output written and its lines read for ownership,
 * for every field of a system, and the auxiliary arrays those steps read), plus the steps
 * between, each the longer of its updates and its auxiliary arrays: re-read from the cache,
 * or from memory for those of one slice per step.  A system's first step reads the boxes its
 * pass loaded from the grid; the load is priced as the single field's first step, which
 * reads the grid itself. */
static double pass_seconds(const cls__cputile_cost *c, const size_t tile[3], size_t k,
                           size_t groups, double *computed)
{
    double tiles = 1, points = 1;
    for (int d = 0; d < 3; d++) {
        tiles *= (double)((c->n[d] + tile[d] - 1) / tile[d]);
        points *= (double)c->n[d];
    }
    /* the groups that run at once, and the most tiles one of them runs */
    double slots = (double)(groups < c->cores ? groups : c->cores);
    if (slots < 1) slots = 1;
    double share = (double)(size_t)((tiles + slots - 1) / slots) / tiles;
    double work = 0, edges = 0, edge_aux = 0, middle = 0;
    for (size_t s = 1; s <= k; s++) {
        /* a system's stages each sweep the step's rows, their regions taken at the step's */
        double p = level_points(c, tile, k - s),
               rows = level_rows(c, tile, k - s) * (double)(c->stages ? c->stages : 1);
        double t = s == 1 ? p * c->point_seconds + rows * c->row_seconds
                          : p * c->box_point_seconds + rows * c->box_row_seconds;
        t *= share;
        double kept = p * (c->stream_bytes - c->fresh_bytes), fresh = p * c->fresh_bytes;
        work += p;
        if (s == 1 || s == k) {
            edges += t;
            edge_aux += kept + fresh;
        } else {
            double m = (c->cache_bandwidth > 0 ? kept / c->cache_bandwidth : 0) +
                       (c->memory_bandwidth > 0 ? fresh / c->memory_bandwidth : 0);
            middle += t > m ? t : m;
        }
    }
    *computed = work;
    double memory = 0, fields = (double)(c->fields ? c->fields : 1);
    if (c->bandwidth > 0)
        memory = (fields * (level_points(c, tile, k) + 2 * points) * (double)c->elem + edge_aux) /
                 c->bandwidth;
    return c->restart + (edges > memory ? edges : memory) + middle;
}

double cls__cputile_predict(const cls__cputile_cost *c, const size_t tile[3], size_t height,
                            size_t groups, double *redundancy)
{
    size_t full = c->steps / height, rest = c->steps % height;
    double computed = 0, w = 0, t = 0;
    if (full) {
        t += (double)full * pass_seconds(c, tile, height, groups, &w);
        computed += (double)full * w;
    }
    if (rest) {
        t += pass_seconds(c, tile, rest, groups, &w);
        computed += w;
    }
    double points = (double)c->n[0] * (double)c->n[1] * (double)c->n[2] * (double)c->steps;
    if (redundancy) *redundancy = points > 0 ? computed / points : 1;
    return t;
}
