/* test_system_spec.c: systems of fields without a device: the spec (C API and JSON, the
 * round trip), every refusal with the field, stage and offset it names, and the host
 * reference's semantics (stages read the previous stage's values, a stage's updates read its
 * start, time levels hold the previous step, a one-field system equals the single-field
 * stencil). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

/* Whether building the spec from JSON fails with a message holding every needle. */
static void refused(const char *json, const char *what, const char *n1, const char *n2)
{
    cls_stencil *st = NULL;
    cls_status s = cls_stencil_from_json(json, &st);
    const char *msg = cls_last_error();
    int ok = s != CLS_SUCCESS && !st && strstr(msg, n1) && (!n2 || strstr(msg, n2));
    tap_ok(ok, "refused: %s", what);
    if (!ok) tap_diag("status %d, message: %s", (int)s, msg);
    cls_stencil_release(st);
}

#define SYS2(fields, stages) \
    "{\"name\": \"s\", \"dims\": 2, \"fields\": " fields ", \"stages\": " stages "}"

static void test_refusals(void)
{
    refused(SYS2("[\"u\", \"v\"]", "[{\"update\": {\"u\": \"IN(w, 0, 0)\", \"v\": \"IN(u, 0, 0)\"}}]"),
            "an unknown field in IN", "stage 0, update of 'u'", "unknown field 'w'");
    refused(SYS2("[\"u\", \"v\"]", "[{\"update\": {\"u\": \"IN(v, 0, 0)\"}}]"),
            "a field no stage updates", "field 'v'", "no stage updates it");
    refused(SYS2("[\"u\", {\"name\": \"p\", \"previous\": \"q\"}]",
                 "[{\"update\": {\"u\": \"IN(p, 0, 0)\"}}]"),
            "a time level of a missing field", "field 'p' is a time level of 'q'", "no field");
    refused(SYS2("[\"u\", {\"name\": \"a\", \"previous\": \"b\"}, {\"name\": \"b\", \"previous\": \"a\"}]",
                 "[{\"update\": {\"u\": \"IN(a, 0, 0)\"}}]"),
            "time levels in a cycle", "field 'a'", "cycle");
    refused(SYS2("[\"u\", {\"name\": \"p\", \"previous\": \"p\"}]",
                 "[{\"update\": {\"u\": \"IN(p, 0, 0)\"}}]"),
            "a time level of itself", "field 'p'", "cycle");
    refused(SYS2("[\"u\", {\"name\": \"p\", \"previous\": \"u\"}]",
                 "[{\"update\": {\"u\": \"IN(p, 0, 0)\", \"p\": \"1\"}}]"),
            "a time level given a body", "stages[0].update.p", "time level of 'u'");
    refused(SYS2("[\"u\"]", "[{\"update\": {\"u\": \"1\", \"u\": \"2\"}}]"),
            "a field updated twice in one stage (JSON)", "stages[0].update.u", "twice");
    refused(SYS2("[\"u\", \"v\"]", "[{\"update\": {\"u\": \"IN(v, 0, 1025)\", \"v\": \"1\"}}]"),
            "an offset beyond the limit", "stage 0, update of 'u'", "out of range");
    refused(SYS2("[\"u\", \"v\"]", "[{\"update\": {\"u\": \"IN(0, 0)\", \"v\": \"1\"}}]"),
            "IN without a field where several are updated", "update of 'u'", "IN(field");
    refused(SYS2("[\"u\"]", "[{\"update\": {\"u\": \"1\"}}, {\"update\": {}}]"),
            "an empty stage", "$.stages[1].update", "non-empty");
    refused("{\"dims\": 2, \"body\": \"IN(0,0)\", \"fields\": [\"u\"], \"stages\": []}",
            "body and fields together", "$.body", "not both");
    refused("{\"dims\": 2, \"fields\": [\"u\"]}", "fields without stages", "$.stages", "missing");
    refused(SYS2("[\"u\", \"u\"]", "[{\"update\": {\"u\": \"1\"}}]"), "a field declared twice",
            "$.fields[1]", "declared twice");
    refused("{\"dims\": 2, \"aux\": [\"k\"], \"fields\": [\"k\"], \"stages\": [{\"update\": {\"k\": \"1\"}}]}",
            "a field named like an aux array", "$.fields[0]", "already");
    refused(SYS2("[\"u\", \"v\"]", "[{\"update\": {\"u\": \"real v = 1; return v;\", \"v\": \"1\"}}]"),
            "a local shadowing a field", "update of 'u'", "shadows a field");
    refused("{\"dims\": 2, \"halo\": [1, 1], \"fields\": [\"u\", \"v\"], \"stages\": "
            "[{\"update\": {\"u\": \"IN(v, 2, 0)\", \"v\": \"1\"}}]}",
            "an offset beyond the halo", "stage 0, update of 'u': reads offset 2 in x", NULL);

    /* The C API refuses at once. */
    cls_stencil *st = NULL;
    size_t g = 9;
    tap_ok(cls_stencil_create("c", 2, CLS_FLOAT32, NULL, &st) == CLS_SUCCESS &&
               cls_stencil_add_field(st, "u") == CLS_SUCCESS &&
               cls_stencil_add_time_level(st, "u1", "u") == CLS_SUCCESS &&
               cls_stencil_add_stage(st, &g) == CLS_SUCCESS && g == 0 &&
               cls_stencil_set_update(st, 0, "u", "IN(u, 0, 0) + IN(u1, 0, 0)") == CLS_SUCCESS,
           "C API: a field, a time level, a stage and an update");
    tap_ok(cls_stencil_set_update(st, 0, "u", "1") != CLS_SUCCESS &&
               strstr(cls_last_error(), "stage 0: field 'u' is updated twice"),
           "C API: a field updated twice in one stage (%s)", cls_last_error());
    tap_ok(cls_stencil_set_update(st, 0, "u1", "1") != CLS_SUCCESS &&
               strstr(cls_last_error(), "'u1' is a time level"),
           "C API: a time level given a body (%s)", cls_last_error());
    tap_ok(cls_stencil_set_update(st, 1, "u", "1") != CLS_SUCCESS &&
               strstr(cls_last_error(), "stage 1"),
           "C API: an update of a missing stage (%s)", cls_last_error());
    tap_ok(cls_stencil_add_point(st, 0, 0, 0, 1.0) != CLS_SUCCESS, "C API: no points in a system");
    tap_ok(cls_stencil_validate(st) == CLS_SUCCESS && cls_stencil_is_system(st) &&
               cls_stencil_num_fields(st) == 2 && cls_stencil_num_stages(st) == 1 &&
               !strcmp(cls_stencil_field_previous(st, 1), "u") &&
               !cls_stencil_field_previous(st, 0) && cls_stencil_field_index(st, "u1") == 1 &&
               cls_stencil_body(st) == NULL,
           "C API: accessors of a system");
    cls_stencil_release(st);
    cls_stencil *one = NULL;
    tap_ok(cls_stencil_create("one", 1, CLS_FLOAT32, "IN(0)", &one) == CLS_SUCCESS &&
               cls_stencil_add_field(one, "u") != CLS_SUCCESS && !cls_stencil_is_system(one) &&
               cls_stencil_num_fields(one) == 1 && !strcmp(cls_stencil_field_name(one, 0), "u") &&
               cls_stencil_field_index(one, "u") == 0 && cls_stencil_num_stages(one) == 1 &&
               !strcmp(cls_stencil_update_body(one, 0, 0, NULL), "IN(0)"),
           "a single-field stencil reads as the one-field system of 'u' and takes no fields");
    cls_stencil_release(one);
}

