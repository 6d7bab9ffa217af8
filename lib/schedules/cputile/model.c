/* model.c: the cputile schedule's model: the updates a pass computes (the tiles' overlap
 * included), each at the in-cache rate of one compute unit, and the rows they run in, against
 * the grid's traffic at the device's bandwidth; a pass takes the longer of the two plus a
 * launch.  The ghost-zone
 * reasoning of Meng & Skadron 2010 (Eqs. 1-2) with the cache in place of local memory. */
#include "cputile.h"

size_t cls__cputile_box(const size_t tile[3], const int halo[3], size_t height)
{
    size_t b = 1;
    for (int d = 0; d < 3; d++) b *= tile[d] + 2 * height * (size_t)halo[d];
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

/* One pass of k steps. */
static double pass_seconds(const cls__cputile_cost *c, const size_t tile[3], size_t k,
                           size_t groups, double *computed)
{
    double tiles = 1, points = 1;
    for (int d = 0; d < 3; d++) {
        tiles *= (double)((c->n[d] + tile[d] - 1) / tile[d]);
        points *= (double)c->n[d];
    }
    double work = 0, rows = 0;
    for (size_t s = 1; s <= k; s++) {
        work += level_points(c, tile, k - s);
        rows += level_rows(c, tile, k - s);
    }
    *computed = work;
    /* the groups that run at once, and the most tiles one of them runs */
    double slots = (double)(groups < c->cores ? groups : c->cores);
    if (slots < 1) slots = 1;
    double rounds = (double)(size_t)((tiles + slots - 1) / slots);
    double compute = (work * c->point_seconds + rows * c->row_seconds) * rounds / tiles;
    double memory = 0;
    if (c->bandwidth > 0) {
        /* the first step's input (each tile's widened region), the output written (and its
         * lines read for ownership), the auxiliary arrays at every computed point */
        double bytes = level_points(c, tile, k) * (double)c->elem + 2 * points * (double)c->elem +
                       work * c->stream_bytes;
        memory = bytes / c->bandwidth;
    }
    return c->restart + (compute > memory ? compute : memory);
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
