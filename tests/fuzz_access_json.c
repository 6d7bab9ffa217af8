/* fuzz_access_json.c: fuzz target for access descriptions and the analysis; smoke run in TAP.
 *
 * libFuzzer:  clang -fsanitize=fuzzer,address,undefined -std=c11 -D_POSIX_C_SOURCE=200809L
 *               -Ilib -Imodel -Idevices -Itests -I/usr/include/cjson tests/fuzz_access_json.c
 *               model/access.c model/access_json.c model/cumapz.c model/cumapz_cases.c
 *               model/device_model.c devices/[a-z]*.c lib/status.c lib/util.c -lcjson -lm
 *               -o fuzz_access_json
 *             ./fuzz_access_json CORPUS/   (seed it with `clstencil analyze --dump CASE`)
 * make check builds it with -DCLS_FUZZ_SMOKE: a main() that runs a few thousand deterministic
 * mutations of small descriptions and of the built-in cases, and prints TAP. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "cumapz.h"
#include "error.h"

/* Analyses per input and the work each may take: small, so that thousands of inputs run in
 * seconds; larger ones exercise the bound's refusal. */
#define FUZZ_VARIANTS 2
#define FUZZ_MAX_WORK 50000

typedef struct outcome {
    int accepted;      /* parsed */
    int analysed;      /* at least one variant analysed */
    int bad_message;   /* a refusal that does not say where */
    int bad_result;    /* an analysis with a factor out of its range */
} outcome;

static cls_model *models[2];

static int in_range(const cls_cumapz_result *r)
{
    return isfinite(r->mpe) && r->mpe >= 0 && r->bw_util > 0 && r->bw_util <= 1 &&
           r->shm_eff > 0 && r->shm_eff <= 1 && r->branch_eff >= 0.5 && r->branch_eff <= 1 &&
           r->ch_skew >= 1 && isfinite(r->ch_skew) && r->lat_hiding >= 0 &&
           isfinite(r->data_reuse) && r->data_reuse >= 0;
}

static outcome check_one(const uint8_t *data, size_t size)
{
    outcome o = {0, 0, 0, 0};
    char *text = malloc(size + 1);
    cls_access_set *set = NULL;
    cls_status st;
    if (!text) return o;
    memcpy(text, data, size);
    text[size] = '\0';
    st = cls_access_set_from_json(text, NULL, 0, &set);
    if (st == CLS_SUCCESS) {
        cls_cumapz_options opt = {FUZZ_MAX_WORK};
        o.accepted = 1;
        for (size_t i = 0; i < set->n && i < FUZZ_VARIANTS; i++) {
            cls_cumapz_result r;
            const cls_model *m = models[(i + size) % 2];
            if (!m) continue;
            st = cls_cumapz_analyze(m, &set->v[i], &opt, &r);
            if (st == CLS_SUCCESS) {
                o.analysed = 1;
                if (!in_range(&r)) o.bad_result = 1;
            } else if (st != CLS_ERR_OUT_OF_HOST_MEMORY && !strstr(cls__error_message(), "$")) {
                o.bad_message = 1;
            }
        }
    } else if (st == CLS_ERR_INVALID_JSON) {
        o.bad_message = strstr(cls__error_message(), "line ") == NULL;
    } else if (st != CLS_ERR_OUT_OF_HOST_MEMORY) {
        o.bad_message = strstr(cls__error_message(), "$") == NULL;
    }
    cls_access_set_free(set);
    free(text);
    return o;
}

