/* test_limits.c: resource limits and hostile sizes through the C API: placements beyond any
 * image, huge grids refused before anything is allocated, image bombs refused at their header,
 * linear stencils of many points built in linear time, long flat sums that the device compiler
 * takes, caller buffers untouched on failure. */
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "clstencil_image.h"
#include "clstencil_solver.h"
#include "tap.h"

/* The plan options of this file's runs (one place, should the options API change). */
static cls_plan_options plan_options(void)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    return opt;
}

static cls_image *flat_image(size_t w, size_t h, size_t ch, float v)
{
    cls_image *img = NULL;
    if (cls_image_create(w, h, ch, &img) != CLS_SUCCESS) return NULL;
    for (size_t i = 0; i < w * h * ch; i++) img->data[i] = v;
    return img;
}

static void poisson_offsets(cls_context *ctx)
{
    cls_image *t = flat_image(16, 16, 1, 0.5f), *s = flat_image(8, 8, 1, 1.0f);
    cls_image *m = flat_image(8, 8, 1, 1.0f), *big = flat_image(12, 12, 1, 1.0f);
    static const long bad[][2] = {{LONG_MAX, 0}, {0, LONG_MIN}, {LONG_MIN, LONG_MAX},
                                  {1048577, 3}, {3, -1048577}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cls_poisson_edit_options po;
        cls_image *out = NULL;
        cls_poisson_edit_options_init(&po);
        po.offset_x = bad[i][0];
        po.offset_y = bad[i][1];
        cls_status st = cls_poisson_edit(ctx, t, s, m, &po, &out, NULL);
        tap_ok(st == CLS_ERR_INVALID_ARGUMENT && !out && strstr(cls_last_error(), "offset"),
               "cls_poisson_edit refuses offset (%ld, %ld): %s", bad[i][0], bad[i][1],
               cls_last_error());
        cls_image_release(out);
    }
    cls_image *out = NULL;
    cls_status st = cls_poisson_edit(ctx, t, s, big, NULL, &out, NULL);
    tap_ok(st == CLS_ERR_INVALID_SIZE && !out, "cls_poisson_edit refuses a mask larger than the "
                                               "source: %s",
           cls_last_error());
    cls_image_release(out);
    cls_image_release(t);
    cls_image_release(s);
    cls_image_release(m);
    cls_image_release(big);
}

/* A model whose formulas would degenerate: hashing over one memory channel (the gpu family's
 * channel rule looped for ever on it). */
static void degenerate_models(void)
{
    cls_model *h100 = NULL, *m = NULL;
    char *json = NULL, *bad = NULL, *at;
    double v = 0;
    if (cls_model_load("h100", &h100) != CLS_SUCCESS || cls_model_to_json(h100, &json) != CLS_SUCCESS ||
        !(at = strstr(json, "\"channels\"")) || !(bad = malloc(strlen(json) + 1))) {
        tap_ok(0, "the h100 model as JSON: %s", cls_last_error());
        goto done;
    }
    /* The shipped H100 model hashes (channel_hash 1); give it one channel. */
    at += strlen("\"channels\"");
    at += strspn(at, ": \t");
    size_t head = (size_t)(at - json);
    memcpy(bad, json, head);
    bad[head] = '1';
    strcpy(bad + head + 1, at + strspn(at, "0123456789"));
    cls_status st = cls_model_from_json(bad, &m);
    tap_ok(st == CLS_ERR_INVALID_MODEL && !m && strstr(cls_last_error(), "memory.channel_hash"),
           "a model hashing over one channel is refused: %s", cls_last_error());
    tap_ok(cls_model_set(h100, "memory.channels", 1) != CLS_SUCCESS &&
               cls_model_get(h100, "memory.channels", &v) == CLS_SUCCESS && v > 1,
           "cls_model_set cannot make it hash over one channel: %s", cls_last_error());
done:
    cls_model_release(m);
    cls_model_release(h100);
    cls_free(json);
    free(bad);
}

/* 100 000 points build and validate in linear time, through the C API and through JSON (a
 * rebuild of the body on every point took minutes). */
