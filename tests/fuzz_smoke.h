/* fuzz_smoke.h: the smoke run make check gives a fuzz target (built with -DCLS_FUZZ_SMOKE): the
 * committed seeds of tests/fuzz/<target>/, then a fixed number of deterministic mutations of
 * them (tests/fuzz_mutate.h), each checked by the target's own properties, reported as TAP.
 *
 * The targets that predate it (expr, model_json, access_json) keep their own mutation runs and
 * take only fuzz_seeds_load from here for their seed folders.
 *
 * Seed names say what the target must make of them: "ok-*" must be accepted, "bad-*" refused
 * (with the target's clear-error property), anything else (inputs the fuzzers found) only has
 * to keep every property.  `make fuzz` gives the same folders to libFuzzer as its seed corpus. */
#ifndef CLS_FUZZ_SMOKE_H
#define CLS_FUZZ_SMOKE_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_mutate.h"
#include "fuzz_target.h"
#include "tap.h"

typedef fuzz_result (*fuzz_check_fn)(const uint8_t *data, size_t size);

typedef struct fuzz_seed {
    char *name;
    char *data;
    size_t len;
} fuzz_seed;

/* The largest seed read, and the room mutations may grow an input to. */
#define FUZZ_SEED_MAX (1u << 16)

static inline int fuzz_seed_cmp(const void *a, const void *b)
{
    return strcmp(((const fuzz_seed *)a)->name, ((const fuzz_seed *)b)->name);
}

/* Reads every file of $CLS_SRCDIR/tests/fuzz/<target>/ (the source tree compiled in when the
 * variable is unset), sorted by name so that runs are the same everywhere; *n seeds. */
static inline fuzz_seed *fuzz_seeds_load(const char *target, size_t *n)
{
    const char *src = getenv("CLS_SRCDIR") && *getenv("CLS_SRCDIR") ? getenv("CLS_SRCDIR")
                                                                     : CLS_SRCDIR;
    char dir[4096], path[8192];
    fuzz_seed *v = NULL;
    size_t cap = 0;
    struct dirent *de;
    DIR *d;
    *n = 0;
    snprintf(dir, sizeof dir, "%s/tests/fuzz/%s", src, target);
    if (!(d = opendir(dir))) return NULL;
    while ((de = readdir(d)) != NULL) {
        FILE *f;
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!(f = fopen(path, "rb"))) continue;
        if (*n == cap) {
            fuzz_seed *nv = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
            if (!nv) {
                fclose(f);
                break;
            }
            v = nv;
        }
        v[*n].name = strdup(de->d_name);
        v[*n].data = malloc(FUZZ_SEED_MAX);
        v[*n].len = v[*n].data ? fread(v[*n].data, 1, FUZZ_SEED_MAX, f) : 0;
        fclose(f);
        if (!v[*n].name || !v[*n].data) {
            free(v[*n].name);
            free(v[*n].data);
            continue;
        }
        (*n)++;
    }
    closedir(d);
    if (*n) qsort(v, *n, sizeof *v, fuzz_seed_cmp);
    return v;
}

static inline void fuzz_show(const char *what, const char *data, size_t len)
{
    char shown[161];
    size_t k = 0;
    for (size_t i = 0; i < len && k + 4 < sizeof shown; i++) {
        unsigned char c = (unsigned char)data[i];
        if (c >= 32 && c < 127) shown[k++] = (char)c;
        else k += (size_t)snprintf(shown + k, sizeof shown - k, "\\%02x", c);
    }
    shown[k] = '\0';
    tap_diag("%s (%zu bytes): %s%s", what, len, shown, k + 4 >= sizeof shown ? "..." : "");
}

static inline void fuzz_seeds_free(fuzz_seed *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].data);
    }
    free(v);
}

/* The whole smoke run: the seeds, then `iterations` mutants (1 to 4 edits each; binary: the
 * byte-level edits too).  Returns 0 when the seeds could not be read. */
static inline int fuzz_smoke(const char *target, fuzz_check_fn check, const char *const *tokens,
                      size_t ntokens, int binary, size_t iterations)
{
    fuzz_mutator mut = {0x9e3779b97f4a7c15ULL, tokens, ntokens};
    size_t n = 0, wrong = 0, bad = 0, accepted = 0;
    fuzz_seed *seeds = fuzz_seeds_load(target, &n);
    static char buf[FUZZ_SEED_MAX];
    if (!tap_ok(n > 0, "the seeds of tests/fuzz/%s load (%zu)", target, n)) return 0;
    for (size_t i = 0; i < n; i++) {
        fuzz_result r = check((const uint8_t *)seeds[i].data, seeds[i].len);
        int want_ok = !strncmp(seeds[i].name, "ok-", 3), want_bad = !strncmp(seeds[i].name, "bad-", 4);
        if ((want_ok && !r.accepted) || (want_bad && r.accepted) || r.bad) {
            wrong++;
            tap_diag("seed %s: %s%s", seeds[i].name,
                     r.bad ? r.bad : r.accepted ? "accepted" : "refused",
                     want_ok ? " (should be accepted)" : want_bad ? " (should be refused)" : "");
        }
    }
    tap_ok(wrong == 0, "every seed: ok-* accepted, bad-* refused, every property kept (%zu "
                       "wrong)", wrong);
    for (size_t it = 0; it < iterations; it++) {
        const fuzz_seed *s = &seeds[it % n];
        size_t len = s->len < sizeof buf ? s->len : sizeof buf - 1;
        size_t edits = 1 + fuzz_pick(&mut, 4);
        memcpy(buf, s->data, len);
        for (size_t e = 0; e < edits; e++) {
            if (binary) fuzz_mutate_bytes(&mut, buf, &len, sizeof buf);
            else fuzz_mutate(&mut, buf, &len, sizeof buf);
        }
        fuzz_result r = check((const uint8_t *)buf, len);
        accepted += (size_t)r.accepted;
        if (r.bad && bad++ == 0) {
            tap_diag("mutant %zu of seed %s: %s", it, s->name, r.bad);
            fuzz_show("the input", buf, len);
        }
    }
    tap_ok(bad == 0, "%zu mutants of the seeds: every property kept (%zu accepted, %zu refused, "
                     "%zu broke one)", iterations, accepted, iterations - accepted, bad);
    fuzz_seeds_free(seeds, n);
    return 1;
}

#endif
