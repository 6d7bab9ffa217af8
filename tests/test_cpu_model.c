/* test_cpu_model.c: the CPU row kernel's model (model/cpu_rows.c) on fixed inputs against
 * counts worked out by hand from cl/naive_rows.cl's loops, the non-negative fit the probe uses,
 * and the model keys it writes: loaded, defaulted for the cpu family, bad values refused with
 * their path. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clstencil_model.h"
#include "cpu_rows.h"
#include "fit.h"
#include "tap.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(b) + 1e-30); }

static const char cpu_json[] =
    "{\"schema_version\": 1, \"name\": \"c\", \"family\": \"cpu\",\n"
    " \"compute\": {\"clock_mhz\": 2000, \"compute_units\": 2, \"row_point_cycles\": 3.5,\n"
    "  \"row_read_cycles\": 0.75, \"row_flop_cycles\": 0.25, \"row_div_cycles\": 5,\n"
    "  \"row_start_cycles\": 120, \"row_end_read_cycles\": 0.5, \"tile_point_cycles\": 1.5,\n"
    "  \"tile_read_cycles\": 0.875},\n"
    " \"memory\": {\"bandwidth_cache_gbs\": 150, \"cache_bytes\": 16777216,\n"
    "  \"stream_overlap\": 0.25}}";

static void bad(const char *from, const char *to, const char *needle)
{
    char text[2048];
    const char *at = strstr(cpu_json, from);
    cls_model *m = NULL;
    if (!at) {
        tap_ok(0, "test setup: \"%s\" not in the base text", from);
        return;
    }
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - cpu_json), cpu_json, to,
             at + strlen(from));
    cls_status st = cls_model_from_json(text, &m);
    tap_ok(st == CLS_ERR_INVALID_MODEL && m == NULL && strstr(cls_last_error(), needle),
           "%s -> %s: %s", to, cls_status_string(st), cls_last_error());
    cls_model_release(m);
}

static void test_keys(void)
{
    cls_model *m = NULL, *d = NULL;
    double v[11] = {0};
    static const char *const keys[11] = {
        "compute.row_point_cycles", "compute.row_read_cycles", "compute.row_flop_cycles",
        "compute.row_div_cycles",   "compute.row_start_cycles", "compute.row_end_read_cycles",
        "memory.bandwidth_cache_gbs", "memory.cache_bytes", "memory.stream_overlap",
        "compute.tile_point_cycles", "compute.tile_read_cycles"};
    static const double want[11] = {3.5, 0.75, 0.25, 5, 120, 0.5, 150, 16777216, 0.25, 1.5, 0.875};
    cls_status st = cls_model_from_json(cpu_json, &m);
    int all = st == CLS_SUCCESS;
    for (int i = 0; all && i < 11; i++)
        all = cls_model_get(m, keys[i], &v[i]) == CLS_SUCCESS && v[i] == want[i];
    tap_ok(all, "a cpu model file's row kernel and tile costs and cache level load as written%s%s",
           st == CLS_SUCCESS ? "" : ": ", st == CLS_SUCCESS ? "" : cls_last_error());
    cls_model_release(m);

    /* The shipped generic CPU: every one of them a family default, marked assumed. */
    st = cls_model_from_name("pocl-cpu", &d);
    all = st == CLS_SUCCESS;
    for (int i = 0; all && i < 11; i++) {
        all = cls_model_get(d, keys[i], &v[i]) == CLS_SUCCESS && v[i] > 0 &&
              cls_model_is_assumed(d, keys[i]) == 1;
    }
    tap_ok(all, "pocl-cpu gives each of them a positive default, marked assumed");
    cls_model_release(d);

    bad("\"row_read_cycles\": 0.75", "\"row_read_cycles\": -1", "$.compute.row_read_cycles");
    bad("\"row_point_cycles\": 3.5", "\"row_point_cycles\": 0", "$.compute.row_point_cycles");
    bad("\"row_flop_cycles\": 0.25", "\"row_flop_cycles\": \"cheap\"",
        "$.compute.row_flop_cycles");
    bad("\"row_start_cycles\": 120", "\"row_start_cycles\": 1e10", "$.compute.row_start_cycles");
    bad("\"row_div_cycles\": 5", "\"row_div_cycles\": null", "$.compute.row_div_cycles");
    bad("\"tile_read_cycles\": 0.875", "\"tile_read_cycles\": -0.5", "$.compute.tile_read_cycles");
    bad("\"tile_point_cycles\": 1.5", "\"tile_point_cycles\": 2e6",
        "$.compute.tile_point_cycles");
    bad("\"stream_overlap\": 0.25", "\"stream_overlap\": 1.5", "$.memory.stream_overlap");
    bad("\"bandwidth_cache_gbs\": 150", "\"bandwidth_cache_gbs\": -150",
        "$.memory.bandwidth_cache_gbs");
    bad("\"cache_bytes\": 16777216", "\"cache_bytes\": 1.5", "$.memory.cache_bytes");
}

