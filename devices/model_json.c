/* model_json.c: model JSON in and out: every field checked, bad ones named by their JSON path. */
#include <cjson/cJSON.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "json_strict.h"

#define SCHEMA_VERSION 1

/* State of one parse: the label of its messages, whether the family's defaults go under the
 * file's values (bare: not), and what the file has said so far. */
typedef struct parse {
    const char *label;
    int bare;
    cls_model *m;
    unsigned char present[CLS__NFIELDS];
} parse;

/* Records "<label>: <path>: <message>" as the last error (model/error.h) and returns st. */
static cls_status path_error(parse *ps, cls_status st, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cls_status path_error(parse *ps, cls_status st, const char *path, const char *fmt, ...)
{
    char prefix[512];
    va_list ap;
    snprintf(prefix, sizeof prefix, "%s: %s: ", ps->label, path);
    va_start(ap, fmt);
    cls__verror(st, prefix, fmt, ap);
    va_end(ap);
    return st;
}

/* Puts "<label>: <path>" in front of the last error (a check's "must be ...") and returns st. */
static cls_status path_prefix(parse *ps, cls_status st, const char *path)
{
    return cls__error_prefix(st, "%s: %s: ", ps->label, path);
}

/* How a JSON value reads in a message: 'got -3', 'got "abc"', 'got an object'. */
static void describe(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsNumber(v)) {
        cls__fmt_num(buf, len, v->valuedouble);
    } else if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        size_t n = strlen(s);
        snprintf(buf, len, "\"%.*s%s\"", n > 40 ? 40 : (int)n, s, n > 40 ? "..." : "");
        for (char *c = buf; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    } else if (cJSON_IsBool(v)) {
        snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNull(v)) {
        snprintf(buf, len, "null");
    } else if (cJSON_IsArray(v)) {
        snprintf(buf, len, "an array");
    } else {
        snprintf(buf, len, "an object");
    }
}

/* A member name as it may appear in a path: printable, at most 64 bytes. */
static void keytext(const char *k, char *buf, size_t len)
{
    snprintf(buf, len, "%.64s", k ? k : "");
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
}

/* Whether a member of obj before v has v's name.  Duplicates are errors: cJSON keeps both and
 * one would be ignored silently.  Callers check a member's name is known first, so the walk
 * only meets the few known names. */
static int repeated(const cJSON *obj, const cJSON *v)
{
    for (const cJSON *b = obj->child; b && b != v; b = b->next)
        if (strcmp(b->string, v->string) == 0) return 1;
    return 0;
}

static cls_status get_text(parse *ps, const cJSON *v, const char *path, size_t maxlen,
                           char **dst)
{
    char got[96];
    if (!cJSON_IsString(v)) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, path, "must be a string, got %s", got);
    }
    if (cls__text_check(v->valuestring, maxlen) != CLS_SUCCESS)
        return path_prefix(ps, CLS_ERR_INVALID_MODEL, path);
    if (cls__set_text(dst, v->valuestring) != 0)
        return path_error(ps, CLS_ERR_OUT_OF_HOST_MEMORY, path, "out of memory");
    return CLS_SUCCESS;
}

static cls_status get_scalar(parse *ps, int f, const cJSON *v, const char *path)
{
    char got[96];
    if (!cJSON_IsNumber(v)) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, path, "must be %s, got %s",
                          cls__field_kind_text(f), got);
    }
    if (cls__field_check(f, v->valuedouble) != CLS_SUCCESS)
        return path_prefix(ps, CLS_ERR_INVALID_MODEL, path);
    cls__field_put(&ps->m->p, f, v->valuedouble);
    ps->present[f] = 1;
    ps->m->assumed[f] = 0;
    return CLS_SUCCESS;
}

