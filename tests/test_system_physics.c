/* test_system_physics.c: the built-in systems against physics, not against the host
 * reference (tests/test_system does that), through the public API on the AUTO schedule:
 *  - wave2d, wave3d: a standing wave against the analytic solution on three refinements at a
 *    fixed Courant number, the error falling at the scheme's order (2);
 *  - acoustic3d_r4: the same falls at order >= 2 (leapfrog in time limits it), and its error
 *    against leapfrog with the exact Laplacian falls at its space order (8);
 *  - fdtd2d, fdtd3d: the discrete energy that Yee's scheme conserves stays constant;
 *  - gray_scott: from the documented seeding a pattern of spots forms and u, v stay in [0, 1].
 * Each check also runs on a broken variant of its scheme and must reject it, so that none of
 * them passes whatever the library computes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clstencil.h"
#include "tap.h"

static const double two_pi = 6.283185307179586;
static const double pi = 3.141592653589793;

/* ---------------------------------------------------------------------------- running */

/* A system's fields held in double on the host, advanced on the device in the stencil's
 * dtype through a state. */
typedef struct sim {
    cls_plan *plan;
    cls_state *state;
    size_t n, nf, elem;
    double *f[16];
    void *buf;
} sim;

static void sim_free(sim *s)
{
    cls_state_release(s->state);
    cls_plan_release(s->plan);
    for (size_t k = 0; k < 16; k++) free(s->f[k]);
    free(s->buf);
    memset(s, 0, sizeof *s);
}

/* Plans the stencil on the grid (AUTO) and allocates the host fields (zeros). */
static int sim_make(sim *s, cls_context *ctx, const cls_stencil *st, cls_dims dims,
                    size_t steps)
{
    memset(s, 0, sizeof *s);
    s->n = cls_dims_points(dims);
    s->nf = cls_stencil_num_fields(st);
    s->elem = cls_dtype_size(cls_stencil_dtype(st));
    if (s->nf > 16) return 0;
    for (size_t k = 0; k < s->nf; k++)
        if (!(s->f[k] = calloc(s->n, sizeof(double)))) return 0;
    if (!(s->buf = malloc(s->n * s->elem))) return 0;
    if (cls_plan_create(ctx, st, dims, steps, NULL, &s->plan) != CLS_SUCCESS ||
        cls_state_create(s->plan, &s->state) != CLS_SUCCESS) {
        tap_diag("%s", cls_last_error());
        return 0;
    }
    return 1;
}

/* Writes the host fields to the state (step 0). */
static int sim_write(sim *s)
{
    for (size_t k = 0; k < s->nf; k++) {
        for (size_t i = 0; i < s->n; i++) {
            if (s->elem == 8) ((double *)s->buf)[i] = s->f[k][i];
            else ((float *)s->buf)[i] = (float)s->f[k][i];
        }
        if (cls_state_write_field(s->state, k, s->buf) != CLS_SUCCESS) return 0;
    }
    return 1;
}

/* Reads every field back into the host arrays. */
static int sim_read(sim *s)
{
    for (size_t k = 0; k < s->nf; k++) {
        if (cls_state_read_field(s->state, k, s->buf) != CLS_SUCCESS) return 0;
        for (size_t i = 0; i < s->n; i++)
            s->f[k][i] = s->elem == 8 ? ((double *)s->buf)[i] : (double)((float *)s->buf)[i];
    }
    return 1;
}

/* Advances the state and reads the fields back. */
static int sim_advance(sim *s, size_t steps)
{
    if (cls_plan_advance(s->plan, s->state, steps, NULL) != CLS_SUCCESS) {
        tap_diag("%s", cls_last_error());
        return 0;
    }
    return sim_read(s);
}

static cls_stencil *builtin(const char *name, cls_dtype dtype, cls_boundary b)
{
    cls_stencil *st = NULL;
    if (cls_stencil_builtin(name, &st) != CLS_SUCCESS) return NULL;
    cls_stencil_set_dtype(st, dtype);
    cls_stencil_set_boundary(st, b, 0);
    return st;
}

/* A one-stage system of field u and its time level u_prev with one update (the negative
 * controls below). */
