/* builtins.c: the stencils of the source documents, runnable by name (see doc/stencils.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef cls_status (*builtin_fn)(cls_stencil *st);

/* HotSpot: the thermal ODE of Rodinia's benchmark, as Meng & Skadron 2010 study it:
 * T' = T + dt/Cap*(P + (T_N + T_S - 2T)/Ry + (T_E + T_W - 2T)/Rx + (amb - T)/Rz).
 * As in Rodinia's kernel, the divisions by constants are multiplications by precomputed
 * reciprocals (step_div_Cap, Rx_1, Ry_1, Rz_1).  The constants depend only on the parameters
 * and NX, NY, which are compile-time constants in the kernels, so the compiler folds them and a
 * step costs no division. */
static const char hotspot_body[] =
    "real gw = chip_width / NX;\n"
    "real gh = chip_height / NY;\n"
    "real cap = factor_chip * spec_heat_si * t_chip * gw * gh;\n"
    "real rx_1 = 1 / (gw / (2 * k_si * t_chip * gh));\n"
    "real ry_1 = 1 / (gh / (2 * k_si * t_chip * gw));\n"
    "real rz_1 = 1 / (t_chip / (k_si * gh * gw));\n"
    "real dt = precision / (max_pd / (factor_chip * t_chip * spec_heat_si));\n"
    "real step_div_cap = dt / cap;\n"
    "real t = IN(0, 0);\n"
    "return t + step_div_cap * (AUX(power, 0, 0) + (IN(0, 1) + IN(0, -1) - 2 * t) * ry_1\n"
    "       + (IN(1, 0) + IN(-1, 0) - 2 * t) * rx_1 + (amb_temp - t) * rz_1);\n";

static cls_status make_hotspot(cls_stencil *st)
{
    static const struct { const char *n; double v; } p[] = {
        {"chip_width", 0.016}, {"chip_height", 0.016}, {"t_chip", 0.0005},
        {"k_si", 100.0},       {"spec_heat_si", 1.75e6}, {"factor_chip", 0.5},
        {"max_pd", 3.0e6},     {"precision", 0.001},   {"amb_temp", 80.0}};
    cls_status s = cls_stencil_add_aux(st, "power", 0);
    for (size_t i = 0; s == CLS_SUCCESS && i < sizeof p / sizeof p[0]; i++)
        s = cls_stencil_set_param(st, p[i].n, p[i].v);
    return s;
}

/* PathFinder (Rodinia): row-by-row dynamic programming; each step adds the row's weights. */
static cls_status make_pathfinder(cls_stencil *st)
{
    return cls_stencil_add_aux(st, "wall", 1);
}

/* Jacobi iteration for the 2D Poisson equation laplace(u) = f on a grid of spacing h. */
static cls_status make_poisson2d(cls_stencil *st)
{
    cls_status s = cls_stencil_add_aux(st, "rhs", 0);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "h", 1.0);
    return s;
}

/* 3D Game of Life on the 26-neighbourhood (Bays' rule 4555 by default: a live cell survives
 * with 4..5 live neighbours, a dead cell is born with 5..5). */
static cls_status make_cell3d(cls_stencil *st)
{
    char *b = NULL;
    size_t len = 0, cap = 0;
    /* Meng & Skadron's Cell counts the live cells of the neighbourhood; cells are 1 (live) or
     * 0 (dead), so the count is the neighbours' sum.  Summed column by column (x = -1, 0, 1),
     * three chains of 8-9 additions instead of 26 comparisons feeding one chain: PoCL's
     * vectorised row loop runs 1.5x faster (doc/results.md), and the sum is exact, so the rule
     * sees the same count. */
    if (cls__appendf(&b, &len, &cap, "real n =") < 0) goto oom;
    for (int x = -1; x <= 1; x++) {
        int first = 1;
        if (cls__appendf(&b, &len, &cap, "%s (", x > -1 ? " +" : "") < 0) goto oom;
        for (int z = -1; z <= 1; z++)
            for (int y = -1; y <= 1; y++) {
                if (!x && !y && !z) continue;
                if (cls__appendf(&b, &len, &cap, "%sIN(%d, %d, %d)", first ? "" : " + ", x, y,
                                 z) < 0)
                    goto oom;
                first = 0;
            }
        if (cls__appendf(&b, &len, &cap, ")") < 0) goto oom;
    }
    if (cls__appendf(&b, &len, &cap,
                     ";\nreturn IN(0, 0, 0) > 0.5 ? (n >= survive_min && n <= survive_max)\n"
                     "                        : (n >= birth_min && n <= birth_max);\n") < 0)
        goto oom;
    free(st->body);
    st->body = b;
    cls_status s = cls_stencil_set_param(st, "survive_min", 4);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "survive_max", 5);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "birth_min", 5);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "birth_max", 5);
    if (s == CLS_SUCCESS) s = cls_stencil_set_boundary(st, CLS_BOUNDARY_CONSTANT, 0.0);
    return s;
