/* cumapz.c: CuMAPz (Kim & Shrivastava, Sect. 5): warp emulation and the six factors. */
#include "cumapz.h"
#include "device_model.h" /* the family rules Eqs. 1, 3 and 6 take their inputs from */
#include "error.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WARP 1024u                 /* widest warp a model may have (the schema's bound) */
#define ARRAY_STRIDE (UINT64_C(1) << 41) /* array k starts at byte k * 2^41: arrays are at most
                                          2^40 bytes, and every start is aligned to any channel
                                          interleave, as large allocations are */
#define EMPTY UINT64_MAX

/* ------------------------------------------------------------------ buffer contents */

/* What one local buffer holds in the current work-group: global (array, element) keys mapped
 * to local elements (Kim & Shrivastava, Sect. 5: "This pair creates a mapping between global memory
 * addresses and shared memory addresses").  Open addressing with linear probing; rev[] says which
 * key each local element holds, so that overwriting an element forgets the old key. */
typedef struct table {
    uint64_t *keys;
    uint32_t *vals;
    size_t mask;        /* capacity - 1 (a power of two, at least twice the elements) */
    uint64_t *rev;      /* per local element: the key it holds, or EMPTY */
    uint32_t *filled;   /* local elements written since the last clear */
    size_t n_filled;
    size_t live;        /* keys in the table */
    uint64_t episode;   /* fill episode the contents belong to */
} table;

static size_t slot_of(const table *t, uint64_t key)
{
    uint64_t h = key * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h ^ (h >> 29)) & t->mask;
}

static size_t t_find(const table *t, uint64_t key)
{
    size_t i = slot_of(t, key);
    while (t->keys[i] != EMPTY) {
        if (t->keys[i] == key) return i;
        i = (i + 1) & t->mask;
    }
    return SIZE_MAX;
}

/* Backward-shift deletion keeps every probe chain unbroken. */
static void t_erase(table *t, size_t i)
{
    size_t j = i;
    t->keys[i] = EMPTY;
    t->live--;
    for (;;) {
        size_t k;
        j = (j + 1) & t->mask;
        if (t->keys[j] == EMPTY) return;
        k = slot_of(t, t->keys[j]);
        if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
            t->keys[i] = t->keys[j];
            t->vals[i] = t->vals[j];
            t->keys[j] = EMPTY;
            i = j;
        }
    }
}

static void t_insert(table *t, uint64_t key, uint32_t l)
{
    uint64_t old = t->rev[l];
    size_t i;
    if (old == key) return;
    if (old != EMPTY) {
        i = t_find(t, old);
        if (i != SIZE_MAX && t->vals[i] == l) t_erase(t, i);
    } else {
        t->filled[t->n_filled++] = l;
    }
    t->rev[l] = key;
    if (t_find(t, key) != SIZE_MAX) return; /* already held by another element: keep that one */
    i = slot_of(t, key);
    while (t->keys[i] != EMPTY) i = (i + 1) & t->mask;
    t->keys[i] = key;
    t->vals[i] = l;
    t->live++;
}

static void t_clear(table *t)
{
    for (size_t f = 0; f < t->n_filled; f++) {
        uint32_t l = t->filled[f];
        uint64_t key = t->rev[l];
        if (key != EMPTY) {
            size_t i = t_find(t, key);
            if (i != SIZE_MAX && t->vals[i] == l) t_erase(t, i);
        }
        t->rev[l] = EMPTY;
    }
    t->n_filled = 0;
}

static int t_init(table *t, uint64_t elements)
{
    size_t cap = 16;
    while (cap < 2 * elements) cap *= 2;
    memset(t, 0, sizeof *t);
    t->keys = malloc(cap * sizeof *t->keys);
    t->vals = malloc(cap * sizeof *t->vals);
    t->rev = malloc((size_t)elements * sizeof *t->rev);
    t->filled = malloc((size_t)elements * sizeof *t->filled);
    if (!t->keys || !t->vals || !t->rev || !t->filled) return -1;
    t->mask = cap - 1;
    memset(t->keys, 0xff, cap * sizeof *t->keys);
    memset(t->rev, 0xff, (size_t)elements * sizeof *t->rev);
    return 0;
}

static void t_free(table *t)
{
    free(t->keys);
    free(t->vals);
    free(t->rev);
    free(t->filled);
}

/* ------------------------------------------------------------------ L1 of cached reads */

/* The global elements a work-group has read, where the family's rules say an on-chip cache
 * serves repeated global reads (cls_model_global_reads_cached).  At most L1_MAX_KEYS distinct
 * elements are held (64 K: the 256 KB of an H100 SM's L1 in 4-byte words); beyond that a read
 * counts as a miss, as it would in a full cache. */
#define L1_MAX_KEYS (1u << 16)
#define SHARED_MAX_ELEMS (UINT64_C(1) << 24) /* 64 MB of last-loader entries per array */

typedef struct l1set {
    uint64_t *keys;     /* 2 x L1_MAX_KEYS slots, EMPTY when free */
    uint32_t *slots;    /* slots taken since the last clear */
    size_t n;
} l1set;

/* The slot that holds key, or the free slot where it would go. */
static size_t l1_slot(const l1set *c, uint64_t key)
{
    const size_t mask = 2 * L1_MAX_KEYS - 1;
    uint64_t h = key * UINT64_C(0x9E3779B97F4A7C15);
    size_t i = (size_t)(h ^ (h >> 29)) & mask;
    while (c->keys[i] != EMPTY && c->keys[i] != key) i = (i + 1) & mask;
    return i;
}

/* 1: key was there (a hit); 0: inserted or the set is full (a miss). */
static int l1_touch(l1set *c, uint64_t key)
{
    size_t i = l1_slot(c, key);
    if (c->keys[i] == key) return 1;
    if (c->n >= L1_MAX_KEYS) return 0;
    c->keys[i] = key;
    c->slots[c->n++] = (uint32_t)i;
    return 0;
}

/* 1 when key is in the set, without inserting it. */
static int l1_has(const l1set *c, uint64_t key)
{
    return c->keys[l1_slot(c, key)] == key;
}

