/* test_spec.c: stencil specifications: JSON round trips, built-ins, and every kind of invalid spec. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

/* Expects `json` to be rejected with `code` and a message containing `needle`. */
static void reject(const char *json, cls_status code, const char *needle, const char *what)
{
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_from_json(json, &st);
    int ok = s == code && st == NULL && strstr(cls_last_error(), needle) != NULL;
    tap_ok(ok, "rejects %s", what);
    if (!ok) tap_diag("status %s, message: %s", cls_status_string(s), cls_last_error());
    cls_stencil_release(st);
}

/* Expects a valid spec to fail cls_reference_run's size checks with `needle`. */
static void reject_size(const char *json, cls_dims d, const char *needle, const char *what)
{
    cls_stencil *st = NULL;
    if (cls_stencil_from_json(json, &st) != CLS_SUCCESS) {
        tap_ok(0, "%s: spec did not load: %s", what, cls_last_error());
        return;
    }
    float in[16] = {0}, out[16];
    cls_status s = cls_reference_run(st, d, 1, in, NULL, out);
    int ok = s == CLS_ERR_INVALID_SIZE && strstr(cls_last_error(), needle) != NULL;
    tap_ok(ok, "rejects %s", what);
    if (!ok) tap_diag("status %s, message: %s", cls_status_string(s), cls_last_error());
    cls_stencil_release(st);
}

static void round_trip(cls_stencil *st, const char *what)
{
    char *a = NULL, *b = NULL;
    cls_stencil *back = NULL;
    int ok = cls_stencil_to_json(st, &a) == CLS_SUCCESS &&
             cls_stencil_from_json(a, &back) == CLS_SUCCESS &&
             cls_stencil_to_json(back, &b) == CLS_SUCCESS && strcmp(a, b) == 0 &&
             (cls_stencil_is_system(st) ? cls_stencil_num_stages(back) == cls_stencil_num_stages(st)
                                        : strcmp(cls_stencil_body(st), cls_stencil_body(back)) == 0);
    tap_ok(ok, "round trip of %s", what);
    if (!ok) tap_diag("%s\n---\n%s\n%s", a ? a : "(null)", b ? b : "(null)", cls_last_error());
    cls_free(a);
    cls_free(b);
    cls_stencil_release(back);
}

