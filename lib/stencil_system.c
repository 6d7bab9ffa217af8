/* stencil_system.c: systems of fields: declaring fields, time levels and stages, their
 * accessors, and the checks that name the field, stage and offset at fault. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "internal.h"
#include "traffic.h"

#define Q(str) cls__quote((char[CLS__QUOTE_MAX]){0}, CLS__QUOTE_MAX, (str))

int cls__stencil_is_system(const cls_stencil *st) { return st && st->n_fields > 0; }

int cls__stencil_field_index(const cls_stencil *st, const char *name)
{
    for (size_t f = 0; st && name && f < st->n_fields; f++)
        if (!strcmp(st->fields[f].name, name)) return (int)f;
    return -1;
}

int cls__stencil_previous(const cls_stencil *st, size_t f)
{
    if (!st || f >= st->n_fields || !st->fields[f].previous[0]) return -1;
    return cls__stencil_field_index(st, st->fields[f].previous);
}

size_t cls__stencil_levels(const cls_stencil *st, size_t f, int *chain, size_t max)
{
    size_t n = 0;
    for (int src = (int)f; n < max;) {
        int next = -1;
        for (size_t g = 0; g < st->n_fields && next < 0; g++)
            if (cls__stencil_previous(st, g) == src) next = (int)g;
        if (next < 0) break;
        chain[n++] = next;
        src = next;
    }
    return n;
}

/* The checks a name passes to become a field: an identifier the body language leaves free,
 * not yet taken by a field, an aux array or a parameter. */
static cls_status new_field(cls_stencil *st, const char *name, const char *what)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "%s: NULL stencil", what);
    if (atomic_load(&st->body) || st->n_points)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "fields: '%s' has a body (the single-field form); give a body or "
                         "fields and stages, not both",
                         st->name);
    /* cls_stencil_add_aux applies the body language's rules for names; a field follows them. */
    if (!cls__valid_name(name) || !strcmp(name, "IN") || !strcmp(name, "AUX"))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "fields: %s is not a valid field name",
                         Q(name));
    if (cls__stencil_field_index(st, name) >= 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "fields: '%s' is declared twice", name);
    if (cls__stencil_aux_index(st, name) >= 0 || cls__stencil_param_index(st, name) >= 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "fields: '%s' is already an auxiliary array's or a parameter's name",
                         name);
    if (st->n_fields >= CLS__MAX_FIELDS)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "fields: at most %d fields", CLS__MAX_FIELDS);
    return CLS_SUCCESS;
}

cls_status cls_stencil_add_field(cls_stencil *st, const char *name)
{
    cls_status s = new_field(st, name, "cls_stencil_add_field");
    if (s != CLS_SUCCESS) return s;
    cls__sysfield *f = &st->fields[st->n_fields++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return CLS_SUCCESS;
}

cls_status cls_stencil_add_time_level(cls_stencil *st, const char *name, const char *previous)
{
    cls_status s = new_field(st, name, "cls_stencil_add_time_level");
    if (s != CLS_SUCCESS) return s;
    /* The source is resolved when the spec is checked, so fields may come in any order. */
    if (!cls__valid_name(previous))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "fields: time level '%s': %s is not a field name", name, Q(previous));
    cls__sysfield *f = &st->fields[st->n_fields++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->previous, sizeof f->previous, "%s", previous);
    return CLS_SUCCESS;
}

cls_status cls_stencil_add_stage(cls_stencil *st, size_t *stage)
{
    if (!st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_add_stage: NULL");
    if (!st->n_fields)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "stages: declare the fields first (cls_stencil_add_field)");
    if (st->n_stages >= CLS__MAX_STAGES)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "stages: at most %d stages", CLS__MAX_STAGES);
    memset(&st->stages[st->n_stages], 0, sizeof st->stages[0]);
    if (stage) *stage = st->n_stages;
    st->n_stages++;
    return CLS_SUCCESS;
}

