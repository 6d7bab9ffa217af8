/* test_devices.c: device-model rules against the documents' cases, shipped files, bad files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "tap.h"

static const char *srcdir(void)
{
    const char *s = getenv("CLS_SRCDIR");
    return s && s[0] ? s : CLS_SRCDIR;
}

static cls_model *load(const char *name)
{
    cls_model *m = NULL;
    cls_status st = cls_model_from_name(name, &m);
    if (st != CLS_SUCCESS) tap_diag("loading %s: %s", name, cls_last_error());
    return m;
}

static double get(const cls_model *m, const char *key)
{
    double v = -1;
    if (cls_model_get(m, key, &v) != CLS_SUCCESS) tap_diag("get %s: %s", key, cls_last_error());
    return v;
}

/* ------------------------------------------------------------------ bank conflicts */

/* Kim & Shrivastava, Sect. 3.2 and 5.5: a 16x16 thread block reads a float buffer
 * __shared__ float s_in[16][pitch] as s_in[tx][ty] (column-wise) or s_in[ty][tx] (row-wise).
 * Work-items are numbered tx fastest; the block is passed warp by warp.  Returns the worst
 * degree and adds the passes. */
static unsigned block_banks(const cls_model *m, int column_wise, int pitch, unsigned *passes)
{
    unsigned worst = 0;
    *passes = 0;
    for (int w = 0; w < 256 / 32; w++) {
        uint64_t a[32];
        cls_model_banks b;
        for (int i = 0; i < 32; i++) {
            int t = w * 32 + i, tx = t % 16, ty = t / 16;
            int word = column_wise ? tx * pitch + ty : ty * pitch + tx;
            a[i] = (uint64_t)word * 4;
        }
        if (cls_model_bank_conflicts(m, a, 32, 4, &b) != CLS_SUCCESS) {
            tap_diag("bank_conflicts: %s", cls_last_error());
            return 0;
        }
        if (b.degree > worst) worst = b.degree;
        *passes += b.passes;
    }
    return worst;
}

static void test_banks(const cls_model *gt200, const cls_model *fermi, const cls_model *cpu)
{
    unsigned passes, d;
    uint64_t a[16], same[16];
    cls_model_banks b;

    d = block_banks(gt200, 1, 16, &passes);
    tap_ok(d == 16 && passes == 16 * 16,
           "GT200: 16x16 floats read column-wise: 16-way conflicts, 16 passes per half-warp "
           "(Kim & Shrivastava, Sect. 3.2, 5.5) [degree %u, passes %u]", d, passes);
    d = block_banks(gt200, 1, 17, &passes);
    tap_ok(d == 1 && passes == 16,
           "GT200: padded to 16x17, column-wise: conflict-free (Kim & Shrivastava, Sect. 5.5) "
           "[degree %u, passes %u]", d, passes);
    d = block_banks(gt200, 0, 16, &passes);
    tap_ok(d == 1 && passes == 16,
           "GT200: 16x16 read row-wise: conflict-free (Kim & Shrivastava, Sect. 3.2) "
           "[degree %u, passes %u]", d, passes);

    /* Kim & Shrivastava, Sect. 6.1 (MatrixMul): with blockDim.x 8, threads 0 and 8 of a half-warp
     * hit the same bank: two rows of 8 floats 16 words apart. */
    for (int i = 0; i < 16; i++) a[i] = (uint64_t)((i / 8) * 16 + i % 8) * 4;
    cls_model_bank_conflicts(gt200, a, 16, 4, &b);
    tap_ok(b.degree == 2,
           "GT200: blockDim.x 8 over a 16-word row pitch: 2-way (Kim & Shrivastava, Sect. 6.1) "
           "[degree %u]", b.degree);

    /* Broadcast: every work-item reads the same word. */
    for (int i = 0; i < 16; i++) same[i] = 64;
    cls_model_bank_conflicts(gt200, same, 16, 4, &b);
    tap_ok(b.degree == 1, "GT200: one word read by a whole half-warp is one pass [degree %u]",
           b.degree);

    d = block_banks(fermi, 1, 16, &passes);
    tap_ok(d == 8, "Fermi (32 banks, whole warp): 16x16 column-wise is 8-way [degree %u]", d);
    /* A Fermi warp spans two rows of the tile: with a 17-word pitch, work-item (15, 0) and
     * (0, 1) still share a bank; the 16x17 cure is GT200's (half-warp, 16 banks). */
    d = block_banks(fermi, 1, 17, &passes);
    tap_ok(d == 2, "Fermi: padded to 16x17, a whole warp still meets a 2-way conflict "
           "[degree %u]", d);

    d = block_banks(cpu, 1, 16, &passes);
    tap_ok(d == 1, "CPU: no banks, never a conflict [degree %u]", d);
}

