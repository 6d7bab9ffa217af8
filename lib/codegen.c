/* codegen.c: turns a stencil spec and grid sizes into OpenCL C: generated defines, the prelude,
 * the update function (the body re-emitted by expr.c) and a schedule's template. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "internal.h"

/* generate()'s stage for every stage of a system on local-memory tiles (system_tiles), and in
 * scratch boxes (system_scratch). */
#define CLS__ALL_STAGES (-2)
#define CLS__ALL_STAGES_SCRATCH (-3)

/* Whether the device rounds float divide and sqrt correctly when asked to; without it the
 * results of bodies that divide are not bitwise reproducible (see cls_reference_run). */
static int has_correct_divide(cls_context *ctx)
{
    cl_device_fp_config cfg = 0;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof cfg, &cfg, NULL) !=
        CL_SUCCESS)
        return 0;
    return (cfg & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
}

/* A point's neighbour at offset (dx, dy, dz) in the coordinates of a stencil of 1, 2, 3
 * dimensions, and the offsets an accessor takes. */
static const char *const dim_args[3] = {"X + (dx), 0, 0", "X + (dx), Y + (dy), 0",
                                        "X + (dx), Y + (dy), Z + (dz)"};
static const char *const dim_params[3] = {"dx", "dx, dy", "dx, dy, dz"};

/* A system's field accessors CLS_FIELD_<f>(offsets): CLS_READ of field f's argument f<f> at the
 * neighbour, whatever CLS_READ is where an update is emitted. */
static int field_accessors(char **src, size_t *len, size_t *cap, const cls_stencil *st)
{
    for (size_t f = 0; f < st->n_fields; f++)
        if (cls__appendf(src, len, cap, "#define CLS_FIELD_%zu(%s) CLS_READ(f%zu, %s)\n", f,
                         dim_params[st->dims - 1], f, dim_args[st->dims - 1]) < 0)
            return -1;
    return 0;
}

/* The rest of an update function after its opening brace: the parameters as constants local
 * to it, the body and the closing brace. */
static int params_and_body(char **src, size_t *len, size_t *cap, const cls_stencil *st,
                           const char *body)
{
    char num[40];
    for (size_t j = 0; j < st->n_params; j++)
        if (cls__appendf(src, len, cap, "    const real %s = (real)%s;\n", st->params[j].name,
                         cls__fmt_double(num, st->params[j].value)) < 0)
            return -1;
    return cls__appendf(src, len, cap, "%s\n}\n", body) < 0 ? -1 : 0;
}

/* The fused stream25d kernel's update (cl/stream25d_tb.cl, CLS_STREAM25D_TB) of a stage that
 * updates one field: that field read from its private window, its time levels (in order, the
 * parameters after the window) as their values at the point, auxiliary arrays from global
 * memory.  The planner runs it only where the levels are read at offset 0. */
static int stream25d_tb(char **src, size_t *len, size_t *cap, const cls_stencil *st,
                        const cls__stage *sg, const char *body)
{
    int chain[CLS__MAX_FIELDS], u = sg->update[0].field;
    size_t n = cls__stencil_levels(st, (size_t)u, chain, CLS__MAX_FIELDS);
#define OUT(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(src, len, cap, __VA_ARGS__) < 0) return -1;                           \
    } while (0)
    OUT("#ifdef CLS_STREAM25D_TB\n#undef CLS_READ\n#define CLS_READ cls_read_win\n"
        "#undef CLS_READ_AUX\n#define CLS_READ_AUX cls_read\n");
    for (size_t m = 0; m < n; m++)
        OUT("#undef CLS_FIELD_%d\n#define CLS_FIELD_%d(dx, dy, dz) (f%d)\n", chain[m], chain[m],
            chain[m]);
    OUT("CLS_INLINE real cls_update_tb(__private const real *restrict f%d", u);
    for (size_t m = 0; m < n; m++) OUT(", real f%d", chain[m]);
    OUT(" CLS_AUX_PARAMS, int X, int Y, int Z, int STEP)\n{\n");
    if (params_and_body(src, len, cap, st, body)) return -1;
    for (size_t m = 0; m < n; m++)
        OUT("#undef CLS_FIELD_%d\n#define CLS_FIELD_%d(dx, dy, dz) CLS_READ(f%d, X + (dx), "
            "Y + (dy), Z + (dz))\n",
            chain[m], chain[m], chain[m]);
    OUT("#endif\n");
#undef OUT
    return 0;
}

/* Widens reach_x (towards x = 0, towards x = NX - 1) to the x offsets of update e's reads of
 * fields and auxiliary arrays. */
static void stage_reach_x(const cls_stencil *st, const cls_expr *e, int reach_x[2])
{
    for (size_t k = 0; k <= st->n_aux; k++) {
        int lo[3], hi[3], used;
        if (k < st->n_aux) cls__expr_aux_extent(e, k, lo, hi, &used);
        else cls__expr_in_extent(e, lo, hi, &used);
        if (used && -lo[0] > reach_x[0]) reach_x[0] = -lo[0];
        if (used && hi[0] > reach_x[1]) reach_x[1] = hi[0];
    }
}

/* The field accessors of a system, its update functions for the stage and the stage's
 * point function (see cls__codegen_stage). */