cls_status cls_stencil_set_update(cls_stencil *st, size_t stage, const char *field,
                                  const char *body)
{
    if (!st || !field || !body)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_set_update: NULL");
    if (stage >= st->n_stages)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "stage %zu: the stencil has %zu stage%s",
                         stage, st->n_stages, st->n_stages == 1 ? "" : "s");
    int f = cls__stencil_field_index(st, field);
    if (f < 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "stage %zu: unknown field %s", stage,
                         Q(field));
    if (st->fields[f].previous[0])
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "stage %zu: field '%s' is a time level of '%s' (it takes that field's "
                         "previous value) and has no update",
                         stage, field, st->fields[f].previous);
    cls__stage *sg = &st->stages[stage];
    for (size_t k = 0; k < sg->n; k++)
        if (sg->update[k].field == f)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "stage %zu: field '%s' is updated twice in one stage", stage, field);
    char *b = cls__strdup(body);
    if (!b) return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "copying an update's body");
    sg->update[sg->n].field = f;
    sg->update[sg->n].body = b;
    sg->n++;
    return CLS_SUCCESS;
}

cls_status cls__system_copy(const cls_stencil *st, cls_stencil *c)
{
    /* c starts as a shallow copy: take the bodies over one by one. */
    for (size_t s = 0; s < st->n_stages; s++)
        for (size_t k = 0; k < st->stages[s].n; k++) c->stages[s].update[k].body = NULL;
    for (size_t s = 0; s < st->n_stages; s++)
        for (size_t k = 0; k < st->stages[s].n; k++)
            if (!(c->stages[s].update[k].body = cls__strdup(st->stages[s].update[k].body)))
                return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "copying a system");
    return CLS_SUCCESS;
}

void cls__system_free(cls_stencil *st)
{
    for (size_t s = 0; s < st->n_stages; s++)
        for (size_t k = 0; k < st->stages[s].n; k++) free(st->stages[s].update[k].body);
}

/* ---------------------------------------------------------------- accessors */
size_t cls_stencil_num_fields(const cls_stencil *st)
{
    return !st ? 0 : st->n_fields ? st->n_fields : 1;
}

const char *cls_stencil_field_name(const cls_stencil *st, size_t f)
{
    if (!st) return NULL;
    if (!st->n_fields) return f == 0 ? "u" : NULL;
    return f < st->n_fields ? st->fields[f].name : NULL;
}

int cls_stencil_field_index(const cls_stencil *st, const char *name)
{
    if (!st || !name) return -1;
    if (!st->n_fields) return strcmp(name, "u") ? -1 : 0;
    return cls__stencil_field_index(st, name);
}

const char *cls_stencil_field_previous(const cls_stencil *st, size_t f)
{
    if (!st || f >= st->n_fields || !st->fields[f].previous[0]) return NULL;
    return st->fields[f].previous;
}

int cls_stencil_is_system(const cls_stencil *st) { return cls__stencil_is_system(st); }

size_t cls_stencil_num_stages(const cls_stencil *st)
{
    return !st ? 0 : st->n_fields ? st->n_stages : 1;
}

size_t cls_stencil_stage_num_updates(const cls_stencil *st, size_t stage)
{
    if (!st) return 0;
    if (!st->n_fields) return stage == 0 ? 1 : 0;
    return stage < st->n_stages ? st->stages[stage].n : 0;
}

const char *cls_stencil_update_body(const cls_stencil *st, size_t stage, size_t k, size_t *field)
{
    if (!st) return NULL;
    if (!st->n_fields) {
        if (stage || k) return NULL;
        if (field) *field = 0;
        return cls_stencil_body(st);
    }
    if (stage >= st->n_stages || k >= st->stages[stage].n) return NULL;
    if (field) *field = (size_t)st->stages[stage].update[k].field;
    return st->stages[stage].update[k].body;
}

/* ---------------------------------------------------------------- checks */
/* The field IN(dx, ...) without a name reads: the only field the stages update, else -1. */
static int default_field(const cls_stencil *st)
{
    int only = -1;
    for (size_t s = 0; s < st->n_stages; s++)
        for (size_t k = 0; k < st->stages[s].n; k++) {
            int f = st->stages[s].update[k].field;
            if (only >= 0 && only != f) return -1;
            only = f;
        }
    return only;
}

