/* access.c: affine index expressions and the checks of an access description. */
#include "access.h"
#include "error.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LET_DEPTH_MAX 16 /* let entries expanded inside one another */

static const char *const builtin_names[] = {"bx",  "by",  "bz",  "tx",  "ty",  "tz",
                                            "bdx", "bdy", "bdz", "gdx", "gdy", "gdz"};

int cls_acc_is_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtin_names / sizeof builtin_names[0]; i++)
        if (strcmp(name, builtin_names[i]) == 0) return 1;
    return 0;
}

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

int cls_acc_is_name(const char *s)
{
    size_t n = 0;
    if (!s || !is_alpha((unsigned char)s[0])) return 0;
    for (; s[n]; n++)
        if (!is_alpha((unsigned char)s[n]) && !is_digit((unsigned char)s[n])) return 0;
    return n < CLS_ACC_NAME_MAX;
}

int64_t cls_affine_eval(const cls_affine *e, const int64_t *vars)
{
    int64_t v = e->c;
    for (int i = 0; i < CLS_AV_COUNT; i++) v += e->k[i] * vars[i];
    return v;
}

/* ------------------------------------------------------------------ affine arithmetic */

static int aff_is_const(const cls_affine *a)
{
    for (int i = 0; i < CLS_AV_COUNT; i++)
        if (a->k[i] != 0) return 0;
    return 1;
}

static int aff_add(cls_affine *a, const cls_affine *b, int sign)
{
    int64_t t;
    if (sign < 0) {
        if (b->c == INT64_MIN || __builtin_sub_overflow(a->c, b->c, &a->c)) return -1;
    } else if (__builtin_add_overflow(a->c, b->c, &a->c)) {
        return -1;
    }
    for (int i = 0; i < CLS_AV_COUNT; i++) {
        if (sign < 0 ? __builtin_sub_overflow(a->k[i], b->k[i], &t)
                     : __builtin_add_overflow(a->k[i], b->k[i], &t))
            return -1;
        a->k[i] = t;
    }
    return 0;
}

static int aff_scale(cls_affine *a, int64_t f)
{
    if (__builtin_mul_overflow(a->c, f, &a->c)) return -1;
    for (int i = 0; i < CLS_AV_COUNT; i++)
        if (__builtin_mul_overflow(a->k[i], f, &a->k[i])) return -1;
    return 0;
}

/* ------------------------------------------------------------------ parser */

typedef enum tok_kind {
    T_END = 0, T_NUM, T_NAME, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_LPAREN, T_RPAREN,
    T_LBRACK, T_RBRACK, T_LT, T_LE, T_GT, T_GE, T_EQEQ, T_NE, T_ANDAND, T_ASSIGN, T_BAD
} tok_kind;

typedef struct parser {
    const char *text; /* the whole expression, for messages */
    const char *p;    /* next character */
    const cls_acc_scope *s;
    size_t n_lets_visible; /* lets before the one being expanded (all at top level) */
    int let_depth;
    int failed;
    /* current token */
    tok_kind t;
    int64_t num;
    char name[CLS_ACC_NAME_MAX];
    const char *tok_at;
} parser;

