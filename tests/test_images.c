/* test_images.c: image files (PNG, PGM, PPM: round trips and malformed files), Poisson image
 * editing of the synthetic scene (no seam at the mask's outline, placement by offset) and shape
 * from shading of a rendered sphere (its height within a stated error), and their bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_image.h"
#include "tap.h"

static char dir[] = "/tmp/cls_images_XXXXXX";

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void write_bytes(const char *name, const void *data, size_t n)
{
    FILE *f = fopen(path_in(name), "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* ------------------------------------------------------------------ files */
static void test_files(void)
{
    for (size_t ch = 1; ch <= 4; ch++) {
        cls_image *a = NULL, *b = NULL;
        cls_image_create(13, 7, ch, &a);
        for (size_t i = 0; i < 13 * 7 * ch; i++) a->data[i] = (float)((i * 37) % 256) / 255.0f;
        cls_status r = cls_image_write(path_in("rt.png"), a);
        if (r == CLS_SUCCESS) r = cls_image_read(path_in("rt.png"), &b);
        int same = r == CLS_SUCCESS && b->width == 13 && b->height == 7 && b->channels == ch &&
                   !memcmp(a->data, b->data, 13 * 7 * ch * sizeof *a->data);
        tap_ok(same, "PNG with %zu channel%s: written and read back exactly (%s)", ch,
               ch > 1 ? "s" : "", r == CLS_SUCCESS ? "ok" : cls_last_error());
        cls_image_release(b);
        b = NULL;
        if (ch == 1 || ch == 3) {
            const char *name = ch == 1 ? "rt.pgm" : "rt.ppm";
            r = cls_image_write(path_in(name), a);
            if (r == CLS_SUCCESS) r = cls_image_read(path_in(name), &b);
            same = r == CLS_SUCCESS && b->channels == ch &&
                   !memcmp(a->data, b->data, 13 * 7 * ch * sizeof *a->data);
            tap_ok(same, "%s: written and read back exactly", name + 3);
            cls_image_release(b);
        }
        cls_image_release(a);
    }
    /* Plain (ASCII) PGM with comments, 16-bit binary PPM. */
    static const char p2[] = "P2\n# a comment\n3 2\n# another\n10\n0 5 10\n10 5 0\n";
    write_bytes("a.pgm", p2, sizeof p2 - 1);
    cls_image *m = NULL;
    cls_status r = cls_image_read(path_in("a.pgm"), &m);
    tap_ok(r == CLS_SUCCESS && m->width == 3 && m->height == 2 && m->channels == 1 &&
               m->data[1] == 0.5f && m->data[2] == 1.0f && m->data[5] == 0.0f,
           "P2 with comments is read");
    cls_image_release(m);
    unsigned char p6[64];
    int n = snprintf((char *)p6, sizeof p6, "P6 1 1 65535\n");
    unsigned char px[6] = {0xff, 0xff, 0x80, 0x00, 0x00, 0x00};
    memcpy(p6 + n, px, 6);
    write_bytes("b.ppm", p6, (size_t)n + 6);
    r = cls_image_read(path_in("b.ppm"), &m);
    tap_ok(r == CLS_SUCCESS && m->channels == 3 && m->data[0] == 1.0f &&
               fabsf(m->data[1] - 32768.0f / 65535.0f) < 1e-7f && m->data[2] == 0.0f,
           "16-bit P6 is read");
    cls_image_release(m);

    /* Malformed files and impossible writes: clear errors. */
    cls_image *g = NULL;
    cls_image_create(4, 4, 3, &g);
    cls_image_write(path_in("t.png"), g);
    FILE *f = fopen(path_in("t.png"), "rb");
    unsigned char buf[4096];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    write_bytes("trunc.png", buf, len / 2);
    static const struct {
        const char *name, *data, *expect;
    } bad[] = {
        {"trunc.png", NULL, "PNG"},
        {"x.pgm", "P5 4 4 255\n\x01\x02", "truncated"},
        {"y.pgm", "P5 4 4 0\n", "maxval"},
        {"z.pgm", "P2 2 1 9\n3 12\n", "exceeds maxval"},
        {"w.txt", "hello", "not a PNG, PGM"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (bad[i].data) write_bytes(bad[i].name, bad[i].data, strlen(bad[i].data));
        m = NULL;
        r = cls_image_read(path_in(bad[i].name), &m);
        tap_ok(r == CLS_ERR_INVALID_FILE && !m && strstr(cls_last_error(), bad[i].expect),
               "malformed %s: %s", bad[i].name, cls_last_error());
    }
    r = cls_image_read(path_in("missing.png"), &m);
    tap_ok(r == CLS_ERR_IO, "a missing file: %s", cls_last_error());
    r = cls_image_write(path_in("g.pgm"), g);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT && strstr(cls_last_error(), "3 channels"),
           "a 3-channel image is not written as PGM: %s", cls_last_error());
    r = cls_image_write(path_in("g.jpg"), g);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT, "an unknown extension: %s", cls_last_error());
    g->data[5] = NAN;
    r = cls_image_write(path_in("g.png"), g);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT && strstr(cls_last_error(), "(1, 0)"),
           "a NaN pixel is not written: %s", cls_last_error());
    cls_image_release(g);
}

