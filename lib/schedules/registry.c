/* registry.c: the schedules the planner core asks, in the order it asks them (ties of rank and
 * predicted time go to the earlier one).  Adding a schedule: its folder, its local.mk line in
 * lib/local.mk, and one line here. */
#include <string.h>

#include "schedule.h"

extern const cls__schedule_ops cls__naive_ops;
extern const cls__schedule_ops cls__stream25d_ops;
extern const cls__schedule_ops cls__trapezoid_ops;
extern const cls__schedule_ops cls__pipeline_ops;
extern const cls__schedule_ops cls__cputile_ops;

static const cls__schedule_ops *const builtin[] = {
    &cls__naive_ops,
    &cls__stream25d_ops,
    &cls__trapezoid_ops,
    &cls__pipeline_ops,
    &cls__cputile_ops,
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])

/* Schedules registered at run time (tests, plug-ins), after the built-in ones. */
#define MAX_EXTRA 8
static cls__schedule_ops *extra[MAX_EXTRA];
static size_t n_extra;

const cls__schedule_ops *cls__schedule_at(size_t i)
{
    if (i < N_BUILTIN) return builtin[i];
    i -= N_BUILTIN;
    return i < n_extra ? extra[i] : NULL;
}

const cls__schedule_ops *cls__schedule_find(const char *name)
{
    const cls__schedule_ops *o;
    for (size_t i = 0; name && (o = cls__schedule_at(i)); i++)
        if (!strcmp(o->name, name)) return o;
    return NULL;
}

const cls__schedule_ops *cls__schedule_by_id(int id)
{
    const cls__schedule_ops *o;
    for (size_t i = 0; (o = cls__schedule_at(i)); i++)
        if (o->id == id) return o;
    return NULL;
}

cls_status cls__schedule_register(cls__schedule_ops *ops)
{
    if (!ops || !ops->name || !ops->candidates || !ops->build || !ops->run || !ops->release)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "a schedule needs a name and candidates, build, run and release");
    if (cls__schedule_find(ops->name))
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "schedule '%s' is registered already",
                         ops->name);
    if (n_extra == MAX_EXTRA)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "at most %d schedules can be added",
                         MAX_EXTRA);
    int id = 0;
    const cls__schedule_ops *o;
    for (size_t i = 0; (o = cls__schedule_at(i)); i++)
        if (o->id >= id) id = o->id + 1;
    ops->id = id;
    extra[n_extra++] = ops;
    return CLS_SUCCESS;
}
