/* file_write.c: every file the library writes goes through here: a temporary created
 * exclusively under an unpredictable name in the destination's folder, written, synced and
 * renamed over the destination, so that a reader sees the old file or the new one and a
 * symlink planted in the folder is never followed. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* 64 unpredictable bits: the kernel's random source, else a mix of clocks, the process id
 * and a counter (O_EXCL alone keeps the file ours; the randomness only makes planting a file
 * at the next name pointless). */
static uint64_t random_bits(void)
{
    static atomic_uint counter;
    uint64_t r = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, &r, sizeof r);
        close(fd);
        if (n == (ssize_t)sizeof r) return r;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_REALTIME, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    r = (uint64_t)a.tv_nsec ^ ((uint64_t)a.tv_sec << 30) ^ ((uint64_t)b.tv_nsec << 17) ^
        ((uint64_t)getpid() << 40) ^ (uint64_t)atomic_fetch_add(&counter, 1);
    r ^= r >> 33;
    r *= 0xff51afd7ed558ccdULL;
    r ^= r >> 33;
    return r;
}

int cls__temp_create(const char *path, char **tmp_path)
{
    size_t n = strlen(path) + 40;
    char *tmp = malloc(n);
    int fd = -1, err = EEXIST;
    *tmp_path = NULL;
    if (!tmp) {
        errno = ENOMEM;
        return -1;
    }
    /* "PATH.tmp-<16 hex digits>": in the destination's folder, so rename() is atomic. */
    for (int attempt = 0; attempt < 64 && fd < 0 && err == EEXIST; attempt++) {
        snprintf(tmp, n, "%s.tmp-%016llx", path, (unsigned long long)random_bits());
        do {
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        } while (fd < 0 && errno == EINTR);
        if (fd < 0) err = errno;
    }
    if (fd < 0) {
        free(tmp);
        errno = err;
        return -1;
    }
    *tmp_path = tmp;
    return fd;
}

int cls__write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        size_t chunk = len > (size_t)1 << 30 ? (size_t)1 << 30 : len;
        ssize_t w = write(fd, p, chunk);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (w == 0) {
            errno = ENOSPC;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

cls_status cls__temp_commit(int fd, char *tmp, const char *path)
{
    cls_status st = CLS_SUCCESS;
    /* A full disk can surface only at fsync or close; either way nothing is renamed. */
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        st = cls__fail(NULL, CLS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    if (close(fd) != 0 && st == CLS_SUCCESS)
        st = cls__fail(NULL, CLS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    if (st == CLS_SUCCESS && rename(tmp, path) != 0)
        st = cls__fail(NULL, CLS_ERR_IO, "%s: cannot rename the temporary file into place: %s",
                       path, strerror(errno));
    if (st != CLS_SUCCESS) unlink(tmp);
    free(tmp);
    return st;
}

void cls__temp_discard(int fd, char *tmp)
{
    if (fd >= 0) close(fd);
    if (tmp) unlink(tmp);
    free(tmp);
}

cls_status cls__write_file(const char *path, const void *a, size_t alen, const void *b,
                           size_t blen)
{
    char *tmp = NULL;
    int fd = cls__temp_create(path, &tmp);
    if (fd < 0)
        return cls__fail(NULL, CLS_ERR_IO, "%s: cannot create a temporary file beside it: %s",
                         path, strerror(errno));
    if ((alen && cls__write_all(fd, a, alen) != 0) || (blen && cls__write_all(fd, b, blen) != 0)) {
        cls_status st = cls__fail(NULL, CLS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        cls__temp_discard(fd, tmp);
        return st;
    }
    return cls__temp_commit(fd, tmp, path);
}

cls_status cls_file_write(const char *path, const void *data, size_t len)
{
    if (!path || !*path || (!data && len))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_file_write: no path or no data");
    return cls__write_file(path, data, len, NULL, 0);
}

cls_status cls_file_check_writable(const char *path)
{
    struct stat sb;
    char *tmp = NULL;
    if (!path || !*path)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_file_check_writable: no path");
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return cls__fail(NULL, CLS_ERR_IO, "%s: is a folder, not a file", path);
    /* The one sure test: create the temporary a write would create, and remove it. */
    int fd = cls__temp_create(path, &tmp);
    if (fd < 0)
        return cls__fail(NULL, CLS_ERR_IO, "%s: cannot be written: %s", path, strerror(errno));
    cls__temp_discard(fd, tmp);
    return CLS_SUCCESS;
}
