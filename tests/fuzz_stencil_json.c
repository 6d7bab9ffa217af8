/* fuzz_stencil_json.c: fuzz target for stencil specifications in JSON; -DCLS_FUZZ_SMOKE adds the
 * short TAP run make check uses (tests/fuzz_smoke.h, seeds in tests/fuzz/stencil_json/).
 *
 * Properties of every input:
 *   - a refusal is CLS_ERR_INVALID_JSON naming a line, CLS_ERR_INVALID_SPEC (or
 *     CLS_ERR_UNKNOWN_STENCIL) naming the field ("$.path: ..."), or out of memory, and leaves
 *     no stencil;
 *   - an accepted spec validates, and its JSON loads back into a spec whose JSON is the same
 *     text and whose accessors agree;
 *   - on a grid of at most 8 points per axis (more where the halo needs it, 4096 in all), two
 *     steps of the host reference run, give the same values twice (no uninitialised reads)
 *     and the same values from the reloaded spec.
 * `make fuzz` builds it with libFuzzer (tests/fuzz.mk), where a broken property traps. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "fuzz_target.h"

#define MAX_POINTS 4096
#define STEPS 2

static float input_value(size_t i, size_t k)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(k * 40503u + 17u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)((h & 0xffff) / 65536.0) + 0.25f;
}

/* Whether two results hold the same values (-0 equal to 0: JSON writes both as 0; NaN equal
 * to NaN). */
static int same_values(const void *a, const void *b, size_t n, cls_dtype dt)
{
    for (size_t i = 0; i < n; i++) {
        double x = dt == CLS_FLOAT64 ? ((const double *)a)[i] : ((const float *)a)[i];
        double y = dt == CLS_FLOAT64 ? ((const double *)b)[i] : ((const float *)b)[i];
        if (!(x == y || (isnan(x) && isnan(y)))) return 0;
    }
    return 1;
}

/* Two steps of the host reference on a small grid: the problem found, or NULL. */
static const char *reference(const cls_stencil *st, const cls_stencil *back)
{
    int dims = cls_stencil_dims(st), halo[3];
    cls_dtype dt = cls_stencil_dtype(st);
    size_t es = cls_dtype_size(dt), naux = cls_stencil_num_aux(st);
    cls_dims d = {{1, 1, 1}};
    const char *bad = NULL;
    cls_stencil_halo(st, halo);
    for (int k = 0; k < dims; k++) d.n[k] = halo[k] < 8 ? 8 : (size_t)halo[k] + 1;
    size_t n = cls_dims_points(d);
    if (n == 0 || n > MAX_POINTS || naux > 16) return NULL;
    void *in = malloc(n * es), *o1 = malloc(n * es), *o2 = malloc(n * es), *o3 = malloc(n * es);
    void *aux[16] = {NULL};
    int ok = in && o1 && o2 && o3;
    for (size_t k = 0; ok && k < naux; k++) {
        size_t m = cls_stencil_aux_per_step(st, k) ? n * STEPS : n;
        if (!(aux[k] = malloc(m * es))) ok = 0;
        for (size_t i = 0; ok && i < m; i++) {
            if (dt == CLS_FLOAT64) ((double *)aux[k])[i] = input_value(i, k + 1);
            else ((float *)aux[k])[i] = input_value(i, k + 1);
        }
    }
    for (size_t i = 0; ok && i < n; i++) {
        if (dt == CLS_FLOAT64) ((double *)in)[i] = input_value(i, 0);
        else ((float *)in)[i] = input_value(i, 0);
    }
    if (ok) {
        cls_status s = cls_reference_run(st, d, STEPS, in, (const void *const *)aux, o1);
        if (s == CLS_SUCCESS) {
            if (cls_reference_run(st, d, STEPS, in, (const void *const *)aux, o2) != CLS_SUCCESS ||
                memcmp(o1, o2, n * es) != 0)
                bad = "the reference gives different bits on a second run";
            else if (cls_reference_run(back, d, STEPS, in, (const void *const *)aux, o3) !=
                         CLS_SUCCESS ||
                     !same_values(o1, o3, n, dt))
                bad = "the reloaded spec computes other values";
        } else if (s != CLS_ERR_OUT_OF_HOST_MEMORY && strlen(cls_last_error()) < 8) {
            bad = "the reference refused a valid spec without saying why";
        }
    }
    for (size_t k = 0; k < naux; k++) free(aux[k]);
    free(in);
    free(o1);
    free(o2);
    free(o3);
    return bad;
}

