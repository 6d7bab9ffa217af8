/* clstencil_image.h: images and the two applications built on the convergent solvers, Poisson
 * image editing and shape from shading.  An optional part of the library: present when it was
 * configured with libpng (the default where libpng is found; `configure --without-png` leaves
 * it out, and then this header is not installed). */
#ifndef CLSTENCIL_IMAGE_H
#define CLSTENCIL_IMAGE_H

#include <stddef.h>

#include "clstencil.h"
#include "clstencil_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * Images: width x height pixels of `channels` interleaved float samples in [0, 1], rows top to
 * bottom (pixel (x, y) channel c at data[(y * width + x) * channels + c]).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_image {
    size_t width, height, channels;
    float *data;
} cls_image;

/* A zero-filled image (channels 1..4). */
CLS_API cls_status cls_image_create(size_t width, size_t height, size_t channels,
                                    cls_image **img);
/* Accepts NULL. */
CLS_API void cls_image_release(cls_image *img);
/* Whether an image of width x height may be created: each side 1..2^20 and at most
 * CLSTENCIL_IMAGE_MAX_PIXELS pixels (default 8192 x 8192).  CLS_ERR_INVALID_SIZE or
 * CLS_ERR_TOO_LARGE with the limit in cls_last_error() otherwise; allocates nothing, so a
 * program can refuse a picture before the work that would produce it. */
CLS_API cls_status cls_image_check_size(size_t width, size_t height);
/* PNG (8 or 16 bit; grey, grey+alpha, RGB, RGBA, palette; alpha is kept as a channel), PGM
 * (P2, P5) and PPM (P3, P6) with maxval up to 65535, recognised by their content. */
CLS_API cls_status cls_image_read(const char *path, cls_image **img);
/* By the extension: .png (8 bit), .pgm (1 channel), .ppm (3 channels); samples are clamped to
 * [0, 1] and rounded to 8 bits.  Written to a temporary file and renamed. */
CLS_API cls_status cls_image_write(const char *path, const cls_image *img);
/* Maps the first `channels` of `values` (width * height floats) linearly from [lo, hi] to
 * [0, 1] into a new grey image (for heights); lo == hi maps everything to 0. */
CLS_API cls_status cls_image_from_values(const float *values, size_t width, size_t height,
                                         double lo, double hi, cls_image **img);

/* Test images generated in code (so tests and demos need no files):
 * a synthetic scene for Poisson editing: `target` a smooth sky-and-hill background, `source`
 * (same size) a striped, differently lit patch on its own background, `mask` an ellipse around
 * the patch, all RGB (mask grey), width and height >= 16. */
CLS_API cls_status cls_image_synth_scene(size_t width, size_t height, cls_image **target,
                                         cls_image **source, cls_image **mask);
/* A Lambertian sphere of `radius` pixels centred in a width x height image, lit from `light`
 * (x right, y down, z toward the viewer; normalised here, z > 0), albedo 1: `shaded` the grey
 * image max(0, n.s), `mask` the disc, `height_map` (may be NULL; width * height floats) the true
 * height sqrt(r^2 - d^2) inside the disc and 0 outside.  The disc must leave a border of at
 * least 2 pixels. */
CLS_API cls_status cls_image_render_sphere(size_t width, size_t height, double radius,
                                           const double light[3], cls_image **shaded,
                                           cls_image **mask, float *height_map);

/* ------------------------------------------------------------------------------------------
 * Poisson image editing (Perez et al., the document's Eqs. 1-2): seamless cloning.  Inside the
 * region Omega (mask pixels >= 0.5, the mean of the mask's channels), every channel solves
 * Laplace(I) = div v with v the gradient of `source`, i.e. per pixel
 *     4 I_p - sum_{q in N(p)} I_q = 4 g_p - sum_{q in N(p)} g_q,
 * with I = target outside Omega (the Dirichlet condition I|dOmega = I*|dOmega).  `source` and
 * `mask` have the same size and are placed with their top-left pixel at (offset_x, offset_y)
 * of `target`; Omega must lie inside the target and not touch its border.  The channels are
 * stacked into one grid of width x (channels * height) and solved together.
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_poisson_edit_options {
    size_t size;                /* sizeof: set by the init function (doc/guide.md, "Options") */
    long offset_x, offset_y;    /* placement of source and mask in the target; default 0, 0 */
    int mixed;                  /* Perez's mixed gradients: per edge the stronger of the source
                                   and the target gradient; default 0 */
    cls_dtype dtype;            /* of the solve; default CLS_FLOAT32 */
    cls_solver_options solver;  /* schedule, tolerance (default 1e-4 of the [0,1] range), ...;
                                   the last member, read by its own size */
} cls_poisson_edit_options;