oom:
    free(b);
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "building cell3d");
}

/* Mo & Li, Eq. 1: explicit 7-point heat equation, alpha = k*dt/dx^2. */
static cls_status make_heat3d7(cls_stencil *st)
{
    return cls_stencil_set_param(st, "alpha", 0.1);
}

/* General 27-point stencil with symmetric weights: centre, 6 faces, 12 edges, 8 corners. The
 * body groups equal coefficients (the CSE of Mo & Li, Sect. 6.3). */
static cls_status make_heat3d27(cls_stencil *st)
{
    char *b = NULL;
    size_t len = 0, cap = 0;
    const char *sep[4] = {"", "", "", ""};
    char *group[4] = {NULL, NULL, NULL, NULL};
    size_t glen[4] = {0}, gcap[4] = {0};
    for (int z = -1; z <= 1; z++)
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++) {
                int k = abs(x) + abs(y) + abs(z); /* 0 centre, 1 face, 2 edge, 3 corner */
                if (cls__appendf(&group[k], &glen[k], &gcap[k], "%sIN(%d, %d, %d)", sep[k], x, y,
                                 z) < 0)
                    goto oom;
                sep[k] = " + ";
            }
    if (cls__appendf(&b, &len, &cap,
                     "return c0 * %s\n     + c1 * (%s)\n     + c2 * (%s)\n     + c3 * (%s);\n",
                     group[0], group[1], group[2], group[3]) < 0)
        goto oom;
    for (int k = 0; k < 4; k++) free(group[k]);
    free(st->body);
    st->body = b;
    cls_status s = cls_stencil_set_param(st, "c0", 0.3);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "c1", 0.05);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "c2", 0.025);
    if (s == CLS_SUCCESS) s = cls_stencil_set_param(st, "c3", 0.0125);
    return s;
oom:
    for (int k = 0; k < 4; k++) free(group[k]);
    free(b);
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "building heat3d27");
}

/* Moving average (Visschers 2012, Sect. 3.3): the mean of 2r+1 neighbours; the radius
 * is structural, so changing it regenerates body and halo. */
static cls_status regen_moving_average(cls_stencil *st)
{
    int k = cls__stencil_param_index(st, "radius");
    double r = k >= 0 ? st->params[k].value : 4;
    if (r != floor(r) || r < 1 || r > 1024)
        return cls__fail(NULL, CLS_ERR_INVALID_SPEC,
                         "params.radius: must be an integer 1..1024, got %g", r);
    int ri = (int)r;
    char *b = NULL;
    size_t len = 0, cap = 0;
    if (cls__appendf(&b, &len, &cap, "return (") < 0) goto oom;
    for (int d = -ri; d <= ri; d++)
        if (cls__appendf(&b, &len, &cap, "%sIN(%d)", d > -ri ? " + " : "", d) < 0) goto oom;
    if (cls__appendf(&b, &len, &cap, ") / %d;\n", 2 * ri + 1) < 0) goto oom;
    free(st->body);
    st->body = b;
    st->halo[0] = ri;
    st->halo_explicit = 1;
    return CLS_SUCCESS;
oom:
    free(b);
    return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "building moving_average");
}

static cls_status make_moving_average(cls_stencil *st)
{
    cls_status s = cls_stencil_set_param(st, "radius", 4);
    if (s != CLS_SUCCESS) return s;
    st->regen = regen_moving_average;
    return regen_moving_average(st);
}