static int system_stage(char **src, size_t *len, size_t *cap, const cls_stencil *st,
                        size_t stage, char **bodies, char **lanes, unsigned in_place,
                        const int reach_x[2])
{
    const cls__stage *sg = &st->stages[stage];
#define OUT(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(src, len, cap, __VA_ARGS__) < 0) return -1;                           \
    } while (0)
    OUT("#define CLS_NUM_FIELDS %zu\n#define CLS_FIELD_PARAMS ", st->n_fields);
    for (size_t f = 0; f < st->n_fields; f++)
        OUT("%s__global const real *restrict f%zu", f ? ", " : "", f);
    OUT("\n#define CLS_FIELD_ARGS ");
    for (size_t f = 0; f < st->n_fields; f++) OUT("%sf%zu", f ? ", " : "", f);
    OUT("\n#define CLS_STAGE %zu\n#define CLS_STAGE_UPDATES %zu\n#define CLS_STAGE_OUT_PARAMS ",
        stage, sg->n);
    for (size_t k = 0; k < sg->n; k++) OUT(", __global real *restrict out%zu", k);
    OUT("\n#define CLS_STAGE_OUT_ARGS ");
    for (size_t k = 0; k < sg->n; k++) OUT(", out%zu", k);
    OUT("\n");
    /* The row kernel's ends are as wide as the stage's reads reach towards each of them. */
    OUT("#ifdef CLS_NAIVE_ROWS\n#define CLS_STAGE_HALO_XLO %d\n#define CLS_STAGE_HALO_XHI %d\n"
        "#endif\n",
        reach_x[0], reach_x[1]);
    if (field_accessors(src, len, cap, st)) return -1;
    /* Readers: by the boundary rule, direct, and (row kernels, CLS_NAIVE_ROWS) x direct with y
     * and z folded once per row (cls_read_row in the prelude). */
    static const char *const readers[3] = {"cls_read", "cls_read_direct", "cls_read_row"};
    static const char *const suffixes[3] = {"", "_interior", "_row"};
    for (size_t k = 0; k < sg->n; k++)
        for (int v = 0; v < 3; v++) {
            if (v == 2) OUT("#ifdef CLS_NAIVE_ROWS\n");
            OUT("#undef CLS_READ\n#define CLS_READ %s\n#undef CLS_READ_AUX\n#define CLS_READ_AUX "
                "%s\n",
                readers[v], readers[v]);
            OUT("CLS_INLINE real cls_update_%zu%s(CLS_FIELD_PARAMS CLS_AUX_PARAMS, int X, int Y, "
                "int Z, int STEP)\n{\n",
                k, suffixes[v]);
            if (params_and_body(src, len, cap, st, bodies[k])) return -1;
            if (v == 2) OUT("#endif\n");
        }
    /* Pipeline tiles (cl/pipeline_system.cl, CLS_BOX): every field in a box of its own
     * (origin f<k>_ox.., pitches f<k>_px, f<k>_py; cls_read_fbox in the prelude), the auxiliary
     * arrays in one box (AOX..APY), the outputs in one box (OOX..OPY); SX, SY, SZ shift the
     * reads from the point's grid coordinates to the box's (periodic edge tiles hold wrapped
     * values at virtual coordinates). */
    OUT("#ifdef CLS_BOX\n#define CLS_FIELD_BOX_PARAMS");
    for (size_t f = 0; f < st->n_fields; f++)
        OUT(", int f%zu_ox, int f%zu_oy, int f%zu_oz, int f%zu_px, int f%zu_py", f, f, f, f, f);
    OUT("\n#define CLS_FIELD_BOX_ARGS");
    for (size_t f = 0; f < st->n_fields; f++)
        OUT(", f%zu_ox, f%zu_oy, f%zu_oz, f%zu_px, f%zu_py", f, f, f, f, f);
    OUT("\n#define CLS_BOX_SHIFT_PARAMS , int SX, int SY, int SZ, int AOX, int AOY, int AOZ, "
        "int APX, int APY\n#define CLS_BOX_SHIFT_ARGS , SX, SY, SZ, AOX, AOY, AOZ, APX, APY\n");
    for (size_t k = 0; k < sg->n; k++)
        for (int v = 0; v < 2; v++) {
            OUT("#undef CLS_READ\n#define CLS_READ %s\n#undef CLS_READ_AUX\n#define CLS_READ_AUX "
                "%s\n",
                v ? "cls_read_fbox_direct" : "cls_read_fbox",
                v ? "cls_read_abox_direct" : "cls_read_abox");
            OUT("CLS_INLINE real cls_update_%zu_box%s(CLS_FIELD_PARAMS CLS_AUX_PARAMS, int X, int Y, "
                "int Z, int STEP CLS_FIELD_BOX_PARAMS CLS_BOX_SHIFT_PARAMS)\n{\n",
                k, v ? "_interior" : "");
            if (params_and_body(src, len, cap, st, bodies[k])) return -1;
        }
    OUT("CLS_INLINE void cls_stage_point_box(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, "
        "int X, int Y, int Z, int STEP, int inside CLS_FIELD_BOX_PARAMS CLS_BOX_SHIFT_PARAMS, "
        "int OOX, int OOY, int OOZ, int OPX, int OPY)\n{\n");
    for (size_t k = 0; k < sg->n; k++)
        OUT("    real v%zu = inside ? cls_update_%zu_box_interior(CLS_FIELD_ARGS CLS_AUX_ARGS, X, Y, "
            "Z, STEP CLS_FIELD_BOX_ARGS CLS_BOX_SHIFT_ARGS) : cls_update_%zu_box(CLS_FIELD_ARGS "
            "CLS_AUX_ARGS, X, Y, Z, STEP CLS_FIELD_BOX_ARGS CLS_BOX_SHIFT_ARGS);\n",
            k, k, k);
    for (size_t k = 0; k < sg->n; k++)
        OUT("    out%zu[cls_box_index(X + SX, Y + SY, Z + SZ, OOX, OOY, OOZ, OPX, OPY)] = v%zu;\n",
            k, k);
    OUT("}\n#endif\n");
    /* The stream25d schedule's variant (cl/stream25d.cl, CLS_STREAM25D): every field read
     * from its private window of planes (the prelude's cls_read_win), auxiliary arrays from
     * global memory; and the stage at one point from the windows W[f] shifted by J rows, its
     * values stored where OK. */
    OUT("#ifdef CLS_STREAM25D\n#define CLS_WIN_FIELD_PARAMS ");
    for (size_t f = 0; f < st->n_fields; f++)
        OUT("%s__private const real *restrict f%zu", f ? ", " : "", f);
    OUT("\n#define CLS_FOR_FIELDS(M)");
    for (size_t f = 0; f < st->n_fields; f++) OUT(" M(%zu)", f);
    OUT("\n#undef CLS_READ\n#define CLS_READ cls_read_win\n#undef CLS_READ_AUX\n"
        "#define CLS_READ_AUX cls_read\n");
    for (size_t k = 0; k < sg->n; k++) {
        OUT("CLS_INLINE real cls_update_%zu_win(CLS_WIN_FIELD_PARAMS CLS_AUX_PARAMS, int X, int Y, "
            "int Z, int STEP)\n{\n",
            k);
        if (params_and_body(src, len, cap, st, bodies[k])) return -1;
    }
    OUT("#define CLS_STAGE_WIN_STORE(W, J, X, Y, Z, STEP, OK, AT) do {");
    for (size_t k = 0; k < sg->n; k++) {
        OUT(" real v%zu_ = cls_update_%zu_win(", k, k);
        for (size_t f = 0; f < st->n_fields; f++)
            OUT("%sW[%zu] + (J) * CLS_WIN_X", f ? ", " : "", f);
        OUT(" CLS_AUX_ARGS, X, Y, Z, STEP);");
    }
    OUT(" if (OK) {");
    for (size_t k = 0; k < sg->n; k++) OUT(" out%zu[AT] = v%zu_;", k, k);
    OUT(" } } while (0)\n");
    /* The fused kernel's stage (cl/stream25d_tb.cl, CLS_TB_F > 1): every update from the
     * windows W[f] shifted by J rows into V, indexed by the field it updates. */
    OUT("#define CLS_TB_UPDATES(W, J, X, Y, Z, STEP, V) do {");
    for (size_t k = 0; k < sg->n; k++) {
        OUT(" (V)[%d] = cls_update_%zu_win(", sg->update[k].field, k);
        for (size_t f = 0; f < st->n_fields; f++)
            OUT("%s(W)[%zu] + (J) * CLS_WIN_X", f ? ", " : "", f);
        OUT(" CLS_AUX_ARGS, X, Y, Z, STEP);");
    }
    OUT(" } while (0)\n#endif\n");
    if (st->dims == 3 && sg->n == 1 && stream25d_tb(src, len, cap, st, sg, bodies[0])) return -1;
    /* Every update of the stage at one point: all read the stage's start (the outputs are
     * other buffers), then the values are stored. */
    OUT("CLS_INLINE void cls_stage_point(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS CLS_AUX_PARAMS, "
        "int X, int Y, int Z, int STEP, int inside)\n{\n");
    for (size_t k = 0; k < sg->n; k++)
        OUT("    real v%zu = inside ? cls_update_%zu_interior(CLS_FIELD_ARGS CLS_AUX_ARGS, X, Y, Z, "
            "STEP) : cls_update_%zu(CLS_FIELD_ARGS CLS_AUX_ARGS, X, Y, Z, STEP);\n",
            k, k, k);
    for (size_t k = 0; k < sg->n; k++) OUT("    out%zu[CLS_IDX(X, Y, Z)] = v%zu;\n", k, k);
    OUT("}\n");
    /* The naive GPU kernel's vector variant (cl/naive_system.cl, CLS_VEC_READS): every update
     * at CLS_VEC_X consecutive points from aligned vector reads, where each update is lane-wise
     * (cls__expr_lane_wise); X is a multiple of CLS_VEC_X and the whole stencil of every lane
     * lies inside the grid. */
    int all_lanes = 1;
    for (size_t k = 0; k < sg->n; k++) all_lanes = all_lanes && lanes[k];
    if (all_lanes) {
        OUT("#ifdef CLS_VEC_READS\n#define CLS_LANE_WISE 1\n#undef CLS_READ\n#define CLS_READ "
            "cls_read_vec\n#undef CLS_READ_AUX\n#define CLS_READ_AUX cls_read_vec\n");
        for (size_t k = 0; k < sg->n; k++) {
            OUT("CLS_INLINE realv cls_update_%zu_vec(CLS_FIELD_PARAMS CLS_AUX_PARAMS, int X, int Y, "
                "int Z, int STEP)\n{\n",
                k);
            if (params_and_body(src, len, cap, st, lanes[k])) return -1;
        }
        OUT("CLS_INLINE void cls_stage_point_vec(CLS_FIELD_PARAMS CLS_STAGE_OUT_PARAMS "
            "CLS_AUX_PARAMS, int X, int Y, int Z, int STEP)\n{\n");
        for (size_t k = 0; k < sg->n; k++)
            OUT("    realv v%zu = cls_update_%zu_vec(CLS_FIELD_ARGS CLS_AUX_ARGS, X, Y, Z, STEP);\n",
                k, k);
        for (size_t k = 0; k < sg->n; k++)
            OUT("    *(__global realv *)(out%zu + CLS_IDX(X, Y, Z)) = v%zu;\n", k, k);
        OUT("}\n#endif\n");
    }
    /* The same as a statement of the update variant with suffix SUF (empty, _interior, _row),
     * for templates that pick the variant per run of points (cl/naive_system_rows.cl). */
    OUT("#define CLS_STAGE_STORE(SUF, X, Y, Z, STEP) do {");
    for (size_t k = 0; k < sg->n; k++)
        OUT(" real v%zu_ = cls_update_%zu##SUF(CLS_FIELD_ARGS CLS_AUX_ARGS, X, Y, Z, STEP);", k, k);
    for (size_t k = 0; k < sg->n; k++) OUT(" out%zu[CLS_DIDX(X, Y, Z)] = v%zu_;", k, k);
    OUT(" } while (0)\n");
    /* Templates that define CLS_IN_PLACE (the CPU row kernel) write the updates of in_place
     * (cls__system_stage_in_place) through the argument of the field whose buffer they write
     * (cls__system_in_place_into), not const, and leave those updates' outputs, the same
     * buffers, unused, so that restrict still holds;
     * CLS_STAGE_KEEP computes every update at one point into T[k][I], CLS_STAGE_PUT stores
     * T[k][I] (for a block computed before the stores that overlap it). */
    /* the fields whose buffers the in-place updates write (their own, or their oldest time
     * level's: cls__system_in_place_into) */
    unsigned written = 0;
    for (size_t f = 0; f < st->n_fields; f++)
        if (in_place >> f & 1u) written |= 1u << cls__system_in_place_into(st, f);
    OUT("#ifdef CLS_IN_PLACE\n#define CLS_STAGE_IN_PLACE %u\n#undef CLS_FIELD_PARAMS\n"
        "#define CLS_FIELD_PARAMS ",
        in_place);
    for (size_t f = 0; f < st->n_fields; f++)
        OUT("%s__global %sreal *restrict f%zu", f ? ", " : "", written >> f & 1u ? "" : "const ",
            f);
    /* STORE computes into v<k>_ and stores, KEEP computes into T, PUT stores from T. */
    static const char *const head[3] = {
        "\n#undef CLS_STAGE_STORE\n#define CLS_STAGE_STORE(SUF, X, Y, Z, STEP) do {",
        " } while (0)\n#define CLS_STAGE_KEEP(SUF, X, Y, Z, STEP, T, I) do {",
        " } while (0)\n#define CLS_STAGE_PUT(X, Y, Z, T, I) do {"};
    static const char *const value[3] = {"v%zu_", "T[%zu][I]", "T[%zu][I]"};
    for (int m = 0; m < 3; m++) {
        OUT("%s", head[m]);
        for (size_t k = 0; m < 2 && k < sg->n; k++) {
            OUT(m ? " " : " real ");
            OUT(value[m], k);
            OUT(" = cls_update_%zu##SUF(CLS_FIELD_ARGS CLS_AUX_ARGS, X, Y, Z, STEP);", k);
        }
        for (size_t k = 0; m != 1 && k < sg->n; k++) {
            int f = sg->update[k].field;
            OUT(in_place >> f & 1u ? " f%d[CLS_DIDX(X, Y, Z)] = " : " out%d[CLS_DIDX(X, Y, Z)] = ",
                in_place >> f & 1u ? cls__system_in_place_into(st, (size_t)f) : (int)k);
            OUT(value[m], k);
            OUT(";");
        }
    }
    OUT(" } while (0)\n#endif\n");
