/* model_files.c: model files on disk: reading, saving, the search path and lookup by name. */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devices.h"

/* Model files are small; anything larger is not one. */
#define CLS__MODEL_FILE_MAX (16u << 20)

/* A model file's text, NUL-terminated. */
static cls_status read_text(const char *path, char **text)
{
    size_t len;
    if (cls__read_file(path, CLS__MODEL_FILE_MAX, text, &len) != 0) {
        switch (errno) {
        case ENOMEM: return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "%s: out of memory", path);
        case EFBIG:
            return cls__error(CLS_ERR_INVALID_JSON, "%s: larger than %u bytes, not a model file",
                              path, CLS__MODEL_FILE_MAX);
        default: break;
        }
        /* fopen fails with the reason; a read fails on a directory, a device, an I/O error. */
        return cls__error(CLS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    if (strlen(*text) != len) {
        free(*text);
        *text = NULL;
        return cls__error(CLS_ERR_INVALID_JSON, "%s: contains a NUL byte, not JSON text", path);
    }
    return CLS_SUCCESS;
}

cls_status cls__model_parse_file(const char *path, cls_model **m)
{
    char *text;
    cls_status st = read_text(path, &text);
    *m = NULL;
    if (st != CLS_SUCCESS) return st;
    st = cls__model_parse(text, path, m);
    free(text);
    if (st == CLS_SUCCESS && cls__set_text(&(*m)->origin, path) != 0) {
        cls_model_release(*m);
        *m = NULL;
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "%s: out of memory", path);
    }
    return st;
}

void cls__strv_free(char **v, size_t count)
{
    if (!v) return;
    for (size_t i = 0; i < count; i++) free(v[i]);
    free(v);
}

/* Appends a copy of s to a growable vector; -1 when out of memory. */
static int strv_push(char ***v, size_t *n, const char *s)
{
    char **nv = realloc(*v, (*n + 1) * sizeof **v);
    if (!nv) return -1;
    *v = nv;
    nv[*n] = NULL;
    if (cls__set_text(&nv[*n], s) != 0) return -1;
    ++*n;
    return 0;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int add_dir(char ***dirs, size_t *n, const char *dir)
{
    if (!dir[0] || !is_dir(dir)) return 0;
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*dirs)[i], dir) == 0) return 0;
    return strv_push(dirs, n, dir);
}

/* Whether this code runs from the build tree: a test program, or the uninstalled library
 * that libtool's wrapper runs the uninstalled command line with.  Only then does the search
 * path hold the source tree's models; an installed copy reads the installed ones, even while
 * the tree it was built from still exists. */
static const char anchor = 0;
static int uninstalled(void)
{
#if defined(CLS_BUILDDIR) && defined(CLS_SRCDIR)
    char self[PATH_MAX], build[PATH_MAX];
    Dl_info di;
    const char *object =
        dladdr(&anchor, &di) && di.dli_fname && di.dli_fname[0] == '/' ? di.dli_fname
                                                                      : "/proc/self/exe";
    if (!realpath(object, self) || !realpath(CLS_BUILDDIR, build)) return 0;
    size_t n = strlen(build);
    return strncmp(self, build, n) == 0 && self[n] == '/';
#else
    return 0;
#endif
}

char **cls__model_dirs(size_t *count)
{
    char **dirs = NULL;
    size_t n = 0;
    const char *env = getenv("CLSTENCIL_MODEL_DIR");
    int bad = 0;
    if (env) {
        const char *s = env;
        while (!bad) {
            const char *colon = strchr(s, ':');
            size_t len = colon ? (size_t)(colon - s) : strlen(s);
            char dir[4096];
            if (len < sizeof dir) {
                memcpy(dir, s, len);
                dir[len] = '\0';
                bad |= add_dir(&dirs, &n, dir);
            }
            if (!colon) break;
            s = colon + 1;
        }
    }
#ifdef CLS_SRCDIR
    if (uninstalled()) bad |= add_dir(&dirs, &n, CLS_SRCDIR "/devices");
#endif
#ifdef CLS_PKGDATADIR
    bad |= add_dir(&dirs, &n, CLS_PKGDATADIR "/devices");
#endif
    if (bad) {
        cls__strv_free(dirs, n);
        *count = 0;
        return NULL;
    }
    *count = n;
    return dirs;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cls__json_files(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    char **files = NULL;
    size_t n = 0;
    struct dirent *e;
    *count = 0;
    if (!d) return NULL;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        char path[4096];
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path) continue;
        if (strv_push(&files, &n, path) != 0) {
            cls__strv_free(files, n);
            closedir(d);
            return NULL;
        }
    }
    closedir(d);
    if (n > 1) qsort(files, n, sizeof *files, cmp_str);
    *count = n;
    return files;
}

/* The file name without directory and ".json". */
static void stem_of(const char *path, char *stem, size_t len)
{
    const char *base = strrchr(path, '/');
    size_t n;
    base = base ? base + 1 : path;
    n = strlen(base);
    if (n >= 5 && strcmp(base + n - 5, ".json") == 0) n -= 5;
    snprintf(stem, len, "%.*s", (int)n, base);
}

cls_status cls_model_from_json(const char *json, cls_model **m)
{
    cls_status st;
    if (!json || !m) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_from_json: NULL");
    st = cls__model_parse(json, "JSON text", m);
    if (st == CLS_SUCCESS && cls__set_text(&(*m)->origin, "JSON text") != 0) {
        cls_model_release(*m);
        *m = NULL;
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_from_json: out of memory");
    }
    return st;
}

