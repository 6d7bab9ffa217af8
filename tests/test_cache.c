/* test_cache.c: the program cache: memory and disk hits, corrupted files, CLSTENCIL_CACHE=off, build logs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static const char *SRC =
    "__kernel void scale(__global float *a, float s)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    a[i] = a[i] * s + OFFSET;\n"
    "}\n";
static const char *OPT = "-D OFFSET=1.0f";

/* Number of directory entries other than . and ..; *clbin gets the path of the last .clbin. */
static int dir_entries(const char *dir, char *clbin, size_t cap)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        n++;
        size_t l = strlen(e->d_name);
        if (clbin && l > 6 && strcmp(e->d_name + l - 6, ".clbin") == 0)
            snprintf(clbin, cap, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            remove_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Runs scale(a, 2) on 64 elements a[i] = i and checks a[i] == 2i + 1. */
static int program_works(cls_context *ctx, cl_program prog)
{
    enum { N = 64 };
    float host[N];
    cl_int err = CL_SUCCESS;
    int ok = 0;
    for (int i = 0; i < N; i++) host[i] = (float)i;
    cl_kernel k = clCreateKernel(prog, "scale", &err);
    if (err != CL_SUCCESS) return 0;
    cl_mem buf = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host,
                                host, &err);
    if (err != CL_SUCCESS) goto out;
    float s = 2.0f;
    size_t global = N;
    if (clSetKernelArg(k, 0, sizeof buf, &buf) != CL_SUCCESS ||
        clSetKernelArg(k, 1, sizeof s, &s) != CL_SUCCESS ||
        clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL) !=
            CL_SUCCESS)
        goto out;
    ok = 1;
    for (int i = 0; i < N; i++)
        if (host[i] != 2.0f * (float)i + 1.0f) ok = 0;
out:
    if (buf) clReleaseMemObject(buf);
    clReleaseKernel(k);
    return ok;
}

/* A multi-line message as TAP comments, one "# " per line. */
static void diag_lines(const char *msg)
{
    while (*msg) {
        size_t n = strcspn(msg, "\n");
        if (n) tap_diag("%.*s", (int)n, msg);
        msg += n;
        if (*msg) msg++;
    }
}

/* Corruptions of a cache file. */
enum {
    TRUNC_HEADER, TRUNC_PAYLOAD, FLIP_PAYLOAD, GARBAGE_HEADER, WRONG_KEY, EMPTY, BAD_BINARY,
    FNV_REHASH, NCORRUPT
};
static const char *corrupt_name[] = {"truncated in the header", "truncated in the payload",
                                     "payload bytes flipped", "garbage header",
                                     "key field changed", "empty file",
                                     "garbage binary with a valid header and payload digest",
                                     "payload altered and re-hashed with FNV"};

/* The entry layout of lib/program.c: a 128-byte header, the key at 16, the payload's length
 * at 80 and its SHA-256 at 88. */
enum { HDR = 128, AT_KEY = 16, AT_LEN = 80, AT_DIGEST = 88 };

