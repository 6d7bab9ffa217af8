/* access_json.c: the JSON form of access descriptions (a kernel and its variants). */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "error.h"
#include "json_strict.h"

/* Keys a kernel (and a variant, which overrides them) may hold. */
static const char *const kernel_keys[] = {"params", "let",    "block",  "grid",
                                          "block_order", "registers", "arrays", "buffers",
                                          "body",   "description", "note"};
#define N_KERNEL_KEYS (sizeof kernel_keys / sizeof kernel_keys[0])

/* One named entry of params or let, with where it came from. */
typedef struct entry {
    char name[CLS_ACC_NAME_MAX];
    const cJSON *value;  /* NULL for a command-line override */
    const char *text;    /* the override's value text */
    char path[CLS_ACC_PATH_MAX];
} entry;

typedef struct loader {
    cls_access *a;
    size_t cap;                /* allocated statements */
    entry params[CLS_ACC_MAX_PARAMS];
    size_t n_params;
    entry lets[CLS_ACC_MAX_PARAMS];
    size_t n_lets;
    const char *names[2 * CLS_ACC_MAX_PARAMS];
    int64_t values[CLS_ACC_MAX_PARAMS];
    const char *let_texts[CLS_ACC_MAX_PARAMS];
    cls_acc_scope scope;
} loader;

static void position(const char *text, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *c = text; c < at && *c; c++) {
        if (*c == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* Refuses keys outside `allowed` and keys given twice. */
static cls_status check_keys(loader *ld, const cJSON *obj, const char *path,
                             const char *const *allowed, size_t n_allowed)
{
    const cJSON *it, *jt;
    cJSON_ArrayForEach(it, obj)
    {
        size_t i;
        for (i = 0; i < n_allowed; i++)
            if (it->string && strcmp(it->string, allowed[i]) == 0) break;
        if (i == n_allowed) {
            char list[512];
            size_t len = 0;
            list[0] = '\0';
            for (size_t k = 0; k < n_allowed && len < sizeof list; k++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "",
                                        allowed[k]);
            return cls__error(CLS_ERR_INVALID_SPEC, "%s.%.60s: unknown key (expected one of: %s)",
                              path, it->string ? it->string : "?", list);
        }
        for (jt = obj->child; jt != it; jt = jt->next)
            if (jt->string && strcmp(jt->string, it->string) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s.%s: given twice", path, it->string);
    }
    return CLS_SUCCESS;
}

/* A constant: a JSON integer or a string holding a constant expression. */
static cls_status constant(loader *ld, const cJSON *v, const char *path, int64_t *out)
{
    cls_affine e;
    cls_acc_scope s = ld->scope;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: an integer is expected, got %g", path, d);
        *out = (int64_t)d;
        return CLS_SUCCESS;
    }
    if (!cJSON_IsString(v))
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s: an integer or a constant expression string "
                          "is expected",
                          path);
    s.constant_only = 1;
    if (cls_acc_parse_expr(v->valuestring, &s, &e) != 0)
        return cls__error_prefix(CLS_ERR_INVALID_SPEC, "%s: ", path);
    *out = e.c;
    return CLS_SUCCESS;
}

static cls_status bounded(loader *ld, const cJSON *v, const char *path, int64_t lo, int64_t hi,
                          int64_t *out)
{
    cls_status st = constant(ld, v, path, out);
    if (st != CLS_SUCCESS) return st;
    if (*out < lo || *out > hi)
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s: must be %" PRId64 " to %" PRId64 ", got %" PRId64, path, lo, hi,
                          *out);
    return CLS_SUCCESS;
}

/* The item `key` of the variant when it has one, else of the kernel; *path gets its path. */
static const cJSON *field(const cJSON *kernel, const cJSON *variant, const char *vpath,
                          const char *key, char *path, size_t len)
{
    const cJSON *v = variant ? cJSON_GetObjectItemCaseSensitive(variant, key) : NULL;
    if (v) {
        snprintf(path, len, "%s.%s", vpath, key);
        return v;
    }
    snprintf(path, len, "$.kernel.%s", key);
    return cJSON_GetObjectItemCaseSensitive(kernel, key);
}

/* ------------------------------------------------------------------ params and lets */

