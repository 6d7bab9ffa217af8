/* program.c: OpenCL program build with an in-memory cache per context and a validated on-disk binary cache. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <fcntl.h>
#include <unistd.h>

#include "files.h"
#include "internal.h"

/* Bump when the file layout or the key's ingredients change: old files then simply miss (and
 * age out under the size cap). */
#define CLS__CACHE_FORMAT "libclstencil program cache v2"
#define CLS__CACHE_VERSION 2u
#define CLS__CACHE_MAGIC "CLSBIN02"
/* magic[8] version(u32) reserved(u32) key[32] text_digest[32] payload_len(u64, host order)
 * payload_digest[32] reserved[8]: SHA-256 digests, so that an entry whose payload was altered
 * (and re-hashed with anything weaker), truncated or written for other source is refused. */
#define CLS__HEADER_SIZE 128
#define OFF_KEY 16
#define OFF_TEXT 48
#define OFF_LEN 80
#define OFF_PAYLOAD 88
/* A sanity bound on what we read back. */
#define CLS__MAX_BINARY ((uint64_t)1 << 31)

struct cls__program_entry {
    uint64_t key; /* hash of options and source: a quick filter before the full comparison */
    char *source;
    char *options;
    cl_program program;
    cls__program_entry *next;
};

/* ------------------------------------------------------------------------------ hashing */
static uint64_t hash_str(uint64_t h, const char *s)
{
    return cls__hash(h, s, strlen(s) + 1); /* the NUL separates fields */
}

static uint64_t text_hash(const char *options, const char *source)
{
    uint64_t h = hash_str(CLS__FNV_SEED, "text");
    h = hash_str(h, options);
    return hash_str(h, source);
}

static void digest_str(cls__sha256 *s, const char *text)
{
    cls__sha256_update(s, text, strlen(text) + 1); /* the NUL separates fields */
}

/* The disk key: everything the binary depends on, the library's version included (a new
 * release may generate other code for the same stencil). */
static void disk_key(const cls_context *ctx, const char *options, const char *source,
                     unsigned char key[32])
{
    cls__sha256 s;
    cls__sha256_init(&s);
    digest_str(&s, CLS__CACHE_FORMAT);
    digest_str(&s, cls_version());
    digest_str(&s, ctx->info.name);
    digest_str(&s, ctx->info.vendor);
    digest_str(&s, ctx->info.driver_version);
    digest_str(&s, ctx->info.device_version);
    digest_str(&s, ctx->info.platform_name);
    digest_str(&s, options);
    digest_str(&s, source);
    cls__sha256_final(&s, key);
}

/* What the entry was built from, checked on load: a key that matched by accident (or was
 * copied onto another entry) is not enough. */
static void text_digest(const char *options, const char *source, unsigned char out[32])
{
    cls__sha256 s;
    cls__sha256_init(&s);
    digest_str(&s, "text");
    digest_str(&s, options);
    digest_str(&s, source);
    cls__sha256_final(&s, out);
}

static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, sizeof v); }
static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* ------------------------------------------------------------------------------ cache dir */
static int cache_disabled(void)
{
    const char *v = getenv("CLSTENCIL_CACHE");
    if (!v) return 0;
    return strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 ||
           strcasecmp(v, "false") == 0;
}