static int corrupt(const char *path, int how)
{
    long size = file_size(path);
    if (size < HDR + 16) return -1;
    FILE *f;
    switch (how) {
    case TRUNC_HEADER: return truncate(path, 20);
    case TRUNC_PAYLOAD: return truncate(path, HDR + (size - HDR) / 2);
    case EMPTY: return truncate(path, 0);
    case FNV_REHASH: {
        /* The forgery a non-cryptographic digest would let through: alter the payload and write
         * the FNV-1a of the altered payload over the digest's first 8 bytes (its length
         * unchanged); the SHA-256 check must refuse it. */
        unsigned char *all = malloc((size_t)size);
        f = all ? fopen(path, "rb") : NULL;
        if (!f) {
            free(all);
            return -1;
        }
        size_t got = fread(all, 1, (size_t)size, f);
        fclose(f);
        for (long i = HDR; i < size; i += 97) all[i] ^= 0x5a;
        uint64_t h = cls__hash(CLS__FNV_SEED, all + HDR, (size_t)(size - HDR));
        memcpy(all + AT_DIGEST, &h, 8);
        f = got == (size_t)size ? fopen(path, "wb") : NULL;
        int r = f && fwrite(all, 1, (size_t)size, f) == (size_t)size ? 0 : -1;
        free(all);
        return f && fclose(f) == 0 ? r : -1;
    }
    case BAD_BINARY: {
        /* Keep the header (key, text digest) but replace the payload by garbage whose length
         * and digest are right: only the driver can tell it is not a program. */
        unsigned char hdr[HDR], junk[4096];
        for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 131 + 17);
        f = fopen(path, "rb");
        if (!f) return -1;
        size_t got = fread(hdr, 1, sizeof hdr, f);
        fclose(f);
        if (got != sizeof hdr) return -1;
        uint64_t len = sizeof junk;
        memcpy(hdr + AT_LEN, &len, 8);
        cls__sha256_of(junk, sizeof junk, hdr + AT_DIGEST);
        f = fopen(path, "wb");
        if (!f) return -1;
        int r = fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr && fwrite(junk, 1, sizeof junk, f) ==
                                                                   sizeof junk
                    ? 0
                    : -1;
        return fclose(f) == 0 ? r : -1;
    }
    case FLIP_PAYLOAD:
    case GARBAGE_HEADER:
    case WRONG_KEY: {
        /* Payload: 16 bytes inverted mid-way; header: 16 bytes of garbage at 0; key: 8 of
         * its bytes inverted. */
        long at = how == FLIP_PAYLOAD ? HDR + (size - HDR) / 2 : how == WRONG_KEY ? AT_KEY : 0;
        size_t len = how == WRONG_KEY ? 8 : 16;
        unsigned char b[16];
        f = fopen(path, "r+b");
        if (!f) return -1;
        int r = fseek(f, at, SEEK_SET) == 0 && fread(b, 1, len, f) == len ? 0 : -1;
        for (size_t i = 0; i < len; i++)
            b[i] = how == GARBAGE_HEADER ? (unsigned char)(0x5a + 7 * i) : (unsigned char)~b[i];
        if (r == 0 && (fseek(f, at, SEEK_SET) != 0 || fwrite(b, 1, len, f) != len)) r = -1;
        return fclose(f) == 0 ? r : -1;
    }
    }
    return -1;
}

/* FIPS 180-2's test vectors (Appendix B) and the same digests fed in odd pieces. */
static void sha256_vectors(void)
{
    static const struct {
        const char *text, *hex;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    unsigned char d[32];
    char hex[65];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cls__sha256_of(v[i].text, strlen(v[i].text), d);
        for (int k = 0; k < 32; k++) snprintf(hex + 2 * k, 3, "%02x", d[k]);
        tap_ok(!strcmp(hex, v[i].hex), "SHA-256 of '%s' is FIPS 180-2's", v[i].text);
    }
    /* One million 'a', in pieces of 1 to 97 bytes. */
    static char a[1000000];
    memset(a, 'a', sizeof a);
    cls__sha256 s;
    cls__sha256_init(&s);
    for (size_t at = 0, step = 1; at < sizeof a; at += step, step = step % 97 + 1)
        cls__sha256_update(&s, a + at, at + step <= sizeof a ? step : sizeof a - at);
    cls__sha256_final(&s, d);
    for (int k = 0; k < 32; k++) snprintf(hex + 2 * k, 3, "%02x", d[k]);
    tap_ok(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
           "SHA-256 of a million 'a' fed in pieces is FIPS 180-2's");
}

/* The entry file a program gets: the SHA-256 of what lib/program.c puts in its key, the
 * library's version among them (a new release must not load an old release's binaries). */
