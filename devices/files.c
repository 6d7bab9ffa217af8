/* files.c: whole-file reads and directory creation (devices/files.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"

int cls__read_file(const char *path, size_t max_bytes, char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int e;
    *data = NULL;
    *size = 0;
    if (!f) return -1;
    for (;;) {
        size_t got;
        if (cap - len < 4096) {
            char *nb;
            cap = cap ? cap * 2 : 8192;
            nb = realloc(buf, cap + 1);
            if (!nb) {
                e = ENOMEM;
                goto fail;
            }
            buf = nb;
        }
        errno = 0;
        got = fread(buf + len, 1, cap - len, f);
        if (got == 0 && ferror(f)) {
            e = errno ? errno : EIO;
            goto fail;
        }
        len += got;
        if (len > max_bytes) {
            e = EFBIG;
            goto fail;
        }
        if (got == 0) break;
    }
    fclose(f);
    buf[len] = '\0';
    *data = buf;
    *size = len;
    return 0;
fail:
    free(buf);
    fclose(f);
    errno = e;
    return -1;
}

int cls__mkdirs(const char *path, mode_t mode)
{
    char buf[4096];
    struct stat sb;
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, mode) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, mode) != 0 && errno != EEXIST) return -1;
    if (stat(buf, &sb) != 0) return -1;
    if (!S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}
