/* cmd_analyze_measure.c: `clstencil analyze --measure`: every mapping variant of four kernels is
 * analysed (CuMAPz MPE on a device model) and timed on the live device (cl/mapping_bench.cl),
 * and the two are correlated per kernel as Kim & Shrivastava, Sect. 6 / Figs. 7-10 do. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_measure.h"
#include "cli.h"
#include "clstencil_bench.h"
#include "clstencil_model.h"

/* The kernels (families of variants).  Sizes: the measured one fills an H100 for a fraction of
 * a millisecond to milliseconds; the analysed one keeps the measured row pitch and shrinks the
 * rest (Kim & Shrivastava, Sect. 7: the ranking holds on such a reduced input;
 * doc/memory-analysis.md). */
typedef enum { FAM_FIG = 0, FAM_TRANSPOSE, FAM_STENCIL2D, FAM_LOADERS, N_FAM } fam_id;

typedef struct family {
    const char *name, *title, *kernel;
    size_t full[3], quick[3]; /* measured sizes: MAX x ROWS, N, NX x NY, NX x NY x NZ */
} family;

static const family families[N_FAM] = {
    {"fig", "Kim & Shrivastava, Fig. 1/2: what to fetch, local layout, write order", "cls_mb_fig",
     {8192, 8192, 1}, {256, 64, 1}},
    {"transpose", "matrix transpose (Kim & Shrivastava, Sect. 6.1)", "cls_mb_transpose",
     {8192, 1, 1}, {256, 1, 1}},
    {"stencil2d", "2D 5-point with a local tile: loaders, layouts, shapes (Mo & Li, Sect. 4)",
     "cls_mb_stencil2d", {8192, 8160, 1}, {256, 96, 1}},
    {"loaders", "3D 7-point z-march: classic/aligned loaders x tile shapes (Mo & Li, Sect. 4)",
     "cls_mb_stencil3d", {512, 480, 256}, {64, 48, 4}},
};

typedef struct variant {
    fam_id fam;
    const char *name;
    const char *cas, *cas_variant; /* its description: built-in case and variant */
    const char *options;           /* cl/mapping_bench.cl macros */
    unsigned bx, by;               /* stencils: work-group shape */
} variant;

#define FIG(nm, cas, cv, opt) {FAM_FIG, nm, cas, cv, opt, 16, 16}
#define TR(nm, opt) {FAM_TRANSPOSE, nm, "transpose", nm, opt, 32, 8}
#define S2(nm, bx, by, opt) {FAM_STENCIL2D, nm, "stencil2d", nm, opt, bx, by}
#define S3(nm, bx, by, opt) {FAM_LOADERS, nm, "stencil3d", nm, opt, bx, by}

