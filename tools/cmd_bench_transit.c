/* cmd_bench_transit.c: `clstencil bench transit`, the cube transit benchmarks of
 * Mo & Li and stencils stated as a fraction of them (its Tables 2, 3 and 5). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clstencil_bench.h"

#define DEFAULT_STEPS 10
#define DEFAULT_REPS 5
#define MAX_STENCILS 16

enum {
    OPT_SIZE = 1, OPT_TILE, OPT_DTYPE, OPT_REPS, OPT_STEPS, OPT_SCHEDULE, OPT_LOADER,
    OPT_LOCAL_SIZE, OPT_PER_ITEM, OPT_PREFETCH, OPT_ROWS, OPT_BOUNDARY, OPT_DEVICE, OPT_FORMAT,
    OPT_STEPS_PER_PASS,
    OPT_MAX_REGISTERS
};

static const cli_option options[] = {
    {"size", 1, OPT_SIZE},         {"tile", 1, OPT_TILE},         {"dtype", 1, OPT_DTYPE},
    {"reps", 1, OPT_REPS},         {"steps", 1, OPT_STEPS},       {"schedule", 1, OPT_SCHEDULE},
    {"loader", 1, OPT_LOADER},     {"local-size", 1, OPT_LOCAL_SIZE},
    {"points-per-item", 1, OPT_PER_ITEM}, {"prefetch", 1, OPT_PREFETCH},
    {"rows-per-item", 1, OPT_ROWS}, {"steps-per-pass", 1, OPT_STEPS_PER_PASS},
    {"max-registers", 1, OPT_MAX_REGISTERS},
    {"boundary", 1, OPT_BOUNDARY},
    {"device", 1, OPT_DEVICE},     {"format", 1, OPT_FORMAT},     {NULL, 0, 0},
};

/* One row of the table: a transit kernel or a stencil. */
typedef struct row {
    char name[64];
    char schedule[32], loader[16], local[48];
    size_t per_item, prefetch, rows, steps_per_pass, max_registers;
    double seconds;          /* one pass over the cube (a transit) or one step (a stencil) */
    double gpts, gbs, gibs;  /* GB/s at bytes_per_point, 10^9 and 2^30 (Eq. 3 as printed) */
    double bytes_per_point;  /* transits: their traffic; stencils: the minimal traffic */
    double flops, gflops;    /* per point; GFLOP/s */
    double pct_transit, pct_ghost; /* GPoints/s over cube_transit's and cube_ghost_transit's */
    double effective_bytes;  /* 2 x element size x cube_transit GP/s / GP/s (Sect. 6.2) */
} row;

static void fill_rates(row *r, double points, double transit_gpts, double ghost_gpts,
                       double elem)
{
    r->gpts = r->seconds > 0 ? points / r->seconds / 1e9 : 0;
    r->gbs = r->gpts * r->bytes_per_point;
    r->gibs = r->gbs * 1e9 / 1073741824.0;
    r->gflops = r->gpts * r->flops;
    r->pct_transit = transit_gpts > 0 ? 100 * r->gpts / transit_gpts : 0;
    r->pct_ghost = ghost_gpts > 0 ? 100 * r->gpts / ghost_gpts : 0;
    r->effective_bytes = r->gpts > 0 ? 2 * elem * transit_gpts / r->gpts : 0;
}

