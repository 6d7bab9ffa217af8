/* cli_util.c: option parsing, strict numbers and sizes, text/CSV/JSON output, progress. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---------------------------------------------------------------- errors */
int cli_fail(int status)
{
    const char *detail = cls_last_error();
    if (!detail || !*detail) detail = cls_status_message(status);
    fprintf(stderr, "clstencil: %s: %s\n", cls_status_string(status), detail);
    return CLI_EXIT_FAIL;
}

int cli_failf(int status, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "clstencil: %s: ", cls_status_string(status));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_FAIL;
}

/* ---------------------------------------------------------------- files */
char *cli_read_file(const char *path, size_t max_bytes, const char *what)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    if (!f) {
        cli_failf(CLS_ERR_IO, "%s: %s", path, strerror(errno));
        return NULL;
    }
    buf = malloc(max_bytes + 1);
    if (!buf) {
        fclose(f);
        cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "%s: no memory to read it", path);
        return NULL;
    }
    n = fread(buf, 1, max_bytes + 1, f);
    if (ferror(f) || n > max_bytes) {
        if (ferror(f)) cli_failf(CLS_ERR_IO, "%s: read error", path);
        else cli_failf(CLS_ERR_IO, "%s: larger than %zu MiB, not %s", path, max_bytes >> 20, what);
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* ---------------------------------------------------------------- options */
void cli_parser_init(cli_parser *p, const cli_command *cmd, const cli_option *options, int argc,
                     char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->options = options;
    p->argc = argc;
    p->argv = argv;
    p->index = 1; /* argv[0] is the command's name */
    p->opt_name = "";
}

int cli_next(cli_parser *p, const char **value)
{
    *value = NULL;
    for (;;) {
        if (p->index >= p->argc) return CLI_OPT_END;
        char *a = p->argv[p->index++];
        /* "-" alone is an ordinary argument, as in most tools. */
        if (p->only_positional || a[0] != '-' || a[1] == '\0') {
            *value = a;
            return CLI_OPT_POSITIONAL;
        }
        if (strcmp(a, "--") == 0) {
            p->only_positional = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return CLI_OPT_HELP;
        if (a[1] != '-') {
            cli_usage_error(p->cmd, "unknown option '%s'", a);
            return CLI_OPT_ERROR;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (const cli_option *o = p->options; o && o->name; o++) {
            if (strlen(o->name) != len || strncmp(o->name, name, len) != 0) continue;
            snprintf(p->opt_buf, sizeof p->opt_buf, "--%s", o->name);
            p->opt_name = p->opt_buf;
            if (!o->has_arg) {
                if (eq) {
                    cli_usage_error(p->cmd, "option '--%s' takes no value", o->name);
                    return CLI_OPT_ERROR;
                }
                return o->id;
            }
            if (eq) {
                *value = eq + 1;
            } else if (p->index < p->argc) {
                *value = p->argv[p->index++];
            } else {
                cli_usage_error(p->cmd, "option '--%s' needs a value", o->name);
                return CLI_OPT_ERROR;
            }
            return o->id;
        }
        cli_usage_error(p->cmd, "unknown option '--%.*s'", (int)len, name);
        return CLI_OPT_ERROR;
    }
}

/* ---------------------------------------------------------------- numbers and sizes */
static int all_digits(const char *s, size_t n)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return 0;
    return 1;
}

/* Parses n characters of decimal digits into a size_t >= 1. */
static int parse_count_n(const char *s, size_t n, size_t *out)
{
    char buf[32];
    if (!all_digits(s, n) || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno == ERANGE || *end != '\0' || v > SIZE_MAX || v == 0) return -1;
    *out = (size_t)v;
    return 0;
}

int cli_parse_count(const char *s, size_t *out)
{
    return parse_count_n(s, strlen(s), out);
}

int cli_parse_double(const char *s, double *out)
{
    if (!*s || isspace((unsigned char)s[0])) return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int cli_parse_bytes(const char *s, double *bytes)
{
    char *end;
    if (!s || !*s) return -1;
    double v = strtod(s, &end);
    double m = 1;
    if (*end == 'K' || *end == 'k') m = 1024.0, end++;
    else if (*end == 'M' || *end == 'm') m = 1024.0 * 1024, end++;
    else if (*end == 'G' || *end == 'g') m = 1024.0 * 1024 * 1024, end++;
    else if (*end == 'T' || *end == 't') m = 1024.0 * 1024 * 1024 * 1024, end++;
    if (*end == 'i' && m > 1) end++;
    if (*end == 'B') end++;
    if (*end || !(v > 0) || !isfinite(v)) return -1;
    *bytes = floor(v * m);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cli_sort_doubles(double *v, size_t n) { qsort(v, n, sizeof *v, cmp_double); }

double cli_median(double *v, size_t n)
{
    cli_sort_doubles(v, n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int cli_size_option(const cli_command *self, const char *v, cls_dims *size, int *ndims)
{
    if (cli_parse_size(v, size, ndims) == 0) return CLI_EXIT_OK;
    return cli_usage_error(self,
                           "invalid --size '%s': expected NX, NXxNY or NXxNYxNZ with every "
                           "size a whole number >= 1",
                           v);
}

int cli_parse_size(const char *s, cls_dims *dims, int *ndims)
{
    cls_dims d = {{1, 1, 1}};
    int k = 0;
    size_t total = 1;
    const char *p = s;
    for (;;) {
        size_t n = strcspn(p, "xX");
        if (k == 3 || parse_count_n(p, n, &d.n[k]) != 0) return -1;
        if (d.n[k] > SIZE_MAX / total) return -1; /* points would overflow */
        total *= d.n[k];
        k++;
        if (p[n] == '\0') break;
        p += n + 1;
    }
    *dims = d;
    *ndims = k;
    return 0;
}

void cli_format_size(char *buf, size_t len, cls_dims dims, int ndims)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ndims && i < 3 && used < len; i++) {
        int m = snprintf(buf + used, len - used, i ? "x%zu" : "%zu", dims.n[i]);
        if (m < 0) break;
        used += (size_t)m;
    }
}

int cli_parse_dtype(const char *s, cls_dtype *out)
{
    if (strcmp(s, "float") == 0 || strcmp(s, "float32") == 0)
        *out = CLS_FLOAT32;
    else if (strcmp(s, "double") == 0 || strcmp(s, "float64") == 0)
        *out = CLS_FLOAT64;
    else
        return -1;
    return 0;
}

int cli_parse_boundary(const char *s, cls_boundary *b, double *value)
{
    char name[32];
    const char *eq = strchr(s, '=');
    size_t n = eq ? (size_t)(eq - s) : strlen(s);
    if (n == 0 || n >= sizeof name) return -1;
    memcpy(name, s, n);
    name[n] = '\0';
    if (cls_boundary_from_name(name, b) != CLS_SUCCESS) return -1;
    *value = 0.0;
    if (eq) {
        /* Only a constant boundary has a value. */
        if (*b != CLS_BOUNDARY_CONSTANT || cli_parse_double(eq + 1, value) != 0) return -1;
    }
    return 0;
}

int cli_parse_assign(const char *s, char *name, size_t cap, const char **value)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= cap) return -1;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = '\0';
    *value = eq + 1;
    return 0;
}

int cli_parse_format(const char *s, int allowed, cli_format *out)
{
    static const struct { const char *name; cli_format f; } names[] = {
        {"text", CLI_FORMAT_TEXT}, {"csv", CLI_FORMAT_CSV}, {"json", CLI_FORMAT_JSON}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0 && (allowed & (int)names[i].f)) {
            *out = names[i].f;
            return 0;
        }
    return -1;
}

/* ---------------------------------------------------------------- JSON */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        switch (*c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*c < 0x20)
                fprintf(f, "\\u%04x", *c);
            else
                fputc(*c, f);
        }
    }
    fputc('"', f);
}