static void perr(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void perr(parser *ps, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    if (ps->failed) return;
    ps->failed = 1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cls__error(CLS_ERR_INVALID_SPEC, "'%.120s': %s", ps->text, what);
}

static void next(parser *ps)
{
    const char *p = ps->p;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    ps->tok_at = p;
    if (*p == '\0') {
        ps->t = T_END;
        ps->p = p;
        return;
    }
    if (is_digit((unsigned char)*p)) {
        int64_t v = 0;
        while (is_digit((unsigned char)*p)) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v)) {
                perr(ps, "the number at column %d is too large", (int)(ps->tok_at - ps->text) + 1);
                ps->t = T_BAD;
                ps->p = p;
                return;
            }
            p++;
        }
        if (is_alpha((unsigned char)*p)) {
            perr(ps, "a name cannot start with a digit (column %d)",
                 (int)(ps->tok_at - ps->text) + 1);
            ps->t = T_BAD;
            ps->p = p;
            return;
        }
        ps->t = T_NUM;
        ps->num = v;
        ps->p = p;
        return;
    }
    if (is_alpha((unsigned char)*p)) {
        size_t n = 0;
        while (is_alpha((unsigned char)p[n]) || is_digit((unsigned char)p[n])) n++;
        if (n >= CLS_ACC_NAME_MAX) {
            perr(ps, "a name longer than %d characters at column %d", CLS_ACC_NAME_MAX - 1,
                 (int)(p - ps->text) + 1);
            ps->t = T_BAD;
            ps->p = p + n;
            return;
        }
        memcpy(ps->name, p, n);
        ps->name[n] = '\0';
        ps->t = T_NAME;
        ps->p = p + n;
        return;
    }
    ps->p = p + 1;
    switch (*p) {
    case '+': ps->t = T_PLUS; return;
    case '-': ps->t = T_MINUS; return;
    case '*': ps->t = T_STAR; return;
    case '/': ps->t = T_SLASH; return;
    case '%': ps->t = T_PERCENT; return;
    case '(': ps->t = T_LPAREN; return;
    case ')': ps->t = T_RPAREN; return;
    case '[': ps->t = T_LBRACK; return;
    case ']': ps->t = T_RBRACK; return;
    case '<':
        if (p[1] == '=') ps->p++, ps->t = T_LE;
        else ps->t = T_LT;
        return;
    case '>':
        if (p[1] == '=') ps->p++, ps->t = T_GE;
        else ps->t = T_GT;
        return;
    case '=':
        if (p[1] == '=') ps->p++, ps->t = T_EQEQ;
        else ps->t = T_ASSIGN;
        return;
    case '!':
        if (p[1] == '=') {
            ps->p++;
            ps->t = T_NE;
            return;
        }
        break;
    case '&':
        if (p[1] == '&') {
            ps->p++;
            ps->t = T_ANDAND;
            return;
        }
        break;
    default: break;
    }
    ps->t = T_BAD;
    perr(ps, "unexpected character '%c' at column %d", *p >= 32 && *p < 127 ? *p : '?',
         (int)(p - ps->text) + 1);
}

static void parse_sum(parser *ps, cls_affine *out);

static void set_var(cls_affine *out, int var)
{
    memset(out, 0, sizeof *out);
    out->k[var] = 1;
}

static void set_const(cls_affine *out, int64_t v)
{
    memset(out, 0, sizeof *out);
    out->c = v;
}

