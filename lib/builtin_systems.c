/* builtin_systems.c: the built-in systems of fields (doc/stencils.md gives their formulas,
 * sources and stability limits): waves second order in time, Gray-Scott reaction-diffusion
 * and Yee's FDTD. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Fields, then stages of "field=body" pairs (NULL-terminated per stage), then parameters. */
static cls_status system_of(cls_stencil *st, const char *const *fields, const char *previous,
                            const char *const *const *stages, const char *const *pnames,
                            const double *pvalues)
{
    cls_status s = CLS_SUCCESS;
    for (size_t i = 0; s == CLS_SUCCESS && fields[i]; i++) s = cls_stencil_add_field(st, fields[i]);
    if (s == CLS_SUCCESS && previous) s = cls_stencil_add_time_level(st, previous, fields[0]);
    for (size_t i = 0; s == CLS_SUCCESS && pnames && pnames[i]; i++)
        s = cls_stencil_set_param(st, pnames[i], pvalues[i]);
    for (size_t g = 0; s == CLS_SUCCESS && stages[g]; g++) {
        size_t index;
        s = cls_stencil_add_stage(st, &index);
        for (size_t k = 0; s == CLS_SUCCESS && stages[g][k]; k += 2)
            s = cls_stencil_set_update(st, index, stages[g][k], stages[g][k + 1]);
    }
    return s;
}

/* The wave equation u_tt = c^2 lap u, leapfrog in time (u_prev is u's previous step), the
 * 2nd-order Laplacian in space; c2 = (c dt / h)^2. */
cls_status cls__make_wave2d(cls_stencil *st)
{
    static const char *const f[] = {"u", NULL};
    static const char *const s0[] = {
        "u", "2 * IN(u, 0, 0) - IN(u_prev, 0, 0) + c2 * (IN(u, 1, 0) + IN(u, -1, 0) + "
             "IN(u, 0, 1) + IN(u, 0, -1) - 4 * IN(u, 0, 0))",
        NULL};
    static const char *const *const stages[] = {s0, NULL};
    static const char *const pn[] = {"c2", NULL};
    static const double pv[] = {0.25};
    return system_of(st, f, "u_prev", stages, pn, pv);
}

cls_status cls__make_wave3d(cls_stencil *st)
{
    static const char *const f[] = {"u", NULL};
    static const char *const s0[] = {
        "u", "2 * IN(u, 0, 0, 0) - IN(u_prev, 0, 0, 0) + c2 * (IN(u, 1, 0, 0) + "
             "IN(u, -1, 0, 0) + IN(u, 0, 1, 0) + IN(u, 0, -1, 0) + IN(u, 0, 0, 1) + "
             "IN(u, 0, 0, -1) - 6 * IN(u, 0, 0, 0))",
        NULL};
    static const char *const *const stages[] = {s0, NULL};
    static const char *const pn[] = {"c2", NULL};
    static const double pv[] = {0.25};
    return system_of(st, f, "u_prev", stages, pn, pv);
}

/* The acoustic wave equation with the 8th-order central second derivative per axis (radius 4,
 * weights -205/72, 8/5, -1/5, 8/315, -1/560), leapfrog in time: the kernel of reverse-time
 * migration in seismic imaging.  c2 = (c dt / h)^2. */
cls_status cls__make_acoustic3d_r4(cls_stencil *st)
{
    static const char *const f[] = {"u", NULL};
    static const char *const s0[] = {
        "u",
        "real c = IN(u, 0, 0, 0);\n"
        "real lap = -3 * 205 / 72.0 * c\n"
        "    + 8 / 5.0 * (IN(u, 1, 0, 0) + IN(u, -1, 0, 0) + IN(u, 0, 1, 0) + IN(u, 0, -1, 0) + "
        "IN(u, 0, 0, 1) + IN(u, 0, 0, -1))\n"
        "    - 1 / 5.0 * (IN(u, 2, 0, 0) + IN(u, -2, 0, 0) + IN(u, 0, 2, 0) + IN(u, 0, -2, 0) + "
        "IN(u, 0, 0, 2) + IN(u, 0, 0, -2))\n"
        "    + 8 / 315.0 * (IN(u, 3, 0, 0) + IN(u, -3, 0, 0) + IN(u, 0, 3, 0) + IN(u, 0, -3, 0) + "
        "IN(u, 0, 0, 3) + IN(u, 0, 0, -3))\n"
        "    - 1 / 560.0 * (IN(u, 4, 0, 0) + IN(u, -4, 0, 0) + IN(u, 0, 4, 0) + IN(u, 0, -4, 0) + "
        "IN(u, 0, 0, 4) + IN(u, 0, 0, -4));\n"
        "return 2 * c - IN(u_prev, 0, 0, 0) + c2 * lap;",
        NULL};
    static const char *const *const stages[] = {s0, NULL};
    static const char *const pn[] = {"c2", NULL};
    static const double pv[] = {0.1};
    return system_of(st, f, "u_prev", stages, pn, pv);
}

