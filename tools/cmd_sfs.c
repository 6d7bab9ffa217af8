/* cmd_sfs.c: `clstencil sfs`, shape from shading (Horn, Chen et al., Eqs. 3-4) of an
 * image file or of a rendered sphere, one run or a comparison of the solver's schedules. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_image.h"
#include "cmd_solve.h"

enum {
    OPT_OUTPUT = 1,
    OPT_NPY,
    OPT_NORMALS,
    OPT_LIGHT,
    OPT_LAMBDA,
    OPT_ALBEDO,
    OPT_MAX_SLOPE,
    OPT_DTYPE,
    OPT_SYNTHETIC,
    OPT_RADIUS,
    OPT_WRITE_INPUTS,
    OPT_NORMALS_ONLY
};

static const cli_option options[] = {
    {"output", 1, OPT_OUTPUT},         {"npy", 1, OPT_NPY},
    {"normals", 1, OPT_NORMALS},       {"light", 1, OPT_LIGHT},
    {"lambda", 1, OPT_LAMBDA},         {"albedo", 1, OPT_ALBEDO},
    {"max-slope", 1, OPT_MAX_SLOPE},   {"dtype", 1, OPT_DTYPE},
    {"synthetic", 1, OPT_SYNTHETIC},   {"radius", 1, OPT_RADIUS},
    {"write-inputs", 1, OPT_WRITE_INPUTS},
    {"normals-only", 0, OPT_NORMALS_ONLY}, CLI_SOLVER_OPTIONS,
    {NULL, 0, 0},
};

typedef struct job {
    cls_context *ctx;
    const cls_image *image, *mask;
    cls_sfs_options so;
} job;

/* The comparison times the (f, g) solve, the document's 3D-Shape solver. */
static void run_once(void *user, const cls_solver_options *opt, cli_solve_result *r)
{
    job *j = user;
    cls_sfs_options so = j->so;
    cls_sfs_result *res = NULL;
    so.solver = *opt;
    so.normals_only = 1;
    r->status = cls_shape_from_shading(j->ctx, j->image, j->mask, &so, &res);
    if (res) {
        r->report = res->normals;
        memset(&res->normals, 0, sizeof res->normals);
    }
    cls_sfs_result_release(res);
}

/* "X,Y,Z". */
static int parse_light(const char *s, double v[3])
{
    char buf[128], *parts[3], *save = NULL;
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    int n = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == 3) return -1;
        parts[n++] = t;
    }
    if (n != 3) return -1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        v[i] = strtod(parts[i], &end);
        if (end == parts[i] || *end || errno || !isfinite(v[i])) return -1;
    }
    return 0;
}

static int write_png(const char *path, const cls_image *img)
{
    int rc = cls_image_write(path, img);
    if (rc != CLS_SUCCESS) return cli_fail(rc);
    return CLI_EXIT_OK;
}

