/* stream25d_rule.h: CLS_SCHEDULE_AUTO's choice between the naive schedule, the single-pass
 * stream25d and its fused steps on GPUs (lib/stream25d_rule.c), apart from the planner so that
 * tests/test_stream25d_rule.c can check it on any machine. */
#ifndef CLS_STREAM25D_RULE_H
#define CLS_STREAM25D_RULE_H
#include <stddef.h>

enum { CLS__S25_NAIVE = 0, CLS__S25_SINGLE = 1, CLS__S25_FUSED = 2 };

/* Fused steps only where the ghost-zone model predicts at least this gain over one step per
 * pass (H100, 2026-11-22: heat3d7 float model 1.69 won 1.51-1.54x over naive, double 2.20
 * won 1.16-1.18x). */
#define CLS__S25_FUSED_GAIN 1.2

/* What the rule looks at: the body's reads and operations, and the ghost-zone model's best
 * fused configuration (lib/plan_stream25d_tb.c, cls__stream25d_tb_gain). */
typedef struct cls__s25_features {
    int radius1;   /* every read within the 3x3x3 box */
    int corners;   /* reads in-plane diagonals (a box body) */
    size_t n_aux;  /* auxiliary arrays */
    int plain;     /* only + - * (cls__expr_plain_arith): no division, comparison, ?:, call */
    double gain;   /* model: best fused CPL gain over one step per pass (0: none) */
    size_t k;      /* model: its steps per pass */
    int mirror;    /* mirror boundary: the fused kernel's fix-ups cost most there */
    int cheap;     /* no division, sqrt or transcendental call (cls__expr_cheap_ops); may
                      compare and select (plain bodies are cheap) */
} cls__s25_features;

/* CLS__S25_NAIVE, _SINGLE or _FUSED for a 3D body on a GPU; the reason into why. */
int cls__s25_auto_rule(const cls__s25_features *f, char *why, size_t why_len);
#endif
