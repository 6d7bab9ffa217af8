/* test_cumapz_unit.c: index expressions, exact factor values on small descriptions, bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "cumapz.h"
#include "error.h"
#include "tap.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1); }

/* ------------------------------------------------------------------ expressions */

static void test_expressions(void)
{
    static const char *const names[] = {"MAX", "F", "row", "col"};
    static const int64_t values[] = {512, 2};
    static const char *const lets[] = {"by*16+ty", "bx*bdx+tx"};
    cls_acc_scope s;
    cls_affine e;
    cls_acc_cond c[CLS_ACC_MAX_CONDS];
    size_t nc;

    memset(&s, 0, sizeof s);
    s.names = names;
    s.values = values;
    s.lets = lets;
    s.n_params = 2;
    s.n_lets = 2;
    s.block[0] = 16;
    s.block[1] = 16;
    s.block[2] = 1;
    s.grid[0] = s.grid[1] = 32;
    s.grid[2] = 1;
    s.loops[0] = "i";
    s.n_loops = 1;

    tap_ok(cls_acc_parse_expr("row*MAX+col+F", &s, &e) == 0 && e.c == 2 &&
               e.k[CLS_AV_BY] == 16 * 512 && e.k[CLS_AV_TY] == 512 && e.k[CLS_AV_BX] == 16 &&
               e.k[CLS_AV_TX] == 1 && e.k[CLS_AV_BZ] == 0,
           "row*MAX+col+F with lets and params is affine in bx, by, tx, ty");
    tap_ok(cls_acc_parse_expr("-(tx - 3*(i+1)) + MAX/16 - 7%4 + gdx", &s, &e) == 0 &&
               e.k[CLS_AV_TX] == -1 && e.k[CLS_AV_L0] == 3 && e.c == 3 + 32 - 3 + 32,
           "unary minus, parentheses, constant / and %%, loop variables, gdx");
    {
        static const struct {
            const char *text, *want;
        } bad[] = {
            {"tx*ty", "not affine"},        {"tx/2", "constant operands"},
            {"MAX/0", "division by zero"},  {"G+1", "unknown name 'G'"},
            {"3 +", "missing"},             {"(tx+1", "')' expected"},
            {"99999999999999999999", "too large"},
            {"4611686018427387904*4", "overflows"},
            {"tx $ 2", "unexpected character"}, {"2tx", "cannot start with a digit"},
            {"in[tx]", "array or function"},
        };
        int all = 1;
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            if (cls_acc_parse_expr(bad[i].text, &s, &e) == 0 ||
                !strstr(cls__error_message(), bad[i].want)) {
                tap_diag("'%s' gave '%s'", bad[i].text, cls__error_message());
                all = 0;
            }
        }
        tap_ok(all, "bad expressions are refused with a reason (%zu cases)",
               sizeof bad / sizeof bad[0]);
    }
    tap_ok(cls_acc_parse_cond("tx == 0 && ty < bdy-1", &s, c, &nc) == 0 && nc == 2 &&
               c[0].op == CLS_ACC_EQ && c[1].op == CLS_ACC_LT && c[1].e.c == -15,
           "a condition of two comparisons");
    tap_ok(cls_acc_parse_cond("tx = 0", &s, c, &nc) != 0 &&
               strstr(cls__error_message(), "comparison") != NULL,
           "'=' is not a comparison: %s", cls__error_message());
    s.constant_only = 1;
    tap_ok(cls_acc_parse_expr("MAX+tx", &s, &e) != 0 &&
               strstr(cls__error_message(), "constant is needed") != NULL,
           "a constant context refuses indices: %s", cls__error_message());
}

/* ------------------------------------------------------------------ exact factors */

static cls_access_set *parse(const char *json)
{
    cls_access_set *set = NULL;
    if (cls_access_set_from_json(json, NULL, 0, &set) != CLS_SUCCESS) return NULL;
    return set;
}