/* ------------------------------------------------------------------ Poisson image editing */
/* The seam of a composite: over the pairs of a pixel inside the mask region (placed at ox, oy)
 * and a 4-neighbour outside, and over the channels, the largest step between the two beyond the
 * step the target itself has there (the hill's ridge crosses the outline). */
static double seam(const cls_image *img, const cls_image *target, const cls_image *mask, long ox,
                   long oy)
{
    double worst = 0;
    size_t W = img->width, C = img->channels;
    for (size_t y = 0; y < mask->height; y++)
        for (size_t x = 0; x < mask->width; x++) {
            if (mask->data[y * mask->width + x] < 0.5f) continue;
            static const int nb[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (int k = 0; k < 4; k++) {
                long mx = (long)x + nb[k][0], my = (long)y + nb[k][1];
                int out = mx < 0 || my < 0 || mx >= (long)mask->width ||
                          my >= (long)mask->height ||
                          mask->data[(size_t)my * mask->width + (size_t)mx] < 0.5f;
                if (!out) continue;
                size_t p = (size_t)((long)y + oy) * W + (size_t)((long)x + ox);
                size_t q = (size_t)(my + oy) * W + (size_t)(mx + ox);
                for (size_t c = 0; c < C; c++)
                    worst = fmax(worst, fabs(img->data[p * C + c] - img->data[q * C + c]) -
                                            fabs(target->data[p * C + c] - target->data[q * C + c]));
            }
        }
    return worst;
}

/* A w x h window of img from (x0, y0). */
static cls_image *crop(const cls_image *img, size_t x0, size_t y0, size_t w, size_t h)
{
    cls_image *c = NULL;
    if (cls_image_create(w, h, img->channels, &c) != CLS_SUCCESS) return NULL;
    for (size_t y = 0; y < h; y++)
        memcpy(c->data + y * w * img->channels,
               img->data + ((y0 + y) * img->width + x0) * img->channels,
               w * img->channels * sizeof *img->data);
    return c;
}

static void test_poisson(cls_context *ctx)
{
    const size_t W = 96, H = 72;
    cls_image *target = NULL, *source = NULL, *mask = NULL, *out = NULL, *paste = NULL;
    cls_status r = cls_image_synth_scene(W, H, &target, &source, &mask);
    if (r != CLS_SUCCESS) {
        tap_ok(0, "synthetic scene: %s", cls_last_error());
        return;
    }
    /* Cut and paste, for comparison: the seam the editing must remove. */
    cls_image_create(W, H, 3, &paste);
    for (size_t p = 0; p < W * H; p++)
        for (size_t c = 0; c < 3; c++)
            paste->data[3 * p + c] = mask->data[p] >= 0.5f ? source->data[3 * p + c]
                                                            : target->data[3 * p + c];
    cls_poisson_edit_options o;
    cls_poisson_edit_options_init(&o);
    cls_solver_report rep;
    r = cls_poisson_edit(ctx, target, source, mask, &o, &out, &rep);
    double s_paste = seam(paste, target, mask, 0, 0);
    double s_edit = r == CLS_SUCCESS ? seam(out, target, mask, 0, 0) : 1;
    /* The bound: 0.02 of the intensity range (5 of 255 grey levels) beyond the target's own
     * steps; cut and paste leaves 0.3 and more. */
    tap_ok(r == CLS_SUCCESS && s_paste > 0.25 && s_edit < 0.02,
           "seamless cloning: largest step across the outline beyond the target's %.3f (cut and "
           "paste: %.3f) after %zu steps (%s)",
           s_edit, s_paste, r == CLS_SUCCESS ? rep.steps : 0,
           r == CLS_SUCCESS ? rep.message : cls_last_error());
    if (r == CLS_SUCCESS) cls_solver_report_clear(&rep);
    if (getenv("CLS_KEEP_IMAGES")) {
        cls_image_write("scene_target.png", target);
        cls_image_write("scene_source.png", source);
        cls_image_write("scene_mask.png", mask);
        cls_image_write("scene_paste.png", paste);
        if (out) cls_image_write("scene_edit.png", out);
    }

    /* The same patch cut to its bounding box and placed by offset: the same composite.  Both
     * runs take the synchronous schedule (one Jacobi launch per step), whose iterates do not
     * depend on timing: the default chaotic relaxation stops at iterates that differ from run
     * to run by up to twice its error bound (2.05e-2 seen under a loaded make -j2 check), which
     * would hide a placement off by a pixel. */
    size_t x0 = W, y0 = H, x1 = 0, y1 = 0;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++)
            if (mask->data[y * W + x] >= 0.5f) {
                x0 = x < x0 ? x : x0, y0 = y < y0 ? y : y0;
                x1 = x > x1 ? x : x1, y1 = y > y1 ? y : y1;
            }
    cls_image *cs = crop(source, x0 - 1, y0 - 1, x1 - x0 + 3, y1 - y0 + 3);
    cls_image *cm = crop(mask, x0 - 1, y0 - 1, x1 - x0 + 3, y1 - y0 + 3);
    cls_image *out1 = NULL, *out2 = NULL;
    o.solver.schedule = CLS_SOLVER_BASE;
    r = cls_poisson_edit(ctx, target, source, mask, &o, &out1, NULL);
    o.offset_x = (long)x0 - 1;
    o.offset_y = (long)y0 - 1;
    if (r == CLS_SUCCESS) r = cls_poisson_edit(ctx, target, cs, cm, &o, &out2, NULL);
    double diff = 1;
    if (r == CLS_SUCCESS) {
        diff = 0;
        for (size_t i = 0; i < W * H * 3; i++) diff = fmax(diff, fabs(out1->data[i] - out2->data[i]));
    }
    tap_ok(r == CLS_SUCCESS && diff < 1e-6, "a cropped patch placed at (%ld, %ld): max difference %.2e",
           o.offset_x, o.offset_y, diff);
    cls_image_release(out1);
    cls_image_release(out2);

    /* Bad input: each a clear error, no image. */
    struct {
        const char *what, *expect;
        long ox, oy;
        int kind;
    } bad[] = {
        {"mask and source of different sizes", "same size", 0, 0, 0},
        {"a grey source into a colour target", "channels", 0, 0, 1},
        {"a mask touching the target's border", "border", 0, 0, 2},
        {"a mask reaching outside the target", "outside", 0, 0, 3},
        {"an empty mask", "no pixel", 0, 0, 4},
        {"a NaN in the target", "finite", 0, 0, 5},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cls_poisson_edit_options_init(&o);
        const cls_image *t = target, *s = source, *m = mask;
        cls_image *tmp = NULL;
        switch (bad[k].kind) {
        case 0: m = cm; break;
        case 1: cls_image_create(W, H, 1, &tmp); s = tmp; break;
        case 2: o.offset_x = -1; o.offset_y = (long)y0 - 1; s = cs; m = cm; break;
        case 3: o.offset_x = (long)(W - 5); o.offset_y = (long)y0; s = cs; m = cm; break;
        case 4: cls_image_create(W, H, 1, &tmp); m = tmp; break;
        case 5:
            cls_image_create(W, H, 3, &tmp);
            memcpy(tmp->data, target->data, W * H * 3 * sizeof *tmp->data);
            tmp->data[3 * (W * 10 + 20) + 1] = NAN;
            t = tmp;
            break;
        }
        cls_image *res = NULL;
        r = cls_poisson_edit(ctx, t, s, m, &o, &res, NULL);
        tap_ok(r != CLS_SUCCESS && !res && strstr(cls_last_error(), bad[k].expect),
               "%s: %s", bad[k].what, cls_last_error());
        cls_image_release(tmp);
    }
    cls_image_release(cs);
    cls_image_release(cm);
    cls_image_release(out);
    cls_image_release(paste);
    cls_image_release(target);
    cls_image_release(source);
    cls_image_release(mask);
}