/* A table: [{"bytes": 10, "ns": 3184.2771, "spread_ns": 12.5}, ...]. */
static cls_status get_table(parse *ps, int t, const cJSON *v, const char *path)
{
    cls_model_point pts[CLS__TABLE_MAX];
    char got[96], sub[320];
    size_t n = 0;
    if (!cJSON_IsArray(v)) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, path,
                          "must be an array of {\"bytes\", \"ns\"} entries, got %s", got);
    }
    for (const cJSON *e = v->child; e; e = e->next, n++) {
        int have_bytes = 0, have_ns = 0;
        if (n == CLS__TABLE_MAX)
            return path_error(ps, CLS_ERR_INVALID_MODEL, path, "must have at most %d entries",
                              CLS__TABLE_MAX);
        snprintf(sub, sizeof sub, "%s[%zu]", path, n);
        if (!cJSON_IsObject(e)) {
            describe(e, got, sizeof got);
            return path_error(ps, CLS_ERR_INVALID_MODEL, sub,
                              "must be an object {\"bytes\", \"ns\"}, got %s", got);
        }
        pts[n] = (cls_model_point){0, 0, 0};
        for (const cJSON *c = e->child; c; c = c->next) {
            char k[80], cp[420];
            double *dst;
            keytext(c->string, k, sizeof k);
            snprintf(cp, sizeof cp, "%s.%s", sub, k);
            if (strcmp(c->string, "bytes") == 0) {
                dst = &pts[n].bytes;
                have_bytes = 1;
            } else if (strcmp(c->string, "ns") == 0) {
                dst = &pts[n].ns;
                have_ns = 1;
            } else if (strcmp(c->string, "spread_ns") == 0) {
                dst = &pts[n].spread_ns;
            } else {
                return path_error(ps, CLS_ERR_INVALID_MODEL, cp,
                                  "unknown field (expected bytes, ns, spread_ns)");
            }
            if (repeated(e, c)) return path_error(ps, CLS_ERR_INVALID_MODEL, cp, "duplicate field");
            if (!cJSON_IsNumber(c)) {
                describe(c, got, sizeof got);
                return path_error(ps, CLS_ERR_INVALID_MODEL, cp, "must be a number, got %s", got);
            }
            *dst = c->valuedouble;
        }
        if (!have_bytes || !have_ns) {
            snprintf(sub + strlen(sub), sizeof sub - strlen(sub), ".%s",
                     have_bytes ? "ns" : "bytes");
            return path_error(ps, CLS_ERR_INVALID_MODEL, sub, "required field is missing");
        }
    }
    if (cls__table_check(pts, n) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_MODEL, "%s: %s", ps->label, path);
    if (cls__table_copy(&ps->m->p.tables[t], pts, n) != 0)
        return path_error(ps, CLS_ERR_OUT_OF_HOST_MEMORY, path, "out of memory");
    return CLS_SUCCESS;
}

/* Fields a former schema had, and what replaced them: a file written then is refused with the
 * way forward instead of only "unknown field". */
static const char *retired(const char *section, const char *key)
{
    static const char *const list[][3] = {
        {"tuning", "cputile_op_cycles",
         "retired: the CPU row kernel's costs (compute.row_point_cycles, row_read_cycles, "
         "row_flop_cycles, ...) price cputile now; drop it, or run `clstencil probe` again"},
    };
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (strcmp(list[i][0], section) == 0 && strcmp(list[i][1], key) == 0) return list[i][2];
    return NULL;
}

static cls_status get_section(parse *ps, const cJSON *sec)
{
    char path[160], got[96], k[80];
    cls_status st;
    snprintf(path, sizeof path, "$.%s", sec->string);
    if (!cJSON_IsObject(sec)) {
        describe(sec, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, path, "must be an object, got %s", got);
    }
    for (const cJSON *v = sec->child; v; v = v->next) {
        char full[256];
        int f = cls__field_find2(sec->string, v->string);
        int t = f < 0 ? cls__table_find2(sec->string, v->string) : -1;
        keytext(v->string, k, sizeof k);
        snprintf(full, sizeof full, "%s.%s", path, k);
        const char *gone = f < 0 && t < 0 ? retired(sec->string, v->string) : NULL;
        if (gone) st = path_error(ps, CLS_ERR_INVALID_MODEL, full, "%s", gone);
        else if (f < 0 && t < 0) st = path_error(ps, CLS_ERR_INVALID_MODEL, full, "unknown field");
        else if (repeated(sec, v))
            st = path_error(ps, CLS_ERR_INVALID_MODEL, full, "duplicate field");
        else if (f >= 0)
            st = get_scalar(ps, f, v, full);
        else
            st = get_table(ps, t, v, full);
        if (st != CLS_SUCCESS) return st;
    }
    return CLS_SUCCESS;
}

