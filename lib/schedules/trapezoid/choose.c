/* choose.c: the ghost-zone model (Meng & Skadron 2010) applied to the trapezoid schedule: the
 * model's inputs from a device model and a profile, the tile, sync mode and h that it predicts
 * fastest, and the predicted run times of trapezoid configurations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil_model.h"
#include "planner.h"

void cls__profile_shape(const cls_stencil *st, cls_ghost_profile *gp)
{
    int halo[3];
    size_t per_step = 0;
    const int sys = cls__stencil_is_system(st);
    /* A step's reach: the halo, or for a system the sum of its stages' radii. */
    cls__stencil_step_reach(st, halo);
    gp->dims = st->dims;
    /* HaloWidth is "the length of the stencil minus one" (Sect. 4.1): both sides' reach. */
    for (int i = 0; i < 3; i++) gp->halo_width[i] = i < st->dims ? 2 * halo[i] : 0;
    for (size_t k = 0; k < st->n_aux; k++) per_step += st->aux[k].per_step != 0;
    /* A system: every field's tile is loaded and committed (time levels too), and each stage
     * sweeps the tile with its own reach. */
    gp->num_fields = sys ? (double)st->n_fields : 1.0;
    gp->num_stages = sys ? (int)st->n_stages : 1;
    memset(gp->stage_halo_width, 0, sizeof gp->stage_halo_width);
    for (size_t g = 0; sys && g < st->n_stages && g < 16; g++) {
        int r[3] = {0, 0, 0};
        cls__system_stage_reach(st, g, r);
        for (int i = 0; i < st->dims; i++) gp->stage_halo_width[g][i] = 2 * r[i];
    }
    /* The fields and every auxiliary array read at each step are loaded once per stage (the
     * kernel reads those from global memory, where the tile's part stays cached: Eq. 8);
     * per-step arrays bring a new slice at every step (NumElemPerOp, Eq. 10). */
    gp->num_stencil_arrays = gp->num_fields + (double)(st->n_aux - per_step);
    gp->num_elem_per_op = (double)per_step;
    gp->bank_conflict_rate = 0;
    gp->elem_bytes = (double)cls_dtype_size(st->dtype);
}

cls_status cls__gz_inputs(const cls_model *m, const cls_ghost_profile *gp, unsigned flags,
                          cls_sync sync, double groups, cls_gz_device *d, cls_gz_profile *p,
                          cls_gz_sync *sync_out)
{
    double bw = 0;
    unsigned from = 0;
    cls_status s;
    if (cls_model_get(m, "memory.bandwidth_measured_gbs", &bw) == CLS_SUCCESS && bw > 0)
        from = CLS_GZ_BW_MEASURED;
    if ((s = cls_gz_device_from_model(m, from, d)) != CLS_SUCCESS) return s;
    memset(p, 0, sizeof *p);
    p->name = gp->source;
    p->D = gp->dims;
    for (int i = 0; i < CLS_GZ_MAX_DIMS; i++) p->HaloWidth[i] = gp->halo_width[i];
    p->NumStencilArrays = gp->num_stencil_arrays;
    p->NumElemPerOp = gp->num_elem_per_op;
    p->N = gp->n;
    p->InstsPerSM_MC = gp->insts_per_sm_mc;
    p->InstsPerSM_IC = gp->insts_per_sm_ic;
    p->BankConflictRate = gp->bank_conflict_rate;
    p->x = gp->elem_bytes;
    /* A system of fields (its stages' widths add up to halo_width). */
    p->NumFields = gp->num_fields;
    p->NumStages = gp->num_stages >= 2 && gp->num_stages <= CLS_GZ_MAX_STAGES ? gp->num_stages
                                                                              : 0;
    for (int g = 0; g < p->NumStages; g++) {
        for (int i = 0; i < CLS_GZ_MAX_DIMS; i++)
            p->StageHaloWidth[g][i] = gp->stage_halo_width[g][i];
        p->StageInstsPerSM_IC[g] = gp->stage_insts_per_sm_ic[g];
    }
    /* A measured tile-load efficiency replaces the document's alpha = sigma^(D-1) (Sect. 4.2,
     * fitted to the GTX 280): MemCycles (Eq. 7) then charges alpha x n x x / MemBandwidth. */
    if (gp->alpha > 0) {
        d->sigma = 1;
        d->MemBandwidth /= gp->alpha;
    }
    *sync_out = sync == CLS_SYNC_BARRIER ? CLS_GZ_MEM_FENCE : CLS_GZ_KNL_RESTART;
    if ((flags & CLS_GHOST_EXECUTOR) && sync == CLS_SYNC_BARRIER) {
        /* The persistent executor: G resident groups loop over the T tiles of a stage, so every
         * trapezoid still pays MiscComp (the restart formulas' CPT), ConcurBlks = G (Eq. 5),
         * and the barrier of Eq. 18 counts the G groups that meet at it. */
        double G = groups > 0 ? groups : d->M;
        d->GlbSync_KnlRestart = d->mu * d->BarrierPerBlk * G;
        d->BlksPerSM = G / d->M;
        if (gp->insts_per_sm_mc_persistent > 0) p->InstsPerSM_MC = gp->insts_per_sm_mc_persistent;
        if (gp->insts_per_sm_ic_persistent > 0) {
            /* The stages of a system in the proportions the restart kernel measured them. */
            for (int g = 0; g < p->NumStages && gp->insts_per_sm_ic > 0; g++)
                p->StageInstsPerSM_IC[g] *= gp->insts_per_sm_ic_persistent / gp->insts_per_sm_ic;
            p->InstsPerSM_IC = gp->insts_per_sm_ic_persistent;
        }
        *sync_out = CLS_GZ_KNL_RESTART;
    }
    return cls_gz_check(d, p, NULL);
}

