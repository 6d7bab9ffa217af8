/* image_poisson.c: Poisson image editing (Perez, Gangnet and Blake; Chen et al.,
 * Eqs. 1-2): seamless cloning of a source patch under a mask into a target image, every channel
 * solved by the convergent solver with a Dirichlet boundary taken from the target. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* Eq. 2 discretised on the 4-neighbourhood (Perez et al. Eq. 7): for p in Omega,
 *     4 I_p - sum_q I_q = sum_q v_pq,  v_pq = g_p - g_q  (the source's gradient),
 * with I_q = I*_q for q outside Omega.  Outside Omega the state keeps its (target) value. */
static const char edit_body[] =
    "AUX(mask, 0, 0) > 0.5 ? (IN(-1, 0) + IN(1, 0) + IN(0, -1) + IN(0, 1) + AUX(guide, 0, 0)) * "
    "0.25 : IN(0, 0)";

void cls_poisson_edit_options_init(cls_poisson_edit_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->size = sizeof *opt;
    opt->dtype = CLS_FLOAT32;
    cls_solver_options_init(&opt->solver);
    opt->solver.tolerance = 1e-4;
}

/* Sample of the source at (x, y) clamped into the image (a patch whose mask reaches the source's
 * edge has no gradient across it). */
static double source_at(const cls_image *s, long x, long y, size_t c)
{
    x = x < 0 ? 0 : x >= (long)s->width ? (long)s->width - 1 : x;
    y = y < 0 ? 0 : y >= (long)s->height ? (long)s->height - 1 : y;
    return s->data[((size_t)y * s->width + (size_t)x) * s->channels + c];
}