static void l1_clear(l1set *c)
{
    for (size_t k = 0; k < c->n; k++) c->keys[c->slots[k]] = EMPTY;
    c->n = 0;
}

/* ------------------------------------------------------------------ bank-conflict memo */

/* The family rules are pure functions of their arguments (model/device_model.h), and a kernel
 * repeats the same local addresses in every work-group, so answers are kept per exact address
 * vector (direct-mapped; a miss just asks the rule). */
typedef struct memo {
    uint64_t *addrs;    /* entries x W */
    uint64_t *hash;     /* per entry, 0: empty */
    unsigned *elem;
    cls_model_banks *ans;
    size_t entries, W;
} memo;

static int memo_init(memo *mm, size_t W)
{
    size_t n = 1024;
    while (n > 16 && n * W > (1u << 16)) n /= 2;
    memset(mm, 0, sizeof *mm);
    mm->addrs = malloc(n * W * sizeof *mm->addrs);
    mm->hash = calloc(n, sizeof *mm->hash);
    mm->elem = calloc(n, sizeof *mm->elem);
    mm->ans = calloc(n, sizeof *mm->ans);
    mm->entries = n;
    mm->W = W;
    return mm->addrs && mm->hash && mm->elem && mm->ans ? 0 : -1;
}

static void memo_free(memo *mm)
{
    free(mm->addrs);
    free(mm->hash);
    free(mm->elem);
    free(mm->ans);
}

static cls_status banks_memo(memo *mm, const cls_model *m, const uint64_t *a, unsigned elem,
                             cls_model_banks *out)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ elem;
    size_t i;
    cls_status st;
    for (size_t k = 0; k < mm->W; k++) {
        h ^= a[k];
        h *= UINT64_C(1099511628211);
        h ^= h >> 31;
    }
    h |= 1;
    i = (size_t)(h >> 17) & (mm->entries - 1);
    if (mm->hash[i] == h && mm->elem[i] == elem &&
        memcmp(mm->addrs + i * mm->W, a, mm->W * sizeof *a) == 0) {
        *out = mm->ans[i];
        return CLS_SUCCESS;
    }
    st = cls_model_bank_conflicts(m, a, mm->W, elem, out);
    if (st != CLS_SUCCESS) return st;
    mm->hash[i] = h;
    mm->elem[i] = elem;
    memcpy(mm->addrs + i * mm->W, a, mm->W * sizeof *a);
    mm->ans[i] = *out;
    return CLS_SUCCESS;
}

/* ------------------------------------------------------------------ channel instructions */

/* One access instruction (a reference statement in one iteration of its loops) over the first
 * n_blk_to_check work-groups: how many of them touched each channel (Eq. 5), and the bytes its
 * transactions moved there. */
typedef struct ch_inst {
    uint32_t stmt;
    int64_t it[CLS_ACC_MAX_LOOP_DEPTH];
    uint64_t bytes;
    uint32_t blocks;
    int used;
} ch_inst;

#define CH_MAX_INST 4096u

/* ------------------------------------------------------------------ the emulator */

typedef struct emu {
    const cls_model *m;
    const cls_access *a;
    cls_cumapz_result *r;
    cls_status st;

    size_t threads, W, nwarps;
    size_t cw;                    /* work-items whose accesses combine (coalesce_width) */
    uint64_t *sorted;             /* scratch: one group's addresses */
    int64_t *tc;                  /* tx, ty, tz of every work-item in the work-group's shape */
    uint8_t *masks;               /* (max_nest + 2) x threads: active work-items per level */
    int64_t vars[CLS_AV_COUNT];
    uint64_t gaddr[MAX_WARP];     /* one warp's global byte addresses */
    uint64_t *laddr;              /* n_buffers x W: one warp's local byte addresses */
    unsigned used;                /* buffers the current warp touched (bit mask) */
    table tab[CLS_ACC_MAX_BUFFERS];
    uint64_t episode;             /* fill episodes so far (over all work-groups) */
    int filling;                  /* the work-group is in a run of fetches */
    uint64_t fetch_warp_execs;    /* warps that issued a fetch */
    uint64_t episode_warps;       /* warps present at each fill episode */
    memo banks;
    /* global reads served by an L1 (cls_model_global_reads_cached) */
    int cached;
    l1set l1;
    uint64_t *maddr;              /* one warp's cached reads that missed */
    l1set l1s;                    /* the same L1 by sectors (Eq. 3: a hit moves nothing) */
    uint64_t seg;                 /* sector bytes (memory.segment_bytes) */
    uint64_t taddr[MAX_WARP];     /* one warp's global loads that go past the L1 */
    /* Eq. 1 with a cache shared by the resident work-groups (cls__rule_cache_window) */
    uint64_t window;              /* work-groups in launch order that share it; 0: none */
    uint32_t *last[CLS_ACC_MAX_ARRAYS]; /* per loaded array: per element, 1 + the last
                                           work-group that loaded it (0: never) */
    uint64_t wg;                  /* 1 + the current work-group in launch order */
    /* Eq. 6 */
    double shm_cost;              /* the passes charged (cls__rule_conflict_passes) */
    /* channel skew */
    int check_ch;
    unsigned n_ch;
    ch_inst *inst;                /* open addressing, 2 x ch_max slots */
    size_t ch_max, ch_n_inst;
    uint32_t *ch_count;           /* per instruction slot: n_ch counts */
    uint8_t *ch_mark;
    unsigned *ch_list;
    size_t ch_n;
} emu;

/* Sets tx, ty, tz of linear work-item t under a view. */
static void coords(emu *e, size_t t, const unsigned *view)
{
    if (view == e->a->block) {
        memcpy(e->vars + CLS_AV_TX, e->tc + 3 * t, 3 * sizeof *e->tc);
        return;
    }
    e->vars[CLS_AV_TX] = (int64_t)(t % view[0]);
    e->vars[CLS_AV_TY] = (int64_t)((t / view[0]) % view[1]);
    e->vars[CLS_AV_TZ] = (int64_t)(t / ((size_t)view[0] * view[1]));
}