/* Writes the separator, indentation and key of the next member. */
static void json_member(cli_json *j, const char *key)
{
    if (!j->first[j->depth]) fputc(',', j->f);
    j->first[j->depth] = 0;
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
    if (key) {
        json_string(j->f, key);
        fputs(": ", j->f);
    }
}

static void json_open(cli_json *j, char bracket)
{
    fputc(bracket, j->f);
    if (j->depth < 15) j->depth++;
    j->first[j->depth] = 1;
    j->close[j->depth] = bracket == '{' ? '}' : ']';
}

void cli_json_begin(cli_json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    json_open(j, '{');
}

void cli_json_close(cli_json *j)
{
    if (j->depth == 0) return;
    int empty = j->first[j->depth];
    char closing = j->close[j->depth];
    j->depth--;
    if (!empty) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
    }
    fputc(closing, j->f);
}

void cli_json_end(cli_json *j)
{
    while (j->depth > 0) cli_json_close(j);
    fputc('\n', j->f);
}

void cli_json_object(cli_json *j, const char *key)
{
    json_member(j, key);
    json_open(j, '{');
}

void cli_json_array(cli_json *j, const char *key)
{
    json_member(j, key);
    json_open(j, '[');
}

void cli_json_str(cli_json *j, const char *key, const char *value)
{
    json_member(j, key);
    if (value)
        json_string(j->f, value);
    else
        fputs("null", j->f);
}

