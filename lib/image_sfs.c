/* image_sfs.c: shape from shading (Horn; Chen et al., Eqs. 3-4): the stereographic
 * normal (f, g) of a Lambertian surface from one shaded image under a known light, then its
 * height by integrating the gradient, both solved by the convergent solver. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* f and g interleaved along x (f at even X, g at odd X: IN(+-2, 0) is the same component of the
 * next pixel, IN(+-1, 0) the other component).  With fbar, gbar the 4-neighbour means and the
 * Lambertian reflectance map in stereographic coordinates,
 *     R = (-4 f sx - 4 g sy + (4 - f^2 - g^2) sz) / (4 + f^2 + g^2),
 *     R_f = (-4 sx - 2 f sz - 2 f R) / (4 + f^2 + g^2)  (R_g alike),
 * Eq. 3's Euler-Lagrange equations (Eq. 4; lambda the smoothness weight, so Eq. 4's factor reads
 * 1/lambda; the Laplacian on the unit grid is 4 (fbar - f)) are solved by
 *     f = fbar + (I - R) R_f / (4 lambda + R_f^2 + R_g^2),
 * Horn's update with the reflectance linearised at the new value.  Pixels with I <= 0 (shadow)
 * constrain nothing; outside the mask (f, g) keep their occluding-boundary values. */
static const char normal_body[] =
    "int odd = floor(X * 0.5) * 2 != X;\n"
    "real a = (IN(-2, 0) + IN(2, 0) + IN(0, -1) + IN(0, 1)) * 0.25;\n"
    "real b = odd ? (IN(-3, 0) + IN(1, 0) + IN(-1, -1) + IN(-1, 1)) * 0.25\n"
    "             : (IN(-1, 0) + IN(3, 0) + IN(1, -1) + IN(1, 1)) * 0.25;\n"
    "real f = odd ? b : a;\n"
    "real g = odd ? a : b;\n"
    "real r2 = f * f + g * g;\n"
    "real den = 4 + r2;\n"
    "real R = (-4 * f * sx - 4 * g * sy + (4 - r2) * sz) / den;\n"
    "real rf = (-4 * sx - 2 * f * sz - 2 * f * R) / den;\n"
    "real rg = (-4 * sy - 2 * g * sz - 2 * g * R) / den;\n"
    "real e = AUX(image, 0, 0) > 0 ? AUX(image, 0, 0) - R : 0;\n"
    "return AUX(mask, 0, 0) > 0.5 ? a + e * (odd ? rg : rf) / (4 * lambda + rf * rf + rg * rg)\n"
    "                             : IN(0, 0);\n";

/* The height from its gradient: least squares over the mask's edges (Neumann at its outline),
 *     sum_{q in N(p) inside} (H_q - H_p) = sum_{q in N(p) inside} d_pq,
 * d_pq the mean of the gradients of p and q along p -> q, by damped Jacobi (weight 0.8: the
 * undamped iteration would keep the checkerboard mode of this singular problem). */
static const char height_body[] =
    "real c = AUX(count, 0, 0);\n"
    "real j = (AUX(mask, -1, 0) * IN(-1, 0) + AUX(mask, 1, 0) * IN(1, 0) + AUX(mask, 0, -1) * "
    "IN(0, -1)\n"
    "          + AUX(mask, 0, 1) * IN(0, 1) - AUX(div, 0, 0)) / c;\n"
    "return AUX(mask, 0, 0) > 0.5 && c > 0.5 ? 0.2 * IN(0, 0) + 0.8 * j : IN(0, 0);\n";

void cls_sfs_options_init(cls_sfs_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->size = sizeof *opt;
    opt->light[2] = 1;
    opt->lambda = 0.1;
    opt->albedo = 1;
    opt->max_slope = 20;
    opt->dtype = CLS_FLOAT32;
    cls_solver_options_init(&opt->solver);
    opt->solver.tolerance = 1e-5;
}