static void load_models(void)
{
    if (!models[0]) cls_model_from_defaults("gt200", NULL, &models[0]);
    if (!models[1]) cls_model_from_defaults("gpu", NULL, &models[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    outcome o;
    load_models();
    o = check_one(data, size);
#ifndef CLS_FUZZ_SMOKE
    /* A failed property must stop libFuzzer so that it saves the input. */
    if (o.bad_message || o.bad_result) __builtin_trap();
#else
    (void)o;
#endif
    return 0;
}

#ifdef CLS_FUZZ_SMOKE
#include "fuzz_mutate.h"
#include "fuzz_smoke.h"
#include "tap.h"

#define ITERATIONS 6000

static const char *const tokens[] = {
    "-1", "0", "1", "16", "4096", "99999999999", "1e300", "-0", "\"tx*ty\"", "\"tx/0\"",
    "\"bx*gdx+tx\"", "\"tx == 0 && ty != 1\"", "\"in[tx]\"", "\"s[tx] = in[tx]\"", "null", "[]",
    "{}", ",", ":", "[", "]", "{", "}", "\"\"", "\"diagonal\"", "\"view\": [48, 4], ",
    "\"loop\": \"j\", \"count\": 3, \"body\": [{\"read\": \"in[j]\"}]",
    "{\"if\": \"tx < 3\", \"then\": [{\"write\": \"out[tx]\"}], \"else\": []}",
    "\"elem_size\": 8", "\"dims\": [2, 3, 4]", "\"let\": {\"z\": \"z\"}", "-", "+", "*", "(",
    ")", "tx", "ty", "bx", "by", "i", "k", "\"local_read\": \"sh[0]\"", "\"then\"", "\"else\"",
};

static fuzz_mutator mut = {0x2545F4914F6CDD1DULL, tokens, sizeof tokens / sizeof tokens[0]};


/* Small hand-written descriptions: every statement kind, views, branches, loops, 3 dims. */
static const char *const small_seeds[] = {
    "{\"name\": \"tiny\", \"kernel\": {\"params\": {\"N\": 64}, \"let\": {\"c\": \"bx*bdx+tx\"},"
    " \"block\": [16, 2], \"grid\": [\"N/16\", 2], \"block_order\": \"diagonal\","
    " \"arrays\": {\"in\": {\"elem_size\": 4, \"dims\": [4, \"N+2\"]},"
    "            \"out\": {\"elem_size\": 4, \"elements\": \"4*N\"}},"
    " \"buffers\": {\"s\": {\"elem_size\": 4, \"dims\": [2, 17]}, \"t\": {\"elem_size\": 4, "
    "\"elements\": 32}},"
    " \"body\": [{\"fetch\": \"s[ty][tx] = in[by*2+ty][c]\"},"
    "  {\"if\": \"tx == 0\", \"then\": [{\"fetch\": \"s[ty][16] = in[by*2+ty][c+16]\"}]},"
    "  {\"local_write\": \"t[ty*16+tx]\"}, {\"local_read\": \"t[tx*2+ty]\"},"
    "  {\"loop\": \"i\", \"count\": 2, \"body\": [{\"read\": \"in[by*2+ty][c+i]\"}]},"
    "  {\"if\": \"tx < 8 && ty == 1\", \"then\": [{\"write\": \"out[(by*2+ty)*N+c]\"}],"
    "   \"else\": [{\"read\": \"in[0][tx]\"}]}]},"
    " \"variants\": [{\"name\": \"a\"}, {\"name\": \"b\", \"params\": {\"N\": 32}},"
    "  {\"name\": \"c\", \"block_order\": \"row\"}]}",
    "{\"name\": \"view\", \"kernel\": {\"block\": [32, 6], \"grid\": [2],"
    " \"arrays\": {\"in\": {\"elem_size\": 4, \"elements\": 4096}},"
    " \"buffers\": {\"sh\": {\"elem_size\": 4, \"elements\": 384}},"
    " \"body\": [{\"fetch\": \"sh[ty*48+tx] = in[bx*512+ty*64+tx]\", \"view\": [48, 4]},"
    "  {\"fetch\": \"sh[(ty+4)*48+tx] = in[bx*512+(ty+4)*64+tx]\", \"view\": [48, 4]},"
    "  {\"read\": \"in[bx*512+(ty+1)*64+tx+8]\"}, {\"read\": \"in[bx*512+ty*64+tx+9]\"}]}}",
    "{\"name\": \"cube\", \"kernel\": {\"block\": [4, 4, 2], \"grid\": [2, 2, 2],"
    " \"arrays\": {\"a\": {\"elem_size\": 8, \"dims\": [4, 8, 8]},"
    "            \"b\": {\"elem_size\": 2, \"elements\": 512}},"
    " \"body\": [{\"read\": \"a[bz*2+tz][by*4+ty][bx*4+tx]\"},"
    "          {\"write\": \"b[tx*64+ty*8+tz]\"}]}}",
};

/* The built-in cases with their sizes shrunk (params rewritten through cJSON). */
static char *shrunk_case(const char *name)
{
    static const struct {
        const char *param;
        int value;
    } small[] = {{"MAX", 64}, {"ROWS", 16}, {"N", 32}, {"NX", 64}, {"NY", 48}, {"NZ", 1}};
    char *json = NULL, *out = NULL;
    cJSON *root, *params;
    if (cls_cumapz_case_json(name, &json) != CLS_SUCCESS) return NULL;
    root = cJSON_Parse(json);
    free(json);
    if (!root) return NULL;
    params = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "kernel"),
                                              "params");
    for (size_t i = 0; params && i < sizeof small / sizeof small[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(params, small[i].param))
            cJSON_ReplaceItemInObjectCaseSensitive(params, small[i].param,
                                                   cJSON_CreateNumber(small[i].value));
    out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}

int main(void)
{
    enum { MAX_SEEDS = 16, CAP = 1 << 16 };
    static char buf[CAP];
    char *seeds[MAX_SEEDS];
    size_t seed_len[MAX_SEEDS], nseeds = 0, runs, accepted = 0, analysed = 0, bad_msg = 0,
           bad_res = 0, seeds_ok = 0;
    clock_t t0 = clock();
    double secs;

    load_models();
    tap_ok(models[0] && models[1], "the gt200 and gpu family defaults load");
    for (size_t i = 0; i < sizeof small_seeds / sizeof small_seeds[0]; i++)
        seeds[nseeds++] = strdup(small_seeds[i]);
    for (size_t c = 0; c < cls_cumapz_case_count() && nseeds < MAX_SEEDS; c++)
        seeds[nseeds++] = shrunk_case(cls_cumapz_case_name(c));
    for (size_t i = 0; i < nseeds; i++) {
        outcome o;
        seed_len[i] = seeds[i] ? strlen(seeds[i]) : 0;
        if (!seeds[i] || seed_len[i] >= CAP) continue;
        o = check_one((const uint8_t *)seeds[i], seed_len[i]);
        if (o.accepted && o.analysed && !o.bad_result) seeds_ok++;
        else tap_diag("seed %zu: accepted %d analysed %d", i, o.accepted, o.analysed);
    }
    tap_ok(seeds_ok == nseeds, "the %zu seeds (small descriptions and shrunk built-in cases) "
                               "parse and analyse (%zu did)",
           nseeds, seeds_ok);
    if (seeds_ok != nseeds) goto done;

    for (runs = 0; runs < ITERATIONS; runs++) {
        size_t k = runs % nseeds, len = seed_len[k], edits = 1 + fuzz_pick(&mut, 3);
        outcome o;
        memcpy(buf, seeds[k], len);
        for (size_t e = 0; e < edits; e++) fuzz_mutate(&mut, buf, &len, CAP);
        o = check_one((const uint8_t *)buf, len);
        accepted += (size_t)o.accepted;
        analysed += (size_t)o.analysed;
        if (o.bad_message && bad_msg++ == 0) {
            buf[len < 300 ? len : 300] = '\0';
            tap_diag("a message without a location for input %zu: %s", runs, buf);
        }
        if (o.bad_result && bad_res++ == 0) tap_diag("factors out of range for input %zu", runs);
    }
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    tap_ok(runs == ITERATIONS,
           "%zu mutations ran without a crash in %.2f s (%zu parsed, %zu analysed)",
           runs, secs, accepted, analysed);
    tap_ok(bad_msg == 0, "every refusal names a JSON path or a line (%zu did not)", bad_msg);
    tap_ok(bad_res == 0, "every analysis gives factors in their ranges (%zu did not)", bad_res);
    {
        /* the committed seeds (these descriptions and the inputs the fuzzers found) */
        size_t nd = 0, dir_bad = 0;
        fuzz_seed *found = fuzz_seeds_load("access_json", &nd);
        for (size_t i = 0; i < nd; i++) {
            outcome o = check_one((const uint8_t *)found[i].data, found[i].len);
            if (o.bad_message || o.bad_result) {
                dir_bad++;
                tap_diag("seed %s: %s", found[i].name,
                         o.bad_message ? "a refusal without a location" : "factors out of range");
            }
        }
        fuzz_seeds_free(found, nd);
        tap_ok(nd > 0 && dir_bad == 0, "the %zu seeds of tests/fuzz/access_json keep every "
                                       "property (%zu did not)", nd, dir_bad);
    }
done:
    for (size_t i = 0; i < nseeds; i++) free(seeds[i]);
    cls_model_release(models[0]);
    cls_model_release(models[1]);
    return tap_done();
}
#endif
