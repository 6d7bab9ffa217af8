/* access.c: the trapezoid schedule's mapping variants for the CuMAPz analysis (Kim &
 * Shrivastava): 2D tiles x work-group heights at h 2, or a configuration's own. */
#include "access_publish.h"
#include "trapezoid.h"

/* trapezoid (cl/trapezoid.cl), 2D: a tile of tx x ty points (ghost zone of h x radius
 * included) in local memory with a one-halo margin, work-groups of tx x wy work-items with
 * ty/wy points each along y; h steps in local memory (two buffers), the inner block written. */
static int variant(cls__access_out *o, const cls__access_request *a, const int ghost[3],
                   unsigned tx, unsigned ty, unsigned wy, unsigned h)
{
    /* the margin is one halo; the tile loses a step's reach per step (for a system the sum
     * of its stages' radii, whose reads the description folds onto one array) */
    const int RX = ghost[0], RY = ghost[1];
    const unsigned ppi = ty / wy, PX = tx + 2 * (unsigned)a->r[0], PY = ty + 2 * (unsigned)a->r[1];
    const unsigned vx = tx - 2 * h * (unsigned)RX, vy = ty - 2 * h * (unsigned)RY;
    int rc = cls__access_next(o);
    if (!rc)
        rc = cls__access_printf(
        o,
        "{\"name\": \"trapezoid-%ux%u-h%u-wg%ux%u\", \"description\": \"trapezoid: %ux%u tile, "
        "h %u, %ux%u work-groups with %u points each\", \"params\": {\"NYV\": %zu, \"PX\": %u},"
        " \"block\": [%u, %u], \"grid\": [%zu, %zu],"
        " \"buffers\": {\"t0\": {\"elem_size\": %u, \"elements\": %u}, \"t1\": {\"elem_size\": "
        "%u, \"elements\": %u}},"
        " \"let\": {\"X\": \"bx*%u-%u+tx\", \"Y\": \"by*%u-%u+ty+%u*p\", \"C\": \"O+Y*P+X\","
        " \"L\": \"(tx+RX)+PX*(ty+%u*p+RY)\"},"
        " \"body\": [{\"loop\": \"p\", \"count\": %u, \"body\": [{\"fetch\": \"t0[L] = in[C]\"}]},"
        " {\"loop\": \"p\", \"count\": %u, \"body\": [",
        tx, ty, h, tx, wy, tx, ty, h, tx, wy, ppi, cls__access_round_up(a->ny, vy) + ty, PX,
        tx, wy, (a->nx + vx - 1) / vx, (a->ny + vy - 1) / vy, a->elem, PX * PY, a->elem,
        PX * PY, vx, h * (unsigned)RX, vy, h * (unsigned)RY, wy, wy, ppi, ppi);
    /* Step 1 reads the loaded tile: global references the tile serves (Eq. 1's reuse); the
     * other h-1 steps read and write the two local buffers (temporary storage). */
    for (size_t k = 0; k < a->n && !rc; k++)
        rc = cls__access_printf(o, "{\"read\": \"in[C+(%d)+(%d)*P]\"}, ", a->off[k][0],
                          a->off[k][1]);
    if (!rc)
        rc = cls__access_printf(o,
                          "{\"local_write\": \"t1[L]\"}]}, {\"loop\": \"s\", \"count\": %u, "
                          "\"body\": [{\"loop\": \"p\", \"count\": %u, \"body\": [",
                          h - 1, ppi);
    for (size_t k = 0; k < a->n && !rc; k++)
        rc = cls__access_printf(o, "{\"local_read\": \"t1[L+(%d)+(%d)*PX]\"}, ",
                          a->off[k][0], a->off[k][1]);
    if (!rc)
        rc = cls__access_printf(o,
                          "{\"local_write\": \"t0[L]\"}]}]},"
                          " {\"loop\": \"p\", \"count\": %u, \"body\": [{\"if\": \"tx >= %u && "
                          "tx < %u && ty+%u*p >= %u && ty+%u*p < %u\", \"then\": "
                          "[{\"write\": \"out[C]\"}]}]}]}",
                          ppi, h * (unsigned)RX, tx - h * (unsigned)RX, wy, h * (unsigned)RY, wy,
                          ty - h * (unsigned)RY);
    return rc;
}

cls_status cls__trapezoid_publish_access(const cls__access_request *a, const void *own,
                                         cls__access_out *o)
{
    static const unsigned tiles[][3] = {{32, 32, 8}, {32, 32, 16}, {32, 32, 32},
                                        {64, 16, 4}, {64, 16, 8},  {16, 16, 8},
                                        {16, 16, 16}, {128, 8, 2}};
    const cls__trapezoid *t = own;
    int rc = 0, ghost[3];
    cls__stencil_step_reach(a->st, ghost);
    if (a->st->dims != 2)
        return cls__fail(NULL, CLS_ERR_PLAN_INFEASIBLE,
                         "the published trapezoid descriptions cover 2D stencils; '%s' has %d "
                         "dimensions",
                         a->st->name, a->st->dims);
    for (size_t i = 0; i < (t ? 1 : sizeof tiles / sizeof tiles[0]) && !rc; i++) {
        const unsigned h = t ? (unsigned)t->c.h : 2;
        const unsigned tx = t ? (unsigned)t->c.tile[0] : tiles[i][0];
        const unsigned ty = t ? (unsigned)t->c.tile[1] : tiles[i][1];
        const unsigned wy = t ? (unsigned)t->local[1] : tiles[i][2];
        /* published tiles keep half their width and height as output; a plan's own tile
         * only needs some output and whole points per work-item */
        const unsigned m = t ? 2 : 4;
        if (!h || !wy || ty % wy || tx <= m * (unsigned)ghost[0] * h ||
            ty <= m * (unsigned)ghost[1] * h)
            continue;
        rc = variant(o, a, ghost, tx, ty, wy, h);
    }
    return rc ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "writing the description")
              : CLS_SUCCESS;
}
