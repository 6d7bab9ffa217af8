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
    "  \"row_read_cycles\": 0.75, \"row_flop_cycles\": 0.25, \"row_start_cycles\": 120},\n"
    " \"memory\": {\"bandwidth_cache_gbs\": 150, \"cache_bytes\": 16777216}}";

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
    double v[6] = {0};
    static const char *const keys[6] = {"compute.row_point_cycles", "compute.row_read_cycles",
                                        "compute.row_flop_cycles", "compute.row_start_cycles",
                                        "memory.bandwidth_cache_gbs", "memory.cache_bytes"};
    static const double want[6] = {3.5, 0.75, 0.25, 120, 150, 16777216};
    cls_status st = cls_model_from_json(cpu_json, &m);
    int all = st == CLS_SUCCESS;
    for (int i = 0; all && i < 6; i++)
        all = cls_model_get(m, keys[i], &v[i]) == CLS_SUCCESS && v[i] == want[i];
    tap_ok(all, "a cpu model file's row kernel costs and cache level load as written%s%s",
           st == CLS_SUCCESS ? "" : ": ", st == CLS_SUCCESS ? "" : cls_last_error());
    cls_model_release(m);

    /* The shipped generic CPU: every one of them a family default, marked assumed. */
    st = cls_model_from_name("pocl-cpu", &d);
    all = st == CLS_SUCCESS;
    for (int i = 0; all && i < 6; i++) {
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
    bad("\"bandwidth_cache_gbs\": 150", "\"bandwidth_cache_gbs\": -150",
        "$.memory.bandwidth_cache_gbs");
    bad("\"cache_bytes\": 16777216", "\"cache_bytes\": 1.5", "$.memory.cache_bytes");
}

static void test_terms(void)
{
    double x[CLS__CPU_TERMS];
    /* 64x4x2, halo 1, whole rows, 2 rows per work-item, 8 lanes, 2 cores.  A row: 62 inner
     * points in ceil(62/8) = 8 vectors (the last overlapping), 2 end points one at a time: 10.
     * 8 rows; 4 work-items, 2 per core, so the busiest core has half: 40 vectors, 4 runs. */
    cls__cpu_rows_work w = {{64, 4, 2}, 1, 64, 2, 1, 7, 9, 8, 4096};
    cls__cpu_rows_terms(&w, 8, 2, x);
    tap_ok(x[0] == 40 && x[1] == 280 && x[2] == 360 && x[3] == 4,
           "64x4x2, 7 reads, 9 flops: terms %g %g %g %g (by hand: 40 280 360 4)", x[0], x[1],
           x[2], x[3]);

    /* 1D, 10000 points, halo 4, runs of 4096, 16 lanes, 2 cores: runs of 4092 + 4 ends
     * (256 + 4), 4096 (256), 1808 = 1804 + 4 ends (113 + 4): 633 vectors; 3 work-items, the
     * busiest core runs 2 of them: 2/3 of the work, 422 vectors, 2 runs. */
    cls__cpu_rows_work w1 = {{10000, 1, 1}, 4, 4096, 1, 1, 9, 9, 8, 80000};
    cls__cpu_rows_terms(&w1, 16, 2, x);
    tap_ok(near(x[0], 422) && near(x[3], 2) && near(x[1], 422 * 9.0),
           "1D 10000 points in runs of 4096: %g vectors, %g runs on the busiest core (by hand: "
           "422, 2)",
           x[0], x[3]);

    /* A system of 3 stages: each stage's loop and runs, the reads and flops summed. */
    cls__cpu_rows_work w3 = w;
    w3.launches = 3;
    cls__cpu_rows_terms(&w3, 8, 2, x);
    tap_ok(x[0] == 120 && x[1] == 280 && x[3] == 12,
           "3 launches: %g vectors, %g runs (by hand: 120, 12), reads as given (%g)", x[0], x[3],
           x[1]);
}

static void test_step(void)
{
    cls__cpu_device d = {1e9, 2, 8, 4, 1, 0.5, 300, 50e9, 100e9, 8e6, 1e-6};
    /* bandwidth by working set: the cache's within it; beyond, its share at the cache's rate */
    tap_ok(near(cls__cpu_seconds_per_byte(&d, 4e6), 1e-11) &&
               near(cls__cpu_seconds_per_byte(&d, 16e6), 1.5e-11) &&
               near(cls__cpu_seconds_per_byte(&d, 32e6), 1.75e-11),
           "seconds per byte at 4, 16, 32 MB: %g %g %g (by hand: 1e-11, 1.5e-11, 1.75e-11)",
           cls__cpu_seconds_per_byte(&d, 4e6), cls__cpu_seconds_per_byte(&d, 16e6),
           cls__cpu_seconds_per_byte(&d, 32e6));

    /* compute-bound: 40 x 4 + 280 x 1 + 360 x 0.5 + 4 x 300 = 1820 cycles at 1 GHz; traffic
     * 512 points x 8 bytes at 100 GB/s = 41 ns; plus the launch */
    double c = 0, m = 0;
    cls__cpu_rows_work w = {{64, 4, 2}, 1, 64, 2, 1, 7, 9, 8, 4096};
    double s = cls__cpu_rows_step(&d, &w, &c, &m);
    tap_ok(near(c, 1.82e-6) && near(m, 4.096e-8) && near(s, 2.82e-6),
           "compute-bound step: compute %g, memory %g, step %g s (by hand: 1.82e-6, 4.096e-8, "
           "2.82e-6)",
           c, m, s);

    /* memory-bound: a 1D copy of 2^24 points beyond the cache (ws 128 MiB) on a device of
     * cheap vectors: 8 bytes a point, f = 8e6 / 134217728 of them at the cache's rate and the
     * rest at memory's; compute 4096 runs of 512 vectors, 2048 runs on each core, at 1 cycle */
    cls__cpu_device d2 = d;
    d2.point_cycles = 1;
    d2.read_cycles = 0;
    d2.start_cycles = 0;
    cls__cpu_rows_work cp = {{16777216, 1, 1}, 0, 4096, 1, 1, 1, 0, 8, 134217728};
    s = cls__cpu_rows_step(&d2, &cp, &c, &m);
    double f = 8e6 / 134217728.0, want = 16777216.0 * 8 * (f / 100e9 + (1 - f) / 50e9);
    double want_c = 2048.0 * 512 / 1e9;
    tap_ok(near(m, want) && near(c, want_c) && near(s, 1e-6 + want),
           "memory-bound copy: memory %g (by hand %g), compute %g (%g), step %g", m, want, c,
           want_c, s);
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