static int sfs_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_solver_args a;
    const char *v, *output = NULL, *npy = NULL, *normals = NULL, *prefix = NULL, *files[2];
    size_t nfiles = 0, synth = 0;
    double radius_opt = 0;
    int id, ret = CLI_EXIT_FAIL;
    job j;
    memset(&j, 0, sizeof j);
    cls_sfs_options_init(&j.so);
    cli_solver_args_init(&a);
    a.opt.tolerance = j.so.solver.tolerance;

    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        double d;
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL:
            if (nfiles == 2) return cli_usage_error(self, "unexpected argument '%s'", v);
            files[nfiles++] = v;
            break;
        case OPT_OUTPUT: output = v; break;
        case OPT_NPY: npy = v; break;
        case OPT_NORMALS: normals = v; break;
        case OPT_LIGHT:
            if (parse_light(v, j.so.light) != 0)
                return cli_usage_error(self, "--light: X,Y,Z expected (e.g. 0.3,-0.2,1), got '%s'", v);
            break;
        case OPT_LAMBDA:
        case OPT_ALBEDO:
        case OPT_MAX_SLOPE:
            if (cli_parse_double(v, &d) != 0 || !(d > 0))
                return cli_usage_error(self, "--%s: a positive number expected, got '%s'",
                                       id == OPT_LAMBDA ? "lambda" : id == OPT_ALBEDO ? "albedo"
                                                                                      : "max-slope",
                                       v);
            if (id == OPT_LAMBDA) j.so.lambda = d;
            if (id == OPT_ALBEDO) j.so.albedo = d;
            if (id == OPT_MAX_SLOPE) j.so.max_slope = d;
            break;
        case OPT_DTYPE:
            if (cli_parse_dtype(v, &j.so.dtype) != 0)
                return cli_usage_error(self, "unknown --dtype '%s' (float or double)", v);
            break;
        case OPT_SYNTHETIC:
            if (cli_parse_count(v, &synth) != 0 || synth < 16 || synth > 1048576)
                return cli_usage_error(self,
                                       "--synthetic: an image side 16..1048576 expected, got '%s'",
                                       v);
            break;
        case OPT_RADIUS:
            if (cli_parse_double(v, &radius_opt) != 0 || !(radius_opt >= 2))
                return cli_usage_error(self, "--radius: a number >= 2 expected, got '%s'", v);
            break;
        case OPT_WRITE_INPUTS: prefix = v; break;
        case OPT_NORMALS_ONLY: j.so.normals_only = 1; break;
        default:
            if (cli_solver_option(&a, self, id, v) != CLI_EXIT_OK) return CLI_EXIT_USAGE;
        }
    }
    if (synth && nfiles)
        return cli_usage_error(self, "give either --synthetic or IMAGE MASK, not both");
    if (!synth && nfiles != 2)
        return cli_usage_error(self, "IMAGE and MASK expected (or --synthetic N)");
    if (radius_opt > 0 && !synth) return cli_usage_error(self, "--radius goes with --synthetic");
    if (!a.compare && !output && !npy && !normals && !prefix)
        return cli_usage_error(self, "--output, --npy or --normals is required (or --compare)");
    if (j.so.normals_only && (output || npy))
        return cli_usage_error(self, "--normals-only computes no height for --output or --npy");
    if (a.format == CLI_FORMAT_CSV && !a.compare)
        return cli_usage_error(self, "--format csv goes with --compare");

    /* Every file this run writes, checked before any work. */
    {
        char pre[3][4096];
        static const char *const names[3] = {"shaded.png", "mask.png", "truth.png"};
        for (int k = 0; k < 3; k++) snprintf(pre[k], sizeof pre[k], "%s%s", prefix ? prefix : "", names[k]);
        const char *outs[] = {output, npy, normals, a.history, prefix ? pre[0] : NULL,
                              prefix ? pre[1] : NULL, prefix && synth ? pre[2] : NULL};
        const char *ins[] = {synth ? NULL : files[0], synth ? NULL : files[1]};
        if (cli_check_outputs(outs, sizeof outs / sizeof outs[0], ins, 2) != CLI_EXIT_OK)
            return CLI_EXIT_FAIL;
    }

    cls_image *image = NULL, *mask = NULL, *img = NULL;
    float *truth = NULL;
    double radius = 0;
    cls_context *ctx = NULL;
    cls_device_info dev;
    cls_sfs_result *res = NULL;
    int rc;
    if (synth) {
        radius = radius_opt > 0 ? radius_opt : 0.375 * (double)synth;
        if (!(truth = malloc(synth * synth * sizeof *truth))) {
            cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "the true height");
            goto done;
        }
        rc = cls_image_render_sphere(synth, synth, radius, j.so.light, &image, &mask, truth);
    } else {
        rc = cls_image_read(files[0], &image);
        if (rc == CLS_SUCCESS) rc = cls_image_read(files[1], &mask);
    }
    if (rc != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    if (prefix) {
        char path[4096];
        snprintf(path, sizeof path, "%sshaded.png", prefix);
        if (write_png(path, image) != CLI_EXIT_OK) goto done;
        snprintf(path, sizeof path, "%smask.png", prefix);
        if (write_png(path, mask) != CLI_EXIT_OK) goto done;
        if (truth) {
            if ((rc = cls_image_from_values(truth, synth, synth, 0, radius, &img)) != CLS_SUCCESS) {
                cli_fail(rc);
                goto done;
            }
            snprintf(path, sizeof path, "%struth.png", prefix);
            if (write_png(path, img) != CLI_EXIT_OK) goto done;
            cls_image_release(img);
            img = NULL;
        }
    }
    if (!a.compare && !output && !npy && !normals) {
        ret = CLI_EXIT_OK;
        goto done;
    }
    if (cli_open_context(a.device, &ctx, &dev) != CLS_SUCCESS) goto done;
    j.ctx = ctx;
    j.image = image;
    j.mask = mask;
    if (a.compare) {
        char name[128];
        snprintf(name, sizeof name, "sfs %zux%zu (f, g)", image->width, image->height);
        ret = cli_solver_compare(&a, name, run_once, &j);
        goto done;
    }
    j.so.solver = a.opt;
    rc = cls_shape_from_shading(ctx, image, mask, &j.so, &res);
    if (!res) {
        cli_fail(rc);
        goto done;
    }
    /* Against the rendered sphere: the height up to its mean, over the disc and its inner 80%. */
    double rms = 0, rms_inner = 0;
    if (truth && res->height_map) {
        size_t w = image->width, n = 0, ni = 0;
        double mt = 0, mr = 0, c = ((double)w - 1) / 2;
        for (size_t i = 0; i < w * w; i++)
            if (mask->data[i] >= 0.5f) mt += truth[i], mr += res->height_map[i], n++;
        for (size_t i = 0; i < w * w; i++) {
            if (mask->data[i] < 0.5f) continue;
            double e = (res->height_map[i] - mr / (double)n) - (truth[i] - mt / (double)n);
            double dx = (double)(i % w) - c, dy = (double)(i / w) - c;
            rms += e * e;
            if (sqrt(dx * dx + dy * dy) < 0.8 * radius) rms_inner += e * e, ni++;
        }
        rms = sqrt(rms / (double)n);
        rms_inner = sqrt(rms_inner / (double)(ni ? ni : 1));
    }
    if (a.format == CLI_FORMAT_JSON) {
        cli_json js;
        cli_json_begin(&js, stdout);
        cli_json_str(&js, "device", dev.name);
        cli_json_size_array(&js, "size", (size_t[]){image->width, image->height}, 2);
        cli_json_num(&js, "lambda", j.so.lambda);
        cli_json_object(&js, "normals");
        cli_solver_report_json(&js, &j.so.solver, &res->normals);
        cli_json_close(&js);
        if (res->heights.steps) {
            cli_json_object(&js, "heights");
            cli_solver_report_json(&js, &j.so.solver, &res->heights);
            cli_json_close(&js);
        }
        if (truth && res->height_map) {
            cli_json_num(&js, "sphere_radius", radius);
            cli_json_num(&js, "height_rms_error", rms);
            cli_json_num(&js, "height_rms_error_inner", rms_inner);
        }
        cli_json_end(&js);
    } else {
        printf("image:      %zux%zu, light (%g, %g, %g), lambda %g\n", image->width,
               image->height, j.so.light[0], j.so.light[1], j.so.light[2], j.so.lambda);
        printf("normals (f, g):\n");
        cli_solver_report_text(stdout, &j.so.solver, &res->normals);
        if (res->heights.steps) {
            printf("height:\n");
            cli_solver_report_text(stdout, &j.so.solver, &res->heights);
        }
        if (truth && res->height_map)
            printf("sphere:     radius %.1f; height RMS error %.3f (%.2f %% of the radius), inner "
                   "80 %%: %.3f (%.2f %%)\n",
                   radius, rms, 100 * rms / radius, rms_inner, 100 * rms_inner / radius);
    }
    if (a.history && cli_solver_write_history(a.history, &res->normals) != CLI_EXIT_OK) goto done;
    if (rc != CLS_SUCCESS && !a.opt.write_unconverged) {
        cli_fail(rc);
        goto done;
    }
    if (output && res->height_map) {
        float lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < image->width * image->height; i++)
            if (mask->data[i * mask->channels] >= 0.5f)
                lo = fminf(lo, res->height_map[i]), hi = fmaxf(hi, res->height_map[i]);
        if ((rc = cls_image_from_values(res->height_map, image->width, image->height,
                                        lo < 0 ? lo : 0, hi, &img)) != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        for (size_t i = 0; i < image->width * image->height; i++)
            if (mask->data[i * mask->channels] < 0.5f) img->data[i] = 0; /* black outside */
        if (write_png(output, img) != CLI_EXIT_OK) goto done;
        cls_image_release(img);
        img = NULL;
    }
    if (npy && res->height_map) {
        size_t shape[3] = {image->height, image->width, 1};
        if ((rc = cls_npy_write(npy, res->height_map, CLS_FLOAT32, 2, shape)) != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
    }
    if (normals && res->f) {
        /* The normal map: n = (-4f, -4g, 4 - f^2 - g^2) / (4 + f^2 + g^2) as (n + 1) / 2. */
        if ((rc = cls_image_create(image->width, image->height, 3, &img)) != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        for (size_t i = 0; i < image->width * image->height; i++) {
            if (mask->data[i * mask->channels] < 0.5f) continue;
            double f = res->f[i], g = res->g[i], r2 = f * f + g * g, den = 4 + r2;
            double n[3] = {-4 * f / den, -4 * g / den, (4 - r2) / den};
            for (int k = 0; k < 3; k++) img->data[3 * i + k] = (float)((n[k] + 1) / 2);
        }
        if (write_png(normals, img) != CLI_EXIT_OK) goto done;
    }
    if (rc != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    ret = CLI_EXIT_OK;
done:
    cls_sfs_result_release(res);
    cls_image_release(img);
    cls_image_release(image);
    cls_image_release(mask);
    cls_context_release(ctx);
    free(truth);
    return ret;
}

const cli_command cli_cmd_sfs = {
    "sfs",
    "shape from shading: a height field from a shaded image (chaotic-relaxation solver)",
    "usage: clstencil sfs [OPTIONS] IMAGE MASK --output HEIGHT.png [--npy HEIGHT.npy]\n"
    "       clstencil sfs --synthetic N [OPTIONS] --output HEIGHT.png\n"
    "       clstencil sfs (IMAGE MASK | --synthetic N) --compare [OPTIONS]",
    "Recovers the surface of a Lambertian object from one shaded grey IMAGE under a known light\n"
    "(Horn; the document's Eqs. 3-4): the normal in stereographic coordinates (f, g) by the\n"
    "regularised iteration with smoothness weight lambda, the outline of MASK taken as the\n"
    "occluding boundary, then the height by integrating the gradient.  MASK must not touch the\n"
    "image border.  --synthetic renders a sphere of radius 3N/8 in an NxN image and prints the\n"
    "height error against the true sphere.  --compare times the (f, g) solve only.\n"
    "\n"
    "Options:\n"
    "  --output FILE           the height as a grey PNG (black outside the mask and at the\n"
    "                          lowest point, white at the highest)\n"
    "  --npy FILE              the height as float32 .npy (NumPy shape height x width)\n"
    "  --normals FILE          the normal map as RGB ((n + 1) / 2)\n"
    "  --light X,Y,Z           light direction, x right, y down, z toward the viewer (default\n"
    "                          0,0,1)\n"
    "  --lambda L              smoothness weight of Eq. 3 (default 0.1)\n"
    "  --albedo A              image value of a surface facing the light (default 1)\n"
    "  --max-slope S           gradient limit of the height integration (default 20)\n"
    "  --dtype float|double    precision (default float)\n"
    "  --synthetic N           a rendered sphere instead of two files\n"
    "  --radius R              with --synthetic: the sphere's radius in pixels (default 3N/8)\n"
    "  --write-inputs PREFIX   also write PREFIXshaded.png, PREFIXmask.png (and PREFIXtruth.png)\n"
    "  --normals-only          only the (f, g) solve (with --normals)\n"
    "  --tolerance T           default 1e-5 (of f and g)\n"
    "\n"
    "Exit status 1 when a solve did not converge or diverged (nothing is written unless\n"
    "--write-unconverged).\n"
    "\n" CLI_SOLVER_OPTIONS_HELP,
    sfs_main,
};
