/* test_family_defaults.c: each family's defaults come from one place: the family's code or its
 * reference model files, built into the library as shipped; no file repeats a default. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "devices.h"
#include "tap.h"

static const char *srcdir(void)
{
    const char *s = getenv("CLS_SRCDIR");
    return s && s[0] ? s : CLS_SRCDIR;
}

static int is_reference(const cls_model_rules *rules, const char *file)
{
    for (const char *const *r = rules->reference; r && *r; r++)
        if (strcmp(*r, file) == 0) return 1;
    return 0;
}

/* ------------------------------------------------------------------ built-in files */

/* Every shipped model file is built in, byte for byte as devices/ holds it. */
static void test_builtin(void)
{
    char dir[4096];
    size_t nfiles = 0, nbuiltin = 0;
    DIR *d;
    struct dirent *e;
    snprintf(dir, sizeof dir, "%s/devices", srcdir());
    d = opendir(dir);
    if (!tap_ok(d != NULL, "%s lists", dir)) return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name), size = 0;
        char path[8192], *text = NULL;
        const char *built;
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
        nfiles++;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        built = cls__builtin_model(e->d_name);
        tap_ok(cls__read_file(path, 1u << 24, &text, &size) == 0 && built &&
                   strlen(built) == size && memcmp(built, text, size) == 0,
               "%s is built into the library as shipped", e->d_name);
        free(text);
    }
    closedir(d);
    while (cls__builtin_model_at(nbuiltin)) nbuiltin++;
    tap_ok(nfiles > 0 && nbuiltin == nfiles, "the library holds the %zu shipped files (%zu)",
           nfiles, nbuiltin);
    tap_ok(!cls__builtin_model("nope.json") && !cls__builtin_model(NULL) &&
               !cls__builtin_model_at(nbuiltin),
           "no other file is built in");
}

/* ------------------------------------------------------------------ the families' defaults */

/* Each family's defaults build; each value comes from the family's code or from the first
 * reference file that gives it, never from both with one number. */
static void test_family(const cls_model_rules *rules)
{
    cls_model_params p;
    unsigned char own[CLS__NFIELDS], from_ref[CLS__NFIELDS] = {0};
    int complete = 1, twice = 0, mismatch = 0, nref = 0, nown = 0, refs_ok = 1;
    cls_status st = cls__family_defaults(rules, &p, own);
    if (!tap_ok(st == CLS_SUCCESS, "%s: the defaults build%s%s", rules->family,
                st ? ": " : "", st ? cls__error_message() : ""))
        return;
    for (const char *const *r = rules->reference; r && *r; r++, nref++) {
        unsigned char given[CLS__NFIELDS];
        cls_model *whole = NULL, *bare = NULL;
        const char *text = cls__builtin_model(*r);
        int ok = text && cls__model_parse(text, *r, &whole) == CLS_SUCCESS &&
                 strcmp(cls_model_family(whole), rules->family) == 0 &&
                 cls__model_parse_given(text, *r, &bare, given) == CLS_SUCCESS;
        refs_ok &= ok;
        tap_ok(ok, "%s: its reference %s is built in and loads as a %s model%s%s",
               rules->family, *r, rules->family, ok ? "" : ": ", ok ? "" : cls__error_message());
        for (int f = 0; ok && f < CLS__NFIELDS; f++) {
            double v = cls__field_get(&bare->p, f);
            if (!given[f] || (cls__fields[f].flags & CLS__UNK)) continue;
            if (own[f] && cls__field_get(&p, f) == v) {
                twice++;
                tap_diag("%s: $.%s is %g in the family's code and in %s", rules->family,
                         cls__fields[f].path, v, *r);
            }
            if (!own[f] && !from_ref[f]) {
                from_ref[f] = 1;
                if (cls__field_get(&p, f) != v) mismatch++;
            }
        }
        cls_model_release(whole);
        cls_model_release(bare);
    }
    for (int f = 0; f < CLS__NFIELDS; f++) {
        int unk = (cls__fields[f].flags & CLS__UNK) != 0;
        nown += own[f];
        if (unk ? cls__field_get(&p, f) != 0 || own[f] : !own[f] && !from_ref[f]) {
            complete = 0;
            tap_diag("%s: $.%s has no single source", rules->family, cls__fields[f].path);
        }
    }
    tap_ok(refs_ok && complete && !twice && !mismatch,
           "%s: each of its values comes from its code (%d) or its %d reference file(s), none "
           "from both",
           rules->family, nown, nref);
}

/* A file of the family that gives only what the schema requires reads every other value from
 * the family's defaults, marked assumed. */
static void test_omitted(const cls_model_rules *rules)
{
    char json[256];
    cls_model_params p;
    cls_model *m = NULL;
    int bad = 0;
    snprintf(json, sizeof json,
             "{\"schema_version\": 1, \"name\": \"t\", \"family\": \"%s\", \"compute\": "
             "{\"clock_mhz\": 999, \"compute_units\": 3}}",
             rules->family);
    if (cls__family_defaults(rules, &p, NULL) != CLS_SUCCESS ||
        cls__model_parse(json, "t.json", &m) != CLS_SUCCESS) {
        tap_ok(0, "%s: a file with the required fields alone loads: %s", rules->family,
               cls__error_message());
        return;
    }
    for (int f = 0; f < CLS__NFIELDS; f++) {
        unsigned flags = cls__fields[f].flags;
        if (flags & (CLS__REQ | CLS__UNK)) continue;
        if (cls__field_get(&m->p, f) != cls__field_get(&p, f) || !m->assumed[f]) {
            bad++;
            tap_diag("%s: $.%s is %g%s, the default %g", rules->family, cls__fields[f].path,
                     cls__field_get(&m->p, f), m->assumed[f] ? "" : " (not assumed)",
                     cls__field_get(&p, f));
        }
    }
    tap_ok(!bad && !m->assumed[CLS__F_clock_mhz] && m->p.clock_mhz == 999,
           "%s: a file that leaves fields out gets the family's defaults, marked assumed",
           rules->family);
    cls_model_release(m);
}