int main(void)
{
    /* Every built-in loads, validates and round-trips. */
    for (size_t i = 0; cls_stencil_builtin_name(i); i++) {
        const char *name = cls_stencil_builtin_name(i);
        cls_stencil *st = NULL;
        int ok = cls_stencil_builtin(name, &st) == CLS_SUCCESS && cls_stencil_validate(st) == CLS_SUCCESS;
        tap_ok(ok, "built-in %s loads and validates", name);
        if (!ok) tap_diag("%s", cls_last_error());
        if (st) round_trip(st, name);
        cls_stencil_release(st);
    }

    /* A JSON spec with points, aux, params, halo and a constant boundary. */
    const char *good =
        "{\"name\":\"lap\",\"dims\":2,\"dtype\":\"double\",\"halo\":[2,1],"
        "\"boundary\":{\"type\":\"constant\",\"value\":1.5},"
        "\"points\":[{\"offset\":[-1,0],\"coef\":0.25},{\"offset\":[1,0],\"coef\":0.25},"
        "{\"offset\":[0,-1],\"coef\":0.25},{\"offset\":[0,1],\"coef\":0.25}]}";
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_from_json(good, &st);
    tap_ok(s == CLS_SUCCESS, "points spec loads (%s)", s ? cls_last_error() : "");
    if (st) {
        int h[3];
        cls_stencil_halo(st, h);
        tap_ok(h[0] == 2 && h[1] == 1 && h[2] == 0, "explicit halo kept");
        tap_ok(cls_stencil_dtype(st) == CLS_FLOAT64, "dtype double");
        tap_ok(cls_stencil_boundary(st) == CLS_BOUNDARY_CONSTANT, "constant boundary");
        tap_ok(strstr(cls_stencil_body(st), "0.25 * (IN(-1, 0) + IN(1, 0)") != NULL,
               "body generated from points, equal coefficients grouped: %s",
               cls_stencil_body(st));
        round_trip(st, "points spec");
        cls_stencil_release(st);
    }
    const char *body_spec =
        "{\"name\":\"src\",\"dims\":3,\"body\":\"real s = IN(0,0,1) + AUX(f,0,0,0); return k*s;\","
        "\"aux\":[\"f\",{\"name\":\"g\",\"per_step\":true}],\"params\":{\"k\":2},\"boundary\":\"periodic\"}";
    s = cls_stencil_from_json(body_spec, &st);
    tap_ok(s == CLS_SUCCESS, "body spec loads (%s)", s ? cls_last_error() : "");
    if (st) {
        int h[3];
        cls_stencil_halo(st, h);
        tap_ok(h[0] == 0 && h[1] == 0 && h[2] == 1, "halo derived from the body");
        tap_ok(cls_stencil_num_aux(st) == 2 && cls_stencil_aux_per_step(st, 1), "aux arrays kept");
        round_trip(st, "body spec");
        cls_stencil_release(st);
    }
    s = cls_stencil_from_json("{\"builtin\":\"moving_average\",\"params\":{\"radius\":7},\"dtype\":\"double\"}", &st);
    tap_ok(s == CLS_SUCCESS, "built-in with overrides loads");
    if (st) {
        int h[3];
        cls_stencil_halo(st, h);
        tap_ok(h[0] == 7, "structural parameter regenerates the halo (%d)", h[0]);
        round_trip(st, "moving_average radius 7");
        cls_stencil_release(st);
    }

    /* Invalid specs: each names the problem. */
    reject("{\"dims\":2,", CLS_ERR_INVALID_JSON, "line 1", "malformed JSON");
    reject("[1,2]", CLS_ERR_INVALID_SPEC, "expected an object", "a non-object");
    reject("{\"body\":\"IN(0)\"}", CLS_ERR_INVALID_SPEC, "$.dims: missing", "missing dims");
    reject("{\"dims\":2}", CLS_ERR_INVALID_SPEC, "$.body: missing", "missing body");
    reject("{\"dims\":\"two\",\"body\":\"IN(0,0)\"}", CLS_ERR_INVALID_SPEC, "$.dims: expected an integer",
           "dims of wrong type");
    reject("{\"dims\":4,\"body\":\"IN(0)\"}", CLS_ERR_INVALID_SPEC, "$.dims", "dims out of range");
    reject("{\"dims\":1,\"body\":5}", CLS_ERR_INVALID_SPEC, "$.body: expected a string", "body of wrong type");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"colour\":1}", CLS_ERR_INVALID_SPEC, "$.colour: unknown field",
           "an unknown field");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"boundary\":\"wrap\"}", CLS_ERR_INVALID_SPEC,
           "unknown boundary 'wrap'", "an unknown boundary");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"boundary\":{\"type\":\"clamp\",\"value\":1}}",
           CLS_ERR_INVALID_SPEC, "$.boundary.value", "a value on a non-constant boundary");
    reject("{\"dims\":2,\"body\":\"INN(0,0)\"}", CLS_ERR_INVALID_SPEC, "INN", "an unknown accessor");
    reject("{\"dims\":2,\"body\":\"IN(0,0,0)\"}", CLS_ERR_INVALID_SPEC, "IN", "wrong accessor arity");
    reject("{\"dims\":2,\"body\":\"AUX(p,0,0)\"}", CLS_ERR_INVALID_SPEC, "p", "an unknown aux array");
    reject("{\"dims\":2,\"body\":\"IN(0,0) * k\"}", CLS_ERR_INVALID_SPEC, "k", "an unknown parameter");
    reject("{\"dims\":2,\"body\":\"IN(0,2)\",\"halo\":[1,1]}", CLS_ERR_INVALID_SPEC, "halo",
           "an offset beyond the halo");
    reject("{\"dims\":2,\"body\":\"IN(0,0)\",\"halo\":[1]}", CLS_ERR_INVALID_SPEC, "$.halo",
           "a halo of the wrong length");
    reject("{\"dims\":2,\"body\":\"IN(0,0)\",\"halo\":[1,-1]}", CLS_ERR_INVALID_SPEC, "$.halo[1]",
           "a negative halo");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"params\":{\"a\":\"x\"}}", CLS_ERR_INVALID_SPEC,
           "$.params.a", "a parameter of wrong type");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"params\":{\"IN\":1}}", CLS_ERR_INVALID_SPEC,
           "$.params.IN", "a parameter with a reserved name");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"aux\":[\"a\",\"a\"]}", CLS_ERR_INVALID_SPEC, "$.aux[1]",
           "a duplicate aux name");
    reject("{\"dims\":1,\"points\":[{\"offset\":[0,1],\"coef\":1}]}", CLS_ERR_INVALID_SPEC,
           "$.points[0].offset", "a point of the wrong dimension");
    reject("{\"dims\":1,\"points\":[{\"offset\":[0]}]}", CLS_ERR_INVALID_SPEC, "$.points[0].coef",
           "a point without a coefficient");
    reject("{\"dims\":1,\"points\":[]}", CLS_ERR_INVALID_SPEC, "$.points", "empty points");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"points\":[{\"offset\":[0],\"coef\":1}]}",
           CLS_ERR_INVALID_SPEC, "not both", "body and points together");
    reject("{\"dims\":1,\"body\":\"IN(0)\",\"dtype\":\"half\"}", CLS_ERR_INVALID_SPEC, "$.dtype",
           "an unknown dtype");
    reject("{\"builtin\":\"nosuch\"}", CLS_ERR_UNKNOWN_STENCIL, "nosuch", "an unknown built-in");
    reject("{\"builtin\":\"hotspot\",\"dims\":3}", CLS_ERR_INVALID_SPEC, "$.builtin",
           "overriding a built-in's structure");
    reject("{\"builtin\":\"moving_average\",\"params\":{\"radius\":0.5}}", CLS_ERR_INVALID_SPEC,
           "radius", "a non-integer structural parameter");

    /* Size checks happen against a grid. */
    const char *lap2 = "{\"dims\":2,\"body\":\"IN(-1,0)+IN(1,0)+IN(0,2)\"}";
    reject_size(lap2, (cls_dims){{4, 0, 1}}, "must be positive", "a zero size");
    reject_size(lap2, (cls_dims){{4, 2, 1}}, "halo 2 in y", "a halo larger than the grid");
    reject_size(lap2, (cls_dims){{4, 4, 3}}, "2-D stencil", "sizes of the wrong dimensionality");
    reject_size(lap2, (cls_dims){{(size_t)1 << 31, 4, 1}}, "exceeds", "an axis beyond 2^30");
    reject_size("{\"dims\":3,\"body\":\"IN(0,0,0)\"}",
                (cls_dims){{(size_t)1 << 30, (size_t)1 << 30, (size_t)1 << 30}}, "overflow",
                "a size whose point count overflows");

    /* Status table. */
    tap_ok(!strcmp(cls_status_string(CLS_ERR_BUILD_FAILED), "CLS_ERR_BUILD_FAILED"), "status names");
    tap_ok(!strcmp(cls_status_string(-11), "CL_BUILD_PROGRAM_FAILURE"), "OpenCL codes keep their names");
    return tap_done();
}