static cls_status get_strings(parse *ps, const cJSON *v, const char *path, size_t maxlen,
                              size_t max_entries, char ***out, size_t *count)
{
    char got[96], sub[160];
    size_t n = 0;
    cls_status st;
    if (!cJSON_IsArray(v)) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, path, "must be an array of strings, got %s",
                          got);
    }
    n = (size_t)cJSON_GetArraySize(v);
    if (n > max_entries)
        return path_error(ps, CLS_ERR_INVALID_MODEL, path, "must have at most %zu entries, got %zu",
                          max_entries, n);
    if (n == 0) return CLS_SUCCESS;
    *out = calloc(n, sizeof **out);
    if (!*out) return path_error(ps, CLS_ERR_OUT_OF_HOST_MEMORY, path, "out of memory");
    *count = n;
    n = 0;
    for (const cJSON *e = v->child; e; e = e->next, n++) {
        snprintf(sub, sizeof sub, "%s[%zu]", path, n);
        if ((st = get_text(ps, e, sub, maxlen, &(*out)[n])) != CLS_SUCCESS) return st;
    }
    return CLS_SUCCESS;
}

static cls_status get_match(parse *ps, const cJSON *v)
{
    cls_status st = get_strings(ps, v, "$.match", CLS__MODEL_NAME_MAX - 1, CLS__MODEL_MAX_MATCH,
                                &ps->m->match, &ps->m->n_match);
    if (st != CLS_SUCCESS) return st;
    for (size_t i = 0; i < ps->m->n_match; i++) {
        if (strcmp(ps->m->match[i], "^") == 0) {
            char sub[64];
            snprintf(sub, sizeof sub, "$.match[%zu]", i);
            return path_error(ps, CLS_ERR_INVALID_MODEL, sub, "must name some text after \"^\"");
        }
    }
    return CLS_SUCCESS;
}

static cls_status get_assumed(parse *ps, const cJSON *v)
{
    char **paths = NULL;
    size_t n = 0;
    /* every scalar field at most once: as many entries as there are fields */
    cls_status st = get_strings(ps, v, "$.assumed", CLS__MODEL_NAME_MAX - 1, CLS__NFIELDS, &paths,
                                &n);
    for (size_t i = 0; i < n && st == CLS_SUCCESS; i++) {
        int f = paths[i] ? cls__field_find(paths[i]) : -1;
        if (f < 0) {
            char sub[64], k[80];
            keytext(paths[i], k, sizeof k);
            snprintf(sub, sizeof sub, "$.assumed[%zu]", i);
            st = path_error(ps, CLS_ERR_INVALID_MODEL, sub,
                            "unknown parameter path \"%s\" (write it as \"$.section.key\")", k);
        }
    }
    /* Marked after the sections are read (parse_root), so order in the file does not matter. */
    for (size_t i = 0; i < n && st == CLS_SUCCESS; i++) ps->present[cls__field_find(paths[i])] |= 2;
    cls__strv_free(paths, n);
    return st;
}

