/* cmd_poisson_edit.c: `clstencil poisson-edit`, seamless cloning (Poisson image editing,
 * Chen et al., Eqs. 1-2) of image files or of the synthetic scene, one run or a
 * comparison of the solver's schedules. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_image.h"
#include "cmd_solve.h"

enum {
    OPT_OUTPUT = 1,
    OPT_OFFSET,
    OPT_MIXED,
    OPT_DTYPE,
    OPT_SYNTHETIC,
    OPT_PATCH,
    OPT_WRITE_INPUTS,
    OPT_PASTE
};

static const cli_option options[] = {
    {"output", 1, OPT_OUTPUT},       {"offset", 1, OPT_OFFSET},
    {"mixed", 0, OPT_MIXED},         {"dtype", 1, OPT_DTYPE},
    {"synthetic", 1, OPT_SYNTHETIC}, {"patch", 1, OPT_PATCH},
    {"write-inputs", 1, OPT_WRITE_INPUTS},
    {"paste", 1, OPT_PASTE},         CLI_SOLVER_OPTIONS,
    {NULL, 0, 0},
};

typedef struct job {
    cls_context *ctx;
    const cls_image *target, *source, *mask;
    cls_poisson_edit_options po;
} job;

static void run_once(void *user, const cls_solver_options *opt, cli_solve_result *r)
{
    job *j = user;
    cls_poisson_edit_options po = j->po;
    cls_image *out = NULL;
    po.solver = *opt;
    r->status = cls_poisson_edit(j->ctx, j->target, j->source, j->mask, &po, &out, &r->report);
    cls_image_release(out);
}

/* The largest |offset|: an image side is at most 2^20 pixels, so a farther placement cannot
 * put a pixel in the target (the library refuses it too). */
#define MAX_OFFSET 1048576L

/* "X,Y", signed, each within +-MAX_OFFSET. */
static int parse_offset(const char *s, long *x, long *y)
{
    char *end;
    errno = 0;
    *x = strtol(s, &end, 10);
    if (end == s || *end != ',' || errno) return -1;
    const char *t = end + 1;
    *y = strtol(t, &end, 10);
    if (end == t || *end || errno) return -1;
    if (*x < -MAX_OFFSET || *x > MAX_OFFSET || *y < -MAX_OFFSET || *y > MAX_OFFSET) return -1;
    return 0;
}

static int write_image(const char *prefix, const char *name, const cls_image *img)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s.png", prefix, name);
    int rc = cls_image_write(path, img);
    if (rc != CLS_SUCCESS) return cli_fail(rc);
    fprintf(stderr, "wrote %s\n", path);
    return CLI_EXIT_OK;
}