static const variant variants[] = {
    FIG("none", "fig2-fetch", "none", "-D MB_F=-1"),
    FIG("col-cw", "fig2-layout", "col-cw", "-D MB_F=0 -D MB_RW=0 -D MB_PAD=0"),
    FIG("col-rw", "fig2-layout", "col-rw", "-D MB_F=0 -D MB_RW=1 -D MB_PAD=0"),
    FIG("col-pad", "fig2-layout", "col-pad", "-D MB_F=0 -D MB_RW=0 -D MB_PAD=1"),
    FIG("col+1-cw", "fig2-layout", "col+1-cw", "-D MB_F=1 -D MB_RW=0 -D MB_PAD=0"),
    FIG("col+1-rw", "fig2-layout", "col+1-rw", "-D MB_F=1 -D MB_RW=1 -D MB_PAD=0"),
    FIG("col+1-pad", "fig2-layout", "col+1-pad", "-D MB_F=1 -D MB_RW=0 -D MB_PAD=1"),
    FIG("col+2-cw", "fig2-layout", "col+2-cw", "-D MB_F=2 -D MB_RW=0 -D MB_PAD=0"),
    FIG("col+2-rw", "fig2-layout", "col+2-rw", "-D MB_F=2 -D MB_RW=1 -D MB_PAD=0"),
    FIG("col+2-pad", "fig2-layout", "col+2-pad", "-D MB_F=2 -D MB_RW=0 -D MB_PAD=1"),
    FIG("none-wcw", "fig2-write", "none-cw", "-D MB_F=-1 -D MB_WCW=1"),
    FIG("col-rw-wcw", "fig2-write", "col-cw", "-D MB_F=0 -D MB_RW=1 -D MB_WCW=1"),
    TR("naive", "-D MB_TILED=0"),
    TR("naive-diag", "-D MB_TILED=0 -D MB_DIAG=1"),
    TR("tiled", "-D MB_TILED=1"),
    TR("padded", "-D MB_TILED=1 -D MB_PAD=1"),
    TR("diag", "-D MB_TILED=1 -D MB_PAD=1 -D MB_DIAG=1"),
    TR("diag-conflicts", "-D MB_TILED=1 -D MB_DIAG=1"),
    S2("classic-16x16", 16, 16, ""),
    S2("classic-32x6", 32, 6, ""),
    S2("classic-32x8", 32, 8, ""),
    S2("classic-64x4", 64, 4, ""),
    S2("classic-16x16-cm", 16, 16, "-D MB_CM=1"),
    S2("classic-16x16-cmp", 16, 16, "-D MB_CM=1 -D MB_PAD=1"),
    S2("aligned-32x6", 32, 6, "-D MB_ALIGNED=1"),
    S2("aligned-32x6-cm", 32, 6, "-D MB_ALIGNED=1 -D MB_CM=1"),
    S2("aligned-32x6-cmp", 32, 6, "-D MB_ALIGNED=1 -D MB_CM=1 -D MB_PAD=1"),
    S3("classic-32x6", 32, 6, ""),
    S3("classic-16x16", 16, 16, ""),
    S3("classic-32x8", 32, 8, ""),
    S3("classic-32x6-cm", 32, 6, "-D MB_CM=1"),
    S3("aligned-32x6", 32, 6, "-D MB_ALIGNED=1"),
    S3("aligned-32x6-cm", 32, 6, "-D MB_ALIGNED=1 -D MB_CM=1"),
    S3("aligned-32x6-cmp", 32, 6, "-D MB_ALIGNED=1 -D MB_CM=1 -D MB_PAD=1"),
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

typedef struct row {
    const variant *v;
    cls_cumapz_result r;
    double min_s, median_s, gbs;
    cls_mapping_launch l;
    char options[160];
    int rank;
} row;

/* The description's params for the analysed size (reduced from the measured one). */
static size_t analysis_params(fam_id f, const size_t n[3], int quick, char buf[4][32])
{
    switch (f) {
    case FAM_FIG:
        snprintf(buf[0], 32, "MAX=%zu", n[0]);
        snprintf(buf[1], 32, "ROWS=%zu", quick ? n[1] : (size_t)256);
        return 2;
    case FAM_TRANSPOSE:
        /* The pitch is N itself; 2048 ranks as the measured 8192 does on the h100 model
         * (doc/memory-analysis.md, reduced inputs), and the analysis stays under a second. */
        snprintf(buf[0], 32, "N=%zu", n[0] > 2048 ? (size_t)2048 : n[0]);
        return 1;
    case FAM_STENCIL2D:
        snprintf(buf[0], 32, "NX=%zu", n[0]);
        snprintf(buf[1], 32, "NY=%zu", quick ? n[1] : (size_t)96);
        return 2;
    case FAM_LOADERS:
        snprintf(buf[0], 32, "NX=%zu", n[0]);
        snprintf(buf[1], 32, "NY=%zu", quick ? n[1] : (size_t)96);
        snprintf(buf[2], 32, "NZ=%zu", quick ? n[2] : (size_t)2);
        return 3;
    default: return 0;
    }
}

/* The launch of a variant at the measured size; bytes_moved: one read and one write of each
 * point (the yardstick for GB/s; every variant of a kernel does the same work). */
static void launch_of(const variant *v, const size_t n[3], cls_mapping_launch *l,
                      double *bytes_moved)
{
    memset(l, 0, sizeof *l);
    l->kernel = families[v->fam].kernel;
    switch (v->fam) {
    case FAM_FIG: /* a = MAX; ROWS x MAX points */
        l->global[0] = n[0];
        l->global[1] = n[1];
        l->local[0] = l->local[1] = 16;
        l->in_bytes = (n[1] * n[0] + 2) * 4;
        l->out_bytes = n[0] * n[0] * 4;
        l->args[0] = (int)n[0];
        *bytes_moved = 8.0 * (double)(n[0] * n[1]);
        break;
    case FAM_TRANSPOSE: /* a = N */
        l->global[0] = n[0];
        l->global[1] = n[0] / 4;
        l->local[0] = 32;
        l->local[1] = 8;
        l->in_bytes = l->out_bytes = n[0] * n[0] * 4;
        l->args[0] = (int)n[0];
        *bytes_moved = 8.0 * (double)(n[0] * n[0]);
        break;
    case FAM_STENCIL2D: { /* a = P = NX + 64, NY + 2 rows */
        const size_t P = n[0] + 64;
        l->global[0] = n[0];
        l->global[1] = n[1];
        l->local[0] = v->bx;
        l->local[1] = v->by;
        l->in_bytes = l->out_bytes = (n[1] + 2) * P * 4;
        l->args[0] = (int)P;
        *bytes_moved = 8.0 * (double)(n[0] * n[1]);
        break;
    }
    case FAM_LOADERS: { /* a = P, b = NZ, c = PL = (NY + 2) * P; NZ + 2 planes */
        const size_t P = n[0] + 64, PL = (n[1] + 2) * P;
        l->global[0] = n[0];
        l->global[1] = n[1];
        l->local[0] = v->bx;
        l->local[1] = v->by;
        l->in_bytes = l->out_bytes = (n[2] + 2) * PL * 4;
        l->args[0] = (int)P;
        l->args[1] = (int)n[2];
        l->args[2] = (int)PL;
        *bytes_moved = 8.0 * (double)(n[0] * n[1] * n[2]);
        break;
    }
    default: break;
    }
}

/* Analyses variant v with the family's params on model m. */
static int analyse(const cls_model *m, const variant *v, const char *const *params,
                   size_t n_params, size_t max_work, cls_cumapz_result *r)
{
    char *json = NULL;
    cls_access_set *set = NULL;
    cls_cumapz_options opt = {max_work};
    cls_status st = cls_cumapz_case_json(v->cas, &json);
    size_t i;
    if (st == CLS_SUCCESS) st = cls_access_set_from_json(json, params, n_params, &set);
    free(json);
    if (st != CLS_SUCCESS) return cli_failf(st, "%s: %s", v->cas, cls_last_error());
    for (i = 0; i < cls_access_set_count(set); i++)
        if (strcmp(cls_access_name(cls_access_set_variant(set, i)), v->cas_variant) == 0) break;
    if (i == cls_access_set_count(set)) {
        cls_access_set_free(set);
        return cli_failf(CLS_ERR_INVALID_ARGUMENT, "%s has no variant %s", v->cas,
                         v->cas_variant);
    }
    st = cls_cumapz_analyze(m, cls_access_set_variant(set, i), &opt, r);
    cls_access_set_free(set);
    if (st != CLS_SUCCESS)
        return cli_failf(st, "%s/%s on %s: %s", v->cas, v->cas_variant, cls_model_name(m),
                         cls_last_error());
    return CLI_EXIT_OK;
}

static int wanted(const measure_opts *o, const char *fam)
{
    if (!o->n_kernels) return 1;
    for (size_t i = 0; i < o->n_kernels; i++)
        if (strcmp(o->kernels[i], fam) == 0) return 1;
    return 0;
}

typedef struct summary {
    size_t n;
    double pearson;     /* MPE vs 1/time */
    size_t top, fastest; /* rows */
    double top_rel;     /* fastest time / time of the top-ranked variant */
} summary;

static void summarise(row *rows, size_t n, summary *s)
{
    double mpe[64], perf[64];
    memset(s, 0, sizeof *s);
    s->n = n;
    for (size_t i = 0; i < n && i < 64; i++) {
        mpe[i] = rows[i].r.mpe;
        perf[i] = rows[i].min_s > 0 ? 1.0 / rows[i].min_s : 0;
        rows[i].rank = 1;
        for (size_t k = 0; k < n; k++)
            if (rows[k].r.mpe > rows[i].r.mpe * (1 + 1e-9)) rows[i].rank++;
        if (rows[i].r.mpe > rows[s->top].r.mpe * (1 + 1e-9)) s->top = i;
        if (rows[i].min_s < rows[s->fastest].min_s) s->fastest = i;
    }
    s->pearson = cls_cumapz_pearson(mpe, perf, n < 64 ? n : 64);
    s->top_rel = rows[s->top].min_s > 0 ? rows[s->fastest].min_s / rows[s->top].min_s : 0;
}

/* --times: the measured times of an earlier run (the rows --csv wrote), so that a changed model
 * or family rule is judged on the same measurements without the device.  Over several files
 * each variant keeps its fastest min_s (and the median of that run). */
typedef struct timed {
    char kernel[32], variant[32];
    double min_s, median_s;
} timed;

static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        f[n++] = line;
        if (!(line = strchr(line, ','))) break;
        *line++ = '\0';
    }
    return n;
}