void cls_sfs_result_release(cls_sfs_result *r)
{
    if (!r) return;
    free(r->height_map);
    free(r->f);
    free(r->g);
    cls_solver_report_clear(&r->normals);
    cls_solver_report_clear(&r->heights);
    free(r);
}

/* Outward unit normals of the mask's outline at the non-mask pixels that touch it: minus the
 * gradient of the mask blurred by a 5x5 box; where that vanishes (thin parts), the direction
 * from the touching inside pixels. */
static void outline_normals(const unsigned char *in, size_t W, size_t H, float *nx, float *ny)
{
    for (size_t y = 1; y + 1 < H; y++)
        for (size_t x = 1; x + 1 < W; x++) {
            size_t p = y * W + x;
            if (in[p] || !(in[p - 1] || in[p + 1] || in[p - W] || in[p + W])) continue;
            double gx = 0, gy = 0;
            for (long dy = -3; dy <= 3; dy++)
                for (long dx = -3; dx <= 3; dx++) {
                    long xx = (long)x + dx, yy = (long)y + dy;
                    if (xx < 0 || yy < 0 || xx >= (long)W || yy >= (long)H) continue;
                    if (!in[(size_t)yy * W + (size_t)xx]) continue;
                    /* The box-blurred mask's central difference, summed over the window. */
                    gx -= (double)dx;
                    gy -= (double)dy;
                }
            double len = sqrt(gx * gx + gy * gy);
            if (len < 1e-9) {
                gx = (double)in[p - 1] - (double)in[p + 1];
                gy = (double)in[p - W] - (double)in[p + W];
                len = sqrt(gx * gx + gy * gy);
            }
            if (len > 0) {
                nx[p] = (float)(gx / len);
                ny[p] = (float)(gy / len);
            }
        }
}

