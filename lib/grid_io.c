/* grid_io.c: grid files, NumPy .npy (float32/float64) and raw binary.
 *
 * The .npy layout follows numpy/lib/format.py:
 *   "\x93NUMPY" major minor  HEADER_LEN  HEADER  DATA
 * HEADER_LEN is a little-endian uint16 for version 1.0 and a uint32 for 2.0 and 3.0; HEADER
 * is the text of a Python dict literal
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (NZ, NY, NX), }
 * padded with spaces and ended by '\n' so that DATA starts at a multiple of 64 bytes.
 *
 * Reading accepts versions 1.0, 2.0 and 3.0, the dtypes '<f4' '<f8' '>f4' '>f8' '=f4' '=f8'
 * (big-endian data is converted to host order), C order only, 1 to 3 dimensions, and insists
 * that the data section holds exactly the bytes the shape says.  Writing produces version 1.0
 * (2.0 when the header would not fit a 16-bit length) in host byte order, through
 * cls__write_file (lib/file_write.c): an existing file is never left half-written. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "internal.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
#define NPY_HEADER_MAX (64u * 1024u) /* largest header text we accept on read */

/* ------------------------------------------------------------------------------- helpers */

static int host_is_little(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static void swap_bytes(void *data, size_t count, size_t elem)
{
    unsigned char *p = data;
    for (size_t i = 0; i < count; i++, p += elem) {
        for (size_t a = 0, b = elem - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
    }
}

static const char *dtype_name(cls_dtype dtype)
{
    return dtype == CLS_FLOAT64 ? "float64" : "float32";
}

static size_t elem_size(cls_dtype dtype)
{
    return dtype == CLS_FLOAT64 ? 8 : 4;
}

/* Reads up to n bytes; returns the number read (less than n only at end of file), or
 * (size_t)-1 with errno set on error. */
static size_t read_full(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    size_t done = 0;
    while (done < n) {
        size_t chunk = n - done;
        if (chunk > (size_t)1 << 30) chunk = (size_t)1 << 30;
        ssize_t r = read(fd, p + done, chunk);
        if (r < 0) {
            if (errno == EINTR) continue;
            return (size_t)-1;
        }
        if (r == 0) break;
        done += (size_t)r;
    }
    return done;
}

/* Opens `path` for reading and checks it is not a directory.  On success returns the fd and
 * fills *st; on failure records CLS_ERR_IO and returns -1. */
static int open_for_read(const char *path, struct stat *st, cls_status *status)
{
    int fd;
    do {
        fd = open(path, O_RDONLY);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *status = cls__fail(NULL, CLS_ERR_IO, "%s: cannot open for reading: %s", path,
                            strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        *status = cls__fail(NULL, CLS_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
        return -1;
    }
    if (S_ISDIR(st->st_mode)) {
        close(fd);
        *status = cls__fail(NULL, CLS_ERR_IO, "%s: cannot read: %s", path, strerror(EISDIR));
        return -1;
    }
    return fd;
}

/* ------------------------------------------------------------------------ header parsing */

/* A cursor over the header text [p, end).  Never reads at or past end. */
typedef struct hdr_cursor {
    const char *p;
    const char *end;
} hdr_cursor;

static void hdr_skip_ws(hdr_cursor *c)
{
    while (c->p < c->end &&
           (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r' || *c->p == '\f' ||
            *c->p == '\v'))
        c->p++;
}

/* Consumes `ch` after optional whitespace; returns 1 if it was there. */
static int hdr_accept(hdr_cursor *c, char ch)
{
    hdr_skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* A quoted string ('...' or "...", no escapes needed for valid headers; a backslash escape is
 * skipped over verbatim).  Copies at most cap-1 characters into out; returns 0 on success, -1
 * when the text is not a string, -2 when it is too long for `out`, -3 when it is not closed. */
static int hdr_string(hdr_cursor *c, char *out, size_t cap)
{
    hdr_skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return -1;
    const char *start = c->p;
    char q = *c->p++;
    size_t n = 0;
    int too_long = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\') {
            if (c->p + 1 >= c->end) {
                c->p = c->end;
                break;
            }
            c->p++;
        }
        if (n + 1 < cap)
            out[n++] = *c->p;
        else
            too_long = 1;
        c->p++;
    }
    if (c->p >= c->end) { /* unterminated: leave the cursor at the opening quote */
        c->p = start;
        return -3;
    }
    c->p++;
    out[n] = '\0';
    return too_long ? -2 : 0;
}

/* A bare word (True, False, ...). */
static int hdr_word(hdr_cursor *c, const char *word)
{
    size_t n = strlen(word);
    hdr_skip_ws(c);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return 0;
    const char *after = c->p + n;
    if (after < c->end && (((*after | 0x20) >= 'a' && (*after | 0x20) <= 'z') ||
                           (*after >= '0' && *after <= '9') || *after == '_'))
        return 0;
    c->p = after;
    return 1;
}

/* Describes the next few characters for an error message. */
static void hdr_near(const hdr_cursor *c, char *out, size_t cap)
{
    size_t n = 0;
    if (c->p >= c->end) {
        snprintf(out, cap, "end of header");
        return;
    }
    n = (size_t)(c->end - c->p);
    if (n > 16) n = 16;
    char buf[17];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)c->p[i];
        buf[k++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    buf[k] = '\0';
    snprintf(out, cap, "'%s'", buf);
}

typedef struct npy_header {
    char descr[32];
    int have_descr, have_fortran, have_shape;
    int fortran_order;
    int ndim;
    size_t shape[3];
} npy_header;

/* Parses a shape tuple: "()", "(5,)", "(2, 3)", "(2, 3,)" (a Python 2 'L' suffix is
 * tolerated).  Fails on negative values, more than 3 entries (the error names ndim) and
 * integers that overflow size_t. */
static cls_status hdr_shape(const char *path, hdr_cursor *c, npy_header *h)
{
    char near[40];
    int n = 0;
    if (!hdr_accept(c, '(')) {
        hdr_near(c, near, sizeof near);
        return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                         "%s: npy header: 'shape' must be a tuple, found %s", path, near);
    }
    if (hdr_accept(c, ')')) {
        h->ndim = 0;
        return CLS_SUCCESS;
    }
    for (;;) {
        hdr_skip_ws(c);
        if (c->p < c->end && *c->p == '-')
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: negative dimension in 'shape'", path);
        if (c->p >= c->end || *c->p < '0' || *c->p > '9') {
            hdr_near(c, near, sizeof near);
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: expected an integer in 'shape', found %s", path,
                             near);
        }
        size_t v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            unsigned d = (unsigned)(*c->p - '0');
            if (v > (SIZE_MAX - d) / 10)
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: dimension in 'shape' overflows size_t", path);
            v = v * 10 + d;
            c->p++;
        }
        if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) c->p++;
        if (n < 3) h->shape[n] = v;
        n++;
        if (hdr_accept(c, ')')) break;
        if (!hdr_accept(c, ',')) {
            hdr_near(c, near, sizeof near);
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: expected ',' or ')' in 'shape', found %s", path,
                             near);
        }
        if (hdr_accept(c, ')')) break; /* trailing comma, as in (5,) */
    }
    h->ndim = n;
    return CLS_SUCCESS;
}

