/* test_devices_match.c: the order in which a live device gets its model (cls_model_match). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clstencil.h"
#include "clstencil_model.h"
#include "tap.h"

static char tmp[512];

static cls_device_info device(const char *name, const char *driver, cls_device_type type)
{
    cls_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.vendor, sizeof d.vendor, "%s", "Test vendor");
    snprintf(d.platform_name, sizeof d.platform_name, "%s", "Test platform");
    snprintf(d.driver_version, sizeof d.driver_version, "%s", driver);
    d.type = type;
    d.compute_units = 132;
    d.clock_mhz = 1980;
    d.max_work_group_size = 1024;
    d.local_mem_bytes = 49152;
    d.global_mem_bytes = 85899345920ULL;
    return d;
}

/* Matches and returns the model's name ("" on failure); the reason goes to why. */
static const char *match(const cls_device_info *d, const char *explicit_model, char *why,
                         size_t whylen, cls_model **m)
{
    cls_model_release(*m);
    *m = NULL;
    if (cls_model_match(d, explicit_model, m, why, whylen) != CLS_SUCCESS) {
        snprintf(why, whylen, "failed: %s", cls_last_error());
        return "";
    }
    return cls_model_name(*m);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static double get(const cls_model *m, const char *key)
{
    double v = -1;
    cls_model_get(m, key, &v);
    return v;
}

int main(void)
{
    char why[2048], cache[600], models[600], path[4200], other[4200];
    cls_device_info gtx = device("NVIDIA GeForce GTX 280", "340.108", CLS_DEVICE_GPU);
    cls_device_info h100 = device("NVIDIA H100 80GB HBM3", "550.54.15", CLS_DEVICE_GPU);
    /* A GPU no shipped file names (the H100 has its measured file, devices/h100_probe.json). */
    cls_device_info l40 = device("NVIDIA L40S", "550.54.15", CLS_DEVICE_GPU);
    cls_device_info pocl =
        device("pthread-skylake-avx512-Intel(R) Xeon(R) Processor", "3.1+debian", CLS_DEVICE_CPU);
    cls_device_info xeon = device("Intel(R) Xeon(R) CPU E5-2680", "2023.16", CLS_DEVICE_CPU);
    cls_device_info gtx2800 = device("GeForce GTX 2800 Ultra", "1.0", CLS_DEVICE_GPU);
    cls_model *m = NULL, *probe = NULL;
    const char *name;

    snprintf(tmp, sizeof tmp, "%s/cls-test-match-XXXXXX",
             getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp)) {
        tap_ok(0, "mkdtemp");
        return tap_done();
    }
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    snprintf(models, sizeof models, "%s/models", tmp);
    mkdir(models, 0777);
    setenv("CLSTENCIL_CACHE_DIR", cache, 1);
    setenv("CLSTENCIL_MODEL_DIR", models, 1);
    unsetenv("CLSTENCIL_CACHE");

    /* 1. Explicit, by name and by file, over everything else. */
    name = match(&gtx, "c2050", why, sizeof why, &m);
    tap_ok(strcmp(name, "c2050") == 0 && strstr(why, "explicit"),
           "an explicit name wins over the device's own match: %s", why);
    snprintf(path, sizeof path, "%s/devices/gtx460.json",
             getenv("CLS_SRCDIR") && getenv("CLS_SRCDIR")[0] ? getenv("CLS_SRCDIR") : CLS_SRCDIR);
    name = match(&gtx, path, why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx460") == 0 && strstr(why, "gtx460.json"),
           "an explicit file is read: %s", why);
    cls_model_release(m);
    m = NULL;
    tap_ok(cls_model_match(&gtx, "no-such-model", &m, why, sizeof why) ==
               CLS_ERR_UNKNOWN_MODEL && m == NULL,
           "an explicit unknown name fails instead of falling back: %s", cls_last_error());
    name = match(NULL, "c1060", why, sizeof why, &m);
    tap_ok(strcmp(name, "c1060") == 0, "an explicit model needs no device");
    cls_model_release(m);
    m = NULL;
    tap_ok(cls_model_match(NULL, NULL, &m, why, sizeof why) == CLS_ERR_INVALID_ARGUMENT,
           "no device and no explicit model is refused");

    /* 3. A shipped file whose pattern matches the name. */
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx280") == 0 && strstr(why, "GeForce GTX 280"),
           "GeForce GTX 280 gets the shipped gtx280: %s", why);
    tap_ok(m && get(m, "compute.clock_mhz") == 1300 && get(m, "compute.compute_units") == 30 &&
               get(m, "memory.global_bytes") == 85899345920.0 &&
               !cls_model_is_assumed(m, "memory.global_bytes"),
           "document values stay; the unknown memory size comes from the device");
    name = match(&gtx2800, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx280") != 0, "\"GTX 280\" does not match \"GTX 2800\": %s", why);
    name = match(&pocl, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "pocl-cpu") == 0 && get(m, "compute.compute_units") == 132 &&
               get(m, "compute.clock_mhz") == 1980 &&
               !cls_model_is_assumed(m, "compute.compute_units") &&
               get(m, "compute.max_work_group") == 1024,
           "a PoCL device gets pocl-cpu with its own clock and compute units: %s", why);

    /* The H100 gets its shipped probe result. */
    name = match(&h100, NULL, why, sizeof why, &m);
    tap_ok(m && strcmp(cls_model_family(m), "gpu") == 0 && strstr(cls_model_name(m), "h100"),
           "the H100 gets the shipped measured model: %s", why);
    /* ... and the reason says how close: the same device name, measured under another
     * driver; a reference model names its differences from the device. */
    tap_ok(strstr(why, "how close: measured on this device name, driver 580.159.04 then") != NULL,
           "the match says how close the H100's model is: %s", why);
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strstr(why, "how close: a reference model") && strstr(why, "30 compute units in the "
                                                                      "model, 132 here"),
           "the match says how far a reference model is from the device: %s", why);
    {
        /* The H200 gets its own shipped, probed model (not the H100's), and its numbers. */
        cls_device_info h200 = device("NVIDIA H200", "580.159.04", CLS_DEVICE_GPU);
        name = match(&h200, NULL, why, sizeof why, &m);
        tap_ok(m && strcmp(name, "h200") == 0 &&
                   strstr(why, "how close: measured on this device name and driver") &&
                   get(m, "memory.bandwidth_measured_gbs") > 3000 &&
                   !cls_model_is_assumed(m, "sync.kernel_restart_cycles"),
               "the H200 gets its shipped measured model: %s", why);
        name = match(&h100, NULL, why, sizeof why, &m);
        tap_ok(strstr(name, "h100") != NULL, "... and the H100 keeps its own: %s", name);
    }
    /* 4. Family defaults from the device's facts. */
    name = match(&l40, NULL, why, sizeof why, &m);
    tap_ok(m && strcmp(cls_model_family(m), "gpu") == 0 && strstr(why, "generic gpu family") &&
               get(m, "compute.compute_units") == 132 && get(m, "compute.clock_mhz") == 1980 &&
               !cls_model_is_assumed(m, "compute.clock_mhz") &&
               cls_model_is_assumed(m, "memory.bandwidth_peak_gbs"),
           "an unknown GPU gets gpu defaults filled from the device: %s", why);
    name = match(&xeon, NULL, why, sizeof why, &m);
    tap_ok(m && strcmp(cls_model_family(m), "cpu") == 0 && strstr(why, "generic cpu family"),
           "an unknown CPU gets cpu defaults: %s", why);

    /* $CLSTENCIL_MODEL_DIR comes before the shipped files. */
    snprintf(path, sizeof path, "%s/mine.json", models);
    write_file(path, "{\"schema_version\": 1, \"name\": \"my-280\", \"family\": \"gt200\", "
                     "\"match\": [\"GTX 280\"], \"compute\": {\"clock_mhz\": 1296, "
                     "\"compute_units\": 30}}");
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "my-280") == 0 && strstr(why, "mine.json"),
           "a file in $CLSTENCIL_MODEL_DIR wins over the shipped one: %s", why);
    snprintf(other, sizeof other, "%s/broken.json", models);
    write_file(other, "{ not json");
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "my-280") == 0 && strstr(why, "skipped") && strstr(why, "broken.json"),
           "a broken file on the search path is skipped and reported: %s", why);
    unlink(other);
    unlink(path);

    /* 2. A cached probe result for this exact device and driver. */
    tap_ok(cls_model_cache_path(&gtx, path, sizeof path) == CLS_SUCCESS &&
               strncmp(path, cache, strlen(cache)) == 0 &&
               strstr(path, "/models/nvidia-geforce-gtx-280--340.108-") &&
               strstr(path, ".json"),
           "the cache path derives from device and driver: %s", path);
    cls_model_cache_path(&gtx, path, sizeof path);
    snprintf(other, sizeof other, "%s/models", cache);
    cls_model_from_defaults("gt200", &gtx, &probe);
    cls_model_set_name(probe, "probed-gtx280");
    cls_model_set(probe, "memory.bandwidth_measured_gbs", 120.5);
    tap_ok(probe && mkdir(cache, 0777) == 0 && mkdir(other, 0777) == 0 &&
               cls_model_save(probe, path) == CLS_SUCCESS,
           "a probe result is saved to the cache");
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "probed-gtx280") == 0 && strstr(why, "probe result cached") &&
               get(m, "memory.bandwidth_measured_gbs") == 120.5,
           "the cached probe result wins over the shipped file: %s", why);
    name = match(&gtx, "gtx280", why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx280") == 0, "an explicit model still wins over the cache");
    {
        cls_device_info newer = gtx;
        snprintf(newer.driver_version, sizeof newer.driver_version, "%s", "545.29");
        name = match(&newer, NULL, why, sizeof why, &m);
        tap_ok(strcmp(name, "gtx280") == 0, "another driver version misses the cache: %s", why);
    }
    setenv("CLSTENCIL_CACHE", "off", 1);
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx280") == 0, "CLSTENCIL_CACHE=off skips the cache: %s", why);
    unsetenv("CLSTENCIL_CACHE");
    /* A result whose recorded device differs (a copied file) is not trusted. */
    cls_model_set_device(probe, &h100);
    cls_model_save(probe, path);
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx280") == 0 && strstr(why, "ignored the cached probe result"),
           "a cached result recorded for another device is ignored: %s", why);
    write_file(path, "{\"schema_version\": 1, \"name\": 5, \"family\": \"gt200\"}");
    name = match(&gtx, NULL, why, sizeof why, &m);
    tap_ok(strcmp(name, "gtx280") == 0 && strstr(why, "$.name: must be a string"),
           "a corrupt cached result is ignored and reported: %s", why);
    unlink(path);
    rmdir(other);
    rmdir(cache);
    rmdir(models);
    rmdir(tmp);
    cls_model_release(m);
    cls_model_release(probe);
    return tap_done();
}