/* ------------------------------------------------------------------ shape from shading */
static void test_sfs(cls_context *ctx)
{
    const size_t W = 64, H = 64;
    const double radius = 24, light[3] = {0.3, -0.2, 1};
    float *truth = malloc(W * H * sizeof *truth);
    cls_image *img = NULL, *mask = NULL;
    cls_status r = cls_image_render_sphere(W, H, radius, light, &img, &mask, truth);
    cls_sfs_options o;
    cls_sfs_options_init(&o);
    memcpy(o.light, light, sizeof o.light);
    cls_sfs_result *res = NULL;
    if (r == CLS_SUCCESS) r = cls_shape_from_shading(ctx, img, mask, &o, &res);
    if (r != CLS_SUCCESS) {
        tap_ok(0, "shape from shading of a rendered sphere: %s", cls_last_error());
    } else {
        /* The height is known up to a constant: compare after matching the means over the disc;
         * RMS error over the disc and over its inner 80 % (the rim is the steepest part). */
        double mt = 0, mr = 0, e2 = 0, e2i = 0, emax = 0;
        size_t n = 0, ni = 0;
        double cx = (W - 1) / 2.0, cy = (H - 1) / 2.0;
        for (size_t i = 0; i < W * H; i++)
            if (mask->data[i] >= 0.5f) mt += truth[i], mr += res->height_map[i], n++;
        for (size_t i = 0; i < W * H; i++) {
            if (mask->data[i] < 0.5f) continue;
            double e = res->height_map[i] - mr / (double)n - (truth[i] - mt / (double)n);
            double dx = (double)(i % W) - cx, dy = (double)(i / W) - cy;
            e2 += e * e;
            if (sqrt(dx * dx + dy * dy) < 0.8 * radius) e2i += e * e, ni++, emax = fmax(emax, fabs(e));
        }
        double rms = sqrt(e2 / (double)n), rmsi = sqrt(e2i / (double)ni);
        /* Stated error (doc/chaotic.md): Horn's regularised solution under this oblique light
         * differs from the sphere by ~5 % of the radius (lambda 0.1), not by the solver. */
        tap_ok(rms < 0.08 * radius && rmsi < 0.07 * radius,
               "shape from shading of a sphere (r = %.0f, light (%.1f, %.1f, 1)): height RMS "
               "error %.2f (%.1f %% of r), inner 80 %% %.2f, max %.2f; %zu + %zu steps",
               radius, light[0], light[1], rms, 100 * rms / radius, rmsi, emax,
               res->normals.steps, res->heights.steps);
        if (getenv("CLS_KEEP_IMAGES")) {
            cls_image *hm = NULL;
            cls_image_from_values(res->height_map, W, H, 0, radius, &hm);
            cls_image_write("sphere_shaded.png", img);
            if (hm) cls_image_write("sphere_height.png", hm);
            cls_image_release(hm);
        }
    }
    cls_sfs_result_release(res);
    res = NULL;

    /* Bad input. */
    cls_image *small = NULL, *edge = NULL;
    cls_image_create(W / 2, H, 1, &small);
    r = cls_shape_from_shading(ctx, img, small, &o, &res);
    tap_ok(r == CLS_ERR_INVALID_SIZE && !res, "an image and a mask of different sizes: %s",
           cls_last_error());
    cls_image_create(W, H, 1, &edge);
    edge->data[W * 5] = 1;
    r = cls_shape_from_shading(ctx, img, edge, &o, &res);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT && !res && strstr(cls_last_error(), "border"),
           "a mask touching the border: %s", cls_last_error());
    img->data[W * 30 + 30] = INFINITY;
    r = cls_shape_from_shading(ctx, img, mask, &o, &res);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT && !res && strstr(cls_last_error(), "(30, 30)"),
           "an infinite pixel: %s", cls_last_error());
    img->data[W * 30 + 30] = 0.5f;
    o.light[2] = -1;
    r = cls_shape_from_shading(ctx, img, mask, &o, &res);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT && !res, "a light from behind: %s", cls_last_error());
    cls_sfs_options_init(&o);
    o.lambda = 0;
    r = cls_shape_from_shading(ctx, img, mask, &o, &res);
    tap_ok(r == CLS_ERR_INVALID_ARGUMENT && !res, "lambda 0: %s", cls_last_error());
    cls_image_release(small);
    cls_image_release(edge);
    cls_image_release(img);
    cls_image_release(mask);
    free(truth);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        tap_ok(0, "mkdtemp");
        return tap_done();
    }
    test_files();
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("Poisson image editing and shape from shading", "no OpenCL device");
    } else {
        test_poisson(ctx);
        test_sfs(ctx);
    }
    cls_context_release(ctx);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) tap_diag("could not remove %s", dir);
    return tap_done();
}