/* An index at the current block and loop values, the work-item part added per work-item. */
static int64_t base_of(const emu *e, const cls_affine *x)
{
    int64_t v = x->c;
    for (int i = 0; i < CLS_AV_COUNT; i++)
        if (i < CLS_AV_TX || i > CLS_AV_TZ) v += x->k[i] * e->vars[i];
    return v;
}

static int64_t item_part(const emu *e, const cls_affine *x)
{
    return x->k[CLS_AV_TX] * e->vars[CLS_AV_TX] + x->k[CLS_AV_TY] * e->vars[CLS_AV_TY] +
           x->k[CLS_AV_TZ] * e->vars[CLS_AV_TZ];
}

/* " (work-group (x,y,z), work-item (x,y,z), i=3)" for messages. */
static void where(const emu *e, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "work-group (%" PRId64 ",%" PRId64 ",%" PRId64
                                          "), work-item (%" PRId64 ",%" PRId64 ",%" PRId64 ")",
                                e->vars[CLS_AV_BX], e->vars[CLS_AV_BY], e->vars[CLS_AV_BZ],
                                e->vars[CLS_AV_TX], e->vars[CLS_AV_TY], e->vars[CLS_AV_TZ]);
    for (int d = 0; d < CLS_ACC_MAX_LOOP_DEPTH && n < len; d++)
        if (e->vars[CLS_AV_L0 + d])
            n += (size_t)snprintf(buf + n, len - n, ", loop %d at %" PRId64, d,
                                  e->vars[CLS_AV_L0 + d]);
}

static int cond_holds(const cls_acc_stmt *st, const int64_t *vars)
{
    for (size_t k = 0; k < st->n_cond; k++) {
        int64_t v = cls_affine_eval(&st->cond[k].e, vars);
        int ok;
        switch (st->cond[k].op) {
        case CLS_ACC_LT: ok = v < 0; break;
        case CLS_ACC_LE: ok = v <= 0; break;
        case CLS_ACC_GT: ok = v > 0; break;
        case CLS_ACC_GE: ok = v >= 0; break;
        case CLS_ACC_EQ: ok = v == 0; break;
        default: ok = v != 0; break;
        }
        if (!ok) return 0;
    }
    return 1;
}

/* The buffer and local element holding global (array, element), if any. */
static int lookup(emu *e, uint64_t key, uint32_t *l)
{
    for (size_t b = 0; b < e->a->n_buffers; b++) {
        size_t i;
        if (e->tab[b].live == 0) continue;
        i = t_find(&e->tab[b], key);
        if (i != SIZE_MAX) {
            *l = e->tab[b].vals[i];
            return (int)b;
        }
    }
    return -1;
}

static void use_buffer(emu *e, int b)
{
    if (e->used & (1u << b)) return;
    e->used |= 1u << b;
    for (size_t i = 0; i < e->W; i++) e->laddr[(size_t)b * e->W + i] = CLS_MODEL_NO_ACCESS;
}

/* Starts a fill episode on the first fetch after anything else (Kim & Shrivastava, Sect. 5.2: the
 * loads of a run of data fetches are independent of each other); a buffer fetched again in a later
 * episode starts empty (a loop that refills its tile). */
static void begin_fetch(emu *e, int b)
{
    if (!e->filling) {
        e->filling = 1;
        e->episode++;
        e->episode_warps += e->nwarps;
    }
    if (e->tab[b].episode != e->episode) {
        t_clear(&e->tab[b]);
        e->tab[b].episode = e->episode;
    }
}

/* Eq. 3's bytes_access: the distinct bytes a warp's work-items ask for, per group of
 * coalesce_width work-items (the group the transactions rule serves together).  A word read by
 * many work-items counts once: Kim & Shrivastava, Sect. 6.1 calls a half-warp reading one element
 * "not coalesced at all". */
static uint64_t distinct_bytes(emu *e, const uint64_t *addrs, size_t elem)
{
    uint64_t total = 0;
    for (size_t g = 0; g < e->W; g += e->cw) {
        size_t n = 0, end = g + e->cw < e->W ? g + e->cw : e->W;
        for (size_t i = g; i < end; i++) {
            uint64_t v = addrs[i];
            size_t j = n++;
            if (v == CLS_MODEL_NO_ACCESS) {
                n--;
                continue;
            }
            while (j > 0 && e->sorted[j - 1] > v) {
                e->sorted[j] = e->sorted[j - 1];
                j--;
            }
            e->sorted[j] = v;
        }
        for (size_t i = 0; i < n; i++)
            if (i == 0 || e->sorted[i] != e->sorted[i - 1]) total += elem;
    }
    return total;
}

/* The slot of instruction (stmt, loop iterations), created on first use; NULL when the table
 * is full (later instructions are not judged). */
static ch_inst *inst_slot(emu *e, size_t stmt, size_t *index)
{
    size_t cap = 2 * e->ch_max, i;
    uint64_t h = stmt * UINT64_C(0x9E3779B97F4A7C15);
    for (int d = 0; d < CLS_ACC_MAX_LOOP_DEPTH; d++)
        h = (h ^ (uint64_t)e->vars[CLS_AV_L0 + d]) * UINT64_C(0xBF58476D1CE4E5B9);
    i = (size_t)(h >> 20) % cap;
    for (;;) {
        ch_inst *c = &e->inst[i];
        if (!c->used) {
            if (e->ch_n_inst >= e->ch_max) return NULL;
            c->used = 1;
            c->stmt = (uint32_t)stmt;
            for (int d = 0; d < CLS_ACC_MAX_LOOP_DEPTH; d++) c->it[d] = e->vars[CLS_AV_L0 + d];
            *index = i;
            e->ch_n_inst++;
            return c;
        }
        if (c->stmt == stmt && memcmp(c->it, e->vars + CLS_AV_L0, sizeof c->it) == 0) {
            *index = i;
            return c;
        }
        i = (i + 1) % cap;
    }
}