static cls_status parse_header(const char *path, const char *text, size_t len, npy_header *h)
{
    hdr_cursor c = {text, text + len};
    char near[40];
    memset(h, 0, sizeof *h);

    if (!hdr_accept(&c, '{')) {
        hdr_near(&c, near, sizeof near);
        return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                         "%s: npy header is not a dict literal (starts with %s)", path, near);
    }
    for (;;) {
        char key[32];
        if (hdr_accept(&c, '}')) break;
        int r = hdr_string(&c, key, sizeof key);
        if (r == -3)
            return cls__fail(NULL, CLS_ERR_INVALID_FILE, "%s: npy header: unterminated string",
                             path);
        if (r == -1) {
            hdr_near(&c, near, sizeof near);
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: expected a quoted key or '}', found %s", path,
                             near);
        }
        if (r == -2 ||
            (strcmp(key, "descr") != 0 && strcmp(key, "fortran_order") != 0 &&
             strcmp(key, "shape") != 0))
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: unexpected key '%s' (expected 'descr', "
                             "'fortran_order' and 'shape')",
                             path, key);
        if (!hdr_accept(&c, ':')) {
            hdr_near(&c, near, sizeof near);
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: expected ':' after '%s', found %s", path, key,
                             near);
        }
        if (strcmp(key, "descr") == 0) {
            if (h->have_descr)
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: duplicate key 'descr'", path);
            h->have_descr = 1;
            r = hdr_string(&c, h->descr, sizeof h->descr);
            if (r == -3)
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: unterminated string", path);
            if (r == -1) {
                hdr_skip_ws(&c);
                if (c.p < c.end && (*c.p == '[' || *c.p == '('))
                    return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                     "%s: unsupported dtype: structured arrays are not "
                                     "supported (only float32/float64)",
                                     path);
                hdr_near(&c, near, sizeof near);
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: 'descr' must be a string, found %s", path,
                                 near);
            }
            if (r == -2)
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: unsupported dtype '%s...' (only float32/float64)", path,
                                 h->descr);
        } else if (strcmp(key, "fortran_order") == 0) {
            if (h->have_fortran)
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: duplicate key 'fortran_order'", path);
            h->have_fortran = 1;
            if (hdr_word(&c, "True"))
                h->fortran_order = 1;
            else if (hdr_word(&c, "False"))
                h->fortran_order = 0;
            else {
                hdr_near(&c, near, sizeof near);
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: 'fortran_order' must be True or False, "
                                 "found %s",
                                 path, near);
            }
        } else {
            if (h->have_shape)
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: npy header: duplicate key 'shape'", path);
            h->have_shape = 1;
            cls_status st = hdr_shape(path, &c, h);
            if (st != CLS_SUCCESS) return st;
        }
        if (hdr_accept(&c, '}')) break;
        if (!hdr_accept(&c, ',')) {
            hdr_near(&c, near, sizeof near);
            return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                             "%s: npy header: expected ',' or '}', found %s", path, near);
        }
    }
    hdr_skip_ws(&c);
    if (c.p < c.end && *c.p == '\0') {
        /* Some writers pad with NULs; allow them (and only them) after the dict. */
        while (c.p < c.end && (*c.p == '\0' || *c.p == ' ' || *c.p == '\n')) c.p++;
    }
    if (c.p != c.end) {
        hdr_near(&c, near, sizeof near);
        return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                         "%s: npy header: unexpected text after the dict: %s", path, near);
    }
    if (!h->have_descr || !h->have_fortran || !h->have_shape)
        return cls__fail(NULL, CLS_ERR_INVALID_FILE, "%s: npy header: missing key '%s'", path,
                         !h->have_descr ? "descr" : !h->have_fortran ? "fortran_order" : "shape");
    return CLS_SUCCESS;
}