#undef OUT
    return 0;
}

/* A system's structure for the templates that rotate its buffers in a work-item's own memory
 * (cl/system_rotation.cl, which follows it): fields, stages, the buffers the rotation needs
 * (lib/rotation.c), each field's previous level and each stage's updated fields. */
static int system_structure(char **src, size_t *len, size_t *cap, const cls_stencil *st)
{
    cls__rotation rot;
#define OUT(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(src, len, cap, __VA_ARGS__) < 0) return -1;                           \
    } while (0)
    cls__rotation_init(&rot, st);
    OUT("#define CLS_NUM_FIELDS %zu\n#define CLS_NUM_STAGES %zu\n#define CLS_TILE_BUFS %zu\n",
        st->n_fields, st->n_stages, rot.n_bufs);
    OUT("#define CLS_FOR_FIELDS(M)");
    for (size_t f = 0; f < st->n_fields; f++) OUT(" M(%zu)", f);
    OUT("\n#define CLS_FIELD_PREV {");
    for (size_t f = 0; f < st->n_fields; f++) OUT("%s%d", f ? ", " : "", cls__stencil_previous(st, f));
    OUT("}\n#define CLS_STAGE_FIELDS {");
    for (size_t g = 0; g < st->n_stages; g++)
        for (size_t k = 0; k < st->n_fields; k++)
            OUT("%s%d", g || k ? ", " : "", k < st->stages[g].n ? st->stages[g].update[k].field : -1);
    OUT("}\n");
    int owned = 0;
    const char *rotation = cls__kernel_source("system_rotation.cl", &owned);
    if (!rotation) return -1;
    int r = cls__appendf(src, len, cap, "%s\n", rotation);
    if (owned) free((void *)rotation);