static void entry_path(char *out, size_t cap, const char *dir, const cls_context *ctx,
                       const char *version, const char *options, const char *source)
{
    const char *parts[] = {"libclstencil program cache v2", version, ctx->info.name,
                           ctx->info.vendor, ctx->info.driver_version, ctx->info.device_version,
                           ctx->info.platform_name, options, source};
    cls__sha256 s;
    unsigned char d[32];
    cls__sha256_init(&s);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        cls__sha256_update(&s, parts[i], strlen(parts[i]) + 1);
    cls__sha256_final(&s, d);
    int n = snprintf(out, cap, "%s/", dir);
    for (int k = 0; k < 32 && n > 0 && (size_t)n + 3 < cap; k++)
        n += snprintf(out + n, cap - (size_t)n, "%02x", d[k]);
    if (n > 0 && (size_t)n + 7 < cap) strcat(out, ".clbin");
}

static void set_age(const char *path, long seconds_ago)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= seconds_ago;
    t[1] = t[0];
    utimensat(AT_FDCWD, path, t, 0);
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* The size cap: least recently used entries go first, a hit counts as a use, stale
 * temporaries are removed, and nothing else in the folder is touched. */
static void eviction_test(const char *root)
{
    char dir[1100], pa[1400], pb[1400], pc[1400], pd[1400], stale[1500], other[1400];
    static const char *opts[4] = {"-D OFFSET=1.0f", "-D OFFSET=2.0f", "-D OFFSET=3.0f",
                                  "-D OFFSET=4.0f"};
    char *paths[4] = {pa, pb, pc, pd};
    snprintf(dir, sizeof dir, "%s/lru", root);
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    cls_context *ctx = NULL;
    cl_program p = NULL;
    int from = -1;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_ok(0, "context for the eviction test");
        return;
    }
    for (int i = 0; i < 4; i++) entry_path(paths[i], 1400, dir, ctx, cls_version(), opts[i], SRC);
    entry_path(other, sizeof other, dir, ctx, "0.0-another-release", opts[0], SRC);
    cls_status st = cls__program_get(ctx, SRC, opts[0], &p, &from);
    tap_ok(st == CLS_SUCCESS && exists(pa) && strcmp(pa, other),
           "the entry is named by the digest of its key, the library version included");
    /* Caps that hold two entries, not three (binaries differ a little in size). */
    char cap[64];
    st = cls__program_get(ctx, SRC, opts[1], &p, &from);
    snprintf(cap, sizeof cap, "%ld", file_size(pa) + file_size(pb) * 3 / 2);
    setenv("CLSTENCIL_CACHE_MAX", cap, 1);
    set_age(pa, 1000);
    set_age(pb, 900);
    snprintf(stale, sizeof stale, "%s.tmp-0123456789abcdef", pd);
    FILE *f = fopen(stale, "w");
    if (f) fclose(f);
    set_age(stale, 7200);
    snprintf(pd + strlen(dir), 16, "/keep.txt");
    f = fopen(pd, "w");
    if (f) fclose(f);
    set_age(pd, 5000);
    st = cls__program_get(ctx, SRC, opts[2], &p, &from);
    tap_ok(st == CLS_SUCCESS && !exists(pa) && exists(pb) && exists(pc),
           "over the cap (%s bytes) the least recently used entry is evicted", cap);
    tap_ok(!exists(stale) && exists(pd), "a stale temporary is removed, other files are not");
    unlink(pd);
    entry_path(pd, sizeof pd, dir, ctx, cls_version(), opts[3], SRC);
    /* A hit from another context is a use: b becomes the most recent, c the oldest. */
    set_age(pb, 800);
    set_age(pc, 700);
    snprintf(cap, sizeof cap, "%ld", file_size(pb) + file_size(pc) * 3 / 2);
    setenv("CLSTENCIL_CACHE_MAX", cap, 1);
    cls_context *ctx2 = NULL;
    if (cls_context_create(NULL, &ctx2) == CLS_SUCCESS) {
        st = cls__program_get(ctx2, SRC, opts[1], &p, &from);
        tap_ok(st == CLS_SUCCESS && from == 1, "a disk hit (%d)", from);
        st = cls__program_get(ctx2, SRC, opts[3], &p, &from);
        tap_ok(st == CLS_SUCCESS && exists(pb) && !exists(pc) && exists(pd),
               "the hit kept its entry; the older one went");
    }
    cls_context_release(ctx2);
    setenv("CLSTENCIL_CACHE_MAX", "0", 1);
    cls__program_cache_clear(ctx);
    st = cls__program_get(ctx, SRC, "-D OFFSET=1.0f  ", &p, &from);
    tap_ok(st == CLS_SUCCESS && program_works(ctx, p) && dir_entries(dir, NULL, 0) == 2,
           "CLSTENCIL_CACHE_MAX=0 stores nothing, and the program still runs");
    unsetenv("CLSTENCIL_CACHE_MAX");
    cls_context_release(ctx);

    static const struct {
        const char *text;
        uint64_t bytes;
    } caps[] = {{"4096", 4096},       {"64K", 65536},          {"3M", 3u << 20},
                {"2G", 2ull << 30},   {"1GiB", 1ull << 30},    {"0", 0},
                {"lots", 256u << 20}, {"-5", 256u << 20},      {"12Q", 256u << 20}};
    int ok = 1;
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        setenv("CLSTENCIL_CACHE_MAX", caps[i].text, 1);
        if (cls__cache_max() != caps[i].bytes) {
            tap_diag("CLSTENCIL_CACHE_MAX=%s gave %llu", caps[i].text,
                     (unsigned long long)cls__cache_max());
            ok = 0;
        }
    }
    unsetenv("CLSTENCIL_CACHE_MAX");
    tap_ok(ok && cls__cache_max() == 256u << 20,
           "CLSTENCIL_CACHE_MAX: bytes with K, M, G suffixes; 256 MiB by default and for "
           "nonsense");
}

