/* stencil_json.c: stencil specifications to and from JSON; every rejection names its JSON path. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "json_strict.h"

#define SPEC_MAX_BYTES (16u << 20)

static const char *type_name(const cJSON *j)
{
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    return "invalid";
}

/* A user string for a message: quoted, control characters escaped (a compound literal, valid
 * until the end of the enclosing block). */
#define Q(str) cls__quote((char[CLS__QUOTE_MAX]){0}, CLS__QUOTE_MAX, (str))

/* The JSON path of member `key` of `parent`: parent.key for an identifier, else parent['...']
 * with the key quoted (a compound literal, valid until the end of the enclosing block). */
#define MEMBER(parent, key) member_path((char[CLS__QUOTE_MAX + 96]){0}, CLS__QUOTE_MAX + 96, parent, key)
static const char *member_path(char *buf, size_t n, const char *parent, const char *key)
{
    char q[CLS__QUOTE_MAX];
    if (cls__valid_name(key))
        snprintf(buf, n, "%s.%s", parent, key);
    else
        snprintf(buf, n, "%s[%s]", parent, cls__quote(q, sizeof q, key));
    return buf;
}

/* An integer-valued JSON number in [lo, hi]. */
static cls_status get_int(const cJSON *j, const char *path, int lo, int hi, int *out)
{
    if (!cJSON_IsNumber(j))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: expected an integer, got %s", path,
                         type_name(j));
    double v = j->valuedouble;
    if (v != floor(v) || v < lo || v > hi)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: expected an integer in %d..%d, got %g",
                         path, lo, hi, v);
    *out = (int)v;
    return CLS_SUCCESS;
}

static cls_status get_number(const cJSON *j, const char *path, double *out)
{
    if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: expected a finite number, got %s", path,
                         type_name(j));
    *out = j->valuedouble;
    return CLS_SUCCESS;
}

/* Re-labels a builder error (which names a field loosely) with the JSON path. */
static cls_status relabel(cls_status s, const char *path)
{
    if (s == CLS_SUCCESS) return s;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", cls_last_error());
    return cls__fail(NULL, s, "%s: %s", path, msg);
}

static cls_status parse_boundary(const cJSON *j, cls_stencil *st)
{
    cls_boundary b;
    double value = 0;
    const char *kind;
    if (cJSON_IsString(j)) {
        kind = j->valuestring;
    } else if (cJSON_IsObject(j)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "type");
        if (!t) return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.boundary.type: missing required field");
        if (!cJSON_IsString(t))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.boundary.type: expected a string, got %s",
                             type_name(t));
        kind = t->valuestring;
        for (const cJSON *f = j->child; f; f = f->next)
            if (strcmp(f->string, "type") && strcmp(f->string, "value"))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: unknown field",
                                 MEMBER("$.boundary", f->string));
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "value");
        if (v && get_number(v, "$.boundary.value", &value) != CLS_SUCCESS)
            return CLS_ERR_INVALID_SPEC;
        if (v && strcmp(kind, "constant"))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.boundary.value: only a constant boundary takes a value");
    } else {
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "$.boundary: expected a string or {\"type\":..., \"value\":...}, got %s",
                         type_name(j));
    }
    if (cls_boundary_from_name(kind, &b) != CLS_SUCCESS)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "$.boundary: unknown boundary %s (clamp, constant, periodic, mirror)",
                         Q(kind));
    return cls_stencil_set_boundary(st, b, value);
}