#undef OUT
    return r < 0 ? -1 : 0;
}

/* Every stage of a system on a local-memory tile (CLS__UPDATE_TILE; cl/trapezoid.cl): the
 * system's structure as initialisers (the template rotates the tile's buffers as
 * lib/rotation.c rotates the state's), the update functions cls_update_tile_<g>_<k> and
 * cls_update_tile_<g>_<k>_interior, and cls_stage_tile, which computes every update of stage
 * g at one point of the tile.  The tile's buffers lie one after another in T, CLS_TILE_ALLOC
 * values each; at[f] is the buffer holding field f, out[f] the one update of f writes. */
static cls_status system_tiles(char **src, size_t *len, size_t *cap, const cls_stencil *st)
{
    char *body = NULL;
    cls_status s = CLS_SUCCESS;
#define OUT(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(src, len, cap, __VA_ARGS__) < 0) goto oom;                            \
    } while (0)
    if (system_structure(src, len, cap, st)) goto oom;
    OUT("#ifndef CLS_TILE_ALLOC\n#define CLS_TILE_ALLOC (CLS_PITCH_X * CLS_PITCH_Y * "
        "CLS_PITCH_Z)\n#endif\n#define CLS_TILE_FIELD_PARAMS ");
    for (size_t f = 0; f < st->n_fields; f++)
        OUT("%s__local const real *restrict f%zu", f ? ", " : "", f);
    OUT("\n");
    if (field_accessors(src, len, cap, st)) goto oom;
    for (size_t g = 0; g < st->n_stages; g++)
        for (size_t k = 0; k < st->stages[g].n; k++) {
            cls_expr *e = NULL;
            if ((s = cls__stencil_parse_update(st, g, k, &e)) != CLS_SUCCESS) return s;
            body = cls__expr_emit_opencl(e);
            cls__expr_free(e);
            if (!body) goto oom;
            for (int inner = 0; inner < 2; inner++) {
                OUT("#undef CLS_READ\n#define CLS_READ %s\n#undef CLS_READ_AUX\n"
                    "#define CLS_READ_AUX %s\n",
                    inner ? "cls_read_tile_direct" : "cls_read_tile",
                    inner ? "cls_read_direct" : "cls_read");
                OUT("CLS_INLINE real cls_update_tile_%zu_%zu%s(CLS_TILE_FIELD_PARAMS CLS_AUX_PARAMS, "
                    "int X, int Y, int Z, int STEP, int OX, int OY, int OZ)\n{\n",
                    g, k, inner ? "_interior" : "");
                if (params_and_body(src, len, cap, st, body)) return -1;
            }
            free(body);
            body = NULL;
        }
    /* All updates of the stage read the stage's start (their outputs are free buffers), then
     * the values are stored. */
    OUT("CLS_INLINE void cls_stage_tile(int g, __local real *T, const int *at, const int *out "
        "CLS_AUX_PARAMS, int X, int Y, int Z, int STEP, int OX, int OY, int OZ, int interior)\n{\n"
        "    int li = CLS_TILE_INDEX(X - OX, Y - OY, Z - OZ);\n    switch (g) {\n");
    for (size_t g = 0; g < st->n_stages; g++) {
        OUT("    case %zu: {\n", g);
        for (size_t k = 0; k < st->stages[g].n; k++) {
            OUT("        real v%zu = interior ? cls_update_tile_%zu_%zu_interior(", k, g, k);
            for (size_t f = 0; f < st->n_fields; f++)
                OUT("%sT + at[%zu] * CLS_TILE_ALLOC", f ? ", " : "", f);
            OUT(" CLS_AUX_ARGS, X, Y, Z, STEP, OX, OY, OZ) : cls_update_tile_%zu_%zu(", g, k);
            for (size_t f = 0; f < st->n_fields; f++)
                OUT("%sT + at[%zu] * CLS_TILE_ALLOC", f ? ", " : "", f);
            OUT(" CLS_AUX_ARGS, X, Y, Z, STEP, OX, OY, OZ);\n");
        }
        for (size_t k = 0; k < st->stages[g].n; k++)
            OUT("        T[out[%d] * CLS_TILE_ALLOC + li] = v%zu;\n", st->stages[g].update[k].field,
                k);
        OUT("        break;\n    }\n");
    }
    OUT("    }\n}\n");
