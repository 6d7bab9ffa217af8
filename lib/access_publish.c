/* access_publish.c: access descriptions for the CuMAPz analysis (Kim & Shrivastava): the body's
 * reads and the analysed grid, the common part of every description and the envelope around the
 * variants a schedule writes; and the ranking of a plan's mapping among its schedule's variants
 * by MPE (cls_plan_rank_mapping), computed only when asked. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_publish.h"
#include "clstencil_bench.h"
#include "clstencil_model.h"
#include "cumapz.h"
#include "expr.h"
#include "plan.h"

int cls__access_printf(cls__access_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    if (o->len + (size_t)n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 1024;
        while (cap < o->len + (size_t)n + 1) cap *= 2;
        char *b = realloc(o->b, cap);
        if (!b) return -1;
        o->b = b;
        o->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(o->b + o->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
    return 0;
}

int cls__access_next(cls__access_out *o) { return cls__access_printf(o, "%s", o->n++ ? ", " : ""); }

size_t cls__access_round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

int cls__access_reads(cls__access_out *o, const cls__access_request *a, int in_plane)
{
    int rc = 0;
    for (size_t k = 0; k < a->n && !rc; k++) {
        const int *f = a->off[k];
        if (in_plane) {
            size_t j;
            for (j = 0; j < k; j++)
                if (a->off[j][0] == f[0] && a->off[j][1] == f[1]) break;
            if (j < k) continue;
        }
        rc = cls__access_printf(o, "{\"read\": \"in[C+(%d)+(%d)*P+(%d)*PL]\"}, ", f[0], f[1],
                                in_plane ? 0 : f[2]);
    }
    return rc;
}

/* Adds the reads of one emitted body: IN(dx, ...) of a single field, or CLS_FIELD_<f>(dx, ...)
 * of a system's update (any field: the descriptions model one array, so a system's reads are
 * the union of its fields' offsets). */
static cls_status scan_text(const cls_stencil *st, const char *text, const char *tag,
                            cls__access_request *a)
{
    const size_t tl = strlen(tag);
    for (const char *c = strstr(text, tag); c; c = strstr(c + tl, tag)) {
        int o[3] = {0, 0, 0};
        size_t k;
        if (c > text && (c[-1] == '_' || isalnum((unsigned char)c[-1]))) continue;
        const char *args = c + tl;
        if (tag[tl - 1] == '_') { /* CLS_FIELD_<f>( */
            while (isdigit((unsigned char)*args)) args++;
            if (*args++ != '(') continue;
        }
        /* (dx), (dx, dy) or (dx, dy, dz) by the stencil's dimensions */
        int got = sscanf(args, "%d, %d, %d", &o[0], &o[1], &o[2]);
        if (got < 1 || got > st->dims) continue;
        for (int d = got; d < 3; d++) o[d] = 0;
        for (k = 0; k < a->n; k++)
            if (!memcmp(a->off[k], o, sizeof o)) break;
        if (k < a->n) continue;
        if (a->n == CLS__ACCESS_MAX_OFFS || abs(o[0]) > 3 || abs(o[1]) > 3 || abs(o[2]) > 3)
            return cls__fail(NULL, CLS_ERR_PLAN_INFEASIBLE,
                             "the body reads IN(%d, %d, %d): the published descriptions cover "
                             "offsets up to 3 in each dimension",
                             o[0], o[1], o[2]);
        memcpy(a->off[a->n++], o, sizeof o);
        for (int d = 0; d < 3; d++)
            if (abs(o[d]) > a->r[d]) a->r[d] = abs(o[d]);
        if (o[0] && o[1]) a->corners = 1;
    }
    return CLS_SUCCESS;
}

static cls_status scan_reads(const cls_stencil *st, cls__access_request *a)
{
    const int sys = cls__stencil_is_system(st);
    cls_status s = CLS_SUCCESS;
    for (size_t g = 0; g < (sys ? st->n_stages : 1) && s == CLS_SUCCESS; g++)
        for (size_t k = 0; k < (sys ? st->stages[g].n : 1) && s == CLS_SUCCESS; k++) {
            cls_expr *e = NULL;
            s = sys ? cls__stencil_parse_update(st, g, k, &e) : cls__stencil_parse(st, &e);
            if (s != CLS_SUCCESS) return s;
            char *text = cls__expr_emit_opencl(e);
            cls__expr_free(e);
            if (!text) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "emitting the body");
            s = scan_text(st, text, sys ? "CLS_FIELD_" : "IN(", a);
            free(text);
        }
    if (!a->n) a->n = 1; /* IN(0, 0, 0) */
    return s;
}