void cls__gz_config(const cls_ghost_profile *gp, cls_dims dims, const size_t tile[3], double h,
                    cls_gz_sync sync, cls_gz_config *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < CLS_GZ_MAX_DIMS; i++) {
        c->DataLength[i] = i < gp->dims ? (double)dims.n[i] : 1;
        c->blk_len[i] = i < gp->dims ? (int)tile[i] : 1;
    }
    c->h = h;
    c->sync = sync;
}

double cls__run_cycles(const cls_model *m, const cls_gz_device *d, const cls_gz_profile *p,
                       const cls_gz_config *c, size_t steps, cls_sync sync)
{
    double restart = 0;
    if (!steps) return 0;
    /* floor(steps / h) stages of CPS (Eq. 2) and a shorter last one; the persistent executor
     * also pays its one launch (Eq. 17), which barriers replace only between its stages. */
    double cyc = cls_gz_run_cycles(d, p, c, (long)steps);
    if (sync == CLS_SYNC_BARRIER && cls_model_get(m, "sync.kernel_restart_cycles", &restart) == 0)
        cyc += restart;
    return cyc;
}

int cls__best_run_height(const cls_model *m, const cls_gz_device *d, const cls_gz_profile *p,
                         const cls_gz_config *c, size_t steps, cls_sync sync, int hmax,
                         double *cycles)
{
    cls_gz_config k = *c;
    int best = 1;
    double fb = HUGE_VAL;
    for (int h = 1; h <= hmax && (size_t)h <= steps; h++) {
        k.h = h;
        double f = cls__run_cycles(m, d, p, &k, steps, sync);
        if (f < fb) {
            fb = f;
            best = h;
        }
    }
    if (cycles) *cycles = fb;
    return best;
}

void cls__gz_tile_occupancy(const cls_model *m, const cls_stencil *st, const size_t tile[3],
                            size_t ppi, cls_sync sync, cls_gz_device *d)
{
    cls_model_occupancy_info o;
    size_t items = tile[0] * tile[1] * tile[2] / (ppi ? ppi : 1);
    /* Eq. 5's BlksPerSM is the device's resident-group limit; a tile's own work-group and
     * local memory may allow fewer (the H100: 6-7 groups of a 4096-point PathFinder tile,
     * 33 KB each, in 228 KB; 8 of 256 work-items in 2048).  The persistent kernel's groups are
     * set by cls__gz_inputs. */
    if (sync != CLS_SYNC_BARRIER &&
        cls_model_occupancy(m, items, 0, (size_t)cls__trapezoid_local_bytes(st, tile), &o) ==
            CLS_SUCCESS &&
        o.groups_per_cu > 0 && o.groups_per_cu < d->BlksPerSM)
        d->BlksPerSM = o.groups_per_cu;
    d->waves = 1;
}

