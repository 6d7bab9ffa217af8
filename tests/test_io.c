/* test_io.c: grid files (.npy and raw): round trips, hand-made files, malformed files,
 * atomic writes, and a cross-check with numpy when python3 has it. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil.h"
#include "tap.h"

static char tmpdir[64];

static char *tpath(const char *name)
{
    static char buf[8][256];
    static int k;
    char *p = buf[k++ & 7];
    snprintf(p, 256, "%s/%s", tmpdir, name);
    return p;
}

static int write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = n ? fwrite(data, 1, n, f) : 0;
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* Reads a whole file (malloc'ed), -1 size when missing. */
static unsigned char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    *size = -1;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) *size = n;
    return b;
}

static int has(const char *needle)
{
    return strstr(cls_last_error(), needle) != NULL;
}

/* Deterministic values exactly representable in float32. */
static double val(size_t i)
{
    return (double)(i % 97) * 0.25 - 7.0 + (double)(i / 97) * 1024.0;
}

static void fill(void *data, cls_dtype dt, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (dt == CLS_FLOAT32)
            ((float *)data)[i] = (float)val(i);
        else
            ((double *)data)[i] = val(i) + 1.0 / 3.0;
    }
}

static int check_values(const void *data, cls_dtype dt, size_t n, double add)
{
    for (size_t i = 0; i < n; i++) {
        double v = dt == CLS_FLOAT32 ? (double)((const float *)data)[i]
                                     : ((const double *)data)[i];
        if (v != val(i) + add) return 0;
    }
    return 1;
}

/* Builds a .npy file from a header text given verbatim (no padding added). */
static int make_npy(const char *path, int major, const char *header, const void *data,
                    size_t nbytes)
{
    size_t hl = strlen(header);
    size_t pre = major == 1 ? 10 : 12;
    unsigned char *b = malloc(pre + hl + nbytes + 1);
    if (!b) return -1;
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    b[7] = 0;
    b[8] = (unsigned char)(hl & 0xff);
    b[9] = (unsigned char)(hl >> 8 & 0xff);
    if (major != 1) {
        b[10] = (unsigned char)(hl >> 16 & 0xff);
        b[11] = (unsigned char)(hl >> 24 & 0xff);
    }
    memcpy(b + pre, header, hl);
    if (nbytes) memcpy(b + pre + hl, data, nbytes);
    int r = write_bytes(path, b, pre + hl + nbytes);
    free(b);
    return r;
}

