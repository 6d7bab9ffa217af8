/* image.c: float images and their files: PNG through libpng, PGM/PPM (P2, P3, P5, P6) by hand;
 * writes go through cls__write_file (an exclusive temporary renamed into place). */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "clstencil_image.h"
#include "files.h"
#include "internal.h"

#define MAX_SIDE ((size_t)CLS__IMAGE_MAX_SIDE)
/* Pixels an image may have unless CLSTENCIL_IMAGE_MAX_PIXELS says otherwise: 8192x8192, whose
 * float copy of four channels is 1 GiB.  A PNG of a few hundred kilobytes can claim 16384x16384
 * and cost gigabytes and minutes to decode; this refuses it at the header. */
#define DEFAULT_MAX_PIXELS ((uint64_t)1 << 26)

/* The pixel limit in force: CLSTENCIL_IMAGE_MAX_PIXELS (a positive integer, at most 2^40) or
 * the default. */
static uint64_t max_pixels(void)
{
    const char *e = getenv("CLSTENCIL_IMAGE_MAX_PIXELS");
    char *end;
    if (!e || !*e) return DEFAULT_MAX_PIXELS;
    errno = 0;
    unsigned long long v = strtoull(e, &end, 10);
    if (errno || *end || v < 1 || v > ((unsigned long long)1 << 40)) {
        cls__debug("CLSTENCIL_IMAGE_MAX_PIXELS='%s' is not an integer 1..2^40; using %llu", e,
                   (unsigned long long)DEFAULT_MAX_PIXELS);
        return DEFAULT_MAX_PIXELS;
    }
    return v;
}

/* Refuses sizes past the limits before anything of that size is allocated. */
static cls_status check_size(const char *what, uint64_t width, uint64_t height)
{
    uint64_t limit = max_pixels();
    if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
        return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                         "%simage size %llux%llu: each side must lie in 1..%zu", what,
                         (unsigned long long)width, (unsigned long long)height, MAX_SIDE);
    if (width * height > limit)
        return cls__fail(NULL, CLS_ERR_TOO_LARGE,
                         "%simage of %llux%llu has %llu pixels, more than the limit of %llu (set "
                         "CLSTENCIL_IMAGE_MAX_PIXELS to allow more)",
                         what, (unsigned long long)width, (unsigned long long)height,
                         (unsigned long long)(width * height), (unsigned long long)limit);
    return CLS_SUCCESS;
}

cls_status cls_image_check_size(size_t width, size_t height)
{
    return check_size("", width, height);
}

cls_status cls_image_create(size_t width, size_t height, size_t channels, cls_image **img)
{
    if (!img) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_create: NULL image");
    *img = NULL;
    cls_status st = check_size("", width, height);
    if (st != CLS_SUCCESS) return st;
    if (channels < 1 || channels > 4)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "image: 1 to 4 channels, got %zu",
                         channels);
    cls_image *m = calloc(1, sizeof *m);
    if (m) m->data = calloc(width * height * channels, sizeof *m->data);
    if (!m || !m->data) {
        if (m) free(m);
        return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "a %zux%zu image of %zu channels",
                         width, height, channels);
    }
    m->width = width;
    m->height = height;
    m->channels = channels;
    *img = m;
    return CLS_SUCCESS;
}

void cls_image_release(cls_image *img)
{
    if (!img) return;
    free(img->data);
    free(img);
}

/* ------------------------------------------------------------------ whole files in memory */
typedef struct membuf {
    unsigned char *data;
    size_t len, cap;
} membuf;

static int membuf_add(membuf *b, const void *p, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n) cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d) return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

