/* hash.c: 64-bit FNV-1a (model/hash.h). */
#include "hash.h"

uint64_t cls__hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}