static int count_tmp_leftovers(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    struct dirent *e;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp.")) n++;
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    if (d) {
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat sb;
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
                chmod(p, 0700);
                remove_tree(p);
            } else {
                unlink(p);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

/* ------------------------------------------------------------------------- round trips */

static void test_round_trips(void)
{
    static const size_t shapes[3][3] = {{7, 1, 1}, {3, 5, 1}, {2, 3, 4}};
    for (int dti = 0; dti < 2; dti++) {
        cls_dtype dt = dti ? CLS_FLOAT64 : CLS_FLOAT32;
        const char *dn = dti ? "float64" : "float32";
        size_t esz = dti ? 8 : 4;
        for (int nd = 1; nd <= 3; nd++) {
            const size_t *sh = shapes[nd - 1];
            size_t n = sh[0] * sh[1] * sh[2];
            void *in = malloc(n * esz);
            fill(in, dt, n);
            char name[64];
            snprintf(name, sizeof name, "rt_%s_%dd.npy", dn, nd);
            const char *p = tpath(name);
            cls_status st = cls_npy_write(p, in, dt, nd, sh);
            tap_ok(st == CLS_SUCCESS, "npy write %s %dD (%s)", dn, nd, cls_last_error());

            long size;
            unsigned char *raw = slurp(p, &size);
            size_t hl = raw && size >= 10 ? (size_t)raw[8] | (size_t)raw[9] << 8 : 0;
            tap_ok(raw && size >= 10 && !memcmp(raw, "\x93NUMPY\x01\x00", 8) &&
                       (10 + hl) % 64 == 0 && raw[10 + hl - 1] == '\n' &&
                       (size_t)size == 10 + hl + n * esz,
                   "npy %s %dD: version 1.0, data 64-aligned, header ends in newline", dn,
                   nd);
            if (raw && size >= 10 && (size_t)size >= 10 + hl) {
                char expect[128];
                int e = snprintf(expect, sizeof expect,
                                 "{'descr': '<f%zu', 'fortran_order': False, 'shape': (", esz);
                for (int i = 0; i < nd; i++)
                    e += snprintf(expect + e, sizeof expect - (size_t)e, i ? ", %zu" : "%zu",
                                  sh[i]);
                snprintf(expect + e, sizeof expect - (size_t)e, "%s), }",
                         nd == 1 ? "," : "");
                tap_ok(memcmp(raw + 10, expect, strlen(expect)) == 0,
                       "npy %s %dD header text is %s", dn, nd, expect);
            }
            free(raw);

            void *out = NULL;
            cls_dtype odt = (cls_dtype)-1;
            int ond = -1;
            size_t osh[3] = {0, 0, 0};
            st = cls_npy_read(p, &out, &odt, &ond, osh);
            int shape_ok = ond == nd;
            for (int i = 0; i < 3; i++) shape_ok &= osh[i] == (i < nd ? sh[i] : 1);
            tap_ok(st == CLS_SUCCESS && out && odt == dt && shape_ok &&
                       memcmp(in, out, n * esz) == 0,
                   "npy read back %s %dD: same dtype, shape, bytes", dn, nd);
            cls_free(out);

            /* raw */
            snprintf(name, sizeof name, "rt_%s_%dd.raw", dn, nd);
            p = tpath(name);
            st = cls_raw_write(p, in, dt, n);
            void *rout = calloc(n, esz);
            cls_status st2 = cls_raw_read(p, rout, dt, n);
            raw = slurp(p, &size);
            tap_ok(st == CLS_SUCCESS && st2 == CLS_SUCCESS && size == (long)(n * esz) &&
                       memcmp(in, rout, n * esz) == 0,
                   "raw round trip %s %zu elements", dn, n);
            free(raw);
            free(rout);
            free(in);
        }
    }
}

/* ----------------------------------------------------------------------- hand-made files */

static void be_store(unsigned char *dst, const void *src, size_t esz)
{
    /* Big-endian bytes of a host value. */
    const unsigned char *s = src;
    const uint16_t one = 1;
    int little = *(const unsigned char *)&one == 1;
    for (size_t i = 0; i < esz; i++) dst[i] = little ? s[esz - 1 - i] : s[i];
}

static void le_store(unsigned char *dst, const void *src, size_t esz)
{
    const unsigned char *s = src;
    const uint16_t one = 1;
    int little = *(const unsigned char *)&one == 1;
    for (size_t i = 0; i < esz; i++) dst[i] = little ? s[i] : s[esz - 1 - i];
}

typedef struct hand_case {
    const char *what;
    int major;
    const char *header;
    int big_endian;
    cls_dtype dtype;
    int ndim;
    size_t shape[3];
} hand_case;

static void test_hand_made(void)
{
    static const hand_case cases[] = {
        {"big-endian >f4 2D", 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (3, 4), }\n",
         1, CLS_FLOAT32, 2, {3, 4, 1}},
        {"big-endian >f8 3D", 1,
         "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2, 3), }        \n", 1,
         CLS_FLOAT64, 3, {2, 2, 3}},
        {"little-endian <f8 1-tuple", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }\n",
         0, CLS_FLOAT64, 1, {5, 1, 1}},
        {"version 2.0", 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }\n", 0,
         CLS_FLOAT32, 1, {6, 1, 1}},
        {"version 3.0 big-endian", 3,
         "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }\n", 1, CLS_FLOAT64, 2,
         {2, 3, 1}},
        {"odd spacing, keys reordered, double quotes", 1,
         "{  \"shape\" :(\t2 ,3 , ) ,\"fortran_order\":False,'descr'  :  '<f4'}", 0,
         CLS_FLOAT32, 2, {2, 3, 1}},
        {"newlines and tabs inside the dict, no trailing comma", 1,
         "{\n\t'fortran_order' : False ,\n\t'descr' : '<f8' ,\n\t'shape' : ( 4 , )\n}\n", 0,
         CLS_FLOAT64, 1, {4, 1, 1}},
        {"native '=' byte order", 1, "{'descr': '=f4', 'fortran_order': False, 'shape': (3,), }\n",
         -1, CLS_FLOAT32, 1, {3, 1, 1}},
        {"Python 2 long suffix", 1,
         "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 2L), }\n", 0, CLS_FLOAT32, 2,
         {2, 2, 1}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const hand_case *c = &cases[k];
        size_t esz = c->dtype == CLS_FLOAT64 ? 8 : 4;
        size_t n = c->shape[0] * c->shape[1] * c->shape[2];
        unsigned char *bytes = malloc(n * esz);
        for (size_t i = 0; i < n; i++) {
            float f = (float)val(i);
            double d = val(i) + 1.0 / 3.0;
            const void *src = c->dtype == CLS_FLOAT64 ? (const void *)&d : (const void *)&f;
            if (c->big_endian == 1)
                be_store(bytes + i * esz, src, esz);
            else if (c->big_endian == 0)
                le_store(bytes + i * esz, src, esz);
            else
                memcpy(bytes + i * esz, src, esz);
        }
        char name[32];
        snprintf(name, sizeof name, "hand%zu.npy", k);
        const char *p = tpath(name);
        make_npy(p, c->major, c->header, bytes, n * esz);
        void *out = NULL;
        cls_dtype dt;
        int nd = 0;
        size_t sh[3];
        cls_status st = cls_npy_read(p, &out, &dt, &nd, sh);
        int ok = st == CLS_SUCCESS && dt == c->dtype && nd == c->ndim;
        for (int i = 0; ok && i < 3; i++) ok = sh[i] == c->shape[i];
        ok = ok && check_values(out, dt, n, dt == CLS_FLOAT64 ? 1.0 / 3.0 : 0.0);
        tap_ok(ok, "read hand-made: %s%s%s", c->what, st ? ": " : "",
               st ? cls_last_error() : "");
        cls_free(out);
        free(bytes);
    }
}