/* Eq. 1 where the resident work-groups share a cache in front of memory: 1 when element g of
 * the array comes from memory, i.e. no work-group of the window (this one and the window - 1
 * before it in launch order) has loaded it; the element is then the current work-group's. */
static int shared_miss(emu *e, int array, uint64_t g)
{
    uint32_t *t = e->last[array], prev = t[g];
    t[g] = (uint32_t)e->wg;
    return prev == 0 || e->wg - prev >= e->window;
}

/* Executes one reference statement for every warp of the work-group. */
static void exec_ref(emu *e, const cls_acc_stmt *st, const uint8_t *mask, const unsigned *view)
{
    const cls_access *a = e->a;
    cls_cumapz_result *r = e->r;
    const cls_acc_space *arr = st->array >= 0 ? &a->arrays[st->array] : NULL;
    const cls_acc_space *buf = st->buffer >= 0 ? &a->buffers[st->buffer] : NULL;
    uint64_t base = st->array >= 0 ? (uint64_t)st->array * ARRAY_STRIDE : 0;
    uint64_t moved = 0; /* bytes this instruction's transactions moved in this work-group */
    int64_t gbase = arr ? base_of(e, &st->global) : 0, lbase = buf ? base_of(e, &st->local) : 0;
    char at[200];

    if (st->kind == CLS_ACC_FETCH) begin_fetch(e, st->buffer);
    else e->filling = 0;

    for (size_t w = 0; w < e->nwarps && e->st == CLS_SUCCESS; w++) {
        size_t lo = w * e->W, hi = lo + e->W < e->threads ? lo + e->W : e->threads;
        size_t alive = hi - lo, active = 0, ngl = 0, nsh = 0;
        e->used = 0;
        for (size_t i = 0; i < e->W; i++) e->gaddr[i] = CLS_MODEL_NO_ACCESS;
        if (e->cached)
            for (size_t i = 0; i < e->W; i++) e->maddr[i] = CLS_MODEL_NO_ACCESS;
        for (size_t t = lo; t < hi; t++) {
            size_t lane = t - lo;
            int64_t g = 0, l = 0;
            if (!mask[t]) continue;
            active++;
            coords(e, t, view);
            if (arr) {
                g = gbase + item_part(e, &st->global);
                if (g < 0 || (uint64_t)g >= arr->elements) {
                    where(e, at, sizeof at);
                    e->st = cls__error(CLS_ERR_INVALID_SPEC,
                                       "%s: element %" PRId64
                                       " of array '%s' is outside its %" PRIu64 " elements (%s)",
                                       st->path, g, arr->name, arr->elements, at);
                    return;
                }
            }
            if (buf) {
                l = lbase + item_part(e, &st->local);
                if (l < 0 || (uint64_t)l >= buf->elements) {
                    where(e, at, sizeof at);
                    e->st = cls__error(CLS_ERR_INVALID_SPEC,
                                       "%s: element %" PRId64
                                       " of buffer '%s' is outside its %" PRIu64 " elements (%s)",
                                       st->path, l, buf->name, buf->elements, at);
                    return;
                }
            }
            switch (st->kind) {
            case CLS_ACC_READ: {
                uint32_t hit;
                int b = lookup(e, ((uint64_t)st->array << 48) | (uint64_t)g, &hit);
                r->array_reads[st->array]++;
                if (b >= 0) {
                    use_buffer(e, b);
                    e->laddr[(size_t)b * e->W + lane] = (uint64_t)hit * a->buffers[b].elem_size;
                    nsh++;
                    r->bytes_shmem += arr->elem_size;
                    r->shm_reads++;
                    r->array_from_local[st->array]++;
                } else {
                    e->gaddr[lane] = base + (uint64_t)g * arr->elem_size;
                    ngl++;
                    /* A cached read is served by the L1 (Eq. 1's bytes_shmem); a miss first
                     * brings its element there (bytes_buffered, below). */
                    if (e->cached) {
                        int l1hit = l1_touch(&e->l1, ((uint64_t)st->array << 48) | (uint64_t)g);
                        r->bytes_shmem += arr->elem_size;
                        r->l1_reads++;
                        r->l1_hits += (uint64_t)l1hit;
                        /* From memory: a miss of the shared cache where the family has one,
                         * else of the work-group's L1. */
                        if (e->last[st->array]) {
                            if (shared_miss(e, st->array, (uint64_t)g))
                                r->bytes_buffered += arr->elem_size;
                        } else if (!l1hit) {
                            e->maddr[lane] = e->gaddr[lane];
                        }
                    }
                }
                break;
            }
            case CLS_ACC_WRITE:
                e->gaddr[lane] = base + (uint64_t)g * arr->elem_size;
                ngl++;
                break;
            case CLS_ACC_FETCH:
                e->gaddr[lane] = base + (uint64_t)g * arr->elem_size;
                ngl++;
                use_buffer(e, st->buffer);
                e->laddr[(size_t)st->buffer * e->W + lane] = (uint64_t)l * buf->elem_size;
                nsh++;
                t_insert(&e->tab[st->buffer], ((uint64_t)st->array << 48) | (uint64_t)g,
                         (uint32_t)l);
                if (e->cached) /* the fetched element passes through the L1 */
                    (void)l1_touch(&e->l1, ((uint64_t)st->array << 48) | (uint64_t)g);
                if (e->last[st->array] && shared_miss(e, st->array, (uint64_t)g))
                    r->bytes_buffered += arr->elem_size;
                break;
            default: /* local read or write */
                use_buffer(e, st->buffer);
                e->laddr[(size_t)st->buffer * e->W + lane] = (uint64_t)l * buf->elem_size;
                nsh++;
                break;
            }
        }
        if (active == 0) continue;
        r->evaluations += active;
        /* Eq. 7: a reference diverges in a warp when only part of its work-items take it
         * (a branch) or when part reads a buffer and part global memory (Sect. 5.6). */
        {
            int diverged = active < alive || (st->kind == CLS_ACC_READ && ngl > 0 && nsh > 0);
            r->n_ref_warp++;
            r->n_path += diverged ? 2 : 1;
            r->n_diverged += (uint64_t)diverged;
        }
        if (st->kind == CLS_ACC_FETCH) e->fetch_warp_execs++;
        if (ngl > 0) {
            cls_model_txn txn;
            cls_status s;
            const uint64_t *ta = e->gaddr;
            /* Eq. 3 where an L1 caches global loads: a lane whose sector the work-group already
             * brought on chip is served there and asks memory for nothing; the warp's other
             * lanes make the transactions. */
            if (e->cached && st->kind != CLS_ACC_WRITE) {
                for (size_t i = 0; i < e->W; i++) {
                    e->taddr[i] = CLS_MODEL_NO_ACCESS;
                    if (e->gaddr[i] == CLS_MODEL_NO_ACCESS) continue;
                    if (!l1_has(&e->l1s, ((uint64_t)st->array << 48) | (e->gaddr[i] - base) / e->seg))
                        e->taddr[i] = e->gaddr[i];
                }
                for (size_t i = 0; i < e->W; i++)
                    if (e->gaddr[i] != CLS_MODEL_NO_ACCESS)
                        (void)l1_touch(&e->l1s, ((uint64_t)st->array << 48) | (e->gaddr[i] - base) / e->seg);
                ta = e->taddr;
            }
            s = cls_model_transactions(e->m, ta, e->W, arr->elem_size, &txn);
            if (s != CLS_SUCCESS) {
                e->st =
                    cls__error_prefix(s, "%s: the transactions rule refused the warp: ", st->path);
                return;
            }
            /* Eq. 3 over every global access; Eq. 1's bytes_buffered over the fetches. */
            r->bytes_access += distinct_bytes(e, ta, arr->elem_size);
            r->bytes_tr += txn.bytes;
            r->transactions += txn.count;
            /* Eq. 1's bytes_buffered.  Where global reads are cached, the bytes of the
             * elements brought on chip: a fetch's, and the misses of a cached read (the
             * sectors a misaligned warp drags in beyond them stay in L1/L2 for its neighbour;
             * Eq. 3's bw_util already charges them, not charged twice). */
            if (st->kind == CLS_ACC_FETCH && !e->last[st->array])
                r->bytes_buffered += e->cached ? distinct_bytes(e, e->gaddr, arr->elem_size)
                                               : txn.bytes;
            if (st->kind == CLS_ACC_READ && e->cached)
                r->bytes_buffered += distinct_bytes(e, e->maddr, arr->elem_size);
            moved += txn.bytes;
            if (e->check_ch) {
                for (size_t i = 0; i < e->W; i++) {
                    unsigned ch;
                    if (ta[i] == CLS_MODEL_NO_ACCESS) continue;
                    if (cls_model_channel(e->m, ta[i], &ch) != CLS_SUCCESS) continue;
                    ch %= e->n_ch;
                    if (!e->ch_mark[ch]) {
                        e->ch_mark[ch] = 1;
                        e->ch_list[e->ch_n++] = ch;
                    }
                }
            }
        }
        if (nsh > 0) {
            for (size_t b = 0; b < a->n_buffers; b++) {
                cls_model_banks bk;
                cls_status s;
                if (!(e->used & (1u << b))) continue;
                s = banks_memo(&e->banks, e->m, e->laddr + b * e->W, a->buffers[b].elem_size,
                               &bk);
                if (s != CLS_SUCCESS) {
                    e->st = cls__error_prefix(
                        s, "%s: the bank-conflict rule refused the warp: ", st->path);
                    return;
                }
                /* Eq. 6: each group's access costs its degree in passes. */
                r->n_bk_conflict += bk.passes;
                /* charged as the family's rule says a conflict of this degree costs */
                if (bk.groups > 0)
                    e->shm_cost += bk.groups <= 1
                                       ? cls__rule_conflict_passes(e->m, (double)bk.passes)
                                       : (double)bk.groups *
                                             cls__rule_conflict_passes(
                                                 e->m, (double)bk.passes / (double)bk.groups);
                r->shm_passes_ideal += bk.groups;
                if (bk.degree > r->worst_degree) r->worst_degree = bk.degree;
            }
        }
    }
    /* Eqs. 4-5: the work-group counts once for every channel this instruction's addresses
     * map to. */
    if (e->ch_n > 0) {
        size_t slot;
        ch_inst *c = inst_slot(e, (size_t)(st - a->stmts), &slot);
        if (c) {
            c->bytes += moved;
            c->blocks++;
            for (size_t i = 0; i < e->ch_n; i++) e->ch_count[slot * e->n_ch + e->ch_list[i]]++;
        }
        for (size_t i = 0; i < e->ch_n; i++) e->ch_mark[e->ch_list[i]] = 0;
        e->ch_n = 0;
    }
}