#undef OUT
    return CLS_SUCCESS;
oom:
    free(body);
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "generating OpenCL source");
}

/* Every stage of a system in a work-item's scratch boxes (CLS__UPDATE_SCRATCH; cl/cputile.cl):
 * the system's structure, each stage's reach (CLS_STAGE_REACH, x y z per stage), and per stage
 * g its update functions cls_update_scr_<g>_<k> (auxiliary arrays by the boundary rule),
 * _interior (direct) and _row (y and z folded per row), which read every field from the box at
 * constant offsets from the point (cls_read_scr; a system without auxiliary arrays gets the
 * first alone, and CLS_CT_NO_AUX); CLS_CT_STAGE_<g> computes every update of
 * the stage at point x of a row from the row pointers f<f> into the output rows o<k>, and
 * CLS_CT_OUT_PARAMS_<g> / CLS_CT_OUT_ARGS_<g> are the output rows of its row function. */
static cls_status system_scratch(char **src, size_t *len, size_t *cap, const cls_stencil *st)
{
    static const char *const aux_readers[3] = {"cls_read", "cls_read_direct", "cls_read_row"};
    static const char *const suffixes[3] = {"", "_interior", "_row"};
    char *body = NULL;
    cls_status s = CLS_SUCCESS;
#define OUT(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(src, len, cap, __VA_ARGS__) < 0) goto oom;                            \
    } while (0)
    if (system_structure(src, len, cap, st)) goto oom;
    if (!st->n_aux) OUT("#define CLS_CT_NO_AUX 1\n");
    OUT("#define CLS_FOR_STAGES(M)");
    for (size_t g = 0; g < st->n_stages; g++) OUT(" M(%zu)", g);
    OUT("\n#define CLS_STAGE_REACH {");
    for (size_t g = 0; g < st->n_stages; g++) {
        int r[3];
        if ((s = cls__system_stage_reach(st, g, r)) != CLS_SUCCESS) return s;
        OUT("%s%d, %d, %d", g ? ", " : "", r[0], r[1], r[2]);
    }
    OUT("}\n#define CLS_SCR_FIELD_PARAMS ");
    for (size_t f = 0; f < st->n_fields; f++)
        OUT("%s__global const real *restrict f%zu", f ? ", " : "", f);
    OUT("\n#define CLS_SCR_FIELD_ARGS_AT(B, AT, OFF) ");
    for (size_t f = 0; f < st->n_fields; f++)
        OUT("%s(B) + (long)(AT)[%zu] * CLS_SCR_BOX + (OFF)", f ? ", " : "", f);
    OUT("\n");
    if (field_accessors(src, len, cap, st)) goto oom;
    for (size_t g = 0; g < st->n_stages; g++) {
        const cls__stage *sg = &st->stages[g];
        for (size_t k = 0; k < sg->n; k++) {
            cls_expr *e = NULL;
            if ((s = cls__stencil_parse_update(st, g, k, &e)) != CLS_SUCCESS) return s;
            body = cls__expr_emit_opencl(e);
            cls__expr_free(e);
            if (!body) goto oom;
            /* without auxiliary arrays the variants are the same function: one */
            for (int v = 0; v < (st->n_aux ? 3 : 1); v++) {
                OUT("#undef CLS_READ\n#define CLS_READ cls_read_scr\n#undef CLS_READ_AUX\n"
                    "#define CLS_READ_AUX %s\n",
                    aux_readers[v]);
                OUT("CLS_INLINE real cls_update_scr_%zu_%zu%s(CLS_SCR_FIELD_PARAMS CLS_AUX_PARAMS, "
                    "int X, int Y, int Z, int STEP)\n{\n",
                    g, k, suffixes[v]);
                if (params_and_body(src, len, cap, st, body)) goto oom;
            }
            free(body);
            body = NULL;
        }
        OUT("#define CLS_CT_OUT_PARAMS_%zu", g);
        for (size_t k = 0; k < sg->n; k++) OUT(", __global real *restrict o%zu", k);
        OUT("\n#define CLS_CT_OUT_ARGS_%zu(B, OUTB, OFF)", g);
        for (size_t k = 0; k < sg->n; k++)
            OUT(", (B) + (long)(OUTB)[%d] * CLS_SCR_BOX + (OFF)", sg->update[k].field);
        OUT("\n#define CLS_CT_STAGE_%zu(SUF, x, X, Y, Z, STEP) do {", g);
        for (size_t k = 0; k < sg->n; k++) {
            OUT(" real v%zu_ = cls_update_scr_%zu_%zu##SUF(", k, g, k);
            for (size_t f = 0; f < st->n_fields; f++) OUT("%sf%zu + (x)", f ? ", " : "", f);
            OUT(" CLS_AUX_ARGS, X, Y, Z, STEP);");
        }
        for (size_t k = 0; k < sg->n; k++) OUT(" o%zu[x] = v%zu_;", k, k);
        OUT(" } while (0)\n");
    }