/* ------------------------------------------------------------------ coalescing */

static cls_model_txn txn(const cls_model *m, uint64_t base, size_t n, size_t stride,
                         size_t elem)
{
    uint64_t a[64];
    cls_model_txn t = {0, 0, 0};
    for (size_t i = 0; i < n; i++) a[i] = base + i * stride;
    if (cls_model_transactions(m, a, n, elem, &t) != CLS_SUCCESS)
        tap_diag("transactions: %s", cls_last_error());
    return t;
}

static void test_coalescing(const cls_model *gt200, const cls_model *fermi,
                            const cls_model *gpu, const cls_model *cpu)
{
    cls_model_txn t;
    uint64_t a[16];

    /* Kim & Shrivastava, Sect. 5.3, Fig. 5(a), compute capability 1.3, one half-warp of floats. */
    t = txn(gt200, 0, 16, 4, 4);
    tap_ok(t.count == 1 && t.bytes == 64 && t.requested == 64,
           "GT200 Fig. 5(a) upper: 16 floats aligned to a 64-byte segment: one 64-byte "
           "transaction [%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 4, 16, 4, 4);
    tap_ok(t.count == 1 && t.bytes == 128 && t.requested == 64,
           "GT200 Fig. 5(a) lower: misaligned by one word: one 128-byte transaction, half used "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 96, 16, 4, 4);
    tap_ok(t.count == 2 && t.bytes == 64,
           "GT200: misaligned across a 128-byte boundary: reduced to two 32-byte transactions "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 32, 16, 4, 4);
    tap_ok(t.count == 1 && t.bytes == 128,
           "GT200: 32-byte aligned run using both halves of its segment: 128 bytes "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 0, 32, 4, 4);
    tap_ok(t.count == 2 && t.bytes == 128,
           "GT200: a warp of 32 aligned floats: two 64-byte accesses, one per half-warp (Mo & Li, "
           "Sect. 5) [%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 0, 16, 8, 4);
    tap_ok(t.count == 1 && t.bytes == 128 && t.requested == 64,
           "GT200: stride-2 floats: one 128-byte transaction at 50%% use [%u, %llu bytes]",
           t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 0, 16, 8, 8);
    tap_ok(t.count == 1 && t.bytes == 128, "GT200: 16 aligned doubles: one 128-byte transaction "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gt200, 0, 16, 1, 1);
    tap_ok(t.count == 1 && t.bytes == 32, "GT200: 16 bytes: one 32-byte segment [%u, %llu bytes]",
           t.count, (unsigned long long)t.bytes);
    /* Kim & Shrivastava, Sect. 6.1 (Gaussian, 4_x): "only four consecutive memory addresses are
     * requested at a time, which is utilizing only half of the minimal transaction size of
     * 32-byte". */
    for (int i = 0; i < 16; i++) a[i] = (uint64_t)(i / 4) * 8192 + (uint64_t)(i % 4) * 4;
    cls_model_transactions(gt200, a, 16, 4, &t);
    tap_ok(t.count == 4 && t.bytes == 128 && t.requested == 64,
           "GT200: blockDim.x 4: four 32-byte transactions, half of each used "
           "(Kim & Shrivastava, Sect. 6.1) [%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    for (int i = 0; i < 16; i++) a[i] = i == 5 ? 20 : CLS_MODEL_NO_ACCESS;
    cls_model_transactions(gt200, a, 16, 4, &t);
    tap_ok(t.count == 1 && t.bytes == 32 && t.requested == 4,
           "GT200: one active work-item: one 32-byte transaction [%u, %llu bytes]", t.count,
           (unsigned long long)t.bytes);

    t = txn(fermi, 128, 32, 4, 4);
    tap_ok(t.count == 1 && t.bytes == 128,
           "Fermi: a warp of 32 floats aligned to 128 bytes: one 128-byte transaction (Mo & Li, "
           "Sect. 5) [%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(fermi, 132, 32, 4, 4);
    tap_ok(t.count == 2 && t.bytes == 256, "Fermi: misaligned by one word: two 128-byte lines "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gpu, 0, 32, 4, 4);
    tap_ok(t.count == 4 && t.bytes == 128, "gpu: a warp of 32 floats: four 32-byte sectors "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);
    t = txn(gpu, 0, 32, 128, 4);
    tap_ok(t.count == 32 && t.bytes == 1024 && t.requested == 128,
           "gpu: stride-32 floats: one sector per work-item [%u, %llu bytes]", t.count,
           (unsigned long long)t.bytes);
    t = txn(cpu, 0, 8, 4, 4);
    tap_ok(t.count == 1 && t.bytes == 64, "cpu: 8 SIMD lanes of floats: one 64-byte cache line "
           "[%u, %llu bytes]", t.count, (unsigned long long)t.bytes);

    tap_ok(cls_model_transactions(gt200, a, 16, 3, &t) == CLS_ERR_INVALID_ARGUMENT,
           "element size 3 is refused");
    a[0] = 2;
    tap_ok(cls_model_transactions(gt200, a, 1, 4, &t) == CLS_ERR_INVALID_ARGUMENT &&
               strstr(cls_last_error(), "multiple"),
           "an address that is not a multiple of the element size is refused: %s",
           cls_last_error());
}

/* ------------------------------------------------------------------ channels */

static void test_channels(const cls_model *c1060)
{
    unsigned ch, counts[8] = {0};
    int spread = 1, camped = 1;
    /* Kim & Shrivastava, Sect. 5.4: 256-byte channel width on C1060; blocks of 16 floats are 64
     * bytes apart, Eq. 4 checks 8 x min(8, 256/64) = 32 blocks. */
    for (unsigned b = 0; b < 32; b++) {
        cls_model_channel(c1060, (uint64_t)b * 64, &ch);
        if (ch != (b / 4) % 8) spread = 0;
        if (ch < 8) counts[ch]++;
    }
    for (int c = 0; c < 8; c++) spread &= counts[c] == 4;
    tap_ok(spread, "C1060 Fig. 5(b) left: 32 consecutive 64-byte blocks cover the 8 channels "
           "four blocks each (Kim & Shrivastava, Sect. 5.4, Eq. 4)");
    /* Fig. 5(b) right / Sect. 3.3: column-wise out[col*MAX+row] with MAX = 16384: blocks 16
     * columns apart are 16*16384*4 bytes apart, all on one channel. */
    for (unsigned b = 0; b < 32; b++) {
        cls_model_channel(c1060, (uint64_t)b * 16 * 16384 * 4, &ch);
        if (ch != 0) camped = 0;
    }
    tap_ok(camped, "C1060 Fig. 5(b) right: column-wise blocks all land on one channel");
    cls_model_channel(c1060, 256 * 9, &ch);
    tap_ok(ch == 1, "C1060: the 10th 256-byte region wraps to channel 1 [%u]", ch);
}

/* ------------------------------------------------------------------ occupancy */

static void test_occupancy(const cls_model *c1060, const cls_model *cpu)
{
    cls_model_occupancy_info o;
    cls_model_occupancy(c1060, 512, 0, 0, &o);
    tap_ok(o.groups_per_cu == 2 && o.warps_per_cu == 32 && o.occupancy == 1.0 &&
               o.limit == CLS_LIMIT_WARPS,
           "C1060: 512 work-items: 2 groups, 32 warps, bound by warps (Chen et al., Table I) "
           "[%u, %u, %s]", o.groups_per_cu, o.warps_per_cu, cls_model_limit_name(o.limit));
    cls_model_occupancy(c1060, 64, 0, 0, &o);
    tap_ok(o.groups_per_cu == 8 && o.warps_per_cu == 16 && o.limit == CLS_LIMIT_GROUPS,
           "C1060: 64 work-items: 8 groups, bound by 8 blocks per SM [%u, %s]", o.groups_per_cu,
           cls_model_limit_name(o.limit));
    cls_model_occupancy(c1060, 256, 32, 0, &o);
    tap_ok(o.groups_per_cu == 2 && o.limit == CLS_LIMIT_REGISTERS,
           "C1060: 256 work-items x 32 registers: 2 groups, bound by 16384 registers [%u, %s]",
           o.groups_per_cu, cls_model_limit_name(o.limit));
    /* Chen et al., Sect. IV.1 and IV.3: 320 + 32 threads per block and five 32x20 float data blocks
     * in shared memory leave one active block per SM: 30 active blocks on the C1060. */
    cls_model_occupancy(c1060, 352, 0, 5 * 32 * 20 * 4, &o);
    tap_ok(o.groups_per_cu == 1 && o.limit == CLS_LIMIT_LOCAL_MEMORY &&
               o.groups_per_cu * get(c1060, "compute.compute_units") == 30,
           "C1060: 352 work-items with 12800 bytes of local memory: 1 group per SM, 30 on the "
           "GPU (Chen et al., Sect. IV) [%u, %s]", o.groups_per_cu, cls_model_limit_name(o.limit));
    cls_model_occupancy(c1060, 1024, 0, 0, &o);
    tap_ok(o.groups_per_cu == 0 && o.limit == CLS_LIMIT_WORK_GROUP_SIZE,
           "C1060: 1024 work-items exceed the 512 limit");
    cls_model_occupancy(c1060, 64, 0, 20000, &o);
    tap_ok(o.groups_per_cu == 0 && o.limit == CLS_LIMIT_LOCAL_MEMORY,
           "C1060: 20000 bytes of local memory do not fit in 16 KB");
    cls_model_occupancy(cpu, 256, 0, 0, &o);
    tap_ok(o.groups_per_cu == 1 && o.warps_per_cu == 32,
           "cpu: one work-group per core, 256 work-items in 32 SIMD groups [%u, %u]",
           o.groups_per_cu, o.warps_per_cu);
    tap_ok(cls_model_occupancy(cpu, 0, 0, 0, &o) == CLS_ERR_INVALID_ARGUMENT,
           "work-group size 0 is refused");
}

/* ------------------------------------------------------------------ shipped files */

static void test_shipped(void)
{
    static const char *const names[] = {"gtx280", "c1060", "c2050", "gtx460", "pocl-cpu"};
    static const char *const files[] = {"gtx280.json", "tesla_c1060.json", "tesla_c2050.json",
                                        "gtx460.json", "pocl_cpu.json"};
    static const char *const families[] = {"gt200", "gt200", "fermi", "fermi", "cpu"};
    char *list = NULL;
    for (size_t i = 0; i < 5; i++) {
        char path[4096], *j1 = NULL, *j2 = NULL;
        cls_model *a = NULL, *b = NULL, *c = NULL;
        cls_status sa, sb;
        snprintf(path, sizeof path, "%s/devices/%s", srcdir(), files[i]);
        sa = cls_model_from_file(path, &a);
        tap_ok(sa == CLS_SUCCESS, "%s loads from its file%s%s", files[i], a ? "" : ": ",
               a ? "" : cls_last_error());
        sb = cls_model_from_name(names[i], &b);
        tap_ok(sb == CLS_SUCCESS && b && strcmp(cls_model_name(b), names[i]) == 0 &&
                   strcmp(cls_model_family(b), families[i]) == 0,
               "\"%s\" loads by name, family %s", names[i], families[i]);
        if (a && cls_model_to_json(a, &j1) == CLS_SUCCESS &&
            cls_model_from_json(j1, &c) == CLS_SUCCESS)
            cls_model_to_json(c, &j2);
        tap_ok(j1 && j2 && strcmp(j1, j2) == 0, "%s: to_json, from_json, to_json is stable",
               names[i]);
        cls_free(j1);
        cls_free(j2);
        cls_model_release(a);
        cls_model_release(b);
        cls_model_release(c);
    }
    /* A measured value whose 15 significant digits come within DBL_EPSILON of it: cJSON's own
     * number printing drops the rest, and a saved probe result read back one ulp off. */
    {
        const double bw = 4.1661909867386289, ns = 101417.90682050302;
        const cls_model_point pt = {1e6, ns, 0};
        cls_model *a = NULL, *c = NULL;
        char *j = NULL;
        double got = 0;
        const cls_model_point *pts = NULL;
        size_t n = 0;
        int ok = cls_model_from_defaults("cpu", NULL, &a) == CLS_SUCCESS &&
                 cls_model_set(a, "memory.bandwidth_measured_gbs", bw) == CLS_SUCCESS &&
                 cls_model_set_table(a, CLS_TABLE_HOST_TO_HOST, &pt, 1) == CLS_SUCCESS &&
                 cls_model_to_json(a, &j) == CLS_SUCCESS &&
                 cls_model_from_json(j, &c) == CLS_SUCCESS &&
                 cls_model_get(c, "memory.bandwidth_measured_gbs", &got) == CLS_SUCCESS &&
                 cls_model_get_table(c, CLS_TABLE_HOST_TO_HOST, &pts, &n) == CLS_SUCCESS;
        tap_ok(ok && got == bw && n == 1 && pts[0].ns == ns,
               "values survive the JSON round trip exactly (%.17g -> %.17g GB/s, %.17g -> %.17g "
               "ns)%s%s",
               bw, got, ns, n == 1 ? pts[0].ns : -1.0, ok ? "" : ": ", ok ? "" : cls_last_error());
        cls_free(j);
        cls_model_release(a);
        cls_model_release(c);
    }
    tap_ok(cls_model_list(&list) == CLS_SUCCESS && list && strstr(list, "gtx280\tgt200\t") &&
               strstr(list, "c1060\t") && strstr(list, "c2050\t") && strstr(list, "gtx460\t") &&
               strstr(list, "pocl-cpu\tcpu\t"),
           "cls_model_list names the five shipped models");
    cls_free(list);
}

static void test_values(const cls_model *gtx280, const cls_model *c1060, const cls_model *c2050)
{
    const cls_model_point *pts;
    size_t n = 0;
    cls_model *gtx460 = load("gtx460");
    /* Meng & Skadron 2010, Table 1, Eq. 17, Eq. 18. */
    tap_ok(get(gtx280, "compute.clock_mhz") == 1300 && get(gtx280, "compute.compute_units") == 30 &&
               get(gtx280, "memory.bandwidth_peak_gbs") == 141.7 &&
               get(gtx280, "memory.latency_cycles") == 300 && get(gtx280, "compute.cpi") == 4 &&
               get(gtx280, "compute.blocks_per_cu") == 8 &&
               get(gtx280, "sync.kernel_restart_cycles") == 3350 &&
               get(gtx280, "sync.barrier_cycles_per_group") == 210.3,
           "GTX 280 carries Table 1 of Meng & Skadron 2010, 3350-cycle restart and 210.3 cycles "
           "per block");
    tap_ok(!cls_model_is_assumed(gtx280, "compute.clock_mhz") &&
               cls_model_is_assumed(gtx280, "memory.channel_width_bytes") &&
               cls_model_is_assumed(gtx280, "$.compute.registers_per_cu"),
           "GTX 280: document values are not assumed, family defaults are");
    tap_ok(get(c1060, "compute.registers_per_cu") == 16384 &&
               get(c1060, "compute.max_threads_per_cu") == 1024 &&
               get(c1060, "memory.channel_width_bytes") == 256 &&
               get(c1060, "memory.global_bytes") == 4294967296.0,
           "C1060 carries Chen et al.'s Table I and Kim & Shrivastava's 256-byte channels");
    cls_model_get_table(c2050, CLS_TABLE_HOST_TO_DEVICE_PINNED, &pts, &n);
    tap_ok(n == 3 && pts[0].bytes == 10 && pts[0].ns == 3184.2771 && pts[2].bytes == 1e7 &&
               get(c2050, "transfer.copy_engines") == 2 &&
               get(c2050, "transfer.overlap_factor") == 1.26 &&
               get(c2050, "memory.bandwidth_measured_gbs") == 112.7 &&
               get(c2050, "compute.clock_mhz") == 1115,
           "C2050 carries the tables of Visschers 2012, Sect. 5.2, two copy engines, 1.26x, and "
           "Mo & Li, Tables 1-2");
    tap_ok(cls_model_is_assumed(c2050, "compute.compute_units") &&
               cls_model_is_assumed(c2050, "local_memory.banks") &&
               !cls_model_is_assumed(c2050, "local_memory.bytes"),
           "C2050: the SM count and banks are marked assumed, 48 KB is not");
    cls_model_get_table(c2050, CLS_TABLE_HOST_TO_DEVICE_PAGEABLE, &pts, &n);
    tap_ok(n == 0 && pts == NULL, "C2050: the pageable table is unknown (empty)");
    tap_ok(gtx460 && get(gtx460, "transfer.copy_engines") == 1 &&
               get(gtx460, "compute.clock_mhz") == 1350 &&
               get(gtx460, "memory.global_bytes") == 0,
           "GTX 460: single copy engine, 1350 MHz, unknown memory size reads 0");
    cls_model_release(gtx460);
}

/* ------------------------------------------------------------------ malformed files */

static const char base_json[] =
    "{\"schema_version\": 1, \"name\": \"t\", \"family\": \"gt200\",\n"
    " \"compute\": {\"clock_mhz\": 1300, \"compute_units\": 30},\n"
    " \"memory\": {\"channels\": 8},\n"
    " \"transfer\": {\"host_to_device_pinned\": [{\"bytes\": 10, \"ns\": 5}, {\"bytes\": 100, "
    "\"ns\": 9}]}}";

/* Replaces the first occurrence of `from` in base_json by `to` and loads it. */
static void bad(const char *from, const char *to, cls_status want, const char *needle)
{
    char text[2048];
    const char *at = strstr(base_json, from);
    cls_model *m = NULL;
    cls_status st;
    if (!at) {
        tap_ok(0, "test setup: \"%s\" not in the base text", from);
        return;
    }
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base_json), base_json, to,
             at + strlen(from));
    st = cls_model_from_json(text, &m);
    tap_ok(st == want && m == NULL && strstr(cls_last_error(), needle) != NULL,
           "%s -> %s: %s", to, cls_status_string(st), cls_last_error());
    cls_model_release(m);
}

static void test_malformed(void)
{
    cls_model *m = NULL;
    char dir[512], path[4200], src[4200], *text = NULL;
    FILE *f;
    size_t len = 0;

    cls_status st = cls_model_from_json(base_json, &m);
    tap_ok(st == CLS_SUCCESS, "the base text of the bad-file cases loads%s%s", m ? "" : ": ",
           m ? "" : cls_last_error());
    cls_model_release(m);
    m = NULL;

    bad("}}", "}", CLS_ERR_INVALID_JSON, "JSON text: line 4, column");
    bad("\"clock_mhz\": 1300", "\"clock_mhz\": \"fast\"", CLS_ERR_INVALID_MODEL,
        "$.compute.clock_mhz: must be a positive number, got \"fast\"");
    bad("\"channels\": 8", "\"channels\": -3", CLS_ERR_INVALID_MODEL,
        "$.memory.channels: must be a positive integer, got -3");
    bad("\"compute_units\": 30", "\"compute_units\": 0", CLS_ERR_INVALID_MODEL,
        "$.compute.compute_units: must be a positive integer, got 0");
    bad("\"clock_mhz\": 1300", "\"clock_mhz\": 0", CLS_ERR_INVALID_MODEL,
        "$.compute.clock_mhz: must be a positive number, got 0");
    bad("\"channels\": 8", "\"channels\": 8.5", CLS_ERR_INVALID_MODEL,
        "$.memory.channels: must be a positive integer, got 8.5");
    bad("\"channels\": 8", "\"channels\": [8]", CLS_ERR_INVALID_MODEL,
        "$.memory.channels: must be a positive integer, got an array");
    bad("\"channels\": 8", "\"channels\": 5000", CLS_ERR_INVALID_MODEL,
        "$.memory.channels: must be at most 4096 (count), got 5000");
    bad("\"channels\": 8", "\"segment_bytes\": 96", CLS_ERR_INVALID_MODEL,
        "$.memory.segment_bytes: must be a power of two, got 96");
    bad("\"channels\": 8", "\"segment_bytes\": 128, \"min_segment_bytes\": 256",
        CLS_ERR_INVALID_MODEL,
        "$.memory.min_segment_bytes: must not exceed memory.segment_bytes (128), got 256");
    bad("\"channels\": 8", "\"latency_cycles\": 1e999", CLS_ERR_INVALID_MODEL,
        "$.memory.latency_cycles: must be a positive number, got Infinity");
    bad("\"clock_mhz\": 1300, ", "", CLS_ERR_INVALID_MODEL,
        "$.compute.clock_mhz: required field is missing");
    bad("\"name\": \"t\", ", "", CLS_ERR_INVALID_MODEL, "$.name: required field is missing");
    bad("\"family\": \"gt200\",", "", CLS_ERR_INVALID_MODEL,
        "$.family: required field is missing");
    bad("\"schema_version\": 1, ", "", CLS_ERR_INVALID_MODEL,
        "$.schema_version: required field is missing");
    bad("\"schema_version\": 1", "\"schema_version\": 2", CLS_ERR_INVALID_MODEL,
        "$.schema_version: must be 1");
    bad("\"family\": \"gt200\"", "\"family\": \"kepler\"", CLS_ERR_INVALID_MODEL,
        "$.family: unknown family \"kepler\" (known: gt200, fermi, cpu, gpu)");
    bad("\"family\": \"gt200\"", "\"family\": 3", CLS_ERR_INVALID_MODEL,
        "$.family: must be a string, got 3");
    bad("\"name\": \"t\"", "\"name\": \"t\", \"colour\": \"green\"", CLS_ERR_INVALID_MODEL,
        "$.colour: unknown field");
    bad("\"channels\": 8", "\"chanels\": 8", CLS_ERR_INVALID_MODEL,
        "$.memory.chanels: unknown field");
    /* a field of a former schema names what replaced it */
    bad("\"name\": \"t\"", "\"name\": \"t\", \"tuning\": {\"cputile_op_cycles\": 0.65}",
        CLS_ERR_INVALID_MODEL, "$.tuning.cputile_op_cycles: retired: the CPU row kernel's costs");
    bad("\"memory\": {\"channels\": 8}", "\"memory\": [8]", CLS_ERR_INVALID_MODEL,
        "$.memory: must be an object, got an array");
    bad("\"channels\": 8", "\"channels\": 8, \"channels\": 9", CLS_ERR_INVALID_MODEL,
        "$.memory.channels: duplicate field");
    bad("{\"bytes\": 100", "{\"bytes\": 5", CLS_ERR_INVALID_MODEL,
        "$.transfer.host_to_device_pinned[1].bytes: must be larger than the previous entry's "
        "(10), got 5");
    bad("\"ns\": 9", "\"ns\": -9", CLS_ERR_INVALID_MODEL,
        "$.transfer.host_to_device_pinned[1].ns: must be a positive number");
    bad("\"ns\": 9", "\"nss\": 9", CLS_ERR_INVALID_MODEL,
        "$.transfer.host_to_device_pinned[1].nss: unknown field");
    bad(", \"ns\": 9", "", CLS_ERR_INVALID_MODEL,
        "$.transfer.host_to_device_pinned[1].ns: required field is missing");
    bad("\"name\": \"t\"", "\"name\": \"t\", \"assumed\": [\"$.compute.speed\"]",
        CLS_ERR_INVALID_MODEL, "$.assumed[0]: unknown parameter path \"$.compute.speed\"");
    bad("\"name\": \"t\"", "\"name\": \"t\", \"match\": \"GTX\"", CLS_ERR_INVALID_MODEL,
        "$.match: must be an array of strings, got \"GTX\"");
    bad("\"name\": \"t\"", "\"name\": \"\"", CLS_ERR_INVALID_MODEL, "$.name: must be a text");
    bad("\"name\": \"t\"", "\"name\": \"t\", \"device\": {\"serial\": \"x\"}",
        CLS_ERR_INVALID_MODEL, "$.device.serial: unknown field");

    /* The file's name leads the message: the issue's own example. */
    snprintf(dir, sizeof dir, "%s/cls-test-devices-XXXXXX",
             getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(dir)) {
        snprintf(src, sizeof src, "%s/devices/gtx280.json", srcdir());
        f = fopen(src, "rb");
        if (f) {
            text = calloc(1, 1 << 16);
            if (text) len = fread(text, 1, (1 << 16) - 1, f);
            fclose(f);
        }
        if (text && len > 0) {
            char *at = strstr(text, "\"channels\": 8");
            snprintf(path, sizeof path, "%s/gtx280.json", dir);
            f = fopen(path, "wb");
            if (f && at) {
                fprintf(f, "%.*s\"channels\": -3%s", (int)(at - text), text, at + 13);
                fclose(f);
            } else if (f) {
                fclose(f);
            }
            tap_ok(cls_model_from_file(path, &m) == CLS_ERR_INVALID_MODEL &&
                       strstr(cls_last_error(),
                              "gtx280.json: $.memory.channels: must be a positive integer, got -3"),
                   "a file's message names the file and the path: %s", cls_last_error());
            unlink(path);
        }
        free(text);
        rmdir(dir);
    } else {
        tap_ok(0, "mkdtemp %s", dir);
    }
    tap_ok(cls_model_from_file("/nonexistent/x.json", &m) == CLS_ERR_IO &&
               strstr(cls_last_error(), "/nonexistent/x.json"),
           "a missing file is CLS_ERR_IO naming it");
    tap_ok(cls_model_from_name("kepler-k80", &m) == CLS_ERR_UNKNOWN_MODEL &&
               strstr(cls_last_error(), "gtx280"),
           "an unknown name is CLS_ERR_UNKNOWN_MODEL listing the known ones: %s",
           cls_last_error());
    tap_ok(cls_model_load("gtx280.json", &m) == CLS_ERR_IO, "a name ending in .json is a file");
    tap_ok(cls_model_from_defaults("kepler", NULL, &m) == CLS_ERR_UNKNOWN_MODEL,
           "defaults of an unknown family are refused");
}

/* ------------------------------------------------------------------ setters */

static void test_setters(void)
{
    cls_model *m = NULL, *c = NULL;
    cls_model_point pts[2] = {{10, 100, 0}, {100, 150, 2}}, rev[2] = {{100, 1, 0}, {10, 1, 0}};
    const cls_model_point *got;
    size_t n = 0;
    double v = 0;
    cls_model_from_defaults("gpu", NULL, &m);
    tap_ok(m && cls_model_is_assumed(m, "memory.bandwidth_peak_gbs"),
           "gpu defaults are all assumed");
    tap_ok(cls_model_set(m, "memory.bandwidth_peak_gbs", 3350) == CLS_SUCCESS &&
               !cls_model_is_assumed(m, "memory.bandwidth_peak_gbs") &&
               cls_model_get(m, "$.memory.bandwidth_peak_gbs", &v) == CLS_SUCCESS && v == 3350,
           "cls_model_set stores a measurement and clears the assumed mark");
    tap_ok(cls_model_set(m, "memory.channels", -3) == CLS_ERR_INVALID_MODEL &&
               strstr(cls_last_error(), "$.memory.channels: must be a positive integer, got -3"),
           "cls_model_set checks like the loader: %s", cls_last_error());
    tap_ok(cls_model_set(m, "memory.speed", 1) == CLS_ERR_INVALID_ARGUMENT,
           "cls_model_set refuses an unknown key");
    tap_ok(cls_model_set_table(m, CLS_TABLE_HOST_TO_DEVICE_PAGEABLE, pts, 2) == CLS_SUCCESS &&
               cls_model_get_table(m, CLS_TABLE_HOST_TO_DEVICE_PAGEABLE, &got, &n) ==
                   CLS_SUCCESS &&
               n == 2 && got[1].spread_ns == 2,
           "cls_model_set_table stores a table");
    tap_ok(cls_model_set_table(m, CLS_TABLE_HOST_TO_HOST, rev, 2) == CLS_ERR_INVALID_MODEL &&
               strstr(cls_last_error(), "$.transfer.host_to_host[1].bytes"),
           "cls_model_set_table refuses descending sizes: %s", cls_last_error());
    tap_ok(cls_model_copy(m, &c) == CLS_SUCCESS && cls_model_get(c, "memory.bandwidth_peak_gbs",
                                                                   &v) == CLS_SUCCESS &&
               v == 3350,
           "cls_model_copy copies values");
    tap_ok(cls_model_param_key(0) && strcmp(cls_model_param_key(0), "compute.clock_mhz") == 0 &&
               strcmp(cls_model_param_unit("compute.clock_mhz"), "MHz") == 0 &&
               cls_model_table_key(CLS_TABLE_ALLOC_DEVICE) &&
               strcmp(cls_model_table_key(CLS_TABLE_ALLOC_DEVICE), "alloc.device") == 0,
           "keys, units and table keys enumerate");
    cls_model_release(m);
    cls_model_release(c);
    cls_model_release(NULL);
}

int main(void)
{
    cls_model *gtx280, *c1060, *c2050, *cpu, *gpu = NULL;
    /* Only the shipped files: a developer's own model directory must not change the answers. */
    unsetenv("CLSTENCIL_MODEL_DIR");
    gtx280 = load("gtx280");
    c1060 = load("c1060");
    c2050 = load("c2050");
    cpu = load("pocl-cpu");
    cls_model_from_defaults("gpu", NULL, &gpu);
    if (!gtx280 || !c1060 || !c2050 || !cpu || !gpu) {
        tap_ok(0, "the shipped models load (CLS_SRCDIR=%s)", srcdir());
        return tap_done();
    }
    test_banks(gtx280, c2050, cpu);
    test_coalescing(gtx280, c2050, gpu, cpu);
    test_channels(c1060);
    test_occupancy(c1060, cpu);
    test_shipped();
    test_values(gtx280, c1060, c2050);
    test_malformed();
    test_setters();
    cls_model_release(gtx280);
    cls_model_release(c1060);
    cls_model_release(c2050);
    cls_model_release(cpu);
    cls_model_release(gpu);
    return tap_done();
}