static void many_points(void)
{
    enum { N = 100000 };
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_create("many", 3, CLS_FLOAT32, NULL, &st);
    uint32_t x = 12345;
    for (int i = 0; s == CLS_SUCCESS && i < N; i++) {
        x = x * 1664525u + 1013904223u;
        int dx = (int)(x >> 8) % 41 - 20, dy = (int)(x >> 14) % 41 - 20, dz = (int)(x >> 20) % 41 - 20;
        /* 1000 distinct coefficients: groups of about a hundred points */
        s = cls_stencil_add_point(st, dx, dy, dz, 1.0 / (1 + (x >> 3) % 1000));
    }
    if (s == CLS_SUCCESS) s = cls_stencil_validate(st);
    size_t flops = 0;
    if (s == CLS_SUCCESS) s = cls_stencil_flops(st, &flops);
    /* N - 1 additions and 999 multiplications (the group of coefficient 1 needs none) */
    tap_ok(s == CLS_SUCCESS && flops == N - 1 + 999,
           "%d points added one by one build and validate (%zu flops): %s", N, flops,
           s == CLS_SUCCESS ? "ok" : cls_last_error());
    char *json = NULL;
    if (s == CLS_SUCCESS) s = cls_stencil_to_json(st, &json);
    cls_stencil *back = NULL;
    if (s == CLS_SUCCESS) s = cls_stencil_from_json(json, &back);
    const char *b1 = back ? cls_stencil_body(back) : NULL, *b2 = cls_stencil_body(st);
    if (b1 && b2 && strcmp(b1, b2)) {
        size_t k = 0;
        while (b1[k] == b2[k]) k++;
        tap_diag("bodies differ at %zu: '%.60s' and '%.60s'", k, b1 + k, b2 + k);
    }
    tap_ok(s == CLS_SUCCESS && b1 && b2 && !strcmp(b1, b2),
           "the same %d points through JSON give the same body: %s", N,
           s == CLS_SUCCESS ? "ok" : cls_last_error());
    cls_free(json);
    cls_stencil_release(back);
    cls_stencil_release(st);
}

/* Bodies the device compiler would refuse are refused at validation, with the reason. */
static void deep_bodies(void)
{
    char *body = malloc(64 * 200 + 16);
    strcpy(body, "IN(0)");
    for (int i = 0; i < 199; i++) {
        char *t = malloc(strlen(body) + 64);
        sprintf(t, "(%s) > 0 && IN(1) > 0", body);
        strcpy(body, t);
        free(t);
    }
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_create("deep", 1, CLS_FLOAT32, body, &st);
    if (s == CLS_SUCCESS) s = cls_stencil_validate(st);
    tap_ok(s == CLS_ERR_INVALID_SPEC && strstr(cls_last_error(), "brackets deep"),
           "a body nesting 400 brackets in OpenCL C is refused: %s", cls_last_error());
    cls_stencil_release(st);
    free(body);
}

/* A flat sum of many terms (300: past clang's 256 nested brackets before sums were written
 * flat) and a points stencil whose one group holds 400 points run bitwise like the host
 * reference. */
static void long_sums(cls_context *ctx)
{
    enum { N = 700, STEPS = 3 };
    static float in[N], out[N], ref[N];
    char *body = malloc(300 * 16);
    body[0] = 0;
    for (int i = 0; i < 300; i++) sprintf(body + strlen(body), "%sIN(%d)", i ? " + " : "", i % 9 - 4);
    for (int i = 0; i < N; i++) in[i] = (float)((i * 7919) % 101) / 1024.0f;
    cls_stencil *flat = NULL, *pts = NULL;
    cls_status s = cls_stencil_create("flat", 1, CLS_FLOAT32, body, &flat);
    if (s == CLS_SUCCESS) s = cls_stencil_set_boundary(flat, CLS_BOUNDARY_PERIODIC, 0);
    if (s == CLS_SUCCESS) s = cls_stencil_create("group", 1, CLS_FLOAT32, NULL, &pts);
    for (int i = 0; s == CLS_SUCCESS && i < 400; i++)
        s = cls_stencil_add_point(pts, i - 200, 0, 0, 1.0 / 400);
    cls_stencil *sts[2] = {flat, pts};
    for (int k = 0; k < 2; k++) {
        cls_plan *plan = NULL;
        cls_plan_options opt = plan_options();
        cls_status r = s;
        if (r == CLS_SUCCESS)
            r = cls_plan_create(ctx, sts[k], (cls_dims){{N, 1, 1}}, STEPS, &opt, &plan);
        if (r == CLS_SUCCESS) r = cls_plan_run(plan, in, NULL, out, NULL);
        if (r == CLS_SUCCESS) r = cls_reference_run(sts[k], (cls_dims){{N, 1, 1}}, STEPS, in, NULL, ref);
        tap_ok(r == CLS_SUCCESS && !memcmp(out, ref, sizeof out),
               "%s runs bitwise like the host reference: %s",
               k ? "a group of 400 points" : "a flat sum of 300 terms",
               r == CLS_SUCCESS ? "ok" : cls_last_error());
        cls_plan_release(plan);
    }
    cls_stencil_release(flat);
    cls_stencil_release(pts);
    free(body);
}

/* Grids far beyond the device are refused by the planner, before any allocation (held whole
 * on the device: a pipeline would stream it from the caller's arrays tile by tile). */
