/* ghost_zone_apps.c: the four applications of Meng & Skadron 2010 as ghost-zone profiles
 * (Table 2). */
#include <ctype.h>

#include "ghost_zone.h"

/* Meng & Skadron 2010, Table 2, "Benchmark parameters used in our performance modeling",
 * read as:
 *
 *                        PathFinder  HotSpot   Poisson   Cell
 *   dimensionality       1           2         2         3
 *   halo width           2           2x2       2x2       2x2x2
 *   NumStencilArrays     1           2         1         1
 *   NumElemPerOp         1           0         0         0
 *   N                    100,000     500x500   500x500   60x60x60
 *   InstsPerSM_MC        1,998       13,488    12,825    71,603
 *   InstsPerSM_IC        1,859       16,645    12,474    2,20,521 (= 220,521)
 *   BankConflictRate     0           0         0         1.1
 *
 * The BankConflictRate row is printed "BankConflictRate_0  0  0  1.1": the subscript 0 is
 * PathFinder's value set low, so the four values are 0, 0, 0, 1.1, and 1.1 belongs to Cell,
 * the one application whose bank conflicts Sect. 5.2 reports.  It only enters the model
 * through tau (apply_tau = 1).
 *
 * Element size: Table 2 does not give it.  4 bytes (int or float) for all four; Sect. 6.2's
 * Eq. 32 uses the same (0.0367 = 4 x 1.3 / 141.7).
 *
 * The Fig. 7 configurations (Sect. 5.4.2): PathFinder blocks of 256 over 1,000,000 elements;
 * HotSpot and Poisson 20x20 over 2000x2000; Cell "a thread block size of 8", i.e. 8x8x8, over
 * 100x100x100. */
static const cls_gz_app gz_apps[] = {
    {"pathfinder",
     {"PathFinder", 1, {2, 0, 0}, 1, 1, 100000.0, 1998, 1859, 0, 4, 0, 0, {{0}}, {0}},
     {{1000000, 1, 1}, {256, 1, 1}, 1, CLS_GZ_KNL_RESTART}},
    {"hotspot",
     {"HotSpot", 2, {2, 2, 0}, 2, 0, 500.0 * 500.0, 13488, 16645, 0, 4, 0, 0, {{0}}, {0}},
     {{2000, 2000, 1}, {20, 20, 1}, 1, CLS_GZ_KNL_RESTART}},
    {"poisson2d",
     {"Poisson", 2, {2, 2, 0}, 1, 0, 500.0 * 500.0, 12825, 12474, 0, 4, 0, 0, {{0}}, {0}},
     {{2000, 2000, 1}, {20, 20, 1}, 1, CLS_GZ_KNL_RESTART}},
    {"cell3d",
     {"Cell", 3, {2, 2, 2}, 1, 0, 60.0 * 60.0 * 60.0, 71603, 220521, 1.1, 4, 0, 0, {{0}}, {0}},
     {{100, 100, 100}, {8, 8, 8}, 1, CLS_GZ_KNL_RESTART}},
};
#define GZ_NAPPS (sizeof gz_apps / sizeof gz_apps[0])

/* Case-insensitive equality; "poisson" also names "poisson2d" through the document name. */
static int same(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

const cls_gz_app *cls_gz_app_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < GZ_NAPPS; i++)
        if (same(name, gz_apps[i].name) || same(name, gz_apps[i].profile.name))
            return &gz_apps[i];
    return NULL;
}

const cls_gz_app *cls_gz_app_at(size_t i)
{
    return i < GZ_NAPPS ? &gz_apps[i] : NULL;
}