static const char *const yee_json =
    "{\"name\": \"yee1\", \"dims\": 1, \"dtype\": \"double\", \"boundary\": \"periodic\","
    " \"fields\": [\"e\", \"h\", {\"name\": \"e_old\", \"previous\": \"e\"}],"
    " \"params\": {\"c\": 0.5},"
    " \"stages\": [{\"update\": {\"h\": \"IN(h, 0) + c * (IN(e, 1) - IN(e, 0))\"}},"
    "              {\"update\": {\"e\": \"IN(e, 0) + c * (IN(h, 0) - IN(h, -1)) + 0 * IN(e_old, 0)\"}}]}";

static void test_round_trip(void)
{
    cls_stencil *a = NULL, *b = NULL;
    char *ja = NULL, *jb = NULL;
    int ok = cls_stencil_from_json(yee_json, &a) == CLS_SUCCESS &&
             cls_stencil_to_json(a, &ja) == CLS_SUCCESS &&
             cls_stencil_from_json(ja, &b) == CLS_SUCCESS &&
             cls_stencil_to_json(b, &jb) == CLS_SUCCESS && !strcmp(ja, jb);
    tap_ok(ok, "JSON round trip of a system (fields, a time level, two stages)");
    if (!ok) tap_diag("%s", cls_last_error());
    tap_ok(b && cls_stencil_num_fields(b) == 3 && cls_stencil_num_stages(b) == 2 &&
               cls_stencil_stage_num_updates(b, 1) == 1,
           "the round trip keeps fields and stages");
    cls_stencil *c = NULL;
    tap_ok(a && cls_stencil_copy(a, &c) == CLS_SUCCESS && cls_stencil_num_stages(c) == 2 &&
               strcmp(cls_stencil_update_body(c, 0, 0, NULL), cls_stencil_update_body(a, 0, 0, NULL)) == 0 &&
               cls_stencil_update_body(c, 0, 0, NULL) != cls_stencil_update_body(a, 0, 0, NULL),
           "a copy owns its own update bodies");
    int halo[3];
    cls_stencil_halo(a, halo);
    tap_ok(halo[0] == 1, "the halo covers every update (%d)", halo[0]);
    double mb = cls_stencil_min_bytes_per_point(a);
    /* stage 0 reads h and e, writes h; stage 1 reads e, h and e_old, writes e: 7 arrays */
    tap_ok(mb == 7 * 8.0, "minimal traffic counts every field read and written per stage (%g)", mb);
    size_t flops = 0;
    cls_status fs = cls_stencil_flops(a, &flops);
    tap_ok(fs == CLS_SUCCESS && flops == 3 + 5,
           "flops add up over the updates (%zu)", flops);
    cls_stencil_release(c);
    free(ja);
    free(jb);
    cls_stencil_release(a);
    cls_stencil_release(b);
}