char *cls__cache_dir(void)
{
    if (cache_disabled()) return NULL;
    const char *dir = getenv("CLSTENCIL_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    char *path = NULL;
    size_t len = 0, cap = 0;
    int r;
    if (dir && *dir)
        r = cls__appendf(&path, &len, &cap, "%s", dir);
    else if (xdg && *xdg)
        r = cls__appendf(&path, &len, &cap, "%s/libclstencil", xdg);
    else if (home && *home)
        r = cls__appendf(&path, &len, &cap, "%s/.cache/libclstencil", home);
    else {
        cls__debug("program cache disabled: neither CLSTENCIL_CACHE_DIR, XDG_CACHE_HOME nor HOME is set");
        return NULL;
    }
    if (r != 0) {
        free(path);
        return NULL;
    }
    while (len > 1 && path[len - 1] == '/') path[--len] = '\0';
    if (cls__mkdirs(path, 0700) != 0) {
        cls__debug("program cache disabled: cannot create %s: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    /* Entries are loaded and run: a folder another user owns or anyone may write to could
     * hold entries planted by others, digests and all. */
    struct stat sb;
    if (stat(path, &sb) != 0 || sb.st_uid != geteuid() || (sb.st_mode & S_IWOTH)) {
        cls__debug("program cache disabled: %s is %s", path,
                   sb.st_uid != geteuid() ? "owned by another user" : "writable by anyone");
        free(path);
        return NULL;
    }
    return path;
}

/* ------------------------------------------------------------------------------ build log */
/* The program's build log on the context's device (malloc'd, NULL when the driver gives none). */
static char *build_log(cls_context *ctx, cl_program prog)
{
    size_t n = 0;
    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS ||
        n == 0)
        return NULL;
    char *log = malloc(n + 1);
    if (log && clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) !=
                   CL_SUCCESS) {
        free(log);
        return NULL;
    }
    if (log) log[n] = '\0';
    return log;
}

/* A failed build's error carries the build log, else what the driver printed while building. */
static cls_status build_failure(cls_context *ctx, cl_program prog, cl_int err,
                                const char *chatter)
{
    char *log = build_log(ctx, prog);
    cls_status st = cls__fail(ctx, CLS_ERR_BUILD_FAILED,
                              "OpenCL build failed on %s (%s) with %s:\n%s", ctx->info.name,
                              ctx->info.platform_name, cls_status_string(err),
                              log && *log ? log
                              : chatter   ? chatter
                                          : "(the driver gave no build log)");
    free(log);
    return st;
}

/* ------------------------------------------------------------------------------ disk cache */
static char *cache_path(const char *dir, const unsigned char key[32])
{
    char *path = NULL, hex[65];
    size_t len = 0, cap = 0;
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
    if (cls__appendf(&path, &len, &cap, "%s/%s.clbin", dir, hex) != 0) {
        free(path);
        return NULL;
    }
    return path;
}

/* Tries the disk cache; returns a built program or NULL (a miss).  A file that exists but
 * fails any check is removed so that the rebuild rewrites it. */
static cl_program cache_load(cls_context *ctx, const char *path, const unsigned char key[32],
                             const char *options, const char *source)
{
    size_t size = 0;
    char *text = NULL;
    unsigned char digest[32];
    cl_program prog = NULL;
    const char *why = NULL;
    /* Any failure is a miss; a missing file is the common case. */
    int miss = cls__read_file(path, CLS__MAX_BINARY + CLS__HEADER_SIZE, &text, &size) != 0;
    unsigned char *buf = (unsigned char *)text;
    if (miss) {
        cls__debug("program cache miss: %s", path);
        return NULL;
    }
    if (size < CLS__HEADER_SIZE) {
        why = "file shorter than its header";
        goto bad;
    }
    if (memcmp(buf, CLS__CACHE_MAGIC, 8) != 0) {
        why = "bad magic";
        goto bad;
    }
    if (get_u32(buf + 8) != CLS__CACHE_VERSION) {
        why = "other format version";
        goto bad;
    }
    if (memcmp(buf + OFF_KEY, key, 32) != 0) {
        why = "key mismatch";
        goto bad;
    }
    text_digest(options, source, digest);
    if (memcmp(buf + OFF_TEXT, digest, 32) != 0) {
        why = "built from other source or options";
        goto bad;
    }
    uint64_t plen = get_u64(buf + OFF_LEN);
    if (plen == 0 || plen != size - CLS__HEADER_SIZE) {
        why = "payload length mismatch (truncated file?)";
        goto bad;
    }
    const unsigned char *payload = buf + CLS__HEADER_SIZE;
    cls__sha256_of(payload, (size_t)plen, digest);
    if (memcmp(buf + OFF_PAYLOAD, digest, 32) != 0) {
        why = "payload digest mismatch (altered or corrupt)";
        goto bad;
    }

    cl_int err = CL_SUCCESS, bstatus = CL_SUCCESS;
    size_t blen = (size_t)plen;
    prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &blen, &payload, &bstatus, &err);
    if (err != CL_SUCCESS || bstatus != CL_SUCCESS || !prog) {
        why = "clCreateProgramWithBinary rejected the binary";
        goto bad;
    }
    char *chatter = NULL;
    err = cls__build_quiet(prog, ctx->device, options, &chatter);
    if (chatter) cls__debug("the driver said, loading %s:\n%s", path, chatter);
    free(chatter);
    if (err != CL_SUCCESS) {
        why = "clBuildProgram failed on the binary";
        goto bad;
    }
    free(buf);
    /* A hit is a use: the size cap evicts the least recently used entries first. */
    if (utimensat(AT_FDCWD, path, NULL, 0) != 0)
        cls__debug("cannot mark %s as used: %s", path, strerror(errno));
    cls__debug("program cache hit: %s", path);
    return prog;

bad:
    cls__debug("program cache entry %s rejected (%s); removing it and rebuilding", path, why);
    if (prog) clReleaseProgram(prog);
    free(buf);
    if (unlink(path) != 0 && errno != ENOENT)
        cls__debug("cannot remove %s: %s", path, strerror(errno));
    return NULL;
}

