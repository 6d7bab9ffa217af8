/* cli.h: shared pieces of the clstencil command line (commands, options, output, workloads). */
#ifndef CLS_CLI_H
#define CLS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clstencil.h"

/* Exit statuses: success, runtime failure (or failed verification), bad command line. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* ---------------------------------------------------------------- commands (tools/clstencil.c) */
typedef struct cli_command cli_command;
struct cli_command {
    const char *name;
    const char *summary;  /* one line for `clstencil --help` */
    const char *synopsis; /* the "usage:" lines, without a trailing newline */
    const char *help;     /* description and options, printed after the synopsis */
    /* argv[0] is the command's name; returns the process exit status. */
    int (*main)(const cli_command *self, int argc, char **argv);
};

/* One definition per subcommand file; the dispatch table in tools/clstencil.c lists them. */
extern const cli_command cli_cmd_devices;
extern const cli_command cli_cmd_run;
extern const cli_command cli_cmd_schedules;
extern const cli_command cli_cmd_demo;
extern const cli_command cli_cmd_bench;
/* `clstencil bench transit` (tools/cmd_bench_transit.c), dispatched by cmd_bench.c. */
extern const cli_command cli_cmd_bench_transit;
/* `clstencil bench suite` (tools/cmd_bench_suite.c), dispatched by cmd_bench.c. */
extern const cli_command cli_cmd_bench_suite;
extern const cli_command cli_cmd_probe;
extern const cli_command cli_cmd_model;
extern const cli_command cli_cmd_tune;
extern const cli_command cli_cmd_analyze;
/* The convergent solver and its applications (tools/cmd_solve.c, cmd_poisson_edit.c, cmd_sfs.c). */
extern const cli_command cli_cmd_solve;
extern const cli_command cli_cmd_poisson_edit;
extern const cli_command cli_cmd_sfs;

/* Full help (synopsis, description, options) of one command. */
void cli_print_help(const cli_command *cmd, FILE *f);
/* "clstencil CMD: <message>", the synopsis and a hint, all on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- errors (cli_util.c) */
/* "clstencil: <status name>: <cls_last_error(), or the status message>" on stderr; returns
 * CLI_EXIT_FAIL. */
