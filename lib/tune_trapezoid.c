/* tune_trapezoid.c: the trapezoid schedule's parameter choice when the caller leaves it open. */
#include <math.h>

#include "plan.h"

/* Redundant work of a trapezoid stage: each tile computes every point of its tile for h steps
 * but commits only the inner block (000_c422610359a92120.txt Sect. 3.3), so the work per
 * committed point is prod(tile_i) / prod(tile_i - 2 h halo_i). */
static double redundancy(const cls_plan *p, const int halo[3], size_t h)
{
    double r = 1;
    for (int i = 0; i < p->st->dims; i++) {
        double inner = (double)p->tile[i] - 2.0 * (double)h * halo[i];
        if (inner < 1) return HUGE_VAL;
        r *= (double)p->tile[i] / inner;
    }
    return r;
}

size_t cls__trapezoid_default_height(const cls_plan *p)
{
    /* Without a measured profile the largest h whose redundant work stays below 2x: the
     * document's optima sit where the saved global traffic and synchronisation balance the
     * recomputed ghost zone (Fig. 7), which for its 1D and 2D cases is below this bound. */
    int halo[3];
    cls_stencil_halo(p->st, halo);
    size_t best = 1;
    for (size_t h = 1; h <= 64 && h <= (p->steps ? p->steps : 1); h++) {
        if (redundancy(p, halo, h) >= 2.0) break;
        best = h;
    }
    return best;
}
