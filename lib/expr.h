/* expr.h: the stencil body language: parse, check, emit as OpenCL C, evaluate on the host. */
#ifndef CLS_EXPR_H
#define CLS_EXPR_H

#include <stddef.h>

/* Limits of the language (doc/guide.md quotes them). */
#define CLS_EXPR_MAX_BODY 8388608 /* bytes of body text (100 000 generated points fit) */
#define CLS_EXPR_MAX_DEPTH 200    /* nesting of parentheses, calls, unary operators, ?: */
#define CLS_EXPR_MAX_OFFSET 1024  /* |offset| of IN / AUX */
#define CLS_EXPR_MAX_EMIT_DEPTH 200 /* brackets nested in the emitted OpenCL C */

typedef struct cls_expr cls_expr;

typedef struct cls_expr_env {
    int dims;           /* 1..3: IN/AUX take exactly this many offsets */
    int real_is_double; /* 'real' is double (else float) */
    size_t n_aux;
    const char *const *aux_names;
    size_t n_params;
    const char *const *param_names;
    /* Systems of fields: IN(name, dx[, dy[, dz]]) reads field `name`.  n_fields 0 is the
     * single-field language (IN takes offsets only and reads the one field). */
    size_t n_fields;
    const char *const *field_names;
    int default_field;  /* the field IN(dx, ...) without a name reads in a system; -1: none, a
                           name is required (several fields are updated) */
} cls_expr_env;

/* Parses and checks a body.  0 ok; -1 error (message "line L, column C: ..." in err);
 * -2 out of memory.  err may be NULL or errlen 0.  The result does not refer to body or env. */
int cls__expr_parse(const char *body, const cls_expr_env *env, cls_expr **out, char *err,
                    size_t errlen);
/* Accepts NULL. */
void cls__expr_free(cls_expr *e);

/* Per-dimension min/max offsets over all IN accesses (used = 0 and zeros if none) and,
 * separately, over the accesses of aux array k.  Unused dimensions report 0.  In a system,
 * cls__expr_in_extent covers the reads of every field and cls__expr_field_extent those of
 * field f. */
void cls__expr_in_extent(const cls_expr *e, int lo[3], int hi[3], int *used);
void cls__expr_field_extent(const cls_expr *e, size_t f, int lo[3], int hi[3], int *used);
void cls__expr_aux_extent(const cls_expr *e, size_t k, int lo[3], int hi[3], int *used);
/* Lifts a 2D body to the 3D grid NX x 1 x NY that has its memory layout: every offset (dx, dy)
 * becomes (dx, 0, dy), Y and NY become Z and NZ (the stream25d schedule streams 2D grids along
 * their rows this way).  Emission and evaluation then read it as 3D.  No-op unless e is 2D. */
void cls__expr_lift_2d(cls_expr *e);
/* 1 if only exactly-rounded operations are used (no exp, sin, pow, ...). */
int cls__expr_is_exact(const cls_expr *e);
/* Floating-point + - * / and calls of floating type, counted over the whole body (both
 * branches of ?: and of && ||). */
size_t cls__expr_flops(const cls_expr *e);
/* The operations a CPU's vector loop runs per point: those whose value varies from point to
 * point (they depend on a read or on X, Y, Z, STEP; operations on parameters and constants
 * fold at compile time), in three kinds: *flops floating + - * and calls (divisions and
 * square roots apart), *divs floating divisions and square roots, *selects comparisons,
 * logical operators, ! and ?: (both branches counted, as a vector loop runs both). */
void cls__expr_point_ops(const cls_expr *e, size_t *flops, size_t *divs, size_t *selects);
/* Number of distinct IN offsets read. */
size_t cls__expr_in_reads(const cls_expr *e);
/* 1 if the body only adds, subtracts, multiplies (fma included), negates and converts: no
 * division, comparison, logical operator, ?: or other call (the planner's cheap bodies). */
int cls__expr_plain_arith(const cls_expr *e);
/* Whether the body's operations are all cheap on a GPU: + - *, comparisons, logic, ?: and the
 * min/max/abs/rounding family, fma; no division, modulo, sqrt or transcendental call. */
int cls__expr_cheap_ops(const cls_expr *e);

/* OpenCL C statements for the body of `real cls_update(...)`, ending in "return ...;".
 * Uses IN(dx[, dy[, dz]]) (in a system CLS_FIELD_<f>(dx[, dy[, dz]]) for field f),
 * CLS_AUX_<k>(...), the parameter names, X Y Z NX NY NZ STEP (as int)
 * and `real`, all of which the prelude defines; locals are renamed cls_v_<name>.
 * malloc'ed; NULL when out of memory. */
char *cls__expr_emit_opencl(const cls_expr *e);

/* 1 if the same statements on vectors of consecutive points along x give each lane the
 * scalar result bit for bit: no X; whatever differs between such points (what depends on a
 * read) is real and comes from + - * /, fma, fabs, sqrt, negation, reads, locals and
 * conversions between reals; the parts all lanes share (Y, Z, STEP, parameters, constants) may use
 * anything.  The naive GPU kernels' aligned vector reads (cl/naive.cl) rely on it. */
int cls__expr_lane_wise(const cls_expr *e);
/* cls__expr_emit_opencl for the lanes of a vector: locals of type real are `realv` (the
 * kernel's vector type) and the reads return realv; constants and parameters stay scalar.
 * NULL unless cls__expr_lane_wise, or when out of memory. */
char *cls__expr_emit_opencl_lanes(const cls_expr *e);

/* Reads one element: array -1 = IN (in a system -1 - f = field f), k >= 0 = aux k, at the
 * relative offset off. */
typedef double (*cls_expr_read_fn)(void *user, int array, const int off[3]);

typedef struct cls_expr_point {
    int coord[3]; /* X Y Z (unused dimensions: 0) */
    int size[3];  /* NX NY NZ (unused dimensions: 1) */
    int step;     /* STEP */
    const double *params; /* values in env order, already rounded to real */
    cls_expr_read_fn read;
    void *user;
} cls_expr_point;

/* Evaluates the body at one point; the result is converted to real (a float value when real
 * is float).  Thread-safe: e is only read.  NaN if out of memory (very large bodies only). */
double cls__expr_eval(const cls_expr *e, const cls_expr_point *pt);

#endif /* CLS_EXPR_H */