static cls_status parse_points(const cJSON *j, cls_stencil *st)
{
    char path[96];
    if (!cJSON_IsArray(j))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.points: expected an array, got %s",
                         type_name(j));
    if (cJSON_GetArraySize(j) == 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.points: must not be empty");
    int i = 0;
    for (const cJSON *p = j->child; p; p = p->next, i++) {
        if (!cJSON_IsObject(p))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.points[%d]: expected an object, got %s",
                             i, type_name(p));
        for (const cJSON *f = p->child; f; f = f->next)
            if (strcmp(f->string, "offset") && strcmp(f->string, "coef")) {
                char at[32];
                snprintf(at, sizeof at, "$.points[%d]", i);
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: unknown field",
                                 MEMBER(at, f->string));
            }
        const cJSON *off = cJSON_GetObjectItemCaseSensitive(p, "offset");
        const cJSON *coef = cJSON_GetObjectItemCaseSensitive(p, "coef");
        if (!off)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.points[%d].offset: missing required field", i);
        if (!coef)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.points[%d].coef: missing required field", i);
        if (!cJSON_IsArray(off) || cJSON_GetArraySize(off) != st->dims)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.points[%d].offset: expected an array of %d integers (one per dimension)",
                             i, st->dims);
        int o[3] = {0, 0, 0}, d = 0;
        for (const cJSON *c = off->child; c; c = c->next, d++) {
            snprintf(path, sizeof path, "$.points[%d].offset[%d]", i, d);
            if (get_int(c, path, -1024, 1024, &o[d]) != CLS_SUCCESS) return CLS_ERR_INVALID_SPEC;
        }
        double cv = 0;
        snprintf(path, sizeof path, "$.points[%d].coef", i);
        if (get_number(coef, path, &cv) != CLS_SUCCESS) return CLS_ERR_INVALID_SPEC;
        cls_status s = cls_stencil_add_point(st, o[0], o[1], o[2], cv);
        if (s != CLS_SUCCESS) return relabel(s, path);
    }
    return CLS_SUCCESS;
}

static cls_status parse_aux(const cJSON *j, cls_stencil *st)
{
    char path[96];
    if (!cJSON_IsArray(j))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.aux: expected an array, got %s",
                         type_name(j));
    int i = 0;
    for (const cJSON *a = j->child; a; a = a->next, i++) {
        snprintf(path, sizeof path, "$.aux[%d]", i);
        const char *name;
        int per_step = 0;
        if (cJSON_IsString(a)) {
            name = a->valuestring;
        } else if (cJSON_IsObject(a)) {
            for (const cJSON *f = a->child; f; f = f->next)
                if (strcmp(f->string, "name") && strcmp(f->string, "per_step"))
                    return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: unknown field",
                                     MEMBER(path, f->string));
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(a, "name");
            const cJSON *ps = cJSON_GetObjectItemCaseSensitive(a, "per_step");
            if (!n) return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s.name: missing required field", path);
            if (!cJSON_IsString(n))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s.name: expected a string, got %s",
                                 path, type_name(n));
            if (ps && !cJSON_IsBool(ps))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                 "%s.per_step: expected a boolean, got %s", path, type_name(ps));
            name = n->valuestring;
            per_step = ps && cJSON_IsTrue(ps);
        } else {
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: expected a name or {\"name\":..., \"per_step\":...}, got %s", path,
                             type_name(a));
        }
        cls_status s = cls_stencil_add_aux(st, name, per_step);
        if (s != CLS_SUCCESS) return relabel(s, path);
    }
    return CLS_SUCCESS;
}

static cls_status parse_params(const cJSON *j, cls_stencil *st)
{
    char path[CLS__QUOTE_MAX + 16];
    if (!cJSON_IsObject(j))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.params: expected an object, got %s",
                         type_name(j));
    for (const cJSON *p = j->child; p; p = p->next) {
        snprintf(path, sizeof path, "%s", MEMBER("$.params", p->string));
        double v = 0;
        if (get_number(p, path, &v) != CLS_SUCCESS) return CLS_ERR_INVALID_SPEC;
        cls_status s = cls_stencil_set_param(st, p->string, v);
        if (s != CLS_SUCCESS) return relabel(s, path);
    }
    return CLS_SUCCESS;
}

