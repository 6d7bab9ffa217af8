/* fuzz_npy.c: fuzz target for the NumPy .npy reader (cls_npy_read, through an in-memory file);
 * -DCLS_FUZZ_SMOKE adds the short TAP run make check uses (seeds in tests/fuzz/npy/).
 *
 * Properties of every input:
 *   - a refusal is CLS_ERR_INVALID_FILE, CLS_ERR_IO or out of memory, its message starts with
 *     the path, and no data is handed out;
 *   - an accepted file gives float32 or float64 data of 1 to 3 dimensions, none zero, and the
 *     data are the file's last bytes (byte-swapped element by element when the file is in the
 *     other byte order): nothing is read from the header or past the end;
 *   - what cls_npy_write makes of the data reads back the same (dtype, shape and bytes). */
#include "fuzz_file.h" /* first: it asks for _GNU_SOURCE */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "fuzz_target.h"

/* The data equal `tail` as they are, or with every element's bytes reversed. */
static int same_data(const unsigned char *data, const unsigned char *tail, size_t count,
                     size_t esz)
{
    if (!memcmp(data, tail, count * esz)) return 1;
    for (size_t i = 0; i < count; i++)
        for (size_t b = 0; b < esz; b++)
            if (data[i * esz + b] != tail[i * esz + esz - 1 - b]) return 0;
    return 1;
}

static const char *round_trip(const void *data, cls_dtype dt, int ndim, const size_t shape[3],
                              size_t bytes)
{
    const char *dir = fuzz_dir(), *bad = NULL;
    char path[4200];
    void *back = NULL;
    cls_dtype dt2;
    int nd2;
    size_t shape2[3];
    if (!dir) return NULL;
    snprintf(path, sizeof path, "%s/round-trip.npy", dir);
    if (cls_npy_write(path, data, dt, ndim, shape) != CLS_SUCCESS)
        bad = "the writer refused what the reader gave";
    else if (cls_npy_read(path, &back, &dt2, &nd2, shape2) != CLS_SUCCESS)
        bad = "the reader refused what the writer wrote";
    else if (dt2 != dt || nd2 != ndim || memcmp(shape, shape2, sizeof shape2) ||
             memcmp(data, back, bytes))
        bad = "written and read back, the array differs";
    cls_free(back);
    unlink(path);
    return bad;
}

static fuzz_result check_one(const uint8_t *in, size_t size)
{
    fuzz_result r = {0, NULL};
    static char unset;
    void *data = &unset;
    cls_dtype dt = (cls_dtype)-1;
    int ndim = -1;
    size_t shape[3] = {0, 0, 0};
    const char *path = fuzz_file(in, size);
    if (!path) return r;
    cls_status s = cls_npy_read(path, &data, &dt, &ndim, shape);
    if (s != CLS_SUCCESS) {
        if (data != NULL) r.bad = "a refusal handed out data";
        else if (s != CLS_ERR_INVALID_FILE && s != CLS_ERR_IO && s != CLS_ERR_OUT_OF_HOST_MEMORY)
            r.bad = "a refusal with an unexpected status";
        else if (strncmp(cls_last_error(), path, strlen(path)) != 0)
            r.bad = "a refusal whose message does not start with the path";
        return r;
    }
    r.accepted = 1;
    size_t esz = dt == CLS_FLOAT64 ? 8 : 4, count = 1;
    if ((dt != CLS_FLOAT32 && dt != CLS_FLOAT64) || ndim < 1 || ndim > 3) {
        r.bad = "an accepted file with a bad dtype or dimension count";
        goto done;
    }
    for (int i = 0; i < 3; i++) {
        if (shape[i] == 0 || (i >= ndim && shape[i] != 1)) {
            r.bad = "an accepted file with a bad shape";
            goto done;
        }
        count *= shape[i];
    }
    if (count > size / esz || !same_data(data, in + size - count * esz, count, esz)) {
        r.bad = "the data are not the file's last bytes";
        goto done;
    }
    r.bad = round_trip(data, dt, ndim, shape, count * esz);
done:
    cls_free(data);
    return r;
}

CLS_FUZZ_ENTRY("fuzz_npy", check_one)

#ifdef CLS_FUZZ_SMOKE
#include "fuzz_smoke.h"

static const char *const tokens[] = {
    "'descr': '<f4', ", "'descr': '>f8', ", "'descr': '|u1', ", "'fortran_order': True, ",
    "'fortran_order': False, ", "'shape': (), ", "'shape': (3,), ", "'shape': (2, 3, 4), ",
    "'shape': (1, 1, 1, 1), ", "'shape': (18446744073709551615,), ", "(", ")", ",", "{", "}",
    "'", "L", " ", "\n", "\\x00", "0", "65536", "4294967296", "\x93NUMPY\x01\x00",
    "\x93NUMPY\x02\x00", "\x93NUMPY\x03\x00",
};

int main(void)
{
    fuzz_smoke("npy", check_one, tokens, sizeof tokens / sizeof tokens[0], 1, 20000);
    return tap_done();
}
#endif
