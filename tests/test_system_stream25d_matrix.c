/* test_system_stream25d_matrix.c: every built-in system on the stream25d schedule, one step per
 * pass and two fused steps per pass, bitwise against cls_reference_run_fields: float on every
 * boundary kind, double on one kind per system (the kinds rotate over the systems).  What each
 * built-in is expected to do is written down (a plan and the reference's result, or a refusal
 * that says why), so that a schedule that stops taking a system fails here; a built-in system
 * not in the table must still plan one step per pass or be refused with a reason.  The kernels'
 * own tests go further per window (test_system_fused, _fused_fields, test_stream25d_2d,
 * test_stream25d_column); this is the matrix of every system by the schedule. */
#include <stdio.h>
#include <string.h>

#include "clstencil.h"
#include "system_grids.h"
#include "tap.h"

enum { STEPS = 5 }; /* odd: two steps per pass end with a shorter pass */

/* What stream25d does with a built-in: runs one step per pass, runs fused steps. */
typedef struct expect {
    const char *name;
    int single, fused;
} expect;

static const expect table[] = {
    {"wave2d", 1, 1},        /* a field and its time level, 2D streamed along y */
    {"wave3d", 1, 1},        /* the same in 3D */
    {"acoustic3d_r4", 1, 0}, /* radius 4: the column window, one step per pass */
    {"gray_scott", 1, 1},    /* one stage updating two fields */
    {"fdtd2d", 1, 0},        /* two stages: one step per pass */
    {"fdtd3d", 1, 0},
};

static const expect *lookup(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].name, name)) return &table[i];
    return NULL;
}

static cls_dims grid_for(int dims)
{
    cls_dims d = {{1, 1, 1}};
    if (dims == 3) {
        d.n[0] = 13, d.n[1] = 11, d.n[2] = 10;
    } else {
        d.n[0] = 37, d.n[1] = 23;
    }
    return d;
}

/* One system, dtype and boundary: both configurations. */
static void run_kind(cls_context *ctx, cls_stencil *st, const expect *e, int dt, int b)
{
    static const char *const configs[2] = {"pipeline.scheme=off",
                                           "pipeline.scheme=off stream25d.steps_per_pass=2"};
    char what[160];
    grids g;
    cls_stencil_set_dtype(st, dt ? CLS_FLOAT64 : CLS_FLOAT32);
    cls_stencil_set_boundary(st, (cls_boundary)b, -0.25);
    snprintf(what, sizeof what, "%s %s %s", cls_stencil_name(st), dt ? "double" : "float",
             cls_boundary_name((cls_boundary)b));
    if (!tap_ok(grids_make_on(&g, st, grid_for(cls_stencil_dims(st)), STEPS),
                "%s: inputs and the reference", what)) {
        grids_free(&g);
        return;
    }
    for (int fused = 0; fused < 2; fused++) {
        cls_plan *p = NULL;
        int planned = grids_plan(ctx, st, g.dims, STEPS, CLS_SCHEDULE_STREAM25D, configs[fused], &p);
        const char *why = planned ? "" : cls_last_error();
        int want = e ? (fused ? e->fused : e->single) : -1;
        if (!planned) {
            /* refused: expected, or (a system the table does not know) said why */
            tap_ok(want != 1 && why && *why, "%s: stream25d %s refused, saying why: %s", what,
                   fused ? "fused" : "one step per pass", why ? why : "");
        } else if (want == 0) {
            tap_ok(0, "%s: stream25d %s was expected to refuse, but planned", what,
                   fused ? "fused" : "one step per pass");
        } else {
            int ok = cls_plan_run_fields(p, (const void *const *)g.in, (const void *const *)g.aux,
                                         g.out, NULL) == CLS_SUCCESS;
            if (!ok) tap_diag("%s", cls_last_error());
            tap_ok(ok && equal_ref(&g), "%s: stream25d %s (%s) equals the reference", what,
                   fused ? "fused" : "one step per pass", cls_plan_param(p, "stream25d.window")
                                                              ? cls_plan_param(p, "stream25d.window")
                                                              : "");
        }
        cls_plan_release(p);
    }
    grids_free(&g);
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("systems on stream25d", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    size_t seen = 0, nsys = 0;
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        cls_stencil *st = NULL;
        if (cls_stencil_builtin(cls_stencil_builtin_name(i), &st) != CLS_SUCCESS) continue;
        if (cls_stencil_is_system(st) && cls_stencil_dims(st) >= 2) {
            const expect *e = lookup(cls_stencil_name(st));
            seen += e != NULL;
            for (int b = 0; b <= CLS_BOUNDARY_MIRROR; b++) run_kind(ctx, st, e, 0, b);
            if (info.double_support)
                run_kind(ctx, st, e, 1, (int)(nsys % (CLS_BOUNDARY_MIRROR + 1)));
            nsys++;
        }
        cls_stencil_release(st);
    }
    tap_ok(seen == sizeof table / sizeof table[0],
           "every system of the table is a built-in (%zu of %zu found)", seen,
           sizeof table / sizeof table[0]);
    cls_context_release(ctx);
    return tap_done();
}
