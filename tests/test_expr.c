/* test_expr.c: TAP tests of the stencil body language (lib/expr.c): parse, errors, emit, eval. */
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "tap.h"

static const char *const aux_names[] = {"k", "w"};
static const char *const param_names[] = {"alpha", "beta"};

static cls_expr_env env_of(int dims, int dbl)
{
    cls_expr_env env = {dims, dbl, 2, aux_names, 2, param_names, 0, NULL, 0};
    return env;
}

/* Reads return a value that encodes array and offset; `reads` counts the calls. */
typedef struct reader {
    int reads;
    double in_override[2]; /* IN(0) and IN(1) in 1-D when use_override */
    int use_override;
} reader;

static double read_fn(void *user, int array, const int off[3])
{
    reader *r = user;
    r->reads++;
    if (r->use_override && array == -1 && off[0] >= 0 && off[0] <= 1) return r->in_override[off[0]];
    return (array + 1) * 1000.0 + off[0] + 10.0 * off[1] + 100.0 * off[2] + 0.5;
}

/* A body shortened to one line for a TAP description. */
static const char *oneline(const char *s)
{
    static char buf[80];
    size_t i = 0;
    for (; s[i] && i < sizeof buf - 1; i++) buf[i] = (s[i] == '\n' || s[i] == '\r') ? ' ' : s[i];
    buf[i] = 0;
    return buf;
}

static cls_expr *parse(int dims, int dbl, const char *body)
{
    cls_expr_env env = env_of(dims, dbl);
    char err[256];
    cls_expr *e = NULL;
    int rc = cls__expr_parse(body, &env, &e, err, sizeof err);
    if (rc) tap_diag("parse of \"%s\" failed (%d): %s", oneline(body), rc, err);
    return e;
}

static void check_parses(int dims, int dbl, const char *body)
{
    cls_expr *e = parse(dims, dbl, body);
    tap_ok(e != NULL, "parses (%d-D): %s", dims, oneline(body));
    cls__expr_free(e);
}

static void check_error(int dims, int dbl, const char *body, const char *expected)
{
    cls_expr_env env = env_of(dims, dbl);
    char err[256];
    cls_expr *e = (cls_expr *)&env; /* must be reset to NULL on failure */
    int rc = cls__expr_parse(body, &env, &e, err, sizeof err);
    int ok = rc == -1 && e == NULL && strcmp(err, expected) == 0;
    if (!ok) tap_diag("rc %d, got \"%s\"", rc, rc ? err : "");
    tap_ok(ok, "error \"%s\"", expected);
    if (rc == 0) cls__expr_free(e);
}

/* Evaluates at X=3 Y=4 Z=5, NX=10 NY=11 NZ=12, STEP=7, alpha=0.5 beta=-0.25 (rounded). */
static double eval_r(int dims, int dbl, const char *body, reader *r)
{
    cls_expr *e = parse(dims, dbl, body);
    if (!e) return NAN;
    double params[2] = {0.5, -0.25};
    cls_expr_point pt = {{3, dims > 1 ? 4 : 0, dims > 2 ? 5 : 0},
                         {10, dims > 1 ? 11 : 1, dims > 2 ? 12 : 1},
                         7,
                         params,
                         read_fn,
                         r};
    double v = cls__expr_eval(e, &pt);
    cls__expr_free(e);
    return v;
}

static double eval_b(int dims, int dbl, const char *body)
{
    reader r = {0};
    return eval_r(dims, dbl, body, &r);
}

