/* access_publish.c: the kernel templates publish their own access descriptions: for a stencil,
 * its sizes and a schedule, the JSON description (model/access.h, doc/memory-analysis.md) of
 * every mapping variant the schedule's template can run (work-group shapes, classic and
 * aligned ghost-zone loaders, trapezoid work-group shapes), so that the CuMAPz analysis
 * (004_3bb0fc5541bb7adb.txt) judges any plan without hand-written input; and the planner's use
 * of it (cls__mapping_rank_note): the variants ranked by MPE before anything is measured. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_publish.h"
#include "plan.h"
#include "cumapz.h"
#include "expr.h"

#define MAX_OFFS 343 /* radius 3 in three dimensions */

/* The state's reads IN(dx, dy, dz) as the generator emits the body (offsets folded). */
typedef struct reads {
    int off[MAX_OFFS][3];
    size_t n;
    int r[3];
    int corners; /* a read off both axes in the plane: the classic loader loads corners */
} reads;

static cls_status scan_reads(const cls_stencil *st, reads *rd, char *err, size_t errlen)
{
    cls_expr *e = NULL;
    char *text;
    cls_status s = cls__stencil_parse(st, &e);
    memset(rd, 0, sizeof *rd);
    if (s != CLS_SUCCESS) {
        snprintf(err, errlen, "%s", cls_last_error());
        return s;
    }
    text = cls__expr_emit_opencl(e);
    cls__expr_free(e);
    if (!text) {
        snprintf(err, errlen, "out of memory emitting the body");
        return CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    for (const char *c = strstr(text, "IN("); c; c = strstr(c + 3, "IN(")) {
        int o[3] = {0, 0, 0}, got;
        size_t k;
        if (c > text && (c[-1] == '_' || isalnum((unsigned char)c[-1]))) continue;
        /* IN(dx), IN(dx, dy) or IN(dx, dy, dz) by the stencil's dimensions */
        got = sscanf(c, "IN(%d, %d, %d)", &o[0], &o[1], &o[2]);
        if (got < 1 || got > st->dims) continue;
        for (int d = got; d < 3; d++) o[d] = 0;
        for (k = 0; k < rd->n; k++)
            if (!memcmp(rd->off[k], o, sizeof o)) break;
        if (k < rd->n) continue;
        if (rd->n == MAX_OFFS || abs(o[0]) > 3 || abs(o[1]) > 3 || abs(o[2]) > 3) {
            free(text);
            snprintf(err, errlen, "the body reads IN(%d, %d, %d): the published descriptions "
                                  "cover offsets up to 3 in each dimension", o[0], o[1], o[2]);
            return CLS_ERR_PLAN_INFEASIBLE;
        }
        memcpy(rd->off[rd->n++], o, sizeof o);
        for (int d = 0; d < 3; d++)
            if (abs(o[d]) > rd->r[d]) rd->r[d] = abs(o[d]);
        if (o[0] && o[1]) rd->corners = 1;
    }
    free(text);
    if (!rd->n) {
        rd->off[0][0] = rd->off[0][1] = rd->off[0][2] = 0;
        rd->n = 1;
    }
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------------------------------
 * Sizes of the analysed grid.  004 Sect. 7: "except for the channel skew, all other terms are
 * independent of input size"; the analysis keeps the row pitch (the channel pattern) and shrinks
 * the rows and planes.  The arrays are padded by a margin in front (x = 0 stays 128-byte
 * aligned when the row is) and a plane behind, so that halo and ghost reads stay inside them.
 * ---------------------------------------------------------------------------------------- */
typedef struct grid {
    size_t nx, ny, nz;
    unsigned elem;
    int dims;
} grid;

static size_t round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

/* The kernel's common part: params, lets, arrays; the variant adds block, grid, buffers, body.
 * NYV: rows rounded up to the variant's tile height (set per variant). */
static int common_json(char **b, size_t *len, size_t *cap, const grid *g, const reads *rd)
{
    return cls__appendf(b, len, cap,
                        "\"kernel\": {\"params\": {\"NX\": %zu, \"NY\": %zu, \"NZ\": %zu, "
                        "\"RX\": %d, \"RY\": %d, \"RZ\": %d, \"NYV\": \"NY\", \"P\": \"NX\", "
                        "\"PL\": \"(NYV+8*RY+4)*P\", \"O\": \"RZ*PL+(4*RY+2)*P+32\"},"
                        " \"let\": {\"gx\": \"bx*bdx+tx\", \"gy\": \"by*bdy+ty\"},"
                        " \"block\": [32], \"grid\": [1],"
                        " \"arrays\": {\"in\": {\"elem_size\": %u, \"elements\": "
                        "\"(NZ+2*RZ+2)*PL\"}, \"out\": {\"elem_size\": %u, \"elements\": "
                        "\"(NZ+2*RZ+2)*PL\"}}, \"body\": []}",
                        g->nx, g->ny, g->nz, rd->r[0], rd->r[1], rd->r[2], g->elem, g->elem);
}

/* The state's reads at point C (a let) as global references; with in_plane only the distinct
 * in-plane offsets (stream25d: the window takes the planes from local memory). */
static int reads_json(char **b, size_t *len, size_t *cap, const reads *rd, int in_plane)
{
    int rc = 0;
    for (size_t k = 0; k < rd->n && !rc; k++) {
        const int *o = rd->off[k];
        if (in_plane) {
            size_t j;
            for (j = 0; j < k; j++)
                if (rd->off[j][0] == o[0] && rd->off[j][1] == o[1]) break;
            if (j < k) continue;
        }
        rc = cls__appendf(b, len, cap, "{\"read\": \"in[C+(%d)+(%d)*P+(%d)*PL]\"}, ", o[0], o[1],
                          in_plane ? 0 : o[2]);
    }
    return rc;
}

/* naive (cl/naive.cl): one point per work-item, every read from global memory. */
static int naive_json(char **b, size_t *len, size_t *cap, const grid *g, const reads *rd,
                      unsigned bx, unsigned by)
{
    int rc = cls__appendf(b, len, cap,
                          "{\"name\": \"naive-%ux%u\", \"description\": \"naive: %ux%u "
                          "work-groups, one point per work-item, all reads global\","
                          " \"params\": {\"NYV\": %zu}, \"block\": [%u, %u, 1],"
                          " \"grid\": [%zu, %zu, \"NZ\"], \"buffers\": {},"
                          " \"let\": {\"C\": \"O+bz*PL+gy*P+gx\"},"
                          " \"body\": [{\"if\": \"gx < NX && gy < NY\", \"then\": [",
                          bx, by, bx, by, round_up(g->ny, by), bx, by,
                          round_up(g->nx, bx) / bx, round_up(g->ny, by) / by);
    if (!rc) rc = reads_json(b, len, cap, rd, 0);
    if (!rc) rc = cls__appendf(b, len, cap, "{\"write\": \"out[C]\"}]}]}");
    return rc;
}

/* stream25d (cl/stream25d.cl) with one row per work-item: the z-march loads one plane with its
 * ghost zone into local memory per step.  classic: Listing 2 (edge work-items load the halo
 * under conditions, corners when the body reads them); aligned: Listing 3 (the tile widened by
 * gxw words each side, numbered row-major, loaded by all work-items in rounds; described
 * exactly when the work-group is a whole number of tile rows). */
static int stream_json(char **b, size_t *len, size_t *cap, const grid *g, const reads *rd,
                       int aligned, unsigned bx, unsigned by, unsigned gxw)
{
    const int RX = rd->r[0], RY = rd->r[1];
    const unsigned GX = aligned ? gxw : (unsigned)RX;
    const unsigned LW = bx + 2 * GX, LH = by + 2 * (unsigned)RY, items = bx * by;
    int rc = cls__appendf(
        b, len, cap,
        "{\"name\": \"%s-%ux%u\", \"description\": \"stream25d %s loader, %ux%u work-groups, "
        "%ux%u local plane\", \"params\": {\"NYV\": %zu, \"LW\": %u, \"GX\": %u},"
        " \"block\": [%u, %u], \"grid\": [%zu, %zu],"
        " \"buffers\": {\"plane\": {\"elem_size\": %u, \"elements\": %u}},"
        " \"let\": {\"C\": \"O+k*PL+gy*P+gx\"},"
        " \"body\": [{\"loop\": \"k\", \"count\": \"NZ\", \"body\": [",
        aligned ? "aligned" : "classic", bx, by, aligned ? "aligned (001 Listing 3)"
                                                          : "classic (001 Listing 2)",
        bx, by, LW, LH, round_up(g->ny, by), LW, GX, bx, by, round_up(g->nx, bx) / bx,
        round_up(g->ny, by) / by, g->elem, LW * LH);
    if (rc) return rc;
    if (aligned) {
        const unsigned v = items / LW, rounds = (LW * LH + items - 1) / items;
        rc = cls__appendf(b, len, cap,
                          "{\"loop\": \"r\", \"count\": %u, \"view\": [%u, %u], \"body\": ["
                          "{\"if\": \"ty+%u*r < %u\", \"then\": [{\"fetch\": \"plane[(ty+%u*r)*LW"
                          "+tx] = in[O+k*PL+(by*%u+ty+%u*r-RY)*P+bx*%u+tx-GX]\"}]}]}, ",
                          rounds, LW, v, v, LH, v, by, v, bx);
    } else {
        rc = cls__appendf(
            b, len, cap,
            "{\"fetch\": \"plane[(ty+RY)*LW+tx+GX] = in[C]\"},"
            " {\"if\": \"ty < RY\", \"then\": [{\"fetch\": \"plane[ty*LW+tx+GX] = in[C-RY*P]\"}]},"
            " {\"if\": \"ty >= %u\", \"then\": [{\"fetch\": \"plane[(ty+2*RY)*LW+tx+GX] = "
            "in[C+RY*P]\"}]},"
            " {\"if\": \"tx < RX\", \"then\": [{\"fetch\": \"plane[(ty+RY)*LW+tx] = in[C-RX]\"}]},"
            " {\"if\": \"tx >= %u\", \"then\": [{\"fetch\": \"plane[(ty+RY)*LW+tx+2*RX] = "
            "in[C+RX]\"}]}, ",
            by - (unsigned)RY, bx - (unsigned)RX);
        if (!rc && rd->corners)
            rc = cls__appendf(
                b, len, cap,
                "{\"if\": \"tx < RX && ty < RY\", \"then\": ["
                "{\"fetch\": \"plane[ty*LW+tx] = in[C-RX-RY*P]\"},"
                " {\"fetch\": \"plane[ty*LW+tx+GX+%u] = in[C+%u-RY*P]\"},"
                " {\"fetch\": \"plane[(ty+%u+RY)*LW+tx] = in[C-RX+%u*P]\"},"
                " {\"fetch\": \"plane[(ty+%u+RY)*LW+tx+GX+%u] = in[C+%u+%u*P]\"}]}, ",
                bx, bx, by, by, by, bx, bx, by);
    }
    if (!rc)
        rc = cls__appendf(b, len, cap, "{\"if\": \"gx < NX && gy < NY\", \"then\": [");
    if (!rc) rc = reads_json(b, len, cap, rd, 1);
    if (!rc) rc = cls__appendf(b, len, cap, "{\"write\": \"out[C]\"}]}]}]}");
    return rc;
}

/* trapezoid (cl/trapezoid.cl), 2D: a tile of tx x ty points (ghost zone of h x radius
 * included) in local memory with a one-halo margin, work-groups of tx x wy work-items with
 * ty/wy points each along y; h steps in local memory (two buffers), the inner block written. */
static int trap_json(char **b, size_t *len, size_t *cap, const grid *g, const reads *rd,
                     unsigned tx, unsigned ty, unsigned wy, unsigned h)
{
    const int RX = rd->r[0], RY = rd->r[1];
    const unsigned ppi = ty / wy, PX = tx + 2 * (unsigned)RX, PY = ty + 2 * (unsigned)RY;
    const unsigned vx = tx - 2 * h * (unsigned)RX, vy = ty - 2 * h * (unsigned)RY;
    int rc = cls__appendf(
        b, len, cap,
        "{\"name\": \"trapezoid-%ux%u-h%u-wg%ux%u\", \"description\": \"trapezoid: %ux%u tile, "
        "h %u, %ux%u work-groups with %u points each\", \"params\": {\"NYV\": %zu, \"PX\": %u},"
        " \"block\": [%u, %u], \"grid\": [%zu, %zu],"
        " \"buffers\": {\"t0\": {\"elem_size\": %u, \"elements\": %u}, \"t1\": {\"elem_size\": "
        "%u, \"elements\": %u}},"
        " \"let\": {\"X\": \"bx*%u-%u+tx\", \"Y\": \"by*%u-%u+ty+%u*p\", \"C\": \"O+Y*P+X\","
        " \"L\": \"(tx+RX)+PX*(ty+%u*p+RY)\"},"
        " \"body\": [{\"loop\": \"p\", \"count\": %u, \"body\": [{\"fetch\": \"t0[L] = in[C]\"}]},"
        " {\"loop\": \"p\", \"count\": %u, \"body\": [",
        tx, ty, h, tx, wy, tx, ty, h, tx, wy, ppi, round_up(g->ny, vy) + ty, PX,
        tx, wy, (g->nx + vx - 1) / vx, (g->ny + vy - 1) / vy, g->elem, PX * PY, g->elem,
        PX * PY, vx, h * (unsigned)RX, vy, h * (unsigned)RY, wy, wy, ppi, ppi);
    /* Step 1 reads the loaded tile: global references the tile serves (Eq. 1's reuse); the
     * other h-1 steps read and write the two local buffers (temporary storage). */
    for (size_t k = 0; k < rd->n && !rc; k++)
        rc = cls__appendf(b, len, cap, "{\"read\": \"in[C+(%d)+(%d)*P]\"}, ", rd->off[k][0],
                          rd->off[k][1]);
    if (!rc)
        rc = cls__appendf(b, len, cap,
                          "{\"local_write\": \"t1[L]\"}]}, {\"loop\": \"s\", \"count\": %u, "
                          "\"body\": [{\"loop\": \"p\", \"count\": %u, \"body\": [",
                          h - 1, ppi);
    for (size_t k = 0; k < rd->n && !rc; k++)
        rc = cls__appendf(b, len, cap, "{\"local_read\": \"t1[L+(%d)+(%d)*PX]\"}, ",
                          rd->off[k][0], rd->off[k][1]);
    if (!rc)
        rc = cls__appendf(b, len, cap,
                          "{\"local_write\": \"t0[L]\"}]}]},"
                          " {\"loop\": \"p\", \"count\": %u, \"body\": [{\"if\": \"tx >= %u && "
                          "tx < %u && ty+%u*p >= %u && ty+%u*p < %u\", \"then\": "
                          "[{\"write\": \"out[C]\"}]}]}]}",
                          ppi, h * (unsigned)RX, tx - h * (unsigned)RX, wy, h * (unsigned)RY, wy,
                          ty - h * (unsigned)RY);
    return rc;
}

cls_status cls__access_publish(const cls_stencil *st, cls_dims dims, cls_schedule schedule,
                               const cls__mapping *only, char **json, char *err, size_t errlen)
{
    reads rd;
    grid g;
    char *b = NULL;
    size_t len = 0, cap = 0;
    int rc = 0, n = 0;
    cls_status s;

    *json = NULL;
    if ((s = scan_reads(st, &rd, err, errlen)) != CLS_SUCCESS) return s;
    g.dims = st->dims;
    g.elem = (unsigned)cls_dtype_size(st->dtype);
    g.nx = dims.n[0];
    /* Sect. 7: the pitch is kept, the rows and planes reduced (at most 96 rows, 2 planes). */
    g.ny = st->dims >= 2 ? (dims.n[1] < 96 ? dims.n[1] : 96) : 1;
    g.nz = st->dims >= 3 ? (dims.n[2] < 2 ? dims.n[2] : 2) : 1;
    if (st->dims < 3) rd.r[2] = 0;
    rc = cls__appendf(&b, &len, &cap,
                      "{\"name\": \"%s-%s\", \"description\": \"the %s schedule's mapping "
                      "variants for '%s' (%zux%zux%zu, analysed with %zu rows and %zu planes: "
                      "004 Sect. 7)\", \"source\": \"published by the kernel templates "
                      "(lib/access_publish.c)\", ",
                      st->name, cls_schedule_name(schedule), cls_schedule_name(schedule),
                      st->name, dims.n[0], dims.n[1], dims.n[2], g.ny, g.nz);
    if (!rc) rc = common_json(&b, &len, &cap, &g, &rd);
    if (!rc) rc = cls__appendf(&b, &len, &cap, ", \"variants\": [");
    if (schedule == CLS_SCHEDULE_STREAM25D) {
        static const unsigned shapes[][2] = {{32, 6}, {32, 8}, {16, 16}, {64, 4}, {32, 4},
                                             {64, 2}, {16, 8}, {32, 12}};
        const unsigned gxw = (unsigned)round_up((size_t)rd.r[0] * g.elem, 32) / g.elem;
        if (st->dims != 3) {
            free(b);
            snprintf(err, errlen, "stream25d needs a 3D stencil; '%s' has %d dimensions",
                     st->name, st->dims);
            return CLS_ERR_PLAN_INFEASIBLE;
        }
        const size_t ns = sizeof shapes / sizeof shapes[0];
        for (size_t k = 0; k < (only ? 1 : 2 * ns) && !rc; k++) {
            const int aligned = only ? only->aligned : k >= ns;
            const unsigned bx = only ? only->bx : shapes[k % ns][0];
            const unsigned by = only ? only->by : shapes[k % ns][1];
            if (bx < (unsigned)rd.r[0] * 2 || by < (unsigned)rd.r[1] * 2) continue;
            /* Listing 3 is affine when the work-group is whole rows of the plane. */
            if (aligned && (bx * by) % (bx + 2 * gxw)) continue;
            rc = cls__appendf(&b, &len, &cap, "%s", n++ ? ", " : "");
            if (!rc) rc = stream_json(&b, &len, &cap, &g, &rd, aligned, bx, by, gxw);
        }
    } else if (schedule == CLS_SCHEDULE_TRAPEZOID) {
        static const unsigned tiles[][3] = {{32, 32, 8}, {32, 32, 16}, {32, 32, 32},
                                            {64, 16, 4}, {64, 16, 8},  {16, 16, 8},
                                            {16, 16, 16}, {128, 8, 2}};
        if (st->dims != 2) {
            free(b);
            snprintf(err, errlen, "the published trapezoid descriptions cover 2D stencils; "
                                  "'%s' has %d dimensions", st->name, st->dims);
            return CLS_ERR_PLAN_INFEASIBLE;
        }
        for (size_t i = 0; i < (only ? 1 : sizeof tiles / sizeof tiles[0]) && !rc; i++) {
            const unsigned h = only ? only->h : 2;
            const unsigned tx = only ? only->tile_x : tiles[i][0];
            const unsigned ty = only ? only->tile_y : tiles[i][1];
            const unsigned wy = only ? only->by : tiles[i][2];
            /* published tiles keep half their width and height as output; a plan's own tile
             * only needs some output and whole points per work-item */
            const unsigned m = only ? 2 : 4;
            if (!h || !wy || ty % wy || tx <= m * (unsigned)rd.r[0] * h ||
                ty <= m * (unsigned)rd.r[1] * h)
                continue;
            rc = cls__appendf(&b, &len, &cap, "%s", n++ ? ", " : "");
            if (!rc) rc = trap_json(&b, &len, &cap, &g, &rd, tx, ty, wy, h);
        }
    } else {
        static const unsigned shapes[][2] = {{32, 8}, {16, 16}, {64, 4}, {128, 2}, {256, 1},
                                             {8, 32}, {32, 4}, {32, 1}};
        static const unsigned shapes1[][2] = {{32, 1}, {64, 1}, {128, 1}, {256, 1}, {512, 1},
                                              {1024, 1}};
        const int one = st->dims == 1;
        const size_t ns = one ? sizeof shapes1 / sizeof shapes1[0] : sizeof shapes / sizeof shapes[0];
        for (size_t i = 0; i < (only ? 1 : ns) && !rc; i++) {
            const unsigned bx = only ? only->bx : one ? shapes1[i][0] : shapes[i][0];
            const unsigned by = only ? only->by : one ? 1 : shapes[i][1];
            if (!bx || !by) continue;
            rc = cls__appendf(&b, &len, &cap, "%s", n++ ? ", " : "");
            if (!rc) rc = naive_json(&b, &len, &cap, &g, &rd, bx, by);
        }
    }
    if (!rc) rc = cls__appendf(&b, &len, &cap, "]}");
    if (rc) {
        free(b);
        snprintf(err, errlen, "out of memory writing the description");
        return CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    if (!n) {
        free(b);
        snprintf(err, errlen, "no mapping variant of the %s schedule fits '%s'",
                 cls_schedule_name(schedule), st->name);
        return CLS_ERR_PLAN_INFEASIBLE;
    }
    *json = b;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------------------------------
 * The planner's use: rank the schedule's variants by MPE (004 Sect. 8: "MPE ... can be used to
 * compare different mappings of the same program") before anything runs.
 * ---------------------------------------------------------------------------------------- */

/* The plan's own variant, by the names cls__access_publish gives. */
static void plan_variant_name(const cls_plan *p, char *name, size_t len)
{
    if (p->schedule == CLS_SCHEDULE_STREAM25D)
        snprintf(name, len, "%s-%zux%zu", p->loader == CLS_LOADER_ALIGNED ? "aligned" : "classic",
                 p->local[0], p->local[1]);
    else if (p->schedule == CLS_SCHEDULE_TRAPEZOID)
        snprintf(name, len, "trapezoid-%zux%zu-h%zu-wg%zux%zu", p->tile[0], p->tile[1], p->h,
                 p->local[0], p->local[1]);
    else
        snprintf(name, len, "naive-%zux%zu", p->local[0], p->local[1]);
}

/* Whether the planner ranks: on GPUs (the analysis is about their memory system), and anywhere
 * with CLSTENCIL_RANK_MAPPINGS=1 (tests on PoCL); CLSTENCIL_RANK_MAPPINGS=0 turns it off. */
static int ranking_wanted(const cls_plan *p)
{
    const char *env = getenv("CLSTENCIL_RANK_MAPPINGS");
    if (env && env[0]) return strcmp(env, "0") != 0;
    return p->ctx->info.type != CLS_DEVICE_CPU;
}

/* The ranking depends on the stencil, sizes, schedule and device, not on the plan's own
 * choice: computed once per key and thread (a tuner makes hundreds of plans of one stencil). */
#define RANK_CACHE 8
#define RANK_MAX 32
typedef struct rank_entry {
    uint64_t key;
    size_t n;
    char names[RANK_MAX][48];
    double mpe[RANK_MAX];
    char model[48];
    char failure[160]; /* non-empty: why there is no ranking */
} rank_entry;
static _Thread_local rank_entry rank_cache[RANK_CACHE];
static _Thread_local size_t rank_next;

static uint64_t rank_key(const cls_plan *p)
{
    uint64_t h = cls__hash(0x9e3779b97f4a7c15ull, p->st->name, strlen(p->st->name));
    const int sched = (int)p->schedule, dt = (int)p->st->dtype;
    const char *body = cls__stencil_body(p->st, NULL);
    if (body) h = cls__hash(h, body, strlen(body));
    h = cls__hash(h, p->dims.n, sizeof p->dims.n);
    h = cls__hash(h, &sched, sizeof sched);
    h = cls__hash(h, &dt, sizeof dt);
    h = cls__hash(h, p->ctx->info.name, strlen(p->ctx->info.name));
    return h | 1; /* 0 marks an empty entry */
}

/* Analyses the published variants into e (failure set when none can be). */
static void rank_fill(const cls_plan *p, rank_entry *e)
{
    char err[512], *json = NULL;
    cls_access_set *set = NULL;
    cls_model *m = NULL;
    cls_cumapz_options opt = {UINT64_C(20000000)}; /* a planning-time bound, about 0.3 s */
    cls_status s = cls__access_publish(p->st, p->dims, p->schedule, NULL, &json, err, sizeof err);
    e->n = 0;
    e->failure[0] = e->model[0] = '\0';
    if (s == CLS_SUCCESS) s = cls_access_set_from_json(json, NULL, 0, &set, err, sizeof err);
    free(json);
    if (s == CLS_SUCCESS) {
        s = cls_model_match(&p->ctx->info, NULL, &m, NULL, 0);
        if (s != CLS_SUCCESS) snprintf(err, sizeof err, "no device model: %s", cls_last_error());
    }
    if (s != CLS_SUCCESS) {
        snprintf(e->failure, sizeof e->failure, "%.150s", err);
        goto done;
    }
    snprintf(e->model, sizeof e->model, "%s", cls_model_name(m));
    for (size_t i = 0; i < set->n && e->n < RANK_MAX; i++) {
        cls_cumapz_result r;
        if (cls_cumapz_analyze(m, &set->v[i], &opt, &r, err, sizeof err) != CLS_SUCCESS)
            continue; /* a variant the device cannot run (local memory, work-group size) */
        snprintf(e->names[e->n], sizeof e->names[0], "%s", set->v[i].name);
        e->mpe[e->n++] = r.mpe;
    }
    if (!e->n)
        snprintf(e->failure, sizeof e->failure, "no variant analysable on %s", cls_model_name(m));
done:
    cls_access_set_free(set);
    cls_model_release(m);
}

/* MPE of the plan's own mapping alone; -1 when it cannot be described or analysed. */
static double own_mpe(const cls_plan *p)
{
    char err[512], *json = NULL;
    cls__mapping mp;
    cls_access_set *set = NULL;
    cls_model *m = NULL;
    cls_cumapz_options opt = {UINT64_C(20000000)};
    cls_cumapz_result r;
    double out = -1;
    memset(&mp, 0, sizeof mp);
    mp.aligned = p->loader == CLS_LOADER_ALIGNED;
    mp.bx = (unsigned)p->local[0];
    mp.by = (unsigned)p->local[1];
    mp.tile_x = (unsigned)p->tile[0];
    mp.tile_y = (unsigned)p->tile[1];
    mp.h = (unsigned)p->h;
    if (cls__access_publish(p->st, p->dims, p->schedule, &mp, &json, err, sizeof err) ==
            CLS_SUCCESS &&
        cls_access_set_from_json(json, NULL, 0, &set, err, sizeof err) == CLS_SUCCESS &&
        set->n == 1 && cls_model_match(&p->ctx->info, NULL, &m, NULL, 0) == CLS_SUCCESS &&
        cls_cumapz_analyze(m, &set->v[0], &opt, &r, err, sizeof err) == CLS_SUCCESS)
        out = r.mpe;
    free(json);
    cls_access_set_free(set);
    cls_model_release(m);
    return out;
}

void cls__mapping_rank_note(cls_plan *p)
{
    char mine[64], note[256];
    rank_entry *e = NULL;
    uint64_t key;
    size_t best = 0, rank = 1, me = SIZE_MAX;

    if (!ranking_wanted(p)) return;
    if (p->schedule == CLS_SCHEDULE_STREAM25D && p->loader == CLS_LOADER_DIRECT) return;
    plan_variant_name(p, mine, sizeof mine);
    key = rank_key(p);
    for (size_t i = 0; i < RANK_CACHE; i++)
        if (rank_cache[i].key == key) e = &rank_cache[i];
    if (!e) {
        e = &rank_cache[rank_next++ % RANK_CACHE];
        e->key = 0;
        rank_fill(p, e);
        e->key = key;
    }
    if (e->failure[0]) {
        snprintf(note, sizeof note, " CuMAPz: no ranking (%s).", e->failure);
        goto append;
    }
    for (size_t i = 0; i < e->n; i++) {
        if (e->mpe[i] > e->mpe[best]) best = i;
        if (!strcmp(e->names[i], mine)) me = i;
    }
    if (me != SIZE_MAX) {
        for (size_t i = 0; i < e->n; i++)
            if (e->mpe[i] > e->mpe[me] * (1 + 1e-9)) rank++;
        snprintf(note, sizeof note,
                 " CuMAPz on %s: this mapping (%s) ranks %zu of %zu by MPE (%.3g; best %s %.3g).",
                 e->model, mine, rank, e->n, e->mpe[me], e->names[best], e->mpe[best]);
    } else {
        /* the plan's own mapping is not a published candidate: analyse it alone */
        double my = own_mpe(p);
        if (my < 0) {
            snprintf(note, sizeof note, " CuMAPz on %s: best of %zu mappings by MPE is %s "
                                        "(%.3g); this one (%s) is not describable.",
                     e->model, e->n, e->names[best], e->mpe[best], mine);
        } else {
            for (size_t i = 0; i < e->n; i++)
                if (e->mpe[i] > my * (1 + 1e-9)) rank++;
            snprintf(note, sizeof note,
                     " CuMAPz on %s: this mapping (%s) ranks %zu of %zu by MPE (%.3g; best %s "
                     "%.3g).",
                     e->model, mine, rank, e->n + 1, my, my >= e->mpe[best] ? mine : e->names[best],
                     my >= e->mpe[best] ? my : e->mpe[best]);
        }
    }
append:
    if (strlen(p->why) + strlen(note) < sizeof p->why) strcat(p->why, note);
    cls__debug("%s", note);
}

cls_status cls_mapping_describe(const cls_stencil *st, cls_dims dims, cls_schedule schedule,
                                char **json)
{
    char err[512];
    cls_status s;
    if (!st || !json) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_mapping_describe: NULL");
    if (schedule == CLS_SCHEDULE_AUTO) schedule = CLS_SCHEDULE_NAIVE;
    for (int d = 0; d < 3; d++)
        if (!dims.n[d] || dims.n[d] > (1u << 24))
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                             "cls_mapping_describe: size %zu along %c (1 .. 2^24)", dims.n[d],
                             "xyz"[d]);
    s = cls__access_publish(st, dims, schedule, NULL, json, err, sizeof err);
    if (s != CLS_SUCCESS) return cls__fail(NULL, s, "%s", err);
    return CLS_SUCCESS;
}