#undef OUT
    return CLS_SUCCESS;
oom:
    free(body);
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "generating OpenCL source");
}

static cls_status generate(cls_context *ctx, const cls_stencil *st, cls_dims dims, int stage,
                           const char *template_file, const char *extra_defines,
                           unsigned variants, char **source, char **options)
{
    char *src = NULL, *body = NULL, *lane_body = NULL, *bodies[CLS__MAX_FIELDS] = {NULL},
         *lanes[CLS__MAX_FIELDS] = {NULL};
    size_t len = 0, cap = 0;
    int reach_x[2] = {0, 0};
    cls_expr *e = NULL;
    const char *prelude = NULL, *tmpl = NULL;
    int prelude_owned = 0, tmpl_owned = 0;
    cls_status s = CLS_SUCCESS;
    *source = NULL;
    *options = NULL;

    if (stage == CLS__ALL_STAGES || stage == CLS__ALL_STAGES_SCRATCH) {
        /* system_tiles and system_scratch parse every update themselves */
    } else if (stage >= 0) {
        for (size_t k = 0; k < st->stages[stage].n; k++) {
            if ((s = cls__stencil_parse_update(st, (size_t)stage, k, &e)) != CLS_SUCCESS) goto fail;
            stage_reach_x(st, e, reach_x);
            bodies[k] = cls__expr_emit_opencl(e);
            lanes[k] = cls__expr_emit_opencl_lanes(e); /* NULL: no vector variant */
            cls__expr_free(e);
            e = NULL;
            if (!bodies[k]) {
                s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "emitting an update");
                goto fail;
            }
        }
    } else {
        if ((s = cls__stencil_parse(st, &e)) != CLS_SUCCESS) goto fail;
        if (!(body = cls__expr_emit_opencl(e))) {
            s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "emitting the body");
            goto fail;
        }
        lane_body = cls__expr_emit_opencl_lanes(e); /* NULL: no vector variant */
    }
    prelude = cls__kernel_source("prelude.cl", &prelude_owned);
    tmpl = cls__kernel_source(template_file, &tmpl_owned);
    if (!prelude || !tmpl) {
        s = cls__fail(ctx, CLS_ERR_INTERNAL, "kernel template %s not found: %s",
                      prelude ? template_file : "prelude.cl", cls_last_error());
        goto fail;
    }