/* Bitwise equality (distinguishes -0 and +0; any NaN equals any NaN). */
static int same(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_eval(int dims, int dbl, const char *body, double expected)
{
    double v = eval_b(dims, dbl, body);
    if (!same(v, expected)) tap_diag("got %.17g, expected %.17g", v, expected);
    tap_ok(same(v, expected), "%s: %s = %.17g", dbl ? "double" : "float", oneline(body), expected);
}

static void check_emit(int dims, int dbl, const char *body, const char *expected)
{
    cls_expr *e = parse(dims, dbl, body);
    char *s = e ? cls__expr_emit_opencl(e) : NULL;
    int ok = s && strcmp(s, expected) == 0;
    if (!ok) tap_diag("emitted:\n%s", s ? s : "(null)");
    tap_ok(ok, "emit: %s", oneline(body));
    free(s);
    cls__expr_free(e);
}

static void test_valid_forms(void)
{
    check_parses(1, 1, "IN(0)");
    check_parses(1, 1, "IN(-1) + IN(1);");
    check_parses(2, 1, "  alpha * (IN(-1,0) + IN(1,0))\n + beta*IN(0,1) - 4*IN(0,0) ; ");
    check_parses(3, 0, "IN(0,0,1) + IN(0,0,-1) + AUX(k, 0, 0, 0) + AUX(1, 1, 1, 1)");
    check_parses(2, 1, "real t = IN(0,0);\nreturn t * t;");
    check_parses(2, 1, "const real a = 1; float b = a; double c = b; int d = 2; return a+b+c+d;");
    check_parses(2, 1, "return IN(0,0);");
    check_parses(2, 1, "// comment\nIN(0,0) /* inner */ + /**/ 1 // trailing");
    check_parses(2, 1, "X + Y + Z + NX + NY + NZ + STEP");
    check_parses(2, 1, "(real)X + (float)1 + (double)Y + (int)2.5");
    check_parses(2, 1, "1.5 + 2. + .5 + 1e-3 + 1.5e+3 + 2.5f + 7E2F + 0.0");
    check_parses(2, 1, "X < 1 || Y <= 2 && NX > 3 || NY >= 4 ? X == Y : X != Y");
    check_parses(2, 1, "!X + -Y + +1 - - 2");
    check_parses(2, 1, "IN(2*-1+1, -(3-1)) + IN(+1, (1))");
    check_parses(2, 1,
                 "fmin(1,2)+fmax(1,2)+fabs(1)+floor(1)+ceil(1)+trunc(1)+round(1)+sqrt(1)"
                 "+fma(1,2,3)+copysign(1,2)+min(1,2)+max(1,2)+clamp(1,2,3)");
    check_parses(2, 1,
                 "exp(1)+exp2(1)+exp10(1)+log(1)+log2(1)+log10(1)+pow(1,2)+sin(1)+cos(1)"
                 "+tan(1)+tanh(1)+sinh(1)+cosh(1)+asin(1)+acos(1)+atan(1)+atan2(1,2)"
                 "+cbrt(1)+hypot(1,2)+erf(1)");
    check_parses(1, 0, "\t\r\n\v\fIN(0)\n\n");
    check_parses(1, 1, "real cls_t1a = 1; return cls_t1a;");

    /* a parameter may share a function's name: a call still means the function */
    cls_expr_env env = env_of(1, 1);
    const char *const pn[] = {"sin"};
    env.param_names = pn;
    env.n_params = 1;
    char err[256];
    cls_expr *e = NULL;
    tap_ok(cls__expr_parse("sin(sin)", &env, &e, err, sizeof err) == 0,
           "param named like a function");
    cls__expr_free(e);
    cls__expr_free(NULL);
}

static void test_errors(void)
{
    check_error(2, 1, "1 + foo", "line 1, column 5: unknown identifier 'foo'");
    check_error(2, 1, "INN(0, 0)", "line 1, column 1: unknown function 'INN'");
    check_error(2, 1, "alpha(1)", "line 1, column 1: unknown function 'alpha'");
    check_error(2, 1, "IN(0, 0, 0)",
                "line 1, column 1: IN takes 2 offsets in a 2-D stencil, got 3");
    check_error(1, 1, "2 * IN(0, 1)",
                "line 1, column 5: IN takes 1 offset in a 1-D stencil, got 2");
    check_error(3, 1, "IN()", "line 1, column 1: IN takes 3 offsets in a 3-D stencil, got 0");
    check_error(2, 1, "AUX(k, 0)", "line 1, column 1: AUX takes 2 offsets in a 2-D stencil, got 1");
    check_error(2, 1, "AUX(k)", "line 1, column 1: AUX takes 2 offsets in a 2-D stencil, got 0");
    check_error(2, 1, "AUX(pow, 0, 0)", "line 1, column 5: unknown auxiliary array 'pow'");
    check_error(2, 1, "AUX(2, 0, 0)",
                "line 1, column 5: auxiliary array index 2 out of range (2 arrays)");
    check_error(2, 1, "AUX(X, 0, 0)", "line 1, column 5: unknown auxiliary array 'X'");
    check_error(2, 1, "AUX(1.0, 0, 0)",
                "line 1, column 5: first argument of AUX must be an auxiliary array name or index");
    check_error(2, 1, "IN(alpha, 0)", "line 1, column 4: offset of IN must be an integer constant");
    check_error(2, 1, "IN(0, X)", "line 1, column 7: offset of IN must be an integer constant");
    check_error(2, 1, "IN(0, 4/2)", "line 1, column 7: offset of IN must be an integer constant");
    check_error(2, 1, "IN(1.0, 0)", "line 1, column 4: offset of IN must be an integer constant");
    check_error(2, 1, "AUX(k, 0, 1025)",
                "line 1, column 11: offset of AUX out of range (|offset| <= 1024)");
    check_error(2, 1, "IN(100000 * 100000, 0)",
                "line 1, column 4: offset of IN out of range (|offset| <= 1024)");
    check_error(2, 1, "IN", "line 1, column 3: expected '(' after 'IN', got end of body");
    check_error(2, 1, "real t = 1; real t = 2; return t;",
                "line 1, column 18: local 't' redeclared");
    check_error(2, 1, "real alpha = 1; return alpha;",
                "line 1, column 6: local 'alpha' shadows a parameter");
    check_error(2, 1, "int X = 1; return X;",
                "line 1, column 5: local 'X' shadows a reserved name");
    check_error(2, 1, "real IN = 1; return 1;",
                "line 1, column 6: local 'IN' shadows a reserved name");
    check_error(2, 1, "real sqrt = 1; return 1;",
                "line 1, column 6: local 'sqrt' shadows a function");
    check_error(2, 1, "real k = 1; return 1;",
                "line 1, column 6: local 'k' shadows an auxiliary array");
    check_error(2, 1, "real float = 1; return 1;", "line 1, column 6: 'float' is a reserved word");
    check_error(2, 1, "real a = b; real b = 1; return a;",
                "line 1, column 10: use of undeclared local 'b' (declared later)");
    check_error(2, 1, "real t = t + 1; return t;",
                "line 1, column 10: local 't' used in its own initializer");
    check_error(2, 1, "real t = 1;\nt * 2",
                "line 2, column 1: missing 'return' after declarations, got 't'");
    check_error(2, 1, "real t = 1;",
                "line 1, column 12: missing 'return' after declarations, got end of body");
    check_error(2, 1, "return 1",
                "line 1, column 9: expected ';' after the return expression, got end of body");
    check_error(2, 1, "return 1; real x = 2;",
                "line 1, column 11: unexpected 'real' after the return statement");
    check_error(2, 1, "IN(0,0) IN(1,0)",
                "line 1, column 9: unexpected 'IN' after the end of the expression");
    check_error(2, 1, "1;;", "line 1, column 3: unexpected ';' after the end of the expression");
    check_error(2, 1, "", "line 1, column 1: empty body");
    check_error(2, 1, "  // nothing\n  /* at all */ ", "line 2, column 16: empty body");
    check_error(2, 1, "1 + /* open", "line 1, column 5: unterminated comment");
    check_error(2, 1, "0x1F", "line 1, column 1: malformed number '0x1F'");
    check_error(2, 1, "1.5.2", "line 1, column 1: malformed number '1.5.2'");
    check_error(2, 1, "1e+", "line 1, column 1: malformed number '1e+'");
    check_error(2, 1, "10u", "line 1, column 1: malformed number '10u'");
    check_error(2, 1, "010", "line 1, column 1: octal literals are not supported: '010'");
    check_error(2, 1, "2147483648", "line 1, column 1: integer literal '2147483648' out of range");
    check_error(2, 0, "1e39",
                "line 1, column 1: floating literal '1e39' out of range for real (float)");
    check_error(2, 1, "1e309",
                "line 1, column 1: floating literal '1e309' out of range for real (double)");
    check_error(2, 1, "X % 2.0", "line 1, column 3: operator '%' requires int operands");
    check_error(2, 1, "sin(1, 2)", "line 1, column 1: function 'sin' takes 1 argument, got 2");
    check_error(2, 1, "clamp(1, 2)", "line 1, column 1: function 'clamp' takes 3 arguments, got 2");
    check_error(2, 1, "sqrt + 1", "line 1, column 1: function 'sqrt' used without arguments");
    check_error(2, 1, "a--b", "line 1, column 2: operator '--' is not supported");
    check_error(2, 1, "1 & 2", "line 1, column 3: unexpected character '&'");
    check_error(2, 1, "1 + \x80", "line 1, column 5: unexpected character '\\x80'");
    check_error(2, 1, "(1 + 2", "line 1, column 7: expected ')', got end of body");
    check_error(2, 1, "fmin(1 2)",
                "line 1, column 8: expected ',' or ')' in the arguments of 'fmin', got '2'");
    check_error(2, 1, "X ? 1", "line 1, column 6: expected ':' in ?:, got end of body");
    check_error(2, 1, "1 +", "line 1, column 4: expected an expression, got end of body");
    check_error(2, 1, "real = 1; return 1;",
                "line 1, column 6: expected a name after 'real', got '='");
    check_error(2, 1, "const t = 1; return t;",
                "line 1, column 7: expected a type after 'const', got 't'");
    check_error(2, 1, "real t; return t;", "line 1, column 7: expected '=' after 't', got ';'");
    check_error(2, 1, "real t = 1 return t;",
                "line 1, column 12: expected ';' after the declaration, got 'return'");
    check_error(2, 1, "x = 1", "line 1, column 1: unknown identifier 'x'");
    check_error(2, 1, "1\n  +\n\tfoo_bar2", "line 3, column 2: unknown identifier 'foo_bar2'");
    check_error(2, 1, "(real 1)", "line 1, column 7: expected ')' after the cast type, got '1'");

    /* nesting is bounded: a clear error, never a stack overflow */
    size_t n = 100000;
    char *b = malloc(2 * n + 2);
    memset(b, '(', n);
    b[n] = '1';
    memset(b + n + 1, ')', n);
    b[2 * n + 1] = 0;
    check_error(2, 1, b, "line 1, column 201: expression nested too deeply (limit 200)");
    memset(b, '-', n);
    b[n] = '1';
    b[n + 1] = 0;
    for (size_t i = 1; i < n; i += 2) b[i] = ' ';
    check_error(2, 1, b, "line 1, column 401: expression nested too deeply (limit 200)");
    /* 200 levels are fine */
    memset(b, '(', 200);
    b[200] = '1';
    memset(b + 201, ')', 200);
    b[401] = 0;
    check_parses(2, 1, b);
    free(b);

    /* length bound */
    b = malloc(CLS_EXPR_MAX_BODY + 2);
    memset(b, ' ', CLS_EXPR_MAX_BODY + 1);
    b[0] = '1';
    b[CLS_EXPR_MAX_BODY + 1] = 0;
    check_error(2, 1, b, "line 1, column 1: body longer than 8388608 bytes");
    b[CLS_EXPR_MAX_BODY] = 0;
    check_parses(2, 1, b);
    free(b);

    /* bad arguments, NULL error buffer */
    cls_expr_env env = env_of(4, 1);
    cls_expr *e = NULL;
    char err[256];
    tap_ok(cls__expr_parse("1", &env, &e, err, sizeof err) == -1 && !e, "dims 4 rejected");
    env = env_of(2, 1);
    tap_ok(cls__expr_parse(NULL, &env, &e, err, sizeof err) == -1, "NULL body rejected");
    tap_ok(cls__expr_parse("foo", &env, &e, NULL, 0) == -1, "NULL err buffer accepted");
    char tiny[8];
    tap_ok(cls__expr_parse("foo", &env, &e, tiny, sizeof tiny) == -1 && strlen(tiny) == 7,
           "message truncated to the buffer");
}

static void test_extents(void)
{
    cls_expr *e = parse(2, 1, "IN(-2,0) + IN(1,3) + IN(1,3) + AUX(k,0,-1) + AUX(k,2,-1)");
    int lo[3], hi[3], used;
    cls__expr_in_extent(e, lo, hi, &used);
    tap_ok(used && lo[0] == -2 && hi[0] == 1 && lo[1] == 0 && hi[1] == 3 && lo[2] == 0 &&
               hi[2] == 0,
           "IN extent [-2,1]x[0,3]");
    cls__expr_aux_extent(e, 0, lo, hi, &used);
    tap_ok(used && lo[0] == 0 && hi[0] == 2 && lo[1] == -1 && hi[1] == -1, "aux 0 extent");
    cls__expr_aux_extent(e, 1, lo, hi, &used);
    tap_ok(!used && lo[0] == 0 && hi[0] == 0, "aux 1 unused");
    cls__expr_aux_extent(e, 99, lo, hi, &used);
    tap_ok(!used, "aux 99 unused");
    tap_ok(cls__expr_in_reads(e) == 2, "2 distinct IN offsets (got %zu)", cls__expr_in_reads(e));
    cls__expr_free(e);

    e = parse(3, 0, "IN(1, 2, -3) + IN(-1, 0, 7) + IN(2*-1+1, -(3-1), 0)");
    cls__expr_in_extent(e, lo, hi, &used);
    tap_ok(used && lo[0] == -1 && hi[0] == 1 && lo[1] == -2 && hi[1] == 2 && lo[2] == -3 &&
               hi[2] == 7,
           "3-D extent with constant offset expressions");
    tap_ok(cls__expr_in_reads(e) == 3, "3 distinct reads");
    cls__expr_free(e);

    e = parse(1, 1, "X + AUX(w, 4)");
    cls__expr_in_extent(e, lo, hi, &used);
    tap_ok(!used, "no IN access");
    cls__expr_aux_extent(e, 1, lo, hi, &used);
    tap_ok(used && lo[0] == 4 && hi[0] == 4, "aux by name");
    tap_ok(cls__expr_in_reads(e) == 0, "0 reads");
    cls__expr_free(e);

    /* offsets in an unused branch still count: the halo must cover them */
    e = parse(1, 1, "X > 100 ? IN(-5) : IN(5)");
    cls__expr_in_extent(e, lo, hi, &used);
    tap_ok(used && lo[0] == -5 && hi[0] == 5, "both branches in the extent");
    cls__expr_free(e);
}

static void test_stats(void)
{
    static const struct {
        const char *body;
        int exact;
        size_t flops;
    } cases[] = {
        {"alpha*(IN(-1)+IN(1)) - 2*IN(0)", 1, 4},
        {"X + 1 - STEP * 2", 1, 0},
        {"sqrt(IN(0)) + min(X, 2)", 1, 2},
        {"min(IN(0), 2) + fma(IN(0), 2, 3) / 4", 1, 4},
        {"X > 1 ? IN(0) * 2 : IN(1) + 3", 1, 2},
        {"real t = IN(0) * IN(0); int i = X / 2; return t - i;", 1, 2},
        {"exp(IN(0))", 0, 1},
        {"IN(0) + pow(2, X)", 0, 2},
        {"X > 1 && sin(IN(0)) > 0", 0, 1},
        {"(int)IN(0) % 3 == 0", 1, 0},
        {"-IN(0)", 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cls_expr *e = parse(1, 1, cases[i].body);
        tap_ok(e && cls__expr_is_exact(e) == cases[i].exact && cls__expr_flops(e) == cases[i].flops,
               "%s: exact %d, flops %zu (got %d, %zu)", cases[i].body, cases[i].exact,
               cases[i].flops, cls__expr_is_exact(e), cls__expr_flops(e));
        cls__expr_free(e);
    }
}

static void test_emit(void)
{
    check_emit(2, 1, "alpha*(IN(-1,0)+IN(1,0)) - 4*IN(0,0)",
               "return ((alpha * (IN(-1, 0) + IN(1, 0))) - (((real)4.0) * IN(0, 0)));\n");
    /* A left-grouped chain of one precedence class is written without inner brackets. */
    check_emit(1, 0, "0.1 + -0.0 + 1e-3f",
               "return (((real)0.100000001) + ((real)-0.0) + ((real)0.00100000005));\n");
    check_emit(1, 0, "IN(0) - IN(1) + IN(-1) * IN(0) / IN(1) * IN(0) - (IN(1) - IN(0))",
               "return (IN(0) - IN(1) + (IN(-1) * IN(0) / IN(1) * IN(0)) - (IN(1) - IN(0)));\n");
    check_emit(1, 0, "int i = X + 1 + 2; return i;",
               "int cls_v_i = as_int(as_uint(as_int(as_uint(X) + as_uint(1))) + as_uint(2));\n"
               "return ((real)(cls_v_i));\n");
    check_emit(1, 1, "0.1", "return ((real)0.10000000000000001);\n");
    check_emit(3, 1, "AUX(w, 1, -2, 3) + AUX(0, 0, 0, 0)",
               "return (CLS_AUX_1(1, -2, 3) + CLS_AUX_0(0, 0, 0));\n");
    check_emit(2, 0, "const real t = IN(0,0);\nint i = X + 1;\nreturn t * i;",
               "const real cls_v_t = IN(0, 0);\n"
               "int cls_v_i = as_int(as_uint(X) + as_uint(1));\n"
               "return (cls_v_t * ((real)(cls_v_i)));\n");
    check_emit(1, 1, "(float)IN(0) + (int)beta",
               "return ((real)((((float)(IN(0))) + ((float)(convert_int_sat_rtz(beta))))));\n");
    check_emit(
        1, 1, "X / (STEP - 1)",
        "const int cls_t1a = X;\n"
        "const int cls_t1b = as_int(as_uint(STEP) - as_uint(1));\n"
        "return ((real)(((cls_t1b == 0) ? 0 : ((cls_t1b == -1) ? as_int(0u - as_uint(cls_t1a)) "
        ": (cls_t1a / cls_t1b)))));\n");
    check_emit(1, 1, "X % 2 ? 1.5 : 2",
               "const int cls_t1a = X;\n"
               "const int cls_t1b = 2;\n"
               "return ((((cls_t1b == 0) || (cls_t1b == -1)) ? 0 : (cls_t1a % cls_t1b)) ? "
               "((real)1.5) : ((real)2.0));\n");
    check_emit(1, 1, "IN(0) && !IN(1) ? -X : -2147483647 - 1",
               "return ((real)((((IN(0) != 0) && (IN(1) == 0)) ? as_int(0u - as_uint(X)) : "
               "as_int(as_uint((-2147483647)) - as_uint(1)))));\n");
    check_emit(1, 1, "X && 3 || !X", "return ((real)((((X != 0) && (3 != 0)) || (!X))));\n");
    check_emit(1, 1, "min(IN(0), 2) + max(X, 1)",
               "const real cls_t1a = IN(0);\n"
               "const real cls_t1b = ((real)2.0);\n"
               "return (((cls_t1b < cls_t1a) ? cls_t1b : cls_t1a) + ((real)(max(X, 1))));\n");
    check_emit(1, 1, "fmax(IN(0), 0)",
               "const real cls_t1a = IN(0);\n"
               "const real cls_t1b = ((real)0.0);\n"
               "return (((cls_t1a < cls_t1b) || isnan(cls_t1a)) ? cls_t1b : cls_t1a);\n");
    check_emit(1, 0, "clamp(X, 0, 9) + clamp(IN(0), 0, 1)",
               "const real cls_t1a = IN(0);\n"
               "const real cls_t1b = ((real)0.0);\n"
               "const real cls_t1c = ((real)1.0);\n"
               "return (((real)(min(max(X, 0), 9))) + ((cls_t1c < ((cls_t1a < cls_t1b) ? cls_t1b : "
               "cls_t1a)) ? cls_t1c : ((cls_t1a < cls_t1b) ? cls_t1b : cls_t1a)));\n");
    check_emit(1, 0, "sqrt(X) + exp10(1.0) + (double)1 * 2.5",
               "return ((real)((((double)((sqrt(((real)(X))) + exp10(((real)1.0))))) + "
               "(((double)(1)) * ((double)2.5)))));\n");
    check_emit(1, 1, "Y + NZ + STEP",
               "return ((real)(as_int(as_uint(as_int(as_uint(0) + as_uint(1))) + "
               "as_uint(STEP))));\n");
}

static void test_eval(void)
{
    /* float vs double rounding */
    check_eval(1, 1, "0.1 + 0.2", 0.1 + 0.2);
    check_eval(1, 0, "0.1 + 0.2", (double)(0.1f + 0.2f));
    tap_ok(eval_b(1, 0, "0.1 + 0.2") != eval_b(1, 1, "0.1 + 0.2"), "float and double differ");
    check_eval(1, 0, "16777216.0 + 1.0", 16777216.0);
    check_eval(1, 1, "16777216.0 + 1.0", 16777217.0);
    check_eval(1, 0, "(double)16777216.0 + 1.0 > 16777216.0", 1.0); /* computed in double */
    check_eval(1, 0, "(double)16777216.0 + 1.0", 16777216.0);       /* result rounded to real */
    check_eval(1, 0, "16777217", 16777216.0);                       /* int result rounded to real */
    check_eval(1, 1, "1.0 / 3.0", 1.0 / 3.0);
    check_eval(1, 0, "1.0 / 3.0", (double)(1.0f / 3.0f));
    check_eval(1, 0, "1.0 / 3", (double)(1.0f / 3.0f));
    check_eval(1, 1, "(float)(1.0 / 3.0)", (double)(float)(1.0 / 3.0));

    /* int arithmetic */
    check_eval(1, 1, "7 / 2", 3.0);
    check_eval(1, 1, "-7 / 2", -3.0);
    check_eval(1, 1, "-7 % 3", -1.0);
    check_eval(1, 1, "7 % -3", 1.0);
    check_eval(1, 1, "1 / 2", 0.0);
    check_eval(1, 1, "1 / 2.0", 0.5);
    check_eval(1, 1, "X / 0", 0.0);
    check_eval(1, 1, "X % 0", 0.0);
    check_eval(1, 1, "(-2147483647 - 1) / -1", -2147483648.0);
    check_eval(1, 1, "(-2147483647 - 1) % -1", 0.0);
    check_eval(1, 1, "2147483647 + 1", -2147483648.0);
    check_eval(1, 1, "-(-2147483647 - 1)", -2147483648.0);
    check_eval(1, 1, "65536 * 65536 + 5", 5.0);
    check_eval(1, 1, "(X + 1) * NX - STEP", 33.0);

    /* conversions */
    check_eval(1, 1, "(int)-2.7", -2.0);
    check_eval(1, 1, "(int)2.999", 2.0);
    check_eval(1, 1, "(int)1e10", 2147483647.0);
    check_eval(1, 1, "(int)-1e10", -2147483648.0);
    check_eval(1, 1, "(int)(0.0 / 0.0)", 0.0);
    check_eval(1, 1, "int i = 2.9; return i;", 2.0);
    check_eval(1, 1, "(float)1e300", INFINITY);

    /* comparisons and logic */
    check_eval(1, 1, "(0.0 / 0.0) != (0.0 / 0.0)", 1.0);
    check_eval(1, 1, "(0.0 / 0.0) == (0.0 / 0.0)", 0.0);
    check_eval(1, 1, "!(0.0 / 0.0)", 0.0);
    check_eval(1, 1, "!0.0 + !-0.0 + !X", 2.0);
    check_eval(1, 1, "(0.0 / 0.0) ? 1 : 2", 1.0);
    check_eval(1, 1, "0.5 && 2 || 0", 1.0);
    check_eval(1, 1, "3 < 2.5 + 1", 1.0);
    check_eval(1, 1, "1 < 2 == 1", 1.0);

    /* short-circuit: observable through the read callback */
    reader r = {0};
    double v = eval_r(1, 1, "X > 100 ? IN(5) : IN(-5)", &r);
    tap_ok(v == -4.5 && r.reads == 1, "?: reads only the chosen branch (%d reads)", r.reads);
    memset(&r, 0, sizeof r);
    v = eval_r(1, 1, "0 && IN(1)", &r);
    tap_ok(v == 0.0 && r.reads == 0, "&& short-circuits");
    memset(&r, 0, sizeof r);
    v = eval_r(1, 1, "1 || IN(1)", &r);
    tap_ok(v == 1.0 && r.reads == 0, "|| short-circuits");
    memset(&r, 0, sizeof r);
    v = eval_r(1, 1, "IN(1) && IN(2)", &r);
    tap_ok(v == 1.0 && r.reads == 2, "&& evaluates both when needed");
    memset(&r, 0, sizeof r);
    v = eval_r(1, 1, "X == 3 ? (STEP == 7 ? IN(1) : IN(2)) : IN(3)", &r);
    tap_ok(v == 1.5 && r.reads == 1, "nested ?:");

    /* min/max/clamp semantics (OpenCL definitions) */
    check_eval(1, 1, "min(1, 2.5)", 1.0);
    check_eval(1, 1, "max(X, 2)", 3.0);
    check_eval(1, 1, "min(X, 2) + 0.5", 2.5);
    check_eval(1, 1, "min(0.0 / 0.0, 1.0)", NAN); /* y < x false: x */
    check_eval(1, 1, "min(1.0, 0.0 / 0.0)", 1.0);
    check_eval(1, 1, "max(0.0 / 0.0, 1.0)", NAN);
    check_eval(1, 1, "max(1.0, 0.0 / 0.0)", 1.0);
    check_eval(1, 1, "fmin(0.0 / 0.0, 1.0)", 1.0);
    check_eval(1, 1, "fmax(1.0, 0.0 / 0.0)", 1.0);
    check_eval(1, 1, "1 / fmin(-0.0, 0.0)", -INFINITY); /* the first of equal values */
    check_eval(1, 1, "1 / fmin(0.0, -0.0)", INFINITY);
    check_eval(1, 1, "1 / min(0.0, -0.0)", INFINITY);
    check_eval(1, 1, "clamp(5, 1, 3)", 3.0);
    check_eval(1, 1, "clamp(-5, 1, 3)", 1.0);
    check_eval(1, 1, "clamp(X, 5, 1)", 1.0); /* min(max(x, lo), hi) */
    check_eval(1, 1, "clamp(X, 5.0, 1)", 1.0);
    check_eval(1, 1, "clamp(0.5, 1, 3.0)", 1.0);
    check_eval(1, 0, "clamp(2.5, 1.0, 3.0)", 2.5);

    /* exact functions */
    check_eval(1, 1, "fabs(-2) + floor(-2.5) + ceil(-2.5) + trunc(-2.5) + round(-2.5)",
               2 - 3 - 2 - 2 - 3);
    check_eval(1, 1, "round(0.5) + round(1.5) + round(2.5)", 1 + 2 + 3);
    check_eval(1, 1, "sqrt(2)", sqrt(2.0));
    check_eval(1, 0, "sqrt(2)", (double)sqrtf(2.0f));
    check_eval(1, 1, "copysign(3, -0.0)", -3.0);

    /* no contraction: a*b+c rounds twice, fma once */
    reader fr = {0};
    fr.use_override = 1;
    fr.in_override[0] = 1.0 + ldexp(1.0, -30);
    fr.in_override[1] = 1.0 - ldexp(1.0, -30);
    v = eval_r(1, 1, "IN(0) * IN(1) - 1.0", &fr);
    tap_ok(v == 0.0, "a*b-1 rounds the product (%.17g)", v);
    v = eval_r(1, 1, "fma(IN(0), IN(1), -1.0)", &fr);
    tap_ok(v == -ldexp(1.0, -60), "fma rounds once (%.17g)", v);

    /* inexact functions are wired to the right libm calls */
    check_eval(1, 1, "exp(0) + log(1) + pow(2, 10) + exp2(3) + log2(8) + sqrt(16)",
               1 + 0 + 1024 + 8 + 3 + 4);
    tap_ok(fabs(eval_b(1, 1, "exp10(2)") - 100.0) < 1e-12, "exp10");
    tap_ok(fabs(eval_b(1, 0, "sin(1) * sin(1) + cos(1) * cos(1)") - 1.0) < 1e-6, "sin/cos float");
    tap_ok(fabs(eval_b(1, 1, "atan2(1, 1) * 4") - 3.14159265358979) < 1e-12, "atan2");
    tap_ok(fabs(eval_b(1, 1, "hypot(3, 4) + cbrt(27) + erf(0) + tanh(0) + asin(0) + acos(1)") -
                8.0) < 1e-12,
           "hypot, cbrt, erf, tanh, asin, acos");

    /* declarations: types, conversions, chains */
    float fa = 3.5f;
    int ia = (int)(fa * 2.5f);
    double dd = (double)(fa / 3.0f);
    float ff = (float)dd;
    check_eval(1, 0,
               "real a = 3.5; int i = (int)(a * 2.5); double d = a / 3; float f = d; return f + i;",
               (double)(ff + (float)ia));
    check_eval(1, 1, "double a = 1; float b = a / 3; double c = b; return c;",
               (double)(float)(1.0 / 3.0));
    check_eval(
        1, 1, "real a = IN(0); real b = a + IN(1); real c = b * a; const real d = c - a; return d;",
        ((0.5 + 1.5) * 0.5) - 0.5);
    check_eval(1, 1, "int i = X; int j = i * i; int k2 = j - i; return k2 / 2;", 3.0);

    /* names */
    check_eval(3, 1, "X + 10 * Y + 100 * Z + 1000 * (NX + NY + NZ) + 100000 * STEP",
               3 + 40 + 500 + 33000 + 700000);
    check_eval(1, 1, "Y + NY + Z + NZ", 2.0); /* unused dimensions are 0 / 1 */
    check_eval(1, 1, "alpha + beta", 0.25);
    check_eval(2, 1, "AUX(k, 1, 2) + AUX(1, -1, 0)", 1000 + 1 + 20 + 0.5 + 2000 - 1 + 0.5);
    check_eval(3, 1, "IN(1, -2, 3)", 1 - 20 + 300 + 0.5);
    check_eval(1, 0, "1.0e-45 > 0", 1.0); /* float denormal literal */

    /* long left-nested chains need no recursion */
    size_t n = 150000;
    char *b = malloc(n * 6 + 8);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) o += (size_t)sprintf(b + o, i ? "+IN(0)" : "IN(0)");
    cls_expr *e = parse(1, 1, b);
    reader lr = {0};
    double params[2] = {0, 0};
    cls_expr_point pt = {{0, 0, 0}, {1, 1, 1}, 0, params, read_fn, &lr};
    v = e ? cls__expr_eval(e, &pt) : 0;
    tap_ok(e && v == 0.5 * (double)n && lr.reads == (int)n, "a chain of %zu additions", n);
    char *s = e ? cls__expr_emit_opencl(e) : NULL;
    tap_ok(s && strlen(s) > n * 8, "its emission");
    free(s);
    cls__expr_free(e);
    /* many locals */
    o = 0;
    for (size_t i = 0; i < 5000; i++)
        o += (size_t)sprintf(b + o, "real v%zu = %s + 1;\n", i, i ? "v0" : "IN(0)");
    sprintf(b + o, "return v4999;");
    e = parse(1, 1, b);
    lr.reads = 0;
    v = e ? cls__expr_eval(e, &pt) : 0;
    tap_ok(e && v == 2.5, "5000 locals (%.17g)", v);
    cls__expr_free(e);
    free(b);

    /* the parse does not keep pointers into the env's names */
    char pname[8] = "gamma";
    const char *pn[] = {pname};
    cls_expr_env env = {1, 1, 0, NULL, 1, pn, 0, NULL, 0};
    char err[256];
    e = NULL;
    if (cls__expr_parse("gamma * 2", &env, &e, err, sizeof err) == 0) {
        strcpy(pname, "xxxxx");
        s = cls__expr_emit_opencl(e);
        tap_ok(s && strcmp(s, "return (gamma * ((real)2.0));\n") == 0, "param names copied");
        free(s);
    } else {
        tap_ok(0, "param names copied: %s", err);
    }
    cls__expr_free(e);
}

static void test_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    if (!got || strcmp(localeconv()->decimal_point, ",") != 0) {
        setlocale(LC_NUMERIC, "C");
        tap_skip("decimal comma locale", "no such locale installed");
        return;
    }
    cls_expr *e = parse(1, 1, "0.25 + 1.5");
    char *s = e ? cls__expr_emit_opencl(e) : NULL;
    tap_ok(s && strcmp(s, "return (((real)0.25) + ((real)1.5));\n") == 0,
           "literals parse and print with '.' under %s", got);
    free(s);
    cls__expr_free(e);
    setlocale(LC_NUMERIC, "C");
}