/* A system's fields: names, or {"name": ..., "previous": ...} for a time level. */
static cls_status parse_fields(const cJSON *j, cls_stencil *st)
{
    char path[96];
    if (!cJSON_IsArray(j))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.fields: expected an array, got %s",
                         type_name(j));
    if (cJSON_GetArraySize(j) == 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.fields: must not be empty");
    int i = 0;
    for (const cJSON *a = j->child; a; a = a->next, i++) {
        snprintf(path, sizeof path, "$.fields[%d]", i);
        cls_status s;
        if (cJSON_IsString(a)) {
            s = cls_stencil_add_field(st, a->valuestring);
        } else if (cJSON_IsObject(a)) {
            for (const cJSON *f = a->child; f; f = f->next)
                if (strcmp(f->string, "name") && strcmp(f->string, "previous"))
                    return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: unknown field",
                                     MEMBER(path, f->string));
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(a, "name");
            const cJSON *prev = cJSON_GetObjectItemCaseSensitive(a, "previous");
            if (!n) return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s.name: missing required field", path);
            if (!cJSON_IsString(n))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s.name: expected a string, got %s",
                                 path, type_name(n));
            if (prev && !cJSON_IsString(prev))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                 "%s.previous: expected a field name, got %s", path,
                                 type_name(prev));
            s = prev ? cls_stencil_add_time_level(st, n->valuestring, prev->valuestring)
                     : cls_stencil_add_field(st, n->valuestring);
        } else {
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: expected a name or {\"name\":..., \"previous\":...}, got %s",
                             path, type_name(a));
        }
        if (s != CLS_SUCCESS) return relabel(s, path);
    }
    return CLS_SUCCESS;
}

/* A system's stages: [{"update": {"u": "<body>", ...}}, ...]. */
static cls_status parse_stages(const cJSON *j, cls_stencil *st)
{
    char path[96];
    if (!cJSON_IsArray(j))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.stages: expected an array, got %s",
                         type_name(j));
    if (cJSON_GetArraySize(j) == 0)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.stages: must not be empty");
    int i = 0;
    for (const cJSON *g = j->child; g; g = g->next, i++) {
        snprintf(path, sizeof path, "$.stages[%d]", i);
        if (!cJSON_IsObject(g))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: expected {\"update\": {FIELD: BODY, ...}}, got %s", path,
                             type_name(g));
        for (const cJSON *f = g->child; f; f = f->next)
            if (strcmp(f->string, "update"))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: unknown field",
                                 MEMBER(path, f->string));
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(g, "update");
        if (!u) return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s.update: missing required field", path);
        if (!cJSON_IsObject(u) || !u->child)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s.update: expected a non-empty object {FIELD: BODY, ...}, got %s",
                             path, cJSON_IsObject(u) ? "an empty object" : type_name(u));
        size_t index;
        cls_status s = cls_stencil_add_stage(st, &index);
        if (s != CLS_SUCCESS) return relabel(s, path);
        char upath[sizeof path + 16];
        snprintf(upath, sizeof upath, "%s.update", path);
        for (const cJSON *b = u->child; b; b = b->next) {
            if (!cJSON_IsString(b))
                return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "%s: expected a body (a string), got %s",
                                 MEMBER(upath, b->string), type_name(b));
            if ((s = cls_stencil_set_update(st, index, b->string, b->valuestring)) != CLS_SUCCESS)
                return relabel(s, MEMBER(upath, b->string));
        }
    }
    return CLS_SUCCESS;
}

static const char *const known_fields[] = {"name", "description", "builtin", "dims", "dtype",
                                           "halo", "boundary", "body", "points", "aux",
                                           "params", "fields", "stages", NULL};

static cls_status from_cjson(const cJSON *root, cls_stencil **out)
{
    cls_stencil *st = NULL;
    cls_status s;
    if (!cJSON_IsObject(root))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$: expected an object, got %s",
                         type_name(root));
    for (const cJSON *f = root->child; f; f = f->next) {
        int known = 0;
        for (const char *const *k = known_fields; *k; k++) known |= !strcmp(f->string, *k);
        if (!known)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: unknown field (known: name, description, builtin, dims, "
                             "dtype, halo, boundary, body, points, aux, params, fields, "
                             "stages)",
                             MEMBER("$", f->string));
    }