static void test_reference(void)
{
    /* Yee in 1D by hand: stage 1 reads the h stage 0 wrote; e_old holds e's previous step. */
    cls_stencil *st = NULL;
    cls_stencil_from_json(yee_json, &st);
    enum { N = 8, T = 3 };
    double e[N], h[N], eo[N], re[N], rh[N], reo[N];
    for (int i = 0; i < N; i++) {
        e[i] = sin(i * 0.7) + 0.1 * i;
        h[i] = cos(i * 0.3);
        eo[i] = -1;
    }
    double me[N], mh[N], meo[N];
    memcpy(me, e, sizeof e);
    memcpy(mh, h, sizeof h);
    memcpy(meo, eo, sizeof eo);
    for (int t = 0; t < T; t++) {
        double nh[N], ne[N];
        for (int i = 0; i < N; i++) nh[i] = mh[i] + 0.5 * (me[(i + 1) % N] - me[i]);
        for (int i = 0; i < N; i++) ne[i] = me[i] + 0.5 * (nh[i] - nh[(i + N - 1) % N]) + 0 * meo[i];
        memcpy(meo, me, sizeof me);
        memcpy(mh, nh, sizeof nh);
        memcpy(me, ne, sizeof ne);
    }
    const void *in[3] = {e, h, eo};
    void *out[3] = {re, rh, reo};
    cls_dims d = {{N, 1, 1}};
    int ok = cls_reference_run_fields(st, d, T, in, NULL, out) == CLS_SUCCESS &&
             !memcmp(re, me, sizeof re) && !memcmp(rh, mh, sizeof rh) &&
             !memcmp(reo, meo, sizeof reo);
    tap_ok(ok, "reference: stages in order, the time level holds the previous step (Yee 1D)");
    if (!ok) tap_diag("%s", cls_last_error());
    tap_ok(cls_reference_run(st, d, 1, e, NULL, re) != CLS_SUCCESS &&
               strstr(cls_last_error(), "cls_reference_run_fields"),
           "cls_reference_run refuses a system and names the call to use");
    /* in place */
    memcpy(re, e, sizeof e);
    memcpy(rh, h, sizeof h);
    memcpy(reo, eo, sizeof eo);
    const void *in2[3] = {re, rh, reo};
    tap_ok(cls_reference_run_fields(st, d, T, in2, NULL, out) == CLS_SUCCESS &&
               !memcmp(re, me, sizeof re) && !memcmp(reo, meo, sizeof reo),
           "reference: outputs may be the inputs");
    cls_stencil_release(st);

    /* A one-field system with the single-field body is the single-field stencil. */
    const char *body = "0.25 * (IN(-1, 0) + IN(1, 0) + IN(0, -1) + IN(0, 1))";
    cls_stencil *s1 = NULL, *s2 = NULL;
    cls_stencil_create("a", 2, CLS_FLOAT32, body, &s1);
    cls_stencil_create("b", 2, CLS_FLOAT32, NULL, &s2);
    cls_stencil_add_field(s2, "w");
    cls_stencil_add_stage(s2, NULL);
    cls_stencil_set_update(s2, 0, "w", body);
    cls_stencil_set_boundary(s1, CLS_BOUNDARY_MIRROR, 0);
    cls_stencil_set_boundary(s2, CLS_BOUNDARY_MIRROR, 0);
    enum { M = 9 * 7 };
    float u[M], a1[M], a2[M];
    for (int i = 0; i < M; i++) u[i] = (float)((i * 37) % 11) / 11.0f;
    cls_dims d2 = {{9, 7, 1}};
    const void *i2[1] = {u};
    void *o2[1] = {a2};
    tap_ok(cls_reference_run(s1, d2, 5, u, NULL, a1) == CLS_SUCCESS &&
               cls_reference_run_fields(s2, d2, 5, i2, NULL, o2) == CLS_SUCCESS &&
               !memcmp(a1, a2, sizeof a1),
           "reference: a one-field system equals the single-field stencil, bitwise");
    cls_stencil_release(s1);
    cls_stencil_release(s2);
}

int main(void)
{
    test_refusals();
    test_round_trip();
    test_reference();
    return tap_done();
}