/* Random and mutated inputs: nothing may crash, leak or trip the sanitizers. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void put_s(char *b, size_t cap, size_t *len, const char *s)
{
    size_t l = strlen(s);
    if (*len + l < cap) {
        memcpy(b + *len, s, l);
        *len += l;
    }
}

/* Random well-formed-looking expressions, to reach the emitter and interpreter too. */
static void gen(char *b, size_t cap, size_t *len, int depth, int nlocals)
{
    static const char *const leaves[] = {
        "IN(1)", "IN(-2)", "AUX(k, 1)",  "AUX(1, 0)", "alpha", "beta", "X",           "NX",  "STEP",
        "3",     "0",      "2147483647", "0.1",       "1e-40", ".5f",  "(0.0 / 0.0)", "1e30"};
    static const char *const ops[] = {"+", "-", "*", "/", "%", "<", "<=", "==", "!=", "&&", "||"};
    static const char *const f1[] = {"sqrt", "fabs", "floor", "round", "exp", "log", "sin", "cbrt"};
    static const char *const f2[] = {"fmin", "fmax", "min", "max", "pow", "atan2", "copysign"};
    static const char *const prefix[] = {"(real)", "(float)", "(double)", "(int)", "-", "!"};
    char t[32];
    switch (depth <= 0 ? 0 : rnd() % 7) {
    case 0:
        if (nlocals && rnd() % 3 == 0) {
            snprintf(t, sizeof t, "v%u", rnd() % (unsigned)nlocals);
            put_s(b, cap, len, t);
        } else {
            put_s(b, cap, len, leaves[rnd() % (sizeof leaves / sizeof leaves[0])]);
        }
        break;
    case 1:
        put_s(b, cap, len, prefix[rnd() % 6]);
        gen(b, cap, len, depth - 1, nlocals);
        break;
    case 2:
    case 3:
        put_s(b, cap, len, "(");
        gen(b, cap, len, depth - 1, nlocals);
        snprintf(t, sizeof t, " %s ", ops[rnd() % 11]);
        put_s(b, cap, len, t);
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, ")");
        break;
    case 4:
        put_s(b, cap, len, "(");
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, " ? ");
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, " : ");
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, ")");
        break;
    case 5:
        put_s(b, cap, len, f1[rnd() % 8]);
        put_s(b, cap, len, "(");
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, ")");
        break;
    default:
        put_s(b, cap, len, f2[rnd() % 7]);
        put_s(b, cap, len, "(");
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, ", ");
        gen(b, cap, len, depth - 1, nlocals);
        put_s(b, cap, len, ")");
        break;
    }
}