cls_status cls__stencil_parse_update(const cls_stencil *st, size_t stage, size_t k,
                                     cls_expr **e)
{
    const char *aux_names[CLS__MAX_FIELDS], *field_names[CLS__MAX_FIELDS];
    const char **param_names = NULL;
    cls_status s = CLS_SUCCESS;
    *e = NULL;
    if (stage >= st->n_stages || k >= st->stages[stage].n)
        return cls__fail(NULL, CLS_ERR_INTERNAL, "update %zu of stage %zu does not exist", k,
                         stage);
    if (st->n_params && !(param_names = malloc(st->n_params * sizeof *param_names)))
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "parsing an update");
    for (size_t i = 0; i < st->n_aux && i < CLS__MAX_FIELDS; i++) aux_names[i] = st->aux[i].name;
    for (size_t i = 0; i < st->n_params; i++) param_names[i] = st->params[i].name;
    for (size_t i = 0; i < st->n_fields; i++) field_names[i] = st->fields[i].name;
    cls_expr_env env = {st->lift_2d ? 2 : st->dims, st->dtype == CLS_FLOAT64, st->n_aux,
                        aux_names, st->n_params, param_names, st->n_fields, field_names,
                        default_field(st)};
    const cls__update *u = &st->stages[stage].update[k];
    char err[512];
    int r = cls__expr_parse(u->body, &env, e, err, sizeof err);
    if (r == -2) s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "parsing an update");
    else if (r != 0)
        s = cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: stage %zu, update of '%s': %s", st->name,
                      stage, st->fields[u->field].name, err);
    else if (st->lift_2d)
        cls__expr_lift_2d(*e);
    free(param_names);
    return s;
}

static const char *const axis_name[3] = {"x", "y", "z"};

/* Time levels: each names an existing field other than itself, and following them never
 * comes back (u_prev2 -> u_prev -> u ends at an updated field). */
static cls_status check_time_levels(const cls_stencil *st)
{
    for (size_t f = 0; f < st->n_fields; f++) {
        const cls__sysfield *fd = &st->fields[f];
        if (!fd->previous[0]) continue;
        int src = cls__stencil_field_index(st, fd->previous);
        if (src < 0)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: field '%s' is a time level of '%s', which is no field of the "
                             "system",
                             st->name, fd->name, fd->previous);
        size_t hops = 0;
        for (int g = (int)f; g >= 0 && st->fields[g].previous[0];
             g = cls__stencil_field_index(st, st->fields[g].previous))
            if (++hops > st->n_fields)
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                 "%s: field '%s': its time levels form a cycle ('%s' is a time "
                                 "level of '%s', ... back to '%s')",
                                 st->name, fd->name, fd->name, fd->previous, fd->name);
    }
    return CLS_SUCCESS;
}

cls_status cls__system_check(const cls_stencil *st, int need[3])
{
    cls_status s;
    need[0] = need[1] = need[2] = 0;
    if (!st->n_stages)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "%s: stages: a system needs at least one stage", st->name);
    for (size_t g = 0; g < st->n_stages; g++)
        if (!st->stages[g].n)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: stage %zu updates no field",
                             st->name, g);
    if ((s = check_time_levels(st)) != CLS_SUCCESS) return s;
    for (size_t f = 0; f < st->n_fields; f++) {
        if (st->fields[f].previous[0]) continue;
        int updated = 0;
        for (size_t g = 0; g < st->n_stages; g++)
            for (size_t k = 0; k < st->stages[g].n; k++) updated |= st->stages[g].update[k].field == (int)f;
        if (!updated)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: field '%s': no stage updates it and it is no time level (an "
                             "array that is only read is an auxiliary array, \"aux\")",
                             st->name, st->fields[f].name);
    }
    for (size_t g = 0; g < st->n_stages; g++)
        for (size_t k = 0; k < st->stages[g].n; k++) {
            const cls__update *u = &st->stages[g].update[k];
            if (st->fields[u->field].previous[0])
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                 "%s: stage %zu: field '%s' is a time level and has no update",
                                 st->name, g, st->fields[u->field].name);
            for (size_t j = 0; j < k; j++)
                if (st->stages[g].update[j].field == u->field)
                    return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                     "%s: stage %zu: field '%s' is updated twice in one stage",
                                     st->name, g, st->fields[u->field].name);
            cls_expr *e = NULL;
            if ((s = cls__stencil_parse_update(st, g, k, &e)) != CLS_SUCCESS) return s;
            int lo[3], hi[3], used;
            cls__expr_in_extent(e, lo, hi, &used);
            for (int d = 0; used && d < 3; d++) {
                if (-lo[d] > need[d]) need[d] = -lo[d];
                if (hi[d] > need[d]) need[d] = hi[d];
            }
            for (size_t a = 0; a < st->n_aux; a++) {
                cls__expr_aux_extent(e, a, lo, hi, &used);
                for (int d = 0; used && d < 3; d++) {
                    if (-lo[d] > need[d]) need[d] = -lo[d];
                    if (hi[d] > need[d]) need[d] = hi[d];
                }
            }
            cls__expr_free(e);
            if (st->halo_explicit)
                for (int d = 0; d < 3; d++)
                    if (need[d] > st->halo[d])
                        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                         "%s: stage %zu, update of '%s': reads offset %d in %s "
                                         "but halo[%d] is %d",
                                         st->name, g, st->fields[u->field].name, need[d],
                                         axis_name[d], d, st->halo[d]);
        }
    return CLS_SUCCESS;
}