/* ---------------------------------------------------------------------- malformed files */

typedef struct bad_case {
    const char *what;
    int major;           /* 0: `header` is the whole file (raw bytes, length hlen) */
    const char *header;
    size_t data_bytes;   /* zero bytes appended after the header */
    const char *expect;  /* substring of the message */
} bad_case;

static void test_malformed(void)
{
    static const bad_case cases[] = {
        {"bad magic", 0, "\x93NUMPX\x01\x00\x10\x00{}", 0, "bad magic"},
        {"not npy at all", 0, "hello world, this is text", 0, "not a NumPy"},
        {"empty file", 0, "", 0, "not a NumPy"},
        {"truncated preamble", 0, "\x93NUMPY\x01\x00", 0, "truncated"},
        {"unknown version 4.0", 4, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n",
         8, "version 4.0"},
        {"version 1.1", 0, "\x93NUMPY\x01\x01\x04\x00{}  ", 0, "version 1.1"},
        {"empty header", 0, "\x93NUMPY\x01\x00\x00\x00", 0, "header is empty"},
        {"header longer than the file", 0, "\x93NUMPY\x01\x00\x40\x00{'descr'", 0,
         "truncated"},
        {"header over 64 KiB", 0, "\x93NUMPY\x02\x00\x01\x00\x01\x00{}", 0, "exceeds"},
        {"int32 dtype", 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }\n", 8,
         "unsupported dtype '<i4'"},
        {"uint8 dtype", 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }\n", 2,
         "unsupported dtype '|u1'"},
        {"float16 dtype", 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }\n", 4,
         "unsupported dtype '<f2'"},
        {"complex dtype", 1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }\n", 16,
         "unsupported dtype"},
        {"object array", 1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }\n", 16,
         "unsupported dtype '|O'"},
        {"structured dtype", 1,
         "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }\n", 8,
         "structured"},
        {"fortran order", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n", 24,
         "fortran_order True"},
        {"ndim 0", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", 4,
         "ndim 0"},
        {"ndim 4", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 2), }\n", 8,
         "ndim 4"},
        {"zero dimension", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 0), }\n",
         0, "zero dimension"},
        {"shape product overflow", 1,
         "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2), }\n",
         8, "overflows"},
        {"data size overflow", 1,
         "{'descr': '<f8', 'fortran_order': False, 'shape': (3074457345618258603,), }\n", 8,
         "overflows"},
        {"dimension overflows size_t", 1,
         "{'descr': '<f4', 'fortran_order': False, 'shape': (999999999999999999999999,), }\n",
         8, "overflows"},
        {"negative dimension", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }\n",
         8, "negative"},
        {"shape not a tuple", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': 5, }\n", 20,
         "must be a tuple"},
        {"garbage in shape", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }\n",
         24, "expected ',' or ')'"},
        {"unterminated shape", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3", 24,
         "end of header"},
        {"truncated data", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
         20, "truncated"},
        {"trailing bytes", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
         28, "trailing bytes"},
        {"missing shape", 1, "{'descr': '<f4', 'fortran_order': False, }\n", 8,
         "missing key 'shape'"},
        {"missing descr", 1, "{'fortran_order': False, 'shape': (2,)}\n", 8,
         "missing key 'descr'"},
        {"unknown key", 1,
         "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}\n", 8,
         "unexpected key 'extra'"},
        {"duplicate key", 1,
         "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\n", 8,
         "duplicate key 'descr'"},
        {"not a dict", 1, "['descr', '<f4']\n", 8, "not a dict"},
        {"text after the dict", 1,
         "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk\n", 8,
         "after the dict"},
        {"unterminated string", 1, "{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}\n", 8,
         "expected ',' or '}'"},
        {"unterminated string at end", 1, "{'descr': '<f4", 8, "unterminated string"},
        {"unterminated key", 1, "{'descr", 8, "unterminated string"},
        {"backslash at the end", 1, "{'descr': '<f4\\", 8, "unterminated string"},
        {"unterminated dict", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", 8,
         "expected ',' or '}'"},
        {"bad fortran_order", 1, "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}\n", 8,
         "True or False"},
        {"missing colon", 1, "{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}\n", 8,
         "expected ':'"},
        {"unquoted key", 1, "{descr: '<f4', 'fortran_order': False, 'shape': (2,)}\n", 8,
         "quoted key"},
        {"descr with no byte order", 1, "{'descr': 'f4', 'fortran_order': False, 'shape': (2,)}\n",
         8, "unsupported dtype 'f4'"},
    };
    /* The raw-byte cases embed NULs, so their lengths are listed here (0 = strlen). */
    static const size_t raw_len[] = {[0] = 12, [3] = 8, [5] = 14, [6] = 10, [7] = 18, [8] = 14};

    unsigned char zeros[64] = {0};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bad_case *c = &cases[k];
        char name[32];
        snprintf(name, sizeof name, "bad%zu.npy", k);
        const char *p = tpath(name);
        if (c->major == 0) {
            size_t len = k < sizeof raw_len / sizeof raw_len[0] && raw_len[k] ? raw_len[k]
                                                                              : strlen(c->header);
            write_bytes(p, c->header, len);
        } else {
            make_npy(p, c->major, c->header, zeros, c->data_bytes);
        }
        void *out = (void *)&zeros; /* must be reset to NULL */
        cls_dtype dt;
        int nd;
        size_t sh[3];
        cls_status st = cls_npy_read(p, &out, &dt, &nd, sh);
        int ok = st == CLS_ERR_INVALID_FILE && out == NULL && has(c->expect) && has(p);
        tap_ok(ok, "rejects %s: %s", c->what, cls_last_error());
        if (st == CLS_SUCCESS) cls_free(out);
    }

    /* A header of more than 64 KiB that is really there. */
    {
        size_t hl = 70000;
        char *h = malloc(hl + 1);
        memset(h, ' ', hl);
        const char *d = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        memcpy(h, d, strlen(d));
        h[hl - 1] = '\n';
        h[hl] = '\0';
        const char *p = tpath("bighdr.npy");
        make_npy(p, 2, h, zeros, 8);
        free(h);
        void *out = NULL;
        cls_dtype dt;
        int nd;
        size_t sh[3];
        cls_status st = cls_npy_read(p, &out, &dt, &nd, sh);
        tap_ok(st == CLS_ERR_INVALID_FILE && has("exceeds the limit"),
               "rejects a real 70000-byte header: %s", cls_last_error());
        if (st == CLS_SUCCESS) cls_free(out);
    }
}