static cls_status add_entries(loader *ld, const cJSON *obj, const char *path, int lets)
{
    entry *list = lets ? ld->lets : ld->params;
    size_t *n = lets ? &ld->n_lets : &ld->n_params;
    const cJSON *it;
    if (!obj) return CLS_SUCCESS;
    if (!cJSON_IsObject(obj))
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: an object of names is expected", path);
    cJSON_ArrayForEach(it, obj)
    {
        size_t i;
        char p[CLS_ACC_PATH_MAX];
        snprintf(p, sizeof p, "%s.%s", path, it->string ? it->string : "?");
        if (!it->string || !cls_acc_is_name(it->string) || cls_acc_is_builtin(it->string))
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: not a usable name (letters, digits, _; "
                              "not bx..gdz)",
                              p);
        if (lets && !cJSON_IsString(it))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: a let entry is an expression string", p);
        for (const cJSON *jt = obj->child; jt != it; jt = jt->next)
            if (jt->string && strcmp(jt->string, it->string) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: given twice", p);
        for (i = 0; i < *n; i++)
            if (strcmp(list[i].name, it->string) == 0) break;
        if (i == *n) {
            if (*n >= CLS_ACC_MAX_PARAMS)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: more than %d entries", path,
                                  CLS_ACC_MAX_PARAMS);
            ++*n;
            snprintf(list[i].name, sizeof list[i].name, "%s", it->string);
        }
        list[i].value = it;
        list[i].text = NULL;
        snprintf(list[i].path, sizeof list[i].path, "%s", p);
    }
    return CLS_SUCCESS;
}

static cls_status add_overrides(loader *ld, const char *const *ov, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const char *eq = ov[k] ? strchr(ov[k], '=') : NULL;
        size_t len = eq ? (size_t)(eq - ov[k]) : 0, i;
        if (!eq || len == 0 || len >= CLS_ACC_NAME_MAX || !eq[1])
            return cls__error(CLS_ERR_INVALID_ARGUMENT, "override '%.60s': NAME=VALUE expected",
                              ov[k] ? ov[k] : "(null)");
        for (i = 0; i < ld->n_params; i++)
            if (strlen(ld->params[i].name) == len && memcmp(ld->params[i].name, ov[k], len) == 0)
                break;
        if (i == ld->n_params) {
            char list[400];
            size_t l = 0;
            list[0] = '\0';
            for (size_t j = 0; j < ld->n_params && l < sizeof list; j++)
                l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", j ? ", " : "",
                                      ld->params[j].name);
            return cls__error(CLS_ERR_INVALID_ARGUMENT,
                              "override '%.60s': the description has no param '%.*s' (it has: %s)",
                              ov[k], (int)len, ov[k], ld->n_params ? list : "none");
        }
        ld->params[i].value = NULL;
        ld->params[i].text = eq + 1;
        snprintf(ld->params[i].path, sizeof ld->params[i].path, "override '%.60s'", ov[k]);
    }
    return CLS_SUCCESS;
}

/* Evaluates the params in order (each sees those before it) and publishes the scope. */
static cls_status build_scope(loader *ld)
{
    cls_acc_scope *s = &ld->scope;
    for (size_t i = 0; i < ld->n_lets; i++) {
        for (size_t j = 0; j < ld->n_params; j++)
            if (strcmp(ld->lets[i].name, ld->params[j].name) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: a param has the same name",
                                  ld->lets[i].path);
    }
    memset(s, 0, sizeof *s);
    s->names = ld->names;
    s->values = ld->values;
    s->lets = ld->let_texts;
    for (size_t i = 0; i < ld->n_params; i++) {
        cls_status st;
        ld->names[i] = ld->params[i].name;
        s->n_params = i; /* a param sees the params before it */
        if (ld->params[i].value) {
            st = constant(ld, ld->params[i].value, ld->params[i].path, &ld->values[i]);
        } else {
            cJSON tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.type = cJSON_String;
            tmp.valuestring = (char *)ld->params[i].text;
            st = constant(ld, &tmp, ld->params[i].path, &ld->values[i]);
        }
        if (st != CLS_SUCCESS) return st;
    }
    s->n_params = ld->n_params;
    for (size_t i = 0; i < ld->n_lets; i++) {
        ld->names[ld->n_params + i] = ld->lets[i].name;
        ld->let_texts[i] = ld->lets[i].value->valuestring;
    }
    s->n_lets = ld->n_lets;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ sizes and spaces */

/* An array of 1..3 constants into dims (missing ones 1); 0 < each <= hi. */
static cls_status dims_of(loader *ld, const cJSON *v, const char *path, unsigned *dims,
                          int64_t hi)
{
    int n = cJSON_GetArraySize(v), d = 0;
    const cJSON *it;
    if (!cJSON_IsArray(v) || n < 1 || n > CLS_ACC_MAX_DIMS)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: an array of 1 to 3 sizes is expected", path);
    for (int i = 0; i < CLS_ACC_MAX_DIMS; i++) dims[i] = 1;
    cJSON_ArrayForEach(it, v)
    {
        char p[CLS_ACC_PATH_MAX];
        int64_t x;
        cls_status st;
        snprintf(p, sizeof p, "%s[%d]", path, d);
        st = constant(ld, it, p, &x);
        if (st != CLS_SUCCESS) return st;
        if (x < 1)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: a zero-sized or negative extent (%" PRId64 ")", p, x);
        if (x > hi)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: %" PRId64 " is larger than %" PRId64, p, x,
                              hi);
        dims[d++] = (unsigned)x;
    }
    return CLS_SUCCESS;
}