static cls_status get_device(parse *ps, const cJSON *v)
{
    char got[96], k[80], full[160];
    cls_status st;
    if (!cJSON_IsObject(v)) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$.device", "must be an object, got %s", got);
    }
    for (const cJSON *e = v->child; e; e = e->next) {
        char **dst = NULL;
        keytext(e->string, k, sizeof k);
        snprintf(full, sizeof full, "$.device.%s", k);
        if (strcmp(e->string, "name") == 0) dst = &ps->m->device.name;
        else if (strcmp(e->string, "vendor") == 0) dst = &ps->m->device.vendor;
        else if (strcmp(e->string, "driver_version") == 0) dst = &ps->m->device.driver_version;
        else if (strcmp(e->string, "platform") == 0) dst = &ps->m->device.platform;
        else return path_error(ps, CLS_ERR_INVALID_MODEL, full, "unknown field");
        if (repeated(v, e)) return path_error(ps, CLS_ERR_INVALID_MODEL, full, "duplicate field");
        if ((st = get_text(ps, e, full, CLS__MODEL_TEXT_MAX - 1, dst)) != CLS_SUCCESS) return st;
    }
    return CLS_SUCCESS;
}

/* The family comes first: its defaults are the base the file's values are laid over. */
static cls_status get_family(parse *ps, const cJSON *root)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "family");
    const cls_model_rules *rules;
    char got[96], known[128] = "";
    cls_status st;
    if (!v) return path_error(ps, CLS_ERR_INVALID_MODEL, "$.family", "required field is missing");
    if (!cJSON_IsString(v)) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$.family", "must be a string, got %s", got);
    }
    rules = cls__family_find(v->valuestring);
    if (!rules) {
        for (size_t i = 0; cls__family_at(i); i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                     cls__family_at(i)->family);
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$.family", "unknown family %s (known: %s)",
                          got, known);
    }
    if (ps->bare) {
        ps->m = calloc(1, sizeof *ps->m);
        if (!ps->m) return path_error(ps, CLS_ERR_OUT_OF_HOST_MEMORY, "$", "out of memory");
        ps->m->rules = rules;
        return CLS_SUCCESS;
    }
    st = cls__model_new(rules, &ps->m);
    if (st == CLS_ERR_OUT_OF_HOST_MEMORY)
        return path_error(ps, CLS_ERR_OUT_OF_HOST_MEMORY, "$", "out of memory");
    return st == CLS_SUCCESS ? st : path_prefix(ps, st, "$.family");
}

static cls_status get_version(parse *ps, const cJSON *v)
{
    char got[96];
    if (!cJSON_IsNumber(v) || v->valuedouble != SCHEMA_VERSION) {
        describe(v, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$.schema_version",
                          "must be %d (the only version this library reads), got %s",
                          SCHEMA_VERSION, got);
    }
    return CLS_SUCCESS;
}