#define FIELD(n) cJSON_GetObjectItemCaseSensitive(root, n)
    const cJSON *builtin = FIELD("builtin"), *name = FIELD("name"), *dims = FIELD("dims");
    const cJSON *dtype = FIELD("dtype"), *halo = FIELD("halo"), *boundary = FIELD("boundary");
    const cJSON *body = FIELD("body"), *points = FIELD("points"), *aux = FIELD("aux");
    const cJSON *params = FIELD("params"), *desc = FIELD("description");
    const cJSON *fields = FIELD("fields"), *stages = FIELD("stages");
#undef FIELD
    if (name && !cJSON_IsString(name))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.name: expected a string, got %s",
                         type_name(name));
    if (name && !cls__valid_name(name->valuestring)) {
        char q[CLS__QUOTE_MAX];
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "$.name: %s is not a valid stencil name (letters, digits and '_', not "
                         "starting with a digit, 1..%d characters)",
                         cls__quote(q, sizeof q, name->valuestring), CLS__NAME_MAX - 1);
    }
    if (desc && !cJSON_IsString(desc))
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.description: expected a string, got %s",
                         type_name(desc));
    cls_dtype dt = CLS_FLOAT32;
    if (dtype) {
        if (!cJSON_IsString(dtype))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.dtype: expected a string, got %s",
                             type_name(dtype));
        if (!strcmp(dtype->valuestring, "float") || !strcmp(dtype->valuestring, "float32"))
            dt = CLS_FLOAT32;
        else if (!strcmp(dtype->valuestring, "double") || !strcmp(dtype->valuestring, "float64"))
            dt = CLS_FLOAT64;
        else
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.dtype: unknown type %s (float or double)", Q(dtype->valuestring));
    }

    if (builtin) {
        /* A built-in with overrides: structure comes from the built-in. */
        if (!cJSON_IsString(builtin))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.builtin: expected a string, got %s",
                             type_name(builtin));
        if (dims || body || points || aux || halo || fields || stages)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.builtin: a built-in fixes dims, body, points, aux, halo, fields "
                             "and stages; only name, description, dtype, boundary and params "
                             "may be given");
        s = cls_stencil_builtin(builtin->valuestring, &st);
        if (s != CLS_SUCCESS) return relabel(s, "$.builtin");
    } else {
        int nd;
        if (!dims) return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.dims: missing required field");
        if (get_int(dims, "$.dims", 1, 3, &nd) != CLS_SUCCESS) return CLS_ERR_INVALID_SPEC;
        if (body && points)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.body: give either body or points, not both");
        if ((fields || stages) && (body || points))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "%s: a system of fields gives its bodies in stages[].update; give "
                             "body or points (one field) or fields and stages, not both",
                             body ? "$.body" : "$.points");
        if (fields && !stages)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.stages: missing required field (a system of fields needs its "
                             "stages)");
        if (stages && !fields)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.fields: missing required field (stages update declared fields)");
        if (!body && !points && !fields)
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                             "$.body: missing required field (or give points, or fields and stages)");
        if (body && !cJSON_IsString(body))
            return cls__fail(NULL, CLS_ERR_INVALID_SPEC, "$.body: expected a string, got %s",
                             type_name(body));
        s = cls_stencil_create(name ? name->valuestring : "custom", nd, dt,
                               body ? body->valuestring : NULL, &st);
        if (s != CLS_SUCCESS) return s;
        /* aux before params and body: both may refer to aux names. */
        if (aux && (s = parse_aux(aux, st)) != CLS_SUCCESS) goto fail;
        if (points && (s = parse_points(points, st)) != CLS_SUCCESS) goto fail;
        /* The stages' bodies are parsed when the whole spec is checked, after the params. */
        if (fields && (s = parse_fields(fields, st)) != CLS_SUCCESS) goto fail;
        if (stages && (s = parse_stages(stages, st)) != CLS_SUCCESS) goto fail;
        if (halo) {
            int h[3] = {0, 0, 0};
            if (!cJSON_IsArray(halo) || cJSON_GetArraySize(halo) != nd) {
                s = cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                              "$.halo: expected an array of %d integers (one per dimension)", nd);
                goto fail;
            }
            int d = 0;
            char path[32];
            for (const cJSON *c = halo->child; c; c = c->next, d++) {
                snprintf(path, sizeof path, "$.halo[%d]", d);
                if ((s = get_int(c, path, 0, 1024, &h[d])) != CLS_SUCCESS) goto fail;
            }
            if ((s = cls_stencil_set_halo(st, h[0], h[1], h[2])) != CLS_SUCCESS) goto fail;
        }
    }
    if (name) snprintf(st->name, sizeof st->name, "%s", name->valuestring);
    if (desc) {
        free(st->description);
        if (!(st->description = cls__strdup(desc->valuestring))) {
            s = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "copying the description");
            goto fail;
        }
    }
    st->dtype = dt;
    if (boundary && (s = parse_boundary(boundary, st)) != CLS_SUCCESS) goto fail;
    if (params && (s = parse_params(params, st)) != CLS_SUCCESS) goto fail;
    if ((s = cls_stencil_validate(st)) != CLS_SUCCESS) goto fail;
    *out = st;
    return CLS_SUCCESS;