CLS_API void cls_poisson_edit_options_init(cls_poisson_edit_options *opt);
/* *result (same size and channels as target) is the composite; report may be NULL (else clear
 * it with cls_solver_report_clear).  Returns the solver's status (CLS_ERR_NOT_CONVERGED,
 * CLS_ERR_DIVERGED: no image unless opt->solver.write_unconverged). */
CLS_API cls_status cls_poisson_edit(cls_context *ctx, const cls_image *target,
                                    const cls_image *source, const cls_image *mask,
                                    const cls_poisson_edit_options *opt, cls_image **result,
                                    cls_solver_report *report);

/* ------------------------------------------------------------------------------------------
 * Shape from shading (Horn, the document's Eqs. 3-4).  The surface normal is kept in
 * stereographic coordinates (f, g) (Horn's Robot Vision: n = (-4f, -4g, 4 - f^2 - g^2) /
 * (4 + f^2 + g^2), x right, y down, z toward the viewer) and the reflectance map is Lambertian,
 * R(f, g) = albedo * n.s.  Inside the object (mask >= 0.5) the iteration minimises Eq. 3,
 *     E(f, g) = sum (I - R(f, g))^2 + lambda * sum (f_x^2 + f_y^2 + g_x^2 + g_y^2),
 * whose Euler-Lagrange equations (Eq. 4, with lambda as the smoothness weight) are solved by the
 * Jacobi-type update of Horn's scheme with the reflectance linearised at the new value:
 *     f <- fbar + (I - R) R_f / (4 lambda + R_f^2 + R_g^2)   (and g alike)
 * (fbar, gbar the 4-neighbour means; R and its derivatives at (fbar, gbar)); it is Horn's
 * explicit update for R_f^2 + R_g^2 << 4 lambda and is stable for every lambda > 0.  Pixels
 * with I <= 0 are in shadow and carry no brightness constraint.  The mask's outline is taken as
 * the occluding boundary: there (f, g) = -2 (unit outward normal of the outline).  The height
 * is then integrated from the gradient p = 4f / (4 - f^2 - g^2), q = 4g / (4 - f^2 - g^2)
 * (magnitude limited to max_slope) by a second solve: the least-squares (Neumann) Poisson
 * problem over the mask, shifted so that the mean height of the mask's outermost pixels is 0.
 * Both solves use the same solver options.  f and g are interleaved in one grid of 2 * width
 * x height (f at even x, g at odd x).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_sfs_options {
    size_t size;               /* sizeof: set by the init function (doc/guide.md, "Options") */
    double light[3];           /* light direction (normalised here, z > 0); default (0,0,1) */
    double lambda;             /* smoothness weight of Eq. 3; default 0.1 */
    double albedo;             /* default 1 */
    double max_slope;          /* |(p, q)| limit for the height integration; default 20 */
    int normals_only;          /* only the (f, g) solve (the document's 3D-Shape solver): no
                                  height integration, height_map NULL; default 0 */
    cls_dtype dtype;           /* default CLS_FLOAT32 */
    cls_solver_options solver; /* default tolerance 1e-5 (the update of f and g); the last
                                  member, read by its own size */
} cls_sfs_options;

CLS_API void cls_sfs_options_init(cls_sfs_options *opt);

typedef struct cls_sfs_result {
    size_t width, height;
    float *height_map; /* width * height: the recovered height, 0 outside the mask (NULL with
                          normals_only) */
    float *f, *g;      /* width * height: the stereographic normal (boundary values outside) */
    cls_solver_report normals; /* the (f, g) solve (cleared by cls_sfs_result_release) */
    cls_solver_report heights; /* the height integration */
} cls_sfs_result;

/* `image` grey (the first channel is used), `mask` of the same size; the mask must not touch
 * the image border and must hold at least one pixel.  *result is freed with
 * cls_sfs_result_release.  When a solve does not converge or diverges the call returns its
 * status (CLS_ERR_NOT_CONVERGED, CLS_ERR_DIVERGED) and still sets *result, with both reports
 * but without the maps of the failed solve (f, g and height_map, or height_map alone) unless
 * solver.write_unconverged; other failures leave *result NULL. */
CLS_API cls_status cls_shape_from_shading(cls_context *ctx, const cls_image *image,
                                          const cls_image *mask, const cls_sfs_options *opt,
                                          cls_sfs_result **result);
/* Accepts NULL. */
CLS_API void cls_sfs_result_release(cls_sfs_result *result);

#ifdef __cplusplus
}
#endif

#endif /* CLSTENCIL_IMAGE_H */