static void test_exact(const cls_model *m)
{
    cls_cumapz_result r;
    cls_access_set *set;

    /* Misaligned reads by 16-item work-groups: half-warps alternate one 128-byte transaction
     * with a 64- and a 32-byte one (Kim & Shrivastava, Fig. 5(a)); 16 items per work-group and 8
     * resident work-groups make 8 of 32 warps: occupancy 25 %. */
    set = parse("{\"name\": \"shift\", \"kernel\": {\"block\": [16], \"grid\": [64],"
                " \"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 1040},"
                "             \"out\": {\"elem_size\": 4, \"elements\": 1024}},"
                " \"body\": [{\"read\": \"in[bx*16+tx+1]\"}, {\"write\": \"out[bx*16+tx]\"}]}}");
    if (tap_ok(set && cls_cumapz_analyze(m, &set->v[0], NULL, &r) == CLS_SUCCESS,
               "a misaligned copy analyses")) {
        tap_ok(near(r.bw_util, 8.0 / 11.0) && r.bytes_access == 64 * 128 &&
                   r.bytes_tr == 32 * (128 + 64) + 32 * (96 + 64),
               "Eq. 3: bw_util = 8192 / 11264 = 8/11 [%.6f]", r.bw_util);
        tap_ok(near(r.occupancy_pct, 25) && near(r.lat_hiding, 0.5) && r.max_blks == 8,
               "Eq. 2: occupancy 25 %%, lat_hiding = 25/50 * sqrt(1) = 0.5 [%.4f]", r.lat_hiding);
        tap_ok(r.data_reuse == 1 && r.shm_eff == 1 && r.branch_eff == 1 && r.ch_skew == 1 &&
                   r.n_blk_to_check == 32,
               "no buffer, no branch: data_reuse, shm_eff, branch_eff 1; Eq. 4: 8 x MIN(8, "
               "256/64) = 32 work-groups checked, evenly spread");
        tap_ok(near(r.mpe, 0.5 * 8.0 / 11.0), "Eq. 8: MPE = 0.5 * 8/11 [%.6f]", r.mpe);
    }
    cls_access_set_free(set);

    /* A fetch read twice, one read half from the buffer, a write in a branch. */
    set = parse("{\"name\": \"mix\", \"kernel\": {\"block\": [16], \"grid\": [64],"
                " \"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 1040},"
                "             \"out\": {\"elem_size\": 4, \"elements\": 1024}},"
                " \"buffers\": {\"s\": {\"elem_size\": 4, \"elements\": 256}},"
                " \"body\": [{\"fetch\": \"s[tx*16] = in[bx*16+tx]\"},"
                "          {\"read\": \"in[bx*16+tx]\"}, {\"read\": \"in[bx*16+tx+1]\"},"
                "          {\"if\": \"tx < 8\", \"then\": [{\"write\": \"out[bx*16+tx]\"}]}]}}");
    if (tap_ok(set && cls_cumapz_analyze(m, &set->v[0], NULL, &r) == CLS_SUCCESS,
               "a description with a buffer analyses")) {
        double shm = 3.0 / 47.0;
        tap_ok(r.shm_reads == 64 * 31 && near(r.data_reuse, 124.0 / 64.0),
               "Eq. 1: 31 of 32 reads per work-group from the buffer, data_reuse = 124 / 64 "
               "[%.4f]",
               r.data_reuse);
        tap_ok(near(r.bw_util, 100.0 / 128.0), "Eq. 3: fetch 64/64, uncovered read 4/32, half "
                                               "write 32/32: bw_util = 100/128 [%.5f]",
               r.bw_util);
        tap_ok(near(r.shm_eff, shm) && r.worst_degree == 16,
               "Eq. 6: s[tx*16] is one bank: passes 16 + 16 + 15 for 3 conflict-free ones, "
               "shm_eff = 3/47 [%.5f]",
               r.shm_eff);
        tap_ok(near(r.branch_eff, 4.0 / 6.0) && r.n_diverged == 2 * 64,
               "Eq. 7: the part-buffered read and the write in a branch diverge: 4 / 6 [%.4f]",
               r.branch_eff);
        tap_ok(near(r.mpe, 124.0 / 64.0 * 0.5 * 100.0 / 128.0 * 4.0 / 6.0 * sqrt(shm)),
               "Eq. 8: MPE = data_reuse * lat_hiding * bw_util / ch_skew * branch_eff * "
               "shm_eff^(1/2) [%.6f]",
               r.mpe);
    }
    cls_access_set_free(set);

    /* Every work-item of every work-group writes 2 KB apart: one channel (Kim & Shrivastava,
     * Fig. 5(b)). */
    set = parse("{\"name\": \"camp\", \"kernel\": {\"block\": [16], \"grid\": [64],"
                " \"arrays\": {\"out\": {\"elem_size\": 4, \"elements\": 524288}},"
                " \"body\": [{\"write\": \"out[(bx*16+tx)*512]\"}]}}");
    if (tap_ok(set && cls_cumapz_analyze(m, &set->v[0], NULL, &r) == CLS_SUCCESS,
               "a camping write analyses")) {
        tap_ok(r.ch_skew == 8 && r.channels_used == 1 && r.max_n_block_per_ch == 32 &&
                   near(r.bw_util, 0.125),
               "Eq. 5: all 32 checked work-groups on one channel: ch_skew = n_channels = 8; "
               "16 transactions of 32 bytes per half-warp: bw_util 1/8");
    }
    cls_access_set_free(set);

    /* A loop refills its buffer; a view reshapes the work-group for the fetch. */
    set = parse("{\"name\": \"loop\", \"kernel\": {\"block\": [8, 2], \"grid\": [4],"
                " \"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 256}},"
                " \"buffers\": {\"s\": {\"elem_size\": 4, \"elements\": 16}},"
                " \"body\": [{\"loop\": \"i\", \"count\": 4, \"body\": ["
                "   {\"fetch\": \"s[tx] = in[bx*64+i*16+tx]\", \"view\": [16]},"
                "   {\"read\": \"in[bx*64+i*16+ty*8+tx]\"}]},"
                "  {\"read\": \"in[bx*64+ty*8+tx]\"}]}}");
    if (tap_ok(set && cls_cumapz_analyze(m, &set->v[0], NULL, &r) == CLS_SUCCESS,
               "a loop with a viewed fetch analyses")) {
        tap_ok(r.shm_reads == 4 * 4 * 16 && r.array_reads[0] == 4 * 5 * 16 &&
                   near(r.n_shm_load, 1.0),
               "each iteration refills the buffer: the loop's reads hit it (%llu of %llu), the "
               "read after the loop misses the first tile; one fetch per fill",
               (unsigned long long)r.shm_reads, (unsigned long long)r.array_reads[0]);
    }
    cls_access_set_free(set);
}