static cls_stencil *wave_variant(const char *name, int dims, const char *body, double c2)
{
    cls_stencil *st = NULL;
    size_t g;
    if (cls_stencil_create(name, dims, CLS_FLOAT64, NULL, &st) != CLS_SUCCESS) return NULL;
    if (cls_stencil_add_field(st, "u") != CLS_SUCCESS ||
        cls_stencil_add_time_level(st, "u_prev", "u") != CLS_SUCCESS ||
        cls_stencil_set_param(st, "c2", c2) != CLS_SUCCESS ||
        cls_stencil_add_stage(st, &g) != CLS_SUCCESS ||
        cls_stencil_set_update(st, g, "u", body) != CLS_SUCCESS) {
        tap_diag("%s", cls_last_error());
        cls_stencil_release(st);
        return NULL;
    }
    return st;
}

/* ------------------------------------------------------------------------------- waves */

/* A standing wave u = prod_d sin(k_d x_d + phase_d) cos(w t), w = sqrt(sum k_d^2) (c = 1).
 * Periodic grids cover [0, 1) with h = 1/N, k_d = 2 pi; constant-0 grids are the inner points
 * of [0, 1] (x_i = (i + 1) h, h = 1/(N + 1)), where modes sin(m pi x) vanish on the edge,
 * and the constant-0 boundary is the wave's own value there. */
typedef struct wave {
    int dims;
    cls_boundary b;
    double k[3], phase[3];
} wave;

static wave wave_of(int dims, cls_boundary b)
{
    wave w = {dims, b, {0, 0, 0}, {0, 0, 0}};
    for (int d = 0; d < dims; d++) {
        if (b == CLS_BOUNDARY_PERIODIC) {
            w.k[d] = two_pi;
            w.phase[d] = 0.3 + 0.4 * d;
        } else {
            w.k[d] = (d == 1 ? 2 : 1) * pi;
        }
    }
    return w;
}

static double wave_mode(const wave *w, cls_dims dims, double h, size_t i)
{
    double v = 1;
    size_t c[3] = {i % dims.n[0], i / dims.n[0] % dims.n[1], i / dims.n[0] / dims.n[1]};
    for (int d = 0; d < w->dims; d++) {
        double x = (w->b == CLS_BOUNDARY_PERIODIC ? (double)c[d] : (double)c[d] + 1) * h;
        v *= sin(w->k[d] * x + w->phase[d]);
    }
    return v;
}

static double wave_omega(const wave *w)
{
    return sqrt(w->k[0] * w->k[0] + w->k[1] * w->k[1] + w->k[2] * w->k[2]);
}

/* Runs the wave system on an N^dims grid from the exact u(0) and u(-dt) to T = m * nu at
 * c dt = nu h, nu = sqrt(c2) (steps = m (N or N + 1)); returns the largest error against
 * amplitude(n) * mode, where amplitude(n) is cos(w n dt) (the analytic solution) or, with
 * `leapfrog_exact_space`, the amplitude of leapfrog in time with the exact Laplacian,
 * a_{n+1} = (2 - c2 (k h)^2) a_n - a_{n-1}.  Negative on failure. */
static double wave_error(cls_context *ctx, const cls_stencil *st, const wave *w, size_t n,
                         size_t m, int leapfrog_exact_space)
{
    double c2;
    if (cls_stencil_get_param(st, "c2", &c2) != CLS_SUCCESS) return -1;
    cls_dims dims = {{1, 1, 1}};
    for (int d = 0; d < w->dims; d++) dims.n[d] = n;
    size_t cells = w->b == CLS_BOUNDARY_PERIODIC ? n : n + 1;
    double h = 1.0 / (double)cells, nu = sqrt(c2), dt = nu * h, omega = wave_omega(w);
    size_t steps = m * cells;
    int iu = cls_stencil_field_index(st, "u"), ip = cls_stencil_field_index(st, "u_prev");
    sim s;
    double err = -1;
    if (iu < 0 || ip < 0 || !sim_make(&s, ctx, st, dims, steps)) goto done;
    for (size_t i = 0; i < s.n; i++) {
        double mode = wave_mode(w, dims, h, i);
        s.f[iu][i] = mode;
        s.f[ip][i] = mode * cos(omega * dt);
    }
    if (!sim_write(&s) || !sim_advance(&s, steps)) goto done;
    double amp = cos(omega * dt * (double)steps);
    if (leapfrog_exact_space) {
        double a_prev = cos(omega * dt), a = 1, kh2 = omega * omega * h * h;
        for (size_t k = 0; k < steps; k++) {
            double next = (2 - c2 * kh2) * a - a_prev;
            a_prev = a;
            a = next;
        }
        amp = a;
    }
    err = 0;
    for (size_t i = 0; i < s.n; i++) {
        double e = fabs(s.f[iu][i] - amp * wave_mode(w, dims, h, i));
        if (!(e <= err)) err = e; /* NaN propagates */
    }
done:
    sim_free(&s);
    return err;
}

