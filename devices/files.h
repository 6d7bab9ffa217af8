/* files.h: whole-file reads and directory creation, the file helpers of devices/ and lib/. */
#ifndef CLS_DEVICES_FILES_H
#define CLS_DEVICES_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* Reads a whole file into a malloc'ed buffer (*data) with a NUL byte after its *size bytes.
 * Returns 0, or -1 with errno set: the open's error, EFBIG when the file holds more than
 * max_bytes, ENOMEM, or the read's error (EIO when it gives none).  Failures say nothing:
 * a missing file may be the common case (a cache miss), so callers word the message. */
int cls__read_file(const char *path, size_t max_bytes, char **data, size_t *size);

/* Creates a directory and its missing parents (mode for the ones it creates, before the
 * umask).  Returns 0 when the directory exists afterwards, else -1 with errno set (ENOTDIR
 * when the path names something else). */
int cls__mkdirs(const char *path, mode_t mode);

#endif /* CLS_DEVICES_FILES_H */
