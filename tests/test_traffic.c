/* test_traffic.c: the traffic model against Mo & Li's own numbers (Eq. 2, the
 * 48x8 tile, 8 and 12 bytes per point, the 8.4 and 8.9 bytes per point derived from rates). */
#include <math.h>
#include <stdio.h>

#include "tap.h"
#include "traffic.h"

static int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static cls_traffic eval(double bx, double by, double h, double elem, cls_traffic_loader loader,
                        int corners)
{
    cls_traffic_tile tile = {bx, by, h, h, elem, 32, 0, 0, corners, loader};
    cls_traffic t = {0};
    if (cls_traffic_tile_eval(&tile, &t) != 0) tap_diag("tile %gx%g rejected", bx, by);
    return t;
}

int main(void)
{
    /* Sect. 4.3: 32x6 work-items, single precision, 32-byte segments, halo 1: a 48x8 loaded
     * tile (Figure 2), 384 = 2 x 192 elements (two loads per work-item, Listing 3), 12 bytes
     * per point (8 read, ghost zone included, and 4 written). */
    cls_traffic t = eval(32, 6, 1, 4, CLS_TRAFFIC_ALIGNED, 1);
    tap_ok(t.loaded_w == 48 && t.loaded_h == 8, "32x6 float: loaded tile %gx%g (document: 48x8)",
           t.loaded_w, t.loaded_h);
    tap_ok(cls_traffic_eq2(32, 6) == 384 && t.loaded == 384,
           "Eq. 2 for 32x6: %g elements, the model %g (document: 384)", cls_traffic_eq2(32, 6),
           t.loaded);
    tap_ok(t.loads_per_item == 2, "two loads per work-item (Listing 3): %g", t.loads_per_item);
    tap_ok(near(t.bytes_per_point, 12, 1e-12) && near(t.read_bytes, 8, 1e-12) &&
               near(t.write_bytes, 4, 1e-12),
           "12 bytes per point = %g read + %g written (Sect. 4.3, 6.2)", t.read_bytes,
           t.write_bytes);
    tap_ok(cls_traffic_ideal_bytes(4) == 8 && cls_traffic_ideal_bytes(8) == 16,
           "ideal traffic: 8 bytes per float point, 16 per double (Sect. 4.2, 6.1)");

    /* The generalisation agrees with Eq. 2 wherever Eq. 2 applies (bx a multiple of the 8
     * floats of a segment, halo 1, aligned or with corners). */
    int agree = 1;
    for (int bx = 8; bx <= 256; bx += 8)
        for (int by = 1; by <= 32; by++) {
            cls_traffic a = eval(bx, by, 1, 4, CLS_TRAFFIC_ALIGNED, 0);
            cls_traffic c = eval(bx, by, 1, 4, CLS_TRAFFIC_CLASSIC, 1);
            double e = cls_traffic_eq2(bx, by);
            if (a.loaded != e || c.loaded != e) agree = 0;
        }
    tap_ok(agree, "generalised model == Eq. 2 for bx = 8..256 (step 8), by = 1..32");

    /* Segment, element size and halo: double precision takes 4 words per ghost segment (32x6:
     * 40x8 loaded, 320*8/192 + 8 bytes), 64-byte segments 16 floats, a halo of 2 two rows. */
    t = eval(32, 6, 1, 8, CLS_TRAFFIC_ALIGNED, 1);
    tap_ok(t.loaded_w == 40 && near(t.bytes_per_point, 320.0 * 8 / 192 + 8, 1e-12),
           "32x6 double: %gx%g loaded, %.4g bytes per point", t.loaded_w, t.loaded_h,
           t.bytes_per_point);
    cls_traffic_tile wide = {32, 6, 1, 1, 4, 64, 0, 0, 1, CLS_TRAFFIC_ALIGNED};
    cls_traffic_tile_eval(&wide, &t);
    tap_ok(t.loaded_w == 64 && t.loaded == 64 * 8, "64-byte segments: a %gx%g tile", t.loaded_w,
           t.loaded_h);
    t = eval(64, 4, 2, 4, CLS_TRAFFIC_ALIGNED, 1);
    tap_ok(t.loaded_w == 80 && t.loaded_h == 8, "halo 2: 64x4 loads %gx%g", t.loaded_w,
           t.loaded_h);
    /* The classic loader without corners (a 7-point stencil) skips 2*2*hy corner segments. */
    t = eval(32, 6, 1, 4, CLS_TRAFFIC_CLASSIC, 0);
    tap_ok(t.loaded == 384 - 4 * 8, "classic loader, no corners: %g elements", t.loaded);
    /* A row that is not whole segments costs whole segments: 20 floats move 24. */
    t = eval(20, 4, 1, 4, CLS_TRAFFIC_ALIGNED, 1);
    tap_ok(t.row_x == 24 && t.written == 24 * 4, "20-wide rows move %g elements", t.row_x);
    /* The z halo of a streamed column of nz planes: (nz + 2) / nz more reads. */
    cls_traffic_tile zt = {32, 6, 1, 1, 4, 32, 64, 1, 1, CLS_TRAFFIC_ALIGNED};
    cls_traffic_tile_eval(&zt, &t);
    tap_ok(near(t.read_bytes, 8.0 * 66 / 64, 1e-12), "64 planes per column read %g bytes",
           t.read_bytes);
    tap_ok(cls_traffic_tile_eval(&(cls_traffic_tile){0, 6, 1, 1, 4, 32, 0, 0, 0, 0}, &t) == -1,
           "an empty tile is rejected");

    /* Sect. 6.2: cube_ghost_transit's 12.8 GP/s against cube_transit's 13.5 GP/s (average
     * throughputs, Tables 2 and 3) at 8 bytes per point: 13.5 / 12.8 x 8 = 8.4. */
    double b = cls_traffic_effective_bytes(8, 13.5, 12.8);
    tap_ok(near(b, 8.4, 0.05), "cube_ghost_transit effectively moves %.3f bytes per point "
                                "(document: 8.4)", b);
    /* Sect. 7: the 7-point stencil effectively moves 8.9 bytes per point, "11 % worse than the
     * idealized value of 8 bytes".  Its measured rate is Table 5's 97 GFLOP/s at the 8 flops
     * per point every entry of Table 5 uses (12.1 GP/s), against cube_transit's 13.5 GP/s. */
    b = cls_traffic_effective_bytes(8, 13.5, 97.0 / 8);
    tap_ok(near(b, 8.9, 0.05) && near(b / 8 - 1, 0.11, 0.01),
           "the 7-point stencil effectively moves %.3f bytes per point, %.1f %% over 8 "
           "(document: 8.9, 11 %%)",
           b, 100 * (b / 8 - 1));
    tap_ok(cls_traffic_effective_bytes(8, 0, 1) == 0, "no throughput, no estimate");

    /* Eq. 3 with the tables' units (10^9 bytes): Table 3's 10.5 GP/s at 12 bytes per point
     * is 126 GB/s, Table 2's 14.1 GP/s at 8 bytes 112.8; with 2^30 as printed, 105.0. */
    double n = 256.0 * 256 * 256;
    tap_ok(near(cls_traffic_eq3_gbs(n, 12, n / 10.5e9, 1e9), 126, 1e-9),
           "Eq. 3: 10.5 GP/s at 12 bytes per point = %.1f GB/s (Table 3: 126)",
           cls_traffic_eq3_gbs(n, 12, n / 10.5e9, 1e9));
    tap_ok(near(cls_traffic_eq3_gbs(n, 8, n / 14.1e9, 1073741824.0), 105.05, 0.01),
           "Eq. 3 in units of 2^30 bytes: %.2f", cls_traffic_eq3_gbs(n, 8, n / 14.1e9,
                                                                      1073741824.0));

    /* The minimal traffic of a step: one field in float with one auxiliary array, 4 x (2 + 1);
     * the ideal of Sect. 4.2 without; Gray-Scott (u, v read and written in one stage) 16;
     * Yee's 2D TE mode (Hz from Ex, Ey, Hz; then Ex, Ey from themselves and the new Hz) reads
     * 3 + 3 and writes 1 + 2 fields: 36 bytes in float, 72 in double. */
    const double one = 1, two = 2, yee_r[2] = {3, 3}, yee_w[2] = {1, 2};
    tap_ok(cls_traffic_minimal_bytes(4, &one, &one, 1, 1) == 12 &&
               cls_traffic_minimal_bytes(4, &one, &one, 1, 0) == cls_traffic_ideal_bytes(4),
           "minimal traffic of one field: 12 bytes with an aux array, 8 without (Sect. 4.2)");
    tap_ok(cls_traffic_minimal_bytes(4, &two, &two, 1, 0) == 16,
           "minimal traffic of two fields in one stage: %g bytes (want 16)",
           cls_traffic_minimal_bytes(4, &two, &two, 1, 0));
    tap_ok(cls_traffic_minimal_bytes(4, yee_r, yee_w, 2, 0) == 36 &&
               cls_traffic_minimal_bytes(8, yee_r, yee_w, 2, 0) == 72,
           "minimal traffic of fdtd2d's two stages: %g bytes in float (want 36), %g in double "
           "(want 72)",
           cls_traffic_minimal_bytes(4, yee_r, yee_w, 2, 0),
           cls_traffic_minimal_bytes(8, yee_r, yee_w, 2, 0));
    const double neg = -1;
    tap_ok(cls_traffic_minimal_bytes(0, &one, &one, 1, 0) == 0 &&
               cls_traffic_minimal_bytes(4, &one, &one, 0, 0) == 0 &&
               cls_traffic_minimal_bytes(4, &neg, &one, 1, 0) == 0 &&
               cls_traffic_minimal_bytes(4, NULL, &one, 1, 0) == 0,
           "minimal traffic: no element size, no stage, a negative count, no counts: 0");
    return tap_done();
}