static cls_status spaces_of(loader *ld, const cJSON *obj, const char *path, cls_acc_space *out,
                            size_t *n, size_t max)
{
    static const char *const keys[] = {"elem_size", "dims", "elements", "note"};
    const cJSON *it;
    *n = 0;
    if (!obj) return CLS_SUCCESS;
    if (!cJSON_IsObject(obj))
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s: an object of NAME: {elem_size, dims} is "
                          "expected",
                          path);
    cJSON_ArrayForEach(it, obj)
    {
        char p[CLS_ACC_PATH_MAX], q[CLS_ACC_PATH_MAX + 16];
        cls_acc_space *sp;
        const cJSON *es, *dims, *elems;
        int64_t x;
        cls_status st;
        snprintf(p, sizeof p, "%s.%.40s", path, it->string ? it->string : "?");
        if (*n >= max)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: more than %zu entries", path, max);
        if (!it->string || !cls_acc_is_name(it->string) || cls_acc_is_builtin(it->string))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: not a usable name", p);
        if (!cJSON_IsObject(it))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: an object {elem_size, dims} is expected",
                              p);
        st = check_keys(ld, it, p, keys, sizeof keys / sizeof keys[0]);
        if (st != CLS_SUCCESS) return st;
        sp = &out[(*n)++];
        memset(sp, 0, sizeof *sp);
        snprintf(sp->name, sizeof sp->name, "%s", it->string);
        es = cJSON_GetObjectItemCaseSensitive(it, "elem_size");
        snprintf(q, sizeof q, "%s.elem_size", p);
        if (!es) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing", q);
        st = bounded(ld, es, q, 1, 16, &x);
        if (st != CLS_SUCCESS) return st;
        if (x != 1 && x != 2 && x != 4 && x != 8 && x != 16)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: must be 1, 2, 4, 8 or 16 bytes, got %" PRId64, q, x);
        sp->elem_size = (unsigned)x;
        dims = cJSON_GetObjectItemCaseSensitive(it, "dims");
        elems = cJSON_GetObjectItemCaseSensitive(it, "elements");
        if ((dims != NULL) == (elems != NULL))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: give either dims or elements", p);
        if (elems) {
            snprintf(q, sizeof q, "%s.elements", p);
            st = bounded(ld, elems, q, 1, (int64_t)(CLS_ACC_MAX_ARRAY_BYTES / sp->elem_size), &x);
            if (st != CLS_SUCCESS) return st;
            sp->ndims = 1;
            sp->dims[0] = (uint64_t)x;
            sp->elements = (uint64_t)x;
        } else {
            int nd = cJSON_GetArraySize(dims), d = 0;
            const cJSON *dv;
            snprintf(q, sizeof q, "%s.dims", p);
            if (!cJSON_IsArray(dims) || nd < 1 || nd > CLS_ACC_MAX_DIMS)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: 1 to 3 extents are expected", q);
            sp->ndims = nd;
            sp->elements = 1;
            cJSON_ArrayForEach(dv, dims)
            {
                char r[CLS_ACC_PATH_MAX + 24];
                snprintf(r, sizeof r, "%s[%d]", q, d);
                st = bounded(ld, dv, r, 1, (int64_t)CLS_ACC_MAX_ARRAY_BYTES, &x);
                if (st != CLS_SUCCESS) return st;
                sp->dims[d++] = (uint64_t)x;
                if (__builtin_mul_overflow(sp->elements, (uint64_t)x, &sp->elements) ||
                    sp->elements > CLS_ACC_MAX_ARRAY_BYTES / sp->elem_size)
                    return cls__error(CLS_ERR_INVALID_SPEC, "%s: more than 2^40 bytes", p);
            }
        }
    }
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ statements */

