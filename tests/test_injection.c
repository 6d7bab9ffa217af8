/* test_injection.c: user text never reaches generated OpenCL source: names are identifiers
 * (C API and JSON), bodies are parsed and re-emitted, descriptions are not written, and a
 * stencil whose description tries to close the header comment runs bitwise like the host
 * reference from a program that holds none of that text. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil.h"
#include "tap.h"

/* The plan options of this file's runs (one place, should the options API change). */
static cls_plan_options plan_options(void)
{
    cls_plan_options opt;
    cls_plan_options_init(&opt);
    opt.schedule = CLS_SCHEDULE_NAIVE;
    return opt;
}

/* Whether the last error holds no control character (a name is never echoed raw). */
static int error_is_clean(void)
{
    for (const unsigned char *p = (const unsigned char *)cls_last_error(); *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f) return 0;
    return 1;
}

static void refused_json(const char *json, const char *path, const char *what)
{
    cls_stencil *st = (cls_stencil *)1;
    cls_status s = cls_stencil_from_json(json, &st);
    tap_ok(s == CLS_ERR_INVALID_SPEC && st == NULL && strstr(cls_last_error(), path) &&
               error_is_clean(),
           "%s is refused, naming %s: %s", what, path, cls_last_error());
}

static void names(void)
{
    cls_stencil *st = NULL;
    static const char *const bad[] = {
        "x */\n#define IN(a) 0\n/*", "a/*b", "hot spot", "", "9lives", "name-with-dash",
        "esc\033[31mred", "caf\xc3\xa9", "tab\tname",
        "a123456789012345678901234567890123456789012345678901234567890123"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st = (cls_stencil *)1;
        cls_status s = cls_stencil_create(bad[i], 1, CLS_FLOAT32, "IN(0)", &st);
        tap_ok(s == CLS_ERR_INVALID_SPEC && st == NULL && strstr(cls_last_error(), "name") &&
                   error_is_clean(),
               "cls_stencil_create refuses name %zu: %s", i, cls_last_error());
    }
    static const char *const good[] = {"heat2d", "_x9", "A",
                                       "a12345678901234567890123456789012345678901234567890"
                                       "123456789012"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cls_status s = cls_stencil_create(good[i], 1, CLS_FLOAT32, "IN(0)", &st);
        tap_ok(s == CLS_SUCCESS && !strcmp(cls_stencil_name(st), good[i]),
               "cls_stencil_create accepts '%s'", good[i]);
        cls_stencil_release(st);
    }
    tap_ok(cls_stencil_create(NULL, 1, CLS_FLOAT32, "IN(0)", &st) == CLS_SUCCESS &&
               !strcmp(cls_stencil_name(st), "custom"),
           "no name is 'custom'");
    cls_stencil_release(st);
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        tap_ok(cls_stencil_builtin(cls_stencil_builtin_name(i), &st) == CLS_SUCCESS,
               "built-in %s still loads", cls_stencil_builtin_name(i));
        cls_stencil_release(st);
    }

    refused_json("{\"name\": \"x */\\n#include \\\"/etc/passwd\\\"\\n/*\", \"dims\": 1, "
                 "\"body\": \"IN(0)\"}",
                 "$.name", "a name closing the comment and including a host file");
    refused_json("{\"name\": \"x\\u001b]0;owned\\u0007\", \"dims\": 1, \"body\": \"IN(0)\"}",
                 "$.name", "a name with terminal escapes");
    refused_json("{\"builtin\": \"hotspot\", \"name\": \"*/ #define real int /*\"}", "$.name",
                 "a name overriding a built-in's");
    refused_json("{\"name\": 7, \"dims\": 1, \"body\": \"IN(0)\"}", "$.name",
                 "a name that is not a string");
    refused_json("{\"dims\": 1, \"body\": \"IN(0)\", \"params\": {\"k */ #define\": 1}}",
                 "$.params", "a parameter name with a comment end");
    refused_json("{\"dims\": 1, \"body\": \"IN(0)\", \"params\": {\"k\\u001b[2J\": 1}}",
                 "$.params", "a parameter name with a terminal escape");
    refused_json("{\"dims\": 1, \"body\": \"IN(0)\", \"aux\": [\"f */\"]}", "$.aux[0]",
                 "an aux name with a comment end");
    refused_json("{\"dims\": 1, \"body\": \"IN(0) */\\n#include \\\"/etc/passwd\\\"\"}",
                 "body", "a body with a directive");
    refused_json("{\"dims\": 1, \"body\": \"#define X 1\\nreturn IN(0);\"}", "body",
                 "a body starting with a directive");
    refused_json("{\"dims\": 1, \"body\": \"IN(0)\", \"x\\u001b[31m\": 1}", "$",
                 "an unknown field with a terminal escape");

    /* The C API refuses the same parameter and aux names. */
    if (cls_stencil_create("t", 1, CLS_FLOAT32, "IN(0)", &st) == CLS_SUCCESS) {
        tap_ok(cls_stencil_set_param(st, "k */ #define", 1.0) == CLS_ERR_INVALID_SPEC &&
                   error_is_clean(),
               "cls_stencil_set_param refuses a name with a comment end");
        tap_ok(cls_stencil_add_aux(st, "a\nb", 0) == CLS_ERR_INVALID_SPEC && error_is_clean(),
               "cls_stencil_add_aux refuses a name with a line break: %s", cls_last_error());
        cls_stencil_release(st);
    }
}

