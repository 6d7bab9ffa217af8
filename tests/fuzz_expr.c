/* fuzz_expr.c: libFuzzer target for the body language; -DCLS_FUZZ_SMOKE adds a short TAP main. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double fuzz_read(void *user, int array, const int off[3])
{
    (void)user;
    return array * 7.25 + off[0] - 0.5 * off[1] + off[2];
}

/* The first byte picks the environment (dims, real type, one field or a system of two with
 * or without a default field); the rest is the body. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const aux[] = {"k", "w"};
    static const char *const params[] = {"alpha", "beta"};
    static const char *const fields[] = {"u", "v"};
    if (size == 0 || size > CLS_EXPR_MAX_BODY + 2) return 0;
    char *body = malloc(size);
    if (!body) return 0;
    memcpy(body, data + 1, size - 1);
    body[size - 1] = 0;
    cls_expr_env env = {1 + data[0] % 3, (data[0] >> 2) & 1, 2, aux, 2, params,
                        (data[0] >> 3) & 1 ? 2 : 0, fields, (data[0] >> 4) & 1 ? 1 : -1};
    cls_expr *e = NULL;
    char err[256];
    if (cls__expr_parse(body, &env, &e, err, sizeof err) == 0) {
        char *src = cls__expr_emit_opencl(e);
        double pv[2] = {0.5, -3};
        cls_expr_point pt = {{1, 2, 3}, {4, 5, 6}, 9, pv, fuzz_read, NULL};
        volatile double v = cls__expr_eval(e, &pt);
        (void)v;
        int lo[3], hi[3], used;
        cls__expr_in_extent(e, lo, hi, &used);
        cls__expr_aux_extent(e, 1, lo, hi, &used);
        cls__expr_field_extent(e, 1, lo, hi, &used);
        (void)cls__expr_flops(e);
        (void)cls__expr_in_reads(e);
        (void)cls__expr_is_exact(e);
        free(src);
        cls__expr_free(e);
    } else if (strncmp(err, "line ", 5) != 0 && strcmp(err, "out of memory") != 0) {
        abort(); /* every failure must carry a location */
    }
    free(body);
    return 0;
}

#ifdef CLS_FUZZ_SMOKE
#include "fuzz_smoke.h"
#include "tap.h"

/* Deterministic smoke run: seed bodies, their mutations and random bytes. */
static uint64_t smoke_state = 0x2545f4914f6cdd1dull;
static uint32_t smoke_rand(void)
{
    smoke_state ^= smoke_state << 13;
    smoke_state ^= smoke_state >> 7;
    smoke_state ^= smoke_state << 17;
    return (uint32_t)(smoke_state >> 16);
}

int main(void)
{
    static const struct {
        int dims;
        const char *body;
    } seeds[] = {
        {1, "IN(-1) + IN(1) - 2*IN(0)"},
        {2, "alpha*(IN(-1,0)+IN(1,0)) + beta*IN(0,1) - 4*IN(0,0)"},
        {3, "real t = IN(0,0,0); int i = X / (STEP - 2); return i % 3 + clamp(t, 1.0, 2.5);"},
        {2, "X > 2 && Y ? -X : STEP % 0"},
        {1, "fmin(AUX(k, 1), AUX(1, 0)) / sqrt(fabs(IN(0)) + 1e-3f)"},
        {1, "double d = (double)IN(0) * 0.1; float f = d; int n = (int)f; return n ? f : -d; // c"},
        {2, "/* c */ pow(IN(0,1), 2.) + exp(-(float)NX) + min(max(X, 0), 3)"},
        {2, "const real c = 0.25; return c * (AUX(w, 0, 0) + AUX(w, 1, 0)) > 1 || !IN(0, 0);"},
    };
    static const char *const tokens[] = {
        "(",          ")",     ",",  ";",  "IN(",  "AUX(k,", "real ", "int ", "return ", "?",
        ":",          "&&",    "||", "!",  "-",    "*",      "/",     "%",    "1e308",   "0.",
        "2147483647", "(int)", "/*", "//", "min(", "fma(",   "\n",    "\x80", "X",       "alpha"};
    const size_t nseeds = sizeof seeds / sizeof seeds[0];
    const size_t ntokens = sizeof tokens / sizeof tokens[0];
    uint8_t buf[1024];
    int runs = 0;
    for (int it = 0; it < 4000; it++) {
        size_t len = 1;
        buf[0] = (uint8_t)smoke_rand();
        if (it % 4 == 0) {
            /* random bytes, biased towards the language's characters */
            static const char alpha[] = "()+-*/%!<>=&|?:,;. \n0123456789eEfXYZINAUXkalphreturn";
            size_t n = smoke_rand() % 100;
            for (size_t i = 0; i < n; i++)
                buf[len++] = smoke_rand() % 6 ? (uint8_t)alpha[smoke_rand() % (sizeof alpha - 1)]
                                              : (uint8_t)smoke_rand();
        } else {
            size_t k = smoke_rand() % nseeds;
            size_t n = strlen(seeds[k].body);
            memcpy(buf + 1, seeds[k].body, n);
            len += n;
            /* the seed's own dimensionality most of the time */
            while (it % 8 && buf[0] % 3 != seeds[k].dims - 1) buf[0] = (uint8_t)smoke_rand();
            int muts = it % 4 == 1 ? 0 : 1 + (int)(smoke_rand() % 3);
            for (int m = 0; m < muts; m++) {
                size_t at = 1 + smoke_rand() % len;
                if (at > len) at = len;
                switch (smoke_rand() % 3) {
                case 0: { /* delete */
                    size_t span = 1 + smoke_rand() % 5;
                    if (at + span > len) span = len - at;
                    memmove(buf + at, buf + at + span, len - at - span);
                    len -= span;
                    break;
                }
                case 1: /* flip a bit */
                    if (at < len) buf[at] ^= (uint8_t)(1u << (smoke_rand() % 8));
                    break;
                default: { /* insert a token */
                    const char *t = tokens[smoke_rand() % ntokens];
                    size_t tl = strlen(t);
                    if (len + tl <= sizeof buf) {
                        memmove(buf + at + tl, buf + at, len - at);
                        memcpy(buf + at, t, tl);
                        len += tl;
                    }
                }
                }
            }
        }
        LLVMFuzzerTestOneInput(buf, len);
        runs++;
    }
    /* the limits: deep nesting and a long flat chain */
    size_t big = 300000;
    uint8_t *b = malloc(big + 1);
    if (b) {
        b[0] = 0;
        memset(b + 1, '(', big);
        LLVMFuzzerTestOneInput(b, big + 1);
        for (size_t i = 1; i + 2 < big; i += 2) {
            b[i] = '1';
            b[i + 1] = '+';
        }
        b[big - 1] = '1';
        LLVMFuzzerTestOneInput(b, big);
        free(b);
        runs += 2;
    }
    tap_ok(1, "fuzz smoke: %d inputs without a crash", runs);
    /* the committed seeds (every failure must carry a location, or the target aborts) */
    size_t nseeds_dir = 0;
    fuzz_seed *dir = fuzz_seeds_load("expr", &nseeds_dir);
    for (size_t i = 0; i < nseeds_dir; i++)
        LLVMFuzzerTestOneInput((const uint8_t *)dir[i].data, dir[i].len);
    fuzz_seeds_free(dir, nseeds_dir);
    tap_ok(nseeds_dir > 0, "the %zu seeds of tests/fuzz/expr run", nseeds_dir);
    return tap_done();
}
#endif
