/* access.c: the stream25d schedule's mapping variants for the CuMAPz analysis (Kim &
 * Shrivastava): classic and aligned loaders x work-group shapes, one step per pass, or a
 * configuration's own. */
#include "access_publish.h"
#include "stream25d.h"

/* stream25d (cl/stream25d.cl) with one row per work-item: the z-march loads one plane with its
 * ghost zone into local memory per step.  classic: Listing 2 (edge work-items load the halo
 * under conditions, corners when the body reads them); aligned: Listing 3 (the tile widened by
 * gxw words each side, numbered row-major, loaded by all work-items in rounds; described
 * exactly when the work-group is a whole number of tile rows). */
static int variant(cls__access_out *o, const cls__access_request *a, int aligned, unsigned bx,
                   unsigned by, unsigned gxw)
{
    const int RX = a->r[0], RY = a->r[1];
    const unsigned GX = aligned ? gxw : (unsigned)RX;
    const unsigned LW = bx + 2 * GX, LH = by + 2 * (unsigned)RY, items = bx * by;
    int rc = cls__access_next(o);
    if (!rc)
        rc = cls__access_printf(
        o,
        "{\"name\": \"%s-%ux%u\", \"description\": \"stream25d %s loader, %ux%u work-groups, "
        "%ux%u local plane\", \"params\": {\"NYV\": %zu, \"LW\": %u, \"GX\": %u},"
        " \"block\": [%u, %u], \"grid\": [%zu, %zu],"
        " \"buffers\": {\"plane\": {\"elem_size\": %u, \"elements\": %u}},"
        " \"let\": {\"C\": \"O+k*PL+gy*P+gx\"},"
        " \"body\": [{\"loop\": \"k\", \"count\": \"NZ\", \"body\": [",
        aligned ? "aligned" : "classic", bx, by, aligned ? "aligned (Mo & Li Listing 3)"
                                                          : "classic (Mo & Li Listing 2)",
        bx, by, LW, LH, cls__access_round_up(a->ny, by), LW, GX, bx, by, cls__access_round_up(a->nx, bx) / bx,
        cls__access_round_up(a->ny, by) / by, a->elem, LW * LH);
    if (rc) return rc;
    if (aligned) {
        const unsigned v = items / LW, rounds = (LW * LH + items - 1) / items;
        rc = cls__access_printf(o,
                          "{\"loop\": \"r\", \"count\": %u, \"view\": [%u, %u], \"body\": ["
                          "{\"if\": \"ty+%u*r < %u\", \"then\": [{\"fetch\": \"plane[(ty+%u*r)*LW"
                          "+tx] = in[O+k*PL+(by*%u+ty+%u*r-RY)*P+bx*%u+tx-GX]\"}]}]}, ",
                          rounds, LW, v, v, LH, v, by, v, bx);
    } else {
        rc = cls__access_printf(
            o,
            "{\"fetch\": \"plane[(ty+RY)*LW+tx+GX] = in[C]\"},"
            " {\"if\": \"ty < RY\", \"then\": [{\"fetch\": \"plane[ty*LW+tx+GX] = in[C-RY*P]\"}]},"
            " {\"if\": \"ty >= %u\", \"then\": [{\"fetch\": \"plane[(ty+2*RY)*LW+tx+GX] = "
            "in[C+RY*P]\"}]},"
            " {\"if\": \"tx < RX\", \"then\": [{\"fetch\": \"plane[(ty+RY)*LW+tx] = in[C-RX]\"}]},"
            " {\"if\": \"tx >= %u\", \"then\": [{\"fetch\": \"plane[(ty+RY)*LW+tx+2*RX] = "
            "in[C+RX]\"}]}, ",
            by - (unsigned)RY, bx - (unsigned)RX);
        if (!rc && a->corners)
            rc = cls__access_printf(
                o,
                "{\"if\": \"tx < RX && ty < RY\", \"then\": ["
                "{\"fetch\": \"plane[ty*LW+tx] = in[C-RX-RY*P]\"},"
                " {\"fetch\": \"plane[ty*LW+tx+GX+%u] = in[C+%u-RY*P]\"},"
                " {\"fetch\": \"plane[(ty+%u+RY)*LW+tx] = in[C-RX+%u*P]\"},"
                " {\"fetch\": \"plane[(ty+%u+RY)*LW+tx+GX+%u] = in[C+%u+%u*P]\"}]}, ",
                bx, bx, by, by, by, bx, bx, by);
    }
    if (!rc)
        rc = cls__access_printf(o, "{\"if\": \"gx < NX && gy < NY\", \"then\": [");
    if (!rc) rc = cls__access_reads(o, a, 1);
    if (!rc) rc = cls__access_printf(o, "{\"write\": \"out[C]\"}]}]}]}");
    return rc;
}

cls_status cls__stream25d_publish_access(const cls__access_request *a, const void *own,
                                         cls__access_out *o)
{
    static const unsigned shapes[][2] = {{32, 6}, {32, 8}, {16, 16}, {64, 4}, {32, 4},
                                         {64, 2}, {16, 8}, {32, 12}};
    const cls__s25 *c = own;
    const unsigned gxw = (unsigned)cls__access_round_up((size_t)a->r[0] * a->elem, 32) / a->elem;
    int rc = 0;
    if (a->st->dims != 3)
        return cls__fail(NULL, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d needs a 3D stencil; '%s' has %d dimensions", a->st->name,
                         a->st->dims);
    if (c && c->window == CLS__WINDOW_COLUMN)
        return cls__fail(NULL, CLS_ERR_PLAN_INFEASIBLE,
                         "stream25d's column window (cl/stream25d_column.cl) has no access "
                         "description for the analysis");
    const size_t ns = sizeof shapes / sizeof shapes[0];
    for (size_t k = 0; k < (c ? 1 : 2 * ns) && !rc; k++) {
        const int aligned = c ? c->loader == CLS__LOADER_ALIGNED : k >= ns;
        const unsigned bx = c ? (unsigned)c->local[0] : shapes[k % ns][0];
        const unsigned by = c ? (unsigned)c->local[1] : shapes[k % ns][1];
        if (bx < (unsigned)a->r[0] * 2 || by < (unsigned)a->r[1] * 2) continue;
        /* Listing 3 is affine when the work-group is whole rows of the plane. */
        if (aligned && (bx * by) % (bx + 2 * gxw)) continue;
        rc = variant(o, a, aligned, bx, by, gxw);
    }
    return rc ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "writing the description")
              : CLS_SUCCESS;
}