static void walk(emu *e, size_t first, size_t n, int level, const unsigned *view)
{
    const cls_access *a = e->a;
    for (size_t i = first; i < first + n && e->st == CLS_SUCCESS; i++) {
        const cls_acc_stmt *st = &a->stmts[i];
        const unsigned *v = st->view[0] ? st->view : view;
        uint8_t *cur = e->masks + (size_t)level * e->threads;
        uint8_t *nxt = cur + e->threads;
        switch (st->kind) {
        case CLS_ACC_IF: {
            int any = 0;
            for (size_t t = 0; t < e->threads; t++) {
                nxt[t] = 0;
                if (!cur[t]) continue;
                coords(e, t, v);
                nxt[t] = (uint8_t)cond_holds(st, e->vars);
                any |= nxt[t];
            }
            if (any) walk(e, st->first, st->n, level + 1, v);
            if (st->else_n == 0) break;
            any = 0;
            for (size_t t = 0; t < e->threads; t++) {
                nxt[t] = 0;
                if (!cur[t]) continue;
                coords(e, t, v);
                nxt[t] = (uint8_t)!cond_holds(st, e->vars);
                any |= nxt[t];
            }
            if (any) walk(e, st->else_first, st->else_n, level + 1, v);
            break;
        }
        case CLS_ACC_LOOP:
            for (int64_t it = 0; it < st->count && e->st == CLS_SUCCESS; it++) {
                e->vars[CLS_AV_L0 + st->depth] = it;
                walk(e, st->first, st->n, level, v);
            }
            e->vars[CLS_AV_L0 + st->depth] = 0;
            break;
        default: exec_ref(e, st, cur, v); break;
        }
    }
}

