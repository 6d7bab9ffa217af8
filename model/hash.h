/* hash.h: 64-bit FNV-1a, the hash of the library's cache keys (programs, profiles, probe
 * results), kept at the bottom layer so that every layer derives keys the same way. */
#ifndef CLS_MODEL_HASH_H
#define CLS_MODEL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Chained through `h`: start with CLS__FNV_SEED. */
#define CLS__FNV_SEED 14695981039346656037ULL
uint64_t cls__hash(uint64_t h, const void *data, size_t len);

#endif /* CLS_MODEL_HASH_H */
