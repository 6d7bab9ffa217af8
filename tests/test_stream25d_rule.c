/* test_stream25d_rule.c: CLS_SCHEDULE_AUTO's stream25d rule (lib/schedules/stream25d/rule.c)
 * with the GPU family's tuning thresholds (devices/tuning.c) reproduces the H100 decisions of
 * 2026-11-21 (doc/stream25d.md), the thresholds change the decisions they name, and the body
 * classification the rule relies on (cls__expr_plain_arith) sorts the built-in 3D bodies as the
 * rule expects.  The library hides all of them, so the test compiles rule.c, devices/tuning.c
 * and lib/expr.c itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "expr.h"
#include "schedules/stream25d/rule.h"
#include "tap.h"

static const char *const names[] = {"NONE", "SINGLE", "FUSED"};

/* What the rule sees of a body and the ghost-zone model (cls__s25_features' first fields). */
typedef struct s25_body {
    int radius1, corners;
    size_t n_aux;
    int plain;
    double gain;
    size_t k;
    int mirror, cheap;
} s25_body;

/* The features of a body with the GPU family's tuning section. */
static cls__s25_features gpu(s25_body b)
{
    cls_model_params p;
    cls__s25_features f;
    memset(&p, 0, sizeof p);
    memset(&f, 0, sizeof f);
    cls__tuning_gpu(&p);
    f.radius1 = b.radius1;
    f.corners = b.corners;
    f.n_aux = b.n_aux;
    f.plain = b.plain;
    f.gain = b.gain;
    f.k = b.k;
    f.mirror = b.mirror;
    f.cheap = b.cheap;
    f.fused_gain = p.stream25d_fused_gain;
    f.box_single = (int)p.stream25d_box_single;
    f.fused_mirror = (int)p.stream25d_fused_mirror;
    return f;
}

static void rule_with(const char *what, cls__s25_features f, int want)
{
    char why[512] = "";
    int got = cls__s25_auto_rule(&f, why, sizeof why);
    tap_ok(got == want && why[0], "%s: %s (want %s; %s)", what, names[got], names[want], why);
}

/* On a GPU: the family's thresholds. */
static void rule(const char *what, s25_body b, int want) { rule_with(what, gpu(b), want); }

/* 1 plain (cheap: cheap ops), 0 not, -1 parse error. */
static int classify(const char *body, int cheap)
{
    static const char *const params[] = {"alpha", "c0", "c1", "c2", "c3", "lo", "hi"};
    static const char *const aux[] = {"rhs"};
    cls_expr_env env = {3, 0, 1, aux, sizeof params / sizeof params[0], params, 0, NULL, 0};
    cls_expr *e = NULL;
    char err[256];
    if (cls__expr_parse(body, &env, &e, err, sizeof err) != 0) {
        tap_diag("parse error: %s", err);
        return -1;
    }
    int r = cheap ? cls__expr_cheap_ops(e) : cls__expr_plain_arith(e);
    cls__expr_free(e);
    return r;
}

/* The rule for 2D bodies streamed along y (offered under tuning.stream25d_2d), on a grid whose
 * long chunks make `groups` work-groups against 264 resident (an H100's two per SM). */
static void rule_2d_on(const char *what, s25_body b, size_t groups, int want)
{
    char why[512] = "";
    cls__s25_features f = gpu(b);
    f.long_groups = groups;
    f.resident_groups = 264;
    int got = cls__s25_auto_rule_2d(&f, why, sizeof why);
    tap_ok(got == want && why[0], "2D: %s: %s (want %s; %s)", what, names[got], names[want], why);
}
static void rule_2d(const char *what, s25_body b, int want) { rule_2d_on(what, b, 779, want); }

/* A 2D body lifted to NX x 1 x NY, emitted: "" when it does not parse. */
static char *lifted(const char *body)
{
    static const char *const aux[] = {"rhs"};
    cls_expr_env env = {2, 0, 1, aux, 0, NULL, 0, NULL, 0};
    cls_expr *e = NULL;
    if (cls__expr_parse(body, &env, &e, NULL, 0) != 0) return NULL;
    cls__expr_lift_2d(e);
    char *text = cls__expr_emit_opencl(e);
    cls__expr_free(e);
    return text;
}

static int plain(const char *body) { return classify(body, 0); }
static int cheap(const char *body) { return classify(body, 1); }

