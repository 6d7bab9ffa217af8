/* fuzz_model_json.c: fuzz target for the model loader; -DCLS_FUZZ_SMOKE adds a short TAP run.
 *
 * libFuzzer:  clang -fsanitize=fuzzer,address,undefined -std=c11 -D_POSIX_C_SOURCE=200809L
 *               -Ilib -Imodel -Idevices -Itests tests/fuzz_model_json.c model/device_model.c
 *               devices/[a-z]*.c lib/status.c lib/util.c -lcjson -lm -o fuzz_model_json
 *             ./fuzz_model_json -dict=... devices/   (the shipped files are the seed corpus)
 * make check builds it with -DCLS_FUZZ_SMOKE: a main() that runs a few thousand deterministic
 * mutations of the shipped files and prints TAP. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clstencil.h"
#include "clstencil_model.h"

/* What one input taught: accepted or not, and whether a property failed. */
typedef struct outcome {
    int accepted;
    int bad_message;   /* a rejection whose message does not say where */
    int bad_roundtrip; /* an accepted model whose JSON does not load back the same */
} outcome;

/* Runs the rules on a loaded model: any parameter the loader lets through must be safe. */
static void exercise(const cls_model *m)
{
    uint64_t a[64];
    cls_model_txn t;
    cls_model_banks b;
    cls_model_occupancy_info o;
    unsigned ch;
    for (size_t i = 0; i < 64; i++) a[i] = i * 4 * (i % 3 + 1);
    a[7] = CLS_MODEL_NO_ACCESS;
    cls_model_transactions(m, a, 64, 4, &t);
    cls_model_bank_conflicts(m, a, 64, 4, &b);
    cls_model_channel(m, 123456, &ch);
    cls_model_occupancy(m, 256, 32, 4096, &o);
    cls_model_occupancy(m, 1, 0, 0, &o);
}

static outcome check_one(const uint8_t *data, size_t size)
{
    outcome r = {0, 0, 0};
    char *text = malloc(size + 1), *j1 = NULL, *j2 = NULL;
    cls_model *m = NULL, *back = NULL;
    cls_status st;
    if (!text) return r;
    memcpy(text, data, size);
    text[size] = '\0';
    st = cls_model_from_json(text, &m);
    if (st == CLS_SUCCESS) {
        r.accepted = 1;
        exercise(m);
        if (cls_model_to_json(m, &j1) != CLS_SUCCESS || cls_model_from_json(j1, &back) !=
                                                             CLS_SUCCESS ||
            cls_model_to_json(back, &j2) != CLS_SUCCESS || strcmp(j1, j2) != 0)
            r.bad_roundtrip = 1;
    } else if (st == CLS_ERR_INVALID_JSON) {
        r.bad_message = strstr(cls_last_error(), "line ") == NULL;
    } else if (st == CLS_ERR_INVALID_MODEL) {
        r.bad_message = strstr(cls_last_error(), ": $") == NULL;
    } else if (st != CLS_ERR_OUT_OF_HOST_MEMORY) {
        r.bad_message = 1;
    }
    cls_free(j1);
    cls_free(j2);
    cls_model_release(m);
    cls_model_release(back);
    free(text);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    outcome r = check_one(data, size);
#ifndef CLS_FUZZ_SMOKE
    /* A failed property must stop libFuzzer so that it saves the input. */
    if (r.bad_message || r.bad_roundtrip) __builtin_trap();
#else
    (void)r;
#endif
    return 0;
}

#ifdef CLS_FUZZ_SMOKE
#include "fuzz_mutate.h"
#include "fuzz_smoke.h"
#include "tap.h"

#define ITERATIONS 5000