cls_status cls__access_publish(const cls_stencil *st, cls_dims dims,
                               const cls__schedule_ops *ops, const void *own, char **json)
{
    cls__access_request *a = calloc(1, sizeof *a);
    cls__access_out o = {0};
    cls_status s;
    *json = NULL;
    if (!a) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "an access description");
    if (!ops->publish_access) {
        free(a);
        return cls__fail(NULL, CLS_ERR_UNSUPPORTED,
                         "the %s schedule publishes no access descriptions", ops->name);
    }
    a->st = st;
    a->dims = dims;
    if ((s = scan_reads(st, a)) != CLS_SUCCESS) {
        free(a);
        return s;
    }
    a->elem = (unsigned)cls_dtype_size(st->dtype);
    a->nx = dims.n[0];
    /* Kim & Shrivastava Sect. 7: the pitch is kept, the rows and planes reduced (at most 96
     * rows, 2 planes). */
    a->ny = st->dims >= 2 ? (dims.n[1] < 96 ? dims.n[1] : 96) : 1;
    a->nz = st->dims >= 3 ? (dims.n[2] < 2 ? dims.n[2] : 2) : 1;
    if (st->dims < 3) a->r[2] = 0;
    int rc = cls__access_printf(
        &o,
        "{\"name\": \"%s-%s\", \"description\": \"the %s schedule's mapping variants for '%s' "
        "(%zux%zux%zu, analysed with %zu rows and %zu planes: Kim & Shrivastava Sect. 7)\", "
        "\"source\": \"published by the kernel templates\", ",
        st->name, ops->name, ops->name, st->name, dims.n[0], dims.n[1], dims.n[2], a->ny, a->nz);
    /* The kernel's common part: params, lets, arrays; a variant adds block, grid, buffers and
     * body.  NYV: rows rounded up to the variant's tile height.  The arrays are padded by a
     * margin in front (x = 0 stays 128-byte aligned when the row is) and a plane behind, so
     * that halo and ghost reads stay inside them. */
    if (!rc)
        rc = cls__access_printf(
            &o,
            "\"kernel\": {\"params\": {\"NX\": %zu, \"NY\": %zu, \"NZ\": %zu, \"RX\": %d, "
            "\"RY\": %d, \"RZ\": %d, \"NYV\": \"NY\", \"P\": \"NX\", \"PL\": "
            "\"(NYV+8*RY+4)*P\", \"O\": \"RZ*PL+(4*RY+2)*P+32\"},"
            " \"let\": {\"gx\": \"bx*bdx+tx\", \"gy\": \"by*bdy+ty\"},"
            " \"block\": [32], \"grid\": [1],"
            " \"arrays\": {\"in\": {\"elem_size\": %u, \"elements\": \"(NZ+2*RZ+2)*PL\"}, "
            "\"out\": {\"elem_size\": %u, \"elements\": \"(NZ+2*RZ+2)*PL\"}}, \"body\": []}, "
            "\"variants\": [",
            a->nx, a->ny, a->nz, a->r[0], a->r[1], a->r[2], a->elem, a->elem);
    if (rc) {
        s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "writing the description");
        goto done;
    }
    if ((s = ops->publish_access(a, own, &o)) != CLS_SUCCESS) goto done;
    if (cls__access_printf(&o, "]}") != 0) {
        s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "writing the description");
        goto done;
    }
    if (!o.n) {
        s = cls__fail(NULL, CLS_ERR_PLAN_INFEASIBLE, "no mapping variant of the %s schedule fits '%s'",
                      ops->name, st->name);
        goto done;
    }
    *json = o.b;
    o.b = NULL;
done:
    free(o.b);
    free(a);
    return s;
}

cls_status cls_mapping_describe(const cls_stencil *st, cls_dims dims, cls_schedule schedule,
                                char **json)
{
    if (!st || !json) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_mapping_describe: NULL");
    /* AUTO: the first schedule that publishes its mappings. */
    const cls__schedule_ops *ops = NULL;
    if (schedule != CLS_SCHEDULE_AUTO)
        ops = cls__schedule_by_id((int)schedule);
    else
        for (size_t i = 0; (ops = cls__schedule_at(i)) && !ops->publish_access; i++) continue;
    if (!ops) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "unknown schedule %d", (int)schedule);
    for (int d = 0; d < 3; d++)
        if (!dims.n[d] || dims.n[d] > (1u << 24))
            return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                             "cls_mapping_describe: size %zu along %c (1 .. 2^24)", dims.n[d],
                             "xyz"[d]);
    return cls__access_publish(st, dims, ops, NULL, json);
}