static cls_status parse_root(parse *ps, const cJSON *root)
{
    char got[96], k[80], full[160];
    int have_version = 0, have_name = 0;
    cls_status st;

    if (!cJSON_IsObject(root)) {
        describe(root, got, sizeof got);
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$", "must be an object, got %s", got);
    }
    /* Unknown and repeated top-level fields are reported before anything else is judged. */
    for (const cJSON *v = root->child; v; v = v->next) {
        static const char *const top[] = {"schema_version", "name", "family", "description",
                                          "source", "match", "assumed", "device"};
        int known = cls__section_known(v->string);
        for (size_t i = 0; !known && i < sizeof top / sizeof top[0]; i++)
            known = strcmp(top[i], v->string) == 0;
        keytext(v->string, k, sizeof k);
        snprintf(full, sizeof full, "$.%s", k);
        if (!known) return path_error(ps, CLS_ERR_INVALID_MODEL, full, "unknown field");
        if (repeated(root, v))
            return path_error(ps, CLS_ERR_INVALID_MODEL, full, "duplicate field");
    }
    if ((st = get_family(ps, root)) != CLS_SUCCESS) return st;
    for (const cJSON *v = root->child; v; v = v->next) {
        const char *key = v->string;
        if (strcmp(key, "schema_version") == 0) {
            have_version = 1;
            st = get_version(ps, v);
        } else if (strcmp(key, "name") == 0) {
            have_name = 1;
            st = get_text(ps, v, "$.name", CLS__MODEL_NAME_MAX - 1, &ps->m->name);
        } else if (strcmp(key, "description") == 0) {
            st = get_text(ps, v, "$.description", CLS__MODEL_TEXT_MAX - 1, &ps->m->description);
        } else if (strcmp(key, "source") == 0) {
            st = get_text(ps, v, "$.source", CLS__MODEL_TEXT_MAX - 1, &ps->m->source);
        } else if (strcmp(key, "match") == 0) {
            st = get_match(ps, v);
        } else if (strcmp(key, "assumed") == 0) {
            st = get_assumed(ps, v);
        } else if (strcmp(key, "device") == 0) {
            st = get_device(ps, v);
        } else if (strcmp(key, "family") != 0) {
            st = get_section(ps, v);
        }
        if (st != CLS_SUCCESS) return st;
    }
    if (!have_version)
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$.schema_version",
                          "required field is missing");
    if (!have_name)
        return path_error(ps, CLS_ERR_INVALID_MODEL, "$.name", "required field is missing");
    for (int f = 0; f < CLS__NFIELDS; f++) {
        if ((cls__fields[f].flags & CLS__REQ) && !(ps->present[f] & 1)) {
            snprintf(full, sizeof full, "$.%s", cls__fields[f].path);
            return path_error(ps, CLS_ERR_INVALID_MODEL, full, "required field is missing");
        }
        if (ps->present[f] & 2) ps->m->assumed[f] = 1;
    }
    /* A bare model holds only the file's values: relations need the rest. */
    if (ps->bare) return CLS_SUCCESS;
    cls__model_settle(ps->m);
    if (cls__params_check(&ps->m->p) != CLS_SUCCESS)
        return cls__error_prefix(CLS_ERR_INVALID_MODEL, "%s: $.", ps->label);
    return CLS_SUCCESS;
}

/* Line and column (1-based) of a position in the text. */
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

static cls_status parse_text(const char *text, const char *label, int bare, cls_model **out,
                             unsigned char *given)
{
    parse ps = {.label = label ? label : "JSON text", .bare = bare};
    const char *end = NULL;
    cJSON *root;
    cls_status st;

    *out = NULL;
    long nul = cls__json_find_nul_escape(text);
    if (nul >= 0) {
        int line, col;
        cls__json_position(text, (size_t)nul, &line, &col);
        return cls__error(CLS_ERR_INVALID_JSON,
                          "%s: line %d, column %d: a string holds \\u0000 (NUL), which would cut "
                          "it short",
                          ps.label, line, col);
    }
    root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        int line, col;
        position(text, end ? end : text, &line, &col);
        return cls__error(CLS_ERR_INVALID_JSON, "%s: line %d, column %d: malformed JSON", ps.label,
                          line, col);
    }
    st = parse_root(&ps, root);
    cJSON_Delete(root);
    if (st != CLS_SUCCESS) {
        cls_model_release(ps.m);
        return st;
    }
    if (given)
        for (int f = 0; f < CLS__NFIELDS; f++) given[f] = ps.present[f] & 1;
    *out = ps.m;
    return CLS_SUCCESS;
}

cls_status cls__model_parse(const char *text, const char *label, cls_model **out)
{
    return parse_text(text, label, 0, out, NULL);
}

cls_status cls__model_parse_given(const char *text, const char *label, cls_model **out,
                                  unsigned char given[CLS__NFIELDS])
{
    return parse_text(text, label, 1, out, given);
}

/* ---------------------------------------------------------------- writing */

static int add_text(cJSON *obj, const char *key, const char *s)
{
    return !s || cJSON_AddStringToObject(obj, key, s) ? 0 : -1;
}

/* A number as the shortest text that reads back as the same double.  cJSON prints 15
 * significant digits whenever they come within DBL_EPSILON of the value (its compare_double),
 * so about one measured value in five came back from a saved file an ulp or two off, and a
 * cached probe result was not the result that was saved. */
