/* example.c: the user guide's example: a 2D heat-diffusion stencil written as a body, run on
 * the default OpenCL device and checked against the host reference. */
#include <clstencil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, cls_status s)
{
    fprintf(stderr, "%s: %s: %s\n", what, cls_status_string(s), cls_last_error());
    return 1;
}

int main(void)
{
    /* u' = u + alpha * laplacian(u), plus a heat source read from an auxiliary array. */
    const char *spec =
        "{ \"name\": \"heat2d\", \"dims\": 2, \"dtype\": \"float\","
        "  \"boundary\": {\"type\": \"constant\", \"value\": 0},"
        "  \"aux\": [\"source\"], \"params\": {\"alpha\": 0.2},"
        "  \"body\": \"real lap = IN(-1,0) + IN(1,0) + IN(0,-1) + IN(0,1) - 4 * IN(0,0);"
        "            return IN(0,0) + alpha * lap + AUX(source, 0, 0);\" }";
    cls_stencil *st = NULL;
    cls_context *ctx = NULL;
    cls_plan *plan = NULL;
    cls_status s;
    int rc = 1;
    const cls_dims dims = {{256, 192, 1}};
    const size_t steps = 50, n = 256 * 192;
    float *u = calloc(n, sizeof *u), *src = calloc(n, sizeof *src);
    float *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    if (!u || !src || !out || !ref) return 1;
    src[96 * 256 + 128] = 1.0f; /* a point source in the middle */

    if ((s = cls_stencil_from_json(spec, &st)) != CLS_SUCCESS) return fail("spec", s);
    /* NULL selects $CLSTENCIL_DEVICE, else the first GPU, else the first CPU. */
    if ((s = cls_context_create(NULL, &ctx)) != CLS_SUCCESS) {
        rc = fail("device", s);
        goto done;
    }
    cls_device_info dev;
    cls_context_device(ctx, &dev);
    printf("device: %s\n", dev.name);

    if ((s = cls_plan_create(ctx, st, dims, steps, NULL, &plan)) != CLS_SUCCESS) {
        rc = fail("plan", s);
        goto done;
    }
    const void *aux[] = {src};
    cls_report rep;
    if ((s = cls_plan_run(plan, u, aux, out, &rep)) != CLS_SUCCESS) {
        rc = fail("run", s);
        goto done;
    }
    printf("%zu steps in %.3f ms on the device: %.2f GPoints/s\n", rep.steps,
           rep.seconds_kernels * 1e3, rep.gpoints_per_s);

    /* The host reference computes the same result bit for bit. */
    if ((s = cls_reference_run(st, dims, steps, u, aux, ref)) != CLS_SUCCESS) {
        rc = fail("reference", s);
        goto done;
    }
    int same = memcmp(out, ref, n * sizeof *out) == 0;
    printf("centre value %.6g, reference %s\n", out[96 * 256 + 128],
           same ? "matches bitwise" : "DIFFERS");
    rc = same ? 0 : 1;
done:
    cls_plan_release(plan);
    cls_context_release(ctx);
    cls_stencil_release(st);
    free(u);
    free(src);
    free(out);
    free(ref);
    return rc;
}
