/* system_rotation.cl: a system's buffers rotated within one work-item's tile or box, as
 * lib/rotation.c rotates the state's: within a stage every update writes a free buffer while
 * all reads see the stage's start; after the step each time level takes the buffer its source
 * held at the step's start.  Emitted after the system's structure (lib/codegen.c,
 * system_structure: CLS_NUM_FIELDS, CLS_NUM_STAGES, CLS_TILE_BUFS, CLS_FIELD_PREV,
 * CLS_STAGE_FIELDS) for the templates that advance a system in a work-item's own memory
 * (cl/trapezoid.cl, cl/cputile.cl).  at[f] is the buffer holding field f, start[f] the one
 * that held it at the step's start, out[f] the one the stage's update of f writes (-1: none). */
__constant int cls_field_prev[CLS_NUM_FIELDS] = CLS_FIELD_PREV;
__constant int cls_stage_fields[CLS_NUM_STAGES * CLS_NUM_FIELDS] = CLS_STAGE_FIELDS;

inline int cls_rot_busy(const int *at, const int *start, const int *out, int b)
{
    for (int f = 0; f < CLS_NUM_FIELDS; f++) {
        if (at[f] == b || out[f] == b) return 1;
        if (start[f] == b)
            for (int g = 0; g < CLS_NUM_FIELDS; g++)
                if (cls_field_prev[g] == f) return 1;
    }
    return 0;
}

inline void cls_rot_stage_begin(int g, const int *at, const int *start, int *out)
{
    for (int f = 0; f < CLS_NUM_FIELDS; f++) out[f] = -1;
    for (int k = 0; k < CLS_NUM_FIELDS; k++) {
        int f = cls_stage_fields[g * CLS_NUM_FIELDS + k], b = 0;
        if (f < 0) break;
        while (b < CLS_TILE_BUFS - 1 && cls_rot_busy(at, start, out, b)) b++;
        out[f] = b;
    }
}

inline void cls_rot_stage_end(int *at, int *out)
{
    for (int f = 0; f < CLS_NUM_FIELDS; f++) {
        if (out[f] >= 0) at[f] = out[f];
        out[f] = -1;
    }
}

inline void cls_rot_step_end(int *at, const int *start)
{
    int next[CLS_NUM_FIELDS];
    for (int f = 0; f < CLS_NUM_FIELDS; f++)
        next[f] = cls_field_prev[f] >= 0 ? start[cls_field_prev[f]] : at[f];
    for (int f = 0; f < CLS_NUM_FIELDS; f++) at[f] = next[f];
}

/* Kernel parameters and arguments of every field (CLS_FOR_FIELDS). */
#define CLS_IN_PARAM(f) __global const real *restrict in##f,
#define CLS_OUT_PARAM(f) __global real *restrict out##f,
#define CLS_A_PARAM(f) __global real *a##f,
#define CLS_B_PARAM(f) __global real *b##f,
#define CLS_IN_ARG(f) in##f,
#define CLS_OUT_ARG(f) out##f,
#define CLS_A_ARG(f) a##f,
#define CLS_B_ARG(f) b##f,