cls_status cls_shape_from_shading(cls_context *ctx, const cls_image *image, const cls_image *mask,
                                  const cls_sfs_options *opt, cls_sfs_result **result)
{
    cls_sfs_options defaults;
    cls_status st;
    if (!ctx || !result)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_shape_from_shading: NULL argument");
    *result = NULL;
    cls_sfs_options_init(&defaults);
    if (opt && ((st = cls__options_read(&defaults, offsetof(cls_sfs_options, solver), opt,
                                        "shape from shading")) != CLS_SUCCESS ||
                (st = cls__options_read(&defaults.solver, sizeof defaults.solver, &opt->solver,
                                        "shape from shading solver")) != CLS_SUCCESS))
        return st;
    defaults.size = sizeof defaults;
    opt = &defaults;
    if ((st = cls__image_check(image, "shaded")) != CLS_SUCCESS ||
        (st = cls__image_check(mask, "mask")) != CLS_SUCCESS) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(ctx, st, "%s", msg);
    }
    if (mask->width != image->width || mask->height != image->height)
        return cls__fail(ctx, CLS_ERR_INVALID_SIZE,
                         "the mask is %zux%zu and the image %zux%zu: they must have the same size",
                         mask->width, mask->height, image->width, image->height);
    double ln = sqrt(opt->light[0] * opt->light[0] + opt->light[1] * opt->light[1] +
                     opt->light[2] * opt->light[2]);
    if (!isfinite(ln) || !(opt->light[2] > 0))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "light direction (%g, %g, %g): must be finite and point toward the viewer "
                         "(z > 0)",
                         opt->light[0], opt->light[1], opt->light[2]);
    if (!(opt->lambda > 0) || !isfinite(opt->lambda))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "lambda: must be finite and > 0, got %g",
                         opt->lambda);
    if (!(opt->albedo > 0) || !isfinite(opt->albedo))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "albedo: must be finite and > 0, got %g",
                         opt->albedo);
    if (!(opt->max_slope > 0) || !isfinite(opt->max_slope))
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "max slope: must be finite and > 0, got %g", opt->max_slope);
    if (opt->dtype != CLS_FLOAT32 && opt->dtype != CLS_FLOAT64)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "dtype: unknown value %d", (int)opt->dtype);

    const size_t W = image->width, H = image->height, N = W * H;
    const cls_dtype dt = opt->dtype;
    unsigned char *in = calloc(N, 1);
    float *nx = calloc(N, sizeof *nx), *ny = calloc(N, sizeof *ny);
    void *st2 = cls__typed_alloc(2 * N, dt), *img2 = cls__typed_alloc(2 * N, dt);
    void *mk2 = cls__typed_alloc(2 * N, dt), *out2 = cls__typed_alloc(2 * N, dt);
    void *hs = cls__typed_alloc(N, dt), *hm = cls__typed_alloc(N, dt);
    void *hdiv = cls__typed_alloc(N, dt), *hcnt = cls__typed_alloc(N, dt);
    void *hout = cls__typed_alloc(N, dt);
    double *p = calloc(N, sizeof *p), *q = calloc(N, sizeof *q);
    cls_stencil *sn = NULL, *sh = NULL;
    cls_sfs_result *res = calloc(1, sizeof *res);
    if (!in || !nx || !ny || !st2 || !img2 || !mk2 || !out2 || !hs || !hm || !hdiv || !hcnt ||
        !hout || !p || !q || !res) {
        st = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "shape from shading on %zux%zu", W, H);
        goto done;
    }
    size_t count = 0;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            size_t i = y * W + x;
            if (!cls__mask_in(mask, i)) continue;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
                st = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                               "the mask touches the image border at (%zu, %zu): the object's "
                               "outline must lie inside the image (it is the occluding boundary)",
                               x, y);
                goto done;
            }
            in[i] = 1;
            count++;
        }
    if (!count) {
        st = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                       "the mask selects no pixel (inside means a mean value >= 0.5)");
        goto done;
    }

    /* The (f, g) solve: inside 0 (facing the viewer), outside the occluding boundary's values
     * (f, g) = -2 (outward unit normal): n = (outward, 0) there. */
    outline_normals(in, W, H, nx, ny);
    for (size_t i = 0; i < N; i++) {
        double e = image->data[i * image->channels] / opt->albedo;
        cls__typed_set(img2, 2 * i, e, dt);
        cls__typed_set(img2, 2 * i + 1, e, dt);
        cls__typed_set(mk2, 2 * i, in[i], dt);
        cls__typed_set(mk2, 2 * i + 1, in[i], dt);
        cls__typed_set(st2, 2 * i, in[i] ? 0 : -2.0 * nx[i], dt);
        cls__typed_set(st2, 2 * i + 1, in[i] ? 0 : -2.0 * ny[i], dt);
    }
    if ((st = cls_stencil_create("sfs_normals", 2, dt, normal_body, &sn)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sn, "image", 0)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sn, "mask", 0)) != CLS_SUCCESS ||
        (st = cls_stencil_set_param(sn, "sx", opt->light[0] / ln)) != CLS_SUCCESS ||
        (st = cls_stencil_set_param(sn, "sy", opt->light[1] / ln)) != CLS_SUCCESS ||
        (st = cls_stencil_set_param(sn, "sz", opt->light[2] / ln)) != CLS_SUCCESS ||
        (st = cls_stencil_set_param(sn, "lambda", opt->lambda)) != CLS_SUCCESS)
        goto done;
    /* A solve that does not converge (or diverges) fails the call; the result still comes back
     * with the reports, but without the maps that solve produced unless write_unconverged. */
    cls_status failed = CLS_SUCCESS;
    {
        const void *aux[2] = {img2, mk2};
        st = cls__solve_once(ctx, sn, (cls_dims){{2 * W, H, 1}}, &opt->solver, st2, aux, out2,
                             &res->normals);
        if (st == CLS_ERR_NOT_CONVERGED || st == CLS_ERR_DIVERGED) {
            failed = st;
            if (!opt->solver.write_unconverged) {
                *result = res;
                res = NULL;
                goto done;
            }
        } else if (st != CLS_SUCCESS) {
            goto done;
        }
    }

    /* The gradient (p, q) = 4 (f, g) / (4 - f^2 - g^2), at most max_slope long. */
    res->width = W;
    res->height = H;
    if (!(res->f = calloc(N, sizeof *res->f)) || !(res->g = calloc(N, sizeof *res->g)) ||
        (!opt->normals_only && !(res->height_map = calloc(N, sizeof *res->height_map)))) {
        st = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "the results of %zux%zu", W, H);
        goto done;
    }
    for (size_t i = 0; i < N; i++) {
        double f = cls__typed_get(out2, 2 * i, dt), g = cls__typed_get(out2, 2 * i + 1, dt);
        res->f[i] = (float)f;
        res->g[i] = (float)g;
        if (!in[i] || opt->normals_only) continue;
        double den = 4 - (f * f + g * g), pp, qq;
        double len = 2 * sqrt(f * f + g * g);
        if (den * opt->max_slope <= 2 * len) {
            /* At or beyond the occluding rim: the steepest allowed slope, along (f, g). */
            pp = len > 0 ? opt->max_slope * 2 * f / len : 0;
            qq = len > 0 ? opt->max_slope * 2 * g / len : 0;
        } else {
            pp = 4 * f / den;
            qq = 4 * g / den;
        }
        p[i] = pp;
        q[i] = qq;
    }
    if (opt->normals_only) {
        *result = res;
        res = NULL;
        st = failed;
        goto done;
    }
    /* The height solve: Neumann least squares over the mask's edges. */
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            size_t i = y * W + x;
            cls__typed_set(hm, i, in[i], dt);
            if (!in[i]) continue;
            double d = 0, c = 0;
            /* d_pq = (grad_p + grad_q) / 2 . (q - p) for the inside neighbours q. */
            if (in[i + 1]) d += (p[i] + p[i + 1]) / 2, c++;
            if (in[i - 1]) d -= (p[i] + p[i - 1]) / 2, c++;
            if (in[i + W]) d += (q[i] + q[i + W]) / 2, c++;
            if (in[i - W]) d -= (q[i] + q[i - W]) / 2, c++;
            cls__typed_set(hdiv, i, d, dt);
            cls__typed_set(hcnt, i, c, dt);
        }
    if ((st = cls_stencil_create("sfs_height", 2, dt, height_body, &sh)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sh, "mask", 0)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sh, "div", 0)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sh, "count", 0)) != CLS_SUCCESS)
        goto done;
    {
        const void *aux[3] = {hm, hdiv, hcnt};
        st = cls__solve_once(ctx, sh, (cls_dims){{W, H, 1}}, &opt->solver, hs, aux, hout,
                             &res->heights);
        if (st == CLS_ERR_NOT_CONVERGED || st == CLS_ERR_DIVERGED) {
            if (failed == CLS_SUCCESS) failed = st;
            if (!opt->solver.write_unconverged) {
                free(res->height_map);
                res->height_map = NULL;
                *result = res;
                res = NULL;
                st = failed;
                goto done;
            }
        } else if (st != CLS_SUCCESS) {
            goto done;
        }
    }
    /* The height is known up to a constant: the mean over the outline's inside pixels is 0. */
    {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < N; i++)
            if (in[i] && !(in[i - 1] && in[i + 1] && in[i - W] && in[i + W])) {
                sum += cls__typed_get(hout, i, dt);
                n++;
            }
        double shift = n ? sum / (double)n : 0;
        for (size_t i = 0; i < N; i++)
            res->height_map[i] = in[i] ? (float)(cls__typed_get(hout, i, dt) - shift) : 0.0f;
    }
    *result = res;
    res = NULL;
    st = failed;
done:
    cls_sfs_result_release(res);
    cls_stencil_release(sn);
    cls_stencil_release(sh);
    free(in);
    free(nx);
    free(ny);
    free(st2);
    free(img2);
    free(mk2);
    free(out2);
    free(hs);
    free(hm);
    free(hdiv);
    free(hcnt);
    free(hout);
    free(p);
    free(q);
    return st;
}