static cls_status read_file(const char *path, membuf *b)
{
    char *data;
    memset(b, 0, sizeof *b);
    /* No image of the allowed size needs more than 8 bytes a pixel (16-bit RGBA, stored) plus
     * its chunks; anything longer (or an endless device such as /dev/zero) is refused. */
    const uint64_t most = 8 * max_pixels() + ((uint64_t)1 << 20);
    if (cls__read_file(path, most < SIZE_MAX - 1 ? (size_t)most : SIZE_MAX - 1, &data, &b->len)
        != 0) {
        if (errno == EFBIG)
            return cls__fail(NULL, CLS_ERR_TOO_LARGE,
                             "%s: longer than %llu bytes, more than an image within the pixel "
                             "limit can need",
                             path, (unsigned long long)most);
        return errno == ENOMEM
                   ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: reading the file", path)
                   : cls__fail(NULL, CLS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    b->data = (unsigned char *)data;
    b->cap = b->len;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ PNG */
typedef struct png_io {
    const membuf *in;
    size_t pos;
    membuf *out;
    char error[256];
    int oom;
    int limit; /* the header's size is past the limits */
} png_io;

static void png_err(png_structp png, png_const_charp msg)
{
    png_io *io = png_get_error_ptr(png);
    snprintf(io->error, sizeof io->error, "%s", msg);
    png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    cls__debug("libpng: %s", msg);
}

static void png_read_mem(png_structp png, png_bytep data, size_t n)
{
    png_io *io = png_get_io_ptr(png);
    if (io->in->len - io->pos < n) png_error(png, "the file ends early (truncated PNG)");
    memcpy(data, io->in->data + io->pos, n);
    io->pos += n;
}

static void png_write_mem(png_structp png, png_bytep data, size_t n)
{
    png_io *io = png_get_io_ptr(png);
    if (membuf_add(io->out, data, n) != 0) {
        io->oom = 1;
        png_error(png, "out of memory");
    }
}

static void png_flush_mem(png_structp png) { (void)png; }

/* State of one decode, outside the setjmp frame (locals would be indeterminate after a longjmp). */
typedef struct png_dec {
    png_structp png;
    png_infop info;
    unsigned char *rows;
    png_bytep *row_ptrs;
    cls_image *img;
} png_dec;

static int png_decode(png_dec *d, png_io *io)
{
    if (setjmp(png_jmpbuf(d->png))) return -1;
    png_set_read_fn(d->png, io, png_read_mem);
    png_set_user_limits(d->png, (png_uint_32)MAX_SIDE, (png_uint_32)MAX_SIDE);
    png_read_info(d->png, d->info);
    png_uint_32 w = png_get_image_width(d->png, d->info), h = png_get_image_height(d->png, d->info);
    if (check_size("the PNG header claims an ", w, h) != CLS_SUCCESS) {
        io->limit = 1;
        png_error(d->png, cls_last_error());
    }
    int depth = png_get_bit_depth(d->png, d->info), type = png_get_color_type(d->png, d->info);
    /* Palette -> RGB, grey below 8 bits -> 8, transparency chunk -> alpha; 16 bits stay. */
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (png_get_valid(d->png, d->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(d->png);
    png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    size_t ch = png_get_channels(d->png, d->info);
    depth = png_get_bit_depth(d->png, d->info);
    size_t rowbytes = png_get_rowbytes(d->png, d->info);
    if (ch < 1 || ch > 4 || (depth != 8 && depth != 16)) png_error(d->png, "unsupported layout");
    if (!(d->rows = malloc(rowbytes * h)) || !(d->row_ptrs = malloc(h * sizeof *d->row_ptrs))) {
        io->oom = 1;
        png_error(d->png, "out of memory");
    }
    for (png_uint_32 y = 0; y < h; y++) d->row_ptrs[y] = d->rows + y * rowbytes;
    png_read_image(d->png, d->row_ptrs);
    png_read_end(d->png, NULL);
    if (cls_image_create(w, h, ch, &d->img) != CLS_SUCCESS) {
        io->oom = 1;
        png_error(d->png, "out of memory");
    }
    for (size_t y = 0; y < h; y++)
        for (size_t i = 0; i < (size_t)w * ch; i++) {
            const unsigned char *r = d->rows + y * rowbytes;
            d->img->data[y * w * ch + i] =
                depth == 16 ? (float)((r[2 * i] << 8) | r[2 * i + 1]) / 65535.0f
                            : (float)r[i] / 255.0f;
        }
    return 0;
}

static cls_status read_png(const char *path, const membuf *b, cls_image **img)
{
    png_io io;
    png_dec d;
    memset(&io, 0, sizeof io);
    memset(&d, 0, sizeof d);
    io.in = b;
    io.pos = 8;
    d.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &io, png_err, png_warn);
    if (d.png) d.info = png_create_info_struct(d.png);
    cls_status st = CLS_SUCCESS;
    if (!d.png || !d.info) {
        st = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: creating the PNG decoder", path);
    } else {
        png_set_sig_bytes(d.png, 8);
        /* Ancillary chunks (text, ICC profiles) are skipped, not decompressed into memory. */
        png_set_chunk_malloc_max(d.png, (png_alloc_size_t)8 << 20);
        if (png_decode(&d, &io) != 0) {
            st = io.oom     ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: decoding", path)
                 : io.limit ? cls__fail(NULL, CLS_ERR_TOO_LARGE, "%s: %s", path, io.error)
                            : cls__fail(NULL, CLS_ERR_INVALID_FILE, "%s: not a valid PNG file: %s",
                                        path, io.error);
            cls_image_release(d.img);
            d.img = NULL;
        }
    }
    if (d.png) png_destroy_read_struct(&d.png, d.info ? &d.info : NULL, NULL);
    free(d.rows);
    free(d.row_ptrs);
    *img = d.img;
    return st;
}

typedef struct png_enc {
    png_structp png;
    png_infop info;
    unsigned char *row;
} png_enc;

static int png_encode(png_enc *e, png_io *io, const cls_image *img)
{
    static const int types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                 PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    if (setjmp(png_jmpbuf(e->png))) return -1;
    png_set_write_fn(e->png, io, png_write_mem, png_flush_mem);
    png_set_IHDR(e->png, e->info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
                 types[img->channels], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(e->png, e->info);
    size_t n = img->width * img->channels;
    if (!(e->row = malloc(n))) {
        io->oom = 1;
        png_error(e->png, "out of memory");
    }
    for (size_t y = 0; y < img->height; y++) {
        for (size_t i = 0; i < n; i++) {
            float v = img->data[y * n + i];
            e->row[i] = (unsigned char)lrintf((v < 0 ? 0 : v > 1 ? 1 : v) * 255.0f);
        }
        png_write_row(e->png, e->row);
    }
    png_write_end(e->png, NULL);
    return 0;
}

static cls_status encode_png(const char *path, const cls_image *img, membuf *out)
{
    png_io io;
    png_enc e;
    memset(&io, 0, sizeof io);
    memset(&e, 0, sizeof e);
    io.out = out;
    e.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, png_err, png_warn);
    if (e.png) e.info = png_create_info_struct(e.png);
    cls_status st = CLS_SUCCESS;
    if (!e.png || !e.info)
        st = cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: creating the PNG encoder", path);
    else if (png_encode(&e, &io, img) != 0)
        st = io.oom ? cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: encoding", path)
                    : cls__fail(NULL, CLS_ERR_IO, "%s: PNG encoding failed: %s", path, io.error);
    if (e.png) png_destroy_write_struct(&e.png, e.info ? &e.info : NULL);
    free(e.row);
    return st;
}

/* ------------------------------------------------------------------ PGM / PPM */
typedef struct pnm_cursor {
    const membuf *b;
    size_t pos;
} pnm_cursor;

/* The next header number: whitespace and '#' comments skipped; -1 on a syntax error. */
static long pnm_number(pnm_cursor *c)
{
    const unsigned char *d = c->b->data;
    for (;;) {
        while (c->pos < c->b->len && (d[c->pos] == ' ' || d[c->pos] == '\t' || d[c->pos] == '\n' ||
                                      d[c->pos] == '\r' || d[c->pos] == '\v' || d[c->pos] == '\f'))
            c->pos++;
        if (c->pos < c->b->len && d[c->pos] == '#') {
            while (c->pos < c->b->len && d[c->pos] != '\n') c->pos++;
            continue;
        }
        break;
    }
    long v = 0;
    size_t start = c->pos;
    while (c->pos < c->b->len && d[c->pos] >= '0' && d[c->pos] <= '9' && v <= 100000000)
        v = v * 10 + (d[c->pos++] - '0');
    if (c->pos == start || v > 100000000) return -1;
    return v;
}

static cls_status read_pnm(const char *path, const membuf *b, cls_image **img)
{
    char kind = (char)b->data[1];
    int ascii = kind == '2' || kind == '3';
    size_t ch = kind == '2' || kind == '5' ? 1 : 3;
    pnm_cursor c = {b, 2};
    long w = pnm_number(&c), h = pnm_number(&c), maxval = pnm_number(&c);
    if (w < 1 || h < 1 || maxval < 1 || maxval > 65535)
        return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                         "%s: bad P%c header (width %ld, height %ld, maxval %ld; maxval must lie "
                         "in 1..65535)",
                         path, kind, w, h, maxval);
    cls_status st = check_size("", (uint64_t)w, (uint64_t)h);
    if (st != CLS_SUCCESS) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", cls_last_error());
        return cls__fail(NULL, st, "%s: the P%c header claims an %s", path, kind, msg);
    }
    size_t n = (size_t)w * (size_t)h * ch;
    /* The data must be there before the image is allocated: a header of a few bytes must not
     * make us ask for gigabytes.  Binary samples take 1 or 2 bytes, text ones a digit and a
     * separator. */
    size_t have = b->len > c.pos ? b->len - c.pos : 0;
    size_t need = ascii ? 2 * n - 1 : 1 + n * (maxval > 255 ? 2 : 1);
    if (have < need)
        return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                         "%s: truncated P%c data: %zu bytes after the header for %zu samples",
                         path, kind, have, n);
    st = cls_image_create((size_t)w, (size_t)h, ch, img);
    if (st != CLS_SUCCESS) return st;
    if (ascii) {
        for (size_t i = 0; i < n; i++) {
            long v = pnm_number(&c);
            if (v < 0 || v > maxval) {
                cls_image_release(*img);
                *img = NULL;
                return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                                 "%s: sample %zu of %zu %s (maxval %ld)", path, i + 1, n,
                                 v < 0 ? "is missing or not a number" : "exceeds maxval", maxval);
            }
            (*img)->data[i] = (float)v / (float)maxval;
        }
        return CLS_SUCCESS;
    }
    /* One whitespace byte ends the header of the binary formats. */
    c.pos++;
    size_t bps = maxval > 255 ? 2 : 1;
    if (c.pos > b->len || b->len - c.pos < n * bps) {
        cls_image_release(*img);
        *img = NULL;
        return cls__fail(NULL, CLS_ERR_INVALID_FILE,
                         "%s: truncated P%c data: %zu bytes for %zu samples of %zu byte%s", path,
                         kind, c.pos > b->len ? 0 : b->len - c.pos, n, bps, bps > 1 ? "s" : "");
    }
    const unsigned char *p = b->data + c.pos;
    for (size_t i = 0; i < n; i++) {
        long v = bps == 2 ? (p[2 * i] << 8) | p[2 * i + 1] : p[i];
        if (v > maxval) {
            cls_image_release(*img);
            *img = NULL;
            return cls__fail(NULL, CLS_ERR_INVALID_FILE, "%s: sample %zu exceeds maxval %ld",
                             path, i + 1, maxval);
        }
        (*img)->data[i] = (float)v / (float)maxval;
    }
    return CLS_SUCCESS;
}

