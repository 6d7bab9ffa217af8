/* cache_evict.c: the program cache's size cap: least recently used entries go first.  Every
 * grid size, device and option set is an entry of its own, so without a cap the folder only
 * grows. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define DEFAULT_CAP ((uint64_t)256 << 20)
/* A temporary this old belongs to a writer that died: no write takes an hour. */
#define STALE_TEMP_SECONDS 3600

uint64_t cls__cache_max(void)
{
    const char *e = getenv("CLSTENCIL_CACHE_MAX");
    char *end;
    if (!e || !*e) return DEFAULT_CAP;
    errno = 0;
    unsigned long long v = strtoull(e, &end, 10);
    int shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: break;
    }
    if (shift && *end == 'i') end++;
    if (shift && (*end == 'B' || *end == 'b')) end++;
    if (errno || end == e || *end || !isdigit((unsigned char)e[0]) ||
        v > (UINT64_MAX >> shift)) {
        cls__debug("CLSTENCIL_CACHE_MAX='%s' is not a size (bytes, K, M or G); using 256 MiB", e);
        return DEFAULT_CAP;
    }
    return (uint64_t)v << shift;
}

typedef struct entry {
    char *path;
    uint64_t size;
    struct timespec used;
} entry;

static int older_first(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->path, y->path);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

void cls__cache_evict(const char *dir, uint64_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    entry *list = NULL;
    size_t n = 0, room = 0;
    uint64_t total = 0;
    time_t now = time(NULL);
    if (!d) return;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        int is_entry = ends_with(name, ".clbin"), is_temp = strstr(name, ".clbin.tmp-") != NULL;
        if (!is_entry && !is_temp) continue;
        size_t plen = strlen(dir) + strlen(name) + 2;
        char *path = malloc(plen);
        struct stat sb;
        if (!path) break;
        snprintf(path, plen, "%s/%s", dir, name);
        /* lstat: a link or folder planted under an entry's name is nobody's entry. */
        if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            free(path);
            continue;
        }
        if (is_temp) {
            if (now - sb.st_mtime > STALE_TEMP_SECONDS && unlink(path) == 0)
                cls__debug("program cache: removed the stale temporary %s", path);
            free(path);
            continue;
        }
        if (n == room) {
            size_t r = room ? 2 * room : 64;
            entry *grown = realloc(list, r * sizeof *grown);
            if (!grown) {
                free(path);
                break;
            }
            list = grown;
            room = r;
        }
        list[n].path = path;
        list[n].size = (uint64_t)sb.st_size;
        list[n].used = sb.st_mtim;
        total += list[n].size;
        n++;
    }
    closedir(d);
    if (total > cap) {
        qsort(list, n, sizeof *list, older_first);
        for (size_t i = 0; i < n && total > cap; i++) {
            if (unlink(list[i].path) == 0 || errno == ENOENT) {
                total -= list[i].size;
                cls__debug("program cache: evicted %s (%llu bytes; the cap is %llu)", list[i].path,
                           (unsigned long long)list[i].size, (unsigned long long)cap);
            }
        }
    }
    for (size_t i = 0; i < n; i++) free(list[i].path);
    free(list);
}