/* ------------------------------------------------------------------ the shipped files */

/* A value a file marks assumed that equals its family's default only repeats it: the loader
 * fills the field in and marks it assumed when the file leaves it out.  A family's reference
 * files are where its defaults live, so they are not judged here.  A document's or a
 * measurement's value (not assumed) may happen to equal a stand-in of the family's code: that
 * is one number twice, not one value, and is only listed. */
static void test_no_repeats(void)
{
    const char *file;
    for (size_t i = 0; (file = cls__builtin_model_at(i)) != NULL; i++) {
        unsigned char given[CLS__NFIELDS], own[CLS__NFIELDS];
        cls_model *whole = NULL, *bare = NULL;
        cls_model_params def;
        int repeats = 0;
        const char *text = cls__builtin_model(file);
        if (cls__model_parse(text, file, &whole) != CLS_SUCCESS ||
            cls__model_parse_given(text, file, &bare, given) != CLS_SUCCESS ||
            cls__family_defaults(whole->rules, &def, own) != CLS_SUCCESS) {
            tap_ok(0, "%s loads: %s", file, cls__error_message());
            cls_model_release(whole);
            cls_model_release(bare);
            continue;
        }
        if (is_reference(whole->rules, file)) {
            tap_ok(1, "%s is a reference of the %s family: its values are the defaults", file,
                   whole->rules->family);
        } else {
            for (int f = 0; f < CLS__NFIELDS; f++) {
                double v = cls__field_get(&bare->p, f);
                if (!given[f] || (cls__fields[f].flags & CLS__UNK) ||
                    v != cls__field_get(&def, f))
                    continue;
                if (whole->assumed[f]) {
                    repeats++;
                    tap_diag("%s: $.%s = %g, assumed, is the %s family's default", file,
                             cls__fields[f].path, v, whole->rules->family);
                } else if (own[f]) {
                    tap_diag("%s: $.%s = %g, the device's own, equals the %s family's stand-in",
                             file, cls__fields[f].path, v, whole->rules->family);
                }
            }
            tap_ok(!repeats, "%s repeats no default of the %s family as an assumption", file,
                   whole->rules->family);
        }
        cls_model_release(whole);
        cls_model_release(bare);
    }
}

/* ------------------------------------------------------------------ broken families */

static void code_tuning_only(cls_model_params *p)
{
    cls__tuning_gpu(p);
}

/* Sets a value its reference, gtx280.json, gives alike. */
static void code_repeats_gtx280(cls_model_params *p)
{
    cls__tuning_gpu(p);
    p->copy_engines = 1;
    p->overlap_factor = 1.0;
    p->clock_mhz = 1300;
}

static void code_out_of_range(cls_model_params *p)
{
    cls__tuning_gpu(p);
    p->copy_engines = 1;
    p->overlap_factor = 7;
}

static void expect_internal(const cls_model_rules *rules, const char *what, const char *a,
                            const char *b)
{
    cls_model_params p;
    cls_status st = cls__family_defaults(rules, &p, NULL);
    const char *msg = cls__error_message();
    tap_ok(st == CLS_ERR_INTERNAL && strstr(msg, a) && strstr(msg, b),
           "%s: CLS_ERR_INTERNAL naming \"%s\" and \"%s\" [%s]", what, a, b, msg);
}

/* The errors a family's mistakes give: what the test above runs into when one is made. */
static void test_broken(void)
{
    static const char *const missing[] = {"nope.json", NULL};
    static const char *const gtx280[] = {"gtx280.json", NULL};
    static const char *const gt200[] = {"gtx280.json", "tesla_c1060.json", NULL};
    cls_model_rules r = {.family = "gt200", .summary = "test", .defaults = code_tuning_only};

    r.reference = missing;
    expect_internal(&r, "a reference that is not built in", "nope.json",
                    "not a model file built into the library");
    r.family = "cpu";
    r.reference = gtx280;
    expect_internal(&r, "a reference of another family", "gtx280.json",
                    "a model of family gt200");
    r.family = "gt200";
    r.defaults = code_repeats_gtx280;
    r.reference = gt200;
    expect_internal(&r, "a value in the code and in the reference", "$.compute.clock_mhz is 1300",
                    "gtx280.json");
    r.defaults = code_tuning_only;
    expect_internal(&r, "a field nobody gives", "the gt200 family's defaults",
                    "no value for $.transfer.copy_engines");
    r.defaults = code_out_of_range;
    expect_internal(&r, "a value the schema refuses", "$.transfer.overlap_factor",
                    "must be at most 4");
    r.reference = NULL;
    r.defaults = code_tuning_only;
    expect_internal(&r, "a family with neither", "gt200",
                    "no value for $.compute.clock_mhz");
}

int main(void)
{
    const cls_model_rules *rules;
    test_builtin();
    for (size_t i = 0; (rules = cls__family_at(i)) != NULL; i++) {
        test_family(rules);
        test_omitted(rules);
    }
    test_no_repeats();
    test_broken();
    return tap_done();
}
