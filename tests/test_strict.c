/* test_strict.c: what the readers must not let through quietly: keys given twice (where the
 * first would win), strings cut at an escaped NUL, and cls_raw_read writing into the caller's
 * buffer before failing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "tap.h"

static void refused(const char *json, cls_status want, const char *needle, const char *what)
{
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_from_json(json, &st);
    tap_ok(s == want && !st && strstr(cls_last_error(), needle), "%s: %s", what,
           cls_last_error());
    cls_stencil_release(st);
}

static void duplicates(void)
{
    refused("{\"dims\": 1, \"dims\": 2, \"body\": \"IN(0)\"}", CLS_ERR_INVALID_SPEC,
            "$.dims: given twice", "a root key given twice is refused");
    refused("{\"dims\": 1, \"body\": \"k * IN(0)\", \"params\": {\"k\": 1, \"k\": 2}}",
            CLS_ERR_INVALID_SPEC, "$.params.k: given twice", "a parameter given twice");
    refused("{\"dims\": 1, \"points\": [{\"offset\": [0], \"coef\": 1}, "
            "{\"offset\": [1], \"coef\": 1, \"coef\": 5}]}",
            CLS_ERR_INVALID_SPEC, "$.points[1].coef: given twice", "a point's coef given twice");
    refused("{\"dims\": 1, \"body\": \"IN(0)\", \"boundary\": {\"type\": \"constant\", "
            "\"value\": 1, \"value\": 2}}",
            CLS_ERR_INVALID_SPEC, "$.boundary.value: given twice", "a boundary value given twice");
    refused("{\"dims\": 1, \"body\": \"IN(0)\", \"aux\": [{\"name\": \"a\", \"name\": \"b\"}]}",
            CLS_ERR_INVALID_SPEC, "$.aux[0].name: given twice", "an aux name given twice");
    refused("{\"dims\": 1, \"body\": \"IN(0)\", \"we\\u001bird\": 1, \"we\\u001bird\": 2}",
            CLS_ERR_INVALID_SPEC, "[\"we\\x1bird\"]: given twice",
            "a strange key given twice is named escaped");
    /* Equal keys in different objects are no duplicates. */
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_from_json(
        "{\"dims\": 1, \"points\": [{\"offset\": [0], \"coef\": 1}, {\"offset\": [1], \"coef\": 2}]}",
        &st);
    tap_ok(s == CLS_SUCCESS, "the same key in sibling objects is fine");
    cls_stencil_release(st);
}

static void nuls(void)
{
    refused("{\"name\": \"a\\u0000b\", \"dims\": 1, \"body\": \"IN(0)\"}", CLS_ERR_INVALID_JSON,
            "line 1, column 12", "a name holding \\u0000 is refused, where it is");
    refused("{\"dims\": 1,\n \"description\": \"ok\\u0000 and then hidden text\",\n"
            " \"body\": \"IN(0)\"}",
            CLS_ERR_INVALID_JSON, "line 2, column 20", "a description holding \\u0000");
    refused("{\"dims\": 1, \"body\": \"IN(0) \\u0000 + garbage\"}", CLS_ERR_INVALID_JSON,
            "u0000", "a body holding \\u0000");
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_from_json(
        "{\"dims\": 1, \"description\": \"a backslash then u0000: \\\\u0000\", \"body\": \"IN(0)\"}",
        &st);
    tap_ok(s == CLS_SUCCESS && strstr(cls_stencil_description(st), "\\u0000"),
           "an escaped backslash before u0000 is text, not a NUL");
    cls_stencil_release(st);

    cls_model *m = NULL;
    s = cls_model_from_json("{\"schema_version\": 1, \"name\": \"x\", \"family\": \"gpu\", "
                            "\"description\": \"a\\u0000b\"}",
                            &m);
    tap_ok(s == CLS_ERR_INVALID_JSON && !m && strstr(cls_last_error(), "u0000"),
           "a device model string holding \\u0000 is refused: %s", cls_last_error());
    cls_model_release(m);
}

/* The guide's promise: a failed call leaves the caller's buffers untouched. */
static void raw_read_untouched(void)
{
    float buf[16];
    for (int i = 0; i < 16; i++) buf[i] = 7.0f;
    /* /dev/zero is no regular file: its size is known only once read, too late before. */
    cls_status s = cls_raw_read("/dev/zero", buf, CLS_FLOAT32, 16);
    int untouched = 1;
    for (int i = 0; i < 16; i++) untouched &= buf[i] == 7.0f;
    tap_ok(s == CLS_ERR_INVALID_FILE && untouched,
           "cls_raw_read of a source longer than the count fails and leaves the buffer: %s",
           cls_last_error());
    char path[] = "/tmp/cls-raw-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f) {
        fwrite(buf, sizeof(float), 16, f);
        fclose(f);
    }
    float out[16];
    s = cls_raw_read(path, out, CLS_FLOAT32, 16);
    tap_ok(s == CLS_SUCCESS && !memcmp(out, buf, sizeof out), "and reads a right-sized file");
    unlink(path);
}

int main(void)
{
    duplicates();
    nuls();
    raw_read_untouched();
    return tap_done();
}