#define OUT(...)                                                                               \
    do {                                                                                       \
        if (cls__appendf(&src, &len, &cap, __VA_ARGS__) < 0) goto oom;                         \
    } while (0)
    /* Only parsed and re-emitted parts reach the source: numbers, the body from its syntax tree
     * and identifiers checked at entry.  Neither the stencil's name nor its description is
     * written, so no text of the user's can close a comment or start a directive, and stencils
     * that differ only in name share one program. */
    OUT("/* generated by libclstencil */\n#define CLS_GENERATED 1\n");
    /* The update functions must be inlined into the kernels' loops: a 27-point body is past
     * LLVM's inlining threshold, and PoCL then calls it per point and cannot vectorise the row
     * loop (heat3d27 128^3 on PoCL: 88 ms a step before, 19 ms after, against 26 ms for gcc's
     * OpenMP loop).  Clang-based compilers honour the attribute; others get the hint. */
    OUT("#ifdef __clang__\n#define CLS_INLINE inline __attribute__((always_inline))\n#else\n"
        "#define CLS_INLINE inline\n#endif\n");
    if (st->dtype == CLS_FLOAT64) OUT("#define CLS_FP64 1\n");
    OUT("#define CLS_DIMS %d\n#define NX %zu\n#define NY %zu\n#define NZ %zu\n", st->dims,
        dims.n[0], dims.n[1], dims.n[2]);
    char num[40];
    OUT("#define CLS_BOUNDARY %d\n#define CLS_BOUNDARY_VALUE %s\n", (int)st->boundary,
        cls__fmt_double(num, st->boundary_value));
    int halo[3];
    cls_stencil_halo(st, halo);
    OUT("#define CLS_HALO_X %d\n#define CLS_HALO_Y %d\n#define CLS_HALO_Z %d\n", halo[0], halo[1],
        halo[2]);
    /* The schedule's own defines come before the prelude: some select prelude parts (its
     * local-memory tile accessors). */
    if (extra_defines) OUT("%s\n", extra_defines);
    OUT("%s\n", prelude);

    /* Auxiliary arrays: kernel parameters, arguments and accessors. */
    OUT("#define CLS_NUM_AUX %zu\n#define CLS_AUX_PARAMS ", st->n_aux);
    for (size_t k = 0; k < st->n_aux; k++) OUT(", __global const real *restrict aux%zu", k);
    OUT("\n#define CLS_AUX_ARGS ");
    for (size_t k = 0; k < st->n_aux; k++) OUT(", aux%zu", k);
    OUT("\n");
    for (size_t k = 0; k < st->n_aux; k++)
        OUT("#define CLS_AUX_%zu(%s) CLS_READ_AUX(aux%zu%s, %s)\n", k, dim_params[st->dims - 1], k,
            st->aux[k].per_step ? " + (size_t)STEP * CLS_NPOINTS" : "", dim_args[st->dims - 1]);

    /* Parameters are constants local to the update, so they cannot clash with template names.
     * cls_update handles the boundary; cls_update_interior reads directly (templates call it
     * only where the whole stencil lies inside the grid); the template asks for the others
     * (internal.h, CLS__UPDATE_*). */
    static const struct {
        unsigned kind;
        const char *name, *in_reader, *aux_reader, *in_type, *extra;
    } variant[] = {
        {0, "cls_update", "cls_read", "cls_read", "__global", ""},
        {0, "cls_update_interior", "cls_read_direct", "cls_read_direct", "__global", ""},
        {CLS__UPDATE_ROW, "cls_update_row", "cls_read_row", "cls_read_row", "__global", ""},
        {CLS__UPDATE_ROW, "cls_update_end", "cls_read_end", "cls_read_end", "__global", ""},
        {CLS__UPDATE_ROW, "cls_update_rel", "cls_read_rel", "cls_read_direct", "__global", ""},
        {CLS__UPDATE_ROW, "cls_update_end_rel", "cls_read_end_rel", "cls_read_end_direct",
         "__global", ""},
        {CLS__UPDATE_TILE, "cls_update_tile", "cls_read_tile", "cls_read", "__local",
         ", int OX, int OY, int OZ"},
        {CLS__UPDATE_WINDOW, "cls_update_stream", "cls_read_win", "cls_read", "__private", ""},
        {CLS__UPDATE_TILE, "cls_update_tile_interior", "cls_read_tile_direct", "cls_read_direct",
         "__local", ", int OX, int OY, int OZ"},
        {CLS__UPDATE_BOX, "cls_update_box", "cls_read_box", "cls_read_abox", "__global",
         ", int OX, int OY, int OZ, int PX, int PY, int SX, int SY, int SZ, int AOX, int AOY, "
         "int AOZ, int APX, int APY"},
        {CLS__UPDATE_BOX, "cls_update_box_interior", "cls_read_box_direct", "cls_read_abox_direct",
         "__global",
         ", int OX, int OY, int OZ, int PX, int PY, int SX, int SY, int SZ, int AOX, int AOY, "
         "int AOZ, int APX, int APY"},
        {CLS__UPDATE_SCRATCH, "cls_update_scratch", "cls_read_scr", "cls_read", "__global", ""},
        {CLS__UPDATE_SCRATCH, "cls_update_scratch_interior", "cls_read_scr", "cls_read_direct",
         "__global", ""},
        {CLS__UPDATE_SCRATCH, "cls_update_scratch_row", "cls_read_scr", "cls_read_row",
         "__global", ""},
    };
    for (size_t v = 0; stage == -1 && v < sizeof variant / sizeof variant[0]; v++) {
        if (variant[v].kind && !(variants & variant[v].kind)) continue;
        OUT("#undef CLS_READ\n#define CLS_READ %s\n#undef CLS_READ_AUX\n#define CLS_READ_AUX %s\n",
            variant[v].in_reader, variant[v].aux_reader);
        OUT("CLS_INLINE real %s(%s const real *restrict in CLS_AUX_PARAMS, int X, int Y, int Z, "
            "int STEP%s)\n{\n",
            variant[v].name, variant[v].in_type, variant[v].extra);
        if (params_and_body(&src, &len, &cap, st, body)) goto oom;
    }
    /* The naive GPU kernel's vector variant (cl/naive.cl, CLS_VEC_READS): the body at
     * CLS_VEC_X consecutive points from aligned vector reads where it is lane-wise
     * (cls__expr_lane_wise); X is a multiple of CLS_VEC_X and the whole stencil of every lane
     * lies inside the grid. */
    if (stage == -1 && lane_body) {
        OUT("#ifdef CLS_VEC_READS\n#define CLS_LANE_WISE 1\n#undef CLS_READ\n#define CLS_READ "
            "cls_read_vec\n#undef CLS_READ_AUX\n#define CLS_READ_AUX cls_read_vec\n");
        OUT("CLS_INLINE realv cls_update_vec(__global const real *restrict in CLS_AUX_PARAMS, "
            "int X, int Y, int Z, int STEP)\n{\n");
        if (params_and_body(&src, &len, &cap, st, lane_body)) goto oom;
        OUT("#endif\n");
    }
    unsigned in_place = 0;
    if (stage >= 0 && (s = cls__system_stage_in_place(st, (size_t)stage, &in_place)) != CLS_SUCCESS)
        goto fail;
    if (stage >= 0 &&
        system_stage(&src, &len, &cap, st, (size_t)stage, bodies, lanes, in_place, reach_x))
        goto oom;
    if (stage == CLS__ALL_STAGES && (s = system_tiles(&src, &len, &cap, st)) != CLS_SUCCESS)
        goto fail;
    if (stage == CLS__ALL_STAGES_SCRATCH && (s = system_scratch(&src, &len, &cap, st)) != CLS_SUCCESS)
        goto fail;
    OUT("#undef CLS_READ\n#define CLS_READ cls_read\n#undef CLS_READ_AUX\n"
        "#define CLS_READ_AUX cls_read\n#define CLS_HAVE_UPDATE 1\n");
    OUT("%s\n", tmpl);