/* The observed orders log2(e(N) / e(2N)) over three grids N, 2N, 4N (constant-0 grids: N
 * inner points of N + 1 cells, so the cells double); 0 when a run failed. */
static int wave_orders(cls_context *ctx, const cls_stencil *st, const wave *w, size_t n0,
                       size_t m, int exact_space, double order[2], double err[3])
{
    size_t n = n0;
    for (int r = 0; r < 3; r++) {
        err[r] = wave_error(ctx, st, w, n, m, exact_space);
        if (err[r] < 0) return 0;
        n = w->b == CLS_BOUNDARY_PERIODIC ? 2 * n : 2 * n + 1;
    }
    for (int r = 0; r < 2; r++) order[r] = log2(err[r] / err[r + 1]);
    return 1;
}

static int within(const double order[2], double lo, double hi)
{
    return order[0] >= lo && order[0] <= hi && order[1] >= lo && order[1] <= hi;
}

/* The 2nd-order schemes: leapfrog in time, the 5- or 7-point Laplacian in space, at a fixed
 * Courant number: the error against the analytic solution falls by 4 per halving of h and
 * dt. */
static void check_wave_order(cls_context *ctx, const char *name, int dims, cls_boundary b,
                             size_t n0)
{
    cls_stencil *st = builtin(name, CLS_FLOAT64, b);
    wave w = wave_of(dims, b);
    double order[2], err[3];
    int ok = st && wave_orders(ctx, st, &w, n0, 1, 0, order, err);
    tap_ok(ok && within(order, 1.8, 2.2),
           "%s %s: error against the standing wave falls at order 2 (%.3g %.3g %.3g: orders "
           "%.3f %.3f)",
           name, cls_boundary_name(b), ok ? err[0] : 0, ok ? err[1] : 0, ok ? err[2] : 0,
           ok ? order[0] : 0, ok ? order[1] : 0);
    cls_stencil_release(st);
}

/* The check must reject a scheme that is not the wave equation's: the Laplacian's centre
 * with the wrong sign (unstable), or a wave speed off by 4 % (c2 = 0.27 while the analytic
 * solution moves at c dt / h = 0.5; it converges to the wrong wave, order 0). */
static void check_wave_negative(cls_context *ctx)
{
    static const char *const bodies[] = {
        "2 * IN(u, 0, 0) - IN(u_prev, 0, 0) + c2 * (IN(u, 1, 0) + IN(u, -1, 0) + IN(u, 0, 1) + "
        "IN(u, 0, -1) + 4 * IN(u, 0, 0))",
        "2 * IN(u, 0, 0) - IN(u_prev, 0, 0) + 0.27 * (IN(u, 1, 0) + IN(u, -1, 0) + IN(u, 0, 1) + "
        "IN(u, 0, -1) - 4 * IN(u, 0, 0))"};
    static const char *const what[] = {"the Laplacian's centre with the wrong sign",
                                       "a wave speed 4 % off"};
    for (size_t v = 0; v < 2; v++) {
        cls_stencil *st = wave_variant("wave2d_broken", 2, bodies[v], 0.25);
        if (st) cls_stencil_set_boundary(st, CLS_BOUNDARY_PERIODIC, 0);
        wave w = wave_of(2, CLS_BOUNDARY_PERIODIC);
        double order[2] = {0, 0}, err[3] = {0, 0, 0};
        int ran = st && wave_orders(ctx, st, &w, 16, 1, 0, order, err);
        tap_ok(ran && !within(order, 1.8, 2.2),
               "the order check rejects %s (%.3g %.3g %.3g: orders %.3f %.3f)", what[v], err[0],
               err[1], err[2], order[0], order[1]);
        cls_stencil_release(st);
    }
}

