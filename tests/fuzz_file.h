/* fuzz_file.h: inputs handed to the library's file readers by path, without touching the disk:
 * an in-memory file (memfd) read back through /proc/self/fd/N, rewritten for every input.
 * Where memfd is missing, a temporary file in $TMPDIR stands in.  Also a private temporary
 * folder for the writers of round-trip checks.  The library gains no memory-reading API.
 * Include it before any system header (it asks for _GNU_SOURCE). */
#ifndef CLS_FUZZ_FILE_H
#define CLS_FUZZ_FILE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, mkdtemp */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int fuzz_fd = -1;
static char fuzz_path[4096], fuzz_tmp_dir[4096], fuzz_tmp_file[4096];

static void fuzz_file_cleanup(void)
{
    if (fuzz_tmp_file[0]) unlink(fuzz_tmp_file);
    if (fuzz_tmp_dir[0]) rmdir(fuzz_tmp_dir);
}

/* The path of a file holding exactly data[0..size), or NULL when it could not be written. */
static const char *fuzz_file(const uint8_t *data, size_t size)
{
    if (fuzz_fd < 0) {
        const char *t = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        fuzz_fd = memfd_create("clstencil-fuzz", 0);
        if (fuzz_fd >= 0) {
            snprintf(fuzz_path, sizeof fuzz_path, "/proc/self/fd/%d", fuzz_fd);
        } else {
            snprintf(fuzz_tmp_file, sizeof fuzz_tmp_file, "%s/clstencil-fuzz.XXXXXX", t);
            if ((fuzz_fd = mkstemp(fuzz_tmp_file)) < 0) return NULL;
            snprintf(fuzz_path, sizeof fuzz_path, "%s", fuzz_tmp_file);
        }
        atexit(fuzz_file_cleanup);
    }
    if (ftruncate(fuzz_fd, 0) != 0) return NULL;
    for (size_t done = 0; done < size;) {
        ssize_t w = pwrite(fuzz_fd, data + done, size - done, (off_t)done);
        if (w <= 0) return NULL;
        done += (size_t)w;
    }
    return fuzz_path;
}

/* A folder of this process's own for files the writers create (removed at exit when empty). */
static const char *fuzz_dir(void)
{
    if (!fuzz_tmp_dir[0]) {
        const char *t = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(fuzz_tmp_dir, sizeof fuzz_tmp_dir, "%s/clstencil-fuzz.XXXXXX", t);
        if (!mkdtemp(fuzz_tmp_dir)) {
            fuzz_tmp_dir[0] = '\0';
            return NULL;
        }
        if (fuzz_fd < 0) atexit(fuzz_file_cleanup);
    }
    return fuzz_tmp_dir;
}

#endif
