/* check_bench_output.c: is the output of `clstencil bench suite` well formed?
 *
 *   check_bench_output PREFIX N
 *
 * Parses PREFIX.json with cJSON (device object, a results array of N objects, each with its
 * app, ok true and finite positive timings and a plan) and PREFIX.csv (a header and N rows,
 * every row with as many fields as the header, quoted fields included, the numeric columns
 * numbers).  Prints one line per problem and exits 1 on any; speed is not checked. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problems;

static void bad(const char *what, const char *detail)
{
    printf("%s: %s\n", what, detail);
    problems++;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = 2 * (len + n + 1);
            char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (buf) buf[len] = 0;
    return buf;
}

static double number(const cJSON *o, const char *key, const char *app)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: '%s' is not a finite number", app, key);
        bad("json", msg);
        return NAN;
    }
    return v->valuedouble;
}

static void check_json(const char *path, int want)
{
    char *text = slurp(path);
    if (!text) return bad(path, "cannot read");
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) return bad(path, "not valid JSON");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    if (!cJSON_IsObject(dev) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dev, "name")))
        bad(path, "no device object with a name");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(root, "results");
    if (!cJSON_IsArray(res) || cJSON_GetArraySize(res) != want) {
        char msg[96];
        snprintf(msg, sizeof msg, "results is not an array of %d entries", want);
        bad(path, msg);
    } else {
        const cJSON *r;
        cJSON_ArrayForEach(r, res) {
            const cJSON *app = cJSON_GetObjectItemCaseSensitive(r, "app");
            const char *name = cJSON_IsString(app) ? app->valuestring : "?";
            if (!cJSON_IsString(app)) bad(path, "an entry without an app name");
            if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "ok"))) {
                bad(name, "ok is not true");
                continue;
            }
            const char *pos[] = {"seconds_per_step", "gpoints_per_s", "gbytes_per_s",
                                 "naive_seconds_per_step", "speedup_vs_naive",
                                 "copy_gbytes_per_s", "copy_fraction"};
            for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
                if (!(number(r, pos[i], name) > 0)) bad(name, pos[i]);
            number(r, "predicted_seconds_per_step", name);
            number(r, "prediction_error_percent", name);
            const cJSON *plan = cJSON_GetObjectItemCaseSensitive(r, "plan");
            if (!cJSON_IsObject(plan) ||
                !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(plan, "schedule")))
                bad(name, "no plan with a schedule");
        }
    }
    cJSON_Delete(root);
}

/* Splits one CSV record (RFC 4180 quoting) in place; returns the number of fields. */
static int split_csv(char *line, char **fields, int cap)
{
    int n = 0;
    char *p = line, *w;
    for (;;) {
        if (n == cap) return -1;
        fields[n++] = w = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) return -1; /* unterminated quote */
                if (*p == '"' && p[1] == '"') *w++ = '"', p += 2;
                else if (*p == '"') { p++; break; }
                else *w++ = *p++;
            }
            if (*p && *p != ',') return -1;
        } else {
            while (*p && *p != ',') *w++ = *p++;
        }
        int more = *p == ',';
        *w = 0;
        if (!more) return n;
        p++;
    }
}

static void check_csv(const char *path, int want)
{
    char *text = slurp(path);
    if (!text) return bad(path, "cannot read");
    char *fields[64], *hdr[64];
    int rows = 0, ncol = -1, num_cols[64] = {0};
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int n = split_csv(line, ncol < 0 ? hdr : fields, 64);
        if (n < 0) {
            bad(path, "a record that does not parse");
            continue;
        }
        if (ncol < 0) {
            ncol = n;
            for (int i = 0; i < n; i++)
                num_cols[i] = strstr(hdr[i], "seconds") || strstr(hdr[i], "gpoints") ||
                              strstr(hdr[i], "gbytes") || strcmp(hdr[i], "speedup_vs_naive") == 0 ||
                              strcmp(hdr[i], "steps") == 0 || strcmp(hdr[i], "points") == 0;
            if (n < 20 || strcmp(hdr[0], "app") != 0) bad(path, "unexpected header");
            continue;
        }
        rows++;
        if (n != ncol) {
            char msg[96];
            snprintf(msg, sizeof msg, "row %d has %d fields, the header %d", rows, n, ncol);
            bad(path, msg);
            continue;
        }
        for (int i = 0; i < n; i++) {
            char *end;
            if (!num_cols[i]) continue;
            strtod(fields[i], &end);
            if (end == fields[i] || *end) {
                char msg[160];
                snprintf(msg, sizeof msg, "row %d: %s '%s' is not a number", rows, hdr[i],
                         fields[i]);
                bad(path, msg);
            }
        }
    }
    if (rows != want) {
        char msg[64];
        snprintf(msg, sizeof msg, "%d rows, expected %d", rows, want);
        bad(path, msg);
    }
    free(text);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_bench_output PREFIX N\n");
        return 2;
    }
    int want = atoi(argv[2]);
    size_t len = strlen(argv[1]) + 8;
    char *path = malloc(len);
    if (!path) return 2;
    snprintf(path, len, "%s.json", argv[1]);
    check_json(path, want);
    snprintf(path, len, "%s.csv", argv[1]);
    check_csv(path, want);
    free(path);
    if (!problems) printf("well formed: %d entries\n", want);
    return problems ? 1 : 0;
}