/* ------------------------------------------------------------------------------ errors */

static void test_io_errors(void)
{
    void *out = NULL;
    cls_dtype dt;
    int nd;
    size_t sh[3];
    float buf[4] = {1, 2, 3, 4};
    const char *missing = tpath("does_not_exist.npy");

    cls_status st = cls_npy_read(missing, &out, &dt, &nd, sh);
    tap_ok(st == CLS_ERR_IO && has(missing) && has(strerror(ENOENT)),
           "missing file gives CLS_ERR_IO with strerror: %s", cls_last_error());
    st = cls_npy_read(tmpdir, &out, &dt, &nd, sh);
    tap_ok(st == CLS_ERR_IO && has(strerror(EISDIR)), "directory gives CLS_ERR_IO: %s",
           cls_last_error());
    st = cls_raw_read(missing, buf, CLS_FLOAT32, 4);
    tap_ok(st == CLS_ERR_IO && has(strerror(ENOENT)), "raw: missing file gives CLS_ERR_IO: %s",
           cls_last_error());

    const char *nodir = tpath("no/such/dir/x.npy");
    size_t shape[3] = {4, 1, 1};
    st = cls_npy_write(nodir, buf, CLS_FLOAT32, 1, shape);
    tap_ok(st == CLS_ERR_IO && has(strerror(ENOENT)) && has(nodir),
           "npy write into a missing directory gives CLS_ERR_IO: %s", cls_last_error());
    st = cls_raw_write(nodir, buf, CLS_FLOAT32, 4);
    tap_ok(st == CLS_ERR_IO && has(strerror(ENOENT)),
           "raw write into a missing directory gives CLS_ERR_IO: %s", cls_last_error());

    /* Argument checks. */
    st = cls_npy_write(tpath("a.npy"), buf, CLS_FLOAT32, 0, shape);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "npy write: ndim 0 is an invalid argument");
    st = cls_npy_write(tpath("a.npy"), buf, CLS_FLOAT32, 4, shape);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "npy write: ndim 4 is an invalid argument");
    size_t zshape[3] = {2, 0, 1};
    st = cls_npy_write(tpath("a.npy"), buf, CLS_FLOAT32, 2, zshape);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "npy write: zero dimension is an invalid argument");
    size_t big[3] = {SIZE_MAX / 2, 4, 1};
    st = cls_npy_write(tpath("a.npy"), buf, CLS_FLOAT32, 2, big);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT && has("overflow"),
           "npy write: overflowing shape is an invalid argument");
    st = cls_npy_write(tpath("a.npy"), NULL, CLS_FLOAT32, 1, shape);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "npy write: NULL data is an invalid argument");
    st = cls_npy_write(tpath("a.npy"), buf, (cls_dtype)7, 1, shape);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "npy write: unknown dtype is an invalid argument");
    st = cls_npy_read(NULL, &out, &dt, &nd, sh);
    tap_ok(st == CLS_ERR_INVALID_ARGUMENT, "npy read: NULL path is an invalid argument");
    tap_ok(access(tpath("a.npy"), F_OK) != 0, "no file left behind by rejected writes");

    /* Raw size mismatches name both sizes. */
    const char *rp = tpath("six_floats.raw");
    float six[6] = {0, 1, 2, 3, 4, 5};
    cls_raw_write(rp, six, CLS_FLOAT32, 6);
    st = cls_raw_read(rp, buf, CLS_FLOAT32, 4);
    tap_ok(st == CLS_ERR_INVALID_FILE && has("24 bytes") && has("16 bytes"),
           "raw read of a longer file: %s", cls_last_error());
    double d8[8];
    st = cls_raw_read(rp, d8, CLS_FLOAT64, 8);
    tap_ok(st == CLS_ERR_INVALID_FILE && has("24 bytes") && has("64 bytes"),
           "raw read of a shorter file: %s", cls_last_error());
    double d3[3];
    st = cls_raw_read(rp, d3, CLS_FLOAT64, 3);
    tap_ok(st == CLS_SUCCESS && memcmp(d3, six, sizeof d3) == 0,
           "raw read takes 24 bytes as 3 doubles");
}

