/* image_synth.c: test images generated in code: a synthetic scene for Poisson image editing (a sky
 * and hill target, a striped patch as source, an elliptic mask) and a rendered Lambertian sphere
 * with its true height for shape from shading. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_image.h"
#include "internal.h"

#define CLS_PI 3.14159265358979323846

static double smoothstep(double e0, double e1, double x)
{
    double t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

cls_status cls_image_synth_scene(size_t width, size_t height, cls_image **target,
                                 cls_image **source, cls_image **mask)
{
    if (!target || !source || !mask)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_synth_scene: NULL argument");
    *target = *source = *mask = NULL;
    if (width < 16 || height < 16)
        return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                         "synthetic scene: at least 16x16 pixels, got %zux%zu", width, height);
    cls_status st = cls_image_create(width, height, 3, target);
    if (st == CLS_SUCCESS) st = cls_image_create(width, height, 3, source);
    if (st == CLS_SUCCESS) st = cls_image_create(width, height, 1, mask);
    if (st != CLS_SUCCESS) {
        cls_image_release(*target);
        cls_image_release(*source);
        *target = *source = NULL;
        return st;
    }
    const double w = (double)width, h = (double)height;
    /* The mask: an ellipse in the sky; the patch's texture fades out before its edge. */
    const double mx = 0.40 * w, my = 0.36 * h, rx = 0.22 * w, ry = 0.17 * h;
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            double u = (double)x / (w - 1), v = (double)y / (h - 1);
            float *t = (*target)->data + 3 * (y * width + x);
            float *s = (*source)->data + 3 * (y * width + x);
            /* Target: a sky from deep blue to a pale horizon, a sun's glow, a green hill with a
             * soft, wavy ridge, lighter toward the bottom. */
            double sky = smoothstep(0.0, 0.65, v);
            double c[3] = {0.25 + 0.5 * sky, 0.45 + 0.4 * sky, 0.85 + 0.1 * sky};
            double sx = u - 0.8, sy = (v - 0.2) * h / w;
            double glow = exp(-(sx * sx + sy * sy) / (2 * 0.05 * 0.05));
            c[0] += 0.6 * glow, c[1] += 0.5 * glow, c[2] += 0.1 * glow;
            double ridge = 0.62 + 0.06 * sin(2 * CLS_PI * 1.3 * u);
            double hill = smoothstep(ridge - 0.05, ridge + 0.05, v);
            double g[3] = {0.2 + 0.15 * v, 0.45 + 0.2 * v, 0.2 + 0.05 * v};
            for (int k = 0; k < 3; k++) {
                double val = (1 - hill) * c[k] + hill * g[k];
                t[k] = (float)(val > 1 ? 1 : val);
            }
            /* Source: a warm, evenly lit background; inside the ellipse diagonal stripes and a
             * dark disc, faded to the background before the mask's edge. */
            double ex = ((double)x - mx) / rx, ey = ((double)y - my) / ry;
            double r = sqrt(ex * ex + ey * ey);
            double inner = 1 - smoothstep(0.6, 0.85, r);
            double stripe = 0.5 + 0.5 * sin(2 * CLS_PI * ((double)x + (double)y) / 9.0);
            double dx = ex + 0.25, dy = ey + 0.1;
            double disc = 1 - smoothstep(0.25, 0.3, sqrt(dx * dx + dy * dy));
            double bg[3] = {0.55 + 0.05 * u, 0.35, 0.2};
            double pat[3] = {0.85 - 0.3 * stripe, 0.3 + 0.35 * stripe, 0.2 + 0.1 * stripe};
            for (int k = 0; k < 3; k++) {
                double pk = (1 - disc) * pat[k] + disc * 0.08;
                s[k] = (float)((1 - inner) * bg[k] + inner * pk);
            }
            (*mask)->data[y * width + x] = r <= 1 ? 1.0f : 0.0f;
        }
    return CLS_SUCCESS;
}

cls_status cls_image_render_sphere(size_t width, size_t height, double radius,
                                   const double light[3], cls_image **shaded, cls_image **mask,
                                   float *height_map)
{
    if (!light || !shaded || !mask)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_render_sphere: NULL argument");
    *shaded = *mask = NULL;
    double ln = sqrt(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
    if (!isfinite(ln) || !(light[2] > 0))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "sphere: the light direction (%g, %g, %g) must be finite with z > 0",
                         light[0], light[1], light[2]);
    double cx = ((double)width - 1) / 2, cy = ((double)height - 1) / 2;
    if (!(radius >= 2) || !isfinite(radius) || radius + 2 > cx || radius + 2 > cy)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "sphere: radius %g does not fit a %zux%zu image with a border of 2 "
                         "pixels (at most %.1f, at least 2)",
                         radius, width, height, (cx < cy ? cx : cy) - 2);
    double s[3] = {light[0] / ln, light[1] / ln, light[2] / ln};
    cls_status st = cls_image_create(width, height, 1, shaded);
    if (st == CLS_SUCCESS) st = cls_image_create(width, height, 1, mask);
    if (st != CLS_SUCCESS) {
        cls_image_release(*shaded);
        *shaded = NULL;
        return st;
    }
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            size_t i = y * width + x;
            double dx = (double)x - cx, dy = (double)y - cy, d2 = dx * dx + dy * dy;
            double z = 0, e = 0;
            if (d2 < radius * radius) {
                z = sqrt(radius * radius - d2);
                /* The outward normal (x right, y down, z toward the viewer). */
                e = (dx * s[0] + dy * s[1] + z * s[2]) / radius;
                if (e < 0) e = 0;
                (*mask)->data[i] = 1;
            }
            (*shaded)->data[i] = (float)e;
            if (height_map) height_map[i] = (float)z;
        }
    return CLS_SUCCESS;
}
