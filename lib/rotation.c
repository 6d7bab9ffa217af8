/* rotation.c: which buffer holds each field of a system while its steps run: updates write
 * free buffers, time levels take their sources' buffers, and no field is ever copied. */
#include <string.h>

#include "internal.h"

/* Whether field f is the source of some time level (its start-of-step buffer must survive the
 * step). */
static int feeds_time_level(const cls_stencil *st, size_t f)
{
    for (size_t g = 0; g < st->n_fields; g++)
        if (cls__stencil_previous(st, g) == (int)f) return 1;
    return 0;
}

static int busy(const cls__rotation *r, const cls_stencil *st, int b, size_t *count)
{
    int hit = 0;
    for (size_t f = 0; f < r->n_fields; f++) {
        if (r->at[f] == b || r->out[f] == b) hit = 1;
        if (r->start[f] == b && cls__stencil_is_system(st) && feeds_time_level(st, f)) hit = 1;
    }
    if (count) {
        *count = 0;
        for (int c = 0; c < CLS__MAX_BUFS; c++) {
            int h = 0;
            for (size_t f = 0; f < r->n_fields; f++)
                if (r->at[f] == c || r->out[f] == c ||
                    (r->start[f] == c && cls__stencil_is_system(st) && feeds_time_level(st, f)))
                    h = 1;
            *count += (size_t)h;
        }
    }
    return hit;
}

void cls__rotation_step_begin(cls__rotation *r)
{
    memcpy(r->start, r->at, sizeof r->start);
}

void cls__rotation_stage_begin(cls__rotation *r, const cls_stencil *st, size_t stage)
{
    cls__rotation_stage_begin_in_place(r, st, stage, 0);
}

/* A field updated in place writes a buffer the stage reads (its own, or its oldest time
 * level's: cls__system_in_place_into), so it takes no free buffer and the busy count stays
 * within the out-of-place one that n_bufs bounds. */
void cls__rotation_stage_begin_in_place(cls__rotation *r, const cls_stencil *st, size_t stage,
                                        unsigned in_place)
{
    for (size_t f = 0; f < CLS__MAX_FIELDS; f++) r->out[f] = -1;
    size_t n = cls__stencil_is_system(st) ? st->stages[stage].n : 1;
    for (size_t k = 0; k < n; k++) {
        int f = cls__stencil_is_system(st) ? st->stages[stage].update[k].field : 0;
        int into = (in_place >> f & 1u) ? cls__system_in_place_into(st, (size_t)f) : -1;
        if (into >= 0 && r->at[into] >= r->reserved) {
            r->out[f] = r->at[into];
            continue;
        }
        int b = r->reserved;
        while (b < CLS__MAX_BUFS - 1 && busy(r, st, b, NULL)) b++;
        r->out[f] = b;
    }
}

void cls__rotation_stage_end(cls__rotation *r)
{
    for (size_t f = 0; f < r->n_fields; f++)
        if (r->out[f] >= 0) r->at[f] = r->out[f];
    for (size_t f = 0; f < CLS__MAX_FIELDS; f++) r->out[f] = -1;
}

void cls__rotation_step_end(cls__rotation *r, const cls_stencil *st)
{
    /* Every time level takes its source's start-of-step buffer; reading start[] only, the
     * order of a chain (u_prev2 <- u_prev <- u) does not matter. */
    int next[CLS__MAX_FIELDS];
    memcpy(next, r->at, sizeof next);
    for (size_t f = 0; f < r->n_fields; f++) {
        int src = cls__stencil_is_system(st) ? cls__stencil_previous(st, f) : -1;
        if (src >= 0) next[f] = r->start[src];
    }
    memcpy(r->at, next, sizeof next);
}

void cls__rotation_init(cls__rotation *r, const cls_stencil *st)
{
    memset(r, 0, sizeof *r);
    r->n_fields = cls__stencil_is_system(st) ? st->n_fields : 1;
    for (size_t f = 0; f < CLS__MAX_FIELDS; f++) {
        r->at[f] = f < r->n_fields ? (int)f : -1;
        r->start[f] = r->out[f] = -1;
    }
    /* One step, counted: the buffers in use follow the same pattern every step, and the
     * lowest free one is taken, so the most in use at an assignment, plus one, bounds every
     * index a run takes. */
    cls__rotation t = *r;
    size_t most = r->n_fields, stages = cls__stencil_is_system(st) ? st->n_stages : 1;
    cls__rotation_step_begin(&t);
    for (size_t s = 0; s < stages; s++) {
        size_t n = cls__stencil_is_system(st) ? st->stages[s].n : 1;
        for (size_t f = 0; f < CLS__MAX_FIELDS; f++) t.out[f] = -1;
        for (size_t k = 0; k < n; k++) {
            size_t count;
            busy(&t, st, -1, &count);
            if (count + 1 > most) most = count + 1;
            int f = cls__stencil_is_system(st) ? st->stages[s].update[k].field : 0;
            int b = 0;
            while (b < CLS__MAX_BUFS - 1 && busy(&t, st, b, NULL)) b++;
            t.out[f] = b;
        }
        cls__rotation_stage_end(&t);
    }
    r->n_bufs = most;
}