/* -------------------------------------------------------------------------- atomicity */

static void test_atomic(void)
{
    const char *p = tpath("keep.npy");
    float small[3] = {1.5f, 2.5f, 3.5f};
    size_t sh[3] = {3, 1, 1};
    long before_size, after_size;
    cls_npy_write(p, small, CLS_FLOAT32, 1, sh);
    unsigned char *before = slurp(p, &before_size);

    /* 1. A write that fails half-way (file size limit): the old file must survive intact and
     *    no temporary may be left.  Works as root too. */
    {
        struct rlimit old, lim;
        size_t n = 1u << 16;
        float *bigdata = calloc(n, sizeof(float));
        size_t bsh[3] = {n, 1, 1};
        getrlimit(RLIMIT_FSIZE, &old);
        lim = old;
        lim.rlim_cur = 4096;
        void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
        if (bigdata && setrlimit(RLIMIT_FSIZE, &lim) == 0) {
            cls_status st = cls_npy_write(p, bigdata, CLS_FLOAT32, 1, bsh);
            char msg[512];
            snprintf(msg, sizeof msg, "%s", cls_last_error());
            cls_status st2 = cls_raw_write(p, bigdata, CLS_FLOAT32, n);
            setrlimit(RLIMIT_FSIZE, &old);
            unsigned char *after = slurp(p, &after_size);
            tap_ok(st == CLS_ERR_IO && st2 == CLS_ERR_IO && strstr(msg, p) != NULL,
                   "write failing half-way gives CLS_ERR_IO: %s", msg);
            tap_ok(after && after_size == before_size &&
                       memcmp(before, after, (size_t)before_size) == 0,
                   "existing file survives a write that failed half-way");
            tap_ok(count_tmp_leftovers() == 0, "no temporary file left after the failure");
            free(after);
        } else {
            tap_skip("write failing half-way", "setrlimit(RLIMIT_FSIZE) unavailable");
        }
        signal(SIGXFSZ, prev);
        free(bigdata);
    }

    /* 2. An unwritable directory (only meaningful when not root). */
    {
        char ro[256];
        snprintf(ro, sizeof ro, "%s/ro", tmpdir);
        mkdir(ro, 0700);
        char target[300];
        snprintf(target, sizeof target, "%s/keep.npy", ro);
        cls_npy_write(target, small, CLS_FLOAT32, 1, sh);
        chmod(ro, 0500);
        if (geteuid() != 0 && access(ro, W_OK) != 0) {
            float other[3] = {9, 9, 9};
            cls_status st = cls_npy_write(target, other, CLS_FLOAT32, 1, sh);
            tap_ok(st == CLS_ERR_IO && has(strerror(EACCES)),
                   "write into an unwritable directory gives CLS_ERR_IO: %s",
                   cls_last_error());
            unsigned char *after = slurp(target, &after_size);
            tap_ok(after && after_size == before_size &&
                       memcmp(before, after, (size_t)before_size) == 0,
                   "existing file survives a failed write to an unwritable path");
            free(after);
        } else {
            tap_skip("write into an unwritable directory", "running as root");
            tap_skip("existing file survives a failed write to an unwritable path",
                     "running as root");
        }
        chmod(ro, 0700);
    }

    /* 3. The target is a directory: rename fails after the temporary was written. */
    {
        char dir[256];
        snprintf(dir, sizeof dir, "%s/adir", tmpdir);
        mkdir(dir, 0700);
        char inner[300];
        snprintf(inner, sizeof inner, "%s/inner", dir);
        write_bytes(inner, "x", 1);
        cls_status st = cls_npy_write(dir, small, CLS_FLOAT32, 1, sh);
        struct stat sb;
        tap_ok(st == CLS_ERR_IO && stat(inner, &sb) == 0 && count_tmp_leftovers() == 0,
               "write over a non-empty directory fails cleanly: %s", cls_last_error());
    }

    /* 4. Overwriting works and replaces the content. */
    {
        float other[4] = {4, 3, 2, 1};
        size_t sh4[3] = {2, 2, 1};
        cls_status st = cls_npy_write(p, other, CLS_FLOAT32, 2, sh4);
        void *out = NULL;
        cls_dtype dt;
        int nd;
        size_t osh[3];
        cls_status st2 = cls_npy_read(p, &out, &dt, &nd, osh);
        tap_ok(st == CLS_SUCCESS && st2 == CLS_SUCCESS && nd == 2 && osh[0] == 2 &&
                   osh[1] == 2 && memcmp(out, other, sizeof other) == 0,
               "overwriting an existing file replaces it");
        cls_free(out);
    }

    /* 5. A temporary name already taken (stale file of a dead process with our pid) is left
     *    alone and another name is used. */
    {
        char stale[300];
        snprintf(stale, sizeof stale, "%s.tmp.%ld", p, (long)getpid());
        write_bytes(stale, "stale", 5);
        cls_status st = cls_npy_write(p, small, CLS_FLOAT32, 1, sh);
        long ssize;
        unsigned char *sb = slurp(stale, &ssize);
        unsigned char *after = slurp(p, &after_size);
        tap_ok(st == CLS_SUCCESS && ssize == 5 && after && after_size == before_size &&
                   memcmp(before, after, (size_t)before_size) == 0 &&
                   count_tmp_leftovers() == 1,
               "write succeeds beside a stale temporary and leaves it alone");
        free(sb);
        free(after);
        unlink(stale);
    }
    free(before);
}