/* Stores the program's binary; best effort (failures are only logged). */
static void cache_store(cls_context *ctx, cl_program prog, const char *dir, const char *path,
                        const unsigned char key[32], const char *options, const char *source)
{
    cl_uint ndev = 0;
    size_t *sizes = NULL;
    unsigned char **bins = NULL;
    size_t mine = 0;
    const char *why = NULL;

    if (cls__cache_max() == 0) return; /* CLSTENCIL_CACHE_MAX=0: keep nothing */

    if (clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) != CL_SUCCESS ||
        ndev == 0) {
        why = "clGetProgramInfo(CL_PROGRAM_NUM_DEVICES) failed";
        goto out;
    }
    sizes = calloc(ndev, sizeof *sizes);
    bins = calloc(ndev, sizeof *bins);
    if (!sizes || !bins) {
        why = "out of memory";
        goto out;
    }
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, ndev * sizeof *sizes, sizes, NULL) !=
        CL_SUCCESS) {
        why = "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES) failed";
        goto out;
    }
    /* Our programs have one device; find it among the program's devices to be safe. */
    if (ndev > 1) {
        cl_device_id *devs = calloc(ndev, sizeof *devs);
        if (!devs || clGetProgramInfo(prog, CL_PROGRAM_DEVICES, ndev * sizeof *devs, devs, NULL) !=
                         CL_SUCCESS) {
            free(devs);
            why = "clGetProgramInfo(CL_PROGRAM_DEVICES) failed";
            goto out;
        }
        for (cl_uint i = 0; i < ndev; i++)
            if (devs[i] == ctx->device) mine = i;
        free(devs);
    }
    if (sizes[mine] == 0 || (uint64_t)sizes[mine] > CLS__MAX_BINARY) {
        why = "the driver gave no usable binary";
        goto out;
    }
    bins[mine] = malloc(sizes[mine]);
    if (!bins[mine]) {
        why = "out of memory";
        goto out;
    }
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, ndev * sizeof *bins, bins, NULL) != CL_SUCCESS) {
        why = "clGetProgramInfo(CL_PROGRAM_BINARIES) failed";
        goto out;
    }

    unsigned char hdr[CLS__HEADER_SIZE];
    memset(hdr, 0, sizeof hdr);
    memcpy(hdr, CLS__CACHE_MAGIC, 8);
    put_u32(hdr + 8, CLS__CACHE_VERSION);
    memcpy(hdr + OFF_KEY, key, 32);
    text_digest(options, source, hdr + OFF_TEXT);
    put_u64(hdr + OFF_LEN, sizes[mine]);
    cls__sha256_of(bins[mine], sizes[mine], hdr + OFF_PAYLOAD);

    /* Through an exclusive temporary and rename(): readers in other processes see either no
     * file, the old one or the new complete one. */
    if (cls__write_file(path, hdr, sizeof hdr, bins[mine], sizes[mine]) != CLS_SUCCESS) {
        why = cls_last_error();
        goto out;
    }
    cls__debug("program cache stored %s (%zu bytes)", path, sizes[mine]);
    cls__cache_evict(dir, cls__cache_max());

out:
    if (why) cls__debug("program cache not written (%s): %s", path, why);
    if (bins)
        for (cl_uint i = 0; i < ndev; i++) free(bins[i]);
    free(bins);
    free(sizes);
}

/* $CLSTENCIL_BUILD_LOG names a file that gets, after each build from source, the options and
 * the compiler's log (with NVIDIA's -cl-nv-verbose: ptxas's registers and spills per kernel), then
 * what the driver printed on stderr while it built (captured by cls__build_quiet).
 * A diagnostic: a file that cannot be written is skipped silently. */
static void append_build_log(cls_context *ctx, cl_program prog, const char *options,
                             const char *chatter)
{
    const char *path = getenv("CLSTENCIL_BUILD_LOG");
    if (!path || !*path) return;
    char *log = build_log(ctx, prog);
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "=== build on %s, options: %s\n%s\n", ctx->info.name, options, log ? log : "");
        if (chatter) fprintf(f, "--- the driver's stderr during the build:\n%s\n", chatter);
        fclose(f);
    }
    free(log);
}

/* $CLSTENCIL_DUMP_DIR names a folder that gets the source of every program built from source,
 * as <key>.cl with its options in a first comment line (to read or compile the generated
 * kernels elsewhere).  A diagnostic: failures to write are skipped silently. */
static void dump_source(const char *options, const char *source, uint64_t key)
{
    const char *dir = getenv("CLSTENCIL_DUMP_DIR");
    char *path = NULL, *text = NULL;
    size_t plen = 0, pcap = 0, tlen = 0, tcap = 0;
    if (!dir || !*dir) return;
    if (cls__appendf(&path, &plen, &pcap, "%s/%016llx.cl", dir, (unsigned long long)key) == 0 &&
        cls__appendf(&text, &tlen, &tcap, "// options: %s\n", options) == 0)
        (void)cls__write_file(path, text, tlen, source, strlen(source));
    free(path);
    free(text);
}