/* ----------------------------------------------------------------------------- .npy read */

cls_status cls_npy_read(const char *path, void **data, cls_dtype *dtype, int *ndim,
                        size_t shape[3])
{
    cls_status status = CLS_SUCCESS;
    unsigned char pre[12];
    char *header = NULL;
    void *buf = NULL;
    struct stat sb;
    int fd = -1;

    if (!path || !data || !dtype || !ndim || !shape)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_npy_read: path, data, dtype, ndim and shape must not be NULL");
    *data = NULL;

    fd = open_for_read(path, &sb, &status);
    if (fd < 0) return status;

    /* Magic, version, header length. */
    size_t got = read_full(fd, pre, 10);
    if (got == (size_t)-1)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    if (got < NPY_MAGIC_LEN || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: not a NumPy .npy file (bad magic string)", path);
    if (got < 10)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: truncated .npy file (%zu bytes, preamble incomplete)", path, got);
    unsigned major = pre[6], minor = pre[7];
    size_t hlen, prelen;
    if (major == 1 && minor == 0) {
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
        prelen = 10;
    } else if ((major == 2 || major == 3) && minor == 0) {
        got = read_full(fd, pre + 10, 2);
        if (got == (size_t)-1)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path,
                           strerror(errno));
        if (got < 2)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: truncated .npy file (preamble incomplete)", path);
        uint32_t l32 = (uint32_t)pre[8] | (uint32_t)pre[9] << 8 | (uint32_t)pre[10] << 16 |
                       (uint32_t)pre[11] << 24;
        hlen = l32;
        prelen = 12;
    } else {
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: unsupported .npy format version %u.%u (expected 1.0, 2.0 or 3.0)",
                       path, major, minor);
    }
    if (hlen > NPY_HEADER_MAX)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: npy header length %zu exceeds the limit of %u bytes", path, hlen,
                       NPY_HEADER_MAX);
    if (hlen == 0)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE, "%s: npy header is empty", path);

    header = malloc(hlen);
    if (!header)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: out of memory", path);
    got = read_full(fd, header, hlen);
    if (got == (size_t)-1)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    if (got < hlen)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: truncated .npy file (header needs %zu bytes, only %zu present)",
                       path, hlen, got);

    npy_header h;
    status = parse_header(path, header, hlen, &h);
    if (status != CLS_SUCCESS) goto fail;

    /* dtype */
    size_t esz;
    cls_dtype dt;
    int file_little;
    {
        const char *d = h.descr;
        char order = d[0];
        if ((order == '<' || order == '>' || order == '=') && d[1] == 'f' &&
            (strcmp(d + 2, "4") == 0 || strcmp(d + 2, "8") == 0)) {
            dt = d[2] == '8' ? CLS_FLOAT64 : CLS_FLOAT32;
            esz = elem_size(dt);
            file_little = order == '<' || (order == '=' && host_is_little());
        } else {
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: unsupported dtype '%s' (only float32/float64: '<f4' '<f8' "
                           "'>f4' '>f8' '=f4' '=f8')",
                           path, d);
        }
    }
    if (h.fortran_order)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: fortran_order True is not supported (save a C-ordered array)",
                       path);
    if (h.ndim < 1 || h.ndim > 3)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: unsupported ndim %d (only 1 to 3 dimensions)", path, h.ndim);
    size_t count = 1;
    for (int i = 0; i < h.ndim; i++) {
        if (h.shape[i] == 0)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: shape has a zero dimension (axis %d)", path, i);
        if (count > SIZE_MAX / h.shape[i])
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: shape product overflows size_t", path);
        count *= h.shape[i];
    }
    if (count > SIZE_MAX / esz)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: shape product overflows size_t (data size)", path);
    size_t nbytes = count * esz;
    size_t data_off = prelen + hlen;

    /* For regular files check the size before allocating, so a lying header does not cost a
     * huge allocation. */
    if (S_ISREG(sb.st_mode)) {
        uintmax_t fsize = (uintmax_t)sb.st_size;
        uintmax_t have = fsize > data_off ? fsize - data_off : 0;
        if (have < (uintmax_t)nbytes)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: truncated .npy file: data section is %ju bytes but the shape "
                           "needs %zu",
                           path, have, nbytes);
        if (have > (uintmax_t)nbytes)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: %ju trailing bytes after the data (data section is %ju bytes, "
                           "the shape needs %zu)",
                           path, have - (uintmax_t)nbytes, have, nbytes);
    }

    buf = malloc(nbytes);
    if (!buf)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_OUT_OF_HOST_MEMORY,
                       "%s: cannot allocate %zu bytes", path, nbytes);
    got = read_full(fd, buf, nbytes);
    if (got == (size_t)-1)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    if (got < nbytes)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: truncated .npy file: data section is %zu bytes but the shape "
                       "needs %zu",
                       path, got, nbytes);
    {
        unsigned char extra;
        size_t more = read_full(fd, &extra, 1);
        if (more == (size_t)-1)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path,
                           strerror(errno));
        if (more != 0)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: trailing bytes after the data (the shape needs %zu bytes)",
                           path, nbytes);
    }
    if (file_little != host_is_little()) swap_bytes(buf, count, esz);

    close(fd);
    free(header);
    *data = buf;
    *dtype = dt;
    *ndim = h.ndim;
    for (int i = 0; i < 3; i++) shape[i] = i < h.ndim ? h.shape[i] : 1;
    return CLS_SUCCESS;

