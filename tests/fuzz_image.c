/* fuzz_image.c: fuzz target for the image readers (cls_image_read: PNG through libpng, PGM and
 * PPM by hand), through an in-memory file; -DCLS_FUZZ_SMOKE adds the short TAP run make check
 * uses (seeds in tests/fuzz/image/).
 *
 * Before a PNG reaches the reader, the target rewrites every complete chunk's CRC, so that
 * mutations reach the decoder instead of its checksum test.
 *
 * Properties of every input:
 *   - a refusal is CLS_ERR_INVALID_FILE, CLS_ERR_IO, CLS_ERR_INVALID_SIZE or out of memory,
 *     hands out no image, and (but for out of memory) its message names the path;
 *   - an accepted image has both sides and 1 to 4 channels, and every sample lies in [0, 1];
 *   - written as PNG (and as PGM or PPM for 1 or 3 channels) and read back, it gives its
 *     samples rounded to 8 bits. */
#include "fuzz_file.h" /* first: it asks for _GNU_SOURCE */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "clstencil_image.h"
#include "fuzz_target.h"

/* Images larger than this are not written back (the round trip's cost). */
#define ROUND_TRIP_SAMPLES 65536

/* CRC-32 of PNG chunks (ISO 3309, the polynomial of the PNG specification). */
static uint32_t crc32_png(const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static void fix_png_crcs(unsigned char *d, size_t size)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t at = 8;
    if (size < 8 || memcmp(d, sig, 8)) return;
    while (size - at >= 12) {
        uint32_t len = (uint32_t)d[at] << 24 | (uint32_t)d[at + 1] << 16 |
                       (uint32_t)d[at + 2] << 8 | d[at + 3];
        if (len > size - at - 12) return;
        uint32_t c = crc32_png(d + at + 4, 4 + (size_t)len);
        unsigned char *q = d + at + 8 + len;
        q[0] = (unsigned char)(c >> 24), q[1] = (unsigned char)(c >> 16);
        q[2] = (unsigned char)(c >> 8), q[3] = (unsigned char)c;
        at += 12 + (size_t)len;
    }
}

static const char *round_trip(const cls_image *img, const char *ext)
{
    const char *dir = fuzz_dir(), *bad = NULL;
    char path[4200];
    cls_image *back = NULL;
    if (!dir) return NULL;
    snprintf(path, sizeof path, "%s/round-trip%s", dir, ext);
    if (cls_image_write(path, img) != CLS_SUCCESS) {
        bad = "the writer refused what the reader gave";
    } else if (cls_image_read(path, &back) != CLS_SUCCESS) {
        bad = "the reader refused what the writer wrote";
    } else if (back->width != img->width || back->height != img->height ||
               back->channels != img->channels) {
        bad = "written and read back, the image changed its size";
    } else {
        size_t n = img->width * img->height * img->channels;
        for (size_t i = 0; i < n && !bad; i++)
            if (back->data[i] != (float)lrintf(img->data[i] * 255.0f) / 255.0f)
                bad = "written and read back, a sample is not its 8-bit rounding";
    }
    cls_image_release(back);
    unlink(path);
    return bad;
}

static fuzz_result check_one(const uint8_t *in, size_t size)
{
    fuzz_result r = {0, NULL};
    static char unset;
    cls_image *img = (cls_image *)&unset;
    unsigned char *copy = malloc(size ? size : 1);
    const char *path;
    if (!copy) return r;
    memcpy(copy, in, size);
    fix_png_crcs(copy, size);
    path = fuzz_file(copy, size);
    free(copy);
    if (!path) return r;
    cls_status s = cls_image_read(path, &img);
    if (s != CLS_SUCCESS) {
        if (img != NULL) r.bad = "a refusal handed out an image";
        else if (s != CLS_ERR_INVALID_FILE && s != CLS_ERR_IO && s != CLS_ERR_INVALID_SIZE &&
                 s != CLS_ERR_TOO_LARGE && s != CLS_ERR_OUT_OF_HOST_MEMORY)
            r.bad = "a refusal with an unexpected status";
        else if (s != CLS_ERR_OUT_OF_HOST_MEMORY && !strstr(cls_last_error(), path))
            r.bad = "a refusal whose message does not name the path";
        return r;
    }
    r.accepted = 1;
    if (!img || img->width < 1 || img->height < 1 || img->channels < 1 || img->channels > 4 ||
        !img->data) {
        r.bad = "an accepted image without sides, channels or data";
        goto done;
    }
    size_t n = img->width * img->height * img->channels;
    for (size_t i = 0; i < n; i++)
        if (!(img->data[i] >= 0.0f && img->data[i] <= 1.0f)) {
            r.bad = "an accepted image with a sample outside [0, 1]";
            goto done;
        }
    if (n <= ROUND_TRIP_SAMPLES) {
        r.bad = round_trip(img, ".png");
        if (!r.bad && img->channels == 1) r.bad = round_trip(img, ".pgm");
        if (!r.bad && img->channels == 3) r.bad = round_trip(img, ".ppm");
    }
done:
    cls_image_release(img);
    return r;
}

CLS_FUZZ_ENTRY("fuzz_image", check_one)

#ifdef CLS_FUZZ_SMOKE
#include "fuzz_smoke.h"

static const char *const tokens[] = {
    "P2", "P3", "P5", "P6", "P4", " ", "\n", "#", "# a comment\n", "0", "1", "255", "256",
    "65535", "65536", "99999999", "100000001", "-1", "IHDR", "IDAT", "IEND", "PLTE", "tRNS",
    "gAMA", "\x08\x06", "\x10\x00", "\x01\x00", "\x03\x00\x00\x00",
};

int main(void)
{
    fuzz_smoke("image", check_one, tokens, sizeof tokens / sizeof tokens[0], 1, 10000);
    return tap_done();
}
#endif