/* A name: loop variable, let, param, built-in. */
static void resolve(parser *ps, const char *name, cls_affine *out)
{
    const cls_acc_scope *s = ps->s;
    for (int d = s->n_loops - 1; d >= 0; d--) {
        if (s->loops[d] && strcmp(s->loops[d], name) == 0) {
            if (s->constant_only) {
                perr(ps, "'%s' is a loop variable; a constant is needed here", name);
                return;
            }
            set_var(out, CLS_AV_L0 + d);
            return;
        }
    }
    for (size_t i = 0; i < ps->n_lets_visible; i++) {
        if (strcmp(s->names[s->n_params + i], name) != 0) continue;
        if (ps->let_depth >= LET_DEPTH_MAX) {
            perr(ps, "let '%s' expands more than %d levels deep", name, LET_DEPTH_MAX);
            return;
        }
        parser sub = *ps;
        sub.text = s->lets[i];
        sub.p = s->lets[i];
        sub.n_lets_visible = i; /* a let sees only the lets before it: no cycles */
        sub.let_depth = ps->let_depth + 1;
        sub.failed = 0;
        next(&sub);
        parse_sum(&sub, out);
        if (!sub.failed && sub.t != T_END)
            perr(&sub, "unexpected text at column %d", (int)(sub.tok_at - sub.text) + 1);
        if (sub.failed) perr(ps, "in let '%s': %s", name, cls__error_message());
        return;
    }
    for (size_t i = 0; i < s->n_params; i++) {
        if (strcmp(s->names[i], name) == 0) {
            set_const(out, s->values[i]);
            return;
        }
    }
    static const char *const vars[] = {"bx", "by", "bz", "tx", "ty", "tz"};
    static const char *const dims[] = {"bdx", "bdy", "bdz", "gdx", "gdy", "gdz"};
    for (int i = 0; i < 6; i++) {
        if (strcmp(name, vars[i]) == 0) {
            if (s->constant_only) {
                perr(ps, "'%s' is an index; a constant is needed here", name);
                return;
            }
            set_var(out, CLS_AV_BX + i);
            return;
        }
        if (strcmp(name, dims[i]) == 0) {
            unsigned v = i < 3 ? s->block[i] : s->grid[i - 3];
            if (v == 0) {
                perr(ps, "'%s' is not known yet here (the block and grid are read first)", name);
                return;
            }
            set_const(out, v);
            return;
        }
    }
    perr(ps, "unknown name '%s'", name);
}

static void parse_primary(parser *ps, cls_affine *out)
{
    set_const(out, 0);
    if (ps->failed) return;
    switch (ps->t) {
    case T_NUM:
        set_const(out, ps->num);
        next(ps);
        return;
    case T_NAME: {
        char name[CLS_ACC_NAME_MAX];
        memcpy(name, ps->name, sizeof name);
        next(ps);
        if (ps->t == T_LBRACK || ps->t == T_LPAREN) {
            perr(ps, "'%s' is used as an array or function inside an index", name);
            return;
        }
        resolve(ps, name, out);
        return;
    }
    case T_LPAREN:
        next(ps);
        parse_sum(ps, out);
        if (ps->failed) return;
        if (ps->t != T_RPAREN) {
            perr(ps, "')' expected at column %d", (int)(ps->tok_at - ps->text) + 1);
            return;
        }
        next(ps);
        return;
    case T_MINUS:
        next(ps);
        parse_primary(ps, out);
        if (!ps->failed && aff_scale(out, -1) != 0) perr(ps, "the value overflows 64 bits");
        return;
    case T_PLUS:
        next(ps);
        parse_primary(ps, out);
        return;
    case T_END: perr(ps, "an operand is missing at the end"); return;
    case T_BAD: return;
    default:
        perr(ps, "an operand is expected at column %d", (int)(ps->tok_at - ps->text) + 1);
        return;
    }
}

static void parse_product(parser *ps, cls_affine *out)
{
    parse_primary(ps, out);
    while (!ps->failed && (ps->t == T_STAR || ps->t == T_SLASH || ps->t == T_PERCENT)) {
        tok_kind op = ps->t;
        cls_affine rhs;
        next(ps);
        parse_primary(ps, &rhs);
        if (ps->failed) return;
        if (op == T_STAR) {
            if (aff_is_const(&rhs)) {
                if (aff_scale(out, rhs.c) != 0) perr(ps, "the value overflows 64 bits");
            } else if (aff_is_const(out)) {
                int64_t f = out->c;
                *out = rhs;
                if (aff_scale(out, f) != 0) perr(ps, "the value overflows 64 bits");
            } else {
                perr(ps, "a product of two indices is not affine");
            }
            continue;
        }
        if (!aff_is_const(out) || !aff_is_const(&rhs)) {
            perr(ps, "'%c' needs constant operands (the index must stay affine)",
                 op == T_SLASH ? '/' : '%');
            return;
        }
        if (rhs.c == 0) {
            perr(ps, "division by zero");
            return;
        }
        if (out->c == INT64_MIN && rhs.c == -1) {
            perr(ps, "the value overflows 64 bits");
            return;
        }
        out->c = op == T_SLASH ? out->c / rhs.c : out->c % rhs.c;
    }
}

