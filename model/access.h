/* access.h: access descriptions of kernel mappings, the input of the memory-access analysis. */
#ifndef CLS_ACCESS_H
#define CLS_ACCESS_H

/* Source: Kim & Shrivastava ("Memory Performance Estimation of CUDA Programs", CuMAPz),
 * Sect. 5 and Fig. 4: "programmer gives information about the program: thread and grid
 * dimension; memory references in the program; loops and branches that have memory
 * references; and shared memory references".  A description holds exactly that:
 *
 *   - the work-group (thread-block) and grid dimensions, and the order blocks are numbered in
 *     (row order, or the diagonal reordering of Kim & Shrivastava, Sect. 6.1 / Ruetsch and
 *     Micikevicius);
 *   - global arrays and local (shared) buffers, each with its element size and extent;
 *   - a body of statements in program order: global reads and writes, data fetches
 *     (global -> local, the "data fetch reference" paired with its "access reference"),
 *     direct local reads and writes (buffers used as temporary storage), branches (`if` with
 *     a condition on the indices) and loops (a counted loop variable), nested.
 *
 * Every index is an affine function of the block index (bx, by, bz), the work-item index
 * (tx, ty, tz) and the indices of the enclosing loops, with integer coefficients.  A statement
 * may view the work-group under another shape ("view": the same work-items, numbered in the same
 * linear order, with other tx, ty, tz: the 48x4 loader of Mo & Li, Listing 3 over a 32x6
 * work-group).  doc/memory-analysis.md describes the JSON form.
 *
 * Pure C, no OpenCL.  Failures return a cls_status (the parsers -1) with one sentence, starting
 * with the JSON path of the bad field, as the thread's last error (model/error.h). */

#include <stddef.h>
#include <stdint.h>

#include "clstencil_model.h"

/* Variables of an affine index. */
enum {
    CLS_AV_BX = 0, /* block index, after the block order is applied */
    CLS_AV_BY,
    CLS_AV_BZ,
    CLS_AV_TX,     /* work-item index within the block (in the statement's view) */
    CLS_AV_TY,
    CLS_AV_TZ,
    CLS_AV_L0,     /* loop variables, by nesting depth: CLS_AV_L0 + depth */
    CLS_AV_COUNT = CLS_AV_L0 + CLS_ACC_MAX_LOOP_DEPTH
};

/* c + sum k[v] * var[v]. */
typedef struct cls_affine {
    int64_t c;
    int64_t k[CLS_AV_COUNT];
} cls_affine;

typedef enum cls_acc_op {
    CLS_ACC_LT = 0,
    CLS_ACC_LE,
    CLS_ACC_GT,
    CLS_ACC_GE,
    CLS_ACC_EQ,
    CLS_ACC_NE
} cls_acc_op;

/* (lhs - rhs) op 0. */
typedef struct cls_acc_cond {
    cls_affine e;
    cls_acc_op op;
} cls_acc_cond;

typedef enum cls_acc_kind {
    CLS_ACC_READ = 0,   /* a global-memory read (array[global]) */
    CLS_ACC_WRITE,      /* a global-memory write (array[global]) */
    CLS_ACC_FETCH,      /* buffer[local] = array[global]: data fetch and access reference */
    CLS_ACC_LOCAL_READ, /* buffer[local] read directly (temporary storage) */
    CLS_ACC_LOCAL_WRITE,
    CLS_ACC_IF,         /* cond: then [first, first+n), else [else_first, else_first+else_n) */
    CLS_ACC_LOOP        /* variable CLS_AV_L0 + depth runs 0 .. count-1 over [first, first+n) */
} cls_acc_kind;

typedef struct cls_acc_stmt {
    cls_acc_kind kind;
    char path[CLS_ACC_PATH_MAX]; /* JSON path, for messages */
    unsigned view[CLS_ACC_MAX_DIMS]; /* work-group shape seen by tx, ty, tz here */
    int array;                   /* READ, WRITE, FETCH: index into arrays */
    cls_affine global;           /* element index into the array */
    int buffer;                  /* FETCH, LOCAL_*: index into buffers */
    cls_affine local;            /* element index into the buffer */
    cls_acc_cond cond[CLS_ACC_MAX_CONDS]; /* IF: all must hold */
    size_t n_cond;
    int depth;                   /* LOOP: nesting depth of its variable */
    int64_t count;               /* LOOP: iterations */
    size_t first, n;             /* IF (then), LOOP (body): children in stmts[] */
    size_t else_first, else_n;   /* IF: else children */
} cls_acc_stmt;

/* A global array or a local buffer. */
typedef struct cls_acc_space {
    char name[CLS_ACC_NAME_MAX];
    unsigned elem_size;          /* bytes: 1, 2, 4, 8 or 16 */
    int ndims;                   /* 1..3; dims in C order (the last varies fastest) */
    uint64_t dims[CLS_ACC_MAX_DIMS];
    uint64_t elements;
} cls_acc_space;