/* The text of the newest program source CLSTENCIL_DUMP_DIR received (malloc'ed), or NULL. */
static char *dumped_source(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *text = NULL;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        free(text);
        text = n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (text) text[fread(text, 1, (size_t)n, f)] = 0;
        fclose(f);
    }
    if (d) closedir(d);
    return text;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

static void description_not_emitted(cls_context *ctx)
{
    static const char spec[] =
        "{\"name\": \"marker_name_q7\", \"description\": \"*/\\n#define IN(a) 0\\n/* "
        "marker_desc_q7\", \"dims\": 1, \"params\": {\"k\": 0.25}, "
        "\"body\": \"IN(0) + k * (IN(-1) - 2 * IN(0) + IN(1))\"}";
    char dir[] = "/tmp/cls-inject-XXXXXX";
    cls_stencil *st = NULL;
    cls_plan *plan = NULL;
    enum { N = 61, STEPS = 5 };
    float in[N], out[N], ref[N];
    if (!mkdtemp(dir)) {
        tap_ok(0, "mkdtemp");
        return;
    }
    setenv("CLSTENCIL_DUMP_DIR", dir, 1);
    /* A fresh build, so that the source is dumped. */
    setenv("CLSTENCIL_CACHE", "off", 1);
    for (int i = 0; i < N; i++) in[i] = (float)((i * 37) % 11) / 7.0f;
    cls_status s = cls_stencil_from_json(spec, &st);
    tap_ok(s == CLS_SUCCESS, "a description with a comment end and a directive is accepted");
    cls_plan_options opt = plan_options();
    if (s == CLS_SUCCESS) s = cls_plan_create(ctx, st, (cls_dims){{N, 1, 1}}, STEPS, &opt, &plan);
    if (s == CLS_SUCCESS) s = cls_plan_run(plan, in, NULL, out, NULL);
    cls_status r = st ? cls_reference_run(st, (cls_dims){{N, 1, 1}}, STEPS, in, NULL, ref)
                      : CLS_ERR_INVALID_ARGUMENT;
    tap_ok(s == CLS_SUCCESS && r == CLS_SUCCESS && !memcmp(out, ref, sizeof out),
           "it runs bitwise like the host reference: %s",
           s == CLS_SUCCESS ? "ok" : cls_last_error());
    char *src = dumped_source(dir);
    tap_ok(src && strstr(src, "cls_update") && !strstr(src, "marker_desc_q7") &&
               !strstr(src, "marker_name_q7") && !strstr(src, "#define IN(a) 0"),
           "the generated source holds neither the name nor the description");
    free(src);
    unsetenv("CLSTENCIL_DUMP_DIR");
    unsetenv("CLSTENCIL_CACHE");
    remove_dir(dir);
    cls_plan_release(plan);
    cls_stencil_release(st);
}

int main(void)
{
    names();
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("generated source", "no OpenCL device");
        return tap_done();
    }
    description_not_emitted(ctx);
    cls_context_release(ctx);
    return tap_done();
}