static int poisson_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_solver_args a;
    const char *v, *output = NULL, *prefix = NULL, *paste = NULL, *files[3];
    size_t nfiles = 0;
    cls_dims synth = {{0, 0, 0}}, patch = {{0, 0, 0}};
    int id, ret = CLI_EXIT_FAIL;
    job j;
    memset(&j, 0, sizeof j);
    cls_poisson_edit_options_init(&j.po);
    cli_solver_args_init(&a);
    a.opt.tolerance = j.po.solver.tolerance;

    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        int r;
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); return CLI_EXIT_OK;
        case CLI_OPT_ERROR: return CLI_EXIT_USAGE;
        case CLI_OPT_POSITIONAL:
            if (nfiles == 3) return cli_usage_error(self, "unexpected argument '%s'", v);
            files[nfiles++] = v;
            break;
        case OPT_OUTPUT: output = v; break;
        case OPT_OFFSET:
            if (parse_offset(v, &j.po.offset_x, &j.po.offset_y) != 0)
                return cli_usage_error(self,
                                       "--offset: X,Y expected, each within -%ld..%ld (e.g. "
                                       "40,-3), got '%s'",
                                       MAX_OFFSET, MAX_OFFSET, v);
            break;
        case OPT_MIXED: j.po.mixed = 1; break;
        case OPT_DTYPE:
            if (cli_parse_dtype(v, &j.po.dtype) != 0)
                return cli_usage_error(self, "unknown --dtype '%s' (float or double)", v);
            break;
        case OPT_SYNTHETIC: {
            int nd;
            if (cli_parse_size(v, &synth, &nd) != 0 || nd != 2)
                return cli_usage_error(self, "--synthetic: WxH expected (e.g. 480x480), got '%s'", v);
            break;
        }
        case OPT_PATCH: {
            int nd;
            if (cli_parse_size(v, &patch, &nd) != 0 || nd != 2)
                return cli_usage_error(self, "--patch: WxH expected (e.g. 480x480), got '%s'", v);
            break;
        }
        case OPT_WRITE_INPUTS: prefix = v; break;
        case OPT_PASTE: paste = v; break;
        default:
            if ((r = cli_solver_option(&a, self, id, v)) != CLI_EXIT_OK) return CLI_EXIT_USAGE;
        }
    }
    int synthetic = synth.n[0] > 0;
    if (synthetic && nfiles)
        return cli_usage_error(self, "give either --synthetic or TARGET SOURCE MASK, not both");
    if (!synthetic && nfiles != 3)
        return cli_usage_error(self, "TARGET, SOURCE and MASK images expected (or --synthetic)");
    if (patch.n[0] && (!synthetic || patch.n[0] > synth.n[0] || patch.n[1] > synth.n[1]))
        return cli_usage_error(self, "--patch goes with --synthetic and must not exceed its size");
    if (!a.compare && !output && !prefix)
        return cli_usage_error(self, "--output FILE is required (or --compare)");
    if (a.format == CLI_FORMAT_CSV && !a.compare)
        return cli_usage_error(self, "--format csv goes with --compare");

    /* Every file this run writes, checked before the images are decoded. */
    {
        char pre[3][4096];
        static const char *const names[3] = {"target.png", "source.png", "mask.png"};
        for (int k = 0; k < 3; k++) snprintf(pre[k], sizeof pre[k], "%s%s", prefix ? prefix : "", names[k]);
        const char *outs[] = {output, paste, a.history, prefix ? pre[0] : NULL,
                              prefix ? pre[1] : NULL, prefix ? pre[2] : NULL};
        const char *ins[] = {synthetic ? NULL : files[0], synthetic ? NULL : files[1],
                             synthetic ? NULL : files[2]};
        if (cli_check_outputs(outs, sizeof outs / sizeof outs[0], ins, 3) != CLI_EXIT_OK)
            return CLI_EXIT_FAIL;
    }

    cls_image *target = NULL, *source = NULL, *mask = NULL, *result = NULL, *cut = NULL;
    cls_context *ctx = NULL;
    cls_device_info dev;
    cls_solver_report rep;
    memset(&rep, 0, sizeof rep);
    int rc;
    if (synthetic && patch.n[0]) {
        /* The scene's target at full size, its source and mask at the patch's size, centred. */
        cls_image *unused_s = NULL, *unused_m = NULL, *unused_t = NULL;
        rc = cls_image_synth_scene(synth.n[0], synth.n[1], &target, &unused_s, &unused_m);
        if (rc == CLS_SUCCESS)
            rc = cls_image_synth_scene(patch.n[0], patch.n[1], &unused_t, &source, &mask);
        cls_image_release(unused_s);
        cls_image_release(unused_m);
        cls_image_release(unused_t);
        j.po.offset_x = (long)(synth.n[0] - patch.n[0]) / 2;
        j.po.offset_y = (long)(synth.n[1] - patch.n[1]) / 2;
    } else if (synthetic) {
        rc = cls_image_synth_scene(synth.n[0], synth.n[1], &target, &source, &mask);
    } else {
        rc = cls_image_read(files[0], &target);
        if (rc == CLS_SUCCESS) rc = cls_image_read(files[1], &source);
        if (rc == CLS_SUCCESS) rc = cls_image_read(files[2], &mask);
    }
    if (rc != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    /* The source's pixels are read where the mask's are: the two must cover the same area,
     * and the composite takes the source's channels into the target's. */
    if (mask->width != source->width || mask->height != source->height) {
        cli_failf(CLS_ERR_INVALID_SIZE,
                  "the mask is %zux%zu and the source %zux%zu: they must have the same size",
                  mask->width, mask->height, source->width, source->height);
        goto done;
    }
    if (source->channels != target->channels) {
        cli_failf(CLS_ERR_INVALID_ARGUMENT,
                  "the source has %zu channels and the target %zu: they must match",
                  source->channels, target->channels);
        goto done;
    }
    if (prefix && (write_image(prefix, "target", target) != CLI_EXIT_OK ||
                   write_image(prefix, "source", source) != CLI_EXIT_OK ||
                   write_image(prefix, "mask", mask) != CLI_EXIT_OK))
        goto done;
    if (paste) {
        /* Cut and paste, for comparison: the source's pixels under the mask. */
        if ((rc = cls_image_create(target->width, target->height, target->channels, &cut)) !=
            CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        memcpy(cut->data, target->data,
               target->width * target->height * target->channels * sizeof *cut->data);
        for (size_t y = 0; y < mask->height; y++)
            for (size_t x = 0; x < mask->width; x++) {
                long tx = (long)x + j.po.offset_x, ty = (long)y + j.po.offset_y;
                if (mask->data[(y * mask->width + x) * mask->channels] < 0.5f || tx < 0 || ty < 0 ||
                    tx >= (long)target->width || ty >= (long)target->height)
                    continue;
                for (size_t c = 0; c < target->channels; c++)
                    cut->data[((size_t)ty * target->width + (size_t)tx) * target->channels + c] =
                        source->data[(y * source->width + x) * source->channels + c];
            }
        if ((rc = cls_image_write(paste, cut)) != CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
    }
    if (!a.compare && !output) {
        ret = CLI_EXIT_OK;
        goto done;
    }
    if (cli_open_context(a.device, &ctx, &dev) != CLS_SUCCESS) goto done;
    j.ctx = ctx;
    j.target = target;
    j.source = source;
    j.mask = mask;
    if (a.compare) {
        char name[128];
        snprintf(name, sizeof name, "poisson-edit %zux%zux%zu", target->width, target->height,
                 target->channels);
        ret = cli_solver_compare(&a, name, run_once, &j);
        goto done;
    }
    j.po.solver = a.opt;
    rc = cls_poisson_edit(ctx, target, source, mask, &j.po, &result, &rep);
    if (a.format == CLI_FORMAT_JSON) {
        cli_json js;
        cli_json_begin(&js, stdout);
        cli_json_str(&js, "device", dev.name);
        cli_json_size_array(&js, "size", (size_t[]){target->width, target->height}, 2);
        cli_json_uint(&js, "channels", target->channels);
        cli_solver_report_json(&js, &j.po.solver, &rep);
        cli_json_str(&js, "output", result ? output : NULL);
        cli_json_end(&js);
    } else {
        printf("image:      %zux%zu, %zu channel%s\n", target->width, target->height,
               target->channels, target->channels > 1 ? "s" : "");
        cli_solver_report_text(stdout, &j.po.solver, &rep);
    }
    if (a.history && cli_solver_write_history(a.history, &rep) != CLI_EXIT_OK) goto done;
    if (result) {
        int wr = cls_image_write(output, result);
        if (wr != CLS_SUCCESS) {
            cli_fail(wr);
            goto done;
        }
        if (a.format != CLI_FORMAT_JSON) printf("output:     %s\n", output);
    }
    if (rc != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    ret = CLI_EXIT_OK;
done:
    cls_solver_report_clear(&rep);
    cls_image_release(result);
    cls_image_release(cut);
    cls_image_release(target);
    cls_image_release(source);
    cls_image_release(mask);
    cls_context_release(ctx);
    return ret;
}

const cli_command cli_cmd_poisson_edit = {
    "poisson-edit",
    "seamless cloning by Poisson image editing (chaotic-relaxation solver)",
    "usage: clstencil poisson-edit [OPTIONS] TARGET SOURCE MASK --output OUT.png\n"
    "       clstencil poisson-edit --synthetic WxH [OPTIONS] --output OUT.png\n"
    "       clstencil poisson-edit (TARGET SOURCE MASK | --synthetic WxH) --compare [OPTIONS]",
    "Clones the SOURCE pixels under MASK into TARGET so that no seam shows (Perez et al.; the\n"
    "document's Eqs. 1-2): inside the mask every channel solves Laplace(I) = div(grad SOURCE)\n"
    "with the target's values around it.  Images are PNG, PGM or PPM; SOURCE and MASK have the\n"
    "same size, MASK pixels >= 0.5 are inside, and the region must not touch the target's\n"
    "border.  --synthetic uses a generated sky-and-hill scene with a striped patch.\n"
    "\n"
    "Options:\n"
    "  --output FILE           the composite (.png, .ppm, .pgm)\n"
    "  --offset X,Y            where SOURCE's top-left pixel lands in TARGET (default 0,0)\n"
    "  --mixed                 Perez's mixed gradients (the stronger of source and target)\n"
    "  --dtype float|double    precision of the solve (default float)\n"
    "  --synthetic WxH         the synthetic scene instead of three files\n"
    "  --patch WxH             with --synthetic: the scene's patch and mask at this size,\n"
    "                          centred in the WxH target (large grids, bounded step counts)\n"
    "  --write-inputs PREFIX   also write PREFIXtarget.png, PREFIXsource.png, PREFIXmask.png\n"
    "  --paste FILE            also write the plain cut-and-paste composite\n"
    "  --tolerance T           default 1e-4 (of the [0, 1] intensity range)\n"
    "\n"
    "Output: the schedule, the outcome, steps, host synchronisations and times (text or JSON).\n"
    "Exit status 1 when the solver did not converge or diverged (no image is written unless\n"
    "--write-unconverged).\n"
    "\n" CLI_SOLVER_OPTIONS_HELP,
    poisson_main,
};