cls_status cls_poisson_edit(cls_context *ctx, const cls_image *target, const cls_image *source,
                            const cls_image *mask, const cls_poisson_edit_options *opt,
                            cls_image **result, cls_solver_report *report)
{
    cls_poisson_edit_options defaults;
    cls_status st;
    if (report) {
        memset(report, 0, sizeof *report);
        report->outcome = CLS_SOLVER_FAILED; /* until the solve reports */
    }
    if (!ctx || !result)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls_poisson_edit: NULL argument");
    *result = NULL;
    cls_poisson_edit_options_init(&defaults);
    if (opt && ((st = cls__options_read(&defaults, offsetof(cls_poisson_edit_options, solver), opt,
                                        "poisson edit")) != CLS_SUCCESS ||
                (st = cls__options_read(&defaults.solver, sizeof defaults.solver, &opt->solver,
                                        "poisson edit solver")) != CLS_SUCCESS))
        return st;
    defaults.size = sizeof defaults;
    opt = &defaults;
    if ((st = cls__image_check(target, "target")) != CLS_SUCCESS ||
        (st = cls__image_check(source, "source")) != CLS_SUCCESS ||
        (st = cls__image_check(mask, "mask")) != CLS_SUCCESS) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(ctx, st, "%s", msg);
    }
    if (source->channels != target->channels)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "the source has %zu channels and the target %zu: they must match",
                         source->channels, target->channels);
    if (mask->width != source->width || mask->height != source->height)
        return cls__fail(ctx, CLS_ERR_INVALID_SIZE,
                         "the mask is %zux%zu and the source %zux%zu: they must have the same size",
                         mask->width, mask->height, source->width, source->height);
    /* Beyond the largest image side no mask pixel can land in the target, and the placement
     * arithmetic below stays far from long's range. */
    if (opt->offset_x < -CLS__IMAGE_MAX_SIDE || opt->offset_x > CLS__IMAGE_MAX_SIDE ||
        opt->offset_y < -CLS__IMAGE_MAX_SIDE || opt->offset_y > CLS__IMAGE_MAX_SIDE)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                         "offset (%ld, %ld): each part must lie in -%ld..%ld (the largest image "
                         "side)",
                         opt->offset_x, opt->offset_y, CLS__IMAGE_MAX_SIDE, CLS__IMAGE_MAX_SIDE);
    if (opt->dtype != CLS_FLOAT32 && opt->dtype != CLS_FLOAT64)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "dtype: unknown value %d", (int)opt->dtype);

    const size_t W = target->width, H = target->height, C = target->channels;
    const long ox = opt->offset_x, oy = opt->offset_y;
    unsigned char *omega = calloc(W * H, 1);
    void *state = NULL, *mk = NULL, *guide = NULL, *out = NULL;
    cls_stencil *sten = NULL;
    if (!omega) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "the mask of %zux%zu", W, H);
    /* Omega in target coordinates: inside the target, off its border. */
    size_t count = 0;
    for (size_t y = 0; y < mask->height; y++)
        for (size_t x = 0; x < mask->width; x++) {
            if (!cls__mask_in(mask, y * mask->width + x)) continue;
            long tx = (long)x + ox, ty = (long)y + oy;
            if (tx < 0 || ty < 0 || tx >= (long)W || ty >= (long)H) {
                st = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                               "mask pixel (%zu, %zu) falls at (%ld, %ld), outside the %zux%zu "
                               "target (offset %ld, %ld)",
                               x, y, tx, ty, W, H, ox, oy);
                goto done;
            }
            if (tx == 0 || ty == 0 || tx == (long)W - 1 || ty == (long)H - 1) {
                st = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                               "the mask touches the target's border at (%ld, %ld) (mask pixel "
                               "(%zu, %zu)): the region needs a ring of target pixels around it "
                               "for its boundary condition",
                               tx, ty, x, y);
                goto done;
            }
            omega[(size_t)ty * W + (size_t)tx] = 1;
            count++;
        }
    if (!count) {
        st = cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT,
                       "the mask selects no pixel (inside means a mean value >= 0.5)");
        goto done;
    }

    /* The channels stacked into one grid of W x (C * H): rows of one channel never read another
     * channel's inside pixels, since Omega keeps off the border. */
    cls_dtype dt = opt->dtype;
    size_t n = W * H * C;
    state = cls__typed_alloc(n, dt);
    mk = cls__typed_alloc(n, dt);
    guide = cls__typed_alloc(n, dt);
    out = cls__typed_alloc(n, dt);
    if (!state || !mk || !guide || !out) {
        st = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "the grids of %zux%zu", W, C * H);
        goto done;
    }
    static const int nb[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (size_t c = 0; c < C; c++)
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++) {
                size_t i = x + W * (y + H * c), p = y * W + x;
                double t = target->data[p * C + c];
                if (!omega[p]) {
                    cls__typed_set(state, i, t, dt);
                    continue;
                }
                long sx = (long)x - ox, sy = (long)y - oy;
                double g = source_at(source, sx, sy, c), v = 0;
                for (int k = 0; k < 4; k++) {
                    double vs = g - source_at(source, sx + nb[k][0], sy + nb[k][1], c);
                    if (opt->mixed) {
                        size_t q = (size_t)((long)y + nb[k][1]) * W + (size_t)((long)x + nb[k][0]);
                        double vt = t - target->data[q * C + c];
                        if (fabs(vt) > fabs(vs)) vs = vt;
                    }
                    v += vs;
                }
                cls__typed_set(state, i, g, dt);
                cls__typed_set(mk, i, 1, dt);
                cls__typed_set(guide, i, v, dt);
            }

    if ((st = cls_stencil_create("poisson_edit", 2, dt, edit_body, &sten)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sten, "mask", 0)) != CLS_SUCCESS ||
        (st = cls_stencil_add_aux(sten, "guide", 0)) != CLS_SUCCESS)
        goto done;
    const void *aux[2] = {mk, guide};
    st = cls__solve_once(ctx, sten, (cls_dims){{W, C * H, 1}}, &opt->solver, state, aux, out,
                         report);
    if (st != CLS_SUCCESS && !(opt->solver.write_unconverged &&
                               (st == CLS_ERR_NOT_CONVERGED || st == CLS_ERR_DIVERGED)))
        goto done;
    {
        cls_status made = cls_image_create(W, H, C, result);
        if (made != CLS_SUCCESS) {
            st = made;
            goto done;
        }
        memcpy((*result)->data, target->data, W * H * C * sizeof *target->data);
        for (size_t c = 0; c < C; c++)
            for (size_t p = 0; p < W * H; p++)
                if (omega[p]) (*result)->data[p * C + c] = (float)cls__typed_get(out, p + W * H * c, dt);
    }
done:
    cls_stencil_release(sten);
    free(omega);
    free(state);
    free(mk);
    free(guide);
    free(out);
    return st;
}