static void parse_sum(parser *ps, cls_affine *out)
{
    parse_product(ps, out);
    while (!ps->failed && (ps->t == T_PLUS || ps->t == T_MINUS)) {
        int sign = ps->t == T_PLUS ? 1 : -1;
        cls_affine rhs;
        next(ps);
        parse_product(ps, &rhs);
        if (ps->failed) return;
        if (aff_add(out, &rhs, sign) != 0) perr(ps, "the value overflows 64 bits");
    }
}

static void parser_init(parser *ps, const char *text, const cls_acc_scope *s)
{
    memset(ps, 0, sizeof *ps);
    ps->text = text;
    ps->p = text;
    ps->s = s;
    ps->n_lets_visible = s->n_lets;
    next(ps);
}

int cls_acc_parse_expr(const char *text, const cls_acc_scope *s, cls_affine *out)
{
    parser ps;
    parser_init(&ps, text, s);
    parse_sum(&ps, out);
    if (!ps.failed && ps.t != T_END)
        perr(&ps, "unexpected text at column %d", (int)(ps.tok_at - ps.text) + 1);
    return ps.failed ? -1 : 0;
}

int cls_acc_parse_cond(const char *text, const cls_acc_scope *s, cls_acc_cond *conds,
                       size_t *n_conds)
{
    parser ps;
    parser_init(&ps, text, s);
    *n_conds = 0;
    for (;;) {
        cls_affine lhs, rhs;
        cls_acc_op op;
        parse_sum(&ps, &lhs);
        if (ps.failed) return -1;
        switch (ps.t) {
        case T_LT: op = CLS_ACC_LT; break;
        case T_LE: op = CLS_ACC_LE; break;
        case T_GT: op = CLS_ACC_GT; break;
        case T_GE: op = CLS_ACC_GE; break;
        case T_EQEQ: op = CLS_ACC_EQ; break;
        case T_NE: op = CLS_ACC_NE; break;
        default:
            perr(&ps, "a comparison (< <= > >= == !=) is expected at column %d",
                 (int)(ps.tok_at - ps.text) + 1);
            return -1;
        }
        next(&ps);
        parse_sum(&ps, &rhs);
        if (ps.failed) return -1;
        if (*n_conds >= CLS_ACC_MAX_CONDS) {
            perr(&ps, "more than %d comparisons joined by &&", CLS_ACC_MAX_CONDS);
            return -1;
        }
        if (aff_add(&lhs, &rhs, -1) != 0) {
            perr(&ps, "the value overflows 64 bits");
            return -1;
        }
        conds[*n_conds].e = lhs;
        conds[*n_conds].op = op;
        ++*n_conds;
        if (ps.t == T_END) return 0;
        if (ps.t != T_ANDAND) {
            perr(&ps, "'&&' or the end is expected at column %d", (int)(ps.tok_at - ps.text) + 1);
            return -1;
        }
        next(&ps);
    }
}