/* Runs one stencil: an untimed run, then `reps` timed runs; the median time per step. */
static int run_stencil(cls_context *ctx, const char *name, const cli_settings *set, cls_dims size,
                       size_t steps, size_t reps, const cls_plan_options *popt, row *r)
{
    cli_workload w = {0};
    cls_plan *plan = NULL;
    cls_plan_info pi;
    cls_report rep;
    double *t = calloc(reps, sizeof *t);
    int rc = CLS_ERR_OUT_OF_HOST_MEMORY;
    if (!t) return cli_failf(rc, "timing table");
    if ((rc = cli_load_stencil(name, &w.st)) != CLS_SUCCESS ||
        (rc = cli_settings_apply(set, w.st)) != CLS_SUCCESS)
        goto done;
    if (cls_stencil_dims(w.st) != 3) {
        rc = cli_failf(CLS_ERR_INVALID_SIZE, "stencil '%s' is %dD; the transit cube is 3D", name,
                       cls_stencil_dims(w.st));
        goto done;
    }
    w.size = size;
    w.steps = steps;
    if ((rc = cli_workload_fill(&w)) != CLS_SUCCESS) goto done;
    if ((rc = cls_plan_create(ctx, w.st, w.size, w.steps, popt, &plan)) != CLS_SUCCESS ||
        (rc = cls_plan_describe(plan, &pi)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    for (size_t i = 0; i <= reps; i++) {
        if ((rc = cls_plan_run(plan, w.input, (const void *const *)w.aux, w.output, &rep)) !=
            CLS_SUCCESS) {
            cli_fail(rc);
            goto done;
        }
        if (i > 0) t[i - 1] = rep.seconds_per_step;
    }
    r->seconds = cli_median(t, reps);
    snprintf(r->name, sizeof r->name, "%s", cls_stencil_name(w.st));
    snprintf(r->schedule, sizeof r->schedule, "%s", cls_schedule_name(pi.schedule));
    const char *loader = cls_plan_param(plan, "stream25d.loader"), *q;
    snprintf(r->loader, sizeof r->loader, "%s", loader ? loader : "-");
    cls_dims ls = {{pi.local_size[0], pi.local_size[1], pi.local_size[2]}};
    cli_format_size(r->local, sizeof r->local, ls, 3);
    r->per_item = cli_plan_points_per_item(plan);
    r->prefetch = (q = cls_plan_param(plan, "stream25d.prefetch")) ? strtoull(q, NULL, 10) : 0;
    r->rows = (q = cls_plan_param(plan, "stream25d.rows_per_item")) ? strtoull(q, NULL, 10)
              : (q = cls_plan_param(plan, "naive.rows_per_item")) ? strtoull(q, NULL, 10)
                                                                   : 0;
    r->steps_per_pass =
        (q = cls_plan_param(plan, "stream25d.steps_per_pass")) ? strtoull(q, NULL, 10) : 0;
    r->max_registers = pi.max_registers;
    r->bytes_per_point = cls_stencil_min_bytes_per_point(w.st);
    size_t flops = 0;
    if ((rc = cls_stencil_flops(w.st, &flops)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    r->flops = (double)flops;
    rc = CLS_SUCCESS;
done:
    free(t);
    cls_plan_release(plan);
    cli_workload_free(&w);
    return rc;
}

static const char *const csv_header =
    "kind,name,size,dtype,tile,schedule,loader,local_size,points_per_item,prefetch,"
    "rows_per_item,seconds,"
    "gpoints_per_s,"
    "gbytes_per_s,gibytes_per_s,bytes_per_point,flops_per_point,gflops_per_s,"
    "percent_of_cube_transit,percent_of_cube_ghost_transit,effective_bytes_per_point,"
    "steps_per_pass,max_registers";

static void print_csv_row(const row *r, const char *kind, const char *size, const char *dtype,
                          const char *tile)
{
    printf("%s,", kind);
    cli_csv_field(stdout, r->name);
    printf(",%s,%s,%s,%s,%s,%s,%zu,%zu,%zu,%.9g,%.6g,%.6g,%.6g,%g,%g,%.6g,%.2f,%.2f,%.4g,%zu,%zu\n",
           size, dtype, tile, r->schedule, r->loader, r->local, r->per_item, r->prefetch, r->rows,
           r->seconds,
           r->gpts, r->gbs,
           r->gibs, r->bytes_per_point, r->flops, r->gflops, r->pct_transit, r->pct_ghost,
           r->effective_bytes, r->steps_per_pass, r->max_registers);
}

static void json_row(cli_json *j, const row *r)
{
    cli_json_object(j, NULL);
    cli_json_str(j, "name", r->name);
    if (r->schedule[0]) {
        cli_json_str(j, "schedule", r->schedule);
        cli_json_str(j, "loader", r->loader);
        cli_json_str(j, "local_size", r->local);
        cli_json_uint(j, "points_per_item", r->per_item);
        cli_json_uint(j, "prefetch", r->prefetch);
        cli_json_uint(j, "rows_per_item", r->rows);
        cli_json_uint(j, "steps_per_pass", r->steps_per_pass);
        cli_json_uint(j, "max_registers", r->max_registers);
        cli_json_num(j, "flops_per_point", r->flops);
        cli_json_num(j, "gflops_per_s", r->gflops);
    }
    cli_json_num(j, "seconds", r->seconds);
    cli_json_num(j, "gpoints_per_s", r->gpts);
    cli_json_num(j, "bytes_per_point", r->bytes_per_point);
    cli_json_num(j, "gbytes_per_s", r->gbs);
    cli_json_num(j, "gibytes_per_s", r->gibs);
    cli_json_num(j, "percent_of_cube_transit", r->pct_transit);
    cli_json_num(j, "percent_of_cube_ghost_transit", r->pct_ghost);
    cli_json_num(j, "effective_bytes_per_point", r->effective_bytes);
    cli_json_close(j);
}

static int transit_main(const cli_command *self, int argc, char **argv)
{
    cli_parser p;
    cli_settings set = {0};
    cli_format format = CLI_FORMAT_TEXT;
    cli_plan_opts popt;
    const char *device = NULL, *v, *stencils[MAX_STENCILS];
    size_t n_stencils = 0, steps = DEFAULT_STEPS, reps = DEFAULT_REPS;
    cls_dims size = {{256, 256, 256}}, tdims;
    size_t tile[2] = {32, 6};
    int nd, id, ret = CLI_EXIT_FAIL, rc;
    cls_context *ctx = NULL;
    cls_device_info dev;
    row rows[2 + MAX_STENCILS];

    cli_plan_opts_init(&popt);
    popt.opt.schedule = CLS_SCHEDULE_STREAM25D;
    /* Device-resident runs: the benchmark states kernels against cube_transit, so the host
     * pipeline (which would replace the schedule's kernels by its tiles) stays off. */
    popt.pipeline = "off";
    memset(rows, 0, sizeof rows);
    cli_parser_init(&p, self, options, argc, argv);
    while ((id = cli_next(&p, &v)) != CLI_OPT_END) {
        switch (id) {
        case CLI_OPT_HELP: cli_print_help(self, stdout); ret = CLI_EXIT_OK; goto done;
        case CLI_OPT_ERROR: ret = CLI_EXIT_USAGE; goto done;
        case CLI_OPT_POSITIONAL:
            if (n_stencils == MAX_STENCILS) {
                ret = cli_usage_error(self, "at most %d stencils", MAX_STENCILS);
                goto done;
            }
            stencils[n_stencils++] = v;
            break;
        case OPT_SIZE:
            if (cli_parse_size(v, &size, &nd) != 0 || nd != 3) {
                ret = cli_usage_error(self, "invalid --size '%s': expected NXxNYxNZ", v);
                goto done;
            }
            break;
        case OPT_TILE:
            if (cli_parse_size(v, &tdims, &nd) != 0 || nd != 2) {
                ret = cli_usage_error(self, "invalid --tile '%s': expected BXxBY", v);
                goto done;
            }
            tile[0] = tdims.n[0];
            tile[1] = tdims.n[1];
            break;
        case OPT_STEPS:
        case OPT_REPS:
            if (cli_parse_count(v, id == OPT_STEPS ? &steps : &reps) != 0 || reps > 100000) {
                ret = cli_usage_error(self, "invalid %s '%s': a whole number (reps 1..100000)",
                                      p.opt_name, v);
                goto done;
            }
            break;
        case OPT_DTYPE:
        case OPT_BOUNDARY:
            if ((ret = cli_settings_option(&set, self, p.opt_name + 2, v)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_SCHEDULE:
            if (cls_schedule_from_name(v, &popt.opt.schedule) != CLS_SUCCESS) {
                ret = cli_usage_error(self, "unknown --schedule '%s' (auto, naive, trapezoid or "
                                            "stream25d)", v);
                goto done;
            }
            break;
        case OPT_LOADER:
        case OPT_PREFETCH:
        case OPT_ROWS:
        case OPT_STEPS_PER_PASS: {
            /* the stream25d schedule's parameters; the library checks the values */
            static const char *const names[] = {"loader", "prefetch", "rows_per_item",
                                                "steps_per_pass"};
            static const char *const loaders[] = {"auto", "classic", "aligned", "direct"};
            static const size_t most[] = {0, 4, 8, 16};
            char param[160];
            size_t n = 0;
            int k = id == OPT_LOADER ? 0 : id == OPT_PREFETCH ? 1 : id == OPT_ROWS ? 2 : 3;
            if (!k) {
                while (n < 4 && strcmp(v, loaders[n])) n++;
                if (n == 4) {
                    ret = cli_usage_error(self, "unknown --loader '%s' (auto, classic, aligned or "
                                                "direct)", v);
                    goto done;
                }
            } else if (cli_parse_count(v, &n) != 0 || n == 0 || n > most[k]) {
                ret = cli_usage_error(self, "invalid %s '%s' (1..%zu)", p.opt_name, v, most[k]);
                goto done;
            }
            snprintf(param, sizeof param, "stream25d.%s=%s", names[k], v);
            if ((ret = cli_parse_plan_option(self, "param", param, &popt)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        }
        case OPT_LOCAL_SIZE:
        case OPT_PER_ITEM:
        case OPT_MAX_REGISTERS:
            if ((ret = cli_parse_plan_option(self, p.opt_name + 2, v, &popt)) != CLI_EXIT_OK)
                goto done;
            ret = CLI_EXIT_FAIL;
            break;
        case OPT_DEVICE: device = v; break;
        case OPT_FORMAT:
            if (cli_parse_format(v, CLI_FORMAT_TEXT | CLI_FORMAT_CSV | CLI_FORMAT_JSON,
                                 &format) != 0) {
                ret = cli_usage_error(self, "unknown --format '%s' (text, csv or json)", v);
                goto done;
            }
            break;
        }
    }
    if ((ret = cli_plan_finish(self, &popt)) != CLI_EXIT_OK) goto done;
    ret = CLI_EXIT_FAIL;
    if (cli_open_context(device, &ctx, &dev) != CLS_SUCCESS) goto done;

    const cls_dtype dt = set.have_dtype ? set.dtype : CLS_FLOAT32;
    const double elem = (double)cls_dtype_size(dt), points = (double)cls_dims_points(size);
    cls_transit_result tr;
    if ((rc = cls_bench_transit(ctx, dt, size, tile, reps, &tr)) != CLS_SUCCESS) {
        cli_fail(rc);
        goto done;
    }
    row *rt = &rows[0], *rg = &rows[1];
    snprintf(rt->name, sizeof rt->name, "cube_transit");
    snprintf(rg->name, sizeof rg->name, "cube_ghost_transit");
    rt->seconds = tr.transit_seconds;
    rt->bytes_per_point = 2 * elem;
    rg->seconds = tr.ghost_seconds;
    rg->bytes_per_point = tr.ghost_bytes_per_point;
    for (size_t i = 0; i < n_stencils; i++)
        if (run_stencil(ctx, stencils[i], &set, size, steps, reps, &popt.opt, &rows[2 + i]) !=
            CLS_SUCCESS)
            goto done;
    for (size_t i = 0; i < 2 + n_stencils; i++)
        fill_rates(&rows[i], points, tr.transit_gpts, tr.ghost_gpts, elem);

    char sz[96], tl[48];
    cli_format_size(sz, sizeof sz, size, 3);
    snprintf(tl, sizeof tl, "%zux%zu", tile[0], tile[1]);
    const char *dtn = dt == CLS_FLOAT64 ? "double" : "float";
    if (format == CLI_FORMAT_CSV) {
        printf("%s\n", csv_header);
        for (size_t i = 0; i < 2 + n_stencils; i++)
            print_csv_row(&rows[i], i < 2 ? "transit" : "stencil", sz, dtn, tl);
    } else if (format == CLI_FORMAT_JSON) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_size_array(&j, "size", size.n, 3);
        cli_json_str(&j, "dtype", dtn);
        cli_json_size_array(&j, "tile", tile, 2);
        cli_json_size_array(&j, "loaded_tile", tr.loaded, 2);
        cli_json_uint(&j, "reps", reps);
        cli_json_object(&j, "device");
        cli_json_str(&j, "name", dev.name);
        cli_json_str(&j, "platform", dev.platform_name);
        cli_json_close(&j);
        cli_json_array(&j, "transit");
        json_row(&j, rt);
        json_row(&j, rg);
        cli_json_close(&j);
        cli_json_array(&j, "stencils");
        for (size_t i = 0; i < n_stencils; i++) json_row(&j, &rows[2 + i]);
        cli_json_close(&j);
        cli_json_end(&j);
    } else {
        printf("cube %s %s, tile %s (loaded %zux%zu), median of %zu\n", sz, dtn, tl,
               tr.loaded[0], tr.loaded[1], reps);
        printf("%-20s %11s %10s %9s %9s %7s %9s %8s %8s\n", "", "time", "GPoints/s", "GB/s",
               "GiB/s", "B/point", "GFLOP/s", "%transit", "%ghost");
        for (size_t i = 0; i < 2 + n_stencils; i++) {
            const row *r = &rows[i];
            char t[32];
            cli_format_seconds(t, sizeof t, r->seconds);
            printf("%-20s %11s %10.3f %9.1f %9.1f %7.3g %9.1f %8.1f %8.1f\n", r->name, t, r->gpts,
                   r->gbs, r->gibs, r->bytes_per_point, r->gflops, r->pct_transit, r->pct_ghost);
        }
        for (size_t i = 0; i < n_stencils; i++) {
            const row *r = &rows[2 + i];
            char cap[64] = "";
            if (r->max_registers)
                snprintf(cap, sizeof cap, ", at most %zu registers per item", r->max_registers);
            printf("%s: %s schedule%s%s, work-group %s, %zu per item, prefetch %zu, %zu "
                   "rows per item, %zu step%s per pass, %g flops/point, effectively %.2f "
                   "bytes/point%s\n",
                   r->name, r->schedule, strcmp(r->loader, "-") ? ", loader " : "",
                   strcmp(r->loader, "-") ? r->loader : "", r->local, r->per_item, r->prefetch,
                   r->rows, r->steps_per_pass, r->steps_per_pass == 1 ? "" : "s", r->flops,
                   r->effective_bytes, cap);
        }
    }
    ret = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
done:
    cli_plan_opts_free(&popt);
    cls_context_release(ctx);
    cli_settings_free(&set);
    return ret;
}

const cli_command cli_cmd_bench_transit = {
    "bench transit",
    "the cube transit bandwidth benchmarks, and stencils as a fraction of them",
    "usage: clstencil bench transit [STENCIL...] [--size NXxNYxNZ] [--tile BXxBY]\n"
    "           [--dtype float|double] [--reps R] [--steps N] [--schedule S] [--loader L]\n"
    "           [--local-size LXxLY] [--points-per-item N] [--prefetch N]\n"
    "           [--rows-per-item N] [--steps-per-pass K] [--max-registers N]\n"
    "           [--boundary B] [--device SEL]\n"
    "           [--format text|csv|json]",
    "Times the bandwidth benchmarks of Mo & Li on a cube: cube_transit\n"
    "(Listing 4: every work-item copies its column along z, 2 x element size bytes per point;\n"
    "32x8 work-groups on GPUs, as clstencil probe measures it)\n"
    "and cube_ghost_transit (Listing 5 with Listing 3's mapping: BXxBY work-groups load their\n"
    "tile with one row above and below and one 32-byte segment left and right into local\n"
    "memory, without conditions, and write their own points; 12 bytes per point for 32x6\n"
    "floats).  Each runs once untimed and R times timed; the medians are printed as time,\n"
    "GPoints/s and bandwidth by Eq. 3 (GB/s of 10^9 bytes, and GiB/s of 2^30 bytes as Eq. 3 is\n"
    "printed).  Every STENCIL (a 3D built-in or a JSON spec) is then run on the same cube\n"
    "(default schedule stream25d, N steps, median time per step of R runs) and stated as the\n"
    "document's Table 5 states it: GPoints/s, GFLOP/s (the flops of its body as written), and\n"
    "the percentage of cube_transit's and cube_ghost_transit's GPoints/s, with the bytes per\n"
    "point it effectively moves (2 x element size x cube_transit GPoints/s over its own).\n"
    "\n"
    "Options:\n"
    "  --size NXxNYxNZ     cube (default 256x256x256)\n"
    "  --tile BXxBY        cube_ghost_transit's work-group (default 32x6)\n"
    "  --dtype T           float (default) or double, for the cube and the stencils\n"
    "  --reps R            timed runs (default 5)\n"
    "  --steps N           time steps per stencil run (default 10)\n"
    "  --schedule S        the stencils' schedule (default stream25d; auto, naive, trapezoid)\n"
    "  --loader L          stream25d ghost-zone loader: auto, classic, aligned or direct\n"
    "  --local-size LXxLY  the stencils' work-group (stream25d: the XY tile)\n"
    "  --points-per-item N stream25d: planes per work-group; naive: points per work-item\n"
    "  --prefetch N        stream25d: planes loaded ahead into registers (1..4)\n"
    "  --rows-per-item N   stream25d: adjacent rows each work-item updates (1..8)\n"
    "  --steps-per-pass K  stream25d: time steps fused into one pass over z (temporal\n"
    "                      blocking, radius-1 bodies; 1: none; default: the ghost-zone\n"
    "                      model's choice on GPUs, 1 on CPUs)\n"
    "  --max-registers N   registers per work-item the compiler may use (16..255; NVIDIA's\n"
    "                      -cl-nv-maxrregcount, ignored elsewhere); default: the planner's\n"
    "  --boundary B        the stencils' boundary condition\n"
    "  --device SEL        device selector (overrides CLSTENCIL_DEVICE)\n"
    "  --format F          text (default), csv (a header and one row per kernel) or json\n"
    "  -h, --help          show this help\n",
    transit_main,
};
