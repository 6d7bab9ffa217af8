/* json_strict.c: duplicate keys and escaped NULs, the two things cJSON accepts quietly. */
#include "json_strict.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

long cls__json_find_nul_escape(const char *text)
{
    int in_string = 0;
    for (const char *p = text; *p; p++) {
        if (!in_string) {
            in_string = *p == '"';
            continue;
        }
        if (*p == '"') {
            in_string = 0;
        } else if (*p == '\\') {
            if (p[1] == 'u' && p[2] && p[3] && p[4] && p[5] && hexval(p[2]) == 0 &&
                hexval(p[3]) == 0 && hexval(p[4]) == 0 && hexval(p[5]) == 0)
                return (long)(p - text);
            if (p[1]) p++; /* the escaped character, a quote included */
        }
    }
    return -1;
}

void cls__json_position(const char *text, size_t at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < at && text[i]; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static uint64_t key_hash(const char *s)
{
    uint64_t h = 14695981039346656037ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static int is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* Appends ".key" or ["key"] (escaped, at most 64 bytes of it) to path. */
static void append_key(char *path, size_t len, const char *key)
{
    size_t n = strlen(path);
    if (n + 1 >= len) return;
    if (is_identifier(key)) {
        snprintf(path + n, len - n, ".%s", key);
        return;
    }
    snprintf(path + n, len - n, "[\"");
    n = strlen(path);
    for (size_t i = 0; key[i] && i < 64 && n + 6 < len; i++) {
        unsigned char c = (unsigned char)key[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            path[n++] = (char)c;
        else
            n += (size_t)snprintf(path + n, len - n, "\\x%02x", c);
    }
    path[n] = '\0';
    if (n + 3 < len) strcat(path, "\"]");
}

/* Depth-first: the object's own keys through a hash set, then its members.  cJSON bounds the
 * nesting (CJSON_NESTING_LIMIT), so the recursion is bounded too. */
static int find_dup(const cJSON *node, char *path, size_t len)
{
    size_t n = 0, base = strlen(path);
    for (const cJSON *c = node->child; c; c = c->next) n++;
    if (cJSON_IsObject(node) && n > 1) {
        size_t cap = 4;
        while (cap < 2 * n) cap *= 2;
        const char **set = calloc(cap, sizeof *set);
        if (!set) return -1;
        for (const cJSON *c = node->child; c; c = c->next) {
            const char *k = c->string ? c->string : "";
            size_t h = (size_t)key_hash(k) & (cap - 1);
            while (set[h] && strcmp(set[h], k)) h = (h + 1) & (cap - 1);
            if (set[h]) {
                free(set);
                append_key(path, len, k);
                return 1;
            }
            set[h] = k;
        }
        free(set);
    }
    size_t i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c)) continue;
        if (cJSON_IsObject(node))
            append_key(path, len, c->string ? c->string : "");
        else if (base + 1 < len)
            snprintf(path + base, len - base, "[%zu]", i);
        int r = find_dup(c, path, len);
        if (r) return r;
        path[base] = '\0';
    }
    return 0;
}

int cls__json_find_duplicate(const cJSON *root, char *path, size_t len)
{
    if (!path || len < 2) return 0;
    snprintf(path, len, "$");
    return root ? find_dup(root, path, len) : 0;
}
