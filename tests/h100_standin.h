/* h100_standin.h: the measured H100 model as the test device's probe result, in a private
 * model cache, so that plans on PoCL get the H100's transfer tables (their choices and
 * predictions are tested, not their speed).  Static inline functions (a test need not use
 * them all), for the tests only. */
#ifndef CLS_TEST_H100_STANDIN_H
#define CLS_TEST_H100_STANDIN_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "clstencil.h"
#include "clstencil_model.h"

static inline int standin_mkdirs_for(const char *file)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", file);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(buf, 0777);
            *s = '/';
        }
    return 0;
}

/* A new private cache directory from the mkdtemp template `dir`, made $CLSTENCIL_CACHE_DIR
 * before any context reads it, so that the stand-in reaches no other test; 0 on failure. */
static inline int standin_cache_dir(char *dir)
{
    if (!mkdtemp(dir)) return 0;
    setenv("CLSTENCIL_CACHE_DIR", dir, 1);
    return 1;
}

/* Saves the H100 model as ctx's device's probe result into the cache; `path` receives the
 * file.  Contexts look models up when they plan, so ctx sees it too.  1 on success. */
static inline int standin_h100(cls_context *ctx, char *path, size_t len)
{
    cls_device_info dev;
    cls_model *m = NULL;
    int ok = cls_context_device(ctx, &dev) == CLS_SUCCESS &&
             cls_model_from_name("h100", &m) == CLS_SUCCESS &&
             cls_model_set_device(m, &dev) == CLS_SUCCESS &&
             cls_model_cache_path(&dev, path, len) == CLS_SUCCESS &&
             standin_mkdirs_for(path) == 0 && cls_model_save(m, path) == CLS_SUCCESS;
    cls_model_release(m);
    return ok;
}

/* A context that reads the H100 stand-in: one saves it as the device's probe result, a new
 * one (returned in *ctx) finds it in the cache.  1 on success; *ctx may be set either way. */
static inline int standin_context(char *path, size_t len, cls_context **ctx)
{
    int ok = cls_context_create(NULL, ctx) == CLS_SUCCESS && standin_h100(*ctx, path, len);
    cls_context_release(*ctx);
    *ctx = NULL;
    return ok && cls_context_create(NULL, ctx) == CLS_SUCCESS;
}

/* Sets one value of the stand-in's model file at `path` (standin_h100's) and gives *ctx a new
 * context that reads it (the old one released).  1 on success; *ctx may be set either way. */
static inline int standin_set(cls_context **ctx, const char *path, const char *key, double value)
{
    cls_model *m = NULL;
    int ok = cls_model_load(path, &m) == CLS_SUCCESS &&
             cls_model_set(m, key, value) == CLS_SUCCESS && cls_model_save(m, path) == CLS_SUCCESS;
    cls_model_release(m);
    cls_context_release(*ctx);
    *ctx = NULL;
    return ok && cls_context_create(NULL, ctx) == CLS_SUCCESS;
}

static inline int standin_rm_one(const char *path, const struct stat *sb, int flag,
                                 struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes the private cache and everything in it. */
static inline void standin_remove(const char *dir)
{
    nftw(dir, standin_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* CLS_TEST_H100_STANDIN_H */
