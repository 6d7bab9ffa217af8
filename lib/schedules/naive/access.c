/* access.c: the naive schedule's mapping variants for the CuMAPz analysis (cl/naive.cl, one
 * point per work-item): work-group shapes, every read from global memory. */
#include "access_publish.h"
#include "naive.h"

static int variant(cls__access_out *o, const cls__access_request *a, unsigned bx, unsigned by)
{
    size_t nyv = cls__access_round_up(a->ny, by);
    int rc = cls__access_next(o);
    if (!rc)
        rc = cls__access_printf(o,
                                "{\"name\": \"naive-%ux%u\", \"description\": \"naive: %ux%u "
                                "work-groups, one point per work-item, all reads global\","
                                " \"params\": {\"NYV\": %zu}, \"block\": [%u, %u, 1],"
                                " \"grid\": [%zu, %zu, \"NZ\"], \"buffers\": {},"
                                " \"let\": {\"C\": \"O+bz*PL+gy*P+gx\"},"
                                " \"body\": [{\"if\": \"gx < NX && gy < NY\", \"then\": [",
                                bx, by, bx, by, nyv, bx, by, cls__access_round_up(a->nx, bx) / bx,
                                nyv / by);
    if (!rc) rc = cls__access_reads(o, a, 0);
    if (!rc) rc = cls__access_printf(o, "{\"write\": \"out[C]\"}]}]}");
    return rc;
}

cls_status cls__naive_publish_access(const cls__access_request *a, const void *own,
                                     cls__access_out *o)
{
    static const unsigned shapes[][2] = {{32, 8}, {16, 16}, {64, 4}, {128, 2}, {256, 1},
                                         {8, 32}, {32, 4}, {32, 1}};
    static const unsigned shapes1[][2] = {{32, 1}, {64, 1}, {128, 1}, {256, 1}, {512, 1},
                                          {1024, 1}};
    const cls__naive *c = own;
    const int one = a->st->dims == 1;
    const size_t ns = one ? sizeof shapes1 / sizeof shapes1[0] : sizeof shapes / sizeof shapes[0];
    int rc = 0;
    for (size_t i = 0; i < (c ? 1 : ns) && !rc; i++) {
        const unsigned bx = c ? (unsigned)c->local[0] : one ? shapes1[i][0] : shapes[i][0];
        const unsigned by = c ? (unsigned)c->local[1] : one ? 1 : shapes[i][1];
        if (!bx || !by) continue;
        rc = variant(o, a, bx, by);
    }
    return rc ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "writing the description")
              : CLS_SUCCESS;
}
