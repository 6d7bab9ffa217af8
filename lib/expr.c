/* expr.c: the stencil body language: lexer, type checker, OpenCL C emitter, host interpreter. */
#include "expr.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The interpreter must round every operation like the device does (FP_CONTRACT OFF there). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ------------------------------------------------------------------------------------------
 * Representation.  The parser builds an AST in one array; children are always created before
 * their parent, so index order is a post-order.  Every implicit conversion is an explicit
 * node, so the emitted OpenCL never relies on the device compiler's conversion rules.
 * ---------------------------------------------------------------------------------------- */
enum { T_INT = 0, T_FLOAT = 1, T_DOUBLE = 2 };

enum {
    N_INT,     /* v.i */
    N_REAL,    /* v.d holds the exact value of type `type` (float or double) */
    N_PARAM,   /* v.i = parameter index */
    N_LOCAL,   /* v.i = local index */
    N_SPECIAL, /* v.i = SP_X ... */
    N_IN,      /* v.i = access index */
    N_AUX,     /* v.i = access index */
    N_NEG,
    N_NOT,
    N_CONV,    /* sub = spelling: 0 implicit, else a KW_ type keyword */
    N_BIN,     /* sub = B_ op */
    N_TERN,
    N_CALL     /* sub = F_ function */
};

enum { B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_LT, B_LE, B_GT, B_GE, B_EQ, B_NE, B_AND, B_OR };
static const char *const bin_text[] = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==",
                                       "!=", "&&", "||"};

enum { SP_X, SP_Y, SP_Z, SP_NX, SP_NY, SP_NZ, SP_STEP, SP_COUNT };
static const char *const special_names[] = {"X", "Y", "Z", "NX", "NY", "NZ", "STEP"};

/* Type keywords (their order is the KW_ value, used as cast spelling; 0 = implicit). */
enum { KW_NONE, KW_REAL, KW_FLOAT, KW_DOUBLE, KW_INT };
static const char *const type_kw[] = {"", "real", "float", "double", "int"};

enum {
    F_FMIN, F_FMAX, F_FABS, F_FLOOR, F_CEIL, F_TRUNC, F_ROUND, F_SQRT, F_FMA, F_COPYSIGN,
    F_MIN, F_MAX, F_CLAMP,
    F_EXP, F_EXP2, F_EXP10, F_LOG, F_LOG2, F_LOG10, F_POW, F_SIN, F_COS, F_TAN, F_TANH,
    F_SINH, F_COSH, F_ASIN, F_ACOS, F_ATAN, F_ATAN2, F_CBRT, F_HYPOT, F_ERF, F_COUNT
};
static const struct {
    const char *name;
    unsigned char nargs;
    unsigned char exact;  /* correctly rounded on both sides */
    unsigned char minmax; /* integer version when every argument is int */
} funcs[F_COUNT] = {
    {"fmin", 2, 1, 0},  {"fmax", 2, 1, 0},  {"fabs", 1, 1, 0},  {"floor", 1, 1, 0},
    {"ceil", 1, 1, 0},  {"trunc", 1, 1, 0}, {"round", 1, 1, 0}, {"sqrt", 1, 1, 0},
    {"fma", 3, 1, 0},   {"copysign", 2, 1, 0},
    {"min", 2, 1, 1},   {"max", 2, 1, 1},   {"clamp", 3, 1, 1},
    {"exp", 1, 0, 0},   {"exp2", 1, 0, 0},  {"exp10", 1, 0, 0}, {"log", 1, 0, 0},
    {"log2", 1, 0, 0},  {"log10", 1, 0, 0}, {"pow", 2, 0, 0},   {"sin", 1, 0, 0},
    {"cos", 1, 0, 0},   {"tan", 1, 0, 0},   {"tanh", 1, 0, 0},  {"sinh", 1, 0, 0},
    {"cosh", 1, 0, 0},  {"asin", 1, 0, 0},  {"acos", 1, 0, 0},  {"atan", 1, 0, 0},
    {"atan2", 2, 0, 0}, {"cbrt", 1, 0, 0},  {"hypot", 2, 0, 0}, {"erf", 1, 0, 0},
};

typedef struct node {
    unsigned char kind, type, sub, nk;
    int32_t kid[3];
    union {
        int32_t i;
        double d;
    } v;
} node;

typedef struct access {
    int array; /* -1 - f: field f (-1: IN of a single-field body), else aux index */
    int off[3];
} access;

typedef struct local {
    char *name;
    size_t len;
    unsigned char type;     /* T_ */
    unsigned char spelling; /* KW_ as written */
    unsigned char is_const;
} local;

typedef struct stmt {
    int32_t local; /* -1 for the final return */
    int32_t first; /* first node created for this statement */
    int32_t root;
} stmt;

/* Bytecode of the interpreter: a stack machine whose bottom slots are the locals. */
enum {
    OP_PUSH, OP_PARAM, OP_LOCAL, OP_SPECIAL, OP_IN, OP_AUX, OP_NEG, OP_NOT, OP_CONV,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
    OP_BOOL, OP_JZ_KEEP, OP_JNZ_KEEP, OP_JZ_POP, OP_JMP, OP_CALL, OP_RET
};

typedef struct ins {
    unsigned char op, t, t2;
    int32_t a;
    union {
        int32_t i;
        double d;
    } imm;
} ins;

typedef union val {
    int32_t i;
    float f;
    double d;
} val;

struct cls_expr {
    int dims;
    int real_is_double;
    unsigned char real_t; /* T_FLOAT or T_DOUBLE */
    size_t n_aux;
    size_t n_fields; /* 0: single-field body */
    size_t n_params;
    char **param_names;
    node *nodes;
    size_t n_nodes, cap_nodes;
    access *acc;
    size_t n_acc, cap_acc;
    local *locals;
    size_t n_locals, cap_locals;
    int32_t *hash; /* open addressing over locals: index + 1, 0 = empty */
    size_t hash_cap;
    stmt *stmts;
    size_t n_stmts, cap_stmts;
    ins *code;
    size_t n_code, cap_code;
    size_t slots; /* stack slots the interpreter needs */
    int exact;
    size_t flops;
    size_t in_reads;
};

/* Grows an array to hold at least `need` elements; 0 or -1 (out of memory). */
static int grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem) return -1;
        n *= 2;
    }
    if (n > (size_t)INT32_MAX) return -1;
    void *p = realloc(*ptr, n * elem);
    if (!p) return -1;
    *ptr = p;
    *cap = n;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Locale-independent number text (strtod and printf follow LC_NUMERIC).
 * ---------------------------------------------------------------------------------------- */
static const char *decimal_point(void)
{
    const struct lconv *lc = localeconv();
    return (lc && lc->decimal_point && lc->decimal_point[0]) ? lc->decimal_point : ".";
}

/* Converts text[0..len) (a validated decimal floating literal) with strtod. */
static int parse_double(const char *text, size_t len, double *out)
{
    const char *dp = decimal_point();
    size_t dpl = strlen(dp);
    char small[128];
    size_t need = len * (dpl > 1 ? dpl : 1) + 1;
    char *buf = need <= sizeof small ? small : malloc(need);
    if (!buf) return -2;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '.') {
            memcpy(buf + o, dp, dpl);
            o += dpl;
        } else {
            buf[o++] = text[i];
        }
    }
    buf[o] = 0;
    *out = strtod(buf, NULL);
    if (buf != small) free(buf);
    return 0;
}

/* Prints a finite value so that a C/OpenCL compiler reads back exactly `v` of its type. */
static void format_real(char *out, size_t n, double v, int is_float)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, is_float ? "%.9g" : "%.17g", v);
    const char *dp = decimal_point();
    size_t dpl = strlen(dp), o = 0;
    int has_point = 0;
    for (size_t i = 0; tmp[i] && o + 3 < n;) {
        if (dpl && strncmp(tmp + i, dp, dpl) == 0) {
            out[o++] = '.';
            i += dpl;
            has_point = 1;
        } else {
            if (tmp[i] == 'e') has_point = 1;
            out[o++] = tmp[i++];
        }
    }
    /* "1" would be an int literal and "-0" an int negation (losing the zero's sign). */
    if (!has_point) {
        out[o++] = '.';
        out[o++] = '0';
    }
    out[o] = 0;
}

/* ------------------------------------------------------------------------------------------
 * Lexer
 * ---------------------------------------------------------------------------------------- */
enum { TK_EOF = 256, TK_IDENT, TK_INT, TK_REAL, TK_LE, TK_GE, TK_EQ, TK_NE, TK_AND, TK_OR };

typedef struct tok {
    int kind;
    size_t pos, len;
    int line, col;
    int32_t ival;
    double dval;
} tok;

typedef struct lexstate {
    size_t pos;
    int line;
    size_t line_start;
} lexstate;

typedef struct parser {
    const char *src;
    size_t len;
    const cls_expr_env *env;
    cls_expr *e;
    lexstate ls;
    tok cur;
    int depth;
    int status; /* 0, -1 syntax/semantic error, -2 out of memory */
    const char *declaring; /* name of the local whose initializer is being parsed */
    size_t declaring_len;
    char *err;
    size_t errlen;
} parser;