fail:
    cls_stencil_release(st);
    return s;
}

cls_status cls_stencil_from_json(const char *json, cls_stencil **st)
{
    if (!json || !st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_from_json: NULL");
    *st = NULL;
    size_t len = strlen(json);
    if (len > SPEC_MAX_BYTES)
        return cls__fail(NULL, CLS_ERR_INVALID_JSON, "spec is %zu bytes, more than the %u allowed",
                         len, SPEC_MAX_BYTES);
    long nul = cls__json_find_nul_escape(json);
    if (nul >= 0) {
        int line, col;
        cls__json_position(json, (size_t)nul, &line, &col);
        return cls__fail(NULL, CLS_ERR_INVALID_JSON,
                         "line %d, column %d: a string holds \\u0000 (NUL), which would cut it "
                         "short",
                         line, col);
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
    if (!root) {
        /* Report line and column of the point where cJSON stopped. */
        const char *at = end ? end : cJSON_GetErrorPtr();
        int line = 1, col = 1;
        for (const char *p = json; at && p < at && *p; p++) {
            if (*p == '\n') line++, col = 1;
            else col++;
        }
        return cls__fail(NULL, CLS_ERR_INVALID_JSON, "malformed JSON at line %d, column %d", line,
                         col);
    }
    char dup[CLS__QUOTE_MAX + 256];
    int d = cls__json_find_duplicate(root, dup, sizeof dup);
    cls_status s = d > 0   ? cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                                       "%s: given twice (cJSON would keep the first silently)", dup)
                   : d < 0 ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "checking the spec")
                           : from_cjson(root, st);
    cJSON_Delete(root);
    return s;
}

cls_status cls_stencil_from_file(const char *path, cls_stencil **st)
{
    if (!path || !st) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_from_file: NULL");
    *st = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return cls__fail(NULL, CLS_ERR_IO, "%s: %s", path, strerror(errno));
    char *buf = malloc(SPEC_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "reading %s", path);
    }
    size_t n = fread(buf, 1, SPEC_MAX_BYTES + 1, f);
    int err = ferror(f);
    fclose(f);
    cls_status s;
    if (err) s = cls__fail(NULL, CLS_ERR_IO, "%s: read error", path);
    else if (n > SPEC_MAX_BYTES)
        s = cls__fail(NULL, CLS_ERR_INVALID_JSON, "%s: larger than %u bytes", path, SPEC_MAX_BYTES);
    else if (memchr(buf, 0, n))
        s = cls__fail(NULL, CLS_ERR_INVALID_JSON, "%s: contains a NUL byte", path);
    else {
        buf[n] = 0;
        s = cls_stencil_from_json(buf, st);
        if (s != CLS_SUCCESS) {
            char msg[2048];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            cls__fail(NULL, s, "%s: %s", path, msg);
        }
    }
    free(buf);
    return s;
}