cls_status cls__system_flops(const cls_stencil *st, size_t *flops)
{
    *flops = 0;
    for (size_t g = 0; g < st->n_stages; g++)
        for (size_t k = 0; k < st->stages[g].n; k++) {
            cls_expr *e = NULL;
            cls_status s = cls__stencil_parse_update(st, g, k, &e);
            if (s != CLS_SUCCESS) return s;
            *flops += cls__expr_flops(e);
            cls__expr_free(e);
        }
    return CLS_SUCCESS;
}

int cls__system_is_exact(const cls_stencil *st)
{
    for (size_t g = 0; g < st->n_stages; g++)
        for (size_t k = 0; k < st->stages[g].n; k++) {
            cls_expr *e = NULL;
            if (cls__stencil_parse_update(st, g, k, &e) != CLS_SUCCESS) return 0;
            int exact = cls__expr_is_exact(e);
            cls__expr_free(e);
            if (!exact) return 0;
        }
    return 1;
}

double cls__system_min_bytes_per_point(const cls_stencil *st)
{
    /* Every field each stage reads and every field it writes, once per stage, and the
     * auxiliary arrays once per step (Mo & Li's minimal traffic, model/traffic.c). */
    double reads[CLS__MAX_STAGES] = {0}, writes[CLS__MAX_STAGES] = {0};
    for (size_t g = 0; g < st->n_stages && g < CLS__MAX_STAGES; g++) {
        int read[CLS__MAX_FIELDS] = {0};
        for (size_t k = 0; k < st->stages[g].n; k++) {
            cls_expr *e = NULL;
            writes[g] += 1; /* the field it writes */
            if (cls__stencil_parse_update(st, g, k, &e) != CLS_SUCCESS) continue;
            for (size_t f = 0; f < st->n_fields; f++) {
                int lo[3], hi[3], used;
                cls__expr_field_extent(e, f, lo, hi, &used);
                read[f] |= used;
            }
            cls__expr_free(e);
        }
        for (size_t f = 0; f < st->n_fields; f++) reads[g] += read[f];
    }
    return cls_traffic_minimal_bytes((double)cls_dtype_size(st->dtype), reads, writes,
                                     (int)st->n_stages, (double)st->n_aux);
}

cls_status cls__system_stage_reach(const cls_stencil *st, size_t stage, int reach[3])
{
    reach[0] = reach[1] = reach[2] = 0;
    for (size_t k = 0; k < st->stages[stage].n; k++) {
        cls_expr *e = NULL;
        cls_status s = cls__stencil_parse_update(st, stage, k, &e);
        if (s != CLS_SUCCESS) return s;
        for (size_t f = 0; f < st->n_fields; f++) {
            int lo[3], hi[3], used;
            cls__expr_field_extent(e, f, lo, hi, &used);
            for (int d = 0; used && d < 3; d++) {
                if (-lo[d] > reach[d]) reach[d] = -lo[d];
                if (hi[d] > reach[d]) reach[d] = hi[d];
            }
        }
        cls__expr_free(e);
    }
    return CLS_SUCCESS;
}

void cls__stencil_step_reach(const cls_stencil *st, int reach[3])
{
    if (!cls__stencil_is_system(st)) {
        cls_stencil_halo(st, reach);
        return;
    }
    reach[0] = reach[1] = reach[2] = 0;
    for (size_t g = 0; g < st->n_stages; g++) {
        int r[3];
        if (cls__system_stage_reach(st, g, r) != CLS_SUCCESS) {
            /* an unparsable update: the halo bounds each stage */
            cls_stencil_halo(st, r);
        }
        for (int d = 0; d < 3; d++) reach[d] += r[d];
    }
}