int cls_acc_parse_ref(const char *text, const cls_acc_scope *s, const cls_acc_space *spaces,
                      size_t n_spaces, int *space, cls_affine *index, const char **end)
{
    parser ps;
    const cls_acc_space *sp = NULL;
    cls_affine sub[CLS_ACC_MAX_DIMS];
    int nsub = 0;
    parser_init(&ps, text, s);
    if (ps.t != T_NAME) {
        perr(&ps, "a reference NAME[index] is expected");
        return -1;
    }
    for (size_t i = 0; i < n_spaces; i++) {
        if (strcmp(spaces[i].name, ps.name) == 0) {
            sp = &spaces[i];
            *space = (int)i;
        }
    }
    if (!sp) {
        perr(&ps, "'%s' is not declared here", ps.name);
        return -1;
    }
    next(&ps);
    while (ps.t == T_LBRACK) {
        if (nsub == CLS_ACC_MAX_DIMS) {
            perr(&ps, "more than %d subscripts", CLS_ACC_MAX_DIMS);
            return -1;
        }
        next(&ps);
        parse_sum(&ps, &sub[nsub]);
        if (ps.failed) return -1;
        if (ps.t != T_RBRACK) {
            perr(&ps, "']' expected at column %d", (int)(ps.tok_at - ps.text) + 1);
            return -1;
        }
        nsub++;
        next(&ps);
    }
    if (ps.failed) return -1;
    if (nsub == 0) {
        perr(&ps, "'%s' needs a subscript", sp->name);
        return -1;
    }
    if (nsub != 1 && nsub != sp->ndims) {
        perr(&ps, "'%s' has %d dimensions but %d subscripts are given (one flat index is also "
                  "accepted)",
             sp->name, sp->ndims, nsub);
        return -1;
    }
    *index = sub[0];
    for (int d = 1; d < nsub; d++) {
        if (aff_scale(index, (int64_t)sp->dims[d]) != 0 || aff_add(index, &sub[d], 1) != 0) {
            perr(&ps, "the value overflows 64 bits");
            return -1;
        }
    }
    if (end) {
        *end = ps.tok_at;
    } else if (ps.t != T_END) {
        perr(&ps, "unexpected text at column %d", (int)(ps.tok_at - ps.text) + 1);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ checks */

size_t cls_access_threads(const cls_access *a)
{
    return (size_t)a->block[0] * a->block[1] * a->block[2];
}

uint64_t cls_access_local_bytes(const cls_access *a)
{
    uint64_t total = 0;
    for (size_t i = 0; i < a->n_buffers; i++)
        total += a->buffers[i].elements * a->buffers[i].elem_size;
    return total;
}

static int elem_size_ok(unsigned e) { return e == 1 || e == 2 || e == 4 || e == 8 || e == 16; }

typedef struct checker {
    cls_access *a;
    double trips;      /* iterations of the enclosing loops */
    double ranges[CLS_AV_COUNT];
    int n_refs;        /* global references seen */
    double best_work;
} checker;

/* Largest |value| an index can take over its variables' ranges (double: approximate, used
 * against a bound far below 2^63). */
static double bound_of(const cls_affine *e, const double *ranges)
{
    double b = fabs((double)e->c);
    for (int i = 0; i < CLS_AV_COUNT; i++) b += fabs((double)e->k[i]) * (ranges[i] - 1.0);
    return b;
}

#define INDEX_BOUND 4.0e18 /* below 2^62 */

static cls_status check_list(checker *c, size_t first, size_t n, size_t parent, int nest,
                             int loops, const unsigned *view);

static cls_status check_stmt(checker *c, size_t i, int nest, int loops, const unsigned *inherited)
{
    cls_access *a = c->a;
    cls_acc_stmt *st = &a->stmts[i];
    size_t threads = cls_access_threads(a);
    const unsigned *view = inherited;
    double saved[3];

    if (st->view[0] || st->view[1] || st->view[2]) {
        for (int d = 0; d < CLS_ACC_MAX_DIMS; d++) {
            if (st->view[d] == 0)
                return cls__error(CLS_ERR_INVALID_SPEC,
                                  "%s.view: every dimension must be at least 1", st->path);
        }
        if ((size_t)st->view[0] * st->view[1] * st->view[2] != threads)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s.view: %ux%ux%u is %zu work-items but the work-group has %zu",
                              st->path, st->view[0], st->view[1], st->view[2],
                              (size_t)st->view[0] * st->view[1] * st->view[2], threads);
        view = st->view;
    }
    for (int d = 0; d < 3; d++) {
        saved[d] = c->ranges[CLS_AV_TX + d];
        c->ranges[CLS_AV_TX + d] = view[d];
    }
    switch (st->kind) {
    case CLS_ACC_READ:
    case CLS_ACC_WRITE:
    case CLS_ACC_FETCH: {
        double w;
        if (st->array < 0 || (size_t)st->array >= a->n_arrays)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: no such array", st->path);
        if (bound_of(&st->global, c->ranges) > INDEX_BOUND)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: the global index can exceed 2^62 over the grid", st->path);
        c->n_refs++;
        w = c->trips * (double)threads * (double)a->grid[0] * a->grid[1] * a->grid[2];
        if (w > c->best_work) {
            c->best_work = w;
            snprintf(a->work_path, sizeof a->work_path, "%s", st->path);
        }
        a->work = (double)a->work + w >= 1.8e19 ? UINT64_MAX : a->work + (uint64_t)w;
        if (st->kind != CLS_ACC_FETCH) break;
    }
        /* fall through */
    case CLS_ACC_LOCAL_READ: /* (a fetch also has a local index) */
    case CLS_ACC_LOCAL_WRITE:
        if (st->buffer < 0 || (size_t)st->buffer >= a->n_buffers)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: no such buffer", st->path);
        if (st->kind == CLS_ACC_FETCH &&
            a->buffers[st->buffer].elem_size != a->arrays[st->array].elem_size) {
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: buffer '%s' holds %u-byte elements but array '%s' %u-byte ones",
                              st->path, a->buffers[st->buffer].name,
                              a->buffers[st->buffer].elem_size, a->arrays[st->array].name,
                              a->arrays[st->array].elem_size);
        }
        if (bound_of(&st->local, c->ranges) > INDEX_BOUND)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: the local index can exceed 2^62",
                              st->path);
        if (st->kind != CLS_ACC_FETCH) {
            double w = c->trips * (double)threads * (double)a->grid[0] * a->grid[1] * a->grid[2];
            a->work = (double)a->work + w >= 1.8e19 ? UINT64_MAX : a->work + (uint64_t)w;
        }
        break;
    case CLS_ACC_IF: {
        cls_status s;
        if (st->n_cond == 0 || st->n_cond > CLS_ACC_MAX_CONDS)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: a condition needs 1 to %d comparisons",
                              st->path, CLS_ACC_MAX_CONDS);
        for (size_t k = 0; k < st->n_cond; k++) {
            if (bound_of(&st->cond[k].e, c->ranges) > INDEX_BOUND)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: the condition can exceed 2^62",
                                  st->path);
        }
        s = check_list(c, st->first, st->n, i, nest + 1, loops, view);
        if (s == CLS_SUCCESS)
            s = check_list(c, st->else_first, st->else_n, i, nest + 1, loops, view);
        if (s != CLS_SUCCESS) return s;
        break;
    }
    case CLS_ACC_LOOP: {
        cls_status s;
        double saved_trips = c->trips;
        if (st->depth != loops || loops >= CLS_ACC_MAX_LOOP_DEPTH)
            return cls__error(
                CLS_ERR_INVALID_SPEC,
                "%s: loops nested %d deep; the emulation follows at most %d (each level "
                "multiplies the work: describe the innermost loops by their pattern instead)",
                st->path, loops + 1, CLS_ACC_MAX_LOOP_DEPTH);
        if (st->count < 1 || st->count > CLS_ACC_MAX_LOOP_COUNT)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s.count: must be 1 to %d, got %" PRId64,
                              st->path, CLS_ACC_MAX_LOOP_COUNT, st->count);
        c->ranges[CLS_AV_L0 + loops] = (double)st->count;
        c->trips *= (double)st->count;
        s = check_list(c, st->first, st->n, i, nest + 1, loops + 1, view);
        c->trips = saved_trips;
        c->ranges[CLS_AV_L0 + loops] = 1;
        if (s != CLS_SUCCESS) return s;
        break;
    }
    default: return cls__error(CLS_ERR_INVALID_SPEC, "%s: unknown statement kind", st->path);
    }
    for (int d = 0; d < 3; d++) c->ranges[CLS_AV_TX + d] = saved[d];
    return CLS_SUCCESS;
}