/* ------------------------------------------------------------------------------- numpy */

static const char *py_script =
    "import sys\n"
    "import numpy as np\n"
    "d = sys.argv[1]\n"
    "def val(n):\n"
    "    i = np.arange(n, dtype=np.int64)\n"
    "    return (i % 97) * 0.25 - 7.0 + (i // 97) * 1024.0\n"
    "def check(name, dt, shape, add):\n"
    "    a = np.load(d + '/' + name)\n"
    "    n = int(np.prod(shape))\n"
    "    exp = (val(n) + add).astype(dt).reshape(shape)\n"
    "    assert a.dtype == np.dtype(dt), (name, a.dtype)\n"
    "    assert a.shape == shape, (name, a.shape)\n"
    "    assert np.array_equal(a, exp), name\n"
    "check('c_f32_3d.npy', np.float32, (3, 4, 5), 0.0)\n"
    "check('c_f64_2d.npy', np.float64, (6, 7), 1.0 / 3.0)\n"
    "check('c_f32_1d.npy', np.float32, (11,), 0.0)\n"
    "a = np.fromfile(d + '/c_f64.raw', dtype=np.float64)\n"
    "assert np.array_equal(a, val(9) + 1.0 / 3.0)\n"
    "def save(name, dt, shape, add, version=None):\n"
    "    n = int(np.prod(shape))\n"
    "    a = (val(n) + add).astype(dt).reshape(shape)\n"
    "    with open(d + '/' + name, 'wb') as f:\n"
    "        if version is None:\n"
    "            np.save(f, a)\n"
    "        else:\n"
    "            np.lib.format.write_array(f, a, version=version)\n"
    "save('p_f32_3d.npy', '<f4', (2, 3, 4), 0.0)\n"
    "save('p_f64_2d_be.npy', '>f8', (5, 3), 1.0 / 3.0)\n"
    "save('p_f32_1d_be.npy', '>f4', (13,), 0.0)\n"
    "save('p_f64_1d_v2.npy', '<f8', (8,), 1.0 / 3.0, (2, 0))\n"
    "save('p_f32_2d_v3.npy', '<f4', (4, 2), 0.0, (3, 0))\n"
    "np.save(d + '/p_i32.npy', np.arange(4, dtype=np.int32))\n"
    "np.save(d + '/p_fortran.npy', np.asfortranarray(np.ones((3, 2), dtype=np.float32)))\n"
    "np.save(d + '/p_scalar.npy', np.float32(1.0))\n"
    "np.save(d + '/p_obj.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)\n"
    "print('# numpy cross-check script ok')\n";

