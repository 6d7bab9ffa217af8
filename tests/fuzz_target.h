/* fuzz_target.h: what the readers' fuzz targets share: the result of one input and the libFuzzer
 * entry point around a target's check.  Built for libFuzzer (make fuzz), a broken property
 * prints what broke and traps, so that libFuzzer saves the input; built with -DCLS_FUZZ_SMOKE,
 * the smoke run (tests/fuzz_smoke.h) counts the results instead. */
#ifndef CLS_FUZZ_TARGET_H
#define CLS_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Whether the reader accepted the input, and the first property it broke (NULL: none). */
typedef struct fuzz_result {
    int accepted;
    const char *bad;
} fuzz_result;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Under AddressSanitizer an allocation above 1 GiB fails (returns NULL) instead of ending the
 * process, as it may on a smaller machine: a reader must refuse, or fail cleanly with out of
 * memory, whatever size a file claims.  ASAN_OPTIONS still overrides it. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLS_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(CLS_FUZZ_ASAN)
#define CLS_FUZZ_ASAN 1
#endif
#ifdef CLS_FUZZ_ASAN
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:max_allocation_size_mb=1024";
}
#endif

#ifdef CLS_FUZZ_SMOKE
#define CLS_FUZZ_ENTRY(name, check)                                                            \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
    {                                                                                          \
        (void)check(data, size);                                                               \
        return 0;                                                                              \
    }
#else
#define CLS_FUZZ_ENTRY(name, check)                                                            \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
    {                                                                                          \
        fuzz_result r = check(data, size);                                                     \
        if (r.bad) {                                                                           \
            fprintf(stderr, "%s: %s\n", name, r.bad);                                          \
            __builtin_trap();                                                                  \
        }                                                                                      \
        return 0;                                                                              \
    }
#endif

#endif