/* The persistent kernel's resident groups for a stage of T tiles (exec.c): one per compute
 * unit. */
static double resident_groups_of(double cu, double T)
{
    double g = cu > 0 ? cu : 1;
    return T < g ? ceil(T) : g;
}


static double predict(const cls_model *m, const cls_stencil *st, const cls_ghost_profile *prof,
                      cls_dims dims, size_t steps, double cu, const cls__trap_config *c,
                      int waves)
{
    cls_gz_device d;
    cls_gz_profile gp;
    cls_gz_config k;
    cls_gz_sync gs;
    if (!steps) return 0;
    cls__gz_config(prof, dims, c->tile, (double)c->h, CLS_GZ_KNL_RESTART, &k);
    double T = cls_gz_T(&(cls_gz_profile){.D = prof->dims,
                                          .HaloWidth = {prof->halo_width[0], prof->halo_width[1],
                                                        prof->halo_width[2]}},
                        &k);
    if (cls__gz_inputs(m, prof, CLS_GHOST_EXECUTOR, (cls_sync)c->sync, resident_groups_of(cu, T),
                       &d, &gp, &gs) != CLS_SUCCESS)
        return 0;
    if (waves) cls__gz_tile_occupancy(m, st, c->tile, c->ppi, (cls_sync)c->sync, &d);
    k.sync = gs;
    double cyc = cls__run_cycles(m, &d, &gp, &k, steps, (cls_sync)c->sync);
    return isfinite(cyc) ? cyc / d.ClockRate : 0;
}

double cls__trapezoid_predict(const cls__facts *f, const cls_ghost_profile *prof,
                              const cls__trap_config *c)
{
    if (!f->steps || !f->model || !prof) return 0;
    return predict(f->model, f->st, prof, f->dims, f->steps, f->dev->compute_units, c, 1);
}

cls_status cls_ghost_predict_run(const cls_model *m, const cls_stencil *st,
                                 const cls_ghost_profile *p, cls_dims dims, size_t steps,
                                 const size_t tile[3], size_t points_per_item, size_t h,
                                 cls_sync sync, unsigned flags, double *seconds)
{
    double cu = 0;
    if (!m || !st || !p || !tile || !seconds)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_ghost_predict_run: NULL argument");
    *seconds = 0;
    if (sync != CLS_SYNC_RESTART && sync != CLS_SYNC_BARRIER)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_ghost_predict_run: sync must be restart or barrier");
    if (p->dims != st->dims || !steps || !h || !points_per_item)
        return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT,
                         "cls_ghost_predict_run: the profile's dims %d must be the stencil's (%d), "
                         "steps, h and points per item at least 1",
                         p->dims, st->dims);
    if (cls_model_get(m, "compute.compute_units", &cu) != CLS_SUCCESS || !(cu > 0))
        return cls__fail(NULL, CLS_ERR_INVALID_MODEL,
                         "cls_ghost_predict_run: device model '%s' has no compute units",
                         cls_model_name(m));
    cls__trap_config c = {{tile[0] ? tile[0] : 1, tile[1] ? tile[1] : 1, tile[2] ? tile[2] : 1},
                          points_per_item, h, (int)sync};
    *seconds = predict(m, st, p, dims, steps, cu, &c, (flags & CLS_GHOST_WAVES) != 0);
    if (!(*seconds > 0))
        return cls__fail(NULL, CLS_ERR_PLAN_INFEASIBLE,
                         "cls_ghost_predict_run: no prediction for this configuration (Eq. 20 "
                         "leaves no inner block, or the model lacks a parameter)");
    return CLS_SUCCESS;
}