/* ------------------------------------------------------------------ gpu family rules */

static cls_status analyse1(const cls_model *m, const char *json, cls_cumapz_result *r)
{
    cls_access_set *set = parse(json);
    cls_status st = set ? cls_cumapz_analyze(m, &set->v[0], NULL, r) : CLS_ERR_INVALID_SPEC;
    if (st != CLS_SUCCESS) tap_diag("%s", cls__error_message());
    cls_access_set_free(set);
    return st;
}

/* The rules the gpu family adds for the H100 (devices/family_gpu.c), on hand-made models. */
static void test_gpu_rules(void)
{
    cls_model *m = NULL;
    cls_cumapz_result r;
    /* A 32-way conflict (every work-item in bank 0) and a conflict-free access per warp. */
    const char *conflicts = "{\"name\": \"k\", \"kernel\": {\"block\": [32], \"grid\": [4],"
                            " \"arrays\": {\"out\": {\"elem_size\": 4, \"elements\": 128}},"
                            " \"buffers\": {\"s\": {\"elem_size\": 4, \"elements\": 1024}},"
                            " \"body\": [{\"local_write\": \"s[tx*32]\"}, {\"local_read\": \"s[tx]\"},"
                            " {\"write\": \"out[bx*32+tx]\"}]}}";
    /* The same on 24 work-items: a 24-way conflict, between two measured strides. */
    const char *conflicts24 = "{\"name\": \"k\", \"kernel\": {\"block\": [24], \"grid\": [4],"
                              " \"arrays\": {\"out\": {\"elem_size\": 4, \"elements\": 128}},"
                              " \"buffers\": {\"s\": {\"elem_size\": 4, \"elements\": 1024}},"
                              " \"body\": [{\"local_write\": \"s[tx*32]\"}, {\"local_read\": \"s[tx]\"},"
                            " {\"write\": \"out[bx*32+tx]\"}]}}";
    /* Each work-group fetches its 32 elements and its right neighbour's (a halo), reads both. */
    const char *halo = "{\"name\": \"h\", \"kernel\": {\"block\": [32], \"grid\": [8],"
                       " \"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 288}},"
                       " \"buffers\": {\"s\": {\"elem_size\": 4, \"elements\": 64}},"
                       " \"body\": [{\"fetch\": \"s[tx] = in[bx*32+tx]\"},"
                       "  {\"fetch\": \"s[tx+32] = in[bx*32+tx+32]\"},"
                       "  {\"read\": \"in[bx*32+tx]\"}, {\"read\": \"in[bx*32+tx+32]\"}]}}";
    /* A read, the same read shifted by one, a write. */
    const char *shift = "{\"name\": \"s\", \"kernel\": {\"block\": [32], \"grid\": [4],"
                        " \"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 160},"
                        "             \"out\": {\"elem_size\": 4, \"elements\": 128}},"
                        " \"body\": [{\"read\": \"in[bx*32+tx]\"}, {\"read\": \"in[bx*32+tx+1]\"},"
                        "  {\"write\": \"out[bx*32+tx]\"}]}}";

    if (!tap_ok(cls_model_from_defaults("gpu", NULL, &m) == CLS_SUCCESS,
                "the gpu family defaults load"))
        return;
    /* Eq. 6 without a stride sweep in the model: a k-way conflict costs k passes. */
    if (tap_ok(analyse1(m, conflicts, &r) == CLS_SUCCESS, "a 32-way conflict analyses"))
        tap_ok(near(r.shm_eff, 2.0 / 33.0) && r.n_bk_conflict == 4 * 33,
               "Eq. 6 without a measured stride sweep: passes 32 + 1 for 2 conflict-free ones, "
               "shm_eff = 2/33 [%.6f]",
               r.shm_eff);
    /* A hand-made sweep: slowdowns 2, 3, 5, 9, 17 at strides 2 .. 32. */
    cls_model_set(m, "local_memory.stride_slowdown_2", 2);
    cls_model_set(m, "local_memory.stride_slowdown_4", 3);
    cls_model_set(m, "local_memory.stride_slowdown_8", 5);
    cls_model_set(m, "local_memory.stride_slowdown_16", 9);
    if (tap_ok(analyse1(m, conflicts, &r) == CLS_SUCCESS, "with four of five strides measured"))
        tap_ok(near(r.shm_eff, 2.0 / 33.0), "an incomplete sweep is not used: shm_eff 2/33");
    cls_model_set(m, "local_memory.stride_slowdown_32", 17);
    if (tap_ok(analyse1(m, conflicts, &r) == CLS_SUCCESS, "with the whole sweep"))
        tap_ok(near(r.shm_eff, 2.0 / 18.0) && r.n_bk_conflict == 4 * 33,
               "Eq. 6 from the sweep: the 32-way access costs the measured 17, shm_eff = 2/18 "
               "[%.6f]; n_bk_conflict still counts 33 passes",
               r.shm_eff);
    if (tap_ok(analyse1(m, conflicts24, &r) == CLS_SUCCESS, "a 24-way conflict analyses"))
        tap_ok(near(r.shm_eff, 2.0 / 14.0) && r.worst_degree == 24,
               "a 24-way conflict is interpolated between strides 16 and 32: 9 + 8 * 8/16 = 13 "
               "passes, shm_eff = 2/14 [%.6f]",
               r.shm_eff);

    /* Eq. 1 without and with an L2 shared by the resident work-groups. */
    if (tap_ok(analyse1(m, halo, &r) == CLS_SUCCESS, "a halo fetch analyses"))
        tap_ok(near(r.data_reuse, 1.0),
               "Eq. 1 without an L2 in the model: each work-group's 64 fetched elements count, "
               "data_reuse 1 [%.4f]",
               r.data_reuse);
    cls_model_set(m, "memory.l2_bytes", 1 << 20);
    if (tap_ok(analyse1(m, halo, &r) == CLS_SUCCESS, "with an L2"))
        tap_ok(near(r.data_reuse, 2048.0 / 1152.0),
               "Eq. 1 with an L2: the 288 distinct elements come from memory once for the 8 "
               "resident work-groups, data_reuse = 2048 / 1152 [%.4f]",
               r.data_reuse);
    cls_model_set(m, "compute.compute_units", 1);
    cls_model_set(m, "compute.blocks_per_cu", 1);
    if (tap_ok(analyse1(m, halo, &r) == CLS_SUCCESS, "with one resident work-group"))
        tap_ok(near(r.data_reuse, 1.0),
               "a window of one work-group shares nothing: data_reuse 1 [%.4f]", r.data_reuse);

    /* Eq. 3 with an L1: the shifted read's lanes 0..30 hit the sectors the first read brought;
     * lane 31 asks for one new sector. */
    if (tap_ok(analyse1(m, shift, &r) == CLS_SUCCESS, "a shifted re-read analyses"))
        tap_ok(near(r.bw_util, 260.0 / 288.0) && r.bytes_tr == 4 * 288,
               "Eq. 3 with an L1: read 128/128, shifted read 4/32 (its other lanes hit), write "
               "128/128: bw_util = 260/288 [%.5f]",
               r.bw_util);
    cls_model_release(m);
}