static const char *const stmt_kinds[] = {"read",       "write", "fetch", "local_read",
                                         "local_write", "if",    "loop"};
#define N_STMT_KINDS 7

static cls_status parse_list(loader *ld, const cJSON *arr, const char *path, int nest,
                             size_t *first, size_t *n);

static cls_status reserve(loader *ld, size_t n, size_t *first, const char *path)
{
    cls_access *a = ld->a;
    *first = a->n_stmts;
    if (n == 0) return CLS_SUCCESS;
    if (n > CLS_ACC_MAX_STMTS - a->n_stmts)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: more than %d statements in the description",
                          path, CLS_ACC_MAX_STMTS);
    if (a->n_stmts + n > ld->cap) {
        size_t cap = ld->cap ? ld->cap : 16;
        cls_acc_stmt *p;
        while (cap < a->n_stmts + n) cap *= 2;
        p = realloc(a->stmts, cap * sizeof *p);
        if (!p) return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "%s: out of memory", path);
        a->stmts = p;
        ld->cap = cap;
    }
    *first = a->n_stmts;
    memset(a->stmts + a->n_stmts, 0, n * sizeof *a->stmts);
    a->n_stmts += n;
    return CLS_SUCCESS;
}

static cls_status parse_ref_text(loader *ld, const cJSON *v, const char *path, size_t idx,
                                 cls_acc_kind kind)
{
    cls_access *a = ld->a;
    cls_acc_stmt *st = &a->stmts[idx];
    const char *text, *end = NULL;
    if (!cJSON_IsString(v))
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: a reference string NAME[index] is expected",
                          path);
    text = v->valuestring;
    st->kind = kind;
    st->array = -1;
    st->buffer = -1;
    switch (kind) {
    case CLS_ACC_READ:
    case CLS_ACC_WRITE:
        if (cls_acc_parse_ref(text, &ld->scope, a->arrays, a->n_arrays, &st->array, &st->global,
                              NULL) != 0)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: %s (global arrays: see arrays)", path,
                              cls__error_message());
        return CLS_SUCCESS;
    case CLS_ACC_LOCAL_READ:
    case CLS_ACC_LOCAL_WRITE:
        if (cls_acc_parse_ref(text, &ld->scope, a->buffers, a->n_buffers, &st->buffer, &st->local,
                              NULL) != 0)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: %s (local buffers: see buffers)", path,
                              cls__error_message());
        return CLS_SUCCESS;
    case CLS_ACC_FETCH:
        if (cls_acc_parse_ref(text, &ld->scope, a->buffers, a->n_buffers, &st->buffer, &st->local,
                              &end) != 0)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: %s (a fetch is BUFFER[i] = ARRAY[j])",
                              path, cls__error_message());
        while (*end == ' ' || *end == '\t') end++;
        if (end[0] != '=' || end[1] == '=')
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: '%.120s': '=' expected after the local "
                              "reference (a fetch is BUFFER[i] = ARRAY[j])",
                              path, text);
        if (cls_acc_parse_ref(end + 1, &ld->scope, a->arrays, a->n_arrays, &st->array, &st->global,
                              NULL) != 0)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: %s (a fetch is BUFFER[i] = ARRAY[j])",
                              path, cls__error_message());
        return CLS_SUCCESS;
    default: return cls__error(CLS_ERR_INTERNAL, "%s: not a reference", path);
    }
}