/* acoustic3d_r4 is 8th order in space but leapfrog (2nd order) in time.  At a fixed Courant
 * number dt shrinks with h, so the error against the analytic solution is the time error's:
 * it falls at order 2 (the space error, (k h)^8 / 3150 relative, is far below it).  That
 * alone would pass a 2nd-order Laplacian too, so the space order is checked separately: the
 * exact discrete solution of leapfrog with the exact Laplacian (a recurrence per mode, see
 * wave_error) differs from the scheme's only through the space operator, and that difference
 * falls at order 8. */
static void check_acoustic(cls_context *ctx)
{
    cls_stencil *st = builtin("acoustic3d_r4", CLS_FLOAT64, CLS_BOUNDARY_PERIODIC);
    wave w = wave_of(3, CLS_BOUNDARY_PERIODIC);
    double order[2], err[3];
    int ok = st && wave_orders(ctx, st, &w, 8, 1, 0, order, err);
    tap_ok(ok && order[0] >= 1.8 && order[1] >= 1.8,
           "acoustic3d_r4 periodic: error against the standing wave falls at order >= 2 "
           "(%.3g %.3g %.3g: orders %.3f %.3f)",
           ok ? err[0] : 0, ok ? err[1] : 0, ok ? err[2] : 0, ok ? order[0] : 0,
           ok ? order[1] : 0);
    ok = st && wave_orders(ctx, st, &w, 8, 1, 1, order, err);
    tap_ok(ok && within(order, 7, 9),
           "acoustic3d_r4 periodic: error against leapfrog with the exact Laplacian falls at "
           "order 8 (%.3g %.3g %.3g: orders %.3f %.3f)",
           ok ? err[0] : 0, ok ? err[1] : 0, ok ? err[2] : 0, ok ? order[0] : 0,
           ok ? order[1] : 0);
    cls_stencil_release(st);
    /* the 2nd-order Laplacian of wave3d at acoustic3d_r4's Courant number fails the space
     * check */
    st = builtin("wave3d", CLS_FLOAT64, CLS_BOUNDARY_PERIODIC);
    if (st) cls_stencil_set_param(st, "c2", 0.1);
    ok = st && wave_orders(ctx, st, &w, 8, 1, 1, order, err);
    tap_ok(ok && !within(order, 7, 9),
           "the space-order check rejects a 2nd-order Laplacian (orders %.3f %.3f)",
           ok ? order[0] : 0, ok ? order[1] : 0);
    cls_stencil_release(st);
}

/* -------------------------------------------------------------------------------- FDTD */

/* Field f at point (x, y, z) + offset, by the boundary rule (periodic or constant 0). */
static double at(const double *f, cls_dims d, cls_boundary b, long x, long y, long z)
{
    long n[3] = {(long)d.n[0], (long)d.n[1], (long)d.n[2]}, c[3] = {x, y, z};
    for (int k = 0; k < 3; k++) {
        if (c[k] >= 0 && c[k] < n[k]) continue;
        if (b != CLS_BOUNDARY_PERIODIC) return 0;
        c[k] = (c[k] + n[k]) % n[k];
    }
    return f[c[0] + n[0] * (c[1] + n[1] * c[2])];
}

/* Yee's scheme in the form H^{n+1/2} = H^{n-1/2} - S C E^n, E^{n+1} = E^n + S C^T H^{n+1/2},
 * C the curl with forward differences; with periodic or zero (PEC) boundaries the backward
 * differences of the E update are exactly -C^T.  It conserves
 *     W^n = |E^n|^2 + <H^{n-1/2}, H^{n+1/2}> = |E^n|^2 + |H^{n-1/2}|^2 - S <H^{n-1/2}, C E^n>
 * (W^{n+1} - W^n = S <C (E^{n+1} + E^n), H^{n+1/2}> - S <H^{n+1/2}, C (E^{n+1} + E^n)> = 0),
 * positive for S below the Courant limit.  After n steps the state holds E^n and H^{n-1/2}.
 * Fields: Ex, Ey, Hz in 2D; Ex, Ey, Ez, Hx, Hy, Hz in 3D (the built-ins' order). */