static void test_terms(void)
{
    double x[CLS__CPU_TERMS];
    /* 64x4x2, halo 1, whole rows, 2 rows per work-item, 8 lanes, 2 cores.  A row: 62 inner
     * points in ceil(62/8) = 8 vectors (the last overlapping), 2 end points one at a time.
     * 8 rows; 4 work-items, 2 per core, so the busiest core has half: 32 vectors, 8 end points
     * (56 of their reads), 4 runs. */
    cls__cpu_rows_work w = {{64, 4, 2}, 1, 64, 2, 1, 7, 9, 1, 8, 0, 4096};
    cls__cpu_rows_terms(&w, 8, 2, x);
    tap_ok(x[0] == 32 && x[1] == 224 && x[2] == 288 && x[3] == 32 && x[4] == 4 && x[5] == 56,
           "64x4x2, 7 reads, 9 flops, 1 division: terms %g %g %g %g %g %g (by hand: 32 224 288 "
           "32 4 56)",
           x[0], x[1], x[2], x[3], x[4], x[5]);

    /* 1D, 10000 points, halo 4, runs of 4096, 16 lanes, 2 cores: runs of 4092 inner points
     * and 4 ends (256 vectors), 4096 (256), 1808 = 1804 + 4 ends (113): 625 vectors and 8 end
     * points; 3 work-items, the busiest core runs 2 of them: 2/3 of the work, 1250/3 vectors,
     * 2 runs, 16/3 end points (48 of their reads). */
    cls__cpu_rows_work w1 = {{10000, 1, 1}, 4, 4096, 1, 1, 9, 9, 0, 8, 0, 80000};
    cls__cpu_rows_terms(&w1, 16, 2, x);
    tap_ok(near(x[0], 1250.0 / 3) && near(x[4], 2) && near(x[1], 3750) && near(x[5], 48),
           "1D 10000 points in runs of 4096: %g vectors, %g runs, %g end reads on the busiest "
           "core (by hand: 416.7, 2, 48)",
           x[0], x[4], x[5]);

    /* A system of 3 stages: each stage's loop and runs, the reads and flops summed. */
    cls__cpu_rows_work w3 = w;
    w3.launches = 3;
    cls__cpu_rows_terms(&w3, 8, 2, x);
    tap_ok(x[0] == 96 && x[1] == 224 && x[4] == 12,
           "3 launches: %g vectors, %g runs (by hand: 96, 12), reads as given (%g)", x[0], x[4],
           x[1]);
}