fail:
    if (fd >= 0) close(fd);
    free(header);
    free(buf);
    return status;
}

/* ---------------------------------------------------------------------------- .npy write */

static cls_status check_dtype(const char *fn, cls_dtype dtype)
{
    if (dtype != CLS_FLOAT32 && dtype != CLS_FLOAT64)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "%s: unknown dtype %d", fn,
                         (int)dtype);
    return CLS_SUCCESS;
}

cls_status cls_npy_write(const char *path, const void *data, cls_dtype dtype, int ndim,
                         const size_t shape[3])
{
    if (!path || !data || !shape)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_npy_write: path, data and shape must not be NULL");
    cls_status st = check_dtype("cls_npy_write", dtype);
    if (st != CLS_SUCCESS) return st;
    if (ndim < 1 || ndim > 3)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "%s: ndim must be 1, 2 or 3 (got %d)", path, ndim);
    size_t esz = elem_size(dtype);
    size_t count = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0)
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "%s: shape[%d] is 0", path, i);
        if (count > SIZE_MAX / shape[i])
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "%s: shape product overflows size_t", path);
        count *= shape[i];
    }
    if (count > SIZE_MAX / esz)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "%s: data size overflows size_t",
                         path);

    /* The dict text, as numpy writes it. */
    char dict[256];
    int n = snprintf(dict, sizeof dict, "{'descr': '%cf%zu', 'fortran_order': False, 'shape': (",
                     host_is_little() ? '<' : '>', esz);
    for (int i = 0; i < ndim; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, i ? ", %zu" : "%zu", shape[i]);
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }", ndim == 1 ? "," : "");
    size_t dlen = (size_t)n; /* < 256: 3 * 20 digits plus fixed text */

    /* Version 1.0 when the padded header fits a 16-bit length, else 2.0. */
    size_t prelen = 10;
    size_t total = (prelen + dlen + 1 + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    if (total - prelen > 0xffff) {
        prelen = 12;
        total = (prelen + dlen + 1 + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    }
    size_t hlen = total - prelen;
    unsigned char head[512];
    memcpy(head, NPY_MAGIC, NPY_MAGIC_LEN);
    head[6] = prelen == 10 ? 1 : 2;
    head[7] = 0;
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8 & 0xff);
    if (prelen == 12) {
        head[10] = (unsigned char)(hlen >> 16 & 0xff);
        head[11] = (unsigned char)(hlen >> 24 & 0xff);
    }
    memcpy(head + prelen, dict, dlen);
    memset(head + prelen + dlen, ' ', total - prelen - dlen - 1);
    head[total - 1] = '\n';

    return cls__write_file(path, head, total, data, count * esz);
}