/* ------------------------------------------------------------------ the factors */

static double param(const cls_model *m, const char *key)
{
    double v = 0;
    if (cls_model_get(m, key, &v) != CLS_SUCCESS) return 0;
    return v;
}

/* Eq. 5 for one instruction: max_n_block_per_ch / MAX(1, min_n_block_per_ch) over the channels
 * it used; n_channels when every work-group went to one channel; 1 when fewer than two
 * work-groups executed it (nothing to be skewed). */
static double inst_skew(const emu *e, const ch_inst *c, const uint32_t *count, unsigned *max_out,
                        unsigned *min_out, unsigned *used_out)
{
    unsigned max = 0, min = 0, used = 0;
    for (unsigned ch = 0; ch < e->n_ch; ch++) {
        uint32_t k = count[ch];
        if (k == 0) continue;
        used++;
        if (k > max) max = k;
        if (min == 0 || k < min) min = k;
    }
    *max_out = max;
    *min_out = min;
    *used_out = used;
    if (c->blocks < 2 || used == 0) return 1.0;
    if (used == 1 && e->n_ch > 1) return (double)e->n_ch;
    return (double)max / (double)(min > 1 ? min : 1);
}

static void finish(const emu *e, cls_cumapz_result *r)
{
    double occ = r->occupancy_pct < 50 ? r->occupancy_pct : 50;
    double wsum = 0, bsum = 0, worst = 0, loads;
    uint64_t worst_bytes = 0;

    /* Eq. 1: data_reuse = bytes_shmem / bytes_buffered.  Without any fetch the quotient is
     * 0/0; the variant then reads each byte once per byte moved: 1. */
    r->data_reuse = r->bytes_buffered ? (double)r->bytes_shmem / (double)r->bytes_buffered : 1.0;
    /* Eq. 2: lat_hiding = MIN(Occupancy, 50) / 50 * n_shm_load^(1/2); a warp without fetches
     * still waits on one load at a time: n_shm_load at least 1. */
    r->n_shm_load = e->episode_warps ? (double)e->fetch_warp_execs / (double)e->episode_warps : 0;
    /* The loads that hide latency are the family's to say (cls_model_latency_loads: all of
     * them on GT200 and Fermi, at most one per warp on the gpu family). */
    if (cls_model_latency_loads(e->m, r->n_shm_load, &loads) != CLS_SUCCESS) loads = r->n_shm_load;
    r->lat_hiding = occ / 50.0 * sqrt(loads > 1 ? loads : 1.0);
    /* Eq. 3: bw_util = bytes_access / bytes_tr. */
    r->bw_util = r->bytes_tr ? (double)r->bytes_access / (double)r->bytes_tr : 1.0;
    /* Eq. 5 per instruction over the first n_blk_to_check work-groups (Eq. 4), weighted by the
     * bytes each instruction moved there: an instruction's traffic is slowed by its own skew. */
    r->ch_worst_skew = 1.0;
    for (size_t i = 0; i < 2 * e->ch_max; i++) {
        const ch_inst *c = &e->inst[i];
        unsigned max, min, used;
        double k;
        if (!c->used) continue;
        k = inst_skew(e, c, e->ch_count + i * e->n_ch, &max, &min, &used);
        r->ch_instructions++;
        wsum += k * (double)c->bytes;
        bsum += (double)c->bytes;
        if (k > worst || (k == worst && c->bytes > worst_bytes)) {
            worst = k;
            worst_bytes = c->bytes;
            r->ch_worst_skew = k;
            r->max_n_block_per_ch = max;
            r->min_n_block_per_ch = min;
            r->channels_used = used;
            snprintf(r->ch_worst_path, sizeof r->ch_worst_path, "%s", e->a->stmts[c->stmt].path);
        }
    }
    r->ch_skew = r->ch_skew_skipped || bsum <= 0 ? 1.0 : wsum / bsum;
    /* Eq. 6: shm_eff = conflict-free passes / passes charged (the family's cost of each
     * group's conflict degree; its degree on GT200 and Fermi); 1 without local accesses. */
    r->shm_eff = r->n_bk_conflict && e->shm_cost > 0 ? (double)r->shm_passes_ideal / e->shm_cost
                                                     : 1.0;
    /* Eq. 7: branch_eff = executions / n_path, per (reference, warp). */
    r->branch_eff = r->n_path ? (double)r->n_ref_warp / (double)r->n_path : 1.0;
    /* Eq. 8 */
    r->mpe = r->data_reuse * r->lat_hiding * r->bw_util / r->ch_skew * r->branch_eff *
             sqrt(r->shm_eff);
}