static void huge_grids(cls_context *ctx)
{
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    cls_plan_options opt = plan_options();
    opt.params = "pipeline.scheme=off";
    cls_status s = cls_stencil_builtin("hotspot", &st);
    if (s == CLS_SUCCESS)
        s = cls_plan_create(ctx, st, (cls_dims){{(size_t)1 << 30, (size_t)1 << 30, 1}}, 10, &opt,
                            &plan);
    tap_ok(s == CLS_ERR_TOO_LARGE && !plan, "a 2^30 x 2^30 grid is refused by the planner: %s",
           cls_last_error());
    cls_plan_release(plan);
    plan = NULL;
    s = cls_plan_create(ctx, st, (cls_dims){{(size_t)1 << 31, 4, 1}}, 10, &opt, &plan);
    tap_ok(s == CLS_ERR_INVALID_SIZE && !plan, "a side past 2^30 is refused: %s", cls_last_error());
    cls_stencil_release(st);
}

/* CRC-32 of PNG chunks (ISO 3309), to rewrite a header. */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static int write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(data, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* Image bombs: headers that claim huge images are refused before the pixels are allocated. */
static void image_bombs(void)
{
    char dir[] = "/tmp/cls-bombs-XXXXXX", path[256];
    if (!mkdtemp(dir)) {
        tap_ok(0, "mkdtemp");
        return;
    }
    /* A real PNG of 4x4 whose IHDR then claims 16384x16384 (the CRC rewritten to match). */
    cls_image *img = flat_image(4, 4, 1, 0.5f);
    snprintf(path, sizeof path, "%s/bomb.png", dir);
    cls_status s = img ? cls_image_write(path, img) : CLS_ERR_OUT_OF_HOST_MEMORY;
    unsigned char buf[4096];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    if (s == CLS_SUCCESS && n > 33 && !memcmp(buf + 12, "IHDR", 4)) {
        put_be32(buf + 16, 16384);
        put_be32(buf + 20, 16384);
        put_be32(buf + 29, crc32_of(buf + 12, 17));
        write_bytes(path, buf, n);
        cls_image *out = NULL;
        s = cls_image_read(path, &out);
        tap_ok(s == CLS_ERR_TOO_LARGE && !out && strstr(cls_last_error(), "16384x16384"),
               "a PNG claiming 16384x16384 is refused at its header: %s", cls_last_error());
        cls_image_release(out);
    } else {
        tap_ok(0, "writing the PNG to rewrite: %s", cls_last_error());
    }
    cls_image_release(img);

    static const struct {
        const char *text, *what;
        cls_status st;
    } pnm[] = {
        {"P5\n100000000 100000000\n255\n", "a 22-byte PGM claiming 10^16 pixels", CLS_ERR_INVALID_SIZE},
        {"P6\n65535 65535\n255\n\x01\x02", "a PPM claiming 65535x65535", CLS_ERR_TOO_LARGE},
        {"P5\n8000 8000\n65535\n\x01\x02\x03", "a PGM of 8000x8000 with 3 data bytes", CLS_ERR_INVALID_FILE},
        {"P2\n8000 8000\n255\n1 2 3\n", "a plain PGM of 8000x8000 with 3 samples", CLS_ERR_INVALID_FILE},
    };
    for (size_t i = 0; i < sizeof pnm / sizeof pnm[0]; i++) {
        snprintf(path, sizeof path, "%s/bomb.pgm", dir);
        write_bytes(path, pnm[i].text, strlen(pnm[i].text));
        cls_image *out = NULL;
        s = cls_image_read(path, &out);
        tap_ok(s == pnm[i].st && !out, "%s is refused before allocating: %s", pnm[i].what,
               cls_last_error());
        cls_image_release(out);
    }
    unlink(path);
    snprintf(path, sizeof path, "%s/bomb.png", dir);
    unlink(path);
    rmdir(dir);

    /* An endless file stops at what an image within the pixel limit can need. */
    setenv("CLSTENCIL_IMAGE_MAX_PIXELS", "4096", 1);
    cls_image *out = NULL;
    s = cls_image_read("/dev/zero", &out);
    tap_ok(s == CLS_ERR_TOO_LARGE && !out, "/dev/zero as an image is refused: %s", cls_last_error());
    s = cls_image_create(128, 64, 1, &out);
    tap_ok(s == CLS_ERR_TOO_LARGE && !out, "cls_image_create honours CLSTENCIL_IMAGE_MAX_PIXELS: %s",
           cls_last_error());
    unsetenv("CLSTENCIL_IMAGE_MAX_PIXELS");
    s = cls_image_create(128, 64, 1, &out);
    tap_ok(s == CLS_SUCCESS, "and the default allows it");
    cls_image_release(out);
}

int main(void)
{
    degenerate_models();
    many_points();
    deep_bodies();
    image_bombs();
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("limits that need a context", "no OpenCL device");
    } else {
        poisson_offsets(ctx);
        long_sums(ctx);
        huge_grids(ctx);
    }
    cls_context_release(ctx);
    return tap_done();
}