/* ------------------------------------------------------------------------------------ raw */

cls_status cls_raw_read(const char *path, void *data, cls_dtype dtype, size_t count)
{
    cls_status status = CLS_SUCCESS;
    struct stat sb;
    if (!path || (!data && count > 0))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_raw_read: path and data must not be NULL");
    status = check_dtype("cls_raw_read", dtype);
    if (status != CLS_SUCCESS) return status;
    size_t esz = elem_size(dtype);
    if (count > SIZE_MAX / esz)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "%s: %zu elements overflow size_t",
                         path, count);
    size_t nbytes = count * esz;

    int fd = open_for_read(path, &sb, &status);
    if (fd < 0) return status;
    void *buf = NULL;
    if (S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size != (uintmax_t)nbytes)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: file is %ju bytes but %zu %s elements need %zu bytes", path,
                       (uintmax_t)sb.st_size, count, dtype_name(dtype), nbytes);
    /* Into a buffer of our own, copied out only when the whole file was right: a short file,
     * a read error or a file that grew leaves the caller's buffer as it was. */
    if (!(buf = malloc(nbytes ? nbytes : 1)))
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: cannot allocate %zu bytes",
                       path, nbytes);
    size_t got = read_full(fd, buf, nbytes);
    if (got == (size_t)-1)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    if (got < nbytes)
        CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                       "%s: file is %zu bytes but %zu %s elements need %zu bytes", path, got,
                       count, dtype_name(dtype), nbytes);
    {
        unsigned char extra;
        size_t more = read_full(fd, &extra, 1);
        if (more == (size_t)-1)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_IO, "%s: read failed: %s", path,
                           strerror(errno));
        if (more != 0)
            CLS__GOTO_FAIL(NULL, status, CLS_ERR_INVALID_FILE,
                           "%s: file is more than %zu bytes but %zu %s elements need %zu bytes",
                           path, nbytes, count, dtype_name(dtype), nbytes);
    }
    close(fd);
    if (nbytes) memcpy(data, buf, nbytes);
    free(buf);
    return CLS_SUCCESS;

fail:
    close(fd);
    free(buf);
    return status;
}

cls_status cls_raw_write(const char *path, const void *data, cls_dtype dtype, size_t count)
{
    if (!path || (!data && count > 0))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_raw_write: path and data must not be NULL");
    cls_status st = check_dtype("cls_raw_write", dtype);
    if (st != CLS_SUCCESS) return st;
    size_t esz = elem_size(dtype);
    if (count > SIZE_MAX / esz)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "%s: %zu elements overflow size_t",
                         path, count);
    return cls__write_file(path, NULL, 0, data, count * esz);
}