/* ------------------------------------------------------------------------------ entry point */
static cls_status program_get(cls_context *ctx, const char *source, const char *options,
                              cl_program *program, int *from_cache);

/* $CLSTENCIL_BUILD_OPTIONS is appended to every program's options (compiler experiments, e.g.
 * NVIDIA's -cl-nv-verbose); they take part in the cache key like the library's own. */
cls_status cls__program_get(cls_context *ctx, const char *source, const char *options,
                            cl_program *program, int *from_cache)
{
    const char *extra = getenv("CLSTENCIL_BUILD_OPTIONS");
    if (!extra || !*extra || !ctx || !source || !program)
        return program_get(ctx, source, options, program, from_cache);
    if (!options) options = "";
    size_t n = strlen(options) + strlen(extra) + 2;
    char *all = malloc(n);
    if (!all) return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "build options");
    snprintf(all, n, "%s%s%s", options, *options ? " " : "", extra);
    cls_status st = program_get(ctx, source, all, program, from_cache);
    free(all);
    return st;
}

static cls_status program_get(cls_context *ctx, const char *source, const char *options,
                            cl_program *program, int *from_cache)
{
    cls_status st = CLS_SUCCESS;
    cl_program prog = NULL;
    cls__program_entry *e = NULL;
    char *dir = NULL, *path = NULL;
    int origin = 0;

    if (program) *program = NULL;
    if (from_cache) *from_cache = 0;
    if (!ctx || !source || !program)
        return cls__fail(ctx, CLS_ERR_INVALID_ARGUMENT, "cls__program_get: %s is NULL",
                         !ctx ? "ctx" : !source ? "source" : "program");
    if (!options) options = "";

    /* 1. In memory: same context, same text. */
    uint64_t tkey = text_hash(options, source);
    for (cls__program_entry *it = ctx->programs; it; it = it->next) {
        if (it->key == tkey && strcmp(it->options, options) == 0 && strcmp(it->source, source) == 0) {
            *program = it->program;
            if (from_cache) *from_cache = 2;
            return CLS_SUCCESS;
        }
    }

    /* 2. On disk. */
    dir = cls__cache_dir();
    unsigned char dkey[32];
    if (dir) {
        disk_key(ctx, options, source, dkey);
        path = cache_path(dir, dkey);
        if (path) prog = cache_load(ctx, path, dkey, options, source);
        if (prog) origin = 1;
    }

    /* 3. From source. */
    if (!prog) {
        cl_int err = CL_SUCCESS;
        size_t slen = strlen(source);
        prog = clCreateProgramWithSource(ctx->cl, 1, &source, &slen, &err);
        if (err != CL_SUCCESS || !prog)
            CLS__GOTO_FAIL(ctx, st, err != CL_SUCCESS ? (cls_status)err : CLS_ERR_INTERNAL,
                           "clCreateProgramWithSource failed (%zu bytes of source)", slen);
        char *chatter = NULL;
        err = cls__build_quiet(prog, ctx->device, options, &chatter);
        if (chatter) cls__debug("the compiler said, building from source:\n%s", chatter);
        if (err != CL_SUCCESS) {
            st = build_failure(ctx, prog, err, chatter);
            free(chatter);
            goto fail;
        }
        append_build_log(ctx, prog, options, chatter);
        free(chatter);
        dump_source(options, source, tkey);
        if (path) cache_store(ctx, prog, dir, path, dkey, options, source);
    }

    e = calloc(1, sizeof *e);
    if (e) {
        e->source = cls__strdup(source);
        e->options = cls__strdup(options);
    }
    if (!e || !e->source || !e->options)
        CLS__GOTO_FAIL(ctx, st, CLS_ERR_OUT_OF_HOST_MEMORY, "caching a program in memory");
    e->key = tkey;
    e->program = prog;
    e->next = ctx->programs;
    ctx->programs = e;
    *program = prog;
    if (from_cache) *from_cache = origin;
    prog = NULL;
    e = NULL;

fail:
    if (e) {
        free(e->source);
        free(e->options);
        free(e);
    }
    if (prog) clReleaseProgram(prog);
    free(path);
    free(dir);
    return st;
}

void cls__program_cache_clear(cls_context *ctx)
{
    if (!ctx) return;
    cls__program_entry *e = ctx->programs;
    while (e) {
        cls__program_entry *next = e->next;
        if (e->program) clReleaseProgram(e->program);
        free(e->source);
        free(e->options);
        free(e);
        e = next;
    }
    ctx->programs = NULL;
}
