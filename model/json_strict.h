/* json_strict.h: what cJSON lets through and the readers of specs, models and access
 * descriptions must refuse: a key given twice in one object (cJSON keeps both and lookups see
 * the first) and a string holding an escaped NUL (cJSON cuts the string there, silently). */
#ifndef CLS_MODEL_JSON_STRICT_H
#define CLS_MODEL_JSON_STRICT_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* The byte offset in `text` of the first \u0000 escape inside a JSON string, or -1. */
long cls__json_find_nul_escape(const char *text);

/* Writes the JSON path of the first member whose key repeats an earlier key of the same
 * object ("$.params.k", "$.points[3].coef"; keys that are not identifiers as ["..."] with
 * control characters escaped) into path.  Returns 1 if there is one, 0 if none, -1 when out
 * of memory.  Linear in the size of the tree. */
int cls__json_find_duplicate(const cJSON *root, char *path, size_t len);

/* Line and column (from 1) of byte offset `at` of text. */
void cls__json_position(const char *text, size_t at, int *line, int *col);

#endif /* CLS_MODEL_JSON_STRICT_H */