/* ---------------------------------------------------------------- ranking */
/* MPE of every variant of a description on model m (names and values in order). */
static cls_status analyse(const cls_model *m, const char *json, char (*names)[48], double *mpe,
                          size_t max, size_t *n)
{
    cls_access_set *set = NULL;
    cls_cumapz_options opt = {UINT64_C(20000000)}; /* a bound of about 0.3 s per variant */
    *n = 0;
    if (cls_access_set_from_json(json, NULL, 0, &set) != CLS_SUCCESS) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(NULL, CLS_ERR_INTERNAL, "a published description does not parse: %s",
                         msg);
    }
    for (size_t i = 0; i < cls_access_set_count(set) && *n < max; i++) {
        cls_cumapz_result r;
        const cls_access *v = cls_access_set_variant(set, i);
        if (cls_cumapz_analyze(m, v, &opt, &r) != CLS_SUCCESS)
            continue; /* a variant the device cannot run (local memory, work-group size) */
        snprintf(names[*n], sizeof names[0], "%s", cls_access_name(v));
        mpe[(*n)++] = r.mpe;
    }
    cls_access_set_free(set);
    return CLS_SUCCESS;
}

cls_status cls_plan_rank_mapping(const cls_plan *p, char **text)
{
    enum { MAX = 32 };
    char names[MAX + 1][48], mine[64], *json = NULL;
    double mpe[MAX + 1];
    size_t n = 0, own_n = 0, best = 0, rank = 1, me = SIZE_MAX;
    const cls_model *m = NULL;
    cls_status s;
    if (!p || !text) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_plan_rank_mapping: NULL");
    *text = NULL;
    const cls__candidate *c = &p->resident;
    if (!c->ops || !c->ops->publish_access || !c->ops->variant_name)
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED, "the %s configuration has no published mapping",
                         c->ops ? c->ops->name : "plan's");
    c->ops->variant_name(c->config, mine, sizeof mine);
    if (!mine[0])
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED,
                         "the %s configuration's mapping is not described by the analysis",
                         c->ops->name);
    if ((s = cls__context_model(p->ctx, &m)) != CLS_SUCCESS) return s;
    if ((s = cls__access_publish(p->st, p->dims, c->ops, NULL, &json)) != CLS_SUCCESS) return s;
    s = analyse(m, json, names, mpe, MAX, &n);
    free(json);
    json = NULL;
    if (s != CLS_SUCCESS) return s;
    if (!n)
        return cls__fail(p->ctx, CLS_ERR_UNSUPPORTED, "no variant analysable on %s",
                         cls_model_name(m));
    for (size_t i = 0; i < n; i++) {
        if (mpe[i] > mpe[best]) best = i;
        if (!strcmp(names[i], mine)) me = i;
    }
    if (me == SIZE_MAX) {
        /* the plan's own mapping is not a published variant: analyse it alone */
        if (cls__access_publish(p->st, p->dims, c->ops, c->config, &json) == CLS_SUCCESS &&
            analyse(m, json, names + n, mpe + n, 1, &own_n) == CLS_SUCCESS && own_n == 1) {
            me = n++;
            if (mpe[me] > mpe[best]) best = me;
        }
        free(json);
    }
    size_t len = 0, cap = 0;
    if (me == SIZE_MAX) {
        if (cls__appendf(text, &len, &cap,
                         "CuMAPz on %s: best of %zu mappings by MPE is %s (%.3g); this one (%s) "
                         "is not describable",
                         cls_model_name(m), n, names[best], mpe[best], mine) != 0)
            return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "ranking");
        return CLS_SUCCESS;
    }
    for (size_t i = 0; i < n; i++)
        if (mpe[i] > mpe[me] * (1 + 1e-9)) rank++;
    if (cls__appendf(text, &len, &cap,
                     "CuMAPz on %s: this mapping (%s) ranks %zu of %zu by MPE (%.3g; best %s "
                     "%.3g)",
                     cls_model_name(m), mine, rank, n, mpe[me], names[best], mpe[best]) != 0)
        return cls__fail(p->ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "ranking");
    return CLS_SUCCESS;
}