/* Gray-Scott reaction-diffusion (Pearson 1993): u' = Du lap u - u v^2 + F (1 - u),
 * v' = Dv lap v + u v^2 - (F + k) v, forward Euler with step dt on a unit grid. */
cls_status cls__make_gray_scott(cls_stencil *st)
{
    static const char *const f[] = {"u", "v", NULL};
    static const char *const s0[] = {
        "u",
        "real a = IN(u, 0, 0);\nreal b = IN(v, 0, 0);\n"
        "real lap = IN(u, 1, 0) + IN(u, -1, 0) + IN(u, 0, 1) + IN(u, 0, -1) - 4 * a;\n"
        "return a + dt * (Du * lap - a * b * b + F * (1 - a));",
        "v",
        "real a = IN(u, 0, 0);\nreal b = IN(v, 0, 0);\n"
        "real lap = IN(v, 1, 0) + IN(v, -1, 0) + IN(v, 0, 1) + IN(v, 0, -1) - 4 * b;\n"
        "return b + dt * (Dv * lap + a * b * b - (F + k) * b);",
        NULL};
    static const char *const *const stages[] = {s0, NULL};
    static const char *const pn[] = {"Du", "Dv", "F", "k", "dt", NULL};
    static const double pv[] = {0.16, 0.08, 0.035, 0.065, 1.0};
    cls_status s = system_of(st, f, NULL, stages, pn, pv);
    if (s == CLS_SUCCESS) s = cls_stencil_set_boundary(st, CLS_BOUNDARY_PERIODIC, 0);
    return s;
}

/* Yee's FDTD (Yee 1966; Taflove & Hagness), normalised units (S = c dt / h, the Courant
 * number; fields scaled so that both curls take S): stage 0 updates H from E, stage 1 E from
 * the new H.  2D: the TE mode (Ex, Ey, Hz). */
cls_status cls__make_fdtd2d(cls_stencil *st)
{
    static const char *const f[] = {"Ex", "Ey", "Hz", NULL};
    static const char *const s0[] = {
        "Hz", "IN(Hz, 0, 0) - S * ((IN(Ey, 1, 0) - IN(Ey, 0, 0)) - (IN(Ex, 0, 1) - IN(Ex, 0, 0)))",
        NULL};
    static const char *const s1[] = {"Ex", "IN(Ex, 0, 0) + S * (IN(Hz, 0, 0) - IN(Hz, 0, -1))",
                                     "Ey", "IN(Ey, 0, 0) - S * (IN(Hz, 0, 0) - IN(Hz, -1, 0))",
                                     NULL};
    static const char *const *const stages[] = {s0, s1, NULL};
    static const char *const pn[] = {"S", NULL};
    static const double pv[] = {0.5};
    return system_of(st, f, NULL, stages, pn, pv);
}

cls_status cls__make_fdtd3d(cls_stencil *st)
{
    static const char *const f[] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz", NULL};
    static const char *const s0[] = {
        "Hx", "IN(Hx, 0, 0, 0) - S * ((IN(Ez, 0, 1, 0) - IN(Ez, 0, 0, 0)) - "
              "(IN(Ey, 0, 0, 1) - IN(Ey, 0, 0, 0)))",
        "Hy", "IN(Hy, 0, 0, 0) - S * ((IN(Ex, 0, 0, 1) - IN(Ex, 0, 0, 0)) - "
              "(IN(Ez, 1, 0, 0) - IN(Ez, 0, 0, 0)))",
        "Hz", "IN(Hz, 0, 0, 0) - S * ((IN(Ey, 1, 0, 0) - IN(Ey, 0, 0, 0)) - "
              "(IN(Ex, 0, 1, 0) - IN(Ex, 0, 0, 0)))",
        NULL};
    static const char *const s1[] = {
        "Ex", "IN(Ex, 0, 0, 0) + S * ((IN(Hz, 0, 0, 0) - IN(Hz, 0, -1, 0)) - "
              "(IN(Hy, 0, 0, 0) - IN(Hy, 0, 0, -1)))",
        "Ey", "IN(Ey, 0, 0, 0) + S * ((IN(Hx, 0, 0, 0) - IN(Hx, 0, 0, -1)) - "
              "(IN(Hz, 0, 0, 0) - IN(Hz, -1, 0, 0)))",
        "Ez", "IN(Ez, 0, 0, 0) + S * ((IN(Hy, 0, 0, 0) - IN(Hy, -1, 0, 0)) - "
              "(IN(Hx, 0, 0, 0) - IN(Hx, 0, -1, 0)))",
        NULL};
    static const char *const *const stages[] = {s0, s1, NULL};
    static const char *const pn[] = {"S", NULL};
    static const double pv[] = {0.5};
    return system_of(st, f, NULL, stages, pn, pv);
}
