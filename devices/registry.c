/* registry.c: the static table of device-model families, looked up by name. */
#include <string.h>

#include "devices.h"

static const cls_model_rules *const families[] = {
    &cls__family_gt200,
    &cls__family_fermi,
    &cls__family_cpu,
    &cls__family_gpu,
};

#define NFAMILIES (sizeof families / sizeof families[0])

const cls_model_rules *cls__family_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < NFAMILIES; i++)
        if (strcmp(families[i]->family, name) == 0) return families[i];
    return NULL;
}

const cls_model_rules *cls__family_at(size_t i)
{
    return i < NFAMILIES ? families[i] : NULL;
}
