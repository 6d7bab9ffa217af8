/* test_cputile_model.c: the cputile schedule's model (lib/schedules/cputile/model.c) on fixed
 * inputs against times worked out by hand: a pass's first and last steps against the grid's
 * traffic, the steps between at the box's costs, arrays of one slice per step from memory in
 * every step, and the prices of a body in the grid's steps and in the box's. */
#include <math.h>
#include <string.h>

#include "cpu_cost.h"
#include "schedules/cputile/cputile.h"
#include "tap.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(b) + 1e-30); }

/* 1024 points in 1D, radius 1, two tiles of 512, two groups on two cores: a tile at r halos of
 * widening computes 512 + r points (clipped at the grid's edge), so both tiles 1024 + 2r; each
 * core runs one tile, half the work. */
static cls__cputile_cost line(void)
{
    cls__cputile_cost c;
    memset(&c, 0, sizeof c);
    c.n[0] = 1024;
    c.n[1] = c.n[2] = 1;
    c.halo[0] = 1;
    c.elem = 4;
    c.steps = 8;
    c.cores = 2;
    c.point_seconds = 1e-9;
    c.box_point_seconds = 0.5e-9;
    c.bandwidth = 4e9;
    c.cache_bandwidth = 8e9;
    c.memory_bandwidth = 4e9;
    return c;
}

int main(void)
{
    const size_t tile[3] = {512, 1, 1};
    cls__cputile_cost c = line();
    double red = 0;
    /* k = 4: step 1 (r = 3) 1030 x 1e-9 / 2 = 515 ns and step 4 (r = 0) 1024 x 0.5e-9 / 2 =
     * 256 ns against the traffic (1032 x 4 input + 2 x 1024 x 4 output) / 4e9 = 3.08 us, which
     * is longer; steps 2 and 3 (1028 and 1026 points) 257 + 256.5 ns after it: 3.5935 us a pass,
     * two passes; 4108 updates a pass for 4096 points */
    double t = cls__cputile_predict(&c, tile, 4, 2, &red);
    tap_ok(near(t, 2 * 3.5935e-6) && near(red, 4108.0 / 4096),
           "grid traffic with the first and last steps, the middle steps after it: %g s (by "
           "hand 7.187e-6), %g updates per point (1.00293)",
           t, red);
    /* one step a pass: that step alone against the traffic (1026 x 4 input + 8192) / 4e9 =
     * 3.074 us */
    t = cls__cputile_predict(&c, tile, 1, 2, NULL);
    tap_ok(near(t, 8 * 3.074e-6), "one step a pass: %g s (by hand 2.4592e-5)", t);
    /* slow memory no longer: the steps' compute binds the edges, 771 + 513.5 ns a pass */
    c.bandwidth = 1e12;
    t = cls__cputile_predict(&c, tile, 4, 2, NULL);
    tap_ok(near(t, 2 * (771e-9 + 513.5e-9)), "compute-bound pass: %g s (by hand 2.569e-6)", t);
    /* a 4-byte array of one slice per step: the middle steps read it from memory, 1028 x 4 /
     * 4e9 = 1.028 us and 1.026 us, longer than their updates; the edges' traffic adds
     * (1030 + 1024) x 4 bytes: (4128 + 8192 + 8216) / 4e9 = 5.134 us */
    c = line();
    c.stream_bytes = c.fresh_bytes = 4;
    t = cls__cputile_predict(&c, tile, 4, 2, NULL);
    tap_ok(near(t, 2 * (5.134e-6 + 2.054e-6)),
           "an array of one slice per step from memory in every step: %g s (by hand 1.4376e-5)",
           t);
    /* the same array kept across the pass: the middle steps re-read it from the cache at 8e9,
     * 514 and 513 ns, still longer than their updates */
    c.fresh_bytes = 0;
    t = cls__cputile_predict(&c, tile, 4, 2, NULL);
    tap_ok(near(t, 2 * (5.134e-6 + 1.027e-6)),
           "an array kept across the pass from the cache: %g s (by hand 1.2322e-5)", t);

    /* prices: 5 reads and 4 flops a point, 8 lanes at 1 GHz: the grid's vector 4 + 5 x 1 = 9
     * cycles (the arithmetic's 2 does not bind), the box's 1 + 5 x 0.5 = 3.5 */
    cls__cpu_device d;
    memset(&d, 0, sizeof d);
    d.clock_hz = 1e9;
    d.cores = 2;
    d.lanes = 8;
    d.point_cycles = 4;
    d.read_cycles = 1;
    d.flop_cycles = 0.5;
    d.start_cycles = 16;
    d.box_point_cycles = 1;
    d.box_read_cycles = 0.5;
    d.bandwidth = 10e9;
    d.bandwidth_cache = 40e9;
    d.cache_bytes = 1e6;
    c = line();
    cls__cputile_cost_prices(&c, &d, 5, 4, 0, 5e5);
    tap_ok(near(c.point_seconds, 9.0 / 8e9) && near(c.box_point_seconds, 3.5 / 8e9) &&
               near(c.row_seconds, 16e-9) && near(c.bandwidth, 40e9) &&
               near(c.cache_bandwidth, 40e9) && near(c.memory_bandwidth, 10e9),
           "prices: grid %g, box %g s a point, a row %g s, bandwidths %g %g %g", c.point_seconds,
           c.box_point_seconds, c.row_seconds, c.bandwidth, c.cache_bandwidth,
           c.memory_bandwidth);
    return tap_done();
}