static void test_robustness(void)
{
    static const char *const seeds[] = {
        "alpha*(IN(-1,0)+IN(1,0)) + beta*IN(0,1) - 4*IN(0,0)",
        "real t = IN(0,0); const int i = X / (Y - 4); return i % 3 + clamp(t, 1.0, 2.5);",
        "X > 2 && Y ? -X : STEP % 0",
        "fmin(AUX(k, 1, -1), AUX(1, 0, 0)) / sqrt(fabs(IN(0, 0)) + 1e-3f)",
        "double d = (double)IN(0,0) * 0.1; float f = d; int n = (int)f; return n ? f : -d; // c",
        "/* c */ pow(IN(0,1), 2.) + exp(-(float)NX) + min(max(X, 0), 3)",
    };
    static const char alphabet[] = "()+-*/%!<>=&|?:,;. \n01239eEfxXYZINAUXrealintconstreturn_/*";
    static const char *const tokens[] = {
        "IN(", "AUX(", ")", "(",  ",", "real ", "return ", ";", "1e",         "0.",   "//", "/*",
        "*/",  "?",    ":", "&&", "X", "min(",  "(int)",   "-", "2147483648", "\xff", "\n"};
    const size_t nseeds = sizeof seeds / sizeof seeds[0];
    char buf[2048];
    int parsed = 0, total = 0;
    for (int it = 0; it < 6000; it++) {
        size_t len = 0;
        if (it % 3 == 1) {
            static const char *const types[] = {"real", "float", "double", "int"};
            int nl = (int)(rnd() % 3);
            for (int l = 0; l < nl; l++) {
                len +=
                    (size_t)snprintf(buf + len, sizeof buf - len, "%s v%d = ", types[rnd() % 4], l);
                gen(buf, sizeof buf - 40, &len, 4, l);
                len += (size_t)snprintf(buf + len, sizeof buf - len, ";\n");
            }
            if (nl) len += (size_t)snprintf(buf + len, sizeof buf - len, "return ");
            gen(buf, sizeof buf - 8, &len, 4, nl);
            buf[len++] = ';';
        } else if (it % 3 == 0) {
            len = rnd() % 80;
            for (size_t i = 0; i < len; i++)
                buf[i] =
                    (rnd() % 8) ? alphabet[rnd() % (sizeof alphabet - 1)] : (char)(rnd() % 255 + 1);
        } else {
            const char *sd = seeds[rnd() % nseeds];
            len = strlen(sd);
            memcpy(buf, sd, len);
            int muts = 1 + (int)(rnd() % 2);
            for (int m = 0; m < muts; m++) {
                size_t at = len ? rnd() % len : 0;
                switch (rnd() % 4) {
                case 0: /* delete a span */
                    if (len) {
                        size_t span = 1 + rnd() % 6;
                        if (span > len - at) span = len - at;
                        memmove(buf + at, buf + at + span, len - at - span);
                        len -= span;
                    }
                    break;
                case 1: /* replace a byte */
                    if (len) buf[at] = alphabet[rnd() % (sizeof alphabet - 1)];
                    break;
                default: { /* insert a token */
                    const char *t = tokens[rnd() % (sizeof tokens / sizeof tokens[0])];
                    size_t tl = strlen(t);
                    if (len + tl < sizeof buf - 1) {
                        memmove(buf + at + tl, buf + at, len - at);
                        memcpy(buf + at, t, tl);
                        len += tl;
                    }
                }
                }
            }
        }
        buf[len] = 0;
        /* generated bodies are 1-D, the seeds 2-D */
        cls_expr_env env = env_of(it % 3 == 1   ? 1
                                  : it % 3 == 2 ? 2
                                                : 1 + (it / 3) % 3,
                                  (it / 3) & 1);
        char err[256];
        cls_expr *e = NULL;
        int rc = cls__expr_parse(buf, &env, &e, err, sizeof err);
        total++;
        if (rc == 0) {
            parsed++;
            char *s = cls__expr_emit_opencl(e);
            reader r = {0};
            double params[2] = {1.5, -2};
            cls_expr_point pt = {{1, 2, 3}, {4, 5, 6}, 1, params, read_fn, &r};
            (void)cls__expr_eval(e, &pt);
            int lo[3], hi[3], used;
            cls__expr_in_extent(e, lo, hi, &used);
            free(s);
            cls__expr_free(e);
        } else if (rc != -1 || strncmp(err, "line ", 5) != 0) {
            tap_ok(0, "error without location for \"%s\": %d %s", buf, rc, err);
            return;
        }
    }
    tap_ok(1, "%d random/mutated bodies without a crash (%d parsed)", total, parsed);
}

