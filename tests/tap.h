/* tap.h: a minimal TAP producer for the test programs (automake's tap-driver reads it). */
#ifndef CLS_TAP_H
#define CLS_TAP_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap__n, tap__failed;

/* Records one test; returns cond so callers can branch on it. */
static inline int tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", ++tap__n);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!cond) tap__failed++;
    fflush(stdout);
    return cond;
}

static inline void tap_skip(const char *what, const char *reason)
{
    printf("ok %d - %s # SKIP %s\n", ++tap__n, what, reason);
    fflush(stdout);
}

/* Diagnostic line (TAP comment). */
static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

/* Prints the plan and returns the exit status for main().  Under AddressSanitizer the leak
 * check runs here, as a test of its own, while the OpenCL runtime's worker threads are idle:
 * LeakSanitizer's check at process exit can crash in its own tracer while PoCL tears its
 * threads down, so the test environment turns that one off (leak_check_at_exit=0), and keeps
 * the tracer out of thread-local storage (use_tls=0, tests/local.mk). */
static inline int tap_done(void)
{
#if defined(__SANITIZE_ADDRESS__)
    tap_ok(__lsan_do_recoverable_leak_check() == 0, "no leaks (LeakSanitizer)");
#endif
    printf("1..%d\n", tap__n);
    return tap__failed ? 1 : 0;
}
#endif