/* ------------------------------------------------------------------ bad input */

/* A small valid kernel with one field replaced: KERNEL(block, body) etc. */
#define HEAD "{\"name\": \"bad\", \"kernel\": {"
#define ARRAYS "\"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 16}}"

static void test_bad(const cls_model *m)
{
    static const struct {
        const char *json;
        cls_status parse_status; /* CLS_SUCCESS: parses, the analysis fails */
        cls_status status;
        const char *want;        /* in the message */
    } bad[] = {
        {"{\"name\": \"bad\", \"kernel\": {", CLS_ERR_INVALID_JSON, 0, "line 1, column"},
        {HEAD "\"block\": [16, 0], \"grid\": [1], " ARRAYS ", \"body\": []}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.block[1]: a zero-sized"},
        {HEAD "\"block\": [16], \"grid\": [\"2-2\"], " ARRAYS ", \"body\": []}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.grid[0]: a zero-sized"},
        {HEAD "\"blok\": [16], \"grid\": [1], " ARRAYS ", \"body\": []}}", CLS_ERR_INVALID_SPEC,
         0, "$.kernel.blok: unknown key"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"inn[tx]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.body[0].read: 'inn[tx]': 'inn' is not declared"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[tx*tx]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "not affine"},
        {HEAD "\"block\": [16], \"grid\": [2], " ARRAYS
              ", \"body\": [{\"read\": \"in[bx*16+tx]\"}]}}",
         CLS_SUCCESS, CLS_ERR_INVALID_SPEC,
         "$.kernel.body[0]: element 16 of array 'in' is outside its 16 elements (work-group "
         "(1,0,0), work-item (0,0,0))"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[tx-1]\"}]}}",
         CLS_SUCCESS, CLS_ERR_INVALID_SPEC, "element -1 of array 'in'"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"buffers\": {\"s\": {\"elem_size\": 4,"
              " \"elements\": 8192}}, \"body\": [{\"fetch\": \"s[tx] = in[tx]\"}]}}",
         CLS_SUCCESS, CLS_ERR_PLAN_INFEASIBLE,
         "$.kernel.buffers: the buffers need 32768 bytes of local memory"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"buffers\": {\"s\": {\"elem_size\": 4,"
              " \"elements\": 8}}, \"body\": [{\"fetch\": \"s[tx] = in[tx]\"}]}}",
         CLS_SUCCESS, CLS_ERR_INVALID_SPEC, "element 8 of buffer 's' is outside its 8 elements"},
        {HEAD "\"block\": [32, 32], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[0]\"}]}}",
         CLS_SUCCESS, CLS_ERR_PLAN_INFEASIBLE, "1024 work-items per work-group"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": ["
              "{\"loop\": \"a\", \"count\": 2, \"body\": ["
              "{\"loop\": \"b\", \"count\": 2, \"body\": ["
              "{\"loop\": \"c\", \"count\": 2, \"body\": ["
              "{\"loop\": \"d\", \"count\": 2, \"body\": ["
              "{\"loop\": \"e\", \"count\": 2, \"body\": [{\"read\": \"in[tx]\"}]}]}]}]}]}]}}",
         CLS_ERR_INVALID_SPEC, 0, "loops nested 5 deep"},
        {HEAD "\"block\": [256], \"grid\": [65536], \"arrays\": {\"in\": {\"elem_size\": 4, "
              "\"elements\": 16777216}}, \"body\": [{\"loop\": \"i\", \"count\": 64, \"body\": ["
              "{\"read\": \"in[bx*256+tx]\"}]}]}}",
         CLS_SUCCESS, CLS_ERR_INVALID_SPEC, "more than the bound"},
        {HEAD "\"block\": [16, 16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[0]\","
              " \"view\": [48, 4]}]}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.body[0].view: 48x4x1 is 192 work-items but the "
                                  "work-group has 256"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"buffers\": {\"s\": {\"elem_size\": 8,"
              " \"elements\": 16}}, \"body\": [{\"fetch\": \"s[tx] = in[tx]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "holds 8-byte elements"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[tx]\","
              " \"write\": \"in[tx]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "both 'read' and 'write'"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"if\": \"tx < 2\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.body[0].then: missing"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"loop\": \"tx\", "
              "\"count\": 2, \"body\": []}]}}",
         CLS_ERR_INVALID_SPEC, 0, "the loop variable's name"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"loop\": \"i\", "
              "\"count\": 0, \"body\": []}]}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.body[0].count: must be 1 to"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": []}}", CLS_ERR_INVALID_SPEC,
         0, "no global-memory reference"},
        {HEAD "\"let\": {\"a\": \"b+1\", \"b\": \"2\"}, \"block\": [16], \"grid\": [1], " ARRAYS
              ", \"body\": [{\"read\": \"in[a]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "in let 'a': 'b+1': unknown name 'b'"},
        {HEAD "\"params\": {\"A\": 1, \"A\": 2}, \"block\": [16], \"grid\": [1], " ARRAYS
              ", \"body\": [{\"read\": \"in[tx]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.params.A: given twice"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[tx]\"}]},"
              " \"variants\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}",
         CLS_ERR_INVALID_SPEC, 0, "$.variants[1].name: variant 'a' is named twice"},
        {HEAD "\"block\": [16], \"grid\": [1], " ARRAYS ", \"body\": [{\"read\": \"in[tx]\"}]},"
              " \"variants\": [{\"name\": \"a\", \"block\": [0]}]}",
         CLS_ERR_INVALID_SPEC, 0, "$.variants[0].block[0]: a zero-sized"},
        {HEAD "\"block\": [16], \"grid\": [1], \"arrays\": {\"in\": {\"elem_size\": 3, "
              "\"elements\": 16}}, \"body\": [{\"read\": \"in[tx]\"}]}}",
         CLS_ERR_INVALID_SPEC, 0, "$.kernel.arrays.in.elem_size: must be 1, 2, 4, 8 or 16"},
    };
    size_t failures = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cls_access_set *set = NULL;
        cls_status st = cls_access_set_from_json(bad[i].json, NULL, 0, &set);
        int ok = st == bad[i].parse_status;
        if (ok && st == CLS_SUCCESS) {
            cls_cumapz_result r;
            cls_cumapz_options opt = {2000000};
            st = cls_cumapz_analyze(m, &set->v[0], &opt, &r);
            ok = st == bad[i].status;
        }
        ok = ok && strstr(cls__error_message(), bad[i].want) != NULL;
        if (!ok) {
            failures++;
            tap_diag("case %zu: %s: '%s' (wanted '%s')", i, cls_status_string(st),
                     cls__error_message(), bad[i].want);
        }
        cls_access_set_free(set);
    }
    tap_ok(failures == 0, "%zu bad descriptions refused with the expected status and message "
                          "(%zu did not)",
           sizeof bad / sizeof bad[0], failures);
    {
        char *json = NULL;
        cls_access_set *set = NULL;
        static const char *const ov[] = {"MAXX=3"};
        static const char *const ov2[] = {"MAX=tx"};
        cls_status st;
        cls_cumapz_case_json("fig2-fetch", &json);
        st = cls_access_set_from_json(json, ov, 1, &set);
        tap_ok(st == CLS_ERR_INVALID_ARGUMENT &&
                   strstr(cls__error_message(), "has no param 'MAXX' (it has: MAX, "
                                                "ROWS, F, PAD)"),
               "an override of an unknown param lists the params: %s", cls__error_message());
        st = cls_access_set_from_json(json, ov2, 1, &set);
        tap_ok(st == CLS_ERR_INVALID_SPEC && strstr(cls__error_message(), "override 'MAX=tx'"),
               "an override that is no constant: %s", cls__error_message());
        free(json);
        st = cls_cumapz_case_json("nope", &json);
        tap_ok(st == CLS_ERR_INVALID_ARGUMENT && strstr(cls__error_message(), "fig2-fetch"),
               "an unknown case lists the built-in ones: %s", cls__error_message());
    }
}

int main(void)
{
    cls_model *m = NULL;
    test_expressions();
    if (!tap_ok(cls_model_from_defaults("gt200", NULL, &m) == CLS_SUCCESS,
                "the GT200 family defaults load"))
        return tap_done();
    test_exact(m);
    test_bad(m);
    cls_model_release(m);
    test_gpu_rules();
    return tap_done();
}