static cls_status parse_stmt(loader *ld, const cJSON *obj, const char *path, size_t idx, int nest)
{
    static const char *const keys[] = {"read", "write", "fetch", "local_read", "local_write",
                                       "if",   "loop",  "then",  "else",       "count",
                                       "body", "view",  "note"};
    cls_access *a = ld->a;
    const cJSON *kind_item = NULL, *view;
    int kind = -1;
    char p[CLS_ACC_PATH_MAX + 16];
    cls_status st;

    if (!cJSON_IsObject(obj))
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: a statement object is expected", path);
    st = check_keys(ld, obj, path, keys, sizeof keys / sizeof keys[0]);
    if (st != CLS_SUCCESS) return st;
    for (int k = 0; k < N_STMT_KINDS; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, stmt_kinds[k]);
        if (!v) continue;
        if (kind_item)
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: both '%s' and '%s' (one statement kind "
                              "each)",
                              path, stmt_kinds[kind], stmt_kinds[k]);
        kind_item = v;
        kind = k;
    }
    if (!kind_item)
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s: no statement kind (read, write, fetch, "
                          "local_read, local_write, if or loop)",
                          path);
    snprintf(a->stmts[idx].path, sizeof a->stmts[idx].path, "%s", path);
    if (kind <= 4) {
        /* Keys of compound statements make no sense here. */
        static const char *const other[] = {"then", "else", "count", "body"};
        for (size_t k = 0; k < 4; k++)
            if (cJSON_GetObjectItemCaseSensitive(obj, other[k]))
                return cls__error(CLS_ERR_INVALID_SPEC, "%s.%s: only for if and loop statements",
                                  path, other[k]);
    }
    view = cJSON_GetObjectItemCaseSensitive(obj, "view");
    if (view) {
        unsigned dims[3];
        snprintf(p, sizeof p, "%s.view", path);
        st = dims_of(ld, view, p, dims, CLS_ACC_MAX_THREADS);
        if (st != CLS_SUCCESS) return st;
        memcpy(a->stmts[idx].view, dims, sizeof dims);
    }
    snprintf(p, sizeof p, "%s.%s", path, stmt_kinds[kind]);
    switch (kind) {
    case 0: return parse_ref_text(ld, kind_item, p, idx, CLS_ACC_READ);
    case 1: return parse_ref_text(ld, kind_item, p, idx, CLS_ACC_WRITE);
    case 2: return parse_ref_text(ld, kind_item, p, idx, CLS_ACC_FETCH);
    case 3: return parse_ref_text(ld, kind_item, p, idx, CLS_ACC_LOCAL_READ);
    case 4: return parse_ref_text(ld, kind_item, p, idx, CLS_ACC_LOCAL_WRITE);
    case 5: {
        const cJSON *then = cJSON_GetObjectItemCaseSensitive(obj, "then");
        const cJSON *els = cJSON_GetObjectItemCaseSensitive(obj, "else");
        size_t first = 0, n = 0, efirst = 0, en = 0, nc = 0;
        cls_acc_cond conds[CLS_ACC_MAX_CONDS];
        if (cJSON_GetObjectItemCaseSensitive(obj, "count") ||
            cJSON_GetObjectItemCaseSensitive(obj, "body"))
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: an if statement has then and else, not "
                              "count or body",
                              path);
        if (!cJSON_IsString(kind_item))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: a condition string is expected", p);
        if (cls_acc_parse_cond(kind_item->valuestring, &ld->scope, conds, &nc) != 0)
            return cls__error_prefix(CLS_ERR_INVALID_SPEC, "%s: ", p);
        if (!then) return cls__error(CLS_ERR_INVALID_SPEC, "%s.then: missing", path);
        snprintf(p, sizeof p, "%s.then", path);
        st = parse_list(ld, then, p, nest + 1, &first, &n);
        if (st != CLS_SUCCESS) return st;
        if (els) {
            snprintf(p, sizeof p, "%s.else", path);
            st = parse_list(ld, els, p, nest + 1, &efirst, &en);
            if (st != CLS_SUCCESS) return st;
        }
        {
            cls_acc_stmt *s = &a->stmts[idx]; /* after parse_list: the array may have moved */
            s->kind = CLS_ACC_IF;
            s->array = s->buffer = -1;
            memcpy(s->cond, conds, sizeof conds);
            s->n_cond = nc;
            s->first = first;
            s->n = n;
            s->else_first = efirst;
            s->else_n = en;
        }
        return CLS_SUCCESS;
    }
    default: {
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(obj, "count");
        const cJSON *body = cJSON_GetObjectItemCaseSensitive(obj, "body");
        const char *var;
        int64_t c;
        size_t first = 0, n = 0;
        int depth = ld->scope.n_loops;
        if (cJSON_GetObjectItemCaseSensitive(obj, "then") ||
            cJSON_GetObjectItemCaseSensitive(obj, "else"))
            return cls__error(CLS_ERR_INVALID_SPEC,
                              "%s: a loop has count and body, not then or "
                              "else",
                              path);
        if (!cJSON_IsString(kind_item) || !cls_acc_is_name(kind_item->valuestring) ||
            cls_acc_is_builtin(kind_item->valuestring))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: the loop variable's name is expected", p);
        var = kind_item->valuestring;
        for (size_t i = 0; i < ld->n_params; i++)
            if (strcmp(var, ld->params[i].name) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: '%s' is a param", p, var);
        for (size_t i = 0; i < ld->n_lets; i++)
            if (strcmp(var, ld->lets[i].name) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC, "%s: '%s' is a let entry", p, var);
        for (int d = 0; d < depth; d++)
            if (strcmp(var, ld->scope.loops[d]) == 0)
                return cls__error(CLS_ERR_INVALID_SPEC,
                                  "%s: '%s' is the variable of an enclosing "
                                  "loop",
                                  p, var);
        if (depth >= CLS_ACC_MAX_LOOP_DEPTH)
            return cls__error(
                CLS_ERR_INVALID_SPEC,
                "%s: loops nested %d deep; the emulation follows at most %d (the work "
                "grows with every level: describe the inner loops by one iteration)",
                path, depth + 1, CLS_ACC_MAX_LOOP_DEPTH);
        snprintf(p, sizeof p, "%s.count", path);
        if (!count) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing", p);
        st = bounded(ld, count, p, 1, CLS_ACC_MAX_LOOP_COUNT, &c);
        if (st != CLS_SUCCESS) return st;
        snprintf(p, sizeof p, "%s.body", path);
        if (!body) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing", p);
        ld->scope.loops[depth] = var;
        ld->scope.n_loops = depth + 1;
        st = parse_list(ld, body, p, nest + 1, &first, &n);
        ld->scope.n_loops = depth;
        ld->scope.loops[depth] = NULL;
        if (st != CLS_SUCCESS) return st;
        {
            cls_acc_stmt *s = &a->stmts[idx];
            s->kind = CLS_ACC_LOOP;
            s->array = s->buffer = -1;
            s->depth = depth;
            s->count = c;
            s->first = first;
            s->n = n;
        }
        return CLS_SUCCESS;
    }
    }
}