static void test_step(void)
{
    cls__cpu_device d = {.clock_hz = 1e9,
                         .cores = 2,
                         .lanes = 8,
                         .point_cycles = 4,
                         .read_cycles = 1,
                         .flop_cycles = 0.5,
                         .div_cycles = 6,
                         .start_cycles = 300,
                         .end_read_cycles = 0.5,
                         .bandwidth = 50e9,
                         .bandwidth_cache = 100e9,
                         .cache_bytes = 8e6,
                         .stream_overlap = 0.5,
                         .restart = 1e-6};
    /* bandwidth by working set: the cache's within it; beyond, its share at the cache's rate */
    tap_ok(near(cls__cpu_seconds_per_byte(&d, 4e6), 1e-11) &&
               near(cls__cpu_seconds_per_byte(&d, 16e6), 1.5e-11) &&
               near(cls__cpu_seconds_per_byte(&d, 32e6), 1.75e-11),
           "seconds per byte at 4, 16, 32 MB: %g %g %g (by hand: 1e-11, 1.5e-11, 1.75e-11)",
           cls__cpu_seconds_per_byte(&d, 4e6), cls__cpu_seconds_per_byte(&d, 16e6),
           cls__cpu_seconds_per_byte(&d, 32e6));

    /* compute-bound: loads 32 x 4 + 224 x 1 + 56 x 0.5 = 380 against arithmetic 288 x 0.5 +
     * 32 x 6 = 336 cycles, plus 4 x 300 for the runs: 1580 cycles at 1 GHz; traffic 512 points
     * x 8 bytes at 100 GB/s = 41 ns, in the cache (they overlap); plus the launch */
    double c = 0, m = 0;
    cls__cpu_rows_work w = {{64, 4, 2}, 1, 64, 2, 1, 7, 9, 1, 8, 0, 4096};
    double s = cls__cpu_rows_step(&d, &w, &c, &m);
    tap_ok(near(c, 1.58e-6) && near(m, 4.096e-8) && near(s, 2.58e-6),
           "compute-bound step, loads binding: compute %g, memory %g, step %g s (by hand: "
           "1.58e-6, 4.096e-8, 2.58e-6)",
           c, m, s);
    /* the same with 3 divisions a point: arithmetic 288 x 0.5 + 96 x 6 = 720 binds */
    w.divs = 3;
    cls__cpu_rows_step(&d, &w, &c, &m);
    tap_ok(near(c, 1.92e-6), "arithmetic binding: compute %g s (by hand 1.92e-6)", c);

    /* memory-bound: a 1D copy of 2^24 points beyond the cache (ws 128 MiB) on a device of
     * cheap vectors: 8 bytes a point, f = 8e6 / 134217728 of them at the cache's rate and the
     * rest at memory's; compute 4096 runs of 512 vectors, 2048 runs on each core, at 1 cycle;
     * beyond the cache half the compute adds to the traffic */
    cls__cpu_device d2 = d;
    d2.point_cycles = 1;
    d2.read_cycles = 0;
    d2.start_cycles = 0;
    cls__cpu_rows_work cp = {{16777216, 1, 1}, 0, 4096, 1, 1, 1, 0, 0, 8, 0, 134217728};
    s = cls__cpu_rows_step(&d2, &cp, &c, &m);
    double f = 8e6 / 134217728.0, want = 16777216.0 * 8 * (f / 100e9 + (1 - f) / 50e9);
    double want_c = 2048.0 * 512 / 1e9;
    tap_ok(near(m, want) && near(c, want_c) && near(s, 1e-6 + want + 0.5 * want_c),
           "memory-bound copy: memory %g (by hand %g), compute %g (%g), step %g", m, want, c,
           want_c, s);

    /* a per-step auxiliary row of 4 bytes a point (pathfinder's wall) comes from memory
     * whatever the cache holds: 1000 x 1 x 1 points, 12 bytes a point of which 4 fresh, the
     * 8 KB of the state in the cache: 1000 x (8 / 100e9 + 4 / 50e9) = 1.6e-7 s */
    cls__cpu_rows_work pf = {{1000, 1, 1}, 1, 1000, 1, 1, 4, 3, 0, 12, 4, 8000};
    cls__cpu_rows_step(&d2, &pf, &c, &m);
    tap_ok(near(m, 1.6e-7), "a per-step auxiliary row from memory: %g s (by hand 1.6e-7)", m);
}

static void test_fit(void)
{
    double b[2] = {-1, -1};
    static const double X1[] = {1, 0, 0, 1, 1, 1}, y1[] = {2, 3, 5};
    int r = cls__fit_nonneg(X1, y1, 3, 2, b);
    tap_ok(r == 0 && near(b[0], 2) && near(b[1], 3), "exact fit: %g %g (2 3)", b[0], b[1]);
    /* unconstrained: 4 - x; the slope held at 0 leaves the mean */
    static const double X2[] = {1, 1, 1, 2, 1, 3}, y2[] = {3, 2, 1};
    r = cls__fit_nonneg(X2, y2, 3, 2, b);
    tap_ok(r == 0 && near(b[0], 2) && b[1] == 0, "a negative slope held at 0: %g %g (2 0)", b[0],
           b[1]);
    static const double X3[] = {1, 2, 2, 4, 3, 6}, y3[] = {1, 2, 3};
    r = cls__fit_nonneg(X3, y3, 3, 2, b);
    tap_ok(r == -1 && b[0] == 0 && b[1] == 0, "dependent columns refused (%d)", r);
}

int main(void)
{
    test_keys();
    test_terms();
    test_step();
    test_fit();
    return tap_done();
}
