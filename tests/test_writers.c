/* test_writers.c: every file writer of the library (.npy, raw, images, cls_file_write, device
 * models) against a planted symlink at a predictable temporary name, and against a full disk (a
 * file-size limit, RLIMIT_FSIZE, makes every write past it fail as a full disk would, without
 * root): each reports a clear error, leaves the destination as it was and no temporary behind, and
 * never writes through the link. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "clstencil_image.h"
#include "tap.h"

static char dir[64];

static char *at(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static int put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

static char *get(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    buf[fread(buf, 1, sizeof buf - 1, f)] = 0;
    fclose(f);
    return buf;
}

/* Entries of the folder other than the given names (a leftover temporary). */
static int strays(const char *keep1, const char *keep2)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if ((keep1 && !strcmp(e->d_name, keep1)) || (keep2 && !strcmp(e->d_name, keep2))) continue;
        tap_diag("stray file %s", e->d_name);
        n++;
    }
    if (d) closedir(d);
    return n;
}

static void clear_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(at(e->d_name));
    if (d) closedir(d);
}

typedef cls_status (*writer_fn)(const char *path, size_t big);

static float grid[1 << 16];

static cls_status w_npy(const char *path, size_t big)
{
    size_t shape[3] = {big ? 1 << 16 : 4, 1, 1};
    return cls_npy_write(path, grid, CLS_FLOAT32, 1, shape);
}
static cls_status w_raw(const char *path, size_t big)
{
    return cls_raw_write(path, grid, CLS_FLOAT32, big ? 1 << 16 : 4);
}
static cls_status w_file(const char *path, size_t big)
{
    return cls_file_write(path, grid, big ? sizeof grid : 16);
}
static cls_status w_image(const char *path, size_t big)
{
    cls_image *img = NULL;
    size_t side = big ? 256 : 4;
    cls_status st = cls_image_create(side, side, 1, &img);
    /* Noise (xorshift), so that PNG's compression cannot shrink the file below the limit. */
    uint32_t x = 2463534242u;
    for (size_t i = 0; st == CLS_SUCCESS && i < side * side; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        img->data[i] = (float)(x & 255) / 255.0f;
    }
    if (st == CLS_SUCCESS) st = cls_image_write(path, img);
    cls_image_release(img);
    return st;
}
static cls_status w_model(const char *path, size_t big)
{
    cls_model *m = NULL;
    cls_status st = cls_model_load(big ? "h100_probe" : "gtx280", &m);
    /* A long source text makes the file larger still. */
    static char src[1000];
    memset(src, 'x', sizeof src - 1);
    src[big ? sizeof src - 1 : 8] = 0;
    if (st == CLS_SUCCESS) st = cls_model_set_source(m, src);
    if (st == CLS_SUCCESS) st = cls_model_save(m, path);
    cls_model_release(m);
    return st;
}

static const struct {
    const char *name, *file;
    writer_fn fn;
} writers[] = {
    {"cls_npy_write", "out.npy", w_npy},      {"cls_raw_write", "out.raw", w_raw},
    {"cls_file_write", "out.bin", w_file},    {"cls_image_write (PNG)", "out.png", w_image},
    {"cls_image_write (PGM)", "out.pgm", w_image}, {"cls_model_save", "out.json", w_model},
};
#define N_WRITERS (sizeof writers / sizeof writers[0])

/* Symlinks at OUT.tmp.<pid> and OUT.tmp.<pid>.1 (names anyone can predict from the destination
 * and the process id) pointing at a victim: the write succeeds, the victim keeps its text. */
static void planted_links(void)
{
    for (size_t w = 0; w < N_WRITERS; w++) {
        char link1[600], link2[600];
        clear_dir();
        put(at("victim"), "precious");
        snprintf(link1, sizeof link1, "%s.tmp.%ld", at(writers[w].file), (long)getpid());
        snprintf(link2, sizeof link2, "%s.tmp.%ld.1", at(writers[w].file), (long)getpid());
        int planted = symlink(at("victim"), link1) == 0 && symlink(at("victim"), link2) == 0;
        cls_status st = writers[w].fn(at(writers[w].file), 0);
        const char *v = get(at("victim"));
        struct stat sb;
        unlink(link1);
        unlink(link2);
        tap_ok(planted && st == CLS_SUCCESS && v && !strcmp(v, "precious") &&
                   lstat(at(writers[w].file), &sb) == 0 && S_ISREG(sb.st_mode) &&
                   strays(writers[w].file, "victim") == 0,
               "%s writes past symlinks planted at predictable temporary names: %s",
               writers[w].name, st == CLS_SUCCESS ? "ok" : cls_last_error());
        /* A symlink at the destination itself is replaced, not written through. */
        unlink(at(writers[w].file));
        symlink(at("victim"), at(writers[w].file));
        st = writers[w].fn(at(writers[w].file), 0);
        v = get(at("victim"));
        tap_ok(st == CLS_SUCCESS && v && !strcmp(v, "precious") &&
                   lstat(at(writers[w].file), &sb) == 0 && S_ISREG(sb.st_mode),
               "%s replaces a symlink at the destination instead of following it",
               writers[w].name);
    }
}

/* Under a 4 KiB file-size limit a large write fails like one on a full disk. */
static void full_disk(void)
{
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 4096;
    signal(SIGXFSZ, SIG_IGN);
    for (size_t w = 0; w < N_WRITERS; w++) {
        clear_dir();
        put(at(writers[w].file), "old contents");
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
            tap_skip(writers[w].name, "cannot lower RLIMIT_FSIZE");
            continue;
        }
        cls_status st = writers[w].fn(at(writers[w].file), 1);
        setrlimit(RLIMIT_FSIZE, &old);
        const char *v = get(at(writers[w].file));
        tap_ok(st != CLS_SUCCESS && strstr(cls_last_error(), writers[w].file) && v &&
                   !strcmp(v, "old contents") && strays(writers[w].file, NULL) == 0,
               "%s on a full disk fails, naming the file, and leaves the old one: %s",
               writers[w].name, cls_last_error());
    }
    signal(SIGXFSZ, SIG_DFL);
}

/* An unwritable folder: the error names the file, nothing is created. */
static void unwritable(void)
{
    for (size_t w = 0; w < N_WRITERS; w++) {
        char path[600];
        snprintf(path, sizeof path, "%s/no/such/folder/%s", dir, writers[w].file);
        cls_status st = writers[w].fn(path, 0);
        tap_ok(st != CLS_SUCCESS && strstr(cls_last_error(), "no/such/folder"),
               "%s into a missing folder fails, naming it: %s", writers[w].name,
               cls_last_error());
    }
}

static void mode_follows_umask(void)
{
    mode_t old = umask(027);
    struct stat sb;
    clear_dir();
    cls_status st = w_npy(at("m.npy"), 0);
    umask(old);
    tap_ok(st == CLS_SUCCESS && stat(at("m.npy"), &sb) == 0 && (sb.st_mode & 0777) == 0640,
           "a written file gets 0666 less the umask (0640 under 027), got %o",
           (unsigned)(sb.st_mode & 0777));
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s", "/tmp/cls-writers-XXXXXX");
    if (!mkdtemp(dir)) {
        tap_ok(0, "mkdtemp: %s", strerror(errno));
        return tap_done();
    }
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++) grid[i] = (float)i;
    planted_links();
    full_disk();
    unwritable();
    mode_follows_umask();
    clear_dir();
    rmdir(dir);
    return tap_done();
}
