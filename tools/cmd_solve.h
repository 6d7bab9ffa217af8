/* cmd_solve.h: what the solver commands (solve, poisson-edit, sfs) share: the solver options, the
 * report of one run, and the comparison of schedules (tools/cmd_solve_common.c). */
#ifndef CLS_CMD_SOLVE_H
#define CLS_CMD_SOLVE_H

#include "cli.h"
#include "clstencil_solver.h"

/* Option ids of the shared options (a command's own ids stay below 100). */
enum {
    SO_SCHEDULE = 100,
    SO_CHECK,
    SO_EXCHANGE,
    SO_BLOCK,
    SO_PPI,
    SO_COMM,
    SO_SQUARE,
    SO_NORM,
    SO_CRITERION,
    SO_TOLERANCE,
    SO_MAX_STEPS,
    SO_MAX_SECONDS,
    SO_DIVERGENCE,
    SO_WRITE_UNCONVERGED,
    SO_HISTORY,
    SO_COMPARE,
    SO_VARIANTS,
    SO_CHECKS,
    SO_EXCHANGES,
    SO_REPEAT,
    SO_DEVICE,
    SO_FORMAT,
    SO_MAX_WG
};

/* The entries of the shared options, for a command's option table. */
#define CLI_SOLVER_OPTIONS                                                                     \
    {"schedule", 1, SO_SCHEDULE}, {"check-interval", 1, SO_CHECK},                              \
        {"exchange-interval", 1, SO_EXCHANGE}, {"block", 1, SO_BLOCK},                          \
        {"points-per-item", 1, SO_PPI}, {"comm-items", 1, SO_COMM}, {"square", 1, SO_SQUARE},   \
        {"norm", 1, SO_NORM}, {"criterion", 1, SO_CRITERION}, {"tolerance", 1, SO_TOLERANCE},   \
        {"max-steps", 1, SO_MAX_STEPS}, {"max-seconds", 1, SO_MAX_SECONDS},                     \
        {"divergence-factor", 1, SO_DIVERGENCE},                                                \
        {"write-unconverged", 0, SO_WRITE_UNCONVERGED}, {"history", 1, SO_HISTORY},             \
        {"compare", 0, SO_COMPARE}, {"variants", 1, SO_VARIANTS},                               \
        {"check-intervals", 1, SO_CHECKS}, {"exchange-intervals", 1, SO_EXCHANGES},             \
        {"repeat", 1, SO_REPEAT}, {"device", 1, SO_DEVICE}, {"format", 1, SO_FORMAT},     \
        {"max-work-group", 1, SO_MAX_WG}

/* The help text of the shared options (a string literal, appended to a command's help). */
#define CLI_SOLVER_OPTIONS_HELP \
    "Solver (Chen et al., Sect. IV-V; doc/chaotic.md):\n" \
    "  --schedule S            base, coarse, ud-stripe, ud-square, 4w-stripe, 4w-square,\n" \
    "                          4w-combine-stripe or 4w-combine-square (default)\n" \
    "  --check-interval N      steps between host synchronisations and convergence checks\n" \
    "                          (coarse and exchanges; default 60)\n" \
    "  --exchange-interval L   steps between exchanges of block boundaries (default 4)\n" \
    "  --block BXxBY           data block of a work-group (default 32x20)\n" \
    "  --points-per-item K     points per computation work-item (default 2)\n" \
    "  --comm-items C          communication work-items per group, 0: computation items\n" \
    "                          exchange (default 32)\n" \
    "                          The defaults shrink to what the compiled kernel allows (more\n" \
    "                          points per item, then fewer comm items, then narrower blocks);\n" \
    "                          the report says which; a shape given in full that does not fit\n" \
    "                          is an error\n" \
    "  --max-work-group W      cap the work-items per group below the kernel's limit (to\n" \
    "                          reproduce a device with a lower one)\n" \
    "  --square S              side of the square order's squares in blocks (default: from the\n" \
    "                          compute units)\n" \
    "  --norm max|l2           norm of the criterion (default max)\n" \
    "  --criterion update|residual  (default update: the change per step over an interval)\n" \
    "  --tolerance T           converged when the norm <= T\n" \
    "  --max-steps N           step limit (default 100000)\n" \
    "  --max-seconds S         time limit of a run's iterations, checked at every host\n" \
    "                          synchronisation (default none); past it: not converged\n" \
    "  --divergence-factor F   diverged when the norm grows F-fold over its minimum (default\n" \
    "                          1e6; 0 off)\n" \
    "  --write-unconverged     write the last iterate even when it did not converge (the exit\n" \
    "                          status is still 1)\n" \
    "  --history FILE.csv      the norm at every check (steps,norm)\n" \
    "  --device SEL            the OpenCL device (see clstencil devices)\n" \
    "  --format text|json|csv  output format (csv with --compare only)\n" \
    "Comparison of schedules (instead of one run; nothing is written):\n" \
    "  --compare               run the variants below after a warm-up run and tabulate steps,\n" \
    "                          time, time per step and the speed-up over base\n" \
    "  --variants A,B,...      the schedules (default all eight)\n" \
    "  --check-intervals N,... the host-sync intervals n to try (default --check-interval)\n" \
    "  --exchange-intervals L,...  the exchange intervals l to try (default --exchange-interval)\n" \
    "  --repeat R              runs per combination; the median time is reported (default 1)\n"

#define CLI_MAX_LIST 32

typedef struct cli_solver_args {
    cls_solver_options opt;
    int have_tolerance;     /* --tolerance given (else the command's default) */
    const char *history;    /* CSV of the norm at every check */
    const char *device;
    cli_format format;
    /* --compare: every variant x check interval x exchange interval */
    int compare;
    const char *variants[CLI_MAX_LIST];
    size_t n_variants;
    size_t checks[CLI_MAX_LIST], n_checks;
    size_t exchanges[CLI_MAX_LIST], n_exchanges;
    size_t repeat;
} cli_solver_args;

void cli_solver_args_init(cli_solver_args *a);
/* Takes a shared option: CLI_EXIT_OK, CLI_EXIT_USAGE (message printed), or -1 when `id` is not
 * one of them. */
int cli_solver_option(cli_solver_args *a, const cli_command *cmd, int id, const char *value);

/* One solve of a comparison, as the command runs it. */
typedef struct cli_solve_result {
    int status;
    cls_solver_report report;   /* the solve the schedules are compared on */
    double extra_seconds;       /* a second solve (the sfs height), 0 if none */
    size_t extra_steps;
} cli_solve_result;

/* Runs the command's job with the given options; fills r (its report cleared by the caller). */
typedef void (*cli_solve_fn)(void *user, const cls_solver_options *opt, cli_solve_result *r);

/* The comparison: a warm-up run (kernels compiled and loaded), then every combination, printed
 * as a table (text), CSV or JSON on stdout.  Returns the exit status. */
int cli_solver_compare(const cli_solver_args *a, const char *job, cli_solve_fn fn, void *user);

/* One run's report: text lines on stderr-free stdout, or JSON members (within an open object). */
void cli_solver_report_text(FILE *f, const cls_solver_options *opt, const cls_solver_report *r);
void cli_solver_report_json(cli_json *j, const cls_solver_options *opt,
                            const cls_solver_report *r);
/* Writes the history as CSV (steps,norm); prints and returns CLI_EXIT_FAIL on failure. */
int cli_solver_write_history(const char *path, const cls_solver_report *r);

#endif /* CLS_CMD_SOLVE_H */