static cls_status check_list(checker *c, size_t first, size_t n, size_t parent, int nest,
                             int loops, const unsigned *view)
{
    cls_access *a = c->a;
    if (n == 0) return CLS_SUCCESS;
    if (nest > CLS_ACC_MAX_NEST)
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s: if and loop statements nested more than %d deep",
                          a->stmts[parent].path, CLS_ACC_MAX_NEST);
    /* Children follow their parent: the statements form a tree and every walk ends. */
    if (first > a->n_stmts || n > a->n_stmts - first ||
        (parent != SIZE_MAX && first <= parent)) {
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: statement list out of range",
                          parent == SIZE_MAX ? a->path : a->stmts[parent].path);
    }
    if (nest > a->max_nest) a->max_nest = nest;
    for (size_t i = first; i < first + n; i++) {
        cls_status s = check_stmt(c, i, nest, loops, view);
        if (s != CLS_SUCCESS) return s;
    }
    return CLS_SUCCESS;
}

static cls_status check_space(const cls_acc_space *sp, const char *path, const char *what)
{
    uint64_t n = 1;
    if (!cls_acc_is_name(sp->name) || cls_acc_is_builtin(sp->name))
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: '%s' is not a usable %s name", path, sp->name,
                          what);
    if (!elem_size_ok(sp->elem_size))
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s.%s.elem_size: must be 1, 2, 4, 8 or 16 bytes, got %u", path, sp->name,
                          sp->elem_size);
    if (sp->ndims < 1 || sp->ndims > CLS_ACC_MAX_DIMS)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s.%s: 1 to %d dimensions, got %d", path, sp->name,
                          CLS_ACC_MAX_DIMS, sp->ndims);
    for (int d = 0; d < sp->ndims; d++) {
        if (sp->dims[d] == 0 || __builtin_mul_overflow(n, sp->dims[d], &n) ||
            n > CLS_ACC_MAX_ARRAY_BYTES) {
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s.%s: every extent must be positive and the %s at most "
                              "2^40 bytes",
                              path, sp->name, what);
        }
    }
    if (n != sp->elements || n * sp->elem_size > CLS_ACC_MAX_ARRAY_BYTES)
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s.%s: %" PRIu64 " elements of %u bytes: at most 2^40 bytes and "
                          "the product of the extents",
                          path, sp->name, sp->elements, sp->elem_size);
    return CLS_SUCCESS;
}

