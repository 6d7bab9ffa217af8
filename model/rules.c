/* rules.c: the public calls into a model's architecture rules, with their argument checks. */
#include <inttypes.h>

#include "device_model.h"
#include "error.h"

/* Most work-items one call may describe (a few warps of the widest devices). */
#define CLS__MAX_ADDRS 4096u

static cls_status check_access(const char *fn, const cls_model *m, const uint64_t *addrs,
                               size_t n, size_t elem_size, const void *out)
{
    if (!m || !out || (n > 0 && !addrs))
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if (n > CLS__MAX_ADDRS)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "%s: %zu addresses, at most %u", fn, n,
                          CLS__MAX_ADDRS);
    if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8 && elem_size != 16)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "%s: element size must be 1, 2, 4, 8 or 16 bytes, got %zu", fn,
                          elem_size);
    for (size_t i = 0; i < n; i++) {
        if (addrs[i] == CLS_MODEL_NO_ACCESS) continue;
        if (addrs[i] % elem_size != 0 || addrs[i] > UINT64_MAX - 4096)
            return cls__error(CLS_ERR_INVALID_ARGUMENT,
                              "%s: address %zu (0x%" PRIx64 ") is not a multiple of the %zu-byte "
                              "element size or is out of range",
                              fn, i, addrs[i], elem_size);
    }
    return CLS_SUCCESS;
}

cls_status cls_model_transactions(const cls_model *m, const uint64_t *addrs, size_t n,
                                  size_t elem_size, cls_model_txn *out)
{
    cls_status st = check_access("cls_model_transactions", m, addrs, n, elem_size, out);
    if (st != CLS_SUCCESS) return st;
    *out = (cls_model_txn){0, 0, 0};
    cls__model_transactions(m, addrs, n, elem_size, out);
    return CLS_SUCCESS;
}

cls_status cls_model_bank_conflicts(const cls_model *m, const uint64_t *addrs, size_t n,
                                    size_t elem_size, cls_model_banks *out)
{
    cls_status st = check_access("cls_model_bank_conflicts", m, addrs, n, elem_size, out);
    if (st != CLS_SUCCESS) return st;
    *out = (cls_model_banks){0, 0, 0};
    cls__model_bank_conflicts(m, addrs, n, elem_size, out);
    return CLS_SUCCESS;
}

cls_status cls_model_channel(const cls_model *m, uint64_t addr, unsigned *channel)
{
    if (!m || !channel) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_channel: NULL");
    *channel = cls__model_channel(m, addr);
    return CLS_SUCCESS;
}

cls_status cls_model_occupancy(const cls_model *m, size_t work_group_size,
                               unsigned registers_per_item, size_t local_bytes,
                               cls_model_occupancy_info *out)
{
    if (!m || !out) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_occupancy: NULL");
    if (work_group_size == 0 || registers_per_item > 65536)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "cls_model_occupancy: work-group size must be positive and registers "
                          "per work-item at most 65536 (got %zu, %u)",
                          work_group_size, registers_per_item);
    cls__model_occupancy(m, work_group_size, registers_per_item, local_bytes, out);
    return CLS_SUCCESS;
}

cls_status cls_model_latency_loads(const cls_model *m, double n_loads, double *out)
{
    if (!m || !out) return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_latency_loads: NULL");
    if (!(n_loads >= 0) || n_loads > 1e12)
        return cls__error(CLS_ERR_INVALID_ARGUMENT,
                          "cls_model_latency_loads: the load count must be in [0, 1e12], got %g",
                          n_loads);
    *out = m->rules->latency_loads ? m->rules->latency_loads(&m->p, n_loads) : n_loads;
    return CLS_SUCCESS;
}

cls_status cls_model_global_reads_cached(const cls_model *m, int *cached)
{
    if (!m || !cached)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_model_global_reads_cached: NULL");
    *cached = m->rules->global_reads_cached ? m->rules->global_reads_cached(&m->p) != 0 : 0;
    return CLS_SUCCESS;
}

const char *cls_model_limit_name(cls_model_limit limit)
{
    switch (limit) {
    case CLS_LIMIT_NONE: return "none";
    case CLS_LIMIT_GROUPS: return "groups";
    case CLS_LIMIT_WARPS: return "warps";
    case CLS_LIMIT_REGISTERS: return "registers";
    case CLS_LIMIT_LOCAL_MEMORY: return "local_memory";
    case CLS_LIMIT_WORK_GROUP_SIZE: return "work_group_size";
    }
    return "unknown";
}