int cli_fail(int status);
/* Same with the CLI's own detail text instead of the library's last error. */
int cli_failf(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- files (cli_util.c) */
/* The whole file, NUL-terminated (free with free()); NULL after printing the error (a file
 * over max_bytes is "larger than N MiB, not <what>"). */
char *cli_read_file(const char *path, size_t max_bytes, const char *what);

/* ---------------------------------------------------------------- option parsing (cli_util.c) */
/* Long options only ("--name value" or "--name=value"), plus -h/--help and "--" (the rest is
 * positional).  No abbreviations: scripts keep working when options are added. */
typedef struct cli_option {
    const char *name; /* without the leading "--" */
    int has_arg;
    int id;           /* > 0, returned by cli_next */
} cli_option;

typedef struct cli_parser {
    const cli_command *cmd;
    const cli_option *options; /* ends with a zeroed entry */
    int argc;
    char **argv;
    int index;
    int only_positional;
    const char *opt_name; /* the option just returned, for messages ("--size") */
    char opt_buf[64];
} cli_parser;

enum {
    CLI_OPT_END = 0,         /* no more arguments */
    CLI_OPT_POSITIONAL = -1, /* *value is the argument */
    CLI_OPT_HELP = -2,       /* -h or --help */
    CLI_OPT_ERROR = -3       /* message and synopsis already printed; exit CLI_EXIT_USAGE */
};

void cli_parser_init(cli_parser *p, const cli_command *cmd, const cli_option *options, int argc,
                     char **argv);
/* Next option id (its argument in *value), or one of CLI_OPT_*. */
int cli_next(cli_parser *p, const char **value);

/* Strict number parsing: the whole text, decimal digits only (no sign, no blanks), no
 * overflow.  Return 0 on success, -1 (nothing printed) otherwise. */
int cli_parse_count(const char *s, size_t *out);          /* >= 1 */
int cli_parse_double(const char *s, double *out);         /* finite */
/* "NX", "NXxNY" or "NXxNYxNZ" (also "X"), every part >= 1, the product without overflow.
 * Sets *ndims to the number of parts; unused dimensions are 1. */
int cli_parse_size(const char *s, cls_dims *dims, int *ndims);
/* The --size option of the commands that take a grid: cli_parse_size, or the usage error that
 * names the value; returns CLI_EXIT_OK or CLI_EXIT_USAGE. */
int cli_size_option(const cli_command *self, const char *v, cls_dims *size, int *ndims);
/* "512x512" style text of the first ndims sizes. */
void cli_format_size(char *buf, size_t len, cls_dims dims, int ndims);

/* "float" or "double" (also "float32", "float64"). */
int cli_parse_dtype(const char *s, cls_dtype *out);
/* "clamp", "constant", "constant=V", "periodic", "mirror"; *value is 0 unless given. */
int cli_parse_boundary(const char *s, cls_boundary *b, double *value);
/* "name=value": copies the name (1..cap-1 characters) and points *value after the '='. */
int cli_parse_assign(const char *s, char *name, size_t cap, const char **value);

/* A plan's options as the command line gives them (tools/cli_plan.c): --schedule,
 * --param schedule.name=VALUE, and the older flags that name the schedule they configure
 * (--local-size, --points-per-item, --height, --sync, --pipeline, --pipeline-tile,
 * --pipeline-steps, --rect), --device-memory, --max-registers, --pinned. */
typedef struct cli_plan_opts {
    cls_plan_options opt;
    char *params;   /* the schedule parameters, "schedule.name=value ..." */
    size_t len, cap;
    const char *local, *per_item, *height, *sync; /* the older flags' values */
    const char *pipeline, *pipeline_tile, *pipeline_steps;
    int rect;
} cli_plan_opts;

void cli_plan_opts_init(cli_plan_opts *o);
/* A --param value: schedule.name=VALUE configures the plan, NAME=NUMBER the stencil (its
 * settings); CLI_EXIT_OK or CLI_EXIT_USAGE. */
struct cli_settings;
int cli_param_option(const cli_command *cmd, const char *v, struct cli_settings *set,
                     cli_plan_opts *o);
void cli_plan_opts_free(cli_plan_opts *o);
/* The value of one of those options (`option` without dashes; "param" for a schedule
 * parameter); returns CLI_EXIT_OK or, with the message printed, CLI_EXIT_USAGE. */
int cli_parse_plan_option(const cli_command *cmd, const char *option, const char *value,
                          cli_plan_opts *o);
/* Names the schedule the older flags configure and points o->opt.params at the parameters;
 * call once all options are read.  CLI_EXIT_OK or CLI_EXIT_USAGE. */
int cli_plan_finish(const cli_command *cmd, cli_plan_opts *o);
/* "4096", "512M", "1.5G", "2GiB" (K, M, G, T: powers of 1024) into bytes > 0; 0 or -1
 * (tools/cmd_tune_pipeline.c). */
int cli_parse_bytes(const char *s, double *bytes);
/* Sorts v ascending; cli_median sorts it and returns the median (mean of the middle two for
 * even n; n >= 1). */
void cli_sort_doubles(double *v, size_t n);
double cli_median(double *v, size_t n);
/* `clstencil tune --pipeline` (tools/cmd_tune_pipeline.c), dispatched by cmd_tune.c. */
int cli_tune_pipeline_main(const cli_command *self, int argc, char **argv);

typedef enum cli_format { CLI_FORMAT_TEXT = 1, CLI_FORMAT_CSV = 2, CLI_FORMAT_JSON = 4 } cli_format;
/* Accepts the formats in `allowed` (a mask of cli_format). */
int cli_parse_format(const char *s, int allowed, cli_format *out);

/* ---------------------------------------------------------------- output (cli_util.c) */
/* A JSON writer for one object, pretty-printed; strings escaped.  Non-finite numbers become
 * null.  Keys are NULL inside arrays. */
typedef struct cli_json {
    FILE *f;
    int depth;
    int first[16]; /* no member written yet at this depth */
    char close[16]; /* the bracket that ends each open level */
} cli_json;

void cli_json_begin(cli_json *j, FILE *f); /* opens the top-level object */
void cli_json_end(cli_json *j);            /* closes it and ends the line */
void cli_json_object(cli_json *j, const char *key);
void cli_json_array(cli_json *j, const char *key);
void cli_json_close(cli_json *j); /* ends the innermost object or array */
void cli_json_str(cli_json *j, const char *key, const char *value); /* NULL -> null */
void cli_json_num(cli_json *j, const char *key, double value);
void cli_json_uint(cli_json *j, const char *key, uint64_t value);
void cli_json_int(cli_json *j, const char *key, long long value);
void cli_json_bool(cli_json *j, const char *key, int value);
void cli_json_size_array(cli_json *j, const char *key, const size_t *v, int n);

/* One CSV field, quoted when it holds a comma, quote or line break. */
void cli_csv_field(FILE *f, const char *s);

/* s in single quotes for a message, with control characters, quotes, backslashes and bytes
 * above 0x7e as \xNN (at most 64 bytes of s, then "..."): text the user or a file supplied
 * never reaches the terminal raw. */
#define CLI_QUOTE_MAX 272
const char *cli_quote(char *buf, size_t len, const char *s);

/* An output file written as a whole: the text goes to memory and replaces the file only at
 * cli_out_close, through cls_file_write (an exclusive temporary beside it, then rename), so a
 * failed command, a full disk or a planted symlink never leaves a half-written or misdirected
 * file.  cli_out_open returns the stream to write to, or NULL with the error printed. */
typedef struct cli_out {
    FILE *f;
    char *buf;
    size_t len;
    const char *path;
} cli_out;
FILE *cli_out_open(cli_out *o, const char *path);
/* Writes the file (nothing when o was never opened); CLI_EXIT_OK or CLI_EXIT_FAIL, printed. */
int cli_out_close(cli_out *o);
/* Drops the text without writing (safe when never opened). */
void cli_out_discard(cli_out *o);

/* Checks, before any work, the files a command will write: each can be written
 * (cls_file_check_writable), none is one of the files it reads (the same file through any
 * path or link), none is named twice.  NULL entries are skipped.  Prints the error; returns
 * CLI_EXIT_OK or CLI_EXIT_FAIL. */
int cli_check_outputs(const char *const *outputs, size_t n_outputs, const char *const *inputs,
                      size_t n_inputs);

/* "1.5 GiB", "64 KiB" */
void cli_format_bytes(char *buf, size_t len, uint64_t bytes);
/* "123.4 us", "5.67 ms", "1.234 s" */
void cli_format_seconds(char *buf, size_t len, double seconds);
const char *cli_device_type_name(cls_device_type t);

/* ---------------------------------------------------------------- devices and progress */
/* Creates the context for `selector` (NULL: $CLSTENCIL_DEVICE or the default) and prints
 * "device: <name> (<platform>)" on stderr.  On failure prints the error and returns it. */
int cli_open_context(const char *selector, cls_context **ctx, cls_device_info *info);
/* The same without the stderr line, for a command that names the device in its results. */
int cli_open_device(const char *selector, cls_context **ctx, cls_device_info *info);

/* Progress of long runs on stderr, only when stderr is a terminal.  Also turns SIGINT into a
 * clean cancellation while attached. */
typedef struct cli_progress {
    cls_plan *plan;
    const char *label;
    double last_print;
    double start;
    int active;
    int printed;
} cli_progress;

/* Attaches a progress display to the plan when stderr is a terminal; returns whether it did. */
int cli_progress_attach(cli_progress *pr, cls_plan *plan, const char *label);
/* Clears the line and restores SIGINT; safe to call when not attached. */
void cli_progress_detach(cli_progress *pr);
/* Whether SIGINT arrived while a progress display was attached. */
int cli_interrupted(void);

double cli_now(void);

/* Bytes of memory the host could give now: MemAvailable of /proc/meminfo, else the physical
 * memory; 0 when neither is known. */
uint64_t cli_host_memory(void);

/* ---------------------------------------------------------------- workloads (tools/cmd_run.c) */
/* What `run`, `demo` and `bench` share: a stencil with its host arrays. */
typedef struct cli_workload {
    cls_stencil *st;
    int dims;           /* the stencil's dimensionality */
    cls_dims size;
    size_t steps;
    size_t points;
    void *input;        /* points elements of the stencil's dtype */
    void **aux;         /* cls_stencil_num_aux entries (NULL when there are none) */
    size_t n_aux;
    void *output;       /* points elements */
    size_t spare_grids; /* grids allocated later beside these (--verify's reference: 3) */
    /* A system's fields (cls_stencil_num_fields of them, in declaration order), points
     * elements each; NULL for a single-field stencil, whose one field is input and output. */
    size_t n_fields;
    void **fields_in, **fields_out;
} cli_workload;

/* Sets w->dims and, for a system, the field tables (all entries NULL) once w->st is loaded;
 * cli_workload_fill calls it when it was not called.  Returns a cls_status (printed). */
int cli_workload_prepare(cli_workload *w);
/* Field f's host array, before (in) and after (out) the run: for a single-field stencil
 * &w->input and &w->output (f 0).  w prepared. */
void **cli_workload_in(cli_workload *w, size_t f);
void **cli_workload_out(cli_workload *w, size_t f);
/* cls_plan_run, or cls_plan_run_fields for a system; returns the cls_status (not printed). */
int cli_workload_run(cls_plan *plan, cli_workload *w, cls_report *rep);

/* Whether a STENCIL (or model, or description) argument names a file: it contains '/' or ends
 * in ".json".  Anything else is a built-in's name, even when a file of that name exists. */
int cli_looks_like_path(const char *arg);
/* Loads STENCIL: a JSON spec file when cli_looks_like_path, else a built-in.  Prints the
 * error on failure; returns a cls_status. */
int cli_load_stencil(const char *name, cls_stencil **st);

/* Stencil settings from the command line (--dtype, --boundary, --param), applied once the
 * stencil is loaded. */
typedef struct cli_settings {
    int have_dtype;
    cls_dtype dtype;
    int have_boundary;
    cls_boundary boundary;
    double boundary_value;
    const char **params; /* "name=value", syntax already checked */
    size_t n_params;
} cli_settings;

/* Takes the value of --dtype, --boundary or --param (`option` without dashes); returns
 * CLI_EXIT_OK or, with the message printed, CLI_EXIT_USAGE. */
int cli_settings_option(cli_settings *s, const cli_command *cmd, const char *option,
                        const char *value);
/* Applies the settings and validates the stencil.  Prints the error; returns a cls_status. */
int cli_settings_apply(const cli_settings *s, cls_stencil *st);
void cli_settings_free(cli_settings *s);
/* Default grid size per dimensionality (1D 1048576, 2D 1024x1024, 3D 128x128x128). */
cls_dims cli_default_size(int dims);
/* Allocates and initialises the arrays of w (st, size and steps already set) that are still
 * NULL: the deterministic fields described in clstencil(1).  Refuses, before allocating
 * anything, arrays (with w->spare_grids more) larger than the memory the host has available
 * (cli_host_memory), so a huge --size fails with a message instead of the OOM killer.
 * Returns a cls_status. */
int cli_workload_fill(cli_workload *w);
/* The memory check of cli_workload_fill alone (prints the error; returns a cls_status). */
int cli_workload_check_memory(const cli_workload *w);
void cli_workload_free(cli_workload *w);
/* Grid filling shared with the systems' initial values (tools/cli_fields.c): the smooth
 * deterministic field named `seed` (a wave plus a small hash perturbation), and a hash in
 * [0, 1) of (seed, i). */
void cli_fill_smooth(void *a, cls_dtype dt, cls_dims d, const char *seed);
double cli_hash_unit(const char *seed, size_t i);

/* ---------------------------------------------------------------- fields (tools/cli_fields.c) */
/* A per-field file option: --input, --output or --png, as [FIELD=]FILE. */
typedef struct cli_field_file {
    const char *option; /* "--input", "--output", "--png" */
    const char *arg;    /* the value as given */
    char field[128];    /* "" when no field is named */
    const char *path;
    int index;          /* the field, once resolved (-1 before) */
} cli_field_file;

/* FIELD=FILE when the text before the first '=' is a name (a letter or '_', then letters,
 * digits, '_'), else FILE alone: a file whose name looks like FIELD=... is given as
 * ./FIELD=....  Returns -1 (nothing printed) for FIELD= with no file or an over-long name. */
int cli_field_file_parse(cli_field_file *a, const char *option, const char *value);
/* Resolves the fields against st: a named field must exist, an unnamed one is the only field
 * of a single-field stencil (a system refuses it: name the field), and no option names a
 * field twice.  Prints the error naming the option and the field; returns a cls_status. */
int cli_field_files_resolve(cli_field_file *a, size_t n, const cls_stencil *st);
/* The initial values of a system's fields that were not given (given[f] 0), w filled
 * otherwise: the built-in systems' starts (clstencil(1)), a smooth field for any other
 * system, and a time level starts as its field.  Returns a cls_status (printed). */
int cli_system_initial(cli_workload *w, const unsigned char *given);

/* ---------------------------------------------------------------- pictures (tools/cli_picture.c) */
/* Whether this build writes pictures (the library's image part, libpng). */
int cli_picture_available(void);
/* A colour-mapped PNG of a 2D field, or of a 3D field's middle z plane (z = NZ/2): x to the
 * right, y downwards (row y of the picture is grid row y).  A field with values of both signs
 * maps [-m, m] (m its largest magnitude) through ColorBrewer's RdBu (blue, white at 0, red);
 * any other field maps its minimum..maximum through viridis (dark violet to yellow); NaN and
 * infinities are magenta.  Returns a cls_status (printed). */
int cli_picture_write(const char *path, const void *data, cls_dtype dt, cls_dims size, int dims);
/* Refuses, before the run, a picture of a field of that size that cli_picture_write could not
 * create (the image part's size limits).  Returns a cls_status (printed, naming PATH). */
int cli_picture_check(const char *path, cls_dims size, int dims);

/* Result of comparing a device result with the host reference. */
typedef struct cli_verify {
    int exact;          /* compared bitwise */
    int ok;
    double max_rel_err; /* tolerance mode only */
    double tolerance;
    size_t mismatches;  /* over every field */
    size_t field;       /* the field of first_bad */
    size_t first_bad;   /* index of the first (bitwise) or worst (tolerance) mismatch */
    double got, expected;
    double seconds;     /* time of the host reference */
} cli_verify;

/* Runs the host reference (cls_reference_run_fields for a system) on w's inputs and compares
 * every field with w's outputs.  Returns a cls_status (failure of the reference itself); the
 * verdict is in *v. */
int cli_verify_run(const cli_workload *w, cli_verify *v);
/* "OK (bitwise)", "OK (max relative error 2.1e-07 <= 1e-05)", "FAILED (...)". */
void cli_verify_text(const cli_workload *w, const cli_verify *v, char *buf, size_t len);
void cli_verify_json(cli_json *j, const cli_workload *w, const cli_verify *v);

/* The configuration (cls_plan_describe) and the measured figures, as "label: value" lines or
 * as JSON members.  GB/s is the effective bandwidth at cls_stencil_min_bytes_per_point. */
/* A size parameter of the plan ("34x34x1") into d, 1 where absent; 0 or -1 when the plan has
 * no such parameter. */
int cli_plan_size_param(const cls_plan *plan, const char *name, cls_dims *d);
/* Points per work-item of the plan's resident schedule (naive and trapezoid: along the slowest
 * axis or x; stream25d: planes per group); 1 when it has none. */
size_t cli_plan_points_per_item(const cls_plan *plan);
void cli_plan_text(FILE *f, const cls_plan *plan, const cls_plan_info *pi, int dims);
void cli_plan_json(cli_json *j, const cls_plan *plan, const cls_plan_info *pi, int dims);
void cli_report_text(FILE *f, const cli_workload *w, const cls_report *r);
void cli_report_json(cli_json *j, const cli_workload *w, const cls_report *r);
/* "hotspot (2D, float, boundary clamp)" */
void cli_stencil_text(char *buf, size_t len, const cls_stencil *st);
/* Effective GB/s of one step taking `seconds` (0 when unknown). */
double cli_effective_gbs(const cli_workload *w, double seconds);

#endif /* CLS_CLI_H */