static void test_numpy(void)
{
    if (system("${PYTHON:-python3} -c 'import numpy' >/dev/null 2>&1") != 0) {
        tap_skip("numpy cross-check", "python3 with numpy not available");
        return;
    }
    /* Files from the library, to be checked by numpy. */
    struct {
        const char *name;
        cls_dtype dt;
        int nd;
        size_t sh[3];
    } ours[] = {{"c_f32_3d.npy", CLS_FLOAT32, 3, {3, 4, 5}},
                {"c_f64_2d.npy", CLS_FLOAT64, 2, {6, 7, 1}},
                {"c_f32_1d.npy", CLS_FLOAT32, 1, {11, 1, 1}}};
    for (size_t k = 0; k < 3; k++) {
        size_t n = ours[k].sh[0] * ours[k].sh[1] * ours[k].sh[2];
        void *b = malloc(n * 8);
        fill(b, ours[k].dt, n);
        cls_npy_write(tpath(ours[k].name), b, ours[k].dt, ours[k].nd, ours[k].sh);
        free(b);
    }
    double r9[9];
    fill(r9, CLS_FLOAT64, 9);
    cls_raw_write(tpath("c_f64.raw"), r9, CLS_FLOAT64, 9);

    const char *script = tpath("check.py");
    write_bytes(script, py_script, strlen(py_script));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "${PYTHON:-python3} '%s' '%s'", script, tmpdir);
    fflush(stdout);
    int rc = system(cmd);
    tap_ok(rc == 0, "numpy loads files written by the library and writes its own");
    if (rc != 0) return;

    struct {
        const char *name;
        cls_dtype dt;
        int nd;
        size_t sh[3];
    } theirs[] = {{"p_f32_3d.npy", CLS_FLOAT32, 3, {2, 3, 4}},
                  {"p_f64_2d_be.npy", CLS_FLOAT64, 2, {5, 3, 1}},
                  {"p_f32_1d_be.npy", CLS_FLOAT32, 1, {13, 1, 1}},
                  {"p_f64_1d_v2.npy", CLS_FLOAT64, 1, {8, 1, 1}},
                  {"p_f32_2d_v3.npy", CLS_FLOAT32, 2, {4, 2, 1}}};
    for (size_t k = 0; k < 5; k++) {
        void *out = NULL;
        cls_dtype dt;
        int nd;
        size_t sh[3];
        cls_status st = cls_npy_read(tpath(theirs[k].name), &out, &dt, &nd, sh);
        size_t n = theirs[k].sh[0] * theirs[k].sh[1] * theirs[k].sh[2];
        int ok = st == CLS_SUCCESS && dt == theirs[k].dt && nd == theirs[k].nd &&
                 !memcmp(sh, theirs[k].sh, sizeof sh) &&
                 check_values(out, dt, n, dt == CLS_FLOAT64 ? 1.0 / 3.0 : 0.0);
        tap_ok(ok, "reads numpy's %s%s%s", theirs[k].name, st ? ": " : "",
               st ? cls_last_error() : "");
        cls_free(out);
    }
    const char *rejects[][2] = {{"p_i32.npy", "unsupported dtype '<i4'"},
                                {"p_fortran.npy", "fortran_order True"},
                                {"p_scalar.npy", "ndim 0"},
                                {"p_obj.npy", "unsupported dtype '|O'"}};
    for (size_t k = 0; k < 4; k++) {
        void *out = NULL;
        cls_dtype dt;
        int nd;
        size_t sh[3];
        cls_status st = cls_npy_read(tpath(rejects[k][0]), &out, &dt, &nd, sh);
        tap_ok(st == CLS_ERR_INVALID_FILE && has(rejects[k][1]), "rejects numpy's %s: %s",
               rejects[k][0], cls_last_error());
        if (st == CLS_SUCCESS) cls_free(out);
    }
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cls_io_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        printf("Bail out! mkdtemp failed: %s\n", strerror(errno));
        return 1;
    }
    tap_diag("temporary directory %s", tmpdir);
    test_round_trips();
    test_hand_made();
    test_malformed();
    test_io_errors();
    test_atomic();
    test_numpy();
    remove_tree(tmpdir);
    return tap_done();
}