#undef OUT

    {
        const char *opts = has_correct_divide(ctx) ? "-cl-fp32-correctly-rounded-divide-sqrt" : "";
        if (!(*options = cls__strdup(opts))) goto oom;
    }
    *source = src;
    src = NULL;
    goto done;
oom:
    s = cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "generating OpenCL source");
fail:
    free(src);
done:
    if (prelude_owned) free((void *)prelude);
    if (tmpl_owned) free((void *)tmpl);
    free(body);
    free(lane_body);
    for (size_t k = 0; k < CLS__MAX_FIELDS; k++) {
        free(bodies[k]);
        free(lanes[k]);
    }
    cls__expr_free(e);
    return s;
}

cls_status cls__codegen(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                        const char *template_file, const char *extra_defines, unsigned variants,
                        char **source, char **options)
{
    *source = *options = NULL;
    if (cls__stencil_is_system(st) && variants == CLS__UPDATE_TILE)
        return generate(ctx, st, dims, CLS__ALL_STAGES, template_file, extra_defines, variants,
                        source, options);
    if (cls__stencil_is_system(st) && (variants & CLS__UPDATE_SCRATCH))
        return generate(ctx, st, dims, CLS__ALL_STAGES_SCRATCH, template_file, extra_defines,
                        variants, source, options);
    if (cls__stencil_is_system(st))
        return cls__fail(ctx, CLS_ERR_UNSUPPORTED,
                         "%s: the template %s runs one field; '%s' is a system of %zu fields",
                         st->name, template_file, st->name, st->n_fields);
    return generate(ctx, st, dims, -1, template_file, extra_defines, variants, source, options);
}

cls_status cls__codegen_stage(cls_context *ctx, const cls_stencil *st, cls_dims dims,
                              size_t stage, const char *template_file,
                              const char *extra_defines, char **source, char **options)
{
    *source = *options = NULL;
    if (!cls__stencil_is_system(st) || stage >= st->n_stages)
        return cls__fail(ctx, CLS_ERR_INTERNAL, "%s: no stage %zu of a system", st->name, stage);
    return generate(ctx, st, dims, (int)stage, template_file, extra_defines, 0, source,
                    options);
}