static double fdtd_energy(const sim *s, cls_dims d, int dims, cls_boundary b, double S)
{
    long nx = (long)d.n[0], ny = (long)d.n[1], nz = (long)d.n[2];
    long double w = 0;
    for (long z = 0; z < nz; z++)
        for (long y = 0; y < ny; y++)
            for (long x = 0; x < nx; x++) {
                size_t i = (size_t)(x + nx * (y + ny * z));
                if (dims == 2) {
                    const double *ex = s->f[0], *ey = s->f[1], *hz = s->f[2];
                    double ce = (at(ey, d, b, x + 1, y, z) - ey[i]) -
                                (at(ex, d, b, x, y + 1, z) - ex[i]);
                    w += (long double)ex[i] * ex[i] + (long double)ey[i] * ey[i] +
                         (long double)hz[i] * hz[i] - (long double)S * hz[i] * ce;
                } else {
                    const double *ex = s->f[0], *ey = s->f[1], *ez = s->f[2];
                    const double *hx = s->f[3], *hy = s->f[4], *hz = s->f[5];
                    double cx = (at(ez, d, b, x, y + 1, z) - ez[i]) -
                                (at(ey, d, b, x, y, z + 1) - ey[i]);
                    double cy = (at(ex, d, b, x, y, z + 1) - ex[i]) -
                                (at(ez, d, b, x + 1, y, z) - ez[i]);
                    double cz = (at(ey, d, b, x + 1, y, z) - ey[i]) -
                                (at(ex, d, b, x, y + 1, z) - ex[i]);
                    for (int k = 0; k < 6; k++) w += (long double)s->f[k][i] * s->f[k][i];
                    w -= (long double)S * ((long double)hx[i] * cx + (long double)hy[i] * cy +
                                           (long double)hz[i] * cz);
                }
            }
    return (double)w;
}