/* The operations a CPU's vector loop runs per point (cls__expr_point_ops), counted by hand:
 * those on parameters and constants fold at compile time and do not count. */
static void test_point_ops(void)
{
    static const struct {
        const char *body;
        size_t flops, divs, selects;
    } cases[] = {
        {"alpha*(IN(-1)+IN(1)) - 2*IN(0)", 4, 0, 0},
        {"real c = alpha * alpha + 1; return c * IN(0) / 3;", 1, 1, 0},
        {"X > 1 ? IN(0) * 2 : IN(1) + 3", 2, 0, 2},
        {"sqrt(IN(0)) + min(IN(0), alpha)", 2, 1, 0},
        {"real t = IN(0) * IN(0); int i = X / 2; return t - i;", 2, 0, 0},
        {"alpha / 3 + 1", 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cls_expr *e = parse(1, 0, cases[i].body);
        size_t f = 99, d = 99, sel = 99;
        cls__expr_point_ops(e, &f, &d, &sel);
        tap_ok(e && f == cases[i].flops && d == cases[i].divs && sel == cases[i].selects,
               "%s: per point %zu flops, %zu divisions, %zu selects (got %zu, %zu, %zu)",
               cases[i].body, cases[i].flops, cases[i].divs, cases[i].selects, f, d, sel);
        cls__expr_free(e);
    }
}

/* Lane-wise bodies (cls__expr_lane_wise) and their vector emission: what differs between
 * consecutive points along x must be real arithmetic; Y, Z, STEP and parameters are shared. */
static void test_lanes(void)
{
    static const struct {
        const char *body;
        int lane_wise;
        const char *has; /* a piece of the vector emission, for lane-wise bodies */
    } cases[] = {
        {"alpha*(IN(-1, 0, 0)+IN(1, 0, 0)) - 2*IN(0, 0, 0)", 1, "return "},
        {"real c = IN(0, 0, 0); return c * c / 3 + sqrt(fabs(c));", 1, "realv cls_v_c = "},
        {"real s = STEP > 3 ? alpha : beta; return s * IN(0, 1, 0) + Z * 0.5;", 1,
         "realv cls_v_s = "},
        {"(real)(float)IN(0, 0, 0)", 1, "((realv)("},
        {"IN(0, 0, 0) + X", 0, NULL},
        {"IN(0, 0, 0) > 1 ? 1 : 0", 0, NULL},
        {"fmin(IN(0, 0, 0), IN(1, 0, 0))", 0, NULL},
        {"int i = IN(0, 0, 0); return i;", 0, NULL},
        {"exp(IN(0, 0, 0))", 0, NULL},
        {"AUX(k, 0, 0, 0) * IN(0, 0, -1)", 1, "CLS_AUX_0(0, 0, 0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cls_expr *e = parse(3, 0, cases[i].body);
        int lw = e ? cls__expr_lane_wise(e) : -1;
        char *text = e ? cls__expr_emit_opencl_lanes(e) : NULL;
        int ok = e && lw == cases[i].lane_wise && (text != NULL) == cases[i].lane_wise &&
                 (!cases[i].has || (text && strstr(text, cases[i].has)));
        tap_ok(ok, "%s: %s", oneline(cases[i].body),
               cases[i].lane_wise ? "lane-wise, emitted for vectors" : "not lane-wise");
        if (!ok && text) tap_diag("%s", text);
        free(text);
        cls__expr_free(e);
    }
}

int main(void)
{
    test_lanes();
    test_valid_forms();
    test_errors();
    test_extents();
    test_stats();
    test_point_ops();
    test_emit();
    test_eval();
    test_locale();
    test_robustness();
    return tap_done();
}