static const char *const tokens[] = {
    "-3", "0", "1e999", "-1e999", "\"x\"", "null", "[]", "{}", ",", "}", "]", "{", "[", ":",
    "\"assumed\"", "\"bytes\"", "\"ns\"", "1.5", "-0", "9007199254740993", "\"\\u0000\"",
    "true", "4096", "3", "\"$.memory.channels\"", "\"gt200\"", "\"^\"", "1e-300", "\"\"",
    "{\"bytes\": 1, \"ns\": 1}", "\"family\": \"cpu\", "};

static fuzz_mutator mut = {0x9e3779b97f4a7c15ULL, tokens, sizeof tokens / sizeof tokens[0]};


static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    if (!f) return NULL;
    buf = malloc(1 << 16);
    *len = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    return buf;
}

int main(void)
{
    static const char *const files[] = {"gtx280.json", "tesla_c1060.json", "tesla_c2050.json",
                                        "gtx460.json", "pocl_cpu.json"};
    const size_t nfiles = sizeof files / sizeof files[0];
    const char *dir = getenv("CLS_SRCDIR") && getenv("CLS_SRCDIR")[0] ? getenv("CLS_SRCDIR")
                                                                         : CLS_SRCDIR;
    char *seeds[5] = {0};
    size_t seed_len[5] = {0}, runs = 0, accepted = 0, bad_msg = 0, bad_rt = 0, seeds_ok = 0;
    clock_t t0 = clock();
    double secs;

    for (size_t i = 0; i < nfiles; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/devices/%s", dir, files[i]);
        seeds[i] = read_all(path, &seed_len[i]);
        if (seeds[i] && check_one((const uint8_t *)seeds[i], seed_len[i]).accepted) seeds_ok++;
    }
    tap_ok(seeds_ok == nfiles && LLVMFuzzerTestOneInput((const uint8_t *)"{}", 2) == 0,
           "the %zu shipped files load unmutated (%zu did)", nfiles, seeds_ok);
    if (seeds_ok != nfiles) goto done;

    for (runs = 0; runs < ITERATIONS; runs++) {
        enum { CAP = 1 << 16 };
        static char buf[CAP];
        size_t k = runs % nfiles, len = seed_len[k], edits = 1 + fuzz_pick(&mut, 4);
        outcome r;
        memcpy(buf, seeds[k], len);
        for (size_t e = 0; e < edits; e++) fuzz_mutate(&mut, buf, &len, CAP);
        r = check_one((const uint8_t *)buf, len);
        accepted += (size_t)r.accepted;
        if (r.bad_message && bad_msg++ == 0)
            tap_diag("message without a location: %s", cls_last_error());
        if (r.bad_roundtrip && bad_rt++ == 0) tap_diag("round trip failed for input %zu", runs);
    }
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    tap_ok(runs == ITERATIONS, "%zu mutations of the shipped files ran without a crash in %.2f s "
           "(%zu accepted, %zu rejected)", runs, secs, accepted, runs - accepted);
    tap_ok(bad_msg == 0, "every rejection names a JSON path or a line (%zu did not)", bad_msg);
    tap_ok(bad_rt == 0, "every accepted input writes JSON that loads back the same (%zu did not)",
           bad_rt);
    {
        /* the committed seeds (family defaults and the inputs the fuzzers found) */
        size_t nd = 0, dir_bad = 0;
        fuzz_seed *found = fuzz_seeds_load("model_json", &nd);
        for (size_t i = 0; i < nd; i++) {
            outcome r = check_one((const uint8_t *)found[i].data, found[i].len);
            if (r.bad_message || r.bad_roundtrip) {
                dir_bad++;
                tap_diag("seed %s: %s", found[i].name,
                         r.bad_message ? "a message without a location" : "round trip failed");
            }
        }
        fuzz_seeds_free(found, nd);
        tap_ok(nd > 0 && dir_bad == 0, "the %zu seeds of tests/fuzz/model_json keep every "
                                       "property (%zu did not)", nd, dir_bad);
    }
done:
    for (size_t i = 0; i < nfiles; i++) free(seeds[i]);
    return tap_done();
}
#endif
