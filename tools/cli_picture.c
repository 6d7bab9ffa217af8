/* cli_picture.c: `--png`: a colour-mapped picture of one field, written through the image part
 * of the library (clstencil_image.h) where the build has it. */
#include <math.h>
#include <string.h>

#include "cli.h"
#ifdef CLS_WITH_IMAGES
#include "clstencil_image.h"
#endif

int cli_picture_available(void)
{
#ifdef CLS_WITH_IMAGES
    return 1;
#else
    return 0;
#endif
}

#ifdef CLS_WITH_IMAGES
/* Control points, evenly spaced, of the two colour maps (8-bit sRGB).  Sequential: viridis
 * (van der Walt & Smith, matplotlib's default map), dark violet at the minimum to yellow at
 * the maximum.  Diverging: ColorBrewer's RdBu (Brewer), blue for negative values, near-white
 * at 0, red for positive ones. */
static const unsigned char viridis[9][3] = {
    {68, 1, 84},    {71, 44, 122},  {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
    {39, 173, 129}, {92, 200, 99},  {170, 220, 50}, {253, 231, 37},
};
static const unsigned char rdbu[5][3] = {
    {5, 48, 97}, {146, 197, 222}, {247, 247, 247}, {244, 165, 130}, {103, 0, 31},
};

/* The colour at t in [0, 1] of a map of n control points, interpolated linearly. */
static void colour(const unsigned char (*map)[3], size_t n, double t, float rgb[3])
{
    double x = (t < 0 ? 0 : t > 1 ? 1 : t) * (double)(n - 1);
    size_t i = (size_t)x;
    if (i >= n - 1) i = n - 2;
    double f = x - (double)i;
    for (int c = 0; c < 3; c++)
        rgb[c] = (float)(((1 - f) * map[i][c] + f * map[i + 1][c]) / 255.0);
}

static double value_at(const void *a, cls_dtype dt, size_t i)
{
    return dt == CLS_FLOAT64 ? ((const double *)a)[i] : (double)((const float *)a)[i];
}
#endif

int cli_picture_check(const char *path, cls_dims size, int dims)
{
#ifdef CLS_WITH_IMAGES
    cls_status rc = cls_image_check_size(size.n[0], dims >= 2 ? size.n[1] : 1);
    if (rc != CLS_SUCCESS)
        cli_failf(rc, "--png %s: the picture of a %zux%zu plane: %s", path, size.n[0],
                  dims >= 2 ? size.n[1] : (size_t)1, cls_last_error());
    return rc;
#else
    (void)size, (void)dims;
    return cli_failf(CLS_ERR_UNSUPPORTED, "%s: this build of libclstencil leaves out the image "
                                          "part (libpng; configure --with-png)", path),
           CLS_ERR_UNSUPPORTED;
#endif
}

int cli_picture_write(const char *path, const void *data, cls_dtype dt, cls_dims size, int dims)
{
#ifdef CLS_WITH_IMAGES
    size_t w = size.n[0], h = dims >= 2 ? size.n[1] : 1;
    size_t plane = dims == 3 ? size.n[2] / 2 : 0, base = plane * w * h;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < w * h; i++) {
        double v = value_at(data, dt, base + i);
        if (!isfinite(v)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    /* A field with values of both signs is drawn symmetric around 0 (a wave's crests and
     * troughs equally strong at equal amplitude); any other from its minimum to its maximum. */
    int diverging = lo < 0 && hi > 0;
    if (diverging) {
        hi = fmax(-lo, hi);
        lo = -hi;
    }
    cls_image *img = NULL;
    cls_status rc = cls_image_create(w, h, 3, &img);
    if (rc != CLS_SUCCESS) return cli_fail(rc), rc;
    for (size_t i = 0; i < w * h; i++) {
        double v = value_at(data, dt, base + i);
        float *px = img->data + 3 * i;
        if (!isfinite(v)) {
            /* Magenta, in neither map: a NaN or an infinity stands out. */
            px[0] = 1.0f, px[1] = 0.0f, px[2] = 1.0f;
            continue;
        }
        double t = hi > lo ? (v - lo) / (hi - lo) : 0.0;
        if (diverging)
            colour(rdbu, 5, t, px);
        else
            colour(viridis, 9, t, px);
    }
    rc = cls_image_write(path, img);
    cls_image_release(img);
    if (rc != CLS_SUCCESS) cli_fail(rc);
    return rc;
#else
    (void)data, (void)dt, (void)size, (void)dims;
    return cli_failf(CLS_ERR_UNSUPPORTED, "%s: this build of libclstencil leaves out the image "
                                          "part (libpng; configure --with-png)", path),
           CLS_ERR_UNSUPPORTED;
#endif
}