static cls_status encode_pnm(const char *path, const cls_image *img, membuf *out)
{
    char hdr[64];
    int len = snprintf(hdr, sizeof hdr, "P%c\n%zu %zu\n255\n", img->channels == 1 ? '5' : '6',
                       img->width, img->height);
    if (membuf_add(out, hdr, (size_t)len) != 0) goto oom;
    size_t n = img->width * img->height * img->channels;
    for (size_t i = 0; i < n; i++) {
        float v = img->data[i];
        unsigned char s = (unsigned char)lrintf((v < 0 ? 0 : v > 1 ? 1 : v) * 255.0f);
        if (membuf_add(out, &s, 1) != 0) goto oom;
    }
    return CLS_SUCCESS;
oom:
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "%s: encoding", path);
}

/* ------------------------------------------------------------------ public entry points */
cls_status cls_image_read(const char *path, cls_image **img)
{
    if (!path || !img) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_read: NULL argument");
    *img = NULL;
    membuf b;
    cls_status st = read_file(path, &b);
    if (st != CLS_SUCCESS) return st;
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (b.len >= 8 && !memcmp(b.data, sig, 8))
        st = read_png(path, &b, img);
    else if (b.len >= 2 && b.data[0] == 'P' && strchr("2356", b.data[1]) && b.data[1])
        st = read_pnm(path, &b, img);
    else
        st = cls__fail(NULL, CLS_ERR_INVALID_FILE,
                       "%s: not a PNG, PGM (P2, P5) or PPM (P3, P6) image", path);
    free(b.data);
    return st;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

cls_status cls_image_write(const char *path, const cls_image *img)
{
    if (!path || !img || !img->data)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_write: NULL argument");
    if (img->width < 1 || img->height < 1 || img->width > MAX_SIDE || img->height > MAX_SIDE ||
        img->channels < 1 || img->channels > 4)
        return cls__fail(NULL, CLS_ERR_INVALID_SIZE,
                         "%s: an image of %zux%zu with %zu channels cannot be written", path,
                         img->width, img->height, img->channels);
    size_t n = img->width * img->height * img->channels;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(img->data[i]))
            return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                             "%s: pixel (%zu, %zu) channel %zu is %g, not a finite value", path,
                             i / img->channels % img->width, i / img->channels / img->width,
                             i % img->channels, (double)img->data[i]);
    membuf out;
    memset(&out, 0, sizeof out);
    cls_status st;
    if (has_ext(path, ".png")) {
        st = encode_png(path, img, &out);
    } else if (has_ext(path, ".pgm") || has_ext(path, ".ppm") || has_ext(path, ".pnm")) {
        size_t want = has_ext(path, ".pgm") ? 1 : has_ext(path, ".ppm") ? 3 : 0;
        if ((want && img->channels != want) || (!want && img->channels != 1 && img->channels != 3))
            st = cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                           "%s: a %s file holds %s; the image has %zu channels (write a .png)",
                           path, want == 1 ? "PGM" : want == 3 ? "PPM" : "PNM",
                           want == 1 ? "1 channel" : want == 3 ? "3 channels" : "1 or 3 channels",
                           img->channels);
        else
            st = encode_pnm(path, img, &out);
    } else {
        st = cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                       "%s: unknown image type (the name must end in .png, .pgm, .ppm or .pnm)",
                       path);
    }
    if (st == CLS_SUCCESS) st = cls__write_file(path, out.data, out.len, NULL, 0);
    free(out.data);
    return st;
}

cls_status cls_image_from_values(const float *values, size_t width, size_t height, double lo,
                                 double hi, cls_image **img)
{
    if (!values || !img)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_from_values: NULL argument");
    if (!isfinite(lo) || !isfinite(hi))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_image_from_values: range not finite");
    cls_status st = cls_image_create(width, height, 1, img);
    if (st != CLS_SUCCESS) return st;
    for (size_t i = 0; i < width * height; i++) {
        double v = hi != lo ? ((double)values[i] - lo) / (hi - lo) : 0;
        (*img)->data[i] = isfinite(v) ? (float)v : 0.0f;
    }
    return CLS_SUCCESS;
}
