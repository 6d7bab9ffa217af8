/* image_common.c: what the image applications share: image checks, typed grid arrays, masks and
 * a one-shot solve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

cls_status cls__image_check(const cls_image *img, const char *what)
{
    if (!img || !img->data)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "the %s image is missing", what);
    if (img->width < 1 || img->height < 1 || img->width > (size_t)CLS__IMAGE_MAX_SIDE ||
        img->height > (size_t)CLS__IMAGE_MAX_SIDE || img->channels < 1 || img->channels > 4)
        return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                         "the %s image is %zux%zu with %zu channels (sides 1..2^20, 1..4 channels)",
                         what, img->width, img->height, img->channels);
    size_t n = img->width * img->height * img->channels;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(img->data[i]))
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "the %s image's pixel (%zu, %zu) channel %zu is %g: images must hold "
                             "finite values",
                             what, i / img->channels % img->width, i / img->channels / img->width,
                             i % img->channels, (double)img->data[i]);
    return CLS_SUCCESS;
}

void *cls__typed_alloc(size_t n, cls_dtype dtype)
{
    return calloc(n ? n : 1, cls_dtype_size(dtype));
}

void cls__typed_set(void *a, size_t i, double v, cls_dtype dtype)
{
    if (dtype == CLS_FLOAT64)
        ((double *)a)[i] = v;
    else
        ((float *)a)[i] = (float)v;
}

double cls__typed_get(const void *a, size_t i, cls_dtype dtype)
{
    return dtype == CLS_FLOAT64 ? ((const double *)a)[i] : (double)((const float *)a)[i];
}

int cls__mask_in(const cls_image *mask, size_t i)
{
    double s = 0;
    for (size_t c = 0; c < mask->channels; c++) s += mask->data[i * mask->channels + c];
    return s >= 0.5 * (double)mask->channels;
}

cls_status cls__solve_once(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                           const cls_solver_options *opt, const void *input,
                           const void *const *aux, void *output, cls_solver_report *report)
{
    cls_solver *s = NULL;
    cls_status r = cls_solver_create(ctx, st, dims, opt, &s);
    if (r == CLS_SUCCESS) {
        r = cls_solver_run(s, input, aux, output, report);
    } else if (report) {
        /* No solver: the report says why, and never looks converged. */
        memset(report, 0, sizeof *report);
        report->outcome = CLS_SOLVER_FAILED;
        snprintf(report->message, sizeof report->message, "%s", cls_last_error());
    }
    cls_solver_release(s);
    return r;
}