int main(void)
{
    /* The measured cases (512^3 unless said, features as the planner derives them; model gains from
     * doc/stream25d.md's table of the ghost-zone model). */
    rule("heat3d7 float (k=3; measured fused 1.54x naive)",
         (s25_body){1, 0, 0, 1, 1.5, 3, 0, 1}, CLS__S25_FUSED);
    rule("heat3d7 double (model 2.20 at k=3; fused 1.18x)",
         (s25_body){1, 0, 0, 1, 2.20, 3, 0, 1}, CLS__S25_FUSED);
    rule("heat3d7 float on a mirror grid (fused 0.95x naive)",
         (s25_body){1, 0, 0, 1, 1.69, 3, 1, 1}, CLS__S25_NONE);
    rule("a plain star whose model gain is below the threshold",
         (s25_body){1, 0, 0, 1, 1.1, 2, 0, 1}, CLS__S25_NONE);
    rule("heat3d27 float (single 1.36x, fused 0.78x)",
         (s25_body){1, 1, 0, 1, 1.47, 3, 0, 1},
         CLS__S25_SINGLE);
    rule("heat3d27 double (single 1.18x)", (s25_body){1, 1, 0, 1, 1.49, 2, 0, 1},
         CLS__S25_SINGLE);
    rule("jacobi3d (a division: fused 0.84x, single 0.93x)",
         (s25_body){1, 0, 0, 0, 2.2, 4, 0, 0}, CLS__S25_NONE);
    rule("cell3d, a box that compares (single pass: 1.04x counting, 1.33x summed at 256^3)",
         (s25_body){1, 1, 0, 0, 0, 1, 0, 1}, CLS__S25_SINGLE);
    rule("a box body that divides", (s25_body){1, 1, 0, 0, 0, 1, 0, 0},
         CLS__S25_NONE);
    rule("a star that compares (like jacobi3d, not streamed)",
         (s25_body){1, 0, 0, 0, 1.5, 3, 0, 1}, CLS__S25_NONE);
    /* The edges of the rule. */
    rule("a plain star with an auxiliary array", (s25_body){1, 0, 1, 1, 3.0, 4, 0, 1},
         CLS__S25_NONE);
    rule("a plain box with an auxiliary array", (s25_body){1, 1, 2, 1, 1.5, 2, 0, 1},
         CLS__S25_NONE);
    rule("radius 2", (s25_body){0, 1, 0, 1, 0, 1, 0, 1}, CLS__S25_NONE);
    rule("model gain at the threshold",
         (s25_body){1, 0, 0, 1, gpu((s25_body){0, 0, 0, 0, 0, 0, 0, 0}).fused_gain, 3, 0, 1},
         CLS__S25_FUSED);
    rule("a large gain at k = 1 is no fusion", (s25_body){1, 0, 0, 1, 3.0, 1, 0, 1},
         CLS__S25_NONE);
    rule("no model (gain 0)", (s25_body){1, 0, 0, 1, 0, 1, 0, 1}, CLS__S25_NONE);
    /* The thresholds decide what they name. */
    cls__s25_features f = gpu((s25_body){1, 0, 0, 1, 1.69, 3, 1, 1});
    f.fused_mirror = 1;
    rule_with("heat3d7 float on a mirror grid, tuning.stream25d_fused_mirror 1", f,
              CLS__S25_FUSED);
    f = gpu((s25_body){1, 0, 0, 1, 1.5, 3, 0, 1});
    f.fused_gain = 1.6;
    rule_with("heat3d7 float, tuning.stream25d_fused_gain above its model gain", f, CLS__S25_NONE);
    f = gpu((s25_body){1, 1, 0, 0, 0, 1, 0, 1});
    f.box_single = 0;
    rule_with("cell3d, tuning.stream25d_box_single 0", f, CLS__S25_NONE);

    /* The classification of the built-in bodies (lib/builtins.c) and a few others. */
    tap_ok(plain("IN(0, 0, 0) + alpha * (IN(0, 0, -1) + IN(0, -1, 0) + IN(-1, 0, 0) + "
                 "IN(1, 0, 0) + IN(0, 1, 0) + IN(0, 0, 1) - 6 * IN(0, 0, 0))") == 1,
           "heat3d7's body is plain arithmetic");
    tap_ok(plain("return c0 * IN(0, 0, 0)\n + c1 * (IN(-1, 0, 0) + IN(1, 0, 0))\n"
                 " + c2 * (IN(-1, -1, 0) + IN(1, 1, 0))\n + c3 * (IN(-1, -1, -1) + "
                 "IN(1, 1, 1));\n") == 1,
           "heat3d27's grouped body is plain arithmetic");
    tap_ok(plain("(IN(-1, 0, 0) + IN(1, 0, 0) + IN(0, -1, 0) + IN(0, 1, 0) + IN(0, 0, -1) + "
                 "IN(0, 0, 1)) / 6") == 0,
           "jacobi3d's body divides: not plain");
    tap_ok(plain("int n = 0 + (IN(1, 0, 0) > 0.5) + (IN(-1, 1, 0) > 0.5);\n"
                 "return IN(0, 0, 0) > 0.5 ? (n >= lo && n <= hi) : (n >= hi && n <= hi);\n") ==
               0,
           "cell3d's body compares and selects: not plain");
    /* 2D grids streamed along y: fused where the model fuses, for star bodies without
     * auxiliary arrays; never offered unless the device model says so. */
    {
        cls_model_params p;
        memset(&p, 0, sizeof p);
        cls__tuning_gpu(&p);
        tap_ok(p.stream25d_2d == 0, "the GPU family does not offer stream25d for 2D grids");
    }
    rule_2d("a 5-point star (k=4 gain 1.5)", (s25_body){1, 0, 0, 1, 1.5, 4, 0, 1},
            CLS__S25_FUSED);
    rule_2d("poisson2d (aux f, k=4 gain 1.5)", (s25_body){1, 0, 1, 1, 1.5, 4, 0, 1},
            CLS__S25_NONE);
    rule_2d_on("a 5-point star on a grid of few tile columns (4096^2 at k=8: 200 groups)",
               (s25_body){1, 0, 0, 1, 1.5, 8, 0, 1}, 200, CLS__S25_NONE);
    rule_2d("emboss (box, k=3 gain 1.3)", (s25_body){1, 1, 0, 1, 1.3, 3, 0, 1}, CLS__S25_NONE);
    rule_2d("a model preferring one step", (s25_body){1, 0, 0, 1, 0, 1, 0, 1}, CLS__S25_NONE);
    rule_2d("a gain below the threshold", (s25_body){1, 0, 0, 1, 1.1, 4, 0, 1}, CLS__S25_NONE);
    rule_2d("a mirror grid", (s25_body){1, 0, 0, 1, 1.5, 4, 1, 1}, CLS__S25_NONE);
    rule_2d("radius 2", (s25_body){0, 0, 0, 1, 0, 1, 0, 1}, CLS__S25_NONE);
    {
        char *t = lifted("IN(1, -1) + AUX(rhs, 0, 2) * (real)(X + Y * NY + Z + NZ)");
        tap_ok(t && strstr(t, "IN(1, 0, -1)") && strstr(t, "CLS_AUX_0(0, 0, 2)") &&
                   strstr(t, "X") && strstr(t, "Z") && strstr(t, "NZ") && !strstr(t, "NY") &&
                   !strstr(t, "Y"),
               "a 2D body lifted: offsets (dx, dy) -> (dx, 0, dy), Y and NY -> Z and NZ: %s",
               t ? t : "(no parse)");
        free(t);
    }
    tap_ok(plain("fma(alpha, IN(1, 0, 0) - IN(0, 0, 0), -IN(0, 0, 1))") == 1,
           "fma and negation are plain");
    tap_ok(plain("sqrt(IN(1, 0, 0))") == 0, "a call other than fma is not plain");
    tap_ok(plain("max(IN(1, 0, 0), IN(0, 0, 0))") == 0, "max is a comparison: not plain");
    tap_ok(plain("IN(0, 0, 0) - AUX(rhs, 0, 0, 0)") == 1,
           "an auxiliary read is plain arithmetic (the rule checks aux arrays apart)");
    /* Cheap operations: what a box body may do and still stream. */
    tap_ok(cheap("real n = (IN(-1, 0, 0) + IN(-1, 1, 1)) + (IN(1, -1, 0) + IN(1, 1, -1));\n"
                 "return IN(0, 0, 0) > 0.5 ? (n >= lo && n <= hi) : (n >= hi && n <= hi);\n") ==
                   1 &&
               plain("real n = IN(-1, 0, 0) + IN(1, 1, 1);\nreturn n > lo ? n : hi;\n") == 0,
           "cell3d's summed body compares and selects: cheap, not plain");
    tap_ok(cheap("(IN(-1, 0, 0) + IN(1, 0, 0)) / 6") == 0, "a division is not cheap");
    tap_ok(cheap("IN(1, 0, 0) * 2 - IN(0, 0, 0)") == 1, "plain arithmetic is cheap");
    tap_ok(cheap("sqrt(IN(1, 0, 0))") == 0 && cheap("exp(IN(1, 0, 0))") == 0,
           "sqrt and exp are not cheap");
    tap_ok(cheap("max(IN(1, 0, 0), fabs(IN(0, 0, 0))) + fma(alpha, IN(0, 1, 0), 1)") == 1,
           "max, fabs and fma are cheap");
    return tap_done();
}