cls_status cls_stencil_to_json(const cls_stencil *st, char **json)
{
    if (!st || !json) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_to_json: NULL");
    *json = NULL;
    /* Numbers as %.17g: cJSON's own printing may drop the last bit of a double, and the spec
     * must load back to the same stencil, coefficient for coefficient. */
    char num[40];
    cJSON *root = cJSON_CreateObject();
    if (!root) goto oom;
    cJSON_AddStringToObject(root, "name", st->name);
    if (st->description) cJSON_AddStringToObject(root, "description", st->description);
    cJSON_AddNumberToObject(root, "dims", st->dims);
    cJSON_AddStringToObject(root, "dtype", st->dtype == CLS_FLOAT64 ? "double" : "float");
    if (st->halo_explicit) {
        cJSON *h = cJSON_AddArrayToObject(root, "halo");
        for (int d = 0; h && d < st->dims; d++) cJSON_AddItemToArray(h, cJSON_CreateNumber(st->halo[d]));
    }
    if (st->boundary == CLS_BOUNDARY_CONSTANT) {
        cJSON *b = cJSON_AddObjectToObject(root, "boundary");
        if (b) {
            cJSON_AddStringToObject(b, "type", "constant");
            cJSON_AddRawToObject(b, "value", cls__fmt_double(num, st->boundary_value));
        }
    } else {
        cJSON_AddStringToObject(root, "boundary", cls_boundary_name(st->boundary));
    }
    if (st->body_from_points) {
        cJSON *pts = cJSON_AddArrayToObject(root, "points");
        for (size_t i = 0; pts && i < st->n_points; i++) {
            cJSON *p = cJSON_CreateObject(), *o = cJSON_CreateArray();
            for (int d = 0; o && d < st->dims; d++)
                cJSON_AddItemToArray(o, cJSON_CreateNumber(st->points[i].off[d]));
            cJSON_AddItemToObject(p, "offset", o);
            cJSON_AddRawToObject(p, "coef", cls__fmt_double(num, st->points[i].coef));
            cJSON_AddItemToArray(pts, p);
        }
    } else if (st->body) {
        cJSON_AddStringToObject(root, "body", st->body);
    }
    if (st->n_fields) {
        cJSON *fs = cJSON_AddArrayToObject(root, "fields");
        for (size_t f = 0; fs && f < st->n_fields; f++) {
            if (!st->fields[f].previous[0]) {
                cJSON_AddItemToArray(fs, cJSON_CreateString(st->fields[f].name));
            } else {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "name", st->fields[f].name);
                cJSON_AddStringToObject(o, "previous", st->fields[f].previous);
                cJSON_AddItemToArray(fs, o);
            }
        }
        cJSON *gs = cJSON_AddArrayToObject(root, "stages");
        for (size_t g = 0; gs && g < st->n_stages; g++) {
            cJSON *o = cJSON_CreateObject(), *u = cJSON_AddObjectToObject(o, "update");
            for (size_t k = 0; u && k < st->stages[g].n; k++)
                cJSON_AddStringToObject(u, st->fields[st->stages[g].update[k].field].name,
                                        st->stages[g].update[k].body);
            cJSON_AddItemToArray(gs, o);
        }
    }
    if (st->n_aux) {
        cJSON *a = cJSON_AddArrayToObject(root, "aux");
        for (size_t k = 0; a && k < st->n_aux; k++) {
            if (!st->aux[k].per_step) {
                cJSON_AddItemToArray(a, cJSON_CreateString(st->aux[k].name));
            } else {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "name", st->aux[k].name);
                cJSON_AddBoolToObject(o, "per_step", 1);
                cJSON_AddItemToArray(a, o);
            }
        }
    }
    if (st->n_params) {
        cJSON *p = cJSON_AddObjectToObject(root, "params");
        for (size_t k = 0; p && k < st->n_params; k++)
            cJSON_AddRawToObject(p, st->params[k].name, cls__fmt_double(num, st->params[k].value));
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) goto oom;
    /* Hand out memory that cls_free (free) can release, whatever cJSON's allocator is. */
    *json = cls__strdup(text);
    cJSON_free(text);
    if (!*json) goto oom;
    return CLS_SUCCESS;
oom:
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "serialising a stencil");
}