static const struct builtin {
    const char *name;
    int dims;
    const char *body; /* NULL: the maker writes it */
    builtin_fn make;
    const char *summary;
} builtins[] = {
    {"hotspot", 2, hotspot_body, make_hotspot,
     "HotSpot thermal simulation (Rodinia; Meng & Skadron 2010): temperature with a power map"},
    {"pathfinder", 1,
     "AUX(wall, 0) + min(IN(-1), min(IN(0), IN(1)))", make_pathfinder,
     "PathFinder dynamic programming (Rodinia; Meng & Skadron 2010): min of 3 plus the row's "
     "weight"},
    {"poisson2d", 2,
     "0.25 * (IN(1, 0) + IN(-1, 0) + IN(0, 1) + IN(0, -1) - h * h * AUX(rhs, 0, 0))",
     make_poisson2d, "Jacobi iteration for the 2D Poisson equation with a right-hand side"},
    {"cell3d", 3, NULL, make_cell3d,
     "3D Game of Life on a 3x3x3 neighbourhood (the Cell of Meng & Skadron 2010)"},
    {"heat3d7", 3,
     "IN(0, 0, 0) + alpha * (IN(0, 0, -1) + IN(0, -1, 0) + IN(-1, 0, 0) + IN(1, 0, 0)"
     " + IN(0, 1, 0) + IN(0, 0, 1) - 6 * IN(0, 0, 0))",
     make_heat3d7, "7-point explicit heat equation (Mo & Li, Eq. 1)"},
    {"heat3d27", 3, NULL, make_heat3d27,
     "27-point stencil with symmetric weights (Mo & Li, Sect. 6.3)"},
    {"moving_average", 1, NULL, make_moving_average,
     "1D moving average of radius r (Visschers 2012)"},
    {"emboss", 2,
     "(IN(1, 0) + IN(0, 1) + IN(1, 1)) - (IN(-1, -1) + IN(0, -1) + IN(-1, 0))", NULL,
     "2D emboss filter (Visschers 2012, Sect. 3.3, 5.1)"},
    {"jacobi3d", 3,
     "(IN(-1, 0, 0) + IN(1, 0, 0) + IN(0, -1, 0) + IN(0, 1, 0) + IN(0, 0, -1) + IN(0, 0, 1)) / 6",
     NULL, "3D Jacobi iteration for Laplace's equation (Visschers 2012, Sect. 3.3)"},
    /* Systems of fields (lib/builtin_systems.c). */
    {"wave2d", 2, NULL, cls__make_wave2d,
     "2D wave equation, leapfrog in time (a time level) and 2nd order in space"},
    {"wave3d", 3, NULL, cls__make_wave3d,
     "3D wave equation, leapfrog in time (a time level) and 2nd order in space"},
    {"acoustic3d_r4", 3, NULL, cls__make_acoustic3d_r4,
     "3D acoustic wave, leapfrog in time, 8th order in space (radius 4), as in seismic imaging"},
    {"gray_scott", 2, NULL, cls__make_gray_scott,
     "Gray-Scott reaction-diffusion of u and v (Pearson 1993), spots and stripes"},
    {"fdtd2d", 2, NULL, cls__make_fdtd2d,
     "Yee's FDTD, 2D TE mode (Ex, Ey, Hz): H from E, then E from the new H"},
    {"fdtd3d", 3, NULL, cls__make_fdtd3d,
     "Yee's FDTD in 3D (six fields): H from E, then E from the new H"},
};
#define N_BUILTINS (sizeof builtins / sizeof builtins[0])

const char *cls_stencil_builtin_name(size_t i) { return i < N_BUILTINS ? builtins[i].name : NULL; }

const char *cls_stencil_builtin_summary(const char *name)
{
    for (size_t i = 0; name && i < N_BUILTINS; i++)
        if (!strcmp(builtins[i].name, name)) return builtins[i].summary;
    return NULL;
}

cls_status cls_stencil_builtin(const char *name, cls_stencil **out)
{
    if (!name || !out) return cls__fail(NULL, CLS_ERR_INVALID_ARGUMENT, "cls_stencil_builtin: NULL");
    *out = NULL;
    for (size_t i = 0; i < N_BUILTINS; i++) {
        const struct builtin *b = &builtins[i];
        if (strcmp(b->name, name)) continue;
        cls_stencil *st;
        cls_status s = cls_stencil_create(b->name, b->dims, CLS_FLOAT32, b->body, &st);
        if (s != CLS_SUCCESS) return s;
        if (b->make && (s = b->make(st)) != CLS_SUCCESS) {
            cls_stencil_release(st);
            return s;
        }
        if (!(st->description = cls__strdup(b->summary))) {
            cls_stencil_release(st);
            return cls__fail(NULL, CLS_ERR_OUT_OF_HOST_MEMORY, "building %s", name);
        }
        *out = st;
        return CLS_SUCCESS;
    }
    char list[512] = "";
    for (size_t i = 0; i < N_BUILTINS; i++) {
        strncat(list, builtins[i].name, sizeof list - strlen(list) - 1);
        if (i + 1 < N_BUILTINS) strncat(list, ", ", sizeof list - strlen(list) - 1);
    }
    char q[CLS__QUOTE_MAX];
    return cls__fail(NULL, CLS_ERR_UNKNOWN_STENCIL, "unknown built-in stencil %s (known: %s)",
                     cls__quote(q, sizeof q, name), list);
}