static double noise(size_t i, size_t f)
{
    unsigned long long z =
        (unsigned long long)i * 0x9e3779b97f4a7c15ULL + (f + 1) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

/* The largest relative change of W over `rounds` x `chunk` steps from random fields;
 * negative on failure. */
static double fdtd_drift(cls_context *ctx, const cls_stencil *st, cls_dims d, size_t rounds,
                         size_t chunk)
{
    int dims = cls_stencil_dims(st);
    double S;
    if (cls_stencil_get_param(st, "S", &S) != CLS_SUCCESS) return -1;
    cls_boundary b = cls_stencil_boundary(st);
    sim s;
    double drift = -1;
    if (!sim_make(&s, ctx, st, d, chunk)) goto done;
    for (size_t k = 0; k < s.nf; k++)
        for (size_t i = 0; i < s.n; i++) s.f[k][i] = noise(i, k);
    if (!sim_write(&s) || !sim_read(&s)) goto done; /* W of the values as rounded */
    double w0 = fdtd_energy(&s, d, dims, b, S);
    drift = 0;
    for (size_t r = 0; r < rounds; r++) {
        if (!sim_advance(&s, chunk)) {
            drift = -1;
            goto done;
        }
        double rel = fabs(fdtd_energy(&s, d, dims, b, S) - w0) / w0;
        if (!(rel <= drift)) drift = rel;
    }
done:
    sim_free(&s);
    return drift;
}

static void check_fdtd(cls_context *ctx, int has_double)
{
    static const char *const names[] = {"fdtd2d", "fdtd3d"};
    static const cls_boundary bounds[] = {CLS_BOUNDARY_PERIODIC, CLS_BOUNDARY_CONSTANT};
    for (int n = 0; n < 2; n++)
        for (int dt = 0; dt < 2; dt++)
            for (int bi = 0; bi < 2; bi++) {
                if (dt && !has_double) {
                    tap_skip(names[n], "no double precision");
                    continue;
                }
                cls_stencil *st = builtin(names[n], dt ? CLS_FLOAT64 : CLS_FLOAT32, bounds[bi]);
                cls_dims d = n ? (cls_dims){{18, 15, 13}} : (cls_dims){{53, 41, 1}};
                double tol = dt ? 1e-12 : 1e-5;
                double drift = st ? fdtd_drift(ctx, st, d, 8, n ? 100 : 250) : -1;
                tap_ok(drift >= 0 && drift <= tol,
                       "%s %s %s: the discrete energy stays constant over %d steps (relative "
                       "drift %.3g, at most %g)",
                       names[n], dt ? "double" : "float", cls_boundary_name(bounds[bi]),
                       n ? 800 : 2000, drift, tol);
                cls_stencil_release(st);
            }
    /* an E update reading H on the wrong side breaks the conservation */
    cls_stencil *st = NULL;
    size_t g0, g1;
    int made = cls_stencil_create("fdtd2d_broken", 2, CLS_FLOAT64, NULL, &st) == CLS_SUCCESS &&
               cls_stencil_add_field(st, "Ex") == CLS_SUCCESS &&
               cls_stencil_add_field(st, "Ey") == CLS_SUCCESS &&
               cls_stencil_add_field(st, "Hz") == CLS_SUCCESS &&
               cls_stencil_set_param(st, "S", 0.5) == CLS_SUCCESS &&
               cls_stencil_add_stage(st, &g0) == CLS_SUCCESS &&
               cls_stencil_set_update(st, g0, "Hz",
                                      "IN(Hz, 0, 0) - S * ((IN(Ey, 1, 0) - IN(Ey, 0, 0)) - "
                                      "(IN(Ex, 0, 1) - IN(Ex, 0, 0)))") == CLS_SUCCESS &&
               cls_stencil_add_stage(st, &g1) == CLS_SUCCESS &&
               cls_stencil_set_update(st, g1, "Ex",
                                      "IN(Ex, 0, 0) + S * (IN(Hz, 0, 1) - IN(Hz, 0, 0))") ==
                   CLS_SUCCESS &&
               cls_stencil_set_update(st, g1, "Ey",
                                      "IN(Ey, 0, 0) - S * (IN(Hz, 0, 0) - IN(Hz, -1, 0))") ==
                   CLS_SUCCESS &&
               cls_stencil_set_boundary(st, CLS_BOUNDARY_PERIODIC, 0) == CLS_SUCCESS;
    double drift = made && has_double ? fdtd_drift(ctx, st, (cls_dims){{53, 41, 1}}, 8, 250) : -1;
    if (!has_double)
        tap_skip("the energy check rejects a broken E update", "no double precision");
    else
        tap_ok(made && drift != -1 && !(drift <= 1e-12), /* NaN: it blew up */
               "the energy check rejects an E update with H's difference on the wrong side "
               "(relative drift %.3g)",
               drift);
    cls_stencil_release(st);
}

/* --------------------------------------------------------------------------- Gray-Scott */

/* The documented seeding (doc/stencils.md): u = 1, v = 0 with a small square of u = 0.5,
 * v = 0.25; here 20 x 20 points (Pearson's square) in the centre of a 128^2 periodic grid.
 * After 6000 steps the spots have multiplied (v's variance about 0.0066 and v > 0.1 on
 * about 11 % of the grid, in a double-precision C loop; the seed alone: 0.0015 and 2.4 %):
 * the variance is above 0.004, the spots cover over three times the seed's area but not the
 * whole grid, and u, v stay in [0, 1] at every checkpoint.  With the kill rate raised past
 * the spot regime (k = 0.075) the seed dies instead. */
typedef struct gs_result {
    int ran, bounded;
    double var, cover; /* v's variance; the fraction of points with v > 0.1 */
} gs_result;

static gs_result gray_scott(cls_context *ctx, cls_dtype dtype, double k)
{
    enum { N = 128, SEED = 20, ROUNDS = 12, CHUNK = 500 };
    gs_result r = {0, 1, 0, 0};
    cls_stencil *st = builtin("gray_scott", dtype, CLS_BOUNDARY_PERIODIC);
    cls_dims d = {{N, N, 1}};
    sim s;
    memset(&s, 0, sizeof s);
    if (!st || cls_stencil_set_param(st, "k", k) != CLS_SUCCESS ||
        !sim_make(&s, ctx, st, d, CHUNK))
        goto done;
    for (size_t i = 0; i < s.n; i++) {
        size_t x = i % N, y = i / N;
        int in = x >= (N - SEED) / 2 && x < (N + SEED) / 2 && y >= (N - SEED) / 2 &&
                 y < (N + SEED) / 2;
        s.f[0][i] = in ? 0.5 : 1;
        s.f[1][i] = in ? 0.25 : 0;
    }
    if (!sim_write(&s)) goto done;
    for (int round = 0; round < ROUNDS; round++) {
        if (!sim_advance(&s, CHUNK)) goto done;
        for (size_t f = 0; f < 2; f++)
            for (size_t i = 0; i < s.n; i++)
                if (!(s.f[f][i] >= 0 && s.f[f][i] <= 1)) r.bounded = 0;
    }
    double sum = 0, sq = 0, over = 0;
    for (size_t i = 0; i < s.n; i++) {
        sum += s.f[1][i];
        sq += s.f[1][i] * s.f[1][i];
        over += s.f[1][i] > 0.1;
    }
    r.var = sq / (double)s.n - (sum / (double)s.n) * (sum / (double)s.n);
    r.cover = over / (double)s.n;
    r.ran = 1;
done:
    sim_free(&s);
    cls_stencil_release(st);
    return r;
}

static void check_gray_scott(cls_context *ctx, int has_double)
{
    double seed_area = 400.0 / (128.0 * 128.0);
    for (int dt = 0; dt < 2; dt++) {
        if (dt && !has_double) {
            tap_skip("gray_scott double", "no double precision");
            continue;
        }
        double k;
        cls_stencil *st = builtin("gray_scott", CLS_FLOAT32, CLS_BOUNDARY_PERIODIC);
        int got = st && cls_stencil_get_param(st, "k", &k) == CLS_SUCCESS;
        cls_stencil_release(st);
        gs_result r = gray_scott(ctx, dt ? CLS_FLOAT64 : CLS_FLOAT32, got ? k : 0.065);
        const char *t = dt ? "double" : "float";
        tap_ok(r.ran && r.var > 4e-3 && r.cover > 3 * seed_area && r.cover < 0.9,
               "gray_scott %s: a pattern forms from the seed (v's variance %.3g, v > 0.1 on "
               "%.1f %% of the grid, the seed %.1f %%)",
               t, r.var, 100 * r.cover, 100 * seed_area);
        tap_ok(r.ran && r.bounded, "gray_scott %s: u and v stay in [0, 1]", t);
        if (dt) {
            gs_result dead = gray_scott(ctx, CLS_FLOAT64, 0.075);
            tap_ok(dead.ran && !(dead.var > 4e-3 && dead.cover > 3 * seed_area),
                   "the pattern check rejects a kill rate past the spot regime (v's variance "
                   "%.3g, cover %.1f %%)",
                   dead.var, 100 * dead.cover);
        }
    }
}

int main(void)
{
    cls_context *ctx = NULL;
    if (cls_context_create(NULL, &ctx) != CLS_SUCCESS) {
        tap_skip("physics of the built-in systems", "no OpenCL device");
        return tap_done();
    }
    cls_device_info info;
    cls_context_device(ctx, &info);
    if (info.double_support) {
        check_wave_order(ctx, "wave2d", 2, CLS_BOUNDARY_PERIODIC, 16);
        check_wave_order(ctx, "wave2d", 2, CLS_BOUNDARY_CONSTANT, 15);
        check_wave_order(ctx, "wave3d", 3, CLS_BOUNDARY_PERIODIC, 8);
        check_wave_order(ctx, "wave3d", 3, CLS_BOUNDARY_CONSTANT, 7);
        check_wave_negative(ctx);
        check_acoustic(ctx);
    } else {
        tap_skip("the wave systems' orders of convergence", "no double precision");
    }
    check_fdtd(ctx, info.double_support);
    check_gray_scott(ctx, info.double_support);
    cls_context_release(ctx);
    return tap_done();
}