static cls_status parse_list(loader *ld, const cJSON *arr, const char *path, int nest,
                             size_t *first, size_t *n)
{
    const cJSON *it;
    size_t i = 0;
    cls_status st;
    if (!cJSON_IsArray(arr))
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: an array of statements is expected", path);
    if (nest > CLS_ACC_MAX_NEST)
        return cls__error(CLS_ERR_INVALID_SPEC,
                          "%s: if and loop statements nested more than %d "
                          "deep",
                          path, CLS_ACC_MAX_NEST);
    *n = (size_t)cJSON_GetArraySize(arr);
    st = reserve(ld, *n, first, path);
    if (st != CLS_SUCCESS) return st;
    cJSON_ArrayForEach(it, arr)
    {
        char p[CLS_ACC_PATH_MAX];
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        st = parse_stmt(ld, it, p, *first + i, nest);
        if (st != CLS_SUCCESS) return st;
        i++;
    }
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ one variant */

static cls_status load_variant(loader *ld, const cJSON *kernel, const cJSON *variant,
                               const char *vpath, const char *const *ov, size_t n_ov,
                               cls_access *a)
{
    char path[CLS_ACC_PATH_MAX];
    const cJSON *v;
    int64_t x;
    cls_status st;
    unsigned dims[3];

    ld->a = a;
    ld->cap = 0;
    ld->n_params = ld->n_lets = 0;
    snprintf(a->path, sizeof a->path, "%s", vpath);
    st = add_entries(ld, cJSON_GetObjectItemCaseSensitive(kernel, "params"), "$.kernel.params", 0);
    if (st == CLS_SUCCESS && variant) {
        snprintf(path, sizeof path, "%s.params", vpath);
        st = add_entries(ld, cJSON_GetObjectItemCaseSensitive(variant, "params"), path, 0);
    }
    if (st == CLS_SUCCESS) st = add_overrides(ld, ov, n_ov);
    if (st == CLS_SUCCESS)
        st = add_entries(ld, cJSON_GetObjectItemCaseSensitive(kernel, "let"), "$.kernel.let", 1);
    if (st == CLS_SUCCESS && variant) {
        snprintf(path, sizeof path, "%s.let", vpath);
        st = add_entries(ld, cJSON_GetObjectItemCaseSensitive(variant, "let"), path, 1);
    }
    if (st == CLS_SUCCESS) st = build_scope(ld);
    if (st != CLS_SUCCESS) return st;

    v = field(kernel, variant, vpath, "block", path, sizeof path);
    if (!v) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing (the work-group size)", path);
    st = dims_of(ld, v, path, dims, CLS_ACC_MAX_THREADS);
    if (st != CLS_SUCCESS) return st;
    memcpy(a->block, dims, sizeof dims);
    memcpy(ld->scope.block, dims, sizeof dims);
    v = field(kernel, variant, vpath, "grid", path, sizeof path);
    if (!v)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing (work-groups per dimension)", path);
    st = dims_of(ld, v, path, dims, CLS_ACC_MAX_GRID);
    if (st != CLS_SUCCESS) return st;
    memcpy(a->grid, dims, sizeof dims);
    memcpy(ld->scope.grid, dims, sizeof dims);

    v = field(kernel, variant, vpath, "block_order", path, sizeof path);
    if (v) {
        if (!cJSON_IsString(v) ||
            (strcmp(v->valuestring, "row") != 0 && strcmp(v->valuestring, "diagonal") != 0))
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: \"row\" or \"diagonal\" is expected",
                              path);
        a->diagonal = strcmp(v->valuestring, "diagonal") == 0;
    }
    v = field(kernel, variant, vpath, "registers", path, sizeof path);
    if (v) {
        st = bounded(ld, v, path, 0, 65536, &x);
        if (st != CLS_SUCCESS) return st;
        a->registers = (unsigned)x;
    }
    v = field(kernel, variant, vpath, "arrays", path, sizeof path);
    if (!v) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing (the global arrays)", path);
    st = spaces_of(ld, v, path, a->arrays, &a->n_arrays, CLS_ACC_MAX_ARRAYS);
    if (st != CLS_SUCCESS) return st;
    v = field(kernel, variant, vpath, "buffers", path, sizeof path);
    st = spaces_of(ld, v, path, a->buffers, &a->n_buffers, CLS_ACC_MAX_BUFFERS);
    if (st != CLS_SUCCESS) return st;
    v = field(kernel, variant, vpath, "body", path, sizeof path);
    if (!v) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing (the statements)", path);
    st = parse_list(ld, v, path, 0, &a->body_first, &a->body_n);
    if (st != CLS_SUCCESS) return st;
    return cls_access_check(a);
}