/* A cache folder others may write to is not used: its entries could be planted. */
static void trust_test(const char *root)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/open", root);
    mkdir(dir, 0700);
    chmod(dir, 0777);
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    char *cd = cls__cache_dir();
    tap_ok(cd == NULL, "a world-writable cache folder is not used");
    free(cd);
    chmod(dir, 0700);
    cd = cls__cache_dir();
    tap_ok(cd != NULL, "the same folder closed to others is");
    free(cd);
}

/* Child process of the concurrency test: repeatedly fetch the program with the memory cache
 * dropped (so every round reads, and sometimes writes, the shared disk cache). */
static int child(void)
{
    cls_context *ctx = NULL;
    cl_program p = NULL;
    int from = -1, bad = 0;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) return 2;
    for (int round = 0; round < 8 && !bad; round++) {
        cls__program_cache_clear(ctx);
        if (cls__program_get(ctx, SRC, OPT, &p, &from) != CLS_SUCCESS || !program_works(ctx, p))
            bad = 1;
    }
    cls_context_release(ctx);
    return bad;
}

/* Several processes share one fresh cache folder at once. */
static void concurrency_test(const char *self, const char *root)
{
    enum { NPROC = 4 };
    char cdir[1100];
    snprintf(cdir, sizeof cdir, "%s/shared", root);
    setenv("CLSTENCIL_CACHE_DIR", cdir, 1);
    pid_t pids[NPROC];
    int ok = 1;
    for (int i = 0; i < NPROC; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            execl(self, self, "--child", (char *)NULL);
            _exit(127);
        }
        if (pids[i] < 0) ok = 0;
    }
    for (int i = 0; i < NPROC; i++) {
        int status = 0;
        if (pids[i] > 0 && (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
                            WEXITSTATUS(status) != 0)) {
            tap_diag("child %d: status %#x", i, status);
            ok = 0;
        }
    }
    tap_ok(ok, "%d processes sharing one cache folder all got working programs", NPROC);
    char clbin[1400] = "";
    tap_ok(dir_entries(cdir, clbin, sizeof clbin) == 1 && clbin[0],
           "and left exactly one cache file (no temporaries)");
    cls_context *ctx = NULL;
    cl_program p = NULL;
    int from = -1;
    if (cls_context_create(NULL, &ctx) == CLS_SUCCESS) {
        cls_status st = cls__program_get(ctx, SRC, OPT, &p, &from);
        tap_ok(st == CLS_SUCCESS && from == 1 && program_works(ctx, p),
               "the shared file is a valid disk hit (%d)", from);
    }
    cls_context_release(ctx);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();

    cls_device_info info;
    cls_status st = cls_device_select(NULL, &info);
    if (st == CLS_ERR_NO_PLATFORM || st == CLS_ERR_NO_DEVICE) {
        diag_lines(cls_last_error());
        tap_skip("program cache tests", "no OpenCL device");
        return tap_done();
    }

    const char *tmpbase = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char root[1024];
    snprintf(root, sizeof root, "%s/cls-cache-test-XXXXXX", tmpbase);
    if (!mkdtemp(root)) {
        tap_ok(0, "mkdtemp %s: %s", root, strerror(errno));
        return tap_done();
    }
    char dir[1100], clbin[1400] = "";
    snprintf(dir, sizeof dir, "%s/cache", root); /* created by the library (mkdir -p) */
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    unsetenv("CLSTENCIL_CACHE");

    /* cls__cache_dir and its fallbacks. */
    char *cd = cls__cache_dir();
    struct stat sb;
    tap_ok(cd && strcmp(cd, dir) == 0 && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
               (sb.st_mode & 0777) == 0700,
           "cls__cache_dir creates $CLSTENCIL_CACHE_DIR with mode 0700");
    free(cd);
    {
        char *save_xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
        char *save_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
        char want[1400];
        unsetenv("CLSTENCIL_CACHE_DIR");
        snprintf(want, sizeof want, "%s/xdg", root);
        setenv("XDG_CACHE_HOME", want, 1);
        strcat(want, "/libclstencil");
        cd = cls__cache_dir();
        tap_ok(cd && strcmp(cd, want) == 0 && stat(want, &sb) == 0,
               "without CLSTENCIL_CACHE_DIR: $XDG_CACHE_HOME/libclstencil (%s)", cd ? cd : "NULL");
        free(cd);
        unsetenv("XDG_CACHE_HOME");
        snprintf(want, sizeof want, "%s/home", root);
        setenv("HOME", want, 1);
        strcat(want, "/.cache/libclstencil");
        cd = cls__cache_dir();
        tap_ok(cd && strcmp(cd, want) == 0 && stat(want, &sb) == 0,
               "without XDG_CACHE_HOME: $HOME/.cache/libclstencil (%s)", cd ? cd : "NULL");
        free(cd);
        const char *offs[] = {"off", "OFF", "0", "no", "false"};
        int all_null = 1;
        for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
            setenv("CLSTENCIL_CACHE", offs[i], 1);
            cd = cls__cache_dir();
            if (cd) all_null = 0;
            free(cd);
        }
        unsetenv("CLSTENCIL_CACHE");
        tap_ok(all_null, "CLSTENCIL_CACHE=off/OFF/0/no/false disables the disk cache");
        if (save_xdg) setenv("XDG_CACHE_HOME", save_xdg, 1);
        if (save_home) setenv("HOME", save_home, 1);
        else unsetenv("HOME");
        free(save_xdg);
        free(save_home);
        setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    }

    /* First build, then memory hit, then disk hit from a second context. */
    cls_context *ctx = NULL, *ctx2 = NULL;
    cl_program p1 = NULL, p2 = NULL;
    int from = -1;
    st = cls_context_create(NULL, &ctx);
    if (!tap_ok(st == CLS_SUCCESS, "context created")) {
        diag_lines(cls_last_error());
        remove_tree(root);
        return tap_done();
    }
    tap_diag("device: %s (%s)", ctx->info.name, ctx->info.platform_name);
    st = cls__program_get(ctx, SRC, OPT, &p1, &from);
    if (!tap_ok(st == CLS_SUCCESS && p1 && from == 0, "first get builds from source (from_cache %d)",
                from))
        diag_lines(cls_last_error());
    tap_ok(dir_entries(dir, clbin, sizeof clbin) == 1 && clbin[0],
           "one .clbin file written, no temporary left: %s", clbin);
    long size0 = file_size(clbin);
    tap_ok(size0 > HDR, "the file holds a header and a binary (%ld bytes)", size0);
    tap_ok(program_works(ctx, p1), "the built program runs correctly");
    st = cls__program_get(ctx, SRC, OPT, &p2, &from);
    tap_ok(st == CLS_SUCCESS && p2 == p1 && from == 2, "same context: in-memory hit (%d)", from);
    st = cls__program_get(ctx, SRC, "-D OFFSET=1.0f ", &p2, &from);
    tap_ok(st == CLS_SUCCESS && p2 != p1 && from == 0, "other options text: another build (%d)",
           from);
    tap_ok(dir_entries(dir, NULL, 0) == 2, "and another cache file");

    st = cls_context_create(NULL, &ctx2);
    tap_ok(st == CLS_SUCCESS, "second context");
    if (ctx2) {
        st = cls__program_get(ctx2, SRC, OPT, &p2, &from);
        if (!tap_ok(st == CLS_SUCCESS && from == 1, "second context: disk hit (from_cache %d)", from))
            diag_lines(cls_last_error());
        tap_ok(program_works(ctx2, p2), "the program loaded from the binary runs correctly");
        st = cls__program_get(ctx2, SRC, OPT, &p2, &from);
        tap_ok(st == CLS_SUCCESS && from == 2, "then an in-memory hit (%d)", from);

        /* Corrupted files are never used: rebuilt, working, rewritten valid. */
        for (int how = 0; how < NCORRUPT; how++) {
            cls__program_cache_clear(ctx2);
            if (!tap_ok(corrupt(clbin, how) == 0, "corrupt the file: %s", corrupt_name[how]))
                continue;
            st = cls__program_get(ctx2, SRC, OPT, &p2, &from);
            if (!tap_ok(st == CLS_SUCCESS && from == 0, "%s: rebuilt from source (from_cache %d)",
                        corrupt_name[how], from))
                diag_lines(cls_last_error());
            tap_ok(st == CLS_SUCCESS && program_works(ctx2, p2), "%s: the program works",
                   corrupt_name[how]);
            cls__program_cache_clear(ctx2);
            st = cls__program_get(ctx2, SRC, OPT, &p2, &from);
            /* (PoCL's binaries grow once kernels ran: compare validity, not sizes.) */
            tap_ok(st == CLS_SUCCESS && from == 1 && file_size(clbin) > HDR &&
                       dir_entries(dir, NULL, 0) == 2,
                   "%s: the file was rewritten valid (disk hit %d)", corrupt_name[how], from);
        }

        /* A file that is not ours at all and an unreadable directory entry. */
        cls__program_cache_clear(ctx2);
        unlink(clbin);
        tap_ok(mkdir(clbin, 0700) == 0, "replace the file by a directory");
        st = cls__program_get(ctx2, SRC, OPT, &p2, &from);
        tap_ok(st == CLS_SUCCESS && from == 0 && program_works(ctx2, p2),
               "a directory in the file's place: built from source, no error (%d)", from);
        rmdir(clbin);
    }

    /* CLSTENCIL_CACHE=off: nothing written. */
    {
        char dir2[1100];
        snprintf(dir2, sizeof dir2, "%s/off", root);
        mkdir(dir2, 0700);
        setenv("CLSTENCIL_CACHE_DIR", dir2, 1);
        setenv("CLSTENCIL_CACHE", "off", 1);
        cls_context *c3 = NULL;
        st = cls_context_create(NULL, &c3);
        if (st == CLS_SUCCESS) {
            st = cls__program_get(c3, SRC, OPT, &p2, &from);
            tap_ok(st == CLS_SUCCESS && from == 0 && program_works(c3, p2),
                   "CLSTENCIL_CACHE=off: built from source");
            tap_ok(dir_entries(dir2, NULL, 0) == 0, "CLSTENCIL_CACHE=off: nothing written");
        }
        cls_context_release(c3);
        unsetenv("CLSTENCIL_CACHE");
        setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    }

    /* Build failures carry the compiler's words. */
    {
        static const char *BAD = "__kernel void bad(__global float *a)\n"
                                 "{\n"
                                 "    a[0] = undeclared_thing_xyz;\n"
                                 "}\n";
        int before = dir_entries(dir, NULL, 0);
        cl_program bad = (cl_program)1;
        st = cls__program_get(ctx, BAD, "", &bad, &from);
        tap_ok(st == CLS_ERR_BUILD_FAILED && bad == NULL, "a syntax error: CLS_ERR_BUILD_FAILED (%s)",
               cls_status_string(st));
        tap_ok(strstr(cls_last_error(), "undeclared_thing_xyz") != NULL &&
                   strstr(cls_last_error(), "build failed") != NULL,
               "cls_last_error() holds the build log");
        tap_ok(strstr(cls_context_last_error(ctx), "undeclared_thing_xyz") != NULL,
               "and so does cls_context_last_error()");
        diag_lines(cls_last_error());
        tap_ok(dir_entries(dir, NULL, 0) == before, "nothing cached for a failed build");
        st = cls__program_get(ctx, SRC, "-cl-no-such-option", &bad, &from);
        /* PoCL answers CL_INVALID_BUILD_OPTIONS, NVIDIA CL_BUILD_PROGRAM_FAILURE: both name
         * the option in the log. */
        tap_ok(st == CLS_ERR_BUILD_FAILED && strstr(cls_last_error(), "no-such-option"),
               "bad build options: CLS_ERR_BUILD_FAILED naming the option");
        diag_lines(cls_last_error());
        st = cls__program_get(ctx, NULL, "", &bad, &from);
        tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "NULL source is rejected");
        /* The context is still usable afterwards. */
        st = cls__program_get(ctx, SRC, OPT, &p1, &from);
        tap_ok(st == CLS_SUCCESS && from == 2, "earlier programs still cached in memory");
    }

    /* Kernel sources: embedded, or read from CLSTENCIL_KERNEL_DIR. */
    {
        int owned = -1;
        unsetenv("CLSTENCIL_KERNEL_DIR");
        const char *k = cls__kernel_source("copy.cl", &owned);
        tap_ok(k && owned == 0 && strstr(k, "cls_copy"), "copy.cl is embedded");
        k = cls__kernel_source("no-such.cl", &owned);
        tap_ok(k == NULL && strstr(cls_last_error(), "no-such.cl"), "unknown embedded file: NULL");
        char kdir[1100], kpath[1200];
        snprintf(kdir, sizeof kdir, "%s/kernels", root);
        mkdir(kdir, 0700);
        snprintf(kpath, sizeof kpath, "%s/copy.cl", kdir);
        FILE *f = fopen(kpath, "w");
        if (f) {
            fputs("/* override */ __kernel void cls_copy(void) {}\n", f);
            fclose(f);
        }
        setenv("CLSTENCIL_KERNEL_DIR", kdir, 1);
        k = cls__kernel_source("copy.cl", &owned);
        tap_ok(k && owned == 1 && strstr(k, "/* override */"),
               "CLSTENCIL_KERNEL_DIR: read from the folder, caller frees");
        if (owned == 1) free((void *)k);
        k = cls__kernel_source("naive.cl", &owned);
        tap_ok(k == NULL && owned == 0 && strstr(cls_last_error(), kdir) &&
                   strstr(cls_last_error(), "naive.cl"),
               "CLSTENCIL_KERNEL_DIR without the file: NULL and the path in the error (%s)",
               cls_last_error());
        unsetenv("CLSTENCIL_KERNEL_DIR");
    }

    cls_context_release(ctx2);
    cls_context_release(ctx);
    sha256_vectors();
    eviction_test(root);
    trust_test(root);
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    concurrency_test(argv[0], root);
    remove_tree(root);
    return tap_done();
}
