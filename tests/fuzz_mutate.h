/* fuzz_mutate.h: the deterministic mutation engine shared by the fuzz targets' smoke runs
 * (make check builds them with -DCLS_FUZZ_SMOKE).  libFuzzer brings its own mutator; this one
 * only has to reach the parsers' error paths reproducibly, the same on every machine.
 * Each driver supplies its seed state and a table of tokens worth splicing in. */
#ifndef CLS_FUZZ_MUTATE_H
#define CLS_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_mutator {
    uint64_t state;             /* xorshift64 state, never 0 */
    const char *const *tokens;  /* spliced in whole */
    size_t ntokens;
} fuzz_mutator;

static inline uint64_t fuzz_rng(fuzz_mutator *m)
{
    /* xorshift64: deterministic across runs and platforms. */
    m->state ^= m->state << 13;
    m->state ^= m->state >> 7;
    m->state ^= m->state << 17;
    return m->state;
}

static inline size_t fuzz_pick(fuzz_mutator *m, size_t n)
{
    return n ? (size_t)(fuzz_rng(m) % n) : 0;
}

static inline const char *fuzz_token(fuzz_mutator *m)
{
    return m->tokens[fuzz_pick(m, m->ntokens)];
}

/* One random edit of buf (length *len, capacity cap; never writes at or past cap): replace a
 * byte, delete a run, insert a token, duplicate a run, or overwrite a number with a token. */
static inline void fuzz_mutate(fuzz_mutator *m, char *buf, size_t *len, size_t cap)
{
    size_t at = fuzz_pick(m, *len + 1), n;
    switch (fuzz_pick(m, 5)) {
    case 0:
        if (*len) buf[fuzz_pick(m, *len)] = (char)(32 + fuzz_pick(m, 95));
        break;
    case 1:
        n = 1 + fuzz_pick(m, 8);
        if (at + n > *len) n = *len - at;
        memmove(buf + at, buf + at + n, *len - at - n);
        *len -= n;
        break;
    case 2: {
        const char *t = fuzz_token(m);
        n = strlen(t);
        if (*len + n >= cap) break;
        memmove(buf + at + n, buf + at, *len - at);
        memcpy(buf + at, t, n);
        *len += n;
        break;
    }
    case 3: {
        char run[24];
        size_t from = fuzz_pick(m, *len);
        n = 1 + fuzz_pick(m, sizeof run);
        if (from + n > *len) n = *len - from;
        if (*len + n >= cap) break;
        memcpy(run, buf + from, n);
        memmove(buf + at + n, buf + at, *len - at);
        memcpy(buf + at, run, n);
        *len += n;
        break;
    }
    default: {
        size_t i = fuzz_pick(m, *len);
        while (i < *len && !(buf[i] >= '0' && buf[i] <= '9')) i++;
        if (i < *len) {
            const char *t = fuzz_token(m);
            size_t end = i, tn = strlen(t);
            /* the whole number, fraction included, so "1.5" can become "1e999" */
            while (end < *len && ((buf[end] >= '0' && buf[end] <= '9') || buf[end] == '.')) end++;
            if (*len - (end - i) + tn >= cap) break;
            memmove(buf + i + tn, buf + end, *len - end);
            memcpy(buf + i, t, tn);
            *len = *len - (end - i) + tn;
        }
        break;
    }
    }
}

/* One random edit of binary data (file formats with lengths, magic numbers and checksums):
 * a bit flipped, a byte or a big- or little-endian 16/32-bit word set to a boundary value, or
 * one of fuzz_mutate's text edits. */
static inline void fuzz_mutate_bytes(fuzz_mutator *m, char *buf, size_t *len, size_t cap)
{
    static const uint32_t words[] = {0,          1,          2,          0x7f,
                                     0x80,       0xff,       0x100,      0x7fff,
                                     0x8000,     0xffff,     0x10000,    0x100000,
                                     0x7fffffff, 0x80000000, 0xffffffff, 0x4000};
    size_t at = fuzz_pick(m, *len);
    uint32_t w = words[fuzz_pick(m, sizeof words / sizeof words[0])];
    switch (fuzz_pick(m, 5)) {
    case 0:
        if (*len) buf[at] ^= (char)(1u << fuzz_pick(m, 8));
        break;
    case 1:
        if (*len) buf[at] = (char)(unsigned char)w;
        break;
    case 2: /* a 16-bit word */
        if (at + 2 <= *len) {
            int be = (int)fuzz_pick(m, 2);
            buf[at] = (char)(unsigned char)(be ? w >> 8 : w);
            buf[at + 1] = (char)(unsigned char)(be ? w : w >> 8);
        }
        break;
    case 3: /* a 32-bit word */
        if (at + 4 <= *len) {
            int be = (int)fuzz_pick(m, 2);
            for (int i = 0; i < 4; i++)
                buf[at + (size_t)i] = (char)(unsigned char)(w >> (be ? 24 - 8 * i : 8 * i));
        }
        break;
    default:
        fuzz_mutate(m, buf, len, cap);
        break;
    }
}

#endif