/* The accessors of a spec and of its reloaded JSON agree. */
static int same_spec(const cls_stencil *a, const cls_stencil *b)
{
    int ha[3], hb[3];
    cls_stencil_halo(a, ha);
    cls_stencil_halo(b, hb);
    if (strcmp(cls_stencil_name(a), cls_stencil_name(b)) || cls_stencil_dims(a) != cls_stencil_dims(b) ||
        cls_stencil_dtype(a) != cls_stencil_dtype(b) ||
        cls_stencil_boundary(a) != cls_stencil_boundary(b) || memcmp(ha, hb, sizeof ha) ||
        strcmp(cls_stencil_body(a), cls_stencil_body(b)) ||
        strcmp(cls_stencil_description(a), cls_stencil_description(b)) ||
        cls_stencil_num_aux(a) != cls_stencil_num_aux(b) ||
        cls_stencil_num_params(a) != cls_stencil_num_params(b))
        return 0;
    for (size_t k = 0; k < cls_stencil_num_aux(a); k++)
        if (strcmp(cls_stencil_aux_name(a, k), cls_stencil_aux_name(b, k)) ||
            cls_stencil_aux_per_step(a, k) != cls_stencil_aux_per_step(b, k))
            return 0;
    for (size_t k = 0; k < cls_stencil_num_params(a); k++) {
        double va = 0, vb = 0;
        const char *na = cls_stencil_param_name(a, k);
        if (strcmp(na, cls_stencil_param_name(b, k)) || cls_stencil_get_param(a, na, &va) ||
            cls_stencil_get_param(b, na, &vb) || !(va == vb))
            return 0;
    }
    return 1;
}

static fuzz_result check_one(const uint8_t *data, size_t size)
{
    fuzz_result r = {0, NULL};
    char *text = malloc(size + 1), *j1 = NULL, *j2 = NULL;
    static char unset;
    cls_stencil *st = (cls_stencil *)&unset, *back = NULL; /* the reader must set it */
    if (!text) return r;
    memcpy(text, data, size);
    text[size] = '\0';
    cls_status s = cls_stencil_from_json(text, &st);
    if (s != CLS_SUCCESS) {
        const char *msg = cls_last_error();
        if (st) r.bad = "a refusal left a stencil behind";
        else if (s == CLS_ERR_INVALID_JSON) r.bad = strstr(msg, "line ") ? NULL : "a JSON error without its line";
        else if (s == CLS_ERR_INVALID_SPEC || s == CLS_ERR_UNKNOWN_STENCIL)
            r.bad = strchr(msg, ':') && strlen(msg) > 12 ? NULL : "a spec error without its field";
        else if (s != CLS_ERR_OUT_OF_HOST_MEMORY) r.bad = "a refusal with an unexpected status";
        st = NULL;
        goto done;
    }
    r.accepted = 1;
    if (cls_stencil_validate(st) != CLS_SUCCESS) {
        r.bad = "an accepted spec does not validate";
        goto done;
    }
    if (cls_stencil_to_json(st, &j1) != CLS_SUCCESS || cls_stencil_from_json(j1, &back) != CLS_SUCCESS ||
        cls_stencil_to_json(back, &j2) != CLS_SUCCESS) {
        r.bad = "an accepted spec's JSON does not load back";
        goto done;
    }
    if (strcmp(j1, j2) || !same_spec(st, back)) {
        r.bad = "an accepted spec's JSON loads back as another spec";
        goto done;
    }
    r.bad = reference(st, back);
done:
    cls_free(j1);
    cls_free(j2);
    cls_stencil_release(st);
    cls_stencil_release(back);
    free(text);
    return r;
}

CLS_FUZZ_ENTRY("fuzz_stencil_json", check_one)

#ifdef CLS_FUZZ_SMOKE
#include "fuzz_smoke.h"

static const char *const tokens[] = {
    "-1", "0", "1", "2", "3", "4", "1e999", "-0", "0.5", "1024", "null", "true", "[]", "{}", ",",
    ":", "[", "]", "{", "}", "\"\"", "\"x\"", "\\u0000", "\\n", "\"dims\": 2, ",
    "\"dtype\": \"double\", ", "\"boundary\": \"periodic\", ", "\"boundary\": \"mirror\", ",
    "{\"type\": \"constant\", \"value\": 3}", "\"halo\": [2, 1], ", "\"aux\": [\"w\"], ",
    "{\"name\": \"s\", \"per_step\": true}", "\"params\": {\"k\": 0.5}, ",
    "{\"offset\": [1, -1], \"coef\": 0.25}", "\"builtin\": \"hotspot\", ", "IN(0)", "IN(1, 0)",
    "IN(0, 0, -1)", "AUX(w, 0)", "AUX(0, 1, 0)", "STEP", "X", "NY", "real t = IN(0); return t;",
    "+", "*", "/", "?", ":", "sqrt(", "fmin(", "(", ")", "k",
};

int main(void)
{
    fuzz_smoke("stencil_json", check_one, tokens, sizeof tokens / sizeof tokens[0], 0, 20000);
    return tap_done();
}
#endif