static int add_number(cJSON *obj, const char *key, double v)
{
    char buf[64], *p;
    const char *dp = localeconv()->decimal_point;
    if (!isfinite(v)) return cJSON_AddNumberToObject(obj, key, v) ? 0 : -1;
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    /* JSON's decimal point, whatever LC_NUMERIC the application chose. */
    if (dp && dp[0] && dp[0] != '.' && !dp[1] && (p = strchr(buf, dp[0]))) *p = '.';
    return cJSON_AddRawToObject(obj, key, buf) ? 0 : -1;
}

static cJSON *section_of(cJSON *root, const char *name)
{
    cJSON *sec = cJSON_GetObjectItemCaseSensitive(root, name);
    return sec ? sec : cJSON_AddObjectToObject(root, name);
}

static cJSON *build(const cls_model *m)
{
    cJSON *root = cJSON_CreateObject(), *arr, *dev;
    int bad = !root;
    size_t n_assumed = 0;

    if (bad) return NULL;
    bad |= !cJSON_AddNumberToObject(root, "schema_version", SCHEMA_VERSION);
    bad |= add_text(root, "name", m->name ? m->name : m->rules->family);
    bad |= add_text(root, "family", m->rules->family);
    bad |= add_text(root, "description", m->description);
    bad |= add_text(root, "source", m->source);
    if (m->n_match > 0) {
        bad |= !(arr = cJSON_AddArrayToObject(root, "match"));
        for (size_t i = 0; !bad && i < m->n_match; i++)
            bad |= !cJSON_AddItemToArray(arr, cJSON_CreateString(m->match[i]));
    }
    if (m->device.name) {
        bad |= !(dev = cJSON_AddObjectToObject(root, "device"));
        if (!bad) {
            bad |= add_text(dev, "name", m->device.name);
            bad |= add_text(dev, "vendor", m->device.vendor);
            bad |= add_text(dev, "driver_version", m->device.driver_version);
            bad |= add_text(dev, "platform", m->device.platform);
        }
    }
    for (int f = 0; !bad && f < CLS__NFIELDS; f++) {
        double v = cls__field_get(&m->p, f);
        cJSON *sec;
        if ((cls__fields[f].flags & CLS__UNK) && v == 0) continue;
        bad |= !(sec = section_of(root, cls__fields[f].section));
        if (!bad) bad |= add_number(sec, cls__fields[f].key, v);
        n_assumed += m->assumed[f];
    }
    for (int t = 0; !bad && t < CLS_TABLE_COUNT; t++) {
        const cls__table *tb = &m->p.tables[t];
        cJSON *sec;
        if (tb->n == 0) continue;
        bad |= !(sec = section_of(root, cls__tables[t].section));
        if (!bad) bad |= !(arr = cJSON_AddArrayToObject(sec, cls__tables[t].key));
        for (size_t i = 0; !bad && i < tb->n; i++) {
            cJSON *e = cJSON_CreateObject();
            bad |= !e || !cJSON_AddItemToArray(arr, e);
            if (bad) break;
            bad |= add_number(e, "bytes", tb->pts[i].bytes);
            bad |= add_number(e, "ns", tb->pts[i].ns);
            if (tb->pts[i].spread_ns > 0)
                bad |= add_number(e, "spread_ns", tb->pts[i].spread_ns);
        }
    }
    if (!bad && n_assumed > 0) {
        bad |= !(arr = cJSON_AddArrayToObject(root, "assumed"));
        for (int f = 0; !bad && f < CLS__NFIELDS; f++) {
            char path[128];
            if (!m->assumed[f]) continue;
            snprintf(path, sizeof path, "$.%s", cls__fields[f].path);
            bad |= !cJSON_AddItemToArray(arr, cJSON_CreateString(path));
        }
    }
    if (bad) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

char *cls__model_print(const cls_model *m)
{
    cJSON *root = build(m);
    char *text, *copy = NULL;
    if (!root) return NULL;
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) return NULL;
    /* Handed out through cls_free, so copied out of cJSON's allocator. */
    copy = malloc(strlen(text) + 2);
    if (copy) {
        strcpy(copy, text);
        strcat(copy, "\n");
    }
    cJSON_free(text);
    return copy;
}