static int fail_at(parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(parser *p, int line, int col, const char *fmt, ...)
{
    if (p->status) return -1;
    p->status = -1;
    if (p->err && p->errlen) {
        int n = snprintf(p->err, p->errlen, "line %d, column %d: ", line, col);
        if (n >= 0 && (size_t)n < p->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static int oom(parser *p)
{
    if (p->status) return -1;
    p->status = -2;
    if (p->err && p->errlen) snprintf(p->err, p->errlen, "out of memory");
    return -1;
}

/* Quotes source text for a message, at most 40 bytes, non-printable bytes as \xNN. */
static void quote(const char *s, size_t len, char *out, size_t n)
{
    size_t o = 0;
    out[o++] = '\'';
    for (size_t i = 0; i < len && o + 8 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 40) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
        } else {
            snprintf(out + o, n - o, "\\x%02x", c);
            o += 4;
        }
    }
    out[o++] = '\'';
    out[o] = 0;
}

static void tok_desc(const parser *p, const tok *t, char *out, size_t n)
{
    if (t->kind == TK_EOF)
        snprintf(out, n, "end of body");
    else
        quote(p->src + t->pos, t->len, out, n);
}

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_ident_char(int c) { return is_ident_start(c) || is_digit(c); }

static int lex_number(parser *p, lexstate *ls, tok *t, int quiet)
{
    const char *s = p->src;
    size_t i = ls->pos, start = i;
    int is_real = 0;
    while (i < p->len && is_digit((unsigned char)s[i])) i++;
    size_t int_end = i;
    if (i < p->len && s[i] == '.') {
        is_real = 1;
        i++;
        while (i < p->len && is_digit((unsigned char)s[i])) i++;
    }
    int bad_exp = 0;
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        is_real = 1;
        i++;
        if (i < p->len && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= p->len || !is_digit((unsigned char)s[i])) bad_exp = 1;
        while (i < p->len && is_digit((unsigned char)s[i])) i++;
    }
    size_t num_end = i;
    if (is_real && !bad_exp && i < p->len && (s[i] == 'f' || s[i] == 'F')) i++;
    /* Whatever still sticks to the literal makes it malformed (0x1F, 1.5.2, 10u, 1f). */
    size_t j = i;
    while (j < p->len && (is_ident_char((unsigned char)s[j]) || s[j] == '.')) j++;
    t->pos = start;
    t->len = j - start;
    if (bad_exp || j != i) {
        if (quiet) return -1;
        char q[64];
        quote(s + start, j - start, q, sizeof q);
        return fail_at(p, t->line, t->col, "malformed number %s", q);
    }
    if (!is_real) {
        if (int_end - start > 1 && s[start] == '0') {
            if (quiet) return -1;
            char q[64];
            quote(s + start, j - start, q, sizeof q);
            return fail_at(p, t->line, t->col, "octal literals are not supported: %s", q);
        }
        int64_t v = 0;
        for (size_t k = start; k < int_end; k++) {
            v = v * 10 + (s[k] - '0');
            if (v > INT32_MAX) {
                if (quiet) return -1;
                char q[64];
                quote(s + start, j - start, q, sizeof q);
                return fail_at(p, t->line, t->col, "integer literal %s out of range", q);
            }
        }
        t->kind = TK_INT;
        t->ival = (int32_t)v;
    } else {
        double d;
        if (parse_double(s + start, num_end - start, &d) < 0) return quiet ? -1 : oom(p);
        /* Floating literals have the stencil's real type (documented rule). */
        if (!p->env->real_is_double) d = (double)(float)d;
        if (isinf(d)) {
            if (quiet) return -1;
            char q[64];
            quote(s + start, j - start, q, sizeof q);
            return fail_at(p, t->line, t->col, "floating literal %s out of range for real (%s)",
                           q, p->env->real_is_double ? "double" : "float");
        }
        t->kind = TK_REAL;
        t->dval = d;
    }
    ls->pos = i;
    return 0;
}

/* Reads the next token at ls into t; 0 or -1 (error reported unless quiet). */
static int lex(parser *p, lexstate *ls, tok *t, int quiet)
{
    const char *s = p->src;
    for (;;) {
        while (ls->pos < p->len) {
            char c = s[ls->pos];
            if (c == '\n') {
                ls->pos++;
                ls->line++;
                ls->line_start = ls->pos;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
                ls->pos++;
            } else {
                break;
            }
        }
        if (ls->pos + 1 < p->len && s[ls->pos] == '/' && s[ls->pos + 1] == '/') {
            while (ls->pos < p->len && s[ls->pos] != '\n') ls->pos++;
            continue;
        }
        if (ls->pos + 1 < p->len && s[ls->pos] == '/' && s[ls->pos + 1] == '*') {
            int line = ls->line, col = (int)(ls->pos - ls->line_start) + 1;
            size_t i = ls->pos + 2;
            for (;;) {
                if (i + 1 >= p->len) {
                    if (quiet) return -1;
                    return fail_at(p, line, col, "unterminated comment");
                }
                if (s[i] == '*' && s[i + 1] == '/') break;
                if (s[i] == '\n') {
                    ls->line++;
                    ls->line_start = i + 1;
                }
                i++;
            }
            ls->pos = i + 2;
            continue;
        }
        break;
    }
    t->pos = ls->pos;
    t->len = 1;
    t->line = ls->line;
    t->col = (int)(ls->pos - ls->line_start) + 1;
    if (ls->pos >= p->len) {
        t->kind = TK_EOF;
        t->len = 0;
        return 0;
    }
    unsigned char c = (unsigned char)s[ls->pos];
    unsigned char c2 = ls->pos + 1 < p->len ? (unsigned char)s[ls->pos + 1] : 0;
    if (is_ident_start(c)) {
        size_t i = ls->pos;
        while (i < p->len && is_ident_char((unsigned char)s[i])) i++;
        t->kind = TK_IDENT;
        t->len = i - ls->pos;
        ls->pos = i;
        return 0;
    }
    if (is_digit(c) || (c == '.' && is_digit(c2))) return lex_number(p, ls, t, quiet);
    static const struct {
        char a, b;
        int kind;
    } two[] = {{'<', '=', TK_LE}, {'>', '=', TK_GE}, {'=', '=', TK_EQ},
               {'!', '=', TK_NE}, {'&', '&', TK_AND}, {'|', '|', TK_OR}};
    for (size_t k = 0; k < sizeof two / sizeof two[0]; k++) {
        if (c == (unsigned char)two[k].a && c2 == (unsigned char)two[k].b) {
            t->kind = two[k].kind;
            t->len = 2;
            ls->pos += 2;
            return 0;
        }
    }
    if ((c == '+' || c == '-') && c2 == c) {
        if (quiet) return -1;
        return fail_at(p, t->line, t->col, "operator '%c%c' is not supported", c, c);
    }
    if (strchr("()+-*/%!<>?:,;=", c) && c) {
        t->kind = c;
        ls->pos++;
        return 0;
    }
    if (quiet) return -1;
    char q[16];
    quote(s + ls->pos, 1, q, sizeof q);
    return fail_at(p, t->line, t->col, "unexpected character %s", q);
}

static int advance(parser *p) { return lex(p, &p->ls, &p->cur, 0); }

static int tok_is(const parser *p, const tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == TK_IDENT && t->len == n && memcmp(p->src + t->pos, word, n) == 0;
}

/* KW_ value if t is a type keyword, else 0. */
static int tok_type_kw(const parser *p, const tok *t)
{
    for (int k = KW_REAL; k <= KW_INT; k++)
        if (tok_is(p, t, type_kw[k])) return k;
    return 0;
}

static int expect(parser *p, int kind, const char *what, const char *context)
{
    if (p->cur.kind == kind) return advance(p);
    char d[64];
    tok_desc(p, &p->cur, d, sizeof d);
    return fail_at(p, p->cur.line, p->cur.col, "expected %s%s, got %s", what, context, d);
}

/* ------------------------------------------------------------------------------------------
 * AST construction and typing
 * ---------------------------------------------------------------------------------------- */
static int32_t mk(parser *p, int kind, int type, int sub, int nk, int32_t k0, int32_t k1,
                  int32_t k2)
{
    cls_expr *e = p->e;
    if (grow((void **)&e->nodes, &e->cap_nodes, e->n_nodes + 1, sizeof(node))) return oom(p);
    node *n = &e->nodes[e->n_nodes];
    memset(n, 0, sizeof *n);
    n->kind = (unsigned char)kind;
    n->type = (unsigned char)type;
    n->sub = (unsigned char)sub;
    n->nk = (unsigned char)nk;
    n->kid[0] = k0;
    n->kid[1] = k1;
    n->kid[2] = k2;
    return (int32_t)e->n_nodes++;
}

static int type_max(int a, int b) { return a > b ? a : b; }

/* C/OpenCL conversion of floating to int, made total: truncate, saturate, NaN -> 0 (this is
 * OpenCL's convert_int_sat_rtz, which the emitter uses). */
static int32_t sat_int(double x)
{
    if (isnan(x)) return 0;
    if (!(x > -2147483649.0)) return INT32_MIN;
    if (!(x < 2147483648.0)) return INT32_MAX;
    return (int32_t)x;
}

/* Converts node n to `type`: literals are folded (exactly as the conversion would round),
 * other nodes get an implicit conversion node. */
static int32_t convert(parser *p, int32_t n, int type)
{
    node *x = &p->e->nodes[n];
    if (x->type == type) return n;
    if (x->kind == N_INT && type != T_INT) {
        double d = type == T_FLOAT ? (double)(float)x->v.i : (double)x->v.i;
        x->kind = N_REAL;
        x->type = (unsigned char)type;
        x->v.d = d;
        return n;
    }
    if (x->kind == N_REAL && type == T_DOUBLE) { /* float -> double is exact */
        x->type = T_DOUBLE;
        return n;
    }
    return mk(p, N_CONV, type, KW_NONE, 1, n, 0, 0);
}

static int32_t mk_bin(parser *p, int op, int32_t l, int32_t r, const tok *at)
{
    int tl = p->e->nodes[l].type, tr = p->e->nodes[r].type;
    if (op == B_AND || op == B_OR) return mk(p, N_BIN, T_INT, op, 2, l, r, 0);
    if (op == B_MOD && (tl != T_INT || tr != T_INT))
        return fail_at(p, at->line, at->col, "operator '%%' requires int operands");
    int ct = type_max(tl, tr);
    if ((l = convert(p, l, ct)) < 0 || (r = convert(p, r, ct)) < 0) return -1;
    return mk(p, N_BIN, op >= B_LT ? T_INT : ct, op, 2, l, r, 0);
}

/* ------------------------------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------------------------- */
static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int32_t find_local(const cls_expr *e, const char *s, size_t n)
{
    if (!e->hash_cap) return -1;
    size_t mask = e->hash_cap - 1;
    for (size_t i = name_hash(s, n) & mask;; i = (i + 1) & mask) {
        int32_t v = e->hash[i];
        if (!v) return -1;
        const local *l = &e->locals[v - 1];
        if (l->len == n && memcmp(l->name, s, n) == 0) return v - 1;
    }
}

static int hash_insert(cls_expr *e, int32_t idx)
{
    if ((size_t)(idx + 1) * 2 > e->hash_cap) {
        size_t cap = e->hash_cap ? e->hash_cap * 2 : 64;
        int32_t *h = calloc(cap, sizeof *h);
        if (!h) return -1;
        free(e->hash);
        e->hash = h;
        e->hash_cap = cap;
        for (int32_t k = 0; k < idx; k++)
            if (hash_insert(e, k)) return -1;
    }
    const local *l = &e->locals[idx];
    size_t mask = e->hash_cap - 1, i = name_hash(l->name, l->len) & mask;
    while (e->hash[i]) i = (i + 1) & mask;
    e->hash[i] = idx + 1;
    return 0;
}

static int name_eq(const char *name, const char *s, size_t n)
{
    return name && strlen(name) == n && memcmp(name, s, n) == 0;
}

static int find_name(const char *const *names, size_t count, const char *s, size_t n)
{
    for (size_t k = 0; names && k < count; k++)
        if (name_eq(names[k], s, n)) return (int)k;
    return -1;
}

static int find_func(const char *s, size_t n)
{
    for (int f = 0; f < F_COUNT; f++)
        if (name_eq(funcs[f].name, s, n)) return f;
    return -1;
}

static int find_special(const char *s, size_t n)
{
    for (int k = 0; k < SP_COUNT; k++)
        if (name_eq(special_names[k], s, n)) return k;
    return -1;
}

static int is_keyword(const char *s, size_t n)
{
    static const char *const kw[] = {"real", "float", "double", "int", "const", "return"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (name_eq(kw[k], s, n)) return 1;
    return 0;
}

/* Scans the rest of the body for a declaration of the name (for a better message). */
static int declared_later(parser *p, const char *s, size_t n)
{
    lexstate ls = p->ls;
    tok a = {0}, b = {0}, t;
    for (;;) {
        if (lex(p, &ls, &t, 1) < 0 || t.kind == TK_EOF) return 0;
        if (a.kind == TK_IDENT && tok_type_kw(p, &a) && b.kind == TK_IDENT && t.kind == '=' &&
            b.len == n && memcmp(p->src + b.pos, s, n) == 0)
            return 1;
        a = b;
        b = t;
    }
}

/* ------------------------------------------------------------------------------------------
 * Parser (precedence climbing; nesting is bounded so recursion is bounded)
 * ---------------------------------------------------------------------------------------- */
static int32_t parse_ternary(parser *p);
static int32_t parse_unary(parser *p);

static int enter(parser *p)
{
    if (++p->depth > CLS_EXPR_MAX_DEPTH)
        return fail_at(p, p->cur.line, p->cur.col, "expression nested too deeply (limit %d)",
                       CLS_EXPR_MAX_DEPTH);
    return 0;
}

static int binop_of(int kind, int *prec)
{
    switch (kind) {
    case TK_OR: *prec = 1; return B_OR;
    case TK_AND: *prec = 2; return B_AND;
    case TK_EQ: *prec = 3; return B_EQ;
    case TK_NE: *prec = 3; return B_NE;
    case '<': *prec = 4; return B_LT;
    case TK_LE: *prec = 4; return B_LE;
    case '>': *prec = 4; return B_GT;
    case TK_GE: *prec = 4; return B_GE;
    case '+': *prec = 5; return B_ADD;
    case '-': *prec = 5; return B_SUB;
    case '*': *prec = 6; return B_MUL;
    case '/': *prec = 6; return B_DIV;
    case '%': *prec = 6; return B_MOD;
    default: *prec = 0; return -1;
    }
}

static int32_t parse_binary(parser *p, int min_prec)
{
    int32_t l = parse_unary(p);
    if (l < 0) return -1;
    for (;;) {
        int prec, op = binop_of(p->cur.kind, &prec);
        if (op < 0 || prec < min_prec) return l;
        tok at = p->cur;
        if (advance(p)) return -1;
        int32_t r = parse_binary(p, prec + 1);
        if (r < 0) return -1;
        if ((l = mk_bin(p, op, l, r, &at)) < 0) return -1;
    }
}

static int32_t parse_ternary(parser *p)
{
    int32_t c = parse_binary(p, 1);
    if (c < 0 || p->cur.kind != '?') return c;
    if (enter(p) || advance(p)) return -1;
    int32_t a = parse_ternary(p);
    if (a < 0 || expect(p, ':', "':'", " in ?:")) return -1;
    int32_t b = parse_ternary(p);
    if (b < 0) return -1;
    p->depth--;
    int ct = type_max(p->e->nodes[a].type, p->e->nodes[b].type);
    if ((a = convert(p, a, ct)) < 0 || (b = convert(p, b, ct)) < 0) return -1;
    return mk(p, N_TERN, ct, 0, 3, c, a, b);
}

/* Parses "arg {, arg} )" after the opening parenthesis (consumed, depth entered); at most 4
 * argument roots are kept, with the start token and first node of each; *count gets the real
 * number.  An empty list is accepted when allow_empty. */
static int parse_arg_list(parser *p, const char *callee, int allow_empty, int32_t *roots,
                          tok *starts, size_t *marks, int *count)
{
    char ctx[96];
    snprintf(ctx, sizeof ctx, " in the arguments of '%s'", callee);
    *count = 0;
    if (allow_empty && p->cur.kind == ')') {
        p->depth--;
        return advance(p);
    }
    for (;;) {
        tok st = p->cur;
        size_t mark = p->e->n_nodes;
        int32_t r = parse_ternary(p);
        if (r < 0) return -1;
        if (*count < 4) {
            roots[*count] = r;
            starts[*count] = st;
            marks[*count] = mark;
        }
        (*count)++;
        if (p->cur.kind == ',') {
            if (advance(p)) return -1;
            continue;
        }
        if (expect(p, ')', "',' or ')'", ctx)) return -1;
        p->depth--;
        return 0;
    }
}

/* "(" args ")" after a callee's name. */
static int parse_args(parser *p, const char *callee, int32_t *roots, tok *starts, size_t *marks,
                      int *count)
{
    char ctx[96];
    snprintf(ctx, sizeof ctx, " after '%s'", callee);
    if (p->cur.kind == '(' && enter(p)) return -1;
    if (expect(p, '(', "'('", ctx)) return -1;
    return parse_arg_list(p, callee, 1, roots, starts, marks, count);
}

/* Evaluates the integer constant expression made of the nodes [from, to) (post-order) and
 * returns its value (the last node's) in *out; -1 if it is not one or is out of range. */
static int fold_const(parser *p, size_t from, size_t to, int64_t *out)
{
    node *nd = p->e->nodes;
    if (from >= to) return -1;
    for (size_t k = from; k < to; k++) {
        node *x = &nd[k];
        int64_t v;
        if (x->type != T_INT) return -1;
        if (x->kind == N_INT) continue;
        if (x->kind == N_NEG) {
            v = -(int64_t)nd[x->kid[0]].v.i;
        } else if (x->kind == N_BIN && x->sub <= B_MUL) {
            int64_t a = nd[x->kid[0]].v.i, b = nd[x->kid[1]].v.i;
            v = x->sub == B_ADD ? a + b : x->sub == B_SUB ? a - b : a * b;
        } else {
            return -1;
        }
        if (v > INT32_MAX || v < INT32_MIN) return -2;
        x->v.i = (int32_t)v;
    }
    *out = nd[to - 1].v.i;
    return 0;
}

/* IN(dx[,dy[,dz]]) or AUX(a, dx[,dy[,dz]]); the name token was just consumed. */
static int32_t parse_access(parser *p, const tok *name, int is_aux)
{
    cls_expr *e = p->e;
    const char *what = is_aux ? "AUX" : "IN";
    int array = -1;
    int32_t roots[4];
    tok starts[4];
    size_t marks[4];
    int count;
    size_t mark0 = e->n_nodes;
    if (!is_aux && p->env->n_fields) {
        /* IN(field, offsets...) in a system; IN(offsets...) reads the default field. */
        if (p->cur.kind == '(' && enter(p)) return -1;
        if (expect(p, '(', "'('", " after 'IN'")) return -1;
        tok ft = p->cur;
        if (ft.kind == TK_IDENT) {
            int f = find_name(p->env->field_names, p->env->n_fields, p->src + ft.pos, ft.len);
            if (f < 0) {
                char q[64];
                quote(p->src + ft.pos, ft.len, q, sizeof q);
                return fail_at(p, ft.line, ft.col, "unknown field %s in IN(...)", q);
            }
            array = -1 - f;
            if (advance(p)) return -1;
            if (expect(p, ',', "','", " after the field of 'IN'") ||
                parse_arg_list(p, what, 0, roots, starts, marks, &count))
                return -1;
        } else {
            if (p->env->default_field < 0)
                return fail_at(p, ft.line, ft.col,
                               "IN without a field name: this system updates several fields, "
                               "write IN(field, offsets)");
            array = -1 - p->env->default_field;
            if (parse_arg_list(p, what, 0, roots, starts, marks, &count)) return -1;
        }
    } else if (!is_aux) {
        if (parse_args(p, what, roots, starts, marks, &count)) return -1;
    } else {
        if (p->cur.kind == '(' && enter(p)) return -1;
        if (expect(p, '(', "'('", " after 'AUX'")) return -1;
        tok st = p->cur;
        if (st.kind == TK_IDENT) {
            int k = find_name(p->env->aux_names, p->env->n_aux, p->src + st.pos, st.len);
            if (k < 0) {
                char q[64];
                quote(p->src + st.pos, st.len, q, sizeof q);
                return fail_at(p, st.line, st.col, "unknown auxiliary array %s", q);
            }
            array = k;
            if (advance(p)) return -1;
        } else {
            int64_t v;
            int32_t r = parse_ternary(p);
            if (r < 0) return -1;
            if (fold_const(p, mark0, e->n_nodes, &v) || (size_t)r != e->n_nodes - 1)
                return fail_at(p, st.line, st.col,
                               "first argument of AUX must be an auxiliary array name or index");
            if (v < 0 || (uint64_t)v >= p->env->n_aux)
                return fail_at(p, st.line, st.col,
                               "auxiliary array index %lld out of range (%zu arrays)",
                               (long long)v, p->env->n_aux);
            array = (int)v;
            e->n_nodes = mark0;
        }
        if (p->cur.kind == ')') {
            count = 0;
            p->depth--;
            if (advance(p)) return -1;
        } else {
            if (expect(p, ',', "',' or ')'", " in the arguments of 'AUX'") ||
                parse_arg_list(p, what, 0, roots, starts, marks, &count))
                return -1;
        }
    }
    if (count != p->env->dims)
        return fail_at(p, name->line, name->col, "%s takes %d offset%s in a %d-D stencil, got %d",
                       what, p->env->dims, p->env->dims == 1 ? "" : "s", p->env->dims, count);
    access a;
    a.array = array;
    a.off[0] = a.off[1] = a.off[2] = 0;
    for (int d = 0; d < count; d++) {
        int64_t v;
        size_t end = d + 1 < count ? marks[d + 1] : e->n_nodes;
        int rc = fold_const(p, marks[d], end, &v);
        if (rc == -1 || (rc == 0 && (size_t)roots[d] != end - 1))
            return fail_at(p, starts[d].line, starts[d].col,
                           "offset of %s must be an integer constant", what);
        if (rc == -2 || v > CLS_EXPR_MAX_OFFSET || v < -CLS_EXPR_MAX_OFFSET)
            return fail_at(p, starts[d].line, starts[d].col,
                           "offset of %s out of range (|offset| <= %d)", what,
                           CLS_EXPR_MAX_OFFSET);
        a.off[d] = (int)v;
    }
    e->n_nodes = mark0;
    if (grow((void **)&e->acc, &e->cap_acc, e->n_acc + 1, sizeof(access))) return oom(p);
    e->acc[e->n_acc] = a;
    int32_t n = mk(p, is_aux ? N_AUX : N_IN, e->real_t, 0, 0, 0, 0, 0);
    if (n < 0) return -1;
    e->nodes[n].v.i = (int32_t)e->n_acc++;
    return n;
}

static int32_t parse_call(parser *p, const tok *name, int f)
{
    int32_t roots[4];
    tok starts[4];
    size_t marks[4];
    int count;
    if (parse_args(p, funcs[f].name, roots, starts, marks, &count)) return -1;
    if (count != funcs[f].nargs)
        return fail_at(p, name->line, name->col, "function '%s' takes %d argument%s, got %d",
                       funcs[f].name, funcs[f].nargs, funcs[f].nargs == 1 ? "" : "s", count);
    int all_int = 1, ct = T_INT;
    for (int k = 0; k < count; k++) {
        int t = p->e->nodes[roots[k]].type;
        if (t != T_INT) all_int = 0;
        /* int arguments of floating functions convert to real */
        ct = type_max(ct, t == T_INT ? p->e->real_t : t);
    }
    if (funcs[f].minmax && all_int) ct = T_INT;
    for (int k = 0; k < count; k++)
        if ((roots[k] = convert(p, roots[k], ct)) < 0) return -1;
    return mk(p, N_CALL, ct, f, count, roots[0], count > 1 ? roots[1] : 0,
              count > 2 ? roots[2] : 0);
}

static int32_t parse_primary(parser *p)
{
    cls_expr *e = p->e;
    tok t = p->cur;
    char q[64];
    if (t.kind == TK_INT) {
        if (advance(p)) return -1;
        int32_t n = mk(p, N_INT, T_INT, 0, 0, 0, 0, 0);
        if (n >= 0) e->nodes[n].v.i = t.ival;
        return n;
    }
    if (t.kind == TK_REAL) {
        if (advance(p)) return -1;
        int32_t n = mk(p, N_REAL, e->real_t, 0, 0, 0, 0, 0);
        if (n >= 0) e->nodes[n].v.d = t.dval;
        return n;
    }
    if (t.kind != TK_IDENT || is_keyword(p->src + t.pos, t.len)) {
        tok_desc(p, &t, q, sizeof q);
        return fail_at(p, t.line, t.col, "expected an expression, got %s", q);
    }
    const char *s = p->src + t.pos;
    quote(s, t.len, q, sizeof q);
    if (advance(p)) return -1;
    if (name_eq("IN", s, t.len)) return parse_access(p, &t, 0);
    if (name_eq("AUX", s, t.len)) return parse_access(p, &t, 1);
    if (p->cur.kind == '(') {
        int f = find_func(s, t.len);
        if (f < 0) return fail_at(p, t.line, t.col, "unknown function %s", q);
        return parse_call(p, &t, f);
    }
    int k = find_special(s, t.len);
    if (k >= 0) {
        int dim = k < SP_NX ? k : k - SP_NX;
        /* Unused dimensions are constants: X/Y/Z 0, NX/NY/NZ 1. */
        if (k != SP_STEP && dim >= p->env->dims) {
            int32_t n = mk(p, N_INT, T_INT, 0, 0, 0, 0, 0);
            if (n >= 0) e->nodes[n].v.i = k < SP_NX ? 0 : 1;
            return n;
        }
        int32_t n = mk(p, N_SPECIAL, T_INT, 0, 0, 0, 0, 0);
        if (n >= 0) e->nodes[n].v.i = k;
        return n;
    }
    k = find_name(p->env->param_names, p->env->n_params, s, t.len);
    if (k >= 0) {
        int32_t n = mk(p, N_PARAM, e->real_t, 0, 0, 0, 0, 0);
        if (n >= 0) e->nodes[n].v.i = k;
        return n;
    }
    int32_t l = find_local(e, s, t.len);
    if (l >= 0) {
        int32_t n = mk(p, N_LOCAL, e->locals[l].type, 0, 0, 0, 0, 0);
        if (n >= 0) e->nodes[n].v.i = l;
        return n;
    }
    if (find_func(s, t.len) >= 0)
        return fail_at(p, t.line, t.col, "function %s used without arguments", q);
    if (p->declaring && p->declaring_len == t.len && memcmp(p->declaring, s, t.len) == 0)
        return fail_at(p, t.line, t.col, "local %s used in its own initializer", q);
    if (declared_later(p, s, t.len))
        return fail_at(p, t.line, t.col, "use of undeclared local %s (declared later)", q);
    return fail_at(p, t.line, t.col, "unknown identifier %s", q);
}

static int32_t parse_unary(parser *p)
{
    tok t = p->cur;
    int32_t x;
    if (t.kind == '-' || t.kind == '+' || t.kind == '!') {
        if (enter(p) || advance(p)) return -1;
        if ((x = parse_unary(p)) < 0) return -1;
        p->depth--;
        node *n = &p->e->nodes[x];
        if (t.kind == '+') return x;
        if (t.kind == '!') return mk(p, N_NOT, T_INT, 0, 1, x, 0, 0);
        /* Negated literals fold, so "-1" stays a literal in the emitted code. */
        if (n->kind == N_INT) {
            n->v.i = (int32_t)(0u - (uint32_t)n->v.i);
            return x;
        }
        if (n->kind == N_REAL) {
            n->v.d = -n->v.d;
            return x;
        }
        return mk(p, N_NEG, n->type, 0, 1, x, 0, 0);
    }
    if (t.kind == '(') {
        if (enter(p) || advance(p)) return -1;
        int kw = tok_type_kw(p, &p->cur);
        if (kw) {
            if (advance(p) || expect(p, ')', "')'", " after the cast type")) return -1;
            if ((x = parse_unary(p)) < 0) return -1;
            p->depth--;
            int type = kw == KW_REAL ? p->e->real_t : kw == KW_FLOAT ? T_FLOAT
                       : kw == KW_DOUBLE ? T_DOUBLE : T_INT;
            return mk(p, N_CONV, type, kw, 1, x, 0, 0);
        }
        if ((x = parse_ternary(p)) < 0 || expect(p, ')', "')'", "")) return -1;
        p->depth--;
        return x;
    }
    return parse_primary(p);
}

/* [const] T name = expr ; */
static int parse_decl(parser *p)
{
    cls_expr *e = p->e;
    int is_const = 0;
    if (tok_is(p, &p->cur, "const")) {
        is_const = 1;
        if (advance(p)) return -1;
        if (!tok_type_kw(p, &p->cur)) {
            char d[64];
            tok_desc(p, &p->cur, d, sizeof d);
            return fail_at(p, p->cur.line, p->cur.col, "expected a type after 'const', got %s",
                           d);
        }
    }
    int kw = tok_type_kw(p, &p->cur);
    if (advance(p)) return -1;
    tok nt = p->cur;
    char q[64];
    if (nt.kind != TK_IDENT) {
        tok_desc(p, &nt, q, sizeof q);
        return fail_at(p, nt.line, nt.col, "expected a name after '%s', got %s", type_kw[kw], q);
    }
    const char *s = p->src + nt.pos;
    quote(s, nt.len, q, sizeof q);
    if (is_keyword(s, nt.len))
        return fail_at(p, nt.line, nt.col, "%s is a reserved word", q);
    if (find_special(s, nt.len) >= 0 || name_eq("IN", s, nt.len) || name_eq("AUX", s, nt.len))
        return fail_at(p, nt.line, nt.col, "local %s shadows a reserved name", q);
    if (find_name(p->env->param_names, p->env->n_params, s, nt.len) >= 0)
        return fail_at(p, nt.line, nt.col, "local %s shadows a parameter", q);
    if (find_name(p->env->aux_names, p->env->n_aux, s, nt.len) >= 0)
        return fail_at(p, nt.line, nt.col, "local %s shadows an auxiliary array", q);
    if (p->env->n_fields && find_name(p->env->field_names, p->env->n_fields, s, nt.len) >= 0)
        return fail_at(p, nt.line, nt.col, "local %s shadows a field", q);
    if (find_func(s, nt.len) >= 0)
        return fail_at(p, nt.line, nt.col, "local %s shadows a function", q);
    if (find_local(e, s, nt.len) >= 0)
        return fail_at(p, nt.line, nt.col, "local %s redeclared", q);
    if (advance(p)) return -1;
    char ctx[96];
    snprintf(ctx, sizeof ctx, " after %s", q);
    if (expect(p, '=', "'='", ctx)) return -1;
    int32_t first = (int32_t)e->n_nodes;
    p->declaring = s;
    p->declaring_len = nt.len;
    int32_t r = parse_ternary(p);
    p->declaring = NULL;
    if (r < 0) return -1;
    if (expect(p, ';', "';'", " after the declaration")) return -1;
    int type = kw == KW_REAL ? e->real_t : kw == KW_FLOAT ? T_FLOAT
               : kw == KW_DOUBLE ? T_DOUBLE : T_INT;
    /* Initializers convert to the declared type; an int from a floating value truncates. */
    if ((r = convert(p, r, type)) < 0) return -1;
    if (grow((void **)&e->locals, &e->cap_locals, e->n_locals + 1, sizeof(local)) ||
        grow((void **)&e->stmts, &e->cap_stmts, e->n_stmts + 1, sizeof(stmt)))
        return oom(p);
    local *l = &e->locals[e->n_locals];
    l->name = malloc(nt.len + 1);
    if (!l->name) return oom(p);
    memcpy(l->name, s, nt.len);
    l->name[nt.len] = 0;
    l->len = nt.len;
    l->type = (unsigned char)type;
    l->spelling = (unsigned char)kw;
    l->is_const = (unsigned char)is_const;
    e->n_locals++;
    if (hash_insert(e, (int32_t)e->n_locals - 1)) return oom(p);
    e->stmts[e->n_stmts].local = (int32_t)e->n_locals - 1;
    e->stmts[e->n_stmts].first = first;
    e->stmts[e->n_stmts].root = r;
    e->n_stmts++;
    return 0;
}

static int add_return(parser *p, int32_t first, int32_t r)
{
    cls_expr *e = p->e;
    if ((r = convert(p, r, e->real_t)) < 0) return -1;
    if (grow((void **)&e->stmts, &e->cap_stmts, e->n_stmts + 1, sizeof(stmt))) return oom(p);
    e->stmts[e->n_stmts].local = -1;
    e->stmts[e->n_stmts].first = first;
    e->stmts[e->n_stmts].root = r;
    e->n_stmts++;
    return 0;
}

static int trailing(parser *p, const char *after)
{
    char d[64];
    tok_desc(p, &p->cur, d, sizeof d);
    return fail_at(p, p->cur.line, p->cur.col, "unexpected %s after %s", d, after);
}

static int parse_body(parser *p)
{
    if (advance(p)) return -1;
    if (p->cur.kind == TK_EOF) return fail_at(p, p->cur.line, p->cur.col, "empty body");
    int is_stmt = tok_is(p, &p->cur, "const") || tok_is(p, &p->cur, "return") ||
                  tok_type_kw(p, &p->cur);
    if (!is_stmt) {
        int32_t r = parse_ternary(p);
        if (r < 0) return -1;
        if (p->cur.kind == ';' && advance(p)) return -1;
        if (p->cur.kind != TK_EOF) return trailing(p, "the end of the expression");
        return add_return(p, 0, r);
    }
    while (tok_is(p, &p->cur, "const") || tok_type_kw(p, &p->cur))
        if (parse_decl(p)) return -1;
    if (!tok_is(p, &p->cur, "return")) {
        char d[64];
        tok_desc(p, &p->cur, d, sizeof d);
        return fail_at(p, p->cur.line, p->cur.col, "missing 'return' after declarations, got %s",
                       d);
    }
    if (advance(p)) return -1;
    int32_t first = (int32_t)p->e->n_nodes;
    int32_t r = parse_ternary(p);
    if (r < 0 || expect(p, ';', "';'", " after the return expression")) return -1;
    if (p->cur.kind != TK_EOF) return trailing(p, "the return statement");
    return add_return(p, first, r);
}

/* ------------------------------------------------------------------------------------------
 * Iterative tree walk (a left-nested chain of a million additions must not recurse).
 * ---------------------------------------------------------------------------------------- */
typedef struct wframe {
    int32_t node;
    int child;
    int skip;
    int32_t a, b; /* per-node scratch for the visitor (jump patch sites) */
} wframe;

typedef struct walker {
    int (*pre)(void *ctx, wframe *f);          /* 1 = do not visit the children */
    int (*mid)(void *ctx, wframe *f, int i);   /* between child i-1 and child i */
    int (*post)(void *ctx, wframe *f);
} walker;

/* 0, or -1 when a visitor failed or memory ran out. */
static int walk(const cls_expr *e, int32_t root, const walker *w, void *ctx)
{
    wframe small[64], *st = small;
    size_t sp = 0, cap = sizeof small / sizeof small[0];
    int rc = 0;
    st[sp].node = root;
    st[sp].child = 0;
    st[sp].a = st[sp].b = 0;
    if ((st[sp].skip = w->pre(ctx, &st[sp])) < 0) return -1;
    sp++;
    while (sp) {
        wframe *f = &st[sp - 1];
        const node *n = &e->nodes[f->node];
        if (!f->skip && f->child < n->nk) {
            int i = f->child++;
            if (i > 0 && w->mid && w->mid(ctx, f, i) < 0) {
                rc = -1;
                break;
            }
            if (sp == cap) {
                wframe *ns = malloc(cap * 2 * sizeof *ns);
                if (!ns) {
                    rc = -1;
                    break;
                }
                memcpy(ns, st, sp * sizeof *ns);
                if (st != small) free(st);
                st = ns;
                cap *= 2;
            }
            wframe *c = &st[sp];
            c->node = n->kid[i];
            c->child = 0;
            c->a = c->b = 0;
            if ((c->skip = w->pre(ctx, c)) < 0) {
                rc = -1;
                break;
            }
            sp++;
        } else {
            if (w->post(ctx, f) < 0) {
                rc = -1;
                break;
            }
            sp--;
        }
    }
    if (st != small) free(st);
    return rc;
}

/* ------------------------------------------------------------------------------------------
 * Compilation to bytecode
 * ---------------------------------------------------------------------------------------- */
typedef struct compiler {
    cls_expr *e;
    size_t depth, max_depth;
} compiler;

static int emit_ins(compiler *c, int op, int t, int t2, int32_t a)
{
    cls_expr *e = c->e;
    if (grow((void **)&e->code, &e->cap_code, e->n_code + 1, sizeof(ins))) return -1;
    ins *I = &e->code[e->n_code++];
    memset(I, 0, sizeof *I);
    I->op = (unsigned char)op;
    I->t = (unsigned char)t;
    I->t2 = (unsigned char)t2;
    I->a = a;
    return 0;
}

static void push_depth(compiler *c)
{
    if (++c->depth > c->max_depth) c->max_depth = c->depth;
}

static int comp_pre(void *ctx, wframe *f)
{
    (void)ctx;
    (void)f;
    return 0;
}

static int comp_mid(void *ctx, wframe *f, int i)
{
    compiler *c = ctx;
    cls_expr *e = c->e;
    const node *n = &e->nodes[f->node];
    if (n->kind == N_BIN && (n->sub == B_AND || n->sub == B_OR)) {
        /* a && b: a as 0/1; if it decides, jump to the end keeping it, else drop it. */
        if (emit_ins(c, OP_BOOL, e->nodes[n->kid[0]].type, 0, 0) ||
            emit_ins(c, n->sub == B_AND ? OP_JZ_KEEP : OP_JNZ_KEEP, 0, 0, 0))
            return -1;
        f->a = (int32_t)e->n_code - 1;
        c->depth--;
    } else if (n->kind == N_TERN) {
        if (i == 1) {
            if (emit_ins(c, OP_JZ_POP, e->nodes[n->kid[0]].type, 0, 0)) return -1;
            f->a = (int32_t)e->n_code - 1;
            c->depth--;
        } else {
            if (emit_ins(c, OP_JMP, 0, 0, 0)) return -1;
            f->b = (int32_t)e->n_code - 1;
            e->code[f->a].a = (int32_t)e->n_code;
            c->depth--; /* the else branch starts without the then value */
        }
    }
    return 0;
}

static int comp_post(void *ctx, wframe *f)
{
    compiler *c = ctx;
    cls_expr *e = c->e;
    const node *n = &e->nodes[f->node];
    int kt = n->nk ? e->nodes[n->kid[0]].type : n->type;
    switch (n->kind) {
    case N_INT:
    case N_REAL:
        if (emit_ins(c, OP_PUSH, n->type, 0, 0)) return -1;
        if (n->kind == N_INT)
            e->code[e->n_code - 1].imm.i = n->v.i;
        else
            e->code[e->n_code - 1].imm.d = n->v.d;
        push_depth(c);
        return 0;
    case N_PARAM:
    case N_LOCAL:
    case N_SPECIAL:
    case N_IN:
    case N_AUX: {
        static const int ops[] = {[N_PARAM] = OP_PARAM, [N_LOCAL] = OP_LOCAL,
                                  [N_SPECIAL] = OP_SPECIAL, [N_IN] = OP_IN, [N_AUX] = OP_AUX};
        if (emit_ins(c, ops[n->kind], n->type, 0, n->v.i)) return -1;
        push_depth(c);
        return 0;
    }
    case N_NEG: return emit_ins(c, OP_NEG, n->type, 0, 0);
    case N_NOT: return emit_ins(c, OP_NOT, kt, 0, 0);
    case N_CONV: return emit_ins(c, OP_CONV, kt, n->type, 0);
    case N_BIN:
        if (n->sub == B_AND || n->sub == B_OR) {
            if (emit_ins(c, OP_BOOL, e->nodes[n->kid[1]].type, 0, 0)) return -1;
            e->code[f->a].a = (int32_t)e->n_code;
            return 0;
        }
        c->depth--;
        return emit_ins(c, OP_ADD + (n->sub - B_ADD), kt, 0, 0);
    case N_TERN: e->code[f->b].a = (int32_t)e->n_code; return 0;
    case N_CALL:
        c->depth -= (size_t)n->nk - 1;
        return emit_ins(c, OP_CALL, n->type, 0, n->sub);
    default: return -1;
    }
}

static int compile(cls_expr *e)
{
    compiler c = {e, 0, 0};
    walker w = {comp_pre, comp_mid, comp_post};
    for (size_t s = 0; s < e->n_stmts; s++) {
        /* A declaration's value stays on the stack: local i lives in slot i. */
        if (walk(e, e->stmts[s].root, &w, &c)) return -1;
        if (e->stmts[s].local < 0 && emit_ins(&c, OP_RET, e->nodes[e->stmts[s].root].type, 0, 0))
            return -1;
    }
    e->slots = c.max_depth + 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Statistics
 * ---------------------------------------------------------------------------------------- */
static int cmp_off(const void *a, const void *b)
{
    const int *x = a, *y = b;
    for (int k = 0; k < 4; k++)
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}

static int compute_stats(cls_expr *e)
{
    e->exact = 1;
    e->flops = 0;
    for (size_t k = 0; k < e->n_nodes; k++) {
        const node *n = &e->nodes[k];
        if (n->kind == N_BIN && n->sub <= B_DIV && n->type != T_INT) e->flops++;
        if (n->kind == N_CALL) {
            if (n->type != T_INT) e->flops++;
            if (!funcs[n->sub].exact) e->exact = 0;
        }
    }
    size_t n_in = 0;
    for (size_t k = 0; k < e->n_acc; k++) n_in += e->acc[k].array < 0;
    e->in_reads = 0;
    if (!n_in) return 0;
    int(*offs)[4] = malloc(n_in * sizeof *offs);
    if (!offs) return -1;
    size_t m = 0;
    for (size_t k = 0; k < e->n_acc; k++)
        if (e->acc[k].array < 0) {
            offs[m][0] = e->acc[k].array;
            memcpy(&offs[m++][1], e->acc[k].off, 3 * sizeof(int));
        }
    qsort(offs, m, sizeof offs[0], cmp_off);
    for (size_t k = 0; k < m; k++)
        if (k == 0 || cmp_off(offs[k], offs[k - 1])) e->in_reads++;
    free(offs);
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Public: parse, free, queries
 * ---------------------------------------------------------------------------------------- */
void cls__expr_free(cls_expr *e)
{
    if (!e) return;
    for (size_t k = 0; k < e->n_params; k++) free(e->param_names[k]);
    free(e->param_names);
    for (size_t k = 0; k < e->n_locals; k++) free(e->locals[k].name);
    free(e->locals);
    free(e->hash);
    free(e->nodes);
    free(e->acc);
    free(e->stmts);
    free(e->code);
    free(e);
}

int cls__expr_parse(const char *body, const cls_expr_env *env, cls_expr **out, char *err,
                    size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err;
    p.errlen = errlen;
    p.ls.line = 1;
    if (err && errlen) err[0] = 0;
    if (out) *out = NULL;
    if (!body || !env || !out || env->dims < 1 || env->dims > 3 ||
        (env->n_aux && !env->aux_names) || (env->n_params && !env->param_names)) {
        fail_at(&p, 1, 1, "invalid arguments to the body parser");
        return -1;
    }
    size_t len = 0;
    while (len <= CLS_EXPR_MAX_BODY && body[len]) len++;
    if (len > CLS_EXPR_MAX_BODY) {
        fail_at(&p, 1, 1, "body longer than %d bytes", CLS_EXPR_MAX_BODY);
        return -1;
    }
    cls_expr *e = calloc(1, sizeof *e);
    if (!e) {
        oom(&p);
        return -2;
    }
    e->dims = env->dims;
    e->real_is_double = env->real_is_double != 0;
    e->real_t = e->real_is_double ? T_DOUBLE : T_FLOAT;
    e->n_aux = env->n_aux;
    if (env->n_fields && !env->field_names) {
        free(e);
        fail_at(&p, 1, 1, "invalid arguments to the body parser");
        return -1;
    }
    e->n_fields = env->n_fields;
    if (env->n_params) {
        e->param_names = calloc(env->n_params, sizeof(char *));
        if (!e->param_names) goto nomem;
        e->n_params = env->n_params;
        for (size_t k = 0; k < env->n_params; k++) {
            const char *nm = env->param_names[k] ? env->param_names[k] : "";
            if (!(e->param_names[k] = malloc(strlen(nm) + 1))) goto nomem;
            strcpy(e->param_names[k], nm);
        }
    }
    p.src = body;
    p.len = len;
    p.env = env;
    p.e = e;
    if (parse_body(&p)) {
        cls__expr_free(e);
        return p.status == -2 ? -2 : -1;
    }
    if (compute_stats(e) || compile(e)) goto nomem;
    {
        /* Device compilers refuse brackets nested past a few hundred levels (clang's default
         * is 256, and the accessor macros add their own); measured on the emitted text, which
         * is what they read. */
        char *text = cls__expr_emit_opencl(e);
        if (!text) goto nomem;
        int depth = 0, deepest = 0;
        for (const char *c = text; *c; c++) {
            if (*c == '(' && ++depth > deepest) deepest = depth;
            if (*c == ')') depth--;
        }
        free(text);
        if (deepest > CLS_EXPR_MAX_EMIT_DEPTH) {
            cls__expr_free(e);
            fail_at(&p, 1, 1,
                    "the body is %d brackets deep in OpenCL C, more than device compilers take "
                    "(limit %d): compute inner parts in locals",
                    deepest, CLS_EXPR_MAX_EMIT_DEPTH);
            return -1;
        }
    }
    *out = e;
    return 0;
nomem:
    cls__expr_free(e);
    p.status = 0;
    oom(&p);
    return -2;
}

static void extent(const cls_expr *e, int array, int lo[3], int hi[3], int *used)
{
    for (int d = 0; d < 3; d++) lo[d] = hi[d] = 0;
    int any = 0;
    for (size_t k = 0; e && k < e->n_acc; k++) {
        const access *a = &e->acc[k];
        if (a->array != array) continue;
        for (int d = 0; d < 3; d++) {
            if (!any || a->off[d] < lo[d]) lo[d] = a->off[d];
            if (!any || a->off[d] > hi[d]) hi[d] = a->off[d];
        }
        any = 1;
    }
    if (used) *used = any;
}

void cls__expr_in_extent(const cls_expr *e, int lo[3], int hi[3], int *used)
{
    int any;
    extent(e, -1, lo, hi, &any);
    for (size_t f = 1; e && f < e->n_fields; f++) {
        int l[3], h[3], u;
        extent(e, -1 - (int)f, l, h, &u);
        for (int d = 0; u && d < 3; d++) {
            if (!any || l[d] < lo[d]) lo[d] = l[d];
            if (!any || h[d] > hi[d]) hi[d] = h[d];
        }
        any |= u;
    }
    if (used) *used = any;
}

void cls__expr_field_extent(const cls_expr *e, size_t f, int lo[3], int hi[3], int *used)
{
    extent(e, f > 4096 ? INT_MIN : -1 - (int)f, lo, hi, used);
}

void cls__expr_aux_extent(const cls_expr *e, size_t k, int lo[3], int hi[3], int *used)
{
    extent(e, k > (size_t)INT_MAX ? INT_MIN : (int)k, lo, hi, used);
}

void cls__expr_lift_2d(cls_expr *e)
{
    if (!e || e->dims != 2) return;
    /* (dx, dy) -> (dx, 0, dy): the grid NX x NY is the grid NX x 1 x NY in memory. */
    for (size_t i = 0; i < e->n_acc; i++) {
        e->acc[i].off[2] = e->acc[i].off[1];
        e->acc[i].off[1] = 0;
    }
    /* Y, NY -> Z, NZ; the 2D body's Z and NZ were already the constants 0 and 1, as the lifted
     * body's Y and NY are. */
    static const int lift[SP_COUNT] = {[SP_X] = SP_X,   [SP_Y] = SP_Z,   [SP_Z] = SP_Z,
                                       [SP_NX] = SP_NX, [SP_NY] = SP_NZ, [SP_NZ] = SP_NZ,
                                       [SP_STEP] = SP_STEP};
    for (size_t i = 0; i < e->n_nodes; i++)
        if (e->nodes[i].kind == N_SPECIAL) e->nodes[i].v.i = lift[e->nodes[i].v.i];
    for (size_t i = 0; i < e->n_code; i++)
        if (e->code[i].op == OP_SPECIAL) e->code[i].a = lift[e->code[i].a];
    e->dims = 3;
}

int cls__expr_is_exact(const cls_expr *e) { return e ? e->exact : 0; }
size_t cls__expr_flops(const cls_expr *e) { return e ? e->flops : 0; }
size_t cls__expr_in_reads(const cls_expr *e) { return e ? e->in_reads : 0; }

/* Marks in vary[k] the nodes whose value varies from point to point: a node varies when it
 * reads, is a coordinate or the step, uses a local that varies, or has a child that varies.
 * With lanes, only what varies between consecutive points along x counts: reads and X, not Y,
 * Z or the step.  vary has e->n_nodes entries; 0 on success, -1 when out of memory. */
static int mark_vary(const cls_expr *e, unsigned char *vary, int lanes)
{
    unsigned char *local_vary = calloc(e->n_locals + 1, 1);
    if (!local_vary) return -1;
    /* statements in order, each one's nodes in post-order */
    for (size_t s = 0; s < e->n_stmts; s++) {
        const stmt *st = &e->stmts[s];
        for (int32_t k = st->first; k >= 0 && k <= st->root && (size_t)k < e->n_nodes; k++) {
            const node *n = &e->nodes[k];
            int v = n->kind == N_IN || n->kind == N_AUX ||
                    (n->kind == N_SPECIAL &&
                     (lanes ? n->v.i == SP_X : (n->v.i <= SP_Z || n->v.i == SP_STEP))) ||
                    (n->kind == N_LOCAL && n->v.i >= 0 && (size_t)n->v.i < e->n_locals &&
                     local_vary[n->v.i]);
            for (int c = 0; c < n->nk && c < 3 && !v; c++)
                v = n->kid[c] >= 0 && (size_t)n->kid[c] < e->n_nodes && vary[n->kid[c]];
            vary[k] = (unsigned char)v;
        }
        if (st->local >= 0 && (size_t)st->local < e->n_locals && st->root >= 0 &&
            (size_t)st->root < e->n_nodes)
            local_vary[st->local] = vary[st->root];
    }
    free(local_vary);
    return 0;
}

void cls__expr_point_ops(const cls_expr *e, size_t *flops, size_t *divs, size_t *selects)
{
    *flops = *divs = *selects = 0;
    if (!e || !e->n_nodes) return;
    unsigned char *vary = calloc(e->n_nodes, 1);
    if (!vary || mark_vary(e, vary, 0)) {
        /* no memory for the marks: count every operation, as cls__expr_flops does */
        free(vary);
        *flops = e->flops;
        return;
    }
    for (size_t k = 0; k < e->n_nodes; k++) {
        const node *n = &e->nodes[k];
        if (!vary[k]) continue;
        if (n->kind == N_BIN && n->sub == B_DIV && n->type != T_INT) (*divs)++;
        else if (n->kind == N_BIN && n->sub < B_DIV && n->type != T_INT) (*flops)++;
        else if (n->kind == N_BIN && n->sub >= B_LT) (*selects)++;
        else if (n->kind == N_NOT || n->kind == N_TERN) (*selects)++;
        else if (n->kind == N_CALL && n->sub == F_SQRT) (*divs)++;
        else if (n->kind == N_CALL && n->type != T_INT) (*flops)++;
    }
    free(vary);
}

int cls__expr_lane_wise(const cls_expr *e)
{
    if (!e || !e->n_nodes) return 0;
    unsigned char *vary = calloc(e->n_nodes, 1);
    int ok = vary && !mark_vary(e, vary, 1);
    for (size_t k = 0; ok && k < e->n_nodes; k++) {
        const node *n = &e->nodes[k];
        if (!vary[k]) continue;
        /* a value that differs between lanes is of type real (so X, an int, is refused) and
         * comes from + - * / (fma, fabs, sqrt: correctly rounded, under the build option that
         * makes the scalar / and sqrt so, lib/codegen.c), negation, a read, a real local or a
         * conversion between reals; what all lanes share (Y, Z, STEP, parameters, constants)
         * is a scalar and may use anything */
        if (n->type != e->real_t) ok = 0;
        else if (n->kind == N_BIN && n->sub > B_DIV) ok = 0;
        else if (n->kind == N_NOT || n->kind == N_TERN) ok = 0;
        else if (n->kind == N_CALL && n->sub != F_FMA && n->sub != F_FABS && n->sub != F_SQRT)
            ok = 0;
        else if (n->kind == N_CONV && e->nodes[n->kid[0]].type != e->real_t) ok = 0;
    }
    free(vary);
    return ok;
}

int cls__expr_plain_arith(const cls_expr *e)
{
    if (!e) return 0;
    for (size_t k = 0; k < e->n_nodes; k++) {
        const node *n = &e->nodes[k];
        if ((n->kind == N_BIN && n->sub > B_MUL) || n->kind == N_NOT || n->kind == N_TERN ||
            (n->kind == N_CALL && n->sub != F_FMA))
            return 0;
    }
    return 1;
}

int cls__expr_cheap_ops(const cls_expr *e)
{
    if (!e) return 0;
    for (size_t k = 0; k < e->n_nodes; k++) {
        const node *n = &e->nodes[k];
        if ((n->kind == N_BIN && (n->sub == B_DIV || n->sub == B_MOD)) ||
            (n->kind == N_CALL && (n->sub > F_CLAMP || n->sub == F_SQRT)))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Interpreter
 * ---------------------------------------------------------------------------------------- */
static float call_f(int f, float a, float b, float c)
{
    switch (f) {
    /* fmin/fmax: the other argument when one is NaN; the first of two equal values (libm
     * and devices disagree on the sign of fmin(-0, +0); this fixes one answer for both) */
    case F_FMIN: return (b < a || a != a) ? b : a;
    case F_FMAX: return (a < b || a != a) ? b : a;
    case F_FABS: return fabsf(a);
    case F_FLOOR: return floorf(a);
    case F_CEIL: return ceilf(a);
    case F_TRUNC: return truncf(a);
    case F_ROUND: return roundf(a);
    case F_SQRT: return sqrtf(a);
    case F_FMA: return fmaf(a, b, c);
    case F_COPYSIGN: return copysignf(a, b);
    /* OpenCL: min(x,y) = y < x ? y : x, max(x,y) = x < y ? y : x, clamp = min(max(x,lo),hi) */
    case F_MIN: return b < a ? b : a;
    case F_MAX: return a < b ? b : a;
    case F_CLAMP: {
        float m = a < b ? b : a;
        return c < m ? c : m;
    }
    case F_EXP: return expf(a);
    case F_EXP2: return exp2f(a);
    case F_EXP10: return powf(10.0f, a);
    case F_LOG: return logf(a);
    case F_LOG2: return log2f(a);
    case F_LOG10: return log10f(a);
    case F_POW: return powf(a, b);
    case F_SIN: return sinf(a);
    case F_COS: return cosf(a);
    case F_TAN: return tanf(a);
    case F_TANH: return tanhf(a);
    case F_SINH: return sinhf(a);
    case F_COSH: return coshf(a);
    case F_ASIN: return asinf(a);
    case F_ACOS: return acosf(a);
    case F_ATAN: return atanf(a);
    case F_ATAN2: return atan2f(a, b);
    case F_CBRT: return cbrtf(a);
    case F_HYPOT: return hypotf(a, b);
    case F_ERF: return erff(a);
    default: return 0.0f;
    }
}

static double call_d(int f, double a, double b, double c)
{
    switch (f) {
    case F_FMIN: return (b < a || a != a) ? b : a;
    case F_FMAX: return (a < b || a != a) ? b : a;
    case F_FABS: return fabs(a);
    case F_FLOOR: return floor(a);
    case F_CEIL: return ceil(a);
    case F_TRUNC: return trunc(a);
    case F_ROUND: return round(a);
    case F_SQRT: return sqrt(a);
    case F_FMA: return fma(a, b, c);
    case F_COPYSIGN: return copysign(a, b);
    case F_MIN: return b < a ? b : a;
    case F_MAX: return a < b ? b : a;
    case F_CLAMP: {
        double m = a < b ? b : a;
        return c < m ? c : m;
    }
    case F_EXP: return exp(a);
    case F_EXP2: return exp2(a);
    case F_EXP10: return pow(10.0, a);
    case F_LOG: return log(a);
    case F_LOG2: return log2(a);
    case F_LOG10: return log10(a);
    case F_POW: return pow(a, b);
    case F_SIN: return sin(a);
    case F_COS: return cos(a);
    case F_TAN: return tan(a);
    case F_TANH: return tanh(a);
    case F_SINH: return sinh(a);
    case F_COSH: return cosh(a);
    case F_ASIN: return asin(a);
    case F_ACOS: return acos(a);
    case F_ATAN: return atan(a);
    case F_ATAN2: return atan2(a, b);
    case F_CBRT: return cbrt(a);
    case F_HYPOT: return hypot(a, b);
    case F_ERF: return erf(a);
    default: return 0.0;
    }
}

static int32_t call_i(int f, int32_t a, int32_t b, int32_t c)
{
    int32_t m;
    switch (f) {
    case F_MIN: return b < a ? b : a;
    case F_MAX: return a < b ? b : a;
    case F_CLAMP: m = a < b ? b : a; return c < m ? c : m;
    default: return 0;
    }
}

/* Two's complement wrap-around without signed overflow (implementation-defined conversion
 * back to int32_t is modular on every compiler this builds with). */
static int32_t wrap(uint32_t u) { return (int32_t)u; }

static int truth(const val *v, int t)
{
    return t == T_INT ? v->i != 0 : t == T_FLOAT ? v->f != 0.0f : v->d != 0.0;
}

static double read_elem(const cls_expr *e, const cls_expr_point *pt, int32_t a, val *out)
{
    const access *ac = &e->acc[a];
    double r = pt->read ? pt->read(pt->user, ac->array, ac->off) : 0.0;
    if (e->real_t == T_FLOAT)
        out->f = (float)r;
    else
        out->d = r;
    return r;
}

#define CLS__EVAL_STACK 256

double cls__expr_eval(const cls_expr *e, const cls_expr_point *pt)
{
    if (!e || !pt) return NAN;
    val small[CLS__EVAL_STACK], *s = small;
    if (e->slots > CLS__EVAL_STACK) {
        s = malloc(e->slots * sizeof *s);
        if (!s) return NAN;
    }
    size_t sp = 0, pc = 0;
    double result = 0.0;
    for (;;) {
        const ins *I = &e->code[pc++];
        val *x = sp ? &s[sp - 1] : s; /* top */
        val *y = sp > 1 ? &s[sp - 2] : s; /* below top (left operand) */
        switch (I->op) {
        case OP_PUSH:
            if (I->t == T_INT)
                s[sp].i = I->imm.i;
            else if (I->t == T_FLOAT)
                s[sp].f = (float)I->imm.d;
            else
                s[sp].d = I->imm.d;
            sp++;
            break;
        case OP_PARAM: {
            double v = pt->params ? pt->params[I->a] : 0.0;
            if (I->t == T_FLOAT)
                s[sp].f = (float)v;
            else
                s[sp].d = v;
            sp++;
            break;
        }
        case OP_LOCAL: s[sp++] = s[I->a]; break;
        case OP_SPECIAL:
            s[sp++].i = I->a < SP_NX ? pt->coord[I->a]
                        : I->a < SP_STEP ? pt->size[I->a - SP_NX] : pt->step;
            break;
        case OP_IN:
        case OP_AUX: read_elem(e, pt, I->a, &s[sp++]); break;
        case OP_NEG:
            if (I->t == T_INT)
                x->i = wrap(0u - (uint32_t)x->i);
            else if (I->t == T_FLOAT)
                x->f = -x->f;
            else
                x->d = -x->d;
            break;
        case OP_NOT: x->i = !truth(x, I->t); break;
        case OP_BOOL: x->i = truth(x, I->t); break;
        case OP_CONV: {
            val v = *x;
            switch (I->t2) {
            case T_INT:
                x->i = I->t == T_INT ? v.i : I->t == T_FLOAT ? sat_int(v.f) : sat_int(v.d);
                break;
            case T_FLOAT:
                x->f = I->t == T_INT ? (float)v.i : I->t == T_FLOAT ? v.f : (float)v.d;
                break;
            default:
                x->d = I->t == T_INT ? (double)v.i : I->t == T_FLOAT ? (double)v.f : v.d;
                break;
            }
            break;
        }
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_DIV:
        case OP_MOD:
            if (I->t == T_INT) {
                uint32_t a = (uint32_t)y->i, b = (uint32_t)x->i;
                int32_t ia = y->i, ib = x->i;
                switch (I->op) {
                case OP_ADD: y->i = wrap(a + b); break;
                case OP_SUB: y->i = wrap(a - b); break;
                case OP_MUL: y->i = wrap(a * b); break;
                /* total: x/0 = 0, INT_MIN/-1 = INT_MIN, x%0 = 0, x%-1 = 0 */
                case OP_DIV: y->i = ib == 0 ? 0 : ib == -1 ? wrap(0u - a) : ia / ib; break;
                default: y->i = (ib == 0 || ib == -1) ? 0 : ia % ib; break;
                }
            } else if (I->t == T_FLOAT) {
                float a = y->f, b = x->f, r;
                switch (I->op) {
                case OP_ADD: r = a + b; break;
                case OP_SUB: r = a - b; break;
                case OP_MUL: r = a * b; break;
                default: r = a / b; break;
                }
                y->f = r;
            } else {
                double a = y->d, b = x->d, r;
                switch (I->op) {
                case OP_ADD: r = a + b; break;
                case OP_SUB: r = a - b; break;
                case OP_MUL: r = a * b; break;
                default: r = a / b; break;
                }
                y->d = r;
            }
            sp--;
            break;
        case OP_LT:
        case OP_LE:
        case OP_GT:
        case OP_GE:
        case OP_EQ:
        case OP_NE: {
            int r;
            if (I->t == T_INT) {
                int32_t a = y->i, b = x->i;
                r = I->op == OP_LT ? a < b : I->op == OP_LE ? a <= b : I->op == OP_GT ? a > b
                    : I->op == OP_GE ? a >= b : I->op == OP_EQ ? a == b : a != b;
            } else if (I->t == T_FLOAT) {
                float a = y->f, b = x->f;
                r = I->op == OP_LT ? a < b : I->op == OP_LE ? a <= b : I->op == OP_GT ? a > b
                    : I->op == OP_GE ? a >= b : I->op == OP_EQ ? a == b : a != b;
            } else {
                double a = y->d, b = x->d;
                r = I->op == OP_LT ? a < b : I->op == OP_LE ? a <= b : I->op == OP_GT ? a > b
                    : I->op == OP_GE ? a >= b : I->op == OP_EQ ? a == b : a != b;
            }
            y->i = r;
            sp--;
            break;
        }
        case OP_JZ_KEEP:
            if (x->i == 0) pc = (size_t)I->a;
            else sp--;
            break;
        case OP_JNZ_KEEP:
            if (x->i != 0) pc = (size_t)I->a;
            else sp--;
            break;
        case OP_JZ_POP:
            sp--;
            if (!truth(x, I->t)) pc = (size_t)I->a;
            break;
        case OP_JMP: pc = (size_t)I->a; break;
        case OP_CALL: {
            int n = funcs[I->a].nargs;
            val *a = &s[sp - (size_t)n];
            val *b = n > 1 ? a + 1 : a, *c = n > 2 ? a + 2 : a;
            if (I->t == T_INT)
                a->i = call_i(I->a, a->i, b->i, c->i);
            else if (I->t == T_FLOAT)
                a->f = call_f(I->a, a->f, b->f, c->f);
            else
                a->d = call_d(I->a, a->d, b->d, c->d);
            sp -= (size_t)n - 1;
            break;
        }
        case OP_RET:
        default:
            result = I->t == T_FLOAT ? (double)x->f : x->d;
            if (s != small) free(s);
            return result;
        }
    }
}

/* ------------------------------------------------------------------------------------------
 * OpenCL C emission.  Operations whose OpenCL form would evaluate an operand twice or be
 * undefined (int / %, float min/max/clamp) read their operands from temporaries declared
 * just before the statement; the language has no side effects, so hoisting them out of a
 * ?: or && only costs time, never changes a value.
 * ---------------------------------------------------------------------------------------- */
typedef struct emitter {
    const cls_expr *e;
    char *buf;
    size_t len, cap;
    int32_t *tmp; /* per node: temporary id (0 = none) */
    unsigned char *bare; /* per node: emitted without its own parentheses */
    unsigned char *lanes; /* per node, in lanes mode (cls__expr_emit_opencl_lanes): the value
                             varies and is a vector of type realv; NULL otherwise */
} emitter;

/* The precedence class of a floating + - * / node (0 for any other node). */
static int float_arith_class(const node *n)
{
    if (n->kind != N_BIN || n->type == T_INT) return 0;
    return n->sub == B_ADD || n->sub == B_SUB ? 1 : n->sub == B_MUL || n->sub == B_DIV ? 2 : 0;
}

/* Marks the left operands that need no parentheses: a floating + - (or * /) whose left operand
 * is of the same class reads the same without them, since C groups such chains from the left.
 * A sum of N terms is then written flat instead of N brackets deep, which device compilers
 * refuse past a few hundred ("bracket nesting level exceeded"); the tree, so the order of the
 * operations and every rounding, is the same. */
static void mark_bare(const cls_expr *e, unsigned char *bare)
{
    for (size_t k = 0; k < e->n_nodes; k++) {
        const node *n = &e->nodes[k];
        int c = float_arith_class(n);
        if (c && float_arith_class(&e->nodes[n->kid[0]]) == c &&
            e->nodes[n->kid[0]].type == n->type)
            bare[n->kid[0]] = 1;
    }
}

static int put(emitter *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(emitter *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    if (grow((void **)&m->buf, &m->cap, m->len + (size_t)n + 1, 1)) return -1;
    va_start(ap, fmt);
    vsnprintf(m->buf + m->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    m->len += (size_t)n;
    return 0;
}

static const char *type_name(const cls_expr *e, int t)
{
    if (t == e->real_t) return "real";
    return t == T_INT ? "int" : t == T_FLOAT ? "float" : "double";
}

static int is_logic(const node *n)
{
    return n->kind == N_BIN && (n->sub == B_AND || n->sub == B_OR);
}

/* Already 0 or 1: && || take other operands as (x != 0), which OpenCL needs for floating x
 * and which keeps clang quiet about int constants such as (x && 3). */
static int is_bool(const cls_expr *e, int32_t k)
{
    const node *n = &e->nodes[k];
    return n->kind == N_NOT || (n->kind == N_BIN && n->sub >= B_LT);
}

static int needs_temps(const cls_expr *e, const node *n)
{
    if (n->kind == N_BIN && n->type == T_INT && (n->sub == B_DIV || n->sub == B_MOD))
        return 1;
    (void)e;
    return n->kind == N_CALL && n->type != T_INT &&
           (n->sub == F_MIN || n->sub == F_MAX || n->sub == F_CLAMP || n->sub == F_FMIN ||
            n->sub == F_FMAX);
}

static int em_pre(void *ctx, wframe *f)
{
    emitter *m = ctx;
    const cls_expr *e = m->e;
    const node *n = &e->nodes[f->node];
    int kt = n->nk ? e->nodes[n->kid[0]].type : n->type;
    int32_t t = m->tmp[f->node];
    char num[64];
    if (t) {
        /* operands are cls_t<t>a, cls_t<t>b, cls_t<t>c */
        if (n->kind == N_BIN && n->sub == B_DIV)
            return put(m, "((cls_t%db == 0) ? 0 : ((cls_t%db == -1) ? "
                          "as_int(0u - as_uint(cls_t%da)) : (cls_t%da / cls_t%db)))",
                       t, t, t, t, t) ? -1 : 1;
        if (n->kind == N_BIN)
            return put(m, "(((cls_t%db == 0) || (cls_t%db == -1)) ? 0 : (cls_t%da %% cls_t%db))",
                       t, t, t, t) ? -1 : 1;
        if (n->sub == F_FMIN)
            return put(m, "(((cls_t%db < cls_t%da) || isnan(cls_t%da)) ? cls_t%db : cls_t%da)",
                       t, t, t, t, t) ? -1 : 1;
        if (n->sub == F_FMAX)
            return put(m, "(((cls_t%da < cls_t%db) || isnan(cls_t%da)) ? cls_t%db : cls_t%da)",
                       t, t, t, t, t) ? -1 : 1;
        if (n->sub == F_MIN)
            return put(m, "((cls_t%db < cls_t%da) ? cls_t%db : cls_t%da)", t, t, t, t) ? -1 : 1;
        if (n->sub == F_MAX)
            return put(m, "((cls_t%da < cls_t%db) ? cls_t%db : cls_t%da)", t, t, t, t) ? -1 : 1;
        /* clamp(x, lo, hi) = min(max(x, lo), hi) */
        return put(m, "((cls_t%dc < ((cls_t%da < cls_t%db) ? cls_t%db : cls_t%da)) ? cls_t%dc : "
                      "((cls_t%da < cls_t%db) ? cls_t%db : cls_t%da))",
                   t, t, t, t, t, t, t, t, t, t) ? -1 : 1;
    }
    switch (n->kind) {
    case N_INT:
        if (n->v.i == INT32_MIN) return put(m, "(-2147483647 - 1)");
        return put(m, n->v.i < 0 ? "(%d)" : "%d", (int)n->v.i);
    case N_REAL:
        format_real(num, sizeof num, n->v.d, n->type == T_FLOAT);
        return put(m, "((%s)%s)", type_name(e, n->type), num);
    case N_PARAM: return put(m, "%s", e->param_names[n->v.i]);
    case N_LOCAL: return put(m, "cls_v_%s", e->locals[n->v.i].name);
    case N_SPECIAL: return put(m, "%s", special_names[n->v.i]);
    case N_IN:
    case N_AUX: {
        const access *a = &e->acc[n->v.i];
        if (n->kind == N_AUX ? put(m, "CLS_AUX_%d(", a->array)
            : e->n_fields    ? put(m, "CLS_FIELD_%d(", -1 - a->array)
                             : put(m, "IN("))
            return -1;
        for (int d = 0; d < e->dims; d++)
            if (put(m, d ? ", %d" : "%d", a->off[d])) return -1;
        return put(m, ")");
    }
    case N_NEG: return put(m, n->type == T_INT ? "as_int(0u - as_uint(" : "(-");
    /* OpenCL refuses floating conditions in ?: (and for ! && || we stay explicit too): a
     * floating operand x is tested as (x != 0), which is C's truth for NaN as well. */
    case N_NOT: return put(m, kt == T_INT ? "(!" : "(");
    case N_CONV:
        /* float -> int: truncate, saturate, NaN -> 0 (a plain cast would be undefined) */
        if (n->type == T_INT && kt != T_INT) return put(m, "convert_int_sat_rtz(");
        if (m->lanes && m->lanes[f->node]) return put(m, "((realv)(");
        return put(m, "((%s)(", n->sub ? type_kw[n->sub] : type_name(e, n->type));
    case N_BIN:
        if (n->type == T_INT && n->sub <= B_MUL) return put(m, "as_int(as_uint(");
        if (m->bare[f->node]) return 0;
        return put(m, is_logic(n) && !is_bool(e, n->kid[0]) ? "((" : "(");
    case N_TERN: return put(m, kt != T_INT ? "((" : "(");
    case N_CALL:
        /* int clamp as min(max()): OpenCL leaves clamp undefined when lo > hi */
        if (n->sub == F_CLAMP) return put(m, "min(max(");
        return put(m, "%s(", funcs[n->sub].name);
    default: return -1;
    }
}

static int em_mid(void *ctx, wframe *f, int i)
{
    emitter *m = ctx;
    const node *n = &m->e->nodes[f->node];
    int t0 = n->nk ? m->e->nodes[n->kid[0]].type : T_INT;
    switch (n->kind) {
    case N_BIN:
        if (n->type == T_INT && n->sub <= B_MUL) return put(m, ") %s as_uint(", bin_text[n->sub]);
        if (is_logic(n))
            return put(m, "%s %s %s", is_bool(m->e, n->kid[0]) ? "" : " != 0)",
                       bin_text[n->sub], is_bool(m->e, n->kid[1]) ? "" : "(");
        return put(m, " %s ", bin_text[n->sub]);
    case N_TERN:
        if (i == 1) return put(m, "%s ? ", t0 != T_INT ? " != 0)" : "");
        return put(m, " : ");
    case N_CALL: return put(m, n->sub == F_CLAMP && i == 2 ? "), " : ", ");
    default: return 0;
    }
}

static int em_post(void *ctx, wframe *f)
{
    emitter *m = ctx;
    const cls_expr *e = m->e;
    const node *n = &e->nodes[f->node];
    if (f->skip) return 0;
    switch (n->kind) {
    case N_NEG: return put(m, n->type == T_INT ? "))" : ")");
    case N_NOT: return put(m, e->nodes[n->kid[0]].type == T_INT ? ")" : " == 0)");
    case N_CONV:
        return put(m, n->type == T_INT && e->nodes[n->kid[0]].type != T_INT ? ")" : "))");
    case N_BIN:
        if (is_logic(n) && !is_bool(e, n->kid[1])) return put(m, " != 0))");
        if (m->bare[f->node]) return 0;
        return put(m, n->type == T_INT && n->sub <= B_MUL ? "))" : ")");
    case N_TERN:
    case N_CALL: return put(m, ")");
    default: return 0;
    }
}

static char *emit(const cls_expr *e, int lanes)
{
    if (!e) return NULL;
    emitter m = {e, NULL, 0, 0, NULL, NULL, NULL};
    walker w = {em_pre, em_mid, em_post};
    int32_t ntmp = 0;
    m.tmp = calloc(e->n_nodes ? e->n_nodes : 1, sizeof *m.tmp);
    m.bare = calloc(e->n_nodes ? e->n_nodes : 1, 1);
    if (!m.tmp || !m.bare || put(&m, "%s", "")) goto fail;
    if (lanes &&
        (!(m.lanes = calloc(e->n_nodes ? e->n_nodes : 1, 1)) || mark_vary(e, m.lanes, 1)))
        goto fail;
    mark_bare(e, m.bare);
    for (size_t s = 0; s < e->n_stmts; s++) {
        const stmt *st = &e->stmts[s];
        /* children precede parents, so inner temporaries are declared first */
        for (int32_t k = st->first; k <= st->root; k++) {
            const node *n = &e->nodes[k];
            if (!needs_temps(e, n)) continue;
            ntmp++;
            for (int i = 0; i < n->nk; i++) {
                if (put(&m, "const %s cls_t%d%c = ", type_name(e, e->nodes[n->kid[i]].type),
                        ntmp, 'a' + i) ||
                    walk(e, n->kid[i], &w, &m) || put(&m, ";\n"))
                    goto fail;
            }
            m.tmp[k] = ntmp;
        }
        if (st->local >= 0) {
            const local *l = &e->locals[st->local];
            /* lanes mode: a local of type real holds a vector (varying or not) */
            const char *type = m.lanes && l->type == e->real_t ? "realv" : type_kw[l->spelling];
            if (put(&m, "%s%s cls_v_%s = ", l->is_const ? "const " : "", type, l->name))
                goto fail;
        } else if (put(&m, "return ")) {
            goto fail;
        }
        if (walk(e, st->root, &w, &m) || put(&m, ";\n")) goto fail;
    }
    free(m.tmp);
    free(m.bare);
    free(m.lanes);
    return m.buf;
fail:
    free(m.tmp);
    free(m.bare);
    free(m.lanes);
    free(m.buf);
    return NULL;
}

char *cls__expr_emit_opencl(const cls_expr *e) { return emit(e, 0); }

char *cls__expr_emit_opencl_lanes(const cls_expr *e)
{
    return cls__expr_lane_wise(e) ? emit(e, 1) : NULL;
}
