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

/* Prints the plan and returns the exit status for main(). */
static inline int tap_done(void)
{
    printf("1..%d\n", tap__n);
    return tap__failed ? 1 : 0;
}
#endif