void cli_json_num(cli_json *j, const char *key, double value)
{
    json_member(j, key);
    if (isfinite(value))
        fprintf(j->f, "%.17g", value);
    else
        fputs("null", j->f);
}

void cli_json_uint(cli_json *j, const char *key, uint64_t value)
{
    json_member(j, key);
    fprintf(j->f, "%llu", (unsigned long long)value);
}

void cli_json_int(cli_json *j, const char *key, long long value)
{
    json_member(j, key);
    fprintf(j->f, "%lld", value);
}

void cli_json_bool(cli_json *j, const char *key, int value)
{
    json_member(j, key);
    fputs(value ? "true" : "false", j->f);
}

void cli_json_size_array(cli_json *j, const char *key, const size_t *v, int n)
{
    json_member(j, key);
    fputc('[', j->f);
    for (int i = 0; i < n; i++) fprintf(j->f, i ? ", %zu" : "%zu", v[i]);
    fputc(']', j->f);
}

/* ---------------------------------------------------------------- CSV and text */
void cli_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

const char *cli_quote(char *buf, size_t len, const char *s)
{
    size_t o = 0, i;
    if (len < 8) {
        if (len) buf[0] = '\0';
        return buf;
    }
    buf[o++] = '\'';
    for (i = 0; s && s[i] && i < 64 && o + 6 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c > 0x7e || c == '\'' || c == '\\')
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
        else
            buf[o++] = (char)c;
    }
    if (s && s[i] && o + 4 < len) o += (size_t)snprintf(buf + o, len - o, "...");
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

FILE *cli_out_open(cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->f = open_memstream(&o->buf, &o->len);
    if (!o->f) cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "%s: cannot buffer the output", path);
    return o->f;
}

int cli_out_close(cli_out *o)
{
    int ret = CLI_EXIT_OK;
    if (!o->f) return ret;
    if (fclose(o->f) != 0) {
        ret = cli_failf(CLS_ERR_OUT_OF_HOST_MEMORY, "%s: cannot buffer the output", o->path);
    } else {
        int rc = cls_file_write(o->path, o->buf ? o->buf : "", o->len);
        if (rc != CLS_SUCCESS) ret = cli_fail(rc);
    }
    free(o->buf);
    memset(o, 0, sizeof *o);
    return ret;
}

void cli_out_discard(cli_out *o)
{
    if (o->f) fclose(o->f);
    free(o->buf);
    memset(o, 0, sizeof *o);
}