static int load_times(const measure_opts *o, timed *t, size_t max, size_t *n)
{
    *n = 0;
    for (size_t k = 0; k < o->n_times; k++) {
        FILE *fp = fopen(o->times[k], "r");
        char line[1024], *f[32];
        int ck = -1, cv = -1, cmin = -1, cmed = -1, nf;
        size_t lineno = 1;
        if (!fp) return cli_failf(CLS_ERR_IO, "--times %s: cannot read", o->times[k]);
        if (!fgets(line, sizeof line, fp)) {
            fclose(fp);
            return cli_failf(CLS_ERR_INVALID_SPEC, "--times %s: empty", o->times[k]);
        }
        nf = split_csv(line, f, 32);
        for (int i = 0; i < nf; i++) {
            if (!strcmp(f[i], "kernel")) ck = i;
            if (!strcmp(f[i], "variant")) cv = i;
            if (!strcmp(f[i], "min_s")) cmin = i;
            if (!strcmp(f[i], "median_s")) cmed = i;
        }
        if (ck < 0 || cv < 0 || cmin < 0 || cmed < 0) {
            fclose(fp);
            return cli_failf(CLS_ERR_INVALID_SPEC,
                             "--times %s: line 1: no kernel, variant, min_s and median_s columns "
                             "(a file written by --measure --csv)", o->times[k]);
        }
        while (fgets(line, sizeof line, fp)) {
            double mn, md;
            char *e1, *e2;
            size_t i;
            lineno++;
            nf = split_csv(line, f, 32);
            if (nf == 1 && !f[0][0]) continue;
            if (nf <= ck || nf <= cv || nf <= cmin || nf <= cmed ||
                strlen(f[ck]) >= sizeof t->kernel || strlen(f[cv]) >= sizeof t->variant) {
                fclose(fp);
                return cli_failf(CLS_ERR_INVALID_SPEC, "--times %s: line %zu: malformed row",
                                 o->times[k], lineno);
            }
            mn = strtod(f[cmin], &e1);
            md = strtod(f[cmed], &e2);
            if (*e1 || *e2 || !(mn > 0) || !(md > 0) || !isfinite(mn) || !isfinite(md)) {
                fclose(fp);
                return cli_failf(CLS_ERR_INVALID_SPEC,
                                 "--times %s: line %zu: min_s and median_s must be positive "
                                 "numbers", o->times[k], lineno);
            }
            for (i = 0; i < *n; i++)
                if (!strcmp(t[i].kernel, f[ck]) && !strcmp(t[i].variant, f[cv])) break;
            if (i == *n) {
                if (*n == max) {
                    fclose(fp);
                    return cli_failf(CLS_ERR_INVALID_SPEC, "--times: more than %zu variants",
                                     max);
                }
                snprintf(t[i].kernel, sizeof t[i].kernel, "%s", f[ck]);
                snprintf(t[i].variant, sizeof t[i].variant, "%s", f[cv]);
                t[i].min_s = INFINITY;
                (*n)++;
            }
            if (mn < t[i].min_s) {
                t[i].min_s = mn;
                t[i].median_s = md;
            }
        }
        fclose(fp);
    }
    return CLI_EXIT_OK;
}

