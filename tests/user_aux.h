/* user_aux.h: a user stencil of the tests that reads two auxiliary arrays, "src" (static) and
 * "f" (one slice per step), with the given body (tests of schedules against the reference). */
#ifndef CLS_TEST_USER_AUX_H
#define CLS_TEST_USER_AUX_H

#include "clstencil.h"

/* NULL on failure (cls_last_error says why). */
static inline cls_stencil *user_aux(const char *name, int dims, const char *body)
{
    cls_stencil *st = NULL;
    if (cls_stencil_create(name, dims, CLS_FLOAT32, body, &st) != CLS_SUCCESS) return NULL;
    if (cls_stencil_add_aux(st, "src", 0) != CLS_SUCCESS ||
        cls_stencil_add_aux(st, "f", 1) != CLS_SUCCESS) {
        cls_stencil_release(st);
        return NULL;
    }
    return st;
}

#endif /* CLS_TEST_USER_AUX_H */