/* "64x32" */
static void tile_text(char *buf, size_t len, const size_t t[3], int dims)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < dims && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%zu", i ? "x" : "", t[i]);
}

cls_status cls__trapezoid_choose(const cls__facts *f, const cls__trap_request *r,
                                 const cls_ghost_profile *prof, cls__trap_config *best,
                                 double *seconds, char **why_out, cls_tune_entry *table,
                                 size_t max, size_t *n)
{
    cls_context *ctx = f->ctx;
    const cls_model *m = f->model;
    const cls_stencil *st = f->st;
    size_t tiles[8][3], nt, count = 0;
    int found = 0;
    double best_s = HUGE_VAL, best_cont = 0, best_delta = 0;
    char reasons[1024] = "", why[256];
    cls_status s;
    if (n) *n = 0;
    if (why_out) *why_out = NULL;
    if (!m) return cls__fail(ctx, CLS_ERR_UNKNOWN_MODEL, "no device model for '%s'", f->dev->name);
    /* The persistent barrier where the device model allows it when the caller leaves the sync
     * mode open (CPU runtimes spin their work-group threads against each other: poisson2d
     * 16x16 on PoCL was predicted at 9.4 us a step and measured 186 us, doc/ghost-zones.md). */
    const int barrier_ok = cls__facts_model(f, "tuning.persistent_barrier") != 0;
    if (r->tile_given) {
        memcpy(tiles[0], r->tile, sizeof tiles[0]);
        nt = 1;
    } else {
        nt = cls__trapezoid_candidates(f->dev, m, st, f->dims, tiles, 8);
    }
    for (size_t t = 0; t < nt; t++) {
        size_t ppi = r->ppi ? r->ppi : cls__trapezoid_default_ppi(f->dev, m, st, tiles[t]);
        char tt[64];
        tile_text(tt, sizeof tt, tiles[t], st->dims);
        if (!cls__trapezoid_fits(f->dev, m, st, tiles[t], ppi, why, sizeof why)) {
            size_t l = strlen(reasons);
            snprintf(reasons + l, sizeof reasons - l, "%s%s: %s", l ? "; " : "", tt, why);
            continue;
        }
        for (int mode = CLS_SYNC_RESTART; mode <= CLS_SYNC_BARRIER; mode++) {
            cls_gz_device d;
            cls_gz_profile gp;
            cls_gz_config c;
            cls_gz_sync gs;
            cls_gz_opt o;
            double T;
            size_t h;
            if (r->sync && r->sync != mode) continue;
            if (!r->sync && mode == CLS_SYNC_BARRIER && !barrier_ok) continue;
            cls__gz_config(prof, f->dims, tiles[t], 1, CLS_GZ_KNL_RESTART, &c);
            /* The resident groups depend on T, which depends on h: take those of h = 1 (the
             * persistent kernel launches min(compute units, T) groups; T >= compute units on
             * any grid worth a barrier). */
            cls_gz_profile shape = {.D = prof->dims};
            for (int i = 0; i < 3; i++) shape.HaloWidth[i] = prof->halo_width[i];
            T = cls_gz_T(&shape, &c);
            s = cls__gz_inputs(m, prof, CLS_GHOST_EXECUTOR, (cls_sync)mode,
                               resident_groups_of(f->dev->compute_units, T), &d, &gp, &gs);
            if (s != CLS_SUCCESS)
                return cls__fail(ctx, s, "trapezoid model for '%s' on '%s': %s", st->name,
                                 f->dev->name, cls_last_error());
            cls__gz_tile_occupancy(m, st, tiles[t], ppi, (cls_sync)mode, &d);
            c.sync = gs;
            if (r->h) {
                h = r->h;
                if (f->steps && h > f->steps) h = f->steps;
                c.h = (double)h;
                if (!cls_gz_feasible(&gp, &c)) {
                    size_t l = strlen(reasons);
                    snprintf(reasons + l, sizeof reasons - l,
                             "%s%s: no inner block for h = %zu (Eq. 20)", l ? "; " : "", tt, h);
                    break;
                }
                o.h_cont = (double)h;
            } else {
                /* Sect. 5.4.2: the continuous optimum of CPL (convex in h), then the better
                 * integer neighbour; h never exceeds the steps.  For a run of S steps the
                 * stages are whole: the integer h of least predicted run time (which is that
                 * neighbour when h divides S), e.g. 64 rather than 51 for 64 steps. */
                s = cls_gz_optimize_h(&d, &gp, &c, f->steps ? (int)f->steps : 0, &o);
                if (s == CLS_ERR_PLAN_INFEASIBLE) break;
                if (s != CLS_SUCCESS)
                    return cls__fail(ctx, s, "trapezoid model for '%s': %s", st->name,
                                     cls_last_error());
                h = f->steps ? (size_t)cls__best_run_height(m, &d, &gp, &c, f->steps,
                                                             (cls_sync)mode, o.h_max, NULL)
                             : (size_t)o.h;
                c.h = (double)h;
            }
            double cyc = cls__run_cycles(m, &d, &gp, &c, f->steps, (cls_sync)mode);
            double sec = cyc / d.ClockRate;
            if (table && count < max) {
                cls_tune_entry *e = &table[count];
                memset(e, 0, sizeof *e);
                e->schedule = CLS_SCHEDULE_TRAPEZOID;
                memcpy(e->tile, tiles[t], sizeof e->tile);
                memcpy(e->local_size, tiles[t], sizeof e->local_size);
                e->local_size[st->dims - 1] /= ppi;
                e->points_per_item = ppi;
                e->h = h;
                e->sync = (cls_sync)mode;
                e->predicted_seconds = sec;
            }
            count++;
            if (!found || sec < best_s) {
                cls_gz_device dd;
                cls_gz_profile dp;
                cls_gz_sync ds;
                found = 1;
                best_s = sec;
                best_cont = o.h_cont;
                memcpy(best->tile, tiles[t], sizeof best->tile);
                best->ppi = ppi;
                best->h = h;
                best->sync = mode;
                /* Eq. 23 as the document defines it (its executor), for the report. */
                if (cls__gz_inputs(m, prof, CLS_GHOST_DOCUMENT, CLS_SYNC_RESTART, 0, &dd, &dp,
                                   &ds) == CLS_SUCCESS)
                    best_delta = cls_gz_delta(&dd, &dp, &c);
            }
        }
    }
    if (n) *n = count < max ? count : max;
    if (!found)
        return cls__fail(ctx, CLS_ERR_PLAN_INFEASIBLE,
                         "trapezoid: no tile fits '%s' for stencil '%s'%s%s", f->dev->name,
                         st->name, reasons[0] ? ": " : "", reasons);
    if (why_out) {
        char tt[64];
        size_t len = 0, cap = 0;
        tile_text(tt, sizeof tt, best->tile, st->dims);
        if (cls__appendf(why_out, &len, &cap,
                         "ghost-zone model (Meng & Skadron 2010 Eqs. 1-18, device model '%s'): "
                         "tile %s, h %zu (continuous optimum %.2f), %s sync (predicted fastest "
                         "for this executor; Eq. 23's delta %.1f would say %s), %zu point%s per "
                         "work-item; predicted %.6g s",
                         cls_model_name(m), tt, best->h, best_cont,
                         best->sync == CLS_SYNC_BARRIER ? "barrier" : "restart", best_delta,
                         best_delta >= 0 ? "restart" : "barrier", best->ppi,
                         best->ppi == 1 ? "" : "s", best_s) != 0 ||
            (cls__stencil_is_system(st) &&
             cls__appendf(why_out, &len, &cap,
                          " (a system of %zu fields in %zu stage%s: every field loaded and "
                          "committed, Eqs. 8-9, each stage priced by Eq. 16, the ghost zone "
                          "growing by the stages' summed reach, Eqs. 3 and 20)",
                          st->n_fields, st->n_stages, st->n_stages == 1 ? "" : "s") != 0))
            return cls__fail(ctx, CLS_ERR_OUT_OF_HOST_MEMORY, "trapezoid: why");
    }
    if (seconds) *seconds = best_s;
    return CLS_SUCCESS;
}