cls_status cls_access_check(cls_access *a)
{
    checker c;
    cls_status s;
    uint64_t blocks = 1;

    if (!a) return cls__error(CLS_ERR_INVALID_ARGUMENT, "no description");
    for (int d = 0; d < CLS_ACC_MAX_DIMS; d++) {
        if (a->block[d] == 0)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s.block: a zero-sized work-group (dimension %d is 0)", a->path, d);
        if (a->grid[d] == 0)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s.grid: an empty grid (dimension %d is 0)",
                              a->path, d);
        blocks *= a->grid[d];
        if (blocks > CLS_ACC_MAX_GRID)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s.grid: more than %u work-groups", a->path,
                              CLS_ACC_MAX_GRID);
    }
    if ((uint64_t)a->block[0] * a->block[1] * a->block[2] > CLS_ACC_MAX_THREADS)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s.block: %ux%ux%u work-items, at most %d",
                          a->path, a->block[0], a->block[1], a->block[2], CLS_ACC_MAX_THREADS);
    if (a->n_arrays == 0 || a->n_arrays > CLS_ACC_MAX_ARRAYS)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s.arrays: 1 to %d global arrays are needed",
                          a->path, CLS_ACC_MAX_ARRAYS);
    if (a->n_buffers > CLS_ACC_MAX_BUFFERS)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s.buffers: at most %d", a->path,
                          CLS_ACC_MAX_BUFFERS);
    for (size_t i = 0; i < a->n_arrays; i++) {
        char path[CLS_ACC_PATH_MAX + 8];
        snprintf(path, sizeof path, "%s.arrays", a->path);
        s = check_space(&a->arrays[i], path, "array");
        if (s != CLS_SUCCESS) return s;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(a->arrays[i].name, a->arrays[j].name) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s.arrays.%s: declared twice", a->path,
                                  a->arrays[i].name);
        }
    }
    for (size_t i = 0; i < a->n_buffers; i++) {
        char path[CLS_ACC_PATH_MAX + 8];
        snprintf(path, sizeof path, "%s.buffers", a->path);
        s = check_space(&a->buffers[i], path, "buffer");
        if (s != CLS_SUCCESS) return s;
        if (a->buffers[i].elements > CLS_ACC_MAX_BUFFER_ELEMS)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s.buffers.%s: %" PRIu64 " elements, at most %u", a->path,
                              a->buffers[i].name, a->buffers[i].elements, CLS_ACC_MAX_BUFFER_ELEMS);
        for (size_t j = 0; j < a->n_arrays; j++) {
            if (strcmp(a->buffers[i].name, a->arrays[j].name) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s.buffers.%s: an array has the same name",
                                  a->path, a->buffers[i].name);
        }
        for (size_t j = 0; j < i; j++) {
            if (strcmp(a->buffers[i].name, a->buffers[j].name) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s.buffers.%s: declared twice", a->path,
                                  a->buffers[i].name);
        }
    }
    if (a->n_stmts > CLS_ACC_MAX_STMTS || (a->n_stmts > 0 && !a->stmts))
        return cls__error(CLS_ERR_INVALID_SPEC, "%s.body: at most %d statements", a->path,
                          CLS_ACC_MAX_STMTS);
    memset(&c, 0, sizeof c);
    c.a = a;
    c.trips = 1;
    for (int i = 0; i < CLS_AV_COUNT; i++) c.ranges[i] = 1;
    {
        /* the diagonal order keeps bx in [0, gdx) and by in [0, gdy) */
        for (int d = 0; d < 3; d++) c.ranges[CLS_AV_BX + d] = a->grid[d];
    }
    a->work = 0;
    a->work_path[0] = '\0';
    a->max_nest = 0;
    s = check_list(&c, a->body_first, a->body_n, SIZE_MAX, 0, 0, a->block);
    if (s != CLS_SUCCESS) return s;
    if (c.n_refs == 0)
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s.body: no global-memory reference to analyse (read, write or "
                          "fetch)",
                          a->path);
    return CLS_SUCCESS;
}

void cls_access_clear(cls_access *a)
{
    if (!a) return;
    free(a->stmts);
    a->stmts = NULL;
    a->n_stmts = 0;
}

void cls_access_set_free(cls_access_set *set)
{
    if (!set) return;
    for (size_t i = 0; i < set->n; i++) cls_access_clear(&set->v[i]);
    free(set->v);
    free(set);
}

const char *cls_access_set_name(const cls_access_set *set) { return set ? set->name : ""; }

const char *cls_access_set_description(const cls_access_set *set)
{
    return set ? set->description : "";
}

const char *cls_access_set_source(const cls_access_set *set) { return set ? set->source : ""; }

size_t cls_access_set_count(const cls_access_set *set) { return set ? set->n : 0; }

const cls_access *cls_access_set_variant(const cls_access_set *set, size_t i)
{
    return set && i < set->n ? &set->v[i] : NULL;
}

const char *cls_access_name(const cls_access *a) { return a ? a->name : ""; }

const char *cls_access_description(const cls_access *a) { return a ? a->description : ""; }