cls_status cls_model_from_file(const char *path, cls_model **m)
{
    if (!path || !m) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_from_file: NULL");
    return cls__model_parse_file(path, m);
}

cls_status cls_model_from_name(const char *name, cls_model **out)
{
    char first_bad[1024] = "", known[512] = "", stem[256];
    size_t ndirs = 0;
    char **dirs;
    cls_model *found = NULL;
    cls_status st = CLS_SUCCESS;

    if (!name || !out) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_from_name: NULL");
    *out = NULL;
    dirs = cls__model_dirs(&ndirs);
    for (size_t d = 0; d < ndirs && !found && st == CLS_SUCCESS; d++) {
        size_t nfiles = 0;
        char **files = cls__json_files(dirs[d], &nfiles);
        for (size_t i = 0; i < nfiles && !found && st == CLS_SUCCESS; i++) {
            cls_model *m;
            cls_status fst = cls__model_parse_file(files[i], &m);
            stem_of(files[i], stem, sizeof stem);
            if (fst != CLS_SUCCESS) {
                /* A broken file is only this call's failure when it is the one named. */
                if (strcasecmp(stem, name) == 0) st = fst;
                else if (!first_bad[0])
                    snprintf(first_bad, sizeof first_bad, "%s", cls__error_message());
                continue;
            }
            if (strcasecmp(m->name, name) == 0 || strcasecmp(stem, name) == 0) {
                found = m;
            } else {
                if (strlen(known) + strlen(m->name) + 3 < sizeof known)
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                             known[0] ? ", " : "", m->name);
                cls_model_release(m);
            }
        }
        cls__strv_free(files, nfiles);
    }
    cls__strv_free(dirs, ndirs);
    if (st != CLS_SUCCESS) return st;
    if (!found)
        return cls__error(CLS_ERR_UNKNOWN_MODEL,
                          "no device model named \"%s\" in $CLSTENCIL_MODEL_DIR or the shipped "
                          "models (known: %s)%s%s",
                          name, known[0] ? known : "none", first_bad[0] ? "; unreadable: " : "",
                          first_bad);
    *out = found;
    return CLS_SUCCESS;
}

cls_status cls_model_load(const char *name_or_file, cls_model **m)
{
    size_t n;
    if (!name_or_file || !m) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_load: NULL");
    n = strlen(name_or_file);
    if (strchr(name_or_file, '/') || (n >= 5 && strcmp(name_or_file + n - 5, ".json") == 0))
        return cls_model_from_file(name_or_file, m);
    return cls_model_from_name(name_or_file, m);
}

cls_status cls_model_list(char **text)
{
    char *buf = NULL;
    size_t len = 0, ndirs = 0, nseen = 0;
    char **dirs, **seen = NULL;
    int bad = 0;

    if (!text) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_list: NULL");
    dirs = cls__model_dirs(&ndirs);
    buf = calloc(1, 1);
    bad = !buf;
    for (size_t d = 0; d < ndirs && !bad; d++) {
        size_t nfiles = 0;
        char **files = cls__json_files(dirs[d], &nfiles);
        for (size_t i = 0; i < nfiles && !bad; i++) {
            cls_model *m;
            int dup = 0;
            size_t need;
            char *nb;
            if (cls__model_parse_file(files[i], &m) != CLS_SUCCESS) continue;
            for (size_t k = 0; k < nseen && !dup; k++) dup = strcasecmp(seen[k], m->name) == 0;
            if (!dup) {
                need = strlen(m->name) + strlen(m->rules->family) + strlen(files[i]) + 4;
                nb = realloc(buf, len + need);
                bad = !nb || strv_push(&seen, &nseen, m->name) != 0;
                if (nb) buf = nb;
                if (!bad)
                    len += (size_t)snprintf(buf + len, need, "%s\t%s\t%s\n", m->name,
                                            m->rules->family, files[i]);
            }
            cls_model_release(m);
        }
        cls__strv_free(files, nfiles);
    }
    cls__strv_free(dirs, ndirs);
    cls__strv_free(seen, nseen);
    if (bad) {
        free(buf);
        return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_list: out of memory");
    }
    *text = buf;
    return CLS_SUCCESS;
}

cls_status cls_model_to_json(const cls_model *m, char **json)
{
    if (!m || !json) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_to_json: NULL");
    *json = cls__model_print(m);
    if (!*json) return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_to_json: out of memory");
    return CLS_SUCCESS;
}

cls_status cls_model_save(const cls_model *m, const char *path)
{
    char tmp[4096];
    char *text;
    FILE *f;
    int fd, ok;
    if (!m || !path) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_save: NULL");
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= sizeof tmp)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "%s: path too long", path);
    text = cls__model_print(m);
    if (!text) return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "cls_model_save: out of memory");
    fd = mkstemp(tmp);
    if (fd < 0) {
        free(text);
        return cls__error(CLS_ERR_IO, "%s: cannot create: %s", tmp, strerror(errno));
    }
    /* Readable like any data file (mkstemp creates it 0600). */
    (void)fchmod(fd, 0644);
    f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        free(text);
        return cls__error(CLS_ERR_IO, "%s: cannot open: %s", tmp, strerror(errno));
    }
    ok = fputs(text, f) >= 0;
    ok &= fclose(f) == 0;
    free(text);
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return cls__error(CLS_ERR_IO, "%s: cannot write: %s", path, strerror(e));
    }
    return CLS_SUCCESS;
}
