/* rule.h: CLS_SCHEDULE_AUTO's choice between the baseline schedule, one step per pass and
 * fused steps (rule.c), apart from the planner so that tests/test_stream25d_rule.c can check it
 * on any machine. */
#ifndef CLS_STREAM25D_RULE_H
#define CLS_STREAM25D_RULE_H
#include <stddef.h>

enum { CLS__S25_NONE = 0, CLS__S25_SINGLE = 1, CLS__S25_FUSED = 2 };

/* What the rule looks at: the body's reads and operations, the ghost-zone model's best fused
 * configuration (plan_fused.c, cls__stream25d_tb_gain) and the device model's thresholds
 * (doc/devices.md, "Tuning"). */
typedef struct cls__s25_features {
    int radius1;        /* every read within the 3x3x3 box */
    int corners;        /* reads in-plane diagonals (a box body) */
    size_t n_aux;       /* auxiliary arrays */
    int plain;          /* only + - * (cls__expr_plain_arith): no division, comparison, ?:, call */
    double gain;        /* model: best fused CPL gain over one step per pass (0: none) */
    size_t k;           /* model: its steps per pass */
    int mirror;         /* mirror boundary: the fused kernel's fix-ups cost most there */
    int cheap;          /* no division, sqrt or transcendental call (cls__expr_cheap_ops); may
                           compare and select (plain bodies are cheap) */
    double fused_gain;  /* tuning.stream25d_fused_gain: the least model gain that fuses */
    int box_single;     /* tuning.stream25d_box_single: cheap box bodies stream one step per
                           pass */
    int fused_mirror;   /* tuning.stream25d_fused_mirror: fuse on mirror grids too */
    size_t long_groups;     /* 2D: work-groups of the model's tile with chunks of 16 times the
                               pipeline's fill (3k - 1 rows) */
    size_t resident_groups; /* 2D: two work-groups per compute unit */
} cls__s25_features;

/* CLS__S25_NONE, _SINGLE or _FUSED for a 3D body on a device that stages planes in local
 * memory; the reason into why. */
int cls__s25_auto_rule(const cls__s25_features *f, char *why, size_t why_len);
/* The rule for a 2D body streamed along y (offered only under tuning.stream25d_2d 1): fused
 * steps for star bodies (no diagonal reads) without auxiliary arrays where the ghost-zone
 * model's k >= 2 gains at least fused_gain and chunks long against the pipeline's fill still
 * fill the device (long_groups >= resident_groups); CLS__S25_NONE otherwise. */
int cls__s25_auto_rule_2d(const cls__s25_features *f, char *why, size_t why_len);
#endif
