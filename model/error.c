/* error.c: the calling thread's last error message and status (model/error.h). */
#include <stdio.h>
#include <string.h>

#include "error.h"

/* Large enough for a typical OpenCL build log; longer messages are cut with a marker. */
#define CLS__ERRBUF 32768

/* Messages are composed in `scratch` and then copied, so that an argument may be the last
 * message itself (a caller passing cls__error_message() on with more context). */
static _Thread_local char tls_message[CLS__ERRBUF];
static _Thread_local char tls_scratch[CLS__ERRBUF];
static _Thread_local cls_status tls_status = CLS_SUCCESS;

/* Appends formatted text to scratch at *n; marks the message cut when it does not fit. */
static void scratch_vadd(size_t *n, int *cut, const char *fmt, va_list ap)
{
    int m;
    if (*cut) return;
    m = vsnprintf(tls_scratch + *n, CLS__ERRBUF - *n, fmt, ap);
    if (m < 0) {
        tls_scratch[*n] = '\0';
    } else if (*n + (size_t)m >= CLS__ERRBUF) {
        *n = CLS__ERRBUF - 1;
        *cut = 1;
    } else {
        *n += (size_t)m;
    }
}

static void scratch_add(size_t *n, int *cut, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void scratch_add(size_t *n, int *cut, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    scratch_vadd(n, cut, fmt, ap);
    va_end(ap);
}

/* Makes the scratch text the last message. */
static cls_status commit(cls_status st, size_t n, int cut)
{
    static const char marker[] = "\n...(message truncated)";
    memcpy(tls_message, tls_scratch, n + 1);
    if (cut) memcpy(tls_message + CLS__ERRBUF - sizeof marker, marker, sizeof marker);
    tls_status = st;
    return st;
}

cls_status cls__verror(cls_status st, const char *prefix, const char *fmt, va_list ap)
{
    size_t n = 0;
    int cut = 0;
    tls_scratch[0] = '\0';
    if (prefix) scratch_add(&n, &cut, "%s", prefix);
    scratch_vadd(&n, &cut, fmt, ap);
    return commit(st, n, cut);
}

cls_status cls__error(cls_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cls__verror(st, NULL, fmt, ap);
    va_end(ap);
    return st;
}

cls_status cls__error_prefix(cls_status st, const char *fmt, ...)
{
    size_t n = 0;
    int cut = 0;
    va_list ap;
    tls_scratch[0] = '\0';
    va_start(ap, fmt);
    scratch_vadd(&n, &cut, fmt, ap);
    va_end(ap);
    scratch_add(&n, &cut, "%s", tls_message);
    return commit(st, n, cut);
}

const char *cls__error_message(void) { return tls_message; }

cls_status cls__error_status(void) { return tls_status; }
