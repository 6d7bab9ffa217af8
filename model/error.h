/* error.h: the last error of the calling thread: how model/ and devices/ report failures, and
 * the store under lib/'s cls__fail and the public cls_last_error(). */
#ifndef CLS_MODEL_ERROR_H
#define CLS_MODEL_ERROR_H

#include <stdarg.h>

#include "clstencil.h"

/* Records a formatted message and `st` as the calling thread's last error and returns `st`,
 * so that failures read: return cls__error(CLS_ERR_INVALID_MODEL, "...", ...);
 * A message longer than the store (32 KiB, room for a build log) is cut with a marker.
 * A successful call leaves the last error as it was (like errno). */
cls_status cls__error(cls_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same from a va_list, with `prefix` (may be NULL) written in front of the message. */
cls_status cls__verror(cls_status st, const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* Puts formatted text in front of the last message and records `st`: a caller saying where a
 * failure reported below it happened ("gtx280.json: " before "$.memory.channels: ..."). */
cls_status cls__error_prefix(cls_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The calling thread's last message ("" when there is none) and its status (CLS_SUCCESS when
 * none).  The message stays valid until the thread's next failure. */
const char *cls__error_message(void);
cls_status cls__error_status(void);

#endif /* CLS_MODEL_ERROR_H */