int analyze_measure(const measure_opts *o)
{
    int rc = CLI_EXIT_OK;
    cls_context *ctx = NULL;
    cls_device_info info;
    cls_model *m = NULL;
    FILE *csv = NULL, *scsv = NULL;
    cli_out csv_out = {0}, scsv_out = {0};
    char why[512];
    row rows[N_VARIANTS];
    size_t reps = o->reps ? o->reps : (o->quick ? 3 : 10);
    double sum_r = 0;
    size_t n_r = 0, n_ok90 = 0, n_fam = 0, n_timed = 0;
    timed times[2 * N_VARIANTS];
    const int offline = o->n_times > 0;
    {
        /* The tables this run writes, checked before any measurement; none may be one of the
         * --times files it reads. */
        const char *outs[] = {o->csv, o->summary_csv};
        if (cli_check_outputs(outs, 2, o->times, o->n_times) != CLI_EXIT_OK) return CLI_EXIT_FAIL;
    }

    for (size_t k = 0; k < o->n_kernels; k++) {
        size_t f;
        for (f = 0; f < N_FAM; f++)
            if (strcmp(o->kernels[k], families[f].name) == 0) break;
        if (f == N_FAM)
            return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                             "--kernel '%s': one of fig, transpose, stencil2d, loaders",
                             o->kernels[k]);
    }
    if (offline) {
        cls_status st;
        if ((rc = load_times(o, times, sizeof times / sizeof times[0], &n_timed)) != CLI_EXIT_OK)
            return rc;
        if ((st = cls_model_load(o->model, &m)) != CLS_SUCCESS) return cli_fail(st);
        memset(&info, 0, sizeof info);
        snprintf(info.name, sizeof info.name, "times of %s", o->times[0]);
        snprintf(why, sizeof why, "model \"%s\", times from %zu file%s (no device)",
                 cls_model_name(m), o->n_times, o->n_times == 1 ? "" : "s");
    } else if (cli_open_context(o->cl_device, &ctx, &info) != CLS_SUCCESS) {
        return CLI_EXIT_FAIL;
    } else {
        cls_status st = cls_model_match(&info, o->model, &m, why, sizeof why);
        if (st != CLS_SUCCESS) {
            rc = cli_fail(st);
            goto done;
        }
    }
    fprintf(stderr, "model: %s\n", why);
    if (o->csv && !(csv = cli_out_open(&csv_out, o->csv))) {
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    if (o->summary_csv && !(scsv = cli_out_open(&scsv_out, o->summary_csv))) {
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    if (csv)
        fprintf(csv, "kernel,variant,case,case_variant,model,family,size,analysed,data_reuse,"
                     "lat_hiding,bw_util,ch_skew,shm_eff,branch_eff,mpe,rank,bottleneck,"
                     "min_s,median_s,gbs,options\n");
    if (scsv)
        fprintf(scsv, "kernel,model,device,variants,pearson_mpe_perf,top,fastest,"
                      "top_relative_speed,top_within_90\n");
    if (offline)
        printf("%s; model: %s (%s family); re-analysed, fastest time over the files\n", info.name,
               cls_model_name(m), cls_model_family(m));
    else
        printf("device: %s; model: %s (%s family); %zu timed launches per variant (min)%s\n",
               info.name, cls_model_name(m), cls_model_family(m), reps,
               o->quick ? "; quick sizes" : "");

    for (int f = 0; f < N_FAM; f++) {
        const family *fm = &families[f];
        const size_t *n = o->quick ? fm->quick : fm->full;
        char pbuf[4][32], size_txt[64], an_txt[128];
        const char *params[4];
        size_t np, nr = 0;
        summary s;
        if (!wanted(o, fm->name)) continue;
        np = analysis_params((fam_id)f, n, o->quick, pbuf);
        an_txt[0] = '\0';
        for (size_t i = 0; i < np; i++) {
            params[i] = pbuf[i];
            snprintf(an_txt + strlen(an_txt), sizeof an_txt - strlen(an_txt), "%s%s", i ? " " : "",
                     pbuf[i]);
        }
        if (f == FAM_LOADERS) snprintf(size_txt, sizeof size_txt, "%zux%zux%zu", n[0], n[1], n[2]);
        else if (f == FAM_TRANSPOSE) snprintf(size_txt, sizeof size_txt, "%zux%zu", n[0], n[0]);
        else snprintf(size_txt, sizeof size_txt, "%zux%zu", n[0], n[1]);
        printf("\n== %s: %s\n   measured %s float, analysed %s\n", fm->name, fm->title, size_txt,
               an_txt);
        for (size_t i = 0; i < N_VARIANTS; i++) {
            const variant *v = &variants[i];
            row *w;
            double bytes = 0;
            cls_status st;
            if (v->fam != (fam_id)f) continue;
            w = &rows[nr];
            memset(w, 0, sizeof *w);
            w->v = v;
            if ((rc = analyse(m, v, params, np, o->max_work, &w->r)) != CLI_EXIT_OK) goto done;
            launch_of(v, n, &w->l, &bytes);
            snprintf(w->options, sizeof w->options, "-D MB_BX=%u -D MB_BY=%u %s", v->bx, v->by,
                     v->options);
            w->l.options = w->options;
            w->l.reps = reps;
            if (offline) {
                size_t k;
                for (k = 0; k < n_timed; k++)
                    if (!strcmp(times[k].kernel, fm->name) && !strcmp(times[k].variant, v->name))
                        break;
                if (k == n_timed) {
                    rc = cli_failf(CLS_ERR_INVALID_SPEC, "--times: no time for %s/%s", fm->name,
                                   v->name);
                    goto done;
                }
                w->min_s = times[k].min_s;
                w->median_s = times[k].median_s;
                st = CLS_SUCCESS;
            } else {
                st = cls_bench_mapping(ctx, &w->l, &w->min_s, &w->median_s);
            }
            if (st != CLS_SUCCESS) {
                rc = cli_failf(st, "%s/%s: %s", fm->name, v->name, cls_last_error());
                goto done;
            }
            w->gbs = w->min_s > 0 ? bytes / w->min_s / 1e9 : 0;
            nr++;
        }
        summarise(rows, nr, &s);
        printf("%-18s %10s %10s %8s %8s %8s %10s %9s %4s %10s %8s  %s\n", "variant",
               "data_reuse", "lat_hiding", "bw_util", "ch_skew", "shm_eff", "branch_eff", "MPE",
               "rank", "time_ms", "GB/s", "bottleneck");
        for (size_t i = 0; i < nr; i++) {
            const row *w = &rows[i];
            double eff;
            cls_cumapz_term t = cls_cumapz_bottleneck(&w->r, &eff);
            printf("%-18s %10.4f %10.4f %8.4f %8.3f %8.4f %10.4f %9.5f %4d %10.4f %8.1f  %s\n",
                   w->v->name, w->r.data_reuse, w->r.lat_hiding, w->r.bw_util, w->r.ch_skew,
                   w->r.shm_eff, w->r.branch_eff, w->r.mpe, w->rank, w->min_s * 1e3, w->gbs,
                   cls_cumapz_term_name(t));
            if (csv)
                fprintf(csv, "%s,%s,%s,%s,%s,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%s,"
                             "%.6e,%.6e,%.2f,%s\n",
                        fm->name, w->v->name, w->v->cas, w->v->cas_variant, cls_model_name(m),
                        cls_model_family(m), size_txt, an_txt, w->r.data_reuse, w->r.lat_hiding,
                        w->r.bw_util, w->r.ch_skew, w->r.shm_eff, w->r.branch_eff, w->r.mpe,
                        w->rank, cls_cumapz_term_name(t), w->min_s, w->median_s, w->gbs,
                        w->options);
        }
        printf("pearson(MPE, 1/time) = %.3f over %zu variants; top-ranked %s runs at %.0f %% of "
               "the fastest (%s): %s\n",
               s.pearson, nr, rows[s.top].v->name, 100 * s.top_rel,
               rows[s.fastest].v->name, s.top_rel >= 0.9 ? "within 90 %" : "NOT within 90 %");
        if (scsv)
            fprintf(scsv, "%s,%s,\"%s\",%zu,%.4f,%s,%s,%.4f,%s\n", fm->name, cls_model_name(m),
                    info.name, nr, s.pearson, rows[s.top].v->name, rows[s.fastest].v->name,
                    s.top_rel, s.top_rel >= 0.9 ? "yes" : "no");
        if (!isnan(s.pearson)) {
            sum_r += s.pearson;
            n_r++;
        }
        n_ok90 += s.top_rel >= 0.9;
        n_fam++;
    }
    printf("\nmean pearson over %zu kernel%s: %.3f; top-ranked within 90 %% of the fastest: %zu of "
           "%zu\n",
           n_r, n_r == 1 ? "" : "s", n_r ? sum_r / (double)n_r : NAN, n_ok90, n_fam);
done:
    /* The tables are written whole, and only for a complete run. */
    if (rc == CLI_EXIT_OK) {
        if (cli_out_close(&csv_out) != CLI_EXIT_OK) rc = CLI_EXIT_FAIL;
        if (cli_out_close(&scsv_out) != CLI_EXIT_OK) rc = CLI_EXIT_FAIL;
    }
    cli_out_discard(&csv_out);
    cli_out_discard(&scsv_out);
    cls_model_release(m);
    cls_context_release(ctx);
    return rc;
}
