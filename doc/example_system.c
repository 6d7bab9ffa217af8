/* example_system.c: the user guide's system example: the 2D wave equation, second order in time,
 * built in C as a system of two fields (u and its previous step u_prev), run on the default
 * OpenCL device, advanced in a state, and checked against the host reference. */
#include <clstencil.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 128
#define NY 96

static int fail(const char *what, cls_status s)
{
    fprintf(stderr, "%s: %s: %s\n", what, cls_status_string(s), cls_last_error());
    return 1;
}

/* u' = 2 u - u_prev + c2 * laplacian(u): leapfrog needs the previous step, so u_prev is a time
 * level of u (no update of its own: each step it takes u's value from the step's start). */
static cls_status make_wave(cls_stencil **st)
{
    cls_status s;
    size_t stage;
    if ((s = cls_stencil_create("wave", 2, CLS_FLOAT32, NULL, st)) != CLS_SUCCESS) return s;
    if ((s = cls_stencil_add_field(*st, "u")) != CLS_SUCCESS) return s;
    if ((s = cls_stencil_add_time_level(*st, "u_prev", "u")) != CLS_SUCCESS) return s;
    if ((s = cls_stencil_set_param(*st, "c2", 0.25)) != CLS_SUCCESS) return s;
    if ((s = cls_stencil_add_stage(*st, &stage)) != CLS_SUCCESS) return s;
    if ((s = cls_stencil_set_update(*st, stage, "u",
                                    "2 * IN(u, 0, 0) - IN(u_prev, 0, 0) + c2 * (IN(u, 1, 0) + "
                                    "IN(u, -1, 0) + IN(u, 0, 1) + IN(u, 0, -1) - 4 * IN(u, 0, 0))"))
        != CLS_SUCCESS)
        return s;
    return cls_stencil_validate(*st);
}

int main(void)
{
    cls_stencil *st = NULL;
    cls_context *ctx = NULL;
    cls_plan *plan = NULL;
    cls_state *state = NULL;
    cls_status s;
    int rc = 1;
    const cls_dims dims = {{NX, NY, 1}};
    const size_t steps = 60, n = NX * NY;
    /* Host arrays per field, in the order the fields were declared: u, then u_prev. */
    float *u = malloc(n * sizeof *u), *u_prev = malloc(n * sizeof *u);
    float *out_u = malloc(n * sizeof *u), *out_prev = malloc(n * sizeof *u);
    float *ref_u = malloc(n * sizeof *u), *ref_prev = malloc(n * sizeof *u);
    float *snap_u = malloc(n * sizeof *u), *snap_prev = malloc(n * sizeof *u);
    if (!u || !u_prev || !out_u || !out_prev || !ref_u || !ref_prev || !snap_u || !snap_prev)
        goto done;

    /* A Gaussian pulse at rest: u_prev = u. */
    for (size_t y = 0; y < NY; y++)
        for (size_t x = 0; x < NX; x++) {
            double dx = (double)x - NX / 2.0, dy = (double)y - NY / 2.0;
            u[y * NX + x] = u_prev[y * NX + x] = (float)exp(-(dx * dx + dy * dy) / 128.0);
        }

    if ((s = make_wave(&st)) != CLS_SUCCESS) {
        rc = fail("spec", s);
        goto done;
    }
    if ((s = cls_context_create(NULL, &ctx)) != CLS_SUCCESS) {
        rc = fail("device", s);
        goto done;
    }
    if ((s = cls_plan_create(ctx, st, dims, steps, NULL, &plan)) != CLS_SUCCESS) {
        rc = fail("plan", s);
        goto done;
    }

    /* One run from host arrays: every field in, every field out. */
    const void *in[] = {u, u_prev};
    void *out[] = {out_u, out_prev};
    cls_report rep;
    if ((s = cls_plan_run_fields(plan, in, NULL, out, &rep)) != CLS_SUCCESS) {
        rc = fail("run", s);
        goto done;
    }
    printf("%zu steps in %.3f ms on the device: %.2f GPoints/s\n", rep.steps,
           rep.seconds_kernels * 1e3, rep.gpoints_per_s);

    /* The same steps in a state: the fields stay on the device, three advances of 20 steps,
     * with a look at the wave between them. */
    if ((s = cls_state_create(plan, &state)) != CLS_SUCCESS ||
        (s = cls_state_write_field(state, 0, u)) != CLS_SUCCESS ||
        (s = cls_state_write_field(state, 1, u_prev)) != CLS_SUCCESS) {
        rc = fail("state", s);
        goto done;
    }
    for (int k = 1; k <= 3; k++) {
        if ((s = cls_plan_advance(plan, state, steps / 3, NULL)) != CLS_SUCCESS ||
            (s = cls_state_read_field(state, 0, snap_u)) != CLS_SUCCESS) {
            rc = fail("advance", s);
            goto done;
        }
        printf("after %2zu steps: u at the centre %+.5f\n", cls_state_step(state),
               snap_u[(NY / 2) * NX + NX / 2]);
    }
    if ((s = cls_state_read_field(state, 1, snap_prev)) != CLS_SUCCESS) {
        rc = fail("read", s);
        goto done;
    }

    /* The host reference computes the same fields bit for bit. */
    void *ref[] = {ref_u, ref_prev};
    if ((s = cls_reference_run_fields(st, dims, steps, in, NULL, ref)) != CLS_SUCCESS) {
        rc = fail("reference", s);
        goto done;
    }
    size_t bytes = n * sizeof *u;
    int same = memcmp(out_u, ref_u, bytes) == 0 && memcmp(out_prev, ref_prev, bytes) == 0;
    int same_state = memcmp(snap_u, ref_u, bytes) == 0 && memcmp(snap_prev, ref_prev, bytes) == 0;
    printf("run %s the reference; state advanced in three parts %s it\n",
           same ? "matches" : "DIFFERS from", same_state ? "matches" : "DIFFERS from");
    rc = same && same_state ? 0 : 1;
done:
    cls_state_release(state);
    cls_plan_release(plan);
    cls_context_release(ctx);
    cls_stencil_release(st);
    free(u);
    free(u_prev);
    free(out_u);
    free(out_prev);
    free(ref_u);
    free(ref_prev);
    free(snap_u);
    free(snap_prev);
    return rc;
}