static void copy_text(char *dst, size_t len, const cJSON *v)
{
    snprintf(dst, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static cls_status printable(loader *ld, const cJSON *v, const char *path, int required)
{
    if (!v) {
        if (required) return cls__error(CLS_ERR_INVALID_SPEC, "%s: missing", path);
        return CLS_SUCCESS;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= CLS_ACC_NAME_MAX)
        return cls__error(CLS_ERR_INVALID_SPEC, "%s: a name of 1 to %d characters is expected",
                          path, CLS_ACC_NAME_MAX - 1);
    for (const char *c = v->valuestring; *c; c++)
        if ((unsigned char)*c <= ' ' || *c == 127)
            return cls__error(CLS_ERR_INVALID_SPEC, "%s: no blanks or control characters in a name",
                              path);
    return CLS_SUCCESS;
}

cls_status cls_access_set_from_json(const char *json, const char *const *overrides,
                                    size_t n_overrides, cls_access_set **out)
{
    static const char *const root_keys[] = {"name", "description", "source", "kernel",
                                            "variants", "note"};
    static const char *const variant_keys[] = {
        "name",   "description", "params", "let",  "block", "grid", "block_order",
        "registers", "arrays",   "buffers", "body", "note"};
    loader *ld;
    cJSON *root;
    const cJSON *kernel, *variants, *it;
    const char *end = NULL;
    cls_access_set *set = NULL;
    cls_status st;
    size_t n;

    if (out) *out = NULL;
    if (!json || !out)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_access_set_from_json: NULL argument");
    long nul = cls__json_find_nul_escape(json);
    if (nul >= 0) {
        int line, col;
        cls__json_position(json, (size_t)nul, &line, &col);
        return cls__error(CLS_ERR_INVALID_JSON,
                          "line %d, column %d: a string holds \\u0000 (NUL), which would cut it "
                          "short",
                          line, col);
    }
    root = cJSON_ParseWithOpts(json, &end, 1);
    if (!root) {
        int line, col;
        position(json, end ? end : json, &line, &col);
        return cls__error(CLS_ERR_INVALID_JSON, "line %d, column %d: malformed JSON", line, col);
    }
    ld = calloc(1, sizeof *ld);
    set = calloc(1, sizeof *set);
    if (!ld || !set) {
        free(ld);
        free(set);
        cJSON_Delete(root);
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "out of memory");
    }
    {
        char dup[512];
        int d = cls__json_find_duplicate(root, dup, sizeof dup);
        if (d != 0) {
            st = d < 0 ? cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "out of memory")
                       : cls__error(CLS_ERR_INVALID_SPEC,
                                    "%s: given twice (cJSON would keep the first silently)", dup);
            goto done;
        }
    }
    if (!cJSON_IsObject(root)) {
        st = cls__error(CLS_ERR_INVALID_SPEC, "$: an object {name, kernel, variants} is expected");
        goto done;
    }
    st = check_keys(ld, root, "$", root_keys, sizeof root_keys / sizeof root_keys[0]);
    if (st != CLS_SUCCESS) goto done;
    st = printable(ld, cJSON_GetObjectItemCaseSensitive(root, "name"), "$.name", 1);
    if (st != CLS_SUCCESS) goto done;
    copy_text(set->name, sizeof set->name, cJSON_GetObjectItemCaseSensitive(root, "name"));
    copy_text(set->description, sizeof set->description,
              cJSON_GetObjectItemCaseSensitive(root, "description"));
    copy_text(set->source, sizeof set->source, cJSON_GetObjectItemCaseSensitive(root, "source"));
    kernel = cJSON_GetObjectItemCaseSensitive(root, "kernel");
    if (!cJSON_IsObject(kernel)) {
        st = cls__error(CLS_ERR_INVALID_SPEC, "$.kernel: %s",
                        kernel ? "an object is expected" : "missing");
        goto done;
    }
    st = check_keys(ld, kernel, "$.kernel", kernel_keys, N_KERNEL_KEYS);
    if (st != CLS_SUCCESS) goto done;
    variants = cJSON_GetObjectItemCaseSensitive(root, "variants");
    if (variants && (!cJSON_IsArray(variants) || cJSON_GetArraySize(variants) < 1 ||
                     cJSON_GetArraySize(variants) > CLS_ACC_MAX_VARIANTS)) {
        st =
            cls__error(CLS_ERR_INVALID_SPEC, "$.variants: an array of 1 to %d variants is expected",
                       CLS_ACC_MAX_VARIANTS);
        goto done;
    }
    n = variants ? (size_t)cJSON_GetArraySize(variants) : 1;
    set->v = calloc(n, sizeof *set->v);
    if (!set->v) {
        st = cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "out of memory");
        goto done;
    }
    if (!variants) {
        set->n = 1;
        snprintf(set->v[0].name, sizeof set->v[0].name, "%s", set->name);
        copy_text(set->v[0].description, sizeof set->v[0].description,
                  cJSON_GetObjectItemCaseSensitive(kernel, "description"));
        st = load_variant(ld, kernel, NULL, "$.kernel", overrides, n_overrides, &set->v[0]);
        goto done;
    }
    n = 0;
    cJSON_ArrayForEach(it, variants)
    {
        char vpath[CLS_ACC_PATH_MAX], p[CLS_ACC_PATH_MAX + 8];
        cls_access *a = &set->v[n];
        snprintf(vpath, sizeof vpath, "$.variants[%zu]", n);
        set->n = ++n;
        if (!cJSON_IsObject(it)) {
            st = cls__error(CLS_ERR_INVALID_SPEC, "%s: an object is expected", vpath);
            goto done;
        }
        st = check_keys(ld, it, vpath, variant_keys, sizeof variant_keys / sizeof variant_keys[0]);
        if (st != CLS_SUCCESS) goto done;
        snprintf(p, sizeof p, "%s.name", vpath);
        st = printable(ld, cJSON_GetObjectItemCaseSensitive(it, "name"), p, 1);
        if (st != CLS_SUCCESS) goto done;
        copy_text(a->name, sizeof a->name, cJSON_GetObjectItemCaseSensitive(it, "name"));
        for (size_t j = 0; j + 1 < n; j++) {
            if (strcmp(set->v[j].name, a->name) == 0) {
                st =
                    cls__error(CLS_ERR_INVALID_SPEC, "%s: variant '%s' is named twice", p, a->name);
                goto done;
            }
        }
        {
            const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "description");
            copy_text(a->description, sizeof a->description,
                      d ? d : cJSON_GetObjectItemCaseSensitive(kernel, "description"));
        }
        st = load_variant(ld, kernel, it, vpath, overrides, n_overrides, a);
        if (st != CLS_SUCCESS) goto done;
    }
done:
    cJSON_Delete(root);
    free(ld);
    if (st != CLS_SUCCESS) {
        cls_access_set_free(set);
        return st;
    }
    *out = set;
    return CLS_SUCCESS;
}