cls_status cls_cumapz_analyze(const cls_model *m, const cls_access *a,
                              const cls_cumapz_options *opt, cls_cumapz_result *r)
{
    emu e;
    cls_access chk;
    cls_model_occupancy_info occ;
    cls_status st;
    uint64_t max_work = opt && opt->max_work ? opt->max_work : CLS_CUMAPZ_DEFAULT_WORK;
    uint64_t nblocks, local_bytes;
    double warp, max_wg, local_cap, ch_width, n_ch, cw, max_elem = 0, ratio, per_ch;
    clock_t t0 = clock();

    memset(&e, 0, sizeof e);
    if (!m || !a || !r)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_cumapz_analyze: NULL argument");
    memset(r, 0, sizeof *r);
    /* The description's own checks, on a copy (they fill the work estimate). */
    chk = *a;
    st = cls_access_check(&chk);
    if (st != CLS_SUCCESS) return st;

    warp = param(m, "compute.warp_width");
    max_wg = param(m, "compute.max_work_group");
    local_cap = param(m, "local_memory.bytes");
    ch_width = param(m, "memory.channel_width_bytes");
    n_ch = param(m, "memory.channels");
    cw = param(m, "compute.coalesce_width");
    if (warp < 1 || warp > MAX_WARP || n_ch < 1 || n_ch > 4096 || ch_width < 1)
        return cls__error(CLS_ERR_INVALID_MODEL,
                          "model '%s': warp width %g, %g channels of %g bytes "
                          "cannot be emulated",
                          cls_model_name(m), warp, n_ch, ch_width);
    e.threads = cls_access_threads(a);
    if (max_wg > 0 && (double)e.threads > max_wg)
        return cls__error(CLS_ERR_PLAN_INFEASIBLE,
                          "%s.block: %zu work-items per work-group, but model "
                          "'%s' allows at most %g",
                          a->path, e.threads, cls_model_name(m), max_wg);
    local_bytes = cls_access_local_bytes(a);
    if (local_cap > 0 && (double)local_bytes > local_cap)
        return cls__error(CLS_ERR_PLAN_INFEASIBLE,
                          "%s.buffers: the buffers need %" PRIu64
                          " bytes of local memory, model '%s' has "
                          "%g per work-group",
                          a->path, local_bytes, cls_model_name(m), local_cap);
    st = cls_model_occupancy(m, e.threads, a->registers, (size_t)local_bytes, &occ);
    if (st != CLS_SUCCESS || occ.groups_per_cu == 0)
        return cls__error(CLS_ERR_PLAN_INFEASIBLE,
                          "%s: no work-group of %zu work-items with %" PRIu64
                          " bytes of local memory fits a compute unit of "
                          "model '%s' (limit: %s)",
                          a->path, e.threads, local_bytes, cls_model_name(m),
                          st == CLS_SUCCESS ? cls_model_limit_name(occ.limit)
                                            : cls__error_message());
    r->occupancy_pct = 100.0 * occ.occupancy;
    r->max_blks = occ.groups_per_cu;
    r->occupancy_limit = occ.limit;
    if (chk.work > max_work)
        return cls__error(
            CLS_ERR_INVALID_SPEC,
            "%s: the emulation needs %" PRIu64 " work-item references, more than the bound "
            "of %" PRIu64 " (most of them at %s); analyse a reduced grid or fewer loop "
            "iterations: the ranking holds on a reduced input (Kim & Shrivastava, Sect. 7)",
            a->path, chk.work, max_work, chk.work_path);

    /* Eq. 4: n_blk_to_check = n_channels * MIN(max_blks, channel_width / (bDim.X * elem_size)),
     * elem_size the largest element of the global arrays. */
    for (size_t i = 0; i < a->n_arrays; i++)
        if (a->arrays[i].elem_size > max_elem) max_elem = a->arrays[i].elem_size;
    ratio = ch_width / ((double)a->block[0] * max_elem);
    per_ch = (double)occ.groups_per_cu < ratio ? (double)occ.groups_per_cu : ratio;
    r->n_blk_to_check = (uint64_t)ceil(n_ch * per_ch);
    if (r->n_blk_to_check < 1) r->n_blk_to_check = 1;
    nblocks = (uint64_t)a->grid[0] * a->grid[1] * a->grid[2];
    r->ch_skew_skipped = nblocks < r->n_blk_to_check;
    r->n_channels = (unsigned)n_ch;

    e.m = m;
    e.a = a;
    e.r = r;
    e.W = (size_t)warp;
    e.cw = cw >= 1 && cw < warp ? (size_t)cw : e.W;
    e.sorted = malloc(e.W * sizeof *e.sorted);
    e.nwarps = (e.threads + e.W - 1) / e.W;
    e.n_ch = (unsigned)n_ch;
    e.masks = malloc((size_t)(chk.max_nest + 2) * e.threads);
    e.tc = malloc(3 * e.threads * sizeof *e.tc);
    for (size_t t = 0; e.tc && t < e.threads; t++) {
        e.tc[3 * t] = (int64_t)(t % a->block[0]);
        e.tc[3 * t + 1] = (int64_t)((t / a->block[0]) % a->block[1]);
        e.tc[3 * t + 2] = (int64_t)(t / ((size_t)a->block[0] * a->block[1]));
    }
    e.laddr = malloc((a->n_buffers ? a->n_buffers : 1) * e.W * sizeof *e.laddr);
    e.ch_max = CH_MAX_INST;
    while (e.ch_max > 16 && (uint64_t)e.ch_max * e.n_ch > (UINT64_C(1) << 22)) e.ch_max /= 2;
    e.inst = calloc(2 * e.ch_max, sizeof *e.inst);
    e.ch_count = calloc(2 * e.ch_max * (size_t)e.n_ch, sizeof *e.ch_count);
    e.ch_mark = calloc(e.n_ch, 1);
    e.ch_list = malloc(e.n_ch * sizeof *e.ch_list);
    st = CLS_SUCCESS;
    if (cls_model_global_reads_cached(m, &e.cached) != CLS_SUCCESS) e.cached = 0;
    if (e.cached) {
        e.l1.keys = malloc(2 * L1_MAX_KEYS * sizeof *e.l1.keys);
        e.l1.slots = malloc(L1_MAX_KEYS * sizeof *e.l1.slots);
        e.maddr = malloc(e.W * sizeof *e.maddr);
        if (e.l1.keys) memset(e.l1.keys, 0xff, 2 * L1_MAX_KEYS * sizeof *e.l1.keys);
        e.l1s.keys = malloc(2 * L1_MAX_KEYS * sizeof *e.l1s.keys);
        e.l1s.slots = malloc(L1_MAX_KEYS * sizeof *e.l1s.slots);
        if (e.l1s.keys) memset(e.l1s.keys, 0xff, 2 * L1_MAX_KEYS * sizeof *e.l1s.keys);
        e.seg = param(m, "memory.segment_bytes") >= 1 ? (uint64_t)param(m, "memory.segment_bytes")
                                                      : 32;
        if (!e.l1s.keys || !e.l1s.slots) st = CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    /* Eq. 1's shared cache: one last-loader entry per element of each loaded array, for arrays
     * of at most SHARED_MAX_ELEMS elements (a reduced input, Kim & Shrivastava, Sect. 7; larger
     * ones keep the work-group's L1 as their only cache). */
    e.window = e.cached && nblocks < UINT32_MAX ? cls__rule_cache_window(m, occ.groups_per_cu) : 0;
    for (size_t i = 0; e.window && i < a->n_stmts; i++) {
        const cls_acc_stmt *s = &a->stmts[i];
        if ((s->kind != CLS_ACC_READ && s->kind != CLS_ACC_FETCH) || s->array < 0 ||
            e.last[s->array] || a->arrays[s->array].elements > SHARED_MAX_ELEMS)
            continue;
        e.last[s->array] = calloc((size_t)a->arrays[s->array].elements, sizeof *e.last[0]);
        if (!e.last[s->array]) st = CLS_ERR_OUT_OF_HOST_MEMORY;
    }
    st = st == CLS_SUCCESS && (!e.cached || (e.l1.keys && e.l1.slots && e.maddr)) && e.masks && e.tc && e.sorted && e.laddr && e.inst && e.ch_count && e.ch_mark && e.ch_list &&
                 memo_init(&e.banks, e.W) == 0
             ? CLS_SUCCESS
             : CLS_ERR_OUT_OF_HOST_MEMORY;
    for (size_t b = 0; b < a->n_buffers && st == CLS_SUCCESS; b++)
        if (t_init(&e.tab[b], a->buffers[b].elements) != 0) st = CLS_ERR_OUT_OF_HOST_MEMORY;
    if (st != CLS_SUCCESS) {
        e.st = cls__error(st, "%s: out of memory for the emulation", a->path);
        goto done;
    }

    /* Fig. 4: every work-group in launch order, every statement in program order, every warp. */
    for (uint64_t L = 0; L < nblocks && e.st == CLS_SUCCESS; L++) {
        uint64_t gx = a->grid[0], gy = a->grid[1];
        uint64_t hx = L % gx, hy = (L / gx) % gy, hz = L / (gx * gy);
        if (a->diagonal) {
            /* Kim & Shrivastava, Sect. 6.1 (Ruetsch and Micikevicius):
             * blockIdx_y = bid % gridDim.y,
             * blockIdx_x = (bid / gridDim.y + blockIdx_y) % gridDim.x, bid = x + gridDim.x * y
             * (for a square grid: blockIdx_x = (x + y) % gridDim.x, blockIdx_y = x). */
            uint64_t bid = hx + gx * hy, by = bid % gy;
            e.vars[CLS_AV_BX] = (int64_t)((bid / gy + by) % gx);
            e.vars[CLS_AV_BY] = (int64_t)by;
        } else {
            e.vars[CLS_AV_BX] = (int64_t)hx;
            e.vars[CLS_AV_BY] = (int64_t)hy;
        }
        e.vars[CLS_AV_BZ] = (int64_t)hz;
        e.check_ch = !r->ch_skew_skipped && L < r->n_blk_to_check;
        e.filling = 0;
        for (size_t b = 0; b < a->n_buffers; b++) {
            t_clear(&e.tab[b]);
            e.tab[b].episode = 0;
        }
        if (e.cached) { /* reuse within a work-group only, as a buffer has */
            l1_clear(&e.l1);
            l1_clear(&e.l1s);
        }
        e.wg = L + 1;
        memset(e.masks, 1, e.threads);
        walk(&e, a->body_first, a->body_n, 0, a->block);
    }
    if (e.st != CLS_SUCCESS) goto done;
    r->n_warp = nblocks * e.nwarps;
    finish(&e, r);
done:
    for (size_t b = 0; b < a->n_buffers; b++) t_free(&e.tab[b]);
    memo_free(&e.banks);
    free(e.masks);
    free(e.tc);
    free(e.sorted);
    free(e.laddr);
    free(e.inst);
    free(e.ch_count);
    free(e.ch_mark);
    free(e.ch_list);
    free(e.l1.keys);
    free(e.l1.slots);
    free(e.l1s.keys);
    free(e.l1s.slots);
    for (size_t i = 0; i < CLS_ACC_MAX_ARRAYS; i++) free(e.last[i]);
    free(e.maddr);
    r->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    return e.st;
}

cls_cumapz_term cls_cumapz_bottleneck(const cls_cumapz_result *r, double *efficiency)
{
    double occ = r->occupancy_pct < 50 ? r->occupancy_pct / 50.0 : 1.0;
    double terms[] = {r->data_reuse, occ, r->bw_util, 1.0 / r->ch_skew, sqrt(r->shm_eff),
                      r->branch_eff};
    static const cls_cumapz_term ids[] = {CLS_CUMAPZ_DATA_REUSE, CLS_CUMAPZ_OCCUPANCY,
                                          CLS_CUMAPZ_BW_UTIL,    CLS_CUMAPZ_CH_SKEW,
                                          CLS_CUMAPZ_SHM_EFF,    CLS_CUMAPZ_BRANCH_EFF};
    cls_cumapz_term best = CLS_CUMAPZ_NONE;
    double low = 0.999;
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
        if (terms[i] < low) {
            low = terms[i];
            best = ids[i];
        }
    }
    if (efficiency) *efficiency = best == CLS_CUMAPZ_NONE ? 1.0 : low;
    return best;
}

const char *cls_cumapz_term_name(cls_cumapz_term t)
{
    switch (t) {
    case CLS_CUMAPZ_DATA_REUSE: return "data_reuse";
    case CLS_CUMAPZ_OCCUPANCY: return "occupancy";
    case CLS_CUMAPZ_BW_UTIL: return "bw_util";
    case CLS_CUMAPZ_CH_SKEW: return "ch_skew";
    case CLS_CUMAPZ_SHM_EFF: return "shm_eff";
    case CLS_CUMAPZ_BRANCH_EFF: return "branch_eff";
    default: return "none";
    }
}

double cls_cumapz_pearson(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    if (n < 2) return NAN;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (sxx <= 0 || syy <= 0) return NAN;
    return sxy / sqrt(sxx * syy);
}