/* One variant: a complete description (opaque in the public header). */
struct cls_access {
    char name[CLS_ACC_NAME_MAX];
    char description[CLS_ACC_TEXT_MAX];
    char path[CLS_ACC_PATH_MAX];       /* "$.variants[2]" or "$.kernel" */
    unsigned block[CLS_ACC_MAX_DIMS];  /* work-items per work-group, x fastest */
    unsigned grid[CLS_ACC_MAX_DIMS];   /* work-groups */
    int diagonal;                      /* 1: diagonal block order (Kim & Shrivastava, Sect. 6.1) */
    unsigned registers;                /* 32-bit registers per work-item (0: unknown) */
    cls_acc_space arrays[CLS_ACC_MAX_ARRAYS];
    size_t n_arrays;
    cls_acc_space buffers[CLS_ACC_MAX_BUFFERS];
    size_t n_buffers;
    cls_acc_stmt *stmts;
    size_t n_stmts;
    size_t body_first, body_n;         /* top-level statements */
    int max_nest;                      /* deepest if/loop nesting */
    uint64_t work;                     /* work-item references the emulation evaluates */
    char work_path[CLS_ACC_PATH_MAX];  /* the statement that contributes most of them */
};

/* A description file: one kernel and its variants (one variant when it lists none); opaque in
 * the public header. */
struct cls_access_set {
    char name[CLS_ACC_NAME_MAX];
    char description[CLS_ACC_TEXT_MAX];
    char source[CLS_ACC_TEXT_MAX];
    cls_access *v;
    size_t n;
};

/* ------------------------------------------------------------------------------------------
 * Index expressions (model/access.c).  Grammar: integers, names, + - * / % and parentheses;
 * a product or quotient must have a constant side (the result stays affine), / and % need
 * constant operands (C semantics: truncation toward zero).  Names resolve, in this order, to
 * the scope's loop variables, its let entries (named sub-expressions, expanded where used), its
 * params (integer constants), and the built-ins bx by bz tx ty tz (variables) and bdx bdy bdz
 * gdx gdy gdz (the block and grid dimensions).
 * ---------------------------------------------------------------------------------------- */
typedef struct cls_acc_scope {
    const char *const *names;   /* params then lets, n_params + n_lets entries */
    const int64_t *values;      /* the params' values (n_params) */
    const char *const *lets;    /* the lets' texts (n_lets) */
    size_t n_params, n_lets;
    const char *loops[CLS_ACC_MAX_LOOP_DEPTH]; /* loop variables in scope, by depth */
    int n_loops;
    unsigned block[CLS_ACC_MAX_DIMS];
    unsigned grid[CLS_ACC_MAX_DIMS];
    int constant_only;          /* refuse variables (sizes, counts, params) */
} cls_acc_scope;

/* Parses an affine expression.  Returns 0, or -1 with a last error naming the expression. */
int cls_acc_parse_expr(const char *text, const cls_acc_scope *s, cls_affine *out);
/* Parses "e1 op e2 && e3 op e4 ..." (op one of < <= > >= == !=). */
int cls_acc_parse_cond(const char *text, const cls_acc_scope *s, cls_acc_cond *conds,
                       size_t *n_conds);
/* Parses "name[i]" or "name[i][j]..." against the spaces: *space gets the index of the named
 * one, *index the element index (row-major over its dims; one subscript is a flat index).
 * *end (when not NULL) points after the reference. */
int cls_acc_parse_ref(const char *text, const cls_acc_scope *s, const cls_acc_space *spaces,
                      size_t n_spaces, int *space, cls_affine *index, const char **end);
/* Whether a name is a built-in (bx ... gdz). */
int cls_acc_is_builtin(const char *name);
/* Whether s is a name: [A-Za-z_][A-Za-z0-9_]*, shorter than CLS_ACC_NAME_MAX. */
int cls_acc_is_name(const char *s);
/* Value of an affine expression at vars (no overflow check: cls_access_check bounds them). */
int64_t cls_affine_eval(const cls_affine *e, const int64_t *vars);

/* ------------------------------------------------------------------------------------------
 * Descriptions (model/access.c, model/access_json.c).
 * ---------------------------------------------------------------------------------------- */
/* Checks a description that was built in C or parsed: sizes, views, children ranges, loop
 * depth, and that no index can overflow 62 bits over the grid; fills a->work and
 * a->work_path.  CLS_ERR_INVALID_SPEC with the path of the bad field on failure. */
cls_status cls_access_check(cls_access *a);
/* Work-items of one work-group. */
size_t cls_access_threads(const cls_access *a);
/* Local-memory bytes of all buffers. */
uint64_t cls_access_local_bytes(const cls_access *a);

/* Releases what a variant owns (its statements). */
void cls_access_clear(cls_access *a);

#endif /* CLS_ACCESS_H */