/* Whether two paths name one existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int cli_check_outputs(const char *const *outputs, size_t n_outputs, const char *const *inputs,
                      size_t n_inputs)
{
    char qa[CLI_QUOTE_MAX], qb[CLI_QUOTE_MAX];
    for (size_t i = 0; i < n_outputs; i++) {
        const char *out = outputs[i];
        if (!out) continue;
        for (size_t k = 0; k < n_inputs; k++)
            if (inputs[k] && (strcmp(out, inputs[k]) == 0 || same_file(out, inputs[k])))
                return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                                 "the output %s is the input %s: writing it would destroy what "
                                 "the command reads; name another file",
                                 cli_quote(qa, sizeof qa, out), cli_quote(qb, sizeof qb, inputs[k]));
        for (size_t k = 0; k < i; k++)
            if (outputs[k] && (strcmp(out, outputs[k]) == 0 || same_file(out, outputs[k])))
                return cli_failf(CLS_ERR_INVALID_ARGUMENT,
                                 "%s is named for two outputs; name two files",
                                 cli_quote(qa, sizeof qa, out));
        int rc = cls_file_check_writable(out);
        if (rc != CLS_SUCCESS) return cli_fail(rc);
    }
    return CLI_EXIT_OK;
}

void cli_format_bytes(char *buf, size_t len, uint64_t bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    double v = (double)bytes;
    uint64_t whole = bytes;
    int exact = 1;
    while (v >= 1024.0 && u < 5) {
        if (whole % 1024) exact = 0;
        whole /= 1024;
        v /= 1024.0;
        u++;
    }
    if (exact)
        snprintf(buf, len, "%llu %s", (unsigned long long)whole, units[u]);
    else
        snprintf(buf, len, "%.1f %s", v, units[u]);
}

void cli_format_seconds(char *buf, size_t len, double s)
{
    if (!(s > 0) || !isfinite(s))
        snprintf(buf, len, "n/a");
    else if (s < 1e-3)
        snprintf(buf, len, "%.1f us", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.3f s", s);
}

const char *cli_device_type_name(cls_device_type t)
{
    switch (t) {
    case CLS_DEVICE_CPU: return "CPU";
    case CLS_DEVICE_GPU: return "GPU";
    case CLS_DEVICE_ACCELERATOR: return "ACCEL";
    default: return "OTHER";
    }
}

/* ---------------------------------------------------------------- devices */
int cli_open_context(const char *selector, cls_context **ctx, cls_device_info *info)
{
    int st = cli_open_device(selector, ctx, info);
    if (st == CLS_SUCCESS) fprintf(stderr, "device: %s (%s)\n", info->name, info->platform_name);
    return st;
}

int cli_open_device(const char *selector, cls_context **ctx, cls_device_info *info)
{
    int st = cls_context_create(selector, ctx);
    if (st != CLS_SUCCESS) return cli_fail(st), st;
    st = cls_context_device(*ctx, info);
    if (st != CLS_SUCCESS) {
        cli_fail(st);
        cls_context_release(*ctx);
        *ctx = NULL;
        return st;
    }
    return CLS_SUCCESS;
}

uint64_t cli_host_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
    if (f) fclose(f);
    if (kib) return (uint64_t)kib * 1024;
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* ---------------------------------------------------------------- progress */
double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile sig_atomic_t cli__interrupted;
static struct sigaction cli__old_sigint;

static void on_sigint(int sig)
{
    (void)sig;
    cli__interrupted = 1;
}

int cli_interrupted(void) { return cli__interrupted != 0; }

/* Redraws at most ten times a second, and not at all for runs shorter than half a second. */
static int progress_cb(size_t done, size_t total, void *user)
{
    cli_progress *pr = user;
    if (cli__interrupted) return 1;
    double now = cli_now();
    if (now - pr->start < 0.5 || now - pr->last_print < 0.1) return 0;
    pr->last_print = now;
    double frac = total ? (double)done / (double)total : 1.0;
    double left = done ? (now - pr->start) * (double)(total - done) / (double)done : 0.0;
    char bar[31];
    size_t full = (size_t)(frac * (double)(sizeof bar - 1) + 0.5);
    for (size_t i = 0; i + 1 < sizeof bar; i++) bar[i] = i < full ? '#' : '.';
    bar[sizeof bar - 1] = '\0';
    fprintf(stderr, "\r%s [%s] %3.0f%%, step %zu/%zu, %.0f s left \033[K", pr->label, bar,
            100.0 * frac, done, total, left);
    fflush(stderr);
    pr->printed = 1;
    return 0;
}

int cli_progress_attach(cli_progress *pr, cls_plan *plan, const char *label)
{
    memset(pr, 0, sizeof *pr);
    if (!isatty(STDERR_FILENO)) return 0;
    if (cls_plan_set_progress(plan, progress_cb, pr) != CLS_SUCCESS) return 0;
    pr->plan = plan;
    pr->label = label;
    pr->start = cli_now();
    pr->active = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &cli__old_sigint);
    return 1;
}

void cli_progress_detach(cli_progress *pr)
{
    if (!pr->active) return;
    cls_plan_set_progress(pr->plan, NULL, NULL);
    sigaction(SIGINT, &cli__old_sigint, NULL);
    if (pr->printed) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pr->active = 0;
}
